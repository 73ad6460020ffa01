import type { Instruction } from '../decode/types.js';
import type { Target } from '../isa/types.js';

// SOP1 text, as LLVM 19's AMDGPUInstPrinter prints it.
export function printSOP1(inst: Instruction, _target: Target): string {
  throw new Error(`SOP1 printing is not implemented (${inst.def.mnemonic})`);
}
