import type { DecodeContext, FamilyDecoder, Instruction } from './types.js';

// MIMG encoding. Field layout: RDNA2 ISA reference, chapter "Microcode Formats".
export const decodeMIMG: FamilyDecoder = (_ctx: DecodeContext): Instruction | string => 'MIMG decoding is not implemented';
