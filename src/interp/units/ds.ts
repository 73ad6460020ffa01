// DS: LDS loads, stores and atomics, and the lane-crossing ds_swizzle_b32 / ds_permute_b32 /
// ds_bpermute_b32, built from the table (operand types and dwords, flags 'offset2', 'st64',
// 'atomic', 'rtn', 'swizzle'). RDNA2 ISA reference, "Data Share Operations" and the DS opcode list.
//
// Address of a lane: addr VGPR + offset (16-bit), or for the read2/write2/wrxchg2 forms
// addr + offset0 * size and addr + offset1 * size (size = the element: 4 or 8 bytes; x 64 for
// the st64 forms). The sum is not wrapped to 32 bits.
// Range: the LDS a workgroup has is ShaderInfo.ldsSize bytes (cx.lds). Each element (byte,
// short, dword; a 64/96/128-bit access is checked dword by dword) outside it reads 0 and is not
// written (the LDS out-of-range rule of the ISA). On gfx10 M0 does not clamp LDS addresses
// (LLVM initializes M0 for DS only before gfx9), so M0 is not read. Unaligned addresses are
// accessed byte-exactly (gfx10 runs LDS in unaligned mode).
// Within one instruction lanes are applied in ascending lane order: of several lanes storing to
// one address the highest lane's value stays, and atomics to one address see each other in that
// order (the hardware serializes them in an order the ISA does not specify; recorded as a choice).
// The float atomics (ds_add(_rtn)_f32, ds_min/max(_rtn)_f32/_f64, ds_cmpst(_rtn)_f32/_f64)
// compute through the float model's floatAtomic (src/float/atomic.ts: its fixed MODE, a choice);
// ds_cmpst compares MEM with data0 and stores data1, as ds_cmpst_b32.
// ds_write_addtid_b32 / ds_read_addtid_b32: the lane's address is M0[15:0] + offset + lane * 4
// (the M0 base of gfx10's pseudocode; choice: only the low 16 bits of M0). ds_append /
// ds_consume (LDS): the dword at M0 + offset (LLVM puts the LDS pointer in M0 and the constant
// part in the offset) gains (loses) the number of active lanes, wrapping; every active lane gets
// its value before the instruction (choice: the same value in every lane).
// ds_condxchg32_rtn_b64: RDNA3's pseudocode for the same opcode (condxchg32 below, a choice).
// The src2 forms (gfx1010/gfx1013: ds_add_src2_u32 ... ds_max_src2_f64): per lane in ascending
// order LDS[A] = op(LDS[A], LDS[B]), A the addr VGPR, B = A + stride x the element size, the
// stride from the offset field or, under its bit 15, from A's high bits; the rule of the atomic of
// the same name, the float ones through floatAtomic; the addresses under the rules above, not
// masked, so under bit 15 an A that carries a stride is outside the LDS (src2Handler).
// Not implemented (UnimplementedError at the instruction): GDS (gds=1), and ds_swizzle
// offsets of 0x8100 and up other than the quad-permute encodings 0x80xx (LLVM names
// 0xc000/0xe000 rotate/FFT modes, whose gfx10 semantics are not established).
import type { Instruction, OperandValue } from '../../decode/types.js';
import { NO_FLAGS, type InstrDef } from '../../isa/types.js';
import { DS_TABLE, dsAtomicOp, dsSrc2Atomic, dsSrc2Stride } from '../../isa/tables/ds.js';
import { floatAtomic, floatAtomicOf } from '../../float/atomic.js';
import { M0 } from '../state.js';
import { type ExecContext, type Handler, operandOf } from '../context.js';
import { InterpError, UnimplementedError } from '../errors.js';
import { readLane, writeLane } from '../operands.js';

const M32 = 0xffffffffn;

/** `n` bytes of LDS at `a` (little-endian), 0 when any of them is outside the allocation. */
export function ldsLoad(lds: DataView, a: number, n: 1 | 2 | 4): number {
  if (a < 0 || a + n > lds.byteLength) return 0;
  return n === 4 ? lds.getUint32(a, true) : n === 2 ? lds.getUint16(a, true) : lds.getUint8(a);
}

/** Stores `n` bytes at `a`; dropped when any of them is outside the allocation. */
export function ldsStore(lds: DataView, a: number, n: 1 | 2 | 4, v: number): void {
  if (a < 0 || a + n > lds.byteLength) return;
  if (n === 4) lds.setUint32(a, v >>> 0, true); else if (n === 2) lds.setUint16(a, v & 0xffff, true); else lds.setUint8(a, v & 0xff);
}

function vop(inst: Instruction, name: string): OperandValue {
  const o = operandOf(inst, name);
  if (!o) throw new InterpError(`${inst.def.mnemonic} has no ${name}`);
  return o.value;
}

function noGds(inst: Instruction): void {
  if (inst.mods.gds) throw new UnimplementedError(`${inst.def.mnemonic} with gds (global data share) is not implemented`);
}

const elemBytes = (def: InstrDef): 4 | 8 => {
  const t = def.operands.find((o) => o.name === 'data0' || o.name === 'vdst')?.type;
  return t === 'b64' || t === 'u64' || t === 'i64' || t === 'f64' ? 8 : 4;
};

/** The lane's one address (16-bit offset forms). */
function addr1(inst: Instruction, cx: ExecContext, lane: number): number {
  return readLane(cx.st, vop(inst, 'addr'), 'u32', lane) + (inst.mods.offset ?? 0);
}

/** The lane's two addresses (offset0/offset1 forms). */
function addr2(inst: Instruction, cx: ExecContext, lane: number, size: number, st64: boolean): [number, number] {
  const base = readLane(cx.st, vop(inst, 'addr'), 'u32', lane);
  const scale = size * (st64 ? 64 : 1);
  return [base + (inst.mods.offset0 ?? 0) * scale, base + (inst.mods.offset1 ?? 0) * scale];
}

function lanes(cx: ExecContext, f: (lane: number) => void): void {
  for (let l = 0; l < cx.st.waveSize; l++) if (cx.st.active(l)) f(l);
}

function dwordsOf(def: InstrDef, name: string): number {
  const o = def.operands.find((x) => x.name === name);
  if (!o) return 0;
  if (o.dwords !== undefined) return o.dwords;
  switch (o.type) {
    case 'b64': case 'u64': case 'i64': case 'f64': return 2;
    case 'b96': return 3;
    case 'b128': return 4;
    default: return 1;
  }
}

// ---- loads and stores ----

function loadHandler(def: InstrDef): Handler {
  const m = def.mnemonic;
  const t = def.operands.find((o) => o.name === 'vdst')?.type ?? 'b32';
  const flags = def.flags ?? NO_FLAGS;
  if (flags.includes('offset2')) {
    const size = elemBytes(def), st64 = flags.includes('st64'), per = size / 4;
    return (inst, cx) => {
      noGds(inst);
      const d = vop(inst, 'vdst');
      lanes(cx, (l) => {
        const [a0, a1] = addr2(inst, cx, l, size, st64);
        const v: number[] = [];
        for (let k = 0; k < per; k++) v.push(ldsLoad(cx.lds, a0 + 4 * k, 4));
        for (let k = 0; k < per; k++) v.push(ldsLoad(cx.lds, a1 + 4 * k, 4));
        v.forEach((x, k) => writeLane(cx.st, d, l, x, k));
      });
    };
  }
  const bytes: 1 | 2 | 4 = t === 'u8' || t === 'i8' ? 1 : t === 'u16' || t === 'i16' || t === 'b16' ? 2 : 4;
  const signed = t === 'i8' || t === 'i16';
  const d16 = m.includes('_d16');
  const hi = m.endsWith('_d16_hi');
  const dwords = dwordsOf(def, 'vdst');
  return (inst, cx) => {
    noGds(inst);
    const d = vop(inst, 'vdst');
    lanes(cx, (l) => {
      const a = addr1(inst, cx, l);
      if (bytes === 4) {
        const v: number[] = [];
        for (let k = 0; k < dwords; k++) v.push(ldsLoad(cx.lds, a + 4 * k, 4));
        v.forEach((x, k) => writeLane(cx.st, d, l, x, k));
        return;
      }
      let x = ldsLoad(cx.lds, a, bytes);
      if (signed) x = bytes === 1 ? (x << 24) >> 24 : (x << 16) >> 16;
      if (d16) {
        const old = readLane(cx.st, d, 'b32', l);
        x = hi ? (old & 0xffff) | ((x & 0xffff) << 16) : (old & 0xffff0000) | (x & 0xffff);
      }
      writeLane(cx.st, d, l, x >>> 0);
    });
  };
}

function storeHandler(def: InstrDef): Handler {
  const t = def.operands.find((o) => o.name === 'data0')?.type ?? 'b32';
  const flags = def.flags ?? NO_FLAGS;
  if (flags.includes('offset2')) {
    const size = elemBytes(def), st64 = flags.includes('st64'), per = size / 4;
    return (inst, cx) => {
      noGds(inst);
      const d0 = vop(inst, 'data0'), d1 = vop(inst, 'data1');
      lanes(cx, (l) => {
        const [a0, a1] = addr2(inst, cx, l, size, st64);
        for (let k = 0; k < per; k++) ldsStore(cx.lds, a0 + 4 * k, 4, readLane(cx.st, d0, 'b32', l, k));
        for (let k = 0; k < per; k++) ldsStore(cx.lds, a1 + 4 * k, 4, readLane(cx.st, d1, 'b32', l, k));
      });
    };
  }
  const bytes: 1 | 2 | 4 = t === 'u8' || t === 'i8' ? 1 : t === 'u16' || t === 'i16' || t === 'b16' ? 2 : 4;
  const hi = def.mnemonic.endsWith('_d16_hi');
  const dwords = dwordsOf(def, 'data0');
  return (inst, cx) => {
    noGds(inst);
    const d0 = vop(inst, 'data0');
    lanes(cx, (l) => {
      const a = addr1(inst, cx, l);
      if (bytes < 4) {
        const x = readLane(cx.st, d0, 'b32', l);
        ldsStore(cx.lds, a, bytes, hi ? x >>> 16 : x);
      } else for (let k = 0; k < dwords; k++) ldsStore(cx.lds, a + 4 * k, 4, readLane(cx.st, d0, 'b32', l, k));
    });
  };
}

// ---- atomics ----

type Op = (old: bigint, d0: bigint, d1: bigint, bits: number) => bigint;
const mask = (x: bigint, bits: number) => BigInt.asUintN(bits, x);
/** DS read-modify-write rules (RDNA2 ISA DS opcode descriptions), new value from old and data. */
const DS_OPS: Record<string, Op> = {
  add: (o, d, _1, b) => mask(o + d, b),
  sub: (o, d, _1, b) => mask(o - d, b),
  rsub: (o, d, _1, b) => mask(d - o, b),
  inc: (o, d, _1, b) => (o >= d ? 0n : mask(o + 1n, b)),
  dec: (o, d, _1, b) => (o === 0n || o > d ? d : mask(o - 1n, b)),
  min_i: (o, d, _1, b) => (BigInt.asIntN(b, o) < BigInt.asIntN(b, d) ? o : d),
  max_i: (o, d, _1, b) => (BigInt.asIntN(b, o) > BigInt.asIntN(b, d) ? o : d),
  min_u: (o, d) => (o < d ? o : d),
  max_u: (o, d) => (o > d ? o : d),
  and: (o, d) => o & d,
  or: (o, d) => o | d,
  xor: (o, d) => o ^ d,
  /** MEM = (MEM & ~DATA0) | DATA1. */
  mskor: (o, d0, d1, b) => mask((o & ~d0) | d1, b),
  /** MEM = MEM == DATA0 ? DATA1 : MEM (compare with data0, store data1). */
  cmpst: (o, d0, d1) => (o === d0 ? d1 : o),
  wrxchg: (_o, d) => d,
  /** MEM = MEM >= DATA0 ? MEM - DATA0 : MEM + DATA1. */
  wrap: (o, d0, d1, b) => (o >= d0 ? mask(o - d0, b) : mask(o + d1, b)),
};


function readWide(cx: ExecContext, v: OperandValue, lane: number, wide: boolean): bigint {
  const lo = BigInt(readLane(cx.st, v, 'b32', lane, 0));
  return wide ? lo | (BigInt(readLane(cx.st, v, 'b32', lane, 1)) << 32n) : lo;
}

function ldsWide(cx: ExecContext, a: number, wide: boolean): bigint {
  const lo = BigInt(ldsLoad(cx.lds, a, 4));
  return wide ? lo | (BigInt(ldsLoad(cx.lds, a + 4, 4)) << 32n) : lo;
}

function ldsPutWide(cx: ExecContext, a: number, v: bigint, wide: boolean): void {
  ldsStore(cx.lds, a, 4, Number(v & M32));
  if (wide) ldsStore(cx.lds, a + 4, 4, Number((v >> 32n) & M32));
}

function writeWide(cx: ExecContext, v: OperandValue, lane: number, x: bigint, wide: boolean, first = 0): void {
  writeLane(cx.st, v, lane, Number(x & M32), first);
  if (wide) writeLane(cx.st, v, lane, Number((x >> 32n) & M32), first + 1);
}

function atomicHandler(def: InstrDef): Handler | undefined {
  const m = def.mnemonic;
  const wide = elemBytes(def) === 8;
  const bits = wide ? 64 : 32;
  const rtn = def.operands.some((o) => o.name === 'vdst');
  const two = def.operands.some((o) => o.name === 'data1');
  const x2 = /^ds_wrxchg2(st64)?_rtn_b(32|64)$/.exec(m);
  if (x2) {
    const st64 = x2[1] !== undefined, size = wide ? 8 : 4;
    return (inst, cx) => {
      noGds(inst);
      const d0 = vop(inst, 'data0'), d1 = vop(inst, 'data1'), dst = vop(inst, 'vdst');
      lanes(cx, (l) => {
        const [a0, a1] = addr2(inst, cx, l, size, st64);
        const v0 = readWide(cx, d0, l, wide), v1 = readWide(cx, d1, l, wide);
        const o0 = ldsWide(cx, a0, wide);
        ldsPutWide(cx, a0, v0, wide);
        const o1 = ldsWide(cx, a1, wide);
        ldsPutWide(cx, a1, v1, wide);
        writeWide(cx, dst, l, o0, wide, 0);
        writeWide(cx, dst, l, o1, wide, wide ? 2 : 1);
      });
    };
  }
  const name = dsAtomicOp(m);
  const fl = floatAtomicOf(m);
  // ds_cmpst_f32/_f64: data0 is the compare value, data1 the value stored (as ds_cmpst_b32).
  const op: Op | undefined = fl
    ? (o, d0, d1) => (fl.op === 'cmpswap' ? floatAtomic('cmpswap', fl.type, o, d1, d0) : floatAtomic(fl.op, fl.type, o, d0, 0n))
    : name === undefined ? undefined : DS_OPS[name];
  if (!op) return undefined;
  return (inst, cx) => {
    noGds(inst);
    const d0 = vop(inst, 'data0');
    const d1 = two ? vop(inst, 'data1') : undefined;
    const dst = rtn ? vop(inst, 'vdst') : undefined;
    lanes(cx, (l) => {
      const a = addr1(inst, cx, l);
      const old = ldsWide(cx, a, wide);
      ldsPutWide(cx, a, op(old, readWide(cx, d0, l, wide), d1 ? readWide(cx, d1, l, wide) : 0n, bits), wide);
      if (dst) writeWide(cx, dst, l, old, wide);
    });
  };
}

/** An address no LDS reaches (at most 64 KiB): where a src2 form's B below 0 points. */
const NOWHERE = 2 ** 32;

/**
 * The ds_*_src2_* forms (gfx1010/gfx1013; the table's 'src2' flag): per active lane in ascending
 * lane order, A = the lane's addr (the offset field is the stride's encoding and is not added),
 * B = A + stride x the element size (dsSrc2Stride: offset[14:0] sign-extended, or under offset
 * bit 15 A's bits [31:17] sign-extended), and LDS[A] = op(LDS[A], LDS[B]) with the rule of the atomic
 * dsSrc2Atomic names (a float one through floatAtomic, as ds_add/min/max_f32/_f64); no result.
 * Addresses as every DS access here: A and B are byte addresses in the LDS, not masked (an A
 * whose bits [31:17] carry a stride is at or beyond 2^17, outside any LDS, so under offset bit 15
 * only an A below 2^17, stride 0, B = A, touches the LDS), not wrapped (a B below 0 or at 2^32 and
 * beyond is outside the LDS, every dword of it), each dword outside ldsSize reads 0 and is not
 * written, any alignment. Choices where the ISA is silent (docs/TECHNICAL_DEBT.md).
 */
function src2Handler(def: InstrDef): Handler | undefined {
  const base = dsSrc2Atomic(def);
  if (!base) return undefined;
  const wide = elemBytes(base) === 8;
  const bits = wide ? 64 : 32, size = wide ? 8 : 4;
  const fl = floatAtomicOf(base.mnemonic);
  const name = dsAtomicOp(base.mnemonic);
  const op: Op | undefined = fl ? (o, d) => floatAtomic(fl.op, fl.type, o, d, 0n) : name === undefined ? undefined : DS_OPS[name];
  if (!op) return undefined;
  return (inst, cx) => {
    noGds(inst);
    const addr = vop(inst, 'addr'), off = inst.mods.offset ?? 0;
    lanes(cx, (l) => {
      const a = readLane(cx.st, addr, 'u32', l);
      const b = a + size * dsSrc2Stride(off, a);
      const old = ldsWide(cx, a, wide);
      const src = ldsWide(cx, b < 0 ? NOWHERE : b, wide);
      ldsPutWide(cx, a, op(old, src, 0n, bits), wide);
    });
  };
}

/**
 * ds_condxchg32_rtn_b64 (opcode 126): two conditional 32-bit write exchanges on the 8-byte
 * aligned pair at ADDR0 = (addr + offset) & 0xfff8, ADDR1 = ADDR0 + 4. The RDNA2 ISA (AMD's
 * machine-readable RDNA2 specification) describes it as "2 conditional write exchanges, where each
 * ... writes a 32 bit value from a data register to a location in data share iff the most
 * significant bit of the data value is set"; the pseudocode is from the RDNA3 ISA reference (the
 * same opcode): RETURN_DATA[0] = LDS[ADDR0]; if DATA[31] then LDS[ADDR0] = {1'0, DATA[30:0]};
 * RETURN_DATA[1] = LDS[ADDR1]; if DATA[63] then LDS[ADDR1] = {1'0, DATA[62:32]}. Choice: RDNA3's
 * rules hold for gfx10 (docs/TECHNICAL_DEBT.md).
 */
const condxchg32: Handler = (inst, cx) => {
  noGds(inst);
  const d0 = vop(inst, 'data0'), dst = vop(inst, 'vdst');
  lanes(cx, (l) => {
    const a0 = (readLane(cx.st, vop(inst, 'addr'), 'u32', l) + (inst.mods.offset ?? 0)) & 0xfff8;
    const ret: number[] = [];
    for (let k = 0; k < 2; k++) {
      const a = a0 + 4 * k, d = readLane(cx.st, d0, 'b32', l, k);
      ret.push(ldsLoad(cx.lds, a, 4));
      if (d >>> 31 === 1) ldsStore(cx.lds, a, 4, d & 0x7fffffff);
    }
    ret.forEach((x, k) => writeLane(cx.st, dst, l, x, k));
  });
};

// ---- lane crossing ----

/** ds_swizzle_b32: offset < 0x8000 bit-mask mode within 32 lanes, 0x80xx quad permute. */
export function swizzleSource(offset: number, lane: number): number | undefined {
  if (offset < 0x8000) {
    const and = offset & 0x1f, or = (offset >>> 5) & 0x1f, xor = (offset >>> 10) & 0x1f;
    return (lane & ~31) | (((lane & and) | or) ^ xor);
  }
  if ((offset & 0xff00) === 0x8000) return (lane & ~3) | ((offset >>> (2 * (lane & 3))) & 3);
  return undefined;
}

const swizzle: Handler = (inst, cx) => {
  noGds(inst);
  const off = inst.mods.offset ?? 0;
  if (swizzleSource(off, 0) === undefined) throw new UnimplementedError(`ds_swizzle_b32 offset 0x${off.toString(16)} (FFT/rotate mode) is not implemented`);
  const src = vop(inst, 'addr'), dst = vop(inst, 'vdst');
  const out: number[] = [];
  // Sources are read before any lane is written; an inactive source lane reads 0.
  lanes(cx, (l) => {
    const s = swizzleSource(off, l) ?? l;
    out[l] = s < cx.st.waveSize && cx.st.active(s) ? readLane(cx.st, src, 'b32', s) : 0;
  });
  lanes(cx, (l) => writeLane(cx.st, dst, l, out[l] ?? 0));
};

/** The lane an address selects: bits [7:2] in wave64, [6:2] in wave32 (address in bytes). */
const laneOf = (cx: ExecContext, a: number) => ((a >>> 2) & (cx.st.waveSize - 1));

/** Backward permute: each active lane reads data0 of the lane its address names (0 if inactive). */
const bpermute: Handler = (inst, cx) => {
  noGds(inst);
  const addr = vop(inst, 'addr'), d0 = vop(inst, 'data0'), dst = vop(inst, 'vdst');
  const out: number[] = [];
  lanes(cx, (l) => {
    const s = laneOf(cx, (readLane(cx.st, addr, 'u32', l) + (inst.mods.offset ?? 0)) >>> 0);
    out[l] = cx.st.active(s) ? readLane(cx.st, d0, 'b32', s) : 0;
  });
  lanes(cx, (l) => writeLane(cx.st, dst, l, out[l] ?? 0));
};

/** Forward permute: each active lane sends data0 to the lane its address names; lanes nobody
 * writes get 0; of several writers the highest lane wins (lanes applied in ascending order). */
const permute: Handler = (inst, cx) => {
  noGds(inst);
  const addr = vop(inst, 'addr'), d0 = vop(inst, 'data0'), dst = vop(inst, 'vdst');
  const out = new Array<number>(cx.st.waveSize).fill(0);
  lanes(cx, (l) => {
    const t = laneOf(cx, (readLane(cx.st, addr, 'u32', l) + (inst.mods.offset ?? 0)) >>> 0);
    out[t] = readLane(cx.st, d0, 'b32', l);
  });
  lanes(cx, (l) => writeLane(cx.st, dst, l, out[l] ?? 0));
};

// ---- M0-based forms ----

/** The LDS base address the addtid forms take from M0: its low 16 bits. */
export const addtidBase = (m0: number): number => m0 & 0xffff;

const writeAddtid: Handler = (inst, cx) => {
  noGds(inst);
  const d0 = vop(inst, 'data0');
  const base = addtidBase(cx.st.sgpr[M0] ?? 0) + (inst.mods.offset ?? 0);
  lanes(cx, (l) => ldsStore(cx.lds, base + 4 * l, 4, readLane(cx.st, d0, 'b32', l)));
};

const readAddtid: Handler = (inst, cx) => {
  noGds(inst);
  const d = vop(inst, 'vdst');
  const base = addtidBase(cx.st.sgpr[M0] ?? 0) + (inst.mods.offset ?? 0);
  lanes(cx, (l) => writeLane(cx.st, d, l, ldsLoad(cx.lds, base + 4 * l, 4)));
};

/** ds_append (+1 per active lane) and ds_consume (-1 per active lane) on the dword at M0 + offset. */
const appendConsume = (sign: 1 | -1): Handler => (inst, cx) => {
  noGds(inst);
  const d = vop(inst, 'vdst');
  const a = (cx.st.sgpr[M0] ?? 0) + (inst.mods.offset ?? 0);
  let n = 0;
  lanes(cx, () => { n++; });
  if (n === 0) return;
  const old = ldsLoad(cx.lds, a, 4);
  ldsStore(cx.lds, a, 4, (old + sign * n) >>> 0);
  lanes(cx, (l) => writeLane(cx.st, d, l, old));
};

function handlerOf(def: InstrDef): Handler | undefined {
  const m = def.mnemonic;
  const f = def.flags ?? NO_FLAGS;
  if (m === 'ds_nop') return () => undefined;
  if (m === 'ds_swizzle_b32') return swizzle;
  if (m === 'ds_permute_b32') return permute;
  if (m === 'ds_bpermute_b32') return bpermute;
  if (m === 'ds_write_addtid_b32') return writeAddtid;
  if (m === 'ds_read_addtid_b32') return readAddtid;
  if (m === 'ds_append') return appendConsume(1);
  if (m === 'ds_consume') return appendConsume(-1);
  if (m === 'ds_condxchg32_rtn_b64') return condxchg32;
  if (f.includes('src2')) return src2Handler(def);
  if (f.includes('gdsOnly')) return undefined;
  if (f.includes('atomic')) return atomicHandler(def);
  if (/^ds_read/.test(m)) return loadHandler(def);
  if (/^ds_write/.test(m)) return storeHandler(def);
  return undefined;
}

export const DS: Record<string, Handler> = {};
for (const d of DS_TABLE) {
  const h = handlerOf(d);
  if (h) DS[d.mnemonic] = h;
}
