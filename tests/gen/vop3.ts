// VOP3 case generator: native VOP3 opcodes and the e64 forms of VOP1/VOP2/VOPC.
//   word 0: 0b110101 OP[25:16] CLAMP[15] OP_SEL[14:11] ABS[10:8] VDST[7:0]   (VOP3b: SDST[14:8])
//   word 1: NEG[31:29] OMOD[28:27] SRC2[26:18] SRC1[17:9] SRC0[8:0]   (+ literal)
import type { Target } from '../../src/isa/types.js';
import { vop3Layout } from '../../src/decode/vop3.js';
import type { Rng } from '../harness/rng.js';
import type { CaseGenerator } from './types.js';

const LIT = 255;

function w0(op: number, vdst: number, hi = 0): number {
  return ((0x35 << 26) | ((op & 0x3ff) << 16) | ((hi & 0xff) << 8) | (vdst & 0xff)) >>> 0;
}

function w1(s0: number, s1: number, s2: number, omod = 0, neg = 0): number {
  return (((neg & 7) << 29) | ((omod & 3) << 27) | ((s2 & 0x1ff) << 18) | ((s1 & 0x1ff) << 9) | (s0 & 0x1ff)) >>> 0;
}

const SPECIAL = [106, 107, 124, 125, 126, 127, 235, 236, 237, 238, 239, 251, 252, 253, 254] as const;
const RESERVED = [209, 210, 220, 230, 233, 234, 249, 250] as const;
const INTERESTING_SRC = [0, 1, 2, 3, 104, 105, 108, 109, 122, 123, ...SPECIAL, 128, 129, 192, 193, 208, 240, 241, 242, 246, 247, 248,
  256, 257, 258, 510, 511, ...RESERVED];

/** Literal values that print differently by operand type (f16 / f32 / f64 / integer). */
const LITERALS = [
  0x00000000, 0x00000001, 0x00000040, 0x00000041, 0xfffffff0, 0xffffffef, 0x0000fff0, 0x0000ffef, 0x0000ffff, 0xffff0000,
  0x00003800, 0x0000b800, 0x00003c00, 0x0000bc00, 0x00004000, 0x0000c400, 0x00003118, 0x00013c00, 0x3c000000,
  0x3f000000, 0xbf000000, 0x3f800000, 0xbf800000, 0x40000000, 0xc0800000, 0x3e22f983, 0x40490fdb, 0x7fc00000,
  0x3fe00000, 0xbff00000, 0x40100000, 0x3fc90fdb, 0x12345678, 0x80000000, 0x00010001, 0xfff0fff0,
] as const;

interface OpInfo {
  readonly op: number;
  readonly nsrc: number;
  readonly interp: boolean;
  /** First opcode of its operand-type / modifier-profile class: gets the exhaustive sweeps. */
  readonly leader: boolean;
}

const OPS_CACHE = new Map<Target, OpInfo[]>();

/** VOP3 opcodes the decoder knows on a target, with their source-field count. */
function opsOf(target: Target): OpInfo[] {
  let ops = OPS_CACHE.get(target);
  if (ops) return ops;
  ops = [];
  const seen = new Set<string>();
  for (let op = 0; op < 1024; op++) {
    const l = vop3Layout(target, op);
    if (!l) continue;
    const fields = new Set(l.operands.map((o) => o.field));
    const nsrc = fields.has('src2') ? 3 : fields.has('src1') || fields.has('param') ? 2 : fields.has('src0') || fields.has('attr') ? 1 : 0;
    const key = JSON.stringify([l.profile, l.interp, l.operands.map((o) => [o.field, o.def.type, o.def.regClass ?? '', o.quirk ?? ''])]);
    const leader = !seen.has(key);
    seen.add(key);
    ops.push({ op, nsrc, interp: l.interp !== 0, leader });
  }
  OPS_CACHE.set(target, ops);
  return ops;
}

function srcs(nsrc: number, a = 258, b = 259, c = 260): [number, number, number] {
  return [nsrc >= 1 ? a : 0, nsrc >= 2 ? b : 0, nsrc >= 3 ? c : 0];
}

function systematic(target: Target): number[][] {
  const out: number[][] = [];
  // The whole opcode field, with 0-3 sources, with and without modifiers.
  for (let op = 0; op < 1024; op++) {
    for (let n = 0; n <= 3; n++) {
      const [a, b, c] = srcs(n);
      out.push([w0(op, 1), w1(a, b, c), 0x3f800000]);
    }
    out.push([w0(op, 1, 0xff), w1(258, 259, 260, 3, 7), 0x3f800000]);
  }
  // Interpolation forms with attributes the assembler also accepts (attr0-32): src0 = chan << 6 | attr.
  for (const { op, interp } of opsOf(target)) {
    if (!interp) continue;
    for (const attrChan of [0x00, 0x41, 0xc3, 0xa0]) {
      out.push([w0(op, 1), w1(attrChan, 259, 0)], [w0(op, 1), w1(attrChan, 259, 260)]);
    }
  }
  for (const { op, nsrc, leader } of opsOf(target)) {
    const [a, b, c] = srcs(nsrc);
    if (!leader) {
      // Same operand types and modifier profile as an opcode swept below: a sample of each form.
      out.push([w0(op, 1, 0xff), w1(a, b, c, 3, 7)]);
      for (let v = 0; v < 8; v++) out.push([w0(op, 1, v | (v << 4)), w1(a, b, c, v & 3, v)]);
      for (const code of [0, 106, 128, 193, 240, 248, 254, 255, 257, 511]) out.push([w0(op, 1), w1(code, nsrc >= 2 ? code : 0, nsrc >= 3 ? code : 0), 0x3f800000]);
      for (const lit of [0x00000041, 0x00003800, 0x3e22f983, 0xfffffff0, 0x40100000]) out.push([w0(op, 1), w1(LIT, b, c), lit]);
      continue;
    }
    const base0 = w0(op, 1);
    const base1 = w1(a, b, c);
    // Each modifier bit on its own and together.
    for (let bit = 8; bit <= 15; bit++) out.push([(base0 | (1 << bit)) >>> 0, base1]);
    for (let bit = 27; bit <= 31; bit++) out.push([base0, (base1 | (1 << bit)) >>> 0]);
    for (let v = 0; v < 16; v++) out.push([w0(op, 1, v << 3), base1]);
    for (let v = 0; v < 8; v++) out.push([w0(op, 1, v), w1(a, b, c, v & 3, v)]);
    out.push([w0(op, 1, 0xff), w1(a, b, c, 3, 7)]);
    // Destination codes (VGPR, or SGPR / special for VOPC, readlane).
    for (const d of [0, 105, 106, 107, 108, 123, 124, 125, 126, 127, 128, 193, 240, 248, 251, 253, 254, 255]) out.push([w0(op, d), base1, 0x00000041]);
    for (const sd of [0, 1, 105, 106, 107, 108, 123, 124, 125, 126, 127]) out.push([w0(op, 1, sd), base1]);
    // Every source code in src0; interesting codes in the other sources.
    for (let code = 0; code < 512; code += code < 256 ? 1 : 37) {
      out.push(code === LIT ? [base0, w1(code, b, c), 0x3c003800] : [base0, w1(code, b, c)]);
    }
    for (const code of INTERESTING_SRC) {
      out.push([base0, w1(a, code, c), 0x40490fdb]);
      out.push([base0, w1(a, b, code), 0x40490fdb]);
      out.push([base0, w1(code, code, code), 0x40490fdb]);
    }
    // Constants with each source modifier.
    for (const code of [128, 129, 193, 240, 243, 248, 255, 106, 253]) {
      for (let v = 1; v < 8; v++) out.push([w0(op, 1, v), w1(code, code === 255 ? b : code, c, 0, v), 0xbf800000]);
    }
    // Literals in each source position, a shared literal, literal with source modifiers.
    for (const lit of LITERALS) {
      out.push([base0, w1(LIT, b, c), lit]);
      if (nsrc >= 2) out.push([base0, w1(a, LIT, c), lit]);
      if (nsrc >= 3) out.push([base0, w1(a, b, LIT), lit]);
    }
    out.push([base0, w1(LIT, LIT, nsrc >= 3 ? LIT : 0), 0x3f800000]);
    // A literal read first by a 32-bit operand (an SGPR destination coded 255), then by others.
    for (const lit of [0x00000005, 0x3ff00000, 0xbe2a6820]) out.push([w0(op, LIT), w1(LIT, b, c), lit], [w0(op, LIT), w1(a, LIT, nsrc >= 3 ? LIT : 0), lit]);
    out.push([w0(op, 1, 7), w1(LIT, 240, nsrc >= 3 ? LIT : 0, 0, 7), 0x3e22f983]);
    // Register ranges at the ends of the files (64-bit operands).
    for (const r of [104, 105, 106, 122, 123, 126, 255, 510, 511]) out.push([w0(op, 255), w1(r, r, r)]);
  }
  return out;
}

const DSTS = [0, 1, 2, 104, 105, 106, 107, 108, 123, 124, 125, 126, 127, 128, 200, 240, 251, 253, 254, 255] as const;

function pickSrc(rng: Rng): number {
  const r = rng.int(10);
  if (r < 3) return 256 + rng.int(256); // VGPR
  if (r < 5) return rng.int(106); // SGPR
  if (r < 8) return rng.pick(INTERESTING_SRC);
  if (r < 9) return LIT;
  return rng.int(512);
}

function random(rng: Rng, target: Target): number[] {
  const ops = opsOf(target);
  const known = ops.length > 0 && rng.bool(0.9);
  const info = known ? rng.pick(ops) : { op: rng.int(1024), nsrc: rng.int(4), interp: false };
  const { op, nsrc } = info;
  // Fields: mostly plausible (unused fields 0, few modifiers), sometimes anything.
  const wild = rng.bool(0.15);
  const vdst = rng.bool(0.7) ? rng.int(256) : rng.pick(DSTS);
  let hi = 0;
  if (wild) hi = rng.bits(8);
  else {
    if (rng.bool(0.3)) hi |= rng.bits(3); // abs (or sdst)
    if (rng.bool(0.3)) hi |= rng.bits(4) << 3; // op_sel (or sdst)
    if (rng.bool(0.2)) hi |= 0x80; // clamp
    if (rng.bool(0.2)) hi = (hi & 0x80) | rng.int(128); // VOP3b sdst
  }
  const s0 = nsrc >= 1 || wild ? pickSrc(rng) : 0;
  const s1 = nsrc >= 2 || wild ? pickSrc(rng) : 0;
  const s2 = nsrc >= 3 || wild ? pickSrc(rng) : 0;
  const omod = wild || rng.bool(0.2) ? rng.int(4) : 0;
  const neg = wild || rng.bool(0.3) ? rng.bits(3) : 0;
  const word1 = w1(s0, s1, s2, omod, neg);
  let lit = rng.bool(0.5) ? rng.pick(LITERALS) : rng.u32();
  // objdump elides runs of zero dwords ("..."): keep a zero word 1 away from a zero extra dword.
  if (word1 === 0 && lit === 0) lit = 1;
  return [w0(op, vdst, hi), word1, lit >>> 0];
}

export const GENERATORS: readonly CaseGenerator[] = [{ name: 'VOP3', systematic, random }];
