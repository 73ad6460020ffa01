// Packed and mixed-precision VALU semantics: VOP3P (v_pk_* integer and f16, v_fma_mix*, v_dot*)
// and the VOP2 packed accumulators v_pk_fmac_f16, v_dot2c_f32_f16 and v_dot4c_i32_i8. RDNA2 ISA reference,
// "VOP3P instructions".
//
// Packed sources: the executor hands over the whole dword of each source (an f16 inline constant
// in bits 15:0 with bits 31:16 zero, as gfx10.3 reads it; an integer inline constant sign-extended
// to 32 bits); here op_sel[i] / op_sel_hi[i] pick the half of source i that feeds the low / high
// lane and neg_lo[i] / neg_hi[i] flip that lane's f16 sign. Results: low lane in bits 15:0.
// Clamp: f16 lanes clamp to [0, 1]; integer lanes saturate (their clamp bit).
// v_fma_mix*: source i is the f32 dword (op_sel_hi[i] = 0) or the f16 half op_sel[i] picks
// (op_sel_hi[i] = 1), widened exactly to f32; neg_lo/neg_hi are per-source neg/abs (the decoder
// gives them as the operand's neg/abs, which the executor applied to bit 31: right for an f32 or
// a high-half source; for a low-half source they are applied to bit 15 here).
import type { Operand } from '../../decode/types.js';
import * as fl from '../../float/index.js';
import type { FloatEnv } from '../../float/index.js';
import type { Handler } from '../context.js';
import { UnimplementedError } from '../errors.js';
import { inlineConstant } from '../operands.js';
import type { LaneEnv, Val, ValuSemantics } from './valu.js';
import { cur, cvtEnv, floatHandler, u32 } from './valu-float.js';

const mods = () => cur.inst?.mods ?? {};
const bit = (m: number | undefined, i: number) => ((m ?? 0) >>> i) & 1;
const half = (w: number, hi: number) => (hi ? w >>> 16 : w & 0xffff);
const sx16 = (x: number) => (x << 16) >> 16;

/** Source i's low-lane and high-lane 16-bit inputs by op_sel / op_sel_hi (f16 signs flipped by neg_lo / neg_hi when `float`). */
function lanes(s: readonly Val[], i: number, float: boolean): [number, number] {
  const m = mods();
  const w = u32(s[i]);
  let lo = half(w, bit(m.opsel, i)), hi = half(w, bit(m.opselHi ?? 7, i));
  if (float) {
    if (bit(m.negLo, i)) lo ^= 0x8000;
    if (bit(m.negHi, i)) hi ^= 0x8000;
  } else if (bit(m.negLo, i) || bit(m.negHi, i)) {
    throw new UnimplementedError(`${cur.inst?.def.mnemonic ?? 'instruction'}: neg_lo/neg_hi on an integer source are not modelled`);
  }
  return [lo, hi];
}
const pack = (lo: number, hi: number) => ((lo & 0xffff) | ((hi & 0xffff) << 16)) >>> 0;
const clamp16 = (r: number, e: LaneEnv) => (e.clamp ? fl.outputModifiersF16(r, 0, true, cur.e16) : r);

const sem = (f: (s: readonly Val[], e: LaneEnv) => Val): ValuSemantics => ({ f, outMods: true });

/** A packed f16 op on two or three sources. */
function pkF16(n: 2 | 3, op: (a: number, b: number, c: number, env: FloatEnv) => number): ValuSemantics {
  return sem((s, e) => {
    const [a0, a1] = lanes(s, 0, true), [b0, b1] = lanes(s, 1, true);
    const [c0, c1] = n === 3 ? lanes(s, 2, true) : [0, 0];
    return pack(clamp16(op(a0, b0, c0, cur.e16), e), clamp16(op(a1, b1, c1, cur.e16), e));
  });
}

/** A packed 16-bit integer op; `sat` gives the clamp range (the exact result saturates when clamp is set). */
function pkInt(n: 2 | 3, signed: boolean, op: (a: number, b: number, c: number) => number, sat = false): ValuSemantics {
  const lo = signed ? -0x8000 : 0, hi = signed ? 0x7fff : 0xffff;
  return sem((s, e) => {
    const rd = (i: number): [number, number] => { const [x, y] = lanes(s, i, false); return signed ? [sx16(x), sx16(y)] : [x, y]; };
    const [a0, a1] = rd(0), [b0, b1] = rd(1), [c0, c1] = n === 3 ? rd(2) : [0, 0];
    const fix = (r: number) => (sat && e.clamp ? Math.min(hi, Math.max(lo, r)) : r);
    if (e.clamp && !sat) throw new UnimplementedError(`${cur.inst?.def.mnemonic ?? 'instruction'}: clamp is not defined for this op`);
    return pack(fix(op(a0, b0, c0)), fix(op(a1, b1, c1)));
  });
}

/**
 * f16 × f16 dot product into f32: the products are exact in f32; the model rounds twice,
 * fma(a1, b1, fma(a0, b0, c)) in the f32 env (the hardware's internal rounding is not
 * documented: a choice, reported). The f16 inputs are widened exactly (input flush by the
 * f16 FP_DENORM field).
 */
function dot2F32F16(a0: number, a1: number, b0: number, b1: number, c: number): number {
  const w = cvtEnv('f16', 'f32');
  const x = (h: number) => fl.cvtF32F16(h, w);
  return fl.fmaF32(x(a1), x(b1), fl.fmaF32(x(a0), x(b0), c, cur.e32), cur.e32);
}

/** Integer dot products: sum of products + src2, wrapping, or saturated to 32 bits with clamp. */
function dotInt(signed: boolean, parts: (w: number) => number[], halves: boolean): ValuSemantics {
  return sem((s, e) => {
    let a: number[], b: number[];
    if (halves) {
      const [a0, a1] = lanes(s, 0, false), [b0, b1] = lanes(s, 1, false);
      a = signed ? [sx16(a0), sx16(a1)] : [a0, a1];
      b = signed ? [sx16(b0), sx16(b1)] : [b0, b1];
    } else {
      const m = mods();
      if (m.negLo || m.negHi) throw new UnimplementedError(`${cur.inst?.def.mnemonic ?? 'instruction'}: neg_lo/neg_hi are not modelled`);
      a = parts(u32(s[0])); b = parts(u32(s[1]));
    }
    let sum = signed ? u32(s[2]) | 0 : u32(s[2]);
    for (let k = 0; k < a.length; k++) sum += (a[k] ?? 0) * (b[k] ?? 0);
    if (e.clamp) sum = signed ? Math.max(-0x80000000, Math.min(0x7fffffff, sum)) : Math.min(0xffffffff, Math.max(0, sum));
    return Number(BigInt.asUintN(32, BigInt(sum)));
  });
}
const fields = (bits: number, count: number, signed: boolean) => (w: number): number[] => {
  const out: number[] = [];
  for (let k = 0; k < count; k++) {
    const x = (w >>> (k * bits)) & ((1 << bits) - 1);
    out.push(signed && x >= 1 << (bits - 1) ? x - (1 << bits) : x);
  }
  return out;
};

/** v_fma_mix source i as f32 bits (see the header). */
function mixSource(s: readonly Val[], i: number): number {
  const m = mods();
  const w = u32(s[i]);
  if (!bit(m.opselHi, i)) return w;
  const op: Operand | undefined = cur.inst?.operands.find((o) => o.name === `src${i}`);
  const sel = bit(m.opsel, i);
  let h: number;
  if (op?.value.kind === 'inline') {
    // An inline constant read as f16: the f16 constant in the low half, zero in the high half (gfx10.3).
    h = sel ? 0 : inlineConstant(op.value.code, 'f16', 0) & 0xffff;
    if (op.abs) h &= 0x7fff;
    if (op.neg) h ^= 0x8000;
  } else if (sel) h = w >>> 16;
  else {
    h = w & 0xffff;
    if (op?.abs) h &= 0x7fff;
    if (op?.neg) h ^= 0x8000;
  }
  return fl.cvtF32F16(h, { ...cur.e32, flushIn: false, flushOut: false });
}

const SEM: Record<string, ValuSemantics> = {
  v_pk_fma_f16: pkF16(3, fl.fmaF16),
  v_pk_add_f16: pkF16(2, (a, b, _c, env) => fl.addF16(a, b, env)),
  v_pk_mul_f16: pkF16(2, (a, b, _c, env) => fl.mulF16(a, b, env)),
  v_pk_min_f16: pkF16(2, (a, b, _c, env) => fl.minF16(a, b, env)),
  v_pk_max_f16: pkF16(2, (a, b, _c, env) => fl.maxF16(a, b, env)),
  v_pk_mad_i16: pkInt(3, true, (a, b, c) => a * b + c, true),
  v_pk_mad_u16: pkInt(3, false, (a, b, c) => a * b + c, true),
  v_pk_add_i16: pkInt(2, true, (a, b) => a + b, true),
  v_pk_sub_i16: pkInt(2, true, (a, b) => a - b, true),
  v_pk_add_u16: pkInt(2, false, (a, b) => a + b, true),
  v_pk_sub_u16: pkInt(2, false, (a, b) => a - b, true),
  v_pk_mul_lo_u16: pkInt(2, false, (a, b) => Math.imul(a, b)),
  v_pk_lshlrev_b16: pkInt(2, false, (a, b) => b << (a & 15)),
  v_pk_lshrrev_b16: pkInt(2, false, (a, b) => b >>> (a & 15)),
  v_pk_ashrrev_i16: pkInt(2, false, (a, b) => sx16(b) >> (a & 15)),
  // Two-operand forms: pkInt passes a third (zero) lane, which Math.max/min must not see.
  v_pk_max_i16: pkInt(2, true, (a, b) => Math.max(a, b)), v_pk_min_i16: pkInt(2, true, (a, b) => Math.min(a, b)),
  v_pk_max_u16: pkInt(2, false, (a, b) => Math.max(a, b)), v_pk_min_u16: pkInt(2, false, (a, b) => Math.min(a, b)),
  v_dot2_f32_f16: sem((s, e) => {
    const [a0, a1] = lanes(s, 0, true), [b0, b1] = lanes(s, 1, true);
    const m = mods();
    if (bit(m.negHi, 2)) throw new UnimplementedError('v_dot2_f32_f16: neg_hi on src2 is not modelled');
    const c = bit(m.negLo, 2) ? (u32(s[2]) ^ 0x80000000) >>> 0 : u32(s[2]);
    const r = dot2F32F16(a0, a1, b0, b1, c);
    return e.clamp ? fl.outputModifiersF32(r, 0, true, cur.e32) : r;
  }),
  v_dot2_i32_i16: dotInt(true, fields(16, 2, true), true),
  v_dot2_u32_u16: dotInt(false, fields(16, 2, false), true),
  v_dot4_i32_i8: dotInt(true, fields(8, 4, true), false),
  v_dot4_u32_u8: dotInt(false, fields(8, 4, false), false),
  v_dot8_i32_i4: dotInt(true, fields(4, 8, true), false),
  v_dot8_u32_u4: dotInt(false, fields(4, 8, false), false),
  v_fma_mix_f32: sem((s, e) => {
    const r = fl.fmaF32(mixSource(s, 0), mixSource(s, 1), mixSource(s, 2), cur.e32);
    return e.clamp ? fl.outputModifiersF32(r, 0, true, cur.e32) : r;
  }),
  // VOP2 accumulators: [src0, src1, acc] (valu-float.ts accumulatorLast), natural halves.
  v_pk_fmac_f16: sem((s) => {
    const a = u32(s[0]), b = u32(s[1]), c = u32(s[2]);
    return pack(fl.fmaF16(a & 0xffff, b & 0xffff, c & 0xffff, cur.e16), fl.fmaF16(a >>> 16, b >>> 16, c >>> 16, cur.e16));
  }),
  // v_dot4c_i32_i8 (VOP2, gfx1030): D = Σ S0.i8[k] * S1.i8[k] + D, wrapping (VOP2 and its DPP
  // forms have no clamp); the accumulator vdst is s[2] (accumulatorLast).
  v_dot4c_i32_i8: sem((s) => {
    const a = fields(8, 4, true)(u32(s[0])), b = fields(8, 4, true)(u32(s[1]));
    let sum = u32(s[2]) | 0;
    for (let k = 0; k < 4; k++) sum += (a[k] ?? 0) * (b[k] ?? 0);
    return Number(BigInt.asUintN(32, BigInt(sum)));
  }),
  v_dot2c_f32_f16: sem((s) => {
    const a = u32(s[0]), b = u32(s[1]);
    return dot2F32F16(a & 0xffff, a >>> 16, b & 0xffff, b >>> 16, u32(s[2]));
  }),
};

/** v_fma_mixlo/hi_f16: one rounding to f16 (rounding and output flush by the f16 field, a choice), merged into the old dword (s[3]). */
function mixF16(high: boolean): ValuSemantics {
  return sem((s, e) => {
    const env = cvtEnv('f32', 'f16');
    let r = fl.fmaF32ToF16(mixSource(s, 0), mixSource(s, 1), mixSource(s, 2), env);
    if (e.clamp) r = fl.outputModifiersF16(r, 0, true, env);
    const old = u32(s[3]);
    return high ? ((old & 0xffff) | (r << 16)) >>> 0 : ((old & 0xffff0000) | r) >>> 0;
  });
}

export const VALU_PACKED: Record<string, Handler> = {
  ...Object.fromEntries(Object.entries(SEM).map(([k, s]) => [k, floatHandler(s)])),
  v_fma_mixlo_f16: floatHandler(mixF16(false), true),
  v_fma_mixhi_f16: floatHandler(mixF16(true), true),
};
