// npm run bench:floatmodes [-- --runs R] [--lanes N]
// The cost of directed rounding: one f32 kernel (a loop of fma, add, mul and sub per lane) built
// under three launch float modes (and a native reference, below), nearest even (MODE 0xf0), toward zero (0xf3) and toward +inf
// (0xf1), denormals kept, recompiled for the device's own profile and run by the Vulkan engine on
// the same inputs. Prints per mode how its float ops lower (native SPIR-V or exact integer code)
// and the median run time over R runs (the engine's submission: upload, dispatch, copy back; the
// kernel is recompiled and its pipeline cached outside it), and the ratio against the nearest-even build: the goal (issue 8) is at most 2x.
// Every run's buffers are also compared with the interpreter's, so a fast wrong build cannot pass.
// A fourth build is the native reference the 2x goal is stated against: nearest even
// recompiled for the device's profile with f32 DenormPreserve assumed, so add, sub and mul are
// plain SPIR-V float instructions under RoundingModeRTE (the fma stays guarded: no Vulkan op is a
// fused fma). The inputs keep every value of the kernel normal, so the device's unpromised denormal
// behaviour never shows; its results are checked against the interpreter's like the others'.
// The device: lavapipe unless VK_DRIVER_FILES names another driver.
import assert from 'node:assert/strict';
import { recompile } from '../src/backend/recompile.js';
import { runModuleOnVulkan } from '../src/runtime/engine.js';
import { targetProfile } from '../src/runtime/engine.js';
import { VulkanDevice } from '../src/runtime/vulkan.js';
import { interpret, pairKernel, prepare } from '../tests/runtime/cases.js';
import { LVP } from '../tests/runtime/harness.js';
import { assembleShaders } from '../tests/harness/kernel.js';
import { Rng } from '../tests/harness/rng.js';
import { dwords } from '../tests/interp/harness.js';

const args = process.argv.slice(2);
const opt = (name: string, d: number) => { const k = args.indexOf(name); return k >= 0 ? Number(args[k + 1]) || d : d; };
const runs = opt('--runs', 7), lanes = opt('--lanes', 4096);
const ITER = 64;
const body = (m: number) => pairKernel(3, `
  v_mov_b32 v5, v3
  v_mov_b32 v6, v4
  s_mov_b32 s8, 0
.Lloop${m}:
  v_fma_f32 v5, v3, v4, v5
  v_add_f32 v6, v6, v5
  v_mul_f32 v7, v6, v4
  v_sub_f32 v5, v5, v7
  s_add_u32 s8, s8, 1
  s_cmp_lt_u32 s8, ${ITER}
  s_cbranch_scc1 .Lloop${m}
  global_store_dwordx2 v2, v[5:6], s[6:7]
  s_endpgm`);
const modes = [['nearest even', 0xf0], ['toward zero', 0xf3], ['toward +inf', 0xf1]] as const;
const shaders = assembleShaders('gfx1030', modes.map(([, m]) => ({ name: `fm${m.toString(16)}`, body: body(m), floatMode: m, vgprs: 16, sgprs: 16, directives: ['.amdhsa_user_sgpr_kernarg_segment_ptr 1', '.amdhsa_system_sgpr_workgroup_id_x 1'] })));
const rng = new Rng(5);
const input = dwords(Array.from({ length: 2 * lanes }, () => ((rng.u32() & 0x807fffff) | 0x3e800000) >>> 0));
const dev = VulkanDevice.open({ driverFiles: process.env['VK_DRIVER_FILES'] ?? LVP });
const q = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const medians: number[] = [];
try {
  process.stdout.write(`device ${dev.profile.deviceName}; ${lanes} lanes, ${ITER} iterations of 4 f32 ops each; median of ${runs} runs\n`);
  // The three builds' runs interleaved (a slow moment of the machine hits all of them alike).
  const own = targetProfile(dev.profile);
  const native = { ...own, name: `${own.name} with f32 DenormPreserve assumed`, f32: { ...own.f32, denormPreserve: true } };
  const builds = [...modes.map(([label, m]) => ({ label, m, profile: own })), { label: 'native reference: nearest even', m: 0xf0, profile: native }].map(({ label, m, profile }) => {
    const s = shaders.get(`fm${m.toString(16)}`);
    assert.ok(s);
    const mod = recompile(s, { profile });
    const ref = interpret({ shader: s, buffers: [input, new Uint8Array(8 * lanes)], grid: [lanes, 1, 1], block: [64, 1, 1], scalars: [] });
    return { label, m, s, mod, ops: mod.floatOps, ref, times: [] as number[] };
  });
  for (let r = 0; r < runs + 1; r++) {
    for (const x of builds) {
      const bufs = [input.slice(), new Uint8Array(8 * lanes)];
      const res = await runModuleOnVulkan(x.s, x.mod, prepare(x.s, bufs, [lanes, 1, 1], [64, 1, 1]), dev);
      assert.deepEqual(bufs[1], x.ref[1], `${x.label}: the Vulkan result differs from the interpreter's`);
      if (r > 0) x.times.push(res.ms);
    }
  }
  const nativeMed = q(builds[builds.length - 1]?.times ?? []);
  for (const x of builds) {
    const med = q(x.times);
    medians.push(med);
    const lowering = [...new Set(x.ops.map((o) => `${o.op} ${o.lowering}`))].join(', ');
    process.stdout.write(`${x.label} (MODE 0x${x.m.toString(16)}): ${lowering}; median ${med.toFixed(2)} ms, ${(med / (medians[0] ?? med)).toFixed(2)}x the nearest-even build, ${(med / nativeMed).toFixed(2)}x the native reference\n`);
  }
} finally {
  dev.close();
}
