import type { DataType, ImplicitReg, InstrDef, OperandDef, OperandKind } from '../types.js';

// SOPP opcodes of gfx10, checked against LLVM 19. simm16 [15:0]; an opcode without operands
// must have simm16 = 0. simm16 text: flags 'imm:hex' (always 0x-hex), 'imm:small' (decimal up
// to 64, else 0x-hex), 'imm:depctr' (depctr_*(n) fields); kinds 'label' (branch offset in
// dwords, unsigned decimal), 'waitcnt', 'sendmsg'. s_endpgm's operand is optional (printed
// when non-zero). flag 'branch': simm16 is a branch offset; target = pc + 4 + 4 * sext(simm16).
// s_endpgm*, s_code_end end the program: flag 'end'.

const I = (kind: OperandKind, type: DataType, optional = false): OperandDef =>
  optional ? { name: 'simm16', role: 'src', kind, type, optional } : { name: 'simm16', role: 'src', kind, type };

function op(mnemonic: string, opcode: number, operands: OperandDef[], flags: string[] = [], reads: ImplicitReg[] = [], writes: ImplicitReg[] = []): InstrDef {
  const d: { -readonly [K in keyof InstrDef]: InstrDef[K] } = { mnemonic, family: 'SOPP', opcode, operands };
  if (reads.length) d.implicitReads = reads;
  if (writes.length) d.implicitWrites = writes;
  if (flags.length) d.flags = flags;
  return d;
}

const SMALL = (m: string, o: number, reads: ImplicitReg[] = [], writes: ImplicitReg[] = []) => op(m, o, [I('simm16', 'u16')], ['imm:small'], reads, writes);
const HEX = (m: string, o: number, reads: ImplicitReg[] = [], writes: ImplicitReg[] = []) => op(m, o, [I('simm16', 'u16')], ['imm:hex'], reads, writes);
const BR = (m: string, o: number, reads: ImplicitReg[] = []) => op(m, o, [I('label', 'i16')], ['branch'], reads);

export const SOPP_TABLE: readonly InstrDef[] = [
  SMALL('s_nop', 0x00),
  op('s_endpgm', 0x01, [I('simm16', 'u16', true)], ['imm:dec', 'end']),
  BR('s_branch', 0x02),
  op('s_wakeup', 0x03, []),
  BR('s_cbranch_scc0', 0x04, ['SCC']),
  BR('s_cbranch_scc1', 0x05, ['SCC']),
  BR('s_cbranch_vccz', 0x06, ['VCC', 'VCCZ']),
  BR('s_cbranch_vccnz', 0x07, ['VCC', 'VCCZ']),
  BR('s_cbranch_execz', 0x08, ['EXEC', 'EXECZ']),
  BR('s_cbranch_execnz', 0x09, ['EXEC', 'EXECZ']),
  op('s_barrier', 0x0a, []),
  SMALL('s_setkill', 0x0b),
  op('s_waitcnt', 0x0c, [I('waitcnt', 'u16')]),
  SMALL('s_sethalt', 0x0d),
  SMALL('s_sleep', 0x0e),
  SMALL('s_setprio', 0x0f),
  op('s_sendmsg', 0x10, [I('sendmsg', 'u16')], [], ['M0']),
  op('s_sendmsghalt', 0x11, [I('sendmsg', 'u16')], [], ['M0']),
  SMALL('s_trap', 0x12),
  op('s_icache_inv', 0x13, []),
  SMALL('s_incperflevel', 0x14),
  SMALL('s_decperflevel', 0x15),
  op('s_ttracedata', 0x16, [], [], ['M0']),
  BR('s_cbranch_cdbgsys', 0x17),
  BR('s_cbranch_cdbguser', 0x18),
  BR('s_cbranch_cdbgsys_or_user', 0x19),
  BR('s_cbranch_cdbgsys_and_user', 0x1a),
  op('s_endpgm_saved', 0x1b, [], ['end']),
  op('s_endpgm_ordered_ps_done', 0x1e, [], ['end']),
  op('s_code_end', 0x1f, [], ['end']),
  HEX('s_inst_prefetch', 0x20),
  HEX('s_clause', 0x21),
  op('s_wait_idle', 0x22, []),
  op('s_waitcnt_depctr', 0x23, [I('simm16', 'u16')], ['imm:depctr']),
  HEX('s_round_mode', 0x24, [], ['MODE']),
  SMALL('s_denorm_mode', 0x25, [], ['MODE']),
  HEX('s_ttracedata_imm', 0x28),
];
