// Issue 7's VALU breadth without a Vulkan device: the cases of tests/runtime/cases-vint.ts (SDWA on
// the 32-bit VALU, ...) translated to IR and run in the IR interpreter, the float ops as they are
// (evaluated by src/float) and, for one MODE, lowered to integer code (lowerFloat, as a profile
// without the modes gets them); every buffer must come out byte for byte as the RDNA interpreter
// leaves it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildCfg } from '../../src/analysis/cfg.js';
import { analyzeMode } from '../../src/analysis/mode.js';
import { translate } from '../../src/frontend/index.js';
import { dispatchIr } from '../../src/ir/dispatch.js';
import { lowerFloat } from '../../src/ir/passes/lower-float.js';
import { verifyFunction } from '../../src/ir/verify.js';
import { interpret, prepare, type EngineCase } from '../runtime/cases.js';
import { dotCases, movrelCases, permlaneCases, sadCases, sdwaCases } from '../runtime/cases-vint.js';

function check(c: EngineCase, lowered: boolean): void {
  const cfg = buildCfg(c.shader);
  const fn = translate(c.shader, cfg, analyzeMode(c.shader, cfg));
  if (lowered) lowerFloat(fn, () => true);
  assert.deepEqual(verifyFunction(fn), []);
  const ref = interpret(c);
  assert.ok(ref[c.writes ?? 1]?.some((v) => v !== 0), `${c.name} wrote its results`);
  const bufs = c.buffers.map((b) => b.slice());
  const p = prepare(c.shader, bufs, c.grid, c.block, c.scalars);
  dispatchIr(fn, c.shader, { grid: c.grid, block: c.block, kernarg: p.kernarg, mem: p.mem, maxSteps: 50_000_000 });
  ref.forEach((b, k) => {
    const x = bufs[k] as Uint8Array;
    const i = b.findIndex((v, j) => v !== x[j]);
    assert.equal(i, -1, `${c.name}${lowered ? ' (lowered)' : ''}: buffer ${k} differs at byte ${i}: interpreter ${Buffer.from(b.subarray(i & ~3, (i & ~3) + 4)).toString('hex')}, IR ${Buffer.from(x.subarray(i & ~3, (i & ~3) + 4)).toString('hex')}`);
  });
}

test('SDWA forms of the 32-bit VOP1/VOP2/VOPC opcodes in the IR interpreter equal the RDNA interpreter (selects, sext, neg/abs, dst_sel/dst_unused, clamp/omod, VOPC sdst, two MODEs), wave32 and wave64', () => {
  let n = 0;
  for (const c of sdwaCases()) {
    check(c, false);
    if (c.name.includes('_mc0')) check(c, true);
    n++;
  }
  assert.ok(n >= 8);
});

test('v_permlane16_b32 / v_permlanex16_b32 in the IR interpreter equal the RDNA interpreter (selects from SGPRs, constants and data, FI, BOUND_CTRL, vdst = src0), wave32 and wave64', () => {
  for (const c of permlaneCases()) check(c, false);
});

test('integer dot products (VOP3P dot2/dot4/dot8, signed and unsigned, op_sel halves, clamp at the edges; v_dot4c_i32_i8 and its DPP forms) in the IR interpreter equal the RDNA interpreter, wave32 and wave64', () => {
  for (const c of dotCases()) check(c, false);
});

test('v_msad_u8, v_qsad_pk_u16_u8, v_mqsad_pk_u16_u8, v_mqsad_u32_u8 (reference bytes zero and not, SGPR and constant sources) and v_sat_pk_u8_i16 (e32, e64, SDWA, DPP) in the IR interpreter equal the RDNA interpreter, wave32 and wave64', () => {
  for (const c of sadCases()) check(c, false);
});

test('the M0-indexed moves (M0 a block constant and known only at run time; SGPR and VGPR, b32 and b64, the two-index forms, v_swaprel_b32) and v_trig_preop_f64 (every exponent range, NaN and infinity, neg/abs, omod) in the IR interpreter equal the RDNA interpreter, wave32 and wave64', () => {
  for (const c of movrelCases()) { check(c, false); check(c, true); }
});
