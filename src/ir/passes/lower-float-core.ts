// The exact f32 lowering's primitives and arithmetic, shared by every lower-float* pass: the
// Mode a lowering reads (MODE fields and the float model's switches), the X expression helper, the
// f32 rounding core (roundPack) and unpacking, and the exact f32 add/mul/fma/rcp/min/max/integral
// rounding/conversions/compares. lower-float.ts dispatches ops to these and to its sibling files;
// the siblings import only this file, so the passes form no import circle.
//
// Method: significands are kept in u64 with the leading one at bit 53 and 30 extra low bits plus a
// sticky bit (the smaller addend is shifted right with its lost bits OR-ed into bit 0), so one
// rounding step at bit 30 is exact for every mode.
import { Builder, type FloatMode, type Inst, IrError } from '../ir.js';
import type { Op } from '../ops.js';
import { FLOAT_TO_INT_ROUNDING, type FloatToIntRounding, f16OvflClamps, TININESS, type Tininess } from '../../float/env.js';

/** What a lowering reads of an op's float mode: the MODE fields, and the float model's switches (src/float env.ts). */
export interface Mode {
  readonly round: 0 | 1 | 2 | 3; readonly flushIn: boolean; readonly flushOut: boolean; readonly ieee: boolean; readonly dx10Clamp: boolean;
  /** MODE.FP16_OVFL: an f16 result overflowing from finite operands is ±MAX_F16 (FP16_OVFL_RULE; f32/f64 results ignore it). */
  readonly f16Ovfl: boolean;
  /** Output tininess for the flush (TININESS). */
  readonly tininess: Tininess;
  /** Float → int conversions truncate or round by the mode (FLOAT_TO_INT_ROUNDING). */
  readonly floatToInt: FloatToIntRounding;
}

/** The Mode of a static FloatMode: its switches, or the float model's named constants where it sets none. */
export function loweringMode(f: FloatMode & { readonly round: 0 | 1 | 2 | 3; readonly denorm: 0 | 1 | 2 | 3; readonly ieee: boolean; readonly dx10Clamp: boolean }): Mode {
  return {
    round: f.round, flushIn: (f.denorm & 1) === 0, flushOut: (f.denorm & 2) === 0, ieee: f.ieee, dx10Clamp: f.dx10Clamp,
    f16Ovfl: f16OvflClamps(f.f16Ovfl === true), tininess: f.tininess ?? TININESS, floatToInt: f.floatToInt ?? FLOAT_TO_INT_ROUNDING,
  };
}

export function modeOf(i: Inst): Mode {
  const f: FloatMode | undefined = i.float;
  if (!f || f.round === 'dynamic' || f.denorm === 'dynamic' || f.ieee === 'dynamic' || f.dx10Clamp === 'dynamic' || f.f16Ovfl === 'dynamic') {
    throw new IrError(`pc 0x${(i.pc ?? 0).toString(16)}: ${i.op} under a dynamic float mode cannot be lowered yet`);
  }
  return loweringMode({ ...f, round: f.round, denorm: f.denorm, ieee: f.ieee, dx10Clamp: f.dx10Clamp });
}

/** Small expression helpers over a Builder (u32 unless named 64). */
export class X {
  constructor(readonly b: Builder) {}
  c(v: number): Inst { return this.b.u32(v); }
  c64(v: bigint): Inst { return this.b.emit('ConstU64', [], [v]); }
  t(v: boolean): Inst { return this.b.u1(v); }
  op(o: Op, ...a: Inst[]): Inst { return this.b.emit(o, a); }
  add(a: Inst, b: Inst) { return this.op('IAdd32', a, b); }
  sub(a: Inst, b: Inst) { return this.op('ISub32', a, b); }
  and(a: Inst, b: Inst) { return this.op('And32', a, b); }
  or(a: Inst, b: Inst) { return this.op('Or32', a, b); }
  shl(a: Inst, b: Inst) { return this.op('Shl32', a, b); }
  shr(a: Inst, b: Inst) { return this.op('LShr32', a, b); }
  eq(a: Inst, b: Inst) { return this.op('IEq32', a, b); }
  ne(a: Inst, b: Inst) { return this.op('INe32', a, b); }
  ult(a: Inst, b: Inst) { return this.op('ULt32', a, b); }
  slt(a: Inst, b: Inst) { return this.op('SLt32', a, b); }
  sel(c: Inst, a: Inst, b: Inst) { return this.op('Select32', c, a, b); }
  sel1(c: Inst, a: Inst, b: Inst) { return this.op('SelectU1', c, a, b); }
  not1(a: Inst) { return this.op('NotU1', a); }
  and1(a: Inst, b: Inst) { return this.op('AndU1', a, b); }
  or1(a: Inst, b: Inst) { return this.op('OrU1', a, b); }
  // u64
  wide(a: Inst) { return this.op('Pack64', a, this.c(0)); }
  add64(a: Inst, b: Inst) { return this.op('IAdd64', a, b); }
  sub64(a: Inst, b: Inst) { return this.op('ISub64', a, b); }
  shl64(a: Inst, n: Inst) { return this.op('Shl64', a, n); }
  shr64(a: Inst, n: Inst) { return this.op('LShr64', a, n); }
  and64(a: Inst, b: Inst) { return this.op('Pack64', this.and(this.op('Lo32', a), this.op('Lo32', b)), this.and(this.op('Hi32', a), this.op('Hi32', b))); }
  or64(a: Inst, b: Inst) { return this.op('Pack64', this.or(this.op('Lo32', a), this.op('Lo32', b)), this.or(this.op('Hi32', a), this.op('Hi32', b))); }
  nz64(a: Inst) { return this.ne(this.or(this.op('Lo32', a), this.op('Hi32', a)), this.c(0)); }
  sel64(c: Inst, a: Inst, b: Inst) { return this.op('Pack64', this.sel(c, this.op('Lo32', a), this.op('Lo32', b)), this.sel(c, this.op('Hi32', a), this.op('Hi32', b))); }
  ult64(a: Inst, b: Inst) { return this.op('ULt64', a, b); }
  clz64(a: Inst) {
    const hi = this.op('Hi32', a), lo = this.op('Lo32', a);
    return this.sel(this.ne(hi, this.c(0)), this.op('Clz32', hi), this.add(this.c(32), this.op('Clz32', lo)));
  }
  /** Mask of the low n bits (n in 0..63). */
  lowMask64(n: Inst) { return this.sub64(this.shl64(this.c64(1n), n), this.c64(1n)); }
}

/**
 * Rounds value = m · 2^(e − 180) (m: u64 with its leading one at bit 53, or 0; e: the biased
 * exponent as a signed int32) to f32 bits under the mode, with output flushing.
 */
export function roundPack(x: X, md: Mode, sign: Inst, e: Inst, m: Inst): Inst {
  const one = x.c(1);
  const normal = x.op('SGe32', e, one);
  // Bits kept: 24 for a normal result; fewer (by 1 − e) for a subnormal one, capped at 63.
  const subShift = x.sub(x.c(31), e); // 30 + (1 − e)
  const shift = x.sel(normal, x.c(30), x.sel(x.op('ULt32', subShift, x.c(63)), subShift, x.c(63)));
  const kept0 = x.op('Lo32', x.shr64(m, shift));
  const rem = x.and64(m, x.lowMask64(shift));
  const half = x.shl64(x.c64(1n), x.sub(shift, one));
  const roundUp = (kept: Inst, r: Inst, h: Inst): Inst => {
    const nz = x.nz64(r);
    switch (md.round) {
      case 0: { const above = x.ult64(h, r), tie = x.op('IEq64', r, h); return x.or1(above, x.and1(tie, x.ne(x.and(kept, one), x.c(0)))); }
      case 1: return x.and1(x.not1(sign), nz);
      case 2: return x.and1(sign, nz);
      default: return x.t(false);
    }
  };
  const kept = x.add(kept0, x.op('U1ToU32', roundUp(kept0, rem, half)));
  // Normal: a carry out of 24 bits raises the exponent. Subnormal: reaching 2^23 makes it normal.
  const carry = x.eq(kept, x.c(1 << 24));
  const eN = x.add(e, x.op('U1ToU32', x.and1(normal, carry)));
  const expField = x.sel(normal, eN, x.sel(x.op('UGe32', kept, x.c(1 << 23)), one, x.c(0)));
  const mant = x.and(x.sel(x.and1(normal, carry), x.c(1 << 23), kept), x.c(0x7fffff));
  const signBit = x.shl(x.op('U1ToU32', sign), x.c(31));
  let bits = x.or(signBit, x.or(x.shl(expField, x.c(23)), mant));
  // Overflow by the mode: to infinity when rounding toward it, else the largest finite value.
  const over = x.and1(normal, x.op('SGe32', eN, x.c(255)));
  const inf = x.or(signBit, x.c(0x7f800000)), max = x.or(signBit, x.c(0x7f7fffff));
  const toInf = md.round === 0 ? x.t(true) : md.round === 1 ? x.not1(sign) : md.round === 2 ? sign : x.t(false);
  bits = x.sel(over, x.sel(toInf, inf, max), bits);
  if (md.flushOut) {
    // Tininess (md.tininess, src/float TININESS): 'before': tiny below 2^-126 (e < 1); 'after':
    // tiny unless e = 0 and rounding at normal precision carries to 2^-126.
    let notTiny = normal;
    if (md.tininess === 'after') {
      const keptN0 = x.op('Lo32', x.shr64(m, x.c(30)));
      const remN = x.and64(m, x.lowMask64(x.c(30)));
      const keptN = x.add(keptN0, x.op('U1ToU32', roundUp(keptN0, remN, x.c64(1n << 29n))));
      notTiny = x.or1(normal, x.and1(x.eq(e, x.c(0)), x.eq(keptN, x.c(1 << 24))));
    }
    bits = x.sel(x.and1(x.not1(notTiny), x.nz64(m)), signBit, bits);
  }
  return x.sel(x.nz64(m), bits, signBit);
}

export interface Unpacked { sign: Inst; exp: Inst; frac: Inst; nan: Inst; inf: Inst; zero: Inst; effExp: Inst; mant: Inst }

export function unpack(x: X, md: Mode, a: Inst): Unpacked {
  const sign = x.ne(x.shr(a, x.c(31)), x.c(0));
  const exp = x.and(x.shr(a, x.c(23)), x.c(0xff));
  const frac0 = x.and(a, x.c(0x7fffff));
  const denorm = x.eq(exp, x.c(0));
  const frac = md.flushIn ? x.sel(denorm, x.c(0), frac0) : frac0;
  const isMax = x.eq(exp, x.c(0xff));
  return {
    sign, exp, frac,
    nan: x.and1(isMax, x.ne(frac0, x.c(0))),
    inf: x.and1(isMax, x.eq(frac0, x.c(0))),
    zero: x.and1(denorm, x.eq(frac, x.c(0))),
    effExp: x.sel(denorm, x.c(1), exp),
    mant: x.or(x.sel(denorm, x.c(0), x.c(0x800000)), frac),
  };
}

export const quiet = (x: X, md: Mode, a: Inst) => (md.ieee ? x.or(a, x.c(0x400000)) : a);

export function lowerAdd(x: X, md: Mode, a: Inst, b: Inst): Inst {
  const A = unpack(x, md, a), B = unpack(x, md, b);
  const keyA = x.or(x.shl(A.effExp, x.c(24)), A.mant), keyB = x.or(x.shl(B.effExp, x.c(24)), B.mant);
  const aBig = x.op('UGe32', keyA, keyB);
  const sX = x.sel1(aBig, A.sign, B.sign), sY = x.sel1(aBig, B.sign, A.sign);
  const eX = x.sel(aBig, A.effExp, B.effExp), eY = x.sel(aBig, B.effExp, A.effExp);
  const mX = x.shl64(x.wide(x.sel(aBig, A.mant, B.mant)), x.c(30));
  const mY = x.shl64(x.wide(x.sel(aBig, B.mant, A.mant)), x.c(30));
  const d = x.sub(eX, eY);
  const far = x.op('UGe32', d, x.c(63));
  const dC = x.sel(far, x.c(0), d);
  const shifted = x.shr64(mY, dC);
  const lost = x.nz64(x.and64(mY, x.lowMask64(dC)));
  const yAl = x.sel64(far, x.wide(x.op('U1ToU32', x.nz64(mY))), x.or64(shifted, x.wide(x.op('U1ToU32', lost))));
  const subtract = x.op('XorU1', sX, sY);
  const r = x.sel64(subtract, x.sub64(mX, yAl), x.add64(mX, yAl));
  // Normalise to bit 53: a carry puts the leading one at 54 (shift right, keeping a sticky bit).
  const pos = x.sub(x.c(63), x.clz64(r));
  const carry = x.eq(pos, x.c(54));
  const right = x.or64(x.shr64(r, x.c(1)), x.and64(r, x.c64(1n)));
  const left = x.shl64(r, x.and(x.sub(x.c(53), pos), x.c(63)));
  const m = x.sel64(carry, right, left);
  const e = x.add(eX, x.sub(pos, x.c(53)));
  const zeroSign = x.sel1(subtract, x.t(md.round === 2), sX);
  const finite = x.sel(x.nz64(r), roundPack(x, md, sX, e, m), x.shl(x.op('U1ToU32', zeroSign), x.c(31)));
  // Specials: NaNs (the first NaN operand), inf − inf, infinities.
  const bothInfOpp = x.and1(x.and1(A.inf, B.inf), x.op('XorU1', A.sign, B.sign));
  let res = x.sel(A.inf, a, x.sel(B.inf, b, finite));
  res = x.sel(bothInfOpp, x.c(0x7fc00000), res);
  res = x.sel(B.nan, quiet(x, md, b), res);
  return x.sel(A.nan, quiet(x, md, a), res);
}

export function lowerMul(x: X, md: Mode, a: Inst, b: Inst): Inst {
  const A = unpack(x, md, a), B = unpack(x, md, b);
  const sign = x.op('XorU1', A.sign, B.sign);
  const p = x.op('UMulWide32', A.mant, B.mant);
  const pos = x.sub(x.c(63), x.clz64(p));
  const m = x.shl64(p, x.and(x.sub(x.c(53), pos), x.c(63)));
  const e = x.add(x.add(A.effExp, B.effExp), x.sub(pos, x.c(173)));
  const signBit = x.shl(x.op('U1ToU32', sign), x.c(31));
  const finite = x.sel(x.nz64(p), roundPack(x, md, sign, e, m), signBit);
  const infZero = x.or1(x.and1(A.inf, B.zero), x.and1(B.inf, A.zero));
  let res = x.sel(x.or1(A.inf, B.inf), x.or(signBit, x.c(0x7f800000)), finite);
  res = x.sel(infZero, x.c(0x7fc00000), res);
  res = x.sel(B.nan, quiet(x, md, b), res);
  return x.sel(A.nan, quiet(x, md, a), res);
}

/** Normalises a nonzero u64 to its leading one at bit 61; returns it and the exponent change. */
function norm61(x: X, w: Inst): { w: Inst; shift: Inst } {
  const pos = x.sub(x.c(63), x.clz64(w));
  // pos <= 61 for every operand here (products < 2^48 shifted by 14, addends < 2^24 by 38).
  const shift = x.sub(x.c(61), pos);
  return { w: x.shl64(w, x.and(shift, x.c(63))), shift };
}

/**
 * fma(a, b, c) with one rounding: the exact 48-bit product and the addend aligned in 62 bits, sticky
 * below; `scale` (an i32, |scale| ≤ 64) multiplies the exact result by 2^scale before the rounding (v_div_fmas).
 */
export function lowerFma(x: X, md: Mode, a: Inst, b: Inst, c: Inst, scale?: Inst): Inst {
  const A = unpack(x, md, a), B = unpack(x, md, b), C = unpack(x, md, c);
  const sp = x.op('XorU1', A.sign, B.sign);
  const p = x.op('UMulWide32', A.mant, B.mant);
  const pZero = x.not1(x.nz64(p));
  const cZero = x.eq(C.mant, x.c(0));
  // value(product) = (p << 14) · 2^(ea + eb − 314); value(addend) = (mc << 38) · 2^(ec − 188).
  const P = norm61(x, x.shl64(x.sel64(pZero, x.c64(1n), p), x.c(14)));
  const Cn = norm61(x, x.shl64(x.wide(x.sel(cZero, x.c(1), C.mant)), x.c(38)));
  const fP = x.sub(x.sub(x.add(A.effExp, B.effExp), x.c(314)), P.shift);
  const fC = x.sub(x.sub(C.effExp, x.c(188)), Cn.shift);
  // The larger term (both normalised to bit 61: the larger exponent is the larger magnitude).
  const pBig = x.or1(cZero, x.and1(x.not1(pZero), x.or1(x.op('SGt32', fP, fC), x.and1(x.eq(fP, fC), x.op('UGe32', x.op('Hi32', P.w), x.op('Hi32', Cn.w))))));
  const wB = x.sel64(pBig, P.w, Cn.w), wS0 = x.sel64(pBig, Cn.w, P.w);
  const fB = x.sel(pBig, fP, fC), fS = x.sel(pBig, fC, fP);
  const sB = x.sel1(pBig, sp, C.sign), sS = x.sel1(pBig, C.sign, sp);
  const smallZero = x.sel1(pBig, cZero, pZero);
  const wS = x.sel64(smallZero, x.c64(0n), wS0);
  const d = x.sub(fB, fS);
  const far = x.op('UGe32', d, x.c(63));
  const dC = x.sel(far, x.c(0), d);
  const lost = x.nz64(x.and64(wS, x.lowMask64(dC)));
  const al = x.sel64(far, x.wide(x.op('U1ToU32', x.nz64(wS))), x.or64(x.shr64(wS, dC), x.wide(x.op('U1ToU32', lost))));
  const subtract = x.op('XorU1', sB, sS);
  const r = x.sel64(subtract, x.sub64(wB, al), x.add64(wB, al));
  // Normalise to bit 53 (a right shift keeps a sticky bit).
  const pos = x.sub(x.c(63), x.clz64(r));
  const rs = x.sub(pos, x.c(53));
  const right = x.op('SGt32', rs, x.c(0));
  const rsC = x.and(x.sel(right, rs, x.c(0)), x.c(63));
  const rLost = x.nz64(x.and64(r, x.lowMask64(rsC)));
  const mR = x.or64(x.shr64(r, rsC), x.wide(x.op('U1ToU32', rLost)));
  const mL = x.shl64(r, x.and(x.sub(x.c(53), pos), x.c(63)));
  const m = x.sel64(right, mR, mL);
  const e0 = x.add(x.add(fB, rs), x.c(180));
  const e = scale ? x.add(e0, scale) : e0;
  const bothZero = x.and1(pZero, cZero);
  const zeroSign = x.sel1(x.op('XorU1', sp, C.sign), x.t(md.round === 2), sp);
  const exactZero = x.or1(bothZero, x.not1(x.nz64(r)));
  const zSign = x.sel1(bothZero, zeroSign, x.t(md.round === 2));
  const finite = x.sel(exactZero, x.shl(x.op('U1ToU32', zSign), x.c(31)), roundPack(x, md, sB, e, m));
  // Specials, in the model's order: NaN operands (a, b, c), inf × 0, inf − inf, infinities.
  const pInf = x.or1(A.inf, B.inf);
  const infZero = x.and1(pInf, x.or1(A.zero, B.zero));
  const infMinusInf = x.and1(x.and1(pInf, C.inf), x.op('XorU1', sp, C.sign));
  let res = x.sel(C.inf, c, finite);
  res = x.sel(pInf, x.or(x.shl(x.op('U1ToU32', sp), x.c(31)), x.c(0x7f800000)), res);
  res = x.sel(x.or1(infZero, infMinusInf), x.c(0x7fc00000), res);
  res = x.sel(C.nan, quiet(x, md, c), res);
  res = x.sel(B.nan, quiet(x, md, b), res);
  return x.sel(A.nan, quiet(x, md, a), res);
}

/** 1/a correctly rounded: floor(2^49 / m) with the remainder as sticky. */
export function lowerRcp(x: X, md: Mode, a: Inst): Inst {
  const A = unpack(x, md, a);
  const zero = x.eq(A.mant, x.c(0));
  const mant = x.sel(zero, x.c(1), A.mant);
  const num = x.c64(1n << 49n);
  const q = x.op('UDiv64', num, x.wide(mant));
  const rem = x.op('UMod64', num, x.wide(mant));
  const posq = x.sub(x.c(63), x.clz64(q));
  const s = x.sub(x.c(53), posq);
  const M = x.or64(x.shl64(q, x.and(s, x.c(63))), x.wide(x.op('U1ToU32', x.nz64(rem))));
  // a = m · 2^(ea − 150), so 1/a = q · 2^(101 − ea) (+ remainder); E = 281 − ea − s.
  const e = x.sub(x.sub(x.c(281), A.effExp), s);
  const signBit = x.shl(x.op('U1ToU32', A.sign), x.c(31));
  let res = roundPack(x, md, A.sign, e, M);
  res = x.sel(zero, x.or(signBit, x.c(0x7f800000)), res);
  res = x.sel(A.inf, signBit, res);
  return x.sel(A.nan, quiet(x, md, a), res);
}

/** min/max with RDNA's NaN rules (IEEE: an sNaN operand gives it quieted; a qNaN is missing) and -0 < +0. */
export function lowerMinMax(x: X, md: Mode, a: Inst, b: Inst, isMax: boolean): Inst {
  const A = unpack(x, md, a), B = unpack(x, md, b);
  const flushed = (U: Unpacked, raw: Inst) => x.sel(U.nan, raw, x.or(x.shl(x.op('U1ToU32', U.sign), x.c(31)), x.or(x.shl(U.exp, x.c(23)), U.frac)));
  const fa = flushed(A, a), fb = flushed(B, b);
  const key = (v: Inst, U: Unpacked) => { const mag = x.and(v, x.c(0x7fffffff)); return x.sel(U.sign, x.sub(x.c(0x7fffffff), mag), x.add(x.c(0x80000000), mag)); };
  const ka = key(fa, A), kb = key(fb, B);
  const pickA = isMax ? x.op('UGe32', ka, kb) : x.op('ULe32', ka, kb);
  const outFlush = (v: Inst) => (md.flushOut ? x.sel(x.and1(x.eq(x.and(v, x.c(0x7f800000)), x.c(0)), x.ne(x.and(v, x.c(0x7fffff)), x.c(0))), x.and(v, x.c(0x80000000)), v) : v);
  let res = outFlush(x.sel(pickA, fa, fb));
  res = x.sel(B.nan, outFlush(fa), res);
  res = x.sel(A.nan, outFlush(fb), res);
  if (md.ieee) {
    const sig = (U: Unpacked, raw: Inst) => x.and1(U.nan, x.eq(x.and(raw, x.c(0x400000)), x.c(0)));
    res = x.sel(sig(B, b), x.or(b, x.c(0x400000)), res);
    res = x.sel(sig(A, a), x.or(a, x.c(0x400000)), res);
  }
  return res;
}

/** floor / ceil / trunc / round-to-nearest-even to an integral value (exact; inputs flushed by the mode). */
export function lowerIntegral(x: X, md: Mode, a: Inst, how: 'floor' | 'ceil' | 'trunc' | 'rndne'): Inst {
  const A = unpack(x, md, a);
  const signBit = x.shl(x.op('U1ToU32', A.sign), x.c(31));
  const fb = x.or(signBit, x.or(x.shl(A.exp, x.c(23)), A.frac));
  const k = x.sub(x.c(150), A.effExp);
  const kk = x.sel(x.op('UGt32', k, x.c(25)), x.c(25), k);
  const t0 = x.shr(A.mant, kk);
  const rem = x.and(A.mant, x.sub(x.shl(x.c(1), kk), x.c(1)));
  const half = x.shl(x.c(1), x.sub(kk, x.c(1)));
  const nz = x.ne(rem, x.c(0));
  let up: Inst;
  switch (how) {
    case 'rndne': up = x.or1(x.ult(half, rem), x.and1(x.eq(rem, half), x.ne(x.and(t0, x.c(1)), x.c(0)))); break;
    case 'floor': up = x.and1(A.sign, nz); break;
    case 'ceil': up = x.and1(x.not1(A.sign), nz); break;
    default: up = x.t(false);
  }
  const t = x.add(t0, x.op('U1ToU32', up));
  const pos = x.sub(x.c(31), x.op('Clz32', t));
  const asFloat = x.or(signBit, x.or(x.shl(x.add(pos, x.c(127)), x.c(23)), x.and(x.shl(t, x.and(x.sub(x.c(23), pos), x.c(31))), x.c(0x7fffff))));
  let res = x.sel(x.eq(t, x.c(0)), signBit, asFloat);
  res = x.sel(x.or1(x.op('UGe32', A.exp, x.c(150)), A.zero), fb, res);
  return x.sel(A.nan, quiet(x, md, a), res);
}

export function lowerFromInt(x: X, md: Mode, v: Inst, signed: boolean): Inst {
  const neg = signed ? x.ne(x.shr(v, x.c(31)), x.c(0)) : x.t(false);
  const mag = signed ? x.sel(neg, x.sub(x.c(0), v), v) : v;
  const pos = x.sub(x.c(31), x.op('Clz32', mag));
  const m = x.shl64(x.wide(mag), x.and(x.sub(x.c(53), pos), x.c(63)));
  return x.sel(x.eq(mag, x.c(0)), x.c(0), roundPack(x, md, neg, x.add(pos, x.c(127)), m));
}

export function lowerToInt(x: X, md: Mode, a: Inst, signed: boolean): Inst {
  if (md.floatToInt === 'mode') return lowerToIntByMode(x, md, a, signed);
  const A = unpack(x, md, a);
  const e = x.sub(A.exp, x.c(127)); // unbiased; subnormals and zero give < 0
  const mant = x.or(A.frac, x.c(0x800000));
  const big = x.op('SGe32', e, x.c(23));
  const mag = x.sel(big, x.shl(mant, x.and(x.sub(e, x.c(23)), x.c(31))), x.shr(mant, x.and(x.sub(x.c(23), e), x.c(31))));
  const small = x.slt(e, x.c(0));
  if (!signed) {
    let r = x.sel(small, x.c(0), mag);
    r = x.sel(x.op('SGe32', e, x.c(32)), x.c(0xffffffff), r);
    r = x.sel(A.sign, x.c(0), r); // negative (below -0.5 or not) truncates to 0 or saturates at 0
    return x.sel(A.nan, x.c(0), r);
  }
  const over = x.op('SGe32', e, x.c(31));
  let r = x.sel(small, x.c(0), x.sel(A.sign, x.sub(x.c(0), mag), mag));
  r = x.sel(over, x.sel(A.sign, x.c(0x80000000), x.c(0x7fffffff)), r);
  return x.sel(A.nan, x.c(0), r);
}

/**
 * f32 → u32/i32 under FLOAT_TO_INT_ROUNDING 'mode': the value rounded to an integer by md.round
 * (lowerIntegral, exact), then converted (exact: an integral value), saturating, NaN → 0.
 */
function lowerToIntByMode(x: X, md: Mode, a: Inst, signed: boolean): Inst {
  const how = (['rndne', 'ceil', 'floor', 'trunc'] as const)[md.round];
  const r = lowerIntegral(x, md, a, how); // NaN stays NaN (→ 0 below); inputs flushed by md
  return lowerToInt(x, { ...md, floatToInt: 'truncate', flushIn: false }, r, signed);
}

export function lowerCmp(x: X, md: Mode, pred: number, a: Inst, b: Inst): Inst {
  const A = unpack(x, md, a), B = unpack(x, md, b);
  const unord = x.or1(A.nan, B.nan);
  // Flushed values with one order key: -0 and +0 meet at 0x80000000.
  const val = (U: Unpacked) => x.or(x.shl(U.exp, x.c(23)), U.frac);
  const key = (U: Unpacked) => x.sel(U.sign, x.sub(x.c(0x80000000), val(U)), x.add(val(U), x.c(0x80000000)));
  const ka = key(A), kb = key(B);
  const lt = x.ult(ka, kb), eq = x.eq(ka, kb), gt = x.ult(kb, ka);
  const ord = x.not1(unord);
  const o = (c: Inst) => x.and1(ord, c);
  const n = (c: Inst) => x.or1(unord, x.not1(c));
  switch (pred & 15) {
    case 0: return x.t(false);
    case 1: return o(lt);
    case 2: return o(eq);
    case 3: return o(x.or1(lt, eq));
    case 4: return o(gt);
    case 5: return o(x.not1(eq));
    case 6: return o(x.or1(gt, eq));
    case 7: return ord;
    case 8: return unord;
    case 9: return n(x.or1(gt, eq)); // nge
    case 10: return n(x.not1(eq)); // nlg
    case 11: return n(gt); // ngt
    case 12: return n(x.or1(lt, eq)); // nle
    case 13: return n(eq); // neq
    case 14: return n(lt); // nlt
    default: return x.t(true);
  }
}
