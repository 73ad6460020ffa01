// Image sampling with point filtering (image_sample* on linear T#s) and image_gather4, for both
// engines: the plan of an instruction from its words (imageSamplePlan: where its coordinates,
// offsets and LOD lie, what it writes, the forms not modelled) and the texel a lane reads
// (samplePlace; gather4's four: gatherPlace), written once over
// an integer arithmetic interface (SampleArith) that the interpreter instantiates with numbers
// (NUMBER_SAMPLE_ARITH) and the recompiler with IR builders (src/frontend/units/mimg.ts), as
// ./linear.ts is. The texel is then read and converted exactly as image_load reads it (format,
// number format, DST_SEL, dmask, d16): each engine's load code, shared with image_load.
//
// What is modelled, and the readings (docs/TECHNICAL_DEBT.md, "Image sampling"):
//  - S# (src/isa/ssharp.ts): XY_MAG_FILTER = XY_MIN_FILTER = point, Z_FILTER none or point,
//    MIP_FILTER none (the view's BASE_LEVEL), or point for the explicit-LOD forms (_l, _lz);
//    MAX_ANISO_RATIO, FILTER_MODE, MC_COORD_TRUNC, FORCE_DEGAMMA, MIP_POINT_PRECLAMP 0. With
//    point filters and no mip filter the LOD decides nothing, so the implicit-LOD forms (plain,
//    _b, _cl, _d, _cd, _g16) are exact then; with MIP_FILTER point they need derivatives across
//    the quad (a fault). Anything else in the S# is a run-time fault (wave-uniform: checkSampler).
//  - Coordinates are f32 (A16: f16 halves, converted exactly). Normalized unless the instruction's
//    UNRM or the S#'s FORCE_UNNORMALIZED: x = u × the level's width as an f32 multiply to nearest
//    even, denormals kept (likewise y, and a 3D image's z by its depth).
//  - The texel of a scaled coordinate x (SUBTEXEL: a reading, not measured on RDNA2; AMD's xgl
//    PR #49 describes TRUNC_COORD as 0 = round to nearest at fixed point then drop the fraction, 1 =
//    truncate, and vkd3d-proton PR #1884 measured AMD's drivers rounding to nearest even at 8
//    fractional bits): TRUNC_COORD 1 floor(x); TRUNC_COORD 0 floor of x rounded to nearest even
//    at 8 fractional bits. Computed exactly on the f32 (no fixed-point width limit) for |x| < 2^24;
//    a NaN coordinate is 0 (D3D's float-to-fixed rule: a reading); |x| ≥ 2^24 or ±inf saturates
//    (beyond every texel on its side), exact for the clamp, mirror-once and border modes, a fault
//    under wrap and mirror (where the hardware's fixed-point width decides).
//  - _o: the offsets dword, 6-bit signed fields x [5:0], y [13:8], z [21:16] (Mesa's and LLVM's
//    packing), added to the texel index (in texels, after scaling and rounding).
//  - Address modes per axis on the index i of a size n: 0 wrap (i mod n), 1 mirror (period 2n),
//    2 clamp to [0, n − 1], 3 mirror once then clamp, 4/6 (half) border and 5/7 mirror once then
//    (half) border: outside [0, n − 1] the border colour (half border and border are the same
//    for point sampling).
//  - Border colour by BORDER_COLOR_TYPE: 0 (0, 0, 0, 0), 1 (0, 0, 0, 1), 2 (1, 1, 1, 1) as the
//    load's one (1.0, or 0x3c00 with d16) and zero; 3 (the register table) faults, and so does a
//    border lane of an integer (UINT/SINT) format (its border values are not sourced) or under a
//    DST_SEL other than the identity in a channel dmask writes (whether the swizzle applies to
//    the border colour is not established).
//  - Arrays: the layer is the f32 rounded to nearest even, clamped to [0, layers − 1] (layers =
//    DEPTH − BASE_ARRAY + 1; NaN 0): a reading (Vulkan's rule). No offset applies to it.
//  - MIP_FILTER point with _l/_lz: the LOD (0 for _lz) clamped to [MIN_LOD, MAX_LOD] (u4.8), the
//    nearest level, counted from BASE_LEVEL and clamped to the view's last. The rounding of the
//    LOD to u4.8 and the tie rule are not established, so a lane whose LOD is within 1/256 of a
//    half level (where they could decide) faults, as does a NaN LOD. LOD_BIAS (and LOD_BIAS_SEC)
//    must be 0 there (whether the bias applies to an explicit LOD is not established), MIN_LOD ≤
//    MAX_LOD, and the T#'s MIN_LOD 0.
//  - image_gather4 (2D, 2D arrays; one dmask bit): gatherPlace's footprint and order, the
//    component after DST_SEL from each texel (the border colour's per texel); XY filters point or
//    bilinear, TRUNC_COORD 1 refused (see sampleRefusals).
import type { Instruction } from '../decode/types.js';
import { mimgAddrSize, mimgPlan, MIMG_DIM_GRADIENTS } from '../decode/mimg.js';
import { CLASS_COORDS, DIM_CLASS, type ImageClass, type TexelCoords } from './linear.js';
import type { CoordSlot } from './plan.js';
import type { SsharpFieldName } from '../isa/ssharp.js';
import { NO_FLAGS } from '../isa/types.js';

/** u32 arithmetic (two's complement for the signed compares), with an f32 multiply. */
export interface SampleArith<U, B> {
  k(n: number): U;
  add(a: U, b: U): U;
  sub(a: U, b: U): U;
  and(a: U, b: U): U;
  or(a: U, b: U): U;
  /** Shifts by 0..31. */
  shl(a: U, n: U): U;
  shr(a: U, n: U): U;
  /** Leading zero bits (32 for 0). */
  clz(a: U): U;
  /** a mod b, b ≠ 0. */
  urem(a: U, b: U): U;
  eq(a: U, b: U): B;
  ult(a: U, b: U): B;
  slt(a: U, b: U): B;
  not(a: B): B;
  both(a: B, b: B): B;
  either(a: B, b: B): B;
  sel(c: B, a: U, b: U): U;
  /** f32 bits × f32 bits, to nearest even, denormals kept. */
  fmul(a: U, b: U): U;
}

/** The fixed MODE value of the coordinate multiply (nearest even, denormals kept; IEEE, DX10_CLAMP). */
export const SAMPLE_MODE = 0x3f0;

/** What an image_sample instruction reads and writes, from its words alone. */
export interface SamplePlan {
  /** image_sample*, or image_gather4* (the 2×2 footprint's one component). */
  readonly op: 'sample' | 'gather4';
  /** gather4: the component dmask's one bit names (the result channel after DST_SEL). */
  readonly component?: number;
  readonly cls: ImageClass;
  /** The coordinates' slots: x, y, and a 3D image's z or an array's layer (f32, or A16 f16 halves). */
  readonly coords: { readonly x: CoordSlot; readonly y?: CoordSlot; readonly z?: CoordSlot };
  /** _o: the offsets dword's VGPR. */
  readonly offset?: number;
  /** How the LOD is given: implicit (derivatives: plain, _b, _cl, _d, _cd), _l (the lod slot), _lz (0). */
  readonly lodForm: 'implicit' | 'l' | 'lz';
  readonly lod?: CoordSlot;
  readonly a16: boolean;
  /** The instruction's UNRM bit. */
  readonly unrm: boolean;
  readonly vdata: number;
  readonly dataDwords: number;
  readonly dmask: number;
  readonly d16: boolean;
  readonly r128: boolean;
  readonly srsrc: number;
  readonly ssamp: number;
}

const popcount = (m: number): number => ((m & 1) + ((m >> 1) & 1) + ((m >> 2) & 1) + ((m >> 3) & 1));

/** The plan of an image_sample* or image_gather4* instruction, or why the form is not modelled (a sentence for the engines' errors). */
export function imageSamplePlan(inst: Instruction): SamplePlan | string {
  const m = inst.def.mnemonic;
  const f = inst.def.flags ?? NO_FLAGS;
  const op = f.includes('sample') && m.startsWith('image_sample') ? 'sample' as const : f.includes('gather4') && m.startsWith('image_gather4') ? 'gather4' as const : undefined;
  if (!op || m === 'image_gather4h') return `${m} is not modelled (only image_sample* and image_gather4*)`;
  const parts = m.slice(`image_${op}`.length).split('_').filter((p) => p !== '');
  if (parts.includes('c')) return `${m}: depth compare (the _c forms) is not modelled`;
  const mods = inst.mods;
  const dim = mods.dim ?? 0;
  const cls = DIM_CLASS[dim];
  if (!cls) return `${m} with an MSAA dim (${dim}) is not modelled`;
  if (cls === 'cube') return `${m} on a cube (dim:SQ_RSRC_IMG_CUBE) is not modelled (face selection)`;
  if (op === 'gather4' && cls !== '2d' && cls !== '2dArray') return `${m} on a ${cls} resource is not modelled (gather4 reads 2D footprints)`;
  if (mods.tfe || mods.lwe) return `${m} with tfe or lwe is not modelled`;
  const dmask = mods.dmask ?? 0;
  if (dmask === 0) return `${m} with dmask 0 is not modelled`;
  const d16 = mods.d16 === true;
  const n = popcount(dmask);
  if (op === 'gather4' && n !== 1) return `${m} with dmask 0x${dmask.toString(16)} is not modelled (one component: a single dmask bit)`;
  const dataDwords = op === 'gather4' ? (d16 ? 2 : 4) : d16 ? (n + 1) >>> 1 : n;
  const a16 = mods.a16 === true;
  const mp = mimgPlan(inst.def);
  const words = mimgAddrSize(mp, dim, a16);
  const addrOps = inst.operands.filter((o) => o.name === 'vaddr');
  const regs: number[] = [];
  for (const o of addrOps) {
    if (o.value.kind !== 'vgpr') return `${m}: an address that is not a VGPR`;
    const c = mods.nsa ? 1 : Math.max(o.value.count ?? 1, 0);
    for (let i = 0; i < c; i++) regs.push(o.value.index + i);
  }
  if (!mods.nsa) {
    const first = regs[0];
    if (first === undefined) return `${m}: no address VGPR`;
    regs.length = 0;
    for (let i = 0; i < words; i++) regs.push(first + i);
  } else if (regs.length < words) {
    return `${m}: its NSA list has ${regs.length} addresses, its dim needs ${words}`;
  }
  if (regs.slice(0, words).some((r) => r > 255)) return `${m}: its address VGPRs pass v255 (it needs ${words} from v${regs[0] ?? 0})`;
  // The address dwords: the extras (offset, bias; the compare is refused above), the gradients, then
  // the coordinates and the lod/clamp (A16: two a dword).
  let at = 0;
  const offset = parts.includes('o') ? regs[at++] : undefined;
  if (parts.includes('b')) at++;
  if (mp.grad) {
    const g = MIMG_DIM_GRADIENTS[dim] ?? 2;
    at += mp.g16 ? ((g >>> 1) + 1) & ~1 : g;
  }
  const slot = (j: number): CoordSlot => {
    const vgpr = regs[at + (a16 ? j >>> 1 : j)] as number;
    return a16 ? { vgpr, half: (j & 1) as 0 | 1 } : { vgpr };
  };
  const names = CLASS_COORDS[cls];
  const coords: { x: CoordSlot; y?: CoordSlot; z?: CoordSlot } = { x: slot(0) };
  names.forEach((nm, j) => {
    if (nm === 'y') coords.y = slot(j);
    else if (nm === 'z' || nm === 's') coords.z = slot(j);
  });
  const lodForm = parts.includes('l') ? 'l' as const : parts.includes('lz') ? 'lz' as const : 'implicit' as const;
  const vdataOp = inst.operands.find((o) => o.name === 'vdata');
  const srsrcOp = inst.operands.find((o) => o.name === 'srsrc');
  const ssampOp = inst.operands.find((o) => o.name === 'ssamp');
  if (vdataOp?.value.kind !== 'vgpr') return `${m}: no vdata VGPR`;
  if (srsrcOp?.value.kind !== 'sgpr') return `${m}: a T# that is not in SGPRs is not modelled`;
  if (ssampOp?.value.kind !== 'sgpr') return `${m}: an S# that is not in SGPRs is not modelled`;
  if (vdataOp.value.index + dataDwords > 256) return `${m}: its data VGPRs pass v255`;
  return {
    op, ...(op === 'gather4' ? { component: 31 - Math.clz32(dmask) } : {}), cls, coords, ...(offset !== undefined ? { offset } : {}), lodForm, ...(lodForm === 'l' ? { lod: slot(names.length) } : {}),
    a16, unrm: mods.unorm === true, vdata: vdataOp.value.index, dataDwords, dmask, d16, r128: mods.r128 === true,
    srsrc: srsrcOp.value.index, ssamp: ssampOp.value.index,
  };
}

// --- the per-lane semantics ---

/** f16 bits (low 16 of h) to the f32 of the same value. */
export function f16ToF32<U, B>(A: SampleArith<U, B>, h: U): U {
  const sign = A.shl(A.and(h, A.k(0x8000)), A.k(16));
  const e = A.and(A.shr(h, A.k(10)), A.k(31)), f = A.and(h, A.k(0x3ff));
  const normal = A.or(A.shl(A.add(e, A.k(112)), A.k(23)), A.shl(f, A.k(13)));
  const special = A.or(A.k(0x7f800000), A.shl(f, A.k(13)));
  // A subnormal f · 2^-24: its leading bit p = 31 − clz(f) (0..9) is the f32's 2^(p − 24).
  const p = A.sub(A.k(31), A.clz(f));
  const sub = A.or(A.shl(A.add(p, A.k(103)), A.k(23)), A.and(A.shl(f, A.sub(A.k(23), p)), A.k(0x7fffff)));
  const e0 = A.eq(e, A.k(0));
  const mag = A.sel(e0, A.sel(A.eq(f, A.k(0)), A.k(0), sub), A.sel(A.eq(e, A.k(31)), special, normal));
  return A.or(sign, mag);
}

/** The f32 of an integer n in 1 .. 2^24 (exact). */
function u32ToF32<U, B>(A: SampleArith<U, B>, n: U): U {
  const p = A.sub(A.k(31), A.clz(n));
  return A.or(A.shl(A.add(p, A.k(127)), A.k(23)), A.and(A.shl(n, A.sub(A.k(23), p)), A.k(0x7fffff)));
}

const umin = <U, B>(A: SampleArith<U, B>, a: U, b: U): U => A.sel(A.ult(a, b), a, b);
const umax = <U, B>(A: SampleArith<U, B>, a: U, b: U): U => A.sel(A.ult(a, b), b, a);

/**
 * |x| as a fixed-point magnitude with `frac` fractional bits, truncated (trunc) or rounded to
 * nearest even, and whether truncation dropped nonzero bits (sticky; false when rounding); valid
 * for |x| < 2^24 (big says otherwise, NaN apart).
 */
function fixedOf<U, B>(A: SampleArith<U, B>, x: U, frac: number, trunc: B): { mag: U; sticky: B; neg: B; nan: B; big: B } {
  const e = A.and(A.shr(x, A.k(23)), A.k(0xff)), f = A.and(x, A.k(0x7fffff));
  const nan = A.both(A.eq(e, A.k(255)), A.not(A.eq(f, A.k(0))));
  const big = A.both(A.not(A.ult(e, A.k(151))), A.not(nan));
  const den = A.eq(e, A.k(0));
  const m = A.sel(den, f, A.or(f, A.k(0x800000)));
  const ee = A.sel(den, A.k(1), e);
  // |x| · 2^frac = m · 2^(ee − t).
  const t = A.k(150 - frac);
  const left = A.not(A.ult(ee, t));
  const ls = umin(A, A.sub(ee, t), A.k(31));
  // Right shifts by k = t − ee, at most 31 (m < 2^24, so 25..31 all leave q = 0 and r = m < half).
  const kk = A.sel(left, A.k(1), umin(A, A.sub(t, ee), A.k(31)));
  const q = A.shr(m, kk);
  const r = A.and(m, A.sub(A.shl(A.k(1), kk), A.k(1)));
  const half = A.shl(A.k(1), A.sub(kk, A.k(1)));
  const up = A.either(A.ult(half, r), A.both(A.eq(r, half), A.eq(A.and(q, A.k(1)), A.k(1))));
  const rounded = A.sel(trunc, q, A.add(q, A.sel(up, A.k(1), A.k(0))));
  const mag = A.sel(left, A.shl(m, ls), rounded);
  const sticky = A.both(A.both(trunc, A.not(left)), A.not(A.eq(r, A.k(0))));
  return { mag, sticky, neg: A.eq(A.shr(x, A.k(31)), A.k(1)), nan, big };
}

/** ±2^24: where a coordinate of |x| ≥ 2^24 or ±inf lands (beyond every texel on its side). */
const FAR = 1 << 24;

/**
 * The texel index of a scaled coordinate (SUBTEXEL): floor(x) (trunc) or floor of x rounded to
 * nearest even at 8 fractional bits; NaN 0; big: |x| ≥ 2^24 or ±inf (the index is ±2^24).
 */
export function texelIndex<U, B>(A: SampleArith<U, B>, x: U, trunc: B): { i: U; big: B } {
  const p = fixedOf(A, x, 8, trunc);
  const ip = A.shr(p.mag, A.k(8));
  const fr = A.either(A.not(A.eq(A.and(p.mag, A.k(0xff)), A.k(0))), p.sticky);
  const negI = A.sub(A.k(0), A.add(ip, A.sel(fr, A.k(1), A.k(0))));
  const i = A.sel(p.neg, negI, ip);
  const far = A.sel(p.neg, A.k(-FAR), A.k(FAR));
  return { i: A.sel(p.nan, A.k(0), A.sel(p.big, far, i)), big: p.big };
}

/**
 * gather4's footprint: i0 = floor(x − 1/2) with x rounded to nearest even at 8 fractional bits
 * first (the bilinear footprint at SUBTEXEL's precision; TRUNC_COORD 1 is refused); NaN is 0
 * (i0 = −1); big as texelIndex (i0 = ±2^24).
 */
export function gatherIndex<U, B>(A: SampleArith<U, B>, x: U): { i: U; big: B } {
  const p = fixedOf(A, x, 8, A.eq(A.k(0), A.k(1)));
  const hi = A.shr(p.mag, A.k(8)), lo = A.and(p.mag, A.k(0xff));
  // x ≥ 0: floor((mag − 128) / 256); x < 0: −ceil((mag + 128) / 256).
  const pos = A.sel(A.ult(p.mag, A.k(128)), A.k(0xffffffff), A.shr(A.sub(p.mag, A.k(128)), A.k(8)));
  const neg = A.sub(A.k(0), A.add(A.add(hi, A.k(1)), A.sel(A.ult(A.k(128), lo), A.k(1), A.k(0))));
  const far = A.sel(p.neg, A.k(-FAR), A.k(FAR));
  return { i: A.sel(p.nan, A.k(0xffffffff), A.sel(p.big, far, A.sel(p.neg, neg, pos))), big: p.big };
}

/** An array layer: the f32 rounded to nearest even, NaN 0, clamped to [0, layers − 1]. */
function layerOf<U, B>(A: SampleArith<U, B>, x: U, layers: U): U {
  const p = fixedOf(A, x, 0, A.eq(A.k(0), A.k(1)));
  const last = A.sub(layers, A.k(1));
  const pos = A.sel(A.either(p.big, A.ult(last, p.mag)), last, p.mag);
  return A.sel(A.either(p.nan, A.both(p.neg, A.not(A.eq(p.mag, A.k(0))))), A.k(0), pos);
}

/** The address mode `mode` (SQ_TEX_CLAMP) on index i (an i32) of an axis of n texels. */
export function addressed<U, B>(A: SampleArith<U, B>, i: U, n: U, mode: U, big: B): { j: U; border: B; fault: B } {
  const is = (k: number) => A.eq(mode, A.k(k));
  const zero = A.k(0), one = A.k(1);
  const neg = A.slt(i, zero);
  const inv = A.sub(A.k(0xffffffff), i); // −i − 1
  const last = A.sub(n, one);
  const wrap = A.sel(neg, A.sub(last, A.urem(inv, n)), A.urem(i, n));
  const n2 = A.add(n, n);
  const t = A.sel(neg, A.sub(A.sub(n2, one), A.urem(inv, n2)), A.urem(i, n2));
  const mirror = A.sel(A.ult(t, n), t, A.sub(A.sub(n2, one), t));
  const beyond = A.not(A.slt(i, n));
  const clamp = A.sel(neg, zero, A.sel(beyond, last, i));
  const mo = A.sel(neg, inv, i); // mirror once: −i − 1 for i < 0
  const moBeyond = A.not(A.ult(mo, n));
  const mirrorOnce = A.sel(moBeyond, last, mo);
  const once = A.either(is(3), A.either(is(5), is(7)));
  const j = A.sel(is(0), wrap, A.sel(is(1), mirror, A.sel(once, mirrorOnce, clamp)));
  const border = A.either(A.both(A.either(is(4), is(6)), A.either(neg, beyond)), A.both(A.either(is(5), is(7)), moBeyond));
  return { j, border, fault: A.both(big, A.either(is(0), is(1))) };
}

/**
 * MIP_FILTER point: the level (from BASE_LEVEL) nearest the LOD clamped to [minLod, maxLod]
 * (u4.8), clamped to `levels` − 1; fault where the LOD is NaN or within 1/256 of a half level.
 */
export function pointLevel<U, B>(A: SampleArith<U, B>, lod: U, minLod: U, maxLod: U, levels: U): { level: U; fault: B } {
  const p = fixedOf(A, lod, 8, A.eq(A.k(0), A.k(0)));
  // lod < minLod ⇔ negative (and not −0) or the truncated magnitude below it; lod > maxLod ⇔ big, or above it, or equal with dropped bits.
  const negative = A.both(p.neg, A.either(p.big, A.either(A.not(A.eq(p.mag, A.k(0))), p.sticky)));
  const below = A.either(negative, A.both(A.not(p.big), A.ult(p.mag, minLod)));
  const above = A.both(A.not(negative), A.either(p.big, A.either(A.ult(maxLod, p.mag), A.both(A.eq(p.mag, maxLod), p.sticky))));
  const L = A.sel(below, minLod, A.sel(above, maxLod, p.mag));
  const exact = A.either(below, above);
  const fr = A.and(L, A.k(0xff));
  const ambiguous = A.either(A.eq(fr, A.k(128)), A.both(A.eq(fr, A.k(127)), A.both(p.sticky, A.not(exact))));
  const nearest = A.add(A.shr(L, A.k(8)), A.sel(A.ult(A.k(127), fr), A.k(1), A.k(0)));
  return { level: umin(A, nearest, A.sub(levels, A.k(1))), fault: A.either(p.nan, ambiguous) };
}

/** The S# and T# values a lane's texel depends on (wave-uniform). */
export interface SampleFields<U, B> {
  readonly clampX: U;
  readonly clampY: U;
  readonly clampZ: U;
  /** TRUNC_COORD = 1. */
  readonly trunc: B;
  /** UNRM or FORCE_UNNORMALIZED. */
  readonly unnormalized: B;
  /** MIP_FILTER point (explicit-LOD forms only; the others fault before). */
  readonly mipPoint: B;
  readonly minLod: U;
  readonly maxLod: U;
  /** T# fields (src/isa/tsharp.ts). */
  readonly width1: U;
  readonly height1: U;
  readonly depth: U;
  readonly baseArray: U;
  readonly baseLevel: U;
  readonly lastLevel: U;
}

/** A lane's inputs: coordinates as f32 bits (A16 converted), the _o offsets dword, an _l LOD (f32 bits; absent: 0). */
export interface SampleLane<U> {
  readonly x: U;
  readonly y?: U;
  readonly z?: U;
  readonly offset?: U;
  readonly lod?: U;
}

/** The level (from BASE_LEVEL: the mip coordinate), the absolute level, and the LOD's fault. */
function levelOf<U, B>(A: SampleArith<U, B>, s: SampleFields<U, B>, c: SampleLane<U>): { mip: U; level: U; fault: B } {
  const levels = A.add(A.sub(s.lastLevel, s.baseLevel), A.k(1));
  const lv = pointLevel(A, c.lod ?? A.k(0), s.minLod, s.maxLod, levels);
  const mip = A.sel(s.mipPoint, lv.level, A.k(0));
  return { mip, level: A.and(A.add(s.baseLevel, mip), A.k(15)), fault: A.both(s.mipPoint, lv.fault) };
}

/** An axis's size at the level, and a coordinate scaled to it (unless unnormalized). */
function scaled<U, B>(A: SampleArith<U, B>, s: SampleFields<U, B>, coord: U, size1: U, level: U): { n: U; x: U } {
  const n = umax(A, A.shr(A.add(size1, A.k(1)), level), A.k(1));
  return { n, x: A.sel(s.unnormalized, coord, A.fmul(coord, u32ToF32(A, n))) };
}

/** Field `shift` of the _o offsets dword, sign-extended from 6 bits (0 without _o). */
function offsetOf<U, B>(A: SampleArith<U, B>, c: SampleLane<U>, shift: number): U | undefined {
  if (c.offset === undefined) return undefined;
  const o = A.and(A.shr(c.offset, A.k(shift)), A.k(0x3f));
  return A.sub(A.and(o, A.k(0x1f)), A.and(o, A.k(0x20)));
}

/** An array's layer (within the view), or undefined for the other classes. */
function layerCoord<U, B>(A: SampleArith<U, B>, cls: ImageClass, s: SampleFields<U, B>, c: SampleLane<U>): U | undefined {
  return cls === '1dArray' || cls === '2dArray' ? layerOf(A, c.z ?? A.k(0), A.add(A.sub(s.depth, s.baseArray), A.k(1))) : undefined;
}

/**
 * The texel a lane samples: its coordinates for linearTexel (x, y, a 3D z or the layer, and the
 * level from BASE_LEVEL), whether the border colour replaces it, and whether the lane faults.
 */
export function samplePlace<U, B>(A: SampleArith<U, B>, cls: ImageClass, s: SampleFields<U, B>, c: SampleLane<U>): { coords: TexelCoords<U>; border: B; fault: B } {
  const lv = levelOf(A, s, c);
  let fault = lv.fault;
  let border = A.eq(A.k(0), A.k(1));
  const axis = (coord: U, size1: U, clamp: U, shift: number): U => {
    const { n, x } = scaled(A, s, coord, size1, lv.level);
    const t = texelIndex(A, x, s.trunc);
    const off = offsetOf(A, c, shift);
    const a = addressed(A, off === undefined ? t.i : A.add(t.i, off), n, clamp, t.big);
    border = A.either(border, a.border);
    fault = A.either(fault, a.fault);
    return a.j;
  };
  const x = axis(c.x, s.width1, s.clampX, 0);
  const hasY = cls === '2d' || cls === '3d' || cls === '2dArray';
  const y = hasY ? axis(c.y ?? A.k(0), s.height1, s.clampY, 8) : undefined;
  const z = cls === '3d' ? axis(c.z ?? A.k(0), s.depth, s.clampZ, 16) : layerCoord(A, cls, s, c);
  return { coords: { x, ...(y !== undefined ? { y } : {}), ...(z !== undefined ? { z } : {}), mip: lv.mip }, border, fault };
}

/**
 * image_gather4 (2D and 2D arrays): the 2×2 footprint's texels i0 = floor(x − 1/2) (gatherIndex)
 * and i0 + 1 (likewise j0, j1; _o's offsets added to i0 and j0), each through the address modes,
 * in the result order (i0, j1), (i1, j1), (i1, j0), (i0, j0) (Vulkan's OpImageGather order and
 * D3D's, which Mesa's RADV and radeonsi return from the instruction unchanged); the layer and
 * level as for sampling.
 */
export function gatherPlace<U, B>(A: SampleArith<U, B>, cls: ImageClass, s: SampleFields<U, B>, c: SampleLane<U>): { texels: { coords: TexelCoords<U>; border: B }[]; fault: B } {
  const lv = levelOf(A, s, c);
  let fault = lv.fault;
  const axis = (coord: U, size1: U, clamp: U, shift: number): [{ j: U; border: B }, { j: U; border: B }] => {
    const { n, x } = scaled(A, s, coord, size1, lv.level);
    const g = gatherIndex(A, x);
    const off = offsetOf(A, c, shift);
    const i0 = off === undefined ? g.i : A.add(g.i, off);
    const a0 = addressed(A, i0, n, clamp, g.big), a1 = addressed(A, A.add(i0, A.k(1)), n, clamp, g.big);
    fault = A.either(fault, a0.fault);
    return [a0, a1];
  };
  const [x0, x1] = axis(c.x, s.width1, s.clampX, 0);
  const [y0, y1] = axis(c.y ?? A.k(0), s.height1, s.clampY, 8);
  const z = layerCoord(A, cls, s, c);
  const at = (x: { j: U; border: B }, y: { j: U; border: B }) => ({
    coords: { x: x.j, y: y.j, ...(z !== undefined ? { z } : {}), mip: lv.mip }, border: A.either(x.border, y.border),
  });
  return { texels: [at(x0, y1), at(x1, y1), at(x1, y0), at(x0, y0)], fault };
}

/** A wave-uniform condition the engines refuse (a fault of the active lanes), with its sentence. */
export interface SampleRefusal<B> {
  readonly cond: B;
  readonly why: string;
}

/**
 * What the S# and T# must hold for sampling to be modelled (checked wave-uniformly by both engines:
 * the interpreter stops with the first refusal's sentence, the recompiled kernel faults).
 */
export function sampleRefusals<U, B>(
  A: SampleArith<U, B>, plan: Pick<SamplePlan, 'op' | 'cls' | 'lodForm'>,
  samp: (n: SsharpFieldName) => U, tex: (n: 'baseLevel' | 'lastLevel' | 'baseArray' | 'depth' | 'minLod') => U,
): SampleRefusal<B>[] {
  const is = (v: U, k: number) => A.eq(v, A.k(k));
  const nonzero = (n: SsharpFieldName) => A.not(is(samp(n), 0));
  const mip = samp('mipFilter');
  const mipPoint = is(mip, 1);
  // gather4 reads the bilinear footprint whatever the XY filters (point or bilinear; Mesa clears
  // TRUNC_COORD for it, the footprint of a truncating gather not being Vulkan's: TRUNC_COORD 1 refused).
  const xy: SampleRefusal<B>[] = plan.op === 'gather4'
    ? [
      { cond: A.ult(A.k(1), samp('xyMagFilter')), why: 'XY_MAG_FILTER other than point or bilinear (gather4)' },
      { cond: A.ult(A.k(1), samp('xyMinFilter')), why: 'XY_MIN_FILTER other than point or bilinear (gather4)' },
      { cond: nonzero('truncCoord'), why: 'TRUNC_COORD 1 (gather4: which footprint a truncating gather reads is not established)' },
    ]
    : [
      { cond: nonzero('xyMagFilter'), why: 'XY_MAG_FILTER other than point' },
      { cond: nonzero('xyMinFilter'), why: 'XY_MIN_FILTER other than point' },
    ];
  const out: SampleRefusal<B>[] = [
    ...xy,
    { cond: A.ult(A.k(1), samp('zFilter')), why: 'Z_FILTER other than none or point' },
    { cond: A.ult(A.k(1), mip), why: 'MIP_FILTER linear (or reserved)' },
    { cond: nonzero('maxAnisoRatio'), why: 'MAX_ANISO_RATIO not 0' },
    { cond: nonzero('filterMode'), why: 'FILTER_MODE (min/max reduction) not 0' },
    { cond: nonzero('mcCoordTrunc'), why: 'MC_COORD_TRUNC set' },
    { cond: nonzero('forceDegamma'), why: 'FORCE_DEGAMMA set' },
    { cond: nonzero('mipPointPreclamp'), why: 'MIP_POINT_PRECLAMP set' },
    { cond: A.ult(tex('lastLevel'), tex('baseLevel')), why: 'a view without levels (BASE_LEVEL past LAST_LEVEL)' },
  ];
  if (plan.cls === '1dArray' || plan.cls === '2dArray') out.push({ cond: A.ult(tex('depth'), tex('baseArray')), why: 'an array view without layers (BASE_ARRAY past DEPTH)' });
  if (plan.lodForm === 'implicit') out.push({ cond: mipPoint, why: 'MIP_FILTER point with an implicit LOD (derivatives across the quad are not modelled)' });
  else {
    out.push(
      { cond: A.both(mipPoint, A.either(nonzero('lodBias'), nonzero('lodBiasSec'))), why: 'MIP_FILTER point with LOD_BIAS not 0 (whether the bias applies to an explicit LOD is not established)' },
      { cond: A.both(mipPoint, A.ult(samp('maxLod'), samp('minLod'))), why: 'MIP_FILTER point with MIN_LOD past MAX_LOD' },
      { cond: A.both(mipPoint, A.not(is(tex('minLod'), 0))), why: 'MIP_FILTER point with the T#\'s MIN_LOD not 0' },
    );
  }
  return out;
}

/** The interpreter's instance: u32 as numbers. */
export const NUMBER_SAMPLE_ARITH: Omit<SampleArith<number, boolean>, 'fmul'> = {
  k: (n) => n >>> 0,
  add: (a, b) => (a + b) >>> 0,
  sub: (a, b) => (a - b) >>> 0,
  and: (a, b) => (a & b) >>> 0,
  or: (a, b) => (a | b) >>> 0,
  shl: (a, n) => (a << (n & 31)) >>> 0,
  shr: (a, n) => a >>> (n & 31),
  clz: (a) => Math.clz32(a),
  urem: (a, b) => (a >>> 0) % (b >>> 0),
  eq: (a, b) => a >>> 0 === b >>> 0,
  ult: (a, b) => a >>> 0 < b >>> 0,
  slt: (a, b) => (a | 0) < (b | 0),
  not: (a) => !a,
  both: (a, b) => a && b,
  either: (a, b) => a || b,
  sel: (c, a, b) => (c ? a : b),
};
