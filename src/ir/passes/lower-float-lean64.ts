// A lean exact f64 add, sub and mul as integer IR, for one use only: the 'exact' form of the
// transcendental cores (lower-float-transcendental.ts). They round to nearest even and are exact
// (bit for bit IEEE binary64) on a narrow domain: operands finite and normal or zero, results
// normal or zero (no underflow below 2^-1022, no overflow). That is every step the float model's
// algorithms take (src/float/transcendental.ts, its header: no intermediate is ever subnormal,
// infinite or NaN; the largest is below 2^131). Outside the domain the result is unspecified: no
// NaN, infinity or denormal handling, no other rounding mode, no flushing (lower-float-wide.ts's
// add and mul do all of that, about four times the code).
//
// Zeros do occur (the reductions' x − round(x) of an integral x, t = m · r − 1 of m = 1, log2 of
// a power of two, sin and cos of ±0, products with such a zero), and they follow IEEE under
// nearest even: an exact zero sum (x + (−x)) is +0, a sum of two zeros is −0 only when both are
// −0, x + ±0 is x, a product with a zero is a zero of the operands' sign product.
//
// Method. add: the operands ordered by magnitude (x the larger), each significand (its hidden bit
// only where the exponent is nonzero, so a zero is a zero significand) at bit 62 of a u64 (ten
// guard bits), y's shifted right by the exponent difference with the bits shifted out OR-ed into
// bit 0 (jamming), added or subtracted (a multiply by ±1), normalised to bit 63 (one rounding step
// at bit 11 with a half at bit 10: a jammed bit lands at most at bit 2 where bits were lost, since
// a shift of more than 2 happens only where the subtraction was exact). mul: both significands at
// bit 62, the 128-bit product's high half from four 32 × 32-bit products (its low half only as a
// sticky bit), the leading one at bit 61 or 60 of the high half, the rounding at bit 9 after a
// shift by one where needed. The rounded significand (leading one at bit 52) plus the sign and
// (exponent − 1) << 52 gives the bits, a carry of the rounding raising the exponent by itself.
import type { Inst } from '../ir.js';
import type { X } from './lower-float-core.js';

const SIGN = 0x80000000;

/** The biased exponent field of an f64 from its high word. */
const expOf = (x: X, hi: Inst) => x.and(x.shr(hi, x.c(20)), x.c(0x7ff));

/** Whether nearest even rounds up: `rem` the dropped bits (u32, sticky included), `half` its half, `lsb` the kept value's last bit (u32). */
const rneUp = (x: X, rem: Inst, lsb: Inst, half: number) => x.op('UGt32', x.add(rem, lsb), x.c(half)); // rem > half, or rem = half and lsb = 1

/** a + b (or a − b where `negateB`), nearest even, for operands normal or zero and a result normal or zero (the header). */
export function leanAdd64(x: X, a: Inst, b: Inst, negateB = false): Inst {
  const aLo = x.op('Lo32', a), aHi = x.op('Hi32', a), bLo = x.op('Lo32', b);
  const bHi = negateB ? x.op('Xor32', x.op('Hi32', b), x.c(SIGN)) : x.op('Hi32', b);
  // x: the operand of the larger magnitude (a where equal), y the other.
  const swap = x.ult64(x.shl64(a, x.c(1)), x.shl64(b, x.c(1)));
  const xHi = x.sel(swap, bHi, aHi), xLo = x.sel(swap, bLo, aLo), yHi = x.sel(swap, aHi, bHi), yLo = x.sel(swap, aLo, bLo);
  const eX = expOf(x, xHi), eY = expOf(x, yHi);
  // The significand (a zero's is 0) with its leading one at bit 62.
  const sig = (hi: Inst, lo: Inst, e: Inst) => x.shl64(x.op('Pack64', lo, x.or(x.and(hi, x.c(0xfffff)), x.shl(x.op('UMin32', e, x.c(1)), x.c(20)))), x.c(10));
  const mX = sig(xHi, xLo, eX), mY = sig(yHi, yLo, eY);
  // y aligned to x: shifted right by the exponent difference (at most 63: y < 2^63 leaves 0), jamming.
  const d = x.op('UMin32', x.sub(eX, eY), x.c(63));
  const t = x.shr64(mY, d);
  const lost = x.op('INe64', x.shl64(t, d), mY);
  const yAl = x.op('Pack64', x.or(x.op('Lo32', t), x.op('U1ToU32', lost)), x.op('Hi32', t));
  // Opposite signs subtract: y times −1 (all ones) or 1. r < 2^64; r = 0 only for x = −y or two zeros.
  const opp = x.op('AShr32', x.op('Xor32', aHi, bHi), x.c(31));
  const r = x.add64(mX, x.op('IMul64', yAl, x.op('Pack64', x.or(opp, x.c(1)), opp)));
  const clz = x.clz64(r);
  const n = x.shl64(r, clz); // leading one at bit 63 (r = 0: stays 0)
  const nLo = x.op('Lo32', n);
  const up = rneUp(x, x.and(nLo, x.c(0x7ff)), x.and(x.shr(nLo, x.c(11)), x.c(1)), 0x400);
  // value = (n >> 11) · 2^(eX − clz − 1074): biased exponent eX − clz + 1, never below 1 here.
  const zero = x.op('IEq64', r, x.c64(0n));
  const hi = x.sel(zero, x.and(x.and(aHi, bHi), x.c(SIGN)), x.or(x.and(xHi, x.c(SIGN)), x.shl(x.sub(eX, clz), x.c(20))));
  return x.add64(x.op('Pack64', x.op('U1ToU32', up), hi), x.shr64(n, x.c(11)));
}

/** a − b: leanAdd64 of −b. */
export const leanSub64 = (x: X, a: Inst, b: Inst): Inst => leanAdd64(x, a, b, true);

/** a · b, nearest even, for operands normal or zero and a result normal or zero (the header). */
export function leanMul64(x: X, a: Inst, b: Inst): Inst {
  const aHi = x.op('Hi32', a), bHi = x.op('Hi32', b);
  const eA = expOf(x, aHi), eB = expOf(x, bHi);
  // The significand with its leading one at bit 62, as words (high word below 2^31).
  const sig = (v: Inst, hi: Inst) => {
    const lo = x.op('Lo32', v), top = x.or(x.and(hi, x.c(0xfffff)), x.c(0x100000));
    return { hi: x.or(x.shl(top, x.c(10)), x.shr(lo, x.c(22))), lo: x.shl(lo, x.c(10)) };
  };
  const A = sig(a, aHi), B = sig(b, bHi);
  // The product (2^124 to 2^126): p11 · 2^64 + mid · 2^32 + p00, mid < 2^64 (each cross product < 2^63).
  const p00 = x.op('UMulWide32', A.lo, B.lo), p11 = x.op('UMulWide32', A.hi, B.hi);
  const mid = x.add64(x.op('UMulWide32', A.lo, B.hi), x.op('UMulWide32', A.hi, B.lo));
  const lo = x.add64(p00, x.op('Pack64', x.c(0), x.op('Lo32', mid)));
  const carry = x.op('U1ToU32', x.ult64(lo, p00));
  const hi = x.add64(p11, x.op('Pack64', x.add(x.op('Hi32', mid), carry), x.c(0))); // mid's high word ≤ 2^32 − 3: no carry out
  const sticky = x.op('INe64', lo, x.c64(0n));
  // hi in [2^60, 2^62): the leading one to bit 61.
  const low = x.op('U1ToU32', x.ult64(hi, x.c64(1n << 61n)));
  const h = x.shl64(hi, low);
  const hLo = x.op('Lo32', h);
  const up = rneUp(x, x.or(x.and(hLo, x.c(0x1ff)), x.op('U1ToU32', sticky)), x.and(x.shr(hLo, x.c(9)), x.c(1)), 0x100);
  // value = (h >> 9) · 2^(eA + eB − 1022 − low − 1075).
  const sign = x.and(x.op('Xor32', aHi, bHi), x.c(SIGN));
  const e1 = x.sub(x.add(eA, eB), x.add(low, x.c(1023)));
  const r = x.add64(x.op('Pack64', x.op('U1ToU32', up), x.or(sign, x.shl(e1, x.c(20)))), x.shr64(h, x.c(9)));
  // A zero operand: a zero of the sign product.
  const zero = x.eq(x.op('UMin32', eA, eB), x.c(0));
  return x.op('Pack64', x.sel(zero, x.c(0), x.op('Lo32', r)), x.sel(zero, sign, x.op('Hi32', r)));
}
