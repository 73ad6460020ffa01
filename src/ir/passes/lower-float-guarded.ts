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
// The helper returns the fast bits in the low dword and 1 in the high dword where they hold; the
// call site picks the exact helper's result for the other lanes (CallUnless: only those lanes run it).
import type { FloatMode, Inst } from '../ir.js';
import type { Op } from '../ops.js';
import type { Mode, X } from './lower-float.js';

/** The ops with a guarded native form. */
export const GUARDED_F32: ReadonlySet<Op> = new Set<Op>(['FAdd32', 'FSub32', 'FMul32']);

/** The device ops' float mode: nearest even, denormals as the device does them (they never occur). */
const DEVICE_RTE: FloatMode = { round: 0, denorm: 3, ieee: true, dx10Clamp: true };

/**
 * The fast value of `op` on f32 bits a, b under md, as u64: the bits in the low dword, whether they
 * hold in the high one. `device`: the device ops' mode (tests give it a flushing one too: the
 * fast values must not depend on it).
 */
export function guardedBody(x: X, md: Mode, op: Op, a: Inst, b: Inst, device: FloatMode = DEVICE_RTE): Inst {
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
