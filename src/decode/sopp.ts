import type { DecodeContext, FamilyDecoder, Instruction } from './types.js';
import { familyLookup } from '../isa/table.js';
import { decodeSop } from './scalar-fields.js';

const lookupSOPP = familyLookup('SOPP');

// SOPP: [31:23]=0x17f, op [22:16], simm16 [15:0]. An opcode without operands requires
// simm16 = 0 (LLVM rejects the word otherwise).
export const decodeSOPP: FamilyDecoder = (ctx: DecodeContext): Instruction | string => {
  const w = ctx.words[ctx.index] ?? 0;
  const def = lookupSOPP(ctx.target, (w >>> 16) & 0x7f);
  if (def === undefined) return 'SOPP opcode not defined on this target';
  if (def.operands.length === 0 && (w & 0xffff) !== 0) return 'SOPP opcode without operands needs simm16 = 0';
  return decodeSop(ctx, def, 'SOPP');
};
