// Assembly kernels for the structurizer through the whole recompiler (the engine suite's control
// flow cases, tests/runtime/cases.ts): nested loops with breaks and continues on SCC, a loop exit
// to two places, early s_endpgm, vccz/vccnz loops and skips, EXEC regions skipped with execz and
// looped with execnz (SALU code in a skipped region must not run), and one irreducible cycle (the
// state machine). Buffer 0: u32 inputs (dword 0 also read as a uniform value); buffer 1: outputs,
// 16 bytes per work-item. s[0:1] kernarg pointer; v0 workitem id x; s2 workgroup id x.
export function flowKernels(wave64: boolean): { name: string; wave64: boolean; body: string; structured: boolean }[] {
  const vcc = wave64 ? 'vcc' : 'vcc_lo';
  const exec = wave64 ? 'exec' : 'exec_lo';
  const save = wave64 ? 's_and_saveexec_b64' : 's_and_saveexec_b32';
  const or = wave64 ? 's_or_b64' : 's_or_b32';
  const and = wave64 ? 's_and_b64' : 's_and_b32';
  const sa = wave64 ? 's[20:21]' : 's20', sb = wave64 ? 's[22:23]' : 's22';
  const w = wave64 ? '_w64' : '';
  // v1 = global id, v2 = 16 · v1 (the output record), v3 = input[v1]; s8 = input[0] (uniform).
  const PROLOGUE = `
  s_load_dwordx4 s[4:7], s[0:1], 0x0
  s_waitcnt lgkmcnt(0)
  s_load_dword s8, s[4:5], 0x0
  v_lshl_add_u32 v1, s2, 6, v0
  v_lshlrev_b32 v2, 2, v1
  global_load_dword v3, v2, s[4:5]
  v_lshlrev_b32 v2, 4, v1
  s_waitcnt vmcnt(0) lgkmcnt(0)`;
  const STORE = `
  v_mov_b32 v6, s9
  v_mov_b32 v7, s13
  global_store_dwordx4 v2, v[4:7], s[6:7]`;
  return [
    { name: `loops${w}`, wave64, structured: true, body: `${PROLOGUE}
  v_mov_b32 v4, 0
  v_mov_b32 v5, v3
  s_mov_b32 s13, 0
  s_bitcmp1_b32 s2, 1
  s_cbranch_scc1 .Lodd${w}
  s_and_b32 s8, s8, 7
  s_add_u32 s8, s8, 3
  s_mov_b32 s9, 0
.Louter${w}:
  s_cmp_ge_u32 s9, s8
  s_cbranch_scc1 .Ldone${w}
  s_mov_b32 s10, 0
.Linner${w}:
  v_add_nc_u32 v4, v4, s10
  v_xor_b32 v4, v4, v3
  s_add_u32 s10, s10, 1
  s_add_u32 s13, s13, s10
  s_cmp_eq_u32 s10, 5
  s_cbranch_scc1 .Linner_done${w}
  s_and_b32 s11, s10, s9
  s_cmp_eq_u32 s11, 2
  s_cbranch_scc1 .Lnext${w}
  s_bitcmp1_b32 s10, 0
  s_cbranch_scc0 .Linner${w}
  v_mul_lo_u32 v4, v4, 3
  s_branch .Linner${w}
.Linner_done${w}:
  v_add_nc_u32 v4, v4, 0x100
  v_add_nc_u32 v5, v5, s10
.Lnext${w}:
  s_add_u32 s9, s9, 1
  s_cmp_eq_u32 s9, 6
  s_cbranch_scc0 .Louter${w}
  v_add_nc_u32 v4, v4, 0x10000
${STORE}
  s_endpgm
.Lodd${w}:
  v_mov_b32 v4, 0x0dd
  s_mov_b32 s9, s2
.Ldone${w}:
  v_add_nc_u32 v5, v5, 7
${STORE}
  s_endpgm` },
    { name: `vcc${w}`, wave64, structured: true, body: `${PROLOGUE}
  v_mov_b32 v4, v3
  v_mov_b32 v5, 0
  s_mov_b32 s9, 0
  s_mov_b32 s13, 0
  s_and_b32 s15, s8, 0x30
  s_add_u32 s15, s15, 20
.Lhalve${w}:
  v_lshrrev_b32 v4, 1, v4
  s_add_u32 s9, s9, 1
  v_cmp_ne_u32_e32 ${vcc}, 0, v4
  s_cbranch_vccz .Lzero${w}
  v_add_nc_u32 v5, v5, v4
  s_cmp_lt_u32 s9, s15
  s_cbranch_scc1 .Lhalve${w}
  s_mov_b32 s13, 1
.Lzero${w}:
  s_and_b32 s14, s8, 1
  s_lshl_b32 s14, s14, 12
  v_cmp_gt_u32_e32 ${vcc}, s14, v3
  s_cbranch_vccnz .Lsome${w}
  s_add_u32 s13, s13, 100
  s_branch .Lout${w}
.Lsome${w}:
  v_cndmask_b32_e64 v4, v1, v3, ${vcc}
  s_add_u32 s13, s13, 200
.Lout${w}:
${STORE}
  s_endpgm` },
    { name: `exec${w}`, wave64, structured: true, body: `${PROLOGUE}
  v_mov_b32 v4, 0
  v_mov_b32 v5, v3
  s_mov_b32 s9, 0
  s_mov_b32 s13, 0
  v_and_b32 v8, 3, v3
  v_cmp_eq_u32_e32 ${vcc}, 0, v8
  ${save} ${sa}, ${vcc}
  s_cbranch_execz .Lxa${w}
  v_add_nc_u32 v4, v4, 11
  s_add_u32 s13, s13, 1
  v_cmp_lt_u32_e32 ${vcc}, 0x80000000, v3
  ${save} ${sb}, ${vcc}
  s_cbranch_execz .Lxb${w}
  v_add_nc_u32 v4, v4, 100
  s_add_u32 s13, s13, 2
.Lxb${w}:
  ${or} ${exec}, ${exec}, ${sb}
.Lxa${w}:
  ${or} ${exec}, ${exec}, ${sa}
  v_cmp_gt_u32_e32 ${vcc}, 0, v0
  ${save} ${sa}, ${vcc}
  s_cbranch_execz .Lc${w}
  v_mov_b32 v4, 0xdead
  s_add_u32 s13, s13, 0x1000
.Lc${w}:
  ${or} ${exec}, ${exec}, ${sa}
  v_cmp_lt_u32_e32 ${vcc}, 0x1000000, v5
  ${save} ${sa}, ${vcc}
  s_cbranch_execz .Ld${w}
.Lshift${w}:
  v_lshrrev_b32 v5, 2, v5
  s_add_u32 s9, s9, 1
  v_cmp_lt_u32_e32 ${vcc}, 0x1000000, v5
  ${and} ${exec}, ${exec}, ${vcc}
  s_cbranch_execnz .Lshift${w}
.Ld${w}:
  ${or} ${exec}, ${exec}, ${sa}
${STORE}
  s_endpgm` },
    { name: `cycle${w}`, wave64, structured: false, body: `${PROLOGUE}
  v_mov_b32 v4, v3
  v_mov_b32 v5, v1
  s_mov_b32 s9, 0
  s_and_b32 s13, s8, 3
  s_cmp_eq_u32 s13, 0
  s_cbranch_scc1 .Lcb${w}
.Lca${w}:
  v_add_nc_u32 v4, v4, 3
  s_add_u32 s9, s9, 1
  s_cmp_ge_u32 s9, 7
  s_cbranch_scc1 .Lend${w}
.Lcb${w}:
  v_xor_b32 v4, v4, v5
  v_add_nc_u32 v5, v5, s9
  s_add_u32 s9, s9, 2
  s_cmp_lt_u32 s9, 9
  s_cbranch_scc1 .Lca${w}
.Lend${w}:
${STORE}
  s_endpgm` },
  ];
}
