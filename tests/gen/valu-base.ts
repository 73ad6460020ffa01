// Generators for the VALU base (e32) encodings VOP1, VOP2 and VOPC.
// src0 codes 233/234 (DPP8), 249 (SDWA) and 250 (DPP16) select the DPP/SDWA forms, which the
// dpp-sdwa generators cover; they are left out here.
import type { Target } from '../../src/isa/types.js';
import type { Rng } from '../harness/rng.js';
import type { CaseGenerator } from './types.js';

const VARIANT_CODES = new Set([233, 234, 249, 250]);

/** src0 codes of every class: SGPRs (edges, odd/even), vcc, ttmp, m0, null, exec, inline, reserved, specials, literal, VGPRs. */
const SRC0_CODES: readonly number[] = [
  0, 1, 2, 3, 57, 104, 105, 106, 107, 108, 109, 110, 122, 123, 124, 125, 126, 127,
  128, 129, 150, 191, 192, 193, 200, 207, 208, 209, 220, 232, 235, 236, 237, 238, 239,
  240, 241, 242, 243, 244, 245, 246, 247, 248, 251, 252, 253, 254, 255,
  256, 257, 300, 383, 510, 511,
];

/** Literal dwords that hit LLVM's per-type constant printing rules. */
const LITERALS: readonly number[] = [
  0, 1, 64, 65, 0xfffffff0, 0xffffffef, 0xffffffff, 0x3f800000, 0xbf800000, 0x3f000000, 0xc0800000,
  0x3e22f983, 0x3c00, 0xbc00, 0x3800, 0x4400, 0xc400, 0x3118, 0xffff3c00, 0x12343c00, 0x10040,
  0xffff, 0xfff0, 0x3ff00000, 0xbfe00000, 0x40100000, 0x3fc45f30, 0x80000000, 0x7fffffff,
  0x12345678, 0x00010000,
];

const FILLER = 0x7e000000; // v_nop: an extra dword that decodes the same everywhere

function vop1(op: number, vdst: number, src0: number): number { return ((0x3f << 25) | ((vdst & 0xff) << 17) | ((op & 0xff) << 9) | (src0 & 0x1ff)) >>> 0; }
function vop2(op: number, vdst: number, vsrc1: number, src0: number): number { return (((op & 0x3f) << 25) | ((vdst & 0xff) << 17) | ((vsrc1 & 0xff) << 9) | (src0 & 0x1ff)) >>> 0; }
function vopc(op: number, vsrc1: number, src0: number): number { return ((0x3e << 25) | ((op & 0xff) << 17) | ((vsrc1 & 0xff) << 9) | (src0 & 0x1ff)) >>> 0; }

type Encode = (op: number, vdst: number, vsrc1: number, src0: number) => number;

function randomSrc0(rng: Rng): number {
  for (;;) {
    const r = rng.int(100);
    let c: number;
    if (r < 30) c = 256 + rng.int(256);
    else if (r < 45) c = rng.int(106);
    else if (r < 55) c = 106 + rng.int(22);
    else if (r < 70) c = 128 + rng.int(81);
    else if (r < 78) c = 240 + rng.int(9);
    else if (r < 90) c = 255;
    else if (r < 95) c = 235 + rng.int(5) + (rng.bool() ? 16 : 0);
    else c = rng.int(512);
    if (!VARIANT_CODES.has(c)) return c;
  }
}

function randomLiteral(rng: Rng): number {
  return rng.bool(0.4) ? rng.pick(LITERALS) : rng.u32();
}

function randomReg8(rng: Rng): number {
  const r = rng.int(10);
  if (r < 2) return 0;
  if (r < 4) return 254 + rng.int(2);
  return rng.int(256);
}

function makeGen(name: string, opRange: number, encode: Encode): CaseGenerator {
  return {
    name,
    systematic(_target: Target): number[][] {
      const cases: number[][] = [];
      for (let op = 0; op < opRange; op++) {
        for (const src0 of SRC0_CODES) cases.push([encode(op, 1, 2, src0), 0x12345678, FILLER]);
        for (const lit of LITERALS) cases.push([encode(op, 0, 3, 255), lit, FILLER]);
        for (const [vdst, vsrc1] of [[0, 0], [255, 255], [254, 254], [128, 7]] as const) {
          cases.push([encode(op, vdst, vsrc1, 256 + vdst), 0x3c00, FILLER]);
        }
      }
      // v_readfirstlane_b32: every code of its SGPR destination field.
      if (name === 'VOP1') for (let c = 0; c < 256; c++) cases.push([encode(2, c, 0, 257), 0x40, FILLER]);
      // The all-zero dword (v_illegal), alone and in a run.
      if (name === 'VOP2') cases.push([0x00000000, FILLER], [0x00000000, 0x00000000, 0x00000000, FILLER]);
      // Truncated: a literal-taking word at the very end of a case.
      for (let op = 0; op < opRange; op += 7) cases.push([encode(op, 1, 2, 255)]);
      return cases;
    },
    random(rng: Rng, _target: Target): number[] {
      const op = rng.int(opRange);
      const w = encode(op, randomReg8(rng), randomReg8(rng), randomSrc0(rng));
      return [w, randomLiteral(rng), rng.bool(0.5) ? FILLER : rng.u32()];
    },
  };
}

export const GENERATORS: readonly CaseGenerator[] = [
  makeGen('VOP1', 256, (op, vdst, _vsrc1, src0) => vop1(op, vdst, src0)),
  makeGen('VOP2', 62, (op, vdst, vsrc1, src0) => vop2(op, vdst, vsrc1, src0)),
  makeGen('VOPC', 256, (op, _vdst, vsrc1, src0) => vopc(op, vsrc1, src0)),
];
