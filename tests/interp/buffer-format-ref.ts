// An independent model of the buffer format conversions for the tests (not the interpreter's
// src/interp/units/buffer-format.ts, which divides in doubles): the component layouts written out
// by hand from Mesa's format mapping (x in the lowest bits; 2_10_10_10 = x 10, y 10, z 10, w 2
// bits from bit 0 up; 10_11_11 = x 11, y 11, z 10), UNORM/SNORM quotients rounded by their
// repeating binary expansion (x / (2^w - 1) = 0.xxx... in binary, w bits repeated, so the bits
// after any point are known and never end: no ties), integers rounded to f16 by explicit
// round-to-nearest-even, small floats by their value.

/** Component widths x, y, z, w (low bits first) of the data formats the tests use. */
export const LAYOUTS: Readonly<Record<string, readonly number[]>> = {
  '8': [8], '8_8': [8, 8], '8_8_8_8': [8, 8, 8, 8], '16': [16], '16_16': [16, 16], '16_16_16_16': [16, 16, 16, 16],
  '2_10_10_10': [10, 10, 10, 2], '10_10_10_2': [2, 10, 10, 10], '10_11_11': [11, 11, 10], '11_11_10': [10, 11, 11],
};

export type Dst = 'f32' | 'f16';
const ONE: Record<Dst, number> = { f32: 0x3f800000, f16: 0x3c00 };

/** x / d (0 < x < d, d = 2^p - 1) rounded to nearest: the stream of x's p bits repeated. */
function quotient(x: number, p: number, dst: Dst): number {
  const stream = x.toString(2).padStart(p, '0').repeat(Math.ceil(64 / p) + 1);
  const S = (i: number) => (stream[i - 1] === '1' ? 1 : 0); // bit of weight 2^-i
  let lead = 1;
  while (S(lead) === 0) lead++;
  const bits = (from: number, n: number) => { let v = 0; for (let i = 0; i < n; i++) v = v * 2 + S(from + i); return v; };
  if (dst === 'f32') return (((127 - lead) << 23) | bits(lead + 1, 23)) + S(lead + 24);
  const start = Math.min(lead, 14); // below 2^-14: the f16 subnormal grid of 2^-24 (bits from 2^-15)
  const e = lead <= 14 ? 15 - lead : 0;
  return ((e << 10) | bits(start + 1, 10)) + S(start + 11);
}

export function unorm(r: number, w: number, dst: Dst): number {
  const d = 2 ** w - 1;
  return r === 0 ? 0 : r === d ? ONE[dst] : quotient(r, w, dst);
}

export function snorm(r: number, w: number, dst: Dst): number {
  const s = r >= 2 ** (w - 1) ? r - 2 ** w : r, d = 2 ** (w - 1) - 1;
  const sign = s < 0 ? (dst === 'f32' ? 0x80000000 : 0x8000) : 0;
  const m = Math.abs(s);
  return ((m === 0 ? 0 : m >= d ? ONE[dst] : quotient(m, w - 1, dst)) | sign) >>> 0;
}

/** An integer of magnitude below 2^16 as f32 (exact) or f16 (nearest even; 65520 and up: infinity). */
export function intFloat(v: number, dst: Dst): number {
  const sign = v < 0 ? (dst === 'f32' ? 0x80000000 : 0x8000) : 0;
  const m = Math.abs(v);
  if (m === 0) return sign;
  const top = 31 - Math.clz32(m);
  if (dst === 'f32') return (((127 + top) << 23) | ((m << (23 - top)) & 0x7fffff) | sign) >>> 0;
  if (top <= 10) return ((15 + top) << 10) | ((m << (10 - top)) & 0x3ff) | sign;
  const sh = top - 10, kept = m >> sh, rest = m & ((1 << sh) - 1), half = 1 << (sh - 1);
  const up = rest > half || (rest === half && (kept & 1) === 1) ? 1 : 0;
  return ((((15 + top) << 10) | (kept & 0x3ff)) + up) | sign;
}

/** f32 bits of a double that f32 holds exactly. */
function f32Bits(x: number): number {
  const v = new DataView(new ArrayBuffer(4));
  v.setFloat32(0, x, true);
  return v.getUint32(0, true);
}

/** An f16 (w 16, sign bit) or an unsigned 11/10-bit float (5 exponent bits, w - 5 mantissa bits), by its value. */
export function smallFloat(r: number, w: number, dst: Dst): number {
  const mb = w === 16 ? 10 : w - 5;
  const sign = w === 16 && r >>> 15 === 1;
  const e = (r >>> mb) & 31, m = r & ((1 << mb) - 1);
  const sb = sign ? (dst === 'f32' ? 0x80000000 : 0x8000) : 0;
  if (e === 31) return ((dst === 'f32' ? 0x7f800000 | (m << (23 - mb)) : 0x7c00 | (m << (10 - mb))) | sb) >>> 0;
  const value = e === 0 ? m * 2 ** (-14 - mb) : 2 ** (e - 15) * (1 + m / 2 ** mb);
  if (dst === 'f32') return (f32Bits(value) | sb) >>> 0;
  if (value === 0) return sb;
  // Exact in f16: a normal (2^-14 and up) or a multiple of 2^-24.
  const top = Math.floor(Math.log2(value));
  if (top < -14) return (value / 2 ** -24) | sb;
  return ((top + 15) << 10) | ((value / 2 ** top - 1) * 1024) | sb;
}

/** Component bits → the result of number format `num` (32-bit, or d16's 16-bit). */
export function convert(num: string, r: number, w: number, d16: boolean): number {
  const dst: Dst = d16 ? 'f16' : 'f32';
  const s = r >= 2 ** (w - 1) ? r - 2 ** w : r;
  switch (num) {
    case 'UNORM': return unorm(r, w, dst);
    case 'SNORM': return snorm(r, w, dst);
    case 'USCALED': return intFloat(r, dst);
    case 'SSCALED': return intFloat(s, dst);
    case 'UINT': return d16 ? r & 0xffff : r;
    case 'SINT': return d16 ? s & 0xffff : s >>> 0;
    case 'FLOAT': return smallFloat(r, w, dst);
    default: throw new Error(num);
  }
}

/** The results x, y, z, w of format `fmt` (e.g. '8_8_8_8_UNORM') on an element's bytes; a missing component: 0, w 1 (1.0). */
export function channels(fmt: string, bytes: Uint8Array, d16: boolean): number[] {
  const m = /^(.*)_(UNORM|SNORM|USCALED|SSCALED|UINT|SINT|FLOAT)$/.exec(fmt);
  if (!m || !m[1] || !m[2]) throw new Error(fmt);
  const widths = LAYOUTS[m[1]];
  if (!widths) throw new Error(fmt);
  let bits = 0n;
  bytes.forEach((b, k) => { bits |= BigInt(b) << BigInt(8 * k); });
  const out: number[] = [];
  let at = 0n;
  for (const w of widths) {
    out.push(convert(m[2], Number((bits >> at) & ((1n << BigInt(w)) - 1n)), w, d16));
    at += BigInt(w);
  }
  const int = m[2] === 'UINT' || m[2] === 'SINT';
  while (out.length < 4) out.push(out.length === 3 ? (int ? 1 : d16 ? 0x3c00 : 0x3f800000) : 0);
  return out;
}
