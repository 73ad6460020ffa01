// The remaining float VALU ops (src/frontend/units/valu-float-misc.ts) as engine cases: assembly
// kernels for gfx1030 (v_fmamk/fmaak, v_med3_f32/f16, the legacy mul/fma/fmac, v_cvt_rpi,
// v_cvt_off, v_cvt_pk_u8, the norm/pknorm conversions, the cube ops) and gfx1010 (the non-fused
// v_mad/mac/madmk/madak_f32, v_mad/mac_legacy_f32), with neg/abs, clamp/omod, op_sel, DPP and SDWA
// forms and mid-shader s_round_mode / s_denorm_mode changes, under float-mode bytes giving every
// rounding direction and denormal setting of both widths, IEEE and DX10_CLAMP on and off, wave32
// and wave64; inputs biased to NaN (quiet and signaling), ±0, ±inf, denormals, rounding ties
// (x.5 for v_cvt_rpi and v_cvt_pk_u8, ties of the ×32767/×65535 scalings), equal magnitudes (the
// cube face ties) and zero factors (the legacy rule).
import assert from 'node:assert/strict';
import type { Shader } from '../../src/container/shader.js';
import { loadShaders } from '../../src/container/shader.js';
import type { Target } from '../../src/isa/types.js';
import { KERNARG_DIRECTIVES } from '../interp/harness.js';
import { assembleKernels, type KernelSpec } from '../harness/kernel.js';
import { Rng } from '../harness/rng.js';
import type { EngineCase } from './cases.js';
import { quadKernel, stores } from './cases-wide.js';

function one(target: Target, spec: KernelSpec): { code: Uint8Array; shader: Shader } {
  const code = assembleKernels(target, [{ ...spec, directives: [...KERNARG_DIRECTIVES, ...(spec.directives ?? [])] }]);
  const shader = loadShaders({ bytes: code, name: 'test' }).find((s) => s.info.name === spec.name);
  assert.ok(shader);
  return { code, shader };
}

const F32_EDGES = [0, 0x80000000, 1, 0x80000001, 0x007fffff, 0x807fffff, 0x00800000, 0x7f7fffff, 0xff7fffff, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00001, 0x7f800001, 0x7fa00000,
  0x3f800000, 0xbf800000, 0x3f000000, 0xbf000000, 0x3effffff, 0xbeffffff, 0x3fc00000, 0xbfc00000, 0x40200000, 0xc0200000, 0x40600000, 0x4b000001, 0xcb7fffff, 0x4effffff, 0x4f000000, 0xcf000000, 0xcf000001,
  0x437f0000, 0x437f8000, 0x43800000, 0x437e8000, 0x43ff0000, 0x44000000, 0x3f7fffff, 0xbf7fffff, 0x3f800001, 0x38000100, 0x37000080, 0x40000000, 0xc0400000, 0x3d800000];
/** Values x whose x · 32767 or x · 65535 is a tie (k + 1/2) or just beside one. */
function normTie(rng: Rng): number {
  const max = rng.u32() % 2 ? 32767 : 65535;
  const k = rng.u32() % max;
  const v = new Uint32Array(new Float32Array([(k + 0.5) / max]).buffer)[0] ?? 0;
  return (v + (rng.u32() % 3) - 1 + (rng.u32() % 2 ? 0x80000000 : 0)) >>> 0;
}
/** An f32 bit pattern biased to the hard cases. */
function f32(rng: Rng): number {
  switch (rng.u32() % 9) {
    case 0: case 1: return F32_EDGES[rng.u32() % F32_EDGES.length] ?? 0;
    case 2: return rng.u32() & 0x807fffff; // subnormal
    case 3: return ((rng.u32() & 0x80ffffff) | 0x3f000000) >>> 0; // near 1
    case 4: { const h = (rng.u32() % 600) - 300; return new Uint32Array(new Float32Array([h + 0.5]).buffer)[0] ?? 0; } // x.5 ties
    case 5: return normTie(rng);
    case 6: return ((rng.u32() & 0x80ffffff) | (((rng.u32() % 4) + 0x7d) << 23)) >>> 0; // near overflow
    case 7: return ((rng.u32() & 0x80ffffff) | (((rng.u32() % 3) + 1) << 23)) >>> 0; // near the subnormal range
    default: return rng.u32();
  }
}
const F16_EDGES = [0, 0x8000, 1, 0x83ff, 0x0400, 0x7bff, 0xfbff, 0x7c00, 0xfc00, 0x7e00, 0xfd01, 0x3c00, 0xbc00, 0x3800, 0x3bff, 0xbbff, 0x3c01, 0x0200, 0x0003];
function f16(rng: Rng): number {
  switch (rng.u32() % 5) {
    case 0: case 1: return F16_EDGES[rng.u32() % F16_EDGES.length] ?? 0;
    case 2: return rng.u32() & 0x83ff;
    case 3: return (rng.u32() & 0x83ff) | ((0x08 + (rng.u32() % 7)) << 10); // below 1 (the norm range)
    default: return rng.u32() & 0xffff;
  }
}

/**
 * `n` lanes of eight dwords (v3..v10). f32 kernels: a, b (a quarter of the time ±a, ±2a or a zero:
 * med3 and cube ties, legacy zero factors), c, then five more; f16 kernels: two f16 per dword.
 */
function inputs(rng: Rng, n: number, half: boolean): Uint8Array {
  const b = new Uint8Array(32 * n), v = new DataView(b.buffer);
  for (let l = 0; l < n; l++) {
    if (half) { for (let k = 0; k < 8; k++) v.setUint32(32 * l + 4 * k, (f16(rng) | (f16(rng) << 16)) >>> 0, true); continue; }
    const a = f32(rng);
    const pick = rng.u32() % 8;
    const bb = pick === 0 ? (a ^ 0x80000000) >>> 0 : pick === 1 ? a : pick === 2 ? [0, 0x80000000, 1, 0x80000001][rng.u32() % 4] ?? 0 : f32(rng);
    const c = rng.u32() % 6 === 0 ? (rng.u32() % 2 ? a : bb) : f32(rng);
    [a, bb, c].forEach((x, k) => v.setUint32(32 * l + 4 * k, x, true));
    for (let k = 3; k < 8; k++) v.setUint32(32 * l + 4 * k, k === 4 ? rng.u32() : f32(rng), true);
  }
  return b;
}


/** gfx1030 f32: every op of the unit with its modifiers, then again after rounding/denormal changes. */
const f32Ops = (): string => quadKernel(8, `
  v_fmamk_f32 v12, v3, 0x3fc00001, v4
  v_fmaak_f32 v13, v3, v4, 0xbf7ffffe
  v_med3_f32 v14, v3, v4, v5
  v_med3_f32 v15, -v3, |v4|, v5 clamp
  v_mul_legacy_f32 v16, v3, v4
  v_mul_legacy_f32_e64 v17, v3, -v4 mul:2
  v_fma_legacy_f32 v18, v3, v4, v5
  v_mov_b32 v19, v5
  v_fmac_legacy_f32 v19, v3, v4
  v_cvt_rpi_i32_f32 v20, v3
  v_cvt_rpi_i32_f32_e64 v21, -v5
  v_cvt_off_f32_i4 v22, v7
  v_cvt_off_f32_i4_e64 v23, v1 mul:4
  v_mov_b32 v24, v7
  v_cvt_pk_u8_f32 v24, v3, v1, v24
  v_cvt_pk_u8_f32 v25, -v5, 2, v7
  v_cvt_pknorm_i16_f32 v26, v3, v4
  v_cvt_pknorm_u16_f32 v27, v5, -v6
  v_cubeid_f32 v28, v3, v4, v5
  v_cubesc_f32 v29, v3, v4, v5
  v_cubetc_f32 v30, v3, v4, v5
  v_cubema_f32 v31, v3, v4, v5
  v_cubema_f32 v32, v3, -v4, |v5| clamp
  v_cubesc_f32 v33, -v5, v3, v4 mul:2
  v_med3_f32 v34, v3, v4, v4
  v_fma_legacy_f32 v35, v3, v4, v5 clamp div:2
  v_mul_legacy_f32_dpp v36, v3, v4 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
  v_mul_legacy_f32_sdwa v37, v3, v4 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:WORD_1 src1_sel:DWORD
  v_cvt_rpi_i32_f32_dpp v38, v4 row_shr:1 row_mask:0xf bank_mask:0xf bound_ctrl:0
  s_round_mode 0x1
  v_fmamk_f32 v39, v3, 0x3fc00001, v4
  v_fma_legacy_f32 v40, v3, v4, v5
  v_cubema_f32 v41, v3, v4, v5
  s_denorm_mode 0x2
  v_med3_f32 v42, v3, v4, v5
  v_fmaak_f32 v43, v3, v4, 0x00000003
  s_round_mode 0x2
  v_cvt_pknorm_i16_f32 v44, v4, v5
  v_mul_legacy_f32 v45, v5, v6
  v_mov_b32 v46, v7
  v_fmac_legacy_f32 v46, v5, v6
${stores(12, 35)}
  s_endpgm`);

/** gfx1030 f16: v_med3_f16 (op_sel), v_cvt_norm (VOP1 and VOP3 op_sel, SDWA), v_cvt_pknorm_*_f16. */
const f16Ops = (): string => quadKernel(7, `
  v_med3_f16 v12, v3, v4, v5
  v_med3_f16 v12, v3, -v4, v5 op_sel:[1,1,0,1]
  v_med3_f16 v13, |v3|, v4, v5 op_sel:[0,1,1,0] clamp
  v_mov_b32 v14, v6
  v_cvt_norm_i16_f16 v14, v3
  v_cvt_norm_u16_f16 v15, v4
  v_cvt_norm_i16_f16_e64 v16, -v3 clamp
  v_cvt_norm_u16_f16_sdwa v17, v5 dst_sel:WORD_1 dst_unused:UNUSED_PAD src0_sel:WORD_1
  v_cvt_pknorm_i16_f16 v18, v3, v4
  v_cvt_pknorm_u16_f16 v19, v5, -v6 op_sel:[1,0]
  v_cvt_pknorm_i16_f16 v20, |v7|, v8 op_sel:[0,1]
  v_dot2_f32_f16 v24, v3, v4, v5
  v_dot2_f32_f16 v25, v3, v4, v6 op_sel:[1,0,0] op_sel_hi:[0,1,1] neg_lo:[1,0,1] neg_hi:[0,1,0] clamp
  v_mov_b32 v26, v7
  v_dot2c_f32_f16 v26, v3, v4
  v_mov_b32 v27, v8
  v_dot2c_f32_f16_dpp v27, v5, v6 quad_perm:[2,3,0,1] row_mask:0xf bank_mask:0xf
  s_denorm_mode 0x4
  v_med3_f16 v21, v3, v4, v5
  v_cvt_pknorm_u16_f16 v22, v6, v7
  s_round_mode 0x4
  v_med3_f16 v23, v7, v8, v9 op_sel:[1,1,1,0]
  v_dot2_f32_f16 v28, v7, v8, v9
  v_mov_b32 v29, v9
  v_dot2c_f32_f16 v29, v10, v3
${stores(12, 18)}
  s_endpgm`);

/** gfx1010: the non-fused and legacy multiply-adds (every one flushes f32 denormals whatever MODE says) and a few of the rest. */
const gfx1010Ops = (): string => quadKernel(6, `
  v_mad_f32 v12, v3, v4, v5
  v_mov_b32 v13, v5
  v_mac_f32 v13, v3, v4
  v_madmk_f32 v14, v3, 0x3fc00001, v4
  v_madak_f32 v15, v3, v4, 0xbf7ffffe
  v_mad_legacy_f32 v16, v3, v4, v5
  v_mov_b32 v17, v5
  v_mac_legacy_f32 v17, v3, v4
  v_mul_legacy_f32 v18, v3, v4
  v_mad_f32 v19, -v3, |v4|, v5 clamp
  v_mad_legacy_f32 v20, v3, v4, v5 mul:2
  v_med3_f32 v21, v3, v4, v5
  v_cubetc_f32 v22, v3, v4, v5
  v_cvt_rpi_i32_f32 v23, v4
  s_round_mode 0x3
  v_mad_f32 v24, v3, v4, v5
  v_mac_legacy_f32 v17, v5, v6
  v_mad_legacy_f32 v25, v3, v5, v4
  v_mov_b32 v26, v17
${stores(12, 15)}
  s_endpgm`);

/**
 * Under a MODE known only at run time: the f32 rounding field, then the f32 and f16/f64 denormal
 * fields, set by s_setreg_b32 from the kernarg dword at 24 (bits 1:0, then 5:2), so each op runs in
 * the copies the translation makes per candidate value of the bits it reads.
 */
const dynamicOps = (): string => quadKernel(6, `
  s_load_dword s8, s[0:1], 24
  s_waitcnt lgkmcnt(0)
  s_setreg_b32 hwreg(HW_REG_MODE, 0, 2), s8
  v_mul_legacy_f32 v12, v3, v4
  v_cubema_f32 v13, v3, v4, v5
  v_fma_legacy_f32 v14, v3, v4, v5
  s_lshr_b32 s9, s8, 2
  s_setreg_b32 hwreg(HW_REG_MODE, 4, 4), s9
  v_med3_f32 v15, v3, v4, v5
  v_cvt_rpi_i32_f32 v16, v3
  v_cvt_pknorm_u16_f16 v17, v3, v4
  v_med3_f16 v18, v3, v4, v5
  v_fmaak_f32 v19, v3, v4, 0x3
  v_cvt_pk_u8_f32 v20, v5, 1, v6
${stores(12, 9)}
  s_endpgm`);

/** Float-mode bytes (f32 rounding 1:0, f16/f64 rounding 3:2, f32 denormals 5:4, f16/f64 denormals 7:6), IEEE and DX10_CLAMP. */
const MODES: readonly (readonly [number, boolean, boolean])[] = [[0xf0, true, true], [0x05, false, false], [0x1a, true, false], [0xaf, false, true], [0x6d, true, true], [0x93, false, true]];

/** Every kernel under every mode of MODES, wave32 and wave64 (`first`: only each kernel's first mode). */
export function* vfloatCases(first = false): Generator<EngineCase> {
  const rng = new Rng(613);
  for (const wave64 of [false, true]) {
    const w = wave64 ? 64 : 32;
    const kernels: readonly [string, Target, string, number, boolean, number][] = [
      ['vf32_', 'gfx1030', f32Ops(), 48, false, 256],
      ['vf16_', 'gfx1030', f16Ops(), 32, true, 128],
      ['vf1010_', 'gfx1010', gfx1010Ops(), 28, false, 64],
    ];
    const dname = `vfdyn${w}`;
    const dk = one('gfx1030', { name: dname, body: dynamicOps(), wave64, floatMode: 0xf0, vgprs: 24, sgprs: 16, directives: ['.amdhsa_system_sgpr_workgroup_id_x 1'] });
    for (const m of first ? [0x1d] : [0x0, 0x3f, 0x1d, 0x26]) {
      yield { name: `${dname}_${m.toString(16)}`, spirvName: `${dname}_${m.toString(16)}`, code: dk.code, kernel: dname, shader: dk.shader, buffers: [inputs(rng, 128, false), new Uint8Array(64 * 128)], grid: [128, 1, 1], block: [64, 1, 1], scalars: [[24, m]], writes: 1 };
    }
    for (const [kname, target, body, vgprs, half, outBytes] of kernels) {
      for (const [floatMode, ieee, dx10Clamp] of first ? MODES.slice(0, 1) : MODES) {
        const name = `${kname}${w}_${floatMode.toString(16)}_${ieee ? 'ieee' : 'noieee'}_${dx10Clamp ? 'dx10' : 'nodx10'}`;
        const { code, shader } = one(target, { name, body, wave64, floatMode, ieeeMode: ieee, dx10Clamp, vgprs, sgprs: 16, directives: ['.amdhsa_system_sgpr_workgroup_id_x 1'] });
        const n = 128;
        yield { name, spirvName: name, code, kernel: name, shader, buffers: [inputs(rng, n, half), new Uint8Array(outBytes * n)], grid: [n, 1, 1], block: [64, 1, 1], scalars: [], writes: 1 };
      }
    }
  }
}
