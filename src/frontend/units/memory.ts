// Memory to IR: SMEM scalar loads (wave-uniform, from a 64-bit base + offset + soffset, the low two
// address bits ignored) and GLOBAL loads/stores of dwords (per lane, only in active lanes; an
// inactive lane keeps its destination).
import type { Inst } from '../../ir/ir.js';
import type { Op } from '../../ir/ops.js';
import type { TContext, Translator } from '../context.js';

function smemAddress(cx: TContext): Inst {
  const b = cx.b;
  const sb = cx.op('sbase').value;
  const base = cx.pack(cx.scalar(sb, 'b64', 0), b.emit('And32', [cx.scalar(sb, 'b64', 1), cx.u32(0xffff)]));
  let off: Inst = cx.u32((cx.inst.mods.offset ?? 0) >>> 0);
  const so = cx.op('soffset').value;
  if (!(so.kind === 'special' && so.reg === 'null')) off = b.emit('IAdd32', [off, cx.scalar(so, 'u32')]);
  // The offset is signed 21-bit: extend it to 64 bits.
  const off64 = cx.pack(off, b.emit('AShr32', [off, cx.u32(31)]));
  const a = b.emit('IAdd64', [base, off64]);
  return cx.pack(b.emit('And32', [b.emit('Lo32', [a]), cx.u32(0xfffffffc)]), b.emit('Hi32', [a]));
}

const sload = (n: number): Translator => (cx) => {
  const a = smemAddress(cx);
  const d = cx.op('sdata').value;
  for (let k = 0; k < n; k++) {
    const ak = k === 0 ? a : cx.b.emit('IAdd64', [a, cx.pack(cx.u32(4 * k), cx.u32(0))]);
    cx.writeScalar(d, cx.b.emit('LoadUniform32', [ak]), k);
  }
};

function globalAddress(cx: TContext): Inst {
  const b = cx.b;
  const off = cx.inst.mods.offset ?? 0;
  const saddr = cx.inst.operands.find((o) => o.name === 'saddr');
  const vaddr = cx.op('vaddr').value;
  let a: Inst;
  if (saddr && !(saddr.value.kind === 'special' && saddr.value.reg === 'null')) {
    a = b.emit('IAdd64', [cx.pack(cx.scalar(saddr.value, 'b64', 0), cx.scalar(saddr.value, 'b64', 1)), cx.pack(cx.lane(vaddr, 'u32', 0), cx.u32(0))]);
  } else a = cx.pack(cx.lane(vaddr, 'u64', 0), cx.lane(vaddr, 'u64', 1));
  if (off !== 0) a = b.emit('IAdd64', [a, cx.pack(cx.u32(off), cx.u32(off < 0 ? 0xffffffff : 0))]);
  return a;
}

const at = (cx: TContext, a: Inst, k: number) => (k === 0 ? a : cx.b.emit('IAdd64', [a, cx.pack(cx.u32(4 * k), cx.u32(0))]));

const gload = (n: number): Translator => (cx) => {
  if (cx.inst.mods.lds) cx.fail('lds=1 loads are not translated yet');
  const active = cx.execBit();
  const a = globalAddress(cx);
  const d = cx.op('vdst').value;
  for (let k = 0; k < n; k++) cx.writeLane(d, cx.b.emit('LoadGlobal32', [active, at(cx, a, k)]), k, active);
};

const gstore = (n: number): Translator => (cx) => {
  const active = cx.execBit();
  const a = globalAddress(cx);
  const v = cx.op('vdata').value;
  for (let k = 0; k < n; k++) cx.b.emit('StoreGlobal32', [active, at(cx, a, k), cx.lane(v, 'b32', k)]);
};

const ATOMIC_OPS: Record<string, Op> = {
  add: 'AtomicAdd32', sub: 'AtomicSub32', umin: 'AtomicUMin32', umax: 'AtomicUMax32', smin: 'AtomicSMin32', smax: 'AtomicSMax32',
  and: 'AtomicAnd32', or: 'AtomicOr32', xor: 'AtomicXor32', swap: 'AtomicSwap32', cmpswap: 'AtomicCmpSwap32',
};

/** global_atomic_<op> (32-bit): each active lane's old value goes to vdst when the form returns (glc). */
const gatomic = (op: Op): Translator => (cx) => {
  const active = cx.execBit();
  const a = globalAddress(cx);
  const v = cx.op('vdata').value;
  const args = [active, a, cx.lane(v, 'b32', 0), ...(op === 'AtomicCmpSwap32' ? [cx.lane(v, 'b32', 1)] : [])];
  const old = cx.b.emit(op, args);
  const dst = cx.inst.operands.find((o) => o.name === 'vdst');
  if (dst) cx.writeLane(dst.value, old, 0, active);
};

const nothing: Translator = () => undefined;

export const MEMORY: Record<string, Translator> = {
  s_load_dword: sload(1), s_load_dwordx2: sload(2), s_load_dwordx4: sload(4), s_load_dwordx8: sload(8), s_load_dwordx16: sload(16),
  global_load_dword: gload(1), global_load_dwordx2: gload(2), global_load_dwordx3: gload(3), global_load_dwordx4: gload(4),
  global_store_dword: gstore(1), global_store_dwordx2: gstore(2), global_store_dwordx3: gstore(3), global_store_dwordx4: gstore(4),
  s_dcache_inv: nothing, s_gl1_inv: nothing, buffer_gl0_inv: nothing, buffer_gl1_inv: nothing,
  ...Object.fromEntries(Object.entries(ATOMIC_OPS).map(([k, op]) => [`global_atomic_${k}`, gatomic(op)])),
};
