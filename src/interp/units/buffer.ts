// MUBUF and MTBUF: memory through a V# buffer resource (4 SGPRs), read from the table's facts
// (flags 'load' / 'store' / 'atomic' / 'd16', vdata's type and dwords). RDNA2 ISA reference,
// "Vector Memory Buffer Instructions" (buffer addressing, range checking) and the V# layout:
//   dword0       base[31:0]
//   dword1       base[47:32] [15:0], stride [29:16], cache swizzle [30], swizzle enable [31]
//   dword2       num_records
//   dword3       dst_sel_x/y/z/w [11:0] (0: 0, 1: 1, 4..7: x..w), format [18:12],
//                index_stride [22:21] (8, 16, 32, 64), add_tid_enable [23], oob_select [29:28]
// Address of a lane:
//   index  = (idxen ? vaddr[0] : 0) + (add_tid ? lane : 0)
//   offset = (offen ? vaddr[idxen ? 1 : 0] : 0) + inst_offset                  (32-bit)
//   linear:   base + soffset + index * stride + offset
//   swizzled: base + soffset + (index / IS * stride + offset / 4 * 4) * IS + index % IS * 4 + offset % 4
//             (IS = index stride; the gfx10 swizzle element is 4 bytes, which is why a swizzled
//             access is split into dwords, and an unaligned one into bytes)
// Range check per component (each dword, or the one sub-dword element), by oob_select:
//   0  index >= num_records or offset + size > stride    (structured, index and offset)
//   1  index >= num_records                               (structured, index only)
//   2  num_records == 0                                   (checking off but for a null V#)
//   3  index * stride + offset + size > num_records       (raw)
// soffset is not part of the range check (ISA: the SGPR offset is not range-checked). Out of
// range: loads return 0 for that component, stores and atomics do nothing, atomics return 0.
// Choices not settled by a source we could read (recorded for TECHNICAL_DEBT): the per-component
// check, soffset left out of it, an out-of-range atomic returning 0, an out-of-range format load
// returning 0 in every component, and MTBUF applying the V#'s dst_sel like MUBUF format loads.
// The float atomics (fcmpswap: data then compare, fmin, fmax, _x2) compute through the float
// model's floatAtomic (src/float/atomic.ts), as vmem.ts's. Format loads of the formats narrower
// than 32 bits convert through buffer-format.ts, format stores to them through
// src/float/format-store.ts (packedFormat below).
import type { Instruction, OperandValue } from '../../decode/types.js';
import { NO_FLAGS, type InstrDef } from '../../isa/types.js';
import { ISA_TABLE } from '../../isa/table.js';
import { type BufferFormatInfo, bufferFormatInfo, GFX10_BUFFER_FORMATS } from '../../isa/tables/mtbuf.js';
import { convert16, convert32, isPackedFormat, missing } from './buffer-format.js';
import { packComponentNumber } from '../../float/format-store.js';
import { type ExecContext, type Handler, operandOf } from '../context.js';
import { InterpError, UnimplementedError } from '../errors.js';
import { readLane, readScalar, writeLane } from '../operands.js';
import { atomicRuleOf, hasCompare } from './vmem.js';
import { checkScratch, inScratchRing } from '../scratch.js';

const M32 = 0xffffffffn;

export interface Vsharp {
  readonly base: number;
  readonly stride: number;
  readonly swizzle: boolean;
  readonly numRecords: number;
  readonly dstSel: readonly [number, number, number, number];
  readonly format: number;
  readonly indexStride: number;
  readonly addTid: boolean;
  readonly oobSelect: number;
}

/** The V# fields of four dwords. */
export function parseVsharp(w: readonly number[]): Vsharp {
  const w1 = (w[1] ?? 0) >>> 0, w3 = (w[3] ?? 0) >>> 0;
  return {
    base: (w1 & 0xffff) * 2 ** 32 + ((w[0] ?? 0) >>> 0),
    stride: (w1 >>> 16) & 0x3fff,
    swizzle: (w1 >>> 31) === 1,
    numRecords: (w[2] ?? 0) >>> 0,
    dstSel: [w3 & 7, (w3 >>> 3) & 7, (w3 >>> 6) & 7, (w3 >>> 9) & 7],
    format: (w3 >>> 12) & 0x7f,
    indexStride: 8 << ((w3 >>> 21) & 3),
    addTid: ((w3 >>> 23) & 1) === 1,
    oobSelect: (w3 >>> 28) & 3,
  };
}

/** Whether `size` bytes at `offset` of record `index` pass the range check. */
export function inRange(v: Vsharp, index: number, offset: number, size: number): boolean {
  switch (v.oobSelect) {
    case 0: return index < v.numRecords && offset + size <= v.stride;
    case 1: return index < v.numRecords;
    case 2: return v.numRecords !== 0;
    default: return index * v.stride + offset + size <= v.numRecords;
  }
}

/** The byte address of `offset` in record `index` (soffset added by the caller's `soff`). */
export function bufferAddress(v: Vsharp, soff: number, index: number, offset: number): number {
  if (!v.swizzle) return v.base + soff + index * v.stride + offset;
  const is = v.indexStride;
  return v.base + soff + (Math.floor(index / is) * v.stride + Math.floor(offset / 4) * 4) * is + (index % is) * 4 + (offset & 3);
}

interface LaneAddr { readonly v: Vsharp; readonly soff: number; readonly index: number; readonly offset: number }

function vsharpOf(inst: Instruction, cx: ExecContext): Vsharp {
  const r = operandOf(inst, 'srsrc');
  if (!r) throw new InterpError('no srsrc');
  return parseVsharp([0, 1, 2, 3].map((k) => readScalar(cx.st, r.value, 'b128', k)));
}

function laneAddr(inst: Instruction, cx: ExecContext, v: Vsharp, soff: number, lane: number): LaneAddr {
  const vaddr = operandOf(inst, 'vaddr')?.value;
  const idxen = inst.mods.idxen === true, offen = inst.mods.offen === true;
  let index = 0, voff = 0;
  if (vaddr) {
    if (idxen) index = readLane(cx.st, vaddr, 'u32', lane, 0);
    if (offen) voff = readLane(cx.st, vaddr, 'u32', lane, idxen ? 1 : 0);
  }
  if (v.addTid) index = (index + lane) >>> 0;
  return { v, soff, index, offset: (voff + (inst.mods.offset ?? 0)) >>> 0 };
}

function soffsetOf(inst: Instruction, cx: ExecContext): number {
  const s = operandOf(inst, 'soffset');
  return s ? readScalar(cx.st, s.value, 'u32') >>> 0 : 0;
}

/**
 * The address of `size` bytes at offset `off` of the lane's access. Through a V# whose base lies in
 * a raw shader's scratch ring they must lie in the wave's own region (src/interp/scratch.ts), as
 * the recompiled module's check asks (src/frontend/units/buffer.ts scratchOverrun).
 */
function addressOf(cx: ExecContext, a: LaneAddr, off: number, size: number): number {
  const addr = bufferAddress(a.v, a.soff, a.index, off);
  if (inScratchRing(cx.scratchRegion, a.v.base)) checkScratch(cx.scratchRegion, addr, size);
  return addr;
}

/** `size` bytes at byte `k` of the lane's access, or undefined when out of range. */
function readAt(cx: ExecContext, a: LaneAddr, k: number, size: 1 | 2 | 4): number | undefined {
  const off = a.offset + k;
  if (!inRange(a.v, a.index, off, size)) return undefined;
  if (!a.v.swizzle || (off & 3) + size <= 4) return cx.mem.read(addressOf(cx, a, off, size), size);
  let x = 0;
  for (let b = 0; b < size; b++) x |= cx.mem.read(addressOf(cx, a, off + b, 1), 1) << (8 * b);
  return x >>> 0;
}

function writeAt(cx: ExecContext, a: LaneAddr, k: number, size: 1 | 2 | 4, value: number): void {
  const off = a.offset + k;
  if (!inRange(a.v, a.index, off, size)) return;
  if (!a.v.swizzle || (off & 3) + size <= 4) { cx.mem.write(addressOf(cx, a, off, size), size, value); return; }
  for (let b = 0; b < size; b++) cx.mem.write(addressOf(cx, a, off + b, 1), 1, (value >>> (8 * b)) & 0xff);
}

/** Components and kind of the 32-bit-per-component formats (BUF_FMT_32_UINT ... 32_32_32_32_FLOAT). */
function format32(format: number): { comps: number; float: boolean } | undefined {
  const name = GFX10_BUFFER_FORMATS[format];
  const m = name ? /^BUF_FMT_((?:32_)+)(UINT|SINT|FLOAT)$/.exec(name) : null;
  if (!m || !m[1] || !m[2]) return undefined;
  return { comps: m[1].length / 3, float: m[2] === 'FLOAT' };
}

function formatName(format: number): string {
  return GFX10_BUFFER_FORMATS[format] ?? `format ${format}`;
}

interface Access { readonly kind: 'load' | 'store' | 'atomic'; readonly bytes: 1 | 2 | 4; readonly dwords: number; readonly signed: boolean; readonly d16: boolean; readonly hi: boolean; readonly isFormat: boolean }

function accessOf(def: InstrDef): Access {
  const f = def.flags ?? NO_FLAGS;
  const kind = f.includes('load') ? 'load' : f.includes('store') ? 'store' : 'atomic';
  const data = def.operands.find((o) => o.name === 'vdata');
  const t = data?.type ?? 'b32';
  const bytes: 1 | 2 | 4 = t === 'u8' || t === 'i8' ? 1 : t === 'u16' || t === 'i16' || t === 'b16' ? 2 : 4;
  return {
    kind, bytes, dwords: data?.dwords ?? 1, signed: t === 'i8' || t === 'i16', d16: f.includes('d16'),
    hi: def.mnemonic.includes('_d16_hi'), isFormat: def.mnemonic.includes('format'),
  };
}

function dataOperand(inst: Instruction): OperandValue {
  const d = operandOf(inst, 'vdata');
  if (!d) throw new InterpError('no vdata operand');
  return d.value;
}

function forLanes(inst: Instruction, cx: ExecContext, f: (a: LaneAddr, lane: number) => void): void {
  if (inst.mods.lds) throw new UnimplementedError(`${inst.def.mnemonic} with lds (data to LDS at M0) is not implemented`);
  const v = vsharpOf(inst, cx);
  const soff = soffsetOf(inst, cx);
  for (let l = 0; l < cx.st.waveSize; l++) if (cx.st.active(l)) f(laneAddr(inst, cx, v, soff, l), l);
}

function plainHandler(def: InstrDef, acc: Access): Handler {
  return (inst, cx) => {
    const data = dataOperand(inst);
    forLanes(inst, cx, (a, l) => {
      if (acc.kind === 'store') {
        if (acc.bytes < 4) {
          const x = readLane(cx.st, data, 'b32', l, 0);
          writeAt(cx, a, 0, acc.bytes, acc.hi ? x >>> 16 : x);
        } else for (let k = 0; k < acc.dwords; k++) writeAt(cx, a, 4 * k, 4, readLane(cx.st, data, 'b32', l, k));
        return;
      }
      if (acc.bytes < 4) {
        let x = readAt(cx, a, 0, acc.bytes) ?? 0;
        if (acc.signed) x = acc.bytes === 1 ? (x << 24) >> 24 : (x << 16) >> 16;
        if (acc.d16) {
          const old = readLane(cx.st, data, 'b32', l, 0);
          x = acc.hi ? (old & 0xffff) | ((x & 0xffff) << 16) : (old & 0xffff0000) | (x & 0xffff);
        }
        writeLane(cx.st, data, l, x >>> 0, 0);
      } else for (let k = 0; k < acc.dwords; k++) writeLane(cx.st, data, l, readAt(cx, a, 4 * k, 4) ?? 0, k);
      // tfe: the extra dword is the fetch status, 0 (no texture fault in a flat memory model).
      if (inst.mods.tfe) writeLane(cx.st, data, l, 0, acc.bytes < 4 ? 1 : acc.dwords);
    });
  };
}

function formatHandler(def: InstrDef, acc: Access): Handler {
  return (inst, cx) => {
    const v = vsharpOf(inst, cx);
    const fmt = inst.def.family === 'MTBUF' ? inst.mods.format ?? 0 : v.format;
    const info = bufferFormatInfo(fmt);
    if (info && isPackedFormat(info)) return packedFormat(def, acc, info)(inst, cx);
    if (acc.d16) throw new UnimplementedError(`${def.mnemonic} with ${formatName(fmt)}: d16 forms of the 32-bit formats are not implemented`);
    const f = format32(fmt);
    if (!f) throw new UnimplementedError(`${def.mnemonic} with ${formatName(fmt)}: not a format the interpreter implements`);
    const n = acc.dwords;
    const one = f.float ? 0x3f800000 : 1;
    const data = dataOperand(inst);
    forLanes(inst, cx, (a, l) => {
      if (acc.kind === 'store') {
        for (let k = 0; k < Math.min(n, f.comps); k++) writeAt(cx, a, 4 * k, 4, readLane(cx.st, data, 'b32', l, k));
        return;
      }
      // Every component of the element must be in range for the element to be fetched.
      const ok = inRange(a.v, a.index, a.offset, 4 * f.comps);
      const channel = (c: number): number => (c < f.comps ? readAt(cx, a, 4 * c, 4) ?? 0 : c === 3 ? one : 0);
      for (let k = 0; k < n; k++) {
        const sel = a.v.dstSel[k] ?? 0;
        const x = !ok ? 0 : sel === 0 ? 0 : sel === 1 ? one : sel >= 4 ? channel(sel - 4) : 0;
        if (ok && (sel === 2 || sel === 3)) throw new UnimplementedError(`${def.mnemonic}: reserved DST_SEL value ${sel}`);
        writeLane(cx.st, data, l, x >>> 0, k);
      }
      if (inst.mods.tfe) writeLane(cx.st, data, l, 0, n);
    });
  };
}

/** How many components a format instruction moves: x, xy, xyz or xyzw (its mnemonic's suffix). */
const componentsOf = (def: InstrDef): number => (/_(x|xy|xyz|xyzw)$/.exec(def.mnemonic)?.[1] ?? 'x').length;

/**
 * A format whose components are narrower than 32 bits (buffer-format.ts converts them). Loads:
 * the element's bytes (each through the V#'s addressing, so a swizzled element may cross 4-byte
 * swizzle elements), all of it in range or every result 0, then per result k the V#'s dst_sel k
 * as for the 32-bit formats. d16 results are packed two to a VGPR (x low, y high, then z, w); the
 * d16 forms write only their halves (d16_x and d16_xyz keep the high half of their last VGPR,
 * d16_hi_x the low half: gfx10 keeps a d16 load's unused bits, LLVM's d16PreservesUnusedBits).
 * Stores convert each named component (x..min(n, components)) through src/float/format-store.ts
 * (f32 channels, or with d16 f16 halves / 16-bit integers; the rules and FORMAT_STORE_ROUNDING
 * there): a format of whole-byte components (8, 16 bits) writes the named components' bytes, each
 * component range-checked on its own (the others' bytes untouched); the formats of 10/11/2-bit
 * components write the whole 4-byte element, range-checked as one, and refuse an instruction
 * naming fewer components than the format has (what hardware writes into the others is not
 * established).
 */
function packedFormat(def: InstrDef, acc: Access, f: BufferFormatInfo): Handler {
  const n = componentsOf(def);
  return (inst, cx) => {
    const data = dataOperand(inst);
    if (acc.kind === 'store') {
      const aligned = f.widths.every((w) => w % 8 === 0);
      if (!aligned && n < f.widths.length) {
        throw new UnimplementedError(`${def.mnemonic} with ${f.name}: a format store naming ${n} of the format's ${f.widths.length} components, which are not whole bytes, is not implemented`);
      }
      forLanes(inst, cx, (a, l) => {
        // Data channel c: a dword, or with d16 a half (d16_hi_x: the high half of the one VGPR).
        const chan = (c: number): number => {
          if (!acc.d16) return readLane(cx.st, data, 'b32', l, c);
          const x = readLane(cx.st, data, 'b32', l, c >> 1);
          return acc.hi || (c & 1) === 1 ? x >>> 16 : x & 0xffff;
        };
        const conv = (c: number): number => packComponentNumber(f.num, f.widths[c] ?? 0, chan(c), acc.d16);
        if (aligned) {
          // Components of whole bytes: each named one written, range-checked on its own.
          for (let c = 0; c < Math.min(n, f.widths.length); c++) {
            const at = (f.shifts[c] ?? 0) / 8, size = (f.widths[c] ?? 0) / 8;
            if (!inRange(a.v, a.index, a.offset + at, size)) continue;
            const x = conv(c);
            for (let b = 0; b < size; b++) writeAt(cx, a, at + b, 1, (x >>> (8 * b)) & 0xff);
          }
          return;
        }
        // 10_11_11, 11_11_10, 10_10_10_2, 2_10_10_10: the 4-byte element, all of it in range.
        if (!inRange(a.v, a.index, a.offset, f.bytes)) return;
        let el = 0;
        for (let c = 0; c < f.widths.length; c++) el |= conv(c) << (f.shifts[c] ?? 0);
        for (let b = 0; b < f.bytes; b++) writeAt(cx, a, b, 1, (el >>> (8 * b)) & 0xff);
      });
      return;
    }
    forLanes(inst, cx, (a, l) => {
      const ok = inRange(a.v, a.index, a.offset, f.bytes);
      let lo = 0, hi = 0;
      if (ok) for (let b = 0; b < f.bytes; b++) {
        const x = readAt(cx, a, b, 1) ?? 0;
        if (b < 4) lo |= x << (8 * b); else hi |= x << (8 * (b - 4));
      }
      const bits = (c: number): number => {
        const sh = f.shifts[c] ?? 0, w = f.widths[c] ?? 0;
        const word = sh >= 32 ? hi : lo;
        return w === 32 ? word >>> 0 : ((word >>> (sh & 31)) & ((1 << w) - 1)) >>> 0;
      };
      const channel = (c: number): number => (c < f.widths.length ? (acc.d16 ? convert16(f, c, bits(c)) : convert32(f, c, bits(c))) : missing(f, c, acc.d16));
      const one = missing(f, 3, acc.d16);
      const results: number[] = [];
      for (let k = 0; k < n; k++) {
        const sel = a.v.dstSel[k] ?? 0;
        if (ok && (sel === 2 || sel === 3)) throw new UnimplementedError(`${def.mnemonic}: reserved DST_SEL value ${sel}`);
        results.push(!ok ? 0 : sel === 0 ? 0 : sel === 1 ? one : channel(sel - 4));
      }
      if (!acc.d16) results.forEach((x, k) => writeLane(cx.st, data, l, x >>> 0, k));
      else if (acc.hi) writeLane(cx.st, data, l, ((readLane(cx.st, data, 'b32', l, 0) & 0xffff) | ((results[0] ?? 0) << 16)) >>> 0, 0);
      else for (let r = 0; r < n; r += 2) {
        const low = results[r] ?? 0;
        const high = r + 1 < n ? results[r + 1] ?? 0 : readLane(cx.st, data, 'b32', l, r >> 1) >>> 16;
        writeLane(cx.st, data, l, (low | (high << 16)) >>> 0, r >> 1);
      }
      if (inst.mods.tfe) writeLane(cx.st, data, l, 0, acc.d16 ? (n + 1) >> 1 : n);
    });
  };
}

function atomicHandler(def: InstrDef): Handler | undefined {
  const name = def.mnemonic.replace(/^buffer_atomic_/, '').replace(/_x2$/, '');
  const op = atomicRuleOf(def.mnemonic, name);
  if (!op) return undefined;
  const wide = def.mnemonic.endsWith('_x2');
  const bits = wide ? 64n : 32n;
  const dw = wide ? 2 : 1;
  return (inst, cx) => {
    const data = dataOperand(inst);
    forLanes(inst, cx, (a, l) => {
      const rd = (k: number) => BigInt(readLane(cx.st, data, 'b32', l, k));
      const src = wide ? rd(0) | (rd(1) << 32n) : rd(0);
      const cmp = hasCompare(name) ? (wide ? rd(2) | (rd(3) << 32n) : rd(1)) : 0n;
      let old = 0n;
      const lo = readAt(cx, a, 0, 4), hi = wide ? readAt(cx, a, 4, 4) : 0;
      if (lo !== undefined && hi !== undefined) {
        old = BigInt(lo) | (BigInt(hi) << 32n);
        const nv = op(old, src, bits, cmp);
        writeAt(cx, a, 0, 4, Number(nv & M32));
        if (wide) writeAt(cx, a, 4, 4, Number((nv >> 32n) & M32));
      }
      if (inst.mods.glc) for (let k = 0; k < dw; k++) writeLane(cx.st, data, l, Number((old >> BigInt(32 * k)) & M32), k);
    });
  };
}

function handlerOf(def: InstrDef): Handler | undefined {
  const f = def.flags ?? NO_FLAGS;
  if (f.includes('noOperands')) return () => undefined; // buffer_gl0_inv / gl1_inv: coherent memory, nothing to do
  const acc = accessOf(def);
  if (acc.kind === 'atomic') return atomicHandler(def);
  return acc.isFormat ? formatHandler(def, acc) : plainHandler(def, acc);
}

export const BUFFER: Record<string, Handler> = {};
for (const d of ISA_TABLE) {
  if (d.family !== 'MUBUF' && d.family !== 'MTBUF') continue;
  const h = handlerOf(d);
  if (h) BUFFER[d.mnemonic] = h;
}
