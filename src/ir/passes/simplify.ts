// Algebraic simplification: identities that hold whatever the arguments' values, applied in one
// walk (definitions precede uses within a block; later blocks and phis are rewritten at the end).
//  - this lane's bit of a ballot of a per-lane bool is that bool: LaneBit(BallotLo(x), hi, LaneId)
//    with hi = BallotHi(x) in wave64 or the constant 0 in wave32 (a v_cmp result read back by
//    v_cndmask or v_addc in the same lane; the ballot itself goes when nothing else reads it);
//  - Select32(c, x, x) is x, and Select32(c, x, Select32(c, y, z)) is Select32(c, x, z) (a register
//    written twice under the same EXEC bit keeps, in the other lanes, the value before both);
//  - Select32(e, x, y) is x where e is the function's fixed EXEC bit (IrFunction.fixedExec: no
//    instruction writes EXEC or reads another lane's value, so what a lane off in EXEC holds is
//    never seen: a VGPR write's EXEC select is the value written);
//  - the dwords of a pair are its halves, Lo32(Pack64(a, b)) = a and Hi32(Pack64(a, b)) = b, and
//    the pair of a value's halves is the value, Pack64(Lo32(x), Hi32(x)) = x (64-bit values that
//    pass through registers between blocks).
import { type Block, type Inst, type IrFunction, newStamp, Replacements, substituteArgs, substituteNoting } from '../ir.js';
import { OPS } from '../ops.js';

function simpler(i: Inst, waveSize: 32 | 64, fixedExec: Inst | undefined): Inst | undefined {
  const a = i.args;
  switch (i.op) {
    case 'LaneBit': {
      const lo = a[0], hi = a[1], lane = a[2];
      if (lo?.op !== 'BallotLo' || lane?.op !== 'LaneId' || !hi) return undefined;
      const x = lo.args[0];
      const hiMatches = waveSize === 32 ? hi.op === 'ConstU32' && hi.imms[0] === 0 : hi.op === 'BallotHi' && hi.args[0] === x;
      return hiMatches ? x : undefined;
    }
    case 'Select32': {
      const c = a[0], x = a[1], old = a[2];
      if (x !== undefined && (x === old || (c === fixedExec && c !== undefined && old !== undefined))) return x;
      if (old?.op === 'Select32' && old.args[0] === c && c && x && old.args[2]) {
        // In place: the instruction keeps its id, its old-value argument skips the inner select.
        a[2] = old.args[2];
        return a[2] === x ? x : undefined;
      }
      return undefined;
    }
    case 'Lo32': case 'Hi32': {
      const x = a[0];
      return x?.op === 'Pack64' ? x.args[i.op === 'Lo32' ? 0 : 1] : undefined;
    }
    case 'Pack64': {
      const lo = a[0], hi = a[1];
      return lo?.op === 'Lo32' && hi?.op === 'Hi32' && lo.args[0] === hi.args[0] ? lo.args[0] : undefined;
    }
    default: return undefined;
  }
}

/** By op (its table index): the ops `simpler` has a case for (the rest are passed on one load). */
const SIMPLIFIED: readonly boolean[] = Object.keys(OPS).map((op) => op === 'LaneBit' || op === 'Select32' || op === 'Lo32' || op === 'Hi32' || op === 'Pack64');

/** Whether an argument of `i` is one the walk (stamp `seen`) has not passed, or one it replaced. */
function stillOpen(i: Inst, repl: Replacements, seen: number): boolean {
  const a = i.args;
  for (let k = 0; k < a.length; k++) { const x = a[k] as Inst; if (x.stamp !== seen || repl.get(x) !== undefined) return true; }
  return false;
}

/** Rewrites uses of simplified instructions (the instructions stay for DCE); returns how many. */
export function simplify(fn: IrFunction): number {
  const repl = new Replacements(fn.idCount);
  // The instructions an argument of which may still change when the walk passes them (see
  // substituteNoting): the only ones the final rewrite needs to visit.
  const late: Inst[] = [];
  walk(fn, repl, late);
  if (repl.size) for (let k = 0; k < late.length; k++) substituteArgs(late[k] as Inst, repl);
  return repl.size;
}

/**
 * simplify's walk: each instruction's arguments substituted, the simpler ones noted in `repl`, the
 * ones to rewrite again in `late`. Its own function, not a loop in simplify: V8 compiled that loop
 * on the stack (OSR) for a long kernel, every later call's loop entered that code, and left it
 * again at the final rewrite, which it had been compiled without ("insufficient type feedback"):
 * a deoptimisation in about every other recompile of a small kernel.
 */
function walk(fn: IrFunction, repl: Replacements, late: Inst[]): void {
  const blocks = fn.blocks, waveSize = fn.waveSize, fixedExec = fn.fixedExec;
  const seen = newStamp();
  // Indexed loops, not for…of: before V8 optimises this code (small kernels never get that far),
  // each step of a for…of allocates an iterator result.
  for (let bk = 0; bk < blocks.length; bk++) {
    const insts = (blocks[bk] as Block).insts;
    for (let k = 0; k < insts.length; k++) {
      const i = insts[k] as Inst;
      let again = substituteNoting(i, repl, seen);
      i.stamp = seen;
      if (SIMPLIFIED[i.info.index] === true) {
        const s = simpler(i, waveSize, fixedExec);
        if (s) repl.set(i, repl.get(s) ?? s);
        // A select kept with its old value taken from the inner select (in place) has a new
        // argument, which the walk may not have passed yet (it is the inner one's argument).
        else if (!again) again = stillOpen(i, repl, seen);
      }
      if (again) late.push(i);
    }
  }
}
