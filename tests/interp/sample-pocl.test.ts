// image_sample against an oracle we did not write: OpenCL's read_imagef / read_imageui /
// read_imagei through CLK_FILTER_NEAREST samplers on pocl (./image-pocl.py), with
// CLK_NORMALIZED_COORDS_TRUE and _FALSE and CLK_ADDRESS_REPEAT / MIRRORED_REPEAT (normalized only,
// as OpenCL allows) / CLAMP_TO_EDGE / CLAMP, on 2D images of RGBA FLOAT (our 32_32_32_32_FLOAT),
// R FLOAT (32_FLOAT: OpenCL's (r, 0, 0, 1) is our missing components; its CLAMP border is
// (0, 0, 0, 1) by the OpenCL 1.2 spec for CL_R, but pocl returns (0, 0, 0, 0), so the S# there
// has BORDER_COLOR_TYPE 0 as for RGBA: type 1 is checked against the model only), RGBA UNSIGNED_INT32 and SIGNED_INT32 (32_32_32_32_UINT/SINT;
// no CLAMP: our integer border faults). The S# is REPEAT → wrap (0), MIRRORED_REPEAT → mirror (1),
// CLAMP_TO_EDGE → clamp to last texel (2), CLAMP → clamp border (6), under TRUNC_COORD 0 and 1.
//
// Where the readings can disagree, and which coordinates are therefore used: OpenCL applies
// REPEAT and MIRRORED_REPEAT to the normalized coordinate (s − floor(s), |s − 2 rint(s / 2)|) before
// scaling, ours to the texel index after scaling and rounding (src/image/sample.ts): they agree
// except where the scaled mirrored coordinate is an integer in the mirrored half (OpenCL's |s − s'| ·
// w lands on the texel boundary from above, floor(x) from below), so MIRRORED_REPEAT gets only
// coordinates whose scaled value is not an integer. OpenCL floors the f32 product; ours rounds it
// to nearest even at 8 fractional bits first under TRUNC_COORD 0: every coordinate here is k / 2^m
// with a power-of-two size, its scaled value exact with at most 4 fractional bits, so the rounding
// changes nothing. NaN, infinities and subnormal coordinates are left out (OpenCL leaves them
// undefined).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { Rng } from '../harness/rng.js';
import { interpret } from '../runtime/cases.js';
import { content, type Img, type LaneIn, type Sampler, sampleCase } from '../runtime/cases-sample.js';

const ADDRESS = { REPEAT: 0, MIRRORED_REPEAT: 1, CLAMP_TO_EDGE: 2, CLAMP: 6 } as const;
type Address = keyof typeof ADDRESS;
const FORMATS = [
  { order: 'RGBA', type: 'FLOAT', read: 'f', format: '32_32_32_32_FLOAT', comps: 4 },
  { order: 'R', type: 'FLOAT', read: 'f', format: '32_FLOAT', comps: 1 },
  { order: 'RGBA', type: 'UNSIGNED_INT32', read: 'ui', format: '32_32_32_32_UINT', comps: 4 },
  { order: 'RGBA', type: 'SIGNED_INT32', read: 'i', format: '32_32_32_32_SINT', comps: 4 },
] as const;

test('image_sample with point filtering equals pocl\'s read_image{f,ui,i} through CLK_FILTER_NEAREST samplers (normalized and not; REPEAT, MIRRORED_REPEAT, CLAMP_TO_EDGE, CLAMP; TRUNC_COORD 0 and 1) where the readings agree', (t) => {
  const W = 8, H = 4, ws = 64;
  const rng = new Rng(0x9c1);
  const jobs: unknown[] = [];
  const cases: ReturnType<typeof sampleCase>[] = [];
  for (const f of FORMATS) {
    for (const address of Object.keys(ADDRESS) as Address[]) {
      for (const normalized of [true, false]) {
        if (!normalized && (address === 'REPEAT' || address === 'MIRRORED_REPEAT')) continue;
        if (f.read !== 'f' && address === 'CLAMP') continue;
        for (const trunc of [0, 1]) {
          const img: Img = { cls: '2d', format: f.format, w: W, h: H, d: 1, levels: 1 };
          const samp: Sampler = { clampX: ADDRESS[address], clampY: ADDRESS[address], trunc, border: 0 };
          // k / 64 (normalized: × 8 or × 4 keeps at most 4 fractional bits) or k / 16 texels.
          const mirrored = address === 'MIRRORED_REPEAT';
          const pick = (n: number): number => {
            for (;;) {
              const k = rng.int(641) - 320;
              const v = normalized ? k / 64 : k / 16;
              if (mirrored && Number.isInteger(v * n)) continue;
              return v;
            }
          };
          const lanes = Array.from({ length: ws }, (): LaneIn => ({ x: pick(W), y: pick(H), z: 0 }));
          cases.push(sampleCase({ name: `pocl ${f.format} ${address} ${normalized ? 'normalized' : 'unnormalized'} trunc ${trunc}`, img, samp, ins: { suffix: '_lz', dmask: 0xf, unrm: !normalized }, lanes: (l) => lanes[l] as LaneIn, ws }, rng));
          const px = new Uint32Array(W * H * f.comps);
          for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) for (let c = 0; c < f.comps; c++) px[(y * W + x) * f.comps + c] = content(img, x, y, 0, 0, c);
          jobs.push({ order: f.order, type: f.type, read: f.read, width: W, height: H, normalized, address, pixels: Buffer.from(px.buffer).toString('base64'), coords: lanes.flatMap((ln) => [ln.x, ln.y]) });
        }
      }
    }
  }
  const r = spawnSync('/usr/bin/python3', [new URL('./image-pocl.py', import.meta.url).pathname], { input: JSON.stringify(jobs), encoding: 'utf8', maxBuffer: 1 << 26 });
  assert.equal(r.status, 0, `pocl: ${r.stderr}`);
  const pocl = JSON.parse(r.stdout) as string[];
  let compared = 0;
  cases.forEach((c, i) => {
    const ours = interpret(c)[0] as Uint8Array;
    const theirs = Buffer.from(pocl[i] ?? '', 'base64');
    const coords = (jobs[i] as { coords: number[] }).coords;
    for (let l = 0; l < ws; l++) {
      for (let d = 0; d < 4; d++) {
        const a = Buffer.from(ours.buffer, ours.byteOffset).readUInt32LE(16 * l + 4 * d), b = theirs.readUInt32LE(16 * l + 4 * d);
        assert.equal(a.toString(16), b.toString(16), `${c.name}: lane ${l} (${coords[2 * l]}, ${coords[2 * l + 1]}) channel ${d}`);
        compared++;
      }
    }
  });
  t.diagnostic(`pocl: ${cases.length} images, ${compared} channels equal`);
});
