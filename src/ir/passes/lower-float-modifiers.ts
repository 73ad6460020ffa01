// Exact integer lowering of the f32 scaling ops: v_ldexp_f32 (FLdexp32) and the VOP3 output
// modifiers (FOutMod32), bit for bit as src/float computes them (convert.ts ldexpBits,
// modifiers.ts outputModifiersBits).
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
import { type Mode, type X, quiet, roundPack, unpack } from './lower-float.js';

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
