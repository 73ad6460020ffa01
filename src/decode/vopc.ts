// VOPC encoding: [31:25] 0111110  [24:17] op  [16:9] vsrc1  [8:0] src0 (+ literal).
// The result goes to VCC (v_cmp_*) or EXEC (v_cmpx_*, gfx10: no VCC write).
import { familyLookup } from '../isa/table.js';
import type { DecodeContext, FamilyDecoder, Instruction } from './types.js';
import { decodeE32 } from './vop1.js';

const lookupVOPC = familyLookup('VOPC');

export const decodeVOPC: FamilyDecoder = (ctx: DecodeContext): Instruction | string => {
  const w = ctx.words[ctx.index] ?? 0;
  const def = lookupVOPC(ctx.target, (w >>> 17) & 0xff);
  if (def === undefined) return 'unassigned VOPC opcode';
  return decodeE32(ctx, def, 'VOPC');
};
