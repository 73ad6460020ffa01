// The kernels of tests/backend/helper-cache.test.ts (and its fresh process): A and B share the fma
// and mul helpers; each has helpers of its own (B: an f64 add, whose helper works on dword pairs,
// and v_ffbh_u32, an OpExtInst of GLSL.std.450); wave32 and wave64.
import type { Shader } from '../../src/container/shader.js';
import { assembleShaders } from '../harness/kernel.js';

const head = ['s_load_dwordx4 s[4:7], s[0:1], 0x0', 's_waitcnt lgkmcnt(0)', 'v_lshlrev_b32 v1, 2, v0', 'global_load_dword v2, v1, s[4:5]', 's_waitcnt vmcnt(0)', 'v_cvt_f32_u32 v3, v0'];
const tail = ['global_store_dword v1, v4, s[6:7]', 's_endpgm'];
const specs = [
  { name: 'share_a', body: [...head, 'v_add_f32 v4, v2, v3', 'v_fma_f32 v4, v4, v3, v2', 'v_sqrt_f32 v5, v4', 'v_mul_f32 v4, v4, v5', ...tail].join('\n') },
  { name: 'share_b', body: [...head, 'v_mul_f32 v4, v2, v3', 'v_fma_f32 v4, v2, v4, v3', 'v_rcp_f32 v5, v4', 'v_min_f32 v4, v4, v5', 'v_cvt_f64_f32 v[6:7], v4', 'v_add_f64 v[6:7], v[6:7], v[6:7]', 'v_ffbh_u32 v8, v6', 'v_xor_b32 v4, v7, v8', ...tail].join('\n') },
];
const directives = ['.amdhsa_user_sgpr_kernarg_segment_ptr 1'];

/** share_a, share_b, share_a_w64, share_b_w64. */
export function helperCacheShaders(): Shader[] {
  return [false, true].flatMap((wave64) => [...assembleShaders('gfx1030', specs.map((s) => ({ ...s, name: `${s.name}${wave64 ? '_w64' : ''}`, wave64, directives }))).values()]);
}
