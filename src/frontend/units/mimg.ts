// Image (MIMG) storage instructions to IR: image_load/_mip, image_store/_mip and the 32-bit image
// atomics, on linear (SW_MODE 0) images, as the interpreter (src/interp/units/mimg.ts) runs them.
// What an instruction reads and writes is decided from its words alone (src/image/plan.ts: a
// refusal there is a TranslateError); the T# (8 SGPRs, 4 under r128) is run-time data, so its
// fields (src/isa/tsharp.ts) are bit-field extracts of its SGPRs and the texel's place is
// src/image/linear.ts's linearTexel instantiated with IR builders (IrImageArith below): both
// engines address the same bytes by construction, and folding shrinks it when the T# is known.
//
// Per instruction, wave-uniform: a T# it does not implement (a tiled SW_MODE, a TYPE other than
// its DIM's, a format it does not load/store/update, a load's DST_SEL 2 or 3 in a channel its dmask
// writes, a d16 load or store of a format with 32-bit components, a store whose dmask
// leaves out a component of the format) is a run-time fault (FAULT_IMAGE) in the active lanes,
// and nothing else is done. Per lane: the coordinates (VGPR dwords, or A16 halves zero-extended),
// the texel's bounds and byte offset; a lane out of bounds, like an inactive one, accesses no
// memory (its accesses go to the sink): a load gives 0 in every channel it writes, a store or an
// atomic does nothing, an atomic returns 0.
//
// Formats: the buffer formats (FORMAT 1..77) of 1, 2, 4, 8 or 16 bytes. A load reads the element
// (its size is the T#'s: a byte, a short, or 1, 2, 4 dwords), takes the 32-bit components as they
// are and converts the narrower ones as buffer format loads do (./buffer-format.ts), missing
// components 0, 0, 0, 1 (1.0 for the float number formats), then DST_SEL per channel, then the
// dmask channels into consecutive VGPRs (d16: two halves a VGPR, low first; an odd last half keeps
// the VGPR's high half). A store writes the 32-bit formats' components from its dmask channels,
// or converts them into the narrower formats' element (src/float/format-store.ts; d16: from
// halves, refused for the 32-bit formats). The
// atomics: the dword at the texel of a 32_UINT / 32_SINT image (32_FLOAT for fcmpswap/fmin/fmax,
// through memory.ts's float-atomic helper), lanes in ascending lane order, with glc the old value
// to vdata[0]; the 64-bit integer atomics (DMASK 0x3, cmpswap 0xf) on the 8 bytes of a 32_32_UINT /
// 32_32_SINT texel, the old value to vdata[0:1].
//
// image_get_resinfo and the _pck loads/stores as src/interp/units/mimg.ts's header says (its
// sources and readings): resinfo reads only the T#'s size, level and slice fields (any SW_MODE);
// a TYPE other than its DIM's, a sliced 3D view (ARRAY_PITCH not 0) or a lane's level past the view
// faults (FAULT_IMAGE). The _pck forms take the formats of one 8/16-bit component or of 32-bit
// components without conversion (8/16 bits zero- or sign-extended); another format, a dmask channel
// past the components or a DST_SEL other than the identity (loads), a component left out of dmask
// (stores) fault.
//
// image_sample* (point filtering) and image_gather4* as src/interp/units/mimg.ts runs them: the
// plan, the S#/T# refusals, each lane's texel (gather4: four) or border colour from
// src/image/sample.ts over IR (IrSampleArith), the texel read and converted by image_load's code
// (loadFormat, loadChannels, writeChannels); a refusal, a lane whose texel is not established or a
// border colour not modelled faults (FAULT_SAMPLE).
import { Builder, type Inst, IrFunction, NO_IMMS, listOf, NO_ARGS } from '../../ir/ir.js';
import { eliminateCommonSubexpressions } from '../../ir/passes/cse.js';
import { eliminateDeadCode } from '../../ir/passes/dce.js';
import { foldConstants } from '../../ir/passes/fold.js';
import type { Op } from '../../ir/ops.js';
import { ATOMIC_RMW } from '../../ir/ops.js';
import { FAULT_IMAGE, FAULT_SAMPLE } from '../../ir/faults.js';
import { ISA_TABLE } from '../../isa/table.js';
import { TSHARP_FIELDS, type TsharpFieldName } from '../../isa/tsharp.js';
import { bufferFormatInfo, GFX10_BUFFER_FORMATS } from '../../isa/tables/mtbuf.js';
import { CLASS_TYPE, type ImageArith, type ImageClass, type ImageDims, linearTexel, type TexelCoords } from '../../image/linear.js';
import { type CoordSlot, type ImageOpPlan, imageOpPlan, imageResinfoPlan } from '../../image/plan.js';
import { f16ToF32, gatherPlace, imageSamplePlan, type SampleArith, type SampleFields, type SampleLane, samplePlace, sampleRefusals } from '../../image/sample.js';
import { SSHARP_FIELDS, type SsharpFieldName } from '../../isa/ssharp.js';
import type { FloatAtomicOp } from '../../float/atomic.js';
import type { TContext, Translator } from '../context.js';
import { convertComponent, d16Storable, descriptorOf, formatCx, type Layout, layoutOf, oneOf, storeComponent } from './buffer-format.js';
import { type AtomicKind, atomicOp, writeWide } from './memory.js';
import { IrIntArith } from '../int-arith.js';
import { NO_FLAGS } from '../../isa/types.js';

/** linear.ts's arithmetic as IR: u32 and u1 values, u64 values (Pack64 of dwords). */
export class IrImageArith extends IrIntArith implements ImageArith<Inst, Inst, Inst> {
  // The IR's shifts take the amount modulo 32; linear.ts's are 0 from 32 on.
  shl(a: Inst, n: Inst): Inst { return this.e('Select32', this.e('ULt32', n, this.k(32)), this.e('Shl32', a, n), this.k(0)); }
  shr(a: Inst, n: Inst): Inst { return this.e('Select32', this.e('ULt32', n, this.k(32)), this.e('LShr32', a, n), this.k(0)); }
  umax(a: Inst, b: Inst): Inst { return this.e('UMax32', a, b); }
  ule(a: Inst, b: Inst): Inst { return this.e('ULe32', a, b); }
  mulUW(a: Inst, b: Inst): Inst { return this.e('IMul64', this.e('Pack64', a, this.k(0)), b); }
  addW(a: Inst, b: Inst): Inst { return this.e('IAdd64', a, b); }
  shlW(a: Inst, n: Inst): Inst { return this.selW(this.e('ULt32', n, this.k(64)), this.e('Shl64', a, n), this.kW(0)); }
  selW(c: Inst, a: Inst, b: Inst): Inst {
    return this.e('Pack64', this.e('Select32', c, this.e('Lo32', a), this.e('Lo32', b)), this.e('Select32', c, this.e('Hi32', a), this.e('Hi32', b)));
  }
  kW(n: number): Inst { return this.e('Pack64', this.k(n % 2 ** 32), this.k(Math.floor(n / 2 ** 32))); }
}

const e = (cx: TContext, op: Op, ...args: Inst[]) => cx.b.emit(op, args);
const K = (cx: TContext, v: number) => cx.u32(v >>> 0);
const and = (cx: TContext, ...xs: Inst[]) => xs.reduce((a, b) => e(cx, 'AndU1', a, b));
const or = (cx: TContext, ...xs: Inst[]) => xs.reduce((a, b) => e(cx, 'OrU1', a, b));
const not = (cx: TContext, x: Inst) => e(cx, 'NotU1', x);
const add64 = (cx: TContext, a: Inst, k: number) => (k === 0 ? a : e(cx, 'IAdd64', a, cx.u64(k >>> 0)));

/**
 * The kernel function's helpers this file adds (pure, one block, u32 parameters): each built once
 * per process by key and shared by every kernel and call site, as the float helpers are
 * (src/ir/passes/lower-float-atomic.ts), so an image instruction calls the per-T# computations
 * (the mip chain's sums, the format tables' select chains) instead of inlining them.
 */
const HELPERS = new Map<string, IrFunction>();

function helperIndex(fn: IrFunction, key: string, params: number, body: (b: Builder, ps: readonly Inst[]) => Inst): number {
  let h = HELPERS.get(key);
  if (!h) {
    h = new IrFunction(key, 32);
    const b = new Builder(h, h.addBlock());
    const ps = Array.from({ length: params }, (_, k) => b.emit('Param', NO_ARGS, listOf(k), { type: 'u32' }));
    b.emit('Return', listOf(body(b, ps)));
    foldConstants(h);
    eliminateCommonSubexpressions(h);
    eliminateDeadCode(h);
    HELPERS.set(key, h);
  }
  const k = fn.helpers.indexOf(h);
  if (k >= 0) return k;
  fn.helpers.push(h);
  return fn.helpers.length - 1;
}

const call = (cx: TContext, k: number, type: 'u32' | 'u64', args: readonly Inst[]): Inst => cx.b.emit('Call', listOf(...args), listOf(k), { type });

/** A table of u32 constants by a u32 index (0 past its end) as a select chain: table[x]. */
function tableChain(b: Builder, x: Inst, value: (k: number) => number): Inst {
  let d = b.u32(0);
  for (let k = 0; k < GFX10_BUFFER_FORMATS.length; k++) {
    const v = value(k);
    if (v !== 0) d = b.emit('Select32', listOf(b.emit('IEq32', listOf(x, b.u32(k))), b.u32(v >>> 0), d));
  }
  return d;
}

/** A format table's word of a run-time FORMAT value: a call of its helper (one select chain per module). */
function formatTableValue(cx: TContext, name: string, value: (k: number) => number, format: Inst): Inst {
  return call(cx, helperIndex(cx.b.fn, `image.${name}`, 1, (b, [f]) => tableChain(b, f as Inst, value)), 'u32', [format]);
}

/** The order of the texel offset helper's parameters: the T# fields (ImageDims), then the coordinates. */
const OFFSET_DIMS = ['width1', 'height1', 'depth', 'pitchMsb', 'baseLevel', 'lastLevel', 'baseArray', 'maxMip', 'log2Bpe'] as const;
const OFFSET_COORDS = ['x', 'y', 'z', 'mip'] as const;

/**
 * The texel's byte offset (linearTexel's offset: the mip chain's sums and the row) by a call of the
 * (class, gfx103) helper; a coordinate the plan lacks is passed as 0, which linearTexel reads the same.
 */
function texelOffset(cx: TContext, cls: ImageClass, gfx103: boolean, d: ImageDims<Inst>, c: TexelCoords<Inst>): Inst {
  const k = helperIndex(cx.b.fn, `image.offset.${cls}${gfx103 ? '.gfx103' : ''}`, OFFSET_DIMS.length + OFFSET_COORDS.length, (b, ps) => {
    const dims = Object.fromEntries(OFFSET_DIMS.map((n, j) => [n, ps[j] as Inst])) as unknown as ImageDims<Inst>;
    const [x, y, z, mip] = ps.slice(OFFSET_DIMS.length) as [Inst, Inst, Inst, Inst];
    return linearTexel(new IrImageArith(b), cls, gfx103, dims, { x, y, z, mip }).offset;
  });
  return call(cx, k, 'u64', [...OFFSET_DIMS.map((n) => d[n]), ...OFFSET_COORDS.map((n) => c[n] ?? K(cx, 0))]);
}

/** A layout whose every component is (width, shift): what a helper's parameters give buffer-format.ts's per-component code. */
const oneComponentLayout = (w: Inst, sh: Inst, num: Inst): Layout => ({ desc: w, widths: [w, w, w, w], shifts: [sh, sh, sh, sh], num, bytes: w });

/**
 * buffer-format.ts's convertComponent of component c by a call of its helper, parameters (width,
 * shift, number format, lo, hi): one helper for x..z and one for w (whose absent value is 1), per d16.
 */
function convertedComponent(cx: TContext, L: Layout, c: number, lo: Inst, hi: Inst, d16: boolean): Inst {
  const w = c === 3;
  const k = helperIndex(cx.b.fn, `image.convert${w ? '.w' : ''}${d16 ? '.d16' : ''}`, 5, (b, ps) => {
    const [width, sh, num, l, h] = ps as [Inst, Inst, Inst, Inst, Inst];
    return convertComponent(formatCx(b), oneComponentLayout(width, sh, num), w ? 3 : 0, l, h, d16);
  });
  return call(cx, k, 'u32', [L.widths[c] as Inst, L.shifts[c] as Inst, L.num, lo, hi]);
}

/** buffer-format.ts's storeComponent of component c by a call of its helper, parameters (width, number format, data), per d16. */
function storedComponent(cx: TContext, L: Layout, c: number, x: Inst, d16: boolean): Inst {
  const k = helperIndex(cx.b.fn, `image.store-component${d16 ? '.d16' : ''}`, 3, (b, ps) => {
    const [width, num, data] = ps as [Inst, Inst, Inst];
    return storeComponent(formatCx(b), oneComponentLayout(width, b.u32(0), num), 0, data, d16);
  });
  return call(cx, k, 'u32', [L.widths[c] as Inst, L.num, x]);
}

/** The T#'s dwords (dwords 4..7 read 0 under r128). */
function tsharpWords(cx: TContext, p: { readonly r128: boolean; readonly srsrc: number }): Inst[] {
  return Array.from({ length: 8 }, (_, k) => (p.r128 && k >= 4 ? K(cx, 0) : cx.b.getSgpr(p.srsrc + k)));
}

function tfield(cx: TContext, w: readonly Inst[], name: TsharpFieldName): Inst {
  const [d, at, n] = TSHARP_FIELDS[name];
  const word = w[d] as Inst;
  return n === 32 ? word : e(cx, 'UBfe32', word, K(cx, at), K(cx, n));
}

/**
 * What the image ops need of a format, one word per FORMAT value (0: not a format they take):
 * bit 0 valid, bits 3:1 log2 of the element's bytes, 6:4 its components, bit 7 every component
 * 32-bit, bit 8 FLOAT, bit 9 d16-storable (16-bit FLOAT/UINT/SINT components), bit 10 UINT/SINT.
 */
const FMT = { valid: 0, log2: 1, comps: 4, all32: 7, float: 8, d16Store: 9, integer: 10 } as const;

function formatWord(k: number): number {
  const f = bufferFormatInfo(k);
  if (!f) return 0;
  const log2 = [1, 2, 4, 8, 16].indexOf(f.bytes);
  if (log2 < 0) return 0;
  const bit = (b: boolean, at: number) => (b ? 1 << at : 0);
  return 1 | (log2 << FMT.log2) | (f.widths.length << FMT.comps) | bit(f.widths.every((w) => w === 32), FMT.all32)
    | bit(f.num === 'FLOAT', FMT.float) | bit(d16Storable(f), FMT.d16Store) | bit(f.num === 'UINT' || f.num === 'SINT', FMT.integer);
}

/** The format word of a run-time FORMAT value (its helper's select per format). */
const formatWordValue = (cx: TContext, format: Inst): Inst => formatTableValue(cx, 'format-word', formatWord, format);

/** buffer-format.ts's descriptor (descriptorOf) of a run-time FORMAT value, by its helper. */
const descriptorOfValue = (cx: TContext, format: Inst): Inst => formatTableValue(cx, 'descriptor', descriptorOf, format);

const bitOf = (cx: TContext, w: Inst, at: number) => e(cx, 'INe32', e(cx, 'And32', w, K(cx, 1 << at)), K(cx, 0));
const bitsOf = (cx: TContext, w: Inst, at: number, n: number) => e(cx, 'UBfe32', w, K(cx, at), K(cx, n));

/** The instruction's T# and the lane's texel, before the op's own checks. */
interface Image {
  readonly plan: ImageOpPlan;
  readonly w: readonly Inst[];
  readonly exec: Inst;
  readonly format: Inst;
  /** The T# conditions every op refuses (SW_MODE, TYPE). */
  readonly refused: Inst;
}

function imageOf(cx: TContext): Image {
  const plan = imageOpPlan(cx.inst);
  if (typeof plan === 'string') cx.fail(plan);
  const w = tsharpWords(cx, plan);
  const format = tfield(cx, w, 'format');
  const refused = or(cx, e(cx, 'INe32', tfield(cx, w, 'swMode'), K(cx, 0)), e(cx, 'INe32', tfield(cx, w, 'type'), K(cx, CLASS_TYPE[plan.cls])));
  return { plan, w, exec: cx.execBit(), format, refused };
}

/**
 * The op's refusal (the T#'s and the op's own conditions, wave-uniform) as a fault of the active
 * lanes, then each lane's texel: `on` (active, not refused, in bounds) and its address.
 */
function texel(cx: TContext, im: Image, opRefuses: Inst, log2Bpe: Inst): { on: Inst; addr: Inst; go: Inst } {
  const { plan, w } = im;
  const refuse = or(cx, im.refused, opRefuses);
  cx.b.emit('Fault', listOf(e(cx, 'AndU1', im.exec, refuse)), listOf(FAULT_IMAGE));
  const go = and(cx, im.exec, not(cx, refuse));
  const f = (n: TsharpFieldName) => tfield(cx, w, n);
  const dims: ImageDims<Inst> = {
    width1: e(cx, 'Or32', f('widthLo'), e(cx, 'Shl32', f('widthHi'), K(cx, 2))),
    height1: f('height'), depth: f('depth'), pitchMsb: f('pitchMsb'), baseLevel: f('baseLevel'), lastLevel: f('lastLevel'),
    baseArray: f('baseArray'), maxMip: f('maxMip'), log2Bpe,
  };
  const coord = (s: CoordSlot): Inst => {
    const v = cx.b.getVgpr(s.vgpr);
    return s.half === undefined ? v : e(cx, 'UBfe32', v, K(cx, 16 * s.half), K(cx, 16));
  };
  const c = plan.coords;
  const coords: TexelCoords<Inst> = {
    x: coord(c.x), ...(c.y ? { y: coord(c.y) } : {}), ...(c.z ? { z: coord(c.z) } : {}), ...(c.mip ? { mip: coord(c.mip) } : {}),
  };
  const gfx103 = cx.shader.info.target === 'gfx1030';
  // The bounds inline (DCE removes the offset's inline instance), the offset by its helper.
  const place = { ok: linearTexel(new IrImageArith(cx.b), plan.cls, gfx103, dims, coords).ok, offset: texelOffset(cx, plan.cls, gfx103, dims, coords) };
  const base = cx.pack(e(cx, 'Shl32', f('baseLo'), K(cx, 8)), e(cx, 'Or32', e(cx, 'LShr32', f('baseLo'), K(cx, 24)), e(cx, 'Shl32', f('baseHi'), K(cx, 8))));
  return { on: e(cx, 'AndU1', go, place.ok), addr: e(cx, 'IAdd64', cx.memoryAddress(base), place.offset), go };
}

const vgpr = (n: number) => ({ kind: 'vgpr' as const, index: n, count: 1 });

/** What a loading instruction writes (image_load, image_sample): dmask's channels, d16, the first VGPR. */
interface LoadShape {
  readonly dmask: number;
  readonly d16: boolean;
  readonly vdata: number;
}

/**
 * A load's format word, DST_SELs and what it refuses of them (an invalid format, a d16 load of a
 * 32-bit format, a reserved DST_SEL in a channel dmask writes), and the element's log2 bytes.
 */
function loadFormat(cx: TContext, plan: LoadShape, w: readonly Inst[], format: Inst): { fw: Inst; sels: Inst[]; refuse: Inst; log2: Inst } {
  // The format word (formatWord), by its helper (only the ops that read it call it: a module holds the helpers its calls name).
  const fw = formatWordValue(cx, format);
  const all32 = bitOf(cx, fw, FMT.all32);
  const sels = (['dstSelX', 'dstSelY', 'dstSelZ', 'dstSelW'] as const).map((n) => tfield(cx, w, n));
  // A reserved DST_SEL (2, 3) in a channel dmask writes.
  const reserved = or(cx, ...sels.filter((_, k) => plan.dmask & (1 << k)).map((s) => e(cx, 'IEq32', e(cx, 'And32', s, K(cx, 6)), K(cx, 2))));
  // d16 loads take the formats narrower than 32 bits (as d16 buffer format loads do).
  const unsupported = plan.d16 ? or(cx, not(cx, bitOf(cx, fw, FMT.valid)), all32) : not(cx, bitOf(cx, fw, FMT.valid));
  return { fw, sels, refuse: or(cx, unsupported, reserved), log2: bitsOf(cx, fw, FMT.log2, 3) };
}

/**
 * The channels a load gives from the texel at t.addr (0 in each where not t.on): the element, its
 * components (32-bit ones as they are, narrower ones converted), then DST_SEL; and the format's one.
 */
function loadChannels(cx: TContext, plan: LoadShape, format: Inst, lf: ReturnType<typeof loadFormat>, t: { on: Inst; addr: Inst }): { results: Inst[]; one: Inst } {
  const { fw, sels, log2 } = lf;
  const d16 = plan.d16;
  const all32 = bitOf(cx, fw, FMT.all32);
  const is = (n: number) => e(cx, 'IEq32', log2, K(cx, n));
  const atLeast = (n: number) => e(cx, 'UGe32', log2, K(cx, n));
  // The element: a byte, a short, or 1, 2 or 4 dwords (each access only where the element has it).
  const b8 = cx.b.emit('LoadGlobalU8', listOf(e(cx, 'AndU1', t.on, is(0)), t.addr));
  const b16 = cx.b.emit('LoadGlobalU16', listOf(e(cx, 'AndU1', t.on, is(1)), t.addr));
  const dw = [2, 3, 4, 4].map((n, k) => cx.b.emit('LoadGlobal32', listOf(e(cx, 'AndU1', t.on, atLeast(n)), add64(cx, t.addr, 4 * k))));
  const words = [e(cx, 'Or32', e(cx, 'Or32', b8, b16), dw[0] as Inst), dw[1] as Inst, dw[2] as Inst, dw[3] as Inst];
  // Components: the 32-bit formats' dwords (a missing one 0, w 1 or 1.0), or the narrower formats converted.
  const L = layoutOf(cx, descriptorOfValue(cx, format));
  const packed = [0, 1, 2, 3].map((c) => convertedComponent(cx, L, c, words[0] as Inst, words[1] as Inst, d16));
  let channels = packed, one = oneOf(cx, L, d16);
  if (!d16) {
    const comps = bitsOf(cx, fw, FMT.comps, 3);
    const one32 = e(cx, 'Select32', bitOf(cx, fw, FMT.float), K(cx, 0x3f800000), K(cx, 1));
    const wide = words.map((x, c) => e(cx, 'Select32', e(cx, 'ULt32', K(cx, c), comps), x, c === 3 ? one32 : K(cx, 0)));
    channels = wide.map((x, c) => e(cx, 'Select32', all32, x, packed[c] as Inst));
    one = e(cx, 'Select32', all32, one32, one);
  }
  // Result k by DST_SEL k: 0, one, or component x..w; 0 where not on.
  const results: Inst[] = [];
  for (let k = 0; k < 4; k++) {
    if (!(plan.dmask & (1 << k))) continue;
    const s = sels[k] as Inst;
    let x = e(cx, 'Select32', e(cx, 'IEq32', s, K(cx, 1)), one, K(cx, 0));
    channels.forEach((ch, c) => { x = e(cx, 'Select32', e(cx, 'IEq32', s, K(cx, 4 + c)), ch, x); });
    results.push(e(cx, 'Select32', t.on, x, K(cx, 0)));
  }
  return { results, one };
}

/** dmask's channels into consecutive VGPRs (d16: two halves a VGPR, low first; an odd last half keeps the VGPR's high half). */
function writeChannels(cx: TContext, plan: LoadShape, results: readonly Inst[], exec: Inst): void {
  const dst = (k: number) => vgpr(plan.vdata + k);
  if (!plan.d16) { results.forEach((x, k) => cx.writeLane(dst(k), x, 0, exec)); return; }
  for (let r = 0; r < results.length; r += 2) {
    const lo = e(cx, 'And32', results[r] as Inst, K(cx, 0xffff));
    const next = results[r + 1];
    const high = next ? e(cx, 'Shl32', next, K(cx, 16)) : e(cx, 'And32', cx.lane(dst(r >> 1), 'b32'), K(cx, 0xffff0000));
    cx.writeLane(dst(r >> 1), e(cx, 'Or32', lo, high), 0, exec);
  }
}

/**
 * image_load[_mip]: the element, its components (32-bit ones as they are, narrower ones
 * converted), DST_SEL, then the dmask channels; 0 out of bounds.
 */
const imageLoad: Translator = (cx) => {
  const im = imageOf(cx);
  const lf = loadFormat(cx, im.plan, im.w, im.format);
  const t = texel(cx, im, lf.refuse, lf.log2);
  writeChannels(cx, im.plan, loadChannels(cx, im.plan, im.format, lf, t).results, im.exec);
};

/** src/image/sample.ts's arithmetic as IR (u32 and u1 values; the f32 multiply under SAMPLE_MODE). */
export class IrSampleArith extends IrIntArith implements SampleArith<Inst, Inst> {
  or(a: Inst, b: Inst): Inst { return this.e('Or32', a, b); }
  shl(a: Inst, n: Inst): Inst { return this.e('Shl32', a, n); }
  shr(a: Inst, n: Inst): Inst { return this.e('LShr32', a, n); }
  clz(a: Inst): Inst { return this.e('Clz32', a); }
  urem(a: Inst, b: Inst): Inst { return this.e('UMod32', a, b); }
  slt(a: Inst, b: Inst): Inst { return this.e('SLt32', a, b); }
  not(a: Inst): Inst { return this.e('NotU1', a); }
  either(a: Inst, b: Inst): Inst { return this.e('OrU1', a, b); }
  fmul(a: Inst, b: Inst): Inst {
    const f = (x: Inst) => this.e('BitcastU32F32', x);
    return this.e('BitcastF32U32', this.b.emit('FMul32', listOf(f(a), f(b)), NO_IMMS, { float: SAMPLE_FLOAT_MODE }));
  }
}

/** SAMPLE_MODE (src/image/sample.ts) as the IR's FloatMode: nearest even, denormals kept. */
const SAMPLE_FLOAT_MODE = { round: 0, denorm: 3, ieee: true, dx10Clamp: true } as const;

/**
 * image_sample* with point filtering (src/image/sample.ts): the S# and T# refusals and the load's
 * format refusals fault the active lanes (FAULT_SAMPLE); each lane's texel or border colour from
 * samplePlace; a lane whose texel is not established, or at a border colour not modelled (type 3,
 * an integer format, a DST_SEL other than the identity), faults; the texel converted as image_load.
 */
const imageSample: Translator = (cx) => {
  const plan = imageSamplePlan(cx.inst);
  if (typeof plan === 'string') return cx.fail(plan);
  const A = new IrSampleArith(cx.b);
  const w = tsharpWords(cx, plan);
  const sw = Array.from({ length: 4 }, (_, k) => cx.b.getSgpr(plan.ssamp + k));
  const S = (n: SsharpFieldName): Inst => {
    const [d, at, width] = SSHARP_FIELDS[n];
    return e(cx, 'UBfe32', sw[d] as Inst, K(cx, at), K(cx, width));
  };
  const T = (n: TsharpFieldName) => tfield(cx, w, n);
  const exec = cx.execBit();
  const format = T('format');
  // What a texel read gives: dmask's channels (sample), or gather4's one component.
  const shape: LoadShape = { dmask: plan.op === 'gather4' ? 1 << (plan.component ?? 0) : plan.dmask, d16: plan.d16, vdata: plan.vdata };
  const lf = loadFormat(cx, shape, w, format);
  const refusals = sampleRefusals(A, plan, S, T).map((r) => r.cond);
  const refuse = or(cx, e(cx, 'INe32', T('swMode'), K(cx, 0)), e(cx, 'INe32', T('type'), K(cx, CLASS_TYPE[plan.cls])), lf.refuse, ...refusals);
  const dims: ImageDims<Inst> = {
    width1: e(cx, 'Or32', T('widthLo'), e(cx, 'Shl32', T('widthHi'), K(cx, 2))),
    height1: T('height'), depth: T('depth'), pitchMsb: T('pitchMsb'), baseLevel: T('baseLevel'), lastLevel: T('lastLevel'),
    baseArray: T('baseArray'), maxMip: T('maxMip'), log2Bpe: lf.log2,
  };
  const fields: SampleFields<Inst, Inst> = {
    clampX: S('clampX'), clampY: S('clampY'), clampZ: S('clampZ'), trunc: e(cx, 'IEq32', S('truncCoord'), K(cx, 1)),
    unnormalized: plan.unrm ? cx.b.u1(true) : e(cx, 'IEq32', S('forceUnnormalized'), K(cx, 1)),
    mipPoint: e(cx, 'IEq32', S('mipFilter'), K(cx, 1)), minLod: S('minLod'), maxLod: S('maxLod'),
    width1: dims.width1, height1: dims.height1, depth: dims.depth, baseArray: dims.baseArray, baseLevel: dims.baseLevel, lastLevel: dims.lastLevel,
  };
  const value = (s: CoordSlot): Inst => {
    const v = cx.b.getVgpr(s.vgpr);
    return s.half === undefined ? v : f16ToF32(A, e(cx, 'UBfe32', v, K(cx, 16 * s.half), K(cx, 16)));
  };
  const c = plan.coords;
  const lane: SampleLane<Inst> = {
    x: value(c.x), ...(c.y ? { y: value(c.y) } : {}), ...(c.z ? { z: value(c.z) } : {}),
    ...(plan.offset !== undefined ? { offset: cx.b.getVgpr(plan.offset) } : {}),
    ...(plan.lod ? { lod: value(plan.lod) } : {}),
  };
  // The texels read: samplePlace's one (dmask's channels) or gatherPlace's four (the component each).
  const places = plan.op === 'gather4' ? gatherPlace(A, plan.cls, fields, lane) : (() => {
    const p = samplePlace(A, plan.cls, fields, lane);
    return { texels: [{ coords: p.coords, border: p.border }], fault: p.fault };
  })();
  const borderType = S('borderColorType');
  const chans = [0, 1, 2, 3].filter((k) => shape.dmask & (1 << k));
  const identity = and(cx, ...chans.map((k) => e(cx, 'IEq32', lf.sels[k] as Inst, K(cx, 4 + k))));
  const borderRefused = or(cx, e(cx, 'IEq32', borderType, K(cx, 3)), bitOf(cx, lf.fw, FMT.integer), not(cx, identity));
  const anyBorder = or(cx, ...places.texels.map((x) => x.border));
  const laneFault = or(cx, refuse, places.fault, and(cx, anyBorder, borderRefused));
  cx.b.emit('Fault', listOf(e(cx, 'AndU1', exec, laneFault)), listOf(FAULT_SAMPLE));
  const go = and(cx, exec, not(cx, laneFault));
  const gfx103 = cx.shader.info.target === 'gfx1030';
  const base = cx.pack(e(cx, 'Shl32', T('baseLo'), K(cx, 8)), e(cx, 'Or32', e(cx, 'LShr32', T('baseLo'), K(cx, 24)), e(cx, 'Shl32', T('baseHi'), K(cx, 8))));
  const white = e(cx, 'IEq32', borderType, K(cx, 2)), opaque = e(cx, 'IEq32', borderType, K(cx, 1));
  const results = places.texels.flatMap((x) => {
    const ok = linearTexel(new IrImageArith(cx.b), plan.cls, gfx103, dims, x.coords).ok;
    const offset = texelOffset(cx, plan.cls, gfx103, dims, x.coords);
    const on = and(cx, go, not(cx, x.border), ok);
    const { results: rs, one } = loadChannels(cx, shape, format, lf, { on, addr: e(cx, 'IAdd64', cx.memoryAddress(base), offset) });
    // The border colour: type 2 one in every channel, type 1 one in w, else 0.
    return rs.map((r, j) => {
      const k = chans[j] as number;
      const b = e(cx, 'Select32', k === 3 ? or(cx, white, opaque) : white, one, K(cx, 0));
      return e(cx, 'Select32', x.border, b, r);
    });
  });
  writeChannels(cx, { dmask: plan.op === 'gather4' ? 0xf : plan.dmask, d16: plan.d16, vdata: plan.vdata }, results, exec);
};

/** How many of dmask's low channels are set before the first clear one (the components a store can write). */
const leadingChannels = (dmask: number): number => { let n = 0; while (n < 4 && dmask & (1 << n)) n++; return n; };

/**
 * image_store[_mip]: component c from dmask channel c (d16: half c); the 32-bit formats' dwords,
 * or the narrower components converted (src/float/format-store.ts through buffer-format.ts's
 * storeComponent) into the element, written whole; a format component missing from dmask, or a
 * d16 store to a 32-bit format, faults. DST_SEL is ignored.
 */
const imageStore: Translator = (cx) => {
  const im = imageOf(cx);
  const { plan } = im;
  const fw = formatWordValue(cx, im.format);
  const comps = bitsOf(cx, fw, FMT.comps, 3);
  const n = leadingChannels(plan.dmask);
  const all32 = bitOf(cx, fw, FMT.all32);
  const storable = plan.d16 ? and(cx, bitOf(cx, fw, FMT.valid), not(cx, all32)) : bitOf(cx, fw, FMT.valid);
  const missing = e(cx, 'UGt32', comps, K(cx, n));
  const log2 = bitsOf(cx, fw, FMT.log2, 3);
  const t = texel(cx, im, or(cx, not(cx, storable), missing), log2);
  const chan = (c: number): Inst => {
    if (!plan.d16) return cx.lane(vgpr(plan.vdata + c), 'b32');
    const x = cx.lane(vgpr(plan.vdata + (c >> 1)), 'b32');
    return c & 1 ? e(cx, 'LShr32', x, K(cx, 16)) : x;
  };
  // The narrower formats' element (lo, hi dwords) from the converted components.
  const L = layoutOf(cx, descriptorOfValue(cx, im.format));
  const words = [K(cx, 0), K(cx, 0)];
  for (let c = 0; c < n; c++) {
    const x = e(cx, 'Shl32', storedComponent(cx, L, c, chan(c), plan.d16), L.shifts[c] as Inst);
    const high = e(cx, 'UGe32', L.shifts[c] as Inst, K(cx, 32));
    words[0] = e(cx, 'Or32', words[0] as Inst, e(cx, 'Select32', high, K(cx, 0), x));
    words[1] = e(cx, 'Or32', words[1] as Inst, e(cx, 'Select32', high, x, K(cx, 0)));
  }
  const atLeast = (k: number) => e(cx, 'UGe32', log2, K(cx, k));
  // The narrower formats' element as a byte or shorts (1, 2, 4 or 8 bytes), which the backend
  // resolves to the highest lane where lanes meet on a texel, as the interpreter's lane order does.
  const packed = e(cx, 'AndU1', t.on, not(cx, all32));
  cx.b.emit('StoreGlobal8', listOf(e(cx, 'AndU1', packed, e(cx, 'IEq32', log2, K(cx, 0))), t.addr, words[0] as Inst));
  for (let k = 0; k < 4; k++) {
    const half = k & 1 ? e(cx, 'LShr32', words[k >> 1] as Inst, K(cx, 16)) : words[k >> 1] as Inst;
    cx.b.emit('StoreGlobal16', listOf(e(cx, 'AndU1', packed, atLeast([1, 2, 3, 3][k] as number)), add64(cx, t.addr, 2 * k), half));
  }
  // The 32-bit formats: dword k from channel k (1, 2 or 4 dwords).
  [2, 3, 4, 4].forEach((size, k) => {
    const x = k < n && !plan.d16 ? chan(k) : K(cx, 0);
    cx.b.emit('StoreGlobal32', listOf(e(cx, 'AndU1', e(cx, 'AndU1', t.on, all32), atLeast(size)), add64(cx, t.addr, 4 * k), x));
  });
};

/**
 * image_atomic_<op>: the dword at the texel of a 32_UINT/32_SINT image (32_FLOAT: the float ones),
 * or (plan.wide: DMASK 0x3, cmpswap 0xf) the 8 bytes of a 32_32_UINT/32_32_SINT one; glc: the old
 * value (0 out of bounds) to vdata[0] (vdata[0:1]).
 */
const imageAtomic = (kind: AtomicKind): Translator => (cx) => {
  const im = imageOf(cx);
  const { plan, format } = im;
  const wide = plan.wide === true;
  const float = typeof kind === 'object';
  const is = (f: string) => e(cx, 'IEq32', format, K(cx, GFX10_BUFFER_FORMATS.indexOf(f)));
  const ok = float ? is('BUF_FMT_32_FLOAT') : wide ? or(cx, is('BUF_FMT_32_32_UINT'), is('BUF_FMT_32_32_SINT')) : or(cx, is('BUF_FMT_32_UINT'), is('BUF_FMT_32_SINT'));
  const t = texel(cx, im, not(cx, ok), K(cx, wide ? 3 : 2));
  const old = atomicOp(cx, kind, wide, t.on, t.addr, (k) => cx.lane(vgpr(plan.vdata + k), 'b32'));
  if (plan.returns) writeWide(cx, vgpr(plan.vdata), old, wide, im.exec);
};

/**
 * The _pck forms' formats, one word per FORMAT value (0: not one they take): bit 0 valid, bits 3:1
 * log2 of the element's bytes, 6:4 its components, 8:7 the component width (1: 8, 2: 16, 3: 32).
 */
function pckWord(k: number): number {
  const f = bufferFormatInfo(k);
  if (!f) return 0;
  const log2 = [1, 2, 4, 8, 16].indexOf(f.bytes);
  if (log2 < 0) return 0;
  const w = f.widths.every((x) => x === 32) ? 3 : f.widths.length === 1 && f.widths[0] === 8 ? 1 : f.widths.length === 1 && f.widths[0] === 16 ? 2 : 0;
  return w === 0 ? 0 : 1 | (log2 << 1) | (f.widths.length << 4) | (w << 7);
}

const pckWordValue = (cx: TContext, format: Inst): Inst => formatTableValue(cx, 'pck-word', pckWord, format);

/** image_load[_mip]_pck[_sgn]: component k of dmask's channel k, 8/16 bits zero- or sign-extended; 0 out of bounds. */
const imagePckLoad: Translator = (cx) => {
  const im = imageOf(cx);
  const { plan, w } = im;
  const pw = pckWordValue(cx, im.format);
  const comps = bitsOf(cx, pw, 4, 3), width = bitsOf(cx, pw, 7, 2);
  const chans = [0, 1, 2, 3].filter((k) => plan.dmask & (1 << k));
  const top = chans[chans.length - 1] ?? 0;
  const sels = (['dstSelX', 'dstSelY', 'dstSelZ', 'dstSelW'] as const).map((n) => tfield(cx, w, n));
  const badSel = or(cx, ...chans.map((k) => e(cx, 'INe32', sels[k] as Inst, K(cx, 4 + k))));
  const refuse = or(cx, not(cx, bitOf(cx, pw, 0)), e(cx, 'ULe32', comps, K(cx, top)), badSel);
  const t = texel(cx, im, refuse, bitsOf(cx, pw, 1, 3));
  const is = (n: number) => e(cx, 'IEq32', width, K(cx, n));
  const b8 = cx.b.emit('LoadGlobalU8', listOf(e(cx, 'AndU1', t.on, is(1)), t.addr));
  const b16 = cx.b.emit('LoadGlobalU16', listOf(e(cx, 'AndU1', t.on, is(2)), t.addr));
  const narrow = plan.pck === 'sign'
    ? e(cx, 'Select32', is(1), e(cx, 'SBfe32', b8, K(cx, 0), K(cx, 8)), e(cx, 'SBfe32', b16, K(cx, 0), K(cx, 16)))
    : e(cx, 'Or32', b8, b16);
  chans.forEach((k, j) => {
    const dw = cx.b.emit('LoadGlobal32', listOf(e(cx, 'AndU1', t.on, is(3)), add64(cx, t.addr, 4 * k)));
    const x = e(cx, 'Select32', is(3), dw, narrow);
    cx.writeLane(vgpr(plan.vdata + j), e(cx, 'Select32', t.on, x, K(cx, 0)), 0, im.exec);
  });
};

/** image_store[_mip]_pck: the 32-bit components from their data VGPRs, an 8/16-bit element from vdata[0]'s low bits. */
const imagePckStore: Translator = (cx) => {
  const im = imageOf(cx);
  const { plan } = im;
  const pw = pckWordValue(cx, im.format);
  const comps = bitsOf(cx, pw, 4, 3), width = bitsOf(cx, pw, 7, 2);
  const n = leadingChannels(plan.dmask);
  const t = texel(cx, im, or(cx, not(cx, bitOf(cx, pw, 0)), e(cx, 'UGt32', comps, K(cx, n))), bitsOf(cx, pw, 1, 3));
  const is = (k: number) => e(cx, 'IEq32', width, K(cx, k));
  const x0 = cx.lane(vgpr(plan.vdata), 'b32');
  cx.b.emit('StoreGlobal8', listOf(e(cx, 'AndU1', t.on, is(1)), t.addr, e(cx, 'And32', x0, K(cx, 0xff))));
  cx.b.emit('StoreGlobal16', listOf(e(cx, 'AndU1', t.on, is(2)), t.addr, e(cx, 'And32', x0, K(cx, 0xffff))));
  for (let c = 0; c < n; c++) {
    const on = and(cx, t.on, is(3), e(cx, 'ULt32', K(cx, c), comps));
    cx.b.emit('StoreGlobal32', listOf(on, add64(cx, t.addr, 4 * c), cx.lane(vgpr(plan.vdata + c), 'b32')));
  }
};

/** image_get_resinfo: width, height or a 1D array's layers, depth or layers, the view's levels, for the lane's level. */
const imageResinfo: Translator = (cx) => {
  const plan = imageResinfoPlan(cx.inst);
  if (typeof plan === 'string') return cx.fail(plan);
  const w = tsharpWords(cx, plan);
  const f = (n: TsharpFieldName) => tfield(cx, w, n);
  const exec = cx.execBit();
  let refuse = e(cx, 'INe32', f('type'), K(cx, CLASS_TYPE[plan.cls]));
  if (plan.cls === '3d') refuse = or(cx, refuse, e(cx, 'INe32', f('arrayPitch'), K(cx, 0)));
  const v = cx.b.getVgpr(plan.mip.vgpr);
  const mip = plan.mip.half === undefined ? v : e(cx, 'And32', v, K(cx, 0xffff));
  const base = f('baseLevel'), last = f('lastLevel');
  const inView = and(cx, e(cx, 'ULe32', base, last), e(cx, 'ULe32', mip, e(cx, 'ISub32', last, base)));
  cx.b.emit('Fault', listOf(e(cx, 'AndU1', exec, or(cx, refuse, not(cx, inView)))), listOf(FAULT_IMAGE));
  // In the view the level is at most 15; the mask keeps the shifts defined elsewhere.
  const level = e(cx, 'And32', e(cx, 'IAdd32', base, mip), K(cx, 15));
  const size = (field: Inst) => e(cx, 'UMax32', e(cx, 'LShr32', e(cx, 'IAdd32', field, K(cx, 1)), level), K(cx, 1));
  const width = e(cx, 'Or32', f('widthLo'), e(cx, 'Shl32', f('widthHi'), K(cx, 2)));
  const layers = e(cx, 'IAdd32', e(cx, 'ISub32', f('depth'), f('baseArray')), K(cx, 1));
  const xyzw = [
    size(width),
    plan.cls === '1dArray' ? layers : size(f('height')),
    plan.cls === '3d' ? size(f('depth')) : layers,
    e(cx, 'IAdd32', e(cx, 'ISub32', last, base), K(cx, 1)),
  ];
  let j = 0;
  for (let k = 0; k < 4; k++) if (plan.dmask & (1 << k)) cx.writeLane(vgpr(plan.vdata + j++), xyzw[k] as Inst, 0, exec);
};

const FLOAT_ATOMICS: Readonly<Record<string, FloatAtomicOp>> = { fcmpswap: 'cmpswap', fmin: 'min', fmax: 'max' };

export const MIMG: Record<string, Translator> = { image_load: imageLoad, image_load_mip: imageLoad, image_store: imageStore, image_store_mip: imageStore };
for (const m of ['image_load_pck', 'image_load_pck_sgn', 'image_load_mip_pck', 'image_load_mip_pck_sgn']) MIMG[m] = imagePckLoad;
for (const m of ['image_store_pck', 'image_store_mip_pck']) MIMG[m] = imagePckStore;
MIMG.image_get_resinfo = imageResinfo;
// The sample and gather4 forms but the depth-compare ones (_c: never modelled, so `rdna coverage` names them) and image_gather4h.
for (const d of ISA_TABLE) {
  const op = d.mnemonic.startsWith('image_sample') ? 'image_sample' : d.mnemonic.startsWith('image_gather4') && d.mnemonic !== 'image_gather4h' ? 'image_gather4' : undefined;
  if (d.family === 'MIMG' && op && !d.mnemonic.slice(op.length).split('_').includes('c')) MIMG[d.mnemonic] = imageSample;
}
for (const d of ISA_TABLE) {
  if (d.family !== 'MIMG' || !(d.flags ?? NO_FLAGS).includes('atomic')) continue;
  const op = d.mnemonic.slice('image_atomic_'.length);
  const int = (ATOMIC_RMW as readonly string[]).includes(op) || op === 'cmpswap' ? (op as AtomicKind) : undefined;
  const fl = FLOAT_ATOMICS[op];
  const kind: AtomicKind | undefined = int ?? (fl ? { float: fl } : undefined);
  if (kind) MIMG[d.mnemonic] = imageAtomic(kind);
}
