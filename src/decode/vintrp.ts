import type { DecodeContext, FamilyDecoder, Instruction } from './types.js';

// VINTRP encoding. Field layout: RDNA2 ISA reference, chapter "Microcode Formats".
export const decodeVINTRP: FamilyDecoder = (_ctx: DecodeContext): Instruction | string => 'VINTRP decoding is not implemented';
