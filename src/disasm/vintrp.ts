import type { Instruction } from '../decode/types.js';
import type { Target } from '../isa/types.js';

// VINTRP text, as LLVM 19's AMDGPUInstPrinter prints it.
export function printVINTRP(inst: Instruction, _target: Target): string {
  throw new Error(`VINTRP printing is not implemented (${inst.def.mnemonic})`);
}
