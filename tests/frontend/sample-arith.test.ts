// The recompiler's instance of src/image/sample.ts (IrSampleArith, src/frontend/units/mimg.ts)
// against the interpreter's (NUMBER_SAMPLE_ARITH with the float model's f32 multiply), through the
// IR interpreter: samplePlace and gatherPlace on 2D T#s of any size and view, every address mode,
// TRUNC_COORD, normalized or not, MIP_FILTER point with any MIN_LOD/MAX_LOD, coordinates and LODs
// over all f32 bit patterns (NaN, infinities, subnormals, huge values, the 8-bit rounding's ties),
// offsets anywhere; and f16ToF32 over every half against the value's f32. The engine tests
// (tests/runtime/sample.test.ts) see small images and chosen coordinates only.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { Builder, Inst } from '../../src/ir/ir.js';
import { f16ToF32, gatherPlace, NUMBER_SAMPLE_ARITH, type SampleArith, type SampleFields, SAMPLE_MODE, samplePlace } from '../../src/image/sample.js';
import { IrSampleArith } from '../../src/frontend/units/mimg.js';
import { mulF32 } from '../../src/float/arith.js';
import { envFor } from '../../src/float/env.js';
import { LANES, runBody } from '../ir/lower-wide-harness.js';

const NUM: SampleArith<number, boolean> = { ...NUMBER_SAMPLE_ARITH, fmul: (a, b) => mulF32(a, b, envFor(SAMPLE_MODE, 'f32')) >>> 0 };

/** Packed fields: [name, shift, width] in the lane's third u64. */
const F: readonly [string, number, number][] = [
  ['clampX', 0, 3], ['clampY', 3, 3], ['trunc', 6, 1], ['unnorm', 7, 1], ['mipPoint', 8, 1], ['minLod', 9, 12], ['maxLod', 21, 12],
  ['width1', 33, 14], ['height1', 47, 14],
];

interface Lane { x: number; y: number; offset: number; lod: number; f: Record<string, number>; baseLevel: number; lastLevel: number }

const EDGES = [0, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00001, 1, 0x80000001, 0x4b800000, 0xcb800000, 0x4b7fffff, 0x3f000000, 0xbf000000, 0x3effffff, 0x3f800000, 0x40400000];
const bits = fc.oneof(fc.constantFrom(...EDGES), fc.integer({ min: 0, max: 0xffffffff }),
  // Moderate values, some on 1/256 and 1/512 steps (the rounding's ties).
  fc.integer({ min: -40000, max: 40000 }).map((k) => new Uint32Array(new Float32Array([k / 512]).buffer)[0] as number),
  fc.integer({ min: -4000, max: 4000 }).map((k) => new Uint32Array(new Float32Array([k / 997]).buffer)[0] as number));
const small = (n: number) => fc.oneof(fc.integer({ min: 0, max: 2 ** n - 1 }), fc.integer({ min: 0, max: Math.min(2 ** n - 1, 20) }));
const laneArb: fc.Arbitrary<Lane> = fc.record({
  x: bits, y: bits, offset: fc.integer({ min: 0, max: 0xffffffff }), lod: bits,
  f: fc.record(Object.fromEntries(F.map(([n, , w]) => [n, small(w)])) as Record<string, fc.Arbitrary<number>>),
  baseLevel: small(4), lastLevel: small(4),
});

function encode(l: Lane): bigint[] {
  let d = 0n;
  for (const [n, at] of F) d |= BigInt(l.f[n] ?? 0) << BigInt(at);
  return [BigInt(l.x) | (BigInt(l.y) << 32n), BigInt(l.offset) | (BigInt(l.lod) << 32n), d, BigInt(l.baseLevel) | (BigInt(l.lastLevel) << 4n)];
}

function fieldsOf<U, B>(A: SampleArith<U, B>, get: (n: string) => U, base: U, last: U): SampleFields<U, B> {
  const one = A.k(1);
  return {
    clampX: get('clampX'), clampY: get('clampY'), clampZ: A.k(0), trunc: A.eq(get('trunc'), one), unnormalized: A.eq(get('unnorm'), one),
    mipPoint: A.eq(get('mipPoint'), one), minLod: get('minLod'), maxLod: get('maxLod'),
    width1: get('width1'), height1: get('height1'), depth: A.k(0), baseArray: A.k(0), baseLevel: base, lastLevel: last,
  };
}

/** What a place gives, packed: x | y << 16 (low dword), mip | border << 8 | fault << 9 (high). */
function packed<U, B>(A: SampleArith<U, B>, p: { coords: { x: U; y?: U; mip?: U }; border: B }, fault: B): [U, U] {
  const b = (c: B, at: number) => A.sel(c, A.k(1 << at), A.k(0));
  return [A.or(p.coords.x, A.shl(p.coords.y ?? A.k(0), A.k(16))), A.or(A.or(p.coords.mip ?? A.k(0), b(p.border, 8)), b(fault, 9))];
}

const body = (gather: number | undefined) => (b: Builder, v: readonly Inst[]): Inst => {
  const A = new IrSampleArith(b);
  const lo = (x: Inst) => b.emit('Lo32', [x]), hi = (x: Inst) => b.emit('Hi32', [x]);
  const d = v[2] as Inst;
  const get = (n: string) => {
    const [, at, w] = F.find((x) => x[0] === n) as [string, number, number];
    return b.emit('UBfe32', [lo(b.emit('LShr64', [d, b.u32(at)])), b.u32(0), b.u32(w)]);
  };
  const lv = lo(v[3] as Inst);
  const s = fieldsOf(A, get, b.emit('UBfe32', [lv, b.u32(0), b.u32(4)]), b.emit('UBfe32', [lv, b.u32(4), b.u32(4)]));
  const lane = { x: lo(v[0] as Inst), y: hi(v[0] as Inst), offset: lo(v[1] as Inst), lod: hi(v[1] as Inst) };
  const [l, h] = gather === undefined
    ? (() => { const p = samplePlace(A, '2d', s, lane); return packed(A, p, p.fault); })()
    : (() => { const g = gatherPlace(A, '2d', s, lane); return packed(A, g.texels[gather] as { coords: { x: Inst; y?: Inst; mip?: Inst }; border: Inst }, g.fault); })();
  return b.emit('Pack64', [l, h]);
};

test('samplePlace and gatherPlace over IR (IrSampleArith) equal them over numbers: 2D T#s, every address mode, TRUNC_COORD, normalization, MIP_FILTER point, all f32 coordinates and LODs, any offsets', () => {
  for (const gather of [undefined, 0, 1, 2, 3]) {
    fc.assert(fc.property(fc.array(laneArb, { minLength: LANES, maxLength: LANES }), (lanes) => {
      const out = runBody(lanes.map(encode), body(gather));
      lanes.forEach((l, k) => {
        const s = fieldsOf(NUM, (n) => l.f[n] ?? 0, l.baseLevel, l.lastLevel);
        const lane = { x: l.x, y: l.y, offset: l.offset, lod: l.lod };
        const [lw, hw] = gather === undefined
          ? (() => { const p = samplePlace(NUM, '2d', s, lane); return packed(NUM, p, p.fault); })()
          : (() => { const g = gatherPlace(NUM, '2d', s, lane); return packed(NUM, g.texels[gather] as { coords: { x: number; y?: number; mip?: number }; border: boolean }, g.fault); })();
        const want = BigInt(lw >>> 0) | (BigInt(hw >>> 0) << 32n);
        assert.equal(out[k]?.toString(16), want.toString(16), `${gather === undefined ? 'sample' : `gather texel ${gather}`}: lane ${k} ${JSON.stringify(l)}`);
      });
    }), { numRuns: 12 });
  }
});

test('f16ToF32 over every half (numbers and IR) is the half\'s f32', () => {
  const want = (h: number): number => {
    const e = (h >> 10) & 31, f = h & 0x3ff, s = h & 0x8000 ? -1 : 1;
    if (e === 31) return ((h & 0x8000) << 16 | 0x7f800000 | (f << 13)) >>> 0;
    const v = e === 0 ? s * f * 2 ** -24 : s * (1024 + f) * 2 ** (e - 25);
    return new Uint32Array(new Float32Array([v]).buffer)[0] as number;
  };
  for (let h = 0; h < 0x10000; h++) assert.equal(f16ToF32(NUM, h), want(h), `0x${h.toString(16)}`);
  for (let h0 = 0; h0 < 0x10000; h0 += LANES) {
    const rows = Array.from({ length: LANES }, (_, k) => [BigInt(h0 + k), 0n, 0n, 0n]);
    const out = runBody(rows, (b, v) => b.emit('Pack64', [f16ToF32(new IrSampleArith(b), b.emit('Lo32', [v[0] as Inst])), b.u32(0)]));
    out.forEach((o, k) => assert.equal(Number(o), want(h0 + k), `IR 0x${(h0 + k).toString(16)}`));
  }
});
