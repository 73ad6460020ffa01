// The model of the VALU transcendentals the hardware computes only approximately (v_exp, v_log,
// v_sin, v_cos in f32 and f16; RDNA2 ISA: "accurate to 1 ULP" or so). One documented model that
// every engine shares: the double-precision value of the function (Math.pow(2, x), Math.log2,
// Math.sin/Math.cos of 2π times the input reduced to (-0.5, 0.5] revolutions; V8's fdlibm-derived
// routines are deterministic across platforms), rounded to the result format in the MODE's
// direction with its output flushing. The special values follow the functions' IEEE limits:
// exp(-inf) = +0, exp(+inf) = +inf, log(±0) = -inf, log(x < 0) = NaN, log(+inf) = +inf,
// sin/cos(±inf) = NaN; NaN inputs propagate (quieted when MODE.IEEE = 1); NaNs made here are the
// canonical +qNaN. Inputs are flushed by the env (callers pass the always-flush env for the f32
// forms, as the table's 'mode:always-flush-f32' flag says).
import type { FloatEnv } from './env.js';
import { F16, F32, type Format, f32ToNumber, quiet, isNaNBits, isSubnormalBits } from './format.js';
import { overflowResult, roundNumber } from './round.js';

function toNumber(f: Format, bits: number): number {
  if (f === F32) return f32ToNumber(bits);
  // f16: exact through its fields.
  const sign = bits & 0x8000 ? -1 : 1;
  const e = (bits >>> 10) & 0x1f, m = bits & 0x3ff;
  if (e === 0x1f) return m ? NaN : sign * Infinity;
  return sign * (e === 0 ? m * 2 ** -24 : (1024 + m) * 2 ** (e - 25));
}

function fromNumber(f: Format, x: number, env: FloatEnv): number {
  if (Number.isNaN(x)) return Number(f.qnan);
  const sign: 0 | 1 = x < 0 || Object.is(x, -0) ? 1 : 0;
  const a = Math.abs(x);
  if (a === Infinity) return Number((sign ? f.signBit : 0n) | f.expMask);
  // roundNumber handles overflow by the mode; a double far beyond the format is clamped first.
  if (a > 2 ** 1000) return Number(overflowResult(f, sign, env.round));
  return roundNumber(f, sign, a, env);
}

/** The operand after input flushing, or the NaN result for a NaN operand. */
function prepare(f: Format, bits: number, env: FloatEnv): { x: number } | { nan: number } {
  const b = BigInt(bits);
  if (isNaNBits(f, b)) return { nan: Number(env.ieee ? quiet(f, b) : b) };
  if (env.flushIn && isSubnormalBits(f, b)) return { x: bits & Number(f.signBit) ? -0 : 0 };
  return { x: toNumber(f, bits) };
}

const lift = (f: Format, fn: (x: number) => number) => (bits: number, env: FloatEnv): number => {
  const p = prepare(f, bits, env);
  return 'nan' in p ? p.nan : fromNumber(f, fn(p.x), env);
};

const exp2 = (x: number) => (x === -Infinity ? 0 : 2 ** x);
const log2 = (x: number) => (x === 0 ? -Infinity : Math.log2(x));
/** Exact values at quarter revolutions (where 2π in doubles would leave residues such as 1e-16). */
const QUARTER_SIN = [0, 1, 0, -1] as const;
/** sin(2π x) with x reduced to [-0.5, 0.5) revolutions first (exact in doubles). */
const sinRev = (x: number) => {
  if (!Number.isFinite(x)) return NaN;
  const r = x - Math.round(x);
  if (Number.isInteger(4 * r)) { const q = ((4 * r) % 4 + 4) % 4; const v = QUARTER_SIN[q] ?? 0; return v === 0 ? (x < 0 || Object.is(x, -0) ? -0 : 0) * (q === 2 ? -1 : 1) : v; }
  return Math.sin(2 * Math.PI * r);
};
const cosRev = (x: number) => {
  if (!Number.isFinite(x)) return NaN;
  const r = x - Math.round(x);
  if (Number.isInteger(4 * r)) return QUARTER_SIN[(((4 * r) % 4 + 4) % 4 + 1) % 4] ?? 0;
  return Math.cos(2 * Math.PI * r);
};

export const expF32 = lift(F32, exp2);
export const logF32 = lift(F32, log2);
export const sinF32 = lift(F32, sinRev);
export const cosF32 = lift(F32, cosRev);
export const expF16 = lift(F16, exp2);
export const logF16 = lift(F16, log2);
export const sinF16 = lift(F16, sinRev);
export const cosF16 = lift(F16, cosRev);
