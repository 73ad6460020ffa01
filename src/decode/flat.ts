import type { DecodeContext, FamilyDecoder, Instruction } from './types.js';

// FLAT encoding. Field layout: RDNA2 ISA reference, chapter "Microcode Formats".
export const decodeFLAT: FamilyDecoder = (_ctx: DecodeContext): Instruction | string => 'FLAT decoding is not implemented';
