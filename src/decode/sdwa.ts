import type { DecodeContext, FamilyDecoder, Instruction } from './types.js';

// SDWA encoding. Field layout: RDNA2 ISA reference, chapter "Microcode Formats".
export const decodeSDWA: FamilyDecoder = (_ctx: DecodeContext): Instruction | string => 'SDWA decoding is not implemented';
