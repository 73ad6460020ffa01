import type { Instruction } from '../decode/types.js';
import type { Target } from '../isa/types.js';
import { printE32 } from './vop1.js';

// VOPC text, as LLVM 19 prints it: v_cmp_* vcc_lo, src0, vsrc1; v_cmpx_* src0, vsrc1 (gfx10
// v_cmpx writes EXEC only). Shared e32 printer in vop1.ts.
export function printVOPC(inst: Instruction, _target: Target): string {
  return printE32(inst);
}
