// Shared operand printing, matching LLVM 19's AMDGPUInstPrinter: register names, inline
// constants and literals as they print for each operand type.
import type { DataType } from '../isa/types.js';
import type { Operand, OperandValue } from '../decode/types.js';
import { SRC, inlineIntValue } from '../decode/operands.js';

export function hex(v: number): string {
  return '0x' + (v >>> 0).toString(16);
}

function regRange(prefix: string, index: number, count: number): string {
  return count === 1 ? `${prefix}${index}` : `${prefix}[${index}:${index + count - 1}]`;
}

export function formatSgpr(index: number, count: number): string {
  return regRange('s', index, count);
}

export function formatVgpr(index: number, count: number): string {
  return regRange('v', index, count);
}

export function formatTtmp(index: number, count: number): string {
  return regRange('ttmp', index, count);
}

/** Operand width class for constant printing. */
export type ImmWidth = 16 | 32 | 64;
export type ImmClass = 'int' | 'fp' | 'packed';

export function immWidthOf(type: DataType): ImmWidth {
  switch (type) {
    case 'b16': case 'i16': case 'u16': case 'f16':
      return 16;
    case 'b64': case 'i64': case 'u64': case 'f64':
      return 64;
    default:
      return 32;
  }
}

export function isFloatType(type: DataType): boolean {
  return type === 'f16' || type === 'f32' || type === 'f64' || type === 'v2f16';
}

const INLINE_FLOAT_TEXT_32 = ['0.5', '-0.5', '1.0', '-1.0', '2.0', '-2.0', '4.0', '-4.0', '0.15915494'] as const;
const INLINE_FLOAT_TEXT_64 = ['0.5', '-0.5', '1.0', '-1.0', '2.0', '-2.0', '4.0', '-4.0', '0.15915494309189532'] as const;

/** 16-bit integer operand types: LLVM prints their inline float constants as f16 bit patterns. */
function isInt16Type(type: DataType): boolean {
  return type === 'i16' || type === 'u16' || type === 'b16';
}

/**
 * Text of an inline-constant code for an operand of this type (LLVM's printImmediate*):
 * integers -16..64 print in decimal for every type; the float codes 240-248 print as floats,
 * 0.15915494309189532 for 64-bit operands, except for 16-bit integer operands, where LLVM prints
 * the f16 bit pattern in hex (0x3800 for 0.5).
 */
export function formatInline(code: number, type: DataType): string {
  if (code <= SRC.INLINE_INT_MAX) return String(inlineIntValue(code));
  const i = code - SRC.INLINE_FLOAT_MIN;
  if (isInt16Type(type)) {
    const bits = F16_INLINE_BITS[i];
    return bits === undefined ? `<invalid inline ${code}>` : hex(bits);
  }
  const table = immWidthOf(type) === 64 ? INLINE_FLOAT_TEXT_64 : INLINE_FLOAT_TEXT_32;
  return table[i] ?? `<invalid inline ${code}>`;
}

const F32_INLINE_BITS = [0x3f000000, 0xbf000000, 0x3f800000, 0xbf800000, 0x40000000, 0xc0000000, 0x40800000, 0xc0800000, 0x3e22f983];
const F16_INLINE_BITS = [0x3800, 0xb800, 0x3c00, 0xbc00, 0x4000, 0xc000, 0x4400, 0xc400, 0x3118];
const F64_INLINE_HI = [0x3fe00000, 0xbfe00000, 0x3ff00000, 0xbff00000, 0x40000000, 0xc0000000, 0x40100000, 0xc0100000];

/** The f32 inline-constant text of a 32-bit pattern, or undefined. */
function f32InlineText(value: number): string | undefined {
  const fi = F32_INLINE_BITS.indexOf(value >>> 0);
  return fi >= 0 ? INLINE_FLOAT_TEXT_32[fi] : undefined;
}

/**
 * Text of a 32-bit literal for an operand of this type. LLVM's disassembler turns the literal
 * into a plain immediate, so a literal that equals an inline value prints as that value.
 * Per LLVM 19 operand type (checked on VOP1/VOP2/VOPC/VOP3P operands):
 *  - 32-bit (and packed 16-bit integer): int32 -16..64 in decimal; the bits of an f32 inline
 *    float (incl. 1/(2*pi) = 0x3e22f983) as that float; otherwise hex of the dword.
 *  - f16: only the low 16 bits count: int16 -16..64 in decimal, f16 inline bits as the float,
 *    otherwise hex of the low 16 bits (0x12345678 prints 0x5678; 0x3f800000 prints 0).
 *  - i16/u16/b16: int32 -16..64 in decimal, an f32 inline pattern as that float (0x3f800000
 *    prints 1.0), otherwise hex of the low 16 bits.
 *  - v2f16: int32 -16..64 in decimal, a value < 0x10000 that is an f16 inline pattern as the
 *    float, otherwise hex of the whole dword.
 *  - f64: the literal is the high dword of the double: 0 prints 0, the high dwords of the
 *    inline doubles print as them (0x3ff00000 is 1.0), otherwise hex of the dword.
 *  - i64/u64/b64: the dword zero-extended: 0..64 in decimal, otherwise hex (0xfffffff0).
 */
export function formatLiteral(value: number, type: DataType): string {
  const u = value >>> 0;
  const s = value | 0;
  const w = immWidthOf(type);
  if (w === 16) {
    const v = u & 0xffff;
    if (isInt16Type(type)) {
      if (s >= -16 && s <= 64) return String(s);
      return f32InlineText(u) ?? hex(v);
    }
    const s16 = (v << 16) >> 16;
    if (s16 >= -16 && s16 <= 64) return String(s16);
    const fi = F16_INLINE_BITS.indexOf(v);
    if (fi >= 0) return INLINE_FLOAT_TEXT_32[fi] ?? hex(v);
    return hex(v);
  }
  if (w === 64) {
    if (isFloatType(type)) {
      if (u === 0) return '0';
      const fi = F64_INLINE_HI.indexOf(u);
      if (fi >= 0) return INLINE_FLOAT_TEXT_64[fi] ?? hex(u);
      return hex(u);
    }
    if (u <= 64) return String(u);
    return hex(u);
  }
  if (s >= -16 && s <= 64) return String(s);
  if (type === 'v2f16') {
    const fi = u <= 0xffff ? F16_INLINE_BITS.indexOf(u) : -1;
    return fi >= 0 ? (INLINE_FLOAT_TEXT_32[fi] ?? hex(u)) : hex(u);
  }
  return f32InlineText(u) ?? hex(u);
}

/** Text of a register or constant operand value. */
export function formatValue(v: OperandValue, type: DataType): string {
  switch (v.kind) {
    case 'sgpr': return formatSgpr(v.index, v.count);
    case 'vgpr': return formatVgpr(v.index, v.count);
    case 'ttmp': return formatTtmp(v.index, v.count);
    case 'special': return v.reg;
    case 'inline': return formatInline(v.code, type);
    case 'literal': return formatLiteral(v.value, type);
    case 'imm': return String(v.value);
    case 'reserved': return `<reserved ${v.code}>`;
  }
}

/** Operand text with neg/abs source modifiers as LLVM prints them (-|v0|). */
export function formatOperand(op: Operand, type: DataType): string {
  let t = formatValue(op.value, type);
  if (op.abs) t = `|${t}|`;
  if (op.neg) t = `-${t}`;
  if (op.sext) t = `sext(${t})`;
  return t;
}

/**
 * LLVM's diagnostic for an operand value outside a narrow register class (appended to the
 * operand text): '' when the value is allowed. Constants get the 'Invalid immediate' note;
 * scalar registers (SGPR, TTMP, vcc, m0, exec) in a VGPR class get the 'Invalid register' note;
 * src_lds_direct is allowed only in VRegOrLds_32 / SRegOrLds_32. null and the other src_*
 * specials pass. Covers VGPR_32, VRegOrLds_32 and SReg_32 (e.g. v_readfirstlane_b32 sdst).
 */
export function classDiagnostic(v: OperandValue, cls: 'VGPR_32' | 'VRegOrLds_32' | 'SReg_32'): string {
  if (v.kind === 'inline' || v.kind === 'literal') return '/*Invalid immediate*/';
  const lds = v.kind === 'special' && v.reg === 'src_lds_direct';
  const sreg = v.kind === 'sgpr' || v.kind === 'ttmp'
    || (v.kind === 'special' && (v.reg === 'vcc_lo' || v.reg === 'vcc_hi' || v.reg === 'vcc' || v.reg === 'm0'
      || v.reg === 'exec_lo' || v.reg === 'exec_hi' || v.reg === 'exec'));
  const bad = cls === 'VGPR_32' ? sreg || lds : cls === 'VRegOrLds_32' ? sreg : lds || v.kind === 'vgpr';
  return bad ? `/*Invalid register, operand has '${cls}' register class*/` : '';
}
