import type { DecodeContext, FamilyDecoder, Instruction } from './types.js';

// VOP3P encoding. Field layout: RDNA2 ISA reference, chapter "Microcode Formats".
export const decodeVOP3P: FamilyDecoder = (_ctx: DecodeContext): Instruction | string => 'VOP3P decoding is not implemented';
