// The lowering of the float → integer conversions with rounding rules of their own
// (src/ir/passes/lower-float-misc.ts: ConvertRpiS32F32, ConvertU8F32, FNorm16F32, FNorm16F16)
// against the exact float model: the same IR function runs in the IR interpreter with the op as it
// is (evaluated by src/float: toIntBits 'rpi', toU8Bits, toNorm16Bits) and lowered to integer IR;
// every result must agree under every FP_DENORM input setting (the only MODE field they read) and
// the other fields at random, on inputs biased to ties (x.5, k + 1/2 of the ×32767/×65535
// scalings), the ends of the ranges, denormals, NaNs, infinities and zeros.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Builder, type FloatMode, IrFunction } from '../../src/ir/ir.js';
import type { Op } from '../../src/ir/ops.js';
import { constructSsa } from '../../src/ir/passes/ssa.js';
import { lowerFloat } from '../../src/ir/passes/lower-float.js';
import { verifyFunction } from '../../src/ir/verify.js';
import { runIrWave } from '../../src/ir/interp.js';
import { GlobalMemory } from '../../src/interp/memory.js';
import { Rng } from '../harness/rng.js';

const LANES = 64;

/** out[lane] = op(in[lane]) for one op, immediate and mode. */
function kernel(op: Op, imm: number | undefined, mode: FloatMode, base: number): IrFunction {
  const fn = new IrFunction('k', 64);
  const b = new Builder(fn, fn.addBlock());
  const lane = b.emit('LaneId');
  const at = (k: number) => b.emit('IAdd64', [b.emit('Pack64', [b.emit('IAdd32', [b.u32(base % 2 ** 32), b.emit('Shl32', [lane, b.u32(3)])]), b.u32(Math.floor(base / 2 ** 32))]), b.emit('ConstU64', [], [BigInt(4 * k)])]);
  const t = b.u1(true);
  const a = b.emit('LoadGlobal32', [t, at(0)]);
  const arg = op === 'FNorm16F16' ? b.emit('BitcastU32F16', [a]) : b.emit('BitcastU32F32', [a]);
  const r = b.emit(op, [arg], imm === undefined ? [] : [imm], { float: mode });
  b.emit('StoreGlobal32', [t, at(1), r]);
  b.emit('EndProgram');
  constructSsa(fn);
  return fn;
}

const f32Bits = (v: number) => new Uint32Array(new Float32Array([v]).buffer)[0] ?? 0;
const EDGES32 = [0, 0x80000000, 1, 0x80000001, 0x007fffff, 0x807fffff, 0x00800000, 0x7f7fffff, 0xff7fffff, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00001, 0x7f800001,
  0x3f800000, 0xbf800000, 0x3f7fffff, 0xbf7fffff, 0x3f000000, 0xbf000000, 0x3effffff, 0xbeffffff, 0x4effffff, 0x4f000000, 0xcf000000, 0xcf000001, 0x4f800000, 0x4b000001, 0xcb000001,
  0x437f0000, 0x437f8000, 0x437f7fff, 0x43800000, 0x43ff8000, 0x44000000, 0x3fc00000, 0xbfc00000, 0x40200000, 0xc0200000, 0x38000000, 0x33000000, 0x33000001, 0x32ffffff];
function f32(r: Rng): number {
  switch (r.u32() % 8) {
    case 0: return EDGES32[r.u32() % EDGES32.length] ?? 0;
    case 1: return r.u32() & 0x807fffff;
    case 2: return (f32Bits(((r.u32() % 4000) - 2000) + 0.5) + (r.u32() % 3) - 1) >>> 0; // x.5 and beside it
    case 3: { const max = r.u32() % 2 ? 32767 : 65535; return (f32Bits(((r.u32() % max) + 0.5) / max) + (r.u32() % 3) - 1 + (r.u32() % 2 ? 0x80000000 : 0)) >>> 0; }
    case 4: return ((r.u32() & 0x80ffffff) | (((r.u32() % 40) + 100) << 23)) >>> 0; // 2^-27 .. 2^13
    case 5: return ((r.u32() & 0x80ffffff) | (((r.u32() % 12) + 150) << 23)) >>> 0; // around 2^23 .. 2^34
    default: return r.u32();
  }
}
function f16(r: Rng): number {
  switch (r.u32() % 4) {
    case 0: return [0, 0x8000, 1, 0x8001, 0x03ff, 0x83ff, 0x0400, 0x3c00, 0xbc00, 0x3bff, 0xbbff, 0x3800, 0x7c00, 0xfc00, 0x7e00, 0xfd00, 0x7bff][r.u32() % 17] ?? 0;
    case 1: return r.u32() & 0x83ff;
    case 2: return (r.u32() & 0x83ff) | (((r.u32() % 15) + 1) << 10);
    default: return r.u32() & 0xffff;
  }
}

const CASES: readonly [Op, number | undefined, boolean][] = [['ConvertRpiS32F32', undefined, false], ['ConvertU8F32', undefined, false], ['FNorm16F32', 1, false], ['FNorm16F32', 0, false], ['FNorm16F16', 1, true], ['FNorm16F16', 0, true]];

test('lowered v_cvt_rpi / pk_u8 / norm16 conversions equal the float model, every FP_DENORM setting', () => {
  const rng = new Rng(8181);
  for (const [op, imm, half] of CASES) {
    for (let denorm = 0; denorm < 4; denorm++) {
      for (let k = 0; k < 12; k++) {
        const mode: FloatMode = { round: (rng.u32() % 4) as 0 | 1 | 2 | 3, denorm: denorm as 0 | 1 | 2 | 3, ieee: rng.u32() % 2 === 0, dx10Clamp: rng.u32() % 2 === 0 };
        const data = new Uint8Array(LANES * 8), dv = new DataView(data.buffer);
        for (let l = 0; l < LANES; l++) dv.setUint32(8 * l, half ? f16(rng) | (rng.u32() << 16) : f32(rng), true);
        const out = [false, true].map((lowered) => {
          const mem = new GlobalMemory();
          const buf = data.slice();
          const fn = kernel(op, imm, mode, mem.map('data', buf));
          if (lowered) {
            assert.equal(lowerFloat(fn, () => true), 1);
            assert.deepEqual(verifyFunction(fn), []);
            assert.ok(!fn.blocks.some((b) => b.insts.some((i) => i.float)), 'no float op left');
          }
          runIrWave(fn, { mem, kernargPtr: 0, dispatchPtr: 0, workgroupId: [0, 0, 0], localIds: Array.from({ length: LANES }, () => [0, 0, 0] as [number, number, number]), inGrid: new Array<boolean>(LANES).fill(true), maxSteps: 10_000_000 });
          return new DataView(buf.buffer);
        });
        for (let l = 0; l < LANES; l++) {
          const want = out[0]?.getUint32(8 * l + 4, true), got = out[1]?.getUint32(8 * l + 4, true);
          if (want !== got) assert.fail(`${op}${imm === undefined ? '' : `.${imm}`} denorm=${denorm}: input 0x${dv.getUint32(8 * l, true).toString(16)}: model 0x${want?.toString(16)}, lowered 0x${got?.toString(16)}`);
        }
      }
    }
  }
});
