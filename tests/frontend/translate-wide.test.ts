// The f64, f16, 16-bit integer and VOP3P translation without a Vulkan device: the engine suite's
// assembly kernels and OpenCL f64_ops/f16_ops (tests/runtime/cases-wide.ts) translated to IR and
// run in the IR interpreter, once with the float ops as they are (evaluated by src/float: this
// checks the frontend's operands, halves, modifiers and modes) and once after lowerFloat turned
// every float op into integer code (this checks the lowering on real kernels); every buffer must
// come out byte for byte as the RDNA interpreter leaves it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildCfg } from '../../src/analysis/cfg.js';
import { analyzeMode } from '../../src/analysis/mode.js';
import { translate } from '../../src/frontend/index.js';
import { GlobalMemory } from '../../src/interp/memory.js';
import { dispatchIr } from '../../src/ir/dispatch.js';
import { lowerFloat } from '../../src/ir/passes/lower-float.js';
import { verifyFunction } from '../../src/ir/verify.js';
import { interpret, type EngineCase } from '../runtime/cases.js';
import { wideAssembly, wideOpenCl } from '../runtime/cases-wide.js';

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
  const mem = new GlobalMemory();
  const kernarg = new Uint8Array(Math.max(64, c.shader.info.kernargSize));
  const kv = new DataView(kernarg.buffer);
  bufs.forEach((b, k) => kv.setBigUint64(8 * k, BigInt(mem.map(`buffer ${k}`, b)), true));
  dispatchIr(fn, c.shader, { grid: c.grid, block: c.block, kernarg, mem, maxSteps: 50_000_000 });
  ref.forEach((b, k) => {
    const x = bufs[k] as Uint8Array;
    const i = b.findIndex((v, j) => v !== x[j]);
    assert.equal(i, -1, `${c.name}${lowered ? ' (lowered)' : ''}: buffer ${k} differs at byte ${i}: interpreter ${Buffer.from(b.subarray(i & ~3, (i & ~3) + 4)).toString('hex')}, IR ${Buffer.from(x.subarray(i & ~3, (i & ~3) + 4)).toString('hex')}`);
  });
}

test('f64/f16/VOP3P/16-bit integer assembly kernels in the IR interpreter equal the RDNA interpreter, float ops as they are and lowered', () => {
  let n = 0;
  for (const c of wideAssembly()) {
    check(c, false);
    // The lowered run is slower in the IR interpreter: every kernel, under its first mode.
    if (c.name.includes('_f0_')) check(c, true);
    n++;
  }
  assert.ok(n >= 50);
});

test('OpenCL f64_ops and f16_ops in the IR interpreter equal the RDNA interpreter, float ops as they are and lowered', () => {
  for (const c of wideOpenCl()) {
    check(c, false);
    if (!c.name.includes('denorms')) check(c, true);
  }
});
