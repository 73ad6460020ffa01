import type { DecodeContext, FamilyDecoder, Instruction } from './types.js';

// EXP encoding. Field layout: RDNA2 ISA reference, chapter "Microcode Formats".
export const decodeEXP: FamilyDecoder = (_ctx: DecodeContext): Instruction | string => 'EXP decoding is not implemented';
