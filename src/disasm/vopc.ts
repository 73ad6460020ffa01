import type { Instruction } from '../decode/types.js';
import type { Target } from '../isa/types.js';

// VOPC text, as LLVM 19's AMDGPUInstPrinter prints it.
export function printVOPC(inst: Instruction, _target: Target): string {
  throw new Error(`VOPC printing is not implemented (${inst.def.mnemonic})`);
}
