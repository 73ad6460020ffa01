// The rest of the float VALU to IR, as the interpreter computes it (src/interp/units/valu-float.ts
// over src/float), through the operand plumbing of ./valu-io.ts (neg/abs, op_sel halves, DPP,
// SDWA, accumulators in table order, 16-bit results into their half):
// - the K forms v_fmamk_f32 / v_fmaak_f32 (the literal K in table order) and, on gfx1010/gfx1013,
//   the non-fused v_mad_f32 / v_mac_f32 / v_madmk_f32 / v_madak_f32 (the product rounded, then
//   the sum: two ops under one mode; the table's 'mode:always-flush-f32' is in that mode);
// - the legacy forms v_mul_legacy_f32, v_fma_legacy_f32 / v_fmac_legacy_f32 (gfx1030) and
//   v_mad_legacy_f32 / v_mac_legacy_f32 (gfx1010/gfx1013): a zero factor after the input flush
//   (inf and NaN times zero included) makes the product +0, so mul gives +0 and fma gives +0 + c
//   (FAdd32 of +0 and c: c's NaN rule, −0 + +0 by the rounding mode); otherwise the IEEE op;
// - v_med3_f32 / v_med3_f16: with a NaN operand min(min(a, b), c) under the min rules (the float
//   model's med3Bits), else max(min(a, b), min(max(a, b), c)): the median in the −0 < +0 order,
//   exact because the input and output flushes are monotone and min/max commute with them;
// - the conversions v_cvt_rpi_i32_f32, v_cvt_pk_u8_f32, v_cvt_norm_*_f16, v_cvt_pknorm_* (IR ops of
//   their own, lowered by src/ir/passes/lower-float-misc.ts) and v_cvt_off_f32_i4 (a 4-bit integer
//   / 16: exact in every mode);
// - the cube map ops v_cubeid/sc/tc_f32 (a selection of the raw bits: no flush, no rounding) and
//   v_cubema_f32 (2 × the major axis, rounded by the mode);
// - the f16 dot products into f32, v_dot2_f32_f16 (VOP3P) and v_dot2c_f32_f16 (VOP2, gfx1030): the
//   f16 inputs widened exactly, then two fmas (the interpreter's double rounding).
// Results take the instruction's clamp/omod as the interpreter applies them (om16/om32); the
// integer results ignore clamp and refuse omod, as the interpreter does.
import { type FloatMode, type Inst, NO_IMMS, listOf } from '../../ir/ir.js';
import type { Op } from '../../ir/ops.js';
import type { TContext, Translator } from '../context.js';
import { convertMode, io, type Io, outMods, result, src } from './valu-io.js';

const F32 = (cx: TContext, v: Inst) => cx.b.emit('BitcastU32F32', listOf(v));
const U32 = (cx: TContext, v: Inst) => cx.b.emit('BitcastF32U32', listOf(v));
const F16 = (cx: TContext, v: Inst) => cx.b.emit('BitcastU32F16', listOf(v));
const U16 = (cx: TContext, v: Inst) => cx.b.emit('BitcastF16U32', listOf(v));

/** An f32 result (an f32 value) with the output modifiers, to the destination as bits. */
function out32(cx: TContext, o: Io, r: Inst, mode: FloatMode): void {
  result(cx, o, U32(cx, outMods(cx, 'FOutMod32', r, mode)));
}

/** Sources `ks` as f32 values. */
const args32 = (cx: TContext, o: Io, ks: readonly number[]) => ks.map((k) => F32(cx, src(cx, o, k)));

/** fma(a, b, c) on the sources in `order` (D = s[0] · s[1] + s[2]). */
const fma = (order: readonly number[]): Translator => (cx) => {
  const o = io(cx, 'float');
  const mode = cx.floatMode();
  out32(cx, o, cx.b.emit('FFma32', args32(cx, o, order), NO_IMMS, { float: mode }), mode);
};

/** The non-fused multiply-add: a · b rounded, then + c rounded, under one mode. */
const mad = (order: readonly number[]): Translator => (cx) => {
  const o = io(cx, 'float');
  const mode = cx.floatMode();
  const [a, b, c] = args32(cx, o, order) as [Inst, Inst, Inst];
  out32(cx, o, cx.b.emit('FAdd32', listOf(cx.b.emit('FMul32', listOf(a, b), NO_IMMS, { float: mode }), c), NO_IMMS, { float: mode }), mode);
};

/** Whether the f32 bits are a zero after the mode's input flush (a subnormal is one when inputs are flushed). */
function zeroAfterFlush(cx: TContext, v: Inst, mode: FloatMode): Inst {
  if (mode.denorm === 'dynamic') return cx.fail('a legacy multiply under a run-time FP_DENORM (internal: the table flushes its inputs)');
  const keep = (mode.denorm & 1) === 1;
  return cx.b.emit('IEq32', listOf(cx.b.emit('And32', listOf(v, cx.u32(keep ? 0x7fffffff : 0x7f800000))), cx.u32(0)));
}

/** The legacy product's zero rule: either factor zero (after the flush). */
const zeroFactor = (cx: TContext, a: Inst, b: Inst, mode: FloatMode) => cx.b.emit('OrU1', listOf(zeroAfterFlush(cx, a, mode), zeroAfterFlush(cx, b, mode)));

/** v_mul_legacy_f32: +0 for a zero factor, else the product. */
const mulLegacy = (cx: TContext, a: Inst, b: Inst, mode: FloatMode): Inst =>
  F32(cx, cx.b.emit('Select32', listOf(zeroFactor(cx, a, b, mode), cx.u32(0), U32(cx, cx.b.emit('FMul32', listOf(F32(cx, a), F32(cx, b)), NO_IMMS, { float: mode })))));

/** The legacy forms on the sources in `order`: 'mul' (two), 'mad' (the legacy product rounded, + c), 'fma' (fused; a zero factor gives +0 + c). */
const legacy = (kind: 'mul' | 'mad' | 'fma', order: readonly number[]): Translator => (cx) => {
  const o = io(cx, 'float');
  const mode = cx.floatMode();
  const [a, b, c] = order.map((k) => src(cx, o, k)) as [Inst, Inst, Inst | undefined];
  const bx = cx.b;
  let r: Inst;
  if (kind === 'mul') r = mulLegacy(cx, a, b, mode);
  else if (kind === 'mad') r = bx.emit('FAdd32', listOf(mulLegacy(cx, a, b, mode), F32(cx, c ?? cx.fail('no addend'))), NO_IMMS, { float: mode });
  else {
    const cc = F32(cx, c ?? cx.fail('no addend'));
    const fused = U32(cx, bx.emit('FFma32', listOf(F32(cx, a), F32(cx, b), cc), NO_IMMS, { float: mode }));
    const zeroPlus = U32(cx, bx.emit('FAdd32', listOf(F32(cx, cx.u32(0)), cc), NO_IMMS, { float: mode }));
    r = F32(cx, bx.emit('Select32', listOf(zeroFactor(cx, a, b, mode), zeroPlus, fused)));
  }
  out32(cx, o, r, mode);
};

/** med3 of three float values by the model's rule (see the header); `nan` tells a NaN from the bits. */
function med3(cx: TContext, min: Op, max: Op, vals: readonly [Inst, Inst, Inst], nans: readonly [Inst, Inst, Inst], mode: FloatMode, toBits: (v: Inst) => Inst): Inst {
  const b = cx.b, [x, y, z] = vals;
  const f = (op: Op, p: Inst, q: Inst) => b.emit(op, listOf(p, q), NO_IMMS, { float: mode });
  const lo = f(min, x, y);
  const withNaN = f(min, lo, z);
  const median = f(max, lo, f(min, f(max, x, y), z));
  const anyNaN = b.emit('OrU1', listOf(b.emit('OrU1', listOf(nans[0], nans[1])), nans[2]));
  return b.emit('Select32', listOf(anyNaN, toBits(withNaN), toBits(median)));
}

const isNaNBits = (cx: TContext, v: Inst, mag: number, inf: number) => cx.b.emit('UGt32', listOf(cx.b.emit('And32', listOf(v, cx.u32(mag))), cx.u32(inf)));

const med3F32: Translator = (cx) => {
  const o = io(cx, 'float');
  const mode = cx.floatMode();
  const s = [0, 1, 2].map((k) => src(cx, o, k)) as [Inst, Inst, Inst];
  const r = med3(cx, 'FMin32', 'FMax32', s.map((v) => F32(cx, v)) as [Inst, Inst, Inst], s.map((v) => isNaNBits(cx, v, 0x7fffffff, 0x7f800000)) as [Inst, Inst, Inst], mode, (v) => U32(cx, v));
  out32(cx, o, F32(cx, r), mode);
};

const med3F16: Translator = (cx) => {
  const o = io(cx, 'float');
  const mode = cx.floatMode();
  const s = [0, 1, 2].map((k) => src(cx, o, k)) as [Inst, Inst, Inst];
  const r = med3(cx, 'FMin16', 'FMax16', s.map((v) => F16(cx, v)) as [Inst, Inst, Inst], s.map((v) => isNaNBits(cx, v, 0x7fff, 0x7c00)) as [Inst, Inst, Inst], mode, (v) => U16(cx, v));
  result(cx, o, U16(cx, outMods(cx, 'FOutMod16', F16(cx, r), mode)));
};

/** A normalized 16-bit pattern of source k (f32 or f16). */
const norm = (cx: TContext, o: Io, k: number, f16: boolean, signed: boolean, mode: FloatMode): Inst =>
  f16 ? cx.b.emit('FNorm16F16', listOf(F16(cx, src(cx, o, k))), listOf(signed ? 1 : 0), { float: mode }) : cx.b.emit('FNorm16F32', listOf(F32(cx, src(cx, o, k))), listOf(signed ? 1 : 0), { float: mode });

/** v_cvt_pknorm_*: source 0's pattern in bits 15:0, source 1's in 31:16. */
const pknorm = (f16: boolean, signed: boolean): Translator => (cx) => {
  const o = io(cx, 'int-result');
  const mode = cx.floatMode();
  result(cx, o, cx.b.emit('Or32', listOf(norm(cx, o, 0, f16, signed, mode), cx.b.emit('Shl32', listOf(norm(cx, o, 1, f16, signed, mode), cx.u32(16))))));
};

/** v_cvt_norm_*_f16: the pattern into the 16-bit destination. */
const norm16 = (signed: boolean): Translator => (cx) => {
  const o = io(cx, 'int-result');
  result(cx, o, norm(cx, o, 0, true, signed, cx.floatMode()));
};

// --- cube map coordinates -------------------------------------------------------------------------

interface Cube { readonly zMajor: Inst; readonly yMajor: Inst; readonly negX: Inst; readonly negY: Inst; readonly negZ: Inst; readonly x: Inst; readonly y: Inst; readonly z: Inst }

/**
 * The face the cube ops pick (the model's cubeMajor): z major if |z| ≥ |x| and |z| ≥ |y|, else y
 * major if |y| ≥ |x|, else x major, where p ≥ q is false when either is NaN and magnitudes order as
 * their bits; "negative" is a set sign bit on a value that is neither NaN nor ±0.
 */
function cube(cx: TContext, o: Io): Cube {
  const b = cx.b;
  const [x, y, z] = [0, 1, 2].map((k) => src(cx, o, k)) as [Inst, Inst, Inst];
  const mag = (v: Inst) => b.emit('And32', listOf(v, cx.u32(0x7fffffff)));
  const [ax, ay, az] = [mag(x), mag(y), mag(z)];
  const nan = (m: Inst) => b.emit('UGt32', listOf(m, cx.u32(0x7f800000)));
  const ge = (p: Inst, q: Inst) => b.emit('AndU1', listOf(b.emit('NotU1', listOf(b.emit('OrU1', listOf(nan(p), nan(q))))), b.emit('UGe32', listOf(p, q))));
  const zMajor = b.emit('AndU1', listOf(ge(az, ax), ge(az, ay)));
  const yMajor = b.emit('AndU1', listOf(b.emit('NotU1', listOf(zMajor)), ge(ay, ax)));
  const neg = (v: Inst, m: Inst) => b.emit('AndU1', listOf(b.emit('SLt32', listOf(v, cx.u32(0))), b.emit('AndU1', listOf(b.emit('NotU1', listOf(nan(m))), b.emit('INe32', listOf(m, cx.u32(0)))))));
  return { zMajor, yMajor, negX: neg(x, ax), negY: neg(y, ay), negZ: neg(z, az), x, y, z };
}

/** A cube op whose result is a selection of bits: `pick` gives them; then clamp/omod. */
const cubeBits = (pick: (cx: TContext, c: Cube) => Inst): Translator => (cx) => {
  const o = io(cx, 'float');
  const mode = cx.floatMode();
  out32(cx, o, F32(cx, pick(cx, cube(cx, o))), mode);
};
const sel = (cx: TContext, c: Inst, a: Inst, b: Inst) => cx.b.emit('Select32', listOf(c, a, b));
const flip = (cx: TContext, v: Inst) => cx.b.emit('Xor32', listOf(v, cx.u32(0x80000000)));
/** Face `pos` (a positive axis) or `pos` + 1 (its negative side) as f32 bits: 0, 1.0 = 0x3f800000, 2.0, 3.0, 4.0, 5.0. */
const FACES = [0, 0x3f800000, 0x40000000, 0x40400000, 0x40800000, 0x40a00000];
const face = (cx: TContext, neg: Inst, pos: number) => sel(cx, neg, cx.u32(FACES[pos + 1] ?? 0), cx.u32(FACES[pos] ?? 0));

// --- the f16 dot products into f32 ---------------------------------------------------------------

/**
 * fma(a1, b1, fma(a0, b0, c)) under the instruction's f32 mode, the f16 inputs widened exactly
 * (ConvertF32F16: input flush by the f16 FP_DENORM field): the interpreter's dot2F32F16, which
 * rounds twice (the hardware's internal rounding is not documented: its choice).
 */
function dot2(cx: TContext, a: readonly [Inst, Inst], b: readonly [Inst, Inst], c: Inst): Inst {
  const bx = cx.b;
  const wide = convertMode(cx, 'f16', 'f32');
  const mode = cx.floatMode();
  const x = (h: Inst) => bx.emit('ConvertF32F16', listOf(F16(cx, h)), NO_IMMS, { float: wide });
  const fma = (p: Inst, q: Inst, r: Inst) => bx.emit('FFma32', listOf(x(p), x(q), r), NO_IMMS, { float: mode });
  return fma(a[1], b[1], fma(a[0], b[0], F32(cx, c)));
}

const bitOf = (m: number | undefined, i: number) => ((m ?? 0) >>> i) & 1;
/** VOP3P source i's low-lane and high-lane f16 inputs by op_sel / op_sel_hi, signs flipped by neg_lo / neg_hi (as valu-packed.ts's lanes). */
function halves(cx: TContext, o: Io, i: number): [Inst, Inst] {
  const m = cx.inst.mods, b = cx.b, w = src(cx, o, i);
  const half = (hi: number) => (hi ? b.emit('LShr32', listOf(w, cx.u32(16))) : b.emit('And32', listOf(w, cx.u32(0xffff))));
  let lo = half(bitOf(m.opsel, i)), hi = half(bitOf(m.opselHi ?? 7, i));
  if (bitOf(m.negLo, i)) lo = b.emit('Xor32', listOf(lo, cx.u32(0x8000)));
  if (bitOf(m.negHi, i)) hi = b.emit('Xor32', listOf(hi, cx.u32(0x8000)));
  return [lo, hi];
}

export const VALU_FLOAT_MISC: Record<string, Translator> = {
  // K forms: v_fmamk D = S0 · K + S1, v_fmaak D = S0 · S1 + K (the table lists K in that place).
  v_fmamk_f32: fma([0, 1, 2]), v_fmaak_f32: fma([0, 1, 2]),
  // gfx1010/gfx1013: non-fused; v_mac_f32 lists the accumulator first (D = S0 · S1 + D).
  v_mad_f32: mad([0, 1, 2]), v_mac_f32: mad([1, 2, 0]), v_madmk_f32: mad([0, 1, 2]), v_madak_f32: mad([0, 1, 2]),
  v_mul_legacy_f32: legacy('mul', [0, 1]),
  v_mad_legacy_f32: legacy('mad', [0, 1, 2]), v_mac_legacy_f32: legacy('mad', [1, 2, 0]),
  v_fma_legacy_f32: legacy('fma', [0, 1, 2]), v_fmac_legacy_f32: legacy('fma', [1, 2, 0]),
  v_med3_f32: med3F32, v_med3_f16: med3F16,
  v_cvt_rpi_i32_f32: (cx) => {
    const o = io(cx, 'int-result');
    result(cx, o, cx.b.emit('ConvertRpiS32F32', listOf(F32(cx, src(cx, o, 0))), NO_IMMS, { float: cx.floatMode() }));
  },
  // ISA: D = S0[3:0] as a signed 4-bit integer / 16 (the conversion and the scaling are exact).
  v_cvt_off_f32_i4: (cx) => {
    const o = io(cx, 'float');
    const mode = cx.floatMode();
    const n = cx.b.emit('SBfe32', listOf(src(cx, o, 0), cx.u32(0), cx.u32(4)));
    const v = cx.b.emit('FMul32', listOf(cx.b.emit('ConvertF32S32', listOf(n), NO_IMMS, { float: mode }), F32(cx, cx.u32(0x3d800000))), NO_IMMS, { float: mode });
    out32(cx, o, v, mode);
  },
  // ISA: D = (S2 & ~(0xff << 8 · S1[1:0])) | (u8(S0) << 8 · S1[1:0]).
  v_cvt_pk_u8_f32: (cx) => {
    const o = io(cx, 'int-result');
    const b = cx.b;
    const sh = b.emit('Shl32', listOf(b.emit('And32', listOf(src(cx, o, 1), cx.u32(3))), cx.u32(3)));
    const byte = b.emit('ConvertU8F32', listOf(F32(cx, src(cx, o, 0))), NO_IMMS, { float: cx.floatMode() });
    result(cx, o, b.emit('Or32', listOf(b.emit('And32', listOf(src(cx, o, 2), b.emit('Not32', listOf(b.emit('Shl32', listOf(cx.u32(0xff), sh)))))), b.emit('Shl32', listOf(byte, sh)))));
  },
  v_cvt_pknorm_i16_f32: pknorm(false, true), v_cvt_pknorm_u16_f32: pknorm(false, false),
  v_cvt_pknorm_i16_f16: pknorm(true, true), v_cvt_pknorm_u16_f16: pknorm(true, false),
  v_cvt_norm_i16_f16: norm16(true), v_cvt_norm_u16_f16: norm16(false),
  // The face index 0..5 (+x, −x, +y, −y, +z, −z) as an f32.
  v_cubeid_f32: cubeBits((cx, c) => sel(cx, c.zMajor, face(cx, c.negZ, 4), sel(cx, c.yMajor, face(cx, c.negY, 2), face(cx, c.negX, 0)))),
  // s: z major ±x by z's sign, y major x, x major ∓z by x's sign.
  v_cubesc_f32: cubeBits((cx, c) => sel(cx, c.zMajor, sel(cx, c.negZ, flip(cx, c.x), c.x), sel(cx, c.yMajor, c.x, sel(cx, c.negX, c.z, flip(cx, c.z))))),
  // t: y major ±z by y's sign, else −y.
  v_cubetc_f32: cubeBits((cx, c) => sel(cx, c.yMajor, sel(cx, c.negY, flip(cx, c.z), c.z), flip(cx, c.y))),
  // 2 × the major axis coordinate, rounded by the mode (the model: mulBits(2.0, axis)).
  // VOP3P: src2 is the f32 addend (neg_lo[2] its sign; neg_hi[2] refused, as the interpreter); clamp on the f32 result.
  v_dot2_f32_f16: (cx) => {
    if (bitOf(cx.inst.mods.negHi, 2)) cx.fail('v_dot2_f32_f16: neg_hi on src2 is not modelled (the interpreter refuses it too)');
    const o = io(cx, 'float');
    const c = bitOf(cx.inst.mods.negLo, 2) ? cx.b.emit('Xor32', listOf(src(cx, o, 2), cx.u32(0x80000000))) : src(cx, o, 2);
    out32(cx, o, dot2(cx, halves(cx, o, 0), halves(cx, o, 1), c), cx.floatMode());
  },
  // VOP2 (gfx1030): D = dot(S0, S1) + D, natural halves; the table lists the accumulator first.
  v_dot2c_f32_f16: (cx) => {
    const o = io(cx, 'float');
    const nat = (k: number): [Inst, Inst] => [cx.b.emit('And32', listOf(src(cx, o, k), cx.u32(0xffff))), cx.b.emit('LShr32', listOf(src(cx, o, k), cx.u32(16)))];
    out32(cx, o, dot2(cx, nat(1), nat(2), src(cx, o, 0)), cx.floatMode());
  },
  v_cubema_f32: (cx) => {
    const o = io(cx, 'float');
    const mode = cx.floatMode();
    const c = cube(cx, o);
    const axis = sel(cx, c.zMajor, c.z, sel(cx, c.yMajor, c.y, c.x));
    out32(cx, o, cx.b.emit('FMul32', listOf(F32(cx, cx.u32(0x40000000)), F32(cx, axis)), NO_IMMS, { float: mode }), mode);
  },
};
