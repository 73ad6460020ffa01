// The f16 VALU to IR: the VOP1/VOP2/VOP3 f16 forms (16-bit sources by op_sel, results into the
// half op_sel[3] names) and their SDWA forms, f16 ↔ f32 and f16 ↔ 16-bit integer conversions, v_cvt_pkrtz_f16_f32
// (always toward zero: the table's 'mode:rtz'), v_pack_b32_f16, every v_cmp/v_cmpx/v_cmp_class f16,
// and VOP3P: the packed f16 and 16-bit integer ops (op_sel / op_sel_hi pick each lane's half,
// neg_lo / neg_hi flip an f16 lane's sign, clamp clamps f16 lanes to [0, 1] and saturates the
// integer adds, subs and mads), v_pk_fmac_f16 and v_fma_mix_f32 / v_fma_mixlo_f16 / v_fma_mixhi_f16,
// as the interpreter computes them (src/interp/units/valu-float.ts, valu-packed.ts). Every float
// op carries the instruction's FloatMode and is lowered to exact integer code
// (src/ir/passes/lower-float16.ts); f16 values are u32 bits in the IR (no Float16 capability).
import { inlineConstant } from '../../decode/inline.js';
import { type FloatMode, type Inst, NO_IMMS, listOf } from '../../ir/ir.js';
import type { Op } from '../../ir/ops.js';
import type { TContext, Translator } from '../context.js';
import { convertMode, FPRED, io, type Io, outMods, result, src, writeCompare } from './valu-io.js';

const F = (cx: TContext, v: Inst) => cx.b.emit('BitcastU32F16', listOf(v));
const U = (cx: TContext, v: Inst) => cx.b.emit('BitcastF16U32', listOf(v));
const sx16 = (cx: TContext, v: Inst) => cx.b.emit('AShr32', listOf(cx.b.emit('Shl32', listOf(v, cx.u32(16))), cx.u32(16)));

/** An f16 op on the sources in `order` (16-bit values), its f16 result with the output modifiers. */
const arith = (op: Op, order: readonly number[]): Translator => (cx) => {
  const o = io(cx, 'float');
  const mode = cx.floatMode();
  const r = cx.b.emit(op, order.map((k) => F(cx, src(cx, o, k))), NO_IMMS, { float: mode });
  result(cx, o, U(cx, outMods(cx, 'FOutMod16', r, mode)));
};

/**
 * v_cmp_class: the bit of the class mask for the value's class (0 sNaN, 1 qNaN, 2 −inf, 3 −normal,
 * 4 −subnormal, 5 −0, 6 +0, 7 +subnormal, 8 +normal, 9 +inf), from the raw bits' fields.
 */
export function classBit(cx: TContext, sign: Inst, expZero: Inst, expMax: Inst, fracZero: Inst, quietSet: Inst, mask: Inst): Inst {
  const b = cx.b, c = (v: number) => cx.u32(v);
  const s = (pos: number, neg: number) => b.emit('Select32', listOf(sign, c(neg), c(pos)));
  let cls = s(8, 3);
  cls = b.emit('Select32', listOf(expZero, b.emit('Select32', listOf(fracZero, s(6, 5), s(7, 4))), cls));
  cls = b.emit('Select32', listOf(expMax, b.emit('Select32', listOf(fracZero, s(9, 2), b.emit('Select32', listOf(quietSet, c(1), c(0))))), cls));
  return b.emit('INe32', listOf(b.emit('And32', listOf(b.emit('LShr32', listOf(mask, cls)), c(1))), c(0)));
}

function class16(cx: TContext, a: Inst, mask: Inst): Inst {
  const b = cx.b, c = (v: number) => cx.u32(v);
  const exp = b.emit('And32', listOf(b.emit('LShr32', listOf(a, c(10))), c(0x1f)));
  const bit = (m: number) => b.emit('INe32', listOf(b.emit('And32', listOf(a, c(m))), c(0)));
  return classBit(cx, bit(0x8000), b.emit('IEq32', listOf(exp, c(0))), b.emit('IEq32', listOf(exp, c(0x1f))), b.emit('IEq32', listOf(b.emit('And32', listOf(a, c(0x3ff))), c(0))), bit(0x200), mask);
}

/** f16 → a 16-bit integer: the truncating conversion saturated to the 16-bit range (the interpreter's toInt(…, bits16)). */
const toInt16 = (signed: boolean): Translator => (cx) => {
  const o = io(cx, 'int-result');
  const r = cx.b.emit(signed ? 'ConvertS32F16' : 'ConvertU32F16', listOf(F(cx, src(cx, o, 0))), NO_IMMS, { float: cx.floatMode() });
  result(cx, o, signed ? cx.b.emit('SMax32', listOf(cx.b.emit('SMin32', listOf(r, cx.u32(0x7fff))), cx.u32(0xffff8000))) : cx.b.emit('UMin32', listOf(r, cx.u32(0xffff))));
};

/** A 16-bit integer (zero- or sign-extended) → f16 with the output modifiers. */
const fromInt16 = (signed: boolean): Translator => (cx) => {
  const o = io(cx, 'float');
  const mode = cx.floatMode();
  const v = signed ? sx16(cx, src(cx, o, 0)) : src(cx, o, 0);
  result(cx, o, U(cx, outMods(cx, 'FOutMod16', cx.b.emit(signed ? 'ConvertF16S32' : 'ConvertF16U32', listOf(v), NO_IMMS, { float: mode }), mode)));
};

// --- VOP3P -----------------------------------------------------------------------------------

const bitOf = (m: number | undefined, i: number) => ((m ?? 0) >>> i) & 1;

/** Source i's low-lane and high-lane 16-bit inputs by op_sel / op_sel_hi; an f16 lane's sign flipped by neg_lo / neg_hi. */
function lanes(cx: TContext, o: Io, i: number, float: boolean): [Inst, Inst] {
  const m = cx.inst.mods, b = cx.b, w = src(cx, o, i);
  const half = (hi: number) => (hi ? b.emit('LShr32', listOf(w, cx.u32(16))) : b.emit('And32', listOf(w, cx.u32(0xffff))));
  let lo = half(bitOf(m.opsel, i)), hi = half(bitOf(m.opselHi ?? 7, i));
  if (float) {
    if (bitOf(m.negLo, i)) lo = b.emit('Xor32', listOf(lo, cx.u32(0x8000)));
    if (bitOf(m.negHi, i)) hi = b.emit('Xor32', listOf(hi, cx.u32(0x8000)));
  } else if (bitOf(m.negLo, i) || bitOf(m.negHi, i)) cx.fail(`${cx.inst.def.mnemonic}: neg_lo/neg_hi on an integer source are not modelled (the interpreter refuses them too)`);
  return [lo, hi];
}
const pack = (cx: TContext, lo: Inst, hi: Inst) => cx.b.emit('Or32', listOf(cx.b.emit('And32', listOf(lo, cx.u32(0xffff))), cx.b.emit('Shl32', listOf(hi, cx.u32(16)))));

/** A packed f16 op on 2 or 3 sources, each lane clamped to [0, 1] when clamp is set. */
const pkF16 = (op: Op, n: 2 | 3): Translator => (cx) => {
  const o = io(cx, 'float');
  const mode = cx.floatMode();
  const ls = Array.from({ length: n }, (_, i) => lanes(cx, o, i, true));
  const lane = (h: 0 | 1) => U(cx, outMods(cx, 'FOutMod16', cx.b.emit(op, ls.map((l) => F(cx, l[h])), NO_IMMS, { float: mode }), mode));
  result(cx, o, pack(cx, lane(0), lane(1)));
};

/**
 * A packed 16-bit integer op; `sat`: the exact result saturates to the lane type's range when
 * clamp is set (otherwise clamp is refused, as the interpreter does): 'up' for unsigned results
 * in [0, 2^32) (adds, mads), 'down' for unsigned differences (in (−2^16, 2^16)), 'signed' for i16.
 */
const pkInt = (n: 2 | 3, signed: boolean, f: (cx: TContext, a: Inst, b: Inst, c: Inst) => Inst, sat?: 'up' | 'down' | 'signed'): Translator => (cx) => {
  if (cx.inst.mods.clamp && !sat) cx.fail(`${cx.inst.def.mnemonic}: clamp is not defined for this op (the interpreter refuses it too)`);
  const o = io(cx, sat ? 'int-result' : 'refuse');
  const ext = (v: Inst) => (signed ? sx16(cx, v) : v);
  const ls = Array.from({ length: n }, (_, i) => lanes(cx, o, i, false).map(ext) as [Inst, Inst]);
  const b = cx.b;
  const fix = (r: Inst) => {
    if (!(sat && cx.inst.mods.clamp)) return r;
    if (sat === 'signed') return b.emit('SMax32', listOf(b.emit('SMin32', listOf(r, cx.u32(0x7fff))), cx.u32(0xffff8000)));
    return sat === 'up' ? b.emit('UMin32', listOf(r, cx.u32(0xffff))) : b.emit('SMax32', listOf(r, cx.u32(0)));
  };
  const lane = (h: 0 | 1) => fix(f(cx, ls[0]?.[h] as Inst, ls[1]?.[h] as Inst, ls[2]?.[h] ?? cx.u32(0)));
  result(cx, o, pack(cx, lane(0), lane(1)));
};
const I = (op: Op) => (cx: TContext, a: Inst, b: Inst) => cx.b.emit(op, listOf(a, b));

/** v_fma_mix source i as f32 bits: the f32 dword (op_sel_hi[i] = 0) or the f16 half op_sel[i] picks, widened exactly. */
function mixSource(cx: TContext, o: Io, i: number, f32Mode: FloatMode): Inst {
  const m = cx.inst.mods, b = cx.b;
  const w = o.named.get(`src${i}`) ?? cx.fail(`no operand src${i}`);
  if (!bitOf(m.opselHi, i)) return b.emit('BitcastU32F32', listOf(w));
  const op = cx.inst.operands.find((x) => x.name === `src${i}`) ?? cx.fail(`no operand src${i}`);
  const sel = bitOf(m.opsel, i);
  const signed = (h: Inst) => {
    let v = h;
    if (op.abs) v = b.emit('And32', listOf(v, cx.u32(0x7fff)));
    if (op.neg) v = b.emit('Xor32', listOf(v, cx.u32(0x8000)));
    return v;
  };
  // An inline constant read as f16: the f16 constant in the low half, zero in the high half (gfx10.3).
  // The high half of a register already has neg/abs on its sign (bit 31, as the source was read).
  const h = op.value.kind === 'inline' ? signed(cx.u32(sel ? 0 : inlineConstant(op.value.code, 'f16', 0) & 0xffff))
    : sel ? b.emit('LShr32', listOf(w, cx.u32(16))) : signed(b.emit('And32', listOf(w, cx.u32(0xffff))));
  return b.emit('ConvertF32F16', listOf(F(cx, h)), NO_IMMS, { float: { ...f32Mode, denorm: 3 } });
}

/** v_fma_mixlo/hi_f16: an f32 fma rounded once to f16 (the f32 field flushes inputs, the f16 field rounds), merged into the old dword. */
const mixF16 = (high: boolean): Translator => (cx) => {
  const o = io(cx, 'float');
  const mode = convertMode(cx, 'f32', 'f16');
  const d = (o.vdst ?? cx.fail('no destination')).op.value;
  if (d.kind !== 'vgpr') return cx.fail(`a VALU result to ${d.kind}`);
  const b = cx.b;
  const f32Mode = cx.floatMode();
  const r = U(cx, outMods(cx, 'FOutMod16', b.emit('FFmaMixF16', [0, 1, 2].map((k) => mixSource(cx, o, k, f32Mode)), NO_IMMS, { float: mode }), mode));
  const old = b.getVgpr(d.index);
  const merged = high ? b.emit('Or32', listOf(b.emit('And32', listOf(old, cx.u32(0xffff))), b.emit('Shl32', listOf(r, cx.u32(16))))) : b.emit('Or32', listOf(b.emit('And32', listOf(old, cx.u32(0xffff0000))), r));
  cx.writeLane(d, merged, 0, o.active);
};

export const VALU_F16: Record<string, Translator> = {
  v_add_f16: arith('FAdd16', [0, 1]), v_sub_f16: arith('FSub16', [0, 1]), v_subrev_f16: arith('FSub16', [1, 0]), v_mul_f16: arith('FMul16', [0, 1]),
  v_min_f16: arith('FMin16', [0, 1]), v_max_f16: arith('FMax16', [0, 1]),
  v_fma_f16: arith('FFma16', [0, 1, 2]),
  // v_fmac_f16: vdst = src0 * src1 + vdst (the table lists the accumulator first); v_fmamk/v_fmaak: the K operand in table order.
  v_fmac_f16: arith('FFma16', [1, 2, 0]), v_fmamk_f16: arith('FFma16', [0, 1, 2]), v_fmaak_f16: arith('FFma16', [0, 1, 2]),
  v_div_fixup_f16: arith('FDivFixup16', [0, 1, 2]),
  v_exp_f16: arith('FExp16', [0]), v_log_f16: arith('FLog16', [0]), v_sin_f16: arith('FSin16', [0]), v_cos_f16: arith('FCos16', [0]),
  v_rcp_f16: arith('FRcp16', [0]), v_sqrt_f16: arith('FSqrt16', [0]), v_rsq_f16: arith('FRsq16', [0]),
  v_floor_f16: arith('FFloor16', [0]), v_ceil_f16: arith('FCeil16', [0]), v_trunc_f16: arith('FTrunc16', [0]), v_rndne_f16: arith('FRndne16', [0]),
  v_fract_f16: arith('FFract16', [0]), v_frexp_mant_f16: arith('FFrexpMant16', [0]),
  // min3/max3: min(min(a, b), c) under one mode (the ISA, as the interpreter).
  v_min3_f16: (cx) => { const o = io(cx, 'float'); const mode = cx.floatMode(); const a = [0, 1, 2].map((k) => F(cx, src(cx, o, k))); result(cx, o, U(cx, outMods(cx, 'FOutMod16', cx.b.emit('FMin16', listOf(cx.b.emit('FMin16', listOf(a[0] as Inst, a[1] as Inst), NO_IMMS, { float: mode }), a[2] as Inst), NO_IMMS, { float: mode }), mode))); },
  v_max3_f16: (cx) => { const o = io(cx, 'float'); const mode = cx.floatMode(); const a = [0, 1, 2].map((k) => F(cx, src(cx, o, k))); result(cx, o, U(cx, outMods(cx, 'FOutMod16', cx.b.emit('FMax16', listOf(cx.b.emit('FMax16', listOf(a[0] as Inst, a[1] as Inst), NO_IMMS, { float: mode }), a[2] as Inst), NO_IMMS, { float: mode }), mode))); },
  // The exponent (src1) is an i16.
  v_ldexp_f16: (cx) => {
    const o = io(cx, 'float');
    const mode = cx.floatMode();
    result(cx, o, U(cx, outMods(cx, 'FOutMod16', cx.b.emit('FLdexp16', listOf(F(cx, src(cx, o, 0)), sx16(cx, src(cx, o, 1))), NO_IMMS, { float: mode }), mode)));
  },
  v_frexp_exp_i16_f16: (cx) => {
    const o = io(cx, 'int-result');
    result(cx, o, cx.b.emit('FFrexpExp16', listOf(F(cx, src(cx, o, 0))), NO_IMMS, { float: cx.floatMode() }));
  },
  v_cvt_i16_f16: toInt16(true), v_cvt_u16_f16: toInt16(false),
  v_cvt_f16_i16: fromInt16(true), v_cvt_f16_u16: fromInt16(false),
  // Conversions between widths: input flush by the source's FP_DENORM field, rounding by the destination's.
  v_cvt_f16_f32: (cx) => {
    const o = io(cx, 'float');
    const mode = convertMode(cx, 'f32', 'f16');
    result(cx, o, U(cx, outMods(cx, 'FOutMod16', cx.b.emit('ConvertF16F32', listOf(cx.b.emit('BitcastU32F32', listOf(src(cx, o, 0)))), NO_IMMS, { float: mode }), mode)));
  },
  v_cvt_f32_f16: (cx) => {
    const o = io(cx, 'float');
    const mode = convertMode(cx, 'f16', 'f32');
    result(cx, o, cx.b.emit('BitcastF32U32', listOf(outMods(cx, 'FOutMod32', cx.b.emit('ConvertF32F16', listOf(F(cx, src(cx, o, 0))), NO_IMMS, { float: mode }), mode))));
  },
  // Two f32 → packed f16 toward zero whatever FP_ROUND says; clamp/omod apply to each half.
  v_cvt_pkrtz_f16_f32: (cx) => {
    const o = io(cx, 'float');
    const mode = convertMode(cx, 'f32', 'f16', true);
    const half = (k: number) => U(cx, outMods(cx, 'FOutMod16', cx.b.emit('ConvertF16F32', listOf(cx.b.emit('BitcastU32F32', listOf(src(cx, o, k)))), NO_IMMS, { float: mode }), mode));
    result(cx, o, pack(cx, half(0), half(1)));
  },
  // A bit move of the two (op_sel-picked, neg/abs-modified) halves: no float rounding.
  v_pack_b32_f16: (cx) => { const o = io(cx, 'int-result'); result(cx, o, pack(cx, src(cx, o, 0), src(cx, o, 1))); },
  v_cmp_class_f16: (cx) => { const o = io(cx, 'ignore'); writeCompare(cx, o, class16(cx, src(cx, o, 0), src(cx, o, 1))); },
  v_cmpx_class_f16: (cx) => { const o = io(cx, 'ignore'); writeCompare(cx, o, class16(cx, src(cx, o, 0), src(cx, o, 1))); },
  // VOP3P.
  v_pk_add_f16: pkF16('FAdd16', 2), v_pk_mul_f16: pkF16('FMul16', 2), v_pk_fma_f16: pkF16('FFma16', 3),
  v_pk_min_f16: pkF16('FMin16', 2), v_pk_max_f16: pkF16('FMax16', 2),
  v_pk_add_u16: pkInt(2, false, I('IAdd32'), 'up'), v_pk_sub_u16: pkInt(2, false, I('ISub32'), 'down'),
  v_pk_add_i16: pkInt(2, true, I('IAdd32'), 'signed'), v_pk_sub_i16: pkInt(2, true, I('ISub32'), 'signed'),
  v_pk_mad_u16: pkInt(3, false, (cx, a, b, c) => cx.b.emit('IAdd32', listOf(cx.b.emit('IMul32', listOf(a, b)), c)), 'up'),
  v_pk_mad_i16: pkInt(3, true, (cx, a, b, c) => cx.b.emit('IAdd32', listOf(cx.b.emit('IMul32', listOf(a, b)), c)), 'signed'),
  v_pk_mul_lo_u16: pkInt(2, false, I('IMul32')),
  // Shifts: src0 holds the amounts (the low 4 bits of each lane), src1 the data.
  v_pk_lshlrev_b16: pkInt(2, false, (cx, a, b) => cx.b.emit('Shl32', listOf(b, cx.b.emit('And32', listOf(a, cx.u32(15)))))),
  v_pk_lshrrev_b16: pkInt(2, false, (cx, a, b) => cx.b.emit('LShr32', listOf(b, cx.b.emit('And32', listOf(a, cx.u32(15)))))),
  v_pk_ashrrev_i16: pkInt(2, false, (cx, a, b) => cx.b.emit('AShr32', listOf(sx16(cx, b), cx.b.emit('And32', listOf(a, cx.u32(15)))))),
  v_pk_max_i16: pkInt(2, true, I('SMax32')), v_pk_min_i16: pkInt(2, true, I('SMin32')),
  v_pk_max_u16: pkInt(2, false, I('UMax32')), v_pk_min_u16: pkInt(2, false, I('UMin32')),
  // VOP2 packed accumulator: vdst = src0 * src1 + vdst lane by lane, natural halves (the table lists the accumulator first).
  v_pk_fmac_f16: (cx) => {
    const o = io(cx, 'refuse');
    const mode = cx.floatMode();
    const h = (k: number, hi: boolean) => F(cx, hi ? cx.b.emit('LShr32', listOf(src(cx, o, k), cx.u32(16))) : cx.b.emit('And32', listOf(src(cx, o, k), cx.u32(0xffff))));
    const lane = (hi: boolean) => U(cx, cx.b.emit('FFma16', listOf(h(1, hi), h(2, hi), h(0, hi)), NO_IMMS, { float: mode }));
    result(cx, o, pack(cx, lane(false), lane(true)));
  },
  v_fma_mix_f32: (cx) => {
    const o = io(cx, 'float');
    const mode = cx.floatMode();
    const r = cx.b.emit('FFma32', [0, 1, 2].map((k) => mixSource(cx, o, k, mode)), NO_IMMS, { float: mode });
    result(cx, o, cx.b.emit('BitcastF32U32', listOf(outMods(cx, 'FOutMod32', r, mode))));
  },
  v_fma_mixlo_f16: mixF16(false), v_fma_mixhi_f16: mixF16(true),
};

FPRED.forEach((p, k) => {
  for (const x of ['v_cmp', 'v_cmpx']) {
    VALU_F16[`${x}_${p}_f16`] = (cx) => {
      const o = io(cx, 'ignore');
      writeCompare(cx, o, cx.b.emit('FCmp16', listOf(F(cx, src(cx, o, 0)), F(cx, src(cx, o, 1))), listOf(k), { float: cx.floatMode() }));
    };
  }
});

