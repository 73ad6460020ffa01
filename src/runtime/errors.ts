/**
 * Errors of the Vulkan runtime. Everything the runtime throws is a VulkanError (or its subclass
 * VulkanUnavailableError), so callers (the CLI) catch one class and print one line.
 */

/**
 * A failed Vulkan call or a refused request. `code` is the VkResult name for a failed Vulkan call
 * (`VK_ERROR_OUT_OF_DEVICE_MEMORY`, `VK_TIMEOUT`, ...), else one of: `ERR_OUT_OF_RANGE` (a limit:
 * buffer sizes, groups, push bytes, subgroup size), `ERR_INVALID_ARG_TYPE`, `ERR_INVALID_SPIRV`
 * (header, instruction stream or entry point), `ERR_VULKAN_STATE` (not initialised, already
 * initialised, runs in flight, device lost earlier), `ERR_VULKAN_PROFILE` (malformed profile),
 * `ERR_VALIDATION` (the Khronos validation layer reported an error: `messages` holds what it said).
 */
export class VulkanError extends Error {
  override readonly name: string = 'VulkanError';
  readonly code: string;
  /** What the validation layer said during the failed call or run (warnings and errors), when validation is on. */
  readonly messages: readonly ValidationMessage[];
  constructor(code: string, message: string, messages: readonly ValidationMessage[] = []) {
    super(message);
    this.code = code;
    this.messages = messages;
  }
  /** The VkResult name when a Vulkan call failed, else undefined. */
  get vkResult(): string | undefined {
    return this.code.startsWith('VK_') ? this.code : undefined;
  }
}

/** One message of the Khronos validation layer (VK_EXT_debug_utils), severity warning or error. */
export interface ValidationMessage {
  readonly severity: 'warning' | 'error';
  /** pMessageIdName: the VUID (`VUID-vkCmdDispatch-...`) or the layer's own id; may be empty. */
  readonly id: string;
  /** pMessage, cut at 4000 bytes. */
  readonly message: string;
}

/** What is missing when Vulkan cannot be used at all ('layer': validation was asked for, VK_LAYER_KHRONOS_validation is absent). */
export type VulkanMissing = 'addon' | 'loader' | 'driver' | 'device' | 'layer';

/** Vulkan cannot be used here: the addon is not built, the loader, a driver or the validation layer is absent, or no device fits. */
export class VulkanUnavailableError extends VulkanError {
  override readonly name: string = 'VulkanUnavailableError';
  readonly missing: VulkanMissing;
  constructor(missing: VulkanMissing, message: string, code = 'ERR_VULKAN_UNAVAILABLE') {
    super(code, message);
    this.missing = missing;
  }
}
