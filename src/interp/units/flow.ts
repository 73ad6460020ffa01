// SOPP: program flow and the wave's own controls. Branch targets are pc + 4 + 4 * simm16.
// s_cbranch_cdbg* test the debug-mode bits, which are clear here (no debugger): never taken.
// Instructions that only affect timing (waits, clauses, priorities, prefetch hints) do nothing in
// a functional model.
import { branchTarget } from '../../disasm/scalar-fields.js';
import { type Handler, operand } from '../context.js';
import { InterpError, UnimplementedError } from '../errors.js';

const imm = (i: Parameters<Handler>[0]) => { const v = operand(i, 'simm16'); return v.kind === 'imm' ? v.value & 0xffff : 0; };
const branchIf = (cond: (cx: Parameters<Handler>[1]) => boolean): Handler => (i, cx) => { if (cond(cx)) cx.nextPc = branchTarget(i, imm(i)); };
const nothing: Handler = () => undefined;

export const FLOW: Record<string, Handler> = {
  s_nop: nothing, s_waitcnt: nothing, s_sleep: nothing, s_setprio: nothing, s_clause: nothing, s_inst_prefetch: nothing,
  s_icache_inv: nothing, s_wait_idle: nothing, s_waitcnt_depctr: nothing, s_incperflevel: nothing, s_decperflevel: nothing,
  s_ttracedata: nothing, s_ttracedata_imm: nothing, s_wakeup: nothing,
  s_endpgm: (_i, cx) => { cx.st.ended = true; },
  s_endpgm_saved: (_i, cx) => { cx.st.ended = true; },
  s_code_end: (i) => { throw new InterpError('execution reached s_code_end (the padding after the code)', i.pc); },
  s_branch: branchIf(() => true),
  s_cbranch_scc0: branchIf((cx) => cx.st.scc === 0),
  s_cbranch_scc1: branchIf((cx) => cx.st.scc === 1),
  s_cbranch_vccz: branchIf((cx) => cx.st.vccZero()),
  s_cbranch_vccnz: branchIf((cx) => !cx.st.vccZero()),
  s_cbranch_execz: branchIf((cx) => cx.st.execZero()),
  s_cbranch_execnz: branchIf((cx) => !cx.st.execZero()),
  s_cbranch_cdbgsys: nothing, s_cbranch_cdbguser: nothing, s_cbranch_cdbgsys_or_user: nothing, s_cbranch_cdbgsys_and_user: nothing,
  s_barrier: (_i, cx) => { cx.st.atBarrier = true; },
  s_round_mode: (i, cx) => { cx.st.mode = ((cx.st.mode & ~0xf) | (imm(i) & 0xf)) >>> 0; },
  s_denorm_mode: (i, cx) => { cx.st.mode = ((cx.st.mode & ~0xf0) | ((imm(i) & 0xf) << 4)) >>> 0; },
  s_trap: (i) => { throw new InterpError(`s_trap ${imm(i)}: the program trapped (no trap handler)`); },
  // S_SETKILL sets the wave's KILL bit from SIMM16[0]; with bit 0 set the wave is killed (the AMD ISA
  // references' SOPP text, as quoted for CDNA3; RDNA2's was not at hand): not modelled then.
  s_setkill: (i) => { if (imm(i) & 1) throw new UnimplementedError('s_setkill 1 (the wave kills itself) is not modelled'); },
  s_sethalt: (i, cx) => { if (imm(i) & 1) throw new InterpError('s_sethalt 1: the wave halted itself'); void cx; },
  s_sendmsg: (i) => { throw new UnimplementedError(`s_sendmsg 0x${imm(i).toString(16)} is not modelled`); },
  s_sendmsghalt: (i) => { throw new UnimplementedError(`s_sendmsghalt 0x${imm(i).toString(16)} is not modelled`); },
};
