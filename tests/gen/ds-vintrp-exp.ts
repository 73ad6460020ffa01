// Generators for the DS, VINTRP and EXP encodings.
import type { Target } from '../../src/isa/types.js';
import { lookup } from '../../src/isa/table.js';
import type { Rng } from '../harness/rng.js';
import type { CaseGenerator } from './types.js';

// ---------------------------------------------------------------------------------------------
// DS: word0 = 0xD8000000 | op << 18 | gds << 17 | offset1 << 8 | offset0
//     word1 = vdst << 24 | data1 << 16 | data0 << 8 | addr

const DS_FIELD_SHIFT: Readonly<Record<string, number>> = { addr: 0, data0: 8, data1: 16, vdst: 24 };

function dsWord0(op: number, gds: boolean, offset: number, bit16 = false): number {
  return (0xd8000000 | (op << 18) | (gds ? 1 << 17 : 0) | (bit16 ? 1 << 16 : 0) | (offset & 0xffff)) >>> 0;
}

/** Mask of word1 bits the opcode's operands use on this target (0 when undefined). */
function dsUsedMask(target: Target, op: number): number {
  const def = lookup(target, 'DS', op);
  if (!def) return 0;
  let m = 0;
  for (const o of def.operands) {
    const s = o.name === 'data0' && def.flags?.includes('data0InAddr') ? 0 : DS_FIELD_SHIFT[o.name];
    if (s !== undefined) m |= 0xff << s;
  }
  return m >>> 0;
}

const INTERESTING_VGPR = [0, 1, 2, 3, 127, 128, 251, 252, 253, 254, 255];
const INTERESTING_OFFSET = [0, 1, 0x80, 0xff, 0x100, 0x1234, 0x7fff, 0x8000, 0x8001, 0x801f, 0x80e4, 0x81e4, 0xff00, 0xffff,
  0x001f, 0x041f, 0x081f, 0x101f, 0x201f, 0x401f, 0x0c1f, 0x1c1f, 0x3c1f, 0x7c1f, 0x001e, 0x001c, 0x0018, 0x0010, 0x0030, 0x00f0,
  0x0200, 0x0210, 0x0021, 0x7fff, 0xc000];

function randomVgprByte(rng: Rng): number {
  return rng.bool(0.3) ? rng.pick(INTERESTING_VGPR) : rng.int(256);
}

function randomSwizzle(rng: Rng): number {
  switch (rng.int(6)) {
    case 0: return 0x8000 | rng.bits(8);                       // QUAD_PERM
    case 1: return 0x1f | ((1 << rng.int(5)) << 10);           // SWAP
    case 2: return 0x1f | (((1 << (1 + rng.int(5))) - 1) << 10); // REVERSE
    case 3: { const g = 1 << (1 + rng.int(5)); return (0x20 - g) | (rng.int(g + 2) << 5); } // BROADCAST
    case 4: return rng.bits(15);                                 // BITMASK_PERM
    default: return rng.bits(16);
  }
}

const DS: CaseGenerator = {
  name: 'DS',
  systematic(target) {
    const cases: number[][] = [];
    for (let op = 0; op < 256; op++) {
      const used = dsUsedMask(target, op);
      for (const gds of [false, true]) {
        cases.push([dsWord0(op, gds, 0), 0]);
        cases.push([dsWord0(op, gds, 0x1234, true), (0x04030201 & used) >>> 0]);
        cases.push([dsWord0(op, gds, 0xff01), (0xfcfdfeff & used) >>> 0]);
        cases.push([dsWord0(op, gds, 0x00ff), 0x04030201]);
        // One unused field set at a time.
        for (const s of [0, 8, 16, 24]) cases.push([dsWord0(op, gds, 0x0100), ((0x05050505 & used) | (0x01 << s)) >>> 0]);
      }
      for (const off of INTERESTING_OFFSET) cases.push([dsWord0(op, false, off), (0x0a0b0c0d & used) >>> 0]);
      for (const r of [251, 252, 253, 254, 255]) cases.push([dsWord0(op, false, 0), (((r << 24) | (r << 16) | (r << 8) | r) & used) >>> 0]);
      // Every subset of non-zero word1 fields (independent of the table's operand lists).
      for (let m = 1; m < 16; m++) {
        let w1 = 0;
        for (let f = 0; f < 4; f++) if ((m >>> f) & 1) w1 |= (0x11 * (f + 1)) << (8 * f);
        cases.push([dsWord0(op, (m & 1) === 0, 0x0102), w1 >>> 0]);
        cases.push([dsWord0(op, (m & 1) === 1, 0), w1 >>> 0]);
      }
    }
    for (let i = 0; i < 0x10000; i += 0x13) cases.push([dsWord0(53, false, i), 0x04000001]);
    return cases;
  },
  random(rng, target) {
    const op = rng.int(256);
    const gds = rng.bool(0.3);
    const off = rng.bool(0.3) ? rng.pick(INTERESTING_OFFSET) : op === 53 && rng.bool(0.7) ? randomSwizzle(rng) : rng.bits(16);
    let w1 = 0;
    for (const s of [0, 8, 16, 24]) w1 |= randomVgprByte(rng) << s;
    const used = dsUsedMask(target, op);
    if (rng.bool(0.85)) w1 &= used;
    return [dsWord0(op, gds, off, rng.bool(0.2)), w1 >>> 0];
  },
};

// ---------------------------------------------------------------------------------------------
// VINTRP: 0xC8000000 | vdst << 18 | op << 16 | attr << 10 | chan << 8 | vsrc

function vintrpWord(vdst: number, op: number, attr: number, chan: number, vsrc: number): number {
  return (0xc8000000 | (vdst << 18) | (op << 16) | (attr << 10) | (chan << 8) | vsrc) >>> 0;
}

const VINTRP: CaseGenerator = {
  name: 'VINTRP',
  systematic() {
    const cases: number[][] = [];
    for (let op = 0; op < 4; op++) {
      for (const vdst of [0, 1, 127, 255]) for (const vsrc of [0, 1, 2, 3, 4, 127, 255]) cases.push([vintrpWord(vdst, op, 0, 0, vsrc)]);
      for (let attr = 0; attr < 64; attr++) for (let chan = 0; chan < 4; chan++) cases.push([vintrpWord(5, op, attr, chan, 2)]);
    }
    return cases;
  },
  random(rng) {
    const vsrc = rng.bool(0.4) ? rng.int(5) : rng.int(256);
    return [vintrpWord(rng.int(256), rng.int(4), rng.int(64), rng.int(4), vsrc)];
  },
};

// ---------------------------------------------------------------------------------------------
// EXP: word0 = 0xF8000000 | reserved [25:13] | vm << 12 | done << 11 | compr << 10 | tgt << 4 | en
//      word1 = vsrc3 << 24 | vsrc2 << 16 | vsrc1 << 8 | vsrc0

function expWord0(tgt: number, en: number, compr: boolean, done: boolean, vm: boolean, reserved = 0): number {
  return (0xf8000000 | ((reserved & 0x1fff) << 13) | (vm ? 1 << 12 : 0) | (done ? 1 << 11 : 0) | (compr ? 1 << 10 : 0) | (tgt << 4) | en) >>> 0;
}

const EXP: CaseGenerator = {
  name: 'EXP',
  systematic() {
    const cases: number[][] = [];
    for (let tgt = 0; tgt < 64; tgt++) for (const compr of [false, true]) cases.push([expWord0(tgt, 0xf, compr, false, false), 0x04030201]);
    for (let en = 0; en < 16; en++) {
      for (let f = 0; f < 8; f++) cases.push([expWord0(en * 3 % 64, en, (f & 1) !== 0, (f & 2) !== 0, (f & 4) !== 0), 0xfffe0100]);
    }
    for (let r = 0; r < 13; r++) cases.push([expWord0(0, 0xf, false, false, false, 1 << r), 0x04030201]);
    return cases;
  },
  random(rng) {
    const tgt = rng.bool(0.7) ? rng.pick([0, 1, 7, 8, 9, 10, 11, 12, 15, 16, 17, 19, 20, 21, 31, 32, 33, 63]) : rng.int(64);
    return [expWord0(tgt, rng.int(16), rng.bool(), rng.bool(), rng.bool(), rng.bool(0.2) ? rng.bits(13) : 0), rng.u32()];
  },
};

export const GENERATORS: readonly CaseGenerator[] = [DS, VINTRP, EXP];
