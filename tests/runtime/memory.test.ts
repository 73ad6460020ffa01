// Global and FLAT memory on lavapipe: byte and short loads (zero/sign extension, the d16 half-register
// forms) and stores at every alignment, shorts straddling dwords, lanes storing to adjacent bytes of
// one dword, several lanes storing the same byte in one instruction (the highest lane wins, as the
// interpreter applies lanes in ascending order), inactive lanes, FLAT accesses to global memory, in
// wave32 and wave64; a clang-19 OpenCL kernel over char/short/uchar buffers compared with the
// interpreter and pocl; FLAT lanes in the LDS aperture without LDS (nothing accessed) and in the
// private aperture without scratch (the run fails with the fault word's error, through the engine
// API); OpenCL 2.0 generic pointers into global memory and LDS (scratch.test.ts has the rest of the
// apertures and the SCRATCH instructions). Every module passes
// spirv-val; every buffer equals the RDNA interpreter's byte for byte (validation layer on).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Shader } from '../../src/container/shader.js';
import { loadShaders } from '../../src/container/shader.js';
import { recompile } from '../../src/backend/recompile.js';
import { LAVAPIPE_PROFILE, PORTABLE_PROFILE } from '../../src/backend/profile.js';
import { CompileError } from '../../src/backend/spirv/emit.js';
import type { Dim3 } from '../../src/interp/dispatch.js';
import { RuntimeFault, runOnVulkan } from '../../src/runtime/engine.js';
import { VulkanDevice } from '../../src/runtime/vulkan.js';
import { assemble } from '../interp/harness.js';
import { Rng } from '../harness/rng.js';
import { spirvVal } from '../harness/spirv.js';
import { both, LVP, same } from './harness.js';
import { prepare } from './cases.js';
import { buildOpenCl, OPENCL_FIXTURES } from '../harness/opencl.js';
import { dispatchIr } from '../../src/ir/dispatch.js';
import { translate } from '../../src/frontend/index.js';
import { buildCfg } from '../../src/analysis/cfg.js';
import { analyzeMode } from '../../src/analysis/mode.js';

const dir = mkdtempSync(join(tmpdir(), 'rdna-memory-'));
const BIN = new URL('../../bin/rdna', import.meta.url).pathname;
const POCL = new URL('../harness/pocl-run.py', import.meta.url).pathname;

/** The IR interpreter on the translation (before the backend), same layout: its buffers must equal the interpreter's too. */
function irRun(shader: Shader, buffers: Uint8Array[], grid: Dim3, block: Dim3): Uint8Array[] {
  const bufs = buffers.map((b) => b.slice());
  const p = prepare(shader, bufs, grid, block);
  const cfg = buildCfg(shader);
  dispatchIr(translate(shader, cfg, analyzeMode(shader, cfg)), shader, { grid, block, kernarg: p.kernarg, mem: p.mem, maxSteps: 50_000_000 });
  return bufs;
}

const DIRECTIVES = ['.amdhsa_system_sgpr_workgroup_id_x 1'];
const random = (rng: Rng, n: number) => Uint8Array.from({ length: n }, () => rng.u32() & 0xff);

/**
 * Loads: lane i (i = 64 * workgroup + lane id) reads at byte i of buffer 0 (every alignment; shorts
 * at i and i + 1 straddle dwords) with every sub-dword form, into v3..v10 (the d16 forms into halves
 * of preset registers), and stores them as dwords at buffer 1 + 32i. Lanes with i % 4 == 2 are off
 * for the second group of loads (their registers keep the presets).
 */
const loadKernel = (wave64: boolean) => {
  const vcc = wave64 ? 'vcc' : 'vcc_lo', exec = wave64 ? 'exec' : 'exec_lo', b = wave64 ? 'b64' : 'b32', sv = wave64 ? 's[12:13]' : 's12';
  return `
  s_load_dwordx4 s[4:7], s[0:1], 0x0
  s_waitcnt lgkmcnt(0)
  v_lshl_add_u32 v1, s2, 6, v0
  global_load_ubyte v3, v1, s[4:5]
  global_load_sbyte v4, v1, s[4:5]
  global_load_ushort v5, v1, s[4:5]
  global_load_sshort v6, v1, s[4:5] offset:1
  v_mov_b32 v7, 0x12345678
  v_mov_b32 v8, 0x9abcdef0
  v_mov_b32 v9, 0x0f1e2d3c
  v_mov_b32 v10, 0xa5a5c3c3
  v_add_nc_u32 v12, 8, v1
  v_and_b32 v11, 3, v1
  v_cmp_ne_u32_e32 ${vcc}, 2, v11
  s_and_saveexec_${b} ${sv}, ${vcc}
  global_load_ubyte_d16 v7, v1, s[4:5]
  global_load_sbyte_d16_hi v8, v1, s[4:5] offset:2
  global_load_short_d16 v9, v1, s[4:5] offset:3
  global_load_short_d16_hi v10, v12, s[4:5] offset:-1
  global_load_sbyte_d16 v3, v1, s[4:5] offset:5
  s_or_${b} ${exec}, ${exec}, ${sv}
  s_waitcnt vmcnt(0)
  v_lshlrev_b32 v2, 5, v1
  global_store_dwordx4 v2, v[3:6], s[6:7]
  global_store_dwordx4 v2, v[7:10], s[6:7] offset:16
  s_endpgm`;
};

/**
 * Stores: data v3 = i * 0x9e3779b1. Buffer 0: byte i (lanes 0..3 fill one dword), and at 512 + i
 * the data's byte 2 (store_byte_d16_hi). Buffer 1: shorts at 2i + 1 (odd: every other one straddles
 * a dword) and the high halves at 1024 + 2i + 1. Buffer 2: same-byte races, four lanes on byte
 * i >> 2, and overlapping shorts at (i >> 1) + 4 * (i >> 5) at 256 (each byte written by up to four
 * lanes of one wave; chunks of 32 lanes apart, so waves never race). Buffer 3: the same races with
 * the lanes where i & 5 == 1 off.
 */
const storeKernel = (wave64: boolean) => {
  const vcc = wave64 ? 'vcc' : 'vcc_lo', exec = wave64 ? 'exec' : 'exec_lo', b = wave64 ? 'b64' : 'b32', sv = wave64 ? 's[12:13]' : 's12';
  return `
  s_load_dwordx8 s[4:11], s[0:1], 0x0
  s_waitcnt lgkmcnt(0)
  v_lshl_add_u32 v1, s2, 6, v0
  v_mul_lo_u32 v3, v1, 0x9e3779b1
  global_store_byte v1, v3, s[4:5]
  global_store_byte_d16_hi v1, v3, s[4:5] offset:512
  v_lshl_add_u32 v4, v1, 1, 1
  global_store_short v4, v3, s[6:7]
  global_store_short_d16_hi v4, v3, s[6:7] offset:1024
  v_lshrrev_b32 v5, 2, v1
  global_store_byte v5, v3, s[8:9]
  v_lshrrev_b32 v6, 1, v1
  v_lshrrev_b32 v7, 5, v1
  v_lshl_add_u32 v6, v7, 2, v6
  global_store_short v6, v3, s[8:9] offset:256
  v_and_b32 v8, 5, v1
  v_cmp_ne_u32_e32 ${vcc}, 1, v8
  s_and_saveexec_${b} ${sv}, ${vcc}
  global_store_byte v5, v3, s[10:11]
  global_store_short v6, v3, s[10:11] offset:256
  s_or_${b} ${exec}, ${exec}, ${sv}
  s_endpgm`;
};

/** FLAT through 64-bit VGPR addresses (all global): dwords, bytes, shorts, an atomic. Buffer 0 in, buffer 1 out. */
const flatKernel = `
  s_load_dwordx4 s[4:7], s[0:1], 0x0
  s_waitcnt lgkmcnt(0)
  v_lshl_add_u32 v1, s2, 6, v0
  v_lshlrev_b32 v2, 2, v1
  v_mov_b32 v4, s5
  v_add_co_u32 v3, vcc_lo, s4, v2
  v_add_co_ci_u32_e32 v4, vcc_lo, 0, v4, vcc_lo
  flat_load_dword v5, v[3:4]
  flat_load_sbyte v6, v[3:4] offset:1
  flat_load_ushort v7, v[3:4] offset:3
  s_waitcnt vmcnt(0) lgkmcnt(0)
  v_lshlrev_b32 v2, 4, v1
  v_mov_b32 v9, s7
  v_add_co_u32 v8, vcc_lo, s6, v2
  v_add_co_ci_u32_e32 v9, vcc_lo, 0, v9, vcc_lo
  flat_store_dword v[8:9], v5
  flat_store_byte v[8:9], v6 offset:4
  flat_store_short v[8:9], v7 offset:5
  flat_store_short_d16_hi v[8:9], v5 offset:7
  v_mov_b32 v10, 1
  v_mov_b32 v12, s7
  v_add_co_u32 v11, vcc_lo, 0xf00, s6
  v_add_co_ci_u32_e32 v12, vcc_lo, 0, v12, vcc_lo
  flat_atomic_add v[11:12], v10 offset:160
  flat_store_dword v[8:9], v1 offset:12
  s_endpgm`;

/** FLAT with lane 5's address in an aperture (high dword `hi`): the run must fail with the fault. */
const apertureKernel = (hi: number, load: boolean) => `
  s_load_dwordx4 s[4:7], s[0:1], 0x0
  s_waitcnt lgkmcnt(0)
  v_lshlrev_b32 v2, 2, v0
  v_mov_b32 v4, s7
  v_add_co_u32 v3, vcc_lo, s6, v2
  v_add_co_ci_u32_e32 v4, vcc_lo, 0, v4, vcc_lo
  v_mov_b32 v6, 0x${hi.toString(16)}
  v_cmp_eq_u32_e32 vcc_lo, 5, v0
  v_cndmask_b32_e32 v4, v4, v6, vcc_lo
  ${load ? 'flat_load_ubyte v7, v[3:4]\n  s_waitcnt vmcnt(0) lgkmcnt(0)\n  global_store_dword v2, v7, s[4:5]' : 'flat_store_dword v[3:4], v0'}
  s_endpgm`;

test('byte and short loads and stores at every alignment, same-byte races, inactive lanes, FLAT to global memory: lavapipe equals the interpreter, wave32 and wave64', async () => {
  assert.ok(LVP, 'lavapipe (mesa-vulkan-drivers) is not installed');
  const dev = VulkanDevice.open({ driverFiles: LVP, validation: true });
  try {
    const rng = new Rng(606);
    for (const wave64 of [false, true]) {
      const w = wave64 ? 64 : 32;
      const shaders = assemble('gfx1030', [
        { name: `loads${w}`, body: loadKernel(wave64), wave64, vgprs: 16, sgprs: 16, directives: DIRECTIVES },
        { name: `stores${w}`, body: storeKernel(wave64), wave64, vgprs: 16, sgprs: 16, directives: DIRECTIVES },
      ]);
      const loads = shaders.get(`loads${w}`), stores = shaders.get(`stores${w}`);
      assert.ok(loads && stores);
      for (const [name, s] of [[`loads${w}`, loads], [`stores${w}`, stores]] as const) spirvVal(recompile(s, { profile: LAVAPIPE_PROFILE }).spirv, name);
      // 200 work-items in blocks of 64: the last wave(s) partly off; the input has bytes around 0x80 and 0xff.
      const input = random(rng, 256 + 8);
      for (let k = 0; k < input.length; k += 7) input[k] = [0x80, 0xff, 0x7f, 0x00][k % 4] ?? 0;
      const lbufs = [input, random(rng, 32 * 256)];
      const lres = await both(dev, { shader: loads, buffers: lbufs, grid: [200, 1, 1], block: [64, 1, 1] });
      same(`loads${w}`, lres);
      same(`loads${w} (IR)`, [lres[0], irRun(loads, lbufs, [200, 1, 1], [64, 1, 1])]);
      const sbufs = [random(rng, 1024), random(rng, 2048), random(rng, 512), random(rng, 512)];
      const sres = await both(dev, { shader: stores, buffers: sbufs, grid: [200, 1, 1], block: [64, 1, 1] });
      same(`stores${w}`, sres);
      same(`stores${w} (IR)`, [sres[0], irRun(stores, sbufs, [200, 1, 1], [64, 1, 1])]);
      // The races were real: of the lanes storing byte i >> 2, the highest one's byte stayed.
      const data = (i: number) => Math.imul(i, 0x9e3779b1) >>> 0;
      assert.equal(sres[1][2]?.[3], data(15) & 0xff);
    }
    const fshader = assemble('gfx1030', [{ name: 'flat', body: flatKernel, vgprs: 16, sgprs: 16, directives: DIRECTIVES }]).get('flat');
    assert.ok(fshader);
    spirvVal(recompile(fshader, { profile: LAVAPIPE_PROFILE }).spirv, 'flat');
    const fres = await both(dev, { shader: fshader, buffers: [random(rng, 4 * 256 + 8), new Uint8Array(16 * 256 + 2048)], grid: [160, 1, 1], block: [64, 1, 1] });
    same('flat', fres);
    assert.equal(new DataView(fres[1][1]?.buffer ?? new ArrayBuffer(8192)).getUint32(4000, true), 160);
  } finally {
    dev.close();
  }
});

test('FLAT lanes in the LDS aperture of a kernel without LDS access nothing (as the interpreter); in the private aperture of a kernel without scratch they fail the run with the pc and instruction (engine API, IR interpreter)', async () => {
  const dev = VulkanDevice.open({ driverFiles: LVP, validation: true });
  try {
    for (const [hi, load] of [[0x10000, false], [0x20000, true]] as const) {
      const name = `aperture_${hi.toString(16)}_${load ? 'load' : 'store'}`;
      const shader = assemble('gfx1030', [{ name, body: apertureKernel(hi, load), vgprs: 16, sgprs: 16 }]).get(name);
      assert.ok(shader);
      const r = recompile(shader, { profile: LAVAPIPE_PROFILE });
      spirvVal(r.spirv, name);
      if (!load) {
        // The LDS store of lane 5 is out of range (no LDS): dropped, the other lanes' dwords land.
        const res = await both(dev, { shader, buffers: [new Uint8Array(256), new Uint8Array(256)], grid: [32, 1, 1], block: [32, 1, 1] });
        same(name, res);
        const v = new DataView(res[1][1]?.buffer ?? new ArrayBuffer(256));
        assert.equal(v.getUint32(4 * 5, true), 0);
        assert.equal(v.getUint32(4 * 6, true), 6);
        continue;
      }
      const site = r.faults.find((f) => /^flat_load_ubyte/.test(f.instruction));
      assert.ok(site);
      const want = new RegExp(`^pc 0x${site.pc.toString(16)}: flat_load_ubyte v7, v\\[3:4\\]: a scratch access \\(SCRATCH, FLAT in the private aperture, or a buffer access through the private segment buffer\\) outside the wave's scratch region$`);
      await assert.rejects(runOnVulkan(shader, prepare(shader, [new Uint8Array(256), new Uint8Array(256)], [32, 1, 1], [32, 1, 1]), dev), (e: unknown) => e instanceof RuntimeFault && want.test(e.message));
      assert.throws(() => irRun(shader, [new Uint8Array(256), new Uint8Array(256)], [32, 1, 1], [32, 1, 1]), (e: unknown) => e instanceof RuntimeFault && /outside the wave's scratch region/.test(e.message));
      // Without the aperture lane, the same kernel runs: the fault word stays 0.
      await runOnVulkan(shader, prepare(shader, [new Uint8Array(256), new Uint8Array(256)], [5, 1, 1], [32, 1, 1]), dev);
    }
  } finally {
    dev.close();
  }
});

test('byte memory on a profile without 8-bit storage access is a CompileError naming the pc', () => {
  const shader = assemble('gfx1030', [{ name: 'nob', body: loadKernel(false), vgprs: 16, sgprs: 16, directives: DIRECTIVES }]).get('nob');
  assert.ok(shader);
  assert.throws(() => recompile(shader, { profile: PORTABLE_PROFILE }), (e: unknown) => e instanceof CompileError && /^pc 0x[0-9a-f]+: LoadGlobalU8: byte and short memory access needs 8-bit storage access .*storageBuffer8BitAccess.*portable profile does not offer/.test(e.message));
});

test('OpenCL char/short/uchar kernel (clang-19): rdna run on Vulkan equals the interpreter, which equals pocl', () => {
  const rng = new Rng(77);
  const n = 300;
  const bytes = (k: number) => Buffer.from(random(rng, k)).toString('base64');
  const doc = { kernel: 'bytes_mix', grid: [320], block: [64], args: [{ buffer: 'u8', base64: bytes(n) }, { buffer: 'i16', base64: bytes(2 * n) }, { buffer: 'i8', base64: bytes(n) }, { buffer: 'u8', base64: bytes(n) }, { buffer: 'i16', size: 2 * n }, { buffer: 'i32', size: 4 * n }, { u32: n }] };
  const args = join(dir, 'bytes.json');
  writeFileSync(args, JSON.stringify(doc));
  const pocl = spawnSync('/usr/bin/python3', [POCL, join(OPENCL_FIXTURES, 'interp-bytes.cl'), args, `-I${OPENCL_FIXTURES}`], { encoding: 'utf8', maxBuffer: 1 << 28 });
  assert.equal(pocl.status, 0, `pocl: ${pocl.stderr}`);
  const want = (JSON.parse(pocl.stdout) as { buffers: { arg: number; base64: string }[] }).buffers;
  for (const wave64 of [false, true]) {
    const obj = buildOpenCl('interp-bytes.cl', { wave64 });
    const shader = loadShaders({ bytes: new Uint8Array(readFileSync(obj)), name: 'k' }).find((s) => s.info.name === 'bytes_mix');
    assert.ok(shader);
    spirvVal(recompile(shader, { profile: LAVAPIPE_PROFILE }).spirv, `bytes_mix${wave64 ? 64 : 32}`);
    for (const engine of ['interp', 'vulkan']) {
      const r = spawnSync(process.execPath, [BIN, 'run', obj, '--args', args, '--engine', engine, '--json'], { encoding: 'utf8', maxBuffer: 1 << 28, env: { ...process.env, VK_DRIVER_FILES: LVP, RDNA_VULKAN_VALIDATION: '1' } });
      assert.equal(r.status, 0, r.stderr);
      const got = (JSON.parse(r.stdout) as { buffers: { arg: number; base64: string }[] }).buffers;
      assert.deepEqual(got.map((b) => b.arg), want.map((b) => b.arg));
      got.forEach((b, k) => assert.equal(b.base64, want[k]?.base64, `bytes_mix wave${wave64 ? 64 : 32} ${engine}: argument ${b.arg} differs from pocl`));
    }
    assert.ok(Buffer.from(want[5]?.base64 ?? '', 'base64').some((v) => v !== 0));
  }
});

test('rdna run --engine vulkan: generic pointers (OpenCL 2.0, FLAT) into global memory and into LDS equal the interpreter', () => {
  const obj = buildOpenCl('interp-bytes.cl', { options: ['-cl-std=CL2.0'] });
  const args = join(dir, 'flat.json');
  const run = (which: number, engine = 'vulkan') => {
    writeFileSync(args, JSON.stringify({ kernel: 'flat_pick', grid: [64], block: [64], args: [{ buffer: 'i32', data: Array.from({ length: 64 }, (_, k) => k * 3) }, { buffer: 'i32', size: 256 }, { i32: which }] }));
    return spawnSync(process.execPath, [BIN, 'run', obj, '--args', args, '--engine', engine, '--json'], { encoding: 'utf8', env: { ...process.env, VK_DRIVER_FILES: LVP, RDNA_VULKAN_VALIDATION: '1' } });
  };
  for (const which of [0, 1]) {
    const ok = run(which);
    assert.equal(ok.status, 0, ok.stderr);
    // The interpreter agrees (its src_shared_base, read as 64 bits, puts the aperture in the high dword as the kernel expects).
    const ref = run(which, 'interp');
    assert.equal(ref.status, 0, ref.stderr);
    assert.deepEqual((JSON.parse(ok.stdout) as { buffers: unknown }).buffers, (JSON.parse(ref.stdout) as { buffers: unknown }).buffers);
    const out = Buffer.from((JSON.parse(ok.stdout) as { buffers: { arg: number; base64: string }[] }).buffers[1]?.base64 ?? '', 'base64');
    // which = 0 stores to out; which = 1 to __local memory only.
    assert.deepEqual(Array.from({ length: 64 }, (_, k) => out.readInt32LE(4 * k)), Array.from({ length: 64 }, (_, k) => (which === 0 ? k * 3 + 1 : 0)));
  }
});
