// Guarded native f32 add, sub and mul: the device's own round-to-nearest-even arithmetic where it
// is exact for RDNA's mode, and the exact integer lowering (lower-float.ts) for the lanes where it
// may not be. This is how a float op runs when the device offers f32 RoundingModeRTE and
// SignedZeroInfNanPreserve but not the op's whole mode (directed rounding, which Vulkan has none of
// for ±infinity; flush settings, which are not Vulkan's DenormFlushToZero; kept denormals on a
// device without DenormPreserve).
//
// The fast value (one helper per op and mode, `guardedBody`) is computed from device floats only
// where no denormal can reach the device, so its denormal behaviour, whatever it is, never shows:
// - Input flushing (FP_DENORM bit 0 clear) by classification: a denormal operand becomes the zero
//   of its sign before the device sees it.
// - The fast domain: nonzero operands with a biased exponent in a range that keeps every value the
//   computation makes a nonzero multiple of at least 2^-125 or zero, and far from overflow:
//   add/sub: each exponent in [27, 253] (every value a multiple of 2^-123: the sum, the error terms
//   and the result are never subnormal and never overflow);
//   mul: both exponents in [24, 241] (Dekker's split 4097·a
//   stays finite, and an operand's low half, a multiple of its ulp, is not subnormal) with their
//   sum in [174, 379] (the product's magnitude in [2^-80, 2^127), so the partial products are
//   multiples of 2^-126 or more and the product is finite).
//   Outside it (zeros, infinities, NaN, kept denormals, extreme exponents) the lane calls the exact
//   helper. Zeros are outside because lavapipe gave -0 for +0 + -0 under RoundingModeRTE with
//   SignedZeroInfNanPreserve and NoContraction (found by tests/runtime/vfloat.test.ts: v_fma_legacy_f32's
//   +0 + c with c = -0; likely a driver fold of x + 0 to x): a zero's sign is left to the exact code.
// - Directed rounding from an error-free transformation of the nearest-even result r: the exact
//   error e = (a op b) - r by 2Sum (add, 6 device ops) or Dekker's product (mul, 17 device ops,
//   since Vulkan's Fma need not be fused), all under RTE, exact in the fast domain. The error's
//   sign decides a one-ulp step on r's bit pattern: toward +inf when e > 0, toward -inf when e < 0,
//   toward zero when e and r differ in sign. r is normal or zero there, so a step stays normal, and
//   an exact zero sum (x + -x) takes the rounding direction's sign (-0 toward -inf), as IEEE 754
//   and the float model say.
// - Output flushing never applies: a fast result is zero or at least 2^-123 in magnitude.
// The f32 fma has a guarded form too, through f64 device ops (guardedFma below; the profile must
// offer f64 nearest even and not rule out f64 device ops: TargetProfile.f64DeviceOps).
// The helper returns the fast bits in the low dword and 1 in the high dword where they hold; the
// call site, one CallGuarded of this helper and the exact one, takes the exact helper's result for
// the other lanes (only those lanes run it).
import type { FloatMode, Inst } from '../ir.js';
import type { Op } from '../ops.js';
import type { Mode, X } from './lower-float-core.js';

/** The ops with a guarded form through f32 device ops. */
export const GUARDED_F32: ReadonlySet<Op> = new Set<Op>(['FAdd32', 'FSub32', 'FMul32']);
/** The ops with a guarded form through f64 device ops (guardedF64Available in float-controls.ts). */
export const GUARDED_VIA_F64: ReadonlySet<Op> = new Set<Op>(['FFma32']);
/** Float ops only the device helpers use (the guarded ones, the transcendental cores' device form; no RDNA instruction translates to them; never in a kernel's own code). */
export const GUARDED_DEVICE_ONLY: ReadonlySet<Op> = new Set<Op>(['FSub64']);

/** The device ops' float mode: nearest even, denormals as the device does them (they never occur). */
const DEVICE_RTE: FloatMode = { round: 0, denorm: 3, ieee: true, dx10Clamp: true };

/**
 * The fast value of `op` on f32 bits a, b under md, as u64: the bits in the low dword, whether they
 * hold in the high one. `device`: the device ops' mode (tests give it a flushing one too: the
 * fast values must not depend on it).
 */
export function guardedBody(x: X, md: Mode, op: Op, args: readonly Inst[], device: FloatMode = DEVICE_RTE): Inst {
  const arg = (k: number): Inst => { const v = args[k]; if (!v) throw new Error(`${op}: argument ${k} missing (internal)`); return v; };
  if (op === 'FFma32') return guardedFma(x, md, arg(0), arg(1), arg(2), device);
  const a = arg(0), b = arg(1);
  const SIGN = 0x80000000;
  const flush = (v: Inst) => (md.flushIn ? x.sel(x.eq(x.and(v, x.c(0x7f800000)), x.c(0)), x.and(v, x.c(SIGN)), v) : v);
  const a1 = flush(a);
  const b1 = op === 'FSub32' ? x.op('Xor32', flush(b), x.c(SIGN)) : flush(b);
  const expOf = (v: Inst) => x.and(x.shr(v, x.c(23)), x.c(0xff));
  const isZero = (v: Inst) => x.eq(x.and(v, x.c(0x7fffffff)), x.c(0));
  const within = (v: Inst, lo: number, hi: number) => x.op('ULt32', x.sub(v, x.c(lo)), x.c(hi - lo + 1));
  const ea = expOf(a1), eb = expOf(b1);
  const f = (v: Inst) => x.op('BitcastU32F32', v);
  const dev = (o: 'FAdd32' | 'FSub32' | 'FMul32', p: Inst, q: Inst) => x.b.emit(o, [p, q], [], { float: device });
  const fa = f(a1), fb = f(b1);
  let r: Inst, e: Inst, ok: Inst;
  if (op === 'FMul32') {
    ok = x.and1(x.and1(within(ea, 24, 241), within(eb, 24, 241)), within(x.add(ea, eb), 174, 379));
    r = dev('FMul32', fa, fb);
    // Dekker: a = ah + al with 12-bit halves (C = 2^12 + 1), then the product's exact error.
    const C = x.b.emit('ConstF32', [], [0x45801000]);
    const split = (v: Inst) => {
      const c = dev('FMul32', C, v);
      const hi = dev('FSub32', c, dev('FSub32', c, v));
      return [hi, dev('FSub32', v, hi)] as const;
    };
    const [ah, al] = split(fa), [bh, bl] = split(fb);
    const t1 = dev('FSub32', dev('FMul32', ah, bh), r);
    const t2 = dev('FAdd32', t1, dev('FMul32', ah, bl));
    const t3 = dev('FAdd32', t2, dev('FMul32', al, bh));
    e = dev('FAdd32', t3, dev('FMul32', al, bl));
  } else {
    ok = x.and1(within(ea, 27, 253), within(eb, 27, 253));
    r = dev('FAdd32', fa, fb);
    // 2Sum (Knuth): e = (a - (r - (r - a))) + (b - (r - a)).
    const bv = dev('FSub32', r, fa);
    const av = dev('FSub32', r, bv);
    e = dev('FAdd32', dev('FSub32', fa, av), dev('FSub32', fb, bv));
  }
  const rb = x.op('BitcastF32U32', r), eb2 = x.op('BitcastF32U32', e);
  const eNonZero = x.ne(x.and(eb2, x.c(0x7fffffff)), x.c(0));
  const eNeg = x.ne(x.and(eb2, x.c(SIGN)), x.c(0)), rNeg = x.ne(x.and(rb, x.c(SIGN)), x.c(0));
  const up = x.add(rb, x.c(1)), down = x.sub(rb, x.c(1));
  let bits: Inst;
  switch (md.round) {
    case 0: bits = rb; break;
    // Toward +inf: e > 0 raises r (its magnitude up if r > 0, down if r < 0).
    case 1: bits = x.sel(x.and1(eNonZero, x.not1(eNeg)), x.sel(rNeg, down, up), rb); break;
    // Toward -inf: e < 0 lowers r.
    case 2: bits = x.sel(x.and1(eNonZero, eNeg), x.sel(rNeg, up, down), rb); break;
    // Toward zero: an error of the other sign than r means r is too far from zero.
    default: bits = x.sel(x.and1(eNonZero, x.op('XorU1', eNeg, rNeg)), down, rb); break;
  }
  if (md.round === 2 && op !== 'FMul32') {
    // An exact zero sum (x + -x) toward -inf is -0.
    bits = x.sel(isZero(rb), x.c(SIGN), bits);
  }
  return x.op('Pack64', bits, x.op('U1ToU32', ok));
}

/**
 * The fast value of an f32 fma (a · b + c, one rounding) through f64 device ops, as guardedBody's
 * u64. In the fast domain (every operand normal: biased exponent in [1, 254]) the operands are
 * exact f64 values and so is their product p = a · b (48 significant bits, magnitude in
 * [2^-252, 2^256)); s = p + c under RTE and its error e by 2Sum give a · b + c = s + e exactly,
 * since every value involved is a multiple of 2^-298 (never an f64 denormal) far below overflow.
 * The f32 result is s rounded in MODE's direction with e as the sticky information: s's 29 low
 * significand bits d decide between the truncation t and t + 1 ulp (nearest even: d against half
 * of 2^29, a tie broken by e's sign, or to even when e = 0; away from zero: d ≠ 0 or e of s's
 * sign; toward zero: t - 1 ulp when d = 0 and e has the other sign, else t). A one-ulp step on
 * t's bit pattern is exact because s's exponent is held in [-125, 126]: the result is normal and
 * finite, so neither output flushing nor overflow applies. Zeros (a zero sum too), denormals,
 * infinities, NaN and extreme results are left to the exact helper.
 */
function guardedFma(x: X, md: Mode, a: Inst, b: Inst, c: Inst, device: FloatMode): Inst {
  const SIGN = 0x80000000;
  const expOf = (v: Inst) => x.and(x.shr(v, x.c(23)), x.c(0xff));
  const within = (v: Inst, lo: number, hi: number) => x.op('ULt32', x.sub(v, x.c(lo)), x.c(hi - lo + 1));
  const normal = (v: Inst) => within(expOf(v), 1, 254);
  // A normal f32 as an f64: the device's conversion (exact for a normal value).
  const toF64 = (v: Inst) => x.b.emit('ConvertF64F32', [x.op('BitcastU32F32', v)], [], { float: device });
  const dev = (o: 'FAdd64' | 'FSub64' | 'FMul64', p: Inst, q: Inst) => x.b.emit(o, [p, q], [], { float: device });
  const fa = toF64(a), fb = toF64(b), fc = toF64(c);
  const p = dev('FMul64', fa, fb);
  const s = dev('FAdd64', p, fc);
  // 2Sum (Knuth): e = (p - (s - (s - p))) + (c - (s - p)).
  const cv = dev('FSub64', s, p);
  const pv = dev('FSub64', s, cv);
  const e = dev('FAdd64', dev('FSub64', p, pv), dev('FSub64', fc, cv));
  const sb = x.op('BitcastF64U64', s), eb = x.op('BitcastF64U64', e);
  const sHi = x.op('Hi32', sb), sLo = x.op('Lo32', sb), eHi = x.op('Hi32', eb);
  const sExp = x.and(x.shr(sHi, x.c(20)), x.c(0x7ff));
  const ok = x.and1(x.and1(x.and1(normal(a), normal(b)), normal(c)), within(sExp, 1023 - 125, 1023 + 126));
  // t: s truncated to f32 (sign, exponent rebiased, the top 23 of 52 significand bits); d: the 29 dropped.
  const t = x.or(x.or(x.and(sHi, x.c(SIGN)), x.shl(x.sub(sExp, x.c(896)), x.c(23))), x.or(x.shl(x.and(sHi, x.c(0xfffff)), x.c(3)), x.shr(sLo, x.c(29))));
  const d = x.and(sLo, x.c(0x1fffffff));
  const HALF = 0x10000000;
  const eNonZero = x.ne(x.or(x.and(eHi, x.c(0x7fffffff)), x.op('Lo32', eb)), x.c(0));
  const sNeg = x.ne(x.and(sHi, x.c(SIGN)), x.c(0));
  const eSame = x.and1(eNonZero, x.op('NotU1', x.op('XorU1', x.ne(x.and(eHi, x.c(SIGN)), x.c(0)), sNeg)));
  const eOther = x.and1(eNonZero, x.not1(eSame));
  const dZero = x.eq(d, x.c(0));
  const up = x.add(t, x.c(1)), down = x.sub(t, x.c(1));
  // Away from zero: any dropped bit, or an error that adds magnitude. Toward zero: no dropped bit and an error that takes it away.
  const away = x.sel(x.or1(x.not1(dZero), eSame), up, t);
  const towardZero = x.sel(x.and1(dZero, eOther), down, t);
  let bits: Inst;
  switch (md.round) {
    case 0: {
      const tie = x.eq(d, x.c(HALF));
      const roundUp = x.or1(x.ult(x.c(HALF), d), x.and1(tie, x.or1(eSame, x.and1(x.not1(eNonZero), x.ne(x.and(t, x.c(1)), x.c(0))))));
      bits = x.sel(roundUp, up, t);
      break;
    }
    case 1: bits = x.sel(sNeg, towardZero, away); break;
    case 2: bits = x.sel(sNeg, away, towardZero); break;
    default: bits = towardZero; break;
  }
  return x.op('Pack64', bits, x.op('U1ToU32', ok));
}
