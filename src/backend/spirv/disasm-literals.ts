// Literal text as SPIRV-Tools' spirv-dis prints it (source/disassemble.cpp EmitNumericLiteral,
// source/util/hex_float.h): integers in decimal; zero and normal f32/f64 values as C++ streams
// print them with max_digits10 significant digits (printf %.9g / %.17g: shortest of fixed and
// exponent form, trailing zeros dropped, ties to even); subnormals, infinities and NaNs, and every
// f16, as hex floats (`0x1.8p+128`). Core: no Node APIs.

/** An IEEE binary format: exponent and fraction widths. */
interface Format { readonly exp: number; readonly frac: number }
const F16: Format = { exp: 5, frac: 10 };
const F32: Format = { exp: 8, frac: 23 };
const F64: Format = { exp: 11, frac: 52 };

const pow10 = (k: number): bigint => 10n ** BigInt(k);

/**
 * printf("%.{p}g") of the positive rational n/d, computed exactly (glibc prints the exact binary
 * value rounded to p significant digits, ties to even; JS's toPrecision rounds ties away from zero).
 */
function general(n: bigint, d: bigint, p: number): string {
  // The decimal exponent k with 10^k <= n/d < 10^(k+1), from the digit counts, then corrected.
  let k = n.toString().length - d.toString().length;
  const atLeast = (e: number): boolean => (e >= 0 ? n >= d * pow10(e) : n * pow10(-e) >= d);
  while (!atLeast(k)) k--;
  while (atLeast(k + 1)) k++;
  const s = p - 1 - k;
  const num = s >= 0 ? n * pow10(s) : n;
  const den = s >= 0 ? d : d * pow10(-s);
  let q = num / den;
  const r2 = 2n * (num % den);
  if (r2 > den || (r2 === den && (q & 1n) === 1n)) q++;
  if (q === pow10(p)) { q /= 10n; k++; }
  const digits = q.toString();
  const trim = (frac: string): string => frac.replace(/0+$/, '');
  if (k < -4 || k >= p) {
    const frac = trim(digits.slice(1));
    return `${digits[0] ?? ''}${frac ? `.${frac}` : ''}e${k < 0 ? '-' : '+'}${String(Math.abs(k)).padStart(2, '0')}`;
  }
  if (k < 0) return `0.${trim('0'.repeat(-k - 1) + digits)}`;
  const frac = trim(digits.slice(k + 1));
  return digits.slice(0, k + 1) + (frac ? `.${frac}` : '');
}

/** hex_float.h's HexFloat output: sign, 0x1 (0x0 for zero), the fraction's nibbles without trailing zeros, p and the exponent. */
function hexFloat(bits: bigint, f: Format): string {
  const nibbles = Math.ceil(f.frac / 4);
  const width = BigInt(nibbles * 4);
  const sign = (bits >> BigInt(f.exp + f.frac)) & 1n ? '-' : '';
  const exponent = Number((bits >> BigInt(f.frac)) & ((1n << BigInt(f.exp)) - 1n));
  let fraction = (bits & ((1n << BigInt(f.frac)) - 1n)) << (width - BigInt(f.frac));
  const zero = exponent === 0 && fraction === 0n;
  let e = zero ? 0 : exponent - ((1 << (f.exp - 1)) - 1);
  if (exponent === 0 && !zero) {
    // A subnormal is normalised: shift up to the leading one, which then becomes implicit.
    const top = 1n << (width - 1n);
    while ((fraction & top) === 0n) { fraction <<= 1n; e--; }
    fraction = (fraction << 1n) & ((1n << width) - 1n);
  }
  let shown = nibbles;
  while (shown > 0 && (fraction & 0xfn) === 0n) { fraction >>= 4n; shown--; }
  const frac = shown > 0 ? `.${fraction.toString(16).padStart(shown, '0')}` : '';
  return `${sign}0x${zero ? '0' : '1'}${frac}p${e >= 0 ? '+' : ''}${e}`;
}

/** FloatProxy<float/double> output: zero and normal values in decimal, the rest as hex floats. */
function ieee(bits: bigint, f: Format, digits: number): string {
  const exponent = Number((bits >> BigInt(f.frac)) & ((1n << BigInt(f.exp)) - 1n));
  const fraction = bits & ((1n << BigInt(f.frac)) - 1n);
  const negative = ((bits >> BigInt(f.exp + f.frac)) & 1n) === 1n;
  if (exponent === 0 && fraction === 0n) return negative ? '-0' : '0';
  if (exponent === 0 || exponent === (1 << f.exp) - 1) return hexFloat(bits, f);
  // value = (2^frac + fraction) * 2^(exponent - bias - frac), exactly.
  const m = (1n << BigInt(f.frac)) | fraction;
  const e = exponent - ((1 << (f.exp - 1)) - 1) - f.frac;
  const text = e >= 0 ? general(m << BigInt(e), 1n, digits) : general(m, 1n << BigInt(-e), digits);
  return negative ? `-${text}` : text;
}

/** A numeric type as the parser records it from OpTypeInt / OpTypeFloat. */
export interface NumberKind { readonly kind: 'signed' | 'unsigned' | 'float'; readonly width: number }

/**
 * The text of a typed literal (OpConstant, OpSpecConstant, OpSwitch cases) of `words.length`
 * words: one word is an int32/uint32, an f16 (width 16, the low half) or an f32 (any other
 * width); two words (low first) an int64/uint64 or an f64; other counts print nothing, as spirv-dis.
 */
export function typedLiteral(type: NumberKind, words: ArrayLike<number>): string {
  const lo = (words[0] ?? 0) >>> 0;
  if (words.length === 1) {
    if (type.kind === 'signed') return String(lo | 0);
    if (type.kind === 'unsigned') return String(lo);
    return type.width === 16 ? hexFloat(BigInt(lo & 0xffff), F16) : ieee(BigInt(lo), F32, 9);
  }
  if (words.length === 2) {
    const v = (BigInt((words[1] ?? 0) >>> 0) << 32n) | BigInt(lo);
    if (type.kind === 'signed') return BigInt.asIntN(64, v).toString();
    if (type.kind === 'unsigned') return v.toString();
    return ieee(v, F64, 17);
  }
  return '';
}

/**
 * UTF-8 bytes as a string. spirv-dis copies a literal string's bytes out as they are; a JS string
 * cannot hold invalid UTF-8, so invalid sequences become U+FFFD as the WHATWG Encoding standard's
 * decoder (TextDecoder, Buffer.toString) replaces them: one per maximal invalid subpart.
 */
export function utf8(bytes: readonly number[]): string {
  let s = '';
  let need = 0;
  let seen = 0;
  let cp = 0;
  let lower = 0x80;
  let upper = 0xbf;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i] ?? 0;
    if (need === 0) {
      if (b <= 0x7f) s += String.fromCharCode(b);
      else if (b >= 0xc2 && b <= 0xdf) { need = 1; cp = b & 0x1f; }
      else if (b >= 0xe0 && b <= 0xef) { need = 2; cp = b & 0x0f; if (b === 0xe0) lower = 0xa0; if (b === 0xed) upper = 0x9f; }
      else if (b >= 0xf0 && b <= 0xf4) { need = 3; cp = b & 0x07; if (b === 0xf0) lower = 0x90; if (b === 0xf4) upper = 0x8f; }
      else s += '\ufffd';
      continue;
    }
    if (b < lower || b > upper) {
      // The sequence so far is one replacement; this byte starts afresh.
      s += '\ufffd';
      need = seen = cp = 0;
      lower = 0x80;
      upper = 0xbf;
      i--;
      continue;
    }
    lower = 0x80;
    upper = 0xbf;
    cp = (cp << 6) | (b & 0x3f);
    if (++seen === need) { s += String.fromCodePoint(cp); need = seen = cp = 0; }
  }
  return need === 0 ? s : `${s}\ufffd`;
}
