// v_exp/v_log/v_sin/v_cos (tests/runtime/cases-transcendental.ts) recompiled in both forms of the
// lowering (src/ir/passes/lower-float-transcendental.ts): on lavapipe (the device-f64 core: the
// profile allows f64 device ops under nearest even) run with the Khronos validation layer on; and
// for the portable and nvidia profiles (the exact integer core) run through the IR interpreter
// (every compiled module's IR can run there). Each module passes spirv-val, every transcendental
// is reported emulated, and every buffer equals the RDNA interpreter's byte for byte.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { recompile, type RecompileResult } from '../../src/backend/recompile.js';
import { LAVAPIPE_PROFILE, NVIDIA_H200_PROFILE, PORTABLE_PROFILE, type TargetProfile } from '../../src/backend/profile.js';
import { dispatchIr } from '../../src/ir/dispatch.js';
import { VulkanDevice } from '../../src/runtime/vulkan.js';
import { spirvVal } from '../harness/spirv.js';
import { both, LVP, same } from './harness.js';
import { interpret, prepare, type EngineCase } from './cases.js';
import { F32_EXP_AFTER, F32_EXP_BEFORE, transcendentalCases } from './cases-transcendental.js';

const TRANS = new Set(['FExp32', 'FLog32', 'FSin32', 'FCos32', 'FExp16', 'FLog16', 'FSin16', 'FCos16']);

/** Every transcendental of the kernel is emulated (each copy of a dynamic one too), and its core is in the profile's form. */
function checkLowering(c: EngineCase, r: RecompileResult, form: 'device' | 'exact'): void {
  const ops = r.floatOps.filter((f) => TRANS.has(f.op));
  assert.ok(ops.length >= 5, `${c.name}: its transcendentals are reported`);
  for (const f of ops) assert.ok(f.lowering === 'emulated' || (f.lowering === 'dynamic' && f.emulated === f.variants), `${c.name}: ${f.op} at ${String(f.pc)} is ${f.lowering}`);
  const cores = r.ir.helpers.filter((h) => h.name.startsWith('transcendental core'));
  assert.ok(cores.length > 0 && cores.every((h) => h.name.endsWith(` ${form}`)), `${c.name}: cores ${cores.map((h) => h.name).join(', ')}`);
}

test('the transcendentals on lavapipe (device f64 core) equal the interpreter byte for byte, every mode, wave32 and wave64; s_round_mode changes v_exp_f32', async () => {
  assert.ok(LVP, 'lavapipe (mesa-vulkan-drivers) is not installed');
  const dev = VulkanDevice.open({ driverFiles: LVP, validation: true });
  try {
    let n = 0, changed = 0;
    for (const c of transcendentalCases(3)) {
      const r = recompile(c.shader, { profile: LAVAPIPE_PROFILE });
      checkLowering(c, r, 'device');
      spirvVal(r.spirv, c.spirvName);
      const res = await both(dev, c);
      assert.ok(res[0][1]?.some((v) => v !== 0), `${c.name} wrote its results`);
      same(c.name, res);
      if (c.name.startsWith('tr32_')) {
        // v_exp_f32 of the same input before and after s_round_mode 0x1 (toward +inf): one ulp apart where the launch mode rounds otherwise.
        const out = new DataView((res[0][1] as Uint8Array).buffer);
        for (let l = 0; l < 64; l++) {
          const a = out.getUint32(128 * l + 4 * F32_EXP_BEFORE, true), b = out.getUint32(128 * l + 4 * F32_EXP_AFTER, true);
          if (a !== b) { changed++; assert.ok(b - a === 1 || ((a & 0x7f800000) === 0x7f800000 || (b & 0x7f800000) === 0x7f800000), `${c.name} lane ${l}: 0x${a.toString(16)} then 0x${b.toString(16)}`); }
        }
      }
      n++;
    }
    assert.equal(n, 2 * (3 + 3 + 3));
    assert.ok(changed > 20, `s_round_mode changed ${changed} v_exp_f32 results`);
  } finally {
    dev.close();
  }
});

function irEqualsInterpreter(c: EngineCase, profile: TargetProfile): void {
  const r = recompile(c.shader, { profile });
  checkLowering(c, r, 'exact');
  spirvVal(r.spirv, `${c.spirvName}_${profile.name}`);
  const ref = interpret(c);
  const bufs = c.buffers.map((b) => b.slice());
  const p = prepare(c.shader, bufs, c.grid, c.block, c.scalars);
  dispatchIr(r.ir, c.shader, { grid: c.grid, block: c.block, kernarg: p.kernarg, mem: p.mem, maxSteps: 200_000_000 });
  assert.ok(ref[1]?.some((v) => v !== 0), `${c.name} wrote its results`);
  ref.forEach((b, k) => {
    const x = bufs[k] as Uint8Array;
    const i = b.findIndex((v, j) => v !== x[j]);
    assert.equal(i, -1, `${c.name} (${profile.name}): buffer ${k} differs at byte ${i}: interpreter ${Buffer.from(b.subarray(i & ~3, (i & ~3) + 4)).toString('hex')}, IR ${Buffer.from(x.subarray(i & ~3, (i & ~3) + 4)).toString('hex')}`);
  });
}

test('the transcendentals compiled for the portable and nvidia profiles (exact integer core) pass spirv-val and, run on the IR interpreter, equal the RDNA interpreter', () => {
  let n = 0;
  for (const c of transcendentalCases(2)) {
    irEqualsInterpreter(c, n % 2 ? NVIDIA_H200_PROFILE : PORTABLE_PROFILE);
    n++;
  }
  assert.equal(n, 2 * (2 + 2 + 2));
});
