// The masked and quad SAD ops and v_sat_pk_u8_i16 to IR, as the interpreter computes them
// (src/interp/units/valu-sad.ts, from the RDNA2 ISA text): v_msad_u8 (the byte SAD with the
// reference's zero bytes masked out, plus S2), v_qsad_pk_u16_u8 / v_mqsad_pk_u16_u8 (four SADs of
// the byte windows S0[8j+31:8j] of the 64-bit S0 against S1, each plus S2's 16-bit field j,
// truncated into D's 16-bit field j), v_mqsad_u32_u8 (the masked SADs plus S2's 32-bit field j of
// a 128-bit S2 into D's 32-bit field j), and v_sat_pk_u8_i16 (each signed 16-bit half of S0 to
// [0, 255], packed into the low 16 bits, the high 16 bits zero: a 32-bit write, the interpreter's
// choice from the ISA text; its SDWA/DPP forms through the VALU io). Clamp is refused on the SAD
// ops, as the interpreter refuses it.
import type { Inst } from '../../ir/ir.js';
import type { TContext, Translator } from '../context.js';
import { io, result, sdwaWrite, src } from './valu-io.js';
import { listOf } from '../../ir/ir.js';

const byteOf = (cx: TContext, x: Inst, k: number) => cx.b.emit('UBfe32', listOf(x, cx.u32(8 * k), cx.u32(8)));
const absDiff = (cx: TContext, a: Inst, b: Inst) => cx.b.emit('Select32', listOf(cx.b.emit('UGe32', listOf(a, b)), cx.b.emit('ISub32', listOf(a, b)), cx.b.emit('ISub32', listOf(b, a))));

/** Σ over the bytes of |a.byte − b.byte|, a byte where b's is 0 counting 0 when `masked`. */
function sad(cx: TContext, a: Inst, b: Inst, masked: boolean): Inst {
  const x = cx.b;
  return [0, 1, 2, 3].map((k) => {
    const bb = byteOf(cx, b, k), d = absDiff(cx, byteOf(cx, a, k), bb);
    return masked ? x.emit('Select32', listOf(x.emit('IEq32', listOf(bb, cx.u32(0))), cx.u32(0), d)) : d;
  }).reduce((p, q) => x.emit('IAdd32', listOf(p, q)));
}

/** The byte window j of a 64-bit value: bits 8j+31 : 8j. */
const window = (cx: TContext, s0: Inst, j: number) => cx.b.emit('Lo32', listOf(cx.b.emit('LShr64', listOf(s0, cx.u32(8 * j)))));

/** v_qsad_pk_u16_u8 / v_mqsad_pk_u16_u8. */
const quadPk = (masked: boolean): Translator => (cx) => {
  const o = io(cx, 'refuse');
  const x = cx.b, s0 = src(cx, o, 0), s1 = src(cx, o, 1), s2 = src(cx, o, 2);
  const f = [0, 1, 2, 3].map((j) => {
    const acc = x.emit('UBfe32', listOf(x.emit(j < 2 ? 'Lo32' : 'Hi32', listOf(s2)), cx.u32(16 * (j & 1)), cx.u32(16)));
    return x.emit('And32', listOf(x.emit('IAdd32', listOf(sad(cx, window(cx, s0, j), s1, masked), acc)), cx.u32(0xffff)));
  });
  const half = (lo: Inst, hi: Inst) => x.emit('Or32', listOf(lo, x.emit('Shl32', listOf(hi, cx.u32(16)))));
  result(cx, o, cx.pack(half(f[0] as Inst, f[1] as Inst), half(f[2] as Inst, f[3] as Inst)));
};

const sat8 = (cx: TContext, v: Inst, hi: boolean) => cx.b.emit('SMax32', listOf(cx.b.emit('SMin32', listOf(cx.b.emit('SBfe32', listOf(v, cx.u32(hi ? 16 : 0), cx.u32(16))), cx.u32(255))), cx.u32(0)));

export const VALU_SAD: Record<string, Translator> = {
  v_msad_u8: (cx) => { const o = io(cx, 'refuse'); result(cx, o, cx.b.emit('IAdd32', listOf(sad(cx, src(cx, o, 0), src(cx, o, 1), true), src(cx, o, 2)))); },
  v_qsad_pk_u16_u8: quadPk(false),
  v_mqsad_pk_u16_u8: quadPk(true),
  // A 128-bit destination and S2 (the VALU io reads at most 64 bits): every source read before any write.
  v_mqsad_u32_u8: (cx) => {
    const i = cx.inst;
    if (i.mods.clamp || i.mods.omod) cx.fail('v_mqsad_u32_u8 with clamp/omod is not modelled (the interpreter refuses it too)');
    const a = cx.op('src0').value, c = cx.op('src2').value;
    const s0 = cx.pack(cx.lane(a, 'b64', 0), cx.lane(a, 'b64', 1)), s1 = cx.lane(cx.op('src1').value, 'u32');
    const r = [0, 1, 2, 3].map((j) => cx.b.emit('IAdd32', listOf(sad(cx, window(cx, s0, j), s1, true), cx.lane(c, 'b128', j))));
    const active = cx.execBit();
    r.forEach((v, j) => cx.writeLane(cx.op('vdst').value, v, j, active));
  },
  v_sat_pk_u8_i16: (cx) => {
    const o = io(cx, 'refuse');
    const s = src(cx, o, 0);
    const r = cx.b.emit('Or32', listOf(sat8(cx, s, false), cx.b.emit('Shl32', listOf(sat8(cx, s, true), cx.u32(8)))));
    const d = o.vdst ?? cx.fail('no destination');
    if (!sdwaWrite(cx, d.op, r, o.active)) cx.writeLane(d.op.value, r, 0, o.active);
  },
};
