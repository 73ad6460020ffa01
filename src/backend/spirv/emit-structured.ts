// Structured control flow (issue 7): the IR blocks of a reducible CFG as SPIR-V selection and loop
// constructs, placed as structurize.ts plans, with SSA values used directly (their definitions
// dominate their uses in the emitted CFG) and the IR's phis as OpPhi.
//
// Every IR edge becomes a jump from where its source's code ends, resolved against the
// constructs around it:
// - to the header of the innermost loop: a branch to that loop's continue block (the latch, which
//   branches back to the header; the header's OpPhis take the back edges' values from OpPhis there);
// - to a block outside the innermost loop: a branch to that loop's merge block (a break);
// - to a block placed right there (reached by this edge only): its code, inline;
// - otherwise to a block emitted at an enclosing level: the jump leaves the constructs between one
//   at a time, each through its own merge block (a funnel), and is resolved again there.
// Only these branches are ever emitted: to a selection's own merge, to the innermost loop's merge
// or continue block, or OpReturn; blocks meet only at construct merges. Jumps that meet at a merge
// block bring their target's arguments (its phis' values, then its carried values), which become
// OpPhis there (a value every way brings needs none); when jumps to different blocks meet, an
// OpPhi of the target's block number (the selector) meets with them, and where they are resolved
// a chain of selections on it picks the target. A selection whose merge would only pass the jumps
// on takes the enclosing level's meeting block as its own merge when it is the last thing emitted
// at that level, so a diamond is one selection whose merge is the join block itself.
//
// Two edges to the same meeting point from one conditional branch become one branch with an
// OpSelect of the selector; a conditional branch always gets an OpSelectionMerge (its merge block
// ends in OpUnreachable when nothing reaches it).
//
// The control flow stays exactly the IR's, which is wave-uniform (branches on SCC, VCCZ, EXECZ and
// other uniform values; one Vulkan workgroup runs one wave), so the workgroup barriers inside the
// kernel state's helpers (ballots, v_readlane, byte stores) stay in uniform control flow.
//
// Emission runs from an explicit work stack, not recursion: a chain of thousands of blocks nests
// that deep in the dominator tree.
import type { Block, Inst, IrFunction } from '../../ir/ir.js';
import type { IrType } from '../../ir/ops.js';
import type { Module } from './module.js';
import type { Id } from './operands.js';
import { CompileError } from './errors.js';
import { emitOp, EVERYWHERE, type KernelState, NO_OPERANDS, type Operands, type Scalars, SIMPLE_ARGS, SIMPLE_BOOL, SIMPLE_NAME, SIMPLE_OPCODE, SIMPLE_TYPE, SIMPLE_TYPED, SIMPLE_U32 } from './emit-ops.js';
import { type FlowPlan, inLoop } from './structurize.js';
import type { DominatorTree } from '../../analysis/dominators.js';

/**
 * Jumps that travel together: their targets, the selector (several targets), each target's
 * arguments (`args[k]` for `targets[k]`: a list, not a Map per jump; a group has a few targets).
 */
interface Group {
  readonly targets: readonly Block[];
  readonly sel: Id | undefined;
  readonly args: readonly (readonly Id[])[];
}

/** The values a jump brings into a block with no phis and no carried values (most blocks): one list, never changed. */
const NO_IDS: readonly Id[] = Object.freeze([]);

/** The arguments `g` brings for `t` (undefined: `t` is not one of its targets). */
function argsTo(g: Group, t: Block): readonly Id[] | undefined {
  const k = g.targets.indexOf(t);
  return k < 0 ? undefined : g.args[k];
}

/**
 * A block where jumps meet. `free`: the meeting block of a merge child, not yet anything's merge
 * (one construct emitted last at its level may claim it as its merge, or one jump may enter it);
 * `used`: entered by that one jump; `merge`: a construct's merge block; `latch`: a loop's continue
 * block; `top`: the outermost level of the function or of a loop's body, where no jump may arrive
 * (there, every jump is a continue, a break or a return).
 */
interface Funnel {
  readonly label: Id;
  readonly incoming: { from: Id; group: Group }[];
  kind: 'free' | 'used' | 'merge' | 'latch' | 'top';
}

/** A loop's continue block to place (Structured.latch): its header, funnels, header label, phis and their back-edge ids. */
interface Latch {
  readonly header: Block;
  readonly latch: Funnel;
  readonly merge: Funnel;
  readonly hl: Id;
  readonly phis: readonly Inst[];
  readonly back: readonly Id[];
}

interface LoopFrame {
  readonly header: Block;
  readonly latch: Funnel;
  readonly merge: Funnel;
}

/** Carried values in force (innermost first). */
interface Scope {
  readonly vals: ReadonlyMap<Inst, Id>;
  readonly up: Scope | undefined;
}

interface Ctx {
  readonly scope: Scope | undefined;
  readonly loop: LoopFrame | undefined;
  /** Where jumps resolved at an enclosing level go. */
  readonly out: Funnel;
}

type Route = 'inline' | 'continue' | 'break' | 'out';

/** The arguments `g` brings for `targets` (those it has none for: none). */
function argsOf(g: Group, targets: readonly Block[]): (readonly Id[])[] {
  const r: (readonly Id[])[] = new Array<readonly Id[]>(targets.length);
  for (let k = 0; k < targets.length; k++) r[k] = argsTo(g, targets[k] as Block) ?? NO_IDS;
  return r;
}

/** A meeting block whose label is allocated on first use (a class: an object literal with a getter made a closure per funnel). */
class LazyFunnel implements Funnel {
  readonly incoming: { from: Id; group: Group }[] = [];
  private id: Id | undefined;
  constructor(private readonly m: Module, public kind: Funnel['kind']) {}
  get label(): Id {
    this.id ??= this.m.allocateId();
    return this.id;
  }
}

/**
 * The SPIR-V value of each instruction, by its id: a slot per id, kept from one emission to the
 * next, cleared up to the highest id set (`clear`). A table made per kernel (a typed array of the
 * function's ids, outside the JS heap unless tiny) was about a twelfth of a one-instruction
 * kernel's emission. The values in the slots themselves (not an index into a list of them: one
 * load less at each of the two or three arguments of every instruction).
 */
class Defs {
  private slots: (Id | undefined)[] = [];
  /** One past the highest id set. */
  private top = 0;
  /** Room for ids below `n` (`IrFunction.idCount`; more are taken too). */
  reserve(n: number): void {
    if (n > this.slots.length) this.grow(n);
  }
  private grow(n: number): void {
    const slots = this.slots;
    for (let k = slots.length; k < n; k++) slots.push(undefined);
  }
  get(i: Inst): Id | undefined {
    const id = i.id;
    return id < this.slots.length ? this.slots[id] : undefined;
  }
  set(i: Inst, v: Id): void {
    const id = i.id;
    if (id >= this.slots.length) this.grow(Math.max(id + 1, 2 * this.slots.length));
    this.slots[id] = v;
    if (id >= this.top) this.top = id + 1;
  }
  /** No values (none kept: they belong to a module). */
  clear(): void {
    this.slots.fill(undefined, 0, this.top);
    this.top = 0;
  }
  /** Whether to keep the table for the next emission (not one sized for a very large kernel). */
  get keep(): boolean {
    return this.slots.length <= 1 << 18;
  }
}
/** The table of the last emission, cleared (one emission takes it at a time; a failed one does not give it back). */
let spareDefs: Defs | undefined;

/**
 * gatherTargets's list (the process's: one runs at a time), filled from its front and its slots
 * emptied again after each use (no block kept beyond its run), its length never set (setting an
 * array's length is a call into the runtime: two a meeting block were most of place's own time).
 */
const SCRATCH_TARGETS: (Block | undefined)[] = [];

/** The targets of the jumps `inc`, each once, in the order first reached: a list made at their number. */
function gatherTargets(inc: readonly { group: Group }[]): Block[] {
  const gather = SCRATCH_TARGETS;
  let n = 0;
  for (let k = 0; k < inc.length; k++) {
    const ts = (inc[k] as { group: Group }).group.targets;
    for (let q = 0; q < ts.length; q++) {
      const t = ts[q] as Block;
      let seen = false;
      for (let j = 0; j < n && !seen; j++) seen = gather[j] === t;
      if (!seen) gather[n++] = t;
    }
  }
  const targets = new Array<Block>(n);
  for (let j = 0; j < n; j++) { targets[j] = gather[j] as Block; gather[j] = undefined; }
  return targets;
}

/** Whether every jump of `inc` goes to `t` alone (the jumps into a join: the first one's list of targets is theirs). */
function allTo(inc: readonly { group: Group }[], t: Block): boolean {
  for (let k = 0; k < inc.length; k++) { const ts = (inc[k] as { group: Group }).group.targets; if (ts.length !== 1 || ts[0] !== t) return false; }
  return true;
}

/**
 * The targets a dispatch emits where it is (`inline`), the rest resolved by branches: a block (that
 * one: a merge child's meeting block), a number (the blocks placed after the loop headed by that
 * block, reached only from inside it: a loop's merge block), or undefined (none: a merge's dispatch
 * after a selection). Data, not a predicate: a closure per meeting block was an allocation each.
 */
type Here = Block | number | undefined;

/**
 * The kinds of task on the work stack (Structured.push): each a kind and up to four operands in
 * consecutive slots, not a closure (a closure and its context per block, three per conditional
 * branch, were a fifth of what a branchy kernel's emission allocated here).
 */
const CODE = 0, MERGE = 1, LEAVE_IF = 2, ENTER = 3, CALL = 4, LATCH = 5;
/** Slots per task. */
const TASK = 5;
const internal = (why: string): never => { throw new CompileError(`internal (structured control flow): ${why}`); };
/** How many phis `b` starts with. */
function phiCount(b: Block): number {
  let n = 0;
  while (n < b.insts.length && (b.insts[n] as Inst).op === 'Phi') n++;
  return n;
}
function phisOf(b: Block): Inst[] {
  const r: Inst[] = [];
  for (let k = 0; k < b.insts.length; k++) { const i = b.insts[k] as Inst; if (i.op !== 'Phi') break; r.push(i); }
  return r;
}
const single = (t: Block, args: readonly Id[]): Group => ({ targets: [t], sel: undefined, args: [args] });
const sub = (g: Group, targets: readonly Block[]): Group => (targets.length === g.targets.length ? g : {
  targets, sel: targets.length > 1 ? g.sel : undefined, args: argsOf(g, targets),
});
function funnelOf(r: Exclude<Route, 'inline'>, cx: Ctx): Funnel {
  if (r === 'out') return cx.out;
  const L = cx.loop ?? internal(`a ${r} outside a loop`);
  return r === 'continue' ? L.latch : L.merge;
}

/** Emits `fn`'s blocks into the open function, from its open block (the launch code), as `plan` places them. */
export function emitStructured(sc: Scalars, kernel: KernelState, fn: IrFunction, plan: FlowPlan): void {
  // The SPIR-V value of each instruction.
  const defs = spareDefs ?? new Defs();
  spareDefs = undefined;
  defs.reserve(fn.idCount);
  const e = new Structured(sc, kernel, fn, plan, defs);
  const entry = fn.blocks[0] ?? internal('a function without blocks');
  const top = e.funnel('top');
  e.enter(entry, phisOf(entry).map((p) => e.zero(p.type)), { scope: undefined, loop: undefined, out: top });
  e.run();
  defs.clear();
  if (defs.keep) spareDefs = defs;
}

/**
 * One function's emission (emitStructured): its state in fields, its steps methods (a closure per
 * step made for every kernel, about thirty, was most of what a small kernel's emission allocated here).
 */
class Structured implements Operands {
  readonly m: Module;
  /** The tasks to run, last first (the explicit work stack: see the header): `TASK` slots each, `workTop` slots in use. */
  private readonly work: unknown[] = [];
  private workTop = 0;
  // The function's emitter is emitOp's argument reader (`arg`), reading the instruction at hand
  // (`at`, in scope `atScope`; code sets them, emitOp reads the arguments before it returns): a
  // reader made per block was a closure and a context per block.
  private at: Inst | undefined;
  private atScope: Scope | undefined;
  /** FlowPlan.uses: the dominator tree to check each use across blocks against (undefined: none to check). */
  private readonly uses: DominatorTree | undefined;
  /** The entry block: its values (constants, launch values) are valid in every block. */
  private readonly entry: Block | undefined;

  constructor(private readonly sc: Scalars, private readonly kernel: KernelState, private readonly fn: IrFunction, private readonly plan: FlowPlan, private readonly defs: Defs) {
    this.m = sc.m;
    this.uses = plan.uses;
    this.entry = fn.blocks[0];
  }

  /** crossUse for the arguments of `b`'s instructions but its phis (its terminator's too), read just before they are emitted. */
  private checkUses(b: Block): void {
    const insts = b.insts, entry = this.entry;
    for (let j = 0; j < insts.length; j++) {
      const i = insts[j] as Inst;
      if (i.op === 'Phi') continue;
      const args = i.args;
      for (let k = 0; k < args.length; k++) { const a = args[k] as Inst, d = a.block; if (d !== b && d !== entry && d !== undefined) this.crossUse(a, b); }
    }
  }

  /**
   * Refuses a use in `u` of `a` from a block that does not dominate `u` (FlowPlan.uses): the
   * plan's check, made as each block is emitted (checkUses) and as each jump reads its target's
   * phis' arguments (argsFor). Values of the entry and of `u` itself, and the values valid
   * everywhere, need none.
   */
  private crossUse(a: Inst, u: Block): void {
    const d = a.block;
    if (d === u || d === this.entry || d === undefined) return;
    if (!(this.uses as DominatorTree).dominates(d.id, u.id) && !EVERYWHERE.has(a.op)) internal(`%${a.id} (${a.op}) of b${d.id} is used in b${u.id}, which b${d.id} does not dominate`);
  }

  private cur(): Id {
    return this.m.currentLabel ?? internal('no open block');
  }
  /** A meeting block, its label allocated on first use (the outermost level's and a loop body's `top` never get one). */
  funnel(kind: Funnel['kind']): Funnel {
    return new LazyFunnel(this.m, kind);
  }
  zero(t: IrType): Id {
    const sc = this.sc;
    return t === 'u1' ? sc.cBool(false) : t === 'u64' ? sc.c64(0n) : t === 'f32' ? this.m.constantBits(sc.tF32, 0) : sc.c32(0);
  }

  private val(x: Inst, scope: Scope | undefined): Id {
    for (let s = scope; s; s = s.up) { const v = s.vals.get(x); if (v) return v; }
    const d = this.defs.get(x);
    if (d) return d;
    if (EVERYWHERE.has(x.op)) {
      const e = emitOp(this.sc, this.kernel, x, NO_OPERANDS);
      if (e) { this.defs.set(x, e); return e; }
    }
    return internal(`%${x.id} (${x.op}) has no value where it is used`);
  }

  /** The values a jump from the end of `p` into `s` brings: `s`'s phis' arguments, then (entering `s`, not continuing its loop) its carried values. */
  private argsFor(p: Block, s: Block, scope: Scope | undefined, entering: boolean): readonly Id[] {
    const np = phiCount(s);
    const live = entering ? this.plan.liveIns[s.id] : undefined;
    const nv = np + (live ? live.length : 0);
    if (nv === 0) return NO_IDS;
    const k = s.preds.indexOf(p);
    // Made at its size (pushed to from empty, a list grew to 17 slots).
    const r = new Array<Id>(nv);
    for (let q = 0; q < np; q++) {
      const a = (s.insts[q] as Inst).args[k];
      if (!a) return internal(`b${s.id}'s phi has no argument for b${p.id}`);
      if (this.uses !== undefined) this.crossUse(a, p);
      r[q] = this.val(a, scope);
    }
    if (live) for (let q = 0; q < live.length; q++) r[np + q] = this.val(live[q] as Inst, scope);
    return r;
  }

  private route(t: Block, cx: Ctx, here: Here): Route {
    return this.isHere(t, here) ? 'inline' : this.routeOut(t, cx);
  }
  private isHere(t: Block, here: Here): boolean {
    if (here === undefined) return false;
    if (typeof here === 'number') { const plan = this.plan; return plan.parent[t.id] === here && plan.outside[t.id] === 1 && !plan.merge[t.id]; }
    return t === here;
  }

  /** Pushes a task (its kind and operands: see CODE). */
  private push(kind: number, a: unknown, b?: unknown, c?: unknown, d?: unknown): void {
    const w = this.work, k = this.workTop;
    w[k] = kind; w[k + 1] = a; w[k + 2] = b; w[k + 3] = c; w[k + 4] = d;
    this.workTop = k + TASK;
  }
  /** Runs the tasks until none is left, then drops their operands. */
  run(): void {
    const w = this.work;
    while (this.workTop > 0) {
      const k = (this.workTop -= TASK);
      const kind = w[k] as number, a = w[k + 1], b = w[k + 2], c = w[k + 3], d = w[k + 4];
      switch (kind) {
        case CODE: this.code(a as Block, b as Ctx); break;
        case MERGE: { const g = this.place(a as Funnel); if (g) this.dispatch(g, b as Block | number, c as Ctx); break; }
        case LEAVE_IF: this.leaveIf(a as Funnel, b as Ctx); break;
        case ENTER: this.m.label(a as Id); this.enter(b as Block, c as readonly Id[], d as Ctx); break;
        case LATCH: this.latch(a as Latch, b as Ctx); break;
        default: (a as () => void)();
      }
    }
    w.length = 0;
  }
  /** `route` for a jump from the end of `p` (isInlineFrom(p), without a closure per jump). */
  private routeFrom(p: Block, t: Block, cx: Ctx): Route {
    return this.isInlineFrom(p, t) ? 'inline' : this.routeOut(t, cx);
  }
  /** The route of a jump to `t` not emitted where it is. */
  private routeOut(t: Block, cx: Ctx): Route {
    const L = cx.loop;
    if (L) {
      if (t === L.header) return 'continue';
      if (!inLoop(this.plan, L.header.id, t.id)) return 'break';
    }
    return 'out';
  }
  /** Blocks reached from `p` by their one way in, emitted at the jump. */
  private isInlineFrom(p: Block, t: Block): boolean {
    const plan = this.plan;
    return plan.parent[t.id] === p.id && !plan.outside[t.id] && !plan.merge[t.id];
  }

  private branchTo(f: Funnel, g: Group): void {
    if (f.kind === 'top') internal(`a jump to ${g.targets.map((t) => `b${t.id}`).join(', ')} reached the outermost level`);
    if (f.kind === 'free') f.kind = 'used';
    else if (f.kind === 'used') internal('two ways into an unclaimed meeting block');
    f.incoming.push({ from: this.cur(), group: g });
    this.m.OpBranch(f.label);
  }
  /** `out` as the merge of a construct emitted last at its level, when nothing else has used it. */
  private claim(out: Funnel): Funnel {
    if (out.kind === 'free') { out.kind = 'merge'; return out; }
    return this.funnel('merge');
  }

  /** Places a meeting block: its label, the OpPhis of what meets there; the jumps leaving it (undefined: nothing arrives). */
  private place(f: Funnel): Group | undefined {
    const m = this.m;
    m.label(f.label);
    const inc = f.incoming;
    if (inc.length === 0) { m.OpUnreachable(); return undefined; }
    if (inc.length === 1) return (inc[0] as { group: Group }).group;
    // The targets, each once: where all the jumps go to one block (most meeting blocks), the first
    // jump's list of it (a group's targets are never changed), else a list gathered.
    const first = (inc[0] as { group: Group }).group.targets;
    const targets = first.length === 1 && allTo(inc, first[0] as Block) ? first : gatherTargets(inc);
    // The phis' operands in one list each, made at its size (a flatMap of pairs spread into the
    // call made an array per pair and copied them twice).
    let sel: Id | undefined;
    if (targets.length > 1) {
      const ops = new Array<Id>(1 + 2 * inc.length);
      ops[0] = this.sc.tU32;
      for (let k = 0; k < inc.length; k++) { const i = inc[k] as { from: Id; group: Group }; ops[1 + 2 * k] = i.group.sel ?? this.sc.c32((i.group.targets[0] as Block).id); ops[2 + 2 * k] = i.from; }
      sel = m.emit('OpPhi', ops) as Id;
    }
    const args: Id[][] = new Array<Id[]>(targets.length);
    // Each target's values in the order argsFor makes them (phis, then carried values); no list
    // of types or of the incoming values per value (those lists were most of this function's garbage).
    for (let q = 0; q < targets.length; q++) {
      const t = targets[q] as Block;
      const np = phiCount(t), live = this.plan.liveIns[t.id], nl = live ? live.length : 0;
      // Made at its size (pushed to from empty, a list grew to 17 slots).
      const vs = new Array<Id>(np + nl);
      for (let k = 0; k < np; k++) vs[k] = this.meet(inc, t, k, (t.insts[k] as Inst).type);
      for (let k = 0; k < nl; k++) vs[np + k] = this.meet(inc, t, np + k, ((live as readonly Inst[])[k] as Inst).type);
      args[q] = vs;
    }
    return { targets, sel, args };
  }
  /** Value `j` of the arguments for `t` that meet from `inc`: the one they all bring, else an OpPhi of them (none: zero). */
  private meet(inc: readonly { from: Id; group: Group }[], t: Block, j: number, ty: IrType): Id {
    const first = argsTo((inc[0] as { group: Group }).group, t)?.[j];
    let same = first !== undefined;
    for (let k = 1; same && k < inc.length; k++) if (argsTo((inc[k] as { group: Group }).group, t)?.[j] !== first) same = false;
    if (same) return first as Id;
    // Made at its size (pushed to, a list grew past its operands).
    const ops = new Array<Id>(1 + 2 * inc.length);
    ops[0] = this.sc.typeOf(ty);
    for (let k = 0; k < inc.length; k++) { const i = inc[k] as { from: Id; group: Group }; ops[1 + 2 * k] = argsTo(i.group, t)?.[j] ?? this.zero(ty); ops[2 + 2 * k] = i.from; }
    return this.m.emit('OpPhi', ops) as Id;
  }

  /** Control has reached `t` (the open block) with `args`: its code and the code placed in it. */
  enter(t: Block, args: readonly Id[], cx: Ctx): void {
    const np = phiCount(t);
    const live = this.plan.liveIns[t.id] ?? [];
    let scope = cx.scope;
    if (live.length > 0) {
      const vals = new Map<Inst, Id>();
      for (let k = 0; k < live.length; k++) vals.set(live[k] as Inst, args[np + k] ?? internal(`b${t.id}: carried value ${k} missing`));
      scope = { vals, up: scope };
    }
    // `cx` itself when nothing is carried in (a context is never changed): no object per block.
    const inner: Ctx = scope === cx.scope ? cx : { scope, loop: cx.loop, out: cx.out };
    if (this.plan.isHeader[t.id]) { this.loop(t, args, inner); return; }
    for (let k = 0; k < np; k++) this.defs.set(t.insts[k] as Inst, args[k] ?? internal(`b${t.id}: phi argument ${k} missing`));
    this.node(t, inner);
  }

  /** `t`'s code, then its merge children where the ways into each meet (tasks: run in this order). */
  private node(t: Block, cx: Ctx): void {
    const ys = this.plan.insideMerges[t.id] ?? [];
    if (ys.length === 0) { this.push(CODE, t, cx); return; }
    // From the last merge child back (each one's meeting block is where the one before it goes
    // on): no list of the funnels.
    let after = cx.out;
    for (let k = ys.length - 1; k >= 0; k--) {
      const f = this.funnel('free');
      // The last one's context is `cx` itself (a context is never changed): no object for most merge children.
      this.push(MERGE, f, ys[k] as Block, after === cx.out ? cx : { scope: cx.scope, loop: cx.loop, out: after });
      after = f;
    }
    this.push(CODE, t, { scope: cx.scope, loop: cx.loop, out: after });
  }

  /** A loop: header (OpPhis, OpLoopMerge), body, latch, merge; then what is placed after it. */
  private loop(h: Block, args: readonly Id[], cx: Ctx): void {
    const { m, sc, plan } = this;
    const phis = phisOf(h);
    const pre = this.cur();
    const hl = m.allocateId(), body = m.allocateId();
    const latch = this.funnel('latch'), merge = this.funnel('merge');
    const back = phis.map(() => m.allocateId());
    m.OpBranch(hl);
    m.label(hl);
    phis.forEach((p, k) => { this.defs.set(p, m.OpPhi(sc.typeOf(p.type), args[k] ?? this.zero(p.type), pre, back[k] as Id, latch.label)); });
    m.OpLoopMerge(merge.label, latch.label, 'None');
    m.OpBranch(body);
    m.label(body);
    const zs = plan.outsideMerges[h.id] ?? [];
    const cs = zs.map(() => this.funnel('free'));
    for (let k = zs.length - 1; k >= 0; k--) {
      const f = cs[k] as Funnel, z = zs[k] as Block;
      const next: Ctx = { scope: cx.scope, loop: cx.loop, out: cs[k + 1] ?? cx.out };
      this.push(MERGE, f, z, next);
    }
    const top = this.funnel('top');
    const after: Ctx = { scope: cx.scope, loop: cx.loop, out: cs[0] ?? cx.out };
    this.push(LATCH, { header: h, latch, merge, hl, phis, back } satisfies Latch, after);
    this.node(h, { scope: cx.scope, loop: { header: h, latch, merge }, out: top });
  }

  /**
   * A loop's continue block (its back edges' OpPhis for the header's), then its merge and what is
   * placed after the loop. A task (LATCH), not a closure per loop; each OpPhi's operands in one
   * list made at its size (a flatMap of pairs spread into the call made an array per back edge and
   * copied them twice: a tenth of a looping kernel's structured emission).
   */
  private latch(l: Latch, after: Ctx): void {
    const { m, sc } = this;
    const { header: h, latch, phis, back } = l;
    m.label(latch.label);
    const inc = latch.incoming;
    if (inc.length === 0) internal(`b${h.id}: a loop without a way back`);
    // The back edges' arguments for h, looked up once per edge (not once per phi and edge).
    const args = new Array<readonly Id[] | undefined>(inc.length);
    for (let q = 0; q < inc.length; q++) args[q] = argsTo((inc[q] as { group: Group }).group, h);
    for (let k = 0; k < phis.length; k++) {
      const p = phis[k] as Inst;
      const ops = new Array<Id>(1 + 2 * inc.length);
      ops[0] = sc.typeOf(p.type);
      for (let q = 0; q < inc.length; q++) {
        ops[1 + 2 * q] = args[q]?.[k] ?? internal(`b${h.id}: back edge without phi argument ${k}`);
        ops[2 + 2 * q] = (inc[q] as { from: Id }).from;
      }
      m.emit('OpPhi', ops, back[k]);
    }
    m.OpBranch(l.hl);
    const g = this.place(l.merge);
    if (g) this.dispatch(g, h.id, after);
  }

  /**
   * Operands (emitOp's reader, and `simple`'s): argument `j` of the instruction at hand, its own
   * definitions first (most arguments, and all outside loops' carried values: no scope to search).
   */
  arg(j: number): Id {
    const i = this.at as Inst, a = i.args[j];
    if (a === undefined) return internal(`${i.op}: missing argument ${j}`);
    if (this.atScope === undefined) { const d = this.defs.get(a); if (d !== undefined) return d; }
    return this.val(a, this.atScope);
  }
  /** A block's instructions and its terminator. */
  private code(b: Block, cx: Ctx): void {
    this.insts(b, cx.scope);
    const t = b.terminator;
    if (!t) throw new CompileError(`b${b.id} has no terminator`);
    if (t.op === 'EndProgram') { this.m.OpReturn(); return; }
    if (t.op === 'Branch') { this.jump(b, this.fn.block(Number(t.imms[0])), cx); return; }
    if (t.op !== 'BranchCond') throw new CompileError(`${t.op} is not emitted yet`, t.pc);
    const x = this.fn.block(Number(t.imms[0])), y = this.fn.block(Number(t.imms[1]));
    if (x === y) { this.jump(b, x, cx); return; }
    this.cond(b, this.val(t.args[0] ?? internal('BranchCond without a condition'), cx.scope), x, y, cx);
  }

  /**
   * A block's instructions but its phis. Its own method, not a loop in `code`: V8 compiled that
   * loop on the stack (OSR) for a long block, every later block's loop entered the OSR code, and
   * it left it again at the terminator's handling, which it had been compiled without ("insufficient
   * type feedback"): a deoptimisation per block, about 90 per diamonds2000 recompile.
   */
  private insts(b: Block, scope: Scope | undefined): void {
    this.atScope = scope;
    if (this.uses !== undefined) this.checkUses(b);
    // Indexed: for…of made an iterator result per instruction (this runs once per block, often unoptimised).
    const insts = b.insts, sc = this.sc, kernel = this.kernel;
    // Not the terminator (`code` emits it; emitOp has nothing for a branch or the end, but reached
    // them only past most of its switch's comparisons), unless Unreachable, which emitOp refuses.
    const last = insts[insts.length - 1];
    const n = last !== undefined && last.info.terminator && last.op !== 'Unreachable' ? insts.length - 1 : insts.length;
    for (let k = 0; k < n; k++) {
      const i = insts[k] as Inst;
      if (i.op === 'Phi') continue;
      this.at = i;
      if (SIMPLE_OPCODE[i.info.index] !== 0 && i.type !== 'void') { this.defs.set(i, this.simple(i)); continue; }
      const r = emitOp(sc, kernel, i, this);
      if (r !== undefined) this.defs.set(i, r);
    }
  }

  /**
   * A SIMPLE op (emit-ops.ts; `at`): what emitOp's case emits, the result type and then the arguments'
   * values taken in that order (as its call's operands are evaluated: an argument's value may be
   * made on its first use), the words written by Module.writeValue; where it writes none, the op
   * method itself, as emitOp calls it.
   */
  private simple(i: Inst): Id {
    const x = i.info.index, sc = this.sc, kind = SIMPLE_TYPE[x], n = SIMPLE_ARGS[x] as number;
    const t = kind === SIMPLE_TYPED ? sc.typeOf(i.type) : kind === SIMPLE_BOOL ? sc.tBool : kind === SIMPLE_U32 ? sc.tU32 : sc.tU64;
    const a = this.arg(0), b = n > 1 ? this.arg(1) : undefined, c = n > 2 ? this.arg(2) : undefined;
    const m = this.m;
    const r = m.writeValue(SIMPLE_OPCODE[x] as number, n, t, a, b, c);
    if (r !== undefined) return r;
    const method = m[SIMPLE_NAME[x] as 'OpIAdd'] as (this: Module, ...ids: Id[]) => Id;
    return n === 1 ? method.call(m, t, a) : n === 2 ? method.call(m, t, a, b as Id) : method.call(m, t, a, b as Id, c as Id);
  }
  private jump(p: Block, s: Block, cx: Ctx): void {
    const r = this.routeFrom(p, s, cx);
    const args = this.argsFor(p, s, cx.scope, r !== 'continue');
    if (r === 'inline') this.enter(s, args, cx);
    else this.branchTo(funnelOf(r, cx), single(s, args));
  }

  private cond(p: Block, c: Id, x: Block, y: Block, cx: Ctx): void {
    const m = this.m;
    const rx = this.routeFrom(p, x, cx), ry = this.routeFrom(p, y, cx);
    const ax = this.argsFor(p, x, cx.scope, rx !== 'continue'), ay = this.argsFor(p, y, cx.scope, ry !== 'continue');
    if (rx !== 'inline' && rx === ry) {
      // Both edges go to one meeting block: one branch, the selector chosen by the condition.
      this.branchTo(funnelOf(rx, cx), { targets: [x, y], sel: m.OpSelect(this.sc.tU32, c, this.sc.c32(x.id), this.sc.c32(y.id)), args: [ax, ay] });
      return;
    }
    const merge = this.claim(cx.out);
    // `cx` itself when its meeting block became the merge (a diamond's): a context is never changed.
    const inner: Ctx = merge === cx.out ? cx : { scope: cx.scope, loop: cx.loop, out: merge };
    const fx = rx === 'inline' ? undefined : funnelOf(rx, inner), fy = ry === 'inline' ? undefined : funnelOf(ry, inner);
    const lx = fx ? fx.label : m.allocateId(), ly = fy ? fy.label : m.allocateId();
    const from = this.cur();
    m.OpSelectionMerge(merge.label, 'None');
    m.OpBranchConditional(c, lx, ly);
    fx?.incoming.push({ from, group: single(x, ax) });
    fy?.incoming.push({ from, group: single(y, ay) });
    this.push(LEAVE_IF, merge, cx);
    if (!fy) this.push(ENTER, ly, y, ay, inner);
    if (!fx) this.push(ENTER, lx, x, ax, inner);
  }

  /** After a selection: its merge passes on what arrived, unless it is the enclosing level's own meeting block. */
  private leaveIf(merge: Funnel, cx: Ctx): void {
    if (merge === cx.out) return;
    const g = this.place(merge);
    if (g) this.dispatch(g, undefined, cx);
  }

  /** Resolves jumps that met: the targets emitted here (`here`) and the rest, each class by one branch. */
  private dispatch(g: Group, here: Here, cx: Ctx): void {
    if (g.targets.length === 1) {
      const t = g.targets[0] as Block;
      const r = this.route(t, cx, here);
      if (r === 'inline') this.enter(t, argsTo(g, t) ?? NO_IDS, cx);
      else this.branchTo(funnelOf(r, cx), g);
      return;
    }
    const buckets: { route: Route; targets: Block[] }[] = [];
    for (const t of g.targets) {
      const r = this.route(t, cx, here);
      const b = r === 'inline' ? undefined : buckets.find((x) => x.route === r);
      if (b) b.targets.push(t);
      else buckets.push({ route: r, targets: [t] });
    }
    const only = buckets[0] as { route: Route; targets: Block[] };
    if (buckets.length === 1 && only.route !== 'inline') { this.branchTo(funnelOf(only.route, cx), g); return; }
    this.chain(g, buckets, 0, cx);
  }

  /** if (selector is in bucket i) { bucket i } else { the rest }. */
  private chain(g: Group, buckets: readonly { route: Route; targets: Block[] }[], i: number, cx: Ctx): void {
    const { m, sc } = this;
    const bk = buckets[i] as { route: Route; targets: Block[] };
    const resolve = (c: Ctx): void => {
      if (bk.route === 'inline') { const t = bk.targets[0] as Block; this.enter(t, argsTo(g, t) ?? NO_IDS, c); } else this.branchTo(funnelOf(bk.route, c), sub(g, bk.targets));
    };
    if (i === buckets.length - 1) { resolve(cx); return; }
    const sel = g.sel ?? internal('several targets without a selector');
    const test = bk.targets.map((t) => m.OpIEqual(sc.tBool, sel, sc.c32(t.id))).reduce((a, b) => m.OpLogicalOr(sc.tBool, a, b));
    const merge = this.claim(cx.out);
    const inner: Ctx = merge === cx.out ? cx : { scope: cx.scope, loop: cx.loop, out: merge };
    const plain = bk.route === 'inline' ? undefined : funnelOf(bk.route, inner);
    const lt = plain ? plain.label : m.allocateId(), le = m.allocateId();
    const from = this.cur();
    m.OpSelectionMerge(merge.label, 'None');
    m.OpBranchConditional(test, lt, le);
    plain?.incoming.push({ from, group: sub(g, bk.targets) });
    this.push(LEAVE_IF, merge, cx);
    this.push(CALL, () => { m.label(le); this.chain(g, buckets, i + 1, inner); });
    if (!plain) this.push(CALL, () => { m.label(lt); resolve(inner); });
  }
}
