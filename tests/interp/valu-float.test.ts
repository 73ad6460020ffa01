// The interpreter's float VALU (valu-float.ts, valu-packed.ts) on kernels assembled by llvm-mc-19.
// Expected values: for the ops with special rules (legacy mul, always-flush, pkrtz, class masks,
// clamp/omod, integer-result conversions, the division helpers' special cases) written by hand
// from the RDNA2 ISA text; for the plumbing (operand order, modifiers, op_sel, DPP/SDWA on float
// ops, VOPC masks, VOP3P halves, accumulator forms) from src/float called directly (its own
// oracle tests cover the arithmetic); the f32 division sequence against tests/harness/rational.ts.
//
// Kernel layout: work-item i loads v[1:4] from in[4 i .. 4 i + 3], v5 = v6 = 0 before the case,
// and stores v[5:6] to out[2 i], out[2 i + 1] (lanes off in EXEC keep the fill).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assemble, dwords, get, readDwords, runKernel } from './harness.js';
import * as fl from '../../src/float/index.js';
import { S32, oDiv } from '../harness/rational.js';
import type { Target } from '../../src/isa/types.js';
import type { KernelSpec } from '../harness/kernel.js';

const FILL = 0xcdcdcdcd;
type Row = readonly [number, number?, number?, number?];
interface Case {
  readonly name: string;
  readonly asm: string;
  readonly rows: readonly Row[];
  /** Expected [v5, v6] (v6 defaults to 0; undefined: the lane stores nothing). */
  readonly expect: (r: readonly number[], lane: number, rows: readonly Row[]) => readonly [number, number?] | undefined;
  readonly floatMode?: number;
  readonly ieeeMode?: boolean;
  readonly dx10Clamp?: boolean;
  readonly target?: Target;
  readonly wave64?: boolean;
}

const body = (asm: string) => [
  's_load_dwordx4 s[4:7], s[0:1], 0x0',
  'v_lshlrev_b32 v20, 4, v0',
  'v_lshlrev_b32 v21, 3, v0',
  's_waitcnt lgkmcnt(0)',
  'global_load_dwordx4 v[1:4], v20, s[4:5]',
  's_waitcnt vmcnt(0)',
  'v_mov_b32 v5, 0',
  'v_mov_b32 v6, 0',
  asm,
  'global_store_dwordx2 v21, v[5:6], s[6:7]',
  's_endpgm',
].join('\n');

const f32 = (x: number) => fl.numberToF32(x);
const IEEE = fl.IEEE_ENV;
const KEEP = 0xf0; // MODE: RNE, f32 and f16/f64 denormals kept
const QNAN = 0x7fc00000, INF = 0x7f800000, NINF = 0xff800000;
const u = (x: number | undefined) => (x ?? 0) >>> 0;

const CASES: Case[] = [
  // v_trig_preop_f64: 2/π = 0.a2f9836e 4e441529 fc2757d1 f534ddc0 ... (hex); segment k is its 53
  // bits from bit 53k times 2^(-53 - 53k) (ISA pseudocode), by hand: 0x3fe45f306dc9c882,
  // 0x3c94a7f09d5f47d4, 0x394a6ee06db14acc. S0's sign and fraction do not matter below exponent
  // 1078, S1 reads bits 4:0; bit offsets from 1120 give +0; a NaN comes back quieted.
  {
    name: 'v_trig_preop_f64', asm: 'v_trig_preop_f64 v[5:6], v[1:2], v3',
    rows: [[0, 0x3ff00000, 0], [0, 0x3ff00000, 1], [0, 0x3ff00000, 2], [0x1234, 0xc0080000, 33], [0, 0x3ff00000, 31], [1, 0x7ff00000, 0], [0, 0x7ff80000, 7]],
    expect: (_r, l) => ([[0x6dc9c882, 0x3fe45f30], [0x9d5f47d4, 0x3c94a7f0], [0x6db14acc, 0x394a6ee0], [0x9d5f47d4, 0x3c94a7f0], [0, 0], [1, 0x7ff80000], [0, 0x7ff80000]] as const)[l],
  },
  { name: 'v_trig_preop_f64 neg/abs', asm: 'v_trig_preop_f64 v[5:6], -|v[1:2]|, 0', rows: [[0, 0x3ff00000]], expect: () => [0x6dc9c882, 0x3fe45f30] },

  // Legacy multiply (ISA: "0.0 * x = 0.0 for any x", DX9): +0 even for inf/NaN factors; f32 denormals always flushed.
  {
    name: 'v_mul_legacy_f32', asm: 'v_mul_legacy_f32 v5, v1, v2', floatMode: KEEP,
    rows: [[0, INF], [0x80000000, QNAN], [f32(2), f32(3)], [1, INF], [f32(-2), 0x80000000], [f32(3), NINF]],
    expect: (_r, l) => [[0, 0, f32(6), 0, 0, NINF][l] ?? 0],
  },
  { name: 'v_mul_f32_keep', asm: 'v_mul_f32 v5, v1, v2', floatMode: KEEP, rows: [[1, INF], [1, f32(1)], [0, INF]], expect: (_r, l) => [[INF, 1, QNAN][l] ?? 0] },
  // Always-flush f32 (ACO/LLVM): a denormal input is 0, a denormal result is 0, whatever FP_DENORM says.
  {
    name: 'v_rcp_sqrt_rsq_f32 always flush', floatMode: KEEP,
    asm: 'v_rcp_f32 v5, v1\nv_sqrt_f32 v6, v2',
    rows: [[1, 1], [f32(2), f32(4)], [0x7f000000, 0x80000001], [0x80000001, 0x00000002]],
    expect: (_r, l) => [[INF, 0], [f32(0.5), f32(2)], [0, 0x80000000], [NINF, 0]][l] as [number, number],
  },
  { name: 'v_rsq_f32 always flush', floatMode: KEEP, asm: 'v_rsq_f32 v5, v1', rows: [[1], [f32(4)]], expect: (_r, l) => [[INF, f32(0.5)][l] ?? 0] },
  // v_mad_f32 (gfx1010): a rounded, flushed product then the add; v_fma_f32 keeps the denormal product.
  {
    name: 'v_mad_f32/v_mac_f32 flush (gfx1010)', target: 'gfx1010', floatMode: KEEP,
    asm: 'v_mad_f32 v5, v1, v2, v3\nv_mov_b32 v6, v3\nv_mac_f32 v6, v1, v2',
    rows: [[0x1f800000, 0x20000000, 0], [f32(1.5), f32(2), f32(0.5)], [0x1f800000, 0x20000000, 0x00400000]],
    expect: (_r, l) => [[0, 0], [f32(3.5), f32(3.5)], [0, 0]][l] as [number, number],
  },
  { name: 'v_fma_f32 keeps denormals', floatMode: KEEP, asm: 'v_fma_f32 v5, v1, v2, v3', rows: [[0x1f800000, 0x20000000, 0]], expect: () => [0x00400000] },
  // v_fma_legacy_f32 (gfx1030): a zero factor makes the product +0: +0 + c.
  {
    name: 'v_fma_legacy_f32', floatMode: KEEP, asm: 'v_fma_legacy_f32 v5, v1, v2, v3',
    rows: [[0, INF, f32(1)], [0, QNAN, 0x80000000], [f32(2), f32(3), f32(1)], [0x80000001, INF, f32(-1)]],
    expect: (_r, l) => [[f32(1), 0, f32(7), f32(-1)][l] ?? 0],
  },
  // v_cvt_pkrtz_f16_f32: always toward zero, whatever the mode; v_cvt_f16_f32 rounds by the mode (RNE).
  {
    name: 'v_cvt_pkrtz_f16_f32', asm: 'v_cvt_pkrtz_f16_f32 v5, v1, v2\nv_cvt_f16_f32 v6, v1',
    rows: [[0x3f801fff, 0xbfffffff], [0x477ff000, 0xc77fffff]],
    expect: (_r, l) => [[0xbfff3c00, 0x3c01], [0xfbff7bff, 0x7c00]][l] as [number, number],
  },
  // v_cmp_class_f32: mask bits 0 sNaN, 1 qNaN, 2 -inf, 3 -normal, 4 -denormal, 5 -0, 6 +0, 7 +denormal, 8 +normal, 9 +inf.
  {
    name: 'v_cmp_class_f32', asm: 'v_cmp_class_f32 vcc_lo, v1, v2\nv_cndmask_b32 v5, 0, 1, vcc_lo\nv_cmp_class_f32_e64 s8, -v1, v2\nv_cndmask_b32_e64 v6, 0, 1, s8',
    rows: [[0x7f800001, 1], [QNAN, 1], [QNAN, 2], [NINF, 4], [0x80000001, 0x10], [0x80000000, 0x20], [0, 0x20], [1, 0x80], [f32(1), 0x100], [INF, 0x200], [f32(-1), 8], [f32(-1), 0x3f7]],
    expect: (_r, l) => [[1, 1], [0, 0], [1, 1], [1, 0], [1, 0], [1, 0], [0, 1], [1, 0], [1, 0], [1, 0], [1, 0], [0, 1]][l] as [number, number],
  },
  { name: 'v_cmp_class_f16/f64', asm: 'v_cmp_class_f16 vcc_lo, v1, v2\nv_cndmask_b32 v5, 0, 1, vcc_lo\nv_cmp_class_f64_e64 s8, v[3:4], v2\nv_cndmask_b32_e64 v6, 0, 1, s8', rows: [[0x7c01, 1, 0, 0x7ff00000], [0x0001, 0x80, 1, 0], [0xfc00, 4, 0, 0xfff00000]], expect: (_r, l) => [[1, 0], [1, 1], [1, 1]][l] as [number, number] },
  // Clamp ([0, 1], NaN → 0 with DX10_CLAMP) and omod (ignored when IEEE = 1, LLVM).
  {
    name: 'clamp', asm: 'v_add_f32_e64 v5, v1, v2 clamp', rows: [[f32(0.75), f32(0.5)], [f32(-1), f32(0.5)], [QNAN, 0], [f32(0.25), f32(0.25)], [0x80000000, 0]],
    expect: (_r, l) => [[f32(1), 0, 0, f32(0.5), 0][l] ?? 0],
  },
  { name: 'clamp no dx10', dx10Clamp: false, asm: 'v_add_f32_e64 v5, v1, v2 clamp', rows: [[QNAN, 0]], expect: () => [QNAN] },
  { name: 'omod ieee off', ieeeMode: false, asm: 'v_mul_f32_e64 v5, v1, v2 mul:2\nv_add_f32_e64 v6, v1, v2 div:2', rows: [[f32(3), f32(2)]], expect: () => [f32(12), f32(2.5)] },
  { name: 'omod ieee on', asm: 'v_mul_f32_e64 v5, v1, v2 mul:4\nv_add_f32_e64 v6, v1, v2 clamp div:2', rows: [[f32(3), f32(2)]], expect: () => [f32(6), f32(1)] },
  { name: 'omod f64', ieeeMode: false, asm: 'v_add_f64 v[5:6], v[1:2], v[3:4] mul:4', rows: [[0, 0x3ff00000, 0, 0x40000000]], expect: () => [0, 0x40280000] },
  // VOPC: ordered/unordered predicates, VOPCX writes EXEC (the second instruction runs on the passing lanes only).
  {
    name: 'v_cmp_* predicates', asm: 'v_cmp_lt_f32 vcc_lo, v1, v2\nv_cndmask_b32 v5, 0, 1, vcc_lo\nv_cmp_nge_f32_e64 s8, v1, v2\nv_cndmask_b32_e64 v6, 0, 1, s8',
    rows: [[f32(1), f32(2)], [QNAN, f32(2)], [f32(3), f32(2)], [0x80000000, 0], [f32(2), NINF]],
    expect: (_r, l) => [[1, 1], [0, 1], [0, 0], [0, 0], [0, 0]][l] as [number, number],
  },
  {
    name: 'v_cmp_o/u/lg/neq f64', asm: 'v_cmp_u_f64 vcc_lo, v[1:2], v[3:4]\nv_cndmask_b32 v5, 0, 1, vcc_lo\nv_cmp_lg_f64_e64 s8, v[1:2], v[3:4]\nv_cndmask_b32_e64 v6, 0, 1, s8',
    rows: [[0, 0x7ff80000, 0, 0], [0, 0x3ff00000, 0, 0x40000000], [0, 0x80000000, 0, 0]],
    expect: (_r, l) => [[1, 0], [0, 1], [0, 0]][l] as [number, number],
  },
  {
    name: 'v_cmpx_gt_f16', asm: 'v_cmpx_gt_f16 v1, v2\nv_mov_b32 v5, 7',
    rows: [[0x4000, 0x3c00], [0x3c00, 0x4000], [0x7e00, 0], [0x0001, 0x8000]],
    expect: (_r, l) => (l === 0 || l === 3 ? [7] : undefined),
  },
  // min/max: IEEE = 1 returns the quieted sNaN; IEEE = 0 treats NaN as missing.
  { name: 'v_max_f32 ieee', asm: 'v_max_f32 v5, v1, v2\nv_min_f32 v6, v2, v1', rows: [[0x7f800001, f32(1)], [0x80000000, 0]], expect: (_r, l) => [[0x7fc00001, 0x7fc00001], [0, 0x80000000]][l] as [number, number] },
  { name: 'v_max_f32 no ieee', ieeeMode: false, asm: 'v_max_f32 v5, v1, v2\nv_max3_f32 v6, v1, v3, v2', rows: [[0x7f800001, f32(1), f32(5)]], expect: () => [f32(1), f32(5)] },
  // Conversions and rounding ops with values from the ISA definitions.
  {
    name: 'fract/frexp/ldexp/ubyte/off_i4', asm: 'v_fract_f32 v5, v1\nv_frexp_exp_i32_f32 v6, v2',
    rows: [[f32(-0.25), f32(12)], [f32(2.5), f32(0.5)], [0x80000000, 0]], expect: (_r, l) => [[f32(0.75), 4], [f32(0.5), 0], [0x80000000, 0]][l] as [number, number],
  },
  { name: 'frexp_mant/ldexp', asm: 'v_frexp_mant_f32 v5, v1\nv_ldexp_f32 v6, v2, v3', rows: [[f32(12), f32(0.75), 4], [f32(-1), f32(1), -150 >>> 0]], expect: (_r, l) => [[f32(0.75), f32(12)], [f32(-0.5), 0]][l] as [number, number] },
  { name: 'cvt_f32_ubyte/off_i4', asm: 'v_cvt_f32_ubyte2 v5, v1\nv_cvt_off_f32_i4 v6, v2', rows: [[0x00ab0000, 0xf], [0xff000000, 7], [0x00010000, 8]], expect: (_r, l) => [[f32(171), 0xbd800000], [0, 0x3ee00000], [f32(1), f32(-0.5)]][l] as [number, number] },
  {
    name: 'cvt_norm/pknorm', asm: 'v_cvt_norm_i16_f16 v5, v1\nv_cvt_pknorm_u16_f32 v6, v2, v3',
    rows: [[0x3c00, f32(1), f32(-1)], [0xbc00, f32(0.5), f32(2)], [0x3800, QNAN, f32(0.25)]],
    // snorm 0.5 × 32767 = 16383.5 → 16384 (RNE); unorm 0.5 × 65535 = 32767.5 → 32768, 0.25 → 16383.75 → 16384.
    expect: (_r, l) => [[0x7fff, 0x0000ffff], [0x8001, 0xffff8000], [0x4000, 0x40000000]][l] as [number, number],
  },
  { name: 'cvt_pk_u8_f32', asm: 'v_cvt_pk_u8_f32 v5, v1, v2, v3', rows: [[f32(255.7), 1, 0x11223344], [f32(-3), 3, 0x11223344], [f32(2.5), 0, 0]], expect: (_r, l) => [[0x1122ff44, 0x00223344, 2][l] ?? 0] },
  { name: 'rndne/rpi/flr', asm: 'v_rndne_f32 v5, v1\nv_cvt_rpi_i32_f32 v6, v1', rows: [[f32(2.5)], [f32(-2.5)], [f32(3.5)]], expect: (_r, l) => [[f32(2), 3], [f32(-2), -2 >>> 0], [f32(4), 4]][l] as [number, number] },
  { name: 'cvt_flr/u32/i16', asm: 'v_cvt_flr_i32_f32 v5, v1\nv_cvt_i16_f16 v6, v2', rows: [[f32(-2.5), 0x7c00], [QNAN, 0xfbff], [f32(3e9), 0x7e00]], expect: (_r, l) => [[-3 >>> 0, 0x7fff], [0, 0x8000], [0x7fffffff, 0]][l] as [number, number] },
  // op_sel on a VOP3 f16 op (source halves and the destination half) and v_pack_b32_f16.
  {
    name: 'v_fma_f16 op_sel', asm: 'v_mov_b32 v5, v4\nv_fma_f16 v5, v1, v2, v3 op_sel:[1,0,1,1]\nv_pack_b32_f16 v6, -v1, v2 op_sel:[1,1]',
    rows: [[0x40003c00, 0x4400, 0x3c000000, 0x12345678]],
    // lo 1.0 / hi 2.0 of v1; fma(2, 4, 1) = 9 = 0x4880 into the high half of v5.
    expect: () => [0x48805678, 0x0000c000],
  },
  // DPP and SDWA on float ops; DPP on an accumulator form reads src0 across lanes, not vdst.
  {
    name: 'DPP v_add_f32 / v_fmac_f32', asm: 'v_add_f32_dpp v5, v1, v2 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf\nv_mov_b32 v6, v3\nv_fmac_f32_dpp v6, v1, v2 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf',
    rows: [[f32(1), f32(10), f32(100)], [f32(2), f32(20), f32(200)], [f32(3), f32(30), f32(300)], [f32(4), f32(40), f32(400)]],
    expect: (r, l, rows) => { const o = rows[l ^ 1] ?? [0]; return [fl.addF32(u(o[0]), u(r[1]), IEEE), fl.fmaF32(u(o[0]), u(r[1]), u(r[2]), IEEE)]; },
  },
  {
    name: 'SDWA v_add_f16 / v_mul_f32', asm: 'v_mov_b32 v5, v3\nv_add_f16_sdwa v5, v1, v2 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE src0_sel:WORD_1 src1_sel:WORD_0\nv_mul_f32_sdwa v6, -v4, v4 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:DWORD',
    rows: [[0x40000000, 0x3c00, 0x11112222, f32(3)]],
    expect: () => [0x42002222, f32(-9)],
  },
  // VOP3P halves: op_sel / op_sel_hi / neg_lo; integer clamp saturation.
  {
    name: 'v_pk_fma_f16', asm: 'v_pk_fma_f16 v5, v1, v2, v3 op_sel:[1,0,0] op_sel_hi:[0,1,1] neg_lo:[0,1,0]\nv_pk_add_f16 v6, v1, v2 neg_hi:[1,0]',
    rows: [[0x40003c00, 0x44004200, 0x3c003800], [0x7c00c000, 0x00013c00, 0x80000000]],
    expect: (r) => {
      const [a, b, c] = [u(r[0]), u(r[1]), u(r[2])];
      const lo = fl.fmaF16(a >>> 16, (b & 0xffff) ^ 0x8000, c & 0xffff, IEEE), hi = fl.fmaF16(a & 0xffff, b >>> 16, c >>> 16, IEEE);
      const alo = fl.addF16(a & 0xffff, b & 0xffff, IEEE), ahi = fl.addF16((a >>> 16) ^ 0x8000, b >>> 16, IEEE);
      return [(lo | (hi << 16)) >>> 0, (alo | (ahi << 16)) >>> 0];
    },
  },
  { name: 'v_pk_add_u16 clamp', asm: 'v_pk_add_u16 v5, v1, v2 clamp\nv_pk_add_u16 v6, v1, v2', rows: [[0xffff0001, 0x00020001]], expect: () => [0xffff0002, 0x00010002] },
  { name: 'v_pk_sub_i16 clamp / v_pk_ashrrev', asm: 'v_pk_sub_i16 v5, v1, v2 clamp\nv_pk_ashrrev_i16 v6, v3, v1', rows: [[0x80007fff, 0x0001ffff, 0x00040001]], expect: () => [0x80007fff, 0xf8003fff] },
  // Regression: the two-operand min/max once took a third, zero lane (negative maxima and every minimum came out 0).
  { name: 'v_pk_max_i16 / v_pk_min_u16', asm: 'v_pk_max_i16 v5, v1, v2\nv_pk_min_u16 v6, v1, v2', rows: [[0x80000005, 0xffff0003]], expect: () => [0xffff0005, 0x80000003] },
  { name: 'v_pk_min_i16 / v_pk_max_u16', asm: 'v_pk_min_i16 v5, v1, v2\nv_pk_max_u16 v6, v1, v2', rows: [[0x80000005, 0xfffe0003]], expect: () => [0x80000003, 0xfffe0005] },
  { name: 'v_pk inline constant high half', asm: 'v_pk_add_f16 v5, v1, 1.0\nv_pk_add_f16 v6, v1, 1.0 op_sel_hi:[1,0]', rows: [[0x3c003c00]], expect: () => [0x3c004000, 0x40004000] },
  // fma_mix: f16 sources widened exactly; mixlo/mixhi merge into the old dword.
  {
    name: 'v_fma_mix*', asm: 'v_fma_mix_f32 v5, v1, v2, v3 op_sel:[1,0,0] op_sel_hi:[1,1,0]\nv_mov_b32 v6, v4\nv_fma_mixhi_f16 v6, -v1, v2, v3 op_sel_hi:[1,1,0]',
    rows: [[0x40003c00, 0x00004200, f32(0.25), 0x1234abcd]],
    // mix_f32: 2.0 × 3.0 + 0.25 = 6.25; mixhi: -1.0 × 3.0 + 0.25 = -2.75 = 0xc180 (f16) into bits 31:16.
    expect: () => [f32(6.25), 0xc180abcd],
  },
  { name: 'v_fma_mixlo_f16 abs/rounding', asm: 'v_mov_b32 v5, v4\nv_fma_mixlo_f16 v5, |v1|, v2, v3', rows: [[f32(-1), f32(1), 0x3a000001, 0x1234abcd]], expect: () => [0x12343c01] },
  // dot products: f16 pairs into f32, integer dot with clamp.
  { name: 'v_dot2_f32_f16 / v_dot2c_f32_f16', asm: 'v_dot2_f32_f16 v5, v1, v2, v3\nv_mov_b32 v6, v3\nv_dot2c_f32_f16 v6, v1, v2', rows: [[0x40003c00, 0x44004200, f32(0.5)]], expect: () => [f32(11.5), f32(11.5)] },
  { name: 'v_dot4_i32_i8 / v_dot8_u32_u4', asm: 'v_dot4_i32_i8 v5, v1, v2, v3\nv_dot8_u32_u4 v6, v1, v2, v3', rows: [[0x01ff7f80, 0x02030405, 10]], expect: () => [-123 >>> 0, 117] },
  { name: 'v_pk_fmac_f16', asm: 'v_mov_b32 v5, v3\nv_pk_fmac_f16 v5, v1, v2', rows: [[0x40003c00, 0x44004200, 0x3c003800]], expect: () => [(fl.fmaF16(0x3c00, 0x4200, 0x3800, IEEE) | (fl.fmaF16(0x4000, 0x4400, 0x3c00, IEEE) << 16)) >>> 0] },
  // v_div_fixup special cases (ISA): 0/0 and inf/inf → 0xffc00000, x/0 → ±inf, 0/x and x/inf → ±0, NaN operands quieted.
  {
    name: 'v_div_fixup_f32', asm: 'v_div_fixup_f32 v5, v1, v2, v3',
    rows: [[f32(7), 0, 0], [f32(7), INF, NINF], [f32(7), 0x80000000, f32(1)], [f32(7), INF, f32(-1)], [f32(7), f32(-2), f32(1)], [f32(7), 0x7f800001, f32(1)], [f32(7), f32(1), 0xff800002]],
    expect: (_r, l) => [[0xffc00000, 0xffc00000, NINF, 0x80000000, f32(-7), 0x7fc00001, 0xffc00002][l] ?? 0],
  },
  { name: 'v_div_scale_f32 flags', asm: 'v_div_scale_f32 v5, s8, v1, v2, v3\nv_cndmask_b32_e64 v6, 0, 1, s8', rows: [[f32(1), f32(1), 0], [f32(3), f32(3), f32(6)], [0x00000010, 0x00000010, f32(1)], [f32(5), f32(2), 0x00000100], [f32(5), 0x0d800000, 0x08800000]],
    // ISA order: S2/S1 denormal (vcc, S0 kept unless S0 = S2) before 'exponent(S2) <= 23' (S0 × 2^64).
    expect: (_r, l) => [[QNAN, 0], [f32(3), 0], [0x17000000, 1], [f32(5), 1], [0x60a00000, 0]][l] as [number, number] },
  // Not modelled: stops with UnimplementedError (checked separately below).
];

// The f32 division sequence LLVM emits (div_scale ×2, rcp, fma refinement, div_fmas, div_fixup) with denormals kept.
const DIV_SEQ = [
  'v_div_scale_f32 v7, s10, v2, v2, v1',
  'v_div_scale_f32 v8, vcc_lo, v1, v2, v1',
  'v_rcp_f32 v9, v7',
  'v_fma_f32 v10, -v7, v9, 1.0',
  'v_fmac_f32 v9, v10, v9',
  'v_mul_f32 v10, v8, v9',
  'v_fma_f32 v11, -v7, v10, v8',
  'v_fmac_f32 v10, v11, v9',
  'v_fma_f32 v7, -v7, v10, v8',
  'v_div_fmas_f32 v7, v7, v9, v10',
  'v_div_fixup_f32 v5, v7, v2, v1',
].join('\n');
const DIV_ROWS: Row[] = [
  [f32(1), f32(3)], [f32(6), f32(2)], [0x71c00000, 0x30800000], [0x00000123, f32(3)], [f32(1), 0x7f733333], [f32(-5), f32(7)],
  [0x7f7fffff, f32(0.5)], [0x00800001, f32(3)], [f32(1), 0x00000007], [f32(10), f32(-3)], [0x3f800001, 0x3f7fffff], [0x0000ffff, 0x7f000000],
  // Quotients past the range from finite operands (the refinement meets inf − inf; v_div_fixup gives ±inf).
  [0x7f000000, 0x003671f7], [0xff000000, 0x003671f7], [0x7f000000, 0x1e3ce508], [0x7f7fffff, 0x00000001], [0x7f7fffff, 0x80800000],
];
CASES.push({
  name: 'f32 division sequence', asm: DIV_SEQ, floatMode: KEEP, rows: DIV_ROWS,
  expect: (r) => [Number(oDiv(S32, BigInt(u(r[0])), BigInt(u(r[1])), { round: 0, flushIn: false, flushOut: false, ieee: true }))],
});

/** Lane-mask operands by wave size: vcc_lo / s8 / s10 in wave32 are vcc / s[8:9] / s[10:11] in wave64. */
const forWave = (asm: string, w64: boolean) => (w64 ? asm.replace(/vcc_lo/g, 'vcc').replace(/\bs8\b/g, 's[8:9]').replace(/\bs10\b/g, 's[10:11]') : asm);

function spec(c: Case, k: number): KernelSpec {
  return { name: `vf${k}`, body: body(forWave(c.asm, c.wave64 ?? false)), wave64: c.wave64 ?? false, ...(c.floatMode !== undefined ? { floatMode: c.floatMode } : {}), ...(c.ieeeMode !== undefined ? { ieeeMode: c.ieeeMode } : {}), ...(c.dx10Clamp !== undefined ? { dx10Clamp: c.dx10Clamp } : {}) };
}

function runCases(target: Target, cases: readonly Case[]): void {
  const shaders = assemble(target, cases.map(spec));
  cases.forEach((c, k) => {
    const input = dwords(c.rows.flatMap((r) => [u(r[0]), u(r[1]), u(r[2]), u(r[3])]));
    const out = dwords(new Array<number>(2 * c.rows.length).fill(FILL));
    runKernel(get(shaders, `vf${k}`), [input, out], { block: [c.rows.length, 1, 1] });
    const got = readDwords(out);
    c.rows.forEach((r, l) => {
      const e = c.expect(r.map(u), l, c.rows);
      const g = [got[2 * l], got[2 * l + 1]];
      const want = e === undefined ? [FILL, FILL] : [u(e[0]), u(e[1] ?? 0)];
      assert.deepEqual(g.map((x) => u(x).toString(16)), want.map((x) => x.toString(16)), `${c.name}: lane ${l} inputs ${r.map((x) => u(x).toString(16)).join(' ')}`);
    });
  });
}

test('float VALU ops on gfx1030 (wave32): special rules from the ISA text, plumbing against src/float', () => {
  runCases('gfx1030', CASES.filter((c) => (c.target ?? 'gfx1030') === 'gfx1030'));
});

test('float VALU ops in wave64 (upper lanes): compares, DPP accumulator, VOP3P', () => {
  const w64 = CASES.filter((c) => ['v_cmp_* predicates', 'v_cmpx_gt_f16', 'DPP v_add_f32 / v_fmac_f32', 'v_pk_fma_f16', 'f32 division sequence'].includes(c.name));
  // 64 lanes: the rows repeated; lanes ≥ 32 exercise the high mask dword.
  runCases('gfx1030', w64.map((c) => {
    const rows: Row[] = Array.from({ length: 64 }, (_, l): Row => c.rows[l % c.rows.length] ?? [0]);
    return { ...c, wave64: true, rows, expect: (r, l) => c.expect(r, l % c.rows.length, c.rows) };
  }));
});

test('float VALU ops on gfx1010: v_mad_f32 / v_mac_f32 always flush', () => {
  runCases('gfx1010', CASES.filter((c) => c.target === 'gfx1010'));
});

test('ops the model leaves out stop with UnimplementedError naming the instruction', () => {
  const shaders = assemble('gfx1030', [{ name: 'unimpl', body: body('v_mullit_f32 v6, v1, v2, v3') }]);
  assert.throws(() => runKernel(get(shaders, 'unimpl'), [dwords(4), dwords(2)], { block: [1, 1, 1] }), (e: Error) => e.name === 'InterpError' && /v_mullit_f32/.test(e.message) && /pc 0x/.test(e.message));
});
