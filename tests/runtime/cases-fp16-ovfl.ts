// MODE.FP16_OVFL (bit 23) as engine cases: f16 add, mul, fma, v_cvt_f16_f32, v_pk_add_f16 and v_exp_f16 on
// inputs biased to overflow (and to infinities, which stay infinite) under the launch value
// (`.amdhsa_fp16_overflow` 0 and 1, every f16 rounding mode), again after
// `s_setreg_imm32_b32 hwreg(HW_REG_MODE, 23, 1)` flips it mid-shader, and again after
// `s_setreg_b32` writes it from a kernarg dword (a MODE bit the analysis cannot know: the run is
// translated once per value; its operands are (c, a, b) and -d), wave32 and wave64. The interpreter and the recompiled SPIR-V must
// agree byte for byte (tests/runtime/fp16-ovfl.test.ts on lavapipe; the IR interpreter too).
import assert from 'node:assert/strict';
import { loadShaders } from '../../src/container/shader.js';
import { KERNARG_DIRECTIVES, dwords } from '../interp/harness.js';
import { assembleKernels } from '../harness/kernel.js';
import { Rng } from '../harness/rng.js';
import type { EngineCase } from './cases.js';

/** The kernarg dword whose bit 0 the third run writes to FP16_OVFL. */
export const OVFL_ARG = 24;

/**
 * One run of the ops on lane inputs (x, y, z packed f16 pairs, d the f32 in v4) into v[r:r+4]. The
 * kernarg run takes its operands in another order (and -d) so that no op of it repeats an earlier
 * one (CSE would merge them: same operands, same mode).
 */
const ops = (r: number, [x, y, z]: readonly string[] = ['v1', 'v2', 'v3'], d = 'v4') => `
  v_add_f16 v${r}, ${x}, ${y}
  v_mul_f16 v${r + 1}, ${x}, ${y}
  v_fma_f16 v${r + 2}, ${x}, ${y}, ${z}
  v_cvt_f16_f32_e64 v${r + 3}, ${d}
  v_pk_add_f16 v${r + 4}, ${x}, ${y}
  v_exp_f16 v${r + 5}, ${x}`;

const kernel = (launch: boolean) => `
  s_load_dwordx4 s[4:7], s[0:1], 0x0
  s_load_dword s8, s[0:1], ${OVFL_ARG}
  s_waitcnt lgkmcnt(0)
  v_lshl_add_u32 v30, s2, 6, v0
  v_lshlrev_b32 v31, 4, v30
  global_load_dwordx4 v[1:4], v31, s[4:5]
  ${Array.from({ length: 18 }, (_, k) => `v_mov_b32 v${5 + k}, 0`).join('\n  ')}
  s_waitcnt vmcnt(0)${ops(5)}
  s_setreg_imm32_b32 hwreg(HW_REG_MODE, 23, 1), ${launch ? 0 : 1}${ops(11)}
  s_setreg_b32 hwreg(HW_REG_MODE, 23, 1), s8${ops(17, ['v3', 'v1', 'v2'], '-v4')}
  v_mul_u32_u24 v31, 0x48, v30
  global_store_dwordx4 v31, v[5:8], s[6:7]
  global_store_dwordx4 v31, v[9:12], s[6:7] offset:16
  global_store_dwordx4 v31, v[13:16], s[6:7] offset:32
  global_store_dwordx4 v31, v[17:20], s[6:7] offset:48
  global_store_dwordx2 v31, v[21:22], s[6:7] offset:64
  s_endpgm`;

const EDGES16 = [0x7bff, 0xfbff, 0x7c00, 0xfc00, 0x7800, 0xf800, 0x7a00, 0x5bff, 0x3c00, 0x4000, 0xc000, 0x0001, 0x7e00, 0x0000];
function half(rng: Rng): number {
  switch (rng.u32() % 4) {
    case 0: return EDGES16[rng.u32() % EDGES16.length] ?? 0;
    case 1: return rng.u32() & 0xffff;
    default: return ((rng.u32() & 0x83ff) | ((26 + (rng.u32() % 5)) << 10)) >>> 0; // 2^11 .. 2^15 · 1.x: sums and products overflow
  }
}
function f32near16(rng: Rng): number {
  switch (rng.u32() % 4) {
    case 0: return [0x477fe000, 0x477ff000, 0x477fefff, 0xc77ff000, 0x7f800000, 0xff800000, 0x47800000][rng.u32() % 7] ?? 0;
    default: return ((rng.u32() & 0x80ffffff) | ((127 + 14 + (rng.u32() % 4)) << 23)) >>> 0;
  }
}

/** wave32 and wave64 × launch FP16_OVFL 0/1 × f16 rounding 0..3 (a kernel each) × the kernarg's bit 0/1. */
export function* fp16OvflCases(): Generator<EngineCase> {
  const rng = new Rng(2323);
  for (const wave64 of [false, true]) {
    const specs = [];
    for (const launch of [false, true]) for (let r16 = 0; r16 < 4; r16++) {
      specs.push({ name: `ovfl${wave64 ? 64 : 32}_${launch ? 1 : 0}_${r16}`, body: kernel(launch), wave64, floatMode: 0xf0 | (r16 << 2), fp16Overflow: launch, vgprs: 32, sgprs: 16, directives: [...KERNARG_DIRECTIVES, '.amdhsa_system_sgpr_workgroup_id_x 1'] });
    }
    const code = assembleKernels('gfx1030', specs);
    const shaders = new Map(loadShaders({ bytes: code, name: 'fp16-ovfl' }).map((s) => [s.info.name, s]));
    for (const spec of specs) {
      const shader = shaders.get(spec.name);
      assert.ok(shader);
      for (const arg of [0, 1]) {
        const n = 128;
        const input = dwords(Array.from({ length: 4 * n }, (_, k) => (k % 4 === 3 ? f32near16(rng) : ((half(rng) << 16) | half(rng)) >>> 0)));
        const name = `${spec.name} arg ${arg}`;
        yield { name, spirvName: name.replace(/\W/g, '_'), code, kernel: spec.name, shader, buffers: [input, new Uint8Array(72 * n)], grid: [n, 1, 1], block: [64, 1, 1], scalars: [[OVFL_ARG, arg]], writes: 1 };
      }
    }
  }
}
