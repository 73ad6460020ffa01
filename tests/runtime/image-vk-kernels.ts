// Image (MIMG) storage kernels for the engine suite (tests/runtime/image.test.ts): the recompiled
// image_load/_mip, image_store/_mip and image atomics against the RDNA interpreter, wave32 and
// wave64, on linear T#s of every class, formats of each size and number format, DST_SEL
// permutations, mip chains, the gfx1030 custom pitch, A16/D16/R128/NSA forms, partial EXEC and
// out-of-bounds coordinates.
//
// Kernarg: 0 the results (lane l at l * 4 * results), 8 the image memory (the T#'s base, 256-byte
// aligned on both engines), 16 the coordinates (lane l: x, y, z, mip at 16 l), then u32s at 24..48
// the T#'s dwords 1..7 (dword 1 without BASE_HI, which the kernel adds from the address) and at
// 52 the EXEC mask the image instructions run under (both halves in wave64).
import assert from 'node:assert/strict';
import { loadShaders } from '../../src/container/shader.js';
import { CLASS_COORDS, CLASS_TYPE, type ImageClass, linearTexel, NUMBER_IMAGE_ARITH } from '../../src/image/linear.js';
import { TSHARP_FIELDS, type TsharpFieldName } from '../../src/isa/tsharp.js';
import { bufferFormatInfo, GFX10_BUFFER_FORMATS } from '../../src/isa/tables/mtbuf.js';
import { assembleKernels } from '../harness/kernel.js';
import { Rng } from '../harness/rng.js';
import type { EngineCase } from './cases.js';

export const fmt = (name: string): number => {
  const k = GFX10_BUFFER_FORMATS.indexOf(`BUF_FMT_${name}`);
  assert.ok(k > 0, name);
  return k;
};

const DIM: Readonly<Record<ImageClass, string>> = {
  '1d': 'SQ_RSRC_IMG_1D', '2d': 'SQ_RSRC_IMG_2D', '3d': 'SQ_RSRC_IMG_3D', cube: 'SQ_RSRC_IMG_CUBE', '1dArray': 'SQ_RSRC_IMG_1D_ARRAY', '2dArray': 'SQ_RSRC_IMG_2D_ARRAY',
};

/** The T# fields a case sets (the others 0); dword 0 and BASE_HI come from the image's address. */
export type TsharpSpec = Partial<Record<Exclude<TsharpFieldName, 'baseLo' | 'baseHi'>, number>>;

/** The T#'s dwords 1..7 (BASE_HI left 0). */
export function tsharpDwords(t: TsharpSpec): number[] {
  const w = new Array<number>(8).fill(0);
  for (const [name, v] of Object.entries(t) as [TsharpFieldName, number][]) {
    const [d, at, n] = TSHARP_FIELDS[name];
    assert.ok(v >= 0 && v < 2 ** n, `${name} ${v}`);
    w[d] = ((w[d] ?? 0) | (v << at)) >>> 0;
  }
  return w.slice(1);
}

/** A T# of class `cls`: width x height (x depth or slices), its format, levels 0..maxMip, the view's levels and slices. */
export function tsharp(cls: ImageClass, o: { format: number; w: number; h?: number; d?: number; maxMip?: number; baseLevel?: number; lastLevel?: number; baseArray?: number; pitch?: number; dstSel?: readonly number[]; type?: number; swMode?: number }): TsharpSpec {
  const w1 = o.w - 1;
  const sel = o.dstSel ?? [4, 5, 6, 7];
  const t: TsharpSpec = {
    format: o.format, widthLo: w1 & 3, widthHi: w1 >>> 2, height: (o.h ?? 1) - 1,
    dstSelX: sel[0] ?? 0, dstSelY: sel[1] ?? 0, dstSelZ: sel[2] ?? 0, dstSelW: sel[3] ?? 0,
    baseLevel: o.baseLevel ?? 0, lastLevel: o.lastLevel ?? o.maxMip ?? 0, maxMip: o.maxMip ?? 0,
    type: o.type ?? CLASS_TYPE[cls], swMode: o.swMode ?? 0, baseArray: o.baseArray ?? 0,
  };
  // DEPTH: 3D depth - 1; arrays: the view's last slice; gfx1030 1D/2D: pitch - 1.
  if (cls === '3d') t.depth = (o.d ?? 1) - 1;
  else if (cls === 'cube' || cls === '1dArray' || cls === '2dArray') t.depth = (o.baseArray ?? 0) + (o.d ?? 1) - 1;
  else if (o.pitch) { t.depth = (o.pitch - 1) & 0x1fff; t.pitchMsb = (o.pitch - 1) >>> 13; }
  return t;
}

/** The image's bytes: past the last texel of the resource (level 0 of the last slice is the last thing of the layout). */
export function imageBytes(cls: ImageClass, t: TsharpSpec): number {
  const fi = bufferFormatInfo(t.format ?? 0);
  assert.ok(fi);
  const dims = {
    width1: (t.widthLo ?? 0) | ((t.widthHi ?? 0) << 2), height1: t.height ?? 0, depth: t.depth ?? 0, pitchMsb: t.pitchMsb ?? 0,
    baseLevel: 0, lastLevel: 15, baseArray: 0, maxMip: t.maxMip ?? 0, log2Bpe: 31 - Math.clz32(fi.bytes),
  };
  const lastSlice = cls === '3d' || cls === 'cube' || cls === '1dArray' || cls === '2dArray' ? (t.depth ?? 0) : (t.baseArray ?? 0);
  // Arrays and cubes as a 2D array (1D ones have height 1); 1D and 2D with their own pitch rule (gfx1030).
  const stand: ImageClass = cls === '1d' || cls === '2d' || cls === '3d' ? cls : '2dArray';
  const p = linearTexel(NUMBER_IMAGE_ARITH, stand, true, { ...dims, depth: stand === '2dArray' ? lastSlice : dims.depth, baseArray: stand === '3d' || stand === '2dArray' ? 0 : lastSlice },
    { x: dims.width1, y: dims.height1, z: lastSlice });
  assert.ok(p.ok, `${cls}: the last texel`);
  return Number(p.offset) + fi.bytes;
}

const reg = (first: number, n: number) => (n === 1 ? `v${first}` : `v[${first}:${first + n - 1}]`);
/** The address operand: the class's coordinates (x v2, y v3, z/slice v4) and a _mip form's mip (v5), as an NSA list when not consecutive. */
function addr(cls: ImageClass, mip: boolean): string {
  const regs = CLASS_COORDS[cls].map((_, k) => 2 + k);
  if (mip) regs.push(5);
  const consecutive = regs.every((r, k) => r === (regs[0] ?? 0) + k);
  return consecutive ? reg(regs[0] ?? 2, regs.length) : `[${regs.map((r) => `v${r}`).join(', ')}]`;
}

export interface ImageKernel {
  readonly name: string;
  readonly cls: ImageClass;
  /** The instructions (the T# at s[8:15]); results in v10.. */
  readonly ops: string;
  /** The VGPRs written to the results buffer, in order. */
  readonly results: readonly number[];
}

const popcount = (m: number) => [0, 1, 2, 3].filter((k) => (m >> k) & 1).length;

/** Loads of every form on class `cls` (32-bit and packed formats alike). */
export function loadKernel(cls: ImageClass): ImageKernel {
  const dim = `dim:${DIM[cls]}`;
  const ops: string[] = [];
  let v = 10;
  const load = (mip: boolean, dmask: number, extra = '', srsrc = 's[8:15]') => {
    const n = popcount(dmask);
    ops.push(`image_load${mip ? '_mip' : ''} ${reg(v, n)}, ${addr(cls, mip)}, ${srsrc} dmask:0x${dmask.toString(16)} ${dim}${extra}`);
    v += n;
  };
  load(false, 0xf);
  load(true, 0xf);
  load(false, 0x4);
  load(true, 0xa);
  load(false, 0x7, ' r128');
  return { name: `image_load_${cls}`, cls, ops: ops.join('\n  '), results: Array.from({ length: v - 10 }, (_, k) => 10 + k) };
}

/** d16 and A16 loads (2D; packed formats only: a d16 load of a 32-bit format is refused). v6 = x | y << 16, v7 = mip | z << 16. */
export function d16Kernel(): ImageKernel {
  const dim = 'dim:SQ_RSRC_IMG_2D';
  const ops = [
    `image_load v[10:11], v[2:3], s[8:15] dmask:0xf ${dim} d16`,
    `image_load v[12:13], v[2:3], s[8:15] dmask:0x7 ${dim} d16`,
    `image_load v14, v[2:3], s[8:15] dmask:0x8 ${dim} d16`,
    `image_load v[15:18], v6, s[8:15] dmask:0xf ${dim} a16`,
    `image_load_mip v[19:20], v[6:7], s[8:15] dmask:0xd ${dim} a16 d16`,
    `image_load_mip v[21:22], [v2, v3, v5], s[8:15] dmask:0x3 ${dim}`,
  ];
  return { name: 'image_load_d16_a16', cls: '2d', ops: ops.join('\n  '), results: Array.from({ length: 13 }, (_, k) => 10 + k) };
}

/** Stores of class `cls`: 32-bit formats (dmask 0xf, the _mip form, and a dmask past the format's components), then loads back. */
export function storeKernel(cls: ImageClass, d16: boolean): ImageKernel {
  const dim = `dim:${DIM[cls]}`;
  const ops = d16
    ? [`image_store v[10:11], ${addr(cls, false)}, s[8:15] dmask:0xf ${dim} d16`, `image_store_mip v[12:13], ${addr(cls, true)}, s[8:15] dmask:0xf ${dim} d16`]
    : [`image_store v[10:13], ${addr(cls, false)}, s[8:15] dmask:0xf ${dim}`, `image_store_mip v[14:17], ${addr(cls, true)}, s[8:15] dmask:0xf ${dim}`];
  return { name: `image_store_${cls}${d16 ? '_d16' : ''}`, cls, ops: ops.join('\n  '), results: [] };
}

/** The integer atomics (2D; a 32_UINT or 32_SINT image), most with glc; the float ones on a 32_FLOAT image. */
export function atomicKernel(float: boolean): ImageKernel {
  const dim = 'dim:SQ_RSRC_IMG_2D';
  const a = (op: string, v: string, glc: boolean, dmask = 1) => `image_atomic_${op} ${v}, v[2:3], s[8:15] dmask:0x${dmask.toString(16)} ${dim}${glc ? ' glc' : ''}`;
  const ops = float
    ? [a('fmin', 'v10', true), a('fmax', 'v11', true), a('fcmpswap', 'v[12:13]', true, 3), a('fmin', 'v14', false)]
    : [a('add', 'v10', true), a('sub', 'v11', true), a('smin', 'v12', true), a('umin', 'v13', true), a('smax', 'v14', true), a('umax', 'v15', true),
      a('and', 'v16', true), a('or', 'v17', true), a('xor', 'v18', true), a('inc', 'v19', true), a('dec', 'v20', true),
      // cmpswap's compare: the value this lane swaps in (equal where no later lane swapped at the texel).
      'v_mov_b32 v23, v21', a('swap', 'v21', true),
      a('cmpswap', 'v[22:23]', true, 3), a('add', 'v24', false), a('cmpswap', 'v[25:26]', false, 3)];
  const last = float ? 14 : 26;
  return { name: float ? 'image_atomic_float' : 'image_atomic_int', cls: '2d', ops: ops.join('\n  '), results: Array.from({ length: last - 9 }, (_, k) => 10 + k) };
}

/** The kernel body around the ops. */
function body(k: ImageKernel, wave64: boolean): string {
  const n = k.results.length;
  const presets = Array.from({ length: 20 }, (_, j) => `v_mul_u32_u24 v${10 + j}, 0x${(0x9e3779 * (j + 1) & 0xffffff).toString(16)}, v0\n  v_xor_b32 v${10 + j}, 0x${(0xa5a50000 + j).toString(16)}, v${10 + j}`);
  const exec = (v: string) => (wave64 ? `s_mov_b32 exec_lo, ${v}\n  s_mov_b32 exec_hi, ${v}` : `s_mov_b32 exec_lo, ${v}`);
  return `
  s_load_dwordx4 s[16:19], s[0:1], 0x0
  s_load_dwordx2 s[20:21], s[0:1], 0x10
  s_load_dwordx8 s[24:31], s[0:1], 0x18
  s_waitcnt lgkmcnt(0)
  s_lshr_b64 s[8:9], s[18:19], 8
  s_and_b32 s9, s9, 0xff
  s_or_b32 s9, s9, s24
  s_mov_b32 s10, s25
  s_mov_b32 s11, s26
  s_mov_b32 s12, s27
  s_mov_b32 s13, s28
  s_mov_b32 s14, s29
  s_mov_b32 s15, s30
  v_lshlrev_b32 v1, 4, v0
  global_load_dwordx4 v[2:5], v1, s[20:21]
  s_waitcnt vmcnt(0)
  v_lshl_or_b32 v6, v3, 16, v2
  v_lshl_or_b32 v7, v4, 16, v5
  ${presets.join('\n  ')}
  ${exec('s31')}
  ${k.ops}
  s_waitcnt vmcnt(0)
  ${exec('-1')}
  v_mul_u32_u24 v1, ${4 * Math.max(n, 1)}, v0
  ${k.results.map((r, j) => `global_store_dword v1, v${r}, s[16:17] offset:${4 * j}`).join('\n  ')}
  s_endpgm`;
}

export interface ImageConfig {
  readonly label: string;
  readonly t: TsharpSpec;
  /** The coordinates' ranges: x, y, z drawn below these (some past the view), mip below `mips`. */
  readonly range: readonly [number, number, number];
  readonly mips: number;
  readonly exec?: number;
  /**
   * Every lane on its own (x, y, z) (lane l counts through the ranges; the mip drawn): no two lanes
   * store to one texel, as dword stores of several lanes to one address are not ordered on Vulkan
   * (docs/TECHNICAL_DEBT.md, "Recompiled memory").
   */
  readonly distinct?: boolean;
}

/** Each lane's x, y, z, mip: mostly inside [0, range), some past it, a few huge; lanes share texels (collisions). */
function coords(rng: Rng, ws: number, c: ImageConfig): Uint8Array {
  const b = new Uint8Array(16 * ws);
  const v = new DataView(b.buffer);
  const pick = (n: number) => { const p = rng.u32() % 16; return p === 0 ? n + (rng.u32() % 3) : p === 1 ? rng.u32() : rng.u32() % Math.max(n, 1); };
  if (c.distinct) {
    const [rx, ry, rz] = c.range;
    assert.ok(rx * ry * rz >= ws, `${c.label}: ${ws} lanes need as many texels`);
    for (let l = 0; l < ws; l++) {
      [l % rx, Math.floor(l / rx) % ry, Math.floor(l / (rx * ry)) % rz, rng.u32() % c.mips].forEach((x, k) => v.setUint32(16 * l + 4 * k, x, true));
    }
    return b;
  }
  for (let l = 0; l < ws; l++) {
    const same = l >= 4 && rng.u32() % 4 === 0 ? l - 1 - (rng.u32() % 4) : -1;
    for (let k = 0; k < 4; k++) {
      const x = same >= 0 ? v.getUint32(16 * same + 4 * k, true) : k < 3 ? pick(c.range[k] ?? 1) : pick(c.mips);
      v.setUint32(16 * l + 4 * k, x >>> 0, true);
    }
  }
  return b;
}

/** One case per (kernel, wave size, config). */
export function imageCase(k: ImageKernel, wave64: boolean, c: ImageConfig, rng: Rng): EngineCase {
  const ws = wave64 ? 64 : 32;
  const name = `${k.name}${ws}`;
  const code = assembleKernels('gfx1030', [{ name, body: body(k, wave64), wave64, vgprs: 40, sgprs: 40, directives: ['.amdhsa_user_sgpr_kernarg_segment_ptr 1', '.amdhsa_kernarg_size 64'] }]);
  const shader = loadShaders({ bytes: code, name }).find((s) => s.info.name === name);
  assert.ok(shader);
  const bytes = imageBytes(k.cls, c.t);
  const image = new Uint8Array(bytes + 64);
  for (let j = 0; j < image.length; j++) image[j] = rng.u32() & 0xff;
  const w = tsharpDwords(c.t);
  return {
    name: `${name}: ${c.label}`, spirvName: name, code, kernel: name, shader,
    buffers: [new Uint8Array(4 * Math.max(k.results.length, 1) * ws), image, coords(rng, ws, c)],
    grid: [ws, 1, 1], block: [ws, 1, 1],
    scalars: [...w.map((x, j) => [24 + 4 * j, x] as const), [52, (c.exec ?? 0xfffffffe) >>> 0]],
    ...(k.results.length ? { writes: 0 } : {}),
  };
}
