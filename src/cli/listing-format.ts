// Listing records as text: objdump-style lines or JSON lines. Shared by the main thread and the
// disassembly workers, so that both produce byte-identical output for the same record.
import type { Target } from '../isa/types.js';
import { formatLong, printDecoded, type PrintContext } from '../disasm/index.js';
import { walkListing, type Label, type ListingEntry } from '../disasm/listing.js';

export type ListingFormat = 'text' | 'jsonl';

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).toUpperCase().padStart(2, '0'));
function hex8(w: number): string {
  return (HEX[(w >>> 24) & 0xff] ?? '') + (HEX[(w >>> 16) & 0xff] ?? '') + (HEX[(w >>> 8) & 0xff] ?? '') + (HEX[w & 0xff] ?? '');
}
export function addr12(pc: number): string {
  const hi = Math.floor(pc / 0x100000000) & 0xffff;
  return (HEX[hi >>> 8] ?? '') + (HEX[hi & 0xff] ?? '') + hex8(pc >>> 0);
}
const PAD = ' '.repeat(64);

function labelLine(name: string, pc: number): string {
  return `\n${pc.toString(16).padStart(16, '0')} <${name}>:\n`;
}

/** The text of one record: its label lines (text format) and its line, without a final newline. */
export function recordText(e: ListingEntry, target: Target, ctx: PrintContext, format: ListingFormat): string {
  if ('zeroes' in e) {
    // Only the text format skips zero runs.
    return (e.label !== undefined ? labelLine(e.label, e.zeroes.pc) : '') + '\t\t...';
  }
  const d = e.decoded;
  if (format === 'jsonl') {
    const words = '[' + d.words.join(',') + ']';
    return d.kind === 'invalid'
      ? `{"offset":${d.pc},"invalid":true,"words":${words}}`
      : `{"offset":${d.pc},"text":${JSON.stringify(printDecoded(d, target, ctx))},"words":${words}}`;
  }
  const text = d.kind === 'invalid' ? formatLong(d.words[0]) : printDecoded(d, target, ctx);
  let ws = hex8(d.words[0] ?? 0);
  for (let k = 1; k < d.words.length; k++) ws += ' ' + hex8(d.words[k] ?? 0);
  const line = '\t' + (text.length < 59 ? text + PAD.slice(0, 59 - text.length) : text) + '// ' + addr12(d.pc) + ': ' + ws;
  return e.label !== undefined ? labelLine(e.label, d.pc) + line : line;
}

export function trailingText(pc: number, bytes: readonly number[], format: ListingFormat): string {
  return format === 'jsonl'
    ? `{"offset":${pc},"invalid":true,"bytes":[${bytes.join(',')}]}`
    : `\t.byte ${bytes.map((b) => '0x' + (HEX[b] ?? '').toLowerCase()).join(', ')}`.padEnd(60) + '// ' + addr12(pc);
}

/** One piece of a section's listing, as a worker (or the main thread) formats it. */
export interface RangeJob {
  readonly target: Target;
  readonly words: Uint32Array;
  readonly basePc: number;
  readonly labels: readonly Label[];
  /** Untyped symbols for the symbolizer: [pc, name]. */
  readonly untyped: readonly (readonly [number, string])[];
  readonly format: ListingFormat;
  /** First dword; for a speculative piece not necessarily where a record starts. */
  readonly from: number;
  /** Records starting at or after this dword belong to the next piece (they go to `tail`). */
  readonly to: number;
  /** Records kept separately at the start (to find where the previous piece meets this one). */
  readonly headCount: number;
  /** Records kept past `to` (to find where this piece meets the next). */
  readonly tailCount: number;
}

export type IndexedText = readonly [number, string];

export interface RangeResult {
  readonly head: IndexedText[];
  /** Records after the head, up to `to`, each followed by a newline, as latin1 bytes in chunks. */
  readonly body: Uint8Array[];
  readonly tail: IndexedText[];
}

const CHUNK_RECORDS = 4096;

/**
 * Format the records of [from, to), plus up to tailCount records past `to`. When `emit` is given,
 * body records go to it as they are made instead of into `body`.
 */
export function formatRange(job: RangeJob, emit?: (line: string) => void): RangeResult {
  const untyped = new Map<number, string>(job.untyped);
  const ctx: PrintContext = untyped.size ? { symbolAt: (pc) => untyped.get(pc) } : {};
  const head: IndexedText[] = [];
  const tail: IndexedText[] = [];
  const body: Uint8Array[] = [];
  let pending: string[] = [];
  const seal = () => {
    if (pending.length) body.push(Buffer.from(pending.join('\n') + '\n', 'latin1'));
    pending = [];
  };
  walkListing(job.target, job.words, job.basePc, job.labels, (e) => {
    const pc = 'zeroes' in e ? e.zeroes.pc : e.decoded.pc;
    const idx = (pc - job.basePc) / 4;
    const text = recordText(e, job.target, ctx, job.format);
    if (idx >= job.to) {
      tail.push([idx, text]);
      return tail.length < job.tailCount;
    }
    if (head.length < job.headCount) head.push([idx, text]);
    else if (emit) emit(text);
    else if (pending.push(text) >= CHUNK_RECORDS) seal();
    return true;
  }, { skipZeroes: job.format === 'text' }, job.from);
  seal();
  return { head, body, tail };
}
