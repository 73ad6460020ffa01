import type { DecodeContext, FamilyDecoder, Instruction, Operand } from './types.js';
import type { OperandDef } from '../isa/types.js';
import { familyLookup } from '../isa/table.js';
import { TRUNCATED } from './types.js';
import { sext } from './operands.js';
import { decodeScalarReg, scalarDwords, scalarInstruction } from './scalar-fields.js';

const lookupSMEM = familyLookup('SMEM');

// SMEM (2 dwords). Word 0: [31:26]=0x3d, op [25:18], glc [16], dlc [14], sdata [12:6],
// sbase [5:0] (SGPR pair index: code = sbase*2). Word 1: soffset [31:25] (7-bit scalar code,
// null = none), offset [20:0] (signed byte offset). Bits 24:21 of word 1 are ignored.
const BAD_REG = 'SMEM register code is not valid for the operand width';

export const decodeSMEM: FamilyDecoder = (ctx: DecodeContext): Instruction | string => {
  const w = ctx.words[ctx.index] ?? 0;
  const def = lookupSMEM(ctx.target, (w >>> 18) & 0xff);
  if (def === undefined) return 'SMEM opcode not defined on this target';
  if (ctx.index + 1 >= ctx.end) return TRUNCATED;
  const w1 = ctx.words[ctx.index + 1] ?? 0;
  const out: Operand[] = [];
  const ops = def.operands;
  for (let k = 0; k < ops.length; k++) {
    const op = ops[k] as OperandDef;
    let code: number;
    switch (op.kind) {
      case 'sdst': code = (w >>> 6) & 0x7f; break;
      case 'imm': out.push({ name: op.name, value: { kind: 'imm', value: (w >>> 6) & 0x7f } }); continue;
      case 'sbase': code = (w & 0x3f) << 1; break;
      case 'soffset': code = w1 >>> 25; break;
      default: continue;
    }
    const v = decodeScalarReg(code, scalarDwords(op));
    if (v === undefined) return BAD_REG;
    out.push({ name: op.name, value: v });
  }
  const mods = { offset: sext(w1 & 0x1fffff, 21), glc: ((w >>> 16) & 1) === 1, dlc: ((w >>> 14) & 1) === 1 };
  return scalarInstruction(ctx, def, 2, out, mods, 'SMEM');
};
