// Unit tests of the documented rules: MODE decoding, NaN propagation, min/max/med3, compares,
// class, pkrtz, output modifiers, tininess, and the ops the hardware only approximates.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fl from '../../src/float/index.js';

const E = fl.IEEE_ENV;
const NOIEEE: fl.FloatEnv = { ...E, ieee: false };
const ONE = 0x3f800000, TWO = 0x40000000, HALF = 0x3f000000, NEG1 = 0xbf800000;
const SNAN = 0x7f800123, QNAN = 0x7fc00456, NSNAN = 0xff800001;

test('envFor: every MODE byte, by the notes table (FP_ROUND 0 RNE,1 +inf,2 -inf,3 zero; FP_DENORM 0 flush both, 1 flush out, 2 flush in, 3 keep)', () => {
  const flushIn = [true, false, true, false], flushOut = [true, true, false, false];
  for (let m = 0; m < 256; m++) {
    const f32 = fl.envFor(m | 0x300, 'f32'), f16 = fl.envFor(m, 'f16'), f64 = fl.envFor(m, 'f64');
    assert.equal(f32.round, m & 3);
    assert.equal(f16.round, (m >> 2) & 3);
    assert.deepEqual(f16, f64);
    assert.equal(f32.flushIn, flushIn[(m >> 4) & 3]);
    assert.equal(f32.flushOut, flushOut[(m >> 4) & 3]);
    assert.equal(f16.flushIn, flushIn[(m >> 6) & 3]);
    assert.equal(f16.flushOut, flushOut[(m >> 6) & 3]);
    assert.equal(f32.ieee, true); assert.equal(f32.dx10Clamp, true);
    assert.equal(f16.ieee, false); assert.equal(f16.dx10Clamp, false);
  }
  // LLVM's default FloatMode 192 (0xC0): f32 flush both, f16/f64 keep, RNE.
  assert.deepEqual([fl.envFor(0xc0, 'f32').flushIn, fl.envFor(0xc0, 'f64').flushOut], [true, false]);
  const c = fl.convertEnvFor(0x30, 'f32', 'f16'); // f32 keep, f16/f64 flush
  assert.deepEqual([c.flushIn, c.flushOut], [false, true]);
});

test('NaN rule: first NaN operand, quieted when IEEE, unchanged when not; generated NaN is canonical', () => {
  assert.equal(fl.addF32(SNAN, QNAN, E), (SNAN | 0x400000) >>> 0);
  assert.equal(fl.addF32(ONE, SNAN, E), (SNAN | 0x400000) >>> 0);
  assert.equal(fl.addF32(SNAN, QNAN, NOIEEE), SNAN);
  assert.equal(fl.mulF32(NSNAN, ONE, E), 0xffc00001);
  assert.equal(fl.fmaF32(ONE, QNAN, SNAN, E), QNAN);
  assert.equal(fl.subF32(ONE, NSNAN, E), 0xffc00001); // sub does not flip a NaN's sign
  assert.equal(fl.addF32(0x7f800000, 0xff800000, E), 0x7fc00000);
  assert.equal(fl.mulF32(0, 0xff800000, E), 0x7fc00000);
  assert.equal(fl.divF32(0, 0x80000000, E), 0x7fc00000);
  assert.equal(fl.sqrtF32(NEG1, E), 0x7fc00000);
  assert.equal(fl.addF16(0x7c00, 0xfc00, E), 0x7e00);
  assert.equal(fl.addF64(0x7ff0000000000000n, 0xfff0000000000000n, E), 0x7ff8000000000000n);
  assert.equal(fl.addF64(0x7ff0000000000001n, 0n, E), 0x7ff8000000000001n);
  // Narrowing conversions quiet even at IEEE=0 and keep the top payload bits.
  assert.equal(fl.cvtF16F32(0x7f802000, NOIEEE), 0x7e01);
  assert.equal(fl.cvtF32F64(0xfff0000000000001n, NOIEEE), 0xffc00000);
  assert.equal(fl.cvtF32F16(0x7c01, NOIEEE), 0x7f802000);
});

test('exact zero sums: -0 only under round toward -inf; x + (-x), +0 + -0', () => {
  for (const round of [0, 1, 2, 3] as const) {
    const env = { ...E, round };
    const z = round === 2 ? 0x80000000 : 0;
    assert.equal(fl.addF32(ONE, NEG1, env), z);
    assert.equal(fl.addF32(0, 0x80000000, env), z);
    assert.equal(fl.addF32(0x80000000, 0x80000000, env), 0x80000000);
    assert.equal(fl.subF32(ONE, ONE, env), z);
    assert.equal(fl.fmaF32(ONE, ONE, NEG1, env), z);
    assert.equal(fl.addF16(0x3c00, 0xbc00, env), z >>> 16);
    assert.equal(fl.addF64(0x3ff0000000000000n, 0xbff0000000000000n, env), round === 2 ? 1n << 63n : 0n);
  }
});

test('overflow per mode: RTZ and the mode away from the sign give ±MAX', () => {
  const MAX = 0x7f7fffff;
  const want = [[0x7f800000, 0xff800000], [0x7f800000, 0xff7fffff], [0x7f7fffff, 0xff800000], [MAX, 0xff7fffff]];
  for (const round of [0, 1, 2, 3] as const) {
    const env = { ...E, round };
    assert.equal(fl.addF32(MAX, MAX, env), want[round]?.[0]);
    assert.equal(fl.mulF32(0xff7fffff, TWO, env), want[round]?.[1]);
  }
});

test('input flush keeps the sign; output flush; tininess after (x86) vs before', () => {
  const fz = { ...E, flushIn: true, flushOut: true };
  assert.equal(fl.mulF32(0x80000001, ONE, fz), 0x80000000);
  assert.equal(fl.addF32(0x00000001, 0x00000001, { ...E, flushOut: true }), 0);
  assert.equal(fl.addF32(0x00000001, 0x00000001, { ...E, flushIn: true }), 0);
  assert.equal(fl.addF32(0x00000001, 0x00000001, E), 2);
  // Notes §4: -2^-126·2^-24 + 2^-126 rounds (RNE) to 2^-126, but is tiny after rounding at p bits.
  assert.equal(fl.fmaF32(0x80800000, 0x33800000, 0x00800000, { ...E, flushOut: true }), 0);
  assert.equal(fl.fmaF32(0x80800000, 0x33800000, 0x00800000, E), 0x00800000);
  // -(2^-126 - 2^-252): x86 keeps -2^-126 (not tiny after rounding); 'before' flushes.
  assert.equal(fl.fmaF32(0x00800000, 0x00800000, 0x80800000, { ...E, flushOut: true }), 0x80800000);
  assert.equal(fl.fmaF32(0x00800000, 0x00800000, 0x80800000, { ...E, flushOut: true, tininess: 'before' }), 0x80000000);
  assert.equal(fl.fmaF32(0x00800000, 0x00800000, 0x80800000, { ...E, flushOut: true, round: 3 }), 0x80000000);
});

test('min/max: IEEE mode quiets sNaN and ignores qNaN; non-IEEE ignores any NaN; -0 < +0; flush', () => {
  assert.equal(fl.minF32(SNAN, ONE, E), (SNAN | 0x400000) >>> 0);
  assert.equal(fl.maxF32(ONE, SNAN, E), (SNAN | 0x400000) >>> 0);
  assert.equal(fl.minF32(QNAN, ONE, E), ONE);
  assert.equal(fl.maxF32(ONE, QNAN, E), ONE);
  assert.equal(fl.minF32(SNAN, ONE, NOIEEE), ONE);
  assert.equal(fl.maxF32(ONE, SNAN, NOIEEE), ONE);
  assert.equal(fl.maxF32(SNAN, QNAN, NOIEEE), QNAN);
  assert.equal(fl.minF32(0, 0x80000000, E), 0x80000000);
  assert.equal(fl.maxF32(0x80000000, 0, E), 0);
  assert.equal(fl.minF32(NEG1, ONE, E), NEG1);
  assert.equal(fl.maxF32(0x00000005, 0x00000003, { ...E, flushIn: true }), 0);
  assert.equal(fl.maxF64(0x3ff0000000000000n, 0x4000000000000000n, E), 0x4000000000000000n);
  assert.equal(fl.minF16(0x3c00, 0xbc00, E), 0xbc00);
});

test('med3: median, and min3 when any operand is NaN', () => {
  assert.equal(fl.med3F32(ONE, TWO, HALF, E), ONE);
  assert.equal(fl.med3F32(TWO, HALF, ONE, E), ONE);
  assert.equal(fl.med3F32(0x80000000, 0, NEG1, E), 0x80000000);
  assert.equal(fl.med3F32(QNAN, TWO, ONE, E), ONE);
  assert.equal(fl.med3F32(TWO, ONE, QNAN, E), ONE);
  assert.equal(fl.med3F32(SNAN, TWO, ONE, E), ONE); // min(min(sNaN, 2) = quieted NaN, 1) = 1
  assert.equal(fl.med3F32(ONE, TWO, SNAN, E), (SNAN | 0x400000) >>> 0); // min(1, sNaN) quiets it
  assert.equal(fl.med3F16(0x3c00, 0x4000, 0x3800, E), 0x3c00);
});

test('the 16 VOPC predicates against the IEEE relation table', () => {
  // [lt, eq, gt, unordered] truth per predicate, from the ISA's predicate definitions.
  const table: Record<fl.CmpPredicate, [number, number, number, number]> = {
    f: [0, 0, 0, 0], lt: [1, 0, 0, 0], eq: [0, 1, 0, 0], le: [1, 1, 0, 0], gt: [0, 0, 1, 0], lg: [1, 0, 1, 0], ge: [0, 1, 1, 0], o: [1, 1, 1, 0],
    u: [0, 0, 0, 1], nge: [1, 0, 0, 1], nlg: [0, 1, 0, 1], ngt: [1, 1, 0, 1], nle: [0, 0, 1, 1], neq: [1, 0, 1, 1], nlt: [0, 1, 1, 1], tru: [1, 1, 1, 1],
  };
  const cases: [number, number, number][] = [[ONE, TWO, 0], [TWO, ONE, 2], [ONE, ONE, 1], [0, 0x80000000, 1], [QNAN, ONE, 3], [ONE, SNAN, 3], [0xff800000, NEG1, 0], [0x00000001, 0x80000001, 2]];
  for (const [i, p] of fl.CMP_PREDICATES.entries()) {
    for (const [a, b, rel] of cases) {
      const want = table[p][rel] === 1;
      assert.equal(fl.cmpF32(p, a, b, E), want, `${p} ${a.toString(16)} ${b.toString(16)}`);
      assert.equal(fl.cmpF32(i, a, b, E), want);
    }
  }
  // Input flush: ±denormals compare equal when flushed.
  assert.equal(fl.cmpF32('eq', 0x00000001, 0x80000001, { ...E, flushIn: true }), true);
  assert.equal(fl.cmpF64('lt', 0x3ff0000000000000n, 0x4000000000000000n, E), true);
  assert.equal(fl.cmpF16('u', 0x7e00, 0x3c00, E), true);
});

test('v_cmp_class: one bit per class, raw bits (no flush)', () => {
  const cases: [number, number][] = [[SNAN, 0], [QNAN, 1], [0xff800000, 2], [NEG1, 3], [0x80000001, 4], [0x80000000, 5], [0, 6], [1, 7], [ONE, 8], [0x7f800000, 9]];
  for (const [v, bit] of cases) {
    for (let k = 0; k < 10; k++) assert.equal(fl.cmpClassF32(v, 1 << k), k === bit, `${v.toString(16)} bit ${k}`);
  }
  assert.equal(fl.cmpClassF16(0x0001, 1 << 7), true);
  assert.equal(fl.cmpClassF64(0x8000000000000001n, 1 << 4), true);
});

test('v_cvt_pkrtz_f16_f32 truncates toward zero whatever the mode', () => {
  const x = 0x3f801000; // 1 + 2^-11: halfway between two f16 values
  const env = { ...E, round: 1 as const };
  assert.equal(fl.cvtPkrtzF16F32(x, 0xbf801fff, env), (0xbc00 << 16 | 0x3c00) >>> 0);
  assert.equal(fl.cvtF16F32(x, env), 0x3c01);
  assert.equal(fl.cvtPkrtzF16F32(0x7f7fffff, 0x477fffff, E), (0x7bff << 16 | 0x7bff) >>> 0);
});

test('omod (ignored when IEEE) then clamp (NaN → 0 with DX10_CLAMP)', () => {
  const env = { ...E, ieee: false };
  assert.equal(fl.outputModifiersF32(0x3e800000, 1, false, env), HALF);
  assert.equal(fl.outputModifiersF32(0x3e800000, 2, false, env), ONE);
  assert.equal(fl.outputModifiersF32(ONE, 3, false, env), HALF);
  assert.equal(fl.outputModifiersF32(ONE, 1, false, E), ONE);
  assert.equal(fl.outputModifiersF32(ONE, 1, true, env), ONE);
  assert.equal(fl.outputModifiersF32(0x3f400000, 1, true, env), ONE);
  assert.equal(fl.outputModifiersF32(NEG1, 0, true, env), 0);
  assert.equal(fl.outputModifiersF32(0x80000000, 0, true, env), 0);
  assert.equal(fl.outputModifiersF32(QNAN, 0, true, env), 0);
  assert.equal(fl.outputModifiersF32(QNAN, 0, true, { ...env, dx10Clamp: false }), QNAN);
  assert.equal(fl.outputModifiersF32(0x00000003, 3, false, env), 0x00000002); // 1.5 ulp → RNE 2
  assert.equal(fl.outputModifiersF16(0x3800, 1, false, env), 0x3c00);
});

test('rcp/rsq/sqrt are correctly rounded; ldexp; fract limit; frexp of f32/f64 edges', () => {
  assert.equal(fl.rcpF32(TWO, E), HALF);
  assert.equal(fl.rcpF32(0x40400000, E), 0x3eaaaaab); // 1/3 RNE
  assert.equal(fl.rcpF32(0x40400000, { ...E, round: 3 }), 0x3eaaaaaa);
  assert.equal(fl.rcpF32(0x80000000, E), 0xff800000);
  assert.equal(fl.rsqF32(0x40800000, E), HALF);
  assert.equal(fl.rsqF32(TWO, E), 0x3f3504f3); // 1/sqrt(2) = 0.70710678118… RNE
  assert.equal(fl.rsqF32(0x80000000, E), 0xff800000);
  assert.equal(fl.rsqF64(0x4010000000000000n, E), 0x3fe0000000000000n);
  assert.equal(fl.sqrtF32(TWO, E), 0x3fb504f3);
  assert.equal(fl.sqrtF32(0x80000000, E), 0x80000000);
  assert.equal(fl.ldexpF32(ONE, -149, E), 1);
  assert.equal(fl.ldexpF32(ONE, -150, E), 0);
  assert.equal(fl.ldexpF32(ONE, -150, { ...E, round: 1 }), 1);
  assert.equal(fl.ldexpF32(ONE, 128, E), 0x7f800000);
  assert.equal(fl.ldexpF32(ONE, 128, { ...E, round: 3 }), 0x7f7fffff);
  assert.equal(fl.fractF32(0xb3800000, E), 0x3f7fffff); // -2^-24: 1 - 2^-24 rounds to 1, limited below 1
  assert.equal(fl.fractF32(0x3fc00000, E), HALF);
  assert.equal(fl.fractF32(0xc0000000, { ...E, round: 2 }), 0);
  assert.equal(fl.frexpMantF32(0x7f7fffff, E), 0x3f7fffff);
  assert.equal(fl.frexpExpF32(0x7f7fffff, E), 128);
  assert.equal(fl.frexpExpF32(1, E), -148);
  assert.equal(fl.frexpMantF32(1, E), HALF);
  assert.equal(fl.frexpExpF32(1, { ...E, flushIn: true }), 0);
  assert.equal(fl.frexpExpF64(1n, E), -1073);
  assert.equal(fl.frexpMantF64(0x7fefffffffffffffn, E), 0x3fefffffffffffffn);
  assert.equal(fl.frexpMantF32(0xff800000, E), 0xff800000);
});
