// A dispatch of more waves than one row of Vulkan workgroups holds (RUN_LIMITS.maxGroupsPerDim):
// the engine dispatches rows of vkGroupsX workgroups, the last one full too, and the workgroups
// past the dispatch's end must do nothing (src/backend/spirv/emit.ts). The kernel enables every
// lane itself (s_mov_b32 exec_lo, -1) and stores 1 at out[workgroup id z]: a workgroup past the
// end would store past the grid's last slot.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assemble } from '../interp/harness.js';
import { runOnVulkan } from '../../src/runtime/engine.js';
import { RUN_LIMITS, VulkanDevice } from '../../src/runtime/vulkan.js';
import { LVP } from './harness.js';
import { prepare } from './cases.js';

test('a dispatch of more waves than one row of Vulkan workgroups: the workgroups past its end store nothing', async () => {
  const body = `
  s_load_dwordx2 s[4:5], s[0:1], 0x0
  s_waitcnt lgkmcnt(0)
  s_mov_b32 exec_lo, -1
  s_lshl_b32 s6, s3, 2
  v_mov_b32 v1, 1
  v_mov_b32 v2, s6
  global_store_dword v2, v1, s[4:5]
  s_endpgm`;
  const shader = assemble('gfx1030', [{ name: 'rows', body, vgprs: 8, sgprs: 16, directives: ['.amdhsa_system_sgpr_workgroup_id_z 1'] }]).get('rows');
  assert.ok(shader);
  const waves = RUN_LIMITS.maxGroupsPerDim + 1;
  const slots = 2 * RUN_LIMITS.maxGroupsPerDim;
  const out = new Uint8Array(4 * slots);
  const dev = VulkanDevice.open({ driverFiles: LVP, validation: true });
  try {
    const r = await runOnVulkan(shader, prepare(shader, [out], [32, 1, waves], [32, 1, 1]), dev);
    assert.equal(r.waves, waves);
  } finally {
    dev.close();
  }
  const got = new Uint32Array(out.buffer);
  const wrong = [];
  for (let z = 0; z < slots; z++) if (got[z] !== (z < waves ? 1 : 0)) wrong.push(z);
  assert.deepEqual(wrong.slice(0, 8), [], `${wrong.length} slots wrong`);
});
