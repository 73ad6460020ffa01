// Scratch and the FLAT apertures on lavapipe (issue 7): the SCRATCH instructions (vaddr and saddr
// forms, negative offsets, every width, the d16 halves, pieces that cross a dword of the
// interleaved layout), FLAT loads/stores in the private aperture, MUBUF through the private
// segment buffer on the same bytes, s_getreg/s_setreg of FLAT_SCR_LO/HI moving the base; FLAT
// loads, stores and atomics whose lanes go to global memory, LDS and scratch in one instruction
// (with LDS, and with none: the LDS lanes read 0); accesses past the wave's scratch failing the
// run with the pc. Expected values: the RDNA interpreter (its
// scratch and aperture rules are tested by hand computation in tests/interp/memory.test.ts). Every
// module passes spirv-val; every buffer equals the interpreter's byte for byte, wave32 and wave64,
// on Vulkan and on the IR interpreter.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Shader } from '../../src/container/shader.js';
import { recompile } from '../../src/backend/recompile.js';
import { LAVAPIPE_PROFILE } from '../../src/backend/profile.js';
import type { Dim3 } from '../../src/interp/dispatch.js';
import { RuntimeFault, runOnVulkan } from '../../src/runtime/engine.js';
import { VulkanDevice } from '../../src/runtime/vulkan.js';
import { dispatchIr } from '../../src/ir/dispatch.js';
import { translate } from '../../src/frontend/index.js';
import { buildCfg } from '../../src/analysis/cfg.js';
import { analyzeMode } from '../../src/analysis/mode.js';
import { assembleShaders } from '../harness/kernel.js';
import { Rng } from '../harness/rng.js';
import { spirvVal } from '../harness/spirv.js';
import { both, LVP, same } from './harness.js';
import { interpret, prepare } from './cases.js';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadShaders } from '../../src/container/shader.js';
import { buildOpenCl, OPENCL_FIXTURES } from '../harness/opencl.js';
import { MEM_CASES, PRIVATE_TABLE_DOC } from '../interp/mem-cases.js';

const BIN = new URL('../../bin/rdna', import.meta.url).pathname;
const POCL = new URL('../harness/pocl-run.py', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'rdna-scratch-'));
/** clang's switch from MUBUF scratch to the SCRATCH instructions (FLAT_SCRATCH set up by the prologue). */
const FLAT_SCRATCH = ['-Xclang', '-target-feature', '-Xclang', '+enable-flat-scratch'];

/** The IR interpreter on the translation, same layout as the interpreter's. */
function irRun(shader: Shader, buffers: readonly Uint8Array[], grid: Dim3, block: Dim3): Uint8Array[] {
  const bufs = buffers.map((b) => b.slice());
  const p = prepare(shader, bufs, grid, block);
  const cfg = buildCfg(shader);
  dispatchIr(translate(shader, cfg, analyzeMode(shader, cfg)), shader, { grid, block, kernarg: p.kernarg, mem: p.mem, maxSteps: 50_000_000 });
  return bufs;
}

const random = (rng: Rng, n: number) => Uint8Array.from({ length: n }, () => rng.u32() & 0xff);

// User SGPRs: s[0:3] private segment buffer, s[4:5] kernarg, s[6:7] flat scratch init; system:
// s8 workgroup id x, s9 private segment wave offset.
const SCRATCH_DIRECTIVES = [
  '.amdhsa_user_sgpr_private_segment_buffer 1', '.amdhsa_user_sgpr_kernarg_segment_ptr 1', '.amdhsa_user_sgpr_flat_scratch_init 1',
  '.amdhsa_system_sgpr_private_segment_wavefront_offset 1', '.amdhsa_private_segment_fixed_size 64', '.amdhsa_kernarg_size 16',
];
const PROLOGUE = `
  s_add_u32 s6, s6, s9
  s_addc_u32 s7, s7, 0
  s_setreg_b32 hwreg(HW_REG_FLAT_SCR_LO), s6
  s_setreg_b32 hwreg(HW_REG_FLAT_SCR_HI), s7
  s_load_dwordx4 s[12:15], s[4:5], 0x0
  s_waitcnt lgkmcnt(0)
  v_lshl_add_u32 v1, s8, 6, v0`;

/** Stores v[first..first+n) of each lane i (v1) to buffer 1 (s[14:15]) at 4n * i. */
const storeOut = (first: number, n: number) => [
  `v_mul_u32_u24 v60, ${4 * n}, v1`,
  ...Array.from({ length: n }, (_, k) => `global_store_dword v60, v${first + k}, s[14:15] offset:${4 * k}`),
].join('\n  ');

/**
 * Every SCRATCH form on 64 private bytes a lane, from lane data (buffer 0 dwords 4i..4i+3 in
 * v[2:5]); lane-dependent misalignment (v6 = lane & 7); lanes with i % 4 == 2 off for some stores;
 * a saddr form with a negative offset; FLAT through src_private_base; MUBUF on the same bytes; then
 * FLAT_SCRATCH moved one dword up with s_getreg/s_setreg (HI with the carry; a 16-bit field write).
 */
const scratchKernel = (wave64: boolean) => {
  const vcc = wave64 ? 'vcc' : 'vcc_lo', exec = wave64 ? 'exec' : 'exec_lo', b = wave64 ? 'b64' : 'b32', sv = wave64 ? 's[20:21]' : 's20';
  return `${PROLOGUE}
  v_lshlrev_b32 v2, 4, v1
  global_load_dwordx4 v[2:5], v2, s[12:13]
  s_waitcnt vmcnt(0)
  v_and_b32 v6, 7, v0
  v_mov_b32 v7, 0
  s_mov_b32 s11, 0
  scratch_store_dwordx4 off, v[2:5], s11 offset:0
  scratch_store_dwordx4 v7, v[2:5], off offset:16
  scratch_store_dwordx4 v7, v[3:6], off offset:32
  scratch_store_dwordx4 v7, v[2:5], off offset:48
  scratch_store_dword v6, v3, off offset:4
  scratch_store_dwordx2 v6, v[4:5], off offset:13
  v_and_b32 v8, 3, v1
  v_cmp_ne_u32_e32 ${vcc}, 2, v8
  s_and_saveexec_${b} ${sv}, ${vcc}
  scratch_store_short v6, v5, off offset:30
  scratch_store_byte_d16_hi v6, v2, off offset:40
  scratch_store_short_d16_hi v6, v3, off offset:45
  scratch_store_dwordx3 v6, v[2:4], off offset:43
  s_or_${b} ${exec}, ${exec}, ${sv}
  s_movk_i32 s10, 0x30
  scratch_store_byte off, v1, s10 offset:-7
  v_mov_b32 v20, 0x12345678
  v_mov_b32 v21, 0x9abcdef0
  v_mov_b32 v22, 0x0f1e2d3c
  v_mov_b32 v23, 0xa5a5c3c3
  v_mov_b32 v24, 0x01020304
  v_mov_b32 v25, 0xfedcba98
  scratch_load_dwordx4 v[10:13], v6, off offset:1
  scratch_load_dwordx3 v[14:16], v6, off offset:22
  scratch_load_sbyte v17, v6, off offset:31
  scratch_load_ushort v18, v6, off offset:33
  scratch_load_sshort v19, off, s10 offset:-17
  scratch_load_ubyte_d16_hi v20, v6, off offset:40
  scratch_load_short_d16 v21, v6, off offset:45
  scratch_load_sbyte_d16 v22, v6, off offset:41
  scratch_load_short_d16_hi v23, v6, off offset:3
  scratch_load_ubyte_d16 v24, v6, off offset:7
  scratch_load_sbyte_d16_hi v25, v6, off offset:14
  scratch_load_ubyte v26, off, s10 offset:-7
  scratch_load_dword v39, off, off offset:4
  v_add_nc_u32 v30, 8, v6
  v_mov_b32 v31, src_private_base
  flat_load_dword v27, v[30:31] offset:3
  flat_store_short v[30:31], v1 offset:44
  buffer_load_dword v28, v7, s[0:3], 0 offen offset:8
  flat_load_dwordx2 v[32:33], v[30:31] offset:41
  buffer_store_byte v1, v6, s[0:3], 0 offen offset:9
  s_waitcnt vmcnt(0)
  scratch_load_dwordx2 v[34:35], v6, off offset:8
  s_getreg_b32 s16, hwreg(HW_REG_FLAT_SCR_LO)
  s_getreg_b32 s17, hwreg(HW_REG_FLAT_SCR_HI)
  s_add_u32 s16, s16, ${4 * (wave64 ? 64 : 32)}
  s_addc_u32 s17, s17, 0
  s_setreg_b32 hwreg(HW_REG_FLAT_SCR_LO, 0, 16), s16
  s_lshr_b32 s18, s16, 16
  s_setreg_b32 hwreg(HW_REG_FLAT_SCR_LO, 16, 16), s18
  s_setreg_b32 hwreg(HW_REG_FLAT_SCR_HI), s17
  scratch_load_dword v36, v6, off offset:12
  v_add_nc_u32 v30, 4, v6
  flat_load_dword v37, v[30:31]
  s_getreg_b32 s19, hwreg(HW_REG_FLAT_SCR_LO, 0, 8)
  s_sub_u32 s19, s19, s16
  s_and_b32 s19, s19, 0xff
  v_mov_b32 v38, s19
  v_mov_b32 v29, s10
  s_waitcnt vmcnt(0)
  ${storeOut(10, 30)}
  s_endpgm`;
};

test('SCRATCH instructions, FLAT in the private aperture and MUBUF on one scratch, FLAT_SCRATCH moved by s_setreg: lavapipe and the IR equal the interpreter, wave32 and wave64', async () => {
  assert.ok(LVP, 'lavapipe (mesa-vulkan-drivers) is not installed');
  const dev = VulkanDevice.open({ driverFiles: LVP, validation: true });
  try {
    const rng = new Rng(707);
    for (const wave64 of [false, true]) {
      const name = `scratch${wave64 ? 64 : 32}`;
      const shader = assembleShaders('gfx1030', [{ name, body: scratchKernel(wave64), wave64, vgprs: 64, sgprs: 32, directives: SCRATCH_DIRECTIVES }]).get(name);
      assert.ok(shader);
      const r = recompile(shader, { profile: LAVAPIPE_PROFILE });
      spirvVal(r.spirv, name);
      assert.equal(r.dispatch, 'wave');
      // 100 work-items in blocks of 64: the last wave(s) partly off.
      const bufs = [random(rng, 16 * 128), random(rng, 4 * 30 * 128)];
      const res = await both(dev, { shader, buffers: bufs, grid: [100, 1, 1], block: [64, 1, 1] });
      same(name, res);
      same(`${name} (IR)`, [res[0], irRun(shader, bufs, [100, 1, 1], [64, 1, 1])]);
      // The kernel read back what it stored: lane 5's scratch_load_dwordx2 at 8 + 5 saw the MUBUF byte at 9 + 5.
      const out = new DataView(res[0][1]?.buffer ?? new ArrayBuffer(0));
      assert.equal((out.getUint32(4 * (30 * 5 + 24), true) >>> 8) & 0xff, 5);
    }
  } finally {
    dev.close();
  }
});

/**
 * FLAT with each lane's address in another segment: lane l (local id) with l & 3 == 1 in the LDS
 * aperture at 16l (lane 61 at 0xfffffff8: past 2^32 with the offsets, outside any LDS), l & 3 == 2
 * in the private aperture at 16 + (l & 7), the others in buffer 1 at 0x3000 + 16i (past every
 * lane's results, so no workgroup's results race with another's FLAT stores). Dwords, bytes,
 * shorts (some crossing a dword of the interleave), d16, then integer atomics (32- and 64-bit,
 * lanes with l & 7 == 7 off); then every lane's LDS dwords (ds_read) and private bytes
 * (scratch_load) are stored too.
 */
const apertureKernel = (wave64: boolean) => {
  const vcc = wave64 ? 'vcc' : 'vcc_lo', exec = wave64 ? 'exec' : 'exec_lo', b = wave64 ? 'b64' : 'b32', sv = wave64 ? 's[20:21]' : 's20';
  return `${PROLOGUE}
  v_lshlrev_b32 v2, 4, v1
  global_load_dwordx4 v[2:5], v2, s[12:13]
  v_lshl_add_u32 v10, v1, 4, 0x3000
  v_mov_b32 v11, s15
  v_add_co_u32 v10, ${vcc}, s14, v10
  v_add_co_ci_u32_e32 v11, ${vcc}, 0, v11, ${vcc}
  v_and_b32 v6, 3, v0
  v_lshlrev_b32 v7, 4, v0
  v_cmp_eq_u32_e32 ${vcc}, 61, v0
  v_cndmask_b32_e64 v7, v7, 0xfffffff8, ${vcc}
  v_mov_b32 v8, src_shared_base
  v_cmp_eq_u32_e32 ${vcc}, 1, v6
  v_cndmask_b32_e32 v10, v10, v7, ${vcc}
  v_cndmask_b32_e32 v11, v11, v8, ${vcc}
  v_and_b32 v7, 7, v0
  v_add_nc_u32 v7, 16, v7
  v_mov_b32 v8, src_private_base
  v_cmp_eq_u32_e32 ${vcc}, 2, v6
  v_cndmask_b32_e32 v10, v10, v7, ${vcc}
  v_cndmask_b32_e32 v11, v11, v8, ${vcc}
  s_waitcnt vmcnt(0)
  flat_store_dwordx4 v[10:11], v[2:5]
  flat_store_byte v[10:11], v4 offset:9
  flat_store_short v[10:11], v5 offset:11
  flat_store_short_d16_hi v[10:11], v3 offset:2
  v_mov_b32 v23, 0x12345678
  v_mov_b32 v24, 0x9abcdef0
  flat_load_dwordx2 v[20:21], v[10:11]
  flat_load_sshort v22, v[10:11] offset:11
  flat_load_ubyte_d16_hi v23, v[10:11] offset:9
  flat_load_short_d16 v24, v[10:11] offset:1
  flat_load_dwordx3 v[25:27], v[10:11] offset:3
  flat_load_dwordx2 v[32:33], v[10:11] offset:8
  s_waitcnt vmcnt(0) lgkmcnt(0)
  v_bfe_u32 v9, v0, 2, 1
  v_xor_b32 v32, v32, v9
  v_add_nc_u32 v30, 7, v1
  v_mov_b32 v31, 0x10203
  v_and_b32 v8, 7, v0
  v_cmp_ne_u32_e32 ${vcc}, 7, v8
  s_and_saveexec_${b} ${sv}, ${vcc}
  flat_atomic_add v28, v[10:11], v30 offset:4 glc
  flat_atomic_umax v29, v[10:11], v1 offset:12 glc
  s_waitcnt vmcnt(0) lgkmcnt(0)
  flat_atomic_cmpswap_x2 v[34:35], v[10:11], v[30:33] offset:8 glc
  flat_atomic_sub v[10:11], v9
  s_waitcnt vmcnt(0) lgkmcnt(0)
  flat_atomic_smin_x2 v[36:37], v[10:11], v[2:3] glc
  s_or_${b} ${exec}, ${exec}, ${sv}
  s_waitcnt vmcnt(0) lgkmcnt(0)
  v_lshlrev_b32 v7, 4, v0
  ds_read_b128 v[40:43], v7
  v_and_b32 v7, 7, v0
  scratch_load_dwordx4 v[44:47], v7, off offset:16
  s_waitcnt vmcnt(0) lgkmcnt(0)
  ${storeOut(20, 28)}
  s_endpgm`;
};

test('FLAT lanes in global memory, the LDS aperture and the private aperture in one instruction (loads, stores, d16, atomics), with LDS and with none: lavapipe and the IR equal the interpreter, wave32 and wave64', async () => {
  const dev = VulkanDevice.open({ driverFiles: LVP, validation: true });
  try {
    const rng = new Rng(808);
    for (const wave64 of [false, true]) for (const lds of [1024, 0]) {
      const name = `apertures${wave64 ? 64 : 32}_${lds}`;
      const shader = assembleShaders('gfx1030', [{ name, body: apertureKernel(wave64), wave64, vgprs: 64, sgprs: 32, directives: [...SCRATCH_DIRECTIVES, `.amdhsa_group_segment_fixed_size ${lds}`] }]).get(name);
      assert.ok(shader);
      const r = recompile(shader, { profile: LAVAPIPE_PROFILE });
      spirvVal(r.spirv, name);
      // The LDS lanes need the workgroup layout only where there is LDS.
      assert.equal(r.dispatch, lds > 0 ? 'workgroup' : 'wave');
      const bufs = [random(rng, 16 * 128), random(rng, 4 * 28 * 128)];
      const res = await both(dev, { shader, buffers: bufs, grid: [100, 1, 1], block: [64, 1, 1] });
      same(name, res);
      same(`${name} (IR)`, [res[0], irRun(shader, bufs, [100, 1, 1], [64, 1, 1])]);
      // Lane 1 (LDS): its FLAT load read back its FLAT stores (dword 0 = buffer 0's dword 4 with the
      // high half from flat_store_short_d16_hi) only where there is LDS.
      const out = new DataView(res[0][1]?.buffer ?? new ArrayBuffer(0)), inp = new DataView(bufs[0]?.buffer ?? new ArrayBuffer(0));
      const want = lds > 0 ? ((inp.getUint32(16, true) & 0xffff) | (inp.getUint16(22, true) << 16)) >>> 0 : 0;
      assert.equal(out.getUint32(4 * 28 * 1, true), want);
    }
  } finally {
    dev.close();
  }
});

test('a scratch access past the wave\'s region (also by a wrapped negative offset, or in a kernel without scratch) and FLAT (also an atomic) in the private aperture past it fail the run with the pc and instruction (Vulkan, IR interpreter)', async () => {
  const dev = VulkanDevice.open({ driverFiles: LVP, validation: true });
  try {
    const store = 'v_lshlrev_b32 v3, 2, v0\n  global_store_dword v3, v2, s[14:15]';
    const cases = [
      { name: 'past', directives: SCRATCH_DIRECTIVES, body: `${PROLOGUE}\n  v_mov_b32 v1, 0x40\n  v_cmp_eq_u32_e32 vcc_lo, 3, v0\n  v_cndmask_b32_e64 v1, 0, v1, vcc_lo\n  scratch_load_dword v2, v1, off\n  s_waitcnt vmcnt(0)\n  ${store}`, inst: 'scratch_load_dword v2, v1, off', },
      { name: 'wrapped', directives: SCRATCH_DIRECTIVES, body: `${PROLOGUE}\n  s_mov_b32 s10, 0\n  scratch_store_dword off, v0, s10 offset:-4`, inst: 'scratch_store_dword off, v0, s10 offset:-4', },
      { name: 'flatpast', directives: SCRATCH_DIRECTIVES, body: `${PROLOGUE}\n  v_mov_b32 v4, src_private_base\n  v_mov_b32 v3, 61\n  flat_load_dword v2, v[3:4]\n  s_waitcnt vmcnt(0) lgkmcnt(0)\n  ${store}`, inst: 'flat_load_dword v2, v[3:4]', },
      { name: 'none', directives: ['.amdhsa_user_sgpr_kernarg_segment_ptr 1'], body: 'v_mov_b32 v1, 0\n  scratch_store_dword v1, v0, off', inst: 'scratch_store_dword v1, v0, off', },
      { name: 'atomicpast', directives: SCRATCH_DIRECTIVES, body: `${PROLOGUE}\n  v_mov_b32 v4, src_private_base\n  v_mov_b32 v3, 60\n  flat_atomic_add_x2 v[6:7], v[3:4], v[0:1] glc\n  s_waitcnt vmcnt(0) lgkmcnt(0)\n  ${store}`, inst: 'flat_atomic_add_x2 v[6:7], v[3:4], v[0:1] glc' },
    ];
    const shaders = assembleShaders('gfx1030', cases.map((c) => ({ name: c.name, body: `${c.body}\n  s_endpgm`, vgprs: 16, sgprs: 32, directives: c.directives })));
    for (const c of cases) {
      const shader = shaders.get(c.name);
      assert.ok(shader);
      const r = recompile(shader, { profile: LAVAPIPE_PROFILE });
      spirvVal(r.spirv, c.name);
      const message = 'a scratch access (SCRATCH, FLAT in the private aperture, or a buffer access through the private segment buffer) outside the wave\'s scratch region';
      const site = r.faults.find((f) => f.instruction === c.inst && f.message === message);
      assert.ok(site, `${c.name}: ${JSON.stringify(r.faults)}`);
      const esc = (t: string) => t.replace(/[[\]()]/g, '\\$&');
      const want = new RegExp(`^pc 0x${site.pc.toString(16)}: ${esc(c.inst)}: ${esc(message)}$`);
      const bufs = () => [new Uint8Array(256), new Uint8Array(256)];
      await assert.rejects(runOnVulkan(shader, prepare(shader, bufs(), [32, 1, 1], [32, 1, 1]), dev), (e: unknown) => e instanceof RuntimeFault && want.test(e.message), c.name);
      assert.throws(() => irRun(shader, bufs(), [32, 1, 1], [32, 1, 1]), (e: unknown) => e instanceof RuntimeFault && e.message.includes(message), c.name);
      // The interpreter stops at the same access (outside every mapping).
      assert.throws(() => interpret({ shader, buffers: bufs(), grid: [32, 1, 1], block: [32, 1, 1], scalars: [] }), /outside every buffer/, c.name);
    }
  } finally {
    dev.close();
  }
});

/** `rdna run` of a kernel on one engine: the buffers (base64), or the failed run. */
function rdnaRun(obj: string, doc: object, engine: 'vulkan' | 'interp'): { status: number | null; stderr: string; buffers: string[] } {
  const args = join(dir, `args-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(args, JSON.stringify(doc));
  const r = spawnSync(process.execPath, [BIN, 'run', obj, '--args', args, '--engine', engine, '--json'], { encoding: 'utf8', maxBuffer: 1 << 28, env: { ...process.env, VK_DRIVER_FILES: LVP, RDNA_VULKAN_VALIDATION: '1' } });
  return { status: r.status, stderr: r.stderr, buffers: r.status === 0 ? (JSON.parse(r.stdout) as { buffers: { base64: string }[] }).buffers.map((b) => b.base64) : [] };
}

const hasScratchInsts = (obj: string, kernel: string) => {
  const shader = loadShaders({ bytes: new Uint8Array(readFileSync(obj)), name: 'k' }).find((s) => s.info.name === kernel);
  assert.ok(shader);
  return buildCfg(shader).blocks.some((b) => b.instructions.some((i) => i.def.family === 'SCRATCH'));
};

test('OpenCL private arrays built for the SCRATCH instructions (clang-19 +enable-flat-scratch: private_mixed, struct_copy, private_table): rdna run --engine vulkan equals the interpreter and pocl, wave32 and wave64', () => {
  const kernelsPocl = join(dir, 'kernels-pocl.cl');
  writeFileSync(kernelsPocl, readFileSync(join(OPENCL_FIXTURES, 'kernels.cl'), 'utf8').replace('#include "hsa-workitem.h"', ''));
  const cases = [
    ...MEM_CASES.filter((c) => c.scratch).map((c) => ({ source: 'interp-mem.cl', pocl: join(OPENCL_FIXTURES, 'interp-mem.cl'), doc: { kernel: c.kernel, ...c.doc } })),
    { source: 'kernels.cl', pocl: kernelsPocl, doc: PRIVATE_TABLE_DOC },
  ];
  assert.equal(cases.length, 3);
  for (const c of cases) {
    const args = join(dir, `${c.doc.kernel}.json`);
    writeFileSync(args, JSON.stringify(c.doc));
    const pocl = spawnSync('/usr/bin/python3', [POCL, c.pocl, args, `-I${OPENCL_FIXTURES}`], { encoding: 'utf8', maxBuffer: 1 << 28 });
    assert.equal(pocl.status, 0, `pocl: ${pocl.stderr}`);
    const want = (JSON.parse(pocl.stdout) as { buffers: { base64: string }[] }).buffers.map((b) => b.base64);
    for (const wave64 of [false, true]) {
      const obj = buildOpenCl(c.source, { wave64, options: FLAT_SCRATCH });
      assert.ok(hasScratchInsts(obj, c.doc.kernel), `${c.doc.kernel}: no SCRATCH instructions`);
      for (const engine of ['vulkan', 'interp'] as const) {
        const r = rdnaRun(obj, c.doc, engine);
        assert.equal(r.status, 0, `${c.doc.kernel} wave${wave64 ? 64 : 32} (${engine}): ${r.stderr}`);
        assert.deepEqual(r.buffers, want, `${c.doc.kernel} wave${wave64 ? 64 : 32} (${engine}) differs from pocl`);
      }
    }
  }
});

test('OpenCL 2.0 generic pointers into global, __local and __private memory (flat_mix, flat_pick into LDS; MUBUF and SCRATCH builds): rdna run --engine vulkan equals the interpreter, wave32 and wave64', () => {
  const input = Array.from({ length: 128 }, (_, k) => (k * 2654435761) | 0);
  for (const wave64 of [false, true]) for (const options of [['-cl-std=CL2.0'], ['-cl-std=CL2.0', ...FLAT_SCRATCH]]) {
    const obj = buildOpenCl('interp-bytes.cl', { wave64, options });
    const docs = [
      ...[0, 1, 2].map((which) => ({ kernel: 'flat_mix', grid: [128], block: [64], args: [{ buffer: 'i32', data: input }, { buffer: 'i32', data: input.map((x) => x ^ 0x5555) }, { i32: which }] })),
      { kernel: 'flat_pick', grid: [64], block: [64], args: [{ buffer: 'i32', data: input.slice(0, 64) }, { buffer: 'i32', size: 256 }, { i32: 1 }] },
    ];
    for (const doc of docs) {
      const what = `${doc.kernel} ${JSON.stringify(doc.args[2])} wave${wave64 ? 64 : 32} ${options.join(' ')}`;
      const vk = rdnaRun(obj, doc, 'vulkan'), ref = rdnaRun(obj, doc, 'interp');
      assert.equal(vk.status, 0, `${what}: ${vk.stderr}`);
      assert.equal(ref.status, 0, `${what} (interp): ${ref.stderr}`);
      assert.deepEqual(vk.buffers, ref.buffers, what);
    }
  }
});

/** Every integer FLAT atomic (32- and 64-bit, returning) on the private aperture at lane-dependent, partly misaligned offsets. */
const privateAtomicsKernel = (ops: readonly string[]) => {
  const lines: string[] = [];
  let r = 20;
  ops.forEach((op, j) => {
    const wide = op.endsWith('_x2');
    lines.push(`v_add_nc_u32 v12, ${(j * 4) % 48}, v11`);
    if (op.startsWith('cmpswap')) {
      // The compare: what is there, off by one in odd lanes (so some lanes swap, some do not).
      lines.push(wide ? 'flat_load_dwordx2 v[6:7], v[12:13]' : 'flat_load_dword v3, v[12:13]', 's_waitcnt vmcnt(0) lgkmcnt(0)', wide ? 'v_xor_b32 v6, v6, v10' : 'v_xor_b32 v3, v3, v10');
    }
    const data = wide ? (op.startsWith('cmpswap') ? 'v[4:7]' : 'v[4:5]') : op.startsWith('cmpswap') ? 'v[2:3]' : 'v2';
    lines.push(`flat_atomic_${op} ${wide ? `v[${r}:${r + 1}]` : `v${r}`}, v[12:13], ${data} glc`, 's_waitcnt vmcnt(0) lgkmcnt(0)');
    r += wide ? 2 : 1;
  });
  lines.push('scratch_load_dwordx4 v[64:67], off, off offset:0', 'scratch_load_dwordx4 v[68:71], off, off offset:16', 'scratch_load_dwordx4 v[72:75], off, off offset:32', 'scratch_load_dwordx4 v[76:79], off, off offset:48', 's_waitcnt vmcnt(0)');
  // The lane's 64 private bytes after the atomics, after its results.
  for (let k = 0; k < 16; k++) lines.push(`v_mov_b32 v${r + k}, v${64 + k}`);
  r += 16;
  return { body: `${PROLOGUE}
  v_lshlrev_b32 v2, 5, v1
  global_load_dwordx4 v[2:5], v2, s[12:13]
  global_load_dwordx4 v[6:9], v2, s[12:13] offset:16
  s_waitcnt vmcnt(0)
  scratch_store_dwordx4 off, v[2:5], off
  scratch_store_dwordx4 off, v[6:9], off offset:16
  scratch_store_dwordx4 off, v[4:7], off offset:32
  scratch_store_dwordx4 off, v[3:6], off offset:48
  v_and_b32 v11, 3, v0
  v_and_b32 v10, 1, v0
  v_mov_b32 v13, src_private_base
  ${lines.join('\n  ')}
  ${storeOut(20, r - 20).replaceAll('v60', 'v90')}
  s_endpgm`, outDwords: r - 20 };
};

test('every integer FLAT atomic in the private aperture (32- and 64-bit, misaligned offsets, some compares failing): lavapipe and the IR equal the interpreter, wave32 and wave64', async () => {
  const dev = VulkanDevice.open({ driverFiles: LVP, validation: true });
  try {
    const rng = new Rng(909);
    const base = ['swap', 'cmpswap', 'add', 'sub', 'smin', 'umin', 'smax', 'umax', 'and', 'or', 'xor', 'inc', 'dec'];
    const ops = [...base, ...base.map((o) => `${o}_x2`)];
    const k = privateAtomicsKernel(ops);
    for (const wave64 of [false, true]) {
      const name = `privatomics${wave64 ? 64 : 32}`;
      const shader = assembleShaders('gfx1030', [{ name, body: k.body, wave64, vgprs: 96, sgprs: 32, directives: SCRATCH_DIRECTIVES }]).get(name);
      assert.ok(shader);
      spirvVal(recompile(shader, { profile: LAVAPIPE_PROFILE }).spirv, name);
      // Small values in half the lanes' data (inc/dec wrap and compare at both ends).
      const input = random(rng, 32 * 64);
      for (let i = 0; i < input.length; i += 8) input[i + 1] = input[i + 2] = input[i + 3] = 0;
      const bufs = [input, new Uint8Array(4 * k.outDwords * 64)];
      const res = await both(dev, { shader, buffers: bufs, grid: [64, 1, 1], block: [64, 1, 1] });
      same(name, res);
      same(`${name} (IR)`, [res[0], irRun(shader, bufs, [64, 1, 1], [64, 1, 1])]);
    }
  } finally {
    dev.close();
  }
});

/**
 * gfx1010/gfx1013's scalar scratch accesses (s_scratch_load/store_dword*): sbase ignored, the address
 * FLAT_SCRATCH + offset + SGPR offset with the two low bits ignored, the wave's scratch bytes
 * linearly, so dword 3 * waveSize + 5 of the region is lane 5's private dword 3 (the interleave of
 * the lanes' columns; our reading, not measured). Each lane stores 0xdead0000 + its local id to its
 * dword 3 (scratch_store_dword), the wave stores two dwords there with s_scratch_store_dwordx2
 * (offset:0x2: the low bits ignored), then each lane loads its dword 3 back and the wave loads the
 * pair with s_scratch_load_dwordx2. No lane reads another lane's store: the same results whatever
 * order a device runs the wave's invocations in. Expected values from that layout, not the engines;
 * then a scalar access past the region stops both engines.
 */
test('s_scratch_load/store_dword* (gfx1013, gfx1010): FLAT_SCRATCH + offsets, the wave\'s scratch bytes linearly, on three engines; past the region, both stop', async () => {
  assert.ok(LVP, 'lavapipe (mesa-vulkan-drivers) is not installed');
  const dev = VulkanDevice.open({ driverFiles: LVP, validation: true });
  const K1 = 0x11223344, K2 = 0x55667788;
  try {
    for (const target of ['gfx1013', 'gfx1010'] as const) {
      for (const wave64 of [false, true]) {
        const ws = wave64 ? 64 : 32;
        const name = `sscratch_${target}_${ws}`;
        const body = `${PROLOGUE}
  v_add_nc_u32 v2, 0xdead0000, v0
  v_mov_b32 v3, 0
  scratch_store_dword v3, v2, off offset:12
  s_mov_b32 s16, ${K1}
  s_mov_b32 s17, ${K2}
  s_movk_i32 s18, ${4 * (3 * ws + 5) - 2}
  s_scratch_store_dwordx2 s[16:17], s[0:1], s18 offset:0x2
  s_waitcnt lgkmcnt(0)
  scratch_load_dword v4, v3, off offset:12
  s_scratch_load_dwordx2 s[20:21], s[2:3], s18 offset:0x3
  s_waitcnt vmcnt(0) lgkmcnt(0)
  v_mov_b32 v5, s20
  v_mov_b32 v6, s21
  ${storeOut(4, 3)}
  s_endpgm`;
        const past = `${PROLOGUE}
  s_movk_i32 s18, 0x7ff0
  s_scratch_load_dword s20, s[0:1], s18
  s_waitcnt lgkmcnt(0)
  v_mov_b32 v4, s20
  ${storeOut(4, 1)}
  s_endpgm`;
        const shaders = assembleShaders(target, [{ name, body, wave64, vgprs: 64, sgprs: 32, directives: SCRATCH_DIRECTIVES }, { name: `${name}_past`, body: past, wave64, vgprs: 64, sgprs: 32, directives: SCRATCH_DIRECTIVES }]);
        const shader = shaders.get(name), pastShader = shaders.get(`${name}_past`);
        assert.ok(shader && pastShader);
        spirvVal(recompile(shader, { profile: LAVAPIPE_PROFILE }).spirv, name);
        const bufs = [new Uint8Array(64), new Uint8Array(12 * 128)];
        const want = new Uint8Array(12 * 128);
        const wv = new DataView(want.buffer);
        for (let i = 0; i < 128; i++) {
          const lane = (i % 64) % ws;
          wv.setUint32(12 * i, lane === 5 ? K1 : lane === 6 ? K2 : (0xdead0000 + (i % 64)) >>> 0, true);
          wv.setUint32(12 * i + 4, K1, true);
          wv.setUint32(12 * i + 8, K2, true);
        }
        const [ref, vk] = await both(dev, { shader, buffers: bufs, grid: [128, 1, 1], block: [64, 1, 1] });
        same(`${name} (interpreter vs the layout)`, [[bufs[0] as Uint8Array, want], ref]);
        same(`${name} (Vulkan)`, [ref, vk]);
        same(`${name} (IR)`, [ref, irRun(shader, bufs, [128, 1, 1], [64, 1, 1])]);
        const message = 'a scratch access (SCRATCH, FLAT in the private aperture, or a buffer access through the private segment buffer) outside the wave\'s scratch region';
        const pb = () => [new Uint8Array(64), new Uint8Array(4 * 64)];
        await assert.rejects(runOnVulkan(pastShader, prepare(pastShader, pb(), [64, 1, 1], [64, 1, 1]), dev), (e: unknown) => e instanceof RuntimeFault && e.message.includes('s_scratch_load_dword s20, s[0:1], s18') && e.message.includes(message), name);
        assert.throws(() => irRun(pastShader, pb(), [64, 1, 1], [64, 1, 1]), (e: unknown) => e instanceof RuntimeFault && e.message.includes(message), name);
        assert.throws(() => interpret({ shader: pastShader, buffers: pb(), grid: [64, 1, 1], block: [64, 1, 1], scalars: [] }), /outside every buffer/, name);
      }
    }
  } finally {
    dev.close();
  }
});
