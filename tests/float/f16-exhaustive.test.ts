// Exhaustive f16 checks against an oracle built on the table of all f16 values (exact doubles,
// decoded by the independent rational harness): neighbours by binary search, decision by the
// midpoint. f16 sums and products of f16 values are exact doubles.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fl from '../../src/float/index.js';
import { S16, S32, decode, toNumber } from '../harness/rational.js';
import { Rng } from '../harness/rng.js';

type Env = fl.FloatEnv;
const ENVS: Env[] = [];
for (let round = 0; round < 4; round++) for (let denorm = 0; denorm < 4; denorm++) {
  ENVS.push({ round: round as fl.RoundMode, flushIn: (denorm & 1) === 0, flushOut: (denorm & 2) === 0, ieee: true, dx10Clamp: true });
}

/** V[i] = value of f16 bits i for 0 ≤ i ≤ 0x7bff, V[0x7c00] = 65536 (the overflow neighbour). */
const V = new Float64Array(0x7c01);
for (let i = 0; i < 0x7c00; i++) V[i] = toNumber(S16, BigInt(i));
V[0x7c00] = 65536;
const MIN_NORMAL = 2 ** -14;

function isSub16(b: number): boolean { return (b & 0x7c00) === 0 && (b & 0x3ff) !== 0; }
/** ALL[b] = the value of f16 bits b (NaN for NaNs), from the rational decoder. */
const ALL = new Float64Array(65536);
for (let i = 0; i < 65536; i++) ALL[i] = toNumber(S16, BigInt(i));
function val16(b: number, env: Env): number {
  if (env.flushIn && isSub16(b)) return b & 0x8000 ? -0 : 0;
  return ALL[b] as number;
}

/** Round exact t (a double) to f16 by neighbours and midpoint. */
function oracleRound(t: number, env: Env): number {
  const sign = t < 0 || Object.is(t, -0) ? 0x8000 : 0;
  const x = Math.abs(t);
  if (x === 0) return sign;
  if (env.flushOut && x < MIN_NORMAL) {
    let tiny = true;
    if (env.tininess !== 'before') {
      // unbounded-exponent neighbours just below 2^-14 are 2^-25 apart
      const u = 2 ** -25, lo = Math.floor(x / u) * u, hi = lo + u;
      const pick = pickBy(x, lo, hi, sign !== 0, env.round, Math.floor(x / u) % 2 === 0);
      tiny = pick < MIN_NORMAL;
    }
    if (tiny) return sign;
  }
  let lo = 0, hi = 0x7c00; // V[lo] ≤ x < V[hi] unless x ≥ 65536
  if (x >= 65536) lo = 0x7bff; else {
    while (hi - lo > 1) { const m = (lo + hi) >> 1; if ((V[m] as number) <= x) lo = m; else hi = m; }
  }
  let r: number;
  if ((V[lo] as number) === x) r = lo;
  else r = pickBy(x, V[lo] as number, V[lo + 1] as number, sign !== 0, env.round, lo % 2 === 0) === V[lo] ? lo : lo + 1;
  if (r === 0x7c00) {
    const toInf = env.round === 0 || (env.round === 1 && !sign) || (env.round === 2 && !!sign);
    return sign | (toInf ? 0x7c00 : 0x7bff);
  }
  return sign | r;
}
function pickBy(x: number, lo: number, hi: number, neg: boolean, round: number, loEven: boolean): number {
  if (x === lo) return lo;
  switch (round) {
    case 3: return lo;
    case 1: return neg ? lo : hi;
    case 2: return neg ? hi : lo;
    default: { const mid = (lo + hi) / 2; return x < mid ? lo : x > mid ? hi : loEven ? lo : hi; }
  }
}
function nanRule(a: number, b: number, env: Env): number | undefined {
  for (const v of [a, b]) if ((v & 0x7c00) === 0x7c00 && (v & 0x3ff) !== 0) return env.ieee ? v | 0x200 : v;
  return undefined;
}
function oracleAdd(a: number, b: number, env: Env): number {
  const n = nanRule(a, b, env); if (n !== undefined) return n;
  const x = val16(a, env), y = val16(b, env);
  const t = x + y;
  if (Number.isNaN(t)) return 0x7e00;
  if (!Number.isFinite(t)) return t > 0 ? 0x7c00 : 0xfc00;
  if (t === 0) {
    const sx = Object.is(x, -0) || x < 0, sy = Object.is(y, -0) || y < 0;
    return sx === sy ? (sx ? 0x8000 : 0) : env.round === 2 ? 0x8000 : 0;
  }
  return oracleRound(t, env);
}
function oracleMul(a: number, b: number, env: Env): number {
  const n = nanRule(a, b, env); if (n !== undefined) return n;
  const x = val16(a, env), y = val16(b, env);
  const t = x * y;
  if (Number.isNaN(t)) return 0x7e00;
  if (!Number.isFinite(t)) return t > 0 ? 0x7c00 : 0xfc00;
  return oracleRound(t, env);
}

function bSet(extraRandom: number): number[] {
  const s = new Set<number>([0, 0x8000, 1, 0x8001, 2, 0x3ff, 0x83ff, 0x400, 0x8400, 0x401, 0x7bff, 0xfbff, 0x7c00, 0xfc00,
    0x7e00, 0x7d00, 0xfe01, 0x3c00, 0xbc00, 0x3c01, 0x3bff, 0x1400, 0x0200, 0x8200, 0x7800, 0x4000, 0xc000, 0x3800]);
  const r = new Rng(16);
  while (s.size < 28 + extraRandom) s.add(r.bits(16));
  return [...s];
}

function sweep(op: (a: number, b: number, e: Env) => number, oracle: (a: number, b: number, e: Env) => number, bs: number[], env: Env, name: string): void {
  let bad = 0; let first = '';
  for (const b of bs) for (let a = 0; a < 65536; a++) {
    const got = op(a, b, env), want = oracle(a, b, env);
    if (got !== want) { if (!bad) first = `${name} ${a.toString(16)} ${b.toString(16)} env ${JSON.stringify(env)}: got ${got.toString(16)} want ${want.toString(16)}`; bad++; }
  }
  assert.equal(bad, 0, first);
}

test('f16 add and mul: all a × 28 edge + 256 random b, RNE with denormals kept', () => {
  const bs = bSet(256);
  const env = ENVS[3] as Env;
  sweep(fl.addF16, oracleAdd, bs, env, 'add');
  sweep(fl.mulF16, oracleMul, bs, env, 'mul');
});

test('f16 add and mul: all a × 28 edge + 36 random b, every rounding mode × denorm setting', () => {
  const bs = bSet(36);
  for (const env of ENVS) {
    sweep(fl.addF16, oracleAdd, bs, env, 'add');
    sweep(fl.mulF16, oracleMul, bs, env, 'mul');
    sweep(fl.subF16, (a, b, e) => oracleAdd(a, (b & 0x7fff) > 0x7c00 ? b : b ^ 0x8000, e), bs.slice(0, 3), env, 'sub');
  }
});

test('f16 add and mul with tininess before rounding', () => {
  const bs = [1, 0x8001, 0x3ff, 0x83ff, 0x401, 0x1400];
  for (const env0 of ENVS.filter((e) => e.flushOut)) {
    const env = { ...env0, tininess: 'before' as const };
    sweep(fl.addF16, oracleAdd, bs, env, 'add-before');
    sweep(fl.mulF16, oracleMul, bs, env, 'mul-before');
  }
});

test('all 65536 f16 → f32 → f16 round trips are the identity (NaN: quieted)', () => {
  const keep = fl.IEEE_ENV;
  for (let a = 0; a < 65536; a++) {
    const w = fl.cvtF32F16(a, keep);
    const v = decode(S16, BigInt(a));
    if (v.kind === 'nan') {
      assert.equal(fl.cvtF16F32(w, keep), a | 0x200);
      assert.equal(w, ((a & 0x8000) << 16 | 0x7f800000 | ((a & 0x3ff) << 13) | 0x400000) >>> 0);
      continue;
    }
    assert.equal(toNumber(S32, BigInt(w)), toNumber(S16, BigInt(a)), `widen ${a.toString(16)}`);
    assert.equal(fl.cvtF16F32(w, keep), a, `narrow ${a.toString(16)}`);
  }
  // With f16 input flush, f16 subnormals widen to ±0.
  const flush = { ...keep, flushIn: true };
  assert.equal(fl.cvtF32F16(0x0001, flush), 0);
  assert.equal(fl.cvtF32F16(0x83ff, flush), 0x80000000);
});

test('all f16 inputs: rndne, floor, ceil, trunc, fract, frexp_mant, frexp_exp (host oracle)', () => {
  const env = fl.IEEE_ENV;
  const rndne = (x: number): number => { const f = Math.floor(x), d = x - f; return d > 0.5 || (d === 0.5 && f % 2 !== 0) ? f + 1 : f; };
  const enc = (x: number): number => oracleRound(x, env);
  for (let a = 0; a < 65536; a++) {
    const v = decode(S16, BigInt(a));
    if (v.kind === 'nan') {
      for (const op of [fl.rndneF16, fl.floorF16, fl.ceilF16, fl.truncF16, fl.fractF16, fl.frexpMantF16]) assert.equal(op(a, env), a | 0x200);
      assert.equal(fl.frexpExpF16(a, env), 0);
      continue;
    }
    const x = toNumber(S16, BigInt(a));
    const keepSign = (r: number): number => (r === 0 ? (a & 0x8000) : enc(r));
    if (!Number.isFinite(x)) {
      for (const op of [fl.rndneF16, fl.floorF16, fl.ceilF16, fl.truncF16, fl.frexpMantF16]) assert.equal(op(a, env), a);
      assert.equal(fl.fractF16(a, env), 0x7e00);
      assert.equal(fl.frexpExpF16(a, env), 0);
      continue;
    }
    assert.equal(fl.rndneF16(a, env), keepSign(rndne(x)), `rndne ${a.toString(16)}`);
    assert.equal(fl.floorF16(a, env), keepSign(Math.floor(x)), `floor ${a.toString(16)}`);
    assert.equal(fl.ceilF16(a, env), keepSign(Math.ceil(x)), `ceil ${a.toString(16)}`);
    assert.equal(fl.truncF16(a, env), keepSign(Math.trunc(x)), `trunc ${a.toString(16)}`);
    const fr = x === 0 ? a : Math.min(enc(x - Math.floor(x)), 0x3bff);
    assert.equal(fl.fractF16(a, env), fr, `fract ${a.toString(16)}`);
    if (x === 0) { assert.equal(fl.frexpMantF16(a, env), a); assert.equal(fl.frexpExpF16(a, env), 0); continue; }
    let e = 0; while (Math.abs(x) >= 2 ** e) e++; while (Math.abs(x) < 2 ** (e - 1)) e--;
    assert.equal(fl.frexpExpF16(a, env), e, `frexp_exp ${a.toString(16)}`);
    assert.equal(fl.frexpMantF16(a, env), enc(x / 2 ** e), `frexp_mant ${a.toString(16)}`);
  }
});
