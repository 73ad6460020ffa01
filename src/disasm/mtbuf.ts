import type { Instruction } from '../decode/types.js';
import type { Target } from '../isa/types.js';

// MTBUF text, as LLVM 19's AMDGPUInstPrinter prints it.
export function printMTBUF(inst: Instruction, _target: Target): string {
  throw new Error(`MTBUF printing is not implemented (${inst.def.mnemonic})`);
}
