// Shared decoding for the scalar encodings (SOP1/SOP2/SOPK/SOPC/SOPP/SMEM): scalar register
// codes by operand width, as LLVM 19's AMDGPUDisassembler accepts them on gfx10.
//  - 1 dword: every named code; reserved codes (209-234, 249, 250) make the word invalid.
//  - 2 dwords: SGPR/TTMP pairs (an odd code names the aligned pair below it, LLVM warns), vcc,
//    exec, null, the src_* constants and inline constants; vcc_hi, m0, exec_hi and lds_direct
//    make the word invalid.
//  - 4+ dwords: SGPR/TTMP tuples aligned down to 4 that must fit the file; vcc, exec, null.
import type { DataType, InstrDef, OperandDef } from '../isa/types.js';
import type { DecodeContext, Instruction, Operand, OperandValue } from './types.js';
import { NO_MODS, TRUNCATED, DecodedInstruction } from './types.js';
import { SRC, decodeScalarCode, sgpr, ttmp } from './operands.js';
import { keepLists, keepPairLists, listsOf, pairListsOf, sharedImm, sharedSlots, slotsAt } from './shared-operands.js';

/** Register count of a scalar operand. */
export function scalarDwords(op: OperandDef): number {
  if (op.dwords !== undefined) return op.dwords;
  return typeDwords(op.type);
}

export function typeDwords(t: DataType): number {
  switch (t) {
    case 'b64': case 'i64': case 'u64': case 'f64': return 2;
    case 'b96': return 3;
    case 'b128': return 4;
    case 'b256': return 8;
    case 'b512': return 16;
    default: return 1;
  }
}

const NUM_SGPRS = SRC.SGPR_MAX + 1;
const NUM_TTMPS = SRC.TTMP_MAX - SRC.TTMP_MIN + 1;

/**
 * Decode a scalar register/source code for an operand of `count` dwords, or undefined when LLVM
 * rejects the code for that width (the word is then invalid). A literal (255) comes back as
 * { kind: 'literal', value: NaN } for the caller to fill.
 */
export function decodeScalarReg(code: number, count: number): OperandValue | undefined {
  if (count === 1) {
    const v = decodeScalarCode(code, 1);
    return v.kind === 'reserved' ? undefined : v;
  }
  const align = count === 2 ? 2 : 4;
  if (code <= SRC.SGPR_MAX) {
    const index = code - (code % align);
    return index + count <= NUM_SGPRS ? sgpr(index, count) : undefined;
  }
  if (code >= SRC.TTMP_MIN && code <= SRC.TTMP_MAX) {
    const t = code - SRC.TTMP_MIN;
    const index = t - (t % align);
    return index + count <= NUM_TTMPS ? ttmp(index, count) : undefined;
  }
  switch (code) {
    // vcc, exec and null of `count` dwords.
    case SRC.VCC_LO: case SRC.EXEC_LO: case SRC.NULL: return decodeScalarCode(code, count);
    case SRC.VCC_HI: case SRC.M0: case SRC.EXEC_HI: case SRC.LDS_DIRECT: return undefined;
    default: break;
  }
  if (count > 2) return undefined;
  const v = decodeScalarCode(code, count);
  return v.kind === 'reserved' ? undefined : v;
}

/** The shared record of scalar register code `code` of operand `op` (made at its first use), or undefined where the code is not valid for the operand's width. */
export function sharedScalar(regs: (Operand | undefined)[], code: number, op: OperandDef): Operand | undefined {
  const o = regs[code];
  if (o !== undefined) return o;
  const v = decodeScalarReg(code, scalarDwords(op));
  return v === undefined ? undefined : (regs[code] = { name: op.name, value: v });
}
const BAD_SDST = 'sdst register code is not valid for the operand width';
const BAD_SSRC = 'ssrc code is reserved or not valid for the operand width';

/**
 * Generic SOP decoding, driven by the table's operand list: each operand's kind and name say
 * which field it lives in.
 *   sdst (any role)            bits 22:16 (7-bit scalar register code)
 *   ssrc ssrc0 / ssrc1         bits 7:0 / 15:8 (8-bit source code, 255 = literal dword)
 *   simm16/label/hwreg/...     bits 15:0
 *   literal                    the dword after the instruction (s_setreg_imm32_b32)
 * Returns the Instruction, or a reason string / 'truncated'.
 */
export function decodeSop(ctx: DecodeContext, def: InstrDef, encoding: Instruction['encoding']): Instruction | string {
  const w = ctx.words[ctx.index] ?? 0;
  // The lists of an instruction seen before: of the word alone, or with a literal, of the word
  // and the literal (pairListsOf has lists for `w` only where `w` takes a literal, so the next
  // dword is it; listsOf only where it takes none: at most one of them answers). A source field
  // coded 255 asks for the pair first (a literal is likely), saving the word's lookup.
  const pairFirst = (w & 0xff) === SRC.LITERAL || ((w >>> 8) & 0xff) === SRC.LITERAL;
  if (!pairFirst) {
    const seen = listsOf(def, w);
    if (seen !== undefined) return new DecodedInstruction(ctx.pc, seen.words, 4, encoding, undefined, def, seen.operands, NO_MODS);
  }
  if (ctx.index + 1 < ctx.end) {
    const pair = pairListsOf(def, w, ctx.words[ctx.index + 1] ?? 0);
    if (pair !== undefined) return new DecodedInstruction(ctx.pc, pair.words, 8, encoding, undefined, def, pair.operands, NO_MODS);
  }
  if (pairFirst) {
    const seen = listsOf(def, w);
    if (seen !== undefined) return new DecodedInstruction(ctx.pc, seen.words, 4, encoding, undefined, def, seen.operands, NO_MODS);
  }
  const ops = def.operands;
  // One operand per definition operand: the array made at its length.
  const out: Operand[] = new Array<Operand>(ops.length);
  const shared = sharedSlots(def);
  let size = 1;
  for (let k = 0; k < ops.length; k++) {
    const op = ops[k] as OperandDef;
    switch (op.kind) {
      case 'sdst': {
        const o = sharedScalar(slotsAt(shared, k), (w >>> 16) & 0x7f, op);
        if (o === undefined) return BAD_SDST;
        out[k] = o;
        break;
      }
      case 'ssrc': {
        const code = op.name === 'ssrc1' ? (w >>> 8) & 0xff : w & 0xff;
        if (code === SRC.LITERAL) {
          if (ctx.index + 1 >= ctx.end) return TRUNCATED;
          size = 2;
          out[k] = { name: op.name, value: { kind: 'literal', value: (ctx.words[ctx.index + 1] ?? 0) >>> 0 } };
          break;
        }
        const o = sharedScalar(slotsAt(shared, k), code, op);
        if (o === undefined) return BAD_SSRC;
        out[k] = o;
        break;
      }
      case 'literal': {
        if (ctx.index + 1 >= ctx.end) return TRUNCATED;
        size = 2;
        out[k] = { name: op.name, value: { kind: 'literal', value: (ctx.words[ctx.index + 1] ?? 0) >>> 0 } };
        break;
      }
      default:
        out[k] = sharedImm(def, k, op.name, w & 0xffff);
        break;
    }
  }
  if (size === 1) return new DecodedInstruction(ctx.pc, keepLists(def, w, out).words, 4, encoding, undefined, def, out, NO_MODS);
  return new DecodedInstruction(ctx.pc, keepPairLists(def, w, ctx.words[ctx.index + 1] ?? 0, out, NO_MODS).words, 8, encoding, undefined, def, out, NO_MODS);
}
