// The helpers' SPIR-V is recorded once per process and copied into each module that calls it
// (src/backend/spirv/emit.ts helperSpirv, Module.recordFunction / emitRelocatable). The copy must
// be the module a walk of the helpers' IR gives (the same instructions in the same order, only the
// ids numbered otherwise), the words must not depend on what the process compiled before (the
// shader cache relies on that), and kernels that share helpers must validate and run in any order.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { recompile } from '../../src/backend/recompile.js';
import { LAVAPIPE_PROFILE } from '../../src/backend/profile.js';
import { emitSpirv } from '../../src/backend/spirv/emit.js';
import { Module } from '../../src/backend/spirv/module.js';
import type { Id } from '../../src/backend/spirv/operands.js';
import { BuilderError } from '../../src/backend/spirv/operands.js';
import { VulkanDevice } from '../../src/runtime/vulkan.js';
import type { Shader } from '../../src/container/shader.js';
import { helperCacheShaders } from './helper-cache.kernels.js';
import { canonicalSpirv, spirvVal } from '../harness/spirv.js';
import { both, LVP, same } from '../runtime/harness.js';

const shaders = helperCacheShaders();
const byName = (n: string): Shader => shaders.find((s) => s.info.name === n) ?? assert.fail(n);
const hash = (w: Uint32Array): string => createHash('sha256').update(new Uint8Array(w.buffer, w.byteOffset, w.byteLength)).digest('hex');

// First in this process: the helpers are recorded during this compile.
const first = new Map(shaders.map((s) => [s.info.name, recompile(s).spirv] as const));

test('copied helpers give the module a walk of their IR gives, but for the id numbering', () => {
  for (const s of shaders) {
    const r = recompile(s);
    assert.ok(r.ir.helpers.length >= 4, `${s.info.name}: ${r.ir.helpers.length} helpers`);
    const walked = emitSpirv(r.ir, LAVAPIPE_PROFILE, { walkHelpers: true }).spirv;
    assert.equal(walked.length, r.spirv.length, s.info.name);
    assert.equal(canonicalSpirv(r.spirv), canonicalSpirv(walked), s.info.name);
    assert.equal(r.spirv[3], walked[3], `${s.info.name}: the same id bound`);
    spirvVal(r.spirv, s.info.name);
    spirvVal(walked, `${s.info.name} (walked)`);
  }
});

test('the same kernel gives the same words, whatever the process compiled before', () => {
  // Again in this process (helpers copied from the cache), in the other order.
  for (const s of [...shaders].reverse()) assert.equal(hash(recompile(s).spirv), hash(first.get(s.info.name) as Uint32Array), s.info.name);
  // In a fresh process that compiles them in the other order (B before A: B's helpers recorded first).
  const src = new URL('./helper-cache.child.ts', import.meta.url).pathname;
  const names = [...shaders].reverse().map((s) => s.info.name);
  const child = spawnSync(process.execPath, ['--import', 'tsx', src, ...names], { encoding: 'utf8' });
  assert.equal(child.status, 0, child.stderr);
  const hashes = child.stdout.trim().split('\n');
  names.forEach((n, k) => assert.equal(hashes[k], hash(first.get(n) as Uint32Array), n));
});

test('kernels sharing helpers run on lavapipe equal to the interpreter, in either order', async () => {
  assert.ok(LVP, 'lavapipe (mesa-vulkan-drivers) is not installed');
  const dev = VulkanDevice.open({ driverFiles: LVP, validation: true });
  try {
    for (const order of [['share_b', 'share_a_w64', 'share_a', 'share_b_w64'], ['share_a', 'share_b', 'share_b_w64', 'share_a_w64']]) {
      for (const n of order) {
        const s = byName(n);
        const lanes = s.info.waveSize;
        const input = new Uint8Array(4 * lanes);
        const view = new DataView(input.buffer);
        for (let k = 0; k < lanes; k++) view.setFloat32(4 * k, (k - 7) * 1.37e-3 + (k & 3) * 1e30 * (k % 5 === 0 ? 1 : 0), true);
        same(n, await both(dev, { shader: s, buffers: [input, new Uint8Array(4 * lanes)], grid: [lanes, 1, 1], block: [lanes, 1, 1] }));
      }
    }
  } finally {
    dev.close();
  }
});

test("a copy of a function that calls the module's own functions (externals) is the function its methods emit there", () => {
  // An id allocated before a value it follows (a merge label, as emitGuardedFn's): the copy numbers
  // the function's ids in the order they were allocated, as the methods do.
  const body = (m: Module, fn: Id, callee: Id): void => {
    const u32 = m.OpTypeInt(32, 0);
    m.emit('OpFunction', [u32, 'None', m.OpTypeFunction(u32, u32)], fn);
    const p = m.OpFunctionParameter(u32);
    m.OpLabel();
    const next = m.allocateId();
    const v = m.OpFunctionCall(u32, callee, p);
    m.OpBranch(next);
    m.label(next);
    m.OpReturnValue(m.OpIAdd(u32, v, m.constant(u32, 1)));
    m.OpFunctionEnd();
  };
  const recorded = Module.recordFunction({}, (m, fn, [callee]) => body(m, fn, callee as Id), 1);
  const module = (copy: boolean): Uint32Array => {
    const m = new Module();
    m.OpCapability('Shader');
    m.OpMemoryModel('Logical', 'GLSL450');
    const u32 = m.OpTypeInt(32, 0);
    m.constant(u32, 1);
    const callee = m.allocateId(), fn = m.allocateId();
    m.emit('OpFunction', [u32, 'None', m.OpTypeFunction(u32, u32)], callee);
    const x = m.OpFunctionParameter(u32);
    m.OpLabel();
    m.OpReturnValue(x);
    m.OpFunctionEnd();
    if (copy) m.emitRelocatable(recorded, fn, [callee]);
    else body(m, fn, callee);
    return m.assemble();
  };
  assert.deepEqual(module(true), module(false));
  const m = new Module();
  assert.throws(() => m.emitRelocatable(recorded, m.allocateId()), (e: unknown) => e instanceof BuilderError && /1 external ids, 0 given/.test(e.message));
  // A module-level instruction (a name) of an external: the copy could not patch it.
  assert.throws(() => Module.recordFunction({}, (r, fn, [callee]) => {
    r.OpName(callee as Id, 'callee');
    const u32 = r.OpTypeInt(32, 0);
    r.emit('OpFunction', [u32, 'None', r.OpTypeFunction(u32)], fn);
    r.OpLabel();
    r.OpReturnValue(r.constant(u32, 0));
    r.OpFunctionEnd();
  }, 1), (e: unknown) => e instanceof BuilderError && /cannot refer to an external id/.test(e.message));
});

test('recordFunction refuses what a copy cannot carry', () => {
  assert.throws(() => Module.recordFunction({}, (m, fn) => {
    const u32 = m.OpTypeInt(32, 0);
    m.OpVariable(m.OpTypePointer('Private', u32), 'Private');
    m.emit('OpFunction', [u32, 'None', m.OpTypeFunction(u32)], fn);
    m.OpLabel();
    m.OpReturnValue(m.constant(u32, 1));
    m.OpFunctionEnd();
  }), (e: unknown) => e instanceof BuilderError && /OpVariable: is not relocatable/.test(e.message));
  assert.throws(() => Module.recordFunction({}, (m, fn) => {
    const u32 = m.OpTypeInt(32, 0);
    m.emit('OpFunction', [u32, 'None', m.OpTypeFunction(u32)], fn);
    m.OpLabel();
  }), (e: unknown) => e instanceof BuilderError && /not finished/.test(e.message));
});
