// The vocabulary of the analyses (validate, CFG, MODE): diagnostics that say where, and the
// control-flow graph every later stage walks. No Node APIs (the core runs in a browser).
import type { Instruction, InvalidWord } from '../decode/types.js';

export type Severity = 'error' | 'warning' | 'note';

/** One finding, with where it is: pc, the raw words and the instruction's LLVM text. */
export interface Diagnostic {
  readonly pc: number;
  /** The instruction's LLVM text (`.long 0x...` for an invalid word; '' when there is no instruction at pc). */
  readonly instruction: string;
  readonly words: readonly number[];
  /** Stable kebab-case code, e.g. 'branch-out-of-range', 'falls-off-end'. */
  readonly code: string;
  readonly severity: Severity;
  readonly message: string;
}

export type EdgeKind =
  /** Execution continues at the next instruction (incl. a conditional branch not taken). */
  | 'fallthrough'
  /** s_branch, or a conditional branch taken. */
  | 'branch'
  /** s_setpc_b64 / s_swappc_b64 / s_call_b64 to a resolved target. */
  | 'jump'
  | 'call';

export interface Edge {
  readonly from: number;
  readonly to: number;
  readonly kind: EdgeKind;
}

export interface BasicBlock {
  /** Index in Cfg.blocks. */
  readonly id: number;
  /** pc of the first instruction. */
  readonly start: number;
  /** pc just past the last instruction. */
  readonly end: number;
  readonly instructions: readonly Instruction[];
  /** Outgoing edges, in the order: taken branch/jump first, then fallthrough. */
  readonly succs: readonly Edge[];
  readonly preds: readonly Edge[];
  /** How the block ends when it has no successor inside the program. */
  readonly exit?: 'endpgm' | 'trap' | 'halt' | 'unresolved-jump' | 'return' | 'invalid' | 'falls-off-end';
}

export interface Loop {
  /** Block id of the loop header. */
  readonly header: number;
  /** Block ids of the loop body (header included), ascending. */
  readonly blocks: readonly number[];
  /** Back edges (latch → header). */
  readonly backEdges: readonly Edge[];
  /** Header of the innermost enclosing loop, if any. */
  readonly parent?: number;
}

export interface Cfg {
  /** Block of the entry point (always 0). */
  readonly entry: number;
  /** Blocks reachable from the entry, ordered by start pc (block 0 is the entry block). */
  readonly blocks: readonly BasicBlock[];
  /** Reverse postorder of the blocks (for forward data flow). */
  readonly rpo: readonly number[];
  /** Immediate dominator of each block (-1 for the entry). */
  readonly idom: readonly number[];
  readonly loops: readonly Loop[];
  /** Words on reachable paths that do not decode (they end their block, exit 'invalid'). */
  readonly invalid: readonly InvalidWord[];
  /** What construction found: out-of-range branches, unresolved s_setpc, falling off the end, ... */
  readonly diagnostics: readonly Diagnostic[];
}
