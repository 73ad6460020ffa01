import type { Instruction } from '../decode/types.js';
import type { Target } from '../isa/types.js';
import { printSop } from './scalar-fields.js';

// SOP1 text, as LLVM 19's AMDGPUInstPrinter prints it: the table's operands in order.
export function printSOP1(inst: Instruction, target: Target): string {
  return printSop(inst, target);
}
