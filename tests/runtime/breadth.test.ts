// Memory and integer breadth (issue 7) on three engines: every case of the suites in
// ./cases-breadth.ts (integer atomics, buffer resources, 64-bit integer VALU, compares) runs on the
// RDNA interpreter, on the IR interpreter (the translation before the backend) and recompiled on
// lavapipe with the Khronos validation layer on; each module passes spirv-val; every buffer must
// equal the interpreter's byte for byte.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { recompile } from '../../src/backend/recompile.js';
import { LAVAPIPE_PROFILE } from '../../src/backend/profile.js';
import { buildCfg } from '../../src/analysis/cfg.js';
import { analyzeMode } from '../../src/analysis/mode.js';
import { translate } from '../../src/frontend/index.js';
import { dispatchIr } from '../../src/ir/dispatch.js';
import { VulkanDevice } from '../../src/runtime/vulkan.js';
import { spirvVal } from '../harness/spirv.js';
import { both, LVP, same } from './harness.js';
import { type EngineCase, prepare } from './cases.js';
import { atomicCases, bufferCases, compareCases, intCases } from './cases-breadth.js';

/** The IR interpreter's buffers for the case (on copies of its inputs). */
function irRun(c: EngineCase): Uint8Array[] {
  const bufs = c.buffers.map((b) => b.slice());
  const p = prepare(c.shader, bufs, c.grid, c.block, c.scalars);
  const cfg = buildCfg(c.shader);
  dispatchIr(translate(c.shader, cfg, analyzeMode(c.shader, cfg)), c.shader, { grid: c.grid, block: c.block, kernarg: p.kernarg, mem: p.mem, maxSteps: 50_000_000 });
  return bufs;
}

async function runAll(cases: Iterable<EngineCase>): Promise<void> {
  assert.ok(LVP, 'lavapipe (mesa-vulkan-drivers) is not installed');
  const dev = VulkanDevice.open({ driverFiles: LVP, validation: true });
  try {
    for (const c of cases) {
      spirvVal(recompile(c.shader, { profile: LAVAPIPE_PROFILE }).spirv, c.spirvName);
      const [ref, vk] = await both(dev, c);
      if (c.writes !== undefined) assert.ok(ref[c.writes]?.some((v) => v !== 0), `${c.name} wrote its results`);
      same(`${c.name} (IR interpreter)`, [ref, irRun(c)]);
      same(`${c.name} (Vulkan)`, [ref, vk]);
    }
  } finally {
    dev.close();
  }
}

test('every integer global/FLAT atomic, 32- and 64-bit, returning and not, on distinct and shared addresses, wave32 and wave64', async () => {
  await runAll(atomicCases());
});

test('MUBUF/MTBUF loads, stores, atomics and s_buffer_load through V# descriptors: every oob_select at its edges, strides 0..32, swizzling, add_tid, a null V#, wave32 and wave64', async () => {
  await runAll(bufferCases());
});

test('every integer VOPC compare (32- and 64-bit, signed and unsigned, f/t, e32, e64, cmpx) and v_cmp_class_f64 on boundary operand pairs, wave32 and wave64', async () => {
  await runAll(compareCases());
});

test('64-bit integer VALU (shifts, v_mad_u64_u32/v_mad_i64_i32 with their masks and clamp, carry chains) and the other 32-bit integer ops (bit fields, min3/max3/med3, sad, lerp, perm, packs, v_swap_b32), wave32 and wave64', async () => {
  await runAll(intCases());
});
