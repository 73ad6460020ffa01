// Raw compute shaders (code bytes + JSON sidecar, as an emulator captures them) dispatched with
// their user data from ARGS.json, on the three engines (the RDNA interpreter, the IR interpreter,
// the recompiled module on Vulkan) and through `rdna run` as a user runs it. The expected values
// are written here from the launch rules (COMPUTE_PGM_RSRC2's system SGPRs after the user SGPRs;
// TG_SIZE: waves in bits 5:0, the wave's index in 11:6 and on gfx1030 in 24:20 too; the workitem
// ids by TIDIG_COMP_CNT), not read back from the engines.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadShaders, type Shader } from '../../src/container/shader.js';
import type { Target } from '../../src/isa/types.js';
import { parseArgs, prepareDispatch, type ArgsPlan } from '../../src/interp/args.js';
import { runPlan } from '../../src/interp/sequence.js';
import { recompile } from '../../src/backend/recompile.js';
import { dispatchIr } from '../../src/ir/dispatch.js';
import { runPlanOnVulkan, compileFor } from '../../src/runtime/engine.js';
import { VulkanDevice } from '../../src/runtime/vulkan.js';
import { assembleShaders } from '../harness/kernel.js';
import { fmt, tsharp, tsharpDwords } from './image-vk-kernels.js';
import { LVP } from './harness.js';

const BIN = new URL('../../bin/rdna', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'rdna-raw-'));

/** The code bytes of a shader assembled by llvm-mc-19 (what an emulator captures: no container). */
function rawBytes(target: Target, body: string, waveSize: 32 | 64): Uint8Array {
  const k = assembleShaders(target, [{ name: 'raw', body, wave64: waveSize === 64 }]).get('raw');
  assert.ok(k);
  return new Uint8Array(k.words.buffer.slice(k.words.byteOffset, k.words.byteOffset + k.words.byteLength));
}

const rawShader = (bytes: Uint8Array, sidecar: object): Shader => {
  const [s] = loadShaders({ bytes, name: 'raw', sidecar: { text: JSON.stringify(sidecar), where: 'raw.json' } });
  assert.ok(s);
  return s;
};

// s[0:1] the output's address, s2 an addend, s[4:7] a V# of the input, then s8 tgid.x, s9 tgid.y,
// s10 TG_SIZE; v0 x, v1 y. Each lane writes [x, y, tgid.x, tgid.y, TG_SIZE, in[g] + s2] at record
// g, its linear index in a grid of 2 x 2 workgroups of 16 x 4 lanes. `load` addresses the input by
// byte offset (a raw V#) or by index (a V# with a stride of 4).
const BLOCK = [16, 4, 1] as const, GRID = [32, 8, 1] as const;
const body = (load: 'offen' | 'idxen', prologue = '') => `${prologue}
  s_lshl_b32 s11, s9, 1
  s_add_u32 s11, s11, s8
  s_lshl_b32 s11, s11, 6
  v_lshlrev_b32 v2, 4, v1
  v_add_nc_u32 v2, v2, v0
  v_add_nc_u32 v2, s11, v2
  v_lshlrev_b32 v3, 2, v2
  ${load === 'offen' ? 'buffer_load_dword v4, v3, s[4:7], 0 offen' : 'buffer_load_dword v4, v2, s[4:7], 0 idxen'}
  v_mul_u32_u24 v5, v2, 24
  s_waitcnt vmcnt(0)
  v_add_nc_u32 v4, s2, v4
  v_mov_b32 v6, s8
  v_mov_b32 v7, s9
  v_mov_b32 v8, s10
  global_store_dword v5, v0, s[0:1]
  global_store_dword v5, v1, s[0:1] offset:4
  global_store_dword v5, v6, s[0:1] offset:8
  global_store_dword v5, v7, s[0:1] offset:12
  global_store_dword v5, v8, s[0:1] offset:16
  global_store_dword v5, v4, s[0:1] offset:20
  s_endpgm`;

const SIDECAR = (target: Target, waveSize: 32 | 64) => ({
  target, stage: 'cs', waveSize, vgprs: 16, sgprs: 16,
  userSgprs: [{ name: 'out', sgpr: 0, count: 2 }, { name: 'k', sgpr: 2, count: 1 }, { name: 'in', sgpr: 4, count: 4 }],
  userSgprCount: 8, tgidEnable: [true, true, false], tgSizeEnable: true, tidigCompCnt: 1, workgroupSize: [...BLOCK],
});

const N = GRID[0] * GRID[1];
const INPUT = Array.from({ length: N }, (_, i) => (i * 2654435761) >>> 0);
const K = 0x1234567;

/** The records the launch rules give (written from them here). */
function expected(target: Target, waveSize: 32 | 64): Uint32Array {
  const out = new Uint32Array(N * 6);
  const lanes = BLOCK[0] * BLOCK[1];
  const waves = Math.ceil(lanes / waveSize);
  for (let gy = 0; gy < 2; gy++) for (let gx = 0; gx < 2; gx++) for (let y = 0; y < BLOCK[1]; y++) for (let x = 0; x < BLOCK[0]; x++) {
    const local = y * BLOCK[0] + x;
    const g = (gy * 2 + gx) * lanes + local;
    const wave = Math.floor(local / waveSize);
    const tgSize = waves | (wave << 6) | (target === 'gfx1030' ? wave << 20 : 0);
    out.set([x, y, gx, gy, tgSize, ((INPUT[g] as number) + K) >>> 0], g * 6);
  }
  return out;
}

const argsDoc = (load: 'offen' | 'idxen') => ({
  grid: [...GRID], block: [...BLOCK],
  args: {
    out: { buffer: 'u32', size: N * 24 },
    k: { u32: K },
    in: load === 'offen'
      ? { resource: { buffer: 'u32', data: INPUT } }
      // A captured V#: stride 4 in dword 1 (bits 29:16), NUM_RECORDS in elements, OOB_SELECT 0
      // (structured: the index against NUM_RECORDS); its address bits (0xdead, 0xbeef) are replaced.
      : { resource: { buffer: 'u32', data: INPUT }, words: [0xdead0000, (4 << 16) | 0xbeef, N, 0x01016fac] },
  },
});

const u32s = (b: Uint8Array) => new Uint32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));

const CONFIGS = [
  { target: 'gfx1030', waveSize: 32, load: 'offen' },
  { target: 'gfx1030', waveSize: 64, load: 'idxen' },
  { target: 'gfx1013', waveSize: 32, load: 'idxen' },
  { target: 'gfx1010', waveSize: 64, load: 'offen' },
] as const;

test('a raw compute shader\'s sidecar lays out its system SGPRs and workitem VGPRs as COMPUTE_PGM_RSRC2 does; left-out fields take the llvm-mc defaults, reported as assumed', () => {
  const bytes = rawBytes('gfx1030', 's_endpgm', 32);
  const a = rawShader(bytes, SIDECAR('gfx1030', 32)).info;
  assert.deepEqual(a.systemSgprs, [{ kind: 'workgroup_id_x', first: 8, count: 1 }, { kind: 'workgroup_id_y', first: 9, count: 1 }, { kind: 'workgroup_info', first: 10, count: 1 }]);
  assert.deepEqual(a.workitemIdVgprs, ['x', 'y']);
  const b = rawShader(bytes, { target: 'gfx1030', stage: 'cs', waveSize: 32, userSgprCount: 3, tgidEnable: [false, true, true], scratchEnable: true, tidigCompCnt: 2 }).info;
  assert.deepEqual(b.systemSgprs, [{ kind: 'workgroup_id_y', first: 3, count: 1 }, { kind: 'workgroup_id_z', first: 4, count: 1 }, { kind: 'private_segment_wave_offset', first: 5, count: 1 }]);
  assert.deepEqual(b.workitemIdVgprs, ['x', 'y', 'z']);
  const c = rawShader(bytes, { target: 'gfx1030', stage: 'cs', waveSize: 32 }).info;
  assert.deepEqual(c.systemSgprs, [{ kind: 'workgroup_id_x', first: 0, count: 1 }]);
  assert.deepEqual(c.workitemIdVgprs, ['x']);
  for (const f of ['tgidEnable', 'tgSizeEnable', 'scratchEnable', 'tidigCompCnt']) assert.ok(c.assumed.includes(f as never), f);
  assert.throws(() => rawShader(bytes, { target: 'gfx1030', stage: 'ps', waveSize: 32, tgSizeEnable: true }), /'tgSizeEnable' is for compute shaders/);
  assert.throws(() => rawShader(bytes, { target: 'gfx1030', stage: 'cs', waveSize: 32, tgidEnable: [true, 1, false] }), /'tgidEnable' must be three booleans/);
  assert.throws(() => rawShader(bytes, { target: 'gfx1030', stage: 'cs', waveSize: 32, sgprs: 4, userSgprCount: 4 }), /'sgprs' must cover the 4 user SGPRs and the 1 system SGPRs/);
});

for (const c of CONFIGS) {
  test(`raw compute shader, ${c.target} wave${c.waveSize}, V# by ${c.load === 'offen' ? 'byte offset (default words)' : 'index (captured words)'}: user data, workgroup ids, TG_SIZE and workitem ids on the interpreter, the IR interpreter and Vulkan`, async () => {
    const shader = rawShader(rawBytes(c.target, body(c.load), c.waveSize), SIDECAR(c.target, c.waveSize));
    const want = expected(c.target, c.waveSize);
    // The RDNA interpreter, through the ARGS plan (as `rdna run`).
    const plan: ArgsPlan = parseArgs(argsDoc(c.load), [shader]);
    runPlan(plan, { maxSteps: 1e7 });
    assert.deepEqual(u32s(plan.buffers[0]?.bytes as Uint8Array), want, 'interpreter');
    // The recompiled IR on the IR interpreter.
    const prep = prepareDispatch(argsDoc(c.load), shader);
    dispatchIr(recompile(shader).ir, shader, { grid: prep.grid, block: prep.block, kernarg: prep.kernarg, mem: prep.mem, maxSteps: 1e7 });
    assert.deepEqual(u32s(prep.buffers[0]?.bytes as Uint8Array), want, 'IR interpreter');
    // The module on Vulkan.
    const dev = VulkanDevice.open({ driverFiles: LVP, validation: true });
    try {
      const vplan = parseArgs(argsDoc(c.load), [shader]);
      await runPlanOnVulkan(vplan, [compileFor(shader, dev, shader.info.ldsSize, BLOCK[0] * BLOCK[1])], dev);
      assert.deepEqual(u32s(vplan.buffers[0]?.bytes as Uint8Array), want, 'Vulkan');
    } finally {
      dev.close();
    }
  });
}

test('rdna run on a raw compute shader with its sidecar: both engines print the buffers the launch rules give', () => {
  const bin = join(dir, 'shader.bin');
  writeFileSync(bin, rawBytes('gfx1030', body('idxen'), 32));
  writeFileSync(join(dir, 'shader.json'), JSON.stringify(SIDECAR('gfx1030', 32)));
  const args = join(dir, 'args.json');
  writeFileSync(args, JSON.stringify(argsDoc('idxen')));
  const want = [...expected('gfx1030', 32)];
  for (const engine of ['interp', 'vulkan']) {
    const r = spawnSync(process.execPath, [BIN, 'run', bin, '--args', args, '--engine', engine, '--json'], { encoding: 'utf8', env: { ...process.env, ...(engine === 'vulkan' ? { VK_DRIVER_FILES: LVP, RDNA_VULKAN_VALIDATION: '1' } : {}) } });
    assert.equal(r.status, 0, r.stderr);
    const out = JSON.parse(r.stdout) as { engine: string; kernel: string; buffers: { name?: string; base64: string }[] };
    assert.equal(out.engine, engine);
    const b = out.buffers.find((x) => x.name === 'out');
    assert.ok(b, engine);
    assert.deepEqual([...u32s(new Uint8Array(Buffer.from(b.base64, 'base64')))], want, engine);
  }
});

// The user data as a table (the usual layout when a shader has many resources): s[0:1] point to
// [V# of the input, the output's address, an addend, the address of a nested table holding 77, 5
// and the input's address]; the shader adds the addend, 77 and the input's first dword.
const TABLE_PROLOGUE = `
  s_load_dwordx4 s[4:7], s[0:1], 0x0
  s_load_dword s2, s[0:1], 0x18
  s_load_dwordx2 s[14:15], s[0:1], 0x1c
  s_load_dwordx2 s[0:1], s[0:1], 0x10
  s_waitcnt lgkmcnt(0)
  s_load_dword s3, s[14:15], 0x0
  s_load_dwordx2 s[16:17], s[14:15], 0x8
  s_waitcnt lgkmcnt(0)
  s_load_dword s18, s[16:17], 0x0
  s_waitcnt lgkmcnt(0)
  s_add_u32 s2, s2, s3
  s_add_u32 s2, s2, s18`;
const TABLE_SIDECAR = { ...SIDECAR('gfx1030', 32), userSgprs: [{ name: 'srt', sgpr: 0, count: 2 }] };
const tableDoc = (sequence: boolean) => {
  const addend = (K - 77 - (INPUT[0] as number)) >>> 0;
  const table = (out: object, inp: object, inp2: object) => ({ table: [{ resource: inp }, out, { u32: addend }, { table: [{ u32: 77 }, { u32: 5 }, inp2] }] });
  return sequence
    ? { buffers: { in: { buffer: 'u32', data: INPUT }, out: { buffer: 'u32', size: N * 24 } }, dispatches: [{ grid: [...GRID], block: [...BLOCK], args: { srt: table({ ref: 'out' }, { ref: 'in' }, { ref: 'in' }) } }] }
    : { grid: [...GRID], block: [...BLOCK], args: { srt: table({ buffer: 'u32', size: N * 24 }, { buffer: 'u32', data: INPUT }, { buffer: 'u32', data: INPUT }) } };
};

test('raw compute shader whose user data points to a table (a V#, a buffer address, a value, a nested table): interpreter, Vulkan and rdna run', async () => {
  const bytes = rawBytes('gfx1030', body('offen', TABLE_PROLOGUE), 32);
  const shader = rawShader(bytes, TABLE_SIDECAR);
  const want = expected('gfx1030', 32);
  for (const sequence of [false, true]) {
    const plan = parseArgs(tableDoc(sequence), [shader]);
    const out = () => plan.buffers.find((b) => !b.table && b.bytes.length === N * 24)?.bytes as Uint8Array;
    assert.equal(plan.buffers.filter((b) => b.table).length, 2, 'two tables');
    runPlan(plan, { maxSteps: 1e7 });
    assert.deepEqual(u32s(out()), want, `interpreter, sequence ${sequence}`);
    const vplan = parseArgs(tableDoc(sequence), [shader]);
    const dev = VulkanDevice.open({ driverFiles: LVP, validation: true });
    try {
      await runPlanOnVulkan(vplan, [compileFor(shader, dev, 0, BLOCK[0] * BLOCK[1])], dev);
    } finally {
      dev.close();
    }
    assert.deepEqual(u32s(vplan.buffers.find((b) => !b.table && b.bytes.length === N * 24)?.bytes as Uint8Array), want, `Vulkan, sequence ${sequence}`);
  }
  // rdna run prints the document's buffers, not the tables (engine-specific addresses).
  const bin = join(dir, 'srt.bin');
  writeFileSync(bin, bytes);
  writeFileSync(join(dir, 'srt.json'), JSON.stringify(TABLE_SIDECAR));
  const args = join(dir, 'srt-args.json');
  writeFileSync(args, JSON.stringify(tableDoc(true)));
  for (const engine of ['interp', 'vulkan']) {
    const r = spawnSync(process.execPath, [BIN, 'run', bin, '--args', args, '--engine', engine, '--json'], { encoding: 'utf8', env: { ...process.env, VK_DRIVER_FILES: LVP } });
    assert.equal(r.status, 0, r.stderr);
    const o = JSON.parse(r.stdout) as { buffers: { name: string; base64: string }[] };
    assert.deepEqual(o.buffers.map((b) => b.name), ['in', 'out']);
    assert.deepEqual([...u32s(new Uint8Array(Buffer.from(o.buffers[1]?.base64 ?? '', 'base64')))], [...want], engine);
  }
  assert.throws(() => parseArgs({ grid: [...GRID], block: [...BLOCK], args: { srt: { table: [] } } }, [shader]), /"table" must be a list of 1 to 4096 items/);
  assert.throws(() => parseArgs({ grid: [...GRID], block: [...BLOCK], args: { srt: { table: [{ u32: { index: 'k' } }] } } }, [shader]), /a table holds fixed values/);
  assert.throws(() => prepareDispatch(tableDoc(false), shader), /a dispatch with user-data tables runs through parseArgs and a plan/);
});

test('raw compute shader with an image resource (T#) in its user data: the captured words with the image buffer\'s base address, on the interpreter and Vulkan', async () => {
  // s[0:1] the output's address, s[8:15] a T# of a 64 x 4 2D 32_UINT image with a pitch of 64
  // texels (gfx1030's custom pitch); v0 x, v1 y: each lane copies texel (x, y) to out[y * 64 + x].
  const W = 64, H = 4;
  const bytes = rawBytes('gfx1030', `
    v_lshlrev_b32 v2, 6, v1
    v_add_nc_u32 v2, v2, v0
    v_lshlrev_b32 v2, 2, v2
    image_load v3, v[0:1], s[8:15] dmask:0x1 dim:SQ_RSRC_IMG_2D unorm
    s_waitcnt vmcnt(0)
    global_store_dword v2, v3, s[0:1]
    s_endpgm`, 32);
  const shader = rawShader(bytes, { target: 'gfx1030', stage: 'cs', waveSize: 32, vgprs: 8, sgprs: 16, userSgprCount: 16, userSgprs: [{ name: 'out', sgpr: 0, count: 2 }, { name: 'tex', sgpr: 8, count: 8 }], tgidEnable: [false, false, false], tidigCompCnt: 1, workgroupSize: [W, H, 1] });
  const texels = Array.from({ length: W * H }, (_, i) => (i * 0x9e3779b1 + 7) >>> 0);
  // The captured words: dword 0 and BASE_HI (0xab, 0xcd here) are replaced by the buffer's address.
  const words = [0xabababab, ...tsharpDwords(tsharp('2d', { format: fmt('32_UINT'), w: W, h: H, pitch: W }))];
  words[1] = ((words[1] as number) | 0xcd) >>> 0;
  const doc = { grid: [W, H, 1], block: [W, H, 1], args: { out: { buffer: 'u32', size: 4 * W * H }, tex: { image: { buffer: 'u32', data: texels }, words } } };
  const plan = parseArgs(doc, [shader]);
  runPlan(plan, { maxSteps: 1e6 });
  assert.deepEqual([...u32s(plan.buffers[0]?.bytes as Uint8Array)], texels, 'interpreter');
  const vplan = parseArgs(doc, [shader]);
  const dev = VulkanDevice.open({ driverFiles: LVP, validation: true });
  try {
    await runPlanOnVulkan(vplan, [compileFor(shader, dev, 0, W * H)], dev);
  } finally {
    dev.close();
  }
  assert.deepEqual([...u32s(vplan.buffers[0]?.bytes as Uint8Array)], texels, 'Vulkan');
  assert.throws(() => parseArgs({ ...doc, args: { ...doc.args, tex: { image: { buffer: 'u32', size: 16 } } } }, [shader]), /"words" must be the T#'s eight dwords/);
});

test('raw compute shaders: every mistake in the dispatch is one line naming it', () => {
  const shader = rawShader(rawBytes('gfx1030', body('offen'), 32), SIDECAR('gfx1030', 32));
  const doc = argsDoc('offen');
  assert.throws(() => parseArgs({ ...doc, grid: [30, 8, 1] }, [shader]), /dispatched in whole workgroups: the grid \(30, 8, 1\) must be a multiple of the block \(16, 4, 1\) in each dimension \(x is not\)/);
  assert.throws(() => parseArgs({ ...doc, args: { out: doc.args.out, in: doc.args.in } }, [shader]), /user-data slot k is missing from "args"/);
  assert.throws(() => parseArgs({ ...doc, args: { ...doc.args, k: { buffer: 'u32', size: 4 } } }, [shader]), /user-data slot k \(s2\): a buffer's address takes 2 SGPRs, the slot has 1/);
  assert.throws(() => parseArgs({ ...doc, args: { ...doc.args, out: { u32: 1 } } }, [shader]), /user-data slot out \(s0\.\.s1\): .*a u32 is 4/);
  assert.throws(() => parseArgs({ ...doc, args: { ...doc.args, in: { resource: { buffer: 'u32', size: 4 }, words: [1, 2, 3] } } }, [shader]), /"words" must be the V#'s four dwords/);
  assert.throws(() => parseArgs({ ...doc, args: { ...doc.args, extra: { u32: 1 } } }, [shader]), /"args" names "extra", which is not a user-data slot/);
  const bytes = rawBytes('gfx1030', 's_endpgm', 32);
  const ps = rawShader(bytes, { target: 'gfx1030', stage: 'ps', waveSize: 32 });
  assert.throws(() => parseArgs({ grid: [1, 1, 1], block: [1, 1, 1] }, [ps]), /raw ps shader: only compute shaders \(stage cs\) are dispatched here/);
  assert.throws(() => recompile(ps), /raw ps shader: only compute shaders/);
  const wide = rawShader(bytes, { target: 'gfx1030', stage: 'cs', waveSize: 32, userSgprCount: 17 });
  assert.throws(() => parseArgs({ grid: [1, 1, 1], block: [1, 1, 1], args: [] }, [wide]), /a compute shader has 16 user-data SGPRs \(COMPUTE_USER_DATA_0\.\.15\), its sidecar asks for 17/);
  // `rdna run`: one line, exit 1.
  const bin = join(dir, 'bad.bin');
  writeFileSync(bin, rawBytes('gfx1030', body('offen'), 32));
  writeFileSync(join(dir, 'bad.json'), JSON.stringify(SIDECAR('gfx1030', 32)));
  const args = join(dir, 'bad-args.json');
  writeFileSync(args, JSON.stringify({ ...doc, grid: [30, 8, 1] }));
  const r = spawnSync(process.execPath, [BIN, 'run', bin, '--args', args], { encoding: 'utf8' });
  assert.equal(r.status, 1);
  assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
  assert.match(r.stderr, /whole workgroups/);
});
