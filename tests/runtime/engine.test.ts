// The recompiler end to end on lavapipe (Debian's mesa-vulkan-drivers, subgroup size 8): RDNA2
// kernels (assembly through llvm-mc-19, OpenCL C through clang-19) recompiled to SPIR-V, every
// module valid for spirv-val --target-env vulkan1.3, run by the Vulkan engine, and every buffer
// equal byte for byte to what the RDNA interpreter leaves (itself checked against pocl), with the
// Khronos validation layer on (any validation error fails the run).
// wave32 and wave64 (one Vulkan workgroup per RDNA wave, lane masks through workgroup memory).
import { test } from 'node:test';
import { spirvVal } from '../harness/spirv.js';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Shader } from '../../src/container/shader.js';
import { loadShaders } from '../../src/container/shader.js';
import { recompile } from '../../src/backend/recompile.js';
import { LAVAPIPE_PROFILE } from '../../src/backend/profile.js';
import { CompileError } from '../../src/backend/spirv/emit.js';
import { TranslateError } from '../../src/frontend/errors.js';
import { dispatch, type Dim3 } from '../../src/interp/dispatch.js';
import { GlobalMemory } from '../../src/interp/memory.js';
import type { PreparedDispatch } from '../../src/interp/args.js';
import { runOnVulkan } from '../../src/runtime/engine.js';
import { VulkanDevice } from '../../src/runtime/vulkan.js';
import { assemble, dwords } from '../interp/harness.js';
import { sliceKernels } from '../frontend/kernels.js';
import { Rng } from '../harness/rng.js';
import { buildOpenCl } from '../harness/opencl.js';

const ICD_DIR = '/usr/share/vulkan/icd.d';
/** The driver: lavapipe by default (CI), or RDNA_TEST_VK_DRIVER_FILES (a GPU's ICD, as for tests/runtime/vulkan.test.ts). */
const LVP = process.env['RDNA_TEST_VK_DRIVER_FILES'] ?? (existsSync(ICD_DIR) ? readdirSync(ICD_DIR) : []).filter((f) => f.startsWith('lvp_icd')).map((f) => join(ICD_DIR, f))[0] ?? '';
const dir = mkdtempSync(join(tmpdir(), 'rdna-engine-'));

const spirvValid = (words: Uint32Array, name: string): void => spirvVal(words, name);

/** The interpreter's result and the Vulkan engine's on copies of the same buffers (pointers at kernarg + 8k). */
async function both(dev: VulkanDevice, shader: Shader, buffers: Uint8Array[], grid: Dim3, block: Dim3, scalars: readonly [number, number][] = []): Promise<[Uint8Array[], Uint8Array[]]> {
  const prep = (bufs: Uint8Array[]): PreparedDispatch => {
    const mem = new GlobalMemory();
    const kernarg = new Uint8Array(Math.max(64, shader.info.kernargSize));
    const kv = new DataView(kernarg.buffer);
    for (const [off, v] of scalars) kv.setUint32(off, v, true);
    const bs = bufs.map((bytes, k) => { const address = mem.map(`buffer ${k}`, bytes); kv.setBigUint64(8 * k, BigInt(address), true); return { arg: k, type: 'u32' as const, bytes, address, offset: 8 * k }; });
    return { grid, block, kernarg, mem, buffers: bs };
  };
  const ref = buffers.map((b) => b.slice());
  const p1 = prep(ref);
  dispatch(shader, { grid, block, kernarg: p1.kernarg, mem: p1.mem, maxSteps: 50_000_000 });
  const vk = buffers.map((b) => b.slice());
  await runOnVulkan(shader, prep(vk), dev);
  return [ref, vk];
}

function same(name: string, [ref, vk]: [Uint8Array[], Uint8Array[]]): void {
  ref.forEach((b, k) => {
    const x = vk[k] as Uint8Array;
    const i = b.findIndex((v, j) => v !== x[j]);
    assert.equal(i, -1, `${name}: buffer ${k} differs at byte ${i}: interpreter ${Buffer.from(b.subarray(i & ~3, (i & ~3) + 4)).toString('hex')}, Vulkan ${Buffer.from(x.subarray(i & ~3, (i & ~3) + 4)).toString('hex')}`);
  });
}

test('recompiled kernels on lavapipe equal the interpreter byte for byte, wave32 and wave64', async () => {
  assert.ok(LVP, 'lavapipe (mesa-vulkan-drivers) is not installed');
  const dev = VulkanDevice.open({ driverFiles: LVP, validation: true });
  try {
    const rng = new Rng(21);
    for (const wave64 of [false, true]) {
      const shaders = assemble('gfx1030', sliceKernels(wave64).map((k) => ({ ...k, vgprs: 32, sgprs: 32, directives: ['.amdhsa_system_sgpr_workgroup_id_x 1'] })));
      for (const [name, shader] of shaders) {
        spirvValid(recompile(shader, { profile: LAVAPIPE_PROFILE }).spirv, name);
        const n = 256;
        const input = dwords(Array.from({ length: n }, (_, k) => (k % 5 === 0 ? [0, 1, 0xffffffff, 0x80000000, 101][k % 5] ?? 0 : rng.u32() >>> (rng.u32() % 24))));
        same(name, await both(dev, shader, [input, new Uint8Array(32 * n)], [200, 1, 1], [64, 1, 1]));
      }
    }
    // OpenCL C from clang-19: a data-dependent loop with early-exit lanes, an integer mix, global atomics.
    for (const w64 of [false, true]) {
      const out = buildOpenCl('interp-int.cl', { wave64: w64 });
      const shader = loadShaders({ bytes: new Uint8Array(readFileSync(out)), name: 'k' }).find((s) => s.info.name === 'collatz');
      assert.ok(shader);
      spirvValid(recompile(shader, { profile: LAVAPIPE_PROFILE }).spirv, `collatz${w64 ? 64 : 32}`);
      const seeds = dwords(Array.from({ length: 512 }, () => 1 + (rng.u32() % 4000)));
      same(`collatz wave${w64 ? 64 : 32}`, await both(dev, shader, [seeds, new Uint8Array(2048), new Uint8Array(2048)], [512, 1, 1], [128, 1, 1]));
      // Integer mix: the compiler's division (v_cvt_f32_u32, v_rcp_iflag_f32 emulated exactly, v_mul_hi_u32 refinement),
      // rotates, popcount, clz, 64-bit products and shifts. int_mix(a, b, out, n): n (u32) at kernarg offset 24.
      const mix = loadShaders({ bytes: new Uint8Array(readFileSync(out)), name: 'k' }).find((s) => s.info.name === 'int_mix');
      assert.ok(mix);
      spirvValid(recompile(mix, { profile: LAVAPIPE_PROFILE }).spirv, `int_mix${w64 ? 64 : 32}`);
      const a = dwords(Array.from({ length: 256 }, (_, k) => (k % 7 === 0 ? [0, 1, 0xffffffff, 0x80000000][k % 4] ?? 0 : rng.u32())));
      const b = dwords(Array.from({ length: 256 }, (_, k) => (k % 5 === 0 ? [0, -1, 0x7fffffff, -0x80000000, 7][k % 5] ?? 0 : rng.u32() | 0)));
      same(`int_mix wave${w64 ? 64 : 32}`, await both(dev, mix, [a, b, new Uint8Array(8 * 256)], [256, 1, 1], [64, 1, 1], [[24, 250]]));
      // Global atomics and the compiler's wave-level reduction (order-independent results only).
      const hist = loadShaders({ bytes: new Uint8Array(readFileSync(out)), name: 'k' }).find((s) => s.info.name === 'histogram');
      assert.ok(hist);
      spirvValid(recompile(hist, { profile: LAVAPIPE_PROFILE }).spirv, `histogram${w64 ? 64 : 32}`);
      const data = dwords(Array.from({ length: 320 }, () => rng.u32()));
      const bins = dwords([...new Array<number>(16).fill(0), 0, 0xffffffff, 0, 0, 0]);
      same(`histogram wave${w64 ? 64 : 32}`, await both(dev, hist, [data, bins, new Uint8Array(4 * 320)], [320, 1, 1], [64, 1, 1], [[24, 16]]));
      // f32 arithmetic as clang emits it with -cl-fp32-correctly-rounded-divide-sqrt: the division
      // sequence (v_div_scale/v_div_fmas/v_div_fixup), sqrt with the compiler's scaling and
      // refinement, min/max, integral rounding, conversions; with -cl-denorms-are-zero also
      // s_denorm_mode around the division and v_rsq_f32 in the sqrt. Inputs biased to zeros,
      // denormals, the largest values, infinities and NaNs.
      for (const daz of [false, true]) {
        const fobj = buildOpenCl('interp-float.cl', { wave64: w64, options: ['-cl-fp32-correctly-rounded-divide-sqrt', ...(daz ? ['-cl-denorms-are-zero'] : [])] });
        const f32ops = loadShaders({ bytes: new Uint8Array(readFileSync(fobj)), name: 'k' }).find((s) => s.info.name === 'f32_ops');
        assert.ok(f32ops);
        const fname = `f32_ops wave${w64 ? 64 : 32}${daz ? ' denorms-are-zero' : ''}`;
        spirvValid(recompile(f32ops, { profile: LAVAPIPE_PROFILE }).spirv, fname.replace(/\W/g, '_'));
        const fedges = [0, 0x80000000, 1, 0x807fffff, 0x00800000, 0x7f7fffff, 0xff7fffff, 0x3f800000, 0x3f000000, 0x4b000000, 0x4b000001, 0x3fc00000, 0x7f800000, 0xff800000, 0x7fc00000, 0xffa00001, 0x0f800000, 0x6f800000];
        const fin = () => dwords(Array.from({ length: 192 }, () => {
          const p = rng.u32() % 8;
          return (p === 0 ? fedges[rng.u32() % fedges.length] ?? 0 : p === 1 ? rng.u32() & 0x807fffff : p === 2 ? (rng.u32() & 0x80ffffff) | 0x4b000000 : p === 3 ? rng.u32() : (rng.u32() & 0x8fffffff) | 0x30000000) >>> 0;
        }));
        const fres = await both(dev, f32ops, [fin(), fin(), fin(), new Uint8Array(32 * 192)], [192, 1, 1], [64, 1, 1]);
        assert.ok(fres[0][3]?.some((v) => v !== 0), `${fname} wrote its results`);
        same(fname, fres);
      }
    }
  } finally {
    dev.close();
  }
});

/**
 * A kernel body over pairs of f32 inputs: lane i of workgroup g (i = 64g + lane) loads its pair
 * into v3, v4 from the first buffer; v2 is i << `storeShift`, the store offset; then `ops`.
 */
const pairKernel = (storeShift: number, ops: string) => `
  s_load_dwordx4 s[4:7], s[0:1], 0x0
  s_waitcnt lgkmcnt(0)
  v_lshl_add_u32 v1, s2, 6, v0
  v_lshlrev_b32 v2, 3, v1
  global_load_dwordx2 v[3:4], v2, s[4:5]
  s_waitcnt vmcnt(0)
  v_lshlrev_b32 v2, ${storeShift}, v1${ops}`;

test('f32 arithmetic under every rounding direction and denormal mode, set at launch and mid-shader, emulated exactly on lavapipe', async () => {
  const dev = VulkanDevice.open({ driverFiles: LVP, validation: true });
  try {
    const rng = new Rng(33);
    for (const wave64 of [false, true]) {
      const vcc = wave64 ? 'vcc' : 'vcc_lo';
      const body = pairKernel(6, `
  v_add_f32 v5, v3, v4
  v_mul_f32 v6, v3, v4
  s_round_mode 0x1
  v_sub_f32 v7, v3, v4
  s_round_mode 0x2
  v_mul_f32 v8, v3, v4
  s_round_mode 0x3
  s_denorm_mode 0x1
  v_add_f32 v9, v3, v4
  v_cmp_lt_f32 ${vcc}, v3, v4
  v_cndmask_b32 v10, v5, v6, ${vcc}
  v_cvt_f32_u32 v11, v1
  v_cvt_u32_f32 v12, v3
  s_round_mode 0x0
  v_fma_f32 v13, v3, v4, v5
  v_mov_b32 v14, v6
  v_fmac_f32 v14, v3, v4
  global_store_dwordx4 v2, v[5:8], s[6:7]
  global_store_dwordx4 v2, v[9:12], s[6:7] offset:16
  global_store_dwordx2 v2, v[13:14], s[6:7] offset:32
  s_endpgm`);
      const body2 = pairKernel(5, `
  v_min_f32 v5, v3, v4
  v_max_f32 v6, v3, v4
  v_floor_f32 v7, v3
  v_ceil_f32 v8, v4
  v_trunc_f32 v9, v3
  v_rndne_f32 v10, v4
  v_cmp_class_f32 ${vcc}, v3, 0x3a5
  v_cndmask_b32 v11, 1, 2, ${vcc}
  v_cmp_class_f32 ${vcc}, v4, v1
  v_cndmask_b32 v12, 3, 4, ${vcc}
  global_store_dwordx4 v2, v[5:8], s[6:7]
  global_store_dwordx4 v2, v[9:12], s[6:7] offset:16
  s_endpgm`);
      for (const floatMode of [0xf0, 0x00, 0x30]) {
        for (const ieee of [true, false]) {
          const name = `fops${wave64 ? 64 : 32}_${floatMode.toString(16)}_${ieee ? 'ieee' : 'noieee'}`;
          const shader = assemble('gfx1030', [{ name, body: body2, wave64, floatMode, ieeeMode: ieee, vgprs: 16, sgprs: 16, directives: ['.amdhsa_system_sgpr_workgroup_id_x 1'] }]).get(name);
          assert.ok(shader);
          spirvValid(recompile(shader, { profile: LAVAPIPE_PROFILE }).spirv, name);
          const n = 128;
          const edges = [0, 0x80000000, 1, 0x807fffff, 0x3f000000, 0xbf000000, 0x3fc00000, 0xbfc00000, 0x7f800000, 0xff800000, 0x7fc00000, 0x7fa00000, 0xffa00001, 0x4b800001];
          const input = dwords(Array.from({ length: 2 * n }, (_, k) => (k % 2 === 0 ? edges[rng.u32() % edges.length] ?? 0 : rng.u32() & 0xc0ffffff)));
          same(name, await both(dev, shader, [input, new Uint8Array(32 * n)], [n, 1, 1], [64, 1, 1]));
        }
      }
      for (const floatMode of [0xf0, 0xc0, 0x00, 0xf3]) {
        const name = `fmodes${wave64 ? 64 : 32}_${floatMode.toString(16)}`;
        const shaders = assemble('gfx1030', [{ name, body, wave64, floatMode, vgprs: 16, sgprs: 16, directives: ['.amdhsa_system_sgpr_workgroup_id_x 1'] }]);
        const shader = shaders.get(name);
        assert.ok(shader);
        const r = recompile(shader, { profile: LAVAPIPE_PROFILE });
        assert.ok(r.floatOps.length >= 10 && r.floatOps.every((f) => f.lowering === 'emulated'), JSON.stringify(r.floatOps));
        spirvValid(r.spirv, name);
        const n = 128;
        const edges = [0, 0x80000000, 1, 0x807fffff, 0x00800000, 0x7f7fffff, 0x3f800001, 0x33c00000, 0x7f800000, 0x7fc00000, 0x4b800000, 0x3f800000];
        const input = dwords(Array.from({ length: 2 * n }, (_, k) => (k % 3 === 0 ? edges[rng.u32() % edges.length] ?? 0 : k % 3 === 1 ? rng.u32() & 0x80ffffff : rng.u32())));
        same(name, await both(dev, shader, [input, new Uint8Array(64 * n)], [n, 1, 1], [64, 1, 1]));
      }
    }
  } finally {
    dev.close();
  }
});

/** VOP3 clamp/omod on f32 results (and the division helpers, sqrt, ldexp), integer clamp, in the kernel's wave size. */
const outModKernel = (wave64: boolean): string => {
  const m = (k: number) => (wave64 ? `s[${k}:${k + 1}]` : `s${k}`);
  const vcc = wave64 ? 'vcc' : 'vcc_lo';
  return pairKernel(7, `
  v_add_f32_e64 v5, v3, v4 clamp
  v_mul_f32_e64 v6, v3, v4 mul:2
  v_mul_f32_e64 v7, v3, v4 clamp mul:4
  v_fma_f32 v8, v3, v4, v3 div:2
  v_sub_f32_e64 v9, v3, v4 clamp div:2
  v_max_f32_e64 v10, v3, v4 clamp
  v_cvt_f32_u32_e64 v11, v1 mul:2
  v_add_nc_u32_e64 v12, v3, v4 clamp
  v_sub_nc_u32_e64 v13, v3, v4 clamp
  v_add_co_u32 v14, ${vcc}, v3, v4 clamp
  v_sub_co_ci_u32_e64 v15, ${m(8)}, v3, v4, ${vcc} clamp
  v_add_nc_i32 v16, v3, v4 clamp
  v_sub_nc_i32 v17, v3, v4 clamp
  v_sqrt_f32_e64 v18, v3 clamp mul:2
  v_rcp_f32_e64 v19, v4 div:2
  v_ldexp_f32 v20, v3, v1 clamp
  v_div_scale_f32 v21, ${vcc}, v3, v4, v3 mul:2
  v_div_fmas_f32 v22, v3, v4, v5 clamp
  v_div_fixup_f32 v23, v3, v4, v6 div:2
  v_floor_f32_e64 v24, v3 mul:4
  v_cvt_i32_f32_e64 v25, v3 clamp
  v_cmp_lt_f32_e64 ${m(10)}, v3, v4 clamp
  v_mad_u64_u32 v[26:27], null, v3, v4, v[3:4] clamp
  v_ldexp_f32 v28, v4, v3
  v_cndmask_b32_e64 v29, 0, 1, ${m(8)}
  v_cndmask_b32_e64 v30, 0, 1, ${m(10)}
  v_cndmask_b32_e64 v31, 0, 1, ${vcc}
  v_div_scale_f32 v32, ${vcc}, v4, v4, v3
  global_store_dwordx4 v2, v[5:8], s[6:7]
  global_store_dwordx4 v2, v[9:12], s[6:7] offset:16
  global_store_dwordx4 v2, v[13:16], s[6:7] offset:32
  global_store_dwordx4 v2, v[17:20], s[6:7] offset:48
  global_store_dwordx4 v2, v[21:24], s[6:7] offset:64
  global_store_dwordx4 v2, v[25:28], s[6:7] offset:80
  global_store_dwordx4 v2, v[29:32], s[6:7] offset:96
  s_endpgm`);
};

/** frexp, fract, byte conversions, floor conversion, min3/max3 (with output modifiers on some). */
const splitKernel = pairKernel(5, `
  v_frexp_mant_f32 v5, v3
  v_frexp_exp_i32_f32 v6, v4
  v_fract_f32 v7, v3
  v_fract_f32_e64 v8, v4 clamp mul:2
  v_cvt_f32_ubyte0 v9, v3
  v_cvt_f32_ubyte3_e64 v10, v4 div:2
  v_cvt_flr_i32_f32 v11, v3
  v_min3_f32 v12, v3, v4, 0.5 clamp
  global_store_dwordx4 v2, v[5:8], s[6:7]
  global_store_dwordx4 v2, v[9:12], s[6:7] offset:16
  s_endpgm`);

test('VOP3 clamp and omod (f32 results and integer saturation), frexp/fract/byte conversions, under several float modes, IEEE and DX10_CLAMP settings, exactly on lavapipe', async () => {
  const dev = VulkanDevice.open({ driverFiles: LVP, validation: true });
  try {
    const rng = new Rng(55);
    for (const wave64 of [false, true]) {
      for (const [floatMode, ieee, dx10Clamp] of [[0xf0, true, true], [0xf0, false, false], [0x00, false, true], [0x31, false, false], [0x12, true, false], [0x23, false, true]] as const) {
        const name = `omod${wave64 ? 64 : 32}_${floatMode.toString(16)}_${ieee ? 'ieee' : 'noieee'}_${dx10Clamp ? 'dx10' : 'nodx10'}`;
        const shader = assemble('gfx1030', [{ name, body: outModKernel(wave64), wave64, floatMode, ieeeMode: ieee, dx10Clamp, vgprs: 40, sgprs: 16, directives: ['.amdhsa_system_sgpr_workgroup_id_x 1'] }]).get(name);
        assert.ok(shader);
        spirvValid(recompile(shader, { profile: LAVAPIPE_PROFILE }).spirv, name);
        const n = 128;
        const edges = [0, 0x80000000, 1, 0x807fffff, 0x00800000, 0x7f7fffff, 0xff7fffff, 0x3f800000, 0x3f800001, 0xbf800000, 0x3f000000, 0x3effffff, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00001, 0x7fa00000, 0xffffffff, 0x7fffffff, 0x00000002, 0x7e800000];
        const input = dwords(Array.from({ length: 2 * n }, () => (rng.u32() % 2 === 0 ? edges[rng.u32() % edges.length] ?? 0 : rng.u32() % 3 === 0 ? rng.u32() & 0x80ffffff : rng.u32())));
        same(name, await both(dev, shader, [input, new Uint8Array(128 * n)], [n, 1, 1], [64, 1, 1]));
        const sname = `split${name}`;
        const split = assemble('gfx1030', [{ name: sname, body: splitKernel, wave64, floatMode, ieeeMode: ieee, dx10Clamp, vgprs: 16, sgprs: 16, directives: ['.amdhsa_system_sgpr_workgroup_id_x 1'] }]).get(sname);
        assert.ok(split);
        spirvValid(recompile(split, { profile: LAVAPIPE_PROFILE }).spirv, sname);
        same(sname, await both(dev, split, [input, new Uint8Array(32 * n)], [n, 1, 1], [64, 1, 1]));
      }
    }
  } finally {
    dev.close();
  }
});

test('clamp/omod where the interpreter does not model them are refused by the translation too', () => {
  for (const [asm, why] of [['v_mad_u32_u24 v5, v3, v4, v1 clamp', /v_mad_u32_u24 with clamp\/omod is not modelled/], ['v_cvt_u32_f32_e64 v5, v3 mul:2', /omod on an integer result is not modelled/], ['v_mul_u32_u24_e64 v5, v3, v4 clamp', /v_mul_u32_u24 with clamp\/omod is not modelled/]] as const) {
    const shader = assemble('gfx1030', [{ name: 'r', body: `${asm}\ns_endpgm`, vgprs: 16, sgprs: 16, directives: ['.amdhsa_system_sgpr_workgroup_id_x 1'] }]).get('r');
    assert.ok(shader);
    assert.throws(() => recompile(shader, { profile: LAVAPIPE_PROFILE }), (e: unknown) => e instanceof TranslateError && why.test(e.message), asm);
    assert.throws(() => dispatch(shader, { grid: [1, 1, 1], block: [1, 1, 1], kernarg: new Uint8Array(64), mem: new GlobalMemory(), maxSteps: 1000 }), (e: unknown) => e instanceof Error && /not modelled/.test(e.message), asm);
  }
});

test('what the slice cannot translate is an error naming the pc and instruction, never wrong SPIR-V', () => {
  // (The result is stored, so that dead-code elimination keeps the op; the kernel is only compiled.)
  const shaders = assemble('gfx1030', [{ name: 'fsin', body: 'v_sin_f32 v1, v0\nglobal_store_dword v[2:3], v1, off\ns_endpgm' }]);
  const k = shaders.get('fsin');
  assert.ok(k);
  assert.throws(() => recompile(k, { profile: LAVAPIPE_PROFILE }), (e: unknown) => (e instanceof TranslateError || e instanceof CompileError) && /^pc 0x0: v_sin_f32_e32 v1, v0 .*not translated yet/.test(e.message));
});

test('rdna run --engine vulkan: the same JSON as the interpreter plus the device; a missing driver is one line, exit 1', () => {
  const BIN = new URL('../../bin/rdna', import.meta.url).pathname;
  const obj = buildOpenCl('interp-int.cl');
  const args = join(dir, 'args.json');
  writeFileSync(args, JSON.stringify({ kernel: 'collatz', grid: [64], block: [32], args: [{ buffer: 'u32', data: Array.from({ length: 64 }, (_, k) => k + 1) }, { buffer: 'u32', size: 256 }, { buffer: 'u32', size: 256 }] }));
  const run = (engine: string, env: NodeJS.ProcessEnv) => spawnSync(process.execPath, [BIN, 'run', obj, '--args', args, '--engine', engine, '--json'], { encoding: 'utf8', env: { ...process.env, ...env } });
  const vk = run('vulkan', { VK_DRIVER_FILES: LVP, RDNA_VULKAN_VALIDATION: '1' });
  assert.equal(vk.status, 0, vk.stderr);
  const interp = run('interp', {});
  assert.equal(interp.status, 0, interp.stderr);
  const a = JSON.parse(vk.stdout) as { engine: string; device: string; buffers: unknown };
  const b = JSON.parse(interp.stdout) as { engine: string; buffers: unknown };
  assert.equal(a.engine, 'vulkan');
  assert.ok(a.device.length > 0);
  assert.deepEqual(a.buffers, b.buffers);
  const missing = run('vulkan', { VK_DRIVER_FILES: join(dir, 'no-such-icd.json') });
  assert.equal(missing.status, 1);
  assert.equal(missing.stderr.trim().split('\n').length, 1, missing.stderr);
  assert.match(missing.stderr, /Vulkan: /);
});
