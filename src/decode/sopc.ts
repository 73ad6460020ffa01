import type { DecodeContext, FamilyDecoder, Instruction } from './types.js';
import { familyLookup } from '../isa/table.js';
import { decodeSop } from './scalar-fields.js';

const lookupSOPC = familyLookup('SOPC');

// SOPC: [31:23]=0x17e, op [22:16], ssrc1 [15:8], ssrc0 [7:0] (+ literal dword).
export const decodeSOPC: FamilyDecoder = (ctx: DecodeContext): Instruction | string => {
  const w = ctx.words[ctx.index] ?? 0;
  const def = lookupSOPC(ctx.target, (w >>> 16) & 0x7f);
  if (def === undefined) return 'SOPC opcode not defined on this target';
  return decodeSop(ctx, def, 'SOPC');
};
