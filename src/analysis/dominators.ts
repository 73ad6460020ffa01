// Reverse postorder and dominators of a graph whose node 0 is the entry: the iterative algorithm
// of Cooper, Harvey and Kennedy ("A Simple, Fast Dominance Algorithm", 2001) over reverse
// postorder. Explicit stacks only (no recursion). No Node APIs. Per-node tables are plain number
// arrays: a typed array past 64 bytes is an allocation outside the JS heap, which costs more than
// the whole computation on most graphs here (the CFG, and the IR's in CSE and structurize).
// Indexed loops: these run a few times per kernel, mostly unoptimised, where for…of makes an
// iterator result per element.

export interface EdgeLike {
  readonly from: number;
  readonly to: number;
}

/**
 * A graph's edges as numbers: node v's neighbours (successors or predecessors, in order) are
 * `list[first[v]] .. list[first[v + 1] - 1]`. One pair of arrays for the whole graph, no object
 * per edge or list per node (CSE builds its IR graph's this way; the edge-list callers below
 * convert theirs).
 */
export interface Adjacency { readonly first: readonly number[]; readonly list: readonly number[] }

/** The adjacency of `n` nodes whose edges `edges(node)` gives, by each edge's `end` (to: successors, from: predecessors). */
function adjacencyOf(n: number, edges: (node: number) => readonly EdgeLike[], end: 'to' | 'from'): Adjacency {
  // Counted, then filled: the list made at its length (pushed to from empty, it was copied as it
  // grew, about twice its size in all on a branchy graph).
  const first = new Array<number>(n + 1);
  let m = 0;
  for (let v = 0; v < n; v++) { first[v] = m; m += edges(v).length; }
  first[n] = m;
  const list = new Array<number>(m);
  for (let v = 0, j = 0; v < n; v++) {
    const es = edges(v);
    for (let k = 0; k < es.length; k++) list[j++] = (es[k] as EdgeLike)[end];
  }
  return { first, list };
}

/** Reverse postorder of the nodes reachable from node 0 (successors visited in edge order). */
export function reversePostorder(n: number, succs: (node: number) => readonly EdgeLike[]): number[] {
  // One node or none (a branch-free kernel): the walk's answer without its tables.
  if (n <= 1) return n === 0 ? [] : [0];
  return reversePostorderOf(n, adjacencyOf(n, succs, 'to'));
}

/** Reverse postorder of the nodes reachable from node 0, successors (`succ`) visited in order; a neighbour outside 0..n-1 is no edge. */
export function reversePostorderOf(n: number, succ: Adjacency): number[] {
  if (n === 0) return [];
  if (n === 1) return [0];
  const { first, list } = succ;
  // Each node is on the stack and in the postorder at most once: the lists are made at n and
  // written by index (pushed to from empty, they were copied as they grew; a chain of blocks is
  // as deep as it is long).
  const post = new Array<number>(n);
  let count = 0;
  const seen = new Array<number>(n).fill(0);
  // Stack of [node, index of the next successor to visit]; `depth` frames.
  const stackNode = new Array<number>(n), stackNext = new Array<number>(n);
  stackNode[0] = 0;
  stackNext[0] = first[0] as number;
  let depth = 1;
  seen[0] = 1;
  while (depth > 0) {
    const top = depth - 1;
    const node = stackNode[top] as number;
    const i = stackNext[top] as number;
    if (i < (first[node + 1] as number)) {
      stackNext[top] = i + 1;
      const to = list[i] as number;
      if (to >= 0 && to < n && seen[to] === 0) {
        seen[to] = 1;
        stackNode[depth] = to;
        stackNext[depth] = first[to] as number;
        depth++;
      }
    } else {
      post[count++] = node;
      depth--;
    }
  }
  post.length = count;
  return post.reverse();
}

/**
 * `xs` (distinct numbers) sorted ascending, in place: an insertion sort, as the lists sorted here
 * are short or nearly in order (the CFG's leaders, found by walks forward; a loop's blocks), up
 * to a budget of moves, then Array's sort (which copies its array and calls the comparison for
 * every step: most of buildOnce's allocation on a small kernel).
 */
export function sortAscending(xs: number[]): number[] {
  let budget = 4 * xs.length + 64;
  for (let i = 1; i < xs.length; i++) {
    const x = xs[i] as number;
    let j = i - 1;
    while (j >= 0 && (xs[j] as number) > x) {
      // x back in the slot freed so far: the list is whole again.
      if (--budget < 0) { xs[j + 1] = x; return xs.sort((a, b) => a - b); }
      xs[j + 1] = xs[j] as number;
      j--;
    }
    xs[j + 1] = x;
  }
  return xs;
}

/** A graph node with its edge lists (the CFG's blocks). */
export interface NodeLike {
  readonly succs: readonly EdgeLike[];
  readonly preds: readonly EdgeLike[];
}

/**
 * reversePostorder and computeDominators of the graph of `nodes` (node 0 the entry) read from
 * the nodes' edge lists, as those two give them, and each node's position in the order (-1 for
 * one not reachable): one walk's tables, not an adjacency per direction made first (the CFG's
 * graph is built once, so its adjacency would be read once).
 */
export function orderAndDominators(nodes: readonly NodeLike[]): { rpo: number[]; idom: number[]; order: number[] } {
  const n = nodes.length;
  const order = new Array<number>(n).fill(-1);
  const idom = new Array<number>(n).fill(-1);
  if (n === 0) return { rpo: [], idom, order };
  order[0] = 0;
  if (n === 1) return { rpo: [0], idom, order };
  // The depth-first walk of reversePostorderOf, `order` its marks (0: seen) until it is numbered.
  const post = new Array<number>(n);
  let count = 0;
  const stackNode = new Array<number>(n), stackNext = new Array<number>(n);
  stackNode[0] = 0;
  stackNext[0] = 0;
  let depth = 1;
  while (depth > 0) {
    const top = depth - 1;
    const node = stackNode[top] as number;
    const i = stackNext[top] as number;
    const es = (nodes[node] as NodeLike).succs;
    if (i < es.length) {
      stackNext[top] = i + 1;
      const to = (es[i] as EdgeLike).to;
      if (to >= 0 && to < n && order[to] === -1) {
        order[to] = 0;
        stackNode[depth] = to;
        stackNext[depth] = 0;
        depth++;
      }
    } else {
      post[count++] = node;
      depth--;
    }
  }
  post.length = count;
  const rpo = post.reverse();
  for (let k = 0; k < count; k++) order[rpo[k] as number] = k;
  if (count <= 1) return { rpo, idom, order };
  // dominatorsOf, its dominators kept in `idom` (UNDEF until found; -1 at the end for the entry
  // and for the nodes not reachable).
  const UNDEF = -2;
  idom.fill(UNDEF);
  const entry = rpo[0] as number;
  idom[entry] = entry;
  let changed = true;
  // As in dominatorsOf: the first pass's answer is final where it met no predecessor without a dominator yet.
  let skipped = false;
  while (changed) {
    changed = false;
    for (let k = 1; k < count; k++) {
      const b = rpo[k] as number;
      let nd = UNDEF;
      const ps = (nodes[b] as NodeLike).preds;
      for (let j = 0; j < ps.length; j++) {
        const p = (ps[j] as EdgeLike).from;
        if (p < 0 || p >= n || order[p] === -1) continue;
        if (idom[p] === UNDEF) { skipped = true; continue; }
        if (nd === UNDEF) { nd = p; continue; }
        nd = intersect(p, nd, order, idom);
      }
      if (nd !== UNDEF && idom[b] !== nd) {
        idom[b] = nd;
        changed = true;
      }
    }
    if (!skipped) break;
  }
  for (let b = 0; b < n; b++) if (idom[b] === UNDEF) idom[b] = -1;
  idom[entry] = -1;
  return { rpo, idom, order };
}

/**
 * Immediate dominator of every node (-1 for node 0 and for nodes not reachable from it).
 * `rpo` must be reversePostorder of the same graph, starting with node 0.
 */
export function computeDominators(n: number, rpo: readonly number[], preds: (node: number) => readonly EdgeLike[]): number[] {
  // The entry alone reachable (a branch-free kernel): no node has a dominator.
  if (n === 0 || rpo.length <= 1) return new Array<number>(n).fill(-1);
  return dominatorsOf(n, rpo, adjacencyOf(n, preds, 'from'));
}

/**
 * The nearest common dominator of `x` and `y` (Cooper, Harvey and Kennedy's intersect): each walks
 * up its chain in `doms` while it lies later in reverse postorder (`order`) than the other. A
 * top-level function (V8 inlines it), not a closure made per call.
 */
function intersect(x: number, y: number, order: ArrayLike<number>, doms: ArrayLike<number>): number {
  while (x !== y) {
    while ((order[x] as number) > (order[y] as number)) x = doms[x] as number;
    while ((order[y] as number) > (order[x] as number)) y = doms[y] as number;
  }
  return x;
}

/**
 * computeDominators over the predecessors as an adjacency (`pred`); a neighbour outside 0..n-1 is
 * no edge. `order`: each node's position in `rpo` (-1 for one not in it), if the caller has it.
 */
export function dominatorsOf(n: number, rpo: readonly number[], pred: Adjacency, order?: readonly number[]): number[] {
  if (n === 0 || rpo.length <= 1) return new Array<number>(n).fill(-1);
  const { first, list } = pred;
  if (order === undefined) {
    const o = new Array<number>(n).fill(-1); // position in rpo
    for (let k = 0; k < rpo.length; k++) o[rpo[k] as number] = k;
    order = o;
  }
  // The dominators found so far, UNDEF until found; the answer itself at the end (-1 for the entry
  // and for the nodes not reachable, which no pass sets), not copied into a table of its own.
  const UNDEF = -2;
  const doms = new Array<number>(n).fill(UNDEF);
  const entry = rpo[0] as number;
  doms[entry] = entry;
  let changed = true;
  // Whether a pass met a predecessor not yet given a dominator: one later in rpo (a retreating
  // edge) on the first pass. Without one, every node's dominator came from its predecessors'
  // final ones, so the first pass's answer is final (an acyclic graph, most kernels): not
  // confirmed by a second pass, which would change nothing.
  let skipped = false;
  while (changed) {
    changed = false;
    for (let k = 1; k < rpo.length; k++) {
      const b = rpo[k] as number;
      let nd = UNDEF;
      for (let j = first[b] as number, e = first[b + 1] as number; j < e; j++) {
        const p = list[j] as number;
        if (p < 0 || p >= n || order[p] === -1) continue;
        if (doms[p] === UNDEF) { skipped = true; continue; }
        if (nd === UNDEF) { nd = p; continue; }
        nd = intersect(p, nd, order, doms);
      }
      if (nd !== UNDEF && doms[b] !== nd) {
        doms[b] = nd;
        changed = true;
      }
    }
    if (!skipped) break;
  }
  for (let b = 0; b < n; b++) if (doms[b] === UNDEF) doms[b] = -1;
  doms[entry] = -1;
  return doms;
}

/**
 * Each node's children in the dominator tree `idom`, in the order of `rpo` (reverse postorder), as
 * an adjacency: two arrays, not a list per node.
 */
export function dominatorChildren(idom: readonly number[], rpo: readonly number[]): Adjacency {
  const n = idom.length;
  const first = new Array<number>(n + 1).fill(0);
  for (let k = 0; k < rpo.length; k++) {
    const d = idom[rpo[k] as number] ?? -1;
    if (d >= 0) first[d + 1] = (first[d + 1] as number) + 1;
  }
  for (let d = 0; d < n; d++) first[d + 1] = (first[d + 1] as number) + (first[d] as number);
  const fill = first.slice(0, n);
  const list = new Array<number>(first[n] as number).fill(0);
  for (let k = 0; k < rpo.length; k++) {
    const b = rpo[k] as number;
    const d = idom[b] ?? -1;
    if (d >= 0) { list[fill[d] as number] = b; fill[d] = (fill[d] as number) + 1; }
  }
  return { first, list };
}

/**
 * Constant-time dominance queries: a preorder numbering of the dominator tree and each node's
 * subtree size (a dominates b iff pre[a] <= pre[b] < end[a], end = pre + size). Numbered from
 * `rpo` (or any order of the nodes where a node's dominator comes before it, its first the root:
 * an acyclic graph's topological order, as SSA construction uses), the sizes summed backwards, the
 * numbers handed out forwards (each child the next free slot of its parent's range, in that
 * order). Three tables and two passes, not a depth-first walk over a table of children (that
 * walk's stack and the children's adjacency were seven tables a tree).
 */
export class DominatorTree {
  private readonly pre: number[];
  /** One past the last preorder number of the node's subtree (-1 for nodes outside the tree). */
  private readonly end: number[];

  constructor(readonly idom: ArrayLike<number>, rpo: ArrayLike<number>) {
    const n = idom.length;
    const pre = new Array<number>(n).fill(-1);
    const end = new Array<number>(n).fill(0);
    this.pre = pre;
    this.end = end;
    const root = rpo[0];
    if (root === undefined) return;
    // Subtree sizes (in `end`): a node's whole subtree comes after it in rpo.
    for (let k = rpo.length - 1; k >= 0; k--) {
      const b = rpo[k] as number;
      const s = (end[b] as number) + 1;
      end[b] = s;
      const d = idom[b] ?? -1;
      if (d >= 0 && b !== root) end[d] = (end[d] as number) + s;
    }
    // The next free number of each node's range, set when the node is numbered.
    const next = new Array<number>(n);
    pre[root] = 0;
    next[root] = 1;
    for (let k = 1; k < rpo.length; k++) {
      const b = rpo[k] as number;
      const d = idom[b] ?? -1;
      // A node outside the root's tree (no dominator, or a parent outside it) is numbered never.
      if (d < 0 || (pre[d] as number) < 0 || b === root) { end[b] = -1; continue; }
      const p = next[d] as number, s = end[b] as number;
      pre[b] = p;
      next[d] = p + s;
      next[b] = p + 1;
      end[b] = p + s;
    }
  }

  /** Whether `a` dominates `b` (every reachable node dominates itself; unreachable nodes nothing). */
  dominates(a: number, b: number): boolean {
    const pa = this.pre[a] ?? -1;
    const pb = this.pre[b] ?? -1;
    if (pa < 0 || pb < 0) return false;
    return pa <= pb && pb < (this.end[a] as number);
  }
}
