// What a Vulkan device offers the recompiler, as translation needs it (the runtime fills it from
// VkPhysicalDeviceFloatControlsProperties and the subgroup properties; `rdna compile --profile`
// will choose one offline). Core: no Node APIs.

export interface WidthControls {
  readonly roundingModeRTE: boolean;
  readonly roundingModeRTZ: boolean;
  readonly denormPreserve: boolean;
  readonly denormFlushToZero: boolean;
  readonly signedZeroInfNanPreserve: boolean;
}

/**
 * VkShaderFloatControlsIndependence without its prefix: whether the float controls of each width can
 * be set apart from the others (ALL), 32-bit alone while 16 and 64 must agree (32_BIT_ONLY), or not
 * at all (NONE: every width must be set identically).
 */
export type FloatControlsIndependence = '32_BIT_ONLY' | 'ALL' | 'NONE';
export const INDEPENDENCE_VALUES: readonly FloatControlsIndependence[] = ['32_BIT_ONLY', 'ALL', 'NONE'];

/**
 * What a device says of its subgroups for compute (VkPhysicalDeviceVulkan11Properties,
 * VkPhysicalDeviceSubgroupSizeControlProperties and the enabled subgroupSizeControl /
 * computeFullSubgroups features): what the lane exchange's choice reads (lane-exchange.ts).
 */
export interface SubgroupControls {
  /** subgroupSize: the size a pipeline gets without a required size. */
  readonly size: number;
  /** min/maxSubgroupSize (both `size` without VK_EXT_subgroup_size_control / Vulkan 1.3). */
  readonly minSize: number;
  readonly maxSize: number;
  /** A compute pipeline may require a size in [minSize, maxSize]: subgroupSizeControl enabled and compute in requiredSubgroupSizeStages. */
  readonly sizeControl: boolean;
  /** computeFullSubgroups enabled: a compute pipeline may require full subgroups. */
  readonly fullSubgroups: boolean;
  /** subgroupSupportedStages includes compute. */
  readonly inCompute: boolean;
  /** subgroupSupportedOperations by VkSubgroupFeatureFlagBits name without its prefix and suffix ('basic', 'ballot', 'shuffle', ...). */
  readonly operations: readonly string[];
}

export interface TargetProfile {
  readonly name: string;
  /** VkPhysicalDeviceFloatControlsProperties.denormBehaviorIndependence. */
  readonly denormBehaviorIndependence: FloatControlsIndependence;
  /** VkPhysicalDeviceFloatControlsProperties.roundingModeIndependence. */
  readonly roundingModeIndependence: FloatControlsIndependence;
  readonly f16: WidthControls;
  readonly f32: WidthControls;
  readonly f64: WidthControls;
  readonly shaderInt64: boolean;
  readonly shaderFloat64: boolean;
  /** 8-bit loads and stores through device addresses (VkPhysicalDeviceVulkan12Features): the byte and short memory ops need it. */
  readonly storageBuffer8BitAccess: boolean;
  /** 16-bit loads and stores through device addresses (VkPhysicalDeviceVulkan11Features); not needed yet (shorts go as bytes). */
  readonly storageBuffer16BitAccess: boolean;
  /** 64-bit integer atomics on storage buffers (VkPhysicalDeviceVulkan12Features): the _x2 atomics need it. */
  readonly shaderBufferInt64Atomics: boolean;
  /**
   * Measured, not promised by Vulkan: a dword load or store through an `Aligned 4` pointer at an
   * address that is not 4-byte aligned accesses exactly those four bytes (lavapipe: x86 loads and
   * stores). Where absent or false, such accesses go byte by byte (8-bit storage) or fault; the
   * NVIDIA H200 put them at other places. A device is given it only by its driver id (engine.ts).
   */
  readonly unalignedDwordAccess?: boolean;
  /**
   * Measured: false where f64 device arithmetic in a module (the guarded f32 fma's helper,
   * src/ir/passes/lower-float-guarded.ts) is known to break other code of the module. On the NVIDIA
   * H200 (driver 580.159.04) a kernel's v_pk_add_i16 clamp (SMin/SMax on 32-bit integers) came back
   * unclamped in every module that also held the guarded fma's f64 ops, even when their result was
   * never used, and right without them (tools/vulkan-replay, 2026-12-03); so the fma stays exact
   * integer code there. Absent: allowed. A device gets false by its driver id (engine.ts).
   */
  readonly f64DeviceOps?: boolean;
  /**
   * VK_KHR_shader_clock's features (VkPhysicalDeviceShaderClockFeaturesKHR), as enabled:
   * OpReadClockKHR at Subgroup scope (s_memtime) and at Device scope (s_memrealtime). Absent:
   * not offered, and a kernel that reads that clock is refused (emit.ts clockRefusal).
   */
  readonly shaderSubgroupClock?: boolean;
  readonly shaderDeviceClock?: boolean;
  /** The device's subgroups; absent: nothing promised (every lane exchange through workgroup memory). */
  readonly subgroup?: SubgroupControls;
}

const none: WidthControls = { roundingModeRTE: false, roundingModeRTZ: false, denormPreserve: false, denormFlushToZero: false, signedZeroInfNanPreserve: false };

/** Lavapipe as measured (docs: ../shared/notes/float-controls.md §1): RTE and SignedZeroInfNanPreserve only. */
export const LAVAPIPE_PROFILE: TargetProfile = {
  name: 'lavapipe',
  denormBehaviorIndependence: 'ALL',
  roundingModeIndependence: 'ALL',
  f16: { ...none, roundingModeRTE: true, signedZeroInfNanPreserve: true },
  f32: { ...none, roundingModeRTE: true, signedZeroInfNanPreserve: true },
  f64: { ...none, roundingModeRTE: true, signedZeroInfNanPreserve: true },
  shaderInt64: true,
  shaderFloat64: true,
  storageBuffer8BitAccess: true,
  storageBuffer16BitAccess: true,
  shaderBufferInt64Atomics: true,
  unalignedDwordAccess: true,
  // VK_KHR_shader_clock with both features, as the addon reads it (tests/runtime/vulkan.test.ts).
  shaderSubgroupClock: true,
  shaderDeviceClock: true,
  // As the addon reads it (Mesa 22.3 lavapipe, AVX2): subgroups of 8, size control for exactly 8.
  subgroup: { size: 8, minSize: 8, maxSize: 8, sizeControl: true, fullSubgroups: true, inCompute: true, operations: ['basic', 'vote', 'arithmetic', 'ballot', 'shuffle', 'shuffleRelative', 'quad'] },
};

/** An NVIDIA H200 as its driver (580.159.04) reports it: RTE everywhere, RTZ for f32/f64, DenormPreserve for f16 only. */
export const NVIDIA_H200_PROFILE: TargetProfile = {
  name: 'nvidia',
  denormBehaviorIndependence: 'ALL',
  roundingModeIndependence: 'ALL',
  f16: { ...none, roundingModeRTE: true, denormPreserve: true, signedZeroInfNanPreserve: true },
  f32: { ...none, roundingModeRTE: true, roundingModeRTZ: true, signedZeroInfNanPreserve: true },
  f64: { ...none, roundingModeRTE: true, roundingModeRTZ: true, signedZeroInfNanPreserve: true },
  shaderInt64: true,
  shaderFloat64: true,
  storageBuffer8BitAccess: true,
  storageBuffer16BitAccess: true,
  shaderBufferInt64Atomics: true,
  // f64 device ops broke an unrelated integer clamp there (see TargetProfile.f64DeviceOps).
  f64DeviceOps: false,
  // VK_KHR_shader_clock: NVIDIA's drivers offer both scopes (they back ARB_shader_clock and
  // EXT_shader_realtime_clock). Not read from the H200 here (no device machine came to check it).
  shaderSubgroupClock: true,
  shaderDeviceClock: true,
  // NVIDIA's Vulkan 1.3 drivers: subgroups of 32, fixed (size control over 32..32), full subgroups.
  // Not read from the H200 here: the replay prints the device's own (tools/vulkan-replay.mjs).
  subgroup: { size: 32, minSize: 32, maxSize: 32, sizeControl: true, fullSubgroups: true, inCompute: true, operations: ['basic', 'vote', 'arithmetic', 'ballot', 'shuffle', 'shuffleRelative', 'clustered', 'quad'] },
};

/**
 * RADV with ACO on RDNA2 (GFX10.3) as Mesa's radv_physical_device.c sets it, not measured here: every
 * float control of every width (packed 16-bit math, GFX8+, ACO), 32_BIT_ONLY independence (16-bit and
 * 64-bit share one hardware MODE field). signedZeroInfNanPreserve for f64 was not in the source
 * read, so it is not promised.
 */
export const RADV_PROFILE: TargetProfile = {
  name: 'radv',
  denormBehaviorIndependence: '32_BIT_ONLY',
  roundingModeIndependence: '32_BIT_ONLY',
  f16: { roundingModeRTE: true, roundingModeRTZ: true, denormPreserve: true, denormFlushToZero: true, signedZeroInfNanPreserve: true },
  f32: { roundingModeRTE: true, roundingModeRTZ: true, denormPreserve: true, denormFlushToZero: true, signedZeroInfNanPreserve: true },
  f64: { roundingModeRTE: true, roundingModeRTZ: true, denormPreserve: true, denormFlushToZero: true, signedZeroInfNanPreserve: false },
  shaderInt64: true,
  shaderFloat64: true,
  storageBuffer8BitAccess: true,
  storageBuffer16BitAccess: true,
  shaderBufferInt64Atomics: true,
  // VK_KHR_shader_clock (radv_physical_device.c): shaderSubgroupClock always, shaderDeviceClock from GFX8 on.
  shaderSubgroupClock: true,
  shaderDeviceClock: true,
  // RADV on GFX10.3: wave64 by default for compute, wave32 or wave64 on request (size control), full subgroups.
  subgroup: { size: 64, minSize: 32, maxSize: 64, sizeControl: true, fullSubgroups: true, inCompute: true, operations: ['basic', 'vote', 'arithmetic', 'ballot', 'shuffle', 'shuffleRelative', 'clustered', 'quad'] },
};

/** Nothing promised: every float op is lowered exactly. */
export const PORTABLE_PROFILE: TargetProfile = { name: 'portable', denormBehaviorIndependence: 'NONE', roundingModeIndependence: 'NONE', f16: none, f32: none, f64: none, shaderInt64: true, shaderFloat64: false, storageBuffer8BitAccess: false, storageBuffer16BitAccess: false, shaderBufferInt64Atomics: false, shaderSubgroupClock: false, shaderDeviceClock: false };

export const PROFILES: Readonly<Record<string, TargetProfile>> = { lavapipe: LAVAPIPE_PROFILE, nvidia: NVIDIA_H200_PROFILE, radv: RADV_PROFILE, portable: PORTABLE_PROFILE };

const CONTROL_KEYS = ['roundingModeRTE', 'roundingModeRTZ', 'denormPreserve', 'denormFlushToZero', 'signedZeroInfNanPreserve'] as const;

/**
 * A profile from JSON text (`rdna compile --profile FILE.json`): every field checked, unknown ones
 * refused; storageBuffer8BitAccess / storageBuffer16BitAccess / shaderBufferInt64Atomics / shaderSubgroupClock /
 * shaderDeviceClock may be left out (false: nothing promised),
 * and so may denormBehaviorIndependence / roundingModeIndependence ('NONE': nothing promised).
 */
export function parseProfile(text: string, where: string): TargetProfile {
  let o: unknown;
  try { o = JSON.parse(text); } catch (e) { throw new Error(`${where}: not valid JSON: ${(e instanceof Error ? e.message : String(e)).split('\n')[0]}`); }
  if (typeof o !== 'object' || o === null || Array.isArray(o)) throw new Error(`${where}: a profile is a JSON object`);
  const r = o as Record<string, unknown>;
  const known = ['name', 'denormBehaviorIndependence', 'roundingModeIndependence', 'f16', 'f32', 'f64', 'shaderInt64', 'shaderFloat64', 'storageBuffer8BitAccess', 'storageBuffer16BitAccess', 'shaderBufferInt64Atomics', 'unalignedDwordAccess', 'f64DeviceOps', 'shaderSubgroupClock', 'shaderDeviceClock', 'subgroup'];
  for (const k of Object.keys(r)) if (!known.includes(k)) throw new Error(`${where}: field '${k}' is not a profile field (known: ${known.join(', ')})`);
  const width = (k: 'f16' | 'f32' | 'f64'): WidthControls => {
    const w = r[k];
    if (typeof w !== 'object' || w === null || Array.isArray(w)) throw new Error(`${where}: field '${k}' must be an object of ${CONTROL_KEYS.join(', ')}`);
    const wr = w as Record<string, unknown>;
    for (const c of Object.keys(wr)) if (!(CONTROL_KEYS as readonly string[]).includes(c)) throw new Error(`${where}: field '${k}.${c}' is not a float control`);
    const out: Record<string, boolean> = {};
    for (const c of CONTROL_KEYS) {
      if (typeof wr[c] !== 'boolean') throw new Error(`${where}: field '${k}.${c}' must be true or false`);
      out[c] = wr[c] as boolean;
    }
    return out as unknown as WidthControls;
  };
  for (const k of ['shaderInt64', 'shaderFloat64']) if (typeof r[k] !== 'boolean') throw new Error(`${where}: field '${k}' must be true or false`);
  for (const k of ['storageBuffer8BitAccess', 'storageBuffer16BitAccess', 'shaderBufferInt64Atomics', 'unalignedDwordAccess', 'f64DeviceOps', 'shaderSubgroupClock', 'shaderDeviceClock']) if (r[k] !== undefined && typeof r[k] !== 'boolean') throw new Error(`${where}: field '${k}' must be true or false`);
  if (typeof r.name !== 'string' || r.name === '') throw new Error(`${where}: field 'name' must be a non-empty string`);
  const independence = (k: 'denormBehaviorIndependence' | 'roundingModeIndependence'): FloatControlsIndependence => {
    const v = r[k];
    if (v === undefined) return 'NONE';
    if (typeof v !== 'string' || !(INDEPENDENCE_VALUES as readonly string[]).includes(v)) throw new Error(`${where}: field '${k}' must be one of ${INDEPENDENCE_VALUES.join(', ')}`);
    return v as FloatControlsIndependence;
  };
  return { name: r.name, denormBehaviorIndependence: independence('denormBehaviorIndependence'), roundingModeIndependence: independence('roundingModeIndependence'), f16: width('f16'), f32: width('f32'), f64: width('f64'), shaderInt64: r.shaderInt64 as boolean, shaderFloat64: r.shaderFloat64 as boolean,
    storageBuffer8BitAccess: r.storageBuffer8BitAccess === true, storageBuffer16BitAccess: r.storageBuffer16BitAccess === true,
    shaderBufferInt64Atomics: r.shaderBufferInt64Atomics === true, unalignedDwordAccess: r.unalignedDwordAccess === true,
    shaderSubgroupClock: r.shaderSubgroupClock === true, shaderDeviceClock: r.shaderDeviceClock === true,
    ...(r.f64DeviceOps === false ? { f64DeviceOps: false } : {}),
    ...(r.subgroup !== undefined ? { subgroup: parseSubgroup(r.subgroup, where) } : {}) };
}

const SUBGROUP_NUMBERS = ['size', 'minSize', 'maxSize'] as const;
const SUBGROUP_FLAGS = ['sizeControl', 'fullSubgroups', 'inCompute'] as const;

/** A profile's `subgroup` object: every field given and checked (sizes powers of two with min <= size <= max). */
function parseSubgroup(v: unknown, where: string): SubgroupControls {
  const known = [...SUBGROUP_NUMBERS, ...SUBGROUP_FLAGS, 'operations'];
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new Error(`${where}: field 'subgroup' must be an object of ${known.join(', ')}`);
  const o = v as Record<string, unknown>;
  for (const k of Object.keys(o)) if (!known.includes(k)) throw new Error(`${where}: field 'subgroup.${k}' is not a subgroup field (known: ${known.join(', ')})`);
  for (const k of SUBGROUP_NUMBERS) {
    const n = o[k];
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > 128 || (n & (n - 1)) !== 0) throw new Error(`${where}: field 'subgroup.${k}' must be a power of two 1..128`);
  }
  for (const k of SUBGROUP_FLAGS) if (typeof o[k] !== 'boolean') throw new Error(`${where}: field 'subgroup.${k}' must be true or false`);
  const ops = o.operations;
  if (!Array.isArray(ops) || !ops.every((x) => typeof x === 'string')) throw new Error(`${where}: field 'subgroup.operations' must be a list of operation names (basic, ballot, shuffle, ...)`);
  const [size, minSize, maxSize] = SUBGROUP_NUMBERS.map((k) => o[k] as number) as [number, number, number];
  if (!(minSize <= size && size <= maxSize)) throw new Error(`${where}: field 'subgroup': minSize <= size <= maxSize does not hold (${minSize}, ${size}, ${maxSize})`);
  return { size, minSize, maxSize, sizeControl: o.sizeControl as boolean, fullSubgroups: o.fullSubgroups as boolean, inCompute: o.inCompute as boolean, operations: [...ops as string[]] };
}
