// What an instruction handler sees: the wave, memory, the dispatch's LDS, and where to go next.
import type { Instruction, Operand, OperandValue } from '../decode/types.js';
import type { Target } from '../isa/types.js';
import { InterpError } from './errors.js';
import type { GlobalMemory } from './memory.js';
import type { WaveState } from './state.js';
import type { ScratchRegion } from './scratch.js';

export interface ExecContext {
  readonly target: Target;
  readonly st: WaveState;
  readonly mem: GlobalMemory;
  /** The workgroup's LDS. */
  readonly lds: DataView;
  /** Hardware registers other than MODE that the program wrote (FLAT_SCR_LO/HI...), by hwreg id. */
  readonly hwregs: Map<number, number>;
  /**
   * The dispatch's clock, one object shared by its waves: the instructions they have executed so
   * far (runWave counts them). s_memrealtime reads it; without it, the wave's own count.
   */
  readonly clock?: { steps: number };
  /** The wave's index in its workgroup (dispatch order; s_get_waveid_in_workgroup, TG_SIZE). */
  readonly waveInGroup?: number;
  /** A raw shader's wave: its region of the dispatch's scratch ring (src/interp/scratch.ts), whose bounds its scratch accesses are checked against. */
  readonly scratchRegion?: ScratchRegion;
  /** Set by branches: the pc to continue at (else pc + size). */
  nextPc: number | undefined;
}

export type Handler = (inst: Instruction, cx: ExecContext) => void;

/** The decoded operand named `name` (the table's operand names: sdst, ssrc0, src0, vdst, ...). */
export function operand(inst: Instruction, name: string): OperandValue {
  const o = inst.operands.find((x) => x.name === name);
  if (!o) throw new InterpError(`${inst.def.mnemonic} has no operand ${name}`);
  return o.value;
}

export function operandOf(inst: Instruction, name: string): Operand | undefined {
  return inst.operands.find((x) => x.name === name);
}
