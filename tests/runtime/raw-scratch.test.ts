// Raw compute shaders with scratch (src/interp/scratch.ts): the dispatch's scratch ring, reached
// through ARGS.json's {"scratch": "vsharp"} (the ring's private segment buffer V#, in the user data
// or in a table) and {"scratch": "base"} (its address, for FLAT_SCRATCH), with the private segment
// wave offset SGPR that COMPUTE_PGM_RSRC2.SCRATCH_EN adds after the user and workgroup-id SGPRs.
// On the interpreter, the IR interpreter and Vulkan (lavapipe), and through `rdna run`.
//
// The expected records are written here from the rules, not read back from an engine:
//  - MUBUF through a swizzled V# with ADD_TID and index stride = the wave size (the V# LLVM's gfx10
//    scratch resource holds) puts private byte o of lane l at base + soffset + floor(o / 4) * 4 *
//    waveSize + 4 * l + o % 4 (RDNA2 ISA, "Buffer Addressing", swizzled); the shader reads one of
//    its own dwords back through a global load at that address computed by hand;
//  - SCRATCH instructions address FLAT_SCRATCH + the same interleaving (the shader sets FLAT_SCRATCH
//    to the ring's base plus its wave offset, as the AMDHSA prologue does);
//  - wave k of the dispatch (workgroups in x order, a workgroup's waves in order) has the wave
//    offset k * scratchSize * waveSize: the engines' documented slot choice.
// The waves of a workgroup all store, meet at s_barrier, then load: overlapping regions would
// change what they read.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadShaders, type Shader } from '../../src/container/shader.js';
import type { Target } from '../../src/isa/types.js';
import { parseArgs, prepareDispatch } from '../../src/interp/args.js';
import { runPlan } from '../../src/interp/sequence.js';
import { recompile } from '../../src/backend/recompile.js';
import { dispatchIr } from '../../src/ir/dispatch.js';
import { runPlanOnVulkan, compileFor } from '../../src/runtime/engine.js';
import { VulkanDevice } from '../../src/runtime/vulkan.js';
import { RuntimeFault } from '../../src/ir/faults.js';
import { InterpError } from '../../src/interp/errors.js';
import { assembleShaders } from '../harness/kernel.js';
import { LVP } from './harness.js';
import { body, CONFIGS, doc, GROUPS, OVERRUN, PER_LANE, RECORD, type Ring, sidecar } from './raw-scratch-kernels.js';

const BIN = new URL('../../bin/rdna', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'rdna-raw-scratch-'));

/** The records the rules give (header). */
function expected(ws: 32 | 64, block: number): Uint32Array {
  const out = new Uint32Array(RECORD * GROUPS * block);
  const wavesPerGroup = Math.ceil(block / ws);
  for (let g = 0; g < GROUPS * block; g++) {
    const d0 = Math.imul(g, 0x9e3779b1) >>> 0;
    const d1 = (d0 + 7) >>> 0, d2 = (d0 ^ 0x55aa55aa) >>> 0, d3 = (g << 3) >>> 0;
    const wave = Math.floor(g / block) * wavesPerGroup + Math.floor((g % block) / ws);
    out.set([g, d3, d2, d1, d0, wave * PER_LANE * ws, d1, d2], g * RECORD);
  }
  return out;
}

function shaderOf(target: Target, ws: 32 | 64, ring: Ring, block: number, past = false, scratchSize = PER_LANE): { shader: Shader; bytes: Uint8Array } {
  const k = assembleShaders(target, [{ name: 'raw', body: body(ws, ring, block, past), wave64: ws === 64 }]).get('raw');
  assert.ok(k);
  const bytes = new Uint8Array(k.words.buffer.slice(k.words.byteOffset, k.words.byteOffset + k.words.byteLength));
  const [shader] = loadShaders({ bytes, name: 'raw', sidecar: { text: JSON.stringify(sidecar(target, ws, ring, block, scratchSize)), where: 'raw.json' } });
  assert.ok(shader);
  return { shader, bytes };
}

const u32s = (b: Uint8Array) => new Uint32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));
const output = (plan: { buffers: readonly { bytes: Uint8Array; table?: boolean }[] }) => u32s((plan.buffers.find((b) => !b.table) as { bytes: Uint8Array }).bytes);


for (const c of CONFIGS) {
  const block = 2 * c.ws;
  test(`raw compute shader with scratch, ${c.target} wave${c.ws}, the ring's V# ${c.ring === 'table' ? 'in a table' : 'in the user data'}: MUBUF, global and SCRATCH views of the ring and the wave offsets, on three engines`, async () => {
    const { shader } = shaderOf(c.target, c.ws, c.ring, block);
    const want = expected(c.ws, block);
    const plan = parseArgs(doc(c.ring, block), [shader]);
    assert.equal(plan.scratchRing !== undefined && plan.buffers[plan.scratchRing]?.bytes.length, GROUPS * 2 * PER_LANE * c.ws, 'the ring holds every wave of the dispatch');
    runPlan(plan, { maxSteps: 1e7 });
    assert.deepEqual(output(plan), want, 'interpreter');
    if (c.ring === 'direct') {
      const prep = prepareDispatch(doc(c.ring, block), shader);
      assert.ok(prep.scratchRing);
      dispatchIr(recompile(shader).ir, shader, { grid: prep.grid, block: prep.block, kernarg: prep.kernarg, mem: prep.mem, maxSteps: 1e7, scratchRing: prep.scratchRing });
      assert.deepEqual(u32s(prep.buffers[0]?.bytes as Uint8Array), want, 'IR interpreter');
    }
    const vplan = parseArgs(doc(c.ring, block), [shader]);
    const dev = VulkanDevice.open({ driverFiles: LVP, validation: true });
    try {
      await runPlanOnVulkan(vplan, [compileFor(shader, dev, 0, block)], dev);
    } finally {
      dev.close();
    }
    assert.deepEqual(output(vplan), want, 'Vulkan');
  });
}

test('raw compute shader with scratch: a store past the lane\'s private bytes (into the next wave\'s region of the ring) stops every engine', async () => {
  const block = 64;
  const { shader } = shaderOf('gfx1030', 32, 'direct', block, true);
  assert.throws(() => runPlan(parseArgs(doc('direct', block), [shader]), { maxSteps: 1e7 }), (e: unknown) => e instanceof InterpError && e.message.includes(OVERRUN));
  const prep = prepareDispatch(doc('direct', block), shader);
  assert.throws(() => dispatchIr(recompile(shader).ir, shader, { grid: prep.grid, block: prep.block, kernarg: prep.kernarg, mem: prep.mem, maxSteps: 1e7, scratchRing: prep.scratchRing }), (e: unknown) => e instanceof Error && e.message.includes(OVERRUN));
  const dev = VulkanDevice.open({ driverFiles: LVP, validation: true });
  try {
    await assert.rejects(runPlanOnVulkan(parseArgs(doc('direct', block), [shader]), [compileFor(shader, dev, 0, block)], dev), (e: unknown) => e instanceof RuntimeFault && /buffer_store_dword v5, off, s\[4:7\], s9 offset:16/.test(e.message) && e.message.includes(OVERRUN));
  } finally {
    dev.close();
  }
});

test('rdna run on a raw compute shader with scratch: both engines print the records, not the ring', () => {
  const block = 64;
  const { bytes } = shaderOf('gfx1030', 32, 'table', block);
  const bin = join(dir, 'scratch.bin');
  writeFileSync(bin, bytes);
  writeFileSync(join(dir, 'scratch.json'), JSON.stringify(sidecar('gfx1030', 32, 'table', block)));
  const args = join(dir, 'scratch-args.json');
  writeFileSync(args, JSON.stringify(doc('table', block)));
  for (const engine of ['interp', 'vulkan']) {
    const r = spawnSync(process.execPath, [BIN, 'run', bin, '--args', args, '--engine', engine, '--json'], { encoding: 'utf8', env: { ...process.env, VK_DRIVER_FILES: LVP } });
    assert.equal(r.status, 0, r.stderr);
    const o = JSON.parse(r.stdout) as { buffers: { name?: string; base64: string }[] };
    assert.equal(o.buffers.length, 1, engine);
    assert.deepEqual([...u32s(new Uint8Array(Buffer.from(o.buffers[0]?.base64 ?? '', 'base64')))], [...expected(32, block)], engine);
  }
});

test('raw compute shader with scratch: ARGS mistakes are one line naming them', () => {
  const block = 64;
  const { shader } = shaderOf('gfx1030', 32, 'direct', block);
  const d = doc('direct', block);
  assert.throws(() => parseArgs({ ...d, args: { ...d.args, ring: { scratch: 'ring' } } }, [shader]), /user-data slot ring \(s4\.\.s7\): a scratch item is \{"scratch": "vsharp"\}/);
  assert.throws(() => parseArgs({ ...d, args: { ...d.args, ring: { scratch: 'base' } } }, [shader]), /user-data slot ring \(s4\.\.s7\): the scratch ring's address takes 2 SGPRs, the slot has 4/);
  const none = shaderOf('gfx1030', 32, 'direct', block, false, 0).shader;
  assert.throws(() => parseArgs(d, [none]), /shader raw has no scratch \(its sidecar's scratchSize is 0\), so there is no scratch ring to point at/);
  const huge = shaderOf('gfx1030', 32, 'direct', block, false, 1 << 20).shader;
  assert.throws(() => parseArgs({ ...d, grid: [64 * block, 1, 1] }, [huge]), /needs a scratch ring of 4294967296 bytes .*the engines allocate at most 1073741824/);
  // A raw shader with scratch but no ring: the dispatch says what it needs.
  const prep = prepareDispatch({ ...d, args: { ...d.args, base: { u32x2: [0, 0] }, ring: { u32x4: [0, 0, 0, 0] } } }, shader);
  assert.ok(prep.scratchRing, 'the plan has a ring for any raw shader with scratch');
});
