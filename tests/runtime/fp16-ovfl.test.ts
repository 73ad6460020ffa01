// MODE.FP16_OVFL end to end (./cases-fp16-ovfl.ts): each kernel recompiled for lavapipe, valid for
// spirv-val, its f16 ops emulated (the device has no clamp-on-overflow mode), the run under the
// kernarg's bit translated per value; the Vulkan engine's buffers, the IR interpreter's and the RDNA
// interpreter's equal byte for byte, wave32 and wave64, with the Khronos validation layer on. And,
// independently of the engines, the f16 adds against the rational oracle (tests/harness/rational.ts)
// under the bit each run has: the launch value, its flip, the kernarg's bit 0.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { recompile } from '../../src/backend/recompile.js';
import { LAVAPIPE_PROFILE } from '../../src/backend/profile.js';
import { VulkanDevice } from '../../src/runtime/vulkan.js';
import { spirvVal } from '../harness/spirv.js';
import { S16, oAdd, type OEnv } from '../harness/rational.js';
import { both, LVP, same } from './harness.js';
import { irRun } from './cases.js';
import { fp16OvflCases } from './cases-fp16-ovfl.js';
import { FP16_OVFL_RULE, f16OvflClamps } from '../../src/float/env.js';

test("FP16_OVFL at launch, flipped by s_setreg_imm32_b32 and set from a kernarg by s_setreg_b32: lavapipe = IR interpreter = interpreter, the f16 adds = the rational oracle, v_exp_f16 overflows clamped", async () => {
  assert.ok(LVP, 'lavapipe (mesa-vulkan-drivers) is not installed');
  const dev = VulkanDevice.open({ driverFiles: LVP, validation: true });
  try {
    let n = 0, clamped = 0, inf = 0, expClamped = 0;
    for (const c of fp16OvflCases()) {
      const r = recompile(c.shader, { profile: LAVAPIPE_PROFILE });
      const f16 = r.floatOps.filter((f) => f.op.endsWith('16') || f.op === 'ConvertF16F32');
      assert.ok(f16.length >= 18 && f16.every((f) => f.lowering === 'emulated' || (f.lowering === 'dynamic' && f.emulated === f.variants)), `${c.name}: ${JSON.stringify(r.floatOps)}`);
      // (Under FP16_OVFL_RULE 'ignored' no op reads bit 23: nothing is copied, and the oracle ignores the bit too.)
      assert.equal(r.floatOps.filter((f) => f.lowering === 'dynamic' && f.variants === 2 && f.emulated === 2).length, FP16_OVFL_RULE === 'clamp' ? 6 : 0, `${c.name}: the kernarg run is translated per value of bit 23`);
      spirvVal(r.spirv, c.spirvName);
      const res = await both(dev, c);
      assert.ok(res[0][1]?.some((v) => v !== 0), `${c.name} wrote its results`);
      same(c.name, res);
      same(`${c.name} (IR interpreter)`, [res[0], irRun(c)]);
      // The oracle: v5 (launch bit), v11 (flipped) = a + b, v17 (kernarg bit 0) = c + a, in the f16 mode; and
      // v10, v16, v22 = v_exp_f16 of a, a, c: for a finite operand of at least 16, 2^x >= 65536 overflows f16, so
      // it is ±MAX under the bit and otherwise infinity toward +inf or nearest even, MAX toward zero or -inf.
      const m = /_(\d)_(\d) arg (\d)$/.exec(c.name);
      assert.ok(m);
      const [launch, r16, arg] = [m[1] === '1', Number(m[2]), m[3] === '1'];
      const inp = new DataView((c.buffers[0] as Uint8Array).buffer), out = new DataView((res[1][1] as Uint8Array).buffer);
      for (let l = 0; l < c.grid[0]; l++) {
        const a = inp.getUint32(16 * l, true) & 0xffff, b = inp.getUint32(16 * l + 4, true) & 0xffff, cc = inp.getUint32(16 * l + 8, true) & 0xffff;
        if ([a, b, cc].some((x) => (x & 0x7fff) > 0x7c00)) continue; // NaN payload rules are not this test's
        for (const [k, bit, x] of [[5, launch, a], [11, !launch, a], [17, arg, cc]] as const) {
          if (x < 0x4c00 || x > 0x7bff) continue;
          const got = out.getUint32(72 * l + 4 * k, true) & 0xffff;
          assert.equal(got, f16OvflClamps(bit) || r16 === 2 || r16 === 3 ? 0x7bff : 0x7c00, `${c.name} lane ${l} dword ${k}: v_exp_f16 of 0x${x.toString(16)}`);
          expClamped += f16OvflClamps(bit) ? 1 : 0;
        }
        for (const [k, bit, x, y] of [[0, launch, a, b], [6, !launch, a, b], [12, arg, cc, a]] as const) {
          const e: OEnv = { round: r16 as OEnv['round'], flushIn: false, flushOut: false, ieee: true, f16Ovfl: f16OvflClamps(bit) };
          const got = out.getUint32(72 * l + 4 * k, true);
          assert.equal(got, Number(oAdd(S16, BigInt(x), BigInt(y), e)), `${c.name} lane ${l} dword ${k}`);
          if (e.f16Ovfl === true && (got & 0x7fff) === 0x7bff) clamped++;
          if ((got & 0x7fff) === 0x7c00) inf++;
        }
      }
      n++;
    }
    assert.equal(n, 32);
    assert.ok(expClamped > 50 || FP16_OVFL_RULE !== 'clamp', `v_exp_f16 overflowed under the bit ${expClamped} times`);
    assert.ok((clamped > 100 || FP16_OVFL_RULE !== 'clamp') && inf > 100, `the inputs reach both: ${clamped} clamped, ${inf} infinite`);
  } finally {
    dev.close();
  }
});
