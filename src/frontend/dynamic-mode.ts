// Float instructions whose MODE the analysis cannot know at translation time ('dynamic' fields:
// an s_setreg_b32 of a run-time SGPR value, paths that join with different modes). The MODE
// register is wave-uniform, so the translation branches on its run-time value: a run of
// instructions that share one MODE state (from a dynamic float instruction up to the next MODE
// write, branch or end, within the block) is translated once per possible value of the unknown
// MODE bits its float instructions depend on (FP_ROUND and FP_DENORM of each float width used,
// DX10_CLAMP, IEEE), each copy with every float field known, behind a chain of wave-uniform
// branches on (MODE & unknown bits); the copies join after the run. Every copy is then lowered
// (or emitted natively) for its one static mode, exactly as a static mode is, so a dynamic mode
// costs code size and one branch per run, never exactness. At most 2^6 copies for one float width
// (2 round bits, 2 denormal bits, DX10_CLAMP, IEEE), 2^10 when f32 and f16/f64 instructions share
// the run with every bit unknown.
import type { Instruction } from '../decode/types.js';
import type { ModeAnalysis, ValuMode } from '../analysis/mode.js';
import { valuMode } from '../analysis/mode.js';
import { valuModeAt } from './context.js';
import { MODE_DX10_CLAMP_BIT, MODE_IEEE_BIT, modeFieldsFor } from '../analysis/hwreg.js';
import type { KnownBits } from '../analysis/scalar-constants.js';

/** One run's copies: the unknown MODE bits it depends on, and each candidate value of them. */
export interface ModeVariants {
  /** The unknown MODE bits the run's float instructions read. */
  readonly unknown: number;
  /** The values of `unknown` to translate for (every combination of its bits). */
  readonly candidates: readonly number[];
  /** The float mode instruction `inst` of the run has in the copy for `candidate`. */
  valuFor(inst: Instruction, candidate: number): ValuMode | undefined;
  /** MODE as known bits in the copy for `candidate` (every bit the run reads known). */
  modeFor(candidate: number): KnownBits;
}

/** Whether a float mode record leaves a field to run time. */
export const isDynamic = (r: ValuMode): boolean => r.round === 'dynamic' || r.denorm === 'dynamic' || r.dx10Clamp === 'dynamic' || r.ieee === 'dynamic';

/** The float width of an operand type (a packed f16 pair is f16), or undefined for integers. */
const widthOf = (t: string): 'f16' | 'f32' | 'f64' | undefined => (t === 'f16' || t === 'v2f16' ? 'f16' : t === 'f32' || t === 'f64' ? t : undefined);

/**
 * The MODE bits a float instruction's mode is made of: its table float type's fields, and for an
 * operand of another float width (a conversion, v_fma_mixlo/hi) that width's FP_DENORM (a source's
 * input flush) and, for a destination, its FP_ROUND (the frontend's convertMode reads them).
 */
function modeBitsOf(inst: Instruction): number {
  const f = inst.def.float;
  if (f === undefined) return 0;
  const fields = modeFieldsFor(f);
  // Instructions that always flush f32 denormals do not read FP_DENORM (context.ts floatMode()).
  const flushes = f === 'f32' && (inst.def.flags ?? []).includes('mode:always-flush-f32');
  let bits = (3 << fields.round) | (flushes ? 0 : 3 << fields.denorm) | MODE_DX10_CLAMP_BIT | MODE_IEEE_BIT;
  for (const d of inst.def.operands) {
    const w = widthOf(d.type);
    if (w === undefined || w === f) continue;
    const o = modeFieldsFor(w);
    bits |= (3 << o.denorm) | (d.role === 'dst' || d.role === 'srcdst' ? 3 << o.round : 0);
  }
  return bits >>> 0;
}

/** Whether instruction `inst` ends a run (it writes MODE, or ends the block). */
export function endsModeRun(inst: Instruction): boolean {
  const flags = inst.def.flags ?? [];
  return (inst.def.implicitWrites ?? []).includes('MODE') || flags.includes('end') || flags.includes('branch');
}

/** Whether the analysis leaves a field of this float instruction's mode (its own width's, or another width's it reads) to run time. */
export function hasDynamicMode(mode: ModeAnalysis, inst: Instruction): boolean {
  const r = inst.def.float !== undefined ? valuModeAt(mode, inst.pc) : undefined;
  if (r === undefined) return false;
  const st = mode.before(inst.pc);
  return isDynamic(r) || (st !== undefined && (modeBitsOf(inst) & ~st.mode.known) !== 0);
}

/** The copies of the run `insts` (all under the MODE state the analysis has before the first). */
export function modeVariants(mode: ModeAnalysis, insts: readonly Instruction[]): ModeVariants | undefined {
  const first = insts[0];
  const state = first ? mode.before(first.pc) : undefined;
  if (!first || !state) return undefined;
  let bits = 0;
  for (const i of insts) bits = (bits | modeBitsOf(i)) >>> 0;
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
      return valuMode(inst.pc, f, modeFor(candidate));
    },
    modeFor,
  };
}
