// Assembly kernels with subroutine calls, computed jumps and returns through the whole recompiler
// (the engine suite 'calls and computed jumps', tests/runtime/cases.ts; src/frontend/calls.ts):
// s_call_b64 to a subroutine and its return; one subroutine called from two sites (the return a
// real multi-way branch), with s_swappc_b64 of targets built by s_getpc_b64 + s_add_u32/s_addc_u32;
// s_setpc_b64 to computed constants, forward and backward (a loop); calls under a partial EXEC
// (and a callee that narrows EXEC itself); a nested call through a second return pair; a
// recursive subroutine that keeps its return addresses in VGPR lanes (v_writelane/v_readlane);
// callees that change the rounding mode for the code after their return; an irreducible cycle
// through two call sites (the state machine); a callee that ends the program; a callee with LDS
// and barriers (the workgroup layout); four seeded random call graphs.
// Every kernel records the return addresses it saw (s9, s13), so the pairs' values are compared
// too. Buffer 0: u32 inputs (dword 0 also read as a uniform value); buffer 1: outputs, 16 bytes
// per work-item. s[0:1] kernarg pointer; v0 workitem id x; s2 workgroup id x (as flow-kernels.ts).
/** structured: how the recompiler must emit the kernel's control flow (true: structured; false: the state machine; absent: either). */
export interface CallKernel { readonly name: string; readonly wave64: boolean; readonly body: string; readonly structured?: boolean; readonly directives?: readonly string[] }

/** The target of label `to` from a s_getpc_b64 into s[a:a+1] followed by label `at`: the 64-bit add of (to - at). */
const jumpTo = (a: number, at: string, to: string, backward = false) => `
  s_getpc_b64 s[${a}:${a + 1}]
${at}:
  s_add_u32 s${a}, s${a}, ${to}-${at}
  s_addc_u32 s${a + 1}, s${a + 1}, ${backward ? -1 : 0}`;

import { Rng } from '../harness/rng.js';

/**
 * Random call graphs (seeded): a kernel body and up to four subroutines f0..f3, where f_k is
 * called through its own pair s[20+2k:21+2k] and calls only f_j with j > k (so no call clobbers a
 * pair still to be returned through); each body a sequence of VALU/SALU steps, calls, calls
 * skipped by SCC on bits of the uniform input s8, and in the kernel a counted loop around some
 * steps. Each subroutine adds its return address to s9 and mixes its number into s13.
 */
function randomCallKernel(rng: Rng, name: string, wave64: boolean, prologue: string, store: string): CallKernel {
  const k = 1 + rng.int(4);
  let label = 0;
  const steps = (self: number, n: number): string => {
    const out: string[] = [];
    for (let i = 0; i < n; i++) {
      const r = rng.int(10);
      const callee = self + 1 + rng.int(Math.max(1, k - self - 1));
      const canCall = callee < k;
      const call = `  s_call_b64 s[${20 + 2 * callee}:${21 + 2 * callee}], .L${name}_f${callee}`;
      if (r < 4 && canCall) out.push(call);
      else if (r < 6 && canCall) {
        const l = `.L${name}_skip${label++}`;
        out.push(`  s_bitcmp1_b32 s8, ${rng.int(8)}`, `  s_cbranch_scc${rng.int(2)} ${l}`, call, `${l}:`);
      } else if (r < 8) out.push(`  v_mad_u32_u24 v4, v4, ${3 + rng.int(60)}, v5`, `  v_xor_b32 v5, 0x${rng.u32().toString(16)}, v5`);
      else out.push(`  s_add_u32 s10, s10, ${1 + rng.int(60)}`, `  v_add_nc_u32 v5, v5, s10`);
    }
    return out.join('\n');
  };
  const loop = rng.bool();
  const main = [
    '  v_mov_b32 v4, v3', '  v_mov_b32 v5, v1', '  s_mov_b32 s10, 0',
    steps(-1, 2),
    ...(loop ? [`  s_and_b32 s11, s8, 3`, `  s_add_u32 s11, s11, 1`, `.L${name}_loop:`, steps(-1, 3), `  s_sub_u32 s11, s11, 1`, `  s_cmp_lg_u32 s11, 0`, `  s_cbranch_scc1 .L${name}_loop`] : []),
    steps(-1, 2),
    `  v_add_nc_u32 v4, v4, s10`,
  ].join('\n');
  const subs = Array.from({ length: k }, (_, f) => [
    `.L${name}_f${f}:`, steps(f, 1 + rng.int(3)),
    `  s_add_u32 s9, s9, s${20 + 2 * f}`, `  s_xor_b32 s13, s13, ${f + 1}`, `  s_lshl_b32 s13, s13, 1`,
    `  s_setpc_b64 s[${20 + 2 * f}:${21 + 2 * f}]`,
  ].join('\n')).join('\n');
  // Returns go to every site of their subroutine (not per calling context), so such a graph can
  // come out irreducible: either emission is right.
  return { name, wave64, body: `${prologue}\n${main}\n${store}\n  s_endpgm\n${subs}` };
}

export function callKernels(wave64: boolean): CallKernel[] {
  const exec = wave64 ? 'exec' : 'exec_lo';
  const save = wave64 ? 's_and_saveexec_b64' : 's_and_saveexec_b32';
  const vcc = wave64 ? 'vcc' : 'vcc_lo';
  const mov = wave64 ? 's_mov_b64' : 's_mov_b32';
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
  s_mov_b32 s9, 0
  s_mov_b32 s13, 0
  s_waitcnt vmcnt(0) lgkmcnt(0)`;
  const STORE = `
  v_mov_b32 v6, s9
  v_mov_b32 v7, s13
  global_store_dwordx4 v2, v[4:7], s[6:7]`;
  // Labels are per kernel (the kernels share one assembly file).
  const kernels: CallKernel[] = [
    // One s_call_b64 and its return; the callee reads and changes VGPRs and SGPRs of the caller.
    { name: `call_once${w}`, wave64, structured: true, body: `${PROLOGUE}
  v_mov_b32 v4, v3
  v_mov_b32 v5, 0
  s_call_b64 s[30:31], .Lsub${w}
  v_add_nc_u32 v5, v5, s9
  s_add_u32 s13, s13, 1
${STORE}
  s_endpgm
.Lsub${w}:
  v_mul_lo_u32 v4, v4, 3
  v_add_nc_u32 v4, v4, s8
  s_mov_b32 s9, s30
  s_mov_b32 s13, s31
  s_setpc_b64 s[30:31]` },
    // Two call sites of one subroutine (s_swappc_b64 of computed targets): its return goes to
    // either site by the pair's value; a third site with s_call_b64.
    { name: `call_sites${w}`, wave64, structured: true, body: `${PROLOGUE}
  v_mov_b32 v4, v3
  v_mov_b32 v5, 1
  s_mov_b32 s10, 7${jumpTo(16, `.Lpc1${w}`, `.Lsub${w}`)}
  s_swappc_b64 s[30:31], s[16:17]
  v_mov_b32 v5, v4
  s_and_b32 s10, s8, 0xff${jumpTo(16, `.Lpc2${w}`, `.Lsub${w}`)}
  s_swappc_b64 s[30:31], s[16:17]
  v_xor_b32 v5, v5, v4
  s_mov_b32 s10, s2
  s_call_b64 s[30:31], .Lsub${w}
${STORE}
  s_endpgm
.Lsub${w}:
  v_mad_u32_u24 v4, v4, 5, s10
  s_add_u32 s9, s9, s30
  s_xor_b32 s13, s13, s30
  s_setpc_b64 s[30:31]` },
    // s_setpc_b64 to computed constants: a forward jump over code, a backward one that loops
    // (s_addc_u32 of -1: a negative offset as a 64-bit add), an exit from the loop on SCC.
    { name: `setpc_const${w}`, wave64, structured: true, body: `${PROLOGUE}
  v_mov_b32 v4, v3
  v_mov_b32 v5, 0
  s_and_b32 s10, s8, 3
  s_add_u32 s10, s10, 2${jumpTo(16, `.Lpc1${w}`, `.Lover${w}`)}
  s_setpc_b64 s[16:17]
  v_mov_b32 v4, 0xdead
  s_mov_b32 s9, 0xdead
.Lover${w}:
.Lloop${w}:
  v_add_nc_u32 v5, v5, v4
  v_lshrrev_b32 v4, 1, v4
  s_add_u32 s9, s9, 3
  s_sub_u32 s10, s10, 1
  s_cmp_eq_u32 s10, 0
  s_cbranch_scc1 .Ldone${w}${jumpTo(18, `.Lpc2${w}`, `.Lloop${w}`, true)}
  s_mov_b32 s13, s18
  s_setpc_b64 s[18:19]
.Ldone${w}:
${STORE}
  s_endpgm` },
    // Calls under a partial EXEC: the callee's VALU writes only the active lanes; it narrows EXEC
    // once more itself (v_cmp + s_and_saveexec) and restores it before returning.
    { name: `call_exec${w}`, wave64, structured: true, body: `${PROLOGUE}
  v_mov_b32 v4, v3
  v_mov_b32 v5, v1
  v_and_b32 v8, 3, v3
  v_cmp_ne_u32 ${vcc}, 0, v8
  ${save} ${sa}, ${vcc}
  s_call_b64 s[30:31], .Lsub${w}
  ${mov} ${exec}, ${sa}
  v_cmp_gt_u32 ${vcc}, 5, v0
  ${save} ${sa}, ${vcc}
  s_call_b64 s[30:31], .Lsub${w}
  ${mov} ${exec}, ${sa}
${STORE}
  s_endpgm
.Lsub${w}:
  v_add_nc_u32 v4, v4, 0x1000
  v_cmp_lt_u32 ${vcc}, 0x80000000, v4
  ${save} ${sb}, ${vcc}
  v_not_b32 v5, v5
  ${mov} ${exec}, ${sb}
  s_add_u32 s9, s9, s30
  s_bcnt1_i32_b${wave64 ? 64 : 32} s13, ${exec}
  s_setpc_b64 s[30:31]` },
    // A nested call: the first callee calls a second one through another pair, and both return.
    { name: `call_nested${w}`, wave64, structured: true, body: `${PROLOGUE}
  v_mov_b32 v4, v3
  v_mov_b32 v5, 0
  s_call_b64 s[30:31], .Louter${w}
  s_call_b64 s[30:31], .Linner${w}
${STORE}
  s_endpgm
.Louter${w}:
  v_add_nc_u32 v5, v5, 11
  s_call_b64 s[28:29], .Linner2${w}
  v_xor_b32 v4, v4, v5
  s_add_u32 s13, s13, s28
  s_setpc_b64 s[30:31]
.Linner2${w}:
  v_mul_lo_u32 v5, v5, v4
  s_add_u32 s9, s9, s28
  s_setpc_b64 s[28:29]
.Linner${w}:
  v_add_nc_u32 v4, 1, v4
  s_add_u32 s9, s9, s30
  s_setpc_b64 s[30:31]` },
    // Recursion: the subroutine calls itself s8 & 3 + 1 times deep, its return addresses kept in
    // lanes of v9 (one per depth, v_writelane/v_readlane), so its return goes back to the
    // recursive site or to the kernel's.
    { name: `call_recursive${w}`, wave64, structured: true, body: `${PROLOGUE}
  v_mov_b32 v4, v3
  v_mov_b32 v5, 0
  s_and_b32 s10, s8, 3
  s_add_u32 s10, s10, 1
  s_mov_b32 s12, 0
  s_call_b64 s[30:31], .Lrec${w}
${STORE}
  s_endpgm
.Lrec${w}:
  v_writelane_b32 v9, s30, s12
  v_writelane_b32 v10, s31, s12
  s_add_u32 s12, s12, 1
  v_mad_u32_u24 v4, v4, 3, s12
  s_cmp_ge_u32 s12, s10
  s_cbranch_scc1 .Lrec_end${w}
  s_call_b64 s[30:31], .Lrec${w}
  v_add_nc_u32 v5, v5, v4
  s_add_u32 s9, s9, s30
.Lrec_end${w}:
  s_sub_u32 s12, s12, 1
  v_readlane_b32 s30, v9, s12
  v_readlane_b32 s31, v10, s12
  s_add_u32 s13, s13, s12
  s_branch .Lrec_ret${w}
.Lrec_ret${w}:
  s_setpc_b64 s[30:31]` },
    // MODE set by callees: the float ops after each return run under the mode the callee left
    // (the MODE data flow follows the returns, not the calls' fallthroughs: src/analysis/calls.ts).
    { name: `call_mode${w}`, wave64, structured: true, body: `${PROLOGUE}
  v_cvt_f32_u32 v4, v3
  v_mov_b32 v5, 0x3eaaaaab
  s_call_b64 s[30:31], .Lrz${w}
  v_add_f32 v4, v4, v5
  v_mul_f32 v5, v5, v4
  s_call_b64 s[30:31], .Lrne${w}
  v_add_f32 v5, v5, v4
  v_fma_f32 v4, v4, v5, 0x3eaaaaab
${STORE}
  s_endpgm
.Lrz${w}:
  s_round_mode 0x3
  v_mul_f32 v5, v5, 0x3f7ffffe
  s_setpc_b64 s[30:31]
.Lrne${w}:
  v_add_f32 v4, v4, 0x3f7ffffe
  s_round_mode 0x0
  s_setpc_b64 s[30:31]` },
    // A cycle through two subroutines' call sites entered at either site (by SCC): irreducible,
    // so the state machine (calls add no restriction of their own).
    { name: `call_irreducible${w}`, wave64, structured: false, body: `${PROLOGUE}
  v_mov_b32 v4, v3
  v_mov_b32 v5, 0
  s_and_b32 s10, s8, 7
  s_add_u32 s10, s10, 2
  s_bitcmp1_b32 s8, 4
  s_cbranch_scc1 .LcallQ${w}
.LcallP${w}:
  s_call_b64 s[30:31], .LP${w}
  s_sub_u32 s10, s10, 1
  s_cmp_eq_u32 s10, 0
  s_cbranch_scc1 .Ldone${w}
.LcallQ${w}:
  s_call_b64 s[30:31], .LQ${w}
  s_sub_u32 s10, s10, 1
  s_cmp_eq_u32 s10, 0
  s_cbranch_scc0 .LcallP${w}
.Ldone${w}:
${STORE}
  s_endpgm
.LP${w}:
  v_mad_u32_u24 v4, v4, 3, s10
  s_add_u32 s9, s9, s30
  s_setpc_b64 s[30:31]
.LQ${w}:
  v_xor_b32 v5, v5, v4
  s_xor_b32 s13, s13, s30
  s_setpc_b64 s[30:31]` },
    // A callee that never returns (it ends the program): the code after the call is never run
    // (no IR path reaches it).
    { name: `call_noreturn${w}`, wave64, structured: true, body: `${PROLOGUE}
  v_mov_b32 v4, v3
  v_mov_b32 v5, 3
  s_call_b64 s[30:31], .Lfinish${w}
  v_mov_b32 v4, 0xdead
${STORE}
  s_endpgm
.Lfinish${w}:
  v_mul_lo_u32 v5, v5, v4
  s_mov_b32 s9, s30
${STORE}
  s_endpgm` },
    // A callee with LDS and s_barrier, called from two sites: the workgroup layout (the waves of a
    // workgroup in turns, through the state machine), each return resuming the right wave.
    { name: `call_lds${w}`, wave64, structured: false, directives: ['.amdhsa_group_segment_fixed_size 4096'], body: `${PROLOGUE}
  v_mov_b32 v4, v3
  v_mov_b32 v5, 0
  v_lshlrev_b32 v8, 2, v0
  s_call_b64 s[30:31], .Lx${w}
  s_call_b64 s[30:31], .Lx${w}
${STORE}
  s_endpgm
.Lx${w}:
  ds_write_b32 v8, v4
  s_waitcnt lgkmcnt(0)
  s_barrier
  v_add_nc_u32 v10, 4, v8
  v_and_b32 v10, 0xff, v10
  ds_read_b32 v11, v10
  s_waitcnt lgkmcnt(0)
  s_barrier
  v_add_nc_u32 v4, v4, v11
  v_add_nc_u32 v5, v5, 1
  s_add_u32 s9, s9, s30
  s_setpc_b64 s[30:31]` },
  ];
  const rng = new Rng(wave64 ? 647 : 632);
  for (let i = 0; i < 4; i++) kernels.push(randomCallKernel(rng, `call_random${i}${w}`, wave64, PROLOGUE, STORE));
  return kernels.map((k) => ({ ...k, body: k.body.replace(/\.L/g, `.L${k.name}_`) }));
}
