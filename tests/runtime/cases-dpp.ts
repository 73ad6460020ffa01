// Engine cases for the DPP16 and DPP8 forms of VOP1/VOP2 (issue 7), part of tests/runtime/cases.ts's
// suites: every gfx10 DPP16 control kind with several values (quad_perm, row_shl/shr/ror 1..15,
// row_mirror, row_half_mirror, row_share, row_xmask), each with bound_ctrl off/on and fi off/on,
// and row_mask/bank_mask full and partial; DPP8 with several selects, fi off/on; on v_mov_b32,
// v_not_b32, v_cvt_f32_u32, v_add_nc_u32, v_mul_u32_u24, v_add_f32/v_sub_f32 with neg/abs, v_fmac_f32
// (the accumulator is not DPP'd), v_add_f16, v_cndmask_b32 and v_add_co_ci_u32 (VCC in and out),
// under a partial EXEC (about one lane in eight off, and the lanes past the grid), wave32 and wave64.
// gfx10 has no VOPC DPP form (llvm-mc-19: "dpp variant of this instruction is not supported").
// Every destination is preset to a value of its own, so a lane that is not written shows it; a few
// instructions have vdst = src0.
import assert from 'node:assert/strict';
import { loadShaders, type Shader } from '../../src/container/shader.js';
import { KERNARG_DIRECTIVES } from '../interp/harness.js';
import { assembleKernels, type KernelSpec } from '../harness/kernel.js';
import { Rng } from '../harness/rng.js';
import type { EngineCase } from './cases.js';

function one(spec: KernelSpec): { code: Uint8Array; shader: Shader } {
  const code = assembleKernels('gfx1030', [{ ...spec, directives: [...KERNARG_DIRECTIVES, '.amdhsa_system_sgpr_workgroup_id_x 1'] }]);
  const shader = loadShaders({ bytes: code, name: 'test' }).find((s) => s.info.name === spec.name);
  assert.ok(shader);
  return { code, shader };
}

const hex = (v: number) => `0x${(v >>> 0).toString(16)}`;

/** The DPP16 controls: each kind with several values. */
export const DPP16_CONTROLS: readonly string[] = [
  'quad_perm:[0,1,2,3]', 'quad_perm:[3,2,1,0]', 'quad_perm:[1,0,3,2]', 'quad_perm:[2,2,0,1]', 'quad_perm:[0,0,0,0]',
  ...[1, 4, 15].map((n) => `row_shl:${n}`), ...[1, 7, 15].map((n) => `row_shr:${n}`), ...[1, 8, 15].map((n) => `row_ror:${n}`),
  'row_mirror', 'row_half_mirror',
  ...[0, 5, 15].map((n) => `row_share:${n}`), ...[1, 6, 15].map((n) => `row_xmask:${n}`),
];
/** bound_ctrl (`bound_ctrl:0` sets the bit in LLVM's syntax) and fi, every combination. */
const FLAGS = ['', 'bound_ctrl:0', 'fi:1', 'bound_ctrl:0 fi:1'];
/** row_mask/bank_mask: full, and partial in rows, banks and both. */
const MASKS = ['row_mask:0xf bank_mask:0xf', 'row_mask:0x5 bank_mask:0xf', 'row_mask:0xf bank_mask:0x6', 'row_mask:0xa bank_mask:0x9', 'row_mask:0x2 bank_mask:0xe'];
const DPP8_SELECTS = ['[7,6,5,4,3,2,1,0]', '[0,0,0,0,0,0,0,0]', '[1,2,3,4,5,6,7,0]', '[3,3,1,1,6,6,4,4]', '[0,1,2,3,4,5,6,7]', '[5,0,7,2,1,4,3,6]'];

/** An op's DPP line with destination `d` and the controls; `carry`: it writes VCC. */
interface DppOp { readonly line: (d: string, vcc: string) => string; readonly carry?: boolean }
const OPS: readonly DppOp[] = [
  { line: (d) => `v_mov_b32_dpp ${d}, v3` },
  { line: (d) => `v_add_nc_u32_dpp ${d}, v3, v4` },
  { line: (d) => `v_add_f32_dpp ${d}, -v3, |v4|` },
  { line: (d, vcc) => `v_add_co_ci_u32_dpp ${d}, ${vcc}, v3, v4, ${vcc}`, carry: true },
  { line: (d) => `v_not_b32_dpp ${d}, v4` },
  { line: (d) => `v_sub_f32_dpp ${d}, |v4|, -v3` },
  { line: (d, vcc) => `v_cndmask_b32_dpp ${d}, v3, v4, ${vcc}` },
  { line: (d) => `v_fmac_f32_dpp ${d}, v3, v4` },
  { line: (d) => `v_add_f16_dpp ${d}, -v3, v4` },
  { line: (d) => `v_mul_u32_u24_dpp ${d}, v4, v3` },
  { line: (d) => `v_cvt_f32_u32_dpp ${d}, v3` },
];

/** The DPP instructions of one kernel (without destinations: `line(d, vcc)`). */
export function dppLines(): { line: (d: string, vcc: string) => string; carry: boolean }[] {
  const out: { line: (d: string, vcc: string) => string; carry: boolean }[] = [];
  let k = 0;
  DPP16_CONTROLS.forEach((ctrl, c) => {
    FLAGS.forEach((flags, f) => {
      const op = OPS[k++ % OPS.length] as DppOp;
      const masks = MASKS[(c + f) % MASKS.length] as string;
      out.push({ line: (d, vcc) => `${op.line(d, vcc)} ${ctrl} ${masks} ${flags}`.trimEnd(), carry: op.carry ?? false });
    });
  });
  DPP8_SELECTS.forEach((sel) => {
    for (const fi of ['', ' fi:1']) {
      const op = OPS[k++ % OPS.length] as DppOp;
      // DPP8 has no neg/abs.
      out.push({ line: (d, vcc) => `${op.line(d, vcc).replace(/[-|]/g, '')} dpp8:${sel}${fi}`, carry: op.carry ?? false });
    }
  });
  // vdst = src0: every lane reads its source lane's old value (a regression: the interpreter wrote
  // lane by lane, so a lane read a lower source lane's new value).
  for (const l of [
    (d: string) => `v_mov_b32_dpp ${d}, ${d} row_shr:1 row_mask:0xf bank_mask:0xf`,
    (d: string) => `v_add_nc_u32_dpp ${d}, ${d}, v4 row_shl:3 row_mask:0xf bank_mask:0xf bound_ctrl:0`,
    (d: string) => `v_rsq_f16_dpp ${d}, |${d}| row_shr:5 row_mask:0xf bank_mask:0xf`,
    (d: string) => `v_mov_b32_dpp ${d}, ${d} row_ror:7 row_mask:0xf bank_mask:0xf fi:1`,
    (d: string) => `v_xor_b32_dpp ${d}, ${d}, v4 dpp8:[7,6,5,4,3,2,1,0]`,
    (d: string) => `v_mov_b32_dpp ${d}, ${d} dpp8:[1,2,3,4,5,6,7,0] fi:1`,
  ]) out.push({ line: (d) => l(d), carry: false });
  return out;
}

/**
 * Lane i (64 * workgroup + lane id) reads v3, v4 from input dwords 2i, 2i + 1; lanes whose v3 has
 * (v3 & 7) == 5 are off during the DPP instructions. Instruction k writes v(10 + k), preset to
 * v3 ^ a constant of its own; after EXEC is restored each lane stores every destination and the
 * VCC each carry left (captured in SGPRs) at (i * columns + k) * 4.
 */
export function* dppCases(): Generator<EngineCase> {
  const rng = new Rng(907);
  const lines = dppLines();
  for (const wave64 of [false, true]) {
    const name = `dpp${wave64 ? 64 : 32}`;
    const vcc = wave64 ? 'vcc' : 'vcc_lo', b = wave64 ? 'b64' : 'b32', exec = wave64 ? 'exec' : 'exec_lo', sv = wave64 ? 's[20:21]' : 's20';
    const carries = lines.filter((l) => l.carry).length * (wave64 ? 2 : 1);
    const cols = lines.length + carries;
    const body: string[] = [
      's_load_dwordx4 s[4:7], s[0:1], 0x0',
      's_waitcnt lgkmcnt(0)',
      `v_lshl_add_u32 v1, s2, 6, v0`,
      'v_lshlrev_b32 v2, 3, v1',
      'global_load_dwordx2 v[3:4], v2, s[4:5]',
      's_waitcnt vmcnt(0)',
      ...lines.map((_, k) => `v_xor_b32 v${10 + k}, ${hex(0x5eed0000 + k * 0x01010101)}, v3`),
      // VCC for the carries' carry-in and v_cndmask: v3 < v4, before EXEC narrows.
      `v_cmp_lt_u32_e32 ${vcc}, v3, v4`,
      'v_and_b32 v6, 7, v3',
      `v_cmp_ne_u32_e64 ${wave64 ? 's[22:23]' : 's22'}, 5, v6`,
      `s_and_saveexec_${b} ${sv}, ${wave64 ? 's[22:23]' : 's22'}`,
    ];
    let s = 30;
    const captured: number[] = [];
    lines.forEach((l, k) => {
      body.push(l.line(`v${10 + k}`, vcc));
      if (l.carry) {
        body.push(`s_mov_b32 s${s}, vcc_lo`); captured.push(s++);
        if (wave64) { body.push(`s_mov_b32 s${s}, vcc_hi`); captured.push(s++); }
      }
    });
    body.push(`s_or_${b} ${exec}, ${exec}, ${sv}`);
    captured.forEach((r, j) => body.push(`v_mov_b32 v${10 + lines.length + j}, s${r}`));
    body.push(`v_mul_u32_u24 v2, ${cols * 4}, v1`);
    for (let k = 0; k < cols; k++) body.push(`global_store_dword v2, v${10 + k}, s[6:7] offset:${4 * k}`);
    body.push('s_endpgm');
    const { code, shader } = one({ name, body: body.join('\n'), wave64, vgprs: 10 + cols + 2, sgprs: s + 2 });
    const n = 192;
    const input = Uint8Array.from({ length: 8 * n }, () => rng.u32() & 0xff);
    yield { name, spirvName: name, code, kernel: name, shader, buffers: [input, new Uint8Array(4 * cols * n)], grid: [n - 10, 1, 1], block: [64, 1, 1], scalars: [], writes: 1 };
  }
}
