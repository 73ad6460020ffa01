import type { Instruction } from '../decode/types.js';
import type { Target } from '../isa/types.js';

// EXP text, as LLVM 19's AMDGPUInstPrinter prints it.
export function printEXP(inst: Instruction, _target: Target): string {
  throw new Error(`EXP printing is not implemented (${inst.def.mnemonic})`);
}
