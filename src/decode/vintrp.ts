import { familyLookup } from '../isa/table.js';
import type { DecodeContext, FamilyDecoder, Instruction, Operand } from './types.js';
import { DecodedInstruction } from './types.js';

const lookupVINTRP = familyLookup('VINTRP');

// VINTRP encoding (1 dword). RDNA2 ISA reference, "Microcode Formats", VINTRP:
//   vsrc [7:0], attrchan [9:8], attr [15:10], op [17:16], vdst [25:18], encoding [31:26] = 0b110010
// The table says whether vsrc is a VGPR (kind 'vgpr') or a parameter slot (kind 'imm').

export const decodeVINTRP: FamilyDecoder = (ctx: DecodeContext): Instruction | string => {
  const w = ctx.words[ctx.index] ?? 0;
  const def = lookupVINTRP(ctx.target, (w >>> 16) & 3);
  if (def === undefined) return 'VINTRP opcode is not defined';
  const vsrc = w & 0xff;
  const attrChan = (w >>> 8) & 3;
  const attr = (w >>> 10) & 0x3f;
  const vdst = (w >>> 18) & 0xff;
  const operands: Operand[] = [];
  for (const o of def.operands) {
    switch (o.name) {
      case 'vdst': operands.push({ name: o.name, value: { kind: 'vgpr', index: vdst, count: 1 } }); break;
      case 'vsrc': operands.push({ name: o.name, value: o.kind === 'vgpr' ? { kind: 'vgpr', index: vsrc, count: 1 } : { kind: 'imm', value: vsrc } }); break;
      case 'attr': operands.push({ name: o.name, value: { kind: 'imm', value: attr } }); break;
      case 'attrchan': operands.push({ name: o.name, value: { kind: 'imm', value: attrChan } }); break;
      default: return `VINTRP table: unknown operand ${o.name}`;
    }
  }
  return new DecodedInstruction(ctx.pc, [w], 4, 'VINTRP', undefined, def, operands, { attr, attrChan });
};
