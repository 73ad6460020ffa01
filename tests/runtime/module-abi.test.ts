// docs/MODULE_ABI.md is enough to run a module: modules from `rdna compile` (a file, as an
// emulator would take them) run through the addon's raw runSteps with the push block, buffers,
// Vulkan dispatch and fault word laid out here from that page alone (not through
// src/runtime/engine.ts), equal to the interpreter; and the page's push-block table is the code's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PUSH, SINK } from '../../src/backend/spirv/emit.js';
import { dispatchPacket, kernargSegment } from '../../src/interp/dispatch.js';
import { type AddressPatch, VulkanDevice } from '../../src/runtime/vulkan.js';
import { ENGINE_SUITES, interpret, type EngineCase } from './cases.js';
import { ldsCases } from './cases-lds.js';
import { LVP } from './harness.js';
import { buildOpenCl } from '../harness/opencl.js';

const BIN = new URL('../../bin/rdna', import.meta.url).pathname;
const DOC = readFileSync(new URL('../../docs/MODULE_ABI.md', import.meta.url), 'utf8');
const dir = mkdtempSync(join(tmpdir(), 'rdna-abi-'));

test('MODULE_ABI.md\'s push-constant table and sink offsets are the emitter\'s', () => {
  const rows = [...DOC.matchAll(/^\| (\d+) \| (u64|u32|u32 × 3) \| (\w+) \|/gm)].map((m) => [m[3], Number(m[1])] as const);
  const code = Object.entries(PUSH).filter(([k]) => k !== 'size');
  assert.deepEqual(rows, code);
  assert.match(DOC, new RegExp(`push-constant block \\(${PUSH.size} bytes`));
  assert.match(DOC, new RegExp(`u32 at byte ${SINK.fault} of the sink buffer`));
  assert.match(DOC, new RegExp(`sink buffer: ${SINK.bytes} bytes`));
});

interface CompileJson { dispatch: 'wave' | 'workgroup'; workItems: number; waveSize: number; laneExchange: { kind: string; requiredSubgroupSize?: number }; faults: { pc: number; instruction: string; message: string }[] }

/** The case through `rdna compile --json` and runSteps, as MODULE_ABI.md says; returns the case's buffers after the run. */
async function runAsDocumented(dev: VulkanDevice, c: EngineCase, more: readonly string[] = []): Promise<{ buffers: Uint8Array[]; json: CompileJson; spirv: Uint32Array }> {
  const obj = join(dir, `${c.spirvName}.o`), spv = join(dir, `${c.spirvName}${more.join('')}.spv`);
  writeFileSync(obj, c.code);
  const r = spawnSync(process.execPath, [BIN, 'compile', obj, '--kernel', c.kernel, '-o', spv, '--json', '--no-cache', ...more], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const json = JSON.parse(r.stdout) as CompileJson;
  const b = readFileSync(spv);
  const spirv = new Uint32Array(b.buffer, b.byteOffset, b.byteLength / 4);
  const info = c.shader.info;
  const [gx, gy, gz] = c.grid, [bx, by, bz] = c.block;
  const items = bx * by * bz;
  assert.ok(items <= json.workItems);
  const wavesPerGroup = Math.ceil(items / json.waveSize);
  const groupsX = Math.ceil(gx / bx), groupsY = Math.ceil(gy / by), groups = groupsX * groupsY * Math.ceil(gz / bz);
  const vk = json.dispatch === 'wave' ? groups * wavesPerGroup : groups;
  const vkGroupsX = Math.min(vk, 65535);
  // Buffers: 0 the kernarg segment and (at 256) the packet, 1 the sink, then the case's.
  const explicit = new Uint8Array(Math.max(64, info.kernargSize));
  const ev = new DataView(explicit.buffer);
  for (const [off, v] of c.scalars) ev.setUint32(off, v, true);
  const kernarg = kernargSegment(info, explicit, c.grid, c.block);
  const PKT = Math.ceil(kernarg.length / 256) * 256;
  const arena = new Uint8Array(PKT + 64);
  arena.set(kernarg, 0);
  arena.set(dispatchPacket(c.grid, c.block, 0, info.ldsSize, info.scratchSize), PKT);
  const push = new Uint8Array(PUSH.size);
  const pv = new DataView(push.buffer);
  c.grid.forEach((g, k) => pv.setUint32(24 + 4 * k, g, true));
  c.block.forEach((g, k) => pv.setUint32(36 + 4 * k, g, true));
  pv.setUint32(48, wavesPerGroup, true);
  pv.setUint32(52, groupsX, true);
  pv.setUint32(56, groupsY, true);
  pv.setUint32(60, vkGroupsX, true);
  const patches: AddressPatch[] = [
    { buffer: 0, into: 'push', offset: 0 }, { buffer: 0, into: 'push', offset: 8, add: PKT }, { buffer: 1, into: 'push', offset: 16 },
    { buffer: 0, into: 0, offset: PKT + 40 },
    ...c.buffers.map((_, k) => ({ buffer: 2 + k, into: 0, offset: 8 * k })),
  ];
  const sink = new Uint8Array(SINK.bytes);
  const bufs = c.buffers.map((x) => x.slice());
  const subgroup = json.laneExchange.kind === 'subgroup' ? { requiredSubgroupSize: json.laneExchange.requiredSubgroupSize as number, fullSubgroups: true } : {};
  await dev.runSteps([{ spirv, entry: 'main' }], [arena, sink, ...bufs], { kernel: new Uint32Array([0]), groups: new Uint32Array([vkGroupsX, Math.ceil(vk / vkGroupsX), 1]), push },
    { addressPatches: patches, deviceAddressBuffers: true, pushBytes: PUSH.size, ...subgroup });
  assert.equal(new DataView(sink.buffer).getUint32(128, true), 0, 'the fault word');
  return { buffers: bufs, json, spirv };
}

test('modules from rdna compile run on the addon\'s raw runSteps from MODULE_ABI.md alone, equal to the interpreter (a wave module and a workgroup module with LDS and barriers)', async () => {
  const wave = ENGINE_SUITES[0]?.cases().next().value as EngineCase | undefined;
  const lds = ldsCases().next().value as EngineCase | undefined;
  assert.ok(wave && lds && wave.shader.info.scratchSize === 0 && lds.shader.info.scratchSize === 0);
  const dev = VulkanDevice.open({ driverFiles: LVP, validation: true });
  try {
    const layouts = [];
    for (const c of [wave, lds]) {
      const { buffers, json } = await runAsDocumented(dev, c);
      layouts.push(json.dispatch);
      assert.notDeepEqual(buffers, c.buffers, `${c.name}: the kernel wrote its results`);
      assert.deepEqual(buffers, interpret(c), c.name);
    }
    assert.deepEqual(layouts, ['wave', 'workgroup']);
  } finally {
    dev.close();
  }
});

test('rdna compile --json names the fault sites (the fault word\'s meaning) and the largest workgroup', () => {
  const obj = buildOpenCl('trap.cl', { wave64: false });
  const r = spawnSync(process.execPath, [BIN, 'compile', obj, '--kernel', 'trap_if_negative', '-o', join(dir, 'trap.spv'), '--json', '--no-cache'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const j = JSON.parse(r.stdout) as CompileJson;
  assert.ok(j.faults.some((f) => f.instruction === 's_trap 2' && /the program trapped/.test(f.message) && f.pc > 0), JSON.stringify(j.faults));
  assert.equal(j.dispatch, 'wave');
  assert.equal(j.waveSize, 32);
  // clang's OpenCL kernels declare .max_flat_workgroup_size 256.
  assert.equal(j.workItems, 256);
});

test('rdna compile --work-items: a workgroup module compiled for its dispatch\'s workgroup (fewer per-wave slots) runs as documented; outside 1..the kernel\'s bound refused in one line', async () => {
  const lds = ldsCases().next().value as EngineCase | undefined;
  assert.ok(lds);
  const items = lds.block[0] * lds.block[1] * lds.block[2];
  const dev = VulkanDevice.open({ driverFiles: LVP, validation: true });
  try {
    const whole = await runAsDocumented(dev, lds);
    const fit = await runAsDocumented(dev, lds, ['--work-items', String(items)]);
    assert.equal(fit.json.workItems, items);
    // The per-wave slots' array length (tests/backend/wave-slots.test.ts checks their shape).
    assert.ok(whole.json.workItems > items);
    assert.notDeepEqual(fit.spirv, whole.spirv);
    assert.deepEqual(fit.buffers, interpret(lds));
  } finally {
    dev.close();
  }
  const obj = join(dir, `${lds.spirvName}.o`);
  for (const [n, status, why] of [['0', 2, /--work-items must be a positive integer/], ['x', 2, /--work-items must be a positive integer/], ['4096', 1, /workgroups of 4096 work-items: the kernel allows 1 to 1024/]] as const) {
    const r: { status: number | null; stderr: string } = spawnSync(process.execPath, [BIN, 'compile', obj, '--kernel', lds.kernel, '-o', join(dir, 'bad.spv'), '--work-items', n, '--no-cache'], { encoding: 'utf8' });
    assert.equal(r.status, status, `${n}: ${r.stderr}`);
    assert.match(r.stderr, why);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
  }
});
