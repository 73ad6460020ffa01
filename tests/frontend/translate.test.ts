// The frontend's first slice, differentially: kernels (assembled by llvm-mc-19, and OpenCL C built
// by clang-19) are translated to IR, the IR runs in the IR interpreter, and every buffer must come
// out byte for byte as the RDNA interpreter leaves it on the original machine code (which is
// itself checked against pocl and the ISA). wave32 and wave64; partial workgroups; branches on
// SCC, VCCZ and EXECZ; EXEC-masked regions; carries; compares; scalar and global memory.
import { test } from 'node:test';
import { readFileSync } from 'node:fs';
import assert from 'node:assert/strict';
import type { Shader } from '../../src/container/shader.js';
import { loadShaders } from '../../src/container/shader.js';
import { buildCfg } from '../../src/analysis/cfg.js';
import { analyzeMode } from '../../src/analysis/mode.js';
import { translate } from '../../src/frontend/index.js';
import { TranslateError } from '../../src/frontend/errors.js';
import { dispatch, type Dim3 } from '../../src/interp/dispatch.js';
import { GlobalMemory } from '../../src/interp/memory.js';
import { dispatchIr } from '../../src/ir/dispatch.js';
import { verifyFunction } from '../../src/ir/verify.js';
import { assemble, dwords } from '../interp/harness.js';
import { Rng } from '../harness/rng.js';
import { sliceKernels as kernels } from './kernels.js';
import { buildOpenCl } from '../harness/opencl.js';

/**
 * Runs both engines on copies of the same buffers; returns both results. The kernarg holds the
 * buffers' addresses, then the u32 by-value `scalars`.
 */
function both(shader: Shader, buffers: Uint8Array[], grid: Dim3, block: Dim3, scalars: readonly number[] = []): { ref: Uint8Array[]; ir: Uint8Array[] } {
  const cfg = buildCfg(shader);
  const fn = translate(shader, cfg, analyzeMode(shader, cfg));
  assert.deepEqual(verifyFunction(fn), []);
  const run = (engine: 'ref' | 'ir') => {
    const bufs = buffers.map((b) => b.slice());
    const mem = new GlobalMemory();
    const kernarg = new Uint8Array(Math.max(64, shader.info.kernargSize));
    const kv = new DataView(kernarg.buffer);
    bufs.forEach((b, k) => kv.setBigUint64(8 * k, BigInt(mem.map(`buffer ${k}`, b)), true));
    scalars.forEach((v, k) => kv.setUint32(8 * bufs.length + 4 * k, v, true));
    const o = { grid, block, kernarg, mem, maxSteps: 50_000_000 };
    if (engine === 'ref') dispatch(shader, o); else dispatchIr(fn, shader, o);
    return bufs;
  };
  return { ref: run('ref'), ir: run('ir') };
}

function same(name: string, r: { ref: Uint8Array[]; ir: Uint8Array[] }): void {
  r.ref.forEach((b, k) => {
    const x = r.ir[k];
    assert.ok(x);
    const i = b.findIndex((v, j) => v !== x[j]);
    assert.equal(i, -1, `${name}: buffer ${k} differs at byte ${i}: interpreter ${Buffer.from(b.subarray(i & ~3, (i & ~3) + 4)).toString('hex')}, translation ${Buffer.from(x.subarray(i & ~3, (i & ~3) + 4)).toString('hex')}`);
  });
}

test('translated kernels (SALU, VALU, carries, compares, masks, loops under EXEC, scalar/global memory) leave memory as the interpreter does', () => {
  const rng = new Rng(5);
  for (const wave64 of [false, true]) {
    const shaders = assemble('gfx1030', kernels(wave64).map((k) => ({ ...k, vgprs: 32, sgprs: 32, directives: ['.amdhsa_system_sgpr_workgroup_id_x 1'] })));
    for (const [name, shader] of shaders) {
      const n = 256;
      const input = dwords(Array.from({ length: n }, (_, k) => (k % 5 === 0 ? [0, 1, 0xffffffff, 0x80000000, 101][k % 5] ?? 0 : rng.u32() >>> (rng.u32() % 24))));
      // Grid 200 of block 64: the last workgroup is partial (EXEC of its waves has holes).
      same(name, both(shader, [input, new Uint8Array(32 * n)], [200, 1, 1], [64, 1, 1]));
    }
  }
});

test('OpenCL kernels built by clang-19 (a data-dependent loop; integer mix with division, rotates, popcount, 64-bit products; global atomics) translate and match, wave32 and wave64', () => {
  const rng = new Rng(9);
  for (const w64 of [false, true]) {
    const out = buildOpenCl('interp-int.cl', { wave64: w64 });
    const shader = loadShaders({ bytes: new Uint8Array(readFileSync(out)), name: 'k' }).find((s) => s.info.name === 'collatz');
    assert.ok(shader);
    const seeds = dwords(Array.from({ length: 256 }, () => 1 + (rng.u32() % 3000)));
    same(`collatz wave${w64 ? 64 : 32}`, both(shader, [seeds, new Uint8Array(1024), new Uint8Array(1024)], [256, 1, 1], [128, 1, 1]));
    const mix = loadShaders({ bytes: new Uint8Array(readFileSync(out)), name: 'k' }).find((s) => s.info.name === 'int_mix');
    assert.ok(mix);
    const a = dwords(Array.from({ length: 256 }, (_, k) => (k % 7 === 0 ? [0, 1, 0xffffffff, 0x80000000][k % 4] ?? 0 : rng.u32())));
    const b = dwords(Array.from({ length: 256 }, (_, k) => (k % 5 === 0 ? [0, -1, 0x7fffffff, -0x80000000, 7][k % 5] ?? 0 : rng.u32() | 0)));
    // int_mix(a, b, out, n): pointers at kernarg offsets 0, 8, 16 and n (u32) at 24.
    same(`int_mix wave${w64 ? 64 : 32}`, both(mix, [a, b, new Uint8Array(8 * 256)], [256, 1, 1], [64, 1, 1], [250]));
    // Global atomics (add, max, min, or, xor; the compiler's wave-level reduction with v_mbcnt,
    // s_ff1, v_readlane/v_readfirstlane); only order-independent results are stored.
    const hist = loadShaders({ bytes: new Uint8Array(readFileSync(out)), name: 'k' }).find((s) => s.info.name === 'histogram');
    assert.ok(hist);
    const data = dwords(Array.from({ length: 320 }, () => rng.u32()));
    const bins = dwords([...new Array<number>(16).fill(0), 0, 0xffffffff, 0, 0, 0]);
    same(`histogram wave${w64 ? 64 : 32}`, both(hist, [data, bins, new Uint8Array(4 * 320)], [320, 1, 1], [64, 1, 1], [16]));
  }
});

test('an instruction outside the slice fails translation with its pc and text', () => {
  const shaders = assemble('gfx1030', [{ name: 'gap', body: 'v_mullit_f32 v1, v0, v0, v0\ns_endpgm' }]);
  const s = shaders.get('gap');
  assert.ok(s);
  const cfg = buildCfg(s);
  assert.throws(() => translate(s, cfg, analyzeMode(s, cfg)), (e: unknown) => e instanceof TranslateError && /pc 0x0: v_mullit_f32 v1, v0, v0, v0 \(d5500001 04020100\): v_mullit_f32 is not translated yet/.test(e.message));
});

test('an M0-indexed register past s105 or the shader\'s VGPRs, and reaching s_code_end, stop both engines (the interpreter with an error, the translation with a run-time fault)', () => {
  const bodies: [string, string, RegExp][] = [
    ['rel_const', 's_mov_b32 m0, 40\nv_movrels_b32 v1, v0\ns_endpgm', /beyond the shader's 32 VGPRs/],
    ['rel_runtime', 'v_readfirstlane_b32 s4, v0\ns_add_u32 m0, s4, 0xfffffff0\nv_movreld_b32 v2, v0\ns_endpgm', /beyond the shader's 32 VGPRs/],
    ['rel_sgpr', 'v_readfirstlane_b32 s4, v0\ns_add_u32 m0, s4, 103\ns_movreld_b64 s[2:3], 0\ns_endpgm', /past s105/],
    ['rel_2', 'v_readfirstlane_b32 s4, v0\ns_add_u32 m0, s4, 0x1f0000\nv_swaprel_b32 v1, v2\ns_endpgm', /beyond the shader's 32 VGPRs/],
    ['code_end', 'v_mov_b32 v1, v0\ns_code_end', /s_code_end/],
  ];
  const shaders = assemble('gfx1030', bodies.map(([name, body]) => ({ name, body, vgprs: 32, sgprs: 32 })));
  for (const [name, , ref] of bodies) {
    const s = shaders.get(name);
    assert.ok(s);
    const cfg = buildCfg(s);
    const fn = translate(s, cfg, analyzeMode(s, cfg));
    const o = () => ({ grid: [32, 1, 1] as Dim3, block: [32, 1, 1] as Dim3, kernarg: new Uint8Array(64), mem: new GlobalMemory(), maxSteps: 1_000_000 });
    assert.throws(() => dispatch(s, o()), (e: Error) => ref.test(e.message) && /pc 0x/.test(e.message), `${name}: the interpreter`);
    const want = name === 'code_end' ? /execution reached s_code_end/ : /an M0-indexed register .* outside s0\.\.s105 or the shader's VGPRs/;
    assert.throws(() => dispatchIr(fn, s, o()), (e: Error) => e.name === 'RuntimeFault' && want.test(e.message), `${name}: the translation`);
  }
});

test('an M0 known as a constant (in the block, or from other blocks by the scalar-constant data flow) names the register directly; a run-time M0 selects over the registers it can reach', () => {
  const body = (m0: string, k: number) => `${m0}\ns_cmp_eq_u32 s4, 0\ns_cbranch_scc0 L${k}\nv_mov_b32 v5, 1\nL${k}:\nv_movrels_b32 v1, v3\nv_movreld_b32 v6, v1\nglobal_store_dword v0, v9, s[0:1]\ns_endpgm`;
  const shaders = assemble('gfx1030', [
    { name: 'far', body: body('s_mov_b32 m0, 2', 0), vgprs: 16, sgprs: 16 },
    { name: 'runtime', body: body('v_readfirstlane_b32 s5, v0\ns_mov_b32 m0, s5', 1), vgprs: 16, sgprs: 16 },
  ]);
  const selects = (name: string) => {
    const s = shaders.get(name);
    assert.ok(s);
    const cfg = buildCfg(s);
    const fn = translate(s, cfg, analyzeMode(s, cfg));
    return fn.blocks.flatMap((b) => b.insts).filter((i) => i.op === 'Select32' && i.args[0]?.op === 'IEq32').length;
  };
  assert.equal(selects('far'), 0);
  // Selects on the index remain (those over registers never written fold away).
  assert.ok(selects('runtime') > 0);
});
