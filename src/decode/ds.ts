import type { DecodeContext, FamilyDecoder, Instruction } from './types.js';

// DS encoding. Field layout: RDNA2 ISA reference, chapter "Microcode Formats".
export const decodeDS: FamilyDecoder = (_ctx: DecodeContext): Instruction | string => 'DS decoding is not implemented';
