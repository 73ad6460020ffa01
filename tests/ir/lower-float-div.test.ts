// The exact lowerings of the f32 output modifiers, ldexp, sqrt, rsq and the division helpers
// (src/ir/passes/lower-float-modifiers.ts, lower-float-div.ts) against the float model: fast-check
// properties over 64-lane batches of inputs biased to the special values (±0, ±inf, quiet and
// signalling NaNs with payloads, denormals, the largest and smallest normals, values near overflow
// and underflow, operands equal to each other), each batch run through the IR interpreter once as
// the float op (evaluated by src/float) and once lowered to integer IR; every result bit must
// agree in all 4 rounding modes × 4 denormal modes × IEEE on/off (× DX10_CLAMP for clamp).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Builder, type FloatMode, type Inst, IrFunction } from '../../src/ir/ir.js';
import { lowerFloat } from '../../src/ir/passes/lower-float.js';
import { verifyFunction } from '../../src/ir/verify.js';
import { runIrWave } from '../../src/ir/interp.js';
import { GlobalMemory } from '../../src/interp/memory.js';

const LANES = 64;
const STRIDE = 16; // four input dwords per lane; the result goes to a separate buffer

/** out[lane] = body(in[lane][0..3]) (u32 bits); `body` builds the op under test. */
function kernel(base: number, outBase: number, body: (b: Builder, v: Inst[]) => Inst): IrFunction {
  const fn = new IrFunction('k', 64);
  const b = new Builder(fn, fn.addBlock());
  const lane = b.emit('LaneId');
  const t = b.u1(true);
  const addr = (at: number, stride: number, k: number) => b.emit('IAdd64', [b.emit('Pack64', [b.emit('IAdd32', [b.u32(at % 2 ** 32), b.emit('Shl32', [lane, b.u32(Math.log2(stride))])]), b.u32(Math.floor(at / 2 ** 32))]), b.emit('ConstU64', [], [BigInt(4 * k)])]);
  const v = [0, 1, 2, 3].map((k) => b.emit('LoadGlobal32', [t, addr(base, STRIDE, k)]));
  b.emit('StoreGlobal32', [t, addr(outBase, 4, 0), body(b, v)]);
  b.emit('EndProgram');
  return fn;
}

/** Runs `body` on the inputs as float ops and lowered; returns the lane where they differ (with both values). */
function compare(inputs: readonly (readonly number[])[], body: (b: Builder, v: Inst[]) => Inst): string | undefined {
  const outs = [false, true].map((lowered) => {
    const mem = new GlobalMemory();
    const data = new Uint8Array(LANES * STRIDE), out = new Uint8Array(LANES * 4);
    const dv = new DataView(data.buffer);
    inputs.forEach((row, l) => row.forEach((w, k) => dv.setUint32(l * STRIDE + 4 * k, w >>> 0, true)));
    const base = mem.map('in', data), outBase = mem.map('out', out);
    const fn = kernel(base, outBase, body);
    if (lowered) {
      assert.ok(lowerFloat(fn, () => true) >= 1);
      assert.deepEqual(verifyFunction(fn), []);
      assert.ok(!fn.blocks.some((bl) => bl.insts.some((i) => i.float)), 'no float op left');
    }
    runIrWave(fn, { mem, kernargPtr: 0, dispatchPtr: 0, workgroupId: [0, 0, 0], localIds: Array.from({ length: LANES }, () => [0, 0, 0] as [number, number, number]), inGrid: new Array<boolean>(LANES).fill(true), maxSteps: 10_000_000 });
    return new DataView(out.buffer);
  });
  for (let l = 0; l < inputs.length; l++) {
    const want = outs[0]?.getUint32(4 * l, true), got = outs[1]?.getUint32(4 * l, true);
    if (want !== got) return `inputs ${inputs[l]?.map((w) => `0x${(w >>> 0).toString(16)}`).join(' ')}: model 0x${want?.toString(16)}, lowered 0x${got?.toString(16)}`;
  }
  return undefined;
}

const EDGES = [0, 0x80000000, 1, 0x80000001, 0x007fffff, 0x807fffff, 0x00800000, 0x80800000, 0x00800001, 0x7f7fffff, 0xff7fffff, 0x7f800000, 0xff800000,
  0x7fc00000, 0xffc00000, 0x7fc00001, 0x7f800001, 0xffa00005, 0x3f800000, 0xbf800000, 0x3f800001, 0x3f7fffff, 0x3f000000, 0x40000000, 0x7f000000, 0x7e800000,
  0x00400000, 0x00000003, 0x01000000, 0x0b800000, 0x0c000000, 0x2f800000, 0x5f800000, 0x5f7fffff, 0x1f800000, 0x7e7fffff, 0x00ffffff, 0x4b000000];

/** An f32 bit pattern, biased to the hard cases. */
const f32 = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...EDGES) },
  { weight: 2, arbitrary: fc.tuple(fc.boolean(), fc.integer({ min: 0, max: 0x7fffff })).map(([s, m]) => ((s ? 0x80000000 : 0) | m) >>> 0) }, // subnormals
  { weight: 2, arbitrary: fc.tuple(fc.boolean(), fc.integer({ min: 0, max: 8 }), fc.integer({ min: 0, max: 0x7fffff })).map(([s, e, m]) => ((s ? 0x80000000 : 0) | ((e < 4 ? e + 1 : 0xfe - (e - 4)) << 23) | m) >>> 0) }, // near underflow / overflow
  { weight: 2, arbitrary: fc.tuple(fc.boolean(), fc.integer({ min: 100, max: 154 }), fc.integer({ min: 0, max: 0x7fffff })).map(([s, e, m]) => ((s ? 0x80000000 : 0) | (e << 23) | m) >>> 0) }, // ordinary
  { weight: 2, arbitrary: fc.integer({ min: 0, max: 0xffffffff }) },
);

const MODES: FloatMode[] = [];
for (let round = 0; round < 4; round++) for (let denorm = 0; denorm < 4; denorm++) for (const ieee of [true, false]) for (const dx10Clamp of [true, false]) {
  MODES.push({ round: round as 0 | 1 | 2 | 3, denorm: denorm as 0 | 1 | 2 | 3, ieee, dx10Clamp });
}
const name = (m: FloatMode) => `round=${m.round} denorm=${m.denorm} ieee=${m.ieee} dx10=${m.dx10Clamp}`;
const f = (b: Builder, v: Inst) => b.emit('BitcastU32F32', [v]);
const u = (b: Builder, v: Inst) => b.emit('BitcastF32U32', [v]);

function check(rows: fc.Arbitrary<number[]>, body: (m: FloatMode) => (b: Builder, v: Inst[]) => Inst, runs: number, modes = MODES.filter((m) => m.dx10Clamp)): void {
  for (const m of modes) {
    const bd = body(m);
    fc.assert(fc.property(fc.array(rows, { minLength: LANES, maxLength: LANES }), (inputs) => {
      const bad = compare(inputs, bd);
      if (bad) throw new Error(`${name(m)}: ${bad}`);
    }), { numRuns: runs, seed: 4242 });
  }
}

test('lowered output modifiers (omod, clamp) equal the float model', () => {
  for (let omod = 0; omod < 4; omod++) for (const clamp of [false, true]) {
    if (omod === 0 && !clamp) continue;
    check(fc.tuple(f32).map((r) => [...r]), (m) => (b, v) => u(b, b.emit('FOutMod32', [f(b, v[0] as Inst)], [omod, clamp ? 1 : 0], { float: m })), 3, MODES);
  }
});

test('lowered ldexp equals the float model', () => {
  const n = fc.oneof(fc.integer({ min: -300, max: 300 }), fc.constantFrom(0, 1, -1, 64, -64, 127, -126, -149, 150, 254, -277, 0x7fffffff, -0x80000000), fc.integer({ min: -0x80000000, max: 0x7fffffff }));
  check(fc.tuple(f32, n).map((r) => [...r]), (m) => (b, v) => u(b, b.emit('FLdexp32', [f(b, v[0] as Inst), v[1] as Inst], [], { float: m })), 4);
});

test('lowered frexp_mant, frexp_exp and fract equal the float model', () => {
  const one = fc.tuple(fc.oneof(f32, fc.integer({ min: -70000, max: 70000 }).map((k) => new Uint32Array(new Float32Array([k / 16]).buffer)[0] ?? 0))).map((r) => [r[0] >>> 0]);
  check(one, (m) => (b, v) => u(b, b.emit('FFrexpMant32', [f(b, v[0] as Inst)], [], { float: m })), 3);
  check(one, (m) => (b, v) => b.emit('FFrexpExp32', [f(b, v[0] as Inst)], [], { float: m }), 3);
  check(one, (m) => (b, v) => u(b, b.emit('FFract32', [f(b, v[0] as Inst)], [], { float: m })), 4);
});

test('lowered sqrt equals the float model', () => {
  // Perfect squares and their neighbours (exact results, ties cannot occur but remainders of 0 can).
  const square = fc.tuple(fc.integer({ min: 1, max: 4095 }), fc.integer({ min: -2, max: 2 }), fc.integer({ min: 60, max: 190 })).map(([k, d, e]) => ((((k * k) << (Math.clz32(k * k) - 8)) & 0x7fffff) | (e << 23)) + d);
  check(fc.tuple(fc.oneof(f32, square)).map((r) => [r[0] >>> 0]), (m) => (b, v) => u(b, b.emit('FSqrt32', [f(b, v[0] as Inst)], [], { float: m })), 4);
});

test('lowered rsq equals the float model', () => {
  // Exact cases: powers of four, and the perfect squares' neighbours.
  const pow4 = fc.tuple(fc.integer({ min: 1, max: 254 }), fc.integer({ min: -1, max: 1 })).map(([e, d]) => ((e << 23) + d) >>> 0);
  check(fc.tuple(fc.oneof(f32, pow4)).map((r) => [r[0] >>> 0]), (m) => (b, v) => u(b, b.emit('FRsq32', [f(b, v[0] as Inst)], [], { float: m })), 4);
});

/** An f32 with a given biased exponent field (clamped to 0..255), random sign and fraction (fraction 0 or 1 at times). */
const withExp = (e: number, sign: boolean, frac: number) => ((sign ? 0x80000000 : 0) | (Math.max(0, Math.min(255, e)) << 23) | frac) >>> 0;
const frac = fc.oneof(fc.constantFrom(0, 1, 0x7fffff, 0x400000), fc.integer({ min: 0, max: 0x7fffff }));
/** Denominator / numerator pairs at v_div_scale's boundaries: exponent differences near 96 and −126, |d| near 2^126, n near exponent 23. */
const scalePair = fc.tuple(fc.constantFrom(0, 1, 2, 23, 24, 100, 126, 127, 128, 200, 252, 253, 254, 255), fc.constantFrom(96, 95, 97, -126, -125, -127, -128, 0, 1, -1, -200, 150), fc.boolean(), fc.boolean(), frac, frac)
  .map(([ed, delta, sd, sn, fd, fn]) => [withExp(ed, sd, fd), withExp(ed + delta, sn, fn)] as const);
const pair = fc.oneof(fc.tuple(f32, f32), scalePair);
/** Division-helper operand triples: independent, or with s0 equal to the denominator or numerator (as the sequence uses them). */
const triple = fc.tuple(f32, pair, fc.integer({ min: 0, max: 3 })).map(([a, [d, n], k]) => (k === 1 ? [d, d, n] : k === 2 ? [n, d, n] : [a, d, n]));

test('lowered v_div_scale_f32 (value and flag) equals the float model', () => {
  check(triple, (m) => (b, v) => u(b, b.emit('FDivScale32', [f(b, v[0] as Inst), f(b, v[1] as Inst), f(b, v[2] as Inst)], [], { float: m })), 4);
  check(triple, (m) => (b, v) => b.emit('U1ToU32', [b.emit('FDivScaleFlag32', [f(b, v[0] as Inst), f(b, v[1] as Inst), f(b, v[2] as Inst)], [], { float: m })]), 4);
});

test('lowered v_div_fmas_f32 equals the float model', () => {
  const rows = fc.tuple(f32, f32, f32, fc.integer({ min: 0, max: 1 })).map((r) => [...r]);
  check(rows, (m) => (b, v) => u(b, b.emit('FDivFmas32', [f(b, v[0] as Inst), f(b, v[1] as Inst), f(b, v[2] as Inst), b.emit('U32ToU1', [v[3] as Inst])], [], { float: m })), 4);
});

test('lowered v_div_fixup_f32 equals the float model', () => {
  check(triple, (m) => (b, v) => u(b, b.emit('FDivFixup32', [f(b, v[0] as Inst), f(b, v[1] as Inst), f(b, v[2] as Inst)], [], { float: m })), 4);
});
