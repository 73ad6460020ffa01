// Common subexpression elimination: global value numbering over the dominator tree. A pure
// instruction (no effect, not a terminator, phi or undef) whose op, type, arguments, immediates
// and float mode equal those of one in a dominating position is replaced by it. Argument-free
// pure values (constants, the lane id, launch ids) are first moved to the entry block, so one
// copy serves the whole function. The translation reads EXEC, constants and lane bits afresh at
// every RDNA instruction; this is what folds those repeats away. A bit cast of a bit cast back to
// the first type becomes its source.
import { computeDominators, reversePostorder } from '../../analysis/dominators.js';
import { type FloatMode, type Inst, type IrFunction, substituteArgs } from '../ir.js';
import { OPS, opInfo } from '../ops.js';

const pure = (i: Inst): boolean => {
  const info = opInfo(i.op);
  return !info.effect && !info.terminator && i.op !== 'Phi' && i.op !== 'Undef' && i.op !== 'Param';
};

const BITCASTS: ReadonlySet<string> = new Set(['BitcastU32F32', 'BitcastF32U32', 'BitcastU64F64', 'BitcastF64U64', 'BitcastU32F16', 'BitcastF16U32']);

const OP_INDEX = new Map<string, number>(Object.keys(OPS).map((op, k) => [op, k]));
const fieldHash = (v: unknown): number => (typeof v === 'number' ? v | 0 : v === true ? 7 : v === false ? 11 : 13);

/** A number for the instruction's op, type, arguments, immediates and mode (equal instructions, equal numbers). */
function hashOf(i: Inst): number {
  let h = ((OP_INDEX.get(i.op) ?? 0) * 31 + i.type.length) | 0;
  for (const a of i.args) h = (Math.imul(h, 1000003) ^ a.id) | 0;
  for (const v of i.imms) h = (Math.imul(h, 31) + (typeof v === 'bigint' ? Number(v & 0xffffffffn) | 0 : v | 0)) | 0;
  const m = i.float;
  if (m) h = (Math.imul(h, 17) + fieldHash(m.round) * 5 + fieldHash(m.denorm) * 3 + fieldHash(m.ieee) * 2 + fieldHash(m.dx10Clamp)) | 0;
  return h;
}

function sameMode(a: FloatMode | undefined, b: FloatMode | undefined): boolean {
  if (!a || !b) return a === b;
  return a.round === b.round && a.denorm === b.denorm && a.ieee === b.ieee && a.dx10Clamp === b.dx10Clamp;
}

/** Whether two pure instructions compute the same value. */
function equal(a: Inst, b: Inst): boolean {
  if (a.op !== b.op || a.type !== b.type || a.args.length !== b.args.length || a.imms.length !== b.imms.length || !sameMode(a.float, b.float)) return false;
  for (let k = 0; k < a.args.length; k++) if (a.args[k] !== b.args[k]) return false;
  for (let k = 0; k < a.imms.length; k++) if (a.imms[k] !== b.imms[k]) return false;
  return true;
}

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

  // Buckets by hash; a block's additions are popped again when the walk leaves its dominator subtree.
  const table = new Map<number, Inst[]>();
  const repl = new Map<Inst, Inst>();
  let removed = 0;
  // Depth-first over the dominator tree with an explicit stack; each block's new keys are undone on exit.
  const stack: { block: number; added: number[] | undefined }[] = [{ block: rpo[0] ?? 0, added: undefined }];
  while (stack.length) {
    const top = stack[stack.length - 1] as { block: number; added: number[] | undefined };
    if (top.added) {
      for (const h of top.added) table.get(h)?.pop();
      stack.pop();
      continue;
    }
    const added: number[] = [];
    top.added = added;
    const b = fn.blocks[top.block];
    if (!b) continue;
    const keep: Inst[] = [];
    for (const i of b.insts) {
      substituteArgs(i, repl);
      if (!pure(i)) { keep.push(i); continue; }
      // A bit cast of a bit cast back to the first type is its source.
      const src = i.args[0];
      if (BITCASTS.has(i.op) && src && BITCASTS.has(src.op) && src.args[0]?.type === i.type) { repl.set(i, src.args[0]); removed++; continue; }
      const h = hashOf(i);
      let bucket = table.get(h);
      const hit = bucket?.find((x) => equal(x, i));
      if (hit) { repl.set(i, hit); removed++; continue; }
      if (!bucket) { bucket = []; table.set(h, bucket); }
      bucket.push(i);
      added.push(h);
      keep.push(i);
    }
    if (keep.length !== b.insts.length) b.setInsts(keep);
    for (const c of children[top.block] ?? []) stack.push({ block: c, added: undefined });
  }
  // Phis (and any use reached before its definition was replaced) take the survivors.
  if (repl.size) for (const b of fn.blocks) for (const i of b.insts) substituteArgs(i, repl);
  return removed;
}
