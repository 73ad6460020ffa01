// Natural loops from back edges (an edge whose target dominates its source), one loop per header
// (all its back edges together), nested by their headers; retreating edges to a block that does
// not dominate the source are irreducible control flow, reported for later stages. No recursion,
// no Node APIs.
import type { Loop, Edge, Severity } from './types.js';
import { DominatorTree, sortAscending } from './dominators.js';

export interface LoopDiagnostic {
  /** Block whose last instruction the finding is about (the retreating edge's source). */
  readonly block: number;
  readonly code: string;
  readonly severity: Severity;
  readonly message: string;
}

/** The walks up the dominator tree findLoops takes per block before it numbers the tree. */
const DOMINANCE_STEPS_PER_BLOCK = 4;

interface BlockLike {
  readonly succs: readonly Edge[];
  readonly preds: readonly Edge[];
  readonly start: number;
}

/**
 * The natural loops of a graph (ordered by header block id) and its irreducible retreating edges.
 * `order`: each block's position in `rpo` (-1 for one not in it), if the caller has it.
 */
export function findLoops(blocks: readonly BlockLike[], rpo: readonly number[], idom: readonly number[], order?: readonly number[]): { loops: Loop[]; diagnostics: LoopDiagnostic[] } {
  const n = blocks.length;
  // Only a retreating edge can be a back edge (a dominator comes before the blocks it dominates in
  // every reverse postorder), and most graphs have few or none: whether its target dominates its
  // source is a walk up the dominator tree from the source, until those walks have taken
  // DOMINANCE_STEPS_PER_BLOCK steps per block; then the tree's numbering answers (made once).
  let tree: DominatorTree | undefined;
  let steps = DOMINANCE_STEPS_PER_BLOCK * n + 64;
  const dominates = (v: number, u: number): boolean => {
    if (tree === undefined) {
      let x = u;
      while (x !== v && x >= 0 && steps-- > 0) x = idom[x] ?? -1;
      if (steps >= 0) return x === v;
      tree = new DominatorTree(idom, rpo);
    }
    return tree.dominates(v, u);
  };
  if (order === undefined) {
    const o = new Array<number>(n).fill(-1);
    for (let k = 0; k < rpo.length; k++) o[rpo[k] as number] = k;
    order = o;
  }
  // Made at the first back edge (most graphs have none): by header block id, its back edges in
  // the order found (an array walked by id below, not a Map sorted by key, nor iterators).
  let backEdges: (Edge[] | undefined)[] | undefined;
  const diagnostics: LoopDiagnostic[] = [];
  // Indexed loops over every edge: run once per kernel, mostly unoptimised, where for…of makes an iterator result per element.
  for (let k = 0; k < rpo.length; k++) {
    const u = rpo[k] as number;
    const succs = blocks[u]?.succs ?? [];
    for (let j = 0; j < succs.length; j++) {
      const e = succs[j] as Edge;
      const v = e.to;
      // Not retreating: v is after u in reverse postorder (so dominates nothing before it), or
      // unreachable (never: u is reachable), where the dominance test and the check below both fail.
      if ((order[v] ?? -1) < 0 || (order[v] as number) > (order[u] as number)) continue;
      if (dominates(v, u)) {
        backEdges ??= new Array<Edge[] | undefined>(n).fill(undefined);
        let list = backEdges[v];
        if (!list) backEdges[v] = list = [];
        list.push(e);
      } else {
        const hv = blocks[v]?.start ?? 0;
        diagnostics.push({
          block: u, code: 'irreducible-loop', severity: 'warning',
          message: `irreducible control flow: the ${e.kind} edge from block ${u} to block ${v} (pc 0x${hv.toString(16)}) enters a cycle at a block that does not dominate it`,
        });
      }
    }
  }
  if (backEdges === undefined) return { loops: [], diagnostics };
  // Bodies: the header plus every block that reaches a latch without passing the header.
  const raw: { header: number; blocks: number[]; backEdges: Edge[] }[] = [];
  const mark = new Array<number>(n).fill(-1);
  // The headers ascending: the block ids in order.
  for (let header = 0; header < n; header++) {
    const edges = backEdges[header];
    if (edges === undefined) continue;
    const body: number[] = [header];
    mark[header] = header;
    const work: number[] = [];
    for (let j = 0; j < edges.length; j++) { const e = edges[j] as Edge; if (mark[e.from] !== header) { mark[e.from] = header; body.push(e.from); work.push(e.from); } }
    while (work.length > 0) {
      const b = work.pop() as number;
      const preds = blocks[b]?.preds ?? [];
      for (let j = 0; j < preds.length; j++) {
        const q = (preds[j] as Edge).from;
        if (mark[q] === header || (order[q] ?? -1) < 0) continue;
        mark[q] = header;
        body.push(q);
        work.push(q);
      }
    }
    sortAscending(body);
    raw.push({ header, blocks: body, backEdges: edges });
  }
  // Nesting: from the largest loop to the smallest, the innermost loop seen so far that holds a
  // header is its parent (nested natural loops have strictly smaller bodies).
  // One loop (most graphs with any) has no parent.
  if (raw.length === 1) return { loops: raw, diagnostics };
  const innermost = new Array<number>(n).fill(-1);
  const parent = new Map<number, number>();
  const bySize = raw.slice().sort((a, b) => b.blocks.length - a.blocks.length || a.header - b.header);
  for (let k = 0; k < bySize.length; k++) {
    const l = bySize[k] as (typeof raw)[number];
    const p = innermost[l.header] ?? -1;
    if (p >= 0) parent.set(l.header, p);
    for (let j = 0; j < l.blocks.length; j++) innermost[l.blocks[j] as number] = l.header;
  }
  const loops = new Array<Loop>(raw.length);
  for (let k = 0; k < raw.length; k++) {
    const l = raw[k] as (typeof raw)[number];
    const p = parent.get(l.header);
    loops[k] = p === undefined ? l : { ...l, parent: p };
  }
  return { loops, diagnostics };
}

/** Header of the innermost loop holding each block (-1 outside every loop). */
export function innermostLoop(n: number, loops: readonly Loop[]): number[] {
  const out = new Array<number>(n).fill(-1);
  for (const l of [...loops].sort((a, b) => b.blocks.length - a.blocks.length)) {
    for (const b of l.blocks) if (b >= 0 && b < n) out[b] = l.header;
  }
  return out;
}
