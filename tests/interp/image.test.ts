// The interpreter's MIMG storage instructions (src/interp/units/mimg.ts) against expectations it
// did not compute:
//  - a reference written here, apart from src/image: a linear image as rows of bytes, the row
//    pitch in bytes rounded up to 256 (addrlib's gfx10 linear rule, level by level), the mip chain
//    smallest level first, slices one after another; loads convert through ./buffer-format-ref.ts
//    (the buffer tests' independent conversion model), stores (converting through
//    ./format-store-ref.ts, the store conversion's independent model) and atomics are applied to
//    the reference's bytes in lane order;
//  - pocl (an OpenCL implementation we did not write) reading the same pixels with read_imagef /
//    read_imageui / read_imagei from a packed image2d_t, equal to image_load of them in a padded
//    linear T# (but where pocl's UNORM/SNORM reciprocal product is 1 ulp from the quotient; left
//    out: pocl's CL_R with CL_HALF_FLOAT, and CL_R's w for the integer types, which pocl gets wrong);
//  - pocl writing values with write_imagef / write_imageui / write_imagei (RGBA UNORM/SNORM 8 and
//    16, HALF_FLOAT, UINT/SINT 8 and 16; R UNORM_INT8, SNORM_INT16), equal to converting
//    image_stores of them byte for byte but where OpenCL's normalized rule differs from ours, each
//    such channel asserted to be exactly OpenCL's: convert_*_sat_rte of the f32 product (f * 255.0f
//    rounded to f32 first: a product that lands on or across a .5 rounds differently from our exact
//    one), which also saturates SNORM values below -1 to -2^(w-1) where ours (D3D, Vulkan) clamps
//    to -(2^(w-1) - 1); left out: CL_R with CL_HALF_FLOAT (pocl's writes are wrong there too);
//  - the refusals: the forms not modelled (tfe, MSAA), and the T#s the unit does
//    not implement (tiled, TYPE mismatch, unsupported formats, d16 stores to 32-bit components, dmask leaving
//    out a component, reserved DST_SEL), but only with a lane in EXEC.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import type { Shader } from '../../src/container/shader.js';
import { UnimplementedError } from '../../src/interp/errors.js';
import { assembleShaders } from '../harness/kernel.js';
import { Rng } from '../harness/rng.js';
import { channels } from './buffer-format-ref.js';
import { type Num, refPack } from './format-store-ref.js';
import { runKernel } from './harness.js';
import {
  type Dim, DIM_COORDS, imageBuffers, imageFloatAtomicScenarios, imageKernel, type ImageOp, type ImageScenario, imageScenarios, intChannel, preset, storeChannel, type TsharpDesc,
} from './image-kernels.js';

// ---- The reference ----

const formatName = (t: TsharpDesc): string => {
  if (typeof t.format !== 'string') throw new Error('the reference takes format names');
  return t.format;
};
const widthsOf = (fmt: string): number[] => fmt.replace(/_[A-Z]+$/, '').split('_').map(Number);
/** The element's bytes. */
const bpeOf = (fmt: string): number => widthsOf(fmt).reduce((a, w) => a + w, 0) / 8;

const numOf = (fmt: string): Num => (/_([A-Z]+)$/.exec(fmt)?.[1] ?? '') as Num;

const HAS_Y: readonly Dim[] = ['2D', '3D', 'CUBE', '2D_ARRAY'];

/** Where lane `l`'s texel of `op` is, by the reference's layout (gfx1030: the custom pitch). */
function place(op: ImageOp, l: number, gfx103 = true): { ok: boolean; offset: number } {
  // R128: the T#'s dwords 4..7 read as 0.
  const t: TsharpDesc = /\br128\b/.test(op.extra ?? '') ? { ...op.t, depthField: 0, pitchMsb: 0, baseArray: 0, maxMip: 0 } : op.t;
  const bpe = bpeOf(formatName(t));
  const raw = op.coords[l] ?? [];
  const n = DIM_COORDS[op.dim];
  const c = raw.map((v) => (op.a16 ? v & 0xffff : v >>> 0));
  const x = c[0] ?? 0;
  const y = HAS_Y.includes(op.dim) ? c[1] ?? 0 : 0;
  const zs = op.dim === '3D' || op.dim === 'CUBE' || op.dim === '2D_ARRAY' ? c[2] ?? 0 : op.dim === '1D_ARRAY' ? c[1] ?? 0 : 0;
  const mip = op.mnemonic.includes('_mip') ? c[n] ?? 0 : 0;
  const maxMip = t.maxMip ?? 0, base = t.baseLevel ?? 0, last = t.lastLevel ?? maxMip;
  const W = t.width, H = t.height ?? 1, depthField = t.depthField ?? 0, baseArray = t.baseArray ?? 0;
  let ok = base <= last && mip <= last - base;
  const level = base + mip;
  const size = (v: number, lv: number) => Math.max(Math.floor(v / 2 ** lv), 1);
  const rows = (lv: number) => (HAS_Y.includes(op.dim) ? size(H, lv) : 1);
  const pitchBytes = (lv: number) => Math.ceil((size(W, lv) * bpe) / 256) * 256;
  ok &&= x < size(W, level) && y < rows(level);
  let slice: number;
  if (op.dim === '3D') { slice = zs; ok &&= zs < size(depthField + 1, level); }
  else if (op.dim === '1D' || op.dim === '2D') slice = baseArray;
  else { slice = baseArray + zs; ok &&= baseArray <= depthField && zs <= depthField - baseArray; }
  let sliceBytes = 0, before = 0;
  for (let lv = 0; lv <= maxMip; lv++) {
    sliceBytes += pitchBytes(lv) * rows(lv);
    if (lv > level) before += pitchBytes(lv) * rows(lv);
  }
  let pitch = pitchBytes(level);
  if (gfx103 && (op.dim === '1D' || op.dim === '2D') && level === 0) pitch = Math.max(((depthField & 0x1fff) + ((t.pitchMsb ?? 0) << 13) + 1) * bpe, pitch);
  return { ok, offset: slice * sliceBytes + before + y * pitch + x * bpe };
}

const u32 = (b: Uint8Array, at: number): number => ((b[at] ?? 0) | ((b[at + 1] ?? 0) << 8) | ((b[at + 2] ?? 0) << 16) | ((b[at + 3] ?? 0) << 24)) >>> 0;
const put32 = (b: Uint8Array, at: number, v: number): void => { for (let k = 0; k < 4; k++) b[at + k] = (v >>> (8 * k)) & 0xff; };

/** x, y, z, w of an element (missing components 0, w 1). */
function components(fmt: string, el: Uint8Array, d16: boolean): number[] {
  const ws = widthsOf(fmt), num = /_([A-Z]+)$/.exec(fmt)?.[1] ?? '';
  const int = num === 'UINT' || num === 'SINT';
  if (ws.every((w) => w === 32)) {
    const out = ws.map((_, k) => u32(el, 4 * k));
    while (out.length < 4) out.push(out.length === 3 ? (int ? 1 : 0x3f800000) : 0);
    return out;
  }
  return channels(fmt, el, d16);
}

const f32 = (bits: number): number => new Float32Array(new Uint32Array([bits]).buffer)[0] ?? NaN;

/** The integer atomics, written out: new memory value from old, data and compare. */
const ATOMIC_REF: Record<string, (o: number, d: number, c: number) => number> = {
  add: (o, d) => (o + d) >>> 0, sub: (o, d) => (o - d) >>> 0, inc: (o, d) => (o >= d ? 0 : o + 1), dec: (o, d) => (o === 0 || o > d ? d : o - 1),
  cmpswap: (o, d, c) => (o === c ? d : o), smin: (o, d) => ((o | 0) < (d | 0) ? o : d), smax: (o, d) => ((o | 0) > (d | 0) ? o : d),
  umin: (o, d) => Math.min(o, d), umax: (o, d) => Math.max(o, d), and: (o, d) => (o & d) >>> 0, or: (o, d) => (o | d) >>> 0, xor: (o, d) => (o ^ d) >>> 0,
  swap: (_o, d) => d,
  // No NaN, no -0 among the float atomics' values (image-kernels.ts): plain comparisons decide.
  fmin: (o, d) => (f32(d) < f32(o) ? d : o), fmax: (o, d) => (f32(d) > f32(o) ? d : o), fcmpswap: (o, d, c) => (f32(o) === f32(c) ? d : o),
};

/** The 64-bit integer atomics (DMASK 0x3, cmpswap 0xf), written out on BigInts. */
const M64 = (1n << 64n) - 1n;
const s64 = (x: bigint): bigint => BigInt.asIntN(64, x);
const ATOMIC_REF64: Record<string, (o: bigint, d: bigint, c: bigint) => bigint> = {
  add: (o, d) => (o + d) & M64, sub: (o, d) => (o - d) & M64, inc: (o, d) => (o >= d ? 0n : o + 1n), dec: (o, d) => (o === 0n || o > d ? d : o - 1n),
  cmpswap: (o, d, c) => (o === c ? d : o), smin: (o, d) => (s64(o) < s64(d) ? o : d), smax: (o, d) => (s64(o) > s64(d) ? o : d),
  umin: (o, d) => (o < d ? o : d), umax: (o, d) => (o > d ? o : d), and: (o, d) => o & d, or: (o, d) => o | d, xor: (o, d) => o ^ d, swap: (_o, d) => d,
};

/** The out records (lane, op: 4 dwords) and the image after the run, by the reference. */
function expected(sc: ImageScenario, input: Uint8Array, gfx103 = true): { out: number[][][]; image: Uint8Array } {
  const img = sc.image.slice();
  const ws = sc.ws, nOps = sc.ops.length;
  const out: number[][][] = Array.from({ length: ws }, () => Array.from({ length: nOps }, () => [0, 0, 0, 0]));
  sc.ops.forEach((op, k) => {
    const fmt = formatName(op.t);
    const bpe = bpeOf(fmt);
    const active = (l: number) => op.exec === undefined || ((op.exec >> BigInt(l)) & 1n) === 1n;
    const data = (l: number) => [0, 1, 2, 3].map((d) => u32(input, 32 * (l * nOps + k) + 16 + 4 * d));
    const chans = [0, 1, 2, 3].filter((c) => (op.dmask >> c) & 1);
    for (let l = 0; l < ws; l++) {
      const rec = out[l]?.[k] as number[];
      const p = place(op, l, gfx103);
      if (op.mnemonic.startsWith('image_load')) {
        const regs = [0, 1, 2, 3].map((r) => preset(k, r));
        if (active(l)) {
          const sel = op.t.dstSel ?? [4, 5, 6, 7];
          const num = /_([A-Z]+)$/.exec(fmt)?.[1] ?? '';
          const one = num === 'UINT' || num === 'SINT' ? 1 : op.d16 ? 0x3c00 : 0x3f800000;
          const comp = p.ok ? components(fmt, img.subarray(p.offset, p.offset + bpe), op.d16 === true) : [0, 0, 0, 0];
          const res = chans.map((c) => (!p.ok ? 0 : sel[c] === 0 ? 0 : sel[c] === 1 ? one : comp[(sel[c] ?? 4) - 4] ?? 0));
          if (!op.d16) res.forEach((v, j) => { regs[j] = v >>> 0; });
          else for (let j = 0; j < res.length; j += 2) regs[j >> 1] = ((res[j] ?? 0) | ((j + 1 < res.length ? res[j + 1] ?? 0 : (regs[j >> 1] ?? 0) >>> 16) << 16)) >>> 0;
        }
        rec.splice(0, 4, ...regs);
      } else if (op.mnemonic.startsWith('image_store')) {
        if (!active(l) || !p.ok) continue;
        const d = data(l);
        const ws = widthsOf(fmt).reverse(); // x first
        const chan = (c: number) => (!op.d16 ? d[c] ?? 0 : ((d[c >> 1] ?? 0) >>> (16 * (c & 1))) & 0xffff);
        if (ws.every((w) => w === 32)) ws.forEach((_, c) => put32(img, p.offset + 4 * c, chan(c)));
        else {
          // Narrower components: converted by ./format-store-ref.ts, packed from bit 0 up (x lowest).
          let el = 0n, at = 0n;
          ws.forEach((w, c) => { el |= BigInt(refPack(numOf(fmt), w, chan(c), op.d16 === true)) << at; at += BigInt(w); });
          for (let b = 0; b < bpe; b++) img[p.offset + b] = Number((el >> BigInt(8 * b)) & 0xffn);
        }
      } else if (op.dmask === (op.mnemonic === 'image_atomic_cmpswap' ? 0xf : 0x3) && !op.mnemonic.startsWith('image_atomic_f')) {
        // 64 bits: data in dwords 0..1, cmpswap's compare in 2..3; the old value to dwords 0..1.
        const d = data(l);
        rec.splice(0, 4, ...d);
        if (!active(l)) continue;
        const v = (lo: number, hi: number) => (BigInt(d[hi] ?? 0) << 32n) | BigInt(d[lo] ?? 0);
        let old = 0n;
        if (p.ok) {
          old = (BigInt(u32(img, p.offset + 4)) << 32n) | BigInt(u32(img, p.offset));
          const rule = ATOMIC_REF64[op.mnemonic.slice('image_atomic_'.length)];
          assert.ok(rule, op.mnemonic);
          const nv = rule(old, v(0, 1), v(2, 3));
          put32(img, p.offset, Number(nv & 0xffffffffn));
          put32(img, p.offset + 4, Number(nv >> 32n));
        }
        if (op.glc) { rec[0] = Number(old & 0xffffffffn); rec[1] = Number(old >> 32n); }
      } else {
        const d = data(l);
        rec.splice(0, 4, ...d);
        if (!active(l)) continue;
        let old = 0;
        if (p.ok) {
          old = u32(img, p.offset);
          const rule = ATOMIC_REF[op.mnemonic.slice('image_atomic_'.length)];
          assert.ok(rule, op.mnemonic);
          put32(img, p.offset, rule(old, d[0] ?? 0, d[1] ?? 0));
        }
        if (op.glc) rec[0] = old;
      }
    }
  });
  return { out, image: img };
}

// ---- Running ----

const shaders = new Map<string, Shader>();
function kernels(scs: readonly ImageScenario[]): void {
  for (const ws of [32, 64] as const) {
    const batch = scs.filter((s) => s.ws === ws && !shaders.has(s.name));
    if (!batch.length) continue;
    const got = assembleShaders('gfx1030', batch.map((sc) => ({ name: sc.name, body: imageKernel(sc), wave64: ws === 64, vgprs: 32, sgprs: 56, directives: ['.amdhsa_user_sgpr_kernarg_segment_ptr 1', '.amdhsa_kernarg_size 64'] })));
    for (const [k, v] of got) shaders.set(k, v);
  }
}

function run(sc: ImageScenario): Uint8Array[] {
  kernels([sc]);
  const s = shaders.get(sc.name);
  assert.ok(s, sc.name);
  return runKernel(s, imageBuffers(sc), { grid: [sc.ws, 1, 1], block: [sc.ws, 1, 1], maxSteps: 1_000_000 }).buffers;
}

const hex = (v: number) => (v >>> 0).toString(16);

function check(sc: ImageScenario): void {
  const [out, input, , work, after] = run(sc);
  assert.ok(out && input && work && after);
  const want = expected(sc, input);
  sc.ops.forEach((op, k) => {
    for (let l = 0; l < sc.ws; l++) {
      const got: number[] = [0, 1, 2, 3].map((d): number => u32(out, 16 * (l * sc.ops.length + k) + 4 * d));
      const rec = op.mnemonic.startsWith('image_store') ? [0, 0, 0, 0] : want.out[l]?.[k] ?? [];
      assert.deepEqual(got.map(hex), rec.map(hex), `${sc.name} op ${k} (${op.mnemonic} ${op.t.format}) lane ${l}, coords ${JSON.stringify(op.coords[l])}`);
    }
  });
  for (let b = 0; b < after.length; b++) if (after[b] !== want.image[b]) assert.fail(`${sc.name}: the image after the run differs at byte ${b}: ${after[b]} (reference ${want.image[b]})`);
  assert.ok(work.every((b) => b === 0), `${sc.name}: the work buffer is zeroed`);
}

const all = [...imageScenarios(32), ...imageScenarios(64), ...imageFloatAtomicScenarios(32), ...imageFloatAtomicScenarios(64)];
kernels(all);

for (const sc of all) {
  test(`${sc.name} (${sc.ops.map((o) => o.mnemonic.replace(/^image_/, '')).join(', ')}) equals the reference layout and conversions`, () => check(sc));
}

test('the reference itself: hand-worked texel offsets (pitch, mip chain, slices, custom pitch)', () => {
  const op = (dim: Dim, t: TsharpDesc, c: number[], m = 'image_load'): ImageOp => ({ mnemonic: m, dim, dmask: 1, t, coords: [c] });
  // 2D 8_8_8_8 13 wide: a row is 256 bytes; (3, 2) at 2 * 256 + 12.
  assert.deepEqual(place(op('2D', { format: '8_8_8_8_UNORM', width: 13, height: 7 }, [3, 2]), 0), { ok: true, offset: 524 });
  // 1D 32_UINT 100 wide, levels 0..3 (rows of 512, 256, 256, 256 bytes): level 1 after levels 3 and 2.
  assert.deepEqual(place(op('1D', { format: '32_UINT', width: 100, maxMip: 3 }, [5, 1], 'image_load_mip'), 0), { ok: true, offset: 512 + 20 });
  assert.deepEqual(place(op('1D', { format: '32_UINT', width: 100, maxMip: 3 }, [5, 0], 'image_load_mip'), 0), { ok: true, offset: 768 + 20 });
  // 2D_ARRAY 16_FLOAT 20 x 3, three levels (768 + 256 + 256 bytes a slice), BASE_ARRAY 2: slice 1 is the 4th.
  assert.deepEqual(place(op('2D_ARRAY', { format: '16_FLOAT', width: 20, height: 3, baseArray: 2, depthField: 5, maxMip: 2 }, [4, 1, 1]), 0), { ok: true, offset: 3 * 1280 + 512 + 256 + 8 });
  // gfx1030 pitch 128 texels of 4 bytes: row 3 at 1536.
  assert.deepEqual(place(op('2D', { format: '32_FLOAT', width: 10, height: 4, depthField: 127 }, [1, 3]), 0), { ok: true, offset: 1540 });
  assert.equal(place(op('2D', { format: '32_FLOAT', width: 10, height: 4 }, [-1, 0]), 0).ok, false);
});

test('on gfx1010 the DEPTH field of a 2D/1D T# is no pitch (the pitch scenario, assembled for gfx1010)', () => {
  for (const ws of [32, 64] as const) {
    const base = imageScenarios(ws).find((s) => s.name.startsWith('image_pitch'));
    assert.ok(base);
    const sc: ImageScenario = { ...base, name: `gfx1010_pitch_w${ws}` };
    const s = assembleShaders('gfx1010', [{ name: sc.name, body: imageKernel(sc), wave64: ws === 64, vgprs: 32, sgprs: 56, directives: ['.amdhsa_user_sgpr_kernarg_segment_ptr 1', '.amdhsa_kernarg_size 64'] }]).get(sc.name);
    assert.ok(s);
    const [out, input] = runKernel(s, imageBuffers(sc), { grid: [ws, 1, 1], block: [ws, 1, 1] }).buffers;
    assert.ok(out && input);
    const want = expected(sc, input, false), on1030 = expected(sc, input, true);
    let differs = 0;
    sc.ops.forEach((op, k) => {
      for (let l = 0; l < ws; l++) {
        const got: number[] = [0, 1, 2, 3].map((d): number => u32(out, 16 * (l * sc.ops.length + k) + 4 * d));
        assert.deepEqual(got.map(hex), (want.out[l]?.[k] ?? []).map(hex), `${sc.name} op ${k} lane ${l}`);
        if (JSON.stringify(want.out[l]?.[k]) !== JSON.stringify(on1030.out[l]?.[k])) differs++;
      }
    });
    assert.ok(differs > 0, 'the scenario tells the two pitch rules apart');
  }
});

// ---- pocl ----

interface PoclImage { readonly order: string; readonly type: string; readonly read: 'f' | 'ui' | 'i'; readonly format: string; readonly dstSel?: [number, number, number, number]; readonly width: number; readonly height: number }

// Left out, pocl's own deviations (pocl-opencl-icd on this machine): CL_R with CL_HALF_FLOAT reads
// 234.0 for every pixel, and CL_R with the integer types gives w = 0 where OpenCL says (r, 0, 0, 1).
const POCL_IMAGES: readonly PoclImage[] = [
  { order: 'RGBA', type: 'UNORM_INT8', read: 'f', format: '8_8_8_8_UNORM', width: 37, height: 9 },
  { order: 'BGRA', type: 'UNORM_INT8', read: 'f', format: '8_8_8_8_UNORM', dstSel: [6, 5, 4, 7], width: 70, height: 3 },
  { order: 'RGBA', type: 'SNORM_INT8', read: 'f', format: '8_8_8_8_SNORM', width: 20, height: 5 },
  { order: 'RGBA', type: 'HALF_FLOAT', read: 'f', format: '16_16_16_16_FLOAT', width: 33, height: 7 },
  { order: 'RGBA', type: 'UNORM_INT16', read: 'f', format: '16_16_16_16_UNORM', width: 9, height: 4 },
  { order: 'RGBA', type: 'SNORM_INT16', read: 'f', format: '16_16_16_16_SNORM', width: 9, height: 4 },
  { order: 'R', type: 'FLOAT', read: 'f', format: '32_FLOAT', width: 65, height: 6 },
  { order: 'R', type: 'UNORM_INT8', read: 'f', format: '8_UNORM', width: 300, height: 3 },
  { order: 'A', type: 'UNORM_INT8', read: 'f', format: '8_UNORM', dstSel: [0, 0, 0, 4], width: 17, height: 4 },
  { order: 'RGBA', type: 'FLOAT', read: 'f', format: '32_32_32_32_FLOAT', width: 17, height: 3 },
  { order: 'RGBA', type: 'UNSIGNED_INT32', read: 'ui', format: '32_32_32_32_UINT', width: 15, height: 4 },
  { order: 'RGBA', type: 'UNSIGNED_INT8', read: 'ui', format: '8_8_8_8_UINT', width: 40, height: 5 },
  { order: 'RGBA', type: 'SIGNED_INT16', read: 'i', format: '16_16_16_16_SINT', width: 11, height: 5 },
  { order: 'RGBA', type: 'SIGNED_INT32', read: 'i', format: '32_32_32_32_SINT', width: 7, height: 2 },
];

/** Finite pixels: float components never have an all-ones exponent. */
function pixelBytes(p: PoclImage, rng: Rng): Uint8Array {
  const bpe = bpeOf(p.format);
  const b = new Uint8Array(p.width * p.height * bpe);
  for (let k = 0; k < b.length; k++) b[k] = rng.u32() & 0xff;
  if (p.format.endsWith('FLOAT')) {
    const w = widthsOf(p.format)[0] ?? 32;
    for (let k = w / 8 - 1; k < b.length; k += w / 8) b[k] = (b[k] ?? 0) & 0xbf; // the exponent's top bit clear
  }
  return b;
}

/** pocl's UNORM/SNORM result for channel d of pixel (x, y): the component times the f32 reciprocal, rounded to f32. */
function poclNorm(p: PoclImage, px: Uint8Array, x: number, y: number, d: number): number | undefined {
  const m = /^(UNORM|SNORM)_INT(8|16)$/.exec(p.type);
  if (!m) return undefined;
  const w = Number(m[2]), bytes = w / 8, n = p.order.length;
  // The component behind channel d: RGBA d, BGRA b g r a in memory, R its one, A its one as w.
  const comp = p.order === 'BGRA' ? [2, 1, 0, 3][d] : p.order === 'R' ? (d === 0 ? 0 : undefined) : p.order === 'A' ? (d === 3 ? 0 : undefined) : d;
  if (comp === undefined) return undefined;
  const at = ((y * p.width + x) * n + comp) * bytes;
  let r = 0;
  for (let b = 0; b < bytes; b++) r |= (px[at + b] ?? 0) << (8 * b);
  const f32bits = (v: number) => new Uint32Array(new Float32Array([v]).buffer)[0] ?? 0;
  if (m[1] === 'UNORM') return f32bits(Math.fround(r * Math.fround(1 / (2 ** w - 1))));
  const sv = r >= 2 ** (w - 1) ? r - 2 ** w : r;
  return f32bits(Math.max(-1, Math.fround(sv * Math.fround(1 / (2 ** (w - 1) - 1)))));
}

test('image_load of a padded linear T# equals pocl\'s read_imagef/read_imageui/read_imagei of the same pixels (2D, in-bounds integer coordinates)', (t) => {
  const probe = spawnSync('/usr/bin/python3', ['-c', 'import pyopencl'], { encoding: 'utf8' });
  assert.equal(probe.status, 0, `pyopencl: ${probe.stderr}`);
  const rng = new Rng(0x90c1);
  const ws = 64;
  const scs: ImageScenario[] = [];
  const jobs: unknown[] = [];
  const pixels: Uint8Array[] = [];
  POCL_IMAGES.forEach((p, i) => {
    const bpe = bpeOf(p.format);
    const px = pixelBytes(p, rng);
    pixels.push(px);
    const pitch = Math.ceil((p.width * bpe) / 256) * 256;
    const image = new Uint8Array(Math.ceil((pitch * p.height) / 256) * 256);
    for (let y = 0; y < p.height; y++) image.set(px.subarray(y * p.width * bpe, (y + 1) * p.width * bpe), y * pitch);
    const coords = Array.from({ length: ws }, (_, l) => (l === 0 ? [0, 0] : l === 1 ? [p.width - 1, p.height - 1] : [rng.int(p.width), rng.int(p.height)]));
    const desc: TsharpDesc = { format: p.format, width: p.width, height: p.height, ...(p.dstSel ? { dstSel: p.dstSel } : {}) };
    scs.push({ name: `pocl${i}`, ws, image, ops: [{ mnemonic: 'image_load', dim: '2D', dmask: 0xf, t: desc, coords }] });
    jobs.push({ order: p.order, type: p.type, read: p.read, width: p.width, height: p.height, pixels: Buffer.from(px).toString('base64'), coords: coords.flat() });
  });
  const r = spawnSync('/usr/bin/python3', [new URL('./image-pocl.py', import.meta.url).pathname], { input: JSON.stringify(jobs), encoding: 'utf8', maxBuffer: 1 << 26 });
  assert.equal(r.status, 0, `pocl: ${r.stderr}`);
  const pocl = JSON.parse(r.stdout) as string[];
  kernels(scs);
  let ulpOff = 0, compared = 0;
  scs.forEach((sc, i) => {
    const [out] = run(sc);
    assert.ok(out);
    const want = Buffer.from(pocl[i] ?? '', 'base64');
    const p = POCL_IMAGES[i] as PoclImage;
    for (let l = 0; l < ws; l++) {
      const got: number[] = [0, 1, 2, 3].map((d): number => u32(out, 16 * l + 4 * d));
      const exp = [0, 1, 2, 3].map((d) => want.readUInt32LE(16 * l + 4 * d));
      // pocl converts UNORM/SNORM by multiplying with the f32 reciprocal (r * (1/255)f rounded),
      // at times 1 ulp from the correctly rounded quotient that ours is (OpenCL allows 1.5 ulp):
      // where the two differ, pocl's value must be exactly that product, 1 ulp from ours.
      const [x, y] = sc.ops[0]?.coords[l] ?? [0, 0];
      got.forEach((g, d) => {
        const e = exp[d] ?? 0;
        if (g === e) return;
        const product = poclNorm(p, pixels[i] as Uint8Array, x ?? 0, y ?? 0, d);
        assert.ok(product !== undefined && e === product && Math.abs(g - e) === 1 && (g ^ e) >>> 31 === 0,
          `${p.order} ${p.type} as ${p.format}: (${x}, ${y}) channel ${d}: ours ${hex(g)}, pocl ${hex(e)}${product !== undefined ? ` (pocl's reciprocal product ${hex(product)})` : ''}`);
        ulpOff++;
      });
      compared += 4;
    }
  });
  assert.ok(compared === POCL_IMAGES.length * ws * 4);
  t.diagnostic(`pocl: ${compared} channels, ${ulpOff} of them (UNORM/SNORM) pocl's reciprocal product 1 ulp from ours`);
});

// ---- Refusals ----

function refused(op: ImageOp, why: RegExp, ws: 32 | 64 = 32): void {
  const sc: ImageScenario = { name: `refused${shaders.size}`, ws, image: new Uint8Array(4096), ops: [op] };
  assert.throws(() => run(sc), (e: unknown) => {
    assert.ok(e instanceof UnimplementedError, String(e));
    assert.match(e.message, /^pc 0x[0-9a-f]+: image_\w+ v/, 'the error names the instruction');
    assert.match(e.message, why);
    return true;
  });
}

const lanesOf = (n: number, c: number[]) => Array.from({ length: n }, () => c);
const T2: TsharpDesc = { format: '32_UINT', width: 8, height: 8 };

test('refused at run time with the instruction: tiled SW_MODE, TYPE mismatch, a store to a 12-byte format or a d16 one to 32-bit components, dmask leaving out a component, reserved DST_SEL, unsupported formats, d16 of 32-bit components, atomic formats', () => {
  const load = (t: TsharpDesc, more: Partial<ImageOp> = {}): ImageOp => ({ mnemonic: 'image_load', dim: '2D', dmask: 0xf, t, coords: lanesOf(32, [1, 1]), ...more });
  refused(load({ ...T2, swMode: 9 }), /image_load: a tiled image \(SW_MODE 9\) is not implemented/);
  refused(load({ ...T2, type: 13 }), /image_load: the T#'s TYPE 13 is not its dim's \(2d: TYPE 9\)/);
  refused({ mnemonic: 'image_store', dim: '2D', dmask: 0xf, t: { ...T2, format: '32_32_32_UINT' }, coords: lanesOf(32, [1, 1]) }, /image_store with BUF_FMT_32_32_32_UINT: not a format the interpreter stores to an image/);
  refused({ mnemonic: 'image_store', dim: '2D', dmask: 0xf, d16: true, t: T2, coords: lanesOf(32, [1, 1]) }, /BUF_FMT_32_UINT \(d16\): not a format the interpreter stores to an image \(d16 stores need components narrower than 32 bits\)/);
  refused({ mnemonic: 'image_store', dim: '2D', dmask: 0x7, t: { ...T2, format: '2_10_10_10_UNORM' }, coords: lanesOf(32, [1, 1]) }, /dmask 0x7 leaves out component w of the format/);
  refused({ mnemonic: 'image_store', dim: '2D', dmask: 0x5, t: { ...T2, format: '32_32_UINT' }, coords: lanesOf(32, [1, 1]) }, /dmask 0x5 leaves out component y of the format/);
  refused(load({ ...T2, dstSel: [4, 2, 6, 7] }), /image_load: reserved DST_SEL value 2 \(channel y\)/);
  refused(load({ ...T2, format: '32_32_32_UINT' }), /image_load with BUF_FMT_32_32_32_UINT: not a format the interpreter loads/);
  refused(load({ ...T2, format: 0 }), /image_load with BUF_FMT_INVALID: not a format/);
  refused(load({ ...T2, format: 300 }), /image_load with format 300: not a format/);
  refused(load({ ...T2, format: '32_FLOAT' }, { d16: true }), /d16 loads of a format with 32-bit components are not implemented/);
  refused({ mnemonic: 'image_atomic_add', dim: '2D', dmask: 1, glc: true, t: { ...T2, format: '32_FLOAT' }, coords: lanesOf(32, [1, 1]) }, /image_atomic_add with BUF_FMT_32_FLOAT: an image atomic needs 32_UINT or 32_SINT/);
  refused({ mnemonic: 'image_atomic_fmin', dim: '2D', dmask: 1, t: T2, coords: lanesOf(32, [1, 1]) }, /image_atomic_fmin with BUF_FMT_32_UINT: an image atomic needs 32_FLOAT/);
  refused({ mnemonic: 'image_atomic_add', dim: '2D', dmask: 3, glc: true, t: T2, coords: lanesOf(32, [1, 1]) }, /image_atomic_add with BUF_FMT_32_UINT: a 64-bit image atomic needs 32_32_UINT or 32_32_SINT/);
  refused({ mnemonic: 'image_atomic_umax', dim: '2D', dmask: 1, glc: true, t: { ...T2, format: '32_32_UINT' }, coords: lanesOf(32, [1, 1]) }, /image_atomic_umax with BUF_FMT_32_32_UINT: an image atomic needs 32_UINT or 32_SINT/);
});

test('refused statically: tfe, an MSAA dim (image_load_pck and image_get_resinfo: ./image-pck.test.ts)', () => {
  refused({ mnemonic: 'image_load', dim: '2D', dmask: 0xf, extra: 'tfe', t: T2, coords: lanesOf(32, [0, 0]) }, /image_load with tfe or lwe is not modelled/);
  // An MSAA dim through the text: the kernel's op written by hand.
  const body = imageKernel({ name: 'msaa', ws: 32, image: new Uint8Array(256), ops: [{ mnemonic: 'image_load', dim: '2D', dmask: 1, t: T2, coords: lanesOf(32, [0, 0]) }] })
    .replace('dim:SQ_RSRC_IMG_2D unorm', 'dim:SQ_RSRC_IMG_2D_MSAA unorm').replace('v[10:11], s[40:47]', 'v[10:12], s[40:47]');
  const s = assembleShaders('gfx1030', [{ name: 'msaa', body, vgprs: 32, sgprs: 56, directives: ['.amdhsa_user_sgpr_kernarg_segment_ptr 1', '.amdhsa_kernarg_size 64'] }]).get('msaa');
  assert.ok(s);
  assert.throws(() => runKernel(s, imageBuffers({ name: 'msaa', ws: 32, image: new Uint8Array(256), ops: [{ mnemonic: 'image_load', dim: '2D', dmask: 1, t: T2, coords: lanesOf(32, [0, 0]) }] }), { grid: [32, 1, 1], block: [32, 1, 1] }),
    (e: unknown) => e instanceof UnimplementedError && /image_load with an MSAA dim \(6\) is not modelled/.test(e.message));
});

test('with EXEC empty an image instruction does nothing and checks nothing (a tiled T#, a store to a 12-byte format)', () => {
  for (const op of [
    { mnemonic: 'image_load', dim: '2D', dmask: 0xf, t: { ...T2, swMode: 1 }, coords: lanesOf(32, [1, 1]), exec: 0n },
    { mnemonic: 'image_store', dim: '2D', dmask: 0xf, t: { ...T2, format: '32_32_32_UINT' }, coords: lanesOf(32, [1, 1]), exec: 0n },
  ] satisfies ImageOp[]) {
    const sc: ImageScenario = { name: `empty${shaders.size}`, ws: 32, image: new Uint8Array(256).fill(7), ops: [op] };
    const [out, , , , after] = run(sc);
    assert.ok(out && after);
    if (op.mnemonic === 'image_load') for (let l = 0; l < 32; l++) assert.equal(u32(out, 16 * l), preset(0, 0));
    assert.ok(after.every((b) => b === 7));
  }
});

// ---- pocl: converting image stores ----

interface PoclWrite { readonly order: 'RGBA' | 'R'; readonly type: string; readonly write: 'f' | 'ui' | 'i'; readonly format: string }

const POCL_WRITES: readonly PoclWrite[] = [
  { order: 'RGBA', type: 'UNORM_INT8', write: 'f', format: '8_8_8_8_UNORM' },
  { order: 'RGBA', type: 'SNORM_INT8', write: 'f', format: '8_8_8_8_SNORM' },
  { order: 'RGBA', type: 'UNORM_INT16', write: 'f', format: '16_16_16_16_UNORM' },
  { order: 'RGBA', type: 'SNORM_INT16', write: 'f', format: '16_16_16_16_SNORM' },
  { order: 'RGBA', type: 'HALF_FLOAT', write: 'f', format: '16_16_16_16_FLOAT' },
  { order: 'R', type: 'UNORM_INT8', write: 'f', format: '8_UNORM' },
  { order: 'RGBA', type: 'UNSIGNED_INT8', write: 'ui', format: '8_8_8_8_UINT' },
  { order: 'RGBA', type: 'SIGNED_INT8', write: 'i', format: '8_8_8_8_SINT' },
  { order: 'RGBA', type: 'UNSIGNED_INT16', write: 'ui', format: '16_16_16_16_UINT' },
  { order: 'RGBA', type: 'SIGNED_INT16', write: 'i', format: '16_16_16_16_SINT' },
  { order: 'R', type: 'SNORM_INT16', write: 'f', format: '16_SNORM' },
];
// Left out: CL_R with CL_HALF_FLOAT, whose pocl images are wrong for writes as for reads (a 0.0
// written reads back as bytes 0x15d6, where CL_RGBA's halves are right).

/**
 * OpenCL's normalized write as pocl computes it (OpenCL 1.2 §8.3.1.1: convert_uchar_sat_rte(f *
 * 255.0f), convert_char_sat_rte(f * 127.0f), ...): the f32 product, rounded to nearest even,
 * saturated to the integer type (so SNORM reaches -2^(w-1)); NaN 0.
 */
function openclNorm(bits: number, w: number, signed: boolean): number {
  const x = new Float32Array(new Uint32Array([bits]).buffer)[0] ?? NaN;
  if (Number.isNaN(x)) return 0;
  const p = Math.fround(x * (signed ? 2 ** (w - 1) - 1 : 2 ** w - 1));
  let r = Math.round(p);
  if (Math.abs(p - Math.trunc(p)) === 0.5) r = 2 * Math.round(p / 2); // ties to even
  const lo = signed ? -(2 ** (w - 1)) : 0, hi = signed ? 2 ** (w - 1) - 1 : 2 ** w - 1;
  return (Math.min(Math.max(r, lo), hi) >>> 0) & (2 ** w - 1);
}

test('converting image_store equals pocl\'s write_imagef/write_imageui/write_imagei of the same values, but where OpenCL\'s normalized rule differs (asserted exactly)', (t) => {
  const probe = spawnSync('/usr/bin/python3', ['-c', 'import pyopencl'], { encoding: 'utf8' });
  assert.equal(probe.status, 0, `pyopencl: ${probe.stderr}`);
  const rng = new Rng(0x9017e);
  const ws = 64, batches = 6, W = 8, H = 8 * batches;
  const f32b = (x: number) => new Uint32Array(new Float32Array([x]).buffer)[0] ?? 0;
  const edges: number[] = [0, -0, 1, -1, 0.5, -0.5, 2, -2, 1e30, -1e30, 65504, 65519, 65520, 1 / 3, 2 ** -25, 1e-7, -1.0000001, 1.0000001].map(f32b)
    .concat([0x7fc00000, 0xffc00000, 0x7f800000, 0xff800000]);
  for (const s of [255, 127, 65535, 32767]) for (let k = 0; k < 6; k++) { const b = f32b((rng.int(s) + 0.5) / s); edges.push(b, b + 1, b - 1); }
  const scs: ImageScenario[] = [];
  const jobs: unknown[] = [];
  const values: number[][][] = [];
  POCL_WRITES.forEach((p, i) => {
    const comps = p.order.length;
    const val = () => (p.write === 'f' ? storeChannel(rng) : intChannel(rng));
    const vals: number[][] = Array.from({ length: W * H }, (_, k) => [0, 1, 2, 3].map((c) => (p.write === 'f' && 4 * k + c < edges.length ? edges[4 * k + c] ?? 0 : val()) >>> 0));
    values.push(vals);
    const t: TsharpDesc = { format: p.format, width: W, height: H };
    const ops: ImageOp[] = Array.from({ length: batches }, (_, b) => ({
      mnemonic: 'image_store', dim: '2D', dmask: (1 << comps) - 1, t,
      coords: Array.from({ length: ws }, (_, l) => [l % W, b * 8 + Math.floor(l / W)]),
      data: Array.from({ length: ws }, (_, l) => vals[(b * 8 + Math.floor(l / W)) * W + (l % W)] ?? []),
    }));
    scs.push({ name: `poclw${i}`, ws, image: new Uint8Array(256 * H), ops });
    const flat = new Uint32Array(vals.flat());
    jobs.push({ order: p.order, type: p.type, write: p.write, width: W, height: H, values: Buffer.from(flat.buffer).toString('base64') });
  });
  const r = spawnSync('/usr/bin/python3', [new URL('./image-pocl-write.py', import.meta.url).pathname], { input: JSON.stringify(jobs), encoding: 'utf8', maxBuffer: 1 << 26 });
  assert.equal(r.status, 0, `pocl: ${r.stderr}`);
  const pocl = JSON.parse(r.stdout) as string[];
  kernels(scs);
  const diffs: Record<string, number> = {};
  let compared = 0;
  scs.forEach((sc, i) => {
    const p = POCL_WRITES[i] as PoclWrite;
    const after = run(sc)[4] as Uint8Array;
    const want = Buffer.from(pocl[i] ?? '', 'base64');
    const ws_ = widthsOf(p.format).reverse(), bpe = bpeOf(p.format), w = ws_[0] ?? 8;
    const num = numOf(p.format);
    for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) {
      for (let c = 0; c < ws_.length; c++) {
        const read = (buf: Uint8Array | Buffer, at: number) => (w === 8 ? buf[at] ?? 0 : (buf[at] ?? 0) | ((buf[at + 1] ?? 0) << 8));
        const ours = read(after, y * 256 + x * bpe + c * (w / 8)), theirs = read(want, (y * W + x) * bpe + c * (w / 8));
        const v = values[i]?.[y * W + x]?.[c] ?? 0;
        compared++;
        // Ours is the reference's rule in every channel.
        assert.equal(ours, refPack(num, w, v, false), `${p.format} (${x}, ${y}) channel ${c}: value ${hex(v)}`);
        if (ours === theirs) continue;
        // The only differences: OpenCL's normalized rule (f32 product, saturating to -2^(w-1)).
        assert.ok((num === 'UNORM' || num === 'SNORM') && theirs === openclNorm(v, w, num === 'SNORM'),
          `${p.order} ${p.type} as ${p.format}: value ${hex(v)} channel ${c}: ours ${hex(ours)}, pocl ${hex(theirs)} (OpenCL's rule ${hex(openclNorm(v, w, num === 'SNORM'))})`);
        const f = new Float32Array(new Uint32Array([v]).buffer)[0] ?? 0;
        const kind = num === 'SNORM' && f < -1 ? 'SNORM below -1: pocl -2^(w-1), ours -(2^(w-1)-1)' : 'the f32 product rounded before the integer (1 step)';
        diffs[kind] = (diffs[kind] ?? 0) + 1;
      }
    }
  });
  t.diagnostic(`pocl writes: ${compared} channels; differences: ${JSON.stringify(diffs)}`);
  assert.ok(compared === POCL_WRITES.reduce((a, p) => a + W * H * p.order.length, 0));
});
