import type { DataType, InstrDef, OperandDef } from '../types.js';

// MTBUF opcodes (typed buffer access: the data/number format comes from the instruction's 7-bit
// unified format field, not from the V#). Opcode field: word 0 bits [18:16] plus word 1 bit 21
// as opcode bit 3 on gfx10; the format is word 0 bits [25:19]. Sources: RDNA2 ISA reference
// ("MTBUF"), LLVM BUFInstructions.td; checked against LLVM 19 on gfx1010/gfx1013/gfx1030.
// Operands and flags as in mubuf.ts; LLVM 19 rejects tfe on every MTBUF opcode ('noTfe') and
// MTBUF has no lds bit.

function vdata(role: 'dst' | 'src', type: DataType, dwords: number): OperandDef {
  return { name: 'vdata', role, kind: 'vgpr', type, dwords };
}

const ADDR: readonly OperandDef[] = [
  { name: 'vaddr', role: 'src', kind: 'vgpr', type: 'u32', optional: true },
  { name: 'srsrc', role: 'src', kind: 'srsrc', type: 'b128' },
  { name: 'soffset', role: 'src', kind: 'soffset', type: 'u32' },
];

function tbuf(mnemonic: string, opcode: number, isStore: boolean, type: DataType, dwords: number, d16: boolean): InstrDef {
  return {
    mnemonic, family: 'MTBUF', opcode,
    operands: [vdata(isStore ? 'src' : 'dst', type, dwords), ...ADDR],
    implicitReads: ['EXEC'],
    flags: [isStore ? 'store' : 'load', 'noTfe', ...(d16 ? ['d16'] : [])],
  };
}

export const MTBUF_TABLE: readonly InstrDef[] = [
  tbuf('tbuffer_load_format_x', 0, false, 'b32', 1, false),
  tbuf('tbuffer_load_format_xy', 1, false, 'b32', 2, false),
  tbuf('tbuffer_load_format_xyz', 2, false, 'b32', 3, false),
  tbuf('tbuffer_load_format_xyzw', 3, false, 'b32', 4, false),
  tbuf('tbuffer_store_format_x', 4, true, 'b32', 1, false),
  tbuf('tbuffer_store_format_xy', 5, true, 'b32', 2, false),
  tbuf('tbuffer_store_format_xyz', 6, true, 'b32', 3, false),
  tbuf('tbuffer_store_format_xyzw', 7, true, 'b32', 4, false),
  tbuf('tbuffer_load_format_d16_x', 8, false, 'b16', 1, true),
  tbuf('tbuffer_load_format_d16_xy', 9, false, 'v2b16', 1, true),
  tbuf('tbuffer_load_format_d16_xyz', 10, false, 'b16', 2, true),
  tbuf('tbuffer_load_format_d16_xyzw', 11, false, 'b16', 2, true),
  tbuf('tbuffer_store_format_d16_x', 12, true, 'b16', 1, true),
  tbuf('tbuffer_store_format_d16_xy', 13, true, 'v2b16', 1, true),
  tbuf('tbuffer_store_format_d16_xyz', 14, true, 'b16', 2, true),
  tbuf('tbuffer_store_format_d16_xyzw', 15, true, 'b16', 2, true),
];

/**
 * gfx10 unified buffer formats (the MTBUF format field, word 0 bits [25:19]), by value:
 * BUF_FMT_<component bits>_<number format>. Values 78-127 are unassigned; LLVM 19 prints those
 * numerically (format:N) and still accepts the instruction.
 */
export const GFX10_BUFFER_FORMATS: readonly string[] = (
  'INVALID 8_UNORM 8_SNORM 8_USCALED 8_SSCALED 8_UINT 8_SINT 16_UNORM 16_SNORM 16_USCALED ' +
  '16_SSCALED 16_UINT 16_SINT 16_FLOAT 8_8_UNORM 8_8_SNORM 8_8_USCALED 8_8_SSCALED 8_8_UINT ' +
  '8_8_SINT 32_UINT 32_SINT 32_FLOAT 16_16_UNORM 16_16_SNORM 16_16_USCALED 16_16_SSCALED ' +
  '16_16_UINT 16_16_SINT 16_16_FLOAT 10_11_11_UNORM 10_11_11_SNORM 10_11_11_USCALED ' +
  '10_11_11_SSCALED 10_11_11_UINT 10_11_11_SINT 10_11_11_FLOAT 11_11_10_UNORM 11_11_10_SNORM ' +
  '11_11_10_USCALED 11_11_10_SSCALED 11_11_10_UINT 11_11_10_SINT 11_11_10_FLOAT ' +
  '10_10_10_2_UNORM 10_10_10_2_SNORM 10_10_10_2_USCALED 10_10_10_2_SSCALED 10_10_10_2_UINT ' +
  '10_10_10_2_SINT 2_10_10_10_UNORM 2_10_10_10_SNORM 2_10_10_10_USCALED 2_10_10_10_SSCALED ' +
  '2_10_10_10_UINT 2_10_10_10_SINT 8_8_8_8_UNORM 8_8_8_8_SNORM 8_8_8_8_USCALED ' +
  '8_8_8_8_SSCALED 8_8_8_8_UINT 8_8_8_8_SINT 32_32_UINT 32_32_SINT 32_32_FLOAT ' +
  '16_16_16_16_UNORM 16_16_16_16_SNORM 16_16_16_16_USCALED 16_16_16_16_SSCALED ' +
  '16_16_16_16_UINT 16_16_16_16_SINT 16_16_16_16_FLOAT 32_32_32_UINT 32_32_32_SINT ' +
  '32_32_32_FLOAT 32_32_32_32_UINT 32_32_32_32_SINT 32_32_32_32_FLOAT'
).split(' ').map((s) => `BUF_FMT_${s}`);

/** The format value LLVM treats as the default and omits from the text (BUF_FMT_8_UNORM). */
export const GFX10_DEFAULT_BUFFER_FORMAT = 1;

/** A buffer format's number format (how a component's bits become a value). */
export type BufferNumFormat = 'UNORM' | 'SNORM' | 'USCALED' | 'SSCALED' | 'UINT' | 'SINT' | 'FLOAT';

/** The layout of a gfx10 buffer format: its components x..w (bit width and shift in the element) and size. */
export interface BufferFormatInfo {
  readonly name: string;
  readonly num: BufferNumFormat;
  /** Per component x, y, z, w present: its width in bits. */
  readonly widths: readonly number[];
  /** Per component: its lowest bit in the little-endian element. */
  readonly shifts: readonly number[];
  /** The element's size in bytes (1, 2, 4, 8, 12 or 16). */
  readonly bytes: number;
}

/**
 * The layout of format value `k`, or undefined (INVALID, unassigned). The name lists the
 * component widths from the element's most significant bits down, so the last number is x, in
 * the lowest bits: 10_11_11 is x 11 bits (bits 10:0), y 11 (21:11), z 10 (31:22), which is how
 * Mesa maps R11G11B10_FLOAT to BUF_DATA_FORMAT_10_11_11 and R10G10B10A2 (x in the low 10 bits, w
 * the top 2) to 2_10_10_10 (src/amd/common/ac_formats.c, ac_translate_buffer_dataformat); the
 * same-width formats (8_8, 16_16_16_16, 32_32 ...) have x at the lowest address.
 */
export function bufferFormatInfo(k: number): BufferFormatInfo | undefined {
  const name = GFX10_BUFFER_FORMATS[k];
  const m = name ? /^BUF_FMT_((?:\d+_)+)(UNORM|SNORM|USCALED|SSCALED|UINT|SINT|FLOAT)$/.exec(name) : null;
  if (!name || !m || !m[1] || !m[2]) return undefined;
  const widths = m[1].split('_').filter((s) => s !== '').map(Number).reverse();
  const shifts: number[] = [];
  let at = 0;
  for (const w of widths) { shifts.push(at); at += w; }
  return { name, num: m[2] as BufferNumFormat, widths, shifts, bytes: at / 8 };
}
