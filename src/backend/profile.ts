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
};
