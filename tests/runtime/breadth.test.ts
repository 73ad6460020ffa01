// Memory and integer breadth (issue 7) on three engines: every case of the suites in
// ./cases-breadth.ts (integer atomics, buffer resources, 64-bit integer VALU, compares) runs on the
// RDNA interpreter, on the IR interpreter (the translation before the backend) and recompiled on
// lavapipe with the Khronos validation layer on; each module passes spirv-val; every buffer must
// equal the interpreter's byte for byte.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { recompile } from '../../src/backend/recompile.js';
import { LAVAPIPE_PROFILE } from '../../src/backend/profile.js';
import { VulkanDevice } from '../../src/runtime/vulkan.js';
import { spirvVal } from '../harness/spirv.js';
import { both, LVP, same } from './harness.js';
import { type EngineCase, interpret, prepare, irRun } from './cases.js';
import { addtidCases, atomicCases, atomicsArgs, buffer64Cases, bufferCases, compareCases, intCases, laneCases, openclAtomicCases } from './cases-breadth.js';
import { ldsCases } from './cases-lds.js';
import { dppCases } from './cases-dpp.js';
import { dotCases, movrelCases, permlaneCases, sadCases, sdwaCases } from './cases-vint.js';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { loadShaders } from '../../src/container/shader.js';
import { MEM_CASES, PRIVATE_TABLE_DOC, REVERSE_TILE_DOC } from '../interp/mem-cases.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildOpenCl, OPENCL_FIXTURES } from '../harness/opencl.js';
import { Rng } from '../harness/rng.js';
import { RuntimeFault, runModuleOnVulkan, runOnVulkan } from '../../src/runtime/engine.js';
import { CompileError } from '../../src/backend/spirv/emit.js';
import { PORTABLE_PROFILE } from '../../src/backend/profile.js';
import { dispatch } from '../../src/interp/dispatch.js';
import { assemble } from '../interp/harness.js';

async function runAll(cases: Iterable<EngineCase>): Promise<void> {
  assert.ok(LVP, 'lavapipe (mesa-vulkan-drivers) is not installed');
  const dev = VulkanDevice.open({ driverFiles: LVP, validation: true });
  try {
    for (const c of cases) {
      spirvVal(recompile(c.shader, { profile: LAVAPIPE_PROFILE }).spirv, c.spirvName);
      const [ref, vk] = await both(dev, c);
      if (c.writes !== undefined) assert.ok(ref[c.writes]?.some((v) => v !== 0), `${c.name} wrote its results`);
      same(`${c.name} (IR interpreter)`, [ref, irRun(c)]);
      same(`${c.name} (Vulkan)`, [ref, vk]);
    }
  } finally {
    dev.close();
  }
}

test('every integer global/FLAT atomic, 32- and 64-bit, returning and not, on distinct and shared addresses, wave32 and wave64', async () => {
  await runAll(atomicCases());
});

test('MUBUF/MTBUF loads, stores, atomics and s_buffer_load through V# descriptors: every oob_select at its edges, strides 0..32, swizzling, add_tid, a null V#, wave32 and wave64', async () => {
  await runAll(bufferCases());
  await runAll(buffer64Cases());
});

test('every integer VOPC compare (32- and 64-bit, signed and unsigned, f/t, e32, e64, cmpx) and v_cmp_class_f64 on boundary operand pairs, wave32 and wave64', async () => {
  await runAll(compareCases());
});

test('64-bit integer VALU (shifts, v_mad_u64_u32/v_mad_i64_i32 with their masks and clamp, carry chains) and the other 32-bit integer ops (bit fields, min3/max3/med3, sad, lerp, perm, packs, v_swap_b32), wave32 and wave64', async () => {
  await runAll(intCases());
});

test('v_writelane_b32 (whatever EXEC says) and v_readlane_b32 with constant, out-of-range and run-time lane selects, wave32 and wave64', async () => {
  await runAll(laneCases());
});

test('DPP16 (every control kind, bound_ctrl, fi, row_mask/bank_mask) and DPP8 (selects, fi) on VOP1/VOP2 under a partial EXEC, wave32 and wave64', async () => {
  await runAll(dppCases());
});

test('SDWA forms of the 32-bit VOP1/VOP2/VOPC opcodes (selects, sext, neg/abs, dst_sel/dst_unused, clamp/omod, VOPC sdst) under two MODEs, wave32 and wave64', async () => {
  await runAll(sdwaCases());
});

test('v_permlane16_b32 / v_permlanex16_b32 (selects from SGPRs, constants and data, FI, BOUND_CTRL, vdst = src0) under a partial EXEC, wave32 and wave64', async () => {
  await runAll(permlaneCases());
});

test('integer dot products (VOP3P dot2/dot4/dot8 with op_sel halves and clamp, v_dot4c_i32_i8 and its DPP forms) under a partial EXEC, wave32 and wave64', async () => {
  await runAll(dotCases());
});

test('v_msad_u8, the quad SADs and v_sat_pk_u8_i16 (e32, e64, SDWA, DPP) under a partial EXEC, wave32 and wave64', async () => {
  await runAll(sadCases());
});

test('the M0-indexed moves (s_movrel*, v_movrel*, v_swaprel_b32; M0 a block constant and known only at run time) and v_trig_preop_f64 under a partial EXEC, wave32 and wave64', async () => {
  await runAll(movrelCases());
});

test('LDS and s_barrier across the waves of a workgroup: every DS load/store form, colliding and misaligned, outside the LDS, integer atomics, swizzle/permute, barriers in a loop and after waves ended, wave32 and wave64', async () => {
  await runAll(ldsCases());
});

test('global_load/store_dword_addtid (saddr + offset + lane id * 4), wave32 and wave64', async () => {
  await runAll(addtidCases());
});

/** A kernel with V# s[8:11] over buffer 0 (dword 1's high half, dword 3 given), then `ops`. */
const vsharpKernel = (w1hi: number, w3: number, ops: string) => `
  s_load_dwordx4 s[4:7], s[0:1], 0x0
  s_waitcnt lgkmcnt(0)
  s_mov_b32 s8, s4
  s_and_b32 s9, s5, 0xffff
  s_or_b32 s9, s9, 0x${(w1hi >>> 0).toString(16)}
  s_mov_b32 s10, 0x1000
  s_mov_b32 s11, 0x${(w3 >>> 0).toString(16)}
  v_lshlrev_b32 v1, 2, v0
  ${ops}
  s_waitcnt vmcnt(0)
  global_store_dword v1, v2, s[6:7]
  s_endpgm`;

test('run-time faults of buffer accesses: a swizzled access crossing an element, a V# format the interpreter lacks (INVALID: the interpreter refuses that one too), misaligned 32- and 64-bit atomics', async () => {
  const swizzled = (16 << 16) | 0x80000000, raw = (3 << 28) >>> 0;
  const cases = [
    // The interpreter reads the dword byte by byte across the swizzle elements; the translation faults.
    { name: 'swzcross', w1hi: swizzled, w3: raw, ops: 'v_add_nc_u32 v3, 1, v1\n  buffer_load_dword v2, v3, s[8:11], 0 offen', interp: true, inst: 'buffer_load_dword v2, v3, s[8:11], 0 offen', want: /a swizzled buffer access whose bytes cross a 4-byte swizzle element/ },
    { name: 'swzwide', w1hi: swizzled, w3: raw, ops: 'v_mov_b32 v3, 0\n  buffer_atomic_add_x2 v[2:3], v1, s[8:11], 0 offen glc', interp: true, inst: 'buffer_atomic_add_x2 v[2:3], v1, s[8:11], 0 offen glc', want: /or a 64-bit atomic on a swizzled buffer/ },
    { name: 'badfmt', w1hi: 16 << 16, w3: (raw | (0 << 12) | 4) >>> 0, ops: 'buffer_load_format_x v2, v1, s[8:11], 0 offen', interp: false, inst: 'buffer_load_format_x v2, v1, s[8:11], 0 offen', want: /a buffer format load\/store with a V# format the interpreter does not implement/ },
    // The interpreter does a misaligned atomic byte by byte; a Vulkan atomic needs natural alignment.
    { name: 'misaligned64', w1hi: 16 << 16, w3: raw, ops: 'v_add_nc_u32 v3, 4, v1\n  v_mov_b32 v2, 1\n  v_mov_b32 v4, 0\n  buffer_atomic_add_x2 v[2:3], v3, s[8:11], 0 offen glc', interp: true, inst: 'buffer_atomic_add_x2 v[2:3], v3, s[8:11], 0 offen glc', want: /an atomic at an address not aligned to its size/ },
    { name: 'misaligned32', w1hi: 16 << 16, w3: raw, ops: 'v_add_nc_u32 v3, 2, v1\n  v_mov_b32 v2, 1\n  global_atomic_add v2, v3, v2, s[4:5] glc', interp: true, inst: 'global_atomic_add v2, v3, v2, s[4:5] glc', want: /an atomic at an address not aligned to its size/ },
    { name: 'reservedsel', w1hi: 16 << 16, w3: (raw | (20 << 12) | 2) >>> 0, ops: 'buffer_load_format_x v2, v1, s[8:11], 0 offen', interp: false, inst: 'buffer_load_format_x v2, v1, s[8:11], 0 offen', want: /or a reserved DST_SEL/ },
  ];
  const shaders = assemble('gfx1030', cases.map((c) => ({ name: c.name, body: vsharpKernel(c.w1hi, c.w3, c.ops), vgprs: 8, sgprs: 16 })));
  const dev = VulkanDevice.open({ driverFiles: LVP, validation: true });
  try {
    for (const c of cases) {
      const shader = shaders.get(c.name);
      assert.ok(shader);
      const bufs = () => [new Uint8Array(8192), new Uint8Array(256)];
      const kernarg = (b: Uint8Array[]) => prepare(shader, b, [32, 1, 1], [32, 1, 1]);
      const p = kernarg(bufs());
      const ref = () => dispatch(shader, { grid: [32, 1, 1], block: [32, 1, 1], kernarg: p.kernarg, mem: p.mem, maxSteps: 10_000 });
      if (c.interp) ref(); else assert.throws(ref, /not a format the interpreter implements|reserved DST_SEL/, c.name);
      assert.throws(() => irRun({ shader, buffers: bufs(), grid: [32, 1, 1], block: [32, 1, 1], scalars: [] }), (e: unknown) => e instanceof RuntimeFault && c.want.test(e.message), c.name);
      await assert.rejects(runOnVulkan(shader, kernarg(bufs()), dev), (e: unknown) => e instanceof RuntimeFault && c.want.test(e.message) && e.message.includes(`: ${c.inst}: `), c.name);
    }
  } finally {
    dev.close();
  }
});

test('64-bit atomics on a profile without shaderBufferInt64Atomics are a CompileError naming the pc', () => {
  const shader = assemble('gfx1030', [{ name: 'a64', body: 'v_mov_b32 v2, 1\nv_mov_b32 v3, 0\nglobal_atomic_add_x2 v[0:1], v[2:3], off\ns_endpgm', vgprs: 8, sgprs: 8 }]).get('a64');
  assert.ok(shader);
  assert.throws(() => recompile(shader, { profile: PORTABLE_PROFILE }), (e: unknown) => e instanceof CompileError && /^pc 0x8: AtomicRmw64: 64-bit atomics need shaderBufferInt64Atomics, which the portable profile does not offer/.test(e.message));
  spirvVal(recompile(shader, { profile: LAVAPIPE_PROFILE }).spirv, 'a64');
});

test('OpenCL atomics on ints and longs (clang-19: add, sub, min, max, and, or, xor, xchg, cmpxchg, inc, dec and RDNA\'s wrapping inc/dec): the IR interpreter and Vulkan equal the interpreter', async () => {
  await runAll(openclAtomicCases());
});

test('OpenCL atomics: rdna run --engine vulkan equals pocl byte for byte, wave32 and wave64', () => {
  const BIN = new URL('../../bin/rdna', import.meta.url).pathname;
  const POCL = new URL('../harness/pocl-run.py', import.meta.url).pathname;
  const dir = mkdtempSync(join(tmpdir(), 'rdna-breadth-'));
  const rng = new Rng(5);
  for (const kernel of ['atomics32', 'atomics64'] as const) {
    const args = join(dir, `${kernel}.json`);
    writeFileSync(args, JSON.stringify(atomicsArgs(kernel, rng)));
    const pocl = spawnSync('/usr/bin/python3', [POCL, join(OPENCL_FIXTURES, 'interp-atomics.cl'), args, `-I${OPENCL_FIXTURES}`], { encoding: 'utf8', maxBuffer: 1 << 28 });
    assert.equal(pocl.status, 0, `pocl: ${pocl.stderr}`);
    const want = (JSON.parse(pocl.stdout) as { buffers: { arg: number; base64: string }[] }).buffers;
    for (const wave64 of [false, true]) {
      const r = spawnSync(process.execPath, [BIN, 'run', buildOpenCl('interp-atomics.cl', { wave64 }), '--args', args, '--engine', 'vulkan', '--json'], { encoding: 'utf8', maxBuffer: 1 << 28, env: { ...process.env, VK_DRIVER_FILES: LVP, RDNA_VULKAN_VALIDATION: '1' } });
      assert.equal(r.status, 0, r.stderr);
      const got = (JSON.parse(r.stdout) as { buffers: { arg: number; base64: string }[] }).buffers;
      assert.deepEqual(got.map((b) => b.arg), want.map((b) => b.arg));
      got.forEach((b, k) => assert.equal(b.base64, want[k]?.base64, `${kernel} wave${wave64 ? 64 : 32}: argument ${b.arg} differs from pocl`));
    }
    assert.ok(Buffer.from(want[2]?.base64 ?? '', 'base64').some((v) => v !== 0));
  }
});

test('OpenCL memory kernels (interp-mem.cl tiles, reductions, __local atomics, narrow LDS, lane crossing, scratch, a struct copy through scratch; kernels.cl reverse_tile and private_table): rdna run --engine vulkan equals pocl and the interpreter byte for byte, wave32 and wave64', async () => {
  const BIN = new URL('../../bin/rdna', import.meta.url).pathname;
  const POCL = new URL('../harness/pocl-run.py', import.meta.url).pathname;
  const dir = mkdtempSync(join(tmpdir(), 'rdna-lds-'));
  // pocl compiles kernels.cl without the AMDHSA work-item header (its own built-ins).
  const kernelsPocl = join(dir, 'kernels-pocl.cl');
  writeFileSync(kernelsPocl, readFileSync(join(OPENCL_FIXTURES, 'kernels.cl'), 'utf8').replace('#include "hsa-workitem.h"', ''));
  const cases = [
    ...MEM_CASES.map((c) => ({ source: 'interp-mem.cl', pocl: join(OPENCL_FIXTURES, 'interp-mem.cl'), doc: { kernel: c.kernel, ...c.doc } })),
    { source: 'kernels.cl', pocl: kernelsPocl, doc: REVERSE_TILE_DOC },
    { source: 'kernels.cl', pocl: kernelsPocl, doc: PRIVATE_TABLE_DOC },
  ];
  const workgroupLayout = new Set<string>();
  for (const [k, c] of cases.entries()) {
    const args = join(dir, `case${k}.json`);
    writeFileSync(args, JSON.stringify(c.doc));
    const pocl = spawnSync('/usr/bin/python3', [POCL, c.pocl, args, `-I${OPENCL_FIXTURES}`], { encoding: 'utf8', maxBuffer: 1 << 28 });
    assert.equal(pocl.status, 0, `pocl: ${pocl.stderr}`);
    const want = (JSON.parse(pocl.stdout) as { buffers: { base64: string }[] }).buffers.map((b) => b.base64);
    for (const wave64 of [false, true]) {
      const obj = buildOpenCl(c.source, { wave64 });
      const what = `${c.doc.kernel} wave${wave64 ? 64 : 32}`;
      for (const engine of ['vulkan', 'interp']) {
        const r = spawnSync(process.execPath, [BIN, 'run', obj, '--args', args, '--engine', engine, '--json'], { encoding: 'utf8', maxBuffer: 1 << 28, env: { ...process.env, VK_DRIVER_FILES: LVP, RDNA_VULKAN_VALIDATION: '1' } });
        assert.equal(r.status, 0, `${what} (${engine}): ${r.stderr}`);
        const got = (JSON.parse(r.stdout) as { buffers: { base64: string }[] }).buffers.map((b) => b.base64);
        assert.deepEqual(got, want, `${what} (${engine}) differs from pocl`);
      }
      const shader = loadShaders({ bytes: new Uint8Array(readFileSync(obj)), name: c.source }).find((s) => s.info.name === c.doc.kernel);
      assert.ok(shader);
      if (recompile(shader).dispatch === 'workgroup') workgroupLayout.add(c.doc.kernel);
    }
  }
  // The kernels whose waves share LDS (not `lanes`: ds_swizzle/permute only; not the scratch-only kernels).
  assert.deepEqual([...workgroupLayout].sort(), ['local_atomics', 'local_narrow', 'reverse_tile', 'struct_copy', 'tile_reverse64', 'tree_reduce']);
  // The workgroup layout keeps one entry per wave the kernel's maximum workgroup (256 for clang's OpenCL) has: a larger block is
  // refused (by every engine since 2026-12-07: launchRefusal).
  const tree = loadShaders({ bytes: new Uint8Array(readFileSync(buildOpenCl('interp-mem.cl'))), name: 'm' }).find((k) => k.info.name === 'tree_reduce');
  assert.ok(tree && tree.info.maxWorkgroupSize === 256);
  const dev = VulkanDevice.open({ driverFiles: LVP, validation: true });
  try {
    await assert.rejects(runOnVulkan(tree, prepare(tree, [new Uint8Array(4 * 512), new Uint8Array(64)], [512, 1, 1], [512, 1, 1]), dev), (e: unknown) => e instanceof Error && /kernel tree_reduce allows at most 256 work-items per workgroup \(its metadata's \.max_flat_workgroup_size\); the dispatch's block 512x1x1 has 512$/.test(e.message));
  } finally {
    dev.close();
  }
});

test('dword global loads and stores at addresses that are not 4-byte aligned: byte by byte on Vulkan, equal to the interpreter; a fault naming the pc on a profile without 8-bit storage', async () => {
  // Lane i loads the dword at 6i + 2 of buffer 0 and stores it plus i at 6i + 1 of buffer 1 (lanes' bytes overlap across instructions only in order).
  const body = `
  s_load_dwordx4 s[4:7], s[0:1], 0x0
  s_waitcnt lgkmcnt(0)
  v_mul_u32_u24 v3, 6, v0
  global_load_dword v2, v3, s[4:5] offset:2
  s_waitcnt vmcnt(0)
  v_add_nc_u32 v2, v2, v0
  v_mul_u32_u24 v4, 9, v0
  global_store_dword v4, v2, s[6:7] offset:1
  global_store_dwordx2 v4, v[2:3], s[6:7] offset:400
  s_endpgm`;
  const shader = assemble('gfx1030', [{ name: 'unaligned', body, vgprs: 8, sgprs: 8 }]).get('unaligned');
  assert.ok(shader);
  const rng = new Rng(9);
  const c: EngineCase = { name: 'unaligned', spirvName: 'unaligned', code: new Uint8Array(), kernel: 'unaligned', shader, buffers: [Uint8Array.from({ length: 256 }, () => rng.u32() & 0xff), new Uint8Array(1024)], grid: [32, 1, 1], block: [32, 1, 1], scalars: [], writes: 1 };
  // On lavapipe (measured to do them exactly) as they are; with a profile that does not say so, byte by byte.
  await runAll([c]);
  const byBytes = { ...LAVAPIPE_PROFILE, name: 'bytes', unalignedDwordAccess: false };
  const rb = recompile(shader, { profile: byBytes });
  spirvVal(rb.spirv, 'unaligned_bytes');
  assert.ok(recompile(shader, { profile: LAVAPIPE_PROFILE }).spirv.length < rb.spirv.length, 'the byte path is in the module');
  const dev0 = VulkanDevice.open({ driverFiles: LVP, validation: true });
  try {
    const vk = c.buffers.map((b) => b.slice());
    await runModuleOnVulkan(shader, rb, prepare(shader, vk, c.grid, c.block), dev0);
    same('unaligned (byte by byte)', [interpret(c), vk]);
  } finally {
    dev0.close();
  }
  const noBytes = { ...LAVAPIPE_PROFILE, name: 'no-bytes', storageBuffer8BitAccess: false, unalignedDwordAccess: false };
  const r = recompile(shader, { profile: noBytes });
  spirvVal(r.spirv, 'unaligned_nobytes');
  const dev = VulkanDevice.open({ driverFiles: LVP, validation: true });
  try {
    await assert.rejects(runModuleOnVulkan(shader, r, prepare(shader, c.buffers.map((b) => b.slice()), c.grid, c.block), dev),
      (e: unknown) => e instanceof RuntimeFault && /^pc 0x[0-9a-f]+: global_load_dword v2, v3, s\[4:5\] offset:2: a dword load or store at an address that is not 4-byte aligned needs 8-bit storage access/.test(e.message));
  } finally {
    dev.close();
  }
});

test('s_barrier between float instructions under a MODE known only at run time (four rounding modes from the kernarg), LDS across the barrier: equal on three engines', async () => {
  // MODE's rounding from the kernarg (dynamic), f32 ops before and after a barrier, a value passed between waves through LDS.
  const body = `
  s_load_dwordx4 s[4:7], s[0:1], 0x0
  s_load_dword s8, s[0:1], 0x10
  s_waitcnt lgkmcnt(0)
  s_setreg_b32 hwreg(HW_REG_MODE, 0, 2), s8
  v_lshlrev_b32 v1, 2, v0
  global_load_dword v2, v1, s[4:5]
  s_waitcnt vmcnt(0)
  ds_write_b32 v1, v2
  s_waitcnt lgkmcnt(0)
  v_mul_f32 v3, 0x3eaaaaab, v2
  s_barrier
  v_add_f32 v4, 0x3dcccccd, v3
  v_xor_b32 v5, 4, v1
  v_and_b32 v5, 0xfc, v5
  ds_read_b32 v6, v5
  s_waitcnt lgkmcnt(0)
  v_add_f32 v4, v4, v6
  global_store_dword v1, v4, s[6:7]
  s_endpgm`;
  const shader = assemble('gfx1030', [{ name: 'barmode', body, vgprs: 8, sgprs: 16, directives: ['.amdhsa_group_segment_fixed_size 256'] }]).get('barmode');
  assert.ok(shader);
  assert.equal(recompile(shader, { profile: LAVAPIPE_PROFILE }).dispatch, 'workgroup');
  const rng = new Rng(3);
  const input = new Uint8Array(256);
  new DataView(input.buffer).setFloat32(0, 1, true);
  for (let k = 1; k < 64; k++) new DataView(input.buffer).setFloat32(4 * k, (rng.u32() / 2 ** 32) * 10 - 5, true);
  for (const round of [0, 1, 2, 3]) {
    await runAll([{ name: `barmode round ${round}`, spirvName: `barmode${round}`, code: new Uint8Array(), kernel: 'barmode', shader, buffers: [input, new Uint8Array(256)], grid: [64, 1, 1], block: [64, 1, 1], scalars: [[16, round]], writes: 1 }]);
  }
});
