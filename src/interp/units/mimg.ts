// MIMG storage instructions: image_load/_mip, image_store/_mip, their _pck forms and the 32-bit
// image atomics on a linear (SW_MODE 0) T#; image_get_resinfo on any T# (see below); image_sample*
// with point filtering and image_gather4* (sampleHandler: src/image/sample.ts's semantics, the
// texel read and converted by image_load's code). What an instruction addresses comes from src/image/plan.ts (class,
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
//    to vdata[0]. Out of bounds: no access, and 0 returned with GLC. 64-bit integer atomics
//    (DMASK 0x3, cmpswap 0xf; LLVM's MIMG_Atomic encodes the width so): the 8 bytes of a
//    32_32_UINT / 32_32_SINT texel, data in vdata[0:1] (cmpswap's compare in vdata[2:3]), the
//    64-bit buffer atomics' rule, the old value to vdata[0:1]; 64-bit float atomics not modelled.
//  - Memory goes through the dispatch's global memory (an unmapped address is the usual error).
//
// image_get_resinfo (sources: RDNA3 ISA "IMAGE_GET_RESINFO ... Returns 4 integer values into VGPRs
// 3-0: {num_mip_levels, depth, height, width}", the same in RDNA4's; Mesa src/amd/common/
// ac_nir_lower_resinfo.c, which replaces the instruction by the same values read from the gfx10
// descriptor: width/height/depth = field + 1 shifted right by BASE_LEVEL + lod, at least 1,
// layers = DEPTH - BASE_ARRAY + 1, a 1D array (width, layers), levels LAST_LEVEL - BASE_LEVEL + 1;
// Mesa ac_nir_to_llvm.c's visit_image_size of 2018 (before gfx10), which after the instruction
// divides a cube array's z by 6 (so z counts the view's faces) and copies a 1D array's layers from
// z to y from gfx9 on, gfx9 addressing 1D images as 2D (newer ac_nir_to_llvm and ACO name that
// gfx9_1d, for GFX9 only: gfx10 has 1D dims); llvm-mc-19 rejects d16 on image_get_resinfo):
//  - the plan (imageResinfoPlan): the level in the address VGPR (A16: its low half), counted from
//    BASE_LEVEL; dmask's channels ascending to consecutive VGPRs. Channels with no established value
//    are refused statically: y of 1D, z of 1D, 2D and 1D array (RESINFO_CHANNELS).
//  - with a lane in EXEC: TYPE must be the DIM's (as the other ops), and a 3D T# with ARRAY_PITCH
//    not 0 (a sliced 3D storage view, which ac_nir_lower_resinfo answers with its slices) is refused.
//    SW_MODE, FORMAT and DST_SEL are not read (resinfo returns no texel): a tiled T# is fine.
//  - per active lane, level = BASE_LEVEL + the VGPR; a level past the view (BASE_LEVEL > LAST_LEVEL,
//    or BASE_LEVEL + level > LAST_LEVEL) is refused (UnimplementedError; what the hardware returns
//    is not established). Else x = max((WIDTH + 1) >> level, 1); y = max((HEIGHT + 1) >> level, 1)
//    (2D, 3D, cube, 2D array) or the layers (1D array); z = max((DEPTH + 1) >> level, 1) (3D) or the
//    layers (cube: faces, 2D array); w = LAST_LEVEL - BASE_LEVEL + 1. layers = DEPTH - BASE_ARRAY + 1
//    (u32, as written; a T# with BASE_ARRAY > DEPTH gets the wrapped value: a reading).
//    Readings (the sources are silent): the max(., 1) on 1D's x (ac_nir leaves it out, saying an
//    in-range level cannot give 0); x of a cube is its width (ac_nir returns the height, "fewer
//    instructions", cubes being square); w is the view's levels, not MAX_MIP + 1 (ac_nir's
//    query_levels). Not measured on hardware.
//
// The _pck forms (sources: RDNA3 ISA "IMAGE_LOAD_PCK: Load element ... without format conversion.
// 8- and 16-bit elements are not sign-extended" / "_PCK_SGN: ... are sign-extended", "IMAGE_STORE_PCK:
// Store element ... without format conversion"; RDNA4 ISA the same with "components ... zero-
// extended ... The format specified in the resource descriptor is ignored"; llvm-mc-19 rejects d16
// on the _pck forms and counts one data VGPR per dmask channel, as for image_load). The two ISA
// texts agree where an element is one component of 8 or 16 bits or every component is 32 bits, and
// those are the formats done (the element's size and components from FORMAT): loads put component
// k of dmask's channel k in the next VGPR, an 8/16-bit one zero-extended (_pck) or sign-extended
// (_pck_sgn), 32-bit ones as they are; 0 out of bounds. Refused with a lane in EXEC: other formats
// (multi-component elements narrower than 32 bits a component, where the texts differ), a dmask
// channel past the format's components, a DST_SEL other than the identity (4 + k) in a channel
// dmask names (whether it applies is not established), and as every op a tiled or wrong-TYPE T#.
// Stores: every component of the format in dmask (channels past them ignored, as image_store);
// 32-bit components from their data VGPRs, an 8/16-bit element from the low bits of vdata[0] (a
// reading of "already packed"). No conversion anywhere.
import type { Instruction, OperandValue } from '../../decode/types.js';
import type { InstrDef } from '../../isa/types.js';
import { ISA_TABLE } from '../../isa/table.js';
import { type BufferFormatInfo, bufferFormatInfo, GFX10_BUFFER_FORMATS } from '../../isa/tables/mtbuf.js';
import { IMG_TYPE, tsharpField, type TsharpFieldName } from '../../isa/tsharp.js';
import { CLASS_TYPE, type ImageClass, linearTexel, NUMBER_IMAGE_ARITH, type ImageDims, type TexelCoords } from '../../image/linear.js';
import { f16ToF32, gatherPlace, imageSamplePlan, NUMBER_SAMPLE_ARITH, type SampleArith, type SampleFields, type SampleLane, SAMPLE_MODE, samplePlace, sampleRefusals } from '../../image/sample.js';
import { ssharpField, type SsharpFieldName } from '../../isa/ssharp.js';
import { envFor } from '../../float/env.js';
import { mulF32 } from '../../float/arith.js';
import { imageOpPlan, imageResinfoPlan, type CoordSlot, type ImageOpPlan } from '../../image/plan.js';
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
const PCK = ['image_load_pck', 'image_load_pck_sgn', 'image_load_mip_pck', 'image_load_mip_pck_sgn', 'image_store_pck', 'image_store_mip_pck'];
const INT_ATOMICS = ['swap', 'cmpswap', 'add', 'sub', 'smin', 'umin', 'smax', 'umax', 'and', 'or', 'xor', 'inc', 'dec'];
const FLOAT_ATOMICS: Readonly<Record<string, FloatAtomicOp>> = { fcmpswap: 'cmpswap', fmin: 'min', fmax: 'max' };

const vgpr = (index: number): OperandValue => ({ kind: 'vgpr', index, count: 1 });

function formatName(format: number): string {
  return GFX10_BUFFER_FORMATS[format] ?? `format ${format}`;
}

/** The T# dwords (r128: 4, the rest 0). */
function tsharpOf(plan: { readonly r128: boolean; readonly srsrc: number }, cx: ExecContext): number[] {
  const n = plan.r128 ? 4 : 8;
  return Array.from({ length: 8 }, (_, k) => (k < n ? (cx.st.sgpr[plan.srsrc + k] ?? 0) >>> 0 : 0));
}

/** The format's layout, when its element is 1, 2, 4, 8 or 16 bytes. */
function formatOf(fmt: number): BufferFormatInfo | undefined {
  const f = fmt >= 1 && fmt <= 77 ? bufferFormatInfo(fmt) : undefined;
  return f && [1, 2, 4, 8, 16].includes(f.bytes) ? f : undefined;
}

/** The checks every instruction makes on the T# (SW_MODE, TYPE), and its dims. */
function imageOf(m: string, plan: { readonly cls: ImageClass }, words: readonly number[]): { base: number; fmt: number; dims: ImageDims<number> } {
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

/** The T#'s DST_SEL per result channel x, y, z, w. */
const dstSels = (words: readonly number[]): number[] => (['dstSelX', 'dstSelY', 'dstSelZ', 'dstSelW'] as const).map((n) => tsharpField(words, n));

const dmaskChannels = (dmask: number): number[] => [0, 1, 2, 3].filter((k) => (dmask >> k) & 1);

/**
 * What every image instruction does first: its plan (a static refusal throws), then, with a lane in
 * EXEC, the T# and its wave-uniform checks; undefined with EXEC empty (nothing is done or checked).
 */
function begin(m: string, inst: Instruction, cx: ExecContext): { plan: ImageOpPlan; words: number[]; img: ReturnType<typeof imageOf> } | undefined {
  const plan = planOf(inst);
  if (!anyActive(cx)) return undefined;
  const words = tsharpOf(plan, cx);
  return { plan, words, img: imageOf(m, plan, words) };
}

/** Every component of the format must be in a store's dmask (what hardware writes otherwise is not established). */
function requireAllComponents(m: string, f: BufferFormatInfo, dmask: number): void {
  for (let c = 0; c < f.widths.length; c++) {
    if (!((dmask >> c) & 1)) throw new UnimplementedError(`${m} with ${f.name}: dmask 0x${dmask.toString(16)} leaves out component ${'xyzw'[c]} of the format`);
  }
}

/** Each active lane's texel (elements of `bytes` bytes), in ascending lane order. */
function forTexels(plan: ImageOpPlan, cx: ExecContext, img: { base: number; dims: ImageDims<number> }, bytes: number, fn: (l: number, t: { ok: boolean; addr: number }) => void): void {
  const dims = { ...img.dims, log2Bpe: 31 - Math.clz32(bytes) };
  const gfx103 = cx.target === 'gfx1030';
  for (let l = 0; l < cx.st.waveSize; l++) {
    if (cx.st.active(l)) fn(l, texel(plan, cx, gfx103, img.base, dims, l));
  }
}

/** What a loading instruction writes (image_load, image_sample): its dmask channels, d16, the first VGPR. */
interface LoadShape {
  readonly dmask: number;
  readonly d16: boolean;
  readonly vdata: number;
}

/** A load's format and DST_SEL checks (wave-uniform), and what its lanes need to convert a texel. */
function loadFormat(m: string, plan: LoadShape, words: readonly number[], fmt: number): { f: BufferFormatInfo; sels: number[]; chans: number[]; one: number } {
  const f = formatOf(fmt);
  if (!f) throw new UnimplementedError(`${m} with ${formatName(fmt)}: not a format the interpreter loads from an image`);
  if (plan.d16 && f.widths.some((w) => w === 32)) throw new UnimplementedError(`${m} with ${f.name}: d16 loads of a format with 32-bit components are not implemented`);
  const sels = dstSels(words);
  const chans = dmaskChannels(plan.dmask);
  for (const k of chans) {
    const sel = sels[k] ?? 0;
    if (sel === 2 || sel === 3) throw new UnimplementedError(`${m}: reserved DST_SEL value ${sel} (channel ${'xyzw'[k]})`);
  }
  return { f, sels, chans, one: missing(f, 3, plan.d16) };
}

/** The channels a load gives from the texel at t (0 in each when not t.ok): components converted, then DST_SEL. */
function texelChannels(cx: ExecContext, plan: LoadShape, lf: ReturnType<typeof loadFormat>, t: { ok: boolean; addr: number }): number[] {
  const { f, sels, chans, one } = lf;
  if (!t.ok) return chans.map(() => 0);
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
  return chans.map((k) => {
    const sel = sels[k] ?? 0;
    return sel === 0 ? 0 : sel === 1 ? one : sel >= 4 ? comp(sel - 4) : 0;
  });
}

/** dmask's channels to consecutive VGPRs from vdata (d16: two per VGPR, low half first; an odd last half keeps the VGPR's high half). */
function writeChannels(cx: ExecContext, plan: LoadShape, l: number, results: readonly number[]): void {
  if (!plan.d16) { results.forEach((x, j) => writeLane(cx.st, vgpr(plan.vdata + j), l, x >>> 0)); return; }
  for (let j = 0; j < results.length; j += 2) {
    const r = vgpr(plan.vdata + (j >> 1));
    const low = (results[j] ?? 0) & 0xffff;
    const high = j + 1 < results.length ? (results[j + 1] ?? 0) & 0xffff : readLane(cx.st, r, 'b32', l) >>> 16;
    writeLane(cx.st, r, l, (low | (high << 16)) >>> 0);
  }
}

function loadHandler(def: InstrDef): Handler {
  const m = def.mnemonic;
  return (inst, cx) => {
    const at = begin(m, inst, cx);
    if (!at) return;
    const { plan, words, img } = at;
    const lf = loadFormat(m, plan, words, img.fmt);
    forTexels(plan, cx, img, lf.f.bytes, (l, t) => writeChannels(cx, plan, l, texelChannels(cx, plan, lf, t)));
  };
}

const NOT_ESTABLISHED = 'a wrap or mirror coordinate of magnitude 2^24 or more, or an LOD that is NaN or within 1/256 of a half level';

/** The coordinate multiply's float environment (src/image/sample.ts SAMPLE_MODE). */
const SAMPLE_ENV = envFor(SAMPLE_MODE, 'f32');
const SAMPLE_ARITH: SampleArith<number, boolean> = { ...NUMBER_SAMPLE_ARITH, fmul: (a, b) => mulF32(a, b, SAMPLE_ENV) >>> 0 };

/**
 * image_sample* with point filtering on a linear T# (src/image/sample.ts: the plan, the S# and T#
 * refusals, each lane's texel or the border colour), the texel read and converted as image_load.
 */
function sampleHandler(def: InstrDef): Handler {
  const m = def.mnemonic;
  return (inst, cx) => {
    const plan = imageSamplePlan(inst);
    if (typeof plan === 'string') throw new UnimplementedError(plan);
    if (!anyActive(cx)) return;
    const words = tsharpOf(plan, cx);
    const img = imageOf(m, plan, words);
    const samp = Array.from({ length: 4 }, (_, k) => (cx.st.sgpr[plan.ssamp + k] ?? 0) >>> 0);
    const S = (n: SsharpFieldName): number => ssharpField(samp, n);
    const T = (n: TsharpFieldName): number => tsharpField(words, n);
    for (const r of sampleRefusals(SAMPLE_ARITH, plan, S, T)) {
      if (r.cond) throw new UnimplementedError(`${m}: an S# or T# with ${r.why} is not implemented (only point sampling and gather4)`);
    }
    // What a texel read gives: dmask's channels (sample), or gather4's one component.
    const shape: LoadShape = { dmask: plan.op === 'gather4' ? 1 << (plan.component ?? 0) : plan.dmask, d16: plan.d16, vdata: plan.vdata };
    const lf = loadFormat(m, shape, words, img.fmt);
    const dims = { ...img.dims, log2Bpe: 31 - Math.clz32(lf.f.bytes) };
    const fields: SampleFields<number, boolean> = {
      clampX: S('clampX'), clampY: S('clampY'), clampZ: S('clampZ'), trunc: S('truncCoord') === 1,
      unnormalized: plan.unrm || S('forceUnnormalized') === 1, mipPoint: S('mipFilter') === 1, minLod: S('minLod'), maxLod: S('maxLod'),
      width1: dims.width1, height1: dims.height1, depth: dims.depth, baseArray: dims.baseArray, baseLevel: dims.baseLevel, lastLevel: dims.lastLevel,
    };
    const borderType = S('borderColorType');
    const gfx103 = cx.target === 'gfx1030';
    const integer = lf.f.num === 'UINT' || lf.f.num === 'SINT';
    const identity = lf.chans.every((k) => lf.sels[k] === 4 + k);
    for (let l = 0; l < cx.st.waveSize; l++) {
      if (!cx.st.active(l)) continue;
      const value = (s: CoordSlot): number => {
        const x = readLane(cx.st, vgpr(s.vgpr), 'b32', l) >>> 0;
        return s.half === undefined ? x : f16ToF32(SAMPLE_ARITH, s.half === 0 ? x & 0xffff : x >>> 16);
      };
      const c = plan.coords;
      const lane: SampleLane<number> = {
        x: value(c.x), ...(c.y ? { y: value(c.y) } : {}), ...(c.z ? { z: value(c.z) } : {}),
        ...(plan.offset !== undefined ? { offset: readLane(cx.st, vgpr(plan.offset), 'b32', l) >>> 0 } : {}),
        ...(plan.lod ? { lod: value(plan.lod) } : {}),
      };
      const border = (k: number): number => {
        if (borderType === 3) throw new UnimplementedError(`${m}: lane ${l}: the border colour of BORDER_COLOR_TYPE 3 (the register table) is not implemented`);
        if (integer) throw new UnimplementedError(`${m} with ${lf.f.name}: lane ${l}: the border colour of an integer format is not implemented`);
        if (!identity) throw new UnimplementedError(`${m}: lane ${l}: the border colour under a DST_SEL other than the identity is not implemented`);
        return borderType === 2 || (borderType === 1 && k === 3) ? lf.one : 0;
      };
      const read = (coords: TexelCoords<number>): number[] => {
        const t = linearTexel(NUMBER_IMAGE_ARITH, plan.cls, gfx103, dims, coords);
        return texelChannels(cx, shape, lf, { ok: t.ok, addr: img.base + Number(t.offset) });
      };
      let results: number[];
      if (plan.op === 'gather4') {
        // The footprint's four texels, component k of each (after DST_SEL), in gatherPlace's order.
        const g = gatherPlace(SAMPLE_ARITH, plan.cls, fields, lane);
        if (g.fault) throw new UnimplementedError(`${m}: lane ${l}: a texel that is not established (${NOT_ESTABLISHED})`);
        const k = plan.component ?? 0;
        results = g.texels.map((x) => (x.border ? border(k) : read(x.coords)[0] ?? 0));
      } else {
        const p = samplePlace(SAMPLE_ARITH, plan.cls, fields, lane);
        if (p.fault) throw new UnimplementedError(`${m}: lane ${l}: a texel that is not established (${NOT_ESTABLISHED})`);
        results = p.border ? lf.chans.map(border) : read(p.coords);
      }
      writeChannels(cx, { dmask: plan.op === 'gather4' ? 0xf : plan.dmask, d16: plan.d16, vdata: plan.vdata }, l, results);
    }
  };
}

function storeHandler(def: InstrDef): Handler {
  const m = def.mnemonic;
  return (inst, cx) => {
    const at = begin(m, inst, cx);
    if (!at) return;
    const { plan, words, img } = at;
    const f = formatOf(img.fmt);
    const all32 = f !== undefined && f.widths.every((w) => w === 32);
    if (!f || (plan.d16 && all32)) {
      throw new UnimplementedError(`${m} with ${formatName(img.fmt)}${plan.d16 ? ' (d16)' : ''}: not a format the interpreter stores to an image${plan.d16 ? ' (d16 stores need components narrower than 32 bits)' : ''}`);
    }
    const n = f.widths.length;
    requireAllComponents(m, f, plan.dmask);
    forTexels(plan, cx, img, f.bytes, (l, t) => {
      if (!t.ok) return;
      // Every component is in dmask, so component c is data channel c (d16: half c).
      const chan = (c: number): number => {
        if (!plan.d16) return readLane(cx.st, vgpr(plan.vdata + c), 'b32', l) >>> 0;
        const x = readLane(cx.st, vgpr(plan.vdata + (c >> 1)), 'b32', l) >>> 0;
        return (c & 1) === 1 ? x >>> 16 : x & 0xffff;
      };
      if (all32) { for (let c = 0; c < n; c++) cx.mem.write(t.addr + 4 * c, 4, chan(c)); return; }
      // Narrower components: converted (src/float/format-store.ts), the element written whole.
      const dw = [0, 0];
      for (let c = 0; c < n; c++) {
        const sh = f.shifts[c] ?? 0;
        dw[sh >>> 5] = ((dw[sh >>> 5] ?? 0) | (packComponentNumber(f.num, f.widths[c] ?? 0, chan(c), plan.d16) << (sh & 31))) >>> 0;
      }
      if (f.bytes < 4) cx.mem.write(t.addr, f.bytes as 1 | 2, dw[0] ?? 0);
      else for (let k = 0; k < f.bytes / 4; k++) cx.mem.write(t.addr + 4 * k, 4, dw[k] ?? 0);
    });
  };
}

function atomicHandler(def: InstrDef, name: string): Handler {
  const m = def.mnemonic;
  const fop = FLOAT_ATOMICS[name];
  const rule = fop ? (o: bigint, d: bigint, _b: bigint, c: bigint) => floatAtomic(fop, 'f32', o, d, c) : ATOMIC[name];
  if (!rule) throw new Error(`internal: no rule for ${m}`);
  return (inst, cx) => {
    const at = begin(m, inst, cx);
    if (!at) return;
    const { plan, img } = at;
    // 32 bits: one dword; a 64-bit atomic (plan.wide, integer only: DMASK 0x3, cmpswap 0xf) two,
    // on the 8 bytes of a 32_32_UINT / 32_32_SINT texel (the only 64-bit integer formats).
    const n = plan.wide ? 2 : 1;
    const formats = plan.wide ? ['BUF_FMT_32_32_UINT', 'BUF_FMT_32_32_SINT'] : fop ? ['BUF_FMT_32_FLOAT'] : ['BUF_FMT_32_UINT', 'BUF_FMT_32_SINT'];
    if (!formats.includes(formatName(img.fmt))) {
      throw new UnimplementedError(`${m} with ${formatName(img.fmt)}: ${plan.wide ? 'a 64-bit' : 'an'} image atomic needs ${formats.map((s) => s.replace(/^BUF_FMT_/, '')).join(' or ')}`);
    }
    const bits = BigInt(32 * n), mask = (1n << bits) - 1n;
    // n dwords from VGPR v up (low first).
    const value = (l: number, v: number): bigint => {
      let x = 0n;
      for (let k = n - 1; k >= 0; k--) x = (x << 32n) | BigInt(readLane(cx.st, vgpr(v + k), 'b32', l) >>> 0);
      return x;
    };
    forTexels(plan, cx, img, 4 * n, (l, t) => {
      const data = value(l, plan.vdata);
      const cmp = hasCompare(name) ? value(l, plan.vdata + n) : 0n;
      let old = 0n;
      if (t.ok) {
        for (let k = n - 1; k >= 0; k--) old = (old << 32n) | BigInt(cx.mem.read(t.addr + 4 * k, 4) >>> 0);
        const v = rule(old, data, bits, cmp) & mask;
        for (let k = 0; k < n; k++) cx.mem.write(t.addr + 4 * k, 4, Number((v >> BigInt(32 * k)) & M32));
      }
      if (plan.returns) for (let k = 0; k < n; k++) writeLane(cx.st, vgpr(plan.vdata + k), l, Number((old >> BigInt(32 * k)) & M32));
    });
  };
}

/** The pck forms' formats: one 8- or 16-bit component (its width), or only 32-bit components (32). */
function pckWidth(f: BufferFormatInfo | undefined): 8 | 16 | 32 | undefined {
  if (!f) return undefined;
  if (f.widths.every((w) => w === 32)) return 32;
  const w = f.widths[0];
  return f.widths.length === 1 && (w === 8 || w === 16) ? w : undefined;
}

const PCK_FORMATS = 'only a format of one 8- or 16-bit component or of 32-bit components';

function pckLoadHandler(def: InstrDef): Handler {
  const m = def.mnemonic;
  return (inst, cx) => {
    const at = begin(m, inst, cx);
    if (!at) return;
    const { plan, words, img } = at;
    const f = formatOf(img.fmt);
    const width = pckWidth(f);
    if (!f || !width) throw new UnimplementedError(`${m} with ${formatName(img.fmt)}: not implemented (${PCK_FORMATS}; how a packed load spreads narrower components over VGPRs is not established)`);
    const chans = dmaskChannels(plan.dmask);
    const sels = dstSels(words);
    for (const k of chans) {
      if (k >= f.widths.length) throw new UnimplementedError(`${m} with ${f.name}: dmask 0x${plan.dmask.toString(16)} names channel ${'xyzw'[k]}, past the format's components (not established)`);
      if (sels[k] !== 4 + k) throw new UnimplementedError(`${m}: DST_SEL ${sels[k]} in channel ${'xyzw'[k]} (only the identity is implemented for a packed load)`);
    }
    forTexels(plan, cx, img, f.bytes, (l, t) => {
      chans.forEach((k, j) => {
        let x = 0;
        if (t.ok) {
          if (width === 32) x = cx.mem.read(t.addr + 4 * k, 4) >>> 0;
          else {
            x = cx.mem.read(t.addr, width / 8 as 1 | 2) >>> 0;
            if (plan.pck === 'sign') x = ((x << (32 - width)) >> (32 - width)) >>> 0;
          }
        }
        writeLane(cx.st, vgpr(plan.vdata + j), l, x);
      });
    });
  };
}

function pckStoreHandler(def: InstrDef): Handler {
  const m = def.mnemonic;
  return (inst, cx) => {
    const at = begin(m, inst, cx);
    if (!at) return;
    const { plan, words, img } = at;
    const f = formatOf(img.fmt);
    const width = pckWidth(f);
    if (!f || !width) throw new UnimplementedError(`${m} with ${formatName(img.fmt)}: not implemented (${PCK_FORMATS})`);
    const n = f.widths.length;
    requireAllComponents(m, f, plan.dmask);
    forTexels(plan, cx, img, f.bytes, (l, t) => {
      if (!t.ok) return;
      if (width !== 32) cx.mem.write(t.addr, width / 8 as 1 | 2, readLane(cx.st, vgpr(plan.vdata), 'b32', l) & (width === 8 ? 0xff : 0xffff));
      else for (let c = 0; c < n; c++) cx.mem.write(t.addr + 4 * c, 4, readLane(cx.st, vgpr(plan.vdata + c), 'b32', l));
    });
  };
}

function resinfoHandler(def: InstrDef): Handler {
  const m = def.mnemonic;
  return (inst, cx) => {
    const plan = imageResinfoPlan(inst);
    if (typeof plan === 'string') throw new UnimplementedError(plan);
    if (!anyActive(cx)) return;
    const words = tsharpOf(plan, cx);
    const F = (n: TsharpFieldName): number => tsharpField(words, n);
    const type = F('type'), want = CLASS_TYPE[plan.cls];
    if (type !== want) throw new UnimplementedError(`${m}: the T#'s TYPE ${type} is not its dim's (${plan.cls}: TYPE ${want})`);
    if (type === IMG_TYPE.d3 && F('arrayPitch') !== 0) throw new UnimplementedError(`${m}: a 3D T# with ARRAY_PITCH ${F('arrayPitch')} (a sliced view) is not implemented`);
    const base = F('baseLevel'), last = F('lastLevel');
    const width = ((F('widthLo') | (F('widthHi') << 2)) >>> 0) + 1, height = F('height') + 1, depth = F('depth') + 1;
    const layers = (F('depth') - F('baseArray') + 1) >>> 0;
    for (let l = 0; l < cx.st.waveSize; l++) {
      if (!cx.st.active(l)) continue;
      const v = readLane(cx.st, vgpr(plan.mip.vgpr), 'b32', l) >>> 0;
      const mip = plan.mip.half === undefined ? v : v & 0xffff;
      if (base > last || mip > last - base) throw new UnimplementedError(`${m}: level ${mip} of a view of levels ${base}..${last} (BASE_LEVEL + level past LAST_LEVEL) is not implemented`);
      const level = base + mip;
      const size = (n: number) => Math.max(n >>> level, 1);
      const c = plan.cls;
      const xyzw = [
        size(width),
        c === '1dArray' ? layers : size(height),
        c === '3d' ? size(depth) : layers,
        last - base + 1,
      ];
      dmaskChannels(plan.dmask).forEach((k, j) => writeLane(cx.st, vgpr(plan.vdata + j), l, (xyzw[k] ?? 0) >>> 0));
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
  else if (PCK.includes(m)) MIMG[m] = m.startsWith('image_load') ? pckLoadHandler(d) : pckStoreHandler(d);
  else if (m === 'image_get_resinfo') MIMG[m] = resinfoHandler(d);
  else if (m.startsWith('image_sample') || (m.startsWith('image_gather4') && m !== 'image_gather4h')) MIMG[m] = sampleHandler(d);
  else if (m.startsWith('image_atomic_')) {
    const name = m.slice('image_atomic_'.length);
    if (INT_ATOMICS.includes(name) || name in FLOAT_ATOMICS) MIMG[m] = atomicHandler(d, name);
  }
}
const SAMPLES = ISA_TABLE.filter((d) => d.family === 'MIMG' && (d.mnemonic.startsWith('image_sample') || (d.mnemonic.startsWith('image_gather4') && d.mnemonic !== 'image_gather4h'))).length;
if (Object.keys(MIMG).length !== LOADS_STORES.length + PCK.length + 1 + INT_ATOMICS.length + Object.keys(FLOAT_ATOMICS).length + SAMPLES) {
  throw new InterpError('internal: the MIMG table lacks an instruction this unit implements');
}
