// MODE in the interpreter: the launch float mode (.amdhsa_float_round_mode_* / _denorm_mode_*),
// s_round_mode, s_setreg_imm32_b32, s_setreg_b32 (from an SGPR), s_denorm_mode, a write on one
// side of a branch and in a loop, wave32 and wave64, for f32, f16 and f64. The rounding kernels
// compute 1 + 1.75 ulp and -(1 + 1.75 ulp) in each type: the pair of results differs for each of
// the four directions (RNE: up/up, +inf: up/down-in-magnitude, -inf: the reverse, zero: down/down).
// Expected values: tests/harness/rational.ts (the independent oracle) for rounding; the
// denormal cases by hand from the FP_DENORM definition (bit 0 keeps inputs, bit 1 keeps outputs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assemble, dwords, get, readDwords, runKernel } from './harness.js';
import { S16, S32, S64, oAdd, type OEnv } from '../harness/rational.js';
import type { KernelSpec } from '../harness/kernel.js';

const STORE = ['v_lshlrev_b32 v21, 5, v0', 's_waitcnt lgkmcnt(0)', 'global_store_dwordx4 v21, v[5:8], s[6:7]', 'global_store_dwordx4 v21, v[9:12], s[6:7] offset:16', 's_endpgm'];
const HEAD = ['s_load_dwordx4 s[4:7], s[0:1], 0x0'];
// 1.75 ulp of 1.0: f32 1.75 × 2^-23 = 0x34600000; f16 1.75 × 2^-10 = 0x1700; f64 1.75 × 2^-52 = 0x3cbc0000_00000000.
const ADDS = ['v_add_f32_e64 v5, 1.0, 0x34600000', 'v_add_f32_e64 v6, -1.0, 0xb4600000', 'v_add_f16_e64 v7, 1.0, 0x1700', 'v_add_f16_e64 v8, -1.0, 0x9700',
  'v_add_f64 v[9:10], 1.0, 0x3cbc0000', 'v_add_f64 v[11:12], -1.0, 0xbcbc0000'];

const env = (round: number): OEnv => ({ round: round as OEnv['round'], flushIn: false, flushOut: false, ieee: true });
/** The eight dwords the rounding kernel stores, from the oracle, for f32 rounding r32 and f16/f64 rounding r16. */
function expectedAdds(r32: number, r16: number): number[] {
  const e32 = env(r32), e16 = env(r16);
  const w = (x: bigint) => Number(x & 0xffffffffn);
  const d64 = (x: bigint) => [w(x), w(x >> 32n)];
  return [
    w(oAdd(S32, 0x3f800000n, 0x34600000n, e32)), w(oAdd(S32, 0xbf800000n, 0xb4600000n, e32)),
    w(oAdd(S16, 0x3c00n, 0x1700n, e16)), w(oAdd(S16, 0xbc00n, 0x9700n, e16)),
    ...d64(oAdd(S64, 0x3ff0000000000000n, 0x3cbc000000000000n, e16)), ...d64(oAdd(S64, 0xbff0000000000000n, 0xbcbc000000000000n, e16)),
  ];
}
// 16-bit results keep the destination's high half, which is 0 here (v7, v8 start at 0).
const ZERO_V = ['v_mov_b32 v7, 0', 'v_mov_b32 v8, 0'];

interface ModeCase { readonly name: string; readonly body: string[]; readonly floatMode: number; readonly expect: number[]; readonly input?: number }
const cases: ModeCase[] = [];
for (let r32 = 0; r32 < 4; r32++) {
  const r16 = (r32 + 1) % 4;
  const m = r32 | (r16 << 2);
  cases.push({ name: `launch ${m}`, floatMode: 0xf0 | m, body: [...HEAD, ...ZERO_V, ...ADDS, ...STORE], expect: expectedAdds(r32, r16) });
  cases.push({ name: `s_round_mode ${m}`, floatMode: 0xf0, body: [...HEAD, ...ZERO_V, `s_round_mode ${m}`, ...ADDS, ...STORE], expect: expectedAdds(r32, r16) });
  cases.push({ name: `s_setreg_imm32 ${m}`, floatMode: 0xf3, body: [...HEAD, ...ZERO_V, `s_setreg_imm32_b32 hwreg(HW_REG_MODE, 0, 4), ${m}`, ...ADDS, ...STORE], expect: expectedAdds(r32, r16) });
  cases.push({ name: `s_setreg_b32 ${m}`, floatMode: 0xf0, body: [...HEAD, ...ZERO_V, `s_mov_b32 s8, ${m}`, 's_setreg_b32 hwreg(HW_REG_MODE, 0, 4), s8', ...ADDS, ...STORE], expect: expectedAdds(r32, r16) });
}
// Denormals: f32 2^-125 × 4 / min normal × 0.5 and the f16, f64 analogues under s_denorm_mode d (f32 bits 1:0, f16/f64 bits 3:2).
const DENORM = ['v_mul_f32_e64 v5, 0x00400000, 4.0', 'v_mul_f32_e64 v6, 0x00800000, 0.5', 'v_mul_f16_e64 v7, 0x0200, 4.0', 'v_mul_f16_e64 v8, 0x0400, 0.5',
  'v_mul_f64 v[9:10], 0x00080000, 4.0', 'v_mul_f64 v[11:12], 0x00100000, 0.5'];
function expectedDenorm(d32: number, d16: number): number[] {
  const keepIn = (d: number) => (d & 1) === 1, keepOut = (d: number) => (d & 2) === 2;
  return [keepIn(d32) ? 0x01000000 : 0, keepOut(d32) ? 0x00400000 : 0, keepIn(d16) ? 0x0800 : 0, keepOut(d16) ? 0x0200 : 0,
    0, keepIn(d16) ? 0x00200000 : 0, 0, keepOut(d16) ? 0x00080000 : 0];
}
for (let d = 0; d < 16; d++) {
  cases.push({ name: `s_denorm_mode ${d}`, floatMode: 0x00, body: [...HEAD, ...ZERO_V, `s_denorm_mode ${d}`, ...DENORM, ...STORE], expect: expectedDenorm(d & 3, d >> 2) });
  if (d < 4) cases.push({ name: `launch denorm ${d}`, floatMode: (d << 4) | ((3 - d) << 6), body: [...HEAD, ...ZERO_V, ...DENORM, ...STORE], expect: expectedDenorm(d, 3 - d) });
}
// A MODE write on one side of a branch: round toward zero only when the input flag is nonzero.
const BRANCH = [...HEAD, ...ZERO_V, 's_waitcnt lgkmcnt(0)', 's_load_dword s9, s[4:5], 0x0', 's_waitcnt lgkmcnt(0)', 's_cmp_eq_u32 s9, 0', 's_cbranch_scc1 .Lskip_mode', 's_round_mode 0xf', '.Lskip_mode:', ...ADDS, ...STORE];
cases.push({ name: 'branch taken', floatMode: 0xf0, body: BRANCH, input: 0, expect: expectedAdds(0, 0) });
cases.push({ name: 'branch not taken', floatMode: 0xf0, body: BRANCH.map((l) => l.replace('.Lskip_mode', '.Lskip_mode2')), input: 1, expect: expectedAdds(3, 3) });

function runModeCases(wave64: boolean): void {
  const specs: KernelSpec[] = cases.map((c, k) => ({ name: `fm${k}${wave64 ? 'w' : ''}`, body: c.body.join('\n'), floatMode: c.floatMode, wave64 }));
  const shaders = assemble('gfx1030', specs);
  cases.forEach((c, k) => {
    const lanes = wave64 ? 64 : 32;
    const out = dwords(8 * lanes);
    runKernel(get(shaders, `fm${k}${wave64 ? 'w' : ''}`), [dwords([c.input ?? 0]), out], { block: [lanes, 1, 1] });
    const got = readDwords(out);
    for (const l of [0, lanes - 1]) {
      assert.deepEqual(got.slice(8 * l, 8 * l + 8).map((x) => x.toString(16)), c.expect.map((x) => (x >>> 0).toString(16)), `${c.name} (wave${lanes}) lane ${l}`);
    }
  });
}

test('the four rounding pairs differ (the kernels can tell every direction apart)', () => {
  const seen = new Set([0, 1, 2, 3].map((r) => expectedAdds(r, r).join(',')));
  assert.equal(seen.size, 4);
});

test('MODE from launch, s_round_mode, s_setreg_imm32_b32, s_setreg_b32, s_denorm_mode and a branch (wave32)', () => runModeCases(false));
test('the same in wave64', () => runModeCases(true));

test('MODE written in a loop: each iteration rounds by its own FP_ROUND (s_setreg_b32 from the counter)', () => {
  const body = [...HEAD, 's_mov_b32 s12, 0', 'v_lshlrev_b32 v21, 4, v0', 's_waitcnt lgkmcnt(0)', '.Lloop:', 's_lshl_b32 s13, s12, 2', 's_or_b32 s13, s13, s12',
    's_setreg_b32 hwreg(HW_REG_MODE, 0, 4), s13', 'v_add_f32_e64 v5, -1.0, 0xb4600000', 'global_store_dword v21, v5, s[6:7]', 'v_add_nc_u32 v21, 4, v21',
    's_add_u32 s12, s12, 1', 's_cmp_lt_u32 s12, 4', 's_cbranch_scc1 .Lloop', 's_endpgm'].join('\n');
  for (const wave64 of [false, true]) {
    const sh = get(assemble('gfx1030', [{ name: `loop${wave64 ? 'w' : ''}`, body, floatMode: 0xf0, wave64 }]), `loop${wave64 ? 'w' : ''}`);
    const lanes = wave64 ? 64 : 32;
    const out = dwords(4 * lanes);
    runKernel(sh, [dwords(1), out], { block: [lanes, 1, 1] });
    const got = readDwords(out);
    const want = [0, 1, 2, 3].map((r) => Number(oAdd(S32, 0xbf800000n, 0xb4600000n, env(r))));
    // -(1 + 1.75 ulp): RNE and +inf (toward zero for a negative) differ from -inf: 0xbf800002, 0xbf800001, 0xbf800002, 0xbf800001.
    assert.deepEqual(want, [0xbf800002, 0xbf800001, 0xbf800002, 0xbf800001]);
    for (const l of [0, lanes - 1]) assert.deepEqual(got.slice(4 * l, 4 * l + 4), want, `wave${lanes} lane ${l}`);
  }
});
