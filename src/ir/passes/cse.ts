// Common subexpression elimination: global value numbering over the dominator tree. A pure
// instruction (no effect, not a terminator, phi or undef) whose op, type, arguments, immediates
// and float mode equal those of one in a dominating position is replaced by it. Argument-free
// pure values (constants, the lane id, launch ids) are first moved to the entry block, so one
// copy serves the whole function. The translation reads EXEC, constants and lane bits afresh at
// every RDNA instruction; this is what folds those repeats away. A bit cast of a bit cast back to
// the first type becomes its source.
import { dominatorChildren, dominatorsOf, reversePostorderOf } from '../../analysis/dominators.js';
import { type Block, type Inst, type IrFunction, mixOperands, newStamp, Replacements, sameOperation, substituteArgs, substituteNoting } from '../ir.js';
import { type Op, OPS, opInfo } from '../ops.js';

/** By op (its table index): whether its instructions are pure in the sense above (asked at every instruction, answered by one load). */
const PURE: readonly boolean[] = Object.keys(OPS).map((op) => {
  const info = opInfo(op as Op);
  return !info.effect && !info.terminator && op !== 'Phi' && op !== 'Undef' && op !== 'Param';
});
const pure = (i: Inst): boolean => PURE[i.info.index] === true;

const BITCASTS: ReadonlySet<string> = new Set(['BitcastU32F32', 'BitcastF32U32', 'BitcastU64F64', 'BitcastF64U64', 'BitcastU32F16', 'BitcastF16U32']);
/** BITCASTS by op index (one load, not a hash probe). */
const IS_BITCAST: readonly boolean[] = Object.keys(OPS).map((op) => BITCASTS.has(op));
const isBitcast = (i: Inst): boolean => IS_BITCAST[i.info.index] === true;

/** Whether two pure instructions compute the same value. */
function equal(a: Inst, b: Inst): boolean {
  return a.type === b.type && sameOperation(b, a.info, a.args, a.imms, a.float);
}

/** The hash table's arrays (see below), shared by every run. */
const TABLE = { heads: new Int32Array(64), next: new Int32Array(64), slots: new Int32Array(64), hashes: new Int32Array(64) };
/**
 * The hoisted values and the table's entries, the process's lists (no pass runs inside another):
 * written by index under the run's counts and cleared at its end, not grown from empty per run.
 */
const HOISTED: (Inst | undefined)[] = [];
const ENTRIES: (Inst | undefined)[] = [];

/**
 * CSE's first step: the argument-free pure values of the other blocks move into the entry block,
 * after its leading params, in block and instruction order (recompile's too, where the float
 * lowering made constants outside the entry block and nothing else for CSE to do: lowerFloat).
 */
export function hoistArgumentFree(fn: IrFunction): void {
  const entry = fn.blocks[0];
  if (!entry) return;
  const hoisted = HOISTED;
  let hoistedCount = 0;
  // Indexed loops, not for…of: before V8 optimises this code, each step of a for…of allocates an
  // iterator result.
  for (let bk = 1; bk < fn.blocks.length; bk++) {
    const b = fn.blocks[bk] as Block;
    // Compacted in place (no new list per block).
    const insts = b.insts;
    let w = 0;
    for (let r = 0; r < insts.length; r++) {
      const i = insts[r] as Inst;
      if (i.args.length === 0 && pure(i)) { i.block = entry; hoisted[hoistedCount++] = i; } else insts[w++] = i;
    }
    insts.length = w;
  }
  if (hoistedCount) {
    // After the entry's leading params (loops, not spreads: blocks can be large), in the entry's
    // list in place: it grows by as many (pushed, so it stays without holes), the rest of the
    // block moves up, its terminator last, and the hoisted values fill the gap (no copy of the
    // rest: the entry is most of a small kernel).
    const insts = entry.insts, len = insts.length;
    let k = 0;
    while (k < len && insts[k]?.op === 'Param') k++;
    for (let j = 0; j < hoistedCount; j++) insts.push(hoisted[j] as Inst);
    for (let j = len - 1; j >= k; j--) insts[j + hoistedCount] = insts[j] as Inst;
    for (let j = 0; j < hoistedCount; j++) insts[k + j] = hoisted[j] as Inst;
    hoisted.fill(undefined, 0, hoistedCount);
  }
}

/**
 * Returns how many instructions were removed. `predsCurrent`: the blocks' predecessor lists are
 * already those of the terminators (the pipeline's SSA construction computed them and no pass
 * since changes a terminator), so they are not recomputed.
 */
export function eliminateCommonSubexpressions(fn: IrFunction, predsCurrent = false): number {
  const entry = fn.blocks[0];
  if (!entry) return 0;
  if (!predsCurrent) fn.computePreds();
  hoistArgumentFree(fn);

  const n = fn.blocks.length;
  // The dominator tree (analysis/dominators.ts), from each block's successors (its terminator's
  // targets that exist) and predecessors (`preds`, current: computed above, or by the SSA
  // construction), as numbers in two arrays each, no edge object or list per block. A block's id
  // is its index (addBlock).
  const succFirst = new Array<number>(n + 1), succList: number[] = [];
  const predFirst = new Array<number>(n + 1), predList: number[] = [];
  for (let k = 0; k < n; k++) {
    const b = fn.blocks[k] as Block;
    succFirst[k] = succList.length;
    const t = b.terminator;
    const m = t === undefined ? 0 : t.op === 'Branch' ? 1 : t.op === 'BranchCond' ? 2 : 0;
    for (let j = 0; j < m; j++) {
      const to = Number((t as Inst).imms[j]);
      if (fn.blocks[to] !== undefined) succList.push(to);
    }
    predFirst[k] = predList.length;
    const ps = b.preds;
    for (let j = 0; j < ps.length; j++) predList.push((ps[j] as Block).id);
  }
  succFirst[n] = succList.length;
  predFirst[n] = predList.length;
  const rpo = reversePostorderOf(n, { first: succFirst, list: succList });
  const idom = dominatorsOf(n, rpo, { first: predFirst, list: predList });
  // Each block's children in the dominator tree, in reverse postorder (as the walk below pushes
  // them): kids[first[d] .. first[d + 1]) for block d.
  const { first, list: kids } = dominatorChildren(idom, rpo);

  // A chained hash table whose entries are removed in the reverse order of insertion (the walk
  // over the dominator tree leaves a block's subtree after everything added below it): typed
  // arrays, no per-entry allocation.
  // Sized to the function (a small kernel's tables are small; the answers do not depend on the
  // size, as equal instructions hash alike and an equal one is never added twice).
  // At most every instruction is an entry (one is added once, when the walk reaches it): the
  // chain arrays hold that many, so no add grows them. They are the process's, reused by every run
  // (no pass runs inside another), grown when a function needs more. An entry is added and found
  // in the walk itself (not by closures over the table: those were most of the pass, as calls and
  // loads of the captured, reassignable arrays).
  let count = 0;
  for (let bk = 0; bk < n; bk++) count += (fn.blocks[bk] as Block).insts.length;
  let bits = 6;
  while ((1 << bits) < 2 * count && bits < 24) bits++;
  const mask = (1 << bits) - 1;
  if (TABLE.heads.length < 1 << bits) TABLE.heads = new Int32Array(1 << bits);
  if (TABLE.next.length < count) { TABLE.next = new Int32Array(count); TABLE.slots = new Int32Array(count); TABLE.hashes = new Int32Array(count); }
  const heads = TABLE.heads.fill(-1, 0, 1 << bits);
  // By entry: the next in its chain, its slot, and its whole hash (compared before the entry's
  // instruction is: most entries of a chain differ there, and need no load of the instruction).
  const next = TABLE.next, slots = TABLE.slots, hashes = TABLE.hashes;
  const entries = ENTRIES;
  let entryCount = 0, entryMax = 0;
  const repl = new Replacements(fn.idCount);
  let removed = 0;
  // The walk marks each instruction it reaches with this stamp, and each block it reaches; an
  // instruction it keeps whose arguments (once substituted) include one it had not reached yet,
  // or one that is itself replaced, is `late`: the only ones the final rewrite can change (below).
  const seen = newStamp();
  const reached = new Array<boolean>(n).fill(false);
  const late: Inst[] = [];
  // Depth-first over the dominator tree with an explicit stack (parallel arrays: each frame's
  // block, and the table size at its entry, -1 before it is entered); each block's entries are
  // undone on exit.
  const stackBlock: number[] = [rpo[0] ?? 0], stackMark: number[] = [-1];
  while (stackBlock.length) {
    const t = stackBlock.length - 1;
    const mark = stackMark[t] as number, bid = stackBlock[t] as number;
    if (mark >= 0) {
      // The block's subtree is done: its entries leave the table, the last added first.
      while (entryCount > mark) { const e = entryCount - 1; heads[slots[e] as number] = next[e] as number; entryCount--; }
      stackBlock.pop(); stackMark.pop();
      continue;
    }
    stackMark[t] = entryCount;
    const b = fn.blocks[bid];
    if (!b) continue;
    reached[bid] = true;
    // Compacted in place (no new list per block).
    const insts = b.insts;
    let w = 0;
    for (let r = 0; r < insts.length; r++) {
      const i = insts[r] as Inst;
      // substituteArgs, noting whether an argument may change again.
      const again = substituteNoting(i, repl, seen);
      i.stamp = seen;
      // The op's tables read here, not through pure/isBitcast: no call per instruction.
      const op = i.info.index;
      if (PURE[op] !== true) { insts[w++] = i; if (again) late.push(i); continue; }
      // A bit cast of a bit cast back to the first type is its source.
      const src = i.args[0];
      if (src && IS_BITCAST[op] === true && i.args.length === 1 && isBitcast(src) && src.args[0]?.type === i.type) { repl.set(i, src.args[0]); removed++; continue; }
      // A number for the instruction's op, type, arguments and immediates (equal instructions,
      // equal numbers). Not the float mode: two instructions that differ only there are rare,
      // `equal` tells them apart, and hashing the mode's fields (objects of several shapes) was a
      // third of the pass on a float kernel. The pass's answers do not depend on the hash.
      const h = mixOperands((op * 31 + i.type.length) | 0, i.args, i.imms), slot = h & mask;
      let hit: Inst | undefined;
      for (let e = heads[slot] as number; e >= 0; e = next[e] as number) { if (hashes[e] === h) { const x = entries[e] as Inst; if (equal(x, i)) { hit = x; break; } } }
      if (hit) { repl.set(i, hit); removed++; continue; }
      next[entryCount] = heads[slot] as number;
      slots[entryCount] = slot;
      hashes[entryCount] = h;
      heads[slot] = entryCount;
      entries[entryCount++] = i;
      if (entryCount > entryMax) entryMax = entryCount;
      insts[w++] = i;
      if (again) late.push(i);
    }
    insts.length = w;
    for (let k = first[bid] as number, e = first[bid + 1] as number; k < e; k++) { stackBlock.push(kids[k] as number); stackMark.push(-1); }
  }
  // Phis (and any use reached before its definition was replaced) take the survivors: a single
  // substitution (substituteArgs) of every instruction left in a block. Only the late ones and the
  // blocks the walk did not reach can change: an instruction replaces only when the walk reaches
  // it, once, so an argument reached before its user and not replaced then never is.
  if (repl.size) {
    for (let k = 0; k < late.length; k++) substituteArgs(late[k] as Inst, repl);
    for (let bk = 0; bk < n; bk++) {
      if (reached[bk]) continue;
      const insts = (fn.blocks[bk] as Block).insts;
      for (let k = 0; k < insts.length; k++) substituteArgs(insts[k] as Inst, repl);
    }
  }
  entries.fill(undefined, 0, entryMax);
  return removed;
}
