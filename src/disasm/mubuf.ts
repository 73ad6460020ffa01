import type { Instruction } from '../decode/types.js';
import type { Target } from '../isa/types.js';
import { printBuffer } from './buffer-fields.js';

// MUBUF text, as LLVM 19's AMDGPUInstPrinter prints it (shared with MTBUF: buffer-fields.ts).
export function printMUBUF(inst: Instruction, _target: Target): string {
  return printBuffer(inst);
}
