// The integer dot products to IR, as the interpreter computes them (src/interp/units/valu-packed.ts
// dotInt, v_dot4c_i32_i8): VOP3P v_dot2_i32_i16 / v_dot2_u32_u16 (each source's two 16-bit halves
// by op_sel / op_sel_hi), v_dot4_i32_i8 / v_dot4_u32_u8 and v_dot8_i32_i4 / v_dot8_u32_u4 (the
// whole dword's bytes / nibbles; op_sel does not apply), the sum of the products plus src2,
// wrapping, or with clamp the exact sum saturated to the i32 / u32 range; neg_lo / neg_hi are
// refused (the interpreter refuses them too). VOP2 v_dot4c_i32_i8 (gfx1030): the signed byte
// products plus the accumulator vdst, wrapping (its DPP forms read src0 through ./dpp.ts).
// Only on the targets whose table has them (the frontend translates what the decoder gives it).
import type { Inst } from '../../ir/ir.js';
import type { TContext, Translator } from '../context.js';
import { io, type Io, result, src } from './valu-io.js';
import { listOf } from '../../ir/ir.js';

const bitOf = (m: number | undefined, i: number) => ((m ?? 0) >>> i) & 1;

/** Field k of `bits` bits of w, zero- or sign-extended to 32 bits. */
const field = (cx: TContext, w: Inst, bits: number, k: number, signed: boolean) => cx.b.emit(signed ? 'SBfe32' : 'UBfe32', listOf(w, cx.u32(bits * k), cx.u32(bits)));

/** Source i's two 16-bit lanes by op_sel (low lane) and op_sel_hi (high lane), as 16-bit fields. */
function halves(cx: TContext, o: Io, i: number): [Inst, Inst] {
  const m = cx.inst.mods, w = src(cx, o, i);
  return [bitOf(m.opsel, i), bitOf(m.opselHi ?? 7, i)].map((hi) => cx.b.emit('UBfe32', listOf(w, cx.u32(16 * hi), cx.u32(16)))) as [Inst, Inst];
}

/** A sign- or zero-extended 32-bit value as 64 bits. */
const wide = (cx: TContext, v: Inst, signed: boolean) => cx.pack(v, signed ? cx.b.emit('AShr32', listOf(v, cx.u32(31))) : cx.u32(0));

/**
 * Σ a[k] * b[k] + c over 32-bit products (each fits: |i16 · i16| ≤ 2^30, u16 · u16 < 2^32), wrapping,
 * or (clamp) exact in 64 bits and saturated to [−2^31, 2^31 − 1] / [0, 2^32 − 1].
 */
function dotSum(cx: TContext, a: Inst[], b: Inst[], c: Inst, signed: boolean, clamp: boolean): Inst {
  const x = cx.b;
  const prods = a.map((v, k) => x.emit('IMul32', listOf(v, b[k] as Inst)));
  if (!clamp) return prods.reduce((s, p) => x.emit('IAdd32', listOf(s, p)), c);
  const sum = prods.reduce((s, p) => x.emit('IAdd64', listOf(s, wide(cx, p, signed))), wide(cx, c, signed));
  const k64 = (lo: number, hi: number) => cx.pack(cx.u32(lo), cx.u32(hi));
  if (!signed) return x.emit('Select32', listOf(x.emit('ULt64', listOf(k64(0xffffffff, 0), sum)), cx.u32(0xffffffff), x.emit('Lo32', listOf(sum))));
  const hiSat = x.emit('SLt64', listOf(k64(0x7fffffff, 0), sum)), loSat = x.emit('SLt64', listOf(sum, k64(0x80000000, 0xffffffff)));
  return x.emit('Select32', listOf(hiSat, cx.u32(0x7fffffff), x.emit('Select32', listOf(loSat, cx.u32(0x80000000), x.emit('Lo32', listOf(sum))))));
}

/** A VOP3P integer dot product: `bits`-wide fields (16: the op_sel halves), `signed`. */
const dot = (bits: 4 | 8 | 16, signed: boolean): Translator => (cx) => {
  const m = cx.inst.mods;
  if (m.negLo || m.negHi) cx.fail(`${cx.inst.def.mnemonic}: neg_lo/neg_hi on an integer source are not modelled (the interpreter refuses them too)`);
  const o = io(cx, 'int-result');
  const parts = (i: number): Inst[] => {
    if (bits === 16) return halves(cx, o, i).map((h) => (signed ? cx.b.emit('SBfe32', listOf(h, cx.u32(0), cx.u32(16))) : h));
    return Array.from({ length: 32 / bits }, (_, k) => field(cx, src(cx, o, i), bits, k, signed));
  };
  result(cx, o, dotSum(cx, parts(0), parts(1), src(cx, o, 2), signed, m.clamp === true));
};

export const VALU_DOT: Record<string, Translator> = {
  v_dot2_i32_i16: dot(16, true), v_dot2_u32_u16: dot(16, false),
  v_dot4_i32_i8: dot(8, true), v_dot4_u32_u8: dot(8, false),
  v_dot8_i32_i4: dot(4, true), v_dot8_u32_u4: dot(4, false),
  // VOP2: the table lists vdst (the accumulator, srcdst) first among the sources.
  v_dot4c_i32_i8: (cx) => {
    const o = io(cx, 'refuse');
    const n = (i: number) => Array.from({ length: 4 }, (_, k) => field(cx, src(cx, o, i), 8, k, true));
    result(cx, o, dotSum(cx, n(1), n(2), src(cx, o, 0), true, false));
  },
};
