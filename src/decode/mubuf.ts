import type { Encoding, DecodeContext, FamilyDecoder, Instruction, Modifiers, Operand, OperandValue } from './types.js';
import type { Family, InstrDef, Target } from '../isa/types.js';
import { lookup } from '../isa/table.js';
import { TRUNCATED, DecodedInstruction } from './types.js';
import { SRC, decodeScalarCode, sgpr, ttmp, vgpr } from './operands.js';
import { keepPairLists, pairListsOf } from './shared-operands.js';

// MUBUF encoding (2 dwords, plus a literal dword when soffset is 255). Field layout: RDNA2 ISA
// reference, "Microcode Formats"; validity rules as LLVM 19 applies them (see tables/mubuf.ts).
//   word 0: [11:0] offset, [12] offen, [13] idxen, [14] glc, [15] dlc, [16] lds,
//           [17] (addr64 before gfx10: ignored), [24:18] op[6:0], [25] op[7], [31:26] 0x38
//   word 1: [7:0] vaddr, [15:8] vdata, [20:16] srsrc/4, [21] ignored, [22] slc, [23] tfe,
//           [31:24] soffset
// MTBUF (src/decode/mtbuf.ts) shares the second word and everything after the opcode.

/** Per-opcode facts the decoder needs, read once from the table's flags. */
export interface BufferOp {
  readonly def: InstrDef;
  /** vdata register count without tfe (0: no vdata). */
  readonly vdataDwords: number;
  readonly ldsOk: boolean;
  readonly noDlc: boolean;
  readonly noTfe: boolean;
  readonly noOperands: boolean;
}

function opFacts(def: InstrDef): BufferOp {
  const flags = def.flags ?? [];
  const vd = def.operands.find((o) => o.name === 'vdata');
  return {
    def,
    vdataDwords: vd === undefined ? 0 : (vd.dwords ?? 1),
    ldsOk: flags.includes('lds'),
    noDlc: flags.includes('noDlc'),
    noTfe: flags.includes('noTfe'),
    noOperands: flags.includes('noOperands'),
  };
}

/** Opcode-indexed facts of a family on a target (built on first use). */
export function bufferOps(family: Family, opcodes: number): (target: Target) => readonly (BufferOp | undefined)[] {
  const cache = new Map<Target, (BufferOp | undefined)[]>();
  return (target) => {
    let ops = cache.get(target);
    if (ops === undefined) {
      ops = [];
      for (let op = 0; op < opcodes; op++) {
        const def = lookup(target, family, op);
        ops.push(def === undefined ? undefined : opFacts(def));
      }
      cache.set(target, ops);
    }
    return ops;
  };
}

const mubufOps = bufferOps('MUBUF', 256);

/** An SGPR quad or TTMP quad named by the 5-bit srsrc field, or undefined when LLVM rejects it. */
export function decodeSrsrc(field: number): OperandValue | undefined {
  const code = field << 2;
  if (code + 3 <= SRC.SGPR_MAX) return sgpr(code, 4);
  if (code >= SRC.TTMP_MIN && code + 3 <= SRC.TTMP_MAX) return ttmp(code - SRC.TTMP_MIN, 4);
  return undefined;
}

/**
 * The part MUBUF and MTBUF share: word 1 and the operand list. `lds` is false for MTBUF.
 * Returns the Instruction or why the encoding is invalid.
 */
export function decodeBufferCommon(
  ctx: DecodeContext, encoding: Encoding, op: BufferOp, w0: number, w1: number, lds: boolean, format: number | undefined,
): Instruction | string {
  // The lists of the words decoded before under this definition first (the words, and the
  // literal where soffset is coded 255, give every operand and modifier).
  const li = ctx.index + 2;
  const seen = pairListsOf(op.def, w0, w1, li < ctx.end ? ctx.words[li] : undefined);
  if (seen !== undefined) return new DecodedInstruction(ctx.pc, seen.words, seen.words.length * 4, encoding, undefined, op.def, seen.operands, seen.mods);
  const offen = (w0 & 0x1000) !== 0;
  const idxen = (w0 & 0x2000) !== 0;
  const glc = (w0 & 0x4000) !== 0;
  const dlc = (w0 & 0x8000) !== 0;
  const slc = (w1 & 0x400000) !== 0;
  const tfe = (w1 & 0x800000) !== 0;

  if (op.noOperands) {
    if (offen || idxen || glc || dlc || lds || tfe) return 'cache invalidate with address or cache-policy bits set';
    return new DecodedInstruction(ctx.pc, [w0 >>> 0, w1 >>> 0], 8, encoding, undefined, op.def, [], {});
  }
  if (lds && !op.ldsOk) return 'lds bit set on an opcode without an LDS form';
  if (dlc && op.noDlc) return 'dlc bit set on an atomic';
  if (tfe && (op.noTfe || lds)) return 'tfe bit set where it is not allowed';

  const operands: Operand[] = [];
  if (!lds && op.vdataDwords > 0) {
    const count = op.vdataDwords + (tfe ? 1 : 0);
    const vdata = (w1 >>> 8) & 0xff;
    if (vdata + count > 256) return 'vdata register range runs past v255';
    operands.push({ name: 'vdata', value: vgpr(vdata, count) });
  }
  const naddr = (offen ? 1 : 0) + (idxen ? 1 : 0);
  if (naddr > 0) {
    const vaddr = w1 & 0xff;
    if (vaddr + naddr > 256) return 'vaddr register range runs past v255';
    operands.push({ name: 'vaddr', value: vgpr(vaddr, naddr) });
  }
  const srsrc = decodeSrsrc((w1 >>> 16) & 0x1f);
  if (srsrc === undefined) return 'srsrc names no SGPR/TTMP quad';
  operands.push({ name: 'srsrc', value: srsrc });

  let soffset = decodeScalarCode(w1 >>> 24, 1);
  let literal: number | undefined;
  if (soffset.kind === 'reserved') return 'soffset is a reserved source code';
  if (soffset.kind === 'literal') {
    if (li >= ctx.end) return TRUNCATED;
    const value = ctx.words[li] ?? 0;
    soffset = { kind: 'literal', value };
    literal = value >>> 0;
  }
  operands.push({ name: 'soffset', value: soffset });

  const mods: Modifiers = format === undefined
    ? { offset: w0 & 0xfff, offen, idxen, glc, slc, dlc, lds, tfe }
    : { offset: w0 & 0xfff, offen, idxen, glc, slc, dlc, lds, tfe, format };
  const words = keepPairLists(op.def, w0 >>> 0, w1 >>> 0, operands, mods, literal).words;
  return new DecodedInstruction(ctx.pc, words, words.length * 4, encoding, undefined, op.def, operands, mods);
}

export const decodeMUBUF: FamilyDecoder = (ctx: DecodeContext): Instruction | string => {
  if (ctx.index + 1 >= ctx.end) return TRUNCATED;
  const w0 = ctx.words[ctx.index] ?? 0;
  const w1 = ctx.words[ctx.index + 1] ?? 0;
  const opcode = ((w0 >>> 18) & 0x7f) | (((w0 >>> 25) & 1) << 7);
  const op = mubufOps(ctx.target)[opcode];
  if (op === undefined) return `MUBUF opcode ${opcode} is not assigned on ${ctx.target}`;
  return decodeBufferCommon(ctx, 'MUBUF', op, w0, w1, (w0 & 0x10000) !== 0, undefined);
};
