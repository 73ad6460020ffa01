import type { Instruction } from '../decode/types.js';
import type { Target } from '../isa/types.js';

// MIMG text, as LLVM 19's AMDGPUInstPrinter prints it.
export function printMIMG(inst: Instruction, _target: Target): string {
  throw new Error(`MIMG printing is not implemented (${inst.def.mnemonic})`);
}
