// The f64 software lowering (src/ir/passes/lower-float64.ts over lower-float-wide.ts and
// lower-float-wide-div.ts) against the exact float model, through the IR interpreter (the harness
// in ./lower-wide-harness.ts): fast-check properties over 64-lane batches biased to the hard cases
// (subnormals, values near underflow and overflow, NaN payloads, infinities, zeros, sparse
// significands whose products tie, operands that cancel, fma addends within an ulp of −a·b), every
// op in all 4 rounding modes × 4 denormal settings × IEEE on/off (× DX10_CLAMP for clamp).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { Builder, FloatMode, Inst } from '../../src/ir/ir.js';
import type { Op } from '../../src/ir/ops.js';
import { checkModes, firstDifference, floatBits, fmaRows64, LANES, modeName, modes, mulTies, pairs } from './lower-wide-harness.js';

const EDGES = [0n, 1n << 63n, 1n, (1n << 63n) | 1n, 0x000fffffffffffffn, 0x800fffffffffffffn, 0x0010000000000000n, 0x0010000000000001n, 0x7fefffffffffffffn, 0xffefffffffffffffn,
  0x7ff0000000000000n, 0xfff0000000000000n, 0x7ff8000000000000n, 0xfff8000000000001n, 0x7ff0000000000001n, 0x7ff4000000000000n, 0x3ff0000000000000n, 0xbff0000000000000n,
  0x3ff0000000000001n, 0x3fefffffffffffffn, 0x3fe0000000000000n, 0x4000000000000000n, 0x4330000000000000n, 0x4330000000000001n, 0x41e0000000000000n, 0xc1e0000000000000n,
  0x41f0000000000000n, 0x3cb0000000000000n, 0x7fe0000000000000n, 0x0008000000000000n, 0x0000000000000003n, 0x4eb0000000000000n, 0x1ff0000000000000n, 0x5ff0000000000000n];
const f64 = floatBits(64, 52, EDGES);
const rows = fc.oneof(
  fc.tuple(pairs(f64, 64), f64).map(([[a, b], c]) => [a, b, c]),
  fmaRows64(f64),
  fc.tuple(mulTies(64, 52), f64).map(([[a, b], c]) => [a, b, c & 0x800fffffffffffffn]),
);
const f = (b: Builder, v: Inst) => b.emit('BitcastU64F64', [v]);
const u = (b: Builder, v: Inst) => b.emit('BitcastF64U64', [v]);
const lo = (b: Builder, v: Inst) => b.emit('Lo32', [v]);
/** An f64 op on the first n inputs, its f64 result as bits. */
const op64 = (op: Op, n: number, imms: number[] = []) => (m: FloatMode) => (b: Builder, v: readonly Inst[]) => u(b, b.emit(op, v.slice(0, n).map((x) => f(b, x)), imms, { float: m }));

test('f64 add, mul, fma, min, max: every mode, bit for bit', () => {
  for (const [op, n] of [['FAdd64', 2], ['FMul64', 2], ['FFma64', 3], ['FMin64', 2], ['FMax64', 2]] as const) checkModes(rows, op64(op, n), 6);
});

test('f64 at the tininess boundary: exact results just below 2^-1022 that round to it at 53 bits are not flushed', () => {
  const pairsAt: bigint[][] = [
    [0x3ff0000000000001n, 0x000fffffffffffffn], // (1 + 2^-52)(2^-1022 (1 − 2^-52)) = 2^-1022 (1 − 2^-104)
    [0xbff0000000000001n, 0x000fffffffffffffn], [0x000fffffffffffffn, 0x3ff0000000000001n], [0x3ff0000000000003n, 0x000ffffffffffffdn],
    [0x0010000000000000n, 0x800fffffffffffffn], // 2^-1022 − (2^-1022 − 2^-1074) = 2^-1074
  ];
  const batch = Array.from({ length: LANES }, (_, l) => pairsAt[l % pairsAt.length] as bigint[]);
  for (const m of modes()) for (const op of ['FMul64', 'FAdd64'] as const) {
    const d = firstDifference(batch, op64(op, 2)(m));
    assert.equal(d, undefined, `${op} ${modeName(m)}: ${d}`);
  }
});

test('f64 integral rounding, rcp, sqrt, rsq, frexp, fract, ldexp: every mode', () => {
  for (const op of ['FFloor64', 'FCeil64', 'FTrunc64', 'FRndne64', 'FRcp64', 'FSqrt64', 'FRsq64', 'FFrexpMant64', 'FFract64'] as const) checkModes(rows, op64(op, 1), 4);
  checkModes(rows, (m) => (b, v) => b.emit('FFrexpExp64', [f(b, v[0] as Inst)], [], { float: m }), 3);
  checkModes(rows, (m) => (b, v) => u(b, b.emit('FLdexp64', [f(b, v[0] as Inst), lo(b, v[1] as Inst)], [], { float: m })), 3);
  // Small exponents as well (the ones that move values across the subnormal boundary and overflow).
  checkModes(fc.tuple(f64, fc.integer({ min: -1100, max: 1100 })).map(([a, n]) => [a, BigInt.asUintN(64, BigInt(n))]), (m) => (b, v) => u(b, b.emit('FLdexp64', [f(b, v[0] as Inst), lo(b, v[1] as Inst)], [], { float: m })), 3);
});

test('f64 compares: all 16 predicates, every mode', () => {
  for (let p = 0; p < 16; p++) checkModes(rows, (m) => (b, v) => b.emit('FCmp64', [f(b, v[0] as Inst), f(b, v[1] as Inst)], [p], { float: m }), 1);
});

test('f64 conversions: to and from u32/i32, to and from f32, every mode', () => {
  for (const op of ['ConvertU32F64', 'ConvertS32F64'] as const) checkModes(rows, (m) => (b, v) => b.emit(op, [f(b, v[0] as Inst)], [], { float: m }), 3);
  const ints = fc.oneof(fc.integer({ min: 0, max: 0xffffffff }), fc.constantFrom(0, 1, 0x7fffffff, 0x80000000, 0xffffffff)).map((n) => [BigInt(n)]);
  for (const op of ['ConvertF64U32', 'ConvertF64S32'] as const) checkModes(ints, (m) => (b, v) => u(b, b.emit(op, [lo(b, v[0] as Inst)], [], { float: m })), 2);
  const f32 = floatBits(32, 23, [0n, 0x80000000n, 1n, 0x807fffffn, 0x7f800000n, 0xff800000n, 0x7fc00000n, 0x7f800001n, 0xffa00005n, 0x3f800000n]).map((a) => [a]);
  checkModes(f32, (m) => (b, v) => u(b, b.emit('ConvertF64F32', [b.emit('BitcastU32F32', [lo(b, v[0] as Inst)])], [], { float: m })), 3);
  checkModes(rows, (m) => (b, v) => b.emit('BitcastF32U32', [b.emit('ConvertF32F64', [f(b, v[0] as Inst)], [], { float: m })]), 6);
  // f64 values near the f32 range's edges and midpoints.
  const near32 = fc.tuple(fc.boolean(), fc.integer({ min: 1023 - 160, max: 1023 + 130 }), fc.bigInt({ min: 0n, max: (1n << 52n) - 1n }), fc.integer({ min: 0, max: 3 }))
    .map(([s, e, fr, k]) => [((s ? 1n : 0n) << 63n) | (BigInt(e) << 52n) | (k === 0 ? fr : k === 1 ? fr & ~((1n << 29n) - 1n) | (1n << 28n) : k === 2 ? (fr & ~((1n << 29n) - 1n)) : fr)]);
  checkModes(near32, (m) => (b, v) => b.emit('BitcastF32U32', [b.emit('ConvertF32F64', [f(b, v[0] as Inst)], [], { float: m })]), 4);
});

test('f64 output modifiers (omod, clamp) under every mode and DX10_CLAMP', () => {
  for (let om = 0; om < 4; om++) for (const cl of [0, 1]) checkModes(rows, op64('FOutMod64', 1, [om, cl]), 1, modes(true));
});

test('f64 division helpers: v_div_scale (value and flag), v_div_fmas (both VCC values), v_div_fixup', () => {
  checkModes(rows, op64('FDivScale64', 3), 3);
  checkModes(rows, (m) => (b, v) => b.emit('FDivScaleFlag64', v.slice(0, 3).map((x) => f(b, x)), [], { float: m }), 3);
  checkModes(rows, op64('FDivFixup64', 3), 3);
  checkModes(rows, (m) => (b, v) => u(b, b.emit('FDivFmas64', [...v.slice(0, 3).map((x) => f(b, x)), b.emit('U32ToU1', [b.emit('And32', [b.emit('Hi32', [v[0] as Inst]), b.u32(1)])])], [], { float: m })), 3);
  // Operands the sequence rescues: huge quotients, denormal denominators and quotients (s0 one of the others).
  const scaled = fc.tuple(f64, f64, fc.integer({ min: 0, max: 2 })).map(([d, n, k]) => [k === 0 ? d : k === 1 ? n : d ^ 1n, d, n]);
  checkModes(scaled, op64('FDivScale64', 3), 3);
  checkModes(scaled, (m) => (b, v) => b.emit('FDivScaleFlag64', v.slice(0, 3).map((x) => f(b, x)), [], { float: m }), 3);
});
