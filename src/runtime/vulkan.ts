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
 * alive until close()). Runs reuse what earlier runs built: pipelines are cached by SPIR-V words,
 * entry point, buffer count, push range and subgroup options; buffers, command buffers, fences and
 * descriptor pools return to pools when a run completes. A run submits on the JS thread and waits on
 * the fence in a worker thread (napi_async_work); the buffers are copied back when the promise
 * resolves, so do not read or resize them before. Storage buffer i is set 0, binding i. The push
 * block is 128 bytes unless `pushBytes` says otherwise (the given bytes, zero-padded).
 * `runSteps` runs many dispatches of several kernels in one submission over the same buffers (the
 * Vulkan engine's sequences, src/runtime/engine.ts).
 *
 * `open({ validation: true })` (or RDNA_VULKAN_VALIDATION=1 in the environment) enables the Khronos
 * validation layer with synchronization validation; every warning and error it reports is kept
 * (validationMessages()), and a run during which it reported an error rejects with ERR_VALIDATION.
 * Node-only: nothing in the core imports this.
 */
import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseDeviceProfile, type DeviceProfile } from './device.js';
import { VulkanError, VulkanUnavailableError, type ValidationMessage } from './errors.js';

export { VulkanError, VulkanUnavailableError } from './errors.js';
export type { VulkanMissing, ValidationMessage } from './errors.js';

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
  /**
   * Enable VK_LAYER_KHRONOS_validation (+ synchronization validation) and collect its warnings and
   * errors; default: RDNA_VULKAN_VALIDATION=1 in the environment. A missing layer is
   * VulkanUnavailableError('layer'). The layer's duplicate-message limit is lifted unless
   * VK_LAYER_DUPLICATE_MESSAGE_LIMIT is set.
   */
  validation?: boolean;
}

/**
 * Writes the 64-bit device address of buffers[buffer] plus `add` (little-endian) at byte `offset` of
 * the push block (of step `step` in runSteps) or of buffers[into], before upload.
 */
export interface AddressPatch {
  buffer: number;
  into: number | 'push';
  offset: number;
  /** runSteps: whose push block a patch into 'push' writes (default 0). */
  step?: number;
  /** Bytes added to the address (default 0): a place inside the buffer. */
  add?: number;
  /**
   * A resource's base address instead of 8 bytes (src/interp/args.ts AddressLayout): 'bits48' the low 48 bits, keeping
   * bytes 6 and 7 (a V#); 'tsharp' bits 39:8 as the dword at offset and bits 47:40 as the next byte
   * (a T#). The run fails on an address of 2^48 or more, or for 'tsharp' not 256-byte aligned.
   */
  layout?: 'bits48' | 'tsharp';
}

/** A kernel of runSteps: a module and its GLCompute entry point. */
export interface StepKernel {
  spirv: Uint32Array;
  entry: string;
}

/** The steps of runSteps, in order: step s runs kernels[kernel[s]] over groups[3s..3s+2] with push block s. */
export interface Steps {
  kernel: Uint32Array;
  groups: Uint32Array;
  /** The push blocks, the same number of bytes (at most 128) for every step, one after another. */
  push?: Uint8Array;
}

/** Limits of runSteps (per call). */
export const STEP_LIMITS = { maxKernels: 16, maxSteps: 65536, maxPatches: 1 << 20 } as const;

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
  /** Size of the pipeline layout's push constant range: a multiple of 4 in 0..128 (default 128); the push data must fit. */
  pushBytes?: number;
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
  /** The pipeline came from the cache (an earlier run with the same SPIR-V, entry and layout). */
  pipelineCached: boolean;
  /** How many of the run's buffers were reused from earlier runs instead of created. */
  buffersReused: number;
  /** With validation: the layer's warnings during this run (a run with errors rejects instead). */
  validation?: ValidationMessage[];
}

/** Counters of the reuse caches since open(). */
export interface CacheStats {
  pipelines: number;
  pipelineHits: number;
  pipelineMisses: number;
  buffersCreated: number;
  buffersReused: number;
  freeBuffers: number;
  freeBufferBytes: number;
  slotsCreated: number;
  slotsReused: number;
  validation: boolean;
}

export type BufferLike = ArrayBuffer | ArrayBufferView;

/** What the addon's run resolves to: the RunResult plus the count of the layer's errors. */
type RawResult = RunResult & { validationErrors?: number };

interface InitOptions {
  driverFiles?: string;
  deviceName?: string;
  validation?: boolean;
}

interface Addon {
  init(options: InitOptions): void;
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
      pushBytes?: number;
    },
  ): Promise<RawResult>;
  runSteps(
    kernels: StepKernel[],
    buffers: BufferLike[],
    steps: Steps,
    options: {
      requiredSubgroupSize?: number;
      fullSubgroups?: boolean;
      deviceAddressBuffers?: boolean;
      addressPatches?: { buffer: number; into: number; offset: number; step?: number; add?: number; bits48?: boolean; tsharp?: boolean }[];
      timeoutMs?: number;
      pushBytes?: number;
    },
  ): Promise<RawResult>;
  /** The teardown's validation messages (empty without validation). */
  shutdown(): ValidationMessage[];
  validationMessages(): ValidationMessage[];
  stats(): CacheStats;
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

/** How many messages an ERR_VALIDATION error lists, one line each. */
const LISTED_MESSAGES = 10;

/** One line per message: `id: text` with the text's line breaks folded. */
export function formatValidationMessages(messages: readonly ValidationMessage[], max = LISTED_MESSAGES): string[] {
  const lines = messages.slice(0, max).map((m) => `${m.severity} ${m.id || '(no id)'}: ${m.message.replace(/\s*\n\s*/g, ' ')}`);
  if (messages.length > max) lines.push(`... and ${messages.length - max} more`);
  return lines;
}

/** ERR_VALIDATION for `errors` error-severity messages among `messages` (during `what`). */
function validationError(what: string, errors: number, messages: readonly ValidationMessage[]): VulkanError {
  const listed = messages.filter((m) => m.severity === 'error');
  const first = listed[0];
  const head = `the Khronos validation layer reported ${errors} error${errors === 1 ? '' : 's'} during ${what}` +
    (first ? ` (first: ${first.id || 'no id'})` : ' (the messages are no longer stored)');
  return new VulkanError('ERR_VALIDATION', [head, ...formatValidationMessages(listed)].join('\n'), messages);
}

function isMessages(v: unknown): v is ValidationMessage[] {
  return Array.isArray(v);
}

/** Turns whatever the addon threw into a VulkanError (with the layer's messages of that call, when there are any). */
function wrap(e: unknown): VulkanError {
  if (e instanceof VulkanError) return e;
  if (e instanceof Error) {
    const raw = e as unknown as { code?: unknown; validation?: unknown };
    const code = typeof raw.code === 'string' ? raw.code : 'ERR_VULKAN';
    const messages = isMessages(raw.validation) ? raw.validation : [];
    const errors = messages.filter((m) => m.severity === 'error');
    const text = errors.length ? [e.message, 'validation layer:', ...formatValidationMessages(errors)].join('\n') : e.message;
    return new VulkanError(code, text, messages);
  }
  return new VulkanError('ERR_VULKAN', String(e));
}

let openDevice: VulkanDevice | undefined;

export class VulkanDevice {
  readonly profile: DeviceProfile;
  /** Milliseconds spent in init (instance, device selection, device creation). */
  readonly initMs: number;
  /** The Khronos validation layer is enabled. */
  readonly validation: boolean;
  private readonly addon: Addon;
  private closed = false;
  private inflight = 0;
  private finalMessages: ValidationMessage[] = [];

  private constructor(addon: Addon, profile: DeviceProfile, initMs: number, validation: boolean) {
    this.addon = addon;
    this.profile = profile;
    this.initMs = initMs;
    this.validation = validation;
  }

  /** Opens the device; throws VulkanUnavailableError (no addon, loader, driver or device) or VulkanError. */
  static open(options: OpenOptions = {}): VulkanDevice {
    if (openDevice && !openDevice.closed) throw new VulkanError('ERR_VULKAN_STATE', 'a VulkanDevice is already open in this process: close() it first');
    const addon = loadAddon(options.addonPath);
    const validation = options.validation ?? process.env['RDNA_VULKAN_VALIDATION'] === '1';
    const t0 = performance.now();
    try {
      const init: InitOptions = {};
      if (options.driverFiles !== undefined) init.driverFiles = options.driverFiles;
      if (options.deviceName !== undefined) init.deviceName = options.deviceName;
      if (validation) init.validation = true;
      addon.init(init);
    } catch (e) {
      const err = wrap(e);
      const files = options.driverFiles ?? process.env['VK_DRIVER_FILES'] ?? process.env['VK_ICD_FILENAMES'];
      const where = files ? ` (VK_DRIVER_FILES=${files})` : ' (default driver search)';
      if (err.code === 'VK_ERROR_INCOMPATIBLE_DRIVER' || err.code === 'VK_ERROR_INITIALIZATION_FAILED') {
        throw new VulkanUnavailableError('driver', `no usable Vulkan driver${where}: ${err.message}`, err.code);
      }
      if (err.code === 'ERR_VULKAN_NO_DEVICE') throw new VulkanUnavailableError('device', `${err.message}${where}`, err.code);
      if (err.code === 'ERR_VULKAN_NO_LAYER') throw new VulkanUnavailableError('layer', err.message, err.code);
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
    if (validation) {
      const messages = addon.validationMessages();
      const errors = messages.filter((m) => m.severity === 'error').length;
      if (errors) {
        addon.shutdown();
        throw validationError('instance and device creation', errors, messages);
      }
    }
    openDevice = new VulkanDevice(addon, profile, initMs, validation);
    return openDevice;
  }

  /**
   * Every warning and error of the validation layer since open() (the latest 4096), oldest first;
   * empty without validation. After close(): those of the teardown.
   */
  validationMessages(): ValidationMessage[] {
    if (this.closed) return [...this.finalMessages];
    return this.addon.validationMessages();
  }

  /** Counters of the pipeline cache and the buffer / command pools since open(). */
  cacheStats(): CacheStats {
    if (this.closed) throw new VulkanError('ERR_VULKAN_STATE', 'the VulkanDevice is closed');
    return this.addon.stats();
  }

  /**
   * Runs one dispatch of `entry` (a GLCompute entry point of `spirv`). buffers[i] is storage buffer
   * set 0 binding i, uploaded before and copied back into the same memory after. Rejects with
   * VulkanError: limits (ERR_OUT_OF_RANGE), bad SPIR-V header/stream/entry (ERR_INVALID_SPIRV),
   * failed Vulkan calls (the VkResult name), ERR_VALIDATION when the validation layer reported an
   * error during the run (the buffers are copied back all the same; `messages` holds the layer's
   * messages of the run). SPIR-V beyond that scan is trusted: validate it first.
   */
  async run(
    spirv: Uint32Array,
    entry: string,
    buffers: readonly BufferLike[],
    push: BufferLike | undefined,
    groups: readonly [number, number, number],
    options: RunOptions = {},
  ): Promise<RunResult> {
    return this.call((raw) => this.addon.run(spirv, entry, [...buffers], push, [...groups], raw), options);
  }

  /**
   * Runs several dispatches in one submission: step s dispatches kernels[steps.kernel[s]] with push
   * block s, in order, each seeing every earlier step's writes (a memory barrier between steps),
   * over the same buffers, uploaded once before the first step and copied back once after the last.
   * Pipelines come from the same cache as run()'s (each kernel built once). Address patches into
   * 'push' name their step. Rejects as run() does; STEP_LIMITS bounds one call.
   */
  async runSteps(kernels: readonly StepKernel[], buffers: readonly BufferLike[], steps: Steps, options: RunOptions = {}): Promise<RunResult> {
    if (typeof (this.addon as Partial<Addon>).runSteps !== 'function') throw new VulkanUnavailableError('addon', 'the Vulkan addon was built from an older native/rdna_vulkan.c (it has no runSteps): run npm run build:native');
    return this.call((raw) => this.addon.runSteps([...kernels], [...buffers], steps, raw), options);
  }

  private async call(go: (raw: Parameters<Addon['runSteps']>[3]) => Promise<RawResult>, options: RunOptions): Promise<RunResult> {
    if (this.closed) throw new VulkanError('ERR_VULKAN_STATE', 'the VulkanDevice is closed');
    const raw: Parameters<Addon['runSteps']>[3] = {};
    if (options.requiredSubgroupSize !== undefined) raw.requiredSubgroupSize = options.requiredSubgroupSize;
    if (options.fullSubgroups !== undefined) raw.fullSubgroups = options.fullSubgroups;
    if (options.deviceAddressBuffers !== undefined) raw.deviceAddressBuffers = options.deviceAddressBuffers;
    if (options.timeoutMs !== undefined) raw.timeoutMs = options.timeoutMs;
    if (options.pushBytes !== undefined) raw.pushBytes = options.pushBytes;
    if (options.addressPatches !== undefined) {
      raw.addressPatches = options.addressPatches.map((p) => ({
        buffer: p.buffer,
        into: p.into === 'push' ? -1 : p.into,
        offset: p.offset,
        ...(p.step !== undefined ? { step: p.step } : {}),
        ...(p.add !== undefined ? { add: p.add } : {}),
        // The addon takes the layout as a flag per kind.
        ...(p.layout ? { [p.layout]: true } : {}),
      }));
    }
    this.inflight++;
    try {
      let r: RawResult;
      try {
        r = await go(raw);
      } catch (e) {
        throw wrap(e);
      }
      const { validationErrors, ...out } = r;
      if (validationErrors) throw validationError('this run', validationErrors, r.validation ?? []);
      return out;
    } finally {
      this.inflight--;
    }
  }

  /**
   * Destroys the device. Throws VulkanError (ERR_VULKAN_STATE) while runs are in flight. Idempotent.
   * With validation, an error of the layer during the teardown (an object left alive, say) is
   * ERR_VALIDATION, thrown after the device is closed.
   */
  close(): void {
    if (this.closed) return;
    if (this.inflight > 0) throw new VulkanError('ERR_VULKAN_STATE', `close: ${this.inflight} run(s) still in flight; await them first`);
    let messages: ValidationMessage[];
    try {
      messages = this.addon.shutdown();
    } catch (e) {
      throw wrap(e);
    }
    this.closed = true;
    this.finalMessages = messages;
    if (openDevice === this) openDevice = undefined;
    const errors = messages.filter((m) => m.severity === 'error').length;
    if (errors) throw validationError('close()', errors, messages);
  }
}
