// The guarded f32 add/sub/mul (src/ir/passes/lower-float-guarded.ts) against the exact float
// model, through the IR interpreter, for every rounding mode × denormal setting × IEEE bit:
// - lowered with the guard (the device's nearest-even result and error term where exact, the exact
//   helper elsewhere: one CallGuarded of both), every lane equals the model's bits;
// - the fast helper alone: on every lane it claims (high dword 1) its bits equal the model's, and
//   the same when the device ops flush every denormal (its claim is that none ever reaches them);
//   it claims every lane whose operands are normal with exponents in [-90, 90] (a product's
//   exponents summing to [-80, 90]) (so the fast path is
//   what the first check exercised), and the operand distribution makes the error term decide the
//   rounding on many of them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Builder, type FloatMode, type Inst, IrFunction } from '../../src/ir/ir.js';
import type { Op } from '../../src/ir/ops.js';
import { constructSsa } from '../../src/ir/passes/ssa.js';
import { lowerFloat, loweringMode, X } from '../../src/ir/passes/lower-float.js';
import { guardedBody } from '../../src/ir/passes/lower-float-guarded.js';
import { verifyFunction } from '../../src/ir/verify.js';
import { runIrWave } from '../../src/ir/interp.js';
import { GlobalMemory } from '../../src/interp/memory.js';
import { addF32, fmaF32, mulF32, subF32 } from '../../src/float/arith.js';
import type { FloatEnv } from '../../src/float/env.js';
import { Rng } from '../harness/rng.js';

const LANES = 64;
const REC = 32; // a, b, c, out lo, out hi

function kernel(body: (b: Builder, a: Inst, c: Inst, d: Inst) => Inst, base: number, wide: boolean): IrFunction {
  const fn = new IrFunction('k', 64);
  const b = new Builder(fn, fn.addBlock());
  const lane = b.emit('LaneId');
  const at = (k: number) => b.emit('IAdd64', [b.emit('Pack64', [b.emit('IAdd32', [b.u32(base % 2 ** 32), b.emit('Shl32', [lane, b.u32(5)])]), b.u32(Math.floor(base / 2 ** 32))]), b.emit('ConstU64', [], [BigInt(4 * k)])]);
  const t = b.u1(true);
  const r = body(b, b.emit('LoadGlobal32', [t, at(0)]), b.emit('LoadGlobal32', [t, at(1)]), b.emit('LoadGlobal32', [t, at(2)]));
  b.emit('StoreGlobal32', [t, at(3), wide ? b.emit('Lo32', [r]) : r]);
  if (wide) b.emit('StoreGlobal32', [t, at(4), b.emit('Hi32', [r])]);
  b.emit('EndProgram');
  constructSsa(fn);
  return fn;
}

function run(make: (base: number) => IrFunction, data: Uint8Array): DataView {
  const mem = new GlobalMemory();
  const buf = data.slice();
  const fn = make(mem.map('data', buf));
  runIrWave(fn, { mem, kernargPtr: 0, dispatchPtr: 0, workgroupId: [0, 0, 0], localIds: Array.from({ length: LANES }, () => [0, 0, 0] as [number, number, number]), inGrid: new Array<boolean>(LANES).fill(true), maxSteps: 10_000_000 });
  return new DataView(buf.buffer);
}

/** A static FloatMode's environment (what every engine builds from it). */
const envOf = (m: FloatMode): FloatEnv => ({ round: m.round as 0 | 1 | 2 | 3, flushIn: ((m.denorm as number) & 1) === 0, flushOut: ((m.denorm as number) & 2) === 0, ieee: m.ieee === true, dx10Clamp: m.dx10Clamp === true });
const f32 = (bits: number) => new Float32Array(new Uint32Array([bits]).buffer)[0] ?? 0;
const bitsOf = (v: number) => new Uint32Array(new Float32Array([v]).buffer)[0] ?? 0;

/** Operands: random normal numbers of nearby and far exponents (inexact sums and products), exact cases, zeros, denormals, specials, extremes. */
function operands(r: Rng, op: Op): [number, number] {
  const normal = (lo: number, hi: number) => ((r.u32() & 0x807fffff) | ((lo + (r.u32() % (hi - lo + 1))) << 23)) >>> 0;
  switch (r.u32() % 10) {
    case 0: return [normal(100, 150), normal(100, 150)];
    case 1: { const a = normal(90, 160); return [a, ((a ^ 0x80000000) + (r.u32() % 9) - 4) >>> 0]; } // cancellation
    case 2: return [normal(1, 254), normal(1, 254)];
    case 3: return [r.u32() & 0x807fffff, normal(1, 254)]; // a denormal
    case 4: return [[0, 0x80000000][r.u32() % 2] ?? 0, r.u32() % 2 ? normal(1, 254) : [0, 0x80000000][r.u32() % 2] ?? 0]; // zeros
    case 5: return [[0x7f800000, 0xff800000, 0x7fc00000, 0x7fa00001, 0x7f7fffff][r.u32() % 5] ?? 0, normal(1, 254)];
    case 6: return [normal(20, 40), normal(20, 40)]; // near the fast domain's low edge
    case 7: return op === 'FMul32' ? [normal(200, 245), normal(100, 140)] : [normal(240, 254), normal(240, 254)]; // near overflow
    case 8: { const a = normal(110, 140); return [a, bitsOf(f32(a) * 2 ** ((r.u32() % 30) - 15)) ^ (r.u32() & 0x80000000)]; }
    default: return [r.u32(), r.u32()];
  }
}

/** fma operands: inexact products and sums, cancellation, a tiny addend (sticky), exact ties, the fast domain's edges, specials. */
function fmaOperands(r: Rng): [number, number, number] {
  const normal = (lo: number, hi: number) => ((r.u32() & 0x807fffff) | ((lo + (r.u32() % (hi - lo + 1))) << 23)) >>> 0;
  const product = (a: number, b: number) => f32(a) * f32(b); // exact in a double
  switch (r.u32() % 13) {
    case 0: return [normal(100, 150), normal(100, 150), normal(100, 150)];
    case 1: { const a = normal(110, 140), b = normal(110, 140); return [a, b, (bitsOf(-product(a, b)) + (r.u32() % 9) - 4) >>> 0]; } // cancellation
    case 2: { const a = normal(110, 140), b = normal(110, 140); return [a, b, (bitsOf(product(a, b) * 2 ** -(24 + (r.u32() % 40))) ^ (r.u32() & 0x80000000)) >>> 0]; } // a tiny addend
    case 3: {
      // Exact ties and near-ties: (2^12 + i)(2^12 + j) + c = 2^24 + an odd integer (+-1 for near ties), times a power of two.
      const i = r.u32() % 4096, j = r.u32() % 4096, m = r.u32() % 1000, near = (r.u32() % 3) - 1, k = (r.u32() % 40) - 20;
      const p = (4096 + i) * (4096 + j), c = 2 ** 24 + 2 * m + 1 + near / 4 - p;
      const sg = r.u32() & 0x80000000;
      return [(bitsOf((4096 + i) * 2 ** k) ^ sg) >>> 0, bitsOf(4096 + j), (bitsOf(c * 2 ** k) ^ sg) >>> 0];
    }
    case 4: return [normal(1, 254), normal(1, 254), normal(1, 254)];
    case 5: return [r.u32() & 0x807fffff, normal(100, 150), normal(100, 150)]; // a denormal
    case 6: return [normal(100, 150), normal(100, 150), r.u32() & 0x807fffff];
    case 7: return [normal(100, 150), [0, 0x80000000][r.u32() % 2] ?? 0, [0, 0x80000000, normal(100, 150)][r.u32() % 3] ?? 0]; // zeros
    case 8: return [[0x7f800000, 0xff800000, 0x7fc00000, 0x7fa00001, 0x7f7fffff][r.u32() % 5] ?? 0, normal(1, 254), normal(1, 254)];
    case 9: return [normal(60, 70), normal(60, 70), normal(1, 10)]; // results near the denormal range
    case 10: return [normal(185, 195), normal(185, 195), normal(240, 254)]; // near overflow
    case 11: {
      // Ties that only the error breaks: (2^12 + i)(2^12 + j) with i, j odd is 2^24 + an odd integer (a midpoint between f32s when below 2^25), plus a tiny addend.
      const i = 2 * (r.u32() % 1024) + 1, j = 2 * (r.u32() % 1024) + 1, k = (r.u32() % 40) - 20;
      const sg = r.u32() & 0x80000000;
      return [(bitsOf((4096 + i) * 2 ** k) ^ sg) >>> 0, bitsOf(4096 + j), (bitsOf(2 ** (k - 30 - (r.u32() % 30))) ^ (r.u32() & 0x80000000)) >>> 0];
    }
    default: return [r.u32(), r.u32(), r.u32()];
  }
}

type Model = (a: number, b: number, c: number, e: FloatEnv) => number;
const MODEL: Record<string, Model> = {
  FAdd32: (a, b, _c, e) => addF32(a, b, e), FSub32: (a, b, _c, e) => subF32(a, b, e), FMul32: (a, b, _c, e) => mulF32(a, b, e), FFma32: fmaF32,
};

/** Whether the fast path must claim the lane: ops and result well inside the fast domain. */
function mustClaim(op: Op, a: number, b: number, c: number, rte: number): boolean {
  const ex = (v: number) => ((v >>> 23) & 0xff) - 127;
  const isNormal = (v: number) => ((v >>> 23) & 0xff) !== 0 && ((v >>> 23) & 0xff) !== 255;
  if (op === 'FFma32') return [a, b, c].every(isNormal) && isNormal(rte) && Math.abs(ex(rte)) <= 100;
  const ea = ex(a), eb = ex(b);
  if (!(Math.abs(ea) <= 90 && Math.abs(eb) <= 90)) return false;
  return op !== 'FMul32' || (ea + eb >= -80 && ea + eb <= 90);
}

test('guarded f32 add/sub/mul/fma equal the float model, every rounding mode, denormal setting and IEEE bit', () => {
  const rng = new Rng(1234);
  for (const op of ['FAdd32', 'FSub32', 'FMul32', 'FFma32'] as const) {
    let claimed = 0, stepped = 0;
    const n = op === 'FFma32' ? 3 : 2;
    for (let round = 0; round < 4; round++) for (let denorm = 0; denorm < 4; denorm++) for (const ieee of [true, false]) {
      const mode: FloatMode = { round: round as 0 | 1 | 2 | 3, denorm: denorm as 0 | 1 | 2 | 3, ieee, dx10Clamp: true };
      const env = envOf(mode);
      const md = loweringMode({ round: mode.round as 0 | 1 | 2 | 3, denorm: denorm as 0 | 1 | 2 | 3, ieee, dx10Clamp: true });
      for (let batch = 0; batch < 4; batch++) {
        const data = new Uint8Array(LANES * REC);
        const dv = new DataView(data.buffer);
        const sets = Array.from({ length: LANES }, (): [number, number, number] => (op === 'FFma32' ? fmaOperands(rng) : [...operands(rng, op), 0]));
        sets.forEach((v, l) => v.forEach((x, k) => dv.setUint32(l * REC + 4 * k, x, true)));
        const want = sets.map(([a, b, c]) => MODEL[op]!(a, b, c, env) >>> 0);
        // 1. Lowered with the guard.
        const low = run((base) => {
          const fn = kernel((b, a, c, d) => b.emit('BitcastF32U32', [b.emit(op, [a, c, d].slice(0, n).map((v) => b.emit('BitcastU32F32', [v])), [], { float: mode })]), base, false);
          const before = fn.blocks.flatMap((b) => b.insts.map((i) => i.op));
          assert.equal(lowerFloat(fn, () => true, () => true), 1);
          assert.deepEqual(verifyFunction(fn), []);
          // The site is one instruction: the op became a CallGuarded (and the bit cast of its bits back to f32).
          assert.deepEqual(fn.blocks.flatMap((b) => b.insts.map((i) => i.op)), before.flatMap((o) => (o === op ? ['CallGuarded', 'BitcastU32F32'] : [o])));
          return fn;
        }, data);
        // 2. The fast helper alone, under a preserving and a flushing device.
        const fast = [3, 0].map((d) => run((base) => kernel((b, a, c, e) => guardedBody(new X(b), md, op, [a, c, e].slice(0, n), { round: 0, denorm: d as 0 | 3, ieee: true, dx10Clamp: true }), base, true), data));
        sets.forEach(([a, b, c], l) => {
          const what = `${op} round=${round} denorm=${denorm} ieee=${ieee} a=0x${a.toString(16)} b=0x${b.toString(16)}${n === 3 ? ` c=0x${c.toString(16)}` : ''}: model 0x${want[l]?.toString(16)}`;
          assert.equal(low.getUint32(l * REC + 12, true), want[l], `${what}, guarded 0x${low.getUint32(l * REC + 12, true).toString(16)}`);
          for (const f of fast) {
            const ok = f.getUint32(l * REC + 16, true);
            if (ok) assert.equal(f.getUint32(l * REC + 12, true), want[l], `${what}, fast 0x${f.getUint32(l * REC + 12, true).toString(16)}`);
          }
          const rte = MODEL[op]!(a, b, c, envOf({ ...mode, round: 0 })) >>> 0;
          if (mustClaim(op, a, b, c, rte)) assert.equal(fast[0]?.getUint32(l * REC + 16, true), 1, `${what}: not claimed`);
          if (fast[0]?.getUint32(l * REC + 16, true)) {
            claimed++;
            if (rte !== want[l]) stepped++;
          }
        });
      }
    }
    // The fast path decided most lanes, and directed rounding moved many of them off nearest even.
    assert.ok(claimed > 900 && stepped > 150, `${op}: claimed ${claimed}, stepped ${stepped}`);
  }
});
