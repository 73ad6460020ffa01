import { familyLookup } from '../isa/table.js';
import type { DecodeContext, FamilyDecoder, Instruction, Operand } from './types.js';
import { TRUNCATED, DecodedInstruction } from './types.js';

const lookupEXP = familyLookup('EXP');

// EXP encoding (2 dwords). RDNA2 ISA reference, "Microcode Formats", EXP:
//   word0: en [3:0], target [9:4], compr [10], done [11], vm [12], reserved [25:13] (ignored),
//          encoding [31:26] = 0b111110
//   word1: vsrc0 [7:0], vsrc1 [15:8], vsrc2 [23:16], vsrc3 [31:24]
// Every target value decodes (LLVM prints unknown ones as invalid_target_N).

export const decodeEXP: FamilyDecoder = (ctx: DecodeContext): Instruction | string => {
  if (ctx.index + 1 >= ctx.end) return TRUNCATED;
  const w0 = ctx.words[ctx.index] ?? 0;
  const w1 = ctx.words[ctx.index + 1] ?? 0;
  const def = lookupEXP(ctx.target, 0);
  if (def === undefined) return 'EXP is not defined on this target';
  const target = (w0 >>> 4) & 0x3f;
  const operands: Operand[] = [
    { name: 'tgt', value: { kind: 'imm', value: target } },
    { name: 'vsrc0', value: { kind: 'vgpr', index: w1 & 0xff, count: 1 } },
    { name: 'vsrc1', value: { kind: 'vgpr', index: (w1 >>> 8) & 0xff, count: 1 } },
    { name: 'vsrc2', value: { kind: 'vgpr', index: (w1 >>> 16) & 0xff, count: 1 } },
    { name: 'vsrc3', value: { kind: 'vgpr', index: w1 >>> 24, count: 1 } },
  ];
  return new DecodedInstruction(ctx.pc, [w0, w1], 8, 'EXP', undefined, def, operands, { target, en: w0 & 0xf, compr: ((w0 >>> 10) & 1) === 1, done: ((w0 >>> 11) & 1) === 1, vm: ((w0 >>> 12) & 1) === 1 });
};
