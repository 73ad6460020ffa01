// The recompiler's instance of src/image/linear.ts (IrImageArith, src/frontend/units/mimg.ts)
// against the interpreter's (NUMBER_IMAGE_ARITH), through the IR interpreter: for every class,
// with and without gfx1030's custom pitch, on T# fields over their whole ranges (14-bit widths
// and heights, 13-bit depths and slices, levels 0..15, views whose LAST_LEVEL is below BASE_LEVEL,
// elements of 1 to 16 bytes) and coordinates anywhere in u32, both must give the same bound and
// the same 64-bit byte offset. The engine tests (tests/runtime/image.test.ts) cannot reach the
// large offsets: their images are small.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { Builder, Inst } from '../../src/ir/ir.js';
import { type ImageClass, type ImageDims, linearTexel, NUMBER_IMAGE_ARITH } from '../../src/image/linear.js';
import { IrImageArith } from '../../src/frontend/units/mimg.js';
import { LANES, runBody } from '../ir/lower-wide-harness.js';

/** The packed dims word: [shift, width] per field (bits 63:0 of the lane's third u64). */
const FIELDS: readonly [keyof ImageDims<number>, number, number][] = [
  ['width1', 0, 14], ['height1', 14, 14], ['depth', 28, 13], ['pitchMsb', 41, 1], ['baseLevel', 42, 4], ['lastLevel', 46, 4], ['maxMip', 50, 4], ['log2Bpe', 54, 3], ['baseArray', 57, 7],
];

const CLASSES: readonly ImageClass[] = ['1d', '2d', '3d', 'cube', '1dArray', '2dArray'];

interface Lane { readonly dims: ImageDims<number>; readonly x: number; readonly y: number; readonly z: number; readonly mip: number }

const small = (n: number) => fc.oneof(fc.integer({ min: 0, max: 2 ** n - 1 }), fc.integer({ min: 0, max: Math.min(2 ** n - 1, 20) }));
const dimsArb: fc.Arbitrary<ImageDims<number>> = fc.record({
  width1: small(14), height1: small(14), depth: small(13), pitchMsb: small(1), baseLevel: small(4), lastLevel: small(4),
  maxMip: small(4), log2Bpe: fc.integer({ min: 0, max: 4 }), baseArray: small(7),
});
const coord = fc.oneof(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 0, max: 0x3fff }), fc.integer({ min: 0, max: 0xffffffff }));
const laneArb: fc.Arbitrary<Lane> = fc.record({ dims: dimsArb, x: coord, y: coord, z: coord, mip: fc.oneof(fc.integer({ min: 0, max: 15 }), coord) });

function encode(l: Lane): bigint[] {
  let d = 0n;
  for (const [name, at] of FIELDS) d |= BigInt(l.dims[name]) << BigInt(at);
  return [BigInt(l.x) | (BigInt(l.y) << 32n), BigInt(l.z) | (BigInt(l.mip) << 32n), d, 0n];
}

/** The IR body: the lane's fields decoded, linearTexel over IR, the offset (u64, wrapping) or the bound (u1). */
const body = (cls: ImageClass, gfx103: boolean, mip: boolean, what: 'offset' | 'ok') => (b: Builder, v: readonly Inst[]): Inst => {
  const lo = (x: Inst) => b.emit('Lo32', [x]), hi = (x: Inst) => b.emit('Hi32', [x]);
  const d = v[2] as Inst;
  const f = (at: number, n: number) => b.emit('UBfe32', [at >= 32 ? hi(d) : lo(d), b.u32(at & 31), b.u32(n)]);
  const get = (name: keyof ImageDims<number>) => {
    const [, at, n] = FIELDS.find((x) => x[0] === name) as [string, number, number];
    // width1 .. depth straddle no dword boundary but depth (28..40): read it from the u64 shifted.
    if (at < 32 && at + n > 32) return b.emit('UBfe32', [lo(b.emit('LShr64', [d, b.u32(at)])), b.u32(0), b.u32(n)]);
    return f(at, n);
  };
  const dims = Object.fromEntries(FIELDS.map(([name]) => [name, get(name)])) as unknown as ImageDims<Inst>;
  const p = linearTexel(new IrImageArith(b), cls, gfx103, dims, { x: lo(v[0] as Inst), y: hi(v[0] as Inst), z: lo(v[1] as Inst), ...(mip ? { mip: hi(v[1] as Inst) } : {}) });
  return what === 'ok' ? p.ok : p.offset;
};

test('linearTexel over IR (IrImageArith) equals linearTexel over numbers: bounds and 64-bit offsets, every class, with and without the custom pitch and the mip operand', () => {
  for (const cls of CLASSES) for (const gfx103 of [false, true]) for (const mip of [false, true]) {
    fc.assert(fc.property(fc.array(laneArb, { minLength: LANES, maxLength: LANES }), (lanes) => {
      const offsets = runBody(lanes.map(encode), body(cls, gfx103, mip, 'offset'));
      const oks = runBody(lanes.map(encode), body(cls, gfx103, mip, 'ok'));
      lanes.forEach((l, k) => {
        const p = linearTexel(NUMBER_IMAGE_ARITH, cls, gfx103, l.dims, { x: l.x, y: l.y, z: l.z, ...(mip ? { mip: l.mip } : {}) });
        const at = `${cls}${gfx103 ? ' gfx1030' : ''}${mip ? ' mip' : ''}: lane ${k} ${JSON.stringify(l)}`;
        assert.equal(oks[k], p.ok ? 1n : 0n, `${at}: the bound`);
        assert.equal(offsets[k], p.offset, `${at}: the offset`);
      });
    }), { numRuns: 10 });
  }
});
