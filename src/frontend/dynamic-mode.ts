// Float instructions whose MODE the analysis cannot know at translation time ('dynamic' fields:
// an s_setreg_b32 of a run-time SGPR value, paths that join with different modes). The MODE
// register is wave-uniform, so the translation branches on its run-time value: a run of
// consecutive float instructions that read the same unknown MODE bits (mode-reads.ts: only the
// fields each one's result depends on, e.g. a compare reads its width's denormal input bit alone,
// min/max no FP_ROUND, DX10_CLAMP only under clamp), within one MODE state (up to the next MODE
// write, branch or end, within the block), is translated once per possible value of those bits,
// each copy with every float field known (the bits an instruction does not
// read settled to one fixed value), behind a chain of wave-uniform branches on (MODE & unknown
// bits); the copies join after the run. Every copy is then lowered (or emitted natively) for its
// one static mode, exactly as a static mode is, so a dynamic mode costs code size and one branch
// per run, never exactness. At most 2^6 copies for one float width (2 round bits, 2 denormal bits,
// DX10_CLAMP, IEEE; 2^7 for an f16 op that rounds: FP16_OVFL, bit 23, too), 2^11 when f32 and
// f16/f64 instructions share the run with every bit unknown.
import type { Instruction } from '../decode/types.js';
import type { ModeAnalysis, ValuMode } from '../analysis/mode.js';
import { valuMode } from '../analysis/mode.js';
import { valuModeAt } from './context.js';
import type { KnownBits } from '../analysis/scalar-constants.js';
import { FLOAT_BITS, modeReadsOf, settleUnread } from './mode-reads.js';
import { NO_FLAGS } from '../isa/types.js';

/** One run's copies: the unknown MODE bits it depends on, and each candidate value of them. */
export interface ModeVariants {
  /** The unknown MODE bits the run's float instructions read. */
  readonly unknown: number;
  /** The values of `unknown` to translate for (every combination of its bits). */
  readonly candidates: readonly number[];
  /** The float mode instruction `inst` of the run has in the copy for `candidate`. */
  valuFor(inst: Instruction, candidate: number): ValuMode | undefined;
  /** MODE as known bits at `inst` in the copy for `candidate` (every float bit known: those the run reads from the candidate, the others `inst` does not read settled). */
  modeFor(candidate: number, inst: Instruction): KnownBits;
}

export { isDynamic } from './mode-reads.js';

/** Whether instruction `inst` ends a run (it writes MODE, or ends the block). */
export function endsModeRun(inst: Instruction): boolean {
  const flags = inst.def.flags ?? NO_FLAGS;
  return (inst.def.implicitWrites ?? []).includes('MODE') || flags.includes('end') || flags.includes('branch');
}

/**
 * Whether the analysis leaves a MODE bit this float instruction reads (mode-reads.ts: its own
 * width's fields or another width's, only those its result depends on) to run time.
 */
export function hasDynamicMode(mode: ModeAnalysis, inst: Instruction): boolean {
  return dynamicReads(mode, inst) !== 0;
}

/** The MODE bits `inst` reads that the analysis does not know before it (0 for a non-float instruction). */
export function dynamicReads(mode: ModeAnalysis, inst: Instruction): number {
  const r = inst.def.float !== undefined ? valuModeAt(mode, inst.pc) : undefined;
  const st = r !== undefined ? mode.before(inst.pc) : undefined;
  // Where every float bit is known (most instructions) the answer is 0 without asking which it reads.
  if (st === undefined || (FLOAT_BITS & ~st.mode.known) === 0) return 0;
  return (modeReadsOf(inst) & ~st.mode.known) >>> 0;
}

/**
 * The last index of the run that starts at the dynamic instruction `insts[j]`: the instructions
 * after it that read the same unknown MODE bits (so they share its copies), up to a MODE write, a
 * branch or end, or an instruction that reads other unknown bits or none (an integer instruction
 * is translated once, outside the copies; a float instruction with another set starts its own run).
 */
export function runEnd(mode: ModeAnalysis, insts: readonly Instruction[], j: number): number {
  const want = dynamicReads(mode, insts[j] as Instruction);
  let k = j;
  while (k + 1 < insts.length && !endsModeRun(insts[k + 1] as Instruction) && dynamicReads(mode, insts[k + 1] as Instruction) === want) k++;
  return k;
}

/** The copies of the run `insts` (all under the MODE state the analysis has before the first). */
export function modeVariants(mode: ModeAnalysis, insts: readonly Instruction[]): ModeVariants | undefined {
  const first = insts[0];
  const state = first ? mode.before(first.pc) : undefined;
  if (!first || !state) return undefined;
  let bits = 0;
  for (const i of insts) bits = (bits | modeReadsOf(i)) >>> 0;
  const unknown = (bits & ~state.mode.known) >>> 0;
  // Every combination of the unknown bits, counting through them.
  const candidates: number[] = [];
  let c = 0;
  do { candidates.push(c); c = ((c - unknown) & unknown) >>> 0; } while (c !== 0);
  const modeFor = (candidate: number): KnownBits => ({ known: (state.mode.known | unknown) >>> 0, value: ((state.mode.value & ~unknown) | candidate) >>> 0 });
  return {
    unknown,
    candidates,
    valuFor(inst, candidate) {
      const f = inst.def.float;
      if (f === undefined) return undefined;
      return valuMode(inst.pc, f, settleUnread(inst, modeFor(candidate)));
    },
    modeFor: (candidate, inst) => settleUnread(inst, modeFor(candidate)),
  };
}

/** The pcs of every instruction translate() copies per MODE value: each run from a dynamic float instruction to the end of its run (as src/frontend/index.ts walks a block). */
export function copiedPcs(mode: ModeAnalysis, blocks: readonly { readonly instructions: readonly Instruction[] }[]): Set<number> {
  const out = new Set<number>();
  for (const b of blocks) {
    const insts = b.instructions;
    for (let j = 0; j < insts.length; j++) {
      const inst = insts[j] as Instruction;
      // The cheap question first: most instructions are not float instructions under a dynamic MODE.
      if (!hasDynamicMode(mode, inst) || endsModeRun(inst)) continue;
      const k = runEnd(mode, insts, j);
      for (; j <= k; j++) out.add((insts[j] as Instruction).pc);
      j = k;
    }
  }
  return out;
}
