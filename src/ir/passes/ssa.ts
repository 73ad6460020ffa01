// SSA construction (Braun, Buchwald, Hack, Leißa, Mallon, Zwinkau: "Simple and Efficient
// Construction of Static Single Assignment Form", CC 2013): register reads and writes
// (GetSgpr/SetSgpr, GetVgpr/SetVgpr, GetScc/SetScc, GetMode/SetMode) become values and phis,
// and trivial phis are removed. All predecessors are known before the pass runs (every block is
// "sealed"): first each block's own writes are collected (its value of each register at its end),
// then each read that no earlier write in its block answers is looked up at the block's entry,
// creating phis at merges on demand.
import type { Block, Inst, IrFunction } from '../ir.js';
import { IrError, Replacements } from '../ir.js';
import type { IrType } from '../ops.js';

/** A register as a number: SGPR codes 0..255, VGPRs 256 + n, then SCC and MODE. */
type Reg = number;
const VGPR0 = 256, SCC = 1024, MODE = 1025, REGS = 1026;
/** A block's register as one number (a small integer for any function's block count). */
const at = (b: Block, reg: Reg): number => b.id * REGS + reg;

/** The register an access names, or -1: a read or write of SGPR/VGPR/SCC/MODE (no allocation per access). */
function regOf(i: Inst): Reg {
  switch (i.op) {
    case 'GetSgpr': case 'SetSgpr': return Number(i.imms[0]);
    case 'GetVgpr': case 'SetVgpr': return VGPR0 + Number(i.imms[0]);
    case 'GetScc': case 'SetScc': return SCC;
    case 'GetMode': case 'SetMode': return MODE;
    default: return -1;
  }
}
const isWrite = (i: Inst): boolean => i.op === 'SetSgpr' || i.op === 'SetVgpr' || i.op === 'SetScc' || i.op === 'SetMode';
const typeOfReg = (reg: Reg): IrType => (reg === SCC ? 'u1' : 'u32');
const isRegOp = (i: Inst): boolean => regOf(i) >= 0;

/**
 * The pending reads' table (below), the process's: reused by every run (constructSsa starts no
 * other run inside it), grown when a function needs more; a fresh typed array per run was an
 * allocation outside the heap.
 */
let PENDING_AT = new Int32Array(1024);

export function constructSsa(fn: IrFunction): void {
  fn.computePreds();
  const entry = fn.blocks[0];
  if (!entry) return;
  // Each block's value of each register at its end and at its entry, by `at(block, reg)`: one
  // table each for the whole function, not one per block (a kernel of thousands of blocks made
  // thousands of small maps).
  const endDefs = new Map<number, Inst>();
  const entryDefs = new Map<number, Inst>();
  /** Reads answered by an earlier value (a write's argument, a phi, an undef). */
  const replaced = new Replacements();
  /**
   * Reads to look up at their block's entry, in program order, with their blocks; by the read's
   * id, 1 + its index there (0: none; a typed array, no record per read). Only the instructions
   * made before the pass can be such reads: ids below `reads`.
   */
  const pendingReads: Inst[] = [];
  const pendingBlocks: Block[] = [];
  const reads = fn.idCount;
  if (PENDING_AT.length < reads) PENDING_AT = new Int32Array(Math.max(reads, 2 * PENDING_AT.length));
  const pendingAt = PENDING_AT.fill(0, 0, reads);
  const newPhis: Inst[] = [];
  const undefs = new Map<string, Inst>();

  // Phase 1: each block's own writes and reads.
  for (const b of fn.blocks) {
    for (const i of b.insts) {
      const reg = regOf(i);
      if (reg < 0) continue;
      if (isWrite(i)) {
        const v = i.args[0];
        if (!v) throw new IrError(`${i.op} without a value`);
        endDefs.set(at(b, reg), v);
      } else {
        const cur = endDefs.get(at(b, reg));
        if (cur) replaced.set(i, cur);
        else { pendingReads.push(i); pendingBlocks.push(b); pendingAt[i.id] = pendingReads.length; }
      }
    }
  }

  /** The value an instruction stands for (a read becomes what it reads). */
  function valueOf(v0: Inst): Inst {
    let v = v0;
    for (;;) {
      const r = replaced.get(v);
      if (r) { v = r; continue; }
      const p = v.id < reads ? (pendingAt[v.id] as number) : 0;
      if (p !== 0) {
        pendingAt[v.id] = 0;
        const reg = regOf(v);
        replaced.set(v, readAtEntry(reg, typeOfReg(reg), pendingBlocks[p - 1] as Block));
        continue;
      }
      return v;
    }
  }

  function undef(type: IrType): Inst {
    let u = undefs.get(type);
    if (!u) { u = fn.make('Undef', [], [], { type }); u.block = entry; undefs.set(type, u); }
    return u;
  }

  function setEntry(b: Block, reg: Reg, v: Inst): void {
    entryDefs.set(at(b, reg), v);
  }

  /**
   * The explicit stack of readAtEntry, as parallel arrays reused by every lookup (no frame object
   * per block walked): each frame's block, its phi (undefined where the block has one predecessor)
   * and the phi's arguments so far; `depth` frames are live. A lookup can start another (valueOf of
   * a value that is itself a read): that one works above the frames of the first and leaves
   * `depth` as it found it.
   */
  const stackBlock: Block[] = [], stackPhi: (Inst | undefined)[] = [], stackArgs: Inst[][] = [];
  let depth = 0;
  /** A frame without a phi collects no arguments: one shared empty list (no array per block walked). */
  const NO_ARGS: Inst[] = [];
  /**
   * The value of `reg` at the entry of `b0`: Braun et al.'s readVariableRecursive, with an explicit
   * stack of the blocks still waiting for a predecessor's value (a chain of thousands of blocks
   * must not exhaust the call stack). A merge gets its phi before its arguments are looked up, so
   * a loop reaching back finds it.
   */
  function readAtEntry(reg: Reg, type: IrType, b0: Block): Inst {
    const base = depth;
    let b: Block | undefined = b0;
    let result: Inst | undefined;
    for (;;) {
      // Descend: find the entry value of `b`, or wait for a predecessor's end value.
      while (b) {
        const known = entryDefs.get(at(b, reg));
        if (known) { result = valueOf(known); break; }
        if (b.preds.length === 0) { result = undef(type); setEntry(b, reg, result); break; }
        let phi: Inst | undefined;
        if (b.preds.length > 1) {
          phi = fn.make('Phi', [], [], { type });
          phi.block = b;
          newPhis.push(phi);
          setEntry(b, reg, phi);
        }
        stackBlock[depth] = b; stackPhi[depth] = phi; stackArgs[depth] = phi ? [] : NO_ARGS;
        depth++;
        const p = b.preds[0] as Block;
        const d = endDefs.get(at(p, reg));
        if (d) { result = valueOf(d); break; }
        b = p;
      }
      b = undefined;
      // Ascend: hand the value to the waiting blocks until one needs another predecessor.
      while (depth > base && !b) {
        const fb = stackBlock[depth - 1] as Block, phi = stackPhi[depth - 1];
        const v = result as Inst;
        if (!phi) { setEntry(fb, reg, v); depth--; continue; }
        const args = stackArgs[depth - 1] as Inst[];
        args.push(v);
        const next = fb.preds[args.length];
        if (next) {
          const d = endDefs.get(at(next, reg));
          if (d) result = valueOf(d); else b = next;
          continue;
        }
        phi.args = args;
        for (const a of args) if (a.op === 'Phi') { const u = phiUsers.get(a); if (u) u.add(phi); else phiUsers.set(a, new Set([phi])); }
        result = tryRemoveTrivialPhi(phi);
        setEntry(fb, reg, result);
        depth--;
      }
      if (!b) return result as Inst;
    }
  }

  const removedPhis = new Set<Inst>();
  /** The phis whose arguments name a phi (to revisit when it turns out trivial). */
  const phiUsers = new Map<Inst, Set<Inst>>();
  /** The one value other than itself a phi merges (undef for none), or the phi itself when it merges two. */
  function trivialValue(phi: Inst): Inst {
    let same: Inst | undefined;
    for (const a0 of phi.args) {
      const a = valueOf(a0);
      if (a === same || a === phi) continue;
      if (same !== undefined) return phi;
      same = a;
    }
    return same ?? undef(phi.type);
  }
  /** Replaces a trivial phi, then revisits the phis that used it (a worklist, not recursion). */
  function tryRemoveTrivialPhi(phi: Inst): Inst {
    const to = trivialValue(phi);
    if (to === phi) return phi;
    replaced.set(phi, to);
    removedPhis.add(phi);
    const work = [...(phiUsers.get(phi) ?? [])];
    while (work.length) {
      const p = work.pop() as Inst;
      if (removedPhis.has(p) || p.args.length === 0) continue;
      const t = trivialValue(p);
      if (t === p) continue;
      replaced.set(p, t);
      removedPhis.add(p);
      for (const u of phiUsers.get(p) ?? []) work.push(u);
    }
    return to;
  }

  // Phase 2: answer every read, then rebuild the blocks without register reads and writes.
  for (const r of pendingReads) valueOf(r);
  const phisOf = new Map<Block, Inst[]>();
  for (const p of newPhis) {
    if (removedPhis.has(p) || !p.block) continue;
    const l = phisOf.get(p.block);
    if (l) l.push(p); else phisOf.set(p.block, [p]);
  }
  for (const b of fn.blocks) {
    const phis = phisOf.get(b);
    if (b !== entry && !phis) {
      // The common case, compacted in place: no register access, no phi.
      const insts = b.insts;
      let w = 0;
      for (let r = 0; r < insts.length; r++) { const i = insts[r] as Inst; if (!isRegOp(i)) insts[w++] = i; }
      insts.length = w;
    } else {
      const rest = b.insts.filter((i) => !isRegOp(i));
      b.setInsts(b === entry ? [...undefs.values(), ...(phis ?? []), ...rest] : [...(phis ?? []), ...rest]);
    }
    // Arguments rewritten in place: most instructions name no read, so no new array for them.
    for (const i of b.insts) {
      const args = i.args;
      for (let k = 0; k < args.length; k++) { const a = args[k] as Inst; const v = valueOf(a); if (v !== a) (args as Inst[])[k] = v; }
    }
  }
}
