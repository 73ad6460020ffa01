// Image (MIMG storage) instructions for the engine suites: the scenarios of
// tests/interp/image-kernels.ts (image_load/_mip over 1D, 2D, 3D and array images in several
// formats, d16, dmask subsets, DST_SEL swizzles, out-of-bounds and negative coordinates, A16, NSA,
// BASE_LEVEL/LAST_LEVEL and mips, BASE_ARRAY, gfx1030's custom pitch; image_store/_mip; the
// integer atomics with returns, 32- and 64-bit; the float atomics apart), wave32 and wave64. Each kernel copies
// the image to a 256-byte aligned place of its work buffer first, and its results, the image
// after the run and a zeroed work buffer are what the engines must agree on. This file belongs
// to the interpreter's image work (wt-img); the recompiler side reuses it as it is.
import assert from 'node:assert/strict';
import { loadShaders } from '../../src/container/shader.js';
import { assembleKernels } from '../harness/kernel.js';
import { imageBuffers, imageFloatAtomicScenarios, imageKernel, imageScenarios, type ImageScenario } from '../interp/image-kernels.js';
import type { EngineCase } from './cases.js';

/** The directives every image kernel needs (kernarg pointer, 40 bytes of kernarg: five buffers). */
export const IMAGE_DIRECTIVES = ['.amdhsa_user_sgpr_kernarg_segment_ptr 1', '.amdhsa_kernarg_size 64'] as const;

function* casesOf(scenarios: (ws: 32 | 64) => ImageScenario[]): Generator<EngineCase> {
  for (const ws of [32, 64] as const) {
    const scs = scenarios(ws);
    const code = assembleKernels('gfx1030', scs.map((sc) => ({ name: sc.name, body: imageKernel(sc), wave64: ws === 64, vgprs: 32, sgprs: 56, directives: [...IMAGE_DIRECTIVES] })));
    const shaders = loadShaders({ bytes: code, name: 'image' });
    for (const sc of scs) {
      const shader = shaders.find((s) => s.info.name === sc.name);
      assert.ok(shader, sc.name);
      yield { name: `${sc.name}: ${sc.ops.length} ops`, spirvName: sc.name, code, kernel: sc.name, shader, buffers: imageBuffers(sc), grid: [ws, 1, 1], block: [ws, 1, 1], scalars: [], writes: 0 };
    }
  }
}

/** image_load/_mip, image_store/_mip and the integer image atomics. */
export function* imageCases(): Generator<EngineCase> {
  yield* casesOf((ws) => imageScenarios(ws));
}

/** image_atomic_fcmpswap/fmin/fmax on 32_FLOAT (apart: an engine may leave them out). */
export function* imageFloatAtomicCases(): Generator<EngineCase> {
  yield* casesOf((ws) => imageFloatAtomicScenarios(ws));
}
