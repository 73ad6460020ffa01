import type { DataType, ImplicitReg, InstrDef, OperandDef } from '../types.js';

// SOP1 opcodes of gfx10 (the same on gfx1010, gfx1013 and gfx1030), checked against LLVM 19.
// Operands: sdst [22:16] (7-bit), ssrc0 [7:0] (8-bit, 255 = literal). 64-bit operands take
// SGPR pairs. flag 'ssrc:noimm': ssrc0 is register-only in LLVM (constants print with an
// /*Invalid immediate*/ comment but still decode). Register classes: LLVM's SReg_32/SReg_64 (SSrc_b32/SSrc_b64 for sources).

const D = (type: DataType, role: OperandDef['role'] = 'dst'): OperandDef =>
  ({ name: 'sdst', role, kind: 'sdst', type, regClass: type === 'b64' ? 'SReg_64' : 'SReg_32' });
const S = (type: DataType): OperandDef =>
  ({ name: 'ssrc0', role: 'src', kind: 'ssrc', type, regClass: (type === 'b64' || type === 'i64' || type === 'u64') ? 'SReg_64' : 'SReg_32' });

function op(mnemonic: string, opcode: number, operands: OperandDef[], reads: ImplicitReg[] = [], writes: ImplicitReg[] = [], flags: string[] = []): InstrDef {
  const d: { -readonly [K in keyof InstrDef]: InstrDef[K] } = { mnemonic, family: 'SOP1', opcode, operands };
  if (flags.length) d.flags = flags;
  if (reads.length) d.implicitReads = reads;
  if (writes.length) d.implicitWrites = writes;
  return d;
}

const SCC: ImplicitReg[] = ['SCC'];
const SAVEEXEC = (m: string, o: number, t: DataType) => op(m, o, [D(t), S(t)], ['EXEC'], ['EXEC', 'SCC']);

export const SOP1_TABLE: readonly InstrDef[] = [
  op('s_mov_b32', 0x03, [D('b32'), S('b32')]),
  op('s_mov_b64', 0x04, [D('b64'), S('b64')]),
  op('s_cmov_b32', 0x05, [D('b32'), S('b32')], SCC),
  op('s_cmov_b64', 0x06, [D('b64'), S('b64')], SCC),
  op('s_not_b32', 0x07, [D('b32'), S('b32')], [], SCC),
  op('s_not_b64', 0x08, [D('b64'), S('b64')], [], SCC),
  op('s_wqm_b32', 0x09, [D('b32'), S('b32')], [], SCC),
  op('s_wqm_b64', 0x0a, [D('b64'), S('b64')], [], SCC),
  op('s_brev_b32', 0x0b, [D('b32'), S('b32')]),
  op('s_brev_b64', 0x0c, [D('b64'), S('b64')]),
  op('s_bcnt0_i32_b32', 0x0d, [D('i32'), S('b32')], [], SCC),
  op('s_bcnt0_i32_b64', 0x0e, [D('i32'), S('b64')], [], SCC),
  op('s_bcnt1_i32_b32', 0x0f, [D('i32'), S('b32')], [], SCC),
  op('s_bcnt1_i32_b64', 0x10, [D('i32'), S('b64')], [], SCC),
  op('s_ff0_i32_b32', 0x11, [D('i32'), S('b32')]),
  op('s_ff0_i32_b64', 0x12, [D('i32'), S('b64')]),
  op('s_ff1_i32_b32', 0x13, [D('i32'), S('b32')]),
  op('s_ff1_i32_b64', 0x14, [D('i32'), S('b64')]),
  op('s_flbit_i32_b32', 0x15, [D('i32'), S('b32')]),
  op('s_flbit_i32_b64', 0x16, [D('i32'), S('b64')]),
  op('s_flbit_i32', 0x17, [D('i32'), S('i32')]),
  op('s_flbit_i32_i64', 0x18, [D('i32'), S('i64')]),
  op('s_sext_i32_i8', 0x19, [D('i32'), S('i8')]),
  op('s_sext_i32_i16', 0x1a, [D('i32'), S('i16')]),
  op('s_bitset0_b32', 0x1b, [D('b32', 'srcdst'), S('u32')]),
  op('s_bitset0_b64', 0x1c, [D('b64', 'srcdst'), S('u32')]),
  op('s_bitset1_b32', 0x1d, [D('b32', 'srcdst'), S('u32')]),
  op('s_bitset1_b64', 0x1e, [D('b64', 'srcdst'), S('u32')]),
  op('s_getpc_b64', 0x1f, [D('b64')], [], [], ['pc']),
  op('s_setpc_b64', 0x20, [S('b64')], [], [], ['ssrc:noimm', 'branch', 'indirect']),
  op('s_swappc_b64', 0x21, [D('b64'), S('b64')], [], [], ['branch', 'indirect', 'call']),
  op('s_rfe_b64', 0x22, [S('b64')], [], [], ['ssrc:noimm', 'branch', 'indirect']),
  SAVEEXEC('s_and_saveexec_b64', 0x24, 'b64'),
  SAVEEXEC('s_or_saveexec_b64', 0x25, 'b64'),
  SAVEEXEC('s_xor_saveexec_b64', 0x26, 'b64'),
  SAVEEXEC('s_andn2_saveexec_b64', 0x27, 'b64'),
  SAVEEXEC('s_orn2_saveexec_b64', 0x28, 'b64'),
  SAVEEXEC('s_nand_saveexec_b64', 0x29, 'b64'),
  SAVEEXEC('s_nor_saveexec_b64', 0x2a, 'b64'),
  SAVEEXEC('s_xnor_saveexec_b64', 0x2b, 'b64'),
  op('s_quadmask_b32', 0x2c, [D('b32'), S('b32')], [], SCC),
  op('s_quadmask_b64', 0x2d, [D('b64'), S('b64')], [], SCC),
  op('s_movrels_b32', 0x2e, [D('b32'), S('b32')], ['M0'], [], ['ssrc:noimm']),
  op('s_movrels_b64', 0x2f, [D('b64'), S('b64')], ['M0'], [], ['ssrc:noimm']),
  op('s_movreld_b32', 0x30, [D('b32'), S('b32')], ['M0']),
  op('s_movreld_b64', 0x31, [D('b64'), S('b64')], ['M0']),
  op('s_abs_i32', 0x34, [D('i32'), S('i32')], [], SCC),
  SAVEEXEC('s_andn1_saveexec_b64', 0x37, 'b64'),
  SAVEEXEC('s_orn1_saveexec_b64', 0x38, 'b64'),
  SAVEEXEC('s_andn1_wrexec_b64', 0x39, 'b64'),
  SAVEEXEC('s_andn2_wrexec_b64', 0x3a, 'b64'),
  op('s_bitreplicate_b64_b32', 0x3b, [D('b64'), S('b32')]),
  SAVEEXEC('s_and_saveexec_b32', 0x3c, 'b32'),
  SAVEEXEC('s_or_saveexec_b32', 0x3d, 'b32'),
  SAVEEXEC('s_xor_saveexec_b32', 0x3e, 'b32'),
  SAVEEXEC('s_andn2_saveexec_b32', 0x3f, 'b32'),
  SAVEEXEC('s_orn2_saveexec_b32', 0x40, 'b32'),
  SAVEEXEC('s_nand_saveexec_b32', 0x41, 'b32'),
  SAVEEXEC('s_nor_saveexec_b32', 0x42, 'b32'),
  SAVEEXEC('s_xnor_saveexec_b32', 0x43, 'b32'),
  SAVEEXEC('s_andn1_saveexec_b32', 0x44, 'b32'),
  SAVEEXEC('s_orn1_saveexec_b32', 0x45, 'b32'),
  SAVEEXEC('s_andn1_wrexec_b32', 0x46, 'b32'),
  SAVEEXEC('s_andn2_wrexec_b32', 0x47, 'b32'),
  op('s_movrelsd_2_b32', 0x49, [D('b32'), S('b32')], ['M0']),
];
