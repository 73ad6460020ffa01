// VOP3P case generator: packed math, v_fma_mix*, dot products.
//   word 0: 0xCC [23]=0 OP[22:16] CLAMP[15] OP_SEL_HI2[14] OP_SEL[13:11] NEG_HI[10:8] VDST[7:0]
//   word 1: NEG_LO[31:29] OP_SEL_HI[28:27] SRC2[26:18] SRC1[17:9] SRC0[8:0]   (+ literal)
import type { Target } from '../../src/isa/types.js';
import { VOP3P_TABLE } from '../../src/isa/tables/vop3p.js';
import type { Rng } from '../harness/rng.js';
import type { CaseGenerator } from './types.js';

const LIT = 255;

function word0(op: number, vdst: number, f: { clamp?: boolean; opsel?: number; opselHi2?: number; negHi?: number; bit23?: boolean } = {}): number {
  return (0xcc000000 | (f.bit23 ? 1 << 23 : 0) | ((op & 0x7f) << 16) | (f.clamp ? 0x8000 : 0) | (((f.opselHi2 ?? 1) & 1) << 14) |
    (((f.opsel ?? 0) & 7) << 11) | (((f.negHi ?? 0) & 7) << 8) | (vdst & 0xff)) >>> 0;
}

function word1(src0: number, src1: number, src2: number, f: { negLo?: number; opselHi01?: number } = {}): number {
  return ((((f.negLo ?? 0) & 7) << 29) | (((f.opselHi01 ?? 3) & 3) << 27) | ((src2 & 0x1ff) << 18) | ((src1 & 0x1ff) << 9) | (src0 & 0x1ff)) >>> 0;
}

/** Every opcode the table knows on any target, with its source count. */
const OPS: readonly { readonly opcode: number; readonly nsrc: number }[] = VOP3P_TABLE.map((d) => ({
  opcode: d.opcode,
  nsrc: d.operands.filter((o) => o.kind === 'src').length,
}));
const NSRC = new Map(OPS.map((o) => [o.opcode, o.nsrc]));

const SPECIAL = [106, 107, 124, 125, 126, 127, 235, 236, 237, 238, 239, 251, 252, 253, 254] as const;
const RESERVED = [209, 210, 220, 230, 231, 232, 233, 234, 249, 250] as const;
const INTERESTING_SRC = [0, 1, 104, 105, 108, 123, ...SPECIAL, 128, 129, 192, 193, 208, 240, 241, 242, 246, 247, 248, 256, 257, 511, ...RESERVED];

/** Literal values that print differently by operand type (f16 / v2f16 / f32 / integer). */
const LITERALS = [
  0x00000000, 0x00000001, 0x00000040, 0x00000041, 0xfffffff0, 0xffffffef, 0x0000fff0, 0x0000ffef, 0x0000ffff, 0xffff0000,
  0x00003800, 0x0000b800, 0x00003c00, 0x0000bc00, 0x00004000, 0x0000c000, 0x00004400, 0x0000c400, 0x00003118,
  0x38003800, 0x3c003c00, 0x00013800, 0x38000000, 0x3f000000, 0xbf000000, 0x3f800000, 0xbf800000, 0x40000000,
  0xc0000000, 0x40800000, 0xc0800000, 0x3e22f983, 0x40490fdb, 0x7fc00000, 0x12345678, 0x80000000, 0x00010001, 0xfff0fff0,
] as const;

function systematic(_target: Target): number[][] {
  const out: number[][] = [];
  // The whole opcode field, with and without a src2 operand, with and without modifiers.
  for (let op = 0; op < 128; op++) {
    out.push([word0(op, 3), word1(256, 2, 0)]);
    out.push([word0(op, 3), word1(256, 2, 1)]);
    out.push([word0(op, 255, { clamp: true, opsel: 3, negHi: 3 }), word1(511, 257, 0, { negLo: 3, opselHi01: 1 })]);
    out.push([word0(op, 3, { bit23: true }), word1(256, 2, 0)]);
  }
  for (const { opcode: op, nsrc } of OPS) {
    const s2 = nsrc === 3 ? 1 : 0;
    const base0 = word0(op, 3);
    const base1 = word1(256, 2, s2);
    // Each modifier bit on its own (word 0 bits 8-15 and 23, word 1 bits 27-31).
    for (let b = 8; b <= 15; b++) out.push([(base0 ^ (1 << b)) >>> 0, base1]);
    out.push([(base0 ^ (1 << 23)) >>> 0, base1]);
    for (let b = 27; b <= 31; b++) out.push([base0, (base1 ^ (1 << b)) >>> 0]);
    // Modifier combinations: every op_sel / op_sel_hi / neg_lo / neg_hi value.
    for (let v = 0; v < 8; v++) {
      out.push([word0(op, 3, { opsel: v }), base1]);
      out.push([word0(op, 3, { opselHi2: v >> 2 }), word1(256, 2, s2, { opselHi01: v & 3 })]);
      out.push([word0(op, 3), word1(256, 2, s2, { negLo: v })]);
      out.push([word0(op, 3, { negHi: v }), base1]);
      out.push([word0(op, 7, { clamp: true, opsel: v, negHi: 7 - v, opselHi2: v & 1 }), word1(257, 258, s2 ? 259 : 0, { negLo: v ^ 5, opselHi01: v >> 1 })]);
    }
    // Every scalar source code in src0; interesting codes in the other sources.
    for (let c = 0; c < 256; c++) out.push(c === LIT ? [base0, word1(c, 2, s2), 0x3c003800] : [base0, word1(c, 2, s2)]);
    for (const c of INTERESTING_SRC) {
      out.push([base0, word1(256, c, s2)]);
      out.push([base0, word1(256, 2, c)]); // two-source opcodes: src2 must be 0, else .long
    }
    // Literals in each source position, shared literals, literal with source modifiers.
    for (const lit of LITERALS) {
      out.push([base0, word1(LIT, 2, s2), lit]);
      out.push([base0, word1(256, LIT, s2), lit]);
      if (nsrc === 3) out.push([base0, word1(256, 2, LIT), lit]);
    }
    out.push([base0, word1(LIT, LIT, s2), 0x3f800000]);
    if (nsrc === 3) out.push([base0, word1(LIT, LIT, LIT), 0x00003800]);
    out.push([word0(op, 3, { negHi: 7, opsel: 7 }), word1(LIT, 240, s2 ? LIT : 0, { negLo: 7 }), 0x3e22f983]);
    out.push([word0(op, 3, { negHi: 3 }), word1(LIT, 247, 0, { negLo: 3 }), 0x0000c400]);
  }
  return out;
}

function pickSrc(rng: Rng): number {
  const r = rng.int(100);
  if (r < 30) return 256 + rng.int(256); // VGPR
  if (r < 45) return rng.int(106); // SGPR
  if (r < 52) return 108 + rng.int(16); // TTMP
  if (r < 60) return rng.pick(SPECIAL);
  if (r < 70) return 128 + rng.int(81); // inline integer
  if (r < 78) return 240 + rng.int(9); // inline float
  if (r < 90) return LIT;
  if (r < 95) return rng.pick(RESERVED);
  return rng.int(512);
}

function pickLiteral(rng: Rng): number {
  const r = rng.int(100);
  if (r < 35) return rng.pick(LITERALS);
  if (r < 45) return (rng.int(81) - 16) >>> 0; // around the inline integer range
  if (r < 55) return rng.bits(16); // high half zero
  if (r < 62) return ((rng.pick(LITERALS) & 0xffff) | (rng.bits(16) << 16)) >>> 0; // f16 pattern, junk high half
  return rng.u32();
}

function random(rng: Rng, _target: Target): number[] {
  const op = rng.bool(0.75) ? rng.pick(OPS).opcode : rng.int(128);
  const three = (NSRC.get(op) ?? 3) === 3;
  // Two-source opcodes mostly get the required zero fields, sometimes not (validity checks).
  const clean = !three && rng.bool(0.8);
  const bits3 = () => (rng.bool(0.4) ? 0 : rng.bits(3));
  const m = clean ? 3 : 7;
  const w0 = word0(op, rng.bool(0.2) ? rng.pick([0, 1, 255]) : rng.int(256), {
    bit23: rng.bool(0.03),
    clamp: rng.bool(0.3),
    opsel: bits3() & m,
    opselHi2: rng.bool(0.7) ? 1 : 0,
    negHi: bits3() & m,
  });
  const w1 = word1(pickSrc(rng), pickSrc(rng), clean ? 0 : pickSrc(rng), {
    negLo: bits3() & m,
    opselHi01: rng.bool(0.6) ? 3 : rng.bits(2),
  });
  let extra = pickLiteral(rng);
  // Where VOP3P rejects the words, LLVM decodes word 1 on its own; with source code 249 that is
  // an SDWA word, and LLVM 19 crashes on SDWA selects of 7: keep those out of the extra dword.
  if ((w1 & 0x1ff) === 249) extra = (extra & ~((1 << 10) | (1 << 18) | (1 << 26))) >>> 0;
  return [w0, w1, extra];
}

export const GENERATORS: readonly CaseGenerator[] = [{ name: 'VOP3P', systematic, random }];
