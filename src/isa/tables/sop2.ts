import type { DataType, ImplicitReg, InstrDef, OperandDef } from '../types.js';

// SOP2 opcodes of gfx10 (the same on all three targets), checked against LLVM 19.
// Operands in assembly order: sdst [22:16], ssrc0 [7:0], ssrc1 [15:8].

const is64 = (t: DataType) => t === 'b64' || t === 'i64' || t === 'u64';
const D = (type: DataType): OperandDef => ({ name: 'sdst', role: 'dst', kind: 'sdst', type, regClass: is64(type) ? 'SReg_64' : 'SReg_32' });
const S0 = (type: DataType): OperandDef => ({ name: 'ssrc0', role: 'src', kind: 'ssrc', type, regClass: is64(type) ? 'SReg_64' : 'SReg_32' });
const S1 = (type: DataType): OperandDef => ({ name: 'ssrc1', role: 'src', kind: 'ssrc', type, regClass: is64(type) ? 'SReg_64' : 'SReg_32' });

function op(mnemonic: string, opcode: number, d: DataType, s0: DataType, s1: DataType, reads: ImplicitReg[] = [], writes: ImplicitReg[] = []): InstrDef {
  const def: { -readonly [K in keyof InstrDef]: InstrDef[K] } = { mnemonic, family: 'SOP2', opcode, operands: [D(d), S0(s0), S1(s1)] };
  if (reads.length) def.implicitReads = reads;
  if (writes.length) def.implicitWrites = writes;
  return def;
}

const SCC: ImplicitReg[] = ['SCC'];
/** A 32- and 64-bit pair of SCC-writing bitwise ops at opcode, opcode+1. */
const pair = (name: string, opcode: number): InstrDef[] => [
  op(`s_${name}_b32`, opcode, 'b32', 'b32', 'b32', [], SCC),
  op(`s_${name}_b64`, opcode + 1, 'b64', 'b64', 'b64', [], SCC),
];

export const SOP2_TABLE: readonly InstrDef[] = [
  op('s_add_u32', 0x00, 'u32', 'u32', 'u32', [], SCC),
  op('s_sub_u32', 0x01, 'u32', 'u32', 'u32', [], SCC),
  op('s_add_i32', 0x02, 'i32', 'i32', 'i32', [], SCC),
  op('s_sub_i32', 0x03, 'i32', 'i32', 'i32', [], SCC),
  op('s_addc_u32', 0x04, 'u32', 'u32', 'u32', SCC, SCC),
  op('s_subb_u32', 0x05, 'u32', 'u32', 'u32', SCC, SCC),
  op('s_min_i32', 0x06, 'i32', 'i32', 'i32', [], SCC),
  op('s_min_u32', 0x07, 'u32', 'u32', 'u32', [], SCC),
  op('s_max_i32', 0x08, 'i32', 'i32', 'i32', [], SCC),
  op('s_max_u32', 0x09, 'u32', 'u32', 'u32', [], SCC),
  op('s_cselect_b32', 0x0a, 'b32', 'b32', 'b32', SCC),
  op('s_cselect_b64', 0x0b, 'b64', 'b64', 'b64', SCC),
  ...pair('and', 0x0e),
  ...pair('or', 0x10),
  ...pair('xor', 0x12),
  ...pair('andn2', 0x14),
  ...pair('orn2', 0x16),
  ...pair('nand', 0x18),
  ...pair('nor', 0x1a),
  ...pair('xnor', 0x1c),
  op('s_lshl_b32', 0x1e, 'b32', 'b32', 'u32', [], SCC),
  op('s_lshl_b64', 0x1f, 'b64', 'b64', 'u32', [], SCC),
  op('s_lshr_b32', 0x20, 'b32', 'b32', 'u32', [], SCC),
  op('s_lshr_b64', 0x21, 'b64', 'b64', 'u32', [], SCC),
  op('s_ashr_i32', 0x22, 'i32', 'i32', 'u32', [], SCC),
  op('s_ashr_i64', 0x23, 'i64', 'i64', 'u32', [], SCC),
  op('s_bfm_b32', 0x24, 'b32', 'u32', 'u32'),
  op('s_bfm_b64', 0x25, 'b64', 'u32', 'u32'),
  op('s_mul_i32', 0x26, 'i32', 'i32', 'i32'),
  op('s_bfe_u32', 0x27, 'u32', 'u32', 'u32', [], SCC),
  op('s_bfe_i32', 0x28, 'i32', 'i32', 'u32', [], SCC),
  op('s_bfe_u64', 0x29, 'u64', 'u64', 'u32', [], SCC),
  op('s_bfe_i64', 0x2a, 'i64', 'i64', 'u32', [], SCC),
  op('s_absdiff_i32', 0x2c, 'i32', 'i32', 'i32', [], SCC),
  op('s_lshl1_add_u32', 0x2e, 'u32', 'u32', 'u32', [], SCC),
  op('s_lshl2_add_u32', 0x2f, 'u32', 'u32', 'u32', [], SCC),
  op('s_lshl3_add_u32', 0x30, 'u32', 'u32', 'u32', [], SCC),
  op('s_lshl4_add_u32', 0x31, 'u32', 'u32', 'u32', [], SCC),
  op('s_pack_ll_b32_b16', 0x32, 'b32', 'b32', 'b32'),
  op('s_pack_lh_b32_b16', 0x33, 'b32', 'b32', 'b32'),
  op('s_pack_hh_b32_b16', 0x34, 'b32', 'b32', 'b32'),
  op('s_mul_hi_u32', 0x35, 'u32', 'u32', 'u32'),
  op('s_mul_hi_i32', 0x36, 'i32', 'i32', 'i32'),
];
