// A linked code object's own data (the image of its allocated sections): clang's __constant tables
// in .rodata and libclc's math tables, reached by s_getpc_b64-relative addresses. The interpreter
// maps the image at its addresses; the recompiled module moves those addresses into a buffer of
// the image (CodeAddress, PUSH.imagePtr). The table lookup is checked against values computed
// here from the source's table; the math kernels the interpreter, the IR interpreter and lavapipe
// byte for byte (libclc's results, which no host libm reproduces bit for bit).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadShaders, type Shader } from '../../src/container/shader.js';
import { recompile } from '../../src/backend/recompile.js';
import { dispatchIr } from '../../src/ir/dispatch.js';
import { VulkanDevice } from '../../src/runtime/vulkan.js';
import { runOnVulkan } from '../../src/runtime/engine.js';
import { buildOpenCl, linkOpenCl } from '../harness/opencl.js';
import { interpret, prepare } from './cases.js';
import { LVP } from './harness.js';

const BIN = new URL('../../bin/rdna', import.meta.url).pathname;
const TABLE = [
  0x9e3779b9, 0x7f4a7c15, 0xf39cc060, 0x5ced1a3d, 0x2545f491, 0x4f1bbcdc, 0xb5ad4ece, 0x68e31da4,
  0x1b873593, 0xcc9e2d51, 0x85ebca6b, 0xc2b2ae35, 0x27d4eb2f, 0x165667b1, 0xd3a2646c, 0xfd7046c5,
];
const SCALE = [0.5, -1.25, 3.0, 1.0e-3];
const N = 128;

const kernels = (wave64: boolean): Map<string, Shader> => {
  const so = linkOpenCl(buildOpenCl('constant-data.cl', { wave64 }));
  return new Map(loadShaders({ bytes: new Uint8Array(readFileSync(so)), name: 'k' }).map((s) => [s.info.name, s]));
};

const f32bits = (x: number) => new Uint32Array(new Float32Array([x]).buffer)[0] as number;
const u32s = (b: Uint8Array) => [...new Uint32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength))];

/** The three engines on copies of `inputs` (buffer 0 the output); their output buffers. */
async function engines(dev: VulkanDevice, s: Shader, inputs: Uint8Array[]): Promise<{ interp: Uint8Array; ir: Uint8Array; vk: Uint8Array }> {
  const grid = [N, 1, 1] as const, block = [32, 1, 1] as const;
  const interp = interpret({ shader: s, buffers: inputs, grid, block, scalars: [] })[0] as Uint8Array;
  const irBufs = inputs.map((b) => b.slice());
  const p = prepare(s, irBufs, grid, block);
  dispatchIr(recompile(s).ir, s, { grid, block, kernarg: p.kernarg, mem: p.mem, maxSteps: 1e8 });
  const vkBufs = inputs.map((b) => b.slice());
  await runOnVulkan(s, prepare(s, vkBufs, grid, block), dev);
  return { interp, ir: irBufs[0] as Uint8Array, vk: vkBufs[0] as Uint8Array };
}

for (const wave64 of [false, true]) {
  test(`the code object's data in both engines (wave${wave64 ? 64 : 32}): a __constant table lookup as the source computes it; libclc math equal on the interpreter, the IR interpreter and Vulkan`, async () => {
    const k = kernels(wave64);
    const lookup = k.get('lookup') as Shader;
    assert.ok(lookup.image, 'a linked object has an image');
    const r = recompile(lookup);
    assert.deepEqual(r.codeImage, { base: lookup.image.base, size: lookup.image.bytes.length });
    const idx = new Uint32Array(N).map((_, i) => (i * 2654435761 + 12345) >>> 0);
    const want = [...idx].map((x) => ((TABLE[x & 15] as number) ^ f32bits(Math.fround(Math.fround(SCALE[(x >>> 4) & 3] as number) * Math.fround(x >>> 8)))) >>> 0);
    const dev = VulkanDevice.open({ driverFiles: LVP, validation: true });
    try {
      const got = await engines(dev, lookup, [new Uint8Array(4 * N), new Uint8Array(idx.buffer)]);
      assert.deepEqual(u32s(got.interp), want, 'interpreter');
      assert.deepEqual(u32s(got.ir), want, 'IR interpreter');
      assert.deepEqual(u32s(got.vk), want, 'Vulkan');
      const f = new Float32Array(N).map((_, i) => [0.5, 1, 2.75, 7, 100, 0.01, 1e-20, 3e30][i % 8] as number * (1 + i / 64));
      const m32 = await engines(dev, k.get('mathlib') as Shader, [new Uint8Array(4 * N), new Uint8Array(f.buffer)]);
      assert.deepEqual(u32s(m32.ir), u32s(m32.interp), 'mathlib: IR interpreter = interpreter');
      assert.deepEqual(u32s(m32.vk), u32s(m32.interp), 'mathlib: Vulkan = interpreter');
      // Not all zero or NaN: the tables were read (a table read as zeros gives other values, which the equality above would share).
      assert.ok(u32s(m32.interp).filter((x) => x !== 0 && (x & 0x7f800000) !== 0x7f800000).length > N / 2);
      const d = new Float64Array(N).map((_, i) => (i - 60) * 0.37);
      const m64 = await engines(dev, k.get('mathlib64') as Shader, [new Uint8Array(8 * N), new Uint8Array(d.buffer)]);
      assert.deepEqual(u32s(m64.ir), u32s(m64.interp), 'mathlib64: IR interpreter = interpreter');
      assert.deepEqual(u32s(m64.vk), u32s(m64.interp), 'mathlib64: Vulkan = interpreter');
      // The double results are sin(x) + log(|x| + 1) to a few ulps (libclc's accuracy): a table misread is far off.
      const got64 = new Float64Array(m64.interp.buffer.slice(m64.interp.byteOffset, m64.interp.byteOffset + m64.interp.byteLength));
      d.forEach((x, i) => assert.ok(Math.abs((got64[i] as number) - (Math.sin(x) + Math.log(Math.abs(x) + 1))) < 1e-12, `mathlib64 ${x}: ${got64[i]}`));
    } finally {
      dev.close();
    }
  });
}

test('rdna compile --json reports the code image a module addresses; a kernel without s_getpc_b64 has none', () => {
  const so = linkOpenCl(buildOpenCl('constant-data.cl'));
  const dir = mkdtempSync(join(tmpdir(), 'rdna-image-'));
  const run = (kernel: string) => {
    const r = spawnSync(process.execPath, [BIN, 'compile', so, '--kernel', kernel, '-o', join(dir, `${kernel}.spv`), '--json', '--no-cache'], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    return JSON.parse(r.stdout) as { codeImage?: { base: number; size: number } };
  };
  const s = kernels(false).get('lookup') as Shader;
  assert.deepEqual(run('lookup').codeImage, { base: s.image?.base, size: s.image?.bytes.length });
  const plain = linkOpenCl(buildOpenCl('interp-int.cl'));
  const r = spawnSync(process.execPath, [BIN, 'compile', plain, '--kernel', 'collatz', '-o', join(dir, 'c.spv'), '--json', '--no-cache'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.equal((JSON.parse(r.stdout) as { codeImage?: unknown }).codeImage, undefined);
});
