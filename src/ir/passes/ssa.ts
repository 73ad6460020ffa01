// SSA construction (Braun, Buchwald, Hack, Leißa, Mallon, Zwinkau: "Simple and Efficient
// Construction of Static Single Assignment Form", CC 2013): register reads and writes
// (GetSgpr/SetSgpr, GetVgpr/SetVgpr, GetScc/SetScc, GetMode/SetMode) become values and phis,
// and trivial phis are removed. All predecessors are known before the first lookup (every block
// is "sealed"): first each block's own writes are collected (its value of each register at its
// end) while the blocks' predecessor lists are computed, then each read that no earlier write in
// its block answers is looked up at the block's entry, creating phis at merges on demand.
import type { Block, Inst } from '../ir.js';
import { IrError, IrFunction, listOf, newStamp, NO_ARGS, NO_IMMS, Replacements } from '../ir.js';
import { type IrType, OPS, opInfo } from '../ops.js';
import { DominatorTree } from '../../analysis/dominators.js';

/** A register as a number: SGPR codes 0..255, VGPRs 256 + n, then SCC and MODE. */
type Reg = number;
const VGPR0 = 256, SCC = 1024, MODE = 1025, REGS = 1026;

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
/** The phi's op entry, looked up once (the lookups make a phi at every merge on a cycle they pass). */
const PHI_INFO = opInfo('Phi');


/**
 * Each block's value of each register at its end and at its entry: dense tables by register row
 * and block. A run gives each register it meets a row of one slot per block (ROW_OF: the row's
 * first slot by register number, -1 for none yet), so a value's slot is the register's row plus
 * the block's id, one load. The slots hold 1 + the value's index in VALUES (0: none), typed
 * arrays, not lists of instructions: a new row is zeroed, and the run's end drops only the values
 * it set (VALUES), not every slot. A function uses a few dozen registers (the corpus: 16 to 47),
 * so the rows of a kernel of thousands of blocks are still small, where a hash table by
 * (block, register) was most of the pass for the small kernels (probing, growth).
 * The process's tables, reused by every run (constructSsa starts no other run inside it).
 */
const ROW_OF = new Int32Array(REGS).fill(-1);
/** The registers with a row in this run, in the order met (`rowCount` of them): the rows to drop at the next run's start. */
const ROW_REGS = new Int32Array(REGS);
let rowCount = 0;
/** The slots' size for the rows the run has made so far: the block count. */
let rowSize = 0;
let END_AT = new Int32Array(4096), ENTRY_AT = new Int32Array(4096);
/** Slots a run may leave in the tables for the next: a larger kernel's tables are dropped after its run. */
const KEPT_SLOTS = 1 << 18;
const VALUES: (Inst | undefined)[] = [];
let valueCount = 0;

/**
 * The most slots the dense rows may take: a run whose block count times REGS could pass it keeps
 * its values in a hash table by slot instead (`hashed`), so the pass's memory stays linear in the
 * function's size (rows of one slot per block for every register met would make a function of
 * many short blocks that touches many registers, a few megabytes of input, gigabytes of rows).
 * 2^23 slots: dense up to 8,176 blocks (diamonds2000 has 4,002), 64 MB at most for both tables.
 */
const DENSE_SLOTS = 1 << 23;
/** Whether this run keeps its values in SLOT_HASH (by slot and table) rather than END_AT/ENTRY_AT. */
let hashed = false;
/**
 * The hashed run's values: open addressing (linear probing) over 1 + the key, 2 * slot plus 1 for
 * ENTRY_AT (doubles: a slot may pass 2^31 for a function of millions of blocks), and the value's
 * 1 + index in VALUES. Made per hashed run (only functions of thousands of blocks).
 */
let hashKeys = new Float64Array(0), hashVals = new Int32Array(0), hashCount = 0;
function hashSlot(key: number): number {
  const keys = hashKeys, mask = keys.length - 1, k1 = key + 1;
  let s = Math.imul((key | 0) ^ ((key / 4294967296) | 0), 0x9e3779b1) >>> 0;
  s &= mask;
  for (;;) {
    const x = keys[s] as number;
    if (x === k1 || x === 0) return s;
    s = (s + 1) & mask;
  }
}
function hashSet(key: number, x: number): void {
  let s = hashSlot(key);
  if (hashKeys[s] === 0) {
    if (2 * (hashCount + 1) > hashKeys.length) {
      const keys = hashKeys, vals = hashVals;
      hashKeys = new Float64Array(2 * keys.length); hashVals = new Int32Array(2 * keys.length);
      for (let t = 0; t < keys.length; t++) if (keys[t] !== 0) { const u = hashSlot((keys[t] as number) - 1); hashKeys[u] = keys[t] as number; hashVals[u] = vals[t] as number; }
      s = hashSlot(key);
    }
    hashKeys[s] = key + 1;
    hashCount++;
  }
  hashVals[s] = x;
}

/** The row of `reg` (its first slot), made where the run has not met it yet. */
function rowOf(reg: Reg): number {
  const row = ROW_OF[reg] as number;
  return row >= 0 ? row : newRow(reg);
}
function newRow(reg: Reg): number {
  const row = rowCount * rowSize, end = row + rowSize;
  if (hashed) {
    // No slots to make: the hash table holds only those set.
  } else if (end > END_AT.length) {
    const cap = Math.max(end, 2 * END_AT.length);
    const e = new Int32Array(cap), n = new Int32Array(cap);
    e.set(END_AT.subarray(0, row)); n.set(ENTRY_AT.subarray(0, row));
    END_AT = e; ENTRY_AT = n;
  } else {
    // A loop, not fill: a small function's rows are a few slots, and fill is a call into the runtime.
    const e = END_AT, n = ENTRY_AT;
    for (let s = row; s < end; s++) { e[s] = 0; n[s] = 0; }
  }
  ROW_REGS[rowCount++] = reg;
  ROW_OF[reg] = row;
  LAST_WRITER[reg] = -1;
  return row;
}
/** A value of a table (by slot), or undefined. */
function valueAt(table: Int32Array, slot: number): Inst | undefined {
  let x: number;
  if (hashed) { const s = hashSlot(2 * slot + (table === ENTRY_AT ? 1 : 0)); x = hashKeys[s] === 0 ? 0 : hashVals[s] as number; }
  else x = table[slot] as number;
  return x === 0 ? undefined : VALUES[x - 1];
}
function setValueAt(table: Int32Array, slot: number, v: Inst): void {
  VALUES[valueCount++] = v;
  if (hashed) hashSet(2 * slot + (table === ENTRY_AT ? 1 : 0), valueCount);
  else table[slot] = valueCount;
}

/**
 * The pending reads' blocks (below), the process's: reused by every run (constructSsa starts no
 * other run inside it), grown when a function needs more; a fresh typed array per run was an
 * allocation outside the heap. Never cleared: only a read the run marked pending has an entry
 * it reads.
 */
let PENDING_AT = new Int32Array(1024);
/**
 * Beside PENDING_AT, by the read's id: the last block before the read's that writes its register
 * (-1: none), from LAST_WRITER, by register, as phase 1 passes the blocks in id order (a row's
 * entry reset when the run makes it). See entryValue.
 */
let PENDING_W = new Int32Array(1024);
const LAST_WRITER = new Int32Array(REGS);
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
 * The users of each phi the run made, by its id less the first id the run made (constructSsa's
 * phiUsers), the process's too: entries below `phiUsersEnd` may be set, and are dropped at the
 * start and the end of every run (a run that threw leaves none to the next).
 */
const PHI_USERS: (Inst[] | undefined)[] = [];
let phiUsersEnd = 0;
function clearPhiUsers(): void {
  drop(PHI_USERS, phiUsersEnd);
  phiUsersEnd = 0;
}
/**
 * Empties the first `n` entries of one of the run's lists (a loop: a small function's lists hold
 * a few entries, and fill is a call into the runtime that costs more than the stores).
 */
function drop(list: unknown[], n: number): void {
  for (let k = 0; k < n; k++) list[k] = undefined;
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
 * The walk that looks for such an edge also finds the immediate dominators (DOM), which hold
 * exactly when none is found, and then makes `domTree` of them.
 */
function blocksOnCycles(blocks: readonly Block[]): Uint8Array | undefined {
  const n = blocks.length;
  if (DOM.length < n) { DOM = new Int32Array(Math.max(n, 2 * DOM.length)); BLOCK_ORDER = Int32Array.from({ length: DOM.length }, (_, k) => k); }
  const dom = DOM;
  let back = false;
  for (let bk = 0; bk < n && !back; bk++) {
    const preds = (blocks[bk] as Block).preds;
    // The immediate dominator, by Cooper, Harvey and Kennedy's intersection of the predecessors'
    // (each has a lower id when there is no cycle: one walk in id order finds them all).
    let d = preds.length === 0 ? (bk === 0 ? 0 : -1) : -2;
    for (let k = 0; k < preds.length; k++) {
      const p = (preds[k] as Block).id;
      if (p >= bk) { back = true; break; }
      if (d === -1) continue;
      if (dom[p] === -1) { d = -1; continue; }
      if (d === -2) { d = p; continue; }
      let a = d, c = p;
      while (a !== c) { if (a > c) a = dom[a] as number; else c = dom[c] as number; }
      d = a;
    }
    dom[bk] = d;
  }
  // Block ids are a topological order without cycles (a block's dominator comes before it).
  if (!back) { domTree = new DominatorTree(dom.subarray(0, n), BLOCK_ORDER.subarray(0, n)); return undefined; }
  // Tarjan's strongly connected components over the predecessor edges (the same components as
  // over the successors), with an explicit stack. Its arrays are the process's (CYCLE_OUT,
  // CYCLE_WORK), grown when a function needs more: a typed array of more than 16 entries made per
  // run cost a microsecond or more each (its store is outside the heap).
  if (CYCLE_OUT.length < n) { CYCLE_OUT = new Uint8Array(Math.max(n, 2 * CYCLE_OUT.length)); CYCLE_WORK = new Int32Array(6 * CYCLE_OUT.length); }
  const out = CYCLE_OUT, t = CYCLE_WORK;
  // In `t`, by block: its index (-1: not visited), its low link, whether it is on the stack; then
  // the stack, and the explicit call stack's blocks and next predecessors.
  const LOW = n, ON = 2 * n, STACK = 3 * n, CALL_B = 4 * n, CALL_K = 5 * n;
  for (let v = 0; v < n; v++) { out[v] = 0; t[v] = -1; t[ON + v] = 0; }
  let sp = 0, next = 0;
  for (let r = 0; r < n; r++) {
    if ((t[r] as number) >= 0) continue;
    let top = 0;
    t[CALL_B] = r; t[CALL_K] = 0; t[r] = t[LOW + r] = next++; t[STACK + sp++] = r; t[ON + r] = 1;
    while (top >= 0) {
      const v = t[CALL_B + top] as number, k = t[CALL_K + top] as number, preds = (blocks[v] as Block).preds;
      if (k < preds.length) {
        t[CALL_K + top] = k + 1;
        const w = (preds[k] as Block).id;
        if (w === v) out[v] = 1;
        else if ((t[w] as number) < 0) { t[w] = t[LOW + w] = next++; t[STACK + sp++] = w; t[ON + w] = 1; top++; t[CALL_B + top] = w; t[CALL_K + top] = 0; }
        else if (t[ON + w] === 1 && (t[w] as number) < (t[LOW + v] as number)) t[LOW + v] = t[w] as number;
        continue;
      }
      if (t[LOW + v] === t[v]) {
        let start = sp - 1;
        while (t[STACK + start] !== v) start--;
        const many = sp - start > 1;
        for (let j = start; j < sp; j++) { const w = t[STACK + j] as number; t[ON + w] = 0; if (many) out[w] = 1; }
        sp = start;
      }
      top--;
      if (top >= 0) { const u = t[CALL_B + top] as number; if ((t[LOW + v] as number) < (t[LOW + u] as number)) t[LOW + u] = t[LOW + v] as number; }
    }
  }
  return out;
}
let CYCLE_OUT = new Uint8Array(256), CYCLE_WORK = new Int32Array(6 * 256);

/**
 * The immediate dominators of a function without cycles, by block id, the process's (grown when
 * a function needs more): -1 for a block that a path from a block without predecessors other than
 * the entry reaches (no lookup there is answered by dominance). BLOCK_ORDER: the ids in order.
 */
let DOM = new Int32Array(256), BLOCK_ORDER = Int32Array.from({ length: 256 }, (_, k) => k);
/**
 * This run's dominator tree (DOM's) where its function has no cycle (undefined: it has one), for
 * entryValue's `dominates`: one comparison, not a walk up the tree.
 */
let domTree: DominatorTree | undefined;

/**
 * The run's state, the module's (constructSsa starts no run inside another): the function and its
 * blocks, the reads answered, and the counts of the process's lists above. The lookups below are
 * module functions over it, not closures made per run: a closure's optimised code is held only
 * weakly by its feedback, so once a run's closures died a collection dropped that code, and every
 * few recompiles the lookups ran unoptimised again until V8 compiled them anew (valueOf,
 * readAtEntry and their helpers were compiled afresh during bench:compile's timed runs). Set at a
 * run's start; the function, its blocks and undefs are let go at its end (no run's IR kept alive).
 */
const NO_FUNCTION = new IrFunction('', 32);
let runFn: IrFunction = NO_FUNCTION;
let runBlocks: readonly Block[] = NO_FUNCTION.blocks;
/** Reads answered by an earlier value (a write's argument, a phi, an undef). */
let replaced = new Replacements();
/** The stamp of the reads still to look up (see constructSsa). */
let pending = 0;
/** The first id the run made: ids below are the function's (the only possible reads), ids from it the run's phis and undefs. */
let reads = 0;
let onCycle: Uint8Array | undefined;
/** The undefs made (one per type, in the order made: they open the entry block). */
const UNDEFS: Inst[] = [];
/** The slots of NEW_PHIS in use. */
let phiCount = 0;
/**
 * The explicit stack of readAtEntry, as parallel arrays (STACK_BLOCK, STACK_PHI, STACK_ARG_AT,
 * STACK_ARG_COUNT, STACK_SLOT), reused by every lookup (no frame object per block walked): each
 * frame's block, its phi (undefined where the block has one predecessor) and where the phi's
 * arguments so far are in ARG_STACK (from its STACK_ARG_AT, STACK_ARG_COUNT of them); `depth`
 * frames are live, `maxDepth` the most live at once (the frames' entries to drop at the end). A
 * lookup can start another (valueOf of a value that is itself a read): that one works above the
 * frames of the first and leaves `depth` as it found it.
 * A merge off every cycle waits for its arguments before it has a phi: its frame keeps the slot
 * in NEW_PHIS that its phi takes (-1 for any other frame), and a phi is made there only when the
 * arguments differ. A lookup cannot come back to such a block, so nothing sees the difference:
 * the phi made up front would have had that place, and where its arguments are one value it would
 * have been removed at once, with no phi naming it. Its id is taken when it is made, not reserved
 * up front: a branchy kernel walks many more such merges than it keeps phis at (diamonds2000:
 * about 14,000 for 2,000), and every id taken sizes the tables of the later passes and the
 * emitter by id.
 */
let depth = 0, maxDepth = 0;
/**
 * The frames' phi arguments in ARG_STACK: a frame with a phi reserves one slot per predecessor
 * above the frames below it (`argTop`), and its phi gets an array of exactly its arguments when
 * complete (an array pushed to from empty had room for 17); `maxArgTop`, the most slots in use at
 * once (the entries to drop at the end: the list keeps the length a large function gave it).
 */
let argTop = 0, maxArgTop = 0;
/**
 * The worklist of tryRemoveTrivialPhi, shared by every call: a call works above `base`, the
 * length it found (a lookup inside one can start another, which leaves the list as it found it).
 */
const WORK: Inst[] = [];

/** The value an instruction stands for (a read becomes what it reads). */
function valueOf(v0: Inst): Inst {
  let v = v0;
  for (;;) {
    const r = replaced.get(v);
    if (r) { v = r; continue; }
    if (v.stamp === pending) {
      v.stamp = 0;
      const reg = regOf(v), row = ROW_OF[reg] as number, b = runBlocks[PENDING_AT[v.id] as number] as Block;
      replaced.set(v, domTree !== undefined ? entryValue(row, typeOfReg(reg), b, PENDING_W[v.id] as number) : readAtEntry(row, typeOfReg(reg), b));
      continue;
    }
    return v;
  }
}

function undef(type: IrType): Inst {
  const undefs = UNDEFS;
  for (let k = 0; k < undefs.length; k++) if ((undefs[k] as Inst).type === type) return undefs[k] as Inst;
  const u = runFn.makeAt('Undef', NO_ARGS, NO_IMMS, type, undefined, undefined);
  u.block = runBlocks[0];
  undefs.push(u);
  return u;
}

/**
 * A read's value at the entry of `b` in a function without cycles, where `w` is the last block
 * before `b` (in id order) that writes the register (-1: none). Ids rise along every path then,
 * so no block after `w` on a path to `b` writes it: where `w` dominates `b`, every path brings
 * `w`'s value, and where no block before `b` writes it, every path brings undef. Both are what
 * readAtEntry's walk back to them would find, with no phi made on the way (its merges' arguments
 * are all that one value) and the same value looked up first (the walk's other steps make
 * nothing), so the ids and phis come out the same; the walk was most of the pass on a chain of
 * branches, each read of a register set before them going back through every merge to its write.
 * Otherwise the walk.
 */
function entryValue(row: number, type: IrType, b: Block, w: number): Inst {
  const known = valueAt(ENTRY_AT, row + b.id);
  if (known) return valueOf(known);
  let v: Inst;
  if (w < 0) v = undef(type);
  else if ((domTree as DominatorTree).dominates(w, b.id)) v = valueOf(valueAt(END_AT, row + w) as Inst);
  else return readAtEntry(row, type, b);
  setEntry(b, row, v);
  return v;
}

/** Sets the entry value of the register of `row` in `b`. */
function setEntry(b: Block, row: number, v: Inst): void {
  setValueAt(ENTRY_AT, row + b.id, v);
}

/**
 * The value of `reg` at the entry of `b0`: Braun et al.'s readVariableRecursive, with an explicit
 * stack of the blocks still waiting for a predecessor's value (a chain of thousands of blocks
 * must not exhaust the call stack). A merge on a cycle gets its phi before its arguments are
 * looked up, so a loop reaching back finds it; any other merge gets one after, only where its
 * arguments differ, in the place it would have had (under the next id then).
 */
function readAtEntry(row: number, type: IrType, b0: Block): Inst {
  const stackBlock = STACK_BLOCK, stackPhi = STACK_PHI, stackArgAt = STACK_ARG_AT, stackArgCount = STACK_ARG_COUNT, stackSlot = STACK_SLOT;
  const argStack = ARG_STACK, newPhis = NEW_PHIS;
  const base = depth;
  let b: Block | undefined = b0;
  let result: Inst | undefined;
  for (;;) {
    // Descend: find the entry value of `b`, or wait for a predecessor's end value.
    while (b) {
      const known = valueAt(ENTRY_AT, row + b.id);
      if (known) { result = valueOf(known); break; }
      if (b.preds.length === 0) { result = undef(type); setEntry(b, row, result); break; }
      let phi: Inst | undefined;
      let slot = -1;
      if (b.preds.length > 1) {
        if (onCycle !== undefined && onCycle[b.id] === 1) {
          phi = runFn.makeAt('Phi', NO_ARGS, NO_IMMS, type, undefined, undefined, PHI_INFO);
          phi.block = b;
          newPhis[phiCount++] = phi;
          setEntry(b, row, phi);
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
      const d = valueAt(END_AT, row + p.id);
      if (d) { result = valueOf(d); break; }
      b = p;
    }
    b = undefined;
    // Ascend: hand the value to the waiting blocks until one needs another predecessor.
    while (depth > base && !b) {
      const fb = stackBlock[depth - 1] as Block, phi = stackPhi[depth - 1], slot = stackSlot[depth - 1] as number;
      const v = result as Inst;
      if (!phi && slot < 0) { setEntry(fb, row, v); depth--; continue; }
      const at0 = stackArgAt[depth - 1] as number, count = (stackArgCount[depth - 1] as number) + 1;
      argStack[at0 + count - 1] = v;
      stackArgCount[depth - 1] = count;
      const next = fb.preds[count];
      if (next) {
        const d = valueAt(END_AT, row + next.id);
        if (d) result = valueOf(d); else b = next;
        continue;
      }
      if (!phi) {
        // A waiting merge: its arguments' one value (as trivialValue would find it), or a phi.
        let same: Inst | undefined = valueOf(argStack[at0] as Inst);
        for (let k = 1; k < count; k++) if (valueOf(argStack[at0 + k] as Inst) !== same) { same = undefined; break; }
        if (same) { argTop = at0; result = same; setEntry(fb, row, same); depth--; continue; }
      }
      const args = argStack.slice(at0, at0 + count) as Inst[];
      argTop = at0;
      let p: Inst;
      if (phi) { p = phi; p.args = args; }
      else { p = runFn.makeAt('Phi', args, NO_IMMS, type, undefined, undefined, PHI_INFO); p.block = fb; newPhis[slot] = p; }
      // A phi named twice by this one is listed once (as a set would: its entries are this loop's, consecutive).
      // Only the run's own phis are asked for their users (those it may remove).
      for (let k = 0; k < count; k++) { const a = args[k] as Inst; if (a.id >= reads && a.op === 'Phi') { const u = usersOf(a); if (!u) setUsers(a, listOf(p)); else if (u[u.length - 1] !== p) u.push(p); } }
      result = phi ? tryRemoveTrivialPhi(phi) : p;
      setEntry(fb, row, result);
      depth--;
    }
    if (!b) return result as Inst;
  }
}

/**
 * The phis whose arguments name a phi the run made (to revisit when it turns out trivial), by
 * the phi's id less `reads` in PHI_USERS (a list by id, not a Map keyed by the instruction:
 * hashing every phi that a phi names was a tenth of the pass on a branchy kernel).
 */
function usersOf(phi: Inst): Inst[] | undefined {
  return phi.id - reads < phiUsersEnd ? PHI_USERS[phi.id - reads] : undefined;
}
function setUsers(phi: Inst, users: Inst[]): void {
  const k = phi.id - reads;
  while (PHI_USERS.length <= k) PHI_USERS.push(undefined);
  PHI_USERS[k] = users;
  if (k >= phiUsersEnd) phiUsersEnd = k + 1;
}
/** Whether a phi was removed as trivial: exactly the phis `replaced` maps (the reads it maps are no phis). */
function removed(p: Inst): boolean {
  return replaced.get(p) !== undefined;
}
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
/** Replaces a trivial phi, then revisits the phis that used it (a worklist, not recursion). */
function tryRemoveTrivialPhi(phi: Inst): Inst {
  const to = trivialValue(phi);
  if (to === phi) return phi;
  replaced.set(phi, to);
  const work = WORK;
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

/**
 * `denseSlots`: the most slots the run's dense rows may take (DENSE_SLOTS; a test passes 0 to run
 * the hashed tables on a small function and compare).
 */
export function constructSsa(fn: IrFunction, denseSlots = DENSE_SLOTS): void {
  if (!fn.blocks[0]) return;
  try {
    run(fn, denseSlots);
  } finally {
    // The run's function let go, also by a run that threw (its other lists are dropped at the next run's start).
    runFn = NO_FUNCTION; runBlocks = NO_FUNCTION.blocks; onCycle = undefined; domTree = undefined;
    UNDEFS.length = 0; WORK.length = 0;
  }
}

function run(fn: IrFunction, denseSlots: number): void {
  const blocks = fn.blocks, entry = blocks[0] as Block;
  clearPhiUsers();
  // The rows of the last run (one that threw kept its own), then this run's: one slot per block.
  for (let k = 0; k < rowCount; k++) ROW_OF[ROW_REGS[k] as number] = -1;
  rowCount = 0;
  rowSize = blocks.length;
  hashed = rowSize * REGS > denseSlots;
  if (hashed) {
    let cap = 1024;
    while (cap < fn.idCount) cap *= 2;
    hashKeys = new Float64Array(cap); hashVals = new Int32Array(cap); hashCount = 0;
  }
  drop(VALUES, valueCount);
  valueCount = 0;
  runFn = fn; runBlocks = blocks;
  replaced = new Replacements();
  depth = 0; maxDepth = 0; argTop = 0; maxArgTop = 0;
  /**
   * Reads to look up at their block's entry, in program order (`pendingCount` of them), each
   * marked with the stamp `pending` until it is looked up; by the read's id, its block's index in
   * PENDING_AT (a typed array, no record per read). Only the instructions made before the pass
   * can be such reads: ids below `reads`, which are also the first the run's phis are numbered from.
   */
  const pendingReads = PENDING_READS;
  let pendingCount = 0;
  reads = fn.idCount;
  if (PENDING_AT.length < reads) { PENDING_AT = new Int32Array(Math.max(reads, 2 * PENDING_AT.length)); PENDING_W = new Int32Array(PENDING_AT.length); }
  const pendingAt = PENDING_AT, pendingW = PENDING_W, lastWriter = LAST_WRITER;
  pending = newStamp();
  /**
   * The phis made (NEW_PHIS), in the order their making began (which sets their order in their
   * blocks); a slot is kept empty for a merge's phi whose making waits for its arguments (above),
   * and stays empty when they turn out the same value.
   */
  const newPhis = NEW_PHIS;
  phiCount = 0;
  const undefs = UNDEFS;
  undefs.length = 0;

  // Phase 1: each block's own writes and reads, and its edges for the predecessor lists (which
  // phase 1 does not need: computePreds' own walk over every block's last instruction was up to
  // a fortieth of a branchy kernel's recompile, where its blocks lay far apart in memory).
  // Indexed loops throughout: an array iterator allocates where the optimizer does not remove it.
  fn.beginPreds();
  for (let bk = 0; bk < blocks.length; bk++) {
    const b = blocks[bk] as Block, insts = b.insts;
    for (let k = 0; k < insts.length; k++) {
      const i = insts[k] as Inst;
      // Most instructions are no register access: one load, no call, for them.
      if ((REG_BASE[i.info.index] as number) < 0) continue;
      const reg = regOf(i);
      const slot = rowOf(reg) + bk;
      if (isWrite(i)) {
        const v = i.args[0];
        if (!v) throw new IrError(`${i.op} without a value`);
        setValueAt(END_AT, slot, v);
        lastWriter[reg] = bk;
      } else {
        const cur = valueAt(END_AT, slot);
        if (cur) replaced.set(i, cur);
        else { pendingReads[pendingCount++] = i; pendingAt[i.id] = bk; pendingW[i.id] = lastWriter[reg] as number; i.stamp = pending; }
      }
    }
    fn.notePredsOf(b);
  }
  fn.finishPreds();
  onCycle = blocksOnCycles(blocks);

  // Phase 2: answer every read, then rebuild the blocks without register reads and writes.
  for (let k = 0; k < pendingCount; k++) valueOf(pendingReads[k] as Inst);
  // The phis kept, grouped by block in the order made (a counting sort by block id, which is the
  // block's index): no map of lists.
  const nb = blocks.length;
  if (PHI_END.length < nb + 1) PHI_END = new Int32Array(Math.max(nb + 1, 2 * PHI_END.length));
  const end = PHI_END;
  for (let k = 0; k <= nb; k++) end[k] = 0;
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
    if (b === entry && undefs.length !== 0) insts.unshift(...undefs, ...(byBlock.slice(from, to) as Inst[]));
    else if (c !== 0) {
      for (let j = 0; j < c; j++) insts.push(byBlock[from + j] as Inst);
      for (let j = w - 1; j >= 0; j--) insts[j + c] = insts[j] as Inst;
      for (let j = 0; j < c; j++) insts[j] = byBlock[from + j] as Inst;
    }
  }
  // The run's values dropped (no run's instructions kept alive), and a large kernel's tables.
  drop(VALUES, valueCount);
  valueCount = 0;
  if (hashed) { hashKeys = new Float64Array(0); hashVals = new Int32Array(0); hashed = false; }
  if (END_AT.length > KEPT_SLOTS) { END_AT = new Int32Array(4096); ENTRY_AT = new Int32Array(4096); for (let k = 0; k < rowCount; k++) ROW_OF[ROW_REGS[k] as number] = -1; rowCount = 0; }
  clearPhiUsers();
  drop(pendingReads, pendingCount); drop(newPhis, phiCount); drop(byBlock, kept);
  drop(STACK_BLOCK, maxDepth); drop(STACK_PHI, maxDepth); drop(ARG_STACK, maxArgTop);
}
