// The f64 VALU to IR: arithmetic (v_add/mul/fma/min/max/ldexp_f64), the VOP1 unary ops (rcp,
// rsq, sqrt, integral rounding, fract, frexp), the division sequence (v_div_scale/v_div_fmas/
// v_div_fixup_f64), conversions to and from f32, i32 and u32, and every v_cmp/v_cmpx/v_cmp_class
// f64. Sources are VGPR/SGPR pairs (a 32-bit literal is the high dword); each op carries the
// instruction's FloatMode and is lowered to exact integer code (src/ir/passes/lower-float64.ts),
// with clamp/omod as FOutMod64 (or FOutMod32 on v_cvt_f32_f64's result) as the interpreter applies
// them (src/interp/units/valu-float.ts).
import { type Inst, NO_IMMS, listOf } from '../../ir/ir.js';
import type { Op } from '../../ir/ops.js';
import { type TContext, type Translator, VCC_LO } from '../context.js';
import { classBit } from './valu-f16.js';
import { convertMode, FPRED, io, outMods, result, src, writeCompare } from './valu-io.js';
import { TRIG_PREOP_SHIFT_LIMIT, TWO_OVER_PI_WORDS } from '../../float/special.js';

const F = (cx: TContext, v: Inst) => cx.b.emit('BitcastU64F64', listOf(v));
const U = (cx: TContext, v: Inst) => cx.b.emit('BitcastF64U64', listOf(v));

/** An f64 op on the first `n` sources (f64), its f64 result with the output modifiers. */
const arith = (op: Op, n: number): Translator => (cx) => {
  const o = io(cx, 'float');
  const mode = cx.floatMode();
  const r = cx.b.emit(op, o.srcs.slice(0, n).map((v) => F(cx, v)), NO_IMMS, { float: mode });
  result(cx, o, U(cx, outMods(cx, 'FOutMod64', r, mode)));
};

/** An f64 op with an integer (i32/u32) result: clamp is moot, omod refused. */
const toInt = (op: Op): Translator => (cx) => {
  const o = io(cx, 'int-result');
  result(cx, o, cx.b.emit(op, listOf(F(cx, src(cx, o, 0))), NO_IMMS, { float: cx.floatMode() }));
};

/** i32/u32 → f64 with the output modifiers. */
const fromInt = (op: Op): Translator => (cx) => {
  const o = io(cx, 'float');
  const mode = cx.floatMode();
  result(cx, o, U(cx, outMods(cx, 'FOutMod64', cx.b.emit(op, listOf(src(cx, o, 0)), NO_IMMS, { float: mode }), mode)));
};

/** v_cmp_class_f64: the class mask (src1) bit of src0's class, from the raw bits. */
function class64(cx: TContext, a: Inst, mask: Inst): Inst {
  const b = cx.b, c = (v: number) => cx.u32(v);
  const hi = b.emit('Hi32', listOf(a)), lo = b.emit('Lo32', listOf(a));
  const exp = b.emit('And32', listOf(b.emit('LShr32', listOf(hi, c(20))), c(0x7ff)));
  const fracZero = b.emit('IEq32', listOf(b.emit('Or32', listOf(b.emit('And32', listOf(hi, c(0xfffff))), lo)), c(0)));
  return classBit(cx, b.emit('INe32', listOf(b.emit('LShr32', listOf(hi, c(31))), c(0))), b.emit('IEq32', listOf(exp, c(0))), b.emit('IEq32', listOf(exp, c(0x7ff))), fracZero, b.emit('INe32', listOf(b.emit('And32', listOf(hi, c(0x80000))), c(0))), mask);
}

/**
 * v_trig_preop_f64 as integer code, step for step the float model's trigPreopF64
 * (src/float/special.ts, with the ISA pseudocode and LLVM's table and corner rules): the bit
 * offset from the segment select and S0's exponent, the three table dwords it starts in (a select
 * chain over the constants), the 53 bits from it, normalized into a double times 2^scale (a
 * subnormal cut toward zero), +0 past the table, S0 quieted when it is a NaN. MODE is not read.
 */
function trigPreop(cx: TContext, x: Inst, segSel: Inst): Inst {
  const b = cx.b, c = (v: number) => cx.u32(v), e2 = (op: Op, p: Inst, q: Inst) => b.emit(op, listOf(p, q));
  const sel = (k: Inst, p: Inst, q: Inst) => b.emit('Select32', listOf(k, p, q));
  const hi = b.emit('Hi32', listOf(x)), lo = b.emit('Lo32', listOf(x));
  const exp = e2('And32', e2('LShr32', hi, c(20)), c(0x7ff));
  const isNan = e2('AndU1', e2('IEq32', exp, c(0x7ff)), e2('INe32', e2('Or32', e2('And32', hi, c(0xfffff)), lo), c(0)));
  const shift = e2('IAdd32', e2('IMul32', e2('And32', segSel, c(31)), c(53)), sel(e2('UGt32', exp, c(1077)), e2('ISub32', exp, c(1077)), c(0)));
  const inTable = e2('ULt32', shift, c(TRIG_PREOP_SHIFT_LIMIT));
  const idx = e2('LShr32', shift, c(5)), bsh = e2('And32', shift, c(31));
  const last = TRIG_PREOP_SHIFT_LIMIT / 32 - 1;
  const word = (t: number): Inst => {
    let acc = c(TWO_OVER_PI_WORDS[last + t] ?? 0);
    for (let j = last - 1; j >= 0; j--) acc = sel(e2('IEq32', idx, c(j)), c(TWO_OVER_PI_WORDS[j + t] ?? 0), acc);
    return acc;
  };
  const w0 = word(0), w1 = word(1), w2 = word(2);
  const noShift = e2('IEq32', bsh, c(0)), back = e2('And32', e2('ISub32', c(32), bsh), c(31));
  const hiW = sel(noShift, w0, e2('Or32', e2('Shl32', w0, bsh), e2('LShr32', w1, back)));
  const loW = sel(noShift, w1, e2('Or32', e2('Shl32', w1, bsh), e2('LShr32', w2, back)));
  // The 53-bit segment m = {mHi[20:0], mLo}.
  const mHi = e2('LShr32', hiW, c(11)), mLo = e2('Or32', e2('Shl32', hiW, c(21)), e2('LShr32', loW, c(11)));
  const zero = e2('IEq32', e2('Or32', mHi, mLo), c(0));
  const lz = sel(e2('IEq32', mHi, c(0)), e2('IAdd32', c(21), b.emit('Clz32', listOf(mLo))), e2('ISub32', b.emit('Clz32', listOf(mHi)), c(11)));
  const mn = e2('Shl64', b.emit('Pack64', listOf(mLo, mHi)), lz);
  const scale = e2('IAdd32', e2('ISub32', c(-53), shift), sel(e2('UGe32', exp, c(1968)), c(128), c(0)));
  const biased = e2('ISub32', e2('IAdd32', scale, c(1075)), lz);
  const normal = e2('SGt32', biased, c(0));
  const sub = e2('LShr64', mn, e2('UMin32', e2('ISub32', c(1), biased), c(63)));
  const rHi = sel(normal, e2('Or32', e2('And32', b.emit('Hi32', listOf(mn)), c(0xfffff)), e2('Shl32', biased, c(20))), b.emit('Hi32', listOf(sub)));
  const rLo = sel(normal, b.emit('Lo32', listOf(mn)), b.emit('Lo32', listOf(sub)));
  const ok = e2('AndU1', inTable, b.emit('NotU1', listOf(zero)));
  const outHi = sel(isNan, e2('Or32', hi, c(0x80000)), sel(ok, rHi, c(0)));
  const outLo = sel(isNan, lo, sel(ok, rLo, c(0)));
  return b.emit('Pack64', listOf(outLo, outHi));
}

export const VALU_F64: Record<string, Translator> = {
  v_trig_preop_f64: (cx) => {
    const o = io(cx, 'float');
    const mode = cx.floatMode();
    result(cx, o, U(cx, outMods(cx, 'FOutMod64', F(cx, trigPreop(cx, src(cx, o, 0), src(cx, o, 1))), mode)));
  },
  v_add_f64: arith('FAdd64', 2), v_mul_f64: arith('FMul64', 2), v_fma_f64: arith('FFma64', 3),
  v_min_f64: arith('FMin64', 2), v_max_f64: arith('FMax64', 2),
  v_rcp_f64: arith('FRcp64', 1), v_rsq_f64: arith('FRsq64', 1), v_sqrt_f64: arith('FSqrt64', 1),
  v_trunc_f64: arith('FTrunc64', 1), v_ceil_f64: arith('FCeil64', 1), v_rndne_f64: arith('FRndne64', 1), v_floor_f64: arith('FFloor64', 1),
  v_fract_f64: arith('FFract64', 1), v_frexp_mant_f64: arith('FFrexpMant64', 1),
  v_div_fixup_f64: arith('FDivFixup64', 3),
  v_frexp_exp_i32_f64: toInt('FFrexpExp64'),
  v_cvt_i32_f64: toInt('ConvertS32F64'), v_cvt_u32_f64: toInt('ConvertU32F64'),
  v_cvt_f64_i32: fromInt('ConvertF64S32'), v_cvt_f64_u32: fromInt('ConvertF64U32'),
  v_ldexp_f64: (cx) => {
    const o = io(cx, 'float');
    const mode = cx.floatMode();
    result(cx, o, U(cx, outMods(cx, 'FOutMod64', cx.b.emit('FLdexp64', listOf(F(cx, src(cx, o, 0)), src(cx, o, 1)), NO_IMMS, { float: mode }), mode)));
  },
  // Conversions between widths: input flush by the source's FP_DENORM field, rounding by the destination's.
  v_cvt_f32_f64: (cx) => {
    const o = io(cx, 'float');
    const mode = convertMode(cx, 'f64', 'f32');
    const r = cx.b.emit('ConvertF32F64', listOf(F(cx, src(cx, o, 0))), NO_IMMS, { float: mode });
    result(cx, o, cx.b.emit('BitcastF32U32', listOf(outMods(cx, 'FOutMod32', r, mode))));
  },
  v_cvt_f64_f32: (cx) => {
    const o = io(cx, 'float');
    const mode = convertMode(cx, 'f32', 'f64');
    const r = cx.b.emit('ConvertF64F32', listOf(cx.b.emit('BitcastU32F32', listOf(src(cx, o, 0)))), NO_IMMS, { float: mode });
    result(cx, o, U(cx, outMods(cx, 'FOutMod64', r, mode)));
  },
  // The division sequence: v_div_scale (value, and the flag v_div_fmas reads from VCC), v_div_fmas, v_div_fixup.
  v_div_scale_f64: (cx) => {
    const o = io(cx, 'float');
    const mode = cx.floatMode();
    const args = o.srcs.slice(0, 3).map((v) => F(cx, v));
    const active = o.active;
    const flag = cx.b.emit('FDivScaleFlag64', args, NO_IMMS, { float: mode });
    result(cx, o, U(cx, outMods(cx, 'FOutMod64', cx.b.emit('FDivScale64', args, NO_IMMS, { float: mode }), mode)));
    if (o.maskDst) cx.writeMask(o.maskDst.value, cx.b.emit('AndU1', listOf(active, flag)));
  },
  v_div_fmas_f64: (cx) => {
    const o = io(cx, 'float');
    const mode = cx.floatMode();
    const vccHi = cx.waveSize === 64 ? cx.b.getSgpr(VCC_LO + 1) : cx.u32(0);
    const vcc = cx.b.emit('LaneBit', listOf(cx.b.getSgpr(VCC_LO), vccHi, cx.b.emit('LaneId')));
    const r = cx.b.emit('FDivFmas64', listOf(...o.srcs.slice(0, 3).map((v) => F(cx, v)), vcc), NO_IMMS, { float: mode });
    result(cx, o, U(cx, outMods(cx, 'FOutMod64', r, mode)));
  },
  v_cmp_class_f64: (cx) => { const o = io(cx, 'ignore'); writeCompare(cx, o, class64(cx, src(cx, o, 0), src(cx, o, 1))); },
  v_cmpx_class_f64: (cx) => { const o = io(cx, 'ignore'); writeCompare(cx, o, class64(cx, src(cx, o, 0), src(cx, o, 1))); },
};

// Every predicate, v_cmp and v_cmpx (VOPC's clamp bit has no meaning for a lane mask: ignored, as the interpreter).
FPRED.forEach((p, k) => {
  for (const x of ['v_cmp', 'v_cmpx']) {
    VALU_F64[`${x}_${p}_f64`] = (cx) => {
      const o = io(cx, 'ignore');
      writeCompare(cx, o, cx.b.emit('FCmp64', listOf(F(cx, src(cx, o, 0)), F(cx, src(cx, o, 1))), listOf(k), { float: cx.floatMode() }));
    };
  }
});
