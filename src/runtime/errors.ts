/**
 * Errors of the Vulkan runtime. Everything the runtime throws is a VulkanError (or its subclass
 * VulkanUnavailableError), so callers (the CLI) catch one class and print one line.
 */

/**
 * A failed Vulkan call or a refused request. `code` is the VkResult name for a failed Vulkan call
 * (`VK_ERROR_OUT_OF_DEVICE_MEMORY`, `VK_TIMEOUT`, ...), else one of: `ERR_OUT_OF_RANGE` (a limit:
 * buffer sizes, groups, push bytes, subgroup size), `ERR_INVALID_ARG_TYPE`, `ERR_INVALID_SPIRV`
 * (header, instruction stream or entry point), `ERR_VULKAN_STATE` (not initialised, already
 * initialised, runs in flight, device lost earlier), `ERR_VULKAN_PROFILE` (malformed profile).
 */
export class VulkanError extends Error {
  override readonly name: string = 'VulkanError';
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.code = code;
  }
  /** The VkResult name when a Vulkan call failed, else undefined. */
  get vkResult(): string | undefined {
    return this.code.startsWith('VK_') ? this.code : undefined;
  }
}

/** What is missing when Vulkan cannot be used at all. */
export type VulkanMissing = 'addon' | 'loader' | 'driver' | 'device';

/** Vulkan cannot be used here: the addon is not built, the loader or a driver is absent, or no device fits. */
export class VulkanUnavailableError extends VulkanError {
  override readonly name: string = 'VulkanUnavailableError';
  readonly missing: VulkanMissing;
  constructor(missing: VulkanMissing, message: string, code = 'ERR_VULKAN_UNAVAILABLE') {
    super(code, message);
    this.missing = missing;
  }
}
