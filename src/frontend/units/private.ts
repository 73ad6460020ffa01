// The private segment (scratch) to IR, for the SCRATCH instructions and FLAT accesses in the private
// aperture, exactly as the interpreter does them (src/interp/units/vmem.ts, src/interp/scratch.ts):
// a lane's private byte `o` is at FLAT_SCRATCH + floor(o / 4) * 4 * waveSize + 4 * lane + (o % 4),
// FLAT_SCRATCH being the wave's hardware register (HW_REG_FLAT_SCR_LO/HI: 0 at launch, set by
// s_setreg, units/hwreg.ts; kept as two uniform registers at FLAT_SCR_LO_REG/HI_REG). Private
// offsets are 32-bit sums (vaddr or saddr + the signed offset, or a FLAT address's low dword +
// offset), wrapped as the hardware's adder does.
//
// Every access goes through the aligned dwords of the lane's own column: a piece that crosses a
// dword (a misaligned dword, a short at o % 4 == 3) is read from two dwords and put together, and
// a byte, short or misaligned store is a read-modify-write of the dword(s) it touches. A private
// dword belongs to one lane, so nothing races with that. No 8-bit storage is needed.
//
// Out of range: the interpreter maps each wave exactly its region (scratchWaveBytes) and stops the
// run at an address outside every mapping. Here every dword an access touches must lie inside the
// wave's region [ScratchBase, + scratchWaveBytes); a lane where one does not accesses nothing and
// raises FAULT_SCRATCH_RANGE (so does every lane of a kernel without scratch, where the
// interpreter maps none). Choice: a FLAT_SCRATCH a kernel points at some other mapped memory (a
// buffer) is followed by the interpreter but faults here (docs/TECHNICAL_DEBT.md).
import type { Inst } from '../../ir/ir.js';
import type { AtomicRmw } from '../../ir/ops.js';
import { FAULT_SCRATCH_RANGE } from '../../ir/faults.js';
import { scratchWaveBytes } from '../../isa/apertures.js';
import { wantsScratch } from '../../interp/scratch.js';
import type { TContext, Translator } from '../context.js';
import { listOf, NO_ARGS } from '../../ir/ir.js';

/**
 * Register numbers (in the SGPR code space) that hold FLAT_SCRATCH's two dwords: codes 230/231 are
 * reserved source codes on gfx10 (209-234 decode as nothing), so no operand ever names them.
 */
export const FLAT_SCR_LO_REG = 230;
export const FLAT_SCR_HI_REG = 231;

/** One lane's view of its private segment for one instruction (the lanes where `active` holds). */
export interface PrivateAccess {
  /** `n` bytes (1, 2, 4) at private offset o + k, zero-extended (0 in inactive lanes). */
  load(k: number, n: 1 | 2 | 4): Inst;
  /** The low `n` bytes of `v` at private offset o + k. */
  store(k: number, n: 1 | 2 | 4, v: Inst): void;
}

/**
 * The private accesses of the lanes `active` at private offset `o` (u32) that touch bytes o .. o +
 * span - 1: checks once, before any access, that every dword of that span is inside the wave's
 * region (the others fault and access nothing).
 */
export function privateAccess(cx: TContext, active: Inst, o: Inst, span: number): PrivateAccess {
  const b = cx.b;
  const ws = cx.waveSize;
  const none = b.emit('ConstU1', NO_ARGS, listOf(0));
  if (!wantsScratch(cx.shader.info)) {
    b.emit('Fault', listOf(active), listOf(FAULT_SCRATCH_RANGE));
    return { load: () => cx.u32(0), store: () => undefined };
  }
  const fs = cx.pack(b.getSgpr(FLAT_SCR_LO_REG), b.getSgpr(FLAT_SCR_HI_REG));
  const sb = b.emit('ScratchBase');
  const waveBytes = scratchWaveBytes(cx.shader.info.scratchSize, ws);
  const laneOff = cx.pack(b.emit('Shl32', listOf(b.emit('LaneId'), cx.u32(2))), cx.u32(0));
  const colShift = cx.u32(ws === 64 ? 8 : 7);
  /** The byte address of the lane's dword `d` (u32 dword index) of its private segment. */
  const dwordAt = (d: Inst) => b.emit('IAdd64', listOf(b.emit('IAdd64', listOf(fs, b.emit('Shl64', listOf(cx.pack(d, cx.u32(0)), colShift)))), laneOff));
  const inRegion = (a: Inst) => b.emit('ULt64', listOf(b.emit('ISub64', listOf(a, sb)), cx.pack(cx.u32(waveBytes - 3), cx.u32(0))));
  // Where a piece starts: its first dword and its byte in it; the dwords of the whole span.
  const piece = (k: number) => {
    const ok = k === 0 ? o : b.emit('IAdd32', listOf(o, cx.u32(k)));
    return { d: b.emit('LShr32', listOf(ok, cx.u32(2))), s: b.emit('And32', listOf(ok, cx.u32(3))) };
  };
  // The span's dwords are consecutive: its first and last dword inside the region, and no 32-bit
  // wrap inside it (the interpreter adds the bytes past o without wrapping: out of range).
  const first = piece(0), last = piece(span - 1);
  const wraps = span === 1 ? none : b.emit('UAddCarry32', listOf(o, cx.u32(span - 1), none));
  const bad = b.emit('OrU1', listOf(wraps, b.emit('OrU1', listOf(b.emit('NotU1', listOf(inRegion(dwordAt(first.d)))), b.emit('NotU1', listOf(inRegion(dwordAt(last.d))))))));
  const faulty = b.emit('AndU1', listOf(active, bad));
  b.emit('Fault', listOf(faulty), listOf(FAULT_SCRATCH_RANGE));
  const on = b.emit('AndU1', listOf(active, b.emit('NotU1', listOf(bad))));
  const mask = (n: number) => (n === 4 ? 0xffffffff : (1 << (8 * n)) - 1);
  const crosses = (s: Inst, n: number) => (n === 1 ? none : b.emit('UGt32', listOf(s, cx.u32(4 - n))));
  const next = (d: Inst) => b.emit('IAdd64', listOf(d, cx.u64(4 * ws)));
  return {
    load(k, n) {
      const { d, s } = piece(k);
      const a0 = dwordAt(d);
      const lo = b.emit('LoadGlobal32', listOf(on, a0));
      const sh = b.emit('Shl32', listOf(s, cx.u32(3)));
      let v = b.emit('LShr32', listOf(lo, sh));
      const cross = crosses(s, n);
      if (n !== 1) {
        const hi = b.emit('LoadGlobal32', listOf(b.emit('AndU1', listOf(on, cross)), next(a0)));
        const up = b.emit('Shl32', listOf(hi, b.emit('And32', listOf(b.emit('ISub32', listOf(cx.u32(32), sh)), cx.u32(31)))));
        v = b.emit('Select32', listOf(cross, b.emit('Or32', listOf(v, up)), v));
      }
      return n === 4 ? v : b.emit('And32', listOf(v, cx.u32(mask(n))));
    },
    store(k, n, v) {
      const { d, s } = piece(k);
      const a0 = dwordAt(d);
      const sh = b.emit('Shl32', listOf(s, cx.u32(3)));
      const m = cx.u32(mask(n));
      const x = n === 4 ? v : b.emit('And32', listOf(v, m));
      // An aligned dword replaces its dword; anything else merges into what is there.
      const whole = n === 4 ? b.emit('IEq32', listOf(s, cx.u32(0))) : none;
      const old0 = b.emit('LoadGlobal32', listOf(b.emit('AndU1', listOf(on, b.emit('NotU1', listOf(whole)))), a0));
      const new0 = b.emit('Or32', listOf(b.emit('And32', listOf(old0, b.emit('Not32', listOf(b.emit('Shl32', listOf(m, sh)))))), b.emit('Shl32', listOf(x, sh))));
      b.emit('StoreGlobal32', listOf(on, a0, new0));
      if (n === 1) return;
      const cross = b.emit('AndU1', listOf(on, crosses(s, n)));
      const a1 = next(a0);
      const down = b.emit('And32', listOf(b.emit('ISub32', listOf(cx.u32(32), sh)), cx.u32(31)));
      const old1 = b.emit('LoadGlobal32', listOf(cross, a1));
      const new1 = b.emit('Or32', listOf(b.emit('And32', listOf(old1, b.emit('Not32', listOf(b.emit('LShr32', listOf(m, down)))))), b.emit('LShr32', listOf(x, down))));
      b.emit('StoreGlobal32', listOf(cross, a1, new1));
    },
  };
}

/**
 * An integer atomic on the lane's private bytes (FLAT in the private aperture), as the interpreter
 * does it: the old value (dwords at +0, +4), the new one from the RDNA atomic rules (ATOMIC_RMW in
 * src/ir/ops.ts; cmpswap: data where memory equals compare), written back dword by dword. Not
 * atomic, and need not be: the bytes belong to the lane. `data`/`cmp`: the operands' dwords (one or
 * two each). The old value: u32, or u64 for the 64-bit forms (0 in lanes that do not access).
 */
export function privateAtomic(cx: TContext, p: PrivateAccess, kind: AtomicRmw | 'cmpswap', wide: boolean, data: readonly Inst[], cmp: readonly Inst[]): Inst {
  const b = cx.b;
  const lo = (x: Inst) => b.emit('Lo32', listOf(x)), hi = (x: Inst) => b.emit('Hi32', listOf(x));
  const val = (d: readonly Inst[]) => (wide ? cx.pack(d[0] as Inst, d[1] as Inst) : (d[0] as Inst));
  const o = wide ? cx.pack(p.load(0, 4), p.load(4, 4)) : p.load(0, 4);
  const d = val(data);
  const sel = (c: Inst, x: Inst, y: Inst) => (wide ? cx.pack(b.emit('Select32', listOf(c, lo(x), lo(y))), b.emit('Select32', listOf(c, hi(x), hi(y)))) : b.emit('Select32', listOf(c, x, y)));
  const bits = (op: 'And32' | 'Or32' | 'Xor32') => (wide ? cx.pack(b.emit(op, listOf(lo(o), lo(d))), b.emit(op, listOf(hi(o), hi(d)))) : b.emit(op, listOf(o, d)));
  const k = (v: number) => (wide ? cx.pack(cx.u32(v), cx.u32(0)) : cx.u32(v));
  const w = (op32: 'IAdd32' | 'ISub32' | 'ULt32' | 'SLt32' | 'IEq32') => (wide ? (op32.replace('32', '64') as 'IAdd64' | 'ISub64' | 'ULt64' | 'SLt64' | 'IEq64') : op32);
  const f = (op: 'IAdd32' | 'ISub32' | 'ULt32' | 'SLt32' | 'IEq32', x: Inst, y: Inst) => b.emit(w(op), listOf(x, y));
  let nv: Inst;
  switch (kind) {
    case 'swap': nv = d; break;
    case 'cmpswap': nv = sel(f('IEq32', o, val(cmp)), d, o); break;
    case 'add': nv = f('IAdd32', o, d); break;
    case 'sub': nv = f('ISub32', o, d); break;
    case 'smin': nv = sel(f('SLt32', o, d), o, d); break;
    case 'smax': nv = sel(f('SLt32', d, o), o, d); break;
    case 'umin': nv = sel(f('ULt32', o, d), o, d); break;
    case 'umax': nv = sel(f('ULt32', d, o), o, d); break;
    case 'and': nv = bits('And32'); break;
    case 'or': nv = bits('Or32'); break;
    case 'xor': nv = bits('Xor32'); break;
    case 'inc': nv = sel(f('ULt32', o, d), f('IAdd32', o, k(1)), k(0)); break;
    case 'dec': nv = sel(b.emit('OrU1', listOf(f('IEq32', o, k(0)), f('ULt32', d, o))), d, f('ISub32', o, k(1))); break;
    case 'csub': nv = sel(f('ULt32', o, d), k(0), f('ISub32', o, d)); break;
  }
  p.store(0, 4, wide ? lo(nv) : nv);
  if (wide) p.store(4, 4, hi(nv));
  return o;
}

/** gfx10 SCRATCH: the private offset is vaddr, or (vaddr off) saddr, or 0, plus the signed offset. */
function scratchOffset(cx: TContext): Inst {
  const vaddr = cx.inst.operands.find((o) => o.name === 'vaddr');
  const saddr = cx.inst.operands.find((o) => o.name === 'saddr');
  const sNone = !saddr || (saddr.value.kind === 'special' && (saddr.value.reg === 'null' || saddr.value.reg === 'exec_hi'));
  const base = vaddr ? cx.lane(vaddr.value, 'u32') : !sNone && saddr ? cx.scalar(saddr.value, 'u32') : cx.u32(0);
  const off = cx.inst.mods.offset ?? 0;
  return off === 0 ? base : cx.b.emit('IAdd32', listOf(base, cx.u32(off >>> 0)));
}

const span = (bytes: number, dwords: number) => (bytes < 4 ? bytes : 4 * dwords);

/** scratch_load_*: dwords, or a byte/short zero- or sign-extended, or (d16) into a half of vdst. */
const load = (bytes: 1 | 2 | 4, dwords: number, signed: boolean, d16?: 'lo' | 'hi'): Translator => (cx) => {
  if (cx.inst.mods.lds) cx.fail('lds=1 loads are not translated yet (the interpreter does not implement them)');
  const b = cx.b;
  const exec = cx.execBit();
  const p = privateAccess(cx, exec, scratchOffset(cx), span(bytes, dwords));
  const d = cx.op('vdst').value;
  if (bytes === 4) {
    const v: Inst[] = [];
    for (let k = 0; k < dwords; k++) v.push(p.load(4 * k, 4));
    v.forEach((x, k) => cx.writeLane(d, x, k, exec));
    return;
  }
  let v = p.load(0, bytes);
  if (signed) v = b.emit('SBfe32', listOf(v, cx.u32(0), cx.u32(8 * bytes)));
  if (d16) {
    const old = cx.lane(d, 'b32', 0);
    const h = b.emit('And32', listOf(v, cx.u32(0xffff)));
    v = d16 === 'lo'
      ? b.emit('Or32', listOf(b.emit('And32', listOf(old, cx.u32(0xffff0000))), h))
      : b.emit('Or32', listOf(b.emit('And32', listOf(old, cx.u32(0xffff))), b.emit('Shl32', listOf(h, cx.u32(16)))));
  }
  cx.writeLane(d, v, 0, exec);
};

/** scratch_store_*: dwords, or the data's low (_d16_hi: high) byte/short. */
const store = (bytes: 1 | 2 | 4, dwords: number, hi: boolean): Translator => (cx) => {
  const b = cx.b;
  const exec = cx.execBit();
  const p = privateAccess(cx, exec, scratchOffset(cx), span(bytes, dwords));
  const v = cx.op('vdata').value;
  if (bytes === 4) { for (let k = 0; k < dwords; k++) p.store(4 * k, 4, cx.lane(v, 'b32', k)); return; }
  const x = cx.lane(v, 'b32', 0);
  p.store(0, bytes, hi ? b.emit('LShr32', listOf(x, cx.u32(16))) : x);
};

/** The SCRATCH family by mnemonic (the table's 22 opcodes). */
export const SCRATCH_UNIT: Record<string, Translator> = {
  scratch_load_dword: load(4, 1, false), scratch_load_dwordx2: load(4, 2, false), scratch_load_dwordx3: load(4, 3, false), scratch_load_dwordx4: load(4, 4, false),
  scratch_load_ubyte: load(1, 1, false), scratch_load_sbyte: load(1, 1, true), scratch_load_ushort: load(2, 1, false), scratch_load_sshort: load(2, 1, true),
  scratch_load_ubyte_d16: load(1, 1, false, 'lo'), scratch_load_ubyte_d16_hi: load(1, 1, false, 'hi'),
  scratch_load_sbyte_d16: load(1, 1, true, 'lo'), scratch_load_sbyte_d16_hi: load(1, 1, true, 'hi'),
  scratch_load_short_d16: load(2, 1, false, 'lo'), scratch_load_short_d16_hi: load(2, 1, false, 'hi'),
  scratch_store_dword: store(4, 1, false), scratch_store_dwordx2: store(4, 2, false), scratch_store_dwordx3: store(4, 3, false), scratch_store_dwordx4: store(4, 4, false),
  scratch_store_byte: store(1, 1, false), scratch_store_byte_d16_hi: store(1, 1, true), scratch_store_short: store(2, 1, false), scratch_store_short_d16_hi: store(2, 1, true),
};
