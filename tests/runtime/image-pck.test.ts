// image_get_resinfo and the _pck image loads/stores on three engines: each case
// (./cases-image-pck.ts) on the RDNA interpreter (the oracle; tests/interp/image-pck.test.ts checks
// it against independent expectations), on the IR interpreter and recompiled on lavapipe with the
// validation layer on (its kernel with barriers between phases); each module passes spirv-val and
// every buffer must equal the interpreter's byte for byte, wave32 and wave64. Then the refusals:
// static ones (a TranslateError), run-time ones (a RuntimeFault with FAULT_IMAGE's message on the IR
// interpreter and on Vulkan where the interpreter refuses).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { recompile } from '../../src/backend/recompile.js';
import { LAVAPIPE_PROFILE } from '../../src/backend/profile.js';
import { TranslateError } from '../../src/frontend/errors.js';
import { FAULT_IMAGE, faultMessage, RuntimeFault } from '../../src/ir/faults.js';
import { UnimplementedError } from '../../src/interp/errors.js';
import { VulkanDevice } from '../../src/runtime/vulkan.js';
import { runOnVulkan } from '../../src/runtime/engine.js';
import { loadShaders } from '../../src/container/shader.js';
import { spirvVal } from '../harness/spirv.js';
import { assembleKernels } from '../harness/kernel.js';
import { assemble } from '../interp/harness.js';
import { imageBuffers, imageKernel, type ImageOp, type ImageScenario } from '../interp/image-kernels.js';
import { both, LVP, same } from './harness.js';
import { type EngineCase, interpret, irRun, prepare } from './cases.js';
import { IMAGE_DIRECTIVES } from './cases-image.js';
import { pckResinfoCases } from './cases-image-pck.js';
import { withBarriers } from './image-vk-cases.js';

test('image_get_resinfo and the _pck loads/stores: the IR interpreter and lavapipe equal the interpreter, wave32 and wave64', async () => {
  assert.ok(LVP, 'lavapipe (mesa-vulkan-drivers) is not installed');
  const dev = VulkanDevice.open({ driverFiles: LVP, validation: true });
  try {
    let n = 0;
    for (const [c, vkCase] of pckResinfoCases()) {
      spirvVal(recompile(vkCase.shader, { profile: LAVAPIPE_PROFILE }).spirv, vkCase.spirvName);
      const ref = interpret(c);
      assert.ok(ref[0]?.some((v) => v !== 0), `${c.name} wrote its results`);
      same(`${c.name} (IR interpreter)`, [ref, irRun(c)]);
      const [ref2, vk] = await both(dev, vkCase);
      same(`${vkCase.name} (interpreter)`, [ref, ref2]);
      same(`${vkCase.name} (Vulkan)`, [ref, vk]);
      n++;
    }
    assert.equal(n, 8);
  } finally {
    dev.close();
  }
});

test('resinfo and pck forms the plan does not model: refused at translation with the instruction', () => {
  for (const [asm, why] of [
    ['image_get_resinfo v[2:3], v0, s[8:15] dmask:0x3 dim:SQ_RSRC_IMG_1D', /image_get_resinfo with dmask 0x3 on a 1d resource is not modelled \(what it returns in channel y is not established\)/],
    ['image_get_resinfo v[2:4], v0, s[8:15] dmask:0x7 dim:SQ_RSRC_IMG_2D', /channel z is not established/],
    ['image_get_resinfo v[2:5], v0, s[8:15] dmask:0xf dim:SQ_RSRC_IMG_2D_MSAA', /image_get_resinfo with an MSAA dim \(6\) is not modelled/],
    ['image_get_resinfo v[2:4], v0, s[8:15] dmask:0x3 dim:SQ_RSRC_IMG_2D tfe', /image_get_resinfo with tfe or lwe is not modelled/],
    ['image_load_pck v[2:6], v[0:1], s[8:15] dmask:0xf dim:SQ_RSRC_IMG_2D tfe', /image_load_pck with tfe or lwe is not modelled/],
  ] as const) {
    const k = assemble('gfx1030', [{ name: 'refused', body: `v_mov_b32 v1, 0\n  ${asm}\n  s_endpgm` }]).get('refused');
    assert.ok(k);
    assert.throws(() => recompile(k, { profile: LAVAPIPE_PROFILE }), (e: unknown) => e instanceof TranslateError && e.message.startsWith('pc 0x4: ') && why.test(e.message), asm);
  }
});

/** One-op scenarios the interpreter refuses at run time (a lane in EXEC). */
const lanesOf = (n: number, c: number[]) => Array.from({ length: n }, () => c);
function refusals(ws: 32 | 64): [string, ImageOp, RegExp][] {
  const T = { format: '32_32_UINT', width: 8, height: 8 } as const;
  const r = (dmask: number, t: ImageOp['t'], level: number, dim: ImageOp['dim'] = '2D'): ImageOp => ({ mnemonic: 'image_get_resinfo', dim, dmask, t, coords: lanesOf(ws, [level]) });
  const p = (mnemonic: string, dmask: number, t: ImageOp['t']): ImageOp => ({ mnemonic, dim: '2D', dmask, t, coords: lanesOf(ws, [1, 1]), data: lanesOf(ws, [1, 2, 3, 4]) });
  return [
    ['resinfo: a level past the view', r(0xb, { ...T, maxMip: 2 }, 3), /level 3 of a view of levels 0\.\.2/],
    ['resinfo: a TYPE other than the dim\'s', r(0x1, { ...T, type: 13 }, 0), /TYPE 13 is not its dim's/],
    ['resinfo: a sliced 3D view (ARRAY_PITCH 1)', r(0xf, { ...T, depthField: 3, arrayPitch: 1 }, 0, '3D'), /a 3D T# with ARRAY_PITCH 1 \(a sliced view\)/],
    ['pck load: an 8_8_8_8 format', p('image_load_pck', 0xf, { ...T, format: '8_8_8_8_UINT' }), /with BUF_FMT_8_8_8_8_UINT: not implemented/],
    ['pck load: dmask past the components', p('image_load_pck_sgn', 0x4, T), /dmask 0x4 names channel z, past the format's components/],
    ['pck load: a DST_SEL other than the identity', p('image_load_pck', 0x1, { ...T, dstSel: [1, 5, 6, 7] }), /DST_SEL 1 in channel x/],
    ['pck store: a component left out of dmask', p('image_store_pck', 0x1, T), /dmask 0x1 leaves out component y/],
    ['pck store: a tiled T#', p('image_store_mip_pck', 0x3, { ...T, swMode: 9 }), /a tiled image \(SW_MODE 9\)/],
  ];
}

function caseOf(sc: ImageScenario, barriers: boolean): EngineCase {
  const code = assembleKernels('gfx1030', [{ name: sc.name, body: barriers ? withBarriers(imageKernel(sc)) : imageKernel(sc), wave64: sc.ws === 64, vgprs: 32, sgprs: 56, directives: [...IMAGE_DIRECTIVES] }]);
  const shader = loadShaders({ bytes: code, name: 'image' }).find((s) => s.info.name === sc.name);
  assert.ok(shader);
  return { name: sc.name, spirvName: sc.name, code, kernel: sc.name, shader, buffers: imageBuffers(sc), grid: [sc.ws, 1, 1], block: [sc.ws, 1, 1], scalars: [], writes: 0 };
}

test('run-time refusals of resinfo and the pck forms: a RuntimeFault (FAULT_IMAGE) on the IR interpreter and on lavapipe where the interpreter refuses; none with EXEC empty', async () => {
  assert.ok(LVP, 'lavapipe (mesa-vulkan-drivers) is not installed');
  const dev = VulkanDevice.open({ driverFiles: LVP, validation: true });
  const message = new RegExp(faultMessage(FAULT_IMAGE).slice(0, 60).replace(/[()]/g, '\\$&'));
  try {
    for (const ws of [32, 64] as const) {
      for (const [what, op, interp] of refusals(ws)) {
        const sc: ImageScenario = { name: `refused_${ws}_${op.mnemonic}`, ws, image: new Uint8Array(2048), ops: [op] };
        const e = caseOf(sc, false);
        assert.throws(() => interpret(e), (x: unknown) => x instanceof UnimplementedError && interp.test(x.message), `${what}: the interpreter refuses`);
        assert.throws(() => irRun(e), (x: unknown) => x instanceof RuntimeFault && message.test(x.message), `${what}: the IR interpreter faults`);
        const v = caseOf(sc, true);
        await assert.rejects(runOnVulkan(v.shader, prepare(v.shader, v.buffers.map((b) => b.slice()), v.grid, v.block, v.scalars), dev), (x: unknown) => x instanceof RuntimeFault && message.test(x.message), `${what}: Vulkan faults`);
        // The same op with EXEC empty: nothing done, nothing checked.
        const empty = caseOf({ ...sc, name: `${sc.name}_exec0`, ops: [{ ...op, exec: 0n }] }, true);
        const ref = interpret(empty);
        same(`${what}, EXEC 0 (IR interpreter)`, [ref, irRun(empty)]);
        const vk = empty.buffers.map((b) => b.slice());
        await runOnVulkan(empty.shader, prepare(empty.shader, vk, empty.grid, empty.block, empty.scalars), dev);
        same(`${what}, EXEC 0 (Vulkan)`, [ref, vk]);
      }
    }
  } finally {
    dev.close();
  }
});
