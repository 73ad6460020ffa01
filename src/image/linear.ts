// Where a texel of a linear (SW_MODE 0) gfx10 image lies, and whether it is in the view's bounds:
// written once over an integer arithmetic interface that the interpreter instantiates with
// numbers (NUMBER_IMAGE_ARITH) and the recompiler with IR builders (src/frontend/units/mimg.ts),
// so both engines address the same bytes by construction.
//
// The layout is AMD addrlib's for gfx10 linear surfaces (Gfx10Lib::HwlComputeSurfaceInfoLinear,
// ROCm ROCR-Runtime src/image/addrlib/src/gfx10/gfx10addrlib.cpp):
//   - a level's row pitch is its width rounded up to 256 bytes: align(max(W >> l, 1), 256 / bpe)
//     elements (bpe, the element's bytes, a power of two);
//   - a slice holds the whole mip chain, the smallest level first: level l lies after levels
//     maxMip .. l + 1 (each pitch(i) * max(H >> i, 1) * bpe bytes), so level 0 comes last;
//   - slices (array layers, or the z of a 3D image, whose levels keep every slice) follow each
//     other at the slice size, the sum over the chain.
// gfx10.3 (gfx1030) adds a custom pitch for 1D and 2D images (the T#'s DEPTH/PITCH field holds
// pitch - 1; Mesa sets it only for imported linear images, a multiple of 256 bytes, and leaves the
// field 0 otherwise; ROCr sets it to addrlib's pitch). Our reading, which agrees with both: level
// 0's pitch is max(field + 1, the computed pitch). Not measured on hardware (docs/TECHNICAL_DEBT.md).
//
// Bounds (an image load outside them reads 0, a store or atomic there does nothing): the view's
// levels are BASE_LEVEL .. LAST_LEVEL (a _mip form's mip operand counts from BASE_LEVEL), x below
// the level's width, y below its height (2D, 3D, 2D array, cube), z below its depth (3D), and for
// arrays and cubes the slice BASE_ARRAY + s at most DEPTH (the view's last slice). 1D and 2D
// images use slice BASE_ARRAY, unchecked. Coordinates are unsigned: a negative one is out of bounds.

/** The image classes a MIMG DIM addresses (MSAA is not modelled). */
export type ImageClass = '1d' | '2d' | '3d' | 'cube' | '1dArray' | '2dArray';

/** MIMG DIM (SQ_RSRC_IMG_1D .. 2D_MSAA_ARRAY, 0..7) → class; undefined: the MSAA dims. */
export const DIM_CLASS: readonly (ImageClass | undefined)[] = ['1d', '2d', '3d', 'cube', '1dArray', '2dArray', undefined, undefined];

/** The T# TYPE (SQ_RSRC_IMG_*) a class's instructions must meet. */
export const CLASS_TYPE: Readonly<Record<ImageClass, number>> = { '1d': 8, '2d': 9, '3d': 10, cube: 11, '1dArray': 12, '2dArray': 13 };

/** The coordinates a class's address VGPRs hold, in order (before a _mip form's mip). */
export const CLASS_COORDS: Readonly<Record<ImageClass, readonly ('x' | 'y' | 'z' | 's')[]>> = {
  '1d': ['x'], '2d': ['x', 'y'], '3d': ['x', 'y', 'z'], cube: ['x', 'y', 's'], '1dArray': ['x', 's'], '2dArray': ['x', 'y', 's'],
};

/** Integer arithmetic: U a u32, B a bool, W a u64 (wrapping). */
export interface ImageArith<U, B, W> {
  k(n: number): U;
  add(a: U, b: U): U;
  sub(a: U, b: U): U;
  and(a: U, b: U): U;
  shl(a: U, n: U): U;
  shr(a: U, n: U): U;
  umax(a: U, b: U): U;
  ult(a: U, b: U): B;
  ule(a: U, b: U): B;
  eq(a: U, b: U): B;
  both(a: B, b: B): B;
  sel(c: B, a: U, b: U): U;
  /** a · b, both u32, as a u64. */
  mulWide(a: U, b: U): W;
  /** a · b mod 2^64. */
  mulUW(a: U, b: W): W;
  addW(a: W, b: W): W;
  shlW(a: W, n: U): W;
  selW(c: B, a: W, b: W): W;
  kW(n: number): W;
}

/** The T# fields the layout reads (see src/isa/tsharp.ts), as values. */
export interface ImageDims<U> {
  readonly width1: U;
  readonly height1: U;
  readonly depth: U;
  readonly pitchMsb: U;
  readonly baseLevel: U;
  readonly lastLevel: U;
  readonly baseArray: U;
  readonly maxMip: U;
  /** log2 of the element's bytes (0..4). */
  readonly log2Bpe: U;
}

export interface TexelCoords<U> {
  readonly x: U;
  /** Absent for 1D classes. */
  readonly y?: U;
  /** 3D: the z coordinate; arrays and cubes: the slice within the view. */
  readonly z?: U;
  /** A _mip form's level, counted from BASE_LEVEL. */
  readonly mip?: U;
}

export interface TexelPlace<B, W> {
  /** Inside the view's bounds. */
  readonly ok: B;
  /** The byte offset from the image's base (meaningful only where ok). */
  readonly offset: W;
}

/** The largest level count a T# can describe (MAX_MIP is 4 bits). */
const LEVELS = 16;

export function linearTexel<U, B, W>(A: ImageArith<U, B, W>, cls: ImageClass, gfx103: boolean, d: ImageDims<U>, c: TexelCoords<U>): TexelPlace<B, W> {
  const one = A.k(1), zero = A.k(0);
  const mip = c.mip ?? zero;
  // The view's levels: BASE_LEVEL + mip <= LAST_LEVEL (a view with LAST_LEVEL < BASE_LEVEL has none).
  let ok = A.both(A.ule(d.baseLevel, d.lastLevel), A.ule(mip, A.sub(d.lastLevel, d.baseLevel)));
  const level = A.and(A.add(d.baseLevel, mip), A.k(15));
  const width = A.add(d.width1, one), height = A.add(d.height1, one);
  const alignMask = A.sub(A.shr(A.k(256), d.log2Bpe), one);
  const align = (w: U): U => A.and(A.add(w, alignMask), A.sub(A.k(0xffffffff), alignMask));
  const levelSize = (n: U, l: U): U => A.umax(A.shr(n, l), one);
  const hasY = cls === '2d' || cls === '3d' || cls === 'cube' || cls === '2dArray';

  const mw = levelSize(width, level);
  ok = A.both(ok, A.ult(c.x, mw));
  const y = hasY ? (c.y ?? zero) : zero;
  if (hasY) ok = A.both(ok, A.ult(y, levelSize(height, level)));
  let slice: U;
  if (cls === '3d') {
    slice = c.z ?? zero;
    ok = A.both(ok, A.ult(slice, levelSize(A.add(d.depth, one), level)));
  } else if (cls === 'cube' || cls === '1dArray' || cls === '2dArray') {
    const s = c.z ?? zero;
    ok = A.both(ok, A.both(A.ule(d.baseArray, d.depth), A.ule(s, A.sub(d.depth, d.baseArray))));
    slice = A.add(d.baseArray, s);
  } else {
    slice = d.baseArray;
  }

  // The mip chain: level i's bytes, summed over the chain (the slice size) and over the levels
  // stored before `level` (i > level).
  const rowsOf = (i: U): U => (hasY ? levelSize(height, i) : one);
  let sliceSize = A.kW(0), before = A.kW(0);
  for (let i = 0; i < LEVELS; i++) {
    const li = A.k(i);
    const bytes = A.shlW(A.mulWide(align(levelSize(width, li)), rowsOf(li)), d.log2Bpe);
    const inChain = A.ule(li, d.maxMip);
    sliceSize = A.selW(inChain, A.addW(sliceSize, bytes), sliceSize);
    before = A.selW(A.both(inChain, A.ult(level, li)), A.addW(before, bytes), before);
  }

  let pitch = align(mw);
  if (gfx103 && (cls === '1d' || cls === '2d')) {
    // The custom pitch (field + 1, 14 bits) for level 0.
    const field = A.add(A.add(A.and(d.depth, A.k(0x1fff)), A.shl(d.pitchMsb, A.k(13))), one);
    pitch = A.sel(A.eq(level, zero), A.umax(field, pitch), pitch);
  }
  const inRow = A.shlW(A.addW(A.mulWide(y, pitch), A.mulWide(c.x, one)), d.log2Bpe);
  const offset = A.addW(A.addW(A.mulUW(slice, sliceSize), before), inRow);
  return { ok, offset };
}

/** The interpreter's instance: u32 as numbers, u64 as BigInt (exact wrapping). */
export const NUMBER_IMAGE_ARITH: ImageArith<number, boolean, bigint> = {
  k: (n) => n >>> 0,
  add: (a, b) => (a + b) >>> 0,
  sub: (a, b) => (a - b) >>> 0,
  and: (a, b) => (a & b) >>> 0,
  shl: (a, n) => (n >= 32 ? 0 : (a << n) >>> 0),
  shr: (a, n) => (n >= 32 ? 0 : a >>> n),
  umax: (a, b) => Math.max(a, b),
  ult: (a, b) => a < b,
  ule: (a, b) => a <= b,
  eq: (a, b) => a === b,
  both: (a, b) => a && b,
  sel: (c, a, b) => (c ? a : b),
  mulWide: (a, b) => BigInt(a) * BigInt(b),
  mulUW: (a, b) => (BigInt(a) * b) & 0xffffffffffffffffn,
  addW: (a, b) => (a + b) & 0xffffffffffffffffn,
  shlW: (a, n) => (a << BigInt(n)) & 0xffffffffffffffffn,
  selW: (c, a, b) => (c ? a : b),
  kW: (n) => BigInt(n),
};
