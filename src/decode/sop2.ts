import type { DecodeContext, FamilyDecoder, Instruction } from './types.js';
import { familyLookup } from '../isa/table.js';
import { decodeSop } from './scalar-fields.js';

const lookupSOP2 = familyLookup('SOP2');

// SOP2: [31:30]=0b10, op [29:23], sdst [22:16], ssrc1 [15:8], ssrc0 [7:0] (+ one literal dword
// shared by both sources when either is 255).
export const decodeSOP2: FamilyDecoder = (ctx: DecodeContext): Instruction | string => {
  const w = ctx.words[ctx.index] ?? 0;
  const def = lookupSOP2(ctx.target, (w >>> 23) & 0x7f);
  if (def === undefined) return 'SOP2 opcode not defined on this target';
  return decodeSop(ctx, def, 'SOP2');
};
