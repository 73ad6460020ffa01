// Writes src/float/transcendental-tables.ts: the f64 constants of the transcendental model
// (src/float/transcendental.ts), each the f64 nearest (ties to even) to its exact value.
// `node --import tsx tools/gen-transcendental.ts`.
//
// Arithmetic: BigInt only. Rationals are exact; ln 2, π and ln of a rational come from their
// series in fixed point with FRAC fraction bits (truncation error below 2^-(FRAC - 16), far below
// the 2^-53 relative rounding of any constant here, every one of which is above 2^-60 in
// magnitude but the log2 table's low parts, above 2^-70). tests/float/transcendental.test.ts
// recomputes every constant independently with mpmath and tests/float/transcendental-tables.test.ts
// checks that the committed file is this program's output.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const FRAC = 400n;
const ONE = 1n << FRAC;

/** atanh(p/q) · 2^FRAC, |p/q| < 1, by its series Σ (p/q)^(2k+1) / (2k+1). */
function atanh(p: bigint, q: bigint): bigint {
  let term = (ONE * p) / q; // (p/q)^(2k+1) in fixed point
  let sum = 0n;
  for (let k = 0n; term !== 0n; k++) {
    sum += term / (2n * k + 1n);
    term = (term * p * p) / (q * q);
  }
  return sum;
}
/** atan(1/q) · 2^FRAC by its series Σ (-1)^k / ((2k+1) q^(2k+1)). */
function atanInv(q: bigint): bigint {
  let term = ONE / q;
  let sum = 0n;
  for (let k = 0n; term !== 0n; k++) {
    sum += (k % 2n === 0n ? 1n : -1n) * (term / (2n * k + 1n));
    term /= q * q;
  }
  return sum;
}
export const LN2 = 2n * atanh(1n, 3n);
/** Machin's formula. */
export const PI = 16n * atanInv(5n) - 4n * atanInv(239n);
/** ln(a/b) · 2^FRAC for a, b > 0: 2 atanh((a − b)/(a + b)). */
const ln = (a: bigint, b: bigint): bigint => 2n * atanh(a - b, a + b);

const bitLength = (v: bigint): number => v.toString(2).length;

/** The f64 bits nearest (ties to even) to v · 2^-scale (v an integer); normal results only. */
export function toF64Bits(v: bigint, scale: bigint = FRAC): bigint {
  if (v === 0n) return 0n;
  const sign = v < 0n ? 1n : 0n;
  let mag = v < 0n ? -v : v;
  let shift = BigInt(bitLength(mag) - 53);
  if (shift > 0n) {
    const rem = mag & ((1n << shift) - 1n), half = 1n << (shift - 1n);
    mag >>= shift;
    if (rem > half || (rem === half && (mag & 1n) === 1n)) mag += 1n;
    if (mag === 1n << 53n) { mag >>= 1n; shift += 1n; }
  } else mag <<= -shift;
  // value = mag · 2^(shift − scale), mag in [2^52, 2^53).
  const e = shift - scale + 52n;
  const biased = e + 1023n;
  if (biased < 1n || biased > 2046n) throw new Error(`constant out of the normal f64 range (2^${e})`);
  return (sign << 63n) | (biased << 52n) | (mag - (1n << 52n));
}
/** An exact rational a/b (b > 0) rounded to f64, through fixed point of enough bits to decide the rounding. */
const ratio = (a: bigint, b: bigint): bigint => {
  // a/b · 2^FRAC with the remainder folded into a sticky bit below (FRAC far exceeds 53 bits).
  const q = ((a << (FRAC + 1n)) / b) | (((a << (FRAC + 1n)) % b) !== 0n ? 1n : 0n);
  return toF64Bits(q, FRAC + 1n);
};

const factorial = (n: number): bigint => { let f = 1n; for (let k = 2n; k <= BigInt(n); k++) f *= k; return f; };
/** x^k for a fixed-point x. */
const pow = (x: bigint, k: number): bigint => { let r = ONE; for (let i = 0; i < k; i++) r = (r * x) >> FRAC; return r; };

/** exp2 on [-1/2, 1/2]: 2^f = Σ (ln 2)^k / k! · f^k, k = 0..13. */
export const EXP2_DEGREE = 13;
/** log2(1 + t) = Σ (-1)^(k+1) t^k / (k ln 2), k = 1..9. */
export const LOG2_DEGREE = 9;
/** sin(π/2 · d) = Σ (-1)^j (π/2)^(2j+1) / (2j+1)! d^(2j+1), j = 0..7; cos(π/2 · d) = Σ (-1)^j (π/2)^(2j) / (2j)! d^(2j), j = 0..8. */
export const SINQ_TERMS = 8, COSQ_TERMS = 9;
/** The log2 table: 1 + j/32 for j = 0..32, r_j = 1/(1 + j/32) rounded to a multiple of 2^-12. */
export const LOG2_TABLE_BITS = 5, R_BITS = 12, HI_BITS = 40;

export function generate(): string {
  const exp2 = Array.from({ length: EXP2_DEGREE + 1 }, (_, k) => toF64Bits(pow(LN2, k) / factorial(k)));
  const log2 = Array.from({ length: LOG2_DEGREE }, (_, i) => { const k = i + 1; return toF64Bits(((k % 2 === 1 ? 1n : -1n) * ONE * ONE) / (BigInt(k) * LN2)); });
  const halfPi = PI / 2n;
  const sinq = Array.from({ length: SINQ_TERMS }, (_, j) => toF64Bits((j % 2 === 0 ? 1n : -1n) * (pow(halfPi, 2 * j + 1) / factorial(2 * j + 1))));
  const cosq = Array.from({ length: COSQ_TERMS }, (_, j) => toF64Bits((j % 2 === 0 ? 1n : -1n) * (pow(halfPi, 2 * j) / factorial(2 * j))));
  const n = 1 << LOG2_TABLE_BITS;
  const r: bigint[] = [], hi: bigint[] = [], lo: bigint[] = [];
  for (let j = 0; j <= n; j++) {
    // r_j = round(2^(R_BITS + 5) / (32 + j)) / 2^R_BITS, ties to even (exact integer arithmetic).
    const num = 1n << BigInt(R_BITS + LOG2_TABLE_BITS), den = BigInt(n + j);
    let rq = num / den;
    const rem = num - rq * den;
    if (2n * rem > den || (2n * rem === den && (rq & 1n) === 1n)) rq += 1n;
    r.push(ratio(rq, 1n << BigInt(R_BITS)));
    // L_j = −log2(r_j) = ln(2^R_BITS / rq) / ln 2; hi: L_j rounded to a multiple of 2^-HI_BITS, lo: the rest.
    const L = (ln(1n << BigInt(R_BITS), rq) << FRAC) / LN2;
    const h = (L + (1n << (FRAC - BigInt(HI_BITS) - 1n))) >> (FRAC - BigInt(HI_BITS));
    hi.push(h === 0n ? 0n : toF64Bits(h, BigInt(HI_BITS)));
    const rest = L - (h << (FRAC - BigInt(HI_BITS)));
    lo.push(rest === 0n ? 0n : toF64Bits(rest));
  }
  const list = (xs: readonly bigint[]) => xs.map((b) => `0x${b.toString(16).padStart(16, '0')}n`).join(', ');
  return `// Generated by tools/gen-transcendental.ts: do not edit. The f64 constants (as bits) of the
// transcendental model (src/float/transcendental.ts), each the f64 nearest to its exact value.
// tests/float/transcendental.test.ts recomputes every one with mpmath.

/** 2^f = Σ EXP2_POLY[k] f^k: (ln 2)^k / k!, k = 0..${EXP2_DEGREE}. */
export const EXP2_POLY = [${list(exp2)}] as const;
/** log2(1 + t) = Σ LOG2_POLY[k − 1] t^k: (-1)^(k+1) / (k ln 2), k = 1..${LOG2_DEGREE}. */
export const LOG2_POLY = [${list(log2)}] as const;
/** sin(π/2 · d) = Σ SINQ_POLY[j] d^(2j+1): (-1)^j (π/2)^(2j+1) / (2j+1)!, j = 0..${SINQ_TERMS - 1}. */
export const SINQ_POLY = [${list(sinq)}] as const;
/** cos(π/2 · d) = Σ COSQ_POLY[j] d^(2j): (-1)^j (π/2)^(2j) / (2j)!, j = 0..${COSQ_TERMS - 1}. */
export const COSQ_POLY = [${list(cosq)}] as const;
/** r_j = round(2^${R_BITS} / (1 + j/${n})) / 2^${R_BITS} (ties to even), j = 0..${n}: exact values. */
export const LOG2_R = [${list(r)}] as const;
/** −log2(r_j) rounded to a multiple of 2^-${HI_BITS}. */
export const LOG2_HI = [${list(hi)}] as const;
/** −log2(r_j) − LOG2_HI[j], rounded to f64. */
export const LOG2_LO = [${list(lo)}] as const;
`;
}

export const OUTPUT = new URL('../src/float/transcendental-tables.ts', import.meta.url);

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(OUTPUT, generate());
  console.log(`wrote ${fileURLToPath(OUTPUT)}`);
}
