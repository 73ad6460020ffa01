import type { Instruction } from '../decode/types.js';
import type { Target } from '../isa/types.js';

// SMEM text, as LLVM 19's AMDGPUInstPrinter prints it.
export function printSMEM(inst: Instruction, _target: Target): string {
  throw new Error(`SMEM printing is not implemented (${inst.def.mnemonic})`);
}
