// Unit tests of src/float/special.ts and fmaMixedBits: expected values by hand from the RDNA2 ISA
// pseudocode (v_div_scale/v_div_fmas/v_div_fixup, cube ops, norm conversions) and from
// tests/harness/rational.ts for the single rounding of the mixed-format fma.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fl from '../../src/float/index.js';
import { S16, oConvert } from '../harness/rational.js';

const E = fl.IEEE_ENV;
const f = (x: number) => fl.numberToF32(x);

test('divScaleF32: the ISA cases in order', () => {
  assert.deepEqual(fl.divScaleF32(f(3), f(3), 0, E), { value: 0x7fc00000, vcc: false });
  assert.deepEqual(fl.divScaleF32(f(3), 0, f(1), E), { value: 0x7fc00000, vcc: false });
  // exponent(S2) - exponent(S1) >= 96: vcc, the denominator (S0 = S1) × 2^64.
  assert.deepEqual(fl.divScaleF32(0x30800000, 0x30800000, 0x71c00000, E), { value: 0x50800000, vcc: true });
  assert.deepEqual(fl.divScaleF32(0x71c00000, 0x30800000, 0x71c00000, E), { value: 0x71c00000, vcc: true });
  // S1 denormal: S0 × 2^64.
  assert.deepEqual(fl.divScaleF32(f(2), 0x00000001, 0x0d800000, E), { value: f(2 ** 65), vcc: false });
  // (with S2 = 2: the exponent gap of 128 >= 96 comes first: vcc, S0 kept)
  assert.deepEqual(fl.divScaleF32(f(2), 0x00000001, f(2), E), { value: f(2), vcc: true });
  // 1/S1 and S2/S1 denormal: vcc; the denominator × 2^-64.
  assert.deepEqual(fl.divScaleF32(0x7f000000, 0x7f000000, f(1), E), { value: 0x5f000000, vcc: true });
  // only 1/S1 denormal: S0 × 2^-64.
  assert.deepEqual(fl.divScaleF32(f(4), 0x7f000000, 0x7e800000, E), { value: f(2 ** -62), vcc: false });
  // plain case: S0.
  assert.deepEqual(fl.divScaleF32(f(5), f(2), f(3), E), { value: f(5), vcc: false });
  const r = fl.divScaleF64(0x3ff0000000000000n, 0x0000000000000001n, 0x07b0000000000000n, E);
  assert.deepEqual(r, { value: 0x47f0000000000000n, vcc: false }); // 1 × 2^128
});

test('divFmasF32: fused, scaled by 2^±64 when vcc (up when |S2| ≥ 2)', () => {
  assert.equal(fl.divFmasF32(f(2), f(3), f(1), false, E), f(7));
  assert.equal(fl.divFmasF32(f(2), f(3), f(1), true, E), f(7 * 2 ** -64));
  assert.equal(fl.divFmasF32(f(2), f(3), f(4), true, E), f(10 * 2 ** 64));
  // One rounding of the scaled exact value: 3 × 2^-64 × 2^-64... → a subnormal rounded once.
  assert.equal(fl.divFmasF32(0, 0, f(1.5 * 2 ** -80), true, E), fl.numberToF32(1.5 * 2 ** -144));
});

test('divFixup: the ISA special cases and the quotient sign', () => {
  assert.equal(fl.divFixupF32(f(9), 0, 0, E), 0xffc00000);
  assert.equal(fl.divFixupF32(f(9), 0xff800000, 0x7f800000, E), 0xffc00000);
  assert.equal(fl.divFixupF32(f(9), 0x80000000, f(2), E), 0xff800000);
  assert.equal(fl.divFixupF32(f(9), f(2), 0xff800000, E), 0xff800000);
  assert.equal(fl.divFixupF32(f(9), 0x7f800000, f(2), E), 0);
  assert.equal(fl.divFixupF32(f(9), f(-2), 0, E), 0x80000000);
  assert.equal(fl.divFixupF32(f(9), f(-2), f(3), E), f(-9));
  assert.equal(fl.divFixupF32(f(9), 0x7f000000, 0x00000001, E), 0); // quotient below 2^-150: 0 under RNE
  assert.equal(fl.divFixupF32(f(9), 0x7f000000, 0x00000001, { ...E, round: 1 }), 1); // smallest subnormal under +inf
  // A quotient the sequence let overflow (S0 ±inf, or NaN from inf − inf) of finite nonzero
  // operands: ±overflow by the rounding mode (±inf, or ±max where the mode rounds toward zero).
  for (const s0 of [0x7f800000, 0xff800000, 0x7fc00000, 0xffc00000, 0x7f800001]) {
    assert.equal(fl.divFixupF32(s0, 0x003671f7, 0x7f000000, E), 0x7f800000);
    assert.equal(fl.divFixupF32(s0, 0x803671f7, 0x7f000000, E), 0xff800000);
    assert.equal(fl.divFixupF32(s0, 0x003671f7, 0x7f000000, { ...E, round: 3 }), 0x7f7fffff);
    assert.equal(fl.divFixupF32(s0, 0x003671f7, 0xff000000, { ...E, round: 1 }), 0xff7fffff);
    assert.equal(fl.divFixupF32(s0, 0x003671f7, 0xff000000, { ...E, round: 2 }), 0xff800000);
  }
  assert.equal(fl.divFixupF64(0x7ff8000000000000n, 0x0000000000000001n, 0x7fe0000000000000n, E), 0x7ff0000000000000n);
  assert.equal(fl.divFixupF16(0x7e00, 0x0001, 0x7800, E), 0x7c00);
  assert.equal(fl.divFixupF16(0x7c00, 0x8001, 0x7800, { ...E, f16Ovfl: true }), 0xfbff); // FP16_OVFL: ±max
  assert.equal(fl.divFixupF16(0x4000, 0, 0, E), 0xfe00);
  assert.equal(fl.divFixupF64(0x4000000000000000n, 0x7ff0000000000001n, 0n, E), 0x7ff8000000000001n);
});

test('toNorm16Bits / toU8Bits: clamp, scale, round half to even, NaN → 0', () => {
  assert.equal(fl.toNorm16Bits(fl.F32, BigInt(f(0.5)), true, E), 0x4000); // 16383.5 → 16384
  assert.equal(fl.toNorm16Bits(fl.F32, BigInt(f(-2)), true, E), 0x8001);
  assert.equal(fl.toNorm16Bits(fl.F32, BigInt(f(-0.5)), false, E), 0);
  assert.equal(fl.toNorm16Bits(fl.F32, 0x7fc00000n, false, E), 0);
  assert.equal(fl.toNorm16Bits(fl.F16, 0x3c00n, false, E), 0xffff);
  assert.equal(fl.toU8Bits(fl.F32, BigInt(f(3.5)), E), 4);
  assert.equal(fl.toU8Bits(fl.F32, BigInt(f(4.5)), E), 4);
  assert.equal(fl.toU8Bits(fl.F32, BigInt(f(1e10)), E), 255);
  assert.equal(fl.toU8Bits(fl.F32, BigInt(f(-1)), E), 0);
});

test('cube ops: face, s, t, 2 × major axis (ISA pseudocode)', () => {
  const c = (x: number, y: number, z: number) => [fl.cubeIdBits, fl.cubeScBits, fl.cubeTcBits].map((g) => Number(g(BigInt(f(x)), BigInt(f(y)), BigInt(f(z))))).concat(Number(fl.cubeMaBits(BigInt(f(x)), BigInt(f(y)), BigInt(f(z)), E)));
  assert.deepEqual(c(1, 0.5, 0.25), [f(0), f(-0.25), f(-0.5), f(2)]);
  assert.deepEqual(c(-1, 0.5, 0.25), [f(1), f(0.25), f(-0.5), f(-2)]);
  assert.deepEqual(c(0.5, 2, 0.25), [f(2), f(0.5), f(0.25), f(4)]);
  assert.deepEqual(c(0.5, -2, 0.25), [f(3), f(0.5), f(-0.25), f(-4)]);
  assert.deepEqual(c(0.5, 0.25, 3), [f(4), f(0.5), f(-0.25), f(6)]);
  assert.deepEqual(c(0.5, 0.25, -3), [f(5), f(-0.5), f(-0.25), f(-6)]);
});

test('fmaF32ToF16: one rounding from the exact f32 fma (not via f32)', () => {
  // 1 + 2^-11 + 2^-34: rounded once to f16 → 1 + 2^-10; through f32 it would tie to 1.0.
  assert.equal(fl.fmaF32ToF16(f(1), f(1), 0x3a000001, E), 0x3c01);
  for (const [a, b, c] of [[f(3), f(1 / 3), 0], [f(1e-5), f(1e-3), f(1e-9)], [f(65000), f(1.01), 0]] as const) {
    const exact = fl.fmaF32(a, b, c, E); // f32-exact here only when it is: checked against the oracle's direct conversion
    const direct = Number(oConvert({ bits: 32, expBits: 8 }, S16, BigInt(exact), { round: 0, flushIn: false, flushOut: false, ieee: true }));
    if (fl.mulF32(a, b, E) === exact) assert.equal(fl.fmaF32ToF16(a, b, c, E), direct);
  }
});
