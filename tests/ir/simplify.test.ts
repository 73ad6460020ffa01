// Algebraic simplification (src/ir/passes/simplify.ts): a lane's bit of a ballot is the lane's
// bool only when the ballot covers the whole wave (BallotHi of the same bool in wave64, the
// constant 0 in wave32) and the bit asked for is the lane's own; selects of one value and nested
// selects on the same condition. Each rule is checked where it must apply and where it must not.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Builder, type Inst, IrFunction } from '../../src/ir/ir.js';
import { simplify } from '../../src/ir/passes/simplify.js';
import { eliminateDeadCode } from '../../src/ir/passes/dce.js';

function kernel(waveSize: 32 | 64, body: (b: Builder, x: Inst, y: Inst) => Inst[]): { fn: IrFunction; outs: Inst[] } {
  const fn = new IrFunction('k', waveSize);
  const b = new Builder(fn, fn.addBlock());
  const x = b.emit('ULt32', [b.emit('LocalId', [], [0]), b.u32(5)]);
  const y = b.emit('ULt32', [b.emit('LocalId', [], [0]), b.u32(9)]);
  const outs = body(b, x, y);
  const ptr = b.emit('KernargPtr');
  for (const o of outs) b.emit('StoreGlobal32', [b.u1(true), ptr, o.type === 'u1' ? b.emit('U1ToU32', [o]) : o]);
  b.emit('EndProgram');
  fn.computePreds();
  return { fn, outs };
}
/** What each store writes after simplify + DCE (the U1ToU32's argument for bools). */
function stored(fn: IrFunction): Inst[] {
  return (fn.blocks[0]?.insts ?? []).filter((i) => i.op === 'StoreGlobal32').map((s) => { const v = s.args[2] as Inst; return v.op === 'U1ToU32' ? v.args[0] as Inst : v; });
}

test('simplify: LaneBit of a whole-wave ballot at the own lane is the bool (wave32 and wave64)', () => {
  for (const ws of [32, 64] as const) {
    const { fn } = kernel(ws, (b, x) => {
      const hi = ws === 64 ? b.emit('BallotHi', [x]) : b.u32(0);
      return [b.emit('LaneBit', [b.emit('BallotLo', [x]), hi, b.emit('LaneId')])];
    });
    assert.equal(simplify(fn), 1);
    eliminateDeadCode(fn);
    const [v] = stored(fn);
    assert.equal(v?.op, 'ULt32');
    assert.ok(!fn.blocks[0]?.insts.some((i) => i.op === 'BallotLo' || i.op === 'BallotHi'), 'the unused ballots are removed');
  }
});

test('simplify: LaneBit stays when the ballot is not the whole wave of one bool or the lane is another', () => {
  const cases: [32 | 64, (b: Builder, x: Inst, y: Inst) => Inst][] = [
    [64, (b, x, y) => b.emit('LaneBit', [b.emit('BallotLo', [x]), b.emit('BallotHi', [y]), b.emit('LaneId')])],
    [64, (b, x) => b.emit('LaneBit', [b.emit('BallotLo', [x]), b.u32(0), b.emit('LaneId')])],
    [32, (b, x) => b.emit('LaneBit', [b.emit('BallotLo', [x]), b.u32(1), b.emit('LaneId')])],
    [32, (b, x) => b.emit('LaneBit', [b.emit('BallotLo', [x]), b.u32(0), b.u32(3)])],
    [32, (b, x) => b.emit('LaneBit', [b.emit('BallotHi', [x]), b.u32(0), b.emit('LaneId')])],
  ];
  for (const [ws, make] of cases) {
    const { fn } = kernel(ws, (b, x, y) => [make(b, x, y)]);
    assert.equal(simplify(fn), 0);
    assert.equal(stored(fn)[0]?.op, 'LaneBit');
  }
});

test('simplify: Select32 of one value, and a select of a select on the same condition', () => {
  const { fn } = kernel(32, (b, x, y) => {
    const p = b.u32(11), q = b.u32(22), r = b.u32(33);
    const same = b.emit('Select32', [x, p, p]);
    const inner = b.emit('Select32', [x, q, r]);
    const nested = b.emit('Select32', [x, p, inner]);
    const otherCond = b.emit('Select32', [y, p, inner]);
    return [same, nested, otherCond, inner];
  });
  simplify(fn);
  const [same, nested, otherCond, inner] = stored(fn);
  assert.equal(same?.op, 'ConstU32');
  assert.equal(same?.imms[0], 11);
  // Select(x, 11, Select(x, 22, 33)) = Select(x, 11, 33); on another condition it keeps the inner select.
  assert.equal(nested?.op, 'Select32');
  assert.deepEqual(nested?.args.slice(1).map((a) => a.imms[0]), [11, 33]);
  assert.equal(otherCond?.args[2], inner);
  assert.deepEqual(inner?.args.slice(1).map((a) => a.imms[0]), [22, 33]);
});
