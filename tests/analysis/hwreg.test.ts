// hwreg(id, offset, size) decoding, field masks, the per-target id table (checked against
// llvm-mc-19's symbolic names) and the MODE layout, with expectations from the ISA rules.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TARGETS } from '../../src/isa/types.js';
import {
  decodeHwreg, hwregDef, hwregFieldMask, HWREGS, launchMode, MODE_FIELDS, MODE_LAUNCH_MASK, MODE_TRACKED_MASK, modeFieldsFor,
} from '../../src/analysis/hwreg.js';
import { assembleKernels, assembleShaders } from '../harness/kernel.js';

test('decodeHwreg: id [5:0], offset [10:6], size-1 [15:11] for every simm16', () => {
  for (let v = 0; v < 0x10000; v++) {
    const f = decodeHwreg(v);
    assert.equal(f.id, v % 64);
    assert.equal(f.offset, Math.floor(v / 64) % 32);
    assert.equal(f.size, Math.floor(v / 2048) + 1);
  }
});

test('hwregFieldMask: bits offset..offset+size-1 that exist (cut at bit 31)', () => {
  for (let offset = 0; offset < 32; offset++) {
    for (let size = 1; size <= 32; size++) {
      let want = 0;
      for (let i = 0; i < 32; i++) if (i >= offset && i < offset + size) want += 2 ** i;
      assert.equal(hwregFieldMask({ id: 1, offset, size }), want, `offset ${offset} size ${size}`);
    }
  }
});

test('every named hwreg assembles with llvm-mc-19 on its targets to its id; not on the others', () => {
  for (const t of TARGETS) {
    const defs = HWREGS.filter((d) => hwregDef(d.id, t) !== undefined);
    const body = defs.map((d) => `s_getreg_b32 s0, hwreg(${d.name}, 3, 7)`).join('\n') + '\ns_endpgm';
    const shader = assembleShaders(t, [{ name: `names_${t}`, body }]).get(`names_${t}`);
    assert.ok(shader);
    defs.forEach((d, i) => {
      const w = shader.words[i] ?? 0;
      // SOPK: simm16 in bits 15:0.
      assert.equal(w & 0x3f, d.id, `${t} ${d.name}`);
      assert.equal((w >>> 6) & 0x1f, 3);
      assert.equal(((w >>> 11) & 0x1f) + 1, 7);
    });
    for (const d of HWREGS.filter((x) => hwregDef(x.id, t) === undefined)) {
      assert.throws(() => assembleKernels(t, [{ name: 'bad', body: `s_getreg_b32 s0, hwreg(${d.name})\ns_endpgm` }]), /llvm-mc failed/, `${t} ${d.name}`);
    }
  }
});

test('MODE layout: fields do not overlap; tracked bits 20:0 and 26:23; launch bits 9:0 and 23', () => {
  let seen = 0;
  for (const f of MODE_FIELDS) {
    assert.ok(f.offset + f.width <= 32, f.name);
    for (let i = f.offset; i < f.offset + f.width; i++) {
      assert.equal((seen >>> i) & 1, 0, `${f.name} overlaps at bit ${i}`);
      seen |= 1 << i;
    }
  }
  // RDNA2 ISA MODE: FP_ROUND 3:0, FP_DENORM 7:4, DX10_CLAMP 8, IEEE 9, LOD_CLAMPED 10, DEBUG 11,
  // EXCP_EN 20:12, FP16_OVFL 23, POPS_PACKER0/1 24/25, DISABLE_PERF 26.
  let want = 0;
  for (let i = 0; i <= 20; i++) want += 2 ** i;
  for (let i = 23; i <= 26; i++) want += 2 ** i;
  assert.equal(seen >>> 0, want);
  assert.equal(MODE_TRACKED_MASK, want);
  assert.equal(MODE_LAUNCH_MASK, 0x3ff | (1 << 23));
  assert.deepEqual(modeFieldsFor('f32'), { round: 0, denorm: 4 });
  assert.deepEqual(modeFieldsFor('f16'), { round: 2, denorm: 6 });
  assert.deepEqual(modeFieldsFor('f64'), { round: 2, denorm: 6 });
});

test('launchMode: float mode byte in 7:0, DX10_CLAMP in 8, IEEE in 9, FP16_OVFL in 23', () => {
  for (let m = 0; m < 256; m++) {
    for (const dx10Clamp of [false, true]) for (const ieeeMode of [false, true]) for (const fp16Overflow of [false, true]) {
      assert.equal(launchMode({ floatMode: m, dx10Clamp, ieeeMode, fp16Overflow }), m + (dx10Clamp ? 256 : 0) + (ieeeMode ? 512 : 0) + (fp16Overflow ? 2 ** 23 : 0));
    }
  }
});
