// Dead code elimination: instructions without an effect whose value nothing uses are removed,
// until nothing changes.
import type { Inst, IrFunction } from '../ir.js';
import { opInfo } from '../ops.js';

export function eliminateDeadCode(fn: IrFunction): number {
  // Mark live from the instructions with effects, through arguments (a worklist), then sweep.
  const live = new Set<Inst>();
  const work: Inst[] = [];
  for (const b of fn.blocks) for (const i of b.insts) if (opInfo(i.op).effect) { live.add(i); work.push(i); }
  while (work.length) {
    const i = work.pop() as Inst;
    for (const a of i.args) if (!live.has(a)) { live.add(a); work.push(a); }
  }
  let removed = 0;
  for (const b of fn.blocks) {
    const keep = b.insts.filter((i) => live.has(i));
    removed += b.insts.length - keep.length;
    if (keep.length !== b.insts.length) b.setInsts(keep);
  }
  return removed;
}
