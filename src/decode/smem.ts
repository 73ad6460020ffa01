import type { DecodeContext, FamilyDecoder, Instruction } from './types.js';

// SMEM encoding. Field layout: RDNA2 ISA reference, chapter "Microcode Formats".
export const decodeSMEM: FamilyDecoder = (_ctx: DecodeContext): Instruction | string => 'SMEM decoding is not implemented';
