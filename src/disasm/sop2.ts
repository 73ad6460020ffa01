import type { Instruction } from '../decode/types.js';
import type { Target } from '../isa/types.js';

// SOP2 text, as LLVM 19's AMDGPUInstPrinter prints it.
export function printSOP2(inst: Instruction, _target: Target): string {
  throw new Error(`SOP2 printing is not implemented (${inst.def.mnemonic})`);
}
