import type { Instruction } from '../decode/types.js';
import type { Target } from '../isa/types.js';

// SOPC text, as LLVM 19's AMDGPUInstPrinter prints it.
export function printSOPC(inst: Instruction, _target: Target): string {
  throw new Error(`SOPC printing is not implemented (${inst.def.mnemonic})`);
}
