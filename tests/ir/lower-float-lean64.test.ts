// The lean f64 add, sub and mul of the transcendental cores' exact form
// (src/ir/passes/lower-float-lean64.ts) alone, through the IR interpreter, against JS number
// arithmetic (ECMAScript's Number: IEEE binary64, round to nearest even; an oracle we did not
// write), bit for bit, on their domain: operands finite and normal or zero, results normal or zero.
// Operands span the exponents the transcendental algorithms use (about 2^-330 to 2^131) and more;
// the generators make exact cancellation (a − a), operands a few units apart, sums and products
// that tie (a half unit exactly, with and without a bit below it), carries out of the rounding,
// far-apart exponents (the shifted operand only a sticky bit) and zeros of both signs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { Builder, Inst } from '../../src/ir/ir.js';
import { X } from '../../src/ir/passes/lower-float.js';
import { leanAdd64, leanMul64, leanSub64 } from '../../src/ir/passes/lower-float-lean64.js';
import { LANES, runBody } from './lower-wide-harness.js';

const dv = new DataView(new ArrayBuffer(8));
const num = (b: bigint) => { dv.setBigUint64(0, b); return dv.getFloat64(0); };
const bits = (v: number) => { dv.setFloat64(0, v); return dv.getBigUint64(0); };
const SIGN = 1n << 63n, FRAC = (1n << 52n) - 1n;
const make = (s: boolean, e: number, f: bigint) => ((s ? SIGN : 0n) | (BigInt(e + 1023) << 52n) | (f & FRAC));
const expOf = (b: bigint) => Number((b >> 52n) & 0x7ffn) - 1023;

const frac = fc.oneof(
  fc.bigInt({ min: 0n, max: FRAC }),
  fc.constantFrom(0n, 1n, FRAC, FRAC - 1n, 1n << 51n, (1n << 51n) | 1n),
  // Sparse: a few top bits and the last ones (sums and products of these tie or are exact).
  fc.tuple(fc.integer({ min: 0, max: 15 }), fc.integer({ min: 0, max: 3 })).map(([t, l]) => (BigInt(t) << 48n) | BigInt(l)),
);
/** A normal f64 with an unbiased exponent in [lo, hi]. */
const normal = (lo: number, hi: number) => fc.tuple(fc.boolean(), fc.integer({ min: lo, max: hi }), frac).map(([s, e, f]) => make(s, e, f));
const zero = fc.constantFrom(0n, SIGN);
/** The algorithms' range (2^-340 to 2^140), often near 1, and now and then a zero. */
const operand = fc.oneof({ weight: 4, arbitrary: normal(-340, 140) }, { weight: 3, arbitrary: normal(-8, 8) }, { weight: 1, arbitrary: zero });

/** Addends: random pairs; b = ∓a plus a few units (cancellation, a − a); b a half unit of a (ties: exact, just above, just below), or far below it. */
const addPairs: fc.Arbitrary<[bigint, bigint]> = fc.oneof(
  fc.tuple(operand, operand),
  fc.tuple(normal(-340, 140), fc.integer({ min: -3, max: 3 }), fc.boolean()).map(([a, k, neg]): [bigint, bigint] => [a, BigInt.asUintN(64, (neg ? a ^ SIGN : a) + BigInt(k))]),
  fc.tuple(normal(-300, 140), fc.boolean(), fc.integer({ min: -1, max: 1 }), fc.integer({ min: 53, max: 120 })).map(([a, s, k, d]): [bigint, bigint] => {
    // b = ±2^(e − d) (d = 53: half a unit of a), nudged by a unit of its own.
    const b = make(s, expOf(a) - d, 0n);
    return [a, k < 0 ? BigInt.asUintN(64, b - 1n) : b + BigInt(k)];
  }),
  fc.tuple(normal(-300, 140), fc.boolean(), frac, fc.integer({ min: 1, max: 60 })).map(([a, s, f, d]): [bigint, bigint] => [a, make(s, expOf(a) - d, f)]),
  fc.tuple(zero, fc.oneof(zero, normal(-340, 140))).map(([z, a]): [bigint, bigint] => [z, a]),
);

/** Factors: random pairs; ties (an odd significand times 1.5: the product's dropped part is exactly a half or none); significands near 2 (rounding carries); zeros. */
const mulPairs: fc.Arbitrary<[bigint, bigint]> = fc.oneof(
  fc.tuple(operand, operand),
  fc.tuple(fc.boolean(), fc.integer({ min: -340, max: 140 }), frac, fc.boolean(), fc.integer({ min: -340, max: 140 }))
    .map(([s, ea, f, t, eb]): [bigint, bigint] => [make(s, ea, f | 1n), make(t, eb, 1n << 51n)]),
  fc.tuple(fc.boolean(), fc.integer({ min: -340, max: 140 }), fc.integer({ min: 0, max: 1000 }), normal(-340, 140))
    .map(([s, e, k, b]): [bigint, bigint] => [make(s, e, FRAC - BigInt(k)), b]),
  fc.tuple(zero, operand).map(([z, a]): [bigint, bigint] => [a, z]),
);

const ORACLE = { add: (a: number, b: number) => a + b, sub: (a: number, b: number) => a - b, mul: (a: number, b: number) => a * b } as const;
const LEAN = { add: leanAdd64, sub: leanSub64, mul: leanMul64 } as const;

/** Whether the bits are a normal f64 or a zero (the lean ops' domain). */
const inDomain = (b: bigint) => { const e = (b >> 52n) & 0x7ffn; return e !== 0x7ffn && (e !== 0n || (b & FRAC) === 0n); };

function check(op: keyof typeof ORACLE, pairs: fc.Arbitrary<[bigint, bigint]>, runs: number): void {
  const body = (b: Builder, v: readonly Inst[]) => LEAN[op](new X(b), v[0] as Inst, v[1] as Inst);
  fc.assert(fc.property(fc.array(pairs, { minLength: LANES, maxLength: LANES }), (batch) => {
    const got = runBody(batch, body);
    batch.forEach(([a, b], l) => {
      const want = bits(ORACLE[op](num(a), num(b)));
      assert.ok(inDomain(a) && inDomain(b) && inDomain(want), `the generator left the domain: 0x${a.toString(16)} ${op} 0x${b.toString(16)} = 0x${want.toString(16)}`);
      assert.equal(got[l], want, `0x${a.toString(16)} ${op} 0x${b.toString(16)} (${num(a)} ${op} ${num(b)}): lean 0x${got[l]?.toString(16)}, IEEE 0x${want.toString(16)}`);
    });
  }), { numRuns: runs, seed: 42, endOnFailure: true });
}

test('lean f64 add: bit for bit IEEE nearest even on normal and zero operands (cancellation, ties, far operands, signed zeros)', () => check('add', addPairs, 60));
test('lean f64 sub: bit for bit IEEE nearest even (a − a = +0, −0 − +0 = −0)', () => check('sub', addPairs.map(([a, b]): [bigint, bigint] => [a, b ^ SIGN]), 60));
test('lean f64 mul: bit for bit IEEE nearest even (ties, carries to the next power of two, zeros of both signs)', () => check('mul', mulPairs, 60));

test('lean f64 ops: the hand-picked cases', () => {
  const one = bits(1), ulp = 2 ** -52;
  const rows: [keyof typeof ORACLE, number, number][] = [
    ['add', 1, 2 ** -53], ['add', 1 + ulp, 2 ** -53], ['add', 1, 2 ** -53 + 2 ** -105], ['add', 1, -(2 ** -54)], ['add', 1, -(2 ** -53)],
    ['add', 2 - ulp, 2 ** -52], ['add', 1, -1], ['add', -0, -0], ['add', -0, 0], ['add', 0, -0], ['add', 0, 0], ['add', -3, 0], ['add', -0, 5],
    ['sub', 1, 1], ['sub', -0, 0], ['sub', 0, 0], ['sub', 1, 1 - 2 ** -53], ['sub', 2 ** 52 * 1.5 + 7, 2 ** 52 * 1.5], ['sub', 2 ** -330, 2 ** 130],
    ['mul', 1 + ulp, 1 + ulp], ['mul', 1 + 2 ** -26, 1 + 2 ** -26], ['mul', 3, (1 + 2 * ulp) / 3], ['mul', -0, 7], ['mul', -0, -7], ['mul', 0, -(2 ** -300)],
    ['mul', 2 ** -147, 2 ** -147], ['mul', 2 - ulp, 2 - ulp], ['mul', 1.5, 1 + 3 * ulp], ['mul', 1.5, 1 + ulp],
  ];
  const byOp = (op: keyof typeof ORACLE) => rows.filter((r) => r[0] === op);
  for (const op of ['add', 'sub', 'mul'] as const) {
    const rs = byOp(op);
    const got = runBody(rs.map(([, a, b]) => [bits(a), bits(b)]), (b, v) => LEAN[op](new X(b), v[0] as Inst, v[1] as Inst));
    rs.forEach(([, a, b], l) => assert.equal(got[l], bits(ORACLE[op](a, b)), `${a} ${op} ${b}`));
  }
  assert.equal(one, 0x3ff0000000000000n);
});
