// lowerFloat's outcome: where it says the function is settled, what recompile then runs (CSE's
// hoist where asked, DCE) gives the IR the whole pipeline (fold, CSE, DCE) gives; where a float
// constant's bits equal another constant, CSE has something to merge and the outcome says so.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Builder, type FloatMode, IrFunction } from '../../src/ir/ir.js';
import { printFunction } from '../../src/ir/print.js';
import { verifyFunction } from '../../src/ir/verify.js';
import { eliminateCommonSubexpressions, hoistArgumentFree } from '../../src/ir/passes/cse.js';
import { eliminateDeadCode } from '../../src/ir/passes/dce.js';
import { foldConstants } from '../../src/ir/passes/fold.js';
import { lowerFloat } from '../../src/ir/passes/lower-float.js';

const RNE: FloatMode = { round: 0, denorm: 3, ieee: true, dx10Clamp: true };
const ONE = 0x3f800000, TWO = 0x40000000;

/**
 * A kernel with a float multiply by the constant `k` in the entry block and an add of `m` in a
 * branch (its result stored through the register's cast), and the integer constant `extra`
 * beside them; settled by fold, CSE and DCE as the pipeline leaves a function.
 */
function kernel(k: number, m: number, extra: number): IrFunction {
  const fn = new IrFunction('k', 32);
  const b0 = fn.addBlock(), b1 = fn.addBlock(), b2 = fn.addBlock();
  const e = new Builder(fn, b0);
  const p = e.emit('KernargPtr');
  const x = e.emit('LoadUniform32', [p]);
  const y = e.emit('FMul32', [e.emit('ConstF32', [], [k]), e.emit('BitcastU32F32', [x])], [], { float: RNE });
  e.emit('StoreGlobal32', [e.u1(true), p, e.emit('BitcastF32U32', [y])]);
  e.emit('StoreGlobal32', [e.u1(true), p, e.u32(extra)]);
  e.emit('BranchCond', [e.emit('IEq32', [x, e.u32(0)])], [1, 2]);
  const t = new Builder(fn, b1);
  const z = t.emit('FAdd32', [t.emit('ConstF32', [], [m]), t.emit('BitcastU32F32', [x])], [], { float: RNE });
  t.emit('StoreGlobal32', [t.u1(true), p, t.emit('BitcastF32U32', [z])]);
  t.emit('Branch', [], [2]);
  new Builder(fn, b2).emit('EndProgram');
  fn.computePreds();
  foldConstants(fn);
  eliminateCommonSubexpressions(fn, true);
  eliminateDeadCode(fn);
  return fn;
}

/** The IR after lowering every float op: the settled path (where the outcome allows it) and the whole pipeline's. */
function lowered(k: number, m: number, extra: number): { settled: boolean; hoist: boolean; short: string; full: string } {
  const a = kernel(k, m, extra), outcome = { settled: true, hoist: false };
  assert.equal(lowerFloat(a, () => true, () => false, { outcome }), 2);
  if (outcome.hoist) hoistArgumentFree(a);
  eliminateDeadCode(a);
  assert.deepEqual(verifyFunction(a), []);
  const b = kernel(k, m, extra);
  assert.equal(lowerFloat(b, () => true), 2);
  foldConstants(b);
  eliminateCommonSubexpressions(b, true);
  eliminateDeadCode(b);
  assert.deepEqual(verifyFunction(b), []);
  return { settled: outcome.settled, hoist: outcome.hoist, short: printFunction(a), full: printFunction(b) };
}

test('float constants\' bits: settled where no constant equals another, and then the short path gives the pipeline\'s IR', () => {
  const r = lowered(ONE, TWO, 7);
  assert.equal(r.settled, true);
  assert.equal(r.hoist, true, 'the branch\'s constant moves into the entry block');
  assert.equal(r.short, r.full);
});

test('float constants\' bits equal to each other or to an entry constant: unsettled (CSE merges them)', () => {
  assert.equal(lowered(ONE, ONE, 7).settled, false);
  assert.equal(lowered(ONE, TWO, TWO).settled, false);
  assert.equal(lowered(TWO, ONE, TWO).settled, false);
});
