import type { DecodeContext, FamilyDecoder, Instruction, Operand } from './types.js';
import type { OperandDef } from '../isa/types.js';
import { familyLookup } from '../isa/table.js';
import { TRUNCATED, DecodedInstruction } from './types.js';
import { sext } from './operands.js';
import { sharedScalar } from './scalar-fields.js';
import { keepPairLists, pairListsOf, sharedImm, sharedSlots, slotsAt } from './shared-operands.js';

const lookupSMEM = familyLookup('SMEM');

// SMEM (2 dwords). Word 0: [31:26]=0x3d, op [25:18], glc [16], dlc [14], sdata [12:6],
// sbase [5:0] (SGPR pair index: code = sbase*2). Word 1: soffset [31:25] (7-bit scalar code,
// null = none), offset [20:0] (signed byte offset). Bits 24:21 of word 1 are ignored.
const BAD_REG = 'SMEM register code is not valid for the operand width';

/**
 * Which field an SMEM operand of kind `kind` lives in: 0 sdst (word 0 [12:6]), 1 an immediate
 * in the same bits, 2 sbase, 3 soffset; -1 for an operand without a field (not decoded).
 */
function fieldOf(kind: OperandDef['kind']): number {
  switch (kind) {
    case 'sdst': return 0;
    case 'imm': return 1;
    case 'sbase': return 2;
    case 'soffset': return 3;
    default: return -1;
  }
}

// Few SMEM instructions run (a kernel's argument loads): this decoder mostly runs before V8
// optimises it, where each call and allocation counts. A register operand's record depends only
// on its field's code, so it is shared per (definition, operand, code) as the scalar ALU's are
// (shared-operands.ts): no record, and no decoding of the code, for one seen before; and an
// instruction's operand list, words and modifiers by (definition, both words).
export const decodeSMEM: FamilyDecoder = (ctx: DecodeContext): Instruction | string => {
  const i = ctx.index;
  const w = ctx.words[i] ?? 0;
  const def = lookupSMEM(ctx.target, (w >>> 18) & 0xff);
  if (def === undefined) return 'SMEM opcode not defined on this target';
  if (i + 1 >= ctx.end) return TRUNCATED;
  const w1 = ctx.words[i + 1] ?? 0;
  // The lists of a pair decoded before under this definition first (the two words give every
  // operand and modifier): then nothing more is decoded or made but the record.
  const seen = pairListsOf(def, w, w1);
  if (seen !== undefined) return new DecodedInstruction(ctx.pc, seen.words, 8, 'SMEM', undefined, def, seen.operands, seen.mods);
  const ops = def.operands;
  let count = 0;
  for (let k = 0; k < ops.length; k++) if (fieldOf((ops[k] as OperandDef).kind) >= 0) count++;
  // One operand per decoded definition operand: the list made at its length.
  const out = new Array<Operand>(count);
  const shared = sharedSlots(def);
  for (let k = 0, j = 0; k < ops.length; k++) {
    const op = ops[k] as OperandDef;
    const field = fieldOf(op.kind);
    if (field < 0) continue;
    if (field === 1) { out[j++] = sharedImm(def, k, op.name, (w >>> 6) & 0x7f); continue; }
    const code = field === 0 ? (w >>> 6) & 0x7f : field === 2 ? (w & 0x3f) << 1 : w1 >>> 25;
    const o = sharedScalar(slotsAt(shared, k), code, op);
    if (o === undefined) return BAD_REG;
    out[j++] = o;
  }
  const mods = { offset: sext(w1 & 0x1fffff, 21), glc: ((w >>> 16) & 1) === 1, dlc: ((w >>> 14) & 1) === 1 };
  return new DecodedInstruction(ctx.pc, keepPairLists(def, w, w1, out, mods).words, 8, 'SMEM', undefined, def, out, mods);
};
