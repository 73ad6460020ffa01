import type { DataType, InstrDef, OperandDef } from '../types.js';

// SOPC opcodes of gfx10 (all three targets), checked against LLVM 19. Every one writes SCC.
// Operands: ssrc0 [7:0], ssrc1 [15:8] (255 = one literal dword).

const is64 = (t: DataType) => t === 'b64' || t === 'i64' || t === 'u64';
const S = (name: string, type: DataType): OperandDef => ({ name, role: 'src', kind: 'ssrc', type, regClass: is64(type) ? 'SReg_64' : 'SReg_32' });
const op = (mnemonic: string, opcode: number, s0: DataType, s1: DataType): InstrDef =>
  ({ mnemonic, family: 'SOPC', opcode, operands: [S('ssrc0', s0), S('ssrc1', s1)], implicitWrites: ['SCC'] });

const CMP = ['eq', 'lg', 'gt', 'ge', 'lt', 'le'] as const;

export const SOPC_TABLE: readonly InstrDef[] = [
  ...CMP.map((c, i) => op(`s_cmp_${c}_i32`, i, 'i32', 'i32')),
  ...CMP.map((c, i) => op(`s_cmp_${c}_u32`, 6 + i, 'u32', 'u32')),
  op('s_bitcmp0_b32', 0x0c, 'b32', 'u32'),
  op('s_bitcmp1_b32', 0x0d, 'b32', 'u32'),
  op('s_bitcmp0_b64', 0x0e, 'b64', 'u32'),
  op('s_bitcmp1_b64', 0x0f, 'b64', 'u32'),
  op('s_cmp_eq_u64', 0x12, 'u64', 'u64'),
  op('s_cmp_lg_u64', 0x13, 'u64', 'u64'),
];
