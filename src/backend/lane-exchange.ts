// How a recompiled kernel exchanges values between the lanes of a wave (lane masks as ballots of
// v_cmp, EXEC tests, v_readlane/readfirstlane/writelane, DPP source lanes, ds_swizzle/bpermute/
// permute, the byte stores' lane order): one choice per kernel, here, with its reason. Core: no
// Node APIs.
//
// Either layout runs one RDNA wave on one Vulkan workgroup of exactly wave-size invocations at a
// time (LocalSize = wave size, emit.ts). Two strategies:
//  - 'subgroup': when the pipeline can be made to run that workgroup as one full subgroup of the
//    wave's size, the exchanges are subgroup operations (OpGroupNonUniformBallot, ...Shuffle),
//    subgroup invocation i being lane i. That needs a subgroup of exactly the wave's size (a
//    required size in [minSize, maxSize] under size control, or a default size equal to the
//    wave's when none can be required), full subgroups required (computeFullSubgroups: every
//    invocation active at the entry), compute among the subgroup stages, and the basic, ballot
//    and shuffle operations.
//  - 'workgroup-memory': otherwise, through workgroup arrays and barriers, correct on any subgroup
//    size: a subgroup smaller than the wave (lavapipe's 8; a wave64 on a device of 32, whose lanes
//    span several subgroups) or larger than it (a wave32 on a device whose only size is 64, where
//    the workgroup would be a partial subgroup).
// Both need the invocations in uniform control flow where they exchange (the translation keeps all
// lanes in the IR's wave-uniform flow; EXEC is data): emit.ts checks that no exchange is emitted
// inside the emitter's own lane-dependent branches.
import type { TargetProfile } from './profile.js';

export type LaneExchange =
  | {
    readonly kind: 'subgroup';
    /** The subgroup size the pipeline runs with (the wave size). */
    readonly subgroupSize: 32 | 64;
    /** VkPipelineShaderStageRequiredSubgroupSizeCreateInfo.requiredSubgroupSize; absent: the device's default size is the wave's and cannot be required. */
    readonly requiredSubgroupSize?: 32 | 64;
    /** VK_PIPELINE_SHADER_STAGE_CREATE_REQUIRE_FULL_SUBGROUPS_BIT: always, on this path. */
    readonly fullSubgroups: true;
    readonly why: string;
  }
  | { readonly kind: 'workgroup-memory'; readonly why: string };

/** The subgroup operations (VkSubgroupFeatureFlagBits names) the subgroup path emits. */
export const SUBGROUP_OPERATIONS_NEEDED: readonly string[] = ['basic', 'ballot', 'shuffle'];

/**
 * The choice for each profile, by wave size: asked for every kernel, answered once (a profile
 * is never changed, nor is a choice; each was a record and its text made per kernel).
 */
const CHOSEN = new WeakMap<TargetProfile, { 32?: LaneExchange; 64?: LaneExchange }>();

/** The strategy for a kernel of `waveSize` on `profile`, and why (the rules in the header, in order). */
export function chooseLaneExchange(profile: TargetProfile, waveSize: 32 | 64): LaneExchange {
  let byWave = CHOSEN.get(profile);
  if (!byWave) {
    byWave = {};
    CHOSEN.set(profile, byWave);
  }
  return byWave[waveSize] ??= choose(profile, waveSize);
}

function choose(profile: TargetProfile, waveSize: 32 | 64): LaneExchange {
  const sg = profile.subgroup;
  const memory = (why: string): LaneExchange => ({ kind: 'workgroup-memory', why });
  if (!sg) return memory(`the ${profile.name} profile promises nothing about subgroups`);
  if (!sg.inCompute) return memory('the device has no subgroup operations in compute shaders');
  const missing = SUBGROUP_OPERATIONS_NEEDED.filter((o) => !sg.operations.includes(o));
  if (missing.length > 0) return memory(`the device's subgroups lack the ${missing.join(', ')} operations`);
  const range = sg.minSize === sg.maxSize ? `${sg.size}` : `${sg.minSize}..${sg.maxSize}`;
  const settable = sg.sizeControl && sg.minSize <= waveSize && waveSize <= sg.maxSize;
  if (!settable && sg.size !== waveSize) {
    const cannot = sg.sizeControl ? `can be required only in ${sg.minSize}..${sg.maxSize}` : `is ${sg.size} and cannot be required (no subgroup size control)`;
    const shape = sg.maxSize < waveSize || (!sg.sizeControl && sg.size < waveSize) ? `a wave's lanes would span several subgroups` : `the wave would be a partial subgroup`;
    return memory(`wave${waveSize}: the subgroup size ${cannot}; ${shape}`);
  }
  if (!sg.fullSubgroups) return memory(`wave${waveSize}: the device cannot require full subgroups (no computeFullSubgroups), so not every lane is sure to be in the subgroup`);
  if (settable) return { kind: 'subgroup', subgroupSize: waveSize, requiredSubgroupSize: waveSize, fullSubgroups: true, why: `wave${waveSize}: subgroup size ${waveSize} required (size control over ${range}) with full subgroups: the workgroup of ${waveSize} invocations is one subgroup` };
  return { kind: 'subgroup', subgroupSize: waveSize, fullSubgroups: true, why: `wave${waveSize}: the device's subgroup size is ${waveSize}, with full subgroups: the workgroup of ${waveSize} invocations is one subgroup` };
}
