import type { DecodeContext, FamilyDecoder, Instruction } from './types.js';

// VOP3 encoding. Field layout: RDNA2 ISA reference, chapter "Microcode Formats".
export const decodeVOP3: FamilyDecoder = (_ctx: DecodeContext): Instruction | string => 'VOP3 decoding is not implemented';
