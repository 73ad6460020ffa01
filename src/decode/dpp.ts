import type { DecodeContext, FamilyDecoder, Instruction } from './types.js';

// DPP encoding. Field layout: RDNA2 ISA reference, chapter "Microcode Formats".
export const decodeDPP: FamilyDecoder = (_ctx: DecodeContext): Instruction | string => 'DPP decoding is not implemented';
