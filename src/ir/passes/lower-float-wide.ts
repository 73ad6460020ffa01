// The format-generic core of the exact f16 and f64 lowering (lower-float16.ts, lower-float64.ts):
// unpacking, one rounding step for every mode, add, mul, fma, min/max, compares, integral
// rounding, ldexp, frexp, fract, the output modifiers and the int and f32 conversions, as integer
// IR computing the bits src/float computes (the same rules as the f32 lowering in lower-float.ts:
// input flush, output flush with tininess by the Mode's switch, overflow per mode and FP16_OVFL,
// signed zeros, the first NaN operand quieted when IEEE, the canonical NaN; float → int by
// FLOAT_TO_INT_ROUNDING). Branch-free (selects).
//
// Representation: a value's bits are a u64 whatever the format (an f16 in the low 16 bits; the
// callers widen and narrow). Significands are u64 with the leading one at bit 61 and a sticky bit
// at bit 0 (`Sig61`): for f64 that leaves 8 guard bits below the 53 kept, for f16 50, so one
// rounding step is exact in every mode. Exact products of two significands (up to 2 × 53 bits)
// and the fma's sum are 128-bit values (`U128`, two u64 halves) from 32-bit partial products.
import type { Inst } from '../ir.js';
import { type Mode, type X, roundPack as roundPack32, unpack as unpack32 } from './lower-float-core.js';

/** A binary format as the lowering sees it (f32 only as the source of v_fma_mix's f16 rounding and of conversions). */
export interface Fmt {
  readonly bits: 16 | 32 | 64;
  /** Fraction bits. */
  readonly mant: number;
  readonly bias: number;
  /** Biased exponent of inf and NaN. */
  readonly expMax: number;
}
export const FMT16: Fmt = { bits: 16, mant: 10, bias: 15, expMax: 31 };
export const FMT32: Fmt = { bits: 32, mant: 23, bias: 127, expMax: 255 };
export const FMT64: Fmt = { bits: 64, mant: 52, bias: 1023, expMax: 2047 };

const big = (n: number) => BigInt(n);
export const signMask = (F: Fmt) => 1n << big(F.bits - 1);
const fracMask = (F: Fmt) => (1n << big(F.mant)) - 1n;
export const hidden = (F: Fmt) => 1n << big(F.mant);
export const infBits = (F: Fmt) => big(F.expMax) << big(F.mant);
export const quietBit = (F: Fmt) => 1n << big(F.mant - 1);
export const qnanBits = (F: Fmt) => infBits(F) | quietBit(F);
const oneBits = (F: Fmt) => big(F.bias) << big(F.mant);

// --- u64 and u128 helpers -------------------------------------------------------------------------

export interface U128 { readonly hi: Inst; readonly lo: Inst }

const u1w = (x: X, c: Inst) => x.wide(x.op('U1ToU32', c));
const lsb64 = (x: X, v: Inst) => x.ne(x.and(x.op('Lo32', v), x.c(1)), x.c(0));
const xor64 = (x: X, a: Inst, b: Inst) => x.op('Pack64', x.op('Xor32', x.op('Lo32', a), x.op('Lo32', b)), x.op('Xor32', x.op('Hi32', a), x.op('Hi32', b)));
/** a ≥ b, unsigned. */
export const uge64 = (x: X, a: Inst, b: Inst) => x.not1(x.ult64(a, b));
const nz128 = (x: X, p: U128) => x.nz64(x.or64(p.hi, p.lo));
const sel128 = (x: X, c: Inst, a: U128, b: U128): U128 => ({ hi: x.sel64(c, a.hi, b.hi), lo: x.sel64(c, a.lo, b.lo) });
const ult128 = (x: X, a: U128, b: U128) => x.or1(x.ult64(a.hi, b.hi), x.and1(x.op('IEq64', a.hi, b.hi), x.ult64(a.lo, b.lo)));
function add128(x: X, a: U128, b: U128): U128 {
  const lo = x.add64(a.lo, b.lo);
  return { hi: x.add64(x.add64(a.hi, b.hi), u1w(x, x.ult64(lo, a.lo))), lo };
}
/** a − b for a ≥ b. */
function sub128(x: X, a: U128, b: U128): U128 {
  return { hi: x.sub64(x.sub64(a.hi, b.hi), u1w(x, x.ult64(a.lo, b.lo))), lo: x.sub64(a.lo, b.lo) };
}
/** Count of leading zero bits of a 128-bit value (128 for 0). */
function clz128(x: X, p: U128): Inst {
  return x.sel(x.nz64(p.hi), x.clz64(p.hi), x.add(x.c(64), x.clz64(p.lo)));
}
/** p << n for n in 0..127. */
function shl128(x: X, p: U128, n: Inst): U128 {
  const k = x.and(n, x.c(63)), far = x.op('UGe32', n, x.c(64));
  const up = x.sel64(x.eq(k, x.c(0)), x.c64(0n), x.shr64(p.lo, x.sub(x.c(64), k)));
  const lo = x.shl64(p.lo, k);
  return { hi: x.sel64(far, lo, x.or64(x.shl64(p.hi, k), up)), lo: x.sel64(far, x.c64(0n), lo) };
}
/** p >> n for any n ≥ 0 (u32), the bits shifted out OR-ed into bit 0 (shift right jamming). */
function shr128Jam(x: X, p: U128, n: Inst): U128 {
  const gone = x.op('UGe32', n, x.c(128));
  const nn = x.sel(gone, x.c(0), n);
  const k = x.and(nn, x.c(63)), far = x.op('UGe32', nn, x.c(64));
  const down = x.sel64(x.eq(k, x.c(0)), x.c64(0n), x.shl64(p.hi, x.sub(x.c(64), k)));
  const loNear = x.or64(x.shr64(p.lo, k), down), hiNear = x.shr64(p.hi, k);
  const lostNear = x.nz64(x.and64(p.lo, x.lowMask64(k)));
  const loFar = x.shr64(p.hi, k);
  const lostFar = x.or1(x.nz64(p.lo), x.nz64(x.and64(p.hi, x.lowMask64(k))));
  const lo = x.or64(x.sel64(far, loFar, loNear), u1w(x, x.sel1(far, lostFar, lostNear)));
  return { hi: x.sel64(x.or1(gone, far), x.c64(0n), hiNear), lo: x.sel64(gone, u1w(x, nz128(x, p)), lo) };
}
/** The exact product of two u64 values below 2^54, from four 32 × 32-bit products. */
function mulWide(x: X, a: Inst, b: Inst): U128 {
  const aL = x.op('Lo32', a), aH = x.op('Hi32', a), bL = x.op('Lo32', b), bH = x.op('Hi32', b);
  const p00 = x.op('UMulWide32', aL, bL), p11 = x.op('UMulWide32', aH, bH);
  const mid = x.add64(x.op('UMulWide32', aL, bH), x.op('UMulWide32', aH, bL)); // < 2^55
  const lo = x.add64(p00, x.shl64(mid, x.c(32)));
  return { hi: x.add64(x.add64(p11, x.shr64(mid, x.c(32))), u1w(x, x.ult64(lo, p00))), lo };
}
/** A nonzero 128-bit value as a Sig61 (leading one at bit 61, the rest jammed into bit 0) and its top bit's index. */
function toSig61(x: X, p: U128): { m: Inst; pos: Inst } {
  const pos = x.sub(x.c(127), clz128(x, p));
  const right = x.op('SGe32', pos, x.c(61));
  const m = x.sel64(right, shr128Jam(x, p, x.sub(pos, x.c(61))).lo, x.shl64(p.lo, x.and(x.sub(x.c(61), pos), x.c(63))));
  return { m, pos };
}

// --- fields -----------------------------------------------------------------------------------

export interface Unpacked {
  readonly sign: Inst; readonly exp: Inst; readonly frac: Inst;
  readonly nan: Inst; readonly inf: Inst; readonly zero: Inst;
  /** The exponent the significand is scaled by: 1 for subnormals. */
  readonly effExp: Inst;
  /** The significand (u64) after the input flush: value = mant · 2^(effExp − bias − mant). */
  readonly mant: Inst;
}

export function unpack(x: X, F: Fmt, md: Mode, a: Inst): Unpacked {
  const sign = lsb64(x, x.shr64(a, x.c(F.bits - 1)));
  const exp = x.and(x.op('Lo32', x.shr64(a, x.c(F.mant))), x.c(F.expMax));
  const frac0 = x.and64(a, x.c64(fracMask(F)));
  const denorm = x.eq(exp, x.c(0));
  const frac = md.flushIn ? x.sel64(denorm, x.c64(0n), frac0) : frac0;
  const isMax = x.eq(exp, x.c(F.expMax));
  return {
    sign, exp, frac,
    nan: x.and1(isMax, x.nz64(frac0)),
    inf: x.and1(isMax, x.not1(x.nz64(frac0))),
    zero: x.and1(denorm, x.not1(x.nz64(frac))),
    effExp: x.sel(denorm, x.c(1), exp),
    mant: x.or64(x.sel64(denorm, x.c64(0n), x.c64(hidden(F))), frac),
  };
}

export const signBits = (x: X, F: Fmt, sign: Inst) => x.shl64(u1w(x, sign), x.c(F.bits - 1));
export const quiet = (x: X, F: Fmt, md: Mode, a: Inst) => (md.ieee ? x.or64(a, x.c64(quietBit(F))) : a);
/** The bits with the input flush applied (a flushed subnormal becomes ±0; NaN payloads kept). */
const flushedBits = (x: X, F: Fmt, U: Unpacked) => x.or64(signBits(x, F, U.sign), x.or64(x.shl64(x.wide(U.exp), x.c(F.mant)), U.frac));
const isNaNBits = (x: X, F: Fmt, v: Inst) => x.ult64(x.c64(infBits(F)), x.and64(v, x.c64(signMask(F) - 1n)));
/** −v (the sign bit flipped). */
const negate = (x: X, F: Fmt, v: Inst) => xor64(x, v, x.c64(signMask(F)));
/** −v unless v is a NaN (subtraction: a NaN subtrahend propagates with its own sign). */
export const negateUnlessNaN = (x: X, F: Fmt, v: Inst) => x.sel64(isNaNBits(x, F, v), v, negate(x, F, v));

// --- rounding ---------------------------------------------------------------------------------

/** Whether `kept` (the truncated significand, u64) with remainder `rem` of `half × 2` rounds up under the mode. */
function roundsUp(x: X, md: Mode, sign: Inst, kept: Inst, rem: Inst, half: Inst): Inst {
  const nz = x.nz64(rem);
  switch (md.round) {
    case 0: return x.or1(x.ult64(half, rem), x.and1(x.op('IEq64', rem, half), lsb64(x, kept)));
    case 1: return x.and1(x.not1(sign), nz);
    case 2: return x.and1(sign, nz);
    default: return x.t(false);
  }
}

/**
 * Rounds value = m · 2^(e − bias − 61) (m: a Sig61 or 0; e: the biased exponent as an i32) to the
 * format's bits (u64) under the mode, with overflow by the mode (and FP16_OVFL for f16) and output
 * flushing (tininess by md.tininess).
 */
export function roundPack(x: X, F: Fmt, md: Mode, sign: Inst, e: Inst, m: Inst): Inst {
  const one = x.c(1);
  const G = 61 - F.mant;
  const normal = x.op('SGe32', e, one);
  // Bits dropped: G for a normal result; G + (1 − e) for a subnormal one, capped at 63 (m < 2^62, so
  // a cap at 63 leaves every remainder below the half ulp, as the true shift does).
  const subShift = x.sub(x.c(G + 1), e);
  const shift = x.sel(normal, x.c(G), x.sel(x.op('ULt32', subShift, x.c(63)), subShift, x.c(63)));
  const kept0 = x.shr64(m, shift);
  const rem = x.and64(m, x.lowMask64(shift));
  const half = x.shl64(x.c64(1n), x.sub(shift, one));
  const kept = x.add64(kept0, u1w(x, roundsUp(x, md, sign, kept0, rem, half)));
  // Normal: a carry to 2^(mant+1) raises the exponent (the fraction is then 0). Subnormal: reaching 2^mant makes it normal.
  const carry = x.op('IEq64', kept, x.c64(hidden(F) << 1n));
  const eN = x.add(e, x.op('U1ToU32', x.and1(normal, carry)));
  const expField = x.sel(normal, eN, x.sel(uge64(x, kept, x.c64(hidden(F))), one, x.c(0)));
  const sb = signBits(x, F, sign);
  let bits = x.or64(sb, x.or64(x.shl64(x.wide(expField), x.c(F.mant)), x.and64(kept, x.c64(fracMask(F)))));
  const over = x.and1(normal, x.op('SGe32', eN, x.c(F.expMax)));
  // Overflow: ±inf when the mode rounds toward it, else ±max; an f16 result under FP16_OVFL is ±max
  // in every mode (src/float FP16_OVFL_RULE; infinite operands never reach here).
  const clamp16 = md.f16Ovfl && F.bits === 16;
  const toInf = clamp16 ? x.t(false) : md.round === 0 ? x.t(true) : md.round === 1 ? x.not1(sign) : md.round === 2 ? sign : x.t(false);
  bits = x.sel64(over, x.sel64(toInf, x.or64(sb, x.c64(infBits(F))), x.or64(sb, x.c64(infBits(F) - 1n))), bits);
  if (md.flushOut) {
    // Tininess (md.tininess, src/float TININESS): 'before': tiny below 2^emin (e < 1); 'after':
    // tiny unless e = 0 and rounding at normal precision carries to 2^emin.
    let notTiny = normal;
    if (md.tininess === 'after') {
      const keptN0 = x.shr64(m, x.c(G));
      const remN = x.and64(m, x.lowMask64(x.c(G)));
      const keptN = x.add64(keptN0, u1w(x, roundsUp(x, md, sign, keptN0, remN, x.c64(1n << big(G - 1)))));
      notTiny = x.or1(normal, x.and1(x.eq(e, x.c(0)), x.op('IEq64', keptN, x.c64(hidden(F) << 1n))));
    }
    bits = x.sel64(x.and1(x.not1(notTiny), x.nz64(m)), sb, bits);
  }
  return x.sel64(x.nz64(m), bits, sb);
}

// --- arithmetic -------------------------------------------------------------------------------

/** a + b, correctly rounded: both significands at bit 61 − mant + mant = 61, the smaller shifted right jamming. */
export function add(x: X, F: Fmt, md: Mode, a: Inst, b: Inst): Inst {
  const A = unpack(x, F, md, a), B = unpack(x, F, md, b);
  const G = 61 - F.mant;
  const key = (U: Unpacked) => x.or64(x.shl64(x.wide(U.effExp), x.c(F.mant + 1)), U.mant);
  const aBig = uge64(x, key(A), key(B));
  const sX = x.sel1(aBig, A.sign, B.sign), sY = x.sel1(aBig, B.sign, A.sign);
  const eX = x.sel(aBig, A.effExp, B.effExp), eY = x.sel(aBig, B.effExp, A.effExp);
  const mX = x.shl64(x.sel64(aBig, A.mant, B.mant), x.c(G));
  const mY = x.shl64(x.sel64(aBig, B.mant, A.mant), x.c(G));
  const d = x.sub(eX, eY);
  const far = x.op('UGe32', d, x.c(63));
  const dC = x.sel(far, x.c(0), d);
  const lost = x.nz64(x.and64(mY, x.lowMask64(dC)));
  const yAl = x.sel64(far, u1w(x, x.nz64(mY)), x.or64(x.shr64(mY, dC), u1w(x, lost)));
  const subtract = x.op('XorU1', sX, sY);
  const r = x.sel64(subtract, x.sub64(mX, yAl), x.add64(mX, yAl));
  // Normalise to bit 61: a carry puts the leading one at 62 (shift right, keeping a sticky bit).
  const pos = x.sub(x.c(63), x.clz64(r));
  const carry = x.eq(pos, x.c(62));
  const m = x.sel64(carry, x.or64(x.shr64(r, x.c(1)), x.and64(r, x.c64(1n))), x.shl64(r, x.and(x.sub(x.c(61), pos), x.c(63))));
  const e = x.add(eX, x.sub(pos, x.c(61)));
  const zeroSign = x.sel1(subtract, x.t(md.round === 2), sX);
  const finite = x.sel64(x.nz64(r), roundPack(x, F, md, sX, e, m), signBits(x, F, zeroSign));
  const bothInfOpp = x.and1(x.and1(A.inf, B.inf), x.op('XorU1', A.sign, B.sign));
  let res = x.sel64(A.inf, a, x.sel64(B.inf, b, finite));
  res = x.sel64(bothInfOpp, x.c64(qnanBits(F)), res);
  res = x.sel64(B.nan, quiet(x, F, md, b), res);
  return x.sel64(A.nan, quiet(x, F, md, a), res);
}

export function mul(x: X, F: Fmt, md: Mode, a: Inst, b: Inst): Inst {
  const A = unpack(x, F, md, a), B = unpack(x, F, md, b);
  const sign = x.op('XorU1', A.sign, B.sign);
  const p = mulWide(x, A.mant, B.mant);
  const { m, pos } = toSig61(x, p);
  // value = p · 2^(ea + eb − 2 bias − 2 mant) = m · 2^(pos − 61 + ...).
  const e = x.add(x.add(A.effExp, B.effExp), x.sub(pos, x.c(F.bias + 2 * F.mant)));
  const sb = signBits(x, F, sign);
  const finite = x.sel64(nz128(x, p), roundPack(x, F, md, sign, e, m), sb);
  const infZero = x.or1(x.and1(A.inf, B.zero), x.and1(B.inf, A.zero));
  let res = x.sel64(x.or1(A.inf, B.inf), x.or64(sb, x.c64(infBits(F))), finite);
  res = x.sel64(infZero, x.c64(qnanBits(F)), res);
  res = x.sel64(B.nan, quiet(x, F, md, b), res);
  return x.sel64(A.nan, quiet(x, F, md, a), res);
}

/** A NaN of format S as format D (src/float fmaMixedBits, convertBits): sign and the top payload bits, quieted when narrowing or (widening) when IEEE. */
function convertNaN(x: X, S: Fmt, D: Fmt, md: Mode, sign: Inst, frac: Inst): Inst {
  const d = D.mant - S.mant;
  const p = d >= 0 ? x.shl64(frac, x.c(d)) : x.shr64(frac, x.c(-d));
  const r = x.or64(signBits(x, D, sign), x.or64(x.c64(infBits(D)), p));
  return d < 0 || md.ieee ? x.or64(r, x.c64(quietBit(D))) : r;
}

/**
 * fma(a, b, c) of operands in format S with one rounding to format D (D = S but for v_fma_mix's
 * f32 → f16): the exact product and the addend as 128-bit values, both normalised to bit 125, the
 * smaller shifted right jamming; `scale` (an i32) multiplies the exact result by 2^scale before the
 * rounding (v_div_fmas).
 */
export function fma(x: X, S: Fmt, D: Fmt, md: Mode, a: Inst, b: Inst, c: Inst, scale?: Inst): Inst {
  const A = unpack(x, S, md, a), B = unpack(x, S, md, b), C = unpack(x, S, md, c);
  const sp = x.op('XorU1', A.sign, B.sign);
  const p0 = mulWide(x, A.mant, B.mant);
  const pZero = x.not1(nz128(x, p0));
  const cZero = x.not1(x.nz64(C.mant));
  const zero64 = x.c64(0n), one64 = x.c64(1n);
  const p: U128 = { hi: x.sel64(pZero, zero64, p0.hi), lo: x.sel64(pZero, one64, p0.lo) };
  const cw: U128 = { hi: zero64, lo: x.sel64(cZero, one64, C.mant) };
  const norm = (v: U128) => { const s = x.sub(clz128(x, v), x.c(2)); return { w: shl128(x, v, s), s }; };
  const P = norm(p), Cn = norm(cw);
  // value(product) = P.w · 2^fP, value(addend) = Cn.w · 2^fC.
  const fP = x.sub(x.add(A.effExp, B.effExp), x.add(P.s, x.c(2 * (S.bias + S.mant))));
  const fC = x.sub(C.effExp, x.add(Cn.s, x.c(S.bias + S.mant)));
  const pBig = x.or1(cZero, x.and1(x.not1(pZero), x.or1(x.op('SGt32', fP, fC), x.and1(x.eq(fP, fC), x.not1(ult128(x, P.w, Cn.w))))));
  const wB = sel128(x, pBig, P.w, Cn.w);
  const smallZero = x.sel1(pBig, cZero, pZero);
  const wS = sel128(x, smallZero, { hi: zero64, lo: zero64 }, sel128(x, pBig, Cn.w, P.w));
  const fB = x.sel(pBig, fP, fC), fS = x.sel(pBig, fC, fP);
  const sB = x.sel1(pBig, sp, C.sign), sS = x.sel1(pBig, C.sign, sp);
  const al = shr128Jam(x, wS, x.sub(fB, fS));
  const subtract = x.op('XorU1', sB, sS);
  const r = sel128(x, subtract, sub128(x, wB, al), add128(x, wB, al));
  const { m, pos } = toSig61(x, r);
  const e0 = x.add(x.add(pos, fB), x.c(D.bias));
  const e = scale ? x.add(e0, scale) : e0;
  const bothZero = x.and1(pZero, cZero);
  const zeroSign = x.sel1(x.op('XorU1', sp, C.sign), x.t(md.round === 2), sp);
  const exactZero = x.or1(bothZero, x.not1(nz128(x, r)));
  const zSign = x.sel1(bothZero, zeroSign, x.t(md.round === 2));
  const finite = x.sel64(exactZero, signBits(x, D, zSign), roundPack(x, D, md, sB, e, m));
  // Specials, in the model's order: NaN operands (a, b, c), inf × 0, inf − inf, infinities.
  const pInf = x.or1(A.inf, B.inf);
  const infZero = x.and1(pInf, x.or1(A.zero, B.zero));
  const infMinusInf = x.and1(x.and1(pInf, C.inf), x.op('XorU1', sp, C.sign));
  let res = x.sel64(C.inf, x.or64(signBits(x, D, C.sign), x.c64(infBits(D))), finite);
  res = x.sel64(pInf, x.or64(signBits(x, D, sp), x.c64(infBits(D))), res);
  res = x.sel64(x.or1(infZero, infMinusInf), x.c64(qnanBits(D)), res);
  const nan = (U: Unpacked, v: Inst) => (S === D ? quiet(x, S, md, v) : convertNaN(x, S, D, md, U.sign, U.frac));
  res = x.sel64(C.nan, nan(C, c), res);
  res = x.sel64(B.nan, nan(B, b), res);
  return x.sel64(A.nan, nan(A, a), res);
}

/** The min/max order key of non-NaN bits (−0 below +0). */
function orderKey(x: X, F: Fmt, v: Inst, sign: Inst): Inst {
  const mag = x.and64(v, x.c64(signMask(F) - 1n));
  return x.sel64(sign, x.sub64(x.c64((1n << 63n) - 1n), mag), x.add64(x.c64(1n << 63n), mag));
}

/** min/max with RDNA's NaN rules (IEEE: an sNaN operand gives it quieted; a qNaN is missing) and −0 < +0. */
export function minMax(x: X, F: Fmt, md: Mode, a: Inst, b: Inst, isMax: boolean): Inst {
  const A = unpack(x, F, md, a), B = unpack(x, F, md, b);
  const fa = x.sel64(A.nan, a, flushedBits(x, F, A)), fb = x.sel64(B.nan, b, flushedBits(x, F, B));
  const ka = orderKey(x, F, fa, A.sign), kb = orderKey(x, F, fb, B.sign);
  const pickA = isMax ? uge64(x, ka, kb) : uge64(x, kb, ka);
  const sub = (v: Inst) => x.and1(x.eq(x.and(x.op('Lo32', x.shr64(v, x.c(F.mant))), x.c(F.expMax)), x.c(0)), x.nz64(x.and64(v, x.c64(fracMask(F)))));
  const outFlush = (v: Inst) => (md.flushOut ? x.sel64(sub(v), x.and64(v, x.c64(signMask(F))), v) : v);
  let res = outFlush(x.sel64(pickA, fa, fb));
  res = x.sel64(B.nan, outFlush(fa), res);
  res = x.sel64(A.nan, outFlush(fb), res);
  if (md.ieee) {
    const sig = (U: Unpacked, raw: Inst) => x.and1(U.nan, x.not1(x.nz64(x.and64(raw, x.c64(quietBit(F))))));
    res = x.sel64(sig(B, b), x.or64(b, x.c64(quietBit(F))), res);
    res = x.sel64(sig(A, a), x.or64(a, x.c64(quietBit(F))), res);
  }
  return res;
}

/** A VOPC predicate (0..15: a mask of less, equal, greater, unordered) on flushed operands; −0 = +0. */
export function compare(x: X, F: Fmt, md: Mode, pred: number, a: Inst, b: Inst): Inst {
  const A = unpack(x, F, md, a), B = unpack(x, F, md, b);
  const unord = x.or1(A.nan, B.nan);
  const key = (U: Unpacked) => {
    const v = x.or64(x.shl64(x.wide(U.exp), x.c(F.mant)), U.frac);
    return x.sel64(U.sign, x.sub64(x.c64(1n << 63n), v), x.add64(v, x.c64(1n << 63n)));
  };
  const ka = key(A), kb = key(B);
  const lt = x.ult64(ka, kb), eq = x.op('IEq64', ka, kb), gt = x.ult64(kb, ka);
  const ord = x.not1(unord);
  const rel = [lt, eq, gt];
  const p = pred & 15;
  let r = x.t(false);
  for (let k = 0; k < 3; k++) if ((p >> k) & 1) r = x.or1(r, rel[k] as Inst);
  r = x.and1(ord, r);
  return p & 8 ? x.or1(unord, r) : r;
}

/** floor / ceil / trunc / round-to-nearest-even to an integral value (exact; input flushed by the mode). */
export function integral(x: X, F: Fmt, md: Mode, a: Inst, how: 'floor' | 'ceil' | 'trunc' | 'rndne'): Inst {
  const A = unpack(x, F, md, a);
  const sb = signBits(x, F, A.sign);
  const intExp = F.bias + F.mant; // from this biased exponent up, every value is integral
  const k = x.sub(x.c(intExp), A.effExp); // fraction bits
  const kk = x.sel(x.op('UGt32', k, x.c(F.mant + 2)), x.c(F.mant + 2), k);
  const t0 = x.shr64(A.mant, kk);
  const rem = x.and64(A.mant, x.lowMask64(kk));
  const half = x.shl64(x.c64(1n), x.sub(kk, x.c(1)));
  const nz = x.nz64(rem);
  let up: Inst;
  switch (how) {
    case 'rndne': up = x.or1(x.ult64(half, rem), x.and1(x.op('IEq64', rem, half), lsb64(x, t0))); break;
    case 'floor': up = x.and1(A.sign, nz); break;
    case 'ceil': up = x.and1(x.not1(A.sign), nz); break;
    default: up = x.t(false);
  }
  const t = x.add64(t0, u1w(x, up));
  const pos = x.sub(x.c(63), x.clz64(t));
  const asFloat = x.or64(sb, x.or64(x.shl64(x.wide(x.add(pos, x.c(F.bias))), x.c(F.mant)), x.and64(x.shl64(t, x.and(x.sub(x.c(F.mant), pos), x.c(63))), x.c64(fracMask(F)))));
  let res = x.sel64(x.nz64(t), asFloat, sb);
  res = x.sel64(x.or1(x.op('UGe32', A.exp, x.c(intExp)), A.zero), flushedBits(x, F, A), res);
  return x.sel64(A.nan, quiet(x, F, md, a), res);
}

/** a · 2^n (n: an i32, limited to ±4000 first: any larger magnitude gives the same result) rounded by the mode. */
export function ldexp(x: X, F: Fmt, md: Mode, a: Inst, n: Inst): Inst {
  const A = unpack(x, F, md, a);
  const k = x.op('SMax32', x.op('SMin32', n, x.c(4000)), x.c(-4000));
  const pos = x.sub(x.c(63), x.clz64(A.mant));
  const m = x.shl64(A.mant, x.and(x.sub(x.c(61), pos), x.c(63)));
  const e = x.add(x.add(x.sub(A.effExp, x.c(F.mant)), pos), k);
  const res = x.sel64(A.inf, a, roundPack(x, F, md, A.sign, e, m)); // a zero (m = 0) gives the signed zero
  return x.sel64(A.nan, quiet(x, F, md, a), res);
}

/** The VOP3 output modifiers: omod (×2, ×4, ×0.5; skipped when IEEE) as an exact ldexp, then clamp to [+0, 1] (NaN → +0 when DX10_CLAMP). */
export function outMod(x: X, F: Fmt, md: Mode, a: Inst, omod: number, clamp: boolean): Inst {
  let r = a;
  if (omod !== 0 && !md.ieee) r = ldexp(x, F, { ...md, flushIn: false }, a, x.c(omod === 1 ? 1 : omod === 2 ? 2 : -1));
  if (!clamp) return r;
  const one = x.c64(oneBits(F));
  let out = x.sel64(x.ult64(one, r), one, r);
  out = x.sel64(lsb64(x, x.shr64(r, x.c(F.bits - 1))), x.c64(0n), out);
  return x.sel64(isNaNBits(x, F, r), md.dx10Clamp ? x.c64(0n) : r, out);
}

/** The flushed input's significand normalised to bit `mant` and its frexp exponent (a = m · 2^(e − mant − 1)). */
function frexpParts(x: X, F: Fmt, md: Mode, a: Inst) {
  const A = unpack(x, F, md, a);
  const pos = x.sub(x.c(63), x.clz64(A.mant));
  const m = x.shl64(A.mant, x.and(x.sub(x.c(F.mant), pos), x.c(63)));
  const e = x.add(x.sub(A.effExp, x.c(F.bias + F.mant - 1)), pos);
  return { A, m, e };
}

/** v_frexp_mant: ±(significand in [0.5, 1)); ±0 (after the input flush) and ±inf as they are, NaN by the NaN rule. */
export function frexpMant(x: X, F: Fmt, md: Mode, a: Inst): Inst {
  const { A, m } = frexpParts(x, F, md, a);
  let r = x.or64(signBits(x, F, A.sign), x.or64(x.c64(big(F.bias - 1) << big(F.mant)), x.and64(m, x.c64(fracMask(F)))));
  r = x.sel64(x.or1(A.inf, A.zero), flushedBits(x, F, A), r);
  return x.sel64(A.nan, quiet(x, F, md, a), r);
}

/** v_frexp_exp: the exponent e with a = m · 2^e, m in [0.5, 1), as an i32; 0 for ±0, ±inf and NaN. */
export function frexpExp(x: X, F: Fmt, md: Mode, a: Inst): Inst {
  const { A, e } = frexpParts(x, F, md, a);
  return x.sel(x.or1(x.or1(A.nan, A.inf), A.zero), x.c(0), e);
}

/** v_fract: a − floor(a) rounded by the mode, a negative result +0, at most the largest value below 1; ±0 kept, ±inf → the canonical NaN. */
export function fract(x: X, F: Fmt, md: Mode, a: Inst): Inst {
  const A = unpack(x, F, md, a);
  const fa = flushedBits(x, F, A);
  const fl = integral(x, F, md, fa, 'floor'); // an integral value or ±0, never NaN here
  const d = add(x, F, { ...md, flushIn: false }, fa, negate(x, F, fl));
  const below = x.c64(oneBits(F) - 1n);
  let r = x.sel64(x.ult64(below, d), below, d);
  r = x.sel64(lsb64(x, x.shr64(d, x.c(F.bits - 1))), x.c64(0n), r);
  r = x.sel64(A.zero, fa, r);
  r = x.sel64(A.inf, x.c64(qnanBits(F)), r);
  return x.sel64(A.nan, quiet(x, F, md, a), r);
}

// --- conversions ------------------------------------------------------------------------------

/** u32 / i32 (a u32 value) → the format, rounded by the mode. */
export function fromInt(x: X, F: Fmt, md: Mode, v: Inst, signed: boolean): Inst {
  const neg = signed ? x.ne(x.shr(v, x.c(31)), x.c(0)) : x.t(false);
  const mag = signed ? x.sel(neg, x.sub(x.c(0), v), v) : v;
  const pos = x.sub(x.c(31), x.op('Clz32', mag));
  const m = x.shl64(x.wide(mag), x.and(x.sub(x.c(61), pos), x.c(63)));
  return x.sel64(x.eq(mag, x.c(0)), x.c64(0n), roundPack(x, F, md, neg, x.add(pos, x.c(F.bias)), m));
}

/**
 * The format → u32 / i32 (as a u32): saturated, NaN → 0; truncated, or under md.floatToInt 'mode'
 * (src/float FLOAT_TO_INT_ROUNDING) first rounded to an integral value by md.round.
 */
export function toInt(x: X, F: Fmt, md: Mode, a: Inst, signed: boolean): Inst {
  if (md.floatToInt === 'mode') {
    const r = integral(x, F, md, a, (['rndne', 'ceil', 'floor', 'trunc'] as const)[md.round]);
    return toInt(x, F, { ...md, floatToInt: 'truncate', flushIn: false }, r, signed);
  }
  const A = unpack(x, F, md, a);
  const e = x.sub(A.exp, x.c(F.bias)); // unbiased; subnormals and zero give < 0
  const m = x.or64(A.frac, x.c64(hidden(F)));
  const left = x.op('SGe32', e, x.c(F.mant));
  const mag = x.op('Lo32', x.sel64(left, x.shl64(m, x.and(x.sub(e, x.c(F.mant)), x.c(63))), x.shr64(m, x.and(x.sub(x.c(F.mant), e), x.c(63)))));
  const small = x.slt(e, x.c(0));
  if (!signed) {
    let r = x.sel(small, x.c(0), mag);
    r = x.sel(x.or1(A.inf, x.op('SGe32', e, x.c(32))), x.c(0xffffffff), r);
    r = x.sel(A.sign, x.c(0), r); // negative: truncates to 0 or saturates at 0
    return x.sel(A.nan, x.c(0), r);
  }
  let r = x.sel(small, x.c(0), x.sel(A.sign, x.sub(x.c(0), mag), mag));
  r = x.sel(x.or1(A.inf, x.op('SGe32', e, x.c(31))), x.sel(A.sign, x.c(0x80000000), x.c(0x7fffffff)), r);
  return x.sel(A.nan, x.c(0), r);
}

/** f32 bits (a u32) → the format: input flush by md.flushIn (the f32 field), rounding and output flush by the rest of md. */
export function fromF32(x: X, F: Fmt, md: Mode, a: Inst): Inst {
  const A = unpack32(x, md, a);
  const pos = x.sub(x.c(31), x.op('Clz32', A.mant));
  const m = x.shl64(x.wide(A.mant), x.and(x.sub(x.c(61), pos), x.c(63)));
  // value = mant · 2^(effExp − 150) = m · 2^(pos − 61 + effExp − 150).
  const e = x.add(x.add(pos, A.effExp), x.c(F.bias - 150));
  let r = roundPack(x, F, md, A.sign, e, m); // ±0 for a zero significand
  r = x.sel64(A.inf, x.or64(signBits(x, F, A.sign), x.c64(infBits(F))), r);
  return x.sel64(A.nan, convertNaN(x, FMT32, F, md, A.sign, x.wide(A.frac)), r);
}

/** The format → f32 bits (a u32): input flush by md.flushIn (the source field), rounding and output flush by the rest (the f32 field). */
export function toF32(x: X, F: Fmt, md: Mode, a: Inst): Inst {
  const A = unpack(x, F, md, a);
  const pos = x.sub(x.c(63), x.clz64(A.mant));
  const m = x.shl64(A.mant, x.and(x.sub(x.c(53), pos), x.c(63))); // leading one at bit 53, exact (pos ≤ 52)
  // lower-float.ts's roundPack: value = m · 2^(e − 180).
  const e = x.add(x.add(pos, A.effExp), x.c(127 - F.bias - F.mant));
  let r = roundPack32(x, md, A.sign, e, m);
  r = x.sel(A.inf, x.or(x.shl(x.op('U1ToU32', A.sign), x.c(31)), x.c(0x7f800000)), r);
  return x.sel(A.nan, x.op('Lo32', convertNaN(x, F, FMT32, md, A.sign, A.frac)), r);
}
