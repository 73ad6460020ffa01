// min/max/med3, the 16 VOPC compare predicates, and v_cmp_class masks.

import type { Format, Unpacked } from './format.js';
import { F16, F32, F64, isSubnormalBits, quiet, unpack } from './format.js';
import type { FloatEnv } from './env.js';
import { flushInput } from './arith.js';

function isSignaling(f: Format, u: Unpacked): boolean {
  return u.kind === 'nan' && (u.bits & f.quietBit) === 0n;
}

/** Total order key for non-NaN values with -0 < +0 (the min/max order). */
function orderKey(f: Format, u: Unpacked): bigint {
  const mag = u.bits & ~f.signBit;
  return u.sign ? -mag - 1n : mag;
}

/** Output flush of a value passed through unrounded (min/max/med3 results). */
function flushOutBits(f: Format, bits: bigint, env: FloatEnv): bigint {
  return env.flushOut && isSubnormalBits(f, bits) ? bits & f.signBit : bits;
}

/**
 * min (which = -1) or max (which = 1) with the NaN rules:
 * IEEE mode on: an sNaN operand gives that operand quieted (the first sNaN); otherwise a qNaN
 * operand is treated as missing (the other operand is returned).
 * IEEE mode off: a NaN operand (signaling or quiet) is treated as missing, no quieting; two NaNs
 * give src1 (the ISA pseudocode returns src1 when src0 is NaN).
 * -0 is less than +0. Inputs follow env.flushIn; a subnormal result follows env.flushOut.
 */
export function minMaxBits(f: Format, a: bigint, b: bigint, which: -1 | 1, env: FloatEnv): bigint {
  const x = flushInput(f, unpack(f, a), env), y = flushInput(f, unpack(f, b), env);
  if (x.kind === 'nan' || y.kind === 'nan') {
    if (env.ieee) {
      if (isSignaling(f, x)) return quiet(f, x.bits);
      if (isSignaling(f, y)) return quiet(f, y.bits);
    }
    return x.kind === 'nan' ? flushOutBits(f, y.bits, env) : flushOutBits(f, x.bits, env);
  }
  const kx = orderKey(f, x), ky = orderKey(f, y);
  const r = which < 0 ? (kx <= ky ? x : y) : (kx >= ky ? x : y);
  return flushOutBits(f, r.bits, env);
}

export function minBits(f: Format, a: bigint, b: bigint, env: FloatEnv): bigint {
  return minMaxBits(f, a, b, -1, env);
}
export function maxBits(f: Format, a: bigint, b: bigint, env: FloatEnv): bigint {
  return minMaxBits(f, a, b, 1, env);
}

/**
 * v_med3: with any NaN operand, min3 = min(min(a, b), c) under the min rules (ISA pseudocode);
 * otherwise the median in the -0 < +0 order.
 */
export function med3Bits(f: Format, a: bigint, b: bigint, c: bigint, env: FloatEnv): bigint {
  const x = flushInput(f, unpack(f, a), env), y = flushInput(f, unpack(f, b), env), z = flushInput(f, unpack(f, c), env);
  if (x.kind === 'nan' || y.kind === 'nan' || z.kind === 'nan') return minBits(f, minBits(f, a, b, env), c, env);
  const ks = [[orderKey(f, x), x], [orderKey(f, y), y], [orderKey(f, z), z]] as const;
  const sorted = [...ks].sort((p, q) => (p[0] < q[0] ? -1 : p[0] > q[0] ? 1 : 0));
  return flushOutBits(f, (sorted[1] as (typeof ks)[number])[1].bits, env);
}

/**
 * The 16 VOPC float predicates, by their opcode order (v_cmp_{f,lt,eq,le,gt,lg,ge,o,u,nge,nlg,
 * ngt,nle,neq,nlt,tru}_*): the predicate number is a mask of the relations it accepts,
 * bit 0 less, bit 1 equal, bit 2 greater, bit 3 unordered.
 */
export const CMP_PREDICATES = ['f', 'lt', 'eq', 'le', 'gt', 'lg', 'ge', 'o', 'u', 'nge', 'nlg', 'ngt', 'nle', 'neq', 'nlt', 'tru'] as const;
export type CmpPredicate = (typeof CMP_PREDICATES)[number];

/** Relation of a to b: 0 less, 1 equal, 2 greater, 3 unordered (IEEE: -0 = +0). Inputs follow env.flushIn. */
export function relationBits(f: Format, a: bigint, b: bigint, env: FloatEnv): 0 | 1 | 2 | 3 {
  const x = flushInput(f, unpack(f, a), env), y = flushInput(f, unpack(f, b), env);
  if (x.kind === 'nan' || y.kind === 'nan') return 3;
  const key = (u: Unpacked): bigint => {
    const mag = u.bits & ~f.signBit;
    return u.sign ? -mag : mag;
  };
  const kx = key(x), ky = key(y);
  return kx < ky ? 0 : kx === ky ? 1 : 2;
}

export function cmpBits(f: Format, pred: number | CmpPredicate, a: bigint, b: bigint, env: FloatEnv): boolean {
  const p = typeof pred === 'number' ? pred & 15 : CMP_PREDICATES.indexOf(pred);
  return ((p >> relationBits(f, a, b, env)) & 1) === 1;
}

/**
 * v_cmp_class mask bit of a value: 0 sNaN, 1 qNaN, 2 -inf, 3 -normal, 4 -subnormal, 5 -0, 6 +0,
 * 7 +subnormal, 8 +normal, 9 +inf. The class is read from the bits: no input flush.
 */
export function classIndex(f: Format, bits: bigint): number {
  const u = unpack(f, bits);
  switch (u.kind) {
    case 'nan': return (bits & f.quietBit) === 0n ? 0 : 1;
    case 'inf': return u.sign ? 2 : 9;
    case 'zero': return u.sign ? 5 : 6;
    case 'finite': {
      const sub = isSubnormalBits(f, bits);
      return u.sign ? (sub ? 4 : 3) : (sub ? 7 : 8);
    }
  }
}
export function cmpClassBits(f: Format, bits: bigint, mask: number): boolean {
  return ((mask >>> classIndex(f, bits)) & 1) === 1;
}

// --- per-type wrappers ----------------------------------------------------------------------

export const minF16 = (a: number, b: number, env: FloatEnv): number => Number(minBits(F16, BigInt(a), BigInt(b), env));
export const maxF16 = (a: number, b: number, env: FloatEnv): number => Number(maxBits(F16, BigInt(a), BigInt(b), env));
export const minF32 = (a: number, b: number, env: FloatEnv): number => Number(minBits(F32, BigInt(a), BigInt(b), env));
export const maxF32 = (a: number, b: number, env: FloatEnv): number => Number(maxBits(F32, BigInt(a), BigInt(b), env));
export const minF64 = (a: bigint, b: bigint, env: FloatEnv): bigint => minBits(F64, a, b, env);
export const maxF64 = (a: bigint, b: bigint, env: FloatEnv): bigint => maxBits(F64, a, b, env);
export const med3F16 = (a: number, b: number, c: number, env: FloatEnv): number => Number(med3Bits(F16, BigInt(a), BigInt(b), BigInt(c), env));
export const med3F32 = (a: number, b: number, c: number, env: FloatEnv): number => Number(med3Bits(F32, BigInt(a), BigInt(b), BigInt(c), env));
export const cmpF16 = (p: number | CmpPredicate, a: number, b: number, env: FloatEnv): boolean => cmpBits(F16, p, BigInt(a), BigInt(b), env);
export const cmpF32 = (p: number | CmpPredicate, a: number, b: number, env: FloatEnv): boolean => cmpBits(F32, p, BigInt(a), BigInt(b), env);
export const cmpF64 = (p: number | CmpPredicate, a: bigint, b: bigint, env: FloatEnv): boolean => cmpBits(F64, p, a, b, env);
export const cmpClassF16 = (a: number, mask: number): boolean => cmpClassBits(F16, BigInt(a), mask);
export const cmpClassF32 = (a: number, mask: number): boolean => cmpClassBits(F32, BigInt(a), mask);
export const cmpClassF64 = (a: bigint, mask: number): boolean => cmpClassBits(F64, a, mask);
