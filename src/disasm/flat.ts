import type { Instruction } from '../decode/types.js';
import type { Target } from '../isa/types.js';

// FLAT text, as LLVM 19's AMDGPUInstPrinter prints it.
export function printFLAT(inst: Instruction, _target: Target): string {
  throw new Error(`FLAT printing is not implemented (${inst.def.mnemonic})`);
}
