// Exact integer lowering of the float → integer conversions that round by their own rule rather
// than by MODE: v_cvt_rpi_i32_f32 (ConvertRpiS32F32: floor(x + 1/2), saturating), the
// v_cvt_pk_u8_f32 conversion (ConvertU8F32: round to nearest even, clamped to [0, 255]) and the
// normalized 16-bit conversions of v_cvt_norm_* / v_cvt_pknorm_* (FNorm16F32, FNorm16F16: clamp
// to [-1, 1] or [0, 1], scale by 32767 or 65535, round to nearest even), bit for bit as src/float
// computes them (convert.ts toIntBits 'rpi', special.ts toU8Bits and toNorm16Bits). MODE reaches
// them only through the input flush (FP_DENORM's input bit of the source width); NaN gives 0.
// Straight-line integer code on the source bits (f16 in the low half of a u32): no device float op.
import type { Imm, Inst } from '../ir.js';
import type { Op } from '../ops.js';
import type { Mode, X } from './lower-float-core.js';

/** The ops lowerFloat lowers with lowerMisc. */
export const LOWERED_MISC: ReadonlySet<Op> = new Set<Op>(['ConvertRpiS32F32', 'ConvertU8F32', 'FNorm16F32', 'FNorm16F16']);

interface Fmt { readonly expBits: number; readonly mantBits: number; readonly bias: number }
const F32: Fmt = { expBits: 8, mantBits: 23, bias: 127 };
const F16: Fmt = { expBits: 5, mantBits: 10, bias: 15 };

/**
 * The fields of a float's bits after the mode's input flush: value = mant · 2^(effExp − bias −
 * mantBits) (mant with its implicit one; 0 for a zero or a flushed subnormal).
 */
function fields(x: X, md: Mode, f: Fmt, a: Inst) {
  const expMax = (1 << f.expBits) - 1;
  const sign = x.ne(x.shr(a, x.c(f.expBits + f.mantBits)), x.c(0));
  const exp = x.and(x.shr(a, x.c(f.mantBits)), x.c(expMax));
  const frac0 = x.and(a, x.c((1 << f.mantBits) - 1));
  const denorm = x.eq(exp, x.c(0));
  const frac = md.flushIn ? x.sel(denorm, x.c(0), frac0) : frac0;
  return {
    sign, exp,
    nan: x.and1(x.eq(exp, x.c(expMax)), x.ne(frac0, x.c(0))),
    effExp: x.sel(denorm, x.c(1), exp),
    mant: x.or(x.sel(denorm, x.c(0), x.c(1 << f.mantBits)), frac),
  };
}

/** floor(x + 1/2) as an i32, saturating (±inf and |x| ≥ 2^31 to the range's ends), NaN and ±0 → 0. */
function rpi(x: X, md: Mode, a: Inst): Inst {
  const A = fields(x, md, F32, a);
  // value = mant · 2^e, e = effExp − 150.
  const e = x.sub(A.effExp, x.c(150));
  // e ≥ 8: |value| ≥ 2^31 (a normal significand is ≥ 2^23): the ends of the range.
  const sat = x.sel(A.sign, x.c(0x80000000), x.c(0x7fffffff));
  const mag = x.shl(A.mant, x.and(e, x.c(31)));
  const whole = x.sel(A.sign, x.sub(x.c(0), mag), mag);
  // e < 0: k = −e, capped at 26 (mant < 2^24 ≤ 2^(k − 1) makes both forms 0 from k = 25 on).
  const k0 = x.sub(x.c(0), e);
  const k = x.sel(x.op('UGt32', k0, x.c(26)), x.c(26), k0);
  const half = x.shl(x.c(1), x.sub(k, x.c(1)));
  // +m/2^k: floor((m + 2^(k−1)) / 2^k); −m/2^k: floor(−y + 1/2) = −ceil(y − 1/2) = −floor((m + 2^(k−1) − 1) / 2^k).
  const up = x.shr(x.add(A.mant, half), k);
  const down = x.sub(x.c(0), x.shr(x.sub(x.add(A.mant, half), x.c(1)), k));
  const frac = x.sel(A.sign, down, up);
  let r = x.sel(x.slt(e, x.c(0)), frac, x.sel(x.op('SGe32', e, x.c(8)), sat, whole));
  r = x.sel(A.nan, x.c(0), r);
  return r;
}

/** Round to nearest even of |value| · factor (value = mant · 2^(effExp − bias − mantBits), |value| < 1), as a u32; 0 when the shift passes 63. */
function scaledRne(x: X, f: Fmt, mant: Inst, effExp: Inst, factor: number): Inst {
  const p = x.op('UMulWide32', mant, x.c(factor));
  const k0 = x.sub(x.c(f.bias + f.mantBits), effExp); // ≥ mantBits + 1 here
  // p < 2^40: from k = 63 on the result is 0, and p < 2^62 = half keeps it 0.
  const k = x.sel(x.op('UGt32', k0, x.c(63)), x.c(63), k0);
  const t = x.op('Lo32', x.shr64(p, k));
  const rem = x.and64(p, x.lowMask64(k));
  const half = x.shl64(x.c64(1n), x.sub(k, x.c(1)));
  const up = x.or1(x.ult64(half, rem), x.and1(x.op('IEq64', rem, half), x.ne(x.and(t, x.c(1)), x.c(0))));
  return x.add(t, x.op('U1ToU32', up));
}

/** toNorm16Bits: NaN, ±0 → 0; unorm of a negative → 0; |x| ≥ 1 (±inf) → ±max; else RNE(|x| · max) with the sign; the low 16 bits. */
function norm16(x: X, md: Mode, f: Fmt, a: Inst, signed: boolean): Inst {
  const A = fields(x, md, f, a);
  const max = signed ? 32767 : 65535;
  const big = x.op('UGe32', A.exp, x.c(f.bias)); // |x| ≥ 1, infinities included (a NaN is handled below)
  const t = x.sel(big, x.c(max), scaledRne(x, f, A.mant, A.effExp, max));
  let r: Inst;
  if (signed) r = x.and(x.sel(A.sign, x.sub(x.c(0), t), t), x.c(0xffff));
  else r = x.sel(A.sign, x.c(0), t);
  return x.sel(A.nan, x.c(0), r);
}

/** toU8Bits: NaN, ±0 and negatives → 0; |x| ≥ 512 (+inf) → 255; else min(255, RNE(x)). */
function u8(x: X, md: Mode, a: Inst): Inst {
  const A = fields(x, md, F32, a);
  // value = mant · 2^(effExp − 150): below 512 means effExp ≤ 135 (k ≥ 15); k capped at 31 (from k = 25 on the result is 0).
  const k0 = x.sub(x.c(150), A.effExp);
  const k = x.sel(x.op('UGt32', k0, x.c(31)), x.c(31), k0);
  const t = x.shr(A.mant, k);
  const rem = x.and(A.mant, x.sub(x.shl(x.c(1), k), x.c(1)));
  const half = x.shl(x.c(1), x.sub(k, x.c(1)));
  const up = x.or1(x.ult(half, rem), x.and1(x.eq(rem, half), x.ne(x.and(t, x.c(1)), x.c(0))));
  const v = x.op('UMin32', x.add(t, x.op('U1ToU32', up)), x.c(255));
  const r = x.sel(x.op('UGt32', A.effExp, x.c(135)), x.c(255), v);
  return x.sel(x.or1(A.nan, A.sign), x.c(0), r);
}

/** The lowered value of one op (its argument as u32 bits: f16 in the low half). */
export function lowerMisc(x: X, md: Mode, op: Op, imms: readonly Imm[], a: (k: number) => Inst): Inst {
  const signed = Number(imms[0] ?? 0) !== 0;
  switch (op) {
    case 'ConvertRpiS32F32': return rpi(x, md, a(0));
    case 'ConvertU8F32': return u8(x, md, a(0));
    case 'FNorm16F32': return norm16(x, md, F32, a(0), signed);
    case 'FNorm16F16': return norm16(x, md, F16, x.and(a(0), x.c(0xffff)), signed);
    default: throw new Error(`${op} is not lowered by lower-float-misc`);
  }
}
