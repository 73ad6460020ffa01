// Image (MIMG storage) kernels, shared by the interpreter's test (tests/interp/image.test.ts:
// expected values from its own layout and conversion model) and the engine suite
// (tests/runtime/cases-image.ts: the recompiled kernel against the interpreter).
//
// One kernel runs one wave (wave32 or wave64) of one workgroup over a scenario: a list of image
// ops, each with its own T# (built here bit by bit from the gfx10 descriptor layout, not from
// src/isa/tsharp.ts) over one image. Neither engine promises a 256-byte aligned buffer (the
// interpreter's are; a Vulkan allocation need not be), so the kernel aligns the work buffer's
// address up to 256 bytes, copies the image there (the T#'s base), runs the ops, copies the image
// back out and zeroes the whole work buffer (so that both engines leave the same bytes there).
//
// Buffers (kernarg 8k): 0 out (lane l, op k: 4 dwords at 16 (l * ops + k)), 1 input (lane l, op
// k: 8 dwords at 32 (l * ops + k): the address dwords 0..3, the data dwords 4..7), 2 the image's
// bytes (N, a multiple of 256), 3 the work buffer (N + 256), 4 the image after the run (N).
// Per op: v[10:13] the address dwords (NSA lists name them in any order), v[14:17] the data
// (stores' data, atomics' data and compare: GLC returns into v14), v[20:23] a load's results
// (preset to 0xa5a5kkrr first: op k, register r, so the channels a load leaves show). The out
// record is v[20:23] for loads, v[14:17] for atomics, zeros for stores; lanes out of the op's
// EXEC store their registers too (presets / data unchanged).
import { GFX10_BUFFER_FORMATS } from '../../src/isa/tables/mtbuf.js';
import { Rng } from '../harness/rng.js';

export type Dim = '1D' | '2D' | '3D' | 'CUBE' | '1D_ARRAY' | '2D_ARRAY';
/** SQ_RSRC_IMG_* of each dim (the T# TYPE its instructions need). */
export const DIM_TYPE: Readonly<Record<Dim, number>> = { '1D': 8, '2D': 9, '3D': 10, CUBE: 11, '1D_ARRAY': 12, '2D_ARRAY': 13 };
/** The coordinates (before a mip) each dim's address holds. */
export const DIM_COORDS: Readonly<Record<Dim, number>> = { '1D': 1, '2D': 2, '3D': 3, CUBE: 3, '1D_ARRAY': 2, '2D_ARRAY': 3 };

export interface TsharpDesc {
  /** A buffer format name without BUF_FMT_ ('8_8_8_8_UNORM'), or the raw 9-bit FORMAT. */
  readonly format: string | number;
  /** TYPE (default the op's dim's). */
  readonly type?: number;
  /** Level-0 width and height (height default 1). */
  readonly width: number;
  readonly height?: number;
  /** The raw DEPTH field: 3D depth - 1; arrays the view's last slice; gfx1030 1D/2D pitch - 1 (low 13 bits). */
  readonly depthField?: number;
  readonly pitchMsb?: number;
  /** DST_SEL x, y, z, w (default 4, 5, 6, 7: the components in order). */
  readonly dstSel?: readonly [number, number, number, number];
  readonly baseLevel?: number;
  /** Default maxMip. */
  readonly lastLevel?: number;
  readonly maxMip?: number;
  readonly baseArray?: number;
  readonly swMode?: number;
  /** ARRAY_PITCH (dword 5 [3:0]; default 0). */
  readonly arrayPitch?: number;
}

export function formatNumber(name: string | number): number {
  if (typeof name === 'number') return name;
  const k = GFX10_BUFFER_FORMATS.indexOf(`BUF_FMT_${name}`);
  if (k <= 0) throw new Error(`no format ${name}`);
  return k;
}

/**
 * The T#'s dwords with base 0: dword 1 FORMAT [28:20], WIDTH-1 [1:0] at [31:30]; dword 2 WIDTH-1
 * [13:2] at [11:0], HEIGHT-1 [27:14]; dword 3 DST_SEL x/y/z/w [11:0], BASE_LEVEL [15:12],
 * LAST_LEVEL [19:16], SW_MODE [24:20], TYPE [31:28]; dword 4 DEPTH [12:0], PITCH bit 13 [13],
 * BASE_ARRAY [28:16]; dword 5 MAX_MIP [7:4] (ROCr resource_nv.h SQ_IMG_RSRC_WORD1..5).
 */
export function tsharpWords(t: TsharpDesc, dim: Dim): number[] {
  const fmt = formatNumber(t.format);
  const w1 = t.width - 1, h1 = (t.height ?? 1) - 1;
  const sel = t.dstSel ?? [4, 5, 6, 7];
  const maxMip = t.maxMip ?? 0;
  return [
    0,
    (((fmt & 0x1ff) << 20) | ((w1 & 3) << 30)) >>> 0,
    (((w1 >>> 2) & 0xfff) | ((h1 & 0x3fff) << 14)) >>> 0,
    (sel[0] | (sel[1] << 3) | (sel[2] << 6) | (sel[3] << 9) | ((t.baseLevel ?? 0) << 12) | ((t.lastLevel ?? maxMip) << 16) | ((t.swMode ?? 0) << 20) | ((t.type ?? DIM_TYPE[dim]) << 28)) >>> 0,
    (((t.depthField ?? 0) & 0x1fff) | ((t.pitchMsb ?? 0) << 13) | (((t.baseArray ?? 0) & 0x1fff) << 16)) >>> 0,
    ((maxMip << 4) | ((t.arrayPitch ?? 0) & 0xf)) >>> 0,
    0,
    0,
  ];
}

export interface ImageOp {
  readonly mnemonic: string;
  readonly dim: Dim;
  readonly dmask: number;
  readonly d16?: boolean;
  readonly a16?: boolean;
  readonly glc?: boolean;
  /** NSA: address dword i is read from v(10 + nsa[i]) (input dword nsa[i]). */
  readonly nsa?: readonly number[];
  readonly t: TsharpDesc;
  /** The lanes in EXEC (default all). */
  readonly exec?: bigint;
  /** Per lane: x, (y), (z or slice), (mip) as integers (negative allowed; with A16 their low 16 bits count). */
  readonly coords: readonly (readonly number[])[];
  /** Per lane: the data dwords (stores; atomics: data, then compare). */
  readonly data?: readonly (readonly number[])[];
  /** More modifier text (refusal tests: 'tfe'). */
  readonly extra?: string;
}

export interface ImageScenario {
  readonly name: string;
  readonly ws: 32 | 64;
  readonly ops: readonly ImageOp[];
  /** The image's bytes (what the T#s' base points at), a multiple of 256 bytes. */
  readonly image: Uint8Array;
}

/** Loads and image_get_resinfo write v[20:23] (the out record). */
const isLoad = (op: ImageOp): boolean => op.mnemonic.startsWith('image_load') || op.mnemonic === 'image_get_resinfo';
const isAtomic = (op: ImageOp): boolean => op.mnemonic.startsWith('image_atomic_');
const popcount = (m: number): number => [0, 1, 2, 3].filter((k) => (m >> k) & 1).length;

/** How many coordinates an op's address holds, and its address dwords. */
export function addressOf(op: ImageOp): { coords: number; dwords: number } {
  // image_get_resinfo: its one address is the level.
  const coords = op.mnemonic === 'image_get_resinfo' ? 1 : DIM_COORDS[op.dim] + (op.mnemonic.includes('_mip') ? 1 : 0);
  return { coords, dwords: op.a16 ? (coords + 1) >> 1 : coords };
}

const range = (first: number, n: number): string => (n === 1 ? `v${first}` : `v[${first}:${first + n - 1}]`);

export function opAsm(op: ImageOp): string {
  const { dwords } = addressOf(op);
  const vaddr = op.nsa ? `[${op.nsa.slice(0, dwords).map((r) => `v${10 + r}`).join(', ')}]` : range(10, dwords);
  const tfe = /\btfe\b/.test(op.extra ?? '') ? 1 : 0;
  let vdata: string;
  if (isAtomic(op)) vdata = range(14, popcount(op.dmask));
  else {
    const n = popcount(op.dmask);
    const regs = (op.d16 ? (n + 1) >> 1 : n) + tfe;
    vdata = range(isLoad(op) ? 20 : 14, regs);
  }
  const mods = [op.d16 ? 'd16' : '', op.a16 ? 'a16' : '', op.glc ? 'glc' : '', op.extra ?? ''].filter((s) => s).join(' ');
  return `${op.mnemonic} ${vdata}, ${vaddr}, s[40:47] dmask:0x${op.dmask.toString(16)} dim:SQ_RSRC_IMG_${op.dim} unorm${mods ? ' ' + mods : ''}`;
}

/** The preset of load result register 20 + r before op k. */
export const preset = (k: number, r: number): number => (0xa5a50000 | ((k & 0xff) << 8) | (20 + r)) >>> 0;

export function imageKernel(sc: ImageScenario): string {
  const ws = sc.ws, n = sc.image.length;
  if (n % 256 !== 0 || n === 0) throw new Error(`${sc.name}: the image is ${n} bytes, not a positive multiple of 256`);
  if (sc.ops.length > 100) throw new Error(`${sc.name}: too many ops`);
  const step = 4 * ws;
  const vcc = ws === 64 ? 'exec' : 'exec_lo';
  const loop = (label: string, count: number, body: string[]): string[] => [
    'v_lshlrev_b32 v1, 2, v0', `s_mov_b32 s18, ${count}`, `${label}:`, ...body, `v_add_nc_u32 v1, ${step}, v1`, 's_sub_u32 s18, s18, 1', 's_cmp_lg_u32 s18, 0', `s_cbranch_scc1 ${label}`,
  ];
  const lines: string[] = [
    's_load_dwordx8 s[4:11], s[0:1], 0x0',
    's_load_dwordx2 s[12:13], s[0:1], 0x20',
    's_waitcnt lgkmcnt(0)',
    // s[14:15]: the work buffer's address rounded up to 256; s16, s17: the T#'s dwords 0 and 1 (bits 7:0) of it.
    's_add_u32 s14, s10, 0xff',
    's_addc_u32 s15, s11, 0',
    's_and_b32 s14, s14, 0xffffff00',
    's_lshr_b64 s[16:17], s[14:15], 8',
    's_and_b32 s17, s17, 0xff',
    ...loop(`.L${sc.name}_in`, n / step, ['global_load_dword v2, v1, s[8:9]', 's_waitcnt vmcnt(0)', 'global_store_dword v1, v2, s[14:15]']),
    's_waitcnt_vscnt null, 0x0',
    `v_mul_u32_u24 v3, ${32 * sc.ops.length}, v0`,
    `v_mul_u32_u24 v4, ${16 * sc.ops.length}, v0`,
  ];
  sc.ops.forEach((op, k) => {
    const w = tsharpWords(op.t, op.dim);
    lines.push(
      `global_load_dwordx4 v[10:13], v3, s[6:7] offset:${32 * k}`,
      `global_load_dwordx4 v[14:17], v3, s[6:7] offset:${32 * k + 16}`,
      ...[0, 1, 2, 3].map((r) => `v_mov_b32 v${20 + r}, 0x${preset(k, r).toString(16)}`),
      's_mov_b32 s40, s16',
      `s_or_b32 s41, s17, 0x${(w[1] ?? 0).toString(16)}`,
      ...[2, 3, 4, 5, 6, 7].map((d) => `s_mov_b32 s${40 + d}, 0x${(w[d] ?? 0).toString(16)}`),
      's_waitcnt vmcnt(0)',
    );
    const exec = op.exec;
    if (exec !== undefined) {
      lines.push(`s_mov_b32 exec_lo, 0x${Number(exec & 0xffffffffn).toString(16)}`);
      if (ws === 64) lines.push(`s_mov_b32 exec_hi, 0x${Number((exec >> 32n) & 0xffffffffn).toString(16)}`);
    }
    lines.push(opAsm(op));
    if (exec !== undefined) lines.push(`s_mov_b${ws === 64 ? '64' : '32'} ${vcc}, -1`);
    lines.push('s_waitcnt vmcnt(0)', 's_waitcnt_vscnt null, 0x0');
    if (isLoad(op)) lines.push(`global_store_dwordx4 v4, v[20:23], s[4:5] offset:${16 * k}`);
    else if (isAtomic(op)) lines.push(`global_store_dwordx4 v4, v[14:17], s[4:5] offset:${16 * k}`);
  });
  lines.push(
    's_waitcnt vmcnt(0)', 's_waitcnt_vscnt null, 0x0',
    ...loop(`.L${sc.name}_out`, n / step, ['global_load_dword v2, v1, s[14:15]', 's_waitcnt vmcnt(0)', 'global_store_dword v1, v2, s[12:13]']),
    'v_mov_b32 v2, 0',
    ...loop(`.L${sc.name}_zero`, (n + 256) / step, ['global_store_dword v1, v2, s[10:11]']),
    's_endpgm',
  );
  return '\n  ' + lines.join('\n  ');
}

/** An op's address dwords of one lane, in address order (A16: two coordinates a dword, low half first). */
export function addressDwords(op: ImageOp, lane: number): number[] {
  const c = op.coords[lane] ?? [];
  const { coords, dwords } = addressOf(op);
  const at = (i: number): number => (i < coords ? c[i] ?? 0 : 0);
  return Array.from({ length: dwords }, (_, i) => (op.a16 ? ((at(2 * i) & 0xffff) | ((i * 2 + 1 < coords ? at(2 * i + 1) & 0xffff : 0xbeef) << 16)) >>> 0 : at(i) >>> 0));
}

/** The buffers of a scenario's run: [out, input, image, work, image after]. */
export function imageBuffers(sc: ImageScenario): Uint8Array[] {
  const ops = sc.ops.length, ws = sc.ws;
  const input = new Uint8Array(32 * ops * ws);
  const v = new DataView(input.buffer);
  sc.ops.forEach((op, k) => {
    for (let l = 0; l < ws; l++) {
      const at = 32 * (l * ops + k);
      // Unused address dwords hold a pattern (an NSA list leaves some out).
      for (let d = 0; d < 4; d++) v.setUint32(at + 4 * d, 0x7777_0000 + d, true);
      addressDwords(op, l).forEach((x, i) => v.setUint32(at + 4 * (op.nsa ? op.nsa[i] ?? i : i), x, true));
      const data = op.data?.[l] ?? [];
      for (let d = 0; d < 4; d++) v.setUint32(at + 16 + 4 * d, (data[d] ?? 0x5151_0000 + d) >>> 0, true);
    }
  });
  const n = sc.image.length;
  return [new Uint8Array(16 * ops * ws), input, sc.image.slice(), new Uint8Array(n + 256), new Uint8Array(n)];
}

// ---- The scenarios ----

const lanes = <T>(ws: number, f: (l: number) => T): T[] => Array.from({ length: ws }, (_, l) => f(l));

/** A coordinate in [lo, hi) (lo may be negative: out of bounds). */
const coord = (rng: Rng, lo: number, hi: number): number => lo + rng.int(hi - lo);

/** Random image bytes; `finite` keeps f16/f32 values finite (exponent never all ones). */
function bytes(rng: Rng, n: number): Uint8Array {
  const out = new Uint8Array(n);
  for (let k = 0; k < n; k++) out[k] = rng.u32() & 0xff;
  return out;
}

/** A lane mask of about 3/4 of the lanes, never empty. */
function someLanes(rng: Rng, ws: number): bigint {
  let m = 0n;
  for (let l = 0; l < ws; l++) if (rng.int(4) !== 0) m |= 1n << BigInt(l);
  return m | 1n;
}

const f32bits = (x: number): number => new Uint32Array(new Float32Array([x]).buffer)[0] ?? 0;
const f16bits = (x: number): number => {
  // Only the values below are used: exact in f16 (no rounding here).
  const b = f32bits(x), e = ((b >>> 23) & 0xff) - 112, m = (b >>> 13) & 0x3ff, s = (b >>> 16) & 0x8000;
  if (x === 0) return s;
  if (e <= 0) return s | ((0x400 | m) >>> (1 - e));
  return s | (e << 10) | m;
};

/** An f32 store channel: edge values, values around [-1.5, 1.5], the 255 and 127 steps and halfway points, integers, NaN and infinities. */
export function storeChannel(rng: Rng): number {
  const edges = [0, -0, 1, -1, 0.5, -0.5, 2, 1e30, -1e30, 1e-30, 65504, 65520, 70000, 127.5, 128, -129, 2.5, 3.5, 2 ** -14, 2 ** -24, 1 / 3];
  const specials = [0x7fc00000, 0xffc00001, 0x7f800000, 0xff800000, 0x7fa00001, 0x00000001, 0x807fffff];
  switch (rng.int(6)) {
    case 0: return f32bits(edges[rng.int(edges.length)] ?? 0);
    case 1: return (specials[rng.int(specials.length)] ?? 0) >>> 0;
    case 2: { const s = rng.pick([255, 127, 65535, 32767, 1023, 511]); return f32bits((rng.int(s + 1) + rng.pick([0, 0.5, 0.25])) / s * rng.pick([1, -1])); }
    case 3: return f32bits(rng.int(80000) - 10000 + rng.pick([0, 0.5, 0.3]));
    case 4: return rng.u32();
    default: return f32bits((rng.u32() / 2 ** 31 - 1) * 1.5);
  }
}

/** A 32-bit integer store channel: around the 8-, 10-, 11- and 16-bit limits, or any. */
export function intChannel(rng: Rng): number {
  const lims = [127, 128, 255, 256, 511, 512, 1023, 1024, 2047, 32767, 32768, 65535, 65536];
  return rng.int(3) === 0 ? rng.u32() : ((rng.pick(lims) + rng.int(3) - 1) * rng.pick([1, -1])) >>> 0;
}

/** A d16 half: an f16 (edges, NaN, infinities, values around [-1.5, 1.5], any bits), or a 16-bit integer. */
export function halfChannel(rng: Rng, int: boolean): number {
  if (int) return rng.int(3) === 0 ? rng.u32() & 0xffff : ((rng.pick([127, 128, 255, 256, 511, 512]) + rng.int(3) - 1) * rng.pick([1, -1])) & 0xffff;
  switch (rng.int(4)) {
    case 0: return rng.pick([0x0000, 0x8000, 0x3c00, 0xbc00, 0x3800, 0x7c00, 0xfc00, 0x7e00, 0xfd01, 0x0001, 0x7bff, 0x3c01]);
    case 1: return rng.u32() & 0xffff;
    default: return f16bits((rng.int(2049) - 1024) / 1024 * 1.5);
  }
}

/** The scenarios of one wave size (each a kernel), from one seed. */
export function imageScenarios(ws: 32 | 64, seed = 0x1a6e): ImageScenario[] {
  const rng = new Rng(seed + ws);
  const out: ImageScenario[] = [];
  const sc = (name: string, image: Uint8Array, ops: ImageOp[]) => out.push({ name: `image_${name}_w${ws}`, ws, ops, image });

  // 2D 8_8_8_8_UNORM 13 x 7 (pitch 64 texels, 256 bytes): every channel, dmask subsets, d16 (an odd
  // count keeps a half), DST_SEL swizzles with 0 and 1, out-of-bounds x/y incl. negative, a partial EXEC.
  {
    const t: TsharpDesc = { format: '8_8_8_8_UNORM', width: 13, height: 7 };
    const xy = () => lanes(ws, () => [coord(rng, -2, 15), coord(rng, -1, 8)]);
    sc('rgba8_2d', bytes(rng, 256 * 7), [
      { mnemonic: 'image_load', dim: '2D', dmask: 0xf, t, coords: xy() },
      { mnemonic: 'image_load', dim: '2D', dmask: 0x5, t, coords: xy() },
      { mnemonic: 'image_load', dim: '2D', dmask: 0xf, d16: true, t, coords: xy() },
      { mnemonic: 'image_load', dim: '2D', dmask: 0xb, d16: true, t, coords: xy(), exec: someLanes(rng, ws) },
      { mnemonic: 'image_load', dim: '2D', dmask: 0xf, t: { ...t, dstSel: [6, 5, 4, 7] }, coords: xy() },
      { mnemonic: 'image_load', dim: '2D', dmask: 0xe, t: { ...t, dstSel: [0, 1, 7, 4] }, coords: xy(), exec: someLanes(rng, ws) },
      { mnemonic: 'image_load', dim: '2D', dmask: 0x8, d16: true, t: { ...t, dstSel: [4, 4, 4, 1] }, coords: xy() },
    ]);
  }
  // Several formats over one 2D image's bytes (each op's T# reads them its own way).
  {
    const xy = (w: number, h: number) => lanes(ws, () => [coord(rng, -1, w + 2), coord(rng, 0, h + 1)]);
    const op = (format: string, w: number, h: number, dmask: number, more: Partial<ImageOp> = {}, sel?: [number, number, number, number]): ImageOp =>
      ({ mnemonic: 'image_load', dim: '2D', dmask, t: { format, width: w, height: h, ...(sel ? { dstSel: sel } : {}) }, coords: xy(w, h), ...more });
    sc('formats_2d', bytes(rng, 256 * 6), [
      op('16_16_FLOAT', 9, 5, 0xf),
      op('16_16_FLOAT', 9, 5, 0x3, { d16: true }),
      op('32_FLOAT', 11, 6, 0x1),
      op('32_FLOAT', 11, 6, 0xf, {}, [4, 1, 0, 4]),
      op('32_32_32_32_UINT', 9, 5, 0xf),
      op('32_32_32_32_UINT', 9, 5, 0xa, {}, [7, 6, 5, 4]),
      op('32_32_UINT', 5, 6, 0xf),
      op('16_16_16_16_SNORM', 7, 6, 0xf),
      op('16_16_16_16_UINT', 7, 6, 0xf, { d16: true }),
      op('10_11_11_FLOAT', 20, 6, 0xf),
      op('2_10_10_10_UNORM', 20, 6, 0xf, { d16: true }),
      op('8_UINT', 40, 6, 0xf, {}, [4, 0, 1, 1]),
      op('8_8_SINT', 40, 6, 0x7),
      op('32_SINT', 30, 6, 0x9, {}, [4, 4, 4, 4]),
    ]);
  }
  // 1D with a mip chain: BASE_LEVEL 1, LAST_LEVEL 2 of levels 0..3 (mip 2 is past the view).
  {
    const t: TsharpDesc = { format: '32_UINT', width: 100, maxMip: 3, baseLevel: 1, lastLevel: 2 };
    sc('mips_1d', bytes(rng, 256 * 6), [
      { mnemonic: 'image_load_mip', dim: '1D', dmask: 0x1, t, coords: lanes(ws, () => [coord(rng, -1, 52), coord(rng, 0, 3)]) },
      { mnemonic: 'image_load', dim: '1D', dmask: 0x1, t, coords: lanes(ws, () => [coord(rng, 0, 52)]) },
      { mnemonic: 'image_load_mip', dim: '1D', dmask: 0x1, t: { ...t, baseLevel: 0, lastLevel: 3 }, coords: lanes(ws, () => [coord(rng, 0, 101), coord(rng, 0, 5)]) },
    ]);
  }
  // 2D mips (37 x 11, six levels), an NSA address in reverse order; a view of levels 2..4.
  {
    const t: TsharpDesc = { format: '16_16_16_16_UINT', width: 37, height: 11, maxMip: 5 };
    const c = () => lanes(ws, () => [coord(rng, 0, 38), coord(rng, 0, 12), coord(rng, 0, 6)]);
    sc('mips_2d', bytes(rng, 256 * 32), [
      { mnemonic: 'image_load_mip', dim: '2D', dmask: 0xf, t, coords: c() },
      { mnemonic: 'image_load_mip', dim: '2D', dmask: 0xf, nsa: [2, 0, 1], t, coords: c() },
      { mnemonic: 'image_load_mip', dim: '2D', dmask: 0x3, t: { ...t, baseLevel: 2, lastLevel: 4 }, coords: lanes(ws, () => [coord(rng, 0, 10), coord(rng, 0, 3), coord(rng, 0, 4)]) },
    ]);
  }
  // 3D 8_8_UNORM 10 x 6 x 4 with two levels: x, y, z and mip, contiguous and NSA.
  {
    const t: TsharpDesc = { format: '8_8_UNORM', width: 10, height: 6, depthField: 3, maxMip: 1 };
    const c = () => lanes(ws, () => [coord(rng, 0, 11), coord(rng, 0, 7), coord(rng, -1, 5), coord(rng, 0, 2)]);
    sc('load_3d', bytes(rng, 256 * 36), [
      { mnemonic: 'image_load', dim: '3D', dmask: 0x3, t, coords: c() },
      { mnemonic: 'image_load_mip', dim: '3D', dmask: 0xf, t, coords: c() },
      { mnemonic: 'image_load_mip', dim: '3D', dmask: 0x3, nsa: [3, 1, 0, 2], t, coords: c() },
    ]);
  }
  // Arrays: 1D_ARRAY 32_SINT 70 wide, slices 1..4 of the view (BASE_ARRAY 1, DEPTH 4); 2D_ARRAY
  // 16_FLOAT 20 x 3 with three levels, slices 2..5; a cube.
  {
    const a1: TsharpDesc = { format: '32_SINT', width: 70, baseArray: 1, depthField: 4 };
    const a2: TsharpDesc = { format: '16_FLOAT', width: 20, height: 3, baseArray: 2, depthField: 5, maxMip: 2 };
    sc('arrays', bytes(rng, 256 * 30), [
      { mnemonic: 'image_load', dim: '1D_ARRAY', dmask: 0x1, t: a1, coords: lanes(ws, () => [coord(rng, 0, 71), coord(rng, -1, 5)]) },
      { mnemonic: 'image_load', dim: '2D_ARRAY', dmask: 0x1, t: a2, coords: lanes(ws, () => [coord(rng, 0, 21), coord(rng, 0, 4), coord(rng, 0, 5)]) },
      { mnemonic: 'image_load_mip', dim: '2D_ARRAY', dmask: 0x9, t: a2, coords: lanes(ws, () => [coord(rng, 0, 11), coord(rng, 0, 3), coord(rng, 0, 5), coord(rng, 0, 4)]) },
      { mnemonic: 'image_load', dim: '2D_ARRAY', dmask: 0x1, d16: true, t: a2, coords: lanes(ws, () => [coord(rng, 0, 21), coord(rng, 0, 4), coord(rng, 0, 5)]) },
      // A cube 4 x 4, faces 0..5 (DEPTH 5): the face is the slice.
      { mnemonic: 'image_load', dim: 'CUBE', dmask: 0x1, t: { format: '32_UINT', width: 4, height: 4, depthField: 5 }, coords: lanes(ws, () => [coord(rng, 0, 5), coord(rng, 0, 5), coord(rng, 0, 7)]) },
    ]);
  }
  // A16: 2D (one dword), 3D (two dwords, the unused high half a pattern), 2D_ARRAY mip (two), with
  // negative coordinates (0xffff.. as 16 bits: out of bounds).
  {
    const t2: TsharpDesc = { format: '8_8_8_8_UNORM', width: 13, height: 7 };
    const t3: TsharpDesc = { format: '8_8_UNORM', width: 10, height: 6, depthField: 3 };
    const ta: TsharpDesc = { format: '16_FLOAT', width: 20, height: 3, baseArray: 1, depthField: 3, maxMip: 1 };
    sc('a16', bytes(rng, 256 * 24), [
      { mnemonic: 'image_load', dim: '2D', dmask: 0xf, a16: true, t: t2, coords: lanes(ws, () => [coord(rng, -2, 15), coord(rng, -1, 8)]) },
      { mnemonic: 'image_load', dim: '3D', dmask: 0x3, a16: true, t: t3, coords: lanes(ws, () => [coord(rng, 0, 11), coord(rng, 0, 7), coord(rng, -1, 5)]) },
      { mnemonic: 'image_load_mip', dim: '2D_ARRAY', dmask: 0x1, a16: true, t: ta, coords: lanes(ws, () => [coord(rng, 0, 21), coord(rng, 0, 4), coord(rng, 0, 4), coord(rng, 0, 2)]) },
      { mnemonic: 'image_load', dim: '3D', dmask: 0x3, a16: true, nsa: [1, 0], t: t3, coords: lanes(ws, () => [coord(rng, 0, 11), coord(rng, 0, 7), coord(rng, 0, 4)]) },
    ]);
  }
  // gfx1030's custom pitch: 2D 32_FLOAT 10 x 4 with pitch 128 texels (more than addrlib's 64),
  // one of 16 (less: the computed pitch stands), 2D with a mip chain (level 1 ignores it), 1D,
  // the pitch's bit 13; a 2D image's BASE_ARRAY; R128 (the pitch and BASE_ARRAY not read).
  {
    const t: TsharpDesc = { format: '32_FLOAT', width: 10, height: 4, depthField: 127 };
    const c = () => lanes(ws, () => [coord(rng, 0, 11), coord(rng, 0, 5)]);
    sc('pitch', bytes(rng, 256 * 34), [
      { mnemonic: 'image_load', dim: '2D', dmask: 0x1, t, coords: c() },
      { mnemonic: 'image_load', dim: '2D', dmask: 0x1, t: { ...t, depthField: 15 }, coords: c() },
      { mnemonic: 'image_load_mip', dim: '2D', dmask: 0x1, t: { ...t, maxMip: 1, height: 3 }, coords: lanes(ws, () => [coord(rng, 0, 11), coord(rng, 0, 4), coord(rng, 0, 2)]) },
      { mnemonic: 'image_load', dim: '1D', dmask: 0x1, t: { ...t, height: 1, depthField: 200 }, coords: lanes(ws, () => [coord(rng, 0, 11)]) },
      // The pitch's bit 13 (PITCH_MSB): 8_UINT rows of 0x2000 + 17 bytes.
      { mnemonic: 'image_load', dim: '2D', dmask: 0x1, t: { format: '8_UINT', width: 10, height: 2, depthField: 16, pitchMsb: 1 }, coords: c() },
      // A 2D image's BASE_ARRAY picks its slice (unchecked): slice 2 of 1024 bytes.
      { mnemonic: 'image_load', dim: '2D', dmask: 0x1, t: { ...t, depthField: 0, baseArray: 2 }, coords: c() },
      // R128: the T#'s dwords 4..7 (pitch, BASE_ARRAY) read as 0.
      { mnemonic: 'image_load', dim: '2D', dmask: 0x1, extra: 'r128', t: { ...t, baseArray: 1 }, coords: c() },
    ]);
  }
  // Stores: every lane a texel of its own (a permutation; some out of bounds), then loads of the
  // stored image: 32_32_32_32_UINT (dmask 0xf), 32_UINT (dmask 0x3: y ignored), store_mip on
  // level 1 of 32_FLOAT, d16 16_16_16_16_FLOAT, d16 16_16_UINT (dmask 0x7: z ignored), a partial EXEC.
  {
    const perm = (w: number, h: number): number[][] => {
      const cells = Array.from({ length: w * h }, (_, k) => [k % w, Math.floor(k / w)]);
      for (let k = cells.length - 1; k > 0; k--) { const j = rng.int(k + 1); [cells[k], cells[j]] = [cells[j] as number[], cells[k] as number[]]; }
      return lanes(ws, (l) => (l % 9 === 8 ? [w + (l % 3), 0] : cells[l % cells.length] ?? [0, 0]));
    };
    const data = () => lanes(ws, () => [rng.u32(), rng.u32(), rng.u32(), rng.u32()]);
    const t4: TsharpDesc = { format: '32_32_32_32_UINT', width: 9, height: 8 };
    const t1: TsharpDesc = { format: '32_UINT', width: 9, height: 8 };
    const tm: TsharpDesc = { format: '32_FLOAT', width: 18, height: 16, maxMip: 1 };
    const th: TsharpDesc = { format: '16_16_16_16_FLOAT', width: 9, height: 8 };
    const t2: TsharpDesc = { format: '16_16_UINT', width: 9, height: 8 };
    const all = (t: TsharpDesc, d: Dim = '2D'): ImageOp => ({ mnemonic: 'image_load', dim: d, dmask: 0xf, t, coords: lanes(ws, (l) => [l % 10, Math.floor(l / 10) % 9]) });
    sc('store', bytes(rng, 256 * 16), [
      { mnemonic: 'image_store', dim: '2D', dmask: 0xf, t: t4, coords: perm(9, 8), data: data() },
      all(t4),
      { mnemonic: 'image_store', dim: '2D', dmask: 0x3, t: t1, coords: perm(9, 8), data: data(), exec: someLanes(rng, ws) },
      all(t1),
      { mnemonic: 'image_store_mip', dim: '2D', dmask: 0x1, t: tm, coords: perm(9, 8).map(([x, y]) => [x ?? 0, y ?? 0, 1]), data: data() },
      { mnemonic: 'image_load_mip', dim: '2D', dmask: 0x1, t: tm, coords: lanes(ws, (l) => [l % 10, Math.floor(l / 10) % 9, 1]) },
      { mnemonic: 'image_store', dim: '2D', dmask: 0xf, d16: true, t: th, coords: perm(9, 8), data: data() },
      all(th),
      { mnemonic: 'image_store', dim: '2D', dmask: 0x7, d16: true, t: t2, coords: perm(9, 8), data: data() },
      all(t2),
      { mnemonic: 'image_store', dim: '1D_ARRAY', dmask: 0x1, t: { format: '32_SINT', width: 40, baseArray: 1, depthField: 3 }, coords: lanes(ws, (l) => [l % 40, Math.floor(l / 40) + (l % 7 === 6 ? 3 : 0)]), data: data() },
    ]);
  }
  // Integer atomics with GLC: the lanes meet on a few texels (2D 32_UINT 8 x 4, 32_SINT), so each
  // texel sees a chain of lane-ordered updates; out-of-bounds lanes return 0.
  {
    const t: TsharpDesc = { format: '32_UINT', width: 8, height: 4 };
    const ts: TsharpDesc = { format: '32_SINT', width: 8, height: 4 };
    const hot = () => lanes(ws, (l) => (l % 11 === 10 ? [8, 0] : [rng.int(3), rng.int(2)]));
    const d = (f: () => number, g: () => number = () => 0) => lanes(ws, () => [f() >>> 0, g() >>> 0]);
    const small = () => rng.int(16);
    const edge = () => rng.pick([0, 1, 0x7fffffff, 0x80000000, 0xffffffff, rng.u32(), -5, 3]);
    const a = (name: string, data: number[][], more: Partial<ImageOp> = {}): ImageOp => ({ mnemonic: `image_atomic_${name}`, dim: '2D', dmask: name === 'cmpswap' ? 3 : 1, glc: true, t, coords: hot(), data, ...more });
    // Image bytes: small values, so inc/dec and cmpswap meet their bounds and compares.
    const img = new Uint8Array(256 * 4);
    for (let k = 0; k < img.length; k += 4) img[k] = rng.int(12);
    sc('atomics', img, [
      a('add', d(edge)),
      a('sub', d(small)),
      a('inc', d(() => rng.int(20))),
      a('dec', d(() => rng.int(20))),
      a('cmpswap', d(edge, small)),
      a('smin', d(edge), { t: ts }),
      a('smax', d(edge), { t: ts }),
      a('umin', d(edge)),
      a('umax', d(edge)),
      a('and', d(() => rng.u32())),
      a('or', d(() => rng.u32())),
      a('xor', d(() => rng.u32()), { exec: someLanes(rng, ws) }),
      a('swap', d(edge)),
      a('add', d(small), { glc: false }),
      { mnemonic: 'image_load', dim: '2D', dmask: 0x1, t, coords: lanes(ws, (l) => [l % 8, Math.floor(l / 8) % 4]) },
    ]);
  }
  // Converting stores (src/float/format-store.ts), every lane a texel of its own (some out of
  // bounds; the stores of one kernel on images of their own format at one place): f32 channels (edges, values around [-1.5, 1.5]
  // and the 255/127 steps, integers as floats, NaN, infinities; or integers for UINT/SINT) and d16
  // halves (f16 values or 16-bit integers), into formats of 1, 2, 4 and 8 bytes. A seed of its own,
  // so that the scenarios above keep their values.
  {
    const cr = new Rng(seed ^ 0xc0417 ^ ws);
    const perm = (w: number, h: number): number[][] => {
      const cells = Array.from({ length: w * h }, (_, k) => [k % w, Math.floor(k / w)]);
      for (let k = cells.length - 1; k > 0; k--) { const j = cr.int(k + 1); [cells[k], cells[j]] = [cells[j] as number[], cells[k] as number[]]; }
      return lanes(ws, (l) => (l % 9 === 8 ? [w + (l % 3), 0] : cells[l % cells.length] ?? [0, 0]));
    };
    const fd = () => lanes(ws, () => [0, 1, 2, 3].map(() => storeChannel(cr)));
    const id = () => lanes(ws, () => [0, 1, 2, 3].map(() => intChannel(cr)));
    const hd = (int: boolean) => lanes(ws, () => [0, 1, 2, 3].map(() => (halfChannel(cr, int) | (halfChannel(cr, int) << 16)) >>> 0));
    const st = (format: string, dmask: number, data: number[][], more: Partial<ImageOp> = {}): ImageOp =>
      ({ mnemonic: 'image_store', dim: '2D', dmask, t: { format, width: 9, height: 8 }, coords: perm(9, 8), data, ...more });
    // A load of the image after the stores (as the last store's format).
    const back = (format: string): ImageOp => ({ mnemonic: 'image_load', dim: '2D', dmask: 0xf, t: { format, width: 9, height: 8 }, coords: lanes(ws, (l) => [l % 10, Math.floor(l / 10) % 9]) });
    // Three kernels of five stores (one large kernel is slow on lavapipe); the image after the run is compared whole.
    sc('convert_a', bytes(cr, 256 * 8), [
      st('8_8_8_8_UNORM', 0xf, fd()), st('16_16_SNORM', 0x3, fd()), st('10_11_11_FLOAT', 0x7, fd()),
      st('2_10_10_10_SNORM', 0xf, fd(), { exec: someLanes(cr, ws) }), st('16_16_16_16_USCALED', 0xf, fd()), back('16_16_16_16_USCALED'),
    ]);
    sc('convert_b', bytes(cr, 256 * 8), [
      st('8_SSCALED', 0x1, fd()), st('8_8_UINT', 0x3, id()), st('16_16_16_16_SINT', 0xf, id()), st('16_FLOAT', 0x1, fd()), st('11_11_10_FLOAT', 0xf, fd()), back('11_11_10_FLOAT'),
    ]);
    sc('convert_c', bytes(cr, 256 * 8), [
      st('8_8_8_8_SNORM', 0xf, hd(false), { d16: true }), st('10_10_10_2_UNORM', 0xf, hd(false), { d16: true }), st('8_8_SINT', 0x3, hd(true), { d16: true }),
      st('16_16_16_16_UNORM', 0xf, hd(false), { d16: true }), st('16_UINT', 0x1, fd()), back('16_UINT'),
    ]);
  }
  // 64-bit integer atomics (DMASK 0x3, cmpswap 0xf) with GLC on 2D 32_32_UINT / 32_32_SINT 8 x 4:
  // the lanes meet on a few texels; half the texels' high dwords are 0 (so inc/dec meet their
  // bounds and cmpswap its compare), the others 0xffffffff or any. A seed of its own.
  {
    const wr = new Rng(seed ^ 0x64a7 ^ ws);
    const t: TsharpDesc = { format: '32_32_UINT', width: 8, height: 4 };
    const ts: TsharpDesc = { format: '32_32_SINT', width: 8, height: 4 };
    const hot = () => lanes(ws, (l) => (l % 11 === 10 ? [8, 0] : [wr.int(3), wr.int(2)]));
    const edge = () => wr.pick([0, 1, 0x7fffffff, 0x80000000, 0xffffffff, wr.u32()]);
    const small = () => wr.int(16);
    const d = (lo: () => number, hi: () => number, clo: () => number = () => 0, chi: () => number = () => 0) => lanes(ws, () => [lo() >>> 0, hi() >>> 0, clo() >>> 0, chi() >>> 0]);
    const zero = () => 0;
    const a = (name: string, data: number[][], more: Partial<ImageOp> = {}): ImageOp => ({ mnemonic: `image_atomic_${name}`, dim: '2D', dmask: name === 'cmpswap' ? 0xf : 0x3, glc: true, t, coords: hot(), data, ...more });
    const img = new Uint8Array(256 * 4);
    const iv = new DataView(img.buffer);
    for (let k = 0; k < img.length; k += 8) {
      iv.setUint32(k, wr.int(12), true);
      iv.setUint32(k + 4, wr.int(2) === 0 ? 0 : wr.pick([0xffffffff, wr.u32()]), true);
    }
    sc('atomics64', img, [
      a('add', d(edge, edge)),
      a('sub', d(small, zero)),
      a('inc', d(() => wr.int(20), zero)),
      a('dec', d(() => wr.int(20), () => wr.pick([0, 0, 1]))),
      a('cmpswap', d(edge, edge, small, zero)),
      a('smin', d(edge, edge), { t: ts }),
      a('smax', d(edge, edge), { t: ts }),
      a('umin', d(edge, edge)),
      a('umax', d(edge, edge)),
      a('and', d(() => wr.u32(), () => wr.u32())),
      a('or', d(() => wr.u32(), () => wr.u32())),
      a('xor', d(() => wr.u32(), () => wr.u32()), { exec: someLanes(wr, ws) }),
      a('swap', d(edge, edge)),
      a('add', d(small, small), { glc: false }),
      { mnemonic: 'image_load', dim: '2D', dmask: 0x3, t, coords: lanes(ws, (l) => [l % 8, Math.floor(l / 8) % 4]) },
    ]);
  }
  return out;
}

/** Float atomics (fcmpswap, fmin, fmax on 32_FLOAT), a scenario of their own so that an engine can leave it out. */
export function imageFloatAtomicScenarios(ws: 32 | 64, seed = 0xf1a7): ImageScenario[] {
  const rng = new Rng(seed + ws);
  const t: TsharpDesc = { format: '32_FLOAT', width: 8, height: 4 };
  // No -0: which of -0 and +0 fmin and fmax give is not settled here.
  const vals = [0x3f800000, 0xbf800000, 0, 0x40490fdb, 0xc2c80000, 0x00000001, 0x7f7fffff, 0x3e800000];
  const img = new Uint8Array(256 * 4);
  const iv = new DataView(img.buffer);
  for (let k = 0; k < img.length; k += 4) iv.setUint32(k, rng.pick(vals), true);
  const hot = () => Array.from({ length: ws }, (_, l) => (l % 13 === 12 ? [0, 4] : [rng.int(3), rng.int(2)]));
  const d2 = () => Array.from({ length: ws }, () => [rng.pick(vals), rng.pick(vals)]);
  const a = (name: string): ImageOp => ({ mnemonic: `image_atomic_${name}`, dim: '2D', dmask: name === 'fcmpswap' ? 3 : 1, glc: true, t, coords: hot(), data: d2() });
  return [{ name: `image_float_atomics_w${ws}`, ws, image: img, ops: [a('fmin'), a('fmax'), a('fcmpswap'), a('fmin'), a('fcmpswap')] }];
}
