// FLAT and GLOBAL memory: loads, stores and atomics, read from the table's facts (flags 'load' /
// 'store' / 'atomic' / 'd16', the data type and dwords) rather than per-opcode code. Addresses:
// GLOBAL with saddr = SGPR pair + 32-bit VGPR offset + imm offset; with saddr off (and FLAT) =
// 64-bit VGPR address + imm offset. A FLAT address in the shared aperture goes to LDS. RDNA2 ISA
// reference, "FLAT, Scratch and Global Instructions".
import type { Instruction } from '../../decode/types.js';
import type { DataType, InstrDef } from '../../isa/types.js';
import { type ExecContext, type Handler, operandOf } from '../context.js';
import { InterpError, UnimplementedError } from '../errors.js';
import { address } from '../memory.js';
import { PRIVATE_APERTURE_HI, readLane, readScalar, SHARED_APERTURE_HI, writeLane } from '../operands.js';
import { ISA_TABLE } from '../../isa/table.js';

const M32 = 0xffffffffn;

interface Access { readonly kind: 'load' | 'store' | 'atomic'; readonly type: DataType; readonly dwords: number; readonly d16: boolean; readonly hi: boolean; readonly bytes: 1 | 2 | 4 }

function accessOf(def: InstrDef): Access {
  const f = def.flags ?? [];
  const kind = f.includes('load') ? 'load' : f.includes('store') ? 'store' : 'atomic';
  const data = def.operands.find((o) => o.name === (kind === 'store' || kind === 'atomic' ? 'vdata' : 'vdst'));
  const type = data?.type ?? 'b32';
  const bytes: 1 | 2 | 4 = type === 'u8' || type === 'i8' ? 1 : type === 'u16' || type === 'i16' || type === 'b16' ? 2 : 4;
  return { kind, type, dwords: data?.dwords ?? 1, d16: f.includes('d16'), hi: def.mnemonic.endsWith('_hi'), bytes };
}

/** The lane's address and whether it falls in the LDS aperture. */
function laneAddress(inst: Instruction, cx: ExecContext, lane: number): { addr: number; lds: boolean } {
  const off = inst.mods.offset ?? 0;
  const vaddr = operandOf(inst, 'vaddr');
  const saddr = operandOf(inst, 'saddr');
  const sNone = !saddr || (saddr.value.kind === 'special' && saddr.value.reg === 'null');
  let lo: number, hi: number, extra = 0;
  if (inst.def.family === 'GLOBAL' && !sNone && saddr) {
    lo = readScalar(cx.st, saddr.value, 'b64', 0);
    hi = readScalar(cx.st, saddr.value, 'b64', 1);
    extra = vaddr ? readLane(cx.st, vaddr.value, 'u32', lane, 0) : 0;
  } else {
    if (!vaddr) throw new InterpError('no address operand');
    lo = readLane(cx.st, vaddr.value, 'u64', lane, 0);
    hi = readLane(cx.st, vaddr.value, 'u64', lane, 1);
  }
  if (inst.def.family === 'FLAT' && (hi >>> 0) === SHARED_APERTURE_HI) return { addr: lo + off, lds: true };
  if (inst.def.family === 'FLAT' && (hi >>> 0) === PRIVATE_APERTURE_HI) throw new UnimplementedError('FLAT access to the private (scratch) aperture is not modelled');
  return { addr: address(lo, hi, off + extra), lds: false };
}

function ldsRead(cx: ExecContext, a: number, n: 1 | 2 | 4): number {
  if (a < 0 || a + n > cx.lds.byteLength) throw new InterpError(`LDS load of ${n} bytes at ${a} is outside the ${cx.lds.byteLength}-byte LDS allocation`);
  return n === 4 ? cx.lds.getUint32(a, true) : n === 2 ? cx.lds.getUint16(a, true) : cx.lds.getUint8(a);
}
function ldsWrite(cx: ExecContext, a: number, n: 1 | 2 | 4, v: number): void {
  if (a < 0 || a + n > cx.lds.byteLength) throw new InterpError(`LDS store of ${n} bytes at ${a} is outside the ${cx.lds.byteLength}-byte LDS allocation`);
  if (n === 4) cx.lds.setUint32(a, v >>> 0, true); else if (n === 2) cx.lds.setUint16(a, v & 0xffff, true); else cx.lds.setUint8(a, v & 0xff);
}

const rd = (cx: ExecContext, a: { addr: number; lds: boolean }, k: number, n: 1 | 2 | 4) => (a.lds ? ldsRead(cx, a.addr + k, n) : cx.mem.read(a.addr + k, n));
const wr = (cx: ExecContext, a: { addr: number; lds: boolean }, k: number, n: 1 | 2 | 4, v: number) => (a.lds ? ldsWrite(cx, a.addr + k, n, v) : cx.mem.write(a.addr + k, n, v));

/** Integer atomic operations: new memory value from old and data (32 or 64 bits as bigint). */
const ATOMIC: Record<string, (old: bigint, d: bigint, bits: bigint, cmp: bigint) => bigint> = {
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

function memHandler(def: InstrDef): Handler | undefined {
  const acc = accessOf(def);
  if (def.flags?.includes('addtid')) return undefined;
  if (def.family === 'SCRATCH') return undefined;
  if (acc.kind === 'atomic') {
    const name = def.mnemonic.replace(/^(flat|global)_atomic_/, '').replace(/_x2$/, '');
    const f = ATOMIC[name];
    if (!f) return undefined; // float atomics: in the float unit
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
        const cmp = name === 'cmpswap' ? (wide ? read(2) | (read(3) << 32n) : read(1)) : 0n;
        const old = BigInt(rd(cx, a, 0, 4)) | (wide ? BigInt(rd(cx, a, 4, 4)) << 32n : 0n);
        const nv = f(old, data, bits, cmp);
        wr(cx, a, 0, 4, Number(nv & M32));
        if (wide) wr(cx, a, 4, 4, Number((nv >> 32n) & M32));
        if (vdst) for (let k = 0; k < dw; k++) writeLane(cx.st, vdst.value, l, Number((old >> BigInt(32 * k)) & M32), k);
      }
    };
  }
  return (inst, cx) => {
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
  if (d.family !== 'FLAT' && d.family !== 'GLOBAL') continue;
  const h = memHandler(d);
  if (h) VMEM[d.mnemonic] = h;
}
