// The image engine cases of tests/runtime/image.test.ts (and of a replay on a GPU's driver):
// ./image-vk-kernels.ts's kernels under their configurations (imageVkCases), and
// ./cases-image.ts's cases with barriers between their kernels' phases for Vulkan
// (sharedImageCases).
import assert from 'node:assert/strict';
import type { ImageClass } from '../../src/image/linear.js';
import { loadShaders } from '../../src/container/shader.js';
import { assembleKernels } from '../harness/kernel.js';
import { Rng } from '../harness/rng.js';
import { imageFloatAtomicScenarios, imageKernel, imageScenarios } from '../interp/image-kernels.js';
import type { EngineCase } from './cases.js';
import { IMAGE_DIRECTIVES, imageCases, imageFloatAtomicCases } from './cases-image.js';
import { atomicKernel, d16Kernel, fmt, type ImageConfig, imageCase, type ImageKernel, loadKernel, storeKernel, tsharp } from './image-vk-kernels.js';

export const cfg = (label: string, cls: ImageClass, o: Parameters<typeof tsharp>[1], range: readonly [number, number, number], mips = 1, exec?: number): ImageConfig => ({
  label: `${label} (${cls})`, t: tsharp(cls, o), range, mips, ...(exec !== undefined ? { exec } : {}),
});

/** Load configurations per class: formats of 1, 2, 4, 8 and 16 bytes, every number format, DST_SEL permutations, mip chains and views, custom pitch. */
const LOADS: Readonly<Record<ImageClass, readonly ImageConfig[]>> = {
  '2d': [
    cfg('8_8_8_8_UNORM 13x7, 3 levels', '2d', { format: fmt('8_8_8_8_UNORM'), w: 13, h: 7, maxMip: 2 }, [15, 9, 1], 4),
    cfg('32_32_32_32_FLOAT, DST_SEL w,1,0,x, pitch 80', '2d', { format: fmt('32_32_32_32_FLOAT'), w: 5, h: 6, maxMip: 1, dstSel: [7, 1, 0, 4], pitch: 80 }, [6, 7, 1], 3, 0x7fff7ff6),
    cfg('16_16_FLOAT (z, w missing), view levels 1..3', '2d', { format: fmt('16_16_FLOAT'), w: 9, h: 3, maxMip: 3, baseLevel: 1, lastLevel: 3 }, [6, 3, 1], 4),
    cfg('32_UINT, DST_SEL x,x,1,y', '2d', { format: fmt('32_UINT'), w: 17, h: 5, dstSel: [4, 4, 1, 5] }, [18, 6, 1], 1),
    cfg('2_10_10_10_SNORM', '2d', { format: fmt('2_10_10_10_SNORM'), w: 6, h: 6 }, [7, 7, 1], 1),
    cfg('8_UNORM, pitch 300', '2d', { format: fmt('8_UNORM'), w: 33, h: 2, pitch: 300 }, [35, 3, 1], 1),
    cfg('16_16_16_16_SINT, 3 levels', '2d', { format: fmt('16_16_16_16_SINT'), w: 4, h: 4, maxMip: 2 }, [5, 5, 1], 3),
    cfg('32_32_SINT, DST_SEL y,x,0,1', '2d', { format: fmt('32_32_SINT'), w: 3, h: 3, dstSel: [5, 4, 0, 1] }, [4, 4, 1], 1),
    cfg('10_11_11_FLOAT', '2d', { format: fmt('10_11_11_FLOAT'), w: 7, h: 5 }, [8, 6, 1], 1),
    cfg('16_USCALED, BASE_ARRAY 1', '2d', { format: fmt('16_USCALED'), w: 5, h: 5, baseArray: 1 }, [6, 6, 1], 1),
  ],
  '3d': [
    cfg('8_8_8_8_SSCALED 5x4x3, 2 levels', '3d', { format: fmt('8_8_8_8_SSCALED'), w: 5, h: 4, d: 3, maxMip: 1 }, [6, 5, 4], 3),
    cfg('32_32_FLOAT 3x3x5', '3d', { format: fmt('32_32_FLOAT'), w: 3, h: 3, d: 5 }, [4, 4, 6], 2),
  ],
  cube: [
    cfg('16_16_16_16_UNORM 4x4, 6 faces, 2 levels', 'cube', { format: fmt('16_16_16_16_UNORM'), w: 4, h: 4, d: 6, maxMip: 1 }, [5, 5, 7], 2),
  ],
  '1d': [
    cfg('8_8_UINT 70, 3 levels, pitch 320', '1d', { format: fmt('8_8_UINT'), w: 70, maxMip: 2, pitch: 320 }, [72, 1, 1], 4),
    cfg('32_32_32_32_SINT 9', '1d', { format: fmt('32_32_32_32_SINT'), w: 9 }, [10, 1, 1], 1),
  ],
  '1dArray': [
    cfg('16_16_SNORM 11 x slices 2..4', '1dArray', { format: fmt('16_16_SNORM'), w: 11, d: 3, baseArray: 2, maxMip: 1 }, [12, 1, 4], 2),
  ],
  '2dArray': [
    cfg('11_11_10_FLOAT 6x5 x 3 slices, view slices 1..2', '2dArray', { format: fmt('11_11_10_FLOAT'), w: 6, h: 5, d: 2, baseArray: 1, maxMip: 2 }, [7, 6, 3], 3),
    cfg('32_FLOAT 7x3 x 4 slices', '2dArray', { format: fmt('32_FLOAT'), w: 7, h: 3, d: 4 }, [8, 4, 5], 1),
  ],
};

const D16_FORMATS = ['8_8_8_8_UNORM', '16_16_16_16_FLOAT', '16_16_UINT', '10_11_11_FLOAT', '8_8_SNORM', '2_10_10_10_USCALED', '16_16_16_16_SSCALED', '8_SINT'];

/**
 * The kernel of a case of ./cases-image.ts with s_barrier after each of its phases (the copy of the
 * image to the aligned place, each op, the copy back, before the zeroing): its lanes read dwords
 * other lanes of the wave wrote, which the recompiled kernel makes visible only across a barrier
 * (docs/TECHNICAL_DEBT.md, "Recompiled memory": lanes of a wave are not in lockstep between memory
 * instructions; lavapipe runs a wave's lanes in SIMD groups one after another). s_barrier in a
 * one-wave workgroup changes nothing on the interpreter, which must give the same buffers.
 */
export function withBarriers(kernel: string): string {
  const lines = kernel.split('\n');
  const zero = lines.findIndex((l) => l.trim() === 'v_mov_b32 v2, 0');
  assert.ok(zero > 0 && lines.filter((l) => l.trim() === 'v_mov_b32 v2, 0').length === 1, 'the zeroing loop');
  lines.splice(zero, 0, '  s_waitcnt_vscnt null, 0x0');
  return lines.map((l) => (l.trim() === 's_waitcnt_vscnt null, 0x0' ? `${l}\n  s_barrier` : l)).join('\n');
}

/** cases-image.ts's cases as they are (for the interpreters), each with its kernel with barriers (for Vulkan). */
export function* sharedImageCases(): Generator<[EngineCase, EngineCase]> {
  const originals = [...imageCases(), ...imageFloatAtomicCases()];
  for (const ws of [32, 64] as const) {
    const scs = [...imageScenarios(ws), ...imageFloatAtomicScenarios(ws)];
    const code = assembleKernels('gfx1030', scs.map((sc) => ({ name: sc.name, body: withBarriers(imageKernel(sc)), wave64: ws === 64, vgprs: 32, sgprs: 56, directives: [...IMAGE_DIRECTIVES] })));
    const shaders = loadShaders({ bytes: code, name: 'image' });
    for (const sc of scs) {
      const c = originals.find((o) => o.kernel === sc.name);
      const shader = shaders.find((x) => x.info.name === sc.name);
      assert.ok(c && shader, sc.name);
      yield [c, { ...c, name: `${c.name} (with barriers)`, spirvName: `${c.spirvName}_barriers`, code, shader }];
    }
  }
}

/** ./image-vk-kernels.ts's kernels under their configurations, wave32 and wave64. */
export function* imageVkCases(): Generator<EngineCase> {
  const rng = new Rng(0x1a6e);
  for (const wave64 of [false, true]) {
    const run = (k: ImageKernel, c: ImageConfig) => imageCase(k, wave64, c, rng);
    for (const [cls, configs] of Object.entries(LOADS) as [ImageClass, ImageConfig[]][]) {
      const k = loadKernel(cls);
      for (const c of configs) yield run(k, c);
    }
    const d16 = d16Kernel();
    for (const [j, f] of D16_FORMATS.entries()) {
      const c = cfg(`${f}${j % 2 ? ', DST_SEL z,1,x,0' : ''}`, '2d', { format: fmt(f), w: 6, h: 5, maxMip: 2, ...(j % 2 ? { dstSel: [6, 1, 4, 0] } : {}) }, [7, 6, 1], 3, j === 2 ? 0xfff0ff0f : undefined);
      yield run(d16, c);
    }
    // Dword stores: no two lanes on one texel (ImageConfig.distinct); d16 stores (shorts, ordered) collide.
    const stores: [ImageClass, string, [number, number, number]][] = [
      ['2d', '32_32_32_32_UINT', [9, 7, 1]], ['2d', '32_FLOAT', [13, 5, 1]], ['3d', '32_32_FLOAT', [4, 3, 5]], ['2dArray', '32_SINT', [5, 4, 3]],
      ['1d', '32_32_32_32_FLOAT', [20, 1, 1]], ['cube', '32_UINT', [3, 3, 6]], ['1dArray', '32_32_UINT', [30, 1, 3]],
    ];
    for (const [cls, f, r] of stores) {
      const range: [number, number, number] = cls === '1d' ? [64, 1, 1] : [r[0] + 1, r[1] + 1, r[2] + 1];
      yield run(storeKernel(cls, false), { ...cfg(f, cls, { format: fmt(f), w: r[0], h: r[1], d: r[2], maxMip: 1 }, range, 3), distinct: true });
    }
    // Converting stores, 32-bit channels and d16 halves, each class and element size.
    const converting: [ImageClass, string, [number, number, number], boolean][] = [
      ['2d', '8_8_8_8_UNORM', [9, 7, 1], false], ['3d', '16_16_SNORM', [4, 3, 5], false], ['2dArray', '10_11_11_FLOAT', [5, 4, 3], false],
      ['1d', '8_SSCALED', [20, 1, 1], false], ['cube', '16_16_16_16_FLOAT', [3, 3, 6], false], ['1dArray', '2_10_10_10_UINT', [30, 1, 3], false],
      ['2d', '8_8_UNORM', [9, 7, 1], true], ['3d', '11_11_10_FLOAT', [4, 3, 5], true], ['2dArray', '16_16_16_16_SINT', [5, 4, 3], true],
    ];
    for (const [cls, f, r, d16s] of converting) {
      const range: [number, number, number] = cls === '1d' ? [64, 1, 1] : [r[0] + 1, r[1] + 1, r[2] + 1];
      // Lanes meet on texels: the narrower formats' elements go as bytes and shorts, resolved to the highest lane.
      yield run(storeKernel(cls, d16s), cfg(`converting ${d16s ? 'd16 ' : ''}${f}`, cls, { format: fmt(f), w: r[0], h: r[1], d: r[2], maxMip: 1 }, range, 2));
    }
    for (const [cls, f] of [['2d', '16_16_16_16_FLOAT'], ['2d', '16_16_UINT'], ['3d', '16_SINT'], ['2dArray', '16_16_16_16_UINT']] as const) {
      yield run(storeKernel(cls, true), cfg(`d16 ${f}`, cls, { format: fmt(f), w: 5, h: 4, d: 3, maxMip: 2 }, [6, 5, 4], 3));
    }
    for (const f of ['32_UINT', '32_SINT']) yield run(atomicKernel(false), cfg(f, '2d', { format: fmt(f), w: 4, h: 3 }, [5, 4, 1], 1, 0xffbfffdf));
    yield run(atomicKernel(false), cfg('32_UINT, 3 levels, mip level 1 view', '2d', { format: fmt('32_UINT'), w: 9, h: 9, maxMip: 2, baseLevel: 1, lastLevel: 1 }, [6, 6, 1], 1));
    yield run(atomicKernel(true), cfg('32_FLOAT', '2d', { format: fmt('32_FLOAT'), w: 4, h: 3 }, [5, 4, 1], 1));
  }
}
