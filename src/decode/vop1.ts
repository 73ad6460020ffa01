// VOP1 encoding (and the shared e32 operand decoding of VOP1, VOP2 and VOPC).
// VOP1:  [31:25] 0111111  [24:17] vdst  [16:9] op  [8:0] src0
// VOP2:  [31] 0  [30:25] op  [24:17] vdst  [16:9] vsrc1  [8:0] src0
// VOPC:  [31:25] 0111110  [24:17] op  [16:9] vsrc1  [8:0] src0
// src0 = 255: a 32-bit literal dword follows. The K constant of madmk/madak/fmamk/fmaak is that
// same dword (LLVM reads one literal: a src0 literal and K are the same value; 2 dwords in all).
// LLVM 19 facts the decoder follows (probed on gfx1010/gfx1013/gfx1030):
//  - reserved source codes (209-232, 249/250 outside DPP/SDWA, ...) make the word invalid;
//    64-bit sources: vcc_hi, m0, exec_hi, src_lds_direct and register ranges past the end are
//    invalid, SGPR/TTMP pairs are aligned down (s1 -> s[0:1]) (decodeValuSrc).
//  - operand-less opcodes (v_nop, v_pipeflush, v_clrexcp) need vdst = 0 and ignore src0 (no
//    literal is read even for src0 = 255); VOP2 opcode 0 is v_illegal for the word 0 only.
//  - register-class operands (VGPR_32 src0 of v_swap*/v_movrels*, VRegOrLds_32 src0 and the
//    SGPR destination of v_readfirstlane_b32) decode whatever the field holds; the printer adds
//    LLVM's /*Invalid ...*/ notes. Reserved codes there are still invalid words.
import type { InstrDef, OperandDef } from '../isa/types.js';
import { familyLookup } from '../isa/table.js';
import type { DecodeContext, FamilyDecoder, Instruction, Operand, OperandValue } from './types.js';
import { NO_MODS, TRUNCATED, DecodedInstruction } from './types.js';
import { SRC, decodeScalarCode, decodeValuSrc, vgpr } from './operands.js';
import { keepLists, keepPairLists, listsOf, pairListsOf, sharedSlots, slotsAt } from './shared-operands.js';

const lookupVOP1 = familyLookup('VOP1');

/** Dwords of a register operand of this type. */
export function dwordsOf(od: OperandDef): number {
  if (od.dwords !== undefined) return od.dwords;
  switch (od.type) {
    case 'b64': case 'i64': case 'u64': case 'f64': return 2;
    default: return 1;
  }
}

const VCC_LO: OperandValue = { kind: 'special', reg: 'vcc_lo', code: SRC.VCC_LO, count: 1 };

/**
 * Decode the e32 operands of `def` from word `w`: vdst [24:17], vsrc1 [16:9], src0 [8:0].
 * Returns the instruction or an invalid-word reason.
 */
export function decodeE32(ctx: DecodeContext, def: InstrDef, encoding: 'VOP1' | 'VOP2' | 'VOPC'): Instruction | string {
  const w = ctx.words[ctx.index] ?? 0;
  // The lists of an instruction seen before first: of the word alone, or with a literal, of the
  // word and the literal (as decodeSop's: whether a word takes a literal depends on the word and
  // definition alone, so at most one of them answers; src0 coded 255 asks for the pair first).
  // Then nothing of the definition is read, which a recompile's other work has mostly evicted
  // from the cache.
  const pairFirst = (w & 0x1ff) === SRC.LITERAL;
  if (!pairFirst) {
    const seen = listsOf(def, w);
    if (seen !== undefined) return new DecodedInstruction(ctx.pc, seen.words, 4, encoding, 'e32', def, seen.operands, NO_MODS);
  }
  if (ctx.index + 1 < ctx.end) {
    const pair = pairListsOf(def, w, ctx.words[ctx.index + 1] ?? 0);
    if (pair !== undefined) return new DecodedInstruction(ctx.pc, pair.words, 8, encoding, 'e32', def, pair.operands, NO_MODS);
  }
  const ops = def.operands;
  if (ops.length === 0) {
    if (((w >>> 17) & 0xff) !== 0) return 'operand-less opcode with a non-zero vdst field';
    if ((w & 0x1ffff) !== 0 && def.flags !== undefined && def.flags.includes('zeroFields')) return 'v_illegal needs an all-zero word';
    return new DecodedInstruction(ctx.pc, [w >>> 0], 4, encoding, 'e32', def, [], NO_MODS);
  }
  let literal: number | undefined;
  // One operand per definition operand: the array made at its length.
  const operands: Operand[] = new Array<Operand>(ops.length);
  const shared = sharedSlots(def);
  for (let k = 0; k < ops.length; k++) {
    const od = ops[k] as OperandDef;
    let value: OperandValue;
    // The field's code for the shared records (-1: not shared, a literal).
    let code = -1;
    switch (od.kind) {
      case 'vgpr': {
        const field = od.name === 'vdst' ? (w >>> 17) & 0xff : (w >>> 9) & 0xff;
        const slots = slotsAt(shared, k), o = slots[field];
        if (o !== undefined) { operands[k] = o; continue; }
        const count = dwordsOf(od);
        if (field + count > 256) return `${od.name} register range past v255`;
        value = vgpr(field, count);
        code = field;
        break;
      }
      case 'src': {
        code = w & 0x1ff;
        const o = code === SRC.LITERAL ? undefined : slotsAt(shared, k)[code];
        if (o !== undefined) { operands[k] = o; continue; }
        value = decodeValuSrc(code, dwordsOf(od));
        if (value.kind === 'reserved') return `reserved source code ${code} in src0`;
        if (value.kind === 'literal') {
          if (ctx.index + 1 >= ctx.end) return TRUNCATED;
          literal = (ctx.words[ctx.index + 1] ?? 0) >>> 0;
          value = { kind: 'literal', value: literal };
          code = -1;
        }
        break;
      }
      case 'sdst': {
        code = (w >>> 17) & 0xff;
        const o = code === SRC.LITERAL ? undefined : slotsAt(shared, k)[code];
        if (o !== undefined) { operands[k] = o; continue; }
        value = decodeScalarCode(code, 1);
        if (value.kind === 'reserved') return `reserved code ${code} in ${od.name}`;
        if (value.kind === 'literal') {
          if (ctx.index + 1 >= ctx.end) return TRUNCATED;
          literal = (ctx.words[ctx.index + 1] ?? 0) >>> 0;
          value = { kind: 'literal', value: literal };
          code = -1;
        }
        break;
      }
      case 'literal': {
        if (ctx.index + 1 >= ctx.end) return TRUNCATED;
        literal = (ctx.words[ctx.index + 1] ?? 0) >>> 0;
        value = { kind: 'literal', value: literal };
        break;
      }
      case 'vcc':
        value = VCC_LO;
        code = 0;
        break;
      default:
        return `unexpected operand kind ${od.kind} in an e32 definition`;
    }
    const o: Operand = { name: od.name, value };
    if (code >= 0) slotsAt(shared, k)[code] = o;
    operands[k] = o;
  }
  const words = literal === undefined ? keepLists(def, w, operands).words : keepPairLists(def, w >>> 0, literal, operands, NO_MODS).words;
  return new DecodedInstruction(ctx.pc, words, words.length * 4, encoding, 'e32', def, operands, NO_MODS);
}

export const decodeVOP1: FamilyDecoder = (ctx: DecodeContext): Instruction | string => {
  const w = ctx.words[ctx.index] ?? 0;
  const def = lookupVOP1(ctx.target, (w >>> 9) & 0xff);
  if (def === undefined) return 'unassigned VOP1 opcode';
  return decodeE32(ctx, def, 'VOP1');
};
