// Memory to IR: SMEM scalar loads (wave-uniform, from a 64-bit base + offset + soffset, the low two
// address bits ignored), GLOBAL and FLAT loads/stores of bytes, shorts (also the d16 half-register
// forms) and dwords (global_*_dword_addtid: saddr + offset + lane id * 4), and every integer atomic,
// 32- and 64-bit, and the float atomics fcmpswap/fmin/fmax(_x2) (AtomicRmwCall of their helper,
// src/ir/passes/lower-float-atomic.ts: the float model's rules under its fixed float-atomic mode)
// (per lane, only in active lanes; an inactive lane keeps its destination; the lanes of one
// instruction apply in ascending lane order, as the IR op says). FLAT accesses in the
// LDS/private apertures go to LDS and to the lane's scratch (see `access`; atomics there: the DS
// atomics, and ./private.ts's read-modify-write; a float atomic's such lanes fault); the SCRATCH
// family is in ./private.ts. Buffer resources: ./buffer.ts. The clocks s_memtime and
// s_memrealtime are SMEM too (clockRead).
import type { Inst } from '../../ir/ir.js';
import { ATOMIC_RMW, type AtomicRmw, CLOCKS, type Clock, LDS_RMW, type LdsRmw } from '../../ir/ops.js';
import { ISA_TABLE } from '../../isa/table.js';
import type { Operand, OperandValue } from '../../decode/types.js';
import { opRef, type TContext, type Translator } from '../context.js';
import { FAULT_ATOMIC_ALIGN, FAULT_FLAT_APERTURE, FAULT_SCRATCH_RANGE } from '../../ir/faults.js';
import { PRIVATE_APERTURE_HI, SHARED_APERTURE_HI } from '../../isa/apertures.js';
import { ldsAddress } from './ds.js';
import { FLAT_SCR_HI_REG, FLAT_SCR_LO_REG, type PrivateAccess, privateAccess, privateAtomic, SCRATCH_UNIT } from './private.js';
import { wantsScratch } from '../../interp/scratch.js';
import { scratchWaveBytes } from '../../isa/apertures.js';
import { type FloatAtomicOp, floatAtomicOf } from '../../float/atomic.js';
import { floatAtomicHelper } from '../../ir/passes/lower-float-atomic.js';
import { SCALAR_ATOMICS } from '../../isa/tables/smem.js';
import { NO_FLAGS } from '../../isa/types.js';
import { listOf, NO_ARGS } from '../../ir/ir.js';

/** The ops the address and load paths emit at most instructions, their entries found once (context.ts `opRef`). */
const AND32 = opRef('And32'), IADD64 = opRef('IAdd64'), LO32 = opRef('Lo32'), HI32 = opRef('Hi32'), LOAD_UNIFORM32 = opRef('LoadUniform32');
const LOAD_GLOBAL32 = opRef('LoadGlobal32'), STORE_GLOBAL32 = opRef('StoreGlobal32');

/**
 * A scalar access's address from its 64-bit base hi:lo: base + the signed 21-bit offset + the unsigned
 * SGPR offset, in 64 bits (the interpreter's sum), the two low bits cleared.
 */
function scalarAddressFrom(cx: TContext, lo: Inst, hi: Inst): Inst {
  const b = cx.b;
  const imm = cx.inst.mods.offset ?? 0;
  const so = cx.op('soffset').value;
  const soffset = so.kind === 'special' && so.reg === 'null' ? undefined : cx.scalar(so, 'u32');
  // Offsets that are constants with the two low bits of their sum clear: (base + off) & ~3 is
  // (base & ~3) + off (the sum's low two bits are the base's, and no carry leaves them), so the
  // aligned base is one value for every access through the same base.
  // Sums as numbers (exact: a 21-bit offset and a u32), BigInts only for a negative one's 64-bit
  // pattern: most kernels' few s_loads run before V8 optimises this, where each BigInt step is a call.
  if (soffset === undefined || soffset.op === 'ConstU32') {
    const off = imm + Number(soffset?.imms[0] ?? 0);
    // The low two bits of the 64-bit sum (ToInt32 keeps them, negative sums as two's complement).
    if ((off & 3) === 0) {
      const aligned = cx.pack(b.value(AND32, lo, cx.b.u32(0xfffffffc)), hi);
      return off === 0 ? aligned : b.value(IADD64, aligned, u64Offset(b, off));
    }
  }
  const base = cx.pack(lo, hi);
  let a = imm === 0 ? base : b.value(IADD64, base, u64Offset(b, imm));
  if (soffset) a = b.value(IADD64, a, cx.pack(soffset, cx.b.u32(0)));
  return cx.pack(b.value(AND32, b.value(LO32, a), cx.b.u32(0xfffffffc)), b.value(HI32, a));
}

/** The u64 constant of the integer `off` (a safe integer) taken mod 2^64. */
function u64Offset(b: TContext['b'], off: number): Inst {
  return off >= 0 ? b.u64Of(off) : b.u64(BigInt.asUintN(64, BigInt(off)));
}

/** s_load / s_store / s_atomic: from sbase's 48-bit address (in the code image where it lies there). */
function smemAddress(cx: TContext): Inst {
  const sb = cx.op('sbase').value;
  return cx.memoryAddress(scalarAddressFrom(cx, cx.scalar(sb, 'b64', 0), cx.b.value(AND32, cx.scalar(sb, 'b64', 1), cx.b.u32(0xffff))));
}

const sload = (n: number): Translator => (cx) => {
  const a = smemAddress(cx);
  const d = cx.op('sdata').value;
  for (let k = 0; k < n; k++) {
    const ak = k === 0 ? a : cx.b.value(IADD64, a, cx.u64(4 * k));
    cx.writeScalar(d, cx.b.value(LOAD_UNIFORM32, ak), k);
  }
};

/**
 * s_store_dword* (gfx1010/gfx1013): sdata's dwords at the address a load of the same operands
 * reads (dword `k` of it). Every lane stores the same dwords (`active`: in every lane), so a lane's own later load
 * of them sees them whatever order the device runs the wave's invocations in (an invocation's
 * accesses are in its program order; the wave's scalar state is the same in each).
 */
export function scalarStore(cx: TContext, active: Inst, a: Inst, k: number): void {
  cx.b.emit('StoreGlobal32', listOf(active, at(cx, a, k), cx.scalar(cx.op('sdata').value, 'b32', k)));
}

/**
 * A scalar atomic (s_atomic_*, s_buffer_atomic_*; gfx1010/gfx1013), once per wave whatever EXEC
 * holds: lane 0's invocation does it where `inRange` holds (the interpreter's single access), and
 * with glc its old value (0 out of range) goes to every lane's copy of sdata through ReadLane.
 * Data from sdata, cmpswap's compare in the dword(s) after it, as the vector atomics.
 */
export function scalarAtomic(cx: TContext, kind: AtomicRmw | 'cmpswap', wide: boolean, a: Inst, inRange: Inst | undefined): void {
  const b = cx.b;
  const d = cx.op('sdata').value;
  const lane0 = b.emit('IEq32', listOf(b.emit('LaneId'), cx.b.u32(0)));
  const old = atomicOp(cx, kind, wide, inRange ? b.emit('AndU1', listOf(lane0, inRange)) : lane0, a, (k) => cx.scalar(d, 'b32', k));
  if (!cx.inst.mods.glc) return;
  const zero = cx.b.u32(0);
  if (!wide) { cx.writeScalar(d, b.emit('ReadLane', listOf(old, zero)), 0); return; }
  cx.writeScalar(d, b.emit('ReadLane', listOf(b.emit('Lo32', listOf(old)), zero)), 0);
  cx.writeScalar(d, b.emit('ReadLane', listOf(b.emit('Hi32', listOf(old)), zero)), 1);
}

/** The instruction's operand `name`, if it has one (an indexed loop: `find` made a closure per access). */
function operandNamed(cx: TContext, name: string): Operand | undefined {
  const ops = cx.inst.operands;
  for (let k = 0; k < ops.length; k++) { const o = ops[k] as Operand; if (o.name === name) return o; }
  return undefined;
}

function globalAddress(cx: TContext): Inst {
  const b = cx.b;
  const off = cx.inst.mods.offset ?? 0;
  const saddr = operandNamed(cx, 'saddr');
  const vaddr = operandNamed(cx, 'vaddr')?.value;
  const addtid = (cx.inst.def.flags ?? NO_FLAGS).includes('addtid');
  let a: Inst;
  if (saddr && !(saddr.value.kind === 'special' && saddr.value.reg === 'null')) {
    // saddr + a 32-bit offset: the VGPR, or (global_*_addtid) the lane id * 4.
    const v = vaddr ? cx.lane(vaddr, 'u32', 0) : addtid ? b.emit('Shl32', listOf(b.emit('LaneId'), cx.b.u32(2))) : cx.fail('no vaddr');
    a = b.value(IADD64, cx.pack(cx.scalar(saddr.value, 'b64', 0), cx.scalar(saddr.value, 'b64', 1)), cx.pack(v, cx.b.u32(0)));
  } else if (vaddr) a = cx.pack(cx.lane(vaddr, 'u64', 0), cx.lane(vaddr, 'u64', 1));
  else return cx.fail(addtid ? 'global_*_addtid needs saddr (the interpreter refuses it too)' : 'no address operand');
  if (off !== 0) a = b.value(IADD64, a, off > 0 ? b.u64Of(off) : b.u64(BigInt.asUintN(64, BigInt(off))));
  return cx.memoryAddress(a);
}

/**
 * Where the active lanes of a GLOBAL or FLAT instruction go, as the interpreter decides
 * (src/interp/units/vmem.ts). GLOBAL: global memory. FLAT: by the high dword of the lane's 64-bit
 * address (before the offset): the shared aperture goes to LDS at the low dword + offset (outside
 * the LDS: reads 0, writes dropped, as DS), the private aperture to the lane's scratch at the low
 * dword + offset (32-bit sum; ./private.ts), anything else to global memory. The LDS lanes use the
 * LDS ops, which put the kernel in the workgroup layout when it has LDS (emit.ts; with no LDS at
 * all they read 0 and write nothing without it). `span`: the bytes one lane accesses.
 */
interface Lanes {
  readonly exec: Inst;
  readonly global: { readonly active: Inst; readonly a: Inst };
  readonly lds: { readonly active: Inst; readonly a: Inst } | undefined;
  readonly priv: { readonly active: Inst; readonly p: PrivateAccess | undefined } | undefined;
}

function access(cx: TContext, span: number): Lanes {
  if (cx.inst.mods.lds) cx.fail('lds=1 loads are not translated yet');
  const b = cx.b;
  const exec = cx.execBit();
  const a = globalAddress(cx);
  if (cx.inst.def.family !== 'FLAT') return { exec, global: { active: exec, a }, lds: undefined, priv: undefined };
  const vaddr = cx.op('vaddr').value;
  const lo = cx.lane(vaddr, 'u64', 0), hi = cx.lane(vaddr, 'u64', 1);
  const shared = b.emit('AndU1', listOf(exec, b.emit('IEq32', listOf(hi, cx.b.u32(SHARED_APERTURE_HI)))));
  const priv = b.emit('AndU1', listOf(exec, b.emit('IEq32', listOf(hi, cx.b.u32(PRIVATE_APERTURE_HI)))));
  const global = b.emit('AndU1', listOf(exec, b.emit('NotU1', listOf(b.emit('OrU1', listOf(shared, priv))))));
  const off = cx.inst.mods.offset ?? 0;
  // lo + offset, not wrapped: past 2^32 (or below 0) it is outside any LDS.
  const ldsA = off >= 0 ? ldsAddress(cx, lo, off) : b.emit('Select32', listOf(b.emit('ULt32', listOf(lo, cx.b.u32(-off))), cx.b.u32(0xffffffff), b.emit('IAdd32', listOf(lo, cx.b.u32(off >>> 0)))));
  const o = off === 0 ? lo : b.emit('IAdd32', listOf(lo, cx.b.u32(off >>> 0)));
  return { exec, global: { active: global, a }, lds: { active: shared, a: ldsA }, priv: { active: priv, p: privateAccess(cx, priv, o, span) } };
}

const at = (cx: TContext, a: Inst, k: number) => (k === 0 ? a : cx.b.value(IADD64, a, cx.u64(4 * k)));

/** `n` bytes at byte `k` of each lane's access, zero-extended, from wherever the lane goes (0 in inactive lanes). */
function loadPiece(cx: TContext, l: Lanes, k: number, n: 1 | 2 | 4): Inst {
  const b = cx.b;
  const ga = k === 0 ? l.global.a : b.value(IADD64, l.global.a, cx.u64(k));
  let v = n === 4 ? b.value(LOAD_GLOBAL32, l.global.active, ga) : b.emit(n === 1 ? 'LoadGlobalU8' : 'LoadGlobalU16', listOf(l.global.active, ga));
  if (l.lds) v = b.emit('Or32', listOf(v, b.emit('LoadLds', listOf(l.lds.active, l.lds.a), listOf(n, k))));
  if (l.priv?.p) v = b.emit('Or32', listOf(v, l.priv.p.load(k, n)));
  return v;
}

// The dwords' list the context's (TContext.dwords, its first slots written over), filled by loops:
// no closure, and no list, per instruction.
const gload = (n: number): Translator => (cx) => {
  const l = access(cx, 4 * n);
  const d = cx.op('vdst').value;
  // Every dword read before any is written (vdst may overlap vaddr).
  const v = cx.dwords;
  for (let k = 0; k < n; k++) v[k] = loadPiece(cx, l, 4 * k, 4);
  for (let k = 0; k < n; k++) cx.writeLane(d, v[k] as Inst, k, l.exec);
};

const gstore = (n: number): Translator => (cx) => {
  const l = access(cx, 4 * n);
  const v = cx.op('vdata').value;
  const data = cx.dwords;
  for (let k = 0; k < n; k++) data[k] = cx.lane(v, 'b32', k);
  for (let k = 0; k < n; k++) cx.b.value(STORE_GLOBAL32, l.global.active, at(cx, l.global.a, k), data[k] as Inst);
  if (l.lds) {
    const dword = (k: number) => (k < n ? data[k] as Inst : cx.b.u32(0));
    cx.b.emit('StoreLds', listOf(l.lds.active, l.lds.a, l.lds.a, dword(0), dword(1), dword(2), dword(3)), listOf(4 * n, 1));
  }
  if (l.priv?.p) for (let k = 0; k < n; k++) l.priv.p.store(4 * k, 4, data[k] as Inst);
};

/**
 * Byte and short loads: zero- or sign-extended to the dword, or (d16) into the low or high half of
 * vdst with the other half kept, as the interpreter does. Any alignment (a short may straddle dwords).
 */
const subload = (bytes: 1 | 2, signed: boolean, d16?: 'lo' | 'hi'): Translator => (cx) => {
  const b = cx.b;
  const l = access(cx, bytes);
  const d = cx.op('vdst').value;
  let v = loadPiece(cx, l, 0, bytes);
  if (signed) v = b.emit('SBfe32', listOf(v, cx.b.u32(0), cx.b.u32(8 * bytes)));
  if (d16) {
    const old = cx.lane(d, 'b32', 0);
    v = d16 === 'lo'
      ? b.emit('Or32', listOf(b.emit('And32', listOf(old, cx.b.u32(0xffff0000))), b.emit('And32', listOf(v, cx.b.u32(0xffff)))))
      : b.emit('Or32', listOf(b.emit('And32', listOf(old, cx.b.u32(0xffff))), b.emit('Shl32', listOf(v, cx.b.u32(16)))));
  }
  cx.writeLane(d, v, 0, l.exec);
};

/** Byte and short stores of the data's low (or, _d16_hi, high) half. */
const substore = (bytes: 1 | 2, hi: boolean): Translator => (cx) => {
  const b = cx.b;
  const l = access(cx, bytes);
  let v = cx.lane(cx.op('vdata').value, 'b32', 0);
  if (hi) v = b.emit('LShr32', listOf(v, cx.b.u32(16)));
  b.emit(bytes === 1 ? 'StoreGlobal8' : 'StoreGlobal16', listOf(l.global.active, l.global.a, v));
  if (l.lds) b.emit('StoreLds', listOf(l.lds.active, l.lds.a, l.lds.a, v, cx.b.u32(0), cx.b.u32(0), cx.b.u32(0)), listOf(bytes, 1));
  l.priv?.p?.store(0, bytes, v);
};

/** A FLAT atomic's LDS operation (the DS rules are the same as the FLAT ones for these). */
const LDS_OF: Readonly<Record<AtomicRmw | 'cmpswap', LdsRmw | undefined>> = {
  add: 'add', sub: 'sub', smin: 'min_i', umin: 'min_u', smax: 'max_i', umax: 'max_u', and: 'and', or: 'or', xor: 'xor',
  swap: 'wrxchg', inc: 'inc', dec: 'dec', csub: undefined, cmpswap: 'cmpst',
};

/** An atomic's operation: an integer one, or a float atomic (its width is the form's). */
export type AtomicKind = AtomicRmw | 'cmpswap' | { readonly float: FloatAtomicOp };

/**
 * <seg>_atomic_<op>[_x2]: each active lane's old value goes to vdst when the form returns (glc).
 * 64-bit forms take data (and compare) as VGPR pairs.
 */
const gatomic = (kind: AtomicKind, wide: boolean): Translator => (cx) => {
  const b = cx.b;
  const l = access(cx, wide ? 8 : 4);
  const v = cx.op('vdata').value;
  let old = atomicOp(cx, kind, wide, l.global.active, l.global.a, (k) => cx.lane(v, 'b32', k));
  if (typeof kind === 'object') {
    // A float atomic's lanes in the LDS or private aperture: not translated (a run-time fault).
    const other = [l.lds?.active, l.priv?.p ? l.priv.active : undefined].filter((x): x is Inst => x !== undefined);
    if (other.length) b.emit('Fault', listOf(other.length === 2 ? b.emit('OrU1', other) : other[0] as Inst), listOf(FAULT_FLAT_APERTURE));
    const dst = operandNamed(cx, 'vdst');
    if (dst) writeWide(cx, dst.value, old, wide, l.exec);
    return;
  }
  if (l.lds) {
    const op = LDS_OF[kind] ?? cx.fail(`${cx.inst.def.mnemonic} to LDS has no DS operation`);
    const n = wide ? 2 : 1;
    const val = (k: number) => cx.pack(cx.lane(v, 'b32', k), wide ? cx.lane(v, 'b32', k + 1) : cx.b.u32(0));
    // DS compare-and-store takes the compare first (old == d0 ? d1 : old); FLAT's vdata is data, then compare.
    const [d0, d1] = kind === 'cmpswap' ? [val(n), val(0)] : [val(0), cx.pack(cx.b.u32(0), cx.b.u32(0))];
    const ldsOld = b.emit('AtomicLds', listOf(l.lds.active, l.lds.a, d0, d1), listOf(LDS_RMW.indexOf(op), wide ? 1 : 0));
    old = wide
      ? cx.pack(b.emit('Or32', listOf(b.emit('Lo32', listOf(old)), b.emit('Lo32', listOf(ldsOld)))), b.emit('Or32', listOf(b.emit('Hi32', listOf(old)), b.emit('Hi32', listOf(ldsOld)))))
      : b.emit('Or32', listOf(old, b.emit('Lo32', listOf(ldsOld))));
  }
  if (l.priv?.p) {
    const n = wide ? 2 : 1;
    const dw = (k: number) => cx.lane(v, 'b32', k);
    const data = Array.from({ length: n }, (_, k) => dw(k)), cmp = kind === 'cmpswap' ? Array.from({ length: n }, (_, k) => dw(n + k)) : [];
    const pOld = privateAtomic(cx, l.priv.p, kind, wide, data, cmp);
    old = wide
      ? cx.pack(b.emit('Or32', listOf(b.emit('Lo32', listOf(old)), b.emit('Lo32', listOf(pOld)))), b.emit('Or32', listOf(b.emit('Hi32', listOf(old)), b.emit('Hi32', listOf(pOld)))))
      : b.emit('Or32', listOf(old, pOld));
  }
  const dst = operandNamed(cx, 'vdst');
  if (dst) writeWide(cx, dst.value, old, wide, l.exec);
};

/** The atomic's IR op: data from dwords `src(0..)` (compare after the data), the old value. */
export function atomicOp(cx: TContext, kind: AtomicKind, wide: boolean, active: Inst, a: Inst, src: (k: number) => Inst): Inst {
  const n = wide ? 2 : 1;
  // The interpreter does a misaligned atomic byte by byte; a Vulkan atomic needs its natural
  // alignment (the NVIDIA H200 put misaligned 64-bit ones 8 bytes off): those lanes fault.
  const b = cx.b;
  const misaligned = b.emit('INe32', listOf(b.emit('And32', listOf(b.emit('Lo32', listOf(a)), cx.b.u32(wide ? 7 : 3))), cx.b.u32(0)));
  b.emit('Fault', listOf(b.emit('AndU1', listOf(active, misaligned))), listOf(FAULT_ATOMIC_ALIGN));
  active = b.emit('AndU1', listOf(active, b.emit('NotU1', listOf(misaligned))));
  const val = (k: number) => (wide ? cx.pack(src(k), src(k + 1)) : src(k));
  if (typeof kind === 'object') {
    // The helper's data and compare as u64 (a 32-bit value in the low dword); fcmpswap's compare follows its data.
    const v64 = (k: number) => (wide ? val(k) : cx.pack(src(k), cx.b.u32(0)));
    const cmp = kind.float === 'cmpswap' ? v64(n) : cx.pack(cx.b.u32(0), cx.b.u32(0));
    const old = b.emit('AtomicRmwCall', listOf(active, a, v64(0), cmp), listOf(floatAtomicHelper(b.fn, kind.float, wide ? 'f64' : 'f32'), wide ? 1 : 0));
    return wide ? old : b.emit('Lo32', listOf(old));
  }
  if (kind === 'cmpswap') return cx.b.emit(wide ? 'AtomicCmpSwap64' : 'AtomicCmpSwap32', listOf(active, a, val(0), val(n)));
  return cx.b.emit(wide ? 'AtomicRmw64' : 'AtomicRmw32', listOf(active, a, val(0)), listOf(ATOMIC_RMW.indexOf(kind)));
}

/** A 32- or 64-bit value to a VGPR (pair) in the lanes where `active` holds. */
export function writeWide(cx: TContext, d: OperandValue, v: Inst, wide: boolean, active: Inst): void {
  if (!wide) { cx.writeLane(d, v, 0, active); return; }
  cx.writeLane(d, cx.b.emit('Lo32', listOf(v)), 0, active);
  cx.writeLane(d, cx.b.emit('Hi32', listOf(v)), 1, active);
}

/** The integer atomics of the table: name without the segment prefix → (kind, 64-bit). */
export const INT_ATOMICS: readonly (readonly [string, AtomicRmw | 'cmpswap', boolean])[] = [...ATOMIC_RMW, 'cmpswap' as const].flatMap((k) => [
  [k, k, false] as const,
  ...(k === 'csub' ? [] : [[`${k}_x2`, k, true] as const]),
]);

/** The float atomics of the table (fcmpswap, fmin, fmax and their _x2 forms) by mnemonic → (kind, 64-bit). */
export function floatAtomicKind(mnemonic: string): readonly [AtomicKind, boolean] | undefined {
  const f = floatAtomicOf(mnemonic);
  return f ? [{ float: f.op }, f.type === 'f64'] : undefined;
}

/** The vector memory translators by name without the global_/flat_ prefix. */
const VMEM: Record<string, Translator> = {
  load_dword: gload(1), load_dwordx2: gload(2), load_dwordx3: gload(3), load_dwordx4: gload(4),
  store_dword: gstore(1), store_dwordx2: gstore(2), store_dwordx3: gstore(3), store_dwordx4: gstore(4),
  load_ubyte: subload(1, false), load_sbyte: subload(1, true), load_ushort: subload(2, false), load_sshort: subload(2, true),
  load_ubyte_d16: subload(1, false, 'lo'), load_ubyte_d16_hi: subload(1, false, 'hi'),
  load_sbyte_d16: subload(1, true, 'lo'), load_sbyte_d16_hi: subload(1, true, 'hi'),
  load_short_d16: subload(2, false, 'lo'), load_short_d16_hi: subload(2, false, 'hi'),
  store_byte: substore(1, false), store_byte_d16_hi: substore(1, true), store_short: substore(2, false), store_short_d16_hi: substore(2, true),
  load_dword_addtid: gload(1), store_dword_addtid: gstore(1),
  ...Object.fromEntries(INT_ATOMICS.map(([name, kind, wide]) => [`atomic_${name}`, gatomic(kind, wide)])),
};

const nothing: Translator = () => undefined;

/**
 * s_scratch_load/store_dword* (gfx1010/gfx1013), as the interpreter (src/interp/units/smem.ts):
 * sbase ignored, the wave-uniform address FLAT_SCRATCH + the signed offset + the SGPR offset (in 64
 * bits, the two low bits ignored), the wave's scratch bytes read or written linearly. Every dword
 * must lie inside the wave's region, as the lanes' private accesses must; otherwise the wave faults
 * (FAULT_SCRATCH_RANGE; every one in a kernel without scratch) and nothing is accessed. A load:
 * every lane reads the same dwords; a store: every lane writes them (same values, so each lane's
 * later loads see them, as the scalar stores above).
 */
const scalarScratch = (n: number, store: boolean): Translator => (cx) => {
  const b = cx.b;
  const d = cx.op('sdata').value;
  const all = b.u1(true);
  if (!wantsScratch(cx.shader.info)) {
    b.emit('Fault', listOf(all), listOf(FAULT_SCRATCH_RANGE));
    if (!store) for (let k = 0; k < n; k++) cx.writeScalar(d, cx.b.u32(0), k);
    return;
  }
  const a = scalarAddressFrom(cx, b.getSgpr(FLAT_SCR_LO_REG), b.getSgpr(FLAT_SCR_HI_REG));
  const waveBytes = scratchWaveBytes(cx.shader.info.scratchSize, cx.waveSize);
  // [a, a + 4n) inside [ScratchBase, + waveBytes): a - base <= waveBytes - 4n, unsigned (a below the base wraps high).
  const rel = b.emit('ISub64', listOf(a, b.emit('ScratchBase')));
  const ok = waveBytes >= 4 * n ? b.emit('ULt64', listOf(rel, cx.pack(cx.b.u32(waveBytes - 4 * n + 1), cx.b.u32(0)))) : b.u1(false);
  b.emit('Fault', listOf(b.emit('NotU1', listOf(ok))), listOf(FAULT_SCRATCH_RANGE));
  for (let k = 0; k < n; k++) {
    const ak = k === 0 ? a : b.emit('IAdd64', listOf(a, cx.u64(4 * k)));
    if (store) b.emit('StoreGlobal32', listOf(ok, ak, cx.scalar(d, 'b32', k)));
    else cx.writeScalar(d, b.emit('LoadGlobal32', listOf(ok, ak)), k);
  }
};


const sstore = (n: number): Translator => (cx) => {
  const a = smemAddress(cx), on = cx.b.u1(true);
  for (let k = 0; k < n; k++) scalarStore(cx, on, a, k);
};
const satomic = (kind: AtomicRmw | 'cmpswap', wide: boolean): Translator => (cx) => scalarAtomic(cx, kind, wide, smemAddress(cx), undefined);

/**
 * s_memtime / s_memrealtime: one ReadClock (ops.ts; 'time' the core clock, 'realtime' the
 * constant-rate one), its dwords into the SGPR pair. The value is wave-uniform and a later read
 * of the wave is not smaller, which is what code relies on (the interpreter's model and the
 * sources: src/interp/units/smem.ts); the SGPRs are written at once, so the s_waitcnt
 * lgkmcnt(0) that code puts before their use has nothing left to wait for.
 */
const clockRead = (clock: Clock): Translator => (cx) => {
  const t = cx.b.emit('ReadClock', NO_ARGS, listOf(CLOCKS.indexOf(clock)));
  const d = cx.op('sdata').value;
  cx.writeScalar(d, cx.b.emit('Lo32', listOf(t)), 0);
  cx.writeScalar(d, cx.b.emit('Hi32', listOf(t)), 1);
};

export const MEMORY: Record<string, Translator> = {
  s_load_dword: sload(1), s_load_dwordx2: sload(2), s_load_dwordx4: sload(4), s_load_dwordx8: sload(8), s_load_dwordx16: sload(16),
  s_store_dword: sstore(1), s_store_dwordx2: sstore(2), s_store_dwordx4: sstore(4),
  s_scratch_load_dword: scalarScratch(1, false), s_scratch_load_dwordx2: scalarScratch(2, false), s_scratch_load_dwordx4: scalarScratch(4, false),
  s_scratch_store_dword: scalarScratch(1, true), s_scratch_store_dwordx2: scalarScratch(2, true), s_scratch_store_dwordx4: scalarScratch(4, true),
  ...Object.fromEntries(SCALAR_ATOMICS.flatMap((k) => [false, true].map((wide) => [`s_atomic_${k}${wide ? '_x2' : ''}`, satomic(k, wide)]))),
  // The scalar cache: coherent memory here (src/interp/units/smem.ts); s_atc_probe* only probes.
  s_dcache_inv: nothing, s_gl1_inv: nothing, s_dcache_wb: nothing, s_dcache_discard: nothing, s_dcache_discard_x2: nothing,
  s_atc_probe: nothing, s_atc_probe_buffer: nothing,
  // The wave's index in its workgroup, as the interpreter numbers the waves.
  s_get_waveid_in_workgroup: (cx) => cx.writeScalar(cx.op('sdata').value, cx.b.emit('WaveInGroup')),
  s_memtime: clockRead('time'), s_memrealtime: clockRead('realtime'),
  // Every GLOBAL and FLAT table entry whose name without the prefix has a translator above.
  ...Object.fromEntries(ISA_TABLE.filter((d) => d.family === 'GLOBAL' || d.family === 'FLAT').flatMap((d) => {
    const fl = floatAtomicKind(d.mnemonic);
    const t = VMEM[d.mnemonic.replace(/^(global|flat)_/, '')] ?? (fl ? gatomic(fl[0], fl[1]) : undefined);
    return t ? [[d.mnemonic, t]] : [];
  })),
  ...SCRATCH_UNIT,
};
