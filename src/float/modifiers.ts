// VOP3 output modifiers: omod (×2, ×4, ×0.5) then clamp.

import type { Format } from './format.js';
import { F16, F32, F64, unpack } from './format.js';
import type { FloatEnv } from './env.js';
import { propagateNaN } from './arith.js';
import { roundToFormat } from './round.js';

/** VOP3 OMOD field: 0 none, 1 ×2, 2 ×4, 3 ×0.5. */
export type Omod = 0 | 1 | 2 | 3;

/**
 * Apply omod then clamp to a result. omod is ignored when env.ieee (LLVM SIFoldOperands: "omod
 * is ignored by hardware if IEEE bit is enabled"); otherwise it scales by 2^k, rounded by env
 * (inexact only for subnormal results; output flush applies). clamp limits to [0, 1]: NaN → +0
 * when env.dx10Clamp (NaN kept otherwise), -0 → +0.
 */
export function outputModifiersBits(f: Format, bits: bigint, omod: Omod, clamp: boolean, env: FloatEnv): bigint {
  let r = bits;
  if (omod !== 0 && !env.ieee) {
    const u = unpack(f, r);
    if (u.kind === 'finite') r = roundToFormat(f, u.sign, u.mant, u.exp + (omod === 1 ? 1 : omod === 2 ? 2 : -1), false, env);
    else if (u.kind === 'nan') r = propagateNaN(f, env, u);
  }
  if (!clamp) return r;
  const u = unpack(f, r);
  if (u.kind === 'nan') return env.dx10Clamp ? 0n : r;
  if (u.sign) return 0n;
  const one = BigInt(f.bias) << BigInt(f.mantBits);
  return r > one ? one : r;
}

export const outputModifiersF16 = (a: number, omod: Omod, clamp: boolean, env: FloatEnv): number => Number(outputModifiersBits(F16, BigInt(a), omod, clamp, env));
export const outputModifiersF32 = (a: number, omod: Omod, clamp: boolean, env: FloatEnv): number => Number(outputModifiersBits(F32, BigInt(a), omod, clamp, env));
export const outputModifiersF64 = (a: bigint, omod: Omod, clamp: boolean, env: FloatEnv): bigint => outputModifiersBits(F64, a, omod, clamp, env);
