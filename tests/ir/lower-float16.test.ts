// The f16 software lowering (src/ir/passes/lower-float16.ts over lower-float-wide.ts and
// lower-float-wide-div.ts) against the exact float model through the IR interpreter (the harness in
// ./lower-wide-harness.ts): every f16 op, the f32 ↔ f16 conversions (v_cvt_pkrtz's toward-zero
// mode among the modes) and v_fma_mix's single rounding of an f32 fma to f16, in all 4 rounding
// modes × 4 denormal settings × IEEE on/off (× DX10_CLAMP for clamp), on 64-lane batches biased to
// the hard cases; the f16 inputs carry garbage in their high halves, which every op must ignore.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { Builder, FloatMode, Inst } from '../../src/ir/ir.js';
import type { Op } from '../../src/ir/ops.js';
import { checkModes, firstDifference, floatBits, LANES, modeName, modes, mulTies, pairs } from './lower-wide-harness.js';

const EDGES = [0n, 0x8000n, 1n, 0x8001n, 0x03ffn, 0x83ffn, 0x0400n, 0x0401n, 0x7bffn, 0xfbffn, 0x7c00n, 0xfc00n, 0x7e00n, 0xfe01n, 0x7c01n, 0x7d00n,
  0x3c00n, 0xbc00n, 0x3c01n, 0x3bffn, 0x3800n, 0x4000n, 0x6400n, 0x6401n, 0x1400n, 0x7800n, 0x0200n, 0x0003n, 0x5bffn, 0x7a00n];
const h16 = floatBits(16, 10, EDGES);
/** An f16 in the low half of a dword whose high half is noise. */
const dirty = fc.tuple(h16, fc.integer({ min: 0, max: 0xffff })).map(([v, n]) => v | (BigInt(n) << 16n));
const rows = fc.oneof(
  fc.tuple(pairs(h16, 16), h16).map(([[a, b], c]) => [a, b, c]),
  fc.tuple(dirty, dirty, dirty).map(([a, b, c]) => [a, b, c]),
  fc.tuple(mulTies(16, 10), h16).map(([[a, b], c]) => [a, b, c & 0x83ffn]),
);
const u32 = (b: Builder, v: Inst) => b.emit('Lo32', [v]);
const f = (b: Builder, v: Inst) => b.emit('BitcastU32F16', [u32(b, v)]);
const u = (b: Builder, v: Inst) => b.emit('BitcastF16U32', [v]);
const op16 = (op: Op, n: number, imms: number[] = []) => (m: FloatMode) => (b: Builder, v: readonly Inst[]) => u(b, b.emit(op, v.slice(0, n).map((x) => f(b, x)), imms, { float: m }));

test('f16 add, sub, mul, fma, min, max: every mode, bit for bit', () => {
  for (const [op, n] of [['FAdd16', 2], ['FSub16', 2], ['FMul16', 2], ['FFma16', 3], ['FMin16', 2], ['FMax16', 2]] as const) checkModes(rows, op16(op, n), 8);
});

test('f16 at the tininess boundary: exact results just below 2^-14 that round to it at 11 bits are not flushed', () => {
  const at: bigint[][] = [[0x3c01n, 0x03ffn], [0xbc01n, 0x03ffn], [0x03ffn, 0x3c01n], [0x3c03n, 0x03fdn], [0x0400n, 0x83ffn]];
  const batch = Array.from({ length: LANES }, (_, l) => at[l % at.length] as bigint[]);
  for (const m of modes()) for (const op of ['FMul16', 'FAdd16'] as const) {
    const d = firstDifference(batch, op16(op, 2)(m));
    assert.equal(d, undefined, `${op} ${modeName(m)}: ${d}`);
  }
});

test('f16 integral rounding, rcp, sqrt, rsq, frexp, fract, ldexp, div_fixup: every mode', () => {
  for (const op of ['FFloor16', 'FCeil16', 'FTrunc16', 'FRndne16', 'FRcp16', 'FSqrt16', 'FRsq16', 'FFrexpMant16', 'FFract16'] as const) checkModes(rows, op16(op, 1), 4);
  checkModes(rows, (m) => (b, v) => b.emit('FFrexpExp16', [f(b, v[0] as Inst)], [], { float: m }), 3);
  checkModes(fc.tuple(h16, fc.integer({ min: -60, max: 60 })).map(([a, n]) => [a, BigInt.asUintN(64, BigInt(n))]), (m) => (b, v) => u(b, b.emit('FLdexp16', [f(b, v[0] as Inst), u32(b, v[1] as Inst)], [], { float: m })), 3);
  checkModes(rows, op16('FDivFixup16', 3), 3);
});

test('f16 compares: all 16 predicates, every mode', () => {
  for (let p = 0; p < 16; p++) checkModes(rows, (m) => (b, v) => b.emit('FCmp16', [f(b, v[0] as Inst), f(b, v[1] as Inst)], [p], { float: m }), 1);
});

test('f16 conversions: to and from 16-bit integers, to and from f32, every mode', () => {
  for (const op of ['ConvertU32F16', 'ConvertS32F16'] as const) checkModes(rows, (m) => (b, v) => b.emit(op, [f(b, v[0] as Inst)], [], { float: m }), 3);
  const ints = fc.oneof(fc.integer({ min: 0, max: 0xffff }), fc.integer({ min: -0x8000, max: 0x7fff }).map((n) => n >>> 0), fc.constantFrom(0, 1, 65504, 65519, 65520, 65535, 2049, 2051, 0xffff8000)).map((n) => [BigInt(n)]);
  for (const op of ['ConvertF16U32', 'ConvertF16S32'] as const) checkModes(ints, (m) => (b, v) => u(b, b.emit(op, [u32(b, v[0] as Inst)], [], { float: m })), 3);
  checkModes(rows, (m) => (b, v) => b.emit('BitcastF32U32', [b.emit('ConvertF32F16', [f(b, v[0] as Inst)], [], { float: m })]), 3);
  // f32 values around the f16 range: subnormal, overflow and halfway boundaries.
  const near16 = fc.tuple(fc.boolean(), fc.integer({ min: 127 - 28, max: 127 + 17 }), fc.integer({ min: 0, max: 0x7fffff }), fc.integer({ min: 0, max: 3 }))
    .map(([s, e, fr, k]) => [BigInt(((s ? 0x80000000 : 0) | (e << 23) | (k === 0 ? fr : k === 1 ? (fr & ~0x1fff) | 0x1000 : k === 2 ? fr & ~0x1fff : fr)) >>> 0)]);
  const f32 = fc.oneof(near16, floatBits(32, 23, [0n, 0x80000000n, 1n, 0x7f800000n, 0xff800000n, 0x7fc00000n, 0x7f800001n, 0xffa00005n, 0x477fe000n, 0x477ff000n, 0x477fefffn]).map((a) => [a]));
  checkModes(f32, (m) => (b, v) => u(b, b.emit('ConvertF16F32', [b.emit('BitcastU32F32', [u32(b, v[0] as Inst)])], [], { float: m })), 6);
});

test('v_fma_mix f16 rounding: an f32 fma rounded once to f16, every mode', () => {
  const f32 = floatBits(32, 23, [0n, 0x80000000n, 1n, 0x7f800000n, 0xff800000n, 0x7fc00000n, 0x7f800001n, 0x3f800000n, 0x38800000n, 0x33800000n, 0x477fe000n]);
  const near = fc.tuple(fc.boolean(), fc.integer({ min: 127 - 30, max: 127 + 16 }), fc.integer({ min: 0, max: 0x7fffff })).map(([s, e, fr]) => BigInt(((s ? 0x80000000 : 0) | (e << 23) | fr) >>> 0));
  const v = fc.oneof(f32, near);
  checkModes(fc.tuple(v, v, v).map(([a, b, c]) => [a, b, c]), (m) => (b, x) => u(b, b.emit('FFmaMixF16', x.slice(0, 3).map((y) => b.emit('BitcastU32F32', [u32(b, y)])), [], { float: m })), 6);
});

test('f16 output modifiers (omod, clamp) under every mode and DX10_CLAMP', () => {
  for (let om = 0; om < 4; om++) for (const cl of [0, 1]) checkModes(rows, op16('FOutMod16', 1, [om, cl]), 1, modes(true));
});
