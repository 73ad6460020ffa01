// FLAT, GLOBAL and SCRATCH memory: loads, stores and atomics, read from the table's facts (flags
// 'load' / 'store' / 'atomic' / 'd16' / 'addtid', the data type and dwords) rather than per-opcode
// code. Addresses: GLOBAL with saddr = SGPR pair + 32-bit VGPR offset + imm offset
// (global_*_addtid: + lane id * 4 instead of a VGPR); with saddr off (and FLAT) = 64-bit VGPR
// address + imm offset. A FLAT address in the shared aperture goes to LDS (out of range: reads
// 0, writes dropped, as DS); one in the private aperture, and every SCRATCH access (private
// offset = vaddr or saddr, + the signed offset), goes to the wave's scratch at FLAT_SCRATCH in
// the swizzled layout of src/interp/scratch.ts. RDNA2 ISA reference, "FLAT, Scratch and Global
// Instructions". The float atomics (fcmpswap: data then compare, fmin, fmax, and their _x2 forms)
// compute through the float model's floatAtomic (src/float/atomic.ts). Not implemented: the
// LDS=1 forms (data to LDS at M0).
import type { Instruction } from '../../decode/types.js';
import { NO_FLAGS, type DataType, type InstrDef } from '../../isa/types.js';
import { type ExecContext, type Handler, operandOf } from '../context.js';
import { InterpError, UnimplementedError } from '../errors.js';
import { address } from '../memory.js';
import { PRIVATE_APERTURE_HI, readLane, readScalar, SHARED_APERTURE_HI, writeLane } from '../operands.js';
import { checkScratch, privateOffset, scratchAddress } from '../scratch.js';
import { ISA_TABLE } from '../../isa/table.js';
import { ldsLoad, ldsStore } from './ds.js';
import { floatAtomic, floatAtomicOf } from '../../float/atomic.js';

const HW_REG_FLAT_SCR_LO = 20;
const HW_REG_FLAT_SCR_HI = 21;

const M32 = 0xffffffffn;

interface Access { readonly kind: 'load' | 'store' | 'atomic'; readonly type: DataType; readonly dwords: number; readonly d16: boolean; readonly hi: boolean; readonly bytes: 1 | 2 | 4 }

function accessOf(def: InstrDef): Access {
  const f = def.flags ?? NO_FLAGS;
  const kind = f.includes('load') ? 'load' : f.includes('store') ? 'store' : 'atomic';
  const data = def.operands.find((o) => o.name === (kind === 'store' || kind === 'atomic' ? 'vdata' : 'vdst'));
  const type = data?.type ?? 'b32';
  const bytes: 1 | 2 | 4 = type === 'u8' || type === 'i8' ? 1 : type === 'u16' || type === 'i16' || type === 'b16' ? 2 : 4;
  return { kind, type, dwords: data?.dwords ?? 1, d16: f.includes('d16'), hi: def.mnemonic.endsWith('_hi'), bytes };
}

/** Where a lane's access goes: global memory, LDS (FLAT shared aperture) or the wave's swizzled
 * scratch (SCRATCH, FLAT private aperture): `addr` is then the private offset. */
type Loc =
  | { readonly kind: 'global'; readonly addr: number }
  | { readonly kind: 'lds'; readonly addr: number }
  | { readonly kind: 'private'; readonly addr: number; readonly base: number; readonly lane: number };

/** The wave's scratch base: FLAT_SCRATCH (HW_REG_FLAT_SCR_LO/HI), which kernels set with s_setreg. */
export function flatScratchBase(cx: ExecContext): number {
  return (cx.hwregs.get(HW_REG_FLAT_SCR_HI) ?? 0) * 2 ** 32 + (cx.hwregs.get(HW_REG_FLAT_SCR_LO) ?? 0);
}

function laneAddress(inst: Instruction, cx: ExecContext, lane: number): Loc {
  const off = inst.mods.offset ?? 0;
  const vaddr = operandOf(inst, 'vaddr');
  const saddr = operandOf(inst, 'saddr');
  const sNone = !saddr || (saddr.value.kind === 'special' && (saddr.value.reg === 'null' || saddr.value.reg === 'exec_hi'));
  if (inst.def.family === 'SCRATCH') {
    // gfx10 scratch: the private offset is vaddr (saddr off) or saddr, plus the signed offset.
    const v = vaddr ? readLane(cx.st, vaddr.value, 'u32', lane, 0) : !sNone && saddr ? readScalar(cx.st, saddr.value, 'u32') : 0;
    return { kind: 'private', addr: privateOffset(v, off >>> 0), base: flatScratchBase(cx), lane };
  }
  let lo: number, hi: number, extra = 0;
  if (inst.def.family === 'GLOBAL' && !sNone && saddr) {
    lo = readScalar(cx.st, saddr.value, 'b64', 0);
    hi = readScalar(cx.st, saddr.value, 'b64', 1);
    // global_*_addtid: saddr + offset + lane id * 4 (no vaddr).
    extra = vaddr ? readLane(cx.st, vaddr.value, 'u32', lane, 0) : inst.def.flags?.includes('addtid') ? 4 * lane : 0;
  } else {
    if (!vaddr) throw new InterpError(inst.def.flags?.includes('addtid') ? 'global_*_addtid needs saddr' : 'no address operand');
    lo = readLane(cx.st, vaddr.value, 'u64', lane, 0);
    hi = readLane(cx.st, vaddr.value, 'u64', lane, 1);
  }
  if (inst.def.family === 'FLAT' && (hi >>> 0) === SHARED_APERTURE_HI) return { kind: 'lds', addr: lo + off };
  if (inst.def.family === 'FLAT' && (hi >>> 0) === PRIVATE_APERTURE_HI) return { kind: 'private', addr: privateOffset(lo, off), base: flatScratchBase(cx), lane };
  return { kind: 'global', addr: address(lo, hi, off + extra) };
}

/** `n` bytes at private offset `o` of a lane: dword-interleaved, so a piece crossing a dword is split. */
function privateRead(cx: ExecContext, base: number, lane: number, o: number, n: 1 | 2 | 4): number {
  if ((o & 3) + n <= 4) return cx.mem.read(privateAddress(cx, base, lane, o, n), n);
  let x = 0;
  for (let b = 0; b < n; b++) x |= cx.mem.read(privateAddress(cx, base, lane, o + b, 1), 1) << (8 * b);
  return x >>> 0;
}

function privateWrite(cx: ExecContext, base: number, lane: number, o: number, n: 1 | 2 | 4, v: number): void {
  if ((o & 3) + n <= 4) { cx.mem.write(privateAddress(cx, base, lane, o, n), n, v); return; }
  for (let b = 0; b < n; b++) cx.mem.write(privateAddress(cx, base, lane, o + b, 1), 1, (v >>> (8 * b)) & 0xff);
}

/** The address of a lane's `n` private bytes at offset `o`: in a raw shader's ring, inside the wave's own region. */
function privateAddress(cx: ExecContext, base: number, lane: number, o: number, n: number): number {
  const a = scratchAddress(base, cx.st.waveSize, lane, o);
  checkScratch(cx.scratchRegion, a, n);
  return a;
}

function rd(cx: ExecContext, a: Loc, k: number, n: 1 | 2 | 4): number {
  switch (a.kind) {
    case 'global': return cx.mem.read(a.addr + k, n);
    case 'lds': return ldsLoad(cx.lds, a.addr + k, n);
    case 'private': return privateRead(cx, a.base, a.lane, a.addr + k, n);
  }
}

function wr(cx: ExecContext, a: Loc, k: number, n: 1 | 2 | 4, v: number): void {
  switch (a.kind) {
    case 'global': cx.mem.write(a.addr + k, n, v); return;
    case 'lds': ldsStore(cx.lds, a.addr + k, n, v); return;
    case 'private': privateWrite(cx, a.base, a.lane, a.addr + k, n, v); return;
  }
}

/** Integer atomic operations: new memory value from old and data (32 or 64 bits as bigint). */
export const ATOMIC: Record<string, (old: bigint, d: bigint, bits: bigint, cmp: bigint) => bigint> = {
  swap: (_o, d) => d,
  cmpswap: (o, d, _b, c) => (o === c ? d : o),
  add: (o, d, b) => (o + d) & ((1n << b) - 1n),
  sub: (o, d, b) => (o - d) & ((1n << b) - 1n),
  smin: (o, d, b) => (BigInt.asIntN(Number(b), o) < BigInt.asIntN(Number(b), d) ? o : d),
  umin: (o, d) => (o < d ? o : d),
  smax: (o, d, b) => (BigInt.asIntN(Number(b), o) > BigInt.asIntN(Number(b), d) ? o : d),
  umax: (o, d) => (o > d ? o : d),
  and: (o, d) => o & d, or: (o, d) => o | d, xor: (o, d) => o ^ d,
  inc: (o, d, b) => (o >= d ? 0n : (o + 1n) & ((1n << b) - 1n)),
  dec: (o, d, b) => (o === 0n || o > d ? d : (o - 1n) & ((1n << b) - 1n)),
  csub: (o, d) => (o >= d ? o - d : 0n),
};

/**
 * The new-value rule of a GLOBAL/FLAT/MUBUF atomic (`name`: the mnemonic without its prefix and
 * _x2): an integer one (ATOMIC) or fcmpswap/fmin/fmax through the float model (src/float/atomic.ts).
 */
export function atomicRuleOf(mnemonic: string, name: string): ((old: bigint, d: bigint, bits: bigint, cmp: bigint) => bigint) | undefined {
  const int = ATOMIC[name];
  if (int) return int;
  const fl = floatAtomicOf(mnemonic);
  return fl ? (o, d, _b, c) => floatAtomic(fl.op, fl.type, o, d, c) : undefined;
}

/** Whether an atomic (name as for atomicRuleOf) takes a compare value after its data. */
export const hasCompare = (name: string): boolean => name === 'cmpswap' || name === 'fcmpswap';

function memHandler(def: InstrDef): Handler | undefined {
  const acc = accessOf(def);
  if (acc.kind === 'atomic') {
    const name = def.mnemonic.replace(/^(flat|global)_atomic_/, '').replace(/_x2$/, '');
    const f = atomicRuleOf(def.mnemonic, name);
    if (!f) return undefined;
    const wide = def.mnemonic.endsWith('_x2');
    const bits = wide ? 64n : 32n;
    const dw = wide ? 2 : 1;
    return (inst, cx) => {
      const vdata = operandOf(inst, 'vdata');
      const vdst = operandOf(inst, 'vdst');
      if (!vdata) throw new InterpError('no vdata');
      for (let l = 0; l < cx.st.waveSize; l++) {
        if (!cx.st.active(l)) continue;
        const a = laneAddress(inst, cx, l);
        const read = (k: number) => BigInt(readLane(cx.st, vdata.value, 'b32', l, k));
        const data = wide ? read(0) | (read(1) << 32n) : read(0);
        const cmp = hasCompare(name) ? (wide ? read(2) | (read(3) << 32n) : read(1)) : 0n;
        const old = BigInt(rd(cx, a, 0, 4)) | (wide ? BigInt(rd(cx, a, 4, 4)) << 32n : 0n);
        const nv = f(old, data, bits, cmp);
        wr(cx, a, 0, 4, Number(nv & M32));
        if (wide) wr(cx, a, 4, 4, Number((nv >> 32n) & M32));
        if (vdst) for (let k = 0; k < dw; k++) writeLane(cx.st, vdst.value, l, Number((old >> BigInt(32 * k)) & M32), k);
      }
    };
  }
  return (inst, cx) => {
    if (inst.mods.lds) throw new UnimplementedError(`${inst.def.mnemonic} with lds (data to LDS at M0) is not implemented`);
    const data = operandOf(inst, acc.kind === 'load' ? 'vdst' : 'vdata');
    if (!data) throw new InterpError('no data operand');
    for (let l = 0; l < cx.st.waveSize; l++) {
      if (!cx.st.active(l)) continue;
      const a = laneAddress(inst, cx, l);
      if (acc.kind === 'store') {
        if (acc.bytes < 4) {
          const v = readLane(cx.st, data.value, 'b32', l, 0);
          wr(cx, a, 0, acc.bytes, acc.hi ? v >>> 16 : v);
        } else for (let k = 0; k < acc.dwords; k++) wr(cx, a, 4 * k, 4, readLane(cx.st, data.value, 'b32', l, k));
        continue;
      }
      if (acc.bytes < 4) {
        let v = rd(cx, a, 0, acc.bytes);
        if (acc.type === 'i8') v = (v << 24) >> 24;
        if (acc.type === 'i16') v = (v << 16) >> 16;
        if (acc.d16) {
          const old = readLane(cx.st, data.value, 'b32', l, 0);
          v = acc.hi ? ((old & 0xffff) | ((v & 0xffff) << 16)) >>> 0 : ((old & 0xffff0000) | (v & 0xffff)) >>> 0;
        }
        writeLane(cx.st, data.value, l, v >>> 0, 0);
      } else for (let k = 0; k < acc.dwords; k++) writeLane(cx.st, data.value, l, rd(cx, a, 4 * k, 4), k);
    }
  };
}

export const VMEM: Record<string, Handler> = {};
for (const d of ISA_TABLE) {
  if (d.family !== 'FLAT' && d.family !== 'GLOBAL' && d.family !== 'SCRATCH') continue;
  const h = memHandler(d);
  if (h) VMEM[d.mnemonic] = h;
}
