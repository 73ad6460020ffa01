// Dead code elimination: instructions without an effect whose value nothing uses are removed,
// until nothing changes.
import { type Block, type Inst, type IrFunction, newStamp } from '../ir.js';

export function eliminateDeadCode(fn: IrFunction): number {
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
  while (work.length) {
    const x = work.pop() as Inst;
    x.stamp = done;
    const args = x.args;
    for (let k = 0; k < args.length; k++) { const a = args[k] as Inst, t = a.stamp; if (t !== live && t !== done) { a.stamp = live; work.push(a); } }
  }
  const keep = ahead === 0 ? done : markByWorklist(blocks);
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
