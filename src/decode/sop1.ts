import type { DecodeContext, FamilyDecoder, Instruction } from './types.js';

// SOP1 encoding. Field layout: RDNA2 ISA reference, chapter "Microcode Formats".
export const decodeSOP1: FamilyDecoder = (_ctx: DecodeContext): Instruction | string => 'SOP1 decoding is not implemented';
