// An independent model of the format store conversion rules (src/float/format-store.ts's header),
// written apart from it: values as exact rationals (BigInt numerator / power-of-two denominator),
// rounded by comparing remainders, floats found by searching their exponent. Used by
// format-store.test.ts, buffer-format.test.ts's store kernel and image.test.ts's reference.

export type Num = 'UNORM' | 'SNORM' | 'USCALED' | 'SSCALED' | 'UINT' | 'SINT' | 'FLOAT';
export type Rounding = 'nearest-even' | 'd3d';
type Tie = 'even' | 'away' | 'zero';

/** A float's value: NaN, ±inf, or sign · n / 2^k (n, k ≥ 0 BigInts). */
type Val = { kind: 'nan' } | { kind: 'inf'; neg: boolean } | { kind: 'num'; neg: boolean; n: bigint; k: bigint };

function decode(bits: number, ebits: number, mbits: number): Val {
  const total = 1 + ebits + mbits;
  const neg = ((bits >>> (total - 1)) & 1) === 1;
  const e = (bits >>> mbits) & ((1 << ebits) - 1);
  const m = BigInt(bits & ((1 << mbits) - 1));
  const bias = (1 << (ebits - 1)) - 1;
  if (e === (1 << ebits) - 1) return m === 0n ? { kind: 'inf', neg } : { kind: 'nan' };
  // value = (e ? 2^mbits + m : m) * 2^(max(e,1) - bias - mbits)
  const sig = e === 0 ? m : (1n << BigInt(mbits)) + m;
  const p = Math.max(e, 1) - bias - mbits;
  return p >= 0 ? { kind: 'num', neg, n: sig << BigInt(p), k: 0n } : { kind: 'num', neg, n: sig, k: BigInt(-p) };
}

/** n / d rounded to an integer (n ≥ 0, d > 0). */
function roundDiv(n: bigint, d: bigint, tie: Tie): bigint {
  const q = n / d, r = n - q * d;
  if (tie === 'zero' || r === 0n) return q;
  if (2n * r > d) return q + 1n;
  if (2n * r < d) return q;
  return tie === 'away' ? q + 1n : q % 2n === 0n ? q : q + 1n;
}

/** |v| · s rounded (v finite). */
const scaled = (v: { n: bigint; k: bigint }, s: bigint, tie: Tie) => roundDiv(v.n * s, 1n << v.k, tie);
/** |v| compared with the integer c: -1, 0, 1. */
const cmp = (v: { n: bigint; k: bigint }, c: bigint) => { const a = v.n, b = c << v.k; return a < b ? -1 : a > b ? 1 : 0; };

/** An unsigned float of 5 exponent bits (bias 15) and mb mantissa bits of the finite positive v, rounded by tie; overflow → null. */
function toSmallFloat(v: { n: bigint; k: bigint }, mb: number, tie: Tie): number | null {
  if (v.n === 0n) return 0;
  // The exponent: 2^E <= v < 2^(E+1).
  let E = 0;
  const pow = (x: number) => (x >= 0 ? { n: 1n << BigInt(x), k: 0n } : { n: 1n, k: BigInt(-x) });
  const ge = (x: number) => { const p = pow(x); return v.n * (1n << p.k) >= p.n * (1n << v.k); };
  while (ge(E + 1)) E++;
  while (!ge(E)) E--;
  const step = Math.max(E, -14) - mb; // the spacing's exponent (subnormals: 2^(-14 - mb))
  const q = Number(step >= 0 ? roundDiv(v.n, (1n << BigInt(step)) << v.k, tie) : roundDiv(v.n << BigInt(-step), 1n << v.k, tie));
  // Subnormal: the bits are q (q = 2^mb is the smallest normal); normal: exponent field E + 15,
  // mantissa q - 2^mb (q = 2^(mb+1) carries into the exponent).
  const bits = E < -14 ? q : ((E + 15) << mb) + q - (1 << mb);
  return bits >= 31 << mb ? null : bits;
}

/**
 * The bits of a w-bit component of number format `num` from data channel `x` (f32 bits or a
 * 32-bit integer; with d16 the low half: f16 bits or a 16-bit integer).
 */
export function refPack(num: Num, w: number, x: number, d16: boolean, rounding: Rounding = 'nearest-even'): number {
  const mask = (1n << BigInt(w)) - 1n;
  const out = (v: bigint) => Number(BigInt.asUintN(w, v));
  if (num === 'UINT') {
    const u = BigInt(d16 ? x & 0xffff : x >>> 0);
    return out(u > mask ? mask : u);
  }
  if (num === 'SINT') {
    const s = BigInt(d16 ? ((x & 0xffff) << 16) >> 16 : x | 0);
    const hi = (1n << BigInt(w - 1)) - 1n, lo = -(1n << BigInt(w - 1));
    return out(s > hi ? hi : s < lo ? lo : s);
  }
  if (num === 'FLOAT' && w === 16 && d16) return x & 0xffff;
  const v = d16 ? decode(x & 0xffff, 5, 10) : decode(x >>> 0, 8, 23);
  const normTie: Tie = rounding === 'd3d' ? 'away' : 'even';
  const floatTie: Tie = rounding === 'd3d' ? 'zero' : 'even';
  switch (num) {
    case 'UNORM': {
      if (v.kind === 'nan') return 0;
      if (v.neg) return 0;
      if (v.kind === 'inf' || cmp(v, 1n) >= 0) return out(mask);
      return out(scaled(v, mask, normTie));
    }
    case 'SNORM': {
      if (v.kind === 'nan') return 0;
      const m = (1n << BigInt(w - 1)) - 1n;
      const mag = v.kind === 'inf' || cmp(v, 1n) >= 0 ? m : scaled(v, m, normTie);
      return out(v.neg ? -mag : mag);
    }
    case 'USCALED': {
      if (v.kind === 'nan' || v.neg) return 0;
      if (v.kind === 'inf') return out(mask);
      const r = scaled(v, 1n, 'even');
      return out(r > mask ? mask : r);
    }
    case 'SSCALED': {
      if (v.kind === 'nan') return 0;
      const lim = v.neg ? 1n << BigInt(w - 1) : (1n << BigInt(w - 1)) - 1n;
      const r = v.kind === 'inf' ? lim : scaled(v, 1n, 'even');
      const mag = r > lim ? lim : r;
      return out(v.neg ? -mag : mag);
    }
    default: { // FLOAT
      const mb = w === 16 ? 10 : w - 5;
      const signed = w === 16;
      const inf = 31 << mb, max = inf - 1;
      if (v.kind === 'nan') {
        // Quiet NaN, payload's top bits, sign kept by f16.
        const payload = d16 ? (x & 0x3ff) >>> (10 - mb) : (x & 0x7fffff) >>> (23 - mb);
        return ((signed && (x >>> (d16 ? 15 : 31)) & 1 ? 0x8000 : 0) | inf | (1 << (mb - 1)) | payload) >>> 0;
      }
      const sign = signed && v.neg ? 0x8000 : 0;
      if (!signed && v.neg) return 0;
      if (v.kind === 'inf') return sign | inf;
      const bits = toSmallFloat(v, mb, floatTie);
      if (bits === null) return sign | (signed && floatTie === 'even' ? inf : max);
      return sign | (bits >= inf ? (signed && floatTie === 'even' ? inf : max) : bits);
    }
  }
}

/** The number formats and component widths of buffer formats 1..77 narrower than 32 bits. */
export const PACK_WIDTHS: Readonly<Record<Num, readonly number[]>> = {
  UNORM: [2, 8, 10, 11, 16], SNORM: [2, 8, 10, 11, 16], USCALED: [2, 8, 10, 11, 16], SSCALED: [2, 8, 10, 11, 16],
  UINT: [2, 8, 10, 11, 16], SINT: [2, 8, 10, 11, 16], FLOAT: [10, 11, 16],
};
