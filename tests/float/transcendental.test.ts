// The transcendental model (src/float/transcendental.ts) against mpmath (tests/float/
// transcendental-oracle.ts): every f64 constant is the correctly rounded value mpmath gives; the
// rounded result equals the correctly rounded true function for every f16 input and for f32 edge
// and random inputs, in all four rounding directions, except where the true value lies within
// 2^-45 (relative) of a rounding boundary (counted and reported); exact points (powers of two,
// quarter revolutions) and their zero signs; special values, NaN propagation, input flushing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { expF32, logF32, sinF32, cosF32, expF16, logF16, sinF16, cosF16, type FloatEnv } from '../../src/float/index.js';
import { f64FromBits } from '../../src/float/transcendental.js';
import * as T from '../../src/float/transcendental-tables.js';
import { OUTPUT, generate } from '../../tools/gen-transcendental.js';
import { oracle, parse } from './transcendental-oracle.js';

const env = (round: 0 | 1 | 2 | 3, flush = false): FloatEnv => ({ round, flushIn: flush, flushOut: flush, ieee: true, dx10Clamp: true });
const RNE = env(0);
const f32 = (x: number) => { const b = new DataView(new ArrayBuffer(4)); b.setFloat32(0, x); return b.getUint32(0); };
const hex = (b: bigint) => b.toString(16);

type Fn = 'exp' | 'log' | 'sin' | 'cos';
const MODEL = {
  f16: { exp: expF16, log: logF16, sin: sinF16, cos: cosF16 },
  f32: { exp: expF32, log: logF32, sin: sinF32, cos: cosF32 },
} as const;

test('the committed constants are current (tools/gen-transcendental.ts)', () => {
  assert.equal(readFileSync(OUTPUT, 'utf8'), generate());
});

test('every f64 constant is the nearest f64 to its exact value (mpmath)', () => {
  const polys = ['EXP2_POLY', 'LOG2_POLY', 'SINQ_POLY', 'COSQ_POLY'] as const;
  const req: string[] = [], want: bigint[] = [], what: string[] = [];
  for (const name of polys) T[name].forEach((b, i) => { req.push(`const ${name} ${i}`); want.push(b); what.push(`${name}[${i}]`); });
  T.LOG2_R.forEach((b, j) => { req.push(`const LOG2_R ${j}`); want.push(b); what.push(`LOG2_R[${j}]`); });
  T.LOG2_LO.forEach((b, j) => { req.push(`const LOG2_LO ${j} ${hex(T.LOG2_HI[j] as bigint)}`); want.push(b); what.push(`LOG2_LO[${j}]`); });
  T.LOG2_HI.forEach((_, j) => req.push(`const LOG2_L ${j}`));
  const got = oracle(req);
  want.forEach((b, i) => assert.equal(got[i], hex(b), what[i]));
  // LOG2_HI: a multiple of 2^-40 within 2^-41 of −log2(r_j).
  T.LOG2_HI.forEach((b, j) => {
    const hi = f64FromBits(b), L = f64FromBits(BigInt(`0x${got[want.length + j] as string}`));
    assert.ok(Number.isInteger(hi * 2 ** 40), `LOG2_HI[${j}] is a multiple of 2^-40`);
    assert.ok(Math.abs(hi - L) <= 2 ** -41 + 2 ** -50, `LOG2_HI[${j}] within 2^-41 of -log2(r_j)`);
  });
  assert.equal(T.EXP2_POLY.length, 14);
  assert.equal(T.LOG2_R.length, 33);
});

/** Compares the model with the oracle on `inputs` (finite bits; log: positive); returns the near-boundary count. */
function compare(fmt: 'f16' | 'f32', fn: Fn, inputs: readonly number[]): { checked: number; near: number } {
  const answers = oracle(inputs.map((b) => `${fn} ${fmt} ${b.toString(16)}`));
  const model = MODEL[fmt][fn];
  let checked = 0, near = 0;
  const bad: string[] = [];
  inputs.forEach((bits, i) => {
    const a = parse(answers[i] as string);
    if (a === 'skip') return;
    for (const r of [0, 1, 2, 3] as const) {
      const got = model(bits, env(r));
      if (a === 'Z') { if ((got & (fmt === 'f16' ? 0x7fff : 0x7fffffff)) !== 0) bad.push(`${fn}_${fmt}(0x${bits.toString(16)}) round ${r}: 0x${got.toString(16)}, expected a zero`); continue; }
      if ((a.nearMask >> r) & 1) { near++; continue; }
      checked++;
      if (got !== a.bits[r]) bad.push(`${fn}_${fmt}(0x${bits.toString(16)}) round ${r}: 0x${got.toString(16)}, expected 0x${(a.bits[r] as number).toString(16)}`);
    }
  });
  assert.deepEqual(bad.slice(0, 10), [], `${bad.length} results differ from the correctly rounded value`);
  return { checked, near };
}

/** Every finite f16 input (log: positive ones). */
const allF16 = (fn: Fn): number[] => {
  const r: number[] = [];
  for (let b = 0; b < 0x10000; b++) {
    if ((b & 0x7c00) === 0x7c00) continue;
    if (fn === 'log' && (b >= 0x8000 || b === 0)) continue;
    r.push(b);
  }
  return r;
};

for (const fn of ['exp', 'log', 'sin', 'cos'] as const) {
  test(`${fn}_f16 is correctly rounded for every finite f16 input, in every rounding mode (mpmath)`, (t) => {
    const { checked, near } = compare('f16', fn, allF16(fn));
    t.diagnostic(`${fn}_f16: ${checked} results checked, ${near} within 2^-45 of a rounding boundary (not checked)`);
    assert.ok(checked > 4 * 30000);
  });
}

/** A seeded xorshift32. */
function rng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => { s ^= s << 13; s >>>= 0; s ^= s >>> 17; s ^= s << 5; s >>>= 0; return s; };
}
const isFinite32 = (b: number) => (b & 0x7f800000) !== 0x7f800000;

/** f32 inputs for fn: edges, random bit patterns, and the ranges where the function changes. */
function f32Inputs(fn: Fn, n: number): number[] {
  const next = rng(0x9e3779b9 ^ fn.charCodeAt(0) * 7919);
  const uni = () => next() / 2 ** 32;
  const out = new Set<number>();
  const add = (b: number) => { b >>>= 0; if (isFinite32(b) && !(fn === 'log' && (b >= 0x80000000 || b === 0))) out.add(b); };
  // Edges: zeros, denormals, the smallest and largest normals, around 1.
  for (const b of [0, 1, 2, 0x7fffff, 0x800000, 0x800001, 0x7f7fffff, 0x3f800000, 0x3f7fffff, 0x3f800001, 0x80000001, 0x807fffff, 0xff7fffff, 0xbf800000]) add(b);
  for (let k = 0; k < n / 4; k++) add(next()); // any bit pattern
  for (let k = 0; k < n / 4; k++) add(next() & 0x807fffff | ((0x7f - 24 + (next() % 48)) << 23)); // magnitudes 2^-24..2^24
  const ranges: Record<Fn, () => number> = {
    exp: () => f32(-170 + 300 * uni()),
    log: () => f32(1 + (uni() - 0.5) * 2 ** -(next() % 24)),
    sin: () => f32((uni() - 0.5) * 2 ** (next() % 26)),
    cos: () => f32((uni() - 0.5) * 2 ** (next() % 26)),
  };
  for (let k = 0; k < n / 2; k++) add(ranges[fn]());
  // Around exact points: integers (exp), powers of two (log), quarter revolutions (sin, cos).
  for (let k = -40; k <= 40; k++) for (const d of [-2, -1, 1, 2]) {
    const base = fn === 'exp' ? f32(k * 3.5) : fn === 'log' ? f32(2 ** k) : f32(k / 4);
    add(base + d);
  }
  return [...out];
}

for (const fn of ['exp', 'log', 'sin', 'cos'] as const) {
  test(`${fn}_f32 is correctly rounded on edge and random inputs, in every rounding mode (mpmath)`, (t) => {
    const { checked, near } = compare('f32', fn, f32Inputs(fn, 60000));
    t.diagnostic(`${fn}_f32: ${checked} results checked, ${near} within 2^-45 of a rounding boundary (not checked)`);
    assert.ok(checked > 4 * 25000);
  });
}

test('exp2 and log2 are exact on powers of two, in every rounding mode', () => {
  for (let k = -149; k <= 127; k++) {
    for (const r of [0, 1, 2, 3] as const) {
      assert.equal(expF32(f32(k), env(r)), f32(2 ** k), `exp2(${k})`);
      assert.equal(logF32(f32(2 ** k), env(r)), f32(k), `log2(2^${k})`);
    }
  }
  for (let k = -24; k <= 15; k++) for (const r of [0, 1, 2, 3] as const) {
    const h = k < -14 ? 1 << (k + 24) : (k + 15) << 10; // 2^k as f16 bits
    assert.equal(logF16(h, env(r)), f32ToF16Exact(k), `log2_f16(2^${k})`);
    assert.equal(expF16(f32ToF16Exact(k), env(r)), h, `exp2_f16(${k})`);
  }
  assert.equal(expF16(0x4400, RNE), 0x4c00); // exp2(4) = 16
  assert.equal(logF16(0x5800, RNE), 0x4700); // log2(128) = 7
  assert.equal(logF32(f32(1), env(2)), 0, 'log2(1) = +0 (also toward -inf)');
});

/** An integer in [-24, 15] as f16 bits (exact). */
function f32ToF16Exact(k: number): number {
  if (k === 0) return 0;
  const a = Math.abs(k), e = 31 - Math.clz32(a);
  return (k < 0 ? 0x8000 : 0) | ((e + 15) << 10) | (((a << (10 - e)) & 0x3ff));
}

test('sin and cos take revolutions, are exact at quarter turns, and give the documented zero signs', () => {
  for (const [fmtBits, sin, cos, neg, one, minusOne] of [
    [f32, sinF32, cosF32, 0x80000000, 0x3f800000, 0xbf800000],
    [(x: number) => f16Of(x), sinF16, cosF16, 0x8000, 0x3c00, 0xbc00],
  ] as const) {
    for (let k = -12; k <= 12; k++) {
      const x = fmtBits(k / 4), q = Math.abs(k) % 4;
      for (const r of [0, 1, 2, 3] as const) {
        const s = sin(x, env(r)), c = cos(x, env(r));
        // sin: a zero of the input's sign at whole turns, of the opposite sign at half turns.
        const negX = k < 0;
        const sPos = [0, one, neg, minusOne][q] as number;
        const sWant = negX ? (sPos ^ neg) >>> 0 : sPos;
        const cWant = [one, 0, minusOne, 0][q];
        assert.equal(s, sWant, `sin(${k}/4) round ${r}`);
        assert.equal(c, cWant, `cos(${k}/4) round ${r}`);
      }
    }
    assert.equal(sin(neg, RNE), neg, 'sin(-0) = -0');
    assert.equal(cos(neg, RNE), one, 'cos(-0) = 1');
  }
  // Huge inputs are whole turns: sin(±2^100) = ±0, cos = 1.
  assert.equal(sinF32(f32(2 ** 100), RNE), 0);
  assert.equal(sinF32(f32(-(2 ** 100)), RNE), 0x80000000);
  assert.equal(cosF32(f32(2 ** 100), RNE), 0x3f800000);
  assert.equal(sinF32(0x7f7fffff, RNE), 0);
});

/** A value exactly representable in f16, as bits. */
function f16Of(x: number): number {
  if (x === 0) return Object.is(x, -0) ? 0x8000 : 0;
  const s = x < 0 ? 0x8000 : 0, a = Math.abs(x);
  const e = Math.floor(Math.log2(a));
  const m = a / 2 ** e;
  assert.ok(Number.isInteger(m * 1024) && e >= -14 && e <= 15, `${x} is an f16 normal`);
  return s | ((e + 15) << 10) | (m * 1024 - 1024);
}

test('every non-finite f16 input: NaNs propagate (quieted when IEEE), infinities give the functions\' limits', () => {
  const inf: Record<Fn, [number, number]> = { exp: [0x7c00, 0], log: [0x7c00, 0x7e00], sin: [0x7e00, 0x7e00], cos: [0x7e00, 0x7e00] };
  for (const fn of ['exp', 'log', 'sin', 'cos'] as const) for (const ieee of [true, false]) for (let b = 0x7c00; b < 0x10000; b++) {
    if ((b & 0x7c00) !== 0x7c00) continue;
    const got = MODEL.f16[fn](b, { ...env(1), ieee });
    const want = (b & 0x3ff) !== 0 ? (ieee ? b | 0x200 : b) : (inf[fn][b & 0x8000 ? 1 : 0] as number);
    assert.equal(got, want, `${fn}_f16(0x${b.toString(16)}) ieee=${ieee}`);
  }
});

test('special values, overflow by the mode, NaN propagation, and input flushing', () => {
  assert.equal(expF32(0xff800000, RNE), 0); // exp2(-inf) = +0
  assert.equal(expF32(0x7f800000, RNE), 0x7f800000);
  assert.equal(expF32(0x7f800000, env(3)), 0x7f800000, 'exp2(+inf) = +inf exactly, in every mode');
  for (const x of [200, 2000, 3e38]) {
    assert.equal(expF32(f32(x), RNE), 0x7f800000, `exp2(${x}) overflows to +inf in RNE`);
    assert.equal(expF32(f32(x), env(3)), 0x7f7fffff, `exp2(${x}) overflows to MAX toward zero`);
    assert.equal(expF32(f32(-x), env(1)), 1, `exp2(-${x}) is the smallest denormal toward +inf`);
    assert.equal(expF32(f32(-x), RNE), 0, `exp2(-${x}) is +0 to nearest`);
  }
  assert.equal(expF16(0x4c00 + 0x300, env(3)), 0x7bff, 'exp2_f16(28) overflows to MAX toward zero');
  assert.equal(expF32(f32(-150), RNE), 0, 'exp2(-150) = 2^-150: a tie, to even (+0)');
  assert.equal(expF32(f32(-150), env(1)), 1);
  assert.equal(expF32(f32(-149), env(0, true)), 0, 'exp2(-149) flushed when outputs flush');
  assert.equal(expF32(0, RNE), 0x3f800000);
  assert.equal(expF32(0x80000000, RNE), 0x3f800000);
  assert.equal(logF32(0, RNE), 0xff800000);
  assert.equal(logF32(0x80000000, RNE), 0xff800000);
  assert.equal(logF32(f32(-1), RNE), 0x7fc00000);
  assert.equal(logF32(0xff800000, RNE), 0x7fc00000);
  assert.equal(logF32(0x80000001, RNE), 0x7fc00000, 'log2 of a negative denormal is NaN');
  assert.equal(logF32(0x80000001, env(0, true)), 0xff800000, '... and -inf when it is flushed to -0');
  assert.equal(logF32(0x7f800000, RNE), 0x7f800000);
  assert.equal(logF16(0xfc00, RNE), 0x7e00);
  assert.equal(logF16(0x8000, RNE), 0xfc00);
  assert.equal(sinF32(0x7f800000, RNE), 0x7fc00000);
  assert.equal(cosF32(0xff800000, RNE), 0x7fc00000);
  assert.equal(sinF16(0x7c00, RNE), 0x7e00);
  assert.equal(expF32(0x7fa00000, RNE), 0x7fe00000, 'an sNaN is quieted when IEEE');
  assert.equal(expF32(0x7fa00000, { ...RNE, ieee: false }), 0x7fa00000);
  assert.equal(sinF32(0xffa00001, RNE), 0xffe00001, 'the sign and payload are kept');
  assert.equal(logF16(0x7d01, RNE), 0x7f01);
  assert.equal(cosF16(0xfd01, { ...RNE, ieee: false }), 0xfd01);
  // A subnormal input: log2(2^-149) = -149, or -inf when inputs are flushed.
  assert.equal(logF32(1, RNE), f32(-149));
  assert.equal(logF32(1, env(0, true)), 0xff800000);
  assert.equal(sinF32(1, env(0, true)), 0, 'sin of a flushed denormal is +0');
  assert.equal(logF16(1, RNE), 0xce00, 'log2_f16(2^-24) = -24');
});
