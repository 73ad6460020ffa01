// The rounding core: an exact value (sign, integer mantissa, binary exponent) to a format's
// bits under a rounding mode, with overflow per mode, subnormals and output flushing.

import type { Format } from './format.js';
import { signedInf, signedZero } from './format.js';
import { type FloatEnv, type RoundMode, TININESS } from './env.js';

/** Bit length of a positive bigint. */
export function bitLength(x: bigint): number {
  // toString(16) is linear and much faster than a shift loop for large values.
  const h = x.toString(16);
  const top = parseInt(h[0] as string, 16);
  return (h.length - 1) * 4 + (32 - Math.clz32(top));
}

/**
 * Result of a magnitude overflow (a finite exact value rounding beyond the largest finite one)
 * under `round` for sign `sign`: ±inf when rounding toward it, else ±max; with `f16Ovfl`
 * (env.f16Ovfl: MODE.FP16_OVFL under FP16_OVFL_RULE) an f16 result is ±max in every mode.
 */
export function overflowResult(f: Format, sign: 0 | 1, round: RoundMode, f16Ovfl = false): bigint {
  const toInf = !(f16Ovfl && f.type === 'f16') && (round === 0 || (round === 1 && sign === 0) || (round === 2 && sign === 1));
  return toInf ? signedInf(f, sign) : (sign ? f.signBit : 0n) | f.max;
}

/** Whether truncated magnitude `trunc` with remainder `rem` of `half * 2` is incremented. */
function roundsUp(round: RoundMode, sign: 0 | 1, trunc: bigint, rem: bigint, half: bigint): boolean {
  if (rem === 0n) return false;
  switch (round) {
    case 0: return rem > half || (rem === half && (trunc & 1n) === 1n);
    case 1: return sign === 0;
    case 2: return sign === 1;
    case 3: return false;
  }
}

/**
 * Round (-1)^sign × (mant + (sticky ? δ : 0)) × 2^exp, 0 < δ < 1, to format `f`.
 * With `sticky`, mant must have at least p + 1 significant bits (p = f.mantBits + 1) so that no
 * rounding boundary lies strictly between mant and mant + 1. A zero mantissa without sticky gives
 * ±0 with the given sign (callers choose the sign of exact zeros).
 * Only env.round, env.flushOut and env.tininess are used.
 */
export function roundToFormat(f: Format, sign: 0 | 1, mant: bigint, exp: number, sticky: boolean, env: FloatEnv): bigint {
  if (mant === 0n && !sticky) return signedZero(f, sign);
  if (sticky) { mant = (mant << 2n) | 1n; exp -= 2; }
  const L = bitLength(mant);
  const e = exp + L - 1; // floor(log2 |x|)
  const tiny = e < f.emin && env.flushOut && isTiny(f, sign, mant, exp, e, env);
  if (tiny) return signedZero(f, sign);
  const q = Math.max(e, f.emin) - f.mantBits; // exponent of the result's ulp
  const s = q - exp;
  let trunc: bigint;
  if (s <= 0) {
    trunc = mant << BigInt(-s);
  } else {
    const S = BigInt(s);
    trunc = mant >> S;
    const rem = mant & ((1n << S) - 1n);
    if (roundsUp(env.round, sign, trunc, rem, 1n << (S - 1n))) trunc += 1n;
  }
  return encode(f, sign, trunc, q, env);
}

/** Tininess of a value below 2^emin (e < emin) under env.tininess. */
function isTiny(f: Format, sign: 0 | 1, mant: bigint, exp: number, e: number, env: FloatEnv): boolean {
  if ((env.tininess ?? TININESS) === 'before') return true;
  if (e < f.emin - 1) return true; // even rounding up cannot reach 2^emin
  // e = emin - 1: round to p bits with an unbounded exponent; tiny unless it carries to 2^emin.
  const s = exp - (e - f.mantBits);
  if (s >= 0) return true; // exact at p bits, below 2^emin
  const S = BigInt(-s);
  const trunc = mant >> S;
  const rem = mant & ((1n << S) - 1n);
  const up = roundsUp(env.round, sign, trunc, rem, 1n << (S - 1n));
  return !(up && trunc + 1n === 1n << BigInt(f.mantBits + 1));
}

/** Encode magnitude trunc × 2^q (q ≥ emin - mantBits, trunc < 2^(p+1)) with overflow per mode. */
function encode(f: Format, sign: 0 | 1, trunc: bigint, q: number, env: FloatEnv): bigint {
  const hidden = 1n << BigInt(f.mantBits);
  if (trunc >= hidden << 1n) { trunc >>= 1n; q += 1; } // carry out of the top bit (exact: low bit 0)
  const sb = sign ? f.signBit : 0n;
  if (trunc < hidden) return sb | trunc; // subnormal or zero: q = emin - mantBits
  const biased = q + f.mantBits + f.bias;
  if (biased >= f.expMax) return overflowResult(f, sign, env.round, env.f16Ovfl);
  return sb | (BigInt(biased) << BigInt(f.mantBits)) | (trunc - hidden);
}

// Powers of two and exponents from the bits (exact on every engine: ECMAScript leaves 2 ** k and
// Math.log2 to the implementation's approximation).
const bitsView = new DataView(new ArrayBuffer(8));
/** 2^k for an integer k in [-1074, 1023], from its bits. */
function pow2Bits(k: number): number {
  if (k >= -1022) { bitsView.setUint32(0, ((k + 1023) << 20) >>> 0); bitsView.setUint32(4, 0); }
  else if (k >= -1042) { bitsView.setUint32(0, 1 << (k + 1042)); bitsView.setUint32(4, 0); }
  else { bitsView.setUint32(0, 0); bitsView.setUint32(4, (1 << (k + 1074)) >>> 0); }
  return bitsView.getFloat64(0);
}
const POW2: number[] = [];
for (let i = -1100; i <= 1100; i++) POW2.push(i < -1074 ? 0 : i > 1023 ? Infinity : pow2Bits(i));
/** 2^k for |k| ≤ 1100, exactly (0 or Infinity beyond the double range). */
export function pow2(k: number): number {
  return POW2[k + 1100] ?? (k < 0 ? 0 : Infinity);
}

/** floor(log2(x)) of a positive finite double, exactly (from its exponent field; subnormals scaled by 2^64 first). */
export function ilog2(x: number): number {
  bitsView.setFloat64(0, x);
  const field = (bitsView.getUint32(0) >>> 20) & 0x7ff;
  if (field !== 0) return field - 1023;
  bitsView.setFloat64(0, x * pow2(64));
  return ((bitsView.getUint32(0) >>> 20) & 0x7ff) - 1023 - 64;
}

function roundsUpN(round: RoundMode, sign: 0 | 1, trunc: number, rem: number): boolean {
  if (rem === 0) return false;
  switch (round) {
    case 0: return rem > 0.5 || (rem === 0.5 && trunc % 2 === 1);
    case 1: return sign === 0;
    case 2: return sign === 1;
    case 3: return false;
  }
}

/**
 * Round (-1)^sign × x to format f (f16 or f32; result as number bits), where x ≥ 0 is the exact
 * value as a finite double. Same rules as roundToFormat; a fast path for values a double holds.
 */
export function roundNumber(f: Format, sign: 0 | 1, x: number, env: FloatEnv): number {
  const sb = sign ? pow2(f.bits - 1) : 0;
  if (x === 0) return sb;
  const e = ilog2(x);
  if (e < f.emin && env.flushOut) {
    let tiny = true;
    if ((env.tininess ?? TININESS) !== 'before' && e === f.emin - 1) {
      const scaled = x * pow2(f.mantBits - e);
      const trunc = Math.floor(scaled);
      tiny = !(roundsUpN(env.round, sign, trunc, scaled - trunc) && trunc + 1 === pow2(f.mantBits + 1));
    }
    if (tiny) return sb;
  }
  let q = Math.max(e, f.emin) - f.mantBits;
  const scaled = x * pow2(-q);
  let trunc = Math.floor(scaled);
  if (roundsUpN(env.round, sign, trunc, scaled - trunc)) trunc += 1;
  const hidden = pow2(f.mantBits);
  if (trunc >= 2 * hidden) { trunc /= 2; q += 1; }
  if (trunc < hidden) return sb + trunc;
  const biased = q + f.mantBits + f.bias;
  if (biased >= f.expMax) return Number(overflowResult(f, sign, env.round, env.f16Ovfl));
  return sb + biased * hidden + (trunc - hidden);
}
