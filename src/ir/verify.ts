// Checks an IR function's invariants and reports every violation (not the first): each block
// ends with exactly one terminator, branch targets exist, argument counts and types match the op
// table, phis have one argument per predecessor and sit at the block's start, and every argument
// is defined (in a block that dominates the use, checked structurally by order within a block).
import { type Block, type Imm, type Inst, type IrFunction, newStamp } from './ir.js';
import { CLOCKS, type IrType, LDS_ATOMIC_SRC2, LDS_ATOMIC_WIDE, OPS } from './ops.js';

/**
 * The function's violations, then its helpers' (prefixed with the helper's name). `own`: the
 * function's own violations where a pass has looked for them already (eliminateDeadCode's
 * verifying compaction, which walks every instruction anyway), not looked for again.
 */
export function verifyFunction(fn: IrFunction, own?: string[]): string[] {
  const errors = own ?? verifyOne(fn, fn);
  // Indexed loops, not forEach or for…of: this runs once per kernel (and after the float lowering,
  // once per helper), mostly before V8 has optimised it, where a for…of allocates an iterator
  // result per step and flatMap/filter a list per block.
  const helpers = fn.helpers;
  for (let k = 0; k < helpers.length; k++) {
    const h = helpers[k] as IrFunction;
    const own = verifyOne(h, fn);
    for (let e = 0; e < own.length; e++) errors.push(`helper ${k} ${h.name}: ${own[e] as string}`);
    if (!hasReturn(h)) errors.push(`helper ${k} ${h.name}: no Return`);
    if (h.helpers.length) errors.push(`helper ${k} ${h.name}: helpers of a helper`);
  }
  return errors;
}

/** Whether any block of the function holds a Return. */
function hasReturn(h: IrFunction): boolean {
  const blocks = h.blocks;
  for (let bk = 0; bk < blocks.length; bk++) {
    const insts = (blocks[bk] as Block).insts;
    for (let k = 0; k < insts.length; k++) if ((insts[k] as Inst).op === 'Return') return true;
  }
  return false;
}

const signatures = new WeakMap<IrFunction, { params: IrType[]; ret: IrType | undefined }>();
/** A helper's parameter types (by index) and return type. */
export function signature(h: IrFunction): { params: IrType[]; ret: IrType | undefined } {
  let s = signatures.get(h);
  if (!s) {
    const ps = (h.blocks[0]?.insts ?? []).filter((x) => x.op === 'Param').sort((x, y) => Number(x.imms[0]) - Number(y.imms[0]));
    const r = h.blocks.flatMap((bb) => bb.insts.filter((x) => x.op === 'Return'))[0]?.args[0];
    s = { params: ps.map((p) => p.type), ret: r?.type };
    signatures.set(h, s);
  }
  return s;
}

/** By op (its table index): the ops with checks of their own below (Param ... Barrier). */
const SPECIAL: readonly boolean[] = Object.keys(OPS).map((op) => ['Param', 'Return', 'EndProgram', 'Call', 'CallGuarded', 'Branch', 'BranchCond', 'ExchangeLds2x64Second', 'AtomicLds', 'AtomicLdsCall', 'ReadClock', 'Barrier'].includes(op));

/** An instruction's location, built only for a message (no closure per instruction). */
const at = (block: number, k: number, i: Inst): string => `b${block}[${k}] ${i.op}`;

/** The checks of a call of helper `index` with the arguments of `i` and a result of type `ret` (Call; each helper of a CallGuarded). */
function checkCall(errors: string[], block: number, k: number, i: Inst, isHelper: boolean, root: IrFunction, index: Imm, ret: IrType): void {
  const h = isHelper ? undefined : root.helpers[Number(index)];
  if (!h) { errors.push(`${at(block, k, i)}: helper ${String(index)} ${isHelper ? 'called from a helper' : 'does not exist'}`); return; }
  const { params: ps, ret: r } = signature(h);
  if (ps.length !== i.args.length) errors.push(`${at(block, k, i)}: ${i.args.length} arguments for ${ps.length} parameters of ${h.name}`);
  // A loop, not forEach: a closure here would capture the loop's variables, and V8 then
  // allocates them afresh for every instruction the walk visits.
  for (let j = 0; j < ps.length; j++) { const p = ps[j], a = i.args[j]; if (a && a.type !== p) errors.push(`${at(block, k, i)}: argument ${j} is ${a.type}, ${h.name} takes ${p}`); }
  if (r && r !== ret) errors.push(`${at(block, k, i)}: ${h.name} returns ${r}, the call is ${ret}`);
}

/** A function's own violations (not its helpers'); `root`: the kernel's function whose helpers calls name. */
export function verifyOne(fn: IrFunction, root: IrFunction): string[] {
  const errors: string[] = [];
  const isHelper = fn !== root;
  // Every placed instruction gets this walk's stamp; the ones the walk has passed, the second.
  const placed = newStamp(), passed = newStamp();
  const blocks = fn.blocks;
  for (let bk = 0; bk < blocks.length; bk++) {
    const insts = (blocks[bk] as Block).insts;
    for (let k = 0; k < insts.length; k++) (insts[k] as Inst).stamp = placed;
  }
  for (let bk = 0; bk < blocks.length; bk++) verifyBlock(errors, fn, root, isHelper, blocks[bk] as Block, placed, passed);
  return errors;
}

/**
 * The checks of block `b`'s instructions, each marked `passed` once checked: those of the
 * function's blocks before it marked so, every other instruction in a block `placed`.
 */
export function verifyBlock(errors: string[], fn: IrFunction, root: IrFunction, isHelper: boolean, b: Block, placed: number, passed: number): void {
  const insts = b.insts, n = insts.length;
  for (let k = 0; k < n; k++) {
    const i = insts[k] as Inst;
    // Most instructions pass every check: one lean test of them all first, and only an
    // instruction that fails it (or an op with checks of its own, or a terminator) is checked
    // again one check at a time, for the messages, in their order.
    if (!fastOk(i, b, insts, k, placed, passed)) checkInst(errors, fn, root, isHelper, b, insts, k, n, placed, passed);
    i.stamp = passed;
  }
  if (!b.terminator) errors.push(`b${b.id}: does not end with a terminator`);
}

/**
 * Whether `i` (at `k` of block `b`; `insts` its list up to `k`) passes every check of checkInst:
 * false where one fails, and for the ops with checks of their own (SPECIAL) and the terminators
 * (whose place checkInst checks: the block's length is not asked here, so that a walk that
 * compacts a block can ask before it knows it), which checkInst then makes. No message and no
 * allocation: what the walk asks of most instructions.
 */
export function fastOk(i: Inst, b: Block, insts: readonly Inst[], k: number, placed: number, passed: number): boolean {
  const info = i.info;
  if (SPECIAL[info.index] === true || info.terminator || (info.float && !i.float)) return false;
  const args = i.args;
  if (i.op === 'Phi') {
    if ((k > 0 && insts[k - 1]?.op !== 'Phi') || args.length !== b.preds.length) return false;
    for (let j = 0; j < args.length; j++) { const a = args[j] as Inst, t = a.stamp; if (a.type !== i.type || (t !== placed && t !== passed)) return false; }
    return true;
  }
  if (info.variadic) {
    for (let j = 0; j < args.length; j++) { const a = args[j] as Inst, t = a.stamp; if (t !== passed && (t !== placed || a.block === b)) return false; }
    return true;
  }
  const valueArgs = info.valueArgs;
  if (args.length !== valueArgs.length || i.imms.length !== info.immCount) return false;
  for (let j = 0; j < args.length; j++) {
    const a = args[j] as Inst, t = a.stamp;
    // Placed in a block, and where in this one, before `i` (passed).
    if (a.type !== valueArgs[j] || (t !== passed && (t !== placed || a.block === b))) return false;
  }
  return true;
}

/**
 * Every check of instruction `k` of the `n` of block `b`, each failure a message in `errors`
 * (`insts`: the block's list up to `k`; `n`, its length, asked only of a terminator).
 */
export function checkInst(errors: string[], fn: IrFunction, root: IrFunction, isHelper: boolean, b: Block, insts: readonly Inst[], k: number, n: number, placed: number, passed: number): void {
  const i = insts[k] as Inst;
  const info = i.info;
  if (info.terminator && k !== n - 1) errors.push(`${at(b.id, k, i)}: terminator in the middle of the block`);
  if (i.op === 'Phi') {
    if (k > 0 && insts[k - 1]?.op !== 'Phi') errors.push(`${at(b.id, k, i)}: phi after a non-phi`);
    if (i.args.length !== b.preds.length) errors.push(`${at(b.id, k, i)}: ${i.args.length} arguments for ${b.preds.length} predecessors`);
    for (let j = 0; j < i.args.length; j++) { const a = i.args[j] as Inst; if (a.type !== i.type) errors.push(`${at(b.id, k, i)}: argument of type ${a.type} in a ${i.type} phi`); }
  } else if (!info.variadic) {
    const valueArgs = info.valueArgs;
    if (i.args.length !== valueArgs.length) errors.push(`${at(b.id, k, i)}: ${i.args.length} value arguments, want ${valueArgs.length}`);
    if (i.imms.length !== info.immCount) errors.push(`${at(b.id, k, i)}: ${i.imms.length} immediates, want ${info.immCount}`);
    for (let j = 0; j < i.args.length; j++) {
      const a = i.args[j] as Inst, want = valueArgs[j];
      if (want !== undefined && a.type !== want) errors.push(`${at(b.id, k, i)}: argument ${j} is ${a.type}, want ${want}`);
    }
  }
  if (info.float && !i.float) errors.push(`${at(b.id, k, i)}: float op without a float mode`);
  // The checks of particular ops, skipped together for the others (most instructions).
  const special = SPECIAL[info.index] === true;
  if (special && i.op === 'Param' && (!isHelper || b !== fn.blocks[0] || (k > 0 && insts[k - 1]?.op !== 'Param'))) errors.push(`${at(b.id, k, i)}: a parameter outside the start of a helper's entry block`);
  if (special && (i.op === 'Return') !== isHelper && (i.op === 'Return' || i.op === 'EndProgram')) errors.push(`${at(b.id, k, i)}: ${i.op} in a ${isHelper ? 'helper' : 'kernel function'}`);
  if (special && i.op === 'Return' && i.args.length !== 1) errors.push(`${at(b.id, k, i)}: returns ${i.args.length} values, want 1`);
  if (special && i.op === 'Call') checkCall(errors, b.id, k, i, isHelper, root, i.imms[0] as Imm, i.type);
  if (special && i.op === 'CallGuarded') {
    // The fast helper's u64 (bits and whether they hold), the exact helper's u32 bits: both on the call's arguments.
    if (i.type !== 'u32' || i.imms.length !== 2) errors.push(`${at(b.id, k, i)}: a CallGuarded of type ${i.type} with ${i.imms.length} immediates, want u32 and 2`);
    checkCall(errors, b.id, k, i, isHelper, root, i.imms[0] as Imm, 'u64');
    checkCall(errors, b.id, k, i, isHelper, root, i.imms[1] as Imm, i.type);
  }
  const args = i.args;
  for (let j = 0; j < args.length; j++) {
    const a = args[j] as Inst;
    if (a.stamp !== placed && a.stamp !== passed) errors.push(`${at(b.id, k, i)}: argument %${a.id} is not in any block`);
    else if (a.block === b && i.op !== 'Phi' && a.stamp !== passed) errors.push(`${at(b.id, k, i)}: argument %${a.id} is defined later in the block`);
  }
  if (special && (i.op === 'Branch' || i.op === 'BranchCond')) {
    for (let j = 0; j < i.imms.length; j++) { const t = i.imms[j] as Imm; if (!fn.blocks[Number(t)]) errors.push(`${at(b.id, k, i)}: branch to missing block b${t}`); }
  }
  // A wave resumes after a barrier at its block's branch target: the barrier is the block's last op before a Branch.
  if (special && i.op === 'ExchangeLds2x64Second' && (i.args[0]?.op !== 'ExchangeLds2x64' || !b.insts.includes(i.args[0]))) errors.push(`${at(b.id, k, i)}: ExchangeLds2x64Second of something other than an ExchangeLds2x64 of its block`);
  if (special && (i.op === 'AtomicLds' || i.op === 'AtomicLdsCall') && (Number(i.imms[1]) & ~(LDS_ATOMIC_WIDE | LDS_ATOMIC_SRC2)) !== 0) errors.push(`${at(b.id, k, i)}: ${i.op} with flags ${String(i.imms[1])} (LDS_ATOMIC_WIDE 1 | LDS_ATOMIC_SRC2 2)`);
  if (special && i.op === 'ReadClock' && CLOCKS[Number(i.imms[0])] === undefined) errors.push(`${at(b.id, k, i)}: ReadClock of no clock ${String(i.imms[0])} (0 time, 1 realtime)`);
  if (special && i.op === 'Barrier' && b.insts[b.insts.indexOf(i) + 1]?.op !== 'Branch') errors.push(`${at(b.id, k, i)}: a Barrier not directly before its block's Branch`);
}
