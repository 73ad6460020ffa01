// SSA construction (Braun, Buchwald, Hack, Leißa, Mallon, Zwinkau: "Simple and Efficient
// Construction of Static Single Assignment Form", CC 2013): register reads and writes
// (GetSgpr/SetSgpr, GetVgpr/SetVgpr, GetScc/SetScc, GetMode/SetMode) become values and phis,
// and trivial phis are removed. All predecessors are known before the pass runs (every block is
// "sealed"): first each block's own writes are collected (its value of each register at its end),
// then each read that no earlier write in its block answers is looked up at the block's entry,
// creating phis at merges on demand.
import type { Block, Inst, IrFunction } from '../ir.js';
import { IrError, NO_ARGS, NO_IMMS, Replacements } from '../ir.js';
import { type IrType, OPS } from '../ops.js';

/** A register as a number: SGPR codes 0..255, VGPRs 256 + n, then SCC and MODE. */
type Reg = number;
const VGPR0 = 256, SCC = 1024, MODE = 1025, REGS = 1026;
/** A block's register as one number (a small integer for any function's block count). */
const at = (b: Block, reg: Reg): number => b.id * REGS + reg;

/**
 * By op (its table index): the register number of an access's first register (SGPRs and VGPRs add
 * their immediate; -1 for an op that is no register access), and whether it is a write. Asked at
 * every instruction, twice: one load each, not a switch over op names.
 */
const REG_BASE: readonly number[] = Object.keys(OPS).map((op) => {
  switch (op) {
    case 'GetSgpr': case 'SetSgpr': return 0;
    case 'GetVgpr': case 'SetVgpr': return VGPR0;
    case 'GetScc': case 'SetScc': return SCC;
    case 'GetMode': case 'SetMode': return MODE;
    default: return -1;
  }
});
const IS_WRITE: readonly boolean[] = Object.keys(OPS).map((op) => op === 'SetSgpr' || op === 'SetVgpr' || op === 'SetScc' || op === 'SetMode');
/** The register an access names, or -1: a read or write of SGPR/VGPR/SCC/MODE (no allocation per access). */
function regOf(i: Inst): Reg {
  const base = REG_BASE[i.info.index] as number;
  if (base !== 0 && base !== VGPR0) return base;
  // The frontend's register codes are numbers: Number() only for another immediate (a call of
  // the Number builtin at every access costs, before V8 optimises this code).
  const n = i.imms[0];
  return base + (typeof n === 'number' ? n : Number(n));
}
const isWrite = (i: Inst): boolean => IS_WRITE[i.info.index] === true;
const typeOfReg = (reg: Reg): IrType => (reg === SCC ? 'u1' : 'u32');
/** Whether the op is a register access (its base alone: no register number needed). */
const isRegOp = (i: Inst): boolean => (REG_BASE[i.info.index] as number) >= 0;


/**
 * Values by `at(block, register)`: an open-addressing hash table (linear probing) over a typed
 * array of keys. Not a Map: a branchy kernel's tables hold tens of thousands of entries, where a
 * Map's get or set cost over 100 ns and its growth most of the pass's garbage. The key and value
 * arrays are the process's (constructSsa starts no other run inside it), kept for the next run.
 */
/** Blocks per group of consecutive slots in a RegTable (see slotOf): 8 measured best of 1, 8 and 16. */
const GROUP_BITS = 3, GROUP = 1 << GROUP_BITS;
class RegTable {
  /** 1 + the key of each slot; 0: empty. Slots [0, cap) are this run's (a small kernel clears only those). */
  private keys = new Int32Array(64);
  private vals: (Inst | undefined)[] = new Array<Inst | undefined>(64).fill(undefined);
  private cap = 64;
  /** 32 - log2(cap): a slot is the top bits of the key's Fibonacci hash (the low bits of a product follow the key's low bits only). */
  private shift = 26;
  private count = 0;
  /** Empties the table for a run expected to hold about `n` entries. */
  reset(n: number): void {
    let cap = 64;
    while (cap < 2 * n) cap *= 2;
    if (this.keys.length < cap) { this.keys = new Int32Array(cap); this.vals = new Array<Inst | undefined>(cap).fill(undefined); } else this.keys.fill(0, 0, cap);
    this.cap = cap;
    this.shift = 32 - Math.log2(cap);
    this.count = 0;
  }
  /** Drops the run's values (the process's table keeps no run's instructions alive). */
  release(): void {
    this.vals.fill(undefined, 0, this.cap);
  }
  /**
   * The slot of `key` (`at(block, reg)`), or the empty slot where it goes: linear probing from a
   * start that keeps a register's values at GROUP consecutive blocks in consecutive slots (the top
   * bits of the Fibonacci hash of the register and the block's group, then the block's low bits):
   * a lookup walks to a block's predecessors, most often the blocks just before it, and finds
   * their entries in the cache lines it has just read, where a hash of the whole key scattered
   * them over a table larger than the cache.
   */
  private slotOf(key: number): number {
    const keys = this.keys, mask = this.cap - 1, k1 = key + 1;
    const bid = (key / REGS) | 0, reg = key - bid * REGS;
    let s = ((Math.imul(((bid >>> GROUP_BITS) * REGS + reg + 1) | 0, 0x9e3779b1) >>> (this.shift + GROUP_BITS)) << GROUP_BITS) | (bid & (GROUP - 1));
    for (;;) {
      const x = keys[s] as number;
      if (x === k1 || x === 0) return s;
      s = (s + 1) & mask;
    }
  }
  get(key: number): Inst | undefined {
    const s = this.slotOf(key);
    return this.keys[s] === 0 ? undefined : this.vals[s];
  }
  set(key: number, v: Inst): void {
    let s = this.slotOf(key);
    if (this.keys[s] === 0) {
      if (2 * (this.count + 1) > this.cap) { this.grow(); s = this.slotOf(key); }
      this.keys[s] = key + 1;
      this.count++;
    }
    this.vals[s] = v;
  }
  /** Doubles the slots in use, placing each entry again. */
  private grow(): void {
    const n = this.cap;
    const oldKeys = this.keys.slice(0, n), oldVals = this.vals.slice(0, n);
    this.cap = 2 * n;
    this.shift--;
    if (this.keys.length < this.cap) { this.keys = new Int32Array(this.cap); this.vals = new Array<Inst | undefined>(this.cap).fill(undefined); } else { this.keys.fill(0, 0, this.cap); this.vals.fill(undefined, 0, this.cap); }
    for (let s = 0; s < n; s++) {
      const k1 = oldKeys[s] as number;
      if (k1 !== 0) { const t = this.slotOf(k1 - 1); this.keys[t] = k1; this.vals[t] = oldVals[s]; }
    }
  }
}
const END_DEFS = new RegTable(), ENTRY_DEFS = new RegTable();

/**
 * The pending reads' table (below), the process's: reused by every run (constructSsa starts no
 * other run inside it), grown when a function needs more; a fresh typed array per run was an
 * allocation outside the heap.
 */
let PENDING_AT = new Int32Array(1024);
/**
 * The run's lists, the process's too (a run's lists grew from empty, most of the pass's garbage
 * after the blocks' predecessor lists): written by index under the run's own counts, their
 * entries dropped at its end (no run's instructions kept alive). The reads to look up in program
 * order; the phis made (below); the frames of readAtEntry and their phi arguments.
 */
const PENDING_READS: (Inst | undefined)[] = [];
const NEW_PHIS: (Inst | undefined)[] = [];
const STACK_BLOCK: (Block | undefined)[] = [], STACK_PHI: (Inst | undefined)[] = [], STACK_ARG_AT: number[] = [], STACK_ARG_COUNT: number[] = [];
const STACK_SLOT: number[] = [];
const ARG_STACK: (Inst | undefined)[] = [];
/**
 * The users of each phi by its id (constructSsa's phiUsers), the process's too: entries below
 * `phiUsersEnd` may be set, and are dropped at the start and the end of every run (a run that
 * threw leaves none to the next).
 */
const PHI_USERS: (Inst[] | undefined)[] = [];
let phiUsersEnd = 0;
function clearPhiUsers(): void {
  if (phiUsersEnd !== 0) { PHI_USERS.fill(undefined, 0, phiUsersEnd); phiUsersEnd = 0; }
}
/** The phis kept, by block (a stable counting sort of the phis made), and where each block's end: the process's too. */
const PHIS_BY_BLOCK: (Inst | undefined)[] = [];
let PHI_END = new Int32Array(256);

/**
 * By block id: 1 where the block lies on a cycle of the CFG (a strongly connected component of
 * more than one block, or a block that is its own predecessor); undefined when no block does.
 * Only there can a register's lookup come back to the block it started from (a lookup, with the
 * lookups it starts through valueOf, walks predecessors backwards), so only there must a merge
 * have its phi before its arguments are looked up. No cycle without an edge p -> b with
 * p.id >= b.id (ids cannot rise all the way round), so a function without one has none.
 */
function blocksOnCycles(blocks: readonly Block[]): Uint8Array | undefined {
  const n = blocks.length;
  let back = false;
  for (let bk = 0; bk < n && !back; bk++) {
    const preds = (blocks[bk] as Block).preds;
    for (let k = 0; k < preds.length; k++) if ((preds[k] as Block).id >= bk) { back = true; break; }
  }
  if (!back) return undefined;
  // Tarjan's strongly connected components over the predecessor edges (the same components as
  // over the successors), with an explicit stack.
  const out = new Uint8Array(n);
  const index = new Int32Array(n).fill(-1), low = new Int32Array(n), onStack = new Uint8Array(n);
  const stack = new Int32Array(n), callB = new Int32Array(n), callK = new Int32Array(n);
  let sp = 0, next = 0;
  for (let r = 0; r < n; r++) {
    if ((index[r] as number) >= 0) continue;
    let top = 0;
    callB[0] = r; callK[0] = 0; index[r] = low[r] = next++; stack[sp++] = r; onStack[r] = 1;
    while (top >= 0) {
      const v = callB[top] as number, k = callK[top] as number, preds = (blocks[v] as Block).preds;
      if (k < preds.length) {
        callK[top] = k + 1;
        const w = (preds[k] as Block).id;
        if (w === v) out[v] = 1;
        else if ((index[w] as number) < 0) { index[w] = low[w] = next++; stack[sp++] = w; onStack[w] = 1; top++; callB[top] = w; callK[top] = 0; }
        else if (onStack[w] === 1 && (index[w] as number) < (low[v] as number)) low[v] = index[w] as number;
        continue;
      }
      if (low[v] === index[v]) {
        let start = sp - 1;
        while (stack[start] !== v) start--;
        const many = sp - start > 1;
        for (let j = start; j < sp; j++) { const w = stack[j] as number; onStack[w] = 0; if (many) out[w] = 1; }
        sp = start;
      }
      top--;
      if (top >= 0) { const u = callB[top] as number; if ((low[v] as number) < (low[u] as number)) low[u] = low[v] as number; }
    }
  }
  return out;
}

export function constructSsa(fn: IrFunction): void {
  fn.computePreds();
  const entry = fn.blocks[0];
  if (!entry) return;
  clearPhiUsers();
  // Each block's value of each register at its end and at its entry, by `at(block, reg)`: one
  // table each for the whole function, not one per block (a kernel of thousands of blocks made
  // thousands of small maps).
  const endDefs = END_DEFS, entryDefs = ENTRY_DEFS;
  // Sized by the blocks, a few registers each, or by the instructions, a quarter of them register
  // accesses (a start: a table grows as it fills, which costs more than a larger start).
  const expected = Math.max(8 * fn.blocks.length, fn.idCount >> 2);
  endDefs.reset(expected); entryDefs.reset(expected);
  /** Reads answered by an earlier value (a write's argument, a phi, an undef). */
  const replaced = new Replacements();
  /**
   * Reads to look up at their block's entry, in program order (`pendingCount` of them); by the
   * read's id, 1 + its block's index (0: none; a typed array, no record per read). Only the instructions
   * made before the pass can be such reads: ids below `reads`.
   */
  const pendingReads = PENDING_READS;
  let pendingCount = 0;
  const reads = fn.idCount;
  if (PENDING_AT.length < reads) PENDING_AT = new Int32Array(Math.max(reads, 2 * PENDING_AT.length));
  const pendingAt = PENDING_AT.fill(0, 0, reads);
  /**
   * The phis made, in the order their making began (which sets their order in their blocks); a slot is
   * kept empty for a merge's phi whose making waits for its arguments (below), and stays empty
   * when they turn out the same value.
   */
  const newPhis = NEW_PHIS;
  let phiCount = 0;
  const onCycle = blocksOnCycles(fn.blocks);
  const undefs = new Map<string, Inst>();

  // Phase 1: each block's own writes and reads.
  // Indexed loops throughout: an array iterator allocates where the optimizer does not remove it.
  const blocks = fn.blocks;
  for (let bk = 0; bk < blocks.length; bk++) {
    const b = blocks[bk] as Block, insts = b.insts;
    for (let k = 0; k < insts.length; k++) {
      const i = insts[k] as Inst;
      const reg = regOf(i);
      if (reg < 0) continue;
      if (isWrite(i)) {
        const v = i.args[0];
        if (!v) throw new IrError(`${i.op} without a value`);
        endDefs.set(at(b, reg), v);
      } else {
        const cur = endDefs.get(at(b, reg));
        if (cur) replaced.set(i, cur);
        else { pendingReads[pendingCount++] = i; pendingAt[i.id] = bk + 1; }
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
        replaced.set(v, readAtEntry(reg, typeOfReg(reg), blocks[p - 1] as Block));
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
   * and where the phi's arguments so far are in `argStack` (from `stackArgAt`, `stackArgCount` of
   * them); `depth` frames are live. A lookup can start another (valueOf of a value that is itself a
   * read): that one works above the frames of the first and leaves `depth` as it found it.
   */
  const stackBlock = STACK_BLOCK, stackPhi = STACK_PHI, stackArgAt = STACK_ARG_AT, stackArgCount = STACK_ARG_COUNT;
  /**
   * A merge off every cycle waits for its arguments before it has a phi: its frame keeps the slot
   * in `newPhis` that its phi takes (-1 for any other frame), and a phi is made there only when
   * the arguments differ. A lookup cannot come back to such a block, so nothing sees the
   * difference: the phi made up front would have had that place, and where its arguments are one
   * value it would have been removed at once, with no phi naming it. Its id is taken when it is
   * made, not reserved up front: a branchy kernel walks many more such merges than it keeps phis
   * at (diamonds2000: about 14,000 for 2,000), and every id taken sizes the tables of the later
   * passes and the emitter by id.
   */
  const stackSlot = STACK_SLOT;
  /** The most frames live at once (the frames' entries to drop at the end). */
  let maxDepth = 0;
  let depth = 0;
  /**
   * The frames' phi arguments: a frame with a phi reserves one slot per predecessor above the
   * frames below it (`argTop`), and its phi gets an array of exactly its arguments when complete
   * (an array pushed to from empty had room for 17).
   */
  const argStack = ARG_STACK;
  let argTop = 0;
  /** The most slots of `argStack` in use at once (the entries to drop at the end: the list keeps the length a large function gave it). */
  let maxArgTop = 0;
  // A phi's arguments until it is complete: ir.ts's shared empty list (an incomplete phi has none).
  /**
   * The value of `reg` at the entry of `b0`: Braun et al.'s readVariableRecursive, with an explicit
   * stack of the blocks still waiting for a predecessor's value (a chain of thousands of blocks
   * must not exhaust the call stack). A merge on a cycle gets its phi before its arguments are
   * looked up, so a loop reaching back finds it; any other merge gets one after, only where its
   * arguments differ, in the place it would have had (under the next id then).
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
        let slot = -1;
        if (b.preds.length > 1) {
          if (onCycle !== undefined && onCycle[b.id] === 1) {
            phi = fn.makeAt('Phi', NO_ARGS, NO_IMMS, type, undefined, undefined);
            phi.block = b;
            newPhis[phiCount++] = phi;
            setEntry(b, reg, phi);
          } else {
            slot = phiCount++;
            newPhis[slot] = undefined;
          }
        }
        stackBlock[depth] = b; stackPhi[depth] = phi; stackArgAt[depth] = argTop; stackArgCount[depth] = 0; stackSlot[depth] = slot;
        if (b.preds.length > 1) { argTop += b.preds.length; if (argTop > maxArgTop) { maxArgTop = argTop; while (argStack.length < argTop) argStack.push(undefined); } }
        depth++;
        if (depth > maxDepth) maxDepth = depth;
        const p = b.preds[0] as Block;
        const d = endDefs.get(at(p, reg));
        if (d) { result = valueOf(d); break; }
        b = p;
      }
      b = undefined;
      // Ascend: hand the value to the waiting blocks until one needs another predecessor.
      while (depth > base && !b) {
        const fb = stackBlock[depth - 1] as Block, phi = stackPhi[depth - 1], slot = stackSlot[depth - 1] as number;
        const v = result as Inst;
        if (!phi && slot < 0) { setEntry(fb, reg, v); depth--; continue; }
        const at0 = stackArgAt[depth - 1] as number, count = (stackArgCount[depth - 1] as number) + 1;
        argStack[at0 + count - 1] = v;
        stackArgCount[depth - 1] = count;
        const next = fb.preds[count];
        if (next) {
          const d = endDefs.get(at(next, reg));
          if (d) result = valueOf(d); else b = next;
          continue;
        }
        if (!phi) {
          // A waiting merge: its arguments' one value (as trivialValue would find it), or a phi.
          let same: Inst | undefined = valueOf(argStack[at0] as Inst);
          for (let k = 1; k < count; k++) if (valueOf(argStack[at0 + k] as Inst) !== same) { same = undefined; break; }
          if (same) { argTop = at0; result = same; setEntry(fb, reg, same); depth--; continue; }
        }
        const args = argStack.slice(at0, at0 + count) as Inst[];
        argTop = at0;
        let p: Inst;
        if (phi) { p = phi; p.args = args; }
        else { p = fn.makeAt('Phi', args, NO_IMMS, type, undefined, undefined); p.block = fb; newPhis[slot] = p; }
        // A phi named twice by this one is listed once (as a set would: its entries are this loop's, consecutive).
        for (let k = 0; k < count; k++) { const a = args[k] as Inst; if (a.op === 'Phi') { const u = usersOf(a); if (!u) setUsers(a, [p]); else if (u[u.length - 1] !== p) u.push(p); } }
        result = phi ? tryRemoveTrivialPhi(phi) : p;
        setEntry(fb, reg, result);
        depth--;
      }
      if (!b) return result as Inst;
    }
  }

  /**
   * The phis whose arguments name a phi (to revisit when it turns out trivial), by the phi's id in
   * PHI_USERS (a list by id, not a Map keyed by the instruction: hashing every phi that a phi
   * names was a tenth of the pass on a branchy kernel).
   */
  const phiUsers = PHI_USERS;
  const usersOf = (phi: Inst): Inst[] | undefined => (phi.id < phiUsers.length ? phiUsers[phi.id] : undefined);
  const setUsers = (phi: Inst, users: Inst[]): void => {
    while (phiUsers.length <= phi.id) phiUsers.push(undefined);
    phiUsers[phi.id] = users;
    if (phi.id >= phiUsersEnd) phiUsersEnd = phi.id + 1;
  };
  /** Whether a phi was removed as trivial: exactly the phis `replaced` maps (the reads it maps are no phis). */
  const removed = (p: Inst): boolean => replaced.get(p) !== undefined;
  /** The one value other than itself a phi merges (undef for none), or the phi itself when it merges two. */
  function trivialValue(phi: Inst): Inst {
    let same: Inst | undefined;
    const args = phi.args;
    for (let k = 0; k < args.length; k++) {
      const a = valueOf(args[k] as Inst);
      if (a === same || a === phi) continue;
      if (same !== undefined) return phi;
      same = a;
    }
    return same ?? undef(phi.type);
  }
  /**
   * The worklist of tryRemoveTrivialPhi, shared by every call: a call works above `base`, the
   * length it found (a lookup inside one can start another, which leaves the list as it found it).
   */
  const work: Inst[] = [];
  /** Replaces a trivial phi, then revisits the phis that used it (a worklist, not recursion). */
  function tryRemoveTrivialPhi(phi: Inst): Inst {
    const to = trivialValue(phi);
    if (to === phi) return phi;
    replaced.set(phi, to);
    const base = work.length;
    const users = usersOf(phi);
    if (users) for (let k = 0; k < users.length; k++) work.push(users[k] as Inst);
    while (work.length > base) {
      const p = work.pop() as Inst;
      if (removed(p) || p.args.length === 0) continue;
      const t = trivialValue(p);
      if (t === p) continue;
      replaced.set(p, t);
      const more = usersOf(p);
      if (more) for (let k = 0; k < more.length; k++) work.push(more[k] as Inst);
    }
    return to;
  }

  /** Replaces each argument of `i` that stands for another value by that value (after phase 2). */
  function rewriteArgs(i: Inst): void {
    const args = i.args;
    for (let k = 0; k < args.length; k++) { const r = replaced.get(args[k] as Inst); if (r) args[k] = valueOf(r); }
  }

  // Phase 2: answer every read, then rebuild the blocks without register reads and writes.
  for (let k = 0; k < pendingCount; k++) valueOf(pendingReads[k] as Inst);
  // The phis kept, grouped by block in the order made (a counting sort by block id, which is the
  // block's index): no map of lists.
  const nb = blocks.length;
  if (PHI_END.length < nb + 1) PHI_END = new Int32Array(Math.max(nb + 1, 2 * PHI_END.length));
  const end = PHI_END.fill(0, 0, nb + 1);
  let kept = 0;
  for (let k = 0; k < phiCount; k++) {
    const p = newPhis[k];
    if (!p || removed(p) || !p.block) { newPhis[k] = undefined; continue; }
    end[p.block.id + 1] = (end[p.block.id + 1] as number) + 1;
    kept++;
  }
  for (let bk = 0; bk < nb; bk++) end[bk + 1] = (end[bk + 1] as number) + (end[bk] as number);
  const byBlock = PHIS_BY_BLOCK;
  while (byBlock.length < kept) byBlock.push(undefined);
  // Each block's slots from its start; after this, end[id] is where its phis end.
  for (let k = 0; k < phiCount; k++) { const p = newPhis[k]; if (p) { const id = (p.block as Block).id, at = end[id] as number; byBlock[at] = p; end[id] = at + 1; } }
  for (let bk = 0; bk < nb; bk++) {
    const b = blocks[bk] as Block;
    const from = bk === 0 ? 0 : (end[bk - 1] as number), to = end[bk] as number, c = to - from;
    // Compacted in place (no register access), then the block's phis in front (the entry's undefs
    // before them), the rest moved up in place.
    // Each kept instruction's arguments are rewritten as it is moved (one walk, not two), the
    // phis' before they are placed: in place, as most name no read (no new array for them). Every
    // read is answered by now (phase 2), so only an argument `replaced` maps changes.
    const insts = b.insts;
    let w = 0;
    for (let r = 0; r < insts.length; r++) {
      const i = insts[r] as Inst;
      if (isRegOp(i)) continue;
      rewriteArgs(i);
      insts[w++] = i;
    }
    for (let j = from; j < to; j++) rewriteArgs(byBlock[j] as Inst);
    insts.length = w;
    if (b === entry && undefs.size !== 0) insts.unshift(...undefs.values(), ...(byBlock.slice(from, to) as Inst[]));
    else if (c !== 0) {
      for (let j = 0; j < c; j++) insts.push(byBlock[from + j] as Inst);
      for (let j = w - 1; j >= 0; j--) insts[j + c] = insts[j] as Inst;
      for (let j = 0; j < c; j++) insts[j] = byBlock[from + j] as Inst;
    }
  }
  endDefs.release(); entryDefs.release(); clearPhiUsers();
  pendingReads.fill(undefined, 0, pendingCount); newPhis.fill(undefined, 0, phiCount); byBlock.fill(undefined, 0, kept);
  stackBlock.fill(undefined, 0, maxDepth); stackPhi.fill(undefined, 0, maxDepth); argStack.fill(undefined, 0, maxArgTop);
}
