// Running one wave: fetch, dispatch to the unit's handler, advance. Stops at s_endpgm, at
// s_barrier (the workgroup scheduler resumes it), or with an InterpError naming the instruction.
import type { Instruction } from '../decode/types.js';
import type { ExecContext, Handler } from './context.js';
import { InterpError, UnimplementedError } from './errors.js';
import type { Program } from './program.js';
import { HANDLERS } from './units/index.js';

export interface StepBudget { remaining: number }

function located(e: unknown, prog: Program, inst: Instruction): Error {
  if (e instanceof InterpError && e.pc !== undefined) return e;
  const msg = e instanceof Error ? e.message : String(e);
  const Cls = e instanceof UnimplementedError ? UnimplementedError : InterpError;
  return new Cls(msg, inst.pc, prog.text(inst), inst.words);
}

/** Runs the wave until it ends or waits at a barrier. */
export function runWave(prog: Program, cx: ExecContext, budget: StepBudget): void {
  const st = cx.st;
  st.atBarrier = false;
  while (!st.ended && !st.atBarrier) {
    if (budget.remaining-- <= 0) {
      const inst = prog.at(st.pc);
      throw new InterpError('the step budget ran out (raise it with --max-steps)', inst.pc, prog.text(inst), inst.words);
    }
    const inst = prog.at(st.pc);
    const h: Handler | undefined = HANDLERS[inst.def.mnemonic];
    if (!h) throw new UnimplementedError(`${inst.def.mnemonic} is not implemented by the interpreter`, inst.pc, prog.text(inst), inst.words);
    cx.nextPc = undefined;
    try {
      h(inst, cx);
    } catch (e) {
      throw located(e, prog, inst);
    }
    st.steps++;
    if (cx.clock) cx.clock.steps++;
    st.pc = cx.nextPc ?? inst.pc + inst.size;
  }
}
