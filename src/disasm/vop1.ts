import type { Instruction } from '../decode/types.js';
import type { Target } from '../isa/types.js';

// VOP1 text, as LLVM 19's AMDGPUInstPrinter prints it.
export function printVOP1(inst: Instruction, _target: Target): string {
  throw new Error(`VOP1 printing is not implemented (${inst.def.mnemonic})`);
}
