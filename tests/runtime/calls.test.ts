// Subroutine calls, returns and computed jumps through the whole recompiler (src/analysis/calls.ts,
// src/frontend/calls.ts): the engine suite 'calls and computed jumps' (tests/runtime/call-kernels.ts)
// recompiled, valid for spirv-val, and run on lavapipe equal byte for byte to the interpreter,
// wave32 and wave64; a return whose pair holds no return site faults on both recompiled engines
// (the IR interpreter and Vulkan) with the pc; targets the CFG cannot resolve are TranslateErrors
// with the pc and the instruction.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { recompile } from '../../src/backend/recompile.js';
import { LAVAPIPE_PROFILE } from '../../src/backend/profile.js';
import { TranslateError } from '../../src/frontend/errors.js';
import { RuntimeFault } from '../../src/ir/faults.js';
import { InterpError } from '../../src/interp/errors.js';
import { dispatchIr } from '../../src/ir/dispatch.js';
import { runOnVulkan } from '../../src/runtime/engine.js';
import { VulkanDevice } from '../../src/runtime/vulkan.js';
import { spirvVal } from '../harness/spirv.js';
import { assemble } from '../interp/harness.js';
import { ENGINE_SUITES, interpret, prepare } from './cases.js';
import { both, LVP, same } from './harness.js';
import { buildCfg } from '../../src/analysis/cfg.js';
import { analyzeMode } from '../../src/analysis/mode.js';
import { translate } from '../../src/frontend/index.js';

test('calls, returns and computed jumps: recompiled kernels on lavapipe equal the interpreter byte for byte, wave32 and wave64', async () => {
  assert.ok(LVP, 'lavapipe (mesa-vulkan-drivers) is not installed');
  const suite = ENGINE_SUITES.find((s) => s.title === 'calls and computed jumps');
  assert.ok(suite);
  const dev = VulkanDevice.open({ driverFiles: LVP, validation: true });
  let n = 0;
  try {
    for (const c of suite.cases()) {
      const r = recompile(c.shader, { profile: LAVAPIPE_PROFILE });
      spirvVal(r.spirv, c.spirvName);
      if (c.controlFlow !== undefined) assert.equal(r.controlFlow, c.controlFlow, c.name);
      const res = await both(dev, c);
      if (c.writes !== undefined) assert.ok(res[0][c.writes]?.some((v) => v !== 0), `${c.name} wrote its results`);
      same(c.name, res);
      n++;
    }
  } finally {
    dev.close();
  }
  assert.equal(n, 84);
});

const KERNEL = { vgprs: 16, sgprs: 32, directives: ['.amdhsa_system_sgpr_workgroup_id_x 1'] };
const PRE = `
  s_load_dwordx2 s[6:7], s[0:1], 0x0
  v_lshlrev_b32 v2, 2, v0
  v_mov_b32 v1, 5
  s_waitcnt lgkmcnt(0)`;

test('a return whose pair holds none of its return sites faults with the pc on the IR interpreter and on Vulkan (the interpreter jumps there)', async () => {
  // The callee moves its return address one instruction on before returning (in another block,
  // so the CFG still sees a return): the interpreter skips the v_mov after the call, the
  // recompiled return matches no site.
  const body = `${PRE}
  s_call_b64 s[30:31], .Lsub
  v_mov_b32 v1, 9
  global_store_dword v2, v1, s[6:7]
  s_endpgm
.Lsub:
  s_add_u32 s30, s30, 4
  s_branch .Lret
.Lret:
  s_setpc_b64 s[30:31]`;
  const shader = assemble('gfx1030', [{ name: 'bad_return', body, ...KERNEL }]).get('bad_return');
  assert.ok(shader);
  const grid = [32, 1, 1] as const, block = [32, 1, 1] as const;
  const ref = interpret({ shader, buffers: [new Uint8Array(128)], grid: [...grid], block: [...block], scalars: [] });
  assert.deepEqual([...new Uint32Array((ref[0] as Uint8Array).buffer).slice(0, 2)], [5, 5], 'the interpreter returns past the v_mov');
  const cfg = buildCfg(shader);
  const ret = cfg.blocks.find((b) => b.exit === 'return');
  assert.ok(ret);
  const setpc = ret.instructions[0];
  assert.ok(setpc);
  const r = recompile(shader, { profile: LAVAPIPE_PROFILE });
  spirvVal(r.spirv, 'bad_return');
  const fn = translate(shader, cfg, analyzeMode(shader, cfg));
  const p = prepare(shader, [new Uint8Array(128)], [...grid], [...block]);
  assert.throws(() => dispatchIr(fn, shader, { grid: [...grid], block: [...block], kernarg: p.kernarg, mem: p.mem, maxSteps: 1_000_000 }),
    (e: unknown) => e instanceof RuntimeFault && e.pc === setpc.pc && /s_setpc_b64 returns to an address that is not the return site/.test(e.message));
  assert.ok(LVP, 'lavapipe (mesa-vulkan-drivers) is not installed');
  const dev = VulkanDevice.open({ driverFiles: LVP, validation: true });
  try {
    const vk = [new Uint8Array(128)];
    await assert.rejects(runOnVulkan(shader, prepare(shader, vk, [...grid], [...block]), dev),
      (e: unknown) => e instanceof RuntimeFault && new RegExp(`^pc 0x${setpc.pc.toString(16)}: s_setpc_b64 s\\[30:31\\]: s_setpc_b64 returns to an address`).test(e.message));
    assert.ok(vk[0]?.every((x) => x === 0), 'nothing was stored');
  } finally {
    dev.close();
  }
});

// A call of a function an unlinked (relocatable) object does not resolve: the assembler's placeholders (0) in the two adds.
const RELOCATED = `${PRE}
  s_getpc_b64 s[16:17]
  s_add_u32 s16, s16, external_fn@rel32@lo+4
  s_addc_u32 s17, s17, external_fn@rel32@hi+12
  s_swappc_b64 s[30:31], s[16:17]
  s_endpgm`;

test('jump and call targets the CFG cannot resolve are TranslateErrors with the pc and the instruction', () => {
  const cases: [string, string, RegExp][] = [
    ['setpc_loaded', `${PRE}
  s_load_dwordx2 s[8:9], s[0:1], 0x8
  s_waitcnt lgkmcnt(0)
  s_setpc_b64 s[8:9]
  s_endpgm`, /^pc 0x[0-9a-f]+: s_setpc_b64 s\[8:9\] \([0-9a-f]+\): jump target is not a constant known in this block: the graph is incomplete here \[unresolved-jump\]$/],
    ['swappc_loaded', `${PRE}
  s_load_dwordx2 s[8:9], s[0:1], 0x8
  s_waitcnt lgkmcnt(0)
  s_swappc_b64 s[30:31], s[8:9]
  s_endpgm`, /^pc 0x[0-9a-f]+: s_swappc_b64 s\[30:31\], s\[8:9\] \([0-9a-f]+\): the call target is not a constant known in this block/],
    // A target known only in the block before (the CFG's constants are block-local).
    ['setpc_other_block', `${PRE}
  s_getpc_b64 s[16:17]
  s_branch .Lnext
.Lnext:
  s_setpc_b64 s[16:17]`, /^pc 0x[0-9a-f]+: s_setpc_b64 s\[16:17\] \([0-9a-f]+\): jump target is not a constant known in this block/],
    // An object that is not linked: the call's target is a relocation the loader does not apply.
    ['relocated', RELOCATED, /^pc 0x[0-9a-f]+: s_add_u32 s16, s16, 0 \([0-9a-f ]+\): a relocation of this relocatable object applies to this instruction and is not applied .*\[unapplied-relocation\]$/],
    ['rfe', `${PRE}
  s_getpc_b64 s[16:17]
  s_rfe_b64 s[16:17]`, /^pc 0x[0-9a-f]+: s_rfe_b64 s\[16:17\] \([0-9a-f]+\): s_rfe_b64 is not translated yet$/],
  ];
  for (const [name, body, why] of cases) {
    const shader = assemble('gfx1030', [{ name, body, ...KERNEL }]).get(name);
    assert.ok(shader);
    assert.throws(() => recompile(shader, { profile: LAVAPIPE_PROFILE }), (e: unknown) => e instanceof TranslateError && why.test(e.message), `${name}: ${(() => { try { recompile(shader, { profile: LAVAPIPE_PROFILE }); return 'no error'; } catch (e) { return String(e); } })()}`);
  }
});

test('the interpreter stops where it reaches an unapplied relocation, with the pc, the instruction and the CFG\'s words, instead of running the placeholder', () => {
  const shader = assemble('gfx1030', [{ name: 'relocated', body: RELOCATED, ...KERNEL }]).get('relocated');
  assert.ok(shader);
  assert.throws(() => interpret({ shader, buffers: [new Uint8Array(256)], grid: [32, 1, 1], block: [32, 1, 1], scalars: [] }),
    (e: unknown) => e instanceof InterpError && /^pc 0x[0-9a-f]+: s_add_u32 s16, s16, 0 \([0-9a-f ]+\): a relocation of this relocatable object applies to this instruction and is not applied \(its words hold the placeholder\): link the object \(ld\.lld\) first$/.test(e.message));
});
