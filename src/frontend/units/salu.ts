// SALU (SOP1, SOP2, SOPK, SOPC) to IR: wave-uniform u32 values, SCC as u1. The first slice:
// moves, 32-bit arithmetic with SCC carries and overflow, logic and shifts (b32 and b64),
// compares, selects, multiplies, bit-field extracts, EXEC save/restore, s_getpc_b64.
import type { Inst } from '../../ir/ir.js';
import { EXEC_LO, type TContext, type Translator } from '../context.js';

const s = (cx: TContext, name: string, k = 0) => cx.scalar(cx.op(name).value, cx.typeOf(name), k);
const d = (cx: TContext, v: Inst, k = 0) => cx.writeScalar(cx.op('sdst').value, v, k);
const scc = (cx: TContext, v: Inst) => cx.b.emit('SetScc', [v]);
const nz = (cx: TContext, v: Inst) => cx.b.emit('INe32', [v, cx.u32(0)]);
const simm16 = (cx: TContext) => { const v = cx.op('simm16').value; return v.kind === 'imm' ? v.value & 0xffff : 0; };

type Bin = 'IAdd32' | 'ISub32' | 'And32' | 'Or32' | 'Xor32' | 'Shl32' | 'LShr32' | 'AShr32' | 'IMul32' | 'UMin32' | 'UMax32' | 'SMin32' | 'SMax32' | 'UMulHi32' | 'SMulHi32';

/** A 32-bit binary op with SCC = result != 0 (logic, shifts) or unchanged (mul). */
const bin32 = (op: Bin, sccNonZero: boolean, pre?: (cx: TContext, b: Inst) => Inst): Translator => (cx) => {
  const a = s(cx, 'ssrc0');
  const b0 = s(cx, 'ssrc1');
  const r = cx.b.emit(op, [a, pre ? pre(cx, b0) : b0]);
  d(cx, r);
  if (sccNonZero) scc(cx, nz(cx, r));
};

/** A logic op on b64 pairs, dword by dword; SCC = result != 0. */
const logic64 = (f: (cx: TContext, a: Inst, b: Inst) => Inst): Translator => (cx) => {
  const lo = f(cx, s(cx, 'ssrc0', 0), s(cx, 'ssrc1', 0));
  const hi = f(cx, s(cx, 'ssrc0', 1), s(cx, 'ssrc1', 1));
  d(cx, lo, 0); d(cx, hi, 1);
  scc(cx, nz(cx, cx.b.emit('Or32', [lo, hi])));
};

const not = (cx: TContext, a: Inst) => cx.b.emit('Not32', [a]);
const LOGIC: Record<string, (cx: TContext, a: Inst, b: Inst) => Inst> = {
  and: (cx, a, b) => cx.b.emit('And32', [a, b]),
  or: (cx, a, b) => cx.b.emit('Or32', [a, b]),
  xor: (cx, a, b) => cx.b.emit('Xor32', [a, b]),
  andn2: (cx, a, b) => cx.b.emit('And32', [a, not(cx, b)]),
  orn2: (cx, a, b) => cx.b.emit('Or32', [a, not(cx, b)]),
  nand: (cx, a, b) => not(cx, cx.b.emit('And32', [a, b])),
  nor: (cx, a, b) => not(cx, cx.b.emit('Or32', [a, b])),
  xnor: (cx, a, b) => not(cx, cx.b.emit('Xor32', [a, b])),
};

type Cmp = 'IEq32' | 'INe32' | 'ULt32' | 'ULe32' | 'UGt32' | 'UGe32' | 'SLt32' | 'SLe32' | 'SGt32' | 'SGe32';
const CMP: [string, Cmp, Cmp][] = [['eq', 'IEq32', 'IEq32'], ['lg', 'INe32', 'INe32'], ['gt', 'SGt32', 'UGt32'], ['ge', 'SGe32', 'UGe32'], ['lt', 'SLt32', 'ULt32'], ['le', 'SLe32', 'ULe32']];

/** The saveexec family: D = EXEC; EXEC = f(S0, EXEC); SCC = EXEC != 0 (one dword per lane-mask dword). */
const saveexec = (wide: boolean, f: (cx: TContext, s0: Inst, e: Inst) => Inst): Translator => (cx) => {
  if (wide !== (cx.waveSize === 64)) cx.fail(`${cx.inst.def.mnemonic} in a wave${cx.waveSize} shader`);
  const n = wide ? 2 : 1;
  const olds = Array.from({ length: n }, (_, k) => cx.b.emit('GetSgpr', [], [EXEC_LO + k]));
  const news = olds.map((e, k) => f(cx, s(cx, 'ssrc0', k), e));
  news.forEach((v, k) => cx.b.emit('SetSgpr', [v], [EXEC_LO + k]));
  olds.forEach((v, k) => d(cx, v, k));
  const any = news.length === 2 ? cx.b.emit('Or32', [news[0] as Inst, news[1] as Inst]) : (news[0] as Inst);
  scc(cx, nz(cx, any));
};

/** Signed overflow of r = a + b (add: (a ^ r) & (b ^ r) < 0) or r = a - b (sub: (a ^ b) & (a ^ r) < 0). */
function signedOverflow(cx: TContext, a: Inst, b: Inst, r: Inst, sub: boolean): Inst {
  const x = (p: Inst, q: Inst) => cx.b.emit('Xor32', [p, q]);
  return cx.b.emit('SLt32', [cx.b.emit('And32', sub ? [x(a, b), x(a, r)] : [x(a, r), x(b, r)]), cx.u32(0)]);
}

const add32 = (signed: boolean, sub: boolean, withCarry: boolean): Translator => (cx) => {
  const a = s(cx, 'ssrc0'), b = s(cx, 'ssrc1');
  const cin = withCarry ? cx.b.emit('GetScc') : cx.b.u1(false);
  const r0 = cx.b.emit(sub ? 'ISub32' : 'IAdd32', [a, b]);
  const r = withCarry ? cx.b.emit(sub ? 'ISub32' : 'IAdd32', [r0, cx.b.emit('U1ToU32', [cin])]) : r0;
  d(cx, r);
  if (signed) scc(cx, signedOverflow(cx, a, b, r, sub));
  else scc(cx, cx.b.emit(sub ? 'USubBorrow32' : 'UAddCarry32', [a, b, cin]));
};

export const SALU: Record<string, Translator> = {
  s_mov_b32: (cx) => d(cx, s(cx, 'ssrc0')),
  s_mov_b64: (cx) => { d(cx, s(cx, 'ssrc0', 0), 0); d(cx, s(cx, 'ssrc0', 1), 1); },
  s_movk_i32: (cx) => d(cx, cx.u32((simm16(cx) << 16) >> 16)),
  s_cmov_b32: (cx) => d(cx, cx.b.emit('Select32', [cx.b.emit('GetScc'), s(cx, 'ssrc0'), cx.scalar(cx.op('sdst').value, 'b32')])),
  s_not_b32: (cx) => { const r = not(cx, s(cx, 'ssrc0')); d(cx, r); scc(cx, nz(cx, r)); },
  s_add_u32: add32(false, false, false), s_addc_u32: add32(false, false, true),
  s_sub_u32: add32(false, true, false), s_subb_u32: add32(false, true, true),
  s_add_i32: add32(true, false, false), s_sub_i32: add32(true, true, false),
  s_lshl_b32: bin32('Shl32', true), s_lshr_b32: bin32('LShr32', true), s_ashr_i32: bin32('AShr32', true),
  s_mul_i32: bin32('IMul32', false), s_mul_hi_u32: bin32('UMulHi32', false), s_mul_hi_i32: bin32('SMulHi32', false),
  s_cselect_b32: (cx) => d(cx, cx.b.emit('Select32', [cx.b.emit('GetScc'), s(cx, 'ssrc0'), s(cx, 'ssrc1')])),
  s_cselect_b64: (cx) => { const c = cx.b.emit('GetScc'); for (const k of [0, 1]) d(cx, cx.b.emit('Select32', [c, s(cx, 'ssrc0', k), s(cx, 'ssrc1', k)]), k); },
  s_bfe_u32: (cx) => {
    const a = s(cx, 'ssrc0'), c = s(cx, 'ssrc1');
    const r = cx.b.emit('UBfe32', [a, cx.b.emit('And32', [c, cx.u32(31)]), cx.b.emit('And32', [cx.b.emit('LShr32', [c, cx.u32(16)]), cx.u32(0x7f)])]);
    d(cx, r); scc(cx, nz(cx, r));
  },
  s_min_u32: (cx) => { const a = s(cx, 'ssrc0'), b = s(cx, 'ssrc1'); d(cx, cx.b.emit('UMin32', [a, b])); scc(cx, cx.b.emit('ULt32', [a, b])); },
  s_max_u32: (cx) => { const a = s(cx, 'ssrc0'), b = s(cx, 'ssrc1'); d(cx, cx.b.emit('UMax32', [a, b])); scc(cx, cx.b.emit('UGt32', [a, b])); },
  s_min_i32: (cx) => { const a = s(cx, 'ssrc0'), b = s(cx, 'ssrc1'); d(cx, cx.b.emit('SMin32', [a, b])); scc(cx, cx.b.emit('SLt32', [a, b])); },
  s_max_i32: (cx) => { const a = s(cx, 'ssrc0'), b = s(cx, 'ssrc1'); d(cx, cx.b.emit('SMax32', [a, b])); scc(cx, cx.b.emit('SGt32', [a, b])); },
  s_cmp_eq_u64: (cx) => scc(cx, cx.b.emit('IEq64', [cx.pack(s(cx, 'ssrc0', 0), s(cx, 'ssrc0', 1)), cx.pack(s(cx, 'ssrc1', 0), s(cx, 'ssrc1', 1))])),
  s_cmp_lg_u64: (cx) => scc(cx, cx.b.emit('INe64', [cx.pack(s(cx, 'ssrc0', 0), s(cx, 'ssrc0', 1)), cx.pack(s(cx, 'ssrc1', 0), s(cx, 'ssrc1', 1))])),
  s_brev_b32: (cx) => d(cx, cx.b.emit('BitReverse32', [s(cx, 'ssrc0')])),
  s_addk_i32: (cx) => {
    const a = cx.scalar(cx.op('sdst').value, 'b32'), k = cx.u32((simm16(cx) << 16) >> 16);
    const r = cx.b.emit('IAdd32', [a, k]);
    d(cx, r);
    scc(cx, signedOverflow(cx, a, k, r, false));
  },
  s_ff1_i32_b32: (cx) => d(cx, cx.b.emit('FindLsb32', [s(cx, 'ssrc0')])),
  s_ff1_i32_b64: (cx) => {
    const lo = s(cx, 'ssrc0', 0), hi = s(cx, 'ssrc0', 1);
    const fh = cx.b.emit('FindLsb32', [hi]);
    d(cx, cx.b.emit('Select32', [cx.b.emit('INe32', [lo, cx.u32(0)]), cx.b.emit('FindLsb32', [lo]), cx.b.emit('Select32', [cx.b.emit('INe32', [hi, cx.u32(0)]), cx.b.emit('IAdd32', [fh, cx.u32(32)]), cx.u32(0xffffffff)])]));
  },
  s_bcnt1_i32_b32: (cx) => { const r = cx.b.emit('BitCount32', [s(cx, 'ssrc0')]); d(cx, r); scc(cx, nz(cx, r)); },
  s_bcnt1_i32_b64: (cx) => { const r = cx.b.emit('IAdd32', [cx.b.emit('BitCount32', [s(cx, 'ssrc0', 0)]), cx.b.emit('BitCount32', [s(cx, 'ssrc0', 1)])]); d(cx, r); scc(cx, nz(cx, r)); },
  s_lshl_b64: (cx) => shift64(cx, 'Shl64'), s_lshr_b64: (cx) => shift64(cx, 'LShr64'), s_ashr_i64: (cx) => shift64(cx, 'AShr64'),
  s_getpc_b64: (cx) => { const pc = cx.inst.pc + 4; d(cx, cx.u32(pc % 2 ** 32), 0); d(cx, cx.u32(Math.floor(pc / 2 ** 32)), 1); },
  // MODE writes with immediates: the float ops after them carry the mode the MODE analysis gives
  // them; the MODE value itself is kept for later reads.
  s_round_mode: (cx) => cx.b.emit('SetMode', [cx.b.emit('Or32', [cx.b.emit('And32', [cx.b.emit('GetMode'), cx.u32(~0xf)]), cx.u32(simm16(cx) & 0xf)])]),
  s_denorm_mode: (cx) => cx.b.emit('SetMode', [cx.b.emit('Or32', [cx.b.emit('And32', [cx.b.emit('GetMode'), cx.u32(~0xf0)]), cx.u32((simm16(cx) & 0xf) << 4)])]),
  s_waitcnt_vscnt: () => undefined, s_waitcnt_vmcnt: () => undefined, s_waitcnt_lgkmcnt: () => undefined, s_waitcnt_expcnt: () => undefined,
};

/** 64-bit shifts: the amount is S1[5:0]; SCC = result != 0. */
function shift64(cx: TContext, op: 'Shl64' | 'LShr64' | 'AShr64'): void {
  const v = cx.b.emit(op, [cx.pack(s(cx, 'ssrc0', 0), s(cx, 'ssrc0', 1)), cx.b.emit('And32', [s(cx, 'ssrc1'), cx.u32(63)])]);
  const lo = cx.b.emit('Lo32', [v]), hi = cx.b.emit('Hi32', [v]);
  d(cx, lo, 0); d(cx, hi, 1);
  scc(cx, nz(cx, cx.b.emit('Or32', [lo, hi])));
}

for (const [name, f] of Object.entries(LOGIC)) {
  SALU[`s_${name}_b32`] = (cx) => { const r = f(cx, s(cx, 'ssrc0'), s(cx, 'ssrc1')); d(cx, r); scc(cx, nz(cx, r)); };
  SALU[`s_${name}_b64`] = logic64(f);
  SALU[`s_${name}_saveexec_b32`] = saveexec(false, f);
  SALU[`s_${name}_saveexec_b64`] = saveexec(true, f);
}
for (const [c, si, un] of CMP) {
  SALU[`s_cmp_${c}_i32`] = (cx) => scc(cx, cx.b.emit(si, [s(cx, 'ssrc0'), s(cx, 'ssrc1')]));
  SALU[`s_cmp_${c}_u32`] = (cx) => scc(cx, cx.b.emit(un, [s(cx, 'ssrc0'), s(cx, 'ssrc1')]));
  SALU[`s_cmpk_${c}_i32`] = (cx) => scc(cx, cx.b.emit(si, [cx.scalar(cx.op('sdst').value, 'b32'), cx.u32((simm16(cx) << 16) >> 16)]));
  SALU[`s_cmpk_${c}_u32`] = (cx) => scc(cx, cx.b.emit(un, [cx.scalar(cx.op('sdst').value, 'b32'), cx.u32(simm16(cx))]));
}
