// IR kernels of any control-flow graph, built directly (not through the frontend), for the
// structurizer's tests: a CFG given as one terminator per block becomes a kernel whose blocks
// compute with per-lane (VGPR) and wave-uniform (SGPR) registers, branch on uniform values, and
// each write one record per lane (the block, the lane's values) to the next slot of the lane's part
// of buffer 0 (buffer 1: two uniform input words). Edges to a block at or before their source (in
// block order) are taken only while a fuel counter lasts, so every CFG terminates; SSA
// construction and the pass pipeline make the phis. Also: random CFGs (reducible by construction,
// or with retreating edges anywhere), and an independent reducibility test (T1/T2 reduction,
// Hecht and Ullman), not the structurizer's own.
import { Builder, IrFunction, type Inst } from '../../src/ir/ir.js';
import { runPasses } from '../../src/ir/passes/index.js';
import type { Rng } from './rng.js';

/** A block's end; targets are IR block ids (1..n; block 0 is the kernel's entry, which branches to 1). */
export type Term =
  | { readonly kind: 'end' }
  | { readonly kind: 'br'; readonly to: number }
  | { readonly kind: 'cond'; readonly to: readonly [number, number]; readonly test: number };

/** Blocks 1..n: what each computes (0..3) and how it ends. */
export type CfgSpec = readonly { readonly op: number; readonly term: Term }[];

/** Record slots per lane: every block run writes one; runs past the fuel follow edges forward only. */
export const slots = (spec: CfgSpec, fuel: number): number => fuel + spec.length + 2;

const S_FUEL = 10, S_IDX = 11, S_A = 12, S_B = 13, V_X = 1, V_Y = 2;

/** The kernel of `spec` (through the IR pass pipeline). Lane l of workgroup g writes slots from dword (g·wave + l)·slots. */
export function buildCfgKernel(name: string, spec: CfgSpec, waveSize: 32 | 64, fuel: number): IrFunction {
  const fn = new IrFunction(name, waveSize);
  const entry = fn.addBlock();
  const blocks = spec.map(() => fn.addBlock());
  const e = new Builder(fn, entry);
  const kp = e.emit('KernargPtr');
  const at = (b: Builder, p: Inst, off: number) => b.emit('IAdd64', [p, b.emit('ConstU64', [], [BigInt(off)])]);
  const ptr = (off: number) => e.emit('Pack64', [e.emit('LoadUniform32', [at(e, kp, off)]), e.emit('LoadUniform32', [at(e, kp, off + 4)])]);
  const out = ptr(0), inp = ptr(8);
  const lane = e.emit('LaneId');
  e.emit('SetSgpr', [e.emit('LoadUniform32', [inp])], [S_A]);
  e.emit('SetSgpr', [e.emit('LoadUniform32', [at(e, inp, 4)])], [S_B]);
  e.emit('SetSgpr', [e.u32(fuel)], [S_FUEL]);
  e.emit('SetSgpr', [e.u32(0)], [S_IDX]);
  e.emit('SetVgpr', [e.emit('IAdd32', [e.emit('IMul32', [lane, e.u32(0x9e3779b1)]), e.emit('GetSgpr', [], [S_A])])], [V_X]);
  e.emit('SetVgpr', [e.emit('Xor32', [lane, e.u32(0x55)])], [V_Y]);
  const base = e.emit('IMul32', [e.emit('IAdd32', [e.emit('IMul32', [e.emit('WorkgroupId', [], [0]), e.u32(waveSize)]), lane]), e.u32(slots(spec, fuel))]);
  e.emit('Branch', [], [1]);
  const n = spec.length;
  spec.forEach(({ op, term }, j) => {
    const k = j + 1;
    const b = new Builder(fn, blocks[j] as ReturnType<IrFunction['addBlock']>);
    const g = (r: number) => b.emit('GetSgpr', [], [r]);
    const v = (r: number) => b.emit('GetVgpr', [], [r]);
    const f = g(S_FUEL);
    const fuelLeft = b.emit('INe32', [f, b.u32(0)]);
    b.emit('SetSgpr', [b.emit('Select32', [fuelLeft, b.emit('ISub32', [f, b.u32(1)]), b.u32(0)])], [S_FUEL]);
    switch (op & 3) {
      case 0: b.emit('SetVgpr', [b.emit('IAdd32', [b.emit('IMul32', [v(V_X), b.u32(3)]), b.emit('Xor32', [g(S_A), b.u32(k)])])], [V_X]); break;
      case 1:
        b.emit('SetSgpr', [b.emit('Xor32', [b.emit('IMul32', [g(S_A), b.u32(0x01000193)]), b.u32(k)])], [S_A]);
        b.emit('SetVgpr', [b.emit('IAdd32', [v(V_Y), v(V_X)])], [V_Y]);
        break;
      case 2:
        b.emit('SetSgpr', [b.emit('IAdd32', [g(S_B), b.emit('LShr32', [g(S_A), b.u32(3)])])], [S_B]);
        b.emit('SetVgpr', [b.emit('Xor32', [v(V_X), v(V_Y)])], [V_X]);
        break;
      default: b.emit('SetVgpr', [b.emit('IAdd32', [b.emit('IMul32', [v(V_Y), b.u32(5)]), b.u32(k)])], [V_Y]);
    }
    const idx = g(S_IDX);
    const slot = b.emit('Shl32', [b.emit('IAdd32', [base, idx]), b.u32(2)]);
    const addr = b.emit('IAdd64', [out, b.emit('Pack64', [slot, b.u32(0)])]);
    const rec = b.emit('Xor32', [b.emit('Xor32', [v(V_X), b.emit('Shl32', [v(V_Y), b.u32(7)])]), b.emit('Xor32', [g(S_B), b.u32(k << 24)])]);
    b.emit('StoreGlobal32', [b.emit('InGrid'), addr, rec]);
    b.emit('SetSgpr', [b.emit('IAdd32', [idx, b.u32(1)])], [S_IDX]);
    const pred = (t: number) => b.emit('IEq32', [b.emit('And32', [b.emit('LShr32', [g(t & 16 ? S_A : S_B), b.u32(t & 15)]), b.u32(1)]), b.u32(1)]);
    // Edges to a block at or before this one only while fuel lasts.
    const back = (t: number) => t <= k;
    if (term.kind === 'end') b.emit('EndProgram');
    else if (term.kind === 'br') {
      if (!back(term.to)) b.emit('Branch', [], [term.to]);
      else {
        if (k >= n) throw new Error(`block ${k}: a backward branch needs a block after it`);
        b.emit('BranchCond', [fuelLeft], [term.to, k + 1]);
      }
    } else {
      const [x, y] = term.to;
      if (back(x) && back(y)) throw new Error(`block ${k}: a conditional branch needs a forward target`);
      const p = pred(term.test);
      const c = back(x) ? b.emit('AndU1', [fuelLeft, p]) : back(y) ? b.emit('OrU1', [p, b.emit('NotU1', [fuelLeft])]) : p;
      b.emit('BranchCond', [c], [x, y]);
    }
  });
  runPasses(fn);
  return fn;
}

/**
 * A random CFG of n blocks (n ≥ 2): every block reachable (each block's successor in order gets a
 * way in before it is reached), early ends, forward edges mostly near, and backward edges: to a
 * block dominating the source (`reducible`), or mostly to an earlier block that does not (else;
 * the result may still be reducible).
 */
export function randomCfg(rng: Rng, n: number, reducible: boolean): CfgSpec {
  const preds: number[][] = Array.from({ length: n + 2 }, () => []);
  preds[1]?.push(0);
  // Dominators of the forward edges (backward ones to dominators do not change them).
  const dom: Set<number>[] = [new Set([0])];
  const out: { op: number; term: Term }[] = [];
  for (let k = 1; k <= n; k++) {
    const ps = preds[k] as number[];
    const d = new Set<number>((dom[ps[0] as number] as Set<number>));
    for (const p of ps.slice(1)) for (const x of [...d]) if (!(dom[p] as Set<number>).has(x)) d.delete(x);
    d.add(k);
    dom[k] = d;
    const op = rng.int(4);
    if (k === n) { out.push({ op, term: { kind: 'end' } }); continue; }
    const needed = (preds[k + 1] as number[]).length === 0;
    const fwd = (): number => {
      const r = rng.int(10);
      return Math.min(n, k + (r < 6 ? 1 : r < 9 ? 2 + rng.int(2) : 1 + rng.int(n - k)));
    };
    const others = Array.from({ length: k }, (_, i) => i + 1).filter((x) => !d.has(x));
    const backTo = (): number => (reducible || others.length === 0 || rng.bool(0.3) ? rng.pick([...d].filter((x) => x > 0)) : rng.pick(others));
    const r = rng.int(20);
    let term: Term;
    if (r < 2 && !needed) term = { kind: 'end' };
    else if (r < 6) term = { kind: 'br', to: needed ? k + 1 : rng.bool(0.15) ? backTo() : fwd() };
    else {
      const a = needed ? k + 1 : fwd();
      const b = rng.bool(0.4) ? backTo() : fwd();
      term = { kind: 'cond', to: rng.bool() ? [a, b] : [b, a], test: rng.int(32) };
    }
    const targets = term.kind === 'end' ? [] : term.kind === 'br' ? (term.to <= k ? [term.to, k + 1] : [term.to]) : [...term.to];
    for (const t of new Set(targets)) if (t > k) preds[t]?.push(k);
    out.push({ op, term });
  }
  return out;
}

/** The CFG's edges, as buildCfgKernel makes them (entry 0 → 1; a backward branch also goes to the next block). */
export function cfgEdges(spec: CfgSpec): number[][] {
  const succ: number[][] = [[1]];
  spec.forEach(({ term }, j) => {
    const k = j + 1;
    succ[k] = term.kind === 'end' ? [] : term.kind === 'br' ? (term.to <= k ? [term.to, k + 1] : [term.to]) : [...new Set(term.to)];
  });
  return succ;
}

/** Whether the graph (node 0 the entry) is reducible: T1 (drop self-loops) and T2 (merge a node into its only predecessor) collapse it to one node. */
export function reducibleByT1T2(succ: readonly (readonly number[])[]): boolean {
  const seen = new Set<number>([0]);
  const stack = [0];
  while (stack.length) for (const s of succ[stack.pop() as number] ?? []) if (!seen.has(s)) { seen.add(s); stack.push(s); }
  const out = new Map<number, Set<number>>(), inn = new Map<number, Set<number>>();
  for (const v of seen) { out.set(v, new Set()); inn.set(v, new Set()); }
  for (const v of seen) for (const s of succ[v] ?? []) { out.get(v)?.add(s); inn.get(s)?.add(v); }
  let changed = true;
  while (changed) {
    changed = false;
    for (const v of [...out.keys()]) {
      out.get(v)?.delete(v);
      inn.get(v)?.delete(v);
      const ps = inn.get(v) as Set<number>;
      if (v === 0 || ps.size !== 1) continue;
      const p = [...ps][0] as number;
      for (const s of out.get(v) as Set<number>) { inn.get(s)?.delete(v); inn.get(s)?.add(p); out.get(p)?.add(s); }
      out.get(p)?.delete(v);
      out.delete(v);
      inn.delete(v);
      changed = true;
    }
  }
  return out.size === 1;
}
