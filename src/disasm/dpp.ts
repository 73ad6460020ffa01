import type { Instruction } from '../decode/types.js';
import type { Target } from '../isa/types.js';

// DPP text, as LLVM 19's AMDGPUInstPrinter prints it.
export function printDPP(inst: Instruction, _target: Target): string {
  throw new Error(`DPP printing is not implemented (${inst.def.mnemonic})`);
}
