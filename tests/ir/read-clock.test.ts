// The IR's ReadClock (s_memtime / s_memrealtime): two reads stay two reads through the passes
// (an effect: not folded, merged or removed, even unused), the printer names the clock, the
// verifier refuses an unknown one, and the IR interpreter's clocks count: a later read of a wave
// is larger, every lane holds the wave's value, and the dispatch clock runs on across waves.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Builder, type Inst, IrFunction } from '../../src/ir/ir.js';
import { printFunction } from '../../src/ir/print.js';
import { verifyFunction } from '../../src/ir/verify.js';
import { runPasses } from '../../src/ir/passes/index.js';
import { runIrWave } from '../../src/ir/interp.js';
import { GlobalMemory } from '../../src/interp/memory.js';

const LANES = 4;

/** Reads time, time, realtime, realtime (and one unused time); stores each lane's four u64s at base + lane * 32. */
function kernel(base: number): IrFunction {
  const fn = new IrFunction('clock', 32);
  const b = new Builder(fn, fn.addBlock(0), 0x10);
  const t0 = b.emit('ReadClock', [], [0]);
  b.emit('ReadClock', [], [0]);
  const t1 = b.emit('ReadClock', [], [0]);
  const r0 = b.emit('ReadClock', [], [1]);
  const r1 = b.emit('ReadClock', [], [1]);
  const at = b.emit('IAdd64', [b.emit('ConstU64', [], [BigInt(base)]), b.emit('UMulWide32', [b.emit('LaneId'), b.u32(32)])]);
  const yes = b.u1(true);
  [t0, t1, r0, r1].forEach((v: Inst, k) => {
    for (const [half, op] of [[0, 'Lo32'], [1, 'Hi32']] as const) {
      const a = b.emit('IAdd64', [at, b.emit('ConstU64', [], [BigInt(8 * k + 4 * half)])]);
      b.emit('StoreGlobal32', [yes, a, b.emit(op, [v])]);
    }
  });
  b.emit('EndProgram');
  fn.computePreds();
  return fn;
}

test('ReadClock: not merged, folded or removed by the passes; printed with its clock; an unknown clock is refused', () => {
  const fn = kernel(0x1000);
  runPasses(fn);
  const reads = fn.blocks.flatMap((bl) => bl.insts).filter((i) => i.op === 'ReadClock');
  assert.deepEqual(reads.map((i) => Number(i.imms[0])), [0, 0, 0, 1, 1], 'five reads, the unused one too');
  const text = printFunction(fn);
  assert.match(text, /= ReadClock u64 time ; 0x10\n/);
  assert.match(text, /= ReadClock u64 realtime ; 0x10\n/);
  const bad = new IrFunction('bad', 32);
  const bb = new Builder(bad, bad.addBlock());
  bb.emit('ReadClock', [], [2]);
  bb.emit('EndProgram');
  bad.computePreds();
  assert.ok(verifyFunction(bad).some((e) => /ReadClock of no clock 2/.test(e)), verifyFunction(bad).join('\n'));
});

test('ReadClock in the IR interpreter: per wave one value for every lane, a later read larger; the realtime clock is the dispatch\'s', () => {
  const clock = { steps: 0 };
  const waves: bigint[][] = [];
  for (let w = 0; w < 2; w++) {
    const mem = new GlobalMemory();
    const out = new Uint8Array(32 * LANES);
    const base = mem.map('out', out);
    const f = kernel(base);
    runPasses(f);
    runIrWave(f, { mem, kernargPtr: 0, dispatchPtr: 0, workgroupId: [w, 0, 0], localIds: Array.from({ length: LANES }, (_, l) => [l, 0, 0] as [number, number, number]), inGrid: new Array<boolean>(LANES).fill(true), maxSteps: 1e6, clock });
    const v = new DataView(out.buffer);
    const lane = (l: number) => [0, 8, 16, 24].map((o) => v.getBigUint64(32 * l + o, true));
    for (let l = 1; l < LANES; l++) assert.deepEqual(lane(l), lane(0), `wave ${w} lane ${l}`);
    const [t0, t1, r0, r1] = lane(0) as [bigint, bigint, bigint, bigint];
    assert.ok(t1 > t0 && r1 > r0 && t0 > 0n, `wave ${w}: ${lane(0).join(' ')}`);
    waves.push(lane(0));
  }
  assert.equal(waves[1]?.[0], waves[0]?.[0], 'the time clock is the wave\'s own count: the same code, the same value');
  assert.ok((waves[1]?.[2] ?? 0n) > (waves[0]?.[3] ?? 0n), 'the realtime clock runs on from one wave to the next');
});
