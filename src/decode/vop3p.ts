// VOP3P encoding (packed math, mixed-precision FMA, dot products). Two dwords, plus a 32-bit
// literal dword when any source field is 255 (all such sources share the one literal).
// Field layout (RDNA2 ISA reference, "Microcode Formats", VOP3P):
//   word 0: [31:24] 0xCC  [23] 0 (must be 0)  [22:16] OP  [15] CLAMP  [14] OP_SEL_HI[2]
//           [13:11] OP_SEL[2:0]  [10:8] NEG_HI[2:0]  [7:0] VDST
//   word 1: [31:29] NEG_LO[2:0]  [28:27] OP_SEL_HI[1:0]  [26:18] SRC2  [17:9] SRC1  [8:0] SRC0
// Facts checked against LLVM 19: bit 23 set is undecodable; a two-source opcode needs its
// SRC2 field, OP_SEL[2], NEG_LO[2] and NEG_HI[2] to be 0 (OP_SEL_HI[2] is don't-care); source
// codes that name nothing (209-234, 249, 250) make the word undecodable.
import type { InstrDef } from '../isa/types.js';
import { familyLookup } from '../isa/table.js';
import { VOP3P_TABLE } from '../isa/tables/vop3p.js';
import type { DecodeContext, FamilyDecoder, Instruction, Modifiers, Operand, OperandValue } from './types.js';
import { TRUNCATED, DecodedInstruction } from './types.js';
import { SRC, decodeSrc9, vgpr } from './operands.js';

const lookupVOP3P = familyLookup('VOP3P');

interface Vop3pInfo {
  /** Number of source operands (2 or 3). */
  readonly nsrc: number;
  /** v_fma_mix*: neg_lo/neg_hi are per-source neg/abs. */
  readonly mix: boolean;
  /** Operand names in table order: vdst, src0, src1[, src2]. */
  readonly names: readonly string[];
}

const INFO = new Map<InstrDef, Vop3pInfo>();
for (const def of VOP3P_TABLE) {
  INFO.set(def, {
    nsrc: def.operands.filter((o) => o.kind === 'src').length,
    mix: def.flags?.includes('fmaMix') ?? false,
    names: def.operands.map((o) => o.name),
  });
}

/** Information the VOP3P decoder and printer share about a table entry. */
export function vop3pInfo(def: InstrDef): Vop3pInfo | undefined {
  return INFO.get(def);
}

const NOT_ZERO_FOR_2SRC = 'VOP3P: a two-source opcode needs src2, op_sel[2], neg_lo[2] and neg_hi[2] to be 0';

export const decodeVOP3P: FamilyDecoder = (ctx: DecodeContext): Instruction | string => {
  const { words, index, end } = ctx;
  if (index + 1 >= end) return TRUNCATED;
  const w0 = words[index] ?? 0;
  const w1 = words[index + 1] ?? 0;
  if ((w0 & 0x00800000) !== 0) return 'VOP3P: bit 23 must be 0';
  const def = lookupVOP3P(ctx.target, (w0 >>> 16) & 0x7f);
  if (def === undefined) return 'VOP3P: no instruction has this opcode on this target';
  const info = INFO.get(def);
  if (info === undefined) return 'VOP3P: opcode is not a VOP3P table entry';

  const opsel = (w0 >>> 11) & 7;
  const opselHi = ((w1 >>> 27) & 3) | (((w0 >>> 14) & 1) << 2);
  const negLo = (w1 >>> 29) & 7;
  const negHi = (w0 >>> 8) & 7;
  const clamp = (w0 & 0x8000) !== 0;
  const codes = [w1 & 0x1ff, (w1 >>> 9) & 0x1ff, (w1 >>> 18) & 0x1ff] as const;
  const nsrc = info.nsrc;
  if (nsrc < 3 && (codes[2] !== 0 || ((opsel | negLo | negHi) & 4) !== 0)) return NOT_ZERO_FOR_2SRC;

  let size = 2;
  const operands: Operand[] = [{ name: info.names[0] ?? 'vdst', value: vgpr(w0 & 0xff, 1) }];
  for (let i = 0; i < nsrc; i++) {
    const code = codes[i] ?? 0;
    let value: OperandValue;
    if (code === SRC.LITERAL) {
      if (index + 2 >= end) return TRUNCATED;
      value = { kind: 'literal', value: words[index + 2] ?? 0 };
      size = 3;
    } else {
      value = decodeSrc9(code, 1);
      if (value.kind === 'reserved') return 'VOP3P: a source field holds a reserved code';
    }
    const name = info.names[i + 1] ?? `src${i}`;
    if (info.mix) {
      const neg = ((negLo >>> i) & 1) === 1;
      const abs = ((negHi >>> i) & 1) === 1;
      operands.push(neg || abs ? { name, value, neg, abs } : { name, value });
    } else {
      operands.push({ name, value });
    }
  }

  const mods: Modifiers = info.mix ? { clamp, opsel, opselHi } : { clamp, opsel, opselHi, negLo, negHi };
  const ws: number[] = size === 3 ? [w0, w1, words[index + 2] ?? 0] : [w0, w1];
  return new DecodedInstruction(ctx.pc, ws, size * 4, 'VOP3P', 'e64', def, operands, mods);
};
