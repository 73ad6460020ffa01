/**
 * The Node layer over the N-API Vulkan addon (native/rdna_vulkan.c, built by
 * scripts/build-native.sh into build/Release/rdna_vulkan.node).
 *
 *   const dev = VulkanDevice.open({ driverFiles: '/usr/share/vulkan/icd.d/lvp_icd.x86_64.json' });
 *   dev.profile.subgroup.size;                       // DeviceProfile (device.ts)
 *   const r = await dev.run(spirv, 'main', [a, b, out], undefined, [16, 1, 1]);  // buffers updated in place
 *   dev.close();
 *
 * One device per process (the addon keeps instance, device, queue, command pool and pipeline cache
 * alive until close()). A run builds its pipeline and buffers, submits on the JS thread and waits on
 * the fence in a worker thread (napi_async_work); the buffers are copied back when the promise
 * resolves, so do not read or resize them before. Storage buffer i is set 0, binding i. The push
 * block is always 128 bytes (the given bytes, zero-padded). Node-only: nothing in the core imports this.
 */
import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseDeviceProfile, type DeviceProfile } from './device.js';
import { VulkanError, VulkanUnavailableError } from './errors.js';

export { VulkanError, VulkanUnavailableError } from './errors.js';
export type { VulkanMissing } from './errors.js';

/** Where scripts/build-native.sh puts the addon (the same path from src/runtime and dist/runtime). */
export const DEFAULT_ADDON_PATH = fileURLToPath(new URL('../../build/Release/rdna_vulkan.node', import.meta.url));

/** Limits the addon enforces (the device's own limits may be lower and are enforced too). */
export const RUN_LIMITS = {
  maxTotalBufferBytes: 2 ** 30,
  maxGroupsPerDim: 65535,
  pushBytes: 128,
  maxBuffers: 64,
} as const;

export interface OpenOptions {
  /** ICD manifest(s) for the loader (VK_DRIVER_FILES); default: the environment's. */
  driverFiles?: string;
  /** Use the first device whose name contains this string; default: the first with a compute queue. */
  deviceName?: string;
  /** The addon file; default DEFAULT_ADDON_PATH. */
  addonPath?: string;
}

/** Writes the 64-bit device address of buffers[buffer] (little-endian) at byte `offset` of the push block or of buffers[into], before upload. */
export interface AddressPatch {
  buffer: number;
  into: number | 'push';
  offset: number;
}

export interface RunOptions {
  /** VkPipelineShaderStageRequiredSubgroupSizeCreateInfo; must be a power of two in [minSize, maxSize]. */
  requiredSubgroupSize?: number;
  /** VK_PIPELINE_SHADER_STAGE_CREATE_REQUIRE_FULL_SUBGROUPS_BIT; LocalSize x must be a multiple of the subgroup size. */
  fullSubgroups?: boolean;
  /** Create buffers with SHADER_DEVICE_ADDRESS and return their addresses (implied by addressPatches). */
  deviceAddressBuffers?: boolean;
  addressPatches?: readonly AddressPatch[];
  /** Fence wait limit (default 60 s). After a timeout the device accepts no more runs until close() and open(). */
  timeoutMs?: number;
}

/** Milliseconds, wall clock on the host, plus the GPU's timestamp difference when the queue has timestamps. */
export interface RunResult {
  /** Whole run: pipeline, buffers, dispatch, readback. */
  ms: number;
  /** Shader module + pipeline creation. */
  pipelineMs: number;
  /** Buffer creation, upload, descriptors, command recording. */
  uploadMs: number;
  /** Submit until the fence signalled (as seen by the completion on the JS thread). */
  dispatchMs: number;
  readbackMs: number;
  gpuMs?: number;
  /** Device address of each buffer, with deviceAddressBuffers or addressPatches. */
  addresses?: bigint[];
}

export type BufferLike = ArrayBuffer | ArrayBufferView;

interface RawResult {
  ms: number;
  pipelineMs: number;
  uploadMs: number;
  dispatchMs: number;
  readbackMs: number;
  gpuMs?: number;
  addresses?: bigint[];
}

interface Addon {
  init(options: { driverFiles?: string; deviceName?: string }): void;
  profile(): unknown;
  run(
    spirv: Uint32Array,
    entry: string,
    buffers: BufferLike[],
    push: BufferLike | undefined,
    groups: number[],
    options: {
      requiredSubgroupSize?: number;
      fullSubgroups?: boolean;
      deviceAddressBuffers?: boolean;
      addressPatches?: { buffer: number; into: number; offset: number }[];
      timeoutMs?: number;
    },
  ): Promise<RawResult>;
  shutdown(): void;
}

const loaded = new Map<string, Addon>();

/** Loads the addon; throws VulkanUnavailableError naming what is missing. */
export function loadAddon(path: string = DEFAULT_ADDON_PATH): Addon {
  const hit = loaded.get(path);
  if (hit) return hit;
  if (!existsSync(path)) {
    throw new VulkanUnavailableError('addon', `the Vulkan addon is not built (${path} missing): run npm run build:native`);
  }
  const require = createRequire(import.meta.url);
  let addon: Addon;
  try {
    addon = require(path) as Addon;
  } catch (e) {
    const msg = e instanceof Error ? e.message : String(e);
    if (/libvulkan/.test(msg)) {
      throw new VulkanUnavailableError('loader', `the Vulkan loader libvulkan.so.1 is missing (install libvulkan1): ${msg}`);
    }
    throw new VulkanUnavailableError('addon', `the Vulkan addon ${path} does not load: ${msg}`);
  }
  loaded.set(path, addon);
  return addon;
}

/** Turns whatever the addon threw into a VulkanError. */
function wrap(e: unknown): VulkanError {
  if (e instanceof VulkanError) return e;
  if (e instanceof Error) {
    const c = (e as unknown as { code?: unknown }).code;
    const code = typeof c === 'string' ? c : 'ERR_VULKAN';
    return new VulkanError(code, e.message);
  }
  return new VulkanError('ERR_VULKAN', String(e));
}

let openDevice: VulkanDevice | undefined;

export class VulkanDevice {
  readonly profile: DeviceProfile;
  /** Milliseconds spent in init (instance, device selection, device creation). */
  readonly initMs: number;
  private readonly addon: Addon;
  private closed = false;
  private inflight = 0;

  private constructor(addon: Addon, profile: DeviceProfile, initMs: number) {
    this.addon = addon;
    this.profile = profile;
    this.initMs = initMs;
  }

  /** Opens the device; throws VulkanUnavailableError (no addon, loader, driver or device) or VulkanError. */
  static open(options: OpenOptions = {}): VulkanDevice {
    if (openDevice && !openDevice.closed) throw new VulkanError('ERR_VULKAN_STATE', 'a VulkanDevice is already open in this process: close() it first');
    const addon = loadAddon(options.addonPath);
    const t0 = performance.now();
    try {
      const init: { driverFiles?: string; deviceName?: string } = {};
      if (options.driverFiles !== undefined) init.driverFiles = options.driverFiles;
      if (options.deviceName !== undefined) init.deviceName = options.deviceName;
      addon.init(init);
    } catch (e) {
      const err = wrap(e);
      const files = options.driverFiles ?? process.env['VK_DRIVER_FILES'] ?? process.env['VK_ICD_FILENAMES'];
      const where = files ? ` (VK_DRIVER_FILES=${files})` : ' (default driver search)';
      if (err.code === 'VK_ERROR_INCOMPATIBLE_DRIVER' || err.code === 'VK_ERROR_INITIALIZATION_FAILED') {
        throw new VulkanUnavailableError('driver', `no usable Vulkan driver${where}: ${err.message}`, err.code);
      }
      if (err.code === 'ERR_VULKAN_NO_DEVICE') throw new VulkanUnavailableError('device', `${err.message}${where}`, err.code);
      throw err;
    }
    const initMs = performance.now() - t0;
    let profile: DeviceProfile;
    try {
      profile = parseDeviceProfile(addon.profile());
    } catch (e) {
      addon.shutdown();
      throw wrap(e);
    }
    openDevice = new VulkanDevice(addon, profile, initMs);
    return openDevice;
  }

  /**
   * Runs one dispatch of `entry` (a GLCompute entry point of `spirv`). buffers[i] is storage buffer
   * set 0 binding i, uploaded before and copied back into the same memory after. Rejects with
   * VulkanError: limits (ERR_OUT_OF_RANGE), bad SPIR-V header/stream/entry (ERR_INVALID_SPIRV),
   * failed Vulkan calls (the VkResult name). SPIR-V beyond that scan is trusted: validate it first.
   */
  async run(
    spirv: Uint32Array,
    entry: string,
    buffers: readonly BufferLike[],
    push: BufferLike | undefined,
    groups: readonly [number, number, number],
    options: RunOptions = {},
  ): Promise<RunResult> {
    if (this.closed) throw new VulkanError('ERR_VULKAN_STATE', 'the VulkanDevice is closed');
    const raw: Parameters<Addon['run']>[5] = {};
    if (options.requiredSubgroupSize !== undefined) raw.requiredSubgroupSize = options.requiredSubgroupSize;
    if (options.fullSubgroups !== undefined) raw.fullSubgroups = options.fullSubgroups;
    if (options.deviceAddressBuffers !== undefined) raw.deviceAddressBuffers = options.deviceAddressBuffers;
    if (options.timeoutMs !== undefined) raw.timeoutMs = options.timeoutMs;
    if (options.addressPatches !== undefined) {
      raw.addressPatches = options.addressPatches.map((p) => ({
        buffer: p.buffer,
        into: p.into === 'push' ? -1 : p.into,
        offset: p.offset,
      }));
    }
    this.inflight++;
    try {
      const r = await this.addon.run(spirv, entry, [...buffers], push, [...groups], raw);
      const out: RunResult = {
        ms: r.ms,
        pipelineMs: r.pipelineMs,
        uploadMs: r.uploadMs,
        dispatchMs: r.dispatchMs,
        readbackMs: r.readbackMs,
      };
      if (r.gpuMs !== undefined) out.gpuMs = r.gpuMs;
      if (r.addresses !== undefined) out.addresses = r.addresses;
      return out;
    } catch (e) {
      throw wrap(e);
    } finally {
      this.inflight--;
    }
  }

  /** Destroys the device. Throws VulkanError (ERR_VULKAN_STATE) while runs are in flight. Idempotent. */
  close(): void {
    if (this.closed) return;
    if (this.inflight > 0) throw new VulkanError('ERR_VULKAN_STATE', `close: ${this.inflight} run(s) still in flight; await them first`);
    try {
      this.addon.shutdown();
    } catch (e) {
      throw wrap(e);
    }
    this.closed = true;
    if (openDevice === this) openDevice = undefined;
  }
}
