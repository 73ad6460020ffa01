import type { DecodeContext, FamilyDecoder, Instruction } from './types.js';
import { familyLookup } from '../isa/table.js';
import { decodeSop } from './scalar-fields.js';

const lookupSOP1 = familyLookup('SOP1');

// SOP1: [31:23]=0x17d, sdst [22:16], op [15:8], ssrc0 [7:0] (+ literal dword when ssrc0 = 255).
export const decodeSOP1: FamilyDecoder = (ctx: DecodeContext): Instruction | string => {
  const w = ctx.words[ctx.index] ?? 0;
  const def = lookupSOP1(ctx.target, (w >>> 8) & 0xff);
  if (def === undefined) return 'SOP1 opcode not defined on this target';
  return decodeSop(ctx, def, 'SOP1');
};
