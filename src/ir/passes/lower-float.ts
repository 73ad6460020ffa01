// Exact software lowering of f32 float ops into integer IR, for float modes the device cannot
// express natively (Vulkan has no round toward ±infinity at all, and devices may flush or keep
// denormals regardless of what a shader asks unless their float controls promise otherwise). The
// lowered code computes the bits src/float computes (the model every engine shares): add, sub and
// mul correctly rounded in the op's rounding direction, input and output denormal flushing
// (tininess by the Mode's switch, src/float TININESS), overflow per mode, signed zeros, NaN
// propagation (the first NaN operand, quieted when IEEE) and the canonical NaN; u32/i32 → f32
// conversions by the mode; f32 → u32/i32 saturating, truncating or by the mode
// (FLOAT_TO_INT_ROUNDING); every compare predicate. Branch-free: each op
// becomes a straight run of integer instructions (selects instead of branches).
//
// This file is the pass (lowerFloat: helpers per (op, mode), guarded and transcendental forms) and
// the dispatch of each op to its lowering (lowerBody); the f32 primitives and arithmetic are in
// lower-float-core.ts, which the sibling lower-float-* files import instead of this one.
import { printFunction } from '../print.js';
import { type Block, Builder, ByModeAndOp, type Imm, type Inst, IrError, IrFunction, listOf, newStamp, NO_ARGS, NO_IMMS, Replacements, sameOperation, substituteArgs, substituteNoting } from '../ir.js';
import { signature } from '../verify.js';
import { eliminateCommonSubexpressions } from './cse.js';
import { eliminateDeadCode } from './dce.js';
import { type IrType, type Op, type OpEntry, OPS, opInfo } from '../ops.js';
import { FLOAT_TO_INT_ROUNDING, TININESS } from '../../float/env.js';
import { lowerFract, lowerFrexpExp, lowerFrexpMant, lowerLdexp, lowerOutMod } from './lower-float-modifiers.js';
import { lowerDivFixup, lowerDivFmas, lowerDivScale, lowerRsq, lowerSqrt } from './lower-float-div.js';
import { LOWERED_F64, lowerF64 } from './lower-float64.js';
import { LOWERED_F16, lowerF16 } from './lower-float16.js';
import { GUARDED_F32, GUARDED_VIA_F64, guardedBody } from './lower-float-guarded.js';
import { LOWERED_MISC, lowerMisc } from './lower-float-misc.js';
import { type CoreForm, LOWERED_TRANSCENDENTAL, lowerTranscendental, transcendentalCoreHelper, transcendentalRoundHelper } from './lower-float-transcendental.js';
import { modeOf, X, lowerAdd, lowerMul, lowerFma, lowerRcp, lowerMinMax, lowerIntegral, lowerFromInt, lowerToInt, lowerCmp, type Mode } from './lower-float-core.js';
// The shared primitives live in lower-float-core.ts; re-exported for the pass's users.
export { loweringMode, X, roundPack, unpack, quiet, lowerAdd, lowerFma, lowerIntegral } from './lower-float-core.js';
export type { Mode, Unpacked } from './lower-float-core.js';

/** The f32 float ops this pass lowers (isLowered adds the f64 and f16 ones). */
export const LOWERED_F32: ReadonlySet<Op> = new Set<Op>(['FAdd32', 'FSub32', 'FMul32', 'FFma32', 'FRcp32', 'FMin32', 'FMax32', 'FFloor32', 'FCeil32', 'FTrunc32', 'FRndne32', 'FCmp32', 'ConvertF32U32', 'ConvertF32S32', 'ConvertU32F32', 'ConvertS32F32',
  'FOutMod32', 'FLdexp32', 'FFrexpMant32', 'FFrexpExp32', 'FFract32', 'FSqrt32', 'FRsq32', 'FDivScale32', 'FDivScaleFlag32', 'FDivFmas32', 'FDivFixup32']);

/** Whether this pass lowers `op`: the f32 ops above, the f64 ops of lower-float64.ts, the f16 ops of lower-float16.ts, lower-float-misc.ts's and the transcendentals (lower-float-transcendental.ts). */
export function isLowered(op: Op): boolean {
  return LOWERED_F32.has(op) || LOWERED_F64.has(op) || LOWERED_F16.has(op) || LOWERED_MISC.has(op) || LOWERED_TRANSCENDENTAL.has(op);
}
/** isLowered by op (its table index: one load at each float op, not up to five set probes). */
const IS_LOWERED: readonly boolean[] = Object.keys(OPS).map((op) => isLowered(op as Op));

/**
 * A float type's bits (f16 in a u32) and the bit casts between them, around each lowered call
 * (with their table entries: the instructions lowerFloat makes carry them, no lookup per instruction).
 */
interface AsBits { readonly type: IrType; readonly to: Op; readonly from: Op; readonly toInfo: OpEntry; readonly fromInfo: OpEntry }
const asBitsOf = (type: IrType, to: Op, from: Op): AsBits => ({ type, to, from, toInfo: opInfo(to), fromInfo: opInfo(from) });
const AS_BITS: Partial<Record<IrType, AsBits>> = {
  f16: asBitsOf('u32', 'BitcastF16U32', 'BitcastU32F16'),
  f32: asBitsOf('u32', 'BitcastF32U32', 'BitcastU32F32'),
  f64: asBitsOf('u64', 'BitcastF64U64', 'BitcastU64F64'),
};
/** By op (its table index): whether it is one of the bit casts (AS_BITS' `to` and `from`). */
const IS_BITCAST: readonly boolean[] = (() => {
  const x: boolean[] = [];
  for (const c of Object.values(AS_BITS)) { x[c.toInfo.index] = true; x[c.fromInfo.index] = true; }
  return x;
})();
/**
 * By op (its table index): the constant a bit cast of a constant of the op folds to (fold.ts),
 * for the float types whose casts to bits fold (f32, f64).
 */
const BITS_CONSTANT: readonly ({ readonly op: Op; readonly info: OpEntry } | undefined)[] = (() => {
  const x: ({ readonly op: Op; readonly info: OpEntry } | undefined)[] = [];
  x[opInfo('ConstF32').index] = { op: 'ConstU32', info: opInfo('ConstU32') };
  x[opInfo('ConstF64').index] = { op: 'ConstU64', info: opInfo('ConstU64') };
  return x;
})();
/** Whether two argument-free instructions are the same value (as CSE compares them). */
const sameValue = (a: Inst, b: Inst): boolean => a.type === b.type && sameOperation(b, a.info, a.args, a.imms, a.float);
/** The table entries of the calls lowerFloat makes. */
const CALL_INFO = opInfo('Call'), CALL_GUARDED_INFO = opInfo('CallGuarded');

/** The lowered bits of one op (its arguments as bits: u32 for f32 and integer sources). */
export function lowerBody(x: X, md: Mode, op: Op, imms: readonly Imm[], a: (k: number) => Inst): Inst {
  switch (op) {
    case 'FAdd32': return lowerAdd(x, md, a(0), a(1));
    case 'FSub32': {
      const bb = a(1);
      const bNaN = x.op('UGt32', x.and(bb, x.c(0x7fffffff)), x.c(0x7f800000));
      return lowerAdd(x, md, a(0), x.sel(bNaN, bb, x.op('Xor32', bb, x.c(0x80000000))));
    }
    case 'FMul32': return lowerMul(x, md, a(0), a(1));
    case 'FRcp32': return lowerRcp(x, md, a(0));
    case 'FMin32': return lowerMinMax(x, md, a(0), a(1), false);
    case 'FMax32': return lowerMinMax(x, md, a(0), a(1), true);
    case 'FFloor32': return lowerIntegral(x, md, a(0), 'floor');
    case 'FCeil32': return lowerIntegral(x, md, a(0), 'ceil');
    case 'FTrunc32': return lowerIntegral(x, md, a(0), 'trunc');
    case 'FRndne32': return lowerIntegral(x, md, a(0), 'rndne');
    case 'FFma32': return lowerFma(x, md, a(0), a(1), a(2));
    case 'FCmp32': return lowerCmp(x, md, Number(imms[0] ?? 0), a(0), a(1));
    case 'ConvertF32U32': return lowerFromInt(x, md, a(0), false);
    case 'ConvertF32S32': return lowerFromInt(x, md, a(0), true);
    case 'ConvertU32F32': return lowerToInt(x, md, a(0), false);
    case 'ConvertS32F32': return lowerToInt(x, md, a(0), true);
    case 'FOutMod32': return lowerOutMod(x, md, a(0), Number(imms[0] ?? 0), Number(imms[1] ?? 0) !== 0);
    case 'FLdexp32': return lowerLdexp(x, md, a(0), a(1));
    case 'FFrexpMant32': return lowerFrexpMant(x, md, a(0));
    case 'FFrexpExp32': return lowerFrexpExp(x, md, a(0));
    case 'FFract32': return lowerFract(x, md, a(0));
    case 'FSqrt32': return lowerSqrt(x, md, a(0));
    case 'FRsq32': return lowerRsq(x, md, a(0));
    case 'FDivScale32': return lowerDivScale(x, md, a(0), a(1), a(2)).value;
    case 'FDivScaleFlag32': return lowerDivScale(x, md, a(0), a(1), a(2)).flag;
    case 'FDivFmas32': return lowerDivFmas(x, md, a(0), a(1), a(2), a(3));
    case 'FDivFixup32': return lowerDivFixup(x, md, a(0), a(1), a(2));
    default:
      if (LOWERED_F64.has(op)) return lowerF64(x, md, op, imms, a);
      if (LOWERED_F16.has(op)) return lowerF16(x, md, op, imms, a);
      if (LOWERED_MISC.has(op)) return lowerMisc(x, md, op, imms, a);
      if (LOWERED_TRANSCENDENTAL.has(op)) return lowerTranscendental(x, md, op, a(0));
      throw new IrError(`${op} is not lowered`);
  }
}

export interface LowerFloatOptions {
  /**
   * How the transcendentals' f64 steps run (lower-float-transcendental.ts): 'device' f64 ops under
   * nearest even (where guardedF64Available holds) or 'exact' integer code (the default).
   */
  readonly transcendental?: CoreForm;
  /**
   * Where given, `settled` is set to whether the lowering left constant folding (fold.ts) and
   * common subexpression elimination (cse.ts) nothing to do in a function they had settled
   * (each found nothing more there): only dead code to remove, and, where `hoist` is set, the
   * constants the lowering made outside the entry block to move there as CSE would (cse.ts
   * hoistArgumentFree). The pass then also collapses the bit casts of casts the lowering made, as
   * CSE would, and makes a float constant's bits the constant fold would (see lowerFloat).
   */
  readonly outcome?: { settled: boolean; hoist: boolean };
}

/**
 * Lowers the f32 float ops `lower(i)` selects into integer IR, guarded where `guarded(i)` (and the
 * op has a guarded form). Both are asked once per op, immediates and FloatMode record (one answer
 * serves every op of the three: the callers decide by those alone). Each distinct (op, immediates, mode)
 * becomes one helper of the function (pure, straight-line integer code), and each lowered op a
 * call of it: a kernel with thousands of float ops carries each lowering once, and the driver
 * inlines. The value keeps its uses (the call's bits are bitcast back to f32). A transcendental is
 * two calls: its core (per op, input flush and form, whatever the other MODE fields) and its
 * rounding (per op and mode). Returns how many ops were lowered.
 */
export function lowerFloat(fn: IrFunction, lower: (i: Inst) => boolean, guarded: (i: Inst) => boolean = () => false, options: LowerFloatOptions = {}): number {
  let n = 0;
  // Whether fold and CSE could still change the function (options.outcome). Where asked, the walk
  // does the one rewrite CSE would make of the lowered code itself: a bit cast of a lowered value's bits (the
  // register write's cast of the op's result, now a cast of the call's cast back) becomes the
  // call. Past that, in a function fold and CSE had settled (no op on constants alone, every pure
  // instruction distinct from those dominating it), what the lowering changes can only fold or
  // merge where (a) two sites call one helper (ops of two float modes, or of modes equal in value,
  // that share code: equal calls), (b) a cast is made anew (asBits of a value that is not a cast
  // nor a constant: another's may equal it), (c) a cast's argument is still to be substituted
  // when the walk passes it (late: it may become a pair at the end), or (d) a transcendental's
  // casts and calls. Otherwise the calls of one site are of one op, mode and immediates, with the
  // looked-through arguments of ops CSE had kept apart (two ops on casts of one value, one
  // dominating the other, had one cast), each lowered value is new (no constant, no call folds)
  // and replaces one op, so nothing folds and no two instructions become equal. Any of (a)-(d)
  // leaves the function unsettled. A float constant's bits are the constant fold makes of their
  // cast, in its place (`made`): CSE would move those outside the entry block into it (`hoist`), and
  // merge two equal ones, or one equal to a constant of the entry block (where a function CSE had
  // settled has every argument-free value): that too leaves it unsettled (checked at the end).
  let settled = true;
  let made: Inst[] | undefined;
  // Only for a caller that asks (it may then skip CSE); for the others the lowering is the op's alone.
  const collapse = options.outcome !== undefined;
  // The helper indices the sites call, each site's own (a): by index.
  const siteHelper: boolean[] = [];
  const repl = new Replacements(fn.idCount);
  // The index of each helper in fn.helpers (a process's helper serves many keys: one index per helper).
  const byHelper = new Map<IrFunction, number>();
  /**
   * A lowerable op's site by its FloatMode record, op and immediates: whether it is lowered and
   * guarded, its Mode, the helper's index and result type, the call's immediates. Everything here
   * is decided by those (lower and guarded's answers, the process's Lowering), so one answer serves
   * every op of the triple: a float-heavy kernel's thousands of ops ask one lookup each (two loads
   * where the record is the last one's), not the predicates and helpers' several.
   */
  const sites = new ByModeOpAndImms<Site>();
  const siteOf = (i: Inst): Site => sites.get(i, newSite);
  const newSite = (i: Inst): Site => {
    if (!lower(i)) return NOT_LOWERED;
    const lw = loweringOf(i);
    // A transcendental's two helpers are found per op (below).
    if (lw.helper === undefined) return { lower: true, md: lw.md, k: -1, ret: 'u32', imms: NO_IMMS, guarded: false };
    const k = helperIndex(lw.helper);
    if (siteHelper[k]) settled = false;
    siteHelper[k] = true;
    // The device's nearest-even arithmetic where it is exact, the exact helper for the other lanes
    // (lower-float-guarded.ts): one instruction per site (CallGuarded: the fast helper's bits where
    // they hold, else the exact helper's). Its helper is numbered after the exact one.
    if (lw.guardable && guarded(i)) return { lower: true, md: lw.md, k, ret: lw.ret, imms: guardedImms(helperIndex(fastHelperOf(lw, i)), k), guarded: true };
    return { lower: true, md: lw.md, k, ret: lw.ret, imms: callImms(k), guarded: false };
  };
  function helperIndex(h: IrFunction): number {
    let k = byHelper.get(h);
    if (k === undefined) {
      fn.helpers.push(h);
      k = fn.helpers.length - 1;
      byHelper.set(h, k);
    }
    return k;
  }
  // The block being rewritten, its new list and the op being lowered: what `put` places into (no
  // closure or options object per lowered op).
  let blk: Block = fn.blocks[0] as Block, list: Inst[] = [], at: Inst | undefined;
  // The walk marks each instruction it passes (and each it makes) with this stamp; the ones an
  // argument of which may still change (see substituteNoting: one the walk has not passed, a phi's
  // from a later block, or one replaced) are `late`, the only ones a final substitution of every
  // instruction could change, so only they are rewritten at the end (not the whole function).
  const seen = newStamp();
  const late: Inst[] = listOf();
  /** A new instruction at the lowered op's pc, placed into the block's new list. */
  const put = (op: Op, info: OpEntry, args: Inst[], imms: readonly Imm[] = NO_IMMS, type?: IrType): Inst => {
    const o = fn.makeAt(op, args, imms, type, at?.pc, undefined, info);
    o.block = blk;
    o.stamp = seen;
    for (let k = 0; k < args.length; k++) { const x = args[k] as Inst; if (x.stamp !== seen || repl.get(x) !== undefined) { late.push(o); break; } }
    list.push(o);
    return o;
  };
  /**
   * A float value's bits: the source of a bit cast from bits (a lowered op's result, a register's
   * bits), else a new bit cast. CSE would turn the new cast of a cast back into that source
   * anyway (cse.ts); not making it saves the instruction and its pass. Where asked (collapse), a
   * constant's cast is the constant fold makes of it (fold.ts: the cast's constant, the value as
   * it is, a number's as u32).
   */
  const asBits = (v: Inst, c: AsBits): Inst => {
    if (v.op === c.from) return v.args[0] as Inst;
    const k = collapse ? BITS_CONSTANT[v.info.index] : undefined;
    if (k !== undefined) {
      const x = v.imms[0] ?? 0;
      const o = put(k.op, k.info, NO_ARGS, listOf(typeof x === 'bigint' ? x : x >>> 0));
      (made ??= []).push(o);
      return o;
    }
    settled = false;
    return put(c.to, c.toInfo, listOf(v));
  };
  for (let bk = 0; bk < fn.blocks.length; bk++) {
    blk = fn.blocks[bk] as Block;
    // The block's instructions from its first lowered op (or removed cast) on, made there (most
    // blocks have none: they keep theirs); `from`: that index, where they replace the block's own.
    let out: Inst[] | undefined, from = 0;
    const insts = blk.insts;
    for (let j = 0; j < insts.length; j++) {
      const i = insts[j] as Inst;
      // Before the first lowered op nothing is replaced: only whether an argument is still to come.
      let again = false;
      if (repl.size === 0) { const a = i.args; for (let m = 0; m < a.length; m++) if ((a[m] as Inst).stamp !== seen) { again = true; break; } }
      else again = substituteNoting(i, repl, seen);
      i.stamp = seen;
      // Every op this pass lowers is a float op (the op table's `float`): the others pass on one field's test.
      const st = i.info.float && IS_LOWERED[i.info.index] === true ? siteOf(i) : NOT_LOWERED;
      if (!st.lower) {
        if (collapse && IS_BITCAST[i.info.index] === true) {
          // A bit cast of a bit cast back to its type is the source (as CSE makes it), where its
          // argument is settled; one still to change may become such a pair at the end: left to CSE.
          const src = i.args[0] as Inst;
          if (again) settled = false;
          else if (IS_BITCAST[src.info.index] === true && src.args[0]?.type === i.type) {
            repl.set(i, src.args[0]);
            if (!out) { out = []; from = j; }
            continue;
          }
        }
        if (out) out.push(i);
        if (again) late.push(i);
        continue;
      }
      if (!out) { out = []; from = j; }
      list = out;
      at = i;
      const md = st.md as Mode;
      if (st.k < 0) {
        settled = false;
        // The core (f64 bits), then its rounding under the op's mode (lower-float-transcendental.ts).
        const src = i.args[0] ?? fail(i, 'argument 0 missing');
        const c = AS_BITS[src.type];
        const a = c ? put(c.to, c.toInfo, listOf(src)) : src;
        const core = helperIndex(transcendentalCoreHelper(i.op, md.flushIn, options.transcendental ?? 'exact'));
        const y = put('Call', CALL_INFO, listOf(a), callImms(core), 'u64');
        const r = put('Call', CALL_INFO, listOf(a, y), callImms(helperIndex(transcendentalRoundHelper(i.op, md))), 'u32');
        const back = AS_BITS[i.type];
        repl.set(i, back ? put(back.from, back.fromInfo, listOf(r)) : r);
        n++;
        continue;
      }
      const args: Inst[] = [];
      for (let m = 0; m < i.args.length; m++) { const v = i.args[m] as Inst; const c = AS_BITS[v.type]; args.push(c ? asBits(v, c) : v); }
      const r = st.guarded ? put('CallGuarded', CALL_GUARDED_INFO, args, st.imms, st.ret) : put('Call', CALL_INFO, args, st.imms, st.ret);
      // Every use of i now uses the lowered value (rewritten as the walk goes; phis and earlier blocks at the end).
      const back = AS_BITS[i.type];
      repl.set(i, back ? put(back.from, back.fromInfo, listOf(r)) : r);
      n++;
    }
    if (out) { insts.length = from; for (let k = 0; k < out.length; k++) insts.push(out[k] as Inst); }
  }
  // Phis and uses reached before their argument was lowered take its value: a single
  // substitution of every instruction left in a block, of which only the late ones can change (an
  // op is replaced only when the walk reaches it, once).
  if (repl.size) for (let k = 0; k < late.length; k++) substituteArgs(late[k] as Inst, repl);
  let hoist = false;
  if (made && settled) {
    // The made constants by their bits, one table per op (ConstU32, ConstU64): a second one of the
    // same bits, or one the entry block already has, is one CSE would merge. A table, not a
    // comparison of every pair: a float-heavy kernel makes thousands.
    const entry = fn.blocks[0], byBits = new Map<Op, Map<Imm, Inst>>();
    for (let k = 0; k < made.length && settled; k++) {
      const x = made[k] as Inst;
      if (x.block !== entry) hoist = true;
      let t = byBits.get(x.op);
      if (!t) { t = new Map(); byBits.set(x.op, t); }
      const bits = x.imms[0] as Imm;
      if (t.has(bits)) settled = false; else t.set(bits, x);
    }
    const insts = entry?.insts ?? [];
    for (let j = 0; j < insts.length && settled; j++) {
      const i = insts[j] as Inst;
      if (i.args.length !== 0) continue;
      const x = byBits.get(i.op)?.get(i.imms[0] as Imm);
      if (x !== undefined && x !== i && sameValue(x, i)) settled = false;
    }
  }
  if (options.outcome) { options.outcome.settled = settled; options.outcome.hoist = settled && hoist; }
  return n;
}

/**
 * What lowering the ops of one FloatMode record, op and immediates takes: the op's Mode, its exact
 * helper (undefined for a transcendental, whose two helpers are found per op) and result type,
 * whether it has a guarded form, and its guarded fast helper once one was asked for. Decided by
 * those alone (records and helpers are never changed), so made once per process, not per kernel
 * (a Mode object, the helper's key and lookups, its signature, per site and run).
 */
interface Lowering { readonly md: Mode; readonly helper: IrFunction | undefined; readonly ret: IrType; readonly guardable: boolean; fast: IrFunction | undefined }
/**
 * Answers by an op's FloatMode record, op and immediates (as immCode's number), each made once by
 * `make`: by record and op (ByModeAndOp) for ops without immediates, then by that number for the
 * rest (a compare's predicate, an output modifier's scale). An op without a record, or whose
 * immediates have no number, gets an answer of its own each time.
 */
class ByModeOpAndImms<T> {
  private readonly plain = new ByModeAndOp<T>();
  private withImms: ByModeAndOp<Map<number, T>> | undefined;
  get(i: Inst, make: (i: Inst) => T): T {
    if (!i.float) return make(i);
    if (i.imms.length === 0) return this.plain.get(i, make);
    const code = immCode(i);
    if (code < 0) return make(i);
    const byCode = (this.withImms ??= new ByModeAndOp()).get(i, newCodeMap);
    let x = byCode.get(code);
    if (x === undefined) { x = make(i); byCode.set(code, x); }
    return x;
  }
}
const newCodeMap = <T>(): Map<number, T> => new Map();
/** The process's Lowerings. */
const LOWERINGS = new ByModeOpAndImms<Lowering>();
const loweringOf = (i: Inst): Lowering => LOWERINGS.get(i, newLowering);
function newLowering(i: Inst): Lowering {
  const md = modeOf(i);
  if (LOWERED_TRANSCENDENTAL.has(i.op)) return { md, helper: undefined, ret: 'u32', guardable: false, fast: undefined };
  // Every field of the Mode (whatever the lowering reads) is in the key; a switch at its
  // process-wide default (FP16_OVFL off, the float model's constants) is left out of the text.
  const key = `${i.op}${i.imms.map((v) => `.${v}`).join('')} ${Object.entries(md).filter(([f, v]) => !AT_DEFAULT[f]?.(v)).map(([f, v]) => `${f}=${String(v)}`).join(' ')}`;
  const helper = sharedHelper(key, i, md);
  const ret = signature(helper).ret ?? fail(i, 'helper without a result');
  return { md, helper, ret, guardable: GUARDED_F32.has(i.op) || GUARDED_VIA_F64.has(i.op), fast: undefined };
}
/** The guarded fast helper of a Lowering's ops (`i` one of them), built at the first that runs guarded. */
function fastHelperOf(lw: Lowering, i: Inst): IrFunction {
  return lw.fast ??= guardedHelper(i, lw.md);
}

/**
 * The helper for one key, built once per process and shared by every function that calls it
 * (helpers are never changed after this: passes and emission only read them).
 */
const HELPERS = new Map<string, IrFunction>();
function sharedHelper(key: string, i: Inst, md: Mode): IrFunction {
  const hit = HELPERS.get(key);
  if (hit) return hit;
  // Wave size does not matter to a helper (no cross-lane ops); 32 for the printer.
  const h = new IrFunction(key, 32);
  const b = new Builder(h, h.addBlock());
  const params = i.args.map((v, k) => b.emit('Param', NO_ARGS, listOf(k), { type: AS_BITS[v.type]?.type ?? v.type }));
  const r = lowerBody(new X(b), md, i.op, i.imms, (k) => params[k] ?? fail(i, `argument ${k} missing`));
  b.emit('Return', listOf(r));
  eliminateCommonSubexpressions(h);
  eliminateDeadCode(h);
  // A mode field the op does not read (rounding for a compare, DX10_CLAMP for an add) gives the
  // same code: the first helper with that code serves every such key, so a kernel under several
  // modes (a MODE known only at run time is translated once per value) carries it once.
  const body = printFunction(h).replace(/^[^\n]*\n/, '');
  const same = HELPER_BY_CODE.get(body);
  if (same) { HELPERS.set(key, same); return same; }
  HELPER_BY_CODE.set(body, h);
  HELPERS.set(key, h);
  return h;
}
/**
 * The guarded fast helper of op under md (lower-float-guarded.ts), built once per process: by op,
 * then by (round, flushIn) as a number (no key text per lowered op; the text names the helper).
 */
const GUARDED = new Map<Op, Map<number, IrFunction>>();
function guardedHelper(i: Inst, md: Mode): IrFunction {
  let byMode = GUARDED.get(i.op);
  if (!byMode) { byMode = new Map(); GUARDED.set(i.op, byMode); }
  const code = md.round | (md.flushIn ? 4 : 0);
  const hit = byMode.get(code);
  if (hit) return hit;
  const key = `guarded ${i.op} round=${md.round} flushIn=${String(md.flushIn)}`;
  const h = new IrFunction(key, 32);
  const b = new Builder(h, h.addBlock());
  const p = i.args.map((_, k) => b.emit('Param', NO_ARGS, listOf(k), { type: 'u32' }));
  b.emit('Return', listOf(guardedBody(new X(b), md, i.op, p)));
  eliminateCommonSubexpressions(h);
  eliminateDeadCode(h);
  byMode.set(code, h);
  return h;
}

/**
 * What lowerFloat makes of the ops of one site (siteOf): whether they are lowered; where they are,
 * their Mode, the helper (k; -1 for a transcendental, whose helpers are found per op), its result
 * type, and the call (CallGuarded where `guarded`) with its immediates.
 */
interface Site { readonly lower: boolean; readonly md: Mode | undefined; readonly k: number; readonly ret: IrType; readonly imms: readonly Imm[]; readonly guarded: boolean }
/** The site of ops that are not lowered (shared: nothing else in it is read). */
const NOT_LOWERED: Site = Object.freeze({ lower: false, md: undefined, k: -1, ret: 'u32', imms: NO_IMMS, guarded: false });

/** An op's immediates as one number, a byte each (a site's key beside its op and record); -1 when one does not fit. */
function immCode(i: Inst): number {
  const imms = i.imms;
  if (imms.length > 4) return -1;
  let c = 0;
  for (let k = 0; k < imms.length; k++) {
    const v = imms[k];
    if (typeof v !== 'number' || !(v >= 0 && v < 255) || !Number.isInteger(v)) return -1;
    c = c * 256 + v + 1;
  }
  return c;
}

/** A call's immediates (the helper's index): shared per index, never mutated (imms are read-only). */
const CALL_IMMS: (readonly Imm[])[] = [];
function callImms(k: number): readonly Imm[] {
  return CALL_IMMS[k] ??= Object.freeze([k]);
}
/** A CallGuarded's immediates (the fast and the exact helper's indices): shared per pair, never mutated. */
const GUARDED_IMMS: (readonly Imm[])[][] = [];
function guardedImms(g: number, k: number): readonly Imm[] {
  const byG = GUARDED_IMMS[g] ??= [];
  return byG[k] ??= Object.freeze([g, k]);
}

/** The Mode fields a helper's key leaves out at these values (each the same in every key of the process). */
const AT_DEFAULT: Partial<Record<string, (v: unknown) => boolean>> = {
  f16Ovfl: (v) => v === false, tininess: (v) => v === TININESS, floatToInt: (v) => v === FLOAT_TO_INT_ROUNDING,
};

/** Helpers by their printed code (without the name line). */
const HELPER_BY_CODE = new Map<string, IrFunction>();

const fail = (i: Inst, why: string): never => { throw new IrError(`pc 0x${(i.pc ?? 0).toString(16)}: ${i.op}: ${why}`); };
