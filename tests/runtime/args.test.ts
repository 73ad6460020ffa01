// Issue 10 on the Vulkan engine (lavapipe, Khronos validation layer on: any validation error fails
// the run): the args.cl kernels (tests/interp/args-cases.ts: a struct, float4/int4/float3 and 64-bit
// values by value, arguments by name, the LU step loop and the integer ping-pong loop, 2D and 3D
// grids), wave32 and wave64, recompiled once per kernel and run through `runPlanOnVulkan`, every
// buffer byte for byte equal to pocl's (the same document on pocl) and to the interpreter's; the
// sequences also cut into many submissions (buffers round-trip between them) and a 5,000-dispatch
// loop in two submissions; pipelines built once per kernel however many dispatches run; the __local
// kernel fails to recompile with the pc of its first LDS instruction (issue 7); a fault in the
// third dispatch of a sequence names that dispatch; `rdna run --engine vulkan` on a sequence; the
// addon's runSteps refusing bad steps.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Shader } from '../../src/container/shader.js';
import { loadShaders } from '../../src/container/shader.js';
import { encodeBase64 } from '../../src/interp/base64.js';
import { parseArgs, type ArgsPlan } from '../../src/interp/args.js';
import { runPlan } from '../../src/interp/sequence.js';
import { TranslateError } from '../../src/frontend/errors.js';
import { compileFor, planLdsBytes, RuntimeFault, runPlanOnVulkan, STEPS_PER_SUBMISSION } from '../../src/runtime/engine.js';
import { VulkanDevice, VulkanError } from '../../src/runtime/vulkan.js';
import { spirvVal } from '../harness/spirv.js';
import { buildOpenCl } from '../harness/opencl.js';
import { argsCases, compileArgs, firstDiff, pocl } from '../interp/args-cases.js';
import { LVP } from './harness.js';

const BIN = new URL('../../bin/rdna', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'rdna-args-vk-'));
let dev: VulkanDevice;
before(() => { dev = VulkanDevice.open({ driverFiles: LVP, validation: true }); });
after(() => dev.close());

const waves = [false, true].map((w) => loadShaders({ bytes: new Uint8Array(readFileSync(compileArgs(w))), name: 'args.cl' }));
/** A document's kernels: the one it names (one dispatch), every kernel of the file (a sequence). */
const plan = (doc: object, shaders: readonly Shader[]): ArgsPlan => parseArgs(structuredClone(doc), 'dispatches' in doc ? shaders : shaders.filter((s) => s.info.name === (doc as { kernel: string }).kernel));
const validated = new Set<Uint32Array>();

/** The document on Vulkan: every buffer as base64 after the run, and the run's result. */
async function vulkan(doc: object, shaders: readonly Shader[], perSubmission?: number) {
  const p = plan(doc, shaders);
  const compiled = p.kernels.map((s) => compileFor(s, dev, planLdsBytes(p, s)));
  for (const c of compiled) if (!validated.has(c.spirv)) { spirvVal(c.spirv, c.shader.info.name); validated.add(c.spirv); }
  const r = await runPlanOnVulkan(p, compiled, dev, perSubmission !== undefined ? { perSubmission } : {});
  return { r, out: p.buffers.map((b) => encodeBase64(b.bytes)) };
}

function interp(doc: object, shaders: readonly Shader[]): string[] {
  const p = plan(doc, shaders);
  runPlan(p, { maxSteps: 1e9 });
  return p.buffers.map((b) => encodeBase64(b.bytes));
}

function equal(what: string, got: readonly string[], want: readonly string[]): void {
  assert.equal(got.length, want.length, what);
  got.forEach((g, i) => assert.ok(g === want[i], `${what}: buffer ${i} differs at ${firstDiff(g, want[i] ?? '')}`));
}

test('args.cl kernels on Vulkan equal pocl and the interpreter, wave32 and wave64; sequences also across many submissions', async () => {
  const cases = argsCases();
  for (const [k, c] of cases.entries()) {
    if (c.vulkan !== true) continue;
    const file = join(dir, `case${k}.json`);
    writeFileSync(file, JSON.stringify(c.doc));
    const want = pocl(file).map((b) => b.base64);
    for (const [w, shaders] of waves.entries()) {
      const name = `${c.name} (wave${w ? 64 : 32})`;
      const { r, out } = await vulkan(c.doc, shaders);
      equal(`${name} vs pocl`, out, want);
      equal(`${name} interpreter vs pocl`, interp(c.doc, shaders), want);
      if (!('dispatches' in c.doc)) { assert.equal(r.submissions, 1); continue; }
      assert.ok(r.dispatches > 40 && r.submissions === 1, `${name}: ${r.dispatches} dispatches in ${r.submissions} submissions`);
      // Seven dispatches per submission: the buffers go back and forth between submissions, the result is the same.
      const misses = dev.cacheStats().pipelineMisses;
      const cut = await vulkan(c.doc, shaders, 7);
      assert.equal(cut.r.submissions, Math.ceil(r.dispatches / 7));
      equal(`${name} in submissions of 7`, cut.out, want);
      assert.equal(dev.cacheStats().pipelineMisses, misses, `${name}: the pipelines of the first run serve every submission of the second`);
    }
  }
});

test('a loop of 5,000 dispatches: two submissions, one pipeline per kernel, equal to pocl', async () => {
  const r0 = new Uint32Array(64).map((_, i) => (i * 2654435761 + 12345) >>> 0);
  const doc = {
    buffers: { X: { buffer: 'u32', data: [...r0] }, Y: { buffer: 'u32', size: 256 } },
    dispatches: [{ repeat: 2500, index: 'k', start: 3, step: 2, dispatches: [
      { kernel: 'mix_a', grid: [64], block: [16], args: [{ ref: 'X' }, { ref: 'Y' }, { u32: { index: 'k' } }] },
      { kernel: 'mix_b', grid: [64], block: [16], args: [{ ref: 'Y' }, { ref: 'X' }, { u32: { index: 'k', add: 1 } }] },
    ] }],
  };
  const file = join(dir, 'long.json');
  writeFileSync(file, JSON.stringify(doc));
  const want = pocl(file).map((b) => b.base64);
  const before = dev.cacheStats();
  const { r, out } = await vulkan(doc, waves[0] ?? []);
  assert.deepEqual([r.dispatches, r.submissions], [5000, Math.ceil(5000 / STEPS_PER_SUBMISSION)]);
  assert.ok(dev.cacheStats().pipelineMisses - before.pipelineMisses <= 2, 'at most one pipeline per kernel');
  equal('5,000 dispatches vs pocl', out, want);
});

test('__local kernels: rdna run --engine vulkan lays out the dynamic LDS as the interpreter does and equals pocl; a kernel compiled for another LDS size is refused', async () => {
  const c = argsCases()[0] as { doc: object };
  const file = join(dir, 'local.json');
  writeFileSync(file, JSON.stringify(c.doc));
  const want = pocl(file).map((b) => b.base64);
  const r = spawnSync(process.execPath, [BIN, 'run', compileArgs(false), '--args', file, '--engine', 'vulkan', '--json'], { encoding: 'utf8', env: { ...process.env, VK_DRIVER_FILES: LVP } });
  assert.equal(r.status, 0, r.stderr);
  const got = (JSON.parse(r.stdout) as { buffers: { base64: string }[] }).buffers.map((b) => b.base64);
  equal('rdna run --engine vulkan local_sum vs pocl', got, want);
  // Compiled for the static LDS alone, the dispatch (with 768 bytes of __local arguments) is refused.
  for (const shaders of waves) {
    const p = plan(c.doc, shaders);
    const k = compileFor(p.kernels[0] as Shader, dev);
    await assert.rejects(runPlanOnVulkan(p, [k], dev), (e: unknown) => e instanceof VulkanError && /local_sum: the dispatch has \d+ bytes of LDS, but the kernel was compiled for \d+/.test(e.message));
  }
});

test('a run-time fault in a sequence names the dispatch; rdna run --engine vulkan on a sequence prints the named buffers', async () => {
  // private_pick (interp-bytes.cl, built for the SCRATCH instructions): which = 4096 reads past the lane's scratch, a run-time fault on Vulkan.
  const flat = loadShaders({ bytes: new Uint8Array(readFileSync(buildOpenCl('interp-bytes.cl', { options: ['-cl-std=CL2.0', '-Xclang', '-target-feature', '-Xclang', '+enable-flat-scratch'] }))), name: 'bytes' });
  const pick = (which: object) => ({ kernel: 'private_pick', grid: [64], block: [64], args: [{ ref: 'in' }, { ref: 'out' }, { i32: which }] });
  const doc = { buffers: { in: { buffer: 'i32', data: Array.from({ length: 64 }, (_, k) => k) }, out: { buffer: 'i32', size: 256 } } };
  const ok = { ...doc, dispatches: [{ repeat: 2, index: 'k', step: 0, dispatches: [pick({ index: 'k' })] }] }; // which = 0, 0: inside the private array
  const c = parseArgs(ok, flat).kernels.map((s) => compileFor(s, dev));
  await runPlanOnVulkan(parseArgs(ok, flat), c, dev);
  const bad = { ...doc, dispatches: [...ok.dispatches, { kernel: 'private_pick', grid: [64], block: [64], args: [{ ref: 'in' }, { ref: 'out' }, { i32: 4096 }] }] };
  await assert.rejects(runPlanOnVulkan(parseArgs(bad, flat), c, dev, { perSubmission: 1 }), (e: unknown) => e instanceof RuntimeFault && /^pc 0x[0-9a-f]+: scratch_load_dword .*: a scratch access \(SCRATCH, FLAT in the private aperture, or a buffer access through the private segment buffer\) outside the wave's scratch region \(dispatch 3 of 3 \(dispatches\[1\]: private_pick\)\)$/.test(e.message));
  await assert.rejects(runPlanOnVulkan(parseArgs(bad, flat), c, dev), (e: unknown) => e instanceof RuntimeFault && /\(in one of the 3 dispatches of private_pick from dispatch 1 of 3 \(dispatches\[0\]\.dispatches\[0\]: private_pick, k = 0\) to dispatch 3 of 3 \(dispatches\[1\]: private_pick\)\)$/.test(e.message));

  const lu = argsCases().find((x) => x.name === 'LU sequence');
  assert.ok(lu);
  const file = join(dir, 'lu.json');
  writeFileSync(file, JSON.stringify(lu.doc));
  const r = spawnSync(process.execPath, [BIN, 'run', compileArgs(true), '--args', file, '--engine', 'vulkan', '--json'], { encoding: 'utf8', env: { ...process.env, VK_DRIVER_FILES: LVP, RDNA_VULKAN_VALIDATION: '1' }, maxBuffer: 1 << 26 });
  assert.equal(r.status, 0, r.stderr);
  const j = JSON.parse(r.stdout) as { engine: string; device: string; kernels: string[]; buffers: { name: string; base64: string }[]; stats: { dispatches: number; submissions: number } };
  assert.deepEqual([j.engine, j.kernels, j.buffers.map((b) => b.name), j.stats.dispatches, j.stats.submissions], ['vulkan', ['lu_col', 'lu_sub'], ['A'], 46, 1]);
  equal('rdna run --engine vulkan LU', j.buffers.map((b) => b.base64), pocl(file).map((b) => b.base64));
  const t = spawnSync(process.execPath, [BIN, 'run', compileArgs(true), '--args', file, '--engine', 'vulkan'], { encoding: 'utf8', env: { ...process.env, VK_DRIVER_FILES: LVP } });
  assert.equal(t.status, 0, t.stderr);
  assert.match(t.stdout, /^sequence of 46 dispatches \(lu_col, lu_sub\): on .* in 1 submission, \d+ waves, recompiled in [\d.]+ ms, ran in [\d.]+ ms\n  buffer A \(f32, 2304 bytes\): \[/);
});

test('runSteps refuses bad steps with a one-line error and runs nothing', async () => {
  const k = compileFor(waves[0]?.find((s) => s.info.name === 'mix_b') as Shader, dev);
  const kernels = [{ spirv: k.spirv, entry: 'main' }];
  const bufs = [new Uint8Array(64)];
  const cases: [Parameters<VulkanDevice['runSteps']>[2], object, RegExp][] = [
    [{ kernel: new Uint32Array([1]), groups: new Uint32Array([1, 1, 1]) }, {}, /runSteps: step 0 names kernel 1 of 1/],
    [{ kernel: new Uint32Array([0, 0]), groups: new Uint32Array([1, 1, 1]) }, {}, /steps.groups must hold 3 numbers per step/],
    [{ kernel: new Uint32Array([0]), groups: new Uint32Array([1, 0, 1]) }, {}, /groups\[1\] = 0, must be an integer 1\.\./],
    [{ kernel: new Uint32Array(0), groups: new Uint32Array(0) }, {}, /0 steps, must be 1\.\.65536/],
    [{ kernel: new Uint32Array([0]), groups: new Uint32Array([1, 1, 1]), push: new Uint8Array(129) }, {}, /129 bytes per step, over 128/],
    [{ kernel: new Uint32Array([0]), groups: new Uint32Array([1, 1, 1]) }, { addressPatches: [{ buffer: 0, into: 'push', offset: 0, step: 1 }] }, /address patch: step out of range/],
    [{ kernel: new Uint32Array([0]), groups: new Uint32Array([1, 1, 1]) }, { addressPatches: [{ buffer: 0, into: 0, offset: 0, add: -1 }] }, /address patch: add must be an integer/],
  ];
  for (const [steps, options, re] of cases) {
    await assert.rejects(dev.runSteps(kernels, bufs, steps, options), (e: unknown) => e instanceof VulkanError && re.test(e.message) && !e.message.includes('\n'), String(re));
  }
  await assert.rejects(dev.runSteps([], bufs, { kernel: new Uint32Array([0]), groups: new Uint32Array([1, 1, 1]) }), /0 kernels, must be 1\.\.16/);
});
