// The workgroup layout's per-wave storage (src/backend/spirv/emit-state-machine.ts): a module runs
// an RDNA workgroup's waves one after another in one Vulkan workgroup, and only what a wave
// carries across a barrier needs one slot per wave. liveAcrossTurns is checked against a path
// search written here; recompile's workItems sizes the slots (a one-wave workgroup needs none)
// and is refused outside the kernel's bound; the runtime compiles for the dispatch's workgroup.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Block, Inst, IrFunction } from '../../src/ir/ir.js';
import { recompile, maxWorkItems } from '../../src/backend/recompile.js';
import { LAVAPIPE_PROFILE, NVIDIA_H200_PROFILE } from '../../src/backend/profile.js';
import { crossBlockValues, liveAcrossTurns } from '../../src/backend/spirv/emit-state-machine.js';
import { CompileError } from '../../src/backend/spirv/emit.js';
import { disassembleSpirv } from '../../src/backend/spirv/disasm.js';
import { ldsCases } from '../runtime/cases-lds.js';
import { sharedImageCases } from '../runtime/image-vk-cases.js';
import { interpret, prepare, type EngineCase } from '../runtime/cases.js';
import { LVP } from '../runtime/harness.js';
import { runModuleOnVulkan, targetProfile } from '../../src/runtime/engine.js';
import { VulkanDevice } from '../../src/runtime/vulkan.js';

/** The reference: x is live where a wave resumes when a path from a resumption block reaches a use of x without passing x's block. */
function liveByPaths(fn: IrFunction, x: Inst): boolean {
  const yields = (b: Block) => b.terminator?.op === 'Branch' && b.insts[b.insts.length - 2]?.op === 'Barrier';
  const resumes = fn.blocks.filter((b) => b.preds.some(yields));
  const usesIn = (b: Block): boolean => {
    if (b.insts.some((i) => i.op !== 'Phi' && i.block !== x.block && i.args.includes(x))) return true;
    return b.succs(fn).some((s) => s.insts.some((p) => p.op === 'Phi' && p.args[s.preds.indexOf(b)] === x));
  };
  for (const r of resumes) {
    if (r === x.block) continue;
    const seen = new Set<Block>([r]);
    const todo = [r];
    while (todo.length > 0) {
      const b = todo.pop() as Block;
      if (usesIn(b)) return true;
      for (const s of b.succs(fn)) if (s !== x.block && !seen.has(s)) { seen.add(s); todo.push(s); }
    }
  }
  return false;
}

function* barrierKernels(): Generator<EngineCase> {
  yield* ldsCases();
  for (const [, vk] of sharedImageCases()) yield vk;
}

test('liveAcrossTurns keeps exactly the values a path from a resumption block reads before their definition (LDS and image kernels with barriers)', () => {
  let kernels = 0, kept = 0, all = 0;
  const done = new Set<string>();
  for (const c of barrierKernels()) {
    const key = `${c.kernel}/${c.shader.info.waveSize}`;
    if (done.has(key)) continue;
    done.add(key);
    const fn = recompile(c.shader, { profile: LAVAPIPE_PROFILE }).ir;
    if (!fn.blocks.some((b) => b.insts.some((i) => i.op === 'Barrier'))) continue;
    kernels++;
    const { crossed, phis } = crossBlockValues(fn);
    const got = liveAcrossTurns(fn, crossed);
    for (const x of crossed) assert.equal(got.values.has(x), liveByPaths(fn, x), `${key}: %${x.id} (${x.op})`);
    for (const p of phis) assert.equal(got.phis.has(p), (p.block as Block).preds.some((b) => b.terminator?.op === 'Branch' && b.insts[b.insts.length - 2]?.op === 'Barrier'), `${key}: phi %${p.id}`);
    kept += got.values.size;
    all += crossed.length;
  }
  assert.ok(kernels >= 20, `${kernels} kernels with barriers`);
  // Not every cross-block value crosses a barrier: the check above is not vacuous either way.
  assert.ok(kept > 0 && kept < all, `${kept} of ${all} values kept per wave`);
});

/** The module's Function-storage arrays (the per-wave slots and the waves' resume states) by length. */
function functionArrays(words: Uint32Array): number[] {
  const text = disassembleSpirv(words);
  const consts = new Map([...text.matchAll(/^\s*(%\S+) = OpConstant %\S+ (\d+)$/gm)].map((m) => [m[1], Number(m[2])]));
  const arrays = new Map([...text.matchAll(/^\s*(%\S+) = OpTypeArray %\S+ (%\S+)$/gm)].map((m) => [m[1], consts.get(m[2] as string) ?? -1]));
  const ptrs = new Map([...text.matchAll(/^\s*(%\S+) = OpTypePointer Function (%\S+)$/gm)].map((m) => [m[1], m[2]]));
  return [...text.matchAll(/^\s*%\S+ = OpVariable (%\S+) Function/gm)].map((m) => arrays.get(ptrs.get(m[1] as string) as string)).filter((n): n is number => n !== undefined);
}

test('workItems sizes the per-wave slots: none for a one-wave workgroup, a slot per wave for more; outside 1..the kernel\'s bound it is refused', () => {
  const c = [...ldsCases()].find((x) => x.shader.info.waveSize === 32);
  assert.ok(c);
  const s = c.shader;
  const bound = maxWorkItems(s.info);
  assert.ok(bound >= 128, `bound ${bound}`);
  for (const profile of [LAVAPIPE_PROFILE, NVIDIA_H200_PROFILE]) {
    const one = recompile(s, { profile, workItems: 32 });
    assert.equal(one.dispatch, 'workgroup');
    assert.equal(one.workItems, 32);
    // The resume-state array of one wave; no value array.
    assert.deepEqual(functionArrays(one.spirv), [1]);
    const four = recompile(s, { profile, workItems: 128 });
    const lens = functionArrays(four.spirv);
    assert.ok(lens.length > 1 && lens.every((n) => n === 4), lens.join(','));
    assert.equal(recompile(s, { profile }).workItems, bound);
  }
  for (const bad of [0, bound + 1, 2.5]) assert.throws(() => recompile(s, { workItems: bad }), (e: unknown) => e instanceof CompileError && /work-items: the kernel allows 1 to/.test(e.message), String(bad));
});

test('the runtime refuses a dispatch whose workgroups have more work-items than its module was compiled for, and runs the ones it was compiled for', async () => {
  const c = [...ldsCases()].find((x) => x.shader.info.waveSize === 32);
  assert.ok(c);
  const items = c.block[0] * c.block[1] * c.block[2];
  assert.ok(items > 32, `block of ${items}`);
  const dev = VulkanDevice.open({ driverFiles: LVP, validation: true });
  try {
    const small = recompile(c.shader, { profile: targetProfile(dev.profile), workItems: 32 });
    const bufs = c.buffers.map((b) => b.slice());
    await assert.rejects(runModuleOnVulkan(c.shader, small, prepare(c.shader, bufs, c.grid, c.block, c.scalars), dev),
      (e: unknown) => e instanceof Error && new RegExp(`the dispatch's workgroups have ${items} work-items, but the kernel was compiled for at most 32`).test(e.message));
    const fit = recompile(c.shader, { profile: targetProfile(dev.profile), workItems: items });
    await runModuleOnVulkan(c.shader, fit, prepare(c.shader, bufs, c.grid, c.block, c.scalars), dev);
    assert.deepEqual(bufs, interpret(c));
  } finally {
    dev.close();
  }
});
