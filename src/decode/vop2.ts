// VOP2 encoding: [31] 0  [30:25] op  [24:17] vdst  [16:9] vsrc1  [8:0] src0 (+ literal / K).
// Opcodes 62 and 63 are the VOPC and VOP1 prefixes (src/decode/index.ts sends those away).
import { familyLookup } from '../isa/table.js';
import type { DecodeContext, FamilyDecoder, Instruction } from './types.js';
import { decodeE32 } from './vop1.js';

const lookupVOP2 = familyLookup('VOP2');

export const decodeVOP2: FamilyDecoder = (ctx: DecodeContext): Instruction | string => {
  const w = ctx.words[ctx.index] ?? 0;
  const def = lookupVOP2(ctx.target, (w >>> 25) & 0x3f);
  if (def === undefined) return 'unassigned VOP2 opcode';
  return decodeE32(ctx, def, 'VOP2');
};
