import type { Instruction } from '../decode/types.js';
import type { Target } from '../isa/types.js';

// SDWA text, as LLVM 19's AMDGPUInstPrinter prints it.
export function printSDWA(inst: Instruction, _target: Target): string {
  throw new Error(`SDWA printing is not implemented (${inst.def.mnemonic})`);
}
