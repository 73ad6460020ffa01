// VALU (VOP1/VOP2/VOP3/VOPC, e32 and e64 forms) to IR, one invocation per lane. Sources are read
// by their table types (float neg/abs as sign-bit operations on the raw bits), results land in
// the active lanes only, carries and compares become lane masks (the ballot of each lane's bit),
// v_cmpx writes EXEC. Float ops carry the FloatMode the MODE analysis gives the instruction.
// The integer ops of 32 and 64 bits (every VOPC integer compare; not the 16-bit ones, which are in
// valu-int16.ts; v_cmp_class_f64 is in valu-f64.ts) and the f32 operations of the first slice; the
// DPP16/DPP8 forms read src0 through ./dpp.ts and write only its lanes; the SDWA forms select
// their sources' bytes/words and write dst_sel's field through ./valu-io.ts (VOPC SDWA: its sdst
// is the mask destination); op_sel is refused with the instruction.
//
// VOP3 output modifiers follow the interpreter's semantics instruction by instruction (OutMods):
// on an f32 result clamp/omod become an FOutMod32 op under the instruction's FloatMode (lowered
// exactly, src/ir/passes/lower-float-modifiers.ts); integer adds/subs with clamp saturate
// (unsigned, signed, carry forms, v_mad_u64_u32) and ignore omod; float compares ignore both; a
// float op with an integer result ignores clamp and refuses omod; every other instruction refuses
// both, as the interpreter does ('... with clamp/omod is not modelled').
import type { Operand } from '../../decode/types.js';
import type { DataType } from '../../isa/types.js';
import { type FloatMode, type Inst, NO_IMMS, listOf } from '../../ir/ir.js';
import type { Op } from '../../ir/ops.js';
import { EXEC_LO, OPD_16, OPD_64, OPD_DST, OPD_MASK, OPD_SRC, operandLayout, opRef, type TContext, type Translator, VCC_LO } from '../context.js';
import { dppLanes } from './dpp.js';
import { sdwaSelect, sdwaWrite } from './valu-io.js';

/** The ops this unit's common paths emit at most instructions, their entries found once (context.ts `opRef`). */
const AND32 = opRef('And32'), XOR32 = opRef('Xor32'), LO32 = opRef('Lo32'), HI32 = opRef('Hi32'), AS_F32 = opRef('BitcastU32F32'), AS_U32 = opRef('BitcastF32U32');
const IADD32 = opRef('IAdd32'), ISUB32 = opRef('ISub32'), AND_U1 = opRef('AndU1'), SELECT32 = opRef('Select32'), U1_TO_U32 = opRef('U1ToU32');
const UADD_CARRY32 = opRef('UAddCarry32'), USUB_BORROW32 = opRef('USubBorrow32');
const ULT32 = opRef('ULt32'), BIT_COUNT32 = opRef('BitCount32'), SHL32 = opRef('Shl32'), SHL64 = opRef('Shl64'), IADD3_32 = opRef('IAdd3_32'), IADD64 = opRef('IAdd64'), UMUL_WIDE32 = opRef('UMulWide32'), ULT64 = opRef('ULt64');

/**
 * What an instruction does with clamp/omod (as its interpreter semantics): 'refuse' (not modelled),
 * 'f32' (FOutMod32 on the f32 result), 'int-clamp' (clamp saturates, omod ignored), 'ignore'
 * (float compares), 'int-result' (a float op with an integer result: clamp moot, omod refused).
 */
type OutMods = 'refuse' | 'f32' | 'int-clamp' | 'ignore' | 'int-result';

/**
 * An instruction's operands as `io` reads them. One record per context (TContext.valuIo), written
 * over at each instruction's `io` (each translator asks once, before it reads any field): a record
 * and a list of sources per instruction were most of what the unit allocated besides the IR.
 */
interface Io {
  /** The sources: the first `n` (the list is the record's, its slots from `n` on left from earlier instructions). */
  srcs: (Inst | undefined)[]; n: number;
  maskIn: Inst | undefined; vdst: Operand | undefined; maskDst: Operand | undefined; vdst64: boolean;
  /** The lanes the results land in: EXEC, narrowed by a DPP form's rules (./dpp.ts). */
  active: Inst;
  /** Source `k` of the record (`src`), as the one function `int` hands its ops: made with the record, not per instruction. */
  readonly at: (k: number) => Inst;
}

/** Reads the sources (32-bit as u32, 64-bit as u64; a DPP form's src0 from its source lane) and finds the destinations. */
function io(cx: TContext, mods: OutMods = 'refuse'): Io {
  const i = cx.inst;
  const sdwa = i.variant === 'sdwa' ? i.mods.sdwa ?? cx.fail('an SDWA form without its selects') : undefined;
  if (sdwa) cx.sdwaApplied = true;
  const dpp = i.variant === 'dpp16' || i.variant === 'dpp8' ? dppLanes(cx) : undefined;
  if (i.mods.opsel) cx.fail('op_sel is not translated yet');
  if ((i.mods.clamp || i.mods.omod) && mods === 'refuse') cx.fail(`${i.def.mnemonic} with clamp/omod is not modelled (the interpreter refuses it too)`);
  if (i.mods.omod && mods === 'int-result') cx.fail(`${i.def.mnemonic}: omod on an integer result is not modelled (the interpreter refuses it too)`);
  let layout = cx.layout;
  if (layout === undefined || layout.def !== i.def) layout = operandLayout(i.def); // a context translate did not set
  const codes = layout.codes;
  if (codes.length !== i.operands.length) cx.fail('operand layout not understood');
  // The record's list of sources, the first `n` filled (`src` reads a slot from `n` on as missing).
  const ops = i.operands;
  let o = cx.valuIo as Io | undefined;
  const srcs = o ? o.srcs : [];
  let n = 0;
  let maskIn: Inst | undefined, vdst: Operand | undefined, maskDst: Operand | undefined, vdst64 = false;
  // Indexed, with `continue`: no closure per instruction.
  for (let k = 0; k < ops.length; k++) {
    const c = codes[k] as number;
    if (c === 0) continue;
    const op = ops[k] as Operand;
    if (c & OPD_DST) {
      if (c & OPD_MASK) maskDst = op; else { vdst = op; vdst64 = (c & OPD_64) !== 0; }
    }
    if (c & OPD_SRC) {
      if (c & OPD_MASK) { maskIn = cx.maskBit(op.value); continue; }
      if (c & OPD_16) cx.fail('16-bit operands are not translated yet');
      const type = layout.types[k] as DataType;
      if (c & OPD_64) {
        if (dpp && op.name === 'src0') cx.fail('a DPP form with a 64-bit src0 (internal)');
        let hi = cx.lane(op.value, type, 1);
        const lo = cx.lane(op.value, type, 0);
        if (op.abs) hi = cx.b.value(AND32, hi, cx.b.u32(0x7fffffff));
        if (op.neg) hi = cx.b.value(XOR32, hi, cx.b.u32(0x80000000));
        srcs[n++] = cx.pack(lo, hi);
      } else {
        let v = cx.lane(op.value, type, 0);
        if (dpp && op.name === 'src0') v = dpp.src0(v);
        // SDWA: src0_sel / src1_sel (VOP2's vsrc1 too), sign-extended with sext, before neg/abs (as the interpreter).
        if (sdwa) v = sdwaSelect(cx, v, op.name === 'src0' ? sdwa.src0Sel : op.name === 'src1' || op.name === 'vsrc1' ? sdwa.src1Sel ?? 6 : 6, op.sext ?? false);
        if (op.abs) v = cx.b.value(AND32, v, cx.b.u32(0x7fffffff));
        if (op.neg) v = cx.b.value(XOR32, v, cx.b.u32(0x80000000));
        srcs[n++] = v;
      }
    }
  }
  const active = dpp?.active ?? cx.execBit();
  if (!o) cx.valuIo = o = newIo(cx, srcs, active);
  o.n = n; o.maskIn = maskIn; o.vdst = vdst; o.maskDst = maskDst; o.vdst64 = vdst64; o.active = active;
  return o;
}

/**
 * The context's io record, its fields set by `io`. A function of its own: its `at` closes over
 * the context, and a closure made in `io` had V8 allocate a context for `io`'s variables at every
 * call, not only at the one that makes the record.
 */
function newIo(cx: TContext, srcs: (Inst | undefined)[], active: Inst): Io {
  const r: Io = { srcs, n: 0, maskIn: undefined, vdst: undefined, maskDst: undefined, vdst64: false, active, at: (k) => src(r, k, cx) };
  return r;
}

function result(cx: TContext, o: Io, r: Inst): void {
  if (!o.vdst) cx.fail('no destination');
  const active = o.active;
  if (o.vdst64) {
    cx.writeLane(o.vdst.value, cx.b.value(LO32, r), 0, active);
    cx.writeLane(o.vdst.value, cx.b.value(HI32, r), 1, active);
  } else if (cx.inst.variant !== 'sdwa' || !sdwaWrite(cx, o.vdst, r, active)) cx.writeLane(o.vdst.value, r, 0, active);
}

/** An f32 result with the instruction's clamp/omod applied (FOutMod32 under `mode`), as u32 bits. */
function fout(cx: TContext, r: Inst, mode: FloatMode): Inst {
  const m = cx.inst.mods;
  const v = m.clamp || m.omod ? cx.b.emit('FOutMod32', listOf(r), listOf(m.omod ?? 0, m.clamp ? 1 : 0), { float: mode }) : r;
  return cx.b.value(AS_U32, v);
}

const clamped = (cx: TContext) => cx.inst.mods.clamp === true;

const u24 = (cx: TContext, v: Inst) => cx.b.emit('And32', listOf(v, cx.b.u32(0xffffff)));
const i24 = (cx: TContext, v: Inst) => cx.b.emit('AShr32', listOf(cx.b.emit('Shl32', listOf(v, cx.b.u32(8))), cx.b.u32(8)));
const src = (o: Io, k: number, cx: TContext): Inst => (k < o.n ? o.srcs[k] : undefined) ?? cx.fail(`missing source ${k}`);

/** A 32-bit integer op from the sources. */
const int = (f: (cx: TContext, s: (k: number) => Inst) => Inst): Translator => (cx) => {
  const o = io(cx);
  result(cx, o, f(cx, o.at));
};
/** A 32-bit binary op (`swap`: of src1, src0). */
const bin = (op: Op, swap = false): Translator => {
  const r = opRef(op);
  return (cx) => {
    const o = io(cx);
    let a: Inst, b: Inst;
    if (swap) { b = src(o, 1, cx); a = src(o, 0, cx); } else { a = src(o, 0, cx); b = src(o, 1, cx); }
    result(cx, o, swap ? cx.b.value(r, b, a) : cx.b.value(r, a, b));
  };
};

/** 32-bit add/sub whose clamp saturates: unsigned to [0, 2^32 − 1], signed to [−2^31, 2^31 − 1]; omod is ignored (as the interpreter). */
const satBin = (sub: boolean, signed: boolean, swap = false): Translator => (cx) => {
  const o = io(cx, 'int-clamp');
  // Not destructured from a list: a list and (before optimisation) an iterator per instruction.
  let a: Inst, b: Inst;
  if (swap) { a = src(o, 1, cx); b = src(o, 0, cx); } else { a = src(o, 0, cx); b = src(o, 1, cx); }
  const x = cx.b;
  let r = x.value(sub ? ISUB32 : IADD32, a, b);
  if (clamped(cx)) {
    if (!signed) r = x.emit('Select32', listOf(x.emit(sub ? 'USubBorrow32' : 'UAddCarry32', listOf(a, b, x.u1(false))), cx.b.u32(sub ? 0 : 0xffffffff), r));
    else {
      // Overflow: add, a and b of one sign and r of the other; sub, a and b of different signs and r not a's. Saturate toward a's sign.
      const t = sub ? x.emit('And32', listOf(x.emit('Xor32', listOf(a, b)), x.emit('Xor32', listOf(a, r)))) : x.emit('And32', listOf(x.emit('Xor32', listOf(a, r)), x.emit('Xor32', listOf(b, r))));
      const over = x.emit('SLt32', listOf(t, cx.b.u32(0)));
      r = x.emit('Select32', listOf(over, x.emit('Select32', listOf(x.emit('SLt32', listOf(a, cx.b.u32(0))), cx.b.u32(0x80000000), cx.b.u32(0x7fffffff))), r));
    }
  }
  result(cx, o, r);
};

/** f32 arithmetic: bitcast in, the op with its FloatMode, bitcast out. */
const f32 = (op: 'FAdd32' | 'FSub32' | 'FMul32' | 'FFma32' | 'FMin32' | 'FMax32' | 'FDivFixup32', order?: readonly number[]): Translator => {
  // The sources' order chosen once, and the arguments made without a list and closure per instruction.
  const ks = order ?? (op === 'FFma32' || op === 'FDivFixup32' ? [0, 1, 2] : [0, 1]);
  const ternary = ks.length === 3, k0 = ks[0] as number, k1 = ks[1] as number, k2 = ks[2] as number;
  const r = opRef(op);
  return (cx) => {
    const o = io(cx, 'f32');
    const mode = cx.floatMode();
    const b = cx.b;
    const a0 = b.value(AS_F32, src(o, k0, cx)), a1 = b.value(AS_F32, src(o, k1, cx));
    const args = ternary ? [a0, a1, b.value(AS_F32, src(o, k2, cx))] : [a0, a1];
    result(cx, o, fout(cx, b.emitRef(r, args, NO_IMMS, { float: mode }), mode));
  };
};

/**
 * A unary op with its FloatMode; `fin`/`fout` say whether the source / result is f32 (bitcast
 * from / to the 32-bit register value) or an integer.
 */
const unary = (op: Op, fin: boolean, fo: boolean): Translator => {
  const ref = opRef(op);
  return (cx) => {
    const o = io(cx, fo ? 'f32' : 'int-result');
    const a = fin ? cx.b.value(AS_F32, src(o, 0, cx)) : src(o, 0, cx);
    const mode = cx.floatMode();
    const r = cx.b.emitRef(ref, listOf(a), NO_IMMS, { float: mode });
    result(cx, o, fo ? fout(cx, r, mode) : r);
  };
};
/** f32 → f32 unary ops. */
const f32un = (op: 'FFloor32' | 'FCeil32' | 'FTrunc32' | 'FRndne32' | 'FRcp32' | 'FSqrt32' | 'FRsq32' | 'FFrexpMant32' | 'FFract32' | 'FExp32' | 'FLog32' | 'FSin32' | 'FCos32'): Translator => unary(op, true, true);

/**
 * v_cmp_class_f32: the bit of the class mask (src1) for src0's class, from the raw bits (no
 * flushing): 0 sNaN, 1 qNaN, 2 -inf, 3 -normal, 4 -denormal, 5 -0, 6 +0, 7 +denormal, 8 +normal, 9 +inf.
 */
function classBit(cx: TContext, a: Inst, mask: Inst): Inst {
  const b = cx.b, c = (v: number) => cx.b.u32(v);
  const sign = b.emit('INe32', listOf(b.emit('LShr32', listOf(a, c(31))), c(0)));
  const exp = b.emit('And32', listOf(b.emit('LShr32', listOf(a, c(23))), c(0xff)));
  const frac = b.emit('And32', listOf(a, c(0x7fffff)));
  const s = (pos: number, neg: number) => b.emit('Select32', listOf(sign, c(neg), c(pos)));
  const fracZero = b.emit('IEq32', listOf(frac, c(0)));
  let cls = s(8, 3);
  cls = b.emit('Select32', listOf(b.emit('IEq32', listOf(exp, c(0))), b.emit('Select32', listOf(fracZero, s(6, 5), s(7, 4))), cls));
  const nanCls = b.emit('Select32', listOf(b.emit('INe32', listOf(b.emit('And32', listOf(a, c(0x400000))), c(0))), c(1), c(0)));
  cls = b.emit('Select32', listOf(b.emit('IEq32', listOf(exp, c(0xff))), b.emit('Select32', listOf(fracZero, s(9, 2), nanCls)), cls));
  return b.emit('INe32', listOf(b.emit('And32', listOf(b.emit('LShr32', listOf(mask, cls)), c(1))), c(0)));
}

/** Carry ops: the result, and the carry as a lane mask. */
const carry = (sub: boolean, rev: boolean, withIn: boolean): Translator => (cx) => {
  const o = io(cx, 'int-clamp');
  let a: Inst, b: Inst;
  if (rev) { a = src(o, 1, cx); b = src(o, 0, cx); } else { a = src(o, 0, cx); b = src(o, 1, cx); }
  const cin = withIn ? o.maskIn ?? cx.fail('no carry-in') : cx.b.u1(false);
  const r0 = cx.b.value(sub ? ISUB32 : IADD32, a, b);
  const r = withIn ? cx.b.value(sub ? ISUB32 : IADD32, r0, cx.b.value(U1_TO_U32, cin)) : r0;
  const c = cx.b.value(sub ? USUB_BORROW32 : UADD_CARRY32, a, b, cin);
  const active = o.active;
  // clamp: the exact result limited to [0, 2^32 − 1] (a carry out saturates high, a borrow low).
  result(cx, o, clamped(cx) ? cx.b.value(SELECT32, c, cx.b.u32(sub ? 0 : 0xffffffff), r) : r);
  if (o.maskDst) cx.writeMask(o.maskDst.value, cx.b.value(AND_U1, active, c));
};

type ICmp = 'IEq32' | 'INe32' | 'ULt32' | 'ULe32' | 'UGt32' | 'UGe32' | 'SLt32' | 'SLe32' | 'SGt32' | 'SGe32';

/** A compare: each active lane's bit to the mask destination (VCC / SGPRs), or to EXEC (cmpx). */
const compare = (f: (cx: TContext, o: Io) => Inst, x: boolean, mods: OutMods = 'refuse'): Translator => (cx) => {
  const o = io(cx, mods);
  const bit = cx.b.value(AND_U1, o.active, f(cx, o));
  if (x) {
    cx.b.emit('SetSgpr', listOf(cx.b.emit('BallotLo', listOf(bit))), listOf(EXEC_LO));
    if (cx.waveSize === 64) cx.b.emit('SetSgpr', listOf(cx.b.emit('BallotHi', listOf(bit))), listOf(EXEC_LO + 1));
  } else if (o.maskDst) cx.writeMask(o.maskDst.value, bit);
  else cx.fail('a compare without a destination');
};

const ICMPS: [string, ICmp, ICmp][] = [['eq', 'IEq32', 'IEq32'], ['ne', 'INe32', 'INe32'], ['lt', 'SLt32', 'ULt32'], ['le', 'SLe32', 'ULe32'], ['gt', 'SGt32', 'UGt32'], ['ge', 'SGe32', 'UGe32']];
/** VOPC float predicates in opcode order (FCmp's immediate). */
const FPRED = ['f', 'lt', 'eq', 'le', 'gt', 'lg', 'ge', 'o', 'u', 'nge', 'nlg', 'ngt', 'nle', 'neq', 'nlt', 'tru'] as const;

export const VALU: Record<string, Translator> = {
  v_mov_b32: (cx) => { const o = io(cx); result(cx, o, src(o, 0, cx)); },
  v_add_nc_u32: satBin(false, false), v_sub_nc_u32: satBin(true, false), v_subrev_nc_u32: satBin(true, false, true),
  v_add_nc_i32: satBin(false, true), v_sub_nc_i32: satBin(true, true),
  v_and_b32: bin('And32'), v_or_b32: bin('Or32'), v_xor_b32: bin('Xor32'),
  v_not_b32: int((cx, s) => cx.b.emit('Not32', listOf(s(0)))),
  // The shift amount is src0 (reversed operand order), taken mod 32.
  v_lshlrev_b32: bin('Shl32', true), v_lshrrev_b32: bin('LShr32', true), v_ashrrev_i32: bin('AShr32', true),
  v_mul_lo_u32: bin('IMul32'), v_mul_hi_u32: bin('UMulHi32'), v_mul_hi_i32: bin('SMulHi32'),
  v_min_u32: bin('UMin32'), v_max_u32: bin('UMax32'), v_min_i32: bin('SMin32'), v_max_i32: bin('SMax32'),
  v_add3_u32: int((cx, s) => cx.b.value(IADD3_32, s(0), s(1), s(2))),
  v_lshl_add_u32: int((cx, s) => cx.b.value(IADD32, cx.b.value(SHL32, s(0), s(1)), s(2))),
  v_add_lshl_u32: int((cx, s) => cx.b.emit('Shl32', listOf(cx.b.emit('IAdd32', listOf(s(0), s(1))), s(2)))),
  v_lshl_or_b32: int((cx, s) => cx.b.emit('Or32', listOf(cx.b.emit('Shl32', listOf(s(0), s(1))), s(2)))),
  v_and_or_b32: int((cx, s) => cx.b.emit('Or32', listOf(cx.b.emit('And32', listOf(s(0), s(1))), s(2)))),
  v_or3_b32: int((cx, s) => cx.b.emit('Or32', listOf(cx.b.emit('Or32', listOf(s(0), s(1))), s(2)))),
  v_xor3_b32: int((cx, s) => cx.b.emit('Xor32', listOf(cx.b.emit('Xor32', listOf(s(0), s(1))), s(2)))),
  v_bfe_u32: int((cx, s) => cx.b.emit('UBfe32', listOf(s(0), cx.b.emit('And32', listOf(s(1), cx.b.u32(31))), cx.b.emit('And32', listOf(s(2), cx.b.u32(31)))))),
  v_bfe_i32: int((cx, s) => cx.b.emit('SBfe32', listOf(s(0), cx.b.emit('And32', listOf(s(1), cx.b.u32(31))), cx.b.emit('And32', listOf(s(2), cx.b.u32(31)))))),
  v_cndmask_b32: (cx) => { const o = io(cx); result(cx, o, cx.b.value(SELECT32, o.maskIn ?? cx.fail('no mask'), src(o, 1, cx), src(o, 0, cx))); },
  v_add_co_u32: carry(false, false, false), v_sub_co_u32: carry(true, false, false), v_subrev_co_u32: carry(true, true, false),
  v_add_co_ci_u32: carry(false, false, true), v_sub_co_ci_u32: carry(true, false, true), v_subrev_co_ci_u32: carry(true, true, true),
  v_lshlrev_b64: (cx) => { const o = io(cx); result(cx, o, cx.b.value(SHL64, src(o, 1, cx), cx.b.value(AND32, src(o, 0, cx), cx.b.u32(63)))); },
  v_mad_u64_u32: (cx) => {
    const o = io(cx, 'int-clamp');
    const active = o.active;
    const sum = cx.b.value(IADD64, cx.b.value(UMUL_WIDE32, src(o, 0, cx), src(o, 1, cx)), src(o, 2, cx));
    // A sum past 2^64 − 1 (it wrapped below the addend): the carry-out mask bit; clamp saturates.
    // Made only where the mask or clamp reads it (most forms write the mask to null, and nothing
    // else reads it: dead code the passes walked and removed).
    const mask = o.maskDst !== undefined && cx.writesMask(o.maskDst.value), clamp = clamped(cx);
    const over = mask || clamp ? cx.b.value(ULT64, sum, src(o, 2, cx)) : undefined;
    if (clamp) {
      const ones = cx.b.u32(0xffffffff), lo = cx.b.value(SELECT32, over as Inst, ones, cx.b.value(LO32, sum));
      result(cx, o, cx.pack(lo, cx.b.value(SELECT32, over as Inst, cx.b.u32(0xffffffff), cx.b.value(HI32, sum))));
    } else result(cx, o, sum);
    if (mask) cx.writeMask((o.maskDst as Operand).value, cx.b.value(AND_U1, active, over as Inst));
  },
  // sext(a) * sext(b) + c as i64 (the product fits, so the 64-bit product is exact); the mask bit is
  // signed overflow of the sum (p and c of one sign, the sum of the other); clamp saturates toward c's sign.
  v_mad_i64_i32: (cx) => {
    const o = io(cx, 'int-clamp');
    const b = cx.b, active = o.active;
    const sx = (v: Inst) => cx.pack(v, b.emit('AShr32', listOf(v, cx.b.u32(31))));
    const p = b.emit('IMul64', listOf(sx(src(o, 0, cx)), sx(src(o, 1, cx))));
    const c = src(o, 2, cx);
    const sum = b.emit('IAdd64', listOf(p, c));
    const hs = b.emit('Hi32', listOf(sum)), hc = b.emit('Hi32', listOf(c));
    const over = b.emit('SLt32', listOf(b.emit('And32', listOf(b.emit('Xor32', listOf(b.emit('Hi32', listOf(p)), hs)), b.emit('Xor32', listOf(hc, hs)))), cx.b.u32(0)));
    const neg = b.emit('SLt32', listOf(hc, cx.b.u32(0)));
    const sat = cx.pack(b.emit('Select32', listOf(neg, cx.b.u32(0), cx.b.u32(0xffffffff))), b.emit('Select32', listOf(neg, cx.b.u32(0x80000000), cx.b.u32(0x7fffffff))));
    result(cx, o, clamped(cx) ? cx.pack(b.emit('Select32', listOf(over, b.emit('Lo32', listOf(sat)), b.emit('Lo32', listOf(sum)))), b.emit('Select32', listOf(over, b.emit('Hi32', listOf(sat)), hs))) : sum);
    if (o.maskDst) cx.writeMask(o.maskDst.value, b.emit('AndU1', listOf(active, over)));
  },
  v_min_f32: f32('FMin32'), v_max_f32: f32('FMax32'),
  v_floor_f32: f32un('FFloor32'), v_ceil_f32: f32un('FCeil32'), v_trunc_f32: f32un('FTrunc32'), v_rndne_f32: f32un('FRndne32'),
  v_add_f32: f32('FAdd32'), v_sub_f32: f32('FSub32'), v_subrev_f32: f32('FSub32', [1, 0]), v_mul_f32: f32('FMul32'),
  v_fma_f32: f32('FFma32'),
  // v_fmac_f32: vdst = src0 * src1 + vdst; the table lists vdst (srcdst) first among the sources.
  v_fmac_f32: f32('FFma32', [1, 2, 0]),
  v_cvt_f32_u32: unary('ConvertF32U32', false, true),
  // popcount(src0 & lanes below this one) + src1, over the low / high 32 lanes.
  // In wave32 every lane id is below 32: the low mask is (1 << lane) - 1 and the high one empty.
  v_mbcnt_lo_u32_b32: int((cx, s) => {
    // (1 << lane) - 1; in wave64 all ones from lane 32 on (no closure per instruction for the mask).
    const b = cx.b, lane = b.emit('LaneId');
    const lt = cx.waveSize === 32 ? undefined : b.value(ULT32, lane, b.u32(32));
    const mask = b.value(ISUB32, b.value(SHL32, b.u32(1), lane), b.u32(1));
    const below = lt === undefined ? mask : b.value(SELECT32, lt, mask, b.u32(0xffffffff));
    return b.value(IADD32, b.value(BIT_COUNT32, b.value(AND32, s(0), below)), s(1));
  }),
  v_mbcnt_hi_u32_b32: int((cx, s) => {
    if (cx.waveSize === 32) return s(1);
    const lane = cx.b.emit('LaneId');
    const hiLane = cx.b.emit('ISub32', listOf(lane, cx.b.u32(32)));
    const below = cx.b.emit('Select32', listOf(cx.b.emit('ULe32', listOf(lane, cx.b.u32(32))), cx.b.u32(0), cx.b.emit('ISub32', listOf(cx.b.emit('Shl32', listOf(cx.b.u32(1), hiLane)), cx.b.u32(1)))));
    return cx.b.emit('IAdd32', listOf(cx.b.emit('BitCount32', listOf(cx.b.emit('And32', listOf(s(0), below)))), s(1)));
  }),
  v_readlane_b32: (cx) => {
    const src = cx.lane(cx.op('src0').value, 'b32');
    const which = cx.b.emit('And32', listOf(cx.scalar(cx.op('src1').value, 'u32'), cx.b.u32(cx.waveSize - 1)));
    cx.writeScalar(cx.op('sdst').value, cx.b.emit('ReadLane', listOf(src, which)));
  },
  // The lane S1 names (S1 mod the wave size) takes S0, whatever EXEC says; the other lanes keep vdst.
  v_writelane_b32: (cx) => {
    const which = cx.b.emit('And32', listOf(cx.scalar(cx.op('src1').value, 'u32'), cx.b.u32(cx.waveSize - 1)));
    cx.writeLane(cx.op('vdst').value, cx.scalar(cx.op('src0').value, 'b32'), 0, cx.b.emit('IEq32', listOf(cx.b.emit('LaneId'), which)));
  },
  v_readfirstlane_b32: (cx) => {
    const lo = cx.b.getSgpr(EXEC_LO);
    let first = cx.b.emit('FindLsb32', listOf(lo));
    if (cx.waveSize === 64) {
      const hi = cx.b.getSgpr(EXEC_LO + 1);
      first = cx.b.emit('Select32', listOf(cx.b.emit('INe32', listOf(lo, cx.b.u32(0))), first, cx.b.emit('IAdd32', listOf(cx.b.emit('FindLsb32', listOf(hi)), cx.b.u32(32)))));
    }
    // No active lane: lane 0 (as the interpreter).
    first = cx.b.emit('Select32', listOf(cx.maskZero(EXEC_LO), cx.b.u32(0), first));
    cx.writeScalar(cx.op('sdst').value, cx.b.emit('ReadLane', listOf(cx.lane(cx.op('src0').value, 'b32'), first)));
  },
  v_bfrev_b32: int((cx, s) => cx.b.emit('BitReverse32', listOf(s(0)))),
  // 24-bit multiplies: the operands' low 24 bits, unsigned or sign-extended.
  v_mul_u32_u24: int((cx, s) => cx.b.emit('IMul32', listOf(u24(cx, s(0)), u24(cx, s(1))))),
  v_mul_hi_u32_u24: int((cx, s) => cx.b.emit('UMulHi32', listOf(u24(cx, s(0)), u24(cx, s(1))))),
  v_mul_i32_i24: int((cx, s) => cx.b.emit('IMul32', listOf(i24(cx, s(0)), i24(cx, s(1))))),
  v_mul_hi_i32_i24: int((cx, s) => cx.b.emit('SMulHi32', listOf(i24(cx, s(0)), i24(cx, s(1))))),
  v_mad_u32_u24: int((cx, s) => cx.b.emit('IAdd32', listOf(cx.b.emit('IMul32', listOf(u24(cx, s(0)), u24(cx, s(1)))), s(2)))),
  v_mad_i32_i24: int((cx, s) => cx.b.emit('IAdd32', listOf(cx.b.emit('IMul32', listOf(i24(cx, s(0)), i24(cx, s(1)))), s(2)))),
  // The transcendentals: the float model's algorithms (src/float/transcendental.ts).
  v_exp_f32: f32un('FExp32'), v_log_f32: f32un('FLog32'), v_sin_f32: f32un('FSin32'), v_cos_f32: f32un('FCos32'),
  v_rcp_f32: f32un('FRcp32'),
  v_rcp_iflag_f32: f32un('FRcp32'),
  v_xad_u32: int((cx, s) => cx.b.value(IADD32, cx.b.value(XOR32, s(0), s(1)), s(2))),
  v_ffbh_u32: int((cx, s) => cx.b.emit('Select32', listOf(cx.b.emit('IEq32', listOf(s(0), cx.b.u32(0))), cx.b.u32(0xffffffff), cx.b.emit('Clz32', listOf(s(0)))))),
  v_bcnt_u32_b32: int((cx, s) => cx.b.emit('IAdd32', listOf(cx.b.emit('BitCount32', listOf(s(0))), s(1)))),
  v_alignbit_b32: int((cx, s) => cx.b.emit('Lo32', listOf(cx.b.emit('LShr64', listOf(cx.pack(s(1), s(0)), cx.b.emit('And32', listOf(s(2), cx.b.u32(31)))))))),
  v_ashrrev_i64: (cx) => { const o = io(cx); result(cx, o, cx.b.emit('AShr64', listOf(src(o, 1, cx), cx.b.emit('And32', listOf(src(o, 0, cx), cx.b.u32(63)))))); },
  v_lshrrev_b64: (cx) => { const o = io(cx); result(cx, o, cx.b.emit('LShr64', listOf(src(o, 1, cx), cx.b.emit('And32', listOf(src(o, 0, cx), cx.b.u32(63)))))); },
  v_sqrt_f32: f32un('FSqrt32'), v_rsq_f32: f32un('FRsq32'),
  v_frexp_mant_f32: f32un('FFrexpMant32'), v_fract_f32: f32un('FFract32'),
  v_frexp_exp_i32_f32: unary('FFrexpExp32', true, false),
  // floor then the truncating conversion: floor's result is integral (or NaN/inf), so the two agree with the model's floor conversion.
  v_cvt_flr_i32_f32: (cx) => {
    const o = io(cx, 'int-result');
    const mode = cx.floatMode();
    const fl = cx.b.emit('FFloor32', listOf(cx.b.emit('BitcastU32F32', listOf(src(o, 0, cx)))), NO_IMMS, { float: mode });
    result(cx, o, cx.b.emit('ConvertS32F32', listOf(fl), NO_IMMS, { float: mode }));
  },
  // min3/max3: min(min(a, b), c) under one mode (the ISA, as the interpreter).
  v_min3_f32: (cx) => { const o = io(cx, 'f32'); const mode = cx.floatMode(); const a = [0, 1, 2].map((k) => cx.b.emit('BitcastU32F32', listOf(src(o, k, cx)))); result(cx, o, fout(cx, cx.b.emit('FMin32', listOf(cx.b.emit('FMin32', listOf(a[0] as Inst, a[1] as Inst), NO_IMMS, { float: mode }), a[2] as Inst), NO_IMMS, { float: mode }), mode)); },
  v_max3_f32: (cx) => { const o = io(cx, 'f32'); const mode = cx.floatMode(); const a = [0, 1, 2].map((k) => cx.b.emit('BitcastU32F32', listOf(src(o, k, cx)))); result(cx, o, fout(cx, cx.b.emit('FMax32', listOf(cx.b.emit('FMax32', listOf(a[0] as Inst, a[1] as Inst), NO_IMMS, { float: mode }), a[2] as Inst), NO_IMMS, { float: mode }), mode)); },
  v_ldexp_f32: (cx) => {
    const o = io(cx, 'f32');
    const mode = cx.floatMode();
    result(cx, o, fout(cx, cx.b.emit('FLdexp32', listOf(cx.b.emit('BitcastU32F32', listOf(src(o, 0, cx))), src(o, 1, cx)), NO_IMMS, { float: mode }), mode));
  },
  // The division sequence: v_div_scale (value and VCC flag), v_div_fmas (reads VCC), v_div_fixup.
  v_div_scale_f32: (cx) => {
    const o = io(cx, 'f32');
    const mode = cx.floatMode();
    const args = [0, 1, 2].map((k) => cx.b.emit('BitcastU32F32', listOf(src(o, k, cx))));
    const active = o.active;
    const flag = cx.b.emit('FDivScaleFlag32', args, NO_IMMS, { float: mode });
    result(cx, o, fout(cx, cx.b.emit('FDivScale32', args, NO_IMMS, { float: mode }), mode));
    if (o.maskDst) cx.writeMask(o.maskDst.value, cx.b.emit('AndU1', listOf(active, flag)));
  },
  v_div_fmas_f32: (cx) => {
    const o = io(cx, 'f32');
    const mode = cx.floatMode();
    const args = [0, 1, 2].map((k) => cx.b.emit('BitcastU32F32', listOf(src(o, k, cx))));
    const vccHi = cx.waveSize === 64 ? cx.b.getSgpr(VCC_LO + 1) : cx.b.u32(0);
    const vcc = cx.b.emit('LaneBit', listOf(cx.b.getSgpr(VCC_LO), vccHi, cx.b.emit('LaneId')));
    result(cx, o, fout(cx, cx.b.emit('FDivFmas32', listOf(...args, vcc), NO_IMMS, { float: mode }), mode));
  },
  v_div_fixup_f32: f32('FDivFixup32'),
  v_cvt_u32_f32: unary('ConvertU32F32', true, false),
  v_cvt_i32_f32: unary('ConvertS32F32', true, false),
  v_cvt_f32_i32: unary('ConvertF32S32', false, true),
};

// v_cvt_f32_ubyteN: byte N as an f32 (exact in every mode: the conversion of a value below 256), then clamp/omod.
for (let n = 0; n < 4; n++) {
  VALU[`v_cvt_f32_ubyte${n}`] = (cx) => {
    const o = io(cx, 'f32');
    const mode = cx.floatMode();
    const byte = cx.b.emit('And32', listOf(cx.b.emit('LShr32', listOf(src(o, 0, cx), cx.b.u32(8 * n))), cx.b.u32(0xff)));
    result(cx, o, fout(cx, cx.b.emit('ConvertF32U32', listOf(byte), NO_IMMS, { float: mode }), mode));
  };
}

VALU['v_cmp_class_f32'] = compare((cx, o) => classBit(cx, src(o, 0, cx), src(o, 1, cx)), false, 'ignore');
VALU['v_cmpx_class_f32'] = compare((cx, o) => classBit(cx, src(o, 0, cx), src(o, 1, cx)), true, 'ignore');

const FCMP32 = opRef('FCmp32');
for (const [c, si, un] of ICMPS) {
  const sr = opRef(si), ur = opRef(un);
  for (const x of [false, true]) {
    const p = x ? 'v_cmpx' : 'v_cmp';
    VALU[`${p}_${c}_i32`] = compare((cx, o) => cx.b.value(sr, src(o, 0, cx), src(o, 1, cx)), x);
    VALU[`${p}_${c}_u32`] = compare((cx, o) => cx.b.value(ur, src(o, 0, cx), src(o, 1, cx)), x);
  }
}
for (const x of [false, true]) {
  const p = x ? 'v_cmpx' : 'v_cmp';
  FPRED.forEach((pred, k) => {
    const imms = [k]; // the predicate's immediates, one list for every instruction (immediates are never changed)
    VALU[`${p}_${pred}_f32`] = compare((cx, o) => cx.b.emitRef(FCMP32, listOf(cx.b.value(AS_F32, src(o, 0, cx)), cx.b.value(AS_F32, src(o, 1, cx))), imms, { float: cx.floatMode() }), x, 'ignore');
  });
}

// --- integer breadth: the rest of the 32- and 64-bit integer VALU ops of the table ---

/** Byte k of x (k a constant). */
const byteOf = (cx: TContext, x: Inst, k: number) => cx.b.emit('UBfe32', listOf(x, cx.b.u32(8 * k), cx.b.u32(8)));
/** |a − b| of two unsigned values. */
const absDiff = (cx: TContext, a: Inst, b: Inst) => cx.b.emit('Select32', listOf(cx.b.emit('UGe32', listOf(a, b)), cx.b.emit('ISub32', listOf(a, b)), cx.b.emit('ISub32', listOf(b, a))));
/** Σ |a.byte k − b.byte k|. */
const sadBytes = (cx: TContext, a: Inst, b: Inst) => [0, 1, 2, 3].map((k) => absDiff(cx, byteOf(cx, a, k), byteOf(cx, b, k))).reduce((x, y) => cx.b.emit('IAdd32', listOf(x, y)));
type MinMax = 'UMin32' | 'UMax32' | 'SMin32' | 'SMax32';
const three = (op: MinMax): Translator => int((cx, s) => cx.b.emit(op, listOf(cx.b.emit(op, listOf(s(0), s(1))), s(2))));
/** med3 = max(min(a, b), min(max(a, b), c)). */
const med3 = (min: MinMax, max: MinMax): Translator => int((cx, s) => {
  const b = cx.b;
  return b.emit(max, listOf(b.emit(min, listOf(s(0), s(1))), b.emit(min, listOf(b.emit(max, listOf(s(0), s(1))), s(2)))));
});

/** v_perm_b32's byte k: selector (S2 >> 8k) & 0xff over the bytes of S0:S1 (S1 low): 0-7 a byte, 8-11 the sign of byte 1/3/5/7 as 0xff/0, 12 zero, 13+ 0xff. */
function permByte(cx: TContext, bytes: Inst, sel: Inst): Inst {
  const b = cx.b, c = (v: number) => cx.b.u32(v);
  const pick = b.emit('And32', listOf(b.emit('Lo32', listOf(b.emit('LShr64', listOf(bytes, b.emit('Shl32', listOf(b.emit('And32', listOf(sel, c(7))), c(3))))))), c(0xff)));
  // Selector 8 + j: the top bit of byte 2j + 1, i.e. bit 16j + 15.
  const signBit = b.emit('Lo32', listOf(b.emit('LShr64', listOf(bytes, b.emit('IAdd32', listOf(b.emit('Shl32', listOf(b.emit('And32', listOf(sel, c(3))), c(4))), c(15)))))));
  const sign = b.emit('Select32', listOf(b.emit('INe32', listOf(b.emit('And32', listOf(signBit, c(1))), c(0))), c(0xff), c(0)));
  return b.emit('Select32', listOf(b.emit('ULt32', listOf(sel, c(8))), pick, b.emit('Select32', listOf(b.emit('ULt32', listOf(sel, c(12))), sign, b.emit('Select32', listOf(b.emit('IEq32', listOf(sel, c(12))), c(0), c(0xff)))))));
}

/** A signed i32 clamped to i16 and masked to 16 bits. */
const clampI16 = (cx: TContext, v: Inst) => cx.b.emit('And32', listOf(cx.b.emit('SMax32', listOf(cx.b.emit('SMin32', listOf(v, cx.b.u32(0x7fff))), cx.b.u32(0xffff8000))), cx.b.u32(0xffff)));

Object.assign(VALU, {
  // No effect in any form (its SDWA form's selects have nothing to select).
  v_nop: (cx) => { cx.sdwaApplied = true; },
  v_mul_lo_i32: bin('IMul32'),
  v_ffbl_b32: int((cx, s) => cx.b.emit('FindLsb32', listOf(s(0)))),
  // The first bit from the top that differs from the sign bit: the leading zeros of x ^ (copies of its sign); −1 for 0 and −1.
  v_ffbh_i32: int((cx, s) => {
    const y = cx.b.emit('Xor32', listOf(s(0), cx.b.emit('AShr32', listOf(s(0), cx.b.u32(31)))));
    return cx.b.emit('Select32', listOf(cx.b.emit('IEq32', listOf(y, cx.b.u32(0))), cx.b.u32(0xffffffff), cx.b.emit('Clz32', listOf(y))));
  }),
  v_xnor_b32: int((cx, s) => cx.b.emit('Not32', listOf(cx.b.emit('Xor32', listOf(s(0), s(1)))))),
  v_bfi_b32: int((cx, s) => cx.b.emit('Or32', listOf(cx.b.emit('And32', listOf(s(0), s(1))), cx.b.emit('And32', listOf(cx.b.emit('Not32', listOf(s(0))), s(2)))))),
  v_bfm_b32: int((cx, s) => cx.b.emit('Shl32', listOf(cx.b.emit('ISub32', listOf(cx.b.emit('Shl32', listOf(cx.b.u32(1), s(0))), cx.b.u32(1))), s(1)))),
  v_alignbyte_b32: int((cx, s) => cx.b.emit('Lo32', listOf(cx.b.emit('LShr64', listOf(cx.pack(s(1), s(0)), cx.b.emit('Shl32', listOf(cx.b.emit('And32', listOf(s(2), cx.b.u32(3))), cx.b.u32(3)))))))),
  v_min3_i32: three('SMin32'), v_max3_i32: three('SMax32'), v_min3_u32: three('UMin32'), v_max3_u32: three('UMax32'),
  v_med3_i32: med3('SMin32', 'SMax32'), v_med3_u32: med3('UMin32', 'UMax32'),
  v_sad_u8: int((cx, s) => cx.b.emit('IAdd32', listOf(sadBytes(cx, s(0), s(1)), s(2)))),
  v_sad_hi_u8: int((cx, s) => cx.b.emit('IAdd32', listOf(cx.b.emit('Shl32', listOf(sadBytes(cx, s(0), s(1)), cx.b.u32(16))), s(2)))),
  v_sad_u16: int((cx, s) => {
    const lo = (v: Inst) => cx.b.emit('And32', listOf(v, cx.b.u32(0xffff))), hi = (v: Inst) => cx.b.emit('LShr32', listOf(v, cx.b.u32(16)));
    return cx.b.emit('IAdd3_32', listOf(absDiff(cx, lo(s(0)), lo(s(1))), absDiff(cx, hi(s(0)), hi(s(1))), s(2)));
  }),
  v_sad_u32: int((cx, s) => cx.b.emit('IAdd32', listOf(absDiff(cx, s(0), s(1)), s(2)))),
  // Per byte: (a + b + (c & 1)) >> 1 of the unsigned bytes.
  v_lerp_u8: int((cx, s) => [0, 1, 2, 3].map((k) => {
    const sum = cx.b.emit('IAdd3_32', listOf(byteOf(cx, s(0), k), byteOf(cx, s(1), k), cx.b.emit('And32', listOf(cx.b.emit('LShr32', listOf(s(2), cx.b.u32(8 * k))), cx.b.u32(1)))));
    return cx.b.emit('Shl32', listOf(cx.b.emit('LShr32', listOf(sum, cx.b.u32(1))), cx.b.u32(8 * k)));
  }).reduce((x, y) => cx.b.emit('Or32', listOf(x, y)))),
  v_perm_b32: int((cx, s) => {
    const bytes = cx.pack(s(1), s(0));
    return [0, 1, 2, 3].map((k) => cx.b.emit('Shl32', listOf(permByte(cx, bytes, byteOf(cx, s(2), k)), cx.b.u32(8 * k)))).reduce((x, y) => cx.b.emit('Or32', listOf(x, y)));
  }),
  v_cvt_pk_u16_u32: int((cx, s) => cx.b.emit('Or32', listOf(cx.b.emit('UMin32', listOf(s(0), cx.b.u32(0xffff))), cx.b.emit('Shl32', listOf(cx.b.emit('UMin32', listOf(s(1), cx.b.u32(0xffff))), cx.b.u32(16)))))),
  v_cvt_pk_i16_i32: int((cx, s) => cx.b.emit('Or32', listOf(clampI16(cx, s(0)), cx.b.emit('Shl32', listOf(clampI16(cx, s(1)), cx.b.u32(16)))))),
  // Both registers in the active lanes (the old values are read before either is written).
  v_swap_b32: (cx) => {
    const a = cx.op('vdst').value, b = cx.op('src0').value;
    const x = cx.lane(a, 'b32'), y = cx.lane(b, 'b32');
    const active = cx.execBit();
    cx.writeLane(a, y, 0, active);
    cx.writeLane(b, x, 0, active);
  },
} satisfies Record<string, Translator>);

type Cmp64 = (cx: TContext, a: Inst, b: Inst) => Inst;
const lt64 = (signed: boolean): Cmp64 => (cx, a, b) => cx.b.emit(signed ? 'SLt64' : 'ULt64', listOf(a, b));
/** The 64-bit compares by VOPC name, from IEq64/INe64 and the less-than of each signedness. */
const CMP64 = (signed: boolean): [string, Cmp64][] => [
  ['lt', lt64(signed)], ['gt', (cx, a, b) => lt64(signed)(cx, b, a)],
  ['le', (cx, a, b) => cx.b.emit('NotU1', listOf(lt64(signed)(cx, b, a)))], ['ge', (cx, a, b) => cx.b.emit('NotU1', listOf(lt64(signed)(cx, a, b)))],
  ['eq', (cx, a, b) => cx.b.emit('IEq64', listOf(a, b))], ['ne', (cx, a, b) => cx.b.emit('INe64', listOf(a, b))],
];
for (const x of [false, true]) {
  const p = x ? 'v_cmpx' : 'v_cmp';
  for (const [signed, t] of [[true, 'i64'], [false, 'u64']] as const) {
    for (const [c, f] of CMP64(signed)) VALU[`${p}_${c}_${t}`] = compare((cx, o) => f(cx, src(o, 0, cx), src(o, 1, cx)), x);
  }
  // The constant predicates: f (false), t (true), for every integer type the translation reads.
  for (const t of ['i32', 'u32', 'i64', 'u64']) {
    VALU[`${p}_f_${t}`] = compare((cx) => cx.b.u1(false), x);
    VALU[`${p}_t_${t}`] = compare((cx) => cx.b.u1(true), x);
  }
}
