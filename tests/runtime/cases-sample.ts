// Image sampling with point filtering and gather4 (image_sample*, image_gather4*, src/image/sample.ts) as engine cases
// (ENGINE_SUITES, so tools/vulkan-replay runs them on a GPU too), each with the results a small
// model written here gives (not src/: its own float arithmetic, address modes, level rule, image
// layout and S# bit positions from ROCr's resource_nv.h), for tests/runtime/sample.test.ts to check
// on the interpreter, the IR interpreter and lavapipe. Every address mode on both axes, normalized
// and unnormalized (UNRM and FORCE_UNNORMALIZED), TRUNC_COORD 0 and 1, coordinates outside [0, 1],
// negative, on texel boundaries and on the 8-fractional-bit rounding's ties, NaN, ±inf, ±0,
// subnormals, huge values (under the clamp and border modes, where they are exact); d16, A16,
// dmask subsets, DST_SEL; _lz, _l with MIP_FILTER none and point over views of several levels, the
// implicit forms (plain, _b, _cl, _d) under MIP_FILTER none, _o offsets, NSA; 1D, 2D, 2D array,
// 3D, 1D array; the three border colour types; image_gather4's 2×2 footprint (floor(x − 1/2) and
// the next texel per axis, each through the address modes, in Vulkan's result order) under every
// address mode, each component, DST_SEL, d16, A16, _o, _l with MIP_FILTER point, 2D arrays and
// point or bilinear XY filters. The readings the model follows are src/image/
// sample.ts's (docs/TECHNICAL_DEBT.md, "Image sampling"), stated again here in the model's terms.
import assert from 'node:assert/strict';
import type { ImageClass } from '../../src/image/linear.js';
import { loadShaders } from '../../src/container/shader.js';
import { assembleKernels } from '../harness/kernel.js';
import { Rng } from '../harness/rng.js';
import type { EngineCase } from './cases.js';
import { fmt, tsharp, tsharpDwords } from './image-vk-kernels.js';

/** The S# fields the cases set, at ROCr resource_nv.h's positions (SQ_IMG_SAMP_WORD0..3), written here (not src/isa/ssharp.ts). */
export interface Sampler {
  clampX?: number; clampY?: number; clampZ?: number; forceUnnorm?: number; trunc?: number;
  minLod?: number; maxLod?: number; lodBias?: number; mag?: number; min?: number; zFilter?: number; mip?: number; border?: number;
  aniso?: number;
}
export function ssharpWords(s: Sampler): number[] {
  const w = [0, 0, 0, 0];
  const put = (d: number, at: number, n: number, v: number | undefined) => {
    if (v === undefined) return;
    assert.ok(v >= 0 && v < 2 ** n);
    w[d] = ((w[d] ?? 0) | (v << at)) >>> 0;
  };
  put(0, 0, 3, s.clampX); put(0, 3, 3, s.clampY); put(0, 6, 3, s.clampZ); put(0, 9, 3, s.aniso); put(0, 15, 1, s.forceUnnorm); put(0, 27, 1, s.trunc);
  put(1, 0, 12, s.minLod); put(1, 12, 12, s.maxLod ?? 0xfff);
  put(2, 0, 14, s.lodBias); put(2, 20, 2, s.mag); put(2, 22, 2, s.min); put(2, 24, 2, s.zFilter); put(2, 26, 2, s.mip);
  put(3, 30, 2, s.border);
  return w;
}

const DIM: Readonly<Record<ImageClass, string>> = {
  '1d': 'SQ_RSRC_IMG_1D', '2d': 'SQ_RSRC_IMG_2D', '3d': 'SQ_RSRC_IMG_3D', cube: 'SQ_RSRC_IMG_CUBE', '1dArray': 'SQ_RSRC_IMG_1D_ARRAY', '2dArray': 'SQ_RSRC_IMG_2D_ARRAY',
};

/** The image: class, format (32-bit float components, or 16_16_16_16_FLOAT), size, levels, the view. */
export interface Img {
  cls: ImageClass; format: '32_FLOAT' | '32_32_FLOAT' | '32_32_32_32_FLOAT' | '16_16_16_16_FLOAT' | '32_UINT' | '32_32_32_32_UINT' | '32_32_32_32_SINT';
  w: number; h: number; d: number; levels: number; baseLevel?: number; lastLevel?: number; baseArray?: number; dstSel?: readonly number[];
}

const COMPS: Readonly<Record<Img['format'], number>> = { '32_FLOAT': 1, '32_32_FLOAT': 2, '32_32_32_32_FLOAT': 4, '16_16_16_16_FLOAT': 4, '32_UINT': 1, '32_32_32_32_UINT': 4, '32_32_32_32_SINT': 4 };
const isInt = (f: Img['format']) => f === '32_UINT' || f === '32_32_32_32_UINT' || f === '32_32_32_32_SINT';
export const bytesOf = (f: Img['format']) => (f === '16_16_16_16_FLOAT' ? 8 : 4 * COMPS[f]);
const layersOf = (im: Img) => (im.cls === '1dArray' || im.cls === '2dArray' ? (im.baseArray ?? 0) + im.d : im.cls === '3d' ? im.d : (im.baseArray ?? 0) + 1);
const hasY = (c: ImageClass) => c === '2d' || c === '3d' || c === '2dArray';
const lsize = (n: number, l: number) => Math.max(n >> l, 1);

/**
 * Component c of texel (x, y, slice, level): a 32-bit value naming them (the float formats: a
 * positive normal f32; the f16 format: a finite half).
 */
export function content(im: Img, x: number, y: number, s: number, l: number, c: number): number {
  if (im.format === '16_16_16_16_FLOAT') return ((c << 13) | ((l & 3) << 11) | ((s & 3) << 9) | ((y & 7) << 6) | (x & 63)) & 0x7bff;
  if (isInt(im.format)) return ((c << 30) | (l << 26) | (s << 18) | (y << 9) | x) >>> 0;
  return (((100 + 5 * c + l) << 23) | (s << 16) | (y << 8) | x) >>> 0;
}

/** The linear layout (addrlib's gfx10 one, written again here): rows of 256 bytes, each slice the whole chain, smallest level first. */
function layout(im: Img): { bytes: number; at: (x: number, y: number, s: number, l: number) => number } {
  const bpe = bytesOf(im.format);
  const pitch = (l: number) => Math.ceil(lsize(im.w, l) / (256 / bpe)) * (256 / bpe);
  const rows = (l: number) => (hasY(im.cls) ? lsize(im.h, l) : 1);
  const size = (l: number) => pitch(l) * rows(l) * bpe;
  let slice = 0;
  for (let l = 0; l < im.levels; l++) slice += size(l);
  const before = (l: number) => { let b = 0; for (let i = l + 1; i < im.levels; i++) b += size(i); return b; };
  return { bytes: slice * layersOf(im), at: (x, y, s, l) => s * slice + before(l) + (y * pitch(l) + x) * bpe };
}

function imageBytes(im: Img): Uint8Array {
  const L = layout(im);
  const b = new Uint8Array(L.bytes + 64);
  const v = new DataView(b.buffer);
  for (let l = 0; l < im.levels; l++) {
    for (let s = 0; s < layersOf(im); s++) {
      const depth = im.cls === '3d' ? lsize(im.d, l) : 1;
      if (im.cls === '3d' && s >= depth) continue;
      for (let y = 0; y < (hasY(im.cls) ? lsize(im.h, l) : 1); y++) {
        for (let x = 0; x < lsize(im.w, l); x++) {
          const a = L.at(x, y, s, l);
          for (let c = 0; c < COMPS[im.format]; c++) {
            if (im.format === '16_16_16_16_FLOAT') v.setUint16(a + 2 * c, content(im, x, y, s, l, c), true);
            else v.setUint32(a + 4 * c, content(im, x, y, s, l, c), true);
          }
        }
      }
    }
  }
  return b;
}

/** An f16's value (exact). */
function half(h: number): number {
  const e = (h >> 10) & 31, f = h & 0x3ff, s = h & 0x8000 ? -1 : 1;
  return e === 0 ? s * f * 2 ** -24 : e === 31 ? (f ? NaN : s * Infinity) : s * (1024 + f) * 2 ** (e - 25);
}
const F32 = new DataView(new ArrayBuffer(4));
const f32 = (bits: number) => { F32.setUint32(0, bits >>> 0, true); return F32.getFloat32(0, true); };
const bitsOf = (x: number) => { F32.setFloat32(0, x, true); return F32.getUint32(0, true); };
/** Round to nearest, ties to even, of a double holding an exact value. */
const rne = (x: number) => { const f = Math.floor(x), d = x - f; return d > 0.5 || (d === 0.5 && f % 2 !== 0) ? f + 1 : f; };

export interface Instr {
  /** image_sample (default) or image_gather4. */
  op?: 'gather4';
  /** The mnemonic's suffix. */
  suffix: string;
  dmask: number;
  d16?: boolean;
  a16?: boolean;
  unrm?: boolean;
  nsa?: boolean;
}

/** A lane's inputs: coordinates (f32 values, or f16 bits with A16), offsets (x, y, z), the LOD. */
export interface LaneIn { x: number; y: number; z: number; off?: readonly [number, number, number]; lod?: number; bias?: number }

/** What the model says a lane gets: its four result dwords (the presets where nothing is written), or that it faults. */
type Out = number[] | 'fault';

const PRESET = (l: number, k: number) => (0xc0de0000 | (l << 4) | k) >>> 0;

/** The model: the texel or the border colour of one lane (the readings of src/image/sample.ts, computed independently). */
export function model(im: Img, s: Sampler, ins: Instr, lane: LaneIn, l: number): Out {
  const levelsView = (im.lastLevel ?? im.levels - 1) - (im.baseLevel ?? 0) + 1;
  let level = 0;
  if ((s.mip ?? 0) === 1) {
    const lod = ins.suffix.includes('_lz') ? 0 : (lane.lod ?? 0);
    if (Number.isNaN(lod)) return 'fault';
    const L = Math.min(Math.max(lod, (s.minLod ?? 0) / 256), (s.maxLod ?? 0xfff) / 256);
    const frac = L * 256 - 256 * Math.floor(L);
    if (frac > 127 && frac < 129) return 'fault';
    level = Math.min(Math.floor(L) + (frac >= 129 ? 1 : 0), levelsView - 1);
  }
  const abs = (im.baseLevel ?? 0) + level;
  const unnorm = ins.unrm === true || s.forceUnnorm === 1;
  const gather = ins.op === 'gather4';
  let border = false;
  // gather4: the footprint's second texel (i0 + 1) of an axis when `second`.
  const axis = (u: number, n: number, mode: number, off: number, second = false): number | 'fault' => {
    const x = unnorm ? u : Math.fround(u * n);
    let i: number;
    let big = false;
    if (Number.isNaN(x)) i = gather ? -1 : 0;
    else if (Math.abs(x) >= 2 ** 24) { big = true; i = x > 0 ? 2 ** 24 : -(2 ** 24); }
    else if (gather) i = Math.floor((rne(x * 256) - 128) / 256);
    else i = s.trunc === 1 ? Math.floor(x) : Math.floor(rne(x * 256) / 256);
    if (big && (mode === 0 || mode === 1)) return 'fault';
    i += off + (second ? 1 : 0);
    const mod = (a: number, m: number) => ((a % m) + m) % m;
    const mirror1 = (a: number) => (a >= 0 ? a : -1 - a);
    switch (mode) {
      case 0: return mod(i, n);
      case 1: { const t = mod(i, 2 * n); return t < n ? t : 2 * n - 1 - t; }
      case 2: return Math.min(Math.max(i, 0), n - 1);
      case 3: return Math.min(mirror1(i), n - 1);
      case 4: case 6: if (i < 0 || i >= n) border = true; return Math.min(Math.max(i, 0), n - 1);
      default: if (mirror1(i) >= n) border = true; return Math.min(mirror1(i), n - 1);
    }
  };
  const off = lane.off ?? [0, 0, 0];
  if (gather) return gatherModel(im, s, ins, lane, l, abs, axis, () => { const b = border; border = false; return b; });
  const x = axis(lane.x, lsize(im.w, abs), s.clampX ?? 0, ins.suffix.includes('_o') ? off[0] : 0);
  const y = hasY(im.cls) ? axis(lane.y, lsize(im.h, abs), s.clampY ?? 0, ins.suffix.includes('_o') ? off[1] : 0) : 0;
  let slice = im.baseArray ?? 0;
  if (im.cls === '3d') {
    const z = axis(lane.z, lsize(im.d, abs), s.clampZ ?? 0, ins.suffix.includes('_o') ? off[2] : 0);
    if (z === 'fault') return 'fault';
    slice = z;
  } else if (im.cls === '1dArray' || im.cls === '2dArray') {
    const layer = Number.isNaN(lane.z) ? 0 : Math.min(Math.max(Math.abs(lane.z) >= 2 ** 24 ? Math.sign(lane.z) * 2 ** 24 : rne(lane.z), 0), im.d - 1);
    slice = (im.baseArray ?? 0) + layer;
  }
  if (x === 'fault' || y === 'fault') return 'fault';
  const d16 = ins.d16 === true;
  const one = d16 ? 0x3c00 : 0x3f800000;
  const sel = im.dstSel ?? [4, 5, 6, 7];
  const chans = [0, 1, 2, 3].filter((k) => (ins.dmask >> k) & 1);
  let vals: number[];
  if (border) {
    const type = s.border ?? 0;
    if (type === 3 || isInt(im.format) || chans.some((k) => sel[k] !== 4 + k)) return 'fault';
    vals = chans.map((k) => (type === 2 || (type === 1 && k === 3) ? one : 0));
  } else {
    const comp = (c: number): number => {
      if (c >= COMPS[im.format]) return c === 3 ? (isInt(im.format) ? 1 : one) : 0;
      const v = content(im, x, y, slice, abs, c);
      return im.format === '16_16_16_16_FLOAT' ? (d16 ? v : bitsOf(half(v))) : v;
    };
    vals = chans.map((k) => { const t = sel[k] ?? 0; return t === 0 ? 0 : t === 1 ? (isInt(im.format) ? 1 : one) : comp(t - 4); });
  }
  const out = [0, 1, 2, 3].map((k) => PRESET(l, k));
  if (!d16) vals.forEach((v, j) => { out[j] = v >>> 0; });
  else for (let j = 0; j < vals.length; j += 2) {
    const hi = j + 1 < vals.length ? (vals[j + 1] ?? 0) : (out[j >> 1] ?? 0) >>> 16;
    out[j >> 1] = ((vals[j] ?? 0) & 0xffff | (hi << 16)) >>> 0;
  }
  return out;
}

/** gather4's four results (component k of the footprint's texels (i0, j1), (i1, j1), (i1, j0), (i0, j0)), from the model's axis rule. */
function gatherModel(im: Img, s: Sampler, ins: Instr, lane: LaneIn, l: number, abs: number,
  axis: (u: number, n: number, mode: number, off: number, second?: boolean) => number | 'fault', takeBorder: () => boolean): Out {
  const k = 31 - Math.clz32(ins.dmask);
  const o = ins.suffix.includes('_o') ? (lane.off ?? [0, 0, 0]) : [0, 0, 0];
  const slice = im.cls === '2dArray' ? (im.baseArray ?? 0) + (Number.isNaN(lane.z) ? 0 : Math.min(Math.max(Math.abs(lane.z) >= 2 ** 24 ? Math.sign(lane.z) * 2 ** 24 : rne(lane.z), 0), im.d - 1)) : (im.baseArray ?? 0);
  const d16 = ins.d16 === true;
  const one = d16 ? 0x3c00 : 0x3f800000;
  const sel = im.dstSel ?? [4, 5, 6, 7];
  const vals: number[] = [];
  for (const [sx, sy] of [[false, true], [true, true], [true, false], [false, false]] as const) {
    const x = axis(lane.x, lsize(im.w, abs), s.clampX ?? 0, o[0] ?? 0, sx);
    const bx = takeBorder();
    const y = axis(lane.y, lsize(im.h, abs), s.clampY ?? 0, o[1] ?? 0, sy);
    const by = takeBorder();
    if (x === 'fault' || y === 'fault') return 'fault';
    if (bx || by) {
      const type = s.border ?? 0;
      if (type === 3 || isInt(im.format) || sel[k] !== 4 + k) return 'fault';
      vals.push(type === 2 || (type === 1 && k === 3) ? one : 0);
      continue;
    }
    const t = sel[k] ?? 0;
    const comp = (c: number): number => {
      if (c >= COMPS[im.format]) return c === 3 ? (isInt(im.format) ? 1 : one) : 0;
      const v = content(im, x, y, slice, abs, c);
      return im.format === '16_16_16_16_FLOAT' ? (d16 ? v : bitsOf(half(v))) : v;
    };
    vals.push(t === 0 ? 0 : t === 1 ? (isInt(im.format) ? 1 : one) : comp(t - 4));
  }
  const out = [0, 1, 2, 3].map((j) => PRESET(l, j));
  if (!d16) vals.forEach((v, j) => { out[j] = v >>> 0; });
  else { out[0] = ((vals[0] ?? 0) | ((vals[1] ?? 0) << 16)) >>> 0; out[1] = ((vals[2] ?? 0) | ((vals[3] ?? 0) << 16)) >>> 0; }
  return out;
}

/** The instruction's text: vdata v[10:..], the address from v2 (or an NSA list from v2 up, reversed pairs), T# s[8:15], S# s[16:19]. */
function instText(im: Img, ins: Instr, words: number): string {
  const n = ins.op === 'gather4' ? 4 : [0, 1, 2, 3].filter((k) => (ins.dmask >> k) & 1).length;
  const data = ins.d16 ? (n + 1) >> 1 : n;
  const reg = (a: number, c: number) => (c === 1 ? `v${a}` : `v[${a}:${a + c - 1}]`);
  const addr = ins.nsa ? `[${Array.from({ length: words }, (_, k) => `v${2 + k}`).join(', ')}]` : reg(2, words);
  return `image_${ins.op ?? 'sample'}${ins.suffix} ${reg(10, data)}, ${addr}, s[8:15], s[16:19] dmask:0x${ins.dmask.toString(16)} dim:${DIM[im.cls]}${ins.unrm ? ' unorm' : ''}${ins.a16 ? ' a16' : ''}${ins.d16 ? ' d16' : ''}`;
}

const GRADS: Readonly<Record<ImageClass, number>> = { '1d': 2, '2d': 4, '3d': 6, cube: 4, '1dArray': 2, '2dArray': 4 };

/** The lane's address dwords in the instruction's order: offsets, bias, gradients, coordinates (A16: halves), the LOD. */
function addressDwords(im: Img, ins: Instr, lane: LaneIn): number[] {
  const out: number[] = [];
  const parts = ins.suffix.split('_').filter((p) => p !== '');
  if (parts.includes('o')) {
    const [ox, oy, oz] = lane.off ?? [0, 0, 0];
    out.push(((ox & 0x3f) | ((oy & 0x3f) << 8) | ((oz & 0x3f) << 16)) >>> 0);
  }
  if (parts.includes('b')) out.push(bitsOf(lane.bias ?? 0.75));
  // Gradients (ignored under MIP_FILTER none): 32-bit each, or with _g16 packed as (dPdx halves, dPdy halves), each padded to dwords.
  if (parts.includes('d') || parts.includes('cd')) {
    const n = parts.includes('g16') ? (im.cls === '3d' ? 4 : 2) : GRADS[im.cls];
    for (let k = 0; k < n; k++) out.push(parts.includes('g16') ? 0x3c003800 + k : bitsOf(0.25 * (k + 1)));
  }
  const comps: number[] = [lane.x];
  if (hasY(im.cls)) comps.push(lane.y);
  if (im.cls === '3d' || im.cls === '1dArray' || im.cls === '2dArray') comps.push(lane.z);
  if (parts.includes('l') || parts.includes('cl')) comps.push(lane.lod ?? 0);
  if (!ins.a16) out.push(...comps.map(bitsOf));
  else for (let k = 0; k < comps.length; k += 2) out.push(((comps[k] ?? 0) & 0xffff | (((comps[k + 1] ?? 0) & 0xffff) << 16)) >>> 0);
  return out;
}

export interface SampleScenario {
  name: string;
  img: Img;
  samp: Sampler;
  ins: Instr;
  lanes: (l: number, rng: Rng) => LaneIn;
  ws?: 32 | 64;
}

export interface SampleCase extends EngineCase {
  /** The buffers after the run (the model's results; the inputs unchanged), or the lanes that fault. */
  readonly want: readonly Uint8Array[] | { readonly faults: readonly number[] };
  readonly text: string;
}

/**
 * The kernel: kernarg buffers 0 results (lane l: 4 dwords at 16 l), 1 the image (256-byte aligned on
 * both engines), 2 the lanes' address dwords (8 at 32 l), 3 the T#'s dwords 0..7 (dword 0 and BASE_HI
 * from the image's address) and the S#'s 4.
 */
function body(text: string): string {
  return `
  s_load_dwordx8 s[20:27], s[0:1], 0x0
  s_waitcnt lgkmcnt(0)
  s_load_dwordx8 s[8:15], s[26:27], 0x0
  s_load_dwordx4 s[16:19], s[26:27], 0x20
  s_waitcnt lgkmcnt(0)
  s_lshr_b64 s[28:29], s[22:23], 8
  s_mov_b32 s8, s28
  s_and_b32 s29, s29, 0xff
  s_or_b32 s9, s9, s29
  v_lshlrev_b32 v1, 5, v0
  global_load_dwordx4 v[2:5], v1, s[24:25]
  global_load_dwordx4 v[6:9], v1, s[24:25] offset:16
  v_lshlrev_b32 v1, 4, v0
  ${[0, 1, 2, 3].map((k) => `v_or_b32 v${10 + k}, 0x${((0xc0de0000 | k) >>> 0).toString(16)}, v1`).join('\n  ')}
  s_waitcnt vmcnt(0)
  ${text}
  s_waitcnt vmcnt(0)
  global_store_dwordx4 v1, v[10:13], s[20:21]
  s_endpgm`;
}

export function sampleCase(sc: SampleScenario, rng: Rng): SampleCase {
  const ws = sc.ws ?? 32;
  const im = sc.img;
  const lanes = Array.from({ length: ws }, (_, l) => sc.lanes(l, rng));
  const perLane = lanes.map((ln) => addressDwords(im, sc.ins, ln));
  const words = perLane[0]?.length ?? 1;
  assert.ok(words <= 8);
  const text = instText(im, sc.ins, words);
  const name = `sample_${sc.name.replace(/\W+/g, '_')}_${ws}`;
  const code = assembleKernels('gfx1030', [{ name, body: body(text), wave64: ws === 64, vgprs: 24, sgprs: 40, directives: ['.amdhsa_user_sgpr_kernarg_segment_ptr 1', '.amdhsa_kernarg_size 64'] }]);
  const shader = loadShaders({ bytes: code, name }).find((s) => s.info.name === name);
  assert.ok(shader, name);
  const addr = new Uint8Array(32 * ws);
  const av = new DataView(addr.buffer);
  perLane.forEach((ds, l) => ds.forEach((d, k) => av.setUint32(32 * l + 4 * k, d >>> 0, true)));
  const t = tsharp(im.cls, {
    format: fmt(im.format), w: im.w, h: im.h, d: im.d, maxMip: im.levels - 1, baseLevel: im.baseLevel ?? 0, lastLevel: im.lastLevel ?? im.levels - 1,
    baseArray: im.baseArray ?? 0, ...(im.dstSel ? { dstSel: im.dstSel } : {}),
  });
  const desc = new Uint8Array(48);
  const dv = new DataView(desc.buffer);
  [0, ...tsharpDwords(t)].forEach((x, k) => dv.setUint32(4 * k, x, true));
  ssharpWords(sc.samp).forEach((x, k) => dv.setUint32(32 + 4 * k, x, true));
  const image = imageBytes(im);
  const results = new Uint8Array(16 * ws);
  // A16 lanes hold f16 bits; the model takes their values.
  const value = (ln: LaneIn): LaneIn => (sc.ins.a16 ? { ...ln, x: half(ln.x), y: half(ln.y), z: half(ln.z), ...(ln.lod !== undefined ? { lod: half(ln.lod) } : {}) } : ln);
  const outs = lanes.map((ln, l) => model(im, sc.samp, sc.ins, value(ln), l));
  const faults = outs.flatMap((o, l) => (o === 'fault' ? [l] : []));
  const rv = new DataView(results.buffer);
  outs.forEach((o, l) => { if (o !== 'fault') o.forEach((x, k) => rv.setUint32(16 * l + 4 * k, x, true)); });
  const buffers = [new Uint8Array(16 * ws), image, addr, desc];
  return {
    name: `${sc.name} (wave${ws}): ${text}`, spirvName: name, code, kernel: name, shader, buffers, grid: [ws, 1, 1], block: [ws, 1, 1], scalars: [], writes: 0, text,
    want: faults.length ? { faults } : [results, image, addr, desc],
  };
}

// --- the scenarios ---

const SPECIAL = [NaN, Infinity, -Infinity, 0, -0, 1e-40, -1e-40, 1e9, -1e9, 2 ** 24, -(2 ** 24), 16777215];
const BIG = (x: number) => !Number.isFinite(x) || Math.abs(x) >= 2 ** 20;

/**
 * A normalized coordinate for an axis of n texels: texel boundaries k/n and centres, the
 * 8-fractional-bit rounding's ties and their neighbours ((k + 255/256 + 1/512)/n ...), values past
 * [0, 1] and negative, random ones, and (when `big`) the specials.
 */
function coord(rng: Rng, n: number, unnorm: boolean, big: boolean): number {
  const scale = unnorm ? 1 : 1 / n;
  const k = rng.int(5 * n) - 2 * n;
  switch (rng.int(big ? 8 : 7)) {
    case 0: return Math.fround(k * scale);
    case 1: return Math.fround((k + 0.5) * scale);
    case 2: return Math.fround((k + 255 / 256 + 1 / 512) * scale);
    case 3: return Math.fround((k + 1 / 512) * scale);
    case 4: return Math.fround((k + 127 / 256 + 1 / 512 * (rng.int(3) - 1)) * scale);
    case 5: return Math.fround((rng.u32() / 2 ** 32 * 6 - 2.5) * n * scale);
    case 6: return [0, -0, 1e-40, -1e-40, NaN][rng.int(5)] as number;
    default: return rng.pick(SPECIAL);
  }
}

const CLASSES: readonly ImageClass[] = ['1d', '2d', '3d', '1dArray', '2dArray'];

export function sampleScenarios(): SampleScenario[] {
  const out: SampleScenario[] = [];
  const lanesFor = (im: Img, unnorm: boolean, big: (l: number) => boolean) => (l: number, rng: Rng): LaneIn => ({
    x: coord(rng, im.w, unnorm, big(l)), y: coord(rng, im.h, unnorm, big(l)),
    z: im.cls === '3d' ? coord(rng, im.d, unnorm, big(l)) : rng.pick([-1.5, -0.5, 0, 0.49, 0.5, 1.5, 2.5, 2.51, 7, 1e9, NaN, -0]),
  });
  // Every address mode on x (and mode + 3 on y), TRUNC_COORD 0 and 1, the three border colours.
  for (let mode = 0; mode < 8; mode++) {
    for (const trunc of [0, 1]) {
      const my = (mode + 3) % 8;
      const img: Img = { cls: '2d', format: '32_32_32_32_FLOAT', w: 7, h: 4, d: 1, levels: 1 };
      const wraps = [mode, my].some((m) => m < 2);
      out.push({
        name: `2D clamp ${mode}/${my} trunc ${trunc}`, img, samp: { clampX: mode, clampY: my, trunc, border: (mode + trunc) % 3 },
        ins: { suffix: '_lz', dmask: 0xf }, lanes: lanesFor(img, false, () => !wraps),
      });
    }
  }
  // Unnormalized by UNRM and by FORCE_UNNORMALIZED; power-of-two sizes (ties exact), the plain form (implicit LOD, MIP_FILTER none).
  const pot: Img = { cls: '2d', format: '32_32_FLOAT', w: 8, h: 16, d: 1, levels: 1 };
  out.push({ name: '2D unnormalized (UNRM) mirror/clamp', img: pot, samp: { clampX: 1, clampY: 2 }, ins: { suffix: '', dmask: 0x3, unrm: true }, lanes: lanesFor(pot, true, () => false) });
  out.push({ name: '2D FORCE_UNNORMALIZED mirror-once border', img: pot, samp: { clampX: 7, clampY: 5, forceUnnorm: 1, border: 2, trunc: 1 }, ins: { suffix: '', dmask: 0xb }, lanes: lanesFor(pot, true, () => true) });
  out.push({ name: '2D normalized pot clamp-border', img: pot, samp: { clampX: 6, clampY: 4, border: 1 }, ins: { suffix: '', dmask: 0x9 }, lanes: lanesFor(pot, false, () => true), ws: 64 });
  // The other implicit forms: _b (bias ignored), _cl, _d, _b_cl under MIP_FILTER none.
  for (const suffix of ['_b', '_cl', '_d', '_b_cl', '_d_cl', '_cd', '_d_g16', '_cd_cl_o_g16']) {
    const img: Img = { cls: '2d', format: '32_32_32_32_FLOAT', w: 5, h: 6, d: 1, levels: 3, baseLevel: 1 };
    out.push({ name: `2D ${suffix} (MIP_FILTER none: BASE_LEVEL 1)`, img, samp: { clampX: 0, clampY: 3 }, ins: { suffix, dmask: 0x5 }, lanes: (l, rng) => ({ ...lanesFor(img, false, () => false)(l, rng), lod: 2.7, off: [rng.int(64) - 32, rng.int(64) - 32, 0] }) });
  }
  const g3: Img = { cls: '3d', format: '32_32_FLOAT', w: 4, h: 5, d: 6, levels: 1 };
  out.push({ name: '3D _d_g16 (four gradient dwords)', img: g3, samp: { clampX: 2, clampY: 1, clampZ: 0 }, ins: { suffix: '_d_g16', dmask: 0x3 }, lanes: lanesFor(g3, false, () => false) });
  // Every class, _lz and _l (MIP_FILTER none: the LOD ignored).
  for (const cls of CLASSES) {
    const img: Img = { cls, format: cls === '3d' ? '32_32_FLOAT' : '32_32_32_32_FLOAT', w: 6, h: cls === '1d' || cls === '1dArray' ? 1 : 5, d: cls === '3d' ? 3 : 4, levels: 2, baseArray: cls.endsWith('Array') ? 1 : 0 };
    out.push({ name: `${cls} _l MIP_FILTER none`, img, samp: { clampX: 2, clampY: 0, clampZ: 1, border: 0 }, ins: { suffix: '_l', dmask: 0xf }, lanes: (l, rng) => ({ ...lanesFor(img, false, () => false)(l, rng), lod: 1.3 }) });
    out.push({ name: `${cls} _lz border`, img, samp: { clampX: 6, clampY: 5, clampZ: 4, border: 2, trunc: 1 }, ins: { suffix: '_lz', dmask: 0x7 }, lanes: lanesFor(img, false, () => true), ws: 64 });
  }
  // MIP_FILTER point: _l over 5 levels (the LOD clamped by MIN_LOD/MAX_LOD, off the half-level ties), a view from level 1, and _lz with MIN_LOD.
  const mips: Img = { cls: '2d', format: '32_32_32_32_FLOAT', w: 19, h: 9, d: 1, levels: 5 };
  const lod = (rng: Rng) => rng.pick([-3, -0, 0, 0.25, 0.49, 0.51, 1, 1.4, 1.75, 2.2, 3, 3.6, 4, 7.2, 100, Infinity, -Infinity, 1e-40]);
  out.push({ name: '2D _l MIP_FILTER point', img: mips, samp: { clampX: 2, clampY: 1, mip: 1 }, ins: { suffix: '_l', dmask: 0xf }, lanes: (l, rng) => ({ ...lanesFor(mips, false, () => false)(l, rng), lod: lod(rng) }) });
  out.push({ name: '2D _l MIP_FILTER point MIN_LOD 1.25 MAX_LOD 2.75 view 1..3', img: { ...mips, baseLevel: 1, lastLevel: 3 }, samp: { clampX: 3, clampY: 0, mip: 1, minLod: 0x140, maxLod: 0x2c0 }, ins: { suffix: '_l', dmask: 0xf }, lanes: (l, rng) => ({ ...lanesFor(mips, false, () => false)(l, rng), lod: lod(rng) }) });
  out.push({ name: '2D _lz MIP_FILTER point MIN_LOD 2', img: mips, samp: { clampX: 6, clampY: 7, mip: 1, minLod: 0x200, border: 1 }, ins: { suffix: '_lz', dmask: 0xf }, lanes: lanesFor(mips, false, () => true) });
  out.push({ name: '3D _l MIP_FILTER point', img: { cls: '3d', format: '32_FLOAT', w: 8, h: 5, d: 6, levels: 3 }, samp: { clampX: 0, clampY: 1, clampZ: 2, mip: 1, zFilter: 1 }, ins: { suffix: '_l', dmask: 0x9 }, lanes: (l, rng) => ({ x: coord(rng, 8, false, false), y: coord(rng, 5, false, false), z: coord(rng, 6, false, false), lod: lod(rng) }) });
  // _o offsets (6-bit signed, −32..31): 2D _lz_o, 3D _l_o, 2D array _o (no offset on the layer), 1D _b_o.
  const offs = (rng: Rng): [number, number, number] => [rng.int(64) - 32, rng.int(64) - 32, rng.int(64) - 32];
  const o2: Img = { cls: '2d', format: '32_32_32_32_FLOAT', w: 9, h: 7, d: 1, levels: 1 };
  out.push({ name: '2D _lz_o', img: o2, samp: { clampX: 0, clampY: 1 }, ins: { suffix: '_lz_o', dmask: 0xf }, lanes: (l, rng) => ({ ...lanesFor(o2, false, () => false)(l, rng), off: offs(rng) }) });
  out.push({ name: '2D _lz_o border', img: o2, samp: { clampX: 6, clampY: 7, border: 2 }, ins: { suffix: '_lz_o', dmask: 0xf }, lanes: (l, rng) => ({ ...lanesFor(o2, false, () => true)(l, rng), off: offs(rng) }) });
  const o3: Img = { cls: '3d', format: '32_32_FLOAT', w: 5, h: 4, d: 6, levels: 2 };
  out.push({ name: '3D _l_o', img: o3, samp: { clampX: 1, clampY: 3, clampZ: 0 }, ins: { suffix: '_l_o', dmask: 0x3 }, lanes: (l, rng) => ({ ...lanesFor(o3, false, () => false)(l, rng), off: offs(rng), lod: 0.5 }) });
  const oa: Img = { cls: '2dArray', format: '32_32_32_32_FLOAT', w: 6, h: 6, d: 3, levels: 1 };
  out.push({ name: '2D array _o', img: oa, samp: { clampX: 2, clampY: 0 }, ins: { suffix: '_o', dmask: 0xf }, lanes: (l, rng) => ({ ...lanesFor(oa, false, () => false)(l, rng), off: offs(rng) }) });
  const o1: Img = { cls: '1d', format: '32_FLOAT', w: 20, h: 1, d: 1, levels: 1 };
  out.push({ name: '1D _b_o', img: o1, samp: { clampX: 1 }, ins: { suffix: '_b_o', dmask: 0x9 }, lanes: (l, rng) => ({ ...lanesFor(o1, false, () => false)(l, rng), off: offs(rng) }) });
  // d16 (16_16_16_16_FLOAT: halves as they are; dmask 0x7 keeps the last VGPR's high half), A16 (f16 coordinates), NSA.
  const h: Img = { cls: '2d', format: '16_16_16_16_FLOAT', w: 12, h: 10, d: 1, levels: 2 };
  out.push({ name: '2D d16', img: h, samp: { clampX: 3, clampY: 6, border: 1 }, ins: { suffix: '_lz', dmask: 0x7, d16: true }, lanes: lanesFor(h, false, () => true) });
  out.push({ name: '2D 16-bit float to f32', img: h, samp: { clampX: 2, clampY: 1 }, ins: { suffix: '_lz', dmask: 0xe }, lanes: lanesFor(h, false, () => false) });
  const f16 = (x: number): number => {
    // A value's f16 bits (the values used are exact halves or specials).
    if (Number.isNaN(x)) return 0x7e00;
    if (!Number.isFinite(x)) return x > 0 ? 0x7c00 : 0xfc00;
    const s = x < 0 || Object.is(x, -0) ? 0x8000 : 0;
    const a = Math.abs(x);
    if (a === 0) return s;
    if (a >= 65504) return s | 0x7bff;
    if (a < 2 ** -14) return s | Math.round(a / 2 ** -24);
    const e = Math.floor(Math.log2(a));
    return s | ((e + 15) << 10) | (Math.round((a / 2 ** e - 1) * 1024) & 0x3ff);
  };
  const a16lanes = (im: Img, unnorm: boolean) => (l: number, rng: Rng): LaneIn => {
    const pick = (n: number) => f16(Math.max(Math.min(rng.pick([-2, -1, -0.5, -1 / 64, 0, 1 / 1024, 0.25, 0.5, 0.75, 1, 1.5, 3.25]) * (unnorm ? n : 1), 65504), -65504));
    return { x: l === 0 ? 0x7e00 : l === 1 ? 0x0001 : pick(im.w), y: l === 2 ? 0x8000 : pick(im.h), z: f16(rng.pick([0, 1, 2, 0.5, 1.5, -1])), lod: f16(1.25) };
  };
  const a2: Img = { cls: '2dArray', format: '32_32_32_32_FLOAT', w: 8, h: 4, d: 3, levels: 2 };
  out.push({ name: '2D array A16', img: a2, samp: { clampX: 0, clampY: 1 }, ins: { suffix: '_lz', dmask: 0xf, a16: true }, lanes: a16lanes(a2, false) });
  out.push({ name: '2D array A16 _l MIP_FILTER point d16 NSA', img: { ...a2, format: '16_16_16_16_FLOAT' }, samp: { clampX: 2, clampY: 3, mip: 1 }, ins: { suffix: '_l', dmask: 0xf, a16: true, d16: true, nsa: true }, lanes: a16lanes(a2, false) });
  out.push({ name: '2D NSA unnormalized', img: o2, samp: { clampX: 3, clampY: 2 }, ins: { suffix: '_l', dmask: 0xd, nsa: true, unrm: true }, lanes: (l, rng) => ({ ...lanesFor(o2, true, () => false)(l, rng), lod: 3 }) });
  // DST_SEL (no border lanes: clamp modes): w, 1, 0, x on a 4-component format; x, x, 1, y on 32_32_FLOAT (missing z, w).
  out.push({ name: '2D DST_SEL w,1,0,x', img: { ...o2, dstSel: [7, 1, 0, 4] }, samp: { clampX: 2, clampY: 3 }, ins: { suffix: '_lz', dmask: 0xf }, lanes: lanesFor(o2, false, () => true) });
  out.push({ name: '2D 32_32 DST_SEL x,x,1,y and missing', img: { ...pot, dstSel: [4, 4, 1, 5] }, samp: { clampX: 0, clampY: 1 }, ins: { suffix: '_lz', dmask: 0xf }, lanes: lanesFor(pot, false, () => false) });
  // gather4: the footprint of every address mode, normalized and not, each component, DST_SEL, d16, A16, _o offsets, _l/_lz with MIP_FILTER point, 2D arrays, bilinear samplers.
  for (let mode = 0; mode < 8; mode++) {
    const img: Img = { cls: mode % 2 ? '2dArray' : '2d', format: '32_32_32_32_FLOAT', w: 6, h: 5, d: 3, levels: 1 };
    const wraps = [mode, (mode + 5) % 8].some((m) => m < 2);
    out.push({
      name: `gather4 clamp ${mode}/${(mode + 5) % 8}`, img, samp: { clampX: mode, clampY: (mode + 5) % 8, border: mode % 3, mag: mode & 1, min: (mode >> 1) & 1 },
      ins: { op: 'gather4', suffix: '_lz', dmask: 1 << (mode % 4), unrm: mode >= 6 }, lanes: lanesFor(img, mode >= 6, () => !wraps),
    });
  }
  out.push({ name: 'gather4 plain, DST_SEL w,1,0,x', img: { ...o2, dstSel: [7, 1, 0, 4] }, samp: { clampX: 2, clampY: 3 }, ins: { op: 'gather4', suffix: '', dmask: 0x1 }, lanes: lanesFor(o2, false, () => true) });
  out.push({ name: 'gather4 _o', img: o2, samp: { clampX: 0, clampY: 1 }, ins: { op: 'gather4', suffix: '_lz_o', dmask: 0x4 }, lanes: (l, rng) => ({ ...lanesFor(o2, false, () => false)(l, rng), off: offs(rng) }) });
  out.push({ name: 'gather4 d16', img: h, samp: { clampX: 6, clampY: 2, border: 2 }, ins: { op: 'gather4', suffix: '_lz', dmask: 0x8, d16: true }, lanes: lanesFor(h, false, () => true) });
  out.push({ name: 'gather4 A16 _l MIP_FILTER point', img: a2, samp: { clampX: 1, clampY: 3, mip: 1 }, ins: { op: 'gather4', suffix: '_l', dmask: 0x2, a16: true }, lanes: a16lanes(a2, false) });
  out.push({ name: 'gather4 _l MIP_FILTER point', img: mips, samp: { clampX: 2, clampY: 0, mip: 1 }, ins: { op: 'gather4', suffix: '_l', dmask: 0x1 }, lanes: (l, rng) => ({ ...lanesFor(mips, false, () => false)(l, rng), lod: lod(rng) }), ws: 64 });
  out.push({ name: 'gather4 _b_cl', img: mips, samp: { clampX: 3, clampY: 2 }, ins: { op: 'gather4', suffix: '_b_cl', dmask: 0x2 }, lanes: (l, rng) => ({ ...lanesFor(mips, false, () => false)(l, rng), lod: 2 }) });
  // An integer format off the border.
  out.push({ name: '2D 32_UINT clamp', img: { ...o2, format: '32_UINT' }, samp: { clampX: 2, clampY: 3 }, ins: { suffix: '_lz', dmask: 0x9 }, lanes: lanesFor(o2, false, () => true) });
  return out;
}

/** S#s, T#s and lanes the engines refuse at run time (each a fault: of the whole wave, or of the lanes named). */
export function faultScenarios(): SampleScenario[] {
  const img: Img = { cls: '2d', format: '32_32_32_32_FLOAT', w: 4, h: 4, d: 1, levels: 3 };
  const inside = (): LaneIn => ({ x: 0.3, y: 0.6, z: 0, lod: 1 });
  const s: SampleScenario[] = [
    { name: 'bilinear mag', img, samp: { mag: 1 }, ins: { suffix: '_lz', dmask: 0xf }, lanes: inside },
    { name: 'bilinear min', img, samp: { min: 1 }, ins: { suffix: '_lz', dmask: 0xf }, lanes: inside },
    { name: 'mip linear', img, samp: { mip: 2 }, ins: { suffix: '_l', dmask: 0xf }, lanes: inside },
    { name: 'aniso', img, samp: { aniso: 2 }, ins: { suffix: '_lz', dmask: 0xf }, lanes: inside },
    { name: 'mip point implicit', img, samp: { mip: 1 }, ins: { suffix: '', dmask: 0xf }, lanes: inside },
    { name: 'mip point with LOD_BIAS', img, samp: { mip: 1, lodBias: 0x100 }, ins: { suffix: '_l', dmask: 0xf }, lanes: inside },
    { name: 'border type 3 at the border', img, samp: { clampX: 6, border: 3 }, ins: { suffix: '_lz', dmask: 0xf }, lanes: (l) => ({ x: l === 5 ? 1.5 : 0.5, y: 0.5, z: 0 }) },
    { name: 'integer border', img: { ...img, format: '32_UINT' }, samp: { clampY: 4 }, ins: { suffix: '_lz', dmask: 0x1 }, lanes: (l) => ({ x: 0.5, y: l === 3 ? -0.1 : 0.5, z: 0 }) },
    { name: 'border under a swizzle', img: { ...img, dstSel: [5, 4, 6, 7] }, samp: { clampX: 7, border: 1 }, ins: { suffix: '_lz', dmask: 0x3 }, lanes: (l) => ({ x: l === 9 ? -1.5 : 0.5, y: 0.5, z: 0 }) },
    { name: 'huge coordinate under wrap', img, samp: { clampX: 0 }, ins: { suffix: '_lz', dmask: 0xf }, lanes: (l) => ({ x: l === 7 ? Infinity : 0.5, y: 0.5, z: 0 }) },
    { name: 'huge coordinate under mirror', img, samp: { clampY: 1 }, ins: { suffix: '_lz', dmask: 0xf }, lanes: (l) => ({ x: 0.5, y: l === 2 ? -3e9 : 0.5, z: 0 }) },
    { name: 'LOD on a half level', img, samp: { mip: 1 }, ins: { suffix: '_l', dmask: 0xf }, lanes: (l) => ({ x: 0.5, y: 0.5, z: 0, lod: l === 4 ? 1.5 : l === 6 ? 0.5 + 1 / 1024 : 1 }) },
    { name: 'NaN LOD', img, samp: { mip: 1 }, ins: { suffix: '_l', dmask: 0xf }, lanes: (l) => ({ x: 0.5, y: 0.5, z: 0, lod: l === 1 ? NaN : 1 }) },
    { name: 'gather4 TRUNC_COORD 1', img, samp: { trunc: 1 }, ins: { op: 'gather4', suffix: '_lz', dmask: 0x1 }, lanes: inside },
    { name: 'gather4 aniso filter', img, samp: { mag: 2 }, ins: { op: 'gather4', suffix: '_lz', dmask: 0x1 }, lanes: inside },
    { name: 'gather4 integer border', img: { ...img, format: '32_UINT' }, samp: { clampX: 6 }, ins: { op: 'gather4', suffix: '_lz', dmask: 0x1 }, lanes: (l) => ({ x: l === 3 ? 0.1 : 0.5, y: 0.5, z: 0 }) },
  ];
  return s;
}

/** The suite's cases (ENGINE_SUITES): every scenario of sampleScenarios. */
export function* sampleCases(): Generator<SampleCase> {
  const rng = new Rng(0x5a3e);
  for (const sc of sampleScenarios()) yield sampleCase(sc, rng);
}
