// The structurizer's plan (issue 7): where the code of each IR block goes in SPIR-V's structured
// control flow, for a reducible CFG. The emission is emit-structured.ts; a CFG that is not reducible
// gets the state machine (emit-state-machine.ts) instead.
//
// The approach is the dominator-tree translation of Ramsey's "Beyond Relooper" (ICFP 2022), bent
// to SPIR-V's rules. SPIR-V allows fewer exits than WebAssembly's labelled blocks: a selection
// construct may be left only through its own merge block or by a break or continue of the innermost
// loop, and a loop construct only through its merge block. So:
//
// - Loops: each natural loop (one header, all its back edges) is one loop construct that holds
//   only the loop's blocks. Every back edge branches to one continue block of the emitter's (the
//   latch), which branches back to the header; every exit branches to the loop's merge block.
// - Placement: a block's code goes inside the code of its immediate dominator, except that a block
//   outside a loop whose dominator is inside it goes after that loop (after the outermost loop that
//   holds the dominator but not the block): `parent` is where the code goes, `outside` marks the
//   second case.
// - Merges: a block reached at its level by one way only (one forward edge, or, after a loop, only
//   from inside that loop) is emitted where it is reached. A block reached by several ways (a
//   `merge` block: several forward edges, or an edge from outside the loop it is placed after) is
//   emitted after its parent's code, where those ways meet; its siblings of that kind nest in
//   reverse postorder (the first innermost), as Ramsey's blocks do.
// - Carried values: a value defined inside a loop and used in a block placed after that loop does
//   not dominate the use in the SPIR-V (other exits of the loop reach the same merge). Such values
//   (`liveIns` of the block placed after the loop) travel with the jumps into that block, as its
//   phis' arguments do.
//
// How control reaches each place (selection merges, the exit selector) is the emitter's part.
// Everything here is linear or near it (no recursion: the dominator tree of 20,000 diamonds is
// 40,000 deep).
import { type Adjacency, dominatorsOf, DominatorTree, reversePostorderOf } from '../../analysis/dominators.js';
import type { Block, Inst, IrFunction } from '../../ir/ir.js';
import type { Op } from '../../ir/ops.js';

// The per-block tables are plain number arrays, not typed arrays: a typed array past 64 bytes is
// an allocation outside the JS heap (dominators.ts), and the nine of a plan were about half of
// planStructuredFlow's own time on a kernel of 80 blocks.
export interface FlowPlan {
  /** Position in reverse postorder from the entry block (block 0); -1: unreachable. */
  readonly rpoIndex: readonly number[];
  /** 1 for loop headers (targets of back edges), else 0. */
  readonly isHeader: readonly number[];
  /** The innermost loop (its header's id) holding each block; -1 for none. A header is in its own loop. */
  readonly loopOf: readonly number[];
  /** For a header: the header of the loop around its loop, -1 for none. */
  readonly loopParent: readonly number[];
  /** For a header: how many loops hold it (1: an outermost loop). */
  readonly loopDepth: readonly number[];
  /** The block whose code holds this block's code; -1 for the entry and unreachable blocks. */
  readonly parent: readonly number[];
  /** 1: placed after the loop of `parent` (a header) rather than inside its code, else 0. */
  readonly outside: readonly number[];
  /** 1: reached at its level by several ways (emitted where they meet, not where it is reached), else 0. */
  readonly merge: readonly number[];
  /** Per block: its merge children placed in its code (inside its loop for a header), in reverse postorder. */
  readonly insideMerges: readonly (readonly Block[])[];
  /** Per header: its merge children placed after its loop, in reverse postorder. */
  readonly outsideMerges: readonly (readonly Block[])[];
  /**
   * A plan without loops, but for a chain: the dominator tree, against which the emitter checks
   * each use of a value across blocks (the value's block must dominate the use's, which SSA
   * promises and the verifier does not check across blocks; in the emission's order a use of a
   * value from a block that does not dominate it may find that value emitted, in a sibling's
   * code). The plan does not walk the instructions for it: the emitter checks a block's uses just
   * before it emits the block (its instructions then in the cache, its phis' arguments read by
   * the jumps into it anyway). Undefined for the other plans: a chain's emission is in block
   * order, so such a use finds no value (an error there); a plan with loops walks every use
   * across blocks itself, for the values it carries.
   */
  readonly uses: DominatorTree | undefined;
  /** Per block: values from outside its placement's dominating code that jumps into it carry (see the header). */
  readonly liveIns: readonly (readonly Inst[])[];
}

export interface Irreducible {
  /** Why the CFG is not reducible: an edge that enters a cycle other than through its header. */
  readonly irreducible: string;
}

/** The empty list of every block that has none (most blocks: no latches, merge children or carried values). */
const NONE: readonly never[] = Object.freeze([]);

/** Whether `list[at .. end)` holds `v`. */
function holds(list: readonly number[], at: number, end: number, v: number): boolean {
  for (let k = at; k < end; k++) if (list[k] === v) return true;
  return false;
}

/** Appends `v` to list `k` (its own list made at its first element). */
function add<T>(lists: (readonly T[])[], k: number, v: T): void {
  const l = lists[k];
  if (l === undefined || l === NONE) lists[k] = [v];
  else (l as T[]).push(v);
}

/**
 * The plan of a chain (each block's one way out a branch to the next, the last one's none, each
 * block's one predecessor the one before): what the general plan is for it (no loops, each block
 * placed in the one before, nothing merged), without its dominator trees and tables of edges,
 * which were most of a small straight-line kernel's plan. Undefined for any other CFG. A value
 * used in a block before its own (not valid SSA) is not looked for: the emission, in block order,
 * finds no value for that use and refuses the kernel (the general plan, which a walk over every
 * argument here chose for it, carried the value back to the entry, where it was refused as well).
 */
function chainPlan(fn: IrFunction): FlowPlan | undefined {
  const blocks = fn.blocks, n = blocks.length;
  if (n === 0 || (blocks[0] as Block).preds.length !== 0) return undefined;
  for (let u = 0; u < n; u++) {
    const b = blocks[u] as Block;
    if (b.id !== u) return undefined;
    if (u > 0 && (b.preds.length !== 1 || b.preds[0] !== blocks[u - 1])) return undefined;
    const t = b.terminator;
    const out = t === undefined ? 0 : t.op === 'Branch' ? 1 : t.op === 'BranchCond' ? 2 : 0;
    if (u < n - 1 ? out !== 1 || Number((t as Inst).imms[0]) !== u + 1 : out !== 0) return undefined;
  }
  // It depends on n alone: shared (no one changes a plan) for the short chains of most small kernels.
  const hit = CHAIN_PLANS[n];
  if (hit !== undefined) return hit;
  const rpoIndex = new Array<number>(n), parent = new Array<number>(n);
  for (let u = 0; u < n; u++) { rpoIndex[u] = u; parent[u] = u - 1; }
  const none = new Array<readonly never[]>(n).fill(NONE);
  // The tables that are all 0 (or all -1) one array each: a plan is never changed.
  const zeros = new Array<number>(n).fill(0), minus = new Array<number>(n).fill(-1);
  const plan: FlowPlan = {
    rpoIndex, isHeader: zeros, loopOf: minus, loopParent: minus, loopDepth: zeros,
    parent, outside: zeros, merge: zeros, insideMerges: none, outsideMerges: none, liveIns: none, uses: undefined,
  };
  if (n < CHAIN_PLANS.length) CHAIN_PLANS[n] = plan;
  return plan;
}
/** The chain plans of up to 15 blocks, by their number (made at first use). */
const CHAIN_PLANS = new Array<FlowPlan | undefined>(16).fill(undefined);

/**
 * Visits the uses in block `u` of values defined in another block (`visit(u, value)`): the
 * arguments of its instructions but phis, and its successors' phi arguments for it (the uses the
 * carried-values walk of planStructuredFlow looks at). Most arguments are defined in their user's block, or in the entry
 * block (the function's constants and launch values are made at its front): no call for those.
 * The entry block (0) dominates every reachable block, in the dominator tree and in the placement
 * tree (its root), so the walk's visit could do nothing with such a use.
 */
function crossUses(blocks: readonly Block[], u: number, succ: Adjacency, visit: (u: number, v: Inst) => void): void {
  // Blocks compared as objects (a block's id is its index: IrFunction.block), no id loaded per argument.
  const b = blocks[u] as Block, entry = blocks[0];
  // Indexed loops: no iterator per instruction and argument.
  const insts = b.insts;
  for (let j = 0; j < insts.length; j++) {
    const i = insts[j] as Inst;
    if (i.op === 'Phi') continue;
    const args = i.args;
    for (let k = 0; k < args.length; k++) {
      const a = args[k] as Inst, d = a.block;
      if (d !== undefined && d !== b && d !== entry) visit(u, a);
    }
  }
  for (let j = succ.first[u] as number, e = succ.first[u + 1] as number; j < e; j++) {
    const to = blocks[succ.list[j] as number] as Block;
    const k = to.preds.indexOf(b);
    for (let q = 0; q < to.insts.length; q++) {
      const p = to.insts[q] as Inst;
      if (p.op !== 'Phi') break;
      const a = p.args[k], d = a?.block;
      if (a !== undefined && d !== undefined && d !== b && d !== entry) visit(u, a);
    }
  }
}

/** Whether block `b` is in the loop headed by `h`. */
export function inLoop(plan: Pick<FlowPlan, 'loopOf' | 'loopParent' | 'loopDepth'>, h: number, b: number): boolean {
  const depth = plan.loopDepth[h] ?? 0;
  let g = plan.loopOf[b] ?? -1;
  while (g >= 0 && (plan.loopDepth[g] ?? 0) > depth) g = plan.loopParent[g] ?? -1;
  return g === h;
}

/**
 * The plan for `fn`'s CFG (block 0 the entry; blocks' preds as computed), or why it is irreducible.
 * `everywhere`: ops whose SPIR-V values are valid in every block (module constants, launch values):
 * never carried.
 */
export function planStructuredFlow(fn: IrFunction, everywhere: ReadonlySet<Op>): FlowPlan | Irreducible {
  const chain = chainPlan(fn);
  if (chain !== undefined) return chain;
  const n = fn.blocks.length;
  const blocks = fn.blocks;
  // Successors without repeats (a conditional branch to one block twice is one edge), as an
  // adjacency (dominators.ts): block v's are succList[succFirst[v] .. succFirst[v + 1]). Two arrays
  // for the whole graph, made at their most (two a block) and cut to their length: no edge object
  // or list per block (those, and the adjacencies the dominator walks made of them again, were
  // most of what this plan allocated on a branchy kernel).
  const succFirst = new Array<number>(n + 1), succList = new Array<number>(2 * n);
  let ns = 0;
  for (let from = 0; from < n; from++) {
    succFirst[from] = ns;
    // Block.succs's targets, read here (its array made per block was measurable).
    const t = (blocks[from] as Block).terminator;
    const targets = t === undefined ? 0 : t.op === 'Branch' ? 1 : t.op === 'BranchCond' ? 2 : 0;
    const b0 = targets > 0 ? blocks[Number((t as Inst).imms[0])] : undefined;
    const b1 = targets > 1 ? blocks[Number((t as Inst).imms[1])] : undefined;
    const x = b0 ?? b1, y = b0 !== undefined && b1 !== undefined && b1.id !== b0.id ? b1 : undefined;
    if (x !== undefined) succList[ns++] = x.id;
    if (y !== undefined) succList[ns++] = y.id;
  }
  succFirst[n] = ns;
  succList.length = ns;
  const succ: Adjacency = { first: succFirst, list: succList };
  const rpo = reversePostorderOf(n, succ);
  const rpoIndex = new Array<number>(n).fill(-1);
  for (let i = 0; i < rpo.length; i++) rpoIndex[rpo[i] as number] = i;
  // Predecessors without repeats, reachable ones only (a stale one, whose terminator no longer
  // targets the block, too), as an adjacency the same way.
  let np = 0;
  for (let to = 0; to < n; to++) np += (blocks[to] as Block).preds.length;
  const predFirst = new Array<number>(n + 1), predList = new Array<number>(np);
  np = 0;
  for (let to = 0; to < n; to++) {
    predFirst[to] = np;
    const at = np;
    const preds = (blocks[to] as Block).preds;
    for (let k = 0; k < preds.length; k++) {
      const from = (preds[k] as Block).id;
      if ((rpoIndex[from] ?? -1) < 0 || holds(predList, at, np, from)) continue;
      predList[np++] = from;
    }
  }
  predFirst[n] = np;
  predList.length = np;
  const idom = dominatorsOf(n, rpo, { first: predFirst, list: predList }, rpoIndex);
  const dom = new DominatorTree(idom, rpo);

  // Back edges; a retreating edge to a block that does not dominate its source makes the CFG irreducible.
  const isHeader = new Array<number>(n).fill(0);
  let headers = 0;
  // Made at the first back edge (most kernels have none).
  let latches: (readonly number[])[] | undefined;
  // Indexed loops here and below: this runs once per kernel, mostly unoptimised, where for…of
  // makes an iterator result per element.
  for (let j = 0; j < rpo.length; j++) {
    const p = rpo[j] as number;
    for (let k = succFirst[p] as number, e = succFirst[p + 1] as number; k < e; k++) {
      const s = succList[k] as number;
      if ((rpoIndex[s] as number) > (rpoIndex[p] as number)) continue;
      if (!dom.dominates(s, p)) return { irreducible: `b${p} → b${s} enters a cycle other than through its header` };
      if (isHeader[s] === 0) headers++;
      isHeader[s] = 1;
      add(latches ??= new Array<readonly number[]>(n).fill(NONE), s, p);
    }
  }

  // Natural loops, outer first (a header comes after the headers of the loops around it in
  // reverse postorder, so an inner loop overwrites loopOf for its blocks).
  // Without loops, the all -1 tables one array and the depths isHeader's zeros (a plan is never changed).
  const loopOf = new Array<number>(n).fill(-1);
  const loopParent = headers === 0 ? loopOf : new Array<number>(n).fill(-1);
  const loopDepth = headers === 0 ? isHeader : new Array<number>(n).fill(0);
  const mark = headers === 0 ? undefined : new Array<number>(n).fill(-1);
  for (let j = 0; mark !== undefined && j < rpo.length; j++) {
    const h = rpo[j] as number;
    if (!isHeader[h]) continue;
    const up = loopOf[h] as number;
    loopParent[h] = up;
    loopDepth[h] = up >= 0 ? (loopDepth[up] as number) + 1 : 1;
    mark[h] = h;
    loopOf[h] = h;
    const stack = [...(latches?.[h] ?? [])];
    while (stack.length > 0) {
      const b = stack.pop() as number;
      if (mark[b] === h) continue;
      mark[b] = h;
      loopOf[b] = h;
      for (let k = predFirst[b] as number, e = predFirst[b + 1] as number; k < e; k++) { const f = predList[k] as number; if (mark[f] !== h) stack.push(f); }
    }
  }
  const loops = { loopOf, loopParent, loopDepth };
  const within = (h: number, b: number) => inLoop(loops, h, b);

  // Placement.
  const parent = new Array<number>(n).fill(-1);
  const outside = new Array<number>(n).fill(0);
  const merge = new Array<number>(n).fill(0);
  const insideMerges: (readonly Block[])[] = new Array<readonly Block[]>(n).fill(NONE);
  const outsideMerges: (readonly Block[])[] = new Array<readonly Block[]>(n).fill(NONE);
  for (let j = 0; j < rpo.length; j++) {
    const b = rpo[j] as number;
    const x = idom[b] ?? -1;
    if (x < 0) continue;
    // The outermost loop that holds the dominator but not the block (loops nest: the ones holding
    // x but not b are the innermost ones of x's chain).
    let hs = -1;
    for (let g = loopOf[x] as number; g >= 0 && !within(g, b); g = loopParent[g] as number) hs = g;
    const blk = blocks[b] as Block;
    if (hs < 0) {
      parent[b] = x;
      // A forward edge is one whose target does not dominate its source: in a reducible CFG (this
      // one, by now) one whose source comes earlier in reverse postorder (the edges to earlier
      // blocks are the back edges), a comparison, not a question to the dominator tree.
      let forward = 0;
      const rb = rpoIndex[b] as number;
      for (let k = predFirst[b] as number, e = predFirst[b + 1] as number; k < e; k++) if ((rpoIndex[predList[k] as number] as number) < rb) forward++;
      if (forward >= 2) { merge[b] = 1; add(insideMerges, x, blk); }
    } else {
      parent[b] = hs;
      outside[b] = 1;
      let fromOutside = false;
      for (let k = predFirst[b] as number, e = predFirst[b + 1] as number; k < e && !fromOutside; k++) fromOutside = !within(hs, predList[k] as number);
      if (fromOutside) { merge[b] = 1; add(outsideMerges, hs, blk); }
    }
  }

  // Carried values: a use in u of a value defined in d, where d's code does not hold u's, is
  // carried into the highest block w on u's placement chain that d dominates (w is placed after a
  // loop holding d); the jumps into w then use the value where they start, which may carry it in
  // turn. A worklist, not recursion.
  // Without loops every block is placed in its immediate dominator's code (the placement tree is
  // the dominator tree): a value is carried only where its definition does not dominate a use,
  // which SSA rules out (the walk below would carry such a value back to the entry, where the
  // emission refuses it). No walk here: the emitter checks each use across blocks against the
  // dominator tree (FlowPlan.uses) as it emits the block (a walk of its own over every
  // instruction, out of the cache on a large kernel, was most of this plan's time there).
  if (headers === 0) return { rpoIndex, isHeader, loopOf, loopParent, loopDepth, parent, outside, merge, insideMerges, outsideMerges, liveIns: new Array<readonly Inst[]>(n).fill(NONE), uses: dom };
  // A number[] of the parents by a loop (Array.from of a typed array made an iterator result per block).
  const parents = new Array<number>(n);
  for (let k = 0; k < n; k++) parents[k] = parent[k] as number;
  const placement = new DominatorTree(parents, rpo);
  // Made on a block's first carried value (most blocks carry none).
  const liveSets: (Set<Inst> | undefined)[] = new Array<Set<Inst> | undefined>(n).fill(undefined);
  const liveIns: (readonly Inst[])[] = new Array<readonly Inst[]>(n).fill(NONE);
  const pending: [number, Inst][] = [];
  const use = (u: number, v: Inst): void => {
    const d = v.block?.id;
    if (d === undefined || d === u || placement.dominates(d, u) || everywhere.has(v.op)) return;
    let w = u;
    while ((parent[w] as number) >= 0 && dom.dominates(d, parent[w] as number)) w = parent[w] as number;
    let set = liveSets[w];
    if (set === undefined) { set = new Set(); liveSets[w] = set; } else if (set.has(v)) return;
    set.add(v);
    add(liveIns, w, v);
    for (let k = predFirst[w] as number, e = predFirst[w + 1] as number; k < e; k++) { const f = predList[k] as number; if (!dom.dominates(w, f)) pending.push([f, v]); }
  };
  for (let r = 0; r < rpo.length; r++) {
    crossUses(blocks, rpo[r] as number, succ, use);
    while (pending.length > 0) { const [p, v] = pending.pop() as [number, Inst]; use(p, v); }
  }
  // The loop tables named, not spread (`...loops` took a copy of an object of its own shape per plan).
  return { rpoIndex, isHeader, loopOf, loopParent, loopDepth, parent, outside, merge, insideMerges, outsideMerges, liveIns, uses: undefined };
}
