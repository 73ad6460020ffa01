import type { Instruction } from '../decode/types.js';
import type { Target } from '../isa/types.js';

// SOPK text, as LLVM 19's AMDGPUInstPrinter prints it.
export function printSOPK(inst: Instruction, _target: Target): string {
  throw new Error(`SOPK printing is not implemented (${inst.def.mnemonic})`);
}
