// The IR core: the printed form (inline snapshots), the verifier (every violation reported), SSA
// construction on straight code, a diamond and a loop, dead code elimination, and constant folding
// (integers; floats through the exact model, with expected bits worked out here by hand).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Builder, type FloatMode, IrFunction } from '../../src/ir/ir.js';
import { printFunction } from '../../src/ir/print.js';
import { verifyFunction } from '../../src/ir/verify.js';
import { constructSsa } from '../../src/ir/passes/ssa.js';
import { eliminateDeadCode } from '../../src/ir/passes/dce.js';
import { foldConstants } from '../../src/ir/passes/fold.js';
import { runPasses } from '../../src/ir/passes/index.js';
import { OPS } from '../../src/ir/ops.js';

const RNE: FloatMode = { round: 0, denorm: 3, ieee: true, dx10Clamp: true };

test('the printer: one stable line per instruction, dense ids, modes and pcs', () => {
  const fn = new IrFunction('k', 32);
  const b = new Builder(fn, fn.addBlock(0), 0x10);
  const x = b.emit('GetVgpr', [], [1]);
  const f = b.emit('BitcastU32F32', [x]);
  const y = b.emit('FAdd32', [f, f], [], { float: { round: 3, denorm: 'dynamic', ieee: false, dx10Clamp: true } });
  b.emit('SetVgpr', [b.emit('BitcastF32U32', [y])], [2]);
  b.emit('EndProgram');
  fn.computePreds();
  assert.equal(printFunction(fn), [
    'function k (wave32)',
    'b0:',
    '  %0 = GetVgpr u32 1 ; 0x10',
    '  %1 = BitcastU32F32 f32 %0 ; 0x10',
    '  %2 = FAdd32 f32 %1, %1 [round=3 denorm=dynamic ieee=0 dx10=1] ; 0x10',
    '  %3 = BitcastF32U32 u32 %2 ; 0x10',
    '  SetVgpr %3, 2 ; 0x10',
    '  EndProgram ; 0x10',
    '',
  ].join('\n'));
});

test('the verifier reports every violation', () => {
  const fn = new IrFunction('bad', 32);
  const b0 = fn.addBlock();
  const b = new Builder(fn, b0);
  const c = b.u32(1);
  const one = b.u1(true);
  b0.insts.push(fn.make('IAdd32', [c, one]));
  b0.insts.push(fn.make('Branch', [], [7]));
  fn.addBlock();
  fn.computePreds();
  const errs = verifyFunction(fn);
  assert.ok(errs.some((e) => /argument 1 is u1, want u32/.test(e)), errs.join('\n'));
  assert.ok(errs.some((e) => /branch to missing block b7/.test(e)));
  assert.ok(errs.some((e) => /b1: does not end with a terminator/.test(e)));
  assert.throws(() => fn.make('FAdd32', [], []), /needs a float mode/);
  assert.throws(() => { const bb = new Builder(fn, fn.block(0)); bb.emit('EndProgram'); bb.emit('EndProgram'); }, /already ends/);
});

test('SSA: a diamond merges with a phi, an unchanged register needs none', () => {
  const fn = new IrFunction('diamond', 32);
  const [e, t, f, j] = [fn.addBlock(), fn.addBlock(), fn.addBlock(), fn.addBlock()];
  const be = new Builder(fn, e);
  be.emit('SetVgpr', [be.u32(5)], [0]);
  be.emit('SetSgpr', [be.u32(9)], [3]);
  be.emit('BranchCond', [be.emit('GetScc')], [t.id, f.id]);
  const bt = new Builder(fn, t);
  bt.emit('SetVgpr', [bt.u32(1)], [0]);
  bt.emit('Branch', [], [j.id]);
  const bf = new Builder(fn, f);
  bf.emit('Branch', [], [j.id]);
  const bj = new Builder(fn, j);
  bj.emit('StoreGlobal32', [bj.u1(true), bj.emit('Pack64', [bj.emit('GetSgpr', [], [3]), bj.u32(0)]), bj.emit('GetVgpr', [], [0])]);
  bj.emit('EndProgram');
  constructSsa(fn);
  assert.deepEqual(verifyFunction(fn), []);
  const text = printFunction(fn);
  assert.match(text, /b3: ; preds b1 b2\n  %\d+ = Phi u32 %\d+, %\d+\n/);
  assert.equal((text.match(/Phi/g) ?? []).length, 1, text);
  assert.doesNotMatch(text, /GetVgpr|SetVgpr|GetSgpr|SetSgpr/);
  // The sgpr read in the join is the constant written in the entry.
  const jb = fn.block(3);
  const pack = jb.insts.find((i) => i.op === 'Pack64');
  assert.equal(pack?.args[0]?.op, 'ConstU32');
  assert.equal(pack?.args[0]?.imms[0], 9);
  // An SCC read with no write anywhere is undefined.
  assert.match(text, /b0:\n  %0 = Undef u1/);
});

test('SSA: a loop counter gets a phi in the header; a loop-invariant register does not', () => {
  const fn = new IrFunction('loop', 64);
  const [e, h, x] = [fn.addBlock(), fn.addBlock(), fn.addBlock()];
  const be = new Builder(fn, e);
  be.emit('SetSgpr', [be.u32(0)], [1]);
  be.emit('SetSgpr', [be.u32(100)], [2]);
  be.emit('Branch', [], [h.id]);
  const bh = new Builder(fn, h);
  const i1 = bh.emit('IAdd32', [bh.emit('GetSgpr', [], [1]), bh.u32(1)]);
  bh.emit('SetSgpr', [i1], [1]);
  bh.emit('BranchCond', [bh.emit('ULt32', [i1, bh.emit('GetSgpr', [], [2])])], [h.id, x.id]);
  const bx = new Builder(fn, x);
  bx.emit('StoreGlobal32', [bx.u1(true), bx.emit('Pack64', [bx.emit('GetSgpr', [], [2]), bx.u32(0)]), bx.emit('GetSgpr', [], [1])]);
  bx.emit('EndProgram');
  constructSsa(fn);
  assert.deepEqual(verifyFunction(fn), []);
  const hdr = fn.block(1);
  const phis = hdr.insts.filter((i) => i.op === 'Phi');
  assert.equal(phis.length, 1, printFunction(fn));
  const phi = phis[0];
  assert.ok(phi);
  assert.equal(phi.args[0]?.op, 'ConstU32');
  assert.equal(phi.args[1], i1);
  // s2 is the entry's constant everywhere.
  const cmp = hdr.insts.find((i) => i.op === 'ULt32');
  assert.equal(cmp?.args[1]?.imms[0], 100);
});

test('DCE removes unused pure values, keeps effects; folding uses the exact float model', () => {
  const fn = new IrFunction('fold', 32);
  const b = new Builder(fn, fn.addBlock());
  b.emit('IAdd32', [b.u32(1), b.u32(2)]); // unused
  const sum = b.emit('IAdd32', [b.u32(0xffffffff), b.u32(2)]);
  const sh = b.emit('Shl32', [sum, b.u32(33)]);
  const one = b.emit('ConstF32', [], [0x3f800000]);
  const tiny = b.emit('ConstF32', [], [0x33c00000]); // 1.5 * 2^-24 = 3 * 2^-25
  const modes = [0, 1, 2, 3].map((round) => b.emit('FAdd32', [one, tiny], [], { float: { ...RNE, round: round as 0 | 1 | 2 | 3 } }));
  const dyn = b.emit('FAdd32', [one, tiny], [], { float: { ...RNE, round: 'dynamic' } });
  const addr = b.emit('Pack64', [b.u32(0x1000), b.u32(1)]);
  for (const v of [sh, ...modes.map((m) => b.emit('BitcastF32U32', [m])), b.emit('BitcastF32U32', [dyn])]) b.emit('StoreGlobal32', [b.u1(true), addr, v]);
  b.emit('EndProgram');
  fn.computePreds();
  foldConstants(fn);
  eliminateDeadCode(fn);
  assert.deepEqual(verifyFunction(fn), []);
  const stored = fn.block(0).insts.filter((i) => i.op === 'StoreGlobal32').map((s) => s.args[2]);
  // (0xffffffff + 2) mod 2^32 = 1; shift by 33 is by 1 (amount mod 32).
  assert.equal(stored[0]?.imms[0], 2);
  // 1 + 3*2^-25: the f32 neighbours are 1 and 1 + 2^-23; 3*2^-25 = 0.75 ulp. RNE and RTP round up,
  // RTN and RTZ round down.
  assert.deepEqual(stored.slice(1, 5).map((c) => c?.imms[0]), [0x3f800001, 0x3f800001, 0x3f800000, 0x3f800000]);
  // A dynamic rounding mode is not folded.
  assert.equal(stored[5]?.op, 'BitcastF32U32');
  assert.equal(fn.block(0).insts.filter((i) => i.op === 'IAdd32').length, 0);
});

test('runPasses leaves a valid function; every op has an entry the printer and verifier know', () => {
  const fn = new IrFunction('p', 32);
  const b = new Builder(fn, fn.addBlock());
  b.emit('SetVgpr', [b.emit('IAdd32', [b.emit('GetVgpr', [], [0]), b.u32(4)])], [0]);
  b.emit('StoreGlobal32', [b.u1(true), b.emit('Pack64', [b.u32(0), b.u32(1)]), b.emit('GetVgpr', [], [0])]);
  b.emit('EndProgram');
  runPasses(fn);
  assert.match(printFunction(fn), /StoreGlobal32 %\d+, %\d+/);
  for (const [op, info] of Object.entries(OPS)) {
    assert.ok(Array.isArray(info.args), op);
    if ('terminator' in info) assert.ok('effect' in info, `${op}: a terminator has an effect`);
  }
});

test("DCE's verifying compaction reports what verifyFunction reports after DCE, in the same order", () => {
  // Each case built twice: one function through eliminateDeadCode(fn, own) and verifyFunction(fn,
  // own), the other through eliminateDeadCode(fn) and verifyFunction(fn).
  const cases: ((fn: IrFunction) => void)[] = [
    (fn) => {
      // An argument defined later in its block, a wrong argument type, dead code among them.
      const b0 = fn.addBlock();
      const b = new Builder(fn, b0);
      const c = b.u32(1);
      const later = fn.make('IAdd32', [c, c]);
      b.emit('IAdd32', [c, c]); // dead
      b.emit('StoreGlobal32', [b.u1(true), b.emit('Pack64', [c, c]), later]);
      b0.insts.push(later);
      b.emit('StoreGlobal32', [b.u1(true), b.emit('Pack64', [c, c]), b.u1(false)]);
      b0.insts.push(fn.make('EndProgram', []));
    },
    (fn) => {
      // A barrier with dead code before its branch; a terminator in the middle of a block, a live
      // store after it; a block without a terminator; a branch to a missing block.
      const b0 = fn.addBlock(), b1 = fn.addBlock(), b2 = fn.addBlock();
      const b = new Builder(fn, b0);
      const c = b.u32(2), t = b.u1(true), f = b.u1(false), at = b.emit('Pack64', [c, c]);
      b.emit('Barrier');
      b0.insts.push(fn.make('IAdd32', [c, c]));
      b0.insts.push(fn.make('Branch', [], [1]));
      b1.insts.push(fn.make('Branch', [], [2]));
      b1.insts.push(fn.make('StoreGlobal32', [t, at, c]));
      b1.insts.push(fn.make('IAdd32', [c, c]));
      b2.insts.push(fn.make('Barrier', []));
      b2.insts.push(fn.make('IAdd32', [c, c]));
      b2.insts.push(fn.make('StoreGlobal32', [t, at, c]));
      b2.insts.push(fn.make('BranchCond', [f], [0, 9]));
    },
    (fn) => {
      // A valid function: a loop with a phi, nothing to report.
      const b0 = fn.addBlock(), b1 = fn.addBlock(), b2 = fn.addBlock();
      const c = new Builder(fn, b0).u32(0);
      b0.insts.push(fn.make('Branch', [], [1]));
      const phi = fn.make('Phi', [c, c], [], { type: 'u32' });
      b1.insts.push(phi);
      const next = fn.make('IAdd32', [phi, c]);
      b1.insts.push(next);
      const ne = fn.make('INe32', [next, c]);
      b1.insts.push(ne);
      b1.insts.push(fn.make('BranchCond', [ne], [1, 2]));
      phi.args[1] = next;
      b2.insts.push(fn.make('EndProgram', []));
    },
  ];
  for (const make of cases) {
    const [a, b] = [new IrFunction('k', 32), new IrFunction('k', 32)];
    make(a); make(b);
    for (const f of [a, b]) for (const blk of f.blocks) for (const i of blk.insts) i.block = blk;
    a.computePreds(); b.computePreds();
    const own: string[] = [];
    const removed = eliminateDeadCode(a, own);
    assert.equal(removed, eliminateDeadCode(b));
    assert.equal(printFunction(a), printFunction(b));
    assert.deepEqual(verifyFunction(a, own), verifyFunction(b));
  }
});
