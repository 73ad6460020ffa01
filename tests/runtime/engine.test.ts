// The recompiler end to end on lavapipe (Debian's mesa-vulkan-drivers, subgroup size 8): RDNA2
// kernels (assembly through llvm-mc-19, OpenCL C through clang-19) recompiled to SPIR-V, every
// module valid for spirv-val --target-env vulkan1.3, run by the Vulkan engine, and every buffer
// equal byte for byte to what the RDNA interpreter leaves (itself checked against pocl), with the
// Khronos validation layer on (any validation error fails the run).
// wave32 and wave64 (one Vulkan workgroup per RDNA wave, lane masks through workgroup memory).
import { test } from 'node:test';
import { spirvVal } from '../harness/spirv.js';
import { both, LVP, same } from './harness.js';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { recompile } from '../../src/backend/recompile.js';
import { LAVAPIPE_PROFILE } from '../../src/backend/profile.js';
import { CompileError } from '../../src/backend/spirv/emit.js';
import { TranslateError } from '../../src/frontend/errors.js';
import { dispatch } from '../../src/interp/dispatch.js';
import { GlobalMemory } from '../../src/interp/memory.js';
import { VulkanDevice } from '../../src/runtime/vulkan.js';
import { assemble } from '../interp/harness.js';
import { buildOpenCl } from '../harness/opencl.js';
import { ENGINE_SUITES, type EngineSuite } from './cases.js';

const dir = mkdtempSync(join(tmpdir(), 'rdna-engine-'));

/** Every case of the suite: its module valid for spirv-val, and the Vulkan engine's buffers equal to the interpreter's. */
async function runSuite(suite: EngineSuite | undefined): Promise<void> {
  assert.ok(suite);
  const dev = VulkanDevice.open({ driverFiles: LVP, validation: true });
  try {
    for (const c of suite.cases()) {
      const r = recompile(c.shader, { profile: LAVAPIPE_PROFILE });
      if (c.emulatedOnLavapipe !== undefined) assert.ok(r.floatOps.length >= c.emulatedOnLavapipe && r.floatOps.every((f) => f.lowering === 'emulated'), JSON.stringify(r.floatOps));
      spirvVal(r.spirv, c.spirvName);
      if (c.controlFlow !== undefined) assert.equal(r.controlFlow, c.controlFlow, c.name);
      const res = await both(dev, c);
      if (c.writes !== undefined) assert.ok(res[0][c.writes]?.some((v) => v !== 0), `${c.name} wrote its results`);
      same(c.name, res);
    }
  } finally {
    dev.close();
  }
}

// The cases are in ./cases.ts (shared with tools/vulkan-replay.ts, which replays them on other devices).
test('recompiled kernels on lavapipe equal the interpreter byte for byte, wave32 and wave64', async () => {
  assert.ok(LVP, 'lavapipe (mesa-vulkan-drivers) is not installed');
  await runSuite(ENGINE_SUITES[0]);
});

test('f32 arithmetic under every rounding direction and denormal mode, set at launch and mid-shader, emulated exactly on lavapipe', async () => {
  await runSuite(ENGINE_SUITES[1]);
});

test('VOP3 clamp and omod (f32 results and integer saturation), frexp/fract/byte conversions, under several float modes, IEEE and DX10_CLAMP settings, exactly on lavapipe', async () => {
  await runSuite(ENGINE_SUITES[2]);
});

test('control flow through the whole recompiler (nested loops with breaks and continues, SCC/VCCZ/EXECZ branches both ways, early s_endpgm, an irreducible cycle), wave32 and wave64, exactly on lavapipe', async () => {
  await runSuite(ENGINE_SUITES[3]);
});

test('clamp/omod where the interpreter does not model them are refused by the translation too', () => {
  for (const [asm, why] of [['v_mad_u32_u24 v5, v3, v4, v1 clamp', /v_mad_u32_u24 with clamp\/omod is not modelled/], ['v_cvt_u32_f32_e64 v5, v3 mul:2', /omod on an integer result is not modelled/], ['v_mul_u32_u24_e64 v5, v3, v4 clamp', /v_mul_u32_u24 with clamp\/omod is not modelled/]] as const) {
    const shader = assemble('gfx1030', [{ name: 'r', body: `${asm}\ns_endpgm`, vgprs: 16, sgprs: 16, directives: ['.amdhsa_system_sgpr_workgroup_id_x 1'] }]).get('r');
    assert.ok(shader);
    assert.throws(() => recompile(shader, { profile: LAVAPIPE_PROFILE }), (e: unknown) => e instanceof TranslateError && why.test(e.message), asm);
    assert.throws(() => dispatch(shader, { grid: [1, 1, 1], block: [1, 1, 1], kernarg: new Uint8Array(64), mem: new GlobalMemory(), maxSteps: 1000 }), (e: unknown) => e instanceof Error && /not modelled/.test(e.message), asm);
  }
});

test('what the slice cannot translate is an error naming the pc and instruction, never wrong SPIR-V', () => {
  // (The result is stored, so that dead-code elimination keeps the op; the kernel is only compiled.)
  const shaders = assemble('gfx1030', [{ name: 'fsin', body: 'v_sin_f32 v1, v0\nglobal_store_dword v[2:3], v1, off\ns_endpgm' }]);
  const k = shaders.get('fsin');
  assert.ok(k);
  assert.throws(() => recompile(k, { profile: LAVAPIPE_PROFILE }), (e: unknown) => (e instanceof TranslateError || e instanceof CompileError) && /^pc 0x0: v_sin_f32_e32 v1, v0 .*not translated yet/.test(e.message));
});

test('rdna run --engine vulkan: the same JSON as the interpreter plus the device; a missing driver is one line, exit 1', () => {
  const BIN = new URL('../../bin/rdna', import.meta.url).pathname;
  const obj = buildOpenCl('interp-int.cl');
  const args = join(dir, 'args.json');
  writeFileSync(args, JSON.stringify({ kernel: 'collatz', grid: [64], block: [32], args: [{ buffer: 'u32', data: Array.from({ length: 64 }, (_, k) => k + 1) }, { buffer: 'u32', size: 256 }, { buffer: 'u32', size: 256 }] }));
  const run = (engine: string, env: NodeJS.ProcessEnv) => spawnSync(process.execPath, [BIN, 'run', obj, '--args', args, '--engine', engine, '--json'], { encoding: 'utf8', env: { ...process.env, ...env } });
  const vk = run('vulkan', { VK_DRIVER_FILES: LVP, RDNA_VULKAN_VALIDATION: '1' });
  assert.equal(vk.status, 0, vk.stderr);
  const interp = run('interp', {});
  assert.equal(interp.status, 0, interp.stderr);
  const a = JSON.parse(vk.stdout) as { engine: string; device: string; buffers: unknown };
  const b = JSON.parse(interp.stdout) as { engine: string; buffers: unknown };
  assert.equal(a.engine, 'vulkan');
  assert.ok(a.device.length > 0);
  assert.deepEqual(a.buffers, b.buffers);
  const missing = run('vulkan', { VK_DRIVER_FILES: join(dir, 'no-such-icd.json') });
  assert.equal(missing.status, 1);
  assert.equal(missing.stderr.trim().split('\n').length, 1, missing.stderr);
  assert.match(missing.stderr, /Vulkan: /);
});
