// Operand records shared between the instructions of one definition. An operand record is its
// definition operand's name and a value that depends only on the field's code (register and
// inline-constant values are shared already: operands.ts), records are read-only and nothing
// compares them by identity: so the decoders make one record per (definition, operand, code)
// and a decoded kernel holds one per distinct operand rather than one per operand (the records
// live as long as the CFG, and were most of what decoding kept).
import type { InstrDef } from '../isa/types.js';
import type { Modifiers, Operand } from './types.js';

/** By definition: per operand index, the records by field code (0..511), each list made at first use. */
const SHARED = new Map<InstrDef, ((Operand | undefined)[] | undefined)[]>();

/**
 * The record slots of `def`'s operands, by operand index (a list made at first use:
 * `slotsAt`): per operand, the records by field code (0..511). A decoder takes the record at the
 * code if there is one; else it decodes and checks the field as before and, for a valid value
 * that depends only on the code (not a literal), stores the record it makes there.
 */
export function sharedSlots(def: InstrDef): ((Operand | undefined)[] | undefined)[] {
  let perDef = SHARED.get(def);
  if (perDef === undefined) {
    perDef = new Array<(Operand | undefined)[] | undefined>(def.operands.length).fill(undefined);
    SHARED.set(def, perDef);
  }
  return perDef;
}

/** Operand `k`'s slots in `sharedSlots(def)`. */
export function slotsAt(perDef: ((Operand | undefined)[] | undefined)[], k: number): (Operand | undefined)[] {
  // Made at full length (a holey array filled far past its end would be a dictionary).
  return (perDef[k] ??= new Array<Operand | undefined>(512).fill(undefined));
}

/** By definition: per operand index, the immediate records by value (16-bit fields: a Map, not slots). */
const SHARED_IMMS = new Map<InstrDef, (Map<number, Operand> | undefined)[]>();

/** The shared record of immediate `value` of `def`'s operand `k`, named `name` (made at its first use). */
export function sharedImm(def: InstrDef, k: number, name: string, value: number): Operand {
  let perDef = SHARED_IMMS.get(def);
  if (perDef === undefined) { perDef = new Array<Map<number, Operand> | undefined>(def.operands.length).fill(undefined); SHARED_IMMS.set(def, perDef); }
  const imms = (perDef[k] ??= new Map());
  let o = imms.get(value);
  if (o === undefined) { o = { name, value: { kind: 'imm', value } }; imms.set(value, o); }
  return o;
}

/**
 * The operand list and words of a one-dword instruction by (definition, word): without a literal
 * the word alone gives every operand, and code repeats its words (the same register moves,
 * compares, adds), so such instructions share these two lists too (read-only, as the records).
 * Bounded: past WORDS_LIMIT words the lists are forgotten and made again as they come.
 */
export interface WordLists { readonly words: readonly number[]; readonly operands: readonly Operand[] }
/** WordLists with the definition they were decoded under: the key is the word, and the definition is checked (one Map lookup, not one per key). */
interface KeptWord extends WordLists { readonly def: InstrDef; /** The word as a signed 32-bit integer (the key). */ readonly key: number }
const WORDS_LIMIT = 1 << 16;
let byWord = new Map<number, KeptWord>();
let wordCount = 0;

/**
 * In front of byWord: the lists last found for a word, by a hash of the word into FRONT_SIZE
 * slots (an array read and two comparisons, cheaper than the Map's lookup; code repeats a few
 * hundred words). An entry answers only for its own word and definition, as byWord's.
 */
const FRONT_BITS = 12;
const FRONT_SIZE = 1 << FRONT_BITS;
const front = new Array<KeptWord | undefined>(FRONT_SIZE).fill(undefined);

/** The lists of one-dword `w` of `def` if made already. */
export function listsOf(def: InstrDef, w: number): WordLists | undefined {
  // Keyed by the word as a signed 32-bit integer: a word of 2^31 and above (every scalar
  // encoding's) read from a Uint32Array is a heap number, which a Map hashes more slowly and
  // which a call boxes; `w | 0` is a small integer and names the same word. A word decoded under
  // another definition (another target's) is no answer.
  const key = w | 0;
  const h = Math.imul(key, 0x9e3779b1) >>> (32 - FRONT_BITS);
  const f = front[h];
  if (f !== undefined && f.key === key && f.def === def) return f;
  const l = byWord.get(key);
  if (l === undefined || l.def !== def) return undefined;
  front[h] = l;
  return l;
}

/** Records the lists of one-dword `w` of `def` (whose operands `operands` are, no literal among them); returns them. */
export function keepLists(def: InstrDef, w: number, operands: readonly Operand[]): WordLists {
  if (wordCount >= WORDS_LIMIT) { byWord = new Map(); wordCount = 0; front.fill(undefined); }
  // Replaces the lists of the word under another definition, if any.
  const l: KeptWord = { words: [w], operands, def, key: w | 0 };
  byWord.set(l.key, l);
  wordCount++;
  return l;
}

/**
 * The lists and modifiers of a two-dword instruction by its words, as `listsOf` for one dword:
 * VOP3 by its layout, a scalar or e32 instruction with a literal by its definition. A VOP3
 * instruction with a literal has a third dword, the literal, which its lists answer for too.
 */
export interface PairLists { readonly words: readonly number[]; readonly operands: readonly Operand[]; readonly mods: Modifiers }
/** PairLists with the layout they were decoded under, checked as KeptWord's definition. */
interface KeptPair extends PairLists {
  readonly layout: object;
  /** The words as signed 32-bit integers (the key). */
  readonly key0: number;
  readonly key1: number;
  /** The third word (a literal) as a signed 32-bit integer, for lists of three words (0 for two). */
  readonly key2: number;
  readonly three: boolean;
}
let byPair = new Map<number, Map<number, KeptPair>>();
/**
 * The lists of three words (a VOP3 or MUBUF instruction and its literal) by all three: the first two
 * words alone decide the operands' fields, but the literal is an operand too, and code uses one
 * pair with many literals (v_fma_f32 with several constants): keyed by the pair alone, each
 * literal's lists replaced the last one's and every decode missed.
 */
let byTriple = new Map<number, Map<number, Map<number, KeptPair>>>();
let pairCount = 0;
/** In front of byPair and byTriple, as `front` of byWord: by a hash of the first two words. */
const pairFront = new Array<KeptPair | undefined>(FRONT_SIZE).fill(undefined);

/**
 * The lists of words w0, w1 under `layout` if made already. `w2`: the word after them (undefined
 * past the end of the code), which lists of three words must have as their third.
 */
export function pairListsOf(layout: object, w0: number, w1: number, w2?: number): PairLists | undefined {
  // Keyed by the words as signed 32-bit integers, as listsOf's.
  const k0 = w0 | 0, k1 = w1 | 0;
  const h = Math.imul(k0 ^ Math.imul(k1, 0x85ebca6b), 0x9e3779b1) >>> (32 - FRONT_BITS);
  const f = pairFront[h];
  if (f !== undefined && f.key0 === k0 && f.key1 === k1 && f.layout === layout && (!f.three || (w2 !== undefined && f.key2 === (w2 | 0)))) return f;
  let l = byPair.get(k0)?.get(k1);
  if (l === undefined || l.layout !== layout) {
    if (w2 === undefined) return undefined;
    l = byTriple.get(k0)?.get(k1)?.get(w2 | 0);
    if (l === undefined || l.layout !== layout) return undefined;
  }
  pairFront[h] = l;
  return l;
}

/**
 * Records the lists of words w0, w1 (and w2, if given) under `layout` (operands that the words
 * alone give); returns them.
 */
export function keepPairLists(layout: object, w0: number, w1: number, operands: readonly Operand[], mods: Modifiers, w2?: number): PairLists {
  if (pairCount >= WORDS_LIMIT) { byPair = new Map(); byTriple = new Map(); pairCount = 0; pairFront.fill(undefined); }
  const k0 = w0 | 0, k1 = w1 | 0;
  // Replaces the lists of the words under another layout, if any.
  if (w2 === undefined) {
    let m = byPair.get(k0);
    if (m === undefined) { m = new Map(); byPair.set(k0, m); }
    const l: KeptPair = { words: [w0, w1], operands, mods, layout, key0: k0, key1: k1, key2: 0, three: false };
    m.set(k1, l);
    pairCount++;
    return l;
  }
  let m = byTriple.get(k0);
  if (m === undefined) { m = new Map(); byTriple.set(k0, m); }
  let t = m.get(k1);
  if (t === undefined) { t = new Map(); m.set(k1, t); }
  const l: KeptPair = { words: [w0, w1, w2], operands, mods, layout, key0: k0, key1: k1, key2: w2 | 0, three: true };
  t.set(l.key2, l);
  pairCount++;
  return l;
}
