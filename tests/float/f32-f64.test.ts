// Property tests for f32 and f64 against the exact rational oracle (tests/harness/rational.ts),
// and RNE f32 against the host FPU (double then Math.fround is correctly rounded: f64 has ≥ 2p+2 bits).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import * as fl from '../../src/float/index.js';
import { S16, S32, S64, oAdd, oConvert, oDiv, oFma, oMul, oSqrt, oSub, roundExact, q } from '../harness/rational.js';

const ENVS: fl.FloatEnv[] = [];
for (let round = 0; round < 4; round++) for (let denorm = 0; denorm < 4; denorm++) {
  ENVS.push({ round: round as fl.RoundMode, flushIn: (denorm & 1) === 0, flushOut: (denorm & 2) === 0, ieee: true, dx10Clamp: true });
}
const envArb = fc.constantFrom(...ENVS);

/** f32 bits biased to edges: specials, subnormals, near overflow, near 1, random. */
const f32Arb = fc.oneof(
  fc.constantFrom(0, 0x80000000, 1, 0x80000001, 0x7fffff, 0x800000, 0x80800000, 0x7f7fffff, 0xff7fffff, 0x7f800000, 0xff800000, 0x7fc00000, 0x7fa00001, 0x3f800000, 0xbf800000, 0x3f7fffff, 0x33800000),
  fc.integer({ min: 0, max: 0xffffffff }),
  fc.tuple(fc.boolean(), fc.integer({ min: 0, max: 0x7fffff })).map(([s, m]) => ((s ? 0x80000000 : 0) | m) >>> 0),
  fc.tuple(fc.boolean(), fc.integer({ min: 0xf0, max: 0xfe }), fc.integer({ min: 0, max: 0x7fffff })).map(([s, e, m]) => ((s ? 0x80000000 : 0) | (e << 23) | m) >>> 0),
  fc.tuple(fc.boolean(), fc.integer({ min: 0x70, max: 0x88 }), fc.integer({ min: 0, max: 0x7fffff })).map(([s, e, m]) => ((s ? 0x80000000 : 0) | (e << 23) | m) >>> 0),
  fc.tuple(fc.boolean(), fc.integer({ min: 1, max: 0x20 }), fc.integer({ min: 0, max: 0x7fffff })).map(([s, e, m]) => ((s ? 0x80000000 : 0) | (e << 23) | m) >>> 0),
);
/** A pair where b is close to -a (cancellation) or a tie-maker, or independent. */
const pairArb = fc.oneof(
  fc.tuple(f32Arb, f32Arb),
  fc.tuple(f32Arb, fc.integer({ min: -3, max: 3 })).map(([a, d]) => [a, ((a ^ 0x80000000) + d) >>> 0] as [number, number]),
  fc.tuple(f32Arb, fc.integer({ min: 20, max: 26 })).map(([a, k]) => [a, ((((a >>> 23) & 0xff) > k ? a - (k << 23) : a) & 0x7fffffff) >>> 0] as [number, number]),
);

const b = (x: number): bigint => BigInt(x >>> 0);
const hex = (x: number | bigint): string => x.toString(16);
const RUNS = 5000;

test('f32 add/sub/mul/div/sqrt/fma: rational oracle, 4 modes × 4 denorm settings', () => {
  fc.assert(fc.property(pairArb, f32Arb, envArb, ([x, y], z, env) => {
    assert.equal(hex(fl.addF32(x, y, env)), hex(oAdd(S32, b(x), b(y), env)), 'add');
    assert.equal(hex(fl.subF32(x, y, env)), hex(oSub(S32, b(x), b(y), env)), 'sub');
    assert.equal(hex(fl.mulF32(x, y, env)), hex(oMul(S32, b(x), b(y), env)), 'mul');
    assert.equal(hex(fl.divF32(x, y, env)), hex(oDiv(S32, b(x), b(y), env)), 'div');
    assert.equal(hex(fl.sqrtF32(x, env)), hex(oSqrt(S32, b(x), env)), 'sqrt');
    assert.equal(hex(fl.fmaF32(x, y, z, env)), hex(oFma(S32, b(x), b(y), b(z), env)), 'fma');
  }), { numRuns: RUNS * 2, seed: 5 });
});

test('f32 fma with tininess before and after rounding', () => {
  fc.assert(fc.property(pairArb, f32Arb, envArb, fc.constantFrom('before' as const, 'after' as const), ([x, y], z, env0, tininess) => {
    const env = { ...env0, tininess };
    assert.equal(hex(fl.fmaF32(x, y, z, env)), hex(oFma(S32, b(x), b(y), b(z), env)));
    assert.equal(hex(fl.mulF32(x, y, env)), hex(oMul(S32, b(x), b(y), env)));
  }), { numRuns: RUNS, seed: 6 });
});

test('f32 RNE with denormals kept: host FPU oracle', () => {
  const env = fl.IEEE_ENV;
  const host = (v: number): number => fl.numberToF32(v);
  fc.assert(fc.property(pairArb, ([x, y]) => {
    const X = fl.f32ToNumber(x), Y = fl.f32ToNumber(y);
    const r = [fl.addF32(x, y, env), host(X + Y), fl.mulF32(x, y, env), host(X * Y), fl.divF32(x, y, env), host(X / Y), fl.sqrtF32(x, env), host(Math.sqrt(X))];
    for (let i = 0; i < r.length; i += 2) {
      const got = r[i] as number, want = r[i + 1] as number;
      if (Number.isNaN(fl.f32ToNumber(want))) assert.ok(Number.isNaN(fl.f32ToNumber(got)));
      else assert.equal(hex(got), hex(want), `op ${i / 2}`);
    }
  }), { numRuns: RUNS * 4, seed: 7 });
});

const f64Arb = fc.oneof(
  fc.constantFrom(0n, 1n << 63n, 1n, 0xfffffffffffffn, 0x10000000000000n, 0x7fefffffffffffffn, 0x7ff0000000000000n, 0x3ff0000000000000n, 0xbff0000000000001n),
  fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }),
  fc.tuple(fc.boolean(), fc.integer({ min: 0, max: 0x7fe }), fc.bigInt({ min: 0n, max: (1n << 52n) - 1n })).map(([s, e, m]) => (s ? 1n << 63n : 0n) | (BigInt(e) << 52n) | m),
  fc.tuple(fc.boolean(), fc.integer({ min: 0x3c0, max: 0x440 }), fc.bigInt({ min: 0n, max: (1n << 52n) - 1n })).map(([s, e, m]) => (s ? 1n << 63n : 0n) | (BigInt(e) << 52n) | m),
  fc.tuple(fc.boolean(), fc.integer({ min: 0, max: 0x40 }), fc.bigInt({ min: 0n, max: (1n << 52n) - 1n })).map(([s, e, m]) => (s ? 1n << 63n : 0n) | (BigInt(e) << 52n) | m),
);

test('f64 add/sub/mul/div/sqrt/fma: rational oracle, 4 modes × 4 denorm settings', () => {
  fc.assert(fc.property(f64Arb, f64Arb, f64Arb, envArb, (x, y, z, env) => {
    assert.equal(hex(fl.addF64(x, y, env)), hex(oAdd(S64, x, y, env)), 'add');
    assert.equal(hex(fl.subF64(x, (y ^ x) & 1n ? y : x ^ (1n << 63n), env)), hex(oSub(S64, x, (y ^ x) & 1n ? y : x ^ (1n << 63n), env)), 'sub');
    assert.equal(hex(fl.mulF64(x, y, env)), hex(oMul(S64, x, y, env)), 'mul');
    assert.equal(hex(fl.divF64(x, y, env)), hex(oDiv(S64, x, y, env)), 'div');
    assert.equal(hex(fl.sqrtF64(x, env)), hex(oSqrt(S64, x, env)), 'sqrt');
    assert.equal(hex(fl.fmaF64(x, y, z, env)), hex(oFma(S64, x, y, z, env)), 'fma');
  }), { numRuns: RUNS, seed: 8 });
});

test('conversions f32↔f16, f64↔f32, f64↔f16, i32/u32 → f32/f64: rational oracle', () => {
  const notNaN32 = f32Arb.filter((x) => (x & 0x7fffffff) <= 0x7f800000);
  const notNaN64 = f64Arb.filter((x) => (x & ((1n << 63n) - 1n)) <= 0x7ff0000000000000n);
  fc.assert(fc.property(notNaN32, notNaN64, fc.integer({ min: 0, max: 0xffffffff }), envArb, (x, d, i, env) => {
    assert.equal(hex(fl.cvtF16F32(x, env)), hex(oConvert(S32, S16, b(x), env)), 'f32→f16');
    assert.equal(hex(fl.cvtF64F32(x, env)), hex(oConvert(S32, S64, b(x), env)), 'f32→f64');
    assert.equal(hex(fl.cvtF32F64(d, env)), hex(oConvert(S64, S32, d, env)), 'f64→f32');
    assert.equal(hex(fl.cvtF16F64(d, env)), hex(oConvert(S64, S16, d, env)), 'f64→f16');
    const si = i | 0;
    const want = (s: typeof S32, v: number): bigint => (v === 0 ? 0n : roundExact(s, v < 0 ? 1 : 0, { kind: 'q', q: q(BigInt(Math.abs(v))) }, env));
    assert.equal(hex(fl.cvtF32I32(i, env)), hex(want(S32, si)), 'i32→f32');
    assert.equal(hex(fl.cvtF32U32(i, env)), hex(want(S32, i)), 'u32→f32');
    assert.equal(hex(fl.cvtF64I32(i, env)), hex(want(S64, si)), 'i32→f64');
    assert.equal(hex(fl.cvtF64U32(i, env)), hex(want(S64, i)), 'u32→f64');
  }), { numRuns: RUNS * 2, seed: 9 });
});

test('f32 → i32/u32: truncation, NaN → 0, saturation (host oracle)', () => {
  const env = fl.IEEE_ENV;
  fc.assert(fc.property(f32Arb, (x) => {
    const v = fl.f32ToNumber(x);
    const sat = (t: number, lo: number, hi: number): number => (Number.isNaN(t) ? 0 : Math.min(hi, Math.max(lo, t)) + 0);
    assert.equal(fl.cvtI32F32(x, env), sat(Math.trunc(v), -(2 ** 31), 2 ** 31 - 1));
    assert.equal(fl.cvtU32F32(x, env), sat(Math.trunc(v), 0, 2 ** 32 - 1));
    assert.equal(fl.cvtFlrI32F32(x, env), sat(Math.floor(v), -(2 ** 31), 2 ** 31 - 1));
    assert.equal(fl.cvtRpiI32F32(x, env), sat(Math.floor(v + 0.5), -(2 ** 31), 2 ** 31 - 1));
  }), { numRuns: RUNS * 4, seed: 10 });
});
