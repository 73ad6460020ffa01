// Binary float formats (f16, f32, f64) and their bit layouts.
//
// Bit representation used by the whole library: f16 and f32 values are `number`s holding the
// unsigned bit pattern (0 ≤ bits < 2^16 or 2^32); f64 values are `bigint`s holding the unsigned
// 64-bit pattern. Internally every format is also handled as bigint bits by the generic
// (BigInt) paths; f32 has number-only fast paths.

import type { FloatType } from '../isa/types.js';

export type { FloatType };

export interface Format {
  readonly type: FloatType;
  readonly bits: number;
  /** Fraction (stored mantissa) bits; precision p = mantBits + 1. */
  readonly mantBits: number;
  readonly expBits: number;
  readonly bias: number;
  /** Exponent of the smallest normal: 1 - bias. */
  readonly emin: number;
  /** Biased exponent of inf/NaN. */
  readonly expMax: number;
  readonly signBit: bigint;
  readonly expMask: bigint;
  readonly fracMask: bigint;
  readonly quietBit: bigint;
  /** The canonical quiet NaN (positive, only the quiet bit set). */
  readonly qnan: bigint;
  readonly inf: bigint;
  /** Largest finite magnitude. */
  readonly max: bigint;
}

function makeFormat(type: FloatType, bits: number, expBits: number): Format {
  const mantBits = bits - 1 - expBits;
  const bias = (1 << (expBits - 1)) - 1;
  const expMax = (1 << expBits) - 1;
  const fracMask = (1n << BigInt(mantBits)) - 1n;
  const expMask = BigInt(expMax) << BigInt(mantBits);
  const quietBit = 1n << BigInt(mantBits - 1);
  return {
    type, bits, mantBits, expBits, bias, emin: 1 - bias, expMax,
    signBit: 1n << BigInt(bits - 1), expMask, fracMask, quietBit,
    qnan: expMask | quietBit, inf: expMask, max: expMask - 1n,
  };
}

export const F16: Format = makeFormat('f16', 16, 5);
export const F32: Format = makeFormat('f32', 32, 8);
export const F64: Format = makeFormat('f64', 64, 11);

export function formatOf(type: FloatType): Format {
  return type === 'f16' ? F16 : type === 'f32' ? F32 : F64;
}

/** Value kinds after unpacking. */
export type Kind = 'zero' | 'finite' | 'inf' | 'nan';

/** An unpacked float: value = (-1)^sign × mant × 2^exp for 'finite' (mant > 0). */
export interface Unpacked {
  kind: Kind;
  sign: 0 | 1;
  mant: bigint;
  exp: number;
  /** The original bits (for NaN propagation). */
  bits: bigint;
}

export function unpack(f: Format, bits: bigint): Unpacked {
  const sign: 0 | 1 = (bits & f.signBit) !== 0n ? 1 : 0;
  const e = Number((bits & f.expMask) >> BigInt(f.mantBits));
  const frac = bits & f.fracMask;
  if (e === f.expMax) return { kind: frac === 0n ? 'inf' : 'nan', sign, mant: 0n, exp: 0, bits };
  if (e === 0) {
    if (frac === 0n) return { kind: 'zero', sign, mant: 0n, exp: 0, bits };
    return { kind: 'finite', sign, mant: frac, exp: f.emin - f.mantBits, bits };
  }
  return { kind: 'finite', sign, mant: frac | (1n << BigInt(f.mantBits)), exp: e - f.bias - f.mantBits, bits };
}

export function isNaNBits(f: Format, bits: bigint): boolean {
  return (bits & f.expMask) === f.expMask && (bits & f.fracMask) !== 0n;
}
export function isSubnormalBits(f: Format, bits: bigint): boolean {
  return (bits & f.expMask) === 0n && (bits & f.fracMask) !== 0n;
}
export function signedZero(f: Format, sign: 0 | 1): bigint {
  return sign ? f.signBit : 0n;
}
export function signedInf(f: Format, sign: 0 | 1): bigint {
  return sign ? f.signBit | f.inf : f.inf;
}
/** The sNaN → qNaN rule: set the quiet bit, keep sign and payload. */
export function quiet(f: Format, bits: bigint): bigint {
  return bits | f.quietBit;
}

// --- host views -----------------------------------------------------------------------------

const buf = new ArrayBuffer(8);
const f32v = new Float32Array(buf);
const u32v = new Uint32Array(buf);
const f64v = new Float64Array(buf);
const u64v = new BigUint64Array(buf);

/** f32 bits → the JS number it denotes (NaN payloads are lost). */
export function f32ToNumber(bits: number): number {
  u32v[0] = bits;
  return f32v[0] as number;
}
/** A JS number rounded to f32 by the host (RNE) → bits. */
export function numberToF32(x: number): number {
  f32v[0] = x;
  return u32v[0] as number;
}
export function f64ToNumber(bits: bigint): number {
  u64v[0] = bits;
  return f64v[0] as number;
}
export function numberToF64(x: number): bigint {
  f64v[0] = x;
  return u64v[0] as bigint;
}
/** High and low 32-bit words of a double (little-endian host). */
export function doubleWords(x: number): [hi: number, lo: number] {
  f64v[0] = x;
  return [u32v[1] as number, u32v[0] as number];
}
