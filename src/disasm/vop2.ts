import type { Instruction } from '../decode/types.js';
import type { Target } from '../isa/types.js';
import { printE32 } from './vop1.js';

// VOP2 text, as LLVM 19 prints it (shared e32 printer in vop1.ts).
export function printVOP2(inst: Instruction, _target: Target): string {
  return printE32(inst);
}
