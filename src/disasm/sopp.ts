import type { Instruction } from '../decode/types.js';
import type { Target } from '../isa/types.js';

// SOPP text, as LLVM 19's AMDGPUInstPrinter prints it.
export function printSOPP(inst: Instruction, _target: Target): string {
  throw new Error(`SOPP printing is not implemented (${inst.def.mnemonic})`);
}
