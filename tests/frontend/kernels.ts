// Assembly kernels for the recompiler's first slice, shared by the frontend (IR) and Vulkan engine
// differential tests: s[0:1] kernarg pointer; buffer k's address at kernarg + 8k; v0 = workitem id
// x; s2 = workgroup id x (enable with '.amdhsa_system_sgpr_workgroup_id_x 1').
const PROLOGUE = (wave64: boolean) => `
  s_load_dwordx4 s[4:7], s[0:1], 0x0
  s_waitcnt lgkmcnt(0)
  v_lshl_add_u32 v1, s2, ${wave64 ? 6 : 6}, v0
  v_lshlrev_b32 v2, 2, v1
  global_load_dword v3, v2, s[4:5]
  s_waitcnt vmcnt(0)`;

export function sliceKernels(wave64: boolean) {
  const vcc = wave64 ? 'vcc' : 'vcc_lo';
  const exec = wave64 ? 'exec' : 'exec_lo';
  const sv = wave64 ? 's[10:11]' : 's10';
  const save = wave64 ? 's_and_saveexec_b64' : 's_and_saveexec_b32';
  const restore = wave64 ? 's_or_b64' : 's_or_b32';
  const suffix = wave64 ? '_w64' : '';
  return [
    { name: `alu${suffix}`, wave64, body: `${PROLOGUE(wave64)}
  v_add_nc_u32 v4, v3, v1
  v_mul_lo_u32 v5, v3, v3
  v_mul_hi_u32 v6, v3, 0x9e3779b9
  v_xor3_b32 v4, v4, v5, v6
  v_lshrrev_b32 v7, 3, v3
  v_ashrrev_i32 v8, 5, v3
  v_add_co_u32 v9, ${vcc}, v3, v4
  v_add_co_ci_u32_e32 v10, ${vcc}, 0, v5, ${vcc}
  v_cmp_gt_u32_e32 ${vcc}, 0x80000000, v3
  v_cndmask_b32_e32 v11, v7, v8, ${vcc}
  v_min_u32 v12, v3, v4
  v_max_i32 v13, v3, v5
  v_and_or_b32 v14, v3, 0xff00ff, v13
  v_bfe_u32 v15, v3, 7, 9
  s_add_u32 s8, s2, 0xfffffff0
  s_addc_u32 s9, s2, 5
  s_cselect_b32 s12, 11, 22
  v_add_nc_u32 v16, s8, s12
  v_add_nc_u32 v16, v16, s9
  v_lshlrev_b32 v17, 5, v1
  global_store_dwordx4 v17, v[4:7], s[6:7]
  global_store_dwordx4 v17, v[8:11], s[6:7] offset:16
  s_endpgm` },
    { name: `flow${suffix}`, wave64, body: `${PROLOGUE(wave64)}
  v_mov_b32 v4, 0
  v_cmp_lt_u32_e32 ${vcc}, 100, v3
  ${save} ${sv}, ${vcc}
  s_cbranch_execz .Lskip${suffix}
.Lloop${suffix}:
  v_add_nc_u32 v4, v4, 1
  v_lshrrev_b32 v3, 1, v3
  v_cmp_lt_u32_e32 ${vcc}, 100, v3
  s_and_b${wave64 ? 64 : 32} ${exec}, ${exec}, ${vcc}
  s_cbranch_execnz .Lloop${suffix}
.Lskip${suffix}:
  ${restore} ${exec}, ${exec}, ${sv}
  s_cmp_eq_u32 s2, 1
  s_cbranch_scc1 .Lodd${suffix}
  v_add_nc_u32 v4, v4, 1000
.Lodd${suffix}:
  v_cmp_eq_u32_e32 ${vcc}, 7, v1
  s_cbranch_vccz .Lnoseven${suffix}
  v_add_nc_u32 v4, v4, 0x10000
.Lnoseven${suffix}:
  global_store_dword v2, v4, s[6:7]
  s_endpgm` },
    { name: `bits${suffix}`, wave64, body: `${PROLOGUE(wave64)}
  v_bfrev_b32 v4, v3
  v_mul_u32_u24 v5, v3, v1
  v_mul_i32_i24 v6, v3, 0xfff001
  v_mad_u32_u24 v7, v3, v3, v1
  v_mul_hi_u32_u24 v8, v3, 0xabcdef
  v_mul_hi_i32_i24 v9, v3, v3
  v_mad_i32_i24 v10, v3, -7, v4
  s_brev_b32 s8, s2
  s_movk_i32 s9, 0x7ff0
  s_addk_i32 s9, 0x7fff
  s_cselect_b32 s10, 1, 2
  v_add3_u32 v11, s8, s9, v4
  v_add_nc_u32 v11, s10, v11
  v_lshlrev_b32 v17, 5, v1
  global_store_dwordx4 v17, v[4:7], s[6:7]
  global_store_dwordx4 v17, v[8:11], s[6:7] offset:16
  s_endpgm` },
  ];
}

