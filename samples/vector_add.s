// c[i] = a[i] + b[i] for i < n: a compute kernel as clang emits them for gfx1030 (wave32).
// Build: llvm-mc-19 -triple=amdgcn-amd-amdhsa -mcpu=gfx1030 -filetype=obj samples/vector_add.s -o samples/vector_add.gfx1030.o
  .amdgcn_target "amdgcn-amd-amdhsa--gfx1030"
  .text
  .globl vector_add
  .p2align 8
  .type vector_add,@function
vector_add:
  s_load_dwordx4 s[4:7], s[0:1], 0x0      // a, b
  s_load_dwordx2 s[8:9], s[0:1], 0x10     // c
  s_load_dword s10, s[0:1], 0x18          // n
  s_lshl_b32 s2, s2, 6                    // workgroup id x * 64
  v_add_nc_u32 v0, s2, v0                 // global id
  s_waitcnt lgkmcnt(0)
  v_cmp_gt_u32 vcc_lo, s10, v0
  s_and_saveexec_b32 s11, vcc_lo
  s_cbranch_execz .Lend
  v_lshlrev_b32 v1, 2, v0
  global_load_dword v2, v1, s[4:5]
  global_load_dword v3, v1, s[6:7]
  s_waitcnt vmcnt(0)
  v_add_f32 v2, v2, v3
  global_store_dword v1, v2, s[8:9]
.Lend:
  s_endpgm
.Lfunc_end0:
  .size vector_add, .Lfunc_end0-vector_add

  .rodata
  .p2align 6
  .amdhsa_kernel vector_add
    .amdhsa_user_sgpr_kernarg_segment_ptr 1
    .amdhsa_system_sgpr_workgroup_id_x 1
    .amdhsa_system_vgpr_workitem_id 0
    .amdhsa_next_free_vgpr 4
    .amdhsa_next_free_sgpr 12
    .amdhsa_wavefront_size32 1
    .amdhsa_kernarg_size 28
    .amdhsa_float_round_mode_32 0
    .amdhsa_float_denorm_mode_32 3
  .end_amdhsa_kernel
