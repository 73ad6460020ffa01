// LDS and s_barrier cases (issue 7) for the engine suites: assembly kernels whose workgroups have
// several waves (wave32: 4 per workgroup, wave64: 2) sharing 4 KiB of LDS. They run every kind of
// DS access the recompiler translates: dword, byte and short stores whose lanes collide (the
// highest lane's value stays), misaligned 64/96/128-bit stores and loads, read2/write2 and their
// st64 forms, every load extension (u8/i8/u16/i16, the d16 and d16_hi halves), elements partly or
// wholly outside the LDS and an address sum past 2^32, 32- and 64-bit atomics on shared counters
// (their returns show the lane and wave order), ds_swizzle_b32 (bit-mask and quad modes),
// ds_permute_b32 and ds_bpermute_b32 under partial EXEC, values passed between waves across
// s_barrier, barriers in a loop, and waves that end before the last barrier. Each lane stores a
// 32-dword record of what it read; the first waves then dump the whole LDS.
import assert from 'node:assert/strict';
import type { EngineCase } from './cases.js';
import { KERNARG_DIRECTIVES } from '../interp/harness.js';
import { assembleKernels } from '../harness/kernel.js';
import { loadShaders } from '../../src/container/shader.js';
import { Rng } from '../harness/rng.js';

const BLOCK = 128;
const RECORD = 128;

function ldsBody(wave64: boolean): string {
  const vcc = wave64 ? 'vcc' : 'vcc_lo', exec = wave64 ? 'exec' : 'exec_lo', b = wave64 ? 'b64' : 'b32', sv = wave64 ? 's[20:21]' : 's20';
  return `
  s_load_dwordx4 s[4:7], s[0:1], 0x0
  s_load_dwordx4 s[12:15], s[0:1], 0x10
  s_waitcnt lgkmcnt(0)
  v_lshl_add_u32 v1, s2, 7, v0
  v_lshlrev_b32 v2, 2, v1
  global_load_dword v3, v2, s[4:5]
  s_waitcnt vmcnt(0)
  v_lshlrev_b32 v10, 2, v0
  ; zero the LDS (32 bytes a lane)
  v_mov_b32 v20, 0
  v_mov_b32 v21, 0
  v_mov_b32 v22, 0
  v_mov_b32 v23, 0
  v_lshlrev_b32 v11, 5, v0
  ds_write_b128 v11, v[20:23]
  ds_write_b128 v11, v[20:23] offset:16
  s_waitcnt lgkmcnt(0)
  s_barrier
  ; a value from another wave, across a barrier
  ds_write_b32 v10, v3
  s_waitcnt lgkmcnt(0)
  s_barrier
  v_add_nc_u32 v12, 37, v0
  v_and_b32 v12, 0x7f, v12
  v_lshlrev_b32 v12, 2, v12
  ds_read_b32 v4, v12
  s_waitcnt lgkmcnt(0)
  s_barrier
  ; colliding bytes and shorts (any alignment)
  v_and_b32 v13, 0x1f, v3
  ds_write_b8 v13, v3 offset:512
  v_bfe_u32 v14, v3, 8, 6
  ds_write_b16 v14, v3 offset:576
  ds_write_b8_d16_hi v13, v3 offset:672
  ds_write_b16_d16_hi v14, v3 offset:704
  ; misaligned wide stores, overlapping their neighbours
  v_mul_u32_u24 v15, 5, v0
  v_xor_b32 v5, 0x5a5a5a5a, v3
  v_not_b32 v6, v3
  v_add_nc_u32 v7, v3, v0
  v_mov_b32 v8, v1
  ds_write_b64 v15, v[5:6] offset:768
  v_mul_u32_u24 v16, 7, v0
  ds_write_b96 v16, v[5:7] offset:1600
  v_mul_u32_u24 v17, 9, v0
  ds_write_b128 v17, v[5:8] offset:2560
  ; write2: the second element of one lane lands on another lane's first
  v_and_b32 v18, 15, v0
  v_lshl_add_u32 v18, v18, 2, 0xd00
  ds_write2_b32 v18, v5, v6 offset0:0 offset1:3
  v_and_b32 v19, 7, v0
  v_lshl_add_u32 v19, v19, 3, 0xe00
  ds_write2st64_b64 v19, v[5:6], v[7:8] offset0:0 offset1:1
  ; partly and wholly outside the LDS, and a sum past 2^32
  v_mov_b32 v24, 0xffc
  ds_write_b32 v24, v3 offset:2
  ds_write_b16 v24, v3 offset:3
  ds_write_b8 v24, v6 offset:3
  v_mov_b32 v25, -4
  ds_write_b32 v25, v7 offset:8
  s_waitcnt lgkmcnt(0)
  s_barrier
  ; atomics on shared counters: the returns show the lane and wave order
  v_mov_b32 v24, 0xf00
  ds_add_rtn_u32 v20, v24, v3
  v_and_b32 v25, 7, v3
  v_lshlrev_b32 v25, 2, v25
  ds_max_rtn_i32 v21, v25, v3 offset:3856
  ds_inc_rtn_u32 v22, v24, v13 offset:4
  ds_cmpst_rtn_b32 v23, v24, v20, v3 offset:8
  ds_mskor_b32 v24, v3, v5 offset:12
  ds_wrap_rtn_b32 v26, v24, v13, v3 offset:16
  ds_add_rtn_u64 v[27:28], v24, v[5:6] offset:64
  ds_min_rtn_i64 v[29:30], v24, v[5:6] offset:72
  ds_rsub_u32 v24, v3 offset:80
  ds_dec_rtn_u32 v31, v24, v13 offset:84
  ds_xor_rtn_b32 v9, v24, v3 offset:88
  ds_wrxchg_rtn_b64 v[38:39], v24, v[7:8] offset:96
  s_waitcnt lgkmcnt(0)
  s_barrier
  ; lane crossing and an atomic under partial EXEC
  v_and_b32 v35, 3, v3
  v_cmp_ne_u32_e32 ${vcc}, 0, v35
  v_mov_b32 v32, -1
  v_mov_b32 v33, -1
  v_mov_b32 v34, -1
  v_mov_b32 v36, -1
  v_mov_b32 v37, -1
  s_and_saveexec_${b} ${sv}, ${vcc}
  ds_swizzle_b32 v32, v3 offset:16415
  ds_swizzle_b32 v36, v3 offset:32795
  ds_bpermute_b32 v33, v12, v3
  v_lshlrev_b32 v35, 2, v13
  ds_permute_b32 v34, v35, v3 offset:4
  ds_add_rtn_u32 v37, v24, v0 offset:104
  s_or_${b} ${exec}, ${exec}, ${sv}
  s_waitcnt lgkmcnt(0)
  ; every load extension, misaligned, and loads partly outside
  v_and_b32 v40, 0x3ff, v3
  ds_read_u8 v41, v40
  ds_read_i8 v42, v40
  ds_read_u16 v43, v40
  ds_read_i16 v44, v40
  v_mov_b32 v45, v3
  v_mov_b32 v46, v3
  ds_read_u8_d16 v45, v40
  ds_read_i8_d16_hi v46, v40
  v_mov_b32 v47, v3
  v_mov_b32 v48, v3
  ds_read_u16_d16_hi v47, v40
  ds_read_i8_d16 v48, v40
  ds_read_b64 v[49:50], v40 offset:1
  ds_read2_b32 v[51:52], v10 offset0:3 offset1:200
  ds_read2st64_b32 v[53:54], v10 offset0:1 offset1:14
  ds_read_b96 v[55:57], v40 offset:2
  v_mov_b32 v58, 0xff8
  ds_read_b128 v[59:62], v58
  ds_read_b32 v63, v58 offset:7
  s_waitcnt lgkmcnt(0)
  ; barriers in a loop: each round adds a neighbour's value from the last round
  s_mov_b32 s21, 3
  v_mov_b32 v64, v3
.L${wave64 ? 'w64' : 'w32'}_loop:
  ds_write_b32 v10, v64 offset:3072
  s_waitcnt lgkmcnt(0)
  s_barrier
  ds_read_b32 v65, v12 offset:3072
  s_waitcnt lgkmcnt(0)
  s_barrier
  v_add_nc_u32 v64, v64, v65
  s_sub_u32 s21, s21, 1
  s_cmp_lg_u32 s21, 0
  s_cbranch_scc1 .L${wave64 ? 'w64' : 'w32'}_loop
  ; the lane's record
  v_lshlrev_b32 v2, 7, v1
  global_store_dwordx4 v2, v[4:7], s[6:7]
  global_store_dwordx4 v2, v[20:23], s[6:7] offset:16
  global_store_dwordx4 v2, v[26:29], s[6:7] offset:32
  global_store_dwordx4 v2, v[30:33], s[6:7] offset:48
  global_store_dwordx4 v2, v[34:37], s[6:7] offset:64
  global_store_dwordx4 v2, v[38:41], s[6:7] offset:80
  global_store_dwordx4 v2, v[42:45], s[6:7] offset:96
  global_store_dwordx4 v2, v[46:49], s[6:7] offset:112
  ; (the record's second half in the next 128 bytes of buffer 2)
  v_lshlrev_b32 v2, 7, v1
  global_store_dwordx4 v2, v[50:53], s[12:13]
  global_store_dwordx4 v2, v[54:57], s[12:13] offset:16
  global_store_dwordx4 v2, v[58:61], s[12:13] offset:32
  global_store_dwordx4 v2, v[62:65], s[12:13] offset:48
  global_store_dword v2, v9, s[12:13] offset:64
  ; the last waves end here; the first 64 work-items wait once more and dump the LDS
  v_readfirstlane_b32 s22, v0
  s_cmp_ge_u32 s22, 64
  s_cbranch_scc1 .L${wave64 ? 'w64' : 'w32'}_end
  ds_write_b32 v10, v1 offset:3584
  s_waitcnt lgkmcnt(0)
  s_barrier
  v_lshlrev_b32 v11, 6, v0
  ds_read_b128 v[20:23], v11
  ds_read_b128 v[24:27], v11 offset:16
  ds_read_b128 v[28:31], v11 offset:32
  ds_read_b128 v[32:35], v11 offset:48
  s_waitcnt lgkmcnt(0)
  s_lshl_b32 s23, s2, 12
  v_add_nc_u32 v11, s23, v11
  global_store_dwordx4 v11, v[20:23], s[14:15]
  global_store_dwordx4 v11, v[24:27], s[14:15] offset:16
  global_store_dwordx4 v11, v[28:31], s[14:15] offset:32
  global_store_dwordx4 v11, v[32:35], s[14:15] offset:48
.L${wave64 ? 'w64' : 'w32'}_end:
  s_endpgm`;
}

/** The LDS and barrier cases, wave32 and wave64, over a few workgroups (the last one partial). */
export function* ldsCases(): Generator<EngineCase> {
  const rng = new Rng(4096);
  for (const wave64 of [false, true]) {
    const name = `lds${wave64 ? 64 : 32}`;
    const body = ldsBody(wave64);
    const code = assembleKernels('gfx1030', [{ name, body, wave64, vgprs: 72, sgprs: 32, directives: [...KERNARG_DIRECTIVES, '.amdhsa_group_segment_fixed_size 4096'] }]);
    const shader = loadShaders({ bytes: code, name: 'lds' }).find((s) => s.info.name === name);
    assert.ok(shader, name);
    assert.equal(shader.info.ldsSize, 4096);
    const groups = 3;
    const n = groups * BLOCK;
    const input = Uint8Array.from({ length: 4 * n }, () => rng.u32() & 0xff);
    // A partial last workgroup: its last wave(s) have no work-item and do not run.
    const grid = n - (wave64 ? 70 : 40);
    yield { name, spirvName: name, code, kernel: name, shader, buffers: [input, new Uint8Array(RECORD * n), new Uint8Array(RECORD * n), new Uint8Array(4096 * groups)], grid: [grid, 1, 1], block: [BLOCK, 1, 1], scalars: [], writes: 3 };
  }
}
