import type { Instruction } from '../decode/types.js';
import type { Target } from '../isa/types.js';
import { printSop } from './scalar-fields.js';
import type { PrintContext } from './context.js';

// SOPK text, as LLVM 19's AMDGPUInstPrinter prints it: the table's operands in order.
export function printSOPK(inst: Instruction, target: Target, ctx?: PrintContext): string {
  return printSop(inst, target, ctx);
}
