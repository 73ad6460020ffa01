// The remaining float VALU ops (tests/runtime/cases-vfloat.ts) recompiled and run on lavapipe with
// the Khronos validation layer on: each kernel under its first mode, wave32 and wave64; each module
// passes spirv-val, every float op of the unit is emulated (lowered to integer code), and every
// buffer equals the RDNA interpreter's byte for byte. (tests/frontend/translate-vfloat.test.ts runs
// every mode on the IR interpreter.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { recompile } from '../../src/backend/recompile.js';
import { LAVAPIPE_PROFILE } from '../../src/backend/profile.js';
import { VulkanDevice } from '../../src/runtime/vulkan.js';
import { spirvVal } from '../harness/spirv.js';
import { both, LVP, same } from './harness.js';
import { vfloatCases } from './cases-vfloat.js';
import { pairKernel, prepare } from './cases.js';
import { dispatchIr } from '../../src/ir/dispatch.js';
import { addF32, envFor, fmaF32, mulF32, subF32 } from '../../src/float/index.js';
import { dwords, KERNARG_DIRECTIVES } from '../interp/harness.js';
import { assembleKernels, type KernelSpec } from '../harness/kernel.js';
import { loadShaders } from '../../src/container/shader.js';
import { Rng } from '../harness/rng.js';

test('the remaining float VALU ops on lavapipe equal the interpreter byte for byte, wave32 and wave64', async () => {
  assert.ok(LVP, 'lavapipe (mesa-vulkan-drivers) is not installed');
  const dev = VulkanDevice.open({ driverFiles: LVP, validation: true });
  try {
    let n = 0;
    for (const c of vfloatCases(true)) {
      const r = recompile(c.shader, { profile: LAVAPIPE_PROFILE });
      for (const op of ['ConvertRpiS32F32', 'ConvertU8F32', 'FNorm16F32', 'FNorm16F16', 'FMin32', 'FMin16']) {
        assert.ok(r.floatOps.every((f) => f.op !== op || f.lowering === 'emulated' || (f.lowering === 'dynamic' && f.emulated === f.variants)), `${c.name}: ${op} emulated`);
      }
      spirvVal(r.spirv, c.spirvName);
      const res = await both(dev, c);
      assert.ok(res[0][1]?.some((v) => v !== 0), `${c.name} wrote its results`);
      same(c.name, res);
      n++;
    }
    assert.equal(n, 8);
  } finally {
    dev.close();
  }
});

function one(spec: KernelSpec): { code: Uint8Array; shader: ReturnType<typeof loadShaders>[number] } {
  const code = assembleKernels('gfx1030', [{ ...spec, directives: [...KERNARG_DIRECTIVES, ...(spec.directives ?? [])] }]);
  const shader = loadShaders({ bytes: code, name: 'test' }).find((s) => s.info.name === spec.name);
  assert.ok(shader);
  return { code, shader };
}

// The guarded f32 add/sub/mul/fma (src/ir/passes/lower-float-guarded.ts; lavapipe runs every one of
// them guarded): each a single CallGuarded instruction of the lowered IR, and on lanes of both of
// its paths in every wave (the fast helper's, operands of moderate exponents; the exact helper's,
// an operand that is zero, denormal, infinite or NaN, which the fast domain leaves out) the Vulkan
// module, the IR interpreter on the lowered IR (CallGuarded's own meaning) and the float model give
// the same bits, under directed rounding and flushing modes.
test('guarded f32 ops: one CallGuarded per op; Vulkan, the IR interpreter on the lowered IR and the float model agree on fast and exact lanes', async () => {
  assert.ok(LVP, 'lavapipe (mesa-vulkan-drivers) is not installed');
  const dev = VulkanDevice.open({ driverFiles: LVP, validation: true });
  const rng = new Rng(77);
  const ops = `
  v_add_f32 v5, v3, v4
  v_sub_f32 v6, v3, v4
  v_mul_f32 v7, v3, v4
  v_fma_f32 v8, v3, v4, v3
  global_store_dwordx4 v2, v[5:8], s[6:7]
  s_endpgm`;
  const EXACT = [0, 0x80000000, 1, 0x807fffff, 0x7f800000, 0xff800000, 0x7fc00000, 0xffa00001];
  // A normal value of biased exponent in [100, 150] (every guarded op's fast domain, the sums' and products' too).
  const moderate = () => ((rng.u32() & 0x807fffff) | ((100 + (rng.u32() % 51)) << 23)) >>> 0;
  try {
    for (const wave64 of [false, true]) for (const floatMode of [0xf1, 0xf2, 0x03]) {
      const name = `guarded${wave64 ? 64 : 32}_${floatMode.toString(16)}`;
      const { code, shader } = one({ name, body: pairKernel(4, ops), wave64, floatMode, vgprs: 16, sgprs: 16, directives: ['.amdhsa_system_sgpr_workgroup_id_x 1'] });
      const r = recompile(shader, { profile: LAVAPIPE_PROFILE });
      assert.deepEqual(r.floatOps.map((f) => `${f.op} ${f.lowering}`), ['FAdd32 guarded', 'FSub32 guarded', 'FMul32 guarded', 'FFma32 guarded'], name);
      const calls = r.ir.blocks.flatMap((b) => b.insts.filter((i) => i.op === 'CallGuarded' || i.op === 'Call'));
      assert.deepEqual(calls.map((i) => i.op), ['CallGuarded', 'CallGuarded', 'CallGuarded', 'CallGuarded'], name);
      spirvVal(r.spirv, name);
      const n = 128;
      // Per lane one operand pair: both moderate (fast), or one of them an EXACT value (exact); each wave gets both kinds.
      const fast = Array.from({ length: n }, (_, l) => (l % 64 < 2 ? l % 2 === 0 : rng.u32() % 2 === 0));
      const pairs = fast.map((f): [number, number] => (f ? [moderate(), moderate()] : rng.u32() % 2 ? [EXACT[rng.u32() % EXACT.length] ?? 0, moderate()] : [moderate(), EXACT[rng.u32() % EXACT.length] ?? 0]));
      const c = { name, spirvName: name, code, kernel: name, shader, buffers: [dwords(pairs.flat()), new Uint8Array(16 * n)], grid: [n, 1, 1] as const, block: [64, 1, 1] as const, scalars: [] };
      const res = await both(dev, c);
      same(name, res);
      // The IR interpreter on the recompiled (lowered) IR.
      const bufs = c.buffers.map((b) => b.slice());
      const p = prepare(shader, bufs, c.grid, c.block);
      dispatchIr(r.ir, shader, { grid: c.grid, block: c.block, kernarg: p.kernarg, mem: p.mem, maxSteps: 50_000_000 });
      same(`${name} (IR interpreter, lowered)`, [bufs, res[1]]);
      // The kernel's MODE: its float-mode byte with DX10_CLAMP and IEEE on (the harness's defaults).
      const env = envFor(floatMode | 0x300, 'f32');
      const out = new DataView((res[1][1] as Uint8Array).buffer);
      pairs.forEach(([a, b], l) => {
        const want = [addF32(a, b, env), subF32(a, b, env), mulF32(a, b, env), fmaF32(a, b, a, env)];
        want.forEach((w, k) => assert.equal(out.getUint32(16 * l + 4 * k, true), w >>> 0, `${name} lane ${l} op ${k}: a=0x${a.toString(16)} b=0x${b.toString(16)}`));
      });
    }
  } finally {
    dev.close();
  }
});
