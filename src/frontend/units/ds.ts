// DS to IR: LDS loads, stores and integer atomics, and the lane-crossing ds_swizzle_b32,
// ds_permute_b32 and ds_bpermute_b32, with the RDNA interpreter's rules (src/interp/units/ds.ts):
// a lane's address is addr + offset (or addr + offset0/offset1 x the element size, x 64 for the
// st64 forms), not wrapped to 32 bits; each element outside the LDS reads 0 and is not written;
// any alignment; the lanes of one instruction apply in ascending lane order (the IR ops say so).
// An address sum that passes 2^32 becomes 0xffffffff, which is outside any LDS (at most 64 KiB).
// The float atomics (ds_add/min/max/cmpst *_f32/_f64) are AtomicLdsCall of their helper
// (src/ir/passes/lower-float-atomic.ts: the float model's rules under its fixed float-atomic
// mode); ds_write/read_addtid_b32 address M0[15:0] + offset + lane * 4; ds_append/ds_consume add
// or subtract the active lane count at M0 + offset through one AtomicLds of the lowest active
// lane, whose old value every active lane gets (the interpreter's rules and choices).
// ds_wrxchg2(st64)_rtn_b32 are ExchangeLds2, the b64 forms ExchangeLds2x64 (the old value at
// address0) with ExchangeLds2x64Second (the one at address1); ds_condxchg32_rtn_b64 is a 64-bit
// mskor AtomicLds (condxchg32 below).
// The src2 forms (gfx1010/gfx1013) are one AtomicLds / AtomicLdsCall with LDS_ATOMIC_SRC2 (the
// data is the LDS value at B, read in the lane's turn), with the interpreter's stride and address
// rules (src2 below).
// Not translated (the interpreter implements none of them either): GDS, ds_gws_*,
// ds_ordered_count, and ds_swizzle offsets the interpreter refuses.
import type { Inst } from '../../ir/ir.js';
import { LDS_ATOMIC_SRC2, LDS_ATOMIC_WIDE, LDS_RMW, type LdsRmw } from '../../ir/ops.js';
import { NO_FLAGS, type InstrDef } from '../../isa/types.js';
import { DS_TABLE, dsAtomicOp, dsSrc2Atomic, dsSrc2Stride } from '../../isa/tables/ds.js';
import { EXEC_LO, type TContext, type Translator } from '../context.js';
import { floatAtomicOf } from '../../float/atomic.js';
import { floatAtomicHelper } from '../../ir/passes/lower-float-atomic.js';
import { listOf, NO_ARGS } from '../../ir/ir.js';

/** The M0 register's scalar code. */
const M0 = 124;

const OUTSIDE = 0xffffffff;

/** base + off as the LDS sees it: the sum, or OUTSIDE when it passes 2^32 (a negative off: falls below 0). */
export function ldsAddress(cx: TContext, base: Inst, off: number): Inst {
  if (off === 0) return base;
  const b = cx.b;
  if (off < 0) {
    const o = cx.u32(-off);
    const borrow = b.emit('USubBorrow32', listOf(base, o, b.emit('ConstU1', NO_ARGS, listOf(0))));
    return b.emit('Select32', listOf(borrow, cx.u32(OUTSIDE), b.emit('ISub32', listOf(base, o))));
  }
  const o = cx.u32(off);
  const carry = b.emit('UAddCarry32', listOf(base, o, b.emit('ConstU1', NO_ARGS, listOf(0))));
  return b.emit('Select32', listOf(carry, cx.u32(OUTSIDE), b.emit('IAdd32', listOf(base, o))));
}

function noGds(cx: TContext): void {
  if (cx.inst.mods.gds) cx.fail(`${cx.inst.def.mnemonic} with gds (global data share) is not translated (the interpreter does not implement GDS)`);
}

const isWide = (t: string | undefined) => t === 'b64' || t === 'u64' || t === 'i64' || t === 'f64';

function dwordsOf(def: InstrDef, name: string): number {
  const o = def.operands.find((x) => x.name === name);
  if (!o) return 0;
  if (o.dwords !== undefined) return o.dwords;
  return isWide(o.type) ? 2 : o.type === 'b96' ? 3 : o.type === 'b128' ? 4 : 1;
}

const bytesOf = (t: string): 1 | 2 | 4 => (t === 'u8' || t === 'i8' ? 1 : t === 'u16' || t === 'i16' || t === 'b16' ? 2 : 4);

/** The two addresses of an offset0/offset1 form (element `size` bytes). */
function addresses2(cx: TContext, size: number, st64: boolean): [Inst, Inst] {
  const base = cx.lane(cx.op('addr').value, 'u32');
  const scale = size * (st64 ? 64 : 1);
  return [ldsAddress(cx, base, (cx.inst.mods.offset0 ?? 0) * scale), ldsAddress(cx, base, (cx.inst.mods.offset1 ?? 0) * scale)];
}

const address1 = (cx: TContext): Inst => ldsAddress(cx, cx.lane(cx.op('addr').value, 'u32'), cx.inst.mods.offset ?? 0);

function load(def: InstrDef): Translator {
  const flags = def.flags ?? NO_FLAGS;
  const t = def.operands.find((o) => o.name === 'vdst')?.type ?? 'b32';
  if (flags.includes('offset2')) {
    const wide = isWide(def.operands.find((o) => o.name === 'vdst')?.type);
    const size = wide ? 8 : 4, per = size / 4, st64 = flags.includes('st64');
    return (cx) => {
      noGds(cx);
      const exec = cx.execBit();
      const [a0, a1] = addresses2(cx, size, st64);
      const d = cx.op('vdst').value;
      const v: Inst[] = [];
      for (let k = 0; k < per; k++) v.push(cx.b.emit('LoadLds', listOf(exec, a0), listOf(4, 4 * k)));
      for (let k = 0; k < per; k++) v.push(cx.b.emit('LoadLds', listOf(exec, a1), listOf(4, 4 * k)));
      v.forEach((x, k) => cx.writeLane(d, x, k, exec));
    };
  }
  const bytes = bytesOf(t);
  const signed = t === 'i8' || t === 'i16';
  const d16 = def.mnemonic.includes('_d16'), hi = def.mnemonic.endsWith('_d16_hi');
  const dwords = dwordsOf(def, 'vdst');
  return (cx) => {
    noGds(cx);
    const b = cx.b;
    const exec = cx.execBit();
    const a = address1(cx);
    const d = cx.op('vdst').value;
    if (bytes === 4) {
      const v: Inst[] = [];
      for (let k = 0; k < dwords; k++) v.push(b.emit('LoadLds', listOf(exec, a), listOf(4, 4 * k)));
      v.forEach((x, k) => cx.writeLane(d, x, k, exec));
      return;
    }
    let x = b.emit('LoadLds', listOf(exec, a), listOf(bytes, 0));
    if (signed) x = b.emit('SBfe32', listOf(x, cx.u32(0), cx.u32(8 * bytes)));
    if (d16) {
      const old = cx.lane(d, 'b32');
      const h16 = b.emit('And32', listOf(x, cx.u32(0xffff)));
      x = hi ? b.emit('Or32', listOf(b.emit('And32', listOf(old, cx.u32(0xffff))), b.emit('Shl32', listOf(h16, cx.u32(16)))))
        : b.emit('Or32', listOf(b.emit('And32', listOf(old, cx.u32(0xffff0000))), h16));
    }
    cx.writeLane(d, x, 0, exec);
  };
}

function store(def: InstrDef): Translator {
  const flags = def.flags ?? NO_FLAGS;
  const t = def.operands.find((o) => o.name === 'data0')?.type ?? 'b32';
  if (flags.includes('offset2')) {
    const per = dwordsOf(def, 'data0'), size = 4 * per, st64 = flags.includes('st64');
    return (cx) => {
      noGds(cx);
      const exec = cx.execBit();
      const [a0, a1] = addresses2(cx, size, st64);
      const d0 = cx.op('data0').value, d1 = cx.op('data1').value;
      const data = [...Array.from({ length: per }, (_, k) => cx.lane(d0, 'b32', k)), ...Array.from({ length: per }, (_, k) => cx.lane(d1, 'b32', k))];
      while (data.length < 4) data.push(cx.u32(0));
      cx.b.emit('StoreLds', listOf(exec, a0, a1, ...data), listOf(size, 2));
    };
  }
  const bytes = bytesOf(t);
  const hi = def.mnemonic.endsWith('_d16_hi');
  const dwords = dwordsOf(def, 'data0');
  return (cx) => {
    noGds(cx);
    const b = cx.b;
    const exec = cx.execBit();
    const a = address1(cx);
    const d0 = cx.op('data0').value;
    const data: Inst[] = [];
    if (bytes < 4) {
      const x = cx.lane(d0, 'b32');
      data.push(hi ? b.emit('LShr32', listOf(x, cx.u32(16))) : x);
    } else for (let k = 0; k < dwords; k++) data.push(cx.lane(d0, 'b32', k));
    while (data.length < 4) data.push(cx.u32(0));
    b.emit('StoreLds', listOf(exec, a, a, ...data), listOf(bytes < 4 ? bytes : 4 * dwords, 1));
  };
}

/** The LDS_RMW operation of an integer DS atomic mnemonic (the table's classification), or undefined. */
function rmwOf(m: string): LdsRmw | undefined {
  const k = dsAtomicOp(m);
  return k !== undefined && (LDS_RMW as readonly string[]).includes(k) ? (k as LdsRmw) : undefined;
}

/** An atomic's data operand as a u64 (a 32-bit one zero-extended). */
function dataPair(cx: TContext, name: string, wide: boolean): Inst {
  const v = cx.op(name).value;
  return cx.pack(cx.lane(v, 'b32', 0), wide ? cx.lane(v, 'b32', 1) : cx.u32(0));
}

/** The old value (u64) into vdst: one dword, or two for a 64-bit atomic, in the active lanes. */
function writeOld(cx: TContext, old: Inst, wide: boolean, exec: Inst): void {
  const d = cx.op('vdst').value;
  cx.writeLane(d, cx.b.emit('Lo32', listOf(old)), 0, exec);
  if (wide) cx.writeLane(d, cx.b.emit('Hi32', listOf(old)), 1, exec);
}

function atomic(def: InstrDef, kind: LdsRmw): Translator {
  const wide = isWide(def.operands.find((o) => o.name === 'data0')?.type);
  const rtn = def.operands.some((o) => o.name === 'vdst');
  const two = def.operands.some((o) => o.name === 'data1');
  return (cx) => {
    noGds(cx);
    const b = cx.b;
    const exec = cx.execBit();
    const a = address1(cx);
    const val = (name: string) => dataPair(cx, name, wide);
    const d1 = two ? val('data1') : cx.pack(cx.u32(0), cx.u32(0));
    const old = b.emit('AtomicLds', listOf(exec, a, val('data0'), d1), listOf(LDS_RMW.indexOf(kind), wide ? LDS_ATOMIC_WIDE : 0));
    if (rtn) writeOld(cx, old, wide, exec);
  };
}

/** A float atomic: new = the helper's (memory, data, compare); ds_cmpst compares with data0 and stores data1. */
function floatAtomic(def: InstrDef, fl: NonNullable<ReturnType<typeof floatAtomicOf>>): Translator {
  const wide = fl.type === 'f64';
  const rtn = def.operands.some((o) => o.name === 'vdst');
  return (cx) => {
    noGds(cx);
    const b = cx.b;
    const exec = cx.execBit();
    const a = address1(cx);
    const val = (name: string) => dataPair(cx, name, wide);
    const [d, c] = fl.op === 'cmpswap' ? [val('data1'), val('data0')] : [val('data0'), cx.pack(cx.u32(0), cx.u32(0))];
    const old = b.emit('AtomicLdsCall', listOf(exec, a, d, c), listOf(floatAtomicHelper(b.fn, fl.op, fl.type), wide ? LDS_ATOMIC_WIDE : 0));
    if (rtn) writeOld(cx, old, wide, exec);
  };
}

/** ds_wrxchg2(st64)_rtn_b32: both exchanges of a lane before the next lane's (ExchangeLds2). */
const wrxchg2 = (st64: boolean): Translator => (cx) => {
  noGds(cx);
  const b = cx.b;
  const exec = cx.execBit();
  const [a0, a1] = addresses2(cx, 4, st64);
  const old = b.emit('ExchangeLds2', listOf(exec, a0, a1, cx.lane(cx.op('data0').value, 'b32'), cx.lane(cx.op('data1').value, 'b32')));
  const d = cx.op('vdst').value;
  cx.writeLane(d, b.emit('Lo32', listOf(old)), 0, exec);
  cx.writeLane(d, b.emit('Hi32', listOf(old)), 1, exec);
};

/** ds_wrxchg2(st64)_rtn_b64: both 64-bit exchanges of a lane before the next lane's (ExchangeLds2x64). */
const wrxchg2x64 = (st64: boolean): Translator => (cx) => {
  noGds(cx);
  const b = cx.b;
  const exec = cx.execBit();
  const [a0, a1] = addresses2(cx, 8, st64);
  const old0 = b.emit('ExchangeLds2x64', listOf(exec, a0, a1, dataPair(cx, 'data0', true), dataPair(cx, 'data1', true)));
  const old1 = b.emit('ExchangeLds2x64Second', listOf(old0));
  const d = cx.op('vdst').value;
  [old0, old1].forEach((o, k) => {
    cx.writeLane(d, b.emit('Lo32', listOf(o)), 2 * k, exec);
    cx.writeLane(d, b.emit('Hi32', listOf(o)), 2 * k + 1, exec);
  });
};

/**
 * ds_condxchg32_rtn_b64 (the interpreter's rules: RDNA3's pseudocode): on the pair at
 * (addr + offset) & 0xfff8, each dword whose data has bit 31 set becomes that data with bit 31
 * clear; both old dwords return. One 64-bit mskor per lane does it: mask = the dwords whose bit 31
 * is set, new = (old & ~mask) | (data & 0x7fffffff7fffffff & mask).
 */
const condxchg32: Translator = (cx) => {
  noGds(cx);
  const b = cx.b;
  const exec = cx.execBit();
  const a = b.emit('And32', listOf(b.emit('IAdd32', listOf(cx.lane(cx.op('addr').value, 'u32'), cx.u32(cx.inst.mods.offset ?? 0))), cx.u32(0xfff8)));
  const v = cx.op('data0').value;
  const masks: Inst[] = [], vals: Inst[] = [];
  for (let k = 0; k < 2; k++) {
    const d = cx.lane(v, 'b32', k);
    const m = b.emit('ISub32', listOf(cx.u32(0), b.emit('LShr32', listOf(d, cx.u32(31)))));
    masks.push(m);
    vals.push(b.emit('And32', listOf(d, b.emit('And32', listOf(m, cx.u32(0x7fffffff))))));
  }
  const old = b.emit('AtomicLds', listOf(exec, a, cx.pack(masks[0] as Inst, masks[1] as Inst), cx.pack(vals[0] as Inst, vals[1] as Inst)), listOf(LDS_RMW.indexOf('mskor'), LDS_ATOMIC_WIDE));
  writeOld(cx, old, true, exec);
};

/**
 * The ds_*_src2_* forms (the interpreter's src2Handler): per active lane in ascending order,
 * LDS[A] = op(LDS[A], LDS[B]), A the addr VGPR (the offset field not added), B = A + stride x the
 * element size (dsSrc2Stride), the rule of the atomic dsSrc2Atomic names. One AtomicLds (the float
 * ones: AtomicLdsCall of that atomic's helper) with LDS_ATOMIC_SRC2: each lane reads B in its turn,
 * after the lower lanes' writes, as the interpreter's lanes do. B under offset bit 15 is
 * A + (A >> 17, arithmetic) x size: |(A >> 17) x 8| < 2^18, and A >= 2^31 where it is negative, so
 * the 32-bit sum is exact; from the offset field, ldsAddress's sum (OUTSIDE below 0 or past 2^32).
 */
function src2(def: InstrDef): Translator | undefined {
  const base = dsSrc2Atomic(def);
  if (!base) return undefined;
  const wide = isWide(base.operands.find((o) => o.name === 'data0')?.type);
  const fl = floatAtomicOf(base.mnemonic);
  const kind = fl ? undefined : rmwOf(base.mnemonic);
  if (!fl && kind === undefined) return undefined;
  const flags = LDS_ATOMIC_SRC2 | (wide ? LDS_ATOMIC_WIDE : 0);
  return (cx) => {
    noGds(cx);
    const b = cx.b;
    const exec = cx.execBit();
    const a = cx.lane(cx.op('addr').value, 'u32');
    const off = cx.inst.mods.offset ?? 0;
    const at = (off & 0x8000) !== 0
      ? b.emit('IAdd32', listOf(a, b.emit('Shl32', listOf(b.emit('AShr32', listOf(a, cx.u32(17))), cx.u32(wide ? 3 : 2)))))
      : ldsAddress(cx, a, (wide ? 8 : 4) * dsSrc2Stride(off, 0));
    const data = cx.pack(at, cx.u32(0)), zero = cx.pack(cx.u32(0), cx.u32(0));
    if (fl) b.emit('AtomicLdsCall', listOf(exec, a, data, zero), listOf(floatAtomicHelper(b.fn, fl.op, fl.type), flags));
    else if (kind !== undefined) b.emit('AtomicLds', listOf(exec, a, data, zero), listOf(LDS_RMW.indexOf(kind), flags));
  };
}

/** The addtid forms' address: M0[15:0] + offset + lane * 4 (below 2^32: no wrap). */
function addtidAddress(cx: TContext): Inst {
  const b = cx.b;
  const base = b.emit('And32', listOf(b.getSgpr(M0), cx.u32(0xffff)));
  return b.emit('IAdd32', listOf(b.emit('IAdd32', listOf(base, cx.u32(cx.inst.mods.offset ?? 0))), b.emit('Shl32', listOf(b.emit('LaneId'), cx.u32(2)))));
}

const writeAddtid: Translator = (cx) => {
  noGds(cx);
  const a = addtidAddress(cx);
  const z = cx.u32(0);
  cx.b.emit('StoreLds', listOf(cx.execBit(), a, a, cx.lane(cx.op('data0').value, 'b32'), z, z, z), listOf(4, 1));
};

const readAddtid: Translator = (cx) => {
  noGds(cx);
  const exec = cx.execBit();
  cx.writeLane(cx.op('vdst').value, cx.b.emit('LoadLds', listOf(exec, addtidAddress(cx)), listOf(4, 0)), 0, exec);
};

/** ds_append (sign 1) / ds_consume (-1): the dword at M0 + offset by the active lane count; its old value to every active lane. */
const appendConsume = (sign: 1 | -1): Translator => (cx) => {
  noGds(cx);
  const b = cx.b;
  const exec = cx.execBit();
  const lo = b.getSgpr(EXEC_LO);
  const hi = cx.waveSize === 64 ? b.getSgpr(EXEC_LO + 1) : cx.u32(0);
  const count = b.emit('IAdd32', listOf(b.emit('BitCount32', listOf(lo)), b.emit('BitCount32', listOf(hi))));
  // The lowest active lane (FindLsb32 of 0 is all ones: then no lane is active and nothing happens).
  const first = b.emit('Select32', listOf(b.emit('INe32', listOf(lo, cx.u32(0))), b.emit('FindLsb32', listOf(lo)), b.emit('IAdd32', listOf(b.emit('FindLsb32', listOf(hi)), cx.u32(32)))));
  const leader = b.emit('AndU1', listOf(exec, b.emit('IEq32', listOf(b.emit('LaneId'), first))));
  const delta = sign === 1 ? count : b.emit('ISub32', listOf(cx.u32(0), count));
  const a = ldsAddress(cx, b.getSgpr(M0), cx.inst.mods.offset ?? 0);
  const old = b.emit('Lo32', listOf(b.emit('AtomicLds', listOf(leader, a, cx.pack(delta, cx.u32(0)), cx.pack(cx.u32(0), cx.u32(0))), listOf(LDS_RMW.indexOf('add'), 0))));
  cx.writeLane(cx.op('vdst').value, b.emit('ReadLane', listOf(old, first)), 0, exec);
};

/** `v` of lane `s`, or 0 where that lane is not active (the interpreter's swizzle/permute rule). */
function fromLane(cx: TContext, v: Inst, s: Inst): Inst {
  const b = cx.b;
  const hi = cx.waveSize === 64 ? b.getSgpr(EXEC_LO + 1) : cx.u32(0);
  const on = b.emit('LaneBit', listOf(b.getSgpr(EXEC_LO), hi, s));
  return b.emit('Select32', listOf(on, b.emit('ReadLane', listOf(v, s)), cx.u32(0)));
}

const swizzle: Translator = (cx) => {
  noGds(cx);
  const b = cx.b;
  const off = cx.inst.mods.offset ?? 0;
  const lane = b.emit('LaneId');
  let s: Inst;
  if (off < 0x8000) {
    const and = off & 0x1f, or = (off >>> 5) & 0x1f, xor = (off >>> 10) & 0x1f;
    const inGroup = b.emit('Xor32', listOf(b.emit('Or32', listOf(b.emit('And32', listOf(lane, cx.u32(and))), cx.u32(or))), cx.u32(xor)));
    s = b.emit('Or32', listOf(b.emit('And32', listOf(lane, cx.u32(~31 >>> 0))), inGroup));
  } else if ((off & 0xff00) === 0x8000) {
    const sel = b.emit('And32', listOf(b.emit('LShr32', listOf(cx.u32(off), b.emit('Shl32', listOf(b.emit('And32', listOf(lane, cx.u32(3))), cx.u32(1))))), cx.u32(3)));
    s = b.emit('Or32', listOf(b.emit('And32', listOf(lane, cx.u32(~3 >>> 0))), sel));
  } else return cx.fail(`ds_swizzle_b32 offset 0x${off.toString(16)} (FFT/rotate mode) is not translated (the interpreter does not implement it)`);
  cx.writeLane(cx.op('vdst').value, fromLane(cx, cx.lane(cx.op('addr').value, 'b32'), s));
};

/** The lane a permute address names: bits [7:2] in wave64, [6:2] in wave32, after the offset. */
function laneOfAddress(cx: TContext): Inst {
  const b = cx.b;
  const a = b.emit('IAdd32', listOf(cx.lane(cx.op('addr').value, 'u32'), cx.u32(cx.inst.mods.offset ?? 0)));
  return b.emit('And32', listOf(b.emit('LShr32', listOf(a, cx.u32(2))), cx.u32(cx.waveSize - 1)));
}

const bpermute: Translator = (cx) => {
  noGds(cx);
  const s = laneOfAddress(cx);
  cx.writeLane(cx.op('vdst').value, fromLane(cx, cx.lane(cx.op('data0').value, 'b32'), s));
};

const permute: Translator = (cx) => {
  noGds(cx);
  const exec = cx.execBit();
  const t = laneOfAddress(cx);
  cx.writeLane(cx.op('vdst').value, cx.b.emit('PermuteLanes', listOf(exec, t, cx.lane(cx.op('data0').value, 'b32'))), 0, exec);
};

function translatorOf(def: InstrDef): Translator | undefined {
  const m = def.mnemonic;
  const f = def.flags ?? NO_FLAGS;
  if (m === 'ds_nop') return () => undefined;
  if (m === 'ds_swizzle_b32') return swizzle;
  if (m === 'ds_permute_b32') return permute;
  if (m === 'ds_bpermute_b32') return bpermute;
  if (m === 'ds_write_addtid_b32') return writeAddtid;
  if (m === 'ds_read_addtid_b32') return readAddtid;
  if (m === 'ds_wrxchg2_rtn_b32') return wrxchg2(false);
  if (m === 'ds_wrxchg2st64_rtn_b32') return wrxchg2(true);
  if (m === 'ds_wrxchg2_rtn_b64') return wrxchg2x64(false);
  if (m === 'ds_wrxchg2st64_rtn_b64') return wrxchg2x64(true);
  if (m === 'ds_condxchg32_rtn_b64') return condxchg32;
  if (m === 'ds_append') return appendConsume(1);
  if (m === 'ds_consume') return appendConsume(-1);
  if (f.includes('src2')) return src2(def);
  if (f.includes('gdsOnly')) return undefined;
  const fl = floatAtomicOf(m);
  if (fl) return floatAtomic(def, fl);
  if (f.includes('atomic')) {
    if (f.includes('offset2')) return undefined;
    const kind = rmwOf(m);
    return kind ? atomic(def, kind) : undefined;
  }
  if (/^ds_read/.test(m)) return load(def);
  if (/^ds_write/.test(m)) return store(def);
  return undefined;
}

export const DS: Record<string, Translator> = {};
for (const d of DS_TABLE) {
  if (d.mnemonic in DS) continue;
  const t = translatorOf(d);
  if (t) DS[d.mnemonic] = t;
}
