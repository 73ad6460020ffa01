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
    saluWideKernel(wave64),
  ];
}


/**
 * The wider SALU: every SOP1/SOP2/SOPK/SOPC op the frontend translates beyond the first slice, on
 * corner inputs (0, all ones, sign bits, shifts of 0/31/32+, field widths 0 and past the top bit)
 * and on dwords loaded from the input (input[16..23]). Constants are or-ed into a run-time zero
 * (s3 = s2 & 0x80000000) so that they are not folded away at translation. Before each op SCC is
 * set one way or the other (alternating), the destination prefilled; after it the destination,
 * SCC (and, for the saveexec family, EXEC) are stored. All waves compute the same values and
 * store them to the same addresses (EXEC is narrowed to lanes 0..7, active in every wave, around
 * the saveexec family), so the order of the waves does not matter.
 */
export function saluWideKernel(wave64: boolean): { name: string; wave64: boolean; body: string } {
  const L: string[] = [];
  let nv = 0, off = 0, tests = 0;
  const out = (...regs: string[]) => {
    for (const r of regs) {
      L.push(`  v_mov_b32 v${4 + nv}, ${r}`);
      if (++nv === 4) {
        L.push(`  global_store_dwordx4 v${20 + (off >> 11)}, v[4:7], s[6:7] offset:${off % 2048}`);
        off += 16; nv = 0;
      }
    }
  };
  const hex = (v: number) => `0x${(v >>> 0).toString(16)}`;
  type V = number | string;
  const set = (r: string, v: V) => L.push(typeof v === 'number' ? `  s_or_b32 ${r}, s3, ${hex(v)}` : `  s_mov_b32 ${r}, ${v}`);
  const pair = (r: number, v: [V, V]) => { set(`s${r}`, v[0]); set(`s${r + 1}`, v[1]); };
  const sccWay = () => L.push(tests++ % 2 ? '  s_cmp_lg_u32 s3, 0' : '  s_cmp_eq_u32 s3, 0');
  const prefill = () => { set('s22', 0x5a5aa5a5); set('s23', 0xc3c3c3c3); };
  // SCC after each op is shifted into s27 (s27 = 2 * s27 + SCC), stored every 32 ops.
  let sccBits = 0;
  const keepScc = () => { L.push('  s_addc_u32 s27, s27, s27'); if (++sccBits === 32) { out('s27'); L.push('  s_mov_b32 s27, 0'); sccBits = 0; } };
  const after = (wideDst: boolean) => { out('s22', ...(wideDst ? ['s23'] : [])); keepScc(); };
  const R = ['s8', 's9', 's10', 's11', 's12', 's13', 's14', 's15'];
  const U32: V[] = [0, 0xffffffff, 0x80000000, 0x7fffffff, 1, 0x80, 0x7f, 0x8000, 0xff7f, 0x0f000f10, 0xf0, ...R];
  const U64: [V, V][] = [[0, 0], [0xffffffff, 0xffffffff], [0, 0x80000000], [0xffffffff, 0x7fffffff], [1, 0], [0, 1], [0x80000000, 0], [0x7fffffff, 0xffffffff], [0x000f0f00, 0xf0000001], [0xffffffff, 0],
    ['s8', 's9'], ['s10', 0], [0, 's11'], ['s12', 's13'], [0xffffffff, 's14']];
  const AMT: V[] = [0, 1, 5, 31, 32, 33, 63, 64, 0xffffffff, 's15'];
  const un32 = (mn: string) => { for (const v of U32) { set('s16', v); prefill(); sccWay(); L.push(`  ${mn} s22, s16`); after(false); } };
  const un64 = (mn: string, wideDst: boolean) => { for (const v of U64) { pair(16, v); prefill(); sccWay(); L.push(`  ${mn} s${wideDst ? '[22:23]' : '22'}, s[16:17]`); after(wideDst); } };
  for (const mn of ['s_cmov_b32', 's_not_b32', 's_bcnt0_i32_b32', 's_ff0_i32_b32', 's_ff1_i32_b32', 's_flbit_i32_b32', 's_flbit_i32', 's_sext_i32_i8', 's_sext_i32_i16', 's_abs_i32', 's_quadmask_b32', 's_wqm_b32', 's_brev_b32', 's_bcnt1_i32_b32']) un32(mn);
  for (const mn of ['s_cmov_b64', 's_not_b64', 's_brev_b64', 's_quadmask_b64', 's_wqm_b64']) un64(mn, true);
  for (const mn of ['s_bcnt0_i32_b64', 's_ff0_i32_b64', 's_ff1_i32_b64', 's_flbit_i32_b64', 's_flbit_i32_i64', 's_bcnt1_i32_b64']) un64(mn, false);
  for (const v of U32) { set('s16', v); prefill(); sccWay(); L.push('  s_bitreplicate_b64_b32 s[22:23], s16'); after(true); }
  // Inline constants of 64-bit operands (sign-extended).
  for (const c of ['-1', '-5', '7', '0']) { prefill(); sccWay(); L.push(`  s_flbit_i32_i64 s22, ${c}`); after(false); prefill(); sccWay(); L.push(`  s_not_b64 s[22:23], ${c}`); after(true); }
  for (const a of AMT) {
    for (const mn of ['s_bitset0_b32', 's_bitset1_b32']) { set('s16', a); prefill(); sccWay(); L.push(`  ${mn} s22, s16`); after(false); }
    for (const mn of ['s_bitset0_b64', 's_bitset1_b64']) { set('s16', a); prefill(); sccWay(); L.push(`  ${mn} s[22:23], s16`); after(true); }
    for (const mn of ['s_bitcmp0_b32', 's_bitcmp1_b32']) { set('s16', 0x8000a001); set('s17', a); prefill(); sccWay(); L.push(`  ${mn} s16, s17`); after(false); }
    for (const mn of ['s_bitcmp0_b64', 's_bitcmp1_b64']) { pair(16, [0x8000a001, 0x40000003]); set('s18', a); prefill(); sccWay(); L.push(`  ${mn} s[16:17], s18`); after(false); }
    for (const b of [0, 31, 32, 40]) {
      set('s16', a); set('s17', b); prefill(); sccWay(); L.push('  s_bfm_b32 s22, s16, s17'); after(false);
      prefill(); sccWay(); L.push('  s_bfm_b64 s[22:23], s16, s17'); after(true);
    }
  }
  // Bit-field controls: offset | width << 16 (widths to 127; bits above 22 ignored).
  const CTL: V[] = [0, 0x10000, 0x1001f, 0x80020, 0x80021, 0x8003c, 0x200004, 0x1f0004, 0x20021, 0x3f0001,
    0x400000, 0x41001f, 0x7f0021, 0x7f003f, 0x800005, 0xff8000c, 0xffffffff, 's15'];
  const BFE_SRC: [V, V][] = [[0x80000001, 0xffff8421], [0x12345678, 0x9abcdef0], ['s8', 's9']];
  for (const c of CTL) {
    for (const src of BFE_SRC) {
      pair(16, src); set('s18', c);
      for (const mn of ['s_bfe_u32', 's_bfe_i32']) { prefill(); sccWay(); L.push(`  ${mn} s22, s16, s18`); after(false); prefill(); sccWay(); L.push(`  ${mn} s22, s17, s18`); after(false); }
      for (const mn of ['s_bfe_u64', 's_bfe_i64']) { prefill(); sccWay(); L.push(`  ${mn} s[22:23], s[16:17], s18`); after(true); }
    }
  }
  const BIN: [V, V][] = [[0, 0], [0xffffffff, 1], [1, 0xffffffff], [0x80000000, 0x7fffffff], [0x7fffffff, 0x80000000], [0x80000000, 0], [0, 0x80000000], [0x40000000, 0xc0000000],
    [0x10000000, 0xf0000000], [0x0fffffff, 0x10000001], [0x12345678, 0x9abcdef0], ['s8', 's9'], ['s10', 's11'], ['s13', 's14'], [0xffff0001, 0x0001ffff]];
  for (const [a, b] of BIN) {
    set('s16', a); set('s17', b);
    for (const mn of ['s_absdiff_i32', 's_lshl1_add_u32', 's_lshl2_add_u32', 's_lshl3_add_u32', 's_lshl4_add_u32', 's_pack_ll_b32_b16', 's_pack_lh_b32_b16', 's_pack_hh_b32_b16', 's_bfm_b32']) {
      prefill(); sccWay(); L.push(`  ${mn} s22, s16, s17`); after(false);
    }
  }
  for (const k of ['0', '1', '-1', '0x7fff', '0x8000', '0xffff', '0x1234', '-0x7ff']) {
    for (const mn of ['s_cmovk_i32', 's_mulk_i32']) {
      for (const v of [0xffffffff, 0x80000000, 0x12345, 's8']) { set('s22', v); sccWay(); L.push(`  ${mn} s22, ${k}`); after(false); }
    }
  }
  L.push('  s_version 0x1'); out('s22');
  // The saveexec family on EXEC = lanes 0..7; S0 wave-size, the old EXEC kept in s[28:29].
  const sx = wave64 ? 'b64' : 'b32';
  const exec = wave64 ? 'exec' : 'exec_lo';
  const EX: [V, V][] = [[0, 0], [0xffffffff, 0xffffffff], [0x0f, 0], [0xf0, 0x1], [0xffffff00, 0x80000000], [0x5a, 0xffffffff], ['s8', 's9']];
  for (const op of ['andn1_saveexec', 'orn1_saveexec', 'andn1_wrexec', 'andn2_wrexec', 'and_saveexec', 'andn2_saveexec', 'orn2_saveexec']) {
    for (const v of EX) {
      pair(16, v); prefill();
      L.push(`  s_mov_b${wave64 ? 64 : 32} s${wave64 ? '[28:29]' : '28'}, ${exec}`, '  s_and_b32 exec_lo, exec_lo, 0xff');
      if (wave64) L.push('  s_mov_b32 exec_hi, 0');
      sccWay();
      L.push(`  s_${op}_${sx} ${wave64 ? 's[22:23], s[16:17]' : 's22, s16'}`, '  s_cselect_b32 s26, 1, 0', `  s_mov_b${wave64 ? 64 : 32} ${wave64 ? 's[24:25]' : 's24'}, ${exec}`);
      L.push(`  s_mov_b${wave64 ? 64 : 32} ${exec}, s${wave64 ? '[28:29]' : '28'}`);
      out('s22', ...(wave64 ? ['s23'] : []), 's24', ...(wave64 ? ['s25'] : []), 's26');
    }
  }
  out('s27');
  while (nv !== 0) out('s3');
  if (off > 8192) throw new Error(`salu kernel stores ${off} bytes`);
  return { name: `salu${wave64 ? '_w64' : ''}`, wave64, body: `${PROLOGUE(wave64)}
  s_load_dwordx8 s[8:15], s[4:5], 0x40
  s_and_b32 s3, s2, 0x80000000
  s_mov_b32 s27, 0
  v_mov_b32 v20, 0
  v_mov_b32 v21, 0x800
  v_mov_b32 v22, 0x1000
  v_mov_b32 v23, 0x1800
  s_waitcnt lgkmcnt(0)
${L.join('\n')}
  s_endpgm` };
}
