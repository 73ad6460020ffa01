// Exact RDNA2 VALU float arithmetic (core: no Node APIs).
//
// MODEL (for docs/ARCHITECTURE.md)
// - Values are raw bits: f16 and f32 as `number` (the unsigned bit pattern), f64 as `bigint`.
//   Every operation takes a FloatEnv ({round, flushIn, flushOut, ieee, dx10Clamp, tininess?,
//   f16Ovfl?, floatToInt?}), built from a MODE register value by envFor(mode, type) (FP_ROUND:
//   0 RNE, 1 +inf, 2 -inf, 3 zero; FP_DENORM: bit 0 keeps inputs, bit 1 keeps outputs; f16 and
//   f64 share bits 3:2/7:6; DX10_CLAMP bit 8, IEEE bit 9, FP16_OVFL bit 23) or
//   convertEnvFor(mode, src, dst) for conversions.
// - Switches (env.ts; one row each in docs/TECHNICAL_DEBT.md): what the ISA reference does not
//   settle is one named constant, read by envFor here and by the recompiler's exact lowering
//   (src/ir/passes/lower-float*.ts), so both engines change together: TININESS ('after'),
//   FP16_OVFL_RULE ('clamp'), FLOAT_TO_INT_ROUNDING ('truncate'). Their sources are in env.ts.
// - Exact (correctly rounded in all four modes, with subnormals, overflow per mode: RTZ and the
//   mode rounding away from the overflow's sign give ±MAX): add, sub, mul, fma (one rounding),
//   div, sqrt, float↔float conversions, int→float, ldexp, omod. Integral rounding (rndne, floor,
//   ceil, trunc), frexp, min/max/med3, compares and class are exact by nature.
// - The ops the hardware only approximates (v_rcp, v_rsq, v_sqrt ~1 ulp; v_log, v_exp, v_sin,
//   v_cos): this library returns the correctly rounded result for rcp, rsq and sqrt (in the
//   env's mode), which is a documented deviation from hardware; log2/exp2/sin/cos (transcendental.ts)
//   are our own f64 algorithms (add/sub/mul to nearest even and exact steps only, shared with the
//   recompiler's lowering), their f64 value rounded to the format in the env's mode.
//   ACO notes that v_rcp/v_rsq/v_sqrt/v_log/v_exp_f32 and v_mad/v_mac_f32 always flush f32
//   denormals: callers pass an env with flushIn/flushOut set for those (not done here).
//   div is the correctly rounded quotient; v_div_scale/v_div_fmas/v_div_fixup follow the ISA
//   pseudocode (special.ts, with the choices documented there).
// - Input flush: a subnormal operand becomes ±0 (sign kept) before the operation when flushIn
//   (arithmetic, conversions, min/max/med3, compares, integral rounding, frexp, ldexp);
//   v_cmp_class reads the raw bits. Output flush: a tiny result becomes ±0 (sign kept); tininess
//   is the switch TININESS (env.tininess), default 'after' rounding (x86's rule, measured in the
//   notes); AMD's rule is not measured.
// - Exact zero sums: +0 except under RTN (-0); equal-signed zeros keep their sign.
// - NaN rule: a NaN result from NaN operands is the first NaN operand in operand order (src0,
//   src1, src2) with its sign and payload, quieted (quiet bit set) when MODE.IEEE = 1 and left
//   as is when IEEE = 0 (LLVM #208733/#139622: at IEEE=0 pre-gfx12 float ops do not quiet sNaN;
//   LLVM #214608: v_max quiets by setting only the quiet bit). Narrowing conversions always
//   quiet. NaNs generated from non-NaN operands (inf - inf, 0 × inf, 0/0, sqrt(-x)) are the
//   canonical +qNaN (0x7e00 / 0x7fc00000 / 0x7ff8000000000000). Which NaN wins when several
//   are NaN is not measured.
// - min/max: IEEE=1: an sNaN operand gives it quieted, a qNaN is treated as missing; IEEE=0:
//   any NaN is treated as missing (no quieting), two NaNs give src1. -0 < +0. med3: any NaN →
//   min(min(a, b), c) (ISA pseudocode).
// - float→int: the switch FLOAT_TO_INT_ROUNDING (env.floatToInt): 'truncate' (the ISA pseudocode
//   "(int)S0.f"; FP_ROUND not used) or 'mode' (FP_ROUND of the source); v_cvt_flr: floor,
//   v_cvt_rpi: floor(x + 0.5) under both; NaN → 0, saturating. v_cvt_pkrtz_f16_f32 always
//   rounds toward zero.
// - omod: ignored when IEEE=1 (LLVM); applied before clamp. clamp: [0, 1], NaN → 0 when
//   DX10_CLAMP, -0 → +0.
// - FP16_OVFL (MODE bit 23), the switch FP16_OVFL_RULE ('clamp', the ISA guide's MODE table):
//   with the bit set an f16 result that overflows from finite operands is ±MAX_F16 (0x7bff /
//   0xfbff) in every rounding mode (round.ts overflowResult, the one place overflow is decided);
//   infinite operands and exact infinities (x/0, rcp(0)) stay infinite; f32/f64 never clamp.
// Speed: f32 add/sub/mul run in doubles (RNE via Math.fround, which is correctly rounded as f64
// has ≥ 2p+2 bits, then one ulp step for directed modes from the exact sign of the error:
// Fast2Sum for add, the exact f64 product for mul); f16 add/mul use exact doubles plus a double
// rounding core; everything else uses the BigInt core (round.ts roundToFormat).

export * from './format.js';
export * from './env.js';
export { roundToFormat, roundNumber, overflowResult } from './round.js';
export * from './arith.js';
export * from './compare.js';
export * from './convert.js';
export * from './modifiers.js';
export * from './transcendental.js';
export * from './special.js';
export * from './atomic.js';
