// Float atomics, the M0-based DS forms, ds_wrxchg2(st64)_rtn_b32/_b64 and ds_condxchg32_rtn_b64 (issue 7) for the differential tests: the interpreter's
// hand-checked kernels (tests/interp/float-atomics-kernels.ts) and a randomized kernel whose lanes
// run every float atomic, DS and GLOBAL, f32 and f64, four lanes to an address (so each address
// sees a chain of lane-ordered updates), on float bits biased to the edges (zeros, subnormals,
// infinities, quiet and signalling NaNs, the largest finite values), wave32 and wave64.
import assert from 'node:assert/strict';
import type { EngineCase } from './cases.js';
import { KERNARG_DIRECTIVES } from '../interp/harness.js';
import { assembleKernels } from '../harness/kernel.js';
import { loadShaders } from '../../src/container/shader.js';
import { Rng } from '../harness/rng.js';
import { readFileSync } from 'node:fs';
import { buildOpenCl } from '../harness/opencl.js';
import { dsFloatKernel, dsM0Kernel, GLOBAL_FLOAT_DATA, globalFloatKernel, type AtomicKernel, WRXCHG2_BODY, WRXCHG2_REGS, WRXCHG2X64_BODY, WRXCHG2X64_REGS } from '../interp/float-atomics-kernels.js';

const RANDOM_REGS = [10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29];

function randomBody(ws: 32 | 64): string {
  return `
  s_load_dwordx4 s[4:7], s[0:1], 0x0
  s_load_dwordx2 s[8:9], s[0:1], 0x10
  s_waitcnt lgkmcnt(0)
  v_lshlrev_b32 v1, 4, v0
  global_load_dwordx4 v[2:5], v1, s[4:5]
  s_waitcnt vmcnt(0)
  v_and_b32 v6, 3, v0
  v_lshlrev_b32 v7, 3, v6
  v_lshlrev_b32 v6, 2, v6
  ds_write_b32 v6, v4
  ds_write_b32 v6, v5 offset:16
  ds_write_b32 v6, v4 offset:32
  ds_write_b32 v6, v5 offset:48
  ds_write_b64 v7, v[4:5] offset:64
  ds_write_b64 v7, v[2:3] offset:96
  ds_write_b64 v7, v[4:5] offset:128
  s_waitcnt lgkmcnt(0)
  ds_add_rtn_f32 v10, v6, v2
  ds_min_rtn_f32 v11, v6, v3 offset:16
  ds_max_rtn_f32 v12, v6, v3 offset:32
  ds_cmpst_rtn_f32 v13, v6, v5, v2 offset:48
  ds_min_rtn_f64 v[14:15], v7, v[2:3] offset:64
  ds_max_rtn_f64 v[16:17], v7, v[4:5] offset:96
  ds_cmpst_rtn_f64 v[18:19], v7, v[2:3], v[4:5] offset:128
  global_atomic_fmin v20, v6, v2, s[8:9] glc
  global_atomic_fmax v21, v6, v3, s[8:9] offset:16 glc
  global_atomic_fcmpswap v22, v6, v[4:5], s[8:9] offset:32 glc
  global_atomic_fmin_x2 v[24:25], v7, v[4:5], s[8:9] offset:64 glc
  global_atomic_fmax_x2 v[26:27], v7, v[2:3], s[8:9] offset:96 glc
  global_atomic_fcmpswap_x2 v[28:29], v7, v[2:5], s[8:9] offset:128 glc
  ds_add_f32 v6, v3
  ds_min_f64 v7, v[4:5] offset:64
  s_waitcnt vmcnt(0) lgkmcnt(0)
  v_mov_b32 v23, 0
  v_lshlrev_b32 v30, 4, v0
  v_cmp_gt_u32 ${ws === 64 ? 'vcc' : 'vcc_lo'}, 10, v0
  ${ws === 64 ? 's_and_saveexec_b64 s[10:11], vcc' : 's_and_saveexec_b32 s10, vcc_lo'}
  ds_read_b128 v[32:35], v30
  s_waitcnt lgkmcnt(0)
  global_store_dwordx4 v30, v[32:35], s[8:9] offset:256
  ${ws === 64 ? 's_or_b64 exec, exec, s[10:11]' : 's_or_b32 exec_lo, exec_lo, s10'}
  v_mul_u32_u24 v60, ${4 * RANDOM_REGS.length}, v0
  ${RANDOM_REGS.map((r, k) => `global_store_dword v60, v${r}, s[6:7] offset:${4 * k}`).join('\n  ')}
  s_endpgm`;
}

/** Float bits biased to the edges: f32 specials in either dword, f64 high words of specials, random bits. */
function edgeDword(rng: Rng): number {
  const f32 = [0, 0x80000000, 1, 0x80000001, 0x007fffff, 0x00800000, 0x3f800000, 0xbf800000, 0x7f800000, 0xff800000, 0x7fc00000, 0x7f800001, 0xffc00001, 0x7f7fffff, 0x3f800001, 0x40000000];
  const f64hi = [0, 0x80000000, 0x000fffff, 0x00100000, 0x3ff00000, 0xbff00000, 0x7ff00000, 0xfff00000, 0x7ff80000, 0x7ff00001, 0x7fefffff];
  const r = rng.u32() % 4;
  if (r === 0) return f32[rng.u32() % f32.length] ?? 0;
  if (r === 1) return f64hi[rng.u32() % f64hi.length] ?? 0;
  if (r === 2) return (rng.u32() & 0x8000000f) >>> 0;
  return rng.u32();
}

function kernelCase(name: string, k: AtomicKernel, ws: 32 | 64, buffers: Uint8Array[]): EngineCase {
  const lds = k.ldsBytes ? [`.amdhsa_group_segment_fixed_size ${k.ldsBytes}`] : [];
  const code = assembleKernels('gfx1030', [{ name, body: k.body, wave64: ws === 64, vgprs: 64, sgprs: 32, directives: [...KERNARG_DIRECTIVES, ...lds] }]);
  const shader = loadShaders({ bytes: code, name }).find((s) => s.info.name === name);
  assert.ok(shader, name);
  return { name, spirvName: name, code, kernel: name, shader, buffers, grid: [ws, 1, 1], block: [ws, 1, 1], scalars: [], writes: 0 };
}

const bytes = (words: readonly number[]) => new Uint8Array(Uint32Array.from(words).buffer);

/** The cases, wave32 and wave64: DS float atomics, GLOBAL/MUBUF/FLAT float atomics, addtid and append/consume, and the randomized kernel. */
export function* floatAtomicCases(): Generator<EngineCase> {
  const rng = new Rng(0xf1a7);
  for (const ws of [32, 64] as const) {
    const ds = dsFloatKernel(ws);
    yield kernelCase(`dsfloat${ws}`, ds, ws, [new Uint8Array(4 * ws * ds.regs.length)]);
    const g = globalFloatKernel(ws);
    yield kernelCase(`gfloat${ws}`, g, ws, [new Uint8Array(4 * ws * g.regs.length), bytes(GLOBAL_FLOAT_DATA)]);
    const m0 = dsM0Kernel(ws);
    yield kernelCase(`dsm0${ws}`, m0, ws, [new Uint8Array(4 * ws * m0.regs.length)]);
    yield kernelCase(`wrxchg2_${ws}`, { body: WRXCHG2_BODY, regs: WRXCHG2_REGS, ldsBytes: 1024 }, ws, [new Uint8Array(4 * ws * WRXCHG2_REGS.length)]);
    yield kernelCase(`wrxchg2x64_${ws}`, { body: WRXCHG2X64_BODY, regs: WRXCHG2X64_REGS, ldsBytes: 2048 }, ws, [new Uint8Array(4 * ws * WRXCHG2X64_REGS.length)]);
    const random: AtomicKernel = { body: randomBody(ws), regs: RANDOM_REGS, ldsBytes: 256 };
    const input = bytes(Array.from({ length: 4 * ws }, () => edgeDword(rng)));
    const area = bytes([...Array.from({ length: 64 }, () => edgeDword(rng)), ...new Array<number>(64).fill(0)]);
    yield kernelCase(`frandom${ws}`, random, ws, [input, new Uint8Array(4 * ws * RANDOM_REGS.length), area]);
  }
}

/** The ARGS document of float-atomics.cl's float_atomics: 256 work-items in groups of 64, inputs k / 4 for k in [-40, 40]. */
export function floatAtomicsArgs(rng: Rng): { kernel: string; grid: number[]; block: number[]; args: { buffer: string; data: number[] }[] } {
  const f = (x: number) => { const v = new DataView(new ArrayBuffer(4)); v.setFloat32(0, x, true); return v.getUint32(0, true); };
  const input = Array.from({ length: 256 }, () => f((rng.int(81) - 40) / 4));
  return { kernel: 'float_atomics', grid: [256], block: [64], args: [{ buffer: 'u32', data: [...new Array<number>(64).fill(0), ...new Array<number>(4).fill(f(-1000))] }, { buffer: 'u32', data: input }] };
}

/** float-atomics.cl (clang-19: ds_add_f32, ds_min_f32, a CAS loop for the global max) as an engine case on the ARGS document's buffers. */
export function openClFloatAtomicCase(wave64: boolean, doc: ReturnType<typeof floatAtomicsArgs>): EngineCase {
  const code = new Uint8Array(readFileSync(buildOpenCl('float-atomics.cl', { wave64 })));
  const shader = loadShaders({ bytes: code, name: 'k' }).find((s) => s.info.name === doc.kernel);
  assert.ok(shader);
  const ws = wave64 ? 64 : 32;
  return { name: `float_atomics wave${ws} (OpenCL)`, spirvName: `float_atomics_${ws}`, code, kernel: doc.kernel, shader, buffers: doc.args.map((a) => bytes(a.data)), grid: [256, 1, 1], block: [64, 1, 1], scalars: [], writes: 0 };
}
