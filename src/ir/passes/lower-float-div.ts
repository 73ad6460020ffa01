// Exact integer lowering of the f32 division sequence and square root: v_div_scale_f32
// (FDivScale32 value, FDivScaleFlag32 the VCC bit), v_div_fmas_f32 (FDivFmas32), v_div_fixup_f32
// (FDivFixup32) as src/float/special.ts defines them (the ISA pseudocode with its documented
// choices), and v_sqrt_f32 / v_rsq_f32 (FSqrt32, FRsq32) correctly rounded as src/float/arith.ts
// sqrtBits / rsqBits compute them.
// Branch-free, like lower-float.ts: the model's case analysis becomes a chain of selects, lowest
// priority first.
import type { Inst } from '../ir.js';
import { type Mode, type X, lowerFma, quiet, roundPack, unpack } from './lower-float-core.js';
import { ldexpCore } from './lower-float-modifiers.js';

/**
 * v_div_scale_f32 (s0 the value to scale, s1 denominator, s2 numerator): the operands' raw bits
 * decide (no input flush); the scalings by 2^±64 are ldexp without flushing, rounded by the mode.
 */
export function lowerDivScale(x: X, md: Mode, s0: Inst, s1: Inst, s2: Inst): { value: Inst; flag: Inst } {
  const raw: Mode = { ...md, flushIn: false };
  const A = unpack(x, raw, s0), D = unpack(x, raw, s1), N = unpack(x, raw, s2);
  const exact: Mode = { ...md, flushIn: false, flushOut: false };
  const up = ldexpCore(x, exact, s0, x.c(64)), down = ldexpCore(x, exact, s0, x.c(-64));
  const anyNan = x.or1(A.nan, x.or1(D.nan, N.nan));
  const anyZero = x.or1(D.zero, N.zero);
  const en = N.exp, ed = D.exp;
  const bigQuotient = x.op('SGe32', x.sub(en, ed), x.c(96));
  const dDenorm = x.eq(ed, x.c(0));
  const dFinite = x.not1(D.inf), nFinite = x.not1(N.inf);
  // 1/s1 is denormal: |s1| > 2^126 (biased exponent 253 with a nonzero fraction, or above).
  const rcpDenorm = x.and1(dFinite, x.or1(x.op('UGt32', ed, x.c(253)), x.and1(x.eq(ed, x.c(253)), x.ne(D.frac, x.c(0)))));
  // s2/s1 is denormal: |s2| < 2^-126 |s1|, compared exactly with both significands normalised to bit 23 (s1 is normal here).
  const posN = x.sub(x.c(31), x.op('Clz32', N.mant));
  const shN = x.sub(x.c(23), posN);
  const mN = x.shl(N.mant, x.and(shN, x.c(31)));
  const eN = x.sub(N.effExp, shN);
  const eD = x.sub(ed, x.c(126));
  const below = x.or1(x.slt(eN, eD), x.and1(x.eq(eN, eD), x.ult(mN, D.mant)));
  const quoDenorm = x.and1(x.and1(dFinite, nFinite), below);
  const tinyNum = x.op('ULe32', en, x.c(23));
  const s0IsS1 = x.eq(s0, s1), s0IsS2 = x.eq(s0, s2);
  let v = x.sel(tinyNum, up, s0);
  v = x.sel(quoDenorm, x.sel(s0IsS2, up, s0), v);
  v = x.sel(rcpDenorm, down, v);
  v = x.sel(x.and1(rcpDenorm, quoDenorm), x.sel(s0IsS1, down, s0), v);
  v = x.sel(dDenorm, up, v);
  v = x.sel(bigQuotient, x.sel(s0IsS1, up, s0), v);
  v = x.sel(anyZero, x.c(0x7fc00000), v);
  v = x.sel(anyNan, x.sel(A.nan, quiet(x, md, s0), s0), v);
  const T = x.t(true), F = x.t(false);
  let f = x.sel1(quoDenorm, T, F);
  f = x.sel1(rcpDenorm, F, f);
  f = x.sel1(x.and1(rcpDenorm, quoDenorm), T, f);
  f = x.sel1(dDenorm, F, f);
  f = x.sel1(bigQuotient, T, f);
  f = x.sel1(x.or1(anyNan, anyZero), F, f);
  return { value: v, flag: f };
}

/** v_div_fmas_f32: fma(a, b, c) with the exact result scaled by 2^64 (exponent field of c > 127) or 2^-64 when `vcc`, one rounding. */
export function lowerDivFmas(x: X, md: Mode, a: Inst, b: Inst, c: Inst, vcc: Inst): Inst {
  const cExp = x.and(x.shr(c, x.c(23)), x.c(0xff));
  const scale = x.sel(vcc, x.sel(x.op('UGt32', cExp, x.c(127)), x.c(64), x.c(-64)), x.c(0));
  return lowerFma(x, md, a, b, c, scale);
}

/** v_div_fixup_f32 (s0 quotient, s1 denominator, s2 numerator), the operands tested after the input flush. */
export function lowerDivFixup(x: X, md: Mode, s0: Inst, s1: Inst, s2: Inst): Inst {
  const D = unpack(x, md, s1), N = unpack(x, md, s2);
  const sign = x.op('XorU1', D.sign, N.sign);
  const signBit = x.shl(x.op('U1ToU32', sign), x.c(31));
  const away = md.round === 1 ? x.not1(sign) : md.round === 2 ? sign : x.t(false);
  const tinyRes = md.flushOut ? signBit : x.sel(away, x.or(signBit, x.c(1)), signBit);
  const tiny = x.slt(x.sub(N.exp, D.exp), x.c(-150));
  // A quotient that overflowed (S0 ±inf or NaN): ±inf where the mode rounds toward it, else ±max (src/float divFixupBits).
  const toInf = md.round === 0 ? x.t(true) : md.round === 1 ? x.not1(sign) : md.round === 2 ? sign : x.t(false);
  const over = x.op('IEq32', x.and(s0, x.c(0x7f800000)), x.c(0x7f800000));
  let r = x.or(x.and(s0, x.c(0x7fffffff)), signBit);
  r = x.sel(over, x.or(signBit, x.sel(toInf, x.c(0x7f800000), x.c(0x7f7fffff))), r);
  r = x.sel(tiny, tinyRes, r);
  r = x.sel(x.or1(D.inf, N.zero), signBit, r);
  r = x.sel(x.or1(D.zero, N.inf), x.or(signBit, x.c(0x7f800000)), r);
  r = x.sel(x.or1(x.and1(D.zero, N.zero), x.and1(D.inf, N.inf)), x.c(0xffc00000), r);
  r = x.sel(D.nan, x.or(s1, x.c(0x400000)), r);
  return x.sel(N.nan, x.or(s2, x.c(0x400000)), r);
}

/**
 * The integer square root of a value of at most 52 bits given as 26 bit pairs (`pair(j)`: bits
 * 2j+1..2j as a u32), digit by digit in u32 arithmetic: root < 2^26, remainder < 2^27.
 */
function isqrt52(x: X, pair: (j: number) => Inst): { root: Inst; rem: Inst } {
  let rem = x.c(0), root = x.c(0);
  for (let j = 25; j >= 0; j--) {
    rem = x.or(x.shl(rem, x.c(2)), pair(j));
    const trial = x.or(x.shl(root, x.c(2)), x.c(1));
    const ge = x.op('UGe32', rem, trial);
    rem = x.sel(ge, x.sub(rem, trial), rem);
    root = x.or(x.shl(root, x.c(1)), x.op('U1ToU32', ge));
  }
  return { root, rem };
}

/** A positive finite operand as m2 · 2^e2 with e2 even and m2 in [2^23, 2^25) (subnormals normalised). */
function evenSplit(x: X, A: ReturnType<typeof unpack>): { m2: Inst; e2: Inst } {
  const pos = x.sub(x.c(31), x.op('Clz32', A.mant));
  const sh = x.sub(x.c(23), pos);
  const mn = x.shl(A.mant, x.and(sh, x.c(31)));
  const en = x.sub(A.effExp, sh); // value = mn · 2^(en − 150), mn in [2^23, 2^24)
  const odd = x.ne(x.and(en, x.c(1)), x.c(0));
  return { m2: x.sel(odd, x.shl(mn, x.c(1)), mn), e2: x.sel(odd, x.sub(en, x.c(151)), x.sub(en, x.c(150))) };
}

/** root · 2^h (root: 25 or 26 bits, plus a sticky bit) rounded by the mode (always a normal result here). */
function packRoot(x: X, md: Mode, root: Inst, sticky: Inst, h: Inst): Inst {
  const rpos = x.sub(x.c(31), x.op('Clz32', root));
  const m = x.or64(x.shl64(x.wide(root), x.and(x.sub(x.c(53), rpos), x.c(63))), x.wide(x.op('U1ToU32', sticky)));
  return roundPack(x, md, x.t(false), x.add(x.add(h, x.c(127)), rpos), m);
}

/**
 * sqrt(a) correctly rounded: a = m2 · 2^e2 (e2 even), M = m2 · 2^26 (50 or 51 bits), sqrt(a) =
 * isqrt(M) · 2^((e2 − 26) / 2) with the remainder as the sticky bit. The result is always normal.
 */
export function lowerSqrt(x: X, md: Mode, a: Inst): Inst {
  const A = unpack(x, md, a);
  const { m2, e2 } = evenSplit(x, A);
  // M's bit pairs 25..13 come from m2, the rest are zero.
  const { root, rem } = isqrt52(x, (j) => (j >= 13 ? x.and(x.shr(m2, x.c(2 * j - 26)), x.c(3)) : x.c(0)));
  let res = packRoot(x, md, root, x.ne(rem, x.c(0)), x.op('AShr32', x.sub(e2, x.c(26)), x.c(1)));
  res = x.sel(A.inf, x.c(0x7f800000), res);
  res = x.sel(A.sign, x.c(0x7fc00000), res);
  res = x.sel(A.zero, x.shl(x.op('U1ToU32', A.sign), x.c(31)), res);
  return x.sel(A.nan, quiet(x, md, a), res);
}

/**
 * 1/sqrt(a) correctly rounded (the model's v_rsq): a = m2 · 2^e2 (e2 even), D = floor(2^74 / m2)
 * (< 2^52, a 64-bit division and a second step for the last 11 bits), Q = isqrt(D) =
 * floor(2^37 / sqrt(m2)), 1/sqrt(a) = Q · 2^(−37 − e2/2), inexact unless both remainders are 0.
 */
export function lowerRsq(x: X, md: Mode, a: Inst): Inst {
  const A = unpack(x, md, a);
  const { m2, e2 } = evenSplit(x, A);
  const d = x.wide(x.sel(x.eq(m2, x.c(0)), x.c(1), m2));
  const top = x.c64(1n << 63n);
  const q1 = x.op('UDiv64', top, d), r1 = x.op('UMod64', top, d);
  const n2 = x.shl64(r1, x.c(11));
  const q2 = x.op('UDiv64', n2, d), r2 = x.op('UMod64', n2, d);
  const D = x.add64(x.shl64(q1, x.c(11)), q2);
  const lo = x.op('Lo32', D), hi = x.op('Hi32', D);
  const { root, rem } = isqrt52(x, (j) => x.and(j >= 16 ? x.shr(hi, x.c(2 * j - 32)) : x.shr(lo, x.c(2 * j)), x.c(3)));
  const sticky = x.or1(x.nz64(r2), x.ne(rem, x.c(0)));
  let res = packRoot(x, md, root, sticky, x.sub(x.c(-37), x.op('AShr32', e2, x.c(1))));
  res = x.sel(A.inf, x.c(0), res);
  res = x.sel(A.sign, x.c(0x7fc00000), res);
  res = x.sel(A.zero, x.or(x.shl(x.op('U1ToU32', A.sign), x.c(31)), x.c(0x7f800000)), res);
  return x.sel(A.nan, quiet(x, md, a), res);
}
