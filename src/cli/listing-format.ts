// Listing records as bytes: objdump-style lines or JSON lines, written straight into a byte buffer
// (no per-line strings to join). Shared by the main thread and the disassembly workers, so both
// produce byte-identical output for the same record. Text is latin1: one byte per character, so
// names read from a file come out as the bytes they were.
import type { Target } from '../isa/types.js';
import { formatLong, printDecoded, type PrintContext } from '../disasm/index.js';
import { walkListing, type Label, type ListingEntry } from '../disasm/listing.js';
import { branchTarget } from '../disasm/scalar-fields.js';
import type { Instruction } from '../decode/types.js';

export type ListingFormat = 'text' | 'jsonl';

const HEX_UPPER = Buffer.from('0123456789ABCDEF', 'latin1');
const HEX_LOWER = Buffer.from('0123456789abcdef', 'latin1');
const SPACE = 0x20, NL = 0x0a, TAB = 0x09;
/** Column where objdump starts its `//` comment (after the tab). */
const COMMENT_COLUMN = 59;
/** Room reserved for one record besides its label name and instruction text. */
const RECORD_SLACK = 256;

interface Latin1Writable { latin1Write(s: string, offset: number): number }

/** An append-only byte buffer; full buffers are handed to `sink` (which may keep them). */
export class ByteSink {
  private buf: Buffer;
  off = 0;
  constructor(private readonly sink: (chunk: Uint8Array) => void, private readonly reuse: boolean, private readonly size = 1 << 20) {
    this.buf = Buffer.allocUnsafe(size);
  }
  /** Make room for n bytes without a flush in between. */
  reserve(n: number): void {
    if (this.off + n <= this.buf.length) return;
    this.flush();
    if (n > this.buf.length) this.buf = Buffer.allocUnsafe(n);
  }
  str(s: string): void {
    // Buffer#latin1Write is Buffer#write(s, off, 'latin1') without its argument handling (hot).
    this.off += (this.buf as unknown as Latin1Writable).latin1Write(s, this.off);
  }
  byte(b: number): void {
    this.buf[this.off++] = b;
  }
  fill(b: number, n: number): void {
    if (n > 0) this.buf.fill(b, this.off, this.off + n);
    this.off += Math.max(0, n);
  }
  hex(v: number, digits: number, table: Buffer = HEX_UPPER): void {
    for (let k = digits - 1; k >= 0; k--) this.buf[this.off + k] = table[(v >>> ((digits - 1 - k) * 4)) & 0xf] ?? 0;
    this.off += digits;
  }
  flush(): void {
    if (this.off === 0) return;
    const chunk = this.buf.subarray(0, this.off);
    this.sink(chunk);
    if (!this.reuse) this.buf = Buffer.allocUnsafe(this.size);
    this.off = 0;
  }
}

function writeAddr(out: ByteSink, pc: number, digits: number, table: Buffer): void {
  const hi = Math.floor(pc / 0x100000000);
  out.hex(hi, digits - 8, table);
  out.hex(pc >>> 0, 8, table);
}

function writeLabel(out: ByteSink, name: string, pc: number): void {
  out.byte(NL);
  writeAddr(out, pc, 16, HEX_LOWER);
  out.str(' <');
  out.str(name);
  out.str('>:\n');
}

/** One record: its label lines (text format) and its line, each line ending in a newline. */
/** `targets`: the section's symbols sorted by address, for objdump's branch-target notes (text only). */
export function writeRecord(out: ByteSink, e: ListingEntry, target: Target, ctx: PrintContext, format: ListingFormat, targets?: readonly Label[]): void {
  if ('zeroes' in e) {
    // Only the text format skips zero runs.
    out.reserve(RECORD_SLACK + (e.label?.length ?? 0));
    if (e.label !== undefined) writeLabel(out, e.label, e.zeroes.pc);
    out.str('\t\t...\n');
    return;
  }
  const d = e.decoded;
  if (format === 'jsonl') {
    const line = d.kind === 'invalid'
      ? `{"offset":${d.pc},"invalid":true,"words":[${d.words.join(',')}]}\n`
      : `{"offset":${d.pc},"text":${JSON.stringify(printDecoded(d, target, ctx))},"words":[${d.words.join(',')}]}\n`;
    out.reserve(line.length);
    out.str(line);
    return;
  }
  const text = d.kind === 'invalid' ? formatLong(d.words[0]) : printDecoded(d, target, ctx);
  const note = d.kind === 'instruction' && targets ? targetNote(d, ctx, targets) : '';
  out.reserve(RECORD_SLACK + text.length + note.length + (e.label?.length ?? 0));
  if (e.label !== undefined) writeLabel(out, e.label, d.pc);
  out.byte(TAB);
  out.str(text);
  out.fill(SPACE, COMMENT_COLUMN - text.length);
  out.str('// ');
  writeAddr(out, d.pc, 12, HEX_UPPER);
  out.byte(0x3a); // ':'
  for (let k = 0; k < d.words.length; k++) {
    out.byte(SPACE);
    out.hex(d.words[k] ?? 0, 8);
  }
  if (note) out.str(note);
  out.byte(NL);
}

/**
 * objdump's branch-target note after the words, ` <symbol+0xoff>`: for a branch (a `label`
 * operand; not s_call_b64, which LLVM's instruction analysis does not evaluate) whose target the
 * symbolizer did not already name, relative to the last symbol at or below the target (addresses
 * compared as unsigned 64-bit, the section's start as the fallback symbol).
 */
function targetNote(inst: Instruction, ctx: PrintContext, targets: readonly Label[]): string {
  const k = inst.def.operands.findIndex((o) => o.kind === 'label');
  if (k < 0 || inst.def.flags?.includes('call')) return '';
  const v = inst.operands[k]?.value;
  if (v === undefined || v.kind !== 'imm') return '';
  const target = branchTarget(inst, v.value);
  if (ctx.symbolAt?.(target) !== undefined) return '';
  const t = BigInt.asUintN(64, BigInt(target));
  let best: Label | undefined;
  for (let lo = 0, hi = targets.length - 1; lo <= hi;) {
    const mid = (lo + hi) >> 1;
    const l = targets[mid];
    if (l === undefined) break;
    if (BigInt(l.pc) <= t) { best = l; lo = mid + 1; } else hi = mid - 1;
  }
  if (best === undefined) return '';
  const off = BigInt.asUintN(64, t - BigInt(best.pc));
  return off === 0n ? ` <${best.name}>` : ` <${best.name}+0x${off.toString(16)}>`;
}

/** One record's bytes on their own (for the few records kept to join pieces). */
function recordBytes(e: ListingEntry, target: Target, ctx: PrintContext, format: ListingFormat, targets: readonly Label[]): Uint8Array {
  const parts: Uint8Array[] = [];
  const one = new ByteSink((c) => parts.push(c), false, 4096);
  writeRecord(one, e, target, ctx, format, targets);
  one.flush();
  return parts.length === 1 && parts[0] ? parts[0] : Buffer.concat(parts);
}

export function trailingText(pc: number, bytes: readonly number[], format: ListingFormat): string {
  const addr = Math.floor(pc / 0x100000000).toString(16).toUpperCase().padStart(4, '0') + (pc >>> 0).toString(16).toUpperCase().padStart(8, '0');
  return format === 'jsonl'
    ? `{"offset":${pc},"invalid":true,"bytes":[${bytes.join(',')}]}`
    : `\t.byte ${bytes.map((b) => '0x' + b.toString(16).padStart(2, '0')).join(', ')}`.padEnd(60) + '// ' + addr;
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

/** A record's first dword and its bytes. */
export type IndexedRecord = readonly [number, Uint8Array];

export interface RangeResult {
  readonly head: IndexedRecord[];
  /** Records after the head, up to `to`, in chunks (empty when they went to the caller's sink). */
  readonly body: Uint8Array[];
  readonly tail: IndexedRecord[];
}

/**
 * Format the records of [from, to), plus up to tailCount records past `to`. Body records go to
 * `out` when given (the caller flushes it), else into the result's `body` chunks.
 */
export function formatRange(job: RangeJob, out?: ByteSink): RangeResult {
  const untyped = new Map<number, string>(job.untyped);
  const ctx: PrintContext = untyped.size ? { symbolAt: (pc) => untyped.get(pc) } : {};
  const head: IndexedRecord[] = [];
  const tail: IndexedRecord[] = [];
  const body: Uint8Array[] = [];
  const sink = out ?? new ByteSink((c) => body.push(c), false);
  walkListing(job.target, job.words, job.basePc, job.labels, (e) => {
    const pc = 'zeroes' in e ? e.zeroes.pc : e.decoded.pc;
    const idx = (pc - job.basePc) / 4;
    const keep = idx >= job.to ? tail : head.length < job.headCount ? head : undefined;
    if (keep === undefined) {
      writeRecord(sink, e, job.target, ctx, job.format, job.labels);
      return true;
    }
    keep.push([idx, recordBytes(e, job.target, ctx, job.format, job.labels)]);
    return keep !== tail || tail.length < job.tailCount;
  }, { skipZeroes: job.format === 'text' }, job.from);
  if (!out) sink.flush();
  return { head, body, tail };
}
