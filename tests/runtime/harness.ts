// The Vulkan engine tests' harness: the driver they run on, a run on both engines (the reference
// interpreter and the recompiled kernel on Vulkan, each on copies of the same buffers, laid out by
// cases.ts's prepare), and the byte-for-byte comparison that names the first differing dword.
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Shader } from '../../src/container/shader.js';
import type { Dim3 } from '../../src/interp/dispatch.js';
import { runOnVulkan } from '../../src/runtime/engine.js';
import type { VulkanDevice } from '../../src/runtime/vulkan.js';
import { interpret, prepare } from './cases.js';

const ICD_DIR = '/usr/share/vulkan/icd.d';
/** The driver: lavapipe by default (CI), or RDNA_TEST_VK_DRIVER_FILES (a GPU's ICD, as for tests/runtime/vulkan.test.ts). */
export const LVP = process.env['RDNA_TEST_VK_DRIVER_FILES'] ?? (existsSync(ICD_DIR) ? readdirSync(ICD_DIR) : []).filter((f) => f.startsWith('lvp_icd')).map((f) => join(ICD_DIR, f))[0] ?? '';

/** What a run needs: the kernel, its input buffers (buffer k's address at kernarg + 8k), geometry, u32 scalars at kernarg offsets. */
export interface Run {
  readonly shader: Shader;
  readonly buffers: readonly Uint8Array[];
  readonly grid: Dim3;
  readonly block: Dim3;
  readonly scalars?: readonly (readonly [number, number])[];
}

/** The interpreter's result and the Vulkan engine's, on copies of the run's buffers. */
export async function both(dev: VulkanDevice, c: Run): Promise<[Uint8Array[], Uint8Array[]]> {
  const ref = interpret({ ...c, scalars: c.scalars ?? [] });
  const vk = c.buffers.map((b) => b.slice());
  await runOnVulkan(c.shader, prepare(c.shader, vk, c.grid, c.block, c.scalars ?? []), dev);
  return [ref, vk];
}

/** Every buffer equal byte for byte (the message names the first differing dword of each engine). */
export function same(name: string, [ref, vk]: [Uint8Array[], Uint8Array[]]): void {
  ref.forEach((b, k) => {
    const x = vk[k] as Uint8Array;
    const i = b.findIndex((v, j) => v !== x[j]);
    assert.equal(i, -1, `${name}: buffer ${k} differs at byte ${i}: interpreter ${Buffer.from(b.subarray(i & ~3, (i & ~3) + 4)).toString('hex')}, Vulkan ${Buffer.from(x.subarray(i & ~3, (i & ~3) + 4)).toString('hex')}`);
  });
}
