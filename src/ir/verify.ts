// Checks an IR function's invariants and reports every violation (not the first): each block
// ends with exactly one terminator, branch targets exist, argument counts and types match the op
// table, phis have one argument per predecessor and sit at the block's start, and every argument
// is defined (in a block that dominates the use, checked structurally by order within a block).
import type { IrFunction } from './ir.js';
import { opInfo } from './ops.js';

export function verifyFunction(fn: IrFunction): string[] {
  const errors: string[] = [];
  const where = (b: number, k: number) => `b${b}[${k}]`;
  const placed = new Set<object>();
  for (const b of fn.blocks) for (const i of b.insts) placed.add(i);
  for (const b of fn.blocks) {
    b.insts.forEach((i, k) => {
      const info = opInfo(i.op);
      const w = `${where(b.id, k)} ${i.op}`;
      if (info.terminator && k !== b.insts.length - 1) errors.push(`${w}: terminator in the middle of the block`);
      if (i.op === 'Phi') {
        if (b.insts.slice(0, k).some((x) => x.op !== 'Phi')) errors.push(`${w}: phi after a non-phi`);
        if (i.args.length !== b.preds.length) errors.push(`${w}: ${i.args.length} arguments for ${b.preds.length} predecessors`);
        for (const a of i.args) if (a.type !== i.type) errors.push(`${w}: argument of type ${a.type} in a ${i.type} phi`);
      } else if (!info.variadic) {
        const valueArgs = info.args.filter((x) => x !== 'imm');
        const immArgs = info.args.filter((x) => x === 'imm').length;
        if (i.args.length !== valueArgs.length) errors.push(`${w}: ${i.args.length} value arguments, want ${valueArgs.length}`);
        if (i.imms.length !== immArgs) errors.push(`${w}: ${i.imms.length} immediates, want ${immArgs}`);
        i.args.forEach((a, j) => { if (valueArgs[j] !== undefined && a.type !== valueArgs[j]) errors.push(`${w}: argument ${j} is ${a.type}, want ${valueArgs[j]}`); });
      }
      if (info.float && !i.float) errors.push(`${w}: float op without a float mode`);
      for (const a of i.args) {
        if (!placed.has(a)) errors.push(`${w}: argument %${a.id} is not in any block`);
        else if (a.block === b && i.op !== 'Phi' && b.insts.indexOf(a) >= k) errors.push(`${w}: argument %${a.id} is defined later in the block`);
      }
      if (i.op === 'Branch' || i.op === 'BranchCond') {
        for (const t of i.imms) if (!fn.blocks[Number(t)]) errors.push(`${w}: branch to missing block b${t}`);
      }
    });
    if (!b.terminator) errors.push(`b${b.id}: does not end with a terminator`);
  }
  return errors;
}
