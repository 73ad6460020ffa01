// Which f32 ops of a kernel run as native SPIR-V float instructions, and the float-controls
// execution modes of its entry point. A module has one rounding mode and one denormal mode per
// float width and entry point (SPV_KHR_float_controls), so the kernel's native f32 ops must share
// them: planFloatControls picks the pair the profile offers that makes the most ops native; ops
// under another mode are lowered exactly (lowerFloat) like every op the device cannot express.
//
// What each op needs to compute RDNA's bits natively (NATIVE_F32, emit-ops.ts), from the op's
// static FloatMode:
// - FAdd32/FSub32/FMul32: the entry's rounding mode = FP_ROUND (nearest even → RoundingModeRTE,
//   toward zero → RoundingModeRTZ; Vulkan has no mode for ±infinity), denormals kept in and out
//   (FP_DENORM 3 → DenormPreserve) and SignedZeroInfNanPreserve (else the driver may ignore zero
//   signs and assume no inf/NaN).
// - FCmp32: denormal inputs kept (FP_DENORM bit 0 → DenormPreserve; the output setting and the
//   rounding mode do not touch a compare) and SignedZeroInfNanPreserve (unordered compares).
// - ConvertF32U32/ConvertF32S32: the rounding mode only. An integer's f32 value is never
//   subnormal (the smallest nonzero magnitude is 1) and never -0, inf or NaN, so the denormal mode
//   and SignedZeroInfNanPreserve change nothing: native under every FP_DENORM value.
// No RDNA flush setting is Vulkan's DenormFlushToZero, so that mode is never declared: under it
// Vulkan requires denormal *results* to be flushed but only allows (does not require) denormal
// operands to be flushed, and leaves the flushed zero's sign open (the Vulkan spec's "Precision and
// Operation of SPIR-V Instructions"; VK-GL-CTS's float-controls tests accept unflushed operands and
// either zero), while RDNA flushes the inputs it is told to (FP_DENORM bit 0 clear) always, keeps
// the sign, and decides output tininess by its own rule (src/float env.ts `tininess`, after
// rounding by default, not measured on hardware). E.g. 2^-127 + 2^-127 under FP_DENORM 0 is +0 on
// RDNA and may be 2^-126 under DenormFlushToZero. Those modes stay emulated.
//
// Only the profile's properties decide (a driver may accept a mode it does not advertise and
// ignore it: lavapipe accepts RoundingModeRTZ and rounds to nearest). Independence: where the
// profile's roundingModeIndependence / denormBehaviorIndependence is NONE every width must be set
// identically, so the mode is declared for 16, 32 and 64 bits and must be offered for all three
// (the module has no f16 float values and f64 ones only in the guarded fma's helper and the
// transcendental cores' device form, which need nearest even for 64 bits: every RDNA f16/f64 op
// is integer code, so the other widths' modes change no other result); with 32_BIT_ONLY or ALL the 32-bit mode is declared alone (16
// and 64 stay unset, hence identical).
import { type Block, ByModeAndOp, type FloatMode, type Inst, type IrFunction, isDynamicFloatMode } from '../../ir/ir.js';
import type { FloatControlsIndependence, TargetProfile, WidthControls } from '../profile.js';
import { NATIVE_F32 } from './emit-ops.js';
import { GUARDED_F32 } from '../../ir/passes/lower-float-guarded.js';

const isStatic = (f: FloatMode | undefined): boolean => f !== undefined && !isDynamicFloatMode(f);

export type EntryRounding = 'RoundingModeRTE' | 'RoundingModeRTZ';

/** What one native op needs of its entry point. */
export interface NativeNeeds {
  readonly rounding: EntryRounding | undefined;
  readonly denormPreserve: boolean;
  readonly signedZeroInfNanPreserve: boolean;
}

/** The entry point's float controls: each execution mode with the widths it is declared for. */
export interface EntryFloatControls {
  readonly rounding: { readonly mode: EntryRounding; readonly widths: readonly (16 | 32 | 64)[] } | undefined;
  readonly denormPreserve: { readonly widths: readonly (16 | 32 | 64)[] } | undefined;
  /** SignedZeroInfNanPreserve, 32-bit (no independence property governs it). */
  readonly signedZeroInfNanPreserve: boolean;
  /**
   * f64 device values (the guarded helpers' f32 fma through f64, lower-float-guarded.ts, and the
   * transcendental cores' device form, lower-float-transcendental.ts): the
   * Float64 capability and SignedZeroInfNanPreserve for 64 bits (`rounding` then covers 64 too).
   */
  readonly float64?: boolean;
}

export interface FloatControlsPlan {
  readonly controls: EntryFloatControls;
  /** The float ops that run natively under `controls`. */
  readonly native: ReadonlySet<Inst>;
  /** Why a float op is not native (every float op not in `native` has one). */
  why(i: Inst): string;
}

/** What `i` needs to run natively, or why it cannot under any entry point mode. */
export function nativeNeeds(i: Inst): NativeNeeds | string {
  return examine(i, true) as NativeNeeds | string;
}

/**
 * nativeNeeds, its answer for a native op one of NEEDS; where `explain` is false, undefined
 * instead of the text of why it cannot be native (the plan asks of every float op, and most are not).
 */
function examine(i: Inst, explain: boolean): NativeNeeds | string | undefined {
  const f = i.float;
  if (f === undefined) return explain ? `${i.op} is not a float op` : undefined;
  // A list of what may be native, not of what may not: every other float op is emulated exactly.
  if (!NATIVE_F32.has(i.op)) return explain ? `${i.op}: no native SPIR-V op computes RDNA's bits (NaN and signed-zero rules, saturation, fused or correctly rounded results, output modifiers): always emulated exactly` : undefined;
  if (f.round === 'dynamic' || f.denorm === 'dynamic' || f.ieee === 'dynamic' || f.dx10Clamp === 'dynamic' || f.f16Ovfl === 'dynamic') return explain ? `${i.op}: float mode known only at run time (translated per MODE value first)` : undefined;
  switch (i.op) {
    case 'FAdd32': case 'FSub32': case 'FMul32': {
      const rounding = roundingOf(f);
      if (rounding === undefined) return explain ? `${i.op}: ${directedWhy(f)}` : undefined;
      if (f.denorm !== 3) return explain ? `${i.op}: ${denormWhy(f.denorm)}` : undefined;
      return rounding === 'RoundingModeRTE' ? NEEDS_ARITH_RTE : NEEDS_ARITH_RTZ;
    }
    case 'FCmp32':
      if ((f.denorm & 1) === 0) return explain ? `${i.op}: ${denormWhy(f.denorm)}` : undefined;
      return NEEDS_CMP;
    case 'ConvertF32U32': case 'ConvertF32S32': {
      const rounding = roundingOf(f);
      if (rounding === undefined) return explain ? `${i.op}: ${directedWhy(f)}` : undefined;
      return rounding === 'RoundingModeRTE' ? NEEDS_CVT_RTE : NEEDS_CVT_RTZ;
    }
    default: return explain ? `${i.op}: no native rule (internal)` : undefined;
  }
}

/** nativeNeeds' answers for a native op (shared, never changed): add/sub/mul, compare, integer to f32. */
const NEEDS_ARITH_RTE: NativeNeeds = Object.freeze({ rounding: 'RoundingModeRTE', denormPreserve: true, signedZeroInfNanPreserve: true });
const NEEDS_ARITH_RTZ: NativeNeeds = Object.freeze({ rounding: 'RoundingModeRTZ', denormPreserve: true, signedZeroInfNanPreserve: true });
const NEEDS_CMP: NativeNeeds = Object.freeze({ rounding: undefined, denormPreserve: true, signedZeroInfNanPreserve: true });
const NEEDS_CVT_RTE: NativeNeeds = Object.freeze({ rounding: 'RoundingModeRTE', denormPreserve: false, signedZeroInfNanPreserve: false });
const NEEDS_CVT_RTZ: NativeNeeds = Object.freeze({ rounding: 'RoundingModeRTZ', denormPreserve: false, signedZeroInfNanPreserve: false });
/** Every answer examine gives for a native op, numbered for the plan's classes (classOf). */
const NEEDS: readonly NativeNeeds[] = [NEEDS_ARITH_RTE, NEEDS_ARITH_RTZ, NEEDS_CMP, NEEDS_CVT_RTE, NEEDS_CVT_RTZ];
const CLASSES = (NEEDS.length + 1) * 4;
// A plan keeps the classes it has ops of as the bits of one number.
if (CLASSES > 31) throw new Error('float-controls: more op classes than bits of a mask (internal)');

/** The execution mode of the op's FP_ROUND, if Vulkan has one. */
function roundingOf(f: FloatMode): EntryRounding | undefined {
  return f.round === 0 ? 'RoundingModeRTE' : f.round === 3 ? 'RoundingModeRTZ' : undefined;
}

function directedWhy(f: FloatMode): string {
  return `rounding toward ${f.round === 1 ? '+' : '-'}infinity has no Vulkan execution mode`;
}

function denormWhy(d: FloatMode['denorm']): string {
  return `FP_DENORM ${String(d)} (${d === 0 ? 'flush inputs and outputs' : d === 1 ? 'flush outputs' : 'flush inputs'}) is not Vulkan's DenormFlushToZero (which need not flush operands nor keep the zero's sign)`;
}

/** The widths a mode must be declared for under `independence` (shared arrays: planFloatControls runs twice per kernel). */
const ALL_WIDTHS: readonly (16 | 32 | 64)[] = Object.freeze([16, 32, 64] as const);
const WIDTH_32: readonly (16 | 32 | 64)[] = Object.freeze([32] as const);
function widthsFor(independence: FloatControlsIndependence): readonly (16 | 32 | 64)[] {
  return independence === 'NONE' ? ALL_WIDTHS : WIDTH_32;
}
/** A plan's native set where none of its float ops is native (shared: most kernels have none; never changed). */
const NO_NATIVE: ReadonlySet<Inst> = new Set();

/** Whether the profile offers control `k` for every width it must be declared for. */
function offers(p: TargetProfile, k: keyof WidthControls, widths: readonly (16 | 32 | 64)[]): boolean {
  // A loop, not every(): its closure was made at each of the several calls per plan, twice per kernel.
  for (let j = 0; j < widths.length; j++) { const w = widths[j]; if (!(w === 16 ? p.f16 : w === 32 ? p.f32 : p.f64)[k]) return false; }
  return true;
}

/**
 * The entry point's float controls for the float ops of `fn` and which of them run natively: the
 * (rounding, denormal) pair the profile offers that costs least, counting what the other ops then
 * become (guarded or emulated; ties: fewer modes declared, then RTE before RTZ), each mode declared
 * only where a native op needs it (guarded ops add theirs at emission: withGuarded).
 */
export function planFloatControls(fn: IrFunction, p: TargetProfile): FloatControlsPlan {
  // Made at the first float op (most kernels have none: they share the plan without any).
  let floats: Inst[] | undefined;
  // Indexed loops: for…of made an iterator result per instruction (this runs once per kernel, mostly unoptimised).
  for (let bk = 0; bk < fn.blocks.length; bk++) {
    const insts = (fn.blocks[bk] as Block).insts;
    for (let k = 0; k < insts.length; k++) { const i = insts[k] as Inst; if (i.float) (floats ??= []).push(i); }
  }
  return floats ? planFloatControlsOf(floats, p) : noFloatPlan(p);
}

/**
 * planFloatControls for a function whose float ops (`i.float` set) are `floats`, in the order of
 * its blocks and instructions (the caller's walk found them: emitSpirv's usesOf).
 */
export function planFloatControlsOf(floats: readonly Inst[], p: TargetProfile): FloatControlsPlan {
  if (floats.length === 0) return noFloatPlan(p);
  // Each op's class (classOf): its needs and what its cost depends on, counted per class, so a
  // candidate's cost is a sum over the few classes, not a walk over every op (a float-heavy kernel
  // has thousands: straight4000 1,500), and no why-text is made for an op until it is asked for.
  // The classes the kernel has ops of are the bits of `used` (the searches go over these alone),
  // each class's count in `counts` from its first op on.
  const counts: number[] = [];
  let used = 0;
  for (let k = 0; k < floats.length; k++) {
    const c = classAt(floats[k] as Inst), bit = 1 << c;
    if ((used & bit) === 0) { used |= bit; counts[c] = 1; } else counts[c] = (counts[c] as number) + 1;
  }
  return plan(floats, used, counts, p);
}

/**
 * The classes of float ops by FloatMode record and op, for the process: an op's class is decided
 * by its op and record alone (classOf reads nothing else), and records are never changed (the
 * frontend shares one per MODE value), so each pair is classified once, not once per kernel and
 * plan (twice per kernel: recompile's, then emission's of the ops left).
 */
const CLASS_BY_PAIR = new ByModeAndOp<number>();
function classAt(i: Inst): number {
  return i.float === undefined ? classOf(i) : CLASS_BY_PAIR.get(i, classOf);
}

/**
 * What the plan needs of one float op, as a number: its needs (nativeNeeds: one of NEEDS, or
 * NEEDS.length where it cannot be native) times 4, plus 2 for an op with a guarded form
 * (GUARDED_F32) and 1 for a static mode (the cost rule below reads nothing else of the op).
 */
function classOf(i: Inst): number {
  const n = examine(i, false);
  const k = n === undefined ? NEEDS.length : NEEDS.indexOf(n as NativeNeeds);
  if (k < 0) throw new Error(`float needs of ${i.op} not in NEEDS (internal)`);
  return k * 4 + (GUARDED_F32.has(i.op) ? 2 : 0) + (isStatic(i.float) ? 1 : 0);
}

function noFloatPlan(p: TargetProfile): FloatControlsPlan {
  let none = NO_FLOAT_PLANS.get(p);
  if (!none) {
    none = plan([], 0, [], p);
    NO_FLOAT_PLANS.set(p, none);
  }
  return none;
}

/**
 * The plan of a function without float ops, by profile: the same for every such function (a
 * plan is never changed), and most kernels have none. Made once per profile, not twice per kernel.
 */
const NO_FLOAT_PLANS = new WeakMap<TargetProfile, FloatControlsPlan>();

/**
 * What plan reads of a profile: the widths each mode is declared for, the candidate rounding and
 * denormal modes, SignedZeroInfNanPreserve and whether guarded ops can run (RTE offered with it).
 * The same for every kernel of a profile (profiles are never changed, as NO_FLOAT_PLANS assumes):
 * made once per profile, not per kernel with float ops, where plan runs mostly unoptimised.
 */
interface Candidates {
  readonly rWidths: readonly (16 | 32 | 64)[];
  readonly dWidths: readonly (16 | 32 | 64)[];
  readonly roundings: readonly (EntryRounding | undefined)[];
  readonly denorms: readonly boolean[];
  readonly szin: boolean;
  readonly rteOffered: boolean;
}
const CANDIDATES = new WeakMap<TargetProfile, Candidates>();
function candidatesOf(p: TargetProfile): Candidates {
  let c = CANDIDATES.get(p);
  if (c === undefined) {
    const rWidths = widthsFor(p.roundingModeIndependence), dWidths = widthsFor(p.denormBehaviorIndependence);
    const roundings: (EntryRounding | undefined)[] = [undefined];
    if (offers(p, 'roundingModeRTE', rWidths)) roundings.push('RoundingModeRTE');
    if (offers(p, 'roundingModeRTZ', rWidths)) roundings.push('RoundingModeRTZ');
    const szin = p.f32.signedZeroInfNanPreserve;
    c = {
      rWidths, dWidths, roundings, denorms: offers(p, 'denormPreserve', dWidths) ? [false, true] : [false], szin,
      rteOffered: offers(p, 'roundingModeRTE', rWidths) && szin,
    };
    CANDIDATES.set(p, c);
  }
  return c;
}

/** Whether an op of needs `n` runs natively under rounding mode `r`, DenormPreserve `d` and SignedZeroInfNanPreserve `szin`. */
function fits(n: NativeNeeds, r: EntryRounding | undefined, d: boolean, szin: boolean): boolean {
  return (n.rounding === undefined || n.rounding === r) && (!n.denormPreserve || d) && (!n.signedZeroInfNanPreserve || szin);
}

/** planFloatControls for the float ops `floats`, of the classes (classOf) that are the bits of `used`, `counts` of each. */
function plan(floats: readonly Inst[], used: number, counts: readonly number[], p: TargetProfile): FloatControlsPlan {
  const { rWidths, dWidths, roundings, denorms, szin, rteOffered } = candidatesOf(p);
  // Cost of a candidate, by what each op becomes (about the ratio of the code each runs): native 0;
  // guarded 1 (add/sub/mul not native where the entry point can run nearest even:
  // lower-float-guarded.ts); emulated 6 for add/sub/mul, 2 for a compare or conversion.
  // Without float ops every candidate costs 0 and the first (no modes) wins: no search.
  let bestR: EntryRounding | undefined, bestD = false, bestCost = floats.length === 0 ? 0 : Infinity, bestModes = 0;
  if (floats.length > 0) {
    for (let ri = 0; ri < roundings.length; ri++) {
      const r = roundings[ri];
      for (let di = 0; di < denorms.length; di++) {
        const d = denorms[di] as boolean;
        let cost = 0;
        // The used classes, lowest first (each step clears the lowest bit).
        for (let m = used; m !== 0; m &= m - 1) {
          const c = 31 - Math.clz32(m & -m);
          const n = NEEDS[c >> 2];
          if (n !== undefined && fits(n, r, d, szin)) continue;
          cost += (counts[c] as number) * ((c & 2) === 0 ? 2 : rteOffered && r !== 'RoundingModeRTZ' && (c & 1) !== 0 ? 1 : 6);
        }
        const modes = (r ? 1 : 0) + (d ? 1 : 0);
        if (cost < bestCost || (cost === bestCost && modes < bestModes)) { bestR = r; bestD = d; bestCost = cost; bestModes = modes; }
      }
    }
  }
  const best = { r: bestR, d: bestD };
  // Which classes run natively under the choice (bits, as `used`).
  let nativeClasses = 0;
  let needR = false, needD = false, needS = false;
  for (let m = used; m !== 0; m &= m - 1) {
    const c = 31 - Math.clz32(m & -m);
    const n = NEEDS[c >> 2];
    if (n === undefined || !fits(n, best.r, best.d, szin)) continue;
    nativeClasses |= 1 << c;
    if (n.rounding) needR = true;
    if (n.denormPreserve) needD = true;
    if (n.signedZeroInfNanPreserve) needS = true;
  }
  let native = NO_NATIVE;
  if (nativeClasses !== 0) {
    const set = new Set<Inst>();
    for (let k = 0; k < floats.length; k++) { const i = floats[k] as Inst; if ((nativeClasses & (1 << classAt(i))) !== 0) set.add(i); }
    native = set;
  }
  const controls: EntryFloatControls = {
    rounding: needR && best.r ? { mode: best.r, widths: rWidths } : undefined,
    denormPreserve: needD ? { widths: dWidths } : undefined,
    signedZeroInfNanPreserve: needS,
  };
  return {
    controls,
    native,
    why(i) {
      const n = nativeNeeds(i);
      if (typeof n === 'string') return n;
      if (native.has(i)) return `${i.op} is native`;
      const lacks: string[] = [];
      if (n.rounding && !roundings.includes(n.rounding)) lacks.push(`${n.rounding} (${offerText(p, n.rounding === 'RoundingModeRTE' ? 'roundingModeRTE' : 'roundingModeRTZ', rWidths, p.roundingModeIndependence)})`);
      if (n.denormPreserve && !denorms.includes(true)) lacks.push(`DenormPreserve (${offerText(p, 'denormPreserve', dWidths, p.denormBehaviorIndependence)})`);
      if (n.signedZeroInfNanPreserve && !szin) lacks.push('SignedZeroInfNanPreserve (not offered for 32-bit)');
      if (lacks.length) return `${i.op}: the ${p.name} profile does not offer ${lacks.join(', ')}`;
      return `${i.op}: the kernel's native f32 ops run under ${[best.r ?? 'no rounding mode', best.d ? 'DenormPreserve' : 'no denormal mode'].join(' and ')} (one mode per entry point), which this op's mode is not`;
    },
  };
}

function offerText(p: TargetProfile, k: keyof WidthControls, widths: readonly (16 | 32 | 64)[], ind: FloatControlsIndependence): string {
  const missing = widths.filter((w) => !(w === 16 ? p.f16 : w === 32 ? p.f32 : p.f64)[k]);
  return ind === 'NONE' && widths.length > 1 ? `independence NONE needs it for every width; missing for ${missing.join(', ')}-bit` : `not offered for 32-bit`;
}

/**
 * Whether the kernel's add/sub/mul that are not native can run guarded (lower-float-guarded.ts:
 * the device's nearest-even result where exact, the exact integer code for the other lanes): the
 * helpers' device ops need RoundingModeRTE (for every width independence requires) and
 * SignedZeroInfNanPreserve, and the entry point's rounding mode must not be RTZ.
 */
export function guardedAvailable(p: TargetProfile, controls: EntryFloatControls): boolean {
  return offers(p, 'roundingModeRTE', widthsFor(p.roundingModeIndependence)) && p.f32.signedZeroInfNanPreserve && controls.rounding?.mode !== 'RoundingModeRTZ';
}

/**
 * The widths RoundingModeRTE is declared for when f64 device ops join the entry point: 64 with
 * the 32-bit widths, and 16 as well under 32_BIT_ONLY (16 and 64 bits must then be set alike).
 */
function f64RteWidths(p: TargetProfile): readonly (16 | 32 | 64)[] {
  return p.roundingModeIndependence === 'ALL' ? [32, 64] : [16, 32, 64];
}

/**
 * Whether the fmas that are not native can run guarded through f64 device ops (lower-float-guarded.ts,
 * guardedFma): what guardedAvailable asks, and f64 arithmetic (shaderFloat64, not ruled out by the
 * profile's measured f64DeviceOps) with RoundingModeRTE for every width it must then be declared
 * for and SignedZeroInfNanPreserve for 64 bits.
 */
export function guardedF64Available(p: TargetProfile, controls: EntryFloatControls): boolean {
  return guardedAvailable(p, controls) && p.shaderFloat64 && p.f64DeviceOps !== false && p.f64.signedZeroInfNanPreserve && offers(p, 'roundingModeRTE', f64RteWidths(p));
}

/**
 * The entry point's controls with what guarded helpers need added: RoundingModeRTE and
 * SignedZeroInfNanPreserve; with `float64`, also for the f64 device ops (and the Float64 capability).
 */
export function withGuarded(p: TargetProfile, controls: EntryFloatControls, float64 = false): EntryFloatControls {
  if (!guardedAvailable(p, controls)) throw new Error(`guarded float helpers need RoundingModeRTE and SignedZeroInfNanPreserve, which the ${p.name} profile does not offer here (internal)`);
  if (float64 && !guardedF64Available(p, controls)) throw new Error(`guarded f64 helpers need f64 arithmetic with RoundingModeRTE and SignedZeroInfNanPreserve, which the ${p.name} profile does not offer here (internal)`);
  const rounding = controls.rounding ?? { mode: 'RoundingModeRTE' as const, widths: widthsFor(p.roundingModeIndependence) };
  if (!float64) return { rounding, denormPreserve: controls.denormPreserve, signedZeroInfNanPreserve: true };
  // A declared rounding mode here is RTE (guardedAvailable): widen it to the f64 widths (ascending,
  // each once; by a loop over the widths: spreads into a Set, then sorted, ran unoptimised per kernel).
  const f64Widths = f64RteWidths(p), widths: (16 | 32 | 64)[] = [];
  for (let k = 0; k < ALL_WIDTHS.length; k++) {
    const w = ALL_WIDTHS[k] as 16 | 32 | 64;
    if (rounding.widths.includes(w) || f64Widths.includes(w)) widths.push(w);
  }
  return { rounding: { mode: rounding.mode, widths }, denormPreserve: controls.denormPreserve, signedZeroInfNanPreserve: true, float64: true };
}
