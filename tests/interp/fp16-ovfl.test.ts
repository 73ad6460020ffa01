// MODE.FP16_OVFL (bit 23) in the interpreter: kernels assembled by llvm-mc-19 with
// `.amdhsa_fp16_overflow 1` or 0, and `s_setreg_imm32_b32 hwreg(HW_REG_MODE, 23, 1), v` /
// `s_setreg_b32` from an SGPR loaded from memory mid-shader (taking effect at the next VALU
// instruction), compute f16 results that overflow from finite operands (add, sub, mul, fma, packed
// add, v_cvt_f16_f32, v_cvt_f16_u16, v_fma_mixlo_f16, ldexp, omod) and ones that are infinite
// because an operand is (inf + 1, rcp(0)), in all four f16 rounding modes, wave32 and wave64.
// Expected bits: the rational oracle (tests/harness/rational.ts) with its reading of the ISA
// guide's sentence (clamped to ±MAX_FP16 regardless of round mode, true INF values kept).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assemble, dwords, get, readDwords, runKernel } from './harness.js';
import { S16, S32, oAdd, oConvert, oDiv, oFma, oMul, oSub, q, qmul, pow2q, roundExact, decode, type OEnv } from '../harness/rational.js';
import type { KernelSpec } from '../harness/kernel.js';

const MAX = 0x7bff;
/** f16 results in v[5:16]; each 16-bit result keeps its register's high half, zeroed first. */
const OPS = [
  'v_add_f16_e64 v5, 0x7bff, 0x7bff', // MAX + MAX
  'v_mul_f16_e64 v6, 0xfbff, 2.0', // -MAX · 2
  'v_fma_f16 v7, s12, 2.0, 1.0', // MAX · 2 + 1
  'v_cvt_f16_f32_e64 v8, 0x47c35000', // 100000.0
  'v_pk_add_f16 v9, s10, s10', // (MAX, -MAX) + (MAX, -MAX)
  'v_add_f16_e64 v10, 0x7c00, 1.0', // inf + 1: infinite operand
  'v_rcp_f16_e64 v11, 0', // 1 / +0: an exact infinity
  'v_fma_mixlo_f16 v12, s11, 2.0, 0', // f32 60000 · 2 + 0 rounded once to f16
  'v_ldexp_f16_e64 v13, 0x7bff, 1', // MAX · 2
  'v_cvt_f16_u16_e64 v14, 0xffff', // 65535
  'v_mul_f16_e64 v15, 0x7800, 1.0 mul:4', // 32768 · 4 (omod; IEEE mode off)
  'v_sub_f16_e64 v16, 0xfbff, s12', // -MAX - MAX
];
const ZERO = Array.from({ length: 12 }, (_, k) => `v_mov_b32 v${5 + k}, 0`);
const HEAD = ['s_load_dwordx4 s[4:7], s[0:1], 0x0', 's_mov_b32 s10, 0xfbff7bff', 's_mov_b32 s11, 0x476a6000', 's_mov_b32 s12, 0x7bff', ...ZERO, 's_waitcnt lgkmcnt(0)', 's_load_dword s9, s[4:5], 0x0', 's_waitcnt lgkmcnt(0)'];
const STORE = ['v_lshlrev_b32 v21, 6, v0', 'global_store_dwordx4 v21, v[5:8], s[6:7]', 'global_store_dwordx4 v21, v[9:12], s[6:7] offset:16', 'global_store_dwordx4 v21, v[13:16], s[6:7] offset:32', 's_endpgm'];

const B = (x: number) => BigInt(x);
/** The f16 result of exact finite value x (a rational) under env. */
function round16(x: ReturnType<typeof q>, env: OEnv): number {
  const neg = x.n < 0n;
  return Number(roundExact(S16, neg ? 1 : 0, { kind: 'q', q: neg ? { n: -x.n, d: x.d } : x }, env));
}
const valueOf = (s: typeof S16, bits: number) => { const v = decode(s, B(bits)); if (v.kind !== 'num') throw new Error('finite'); return v.q; };

/** The twelve dwords a lane stores, from the oracle, for f16 rounding r16 and FP16_OVFL `ovfl`. */
function expected(r16: number, ovfl: boolean): number[] {
  const e: OEnv = { round: r16 as OEnv['round'], flushIn: false, flushOut: false, ieee: true, f16Ovfl: ovfl };
  const lo = (x: bigint) => Number(x);
  return [
    lo(oAdd(S16, 0x7bffn, 0x7bffn, e)),
    lo(oMul(S16, 0xfbffn, 0x4000n, e)),
    lo(oFma(S16, 0x7bffn, 0x4000n, 0x3c00n, e)),
    lo(oConvert(S32, S16, 0x47c35000n, e)),
    (lo(oAdd(S16, 0xfbffn, 0xfbffn, e)) << 16 | lo(oAdd(S16, 0x7bffn, 0x7bffn, e))) >>> 0,
    lo(oAdd(S16, 0x7c00n, 0x3c00n, e)),
    lo(oDiv(S16, 0x3c00n, 0n, e)),
    round16(qmul(valueOf(S32, 0x476a6000), q(2n)), e),
    round16(qmul(valueOf(S16, MAX), pow2q(1)), e),
    round16(q(65535n), e),
    round16(qmul(valueOf(S16, 0x7800), pow2q(2)), e),
    lo(oSub(S16, 0xfbffn, 0x7bffn, e)),
  ];
}

interface Case { readonly name: string; readonly body: string[]; readonly r16: number; readonly launch: boolean; readonly input?: number; readonly expect: number[] }
const cases: Case[] = [];
for (let r16 = 0; r16 < 4; r16++) {
  for (const launch of [false, true]) {
    cases.push({ name: `launch ${launch ? 1 : 0} round ${r16}`, body: [...HEAD, ...OPS, ...STORE], r16, launch, expect: expected(r16, launch) });
    // Switched mid-shader: the next VALU instruction runs under the new value.
    cases.push({ name: `s_setreg_imm32 ${launch ? 0 : 1} round ${r16}`, body: [...HEAD, `s_setreg_imm32_b32 hwreg(HW_REG_MODE, 23, 1), ${launch ? 0 : 1}`, ...OPS, ...STORE], r16, launch, expect: expected(r16, !launch) });
    // From an SGPR loaded from memory (a value no analysis knows), bits above the field ignored.
    for (const input of [0, 1, 0xfffffffe]) {
      cases.push({ name: `s_setreg_b32 ${input} from launch ${launch ? 1 : 0} round ${r16}`, body: [...HEAD, 's_setreg_b32 hwreg(HW_REG_MODE, 23, 1), s9', ...OPS, ...STORE], r16, launch, input, expect: expected(r16, (input & 1) === 1) });
    }
  }
  // Between two instructions: the first (MAX + MAX) under the launch value, the rest under the new one.
  const split = [...HEAD, OPS[0] as string, 's_setreg_imm32_b32 hwreg(HW_REG_MODE, 23, 1), 1', ...OPS.slice(1), ...STORE];
  cases.push({ name: `between instructions round ${r16}`, body: split, r16, launch: false, expect: [expected(r16, false)[0] as number, ...expected(r16, true).slice(1)] });
}

function run(wave64: boolean): void {
  const specs: KernelSpec[] = cases.map((c, k) => ({
    name: `ov${k}${wave64 ? 'w' : ''}`, body: c.body.join('\n'), floatMode: 0xf0 | (c.r16 << 2), ieeeMode: false, fp16Overflow: c.launch, wave64, vgprs: 24, sgprs: 16,
  }));
  const shaders = assemble('gfx1030', specs);
  cases.forEach((c, k) => {
    const lanes = wave64 ? 64 : 32;
    const out = dwords(16 * lanes);
    runKernel(get(shaders, `ov${k}${wave64 ? 'w' : ''}`), [dwords([c.input ?? 0]), out], { block: [lanes, 1, 1] });
    const got = readDwords(out);
    for (const l of [0, lanes - 1]) {
      assert.deepEqual(got.slice(16 * l, 16 * l + 12).map((x) => x.toString(16)), c.expect.map((x) => (x >>> 0).toString(16)), `${c.name} (wave${lanes}) lane ${l}`);
    }
  });
}

test('the expectations tell the bit apart: clamped with it in every mode, by the mode without it, infinities kept either way', () => {
  for (let r = 0; r < 4; r++) {
    const on = expected(r, true), off = expected(r, false);
    assert.deepEqual([on[0], on[1], on[3], on[5], on[6], on[11]], [MAX, 0xfbff, MAX, 0x7c00, 0x7c00, 0xfbff]);
    if (r === 0) assert.deepEqual([off[0], off[1], off[3], off[11]], [0x7c00, 0xfc00, 0x7c00, 0xfc00]);
  }
});
test('FP16_OVFL from the descriptor and from s_setreg (imm and SGPR), all four f16 rounding modes (wave32)', () => run(false));
test('the same in wave64', () => run(true));
