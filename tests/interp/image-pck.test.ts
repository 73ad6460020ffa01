// image_get_resinfo and the _pck image loads/stores on the interpreter (src/interp/units/mimg.ts)
// against expectations written here: resinfo's numbers from the T# each op was given
// (./image-pck-kernels.ts), computed plainly; a pck load's VGPRs from the texel's raw bytes (its
// place worked out by hand for the scenarios' simple layouts), zero- or sign-extended; a pck
// store's bytes put into a copy of the image. Then the refusals, each with the instruction and
// why. Every kernel goes through llvm-mc-19 (tests/harness/kernel.ts), wave32 and wave64.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Shader } from '../../src/container/shader.js';
import { UnimplementedError } from '../../src/interp/errors.js';
import { assembleShaders } from '../harness/kernel.js';
import { runKernel } from './harness.js';
import { type Dim, imageBuffers, imageKernel, type ImageOp, type ImageScenario, preset, type TsharpDesc } from './image-kernels.js';
import { imagePckScenarios, imageResinfoScenarios } from './image-pck-kernels.js';

const widthsOf = (fmt: string): number[] => fmt.replace(/_[A-Z]+$/, '').split('_').map(Number);
const u32 = (b: Uint8Array, at: number): number => ((b[at] ?? 0) | ((b[at + 1] ?? 0) << 8) | ((b[at + 2] ?? 0) << 16) | ((b[at + 3] ?? 0) << 24)) >>> 0;
const hex = (v: number) => (v >>> 0).toString(16);
const formatName = (t: TsharpDesc): string => {
  assert.ok(typeof t.format === 'string');
  return t.format;
};

/**
 * Where a lane's texel is, for the scenarios' two layouts: a 2D image of one level (rows of 256
 * bytes: y * 256 + x * bytes) and a 1D chain of two levels whose level 1 fits 256 bytes (level 1 at
 * 0, level 0 at 256).
 */
function place(op: ImageOp, l: number): { ok: boolean; offset: number } {
  const t = op.t, bpe = widthsOf(formatName(t)).reduce((a, b) => a + b, 0) / 8;
  const c = (op.coords[l] ?? []).map((v) => (op.a16 ? v & 0xffff : v >>> 0));
  const x = c[0] ?? 0;
  if (op.dim === '2D') {
    assert.ok((t.maxMip ?? 0) === 0 && !op.mnemonic.includes('_mip') && t.width * bpe <= 256);
    const y = c[1] ?? 0;
    return { ok: x < t.width && y < (t.height ?? 1), offset: y * 256 + x * bpe };
  }
  assert.ok(op.dim === '1D' && t.maxMip === 1 && (t.width >> 1) * bpe <= 256 && t.width * bpe > 256);
  const base = t.baseLevel ?? 0, last = t.lastLevel ?? 1;
  const mip = op.mnemonic.includes('_mip') ? c[1] ?? 0 : 0;
  const level = base + mip;
  const ok = base <= last && mip <= last - base && x < Math.max(t.width >> level, 1);
  return { ok, offset: (level === 1 ? 0 : 256) + x * bpe };
}

/** resinfo's x, y, z, w for a level of a T#, the rules of src/interp/units/mimg.ts's header written out. */
function resinfo(dim: Dim, t0: TsharpDesc, r128: boolean, mip: number): number[] {
  const t: TsharpDesc = r128 ? { ...t0, depthField: 0, baseArray: 0 } : t0;
  const base = t.baseLevel ?? 0, last = t.lastLevel ?? t.maxMip ?? 0;
  const level = base + mip;
  const size = (n: number) => Math.max(Math.floor(n / 2 ** level), 1);
  const layers = (t.depthField ?? 0) - (t.baseArray ?? 0) + 1;
  const x = size(t.width);
  const y = dim === '1D_ARRAY' ? layers : size(t.height ?? 1);
  const z = dim === '3D' ? size((t.depthField ?? 0) + 1) : layers;
  return [x, y, z, last - base + 1];
}

/** The out records and the image after the run, by the rules above. */
function expected(sc: ImageScenario, input: Uint8Array): { out: number[][][]; image: Uint8Array } {
  const img = sc.image.slice();
  const nOps = sc.ops.length;
  const out = Array.from({ length: sc.ws }, () => Array.from({ length: nOps }, () => [0, 0, 0, 0]));
  sc.ops.forEach((op, k) => {
    const active = (l: number) => op.exec === undefined || ((op.exec >> BigInt(l)) & 1n) === 1n;
    const chans = [0, 1, 2, 3].filter((c) => (op.dmask >> c) & 1);
    for (let l = 0; l < sc.ws; l++) {
      const rec = out[l]?.[k] as number[];
      const regs = [0, 1, 2, 3].map((r) => preset(k, r));
      if (op.mnemonic === 'image_get_resinfo') {
        if (active(l)) {
          const v = resinfo(op.dim, op.t, /\br128\b/.test(op.extra ?? ''), (op.coords[l]?.[0] ?? 0) & (op.a16 ? 0xffff : 0xffffffff));
          chans.forEach((c, j) => { regs[j] = (v[c] ?? 0) >>> 0; });
        }
        rec.splice(0, 4, ...regs);
        continue;
      }
      const ws = widthsOf(formatName(op.t));
      const p = place(op, l);
      if (op.mnemonic.startsWith('image_load')) {
        if (active(l)) {
          chans.forEach((c, j) => {
            if (!p.ok) { regs[j] = 0; return; }
            if (ws[0] === 32) { regs[j] = u32(img, p.offset + 4 * c); return; }
            const w = ws[0] ?? 0;
            const raw = w === 8 ? img[p.offset] ?? 0 : (img[p.offset] ?? 0) | ((img[p.offset + 1] ?? 0) << 8);
            const neg = op.mnemonic.endsWith('_sgn') && raw >= 2 ** (w - 1);
            regs[j] = (neg ? raw - 2 ** w : raw) >>> 0;
          });
        }
        rec.splice(0, 4, ...regs);
      } else {
        if (!active(l) || !p.ok) continue;
        const d = [0, 1, 2, 3].map((i) => u32(input, 32 * (l * nOps + k) + 16 + 4 * i));
        const bytes: number[] = ws[0] === 32 ? ws.flatMap((_, c) => [0, 8, 16, 24].map((s) => ((d[c] ?? 0) >>> s) & 0xff)) : [(d[0] ?? 0) & 0xff, ((d[0] ?? 0) >>> 8) & 0xff].slice(0, (ws[0] ?? 8) / 8);
        bytes.forEach((b, i) => { img[p.offset + i] = b; });
      }
    }
  });
  return { out, image: img };
}

const DIRECTIVES = ['.amdhsa_user_sgpr_kernarg_segment_ptr 1', '.amdhsa_kernarg_size 64'];
const shaders = new Map<string, Shader>();
function kernels(scs: readonly ImageScenario[]): void {
  for (const ws of [32, 64] as const) {
    const batch = scs.filter((s) => s.ws === ws && !shaders.has(s.name));
    if (!batch.length) continue;
    const got = assembleShaders('gfx1030', batch.map((sc) => ({ name: sc.name, body: imageKernel(sc), wave64: ws === 64, vgprs: 32, sgprs: 56, directives: DIRECTIVES })));
    for (const [k, v] of got) shaders.set(k, v);
  }
}

function run(sc: ImageScenario): Uint8Array[] {
  kernels([sc]);
  const s = shaders.get(sc.name);
  assert.ok(s, sc.name);
  return runKernel(s, imageBuffers(sc), { grid: [sc.ws, 1, 1], block: [sc.ws, 1, 1], maxSteps: 1_000_000 }).buffers;
}

const all = [...imagePckScenarios(32), ...imagePckScenarios(64), ...imageResinfoScenarios(32), ...imageResinfoScenarios(64)];
kernels(all);

for (const sc of all) {
  test(`${sc.name} (${sc.ops.map((o) => o.mnemonic.replace(/^image_/, '')).join(', ')}): the interpreter equals the expectations`, () => {
    const [out, input, , work, after] = run(sc);
    assert.ok(out && input && work && after);
    const want = expected(sc, input);
    let loaded = 0;
    sc.ops.forEach((op, k) => {
      for (let l = 0; l < sc.ws; l++) {
        const got: number[] = [0, 1, 2, 3].map((d): number => u32(out, 16 * (l * sc.ops.length + k) + 4 * d));
        const rec = op.mnemonic.startsWith('image_store') ? [0, 0, 0, 0] : want.out[l]?.[k] ?? [];
        assert.deepEqual(got.map(hex), rec.map(hex), `${sc.name} op ${k} (${op.mnemonic} ${String(op.t.format)}) lane ${l}, coords ${JSON.stringify(op.coords[l])}`);
        if (!op.mnemonic.startsWith('image_store') && rec.some((v, j) => v !== preset(k, j) && v !== 0)) loaded++;
      }
    });
    assert.ok(loaded > sc.ws, 'the ops gave values');
    for (let b = 0; b < after.length; b++) if (after[b] !== want.image[b]) assert.fail(`${sc.name}: the image after the run differs at byte ${b}: ${after[b]} (expected ${want.image[b]})`);
    assert.ok(work.every((b) => b === 0));
  });
}

test('the expectations themselves: hand-worked resinfo values and pck places', () => {
  // 2D 13 x 7, level 2: 3 x 1; 4 levels.
  assert.deepEqual(resinfo('2D', { format: '32_FLOAT', width: 13, height: 7, maxMip: 3 }, false, 2), [3, 1, 1, 4]);
  // A cube array of 2 cubes from face 6 (DEPTH 17): 12 faces.
  assert.deepEqual(resinfo('CUBE', { format: '32_UINT', width: 8, height: 8, depthField: 17, baseArray: 6, maxMip: 3 }, false, 1), [4, 4, 12, 4]);
  // 1D array 70 wide, slices 2..5: (35, 4 layers) at level 1.
  assert.deepEqual(resinfo('1D_ARRAY', { format: '32_SINT', width: 70, baseArray: 2, depthField: 5, maxMip: 2 }, false, 1).filter((_, k) => k !== 2), [35, 4, 3]);
  // 3D 10 x 6 x 20, view of levels 1..3, level 2 of the view (3): 1 x 1 x 2.
  assert.deepEqual(resinfo('3D', { format: '8_UINT', width: 10, height: 6, depthField: 19, maxMip: 4, baseLevel: 1, lastLevel: 3 }, false, 2), [1, 1, 2, 3]);
  const op: ImageOp = { mnemonic: 'image_load_mip_pck', dim: '1D', dmask: 1, t: { format: '16_UINT', width: 200, maxMip: 1 }, coords: [[5, 1], [5, 0], [100, 1]] };
  assert.deepEqual([0, 1, 2].map((l) => place(op, l)), [{ ok: true, offset: 10 }, { ok: true, offset: 266 }, { ok: false, offset: 200 }]);
});

// ---- Refusals ----

function refused(op: ImageOp, why: RegExp, ws: 32 | 64 = 32): void {
  const sc: ImageScenario = { name: `refused_pck${shaders.size}`, ws, image: new Uint8Array(4096), ops: [op] };
  assert.throws(() => run(sc), (e: unknown) => {
    assert.ok(e instanceof UnimplementedError, String(e));
    assert.match(e.message, /^pc 0x[0-9a-f]+: image_\w+ v/, 'the error names the instruction');
    assert.match(e.message, why);
    return true;
  });
}

const lanesOf = (n: number, c: number[]) => Array.from({ length: n }, () => c);

test('resinfo refusals: a level past the view, TYPE mismatch, a sliced 3D view, channels with no established value (static)', () => {
  for (const ws of [32, 64] as const) {
    const r = (dim: Dim, dmask: number, t: TsharpDesc, level: number): ImageOp => ({ mnemonic: 'image_get_resinfo', dim, dmask, t, coords: lanesOf(ws, [level]) });
    refused(r('2D', 0xb, { format: '32_FLOAT', width: 8, height: 8, maxMip: 3 }, 4), /image_get_resinfo: level 4 of a view of levels 0\.\.3 \(BASE_LEVEL \+ level past LAST_LEVEL\) is not implemented/, ws);
    refused(r('2D', 0x9, { format: '32_FLOAT', width: 8, height: 8, maxMip: 3, baseLevel: 3, lastLevel: 2 }, 0), /level 0 of a view of levels 3\.\.2/, ws);
    refused(r('2D', 0x1, { format: '32_FLOAT', width: 8, height: 8, type: 10 }, 0), /image_get_resinfo: the T#'s TYPE 10 is not its dim's \(2d: TYPE 9\)/, ws);
    refused(r('3D', 0x4, { format: '32_FLOAT', width: 8, height: 8, depthField: 7, arrayPitch: 1 }, 0), /image_get_resinfo: a 3D T# with ARRAY_PITCH 1 \(a sliced view\) is not implemented/, ws);
    refused(r('1D', 0x2, { format: '32_FLOAT', width: 8 }, 0), /image_get_resinfo with dmask 0x2 on a 1d resource is not modelled \(what it returns in channel y is not established\)/, ws);
    refused(r('2D', 0x7, { format: '32_FLOAT', width: 8, height: 8 }, 0), /dmask 0x7 on a 2d resource .*channel z is not established/, ws);
    refused(r('1D_ARRAY', 0xc, { format: '32_FLOAT', width: 8, depthField: 3 }, 0), /on a 1dArray resource .*channel z is not established/, ws);
  }
});

test('pck refusals: formats of narrow multi-component elements, dmask past the components, DST_SEL, a store leaving out a component, tiled', () => {
  const T: TsharpDesc = { format: '32_32_UINT', width: 8, height: 8 };
  const op = (mnemonic: string, dmask: number, t: TsharpDesc): ImageOp => ({ mnemonic, dim: '2D', dmask, t, coords: lanesOf(32, [1, 1]) });
  refused(op('image_load_pck', 0xf, { ...T, format: '8_8_8_8_UINT' }), /image_load_pck with BUF_FMT_8_8_8_8_UINT: not implemented \(only a format of one 8- or 16-bit component or of 32-bit components; how a packed load spreads narrower components over VGPRs is not established\)/);
  refused(op('image_load_pck_sgn', 0x1, { ...T, format: '16_16_SINT' }), /image_load_pck_sgn with BUF_FMT_16_16_SINT: not implemented/);
  refused(op('image_load_pck', 0x1, { ...T, format: '32_32_32_FLOAT' }), /image_load_pck with BUF_FMT_32_32_32_FLOAT: not implemented/);
  refused(op('image_load_pck', 0x7, T), /image_load_pck with BUF_FMT_32_32_UINT: dmask 0x7 names channel z, past the format's components \(not established\)/);
  refused(op('image_load_pck', 0x3, { ...T, dstSel: [5, 4, 6, 7] }), /image_load_pck: DST_SEL 5 in channel x \(only the identity is implemented for a packed load\)/);
  refused(op('image_load_pck', 0x1, { ...T, swMode: 1 }), /image_load_pck: a tiled image \(SW_MODE 1\) is not implemented/);
  refused(op('image_store_pck', 0x1, T), /image_store_pck with BUF_FMT_32_32_UINT: dmask 0x1 leaves out component y of the format/);
  refused(op('image_store_pck', 0x1, { ...T, format: '10_11_11_UNORM' }), /image_store_pck with BUF_FMT_10_11_11_UNORM: not implemented \(only a format of one 8- or 16-bit component or of 32-bit components\)/);
});

test('with EXEC empty resinfo and pck do nothing and check nothing', () => {
  for (const op of [
    { mnemonic: 'image_get_resinfo', dim: '2D', dmask: 0xb, t: { format: '32_FLOAT', width: 8, height: 8 }, coords: lanesOf(32, [9]), exec: 0n },
    { mnemonic: 'image_load_pck', dim: '2D', dmask: 0xf, t: { format: '8_8_8_8_UINT', width: 8, height: 8 }, coords: lanesOf(32, [1, 1]), exec: 0n },
  ] satisfies ImageOp[]) {
    const [out] = run({ name: `empty_pck${shaders.size}`, ws: 32, image: new Uint8Array(256), ops: [op] });
    assert.ok(out);
    for (let l = 0; l < 32; l++) assert.equal(u32(out, 16 * l), preset(0, 0));
  }
});
