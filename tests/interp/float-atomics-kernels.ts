// Assembly kernels of the float atomics and the M0-based DS forms (issue 7), shared by the
// interpreter's hand-computed tests (tests/interp/float-atomics.test.ts) and the differential
// cases (tests/runtime/cases-float-atomics.ts). Each runs as one wave (wave32 or wave64) and
// stores, per lane, the registers `regs` names at out[lane * regs.length + k] (buffer 0). The
// float kernels first set MODE to round toward zero with every denormal flushed
// (s_round_mode 0xf, s_denorm_mode 0): the float atomics compute under their own fixed mode
// (src/float/atomic.ts), so none of their results may show that MODE.

/** The per-lane record: v[regs[k]] to out + 4 * (lane * regs.length + k), through s[0:1] (set by the body). */
function stores(regs: readonly number[]): string {
  return ['s_waitcnt vmcnt(0) lgkmcnt(0)', `v_mul_u32_u24 v60, ${4 * regs.length}, v0`, ...regs.map((r, k) => `global_store_dword v60, v${r}, s[0:1] offset:${4 * k}`), 's_endpgm'].join('\n  ');
}

export interface AtomicKernel {
  readonly body: string;
  readonly regs: readonly number[];
  readonly ldsBytes: number;
}

/** DS float atomics: a shared f32 add chain at 0, a shared f64 min chain at 8, per-lane edge cases. */
export function dsFloatKernel(ws: 32 | 64): AtomicKernel {
  const f64Base = 0x100 + 32 * ws;
  const regs = [10, 12, 13, 30, 31, 32, 33, 34, 35, 36, 37, 40, 41, 42, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55];
  const body = `
  s_load_dwordx2 s[0:1], s[0:1], 0x0
  s_round_mode 0xf
  s_denorm_mode 0
  v_mov_b32 v1, 0
  v_mov_b32 v2, 0.5
  ds_write_b32 v1, v2
  v_mov_b32 v2, 0
  v_mov_b32 v3, 0x40590000
  ds_write_b64 v1, v[2:3] offset:8
  v_lshl_add_u32 v20, v0, 5, 0x100
  v_mov_b32 v21, 1.0
  ds_write_b32 v20, v21
  v_mov_b32 v21, 1
  ds_write_b32 v20, v21 offset:4
  v_mov_b32 v21, 0x7fc00000
  ds_write_b32 v20, v21 offset:8
  v_bfrev_b32 v21, 1
  ds_write_b32 v20, v21 offset:12
  v_mov_b32 v21, 0
  ds_write_b32 v20, v21 offset:16
  v_mov_b32 v21, 1.0
  ds_write_b32 v20, v21 offset:20
  v_mov_b32 v21, 0
  ds_write_b32 v20, v21 offset:24
  v_mov_b32 v21, 0x7fc00000
  ds_write_b32 v20, v21 offset:28
  v_lshl_add_u32 v24, v0, 4, 0x${f64Base.toString(16)}
  v_mov_b32 v25, 0
  v_mov_b32 v26, 0xbff00000
  ds_write_b64 v24, v[25:26]
  v_mov_b32 v26, 0x40080000
  ds_write_b64 v24, v[25:26] offset:8
  v_mov_b32 v3, 1.0
  ds_add_rtn_f32 v10, v1, v3
  v_sub_nc_u32 v4, 50, v0
  v_cvt_f64_i32 v[14:15], v4
  ds_min_rtn_f64 v[12:13], v1, v[14:15] offset:8
  v_mov_b32 v22, 0x34400000
  ds_add_f32 v20, v22
  v_mov_b32 v22, 1
  ds_add_rtn_f32 v30, v20, v22 offset:4
  v_mov_b32 v22, 2.0
  ds_min_rtn_f32 v31, v20, v22 offset:8
  v_mov_b32 v22, 0
  ds_max_f32 v20, v22 offset:12
  v_bfrev_b32 v22, 1
  ds_min_f32 v20, v22 offset:16
  v_mov_b32 v22, 0x7f800001
  ds_min_rtn_f32 v32, v20, v22 offset:20
  v_bfrev_b32 v22, 1
  v_mov_b32 v23, 0x40a00000
  ds_cmpst_rtn_f32 v33, v20, v22, v23 offset:24
  v_mov_b32 v22, 0x7fc00000
  ds_cmpst_f32 v20, v22, v23 offset:28
  v_mov_b32 v27, 1
  v_mov_b32 v28, 0
  ds_max_rtn_f64 v[34:35], v24, v[27:28]
  v_mov_b32 v27, 0
  v_mov_b32 v28, 0x40080000
  v_mov_b32 v38, 0
  v_mov_b32 v39, 0x401c0000
  ds_cmpst_rtn_f64 v[36:37], v24, v[27:28], v[38:39] offset:8
  s_waitcnt lgkmcnt(0)
  ds_read_b32 v40, v1
  ds_read_b64 v[41:42], v1 offset:8
  ds_read_b128 v[44:47], v20
  ds_read_b128 v[48:51], v20 offset:16
  ds_read_b128 v[52:55], v24
  s_waitcnt lgkmcnt(0)
  ${stores(regs)}`;
  return { body, regs, ldsBytes: 4096 };
}

/** The data buffer of globalFloatKernel before the run (16 dwords). */
export const GLOBAL_FLOAT_DATA: readonly number[] = [
  0x42c80000, 0xc2c80000, 0x80000000, 0, 0, 0x7ff80000, 0, 0x80000000, 0, 0, 5, 0x7f800001, 0, 0, 0, 0,
];

/** GLOBAL, MUBUF and FLAT float atomics, every lane on the same addresses of buffer 1 (GLOBAL_FLOAT_DATA). */
export function globalFloatKernel(ws: 32 | 64): AtomicKernel {
  const vcc = ws === 64 ? 'vcc' : 'vcc_lo', carry = ws === 64 ? 's[8:9]' : 's8';
  const DW3 = (4 | (5 << 3) | (6 << 6) | (7 << 9) | (20 << 12) | (3 << 28)) >>> 0;
  const regs = [3, 4, 5, 8, 9, 12, 13, 16, 17];
  const body = `
  s_load_dwordx4 s[0:3], s[0:1], 0x0
  s_waitcnt lgkmcnt(0)
  s_round_mode 0xf
  s_denorm_mode 0
  s_mov_b32 s4, s2
  s_and_b32 s5, s3, 0xffff
  s_mov_b32 s6, 64
  s_mov_b32 s7, 0x${DW3.toString(16)}
  v_mov_b32 v1, 0
  v_sub_nc_u32 v2, 10, v0
  v_cvt_f32_i32 v2, v2
  global_atomic_fmin v3, v1, v2, s[2:3] glc
  global_atomic_fmax v4, v1, v2, s[2:3] offset:4 glc
  v_cvt_f32_u32 v6, v0
  v_add_f32 v6, 1.0, v6
  v_mov_b32 v7, 0
  global_atomic_fcmpswap v5, v1, v[6:7], s[2:3] offset:8 glc
  v_cvt_f64_u32 v[10:11], v0
  global_atomic_fmax_x2 v[8:9], v1, v[10:11], s[2:3] offset:16 glc
  v_add_nc_u32 v16, 1, v0
  v_cvt_f64_u32 v[12:13], v16
  v_cvt_f64_u32 v[14:15], v0
  buffer_atomic_fcmpswap_x2 v[12:15], v1, s[4:7], 0 offen offset:24 glc
  v_mov_b32 v16, 3
  buffer_atomic_fmin v16, v1, s[4:7], 0 offen offset:40 glc
  v_add_co_u32 v18, ${vcc}, s2, 44
  v_add_co_ci_u32_e64 v19, ${carry}, s3, 0, ${vcc}
  v_mov_b32 v17, -1.0
  flat_atomic_fmax v17, v[18:19], v17 glc
  ${stores(regs)}`;
  return { body, regs, ldsBytes: 0 };
}

/** ds_write_addtid_b32 / ds_read_addtid_b32 (M0 base) and ds_append / ds_consume under full and partial EXEC. */
export function dsM0Kernel(ws: 32 | 64): AtomicKernel {
  const regs = [4, 5, 6, 7, 8, 9];
  const exec = (v: string) => (ws === 64 ? `s_mov_b64 exec, ${v}` : `s_mov_b32 exec_lo, ${v}`);
  const body = `
  s_load_dwordx2 s[0:1], s[0:1], 0x0
  s_mov_b32 m0, 0x10040
  v_mul_u32_u24 v2, 3, v0
  v_add_nc_u32 v2, 7, v2
  ds_write_addtid_b32 v2 offset:16
  s_waitcnt lgkmcnt(0)
  v_lshl_add_u32 v3, v0, 2, 0x50
  ds_read_b32 v4, v3
  s_mov_b32 m0, 0xffff0044
  ds_read_addtid_b32 v5 offset:16
  s_mov_b32 m0, 0
  ds_append v6 offset:8
  v_mov_b32 v7, 0xdead
  ${exec('5')}
  ds_append v7 offset:8
  ${exec('-1')}
  s_mov_b32 m0, 4
  ds_consume v8 offset:4
  v_mov_b32 v1, 0
  s_waitcnt lgkmcnt(0)
  ds_read_b32 v9, v1 offset:8
  s_waitcnt lgkmcnt(0)
  ${stores(regs)}`;
  return { body, regs, ldsBytes: 1024 };
}

/** ds_wrxchg2(st64)_rtn_b32 where one lane's second address is the next lane's first, and lanes share st64 addresses. */
export const WRXCHG2_REGS = [5, 6, 8, 9, 10, 11, 12];
export const WRXCHG2_BODY = `
  s_load_dwordx2 s[0:1], s[0:1], 0x0
  v_lshlrev_b32 v1, 2, v0
  v_add_nc_u32 v2, 100, v0
  ds_write_b32 v1, v2
  v_add_nc_u32 v3, 1000, v0
  v_add_nc_u32 v4, 2000, v0
  s_waitcnt lgkmcnt(0)
  ds_wrxchg2_rtn_b32 v[5:6], v1, v3, v4 offset0:0 offset1:1
  v_and_b32 v7, 7, v0
  v_lshlrev_b32 v7, 2, v7
  ds_wrxchg2st64_rtn_b32 v[8:9], v7, v3, v4 offset0:1 offset1:2
  s_waitcnt lgkmcnt(0)
  ds_read_b32 v10, v1
  ds_read_b32 v11, v7 offset:256
  ds_read_b32 v12, v7 offset:512
  s_waitcnt lgkmcnt(0)
  v_mul_u32_u24 v60, ${4 * WRXCHG2_REGS.length}, v0
  ${WRXCHG2_REGS.map((r, k) => `global_store_dword v60, v${r}, s[0:1] offset:${4 * k}`).join('\n  ')}
  s_endpgm`;


/**
 * ds_wrxchg2_rtn_b64 (lane l: 8l and 8l + 8, the next lane's first), ds_wrxchg2st64_rtn_b64
 * (lane l: 512 + 8g and 1024 + 8g, g = l & 7, shared by the lanes of a group) and
 * ds_condxchg32_rtn_b64 (lanes 2k and 2k + 1 on the pair at 1536 + 8k, through an address
 * 8k + 3 + 4 (l & 1) that the 0xfff8 mask aligns; low data bit 31 set in odd lanes, high data
 * bit 31 set where l & 2), then the LDS read back. Initial LDS: 8l holds (100 + l, 200 + l),
 * 1536 + 8l holds (300 + l, 400 + l); data0 (1000 + l, 1100 + l), data1 (2000 + l, 2100 + l).
 */
export const WRXCHG2X64_REGS = [8, 9, 10, 11, 12, 13, 14, 15, 17, 18, 19, 20, 21, 22, 23, 24, 28, 29];
export const WRXCHG2X64_BODY = `
  s_load_dwordx2 s[0:1], s[0:1], 0x0
  v_lshlrev_b32 v1, 3, v0
  v_add_nc_u32 v2, 100, v0
  v_add_nc_u32 v3, 200, v0
  ds_write_b64 v1, v[2:3]
  v_add_nc_u32 v2, 300, v0
  v_add_nc_u32 v3, 400, v0
  ds_write_b64 v1, v[2:3] offset:1536
  v_add_nc_u32 v4, 1000, v0
  v_add_nc_u32 v5, 1100, v0
  v_add_nc_u32 v6, 2000, v0
  v_add_nc_u32 v7, 2100, v0
  s_waitcnt lgkmcnt(0)
  ds_wrxchg2_rtn_b64 v[8:11], v1, v[4:5], v[6:7] offset0:0 offset1:1
  v_and_b32 v16, 7, v0
  v_lshlrev_b32 v16, 3, v16
  ds_wrxchg2st64_rtn_b64 v[12:15], v16, v[4:5], v[6:7] offset0:1 offset1:2
  v_lshrrev_b32 v30, 1, v0
  v_lshlrev_b32 v30, 3, v30
  v_and_b32 v25, 1, v0
  v_lshl_add_u32 v25, v25, 2, v30
  v_add_nc_u32 v25, 3, v25
  v_add_nc_u32 v26, 5000, v0
  v_lshlrev_b32 v31, 31, v0
  v_or_b32 v26, v26, v31
  v_sub_nc_u32 v27, 0x7fffffff, v0
  v_lshlrev_b32 v31, 30, v0
  v_and_b32 v31, 0x80000000, v31
  v_or_b32 v27, v27, v31
  ds_condxchg32_rtn_b64 v[23:24], v25, v[26:27] offset:1536
  s_waitcnt lgkmcnt(0)
  ds_read_b64 v[17:18], v1
  ds_read_b64 v[19:20], v16 offset:512
  ds_read_b64 v[21:22], v16 offset:1024
  ds_read_b64 v[28:29], v30 offset:1536
  s_waitcnt lgkmcnt(0)
  v_mul_u32_u24 v60, ${4 * WRXCHG2X64_REGS.length}, v0
  ${WRXCHG2X64_REGS.map((r, k) => `global_store_dword v60, v${r}, s[0:1] offset:${4 * k}`).join('\n  ')}
  s_endpgm`;
