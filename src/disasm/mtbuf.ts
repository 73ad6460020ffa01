import type { Instruction } from '../decode/types.js';
import type { Target } from '../isa/types.js';
import { printBuffer } from './buffer-fields.js';

// MTBUF text, as LLVM 19's AMDGPUInstPrinter prints it (shared with MUBUF: buffer-fields.ts).
export function printMTBUF(inst: Instruction, _target: Target): string {
  return printBuffer(inst);
}
