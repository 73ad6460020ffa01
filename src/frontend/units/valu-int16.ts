// The 16-bit integer VALU to IR (VOP3 on gfx10: v_add/sub_nc_u16/i16, v_mul_lo_u16, the 16-bit
// shifts, min/max/min3/max3/med3, v_mad_u16/i16, v_mad_u32_u16/v_mad_i32_i16, and the VOPC
// u16/i16 compares), on the 16-bit source halves op_sel picks, each result into the half op_sel[3]
// names (the other half kept, as gfx10 writes it), as the interpreter computes them
// (src/interp/units/valu-int.ts): clamp saturates the adds, subs and 16-bit mads, and is refused
// (as there) on the rest.
import type { Inst } from '../../ir/ir.js';
import type { Op } from '../../ir/ops.js';
import type { TContext, Translator } from '../context.js';
import { io, result, src, writeCompare } from './valu-io.js';
import { listOf } from '../../ir/ir.js';

const sx16 = (cx: TContext, v: Inst) => cx.b.emit('AShr32', listOf(cx.b.emit('Shl32', listOf(v, cx.u32(16))), cx.u32(16)));
const mask16 = (cx: TContext, v: Inst) => cx.b.emit('And32', listOf(v, cx.u32(0xffff)));

/**
 * A 16-bit op on n sources (zero- or sign-extended); `sat`: with clamp the exact result clamps to
 * the type's range (else clamp is refused): 'up' for unsigned results in [0, 2^32) (sums, mads),
 * 'down' for unsigned differences (in (−2^16, 2^16)), 'signed' for i16.
 */
const int16 = (n: number, signed: boolean, f: (cx: TContext, s: Inst[]) => Inst, sat?: 'up' | 'down' | 'signed'): Translator => (cx) => {
  const o = io(cx, sat ? 'int-result' : 'refuse');
  const s = Array.from({ length: n }, (_, k) => (signed ? sx16(cx, src(cx, o, k)) : src(cx, o, k)));
  let r = f(cx, s);
  if (sat && cx.inst.mods.clamp) {
    r = sat === 'signed' ? cx.b.emit('SMax32', listOf(cx.b.emit('SMin32', listOf(r, cx.u32(0x7fff))), cx.u32(0xffff8000)))
      : sat === 'up' ? cx.b.emit('UMin32', listOf(r, cx.u32(0xffff))) : cx.b.emit('SMax32', listOf(r, cx.u32(0)));
  }
  result(cx, o, r);
};
const bin = (op: Op, signed: boolean) => int16(2, signed, (cx, s) => cx.b.emit(op, listOf(s[0] as Inst, s[1] as Inst)));
const three = (op: Op, signed: boolean) => int16(3, signed, (cx, s) => cx.b.emit(op, listOf(cx.b.emit(op, listOf(s[0] as Inst, s[1] as Inst)), s[2] as Inst)));
const med3 = (signed: boolean) => int16(3, signed, (cx, [a, b, c]) => {
  const [mn, mx] = signed ? ['SMin32', 'SMax32'] as const : ['UMin32', 'UMax32'] as const;
  const e = (op: Op, x: Inst, y: Inst) => cx.b.emit(op, listOf(x, y));
  return e(mx, e(mn, a as Inst, b as Inst), e(mn, e(mx, a as Inst, b as Inst), c as Inst));
});
/** Shifts: src0 is the amount (its low 4 bits), src1 the data. */
const shift = (op: 'Shl32' | 'LShr32' | 'AShr32') => int16(2, false, (cx, [a, b]) => cx.b.emit(op, listOf(op === 'AShr32' ? sx16(cx, b as Inst) : (b as Inst), cx.b.emit('And32', listOf(a as Inst, cx.u32(15))))));
/** 16 × 16-bit product plus a 32-bit addend (v_mad_u32_u16, v_mad_i32_i16). */
const mad32 = (signed: boolean): Translator => (cx) => {
  const o = io(cx, 'refuse');
  const ext = (v: Inst) => (signed ? sx16(cx, v) : mask16(cx, v));
  result(cx, o, cx.b.emit('IAdd32', listOf(cx.b.emit('IMul32', listOf(ext(src(cx, o, 0)), ext(src(cx, o, 1)))), src(cx, o, 2))));
};

const mul = (cx: TContext, s: Inst[]) => cx.b.emit('IMul32', listOf(s[0] as Inst, s[1] as Inst));
const madd = (cx: TContext, s: Inst[]) => cx.b.emit('IAdd32', listOf(mul(cx, s), s[2] as Inst));

export const VALU_INT16: Record<string, Translator> = {
  v_add_nc_u16: int16(2, false, (cx, s) => cx.b.emit('IAdd32', listOf(s[0] as Inst, s[1] as Inst)), 'up'),
  v_sub_nc_u16: int16(2, false, (cx, s) => cx.b.emit('ISub32', listOf(s[0] as Inst, s[1] as Inst)), 'down'),
  v_add_nc_i16: int16(2, true, (cx, s) => cx.b.emit('IAdd32', listOf(s[0] as Inst, s[1] as Inst)), 'signed'),
  v_sub_nc_i16: int16(2, true, (cx, s) => cx.b.emit('ISub32', listOf(s[0] as Inst, s[1] as Inst)), 'signed'),
  v_mad_u16: int16(3, false, madd, 'up'), v_mad_i16: int16(3, true, madd, 'signed'),
  v_mul_lo_u16: int16(2, false, mul),
  v_lshlrev_b16: shift('Shl32'), v_lshrrev_b16: shift('LShr32'), v_ashrrev_i16: shift('AShr32'),
  v_max_u16: bin('UMax32', false), v_min_u16: bin('UMin32', false), v_max_i16: bin('SMax32', true), v_min_i16: bin('SMin32', true),
  v_max3_u16: three('UMax32', false), v_min3_u16: three('UMin32', false), v_max3_i16: three('SMax32', true), v_min3_i16: three('SMin32', true),
  v_med3_u16: med3(false), v_med3_i16: med3(true),
  v_mad_u32_u16: mad32(false), v_mad_i32_i16: mad32(true),
};

/** The u16/i16 compares gfx10 has (signed op, unsigned op). */
const CMPS: readonly (readonly [string, Op, Op])[] = [
  ['lt', 'SLt32', 'ULt32'], ['eq', 'IEq32', 'IEq32'], ['le', 'SLe32', 'ULe32'], ['gt', 'SGt32', 'UGt32'], ['ne', 'INe32', 'INe32'], ['ge', 'SGe32', 'UGe32'],
];
for (const [name, s, u] of CMPS) {
  for (const x of ['v_cmp', 'v_cmpx']) {
    for (const signed of [true, false]) {
      VALU_INT16[`${x}_${name}_${signed ? 'i16' : 'u16'}`] = (cx) => {
        const o = io(cx, 'refuse');
        const ext = (v: Inst) => (signed ? sx16(cx, v) : v);
        writeCompare(cx, o, cx.b.emit(signed ? s : u, listOf(ext(src(cx, o, 0)), ext(src(cx, o, 1)))));
      };
    }
  }
}
