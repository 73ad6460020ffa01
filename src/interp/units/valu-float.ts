// Float semantics of the VALU (VOP1/VOP2/VOP3/VOPC forms of every opcode with a float type in the
// table, plus v_cmp_class_*), as per-lane functions for the executor (valu.ts) over the exact
// float model (src/float). RDNA2 ISA reference, "Vector ALU instructions" pseudocode.
//
// MODE: each instruction runs under the FloatEnv of the MODE in force (envFor / convertEnvFor,
// cached by MODE value). Table flags change it: 'mode:always-flush-f32' (v_rcp/rsq/sqrt/log/exp_f32,
// v_mad/mac/madak/madmk_f32 and the legacy mul/mad/mac/fma forms: f32 denormals are flushed on
// input and output whatever FP_DENORM says, as ACO and LLVM document) and 'mode:rtz'
// (v_cvt_pkrtz_f16_f32: always toward zero). Output modifiers (clamp, omod) are applied here
// (outputModifiers*) in the instruction's result env; on integer results clamp is a no-op (the
// conversions saturate anyway) and omod is refused (UnimplementedError).
//
// Accumulator forms (table role 'srcdst': v_fmac/mac*, v_dot2c, v_pk_fmac, v_fma_mixlo/hi): the
// executor is handed a view of the instruction with the accumulator moved after the sources, so
// the semantics see [src0, src1, acc] and DPP's lane permutation applies to src0, not to vdst.
import type { Instruction } from '../../decode/types.js';
import type { InstrDef } from '../../isa/types.js';
import * as fl from '../../float/index.js';
import type { FloatEnv, FloatType, Omod } from '../../float/index.js';
import type { Handler } from '../context.js';
import { UnimplementedError } from '../errors.js';
import { VCC_LO } from '../state.js';
import { type LaneEnv, type Val, type ValuSemantics, execValu } from './valu.js';

export const FLAG_ALWAYS_FLUSH_F32 = 'mode:always-flush-f32';
export const FLAG_RTZ = 'mode:rtz';

// --- environments ---------------------------------------------------------------------------

const TYPE_INDEX: Record<FloatType, number> = { f16: 0, f32: 1, f64: 2 };
const envCache = new Map<number, FloatEnv>();

/** The env of a `src` → `dst` operation (src = dst for arithmetic) under MODE `mode`, with the table's overrides. */
export function envOf(mode: number, src: FloatType, dst: FloatType, flush32: boolean, rtz: boolean): FloatEnv {
  // The MODE bits envFor reads: 9:0 and FP16_OVFL (23, as key bit 10).
  const key = ((mode & 0x3ff) | ((mode >>> 13) & 0x400)) + 2048 * (TYPE_INDEX[src] * 3 + TYPE_INDEX[dst] + 9 * (flush32 ? 1 : 0) + 18 * (rtz ? 1 : 0));
  let e = envCache.get(key);
  if (e) return e;
  e = src === dst ? fl.envFor(mode, dst) : fl.convertEnvFor(mode, src, dst);
  if (flush32 && src === 'f32') e = { ...e, flushIn: true };
  if (flush32 && dst === 'f32') e = { ...e, flushOut: true };
  if (rtz) e = { ...e, round: fl.RTZ };
  envCache.set(key, e);
  return e;
}

interface DefFacts { readonly flush32: boolean; readonly rtz: boolean }
const defFacts = new WeakMap<InstrDef, DefFacts>();
function factsOf(def: InstrDef): DefFacts {
  let f = defFacts.get(def);
  if (!f) {
    f = { flush32: def.flags?.includes(FLAG_ALWAYS_FLUSH_F32) ?? false, rtz: def.flags?.includes(FLAG_RTZ) ?? false };
    defFacts.set(def, f);
  }
  return f;
}

/** What the semantics of the instruction being executed read besides their lane values. */
export const cur = {
  inst: undefined as Instruction | undefined,
  mode: 0,
  facts: { flush32: false, rtz: false } as DefFacts,
  e16: fl.IEEE_ENV,
  e32: fl.IEEE_ENV,
  e64: fl.IEEE_ENV,
  /** VCC at the start of the instruction (v_div_fmas). */
  vcc: 0n,
};

/** The env of a conversion from `src` to `dst` in the current instruction. */
export function cvtEnv(src: FloatType, dst: FloatType): FloatEnv {
  return envOf(cur.mode, src, dst, cur.facts.flush32, cur.facts.rtz);
}

// --- accumulator operand order ----------------------------------------------------------------

const views = new WeakMap<Instruction, Instruction>();

/**
 * The instruction with a 'srcdst' accumulator operand moved after the sources (see the header),
 * and with `wideDst` the destination's type widened to b32 (the semantics merge a 16-bit result
 * into the old dword themselves: v_fma_mixhi_f16).
 */
export function accumulatorLast(inst: Instruction, wideDst = false): Instruction {
  const v = views.get(inst);
  if (v) return v;
  const defs = inst.def.operands;
  const k = defs.findIndex((d) => d.role === 'srcdst');
  let out = inst;
  if (k >= 0 && defs.length === inst.operands.length) {
    const order = [...defs.keys()].filter((i) => i !== k).concat(k);
    const od = order.map((i) => defs[i]).filter((d) => d !== undefined);
    const operands = order.map((i) => inst.operands[i]).filter((o) => o !== undefined);
    const def: InstrDef = { ...inst.def, operands: wideDst ? od.map((d) => (d.role === 'srcdst' ? { ...d, type: 'b32' } : d)) : od };
    out = { ...inst, def, operands };
  }
  views.set(inst, out);
  return out;
}

/** A handler running `sem` with the current-instruction state (envs, VCC) set up. */
export function floatHandler(sem: ValuSemantics, wideDst = false): Handler {
  return (inst, cx) => {
    const st = cx.st;
    const facts = factsOf(inst.def);
    cur.inst = inst;
    cur.mode = st.mode;
    cur.facts = facts;
    cur.e16 = envOf(st.mode, 'f16', 'f16', false, facts.rtz);
    cur.e32 = envOf(st.mode, 'f32', 'f32', facts.flush32, facts.rtz);
    cur.e64 = envOf(st.mode, 'f64', 'f64', false, facts.rtz);
    cur.vcc = st.mask(VCC_LO);
    execValu(accumulatorLast(inst, wideDst), cx, sem);
  };
}

/** A handler for an op the interpreter does not model: UnimplementedError (wave.ts adds pc and text). */
export const unimplemented = (why: string): Handler => (inst) => {
  throw new UnimplementedError(`${inst.def.mnemonic}: ${why}`);
};

// --- value helpers ----------------------------------------------------------------------------

export const u32 = (v: Val | undefined): number => Number(v ?? 0) >>> 0;
export const b64 = (v: Val | undefined): bigint => (typeof v === 'bigint' ? v : BigInt(u32(v)));
export const s16 = (v: Val | undefined): number => (u32(v) << 16) >> 16;
const i32 = (v: Val | undefined): number => Number(v ?? 0) | 0;

export const om16 = (r: number, e: LaneEnv, env = cur.e16): number => (e.clamp || e.omod ? fl.outputModifiersF16(r, e.omod as Omod, e.clamp, env) : r);
export const om32 = (r: number, e: LaneEnv, env = cur.e32): number => (e.clamp || e.omod ? fl.outputModifiersF32(r, e.omod as Omod, e.clamp, env) : r);
export const om64 = (r: bigint, e: LaneEnv, env = cur.e64): bigint => (e.clamp || e.omod ? fl.outputModifiersF64(r, e.omod as Omod, e.clamp, env) : r);
/** An integer result of a float op: clamp is moot (the conversion saturates), omod is not defined. */
function intResult(r: number, e: LaneEnv): number {
  if (e.omod) throw new UnimplementedError(`${cur.inst?.def.mnemonic ?? 'instruction'}: omod on an integer result is not modelled`);
  return r >>> 0;
}

type S = readonly Val[];
const sem = (f: (s: S, e: LaneEnv) => Val): ValuSemantics => ({ f, outMods: true });

const un16 = (op: (a: number, env: FloatEnv) => number) => sem((s, e) => om16(op(u32(s[0]) & 0xffff, cur.e16), e));
const un32 = (op: (a: number, env: FloatEnv) => number) => sem((s, e) => om32(op(u32(s[0]), cur.e32), e));
const un64 = (op: (a: bigint, env: FloatEnv) => bigint) => sem((s, e) => om64(op(b64(s[0]), cur.e64), e));
const bin16 = (op: (a: number, b: number, env: FloatEnv) => number) => sem((s, e) => om16(op(u32(s[0]) & 0xffff, u32(s[1]) & 0xffff, cur.e16), e));
const bin32 = (op: (a: number, b: number, env: FloatEnv) => number) => sem((s, e) => om32(op(u32(s[0]), u32(s[1]), cur.e32), e));
const bin64 = (op: (a: bigint, b: bigint, env: FloatEnv) => bigint) => sem((s, e) => om64(op(b64(s[0]), b64(s[1]), cur.e64), e));
const tri16 = (op: (a: number, b: number, c: number, env: FloatEnv) => number) => sem((s, e) => om16(op(u32(s[0]) & 0xffff, u32(s[1]) & 0xffff, u32(s[2]) & 0xffff, cur.e16), e));
const tri32 = (op: (a: number, b: number, c: number, env: FloatEnv) => number) => sem((s, e) => om32(op(u32(s[0]), u32(s[1]), u32(s[2]), cur.e32), e));
const tri64 = (op: (a: bigint, b: bigint, c: bigint, env: FloatEnv) => bigint) => sem((s, e) => om64(op(b64(s[0]), b64(s[1]), b64(s[2]), cur.e64), e));

// --- the f32 legacy and non-fused forms ---------------------------------------------------------

/** Input flush of f32 bits. */
const flush32 = (a: number, env: FloatEnv): number => (env.flushIn && (a & 0x7f800000) === 0 ? (a & 0x80000000) >>> 0 : a);
const isZero32 = (a: number) => (a & 0x7fffffff) === 0;

/** v_mul_legacy_f32: DX9 rules, ±0 × anything (inf and NaN included) = +0 (ISA; LLVM's fmul_legacy folding). */
export function mulLegacyF32(a: number, b: number, env: FloatEnv): number {
  const x = flush32(a, env), y = flush32(b, env);
  if (isZero32(x) || isZero32(y)) return 0;
  return fl.mulF32(x, y, env);
}
/** v_mad_f32 / v_mac_f32 / v_madmk / v_madak: a × b rounded, then + c rounded (not fused). */
export const madF32 = (a: number, b: number, c: number, env: FloatEnv): number => fl.addF32(fl.mulF32(a, b, env), c, env);
/** v_mad_legacy_f32 / v_mac_legacy_f32: the legacy product (rounded), then + c. */
export const madLegacyF32 = (a: number, b: number, c: number, env: FloatEnv): number => fl.addF32(mulLegacyF32(a, b, env), c, env);
/** v_fma_legacy_f32 / v_fmac_legacy_f32: fused, with a zero factor giving the product +0 (so the result is +0 + c). */
export function fmaLegacyF32(a: number, b: number, c: number, env: FloatEnv): number {
  const x = flush32(a, env), y = flush32(b, env);
  if (isZero32(x) || isZero32(y)) return fl.addF32(0, c, env);
  return fl.fmaF32(x, y, c, env);
}

// --- conversions ---------------------------------------------------------------------------------

const F = { f16: fl.F16, f32: fl.F32, f64: fl.F64 } as const;

function cvtFloat(src: FloatType, dst: FloatType): ValuSemantics {
  return sem((s, e) => {
    const env = cvtEnv(src, dst);
    const a = src === 'f64' ? b64(s[0]) : BigInt(src === 'f16' ? u32(s[0]) & 0xffff : u32(s[0]));
    const r = fl.convertBits(F[src], F[dst], a, env);
    if (dst === 'f64') return om64(r, e, env);
    return dst === 'f16' ? om16(Number(r), e, env) : om32(Number(r), e, env);
  });
}

/** Float → integer (truncation, floor, floor(x + 0.5)), saturating, then narrowed to 16 bits when `bits16`. */
function toInt(src: FloatType, signed: boolean, how: fl.IntRounding, bits16 = false): ValuSemantics {
  return sem((s, e) => {
    const env = src === 'f16' ? cur.e16 : src === 'f32' ? cur.e32 : cur.e64;
    const a = src === 'f64' ? b64(s[0]) : BigInt(src === 'f16' ? u32(s[0]) & 0xffff : u32(s[0]));
    let r = fl.toIntBits(F[src], a, signed, how, env);
    if (bits16) r = (signed ? Math.max(-0x8000, Math.min(0x7fff, r)) : Math.min(0xffff, r)) & 0xffff;
    return intResult(r, e);
  });
}

/** Integer → float (rounded by the destination's mode). */
function fromInt(dst: FloatType, read: (v: Val | undefined) => number): ValuSemantics {
  return sem((s, e) => {
    const env = dst === 'f16' ? cur.e16 : dst === 'f32' ? cur.e32 : cur.e64;
    const r = fl.fromIntBits(F[dst], read(s[0]), env);
    if (dst === 'f64') return om64(r, e);
    return dst === 'f16' ? om16(Number(r), e) : om32(Number(r), e);
  });
}

/** An exactly representable f32 value (small integers, sixteenths) with output modifiers. */
const exactF32 = (x: (a: number) => number) => sem((s, e) => om32(fl.numberToF32(x(u32(s[0]))), e));

// --- compares ------------------------------------------------------------------------------------

function compare(type: FloatType, pred: fl.CmpPredicate, x: boolean): ValuSemantics {
  const f = F[type];
  return {
    compare: x ? 'cmpx' : 'cmp',
    // VOPC's clamp bit has no meaning for a lane mask: accepted and ignored.
    outMods: true,
    f: (s, e) => {
      const env = type === 'f16' ? cur.e16 : type === 'f32' ? cur.e32 : cur.e64;
      const a = type === 'f64' ? b64(s[0]) : BigInt(type === 'f16' ? u32(s[0]) & 0xffff : u32(s[0]));
      const b = type === 'f64' ? b64(s[1]) : BigInt(type === 'f16' ? u32(s[1]) & 0xffff : u32(s[1]));
      e.maskOut = fl.cmpBits(f, pred, a, b, env);
      return 0;
    },
  };
}

function classCompare(type: FloatType, x: boolean): ValuSemantics {
  const f = F[type];
  return {
    compare: x ? 'cmpx' : 'cmp',
    outMods: true,
    f: (s, e) => {
      const a = type === 'f64' ? b64(s[0]) : BigInt(type === 'f16' ? u32(s[0]) & 0xffff : u32(s[0]));
      e.maskOut = fl.cmpClassBits(f, a, u32(s[1]));
      return 0;
    },
  };
}

// --- the table -------------------------------------------------------------------------------------

const SEM: Record<string, ValuSemantics> = {
  // VOP2 / VOP3 arithmetic.
  v_add_f32: bin32(fl.addF32), v_sub_f32: bin32(fl.subF32), v_subrev_f32: bin32((a, b, env) => fl.subF32(b, a, env)),
  v_mul_f32: bin32(fl.mulF32), v_min_f32: bin32(fl.minF32), v_max_f32: bin32(fl.maxF32),
  v_mul_legacy_f32: bin32(mulLegacyF32),
  v_add_f16: bin16(fl.addF16), v_sub_f16: bin16(fl.subF16), v_subrev_f16: bin16((a, b, env) => fl.subF16(b, a, env)),
  v_mul_f16: bin16(fl.mulF16), v_min_f16: bin16(fl.minF16), v_max_f16: bin16(fl.maxF16),
  v_ldexp_f16: sem((s, e) => om16(fl.ldexpF16(u32(s[0]) & 0xffff, s16(s[1]), cur.e16), e)),
  v_ldexp_f32: sem((s, e) => om32(fl.ldexpF32(u32(s[0]), i32(s[1]), cur.e32), e)),
  v_ldexp_f64: sem((s, e) => om64(fl.ldexpF64(b64(s[0]), i32(s[1]), cur.e64), e)),
  // The 2/π segment (src/float/special.ts trigPreopF64: the ISA's pseudocode, LLVM's table); MODE is not read.
  v_trig_preop_f64: sem((s, e) => om64(fl.trigPreopF64(b64(s[0]), u32(s[1])), e)),
  v_add_f64: bin64(fl.addF64), v_mul_f64: bin64(fl.mulF64), v_min_f64: bin64(fl.minF64), v_max_f64: bin64(fl.maxF64),
  // Fused and non-fused multiply-add; accumulator and K forms see [src0, src1|K, acc|src1|K] in D = s0 * s1 + s2 order.
  v_fma_f32: tri32(fl.fmaF32), v_fma_f64: tri64(fl.fmaF64), v_fma_f16: tri16(fl.fmaF16),
  v_fmac_f32: tri32(fl.fmaF32), v_fmac_f16: tri16(fl.fmaF16),
  v_fmamk_f32: tri32(fl.fmaF32), v_fmaak_f32: tri32(fl.fmaF32), v_fmamk_f16: tri16(fl.fmaF16), v_fmaak_f16: tri16(fl.fmaF16),
  v_mad_f32: tri32(madF32), v_mac_f32: tri32(madF32), v_madmk_f32: tri32(madF32), v_madak_f32: tri32(madF32),
  v_mad_legacy_f32: tri32(madLegacyF32), v_mac_legacy_f32: tri32(madLegacyF32),
  v_fma_legacy_f32: tri32(fmaLegacyF32), v_fmac_legacy_f32: tri32(fmaLegacyF32),
  // min3/max3: min(min(a, b), c) (ISA); med3 by the library's rule.
  v_min3_f32: tri32((a, b, c, env) => fl.minF32(fl.minF32(a, b, env), c, env)),
  v_max3_f32: tri32((a, b, c, env) => fl.maxF32(fl.maxF32(a, b, env), c, env)),
  v_med3_f32: tri32(fl.med3F32),
  v_min3_f16: tri16((a, b, c, env) => fl.minF16(fl.minF16(a, b, env), c, env)),
  v_max3_f16: tri16((a, b, c, env) => fl.maxF16(fl.maxF16(a, b, env), c, env)),
  v_med3_f16: tri16(fl.med3F16),
  // Division helpers (src/float/special.ts).
  v_div_scale_f32: sem((s, e) => { const r = fl.divScaleF32(u32(s[0]), u32(s[1]), u32(s[2]), cur.e32); e.maskOut = r.vcc; return om32(r.value, e); }),
  v_div_scale_f64: sem((s, e) => { const r = fl.divScaleF64(b64(s[0]), b64(s[1]), b64(s[2]), cur.e64); e.maskOut = r.vcc; return om64(r.value, e); }),
  v_div_fmas_f32: sem((s, e) => om32(fl.divFmasF32(u32(s[0]), u32(s[1]), u32(s[2]), ((cur.vcc >> BigInt(e.lane)) & 1n) === 1n, cur.e32), e)),
  v_div_fmas_f64: sem((s, e) => om64(fl.divFmasF64(b64(s[0]), b64(s[1]), b64(s[2]), ((cur.vcc >> BigInt(e.lane)) & 1n) === 1n, cur.e64), e)),
  v_div_fixup_f16: tri16(fl.divFixupF16), v_div_fixup_f32: tri32(fl.divFixupF32), v_div_fixup_f64: tri64(fl.divFixupF64),
  // Cube map coordinates.
  v_cubeid_f32: sem((s, e) => om32(Number(fl.cubeIdBits(b64(s[0]), b64(s[1]), b64(s[2]))), e)),
  v_cubesc_f32: sem((s, e) => om32(Number(fl.cubeScBits(b64(s[0]), b64(s[1]), b64(s[2]))), e)),
  v_cubetc_f32: sem((s, e) => om32(Number(fl.cubeTcBits(b64(s[0]), b64(s[1]), b64(s[2]))), e)),
  v_cubema_f32: sem((s, e) => om32(Number(fl.cubeMaBits(b64(s[0]), b64(s[1]), b64(s[2]), cur.e32)), e)),
  // VOP1 unary.
  // The transcendentals' model: src/float/transcendental.ts (our own f64 algorithms, shared with the recompiler's lowering, rounded by MODE).
  v_exp_f32: un32(fl.expF32), v_log_f32: un32(fl.logF32), v_sin_f32: un32(fl.sinF32), v_cos_f32: un32(fl.cosF32),
  v_exp_f16: un16(fl.expF16), v_log_f16: un16(fl.logF16), v_sin_f16: un16(fl.sinF16), v_cos_f16: un16(fl.cosF16),
  v_rcp_f32: un32(fl.rcpF32), v_rcp_iflag_f32: un32(fl.rcpF32), v_rsq_f32: un32(fl.rsqF32), v_sqrt_f32: un32(fl.sqrtF32),
  v_rcp_f16: un16(fl.rcpF16), v_rsq_f16: un16(fl.rsqF16), v_sqrt_f16: un16(fl.sqrtF16),
  v_rcp_f64: un64(fl.rcpF64), v_rsq_f64: un64(fl.rsqF64), v_sqrt_f64: un64(fl.sqrtF64),
  v_fract_f32: un32(fl.fractF32), v_trunc_f32: un32(fl.truncF32), v_ceil_f32: un32(fl.ceilF32), v_rndne_f32: un32(fl.rndneF32), v_floor_f32: un32(fl.floorF32),
  v_fract_f16: un16(fl.fractF16), v_trunc_f16: un16(fl.truncF16), v_ceil_f16: un16(fl.ceilF16), v_rndne_f16: un16(fl.rndneF16), v_floor_f16: un16(fl.floorF16),
  v_fract_f64: un64(fl.fractF64), v_trunc_f64: un64(fl.truncF64), v_ceil_f64: un64(fl.ceilF64), v_rndne_f64: un64(fl.rndneF64), v_floor_f64: un64(fl.floorF64),
  v_frexp_mant_f32: un32(fl.frexpMantF32), v_frexp_mant_f16: un16(fl.frexpMantF16), v_frexp_mant_f64: un64(fl.frexpMantF64),
  v_frexp_exp_i32_f32: sem((s, e) => intResult(fl.frexpExpF32(u32(s[0]), cur.e32), e)),
  v_frexp_exp_i32_f64: sem((s, e) => intResult(fl.frexpExpF64(b64(s[0]), cur.e64), e)),
  v_frexp_exp_i16_f16: sem((s, e) => intResult(fl.frexpExpF16(u32(s[0]) & 0xffff, cur.e16) & 0xffff, e)),
  // Conversions.
  v_cvt_f16_f32: cvtFloat('f32', 'f16'), v_cvt_f32_f16: cvtFloat('f16', 'f32'),
  v_cvt_f32_f64: cvtFloat('f64', 'f32'), v_cvt_f64_f32: cvtFloat('f32', 'f64'),
  v_cvt_i32_f32: toInt('f32', true, 'trunc'), v_cvt_u32_f32: toInt('f32', false, 'trunc'),
  v_cvt_rpi_i32_f32: toInt('f32', true, 'rpi'), v_cvt_flr_i32_f32: toInt('f32', true, 'floor'),
  v_cvt_i32_f64: toInt('f64', true, 'trunc'), v_cvt_u32_f64: toInt('f64', false, 'trunc'),
  v_cvt_i16_f16: toInt('f16', true, 'trunc', true), v_cvt_u16_f16: toInt('f16', false, 'trunc', true),
  v_cvt_f32_i32: fromInt('f32', i32), v_cvt_f32_u32: fromInt('f32', u32),
  v_cvt_f64_i32: fromInt('f64', i32), v_cvt_f64_u32: fromInt('f64', u32),
  v_cvt_f16_i16: fromInt('f16', s16), v_cvt_f16_u16: fromInt('f16', (v) => u32(v) & 0xffff),
  // ISA: D = S0[3:0] as a signed 4-bit value / 16.
  v_cvt_off_f32_i4: exactF32((a) => (((a & 0xf) << 28) >> 28) / 16),
  v_cvt_f32_ubyte0: exactF32((a) => a & 0xff), v_cvt_f32_ubyte1: exactF32((a) => (a >>> 8) & 0xff),
  v_cvt_f32_ubyte2: exactF32((a) => (a >>> 16) & 0xff), v_cvt_f32_ubyte3: exactF32((a) => a >>> 24),
  v_cvt_norm_i16_f16: sem((s, e) => intResult(fl.toNorm16Bits(fl.F16, BigInt(u32(s[0]) & 0xffff), true, cur.e16), e)),
  v_cvt_norm_u16_f16: sem((s, e) => intResult(fl.toNorm16Bits(fl.F16, BigInt(u32(s[0]) & 0xffff), false, cur.e16), e)),
  v_cvt_pknorm_i16_f16: sem((s, e) => intResult(fl.toNorm16Bits(fl.F16, BigInt(u32(s[0]) & 0xffff), true, cur.e16) | (fl.toNorm16Bits(fl.F16, BigInt(u32(s[1]) & 0xffff), true, cur.e16) << 16), e)),
  v_cvt_pknorm_u16_f16: sem((s, e) => intResult(fl.toNorm16Bits(fl.F16, BigInt(u32(s[0]) & 0xffff), false, cur.e16) | (fl.toNorm16Bits(fl.F16, BigInt(u32(s[1]) & 0xffff), false, cur.e16) << 16), e)),
  v_cvt_pknorm_i16_f32: sem((s, e) => intResult(fl.toNorm16Bits(fl.F32, BigInt(u32(s[0])), true, cur.e32) | (fl.toNorm16Bits(fl.F32, BigInt(u32(s[1])), true, cur.e32) << 16), e)),
  v_cvt_pknorm_u16_f32: sem((s, e) => intResult(fl.toNorm16Bits(fl.F32, BigInt(u32(s[0])), false, cur.e32) | (fl.toNorm16Bits(fl.F32, BigInt(u32(s[1])), false, cur.e32) << 16), e)),
  // ISA: D = (S2 & ~(0xff << 8 * S1[1:0])) | (u8(S0) << 8 * S1[1:0]).
  v_cvt_pk_u8_f32: sem((s, e) => {
    const sh = (u32(s[1]) & 3) * 8;
    return intResult((u32(s[2]) & ~(0xff << sh)) | (fl.toU8Bits(fl.F32, BigInt(u32(s[0])), cur.e32) << sh), e);
  }),
  // Two f32 → packed f16, toward zero ('mode:rtz'); clamp/omod apply to each half.
  v_cvt_pkrtz_f16_f32: sem((s, e) => {
    const env = cvtEnv('f32', 'f16');
    const lo = om16(fl.cvtF16F32(u32(s[0]), env), e, env), hi = om16(fl.cvtF16F32(u32(s[1]), env), e, env);
    return (lo | (hi << 16)) >>> 0;
  }),
  // A bit move of the two (op_sel-picked, neg/abs-modified) halves: no float rounding.
  v_pack_b32_f16: sem((s, e) => intResult((u32(s[0]) & 0xffff) | ((u32(s[1]) & 0xffff) << 16), e)),
};

for (const type of ['f16', 'f32', 'f64'] as const) {
  for (const p of fl.CMP_PREDICATES) {
    SEM[`v_cmp_${p}_${type}`] = compare(type, p, false);
    SEM[`v_cmpx_${p}_${type}`] = compare(type, p, true);
  }
  SEM[`v_cmp_class_${type}`] = classCompare(type, false);
  SEM[`v_cmpx_class_${type}`] = classCompare(type, true);
}

const NOT_MODELLED: Record<string, string> = {
  // RDNA2's text for v_mullit_f32 is not available here; RDNA3's pseudocode (a plain S0 * S1 unless
  // S1 is -MAX_FLOAT, -inf or NaN or S2 <= 0 or NaN, then -MAX_FLOAT) contradicts its own summary
  // ("0.0 * x = 0.0; specific INF, NAN, overflow rules"), so it stays unmodelled.
  v_mullit_f32: 'the legacy lighting multiply is not modelled (its RDNA2 rules are not established)',
  v_interp_p1_f32: 'interpolation needs LDS parameter data (graphics only)',
  v_interp_p2_f32: 'interpolation needs LDS parameter data (graphics only)',
  v_interp_mov_f32: 'interpolation needs LDS parameter data (graphics only)',
  v_interp_p1ll_f16: 'interpolation needs LDS parameter data (graphics only)',
  v_interp_p1lv_f16: 'interpolation needs LDS parameter data (graphics only)',
  v_interp_p2_f16: 'interpolation needs LDS parameter data (graphics only)',
};

export const VALU_FLOAT: Record<string, Handler> = {
  ...Object.fromEntries(Object.entries(SEM).map(([k, s]) => [k, floatHandler(s)])),
  ...Object.fromEntries(Object.entries(NOT_MODELLED).map(([k, why]) => [k, unimplemented(why)])),
};
