// Generators for MIMG and FLAT / GLOBAL / SCRATCH words.
import type { Target } from '../../src/isa/types.js';
import type { Rng } from '../harness/rng.js';
import type { CaseGenerator } from './types.js';

// NOTE: LLVM prints "; Warning: ... scalar reg isn't aligned" after the hex words for an odd
// SGPR-pair / misaligned tuple code, which tests/harness/llvm.ts cannot parse yet (it throws).
// The generators therefore only emit aligned scalar tuple codes; the decoder handles odd codes
// the way LLVM does (index aligned down), see src/decode/flat.ts.

function pad(rng: Rng | undefined, n: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push(rng ? rng.u32() : 0x00000000);
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
      for (const off of INTERESTING_OFFSETS) cases.push([flatWord0(12, s, off, {}), flatWord1(1, 2, 0x7d, 3), 0]);
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

export const GENERATORS: readonly CaseGenerator[] = [flatGenerator('FLAT'), flatGenerator('GLOBAL'), flatGenerator('SCRATCH')];
