// Buffer resources to IR: MUBUF and MTBUF loads, stores and atomics, and SMEM s_buffer_load,
// through a V# (4 SGPRs) exactly as the interpreter (src/interp/units/buffer.ts, src/interp/units/
// smem.ts) reads it: base 47:0, stride 61:48, swizzle enable (bit 63), num_records (dword 2), and
// in dword 3 dst_sel, format, index stride, add_tid_enable and oob_select. All of it is run-time
// data (wave-uniform SGPRs), so every field is decoded in IR and the range-checking rule of each
// oob_select is computed and selected by the field. A lane's access is a plain global access at
// the computed 64-bit address: a lane out of range, like an inactive one, goes to the sink
// (a load reads 0, a store or atomic does nothing, an atomic returns 0); a lane whose V# is the
// private segment buffer and whose bytes leave the wave's scratch region faults (scratchOverrun).
// Addresses and range sums are 64-bit, as exact as the interpreter's. What the interpreter does byte by byte and this does
// not (a swizzled access whose bytes cross a 4-byte element; a 64-bit atomic on a swizzled buffer,
// whose two dwords are apart) is a run-time fault, as is an unsupported V# format or a reserved
// dst_sel of a format load. Format loads of the formats narrower than 32 bits convert as the
// interpreter does (buffer-format.ts), and format stores to them convert as the interpreter's do
// (src/float/format-store.ts). The float atomics (fcmpswap/fmin/fmax(_x2)) as memory.ts's.
// Not translated: the lds=1 forms, which the interpreter does not implement either.
import type { Inst } from '../../ir/ir.js';
import type { AtomicRmw } from '../../ir/ops.js';
import { FAULT_BUFFER_FORMAT, FAULT_BUFFER_SWIZZLE, FAULT_SCRATCH_RANGE } from '../../ir/faults.js';
import { scratchWaveBytes } from '../../isa/apertures.js';
import { usesScratchRing, wantsScratch } from '../../interp/scratch.js';
import { ISA_TABLE } from '../../isa/table.js';
import { type BufferFormatInfo, bufferFormatInfo, GFX10_BUFFER_FORMATS } from '../../isa/tables/mtbuf.js';
import { alignedOf, convertComponent, descriptorOf, descriptorValue, isPackedFormat, layoutOf, oneOf, storeComponent } from './buffer-format.js';
import { NO_FLAGS, type InstrDef } from '../../isa/types.js';
import type { TContext, Translator } from '../context.js';
import { type AtomicKind, atomicOp, floatAtomicKind, INT_ATOMICS, scalarAtomic, scalarStore, writeWide } from './memory.js';
import { SCALAR_ATOMICS } from '../../isa/tables/smem.js';
import { listOf } from '../../ir/ir.js';

/** The V# fields as IR values (u64 base; u32 fields; u1 flags). */
interface Vsharp {
  readonly base: Inst; readonly stride: Inst; readonly swizzle: Inst; readonly numRecords: Inst;
  readonly w3: Inst; readonly log2IndexStride: Inst; readonly addTid: Inst; readonly oob: Inst;
}

const e = (cx: TContext, op: Parameters<TContext['b']['emit']>[0], ...args: Inst[]) => cx.b.emit(op, args);
const K = (cx: TContext, v: number) => cx.u32(v >>> 0);
const field = (cx: TContext, w: Inst, shift: number, mask: number) => e(cx, 'And32', e(cx, 'LShr32', w, K(cx, shift)), K(cx, mask));
const u64 = (cx: TContext, lo: Inst) => cx.pack(lo, K(cx, 0));
const add64 = (cx: TContext, ...xs: Inst[]) => xs.reduce((a, b) => e(cx, 'IAdd64', a, b));
/** a <= b (u64). */
const ule64 = (cx: TContext, a: Inst, b: Inst) => e(cx, 'NotU1', e(cx, 'ULt64', b, a));
const sel64 = (cx: TContext, c: Inst, a: Inst, b: Inst) => cx.pack(e(cx, 'Select32', c, e(cx, 'Lo32', a), e(cx, 'Lo32', b)), e(cx, 'Select32', c, e(cx, 'Hi32', a), e(cx, 'Hi32', b)));
const and = (cx: TContext, ...xs: Inst[]) => xs.reduce((a, b) => e(cx, 'AndU1', a, b));

function vsharpOf(cx: TContext, name: string): Vsharp {
  const r = cx.op(name).value;
  const w = [0, 1, 2, 3].map((k) => cx.scalar(r, 'b128', k)) as [Inst, Inst, Inst, Inst];
  const w3 = w[3];
  return {
    base: cx.memoryAddress(cx.pack(w[0], e(cx, 'And32', w[1], K(cx, 0xffff)))),
    stride: field(cx, w[1], 16, 0x3fff),
    swizzle: e(cx, 'INe32', e(cx, 'LShr32', w[1], K(cx, 31)), K(cx, 0)),
    numRecords: w[2], w3,
    log2IndexStride: e(cx, 'IAdd32', field(cx, w3, 21, 3), K(cx, 3)),
    addTid: e(cx, 'INe32', field(cx, w3, 23, 1), K(cx, 0)),
    oob: field(cx, w3, 28, 3),
  };
}

/** A lane's access: the V#, soffset, record index and (32-bit) offset, and its EXEC bit. */
interface Access { readonly v: Vsharp; readonly soff: Inst; readonly index: Inst; readonly offset: Inst; readonly exec: Inst }

function accessOf(cx: TContext): Access {
  const i = cx.inst;
  if (i.mods.lds) cx.fail(`${i.def.mnemonic} with lds (data to LDS at M0) is not translated (the interpreter does not implement it either)`);
  const v = vsharpOf(cx, 'srsrc');
  const vaddr = i.operands.find((o) => o.name === 'vaddr')?.value;
  const idxen = i.mods.idxen === true, offen = i.mods.offen === true;
  let index = K(cx, 0), voff = K(cx, 0);
  if (vaddr) {
    if (idxen) index = cx.lane(vaddr, 'u32', 0);
    if (offen) voff = cx.lane(vaddr, 'u32', idxen ? 1 : 0);
  }
  index = e(cx, 'Select32', v.addTid, e(cx, 'IAdd32', index, e(cx, 'LaneId')), index);
  const so = cx.op('soffset').value;
  return { v, soff: cx.scalar(so, 'u32'), index, offset: e(cx, 'IAdd32', voff, K(cx, i.mods.offset ?? 0)), exec: cx.execBit() };
}

/** Whether `size` bytes at byte offset `off` (u64) of the lane's record pass the V#'s range check (src/interp/units/buffer.ts inRange). */
function inRange(cx: TContext, a: Access, off: Inst, size: Inst): Inst {
  const { v, index } = a;
  const indexOk = e(cx, 'ULt32', index, v.numRecords);
  const end = add64(cx, off, u64(cx, size));
  const structured = e(cx, 'AndU1', indexOk, ule64(cx, end, u64(cx, v.stride)));
  const unchecked = e(cx, 'INe32', v.numRecords, K(cx, 0));
  const raw = ule64(cx, add64(cx, e(cx, 'UMulWide32', index, v.stride), end), u64(cx, v.numRecords));
  const is = (n: number) => e(cx, 'IEq32', v.oob, K(cx, n));
  return e(cx, 'SelectU1', is(0), structured, e(cx, 'SelectU1', is(1), indexOk, e(cx, 'SelectU1', is(2), unchecked, raw)));
}

/** The byte address of byte offset `off` (u64) of the lane's record, linear or swizzled (bufferAddress). */
function address(cx: TContext, a: Access, off: Inst): Inst {
  const { v, index } = a;
  const start = add64(cx, v.base, u64(cx, a.soff));
  const linear = add64(cx, start, e(cx, 'UMulWide32', index, v.stride), off);
  // base + soffset + (index / IS * stride + offset / 4 * 4) * IS + index % IS * 4 + offset % 4.
  const s = v.log2IndexStride;
  const offLo = e(cx, 'Lo32', off);
  const element = add64(cx, e(cx, 'UMulWide32', e(cx, 'LShr32', index, s), v.stride), cx.pack(e(cx, 'And32', offLo, K(cx, ~3)), e(cx, 'Hi32', off)));
  const inElement = e(cx, 'IAdd32', e(cx, 'Shl32', e(cx, 'And32', index, e(cx, 'ISub32', e(cx, 'Shl32', K(cx, 1), s), K(cx, 1))), K(cx, 2)), e(cx, 'And32', offLo, K(cx, 3)));
  const swizzled = add64(cx, start, e(cx, 'Shl64', element, s), u64(cx, inElement));
  return sel64(cx, v.swizzle, swizzled, linear);
}

/**
 * Component at byte `k` of the lane's access, `size` bytes: the lanes that perform it (active, in
 * range, `gate` if given, not faulting) and its address. A swizzled component whose bytes cross a
 * 4-byte element (any 8-byte one among them) faults instead.
 */
function component(cx: TContext, a: Access, k: number, size: number, gate?: Inst): { active: Inst; addr: Inst } {
  const off = add64(cx, u64(cx, a.offset), u64(cx, K(cx, k)));
  const ok = and(cx, a.exec, inRange(cx, a, off, K(cx, size)), ...(gate ? [gate] : []));
  const crosses = size > 4 ? cx.b.u1(true) : e(cx, 'UGt32', e(cx, 'IAdd32', e(cx, 'And32', e(cx, 'Lo32', off), K(cx, 3)), K(cx, size)), K(cx, 4));
  const bad = and(cx, ok, a.v.swizzle, crosses);
  cx.b.emit('Fault', listOf(bad), listOf(FAULT_BUFFER_SWIZZLE));
  const addr = address(cx, a, off);
  const outside = scratchOverrun(cx, a, addr, size, e(cx, 'AndU1', ok, e(cx, 'NotU1', bad)));
  return { active: and(cx, ok, e(cx, 'NotU1', bad), ...(outside ? [e(cx, 'NotU1', outside)] : [])), addr };
}

/**
 * The private segment buffer (s[0:3] of a kernel with scratch; its V# has num_records 0xffffffff,
 * as LLVM's scratch resource does, so the range check passes anything): where the V#'s base lies
 * in the wave's scratch region (a raw shader's: in its dispatch's scratch ring) (ScratchBase + scratchWaveBytes: the base after the prologue adds
 * the wave's offset, as clang's kernels and callees use it for their stack frames and spills
 * through s32/s33), each byte the lane accesses must lie in that region too, as for the SCRATCH
 * instructions (private.ts); a lane `on` where one does not raises FAULT_SCRATCH_RANGE and accesses
 * nothing (a call stack that outgrows private_segment_fixed_size, where the interpreter stops at
 * the first store outside its mapping). Undefined for a kernel without scratch.
 */
function scratchOverrun(cx: TContext, a: Access, addr: Inst, size: number, on: Inst): Inst | undefined {
  if (!wantsScratch(cx.shader.info)) return undefined;
  const sb = cx.b.emit('ScratchBase');
  const region = u64(cx, K(cx, scratchWaveBytes(cx.shader.info.scratchSize, cx.waveSize)));
  const inRegion = (x: Inst) => e(cx, 'ULt64', e(cx, 'ISub64', x, sb), region);
  const from = e(cx, 'ISub64', addr, sb);
  const fits = e(cx, 'AndU1', inRegion(addr), ule64(cx, add64(cx, from, u64(cx, K(cx, size))), region));
  // A raw shader's V# is the dispatch's ring (its base is wave 0's region; the wave offset is in soffset).
  const scratchVsharp = usesScratchRing(cx.shader.info)
    ? e(cx, 'ULt64', e(cx, 'ISub64', a.v.base, cx.b.emit('ScratchRing')), cx.b.emit('ScratchRingBytes'))
    : inRegion(a.v.base);
  const outside = and(cx, scratchVsharp, e(cx, 'NotU1', fits));
  cx.b.emit('Fault', listOf(e(cx, 'AndU1', on, outside)), listOf(FAULT_SCRATCH_RANGE));
  return outside;
}

const subBytes = (def: InstrDef): 1 | 2 | 4 => {
  const t = def.operands.find((o) => o.name === 'vdata')?.type ?? 'b32';
  return t === 'u8' || t === 'i8' ? 1 : t === 'u16' || t === 'i16' || t === 'b16' ? 2 : 4;
};
const dwordsOf = (def: InstrDef) => def.operands.find((o) => o.name === 'vdata')?.dwords ?? 1;

/** buffer_load_{dword*, ubyte, sbyte, ushort, sshort, *_d16[_hi]}: out-of-range parts read 0; tfe writes a 0 status dword. */
const plainLoad = (def: InstrDef): Translator => (cx) => {
  const a = accessOf(cx);
  const d = cx.op('vdata').value;
  const bytes = subBytes(def), n = dwordsOf(def);
  const t = def.operands.find((o) => o.name === 'vdata')?.type;
  if (bytes < 4) {
    const c = component(cx, a, 0, bytes);
    let x = cx.b.emit(bytes === 1 ? 'LoadGlobalU8' : 'LoadGlobalU16', listOf(c.active, c.addr));
    if (t === 'i8' || t === 'i16') x = e(cx, 'SBfe32', x, K(cx, 0), K(cx, 8 * bytes));
    if ((def.flags ?? NO_FLAGS).includes('d16')) {
      const old = cx.lane(d, 'b32', 0);
      x = def.mnemonic.endsWith('_hi')
        ? e(cx, 'Or32', e(cx, 'And32', old, K(cx, 0xffff)), e(cx, 'Shl32', x, K(cx, 16)))
        : e(cx, 'Or32', e(cx, 'And32', old, K(cx, 0xffff0000)), e(cx, 'And32', x, K(cx, 0xffff)));
    }
    cx.writeLane(d, x, 0, a.exec);
  } else {
    const vals = Array.from({ length: n }, (_, k) => { const c = component(cx, a, 4 * k, 4); return cx.b.emit('LoadGlobal32', listOf(c.active, c.addr)); });
    vals.forEach((x, k) => cx.writeLane(d, x, k, a.exec));
  }
  if (cx.inst.mods.tfe) cx.writeLane(d, K(cx, 0), bytes < 4 ? 1 : n, a.exec);
};

/** buffer_store_{dword*, byte, short, *_d16_hi}: out-of-range parts are dropped. */
const plainStore = (def: InstrDef): Translator => (cx) => {
  const a = accessOf(cx);
  const d = cx.op('vdata').value;
  const bytes = subBytes(def);
  if (bytes < 4) {
    const c = component(cx, a, 0, bytes);
    let x = cx.lane(d, 'b32', 0);
    if (def.mnemonic.endsWith('_d16_hi')) x = e(cx, 'LShr32', x, K(cx, 16));
    cx.b.emit(bytes === 1 ? 'StoreGlobal8' : 'StoreGlobal16', listOf(c.active, c.addr, x));
    return;
  }
  for (let k = 0; k < dwordsOf(def); k++) {
    const c = component(cx, a, 4 * k, 4);
    cx.b.emit('StoreGlobal32', listOf(c.active, c.addr, cx.lane(d, 'b32', k)));
  }
};

/** The 32-bit-per-component formats the interpreter implements (BUF_FMT_32_UINT ... 32_32_32_32_FLOAT): value → components, float. */
const FORMAT32: ReadonlyMap<number, { comps: number; float: boolean }> = new Map(GFX10_BUFFER_FORMATS.flatMap((name, k) => {
  const m = /^BUF_FMT_((?:32_)+)(UINT|SINT|FLOAT)$/.exec(name);
  return m && m[1] && m[2] ? [[k, { comps: m[1].length / 3, float: m[2] === 'FLOAT' }] as const] : [];
}));

/**
 * The instruction's format, from the instruction (MTBUF: known) or the V# (MUBUF: run-time): for
 * the 32-bit UINT/SINT/FLOAT formats their components (else 0) and whether they are float, and
 * the packed formats' descriptor (buffer-format.ts; 0 for the others).
 */
interface Format { readonly comps: Inst; readonly float: Inst; readonly desc: Inst; readonly known?: { readonly comps32: number; readonly packed: BufferFormatInfo | undefined } }

function formatOf(cx: TContext, v: Vsharp): Format {
  if (cx.inst.def.family === 'MTBUF') {
    const fmt = cx.inst.mods.format ?? 0;
    const f = FORMAT32.get(fmt);
    const info = bufferFormatInfo(fmt);
    const packed = info && isPackedFormat(info) ? info : undefined;
    if (!f && !packed) cx.fail(`${cx.inst.def.mnemonic} with ${GFX10_BUFFER_FORMATS[fmt] ?? `format ${fmt}`}: not a format the interpreter implements`);
    return { comps: K(cx, f?.comps ?? 0), float: cx.b.u1(f?.float ?? false), desc: K(cx, descriptorOf(fmt)), known: { comps32: f?.comps ?? 0, packed } };
  }
  const fmt = field(cx, v.w3, 12, 0x7f);
  let comps = K(cx, 0), float = cx.b.u1(false);
  for (const [k, f] of FORMAT32) {
    const is = e(cx, 'IEq32', fmt, K(cx, k));
    comps = e(cx, 'Select32', is, K(cx, f.comps), comps);
    float = e(cx, 'SelectU1', is, cx.b.u1(f.float), float);
  }
  return { comps, float, desc: descriptorValue(cx, fmt) };
}

/** How many components a format instruction moves: x, xy, xyz or xyzw (its mnemonic's suffix). */
const componentsOf = (def: InstrDef): number => (/_(x|xy|xyz|xyzw)$/.exec(def.mnemonic)?.[1] ?? 'x').length;

/** result k by the V#'s dst_sel k: 0, one, or channel x..w; a reserved selector (2, 3) faults where `ok`. */
function selected(cx: TContext, a: Access, k: number, ok: Inst, one: Inst, channels: readonly Inst[]): Inst {
  const sel = field(cx, a.v.w3, 3 * k, 7);
  const is = (s: number) => e(cx, 'IEq32', sel, K(cx, s));
  cx.b.emit('Fault', listOf(and(cx, ok, e(cx, 'OrU1', is(2), is(3)))), listOf(FAULT_BUFFER_FORMAT));
  let x = e(cx, 'Select32', is(1), one, K(cx, 0));
  channels.forEach((ch, c) => { x = e(cx, 'Select32', is(4 + c), ch, x); });
  return e(cx, 'Select32', ok, x, K(cx, 0));
}

/** The 32-bit formats' results 0..n-1: the element (every component) in range, else 0. */
function load32(cx: TContext, a: Access, f: Format, n: number, gate: Inst): Inst[] {
  const whole = inRange(cx, a, u64(cx, a.offset), e(cx, 'Shl32', f.comps, K(cx, 2)));
  const ok = and(cx, a.exec, whole, gate);
  const one = e(cx, 'Select32', f.float, K(cx, 0x3f800000), K(cx, 1));
  const known = f.known?.comps32;
  const channels = [0, 1, 2, 3].map((c) => {
    if (known !== undefined && c >= known) return c === 3 ? one : K(cx, 0);
    const has = e(cx, 'ULt32', K(cx, c), f.comps);
    const comp = component(cx, a, 4 * c, 4, e(cx, 'AndU1', ok, has));
    const x = cx.b.emit('LoadGlobal32', listOf(comp.active, comp.addr));
    return known !== undefined ? x : e(cx, 'Select32', has, x, c === 3 ? one : K(cx, 0));
  });
  return Array.from({ length: n }, (_, k) => selected(cx, a, k, ok, one, channels));
}

/** The packed formats' results 0..n-1 (32-bit, or with d16 16-bit): the element's bytes, in range as a whole, converted. */
function loadPacked(cx: TContext, a: Access, f: Format, n: number, d16: boolean, gate: Inst): Inst[] {
  const L = layoutOf(cx, f.desc);
  const ok = and(cx, a.exec, inRange(cx, a, u64(cx, a.offset), L.bytes), gate);
  const words = [K(cx, 0), K(cx, 0)];
  const maxBytes = f.known?.packed?.bytes ?? 8;
  for (let k = 0; k < maxBytes; k++) {
    const on = f.known ? ok : e(cx, 'AndU1', ok, e(cx, 'ULt32', K(cx, k), L.bytes));
    const x = cx.b.emit('LoadGlobalU8', listOf(on, address(cx, a, add64(cx, u64(cx, a.offset), u64(cx, K(cx, k))))));
    words[k >> 2] = e(cx, 'Or32', words[k >> 2] as Inst, e(cx, 'Shl32', x, K(cx, 8 * (k & 3))));
  }
  const channels = [0, 1, 2, 3].map((c) => convertComponent(cx, L, c, words[0] as Inst, words[1] as Inst, d16));
  const one = oneOf(cx, L, d16);
  return Array.from({ length: n }, (_, k) => selected(cx, a, k, ok, one, channels));
}

/**
 * buffer_load_format_* / tbuffer_load_format_* (the interpreter's formatHandler and packedFormat):
 * the element in range or every result 0; result k by the V#'s dst_sel k. The 32-bit formats give
 * the dwords; the packed ones convert (buffer-format.ts); d16 results go two to a VGPR, the d16
 * forms keeping the unused half of their last VGPR. A MUBUF V# format the interpreter refuses for
 * the instruction (a d16 form of a 32-bit format, an invalid one) faults.
 */
const formatLoad = (def: InstrDef): Translator => (cx) => {
  const a = accessOf(cx);
  const f = formatOf(cx, a.v);
  const d = cx.op('vdata').value;
  const d16 = (def.flags ?? NO_FLAGS).includes('d16'), hi = def.mnemonic.includes('_d16_hi');
  const n = componentsOf(def);
  if (d16 && f.known && !f.known.packed) cx.fail(`${def.mnemonic} with ${GFX10_BUFFER_FORMATS[cx.inst.mods.format ?? 0]}: d16 forms of the 32-bit formats are not translated (the interpreter does not implement them)`);
  const packed = e(cx, 'INe32', f.desc, K(cx, 0));
  const is32 = e(cx, 'INe32', f.comps, K(cx, 0));
  // The interpreter refuses such a format before looking at a lane (so whatever EXEC holds).
  cx.b.emit('Fault', listOf(e(cx, 'NotU1', d16 ? packed : e(cx, 'OrU1', packed, is32))), listOf(FAULT_BUFFER_FORMAT));
  const usePacked = f.known ? f.known.packed !== undefined : true;
  const use32 = !d16 && (f.known ? f.known.comps32 > 0 : true);
  const p = usePacked ? loadPacked(cx, a, f, n, d16, packed) : undefined;
  const w = use32 ? load32(cx, a, f, n, is32) : undefined;
  const results = Array.from({ length: n }, (_, k) => (p && w ? e(cx, 'Select32', packed, p[k] as Inst, w[k] as Inst) : ((p ?? w) as Inst[])[k] as Inst));
  if (!d16) results.forEach((x, k) => cx.writeLane(d, x, k, a.exec));
  else if (hi) cx.writeLane(d, e(cx, 'Or32', e(cx, 'And32', cx.lane(d, 'b32', 0), K(cx, 0xffff)), e(cx, 'Shl32', results[0] as Inst, K(cx, 16))), 0, a.exec);
  else for (let r = 0; r < n; r += 2) {
    const high = r + 1 < n ? e(cx, 'Shl32', results[r + 1] as Inst, K(cx, 16)) : e(cx, 'And32', cx.lane(d, 'b32', r >> 1), K(cx, 0xffff0000));
    cx.writeLane(d, e(cx, 'Or32', results[r] as Inst, high), r >> 1, a.exec);
  }
  if (cx.inst.mods.tfe) cx.writeLane(d, K(cx, 0), d16 ? (n + 1) >> 1 : n, a.exec);
};

/**
 * buffer_store_format_* / tbuffer_store_format_* (the interpreter's formatHandler and packedFormat):
 * the 32-bit formats' first min(n, components) dwords, each range-checked; the packed formats'
 * named components converted (src/float/format-store.ts through buffer-format.ts's
 * storeComponent; with d16 from halves): whole-byte components (8, 16 bits) each written and
 * range-checked on its own, the 10/11/2-bit formats' 4-byte element as one. Refused at
 * translation (MTBUF), or a fault of the V# format (MUBUF), as the interpreter refuses them: a d16
 * store to a 32-bit format, a 10/11/2-bit format with fewer components named than it has.
 */
const formatStore = (def: InstrDef): Translator => (cx) => {
  const a = accessOf(cx);
  const f = formatOf(cx, a.v);
  const d = cx.op('vdata').value;
  const d16 = (def.flags ?? NO_FLAGS).includes('d16'), hi = def.mnemonic.includes('_d16_hi');
  const n = componentsOf(def);
  const name = GFX10_BUFFER_FORMATS[cx.inst.mods.format ?? 0];
  const kp = f.known?.packed;
  const kAligned = kp ? kp.widths.every((w) => w % 8 === 0) : undefined;
  if (f.known && d16 && !kp) cx.fail(`${def.mnemonic} with ${name}: d16 forms of the 32-bit formats are not translated (the interpreter does not implement them)`);
  if (kp && !kAligned && n < kp.widths.length) {
    cx.fail(`${def.mnemonic} with ${name}: a format store naming ${n} of the format's ${kp.widths.length} components, which are not whole bytes, is not translated (the interpreter does not implement it)`);
  }
  const L = layoutOf(cx, f.desc);
  const packed = e(cx, 'INe32', f.desc, K(cx, 0));
  const aligned = alignedOf(cx, f.desc);
  const fewer = n < 4 ? e(cx, 'INe32', L.widths[n] as Inst, K(cx, 0)) : cx.b.u1(false);
  const packedOk = and(cx, packed, e(cx, 'OrU1', aligned, e(cx, 'NotU1', fewer)));
  const is32 = e(cx, 'INe32', f.comps, K(cx, 0));
  // The interpreter refuses such a format before looking at a lane (so whatever EXEC holds).
  cx.b.emit('Fault', listOf(e(cx, 'NotU1', d16 ? packedOk : e(cx, 'OrU1', packedOk, is32))), listOf(FAULT_BUFFER_FORMAT));
  const chan = (c: number): Inst => {
    if (!d16) return cx.lane(d, 'b32', c);
    const x = cx.lane(d, 'b32', c >> 1);
    return hi || (c & 1) === 1 ? e(cx, 'LShr32', x, K(cx, 16)) : x;
  };
  if (!d16 && (!f.known || f.known.comps32 > 0)) {
    for (let k = 0; k < Math.min(n, f.known?.comps32 ?? 4); k++) {
      const c = component(cx, a, 4 * k, 4, e(cx, 'ULt32', K(cx, k), f.comps));
      cx.b.emit('StoreGlobal32', listOf(c.active, c.addr, chan(k)));
    }
  }
  if (f.known && !kp) return;
  const m = Math.min(n, kp?.widths.length ?? 4);
  const conv = Array.from({ length: m }, (_, c) => storeComponent(cx, L, c, chan(c), d16));
  if (kAligned !== false) {
    // Whole-byte components: each one's bytes, the component range-checked as a unit.
    for (let c = 0; c < m; c++) {
      const size = e(cx, 'LShr32', L.widths[c] as Inst, K(cx, 3));
      const off = add64(cx, u64(cx, a.offset), u64(cx, e(cx, 'LShr32', L.shifts[c] as Inst, K(cx, 3))));
      const ok = and(cx, a.exec, packed, aligned, inRange(cx, a, off, size));
      for (let j = 0; j < (kp ? (kp.widths[c] ?? 0) / 8 : 2); j++) {
        const on = kp ? ok : e(cx, 'AndU1', ok, e(cx, 'ULt32', K(cx, j), size));
        cx.b.emit('StoreGlobal8', listOf(on, address(cx, a, add64(cx, off, u64(cx, K(cx, j)))), j === 0 ? conv[c] as Inst : e(cx, 'LShr32', conv[c] as Inst, K(cx, 8 * j))));
      }
    }
  }
  if (kAligned !== true) {
    // 10_11_11, 11_11_10, 10_10_10_2, 2_10_10_10: the 4-byte element, in range as a whole.
    let el = K(cx, 0);
    conv.forEach((x, c) => { el = e(cx, 'Or32', el, e(cx, 'Shl32', x, L.shifts[c] as Inst)); });
    const ok = and(cx, a.exec, packedOk, e(cx, 'NotU1', aligned), inRange(cx, a, u64(cx, a.offset), K(cx, 4)));
    for (let b = 0; b < 4; b++) {
      cx.b.emit('StoreGlobal8', listOf(ok, address(cx, a, add64(cx, u64(cx, a.offset), u64(cx, K(cx, b)))), b === 0 ? el : e(cx, 'LShr32', el, K(cx, 8 * b))));
    }
  }
};

/** buffer_atomic_<op>[_x2]: in-range active lanes; with glc the old value (0 out of range) back to vdata. */
const bufferAtomic = (kind: AtomicKind, wide: boolean): Translator => (cx) => {
  const a = accessOf(cx);
  const d = cx.op('vdata').value;
  const c = component(cx, a, 0, wide ? 8 : 4);
  const old = atomicOp(cx, kind, wide, c.active, c.addr, (k) => cx.lane(d, 'b32', k));
  if (cx.inst.mods.glc) writeWide(cx, d, old, wide, a.exec);
};

/**
 * The operands of s_buffer_*: the V#'s base (in the code image where it lies there) and
 * num_records, and the byte offset (offset + SGPR offset in 32 bits, the two low bits cleared).
 * `fits(k, bytes)`: whether `bytes` at the offset + k are inside num_records.
 */
function sbufferAccess(cx: TContext): { readonly base: Inst; readonly off: Inst; readonly fits: (k: number, bytes: number) => Inst } {
  const sb = cx.op('sbase').value;
  const w = [0, 1, 2].map((k) => cx.scalar(sb, 'b128', k)) as [Inst, Inst, Inst];
  const base = cx.memoryAddress(cx.pack(w[0], e(cx, 'And32', w[1], K(cx, 0xffff))));
  let off = K(cx, (cx.inst.mods.offset ?? 0) >>> 0);
  const so = cx.op('soffset').value;
  if (!(so.kind === 'special' && so.reg === 'null')) off = e(cx, 'IAdd32', off, cx.scalar(so, 'u32'));
  off = e(cx, 'And32', off, K(cx, ~3));
  return { base, off, fits: (k, bytes) => ule64(cx, add64(cx, u64(cx, off), u64(cx, K(cx, k + bytes))), u64(cx, w[2])) };
}

/** s_buffer_load_dword*: base and num_records of the V# only; a dword past num_records reads 0. */
const sbufferLoad = (n: number): Translator => (cx) => {
  const b = cx.b;
  const { base, off, fits } = sbufferAccess(cx);
  for (let k = 0; k < n; k++) {
    const o = add64(cx, u64(cx, off), u64(cx, K(cx, 4 * k)));
    // A uniform condition and address: every lane loads the same dword (or, out of range, the sink's 0).
    cx.writeScalar(cx.op('sdata').value, b.emit('LoadGlobal32', listOf(fits(4 * k, 4), add64(cx, base, o))), k);
  }
};

/** s_buffer_store_dword* (gfx1010/gfx1013): as s_store (memory.ts scalarStore); a dword past num_records is not written. */
const sbufferStore = (n: number): Translator => (cx) => {
  const { base, off, fits } = sbufferAccess(cx);
  const a = add64(cx, base, u64(cx, off));
  for (let k = 0; k < n; k++) scalarStore(cx, fits(4 * k, 4), a, k);
};

/** s_buffer_atomic_* (gfx1010/gfx1013): as s_atomic (memory.ts scalarAtomic); past num_records nothing happens and glc returns 0. */
const sbufferAtomic = (kind: AtomicRmw | 'cmpswap', wide: boolean): Translator => (cx) => {
  const { base, off, fits } = sbufferAccess(cx);
  scalarAtomic(cx, kind, wide, add64(cx, base, u64(cx, off)), fits(0, wide ? 8 : 4));
};

function translatorOf(def: InstrDef): Translator | undefined {
  const f = def.flags ?? NO_FLAGS;
  if (f.includes('noOperands')) return () => undefined; // buffer_gl0_inv / gl1_inv: coherent memory
  if (f.includes('atomic')) {
    const a = INT_ATOMICS.find(([name]) => name === def.mnemonic.replace(/^buffer_atomic_/, ''));
    const fl = floatAtomicKind(def.mnemonic);
    return a ? bufferAtomic(a[1], a[2]) : fl ? bufferAtomic(fl[0], fl[1]) : undefined;
  }
  const format = def.mnemonic.includes('format');
  if (f.includes('load')) return format ? formatLoad(def) : plainLoad(def);
  return format ? formatStore(def) : plainStore(def);
}

export const BUFFER: Record<string, Translator> = {
  s_buffer_load_dword: sbufferLoad(1), s_buffer_load_dwordx2: sbufferLoad(2), s_buffer_load_dwordx4: sbufferLoad(4),
  s_buffer_load_dwordx8: sbufferLoad(8), s_buffer_load_dwordx16: sbufferLoad(16),
  s_buffer_store_dword: sbufferStore(1), s_buffer_store_dwordx2: sbufferStore(2), s_buffer_store_dwordx4: sbufferStore(4),
  ...Object.fromEntries(SCALAR_ATOMICS.flatMap((k) => [false, true].map((wide) => [`s_buffer_atomic_${k}${wide ? '_x2' : ''}`, sbufferAtomic(k, wide)]))),
};
for (const d of ISA_TABLE) {
  if (d.family !== 'MUBUF' && d.family !== 'MTBUF') continue;
  const t = translatorOf(d);
  if (t) BUFFER[d.mnemonic] = t;
}
