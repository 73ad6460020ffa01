// Conversions between float formats and integers, rounding to integral values, ldexp, frexp, fract.

import type { Format } from './format.js';
import { F16, F32, F64, quiet, signedZero, unpack } from './format.js';
import { type FloatEnv, FLOAT_TO_INT_ROUNDING } from './env.js';
import { flushInput, propagateNaN, subBits } from './arith.js';
import { minBits } from './compare.js';
import { bitLength, roundNumber, roundToFormat } from './round.js';

/**
 * Float → float. env.flushIn applies to the source, env.round/flushOut to the destination
 * (convertEnvFor builds that env from MODE). NaN: sign and the top payload bits are kept
 * (shifted); narrowing always quiets (LLVM measured v_cvt_f16_f32 quieting at IEEE=0 too),
 * widening quiets when env.ieee.
 */
export function convertBits(src: Format, dst: Format, bits: bigint, env: FloatEnv): bigint {
  const u = flushInput(src, unpack(src, bits), env);
  const sb = u.sign ? dst.signBit : 0n;
  switch (u.kind) {
    case 'nan': {
      const payload = bits & src.fracMask;
      const d = dst.mantBits - src.mantBits;
      const p = d >= 0 ? payload << BigInt(d) : payload >> BigInt(-d);
      const r = sb | dst.expMask | p;
      return d < 0 || env.ieee ? quiet(dst, r) : r;
    }
    case 'inf': return sb | dst.inf;
    case 'zero': return sb;
    case 'finite': return roundToFormat(dst, u.sign, u.mant, u.exp, false, env);
  }
}

export const cvtF32F16 = (a: number, env: FloatEnv): number => Number(convertBits(F16, F32, BigInt(a), env));
export const cvtF16F32 = (a: number, env: FloatEnv): number => Number(convertBits(F32, F16, BigInt(a), env));
export const cvtF64F32 = (a: number, env: FloatEnv): bigint => convertBits(F32, F64, BigInt(a), env);
export const cvtF32F64 = (a: bigint, env: FloatEnv): number => Number(convertBits(F64, F32, a, env));
export const cvtF64F16 = (a: number, env: FloatEnv): bigint => convertBits(F16, F64, BigInt(a), env);
export const cvtF16F64 = (a: bigint, env: FloatEnv): number => Number(convertBits(F64, F16, a, env));

/** v_cvt_pkrtz_f16_f32: two f32 → packed f16 (a in bits 15:0, b in 31:16), always toward zero. */
export function cvtPkrtzF16F32(a: number, b: number, env: FloatEnv): number {
  const e: FloatEnv = { ...env, round: 3 };
  return ((cvtF16F32(b, e) << 16) | cvtF16F32(a, e)) >>> 0;
}

/** How a float → integer conversion picks the integer: v_cvt_{i32,u32}: trunc; v_cvt_flr_i32: floor; v_cvt_rpi_i32: floor(x + 0.5). */
export type IntRounding = 'trunc' | 'floor' | 'rpi';

/** The integer rounding of a 'trunc' conversion under env.floatToInt 'mode': FP_ROUND 0 nearest even, 1 up, 2 down, 3 toward zero. */
const BY_MODE = ['rne', 'ceil', 'floor', 'trunc'] as const;

/**
 * Float → i32 (signed) or u32: NaN → 0, out of range saturates. v_cvt_{i32,u32} ('trunc')
 * truncate under env.floatToInt 'truncate' (FLOAT_TO_INT_ROUNDING, env.ts) and round by
 * env.round under 'mode'. Result as a JS integer.
 */
export function toIntBits(f: Format, bits: bigint, signed: boolean, how: IntRounding, env: FloatEnv): number {
  const r: IntRounding | 'rne' | 'ceil' = how === 'trunc' && (env.floatToInt ?? FLOAT_TO_INT_ROUNDING) === 'mode' ? BY_MODE[env.round] : how;
  const u = flushInput(f, unpack(f, bits), env);
  const lo = signed ? -(2 ** 31) : 0, hi = signed ? 2 ** 31 - 1 : 2 ** 32 - 1;
  if (u.kind === 'nan' || u.kind === 'zero') return 0;
  if (u.kind === 'inf') return u.sign ? lo : hi;
  // floor((±m 2^e) [+ 1/2]) via integers: scale by 2 so that +1/2 is an integer.
  let v: bigint;
  const m = u.sign ? -u.mant : u.mant;
  if (u.exp >= 0) {
    if (u.exp > 40) return u.sign ? lo : hi;
    v = m << BigInt(u.exp);
  } else {
    const k = BigInt(-u.exp);
    if (r === 'trunc') v = u.sign ? -((-m) >> k) : m >> k;
    else if (r === 'floor') v = m >> k; // arithmetic shift = floor
    else if (r === 'ceil') v = -((-m) >> k);
    else if (r === 'rne') {
      v = m >> k;
      const rem = m - (v << k), half = 1n << (k - 1n);
      if (rem > half || (rem === half && (v & 1n) === 1n)) v += 1n;
    } else v = ((m << 1n) + (1n << k)) >> (k + 1n);
  }
  return v < BigInt(lo) ? lo : v > BigInt(hi) ? hi : Number(v);
}
export const cvtI32F32 = (a: number, env: FloatEnv): number => toIntBits(F32, BigInt(a), true, 'trunc', env);
export const cvtU32F32 = (a: number, env: FloatEnv): number => toIntBits(F32, BigInt(a), false, 'trunc', env);
export const cvtI32F64 = (a: bigint, env: FloatEnv): number => toIntBits(F64, a, true, 'trunc', env);
export const cvtU32F64 = (a: bigint, env: FloatEnv): number => toIntBits(F64, a, false, 'trunc', env);
export const cvtFlrI32F32 = (a: number, env: FloatEnv): number => toIntBits(F32, BigInt(a), true, 'floor', env);
export const cvtRpiI32F32 = (a: number, env: FloatEnv): number => toIntBits(F32, BigInt(a), true, 'rpi', env);

/** Integer (any safe JS integer) → float, rounded by env.round (flushOut cannot matter). */
export function fromIntBits(f: Format, v: number, env: FloatEnv): bigint {
  if (v === 0) return 0n;
  const sign: 0 | 1 = v < 0 ? 1 : 0;
  if (f.bits <= 32) return BigInt(roundNumber(f, sign, Math.abs(v), env));
  return roundToFormat(f, sign, BigInt(Math.abs(v)), 0, false, env);
}
/** i32 (bits interpreted signed) → f32. */
export const cvtF32I32 = (i: number, env: FloatEnv): number => Number(fromIntBits(F32, i | 0, env));
export const cvtF32U32 = (u: number, env: FloatEnv): number => Number(fromIntBits(F32, u >>> 0, env));
export const cvtF64I32 = (i: number, env: FloatEnv): bigint => fromIntBits(F64, i | 0, env);
export const cvtF64U32 = (u: number, env: FloatEnv): bigint => fromIntBits(F64, u >>> 0, env);

/** Which integral rounding: v_rndne (nearest even), v_floor, v_ceil, v_trunc. */
export type Integral = 'rndne' | 'floor' | 'ceil' | 'trunc';

/** Round to an integral value in the same format; a zero result keeps the input's sign. */
export function roundIntegralBits(f: Format, bits: bigint, how: Integral, env: FloatEnv): bigint {
  const u = flushInput(f, unpack(f, bits), env);
  if (u.kind === 'nan') return propagateNaN(f, env, u);
  if (u.kind !== 'finite' || u.exp >= 0) return u.bits;
  const k = BigInt(-u.exp);
  let t = u.mant >> k;
  const rem = u.mant & ((1n << k) - 1n);
  if (rem !== 0n) {
    const half = 1n << (k - 1n);
    const up = how === 'rndne' ? rem > half || (rem === half && (t & 1n) === 1n)
      : how === 'floor' ? u.sign === 1 : how === 'ceil' ? u.sign === 0 : false;
    if (up) t += 1n;
  }
  return t === 0n ? signedZero(f, u.sign) : roundToFormat(f, u.sign, t, 0, false, env);
}

/**
 * v_fract: x - floor(x), rounded by env, then limited to the largest value below 1 (the ISA's
 * min(…, 0x3f7fffff) for f32). ±0 keeps its sign, other integers give +0, ±inf gives the
 * canonical NaN, a NaN follows the NaN rule.
 */
export function fractBits(f: Format, bits: bigint, env: FloatEnv): bigint {
  const u = flushInput(f, unpack(f, bits), env);
  if (u.kind === 'nan') return propagateNaN(f, env, u);
  if (u.kind === 'inf') return f.qnan;
  if (u.kind === 'zero') return u.bits;
  const fl = roundIntegralBits(f, u.bits, 'floor', env);
  const d = subBits(f, u.bits, fl, { ...env, flushIn: false });
  const belowOne = (BigInt(f.bias) << BigInt(f.mantBits)) - 1n;
  return (d & f.signBit) !== 0n ? 0n : minBits(f, d, belowOne, { ...env, flushIn: false, flushOut: false });
}

/** v_ldexp: x × 2^n, rounded by env (only inexact for subnormal results). */
export function ldexpBits(f: Format, bits: bigint, n: number, env: FloatEnv): bigint {
  const u = flushInput(f, unpack(f, bits), env);
  if (u.kind === 'nan') return propagateNaN(f, env, u);
  if (u.kind !== 'finite') return u.bits;
  const k = Math.max(-100000, Math.min(100000, n | 0));
  return roundToFormat(f, u.sign, u.mant, u.exp + k, false, env);
}

/** v_frexp_mant: the significand in [0.5, 1) with the sign; ±0 → ±0; inf and NaN: the input (NaN by the NaN rule). */
export function frexpMantBits(f: Format, bits: bigint, env: FloatEnv): bigint {
  const u = flushInput(f, unpack(f, bits), env);
  if (u.kind === 'nan') return propagateNaN(f, env, u);
  if (u.kind !== 'finite') return u.bits;
  return roundToFormat(f, u.sign, u.mant, -bitLength(u.mant), false, { ...env, flushOut: false });
}

/** v_frexp_exp: e with x = m × 2^e, m in [0.5, 1); 0 for ±0, inf and NaN. */
export function frexpExpBits(f: Format, bits: bigint, env: FloatEnv): number {
  const u = flushInput(f, unpack(f, bits), env);
  return u.kind === 'finite' ? u.exp + bitLength(u.mant) : 0;
}

type U = (f: Format, a: bigint, env: FloatEnv) => bigint;
const w16 = (op: U) => (a: number, env: FloatEnv): number => Number(op(F16, BigInt(a), env));
const w32 = (op: U) => (a: number, env: FloatEnv): number => Number(op(F32, BigInt(a), env));
const w64 = (op: U) => (a: bigint, env: FloatEnv): bigint => op(F64, a, env);
const integral = (how: Integral): U => (f, a, env) => roundIntegralBits(f, a, how, env);

export const rndneF16 = w16(integral('rndne')), rndneF32 = w32(integral('rndne')), rndneF64 = w64(integral('rndne'));
export const floorF16 = w16(integral('floor')), floorF32 = w32(integral('floor')), floorF64 = w64(integral('floor'));
export const ceilF16 = w16(integral('ceil')), ceilF32 = w32(integral('ceil')), ceilF64 = w64(integral('ceil'));
export const truncF16 = w16(integral('trunc')), truncF32 = w32(integral('trunc')), truncF64 = w64(integral('trunc'));
export const fractF16 = w16(fractBits), fractF32 = w32(fractBits), fractF64 = w64(fractBits);
export const frexpMantF16 = w16(frexpMantBits), frexpMantF32 = w32(frexpMantBits), frexpMantF64 = w64(frexpMantBits);
export const frexpExpF16 = (a: number, env: FloatEnv): number => frexpExpBits(F16, BigInt(a), env);
export const frexpExpF32 = (a: number, env: FloatEnv): number => frexpExpBits(F32, BigInt(a), env);
export const frexpExpF64 = (a: bigint, env: FloatEnv): number => frexpExpBits(F64, a, env);
export const ldexpF16 = (a: number, n: number, env: FloatEnv): number => Number(ldexpBits(F16, BigInt(a), n, env));
export const ldexpF32 = (a: number, n: number, env: FloatEnv): number => Number(ldexpBits(F32, BigInt(a), n, env));
export const ldexpF64 = (a: bigint, n: number, env: FloatEnv): bigint => ldexpBits(F64, a, n, env);
