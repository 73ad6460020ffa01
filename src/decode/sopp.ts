import type { DecodeContext, FamilyDecoder, Instruction } from './types.js';

// SOPP encoding. Field layout: RDNA2 ISA reference, chapter "Microcode Formats".
export const decodeSOPP: FamilyDecoder = (_ctx: DecodeContext): Instruction | string => 'SOPP decoding is not implemented';
