// The format store conversion (src/float/format-store.ts, which both engines instantiate) against
// ./format-store-ref.ts, an independent model of its rules in exact rational arithmetic: every
// number format and width of buffer formats 1..77 narrower than 32 bits, f32 channels over edge
// values (zeros, ones, the UNORM/SNORM steps and their exact halfway points, NaNs, infinities,
// huge values, denormals, the f16/f11/f10 limits and their rounding boundaries) and seeded random
// ones, every f16 for the d16 path, integer channels; under both values of FORMAT_STORE_ROUNDING.
// Hand-worked values pin the reference itself.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { packComponentNumber } from '../../src/float/format-store.js';
import { Rng } from '../harness/rng.js';
import { type Num, PACK_WIDTHS, refPack, type Rounding } from './format-store-ref.js';

const bitsOf = (x: number): number => new Uint32Array(new Float32Array([x]).buffer)[0] ?? 0;
const hex = (x: number) => `0x${(x >>> 0).toString(16)}`;

/** f32 edge values (as bits) for a component of width w. */
function f32Edges(w: number): number[] {
  const v: number[] = [0, -0, 1, -1, 0.5, -0.5, 2, -2, 1.5, 0.25, 3, 2.5, -2.5, 0.4999999701976776, 0.5000000596046448, 1e30, -1e30, 1e-30, -1e-30,
    65504, 65519.99609375, 65520, 65535, 65535.5, 65536, 65024, 64512, 64511.9, 65023.9, 2 ** -14, 2 ** -24, 2 ** -25, 3 * 2 ** -26, 2 ** -15, 2 ** -20, 2 ** -19 * 1.5,
    127.5, 128, -128.5, -129, 32767.5, -32768.5, 2 ** (w - 1) - 0.5, 2 ** w - 0.5, 2 ** w - 1.5, -(2 ** (w - 1)) - 0.5, 1 / 3, 2 / 3];
  const out: number[] = [];
  for (const s of [2 ** w - 1, 2 ** (w - 1) - 1]) for (const k of [0, 1, 2, s >> 1, (s >> 1) + 1, s - 1, s]) {
    // k / s, and the exact halfway points (k + 0.5) / s rounded to f32 and their neighbours.
    for (const x of [k / s, (k + 0.5) / s, -(k + 0.5) / s]) { const b = bitsOf(x); v.push(x); out.push(b + 1, b - 1); }
  }
  const bits = v.map(bitsOf);
  return [...bits, ...out, 0x7fc00000, 0xffc00000, 0x7f800001, 0x7fbfffff, 0xff812345, 0x7f800000, 0xff800000, 0x00000001, 0x80000001, 0x007fffff, 0x00800000, 0x80800000,
    0x477fefff, 0x477ff000, 0x477ff001, 0x387fe000, 0x387ff000, 0x337fffff, 0x33800000, 0x33800001, 0x33000000, 0x33000001, 0x3f7fffff, 0xbf7fffff, 0x3f800001].map((x) => x >>> 0);
}

function f32Random(rng: Rng, n: number): number[] {
  const out: number[] = [];
  for (let k = 0; k < n; k++) {
    const r = rng.u32() % 4;
    out.push(r === 0 ? rng.u32() : r === 1 ? bitsOf((rng.u32() / 2 ** 31 - 1) * 1.2) : r === 2 ? bitsOf((rng.u32() / 2 ** 32) * 2 ** (rng.u32() % 20)) : bitsOf(-(rng.u32() % 70000) + (rng.u32() % 4) / 4));
  }
  return out.map((x) => x >>> 0);
}

test('the reference, hand-worked: 0.5 → 128 (8-bit UNORM), 1/3 → f16 0x3555, 65520 → f16 inf, f11 clamps, SNORM -1 → 0x81, the 2-bit SNORM tie', () => {
  assert.equal(refPack('UNORM', 8, bitsOf(0.5), false), 128); // 127.5 → 128 (even and away alike)
  assert.equal(refPack('UNORM', 8, bitsOf(1 / 255 / 2 * 3), false), 2); // 1.5 → 2
  assert.equal(refPack('UNORM', 16, bitsOf(-0), false), 0);
  assert.equal(refPack('SNORM', 8, bitsOf(-1), false), 0x81);
  assert.equal(refPack('SNORM', 8, bitsOf(-7), false), 0x81);
  assert.equal(refPack('SNORM', 2, bitsOf(0.5), false), 0); // 0.5 · 1 = 0.5: even → 0
  assert.equal(refPack('SNORM', 2, bitsOf(0.5), false, 'd3d'), 1); // ties away
  assert.equal(refPack('SNORM', 2, bitsOf(-0.5), false, 'd3d'), 3); // -1 in 2 bits
  assert.equal(refPack('FLOAT', 16, bitsOf(1 / 3), false), 0x3555);
  assert.equal(refPack('FLOAT', 16, bitsOf(65520), false), 0x7c00);
  assert.equal(refPack('FLOAT', 16, bitsOf(65520), false, 'd3d'), 0x7bff);
  assert.equal(refPack('FLOAT', 16, bitsOf(65519.99609375), false), 0x7bff);
  assert.equal(refPack('FLOAT', 16, 0xffc00001, false), 0xfe00);
  assert.equal(refPack('FLOAT', 16, bitsOf(2 ** -25), false), 0); // halfway to the smallest subnormal: even → 0
  assert.equal(refPack('FLOAT', 16, bitsOf(3 * 2 ** -26), false), 1);
  assert.equal(refPack('FLOAT', 11, bitsOf(1e6), false), 0x7bf);
  assert.equal(refPack('FLOAT', 11, bitsOf(-1), false), 0);
  assert.equal(refPack('FLOAT', 11, 0xff800000, false), 0);
  assert.equal(refPack('FLOAT', 11, 0x7f800000, false), 0x7c0);
  assert.equal(refPack('FLOAT', 10, bitsOf(1), false), 15 << 5);
  assert.equal(refPack('FLOAT', 11, bitsOf(1 + 1 / 128), false), 15 << 6); // halfway: even (mantissa 0)
  assert.equal(refPack('FLOAT', 11, bitsOf(1 + 3 / 128), false), (15 << 6) | 2);
  assert.equal(refPack('USCALED', 8, bitsOf(2.5), false), 2);
  assert.equal(refPack('USCALED', 8, bitsOf(254.5), false), 254);
  assert.equal(refPack('USCALED', 8, bitsOf(255.5), false), 255);
  assert.equal(refPack('SSCALED', 8, bitsOf(-200), false), 0x80);
  assert.equal(refPack('UINT', 8, 256, false), 255);
  assert.equal(refPack('SINT', 8, -129 >>> 0, false), 0x80);
  assert.equal(refPack('SINT', 10, 0x8000, true), 0x200); // d16: -32768 → -512
  assert.equal(refPack('UNORM', 8, 0x3800, true), 128); // d16: f16 0.5
});

for (const rounding of ['nearest-even', 'd3d'] as const satisfies readonly Rounding[]) {
  test(`f32 channels, every number format and width, edge and seeded values (${rounding})`, () => {
    const rng = new Rng(0x5707e);
    let n = 0;
    for (const [num, widths] of Object.entries(PACK_WIDTHS) as [Num, readonly number[]][]) {
      for (const w of widths) {
        const xs = num === 'UINT' || num === 'SINT'
          ? [0, 1, 2, 3, 127, 128, 255, 256, 511, 512, 1023, 1024, 2047, 2048, 32767, 32768, 65535, 65536, 0x7fffffff, 0x80000000, 0xffffffff, 0xfffffffe, 0xffffff80, 0xffffff7f, 0xfffffe00, 0xfffffdff, 0xffff8000, 0xffff7fff, ...Array.from({ length: 500 }, () => rng.u32() >>> (rng.u32() % 32))]
          : [...f32Edges(w), ...f32Random(rng, 3000)];
        for (const x of xs) {
          const want = refPack(num, w, x, false, rounding), got = packComponentNumber(num, w, x, false, rounding);
          if (got !== want) assert.fail(`${num} ${w} bits from ${hex(x)}: ${hex(got)}, the reference ${hex(want)}`);
          n++;
        }
      }
    }
    assert.ok(n > 70000, `${n} conversions`);
  });

  test(`d16 channels: every f16 (and every 16-bit integer) into every number format and width (${rounding})`, () => {
    for (const [num, widths] of Object.entries(PACK_WIDTHS) as [Num, readonly number[]][]) {
      for (const w of widths) {
        for (let h = 0; h < 0x10000; h++) {
          // The high half is ignored.
          const x = (h | ((h * 7919) << 16)) >>> 0;
          const want = refPack(num, w, h, true, rounding), got = packComponentNumber(num, w, x, true, rounding);
          if (got !== want) assert.fail(`d16 ${num} ${w} bits from ${hex(h)}: ${hex(got)}, the reference ${hex(want)}`);
        }
      }
    }
  });
}
