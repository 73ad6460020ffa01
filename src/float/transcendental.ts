// The model of the VALU transcendentals (v_exp, v_log, v_sin, v_cos in f32 and f16), which the
// hardware computes only approximately (RDNA2 ISA: about 1 ulp). It is our own definition, not
// the hardware's approximation: each function is a fixed algorithm over IEEE binary64 (below),
// whose f64 result is rounded once to the result format under MODE (roundNumber: the direction,
// output flushing with tininess after rounding, overflow by the mode). The algorithms are written
// once, generic over an f64 arithmetic (`F64Arith`), and instantiated twice: with JS numbers here
// (the interpreter, constant folding, the IR interpreter) and with IR builders in
// src/ir/passes/lower-float-transcendental.ts (the recompiler: device f64 ops or exact integer
// code), so both engines compute the same bits by construction.
//
// What the algorithms use: f64 add, sub and mul rounded to nearest even (JS numbers are IEEE
// binary64 with exactly these operations, on every engine; Vulkan's OpFAdd/OpFSub/OpFMul under
// RoundingModeRTE with NoContraction, or the exact integer lowering), exact sign flips, compares
// and selects, and exact bit-level steps: an integer from the low bits of x + 1.5·2^52, 2^n from
// its exponent field, a table entry by index, the exponent and significand of a normal f64, a
// small integer as an f64. No division, no fma, no Math.* transcendental (ECMAScript leaves
// their results to the implementation).
//
// No intermediate is ever an f64 subnormal, an infinity or a NaN, for any finite f32 or f16 input
// (denormal inputs included: the smallest is 2^-149), so a device's f64 denormal handling never
// matters (the argument per function, below). Non-finite inputs and the inputs a rule settles
// (log of zero or of a negative value) never reach the algorithms: SPECIALS gives their results.
//
// Accuracy (all finite inputs, tests/float/transcendental.test.ts against mpmath): the f64 value
// is within about 2^-50 of the true value relative (the error terms argued below; measured with
// mpmath on 160,000 random f32 inputs: at most 2^-52.4 for exp2, 2^-52.2 log2, 2^-51.8 sin,
// 2^-51.8 cos), so the rounded f16/f32 result is the correctly rounded one unless the true value
// lies within about 2^-50 (relative) of a rounding boundary; the test checks that over every f16 input and a few hundred thousand f32 inputs in
// all four rounding directions (the cases within 2^-45 of a boundary are counted, not checked:
// none for f16; for f32 mostly exp2 and cos of inputs of tiny magnitude, whose true value lies
// within 2^-45 of 1, where the f64 value is exactly 1 and a directed mode gives 1 rather than its
// neighbour).
//
// Special values (SPECIALS): exp(-inf) = +0, exp(+inf) = +inf, log(±0) = -inf, log(x < 0) = NaN
// (-inf too), log(+inf) = +inf, sin/cos(±inf) = NaN; NaN inputs propagate (quieted when
// MODE.IEEE = 1); NaNs made here are the canonical +qNaN. exp(±0) = 1, log(1) = +0 and the
// sin/cos zeros come from the algorithms: sin of an integer number of revolutions is a zero of
// the input's sign, of a half-integer the opposite sign; a zero cos is +0. Inputs are flushed by
// the env (the f32 exp and log flush whatever MODE says: the table's 'mode:always-flush-f32').
//
// exp2(x): x clamped to [-160, 129] (every f32/f16 input at or beyond the ends gives the same
// result as the end: 2^x ≥ 2^128 overflows both formats under every mode; 2^x ≤ 2^-160 lies below
// half the smallest f32 (2^-150) and f16 denormal, so it rounds to +0 toward zero, -inf or nearest,
// to the smallest denormal toward +inf, and flushes to +0; the ends themselves behave so). n =
// round(x) (ties to even) by the sum with 1.5·2^52, f = x − n in [-1/2, 1/2] (exact: Sterbenz, or
// n = 0), 2^f by the Taylor polynomial of degree 13 in Horner form (EXP2_POLY; truncation below
// 2^-54 relative), times 2^n (exact: n in [-160, 129]). Intermediates: |f| is 0 or at least 2^-149,
// the Horner partial sums lie in [c_k/2, 2] with c_k ≥ 2^-48, so every product is 0 or above
// 2^-200; the result is in [2^-161, 2^130].
// log2(x), x > 0 finite: x = m · 2^e (m in [1, 2), e in [-149, 127]); j = round(32 (m − 1)) in
// 0..32; r_j ≈ 1/(1 + j/32) a multiple of 2^-12 (LOG2_R), so m · r_j (at most 24 + 12 significant
// bits) and t = m · r_j − 1 (Sterbenz: m · r_j is in [0.98, 1.02]) are exact, |t| < 2^-5.9; then
// log2(x) = (e + H_j) + (L_j + t · P(t)), where H_j + L_j = −log2(r_j) (H_j a multiple of 2^-40, so
// e + H_j is exact; LOG2_HI, LOG2_LO) and P is the series of log2(1 + t)/t to degree 8 (LOG2_POLY;
// truncation below 2^-56 relative). log2 of a power of two is exact (m = 1: j = 0, t = 0, H = L =
// 0). Intermediates: t is 0 or at least 2^-36 in magnitude, the partial sums of P are near 1/ln 2,
// so products are 0 or above 2^-45; the result is 0 or above 2^-40 in magnitude.
// sin(2π x), cos(2π x): a = |x|, taken as 0 when a ≥ 2^32 (every such f32 is an integer: whole
// revolutions); k = round(4a) (ties to even), d = 4a − k in [-1/2, 1/2] quarter revolutions (exact),
// q = k mod 4; with θ = π/2 · d, sin θ = d · S(d²) and cos θ = C(d²), Taylor polynomials in d
// (SINQ_POLY to d^15, COSQ_POLY to d^16; truncation below 2^-54 relative), d² exact (d has at
// most 24 significant bits). sin(2π a) is (sin θ, cos θ, −sin θ, −cos θ) for q = 0..3 and cos(2π a)
// (cos θ, −sin θ, −cos θ, sin θ); sin is odd in x. Quarter revolutions are exact (d = 0: sin θ =
// 0, cos θ = 1). Intermediates: |d| is 0 or at least 2^-147, d² 0 or at least 2^-294, the partial
// sums of S and C are near π/2 and 1, so products are 0 or above 2^-330.
import type { FloatEnv } from './env.js';
import { F16, F32, type Format } from './format.js';
import { roundNumber } from './round.js';
import { COSQ_POLY, EXP2_POLY, LOG2_HI, LOG2_LO, LOG2_POLY, LOG2_R, SINQ_POLY } from './transcendental-tables.js';

// --- f64 constants from their bits --------------------------------------------------------------

const dv = new DataView(new ArrayBuffer(8));
/** The f64 with bits `b`. */
export function f64FromBits(b: bigint): number {
  dv.setUint32(0, Number(b >> 32n));
  dv.setUint32(4, Number(b & 0xffffffffn));
  return dv.getFloat64(0);
}
/** An f64 constant: its bits (for the IR) and its value (for JS numbers). */
export interface F64Const { readonly bits: bigint; readonly value: number }
/** A table of f64 constants selected by an integer index. */
export interface F64Table { readonly bits: readonly bigint[]; readonly values: readonly number[] }
const k = (bits: bigint): F64Const => ({ bits, value: f64FromBits(bits) });
const table = (bits: readonly bigint[]): F64Table => ({ bits, values: bits.map(f64FromBits) });
const poly = (bits: readonly bigint[]): readonly F64Const[] => bits.map(k);

/** 1.5 · 2^52: x + MAGIC − MAGIC is x rounded to an integer (ties to even) for |x| < 2^51, and the low bits of x + MAGIC hold that integer. */
export const MAGIC = k(0x4338000000000000n);
const ZERO = k(0n), ONE = k(0x3ff0000000000000n), FOUR = k(0x4010000000000000n), THIRTY_TWO = k(0x4040000000000000n);
const TWO_POW_32 = k(0x41f0000000000000n);
const EXP2_MIN = k(0xc064000000000000n); // -160
const EXP2_MAX = k(0x4060200000000000n); // 129
const EXP2_C = poly(EXP2_POLY), LOG2_C = poly(LOG2_POLY), SINQ_C = poly(SINQ_POLY), COSQ_C = poly(COSQ_POLY);
const R_TABLE = table(LOG2_R), HI_TABLE = table(LOG2_HI), LO_TABLE = table(LOG2_LO);

// --- the arithmetic the algorithms are written over ---------------------------------------------

/**
 * IEEE binary64 arithmetic as the algorithms use it: V an f64 value, B a bool, I a 32-bit integer.
 * add/sub/mul round to nearest even; everything else is exact. The algorithms keep every V finite
 * and never subnormal (the header), and call the integer steps only within their stated ranges.
 */
export interface F64Arith<V, B, I> {
  c(k: F64Const): V;
  add(a: V, b: V): V;
  sub(a: V, b: V): V;
  mul(a: V, b: V): V;
  /** −a (the sign flipped, zeros too). */
  neg(a: V): V;
  /** a < b, a = b (IEEE: −0 = +0). */
  lt(a: V, b: V): B;
  eq(a: V, b: V): B;
  sel(c: B, a: V, b: V): V;
  or(a: B, b: B): B;
  /** n, where v = MAGIC + n exactly and |n| < 2^31. */
  lowInt(v: V): I;
  /** i & mask (mask ≥ 0). */
  iand(i: I, mask: number): I;
  ieq(i: I, k: number): B;
  /** 2^i, i in [-1022, 1023]. */
  pow2(i: I): V;
  /** t[i], i in [0, t.length). */
  pick(i: I, t: F64Table): V;
  /** floor(log2 v) of a positive normal v. */
  exponent(v: V): I;
  /** v · 2^-exponent(v), in [1, 2), for a positive normal v. */
  significand(v: V): V;
  /** i as an f64 (|i| < 2^31: exact). */
  itof(i: I): V;
}

/** c[0] + z (c[1] + z (c[2] + ...)): Horner's rule. */
function horner<V, B, I>(A: F64Arith<V, B, I>, c: readonly F64Const[], z: V): V {
  let p = A.c(c[c.length - 1] as F64Const);
  for (let i = c.length - 2; i >= 0; i--) p = A.add(A.c(c[i] as F64Const), A.mul(z, p));
  return p;
}

/** 2^x for a finite x (the header's exp2). */
export function exp2Core<V, B, I>(A: F64Arith<V, B, I>, x: V): V {
  const lo = A.c(EXP2_MIN), hi = A.c(EXP2_MAX);
  const xc = A.sel(A.lt(x, lo), lo, A.sel(A.lt(hi, x), hi, x));
  const s = A.add(xc, A.c(MAGIC));
  const n = A.sub(s, A.c(MAGIC));
  const f = A.sub(xc, n);
  return A.mul(horner(A, EXP2_C, f), A.pow2(A.lowInt(s)));
}

/** log2(x) for a finite x > 0 (the header's log2). */
export function log2Core<V, B, I>(A: F64Arith<V, B, I>, x: V): V {
  const e = A.exponent(x);
  const m = A.significand(x);
  const s = A.add(A.mul(A.sub(m, A.c(ONE)), A.c(THIRTY_TWO)), A.c(MAGIC));
  const j = A.lowInt(s);
  const t = A.sub(A.mul(m, A.pick(j, R_TABLE)), A.c(ONE));
  const p = A.mul(t, horner(A, LOG2_C, t));
  return A.add(A.add(A.itof(e), A.pick(j, HI_TABLE)), A.add(A.pick(j, LO_TABLE), p));
}

/** The reduction of sin and cos: sin θ, cos θ and the quadrant's facts. */
function quarter<V, B, I>(A: F64Arith<V, B, I>, x: V) {
  const negative = A.lt(x, A.c(ZERO));
  const a0 = A.sel(negative, A.neg(x), x);
  const a = A.sel(A.lt(a0, A.c(TWO_POW_32)), a0, A.c(ZERO));
  const t = A.mul(a, A.c(FOUR));
  const s = A.add(t, A.c(MAGIC));
  const d = A.sub(t, A.sub(s, A.c(MAGIC)));
  const q = A.iand(A.lowInt(s), 3);
  const d2 = A.mul(d, d);
  return { negative, q, sin: A.mul(d, horner(A, SINQ_C, d2)), cos: horner(A, COSQ_C, d2) };
}

/** sin(2π x) for a finite x (revolutions). */
export function sinCore<V, B, I>(A: F64Arith<V, B, I>, x: V): V {
  const r = quarter(A, x);
  const odd = A.ieq(A.iand(r.q, 1), 1);
  const v = A.sel(odd, r.cos, r.sin);
  const w = A.sel(A.ieq(A.iand(r.q, 2), 2), A.neg(v), v);
  return A.sel(r.negative, A.neg(w), w);
}

/** cos(2π x) for a finite x (revolutions); a zero result is +0. */
export function cosCore<V, B, I>(A: F64Arith<V, B, I>, x: V): V {
  const r = quarter(A, x);
  const odd = A.ieq(A.iand(r.q, 1), 1);
  const v = A.sel(odd, r.sin, r.cos);
  const w = A.sel(A.or(A.ieq(r.q, 1), A.ieq(r.q, 2)), A.neg(v), v);
  return A.sel(A.eq(w, A.c(ZERO)), A.c(ZERO), w);
}

export type TranscendentalFn = 'exp' | 'log' | 'sin' | 'cos';
export const CORES = { exp: exp2Core, log: log2Core, sin: sinCore, cos: cosCore } as const;

/** A special result: the canonical NaN, an infinity or +0. */
export type Special = 'nan' | '+inf' | '-inf' | '+0';
/** The inputs the algorithms never see, and their results (zero and negative: finite inputs). */
export interface SpecialRules { readonly posInf: Special; readonly negInf: Special; readonly zero?: Special; readonly negative?: Special }
export const SPECIALS: Readonly<Record<TranscendentalFn, SpecialRules>> = {
  exp: { posInf: '+inf', negInf: '+0' },
  log: { posInf: '+inf', negInf: 'nan', zero: '-inf', negative: 'nan' },
  sin: { posInf: 'nan', negInf: 'nan' },
  cos: { posInf: 'nan', negInf: 'nan' },
};

// --- JS numbers ---------------------------------------------------------------------------------

const POW2: number[] = [];
for (let i = -1022; i <= 1023; i++) {
  dv.setUint32(0, ((i + 1023) << 20) >>> 0);
  dv.setUint32(4, 0);
  POW2.push(dv.getFloat64(0));
}
const pow2 = (i: number): number => POW2[i + 1022] as number;
function exponentOf(v: number): number {
  dv.setFloat64(0, v);
  return ((dv.getUint32(0) >>> 20) & 0x7ff) - 1023;
}

/** The algorithms on JS numbers (IEEE binary64, round to nearest even: ECMAScript's Number). */
export const NUMBER_ARITH: F64Arith<number, boolean, number> = {
  c: (c) => c.value,
  add: (a, b) => a + b, sub: (a, b) => a - b, mul: (a, b) => a * b, neg: (a) => -a,
  lt: (a, b) => a < b, eq: (a, b) => a === b, sel: (c, a, b) => (c ? a : b), or: (a, b) => a || b,
  lowInt: (v) => v - MAGIC.value,
  iand: (i, m) => i & m, ieq: (i, c) => i === c,
  pow2,
  pick: (i, t) => t.values[i] as number,
  exponent: exponentOf,
  significand: (v) => v * pow2(-exponentOf(v)),
  itof: (i) => i,
};

// --- the model: f16/f32 bits in and out ---------------------------------------------------------

/** The bits of a special result in format f. */
export function specialBits(f: Format, s: Special): number {
  switch (s) {
    case 'nan': return Number(f.qnan);
    case '+inf': return Number(f.expMask);
    case '-inf': return Number(f.signBit | f.expMask);
    case '+0': return 0;
  }
}

/** A finite f16/f32 value from its bits, after the input flush (exact). */
function decode(f: Format, bits: number, flushIn: boolean): number {
  const m = f.mantBits, e = (bits >>> m) & ((1 << (f.bits - 1 - m)) - 1), frac = bits % (1 << m);
  const sign = bits >= Number(f.signBit) ? -1 : 1;
  if (e === 0) return flushIn || frac === 0 ? sign * 0 : sign * frac * pow2(1 - f.bias - m);
  return sign * (frac + (1 << m)) * pow2(e - f.bias - m);
}

/** The model of v_<fn>_f16 / v_<fn>_f32 on the source bits under env. */
export function transcendental(f: Format, fn: TranscendentalFn, bits: number, env: FloatEnv): number {
  const m = f.mantBits, expAll = (1 << (f.bits - 1 - m)) - 1;
  const e = (bits >>> m) & expAll, frac = bits % (1 << m), negative = bits >= Number(f.signBit);
  const rules = SPECIALS[fn];
  if (e === expAll) {
    if (frac !== 0) return env.ieee ? bits + (frac >= 1 << (m - 1) ? 0 : 1 << (m - 1)) : bits; // NaN: quieted when IEEE
    return specialBits(f, negative ? rules.negInf : rules.posInf);
  }
  const x = decode(f, bits, env.flushIn);
  if (x === 0 && rules.zero) return specialBits(f, rules.zero);
  if (negative && x !== 0 && rules.negative) return specialBits(f, rules.negative);
  const y = CORES[fn](NUMBER_ARITH, x);
  return roundNumber(f, y < 0 || Object.is(y, -0) ? 1 : 0, Math.abs(y), env);
}

export const expF32 = (bits: number, env: FloatEnv): number => transcendental(F32, 'exp', bits, env);
export const logF32 = (bits: number, env: FloatEnv): number => transcendental(F32, 'log', bits, env);
export const sinF32 = (bits: number, env: FloatEnv): number => transcendental(F32, 'sin', bits, env);
export const cosF32 = (bits: number, env: FloatEnv): number => transcendental(F32, 'cos', bits, env);
export const expF16 = (bits: number, env: FloatEnv): number => transcendental(F16, 'exp', bits, env);
export const logF16 = (bits: number, env: FloatEnv): number => transcendental(F16, 'log', bits, env);
export const sinF16 = (bits: number, env: FloatEnv): number => transcendental(F16, 'sin', bits, env);
export const cosF16 = (bits: number, env: FloatEnv): number => transcendental(F16, 'cos', bits, env);
