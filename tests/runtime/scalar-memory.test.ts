// Scalar memory writes of gfx1010 / gfx1013 (./cases-smem.ts: s_store_dword*, s_buffer_store_dword*,
// every s_atomic_* and s_buffer_atomic_* with and without glc, num_records edges, the cache controls,
// s_get_waveid_in_workgroup; both targets, wave32 and wave64) on the RDNA interpreter, the IR
// interpreter and recompiled on lavapipe (validation layer on, every module through spirv-val), each
// equal to the buffers the ISA's rules give (computed by the cases, not by the engines).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { recompile } from '../../src/backend/recompile.js';
import { LAVAPIPE_PROFILE } from '../../src/backend/profile.js';
import { VulkanDevice } from '../../src/runtime/vulkan.js';
import { spirvVal } from '../harness/spirv.js';
import { both, LVP } from './harness.js';
import { irRun } from './cases.js';
import { smemCases } from './cases-smem.js';

function check(name: string, want: readonly Uint8Array[], got: readonly Uint8Array[]): void {
  want.forEach((w, k) => {
    const g = got[k] as Uint8Array;
    const i = w.findIndex((x, j) => x !== g[j]);
    assert.equal(i, -1, `${name}: buffer ${k} differs at byte 0x${i.toString(16)}: want ${Buffer.from(w.subarray(i & ~3, (i & ~3) + 4)).toString('hex')}, got ${Buffer.from(g.subarray(i & ~3, (i & ~3) + 4)).toString('hex')}`);
  });
}

test('scalar stores and atomics (every s_atomic_* and s_buffer_atomic_* form used, glc and not, num_records edges) and s_get_waveid_in_workgroup on gfx1013 and gfx1010, wave32 and wave64, equal to the ISA rules on three engines', async () => {
  assert.ok(LVP, 'lavapipe (mesa-vulkan-drivers) is not installed');
  const dev = VulkanDevice.open({ driverFiles: LVP, validation: true });
  let n = 0;
  try {
    for (const c of smemCases()) {
      spirvVal(recompile(c.shader, { profile: LAVAPIPE_PROFILE }).spirv, c.spirvName);
      const [ref, vk] = await both(dev, c);
      check(`${c.name}: interpreter`, c.want, ref);
      check(`${c.name}: IR interpreter`, c.want, irRun(c));
      check(`${c.name}: Vulkan`, c.want, vk);
      n++;
    }
  } finally {
    dev.close();
  }
  assert.equal(n, 8);
});
