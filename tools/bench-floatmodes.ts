// npm run bench:floatmodes [-- --runs R] [--lanes N] [--iters I] [--outer R] [--no-fma] [--check-lanes K] [--save-objects FILE | --objects FILE]
// The cost of directed rounding: one f32 kernel (a loop of fma, add, mul and sub per lane) built
// under three launch float modes (and a native reference, below), nearest even (MODE 0xf0), toward zero (0xf3) and toward +inf
// (0xf1), denormals kept, recompiled for the device's own profile and run by the Vulkan engine on
// the same inputs. Prints per mode how its float ops lower (native SPIR-V or exact integer code)
// and the median run time over R runs (the engine's submission: upload, dispatch, copy back; the
// kernel is recompiled and its pipeline cached outside it), and the ratio against the nearest-even build: the goal (issue 8) is at most 2x.
// Every run's buffers are also compared with the interpreter's, so a fast wrong build cannot pass.
// A fourth build is the native reference the issue's 2x goal is stated against: nearest even
// recompiled for the device's profile with f32 DenormPreserve assumed, so add, sub and mul are
// plain SPIR-V float instructions under RoundingModeRTE (the fma stays guarded: no Vulkan op is a
// fused fma). The inputs keep every value of the kernel normal, so the device's unpromised denormal
// behaviour never shows; its results are checked against the interpreter's like the others'.
// The device: lavapipe unless VK_DRIVER_FILES names another driver.
// On a GPU, 4,096 lanes of 64 iterations take microseconds and the submission's transfers are all
// one measures: --lanes and --iters make the work large enough for the arithmetic to show, and
// --check-lanes K compares only the first K lanes' results with the interpreter (run on a grid of K
// lanes: each lane's result depends on its own inputs only). A machine without llvm-mc-19 (the GPU
// machine) runs the bench with --objects FILE: the code object assembled here with --save-objects FILE.
import assert from 'node:assert/strict';
import { recompile } from '../src/backend/recompile.js';
import { runModuleOnVulkan } from '../src/runtime/engine.js';
import { targetProfile } from '../src/runtime/engine.js';
import { VulkanDevice } from '../src/runtime/vulkan.js';
import { interpret, pairKernel, prepare } from '../tests/runtime/cases.js';
import { LVP } from '../tests/runtime/harness.js';
import { assembleKernels, type KernelSpec } from '../tests/harness/kernel.js';
import { loadShaders } from '../src/container/shader.js';
import { readFileSync, writeFileSync } from 'node:fs';
import { Rng } from '../tests/harness/rng.js';
import { dwords } from '../tests/interp/harness.js';

const args = process.argv.slice(2);
const opt = (name: string, d: number) => { const k = args.indexOf(name); return k >= 0 ? Number(args[k + 1]) || d : d; };
const str = (name: string): string | undefined => { const k = args.indexOf(name); return k >= 0 ? args[k + 1] : undefined; };
const runs = opt('--runs', 7), lanes = opt('--lanes', 4096), ITER = opt('--iters', 64), checkLanes = Math.min(lanes, opt('--check-lanes', lanes));
// --outer R > 1 repeats the loop R times from the inputs again (the values of more than 64
// iterations leave the normal range), with the low bit of one input flipped each time so that no
// compiler can tell the repetitions are alike.
const OUTER = opt('--outer', 1);
// --no-fma: the loop's fma becomes an add (v5 = v3 + v5), so every float op of the kernel is one
// the native reference runs natively: the worst case of directed rounding against native code.
const NO_FMA = args.includes('--no-fma');
const body = (m: number) => pairKernel(3, `${OUTER > 1 ? `
  s_mov_b32 s9, 0
.Louter${m}:` : ''}
  v_mov_b32 v5, v3
  v_mov_b32 v6, v4
  s_mov_b32 s8, 0
.Lloop${m}:
  ${NO_FMA ? 'v_add_f32 v5, v3, v5' : 'v_fma_f32 v5, v3, v4, v5'}
  v_add_f32 v6, v6, v5
  v_mul_f32 v7, v6, v4
  v_sub_f32 v5, v5, v7
  s_add_u32 s8, s8, 1
  s_cmp_lt_u32 s8, ${ITER}
  s_cbranch_scc1 .Lloop${m}${OUTER > 1 ? `
  v_xor_b32 v3, 1, v3
  s_add_u32 s9, s9, 1
  s_cmp_lt_u32 s9, ${OUTER}
  s_cbranch_scc1 .Louter${m}` : ''}
  global_store_dwordx2 v2, v[5:6], s[6:7]
  s_endpgm`);
const modes = [['nearest even', 0xf0], ['toward zero', 0xf3], ['toward +inf', 0xf1]] as const;
const specs: KernelSpec[] = modes.map(([, m]) => ({ name: `fm${m.toString(16)}`, body: body(m), floatMode: m, vgprs: 16, sgprs: 16, directives: ['.amdhsa_user_sgpr_kernarg_segment_ptr 1', '.amdhsa_system_sgpr_workgroup_id_x 1'] }));
const objects = str('--objects'), saveObjects = str('--save-objects');
/** A --save-objects file: the code object and the kernel options it was assembled for. */
interface SavedObjects { readonly iters: number; readonly outer: number; readonly noFma?: boolean; readonly code: string }
const saved = objects ? (JSON.parse(readFileSync(objects, 'utf8')) as SavedObjects) : undefined;
if (saved && (saved.iters !== ITER || saved.outer !== OUTER || (saved.noFma ?? false) !== NO_FMA)) throw new Error(`${objects} was assembled for another --iters, --outer or --no-fma`);
const code = saved ? new Uint8Array(Buffer.from(saved.code, 'base64')) : assembleKernels('gfx1030', specs);
if (saveObjects) { writeFileSync(saveObjects, JSON.stringify({ iters: ITER, outer: OUTER, noFma: NO_FMA, code: Buffer.from(code).toString('base64') })); process.stdout.write(`code object written to ${saveObjects}\n`); process.exit(0); }
const shaders = new Map(loadShaders({ bytes: code, name: 'bench' }).map((s) => [s.info.name, s]));
const rng = new Rng(5);
const input = dwords(Array.from({ length: 2 * lanes }, () => ((rng.u32() & 0x807fffff) | 0x3e800000) >>> 0));
const dev = VulkanDevice.open({ driverFiles: process.env['VK_DRIVER_FILES'] ?? LVP });
const q = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const medians: number[] = [];
try {
  process.stdout.write(`device ${dev.profile.deviceName}; ${lanes} lanes, ${OUTER > 1 ? `${OUTER} x ` : ''}${ITER} iterations of 4 f32 ops each${NO_FMA ? ' (no fma)' : ''}; median of ${runs} runs; results of ${checkLanes} lanes checked against the interpreter\n`);
  // The three builds' runs interleaved (a slow moment of the machine hits all of them alike).
  const own = targetProfile(dev.profile);
  const native = { ...own, name: `${own.name} with f32 DenormPreserve assumed`, f32: { ...own.f32, denormPreserve: true } };
  const builds = [...modes.map(([label, m]) => ({ label, m, profile: own })), { label: 'native reference: nearest even', m: 0xf0, profile: native }].map(({ label, m, profile }) => {
    const s = shaders.get(`fm${m.toString(16)}`);
    assert.ok(s);
    const mod = recompile(s, { profile });
    const ref = interpret({ shader: s, buffers: [input.slice(0, 8 * checkLanes), new Uint8Array(8 * checkLanes)], grid: [checkLanes, 1, 1], block: [64, 1, 1], scalars: [] });
    return { label, m, s, mod, ops: mod.floatOps, ref, times: [] as number[] };
  });
  for (let r = 0; r < runs + 1; r++) {
    for (const x of builds) {
      const bufs = [input.slice(), new Uint8Array(8 * lanes)];
      const res = await runModuleOnVulkan(x.s, x.mod, prepare(x.s, bufs, [lanes, 1, 1], [64, 1, 1]), dev);
      assert.deepEqual(bufs[1]?.subarray(0, 8 * checkLanes), x.ref[1], `${x.label}: the Vulkan result differs from the interpreter's`);
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
