// MIMG storage instructions: image_load/_mip, image_store/_mip and the 32-bit image atomics on a
// linear (SW_MODE 0) T#. What an instruction addresses comes from src/image/plan.ts (class,
// coordinate slots incl. NSA and A16 halves, data VGPRs, the forms not modelled), where a texel
// lies and whether it is in the view from src/image/linear.ts (addrlib's gfx10 linear layout,
// the same code the recompiler builds IR from), the T#'s fields from src/isa/tsharp.ts.
//
// Semantics:
//  - T#: 8 SGPRs from the plan's srsrc (r128: 4, dwords 4..7 read as 0); base = BASE_ADDRESS
//    (bits 39:8 in dword 0, 47:40 in dword 1) * 256. The gfx1030 custom pitch applies on gfx1030.
//  - A static refusal (imageOpPlan gives a string) stops the run with UnimplementedError.
//  - When the instruction runs with at least one lane in EXEC, the wave-uniform T# checks (each an
//    UnimplementedError starting with the mnemonic): SW_MODE not 0 (tiled), TYPE not the DIM's,
//    a format the op does not support, a reserved DST_SEL (2, 3) in a channel a load's dmask
//    writes. With EXEC empty the instruction does nothing, checks nothing.
//  - Per active lane: each coordinate is its VGPR dword, or with A16 its 16-bit half
//    (zero-extended); linearTexel gives (ok, offset); address = base + offset.
//  - Formats (FORMAT, 9 bits): the buffer formats 1..77 bufferFormatInfo knows whose element is
//    1, 2, 4, 8 or 16 bytes. Loads: the element's bytes; 32-bit components are the dwords, the
//    narrower ones convert through buffer-format.ts (convert32, or convert16 with d16; a d16 load
//    of a format with 32-bit components is refused, as buffer.ts refuses it); components the
//    format lacks are missing(). Result channel k is DST_SEL k's: 0 → 0, 1 → one (1 for
//    UINT/SINT, 1.0 f32, 0x3c00 with d16), 4..7 → component sel - 4. dmask's channels, ascending,
//    go to consecutive VGPRs from vdata (d16: two per VGPR, low half first; an odd last half keeps
//    the VGPR's high half). A lane out of bounds gets 0 in every channel it writes.
//  - Stores: the data VGPRs hold dmask's channels consecutively (d16: halves). Every component of
//    the format must be in dmask (else refused), so component c is data channel c; channels past
//    the format's components are ignored; DST_SEL is ignored. Formats whose components are all 32
//    bits: the dwords (a d16 store to them is refused); narrower components: channel c converted
//    by src/float/format-store.ts (f32, or with d16 f16 / 16-bit integer halves; its rules and
//    FORMAT_STORE_ROUNDING), the element written whole. Out of bounds: no write.
//  - Atomics: the format is 32_UINT or 32_SINT (32_FLOAT for fcmpswap/fmin/fmax, which compute
//    through src/float/atomic.ts's floatAtomic as the buffer float atomics do); the texel's dword
//    is updated lane by lane in ascending lane order; vdata[0] is the data (cmpswap: vdata[0] the
//    new value, vdata[1] the compare value, as buffer_atomic_cmpswap); with GLC the old value goes
//    to vdata[0]. Out of bounds: no access, and 0 returned with GLC.
//  - Memory goes through the dispatch's global memory (an unmapped address is the usual error).
import type { Instruction, OperandValue } from '../../decode/types.js';
import type { InstrDef } from '../../isa/types.js';
import { ISA_TABLE } from '../../isa/table.js';
import { type BufferFormatInfo, bufferFormatInfo, GFX10_BUFFER_FORMATS } from '../../isa/tables/mtbuf.js';
import { tsharpField, type TsharpFieldName } from '../../isa/tsharp.js';
import { CLASS_TYPE, linearTexel, NUMBER_IMAGE_ARITH, type ImageDims } from '../../image/linear.js';
import { imageOpPlan, type CoordSlot, type ImageOpPlan } from '../../image/plan.js';
import { floatAtomic, type FloatAtomicOp } from '../../float/atomic.js';
import { convert16, convert32, missing } from './buffer-format.js';
import { packComponentNumber } from '../../float/format-store.js';
import type { ExecContext, Handler } from '../context.js';
import { InterpError, UnimplementedError } from '../errors.js';
import { readLane, writeLane } from '../operands.js';
import { ATOMIC, hasCompare } from './vmem.js';

const M32 = 0xffffffffn;

/** The mnemonics this unit implements. */
const LOADS_STORES = ['image_load', 'image_load_mip', 'image_store', 'image_store_mip'];
const INT_ATOMICS = ['swap', 'cmpswap', 'add', 'sub', 'smin', 'umin', 'smax', 'umax', 'and', 'or', 'xor', 'inc', 'dec'];
const FLOAT_ATOMICS: Readonly<Record<string, FloatAtomicOp>> = { fcmpswap: 'cmpswap', fmin: 'min', fmax: 'max' };

const vgpr = (index: number): OperandValue => ({ kind: 'vgpr', index, count: 1 });

function formatName(format: number): string {
  return GFX10_BUFFER_FORMATS[format] ?? `format ${format}`;
}

/** The T# dwords (r128: 4, the rest 0). */
function tsharpOf(plan: ImageOpPlan, cx: ExecContext): number[] {
  const n = plan.r128 ? 4 : 8;
  return Array.from({ length: 8 }, (_, k) => (k < n ? (cx.st.sgpr[plan.srsrc + k] ?? 0) >>> 0 : 0));
}

/** The format's layout, when its element is 1, 2, 4, 8 or 16 bytes. */
function formatOf(fmt: number): BufferFormatInfo | undefined {
  const f = fmt >= 1 && fmt <= 77 ? bufferFormatInfo(fmt) : undefined;
  return f && [1, 2, 4, 8, 16].includes(f.bytes) ? f : undefined;
}

/** The checks every instruction makes on the T# (SW_MODE, TYPE), and its dims. */
function imageOf(m: string, plan: ImageOpPlan, words: readonly number[]): { base: number; fmt: number; dims: ImageDims<number> } {
  const F = (n: TsharpFieldName): number => tsharpField(words, n);
  const sw = F('swMode');
  if (sw !== 0) throw new UnimplementedError(`${m}: a tiled image (SW_MODE ${sw}) is not implemented (only linear images, SW_MODE 0)`);
  const type = F('type');
  const want = CLASS_TYPE[plan.cls];
  if (type !== want) throw new UnimplementedError(`${m}: the T#'s TYPE ${type} is not its dim's (${plan.cls}: TYPE ${want})`);
  const fmt = F('format');
  return {
    base: F('baseLo') * 256 + F('baseHi') * 2 ** 40,
    fmt,
    dims: {
      width1: (F('widthLo') | (F('widthHi') << 2)) >>> 0, height1: F('height'), depth: F('depth'), pitchMsb: F('pitchMsb'),
      baseLevel: F('baseLevel'), lastLevel: F('lastLevel'), baseArray: F('baseArray'), maxMip: F('maxMip'), log2Bpe: 0,
    },
  };
}

/** Lane `l`'s texel: in bounds, and its address. */
function texel(plan: ImageOpPlan, cx: ExecContext, gfx103: boolean, base: number, dims: ImageDims<number>, l: number): { ok: boolean; addr: number } {
  const coord = (s: CoordSlot | undefined): number | undefined => {
    if (!s) return undefined;
    const x = readLane(cx.st, vgpr(s.vgpr), 'b32', l) >>> 0;
    return s.half === undefined ? x : s.half === 0 ? x & 0xffff : x >>> 16;
  };
  const c = plan.coords;
  const y = coord(c.y), z = coord(c.z), mip = coord(c.mip);
  const p = linearTexel(NUMBER_IMAGE_ARITH, plan.cls, gfx103, dims, {
    x: coord(c.x) ?? 0, ...(y !== undefined ? { y } : {}), ...(z !== undefined ? { z } : {}), ...(mip !== undefined ? { mip } : {}),
  });
  return { ok: p.ok, addr: base + Number(p.offset) };
}

const anyActive = (cx: ExecContext): boolean => {
  for (let l = 0; l < cx.st.waveSize; l++) if (cx.st.active(l)) return true;
  return false;
};

const dmaskChannels = (dmask: number): number[] => [0, 1, 2, 3].filter((k) => (dmask >> k) & 1);

function loadHandler(def: InstrDef): Handler {
  const m = def.mnemonic;
  return (inst, cx) => {
    const plan = planOf(inst);
    if (!anyActive(cx)) return;
    const words = tsharpOf(plan, cx);
    const img = imageOf(m, plan, words);
    const f = formatOf(img.fmt);
    if (!f) throw new UnimplementedError(`${m} with ${formatName(img.fmt)}: not a format the interpreter loads from an image`);
    if (plan.d16 && f.widths.some((w) => w === 32)) throw new UnimplementedError(`${m} with ${f.name}: d16 loads of a format with 32-bit components are not implemented`);
    const sels = [tsharpField(words, 'dstSelX'), tsharpField(words, 'dstSelY'), tsharpField(words, 'dstSelZ'), tsharpField(words, 'dstSelW')];
    const chans = dmaskChannels(plan.dmask);
    for (const k of chans) {
      const sel = sels[k] ?? 0;
      if (sel === 2 || sel === 3) throw new UnimplementedError(`${m}: reserved DST_SEL value ${sel} (channel ${'xyzw'[k]})`);
    }
    const dims = { ...img.dims, log2Bpe: 31 - Math.clz32(f.bytes) };
    const gfx103 = cx.target === 'gfx1030';
    const one = missing(f, 3, plan.d16);
    for (let l = 0; l < cx.st.waveSize; l++) {
      if (!cx.st.active(l)) continue;
      const t = texel(plan, cx, gfx103, img.base, dims, l);
      let results: number[];
      if (!t.ok) results = chans.map(() => 0);
      else {
        // The element as dwords (1- and 2-byte elements: one value).
        const dw: number[] = f.bytes < 4 ? [cx.mem.read(t.addr, f.bytes as 1 | 2)] : Array.from({ length: f.bytes / 4 }, (_, k) => cx.mem.read(t.addr + 4 * k, 4));
        const comp = (c: number): number => {
          if (c >= f.widths.length) return missing(f, c, plan.d16);
          const sh = f.shifts[c] ?? 0, w = f.widths[c] ?? 0;
          const word = dw[sh >>> 5] ?? 0;
          if (w === 32) return word >>> 0;
          const r = ((word >>> (sh & 31)) & ((1 << w) - 1)) >>> 0;
          return plan.d16 ? convert16(f, c, r) : convert32(f, c, r);
        };
        results = chans.map((k) => {
          const sel = sels[k] ?? 0;
          return sel === 0 ? 0 : sel === 1 ? one : sel >= 4 ? comp(sel - 4) : 0;
        });
      }
      if (!plan.d16) results.forEach((x, j) => writeLane(cx.st, vgpr(plan.vdata + j), l, x >>> 0));
      else for (let j = 0; j < results.length; j += 2) {
        const r = vgpr(plan.vdata + (j >> 1));
        const low = (results[j] ?? 0) & 0xffff;
        const high = j + 1 < results.length ? (results[j + 1] ?? 0) & 0xffff : readLane(cx.st, r, 'b32', l) >>> 16;
        writeLane(cx.st, r, l, (low | (high << 16)) >>> 0);
      }
    }
  };
}

function storeHandler(def: InstrDef): Handler {
  const m = def.mnemonic;
  return (inst, cx) => {
    const plan = planOf(inst);
    if (!anyActive(cx)) return;
    const words = tsharpOf(plan, cx);
    const img = imageOf(m, plan, words);
    const f = formatOf(img.fmt);
    const all32 = f !== undefined && f.widths.every((w) => w === 32);
    if (!f || (plan.d16 && all32)) {
      throw new UnimplementedError(`${m} with ${formatName(img.fmt)}${plan.d16 ? ' (d16)' : ''}: not a format the interpreter stores to an image${plan.d16 ? ' (d16 stores need components narrower than 32 bits)' : ''}`);
    }
    const n = f.widths.length;
    for (let c = 0; c < n; c++) {
      if (!((plan.dmask >> c) & 1)) throw new UnimplementedError(`${m} with ${f.name}: dmask 0x${plan.dmask.toString(16)} leaves out component ${'xyzw'[c]} of the format`);
    }
    const dims = { ...img.dims, log2Bpe: 31 - Math.clz32(f.bytes) };
    const gfx103 = cx.target === 'gfx1030';
    for (let l = 0; l < cx.st.waveSize; l++) {
      if (!cx.st.active(l)) continue;
      const t = texel(plan, cx, gfx103, img.base, dims, l);
      if (!t.ok) continue;
      // Every component is in dmask, so component c is data channel c (d16: half c).
      const chan = (c: number): number => {
        if (!plan.d16) return readLane(cx.st, vgpr(plan.vdata + c), 'b32', l) >>> 0;
        const x = readLane(cx.st, vgpr(plan.vdata + (c >> 1)), 'b32', l) >>> 0;
        return (c & 1) === 1 ? x >>> 16 : x & 0xffff;
      };
      if (all32) { for (let c = 0; c < n; c++) cx.mem.write(t.addr + 4 * c, 4, chan(c)); continue; }
      // Narrower components: converted (src/float/format-store.ts), the element written whole.
      const dw = [0, 0];
      for (let c = 0; c < n; c++) {
        const sh = f.shifts[c] ?? 0;
        dw[sh >>> 5] = ((dw[sh >>> 5] ?? 0) | (packComponentNumber(f.num, f.widths[c] ?? 0, chan(c), plan.d16) << (sh & 31))) >>> 0;
      }
      if (f.bytes < 4) cx.mem.write(t.addr, f.bytes as 1 | 2, dw[0] ?? 0);
      else for (let k = 0; k < f.bytes / 4; k++) cx.mem.write(t.addr + 4 * k, 4, dw[k] ?? 0);
    }
  };
}

function atomicHandler(def: InstrDef, name: string): Handler {
  const m = def.mnemonic;
  const fop = FLOAT_ATOMICS[name];
  const rule = fop ? (o: bigint, d: bigint, _b: bigint, c: bigint) => floatAtomic(fop, 'f32', o, d, c) : ATOMIC[name];
  if (!rule) throw new Error(`internal: no rule for ${m}`);
  const formats = fop ? ['BUF_FMT_32_FLOAT'] : ['BUF_FMT_32_UINT', 'BUF_FMT_32_SINT'];
  return (inst, cx) => {
    const plan = planOf(inst);
    if (!anyActive(cx)) return;
    const words = tsharpOf(plan, cx);
    const img = imageOf(m, plan, words);
    if (!formats.includes(formatName(img.fmt))) {
      throw new UnimplementedError(`${m} with ${formatName(img.fmt)}: an image atomic needs ${formats.map((s) => s.replace(/^BUF_FMT_/, '')).join(' or ')}`);
    }
    const dims = { ...img.dims, log2Bpe: 2 };
    const gfx103 = cx.target === 'gfx1030';
    for (let l = 0; l < cx.st.waveSize; l++) {
      if (!cx.st.active(l)) continue;
      const t = texel(plan, cx, gfx103, img.base, dims, l);
      const data = BigInt(readLane(cx.st, vgpr(plan.vdata), 'b32', l) >>> 0);
      const cmp = hasCompare(name) ? BigInt(readLane(cx.st, vgpr(plan.vdata + 1), 'b32', l) >>> 0) : 0n;
      let old = 0n;
      if (t.ok) {
        old = BigInt(cx.mem.read(t.addr, 4) >>> 0);
        cx.mem.write(t.addr, 4, Number(rule(old, data, 32n, cmp) & M32));
      }
      if (plan.returns) writeLane(cx.st, vgpr(plan.vdata), l, Number(old & M32));
    }
  };
}

function planOf(inst: Instruction): ImageOpPlan {
  const p = imageOpPlan(inst);
  if (typeof p === 'string') throw new UnimplementedError(p);
  return p;
}

export const MIMG: Record<string, Handler> = {};
for (const d of ISA_TABLE) {
  if (d.family !== 'MIMG') continue;
  const m = d.mnemonic;
  if (LOADS_STORES.includes(m)) MIMG[m] = m.startsWith('image_load') ? loadHandler(d) : storeHandler(d);
  else if (m.startsWith('image_atomic_')) {
    const name = m.slice('image_atomic_'.length);
    if (INT_ATOMICS.includes(name) || name in FLOAT_ATOMICS) MIMG[m] = atomicHandler(d, name);
  }
}
if (Object.keys(MIMG).length !== LOADS_STORES.length + INT_ATOMICS.length + Object.keys(FLOAT_ATOMICS).length) {
  throw new InterpError('internal: the MIMG table lacks an instruction this unit implements');
}
