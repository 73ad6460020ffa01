import type { Instruction } from '../decode/types.js';
import type { Target } from '../isa/types.js';

// DS text, as LLVM 19's AMDGPUInstPrinter prints it.
export function printDS(inst: Instruction, _target: Target): string {
  throw new Error(`DS printing is not implemented (${inst.def.mnemonic})`);
}
