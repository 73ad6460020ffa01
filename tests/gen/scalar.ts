// Generators for the scalar encodings: SOP1, SOP2, SOPK, SOPC, SOPP, SMEM.
// A case is the instruction word(s), plus a literal dword when a source field is 255 (or the
// opcode is s_setreg_imm32_b32). Systematic cases: every opcode value of the field (assigned or
// not), every register code of each field for each assigned opcode, literal forms, and
// exhaustive-ish simm16 forms for the symbolic SOPP/SOPK operands.
import type { Target } from '../../src/isa/types.js';
import { definitions } from '../../src/isa/table.js';
import type { Rng } from '../harness/rng.js';
import type { CaseGenerator } from './types.js';

const SOP1_BASE = 0xbe800000;
const SOP2_BASE = 0x80000000;
const SOPK_BASE = 0xb0000000;
const SOPC_BASE = 0xbf000000;
const SOPP_BASE = 0xbf800000;
const SMEM_BASE = 0xf4000000;

const LITERALS = [
  0, 1, 2, 16, 63, 64, 65, 100, 0x7fff, 0x8000, 0xffff, 0x10000, 0x7fffffff, 0x80000000,
  0xffffffff, 0xfffffff0, 0xffffffef, 0xfffffffe,
  0x3f000000, 0xbf000000, 0x3f800000, 0xbf800000, 0x40000000, 0xc0000000, 0x40800000, 0xc0800000, 0x3e22f983,
  0x3c00, 0x3800, 0xbc00, 0x3118, 0x3ff00000, 0x3fe00000, 0xbff00000, 0x40100000, 0x12345678,
];

/** 8-bit source codes that matter: registers at range edges, specials, constants, reserved, literal. */
const SSRC_SPECIAL = [
  0, 1, 2, 3, 4, 5, 100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111, 119, 120, 121, 122, 123,
  124, 125, 126, 127, 128, 129, 160, 191, 192, 193, 200, 207, 208, 209, 210, 220, 232, 233, 234,
  235, 236, 237, 238, 239, 240, 241, 242, 243, 244, 245, 246, 247, 248, 249, 250, 251, 252, 253, 254, 255,
];
const SDST_SPECIAL = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 96, 97, 100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111, 112, 113, 116, 119, 120, 121, 122, 123, 124, 125, 126, 127];

const SIMM16_SPECIAL = [
  0, 1, 2, 3, 4, 7, 15, 16, 31, 32, 63, 64, 65, 0x7f, 0x80, 0xff, 0x100, 0x3ff, 0x400, 0x7ff, 0x800, 0xf800, 0xf801, 0xf841,
  0x1fff, 0x2000, 0x4000, 0x6000, 0x8000, 0xc000, 0xe000, 0x7fff, 0xfff0, 0xfffe, 0xffff, 0xff1f, 0xff7f, 0x3f70, 0xfc07,
];

const u32 = (x: number) => x >>> 0;

function pickLiteral(rng: Rng): number {
  return rng.bool(0.5) ? rng.pick(LITERALS) : rng.u32();
}

function ssrcCode(rng: Rng): number {
  return rng.bool(0.4) ? rng.pick(SSRC_SPECIAL) : rng.int(256);
}

function sdstCode(rng: Rng): number {
  return rng.bool(0.4) ? rng.pick(SDST_SPECIAL) : rng.int(128);
}

function simm16(rng: Rng): number {
  const r = rng.int(10);
  if (r < 3) return rng.pick(SIMM16_SPECIAL);
  if (r < 5) return rng.int(65);
  return rng.int(0x10000);
}

function withLiteral(word: number, needs: boolean, lit: number): number[] {
  return needs ? [u32(word), u32(lit)] : [u32(word)];
}

/** Opcodes assigned on this target (the first word's opcode field). */
function opcodes(target: Target, family: 'SOP1' | 'SOP2' | 'SOPK' | 'SOPC' | 'SOPP' | 'SMEM'): number[] {
  return definitions(target, family).map((d) => d.opcode);
}

// --- SOP1 ------------------------------------------------------------------------------------
const sop1 = (op: number, sdst: number, ssrc: number) => u32(SOP1_BASE | (sdst << 16) | (op << 8) | ssrc);

const SOP1: CaseGenerator = {
  name: 'SOP1',
  systematic(target) {
    const out: number[][] = [];
    for (let op = 0; op < 256; op++) out.push([sop1(op, 2, 4)]);
    for (const op of opcodes(target, 'SOP1')) {
      for (let c = 0; c < 256; c++) out.push(withLiteral(sop1(op, 8, c), c === 255, 0x3f800000));
      for (let d = 0; d < 128; d++) out.push([sop1(op, d, 10)]);
      for (const lit of LITERALS) out.push([sop1(op, 4, 255), lit]);
    }
    return out;
  },
  random(rng) {
    const op = rng.bool(0.9) ? rng.int(0x4a) : rng.int(256);
    const s = ssrcCode(rng);
    return withLiteral(sop1(op, sdstCode(rng), s), s === 255, pickLiteral(rng));
  },
};

// --- SOP2 ------------------------------------------------------------------------------------
const sop2 = (op: number, sdst: number, s0: number, s1: number) => u32(SOP2_BASE | (op << 23) | (sdst << 16) | (s1 << 8) | s0);

const SOP2: CaseGenerator = {
  name: 'SOP2',
  systematic(target) {
    const out: number[][] = [];
    for (let op = 0; op < 0x60; op++) out.push([sop2(op, 2, 4, 6)]);
    for (const op of opcodes(target, 'SOP2')) {
      for (let c = 0; c < 256; c++) {
        out.push(withLiteral(sop2(op, 8, c, 12), c === 255, 0x40000000));
        out.push(withLiteral(sop2(op, 8, 14, c), c === 255, 0xffffffff));
      }
      for (let d = 0; d < 128; d++) out.push([sop2(op, d, 10, 11)]);
      out.push([sop2(op, 3, 255, 255), 0x12345678]);
      for (const lit of LITERALS) out.push([sop2(op, 4, 255, 5), lit]);
    }
    return out;
  },
  random(rng) {
    const op = rng.bool(0.9) ? rng.int(0x37) : rng.int(0x60);
    const a = ssrcCode(rng), b = ssrcCode(rng);
    return withLiteral(sop2(op, sdstCode(rng), a, b), a === 255 || b === 255, pickLiteral(rng));
  },
};

// --- SOPC ------------------------------------------------------------------------------------
const sopc = (op: number, s0: number, s1: number) => u32(SOPC_BASE | (op << 16) | (s1 << 8) | s0);

const SOPC: CaseGenerator = {
  name: 'SOPC',
  systematic(target) {
    const out: number[][] = [];
    for (let op = 0; op < 128; op++) out.push([sopc(op, 4, 6)]);
    for (const op of opcodes(target, 'SOPC')) {
      for (let c = 0; c < 256; c++) {
        out.push(withLiteral(sopc(op, c, 12), c === 255, 0x3f800000));
        out.push(withLiteral(sopc(op, 14, c), c === 255, 0xfffffff0));
      }
      out.push([sopc(op, 255, 255), 0x12345678]);
      for (const lit of LITERALS) out.push([sopc(op, 255, 7), lit]);
    }
    return out;
  },
  random(rng) {
    const op = rng.bool(0.9) ? rng.int(0x14) : rng.int(128);
    const a = ssrcCode(rng), b = ssrcCode(rng);
    return withLiteral(sopc(op, a, b), a === 255 || b === 255, pickLiteral(rng));
  },
};

// --- SOPK ------------------------------------------------------------------------------------
const SETREG_IMM32 = 0x15;
const sopk = (op: number, sdst: number, imm: number) => u32(SOPK_BASE | (op << 23) | (sdst << 16) | (imm & 0xffff));

const SOPK: CaseGenerator = {
  name: 'SOPK',
  systematic(target) {
    const out: number[][] = [];
    for (let op = 0; op < 0x1d; op++) out.push(withLiteral(sopk(op, 3, 0x1234), op === SETREG_IMM32, 0x12345678));
    for (const op of opcodes(target, 'SOPK')) {
      for (let d = 0; d < 128; d++) out.push(withLiteral(sopk(op, d, 0x0604), op === SETREG_IMM32, 0x5));
      for (const v of SIMM16_SPECIAL) out.push(withLiteral(sopk(op, 5, v), op === SETREG_IMM32, 0xffffffff));
      if (op === SETREG_IMM32) for (const lit of LITERALS) out.push([sopk(op, 0, 0xf801), lit]);
    }
    // hwreg: every id with a few offset/size forms; s_version: every flag combination.
    for (let id = 0; id < 64; id++) for (const f of [0, 0xf800, 0x0840, 0x07c0, 0xffc0]) out.push([sopk(0x12, 7, f | id)]);
    for (let low = 0; low < 16; low++) for (const fl of [0, 0x2000, 0x4000, 0x6000, 0x8000, 0xa000, 0xc000, 0xe000, 0x100, 0x1000]) out.push([sopk(0x01, 0, fl | low)]);
    return out;
  },
  random(rng) {
    const op = rng.int(0x1d);
    return withLiteral(sopk(op, sdstCode(rng), simm16(rng)), op === SETREG_IMM32, pickLiteral(rng));
  },
};

// --- SOPP ------------------------------------------------------------------------------------
const sopp = (op: number, imm: number) => u32(SOPP_BASE | (op << 16) | (imm & 0xffff));
const SOPP_SYMBOLIC = [0x0c, 0x10, 0x11, 0x23];

const SOPP: CaseGenerator = {
  name: 'SOPP',
  systematic(target) {
    const out: number[][] = [];
    for (let op = 0; op < 128; op++) for (const v of [0, 1, 0x41, 0xffff]) out.push([sopp(op, v)]);
    for (const op of opcodes(target, 'SOPP')) for (const v of SIMM16_SPECIAL) out.push([sopp(op, v)]);
    // s_waitcnt, s_sendmsg(halt), s_waitcnt_depctr: every 13th value (all values checked once against LLVM by hand).
    for (const op of SOPP_SYMBOLIC) for (let v = 0; v < 0x10000; v += 13) out.push([sopp(op, v)]);
    return out;
  },
  random(rng) {
    const op = rng.bool(0.9) ? rng.int(0x29) : rng.int(128);
    return [sopp(op, simm16(rng))];
  },
};

// --- SMEM ------------------------------------------------------------------------------------
function smem(op: number, sdata: number, sbase: number, glc: boolean, dlc: boolean, soffset: number, offset: number, w0extra = 0, w1extra = 0): number[] {
  const w0 = SMEM_BASE | (op << 18) | (glc ? 1 << 16 : 0) | (dlc ? 1 << 14 : 0) | (sdata << 6) | sbase | w0extra;
  const w1 = (soffset << 25) | (offset & 0x1fffff) | w1extra;
  return [u32(w0), u32(w1)];
}

const OFFSETS = [0, 1, 4, 0x10, 0xfff, 0x1000, 0xfffff, 0x100000, 0x1fffff, 0x1ffff0];
const SOFFSETS = [0, 1, 5, 104, 105, 106, 107, 108, 123, 124, 125, 126, 127];

const SMEM: CaseGenerator = {
  name: 'SMEM',
  systematic(target) {
    const out: number[][] = [];
    for (let op = 0; op < 256; op++) out.push(smem(op, 4, 2, false, false, 125, 0x10));
    for (const op of opcodes(target, 'SMEM')) {
      for (let d = 0; d < 128; d++) out.push(smem(op, d, 2, false, false, 125, 0x10));
      for (let b = 0; b < 64; b++) out.push(smem(op, 8, b, false, false, 125, 0x20));
      for (let s = 0; s < 128; s++) out.push(smem(op, 8, 2, false, false, s, 0));
      for (const s of SOFFSETS) for (const o of OFFSETS) out.push(smem(op, 8, 2, false, false, s, o));
      for (const glc of [false, true]) for (const dlc of [false, true]) out.push(smem(op, 8, 2, glc, dlc, 125, 4));
      // unused bits: word0 13, 15, 17; word1 21-24
      for (const x of [1 << 13, 1 << 15, 1 << 17]) out.push(smem(op, 8, 2, false, false, 125, 4, x));
      for (const x of [1 << 21, 1 << 22, 1 << 23, 1 << 24]) out.push(smem(op, 8, 2, false, false, 6, 4, 0, x));
    }
    return out;
  },
  random(rng) {
    const op = rng.bool(0.6) ? rng.int(0x2b) : rng.bool(0.7) ? 0x40 + rng.int(0x80) : rng.int(256);
    const sdata = rng.bool(0.4) ? rng.pick(SDST_SPECIAL) : rng.int(128);
    const sbase = rng.int(64);
    const soffset = rng.bool(0.5) ? 125 : rng.bool(0.5) ? rng.pick(SOFFSETS) : rng.int(128);
    const offset = rng.bool(0.3) ? rng.pick(OFFSETS) : rng.bits(21);
    const w0x = rng.bool(0.1) ? rng.pick([1 << 13, 1 << 15, 1 << 17]) : 0;
    const w1x = rng.bool(0.1) ? rng.bits(4) << 21 : 0;
    return smem(op, sdata, sbase, rng.bool(0.3), rng.bool(0.3), soffset, offset, w0x, w1x);
  },
};

export const GENERATORS: readonly CaseGenerator[] = [SOP1, SOP2, SOPK, SOPC, SOPP, SMEM];
