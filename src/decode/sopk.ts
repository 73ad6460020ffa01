import type { DecodeContext, FamilyDecoder, Instruction } from './types.js';
import { familyLookup } from '../isa/table.js';
import { decodeSop } from './scalar-fields.js';

const lookupSOPK = familyLookup('SOPK');

// SOPK: [31:28]=0b1011, op [27:23], sdst [22:16], simm16 [15:0]; s_setreg_imm32_b32 takes a
// literal dword after the instruction.
export const decodeSOPK: FamilyDecoder = (ctx: DecodeContext): Instruction | string => {
  const w = ctx.words[ctx.index] ?? 0;
  const def = lookupSOPK(ctx.target, (w >>> 23) & 0x1f);
  if (def === undefined) return 'SOPK opcode not defined on this target';
  return decodeSop(ctx, def, 'SOPK');
};
