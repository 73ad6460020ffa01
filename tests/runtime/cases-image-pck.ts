// image_get_resinfo and the _pck image loads/stores for the engines: the scenarios of
// tests/interp/image-pck-kernels.ts, wave32 and wave64, each as it is (for the interpreters) and
// with s_barrier between its kernel's phases (for Vulkan: see ./image-vk-cases.ts's withBarriers).
import assert from 'node:assert/strict';
import { loadShaders } from '../../src/container/shader.js';
import { assembleKernels } from '../harness/kernel.js';
import { imageBuffers, imageKernel, type ImageScenario } from '../interp/image-kernels.js';
import { imagePckScenarios, imageResinfoScenarios } from '../interp/image-pck-kernels.js';
import type { EngineCase } from './cases.js';
import { IMAGE_DIRECTIVES } from './cases-image.js';
import { withBarriers } from './image-vk-cases.js';

function casesOf(scs: readonly ImageScenario[], ws: 32 | 64, barriers: boolean): EngineCase[] {
  const code = assembleKernels('gfx1030', scs.map((sc) => ({ name: sc.name, body: barriers ? withBarriers(imageKernel(sc)) : imageKernel(sc), wave64: ws === 64, vgprs: 32, sgprs: 56, directives: [...IMAGE_DIRECTIVES] })));
  const shaders = loadShaders({ bytes: code, name: 'image' });
  return scs.map((sc) => {
    const shader = shaders.find((s) => s.info.name === sc.name);
    assert.ok(shader, sc.name);
    const name = `${sc.name}: ${sc.ops.length} ops${barriers ? ' (with barriers)' : ''}`;
    return { name, spirvName: `${sc.name}${barriers ? '_barriers' : ''}`, code, kernel: sc.name, shader, buffers: imageBuffers(sc), grid: [ws, 1, 1], block: [ws, 1, 1], scalars: [], writes: 0 };
  });
}

/** Each case as it is and with barriers (for Vulkan). */
export function* pckResinfoCases(): Generator<[EngineCase, EngineCase]> {
  for (const ws of [32, 64] as const) {
    const scs = [...imagePckScenarios(ws), ...imageResinfoScenarios(ws)];
    const plain = casesOf(scs, ws, false), vk = casesOf(scs, ws, true);
    for (const [k, c] of plain.entries()) yield [c, vk[k] as EngineCase];
  }
}
