// Differential comparison of rdna's decoder + printer against LLVM 19 on generated cases.
import type { Target } from '../../src/isa/types.js';
import { decodeAt, encodingOf, toWords } from '../../src/decode/index.js';
import { printDecoded, type PrintContext } from '../../src/disasm/index.js';
import type { Decoded } from '../../src/decode/types.js';
import { layoutCases, llvmDisassembleCases } from './llvm.js';

export interface Mismatch {
  readonly caseIndex: number;
  readonly offset: number;
  readonly caseWords: readonly number[];
  readonly llvm: string;
  readonly ours: string;
  /** Encoding of the first word of the diverging line (by prefix). */
  readonly encoding: string;
}

export interface DiffReport {
  readonly cases: number;
  readonly lines: number;
  readonly crashes: readonly (readonly number[])[];
  readonly mismatches: readonly Mismatch[];
}

const hexw = (w: number) => (w >>> 0).toString(16).toUpperCase().padStart(8, '0');

function ourLine(d: Decoded, target: Target, ctx: PrintContext): string {
  try {
    return printDecoded(d, target, ctx);
  } catch (e) {
    return `<printer threw: ${e instanceof Error ? e.message : String(e)}>`;
  }
}

/** Compare all cases on one target. Cases LLVM crashes on are reported, not compared. */
export function diffCases(target: Target, cases: readonly (readonly number[])[]): DiffReport {
  // One ELF per batch, the same bytes for LLVM and for rdna (an instruction at the end of a batch
  // sees the same end of input on both sides).
  const BATCH = 8192;
  const mismatches: Mismatch[] = [];
  const crashes: (readonly number[])[] = [];
  let lines = 0;
  for (let b = 0; b < cases.length; b += BATCH) {
    const rep = diffBatch(target, cases.slice(b, b + BATCH));
    lines += rep.lines;
    crashes.push(...rep.crashes);
    for (const m of rep.mismatches) mismatches.push({ ...m, caseIndex: m.caseIndex + b });
  }
  return { cases: cases.length, lines, crashes, mismatches };
}

function diffBatch(target: Target, cases: readonly (readonly number[])[]): DiffReport {
  const llvm = llvmDisassembleCases(target, cases);
  const lay = layoutCases(target, cases);
  const words = toWords(lay.text);
  // Case symbols are STT_FUNC: objdump names no branch target after them (tests/cli.test.ts covers
  // the symbolizer with untyped labels).
  const ctx: PrintContext = {};
  const mismatches: Mismatch[] = [];
  const crashes: (readonly number[])[] = [];
  let lines = 0;
  cases.forEach((c, ci) => {
    const got = llvm[ci];
    if (got === 'crash' || got === undefined) {
      crashes.push(c);
      return;
    }
    const ref = got.lines;
    const inputEnd = got.end >>> 2; // the end of the input LLVM saw for this case
    const start = lay.starts[ci] ?? 0;
    const end = lay.ends[ci] ?? 0;
    let pc = start;
    let li = 0;
    while (pc < end) {
      const d = decodeAt(target, words, pc >>> 2, inputEnd, pc);
      const ours = ourLine(d, target, ctx) + '  ' + d.words.map(hexw).join(' ');
      const r = ref[li];
      const theirs = r === undefined ? '<no line>' : r.text + '  ' + r.words.map(hexw).join(' ');
      lines++;
      if (r === undefined || r.offset !== pc || ours !== theirs) {
        mismatches.push({
          caseIndex: ci, offset: pc - start, caseWords: c, llvm: theirs, ours,
          encoding: encodingOf(words[pc >>> 2] ?? 0) ?? 'none',
        });
        return; // the rest of the case is out of step
      }
      pc += d.size;
      li++;
    }
    if (li < ref.length) {
      const r = ref[li];
      mismatches.push({ caseIndex: ci, offset: pc - start, caseWords: c, llvm: r ? r.text : '', ours: '<no line>', encoding: 'none' });
    }
  });
  return { cases: cases.length, lines, crashes, mismatches };
}

export function formatMismatch(m: Mismatch): string {
  return `[${m.encoding}] case ${m.caseIndex} +${m.offset} words ${m.caseWords.map(hexw).join(' ')}\n    llvm: ${m.llvm}\n    rdna: ${m.ours}`;
}
