// The model's switches for what the ISA reference does not settle (src/float/env.ts: TININESS,
// FP16_OVFL_RULE, FLOAT_TO_INT_ROUNDING), each value against the exact rational oracle
// (tests/harness/rational.ts, which shares no code with src/float): MODE.FP16_OVFL on and off in
// all four rounding modes for every f16 result that rounds (add, sub, mul, fma, div, rcp, the
// f32/f64 → f16 and int → f16 conversions, v_fma_mix's f16 rounding, ldexp, omod), true
// infinities kept; float → int truncating and by the mode.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fl from '../../src/float/index.js';
import { type OEnv, S16, S32, S64, decode, oAdd, oConvert, oDiv, oFma, oMul, oSub, oToInt, pow2q, q, qadd, qmul, qneg, roundExact } from '../harness/rational.js';
import { Rng } from '../harness/rng.js';

const MAX16 = 0x7bff, INF16 = 0x7c00;

/** Envs: 4 rounding modes × FP_DENORM 0 and 3 × FP16_OVFL off/on. */
function envs(): { env: fl.FloatEnv; o: OEnv }[] {
  const out: { env: fl.FloatEnv; o: OEnv }[] = [];
  for (let round = 0; round < 4; round++) for (const keep of [false, true]) for (const f16Ovfl of [false, true]) {
    const env: fl.FloatEnv = { round: round as fl.RoundMode, flushIn: !keep, flushOut: !keep, ieee: true, dx10Clamp: true, f16Ovfl };
    out.push({ env, o: { round: round as 0 | 1 | 2 | 3, flushIn: !keep, flushOut: !keep, ieee: true, f16Ovfl } });
  }
  return out;
}

/** f16 bits near the top of the range (where sums and products overflow), infinities, and any value. */
function f16(r: Rng): number {
  const s = r.bool() ? 0x8000 : 0;
  const k = r.int(10);
  if (k === 0) return s | INF16;
  if (k === 1) return r.bits(16);
  if (k === 2) return s | MAX16;
  if (k <= 4) return s | ((r.int(14) + 1) << 10) | r.bits(10); // small to middle
  return s | ((28 + r.int(3)) << 10) | r.bits(10); // 2^13 .. 2^15 · 1.x
}
const notNaN = (b: number) => (b & 0x7fff) <= INF16;

test('FP16_OVFL: f16 add/sub/mul/fma/div/rcp overflow is ±MAX_F16 with the bit, by the mode without it (rational oracle, 4 modes)', () => {
  const r = new Rng(0x0f16);
  let clamped = 0, infKept = 0;
  for (const { env, o } of envs()) {
    for (let n = 0; n < 1500; n++) {
      const a = f16(r), b = f16(r), c = f16(r);
      if (!notNaN(a) || !notNaN(b) || !notNaN(c)) continue;
      const B = (x: number) => BigInt(x);
      const cases: [string, number, bigint][] = [
        ['add', fl.addF16(a, b, env), oAdd(S16, B(a), B(b), o)],
        ['sub', fl.subF16(a, b, env), oSub(S16, B(a), B(b), o)],
        ['mul', fl.mulF16(a, b, env), oMul(S16, B(a), B(b), o)],
        ['fma', fl.fmaF16(a, b, c, env), oFma(S16, B(a), B(b), B(c), o)],
        ['div', fl.divF16(a, b & 0x83ff, env), oDiv(S16, B(a), B(b & 0x83ff), o)],
        ['rcp', fl.rcpF16(b & 0x83ff, env), oDiv(S16, 0x3c00n, B(b & 0x83ff), o)],
      ];
      for (const [name, got, want] of cases) {
        assert.equal(got, Number(want), `${name}(${a.toString(16)}, ${b.toString(16)}, ${c.toString(16)}) ${JSON.stringify(env)}`);
        if (env.f16Ovfl && (got & 0x7fff) === MAX16) clamped++;
        if (env.f16Ovfl && (got & 0x7fff) === INF16) infKept++;
      }
    }
  }
  assert.ok(clamped > 1000 && infKept > 1000, `corpus reaches both: ${clamped} clamped, ${infKept} infinities kept`);
});

test('FP16_OVFL: true infinities stay infinite (an infinite operand, x/0, rcp(0), a converted infinity)', () => {
  for (let round = 0; round < 4; round++) {
    const env: fl.FloatEnv = { ...fl.IEEE_ENV, round: round as fl.RoundMode, f16Ovfl: true };
    assert.equal(fl.addF16(INF16, MAX16, env), INF16);
    assert.equal(fl.mulF16(0xfc00, 0x4000, env), 0xfc00);
    assert.equal(fl.fmaF16(MAX16, 0x4000, INF16, env), INF16);
    assert.equal(fl.divF16(0x3c00, 0, env), INF16);
    assert.equal(fl.rcpF16(0x8000, env), 0xfc00);
    assert.equal(fl.cvtF16F32(0xff800000, env), 0xfc00);
    assert.equal(fl.ldexpF16(INF16, -3, env), INF16);
    // and finite overflow clamps in every mode, both signs
    assert.equal(fl.addF16(MAX16, MAX16, env), MAX16);
    assert.equal(fl.mulF16(0xfbff, 0x4000, env), 0xfbff);
  }
  // the bit clamps f16 results only
  const e32: fl.FloatEnv = { ...fl.IEEE_ENV, f16Ovfl: true };
  assert.equal(fl.addF32(0x7f7fffff, 0x7f7fffff, e32), 0x7f800000);
  assert.equal(fl.addF64(0x7fefffffffffffffn, 0x7fefffffffffffffn, e32), 0x7ff0000000000000n);
});

test('FP16_OVFL: f32 → f16, f64 → f16, v_cvt_pkrtz, int → f16, v_fma_mix f16, ldexp and omod results (rational oracle)', () => {
  const r = new Rng(0x16f);
  for (const { env, o } of envs()) {
    for (let n = 0; n < 800; n++) {
      // f32 around 2^15 .. 2^17 and infinities
      const x32 = r.int(8) === 0 ? (r.bool() ? 0xff800000 : 0x7f800000) : ((r.bool() ? 0x80000000 : 0) | ((141 + r.int(3)) << 23) | r.bits(23)) >>> 0;
      assert.equal(fl.cvtF16F32(x32, env), Number(oConvert(S32, S16, BigInt(x32), o)), `cvt f16 f32 ${x32.toString(16)}`);
      const x64 = (BigInt(r.bool() ? 1 : 0) << 63n) | (BigInt(1037 + r.int(3)) << 52n) | (BigInt(r.u32()) << 20n) | BigInt(r.bits(20));
      assert.equal(fl.cvtF16F64(x64, env), Number(oConvert(S64, S16, x64, o)), `cvt f16 f64 ${x64.toString(16)}`);
      // v_cvt_pkrtz: toward zero, so ±MAX either way
      const pk = fl.cvtPkrtzF16F32(x32, x32, env);
      assert.equal(pk & 0xffff, Number(oConvert(S32, S16, BigInt(x32), { ...o, round: 3 })));
      // int → f16
      const i = r.bool() ? 60000 + r.int(10000) : -(60000 + r.int(10000));
      assert.equal(Number(fl.fromIntBits(fl.F16, i, env)), Number(roundExact(S16, i < 0 ? 1 : 0, { kind: 'q', q: q(BigInt(Math.abs(i))) }, o)), `f16 of ${i}`);
      // v_fma_mix: f32 operands, one rounding to f16
      const a = ((r.bool() ? 0x80000000 : 0) | ((134 + r.int(4)) << 23) | r.bits(23)) >>> 0, b = ((134 + r.int(4)) << 23 | r.bits(23)) >>> 0;
      const c = ((r.bool() ? 0x80000000 : 0) | ((135 + r.int(8)) << 23) | r.bits(23)) >>> 0;
      const va = decode(S32, BigInt(a)), vb = decode(S32, BigInt(b)), vc = decode(S32, BigInt(c));
      if (va.kind !== 'num' || vb.kind !== 'num' || vc.kind !== 'num') throw new Error('finite operands');
      const exact = qadd(qmul(va.q, vb.q), vc.q);
      const neg = exact.n < 0n;
      const want = exact.n === 0n ? 0n : roundExact(S16, neg ? 1 : 0, { kind: 'q', q: neg ? qneg(exact) : exact }, o);
      assert.equal(fl.fmaF32ToF16(a, b, c, env), Number(want), `fma_mix ${a.toString(16)} ${b.toString(16)} ${c.toString(16)}`);
      // ldexp and omod (×2, ×4) of a finite f16
      const h = (r.bool() ? 0x8000 : 0) | ((25 + r.int(6)) << 10) | r.bits(10);
      const vh = decode(S16, BigInt(h));
      if (vh.kind !== 'num') throw new Error('finite');
      const scaled = (k: number) => { const v = qmul(vh.q, pow2q(k)); return roundExact(S16, vh.sign, { kind: 'q', q: vh.sign ? qneg(v) : v }, o); };
      const k = r.int(5);
      assert.equal(fl.ldexpF16(h, k, env), Number(scaled(k)), `ldexp ${h.toString(16)} ${k}`);
      const noIeee = { ...env, ieee: false };
      assert.equal(fl.outputModifiersF16(h, 1, false, noIeee), Number(scaled(1)), `omod ×2 ${h.toString(16)}`);
      assert.equal(fl.outputModifiersF16(h, 2, false, noIeee), Number(scaled(2)), `omod ×4 ${h.toString(16)}`);
    }
  }
});

test('envFor: FP16_OVFL from MODE bit 23 under FP16_OVFL_RULE; the switches default to the named constants', () => {
  assert.equal(fl.FP16_OVFL_RULE, 'clamp');
  for (const t of ['f16', 'f32', 'f64'] as const) {
    assert.equal(fl.envFor(0x3f0, t).f16Ovfl, false);
    assert.equal(fl.envFor(0x3f0 | (1 << 23), t).f16Ovfl, true);
    assert.equal(fl.envFor(0x3f0 | (1 << 23), t, { ...fl.SWITCHES, fp16Ovfl: 'ignored' }).f16Ovfl, false);
    assert.equal(fl.envFor(0, t).tininess, fl.TININESS);
    assert.equal(fl.envFor(0, t).floatToInt, fl.FLOAT_TO_INT_ROUNDING);
  }
  assert.equal(fl.convertEnvFor(1 << 23, 'f32', 'f16').f16Ovfl, true);
  // Under the bit, 65504 + 32 (a tie above MAX under nearest even) is MAX; without it inf.
  assert.equal(fl.addF16(MAX16, 0x5000, fl.envFor(0x3f0 | (1 << 23), 'f16')), MAX16);
  assert.equal(fl.addF16(MAX16, 0x5000, fl.envFor(0x3f0, 'f16')), INF16);
});

test('FLOAT_TO_INT_ROUNDING: v_cvt_{i32,u32}_{f16,f32,f64} truncate, or round by FP_ROUND under "mode" (rational oracle)', () => {
  assert.equal(fl.FLOAT_TO_INT_ROUNDING, 'truncate');
  const r = new Rng(0x2147);
  const how = ['rne', 'ceil', 'floor', 'trunc'] as const;
  for (let round = 0; round < 4; round++) for (const rule of ['truncate', 'mode'] as const) for (const flushIn of [false, true]) {
    const env: fl.FloatEnv = { ...fl.IEEE_ENV, round: round as fl.RoundMode, flushIn, floatToInt: rule };
    const want = (s: typeof S32, b: bigint, signed: boolean) => Number(oToInt(s, b, signed, rule === 'truncate' ? 'trunc' : how[round] as 'rne', flushIn));
    for (let n = 0; n < 400; n++) {
      const sgn = r.bool() ? 0x80000000 : 0;
      const x32 = r.int(10) === 0 ? r.u32() >>> 0 : (sgn | ((120 + r.int(40)) << 23) | (r.int(4) === 0 ? 0x400000 : r.bits(23))) >>> 0;
      assert.equal(fl.cvtI32F32(x32, env), want(S32, BigInt(x32), true) | 0, `i32 ${x32.toString(16)} ${rule} ${round}`);
      assert.equal(fl.cvtU32F32(x32, env), want(S32, BigInt(x32), false), `u32 ${x32.toString(16)}`);
      const x64 = (BigInt(sgn ? 1 : 0) << 63n) | (BigInt(1010 + r.int(40)) << 52n) | (BigInt(r.bits(20)) << 32n) | BigInt(r.u32() >>> 0);
      assert.equal(fl.cvtI32F64(x64, env), want(S64, x64, true) | 0, `i32 f64 ${x64.toString(16)}`);
      assert.equal(fl.cvtU32F64(x64, env), want(S64, x64, false), `u32 f64 ${x64.toString(16)}`);
      const x16 = r.bits(16);
      assert.equal(fl.toIntBits(fl.F16, BigInt(x16), true, 'trunc', env), want(S16, BigInt(x16), true) | 0, `i32 f16 ${x16.toString(16)}`);
    }
    // halves: 2.5 → 2 (rne) / 3 (ceil) / 2 (floor, trunc); -2.5 → -2 / -2 / -3 / -2
    const e = { ...env, flushIn: false };
    const h = rule === 'truncate' ? 'trunc' : how[round];
    assert.equal(fl.cvtI32F32(0x40200000, e), { rne: 2, ceil: 3, floor: 2, trunc: 2 }[h as 'rne']);
    assert.equal(fl.cvtI32F32(0xc0200000, e), { rne: -2, ceil: -2, floor: -3, trunc: -2 }[h as 'rne']);
  }
  // v_cvt_flr / v_cvt_rpi keep their own rounding under either rule
  const m: fl.FloatEnv = { ...fl.IEEE_ENV, round: 1, floatToInt: 'mode' };
  assert.equal(fl.cvtFlrI32F32(0x3fc00000, m), 1);
  assert.equal(fl.cvtRpiI32F32(0x3fc00000, m), 2);
});
