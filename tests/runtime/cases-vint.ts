// Engine cases of issue 7's VALU breadth, part of tests/runtime/cases.ts's suites and of the IR
// differential test tests/frontend/translate-vint.test.ts: the SDWA forms of the 32-bit VOP1/VOP2/
// VOPC opcodes (every src0_sel/src1_sel with and without sext, neg/abs on float sources, every
// dst_sel with every dst_unused, clamp and omod, VOPC SDWA with VCC and with an SGPR sdst, v_cmpx;
// scalar and inline-constant sources), each float op under two launch MODEs. Lanes read random
// operands (a third of them edge values: byte/word/sign boundaries, float zeros, infinities, NaNs,
// subnormals) under a partial EXEC (about one lane in eight off, and the lanes past the grid),
// wave32 and wave64. Every destination is preset to a value of its own, so a lane that is not
// written, or a preserved field, shows it.
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

/** The mask registers an instruction line may name: VCC, an SGPR (pair in wave64) destination. */
export interface MaskRegs { readonly vcc: string; readonly sdst: string }
/**
 * One instruction of a kernel: `line(d, m)` with `d` its VGPR destination (v10 + k); `mask`: what
 * else it writes, captured after it (VCC, the SGPR mask `m.sdst`, or EXEC, which is then narrowed
 * back to the case's partial mask).
 */
export interface LaneOp { readonly line: (d: string, m: MaskRegs) => string; readonly mask?: 'vcc' | 'sdst' | 'exec' }

/** Operand values: a third edge values, the rest random. */
const EDGES = [
  0, 1, 2, 0x7f, 0x80, 0xff, 0x100, 0x7fff, 0x8000, 0xffff, 0x10000, 0x7fffffff, 0x80000000, 0xffffffff, 0xfffffffe, 0x80808080, 0x7f7f7f7f,
  0x3f800000, 0xbf800000, 0x7f800000, 0xff800000, 0x7fc00000, 0x7fa00000, 0x00000001, 0x807fffff, 0x00800000, 0x4f800000, 0xcf000000, 0x3effffff, 0x40490fdb,
  0x3c00, 0xbc00, 0x7c00, 0x7e00, 0x0001, 0x83ff, 0x3c003c00, 0x7c00fc00,
];

/**
 * A kernel of `ops`: lane i (64 * workgroup + lane id) reads v3, v4, v5 from input dwords 3i..3i + 2
 * (and s8 = 0x80ff7f01, s9 = 0x3fc00000 as scalar sources); lanes whose v3 has (v3 & 7) == 5 are
 * off during the ops. Op k writes v(10 + k), preset to v5 ^ a constant of its own; VCC starts as
 * v3 < v4. After EXEC is restored each lane stores every destination and every captured mask at
 * (i * columns + k) * 4.
 */
export function laneCase(name: string, ops: readonly LaneOp[], wave64: boolean, rng: Rng, floatMode?: number): EngineCase {
  const vcc = wave64 ? 'vcc' : 'vcc_lo', b = wave64 ? 'b64' : 'b32', exec = wave64 ? 'exec' : 'exec_lo', sv = wave64 ? 's[20:21]' : 's20';
  const part = wave64 ? 's[22:23]' : 's22', sdst = wave64 ? 's[40:41]' : 's40';
  const m: MaskRegs = { vcc, sdst };
  const body: string[] = [
    's_load_dwordx4 s[4:7], s[0:1], 0x0',
    's_waitcnt lgkmcnt(0)',
    's_mov_b32 s8, 0x80ff7f01',
    's_mov_b32 s9, 0x3fc00000',
    'v_lshl_add_u32 v1, s2, 6, v0',
    'v_mul_u32_u24 v2, 12, v1',
    'global_load_dwordx3 v[3:5], v2, s[4:5]',
    's_waitcnt vmcnt(0)',
    ...ops.map((_, k) => `v_xor_b32 v${10 + k}, ${hex(0x5eed0000 + k * 0x01010101)}, v5`),
    `v_cmp_lt_u32_e32 ${vcc}, v3, v4`,
    'v_and_b32 v6, 7, v3',
    `v_cmp_ne_u32_e64 ${part}, 5, v6`,
    `s_and_saveexec_${b} ${sv}, ${part}`,
  ];
  let s = 50;
  const captured: number[] = [];
  const capture = (lo: string, hi: string) => {
    body.push(`s_mov_b32 s${s}, ${lo}`); captured.push(s++);
    if (wave64) { body.push(`s_mov_b32 s${s}, ${hi}`); captured.push(s++); }
  };
  ops.forEach((op, k) => {
    body.push(op.line(`v${10 + k}`, m));
    if (op.mask === 'vcc') capture('vcc_lo', 'vcc_hi');
    else if (op.mask === 'sdst') capture('s40', 's41');
    else if (op.mask === 'exec') { capture('exec_lo', 'exec_hi'); body.push(`s_mov_${b} ${exec}, ${part}`); }
  });
  body.push(`s_or_${b} ${exec}, ${exec}, ${sv}`);
  captured.forEach((r, j) => body.push(`v_mov_b32 v${10 + ops.length + j}, s${r}`));
  const cols = ops.length + captured.length;
  body.push(`v_mul_u32_u24 v2, ${cols * 4}, v1`);
  for (let k = 0; k < cols; k++) body.push(`global_store_dword v2, v${10 + k}, s[6:7] offset:${4 * k}`);
  body.push('s_endpgm');
  const { code, shader } = one({ name, body: body.join('\n'), wave64, vgprs: 10 + cols + 2, sgprs: s + 2, ...(floatMode !== undefined ? { floatMode } : {}) });
  const n = 192;
  const vals = Array.from({ length: 3 * n }, () => (rng.int(3) === 0 ? rng.pick(EDGES) : rng.u32()));
  const input = new Uint8Array(new Uint32Array(vals).buffer);
  return { name, spirvName: name, code, kernel: name, shader, buffers: [input, new Uint8Array(4 * cols * n)], grid: [n - 10, 1, 1], block: [64, 1, 1], scalars: [], writes: 1 };
}

// --- SDWA on the 32-bit VALU ---

const SEL = ['BYTE_0', 'BYTE_1', 'BYTE_2', 'BYTE_3', 'WORD_0', 'WORD_1', 'DWORD'] as const;
const UNUSED = ['UNUSED_PAD', 'UNUSED_SEXT', 'UNUSED_PRESERVE'] as const;

/** VOP1 opcodes (SDWA): name, whether src0 is a float, whether the result is a float (omod, clamp). */
const SDWA_VOP1: readonly (readonly [string, boolean, boolean])[] = [
  ['v_mov_b32', false, false], ['v_not_b32', false, false], ['v_bfrev_b32', false, false], ['v_ffbh_u32', false, false], ['v_ffbl_b32', false, false], ['v_ffbh_i32', false, false],
  ['v_cvt_f32_u32', false, true], ['v_cvt_f32_i32', false, true], ['v_cvt_u32_f32', true, false], ['v_cvt_i32_f32', true, false], ['v_cvt_flr_i32_f32', true, false],
  ['v_cvt_f32_ubyte1', false, true], ['v_cvt_f32_ubyte3', false, true], ['v_rcp_f32', true, true], ['v_sqrt_f32', true, true], ['v_rsq_f32', true, true],
  ['v_floor_f32', true, true], ['v_ceil_f32', true, true], ['v_trunc_f32', true, true], ['v_rndne_f32', true, true], ['v_fract_f32', true, true],
  ['v_frexp_mant_f32', true, true], ['v_frexp_exp_i32_f32', true, false], ['v_rcp_iflag_f32', true, true],
];
/** VOP2 opcodes (SDWA): name, float sources, float result; `clamp`: an integer op whose clamp saturates. */
const SDWA_VOP2: readonly (readonly [string, boolean, boolean, boolean?])[] = [
  ['v_add_nc_u32', false, false, true], ['v_sub_nc_u32', false, false, true], ['v_subrev_nc_u32', false, false, true],
  ['v_and_b32', false, false], ['v_or_b32', false, false], ['v_xor_b32', false, false], ['v_xnor_b32', false, false],
  ['v_lshlrev_b32', false, false], ['v_lshrrev_b32', false, false], ['v_ashrrev_i32', false, false],
  ['v_mul_u32_u24', false, false], ['v_mul_i32_i24', false, false], ['v_mul_hi_u32_u24', false, false], ['v_mul_hi_i32_i24', false, false],
  ['v_min_i32', false, false], ['v_max_i32', false, false], ['v_min_u32', false, false], ['v_max_u32', false, false],
  ['v_add_f32', true, true], ['v_sub_f32', true, true], ['v_subrev_f32', true, true], ['v_mul_f32', true, true], ['v_min_f32', true, true], ['v_max_f32', true, true],
];
/** VOPC opcodes (SDWA): name, float sources. */
const SDWA_VOPC: readonly (readonly [string, boolean])[] = [
  ['v_cmp_lt_i32', false], ['v_cmp_eq_u32', false], ['v_cmp_ge_u32', false], ['v_cmp_gt_i32', false], ['v_cmp_ne_i32', false], ['v_cmp_t_u32', false],
  ['v_cmp_lt_f32', true], ['v_cmp_nge_f32', true], ['v_cmp_u_f32', true], ['v_cmp_lg_f32', true], ['v_cmp_class_f32', true],
  ['v_cmpx_gt_u32', false], ['v_cmpx_le_f32', true], ['v_cmpx_ne_u32', false],
];

/** The SDWA lines: every opcode above several times, the selects and modifiers drawn from `rng`. */
export function sdwaOps(rng: Rng): LaneOp[] {
  const ops: LaneOp[] = [];
  const srcMod = (r: string, fp: boolean) => {
    if (fp) { const k = rng.int(4); return k === 0 ? r : k === 1 ? `-${r}` : k === 2 ? `|${r}|` : `-|${r}|`; }
    return rng.bool(0.4) ? `sext(${r})` : r;
  };
  const dst = () => { const sel = rng.pick(SEL); return `dst_sel:${sel} dst_unused:${sel === 'DWORD' ? 'UNUSED_PAD' : rng.pick(UNUSED)}`; };
  // A VGPR mostly; sometimes an SGPR or an inline constant (SDWA takes no literal).
  const src = (v: string, fp: boolean) => { const k = rng.int(8); return k === 0 ? 's8' : k === 1 ? (fp ? '0.5' : '-5') : k === 2 ? 's9' : v; };
  for (let rep = 0; rep < 3; rep++) {
    for (const [m, fpIn, fpOut] of SDWA_VOP1) {
      const s0 = srcMod(src('v3', fpIn), fpIn);
      const mods = `${fpOut && rng.bool(0.3) ? ' clamp' : ''}${fpOut && rng.bool(0.25) ? ` ${rng.pick(['mul:2', 'mul:4', 'div:2'])}` : ''}`;
      const rest = `${s0}${mods} ${dst()} src0_sel:${rng.pick(SEL)}`;
      ops.push({ line: (d) => `${m}_sdwa ${d}, ${rest}` });
    }
    for (const [m, fp, fpOut, sat] of SDWA_VOP2) {
      const s0 = srcMod(src('v3', fp), fp), s1 = srcMod(rng.bool(0.15) ? 's9' : 'v4', fp);
      const mods = `${(fpOut || sat) && rng.bool(0.3) ? ' clamp' : ''}${fpOut && rng.bool(0.25) ? ` ${rng.pick(['mul:2', 'mul:4', 'div:2'])}` : ''}`;
      const rest = `${s0}, ${s1}${mods} ${dst()} src0_sel:${rng.pick(SEL)} src1_sel:${rng.pick(SEL)}`;
      ops.push({ line: (d) => `${m}_sdwa ${d}, ${rest}` });
    }
    for (const [m, fp] of SDWA_VOPC) {
      const s0 = srcMod(src('v3', fp), fp), s1 = m.includes('class') ? (rng.bool(0.5) ? 'v4' : 's8') : srcMod(rng.bool(0.15) ? 's9' : 'v4', fp);
      const x = m.startsWith('v_cmpx'), toVcc = !x && rng.bool(0.5);
      const sels = `src0_sel:${rng.pick(SEL)} src1_sel:${rng.pick(SEL)}`;
      ops.push({ line: (_d, r) => `${m}_sdwa ${x ? '' : `${toVcc ? r.vcc : r.sdst}, `}${s0}, ${s1} ${sels}`, mask: x ? 'exec' : toVcc ? 'vcc' : 'sdst' });
    }
    // VCC readers: v_cndmask_b32 and v_add_co_ci_u32 / v_sub_co_ci_u32 (VCC in and out).
    const sels = () => `${dst()} src0_sel:${rng.pick(SEL)} src1_sel:${rng.pick(SEL)}`;
    const c = sels(), a = [srcMod('v3', false), srcMod('v4', false), sels()], sb = [srcMod('v5', false), srcMod('v4', false), sels()];
    ops.push({ line: (d, r) => `v_cndmask_b32_sdwa ${d}, v3, v4, ${r.vcc} ${c}` });
    ops.push({ line: (d, r) => `v_add_co_ci_u32_sdwa ${d}, ${r.vcc}, ${a[0]}, ${a[1]}, ${r.vcc} ${a[2]}`, mask: 'vcc' });
    ops.push({ line: (d, r) => `v_subrev_co_ci_u32_sdwa ${d}, ${r.vcc}, ${sb[0]}, ${sb[1]}, ${r.vcc} ${sb[2]}`, mask: 'vcc' });
  }
  // vdst = src0 with UNUSED_PRESERVE: the old value is read before the write.
  ops.push({ line: (d) => `v_add_nc_u32_sdwa ${d}, ${d}, v4 dst_sel:BYTE_2 dst_unused:UNUSED_PRESERVE src0_sel:BYTE_2 src1_sel:BYTE_0` });
  return ops;
}

/** The SDWA cases: the lines split into kernels of ~60, wave32 and wave64, float ops under two launch MODEs. */
export function* sdwaCases(): Generator<EngineCase> {
  const rng = new Rng(1207);
  const ops = sdwaOps(new Rng(1208));
  const per = 60;
  for (const wave64 of [false, true]) {
    for (let k = 0; k * per < ops.length; k++) {
      // Launch MODE 0xc0 (round to nearest, f32 denormals flushed) and 0x33 (toward zero, f32 denormals kept).
      for (const fm of [0xc0, 0x33]) {
        yield laneCase(`sdwa${wave64 ? 64 : 32}_${k}_m${fm.toString(16)}`, ops.slice(k * per, (k + 1) * per), wave64, rng, fm);
      }
    }
  }
}

// --- v_permlane16_b32 / v_permlanex16_b32 ---

/** The permlane lines: several selects (SGPRs, constants, a literal, a run-time value), every FI/BOUND_CTRL pair, vdst = src0. */
export function permlaneOps(): LaneOp[] {
  const ops: LaneOp[] = [];
  const sels: [string, string][] = [
    ['0x76543210', '0xfedcba98'], ['0x89abcdef', '0x01234567'], ['0', '0'], ['0x5f1e29c3', '0x0d7b4a86'], ['0xffffffff', '0x33333333'],
  ];
  for (const m of ['v_permlane16_b32', 'v_permlanex16_b32']) {
    for (const [s1, s2] of sels) {
      for (const opsel of ['', ' op_sel:[1,0]', ' op_sel:[0,1]', ' op_sel:[1,1]']) {
        ops.push({ line: (d) => `s_mov_b32 s44, ${s1}\ns_mov_b32 s45, ${s2}\n${m} ${d}, v3, s44, s45${opsel}` });
      }
    }
    // Inline constants, a literal, and a select read from the data (v_readfirstlane_b32).
    ops.push({ line: (d) => `${m} ${d}, v4, 5, -1` });
    ops.push({ line: (d) => `${m} ${d}, v4, 0x1234abcd, s8 op_sel:[0,1]` });
    ops.push({ line: (d) => `v_readfirstlane_b32 s44, v4\nv_readfirstlane_b32 s45, v5\n${m} ${d}, v3, s44, s45 op_sel:[1,0]` });
    ops.push({ line: (d) => `v_readfirstlane_b32 s44, v5\n${m} ${d}, v3, s44, s9` });
    // vdst = src0: every lane reads its source lane's old value.
    ops.push({ line: (d) => `s_mov_b32 s44, 0x5f1e29c3\ns_mov_b32 s45, 0x0d7b4a86\n${m} ${d}, ${d}, s44, s45` });
    ops.push({ line: (d) => `s_mov_b32 s44, 0x01234567\ns_mov_b32 s45, 0x89abcdef\n${m} ${d}, ${d}, s44, s45 op_sel:[1,1]` });
  }
  return ops;
}

/** The permlane cases, wave32 and wave64. */
export function* permlaneCases(): Generator<EngineCase> {
  const rng = new Rng(1307);
  for (const wave64 of [false, true]) yield laneCase(`permlane${wave64 ? 64 : 32}`, permlaneOps(), wave64, rng);
}

// --- integer dot products ---

/** The dot-product lines: every VOP3P integer dot with and without clamp, op_sel/op_sel_hi on the 16-bit ones, SGPR and constant sources; v_dot4c_i32_i8 and its DPP forms. */
export function dotOps(rng: Rng): LaneOp[] {
  const ops: LaneOp[] = [];
  const names = ['v_dot2_i32_i16', 'v_dot2_u32_u16', 'v_dot4_i32_i8', 'v_dot4_u32_u8', 'v_dot8_i32_i4', 'v_dot8_u32_u4'];
  const srcs = [['v3', 'v4', 'v5'], ['v4', 'v3', 'v5'], ['s8', 'v4', 'v5'], ['v3', 's9', '-1'], ['v5', 'v4', '0x7fffff00'], ['-3', 'v4', 'v3'], ['v3', 'v3', 's8']];
  for (const m of names) {
    for (let rep = 0; rep < 6; rep++) {
      const [a, b, c] = rng.pick(srcs);
      const clamp = rng.bool(0.5) ? ' clamp' : '';
      const sel = m.startsWith('v_dot2') && rng.bool(0.6) ? ` op_sel:[${rng.int(2)},${rng.int(2)},0] op_sel_hi:[${rng.int(2)},${rng.int(2)},1]` : '';
      ops.push({ line: (d) => `${m} ${d}, ${a}, ${b}, ${c}${sel}${clamp}` });
    }
    // Operands at the saturation edges: the sum of maximal products and a large accumulator.
    ops.push({ line: (d) => `v_mov_b32 v6, 0x80008000\n${m} ${d}, v6, v6, 0x7fffffff clamp` });
    ops.push({ line: (d) => `v_mov_b32 v6, 0x7f7f7f7f\n${m} ${d}, v6, v6, v5 clamp` });
    ops.push({ line: (d) => `v_mov_b32 v6, 0xffffffff\n${m} ${d}, v6, v6, v5 clamp` });
  }
  ops.push({ line: (d) => `v_dot4c_i32_i8 ${d}, v3, v4` });
  ops.push({ line: (d) => `v_dot4c_i32_i8 ${d}, s8, v4` });
  ops.push({ line: (d) => `v_dot4c_i32_i8 ${d}, -7, v5` });
  ops.push({ line: (d) => `v_dot4c_i32_i8_dpp ${d}, v3, v4 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf` });
  ops.push({ line: (d) => `v_dot4c_i32_i8_dpp ${d}, v3, v5 row_shr:3 row_mask:0xf bank_mask:0xf bound_ctrl:0` });
  ops.push({ line: (d) => `v_dot4c_i32_i8_dpp ${d}, v4, v3 dpp8:[7,6,5,4,3,2,1,0] fi:1` });
  return ops;
}

/** The dot-product cases, wave32 and wave64. */
export function* dotCases(): Generator<EngineCase> {
  const rng = new Rng(1407);
  for (const wave64 of [false, true]) yield laneCase(`dot${wave64 ? 64 : 32}`, dotOps(new Rng(1408)), wave64, rng);
}

// --- the SAD ops and v_sat_pk_u8_i16 ---

/** The SAD lines (64- and 128-bit results one field per line through v6..v9), reference operands with zero bytes, constants; v_sat_pk_u8_i16 in its e32, e64, SDWA and DPP forms. */
export function sadOps(): LaneOp[] {
  const ops: LaneOp[] = [];
  // Reference operands: random, with zero bytes, and constants.
  const refs: [string, string][] = [['', 'v5'], ['v_and_b32 v9, 0xff00ff00, v5\n', 'v9'], ['v_lshlrev_b32 v9, 8, v4\n', 'v9'], ['', 's8'], ['', '0x00010000'], ['', '3']];
  refs.forEach(([pre, ref], k) => {
    ops.push({ line: (d) => `${pre}v_msad_u8 ${d}, v3, ${ref}, v4` });
    ops.push({ line: (d) => `${pre}v_msad_u8 ${d}, ${k % 2 ? 's9' : 'v4'}, ${ref}, ${k % 3 ? 'v5' : '-2'}` });
    for (const m of ['v_qsad_pk_u16_u8', 'v_mqsad_pk_u16_u8']) {
      for (const h of [0, 1]) {
        const s0 = k === 3 ? 's[8:9]' : k === 5 ? '0x12345678' : 'v[3:4]';
        ops.push({ line: (d) => `${pre}${m} v[6:7], ${s0}, ${ref}, ${k % 2 ? 'v[4:5]' : 'v[3:4]'}\nv_mov_b32 ${d}, v${6 + h}` });
      }
    }
    for (let j = 0; j < 4; j++) {
      // S2 = v[6:9] (also the destination: the sources are read before the writes).
      const s2 = 'v_mov_b32 v6, v5\nv_xor_b32 v7, v3, v4\nv_mov_b32 v8, v4\nv_not_b32 v9, v3\n';
      ops.push({ line: (d) => `${pre.replace('v9', 'v2')}${s2}v_mqsad_u32_u8 v[6:9], v[3:4], ${ref.replace('v9', 'v2')}, v[6:9]\nv_mov_b32 ${d}, v${6 + j}` });
    }
  });
  for (const s of ['v3', 'v4', 's8', '0x80017f00', '-1']) ops.push({ line: (d) => `v_sat_pk_u8_i16 ${d}, ${s}` });
  ops.push({ line: (d) => `v_sat_pk_u8_i16_e64 ${d}, v5` });
  ops.push({ line: (d) => `v_sat_pk_u8_i16_sdwa ${d}, sext(v3) dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE src0_sel:BYTE_1` });
  ops.push({ line: (d) => `v_sat_pk_u8_i16_sdwa ${d}, v4 dst_sel:BYTE_0 dst_unused:UNUSED_SEXT src0_sel:DWORD` });
  ops.push({ line: (d) => `v_sat_pk_u8_i16_dpp ${d}, v5 row_ror:3 row_mask:0xf bank_mask:0xf` });
  return ops;
}

/** The SAD cases, wave32 and wave64. */
export function* sadCases(): Generator<EngineCase> {
  const rng = new Rng(1507);
  for (const wave64 of [false, true]) yield laneCase(`sad${wave64 ? 64 : 32}`, sadOps(), wave64, rng);
}

// --- M0-indexed moves and v_trig_preop_f64 ---

/** M0 from the first active lane's v3 (or v4): `bits` of it, shifted left by `shl`, a run-time uniform value. */
const runtimeM0 = (src: string, mask: number, shl = 0) =>
  `v_readfirstlane_b32 s10, ${src}\ns_and_b32 s10, s10, ${mask}\n${shl ? `s_lshl_b32 s10, s10, ${shl}\n` : ''}s_mov_b32 m0, s10`;
/** v6..v9 set from the inputs (the registers an index may pick). */
const V69 = 'v_mov_b32 v6, v3\nv_xor_b32 v7, v4, v5\nv_not_b32 v8, v3\nv_add_nc_u32 v9, v4, v5';
/** One dword from v6..v9, each weighed differently (a write to any of them shows). */
const mixV69 = (d: string) => `v_lshl_add_u32 ${d}, v7, 1, v6\nv_lshl_add_u32 ${d}, v8, 2, ${d}\nv_lshl_add_u32 ${d}, v9, 3, ${d}`;
/** s11..s15 set to constants (the SGPRs an index may pick). */
const S1115 = 's_mov_b32 s11, 0x1111\ns_mov_b32 s12, 0x2222\ns_mov_b32 s13, 0x3333\ns_mov_b32 s14, 0x4444\ns_mov_b32 s15, 0x5555';
const mixS1115 = (d: string) => `v_mov_b32 ${d}, s11\nv_lshl_add_u32 ${d}, s12, 1, ${d}\nv_lshl_add_u32 ${d}, s13, 2, ${d}\nv_lshl_add_u32 ${d}, s14, 3, ${d}\nv_lshl_add_u32 ${d}, s15, 4, ${d}`;

/**
 * The M0-indexed moves with M0 a constant of the block and M0 known only at run time (from the
 * first active lane's data): v_movrels/movreld/movrelsd/movrelsd_2_b32, v_swaprel_b32 (e32 and
 * e64 where there is one), s_movrels/movreld_b32/b64, s_movrelsd_2_b32; then v_trig_preop_f64 on
 * the lanes' 64-bit data with data, SGPR and constant segment selects, neg/abs and omod.
 */
export function movrelOps(): LaneOp[] {
  const ops: LaneOp[] = [];
  for (const m0 of ['s_mov_b32 m0, 2', runtimeM0('v3', 3)]) {
    ops.push({ line: (d) => `${V69}\n${m0}\nv_movrels_b32 ${d}, v6` });
    ops.push({ line: (d) => `${V69}\n${m0}\nv_movrels_b32_e64 ${d}, v5` });
    ops.push({ line: (d) => `${V69}\n${m0}\nv_movreld_b32 v6, v4\n${mixV69(d)}` });
    ops.push({ line: (d) => `${V69}\n${m0}\nv_movreld_b32 v6, s9\n${mixV69(d)}` });
    ops.push({ line: (d) => `${V69}\n${m0}\nv_movreld_b32_e64 v6, -5\n${mixV69(d)}` });
    ops.push({ line: (d) => `${V69}\n${m0}\nv_movrelsd_b32 v6, v3\n${mixV69(d)}` });
    ops.push({ line: (d) => `${S1115}\n${m0}\ns_movrels_b32 s16, s11\nv_mov_b32 ${d}, s16` });
    ops.push({ line: (d) => `${S1115}\n${m0}\ns_movreld_b32 s11, s8\n${mixS1115(d)}` });
  }
  for (const m0 of ['s_mov_b32 m0, 2', runtimeM0('v4', 1, 1)]) {
    ops.push({ line: (d) => `${S1115}\n${m0}\ns_movrels_b64 s[16:17], s[12:13]\nv_lshl_add_u32 ${d}, s17, 1, s16` });
    ops.push({ line: (d) => `${S1115}\n${m0}\ns_movreld_b64 s[12:13], s[8:9]\n${mixS1115(d)}` });
  }
  // M0 a constant from another block (the scalar-constant data flow: the direct register, no selects).
  ops.push({ line: (d) => `${V69}\ns_mov_b32 m0, 3\ns_cmp_lg_u32 s8, 0\ns_cbranch_scc1 movrel_far_v_${d}\nv_not_b32 v9, v9\nmovrel_far_v_${d}:\nv_movrels_b32 ${d}, v6` });
  ops.push({ line: (d) => `${S1115}\ns_mov_b32 m0, 1\ns_cmp_eq_u32 s8, 0\ns_cbranch_scc1 movrel_far_s_${d}\ns_mov_b32 s13, 0x3434\nmovrel_far_s_${d}:\ns_movreld_b32 s11, s9\n${mixS1115(d)}` });
  // The two-index forms: source + M0[9:0], destination + M0[25:16] (the other bits set, unused).
  for (const m0 of ['s_mov_b32 m0, 0xfc02fc01', `${runtimeM0('v3', 3)}\nv_readfirstlane_b32 s17, v4\ns_and_b32 s17, s17, 0x30000\ns_or_b32 m0, s10, s17\ns_or_b32 m0, m0, 0xfc00fc00`]) {
    ops.push({ line: (d) => `${V69}\n${m0}\nv_movrelsd_2_b32 v6, v6\n${mixV69(d)}` });
    ops.push({ line: (d) => `${V69}\n${m0}\nv_swaprel_b32 v6, v6\n${mixV69(d)}` });
    ops.push({ line: (d) => `${S1115}\n${m0}\ns_movrelsd_2_b32 s11, s12\n${mixS1115(d)}` });
  }
  // v_trig_preop_f64: the 2/π segment for the exponent of v[3:4] (random: every exponent range) and a select.
  const preop = (pre: string, x: string, seg: string, mod = '') => (d: string) => `${pre}v_trig_preop_f64 v[6:7], ${x}, ${seg}${mod}\nv_xor_b32 ${d}, v6, v7\nv_add_nc_u32 ${d}, ${d}, v7`;
  for (const seg of ['v5', 's8', '0', '1', '2', '3', '21', '31']) ops.push({ line: preop('', 'v[3:4]', seg) });
  ops.push({ line: preop('', '-|v[3:4]|', 'v5') });
  ops.push({ line: preop('', 'v[3:4]', 'v5', ' mul:2') });
  // Exponents around 1077 and 1968 and the NaN/infinity codes: v7's exponent field from the data's low bits.
  ops.push({ line: preop('v_and_b32 v7, 0x800fffff, v4\nv_bfe_u32 v8, v5, 0, 3\nv_lshlrev_b32 v8, 20, v8\nv_add_nc_u32 v8, 0x43300000, v8\nv_or_b32 v7, v7, v8\nv_mov_b32 v6, v3\n', 'v[6:7]', 'v5') });
  ops.push({ line: preop('v_and_b32 v7, 0x800fffff, v4\nv_bfe_u32 v8, v5, 0, 4\nv_lshlrev_b32 v8, 20, v8\nv_add_nc_u32 v8, 0x7af00000, v8\nv_or_b32 v7, v7, v8\nv_mov_b32 v6, v3\n', 'v[6:7]', 'v5') });
  ops.push({ line: preop('v_or_b32 v7, 0x7ff00000, v4\nv_mov_b32 v6, v3\n', 'v[6:7]', 'v5') });
  ops.push({ line: preop('s_mov_b32 s16, 0\ns_mov_b32 s17, 0x7ff00000\n', 's[16:17]', 'v5') });
  return ops;
}

/** The M0-indexed moves and v_trig_preop_f64, wave32 and wave64. */
export function* movrelCases(): Generator<EngineCase> {
  const rng = new Rng(1607);
  for (const wave64 of [false, true]) yield laneCase(`movrel${wave64 ? 64 : 32}`, movrelOps(), wave64, rng);
}
