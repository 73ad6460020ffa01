// The gfx10 sampler descriptor (S#, 4 dwords: a MIMG sample or gather4 instruction's SSAMP field
// names its first SGPR), one declarative table of its fields beside the T#'s (./tsharp.ts), read
// by both engines: the interpreter with numbers (`ssharpField`), the recompiler as bit-field
// extracts of the descriptor's SGPRs.
//
// Sources, cross-checked: ROCm ROCR-Runtime src/image/resource_nv.h (SQ_IMG_SAMP_WORD0..3 for
// Navi: CLAMP_X/Y/Z, MAX_ANISO_RATIO, DEPTH_COMPARE_FUNC, FORCE_UNNORMALIZED, ANISO_THRESHOLD,
// MC_COORD_TRUNC, FORCE_DEGAMMA, ANISO_BIAS, TRUNC_COORD, DISABLE_CUBE_WRAP, FILTER_MODE,
// SKIP_DEGAMMA; MIN_LOD, MAX_LOD, PERF_MIP, PERF_Z; the 14-bit LOD_BIAS (its BC_LRS_LB and
// BC_OR_BCT), LOD_BIAS_SEC, XY_MAG_FILTER, XY_MIN_FILTER, Z_FILTER, MIP_FILTER, MIP_POINT_PRECLAMP,
// ANISO_OVERRIDE, BLEND_ZERO_PRT, DERIV_ADJUST_EN; BORDER_COLOR_PTR's 12 bits and BORDER_COLOR_TYPE);
// Mesa src/amd/common/ac_descriptors.c ac_build_sampler_descriptor and radv_sampler.c (which
// values the drivers write: S_008F30_* .. S_008F3C_*, the filters' and address modes' encodings,
// MIN_LOD/MAX_LOD as u4.8 of a lod clamped to [0, 15]).

/** [dword, first bit, width] of an S# field. */
export type SsharpFieldPos = readonly [number, number, number];

export const SSHARP_FIELDS = {
  /** The address modes per axis (SQ_TEX_CLAMP: SSHARP_CLAMP). */
  clampX: [0, 0, 3],
  clampY: [0, 3, 3],
  clampZ: [0, 6, 3],
  maxAnisoRatio: [0, 9, 3],
  /** SQ_TEX_DEPTH_COMPARE: 0 never, 1 less, 2 equal, 3 less-equal, 4 greater, 5 not-equal, 6 greater-equal, 7 always. */
  depthCompareFunc: [0, 12, 3],
  /** Coordinates in texels whatever the instruction's UNRM says. */
  forceUnnormalized: [0, 15, 1],
  anisoThreshold: [0, 16, 3],
  mcCoordTrunc: [0, 19, 1],
  forceDegamma: [0, 20, 1],
  anisoBias: [0, 21, 6],
  /** 1: truncate a coordinate to its texel; 0: the sub-texel rounding (see src/image/sample.ts). */
  truncCoord: [0, 27, 1],
  disableCubeWrap: [0, 28, 1],
  /** SQ_IMG_FILTER_MODE: 0 blend, 1 min, 2 max (the reduction). */
  filterMode: [0, 29, 2],
  skipDegamma: [0, 31, 1],
  /** The LOD clamp, u4.8. */
  minLod: [1, 0, 12],
  maxLod: [1, 12, 12],
  perfMip: [1, 24, 4],
  perfZ: [1, 28, 4],
  /** s5.8. */
  lodBias: [2, 0, 14],
  lodBiasSec: [2, 14, 6],
  /** SQ_TEX_XY_FILTER: 0 point, 1 bilinear, 2 aniso point, 3 aniso bilinear. */
  xyMagFilter: [2, 20, 2],
  xyMinFilter: [2, 22, 2],
  /** SQ_TEX_Z_FILTER: 0 none, 1 point, 2 linear. */
  zFilter: [2, 24, 2],
  /** SQ_TEX_Z_FILTER (the mip filter): 0 none, 1 point, 2 linear. */
  mipFilter: [2, 26, 2],
  mipPointPreclamp: [2, 28, 1],
  anisoOverride: [2, 29, 1],
  blendZeroPrt: [2, 30, 1],
  derivAdjustEn: [2, 31, 1],
  borderColorPtr: [3, 0, 12],
  /** SQ_TEX_BORDER_COLOR: 0 transparent black, 1 opaque black, 2 opaque white, 3 the border colour register table. */
  borderColorType: [3, 30, 2],
} as const satisfies Record<string, SsharpFieldPos>;

export type SsharpFieldName = keyof typeof SSHARP_FIELDS;

/** A field's value from the descriptor's 4 dwords. */
export function ssharpField(words: readonly number[], name: SsharpFieldName): number {
  const [d, at, n] = SSHARP_FIELDS[name];
  return (((words[d] ?? 0) >>> 0) >>> at) & ((1 << n) - 1);
}

/** SQ_TEX_CLAMP: the address modes. */
export const SSHARP_CLAMP = {
  wrap: 0, mirror: 1, clampLastTexel: 2, mirrorOnceLastTexel: 3, clampHalfBorder: 4, mirrorOnceHalfBorder: 5, clampBorder: 6, mirrorOnceBorder: 7,
} as const;

/** SQ_TEX_BORDER_COLOR. */
export const SSHARP_BORDER = { transBlack: 0, opaqueBlack: 1, opaqueWhite: 2, register: 3 } as const;
