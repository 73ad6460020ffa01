// The harness of the f16/f64 lowering tests (lower-float16.test.ts, lower-float64.test.ts): a
// 64-lane IR kernel loads four u64 inputs per lane, applies one body (the float op under test on
// those bits) and stores the result; it runs in the IR interpreter twice, once with the float ops
// as they are (evaluated by src/float, itself checked against the rational oracle) and once after
// lowerFloat turned them into integer IR. Every result bit must agree.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Builder, type FloatMode, type Inst, IrFunction } from '../../src/ir/ir.js';
import { type LowerFloatOptions, lowerFloat } from '../../src/ir/passes/lower-float.js';
import { verifyFunction } from '../../src/ir/verify.js';
import { runIrWave } from '../../src/ir/interp.js';
import { GlobalMemory } from '../../src/interp/memory.js';

export const LANES = 64;
const STRIDE = 32; // four u64 inputs per lane

/** A body: the op under test on the lane's four u64 inputs; its result (u1, u32 or u64) is stored as a u64. */
export type Body = (b: Builder, v: readonly Inst[]) => Inst;

function kernel(base: number, outBase: number, body: Body): IrFunction {
  const fn = new IrFunction('k', 64);
  const b = new Builder(fn, fn.addBlock());
  const lane = b.emit('LaneId');
  const t = b.u1(true);
  const addr = (at: number, stride: number, k: number) => b.emit('IAdd64', [b.emit('Pack64', [b.emit('IAdd32', [b.u32(at % 2 ** 32), b.emit('Shl32', [lane, b.u32(Math.log2(stride))])]), b.u32(Math.floor(at / 2 ** 32))]), b.emit('ConstU64', [], [BigInt(k)])]);
  const v = [0, 1, 2, 3].map((k) => b.emit('Pack64', [b.emit('LoadGlobal32', [t, addr(base, STRIDE, 8 * k)]), b.emit('LoadGlobal32', [t, addr(base, STRIDE, 8 * k + 4)])]));
  let r = body(b, v);
  if (r.type === 'u1') r = b.emit('U1ToU32', [r]);
  const r64 = r.type === 'u32' ? b.emit('Pack64', [r, b.u32(0)]) : r;
  b.emit('StoreGlobal32', [t, addr(outBase, 8, 0), b.emit('Lo32', [r64])]);
  b.emit('StoreGlobal32', [t, addr(outBase, 8, 4), b.emit('Hi32', [r64])]);
  b.emit('EndProgram');
  return fn;
}

/** The results (u64 per lane) of `body` on the inputs in the IR interpreter, its float ops as they are. */
export function runBody(inputs: readonly (readonly bigint[])[], body: Body): bigint[] {
  const mem = new GlobalMemory();
  const data = new Uint8Array(LANES * STRIDE), out = new Uint8Array(LANES * 8);
  const dv = new DataView(data.buffer);
  inputs.forEach((row, l) => row.forEach((w, k) => dv.setBigUint64(l * STRIDE + 8 * k, BigInt.asUintN(64, w), true)));
  const fn = kernel(mem.map('in', data), mem.map('out', out), body);
  runIrWave(fn, { mem, kernargPtr: 0, dispatchPtr: 0, workgroupId: [0, 0, 0], localIds: Array.from({ length: LANES }, () => [0, 0, 0] as [number, number, number]), inGrid: new Array<boolean>(LANES).fill(true), maxSteps: 100_000_000 });
  const o = new DataView(out.buffer);
  return inputs.map((_, l) => o.getBigUint64(8 * l, true));
}

/** Runs `body` on the inputs (per lane, up to four u64 values) as float ops and lowered; the first differing lane, described, or undefined. */
export function firstDifference(inputs: readonly (readonly bigint[])[], body: Body, options: LowerFloatOptions = {}): string | undefined {
  const outs = [false, true].map((lowered) => {
    const mem = new GlobalMemory();
    const data = new Uint8Array(LANES * STRIDE), out = new Uint8Array(LANES * 8);
    const dv = new DataView(data.buffer);
    inputs.forEach((row, l) => row.forEach((w, k) => dv.setBigUint64(l * STRIDE + 8 * k, BigInt.asUintN(64, w), true)));
    const base = mem.map('in', data), outBase = mem.map('out', out);
    const fn = kernel(base, outBase, body);
    if (lowered) {
      assert.ok(lowerFloat(fn, () => true, () => false, options) >= 1);
      assert.deepEqual(verifyFunction(fn), []);
      assert.ok(!fn.blocks.some((bl) => bl.insts.some((i) => i.float)), 'no float op left in the kernel');
    }
    runIrWave(fn, { mem, kernargPtr: 0, dispatchPtr: 0, workgroupId: [0, 0, 0], localIds: Array.from({ length: LANES }, () => [0, 0, 0] as [number, number, number]), inGrid: new Array<boolean>(LANES).fill(true), maxSteps: 100_000_000 });
    return new DataView(out.buffer);
  });
  for (let l = 0; l < inputs.length; l++) {
    const want = outs[0]?.getBigUint64(8 * l, true), got = outs[1]?.getBigUint64(8 * l, true);
    if (want !== got) return `inputs ${inputs[l]?.map((w) => `0x${BigInt.asUintN(64, w).toString(16)}`).join(' ')}: model 0x${want?.toString(16)}, lowered 0x${got?.toString(16)}`;
  }
  return undefined;
}

/** Every mode: 4 rounding directions × 4 denormal settings × IEEE on/off, DX10_CLAMP on (and off where `dx10` says). */
export function modes(dx10 = false): FloatMode[] {
  const out: FloatMode[] = [];
  for (let round = 0; round < 4; round++) for (let denorm = 0; denorm < 4; denorm++) for (const ieee of [true, false]) for (const dx10Clamp of dx10 ? [true, false] : [true]) {
    out.push({ round: round as 0 | 1 | 2 | 3, denorm: denorm as 0 | 1 | 2 | 3, ieee, dx10Clamp });
  }
  return out;
}
export const modeName = (m: FloatMode) => `round=${m.round} denorm=${m.denorm} ieee=${m.ieee} dx10=${m.dx10Clamp}`;

/**
 * A fast-check property per mode: batches of 64 lanes of rows from `rows`, `runs` batches each,
 * seeded (reproducible), with the mode and the differing inputs in the failure message.
 */
export function checkModes(rows: fc.Arbitrary<bigint[]>, body: (m: FloatMode) => Body, runs: number, ms: readonly FloatMode[] = modes(), seed = 7, options: LowerFloatOptions = {}): void {
  for (const m of ms) {
    const bd = body(m);
    fc.assert(fc.property(fc.array(rows, { minLength: LANES, maxLength: LANES }), (batch) => {
      const d = firstDifference(batch, bd, options);
      if (d) throw new Error(`${modeName(m)}: ${d}`);
    }), { numRuns: runs, seed, endOnFailure: true });
  }
}

/** Inputs built from a sign, a biased exponent and a fraction of a format (bits, mantissa bits). */
export function floatBits(bits: 16 | 32 | 64, mant: number, edges: readonly bigint[]): fc.Arbitrary<bigint> {
  const expMax = (1 << (bits - 1 - mant)) - 1;
  const frac = fc.bigInt({ min: 0n, max: (1n << BigInt(mant)) - 1n });
  const make = (s: boolean, e: number, f: bigint) => ((s ? 1n : 0n) << BigInt(bits - 1)) | (BigInt(e) << BigInt(mant)) | f;
  const bias = (expMax - 1) / 2;
  return fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...edges) },
    { weight: 2, arbitrary: fc.tuple(fc.boolean(), frac).map(([s, f]) => make(s, 0, f)) }, // subnormals
    { weight: 2, arbitrary: fc.tuple(fc.boolean(), fc.integer({ min: 0, max: 7 }), frac).map(([s, e, f]) => make(s, e < 4 ? e + 1 : expMax - 1 - (e - 4), f)) }, // near underflow / overflow
    { weight: 3, arbitrary: fc.tuple(fc.boolean(), fc.integer({ min: bias - 12, max: bias + 12 }), frac).map(([s, e, f]) => make(s, e, f)) }, // ordinary
    // Sparse significands (a few top bits and the last ones): products and sums of these tie or are exact.
    { weight: 2, arbitrary: fc.tuple(fc.boolean(), fc.integer({ min: bias - 8, max: bias + 8 }), fc.integer({ min: 0, max: 15 }), fc.integer({ min: 0, max: 3 })).map(([s, e, t, l]) => make(s, e, (BigInt(t) << BigInt(mant - 4)) | BigInt(l))) },
    { weight: 1, arbitrary: fc.tuple(fc.boolean(), frac.map((f) => f | 1n)).map(([s, f]) => make(s, expMax, f)) }, // NaNs with payloads
    { weight: 2, arbitrary: fc.bigInt({ min: 0n, max: (1n << BigInt(bits)) - 1n }) },
  );
}

/** Two operands where half the time the second is close to the negated first (cancellation). */
export function pairs(x: fc.Arbitrary<bigint>, bits: number): fc.Arbitrary<[bigint, bigint]> {
  const sign = 1n << BigInt(bits - 1);
  return fc.oneof(
    fc.tuple(x, x),
    fc.tuple(x, fc.integer({ min: -2, max: 2 })).map(([a, d]): [bigint, bigint] => [a, BigInt.asUintN(bits, (a ^ sign) + BigInt(d))]),
  );
}

/** fma operands (a, b, c) where half the time c is within a few units of −(a × b) as the host rounds it (cancellation), for f64 bits. */
export function fmaRows64(x: fc.Arbitrary<bigint>): fc.Arbitrary<bigint[]> {
  const v = new DataView(new ArrayBuffer(8));
  const num = (b: bigint) => { v.setBigUint64(0, b); return v.getFloat64(0); };
  const bits = (n: number) => { v.setFloat64(0, n); return v.getBigUint64(0); };
  return fc.oneof(
    fc.tuple(x, x, x).map(([a, b, c]) => [a, b, c]),
    fc.tuple(x, x, fc.integer({ min: -2, max: 2 })).map(([a, b, d]) => [a, b, BigInt.asUintN(64, bits(-(num(a) * num(b))) + BigInt(d))]),
  );
}

/** Products that tie: an odd significand times 1.5 (half of them land exactly halfway between two values), with exponents over the whole range. */
export function mulTies(bits: 16 | 32 | 64, mant: number): fc.Arbitrary<[bigint, bigint]> {
  const expMax = (1 << (bits - 1 - mant)) - 1;
  const make = (s: boolean, e: number, f: bigint) => ((s ? 1n : 0n) << BigInt(bits - 1)) | (BigInt(e) << BigInt(mant)) | f;
  const e = fc.integer({ min: 1, max: expMax - 1 });
  return fc.tuple(fc.boolean(), e, fc.bigInt({ min: 0n, max: (1n << BigInt(mant)) - 1n }), fc.boolean(), e)
    .map(([s, ea, f, t, eb]): [bigint, bigint] => [make(s, ea, f | 1n), make(t, Math.max(1, Math.min(expMax - 1, eb >> 1) + (expMax >> 2)), 1n << BigInt(mant - 1))]);
}
