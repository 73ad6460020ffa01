// Buffer format conversions in the interpreter (issue 7): MTBUF static formats and the V#'s
// format through MUBUF, 32-bit and d16 results, the d16 halves a load keeps, d16 stores of 16-bit
// components, and the formats and stores that stay refused. Expected values come from
// ./buffer-format-ref.ts (an independent model of the rules: see its header), with a few worked
// out here by hand.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Shader } from '../../src/container/shader.js';
import { dispatch } from '../../src/interp/dispatch.js';
import { UnimplementedError } from '../../src/interp/errors.js';
import { GlobalMemory } from '../../src/interp/memory.js';
import { GFX10_BUFFER_FORMATS } from '../../src/isa/tables/mtbuf.js';
import { assembleShaders } from '../harness/kernel.js';
import { Rng } from '../harness/rng.js';
import {
  CONVERTING_STORES, FORMAT_LOADS, formatData, formatKernel, rawDword3, RESULT_REGS, STORE_CUT, STORE_DATA_DWORDS, STORE_LANE_BYTES, STORE_VSHARP_FORMATS, storeData, storeKernel,
} from './buffer-format-kernels.js';
import { channels, snorm, unorm } from './buffer-format-ref.js';
import { type Num, refPack } from './format-store-ref.js';
import { halfChannel, intChannel, storeChannel } from './image-kernels.js';

const fmt = (name: string): number => {
  const k = GFX10_BUFFER_FORMATS.indexOf(`BUF_FMT_${name}`);
  assert.ok(k > 0, name);
  return k;
};

function kernel(name: string, body: string, wave64: boolean): Shader {
  const s = assembleShaders('gfx1030', [{ name, body, vgprs: 64, sgprs: 32, wave64, directives: ['.amdhsa_user_sgpr_kernarg_segment_ptr 1', '.amdhsa_kernarg_size 32'] }]).get(name);
  assert.ok(s, name);
  return s;
}

function run(shader: Shader, lanes: number, bufs: Uint8Array[], w3: [number, number]): Uint8Array[] {
  const mem = new GlobalMemory();
  const kernarg = new Uint8Array(32);
  const kv = new DataView(kernarg.buffer);
  const copies = bufs.map((b) => b.slice());
  copies.forEach((b, k) => kv.setBigUint64(8 * k, BigInt(mem.map(`buf${k}`, b)), true));
  kv.setUint32(24, w3[0], true);
  kv.setUint32(28, w3[1], true);
  dispatch(shader, { grid: [lanes, 1, 1], block: [lanes, 1, 1], kernarg, mem, maxSteps: 100_000 });
  return copies;
}

test('hand-worked conversions: 128/255, 1/65535 as an f16 subnormal, snorm -128 and -127 both -1.0', () => {
  // 128/255 = 0.10000000 10000000 ... (binary): exponent -1, mantissa 0000000 10000000 10000000, next bit 1: up.
  assert.equal(unorm(128, 8, 'f32'), 0x3f008081);
  // 1/65535 = 2^-16 (1 + 2^-16 + ...): in f16 a subnormal, 2^-16 / 2^-24 = 256 = 0x100; the next bits are 0.
  assert.equal(unorm(1, 16, 'f16'), 0x0100);
  assert.equal(snorm(0x80, 8, 'f32'), 0xbf800000);
  assert.equal(snorm(0x81, 8, 'f32'), 0xbf800000);
  // 1/127 = 2^-7 * 1.0000001 0000001 ...: 0x3c010204 (mantissa 0000001000000100000010, then 0000 1: 0x010204 + 0).
  assert.equal(snorm(1, 8, 'f32'), 0x3c010204);
});

for (const wave64 of [false, true]) {
  const ws = wave64 ? 64 : 32;
  test(`format loads (UNORM, SNORM, SCALED, INT, the small floats; 32-bit and d16 results, the kept halves) and d16 stores follow the conversion rules, wave${ws}`, () => {
    const data = formatData(ws, (() => { const r = new Rng(5); return () => r.u32(); })());
    const vFmt = '16_16_16_16_SNORM', sFmt = '16_16_UINT';
    const [out, , stored] = run(kernel(`fmt${ws}`, formatKernel(wave64), wave64), ws, [new Uint8Array(4 * RESULT_REGS.length * ws), data, new Uint8Array(16 * ws)], [rawDword3(fmt(vFmt)), rawDword3(fmt(sFmt))]);
    assert.ok(out && stored);
    const ov = new DataView(out.buffer), sv = new DataView(stored.buffer);
    for (let l = 0; l < ws; l++) {
      const el = data.subarray(8 * l, 8 * l + 8);
      const reg = (r: number) => ov.getUint32(4 * (l * RESULT_REGS.length + RESULT_REGS.indexOf(r)), true);
      const preset = (r: number) => (0xa5a50000 + r) >>> 0;
      for (const ld of FORMAT_LOADS) {
        const name = ld.format === 'vsharp' ? vFmt : ld.format;
        const layout = name.replace(/_(UNORM|SNORM|USCALED|SSCALED|UINT|SINT|FLOAT)$/, '');
        const size = layout.split('_').reduce((a, w) => a + Number(w), 0) / 8;
        const ch = channels(name, el.subarray(0, size), ld.d16).slice(0, ld.comps);
        let want: number[];
        if (!ld.d16) want = ch;
        else if (ld.hi) want = [((preset(ld.first) & 0xffff) | ((ch[0] ?? 0) << 16)) >>> 0];
        else {
          want = [];
          for (let k = 0; k < ld.comps; k += 2) want.push((((ch[k] ?? 0) | ((k + 1 < ld.comps ? ch[k + 1] ?? 0 : preset(ld.first + k / 2) >>> 16) << 16)) >>> 0));
        }
        const got = want.map((_, k) => reg(ld.first + k));
        assert.deepEqual(got.map((x) => x.toString(16)), want.map((x) => x.toString(16)), `lane ${l}: ${ld.asm}`);
      }
      // The non-format d16 loads: ubyte_d16_hi of byte 1, sbyte_d16 of byte 2, short_d16 of bytes 3-4,
      // sbyte_d16_hi of byte 6, ubyte_d16 of byte 7, short_d16_hi of bytes 5-6; the other half kept.
      const by = (k: number) => el[k] ?? 0, sx = (x: number) => ((x << 24) >> 24) & 0xffff;
      const keepLo = (r: number, h: number) => ((preset(r) & 0xffff) | (h << 16)) >>> 0, keepHi = (r: number, h: number) => ((preset(r) & 0xffff0000) | h) >>> 0;
      assert.deepEqual([54, 55, 56, 57, 58, 59].map(reg), [keepLo(54, by(1)), keepHi(55, sx(by(2))), keepHi(56, by(3) | (by(4) << 8)), keepLo(57, sx(by(6))), keepHi(58, by(7)), keepLo(59, by(5) | (by(6) << 8))], `lane ${l}: d16 loads`);
      // The d16 stores: 16_16_16_16_FLOAT gets v[39:40]'s four halves at 16 l; the 16_16_UINT V# gets v41's high
      // half at 16 l + 8 and v43's two halves at 16 l + 10.
      const r = (x: number) => reg(x);
      const halves = [r(39) & 0xffff, r(39) >>> 16, r(40) & 0xffff, r(40) >>> 16, r(41) >>> 16, r(43) & 0xffff, r(43) >>> 16];
      halves.forEach((h, k) => assert.equal(sv.getUint16(16 * l + 2 * k, true), h, `lane ${l}: stored half ${k}`));
    }
  });
}

/** The target after the kernel's stores, by the reference: each store's components converted by refPack, range-checked as the V# says. */
function storesExpected(data: Uint8Array, target: Uint8Array, ws: number, vFmt: string): Uint8Array {
  const out = target.slice();
  const dv = new DataView(data.buffer);
  const limit = STORE_LANE_BYTES * ws - STORE_CUT;
  for (let l = 0; l < ws; l++) {
    const vgpr = (r: number) => dv.getUint32(4 * (STORE_DATA_DWORDS * l + r - 2), true);
    for (const st of CONVERTING_STORES) {
      const name = st.format === 'vsharp' ? vFmt : st.format;
      const widths = name.replace(/_[A-Z]+$/, '').split('_').map(Number).reverse(); // x first
      const num = /_([A-Z]+)$/.exec(name)?.[1] as Num;
      const chan = (c: number) => (!st.d16 ? vgpr(st.first + c) : (vgpr(st.first + (c >> 1)) >>> (16 * (c & 1))) & 0xffff);
      const base = STORE_LANE_BYTES * l + st.offset;
      let at = 0;
      const whole = widths.some((w) => w % 8 !== 0);
      let el = 0n;
      widths.forEach((w, c) => {
        const bits = c < st.n ? refPack(num, w, chan(c), st.d16) : 0;
        if (whole) el |= BigInt(bits) << BigInt(at);
        else if (c < st.n && base + at / 8 + w / 8 <= limit) for (let b = 0; b < w / 8; b++) out[base + at / 8 + b] = (bits >>> (8 * b)) & 0xff;
        at += w;
      });
      if (whole && base + 4 <= limit) for (let b = 0; b < 4; b++) out[base + b] = Number((el >> BigInt(8 * b)) & 0xffn);
    }
  }
  return out;
}

for (const wave64 of [false, true]) {
  const ws = wave64 ? 64 : 32;
  test(`converting format stores (MTBUF static formats, MUBUF V# formats, f32 / integer / d16 channels, range-checked) equal the reference, wave${ws}`, () => {
    const k = kernel(`store${ws}`, storeKernel(wave64), wave64);
    const rng = new Rng(0x5704e + ws);
    let changed = 0;
    for (const vFmt of STORE_VSHARP_FORMATS) {
      const data = storeData(ws, { f32: () => storeChannel(rng), int: () => intChannel(rng), half: () => halfChannel(rng, rng.int(3) === 0) });
      const target = new Uint8Array(STORE_LANE_BYTES * ws);
      for (let b = 0; b < target.length; b++) target[b] = rng.u32() & 0xff;
      const mem = new GlobalMemory();
      const kernarg = new Uint8Array(32);
      const kv = new DataView(kernarg.buffer);
      const bufs = [data.slice(), target.slice()];
      bufs.forEach((b, j) => kv.setBigUint64(8 * j, BigInt(mem.map(`buf${j}`, b)), true));
      kv.setUint32(16, rawDword3(fmt(vFmt)), true);
      dispatch(k, { grid: [ws, 1, 1], block: [ws, 1, 1], kernarg, mem, maxSteps: 100_000 });
      const want = storesExpected(data, target, ws, vFmt);
      const got = bufs[1] as Uint8Array;
      for (let b = 0; b < got.length; b++) {
        if (got[b] !== want[b]) {
          const l = Math.floor(b / STORE_LANE_BYTES), o = b % STORE_LANE_BYTES;
          const st = [...CONVERTING_STORES].reverse().find((s) => s.offset <= o);
          assert.fail(`V# ${vFmt}: lane ${l} byte ${o} (${st?.asm}): ${got[b]}, the reference ${want[b]}`);
        }
        if (got[b] !== target[b]) changed++;
      }
      // The last lane's bytes past the range stay as they were.
      const last = STORE_LANE_BYTES * (ws - 1);
      for (let b = STORE_LANE_BYTES - STORE_CUT; b < STORE_LANE_BYTES; b++) assert.equal(got[last + b], target[last + b], `last lane byte ${b} out of range`);
    }
    assert.ok(changed > STORE_VSHARP_FORMATS.length * ws * 40, `${changed} bytes stored`);
  });
}

test('format stores that convert now run; refused with the instruction: a 10/11/2-bit format with fewer components named, d16 forms of the 32-bit formats', () => {
  const body = (inst: string, vFmt = '8_8_8_8_UNORM') => `
  s_load_dwordx2 s[8:9], s[0:1], 0x8
  s_waitcnt lgkmcnt(0)
  s_and_b32 s9, s9, 0xffff
  s_mov_b32 s10, 64
  s_mov_b32 s11, 0x${rawDword3(fmt(vFmt)).toString(16)}
  v_mov_b32 v1, 0
  ${inst}
  s_endpgm`;
  for (const inst of [
    'tbuffer_store_format_xyzw v[2:5], v1, s[8:11], 0 format:[BUF_FMT_8_8_8_8_UNORM] offen',
    'buffer_store_format_x v2, v1, s[8:11], 0 offen',
    'tbuffer_store_format_d16_x v2, v1, s[8:11], 0 format:[BUF_FMT_16_UNORM] offen',
  ]) {
    const k = kernel('converts', body(inst), false);
    assert.doesNotThrow(() => run(k, 32, [new Uint8Array(64), new Uint8Array(64)], [0, 0]), inst);
  }
  for (const [inst, why, vFmt] of [
    ['tbuffer_store_format_xy v[2:3], v1, s[8:11], 0 format:[BUF_FMT_10_11_11_FLOAT] offen', /tbuffer_store_format_xy with BUF_FMT_10_11_11_FLOAT: a format store naming 2 of the format's 3 components, which are not whole bytes, is not implemented/, undefined],
    ['buffer_store_format_d16_xyz v[2:3], v1, s[8:11], 0 offen', /buffer_store_format_d16_xyz with BUF_FMT_2_10_10_10_UNORM: a format store naming 3 of the format's 4 components/, '2_10_10_10_UNORM'],
    ['tbuffer_store_format_d16_x v2, v1, s[8:11], 0 format:[BUF_FMT_32_FLOAT] offen', /d16 forms of the 32-bit formats/, undefined],
    ['tbuffer_load_format_d16_x v2, v1, s[8:11], 0 format:[BUF_FMT_32_FLOAT] offen', /d16 forms of the 32-bit formats/, undefined],
  ] as const) {
    const k = kernel('refused', body(inst, vFmt), false);
    assert.throws(() => run(k, 32, [new Uint8Array(64), new Uint8Array(64)], [0, 0]), (e: unknown) => e instanceof UnimplementedError && why.test(e.message), inst);
  }
});
