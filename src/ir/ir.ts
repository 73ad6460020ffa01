// IR functions: blocks of SSA instructions. An instruction has an op from ops.ts, value arguments
// (other instructions), immediates, and for float ops the FloatMode it runs under (from the MODE
// analysis: every field known, or 'dynamic' when the MODE value must be read at run time).
import { type IrType, type Op, type OpEntry, opInfo } from './ops.js';
import type { FloatToIntRounding, Tininess } from '../float/env.js';

export type Imm = number | bigint;

/** The float environment an instruction needs: each MODE field known, or read at run time. */
export interface FloatMode {
  readonly round: 0 | 1 | 2 | 3 | 'dynamic';
  /** FP_DENORM field of the op's width: 0 flush in+out, 1 flush out, 2 flush in, 3 keep. */
  readonly denorm: 0 | 1 | 2 | 3 | 'dynamic';
  readonly ieee: boolean | 'dynamic';
  readonly dx10Clamp: boolean | 'dynamic';
  /**
   * MODE.FP16_OVFL (bit 23) for an op with an f16 result (src/float FP16_OVFL_RULE: an overflow
   * from finite operands gives ±MAX_F16); absent = off (ops of other result formats never read it).
   */
  readonly f16Ovfl?: boolean | 'dynamic';
  /**
   * The float model's switches (src/float env.ts) for this op, honoured by the IR interpreter and
   * the lowering alike; absent = the named constant (TININESS, FLOAT_TO_INT_ROUNDING). The
   * frontend never sets them: tests do, to run both engines under each value.
   */
  readonly tininess?: Tininess;
  readonly floatToInt?: FloatToIntRounding;
}

/** Whether any field of a float mode is left to run time. */
export function isDynamicFloatMode(f: FloatMode): boolean {
  return f.round === 'dynamic' || f.denorm === 'dynamic' || f.ieee === 'dynamic' || f.dx10Clamp === 'dynamic' || f.f16Ovfl === 'dynamic';
}

/**
 * Whether two float modes (or none) are the same, field by field: what CSE and the block builder's
 * value numbering (src/frontend/context.ts) require of two values to be one.
 */
export function sameFloatMode(a: FloatMode | undefined, b: FloatMode | undefined): boolean {
  if (a === b) return true;
  if (!a || !b) return false;
  return a.round === b.round && a.denorm === b.denorm && a.ieee === b.ieee && a.dx10Clamp === b.dx10Clamp && (a.f16Ovfl ?? false) === (b.f16Ovfl ?? false)
    && a.tininess === b.tininess && a.floatToInt === b.floatToInt;
}

/**
 * Whether `x` is op `info` of these arguments (the same instructions), immediates and float mode:
 * the same value, its type aside (CSE compares the types too; the builder numbers untyped ops only).
 */
export function sameOperation(x: Inst, info: OpEntry, args: readonly Inst[], imms: readonly Imm[], float: FloatMode | undefined): boolean {
  if (x.info !== info || x.args.length !== args.length || x.imms.length !== imms.length || !sameFloatMode(x.float, float)) return false;
  for (let k = 0; k < args.length; k++) if (x.args[k] !== args[k]) return false;
  for (let k = 0; k < imms.length; k++) if (x.imms[k] !== imms[k]) return false;
  return true;
}

/** mixOperands's step for one argument (the frontend's value numbering takes it for its arguments one by one). */
export function mixArg(h: number, x: Inst): number {
  return (Math.imul(h, 1000003) ^ x.id) | 0;
}

/**
 * `h` mixed with the arguments' ids and the immediates' low 32 bits: the part of a value's hash
 * that CSE and the block builder's numbering share (equal operations, equal numbers). Indexed
 * loops: no iterator per instruction.
 */
export function mixOperands(h: number, args: readonly Inst[], imms: readonly Imm[]): number {
  for (let k = 0; k < args.length; k++) h = mixArg(h, args[k] as Inst);
  for (let k = 0; k < imms.length; k++) { const v = imms[k] as number | bigint; h = (Math.imul(h, 31) + (typeof v === 'bigint' ? Number(BigInt.asIntN(32, v)) : v | 0)) | 0; }
  return h;
}

/**
 * Answers that depend on a float op's op and FloatMode record alone, each made once (`make`) and
 * then read in the record's row by the op's table index, the last record's row at hand (the
 * frontend shares one record among the ops of a MODE state: most lookups are two loads, not the
 * predicates or keys behind the answer). One per run of a pass; it keeps what it is given.
 */
export class ByModeAndOp<T> {
  private readonly rows = new Map<FloatMode, (T | undefined)[]>();
  private last: FloatMode | undefined = undefined;
  private row: (T | undefined)[] = [];
  /** The answer for `i` (a float op: `i.float` set), made by `make` the first time its pair is asked. */
  get(i: Inst, make: (i: Inst) => T): T {
    const f = i.float as FloatMode;
    if (f !== this.last) {
      let r = this.rows.get(f);
      if (r === undefined) { r = []; this.rows.set(f, r); }
      this.last = f;
      this.row = r;
    }
    return this.row[i.info.index] ??= make(i);
  }
}

/**
 * An IR instruction. Its fields are declared (`declare`: no definition at construction) and set
 * once each by the constructor, in this order: as class fields, each was defined as undefined by
 * an initializer of its own and then set, work for every instruction made before V8 optimises
 * the code that makes it (most of a small kernel's recompile).
 */
export class Inst {
  declare readonly id: number;
  declare readonly op: Op;
  declare readonly type: IrType;
  /**
   * Value arguments (for a Phi: one per predecessor, in predecessor order). Rewritten in place
   * entry by entry, or replaced as a whole, never grown or shrunk: instructions without arguments
   * may share one empty list.
   */
  declare args: Inst[];
  declare readonly imms: readonly Imm[];
  /** Source pc of the RDNA instruction this came from (for diagnostics and printing). */
  declare readonly pc: number | undefined;
  declare float: FloatMode | undefined;
  declare block: Block | undefined;
  /**
   * A pass's mark (liveness, visited): meaningful only to the pass that set it, compared with a
   * stamp from `newStamp()` that no earlier walk used, so no pass needs to clear it.
   */
  declare stamp: number;
  /**
   * What a pass's `Replacements` replaced this instruction by: meaningful only while `replacedIn`
   * is that map's stamp (a field, not a table by id: passes ask at every argument, and a table per
   * pass was an allocation outside the heap for each).
   */
  declare replacedBy: Inst | undefined;
  declare replacedIn: number;
  /** The op's entry in the op table (looked up once: passes ask for it at every instruction). */
  declare readonly info: OpEntry;
  constructor(id: number, op: Op, type: IrType, args: Inst[], imms: readonly Imm[], pc: number | undefined, float: FloatMode | undefined, info: OpEntry = opInfo(op)) {
    this.id = id;
    this.op = op;
    this.type = type;
    this.args = args;
    this.imms = imms;
    this.pc = pc;
    this.float = float;
    this.block = undefined;
    this.stamp = 0;
    this.replacedBy = undefined;
    this.replacedIn = 0;
    this.info = info;
  }
}

let lastStamp = 0;
/** A stamp no walk has used yet (see `Inst.stamp`). */
export function newStamp(): number { return ++lastStamp; }

/**
 * A new list of `xs`: a rest parameter, which costs what an array literal does but has no
 * allocation site. V8 moves the objects of a literal whose objects outlive a scavenge straight to
 * the old generation; the IR's lists outlive one on large kernels, and an old list pointing at new
 * instructions keeps them, and all they point to, through every scavenge until the next major GC.
 * The lists of the IR (instructions' arguments, blocks' lists) are made here.
 */
export function listOf<T>(...xs: T[]): T[] { return xs; }

export class Block {
  readonly insts: Inst[] = listOf();
  /** Set by IrFunction.computePreds only (which may replace the list: hold it no longer than the CFG is unchanged). */
  preds: Block[] = listOf();
  constructor(readonly id: number, readonly startPc: number | undefined) {}
  /** Replaces the instruction list (a loop, not a spread: blocks can hold more values than a call's arguments). */
  setInsts(list: readonly Inst[]): void {
    const insts = this.insts;
    insts.length = 0;
    for (let k = 0; k < list.length; k++) insts.push(list[k] as Inst);
  }
  get terminator(): Inst | undefined {
    const t = this.insts[this.insts.length - 1];
    return t && t.info.terminator ? t : undefined;
  }
  succs(fn: IrFunction): Block[] {
    const t = this.terminator;
    if (!t) return [];
    // Targets that do not exist are left out here; verifyFunction reports them.
    const out: Block[] = [];
    const n = t.op === 'Branch' ? 1 : t.op === 'BranchCond' ? 2 : 0;
    for (let k = 0; k < n; k++) { const b = fn.blocks[Number(t.imms[k])]; if (b !== undefined) out.push(b); }
    return out;
  }
}

/**
 * The instructions a pass replaced (passes ask at every argument): kept on the instructions
 * (`Inst.replacedBy`) under a stamp of its own that no other map used, so no pass clears them and
 * a map sees none of another's. One instruction is in at most one live map at a time (the last
 * one to set it owns the fields): each pass makes one, for its own run.
 */
export class Replacements {
  private readonly stamp = newStamp();
  /** How many instructions are replaced. */
  size = 0;
  /** `_expected`: the ids expected (`IrFunction.idCount`), which a map on the instructions does not need. */
  constructor(_expected?: number) {}
  set(from: Inst, to: Inst): void {
    if (from.replacedIn !== this.stamp) { from.replacedIn = this.stamp; this.size++; }
    from.replacedBy = to;
  }
  get(from: Inst): Inst | undefined {
    return from.replacedIn === this.stamp ? from.replacedBy : undefined;
  }
}

/** Replaces, in place, each argument that `repl` maps (passes rewrite uses this way). */
export function substituteArgs(i: Inst, repl: { get(from: Inst): Inst | undefined }): void {
  const a = i.args;
  for (let k = 0; k < a.length; k++) { const r = repl.get(a[k] as Inst); if (r) a[k] = r; }
}

/**
 * `substituteArgs` at every instruction of the function (a pass's final walk, for the phis and
 * later blocks its first walk had passed). Indexed loops: before V8 optimises this code, each step
 * of a for…of allocates an iterator result.
 */
export function substituteAll(fn: IrFunction, repl: Replacements): void {
  const blocks = fn.blocks;
  for (let bk = 0; bk < blocks.length; bk++) {
    const insts = (blocks[bk] as Block).insts;
    for (let k = 0; k < insts.length; k++) substituteArgs(insts[k] as Inst, repl);
  }
}

/**
 * `substituteArgs` in a walk that replaces each instruction, if at all, when it reaches it, and
 * marks every instruction it has passed with the stamp `seen`. True when an argument may still
 * change: one the walk has not passed (the pass may replace it later: a phi's argument from a
 * later block) or one that is itself replaced. Only the instructions with that answer can change
 * in a final substitution of every instruction, so the pass rewrites just those at its end,
 * instead of walking the whole function again.
 */
export function substituteNoting(i: Inst, repl: Replacements, seen: number): boolean {
  const a = i.args;
  let again = false;
  for (let k = 0; k < a.length; k++) {
    const x = a[k] as Inst;
    const r = repl.get(x);
    // An argument not replaced is asked about once (the map's answer for it is that undefined).
    if (r) { a[k] = r; if (r.stamp !== seen || repl.get(r) !== undefined) again = true; } else if (x.stamp !== seen) again = true;
  }
  return again;
}

export class IrError extends Error {
  override readonly name = 'IrError';
}

export class IrFunction {
  readonly blocks: Block[] = listOf();
  /** Subroutines `Call` names by index (only on a kernel's function; helpers have none). */
  readonly helpers: IrFunction[] = listOf();
  private nextId = 0;
  /** Whether an instruction of a crossLane op (ReadLane, PermuteLanes) was made in the function (`makeAt`), used or not. */
  crossLane = false;
  /**
   * This lane's EXEC bit, where it is the same value everywhere in the function (the launch's:
   * no instruction writes EXEC) and no instruction reads another lane's value (`crossLane`): a lane
   * off in it is then never active and nothing observes what it holds, since every effect and
   * every lane mask is of active lanes only; so a Select32 on it is its selected value (simplify).
   * Set by the frontend; undefined where either does not hold.
   */
  fixedExec: Inst | undefined;
  constructor(readonly name: string, readonly waveSize: 32 | 64) {}

  /** One more than the largest instruction id made so far (the size of an array by id). */
  get idCount(): number { return this.nextId; }

  addBlock(startPc?: number): Block {
    const b = new Block(this.blocks.length, startPc);
    this.blocks.push(b);
    return b;
  }

  block(id: number): Block {
    const b = this.blocks[id];
    if (!b) throw new IrError(`no block ${id}`);
    return b;
  }

  /** Makes an instruction (not yet placed in a block). */
  make(op: Op, args: Inst[], imms: readonly Imm[] = [], opts: { type?: IrType; pc?: number; float?: FloatMode } = {}): Inst {
    return this.makeAt(op, args, imms, opts.type, opts.pc, opts.float);
  }

  /**
   * `make` with its options as arguments (the builder's path: no options object per instruction);
   * `info`: the op's entry, where the caller has looked it up already. The type is `typed` for a
   * typed op, else the op's result; an op made without a type or float mode it needs is refused
   * (checked here, not in a function of its own: a call per instruction before V8 optimises this).
   */
  makeAt(op: Op, args: Inst[], imms: readonly Imm[], typed: IrType | undefined, pc: number | undefined, float: FloatMode | undefined, info: OpEntry = opInfo(op)): Inst {
    const type = info.typed ? typed : info.result;
    if (type === undefined) throw new IrError(`${op} needs a type`);
    if (info.float && !float) throw new IrError(`${op} needs a float mode`);
    if (info.crossLane) this.crossLane = true;
    return new Inst(this.nextId++, op, type, args, imms, pc, float, info);
  }

  /**
   * Recomputes every block's predecessors from the terminators (as `succs` gives them, in block
   * order). Counted first, then filled: a list whose length is unchanged is written over in place
   * (most often it comes out the same), another is made at its exact size (pushed to from empty,
   * a list grew to 17 slots for its one or two predecessors).
   */
  computePreds(): void {
    const blocks = this.blocks, nb = blocks.length;
    this.beginPreds();
    for (let bk = 0; bk < nb; bk++) this.notePredsOf(blocks[bk] as Block);
    this.finishPreds();
  }

  /**
   * computePreds in three parts, for a pass that walks every block's instructions anyway (SSA
   * construction): `beginPreds`, then `notePredsOf` each block once (its terminator read just
   * after the walk passed it, not in a walk of its own: a branchy kernel's blocks and their last
   * instructions are far apart in memory, and that walk was most of computePreds there), then
   * `finishPreds`, which sets the lists. No other computePreds in between (the tables are the
   * process's).
   */
  beginPreds(): void {
    // By block id, which is the block's index (addBlock). Each block's successors (-1: none) are
    // read from its terminator once, by the counting walk, for the filling walk. The process's
    // arrays (no run of this inside another), grown when a function needs more: a typed array of
    // more than 16 entries made per call cost a microsecond or more (its store is outside the heap).
    const nb = this.blocks.length;
    if (PRED_COUNT.length < nb) { PRED_COUNT = new Int32Array(Math.max(nb, 2 * PRED_COUNT.length)); PRED_SUCC = new Int32Array(2 * PRED_COUNT.length); }
    const count = PRED_COUNT, succ = PRED_SUCC;
    for (let bk = 0; bk < nb; bk++) {
      count[bk] = 0; succ[2 * bk] = -1; succ[2 * bk + 1] = -1;
    }
  }

  /** Counts the edges out of `b` (see beginPreds). */
  notePredsOf(b: Block): void {
    const t = b.terminator;
    if (!t) return;
    const blocks = this.blocks, count = PRED_COUNT, succ = PRED_SUCC, bk = b.id;
    const n = t.op === 'Branch' ? 1 : t.op === 'BranchCond' ? 2 : 0;
    for (let k = 0; k < n; k++) { const s = blocks[Number(t.imms[k])]; if (s !== undefined) { succ[2 * bk + k] = s.id; count[s.id] = (count[s.id] as number) + 1; } }
  }

  /** Sets every block's predecessor list from the edges counted (see beginPreds). */
  finishPreds(): void {
    const blocks = this.blocks, nb = blocks.length, count = PRED_COUNT, succ = PRED_SUCC;
    for (let bk = 0; bk < nb; bk++) {
      const b = blocks[bk] as Block;
      if (b.preds.length !== count[bk]) b.preds = Array<Block>(count[bk] as number); // A call, not `new`: no allocation site (see listOf).
      count[bk] = 0;
    }
    for (let bk = 0; bk < nb; bk++) {
      const b = blocks[bk] as Block;
      for (let k = 2 * bk; k < 2 * bk + 2; k++) {
        const id = succ[k] as number;
        if (id < 0) continue;
        const s = blocks[id] as Block, c = count[id] as number;
        s.preds[c] = b;
        count[id] = c + 1;
      }
    }
  }
}

/** computePreds's counts and successors by block (see there). */
let PRED_COUNT = new Int32Array(256), PRED_SUCC = new Int32Array(512);

const NO_OPTS: { type?: IrType; float?: FloatMode } = {};
/** The immediates of an instruction without any: one shared list (immediates are never changed). */
export const NO_IMMS: readonly Imm[] = Object.freeze([]);
/**
 * The argument list of an instruction made without arguments: one shared list (an instruction's
 * arguments are only ever rewritten in place, entry by entry, so an empty list is never changed).
 */
export const NO_ARGS: Inst[] = [];

/** Appends instructions to one block. */
export class Builder {
  constructor(readonly fn: IrFunction, public block: Block, public pc: number | undefined = undefined) {}

  emit(op: Op, args: Inst[] = NO_ARGS, imms: readonly Imm[] = NO_IMMS, opts: { type?: IrType; float?: FloatMode } = NO_OPTS): Inst {
    return this.place(op, opInfo(op), args, imms, opts);
  }

  /** `emit` of an op whose table entry (`info`) the caller has looked up. */
  protected place(op: Op, info: OpEntry, args: Inst[] = NO_ARGS, imms: readonly Imm[] = NO_IMMS, opts: { type?: IrType; float?: FloatMode } = NO_OPTS): Inst {
    const block = this.block, insts = block.insts;
    const last = insts[insts.length - 1];
    if (last && last.info.terminator) throw new IrError(`block ${block.id} already ends with ${last.op}`);
    const i = this.fn.makeAt(op, args, imms, opts.type, this.pc, opts.float, info);
    i.block = block;
    insts.push(i);
    return i;
  }

  u32(v: number): Inst { return this.emit('ConstU32', NO_ARGS, [v >>> 0]); }
  u1(v: boolean): Inst { return this.emit('ConstU1', NO_ARGS, [v ? 1 : 0]); }
}
