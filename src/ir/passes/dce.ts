// Dead code elimination: instructions without an effect whose value nothing uses are removed,
// until nothing changes.
import { type Block, type Inst, type IrFunction, newStamp } from '../ir.js';

export function eliminateDeadCode(fn: IrFunction): number {
  // Mark live (this walk's stamp) from the instructions with effects, through arguments (a
  // worklist), then sweep.
  const live = newStamp();
  const work: Inst[] = [];
  const blocks = fn.blocks;
  // Indexed loops, not for…of: before V8 optimises this code, each step of a for…of allocates an
  // iterator result.
  for (let bk = 0; bk < blocks.length; bk++) {
    const insts = (blocks[bk] as Block).insts;
    for (let k = 0; k < insts.length; k++) { const i = insts[k] as Inst; if (i.info.effect) { i.stamp = live; work.push(i); } }
  }
  while (work.length) {
    const args = (work.pop() as Inst).args;
    for (let k = 0; k < args.length; k++) { const a = args[k] as Inst; if (a.stamp !== live) { a.stamp = live; work.push(a); } }
  }
  let removed = 0;
  for (let bk = 0; bk < blocks.length; bk++) {
    const insts = (blocks[bk] as Block).insts;
    let w = 0;
    for (let r = 0; r < insts.length; r++) { const i = insts[r] as Inst; if (i.stamp === live) insts[w++] = i; }
    removed += insts.length - w;
    insts.length = w;
  }
  return removed;
}
