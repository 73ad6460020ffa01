// Generators for the DPP16, DPP8 and SDWA forms of VOP1/VOP2/VOPC. A case is the VOP word (src0 =
// 0xFA / 0xE9 / 0xEA / 0xF9), the control dword, and one random extra dword (a word LLVM rejects
// leaves the control dword to be decoded on its own, which may then want a literal).
import type { Target } from '../../src/isa/types.js';
import { VALU_VARIANTS } from '../../src/isa/tables/valu-variants.js';
import type { Rng } from '../harness/rng.js';
import type { CaseGenerator } from './types.js';

type Fam = 'VOP1' | 'VOP2' | 'VOPC';
const FAMS: readonly Fam[] = ['VOP1', 'VOP2', 'VOPC'];
/** Opcode field range per family (VOP2 opcodes 62/63 are the VOPC/VOP1 prefixes). */
const OPCODES: Record<Fam, number> = { VOP1: 256, VOP2: 62, VOPC: 256 };

const SRC_DPP16 = 0xfa, SRC_DPP8 = 0xe9, SRC_DPP8_FI = 0xea, SRC_SDWA = 0xf9;

function vopWord(fam: Fam, op: number, vdst: number, vsrc1: number, src0: number): number {
  switch (fam) {
    case 'VOP1': return (0x7e000000 | ((vdst & 0xff) << 17) | ((op & 0xff) << 9) | src0) >>> 0;
    case 'VOP2': return (((op & 0x3f) << 25) | ((vdst & 0xff) << 17) | ((vsrc1 & 0xff) << 9) | src0) >>> 0;
    case 'VOPC': return (0x7c000000 | ((op & 0xff) << 17) | ((vsrc1 & 0xff) << 9) | src0) >>> 0;
  }
}

const EXTRA = 0x12345678;

/** Opcodes with a DPP / SDWA form, for biased random picks (any target). */
const DPP_OPS: readonly [Fam, number][] = VALU_VARIANTS.filter((v) => v.dpp).map((v) => [v.family, v.opcode]);
const SDWA_OPS: readonly [Fam, number][] = VALU_VARIANTS.filter((v) => v.sdwa).map((v) => [v.family, v.opcode]);

function pickOp(rng: Rng, known: readonly [Fam, number][]): [Fam, number] {
  if (rng.bool(0.75)) return rng.pick(known);
  const fam = rng.pick(FAMS);
  return [fam, rng.int(OPCODES[fam])];
}

function reg(rng: Rng): number {
  return rng.bool(0.2) ? rng.pick([0, 1, 127, 128, 254, 255]) : rng.int(256);
}

// ---------------------------------------------------------------------------------------------
// DPP16

/** DPP16 control dword. */
function dpp16(src0: number, ctrl: number, rowMask: number, bankMask: number, bits17to23: number): number {
  return ((rowMask << 28) | (bankMask << 24) | ((bits17to23 & 0x7f) << 17) | ((ctrl & 0x1ff) << 8) | (src0 & 0xff)) >>> 0;
}
const QP_IDENT = 0xe4;

function randomCtrl(rng: Rng): number {
  const r = rng.int(10);
  if (r < 3) return rng.int(0x100); // quad_perm
  if (r < 6) return rng.pick([0x100, 0x110, 0x120]) + rng.int(16); // row shifts (incl. invalid 0)
  if (r < 8) return rng.pick([0x150, 0x160]) + rng.int(16); // row_share / row_xmask
  if (r < 9) return rng.pick([0x130, 0x134, 0x138, 0x13c, 0x140, 0x141, 0x142, 0x143]);
  return rng.int(0x200);
}

const DPP16: CaseGenerator = {
  name: 'DPP16',
  systematic(_target: Target): number[][] {
    const out: number[][] = [];
    for (const fam of FAMS) {
      for (let op = 0; op < OPCODES[fam]; op++) {
        const w0 = vopWord(fam, op, 2, 3, SRC_DPP16);
        out.push([w0, dpp16(1, QP_IDENT, 0xf, 0xf, 0), EXTRA]);
        out.push([w0, dpp16(1, QP_IDENT, 0xf, 0xf, 0x78), EXTRA]); // neg/abs on both sources
        out.push([w0, dpp16(1, QP_IDENT, 0xf, 0xf, 0x18), EXTRA]); // src0 neg/abs
        out.push([w0, dpp16(1, QP_IDENT, 0xf, 0xf, 0x60), EXTRA]); // src1 neg/abs
        out.push([w0, dpp16(1, 0x111, 0x3, 0x5, 0x06), EXTRA]); // bound_ctrl, fi
      }
    }
    // Every dpp_ctrl value, on an integer VOP1 and a float VOP2 op.
    for (let ctrl = 0; ctrl < 0x200; ctrl++) {
      out.push([vopWord('VOP1', 1, 5, 0, SRC_DPP16), dpp16(7, ctrl, 0xf, 0xf, 0), EXTRA]);
      out.push([vopWord('VOP2', 3, 5, 6, SRC_DPP16), dpp16(7, ctrl, 0xa, 0x5, 0x04), EXTRA]);
    }
    // Every combination of bits 17-23 (unused, fi, bound_ctrl, neg/abs) on a float and an int op.
    for (let b = 0; b < 0x80; b++) {
      out.push([vopWord('VOP2', 3, 5, 6, SRC_DPP16), dpp16(7, QP_IDENT, 0xf, 0xf, b), EXTRA]);
      out.push([vopWord('VOP2', 37, 5, 6, SRC_DPP16), dpp16(7, QP_IDENT, 0xf, 0xf, b), EXTRA]);
      out.push([vopWord('VOP1', 0x1b, 5, 0, SRC_DPP16), dpp16(7, QP_IDENT, 0xf, 0xf, b), EXTRA]);
    }
    // Masks.
    for (let m = 0; m < 16; m++) {
      out.push([vopWord('VOP1', 1, 5, 0, SRC_DPP16), dpp16(7, 0x141, m, 15 - m, 0), EXTRA]);
    }
    // Register extremes and the carry/cndmask forms with VCC operands.
    for (const [fam, op] of [['VOP1', 1], ['VOP2', 1], ['VOP2', 40], ['VOP2', 41], ['VOP2', 42], ['VOP2', 43], ['VOP2', 54]] as [Fam, number][]) {
      out.push([vopWord(fam, op, 255, 255, SRC_DPP16), dpp16(255, 0x101, 0xf, 0xf, 0), EXTRA]);
      out.push([vopWord(fam, op, 0, 0, SRC_DPP16), dpp16(0, 0x160, 0x0, 0x0, 0x04), EXTRA]);
    }
    // v_nop has an operand-less DPP form: vdst, src0 and neg/abs must be 0.
    for (const w1 of [0, 0xff0ce400, 0x0001ff00, 0x00020000, 0x00000001, 0x00100000, 0x00800000, 0xf0000000]) {
      out.push([vopWord('VOP1', 0, 0, 0, SRC_DPP16), w1, EXTRA]);
    }
    out.push([vopWord('VOP1', 0, 1, 0, SRC_DPP16), 0, EXTRA]);
    // Truncated: the control dword is missing.
    out.push([vopWord('VOP1', 1, 5, 0, SRC_DPP16)]);
    return out;
  },
  random(rng: Rng, _target: Target): number[] {
    if (rng.bool(0.01)) return [vopWord('VOP1', 0, rng.bool(0.8) ? 0 : reg(rng), 0, SRC_DPP16), rng.u32() & (rng.bool() ? 0xff0fff00 : 0xffffffff), rng.u32()];
    const [fam, op] = pickOp(rng, DPP_OPS);
    const w0 = vopWord(fam, op, reg(rng), reg(rng), SRC_DPP16);
    let b = 0;
    if (rng.bool(0.3)) b |= 0x08; // src0 neg
    if (rng.bool(0.3)) b |= 0x10; // src0 abs
    if (rng.bool(0.2)) b |= 0x20; // src1 neg
    if (rng.bool(0.2)) b |= 0x40; // src1 abs
    if (rng.bool(0.3)) b |= 0x04; // bound_ctrl
    if (rng.bool(0.3)) b |= 0x02; // fi
    if (rng.bool(0.1)) b |= 0x01; // unused bit 17
    const rowMask = rng.bool(0.5) ? 0xf : rng.int(16);
    const bankMask = rng.bool(0.5) ? 0xf : rng.int(16);
    const w1 = rng.bool(0.05) ? rng.u32() : dpp16(reg(rng), randomCtrl(rng), rowMask, bankMask, b);
    return [w0, w1, rng.u32()];
  },
};

// ---------------------------------------------------------------------------------------------
// DPP8

function dpp8(src0: number, sel: readonly number[]): number {
  let w = src0 & 0xff;
  sel.forEach((s, i) => { w |= (s & 7) << (8 + 3 * i); });
  return w >>> 0;
}
const SEL8_IDENT = [0, 1, 2, 3, 4, 5, 6, 7];

const DPP8: CaseGenerator = {
  name: 'DPP8',
  systematic(_target: Target): number[][] {
    const out: number[][] = [];
    for (const fam of FAMS) {
      for (let op = 0; op < OPCODES[fam]; op++) {
        out.push([vopWord(fam, op, 2, 3, SRC_DPP8), dpp8(1, SEL8_IDENT), EXTRA]);
        out.push([vopWord(fam, op, 4, 5, SRC_DPP8_FI), dpp8(6, [7, 6, 5, 4, 3, 2, 1, 0]), EXTRA]);
      }
    }
    for (let s = 0; s < 8; s++) {
      out.push([vopWord('VOP1', 1, 5, 0, SRC_DPP8), dpp8(7, [s, s, s, s, s, s, s, s]), EXTRA]);
      out.push([vopWord('VOP2', 3, 5, 6, SRC_DPP8_FI), dpp8(7, [s, 7 - s, s, 7 - s, 0, 1, 2, 3]), EXTRA]);
    }
    for (const [fam, op] of [['VOP2', 1], ['VOP2', 40], ['VOP2', 43], ['VOP2', 54]] as [Fam, number][]) {
      out.push([vopWord(fam, op, 255, 255, SRC_DPP8), 0xffffffff, EXTRA]);
      out.push([vopWord(fam, op, 0, 0, SRC_DPP8_FI), 0, EXTRA]);
    }
    for (const w1 of [0, 0xffffff00, 0x00000080]) {
      out.push([vopWord('VOP1', 0, 0, 0, SRC_DPP8), w1, EXTRA]);
      out.push([vopWord('VOP1', 0, 0, 0, SRC_DPP8_FI), w1, EXTRA]);
    }
    out.push([vopWord('VOP1', 1, 5, 0, SRC_DPP8)]);
    return out;
  },
  random(rng: Rng, _target: Target): number[] {
    const [fam, op] = rng.bool(0.01) ? ['VOP1', 0] as [Fam, number] : pickOp(rng, DPP_OPS);
    const vdst = op === 0 && rng.bool(0.8) ? 0 : reg(rng);
    const w0 = vopWord(fam, op, vdst, reg(rng), rng.bool() ? SRC_DPP8 : SRC_DPP8_FI);
    if (op === 0 && fam === 'VOP1' && rng.bool(0.8)) return [w0, rng.u32() & 0xffffff00, rng.u32()];
    return [w0, rng.u32(), rng.u32()];
  },
};

// ---------------------------------------------------------------------------------------------
// SDWA

interface SdwaFields {
  src0?: number; dstSel?: number; dstUnused?: number; clamp?: number; omod?: number;
  src0Sel?: number; sext0?: number; neg0?: number; abs0?: number; b22?: number; s0?: number;
  src1Sel?: number; sext1?: number; neg1?: number; abs1?: number; b30?: number; s1?: number;
  /** VOPC: sdst in bits 14:8 and sd in 15 (replaces dst_sel/dst_unused/clamp/omod). */
  sdst?: number; sd?: number;
}

function sdwa(f: SdwaFields, fam: Fam): number {
  let w = (f.src0 ?? 1) & 0xff;
  if (fam === 'VOPC' && (f.sdst !== undefined || f.sd !== undefined)) {
    w |= ((f.sdst ?? 0) & 0x7f) << 8 | ((f.sd ?? 0) & 1) << 15;
  } else {
    w |= ((f.dstSel ?? 6) & 7) << 8 | ((f.dstUnused ?? 0) & 3) << 11 | ((f.clamp ?? 0) & 1) << 13 | ((f.omod ?? 0) & 3) << 14;
  }
  w |= ((f.src0Sel ?? 6) & 7) << 16 | ((f.sext0 ?? 0) & 1) << 19 | ((f.neg0 ?? 0) & 1) << 20 | ((f.abs0 ?? 0) & 1) << 21;
  w |= ((f.b22 ?? 0) & 1) << 22 | ((f.s0 ?? 0) & 1) << 23;
  const src1Sel = f.src1Sel ?? (fam === 'VOP1' ? 0 : 6);
  w |= (src1Sel & 7) << 24 | ((f.sext1 ?? 0) & 1) << 27 | ((f.neg1 ?? 0) & 1) << 28 | ((f.abs1 ?? 0) & 1) << 29;
  w |= ((f.b30 ?? 0) & 1) << 30 | ((f.s1 ?? 0) & 1) << 31;
  return w >>> 0;
}

const SDWA_VARIANTS: readonly SdwaFields[] = [
  {}, { neg0: 1 }, { abs0: 1 }, { sext0: 1 }, { neg1: 1 }, { abs1: 1 }, { sext1: 1 }, { clamp: 1 },
  { omod: 1 }, { omod: 2 }, { omod: 3 }, { dstUnused: 1 }, { dstUnused: 2 }, { dstSel: 0 }, { src0Sel: 4 },
  { src1Sel: 5 }, { s0: 1 }, { s1: 1 }, { sdst: 0x6a, sd: 1 }, { sdst: 0x20, sd: 0 }, { b22: 1 }, { b30: 1 },
];

const SDWA_OPS_SAMPLE: readonly [Fam, number][] = [
  ['VOP1', 1], ['VOP1', 0x2b], ['VOP1', 0x50], ['VOP2', 1], ['VOP2', 3], ['VOP2', 37], ['VOP2', 40], ['VOP2', 0x32],
  ['VOP2', 0x3b], ['VOPC', 0x02], ['VOPC', 0x88], ['VOPC', 0x12], ['VOPC', 0xc9],
];

function randomSel(rng: Rng): number {
  return rng.bool(0.0001) ? 7 : rng.bool(0.4) ? 6 : rng.int(7);
}

const SDWA: CaseGenerator = {
  name: 'SDWA',
  systematic(_target: Target): number[][] {
    const out: number[][] = [];
    for (const fam of FAMS) {
      for (let op = 0; op < OPCODES[fam]; op++) {
        const w0 = vopWord(fam, op, 2, 3, SRC_SDWA);
        for (const v of SDWA_VARIANTS) out.push([w0, sdwa(v, fam), EXTRA]);
      }
    }
    for (const [fam, op] of SDWA_OPS_SAMPLE) {
      // Every scalar code as src0 (s0) and as src1 (s1).
      for (let code = 0; code < 256; code++) {
        out.push([vopWord(fam, op, 2, 3, SRC_SDWA), sdwa({ src0: code, s0: 1 }, fam), EXTRA]);
        if (fam !== 'VOP1') out.push([vopWord(fam, op, 2, code, SRC_SDWA), sdwa({ s1: 1 }, fam), EXTRA]);
      }
      // Every select and dst_unused value (7 is reserved: LLVM 19 crashes on it, so only a few).
      for (let s = 0; s < 7; s++) {
        out.push([vopWord(fam, op, 2, 3, SRC_SDWA), sdwa({ dstSel: s, src0Sel: 6 - s, src1Sel: s }, fam), EXTRA]);
      }
      for (let u = 0; u < 4; u++) out.push([vopWord(fam, op, 2, 3, SRC_SDWA), sdwa({ dstUnused: u, dstSel: u }, fam), EXTRA]);
      out.push([vopWord(fam, op, 255, 255, SRC_SDWA), sdwa({ src0: 255, clamp: 1, omod: 2 }, fam), EXTRA]);
    }
    // VOPC sdst: every 7-bit code with sd, on a compare and a cmpx.
    for (let code = 0; code < 128; code++) {
      out.push([vopWord('VOPC', 0x02, 0, 3, SRC_SDWA), sdwa({ sdst: code, sd: 1 }, 'VOPC'), EXTRA]);
      out.push([vopWord('VOPC', 0x12, 0, 3, SRC_SDWA), sdwa({ sdst: code, sd: code & 1 }, 'VOPC'), EXTRA]);
    }
    out.push([vopWord('VOP2', 3, 2, 3, SRC_SDWA), sdwa({ dstSel: 7 }, 'VOP2'), EXTRA]);
    out.push([vopWord('VOP1', 1, 2, 3, SRC_SDWA), sdwa({ src0Sel: 7 }, 'VOP1'), EXTRA]);
    out.push([vopWord('VOPC', 2, 2, 3, SRC_SDWA), sdwa({ src1Sel: 7 }, 'VOPC'), EXTRA]);
    // v_nop has an operand-less SDWA form: only dst_sel, dst_unused and bits 22/30 may be set.
    for (let b = 0; b < 32; b++) out.push([vopWord('VOP1', 0, 0, 0, SRC_SDWA), (1 << b) >>> 0, EXTRA]);
    out.push([vopWord('VOP1', 0, 0, 0, SRC_SDWA), 0x40401f00, EXTRA]);
    out.push([vopWord('VOP1', 0, 0, 0, SRC_SDWA), 0, EXTRA]);
    out.push([vopWord('VOP1', 0, 4, 0, SRC_SDWA), 0, EXTRA]);
    out.push([vopWord('VOP1', 1, 5, 0, SRC_SDWA)]);
    return out;
  },
  random(rng: Rng, _target: Target): number[] {
    if (rng.bool(0.01)) {
      const free = rng.u32() & 0x40401f00;
      return [vopWord('VOP1', 0, rng.bool(0.8) ? 0 : reg(rng), 0, SRC_SDWA), rng.bool(0.7) ? free : (free | (1 << rng.int(32))) >>> 0, rng.u32()];
    }
    const [fam, op] = pickOp(rng, SDWA_OPS);
    const w0 = vopWord(fam, op, reg(rng), rng.bool(0.3) ? rng.int(256) : reg(rng), SRC_SDWA);
    if (rng.bool(0.03)) return [w0, rng.u32(), rng.u32()];
    const p = (x: number) => (rng.bool(x) ? 1 : 0);
    const f: SdwaFields = {
      src0: rng.bool(0.3) ? rng.int(256) : reg(rng),
      dstSel: randomSel(rng), dstUnused: rng.bool(0.05) ? 3 : rng.int(3), clamp: p(0.3), omod: rng.bool(0.7) ? 0 : rng.int(4),
      src0Sel: randomSel(rng), sext0: p(0.2), neg0: p(0.2), abs0: p(0.2), b22: p(0.05), s0: p(0.3),
      src1Sel: fam === 'VOP1' && rng.bool(0.9) ? 0 : randomSel(rng), sext1: p(fam === 'VOP1' ? 0.02 : 0.2),
      neg1: p(fam === 'VOP1' ? 0.02 : 0.2), abs1: p(fam === 'VOP1' ? 0.02 : 0.2), b30: p(0.05), s1: p(fam === 'VOP1' ? 0.02 : 0.3),
    };
    if (fam === 'VOPC') { f.sdst = rng.int(128); f.sd = p(0.5); }
    return [w0, sdwa(f, fam), rng.u32()];
  },
};

export const GENERATORS: readonly CaseGenerator[] = [DPP16, DPP8, SDWA];
