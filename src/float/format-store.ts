// Format store conversion: a channel of VGPR data (an f32 or a 32-bit integer; with d16 an f16 or
// a 16-bit integer in the low half) into a buffer-format component narrower than 32 bits
// (formats 1..77: UNORM, SNORM, USCALED, SSCALED, UINT, SINT of 2, 8, 10, 11, 16 bits; FLOAT of
// 16 bits (f16) and of 11 and 10 bits (the unsigned floats of 10_11_11 / 11_11_10: 5 exponent
// bits, bias 15, 6 or 5 mantissa bits)). Written once over integer arithmetic (PackArith: u32
// values, u1 conditions, u64 products) and instantiated by both engines: the interpreter with
// numbers (NUMBER_PACK_ARITH), the recompiler with IR ops (src/frontend/units/buffer-format.ts,
// integer ops only: no float op, so nothing depends on MODE). Both compute the same bits by
// construction; tests/interp/format-store.test.ts checks the rules against exact rational
// arithmetic written apart from this file.
//
// The RDNA2 ISA reference does not state how a store converts. Sources read: the Vulkan spec
// ("Conversion from Floating-Point to Normalized Fixed-Point": clamp, × (2^b - 1), "should round
// to nearest"); D3D's data conversion rules (Direct3D 10 programming guide, "Data Conversion
// Rules", repeated by the D3D11.3 functional spec: FLOAT → UNORM/SNORM: NaN → 0, clamp, scale,
// "+ 0.5 and drop the fraction" (round to nearest); "round-to-nearest-even for integer or fixed
// point targets"; "round-to-zero during conversion to another float format"); Mesa's util/format
// pack code (_mesa_float_to_unorm / _mesa_float_to_snorm: clamp then _mesa_i64roundevenf of the
// f32 product; integer formats clamped (_mesa_unsigned_to_unsigned, _mesa_signed_to_signed);
// f32_to_uf11 / f32_to_uf10 after GL_EXT_packed_float; gallium's u_half.h notes D3D10 requires
// round-to-zero for halves, GL specifies none); OpenCL 1.2 §8.3 (write_imagef:
// convert_*_sat_rte(f * 255.0f)); pocl's output (tests/interp/image.test.ts). No AMD document
// states the rules. The rules (one reading each; the rounding is the switch FORMAT_STORE_ROUNDING
// in ./env.ts, default 'nearest-even'):
//  Input: the f32 channel; with d16 the f16 half, widened to f32 exactly first (so an f16 input
//    is rounded once). UINT/SINT take the channel as an integer (d16: the half as u16 / i16).
//  UNORM w: NaN → 0; negative (incl. -0, -inf) → 0; ≥ 1.0 (incl. +inf) → 2^w - 1; else
//    x · (2^w - 1) rounded once, from the exact product (Vulkan and D3D state the rounding of the
//    value; Mesa (_mesa_i64roundevenf(x * MAX) in float), OpenCL and pocl round the f32 product,
//    which differs by one step where that product lands on or across a .5: 44 of pocl's 14592
//    channels in image.test.ts).
//  SNORM w: NaN → 0; |x| ≥ 1 (incl. ±inf) → ±(2^(w-1) - 1) (the code -2^(w-1) is never
//    written: D3D, Vulkan's clamp to [-1, 1], Mesa; OpenCL's convert_char_sat_rte(f * 127.0f)
//    reaches -128 below -1); else ±round(|x| · (2^(w-1) - 1)), -0 → 0.
//  USCALED / SSCALED w: the float rounded to an integer (nearest even under both switch values:
//    D3D's rule for integer targets; Mesa's generated gallium pack code may truncate with a C
//    cast: not checked), saturated: NaN → 0, USCALED negatives → 0 and ≥ 2^w - 1 → 2^w - 1,
//    SSCALED to [-2^(w-1), 2^(w-1) - 1] (±inf to the ends).
//  UINT / SINT w: saturated, not wrapped (Mesa util/format/format_utils.h:
//    _mesa_unsigned_to_unsigned = MIN2(src, max), _mesa_signed_to_signed = CLAMP(src, min, max);
//    OpenCL write_imageui / write_imagei: convert_*_sat, which pocl follows): UINT min(u, 2^w - 1)
//    of the unsigned channel, SINT clamp of the signed one.
//  FLOAT 16: IEEE binary16 of the f32, rounded by the switch; sign kept (-0 → 0x8000); ±inf →
//    ±inf; an overflow → ±inf when rounding to nearest (IEEE; Mesa util_float_to_half; pocl), ±max
//    (0x7bff) toward zero; subnormals kept (gradual underflow; an f32 subnormal → ±0); NaN →
//    quiet NaN with the sign and the payload's top bits (sign | 0x7e00 | mantissa >> 13, as x86
//    F16C's VCVTPS2PH; pocl gives the same). d16: the half as it is.
//  FLOAT 11 / 10 (unsigned): NaN (either sign) → quiet NaN with the payload's top bits (31 << mb
//    | 1 << (mb - 1) | mantissa's top mb bits); +inf → +inf; negative (incl. -0, -inf) → 0;
//    finite values rounded by the switch, overflow (≥ 2^16, or rounding past the largest finite)
//    → the largest finite (GL_EXT_packed_float: "negative infinity is converted to zero; positive
//    infinity is converted to positive infinity; and both positive and negative NaN are converted
//    to positive NaN ... finite positive values greater than 65024 ... are converted to 65024";
//    Mesa f32_to_uf11/uf10); subnormals kept (Mesa flushes them).
// The result is the component's w bits (in the low bits of a u32).

import { FORMAT_STORE_ROUNDING, type FormatStoreRounding } from './env.js';

/** The number formats, by the index a component's `num` value holds. */
export const STORE_NUMS = ['UNORM', 'SNORM', 'USCALED', 'SSCALED', 'UINT', 'SINT', 'FLOAT'] as const;

/** The integer arithmetic the conversion needs (U: u32, B: u1, W: u64). */
export interface PackArith<U, B, W> {
  k(n: number): U;
  add(a: U, b: U): U;
  sub(a: U, b: U): U;
  and(a: U, b: U): U;
  or(a: U, b: U): U;
  /** a << (n mod 32), a >>> (n mod 32). */
  shl(a: U, n: U): U;
  shr(a: U, n: U): U;
  eq(a: U, b: U): B;
  ult(a: U, b: U): B;
  slt(a: U, b: U): B;
  sel(c: B, a: U, b: U): U;
  not(a: B): B;
  both(a: B, b: B): B;
  either(a: B, b: B): B;
  /** Leading zeros of a nonzero u32. */
  clz(a: U): U;
  /** The u64 product of two u32s. */
  mulWide(a: U, b: U): W;
  /** a >>> (n mod 64), a << (n mod 64) (u64). */
  shrW(a: W, n: U): W;
  shlW(a: W, n: U): W;
  neW(a: W, b: W): B;
  loW(a: W): U;
}

/** Plain numbers (u32 as non-negative numbers, u64 as bigints): the interpreter's instance. */
export const NUMBER_PACK_ARITH: PackArith<number, boolean, bigint> = {
  k: (n) => n >>> 0,
  add: (a, b) => (a + b) >>> 0,
  sub: (a, b) => (a - b) >>> 0,
  and: (a, b) => (a & b) >>> 0,
  or: (a, b) => (a | b) >>> 0,
  shl: (a, n) => (a << (n & 31)) >>> 0,
  shr: (a, n) => a >>> (n & 31),
  eq: (a, b) => a >>> 0 === b >>> 0,
  ult: (a, b) => a >>> 0 < b >>> 0,
  slt: (a, b) => (a | 0) < (b | 0),
  sel: (c, a, b) => (c ? a : b),
  not: (a) => !a,
  both: (a, b) => a && b,
  either: (a, b) => a || b,
  clz: (a) => Math.clz32(a),
  mulWide: (a, b) => BigInt(a >>> 0) * BigInt(b >>> 0),
  shrW: (a, n) => a >> BigInt(n & 63),
  shlW: (a, n) => (a << BigInt(n & 63)) & 0xffffffffffffffffn,
  neW: (a, b) => a !== b,
  loW: (a) => Number(a & 0xffffffffn),
};

type Tie = 'even' | 'away' | 'zero';

/**
 * Component bits of data channel `x` (f32 bits or a 32-bit integer; with d16 the low 16 bits)
 * converted into number format `num` (an index of STORE_NUMS) of width `w` (2..16), in the low w
 * bits. `num` and `w` are values so that an engine can convert a run-time format; every number
 * format is computed and the right one selected.
 */
export function packComponent<U, B, W>(A: PackArith<U, B, W>, num: U, w: U, x: U, d16: boolean, rounding: FormatStoreRounding = FORMAT_STORE_ROUNDING): U {
  const K = (n: number) => A.k(n);
  const umin = (a: U, b: U) => A.sel(A.ult(a, b), a, b);
  const umax = (a: U, b: U) => A.sel(A.ult(a, b), b, a);
  const uge = (a: U, b: U) => A.not(A.ult(a, b));
  const bit = (c: B) => A.sel(c, K(1), K(0));
  const mask = (n: U) => A.sub(A.shl(K(1), n), K(1));
  const neg = (a: U) => A.sub(K(0), a);
  const is = (n: (typeof STORE_NUMS)[number]) => A.eq(num, K(STORE_NUMS.indexOf(n)));
  const normTie: Tie = rounding === 'd3d' ? 'away' : 'even';
  const floatTie: Tie = rounding === 'd3d' ? 'zero' : 'even';

  /** round(m / 2^n) for n in 1..31. */
  const round32 = (m: U, n: U, tie: Tie): U => {
    const q = A.shr(m, n);
    if (tie === 'zero') return q;
    const half = A.eq(A.and(A.shr(m, A.sub(n, K(1))), K(1)), K(1));
    if (tie === 'away') return A.add(q, bit(half));
    const sticky = A.not(A.eq(A.and(m, mask(A.sub(n, K(1)))), K(0)));
    return A.add(q, bit(A.both(half, A.either(sticky, A.eq(A.and(q, K(1)), K(1))))));
  };
  /** round(P / 2^n) for n in 1..63 where P / 2^(n-1) < 2^32. */
  const round64 = (P: W, n: U, tie: Tie): U => {
    const q2W = A.shrW(P, A.sub(n, K(1)));
    const q2 = A.loW(q2W);
    const q = A.shr(q2, K(1));
    if (tie === 'zero') return q;
    const half = A.eq(A.and(q2, K(1)), K(1));
    if (tie === 'away') return A.add(q, bit(half));
    const sticky = A.neW(A.shlW(q2W, A.sub(n, K(1))), P);
    return A.add(q, bit(A.both(half, A.either(sticky, A.eq(A.and(q, K(1)), K(1))))));
  };

  // The channel as f32 bits (d16: the f16 widened exactly).
  let f = x;
  if (d16) {
    const h = A.and(x, K(0xffff));
    const hs = A.shl(A.shr(h, K(15)), K(31)), he = A.and(A.shr(h, K(10)), K(31)), hm = A.and(h, K(0x3ff));
    const top = A.sub(K(31), A.clz(A.sel(A.eq(hm, K(0)), K(1), hm)));
    const sub = A.or(A.shl(A.add(top, K(103)), K(23)), A.and(A.shl(hm, A.sub(K(23), top)), K(0x7fffff)));
    const normal = A.or(A.shl(A.add(he, K(112)), K(23)), A.shl(hm, K(13)));
    const special = A.or(K(0x7f800000), A.shl(hm, K(13)));
    const mag = A.sel(A.eq(he, K(31)), special, A.sel(A.eq(he, K(0)), A.sel(A.eq(hm, K(0)), K(0), sub), normal));
    f = A.or(hs, mag);
  }
  const s = A.eq(A.shr(f, K(31)), K(1));
  const E = A.and(A.shr(f, K(23)), K(0xff));
  const Fm = A.and(f, K(0x7fffff));
  const special = A.eq(E, K(255));
  const nan = A.both(special, A.not(A.eq(Fm, K(0))));
  const inf = A.both(special, A.eq(Fm, K(0)));
  // The value is m * 2^(Ee - 150).
  const m = A.sel(A.eq(E, K(0)), Fm, A.or(Fm, K(0x800000)));
  const Ee = umax(E, K(1));
  /** 150 - Ee clamped to lo..hi (Ee above 150 gives hi; only used where it is in range). */
  const fracBits = (lo: number, hi: number) => umax(umin(A.sel(A.ult(K(150), Ee), K(hi), A.sub(K(150), Ee)), K(hi)), K(lo));
  const atLeast1 = A.either(inf, uge(Ee, K(127)));

  // UNORM: clamp to [0, 1], x (2^w - 1) rounded.
  const uMax = mask(w);
  const n64 = fracBits(1, 63);
  const unormIn = round64(A.mulWide(m, uMax), n64, normTie);
  const unorm = A.sel(A.either(nan, s), K(0), A.sel(atLeast1, uMax, unormIn));
  // SNORM: clamp to [-1, 1], x (2^(w-1) - 1) rounded by magnitude.
  const sMax = mask(A.sub(w, K(1)));
  const snormMag = A.sel(nan, K(0), A.sel(atLeast1, sMax, round64(A.mulWide(m, sMax), n64, normTie)));
  const snorm = A.sel(s, neg(snormMag), snormMag);
  // USCALED / SSCALED: the integer nearest (even), saturated.
  const r = round32(m, fracBits(1, 31), 'even');
  const uscaled = A.sel(A.either(nan, s), K(0), A.sel(A.either(inf, uge(Ee, A.add(w, K(127)))), uMax, umin(r, uMax)));
  const sLim = A.sel(s, A.add(sMax, K(1)), sMax);
  const sscaledMag = A.sel(nan, K(0), A.sel(A.either(inf, uge(Ee, A.add(w, K(126)))), sLim, umin(r, sLim)));
  const sscaled = A.sel(s, neg(sscaledMag), sscaledMag);
  // UINT / SINT: saturated.
  const xu = d16 ? A.and(x, K(0xffff)) : x;
  const xs = d16 ? A.sub(xu, A.shl(A.and(xu, K(0x8000)), K(1))) : x;
  const uint = umin(xu, uMax);
  const sLo = neg(A.add(sMax, K(1)));
  const sint = A.sel(A.slt(xs, sLo), sLo, A.sel(A.slt(sMax, xs), sMax, xs));
  // FLOAT: f16 (w 16, signed) or an unsigned float of mb = w - 5 mantissa bits, bias 15.
  const w16 = A.eq(w, K(16));
  const mb = A.sel(w16, K(10), A.sub(w, K(5)));
  const infBits = A.shl(K(31), mb);
  const maxFin = A.sub(infBits, K(1));
  const nanBits = A.or(A.or(infBits, A.shl(K(1), A.sub(mb, K(1)))), A.shr(Fm, A.sub(K(23), mb)));
  const isNormal = uge(Ee, K(113));
  const shift = A.sel(isNormal, A.sub(K(23), mb), umin(A.sub(A.sub(K(136), mb), umin(Ee, K(113))), K(31)));
  const base = A.sel(isNormal, A.shl(A.sub(Ee, K(113)), mb), K(0));
  const fr = A.add(base, round32(m, shift, floatTie));
  const over = A.either(uge(Ee, K(143)), uge(fr, infBits));
  const finite = A.sel(over, A.sel(A.both(w16, A.eq(K(floatTie === 'even' ? 1 : 0), K(1))), infBits, maxFin), fr);
  const sign16 = A.sel(A.both(w16, s), K(0x8000), K(0));
  const mag = A.sel(nan, nanBits, A.sel(inf, infBits, finite));
  let float = A.sel(A.both(s, A.both(A.not(w16), A.not(nan))), K(0), A.or(sign16, mag));
  if (d16) float = A.sel(w16, A.and(x, K(0xffff)), float);

  let out = A.sel(is('SINT'), sint, float);
  out = A.sel(is('UINT'), uint, out);
  out = A.sel(is('SSCALED'), sscaled, out);
  out = A.sel(is('USCALED'), uscaled, out);
  out = A.sel(is('SNORM'), snorm, out);
  out = A.sel(is('UNORM'), unorm, out);
  return A.and(out, uMax);
}

/** packComponent on numbers: the interpreter's conversion of one component. */
export function packComponentNumber(num: (typeof STORE_NUMS)[number], w: number, x: number, d16: boolean, rounding: FormatStoreRounding = FORMAT_STORE_ROUNDING): number {
  return packComponent(NUMBER_PACK_ARITH, STORE_NUMS.indexOf(num), w, x >>> 0, d16, rounding);
}
