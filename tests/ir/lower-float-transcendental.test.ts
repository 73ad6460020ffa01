// The transcendentals' lowering (src/ir/passes/lower-float-transcendental.ts: the float model's
// algorithms over IR) against the float model (src/float/transcendental.ts, itself checked against
// mpmath in tests/float/transcendental.test.ts) through the IR interpreter, in both forms of the
// core (device f64 ops, which the IR interpreter runs as the model's nearest-even f64 ops, and
// exact integer code), every mode (4 rounding directions × 4 denormal settings × IEEE on/off),
// on 64-lane batches of edge values (zeros, denormals, specials, NaN payloads, the clamps' ends,
// quarter revolutions, huge revolutions) and random ones.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { Builder, FloatMode, Inst } from '../../src/ir/ir.js';
import { Builder as B, IrFunction } from '../../src/ir/ir.js';
import type { Op } from '../../src/ir/ops.js';
import { lowerFloat } from '../../src/ir/passes/lower-float.js';
import { X } from '../../src/ir/passes/lower-float.js';
import { transcendentalCore, transcendentalRound } from '../../src/ir/passes/lower-float-transcendental.js';
import * as F from '../../src/float/index.js';
import { checkModes, firstDifference, floatBits, LANES, modeName, modes, runBody } from './lower-wide-harness.js';

const EDGES32 = [0n, 0x80000000n, 1n, 0x807fffffn, 0x00800000n, 0x3f800000n, 0xbf800000n, 0x3e800000n, 0x3f000000n, 0x3f400000n, 0x7f7fffffn, 0xff7fffffn,
  0x4f800000n, 0x4f7fffffn, 0xcf800000n, 0x43000000n, 0x43010000n, 0xc3160000n, 0xc3200000n, 0xc32a0000n, 0x7f800000n, 0xff800000n, 0x7fa00000n, 0xffc00001n,
  0x40400000n, 0x3f333333n, 0x3f800001n, 0x3f7fffffn, 0x3e000000n, 0x4b000001n, 0xc1a40000n];
const EDGES16 = [0n, 0x8000n, 1n, 0x83ffn, 0x0400n, 0x3c00n, 0xbc00n, 0x3400n, 0x3800n, 0x3a00n, 0x7bffn, 0xfbffn, 0x7c00n, 0xfc00n, 0x7e00n, 0x7d00n, 0xfd01n,
  0x4c00n, 0x4b00n, 0xcc00n, 0xd900n, 0x3bffn, 0x3c01n, 0x3000n, 0x6400n, 0xce00n];
const rows32 = floatBits(32, 23, EDGES32).map((v) => [v]);
const rows16 = fc.tuple(floatBits(16, 10, EDGES16), fc.integer({ min: 0, max: 0xffff })).map(([v, n]) => [v | (BigInt(n) << 16n)]); // noise in the high half

const body = (op: Op, m: FloatMode) => (b: Builder, v: readonly Inst[]) => {
  const a = b.emit('Lo32', [v[0] as Inst]);
  return op.endsWith('32')
    ? b.emit('BitcastF32U32', [b.emit(op, [b.emit('BitcastU32F32', [a])], [], { float: m })])
    : b.emit('BitcastF16U32', [b.emit(op, [b.emit('BitcastU32F16', [a])], [], { float: m })]);
};

for (const form of ['exact', 'device'] as const) {
  test(`f32 exp, log, sin, cos (${form} core): every mode, bit for bit with the model`, () => {
    for (const op of ['FExp32', 'FLog32', 'FSin32', 'FCos32'] as const) checkModes(rows32, (m) => body(op, m), 1, modes(), 11, { transcendental: form });
  });
  test(`f16 exp, log, sin, cos (${form} core): every mode, bit for bit with the model`, () => {
    for (const op of ['FExp16', 'FLog16', 'FSin16', 'FCos16'] as const) checkModes(rows16, (m) => body(op, m), 1, modes(), 12, { transcendental: form });
  });
  test(`the edge values in every lane (${form} core)`, () => {
    for (const [ops, edges] of [[['FExp32', 'FLog32', 'FSin32', 'FCos32'], EDGES32], [['FExp16', 'FLog16', 'FSin16', 'FCos16'], EDGES16]] as const) {
      const batch = Array.from({ length: LANES }, (_, l) => [edges[l % edges.length] as bigint]);
      for (const op of ops) for (const m of modes()) {
        const d = firstDifference(batch, body(op, m), { transcendental: form });
        assert.equal(d, undefined, `${op} ${form} ${modeName(m)}: ${d}`);
      }
    }
  });
}

test('the device core does not depend on the device\'s f64 denormal mode: with device ops that flush every denormal, the results are the model\'s', () => {
  const FLUSH: FloatMode = { round: 0, denorm: 0, ieee: true, dx10Clamp: true };
  const model = { FExp32: F.expF32, FLog32: F.logF32, FSin32: F.sinF32, FCos32: F.cosF32, FExp16: F.expF16, FLog16: F.logF16, FSin16: F.sinF16, FCos16: F.cosF16 } as const;
  const rng = (seed: number) => () => { seed ^= seed << 13; seed >>>= 0; seed ^= seed >>> 17; seed ^= seed << 5; return (seed >>>= 0); };
  const next = rng(99);
  for (const op of ['FExp32', 'FLog32', 'FSin32', 'FCos32', 'FExp16', 'FLog16', 'FSin16', 'FCos16'] as const) {
    const half = op.endsWith('16'), edges = half ? EDGES16 : EDGES32;
    for (const m of [{ round: 0, denorm: 3, ieee: true, dx10Clamp: true }, { round: 1, denorm: 0, ieee: false, dx10Clamp: true }, { round: 3, denorm: 2, ieee: true, dx10Clamp: true }] as FloatMode[]) {
      const batch = Array.from({ length: LANES }, (_, l) => [l < edges.length ? (edges[l] as bigint) : BigInt(half ? next() & 0xffff : next())]);
      const md = { round: m.round as 0 | 1 | 2 | 3, flushIn: ((m.denorm as number) & 1) === 0, flushOut: ((m.denorm as number) & 2) === 0, ieee: m.ieee as boolean, dx10Clamp: true, f16Ovfl: false, tininess: F.TININESS, floatToInt: F.FLOAT_TO_INT_ROUNDING };
      const got = runBody(batch, (b, v) => {
        const x = new X(b), a = b.emit('Lo32', [v[0] as Inst]);
        return transcendentalRound(x, md, op, a, transcendentalCore(x, op, md.flushIn, 'device', a, FLUSH));
      });
      const env: F.FloatEnv = md;
      batch.forEach(([a], l) => assert.equal(got[l], BigInt(model[op](Number(a), env)), `${op} ${modeName(m)} input 0x${(a as bigint).toString(16)}`));
    }
  }
});

test('a transcendental is two calls: the core per (op, input flush, form), the rounding per mode', () => {
  const fn = new IrFunction('k', 32);
  const b = new B(fn, fn.addBlock());
  const x = b.emit('BitcastU32F32', [b.u32(0x3f000000)]);
  const mode = (round: 0 | 1 | 2 | 3): FloatMode => ({ round, denorm: 3, ieee: true, dx10Clamp: true });
  for (const r of [0, 1, 2, 3] as const) b.emit('FSin32', [x], [], { float: mode(r) });
  b.emit('FCos32', [x], [], { float: mode(0) });
  b.emit('EndProgram');
  assert.equal(lowerFloat(fn, () => true, () => false, { transcendental: 'device' }), 5);
  const names = fn.helpers.map((h) => h.name.replace(/ flushIn=\w+ flushOut.*$/, ''));
  assert.deepEqual(names, ['transcendental core FSin32 flushIn=false device', 'transcendental round FSin32 round=0', 'transcendental round FSin32 round=1',
    'transcendental round FSin32 round=2', 'transcendental round FSin32 round=3', 'transcendental core FCos32 flushIn=false device', 'transcendental round FCos32 round=0']);
  // The device core holds f64 device ops (nearest even) and no other float op.
  const core = fn.helpers[0] as IrFunction;
  const floats = core.blocks.flatMap((bl) => bl.insts.filter((i) => i.float)).map((i) => i.op);
  assert.ok(floats.length > 20 && floats.every((o) => o === 'FAdd64' || o === 'FSub64' || o === 'FMul64'), floats.join(' '));
  assert.ok(core.blocks.every((bl) => bl.insts.every((i) => !i.float || (i.float.round === 0 && i.float.denorm === 3))));
});

test('the core\'s f64 (before the rounding to f32/f16) equals the model algorithm\'s f64 bit for bit, both forms, both input flushes', () => {
  // The rounding to f32/f16 hides most last-bit differences of the f64 steps; this compares the
  // core's f64 itself with the algorithm on JS numbers (exact, nearest even), so a wrong f64
  // rounding in the exact form's arithmetic (lower-float-lean64.ts) shows.
  const dv = new DataView(new ArrayBuffer(8));
  const bitsOf = (v: number) => { dv.setFloat64(0, v); return dv.getBigUint64(0); };
  const SPECIAL: Record<F.Special, bigint> = { nan: 0x7ff8000000000000n, '+inf': 0x7ff0000000000000n, '-inf': 0xfff0000000000000n, '+0': 0n };
  /** The input's value after the input flush (f32 or f16 bits), or undefined for a NaN. */
  const decode = (half: boolean, a: number, flushIn: boolean): number | undefined => {
    const mant = half ? 10 : 23, bias = half ? 15 : 127, expAll = half ? 31 : 255;
    const e = (a >>> mant) & expAll, f = a & ((1 << mant) - 1), s = (a >>> (half ? 15 : 31)) & 1 ? -1 : 1;
    if (e === expAll) return f ? undefined : s * Infinity;
    if (e === 0) return flushIn || f === 0 ? s * 0 : s * f * 2 ** (1 - bias - mant);
    return s * (f + 2 ** mant) * 2 ** (e - bias - mant);
  };
  const want = (fn: F.TranscendentalFn, v: number): bigint => {
    const rules = F.SPECIALS[fn];
    if (v === Infinity) return SPECIAL[rules.posInf];
    if (v === -Infinity) return SPECIAL[rules.negInf];
    if (v === 0 && rules.zero) return SPECIAL[rules.zero];
    if (v < 0 && rules.negative) return SPECIAL[rules.negative];
    return bitsOf(F.CORES[fn](F.NUMBER_ARITH, v));
  };
  const rng = (seed: number) => () => { seed ^= seed << 13; seed >>>= 0; seed ^= seed >>> 17; seed ^= seed << 5; return (seed >>>= 0); };
  const next = rng(2027);
  const fnOf = { FExp32: 'exp', FLog32: 'log', FSin32: 'sin', FCos32: 'cos', FExp16: 'exp', FLog16: 'log', FSin16: 'sin', FCos16: 'cos' } as const;
  for (const op of ['FExp32', 'FLog32', 'FSin32', 'FCos32', 'FExp16', 'FLog16', 'FSin16', 'FCos16'] as const) {
    const half = op.endsWith('16'), edges = half ? EDGES16 : EDGES32;
    for (const flushIn of [false, true]) for (const form of ['exact', 'device'] as const) for (let k = 0; k < 3; k++) {
      // Edges, then random bits; the f32 ones half the time near the functions' interesting ranges (exp: [-160, 129]; near 1; small revolutions).
      const batch = Array.from({ length: LANES }, (_, l) => {
        if (k === 0 && l < edges.length) return [edges[l] as bigint];
        const r = next();
        if (half || l % 2) return [BigInt(half ? r & 0xffff : r)];
        const u = next() / 2 ** 32;
        const v = fnOf[op] === 'exp' ? -170 + 300 * u : fnOf[op] === 'log' ? 1 + (u - 0.5) * 2 ** -(r % 20) : (u - 0.5) * 2 ** (r % 26);
        return [BigInt(new Uint32Array(new Float32Array([v]).buffer)[0] ?? 0)];
      });
      const got = runBody(batch, (b, v) => transcendentalCore(new X(b), op, flushIn, form, b.emit('Lo32', [v[0] as Inst])));
      batch.forEach(([a], l) => {
        const v = decode(half, Number(a), flushIn);
        if (v === undefined) return; // a NaN: the rounding step propagates the source
        assert.equal(got[l], want(fnOf[op], v), `${op} ${form} flushIn=${flushIn} input 0x${(a as bigint).toString(16)} (${v})`);
      });
    }
  }
});
