// Dead code elimination: instructions without an effect whose value nothing uses are removed,
// until nothing changes.
import { type Block, type Inst, type IrFunction, newStamp } from '../ir.js';
import { checkInst, fastOk, verifyBlock, verifyOne } from '../verify.js';

/**
 * Returns how many instructions were removed. `violations`, where given: receives the function's
 * own violations after the removal (verify.ts verifyOne's, for verifyFunction's `own`), found in
 * the walk that compacts the blocks where it can be (see compactVerifying), not in two walks more.
 */
export function eliminateDeadCode(fn: IrFunction, violations?: string[]): number {
  // Live: the instructions with effects and everything their arguments reach. Marked by a walk
  // backwards over the function: a use mostly comes after its definition, so a definition is most
  // often marked (`live`) before the walk reaches it, and its arguments are marked there (`done`),
  // with no worklist entry per live instruction. One marked after the walk passed it (`passed`: a
  // phi's argument from a later block, a loop's) goes on a worklist, drained at the end.
  const live = newStamp(), done = newStamp(), passed = newStamp();
  const work: Inst[] = [];
  const blocks = fn.blocks;
  // How many were marked before the walk reached them and not reached since: an argument in no
  // block (invalid IR, which verify reports) is never reached, and its own arguments are then
  // marked by the plain worklist below instead.
  let ahead = 0;
  // Indexed loops, not for…of: before V8 optimises this code, each step of a for…of allocates an
  // iterator result.
  for (let bk = blocks.length - 1; bk >= 0; bk--) {
    const insts = (blocks[bk] as Block).insts;
    for (let k = insts.length - 1; k >= 0; k--) {
      const i = insts[k] as Inst;
      const s = i.stamp;
      if (s === live) ahead--;
      else if (s === done) continue;
      else if (!i.info.effect) { i.stamp = passed; continue; }
      i.stamp = done;
      const args = i.args;
      for (let j = 0; j < args.length; j++) {
        const a = args[j] as Inst, t = a.stamp;
        if (t === live || t === done) continue;
        if (t === passed) work.push(a); else ahead++;
        a.stamp = live;
      }
    }
  }
  // An argument marked here that the walk never passed (neither `passed` nor `done`) is in no block.
  let stray = false;
  while (work.length) {
    const x = work.pop() as Inst;
    x.stamp = done;
    const args = x.args;
    for (let k = 0; k < args.length; k++) { const a = args[k] as Inst, t = a.stamp; if (t !== live && t !== done) { if (t !== passed) stray = true; a.stamp = live; work.push(a); } }
  }
  const keep = ahead === 0 ? done : markByWorklist(blocks);
  if (violations !== undefined) {
    // Every live instruction is in a block (every one marked was passed by the walk): the kept
    // ones are exactly those in blocks after the removal, verifyOne's `placed`.
    if (ahead === 0 && !stray) return compactVerifying(fn, keep, violations);
    const removed = compact(blocks, keep);
    const own = verifyOne(fn, fn);
    for (let k = 0; k < own.length; k++) violations.push(own[k] as string);
    return removed;
  }
  return compact(blocks, keep);
}

/** Keeps, in each block, the instructions marked `keep`; returns how many were removed. */
function compact(blocks: readonly Block[], keep: number): number {
  let removed = 0;
  for (let bk = 0; bk < blocks.length; bk++) {
    const insts = (blocks[bk] as Block).insts;
    let w = 0;
    for (let r = 0; r < insts.length; r++) { const i = insts[r] as Inst; if (i.stamp === keep) insts[w++] = i; }
    removed += insts.length - w;
    insts.length = w;
  }
  return removed;
}

/**
 * `compact`, checking each kept instruction as verifyOne would after it (violations in `errors`),
 * where every live instruction is in a block: `keep` marks exactly the instructions in blocks
 * after the removal (verifyOne's `placed`), and a kept one is marked `passed` once checked. A
 * check that needs what follows in the block (a Barrier's next instruction, the place of a
 * terminator with instructions after it) has the block checked again once it is compacted, its
 * messages so far dropped. An instruction listed twice is kept twice (marked `passed` then), as
 * `compact` keeps it.
 */
function compactVerifying(fn: IrFunction, keep: number, errors: string[]): number {
  const blocks = fn.blocks, passed = newStamp();
  let removed = 0;
  for (let bk = 0; bk < blocks.length; bk++) {
    const b = blocks[bk] as Block, insts = b.insts, len = insts.length, mark = errors.length;
    let w = 0, again = false;
    for (let r = 0; r < len; r++) {
      const i = insts[r] as Inst, s = i.stamp;
      if (s !== keep && s !== passed) continue;
      insts[w] = i;
      if (!again && !fastOk(i, b, insts, w, keep, passed)) {
        if (i.op === 'Barrier' || (i.info.terminator && !lastKept(insts, r, keep, passed))) again = true;
        else checkInst(errors, fn, fn, false, b, insts, w, w + 1, keep, passed);
      }
      i.stamp = passed;
      w++;
    }
    removed += len - w;
    insts.length = w;
    if (again) {
      errors.length = mark;
      for (let k = 0; k < w; k++) (insts[k] as Inst).stamp = keep;
      verifyBlock(errors, fn, fn, false, b, keep, passed);
    } else if (!b.terminator) errors.push(`b${b.id}: does not end with a terminator`);
  }
  return removed;
}

/** Whether no instruction after `r` in `insts` is kept (marked `keep` or `passed`). */
function lastKept(insts: readonly Inst[], r: number, keep: number, passed: number): boolean {
  for (let k = r + 1; k < insts.length; k++) { const s = (insts[k] as Inst).stamp; if (s === keep || s === passed) return false; }
  return true;
}

/** The live instructions marked from those with effects through a worklist of every one marked; returns their stamp. */
function markByWorklist(blocks: readonly Block[]): number {
  const live = newStamp();
  const work: Inst[] = [];
  for (let bk = 0; bk < blocks.length; bk++) {
    const insts = (blocks[bk] as Block).insts;
    for (let k = 0; k < insts.length; k++) { const i = insts[k] as Inst; if (i.info.effect) { i.stamp = live; work.push(i); } }
  }
  while (work.length) {
    const args = (work.pop() as Inst).args;
    for (let k = 0; k < args.length; k++) { const a = args[k] as Inst; if (a.stamp !== live) { a.stamp = live; work.push(a); } }
  }
  return live;
}
