// The float atomics and the M0-based DS forms (issue 7) on three engines: each case of
// ./cases-float-atomics.ts runs on the RDNA interpreter (the oracle), on the IR interpreter (the
// translation, with the float atomics' helpers: the exact integer lowering of the IR float ops)
// and recompiled on lavapipe with the validation layer on; each module passes spirv-val; every
// buffer must equal the interpreter's byte for byte.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { recompile } from '../../src/backend/recompile.js';
import { LAVAPIPE_PROFILE } from '../../src/backend/profile.js';
import { VulkanDevice } from '../../src/runtime/vulkan.js';
import { spirvVal } from '../harness/spirv.js';
import { both, LVP, same } from './harness.js';
import { interpret, irRun } from './cases.js';
import { floatAtomicCases, floatAtomicsArgs, openClFloatAtomicCase } from './cases-float-atomics.js';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OPENCL_FIXTURES } from '../harness/opencl.js';
import { Rng } from '../harness/rng.js';
import { TranslateError } from '../../src/frontend/errors.js';
import { assemble } from '../interp/harness.js';

test('float atomics (DS, GLOBAL, MUBUF, FLAT; f32 and f64), ds_*_addtid_b32 and ds_append/consume: the IR interpreter equals the interpreter, wave32 and wave64', () => {
  for (const c of floatAtomicCases()) {
    const ref = interpret(c);
    assert.ok(ref[c.writes ?? 0]?.some((v) => v !== 0), `${c.name} wrote its results`);
    same(`${c.name} (IR interpreter)`, [ref, irRun(c)]);
  }
});

test('the same cases recompiled on lavapipe equal the interpreter byte for byte, wave32 and wave64', async () => {
  assert.ok(LVP, 'lavapipe (mesa-vulkan-drivers) is not installed');
  const dev = VulkanDevice.open({ driverFiles: LVP, validation: true });
  try {
    for (const c of floatAtomicCases()) {
      spirvVal(recompile(c.shader, { profile: LAVAPIPE_PROFILE }).spirv, c.spirvName);
      same(`${c.name} (Vulkan)`, await both(dev, c));
    }
  } finally {
    dev.close();
  }
});

test('OpenCL float atomics (clang-19: ds_add_f32, ds_min_f32 and a compare-and-swap loop on a float max): the interpreter, the IR interpreter and Vulkan equal pocl byte for byte, wave32 and wave64', async () => {
  assert.ok(LVP, 'lavapipe (mesa-vulkan-drivers) is not installed');
  const doc = floatAtomicsArgs(new Rng(77));
  const args = join(mkdtempSync(join(tmpdir(), 'rdna-fatom-')), 'args.json');
  writeFileSync(args, JSON.stringify(doc));
  const POCL = new URL('../harness/pocl-run.py', import.meta.url).pathname;
  const pocl = spawnSync('/usr/bin/python3', [POCL, join(OPENCL_FIXTURES, 'float-atomics.cl'), args, `-I${OPENCL_FIXTURES}`], { encoding: 'utf8', maxBuffer: 1 << 26 });
  assert.equal(pocl.status, 0, `pocl: ${pocl.stderr}`);
  const want = (JSON.parse(pocl.stdout) as { buffers: { arg: number; base64: string }[] }).buffers.find((b) => b.arg === 0)?.base64;
  assert.ok(want);
  const dev = VulkanDevice.open({ driverFiles: LVP, validation: true });
  try {
    for (const wave64 of [false, true]) {
      const c = openClFloatAtomicCase(wave64, doc);
      const [ref, vk] = await both(dev, c);
      assert.equal(Buffer.from(ref[0] as Uint8Array).toString('base64'), want, `${c.name}: the interpreter differs from pocl`);
      same(`${c.name} (IR interpreter)`, [ref, irRun(c)]);
      same(`${c.name} (Vulkan)`, [ref, vk]);
    }
  } finally {
    dev.close();
  }
});

test('the GDS forms of ds_wrxchg2(st64)_rtn_b64 and ds_condxchg32_rtn_b64 are refused by the translation with the pc and instruction', () => {
  for (const [asm, mnemonic] of [['ds_wrxchg2_rtn_b64 v[4:7], v1, v[2:3], v[2:3] offset1:1 gds', 'ds_wrxchg2_rtn_b64'], ['ds_wrxchg2st64_rtn_b64 v[4:7], v1, v[2:3], v[2:3] offset1:1 gds', 'ds_wrxchg2st64_rtn_b64'], ['ds_condxchg32_rtn_b64 v[4:5], v1, v[2:3] gds', 'ds_condxchg32_rtn_b64']] as const) {
    const k = assemble('gfx1030', [{ name: 'refused', body: `v_mov_b32 v1, 0\n  ${asm}\n  s_endpgm`, directives: ['.amdhsa_group_segment_fixed_size 64'] }]).get('refused');
    assert.ok(k);
    assert.throws(() => recompile(k, { profile: LAVAPIPE_PROFILE }), (e: unknown) => e instanceof TranslateError && e.message.startsWith('pc 0x4: ') && e.message.includes(`${mnemonic} with gds (global data share) is not translated`), asm);
  }
});
