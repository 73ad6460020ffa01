// Which MODE bits a float instruction's result depends on, from its table entry (operand types,
// flags) and its modifiers: the float model's actual dependence (src/float), so a run under a MODE
// known only at run time is copied only for the bits its instructions read (dynamic-mode.ts), and
// a field an instruction does not read never makes it dynamic. tests/frontend/mode-reads.test.ts
// runs every float instruction of the table in the interpreter with random operands under MODE
// values that differ only in the bits this leaves out, and finds the same registers every time.
//
// Per operand width w (FP_ROUND and FP_DENORM of w; f16 and f64 share one field of each):
// - FP_DENORM input bit (bit 0, keep inputs) of every float source's width, unless the table says
//   the instruction flushes f32 denormals whatever MODE says ('mode:always-flush-f32'). (v_cmp_class
//   reads raw bits: the table gives it no float type, so it reads no MODE at all.)
// - For a float result of width w:
//   - FP_ROUND of w, unless the result is exact: min/max/med3, the integral roundings (floor, ceil,
//     trunc, rndne), frexp_mant, or a fixed rounding ('mode:rtz', v_cvt_pkrtz); with omod the
//     scaling rounds (a subnormal result), so FP_ROUND again.
//   - FP_DENORM output bit (bit 1) of w, unless the result is never subnormal: integer → float
//     (the smallest nonzero magnitude is 1), the integral roundings (integers or ±0), frexp_mant
//     (a magnitude in [0.5, 1)); min/max do flush a subnormal result.
//   - IEEE (NaN quieting, min/max NaN rules, omod ignored) when a source is a float (an integer
//     converted is never NaN) or omod is set.
//   - DX10_CLAMP only under the clamp modifier (clamp of NaN).
//   - FP16_OVFL (bit 23) for an f16 result that rounds (as FP_ROUND, but not under 'mode:rtz':
//     toward zero, an overflow is ±MAX whatever the bit): src/float FP16_OVFL_RULE.
// - An integer or lane-mask result (compares, float → int conversions, frexp_exp) reads no
//   FP_ROUND (float → int truncates under src/float FLOAT_TO_INT_ROUNDING 'truncate'; under
//   'mode' v_cvt_{i32,u32,i16,u16} read the source width's; v_cvt_flr/v_cvt_rpi have their own
//   rounding), no output bit, no IEEE and no DX10_CLAMP.
// v_trig_preop_f64 (a table lookup) reads only its output modifiers' fields.
// An instruction whose operand types name no float at all is taken to read every field of its
// table float type (none such is known; a safe default).
import type { Instruction } from '../decode/types.js';
import { NO_FLAGS, type DataType, type FloatType } from '../isa/types.js';
import { MODE_DX10_CLAMP_BIT, MODE_FP16_OVFL_BIT, MODE_IEEE_BIT, modeFieldsFor } from '../analysis/hwreg.js';
import type { KnownBits } from '../analysis/scalar-constants.js';
import type { ValuMode } from '../analysis/mode.js';
import { floatAtomicOf } from '../float/atomic.js';
import { FLOAT_TO_INT_ROUNDING, FP16_OVFL_RULE } from '../float/env.js';

/** Whether a float mode record leaves a field to run time. */
export const isDynamic = (r: ValuMode): boolean => r.round === 'dynamic' || r.denorm === 'dynamic' || r.dx10Clamp === 'dynamic' || r.ieee === 'dynamic' || r.f16Ovfl === 'dynamic';

/** The float width of an operand type (a packed f16 pair is f16), or undefined for integers. */
export const widthOf = (t: DataType): FloatType | undefined => (t === 'f16' || t === 'v2f16' ? 'f16' : t === 'f32' || t === 'f64' ? t : undefined);

/** Results that are exact (no rounding) and never subnormal unless an input is. */
const EXACT = /^v_(pk_)?(min|max|med3)|^v_(floor|ceil|trunc|rndne)_|^v_frexp_mant_/;
/** The float → integer conversions that truncate, or round by the source's FP_ROUND under FLOAT_TO_INT_ROUNDING 'mode'. */
const TO_INT = /^v_cvt_(i32|u32|i16|u16)_f(16|32|64)$/;
/** Results never subnormal whatever the inputs (integral values or ±0; a magnitude in [0.5, 1)). */
const NEVER_SUBNORMAL = /^v_(floor|ceil|trunc|rndne)_|^v_frexp_mant_/;

/** The MODE bits `inst`'s result depends on (0 for a non-float instruction). */
export function modeReadsOf(inst: Instruction): number {
  const def = inst.def;
  const f = def.float;
  if (f === undefined) return 0;
  // The float atomics compute under their fixed FLOAT_ATOMIC_MODE, whatever MODE holds (src/float/atomic.ts).
  if (floatAtomicOf(def.mnemonic)) return 0;
  const flags = def.flags ?? NO_FLAGS;
  const m = def.mnemonic;
  const all = (w: FloatType) => { const x = modeFieldsFor(w); return (3 << x.round) | (3 << x.denorm); };
  const srcW = new Set<FloatType>(), dstW = new Set<FloatType>();
  for (const o of def.operands) {
    const w = widthOf(o.type);
    if (w === undefined) continue;
    if (o.role === 'src' || o.role === 'srcdst') srcW.add(w);
    if (o.role === 'dst' || o.role === 'srcdst') dstW.add(w);
  }
  if (srcW.size === 0 && dstW.size === 0) return (all(f) | MODE_DX10_CLAMP_BIT | MODE_IEEE_BIT) >>> 0;
  const omod = (inst.mods.omod ?? 0) !== 0, clamp = inst.mods.clamp === true;
  // v_trig_preop_f64's segment reads no MODE (src/float/special.ts trigPreopF64); its output
  // modifiers do: omod rounds and may flush (FP_ROUND, the output bit), IEEE and DX10_CLAMP as for
  // any result (counted whenever either modifier is set).
  if (m === 'v_trig_preop_f64') {
    const x = modeFieldsFor('f64');
    return ((omod ? (3 << x.round) | (2 << x.denorm) : 0) | (omod || clamp ? MODE_IEEE_BIT : 0) | (clamp ? MODE_DX10_CLAMP_BIT : 0)) >>> 0;
  }
  const alwaysFlush = flags.includes('mode:always-flush-f32');
  let bits = 0;
  for (const w of srcW) if (!(alwaysFlush && w === 'f32')) bits |= 1 << modeFieldsFor(w).denorm;
  for (const w of dstW) {
    const x = modeFieldsFor(w);
    if (omod || !(EXACT.test(m) || flags.includes('mode:rtz'))) bits |= 3 << x.round;
    // FP16_OVFL where an f16 result may overflow: whatever rounds, but a fixed toward-zero rounding
    // (its overflow is ±MAX with the bit or without).
    if (w === 'f16' && FP16_OVFL_RULE === 'clamp' && !flags.includes('mode:rtz') && (omod || !EXACT.test(m))) bits |= MODE_FP16_OVFL_BIT;
    if (!(alwaysFlush && w === 'f32') && srcW.size > 0 && !NEVER_SUBNORMAL.test(m)) bits |= 2 << x.denorm;
  }
  // Float → int under FLOAT_TO_INT_ROUNDING 'mode': the source width's FP_ROUND.
  if (dstW.size === 0 && FLOAT_TO_INT_ROUNDING === 'mode' && TO_INT.test(m)) for (const w of srcW) bits |= 3 << modeFieldsFor(w).round;
  if (dstW.size > 0 && (srcW.size > 0 || omod)) bits |= MODE_IEEE_BIT;
  if (dstW.size > 0 && clamp) bits |= MODE_DX10_CLAMP_BIT;
  return bits >>> 0;
}

/** MODE bits 9:0 (both FP_ROUND and FP_DENORM fields, DX10_CLAMP, IEEE) and FP16_OVFL (23): every bit modeReadsOf can name. */
export const FLOAT_BITS = (0x3ff | MODE_FP16_OVFL_BIT) >>> 0;
/** What an unread, unknown float bit is taken to be: nearest even, denormals kept, DX10_CLAMP and IEEE on, FP16_OVFL off. */
const SETTLED = 0x3f0;

/**
 * `mode` with every float bit `inst` does not read and `mode` does not know made known (as
 * SETTLED): the instruction's result is the same whatever their value, and a fixed one lets its
 * float mode be static (one helper for every copy, and native where the profile allows).
 */
export function settleUnread(inst: Instruction, mode: KnownBits): KnownBits {
  const free = (FLOAT_BITS & ~modeReadsOf(inst) & ~mode.known) >>> 0;
  return { known: (mode.known | free) >>> 0, value: ((mode.value & ~free) | (SETTLED & free)) >>> 0 };
}
