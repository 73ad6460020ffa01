import type { DecodeContext, FamilyDecoder, Instruction } from './types.js';

// VOP1 encoding. Field layout: RDNA2 ISA reference, chapter "Microcode Formats".
export const decodeVOP1: FamilyDecoder = (_ctx: DecodeContext): Instruction | string => 'VOP1 decoding is not implemented';
