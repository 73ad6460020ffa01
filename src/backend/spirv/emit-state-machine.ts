// The fallback control flow for CFGs that are not reducible (structurize.ts says which): the IR
// blocks become the cases of one switch inside one loop, a state machine on a block-number
// variable. It is structured SPIR-V for any CFG, and correct, but drivers compile it slowly (every
// block a case; lavapipe did not finish a 9,000-block kernel in 15 minutes). Values used outside
// their block, and phis, live in Function variables, except module constants and the launch
// values computed before the loop (EVERYWHERE), whose ids every block sees. The control flow is
// the IR's, wave-uniform: the workgroup barriers of the kernel state's helpers stay in uniform
// control flow.
import type { Block, Inst, IrFunction } from '../../ir/ir.js';
import type { IrType } from '../../ir/ops.js';
import type { Id } from './operands.js';
import { CompileError } from './errors.js';
import { emitOp, EVERYWHERE, type KernelState, NO_OPERANDS, type Operands, type Scalars } from './emit-ops.js';

export const DONE = 0xffffffff;
/** A state with this bit set stops the machine: DONE, or (a barrier) the block to resume at, with the bit. */
export const YIELD = 0x80000000;

/**
 * The machine as one turn of a wave in a workgroup (emit.ts's workgroup layout): it starts at
 * block `start` (a u32 id) and stops at the wave's end or its next Barrier, leaving the state in
 * the returned variable (DONE, or YIELD | the block to resume at). With `wave`, every
 * cross-block value lives in a Function array indexed by the wave (`count` of them), so the
 * workgroup's waves keep their values between turns.
 */
export interface WaveTurn {
  readonly start: Id;
  readonly wave?: { readonly index: Id; readonly count: number };
}

/** Blocks per OpSwitch (its word count is 16 bits, 3 + 2 per case; spirv-val takes at most 16,383 cases). */
export const SWITCH_CHUNK = 8192;

/** Emits `fn`'s blocks into the open function, from its open block (the launch code), as a state machine. */
export function emitStateMachine(sc: Scalars, kernel: KernelState, fn: IrFunction, turn?: WaveTurn): Id {
  const { m, tBool, tU32 } = sc;
  const fnPtr = (t: Id) => m.OpTypePointer('Function', t);
  const state = m.OpVariable(fnPtr(tU32), 'Function');
  // A value's variable: one per invocation, or (waves of a workgroup) an array with one slot per
  // wave for the values a later turn of the wave reads (liveAcrossTurns); the others are read
  // only in the turn that wrote them, so one variable serves every wave.
  // (A workgroup of one wave keeps its values in plain variables: no other wave writes them.)
  const wave = turn?.wave && turn.wave.count > 1 ? turn.wave : undefined;
  const arrays = new Map<Id, Id>();
  const perWave = new Set<Id>();
  const variable = (t: IrType, keep: boolean): Id => {
    const ty = sc.typeOf(t);
    if (!wave || !keep) return m.OpVariable(fnPtr(ty), 'Function');
    let at = arrays.get(ty);
    if (at === undefined) { at = m.OpTypeArray(ty, sc.c32(wave.count)); arrays.set(ty, at); }
    const v = m.OpVariable(fnPtr(at), 'Function');
    perWave.add(v);
    return v;
  };
  const slot = (v: Id, t: IrType): Id => (wave && perWave.has(v) ? m.OpAccessChain(fnPtr(sc.typeOf(t)), v, wave.index) : v);
  const { crossed, phis } = crossBlockValues(fn);
  const kept = wave ? liveAcrossTurns(fn, crossed) : undefined;
  const crossVar = new Map<Inst, Id>();
  const phiVar = new Map<Inst, Id>();
  for (const p of phis) phiVar.set(p, variable(p.type, kept?.phis.has(p) ?? false));
  for (const a of crossed) crossVar.set(a, variable(a.type, kept?.values.has(a) ?? false));
  const load = (v: Id, x: Inst): Id => m.OpLoad(sc.typeOf(x.type), slot(v, x.type));
  const store = (v: Id, x: Inst, val: Id): void => { m.OpStore(slot(v, x.type), val); };
  m.OpStore(state, turn ? turn.start : sc.c32(0));

  const header = m.allocateId(), dispatchL = m.allocateId(), swMerge = m.allocateId(), cont = m.allocateId(), exit = m.allocateId();
  const caseLabels = fn.blocks.map(() => m.allocateId());
  m.OpBranch(header);
  m.label(header);
  m.OpLoopMerge(exit, cont, 'None');
  m.OpBranch(dispatchL);
  m.label(dispatchL);
  const s = m.OpLoad(tU32, state);
  // One OpSwitch holds at most (65535 - 3) / 2 cases: more blocks are split into chunks, an outer
  // switch on state / CHUNK choosing the chunk's own switch (whose merge leads to the outer one's).
  const chunks = Math.ceil(fn.blocks.length / SWITCH_CHUNK);
  const nested = chunks > 1;
  const chunkLabels = nested ? Array.from({ length: chunks }, () => m.allocateId()) : [];
  const chunkMerges = nested ? Array.from({ length: chunks }, () => m.allocateId()) : [];
  const mergeOf = (k: number): Id => (nested ? chunkMerges[Math.floor(k / SWITCH_CHUNK)] as Id : swMerge);
  const openSwitch = (merge: Id, from: number, to: number) => {
    m.OpSelectionMerge(merge, 'None');
    m.OpSwitch(s, merge, ...fn.blocks.slice(from, to).flatMap((b, j) => [b.id, caseLabels[from + j] as Id]));
  };
  if (nested) {
    const chunk = m.OpUDiv(tU32, s, sc.c32(SWITCH_CHUNK));
    m.OpSelectionMerge(swMerge, 'None');
    m.OpSwitch(chunk, swMerge, ...chunkLabels.flatMap((l, c) => [c, l]));
  } else openSwitch(swMerge, 0, fn.blocks.length);

  fn.blocks.forEach((b, k) => {
    if (nested && k % SWITCH_CHUNK === 0) {
      const c = k / SWITCH_CHUNK;
      m.label(chunkLabels[c] as Id);
      openSwitch(chunkMerges[c] as Id, k, Math.min(fn.blocks.length, k + SWITCH_CHUNK));
    }
    m.label(caseLabels[k] as Id);
    const vals = new Map<Inst, Id>();
    // This block's phis: their variables are read once, here, and copied to their cross-block
    // variables (a later write of a phi variable by another predecessor must not reach other users).
    for (const p of b.insts) {
      if (p.op !== 'Phi') break;
      const v = load(phiVar.get(p) as Id, p);
      vals.set(p, v);
      const cv = crossVar.get(p);
      if (cv) store(cv, p, v);
    }
    const val = (x: Inst): Id => {
      const hit = vals.get(x);
      if (hit) return hit;
      // Module constants and the launch values of the function's first block are valid in every block.
      if (EVERYWHERE.has(x.op)) { const e = emitOp(sc, kernel, x, NO_OPERANDS); if (e) { vals.set(x, e); return e; } }
      const cv = crossVar.get(x);
      const v = cv ? load(cv, x) : undefined;
      if (!v) throw new CompileError(`internal: %${x.id} (${x.op}) has no value in b${b.id}`, x.pc);
      vals.set(x, v);
      return v;
    };
    // One argument reader for the block, reading the instruction at hand (a closure per
    // instruction capturing it made V8 allocate the loop's variables at every instruction).
    const A = new BlockOperands(val);
    for (const i of b.insts) {
      if (i.op === 'Phi') continue;
      A.at = i;
      const r = emitOp(sc, kernel, i, A);
      if (r !== undefined) {
        vals.set(i, r);
        const cv = crossVar.get(i);
        if (cv) store(cv, i, r);
      }
    }
    // Leave the block: phi copies for the successor(s), then the next state.
    const term = b.terminator;
    const phiCopies = (to: Block): (() => void) => {
      const phis = to.insts.filter((x) => x.op === 'Phi');
      const k2 = to.preds.indexOf(b);
      const loaded = phis.map((p) => { const a = p.args[k2]; if (!a) throw new CompileError(`phi without an argument for b${b.id}`); return val(a); });
      return () => phis.forEach((p, j) => store(phiVar.get(p) as Id, p, loaded[j] as Id));
    };
    if (!term) throw new CompileError(`b${b.id} has no terminator`);
    if (term.op === 'Branch') {
      const to = fn.block(Number(term.imms[0]));
      phiCopies(to)();
      // After a barrier the wave's turn ends; it resumes at the branch's target.
      const barrier = b.insts[b.insts.length - 2]?.op === 'Barrier';
      if (barrier && !turn) throw new CompileError('a barrier outside the workgroup layout (internal)', term.pc);
      m.OpStore(state, sc.c32(barrier ? (YIELD | to.id) >>> 0 : to.id));
    } else if (term.op === 'BranchCond') {
      const tt = fn.block(Number(term.imms[0])), ff = fn.block(Number(term.imms[1]));
      const cond = val(term.args[0] as Inst);
      // Both successors' phi variables are written (no branch): a phi variable is read only at the
      // start of its own block, and every entry into that block is preceded by its predecessor's
      // writes, so the copies for the successor not taken are never read.
      const pt = phiCopies(tt), pf = phiCopies(ff);
      pt();
      if (ff !== tt) pf();
      m.OpStore(state, m.OpSelect(tU32, cond, sc.c32(tt.id), sc.c32(ff.id)));
    } else if (term.op === 'EndProgram') {
      m.OpStore(state, sc.c32(DONE));
    } else throw new CompileError(`${term.op} is not emitted yet`, term.pc);
    m.OpBranch(mergeOf(k));
    if (nested && (k % SWITCH_CHUNK === SWITCH_CHUNK - 1 || k === fn.blocks.length - 1)) {
      m.label(mergeOf(k));
      m.OpBranch(swMerge);
    }
  });
  m.label(swMerge);
  m.OpBranch(cont);
  m.label(cont);
  const running = turn
    ? m.OpIEqual(tBool, m.OpBitwiseAnd(tU32, m.OpLoad(tU32, state), sc.c32(YIELD)), sc.c32(0))
    : m.OpINotEqual(tBool, m.OpLoad(tU32, state), sc.c32(DONE));
  m.OpBranchConditional(running, header, exit);
  m.label(exit);
  if (!turn) m.OpReturn();
  return state;
}

/**
 * The values the machine keeps in variables: those read outside their block (phi arguments are
 * read at the end of their predecessor), and the phis; module constants and launch values
 * (EVERYWHERE) are recomputed where used.
 */
export function crossBlockValues(fn: IrFunction): { crossed: Inst[]; phis: Inst[] } {
  const crossed: Inst[] = [];
  const phis: Inst[] = [];
  const seen = new Set<Inst>();
  const add = (a: Inst): void => { if (!seen.has(a) && !EVERYWHERE.has(a.op)) { seen.add(a); crossed.push(a); } };
  for (const b of fn.blocks) for (const i of b.insts) {
    if (i.op === 'Phi') phis.push(i);
    else for (const a of i.args) if (a.block !== b) add(a);
  }
  for (const b of fn.blocks) for (const i of b.insts) if (i.op === 'Phi') {
    i.args.forEach((a, k) => { const p = b.preds[k]; if (p && a.block !== p) add(a); });
  }
  return { crossed, phis };
}

/** Whether `b` ends a wave's turn: a Branch right after a Barrier (its target is where the wave resumes). */
const yields = (b: Block): boolean => b.terminator?.op === 'Branch' && b.insts[b.insts.length - 2]?.op === 'Barrier';

/**
 * The values of `crossed` (those read outside their block) live where a wave resumes after a
 * barrier, and the phis whose incoming edge is such a resumption: what a wave's later turn reads
 * of its earlier ones. Every other value is, on every path within a turn, written before it is
 * read: a turn starts at the entry (SSA: nothing live there) or at a resumption block. Liveness
 * over bit sets, iterated backwards to a fixed point.
 */
export function liveAcrossTurns(fn: IrFunction, crossed: readonly Inst[]): { values: Set<Inst>; phis: Set<Inst> } {
  const values = new Set<Inst>(), phis = new Set<Inst>();
  const resumes = new Set<Block>();
  for (const b of fn.blocks) if (yields(b)) { const to = fn.blocks[Number(b.terminator?.imms[0])]; if (to) resumes.add(to); }
  if (resumes.size === 0 || crossed.length === 0) return { values, phis };
  const index = new Map<Inst, number>();
  crossed.forEach((x, k) => index.set(x, k));
  const words = (crossed.length + 31) >>> 5;
  const n = fn.blocks.length;
  const gen = new Uint32Array(n * words), kill = new Uint32Array(n * words), live = new Uint32Array(n * words);
  const set = (a: Uint32Array, b: number, k: number) => { a[b * words + (k >>> 5)]! |= 1 << (k & 31); };
  fn.blocks.forEach((b, bi) => {
    for (const i of b.insts) {
      const d = index.get(i);
      if (d !== undefined) set(kill, bi, d);
      if (i.op === 'Phi') continue;
      for (const a of i.args) { const k = index.get(a); if (k !== undefined && a.block !== b) set(gen, bi, k); }
    }
    // A phi's argument for this block is read at this block's end.
    for (const s of b.succs(fn)) {
      const e = s.preds.indexOf(b);
      for (const p of s.insts) {
        if (p.op !== 'Phi') break;
        const a = p.args[e], k = a ? index.get(a) : undefined;
        if (k !== undefined && a?.block !== b) set(gen, bi, k);
      }
    }
  });
  const bi = new Map<Block, number>();
  fn.blocks.forEach((b, k) => bi.set(b, k));
  // live-in(b) = gen(b) | (live-out(b) & ~kill(b)), live-out(b) = the successors' live-in.
  for (let changed = true; changed;) {
    changed = false;
    for (let k = n - 1; k >= 0; k--) {
      const succs = (fn.blocks[k] as Block).succs(fn);
      for (let w = 0; w < words; w++) {
        let out = 0;
        for (const s of succs) out |= live[(bi.get(s) as number) * words + w] as number;
        const v = ((gen[k * words + w] as number) | (out & ~(kill[k * words + w] as number))) >>> 0;
        if (v !== live[k * words + w]) { live[k * words + w] = v; changed = true; }
      }
    }
  }
  for (const r of resumes) {
    const base = (bi.get(r) as number) * words;
    crossed.forEach((x, k) => { if (((live[base + (k >>> 5)] as number) >>> (k & 31)) & 1) values.add(x); });
    if (r.preds.some(yields)) for (const i of r.insts) { if (i.op !== 'Phi') break; phis.add(i); }
  }
  return { values, phis };
}

/** emitOp's argument reader in a block (Operands: a method, not a closure per block): the arguments of the instruction at hand (`at`) through the block's `val`. */
class BlockOperands implements Operands {
  at: Inst | undefined;
  constructor(private readonly val: (x: Inst) => Id) {}
  arg(j: number): Id {
    const i = this.at as Inst, a = i.args[j];
    if (!a) throw new CompileError(`${i.op}: missing argument`, i.pc);
    return this.val(a);
  }
}
