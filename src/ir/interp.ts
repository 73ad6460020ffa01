// An IR interpreter that runs one wave at a time, every lane in lockstep (the IR's control flow
// is wave-uniform by construction: it checks that). It is total over the op table, and it is
// what tests compare the translation with: translated code run here must leave memory exactly
// as the RDNA interpreter (src/interp) does on the original program.
import type { GlobalMemory } from '../interp/memory.js';
import { address } from '../interp/memory.js';
import * as F from '../float/index.js';
import type { FloatEnv } from '../float/index.js';
import { f16OvflClamps as F16_OVFL_CLAMPS } from '../float/env.js';
import { type Block, type FloatMode, type Inst, IrError, type IrFunction } from './ir.js';
import { ATOMIC_RMW, type AtomicRmw, CLOCKS, LDS_ATOMIC_SRC2, LDS_ATOMIC_WIDE, LDS_RMW, ldsRmw, type Op } from './ops.js';
import { faultMessage, RuntimeFault } from './faults.js';

export interface WaveInputs {
  readonly mem: GlobalMemory;
  readonly kernargPtr: number;
  readonly dispatchPtr: number;
  readonly workgroupId: readonly [number, number, number];
  /** Per lane: the local invocation id, or undefined for a lane with no invocation. */
  readonly localIds: readonly (readonly [number, number, number] | undefined)[];
  /** Per lane: whether the invocation is a work-item of the dispatch. */
  readonly inGrid: readonly boolean[];
  /** The wave's index in its workgroup, and the workgroup's waves (default: its only wave, 0 of 1). */
  readonly waveInGroup?: number;
  readonly wavesInGroup?: number;
  readonly maxSteps: number;
  /** The workgroup's LDS (shared by its waves; its length is the dispatch's LDS size). */
  readonly lds?: DataView;
  /** The wave's scratch region (src/interp/scratch.ts). */
  readonly scratchBase?: number;
  /** A raw shader's dispatch scratch ring: its base and this dispatch's bytes of it (src/interp/scratch.ts). */
  readonly scratchRing?: { readonly base: number; readonly bytes: number };
  /**
   * The dispatch's clock, shared by its waves: the IR instructions they have run so far (run
   * counts them). ReadClock 'realtime' reads it; without it, the wave's own count.
   */
  readonly clock?: { steps: number };
}

type V = number | bigint;
type Lanes = V[];

const u = (v: V | undefined) => Number(v ?? 0) >>> 0;
const big = (v: V | undefined) => (typeof v === 'bigint' ? v : BigInt(u(v)));
/** f16 bits (the low half of a u32). */
const h = (v: V | undefined) => u(v) & 0xffff;
const M64 = (1n << 64n) - 1n;
const sx64 = (v: bigint) => (v & (1n << 63n) ? v - (1n << 64n) : v);

function envOf(m: FloatMode | undefined): FloatEnv {
  if (!m || m.round === 'dynamic' || m.denorm === 'dynamic' || m.ieee === 'dynamic' || m.dx10Clamp === 'dynamic' || m.f16Ovfl === 'dynamic') throw new IrError('dynamic float modes are not supported by the IR interpreter yet');
  return { round: m.round, flushIn: (m.denorm & 1) === 0, flushOut: (m.denorm & 2) === 0, ieee: m.ieee, dx10Clamp: m.dx10Clamp, f16Ovfl: F16_OVFL_CLAMPS(m.f16Ovfl === true), ...(m.tininess ? { tininess: m.tininess } : {}), ...(m.floatToInt ? { floatToInt: m.floatToInt } : {}) };
}

interface Ctx {
  readonly w: WaveInputs; readonly lanes: number; readonly i: Inst; readonly a: (k: number) => Lanes; readonly imm: (k: number) => number | bigint;
  /** The IR instructions this wave has run, this one included (ReadClock 'time'). */
  readonly steps: number;
  /** A helper's parameter k; runs helper k of the kernel's function. */
  readonly param: (k: number) => Lanes;
  readonly call: (k: number, args: Lanes[]) => Lanes;
}

type Handler = (c: Ctx) => Lanes | undefined;
/** ExchangeLds2x64's second results (the old values at address1), by its first result's lanes. */
const EXCHANGE_SECOND = new WeakMap<Lanes, Lanes>();

const map = (c: Ctx, f: (lane: number) => V): Lanes => Array.from({ length: c.lanes }, (_, l) => f(l));
const m1 = (f: (a: V) => V): Handler => (c) => { const a = c.a(0); return map(c, (l) => f(a[l] ?? 0)); };
const m2 = (f: (a: V, b: V) => V): Handler => (c) => { const a = c.a(0), b = c.a(1); return map(c, (l) => f(a[l] ?? 0, b[l] ?? 0)); };
const m3 = (f: (a: V, b: V, d: V) => V): Handler => (c) => { const a = c.a(0), b = c.a(1), d = c.a(2); return map(c, (l) => f(a[l] ?? 0, b[l] ?? 0, d[l] ?? 0)); };
const b01 = (x: boolean) => (x ? 1 : 0);
const ballot = (c: Ctx, hi: boolean): Lanes => {
  const a = c.a(0);
  let m = 0;
  for (let l = hi ? 32 : 0; l < Math.min(c.lanes, hi ? 64 : 32); l++) if (c.w.localIds[l] && u(a[l]) === 1) m |= 1 << (l - (hi ? 32 : 0));
  return map(c, () => m >>> 0);
};
function bfe(v: number, off: number, w: number, signed: boolean): number {
  if (w === 0) return 0;
  if (w >= 32 - off) return signed ? (v | 0) >> off >>> 0 : v >>> off;
  const x = (v >>> off) & ((1 << w) - 1);
  return signed ? ((x << (32 - w)) >> (32 - w)) >>> 0 : x;
}
const fl = (f: (e: FloatEnv, ...x: V[]) => V): Handler => (c) => {
  const e = envOf(c.i.float);
  const args = c.i.args.map((_, k) => c.a(k));
  return map(c, (l) => f(e, ...args.map((a) => a[l] ?? 0)));
};
/** The new memory value of read-modify-write atomic `kind` (ATOMIC_RMW) on `bits`-bit values. */
function rmw(kind: AtomicRmw, o: bigint, d: bigint, bits: number): bigint {
  const mask = (1n << BigInt(bits)) - 1n;
  const s = (v: bigint) => BigInt.asIntN(bits, v);
  switch (kind) {
    case 'add': return (o + d) & mask;
    case 'sub': return (o - d) & mask;
    case 'smin': return s(o) <= s(d) ? o : d;
    case 'umin': return o <= d ? o : d;
    case 'smax': return s(o) >= s(d) ? o : d;
    case 'umax': return o >= d ? o : d;
    case 'and': return o & d;
    case 'or': return o | d;
    case 'xor': return o ^ d;
    case 'swap': return d;
    case 'inc': return o >= d ? 0n : o + 1n;
    case 'dec': return o === 0n || o > d ? d : o - 1n;
    case 'csub': return o >= d ? o - d : 0n;
  }
}

/** A 32- or 64-bit value of memory at `addr` (little-endian dwords). */
const memRead = (c: Ctx, addr: number, bits: number): bigint => (bits === 32 ? BigInt(c.w.mem.read32(addr)) : BigInt(c.w.mem.read32(addr)) | (BigInt(c.w.mem.read32(addr + 4)) << 32n));
function memWrite(c: Ctx, addr: number, bits: number, v: bigint): void {
  c.w.mem.write32(addr, Number(v & 0xffffffffn));
  if (bits === 64) c.w.mem.write32(addr + 4, Number(v >> 32n));
}
/** An atomic applied lane by lane in ascending lane order (as the RDNA interpreter does): the old values. */
const atomic = (bits: 32 | 64, f: (c: Ctx, old: bigint, l: number) => bigint): Handler => (c) => {
  const p = c.a(1);
  return map(c, (l) => {
    if (!active(c, l)) return bits === 32 ? 0 : 0n;
    const addr = Number(big(p[l]));
    const old = memRead(c, addr, bits);
    memWrite(c, addr, bits, f(c, old, l));
    return bits === 32 ? Number(old) : old;
  });
};
const atomicRmw = (bits: 32 | 64): Handler => (c) => {
  const kind = ATOMIC_RMW[Number(c.imm(0))];
  if (!kind || (kind === 'csub' && bits === 64)) throw new IrError(`AtomicRmw${bits}: no atomic ${String(c.imm(0))}`);
  const v = c.a(2);
  return atomic(bits, (_c, o, l) => rmw(kind, o, big(v[l]), bits))(c);
};
const atomicCmpSwap = (bits: 32 | 64): Handler => (c) => {
  const v = c.a(2), cmpv = c.a(3);
  return atomic(bits, (_c, o, l) => (o === big(cmpv[l]) ? big(v[l]) : o))(c);
};
const active = (c: Ctx, l: number) => c.w.localIds[l] !== undefined && u(c.a(0)[l]) === 1;
/** Helper `k` (u64 old, data, compare → u64 new) on one lane's values (the other lanes' inputs 0). */
const callOne = (c: Ctx, k: number, l: number, old: bigint, d: bigint, cmp: bigint): bigint => {
  const one = (v: bigint): Lanes => map(c, (j) => (j === l ? v : 0n));
  return big(c.call(k, [one(old), one(d), one(cmp)])[l]);
};
/** `n` bytes of LDS at `a` (little-endian, any alignment), 0 when any is outside it. */
const ldsRead = (lds: DataView | undefined, a: number, n: number): number => {
  if (!lds || a + n > lds.byteLength) return 0;
  return n === 4 ? lds.getUint32(a, true) : n === 2 ? lds.getUint16(a, true) : lds.getUint8(a);
};
/** Stores the low `n` bytes of `v` at `a`; dropped when any is outside the LDS. */
const ldsWrite = (lds: DataView | undefined, a: number, n: number, v: number): void => {
  if (!lds || a + n > lds.byteLength) return;
  if (n === 4) lds.setUint32(a, v >>> 0, true); else if (n === 2) lds.setUint16(a, v & 0xffff, true); else lds.setUint8(a, v & 0xff);
};
/** The 4 or 8 bytes of LDS at `a` as dwords, each 0 outside it. */
const ldsValue = (lds: DataView | undefined, a: number, wide: boolean): bigint =>
  BigInt(ldsRead(lds, a, 4)) | (wide ? BigInt(ldsRead(lds, a + 4, 4)) << 32n : 0n);
/**
 * AtomicLds / AtomicLdsCall (args active, address, data0, data1; imm 1 the LDS_ATOMIC_* bits): lane
 * by lane in ascending order, new = f(old, data0, data1) at the address, each dword outside the LDS
 * read as 0 and not written; with LDS_ATOMIC_SRC2 data0 is the value at data0's low dword, read in
 * the lane's turn. The old values (0 in inactive lanes).
 */
const ldsAtomic = (c: Ctx, f: (old: bigint, d0: bigint, d1: bigint, l: number) => bigint): Lanes => {
  const flags = Number(c.imm(1));
  const wide = (flags & LDS_ATOMIC_WIDE) !== 0, src2 = (flags & LDS_ATOMIC_SRC2) !== 0;
  const p = c.a(1), d0 = c.a(2), d1 = c.a(3), mask = wide ? M64 : 0xffffffffn;
  const out: Lanes = map(c, () => 0n);
  for (let l = 0; l < c.lanes; l++) {
    if (!active(c, l)) continue;
    const a = u(p[l]);
    const old = ldsValue(c.w.lds, a, wide);
    const data = src2 ? ldsValue(c.w.lds, Number(big(d0[l]) & 0xffffffffn), wide) : big(d0[l]) & mask;
    const nv = f(old, data, big(d1[l]) & mask, l);
    ldsWrite(c.w.lds, a, 4, Number(nv & 0xffffffffn));
    if (wide) ldsWrite(c.w.lds, a + 4, 4, Number((nv >> 32n) & 0xffffffffn));
    out[l] = old;
  }
  return out;
};

const HANDLERS: Record<Op, Handler> = {
  ConstU1: (c) => map(c, () => Number(c.imm(0))), ConstU32: (c) => map(c, () => u(c.imm(0))), ConstU64: (c) => map(c, () => big(c.imm(0))),
  ConstF16: (c) => map(c, () => u(c.imm(0))), ConstF32: (c) => map(c, () => u(c.imm(0))), ConstF64: (c) => map(c, () => big(c.imm(0))),
  GetSgpr: () => { throw new IrError('register op after SSA'); }, SetSgpr: () => { throw new IrError('register op after SSA'); },
  GetVgpr: () => { throw new IrError('register op after SSA'); }, SetVgpr: () => { throw new IrError('register op after SSA'); },
  GetScc: () => { throw new IrError('register op after SSA'); }, SetScc: () => { throw new IrError('register op after SSA'); },
  GetMode: () => { throw new IrError('register op after SSA'); }, SetMode: () => undefined,
  LaneId: (c) => map(c, (l) => l),
  LaneBit: m3((lo, hi, lane) => (u(lane) < 32 ? (u(lo) >>> u(lane)) & 1 : (u(hi) >>> (u(lane) - 32)) & 1)),
  BallotLo: (c) => ballot(c, false), BallotHi: (c) => ballot(c, true),
  ReadLane: (c) => { const v = c.a(0), s = c.a(1); return map(c, (l) => v[u(s[l]) % c.lanes] ?? 0); },
  WorkgroupId: (c) => map(c, () => c.w.workgroupId[Number(c.imm(0))] ?? 0),
  LocalId: (c) => map(c, (l) => c.w.localIds[l]?.[Number(c.imm(0))] ?? 0),
  CodeAddress: m1((a) => big(a)),
  WaveInGroup: (c) => map(c, () => c.w.waveInGroup ?? 0),
  WavesInGroup: (c) => map(c, () => c.w.wavesInGroup ?? 1),
  InGrid: (c) => map(c, (l) => b01(c.w.inGrid[l] ?? false)),
  IAdd32: m2((a, b) => (u(a) + u(b)) >>> 0), ISub32: m2((a, b) => (u(a) - u(b)) >>> 0), IMul32: m2((a, b) => Math.imul(u(a), u(b)) >>> 0),
  UMulHi32: m2((a, b) => Number((big(a) * big(b)) >> 32n)), SMulHi32: m2((a, b) => Number(((BigInt(u(a) | 0) * BigInt(u(b) | 0)) >> 32n) & 0xffffffffn)),
  And32: m2((a, b) => (u(a) & u(b)) >>> 0), Or32: m2((a, b) => (u(a) | u(b)) >>> 0), Xor32: m2((a, b) => (u(a) ^ u(b)) >>> 0), Not32: m1((a) => ~u(a) >>> 0),
  Shl32: m2((a, b) => (u(a) << (u(b) & 31)) >>> 0), LShr32: m2((a, b) => u(a) >>> (u(b) & 31)), AShr32: m2((a, b) => ((u(a) | 0) >> (u(b) & 31)) >>> 0),
  UMin32: m2((a, b) => Math.min(u(a), u(b))), UMax32: m2((a, b) => Math.max(u(a), u(b))),
  SMin32: m2((a, b) => Math.min(u(a) | 0, u(b) | 0) >>> 0), SMax32: m2((a, b) => Math.max(u(a) | 0, u(b) | 0) >>> 0),
  UAddCarry32: m3((a, b, k) => b01(u(a) + u(b) + u(k) > 0xffffffff)), USubBorrow32: m3((a, b, k) => b01(u(b) + u(k) > u(a))),
  IAdd3_32: m3((a, b, d) => (u(a) + u(b) + u(d)) >>> 0),
  BitCount32: m1((a) => { let n = 0; for (let x = u(a); x; x &= x - 1) n++; return n; }),
  Clz32: m1((a) => Math.clz32(u(a))),
  BitReverse32: m1((a) => { let r = 0; for (let k = 0; k < 32; k++) if ((u(a) >>> k) & 1) r |= 1 << (31 - k); return r >>> 0; }),
  FindLsb32: m1((a) => (u(a) === 0 ? 0xffffffff : 31 - Math.clz32(u(a) & -u(a)))),
  UBfe32: m3((v, o, w) => bfe(u(v), u(o) & 31, u(w), false)), SBfe32: m3((v, o, w) => bfe(u(v), u(o) & 31, u(w), true)),
  IEq32: m2((a, b) => b01(u(a) === u(b))), INe32: m2((a, b) => b01(u(a) !== u(b))), ULt32: m2((a, b) => b01(u(a) < u(b))), ULe32: m2((a, b) => b01(u(a) <= u(b))),
  UGt32: m2((a, b) => b01(u(a) > u(b))), UGe32: m2((a, b) => b01(u(a) >= u(b))), SLt32: m2((a, b) => b01((u(a) | 0) < (u(b) | 0))), SLe32: m2((a, b) => b01((u(a) | 0) <= (u(b) | 0))),
  SGt32: m2((a, b) => b01((u(a) | 0) > (u(b) | 0))), SGe32: m2((a, b) => b01((u(a) | 0) >= (u(b) | 0))),
  Select32: m3((c0, a, b) => (u(c0) ? u(a) : u(b))), SelectU1: m3((c0, a, b) => (u(c0) ? u(a) : u(b))),
  U1ToU32: m1((a) => u(a)), U32ToU1: m1((a) => b01(u(a) !== 0)),
  NotU1: m1((a) => 1 - u(a)), AndU1: m2((a, b) => u(a) & u(b)), OrU1: m2((a, b) => u(a) | u(b)), XorU1: m2((a, b) => u(a) ^ u(b)),
  Pack64: m2((lo, hi) => big(lo) | (big(hi) << 32n)), Lo32: m1((a) => Number(big(a) & 0xffffffffn)), Hi32: m1((a) => Number(big(a) >> 32n)),
  IAdd64: m2((a, b) => (big(a) + big(b)) & M64), ISub64: m2((a, b) => (big(a) - big(b)) & M64), IMul64: m2((a, b) => (big(a) * big(b)) & M64),
  Shl64: m2((a, n) => (big(a) << BigInt(u(n) & 63)) & M64), LShr64: m2((a, n) => big(a) >> BigInt(u(n) & 63)), AShr64: m2((a, n) => (sx64(big(a)) >> BigInt(u(n) & 63)) & M64),
  IEq64: m2((a, b) => b01(big(a) === big(b))), INe64: m2((a, b) => b01(big(a) !== big(b))), ULt64: m2((a, b) => b01(big(a) < big(b))), SLt64: m2((a, b) => b01(sx64(big(a)) < sx64(big(b)))),
  UMulWide32: m2((a, b) => big(a) * big(b)),
  UMod32: m2((a, b) => (u(b) === 0 ? u(a) : u(a) % u(b))),
  UDiv64: m2((a, b) => (big(b) === 0n ? M64 : big(a) / big(b))), UMod64: m2((a, b) => (big(b) === 0n ? big(a) : big(a) % big(b))),
  BitcastU32F32: m1((a) => a), BitcastF32U32: m1((a) => a), BitcastU64F64: m1((a) => a), BitcastF64U64: m1((a) => a), BitcastU32F16: m1((a) => u(a) & 0xffff), BitcastF16U32: m1((a) => a),
  FAdd32: fl((e, a, b) => F.addF32(u(a), u(b), e)), FSub32: fl((e, a, b) => F.subF32(u(a), u(b), e)), FMul32: fl((e, a, b) => F.mulF32(u(a), u(b), e)),
  FFma32: fl((e, a, b, d) => F.fmaF32(u(a), u(b), u(d), e)), FRcp32: fl((e, a) => F.rcpF32(u(a), e)),
  FFloor32: fl((e, a) => F.floorF32(u(a), e)), FCeil32: fl((e, a) => F.ceilF32(u(a), e)), FTrunc32: fl((e, a) => F.truncF32(u(a), e)), FRndne32: fl((e, a) => F.rndneF32(u(a), e)), FMin32: fl((e, a, b) => F.minF32(u(a), u(b), e)), FMax32: fl((e, a, b) => F.maxF32(u(a), u(b), e)),
  FSqrt32: fl((e, a) => F.sqrtF32(u(a), e)), FFrexpMant32: fl((e, a) => F.frexpMantF32(u(a), e)), FFrexpExp32: fl((e, a) => F.frexpExpF32(u(a), e) >>> 0), FFract32: fl((e, a) => F.fractF32(u(a), e)), FRsq32: fl((e, a) => F.rsqF32(u(a), e)), FLdexp32: fl((e, a, n) => F.ldexpF32(u(a), u(n) | 0, e)),
  FOutMod32: (c) => { const e = envOf(c.i.float); const omod = Number(c.imm(0)) as F.Omod, clamp = Number(c.imm(1)) !== 0; const a = c.a(0); return map(c, (l) => F.outputModifiersF32(u(a[l]), omod, clamp, e)); },
  FDivScale32: fl((e, a, b, d) => F.divScaleF32(u(a), u(b), u(d), e).value), FDivScaleFlag32: fl((e, a, b, d) => b01(F.divScaleF32(u(a), u(b), u(d), e).vcc)),
  FDivFmas32: fl((e, a, b, d, v) => F.divFmasF32(u(a), u(b), u(d), u(v) === 1, e)), FDivFixup32: fl((e, a, b, d) => F.divFixupF32(u(a), u(b), u(d), e)),
  FAdd64: fl((e, a, b) => F.addF64(big(a), big(b), e)), FSub64: fl((e, a, b) => F.subF64(big(a), big(b), e)), FMul64: fl((e, a, b) => F.mulF64(big(a), big(b), e)), FFma64: fl((e, a, b, d) => F.fmaF64(big(a), big(b), big(d), e)),
  FAdd16: fl((e, a, b) => F.addF16(u(a), u(b), e)), FMul16: fl((e, a, b) => F.mulF16(u(a), u(b), e)), FFma16: fl((e, a, b, d) => F.fmaF16(u(a), u(b), u(d), e)),
  FCmp32: (c) => { const e = envOf(c.i.float); const p = Number(c.imm(0)); const a = c.a(0), b = c.a(1); return map(c, (l) => b01(F.cmpF32(p, u(a[l]), u(b[l]), e))); },
  FCmp64: (c) => { const e = envOf(c.i.float); const p = Number(c.imm(0)); const a = c.a(0), b = c.a(1); return map(c, (l) => b01(F.cmpF64(p, big(a[l]), big(b[l]), e))); },
  FCmp16: (c) => { const e = envOf(c.i.float); const p = Number(c.imm(0)); const a = c.a(0), b = c.a(1); return map(c, (l) => b01(F.cmpF16(p, u(a[l]), u(b[l]), e))); },
  ConvertF32U32: fl((e, a) => F.cvtF32U32(u(a), e)), ConvertF32S32: fl((e, a) => F.cvtF32I32(u(a), e)),
  ConvertU32F32: fl((e, a) => F.cvtU32F32(u(a), e)), ConvertS32F32: fl((e, a) => F.cvtI32F32(u(a), e) >>> 0),
  ConvertF64F32: fl((e, a) => F.cvtF64F32(u(a), e)), ConvertF32F64: fl((e, a) => F.cvtF32F64(big(a), e)),
  ConvertF16F32: fl((e, a) => F.cvtF16F32(u(a), e)), ConvertF32F16: fl((e, a) => F.cvtF32F16(u(a), e)),
  FMin64: fl((e, a, b) => F.minF64(big(a), big(b), e)), FMax64: fl((e, a, b) => F.maxF64(big(a), big(b), e)),
  FFloor64: fl((e, a) => F.floorF64(big(a), e)), FCeil64: fl((e, a) => F.ceilF64(big(a), e)), FTrunc64: fl((e, a) => F.truncF64(big(a), e)), FRndne64: fl((e, a) => F.rndneF64(big(a), e)),
  FRcp64: fl((e, a) => F.rcpF64(big(a), e)), FSqrt64: fl((e, a) => F.sqrtF64(big(a), e)), FRsq64: fl((e, a) => F.rsqF64(big(a), e)),
  FFrexpMant64: fl((e, a) => F.frexpMantF64(big(a), e)), FFrexpExp64: fl((e, a) => F.frexpExpF64(big(a), e) >>> 0), FFract64: fl((e, a) => F.fractF64(big(a), e)),
  FLdexp64: fl((e, a, n) => F.ldexpF64(big(a), u(n) | 0, e)),
  FOutMod64: (c) => { const e = envOf(c.i.float); const omod = Number(c.imm(0)) as F.Omod, clamp = Number(c.imm(1)) !== 0; const a = c.a(0); return map(c, (l) => F.outputModifiersF64(big(a[l]), omod, clamp, e)); },
  FDivScale64: fl((e, a, b, d) => F.divScaleF64(big(a), big(b), big(d), e).value), FDivScaleFlag64: fl((e, a, b, d) => b01(F.divScaleF64(big(a), big(b), big(d), e).vcc)),
  FDivFmas64: fl((e, a, b, d, v) => F.divFmasF64(big(a), big(b), big(d), u(v) === 1, e)), FDivFixup64: fl((e, a, b, d) => F.divFixupF64(big(a), big(b), big(d), e)),
  ConvertF64U32: fl((e, a) => F.cvtF64U32(u(a), e)), ConvertF64S32: fl((e, a) => F.cvtF64I32(u(a), e)),
  ConvertU32F64: fl((e, a) => F.cvtU32F64(big(a), e)), ConvertS32F64: fl((e, a) => F.cvtI32F64(big(a), e) >>> 0),
  FSub16: fl((e, a, b) => F.subF16(h(a), h(b), e)), FMin16: fl((e, a, b) => F.minF16(h(a), h(b), e)), FMax16: fl((e, a, b) => F.maxF16(h(a), h(b), e)),
  FFloor16: fl((e, a) => F.floorF16(h(a), e)), FCeil16: fl((e, a) => F.ceilF16(h(a), e)), FTrunc16: fl((e, a) => F.truncF16(h(a), e)), FRndne16: fl((e, a) => F.rndneF16(h(a), e)),
  FRcp16: fl((e, a) => F.rcpF16(h(a), e)), FSqrt16: fl((e, a) => F.sqrtF16(h(a), e)), FRsq16: fl((e, a) => F.rsqF16(h(a), e)),
  FFrexpMant16: fl((e, a) => F.frexpMantF16(h(a), e)), FFrexpExp16: fl((e, a) => F.frexpExpF16(h(a), e) >>> 0), FFract16: fl((e, a) => F.fractF16(h(a), e)),
  FLdexp16: fl((e, a, n) => F.ldexpF16(h(a), u(n) | 0, e)),
  FOutMod16: (c) => { const e = envOf(c.i.float); const omod = Number(c.imm(0)) as F.Omod, clamp = Number(c.imm(1)) !== 0; const a = c.a(0); return map(c, (l) => F.outputModifiersF16(h(a[l]), omod, clamp, e)); },
  FDivFixup16: fl((e, a, b, d) => F.divFixupF16(h(a), h(b), h(d), e)),
  ConvertF16U32: fl((e, a) => Number(F.fromIntBits(F.F16, u(a), e))), ConvertF16S32: fl((e, a) => Number(F.fromIntBits(F.F16, u(a) | 0, e))),
  ConvertU32F16: fl((e, a) => F.toIntBits(F.F16, BigInt(h(a)), false, 'trunc', e) >>> 0), ConvertS32F16: fl((e, a) => F.toIntBits(F.F16, BigInt(h(a)), true, 'trunc', e) >>> 0),
  FFmaMixF16: fl((e, a, b, d) => F.fmaF32ToF16(u(a), u(b), u(d), e)),
  ConvertRpiS32F32: fl((e, a) => F.cvtRpiI32F32(u(a), e) >>> 0), ConvertU8F32: fl((e, a) => F.toU8Bits(F.F32, BigInt(u(a)), e)),
  FNorm16F32: (c) => { const e = envOf(c.i.float); const s = Number(c.imm(0)) !== 0; const a = c.a(0); return map(c, (l) => F.toNorm16Bits(F.F32, BigInt(u(a[l])), s, e)); },
  FExp32: fl((e, a) => F.expF32(u(a), e)), FLog32: fl((e, a) => F.logF32(u(a), e)), FSin32: fl((e, a) => F.sinF32(u(a), e)), FCos32: fl((e, a) => F.cosF32(u(a), e)),
  FExp16: fl((e, a) => F.expF16(h(a), e)), FLog16: fl((e, a) => F.logF16(h(a), e)), FSin16: fl((e, a) => F.sinF16(h(a), e)), FCos16: fl((e, a) => F.cosF16(h(a), e)),
  FNorm16F16: (c) => { const e = envOf(c.i.float); const s = Number(c.imm(0)) !== 0; const a = c.a(0); return map(c, (l) => F.toNorm16Bits(F.F16, BigInt(h(a[l])), s, e)); },
  LoadGlobal32: (c) => { const p = c.a(1); return map(c, (l) => (active(c, l) ? c.w.mem.read32(Number(big(p[l]))) : 0)); },
  LoadGlobalU8: (c) => { const p = c.a(1); return map(c, (l) => (active(c, l) ? c.w.mem.read(Number(big(p[l])), 1) : 0)); },
  LoadGlobalU16: (c) => { const p = c.a(1); return map(c, (l) => (active(c, l) ? c.w.mem.read(Number(big(p[l])), 2) : 0)); },
  StoreGlobal32: (c) => { const p = c.a(1), v = c.a(2); for (let l = 0; l < c.lanes; l++) if (active(c, l)) c.w.mem.write32(Number(big(p[l])), u(v[l])); return undefined; },
  StoreGlobal8: (c) => { const p = c.a(1), v = c.a(2); for (let l = 0; l < c.lanes; l++) if (active(c, l)) c.w.mem.write(Number(big(p[l])), 1, u(v[l])); return undefined; },
  StoreGlobal16: (c) => { const p = c.a(1), v = c.a(2); for (let l = 0; l < c.lanes; l++) if (active(c, l)) c.w.mem.write(Number(big(p[l])), 2, u(v[l])); return undefined; },
  AtomicRmw32: atomicRmw(32), AtomicRmw64: atomicRmw(64),
  AtomicCmpSwap32: atomicCmpSwap(32), AtomicCmpSwap64: atomicCmpSwap(64),
  AtomicRmwCall: (c) => {
    const k = Number(c.imm(0)), wide = Number(c.imm(1)) === 1;
    const d = c.a(2), cmp = c.a(3), mask = wide ? M64 : 0xffffffffn;
    const r = atomic(wide ? 64 : 32, (_c, o, l) => callOne(c, k, l, o, big(d[l]) & mask, big(cmp[l]) & mask) & mask)(c);
    return (r ?? []).map((v) => big(v));
  },
  LoadUniform32: (c) => {
    const p = c.a(0);
    const first = c.w.localIds.findIndex((x) => x !== undefined);
    const addr = big(p[first] ?? 0);
    const v = c.w.mem.read32(address(Number(addr & 0xffffffffn), Number(addr >> 32n)));
    return map(c, () => v);
  },
  ScratchBase: (c) => map(c, () => BigInt(c.w.scratchBase ?? 0)),
  ScratchRing: (c) => map(c, () => BigInt(c.w.scratchRing?.base ?? 0)),
  ScratchRingBytes: (c) => map(c, () => BigInt(c.w.scratchRing?.bytes ?? 0)),
  // The clocks (ops.ts ReadClock): deterministic instruction counts, not hardware's clocks. 'time'
  // (s_memtime) is the IR instructions the wave has run so far, 'realtime' (s_memrealtime) those the
  // dispatch's waves have run so far (WaveInputs.clock). Each grows by at least one from a read to
  // the next read of the same wave, so a wave never sees either decrease, and it is one value for
  // every lane (an SGPR pair), as the RDNA interpreter's (src/interp/units/smem.ts) and the
  // SPIR-V's (emit-ops.ts) are. The numbers differ between the engines.
  ReadClock: (c) => {
    const clock = CLOCKS[Number(c.imm(0))];
    if (clock === undefined) throw new IrError(`ReadClock: no clock ${String(c.imm(0))}`);
    const v = BigInt(clock === 'time' ? c.steps : c.w.clock?.steps ?? c.steps);
    return map(c, () => v);
  },
  KernargPtr: (c) => map(c, () => BigInt(c.w.kernargPtr)), DispatchPtr: (c) => map(c, () => BigInt(c.w.dispatchPtr)),
  // The wave stops here and resumes when the dispatcher has run the workgroup's other waves (run's generator).
  Barrier: () => undefined,
  LoadLds: (c) => {
    const p = c.a(1), n = Number(c.imm(0)), off = Number(c.imm(1));
    return map(c, (l) => (active(c, l) ? ldsRead(c.w.lds, u(p[l]) + off, n) : 0));
  },
  StoreLds: (c) => {
    const p0 = c.a(1), p1 = c.a(2), d = [c.a(3), c.a(4), c.a(5), c.a(6)];
    const n = Number(c.imm(0)), two = Number(c.imm(1)) === 2;
    for (let l = 0; l < c.lanes; l++) {
      if (!active(c, l)) continue;
      const dw = (k: number) => u((d[k] as Lanes)[l]);
      if (n < 4) { ldsWrite(c.w.lds, u(p0[l]), n, dw(0)); continue; }
      const per = n / 4;
      for (let k = 0; k < per; k++) ldsWrite(c.w.lds, u(p0[l]) + 4 * k, 4, dw(k));
      if (two) for (let k = 0; k < per; k++) ldsWrite(c.w.lds, u(p1[l]) + 4 * k, 4, dw(per + k));
    }
    return undefined;
  },
  AtomicLds: (c) => {
    const kind = LDS_RMW[Number(c.imm(0))];
    if (!kind) throw new IrError(`AtomicLds: no operation ${String(c.imm(0))}`);
    const bits = (Number(c.imm(1)) & LDS_ATOMIC_WIDE) !== 0 ? 64 : 32;
    return ldsAtomic(c, (old, d0, d1) => ldsRmw(kind, old, d0, d1, bits));
  },
  ExchangeLds2: (c) => {
    const p0 = c.a(1), p1 = c.a(2), d0 = c.a(3), d1 = c.a(4);
    const out: Lanes = map(c, () => 0n);
    for (let l = 0; l < c.lanes; l++) {
      if (!active(c, l)) continue;
      const o0 = ldsRead(c.w.lds, u(p0[l]), 4);
      ldsWrite(c.w.lds, u(p0[l]), 4, u(d0[l]));
      const o1 = ldsRead(c.w.lds, u(p1[l]), 4);
      ldsWrite(c.w.lds, u(p1[l]), 4, u(d1[l]));
      out[l] = BigInt(o0) | (BigInt(o1) << 32n);
    }
    return out;
  },
  ExchangeLds2x64: (c) => {
    const p0 = c.a(1), p1 = c.a(2), d0 = c.a(3), d1 = c.a(4);
    const out: Lanes = map(c, () => 0n), second: Lanes = map(c, () => 0n);
    const get = (a: number) => BigInt(ldsRead(c.w.lds, a, 4)) | (BigInt(ldsRead(c.w.lds, a + 4, 4)) << 32n);
    const put = (a: number, v: bigint) => { ldsWrite(c.w.lds, a, 4, Number(v & 0xffffffffn)); ldsWrite(c.w.lds, a + 4, 4, Number((v >> 32n) & 0xffffffffn)); };
    for (let l = 0; l < c.lanes; l++) {
      if (!active(c, l)) continue;
      out[l] = get(u(p0[l]));
      put(u(p0[l]), big(d0[l]));
      second[l] = get(u(p1[l]));
      put(u(p1[l]), big(d1[l]));
    }
    EXCHANGE_SECOND.set(out, second);
    return out;
  },
  ExchangeLds2x64Second: (c) => {
    const s = EXCHANGE_SECOND.get(c.a(0));
    if (!s) throw new IrError('ExchangeLds2x64Second: its argument is not the result of an ExchangeLds2x64');
    return s;
  },
  AtomicLdsCall: (c) => {
    const k = Number(c.imm(0)), mask = (Number(c.imm(1)) & LDS_ATOMIC_WIDE) !== 0 ? M64 : 0xffffffffn;
    return ldsAtomic(c, (old, d0, d1, l) => callOne(c, k, l, old, d0, d1) & mask);
  },
  PermuteLanes: (c) => {
    const t = c.a(1), v = c.a(2);
    const out: Lanes = map(c, () => 0);
    for (let l = 0; l < c.lanes; l++) if (active(c, l)) out[u(t[l]) % c.lanes] = u(v[l]);
    return out;
  },
  Fault: (c) => {
    for (let l = 0; l < c.lanes; l++) if (active(c, l)) throw new RuntimeFault(c.i.pc ?? 0, '', faultMessage(Number(c.imm(0))));
    return undefined;
  },
  Branch: () => undefined, BranchCond: () => undefined, EndProgram: () => undefined,
  Unreachable: () => { throw new IrError('reached Unreachable'); },
  Phi: () => { throw new IrError('phi evaluated out of place'); },
  Undef: (c) => map(c, () => (c.i.type === 'u64' || c.i.type === 'f64' ? 0n : 0)),
  Param: (c) => c.param(Number(c.imm(0))),
  Call: (c) => c.call(Number(c.imm(0)), c.i.args.map((_, k) => c.a(k))),
  // Every lane's fallback is computed (it is pure); the lanes whose fast value holds (its high dword nonzero) keep its low dword.
  CallGuarded: (c) => {
    const args = c.i.args.map((_, k) => c.a(k));
    const fast = c.call(Number(c.imm(0)), args), slow = c.call(Number(c.imm(1)), args);
    return map(c, (l) => { const f = big(fast[l]); return f >> 32n !== 0n ? Number(f & 0xffffffffn) : slow[l] ?? 0; });
  },
  Return: () => undefined,
};

/** Runs one wave of `fn` to its end (a barrier does not stop it); memory is changed in place. */
export function runIrWave(fn: IrFunction, w: WaveInputs): { steps: number } {
  const wave = startIrWave(fn, w);
  while (!wave.resume());
  return { steps: wave.steps() };
}

/** A wave that stops at each Barrier: `resume` runs it to the next barrier or its end (true when it ended). */
export interface IrWave { resume(): boolean; steps(): number }

export function startIrWave(fn: IrFunction, w: WaveInputs): IrWave {
  const budget = { steps: 0 };
  const g = run(fn, fn, w, [], budget);
  return { resume: () => g.next().done === true, steps: () => budget.steps };
}

/** Runs a helper (which has no barriers) to its end. */
function drain<T>(g: Generator<void, T>): T {
  const r = g.next();
  if (!r.done) throw new IrError('a barrier in a helper');
  return r.value;
}

/** Runs `fn` (the kernel's function or one of `root`'s helpers) to its end; a helper's returned lanes. */
function* run(fn: IrFunction, root: IrFunction, w: WaveInputs, params: readonly Lanes[], budget: { steps: number }): Generator<void, Lanes | undefined> {
  const lanes = root.waveSize;
  const vals = new Map<Inst, Lanes>();
  let ret: Lanes | undefined;
  const call = (k: number, args: Lanes[]): Lanes => {
    const h = root.helpers[k];
    if (!h || fn !== root) throw new IrError(`call of helper ${k}${h ? ' from a helper' : ', which does not exist'}`);
    const r = drain(run(h, root, w, args, budget));
    if (!r) throw new IrError(`helper ${h.name} returned no value`);
    return r;
  };
  const param = (k: number): Lanes => { const p = params[k]; if (!p) throw new IrError(`${fn.name} has no parameter ${k}`); return p; };
  const existing = w.localIds.map((x, l) => (x ? l : -1)).filter((l) => l >= 0);
  let block: Block | undefined = fn.blocks[0];
  let from: Block | undefined;
  while (block) {
    // Phis read their predecessor's values all at once.
    const predIndex = from ? block.preds.indexOf(from) : -1;
    const phiVals: [Inst, Lanes][] = [];
    for (const i of block.insts) {
      if (i.op !== 'Phi') break;
      const src = i.args[predIndex];
      if (!src) throw new IrError(`phi in b${block.id} has no argument for b${from?.id}`);
      phiVals.push([i, vals.get(src) ?? []]);
    }
    for (const [i, v] of phiVals) vals.set(i, v);
    let next: Block | undefined;
    for (const i of block.insts) {
      if (i.op === 'Phi') continue;
      if (++budget.steps > w.maxSteps) throw new IrError('the step budget ran out');
      if (w.clock) w.clock.steps++;
      const c: Ctx = {
        w, lanes, i, param, call, steps: budget.steps,
        a: (k) => { const a = i.args[k]; const v = a ? vals.get(a) : undefined; if (!v) throw new IrError(`${i.op}: argument ${k} has no value`); return v; },
        imm: (k) => i.imms[k] ?? 0,
      };
      const r = HANDLERS[i.op](c);
      if (r) vals.set(i, r);
      if (i.op === 'Branch') next = fn.blocks[Number(i.imms[0])];
      else if (i.op === 'Barrier') yield;
      else if (i.op === 'BranchCond') {
        const cond = c.a(0);
        const first = u(cond[existing[0] ?? 0]);
        for (const l of existing) if (u(cond[l]) !== first) throw new IrError(`b${block.id}: a branch condition differs between lanes (the translation is wrong)`);
        next = fn.blocks[Number(i.imms[first ? 0 : 1])];
      } else if (i.op === 'EndProgram') next = undefined;
      else if (i.op === 'Return') { ret = c.a(0); next = undefined; }
    }
    from = block;
    block = next;
  }
  return ret;
}
