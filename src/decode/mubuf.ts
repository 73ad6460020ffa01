import type { DecodeContext, FamilyDecoder, Instruction } from './types.js';

// MUBUF encoding. Field layout: RDNA2 ISA reference, chapter "Microcode Formats".
export const decodeMUBUF: FamilyDecoder = (_ctx: DecodeContext): Instruction | string => 'MUBUF decoding is not implemented';
