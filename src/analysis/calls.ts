// Where control goes at run time around subroutine calls, on top of the CFG (cfg.ts). The CFG
// models a resolved call (s_call_b64, or s_swappc_b64 of a constant target) as a 'call' edge plus
// a fallthrough edge to the instruction after it (the return site), and a return (s_setpc_b64 of
// a pair some call wrote, exit 'return') as a block without successors. At run time a call block
// goes only to its callee, and a return goes to whichever return site its pair holds. This file
// gives the forward data flow (scalar-constants.ts, mode.ts) and the frontend that flow:
//  - a resolved call block's successors are its call edge's target alone;
//  - a return block's successors are the return sites of the calls whose callee reaches it. The
//    callee of a call is walked from its entry along the CFG's edges, where a nested resolved
//    call is followed by its return site (the nested callee returns there), not into the nested
//    callee. The frontend checks the pair's run-time value against exactly these sites (and
//    faults when it is none of them), so the set only has to hold every site a return can reach
//    when the program calls and returns as the ISA describes (AMD RDNA2 ISA reference, SOP1 and
//    SOPK: s_swappc_b64 and s_call_b64 write the address of the next instruction to their
//    destination pair and go to the target; s_setpc_b64 goes to its pair's value; as
//    src/interp/units/salu.ts runs them).
// An unresolved s_swappc_b64 (no call edge) keeps the CFG's fallthrough: the data flow then assumes
// that the unknown callee returns with every register as it was (the frontend refuses it).
// s_rfe_b64 (exit 'return' too) is not a subroutine return and gets no sites.
import type { BasicBlock, Cfg, Edge } from './types.js';

export interface CallFlow {
  /** Per block id: where the block may pass control at run time (block ids; no duplicates). */
  readonly succs: readonly (readonly number[])[];
  /** Per block id: for a return block (s_setpc_b64 with exit 'return'), its return-site block ids in ascending pc order. */
  readonly returnSites: readonly (readonly number[] | undefined)[];
  /** Per block id: whether control reaches it from the entry along `succs`. */
  readonly reachable: readonly boolean[];
}

/** Whether the block ends with a call whose target the CFG resolved (a 'call' edge). */
export function isResolvedCall(b: BasicBlock): boolean {
  const es = b.succs;
  for (let j = 0; j < es.length; j++) if ((es[j] as Edge).kind === 'call') return true;
  return false;
}

/** Whether the block ends with a subroutine return: s_setpc_b64 of a return-address pair (not s_rfe_b64). */
export function isReturn(b: BasicBlock): boolean {
  return b.exit === 'return' && b.instructions[b.instructions.length - 1]?.def.mnemonic === 's_setpc_b64';
}

const memo = new WeakMap<Cfg, CallFlow>();

/** The return blocks a callee reaches, walked from its entry; `known`: the answers so far by entry. */
function returnsFrom(blocks: readonly BasicBlock[], entry: number, known: Map<number, number[]>): number[] {
  const hit = known.get(entry);
  if (hit) return hit;
  const seen = new Array<number>(blocks.length).fill(0);
  const out: number[] = [];
  const work = [entry];
  seen[entry] = 1;
  while (work.length > 0) {
    const b = blocks[work.pop() as number];
    if (!b) continue;
    if (isReturn(b)) out.push(b.id);
    const call = isResolvedCall(b);
    for (const e of b.succs) {
      if (call && e.kind === 'call') continue;
      if (seen[e.to] === 1) continue;
      seen[e.to] = 1;
      work.push(e.to);
    }
  }
  known.set(entry, out);
  return out;
}

/**
 * The targets of edges `es`, each once, in edge order: a block's run-time successors where it
 * neither calls nor returns. One or two edges (most blocks) give a list made at its length (a
 * pushed list's first store reserves 17 elements).
 */
function edgeTargets(es: readonly Edge[]): number[] {
  if (es.length <= 2) {
    const x = es[0], y = es[1];
    return x === undefined ? [] : y === undefined || y.to === x.to ? [x.to] : [x.to, y.to];
  }
  const out: number[] = [];
  for (let j = 0; j < es.length; j++) { const t = (es[j] as Edge).to; if (!out.includes(t)) out.push(t); }
  return out;
}

/**
 * callFlow of a graph without resolved calls and returns (most): the run-time successors are the
 * CFG's own, so `reachable` is walked along its edges, and the lists of successors (which only
 * the data flows over a kernel that reads or writes MODE ask for) are made at the first question.
 * A class with the getter on its prototype, not an object literal with a getter: V8 defines a
 * literal's accessor afresh at every call (a runtime call, most of this function's time on a
 * small kernel).
 */
class PlainFlow implements CallFlow {
  readonly returnSites: readonly (readonly number[] | undefined)[];
  readonly reachable: readonly boolean[];
  private lists: number[][] | undefined;
  constructor(private readonly blocks: readonly BasicBlock[]) {
    const n = blocks.length;
    this.returnSites = new Array<readonly number[] | undefined>(n).fill(undefined);
    this.reachable = new Array<boolean>(n).fill(false);
  }
  get succs(): readonly (readonly number[])[] {
    let succs = this.lists;
    if (succs === undefined) {
      const blocks = this.blocks, n = blocks.length;
      succs = new Array<number[]>(n);
      for (let k = 0; k < n; k++) succs[k] = edgeTargets((blocks[k] as BasicBlock).succs);
      this.lists = succs;
    }
    return succs;
  }
}

function plainFlow(cfg: Cfg): CallFlow {
  const blocks = cfg.blocks;
  const n = blocks.length;
  const flow = new PlainFlow(blocks);
  const reachable = flow.reachable as boolean[];
  const work = n > 0 ? [cfg.entry] : [];
  if (n > 0) reachable[cfg.entry] = true;
  while (work.length > 0) {
    const es = (blocks[work.pop() as number] as BasicBlock).succs;
    for (let j = 0; j < es.length; j++) { const t = (es[j] as Edge).to; if (!reachable[t]) { reachable[t] = true; work.push(t); } }
  }
  return flow;
}

/** Whether a block of the graph is a resolved call or a return. */
function hasCallsOrReturns(blocks: readonly BasicBlock[]): boolean {
  for (let k = 0; k < blocks.length; k++) if (isResolvedCall(blocks[k] as BasicBlock) || isReturn(blocks[k] as BasicBlock)) return true;
  return false;
}

/** The most blocks of a graph whose plain flow is made anew at each question (callFlow). */
const PLAIN_ANEW_BLOCKS = 64;

/**
 * The run-time flow of `cfg` around calls and returns (computed once per Cfg). A small graph
 * without resolved calls and returns (most kernels) gets its plain flow anew at each question
 * (two per recompile): its walk over the blocks costs less than the memo's entry (a WeakMap's new
 * key, and its ephemeron for the collector); a larger one's walks cost more, and it is memoised.
 */
export function callFlow(cfg: Cfg): CallFlow {
  const blocks = cfg.blocks;
  const n = blocks.length;
  if (n <= PLAIN_ANEW_BLOCKS && !hasCallsOrReturns(blocks)) return plainFlow(cfg);
  const hit = memo.get(cfg);
  if (hit) return hit;
  if (!hasCallsOrReturns(blocks)) {
    const flow = plainFlow(cfg);
    memo.set(cfg, flow);
    return flow;
  }
  // The return blocks each callee reaches, by its entry (made at the first call: most graphs have none).
  let returnsOf: Map<number, number[]> | undefined;
  // Only return blocks get a set (most graphs have none).
  const sites: (Set<number> | undefined)[] = new Array<Set<number> | undefined>(n);
  for (let k = 0; k < n; k++) {
    const b = blocks[k] as BasicBlock;
    if (!isResolvedCall(b)) continue;
    const callee = b.succs.find((e) => e.kind === 'call');
    const site = b.succs.find((e) => e.kind === 'fallthrough');
    if (!callee || !site) continue;
    for (const r of returnsFrom(blocks, callee.to, returnsOf ??= new Map())) if (r >= 0 && r < n) (sites[r] ??= new Set<number>()).add(site.to);
  }
  // Indexed loops and no closure per block: this runs once per kernel, mostly unoptimised, where
  // for…of makes an iterator result per element and a closure in the loop a context per block.
  const returnSites = new Array<readonly number[] | undefined>(n);
  const succs = new Array<number[]>(n);
  for (let k = 0; k < n; k++) {
    const b = blocks[k] as BasicBlock;
    const rs = isReturn(b) ? [...(sites[b.id] ?? [])].sort((x, y) => (blocks[x]?.start ?? 0) - (blocks[y]?.start ?? 0)) : undefined;
    returnSites[k] = rs;
    const es = b.succs;
    const call = isResolvedCall(b);
    // Most blocks neither call nor return: their edges' targets.
    if (!call && rs === undefined) { succs[k] = edgeTargets(es); continue; }
    const out: number[] = [];
    for (let j = 0; j < es.length; j++) { const e = es[j] as Edge; if (!(call && e.kind === 'fallthrough') && !out.includes(e.to)) out.push(e.to); }
    if (rs) for (let j = 0; j < rs.length; j++) { const t = rs[j] as number; if (!out.includes(t)) out.push(t); }
    succs[k] = out;
  }
  const reachable = new Array<boolean>(n).fill(false);
  const work = n > 0 ? [cfg.entry] : [];
  if (n > 0) reachable[cfg.entry] = true;
  while (work.length > 0) {
    const ts = succs[work.pop() as number] ?? [];
    for (let j = 0; j < ts.length; j++) { const t = ts[j] as number; if (!reachable[t]) { reachable[t] = true; work.push(t); } }
  }
  const flow: CallFlow = { succs, returnSites, reachable };
  memo.set(cfg, flow);
  return flow;
}
