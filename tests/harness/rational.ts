// Independent float oracle: exact rationals (BigInt numerator/denominator), formats decoded from
// bits by their definition, rounding by locating the two neighbouring representable values and
// comparing the exact value with them and with their midpoint. Shares no code with src/float.

export interface Spec { readonly bits: number; readonly expBits: number }
export const S16: Spec = { bits: 16, expBits: 5 };
export const S32: Spec = { bits: 32, expBits: 8 };
export const S64: Spec = { bits: 64, expBits: 11 };

export interface OEnv {
  round: 0 | 1 | 2 | 3; flushIn: boolean; flushOut: boolean; ieee: boolean; tininess?: 'before' | 'after';
  /**
   * MODE.FP16_OVFL as the RDNA2 ISA guide's MODE table words it: "an overflowed FP16 result is
   * clamped to +/- MAX_FP16, regardless of round mode, while still preserving true INF values".
   */
  f16Ovfl?: boolean;
}

/** A rational n/d with d > 0. */
export interface Q { n: bigint; d: bigint }
const abs = (x: bigint): bigint => (x < 0n ? -x : x);
function gcd(a: bigint, b: bigint): bigint { a = abs(a); b = abs(b); while (b) [a, b] = [b, a % b]; return a; }
export function q(n: bigint, d = 1n): Q { if (d < 0n) { n = -n; d = -d; } const g = gcd(n, d) || 1n; return { n: n / g, d: d / g }; }
export const qadd = (a: Q, b: Q): Q => q(a.n * b.d + b.n * a.d, a.d * b.d);
export const qmul = (a: Q, b: Q): Q => q(a.n * b.n, a.d * b.d);
export const qdiv = (a: Q, b: Q): Q => q(a.n * b.d, a.d * b.n);
export const qneg = (a: Q): Q => ({ n: -a.n, d: a.d });
export const qcmp = (a: Q, b: Q): number => { const l = a.n * b.d, r = b.n * a.d; return l < r ? -1 : l > r ? 1 : 0; };
export function pow2q(e: number): Q { return e >= 0 ? { n: 1n << BigInt(e), d: 1n } : { n: 1n, d: 1n << BigInt(-e) }; }

interface Dims { p: number; frac: number; bias: number; emin: number; emax: number; maxBiased: number }
function dims(s: Spec): Dims {
  const frac = s.bits - 1 - s.expBits, bias = 2 ** (s.expBits - 1) - 1;
  return { p: frac + 1, frac, bias, emin: 1 - bias, emax: bias, maxBiased: 2 ** s.expBits - 1 };
}

export type Val = { kind: 'nan'; sign: 0 | 1; bits: bigint; signaling: boolean } | { kind: 'inf'; sign: 0 | 1 } | { kind: 'num'; sign: 0 | 1; q: Q; sub: boolean };

/** Decode by the definition: (-1)^s × 2^(E - bias) × 1.F, or 2^emin × 0.F for E = 0. */
export function decode(s: Spec, bits: bigint): Val {
  const D = dims(s);
  const sign = Number((bits >> BigInt(s.bits - 1)) & 1n) as 0 | 1;
  const E = Number((bits >> BigInt(D.frac)) % (1n << BigInt(s.expBits)));
  const F = bits % (1n << BigInt(D.frac));
  if (E === D.maxBiased) return F === 0n ? { kind: 'inf', sign } : { kind: 'nan', sign, bits, signaling: (F >> BigInt(D.frac - 1)) === 0n };
  const mag = E === 0 ? qmul(q(F), pow2q(D.emin - D.frac)) : qmul(q(F + (1n << BigInt(D.frac))), pow2q(E - D.bias - D.frac));
  return { kind: 'num', sign, q: sign ? qneg(mag) : mag, sub: E === 0 && F !== 0n };
}

/** Exact non-negative value: a rational, or the square root of one. */
export type Exact = { kind: 'q'; q: Q } | { kind: 'sqrt'; q: Q };

function isqrtO(n: bigint): bigint { // bit by bit, from the top
  if (n < 0n) throw new Error('isqrt of negative');
  let r = 0n;
  let bit = 1n;
  while (bit * bit <= n) bit <<= 1n;
  for (; bit > 0n; bit >>= 1n) if ((r + bit) * (r + bit) <= n) r += bit;
  return r;
}
/** floor(x / 2^u) */
function floorScaled(x: Exact, u: number): bigint {
  if (x.kind === 'q') { const s = qmul(x.q, pow2q(-u)); return s.n / s.d; }
  const s = qmul(x.q, pow2q(-2 * u));
  return isqrtO(s.n / s.d);
}
/** sign(x - c) for c ≥ 0 */
function cmpExact(x: Exact, c: Q): number {
  return x.kind === 'q' ? qcmp(x.q, c) : qcmp(x.q, qmul(c, c));
}
function floorLog2(x: Exact): number {
  let e = 0;
  while (cmpExact(x, pow2q(e)) < 0) e--;
  while (cmpExact(x, pow2q(e + 1)) >= 0) e++;
  return e;
}
function approxLog2Start(x: Exact): number {
  const n = x.q.n, d = x.q.d;
  const l = n.toString(2).length - d.toString(2).length;
  return x.kind === 'q' ? l : Math.floor(l / 2);
}
function floorLog2Fast(x: Exact): number {
  let e = approxLog2Start(x) - 2;
  while (cmpExact(x, pow2q(e)) < 0) e -= 2;
  while (cmpExact(x, pow2q(e + 1)) >= 0) e++;
  return e;
}
void floorLog2;

/** The neighbours lo ≤ x ≤ hi of precision p (unbounded exponent if `unbounded`), as k × 2^u. */
function neighbours(s: Spec, x: Exact, unbounded: boolean): { k: bigint; u: number; exact: boolean } {
  const D = dims(s);
  const e = floorLog2Fast(x);
  const u = (unbounded ? e : Math.max(e, D.emin)) - D.frac;
  const k = floorScaled(x, u);
  const exact = cmpExact(x, qmul(q(k), pow2q(u))) === 0;
  return { k, u, exact };
}

/** Pick lo = k·2^u or hi = (k+1)·2^u by mode, comparing x with the midpoint. Returns the chosen multiple. */
function choose(x: Exact, sign: 0 | 1, k: bigint, u: number, exact: boolean, round: number): bigint {
  if (exact) return k;
  const awayFromZeroIsUp = sign === 0;
  switch (round) {
    case 3: return k;
    case 1: return awayFromZeroIsUp ? k + 1n : k;
    case 2: return awayFromZeroIsUp ? k : k + 1n;
    default: {
      const mid = qmul(q(2n * k + 1n), pow2q(u - 1));
      const c = cmpExact(x, mid);
      return c < 0 ? k : c > 0 ? k + 1n : (k % 2n === 0n ? k : k + 1n);
    }
  }
}

/** Round (-1)^sign × x (x > 0) to spec under env; returns bits. */
export function roundExact(s: Spec, sign: 0 | 1, x: Exact, env: OEnv): bigint {
  const D = dims(s);
  const sb = sign ? 1n << BigInt(s.bits - 1) : 0n;
  const minNormal = pow2q(D.emin);
  if (env.flushOut && cmpExact(x, minNormal) < 0) {
    let tiny = true;
    if (env.tininess !== 'before') {
      const nb = neighbours(s, x, true);
      const m = choose(x, sign, nb.k, nb.u, nb.exact, env.round);
      tiny = qcmp(qmul(q(m), pow2q(nb.u)), minNormal) < 0;
    }
    if (tiny) return sb;
  }
  const nb = neighbours(s, x, false);
  const m = choose(x, sign, nb.k, nb.u, nb.exact, env.round);
  const value = qmul(q(m), pow2q(nb.u));
  const maxQ = qmul(q((1n << BigInt(D.p)) - 1n), pow2q(D.emax - D.frac));
  if (qcmp(value, maxQ) > 0) {
    const clamp16 = env.f16Ovfl === true && s.bits === 16;
    const toInf = !clamp16 && (env.round === 0 || (env.round === 1 && sign === 0) || (env.round === 2 && sign === 1));
    return sb | (toInf ? BigInt(D.maxBiased) << BigInt(D.frac) : (BigInt(D.maxBiased) << BigInt(D.frac)) - 1n);
  }
  return sb | encodeMag(s, value);
}

/** Bits of a representable non-negative value, found by its binade. */
function encodeMag(s: Spec, v: Q): bigint {
  const D = dims(s);
  if (v.n === 0n) return 0n;
  const x: Exact = { kind: 'q', q: v };
  const e = floorLog2Fast(x);
  if (e < D.emin) return floorScaled(x, D.emin - D.frac);
  const F = floorScaled(x, e - D.frac) - (1n << BigInt(D.frac));
  return (BigInt(e + D.bias) << BigInt(D.frac)) | F;
}

// --- operations, written from IEEE 754 + the documented AMD NaN rule -------------------------

function qnanBits(s: Spec): bigint { const D = dims(s); return (BigInt(D.maxBiased) << BigInt(D.frac)) | (1n << BigInt(D.frac - 1)); }
function infBits(s: Spec, sign: 0 | 1): bigint { const D = dims(s); return (sign ? 1n << BigInt(s.bits - 1) : 0n) | (BigInt(D.maxBiased) << BigInt(D.frac)); }
function zeroBits(s: Spec, sign: 0 | 1): bigint { return sign ? 1n << BigInt(s.bits - 1) : 0n; }
function input(s: Spec, bits: bigint, env: OEnv): Val {
  const v = decode(s, bits);
  if (env.flushIn && v.kind === 'num' && v.sub) return { kind: 'num', sign: v.sign, q: q(0n), sub: false };
  return v;
}
function nanOut(s: Spec, env: OEnv, vs: Val[]): bigint | undefined {
  for (const v of vs) if (v.kind === 'nan') return env.ieee ? v.bits | (1n << BigInt(dims(s).frac - 1)) : v.bits;
  return undefined;
}
function fromQ(s: Spec, v: Q, zeroSign: 0 | 1, env: OEnv): bigint {
  if (v.n === 0n) return zeroBits(s, zeroSign);
  return roundExact(s, v.n < 0n ? 1 : 0, { kind: 'q', q: v.n < 0n ? qneg(v) : v }, env);
}
const zsum = (a: 0 | 1, b: 0 | 1, env: OEnv): 0 | 1 => (a === b ? a : env.round === 2 ? 1 : 0);

export function oAdd(s: Spec, a: bigint, b: bigint, env: OEnv): bigint {
  const x = input(s, a, env), y = input(s, b, env);
  const n = nanOut(s, env, [x, y]); if (n !== undefined) return n;
  if (x.kind === 'inf' && y.kind === 'inf') return x.sign === y.sign ? infBits(s, x.sign) : qnanBits(s);
  if (x.kind === 'inf') return infBits(s, x.sign);
  if (y.kind === 'inf') return infBits(s, y.sign);
  if (x.kind !== 'num' || y.kind !== 'num') throw new Error('unreachable');
  return fromQ(s, qadd(x.q, y.q), zsum(x.sign, y.sign, env), env);
}
export function oSub(s: Spec, a: bigint, b: bigint, env: OEnv): bigint {
  const v = decode(s, b);
  return oAdd(s, a, v.kind === 'nan' ? b : b ^ (1n << BigInt(s.bits - 1)), env);
}
export function oMul(s: Spec, a: bigint, b: bigint, env: OEnv): bigint {
  const x = input(s, a, env), y = input(s, b, env);
  const n = nanOut(s, env, [x, y]); if (n !== undefined) return n;
  const sign = ((x as { sign: 0 | 1 }).sign ^ (y as { sign: 0 | 1 }).sign) as 0 | 1;
  const isZero = (v: Val): boolean => v.kind === 'num' && v.q.n === 0n;
  if (x.kind === 'inf' || y.kind === 'inf') return isZero(x) || isZero(y) ? qnanBits(s) : infBits(s, sign);
  if (x.kind !== 'num' || y.kind !== 'num') throw new Error('unreachable');
  return fromQ(s, qmul(x.q, y.q), sign, env);
}
export function oFma(s: Spec, a: bigint, b: bigint, c: bigint, env: OEnv): bigint {
  const x = input(s, a, env), y = input(s, b, env), z = input(s, c, env);
  const n = nanOut(s, env, [x, y, z]); if (n !== undefined) return n;
  const sp = ((x as { sign: 0 | 1 }).sign ^ (y as { sign: 0 | 1 }).sign) as 0 | 1;
  const isZero = (v: Val): boolean => v.kind === 'num' && v.q.n === 0n;
  if (x.kind === 'inf' || y.kind === 'inf') {
    if (isZero(x) || isZero(y)) return qnanBits(s);
    if (z.kind === 'inf' && z.sign !== sp) return qnanBits(s);
    return infBits(s, sp);
  }
  if (z.kind === 'inf') return infBits(s, z.sign);
  if (x.kind !== 'num' || y.kind !== 'num' || z.kind !== 'num') throw new Error('unreachable');
  return fromQ(s, qadd(qmul(x.q, y.q), z.q), zsum(sp, z.sign, env), env);
}
export function oDiv(s: Spec, a: bigint, b: bigint, env: OEnv): bigint {
  const x = input(s, a, env), y = input(s, b, env);
  const n = nanOut(s, env, [x, y]); if (n !== undefined) return n;
  const sign = ((x as { sign: 0 | 1 }).sign ^ (y as { sign: 0 | 1 }).sign) as 0 | 1;
  const isZero = (v: Val): boolean => v.kind === 'num' && v.q.n === 0n;
  if (x.kind === 'inf') return y.kind === 'inf' ? qnanBits(s) : infBits(s, sign);
  if (y.kind === 'inf') return zeroBits(s, sign);
  if (isZero(y)) return isZero(x) ? qnanBits(s) : infBits(s, sign);
  if (x.kind !== 'num' || y.kind !== 'num') throw new Error('unreachable');
  return fromQ(s, qdiv(x.q, y.q), sign, env);
}
export function oSqrt(s: Spec, a: bigint, env: OEnv): bigint {
  const x = input(s, a, env);
  const n = nanOut(s, env, [x]); if (n !== undefined) return n;
  if (x.kind === 'inf') return x.sign ? qnanBits(s) : infBits(s, 0);
  if (x.kind !== 'num') throw new Error('unreachable');
  if (x.q.n === 0n) return zeroBits(s, x.sign);
  if (x.q.n < 0n) return qnanBits(s);
  return roundExact(s, 0, { kind: 'sqrt', q: x.q }, env);
}
/** Float → float conversion of a finite or special value (NaN: not covered here). */
export function oConvert(from: Spec, to: Spec, a: bigint, env: OEnv): bigint {
  const x = input(from, a, env);
  if (x.kind === 'nan') throw new Error('oConvert: NaN not modelled by the oracle');
  if (x.kind === 'inf') return infBits(to, x.sign);
  return fromQ(to, x.q, x.sign, env);
}
/** The exact value of a float's bits as a JS number (for finite f16/f32/f64), via the rational. */
export function toNumber(s: Spec, bits: bigint): number {
  const v = decode(s, bits);
  if (v.kind === 'nan') return NaN;
  if (v.kind === 'inf') return v.sign ? -Infinity : Infinity;
  const r = Number(v.q.n) / Number(v.q.d);
  return r === 0 && v.sign ? -0 : r;
}

/**
 * Float → i32 / u32 of finite or infinite bits: the exact value rounded to an integer ('trunc'
 * toward zero, 'floor', 'ceil', 'rne' to nearest even), saturated to the range; NaN → 0.
 */
export function oToInt(s: Spec, a: bigint, signed: boolean, how: 'trunc' | 'floor' | 'ceil' | 'rne', flushIn: boolean): bigint {
  const lo = signed ? -(1n << 31n) : 0n, hi = signed ? (1n << 31n) - 1n : (1n << 32n) - 1n;
  const x = decode(s, a);
  if (x.kind === 'nan') return 0n;
  if (x.kind === 'inf') return x.sign ? lo : hi;
  if (flushIn && x.sub) return 0n;
  const { n, d } = x.q;
  const fl = n >= 0n ? n / d : -((-n + d - 1n) / d); // floor
  const exact = fl * d === n;
  let v: bigint;
  if (exact) v = fl;
  else if (how === 'floor') v = fl;
  else if (how === 'ceil') v = fl + 1n;
  else if (how === 'trunc') v = n < 0n ? fl + 1n : fl;
  else {
    const c = qcmp(q(n - fl * d, d), q(1n, 2n));
    v = c < 0 ? fl : c > 0 ? fl + 1n : fl % 2n === 0n ? fl : fl + 1n;
  }
  return v < lo ? lo : v > hi ? hi : v;
}
