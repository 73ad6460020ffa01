import type { DecodeContext, FamilyDecoder, Instruction } from './types.js';

// SOPC encoding. Field layout: RDNA2 ISA reference, chapter "Microcode Formats".
export const decodeSOPC: FamilyDecoder = (_ctx: DecodeContext): Instruction | string => 'SOPC decoding is not implemented';
