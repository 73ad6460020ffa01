// src/image/plan.ts on instructions LLVM 19's assembler encodes (llvm-mc-19), and on words that
// point the address past v255: where each coordinate lies, and the forms it refuses.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { decodeAt } from '../../src/decode/index.js';
import type { Instruction } from '../../src/decode/types.js';
import { imageOpPlan } from '../../src/image/plan.js';

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
