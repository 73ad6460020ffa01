import type { Instruction } from '../decode/types.js';
import type { Target } from '../isa/types.js';

// MUBUF text, as LLVM 19's AMDGPUInstPrinter prints it.
export function printMUBUF(inst: Instruction, _target: Target): string {
  throw new Error(`MUBUF printing is not implemented (${inst.def.mnemonic})`);
}
