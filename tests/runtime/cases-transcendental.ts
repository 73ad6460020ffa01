// v_exp/v_log/v_sin/v_cos (f32 and f16) as engine cases (tests/runtime/transcendental.test.ts runs
// them on lavapipe and, compiled for the portable and nvidia profiles, on the IR interpreter;
// ENGINE_SUITES lists them for tools/vulkan-replay): gfx1030 assembly kernels with every opcode,
// neg/abs, clamp/omod, DPP and SDWA forms, mid-shader s_round_mode / s_denorm_mode changes, and a
// MODE known only at run time (s_setreg from a kernarg dword), under float-mode bytes that differ
// in the f32 and f16 rounding and denormal fields, IEEE and DX10_CLAMP on and off, wave32 and
// wave64; inputs biased to NaN (quiet and signaling, with payloads), ±0, ±inf, denormals, the
// exp2 clamps' ends, overflow and underflow, negative log inputs, powers of two, quarter
// revolutions and huge revolutions.
import assert from 'node:assert/strict';
import type { Shader } from '../../src/container/shader.js';
import { loadShaders } from '../../src/container/shader.js';
import { KERNARG_DIRECTIVES } from '../interp/harness.js';
import { assembleKernels, type KernelSpec } from '../harness/kernel.js';
import { Rng } from '../harness/rng.js';
import type { EngineCase } from './cases.js';
import { quadKernel, stores } from './cases-wide.js';

function one(spec: KernelSpec): { code: Uint8Array; shader: Shader } {
  const code = assembleKernels('gfx1030', [{ ...spec, directives: [...KERNARG_DIRECTIVES, ...(spec.directives ?? [])] }]);
  const shader = loadShaders({ bytes: code, name: 'test' }).find((s) => s.info.name === spec.name);
  assert.ok(shader);
  return { code, shader };
}

const bitsOf = (x: number) => new Uint32Array(new Float32Array([x]).buffer)[0] ?? 0;
const F32_EDGES = [0, 0x80000000, 1, 0x80000001, 0x007fffff, 0x807fffff, 0x00800000, 0x80800000, 0x7f7fffff, 0xff7fffff, 0x7f800000, 0xff800000,
  0x7fc00000, 0xffc00001, 0x7fa00000, 0x7f800001, 0x3f800000, 0xbf800000, 0x3f800001, 0x3f7fffff, 0x3e800000, 0x3f000000, 0x3f400000, 0xbe800000,
  0x4f800000, 0x4f7fffff, 0xcf800000, 0x4b000001, 0x43000000, 0x43010000, 0x42fffffe, 0xc3160000, 0xc3150000, 0xc3200000, 0xc32a0000, 0x3e000000, 0x40400000];
/** An f32 biased to the transcendentals' hard cases; `fn` picks the interesting range. */
function f32(rng: Rng, fn: 'exp' | 'log' | 'trig'): number {
  const u = () => rng.u32() / 2 ** 32;
  switch (rng.u32() % 8) {
    case 0: case 1: return F32_EDGES[rng.u32() % F32_EDGES.length] ?? 0;
    case 2: return rng.u32() & 0x807fffff; // denormal
    case 3: return fn === 'exp' ? bitsOf(-170 + 300 * u()) : fn === 'log' ? bitsOf(1 + (u() - 0.5) * 2 ** -(rng.u32() % 20)) : bitsOf((u() - 0.5) * 2 ** (rng.u32() % 26));
    case 4: return fn === 'trig' ? (bitsOf((rng.u32() % 64) / 8 - 4) + (rng.u32() % 3) - 1) >>> 0 : fn === 'exp' ? bitsOf((rng.u32() % 300) - 160) : bitsOf(2 ** ((rng.u32() % 250) - 125));
    case 5: return (bitsOf(-(1 + 0.1 * u())) ^ (rng.u32() % 2 ? 0 : 0x80000000)) >>> 0;
    default: return rng.u32();
  }
}
const F16_EDGES = [0, 0x8000, 1, 0x83ff, 0x0400, 0x7bff, 0xfbff, 0x7c00, 0xfc00, 0x7e00, 0xfd01, 0x7d00, 0x3c00, 0xbc00, 0x3400, 0x3800, 0x3a00, 0x3bff, 0x3c01,
  0x4c00, 0x4b00, 0xcc00, 0xd900, 0xce00, 0x3000, 0x6400];
function f16(rng: Rng): number {
  switch (rng.u32() % 4) {
    case 0: return F16_EDGES[rng.u32() % F16_EDGES.length] ?? 0;
    case 1: return rng.u32() & 0x83ff;
    default: return rng.u32() & 0xffff;
  }
}

/** `n` lanes of eight dwords (v3..v10): f32 kernels get exp, log, trig, trig, log, trig, any, any inputs; f16 kernels two f16 per dword. */
function inputs(rng: Rng, n: number, half: boolean): Uint8Array {
  const b = new Uint8Array(32 * n), v = new DataView(b.buffer);
  const kinds = ['exp', 'log', 'trig', 'trig', 'log', 'trig', 'exp', 'trig'] as const;
  for (let l = 0; l < n; l++) for (let k = 0; k < 8; k++) v.setUint32(32 * l + 4 * k, half ? (f16(rng) | (f16(rng) << 16)) >>> 0 : f32(rng, kinds[k] ?? 'trig'), true);
  return b;
}


/** The result dwords of the f32 kernel: v12 is v_exp_f32 under the launch mode, v28 the same after s_round_mode 0x1 (f32 toward +inf). */
export const F32_EXP_BEFORE = 0, F32_EXP_AFTER = 16;

/** gfx1030 f32: every op with its modifiers and forms, then again after rounding and denormal changes. */
const f32Ops = (): string => quadKernel(7, `
  v_exp_f32 v12, v3
  v_log_f32 v13, v4
  v_sin_f32 v14, v5
  v_cos_f32 v15, v6
  v_exp_f32_e64 v16, -v3 clamp
  v_log_f32_e64 v17, |v7| mul:2
  v_sin_f32_e64 v18, -|v8| div:2
  v_cos_f32_e64 v19, v5 clamp mul:4
  v_exp_f32_dpp v20, v9 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
  v_sin_f32_sdwa v21, v10 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:WORD_1
  v_log_f32_dpp v22, v4 row_shr:1 row_mask:0xf bank_mask:0xf bound_ctrl:0
  v_cos_f32_sdwa v23, v6 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE src0_sel:DWORD
  v_log_f32 v24, v3
  v_exp_f32 v25, v4
  v_sin_f32 v26, v8
  v_cos_f32 v27, v7
  s_round_mode 0x1
  v_exp_f32 v28, v3
  v_sin_f32 v29, v5
  v_log_f32 v30, v4
  s_round_mode 0x2
  v_cos_f32 v31, v6
  v_exp_f32 v32, v9
  s_denorm_mode 0x0
  v_sin_f32 v33, v10
  v_cos_f32 v34, v8
${stores(12, 23)}
  s_endpgm`);

/** gfx1030 f16: every op with its modifiers and forms (the high half kept or zeroed as the forms say), then after mode changes. */
const f16Ops = (): string => quadKernel(6, `
  v_exp_f16 v12, v3
  v_log_f16 v13, v4
  v_sin_f16 v14, v5
  v_cos_f16 v15, v6
  v_exp_f16_e64 v16, -v7 clamp
  v_log_f16_e64 v17, |v8| mul:2
  v_sin_f16_e64 v18, -|v9| div:2
  v_mov_b32 v19, v10
  v_cos_f16_sdwa v19, v10 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE src0_sel:WORD_1
  v_exp_f16_dpp v20, v3 row_shr:1 row_mask:0xf bank_mask:0xf
  v_log_f16_sdwa v21, v4 dst_sel:WORD_0 dst_unused:UNUSED_PAD src0_sel:WORD_1
  s_round_mode 0x4
  v_exp_f16 v22, v5
  v_sin_f16 v23, v6
  s_round_mode 0xc
  s_denorm_mode 0x0
  v_log_f16 v24, v7
  v_cos_f16 v25, v8
  v_exp_f16 v26, v9
  v_sin_f16_e64 v27, v10 mul:2
${stores(12, 16)}
  s_endpgm`);

/**
 * Under a MODE known only at run time: the f32 rounding field, then the f32 and f16/f64 denormal
 * fields and the f16 rounding, set by s_setreg_b32 from the kernarg dword at 24, so each op runs in
 * the copies the translation makes per candidate value of the bits it reads.
 */
const dynamicOps = (): string => quadKernel(5, `
  s_load_dword s8, s[0:1], 24
  s_waitcnt lgkmcnt(0)
  s_setreg_b32 hwreg(HW_REG_MODE, 0, 2), s8
  v_exp_f32 v12, v3
  v_sin_f32 v13, v5
  v_log_f32 v14, v4
  s_lshr_b32 s9, s8, 2
  s_setreg_b32 hwreg(HW_REG_MODE, 2, 6), s9
  v_cos_f32 v15, v6
  v_exp_f16 v16, v7
  v_log_f16 v17, v8
  v_sin_f16 v18, v9
  v_cos_f16 v19, v10
${stores(12, 8)}
  s_endpgm`);

/** Float-mode bytes (f32 rounding 1:0, f16/f64 rounding 3:2, f32 denormals 5:4, f16/f64 denormals 7:6), IEEE and DX10_CLAMP. */
const MODES: readonly (readonly [number, boolean, boolean])[] = [[0xf0, true, true], [0x05, false, false], [0x1a, true, false], [0xaf, false, true], [0x6d, true, true], [0x93, false, true]];

/** Every kernel under every mode of MODES (`count`: the first `count` modes), wave32 and wave64, and the dynamic kernel under `count` run-time modes. */
export function* transcendentalCases(count = MODES.length): Generator<EngineCase> {
  const rng = new Rng(7331);
  for (const wave64 of [false, true]) {
    const w = wave64 ? 64 : 32;
    const dname = `trdyn${w}`;
    const dk = one({ name: dname, body: dynamicOps(), wave64, floatMode: 0xf0, vgprs: 24, sgprs: 16, directives: ['.amdhsa_system_sgpr_workgroup_id_x 1'] });
    for (const m of [0x1d, 0x3f, 0x0, 0x26].slice(0, Math.max(1, Math.min(4, count)))) {
      yield { name: `${dname}_${m.toString(16)}`, spirvName: `${dname}_${m.toString(16)}`, code: dk.code, kernel: dname, shader: dk.shader, buffers: [inputs(rng, 64, false), new Uint8Array(32 * 64)], grid: [64, 1, 1], block: [64, 1, 1], scalars: [[24, m]], writes: 1 };
    }
    const kernels: readonly [string, string, number, boolean, number][] = [
      ['tr32_', f32Ops(), 36, false, 128],
      ['tr16_', f16Ops(), 28, true, 64],
    ];
    for (const [kname, body, vgprs, half, outBytes] of kernels) {
      for (const [floatMode, ieee, dx10Clamp] of MODES.slice(0, count)) {
        const name = `${kname}${w}_${floatMode.toString(16)}_${ieee ? 'ieee' : 'noieee'}_${dx10Clamp ? 'dx10' : 'nodx10'}`;
        const { code, shader } = one({ name, body, wave64, floatMode, ieeeMode: ieee, dx10Clamp, vgprs, sgprs: 16, directives: ['.amdhsa_system_sgpr_workgroup_id_x 1'] });
        const n = 64;
        yield { name, spirvName: name, code, kernel: name, shader, buffers: [inputs(rng, n, half), new Uint8Array(outBytes * n)], grid: [n, 1, 1], block: [64, 1, 1], scalars: [], writes: 1, emulatedOnLavapipe: half ? 14 : 23 };
      }
    }
  }
}
