// The format-generic exact lowering of the f16/f64 reciprocal, square root, reciprocal square
// root (correctly rounded, as src/float's rcpBits / sqrtBits / rsqBits) and the division helpers
// v_div_scale / v_div_fmas / v_div_fixup (src/float/special.ts), over lower-float-wide.ts's core.
// The quotients come from long division in u64 steps (UDiv64 on a remainder below the divisor,
// shifted by as many bits as keep it below 2^64); square roots digit by digit (two radicand bits
// a step, the remainder in a u64). Branch-free, like the rest of the lowering.
import type { Inst } from '../ir.js';
import type { Mode, X } from './lower-float-core.js';
import {
  type Fmt, FMT64, type U128, type Unpacked, fma, hidden, infBits, ldexp, qnanBits, quiet, quietBit, roundPack, signBits, signMask, unpack, uge64,
} from './lower-float-wide.js';

/** The significand normalised to its leading one at bit `mant` (subnormals shifted up) and the exponent E with value = mn · 2^E. */
function normalised(x: X, F: Fmt, A: Unpacked): { mn: Inst; E: Inst } {
  const safe = x.sel64(x.nz64(A.mant), A.mant, x.c64(hidden(F)));
  const sh = x.sub(x.c(F.mant), x.sub(x.c(63), x.clz64(safe)));
  return { mn: x.shl64(safe, x.and(sh, x.c(63))), E: x.sub(A.effExp, x.add(sh, x.c(F.bias + F.mant))) };
}

/** The same value as m2 · 2^E2 with E2 even (m2 in [2^mant, 2^(mant+2))). */
function evenSplit(x: X, F: Fmt, A: Unpacked): { m2: Inst; E2: Inst } {
  const { mn, E } = normalised(x, F, A);
  const odd = x.ne(x.and(E, x.c(1)), x.c(0));
  return { m2: x.sel64(odd, x.shl64(mn, x.c(1)), mn), E2: x.sel(odd, x.sub(E, x.c(1)), E) };
}

/**
 * floor(2^K / d) as a 128-bit value and whether the division leaves a remainder, for 0 < d < 2^dBits
 * (dBits ≤ 62): 2^63 / d, then steps of 63 − dBits quotient bits.
 */
function divPow2(x: X, d: Inst, K: number, dBits: number): { q: U128; inexact: Inst } {
  const zero = x.c64(0n);
  const first = Math.min(K, 63);
  const n0 = x.c64(1n << BigInt(first));
  let lo = x.op('UDiv64', n0, d), hi = zero;
  let r = x.sub64(n0, x.op('IMul64', lo, d));
  for (let left = K - first; left > 0;) {
    const s = Math.min(63 - dBits, left);
    const n = x.shl64(r, x.c(s));
    const digit = x.op('UDiv64', n, d);
    r = x.sub64(n, x.op('IMul64', digit, d));
    hi = x.or64(x.shl64(hi, x.c(s)), x.shr64(lo, x.c(64 - s)));
    lo = x.add64(x.shl64(lo, x.c(s)), digit);
    left -= s;
  }
  return { q: { hi, lo }, inexact: x.nz64(r) };
}

/** The integer square root of a value given by its bit pairs (`pair(j)`: bits 2j+1..2j as a u32, j < n): root and remainder as u64 (root < 2^61). */
function isqrt(x: X, n: number, pair: (j: number) => Inst): { root: Inst; rem: Inst } {
  let rem = x.c64(0n), root = x.c64(0n);
  for (let j = n - 1; j >= 0; j--) {
    rem = x.add64(x.shl64(rem, x.c(2)), x.wide(pair(j)));
    const trial = x.add64(x.shl64(root, x.c(2)), x.c64(1n));
    const ge = uge64(x, rem, trial);
    rem = x.sel64(ge, x.sub64(rem, trial), rem);
    root = x.add64(x.shl64(root, x.c(1)), x.wide(x.op('U1ToU32', ge)));
  }
  return { root, rem };
}

/** q · 2^E (q: a u64 of at least mant + 2 bits, plus `inexact` below it) rounded to the format. */
function packScaled(x: X, F: Fmt, md: Mode, sign: Inst, q: Inst, inexact: Inst, E: Inst): Inst {
  const pos = x.sub(x.c(63), x.clz64(q));
  const m = x.or64(x.shl64(q, x.and(x.sub(x.c(61), pos), x.c(63))), x.wide(x.op('U1ToU32', inexact)));
  // value = m · 2^(pos − 61 + E) = m · 2^(e − bias − 61).
  return roundPack(x, F, md, sign, x.add(x.add(pos, E), x.c(F.bias)), m);
}

const dBitsOf = (F: Fmt) => F.mant + 2;

/** 1/a correctly rounded: floor(2^(2 mant + 3) / mn) (mant + 3 bits) with the remainder as sticky. */
export function rcp(x: X, F: Fmt, md: Mode, a: Inst): Inst {
  const A = unpack(x, F, md, a);
  const { mn, E } = normalised(x, F, A);
  const K = 2 * F.mant + 3;
  const { q, inexact } = divPow2(x, mn, K, F.mant + 1);
  let res = packScaled(x, F, md, A.sign, q.lo, inexact, x.sub(x.c(-K), E));
  const sb = signBits(x, F, A.sign);
  res = x.sel64(A.zero, x.or64(sb, x.c64(infBits(F))), res);
  res = x.sel64(A.inf, sb, res);
  return x.sel64(A.nan, quiet(x, F, md, a), res);
}

/** sqrt(a) correctly rounded: a = m2 · 2^E2, isqrt(m2 · 2^(mant + 4)) (mant + 3 bits) · 2^((E2 − mant − 4) / 2), the remainder as sticky. */
export function sqrt(x: X, F: Fmt, md: Mode, a: Inst): Inst {
  const A = unpack(x, F, md, a);
  const { m2, E2 } = evenSplit(x, F, A);
  const k = F.mant + 4; // even
  const { root, rem } = isqrt(x, F.mant + 3, (j) => (2 * j >= k ? x.and(x.op('Lo32', x.shr64(m2, x.c(2 * j - k))), x.c(3)) : x.c(0)));
  let res = packScaled(x, F, md, x.t(false), root, x.nz64(rem), x.op('AShr32', x.sub(E2, x.c(k)), x.c(1)));
  res = x.sel64(A.inf, x.c64(infBits(F)), res);
  res = x.sel64(A.sign, x.c64(qnanBits(F)), res);
  res = x.sel64(A.zero, signBits(x, F, A.sign), res);
  return x.sel64(A.nan, quiet(x, F, md, a), res);
}

/**
 * 1/sqrt(a) correctly rounded (the model's v_rsq): a = m2 · 2^E2, s = 3 (mant + 2) / 2, D =
 * floor(2^2s / m2), Q = isqrt(D) = floor(2^s / sqrt(m2)) (mant + 3 bits), 1/sqrt(a) = Q · 2^(−s −
 * E2/2), inexact unless both remainders are 0.
 */
export function rsq(x: X, F: Fmt, md: Mode, a: Inst): Inst {
  const A = unpack(x, F, md, a);
  const { m2, E2 } = evenSplit(x, F, A);
  const s = (3 * (F.mant + 2)) / 2;
  const { q: D, inexact } = divPow2(x, m2, 2 * s, dBitsOf(F));
  const pairs = Math.ceil((2 * s - F.mant + 1) / 2);
  const pair = (j: number) => x.and(x.op('Lo32', 2 * j >= 64 ? x.shr64(D.hi, x.c(2 * j - 64)) : x.shr64(D.lo, x.c(2 * j))), x.c(3));
  const { root, rem } = isqrt(x, pairs, pair);
  let res = packScaled(x, F, md, x.t(false), root, x.or1(inexact, x.nz64(rem)), x.sub(x.c(-s), x.op('AShr32', E2, x.c(1))));
  res = x.sel64(A.inf, x.c64(0n), res);
  res = x.sel64(A.sign, x.c64(qnanBits(F)), res);
  res = x.sel64(A.zero, x.or64(signBits(x, F, A.sign), x.c64(infBits(F))), res);
  return x.sel64(A.nan, quiet(x, F, md, a), res);
}

/** The ISA's per-format constants of the division helpers (f64: 768, 2^128, 53). */
function divParams(F: Fmt): { big: number; scale: number; tinyExp: number } {
  if (F === FMT64) return { big: 768, scale: 128, tinyExp: 53 };
  throw new Error(`v_div_scale has no ${F.bits}-bit form`);
}

/**
 * v_div_scale (s0 the value to scale, s1 denominator, s2 numerator): the operands' raw bits decide
 * (no input flush); the scalings by 2^±scale are ldexp without flushing, rounded by the mode.
 */
export function divScale(x: X, F: Fmt, md: Mode, s0: Inst, s1: Inst, s2: Inst): { value: Inst; flag: Inst } {
  const p = divParams(F);
  const raw: Mode = { ...md, flushIn: false };
  const A = unpack(x, F, raw, s0), D = unpack(x, F, raw, s1), N = unpack(x, F, raw, s2);
  const exact: Mode = { ...md, flushIn: false, flushOut: false };
  const up = ldexp(x, F, exact, s0, x.c(p.scale)), down = ldexp(x, F, exact, s0, x.c(-p.scale));
  const anyNan = x.or1(A.nan, x.or1(D.nan, N.nan));
  const anyZero = x.or1(D.zero, N.zero);
  const en = N.exp, ed = D.exp;
  const bigQuotient = x.op('SGe32', x.sub(en, ed), x.c(p.big));
  const dDenorm = x.eq(ed, x.c(0));
  const dFinite = x.not1(D.inf), nFinite = x.not1(N.inf);
  // 1/s1 is denormal: |s1| > 2^-emin (biased exponent bias − emin with a nonzero fraction, or above).
  const rcpExp = 2 * F.bias - 1;
  const rcpDenorm = x.and1(dFinite, x.or1(x.op('UGt32', ed, x.c(rcpExp)), x.and1(x.eq(ed, x.c(rcpExp)), x.nz64(D.frac))));
  // s2/s1 is denormal: |s2| < 2^emin |s1|, compared exactly with both significands normalised to bit mant (s1 is normal here).
  const nn = normalised(x, F, N);
  const eN = x.add(nn.E, x.c(F.bias + F.mant));
  const eD = x.sub(ed, x.c(F.bias - 1));
  const below = x.or1(x.slt(eN, eD), x.and1(x.eq(eN, eD), x.ult64(nn.mn, D.mant)));
  const quoDenorm = x.and1(x.and1(dFinite, nFinite), below);
  const tinyNum = x.op('ULe32', en, x.c(p.tinyExp));
  const s0IsS1 = x.op('IEq64', s0, s1), s0IsS2 = x.op('IEq64', s0, s2);
  let v = x.sel64(tinyNum, up, s0);
  v = x.sel64(quoDenorm, x.sel64(s0IsS2, up, s0), v);
  v = x.sel64(rcpDenorm, down, v);
  v = x.sel64(x.and1(rcpDenorm, quoDenorm), x.sel64(s0IsS1, down, s0), v);
  v = x.sel64(dDenorm, up, v);
  v = x.sel64(bigQuotient, x.sel64(s0IsS1, up, s0), v);
  v = x.sel64(anyZero, x.c64(qnanBits(F)), v);
  v = x.sel64(anyNan, x.sel64(A.nan, quiet(x, F, md, s0), s0), v);
  const T = x.t(true), Fl = x.t(false);
  let f = x.sel1(quoDenorm, T, Fl);
  f = x.sel1(rcpDenorm, Fl, f);
  f = x.sel1(x.and1(rcpDenorm, quoDenorm), T, f);
  f = x.sel1(dDenorm, Fl, f);
  f = x.sel1(bigQuotient, T, f);
  f = x.sel1(x.or1(anyNan, anyZero), Fl, f);
  return { value: v, flag: f };
}

/** v_div_fmas: fma(a, b, c) with the exact result scaled by 2^scale (exponent field of c > bias) or 2^-scale when `vcc`, one rounding. */
export function divFmas(x: X, F: Fmt, md: Mode, a: Inst, b: Inst, c: Inst, vcc: Inst): Inst {
  const k = divParams(F).scale;
  const cExp = x.and(x.op('Lo32', x.shr64(c, x.c(F.mant))), x.c(F.expMax));
  const scale = x.sel(vcc, x.sel(x.op('UGt32', cExp, x.c(F.bias)), x.c(k), x.c(-k)), x.c(0));
  return fma(x, F, F, md, a, b, c, scale);
}

/** v_div_fixup (s0 quotient, s1 denominator, s2 numerator), the operands tested after the input flush. */
export function divFixup(x: X, F: Fmt, md: Mode, s0: Inst, s1: Inst, s2: Inst): Inst {
  const D = unpack(x, F, md, s1), N = unpack(x, F, md, s2);
  const sign = x.op('XorU1', D.sign, N.sign);
  const sb = signBits(x, F, sign);
  const away = md.round === 1 ? x.not1(sign) : md.round === 2 ? sign : x.t(false);
  const tinyRes = md.flushOut ? sb : x.sel64(away, x.or64(sb, x.c64(1n)), sb);
  const tiny = x.slt(x.sub(N.exp, D.exp), x.c(-(F.bias + F.mant)));
  const q = quietBit(F);
  // A quotient that overflowed (s0 ±inf or NaN): ±inf where the mode rounds toward it (never for f16
  // under FP16_OVFL), else ±max (src/float divFixupBits).
  const toInf = md.f16Ovfl && F.bits === 16 ? x.t(false) : md.round === 0 ? x.t(true) : md.round === 1 ? x.not1(sign) : md.round === 2 ? sign : x.t(false);
  const over = x.op('IEq64', x.and64(s0, x.c64(infBits(F))), x.c64(infBits(F)));
  let r = x.or64(x.and64(s0, x.c64(signMask(F) - 1n)), sb);
  r = x.sel64(over, x.or64(sb, x.sel64(toInf, x.c64(infBits(F)), x.c64(infBits(F) - 1n))), r);
  r = x.sel64(tiny, tinyRes, r);
  r = x.sel64(x.or1(D.inf, N.zero), sb, r);
  r = x.sel64(x.or1(D.zero, N.inf), x.or64(sb, x.c64(infBits(F))), r);
  r = x.sel64(x.or1(x.and1(D.zero, N.zero), x.and1(D.inf, N.inf)), x.c64(signMask(F) | qnanBits(F)), r);
  r = x.sel64(D.nan, x.or64(s1, x.c64(q)), r);
  return x.sel64(N.nan, x.or64(s2, x.c64(q)), r);
}

