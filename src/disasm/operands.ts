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

/** Text of an inline-constant code for an operand of this type. */
export function formatInline(code: number, type: DataType): string {
  if (code <= SRC.INLINE_INT_MAX) return String(inlineIntValue(code));
  const i = code - SRC.INLINE_FLOAT_MIN;
  const table = immWidthOf(type) === 64 ? INLINE_FLOAT_TEXT_64 : INLINE_FLOAT_TEXT_32;
  return table[i] ?? `<invalid inline ${code}>`;
}

const F32_INLINE_BITS = [0x3f000000, 0xbf000000, 0x3f800000, 0xbf800000, 0x40000000, 0xc0000000, 0x40800000, 0xc0800000, 0x3e22f983];
const F16_INLINE_BITS = [0x3800, 0xb800, 0x3c00, 0xbc00, 0x4000, 0xc000, 0x4400, 0xc400, 0x3118];
const F64_INLINE_HI = [0x3fe00000, 0xbfe00000, 0x3ff00000, 0xbff00000, 0x40000000, 0xc0000000, 0x40100000, 0xc0100000];

/**
 * Text of a 32-bit literal for an operand of this type. LLVM's disassembler turns the literal
 * into a plain immediate, so a literal that equals an inline value prints as that value.
 */
export function formatLiteral(value: number, type: DataType): string {
  const w = immWidthOf(type);
  if (w === 16) {
    const v = value & 0xffff;
    const s = (v << 16) >> 16;
    if (s >= -16 && s <= 64) return String(s);
    const fi = F16_INLINE_BITS.indexOf(v);
    if (fi >= 0) return INLINE_FLOAT_TEXT_32[fi] ?? hex(v);
    return hex(v);
  }
  if (w === 64) {
    const s = value | 0;
    if (isFloatType(type)) {
      // An fp64 literal is the high dword of the double.
      if (value === 0) return '0';
      const fi = F64_INLINE_HI.indexOf(value >>> 0);
      if (fi >= 0) return INLINE_FLOAT_TEXT_64[fi] ?? hex(value);
      return hex(value);
    }
    if (s >= -16 && s <= 64) return String(s);
    return hex(value);
  }
  const s = value | 0;
  if (s >= -16 && s <= 64) return String(s);
  const fi = F32_INLINE_BITS.indexOf(value >>> 0);
  if (fi >= 0) return INLINE_FLOAT_TEXT_32[fi] ?? hex(value);
  return hex(value);
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
