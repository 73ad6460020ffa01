// Exact integer lowering of the f32 scaling and splitting ops: v_ldexp_f32 (FLdexp32), the VOP3
// output modifiers (FOutMod32), v_frexp_mant/v_frexp_exp_i32 (FFrexpMant32, FFrexpExp32) and
// v_fract (FFract32), bit for bit as src/float computes them (convert.ts ldexpBits, frexp*Bits,
// fractBits; modifiers.ts outputModifiersBits).
//
// Design: output modifiers are an IR op of their own, FOutMod32 (imms omod, clamp), that the
// frontend puts after the f32 result of any instruction with clamp or omod, under that
// instruction's FloatMode; the op is always lowered (never native: SPIR-V has no omod, and its
// clamp/FMin/FMax NaN and signed-zero rules are not RDNA's), so it is exact on every device.
// omod (×2, ×4, ×0.5) is ldexp by 1, 2 or −1 without input flushing, rounded by the mode with
// output flushing (inexact only for subnormal results), NaN kept as it is; it is skipped when
// IEEE = 1 (the model: "omod is ignored by hardware if IEEE bit is enabled"). clamp then limits
// the bits to [+0, 1.0]: a NaN becomes +0 when DX10_CLAMP (kept otherwise), any negative value
// (−0 included) +0, anything above 1.0 (+inf included) 1.0; denormals are not flushed by clamp.
import type { Inst } from '../ir.js';
import { type Mode, type X, lowerAdd, lowerIntegral, quiet, roundPack, unpack } from './lower-float-core.js';

/**
 * a · 2^n (n: an i32 value) with the mode's input flush, rounding and output flush: NaN by the NaN
 * rule, ±inf and ±0 (after the input flush) unchanged. n is limited to ±1000 first (any larger
 * magnitude gives the same result, and the exponent arithmetic cannot wrap).
 */
export function ldexpCore(x: X, md: Mode, a: Inst, n: Inst): Inst {
  const A = unpack(x, md, a);
  const k = x.op('SMax32', x.op('SMin32', n, x.c(1000)), x.c(-1000));
  // The significand with its leading one at bit 53: value = m · 2^(e − 180).
  const pos = x.sub(x.c(31), x.op('Clz32', A.mant));
  const m = x.shl64(x.wide(A.mant), x.and(x.sub(x.c(53), pos), x.c(63)));
  const e = x.add(x.add(x.sub(A.effExp, x.c(23)), pos), k);
  const res = x.sel(A.inf, a, roundPack(x, md, A.sign, e, m)); // m = 0 (a zero) gives the signed zero
  return x.sel(A.nan, quiet(x, md, a), res);
}

/** v_ldexp_f32. */
export function lowerLdexp(x: X, md: Mode, a: Inst, n: Inst): Inst {
  return ldexpCore(x, md, a, n);
}

/** omod then clamp on f32 result bits `a` (see the header). */
export function lowerOutMod(x: X, md: Mode, a: Inst, omod: number, clamp: boolean): Inst {
  let r = a;
  if (omod !== 0 && !md.ieee) r = ldexpCore(x, { ...md, flushIn: false }, a, x.c(omod === 1 ? 1 : omod === 2 ? 2 : -1));
  if (!clamp) return r;
  const nan = x.op('UGt32', x.and(r, x.c(0x7fffffff)), x.c(0x7f800000));
  const neg = x.ne(x.shr(r, x.c(31)), x.c(0));
  let out = x.sel(x.op('UGt32', r, x.c(0x3f800000)), x.c(0x3f800000), r);
  out = x.sel(neg, x.c(0), out);
  return x.sel(nan, md.dx10Clamp ? x.c(0) : r, out);
}

/** The flushed input's significand normalised to bit 23 and its exponent as frexp counts it (a = m · 2^(e − 24)). */
function frexpParts(x: X, md: Mode, a: Inst) {
  const A = unpack(x, md, a);
  const pos = x.sub(x.c(31), x.op('Clz32', A.mant));
  const m = x.shl(A.mant, x.and(x.sub(x.c(23), pos), x.c(31)));
  const e = x.add(x.sub(A.effExp, x.c(149)), pos); // effExp − 150 + bit length
  return { A, m, e };
}

/** v_frexp_mant_f32: ±(significand in [0.5, 1)) exactly; ±0 (after the input flush) and ±inf as they are, NaN by the NaN rule. */
export function lowerFrexpMant(x: X, md: Mode, a: Inst): Inst {
  const { A, m } = frexpParts(x, md, a);
  const signBit = x.shl(x.op('U1ToU32', A.sign), x.c(31));
  let r = x.or(signBit, x.or(x.c(126 << 23), x.and(m, x.c(0x7fffff))));
  r = x.sel(x.or1(A.inf, A.zero), x.or(signBit, x.or(x.shl(A.exp, x.c(23)), A.frac)), r);
  return x.sel(A.nan, quiet(x, md, a), r);
}

/** v_frexp_exp_i32_f32: the exponent e with a = m · 2^e, m in [0.5, 1); 0 for ±0, ±inf and NaN. */
export function lowerFrexpExp(x: X, md: Mode, a: Inst): Inst {
  const { A, e } = frexpParts(x, md, a);
  return x.sel(x.or1(x.or1(A.nan, A.inf), A.zero), x.c(0), e);
}

/**
 * v_fract_f32: a − floor(a) rounded by the mode (no second input flush), a negative result (an
 * exact zero under RTN) +0, at most 0x3f7fffff; ±0 kept, ±inf → the canonical NaN, NaN by the rule.
 */
export function lowerFract(x: X, md: Mode, a: Inst): Inst {
  const A = unpack(x, md, a);
  const signBit = x.shl(x.op('U1ToU32', A.sign), x.c(31));
  const fa = x.or(signBit, x.or(x.shl(A.exp, x.c(23)), A.frac));
  const fl = lowerIntegral(x, md, fa, 'floor'); // an integral value or ±0, never NaN here
  const d = lowerAdd(x, { ...md, flushIn: false }, fa, x.op('Xor32', fl, x.c(0x80000000)));
  let r = x.sel(x.op('UGt32', d, x.c(0x3f7fffff)), x.c(0x3f7fffff), d);
  r = x.sel(x.ne(x.shr(d, x.c(31)), x.c(0)), x.c(0), r);
  r = x.sel(A.zero, fa, r);
  r = x.sel(A.inf, x.c(0x7fc00000), r);
  return x.sel(A.nan, quiet(x, md, a), r);
}
