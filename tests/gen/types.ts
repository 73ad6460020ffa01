import type { Target } from '../../src/isa/types.js';
import type { Rng } from '../harness/rng.js';

/**
 * Instruction-word generator for one encoding family. A case is the instruction's dwords
 * followed by any extra dwords it may read (literal, NSA address words); extra dwords that the
 * instruction does not consume are decoded as instructions of their own, by both sides.
 */
export interface CaseGenerator {
  readonly name: string;
  /** One random case, fields drawn with bias toward interesting values. */
  random(rng: Rng, target: Target): number[];
  /** Deterministic cases: every opcode of the table, special operands, modifier forms. */
  systematic(target: Target): number[][];
}
