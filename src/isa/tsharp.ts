// The gfx10 image resource descriptor (T#, 8 dwords; 4 with MIMG's r128), one declarative table
// of its fields that both engines read: the interpreter with numbers (`tsharpField`), the
// recompiler as bit-field extracts of the descriptor's SGPRs.
//
// Sources, cross-checked: ROCm ROCR-Runtime src/image/resource_nv.h (SQ_IMG_RSRC_WORD0..7 for
// Navi, with the gfx1030 PITCH overlay of word 4) and image_manager_nv.cpp (how AMD's HSA image
// runtime fills them for gfx10 and gfx10.3); Mesa src/amd/common/ac_descriptors.c (gfx10 texture
// descriptors: S_00A004_* .. S_00A014_*; "GFX10.3+ can set a custom pitch for 1D and 2D
// non-array ... DEPTH contains low bits of PITCH").

/** [dword, first bit, width] of a T# field. */
export type TsharpFieldPos = readonly [number, number, number];

export const TSHARP_FIELDS = {
  /** Address bits 39:8 (the base is 256-byte aligned). */
  baseLo: [0, 0, 32],
  /** Address bits 47:40. */
  baseHi: [1, 0, 8],
  minLod: [1, 8, 12],
  /** The unified format (gfx10 FORMAT: the buffer formats' numbers 0..77, image-only ones from 128). */
  format: [1, 20, 9],
  /** width - 1, bits 1:0 ... */
  widthLo: [1, 30, 2],
  /** ... and bits 13:2 (the level-0 width). */
  widthHi: [2, 0, 12],
  /** height - 1 (level 0). */
  height: [2, 14, 14],
  resourceLevel: [2, 31, 1],
  dstSelX: [3, 0, 3],
  dstSelY: [3, 3, 3],
  dstSelZ: [3, 6, 3],
  dstSelW: [3, 9, 3],
  /** The view's first and last mip level (absolute levels of the resource). */
  baseLevel: [3, 12, 4],
  lastLevel: [3, 16, 4],
  /** The swizzle mode: 0 is linear (ADDR_SW_LINEAR); the others are tiled. */
  swMode: [3, 20, 5],
  bcSwizzle: [3, 25, 3],
  /** SQ_RSRC_IMG_*: 8 1D, 9 2D, 10 3D, 11 cube, 12 1D array, 13 2D array, 14 2D MSAA, 15 2D MSAA array. */
  type: [3, 28, 4],
  /** 3D: depth - 1; arrays: the view's last slice (absolute); gfx10.3 1D/2D/MSAA: pitch - 1, bits 12:0. */
  depth: [4, 0, 13],
  /** gfx10.3 1D/2D/MSAA: pitch - 1, bit 13. */
  pitchMsb: [4, 13, 1],
  /** The view's first slice (arrays, cube). */
  baseArray: [4, 16, 13],
  arrayPitch: [5, 0, 4],
  /** The resource's last mip level (its level count - 1): the linear mip chain's length. */
  maxMip: [5, 4, 4],
} as const satisfies Record<string, TsharpFieldPos>;

export type TsharpFieldName = keyof typeof TSHARP_FIELDS;

/** A field's value from the descriptor dwords (missing dwords, as under r128, read 0). */
export function tsharpField(words: readonly number[], name: TsharpFieldName): number {
  const [d, at, n] = TSHARP_FIELDS[name];
  const w = (words[d] ?? 0) >>> 0;
  return n === 32 ? w : (w >>> at) & ((1 << n) - 1);
}

/** SQ_RSRC_IMG_* resource types. */
export const IMG_TYPE = { d1: 8, d2: 9, d3: 10, cube: 11, d1Array: 12, d2Array: 13, msaa: 14, msaaArray: 15 } as const;
