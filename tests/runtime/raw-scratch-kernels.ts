// The raw compute shaders with scratch of tests/runtime/raw-scratch.test.ts (its header says what
// they check), shared with the tools that record them for a GPU machine.
import type { Target } from '../../src/isa/types.js';

/** Private bytes a lane (four dwords), workgroups of the dispatch, dwords a record. */
export const PER_LANE = 16, GROUPS = 3, RECORD = 8;
export const OVERRUN = 'outside the wave\'s scratch region';

export type Ring = 'direct' | 'table';

/**
 * s[0:1] the output, s[2:3] the ring's address ({"scratch": "base"}), s[4:7] the ring's V#
 * ({"scratch": "vsharp"}; 'table': s[4:5] a table's address whose first entry is the V#), s8 tgid.x,
 * s9 the wave offset; v0 x. Record g = tgid.x * block + x: [g, private dwords 3, 2, 1, 0 read back
 * through the V#, the wave offset, dword 1 read through a global load at its swizzled address,
 * dword 2 read through scratch_load_dword]. `past`: a store to private byte 16 (past the 16 bytes).
 */
export function body(ws: 32 | 64, ring: Ring, block: number, past = false): string {
  return `
  ${ring === 'table' ? 's_load_dwordx4 s[4:7], s[4:5], 0\n  s_waitcnt lgkmcnt(0)' : ''}
  s_mul_i32 s10, s8, ${block}
  v_add_nc_u32 v1, s10, v0
  v_mul_lo_u32 v2, v1, 0x9e3779b1
  v_add_nc_u32 v3, 7, v2
  v_xor_b32 v4, 0x55aa55aa, v2
  v_lshlrev_b32 v5, 3, v1
  buffer_store_dword v2, off, s[4:7], s9 offset:0
  buffer_store_dword v3, off, s[4:7], s9 offset:4
  buffer_store_dword v4, off, s[4:7], s9 offset:8
  buffer_store_dword v5, off, s[4:7], s9 offset:12
  ${past ? 'buffer_store_dword v5, off, s[4:7], s9 offset:16' : ''}
  s_waitcnt vmcnt(0)
  s_barrier
  buffer_load_dword v6, off, s[4:7], s9 offset:12
  buffer_load_dword v7, off, s[4:7], s9 offset:8
  buffer_load_dword v8, off, s[4:7], s9 offset:4
  buffer_load_dword v9, off, s[4:7], s9 offset:0
  v_mbcnt_lo_u32_b32 v10, -1, 0
  ${ws === 64 ? 'v_mbcnt_hi_u32_b32 v10, -1, v10' : ''}
  v_lshlrev_b32 v10, 2, v10
  v_add_nc_u32 v10, ${4 * ws}, v10
  v_add_nc_u32 v10, s9, v10
  global_load_dword v13, v10, s[2:3]
  s_add_u32 s2, s2, s9
  s_addc_u32 s3, s3, 0
  s_setreg_b32 hwreg(HW_REG_FLAT_SCR_LO), s2
  s_setreg_b32 hwreg(HW_REG_FLAT_SCR_HI), s3
  s_mov_b32 s11, 4
  scratch_load_dword v14, off, s11 offset:4
  v_mul_u32_u24 v15, v1, ${4 * RECORD}
  v_mov_b32 v16, s9
  s_waitcnt vmcnt(0)
  global_store_dword v15, v1, s[0:1]
  global_store_dword v15, v6, s[0:1] offset:4
  global_store_dword v15, v7, s[0:1] offset:8
  global_store_dword v15, v8, s[0:1] offset:12
  global_store_dword v15, v9, s[0:1] offset:16
  global_store_dword v15, v16, s[0:1] offset:20
  global_store_dword v15, v13, s[0:1] offset:24
  global_store_dword v15, v14, s[0:1] offset:28
  s_endpgm`;
}

export const sidecar = (target: Target, ws: 32 | 64, ring: Ring, block: number, scratchSize = PER_LANE) => ({
  target, stage: 'cs', waveSize: ws, vgprs: 24, sgprs: 16,
  userSgprs: [{ name: 'out', sgpr: 0, count: 2 }, { name: 'base', sgpr: 2, count: 2 }, { name: 'ring', sgpr: 4, count: ring === 'table' ? 2 : 4 }],
  userSgprCount: 8, tgidEnable: [true, false, false], tgSizeEnable: false, scratchEnable: true, tidigCompCnt: 0,
  workgroupSize: [block, 1, 1], scratchSize,
});

export const doc = (ring: Ring, block: number) => ({
  grid: [GROUPS * block, 1, 1], block: [block, 1, 1],
  args: {
    out: { buffer: 'u32', size: 4 * RECORD * GROUPS * block },
    base: { scratch: 'base' },
    ring: ring === 'table' ? { table: [{ scratch: 'vsharp' }, { u32: 0xfeedf00d }] } : { scratch: 'vsharp' },
  },
});

export const CONFIGS = [
  { target: 'gfx1030', ws: 32, ring: 'direct' },
  { target: 'gfx1030', ws: 64, ring: 'table' },
  { target: 'gfx1013', ws: 32, ring: 'table' },
  { target: 'gfx1010', ws: 64, ring: 'direct' },
] as const;
