// The VALU float ops outside IEEE-754's basic set, from the RDNA2 ISA reference pseudocode:
// the division helpers (v_div_scale, v_div_fmas, v_div_fixup), normalized integer conversions
// (v_cvt_norm_*, v_cvt_pknorm_*), v_cvt_pk_u8_f32 and the cube map ops. Values are raw bits
// (bigint) in a Format, as in the rest of src/float.

import type { Format, Unpacked } from './format.js';
import { F16, F32, F64, numberToF32, quiet, signedInf, signedZero, unpack } from './format.js';
import type { FloatEnv } from './env.js';
import { flushInput, fmaMixedBits, mulBits } from './arith.js';
import { ldexpBits } from './convert.js';
import { bitLength, overflowResult } from './round.js';

/** Biased exponent field. */
function expField(f: Format, bits: bigint): number {
  return Number((bits & f.expMask) >> BigInt(f.mantBits));
}
const abs = (f: Format, bits: bigint): bigint => bits & ~f.signBit;
const isZero = (u: Unpacked) => u.kind === 'zero';

/** |x| < |y| × 2^k for finite nonzero x, y (exact). */
function magBelowScaled(x: Unpacked, y: Unpacked, k: number): boolean {
  // x.mant 2^x.exp < y.mant 2^(y.exp + k)
  const d = x.exp - (y.exp + k);
  if (d >= 0) return (x.mant << BigInt(d)) < y.mant;
  return x.mant < (y.mant << BigInt(-d));
}

/** Per-format constants of the division helpers (ISA: f32 96 / 2^64 / 23, f64 768 / 2^128 / 53). */
function divParams(f: Format): { big: number; scale: number; tinyExp: number } {
  if (f === F32) return { big: 96, scale: 64, tinyExp: 23 };
  if (f === F64) return { big: 768, scale: 128, tinyExp: 53 };
  throw new RangeError(`v_div_scale has no ${f.type} form`);
}

/**
 * v_div_scale (S0 = the value to scale, S1 = denominator, S2 = numerator): the ISA pseudocode,
 * with `vcc` the flag v_div_fmas reads. "x == DENORM" tests the raw bits; 1/S1 and S2/S1 being
 * denormal are decided exactly. The scalings are exact (ldexp without input flushing: choice, the
 * op exists to rescue denormal operands, whatever FP_DENORM says). A NaN operand is not covered
 * by the pseudocode: the result is then S0 (by the NaN rule when S0 is the NaN), vcc 0 (choice; the
 * sequence's v_div_fixup returns the numerator's or denominator's NaN anyway).
 */
export function divScaleBits(f: Format, s0: bigint, s1: bigint, s2: bigint, env: FloatEnv): { value: bigint; vcc: boolean } {
  const p = divParams(f);
  const exact: FloatEnv = { ...env, flushIn: false, flushOut: false };
  const a = unpack(f, s0), d = unpack(f, s1), n = unpack(f, s2);
  const up = (k: number) => ldexpBits(f, s0, k, exact);
  if (a.kind === 'nan' || d.kind === 'nan' || n.kind === 'nan') {
    return { value: a.kind === 'nan' && env.ieee ? quiet(f, s0) : s0, vcc: false };
  }
  if (isZero(n) || isZero(d)) return { value: f.qnan, vcc: false };
  const en = expField(f, s2), ed = expField(f, s1);
  if (en - ed >= p.big) return { value: s0 === s1 ? up(p.scale) : s0, vcc: true };
  if (ed === 0) return { value: up(p.scale), vcc: false };
  const finite = d.kind === 'finite' && n.kind === 'finite';
  // 1/S1 denormal: |S1| > 2^-emin.
  const rcpDenorm = d.kind === 'finite' && (ed > -f.emin + f.bias || (ed === -f.emin + f.bias && (s1 & f.fracMask) !== 0n));
  // S2/S1 denormal: |S2| < 2^emin |S1|.
  const quoDenorm = finite && magBelowScaled(n, d, f.emin);
  if (rcpDenorm && quoDenorm) return { value: s0 === s1 ? up(-p.scale) : s0, vcc: true };
  if (rcpDenorm) return { value: up(-p.scale), vcc: false };
  if (quoDenorm) return { value: s0 === s2 ? up(p.scale) : s0, vcc: true };
  if (en <= p.tinyExp) return { value: up(p.scale), vcc: false };
  return { value: s0, vcc: false };
}

/**
 * v_div_fmas: S0 × S1 + S2 with one rounding; when the lane's VCC bit is set the exact result is
 * scaled by 2^+k when exponent(S2) > bias (|S2| ≥ 2) and by 2^-k otherwise, k = 64 (f32) or 128 (f64),
 * before rounding. The ISA text says "2**32 * fma" for f32 (2**64 for f64); the scale here is the
 * one that undoes v_div_scale's (its 2^64 / 2^128 in both directions): a documented choice.
 */
export function divFmasBits(f: Format, a: bigint, b: bigint, c: bigint, vcc: boolean, env: FloatEnv): bigint {
  const k = divParams(f).scale;
  const scale = vcc ? (expField(f, c) > f.bias ? k : -k) : 0;
  return fmaMixedBits(f, f, a, b, c, scale, env);
}

/** The NaN v_div_fixup produces for 0/0 and inf/inf: ISA 0xffc00000 (f32); the same sign and quiet bit in f16/f64. */
export function divFixupNaN(f: Format): bigint {
  return f.signBit | f.qnan;
}

/**
 * v_div_fixup (S0 = quotient from the sequence, S1 = denominator, S2 = numerator): the ISA
 * pseudocode's special cases (NaN operands quieted, 0/0 and inf/inf → the negative qNaN, x/0 and
 * inf/x → ±inf, 0/x and x/inf → ±0, a quotient below 2^-(bias + mantBits) → the tiny result
 * rounded by env: ±0, or the smallest subnormal when the mode rounds away from zero, a quotient
 * S0 that overflowed → ±overflow by env), else ±|S0| with the quotient's sign. Inputs are tested
 * after the input flush of env.
 *
 * The overflow case: the pseudocode's line is "exponent(S1) == 255 → ±overflow", unreachable as
 * written (an infinite or NaN S1 is taken by the lines before it); read here as S0's exponent, the
 * quotient's. It is what LLVM's division sequence needs where the quotient of finite operands is
 * past the range (2^127 / 2^-140: the sequence's refinement meets inf − inf and S0 is NaN, which
 * the line as written would return), and what AMD's rocjitsu simulator does, checked on
 * gfx1100/gfx1201 hardware (ROCm/rocm-systems#11613; not measured on RDNA2).
 */
export function divFixupBits(f: Format, s0: bigint, s1: bigint, s2: bigint, env: FloatEnv): bigint {
  const d = flushInput(f, unpack(f, s1), env), n = flushInput(f, unpack(f, s2), env);
  const sign = (d.sign ^ n.sign) as 0 | 1;
  if (n.kind === 'nan') return quiet(f, s2);
  if (d.kind === 'nan') return quiet(f, s1);
  if (isZero(d) && isZero(n)) return divFixupNaN(f);
  if (d.kind === 'inf' && n.kind === 'inf') return divFixupNaN(f);
  if (isZero(d) || n.kind === 'inf') return signedInf(f, sign);
  if (d.kind === 'inf' || isZero(n)) return signedZero(f, sign);
  if (expField(f, n.bits) - expField(f, d.bits) < -(f.bias + f.mantBits)) {
    const away = (env.round === 1 && sign === 0) || (env.round === 2 && sign === 1);
    return away && !env.flushOut ? (sign ? f.signBit : 0n) | 1n : signedZero(f, sign);
  }
  if (expField(f, s0) === f.expMax) return overflowResult(f, sign, env.round, env.f16Ovfl);
  return sign ? abs(f, s0) | f.signBit : abs(f, s0);
}

/** Round-half-even of the exact value (-1)^sign m 2^e times an integer factor, as a JS integer (|result| < 2^53). */
function roundScaled(sign: 0 | 1, m: bigint, e: number, factor: bigint): number {
  let v = m * factor;
  if (e >= 0) v <<= BigInt(e);
  else {
    const k = BigInt(-e);
    const t = v >> k, rem = v & ((1n << k) - 1n), half = 1n << (k - 1n);
    v = rem > half || (rem === half && (t & 1n) === 1n) ? t + 1n : t;
  }
  return Number(sign ? -v : v);
}

/**
 * Float → normalized 16-bit integer (v_cvt_norm_{i16,u16}_f16, v_cvt_pknorm_*): clamp to [-1, 1]
 * (snorm) or [0, 1] (unorm), scale by 32767 / 65535, round to nearest even (the D3D conversion
 * rule; the ISA does not name the rounding: a choice); NaN → 0. Returns the 16-bit pattern.
 */
export function toNorm16Bits(f: Format, bits: bigint, signed: boolean, env: FloatEnv): number {
  const u = flushInput(f, unpack(f, bits), env);
  const max = signed ? 32767 : 65535;
  if (u.kind === 'nan' || u.kind === 'zero') return 0;
  if (u.sign && !signed) return 0;
  if (u.kind === 'inf' || !magBelowScaled(u, { kind: 'finite', sign: 0, mant: 1n, exp: 0, bits: 0n }, 0)) return (u.sign ? -max : max) & 0xffff;
  return roundScaled(u.sign, u.mant, u.exp, BigInt(max)) & 0xffff;
}

/**
 * v_cvt_pk_u8_f32's float → u8: round to nearest even, clamp to [0, 255], NaN → 0 (the ISA names
 * no rounding or saturation: a choice, reported).
 */
export function toU8Bits(f: Format, bits: bigint, env: FloatEnv): number {
  const u = flushInput(f, unpack(f, bits), env);
  if (u.kind === 'nan' || u.kind === 'zero' || u.sign) return 0;
  if (u.kind === 'inf' || bitLength(u.mant) + u.exp > 9) return 255;
  return Math.min(255, roundScaled(0, u.mant, u.exp, 1n));
}

/** Which face the cube ops pick (ISA: z major if |z| ≥ |x| and |z| ≥ |y|, else y major if |y| ≥ |x|, else x major). */
function cubeMajor(x: bigint, y: bigint, z: bigint): 'x' | 'y' | 'z' {
  const ax = unpack(F32, abs(F32, x)), ay = unpack(F32, abs(F32, y)), az = unpack(F32, abs(F32, z));
  const ge = (p: Unpacked, q: Unpacked) => p.kind !== 'nan' && q.kind !== 'nan' && p.bits >= q.bits; // magnitudes order as their bits
  if (ge(az, ax) && ge(az, ay)) return 'z';
  if (ge(ay, ax)) return 'y';
  return 'x';
}
const negative = (v: bigint) => (v & F32.signBit) !== 0n && unpack(F32, v).kind !== 'nan' && unpack(F32, v).kind !== 'zero';
const neg32 = (v: bigint) => v ^ F32.signBit;

/** v_cubeid_f32: the face index 0..5 (+x, -x, +y, -y, +z, -z) as an f32. */
export function cubeIdBits(x: bigint, y: bigint, z: bigint): bigint {
  const m = cubeMajor(x, y, z);
  const face = m === 'z' ? (negative(z) ? 5 : 4) : m === 'y' ? (negative(y) ? 3 : 2) : negative(x) ? 1 : 0;
  return BigInt(numberToF32(face));
}
/** v_cubesc_f32: the face's s coordinate (z major: ±x by z's sign; y major: x; x major: ∓z by x's sign). */
export function cubeScBits(x: bigint, y: bigint, z: bigint): bigint {
  const m = cubeMajor(x, y, z);
  if (m === 'z') return negative(z) ? neg32(x) : x;
  if (m === 'y') return x;
  return negative(x) ? z : neg32(z);
}
/** v_cubetc_f32: the face's t coordinate (z major: -y; y major: ±z by y's sign; x major: -y). */
export function cubeTcBits(x: bigint, y: bigint, z: bigint): bigint {
  const m = cubeMajor(x, y, z);
  if (m === 'y') return negative(y) ? neg32(z) : z;
  return neg32(y);
}
/** v_cubema_f32: 2 × the major axis coordinate (rounded by env: exact unless it overflows). */
export function cubeMaBits(x: bigint, y: bigint, z: bigint, env: FloatEnv): bigint {
  const m = cubeMajor(x, y, z);
  return mulBits(F32, 0x40000000n, m === 'z' ? z : m === 'y' ? y : x, env);
}

export const divScaleF32 = (a: number, b: number, c: number, env: FloatEnv): { value: number; vcc: boolean } => {
  const r = divScaleBits(F32, BigInt(a), BigInt(b), BigInt(c), env);
  return { value: Number(r.value), vcc: r.vcc };
};
export const divScaleF64 = (a: bigint, b: bigint, c: bigint, env: FloatEnv) => divScaleBits(F64, a, b, c, env);
export const divFmasF32 = (a: number, b: number, c: number, vcc: boolean, env: FloatEnv): number => Number(divFmasBits(F32, BigInt(a), BigInt(b), BigInt(c), vcc, env));
export const divFmasF64 = (a: bigint, b: bigint, c: bigint, vcc: boolean, env: FloatEnv): bigint => divFmasBits(F64, a, b, c, vcc, env);
export const divFixupF16 = (a: number, b: number, c: number, env: FloatEnv): number => Number(divFixupBits(F16, BigInt(a), BigInt(b), BigInt(c), env));
export const divFixupF32 = (a: number, b: number, c: number, env: FloatEnv): number => Number(divFixupBits(F32, BigInt(a), BigInt(b), BigInt(c), env));
export const divFixupF64 = (a: bigint, b: bigint, c: bigint, env: FloatEnv): bigint => divFixupBits(F64, a, b, c, env);
/** v_fma_mix{lo,hi}_f16's core: f32 operands, one rounding to f16. */
export const fmaF32ToF16 = (a: number, b: number, c: number, env: FloatEnv): number => Number(fmaMixedBits(F32, F16, BigInt(a), BigInt(b), BigInt(c), 0, env));

// --- v_trig_preop_f64 -------------------------------------------------------------------------

/**
 * The fraction bits of 2/π, most significant first (2/π = 0.a2f9836e 4e441529 ... in hex), as
 * 37 dwords (1,184 bits): the table of LLVM's constant folding of llvm.amdgcn.trig.preop
 * (llvm/lib/Target/AMDGPU/AMDGPUInstCombineIntrinsic.cpp, `TwoByPi`). tests/float/trig-preop.test.ts
 * checks every bit against 2/π computed there from Machin's formula.
 */
export const TWO_OVER_PI_WORDS: readonly number[] = [
  0xa2f9836e, 0x4e441529, 0xfc2757d1, 0xf534ddc0, 0xdb629599, 0x3c439041,
  0xfe5163ab, 0xdebbc561, 0xb7246e3a, 0x424dd2e0, 0x06492eea, 0x09d1921c,
  0xfe1deb1c, 0xb129a73e, 0xe88235f5, 0x2ebb4484, 0xe99c7026, 0xb45f7e41,
  0x3991d639, 0x835339f4, 0x9c845f8b, 0xbdf9283b, 0x1ff897ff, 0xde05980f,
  0xef2f118b, 0x5a0a6d1f, 0x6d367ecf, 0x27cb09b7, 0x4f463f66, 0x9e5fea2d,
  0x7527bac7, 0xebe5f17b, 0x3d0739f7, 0x8a5292ea, 0x6bfb5fb1, 0x1f8d5d08,
  0x56033046,
];

/** The first bit offset whose segment v_trig_preop_f64 returns as +0 (LLVM: "outbound segment (hardware behavior)"). */
export const TRIG_PREOP_SHIFT_LIMIT = 32 * (TWO_OVER_PI_WORDS.length - 2);

/**
 * v_trig_preop_f64 (RDNA2 ISA reference, V_TRIG_PREOP_F64): "Look Up 2/PI (S0.d) with segment
 * select S1.u[4:0] ... Rounding is round-to-zero. Large inputs (exp > 1968) are scaled to avoid
 * loss of precision through denormalization":
 *
 *     shift = S1.u * 53; if exponent(S0.d) > 1077 then shift += exponent(S0.d) - 1077
 *     result = (double)((2/PI[1200:0] << shift) & 0x1fffff_ffffffff)
 *     scale = -53 - shift; if exponent(S0.d) >= 1968 then scale += 128
 *     D.d = ldexp(result, scale)
 *
 * i.e. the 53 bits of 2/π's fraction from bit `shift` (bit 0 is the 2^-1 place) as an integer,
 * times 2^scale: always positive, rounded toward zero (only a subnormal result rounds; its low bits
 * are cut off, and it is kept whatever FP_DENORM says: the text names no flush). Where the text is
 * silent, LLVM's constant folding (AMDGPUInstCombineIntrinsic.cpp) decides: the segment select is
 * S1[4:0]; a segment that reaches past the table's 37th dword (shift >= 1120) gives +0, "hardware
 * behavior" by LLVM's comment (the ISA's table is 1,201 bits long; LLVM's ends at 1,184); a NaN S0
 * gives that NaN, quieted. `x` is S0 after the neg/abs modifiers (only its exponent and NaN-ness are
 * read).
 */
export function trigPreopF64(x: bigint, segmentSelect: number): bigint {
  const exp = Number((x >> 52n) & 0x7ffn);
  if (exp === 0x7ff && (x & ((1n << 52n) - 1n)) !== 0n) return x | (1n << 51n);
  let shift = (segmentSelect & 31) * 53;
  if (exp > 1077) shift += exp - 1077;
  if (shift >= TRIG_PREOP_SHIFT_LIMIT) return 0n;
  let table = 0n;
  for (const w of TWO_OVER_PI_WORDS) table = (table << 32n) | BigInt(w >>> 0);
  const bits = 32 * TWO_OVER_PI_WORDS.length;
  const seg = (table >> BigInt(bits - 53 - shift)) & ((1n << 53n) - 1n);
  let scale = -53 - shift;
  if (exp >= 1968) scale += 128;
  if (seg === 0n) return 0n;
  // seg * 2^scale, toward zero: normalize to a leading one at bit 52.
  const lz = 53 - bitLength(seg);
  const m = seg << BigInt(lz);
  const biased = scale - lz + 52 + 1023;
  if (biased >= 1) return (BigInt(biased) << 52n) | (m & ((1n << 52n) - 1n));
  const cut = 1 - biased;
  return cut >= 53 ? 0n : m >> BigInt(cut);
}
