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

export interface TargetProfile {
  readonly name: string;
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
}

const none: WidthControls = { roundingModeRTE: false, roundingModeRTZ: false, denormPreserve: false, denormFlushToZero: false, signedZeroInfNanPreserve: false };

/** Lavapipe as measured (docs: ../shared/notes/float-controls.md §1): RTE and SignedZeroInfNanPreserve only. */
export const LAVAPIPE_PROFILE: TargetProfile = {
  name: 'lavapipe',
  f16: { ...none, roundingModeRTE: true, signedZeroInfNanPreserve: true },
  f32: { ...none, roundingModeRTE: true, signedZeroInfNanPreserve: true },
  f64: { ...none, roundingModeRTE: true, signedZeroInfNanPreserve: true },
  shaderInt64: true,
  shaderFloat64: true,
  storageBuffer8BitAccess: true,
  storageBuffer16BitAccess: true,
  shaderBufferInt64Atomics: true,
};

/** An NVIDIA H200 as its driver (580.159.04) reports it: RTE everywhere, RTZ for f32/f64, DenormPreserve for f16 only. */
export const NVIDIA_H200_PROFILE: TargetProfile = {
  name: 'nvidia',
  f16: { ...none, roundingModeRTE: true, denormPreserve: true, signedZeroInfNanPreserve: true },
  f32: { ...none, roundingModeRTE: true, roundingModeRTZ: true, signedZeroInfNanPreserve: true },
  f64: { ...none, roundingModeRTE: true, roundingModeRTZ: true, signedZeroInfNanPreserve: true },
  shaderInt64: true,
  shaderFloat64: true,
  storageBuffer8BitAccess: true,
  storageBuffer16BitAccess: true,
  shaderBufferInt64Atomics: true,
};

/** Nothing promised: every float op is lowered exactly. */
export const PORTABLE_PROFILE: TargetProfile = { name: 'portable', f16: none, f32: none, f64: none, shaderInt64: true, shaderFloat64: false, storageBuffer8BitAccess: false, storageBuffer16BitAccess: false, shaderBufferInt64Atomics: false };

export const PROFILES: Readonly<Record<string, TargetProfile>> = { lavapipe: LAVAPIPE_PROFILE, nvidia: NVIDIA_H200_PROFILE, portable: PORTABLE_PROFILE };

const CONTROL_KEYS = ['roundingModeRTE', 'roundingModeRTZ', 'denormPreserve', 'denormFlushToZero', 'signedZeroInfNanPreserve'] as const;

/**
 * A profile from JSON text (`rdna compile --profile FILE.json`): every field checked, unknown ones
 * refused; storageBuffer8BitAccess / storageBuffer16BitAccess / shaderBufferInt64Atomics may be left out (false: nothing promised).
 */
export function parseProfile(text: string, where: string): TargetProfile {
  let o: unknown;
  try { o = JSON.parse(text); } catch (e) { throw new Error(`${where}: not valid JSON: ${(e instanceof Error ? e.message : String(e)).split('\n')[0]}`); }
  if (typeof o !== 'object' || o === null || Array.isArray(o)) throw new Error(`${where}: a profile is a JSON object`);
  const r = o as Record<string, unknown>;
  const known = ['name', 'f16', 'f32', 'f64', 'shaderInt64', 'shaderFloat64', 'storageBuffer8BitAccess', 'storageBuffer16BitAccess', 'shaderBufferInt64Atomics'];
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
  for (const k of ['storageBuffer8BitAccess', 'storageBuffer16BitAccess', 'shaderBufferInt64Atomics']) if (r[k] !== undefined && typeof r[k] !== 'boolean') throw new Error(`${where}: field '${k}' must be true or false`);
  if (typeof r.name !== 'string' || r.name === '') throw new Error(`${where}: field 'name' must be a non-empty string`);
  return { name: r.name, f16: width('f16'), f32: width('f32'), f64: width('f64'), shaderInt64: r.shaderInt64 as boolean, shaderFloat64: r.shaderFloat64 as boolean,
    storageBuffer8BitAccess: r.storageBuffer8BitAccess === true, storageBuffer16BitAccess: r.storageBuffer16BitAccess === true,
    shaderBufferInt64Atomics: r.shaderBufferInt64Atomics === true };
}
