// The f32 software lowering (src/ir/passes/lower-float.ts) against the exact float model: the same
// IR function runs in the IR interpreter twice, once with the float ops as they are (evaluated by
// src/float, itself checked against the rational oracle) and once lowered to integer IR; every
// result bit must agree, for every rounding mode × denormal setting × IEEE bit, on inputs biased to
// the hard cases (subnormals, ties, overflow, cancellation, NaN payloads, infinities, zeros).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Builder, type FloatMode, IrFunction } from '../../src/ir/ir.js';
import { type Op, OPS as OP_TABLE, opInfo } from '../../src/ir/ops.js';
import { constructSsa } from '../../src/ir/passes/ssa.js';
import { isLowered, lowerFloat } from '../../src/ir/passes/lower-float.js';
import { verifyFunction } from '../../src/ir/verify.js';
import { runIrWave } from '../../src/ir/interp.js';
import { GlobalMemory } from '../../src/interp/memory.js';
import { Rng } from '../harness/rng.js';

const LANES = 64;

/** out[lane] = op(a[lane], b[lane]) as u32 bits, for one op and mode. */
function kernel(op: Op, mode: FloatMode, base: number, pred = 0): IrFunction {
  const fn = new IrFunction('k', 64);
  const b = new Builder(fn, fn.addBlock());
  const lane = b.emit('LaneId');
  const at = (k: number) => b.emit('Pack64', [b.emit('IAdd32', [b.u32(base % 2 ** 32), b.emit('Shl32', [lane, b.u32(4)])]), b.u32(Math.floor(base / 2 ** 32))]);
  const addr = (k: number) => b.emit('IAdd64', [at(k), b.emit('ConstU64', [], [BigInt(4 * k)])]);
  const t = b.u1(true);
  const a = b.emit('LoadGlobal32', [t, addr(0)]), c = b.emit('LoadGlobal32', [t, addr(1)]), d = b.emit('LoadGlobal32', [t, addr(2)]);
  const f = (v: typeof a) => b.emit('BitcastU32F32', [v]);
  let r;
  switch (op) {
    case 'FCmp32': r = b.emit('U1ToU32', [b.emit('FCmp32', [f(a), f(c)], [pred], { float: mode })]); break;
    case 'ConvertF32U32': case 'ConvertF32S32': r = b.emit('BitcastF32U32', [b.emit(op, [a], [], { float: mode })]); break;
    case 'ConvertU32F32': case 'ConvertS32F32': r = b.emit(op, [f(a)], [], { float: mode }); break;
    case 'FFma32': r = b.emit('BitcastF32U32', [b.emit(op, [f(a), f(c), f(d)], [], { float: mode })]); break;
    case 'FRcp32': case 'FFloor32': case 'FCeil32': case 'FTrunc32': case 'FRndne32': r = b.emit('BitcastF32U32', [b.emit(op, [f(a)], [], { float: mode })]); break;
    default: r = b.emit('BitcastF32U32', [b.emit(op, [f(a), f(c)], [], { float: mode })]);
  }
  b.emit('StoreGlobal32', [t, addr(3), r]);
  b.emit('EndProgram');
  constructSsa(fn);
  return fn;
}

function run(fn: IrFunction, mem: GlobalMemory): void {
  runIrWave(fn, { mem, kernargPtr: 0, dispatchPtr: 0, workgroupId: [0, 0, 0], localIds: Array.from({ length: LANES }, () => [0, 0, 0] as [number, number, number]), inGrid: new Array<boolean>(LANES).fill(true), maxSteps: 10_000_000 });
}

const EDGES = [0x3f000000, 0xbf000000, 0x3fc00000, 0xbfc00000, 0x40200000, 0x4affffff, 0xcb7fffff, 0x4b7fffff, 0x3effffff, 0x7fbfffff, 0, 0x80000000, 1, 0x80000001, 0x007fffff, 0x807fffff, 0x00800000, 0x00800001, 0x7f7fffff, 0xff7fffff, 0x7f800000, 0xff800000,
  0x7fc00000, 0xffc00001, 0x7f800001, 0x7fa00000, 0x3f800000, 0xbf800000, 0x3f800001, 0x33800000, 0x33c00000, 0x34000000, 0x4b000000, 0x4b800000, 0x4f000000, 0xcf000000, 0x4f800000, 0x3f000000, 0x00400000, 0x00000003];
function f32input(r: Rng): number {
  switch (r.u32() % 7) {
    case 0: return EDGES[r.u32() % EDGES.length] ?? 0;
    case 1: return r.u32() & 0x807fffff; // subnormals
    case 2: return ((r.u32() & 0x80ffffff) | 0x3f000000) >>> 0; // near 1
    case 3: return ((r.u32() & 0x80ffffff) | (((r.u32() % 4) + 0x7d) << 23)) >>> 0; // near overflow
    case 4: return ((r.u32() & 0x80ffffff) | (((r.u32() % 4) + 1) << 23)) >>> 0; // near the subnormal range
    default: return r.u32();
  }
}
function pairInput(r: Rng, op: Op): [number, number] {
  if (op === 'ConvertF32U32' || op === 'ConvertF32S32') { const k = r.u32() % 3; return [k === 0 ? r.u32() : k === 1 ? r.u32() >>> (r.u32() % 32) : (EDGES[r.u32() % 4] ?? 0) + (r.u32() % 3), 0]; }
  const a = f32input(r);
  // Addends close to each other (cancellation) and operands with a fixed relation, half of the time.
  if (r.u32() % 2 === 0) { const b = (a ^ 0x80000000) + (r.u32() % 5) - 2; return [a, b >>> 0]; }
  return [a, f32input(r)];
}

/** Pairs at the tininess boundary: the exact result is just below 2^-126 (so it is tiny before
 * rounding) but rounds at 24-bit precision to 2^-126 (not tiny after rounding). Keeping inputs and
 * flushing outputs (denorm 1) must keep it; a wrong tininess rule flushes it. */
const TININESS_PAIRS: readonly [number, number][] = [
  [0x3f800001, 0x007fffff], // (1 + 2^-23)(2^-126 (1 - 2^-23)) = 2^-126 (1 - 2^-46)
  [0xbf800001, 0x007fffff], [0x007fffff, 0x3f800001], [0x3f800003, 0x007ffffd],
  [0x00800000, 0x807fffff], // 2^-126 - (2^-126 - 2^-149) = 2^-149 (a subnormal sum)
];

const OPS: readonly Op[] = ['FAdd32', 'FSub32', 'FMul32', 'FFma32', 'FRcp32', 'FMin32', 'FMax32', 'FFloor32', 'FCeil32', 'FTrunc32', 'FRndne32', 'FCmp32', 'ConvertF32U32', 'ConvertF32S32', 'ConvertU32F32', 'ConvertS32F32'];

test('lowered f32 ops equal the float model, every rounding mode, denormal setting and IEEE bit', () => {
  const rng = new Rng(77);
  for (const op of OPS) {
    for (let round = 0; round < 4; round++) for (let denorm = 0; denorm < 4; denorm++) for (const ieee of [true, false]) {
      const mode: FloatMode = { round: round as 0 | 1 | 2 | 3, denorm: denorm as 0 | 1 | 2 | 3, ieee, dx10Clamp: true };
      const preds = op === 'FCmp32' ? [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14] : [0];
      for (const pred of preds) {
        const batches = op === 'FCmp32' ? 1 : 6;
        for (let k = 0; k < batches; k++) {
          const data = new Uint8Array(LANES * 16);
          const dv = new DataView(data.buffer);
          for (let l = 0; l < LANES; l++) {
            const [a, b] = l < TININESS_PAIRS.length && op !== 'ConvertF32U32' && op !== 'ConvertF32S32' ? TININESS_PAIRS[l] ?? [0, 0] : pairInput(rng, op);
            dv.setUint32(l * 16, a, true);
            dv.setUint32(l * 16 + 4, b, true);
            // fma's addend: often close to −a·b (cancellation), else anything.
            const prod = new Float32Array(new Uint32Array([a]).buffer)[0]! * new Float32Array(new Uint32Array([b]).buffer)[0]!;
            const near = new Uint32Array(new Float32Array([-prod]).buffer)[0]! + (rng.u32() % 3) - 1;
            dv.setUint32(l * 16 + 8, rng.u32() % 2 === 0 ? near >>> 0 : f32input(rng), true);
          }
          const results = [false, true].map((lowered) => {
            const mem = new GlobalMemory();
            const buf = data.slice();
            const base = mem.map('data', buf);
            const fn = kernel(op, mode, base, pred);
            if (lowered) {
              assert.ok(lowerFloat(fn, () => true) >= 1);
              assert.deepEqual(verifyFunction(fn), []);
              assert.ok(!fn.blocks.some((b) => b.insts.some((i) => i.float)), 'no float op left');
            }
            run(fn, mem);
            return new DataView(buf.buffer);
          });
          for (let l = 0; l < LANES; l++) {
            const want = results[0]?.getUint32(l * 16 + 12, true), got = results[1]?.getUint32(l * 16 + 12, true);
            if (want !== got) {
              const a = dv.getUint32(l * 16, true).toString(16), b = dv.getUint32(l * 16 + 4, true).toString(16), c = dv.getUint32(l * 16 + 8, true).toString(16);
              assert.fail(`${op}${op === 'FCmp32' ? ` pred ${pred}` : ''} round=${round} denorm=${denorm} ieee=${ieee}: a=0x${a} b=0x${b} c=0x${c}: model 0x${want?.toString(16)}, lowered 0x${got?.toString(16)}`);
            }
          }
        }
      }
    }
  }
});

test('every op the lowering takes is a float op of the op table (lowerFloat skips the others on that field)', () => {
  const lowered = (Object.keys(OP_TABLE) as Op[]).filter((op) => isLowered(op));
  assert.ok(lowered.length > 50, `${lowered.length} lowered ops`);
  assert.deepEqual(lowered.filter((op) => !opInfo(op).float), []);
});
