// The float environment an operation runs under, derived from the MODE register.

import type { FloatType } from './format.js';

/** MODE.FP_ROUND encoding: 0 nearest-even, 1 toward +inf, 2 toward -inf, 3 toward zero. */
export type RoundMode = 0 | 1 | 2 | 3;
export const RNE: RoundMode = 0;
export const RTP: RoundMode = 1;
export const RTN: RoundMode = 2;
export const RTZ: RoundMode = 3;

/**
 * When an output counts as tiny for output flushing: 'after' = the exact result rounded to the
 * format's precision with an unbounded exponent is below the smallest normal (x86 SSE's rule);
 * 'before' = the exact result is below the smallest normal. AMD's rule is not measured.
 */
export type Tininess = 'before' | 'after';

export interface FloatEnv {
  readonly round: RoundMode;
  /** Subnormal inputs become ±0 (sign kept) before the operation. */
  readonly flushIn: boolean;
  /** Tiny results become ±0 (sign kept). */
  readonly flushOut: boolean;
  /** MODE.IEEE (bit 9): sNaN quieting and min/max NaN rules. */
  readonly ieee: boolean;
  /** MODE.DX10_CLAMP (bit 8): clamp maps NaN to 0. */
  readonly dx10Clamp: boolean;
  /** Default 'after'. */
  readonly tininess?: Tininess;
}

/** MODE bit positions of FP_ROUND and FP_DENORM for a float type (f16 and f64 share one field). */
export function modeFields(type: FloatType): { round: number; denorm: number } {
  return type === 'f32' ? { round: 0, denorm: 4 } : { round: 2, denorm: 6 };
}

/**
 * The environment of a `type` operation under MODE register value `mode`. FP_DENORM (2 bits):
 * 0 flush inputs and outputs, 1 keep inputs / flush outputs, 2 flush inputs / keep outputs,
 * 3 keep both (LLVM SIDefines.h FP_DENORM_FLUSH_IN_FLUSH_OUT=0, FLUSH_OUT=1, FLUSH_IN=2,
 * FLUSH_NONE=3): bit 0 keeps inputs, bit 1 keeps outputs.
 */
export function envFor(mode: number, type: FloatType, tininess: Tininess = 'after'): FloatEnv {
  const f = modeFields(type);
  const denorm = (mode >>> f.denorm) & 3;
  return {
    round: ((mode >>> f.round) & 3) as RoundMode,
    flushIn: (denorm & 1) === 0,
    flushOut: (denorm & 2) === 0,
    dx10Clamp: ((mode >>> 8) & 1) === 1,
    ieee: ((mode >>> 9) & 1) === 1,
    tininess,
  };
}

/**
 * The environment of a conversion from `src` to `dst`: input flushing follows the source type's
 * FP_DENORM field, rounding and output flushing the destination type's.
 */
export function convertEnvFor(mode: number, src: FloatType, dst: FloatType, tininess: Tininess = 'after'): FloatEnv {
  const d = envFor(mode, dst, tininess);
  return { ...d, flushIn: envFor(mode, src).flushIn };
}

/** RNE, denormals kept, IEEE on, DX10 clamp on: IEEE-754 default arithmetic. */
export const IEEE_ENV: FloatEnv = { round: 0, flushIn: false, flushOut: false, ieee: true, dx10Clamp: true };
