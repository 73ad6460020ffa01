// The remaining float VALU ops (tests/runtime/cases-vfloat.ts) recompiled and run on lavapipe with
// the Khronos validation layer on: each kernel under its first mode, wave32 and wave64; each module
// passes spirv-val, every float op of the unit is emulated (lowered to integer code), and every
// buffer equals the RDNA interpreter's byte for byte. (tests/frontend/translate-vfloat.test.ts runs
// every mode on the IR interpreter.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { recompile } from '../../src/backend/recompile.js';
import { LAVAPIPE_PROFILE } from '../../src/backend/profile.js';
import { VulkanDevice } from '../../src/runtime/vulkan.js';
import { spirvVal } from '../harness/spirv.js';
import { both, LVP, same } from './harness.js';
import { vfloatCases } from './cases-vfloat.js';

test('the remaining float VALU ops on lavapipe equal the interpreter byte for byte, wave32 and wave64', async () => {
  assert.ok(LVP, 'lavapipe (mesa-vulkan-drivers) is not installed');
  const dev = VulkanDevice.open({ driverFiles: LVP, validation: true });
  try {
    let n = 0;
    for (const c of vfloatCases(true)) {
      const r = recompile(c.shader, { profile: LAVAPIPE_PROFILE });
      for (const op of ['ConvertRpiS32F32', 'ConvertU8F32', 'FNorm16F32', 'FNorm16F16', 'FMin32', 'FMin16']) {
        assert.ok(r.floatOps.every((f) => f.op !== op || f.lowering === 'emulated' || (f.lowering === 'dynamic' && f.emulated === f.variants)), `${c.name}: ${op} emulated`);
      }
      spirvVal(r.spirv, c.spirvName);
      const res = await both(dev, c);
      assert.ok(res[0][1]?.some((v) => v !== 0), `${c.name} wrote its results`);
      same(c.name, res);
      n++;
    }
    assert.equal(n, 8);
  } finally {
    dev.close();
  }
});
