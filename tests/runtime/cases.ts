// The differential cases of tests/runtime/engine.test.ts, shared with tools/vulkan-replay.ts (which
// records them, with the interpreter's results, for a machine without LLVM): RDNA2 kernels
// (assembly through llvm-mc-19, OpenCL C through clang-19), their input buffers, launch geometry
// and by-value scalars. Each suite draws its inputs from its own seeded Rng, case by case as the
// generator is consumed, so the inputs are the same whoever iterates it.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { buildCfg } from '../../src/analysis/cfg.js';
import { analyzeMode } from '../../src/analysis/mode.js';
import { translate } from '../../src/frontend/index.js';
import { dispatchIr } from '../../src/ir/dispatch.js';
import type { Shader } from '../../src/container/shader.js';
import { loadShaders } from '../../src/container/shader.js';
import { dispatch, type Dim3 } from '../../src/interp/dispatch.js';
import { GlobalMemory } from '../../src/interp/memory.js';
import type { PreparedDispatch } from '../../src/interp/args.js';
import { KERNARG_DIRECTIVES, dwords } from '../interp/harness.js';
import { assembleKernels, type KernelSpec } from '../harness/kernel.js';
import { sliceKernels } from '../frontend/kernels.js';
import { flowKernels } from './flow-kernels.js';
import { callKernels } from './call-kernels.js';
import { Rng } from '../harness/rng.js';
import { buildOpenCl, linkOpenCl } from '../harness/opencl.js';
import { addtidCases, atomicCases, buffer64Cases, bufferCases, compareCases, intCases, laneCases, openclAtomicCases } from './cases-breadth.js';
import { wideAssembly, wideOpenCl } from './cases-wide.js';
import { ldsCases } from './cases-lds.js';
import { bufferFormatCases } from './cases-buffer-format.js';
import { floatAtomicCases } from './cases-float-atomics.js';
import { dppCases } from './cases-dpp.js';
import { vfloatCases } from './cases-vfloat.js';
import { fp16OvflCases } from './cases-fp16-ovfl.js';
import { transcendentalCases } from './cases-transcendental.js';
import { dotCases, movrelCases, permlaneCases, sadCases, sdwaCases } from './cases-vint.js';
import { imageVkCases, sharedImageCases } from './image-vk-cases.js';
import { pckResinfoCases } from './cases-image-pck.js';
import { smemCases } from './cases-smem.js';
import { sampleCases } from './cases-sample.js';

export interface EngineCase {
  /** The case's name in messages. */
  readonly name: string;
  /** The module's name for spirv-val. */
  readonly spirvName: string;
  /** The code object (ELF) holding the kernel, and the kernel's name in it. */
  readonly code: Uint8Array;
  readonly kernel: string;
  readonly shader: Shader;
  /** The buffers before the run (every run works on copies); buffer k's address is at kernarg + 8k. */
  readonly buffers: readonly Uint8Array[];
  readonly grid: Dim3;
  readonly block: Dim3;
  /** u32 values written at kernarg offsets before the buffer addresses. */
  readonly scalars: readonly (readonly [number, number])[];
  /** A buffer that must hold a non-zero byte after the run (the kernel wrote its results). */
  readonly writes?: number;
  /** On lavapipe at least this many float ops, and every one of them, are emulated or guarded (none is native). */
  readonly emulatedOnLavapipe?: number;
  /** How the recompiler must emit the kernel's control flow (structured, or the state machine for an irreducible CFG). */
  readonly controlFlow?: 'structured' | 'state machine';
}

export interface EngineSuite {
  readonly title: string;
  readonly cases: () => Generator<EngineCase>;
}

/** Assembles kernels of one wave size (as tests/interp/harness.ts assemble does) and keeps the code object's bytes. */
function assembled(specs: readonly KernelSpec[]): { code: Uint8Array; shaders: Map<string, Shader> } {
  const code = assembleKernels('gfx1030', specs.map((s) => ({ ...s, directives: [...KERNARG_DIRECTIVES, ...(s.directives ?? [])] })));
  return { code, shaders: new Map(loadShaders({ bytes: code, name: 'test' }).map((s) => [s.info.name, s])) };
}

function one(spec: KernelSpec): { code: Uint8Array; shader: Shader } {
  const { code, shaders } = assembled([spec]);
  const shader = shaders.get(spec.name);
  assert.ok(shader);
  return { code, shader };
}

function kernelOf(code: Uint8Array, name: string): Shader {
  const shader = loadShaders({ bytes: code, name: 'k' }).find((s) => s.info.name === name);
  assert.ok(shader, `no kernel ${name}`);
  return shader;
}

/** The dispatch the interpreter and the Vulkan engine get: kernarg of max(64, kernargSize) bytes, scalars, then buffer k's address at 8k. */
export function prepare(shader: Shader, bufs: Uint8Array[], grid: Dim3, block: Dim3, scalars: readonly (readonly [number, number])[] = []): PreparedDispatch {
  const mem = new GlobalMemory();
  const kernarg = new Uint8Array(Math.max(64, shader.info.kernargSize));
  const kv = new DataView(kernarg.buffer);
  for (const [off, v] of scalars) kv.setUint32(off, v, true);
  const bs = bufs.map((bytes, k) => { const address = mem.map(`buffer ${k}`, bytes); kv.setBigUint64(8 * k, BigInt(address), true); return { arg: k, type: 'u32' as const, bytes, address, offset: 8 * k }; });
  return { grid, block, kernarg, mem, buffers: bs };
}

/** The interpreter's buffers after the case (on copies of its inputs). */
export function interpret(c: Pick<EngineCase, 'shader' | 'buffers' | 'grid' | 'block' | 'scalars'>): Uint8Array[] {
  const ref = c.buffers.map((b) => b.slice());
  const p = prepare(c.shader, ref, c.grid, c.block, c.scalars);
  dispatch(c.shader, { grid: c.grid, block: c.block, kernarg: p.kernarg, mem: p.mem, maxSteps: 50_000_000 });
  return ref;
}

/** The first recompiler slice's assembly kernels and the clang-19 OpenCL kernels, wave32 and wave64. */
function* sliceAndOpenCl(): Generator<EngineCase> {
  const rng = new Rng(21);
  for (const wave64 of [false, true]) {
    const { code, shaders } = assembled(sliceKernels(wave64).map((k) => ({ ...k, vgprs: 32, sgprs: 32, directives: ['.amdhsa_system_sgpr_workgroup_id_x 1'] })));
    for (const [name, shader] of shaders) {
      const n = 256;
      const input = dwords(Array.from({ length: n }, (_, k) => (k % 5 === 0 ? [0, 1, 0xffffffff, 0x80000000, 101][k % 5] ?? 0 : rng.u32() >>> (rng.u32() % 24))));
      yield { name, spirvName: name, code, kernel: name, shader, buffers: [input, new Uint8Array(32 * n)], grid: [200, 1, 1], block: [64, 1, 1], scalars: [] };
    }
  }
  // OpenCL C from clang-19: a data-dependent loop with early-exit lanes, an integer mix, global atomics.
  for (const w64 of [false, true]) {
    const w = w64 ? 64 : 32;
    const code = new Uint8Array(readFileSync(buildOpenCl('interp-int.cl', { wave64: w64 })));
    const seeds = dwords(Array.from({ length: 512 }, () => 1 + (rng.u32() % 4000)));
    yield { name: `collatz wave${w}`, spirvName: `collatz${w}`, code, kernel: 'collatz', shader: kernelOf(code, 'collatz'), buffers: [seeds, new Uint8Array(2048), new Uint8Array(2048)], grid: [512, 1, 1], block: [128, 1, 1], scalars: [] };
    // Integer mix: the compiler's division (v_cvt_f32_u32, v_rcp_iflag_f32 emulated exactly, v_mul_hi_u32 refinement),
    // rotates, popcount, clz, 64-bit products and shifts. int_mix(a, b, out, n): n (u32) at kernarg offset 24.
    const mix = kernelOf(code, 'int_mix');
    const a = dwords(Array.from({ length: 256 }, (_, k) => (k % 7 === 0 ? [0, 1, 0xffffffff, 0x80000000][k % 4] ?? 0 : rng.u32())));
    const b = dwords(Array.from({ length: 256 }, (_, k) => (k % 5 === 0 ? [0, -1, 0x7fffffff, -0x80000000, 7][k % 5] ?? 0 : rng.u32() | 0)));
    yield { name: `int_mix wave${w}`, spirvName: `int_mix${w}`, code, kernel: 'int_mix', shader: mix, buffers: [a, b, new Uint8Array(8 * 256)], grid: [256, 1, 1], block: [64, 1, 1], scalars: [[24, 250]] };
    // Global atomics and the compiler's wave-level reduction (order-independent results only).
    const hist = kernelOf(code, 'histogram');
    const data = dwords(Array.from({ length: 320 }, () => rng.u32()));
    const bins = dwords([...new Array<number>(16).fill(0), 0, 0xffffffff, 0, 0, 0]);
    yield { name: `histogram wave${w}`, spirvName: `histogram${w}`, code, kernel: 'histogram', shader: hist, buffers: [data, bins, new Uint8Array(4 * 320)], grid: [320, 1, 1], block: [64, 1, 1], scalars: [[24, 16]] };
    // f32 arithmetic as clang emits it with -cl-fp32-correctly-rounded-divide-sqrt: the division
    // sequence (v_div_scale/v_div_fmas/v_div_fixup), sqrt with the compiler's scaling and
    // refinement, min/max, integral rounding, conversions; with -cl-denorms-are-zero also
    // s_denorm_mode around the division and v_rsq_f32 in the sqrt. Inputs biased to zeros,
    // denormals, the largest values, infinities and NaNs.
    for (const daz of [false, true]) {
      const fcode = new Uint8Array(readFileSync(buildOpenCl('interp-float.cl', { wave64: w64, options: ['-cl-fp32-correctly-rounded-divide-sqrt', ...(daz ? ['-cl-denorms-are-zero'] : [])] })));
      const fname = `f32_ops wave${w}${daz ? ' denorms-are-zero' : ''}`;
      const fedges = [0, 0x80000000, 1, 0x807fffff, 0x00800000, 0x7f7fffff, 0xff7fffff, 0x3f800000, 0x3f000000, 0x4b000000, 0x4b000001, 0x3fc00000, 0x7f800000, 0xff800000, 0x7fc00000, 0xffa00001, 0x0f800000, 0x6f800000];
      const fin = () => dwords(Array.from({ length: 192 }, () => {
        const p = rng.u32() % 8;
        return (p === 0 ? fedges[rng.u32() % fedges.length] ?? 0 : p === 1 ? rng.u32() & 0x807fffff : p === 2 ? (rng.u32() & 0x80ffffff) | 0x4b000000 : p === 3 ? rng.u32() : (rng.u32() & 0x8fffffff) | 0x30000000) >>> 0;
      }));
      yield { name: fname, spirvName: fname.replace(/\W/g, '_'), code: fcode, kernel: 'f32_ops', shader: kernelOf(fcode, 'f32_ops'), buffers: [fin(), fin(), fin(), new Uint8Array(32 * 192)], grid: [192, 1, 1], block: [64, 1, 1], scalars: [], writes: 3 };
    }
  }
}

/**
 * A kernel body over pairs of f32 inputs: lane i of workgroup g (i = 64g + lane) loads its pair
 * into v3, v4 from the first buffer; v2 is i << `storeShift`, the store offset; then `ops`.
 */
export const pairKernel = (storeShift: number, ops: string) => `
  s_load_dwordx4 s[4:7], s[0:1], 0x0
  s_waitcnt lgkmcnt(0)
  v_lshl_add_u32 v1, s2, 6, v0
  v_lshlrev_b32 v2, 3, v1
  global_load_dwordx2 v[3:4], v2, s[4:5]
  s_waitcnt vmcnt(0)
  v_lshlrev_b32 v2, ${storeShift}, v1${ops}`;

/** f32 arithmetic under every rounding direction and denormal mode, set at launch and mid-shader; min/max/rounding/classes under IEEE on and off. */
function* floatModes(): Generator<EngineCase> {
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
        const { code, shader } = one({ name, body: body2, wave64, floatMode, ieeeMode: ieee, vgprs: 16, sgprs: 16, directives: ['.amdhsa_system_sgpr_workgroup_id_x 1'] });
        const n = 128;
        const edges = [0, 0x80000000, 1, 0x807fffff, 0x3f000000, 0xbf000000, 0x3fc00000, 0xbfc00000, 0x7f800000, 0xff800000, 0x7fc00000, 0x7fa00000, 0xffa00001, 0x4b800001];
        const input = dwords(Array.from({ length: 2 * n }, (_, k) => (k % 2 === 0 ? edges[rng.u32() % edges.length] ?? 0 : rng.u32() & 0xc0ffffff)));
        yield { name, spirvName: name, code, kernel: name, shader, buffers: [input, new Uint8Array(32 * n)], grid: [n, 1, 1], block: [64, 1, 1], scalars: [] };
      }
    }
    for (const floatMode of [0xf0, 0xc0, 0x00, 0xf3]) {
      const name = `fmodes${wave64 ? 64 : 32}_${floatMode.toString(16)}`;
      const { code, shader } = one({ name, body, wave64, floatMode, vgprs: 16, sgprs: 16, directives: ['.amdhsa_system_sgpr_workgroup_id_x 1'] });
      const n = 128;
      const edges = [0, 0x80000000, 1, 0x807fffff, 0x00800000, 0x7f7fffff, 0x3f800001, 0x33c00000, 0x7f800000, 0x7fc00000, 0x4b800000, 0x3f800000];
      const input = dwords(Array.from({ length: 2 * n }, (_, k) => (k % 3 === 0 ? edges[rng.u32() % edges.length] ?? 0 : k % 3 === 1 ? rng.u32() & 0x80ffffff : rng.u32())));
      yield { name, spirvName: name, code, kernel: name, shader, buffers: [input, new Uint8Array(64 * n)], grid: [n, 1, 1], block: [64, 1, 1], scalars: [], emulatedOnLavapipe: 10 };
    }
  }
}

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

/** The clamp/omod kernel and the frexp/fract kernel under six float/IEEE/DX10_CLAMP settings, on the same inputs. */
function* outputModifiers(): Generator<EngineCase> {
  const rng = new Rng(55);
  for (const wave64 of [false, true]) {
    for (const [floatMode, ieee, dx10Clamp] of [[0xf0, true, true], [0xf0, false, false], [0x00, false, true], [0x31, false, false], [0x12, true, false], [0x23, false, true]] as const) {
      const name = `omod${wave64 ? 64 : 32}_${floatMode.toString(16)}_${ieee ? 'ieee' : 'noieee'}_${dx10Clamp ? 'dx10' : 'nodx10'}`;
      const { code, shader } = one({ name, body: outModKernel(wave64), wave64, floatMode, ieeeMode: ieee, dx10Clamp, vgprs: 40, sgprs: 16, directives: ['.amdhsa_system_sgpr_workgroup_id_x 1'] });
      const n = 128;
      const edges = [0, 0x80000000, 1, 0x807fffff, 0x00800000, 0x7f7fffff, 0xff7fffff, 0x3f800000, 0x3f800001, 0xbf800000, 0x3f000000, 0x3effffff, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00001, 0x7fa00000, 0xffffffff, 0x7fffffff, 0x00000002, 0x7e800000];
      const input = dwords(Array.from({ length: 2 * n }, () => (rng.u32() % 2 === 0 ? edges[rng.u32() % edges.length] ?? 0 : rng.u32() % 3 === 0 ? rng.u32() & 0x80ffffff : rng.u32())));
      yield { name, spirvName: name, code, kernel: name, shader, buffers: [input, new Uint8Array(128 * n)], grid: [n, 1, 1], block: [64, 1, 1], scalars: [] };
      const sname = `split${name}`;
      const split = one({ name: sname, body: splitKernel, wave64, floatMode, ieeeMode: ieee, dx10Clamp, vgprs: 16, sgprs: 16, directives: ['.amdhsa_system_sgpr_workgroup_id_x 1'] });
      yield { name: sname, spirvName: sname, code: split.code, kernel: sname, shader: split.shader, buffers: [input, new Uint8Array(32 * n)], grid: [n, 1, 1], block: [64, 1, 1], scalars: [] };
    }
  }
}

/**
 * MODE only known at run time (issue 8): s_setreg_b32 of a kernarg value (FP_ROUND, then FP_DENORM,
 * then DX10_CLAMP/IEEE), s_getreg_b32 of the result, a mode set on one side of a branch (the paths
 * join with different modes), and s_setreg_b32 inside a loop that runs each f32 rounding direction
 * in turn. The kernarg dword at 24 (`DYN_MODE_ARG`) is the MODE value's low ten bits.
 */
export const DYN_MODE_ARG = 24;
const dynModeKernel = (wave64: boolean): string => pairKernel(6, `
  s_load_dword s8, s[0:1], ${DYN_MODE_ARG}
  s_waitcnt lgkmcnt(0)
  s_setreg_b32 hwreg(HW_REG_MODE, 0, 4), s8
  v_add_f32 v5, v3, v4
  v_mul_f32 v6, v3, v4
  s_lshr_b32 s9, s8, 4
  s_setreg_b32 hwreg(HW_REG_MODE, 4, 4), s9
  v_fma_f32 v7, v3, v4, v5
  v_sub_f32 v8, v3, v4
  s_getreg_b32 s10, hwreg(HW_REG_MODE, 0, 10)
  v_mov_b32 v9, s10
  s_lshr_b32 s9, s8, 8
  s_setreg_b32 hwreg(HW_REG_MODE, 8, 2), s9
  v_max_f32 v10, v3, v4
  v_mul_f32_e64 v11, v3, v4 clamp
  v_cmp_lt_f32 ${wave64 ? 'vcc' : 'vcc_lo'}, v3, v4
  v_cndmask_b32 v12, v5, v6, ${wave64 ? 'vcc' : 'vcc_lo'}
  s_and_b32 s9, s8, 0x400
  s_cmp_eq_u32 s9, 0
  s_cbranch_scc1 .Lkeep
  s_round_mode 0x3
.Lkeep:
  v_add_f32 v13, v3, v4
  v_mov_b32 v14, v3
  s_mov_b32 s11, 0
.Lloop:
  s_setreg_b32 hwreg(HW_REG_MODE, 0, 2), s11
  v_mul_f32 v14, v14, v4
  s_add_u32 s11, s11, 1
  s_cmp_lt_u32 s11, 4
  s_cbranch_scc1 .Lloop
  s_getreg_b32 s12, hwreg(HW_REG_MODE, 0, 32)
  v_mov_b32 v15, s12
  global_store_dwordx4 v2, v[5:8], s[6:7]
  global_store_dwordx4 v2, v[9:12], s[6:7] offset:16
  global_store_dwordx3 v2, v[13:15], s[6:7] offset:32
  s_endpgm`);

/** The dynamic-MODE kernel with MODE values covering every f32 rounding direction and denormal setting, DX10_CLAMP and IEEE both ways, both branch sides. */
function* dynamicModes(): Generator<EngineCase> {
  const rng = new Rng(77);
  for (const wave64 of [false, true]) {
    const name = `dynmode${wave64 ? 64 : 32}`;
    const { code, shader } = one({ name, body: dynModeKernel(wave64), wave64, floatMode: 0xf0, vgprs: 24, sgprs: 16, directives: ['.amdhsa_system_sgpr_workgroup_id_x 1'] });
    const n = 128;
    const edges = [0, 0x80000000, 1, 0x807fffff, 0x00800000, 0x7f7fffff, 0x3f800001, 0x33c00000, 0x7f800000, 0x7fc00000, 0x7fa00000, 0x4b800000, 0x3f800000, 0xbf7fffff];
    for (const m of [0x0f0, 0x3f1, 0x2c2, 0x133, 0x4a0, 0x753, 0x612, 0x001]) {
      const input = dwords(Array.from({ length: 2 * n }, (_, k) => (k % 3 === 0 ? edges[rng.u32() % edges.length] ?? 0 : k % 3 === 1 ? rng.u32() & 0x80ffffff : rng.u32())));
      yield { name: `${name}_${m.toString(16)}`, spirvName: `${name}_${m.toString(16)}`, code, kernel: name, shader, buffers: [input, new Uint8Array(64 * n)], grid: [n, 1, 1], block: [64, 1, 1], scalars: [[DYN_MODE_ARG, m]], writes: 1 };
    }
  }
}

/** Control flow through the whole recompiler (tests/runtime/flow-kernels.ts), wave32 and wave64, several uniform inputs. */
function* controlFlow(): Generator<EngineCase> {
  yield* flowCases(flowKernels, 45);
}

/** Calls, returns and computed jumps (tests/runtime/call-kernels.ts), the same way. */
function* callCases(): Generator<EngineCase> {
  yield* flowCases(callKernels, 46);
}

function* flowCases(kernelsOf: (wave64: boolean) => readonly { name: string; body: string; structured?: boolean; directives?: readonly string[] }[], seed: number): Generator<EngineCase> {
  const rng = new Rng(seed);
  for (const wave64 of [false, true]) {
    const kernels = kernelsOf(wave64);
    const { code, shaders } = assembled(kernels.map((k) => ({ name: k.name, body: k.body, wave64, vgprs: 16, sgprs: 32, directives: ['.amdhsa_system_sgpr_workgroup_id_x 1', ...(k.directives ?? [])] })));
    for (const k of kernels) {
      const shader = shaders.get(k.name);
      assert.ok(shader);
      for (let run = 0; run < 3; run++) {
        const n = 256;
        const input = dwords(Array.from({ length: n }, (_, i) => (i === 0 ? run * 5 + (rng.u32() & 0x30) : rng.u32() >>> (rng.u32() % 32))));
        const name = `${k.name} input ${run}`;
        yield { name, spirvName: name.replace(/\W/g, '_'), code, kernel: k.name, shader, buffers: [input, new Uint8Array(16 * n)], grid: [200 + 17 * run, 1, 1], block: [64, 1, 1], scalars: [], writes: 1, ...(k.structured === undefined ? {} : { controlFlow: k.structured ? 'structured' as const : 'state machine' as const }) };
      }
    }
  }
}

/** The suites in the order the engine test runs them. */
/**
 * A linked object's own data (tests/fixtures/opencl/constant-data.cl): a __constant table and
 * libclc's math tables, reached through the code object image (tests/runtime/code-image.test.ts
 * checks the lookup against the source's table).
 */
function* codeImageCases(): Generator<EngineCase> {
  const rng = new Rng(77);
  for (const w64 of [false, true]) {
    const w = w64 ? 64 : 32;
    const code = new Uint8Array(readFileSync(linkOpenCl(buildOpenCl('constant-data.cl', { wave64: w64 }))));
    const n = 256;
    const f32 = new Float32Array(n).map(() => (rng.u32() % 20000) / 97 - 3);
    const f64 = new Float64Array(n).map(() => ((rng.u32() % 40000) - 20000) / 311);
    yield { name: `constant table wave${w}`, spirvName: `lookup${w}`, code, kernel: 'lookup', shader: kernelOf(code, 'lookup'), buffers: [new Uint8Array(4 * n), dwords(Array.from({ length: n }, () => rng.u32()))], grid: [n, 1, 1], block: [64, 1, 1], scalars: [], writes: 0 };
    yield { name: `libclc f32 math wave${w}`, spirvName: `mathlib${w}`, code, kernel: 'mathlib', shader: kernelOf(code, 'mathlib'), buffers: [new Uint8Array(4 * n), new Uint8Array(f32.buffer)], grid: [n, 1, 1], block: [64, 1, 1], scalars: [], writes: 0 };
    yield { name: `libclc f64 math wave${w}`, spirvName: `mathlib64_${w}`, code, kernel: 'mathlib64', shader: kernelOf(code, 'mathlib64'), buffers: [new Uint8Array(8 * n), new Uint8Array(f64.buffer)], grid: [n, 1, 1], block: [64, 1, 1], scalars: [], writes: 0 };
  }
}

export const ENGINE_SUITES: readonly EngineSuite[] = [
  { title: 'slice and OpenCL kernels', cases: sliceAndOpenCl },
  { title: 'float modes', cases: floatModes },
  { title: 'clamp/omod and frexp/fract', cases: outputModifiers },
  { title: 'MODE known only at run time', cases: dynamicModes },
  // FP16_OVFL at launch, set mid-shader and from a kernarg (./cases-fp16-ovfl.ts; tests/runtime/fp16-ovfl.test.ts runs them).
  { title: 'FP16_OVFL', cases: fp16OvflCases },
  // Memory and integer breadth (./cases-breadth.ts; tests/runtime/breadth.test.ts runs them on three engines).
  { title: 'integer atomics', cases: atomicCases },
  { title: 'buffer resources', cases: bufferCases },
  { title: '64-bit buffer atomics', cases: buffer64Cases },
  { title: 'integer compares', cases: compareCases },
  { title: 'integer VALU', cases: intCases },
  { title: 'addtid', cases: addtidCases },
  { title: 'cross-lane writes', cases: laneCases },
  { title: 'DPP16 and DPP8', cases: dppCases },
  { title: 'SDWA on the 32-bit VALU', cases: sdwaCases },
  { title: 'v_permlane16/x16', cases: permlaneCases },
  { title: 'integer dot products', cases: dotCases },
  { title: 'SAD ops', cases: sadCases },
  { title: 'M0-indexed moves and v_trig_preop_f64', cases: movrelCases },
  { title: 'LDS and barriers', cases: ldsCases },
  { title: 'float atomics, addtid, append/consume, wrxchg2, condxchg32', cases: floatAtomicCases },
  { title: 'buffer formats and d16 buffer accesses', cases: bufferFormatCases },
  { title: 'OpenCL atomics', cases: openclAtomicCases },
  { title: 'f64 and f16 OpenCL kernels', cases: wideOpenCl },
  { title: 'f64 and f16 assembly kernels', cases: wideAssembly },
  // The rest of the float VALU (./cases-vfloat.ts; tests/runtime/vfloat.test.ts runs them on lavapipe).
  { title: 'remaining float VALU ops', cases: () => vfloatCases() },
  // v_exp/v_log/v_sin/v_cos (./cases-transcendental.ts; tests/runtime/transcendental.test.ts runs them on lavapipe and the IR interpreter).
  { title: 'transcendentals', cases: () => transcendentalCases() },
  { title: 'code object data (linked: __constant tables, libclc math tables)', cases: codeImageCases },
  { title: 'control flow', cases: controlFlow },
  { title: 'calls and computed jumps', cases: callCases },
  // Image (MIMG) storage instructions (tests/runtime/image.test.ts and image-pck.test.ts run them on
  // three engines), the Vulkan-ready kernels: the interpreter's scenarios with s_barrier between
  // their phases (./image-vk-cases.ts says why), then the kernels of every class and format.
  { title: 'image loads, stores and atomics', cases: function* () { for (const [, vk] of sharedImageCases()) yield vk; } },
  { title: 'image kernels of every class', cases: imageVkCases },
  { title: 'image_get_resinfo and the _pck forms', cases: function* () { for (const [, vk] of pckResinfoCases()) yield vk; } },
  // gfx1010/gfx1013's scalar stores and atomics (./cases-smem.ts; tests/runtime/scalar-memory.test.ts checks them against the ISA rules on three engines).
  { title: 'scalar stores and atomics (gfx1010, gfx1013)', cases: smemCases },
  // image_sample with point filtering and image_gather4 (./cases-sample.ts; tests/runtime/sample.test.ts checks them against its model on three engines).
  { title: 'image sampling (point) and gather4', cases: sampleCases },
];

/** The IR interpreter's buffers for the case (on copies of its inputs). */
export function irRun(c: Pick<EngineCase, 'shader' | 'buffers' | 'grid' | 'block' | 'scalars'>): Uint8Array[] {
  const bufs = c.buffers.map((b) => b.slice());
  const p = prepare(c.shader, bufs, c.grid, c.block, c.scalars);
  const cfg = buildCfg(c.shader);
  dispatchIr(translate(c.shader, cfg, analyzeMode(c.shader, cfg)), c.shader, { grid: c.grid, block: c.block, kernarg: p.kernarg, mem: p.mem, maxSteps: 50_000_000 });
  return bufs;
}
