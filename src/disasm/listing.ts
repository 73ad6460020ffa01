// Linear disassembly of a code range the way llvm-objdump walks it: decoding restarts at every
// label; an instruction may read dwords past the next label (to the end of the range).
import type { Target } from '../isa/types.js';
import type { Instruction, InvalidWord } from '../decode/types.js';
import { decodeAt } from '../decode/index.js';

export interface Label { readonly name: string; readonly pc: number }

export type ListingEntry =
  /** `label`: a label starts here (printed before the instruction). */
  | { readonly label?: string; readonly decoded: Instruction | InvalidWord }
  /** A run of zero dwords objdump leaves out (printed `\t\t...`). */
  | { readonly label?: string; readonly zeroes: { readonly pc: number; readonly size: number } };

export interface ListingOptions {
  /** Leave out runs of two or more zero dwords within a label's range, as objdump does without -z. */
  readonly skipZeroes?: boolean;
}

export interface TrailingEntry { readonly pc: number; readonly bytes: readonly number[] }

/**
 * Walk `words` (pc of word 0 is basePc). Labels must be sorted by pc; those outside the range or
 * not dword aligned are ignored. Calls `visit` for each record, in order, until it returns false.
 */
export function walkListing(
  target: Target,
  words: Uint32Array,
  basePc: number,
  labels: readonly Label[],
  visit: (e: ListingEntry) => boolean | void,
  options: ListingOptions = {},
  from = 0,
): void {
  const end = words.length;
  const starts: { idx: number; name: string }[] = [];
  for (const l of labels) {
    const rel = l.pc - basePc;
    if (rel < 0 || rel >= end * 4 || (rel & 3) !== 0) continue;
    const idx = rel >>> 2;
    const prev = starts[starts.length - 1];
    if (prev && prev.idx === idx) continue; // first label at an address wins
    if (prev && prev.idx > idx) throw new Error('walkListing: labels must be sorted by pc');
    starts.push({ idx, name: l.name });
  }
  // `from` must be where a record starts (the range start, a label, or where an earlier walk's
  // record started); walking from it gives the same records as walking from the start.
  let si = 0;
  while (si < starts.length && (starts[si]?.idx ?? 0) < from) si++;
  let i = from;
  while (i < end) {
    const next = starts[si];
    let label: string | undefined;
    if (next && next.idx <= i) {
      // A label inside the previous instruction restarts decoding at the label.
      i = next.idx;
      label = next.name;
      si++;
    }
    const stop = starts[si]?.idx ?? end;
    if (options.skipZeroes && words[i] === 0 && i + 1 < stop && words[i + 1] === 0) {
      // objdump skips 8 or more zero bytes, in whole dwords, up to the end of the label's range.
      let k = i + 2;
      while (k < stop && words[k] === 0) k++;
      const zeroes = { pc: basePc + i * 4, size: (k - i) * 4 };
      if (visit(label === undefined ? { zeroes } : { label, zeroes }) === false) return;
      i = k;
      continue;
    }
    const d = decodeAt(target, words, i, end, basePc + i * 4);
    if (visit(label === undefined ? { decoded: d } : { label, decoded: d }) === false) return;
    i += d.size >>> 2;
    if (i > stop && si < starts.length) i = stop; // defensive: never skip a label
  }
}
