// SALU (SOP1, SOP2, SOPK, SOPC) to IR: wave-uniform u32 values, SCC as u1. The first slice:
// moves, 32-bit arithmetic with SCC carries and overflow, logic and shifts (b32 and b64),
// compares, selects, multiplies, bit-field extracts, EXEC save/restore, s_getpc_b64.
import type { Inst } from '../../ir/ir.js';
import { EXEC_LO, type OpRef, opRef, type TContext, type Translator } from '../context.js';
import { listOf } from '../../ir/ir.js';

/** The ops this unit's common paths emit at most instructions, their entries found once (context.ts `opRef`). */
const INE32 = opRef('INe32'), AND32 = opRef('And32'), OR32 = opRef('Or32'), XOR32 = opRef('Xor32'), NOT32 = opRef('Not32'), IADD32 = opRef('IAdd32'), ISUB32 = opRef('ISub32'), U1_TO_U32 = opRef('U1ToU32');
const USUB_BORROW32 = opRef('USubBorrow32'), UADD_CARRY32 = opRef('UAddCarry32'), ULT32 = opRef('ULt32'), UGT32 = opRef('UGt32'), SLT32 = opRef('SLt32'), SGT32 = opRef('SGt32');
const IEQ64 = opRef('IEq64'), INE64 = opRef('INe64'), SELECT32 = opRef('Select32'), LO32 = opRef('Lo32'), HI32 = opRef('Hi32');
const SHIFT64 = { Shl64: opRef('Shl64'), LShr64: opRef('LShr64'), AShr64: opRef('AShr64') } as const;

/** Source `name`, dword `k`: an SGPR (most sources) read without asking the table for the operand's type, which only constants need. */
const s = (cx: TContext, name: string, k = 0) => { const v = cx.op(name).value; return v.kind === 'sgpr' ? cx.b.getSgpr(v.index + k) : cx.scalar(v, cx.typeOf(name), k); };
const d = (cx: TContext, v: Inst, k = 0) => cx.writeScalar(cx.op('sdst').value, v, k);
/**
 * SCC = make(): made only if something reads it (context.ts BlockBuilder.setSccLazy); `make` only
 * combines values made before (constants too), so it may run later, at this write's place. An SCC
 * of one op is written as data (`sccOp`), without a closure.
 */
const scc = (cx: TContext, make: () => Inst) => cx.b.setSccLazy(make);
const nz = (cx: TContext, v: Inst) => cx.b.emit('INe32', listOf(v, cx.b.u32(0)));
/** SCC = v != 0. */
const sccNz = (cx: TContext, v: Inst) => cx.b.setSccOp(INE32, v, cx.b.u32(0));
/** SCC = (lo | hi) != 0. */
const sccNz64 = (cx: TContext, lo: Inst, hi: Inst) => { const z = cx.b.u32(0); scc(cx, () => cx.b.value(INE32, cx.b.value(OR32, lo, hi), z)); };
/** SCC = op(a, b), made lazily as `scc` makes it. */
const sccOp = (cx: TContext, op: OpRef, a: Inst, b: Inst) => cx.b.setSccOp(op, a, b);
const simm16 = (cx: TContext) => { const v = cx.op('simm16').value; return v.kind === 'imm' ? v.value & 0xffff : 0; };

type Bin = 'IAdd32' | 'ISub32' | 'And32' | 'Or32' | 'Xor32' | 'Shl32' | 'LShr32' | 'AShr32' | 'IMul32' | 'UMin32' | 'UMax32' | 'SMin32' | 'SMax32' | 'UMulHi32' | 'SMulHi32';

/** A 32-bit binary op with SCC = result != 0 (logic, shifts) or unchanged (mul). */
const bin32 = (op: Bin, sccNonZero: boolean, pre?: (cx: TContext, b: Inst) => Inst): Translator => {
  const ref = opRef(op);
  return (cx) => {
    const a = s(cx, 'ssrc0');
    const b0 = s(cx, 'ssrc1');
    const r = cx.b.value(ref, a, pre ? pre(cx, b0) : b0);
    d(cx, r);
    if (sccNonZero) sccNz(cx, r);
  };
};

/** A logic op on b64 pairs, dword by dword; SCC = result != 0. */
const logic64 = (f: (cx: TContext, a: Inst, b: Inst) => Inst): Translator => (cx) => {
  const lo = f(cx, s(cx, 'ssrc0', 0), s(cx, 'ssrc1', 0));
  const hi = f(cx, s(cx, 'ssrc0', 1), s(cx, 'ssrc1', 1));
  d(cx, lo, 0); d(cx, hi, 1);
  sccNz64(cx, lo, hi);
};

const not = (cx: TContext, a: Inst) => cx.b.value(NOT32, a);
const LOGIC: Record<string, (cx: TContext, a: Inst, b: Inst) => Inst> = {
  and: (cx, a, b) => cx.b.value(AND32, a, b),
  or: (cx, a, b) => cx.b.value(OR32, a, b),
  xor: (cx, a, b) => cx.b.value(XOR32, a, b),
  andn2: (cx, a, b) => cx.b.value(AND32, a, not(cx, b)),
  orn2: (cx, a, b) => cx.b.value(OR32, a, not(cx, b)),
  andn1: (cx, a, b) => cx.b.value(AND32, not(cx, a), b),
  orn1: (cx, a, b) => cx.b.value(OR32, not(cx, a), b),
  nand: (cx, a, b) => not(cx, cx.b.value(AND32, a, b)),
  nor: (cx, a, b) => not(cx, cx.b.value(OR32, a, b)),
  xnor: (cx, a, b) => not(cx, cx.b.value(XOR32, a, b)),
};

type Cmp = 'IEq32' | 'INe32' | 'ULt32' | 'ULe32' | 'UGt32' | 'UGe32' | 'SLt32' | 'SLe32' | 'SGt32' | 'SGe32';
const CMP: [string, Cmp, Cmp][] = [['eq', 'IEq32', 'IEq32'], ['lg', 'INe32', 'INe32'], ['gt', 'SGt32', 'UGt32'], ['ge', 'SGe32', 'UGe32'], ['lt', 'SLt32', 'ULt32'], ['le', 'SLe32', 'ULe32']];

/** The saveexec family: D = EXEC (the new EXEC for wrexec); EXEC = f(S0, EXEC); SCC = EXEC != 0 (one dword per lane-mask dword). */
const saveexec = (wide: boolean, f: (cx: TContext, s0: Inst, e: Inst) => Inst, writeNew = false): Translator => (cx) => {
  if (wide !== (cx.waveSize === 64)) cx.fail(`${cx.inst.def.mnemonic} in a wave${cx.waveSize} shader`);
  // Each step for both dwords before the next (the reads, the new values, the EXEC writes, the
  // destination's), without a list or closure per instruction.
  const old0 = cx.b.getSgpr(EXEC_LO), old1 = wide ? cx.b.getSgpr(EXEC_LO + 1) : undefined;
  const new0 = f(cx, s(cx, 'ssrc0', 0), old0), new1 = old1 ? f(cx, s(cx, 'ssrc0', 1), old1) : undefined;
  cx.b.emit('SetSgpr', listOf(new0), listOf(EXEC_LO));
  if (new1) cx.b.emit('SetSgpr', listOf(new1), listOf(EXEC_LO + 1));
  d(cx, writeNew ? new0 : old0, 0);
  if (wide) d(cx, (writeNew ? new1 : old1) as Inst, 1);
  if (new1) sccNz64(cx, new0, new1);
  else sccNz(cx, new0);
};

/** Signed overflow of r = a + b (add: (a ^ r) & (b ^ r) < 0) or r = a - b (sub: (a ^ b) & (a ^ r) < 0). */
function sccSignedOverflow(cx: TContext, a: Inst, b: Inst, r: Inst, sub: boolean): void {
  const z = cx.b.u32(0);
  // One closure per instruction (the recipe's), not a helper's too.
  scc(cx, () => {
    const e = cx.b;
    const t = sub ? e.emit('And32', listOf(e.emit('Xor32', listOf(a, b)), e.emit('Xor32', listOf(a, r)))) : e.emit('And32', listOf(e.emit('Xor32', listOf(a, r)), e.emit('Xor32', listOf(b, r))));
    return e.emit('SLt32', listOf(t, z));
  });
}

const add32 = (signed: boolean, sub: boolean, withCarry: boolean): Translator => (cx) => {
  const a = s(cx, 'ssrc0'), b = s(cx, 'ssrc1');
  const cin = withCarry ? cx.b.getScc() : cx.b.u1(false);
  const r0 = cx.b.value(sub ? ISUB32 : IADD32, a, b);
  const r = withCarry ? cx.b.value(sub ? ISUB32 : IADD32, r0, cx.b.value(U1_TO_U32, cin)) : r0;
  d(cx, r);
  if (signed) sccSignedOverflow(cx, a, b, r, sub);
  else cx.b.setSccOp(sub ? USUB_BORROW32 : UADD_CARRY32, a, b, cin);
};

export const SALU: Record<string, Translator> = {
  s_mov_b32: (cx) => d(cx, s(cx, 'ssrc0')),
  s_mov_b64: (cx) => { d(cx, s(cx, 'ssrc0', 0), 0); d(cx, s(cx, 'ssrc0', 1), 1); },
  s_movk_i32: (cx) => d(cx, cx.b.u32((simm16(cx) << 16) >> 16)),
  s_cmov_b32: (cx) => d(cx, cx.b.value(SELECT32, cx.b.getScc(), s(cx, 'ssrc0'), cx.scalar(cx.op('sdst').value, 'b32'))),
  s_not_b32: (cx) => { const r = not(cx, s(cx, 'ssrc0')); d(cx, r); sccNz(cx, r); },
  s_add_u32: add32(false, false, false), s_addc_u32: add32(false, false, true),
  s_sub_u32: add32(false, true, false), s_subb_u32: add32(false, true, true),
  s_add_i32: add32(true, false, false), s_sub_i32: add32(true, true, false),
  s_lshl_b32: bin32('Shl32', true), s_lshr_b32: bin32('LShr32', true), s_ashr_i32: bin32('AShr32', true),
  s_mul_i32: bin32('IMul32', false), s_mul_hi_u32: bin32('UMulHi32', false), s_mul_hi_i32: bin32('SMulHi32', false),
  s_cselect_b32: (cx) => d(cx, cx.b.value(SELECT32, cx.b.getScc(), s(cx, 'ssrc0'), s(cx, 'ssrc1'))),
  s_cselect_b64: (cx) => { const c = cx.b.getScc(); for (let k = 0; k < 2; k++) d(cx, cx.b.emit('Select32', listOf(c, s(cx, 'ssrc0', k), s(cx, 'ssrc1', k))), k); },
  s_bfe_u32: (cx) => {
    const a = s(cx, 'ssrc0'), c = s(cx, 'ssrc1');
    const r = cx.b.emit('UBfe32', listOf(a, cx.b.emit('And32', listOf(c, cx.b.u32(31))), cx.b.emit('And32', listOf(cx.b.emit('LShr32', listOf(c, cx.b.u32(16))), cx.b.u32(0x7f)))));
    d(cx, r); sccNz(cx, r);
  },
  s_min_u32: (cx) => { const a = s(cx, 'ssrc0'), b = s(cx, 'ssrc1'); d(cx, cx.b.emit('UMin32', listOf(a, b))); sccOp(cx, ULT32, a, b); },
  s_max_u32: (cx) => { const a = s(cx, 'ssrc0'), b = s(cx, 'ssrc1'); d(cx, cx.b.emit('UMax32', listOf(a, b))); sccOp(cx, UGT32, a, b); },
  s_min_i32: (cx) => { const a = s(cx, 'ssrc0'), b = s(cx, 'ssrc1'); d(cx, cx.b.emit('SMin32', listOf(a, b))); sccOp(cx, SLT32, a, b); },
  s_max_i32: (cx) => { const a = s(cx, 'ssrc0'), b = s(cx, 'ssrc1'); d(cx, cx.b.emit('SMax32', listOf(a, b))); sccOp(cx, SGT32, a, b); },
  s_cmp_eq_u64: (cx) => sccOp(cx, IEQ64, cx.pack(s(cx, 'ssrc0', 0), s(cx, 'ssrc0', 1)), cx.pack(s(cx, 'ssrc1', 0), s(cx, 'ssrc1', 1))),
  s_cmp_lg_u64: (cx) => sccOp(cx, INE64, cx.pack(s(cx, 'ssrc0', 0), s(cx, 'ssrc0', 1)), cx.pack(s(cx, 'ssrc1', 0), s(cx, 'ssrc1', 1))),
  s_brev_b32: (cx) => d(cx, cx.b.emit('BitReverse32', listOf(s(cx, 'ssrc0')))),
  s_addk_i32: (cx) => {
    const a = cx.scalar(cx.op('sdst').value, 'b32'), k = cx.b.u32((simm16(cx) << 16) >> 16);
    const r = cx.b.emit('IAdd32', listOf(a, k));
    d(cx, r);
    sccSignedOverflow(cx, a, k, r, false);
  },
  s_ff1_i32_b32: (cx) => d(cx, cx.b.emit('FindLsb32', listOf(s(cx, 'ssrc0')))),
  s_ff1_i32_b64: (cx) => {
    const lo = s(cx, 'ssrc0', 0), hi = s(cx, 'ssrc0', 1);
    const fh = cx.b.emit('FindLsb32', listOf(hi));
    d(cx, cx.b.emit('Select32', listOf(cx.b.emit('INe32', listOf(lo, cx.b.u32(0))), cx.b.emit('FindLsb32', listOf(lo)), cx.b.emit('Select32', listOf(cx.b.emit('INe32', listOf(hi, cx.b.u32(0))), cx.b.emit('IAdd32', listOf(fh, cx.b.u32(32))), cx.b.u32(0xffffffff))))));
  },
  s_bcnt1_i32_b32: (cx) => { const r = cx.b.emit('BitCount32', listOf(s(cx, 'ssrc0'))); d(cx, r); sccNz(cx, r); },
  s_bcnt1_i32_b64: (cx) => { const r = cx.b.emit('IAdd32', listOf(cx.b.emit('BitCount32', listOf(s(cx, 'ssrc0', 0))), cx.b.emit('BitCount32', listOf(s(cx, 'ssrc0', 1))))); d(cx, r); sccNz(cx, r); },
  s_lshl_b64: (cx) => shift64(cx, 'Shl64'), s_lshr_b64: (cx) => shift64(cx, 'LShr64'), s_ashr_i64: (cx) => shift64(cx, 'AShr64'),
  s_getpc_b64: (cx) => { const pc = cx.inst.pc + 4; d(cx, cx.b.u32(pc % 2 ** 32), 0); d(cx, cx.b.u32(Math.floor(pc / 2 ** 32)), 1); },
  // MODE writes with immediates: the float ops after them carry the mode the MODE analysis gives
  // them; the MODE value itself is kept for later reads.
  s_round_mode: (cx) => cx.b.emit('SetMode', listOf(cx.b.emit('Or32', listOf(cx.b.emit('And32', listOf(cx.b.emit('GetMode'), cx.b.u32(~0xf))), cx.b.u32(simm16(cx) & 0xf))))),
  s_denorm_mode: (cx) => cx.b.emit('SetMode', listOf(cx.b.emit('Or32', listOf(cx.b.emit('And32', listOf(cx.b.emit('GetMode'), cx.b.u32(~0xf0))), cx.b.u32((simm16(cx) & 0xf) << 4))))),
  s_waitcnt_vscnt: () => undefined, s_waitcnt_vmcnt: () => undefined, s_waitcnt_lgkmcnt: () => undefined, s_waitcnt_expcnt: () => undefined,
};

const e = (cx: TContext, op: Parameters<TContext['b']['emit']>[0], ...args: Inst[]) => cx.b.emit(op, args);
const K = (cx: TContext, v: number) => cx.b.u32(v >>> 0);
/** The old value of the destination (read-modify-write and conditional forms), dword `k`. */
const dOld = (cx: TContext, k = 0) => s(cx, 'sdst', k);
const d64 = (cx: TContext, v: Inst) => { d(cx, e(cx, 'Lo32', v), 0); d(cx, e(cx, 'Hi32', v), 1); };
const src64 = (cx: TContext, name: string) => cx.pack(s(cx, name, 0), s(cx, name, 1));
const sel = (cx: TContext, c: Inst, a: Inst, b: Inst) => e(cx, 'Select32', c, a, b);
/** Leading zeros, all ones (−1) for 0 (s_flbit_i32_b32). */
const flbit32 = (cx: TContext, x: Inst) => sel(cx, nz(cx, x), e(cx, 'Clz32', x), K(cx, -1));
/** Leading zeros of hi:lo, −1 for 0 (s_flbit_i32_b64). */
const flbit64 = (cx: TContext, lo: Inst, hi: Inst) => sel(cx, nz(cx, hi), e(cx, 'Clz32', hi), sel(cx, nz(cx, lo), e(cx, 'IAdd32', e(cx, 'Clz32', lo), K(cx, 32)), K(cx, -1)));
/** Index of the lowest set bit of hi:lo, −1 for 0 (s_ff1_i32_b64). */
const ff64 = (cx: TContext, lo: Inst, hi: Inst) => sel(cx, nz(cx, lo), e(cx, 'FindLsb32', lo), sel(cx, nz(cx, hi), e(cx, 'IAdd32', e(cx, 'FindLsb32', hi), K(cx, 32)), K(cx, -1)));
/** Bit 4q of the result is set where nibble q of x is nonzero (other bits clear). */
const nibbleAny = (cx: TContext, x: Inst) => {
  const y = e(cx, 'Or32', x, e(cx, 'LShr32', x, K(cx, 1)));
  return e(cx, 'And32', e(cx, 'Or32', y, e(cx, 'LShr32', y, K(cx, 2))), K(cx, 0x11111111));
};
/** s_wqm on one dword: each nonzero nibble becomes 0xf. */
const wqm32 = (cx: TContext, x: Inst) => { const y = nibbleAny(cx, x); const t = e(cx, 'Or32', y, e(cx, 'Shl32', y, K(cx, 1))); return e(cx, 'Or32', t, e(cx, 'Shl32', t, K(cx, 2))); };
/** s_quadmask on one dword: bit q = nibble q nonzero (8 bits). */
const quad32 = (cx: TContext, x: Inst) => {
  const step = (v: Inst, n: number, m: number) => e(cx, 'And32', e(cx, 'Or32', v, e(cx, 'LShr32', v, K(cx, n))), K(cx, m));
  return step(step(step(nibbleAny(cx, x), 3, 0x03030303), 6, 0x000f000f), 12, 0xff);
};
/** Bits 0..15 of x spread to the even bits of a dword (bit b to bit 2b). */
const spread16 = (cx: TContext, x: Inst) => {
  const step = (v: Inst, n: number, m: number) => e(cx, 'And32', e(cx, 'Or32', v, e(cx, 'Shl32', v, K(cx, n))), K(cx, m));
  return step(step(step(step(e(cx, 'And32', x, K(cx, 0xffff)), 8, 0x00ff00ff), 4, 0x0f0f0f0f), 2, 0x33333333), 1, 0x55555555);
};
const replicate16 = (cx: TContext, x: Inst) => { const t = spread16(cx, x); return e(cx, 'Or32', t, e(cx, 'Shl32', t, K(cx, 1))); };
/** ((S0 << n) + S1) mod 2^32; SCC = the sum's bits past 31 (shifted-out bits or the carry). */
const lshlAdd = (n: number): Translator => (cx) => {
  const a = s(cx, 'ssrc0'), b = s(cx, 'ssrc1');
  const sh = e(cx, 'Shl32', a, K(cx, n));
  d(cx, e(cx, 'IAdd32', sh, b));
  const out = K(cx, 32 - n), z = K(cx, 0);
  scc(cx, () => e(cx, 'OrU1', e(cx, 'INe32', e(cx, 'LShr32', a, out), z), cx.b.emit('UAddCarry32', listOf(sh, b, cx.b.u1(false)))));
};
/**
 * 64-bit bit-field extract: offset S1[5:0], width S1[22:16] (0..127; past the top bit the field
 * takes what is there, the signed form copies of the sign): (S0 >> off) shifted up by 64 − w and
 * back (by 0 where w ≥ 64); width 0 gives 0. SCC = result != 0.
 */
const bfe64 = (signed: boolean): Translator => (cx) => {
  const c = s(cx, 'ssrc1');
  const w = e(cx, 'And32', e(cx, 'LShr32', c, K(cx, 16)), K(cx, 0x7f));
  const t = e(cx, signed ? 'AShr64' : 'LShr64', src64(cx, 'ssrc0'), e(cx, 'And32', c, K(cx, 63)));
  const n = e(cx, 'ISub32', K(cx, 64), e(cx, 'UMin32', w, K(cx, 64)));
  const v = e(cx, signed ? 'AShr64' : 'LShr64', e(cx, 'Shl64', t, n), n);
  const w0 = e(cx, 'IEq32', w, K(cx, 0));
  const lo = sel(cx, w0, K(cx, 0), e(cx, 'Lo32', v)), hi = sel(cx, w0, K(cx, 0), e(cx, 'Hi32', v));
  d(cx, lo, 0); d(cx, hi, 1);
  sccNz64(cx, lo, hi);
};
/** s_bitcmp0/1: SCC = bit S1[4:0] (b32) or S1[5:0] (b64) of S0 is `want`. */
const bitcmp = (wide: boolean, want: 0 | 1): Translator => (cx) => {
  const bit = wide ? e(cx, 'Lo32', e(cx, 'LShr64', src64(cx, 'ssrc0'), s(cx, 'ssrc1'))) : e(cx, 'LShr32', s(cx, 'ssrc0'), s(cx, 'ssrc1'));
  const one = K(cx, 1), w = K(cx, want ^ 1);
  scc(cx, () => e(cx, 'INe32', e(cx, 'And32', bit, one), w));
};

Object.assign(SALU, {
  // --- SOP1 ---
  s_cmov_b64: (cx) => { const c = cx.b.getScc(); const lo = sel(cx, c, s(cx, 'ssrc0', 0), dOld(cx, 0)), hi = sel(cx, c, s(cx, 'ssrc0', 1), dOld(cx, 1)); d(cx, lo, 0); d(cx, hi, 1); },
  s_not_b64: (cx) => { const lo = not(cx, s(cx, 'ssrc0', 0)), hi = not(cx, s(cx, 'ssrc0', 1)); d(cx, lo, 0); d(cx, hi, 1); sccNz64(cx, lo, hi); },
  s_brev_b64: (cx) => { const lo = e(cx, 'BitReverse32', s(cx, 'ssrc0', 1)), hi = e(cx, 'BitReverse32', s(cx, 'ssrc0', 0)); d(cx, lo, 0); d(cx, hi, 1); },
  s_bcnt0_i32_b32: (cx) => { const r = e(cx, 'ISub32', K(cx, 32), e(cx, 'BitCount32', s(cx, 'ssrc0'))); d(cx, r); sccNz(cx, r); },
  s_bcnt0_i32_b64: (cx) => { const r = e(cx, 'ISub32', K(cx, 64), e(cx, 'IAdd32', e(cx, 'BitCount32', s(cx, 'ssrc0', 0)), e(cx, 'BitCount32', s(cx, 'ssrc0', 1)))); d(cx, r); sccNz(cx, r); },
  s_ff0_i32_b32: (cx) => d(cx, e(cx, 'FindLsb32', not(cx, s(cx, 'ssrc0')))),
  s_ff0_i32_b64: (cx) => d(cx, ff64(cx, not(cx, s(cx, 'ssrc0', 0)), not(cx, s(cx, 'ssrc0', 1)))),
  s_flbit_i32_b32: (cx) => d(cx, flbit32(cx, s(cx, 'ssrc0'))),
  s_flbit_i32_b64: (cx) => d(cx, flbit64(cx, s(cx, 'ssrc0', 0), s(cx, 'ssrc0', 1))),
  // Leading bits equal to the sign bit: the leading zeros of x ^ (copies of its sign); −1 for 0 and −1.
  s_flbit_i32: (cx) => { const x = s(cx, 'ssrc0'); d(cx, flbit32(cx, e(cx, 'Xor32', x, e(cx, 'AShr32', x, K(cx, 31))))); },
  s_flbit_i32_i64: (cx) => {
    const lo = s(cx, 'ssrc0', 0), hi = s(cx, 'ssrc0', 1), sg = e(cx, 'AShr32', hi, K(cx, 31));
    d(cx, flbit64(cx, e(cx, 'Xor32', lo, sg), e(cx, 'Xor32', hi, sg)));
  },
  s_sext_i32_i8: (cx) => d(cx, e(cx, 'AShr32', e(cx, 'Shl32', s(cx, 'ssrc0'), K(cx, 24)), K(cx, 24))),
  s_sext_i32_i16: (cx) => d(cx, e(cx, 'AShr32', e(cx, 'Shl32', s(cx, 'ssrc0'), K(cx, 16)), K(cx, 16))),
  // D.b32[S0[4:0]] / D.b64[S0[5:0]] = 0 or 1 (Shl32/Shl64 take the amount modulo 32/64).
  s_bitset0_b32: (cx) => d(cx, e(cx, 'And32', dOld(cx), not(cx, e(cx, 'Shl32', K(cx, 1), s(cx, 'ssrc0'))))),
  s_bitset1_b32: (cx) => d(cx, e(cx, 'Or32', dOld(cx), e(cx, 'Shl32', K(cx, 1), s(cx, 'ssrc0')))),
  s_bitset0_b64: (cx) => { const m = e(cx, 'Shl64', cx.pack(K(cx, 1), K(cx, 0)), s(cx, 'ssrc0')); const v = [e(cx, 'And32', dOld(cx, 0), not(cx, e(cx, 'Lo32', m))), e(cx, 'And32', dOld(cx, 1), not(cx, e(cx, 'Hi32', m)))]; v.forEach((x, k) => d(cx, x, k)); },
  s_bitset1_b64: (cx) => { const m = e(cx, 'Shl64', cx.pack(K(cx, 1), K(cx, 0)), s(cx, 'ssrc0')); const v = [e(cx, 'Or32', dOld(cx, 0), e(cx, 'Lo32', m)), e(cx, 'Or32', dOld(cx, 1), e(cx, 'Hi32', m))]; v.forEach((x, k) => d(cx, x, k)); },
  s_abs_i32: (cx) => { const x = s(cx, 'ssrc0'); const r = sel(cx, e(cx, 'SLt32', x, K(cx, 0)), e(cx, 'ISub32', K(cx, 0), x), x); d(cx, r); sccNz(cx, r); },
  s_bitreplicate_b64_b32: (cx) => { const x = s(cx, 'ssrc0'); d(cx, replicate16(cx, x), 0); d(cx, replicate16(cx, e(cx, 'LShr32', x, K(cx, 16))), 1); },
  s_quadmask_b32: (cx) => { const r = quad32(cx, s(cx, 'ssrc0')); d(cx, r); sccNz(cx, r); },
  s_quadmask_b64: (cx) => { const r = e(cx, 'Or32', quad32(cx, s(cx, 'ssrc0', 0)), e(cx, 'Shl32', quad32(cx, s(cx, 'ssrc0', 1)), K(cx, 8))); d(cx, r, 0); d(cx, K(cx, 0), 1); sccNz(cx, r); },
  s_wqm_b32: (cx) => { const r = wqm32(cx, s(cx, 'ssrc0')); d(cx, r); sccNz(cx, r); },
  s_wqm_b64: (cx) => { const lo = wqm32(cx, s(cx, 'ssrc0', 0)), hi = wqm32(cx, s(cx, 'ssrc0', 1)); d(cx, lo, 0); d(cx, hi, 1); sccNz64(cx, lo, hi); },
  // --- SOP2 ---
  s_bfm_b32: (cx) => d(cx, e(cx, 'Shl32', e(cx, 'ISub32', e(cx, 'Shl32', K(cx, 1), s(cx, 'ssrc0')), K(cx, 1)), s(cx, 'ssrc1'))),
  s_bfm_b64: (cx) => { const one = cx.pack(K(cx, 1), K(cx, 0)); d64(cx, e(cx, 'Shl64', e(cx, 'ISub64', e(cx, 'Shl64', one, s(cx, 'ssrc0')), one), s(cx, 'ssrc1'))); },
  s_bfe_i32: (cx) => {
    const a = s(cx, 'ssrc0'), c = s(cx, 'ssrc1');
    const r = e(cx, 'SBfe32', a, e(cx, 'And32', c, K(cx, 31)), e(cx, 'And32', e(cx, 'LShr32', c, K(cx, 16)), K(cx, 0x7f)));
    d(cx, r); sccNz(cx, r);
  },
  s_bfe_u64: bfe64(false), s_bfe_i64: bfe64(true),
  s_absdiff_i32: (cx) => { const a = s(cx, 'ssrc0'), b = s(cx, 'ssrc1'); const r = sel(cx, e(cx, 'SGt32', a, b), e(cx, 'ISub32', a, b), e(cx, 'ISub32', b, a)); d(cx, r); sccNz(cx, r); },
  s_lshl1_add_u32: lshlAdd(1), s_lshl2_add_u32: lshlAdd(2), s_lshl3_add_u32: lshlAdd(3), s_lshl4_add_u32: lshlAdd(4),
  s_pack_ll_b32_b16: (cx) => d(cx, e(cx, 'Or32', e(cx, 'And32', s(cx, 'ssrc0'), K(cx, 0xffff)), e(cx, 'Shl32', s(cx, 'ssrc1'), K(cx, 16)))),
  s_pack_lh_b32_b16: (cx) => d(cx, e(cx, 'Or32', e(cx, 'And32', s(cx, 'ssrc0'), K(cx, 0xffff)), e(cx, 'And32', s(cx, 'ssrc1'), K(cx, 0xffff0000)))),
  s_pack_hh_b32_b16: (cx) => d(cx, e(cx, 'Or32', e(cx, 'LShr32', s(cx, 'ssrc0'), K(cx, 16)), e(cx, 'And32', s(cx, 'ssrc1'), K(cx, 0xffff0000)))),
  // --- SOPK ---
  s_cmovk_i32: (cx) => d(cx, sel(cx, cx.b.getScc(), K(cx, (simm16(cx) << 16) >> 16), cx.scalar(cx.op('sdst').value, 'b32'))),
  s_mulk_i32: (cx) => d(cx, e(cx, 'IMul32', cx.scalar(cx.op('sdst').value, 'b32'), K(cx, (simm16(cx) << 16) >> 16))),
  s_version: () => undefined,
  // --- SOPC ---
  s_bitcmp0_b32: bitcmp(false, 0), s_bitcmp1_b32: bitcmp(false, 1), s_bitcmp0_b64: bitcmp(true, 0), s_bitcmp1_b64: bitcmp(true, 1),
} satisfies Record<string, Translator>);

/** 64-bit shifts: the amount is S1[5:0]; SCC = result != 0. */
function shift64(cx: TContext, op: 'Shl64' | 'LShr64' | 'AShr64'): void {
  const v = cx.b.value(SHIFT64[op], cx.pack(s(cx, 'ssrc0', 0), s(cx, 'ssrc0', 1)), cx.b.value(AND32, s(cx, 'ssrc1'), cx.b.u32(63)));
  const lo = cx.b.value(LO32, v), hi = cx.b.value(HI32, v);
  d(cx, lo, 0); d(cx, hi, 1);
  sccNz64(cx, lo, hi);
}

for (const [name, f] of Object.entries(LOGIC)) {
  // andn1/orn1 exist only as saveexec forms.
  if (name !== 'andn1' && name !== 'orn1') {
    SALU[`s_${name}_b32`] = (cx) => { const r = f(cx, s(cx, 'ssrc0'), s(cx, 'ssrc1')); d(cx, r); sccNz(cx, r); };
    SALU[`s_${name}_b64`] = logic64(f);
  }
  SALU[`s_${name}_saveexec_b32`] = saveexec(false, f);
  SALU[`s_${name}_saveexec_b64`] = saveexec(true, f);
}
for (const name of ['andn1', 'andn2'] as const) {
  const f = LOGIC[name];
  if (!f) throw new Error(name);
  SALU[`s_${name}_wrexec_b32`] = saveexec(false, f, true);
  SALU[`s_${name}_wrexec_b64`] = saveexec(true, f, true);
}
for (const [c, sOp, uOp] of CMP) {
  const si = opRef(sOp), un = opRef(uOp);
  SALU[`s_cmp_${c}_i32`] = (cx) => sccOp(cx, si, s(cx, 'ssrc0'), s(cx, 'ssrc1'));
  SALU[`s_cmp_${c}_u32`] = (cx) => sccOp(cx, un, s(cx, 'ssrc0'), s(cx, 'ssrc1'));
  SALU[`s_cmpk_${c}_i32`] = (cx) => sccOp(cx, si, cx.scalar(cx.op('sdst').value, 'b32'), cx.b.u32((simm16(cx) << 16) >> 16));
  SALU[`s_cmpk_${c}_u32`] = (cx) => sccOp(cx, un, cx.scalar(cx.op('sdst').value, 'b32'), cx.b.u32(simm16(cx)));
}
