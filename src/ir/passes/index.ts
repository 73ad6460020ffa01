// The IR pass pipeline, in order. Each pass is a free function in its own file.
import type { IrFunction } from '../ir.js';
import { IrError } from '../ir.js';
import { verifyFunction } from '../verify.js';
import { eliminateDeadCode } from './dce.js';
import { foldConstants } from './fold.js';
import { eliminateCommonSubexpressions } from './cse.js';
import { constructSsa } from './ssa.js';
import { simplify } from './simplify.js';

export function runPasses(fn: IrFunction): void {
  constructSsa(fn);
  simplify(fn);
  foldConstants(fn);
  // The predecessors constructSsa computed: simplify and fold change no terminator.
  eliminateCommonSubexpressions(fn, true);
  // DCE's last walk checks what verifyFunction would of the function's own blocks.
  const own: string[] = [];
  eliminateDeadCode(fn, own);
  const errors = verifyFunction(fn, own);
  if (errors.length) throw new IrError(`IR of ${fn.name} is invalid after the passes: ${errors.slice(0, 5).join('; ')}${errors.length > 5 ? ` (+${errors.length - 5} more)` : ''}`);
}
