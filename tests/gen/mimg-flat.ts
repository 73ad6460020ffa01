// Generators for MIMG and FLAT / GLOBAL / SCRATCH words.
import type { Target } from '../../src/isa/types.js';
import type { Rng } from '../harness/rng.js';
import type { CaseGenerator } from './types.js';

// NOTE: LLVM prints "; Warning: ... scalar reg isn't aligned" after the hex words for an odd
// SGPR-pair / misaligned tuple code, which tests/harness/llvm.ts cannot parse yet (it throws).
// The generators therefore only emit aligned scalar tuple codes; the decoder handles odd codes
// the way LLVM does (index aligned down), see src/decode/flat.ts.

// Filler dword for deterministic cases: s_nop 0 (llvm-objdump elides runs of zero bytes as '...').
const S_NOP = 0xbf800000;

function pad(rng: Rng | undefined, n: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push(rng ? rng.u32() : S_NOP);
  return out;
}

// ---------------------------------------------------------------- FLAT / GLOBAL / SCRATCH

const SEG = { FLAT: 0, SCRATCH: 1, GLOBAL: 2 } as const;
type SegName = keyof typeof SEG;

function flatWord0(op: number, seg: number, offset: number, f: { dlc?: boolean; lds?: boolean; glc?: boolean; slc?: boolean; b25?: boolean }): number {
  return ((0x37 << 26) | ((op & 0x7f) << 18) | ((seg & 3) << 14) | (offset & 0xfff)
    | (f.dlc ? 1 << 12 : 0) | (f.lds ? 1 << 13 : 0) | (f.glc ? 1 << 16 : 0) | (f.slc ? 1 << 17 : 0) | (f.b25 ? 1 << 25 : 0)) >>> 0;
}

function flatWord1(addr: number, data: number, saddr: number, vdst: number, nv = false): number {
  return ((addr & 0xff) | ((data & 0xff) << 8) | ((saddr & 0x7f) << 16) | (nv ? 1 << 23 : 0) | ((vdst & 0xff) << 24)) >>> 0;
}

/** Aligned (warning-free) saddr codes for a segment, plus the reserved ones. */
function saddrCodes(seg: SegName): number[] {
  if (seg === 'SCRATCH') return Array.from({ length: 128 }, (_, i) => i);
  if (seg === 'FLAT') return [0x7d, 0x7f, 0, 2, 106, 124, 126];
  const out: number[] = [];
  for (let i = 0; i < 128; i++) {
    const misaligned = (i <= 105 && (i & 1) === 1) || (i >= 108 && i <= 123 && (i & 1) === 1);
    if (!misaligned) out.push(i);
  }
  out.push(107); // vcc_hi: not a pair (invalid)
  return out;
}

function randomSaddr(rng: Rng, seg: SegName): number {
  const r = rng.int(10);
  if (r < 4) return 0x7d;
  const codes = saddrCodes(seg);
  return rng.pick(codes);
}

const INTERESTING_VGPRS = [0, 1, 2, 3, 127, 128, 252, 253, 254, 255];
function randomVgpr(rng: Rng): number {
  return rng.bool(0.3) ? rng.pick(INTERESTING_VGPRS) : rng.bits(8);
}
const INTERESTING_OFFSETS = [0, 1, 4, 0x7ff, 0x800, 0x801, 0xfff, 0xffe, 0x400];

function flatGenerator(seg: SegName): CaseGenerator {
  const s = SEG[seg];
  return {
    name: seg,
    systematic(_target: Target): number[][] {
      const cases: number[][] = [];
      for (let op = 0; op < 128; op++) {
        for (const glc of [false, true]) {
          cases.push([flatWord0(op, s, 0, { glc }), flatWord1(1, 3, 0x7d, 5), ...pad(undefined, 1)]);
          cases.push([flatWord0(op, s, 0x7ff, { glc, slc: true, dlc: true }), flatWord1(10, 20, seg === 'GLOBAL' ? 4 : 6, 30), ...pad(undefined, 1)]);
        }
        cases.push([flatWord0(op, s, 0x801, { lds: true }), flatWord1(2, 4, 0x7d, 6), ...pad(undefined, 1)]);
        cases.push([flatWord0(op, s, 0xfff, { lds: true, glc: true }), flatWord1(2, 4, 8, 6), ...pad(undefined, 1)]);
        cases.push([flatWord0(op, s, 0x10, { b25: true }), flatWord1(255, 255, 0x7d, 255), ...pad(undefined, 1)]);
        cases.push([flatWord0(op, s, 0x10, {}), flatWord1(254, 252, 0x7d, 253), ...pad(undefined, 1)]);
        cases.push([flatWord0(op, s, 0x10, {}), flatWord1(1, 2, 0x7d, 3, true), ...pad(undefined, 1)]);
      }
      // saddr codes with a load, a store and a returning atomic
      for (const code of saddrCodes(seg)) {
        for (const op of [12, 28, 49, 22]) {
          cases.push([flatWord0(op, s, 0x123, { glc: true }), flatWord1(7, 8, code, 9), ...pad(undefined, 1)]);
        }
      }
      for (const off of INTERESTING_OFFSETS) cases.push([flatWord0(12, s, off, {}), flatWord1(1, 2, 0x7d, 3), S_NOP]);
      return cases;
    },
    random(rng: Rng, _target: Target): number[] {
      const op = rng.bool(0.85) ? rng.pick(FLAT_OPS) : rng.bits(7);
      const off = rng.bool(0.4) ? rng.pick(INTERESTING_OFFSETS) : rng.bits(12);
      const w0 = flatWord0(op, rng.bool(0.97) ? s : 3, off, {
        dlc: rng.bool(0.2), lds: rng.bool(0.1), glc: rng.bool(0.4), slc: rng.bool(0.2), b25: rng.bool(0.05),
      });
      const w1 = flatWord1(randomVgpr(rng), randomVgpr(rng), randomSaddr(rng, seg), randomVgpr(rng), rng.bool(0.03));
      return [w0, w1, rng.u32()];
    },
  };
}

/** Opcodes that exist in some segment (random cases favour them). */
const FLAT_OPS = [
  8, 9, 10, 11, 12, 13, 14, 15, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37,
  48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64,
  80, 81, 82, 83, 85, 86, 87, 88, 89, 90, 91, 92, 93, 94, 95, 96,
];

// ---------------------------------------------------------------- MIMG

interface MimgFields {
  op: number; nsa?: number; dim?: number; dlc?: boolean; dmask?: number; unorm?: boolean; glc?: boolean;
  b14?: boolean; r128?: boolean; tfe?: boolean; lwe?: boolean; slc?: boolean; b6?: boolean;
  vaddr?: number; vdata?: number; srsrc?: number; ssamp?: number; a16?: boolean; d16?: boolean; hi?: number;
}

function mimgWords(f: MimgFields): [number, number] {
  const w0 = ((0x3c << 26) | ((f.op & 0x7f) << 18) | ((f.op >>> 7) & 1) | (((f.nsa ?? 0) & 3) << 1) | (((f.dim ?? 0) & 7) << 3)
    | (f.b6 ? 1 << 6 : 0) | (f.dlc ? 1 << 7 : 0) | (((f.dmask ?? 1) & 0xf) << 8) | (f.unorm ? 1 << 12 : 0) | (f.glc ? 1 << 13 : 0)
    | (f.b14 ? 1 << 14 : 0) | (f.r128 ? 1 << 15 : 0) | (f.tfe ? 1 << 16 : 0) | (f.lwe ? 1 << 17 : 0) | (f.slc ? 1 << 25 : 0)) >>> 0;
  const w1 = (((f.vaddr ?? 1) & 0xff) | (((f.vdata ?? 5) & 0xff) << 8) | (((f.srsrc ?? 1) & 0x1f) << 16) | (((f.ssamp ?? 0) & 0x1f) << 21)
    | (((f.hi ?? 0) & 0xf) << 26) | (f.a16 ? 1 << 30 : 0) | (f.d16 ? 1 << 31 : 0)) >>> 0;
  return [w0, w1];
}

/** MIMG opcodes LLVM knows on some gfx10 target. */
const MIMG_OPS: number[] = [
  ...[0, 1, 2, 3, 4, 5, 8, 9, 10, 11, 14], ...Array.from({ length: 17 }, (_, i) => 0x0f + i).filter((o) => o !== 0x13),
  ...Array.from({ length: 32 }, (_, i) => 0x20 + i),
  0x40, 0x41, 0x44, 0x45, 0x46, 0x47, 0x48, 0x49, 0x4c, 0x4d, 0x4e, 0x4f, 0x50, 0x51, 0x54, 0x55, 0x56, 0x57, 0x58, 0x59, 0x5c, 0x5d, 0x5e, 0x5f,
  0x60, 0x61, ...Array.from({ length: 8 }, (_, i) => 0x68 + i),
  0xa2, 0xa3, 0xaa, 0xab, 0xb2, 0xb3, 0xba, 0xbb, ...Array.from({ length: 8 }, (_, i) => 0xe8 + i),
  0x80, 0xe6, 0xe7,
];
const SAMPLER_OP = (op: number) => (op >= 0x20 && op <= 0x6f) || (op >= 0xa0 && op <= 0xbf) || (op >= 0xe8 && op <= 0xef);

function nsaWords(rng: Rng | undefined, base: number): number[] {
  if (!rng) return [(base + 1) | ((base + 2) << 8) | ((base + 3) << 16) | ((base + 4) << 24), 0x0c0b0a09, 0x100f0e0d].map((w) => w >>> 0);
  const out: number[] = [];
  for (let i = 0; i < 3; i++) {
    let w = 0;
    for (let b = 0; b < 4; b++) w |= (rng.bool(0.15) ? rng.pick([0, 255, 254]) : rng.bits(8)) << (b * 8);
    out.push(w >>> 0);
  }
  return out;
}

const MIMG_GEN: CaseGenerator = {
  name: 'MIMG',
  systematic(_target: Target): number[][] {
    const cases: number[][] = [];
    for (let op = 0; op < 256; op++) {
      const ss = SAMPLER_OP(op) ? 2 : 0;
      const bvh = op === 0xe6 || op === 0xe7;
      const base: MimgFields = bvh ? { op, dmask: 0xf, unorm: true, r128: true } : { op, ssamp: ss };
      for (const nsa of [0, 1, 2, 3]) {
        for (const a16 of [false, true]) {
          cases.push([...mimgWords({ ...base, nsa, a16 }), ...nsaWords(undefined, 1)]);
        }
      }
      if (bvh) {
        cases.push([...mimgWords({ ...base, dmask: 0x7 }), S_NOP, S_NOP, S_NOP]);
        cases.push([...mimgWords({ ...base, glc: true }), S_NOP, S_NOP, S_NOP]);
        cases.push([...mimgWords({ ...base, d16: true }), S_NOP, S_NOP, S_NOP]);
        cases.push([...mimgWords({ ...base, srsrc: 30 }), S_NOP, S_NOP, S_NOP]);
        cases.push([...mimgWords({ ...base, vaddr: 250 }), S_NOP, S_NOP, S_NOP]);
        continue;
      }
      for (let dim = 0; dim < 8; dim++) {
        cases.push([...mimgWords({ ...base, dim, dmask: 0xf }), S_NOP, S_NOP, S_NOP]);
        cases.push([...mimgWords({ ...base, dim, dmask: 0x3, a16: true, nsa: 1 }), ...nsaWords(undefined, 1)]);
        cases.push([...mimgWords({ ...base, dim, dmask: 0x7, nsa: 2 }), ...nsaWords(undefined, 1)]);
        cases.push([...mimgWords({ ...base, dim, dmask: 0x1, nsa: 3 }), ...nsaWords(undefined, 1)]);
      }
      cases.push([...mimgWords({ ...base, dmask: 0xf, tfe: true, d16: true, lwe: true, glc: true, slc: true, dlc: true, unorm: true, r128: true }), S_NOP, S_NOP, S_NOP]);
      cases.push([...mimgWords({ ...base, dmask: 0x0, tfe: true }), S_NOP, S_NOP, S_NOP]);
      cases.push([...mimgWords({ ...base, dmask: 0xf, tfe: true, vdata: 252 }), S_NOP, S_NOP, S_NOP]);
      cases.push([...mimgWords({ ...base, dim: 2, vaddr: 254 }), S_NOP, S_NOP, S_NOP]);
      cases.push([...mimgWords({ ...base, ssamp: ss ? 0 : 3 }), S_NOP, S_NOP, S_NOP]);
      cases.push([...mimgWords({ ...base, b6: true, b14: true, hi: 0xf }), S_NOP, S_NOP, S_NOP]);
    }
    for (let f = 0; f < 32; f++) {
      cases.push([...mimgWords({ op: 0x20, srsrc: f, ssamp: f }), S_NOP, S_NOP, S_NOP]);
      cases.push([...mimgWords({ op: 0xe6, srsrc: f, dmask: 0xf, unorm: true, r128: true }), S_NOP, S_NOP, S_NOP]);
    }
    return cases;
  },
  random(rng: Rng, _target: Target): number[] {
    const op = rng.bool(0.9) ? rng.pick(MIMG_OPS) : rng.bits(8);
    const bvh = op === 0xe6 || op === 0xe7;
    const reg = () => (rng.bool(0.2) ? rng.pick([0, 1, 250, 252, 253, 254, 255]) : rng.bits(8));
    const f: MimgFields = {
      op,
      nsa: rng.bool(0.5) ? 0 : rng.bits(2),
      dim: rng.bits(3),
      dlc: rng.bool(0.15), dmask: rng.bits(4), unorm: rng.bool(0.2), glc: rng.bool(0.15), b14: rng.bool(0.05),
      r128: rng.bool(0.2), tfe: rng.bool(0.2), lwe: rng.bool(0.1), slc: rng.bool(0.15), b6: rng.bool(0.05),
      vaddr: reg(), vdata: reg(), srsrc: rng.bool(0.9) ? rng.int(25) : rng.bits(5),
      ssamp: SAMPLER_OP(op) || rng.bool(0.05) ? (rng.bool(0.9) ? rng.int(26) : rng.bits(5)) : 0,
      a16: rng.bool(0.3), d16: rng.bool(0.2), hi: rng.bool(0.05) ? rng.bits(4) : 0,
    };
    if (bvh && rng.bool(0.8)) { f.dmask = 0xf; f.unorm = true; f.r128 = true; f.dim = 0; f.glc = f.slc = f.dlc = f.tfe = f.lwe = f.d16 = false; if (f.nsa === 1) f.nsa = 2 + rng.int(2); }
    return [...mimgWords(f), ...nsaWords(rng, 0)];
  },
};

export const GENERATORS: readonly CaseGenerator[] = [MIMG_GEN, flatGenerator('FLAT'), flatGenerator('GLOBAL'), flatGenerator('SCRATCH')];
