import type { Instruction } from '../decode/types.js';
import type { Target } from '../isa/types.js';

// VOP3P text, as LLVM 19's AMDGPUInstPrinter prints it.
export function printVOP3P(inst: Instruction, _target: Target): string {
  throw new Error(`VOP3P printing is not implemented (${inst.def.mnemonic})`);
}
