// The float model's switches (src/float env.ts) in the exact lowering: the IR's FloatMode carries
// FP16_OVFL and, for tests, the switches TININESS and FLOAT_TO_INT_ROUNDING (absent: the named
// constant); the IR interpreter evaluates the float ops through src/float under them (itself
// checked against the rational oracle in tests/float/switches.test.ts) and the lowered integer IR
// must give the same bits (the harness in ./lower-wide-harness.ts), under each value:
// - FP16_OVFL on: every f16 op that rounds (add, sub, mul, fma, rcp, ldexp, omod, the f32 → f16 and
//   int → f16 conversions, v_fma_mix's f16 rounding) clamps an overflow to ±MAX_F16, infinities kept;
// - tininess 'before' and 'after' for the f32 core (lower-float.ts) and the f16/f64 core
//   (lower-float-wide.ts), on normal operands whose product lands just below 2^emin;
// - float → int 'truncate' and 'mode' for f16, f32 and f64 sources.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { Builder, FloatMode, Inst } from '../../src/ir/ir.js';
import type { Op } from '../../src/ir/ops.js';
import * as fl from '../../src/float/index.js';
import { checkModes, firstDifference, floatBits, LANES, modeName, pairs } from './lower-wide-harness.js';

const u32 = (b: Builder, v: Inst) => b.emit('Lo32', [v]);
const f16 = (b: Builder, v: Inst) => b.emit('BitcastU32F16', [u32(b, v)]);
const f32 = (b: Builder, v: Inst) => b.emit('BitcastU32F32', [u32(b, v)]);
const f64 = (b: Builder, v: Inst) => b.emit('BitcastU64F64', [v]);
const bits16 = (b: Builder, v: Inst) => b.emit('BitcastF16U32', [v]);
const bits32 = (b: Builder, v: Inst) => b.emit('BitcastF32U32', [v]);
const bits64 = (b: Builder, v: Inst) => b.emit('BitcastF64U64', [v]);

/** 4 rounding modes × FP_DENORM 0 and 3 × IEEE on/off, with `extra` fields. */
function modesWith(extra: Partial<FloatMode>): FloatMode[] {
  const out: FloatMode[] = [];
  for (let round = 0; round < 4; round++) for (const denorm of [0, 3] as const) for (const ieee of [true, false]) {
    out.push({ round: round as 0 | 1 | 2 | 3, denorm, ieee, dx10Clamp: true, ...extra });
  }
  return out;
}

/** f16 operands biased to the top binades (sums, products and scalings overflow), plus the usual mix. */
const TOP16 = [0x7bffn, 0xfbffn, 0x7800n, 0x7a00n, 0x7c00n, 0xfc00n, 0x5bffn, 0x6000n, 0x3c00n, 0x4000n, 0x0001n, 0x7e00n];
const h16 = fc.oneof(
  { weight: 3, arbitrary: fc.tuple(fc.boolean(), fc.integer({ min: 26, max: 30 }), fc.integer({ min: 0, max: 0x3ff })).map(([s, e, fr]) => BigInt((s ? 0x8000 : 0) | (e << 10) | fr)) },
  { weight: 1, arbitrary: floatBits(16, 10, TOP16) },
);
const rows16 = fc.tuple(pairs(h16, 16), h16).map(([[a, b], c]) => [a, b, c]);
const op16 = (op: Op, n: number, imms: number[] = []) => (m: FloatMode) => (b: Builder, v: readonly Inst[]) => bits16(b, b.emit(op, v.slice(0, n).map((x) => f16(b, x)), imms, { float: m }));

test('FP16_OVFL on (and off on a fixed overflowing batch): f16 add, sub, mul, fma, rcp, ldexp, omod lowered = the model (overflow clamps, infinities stay)', () => {
  const on = modesWith({ f16Ovfl: true });
  for (const [op, n] of [['FAdd16', 2], ['FSub16', 2], ['FMul16', 2], ['FFma16', 3], ['FRcp16', 1]] as const) checkModes(rows16, op16(op, n), 6, on);
  checkModes(fc.tuple(h16, fc.integer({ min: -4, max: 40 })).map(([a, n]) => [a, BigInt.asUintN(64, BigInt(n))]), (m) => (b, v) => bits16(b, b.emit('FLdexp16', [f16(b, v[0] as Inst), u32(b, v[1] as Inst)], [], { float: m })), 4, on);
  for (const om of [1, 2]) checkModes(rows16, op16('FOutMod16', 1, [om, 0]), 3, on);
  // A fixed batch that overflows in every way, so the clamp is certainly exercised.
  const at = [[0x7bffn, 0x7bffn, 0x7bffn], [0xfbffn, 0xfbffn, 0xfbffn], [0x7bffn, 0x5000n, 0x4000n], [0x7c00n, 0x7bffn, 0x3c00n], [0x0001n, 0x0001n, 0xfc00n], [0x7a00n, 0x4000n, 0x7a00n]];
  const batch = Array.from({ length: LANES }, (_, l) => at[l % at.length] as bigint[]);
  let clamped = 0;
  for (const m of [...on, ...modesWith({ f16Ovfl: false })]) for (const [op, n] of [['FAdd16', 2], ['FMul16', 2], ['FFma16', 3], ['FRcp16', 1]] as const) {
    const d = firstDifference(batch, op16(op, n)(m));
    assert.equal(d, undefined, `${op} ${modeName(m)} f16ovfl=${String(m.f16Ovfl)}: ${d}`);
    if (m.f16Ovfl !== true) continue;
    if (op === 'FAdd16' && fl.addF16(0x7bff, 0x7bff, { round: m.round as fl.RoundMode, flushIn: false, flushOut: false, ieee: true, dx10Clamp: true, f16Ovfl: true }) === 0x7bff) clamped++;
  }
  assert.equal(clamped, on.length);
});

test('FP16_OVFL on: f32 → f16, int → f16 and v_fma_mix f16 lowered = the model', () => {
  const on = modesWith({ f16Ovfl: true });
  const near = fc.tuple(fc.boolean(), fc.integer({ min: 127 + 13, max: 127 + 18 }), fc.integer({ min: 0, max: 0x7fffff })).map(([s, e, fr]) => [BigInt(((s ? 0x80000000 : 0) | (e << 23) | fr) >>> 0)]);
  const withInf = fc.oneof(near, fc.constantFrom(0x7f800000n, 0xff800000n, 0x477fe000n, 0x477ff000n, 0xc77ff000n).map((a) => [a]));
  checkModes(withInf, (m) => (b, v) => bits16(b, b.emit('ConvertF16F32', [f32(b, v[0] as Inst)], [], { float: m })), 6, on);
  const ints = fc.oneof(fc.integer({ min: 60000, max: 0xffff }), fc.integer({ min: -0x10000, max: -60000 }).map((n) => n >>> 0), fc.constantFrom(65504, 65519, 65520, 65535, 0xffff0001)).map((n) => [BigInt(n)]);
  for (const op of ['ConvertF16U32', 'ConvertF16S32'] as const) checkModes(ints, (m) => (b, v) => bits16(b, b.emit(op, [u32(b, v[0] as Inst)], [], { float: m })), 4, on);
  const v = fc.tuple(fc.boolean(), fc.integer({ min: 127 + 4, max: 127 + 10 }), fc.integer({ min: 0, max: 0x7fffff })).map(([s, e, fr]) => BigInt(((s ? 0x80000000 : 0) | (e << 23) | fr) >>> 0));
  checkModes(fc.tuple(v, v, v).map(([a, b, c]) => [a, b, c]), (m) => (b, x) => bits16(b, b.emit('FFmaMixF16', x.slice(0, 3).map((y) => f32(b, y)), [], { float: m })), 6, on);
});

/**
 * Normal operands (a, b, c) whose product (and fma with c = ±0) lands just below 2^emin: a =
 * (1 + k·ulp) 2^h, b = (1 − m·ulp) 2^(emin − h), so that rounding at full precision may carry to
 * 2^emin (tiny before rounding, not after) or not.
 */
function boundary(bits: 16 | 32 | 64): bigint[][] {
  const M = bits === 16 ? 10 : bits === 32 ? 23 : 52, B = bits === 16 ? 15 : bits === 32 ? 127 : 1023;
  const emin = 1 - B, h = -(B >> 1);
  const sign = 1n << BigInt(bits - 1), full = 1n << BigInt(M);
  const out: bigint[][] = [];
  for (const k of [1n, 2n, 3n]) for (const m of [1n, 2n, 3n, 4n]) {
    const a = (BigInt(B + h) << BigInt(M)) | k;
    const b = (BigInt(B + emin - h - 1) << BigInt(M)) | (full - 2n * m);
    out.push([a, b, 0n], [a | sign, b, sign], [b, a | sign, 0n]);
  }
  return out;
}

test('tininess before and after rounding: the f32 core and the f16/f64 core lowered = the model under each', () => {
  for (const tininess of ['before', 'after'] as const) {
    const ms = modesWith({ tininess }).filter((m) => m.denorm === 0);
    for (const [w, ops] of [[32, ['FMul32', 'FFma32']], [16, ['FMul16', 'FFma16']], [64, ['FMul64', 'FFma64']]] as const) {
      const at = boundary(w);
      const batch = Array.from({ length: LANES }, (_, l) => [...(at[l % at.length] as bigint[]), 0n]);
      const [cv, back] = w === 16 ? [f16, bits16] : w === 32 ? [f32, bits32] : [f64, bits64];
      for (const m of ms) for (const op of ops) {
        const n = op.startsWith('FFma') ? 3 : 2;
        const d = firstDifference(batch, (b, v) => back(b, b.emit(op, v.slice(0, n).map((x) => cv(b, x)), [], { float: m })));
        assert.equal(d, undefined, `${op} ${modeName(m)} tininess=${tininess}: ${d}`);
      }
    }
  }
  // The switch matters on these operands: the model flushes 2^-126 · (1 + 2^-23)(1 - 2^-23) under 'before' only.
  const e = { round: 0 as const, flushIn: true, flushOut: true, ieee: true, dx10Clamp: true };
  const [a, b] = boundary(32)[0] as [bigint, bigint];
  assert.equal(fl.mulF32(Number(a), Number(b), { ...e, tininess: 'before' }), 0);
  assert.equal(fl.mulF32(Number(a), Number(b), { ...e, tininess: 'after' }), 0x00800000);
});

test('float → int, truncating and by the mode: f16, f32 and f64 sources lowered = the model under each', () => {
  const x32 = fc.oneof(floatBits(32, 23, [0x3fc00000n, 0xbfc00000n, 0x40200000n, 0xc0200000n, 0x4f000000n, 0xcf000000n, 0x4f800000n, 0x7fc00000n, 0x00000001n]),
    fc.tuple(fc.boolean(), fc.integer({ min: 120, max: 160 }), fc.integer({ min: 0, max: 0x7fffff })).map(([s, e, fr]) => BigInt(((s ? 0x80000000 : 0) | (e << 23) | fr) >>> 0)));
  const x64 = fc.oneof(floatBits(64, 52, [0x3ff8000000000000n, 0xc004000000000000n, 0x41dfffffffe00000n, 0x41e0000000000000n]),
    fc.tuple(fc.boolean(), fc.integer({ min: 1015, max: 1055 }), fc.bigInt({ min: 0n, max: (1n << 52n) - 1n })).map(([s, e, fr]) => ((s ? 1n : 0n) << 63n) | (BigInt(e) << 52n) | fr));
  const x16 = floatBits(16, 10, [0x3e00n, 0xbe00n, 0x4100n, 0xc100n, 0x7bffn, 0x0001n]);
  for (const floatToInt of ['truncate', 'mode'] as const) {
    const ms = modesWith({ floatToInt });
    for (const signed of [true, false]) {
      checkModes(x32.map((a) => [a]), (m) => (b, v) => b.emit(signed ? 'ConvertS32F32' : 'ConvertU32F32', [f32(b, v[0] as Inst)], [], { float: m }), 3, ms);
      checkModes(x64.map((a) => [a]), (m) => (b, v) => b.emit(signed ? 'ConvertS32F64' : 'ConvertU32F64', [f64(b, v[0] as Inst)], [], { float: m }), 3, ms);
      checkModes(x16.map((a) => [a]), (m) => (b, v) => b.emit(signed ? 'ConvertS32F16' : 'ConvertU32F16', [f16(b, v[0] as Inst)], [], { float: m }), 3, ms);
    }
  }
});
