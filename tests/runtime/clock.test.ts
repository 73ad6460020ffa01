// s_memtime and s_memrealtime on every engine: the RDNA interpreter (instruction counts), the IR
// interpreter (IR instruction counts) and the recompiled kernel on lavapipe with the validation
// layer on (OpReadClockKHR at Subgroup / Device scope). The values are each engine's own, so the
// tests check the contract code relies on (src/interp/units/smem.ts): in every wave a later read
// of a clock is not smaller than an earlier one (64-bit unsigned), every lane of the wave holds the
// same value (an SGPR pair), the value is not 0 where it must have counted; wave32 and wave64,
// per-wave and workgroup (s_barrier) layouts. Each module passes spirv-val for every preset
// profile; a profile FILE.json reads the clock features; a profile without them refuses the kernel in one line with the pc, the
// instruction and the feature, and `rdna coverage` counts both opcodes as translated.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { recompile } from '../../src/backend/recompile.js';
import { CompileError } from '../../src/backend/spirv/emit.js';
import { LAVAPIPE_PROFILE, NVIDIA_H200_PROFILE, parseProfile, PORTABLE_PROFILE, RADV_PROFILE } from '../../src/backend/profile.js';
import { isTranslated } from '../../src/frontend/index.js';
import { runOnVulkan } from '../../src/runtime/engine.js';
import { VulkanDevice } from '../../src/runtime/vulkan.js';
import type { Shader } from '../../src/container/shader.js';
import { spirvVal } from '../harness/spirv.js';
import { assembleKernels } from '../harness/kernel.js';
import { assemble, KERNARG_DIRECTIVES } from '../interp/harness.js';
import { type EngineCase, interpret, irRun, prepare } from './cases.js';
import { LVP } from './harness.js';

const BIN = new URL('../../bin/rdna', import.meta.url).pathname;

/** Per lane: s_memtime before, after; s_memrealtime before, after (8 dwords, 32 bytes at global id * 32). */
const body = (barrier: boolean) => `
  s_load_dwordx2 s[4:5], s[0:1], 0x0
  s_memtime s[8:9]
  s_memrealtime s[10:11]
  s_waitcnt lgkmcnt(0)
  s_mov_b32 s12, 0
  v_mov_b32 v10, 0
.Lwork_${barrier ? 'b' : 'n'}:
  v_add_nc_u32 v10, v10, v0
  s_add_u32 s12, s12, 1
  s_cmp_lt_u32 s12, 20
  s_cbranch_scc1 .Lwork_${barrier ? 'b' : 'n'}
  ${barrier ? 's_barrier' : 's_nop 0'}
  s_memtime s[14:15]
  s_memrealtime s[16:17]
  s_waitcnt lgkmcnt(0)
  s_lshl_b32 s3, s2, 6
  v_add_nc_u32 v1, s3, v0
  v_lshlrev_b32 v1, 5, v1
  v_mov_b32 v2, s8
  v_mov_b32 v3, s9
  v_mov_b32 v4, s14
  v_mov_b32 v5, s15
  v_mov_b32 v6, s10
  v_mov_b32 v7, s11
  v_mov_b32 v8, s16
  v_mov_b32 v9, s17
  global_store_dwordx4 v1, v[2:5], s[4:5]
  global_store_dwordx4 v1, v[6:9], s[4:5] offset:16
  s_endpgm`;

const GRID = 256, BLOCK = 64;

interface Kernel { readonly name: string; readonly wave64: boolean; readonly barrier: boolean; readonly shader: Shader }

function kernels(): Kernel[] {
  const out: Kernel[] = [];
  for (const wave64 of [false, true]) {
    const specs = [false, true].map((barrier) => ({ name: `clock_w${wave64 ? 64 : 32}${barrier ? '_barrier' : ''}`, body: body(barrier), wave64, directives: ['.amdhsa_system_sgpr_workgroup_id_x 1'] }));
    const shaders = assemble('gfx1030', specs);
    specs.forEach((s, k) => out.push({ name: s.name, wave64, barrier: k === 1, shader: shaders.get(s.name) as Shader }));
  }
  return out;
}

const engineCase = (k: Kernel): EngineCase => ({ name: k.name, spirvName: k.name, code: new Uint8Array(), kernel: k.name, shader: k.shader, buffers: [new Uint8Array(32 * GRID)], grid: [GRID, 1, 1], block: [BLOCK, 1, 1], scalars: [] });

interface Reads { time0: bigint; time1: bigint; real0: bigint; real1: bigint }

/** Each wave's reads (one per wave, after checking that its lanes agree). */
function waves(name: string, out: Uint8Array, waveSize: number): Reads[] {
  const v = new DataView(out.buffer, out.byteOffset, out.byteLength);
  const lane = (g: number): Reads => ({ time0: v.getBigUint64(32 * g, true), time1: v.getBigUint64(32 * g + 8, true), real0: v.getBigUint64(32 * g + 16, true), real1: v.getBigUint64(32 * g + 24, true) });
  const res: Reads[] = [];
  for (let w = 0; w < GRID / waveSize; w++) {
    const first = lane(w * waveSize);
    for (let l = 1; l < waveSize; l++) assert.deepEqual(lane(w * waveSize + l), first, `${name}: wave ${w} lane ${l} read other clock values than lane 0 (an SGPR pair is one value per wave)`);
    res.push(first);
  }
  return res;
}

/** The contract every engine keeps: per wave, the second read of each clock >= the first, and it counted (not 0). */
function monotonic(name: string, rs: readonly Reads[], strict: boolean): void {
  rs.forEach((r, w) => {
    const at = `${name}: wave ${w} (${JSON.stringify(r, (_k, x: unknown) => (typeof x === 'bigint' ? x.toString() : x))})`;
    assert.ok(r.time1 >= r.time0 && r.real1 >= r.real0, `${at}: a clock went backwards`);
    if (strict) assert.ok(r.time1 > r.time0 && r.real1 > r.real0, `${at}: an interpreter clock did not count the instructions between the reads`);
    assert.ok(r.time1 > 0n && r.real1 > 0n, `${at}: a clock read 0 after instructions ran`);
  });
}

test('s_memtime / s_memrealtime: the RDNA interpreter, the IR interpreter and lavapipe (validation on) each read per-wave uniform, non-decreasing clocks, wave32 and wave64, with and without s_barrier', async () => {
  assert.ok(LVP, 'lavapipe (mesa-vulkan-drivers) is not installed');
  const dev = VulkanDevice.open({ driverFiles: LVP, validation: true });
  try {
    assert.equal(dev.profile.features.shaderSubgroupClock, true, 'lavapipe offers shaderSubgroupClock (the addon enables it)');
    assert.equal(dev.profile.features.shaderDeviceClock, true, 'lavapipe offers shaderDeviceClock');
    for (const k of kernels()) {
      const ws = k.wave64 ? 64 : 32;
      for (const profile of [LAVAPIPE_PROFILE, RADV_PROFILE, NVIDIA_H200_PROFILE]) {
        const r = recompile(k.shader, { profile });
        spirvVal(r.spirv, `${k.name} (${profile.name}, ${r.laneExchange.kind} lane exchange)`);
      }
      const c = engineCase(k);
      const ref = waves(`${k.name} (RDNA interpreter)`, interpret(c)[0] as Uint8Array, ws);
      monotonic(`${k.name} (RDNA interpreter)`, ref, true);
      const ir = waves(`${k.name} (IR interpreter)`, irRun(c)[0] as Uint8Array, ws);
      monotonic(`${k.name} (IR interpreter)`, ir, true);
      // The interpreters' real-time clock is the dispatch's: without a barrier the waves run one
      // after another, so each wave's first read comes after the previous wave's last.
      if (!k.barrier) for (const [e, rs] of [['RDNA interpreter', ref], ['IR interpreter', ir]] as const) for (let w = 1; w < rs.length; w++) assert.ok((rs[w] as Reads).real0 > (rs[w - 1] as Reads).real1, `${k.name} (${e}): wave ${w}'s s_memrealtime is not after wave ${w - 1}'s`);
      // Lavapipe (Mesa 22.3) gives its nanosecond clock's low 32 bits (the high dword is 0,
      // measured), so it wraps every 2^32 ns (4.3 s): a wrap between two reads of a wave (about
      // 2 µs apart) is the driver's, not the translation's. Only then, one run more.
      for (let attempt = 0; ; attempt++) {
        const vk = [new Uint8Array(32 * GRID)];
        await runOnVulkan(k.shader, prepare(k.shader, vk, c.grid, c.block, []), dev);
        const rs = waves(`${k.name} (lavapipe)`, vk[0] as Uint8Array, ws);
        const wrapped = rs.some((r) => (r.time1 < r.time0 || r.real1 < r.real0) && [r.time0, r.time1, r.real0, r.real1].every((x) => x < 2n ** 32n));
        if (wrapped && attempt === 0) continue;
        monotonic(`${k.name} (lavapipe)`, rs, false);
        break;
      }
    }
  } finally {
    dev.close();
  }
});

test('a profile without VK_KHR_shader_clock refuses s_memtime and s_memrealtime in one line naming the pc, the instruction and the feature (recompile, rdna compile exit 1)', () => {
  const cases = [
    ['s_memtime s[8:9]', 'shaderSubgroupClock'],
    ['s_memrealtime s[8:9]', 'shaderDeviceClock'],
  ] as const;
  for (const [asm, feature] of cases) {
    const k = assemble('gfx1030', [{ name: 'refused', body: `s_nop 0\n  ${asm}\n  s_waitcnt lgkmcnt(0)\n  s_endpgm` }]).get('refused');
    assert.ok(k);
    const want = new RegExp(`^pc 0x4: ${asm.replace(/[[\]]/g, '\\$&')}: reading the .* clock \\(OpReadClockKHR at (Subgroup|Device) scope\\) needs VK_KHR_shader_clock's ${feature}, which the portable profile does not offer$`);
    assert.throws(() => recompile(k, { profile: PORTABLE_PROFILE }), (e: unknown) => e instanceof CompileError && want.test(e.message), asm);
    // Only the feature that clock needs: the other one alone is not enough.
    const other = { ...LAVAPIPE_PROFILE, name: 'other-clock', [feature]: false };
    assert.throws(() => recompile(k, { profile: other }), (e: unknown) => e instanceof CompileError && e.message.includes(`${feature}, which the other-clock profile does not offer`), asm);
    const present = { ...PORTABLE_PROFILE, name: 'clock-only', [feature]: true };
    assert.ok(recompile(k, { profile: present }).spirv.length > 0, `${asm}: compiles with ${feature} alone`);
  }
  // A profile FILE.json: the fields may be left out (not offered), else must be booleans.
  const json = { name: 'dev', shaderInt64: true, shaderFloat64: false, f16: PORTABLE_PROFILE.f16, f32: PORTABLE_PROFILE.f32, f64: PORTABLE_PROFILE.f64 };
  const none = parseProfile(JSON.stringify(json), 'dev.json');
  assert.equal(none.shaderSubgroupClock === true || none.shaderDeviceClock === true, false);
  const both = parseProfile(JSON.stringify({ ...json, shaderSubgroupClock: true, shaderDeviceClock: true }), 'dev.json');
  assert.equal(both.shaderSubgroupClock && both.shaderDeviceClock, true);
  assert.throws(() => parseProfile(JSON.stringify({ ...json, shaderDeviceClock: 'yes' }), 'dev.json'), /field 'shaderDeviceClock' must be true or false/);
  // The CLI: exit 1, one line.
  const dir = mkdtempSync(join(tmpdir(), 'rdna-clock-'));
  const obj = join(dir, 'clock.o');
  writeFileSync(obj, assembleKernels('gfx1030', [{ name: 'clock', body: 's_memtime s[8:9]\n  s_waitcnt lgkmcnt(0)\n  s_endpgm', directives: [...KERNARG_DIRECTIVES] }]));
  const r = spawnSync(process.execPath, [BIN, 'compile', obj, '-o', join(dir, 'clock.spv'), '--profile', 'portable'], { encoding: 'utf8' });
  assert.equal(r.status, 1, r.stderr);
  assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
  assert.match(r.stderr, /^rdna compile: error: clock: pc 0x0: s_memtime s\[8:9\]: reading the shader clock \(OpReadClockKHR at Subgroup scope\) needs VK_KHR_shader_clock's shaderSubgroupClock, which the portable profile does not offer$/m);
  const ok = spawnSync(process.execPath, [BIN, 'compile', obj, '-o', join(dir, 'clock.spv'), '--profile', 'lavapipe'], { encoding: 'utf8' });
  assert.equal(ok.status, 0, ok.stderr);
});

test('rdna coverage counts s_memtime and s_memrealtime as translated on every target', () => {
  assert.ok(isTranslated('s_memtime') && isTranslated('s_memrealtime'));
  const r = spawnSync(process.execPath, [BIN, 'coverage', '--json'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const rep = JSON.parse(r.stdout) as { targets: { target: string; families: { family: string; missing: string[] }[] }[] };
  for (const t of rep.targets) {
    const smem = t.families.find((f) => f.family === 'SMEM');
    assert.ok(smem, t.target);
    for (const m of ['s_memtime', 's_memrealtime']) assert.ok(!smem.missing.includes(m), `${t.target}: ${m} listed as not translated`);
  }
});
