import type { DecodeContext, FamilyDecoder, Instruction } from './types.js';

// SOP2 encoding. Field layout: RDNA2 ISA reference, chapter "Microcode Formats".
export const decodeSOP2: FamilyDecoder = (_ctx: DecodeContext): Instruction | string => 'SOP2 decoding is not implemented';
