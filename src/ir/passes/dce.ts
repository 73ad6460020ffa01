// Dead code elimination: instructions without an effect whose value nothing uses are removed,
// until nothing changes.
import type { Inst, IrFunction } from '../ir.js';
import { opInfo } from '../ops.js';

export function eliminateDeadCode(fn: IrFunction): number {
  let removed = 0;
  for (;;) {
    const used = new Set<Inst>();
    for (const b of fn.blocks) for (const i of b.insts) for (const a of i.args) used.add(a);
    let changed = false;
    for (const b of fn.blocks) {
      const keep = b.insts.filter((i) => opInfo(i.op).effect || used.has(i));
      if (keep.length !== b.insts.length) { removed += b.insts.length - keep.length; b.insts.splice(0, b.insts.length, ...keep); changed = true; }
    }
    if (!changed) return removed;
  }
}
