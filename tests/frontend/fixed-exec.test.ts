// A kernel that never writes EXEC and reads no other lane's value has its VGPR writes translated
// without EXEC selects (IrFunction.fixedExec, simplify): the lanes outside the launch EXEC are
// never active and nothing may see what they hold. The same where every write of EXEC narrows it
// (v_cmpx, s_and_saveexec, s_and/s_andn2 of EXEC; BlockBuilder.execNarrow): a lane off in EXEC is
// never active again. These kernels run with partial waves (lanes outside the grid) and send
// everything a lane outside EXEC could leak into to memory: compare masks, carries, the masks as a
// whole in SGPRs (s_bcnt1, s_cselect on them), v_cndmask. The IR interpreter's buffers must equal
// the RDNA interpreter's byte for byte, with the selects gone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildCfg } from '../../src/analysis/cfg.js';
import { analyzeMode } from '../../src/analysis/mode.js';
import { translate } from '../../src/frontend/index.js';
import { dispatchIr } from '../../src/ir/dispatch.js';
import type { Dim3 } from '../../src/interp/dispatch.js';
import { printFunction } from '../../src/ir/print.js';
import { assemble, get } from '../interp/harness.js';
import { interpret, prepare } from '../runtime/cases.js';
import { Rng } from '../harness/rng.js';
import type { Shader } from '../../src/container/shader.js';
import type { IrFunction } from '../../src/ir/ir.js';

/** Lane i = 64 * workgroup + v0 loads its dword of buffer 0 into v3; v1 = i, v2 = 4i. */
const LOAD = `
  s_load_dwordx4 s[4:7], s[0:1], 0x0
  s_waitcnt lgkmcnt(0)
  v_lshl_add_u32 v1, s2, 6, v0
  v_lshlrev_b32 v2, 2, v1
  global_load_dword v3, v2, s[4:5]
  s_waitcnt vmcnt(0)`;

const body = (w64: boolean) => {
  const vcc = w64 ? 'vcc' : 'vcc_lo', sp = w64 ? 's[12:13]' : 's12', b = w64 ? 'b64' : 'b32';
  return `${LOAD}
  v_xor_b32 v4, v3, v1
  v_mul_lo_u32 v5, v4, v3
  v_cmp_gt_u32_e32 ${vcc}, v4, v5
  v_cndmask_b32_e32 v6, v3, v4, ${vcc}
  s_bcnt1_i32_${b} s8, ${vcc}
  s_cmp_eq_u32 s8, 0
  s_cselect_b32 s9, 17, 23
  v_add_co_u32 v7, ${sp}, v3, v5
  v_add_co_ci_u32_e64 v8, ${vcc}, v4, v6, ${sp}
  s_bcnt1_i32_${b} s10, ${sp}
  s_bcnt1_i32_${b} s11, ${vcc}
  v_mov_b32 v9, ${w64 ? 'vcc_lo' : vcc}
  v_mov_b32 v10, ${w64 ? 's12' : sp}
  v_mov_b32 v11, s8
  v_add3_u32 v11, s9, s10, v11
  v_add_nc_u32 v11, s11, v11
  v_lshlrev_b32 v2, 5, v1
  global_store_dwordx4 v2, v[6:9], s[6:7]
  global_store_dwordx3 v2, v[10:12], s[6:7] offset:16
  s_endpgm`;
};

/** The function's buffers on the IR interpreter equal the RDNA interpreter's, over random inputs and grids that end inside a wave (and a workgroup): lanes outside the grid, off in EXEC. */
function sameAsInterpreter(name: string, shader: Shader, fn: IrFunction, rng: Rng): void {
  const n = 320;
  const input = new Uint8Array(new Uint32Array(Array.from({ length: n }, () => rng.u32() >>> (rng.u32() % 20))).buffer);
  for (const [grid, block] of [[40, 64], [100, 64], [150, 32]] as const) {
    const c = { shader, buffers: [input, new Uint8Array(32 * n)], grid: [grid, 1, 1] as Dim3, block: [block, 1, 1] as Dim3, scalars: [] };
    const ref = interpret(c);
    assert.ok(ref[1]?.some((v) => v !== 0));
    const bufs = c.buffers.map((x) => x.slice());
    const p = prepare(shader, bufs, c.grid, c.block);
    dispatchIr(fn, shader, { grid: c.grid, block: c.block, kernarg: p.kernarg, mem: p.mem, maxSteps: 1_000_000 });
    assert.deepEqual(bufs[1], ref[1], `${name}, grid ${grid}, block ${block}`);
  }
}

test('no EXEC write, no lane-crossing read: VALU writes without EXEC selects, and the IR interpreter equals the RDNA interpreter on partial waves (masks, carries, s_bcnt1 of them), wave32 and wave64', () => {
  const rng = new Rng(616);
  for (const w64 of [false, true]) {
    const name = `fixed_exec${w64 ? 64 : 32}`;
    const shader = get(assemble('gfx1030', [{ name, wave64: w64, vgprs: 16, sgprs: 24, body: body(w64), directives: ['.amdhsa_system_sgpr_workgroup_id_x 1'] }]), name);
    const cfg = buildCfg(shader);
    const fn = translate(shader, cfg, analyzeMode(shader, cfg));
    assert.ok(fn.fixedExec?.op === 'InGrid', 'the launch EXEC bit is the function\'s fixed EXEC');
    const text = printFunction(fn);
    assert.ok(!text.includes('Select32 u32 %' + fn.fixedExec.id + ','), text);
    sameAsInterpreter(name, shader, fn, rng);
  }
});

/** An `if` in two steps as clang makes it, then a narrowing s_andn2; `restore`: EXEC widened again before the last stores (not narrowing); `cross`: a v_readfirstlane. */
const narrowing = (w64: boolean, restore: boolean, cross: boolean) => {
  const vcc = w64 ? 'vcc' : 'vcc_lo', exec = w64 ? 'exec' : 'exec_lo', b = w64 ? 'b64' : 'b32', s10 = w64 ? 's[10:11]' : 's10', s12 = w64 ? 's[12:13]' : 's12';
  return `${LOAD}
  v_mov_b32 v6, 77
  v_mov_b32 v7, 88
  v_and_b32 v4, 3, v3
  v_lshlrev_b32 v2, 5, v1
  v_cmpx_ne_u32_e32 0, v4
  s_cbranch_execz .Lend
  v_xor_b32 v6, v3, v1
  v_mul_lo_u32 v7, v6, v3
  v_cmp_gt_u32_e32 ${vcc}, v6, v7
  v_cndmask_b32_e32 v8, v6, v7, ${vcc}
  s_bcnt1_i32_${b} s8, ${vcc}
  v_add_nc_u32 v9, s8, v8${cross ? '\n  v_readfirstlane_b32 s9, v9\n  v_add_nc_u32 v9, s9, v9' : ''}
  global_store_dwordx4 v2, v[6:9], s[6:7]
  s_and_saveexec_${b} ${s10}, ${vcc}
  s_cbranch_execz .Lend
  v_sub_nc_u32 v6, v7, v6
  v_cmp_lt_u32_e64 ${s12}, v6, v3
  s_andn2_${b} ${exec}, ${exec}, ${s12}
  v_add_nc_u32 v7, 5, v6${restore ? `\n  s_or_${b} ${exec}, ${exec}, ${s10}` : ''}
  s_bcnt1_i32_${b} s9, ${exec}
  v_add_nc_u32 v8, s9, v7
  global_store_dwordx3 v2, v[6:8], s[6:7] offset:16
.Lend:
  s_endpgm`;
};

test('every EXEC write narrows EXEC, no lane-crossing read: VGPR writes without EXEC selects, equal to the RDNA interpreter on partial waves; a widening write or a v_readfirstlane keeps them, wave32 and wave64', () => {
  const rng = new Rng(617);
  for (const w64 of [false, true]) {
    for (const [restore, cross] of [[false, false], [true, false], [false, true]] as const) {
      const name = `narrow${w64 ? 64 : 32}${restore ? '_restore' : ''}${cross ? '_cross' : ''}`;
      const shader = get(assemble('gfx1030', [{ name, wave64: w64, vgprs: 16, sgprs: 24, body: narrowing(w64, restore, cross), directives: ['.amdhsa_system_sgpr_workgroup_id_x 1'] }]), name);
      const cfg = buildCfg(shader);
      const fn = translate(shader, cfg, analyzeMode(shader, cfg));
      const text = printFunction(fn);
      // Left: v_cndmask's select, or (widening EXEC, a lane-crossing read) every VGPR write's.
      const selects = text.split('\n').filter((l) => l.includes('= Select32 ')).length;
      if (restore || cross) assert.ok(selects >= 6, `${name}: ${selects} selects\n${text}`);
      else assert.equal(selects, 1, `${name}\n${text}`);
      sameAsInterpreter(name, shader, fn, rng);
    }
  }
});
