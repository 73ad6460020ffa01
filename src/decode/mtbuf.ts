import type { DecodeContext, FamilyDecoder, Instruction } from './types.js';

// MTBUF encoding. Field layout: RDNA2 ISA reference, chapter "Microcode Formats".
export const decodeMTBUF: FamilyDecoder = (_ctx: DecodeContext): Instruction | string => 'MTBUF decoding is not implemented';
