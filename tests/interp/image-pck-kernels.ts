// Scenarios for image_get_resinfo and the _pck image loads/stores, in ./image-kernels.ts's kernel
// form (one wave, a list of ops each with its own T#), shared by the interpreter's test
// (./image-pck.test.ts: independent expectations) and the three-engine test
// (tests/runtime/image-pck.test.ts). The layouts are kept simple enough for the test to place a
// texel by hand: 2D images of level 0 only (a row 256 bytes, offset y * 256 + x * bytes) and one 1D
// mip chain of two levels (level 1 first, level 0 at 256).
import { Rng } from '../harness/rng.js';
import type { ImageOp, ImageScenario, TsharpDesc } from './image-kernels.js';

const lanes = <T>(ws: number, f: (l: number) => T): T[] => Array.from({ length: ws }, (_, l) => f(l));

function bytes(rng: Rng, n: number): Uint8Array {
  const out = new Uint8Array(n);
  for (let k = 0; k < n; k++) out[k] = rng.u32() & 0xff;
  return out;
}

function someLanes(rng: Rng, ws: number): bigint {
  let m = 0n;
  for (let l = 0; l < ws; l++) if (rng.int(4) !== 0) m |= 1n << BigInt(l);
  return m | 1n;
}

/** A distinct texel per lane of a w x h image (a permutation), every 9th lane out of bounds (x = w). */
function perm(rng: Rng, ws: number, w: number, h: number): number[][] {
  const cells = Array.from({ length: w * h }, (_, k) => [k % w, Math.floor(k / w)]);
  for (let k = cells.length - 1; k > 0; k--) { const j = rng.int(k + 1); [cells[k], cells[j]] = [cells[j] as number[], cells[k] as number[]]; }
  return lanes(ws, (l) => (l % 9 === 8 ? [w, 0] : cells[l % cells.length] ?? [0, 0]));
}

/** image_load_pck/_sgn, image_load_mip_pck/_sgn, image_store_pck, image_store_mip_pck (2D level 0, a 1D chain of two levels). */
export function imagePckScenarios(ws: 32 | 64, seed = 0x9c4): ImageScenario[] {
  const rng = new Rng(seed + ws);
  const xy = (w: number, h: number) => lanes(ws, () => [rng.int(w + 3) - 1, rng.int(h + 1)]);
  const load = (mnemonic: string, format: string, w: number, h: number, dmask: number, more: Partial<ImageOp> = {}): ImageOp =>
    ({ mnemonic, dim: '2D', dmask, t: { format, width: w, height: h }, coords: xy(w, h), ...more });
  const out: ImageScenario[] = [];
  // Loads of one image's bytes (6 rows of 256) as several formats: FORMAT's number format is ignored.
  out.push({
    name: `image_pck_load_w${ws}`, ws, image: bytes(rng, 256 * 6), ops: [
      load('image_load_pck', '8_UINT', 40, 6, 0x1),
      load('image_load_pck_sgn', '8_UNORM', 40, 6, 0x1),
      load('image_load_pck_sgn', '8_SINT', 40, 6, 0x1, { exec: someLanes(rng, ws) }),
      load('image_load_pck', '16_FLOAT', 30, 6, 0x1),
      load('image_load_pck_sgn', '16_UNORM', 30, 6, 0x1),
      load('image_load_pck', '32_FLOAT', 20, 6, 0x1),
      load('image_load_pck_sgn', '32_SINT', 20, 6, 0x1),
      load('image_load_pck', '32_32_32_32_FLOAT', 9, 6, 0xf),
      load('image_load_pck', '32_32_32_32_UINT', 9, 6, 0x5),
      load('image_load_pck_sgn', '32_32_UINT', 12, 6, 0x2),
      load('image_load_pck_sgn', '16_SINT', 30, 6, 0x1, { a16: true }),
    ],
  });
  // A 1D 16-bit chain: levels 0 (200 texels, 512 bytes) and 1 (100, 256 bytes): level 1 at 0, level 0 at 256.
  const t1: TsharpDesc = { format: '16_UINT', width: 200, maxMip: 1 };
  const mips = () => lanes(ws, () => { const m = rng.int(2); return [rng.int((m ? 100 : 200) + 2), m]; });
  out.push({
    name: `image_pck_mip_w${ws}`, ws, image: bytes(rng, 256 * 3), ops: [
      { mnemonic: 'image_load_mip_pck', dim: '1D', dmask: 0x1, t: t1, coords: mips() },
      { mnemonic: 'image_load_mip_pck_sgn', dim: '1D', dmask: 0x1, t: t1, coords: mips() },
      { mnemonic: 'image_load_mip_pck_sgn', dim: '1D', dmask: 0x1, t: { ...t1, format: '16_FLOAT', baseLevel: 1 }, coords: lanes(ws, () => [rng.int(102), 0]) },
    ],
  });
  // Stores, each read back: 8-bit (a partial EXEC), 16-bit, 32_32 on level 1 of a 1D chain (store_mip_pck), 32_32_32_32.
  const data = () => lanes(ws, () => [rng.u32(), rng.u32(), rng.u32(), rng.u32()]);
  const t8: TsharpDesc = { format: '8_SNORM', width: 12, height: 6 };
  const t16: TsharpDesc = { format: '16_FLOAT', width: 12, height: 6 };
  const t64: TsharpDesc = { format: '32_32_UINT', width: 64, maxMip: 1 };
  const t128: TsharpDesc = { format: '32_32_32_32_FLOAT', width: 9, height: 8 };
  const back = (t: TsharpDesc, mnemonic = 'image_load_pck', dmask = 0x1): ImageOp => ({ mnemonic, dim: '2D', dmask, t, coords: lanes(ws, (l) => [l % 13, Math.floor(l / 13) % 7]) });
  out.push({
    name: `image_pck_store_w${ws}`, ws, image: bytes(rng, 256 * 8), ops: [
      { mnemonic: 'image_store_pck', dim: '2D', dmask: 0x1, t: t8, coords: perm(rng, ws, 12, 6), data: data(), exec: someLanes(rng, ws) },
      back(t8, 'image_load_pck_sgn'),
      { mnemonic: 'image_store_pck', dim: '2D', dmask: 0x3, t: t16, coords: perm(rng, ws, 12, 6), data: data() },
      back(t16),
      { mnemonic: 'image_store_mip_pck', dim: '1D', dmask: 0x3, t: t64, coords: lanes(ws, (l) => [l, 1]), data: data() },
      { mnemonic: 'image_load_mip_pck', dim: '1D', dmask: 0x3, t: t64, coords: lanes(ws, (l) => [l % 33, 1]) },
      { mnemonic: 'image_store_pck', dim: '2D', dmask: 0xf, t: t128, coords: perm(rng, ws, 9, 8), data: data() },
      back(t128, 'image_load_pck', 0xf),
    ],
  });
  return out;
}

/** image_get_resinfo on every class: levels in the view only (others are refused), dmask subsets (the channels with a value: RESINFO_CHANNELS), A16, R128, a tiled T#. */
export function imageResinfoScenarios(ws: 32 | 64, seed = 0x7e5): ImageScenario[] {
  const rng = new Rng(seed + ws);
  const levels = (n: number) => lanes(ws, () => [rng.int(n)]);
  const r = (dim: ImageOp['dim'], dmask: number, t: TsharpDesc, n: number, more: Partial<ImageOp> = {}): ImageOp =>
    ({ mnemonic: 'image_get_resinfo', dim, dmask, t, coords: levels(n), ...more });
  return [{
    name: `image_resinfo_w${ws}`, ws, image: new Uint8Array(256), ops: [
      r('2D', 0xb, { format: '8_8_8_8_UNORM', width: 13, height: 7, maxMip: 3 }, 4),
      r('2D', 0xb, { format: '32_FLOAT', width: 300, height: 5, maxMip: 8, baseLevel: 2, lastLevel: 7 }, 6),
      r('2D', 0xa, { format: '32_FLOAT', width: 64, height: 1000, maxMip: 9, baseLevel: 1 }, 9, { exec: someLanes(rng, ws) }),
      r('1D', 0x9, { format: '16_FLOAT', width: 100, maxMip: 6 }, 7),
      r('1D', 0x1, { format: '16_FLOAT', width: 16384, maxMip: 14, lastLevel: 15 }, 16),
      r('3D', 0xf, { format: '8_UINT', width: 10, height: 6, depthField: 19, maxMip: 4 }, 5),
      r('3D', 0x4, { format: '8_UINT', width: 10, height: 6, depthField: 19, maxMip: 4, baseLevel: 1, lastLevel: 3 }, 3),
      r('CUBE', 0xf, { format: '32_UINT', width: 8, height: 8, depthField: 11, maxMip: 3 }, 4),
      r('CUBE', 0x7, { format: '32_UINT', width: 8, height: 8, depthField: 17, baseArray: 6, maxMip: 3 }, 4),
      r('1D_ARRAY', 0xb, { format: '32_SINT', width: 70, baseArray: 2, depthField: 5, maxMip: 2 }, 3),
      r('2D_ARRAY', 0xf, { format: '16_16_FLOAT', width: 20, height: 3, baseArray: 1, depthField: 4, maxMip: 2 }, 3),
      // A tiled T# (SW_MODE 9) and a format no op takes: resinfo reads neither.
      r('2D_ARRAY', 0xd, { format: 0, width: 33, height: 17, baseArray: 0, depthField: 7, maxMip: 5, swMode: 9 }, 6),
      // A16: the level is the address's low half (the high half a pattern).
      r('2D', 0xb, { format: '32_FLOAT', width: 40, height: 24, maxMip: 5 }, 6, { a16: true }),
      // R128: dwords 4..7 read 0 (DEPTH, BASE_ARRAY, MAX_MIP).
      r('2D_ARRAY', 0xf, { format: '32_FLOAT', width: 40, height: 24, maxMip: 2, baseArray: 3, depthField: 9 }, 3, { extra: 'r128' }),
    ],
  }];
}
