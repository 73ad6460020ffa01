// src/image/plan.ts (and src/image/sample.ts's imageSamplePlan) on instructions LLVM 19's assembler
// encodes (llvm-mc-19), and on words that point the address past v255 or that llvm-mc refuses to
// encode: where each coordinate lies, and the forms they refuse.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { decodeAt } from '../../src/decode/index.js';
import type { Instruction } from '../../src/decode/types.js';
import { imageOpPlan } from '../../src/image/plan.js';
import { imageSamplePlan } from '../../src/image/sample.js';

/** The words llvm-mc-19 encodes for one gfx1030 instruction. */
function encode(text: string): number[] {
  const r = spawnSync('llvm-mc-19', ['-arch=amdgcn', '-mcpu=gfx1030', '-show-encoding'], { input: text + '\n', encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const m = /encoding: \[([^\]]+)\]/.exec(r.stdout);
  assert.ok(m?.[1], r.stdout);
  const bytes = m[1].split(',').map((b) => Number(b.trim()));
  const words: number[] = [];
  for (let i = 0; i < bytes.length; i += 4) words.push(((bytes[i] ?? 0) | ((bytes[i + 1] ?? 0) << 8) | ((bytes[i + 2] ?? 0) << 16) | ((bytes[i + 3] ?? 0) << 24)) >>> 0);
  return words;
}

function decode(words: readonly number[]): Instruction {
  const w = new Uint32Array([...words, 0xbf810000]);
  const i = decodeAt('gfx1030', w, 0, w.length, 0);
  assert.equal(i.kind, 'instruction');
  return i as Instruction;
}

test('image plans: coordinates of a 3D load, an A16 2D array load, an NSA store; the real data dwords', () => {
  const p3 = imageOpPlan(decode(encode('image_load v[0:3], v[4:6], s[8:15] dmask:0xf dim:SQ_RSRC_IMG_3D unorm')));
  assert.ok(typeof p3 !== 'string', String(p3));
  assert.deepEqual(p3.coords, { x: { vgpr: 4 }, y: { vgpr: 5 }, z: { vgpr: 6 } });
  assert.equal(p3.dataDwords, 4);
  assert.equal(p3.srsrc, 8);
  const pa = imageOpPlan(decode(encode('image_load_mip v[0:1], v[2:3], s[8:15] dmask:0x3 dim:SQ_RSRC_IMG_2D_ARRAY unorm a16')));
  assert.ok(typeof pa !== 'string', String(pa));
  assert.deepEqual(pa.coords, { x: { vgpr: 2, half: 0 }, y: { vgpr: 2, half: 1 }, z: { vgpr: 3, half: 0 }, mip: { vgpr: 3, half: 1 } });
  const ps = imageOpPlan(decode(encode('image_store v0, [v7, v3], s[8:15] dmask:0x5 dim:SQ_RSRC_IMG_2D unorm d16')));
  assert.ok(typeof ps !== 'string', String(ps));
  assert.deepEqual(ps.coords, { x: { vgpr: 7 }, y: { vgpr: 3 } });
  assert.equal(ps.dataDwords, 1);
});

test('image plans: an address that runs past v255 is refused, not read from v256', () => {
  // image_load v[0:3], v[253:255], ... dim:3D with its vaddr field set to 255: three address
  // dwords from v255 (LLVM prints one register there).
  const words = encode('image_load v[0:3], v[253:255], s[0:7] dmask:0xf dim:SQ_RSRC_IMG_3D unorm');
  const w1 = ((words[1] ?? 0) & ~0xff) | 0xff;
  const p = imageOpPlan(decode([words[0] ?? 0, w1 >>> 0]));
  assert.equal(p, 'image_load: its address VGPRs pass v255 (its dim and a16 need 3 from v255)');
  const ok = imageOpPlan(decode(words));
  assert.ok(typeof ok !== 'string' && ok.coords.z?.vgpr === 255);
});

test('sample and gather4 plans (src/image/sample.ts): the offsets, bias and gradient dwords before the coordinates, A16 halves, the LOD, NSA; gather4\'s four data dwords', () => {
  const plan = (text: string) => {
    const p = imageSamplePlan(decode(encode(text)));
    assert.ok(typeof p !== 'string', `${text}: ${String(p)}`);
    return p;
  };
  // _b_o on a 2D array: offsets v4, bias v5, then x, y, layer.
  const bo = plan('image_sample_b_o v[0:3], v[4:8], s[8:15], s[16:19] dmask:0xf dim:SQ_RSRC_IMG_2D_ARRAY');
  assert.equal(bo.offset, 4);
  assert.deepEqual(bo.coords, { x: { vgpr: 6 }, y: { vgpr: 7 }, z: { vgpr: 8 } });
  assert.equal(bo.lodForm, 'implicit');
  assert.equal(bo.ssamp, 16);
  // _d on 3D: six 32-bit gradients, then x, y, z.
  const d3 = plan('image_sample_d v[0:1], v[2:10], s[8:15], s[16:19] dmask:0x3 dim:SQ_RSRC_IMG_3D');
  assert.deepEqual(d3.coords, { x: { vgpr: 8 }, y: { vgpr: 9 }, z: { vgpr: 10 } });
  assert.equal(d3.dataDwords, 2);
  // _d_g16 on 3D: four packed gradient dwords.
  const g16 = plan('image_sample_d_g16 v0, v[2:8], s[8:15], s[16:19] dmask:0x1 dim:SQ_RSRC_IMG_3D');
  assert.deepEqual(g16.coords, { x: { vgpr: 6 }, y: { vgpr: 7 }, z: { vgpr: 8 } });
  // _l with A16 on 2D: x|y in v2, lod in v3's low half.
  const la = plan('image_sample_l v0, v[2:3], s[8:15], s[16:19] dmask:0x9 dim:SQ_RSRC_IMG_2D a16 d16');
  assert.deepEqual(la.coords, { x: { vgpr: 2, half: 0 }, y: { vgpr: 2, half: 1 } });
  assert.deepEqual(la.lod, { vgpr: 3, half: 0 });
  assert.equal(la.lodForm, 'l');
  assert.equal(la.dataDwords, 1);
  // NSA _lz_o on 2D.
  const nsa = plan('image_sample_lz_o v[0:3], [v9, v4, v7], s[8:15], s[16:19] dmask:0xf dim:SQ_RSRC_IMG_2D');
  assert.equal(nsa.offset, 9);
  assert.deepEqual(nsa.coords, { x: { vgpr: 4 }, y: { vgpr: 7 } });
  assert.equal(nsa.lodForm, 'lz');
  // gather4: four data dwords (two with d16), the component dmask names.
  const g = plan('image_gather4_lz v[0:3], v[4:5], s[8:15], s[16:19] dmask:0x4 dim:SQ_RSRC_IMG_2D');
  assert.equal(g.op, 'gather4');
  assert.equal(g.component, 2);
  assert.equal(g.dataDwords, 4);
  assert.equal(plan('image_gather4_lz v[0:1], v[4:5], s[8:15], s[16:19] dmask:0x1 dim:SQ_RSRC_IMG_2D d16').dataDwords, 2);
  // Refusals from the words: gather4 with two dmask bits (llvm-mc refuses to encode it: its word with
  // DMASK bit 1 set by hand), on 3D; a cube; a _c form.
  const two = encode('image_gather4_lz v[0:3], v[4:5], s[8:15], s[16:19] dmask:0x1 dim:SQ_RSRC_IMG_2D');
  two[0] = ((two[0] ?? 0) | (0x2 << 8)) >>> 0;
  const p2 = imageSamplePlan(decode(two));
  assert.ok(typeof p2 === 'string' && /one component/.test(p2), JSON.stringify(p2));
  for (const [text, why] of [
    ['image_gather4_lz v[0:3], v[4:6], s[8:15], s[16:19] dmask:0x1 dim:SQ_RSRC_IMG_3D', /on a 3d resource/],
    ['image_sample v[0:3], v[4:6], s[8:15], s[16:19] dmask:0xf dim:SQ_RSRC_IMG_CUBE', /cube/],
    ['image_sample_c_lz v[0:3], v[4:6], s[8:15], s[16:19] dmask:0xf dim:SQ_RSRC_IMG_2D', /depth compare/],
  ] as const) {
    const p = imageSamplePlan(decode(encode(text)));
    assert.ok(typeof p === 'string' && why.test(p), `${text}: ${JSON.stringify(p)}`);
  }
});
