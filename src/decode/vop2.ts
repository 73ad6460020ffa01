import type { DecodeContext, FamilyDecoder, Instruction } from './types.js';

// VOP2 encoding. Field layout: RDNA2 ISA reference, chapter "Microcode Formats".
export const decodeVOP2: FamilyDecoder = (_ctx: DecodeContext): Instruction | string => 'VOP2 decoding is not implemented';
