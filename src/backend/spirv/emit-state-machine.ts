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
import { emitOp, EVERYWHERE, type KernelState, type Scalars } from './emit-ops.js';

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
  const { m, tBool, tU32, typeOf, c32 } = sc;
  const fnPtr = (t: Id) => m.OpTypePointer('Function', t);
  const state = m.OpVariable(fnPtr(tU32), 'Function');
  // A value's variable: one per invocation, or (waves of a workgroup) an array with one per wave.
  const wave = turn?.wave;
  const arrays = new Map<Id, Id>();
  const variable = (t: IrType): Id => {
    const ty = typeOf(t);
    if (!wave) return m.OpVariable(fnPtr(ty), 'Function');
    let at = arrays.get(ty);
    if (at === undefined) { at = m.OpTypeArray(ty, c32(wave.count)); arrays.set(ty, at); }
    return m.OpVariable(fnPtr(at), 'Function');
  };
  const slot = (v: Id, t: IrType): Id => (wave ? m.OpAccessChain(fnPtr(typeOf(t)), v, wave.index) : v);
  const crossVar = new Map<Inst, Id>();
  const phiVar = new Map<Inst, Id>();
  for (const b of fn.blocks) for (const i of b.insts) {
    if (i.op === 'Phi') phiVar.set(i, variable(i.type));
    for (const a of i.args) if (a.block !== b && !crossVar.has(a) && i.op !== 'Phi' && !EVERYWHERE.has(a.op)) crossVar.set(a, variable(a.type));
  }
  // Phi arguments are read at the end of their predecessor: cross-block too when defined elsewhere.
  for (const b of fn.blocks) for (const i of b.insts) if (i.op === 'Phi') {
    i.args.forEach((a, k) => { const p = b.preds[k]; if (p && a.block !== p && !crossVar.has(a) && !EVERYWHERE.has(a.op)) crossVar.set(a, variable(a.type)); });
  }
  const load = (v: Id, x: Inst): Id => m.OpLoad(typeOf(x.type), slot(v, x.type));
  const store = (v: Id, x: Inst, val: Id): void => { m.OpStore(slot(v, x.type), val); };
  m.OpStore(state, turn ? turn.start : c32(0));

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
    const chunk = m.OpUDiv(tU32, s, c32(SWITCH_CHUNK));
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
      if (EVERYWHERE.has(x.op)) { const e = emitOp(sc, kernel, x, () => { throw new CompileError(`${x.op} has no arguments`, x.pc); }); if (e) { vals.set(x, e); return e; } }
      const cv = crossVar.get(x);
      const v = cv ? load(cv, x) : undefined;
      if (!v) throw new CompileError(`internal: %${x.id} (${x.op}) has no value in b${b.id}`, x.pc);
      vals.set(x, v);
      return v;
    };
    for (const i of b.insts) {
      if (i.op === 'Phi') continue;
      const A = (j: number): Id => { const a = i.args[j]; if (!a) throw new CompileError(`${i.op}: missing argument`, i.pc); return val(a); };
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
      m.OpStore(state, c32(barrier ? (YIELD | to.id) >>> 0 : to.id));
    } else if (term.op === 'BranchCond') {
      const tt = fn.block(Number(term.imms[0])), ff = fn.block(Number(term.imms[1]));
      const cond = val(term.args[0] as Inst);
      // Both successors' phi variables are written (no branch): a phi variable is read only at the
      // start of its own block, and every entry into that block is preceded by its predecessor's
      // writes, so the copies for the successor not taken are never read.
      const pt = phiCopies(tt), pf = phiCopies(ff);
      pt();
      if (ff !== tt) pf();
      m.OpStore(state, m.OpSelect(tU32, cond, c32(tt.id), c32(ff.id)));
    } else if (term.op === 'EndProgram') {
      m.OpStore(state, c32(DONE));
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
    ? m.OpIEqual(tBool, m.OpBitwiseAnd(tU32, m.OpLoad(tU32, state), c32(YIELD)), c32(0))
    : m.OpINotEqual(tBool, m.OpLoad(tU32, state), c32(DONE));
  m.OpBranchConditional(running, header, exit);
  m.label(exit);
  if (!turn) m.OpReturn();
  return state;
}
