// The float environment an operation runs under, derived from the MODE register.

import type { FloatType } from './format.js';

/** MODE.FP_ROUND encoding: 0 nearest-even, 1 toward +inf, 2 toward -inf, 3 toward zero. */
export type RoundMode = 0 | 1 | 2 | 3;
export const RNE: RoundMode = 0;
export const RTP: RoundMode = 1;
export const RTN: RoundMode = 2;
export const RTZ: RoundMode = 3;

/**
 * When an output counts as tiny for output flushing: 'after' = the exact result rounded to the
 * format's precision with an unbounded exponent is below the smallest normal (x86 SSE's rule);
 * 'before' = the exact result is below the smallest normal. AMD's rule is not measured.
 */
export type Tininess = 'before' | 'after';

// --- the readings the ISA reference does not settle (docs/TECHNICAL_DEBT.md, one row each) -------
// Each is one named switch both engines honour: the interpreter through the FloatEnv envFor builds,
// the recompiler's exact lowering (src/ir/passes/lower-float*.ts) through its Mode, which reads the
// same constants. Tests run both engines under every value.

/**
 * Output tininess for denormal flushing. 'after' (x86 SSE's rule; the RDNA2 ISA guide only says
 * "flush denormal outputs"): no AMD document or measurement we have settles it.
 */
export const TININESS: Tininess = 'after';

/**
 * What MODE.FP16_OVFL (bit 23) does. 'clamp': the RDNA2 ISA guide's MODE table, "If set, an
 * overflowed FP16 result is clamped to +/- MAX_FP16, regardless of round mode, while still
 * preserving true INF values" (LLVM SIDefines.h FP16_OVFL, AMDGPUUsage `.amdhsa_fp16_overflow`
 * "wavefront starts execution with specified fp16 overflow mode", COMPUTE_PGM_RSRC1 bit 26): an
 * f16 result whose exact value from finite operands rounds beyond the largest finite f16 is
 * ±MAX_F16 (0x7bff / 0xfbff) in every rounding mode; an infinity from an infinite operand or an
 * exact one (x / 0, rcp(0)) stays infinite. Only f16 results: f32 and f64 are never clamped.
 * 'ignored': the bit has no effect (the reading if hardware did not implement it).
 */
export type Fp16OvflRule = 'clamp' | 'ignored';
export const FP16_OVFL_RULE: Fp16OvflRule = 'clamp';
/** MODE.FP16_OVFL. */
export const MODE_FP16_OVFL_BIT = 1 << 23;
/** Whether MODE.FP16_OVFL's value `bit` clamps f16 overflow under the rule (every engine asks this). */
export function f16OvflClamps(bit: boolean, rule: Fp16OvflRule = FP16_OVFL_RULE): boolean {
  return rule === 'clamp' && bit;
}

/**
 * How v_cvt_{i32,u32}_{f16,f32,f64} (and their IR conversions) pick the integer. 'truncate': the
 * RDNA2 ISA pseudocode of v_cvt_i32_f32 / v_cvt_u32_f32 ("D.i = (int)S0.f", C's conversion, which
 * truncates; out of range saturates, NaN gives 0) and LLVM, which selects them for fptosi/fptoui
 * (truncating by the IR's definition) with no MODE change around them, under a default
 * nearest-even FP_ROUND that would otherwise round fptosi(2.7) to 3; 'mode': round to an
 * integer by FP_ROUND of the source width (the reading if hardware applied the round mode).
 * v_cvt_flr_i32_f32 and v_cvt_rpi_i32_f32 have their own rounding under both.
 */
export type FloatToIntRounding = 'truncate' | 'mode';
export const FLOAT_TO_INT_ROUNDING: FloatToIntRounding = 'truncate';

/**
 * How format stores (buffer_store_format_*, tbuffer_store_format_*, image_store[_mip]) round a
 * float into a narrower component (src/float/format-store.ts, both engines; its header has the
 * sources). The RDNA2 ISA reference does not say. 'nearest-even': every conversion rounds the
 * exact value to nearest, ties to even (Vulkan's "should round to nearest"; IEEE-754's default for
 * f16; Mesa's _mesa_float_to_unorm / _mesa_float_to_snorm (of the f32 product) and util_float_to_half). 'd3d': D3D's
 * data conversion rules: float targets (f16 and the 11- and 10-bit unsigned floats) round toward
 * zero (overflow to the largest finite), FLOAT→UNORM/SNORM to nearest with ties away from zero
 * ("+ 0.5, drop the fraction"; the only tie of a normalized store is a 2-bit SNORM's ±0.5),
 * SCALED nearest-even. Neither is measured on RDNA2 hardware.
 */
export type FormatStoreRounding = 'nearest-even' | 'd3d';
export const FORMAT_STORE_ROUNDING: FormatStoreRounding = 'nearest-even';

export interface FloatEnv {
  readonly round: RoundMode;
  /** Subnormal inputs become ±0 (sign kept) before the operation. */
  readonly flushIn: boolean;
  /** Tiny results become ±0 (sign kept). */
  readonly flushOut: boolean;
  /** MODE.IEEE (bit 9): sNaN quieting and min/max NaN rules. */
  readonly ieee: boolean;
  /** MODE.DX10_CLAMP (bit 8): clamp maps NaN to 0. */
  readonly dx10Clamp: boolean;
  /** Output tininess; default TININESS. */
  readonly tininess?: Tininess;
  /**
   * MODE.FP16_OVFL under FP16_OVFL_RULE: an f16 result that overflows from finite operands is
   * ±MAX_F16 whatever the rounding mode (other formats never). Default false.
   */
  readonly f16Ovfl?: boolean;
  /** Float → integer conversions; default FLOAT_TO_INT_ROUNDING. */
  readonly floatToInt?: FloatToIntRounding;
}

/** The switches of the model (the constants above), overridable per env for tests. */
export interface FloatSwitches {
  readonly tininess: Tininess;
  readonly fp16Ovfl: Fp16OvflRule;
  readonly floatToInt: FloatToIntRounding;
}
export const SWITCHES: FloatSwitches = { tininess: TININESS, fp16Ovfl: FP16_OVFL_RULE, floatToInt: FLOAT_TO_INT_ROUNDING };

/** MODE bit positions of FP_ROUND and FP_DENORM for a float type (f16 and f64 share one field). */
export function modeFields(type: FloatType): { round: number; denorm: number } {
  return type === 'f32' ? { round: 0, denorm: 4 } : { round: 2, denorm: 6 };
}

/**
 * The environment of a `type` operation under MODE register value `mode`. FP_DENORM (2 bits):
 * 0 flush inputs and outputs, 1 keep inputs / flush outputs, 2 flush inputs / keep outputs,
 * 3 keep both (LLVM SIDefines.h FP_DENORM_FLUSH_IN_FLUSH_OUT=0, FLUSH_OUT=1, FLUSH_IN=2,
 * FLUSH_NONE=3): bit 0 keeps inputs, bit 1 keeps outputs. FP16_OVFL (bit 23) under the rule
 * (it clamps only f16 results: the rounding core checks the format). `sw`: the switches (tests).
 */
export function envFor(mode: number, type: FloatType, sw: FloatSwitches = SWITCHES): FloatEnv {
  const f = modeFields(type);
  const denorm = (mode >>> f.denorm) & 3;
  return {
    round: ((mode >>> f.round) & 3) as RoundMode,
    flushIn: (denorm & 1) === 0,
    flushOut: (denorm & 2) === 0,
    dx10Clamp: ((mode >>> 8) & 1) === 1,
    ieee: ((mode >>> 9) & 1) === 1,
    tininess: sw.tininess,
    f16Ovfl: f16OvflClamps((mode & MODE_FP16_OVFL_BIT) !== 0, sw.fp16Ovfl),
    floatToInt: sw.floatToInt,
  };
}

/**
 * The environment of a conversion from `src` to `dst`: input flushing follows the source type's
 * FP_DENORM field, rounding and output flushing the destination type's.
 */
export function convertEnvFor(mode: number, src: FloatType, dst: FloatType, sw: FloatSwitches = SWITCHES): FloatEnv {
  const d = envFor(mode, dst, sw);
  return { ...d, flushIn: envFor(mode, src, sw).flushIn };
}

/** RNE, denormals kept, IEEE on, DX10 clamp on: IEEE-754 default arithmetic. */
export const IEEE_ENV: FloatEnv = { round: 0, flushIn: false, flushOut: false, ieee: true, dx10Clamp: true };
