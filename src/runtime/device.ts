/**
 * DeviceProfile: what the Vulkan device offers that the recompiler's code generation depends on
 * (subgroup size, float controls per width, shader features, limits), as reported by the addon's
 * profile() and checked here field by field. Names follow the Vulkan structures they come from
 * (VkPhysicalDeviceFloatControlsProperties, VkPhysicalDeviceSubgroupSizeControlProperties, ...).
 */
import { VulkanError } from './errors.js';

export type FloatWidth = 16 | 32 | 64;

/** VkShaderFloatControlsIndependence without its prefix. */
export type FloatControlsIndependence = '32_BIT_ONLY' | 'ALL' | 'NONE';

/** The per-width members of VkPhysicalDeviceFloatControlsProperties (shader...Float16/32/64). */
export interface WidthFloatControls {
  readonly signedZeroInfNanPreserve: boolean;
  readonly denormPreserve: boolean;
  readonly denormFlushToZero: boolean;
  readonly roundingModeRTE: boolean;
  readonly roundingModeRTZ: boolean;
}

export interface FloatControls {
  readonly denormBehaviorIndependence: FloatControlsIndependence;
  readonly roundingModeIndependence: FloatControlsIndependence;
  readonly f16: WidthFloatControls;
  readonly f32: WidthFloatControls;
  readonly f64: WidthFloatControls;
}

/** VkSubgroupFeatureFlagBits names, in bit order (bit i = entry i). */
export const SUBGROUP_OPERATIONS = [
  'basic',
  'vote',
  'arithmetic',
  'ballot',
  'shuffle',
  'shuffleRelative',
  'clustered',
  'quad',
  'partitionedNV',
  'rotate',
  'rotateClustered',
] as const;
export type SubgroupOperation = (typeof SUBGROUP_OPERATIONS)[number];

export interface SubgroupProfile {
  /** VkPhysicalDeviceVulkan11Properties.subgroupSize: the default size. */
  readonly size: number;
  /** VkPhysicalDeviceSubgroupSizeControlProperties min/maxSubgroupSize (= size without the feature). */
  readonly minSize: number;
  readonly maxSize: number;
  readonly maxComputeWorkgroupSubgroups: number;
  /** requiredSubgroupSizeStages includes compute. */
  readonly requiredSizeInCompute: boolean;
  /** subgroupSupportedStages includes compute. */
  readonly supportedInCompute: boolean;
  readonly supportedOperations: readonly SubgroupOperation[];
  /** Bits of subgroupSupportedOperations this table does not name. */
  readonly unknownOperationBits: number;
}

/** The features the runtime enables when offered; true = offered and enabled on this device. */
export interface EnabledFeatures {
  readonly shaderFloat64: boolean;
  readonly shaderInt64: boolean;
  readonly shaderInt16: boolean;
  readonly shaderFloat16: boolean;
  readonly shaderInt8: boolean;
  readonly storageBuffer8BitAccess: boolean;
  readonly storageBuffer16BitAccess: boolean;
  readonly bufferDeviceAddress: boolean;
  readonly shaderBufferInt64Atomics: boolean;
  readonly subgroupSizeControl: boolean;
  readonly computeFullSubgroups: boolean;
  readonly vulkanMemoryModel: boolean;
  readonly vulkanMemoryModelDeviceScope: boolean;
  /** VK_KHR_shader_clock (the extension enabled with them): OpReadClockKHR at Subgroup / Device scope. */
  readonly shaderSubgroupClock: boolean;
  readonly shaderDeviceClock: boolean;
}

export interface DeviceLimits {
  readonly maxComputeWorkGroupCount: readonly [number, number, number];
  readonly maxComputeWorkGroupSize: readonly [number, number, number];
  readonly maxComputeWorkGroupInvocations: number;
  readonly maxComputeSharedMemorySize: number;
  readonly maxPushConstantsSize: number;
  readonly maxStorageBufferRange: number;
  readonly maxPerStageDescriptorStorageBuffers: number;
  readonly timestampPeriod: number;
  readonly timestampComputeAndGraphics: boolean;
  /** timestampValidBits of the queue family used (0: no GPU timings). */
  readonly timestampValidBits: number;
}

export type DeviceType = 'integrated-gpu' | 'discrete-gpu' | 'virtual-gpu' | 'cpu' | 'other';

export interface DeviceProfile {
  /** The device's Vulkan version, "major.minor.patch". */
  readonly apiVersion: string;
  readonly driverVersion: number;
  readonly deviceName: string;
  readonly deviceType: DeviceType;
  readonly vendorId: number;
  readonly deviceId: number;
  /** VkDriverId value; driverName/driverInfo as the driver spells them. */
  readonly driverId: number;
  readonly driverName: string;
  readonly driverInfo: string;
  readonly subgroup: SubgroupProfile;
  readonly floatControls: FloatControls;
  readonly features: EnabledFeatures;
  readonly limits: DeviceLimits;
  /** Device extension names. */
  readonly extensions: readonly string[];
}

const INDEPENDENCE: readonly FloatControlsIndependence[] = ['32_BIT_ONLY', 'ALL', 'NONE'];
const DEVICE_TYPES: readonly DeviceType[] = ['integrated-gpu', 'discrete-gpu', 'virtual-gpu', 'cpu', 'other'];

function bad(path: string, what: string): never {
  throw new VulkanError('ERR_VULKAN_PROFILE', `device profile: ${path} ${what}`);
}

function obj(v: unknown, path: string): Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) bad(path, 'is not an object');
  return v as Record<string, unknown>;
}
function num(o: Record<string, unknown>, k: string, path: string): number {
  const v = o[k];
  if (typeof v !== 'number' || !Number.isFinite(v)) bad(`${path}.${k}`, 'is not a number');
  return v;
}
function bool(o: Record<string, unknown>, k: string, path: string): boolean {
  const v = o[k];
  if (typeof v !== 'boolean') bad(`${path}.${k}`, 'is not a boolean');
  return v;
}
function str(o: Record<string, unknown>, k: string, path: string): string {
  const v = o[k];
  if (typeof v !== 'string') bad(`${path}.${k}`, 'is not a string');
  return v;
}
function oneOf<T extends string>(o: Record<string, unknown>, k: string, path: string, allowed: readonly T[]): T {
  const v = str(o, k, path);
  if (!(allowed as readonly string[]).includes(v)) bad(`${path}.${k}`, `is ${JSON.stringify(v)}, not one of ${allowed.join(', ')}`);
  return v as T;
}
function triple(o: Record<string, unknown>, k: string, path: string): [number, number, number] {
  const v = o[k];
  if (!Array.isArray(v) || v.length !== 3 || !v.every((x) => typeof x === 'number')) bad(`${path}.${k}`, 'is not [x, y, z]');
  return [v[0] as number, v[1] as number, v[2] as number];
}

function widthControls(v: unknown, path: string): WidthFloatControls {
  const o = obj(v, path);
  return {
    signedZeroInfNanPreserve: bool(o, 'signedZeroInfNanPreserve', path),
    denormPreserve: bool(o, 'denormPreserve', path),
    denormFlushToZero: bool(o, 'denormFlushToZero', path),
    roundingModeRTE: bool(o, 'roundingModeRTE', path),
    roundingModeRTZ: bool(o, 'roundingModeRTZ', path),
  };
}

/** Decodes VkSubgroupFeatureFlags into names (and the bits without a name). */
export function subgroupOperations(bits: number): { names: SubgroupOperation[]; unknown: number } {
  const names: SubgroupOperation[] = [];
  let rest = bits >>> 0;
  SUBGROUP_OPERATIONS.forEach((name, i) => {
    if (rest & (1 << i)) {
      names.push(name);
      rest &= ~(1 << i);
    }
  });
  return { names, unknown: rest >>> 0 };
}

/** Checks the addon's raw profile object and returns it typed; throws VulkanError (ERR_VULKAN_PROFILE). */
export function parseDeviceProfile(raw: unknown): DeviceProfile {
  const o = obj(raw, 'profile');
  const sg = obj(o['subgroup'], 'subgroup');
  const ops = subgroupOperations(num(sg, 'supportedOperations', 'subgroup'));
  const fc = obj(o['floatControls'], 'floatControls');
  const ft = obj(o['features'], 'features');
  const li = obj(o['limits'], 'limits');
  const ext = o['extensions'];
  if (!Array.isArray(ext) || !ext.every((e) => typeof e === 'string')) bad('extensions', 'is not a list of strings');
  const f = (k: keyof EnabledFeatures): boolean => bool(ft, k, 'features');
  return {
    apiVersion: str(o, 'apiVersion', 'profile'),
    driverVersion: num(o, 'driverVersion', 'profile'),
    deviceName: str(o, 'deviceName', 'profile'),
    deviceType: oneOf(o, 'deviceType', 'profile', DEVICE_TYPES),
    vendorId: num(o, 'vendorId', 'profile'),
    deviceId: num(o, 'deviceId', 'profile'),
    driverId: num(o, 'driverId', 'profile'),
    driverName: str(o, 'driverName', 'profile'),
    driverInfo: str(o, 'driverInfo', 'profile'),
    subgroup: {
      size: num(sg, 'size', 'subgroup'),
      minSize: num(sg, 'minSize', 'subgroup'),
      maxSize: num(sg, 'maxSize', 'subgroup'),
      maxComputeWorkgroupSubgroups: num(sg, 'maxComputeWorkgroupSubgroups', 'subgroup'),
      requiredSizeInCompute: bool(sg, 'requiredSizeInCompute', 'subgroup'),
      supportedInCompute: bool(sg, 'supportedInCompute', 'subgroup'),
      supportedOperations: ops.names,
      unknownOperationBits: ops.unknown,
    },
    floatControls: {
      denormBehaviorIndependence: oneOf(fc, 'denormBehaviorIndependence', 'floatControls', INDEPENDENCE),
      roundingModeIndependence: oneOf(fc, 'roundingModeIndependence', 'floatControls', INDEPENDENCE),
      f16: widthControls(fc['f16'], 'floatControls.f16'),
      f32: widthControls(fc['f32'], 'floatControls.f32'),
      f64: widthControls(fc['f64'], 'floatControls.f64'),
    },
    features: {
      shaderFloat64: f('shaderFloat64'),
      shaderInt64: f('shaderInt64'),
      shaderInt16: f('shaderInt16'),
      shaderFloat16: f('shaderFloat16'),
      shaderInt8: f('shaderInt8'),
      storageBuffer8BitAccess: f('storageBuffer8BitAccess'),
      storageBuffer16BitAccess: f('storageBuffer16BitAccess'),
      bufferDeviceAddress: f('bufferDeviceAddress'),
      shaderBufferInt64Atomics: f('shaderBufferInt64Atomics'),
      subgroupSizeControl: f('subgroupSizeControl'),
      computeFullSubgroups: f('computeFullSubgroups'),
      vulkanMemoryModel: f('vulkanMemoryModel'),
      vulkanMemoryModelDeviceScope: f('vulkanMemoryModelDeviceScope'),
      shaderSubgroupClock: f('shaderSubgroupClock'),
      shaderDeviceClock: f('shaderDeviceClock'),
    },
    limits: {
      maxComputeWorkGroupCount: triple(li, 'maxComputeWorkGroupCount', 'limits'),
      maxComputeWorkGroupSize: triple(li, 'maxComputeWorkGroupSize', 'limits'),
      maxComputeWorkGroupInvocations: num(li, 'maxComputeWorkGroupInvocations', 'limits'),
      maxComputeSharedMemorySize: num(li, 'maxComputeSharedMemorySize', 'limits'),
      maxPushConstantsSize: num(li, 'maxPushConstantsSize', 'limits'),
      maxStorageBufferRange: num(li, 'maxStorageBufferRange', 'limits'),
      maxPerStageDescriptorStorageBuffers: num(li, 'maxPerStageDescriptorStorageBuffers', 'limits'),
      timestampPeriod: num(li, 'timestampPeriod', 'limits'),
      timestampComputeAndGraphics: bool(li, 'timestampComputeAndGraphics', 'limits'),
      timestampValidBits: num(li, 'timestampValidBits', 'limits'),
    },
    extensions: ext as string[],
  };
}

/** The float controls of one width. */
export function floatControlsFor(profile: DeviceProfile, width: FloatWidth): WidthFloatControls {
  return width === 16 ? profile.floatControls.f16 : width === 32 ? profile.floatControls.f32 : profile.floatControls.f64;
}

/** A short human-readable summary, one fact a line (for `rdna` commands and test logs). */
export function describeProfile(p: DeviceProfile): string[] {
  const yn = (b: boolean): string => (b ? 'y' : 'n');
  const widths = (k: keyof WidthFloatControls): string =>
    `${yn(p.floatControls.f16[k])} ${yn(p.floatControls.f32[k])} ${yn(p.floatControls.f64[k])}`;
  const on = Object.entries(p.features)
    .filter(([, v]) => v)
    .map(([k]) => k);
  return [
    `device: ${p.deviceName} (${p.deviceType}), Vulkan ${p.apiVersion}, driver ${p.driverName}: ${p.driverInfo}`,
    `subgroup: size ${p.subgroup.size}, min ${p.subgroup.minSize}, max ${p.subgroup.maxSize}` +
      `${p.subgroup.requiredSizeInCompute ? ', required size settable in compute' : ''}; ` +
      `operations ${p.subgroup.supportedOperations.join(' ')}`,
    `float controls: independence denorm ${p.floatControls.denormBehaviorIndependence}, rounding ${p.floatControls.roundingModeIndependence}`,
    `  f16 f32 f64: SignedZeroInfNanPreserve ${widths('signedZeroInfNanPreserve')}, DenormPreserve ${widths('denormPreserve')}, ` +
      `DenormFlushToZero ${widths('denormFlushToZero')}, RTE ${widths('roundingModeRTE')}, RTZ ${widths('roundingModeRTZ')}`,
    `features: ${on.join(' ')}`,
  ];
}
