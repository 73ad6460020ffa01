import type { DecodeContext, FamilyDecoder, Instruction } from './types.js';

// VOPC encoding. Field layout: RDNA2 ISA reference, chapter "Microcode Formats".
export const decodeVOPC: FamilyDecoder = (_ctx: DecodeContext): Instruction | string => 'VOPC decoding is not implemented';
