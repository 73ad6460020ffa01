import type { DecodeContext, FamilyDecoder, Instruction } from './types.js';

// SOPK encoding. Field layout: RDNA2 ISA reference, chapter "Microcode Formats".
export const decodeSOPK: FamilyDecoder = (_ctx: DecodeContext): Instruction | string => 'SOPK decoding is not implemented';
