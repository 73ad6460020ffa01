// The remaining float VALU ops (src/frontend/units/valu-float-misc.ts, tests/runtime/cases-vfloat.ts)
// without a Vulkan device: each kernel translated to IR and run in the IR interpreter, once with the
// float ops as they are (evaluated by src/float: this checks the frontend's operands, modifiers,
// modes and compositions) and once after lowerFloat turned every float op into integer code (this
// checks the lowering, src/ir/passes/lower-float-misc.ts among it); every buffer must come out byte
// for byte as the RDNA interpreter leaves it. Every table opcode the unit translates is in a kernel.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildCfg } from '../../src/analysis/cfg.js';
import { analyzeMode } from '../../src/analysis/mode.js';
import { translate } from '../../src/frontend/index.js';
import { VALU_FLOAT_MISC } from '../../src/frontend/units/valu-float-misc.js';
import { dispatchIr } from '../../src/ir/dispatch.js';
import { lowerFloat } from '../../src/ir/passes/lower-float.js';
import { verifyFunction } from '../../src/ir/verify.js';
import { interpret, prepare, type EngineCase } from '../runtime/cases.js';
import { vfloatCases } from '../runtime/cases-vfloat.js';

function check(c: EngineCase, lowered: boolean): void {
  const cfg = buildCfg(c.shader);
  const fn = translate(c.shader, cfg, analyzeMode(c.shader, cfg));
  if (lowered) {
    assert.ok(lowerFloat(fn, () => true) > 0, `${c.name}: float ops lowered`);
    assert.ok(!fn.blocks.some((b) => b.insts.some((i) => i.float)), `${c.name}: no float op left`);
  }
  assert.deepEqual(verifyFunction(fn), []);
  const ref = interpret(c);
  const bufs = c.buffers.map((b) => b.slice());
  const p = prepare(c.shader, bufs, c.grid, c.block, c.scalars);
  dispatchIr(fn, c.shader, { grid: c.grid, block: c.block, kernarg: p.kernarg, mem: p.mem, maxSteps: 50_000_000 });
  assert.ok(ref[1]?.some((v) => v !== 0), `${c.name} wrote its results`);
  ref.forEach((b, k) => {
    const x = bufs[k] as Uint8Array;
    const i = b.findIndex((v, j) => v !== x[j]);
    assert.equal(i, -1, `${c.name}${lowered ? ' (lowered)' : ''}: buffer ${k} differs at byte ${i} (lane ${Math.floor(i / 256)}?): interpreter ${Buffer.from(b.subarray(i & ~3, (i & ~3) + 4)).toString('hex')}, IR ${Buffer.from(x.subarray(i & ~3, (i & ~3) + 4)).toString('hex')}`);
  });
}

test('the remaining float VALU ops in the IR interpreter equal the RDNA interpreter, float ops as they are and lowered, every mode, wave32 and wave64', () => {
  const seen = new Set<string>();
  let n = 0;
  for (const c of vfloatCases()) {
    check(c, false);
    check(c, true);
    for (const b of buildCfg(c.shader).blocks) for (const i of b.instructions) seen.add(i.def.mnemonic);
    n++;
  }
  assert.equal(n, 44);
  assert.deepEqual(Object.keys(VALU_FLOAT_MISC).filter((m) => !seen.has(m)), []);
});
