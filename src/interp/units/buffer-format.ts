// Buffer format conversion of loaded components (MUBUF buffer_load_format_*, MTBUF
// tbuffer_load_format_*), for the formats whose components are narrower than 32 bits (the 32-bit
// UINT/SINT/FLOAT ones are the dwords themselves: buffer.ts). A component's bits r (width w) become,
// by number format (Vulkan spec, "Fixed-Point Data Conversions" and "Format Definition"; the same
// rules as D3D's data conversion, which the hardware implements for both):
//   UNORM    r / (2^w - 1)                     SNORM  max(s / (2^(w-1) - 1), -1)   (s: r sign-extended)
//   USCALED  r as a float                      SSCALED  s as a float
//   UINT     r zero-extended                   SINT     s sign-extended
//   FLOAT    16 bits: an f16; 11 and 10 bits: the unsigned small floats of 10_11_11 / 11_11_10
//            (5 exponent bits, bias 15, 6 or 5 mantissa bits), widened exactly
// into f32 bits, or with d16 into 16 bits: an f16 for UNORM/SNORM/USCALED/SSCALED/FLOAT, the low
// 16 bits of the integer for UINT/SINT. Choices (docs/TECHNICAL_DEBT.md): every inexact result is
// rounded to nearest even (the quotients are never halfway: their binary expansion repeats the w
// bits forever), f16 subnormals are kept, the float formats keep subnormals and NaN payloads
// (widened, not quieted), and -0 comes only from an f16 -0.
import * as F from '../../float/index.js';
import type { BufferFormatInfo } from '../../isa/tables/mtbuf.js';

const NEAREST: F.FloatEnv = { round: F.RNE, flushIn: false, flushOut: false, ieee: false, dx10Clamp: false };

/** Whether a format's loads convert (a component narrower than 32 bits): those are this file's. */
export const isPackedFormat = (f: BufferFormatInfo): boolean => f.widths.some((w) => w !== 32);

/** The number a UNORM/SNORM/USCALED/SSCALED component stands for (a double; exact but for the quotients). */
function real(f: BufferFormatInfo, w: number, r: number): number {
  const s = r >= 2 ** (w - 1) ? r - 2 ** w : r;
  switch (f.num) {
    case 'UNORM': return r / (2 ** w - 1);
    case 'SNORM': return Math.max(s / (2 ** (w - 1) - 1), -1);
    case 'USCALED': return r;
    default: return s; // SSCALED
  }
}

/** An unsigned float of `w` bits (5 exponent bits, w - 5 mantissa bits, or an f16 for w = 16) as the bits of `dst`. */
function widenFloat(w: number, r: number, dst: 'f16' | 'f32'): number {
  if (w === 16) return dst === 'f16' ? r : Number(F.convertBits(F.F16, F.F32, BigInt(r), NEAREST));
  const mb = w - 5, e = r >>> mb, m = r & ((1 << mb) - 1);
  // An f16 has the same exponent field and bias: the mantissa widens (subnormals, infinity and NaN too).
  if (dst === 'f16') return (e << 10) | (m << (10 - mb));
  if (e === 31) return 0x7f800000 | (m << (23 - mb)); // infinity, or NaN with its payload widened
  if (e === 0) {
    if (m === 0) return 0;
    // A subnormal: m * 2^(-14 - mb), normal in f32.
    const top = 31 - Math.clz32(m);
    return ((top - mb - 14 + 127) << 23) | ((m << (23 - top)) & 0x7fffff);
  }
  return ((e - 15 + 127) << 23) | (m << (23 - mb));
}

/** Component `c`'s 32-bit result (f32 bits, or the integer) from its bits `r`. */
export function convert32(f: BufferFormatInfo, c: number, r: number): number {
  const w = f.widths[c] ?? 32;
  switch (f.num) {
    case 'UINT': return r >>> 0;
    case 'SINT': return ((r << (32 - w)) >> (32 - w)) >>> 0;
    case 'FLOAT': return widenFloat(w, r, 'f32') >>> 0;
    default: return F.numberToF32(real(f, w, r)); // Math.fround: nearest even
  }
}

/** Component `c`'s 16-bit (d16) result from its bits `r`. */
export function convert16(f: BufferFormatInfo, c: number, r: number): number {
  const w = f.widths[c] ?? 32;
  switch (f.num) {
    case 'UINT': return r & 0xffff;
    case 'SINT': return ((r << (32 - w)) >> (32 - w)) & 0xffff;
    case 'FLOAT': return widenFloat(w, r, 'f16');
    default: return Number(F.convertBits(F.F64, F.F16, F.numberToF64(real(f, w, r)), NEAREST));
  }
}

/** The value of a component the format lacks: 0, and 1 (1.0 in the result's float type) for w. */
export function missing(f: BufferFormatInfo, c: number, d16: boolean): number {
  if (c !== 3) return 0;
  const int = f.num === 'UINT' || f.num === 'SINT';
  return int ? 1 : d16 ? 0x3c00 : 0x3f800000;
}
