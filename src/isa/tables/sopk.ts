import type { DataType, ImplicitReg, InstrDef, OperandDef } from '../types.js';

// SOPK opcodes of gfx10 (all three targets), checked against LLVM 19.
// Fields: sdst [22:16] (a source for s_cmpk_*, s_setreg_b32, s_waitcnt_*cnt), simm16 [15:0].
// simm16 text (flags): 'imm:hex' always 0x-hex; 'imm:version' s_version's UC_VERSION_* form;
// kind 'label' (s_call_b64, s_subvector_loop_*; flag 'branch', target pc + 4 + 4 * sext(simm16)):
// unsigned decimal; kind 'hwreg': hwreg(...).
// s_setreg_imm32_b32 reads a literal dword after the instruction.

const R = (name: string, role: OperandDef['role'], type: DataType): OperandDef =>
  ({ name, role, kind: 'sdst', type, regClass: type === 'b64' ? 'SReg_64' : 'SReg_32' });
const IMM = (type: DataType): OperandDef => ({ name: 'simm16', role: 'src', kind: 'simm16', type });
const HWREG: OperandDef = { name: 'simm16', role: 'src', kind: 'hwreg', type: 'u16' };
const LABEL: OperandDef = { name: 'simm16', role: 'src', kind: 'label', type: 'i16' };

function op(mnemonic: string, opcode: number, operands: OperandDef[], extra: Partial<Pick<InstrDef, 'implicitReads' | 'implicitWrites' | 'flags'>> = {}): InstrDef {
  return { mnemonic, family: 'SOPK', opcode, operands, ...extra };
}

const HEX = { flags: ['imm:hex'] };
const SCCW = { implicitWrites: ['SCC'] as ImplicitReg[], flags: ['imm:hex'] };
const CMP = ['eq', 'lg', 'gt', 'ge', 'lt', 'le'] as const;

export const SOPK_TABLE: readonly InstrDef[] = [
  op('s_movk_i32', 0x00, [R('sdst', 'dst', 'i32'), IMM('i16')], HEX),
  op('s_version', 0x01, [IMM('u16')], { flags: ['imm:version'] }),
  op('s_cmovk_i32', 0x02, [R('sdst', 'dst', 'i32'), IMM('i16')], { implicitReads: ['SCC'], flags: ['imm:hex'] }),
  ...CMP.map((c, i) => op(`s_cmpk_${c}_i32`, 0x03 + i, [R('sdst', 'src', 'i32'), IMM('i16')], SCCW)),
  ...CMP.map((c, i) => op(`s_cmpk_${c}_u32`, 0x09 + i, [R('sdst', 'src', 'u32'), IMM('u16')], SCCW)),
  op('s_addk_i32', 0x0f, [R('sdst', 'srcdst', 'i32'), IMM('i16')], SCCW),
  op('s_mulk_i32', 0x10, [R('sdst', 'srcdst', 'i32'), IMM('i16')], HEX),
  // hwreg id 1 is MODE: the analyses refine MODE by the decoded id; recorded conservatively.
  op('s_getreg_b32', 0x12, [R('sdst', 'dst', 'b32'), HWREG], { implicitReads: ['MODE'] }),
  op('s_setreg_b32', 0x13, [HWREG, R('sdst', 'src', 'b32')], { implicitWrites: ['MODE'] }),
  op('s_setreg_imm32_b32', 0x15, [HWREG, { name: 'imm32', role: 'src', kind: 'literal', type: 'b32' }], { implicitWrites: ['MODE'] }),
  op('s_call_b64', 0x16, [R('sdst', 'dst', 'b64'), LABEL], { flags: ['branch', 'call'] }),
  op('s_waitcnt_vscnt', 0x17, [R('sdst', 'src', 'u32'), IMM('u16')], HEX),
  op('s_waitcnt_vmcnt', 0x18, [R('sdst', 'src', 'u32'), IMM('u16')], HEX),
  op('s_waitcnt_expcnt', 0x19, [R('sdst', 'src', 'u32'), IMM('u16')], HEX),
  op('s_waitcnt_lgkmcnt', 0x1a, [R('sdst', 'src', 'u32'), IMM('u16')], HEX),
  op('s_subvector_loop_begin', 0x1b, [R('sdst', 'dst', 'b32'), LABEL], { flags: ['branch'], implicitReads: ['EXEC'], implicitWrites: ['EXEC'] }),
  op('s_subvector_loop_end', 0x1c, [R('sdst', 'src', 'b32'), LABEL], { flags: ['branch'], implicitReads: ['EXEC'], implicitWrites: ['EXEC'] }),
];
