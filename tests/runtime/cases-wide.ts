// The f64 and f16 cases of the Vulkan engine suite (tests/runtime/cases.ts lists them in
// ENGINE_SUITES, shared with tools/vulkan-replay.ts): the interpreter corpus's OpenCL kernels
// f64_ops and f16_ops (clang-19, default and -cl-denorms-are-zero builds), and assembly kernels
// covering every f64 and f16 VALU op the recompiler translates (VOP1/VOP2/VOP3 with neg/abs,
// clamp/omod and op_sel, the f64 division sequence as clang emits it, compares, classes and
// v_cmpx, conversions, VOP3P packed and mixed-precision math), with mid-shader s_round_mode and
// s_denorm_mode changes, under float-mode bytes that give every f16/f64 rounding direction and
// denormal setting, IEEE and DX10_CLAMP on and off, wave32 and wave64; inputs biased to ties,
// denormals, overflow, NaN payloads, signed zeros and cancellation.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { Shader } from '../../src/container/shader.js';
import { loadShaders } from '../../src/container/shader.js';
import { KERNARG_DIRECTIVES } from '../interp/harness.js';
import { assembleKernels, type KernelSpec } from '../harness/kernel.js';
import { buildOpenCl } from '../harness/opencl.js';
import { Rng } from '../harness/rng.js';
import type { EngineCase } from './cases.js';

function one(spec: KernelSpec): { code: Uint8Array; shader: Shader } {
  const code = assembleKernels('gfx1030', [{ ...spec, directives: [...KERNARG_DIRECTIVES, ...(spec.directives ?? [])] }]);
  const shader = loadShaders({ bytes: code, name: 'test' }).find((s) => s.info.name === spec.name);
  assert.ok(shader);
  return { code, shader };
}

const F64_EDGES = [0n, 1n << 63n, 1n, 0x800fffffffffffffn, 0x0010000000000000n, 0x7fefffffffffffffn, 0xffefffffffffffffn, 0x7ff0000000000000n, 0xfff0000000000000n,
  0x7ff8000000000000n, 0xfff4000000000001n, 0x3ff0000000000000n, 0xbff8000000000000n, 0x3ff0000000000001n, 0x3fe0000000000000n, 0x4330000000000001n, 0x41dfffffffc00000n,
  0xc1e0000000000000n, 0x41f0000000000000n, 0x7fe0000000000000n, 0x0008000000000000n, 0x3cb0000000000000n, 0x0000000000000003n, 0x400921fb54442d18n];
const F16_EDGES = [0, 0x8000, 1, 0x83ff, 0x0400, 0x7bff, 0xfbff, 0x7c00, 0xfc00, 0x7e00, 0xfd01, 0x3c00, 0xbe00, 0x3c01, 0x3800, 0x6401, 0x0200, 0x0003, 0x5bff, 0x4248];

/** An f64 bit pattern biased to the hard cases. */
function f64(rng: Rng): bigint {
  const r = () => BigInt(rng.u32());
  switch (rng.u32() % 8) {
    case 0: case 1: return F64_EDGES[rng.u32() % F64_EDGES.length] ?? 0n;
    case 2: return ((r() & 0x800fffffn) << 32n) | r(); // subnormal
    case 3: return (((r() & 0x800fffffn) | (BigInt(0x3fe + (rng.u32() % 4)) << 20n)) << 32n) | r(); // near 1
    case 4: return (((r() & 0x800fffffn) | (BigInt(rng.u32() % 2 ? 1 + (rng.u32() % 3) : 0x7fc + (rng.u32() % 3)) << 20n)) << 32n) | r(); // near underflow / overflow
    case 5: return (((r() & 0x80000000n) | (BigInt(0x3f0 + (rng.u32() % 32)) << 20n) | ((r() & 0xfn) << 16n)) << 32n) | (r() & 3n); // sparse: products tie
    default: return (r() << 32n) | r();
  }
}
/** An f16 bit pattern biased to the hard cases. */
function f16(rng: Rng): number {
  switch (rng.u32() % 6) {
    case 0: case 1: return F16_EDGES[rng.u32() % F16_EDGES.length] ?? 0;
    case 2: return rng.u32() & 0x83ff;
    case 3: return (rng.u32() & 0x83ff) | ((0x0d + (rng.u32() % 6)) << 10);
    case 4: return (rng.u32() & 0x8000) | ((0x0b + (rng.u32() % 10)) << 10) | ((rng.u32() & 0xf) << 6) | (rng.u32() & 3);
    default: return rng.u32() & 0xffff;
  }
}
/** An f32 around the f16 range (conversions, v_fma_mix). */
function f32(rng: Rng): number {
  switch (rng.u32() % 4) {
    case 0: return [0, 0x80000000, 1, 0x7f800000, 0xff800000, 0x7fc00000, 0x7fa00001, 0x477fe000, 0x477ff000, 0x33800000, 0x387fc000, 0x3f800000][rng.u32() % 12] ?? 0;
    case 1: return ((rng.u32() & 0x807fffff) | ((127 - 26 + (rng.u32() % 44)) << 23)) >>> 0;
    case 2: return ((rng.u32() & 0x807fe000) | ((127 - 20 + (rng.u32() % 36)) << 23) | (rng.u32() % 2 ? 0x1000 : 0)) >>> 0;
    default: return rng.u32();
  }
}

/** `n` lanes of four f64 inputs (32 bytes each): a, b (close to −a a quarter of the time), c (sometimes close to −a·b), d. */
function f64Inputs(rng: Rng, n: number): Uint8Array {
  const b = new Uint8Array(32 * n), v = new DataView(b.buffer), t = new DataView(new ArrayBuffer(8));
  const num = (x: bigint) => { t.setBigUint64(0, x); return t.getFloat64(0); };
  const bits = (x: number) => { t.setFloat64(0, x); return t.getBigUint64(0); };
  for (let l = 0; l < n; l++) {
    const a = f64(rng);
    const bb = rng.u32() % 4 === 0 ? BigInt.asUintN(64, (a ^ (1n << 63n)) + BigInt((rng.u32() % 5) - 2)) : f64(rng);
    const c = rng.u32() % 4 === 0 ? BigInt.asUintN(64, bits(-(num(a) * num(bb))) + BigInt((rng.u32() % 3) - 1)) : f64(rng);
    [a, bb, c, f64(rng)].forEach((x, k) => v.setBigUint64(32 * l + 8 * k, x, true));
  }
  return b;
}
/** `n` lanes of eight dwords (v3..v10): three of two f16 each, one f32 (v6), then four more f16 pairs. */
function f16Inputs(rng: Rng, n: number): Uint8Array {
  const b = new Uint8Array(32 * n), v = new DataView(b.buffer);
  for (let l = 0; l < n; l++) {
    for (let k = 0; k < 8; k++) v.setUint32(32 * l + 4 * k, k === 3 ? f32(rng) : (f16(rng) | (f16(rng) << 16)) >>> 0, true);
  }
  return b;
}

/** Lane i of workgroup g (i = 64g + lane): its 32 input bytes in v[3:10], v2 = i << `storeShift`, then `ops`. */
export const quadKernel = (storeShift: number, ops: string) => `
  s_load_dwordx4 s[4:7], s[0:1], 0x0
  s_waitcnt lgkmcnt(0)
  v_lshl_add_u32 v1, s2, 6, v0
  v_lshlrev_b32 v2, 5, v1
  global_load_dwordx4 v[3:6], v2, s[4:5]
  global_load_dwordx4 v[7:10], v2, s[4:5] offset:16
  s_waitcnt vmcnt(0)
  v_lshlrev_b32 v2, ${storeShift}, v1${ops}`;

/** Stores v[from..from+count) to s[6:7] + v2 in dwordx4 pieces. */
export const stores = (from: number, count: number) => {
  const out: string[] = [];
  for (let k = 0; k < count; k += 4) {
    const n = Math.min(4, count - k);
    out.push(`  global_store_dword${n === 1 ? '' : `x${n}`} v2, v${n === 1 ? from + k : `[${from + k}:${from + k + n - 1}]`}, s[6:7]${k ? ` offset:${4 * k}` : ''}`);
  }
  return out.join('\n');
};

/** f64 arithmetic, neg/abs, clamp/omod, and rounding/denormal changes mid-shader (MODE bits 3:2 and 7:6). */
const f64Arith = (): string => quadKernel(8, `
  v_add_f64 v[12:13], v[3:4], v[5:6]
  v_add_f64 v[14:15], v[3:4], -v[5:6]
  v_mul_f64 v[16:17], v[3:4], v[5:6]
  v_fma_f64 v[18:19], v[3:4], v[5:6], v[7:8]
  v_fma_f64 v[20:21], -v[3:4], |v[5:6]|, v[7:8]
  v_min_f64 v[22:23], v[3:4], v[5:6]
  v_max_f64 v[24:25], v[3:4], |v[5:6]|
  v_bfe_i32 v11, v9, 0, 12
  v_ldexp_f64 v[26:27], v[3:4], v11
  v_add_f64 v[28:29], v[3:4], v[5:6] clamp
  v_mul_f64 v[30:31], v[3:4], v[5:6] mul:2
  v_fma_f64 v[32:33], v[3:4], v[5:6], v[7:8] div:2
  v_max_f64 v[34:35], v[3:4], v[5:6] clamp mul:4
  s_round_mode 0x7
  v_add_f64 v[36:37], v[3:4], v[5:6]
  v_mul_f64 v[38:39], v[3:4], v[7:8]
  s_denorm_mode 0x3
  v_fma_f64 v[40:41], v[3:4], v[5:6], v[7:8]
  v_mul_f64 v[42:43], v[3:4], v[5:6]
  s_round_mode 0xb
  v_add_f64 v[44:45], v[3:4], -v[5:6]
  v_ldexp_f64 v[46:47], v[5:6], v11
${stores(12, 36)}
  s_endpgm`);

/** f64 unary ops, conversions, compares (v_cmp, v_cmp_class, v_cmpx), output modifiers on conversions. */
const f64Misc = (wave64: boolean): string => {
  const vcc = wave64 ? 'vcc' : 'vcc_lo', m = (k: number) => (wave64 ? `s[${k}:${k + 1}]` : `s${k}`);
  const exec = wave64 ? 'exec' : 'exec_lo', mov = wave64 ? 's_mov_b64' : 's_mov_b32';
  return quadKernel(8, `
  v_rcp_f64 v[12:13], v[3:4]
  v_sqrt_f64 v[14:15], v[5:6]
  v_rsq_f64 v[16:17], v[5:6]
  v_frexp_mant_f64 v[18:19], v[3:4]
  v_frexp_exp_i32_f64 v20, v[3:4]
  v_cvt_f32_f64 v21, v[3:4]
  v_fract_f64 v[22:23], v[3:4]
  v_trunc_f64 v[24:25], v[5:6]
  v_ceil_f64 v[26:27], v[5:6]
  v_floor_f64 v[28:29], v[5:6]
  v_rndne_f64 v[30:31], -v[5:6]
  v_cvt_f64_f32 v[32:33], v9
  v_cvt_i32_f64 v34, v[5:6]
  v_cvt_u32_f64 v35, v[3:4]
  v_cvt_f64_i32 v[36:37], v10
  v_cvt_f64_u32 v[38:39], v9
  v_cmp_lt_f64 ${vcc}, v[3:4], v[5:6]
  v_cndmask_b32 v40, 1, 2, ${vcc}
  v_cmp_ngt_f64_e64 ${m(8)}, v[3:4], -v[5:6]
  v_cndmask_b32_e64 v41, 3, 4, ${m(8)}
  v_cmp_u_f64_e64 ${m(8)}, v[3:4], v[7:8]
  v_cndmask_b32_e64 v42, 5, 6, ${m(8)}
  v_cmp_eq_f64 ${vcc}, v[3:4], v[5:6]
  v_cndmask_b32 v43, 7, 8, ${vcc}
  v_and_b32 v11, 0x3ff, v1
  v_cmp_class_f64_e64 ${m(8)}, v[3:4], v11
  v_cndmask_b32_e64 v44, 9, 10, ${m(8)}
  v_cmp_class_f64 ${vcc}, v[5:6], 0x263
  v_cndmask_b32 v45, 11, 12, ${vcc}
  v_cvt_f32_f64_e64 v46, v[3:4] clamp mul:2
  v_cvt_f64_f32_e64 v[48:49], v9 div:2
  v_rcp_f64_e64 v[50:51], v[5:6] clamp
  v_mov_b32 v47, 0
  ${mov} ${m(10)}, ${exec}
  v_cmpx_ge_f64 v[3:4], v[5:6]
  v_mov_b32 v47, 13
  ${mov} ${exec}, ${m(10)}
${stores(12, 40)}
  s_endpgm`);
};

/** The f64 division sequence clang emits for x / y (v_div_scale, Newton steps on v_rcp_f64, v_div_fmas reading VCC, v_div_fixup). */
const f64Div = (wave64: boolean): string => {
  const vcc = wave64 ? 'vcc' : 'vcc_lo';
  return quadKernel(6, `
  v_div_scale_f64 v[12:13], null, v[5:6], v[5:6], v[3:4]
  v_div_scale_f64 v[14:15], ${vcc}, v[3:4], v[5:6], v[3:4]
  v_rcp_f64 v[16:17], v[12:13]
  v_fma_f64 v[18:19], -v[12:13], v[16:17], 1.0
  v_fma_f64 v[16:17], v[16:17], v[18:19], v[16:17]
  v_fma_f64 v[18:19], -v[12:13], v[16:17], 1.0
  v_fma_f64 v[16:17], v[16:17], v[18:19], v[16:17]
  v_mul_f64 v[18:19], v[14:15], v[16:17]
  v_fma_f64 v[20:21], -v[12:13], v[18:19], v[14:15]
  v_cndmask_b32 v22, 0, 1, ${vcc}
  v_div_fmas_f64 v[20:21], v[20:21], v[16:17], v[18:19]
  v_div_fixup_f64 v[24:25], v[20:21], v[5:6], v[3:4]
  v_div_scale_f64 v[26:27], ${vcc}, v[7:8], v[7:8], v[3:4]
  v_cndmask_b32 v23, 0, 1, ${vcc}
${stores(12, 16)}
  s_endpgm`);
};

/**
 * f16 VOP1/VOP2/VOP3: arithmetic, neg/abs, clamp/omod, the VOP3-only ops with op_sel (sources'
 * halves, and the result into the high half of a register whose low half an earlier op wrote),
 * conversions, compares and classes, and rounding/denormal changes mid-shader.
 */
const f16Ops = (wave64: boolean): string => {
  const vcc = wave64 ? 'vcc' : 'vcc_lo', m = (k: number) => (wave64 ? `s[${k}:${k + 1}]` : `s${k}`);
  return quadKernel(8, `
  v_add_f16 v12, v3, v4
  v_fma_f16 v12, v3, v4, v5 op_sel:[1,1,1,1]
  v_sub_f16 v13, v3, v4
  v_min3_f16 v13, v3, v4, v5 op_sel:[1,0,1,1]
  v_subrev_f16 v14, v3, v4
  v_div_fixup_f16 v14, v3, v4, v5 op_sel:[1,1,0,1]
  v_mul_f16 v15, v3, v4
  v_max3_f16 v15, v3, v4, v5 op_sel:[0,1,1,1]
  v_fma_f16 v16, v3, v4, v5
  v_mov_b32 v17, v5
  v_fmac_f16 v17, v3, v4
  v_min_f16 v18, v3, v4
  v_max_f16_e64 v19, -v3, |v4| clamp
  v_bfe_i32 v11, v6, 0, 6
  v_ldexp_f16 v20, v3, v11
  v_rcp_f16 v21, v3
  v_sqrt_f16 v22, v4
  v_rsq_f16 v23, v4
  v_floor_f16 v24, v3
  v_ceil_f16 v25, v3
  v_trunc_f16 v26, v4
  v_rndne_f16 v27, v4
  v_fract_f16 v28, v3
  v_frexp_mant_f16 v29, v3
  v_frexp_exp_i16_f16 v30, v4
  v_cvt_f16_f32 v31, v6
  v_cvt_f32_f16 v32, v3
  v_cvt_pkrtz_f16_f32 v33, v6, v32
  v_cvt_i16_f16 v34, v3
  v_cvt_u16_f16 v35, v4
  v_cvt_f16_i16 v36, v5
  v_cvt_f16_u16 v37, v5
  v_pack_b32_f16 v38, v3, -v4 op_sel:[1,0]
  v_div_fixup_f16 v39, v3, v4, v5
  v_min3_f16 v40, v3, v4, v5
  v_max3_f16 v41, v3, v4, v5
  v_mul_f16_e64 v42, v3, v4 mul:2
  v_cvt_f16_f32_e64 v43, v6 clamp div:2
  v_cmp_lt_f16 ${vcc}, v3, v4
  v_cndmask_b32 v44, 1, 2, ${vcc}
  v_cmp_nge_f16_e64 ${m(8)}, v3, -v4
  v_cndmask_b32_e64 v45, 3, 4, ${m(8)}
  v_cmp_class_f16 ${vcc}, v3, v1
  v_cndmask_b32 v46, 5, 6, ${vcc}
  v_cvt_f32_f16_sdwa v50, v3 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:WORD_1
  v_mov_b32 v51, v5
  v_add_f16_sdwa v51, v3, v4 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE src0_sel:WORD_1 src1_sel:WORD_0
  v_mul_f16_sdwa v52, -v3, |v4| dst_sel:WORD_0 dst_unused:UNUSED_SEXT src0_sel:WORD_0 src1_sel:WORD_1
  v_cvt_f16_f32_sdwa v53, v6 dst_sel:WORD_1 dst_unused:UNUSED_PAD src0_sel:DWORD
  v_cvt_f16_u16_sdwa v54, v5 dst_sel:BYTE_1 dst_unused:UNUSED_SEXT src0_sel:BYTE_2
  v_mov_b32 v55, v4
  v_cvt_f16_i16_sdwa v55, sext(v5) dst_sel:WORD_0 dst_unused:UNUSED_PRESERVE src0_sel:BYTE_3
  v_cmp_lt_f16_sdwa ${vcc}, v3, v4 src0_sel:WORD_1 src1_sel:WORD_1
  v_cndmask_b32 v56, 7, 8, ${vcc}
  v_max_f16_sdwa v57, v3, v4 clamp dst_sel:WORD_1 dst_unused:UNUSED_PAD src0_sel:WORD_1 src1_sel:WORD_0
  s_round_mode 0xd
  s_denorm_mode 0x9
  v_add_f16 v47, v3, v4
  v_mul_f16 v48, v3, v5
  v_fma_f16 v49, v3, v4, v5
  v_sub_f16_sdwa v58, v3, v5 dst_sel:WORD_1 dst_unused:UNUSED_SEXT src0_sel:WORD_1 src1_sel:WORD_1
${stores(12, 47)}
  s_endpgm`);
};

/** VOP3P packed f16 and 16-bit integer math (op_sel, op_sel_hi, neg_lo/neg_hi, clamp) and the mixed-precision fmas. */
const packedOps = (): string => quadKernel(7, `
  v_pk_add_f16 v12, v3, v4
  v_pk_mul_f16 v13, v3, v4 op_sel:[1,0] op_sel_hi:[0,1]
  v_pk_fma_f16 v14, v3, v4, v5 neg_lo:[1,0,0] neg_hi:[0,1,1]
  v_pk_fma_f16 v15, v3, v4, v5 clamp
  v_pk_min_f16 v16, v3, v4
  v_pk_max_f16 v17, v3, v4 op_sel_hi:[0,0]
  v_pk_add_f16 v18, v3, 1.0
  v_pk_add_u16 v19, v3, v4 clamp
  v_pk_sub_u16 v20, v3, v4 clamp
  v_pk_add_i16 v21, v3, v4 clamp
  v_pk_sub_i16 v22, v3, v4
  v_pk_mad_u16 v23, v3, v4, v5 clamp
  v_pk_mad_i16 v24, v3, v4, v5 op_sel:[1,0,0]
  v_pk_mul_lo_u16 v25, v3, v4
  v_pk_lshlrev_b16 v26, v3, v4
  v_pk_lshrrev_b16 v27, v3, v4
  v_pk_ashrrev_i16 v28, v3, v4
  v_pk_max_i16 v29, v3, v4
  v_pk_min_u16 v30, v3, v4
  v_fma_mix_f32 v31, v3, v4, v6 op_sel_hi:[1,1,0]
  v_fma_mix_f32 v32, v3, -v4, |v5| op_sel:[1,0,1] op_sel_hi:[1,1,1] clamp
  v_mov_b32 v33, v6
  v_fma_mixlo_f16 v33, v6, v3, v4 op_sel_hi:[0,1,1]
  v_mov_b32 v34, v6
  v_fma_mixhi_f16 v34, v3, v4, v6 op_sel:[1,1,0] op_sel_hi:[1,1,0] clamp
  v_mov_b32 v35, v5
  v_pk_fmac_f16 v35, v3, v4
  v_pk_max_u16 v36, v3, v4 op_sel:[1,1] op_sel_hi:[0,0]
  v_pk_min_i16 v37, v3, v4
  v_fma_mix_f32 v38, v3, 0.5, v6 op_sel_hi:[1,1,0]
${stores(12, 27)}
  s_endpgm`);

/** The 16-bit integer VALU (op_sel halves in and out, clamp saturation) and the u16/i16 compares. */
const int16Ops = (wave64: boolean): string => {
  const vcc = wave64 ? 'vcc' : 'vcc_lo', m = (k: number) => (wave64 ? `s[${k}:${k + 1}]` : `s${k}`);
  return quadKernel(7, `
  v_add_nc_u16 v12, v3, v4
  v_add_nc_u16 v12, v3, v4 op_sel:[1,1,1] clamp
  v_sub_nc_u16 v13, v3, v4 clamp
  v_sub_nc_i16 v13, v3, v4 op_sel:[1,0,1] clamp
  v_add_nc_i16 v14, v3, v4 clamp
  v_sub_nc_u16 v14, v3, v4 op_sel:[0,1,1]
  v_mul_lo_u16 v15, v3, v4
  v_lshlrev_b16 v16, v3, v4
  v_lshrrev_b16 v17, v3, v4
  v_ashrrev_i16 v18, v3, v4
  v_max_u16 v19, v3, v4
  v_min_i16 v20, v3, v4
  v_mad_u16 v21, v3, v4, v5 clamp
  v_mad_i16 v22, v3, v4, v5
  v_min3_u16 v23, v3, v4, v5
  v_max3_i16 v24, v3, v4, v5
  v_med3_i16 v25, v3, v4, v5
  v_med3_u16 v26, v3, v4, v5
  v_mad_u32_u16 v27, v3, v4, v5
  v_mad_i32_i16 v28, v3, v4, v5
  v_cmp_lt_i16 ${vcc}, v3, v4
  v_cndmask_b32 v29, 1, 2, ${vcc}
  v_cmp_ge_u16_e64 ${m(8)}, v3, v4
  v_cndmask_b32_e64 v30, 3, 4, ${m(8)}
  v_cmp_gt_i16_sdwa ${vcc}, sext(v3), v4 src0_sel:BYTE_1 src1_sel:WORD_1
  v_cndmask_b32 v32, 5, 6, ${vcc}
  v_add_nc_i16 v31, v3, v4 clamp
  v_mad_i16 v31, v3, v4, v5 op_sel:[1,1,1,1] clamp
${stores(12, 21)}
  s_endpgm`);
};

/**
 * f64 and f16 ops under a MODE known only at run time: the f16/f64 rounding field, then the f16/f64
 * denormal field, set by s_setreg_b32 from the kernarg dword at 24 (bits 1:0 and 3:2), so each op
 * runs in the copies the translation makes per candidate value (conversions take the other
 * width's fields, known here, from the analysis).
 */
const dynamicWide = (): string => quadKernel(6, `
  s_load_dword s8, s[0:1], 24
  s_waitcnt lgkmcnt(0)
  s_setreg_b32 hwreg(HW_REG_MODE, 2, 2), s8
  v_add_f64 v[12:13], v[3:4], v[5:6]
  v_fma_f64 v[14:15], v[3:4], v[5:6], v[7:8]
  v_cvt_f64_f32 v[16:17], v9
  v_cvt_f32_f64 v18, v[3:4]
  v_add_f16 v19, v3, v5
  s_lshr_b32 s9, s8, 2
  s_setreg_b32 hwreg(HW_REG_MODE, 6, 2), s9
  v_mul_f64 v[20:21], v[3:4], v[5:6]
  v_sqrt_f64 v[22:23], v[5:6]
  v_fma_f16 v24, v3, v5, v7
  v_cvt_f16_f32 v25, v9
  v_pk_mul_f16 v26, v3, v5
  v_cvt_f32_f16 v27, v3
${stores(12, 16)}
  s_endpgm`);

/** Float-mode bytes (f16/f64 rounding in bits 3:2, their denormals in 7:6), IEEE and DX10_CLAMP: every direction and denormal setting appears. */
const MODES: readonly (readonly [number, boolean, boolean])[] = [[0xf0, true, true], [0x34, false, false], [0x78, true, false], [0xbc, false, true], [0x0d, true, true]];

/** The assembly kernels: each under every mode of MODES, wave32 and wave64. */
export function* wideAssembly(): Generator<EngineCase> {
  const rng = new Rng(91);
  for (const wave64 of [false, true]) {
    const w = wave64 ? 64 : 32;
    const kernels: readonly [string, string, number, (n: number) => Uint8Array, number][] = [
      ['f64arith', f64Arith(), 52, (n) => f64Inputs(rng, n), 256],
      ['f64misc', f64Misc(wave64), 56, (n) => f64Inputs(rng, n), 256],
      ['f64div', f64Div(wave64), 32, (n) => f64Inputs(rng, n), 64],
      ['f16ops', f16Ops(wave64), 60, (n) => f16Inputs(rng, n), 256],
      ['packed', packedOps(), 40, (n) => f16Inputs(rng, n), 128],
    ];
    // f64/f16 under a run-time MODE: one kernel, three values of the f16/f64 rounding and denormal fields.
    const dname = `dynwide${w}`;
    const dk = one({ name: dname, body: dynamicWide(), wave64, floatMode: 0xf0, vgprs: 32, sgprs: 16, directives: ['.amdhsa_system_sgpr_workgroup_id_x 1'] });
    for (const m of [0x0, 0xf, 0x6]) {
      yield { name: `${dname}_${m.toString(16)}`, spirvName: `${dname}_${m.toString(16)}`, code: dk.code, kernel: dname, shader: dk.shader, buffers: [f64Inputs(rng, 128), new Uint8Array(64 * 128)], grid: [128, 1, 1], block: [64, 1, 1], scalars: [[24, m]], writes: 1 };
    }
    // The 16-bit integer kernel: no float mode matters.
    const iname = `int16_${w}`;
    const ik = one({ name: iname, body: int16Ops(wave64), wave64, vgprs: 36, sgprs: 16, directives: ['.amdhsa_system_sgpr_workgroup_id_x 1'] });
    yield { name: iname, spirvName: iname, code: ik.code, kernel: iname, shader: ik.shader, buffers: [f16Inputs(rng, 128), new Uint8Array(128 * 128)], grid: [128, 1, 1], block: [64, 1, 1], scalars: [], writes: 1 };
    for (const [kname, body, vgprs, inputs, outBytes] of kernels) {
      for (const [floatMode, ieee, dx10Clamp] of MODES) {
        const name = `${kname}${w}_${floatMode.toString(16)}_${ieee ? 'ieee' : 'noieee'}_${dx10Clamp ? 'dx10' : 'nodx10'}`;
        const { code, shader } = one({ name, body, wave64, floatMode, ieeeMode: ieee, dx10Clamp, vgprs, sgprs: 16, directives: ['.amdhsa_system_sgpr_workgroup_id_x 1'] });
        const n = 128;
        yield { name, spirvName: name, code, kernel: name, shader, buffers: [inputs(n), new Uint8Array(outBytes * n)], grid: [n, 1, 1], block: [64, 1, 1], scalars: [], writes: 1, emulatedOnLavapipe: 8 };
      }
    }
  }
}

/** f64 inputs of the OpenCL kernel (one buffer of n doubles), biased to the hard cases. */
function f64Buffer(rng: Rng, n: number): Uint8Array {
  const b = new Uint8Array(8 * n), v = new DataView(b.buffer);
  for (let k = 0; k < n; k++) v.setBigUint64(8 * k, f64(rng), true);
  return b;
}
function f16Buffer(rng: Rng, n: number): Uint8Array {
  const b = new Uint8Array(2 * n), v = new DataView(b.buffer);
  for (let k = 0; k < n; k++) v.setUint16(2 * k, f16(rng), true);
  return b;
}

const kernelOf = (code: Uint8Array, name: string): Shader => {
  const s = loadShaders({ bytes: code, name: 'k' }).find((x) => x.info.name === name);
  assert.ok(s, `no kernel ${name}`);
  return s;
};

/**
 * The OpenCL f64_ops and f16_ops kernels (interp-float.cl), as the pocl test builds them and with
 * -cl-denorms-are-zero, and kernels.cl's `mixed` (an f64 fma, an f16 multiply), wave32 and wave64.
 */
export function* wideOpenCl(): Generator<EngineCase> {
  const rng = new Rng(93);
  for (const w64 of [false, true]) {
    const kcode = new Uint8Array(readFileSync(buildOpenCl('kernels.cl', { wave64: w64 })));
    const n = 160;
    const f32s = new Uint8Array(4 * n), fv = new DataView(f32s.buffer);
    for (let k = 0; k < n; k++) fv.setUint32(4 * k, f32(rng), true);
    const mname = `mixed wave${w64 ? 64 : 32}`;
    yield { name: mname, spirvName: mname.replace(/\W/g, '_'), code: kcode, kernel: 'mixed', shader: kernelOf(kcode, 'mixed'), buffers: [f64Buffer(rng, n), f16Buffer(rng, n), f32s], grid: [n, 1, 1], block: [64, 1, 1], scalars: [], writes: 0 };
    for (const daz of [false, true]) {
      const code = new Uint8Array(readFileSync(buildOpenCl('interp-float.cl', { wave64: w64, options: ['-cl-fp32-correctly-rounded-divide-sqrt', ...(daz ? ['-cl-denorms-are-zero'] : [])] })));
      const tag = `wave${w64 ? 64 : 32}${daz ? ' denorms-are-zero' : ''}`;
      const n = 192;
      yield { name: `f64_ops ${tag}`, spirvName: `f64_ops ${tag}`.replace(/\W/g, '_'), code, kernel: 'f64_ops', shader: kernelOf(code, 'f64_ops'), buffers: [f64Buffer(rng, n), f64Buffer(rng, n), new Uint8Array(48 * n)], grid: [n, 1, 1], block: [64, 1, 1], scalars: [], writes: 2 };
      yield { name: `f16_ops ${tag}`, spirvName: `f16_ops ${tag}`.replace(/\W/g, '_'), code, kernel: 'f16_ops', shader: kernelOf(code, 'f16_ops'), buffers: [f16Buffer(rng, n), f16Buffer(rng, n), new Uint8Array(6 * n), new Uint8Array(4 * n)], grid: [n, 1, 1], block: [64, 1, 1], scalars: [], writes: 2 };
    }
  }
}
