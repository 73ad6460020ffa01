// Common subexpression elimination: global value numbering over the dominator tree. A pure
// instruction (no effect, not a terminator, phi or undef) whose op, type, arguments, immediates
// and float mode equal those of one in a dominating position is replaced by it. Argument-free
// pure values (constants, the lane id, launch ids) are first moved to the entry block, so one
// copy serves the whole function. The translation reads EXEC, constants and lane bits afresh at
// every RDNA instruction; this is what folds those repeats away. A bit cast of a bit cast back to
// the first type becomes its source.
import { computeDominators, reversePostorder } from '../../analysis/dominators.js';
import type { FloatMode, Inst, IrFunction } from '../ir.js';
import { opInfo } from '../ops.js';

const pure = (i: Inst): boolean => {
  const info = opInfo(i.op);
  return !info.effect && !info.terminator && i.op !== 'Phi' && i.op !== 'Undef' && i.op !== 'Param';
};

const BITCASTS: ReadonlySet<string> = new Set(['BitcastU32F32', 'BitcastF32U32', 'BitcastU64F64', 'BitcastF64U64', 'BitcastU32F16', 'BitcastF16U32']);

const modeKey = (m: FloatMode | undefined): string => (m ? `${m.round}/${m.denorm}/${m.ieee}/${m.dx10Clamp}` : '');

/** Returns how many instructions were removed. */
export function eliminateCommonSubexpressions(fn: IrFunction): number {
  const entry = fn.blocks[0];
  if (!entry) return 0;
  fn.computePreds();
  // Hoist argument-free pure values into the entry block (before its terminator).
  const hoisted: Inst[] = [];
  for (const b of fn.blocks) {
    if (b === entry) continue;
    const keep: Inst[] = [];
    for (const i of b.insts) {
      if (i.args.length === 0 && pure(i)) { i.block = entry; hoisted.push(i); } else keep.push(i);
    }
    if (keep.length !== b.insts.length) b.setInsts(keep);
  }
  if (hoisted.length) {
    const t = entry.terminator;
    const body = t ? entry.insts.slice(0, -1) : entry.insts.slice();
    let k = 0; // after the entry's leading params
    while (k < body.length && body[k]?.op === 'Param') k++;
    entry.setInsts([...body.slice(0, k), ...hoisted, ...body.slice(k), ...(t ? [t] : [])]);
  }

  const n = fn.blocks.length;
  const succs = (id: number) => (fn.blocks[id]?.succs(fn) ?? []).map((s) => ({ from: id, to: s.id }));
  const rpo = reversePostorder(n, succs);
  const idom = computeDominators(n, rpo, (id) => (fn.blocks[id]?.preds ?? []).map((p) => ({ from: p.id, to: id })));
  const children: number[][] = Array.from({ length: n }, () => []);
  for (const b of rpo) { const d = idom[b] ?? -1; if (d >= 0) children[d]?.push(b); }

  const table = new Map<string, Inst>();
  const repl = new Map<Inst, Inst>();
  const sub = (a: Inst): Inst => repl.get(a) ?? a;
  let removed = 0;
  // Depth-first over the dominator tree with an explicit stack; each block's new keys are undone on exit.
  const stack: { block: number; added: string[] | undefined }[] = [{ block: rpo[0] ?? 0, added: undefined }];
  while (stack.length) {
    const top = stack[stack.length - 1] as { block: number; added: string[] | undefined };
    if (top.added) {
      for (const k of top.added) table.delete(k);
      stack.pop();
      continue;
    }
    const added: string[] = [];
    top.added = added;
    const b = fn.blocks[top.block];
    if (!b) continue;
    const keep: Inst[] = [];
    for (const i of b.insts) {
      i.args = i.args.map(sub);
      if (!pure(i)) { keep.push(i); continue; }
      // A bit cast of a bit cast back to the first type is its source.
      const src = i.args[0];
      if (BITCASTS.has(i.op) && src && BITCASTS.has(src.op) && src.args[0]?.type === i.type) { repl.set(i, src.args[0]); removed++; continue; }
      let key = `${i.op}:${i.type}:${modeKey(i.float)}:${i.imms.join(',')}:`;
      for (const a of i.args) key += `${a.id},`;
      const hit = table.get(key);
      if (hit) { repl.set(i, hit); removed++; continue; }
      table.set(key, i);
      added.push(key);
      keep.push(i);
    }
    if (keep.length !== b.insts.length) b.setInsts(keep);
    for (const c of children[top.block] ?? []) stack.push({ block: c, added: undefined });
  }
  // Phis (and any use reached before its definition was replaced) take the survivors.
  if (repl.size) for (const b of fn.blocks) for (const i of b.insts) i.args = i.args.map(sub);
  return removed;
}
