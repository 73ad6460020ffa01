// Image sampling with point filtering and gather4 (image_sample*, image_gather4*: ./cases-sample.ts) on three engines: the RDNA
// interpreter, the IR interpreter (the translation) and recompiled on lavapipe with the validation
// layer on (each module through spirv-val), each equal to the results of the model in
// ./cases-sample.ts (written there from the readings, not by src/). Then the refusals: S#s, T#s and
// lanes outside what src/image/sample.ts models fault at run time on every engine (the interpreter
// with UnimplementedError, the others with FAULT_SAMPLE's RuntimeFault), and the forms the words
// rule out are refused at translation.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { recompile } from '../../src/backend/recompile.js';
import { LAVAPIPE_PROFILE } from '../../src/backend/profile.js';
import { TranslateError } from '../../src/frontend/errors.js';
import { FAULT_SAMPLE, faultMessage, RuntimeFault } from '../../src/ir/faults.js';
import { UnimplementedError } from '../../src/interp/errors.js';
import { VulkanDevice } from '../../src/runtime/vulkan.js';
import { runOnVulkan } from '../../src/runtime/engine.js';
import { spirvVal } from '../harness/spirv.js';
import { Rng } from '../harness/rng.js';
import { assemble } from '../interp/harness.js';
import { LVP } from './harness.js';
import { interpret, irRun, prepare } from './cases.js';
import { faultScenarios, sampleCase, sampleCases, type SampleCase } from './cases-sample.js';

function check(name: string, want: readonly Uint8Array[], got: readonly Uint8Array[]): void {
  want.forEach((w, k) => {
    const g = got[k] as Uint8Array;
    const i = w.findIndex((x, j) => x !== g[j]);
    const at = i & ~3;
    assert.equal(i, -1, `${name}: buffer ${k} differs at byte 0x${i.toString(16)}${k === 0 ? ` (lane ${at >> 4}, dword ${(at >> 2) & 3})` : ''}: want ${Buffer.from(w.subarray(at, at + 4)).toString('hex')}, got ${Buffer.from(g.subarray(at, at + 4)).toString('hex')}`);
  });
}

const wanted = (c: SampleCase): readonly Uint8Array[] => {
  assert.ok(Array.isArray(c.want), `${c.name}: the model says lanes ${JSON.stringify(c.want)} fault`);
  return c.want as readonly Uint8Array[];
};

test('image_sample with point filtering (every address mode, normalized or not, TRUNC_COORD 0/1, NaN/inf/huge/boundary coordinates, borders, d16/A16/NSA, _l/_lz/_o and the implicit forms, every class but cube) and image_gather4 (the footprint under every address mode, each component, d16/A16, _o, _l): the interpreter, the IR interpreter and lavapipe equal the model', async () => {
  assert.ok(LVP, 'lavapipe (mesa-vulkan-drivers) is not installed');
  const dev = VulkanDevice.open({ driverFiles: LVP, validation: true });
  let n = 0;
  try {
    for (const c of sampleCases()) {
      const want = wanted(c);
      check(`${c.name}: interpreter`, want, interpret(c));
      check(`${c.name}: IR interpreter`, want, irRun(c));
      spirvVal(recompile(c.shader, { profile: LAVAPIPE_PROFILE }).spirv, c.spirvName);
      const vk = c.buffers.map((b) => b.slice());
      await runOnVulkan(c.shader, prepare(c.shader, vk, c.grid, c.block, c.scalars), dev);
      check(`${c.name}: Vulkan`, want, vk);
      n++;
    }
  } finally {
    dev.close();
  }
  assert.ok(n >= 55, `${n} cases`);
});

test('S#s, T#s and lanes sampling does not model: the interpreter stops, the IR interpreter and lavapipe fault (FAULT_SAMPLE)', async () => {
  assert.ok(LVP, 'lavapipe (mesa-vulkan-drivers) is not installed');
  const dev = VulkanDevice.open({ driverFiles: LVP, validation: true });
  const message = new RegExp(faultMessage(FAULT_SAMPLE).slice(0, 40).replace(/[()#]/g, '.'));
  try {
    const rng = new Rng(9);
    for (const sc of faultScenarios()) {
      const c = sampleCase(sc, rng);
      assert.throws(() => interpret(c), (x: unknown) => x instanceof UnimplementedError && /image_(sample|gather4)/.test(x.message), `${sc.name}: the interpreter refuses`);
      assert.throws(() => irRun(c), (x: unknown) => x instanceof RuntimeFault && message.test(x.message), `${sc.name}: the IR interpreter faults`);
      await assert.rejects(runOnVulkan(c.shader, prepare(c.shader, c.buffers.map((b) => b.slice()), c.grid, c.block, c.scalars), dev), (x: unknown) => x instanceof RuntimeFault && message.test(x.message), `${sc.name}: Vulkan faults`);
      // Lane faults: the model names the same lanes.
      if (!Array.isArray(c.want)) assert.ok((c.want as { faults: number[] }).faults.length > 0);
    }
  } finally {
    dev.close();
  }
});

test('sample forms the words rule out: refused at translation with the instruction (the _c forms are not translated at all)', () => {
  for (const [asm, why] of [
    ['image_sample_c v[2:5], v[0:2], s[8:15], s[16:19] dmask:0xf dim:SQ_RSRC_IMG_2D', /image_sample_c is not translated yet/],
    ['image_sample v[2:5], v[0:2], s[8:15], s[16:19] dmask:0xf dim:SQ_RSRC_IMG_CUBE', /image_sample on a cube/],
    ['image_sample v[2:6], v[0:1], s[8:15], s[16:19] dmask:0xf dim:SQ_RSRC_IMG_2D tfe', /image_sample with tfe or lwe is not modelled/],
  ] as const) {
    const k = assemble('gfx1030', [{ name: 'refused', body: `v_mov_b32 v1, 0\n  ${asm}\n  s_endpgm` }]).get('refused');
    assert.ok(k);
    assert.throws(() => recompile(k, { profile: LAVAPIPE_PROFILE }), (e: unknown) => e instanceof TranslateError && e.message.startsWith('pc 0x4: ') && why.test(e.message), asm);
  }
});
