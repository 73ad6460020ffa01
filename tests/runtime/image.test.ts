// Image (MIMG) storage instructions on three engines: each case runs on the RDNA interpreter (the
// oracle), on the IR interpreter (the translation) and recompiled on lavapipe with the validation
// layer on; each module passes spirv-val; every buffer must equal the interpreter's byte for byte.
// The cases (./image-vk-cases.ts): ./cases-image.ts's imageCases and imageFloatAtomicCases (the
// interpreter's scenarios, tests/interp/image-kernels.ts; on Vulkan with barriers between the
// kernel's phases), then ./image-vk-kernels.ts's (every class, format sizes and number formats,
// DST_SEL, mip chains, custom pitch, A16/D16/R128/NSA, partial EXEC, out-of-bounds lanes, stores,
// atomics).
// Then the refusals: static ones (a TranslateError at translation), run-time ones (a RuntimeFault
// with FAULT_IMAGE's message on the IR interpreter and on Vulkan, where the interpreter refuses).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { recompile } from '../../src/backend/recompile.js';
import { LAVAPIPE_PROFILE } from '../../src/backend/profile.js';
import { TranslateError } from '../../src/frontend/errors.js';
import { FAULT_IMAGE, faultMessage, RuntimeFault } from '../../src/ir/faults.js';
import { UnimplementedError } from '../../src/interp/errors.js';
import { VulkanDevice } from '../../src/runtime/vulkan.js';
import { runOnVulkan } from '../../src/runtime/engine.js';
import { spirvVal } from '../harness/spirv.js';
import { Rng } from '../harness/rng.js';
import { assemble } from '../interp/harness.js';
import { both, LVP, same } from './harness.js';
import { type EngineCase, interpret, irRun, prepare } from './cases.js';
import { cfg, imageVkCases, sharedImageCases } from './image-vk-cases.js';
import { atomicKernel, d16Kernel, fmt, type ImageConfig, imageCase, type ImageKernel, loadKernel, storeKernel } from './image-vk-kernels.js';

test('image loads, stores and atomics (every class, formats of each size and number format, DST_SEL, mips, pitch, A16/D16/R128/NSA, out-of-bounds lanes): the IR interpreter and lavapipe equal the interpreter, wave32 and wave64', async () => {
  assert.ok(LVP, 'lavapipe (mesa-vulkan-drivers) is not installed');
  const dev = VulkanDevice.open({ driverFiles: LVP, validation: true });
  try {
    const validated = new Set<string>();
    let n = 0;
    for (const [c, vkCase] of sharedImageCases()) {
      spirvVal(recompile(vkCase.shader, { profile: LAVAPIPE_PROFILE }).spirv, vkCase.spirvName);
      const ref = interpret(c);
      assert.ok(ref[0]?.some((v) => v !== 0), `${c.name} wrote its results`);
      same(`${c.name} (IR interpreter)`, [ref, irRun(c)]);
      const [ref2, vk] = await both(dev, vkCase);
      same(`${vkCase.name} (interpreter)`, [ref, ref2]);
      same(`${vkCase.name} (Vulkan)`, [ref, vk]);
      n++;
    }
    for (const c of imageVkCases()) {
      if (!validated.has(c.spirvName)) spirvVal(recompile(c.shader, { profile: LAVAPIPE_PROFILE }).spirv, c.spirvName);
      validated.add(c.spirvName);
      const [ref, vk] = await both(dev, c).catch((e: unknown) => { throw new Error(`${c.name}: ${String(e)}`); });
      if (c.writes !== undefined) assert.ok(ref[c.writes]?.some((v) => v !== 0), `${c.name} wrote its results`);
      same(`${c.name} (IR interpreter)`, [ref, irRun(c)]);
      same(`${c.name} (Vulkan)`, [ref, vk]);
      n++;
    }
    assert.ok(n > 100, `${n} cases`);
  } finally {
    dev.close();
  }
});

test('image forms the plan does not model: refused at translation with the instruction', () => {
  for (const [asm, why] of [
    ['image_load v[2:5], v[0:2], s[8:15] dmask:0xf dim:SQ_RSRC_IMG_2D_MSAA', /image_load with an MSAA dim \(6\) is not modelled/],
    ['image_load v[2:6], v[0:1], s[8:15] dmask:0xf dim:SQ_RSRC_IMG_2D tfe', /image_load with tfe or lwe is not modelled/],
    ['image_atomic_fmin v[2:3], v[0:1], s[8:15] dmask:0x3 dim:SQ_RSRC_IMG_2D', /image_atomic_fmin with dmask 0x3 is not modelled \(dmask 0x1\)$/],
  ] as const) {
    const k = assemble('gfx1030', [{ name: 'refused', body: `v_mov_b32 v1, 0\n  ${asm}\n  s_endpgm` }]).get('refused');
    assert.ok(k);
    assert.throws(() => recompile(k, { profile: LAVAPIPE_PROFILE }), (e: unknown) => e instanceof TranslateError && e.message.startsWith('pc 0x4: ') && why.test(e.message), asm);
  }
});

test('T#s the image instructions do not implement: a RuntimeFault (FAULT_IMAGE) on the IR interpreter and on lavapipe where the interpreter refuses; none with EXEC empty', async () => {
  assert.ok(LVP, 'lavapipe (mesa-vulkan-drivers) is not installed');
  const rng = new Rng(7);
  const load = loadKernel('2d'), store = storeKernel('2d', false), d16 = d16Kernel(), atomic = atomicKernel(false);
  const base = { format: fmt('32_32_32_32_UINT'), w: 4, h: 4 };
  // The dmask case: a non-d16 store of dmask 0x3 to a 4-component format.
  const refusals: [string, ImageKernel, ImageConfig, RegExp][] = [
    ['a tiled SW_MODE', load, cfg('SW_MODE 9', '2d', { ...base, swMode: 9 }, [4, 4, 1]), /a tiled image \(SW_MODE 9\)/],
    ['a TYPE other than the dim\'s', load, cfg('TYPE 3D', '2d', { ...base, type: 10 }, [4, 4, 1]), /TYPE 10 is not its dim's/],
    ['a store to a 12-byte format', store, cfg('32_32_32_UINT', '2d', { ...base, format: fmt('32_32_32_UINT') }, [4, 4, 1]), /image_store with BUF_FMT_32_32_32_UINT: not a format the interpreter stores to an image/],
    ['a d16 store to a 32-bit format', storeKernel('2d', true), cfg('d16 32_UINT', '2d', { ...base, format: fmt('32_UINT') }, [4, 4, 1]), /BUF_FMT_32_UINT \(d16\): not a format the interpreter stores to an image \(d16 stores need components narrower than 32 bits\)/],
    ['a store whose dmask leaves out a component', { name: 'image_store_dmask', cls: '2d', ops: 'image_store v[10:11], v[2:3], s[8:15] dmask:0x3 dim:SQ_RSRC_IMG_2D', results: [] }, cfg('32_32_32_32_UINT, dmask 0x3', '2d', base, [4, 4, 1]), /dmask 0x3 leaves out component z/],
    ['a 12-byte format', load, cfg('32_32_32_FLOAT', '2d', { ...base, format: fmt('32_32_32_FLOAT') }, [4, 4, 1]), /not a format the interpreter loads/],
    ['a d16 load of a 32-bit format', d16, cfg('32_FLOAT', '2d', { ...base, format: fmt('32_FLOAT') }, [4, 4, 1]), /d16 loads of a format with 32-bit components/],
    ['a reserved DST_SEL', load, cfg('DST_SEL 2', '2d', { ...base, dstSel: [4, 5, 2, 7] }, [4, 4, 1]), /reserved DST_SEL value 2/],
    ['an integer atomic on 32_FLOAT', atomic, cfg('32_FLOAT', '2d', { ...base, format: fmt('32_FLOAT') }, [4, 4, 1]), /an image atomic needs 32_UINT or 32_SINT/],
  ];
  const dev = VulkanDevice.open({ driverFiles: LVP, validation: true });
  const message = new RegExp(faultMessage(FAULT_IMAGE).slice(0, 60).replace(/[()]/g, '\\$&'));
  try {
    for (const [what, k, c, interp] of refusals) {
      for (const wave64 of [false, true]) {
        const e = imageCase(k, wave64, c, rng);
        assert.throws(() => interpret(e), (x: unknown) => x instanceof UnimplementedError && interp.test(x.message), `${what}: the interpreter refuses`);
        assert.throws(() => irRun(e), (x: unknown) => x instanceof RuntimeFault && message.test(x.message), `${what}: the IR interpreter faults`);
        await assert.rejects(runOnVulkan(e.shader, prepare(e.shader, e.buffers.map((b) => b.slice()), e.grid, e.block, e.scalars), dev), (x: unknown) => x instanceof RuntimeFault && message.test(x.message), `${what}: Vulkan faults`);
      }
    }
    // With EXEC empty the instruction does nothing, checks nothing (a tiled T#, EXEC 0).
    const e = imageCase(load, false, cfg('SW_MODE 9, EXEC 0', '2d', { ...base, swMode: 9 }, [4, 4, 1], 1, 0), rng);
    const ref = interpret(e);
    same('EXEC 0 (IR interpreter)', [ref, irRun(e)]);
    const vk = e.buffers.map((b) => b.slice());
    await runOnVulkan(e.shader, prepare(e.shader, vk, e.grid, e.block, e.scalars), dev);
    same('EXEC 0 (Vulkan)', [ref, vk]);
  } finally {
    dev.close();
  }
});
