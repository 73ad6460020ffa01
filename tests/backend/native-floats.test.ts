// Which float ops run as native SPIR-V and which are lowered: every float op of the IR's op table
// must be one the emitter emits natively (NATIVE_F32) or one lowerFloat lowers exactly, the native
// ones must be lowerable too (for the modes a device cannot express), and every op on f16 or f64
// values is lowered. A device that promises f32 RTE with denormals kept gets native code for
// exactly those ops, valid for spirv-val, while the rest are emulated.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { OPS, type Op } from '../../src/ir/ops.js';
import { NATIVE_F32 } from '../../src/backend/spirv/emit-ops.js';
import { isLowered, LOWERED_F32 } from '../../src/ir/passes/lower-float.js';
import { GUARDED_DEVICE_ONLY } from '../../src/ir/passes/lower-float-guarded.js';
import { LAVAPIPE_PROFILE, type TargetProfile } from '../../src/backend/profile.js';
import { recompile } from '../../src/backend/recompile.js';
import { assembleShaders } from '../harness/kernel.js';
import { spirvVal } from '../harness/spirv.js';

test('every float op is native or lowered exactly; the native ones can be lowered too; f16 and f64 ops are always lowered', () => {
  const float = (Object.entries(OPS) as [Op, { float?: string; args: readonly string[]; result: string }][]).filter(([, i]) => i.float !== undefined);
  assert.ok(float.length > 80);
  // FSub64 exists only as a device op of the guarded fma's helper (never translated from RDNA code).
  for (const [op] of float) assert.ok(NATIVE_F32.has(op) || isLowered(op) || GUARDED_DEVICE_ONLY.has(op), `${op} is neither native nor lowered`);
  for (const op of GUARDED_DEVICE_ONLY) assert.ok(!isLowered(op) && !NATIVE_F32.has(op), op);
  for (const op of NATIVE_F32) assert.ok(LOWERED_F32.has(op), `${op} is native but cannot be lowered for other modes`);
  for (const [op, i] of float) if (!GUARDED_DEVICE_ONLY.has(op) && [...i.args, i.result].some((t) => t === 'f16' || t === 'f64')) assert.ok(!NATIVE_F32.has(op) && isLowered(op), `${op} has f16/f64 values and must be lowered`);
});

test('a device with f32 RTE and DenormPreserve: native code for the native ops, the fma guarded, the rest emulated, valid SPIR-V', () => {
  const nativeF32: TargetProfile = { ...LAVAPIPE_PROFILE, name: 'native-f32', f32: { ...LAVAPIPE_PROFILE.f32, denormPreserve: true } };
  const body = ['s_load_dwordx2 s[4:5], s[0:1], 0x0', 's_waitcnt lgkmcnt(0)', 'v_lshlrev_b32 v1, 2, v0', 'v_cvt_f32_u32 v2, v0', 'v_add_f32 v3, 0.5, v2', 'v_mul_f32 v3, v3, v2',
    'v_fma_f32 v3, v3, v2, v2', 'v_cvt_u32_f32 v4, v3', 'v_sqrt_f32 v5, v3', 'v_add_nc_u32 v4, v4, v5', 'global_store_dword v1, v4, s[4:5]', 's_endpgm'].join('\n');
  const s = [...assembleShaders('gfx1030', [{ name: 'mix', body, floatMode: 0xf0, directives: ['.amdhsa_user_sgpr_kernarg_segment_ptr 1'] }]).values()][0];
  assert.ok(s);
  const r = recompile(s, { profile: nativeF32 });
  const by = new Map(r.floatOps.map((f) => [f.op, f.lowering]));
  assert.deepEqual([...by.entries()].sort(), [['ConvertF32U32', 'native'], ['ConvertU32F32', 'emulated'], ['FAdd32', 'native'], ['FFma32', 'guarded'], ['FMul32', 'native'], ['FSqrt32', 'emulated']]);
  spirvVal(r.spirv, 'mix');
  // Under lavapipe's own profile (no f32 DenormPreserve) only the conversion from an integer is native (RTE alone decides it).
  assert.deepEqual(recompile(s, { profile: LAVAPIPE_PROFILE }).floatOps.filter((f) => f.lowering === 'native').map((f) => f.op), ['ConvertF32U32']);
});
