// Correctly rounded add/sub/mul/fma/div/sqrt (and rcp/rsq) for f16, f32, f64 under a FloatEnv.

import type { Format, Unpacked } from './format.js';
import { F16, F32, F64, f32ToNumber, numberToF32, quiet, signedInf, signedZero, unpack } from './format.js';
import type { FloatEnv } from './env.js';
import { bitLength, roundNumber, roundToFormat } from './round.js';

// --- shared helpers -------------------------------------------------------------------------

/** Input flush: a subnormal becomes ±0 (sign kept) when env.flushIn. */
export function flushInput(f: Format, u: Unpacked, env: FloatEnv): Unpacked {
  if (env.flushIn && u.kind === 'finite' && u.mant < 1n << BigInt(f.mantBits)) {
    return { kind: 'zero', sign: u.sign, mant: 0n, exp: 0, bits: u.sign ? f.signBit : 0n };
  }
  return u;
}
function operand(f: Format, bits: bigint, env: FloatEnv): Unpacked {
  return flushInput(f, unpack(f, bits), env);
}

/**
 * The NaN rule (see index.ts): the first NaN operand in operand order, quieted (quiet bit set,
 * sign and payload kept) when env.ieee, unchanged otherwise.
 */
export function propagateNaN(f: Format, env: FloatEnv, ...ops: Unpacked[]): bigint {
  for (const u of ops) if (u.kind === 'nan') return env.ieee ? quiet(f, u.bits) : u.bits;
  return f.qnan;
}

/** Sign of an exact zero sum of terms with signs s1, s2: equal signs keep it; else -0 only under RTN. */
function zeroSumSign(s1: 0 | 1, s2: 0 | 1, env: FloatEnv): 0 | 1 {
  return s1 === s2 ? s1 : env.round === 2 ? 1 : 0;
}

/** Exact signed sum of two finite-or-zero terms → round. */
function roundSum(f: Format, s1: 0 | 1, m1: bigint, e1: number, s2: 0 | 1, m2: bigint, e2: number, env: FloatEnv): bigint {
  if (m1 === 0n && m2 === 0n) return signedZero(f, zeroSumSign(s1, s2, env));
  if (m1 === 0n) return roundToFormat(f, s2, m2, e2, false, env);
  if (m2 === 0n) return roundToFormat(f, s1, m1, e1, false, env);
  // A term entirely below a quarter of the other's last unit (the other widened to p + 3 bits)
  // cannot move the sum across a rounding boundary: replace it by exactly that quarter unit
  // (same sign) so that the alignment shift stays bounded.
  const L1 = bitLength(m1), L2 = bitLength(m2);
  const top1 = e1 + L1, top2 = e2 + L2;
  if (top1 !== top2) {
    const oneBig = top1 > top2;
    const [sB, mB, eB, LB, sS, topS] = oneBig ? [s1, m1, e1, L1, s2, top2] : [s2, m2, e2, L2, s1, top1];
    const k = Math.max(0, f.mantBits + 4 - LB);
    const eW = eB - k;
    if (topS <= eW - 2) {
      const w = mB << BigInt(k + 2);
      return roundToFormat(f, sB, sB === sS ? w + 1n : w - 1n, eW - 2, false, env);
    }
  }
  const e = Math.min(e1, e2);
  const a = (s1 ? -m1 : m1) << BigInt(e1 - e);
  const b = (s2 ? -m2 : m2) << BigInt(e2 - e);
  const sum = a + b;
  if (sum === 0n) return signedZero(f, zeroSumSign(s1, s2, env));
  return sum < 0n ? roundToFormat(f, 1, -sum, e, false, env) : roundToFormat(f, 0, sum, e, false, env);
}

// --- generic (bigint bits) ------------------------------------------------------------------

export function addBits(f: Format, a: bigint, b: bigint, env: FloatEnv): bigint {
  const x = operand(f, a, env), y = operand(f, b, env);
  if (x.kind === 'nan' || y.kind === 'nan') return propagateNaN(f, env, x, y);
  if (x.kind === 'inf') return y.kind === 'inf' && y.sign !== x.sign ? f.qnan : signedInf(f, x.sign);
  if (y.kind === 'inf') return signedInf(f, y.sign);
  return roundSum(f, x.sign, x.mant, x.exp, y.sign, y.mant, y.exp, env);
}

function negate(f: Format, bits: bigint): bigint {
  return bits ^ f.signBit;
}

/** a - b. The negation of b does not touch a NaN b (its sign is propagated as is). */
export function subBits(f: Format, a: bigint, b: bigint, env: FloatEnv): bigint {
  return addBits(f, a, unpack(f, b).kind === 'nan' ? b : negate(f, b), env);
}

export function mulBits(f: Format, a: bigint, b: bigint, env: FloatEnv): bigint {
  const x = operand(f, a, env), y = operand(f, b, env);
  if (x.kind === 'nan' || y.kind === 'nan') return propagateNaN(f, env, x, y);
  const sign = (x.sign ^ y.sign) as 0 | 1;
  if (x.kind === 'inf' || y.kind === 'inf') {
    return x.kind === 'zero' || y.kind === 'zero' ? f.qnan : signedInf(f, sign);
  }
  if (x.kind === 'zero' || y.kind === 'zero') return signedZero(f, sign);
  return roundToFormat(f, sign, x.mant * y.mant, x.exp + y.exp, false, env);
}

/** Fused a × b + c, one rounding. */
export function fmaBits(f: Format, a: bigint, b: bigint, c: bigint, env: FloatEnv): bigint {
  const x = operand(f, a, env), y = operand(f, b, env), z = operand(f, c, env);
  if (x.kind === 'nan' || y.kind === 'nan' || z.kind === 'nan') return propagateNaN(f, env, x, y, z);
  const sp = (x.sign ^ y.sign) as 0 | 1;
  if (x.kind === 'inf' || y.kind === 'inf') {
    if (x.kind === 'zero' || y.kind === 'zero') return f.qnan;
    if (z.kind === 'inf' && z.sign !== sp) return f.qnan;
    return signedInf(f, sp);
  }
  if (z.kind === 'inf') return signedInf(f, z.sign);
  const pm = x.kind === 'zero' || y.kind === 'zero' ? 0n : x.mant * y.mant;
  return roundSum(f, sp, pm, x.exp + y.exp, z.sign, z.mant, z.exp, env);
}

export function divBits(f: Format, a: bigint, b: bigint, env: FloatEnv): bigint {
  const x = operand(f, a, env), y = operand(f, b, env);
  if (x.kind === 'nan' || y.kind === 'nan') return propagateNaN(f, env, x, y);
  const sign = (x.sign ^ y.sign) as 0 | 1;
  if (x.kind === 'inf') return y.kind === 'inf' ? f.qnan : signedInf(f, sign);
  if (y.kind === 'inf') return signedZero(f, sign);
  if (y.kind === 'zero') return x.kind === 'zero' ? f.qnan : signedInf(f, sign);
  if (x.kind === 'zero') return signedZero(f, sign);
  const k = Math.max(0, f.mantBits + 4 + bitLength(y.mant) - bitLength(x.mant));
  const num = x.mant << BigInt(k);
  const q = num / y.mant;
  return roundToFormat(f, sign, q, x.exp - y.exp - k, q * y.mant !== num, env);
}

/** floor(sqrt(n)) for n ≥ 0. */
export function isqrt(n: bigint): bigint {
  if (n < 2n) return n;
  let x = 1n << BigInt((bitLength(n) >> 1) + 1);
  for (;;) {
    const y = (x + n / x) >> 1n;
    if (y >= x) return x;
    x = y;
  }
}

/** An even-exponent scaling of a positive finite value so that its integer square root has ≥ p + 3 bits. */
function sqrtScale(f: Format, u: Unpacked, extra: number): [bigint, number] {
  let m = u.mant, e = u.exp;
  if (e & 1) { m <<= 1n; e -= 1; }
  let k = Math.max(0, 2 * (f.mantBits + 4) + extra - bitLength(m));
  if (k & 1) k += 1;
  return [m << BigInt(k), e - k];
}

export function sqrtBits(f: Format, a: bigint, env: FloatEnv): bigint {
  const x = operand(f, a, env);
  if (x.kind === 'nan') return propagateNaN(f, env, x);
  if (x.kind === 'zero') return a & f.signBit ? f.signBit : 0n; // sqrt(-0) = -0
  if (x.sign) return f.qnan;
  if (x.kind === 'inf') return f.inf;
  const [m, e] = sqrtScale(f, x, 0);
  const r = isqrt(m);
  return roundToFormat(f, 0, r, e / 2, r * r !== m, env);
}

/** Correctly rounded 1/x (the library's v_rcp: hardware is only accurate to ~1 ulp). */
export function rcpBits(f: Format, a: bigint, env: FloatEnv): bigint {
  const one = BigInt(f.bias) << BigInt(f.mantBits);
  return divBits(f, one, a, env);
}

/** Correctly rounded 1/sqrt(x) (the library's v_rsq). */
export function rsqBits(f: Format, a: bigint, env: FloatEnv): bigint {
  const x = operand(f, a, env);
  if (x.kind === 'nan') return propagateNaN(f, env, x);
  if (x.kind === 'zero') return signedInf(f, x.sign);
  if (x.sign) return f.qnan;
  if (x.kind === 'inf') return 0n;
  let m = x.mant, e = x.exp;
  if (e & 1) { m <<= 1n; e -= 1; }
  // 1/sqrt(m 2^e) = 2^(-e/2) / sqrt(m); Q = floor(2^s / sqrt(m)) = isqrt(floor(2^(2s) / m)).
  const s = f.mantBits + 6 + ((bitLength(m) + 1) >> 1);
  const n = 1n << BigInt(2 * s);
  const Q = isqrt(n / m);
  return roundToFormat(f, 0, Q, -s - e / 2, Q * Q * m !== n, env);
}

// --- f32 fast paths -------------------------------------------------------------------------

const MIN_NORMAL_F32 = 2 ** -126;
const MAX_F32 = (2 - 2 ** -23) * 2 ** 127;

function flushIn32(bits: number, env: FloatEnv): number {
  return env.flushIn && (bits & 0x7f800000) === 0 ? (bits & 0x80000000) >>> 0 : bits;
}

/** Step the RNE result s (bits, normal, > min normal) by one ulp as the directed mode and d = sign(exact - s) ask. */
function stepF32(s: number, d: number, env: FloatEnv): number {
  if (d === 0 || env.round === 0) return s;
  const neg = s >= 0x80000000;
  switch (env.round) {
    case 1: return d > 0 ? (neg ? s - 1 : s + 1) : s;
    case 2: return d < 0 ? (neg ? s + 1 : s - 1) : s;
    case 3: return (neg ? d > 0 : d < 0) ? s - 1 : s;
  }
}

export function addF32(a: number, b: number, env: FloatEnv): number {
  a = flushIn32(a, env); b = flushIn32(b, env);
  const x = f32ToNumber(a), y = f32ToNumber(b);
  const t = x + y;
  const s = Math.fround(t);
  const m = Math.abs(s);
  if (m > MIN_NORMAL_F32 && m <= MAX_F32) {
    const sb = numberToF32(s);
    if (env.round === 0) return sb;
    // Fast2Sum on magnitude-ordered operands: x + y = t + err exactly (no f64 overflow here).
    const err = Math.abs(x) >= Math.abs(y) ? y - (t - x) : x - (t - y);
    const d = t > s ? 1 : t < s ? -1 : err > 0 ? 1 : err < 0 ? -1 : 0;
    return stepF32(sb, d, env);
  }
  if (m <= MIN_NORMAL_F32 && m === m && Number.isFinite(x) && Number.isFinite(y)) {
    // Both operands finite and the RNE result tiny: the sum is exact in f64 (2^-149 grid, < 2^-125).
    return t === 0 && s === 0 && !Object.is(t, -0)
      ? (env.round === 2 && (a ^ b) >>> 31 === 1 ? 0x80000000 : 0)
      : roundNumber(F32, t < 0 || Object.is(t, -0) ? 1 : 0, Math.abs(t), env);
  }
  return Number(addBits(F32, BigInt(a), BigInt(b), { ...env, flushIn: false }));
}

export function subF32(a: number, b: number, env: FloatEnv): number {
  const bn = (b & 0x7fffffff) > 0x7f800000 ? b : (b ^ 0x80000000) >>> 0;
  return addF32(a, bn, env);
}

export function mulF32(a: number, b: number, env: FloatEnv): number {
  a = flushIn32(a, env); b = flushIn32(b, env);
  const x = f32ToNumber(a), y = f32ToNumber(b);
  const p = x * y; // exact: 48-bit product, exponent within f64 range
  if (p !== p || !Number.isFinite(p)) return Number(mulBits(F32, BigInt(a), BigInt(b), { ...env, flushIn: false }));
  const s = Math.fround(p);
  const m = Math.abs(s);
  if (m > MIN_NORMAL_F32 && m <= MAX_F32) {
    const sb = numberToF32(s);
    return env.round === 0 ? sb : stepF32(sb, p > s ? 1 : p < s ? -1 : 0, env);
  }
  const sign = ((a ^ b) >>> 31) as 0 | 1;
  return roundNumber(F32, sign, Math.abs(p), env);
}

// --- public per-type API --------------------------------------------------------------------

type Bin = (f: Format, a: bigint, b: bigint, env: FloatEnv) => bigint;
type Un = (f: Format, a: bigint, env: FloatEnv) => bigint;
const bin16 = (op: Bin) => (a: number, b: number, env: FloatEnv): number => Number(op(F16, BigInt(a), BigInt(b), env));
const bin32 = (op: Bin) => (a: number, b: number, env: FloatEnv): number => Number(op(F32, BigInt(a), BigInt(b), env));
const bin64 = (op: Bin) => (a: bigint, b: bigint, env: FloatEnv): bigint => op(F64, a, b, env);
const un16 = (op: Un) => (a: number, env: FloatEnv): number => Number(op(F16, BigInt(a), env));
const un32 = (op: Un) => (a: number, env: FloatEnv): number => Number(op(F32, BigInt(a), env));
const un64 = (op: Un) => (a: bigint, env: FloatEnv): bigint => op(F64, a, env);

export const addF64 = bin64(addBits);
export const subF64 = bin64(subBits);
export const mulF64 = bin64(mulBits);
export const divF64 = bin64(divBits);
export const divF32 = bin32(divBits);
export const divF16 = bin16(divBits);
export const sqrtF16 = un16(sqrtBits);
export const sqrtF32 = un32(sqrtBits);
export const sqrtF64 = un64(sqrtBits);
export const rcpF16 = un16(rcpBits);
export const rcpF32 = un32(rcpBits);
export const rcpF64 = un64(rcpBits);
export const rsqF16 = un16(rsqBits);
export const rsqF32 = un32(rsqBits);
export const rsqF64 = un64(rsqBits);

export function fmaF16(a: number, b: number, c: number, env: FloatEnv): number {
  return Number(fmaBits(F16, BigInt(a), BigInt(b), BigInt(c), env));
}
export function fmaF32(a: number, b: number, c: number, env: FloatEnv): number {
  return Number(fmaBits(F32, BigInt(a), BigInt(b), BigInt(c), env));
}
export function fmaF64(a: bigint, b: bigint, c: bigint, env: FloatEnv): bigint {
  return fmaBits(F64, a, b, c, env);
}

// f16 add/mul: operands and exact results are doubles (sums < 2^17 with a 2^-24 grid; 22-bit products).

let F16_VALUES: Float64Array | undefined;
/** The value of f16 bits as a double (a 64 K-entry table built on first use). */
export function f16ToDouble(bits: number): number {
  let t = F16_VALUES;
  if (t === undefined) {
    t = new Float64Array(65536);
    for (let b = 0; b < 65536; b++) {
      const e = (b >>> 10) & 0x1f, m = b & 0x3ff;
      const v = e === 0 ? m * 2 ** -24 : e === 31 ? (m ? NaN : Infinity) : (m + 1024) * 2 ** (e - 25);
      t[b] = b & 0x8000 ? -v : v;
    }
    F16_VALUES = t;
  }
  return t[bits & 0xffff] as number;
}
function flushIn16(bits: number, env: FloatEnv): number {
  return env.flushIn && (bits & 0x7c00) === 0 ? bits & 0x8000 : bits;
}

export function addF16(a: number, b: number, env: FloatEnv): number {
  a = flushIn16(a, env); b = flushIn16(b, env);
  const x = f16ToDouble(a), y = f16ToDouble(b);
  if (!Number.isFinite(x) || !Number.isFinite(y)) return Number(addBits(F16, BigInt(a), BigInt(b), { ...env, flushIn: false }));
  const t = x + y;
  if (t === 0) {
    const sa = (a >>> 15) as 0 | 1, sb = (b >>> 15) as 0 | 1;
    return sa === sb ? a & 0x8000 : env.round === 2 ? 0x8000 : 0;
  }
  return roundNumber(F16, t < 0 ? 1 : 0, Math.abs(t), env);
}
export function subF16(a: number, b: number, env: FloatEnv): number {
  return addF16(a, (b & 0x7fff) > 0x7c00 ? b : b ^ 0x8000, env);
}
export function mulF16(a: number, b: number, env: FloatEnv): number {
  a = flushIn16(a, env); b = flushIn16(b, env);
  const x = f16ToDouble(a), y = f16ToDouble(b);
  if (!Number.isFinite(x) || !Number.isFinite(y)) return Number(mulBits(F16, BigInt(a), BigInt(b), { ...env, flushIn: false }));
  const p = x * y;
  const sign = ((a ^ b) >>> 15) as 0 | 1;
  return p === 0 ? sign << 15 : roundNumber(F16, sign, Math.abs(p), env);
}

// --- mixed-format and scaled fused multiply-add (v_fma_mix*, v_div_fmas) -------------------

/**
 * Fused a × b + c with the operands in format `src`, the exact result multiplied by 2^scale and
 * rounded once to format `dst` (v_fma_mixlo/hi_f16: src F32, dst F16; v_div_fmas: src = dst,
 * scale ±64 / ±128). env.flushIn applies to the src operands, round/flushOut to the dst result.
 * NaN operands follow the NaN rule in src and are then converted to dst (quieted when narrowing).
 */
export function fmaMixedBits(src: Format, dst: Format, a: bigint, b: bigint, c: bigint, scale: number, env: FloatEnv): bigint {
  const x = operand(src, a, env), y = operand(src, b, env), z = operand(src, c, env);
  if (x.kind === 'nan' || y.kind === 'nan' || z.kind === 'nan') {
    const n = unpack(src, propagateNaN(src, env, x, y, z));
    const d = dst.mantBits - src.mantBits;
    const payload = n.bits & src.fracMask;
    const p = d >= 0 ? payload << BigInt(d) : payload >> BigInt(-d);
    const r = (n.sign ? dst.signBit : 0n) | dst.expMask | p;
    return d < 0 ? quiet(dst, r) : r;
  }
  const sp = (x.sign ^ y.sign) as 0 | 1;
  if (x.kind === 'inf' || y.kind === 'inf') {
    if (x.kind === 'zero' || y.kind === 'zero') return dst.qnan;
    if (z.kind === 'inf' && z.sign !== sp) return dst.qnan;
    return signedInf(dst, sp);
  }
  if (z.kind === 'inf') return signedInf(dst, z.sign);
  const pm = x.kind === 'zero' || y.kind === 'zero' ? 0n : x.mant * y.mant;
  return roundSum(dst, sp, pm, x.exp + y.exp + scale, z.sign, z.mant, z.exp + scale, env);
}
