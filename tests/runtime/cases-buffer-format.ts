// Buffer format conversions and the d16 buffer loads (issue 7) for the engine suites: the kernel
// of tests/interp/buffer-format-kernels.ts (MTBUF loads of static formats, MUBUF loads of the V#'s
// run-time format, 32-bit and d16 results, the non-format d16 loads, d16 format stores), wave32
// and wave64, under several V# formats (every number format through MUBUF, so the run-time
// descriptor selects each conversion) on edge and seeded bytes.
import assert from 'node:assert/strict';
import { loadShaders } from '../../src/container/shader.js';
import { GFX10_BUFFER_FORMATS } from '../../src/isa/tables/mtbuf.js';
import { assembleKernels } from '../harness/kernel.js';
import { Rng } from '../harness/rng.js';
import { KERNARG_DIRECTIVES } from '../interp/harness.js';
import { formatData, formatKernel, rawDword3, RESULT_REGS, STORE_LANE_BYTES, STORE_VSHARP_FORMATS, storeData, storeKernel } from '../interp/buffer-format-kernels.js';
import { halfChannel, intChannel, storeChannel } from '../interp/image-kernels.js';
import type { EngineCase } from './cases.js';

const fmt = (name: string): number => {
  const k = GFX10_BUFFER_FORMATS.indexOf(`BUF_FMT_${name}`);
  assert.ok(k > 0, name);
  return k;
};

/** (MUBUF load format, d16 store format) per case: each number format once through the V#. */
const CONFIGS: readonly (readonly [string, string])[] = [
  ['16_16_16_16_SNORM', '16_16_UINT'],
  ['8_8_8_8_UNORM', '16_16_16_16_SINT'],
  ['2_10_10_10_USCALED', '16_16_FLOAT'],
  ['10_11_11_FLOAT', '16_UINT'],
  ['16_16_SSCALED', '16_16_16_16_FLOAT'],
  ['10_10_10_2_SINT', '16_SINT'],
  ['8_8_UINT', '16_16_UINT'],
];

export function* bufferFormatCases(): Generator<EngineCase> {
  const rng = new Rng(0xf0f);
  for (const wave64 of [false, true]) {
    const ws = wave64 ? 64 : 32;
    const name = `buffer_format${ws}`;
    const code = assembleKernels('gfx1030', [{ name, body: formatKernel(wave64), wave64, vgprs: 64, sgprs: 32, directives: [...KERNARG_DIRECTIVES] }]);
    const shader = loadShaders({ bytes: code, name }).find((s) => s.info.name === name);
    assert.ok(shader);
    for (const [load, store] of CONFIGS) {
      yield {
        name: `${name}: MUBUF ${load}, d16 stores ${store}`, spirvName: name, code, kernel: name, shader,
        buffers: [new Uint8Array(4 * RESULT_REGS.length * ws), formatData(ws, () => rng.u32()), new Uint8Array(16 * ws)],
        grid: [ws, 1, 1], block: [ws, 1, 1], scalars: [[24, rawDword3(fmt(load))], [28, rawDword3(fmt(store))]], writes: 0,
      };
    }
  }
  // Converting format stores (tests/interp/buffer-format-kernels.ts storeKernel): MTBUF static
  // formats and the MUBUF V#'s run-time format, f32 / integer / d16 channels, the last lane in part
  // out of range; the target's bytes start random.
  const srng = new Rng(0x5704e);
  for (const wave64 of [false, true]) {
    const ws = wave64 ? 64 : 32;
    const name = `format_store${ws}`;
    const code = assembleKernels('gfx1030', [{ name, body: storeKernel(wave64), wave64, vgprs: 32, sgprs: 32, directives: [...KERNARG_DIRECTIVES] }]);
    const shader = loadShaders({ bytes: code, name }).find((s) => s.info.name === name);
    assert.ok(shader);
    for (const vFmt of STORE_VSHARP_FORMATS) {
      const target = new Uint8Array(STORE_LANE_BYTES * ws);
      for (let b = 0; b < target.length; b++) target[b] = srng.u32() & 0xff;
      yield {
        name: `${name}: converting format stores, MUBUF ${vFmt}`, spirvName: name, code, kernel: name, shader,
        buffers: [storeData(ws, { f32: () => storeChannel(srng), int: () => intChannel(srng), half: () => halfChannel(srng, srng.int(3) === 0) }), target],
        grid: [ws, 1, 1], block: [ws, 1, 1], scalars: [[16, rawDword3(fmt(vFmt))]],
      };
    }
  }
}
