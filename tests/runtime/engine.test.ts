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
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
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
import { ENGINE_SUITES, type EngineSuite, prepare } from './cases.js';
import { addF32, envFor, fmaF32 } from '../../src/float/index.js';
import { loadShaders } from '../../src/container/shader.js';
import { compileFor, runOnVulkan, runPlanOnVulkan } from '../../src/runtime/engine.js';
import { parseArgs } from '../../src/interp/args.js';
import { Rng } from '../harness/rng.js';

const dir = mkdtempSync(join(tmpdir(), 'rdna-engine-'));
/** A suite of cases.ts by its title. */
const suite = (title: string): EngineSuite | undefined => ENGINE_SUITES.find((s) => s.title === title);
/** Per case: its first input buffer and the Vulkan engine's second buffer (checked against the float model by a test). */
const vulkanResults = new Map<string, [Uint8Array, Uint8Array]>();

/** Every case of the suite: its module valid for spirv-val, and the Vulkan engine's buffers equal to the interpreter's. */
async function runSuite(suite: EngineSuite | undefined): Promise<void> {
  assert.ok(suite);
  const dev = VulkanDevice.open({ driverFiles: LVP, validation: true });
  try {
    for (const c of suite.cases()) {
      const r = recompile(c.shader, { profile: LAVAPIPE_PROFILE });
      if (c.emulatedOnLavapipe !== undefined) assert.ok(r.floatOps.length >= c.emulatedOnLavapipe && r.floatOps.every((f) => f.lowering === 'emulated' || f.lowering === 'guarded'), JSON.stringify(r.floatOps));
      spirvVal(r.spirv, c.spirvName);
      if (c.controlFlow !== undefined) assert.equal(r.controlFlow, c.controlFlow, c.name);
      const res = await both(dev, c);
      vulkanResults.set(c.name, [c.buffers[0] as Uint8Array, res[1][1] as Uint8Array]);
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
  await runSuite(suite('slice and OpenCL kernels'));
});

test('a linked object\'s own data (a __constant table, libclc\'s math tables) through the code object image on lavapipe, equal to the interpreter', async () => {
  await runSuite(suite('code object data (linked: __constant tables, libclc math tables)'));
});

test('f32 arithmetic under every rounding direction and denormal mode, set at launch and mid-shader, emulated exactly on lavapipe', async () => {
  await runSuite(suite('float modes'));
});

test('VOP3 clamp and omod (f32 results and integer saturation), frexp/fract/byte conversions, under several float modes, IEEE and DX10_CLAMP settings, exactly on lavapipe', async () => {
  await runSuite(suite('clamp/omod and frexp/fract'));
});

test('MODE known only at run time: s_setreg_b32 of kernarg values, a mode set on one branch side, s_setreg in a loop; both engines equal, and equal to the float model and the ISA\'s MODE rules', async () => {
  await runSuite(suite('MODE known only at run time'));
  // Independently of both engines: v5 = a + b under FP_ROUND = m[1:0] (denormals kept: the launch
  // mode 0xf0), v7 = fma(a, b, v5) under FP_ROUND m[1:0] and FP_DENORM m[5:4], v9 = MODE[9:0] after
  // the two s_setreg (launch bits 9:8, m[7:0] below), v15 = MODE at the end (bits 9:8 from m[9:8],
  // FP_DENORM from m, FP_ROUND f32 = 3 from the loop's last s_setreg, f16/f64 round 0 when the
  // branch side with s_round_mode 0x3 ran (m bit 10), else m[3:2]).
  for (const c of suite('MODE known only at run time')?.cases() ?? []) {
    const m = c.scalars[0]?.[1] ?? 0;
    const [input, out] = vulkanResults.get(c.name) ?? [];
    assert.ok(input && out, c.name);
    const iv = new DataView(input.buffer, input.byteOffset), ov = new DataView(out.buffer, out.byteOffset);
    const add = envFor(0x3f0 & ~3 | (m & 3), 'f32'), fma = envFor((0x300 | (m & 0xf0) | (m & 3)) >>> 0, 'f32');
    for (let lane = 0; lane < c.grid[0]; lane++) {
      const a = iv.getUint32(8 * lane, true), b = iv.getUint32(8 * lane + 4, true);
      const at = (k: number) => ov.getUint32(64 * lane + 4 * (k - 5), true);
      const v5 = addF32(a, b, add);
      assert.equal(at(5), v5, `${c.name} lane ${lane} v5`);
      assert.equal(at(7), fmaF32(a, b, v5, fma), `${c.name} lane ${lane} v7`);
      assert.equal(at(9), (0x300 | (m & 0xff)) >>> 0, `${c.name} v9`);
      assert.equal(at(15), (((m >>> 8) & 3) << 8 | (m & 0xf0) | (m & 0x400 ? 0 : m & 0xc) | 3) >>> 0, `${c.name} v15`);
    }
  }
});

test('the OpenCL corpus\'s f64_ops and f16_ops (default and -cl-denorms-are-zero builds), recompiled, equal the interpreter on lavapipe, wave32 and wave64', async () => {
  await runSuite(suite('f64 and f16 OpenCL kernels'));
});

test('f64 and f16 assembly kernels (every translated f64/f16/VOP3P op, neg/abs, clamp/omod, op_sel, SDWA, mid-shader mode changes) under five float-mode bytes, IEEE and DX10_CLAMP on and off, and under a MODE known only at run time, exactly on lavapipe', async () => {
  await runSuite(suite('f64 and f16 assembly kernels'));
});

test('f64_ops and f16_ops on Vulkan equal pocl (the OpenCL oracle) on the same inputs, wave32 and wave64', async () => {
  const FIX = new URL('../fixtures/opencl/', import.meta.url).pathname;
  const POCL = new URL('../harness/pocl-run.py', import.meta.url).pathname;
  const options = ['-cl-fp32-correctly-rounded-divide-sqrt'];
  const rng = new Rng(17);
  const n = 128;
  // Inputs both sides compute the same way (as tests/interp/opencl-pocl.test.ts draws them): moderate f64 exponents; f16 below 2.
  const f64s = () => { const b = Buffer.alloc(8 * n); for (let k = 0; k < n; k++) { b.writeUInt32LE(rng.u32(), 8 * k); b.writeUInt32LE(((rng.u32() & 0x801fffff) | (0x3c000000 + ((rng.u32() % 0x80) << 20))) >>> 0, 8 * k + 4); } return new Uint8Array(b); };
  const f16s = () => { const b = Buffer.alloc(2 * n); for (let k = 0; k < n; k++) b.writeUInt16LE(rng.u32() % 8 === 0 ? rng.u32() & 0x83ff : rng.u32() & 0xbfff, 2 * k); return new Uint8Array(b); };
  const dev = VulkanDevice.open({ driverFiles: LVP, validation: true });
  try {
    for (const wave64 of [false, true]) {
      const code = new Uint8Array(readFileSync(buildOpenCl('interp-float.cl', { wave64, options })));
      for (const [kernel, buffers] of [['f64_ops', [f64s(), f64s(), new Uint8Array(48 * n)]], ['f16_ops', [f16s(), f16s(), new Uint8Array(6 * n), new Uint8Array(4 * n)]]] as const) {
        const shader = loadShaders({ bytes: code, name: 'k' }).find((x) => x.info.name === kernel);
        assert.ok(shader);
        const vk = buffers.map((x) => x.slice());
        await runOnVulkan(shader, prepare(shader, vk, [n, 1, 1], [64, 1, 1]), dev);
        const argsFile = join(dir, `${kernel}-${wave64 ? 64 : 32}.json`);
        writeFileSync(argsFile, JSON.stringify({ kernel, grid: [n], block: [64], args: buffers.map((x) => ({ buffer: 'u8', base64: Buffer.from(x).toString('base64') })) }));
        const pocl = spawnSync('/usr/bin/python3', [POCL, join(FIX, 'interp-float.cl'), argsFile, `-I${FIX}`, ...options], { encoding: 'utf8', maxBuffer: 1 << 28 });
        assert.equal(pocl.status, 0, `pocl ${kernel}: ${pocl.stderr}`);
        const out = (JSON.parse(pocl.stdout) as { buffers: { arg: number; base64: string }[] }).buffers;
        same(`${kernel} wave${wave64 ? 64 : 32} against pocl`, [out.map((x) => new Uint8Array(Buffer.from(x.base64, 'base64'))), vk]);
        assert.ok(vk[2]?.some((v) => v !== 0), `${kernel} wrote its results`);
      }
    }
  } finally {
    dev.close();
  }
});

test('control flow through the whole recompiler (nested loops with breaks and continues, SCC/VCCZ/EXECZ branches both ways, early s_endpgm, an irreducible cycle), wave32 and wave64, exactly on lavapipe', async () => {
  await runSuite(suite('control flow'));
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
  const shaders = assemble('gfx1030', [{ name: 'fsin', body: 'v_mullit_f32 v1, v0, v0, v0\nglobal_store_dword v[2:3], v1, off\ns_endpgm' }]);
  const k = shaders.get('fsin');
  assert.ok(k);
  assert.throws(() => recompile(k, { profile: LAVAPIPE_PROFILE }), (e: unknown) => (e instanceof TranslateError || e instanceof CompileError) && /^pc 0x0: v_mullit_f32 v1, v0, v0, v0 .*not translated yet/.test(e.message));
});

test('rdna run --engine vulkan: the same JSON as the interpreter plus the device; a missing driver is one line, exit 1', () => {
  const BIN = new URL('../../bin/rdna', import.meta.url).pathname;
  const obj = buildOpenCl('interp-int.cl');
  const args = join(dir, 'args.json');
  writeFileSync(args, JSON.stringify({ kernel: 'collatz', grid: [64], block: [32], args: [{ buffer: 'u32', data: Array.from({ length: 64 }, (_, k) => k + 1) }, { buffer: 'u32', size: 256 }, { buffer: 'u32', size: 256 }] }));
  const run = (engine: string, env: NodeJS.ProcessEnv, more: string[] = []) => spawnSync(process.execPath, [BIN, 'run', obj, '--args', args, '--engine', engine, '--json', ...more], { encoding: 'utf8', env: { ...process.env, ...env } });
  const vk = run('vulkan', { VK_DRIVER_FILES: LVP, RDNA_VULKAN_VALIDATION: '1' });
  assert.equal(vk.status, 0, vk.stderr);
  // --timeout (the submission's fence wait) changes nothing else.
  const vkLong = run('vulkan', { VK_DRIVER_FILES: LVP }, ['--timeout', '600']);
  assert.equal(vkLong.status, 0, vkLong.stderr);
  assert.deepEqual((JSON.parse(vkLong.stdout) as { buffers: unknown }).buffers, (JSON.parse(vk.stdout) as { buffers: unknown }).buffers);
  for (const bad of [['--timeout', '0'], ['--timeout', 'x'], ['--timeout', '3601']]) assert.equal(run('vulkan', { VK_DRIVER_FILES: LVP }, bad).status, 2, bad.join(' '));
  assert.equal(run('interp', {}, ['--timeout', '5']).status, 2);
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

test('runPlanOnVulkan hands its timeout to each submission\'s fence wait', async () => {
  const code = new Uint8Array(readFileSync(buildOpenCl('interp-int.cl')));
  const shaders = loadShaders({ bytes: code, name: 'k' });
  const plan = parseArgs({ kernel: 'collatz', grid: [32], block: [32], args: [{ buffer: 'u32', data: Array.from({ length: 32 }, (_, k) => k + 1) }, { buffer: 'u32', size: 128 }, { buffer: 'u32', size: 128 }] }, shaders);
  const dev = VulkanDevice.open({ driverFiles: LVP });
  try {
    const seen: (number | undefined)[] = [];
    const runSteps = dev.runSteps.bind(dev);
    dev.runSteps = (k, b, s, o) => { seen.push(o?.timeoutMs); return runSteps(k, b, s, o); };
    const compiled = plan.kernels.map((s) => compileFor(s, dev));
    await runPlanOnVulkan(plan, compiled, dev, { timeoutMs: 123_000 });
    await runPlanOnVulkan(plan, compiled, dev);
    assert.deepEqual(seen, [123_000, undefined]);
  } finally {
    dev.close();
  }
});
