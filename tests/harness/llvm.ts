// Runs LLVM 19 (the oracle) on generated cases and parses llvm-objdump-19 -d output.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Target } from '../../src/isa/types.js';
import { wordsToBytes, writeElf } from './elf-writer.js';

export const OBJDUMP = process.env['RDNA_LLVM_OBJDUMP'] ?? 'llvm-objdump-19';
export const LLVM_MC = process.env['RDNA_LLVM_MC'] ?? 'llvm-mc-19';

export interface LlvmLine {
  readonly offset: number;
  readonly text: string;
  readonly words: readonly number[];
}

// After the words objdump may append a branch target `<sym+0x..>` and/or a disassembler
// comment such as `; Warning: SGPR_64: scalar reg isn't aligned 3`; neither is part of the text.
const LINE_RE = /^\t(.*?)\s*\/\/ ([0-9A-F]+): ((?:[0-9A-F]{8}(?: |$))+)(?:.*)$/;
const SYM_RE = /^[0-9a-f]+ <(.*)>:$/;

/** Parse objdump -d output into instruction lines grouped by symbol. */
export function parseObjdump(out: string): Map<string, LlvmLine[]> {
  const bySym = new Map<string, LlvmLine[]>();
  let cur: LlvmLine[] | undefined;
  for (const line of out.split('\n')) {
    const sm = SYM_RE.exec(line);
    if (sm) {
      cur = [];
      bySym.set(sm[1] ?? '', cur);
      continue;
    }
    const m = LINE_RE.exec(line);
    if (m && cur) {
      const words = (m[3] ?? '').trim().split(/\s+/).map((h) => parseInt(h, 16) >>> 0);
      cur.push({ offset: parseInt(m[2] ?? '0', 16), text: m[1] ?? '', words });
    } else if (line.startsWith('\t') && cur) {
      throw new Error(`unparsed objdump line: ${JSON.stringify(line)}`);
    }
  }
  return bySym;
}

export interface ObjdumpResult { readonly ok: boolean; readonly stdout: string; readonly stderr: string; readonly status: number | null; readonly signal: string | null }

export function runObjdump(target: Target, elf: Uint8Array): ObjdumpResult {
  const dir = mkdtempSync(join(tmpdir(), 'rdna-llvm-'));
  try {
    const file = join(dir, 'cases.o');
    writeFileSync(file, elf);
    const r = spawnSync(OBJDUMP, ['-d', '--disassemble-zeroes', `--mcpu=${target}`, file], { encoding: 'utf8', maxBuffer: 1 << 30, env: { ...process.env, LLVM_DISABLE_SYMBOLIZATION: '1' } });
    // (A crash would otherwise start llvm-symbolizer for its stack trace: slow, and of no use here.)
    if (r.error) throw new Error(`cannot run ${OBJDUMP}: ${r.error.message}`);
    return { ok: r.status === 0, stdout: r.stdout, stderr: r.stderr, status: r.status, signal: r.signal };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface CaseLayout { readonly text: Uint8Array; readonly starts: readonly number[]; readonly ends: readonly number[]; readonly elf: Uint8Array }

/**
 * One symbol per case. By default the symbols are functions (STT_FUNC), which objdump's
 * symbolizer does not use for branch targets; `untyped` makes them STT_NOTYPE labels, which it does.
 */
export function layoutCases(target: Target, cases: readonly (readonly number[])[], untyped = false): CaseLayout {
  const all: number[] = [];
  const starts: number[] = [];
  const ends: number[] = [];
  for (const c of cases) {
    starts.push(all.length * 4);
    all.push(...c);
    ends.push(all.length * 4);
  }
  const text = wordsToBytes(all);
  const elf = writeElf(target, text, cases.map((_, i) => ({ name: `c${i}`, offset: starts[i] ?? 0, size: (ends[i] ?? 0) - (starts[i] ?? 0), type: untyped ? 0 : 2 })));
  return { text, starts, ends, elf };
}

/** LLVM's lines for one case, and the end (byte offset) of the input it was disassembled in. */
export type LlvmCase = 'crash' | { readonly lines: LlvmLine[]; readonly end: number };

/**
 * Disassemble cases with LLVM; LLVM crashes on some byte sequences, so a crashing batch is split
 * until the crashing cases are isolated. Returns per-case lines, or 'crash' for those cases.
 */
export function llvmDisassemble(target: Target, cases: readonly (readonly number[])[]): (LlvmLine[] | 'crash')[] {
  return llvmDisassembleCases(target, cases).map((r) => (r === 'crash' ? r : r.lines));
}

const bytesOf = (cases: readonly (readonly number[])[]) => cases.reduce((n, c) => n + c.length * 4, 0);
const shifted = (r: LlvmCase, shift: number): LlvmCase =>
  r === 'crash' ? r : { lines: r.lines.map((l) => ({ ...l, offset: l.offset + shift })), end: r.end + shift };

/**
 * As llvmDisassemble, with addresses as in one layout of all cases, and for each case the end of
 * the input LLVM saw (a split batch ends earlier: an instruction at its end sees no more dwords).
 */
export function llvmDisassembleCases(target: Target, cases: readonly (readonly number[])[]): LlvmCase[] {
  // Batches bound the cost of bisecting a crash.
  const BATCH = 8192;
  const out: LlvmCase[] = [];
  let shift = 0;
  for (let i = 0; i < cases.length; i += BATCH) {
    const part = cases.slice(i, i + BATCH);
    for (const r of disassembleBatch(target, part)) out.push(shifted(r, shift));
    shift += bytesOf(part);
  }
  return out;
}

function disassembleBatch(target: Target, cases: readonly (readonly number[])[]): LlvmCase[] {
  if (cases.length === 0) return [];
  const lay = layoutCases(target, cases);
  const r = runObjdump(target, lay.elf);
  if (r.ok) {
    const bySym = parseObjdump(r.stdout);
    const end = lay.text.length;
    return cases.map((_, i) => ({ lines: bySym.get(`c${i}`) ?? [], end }));
  }
  if (cases.length === 1) return ['crash'];
  const mid = cases.length >>> 1;
  // The second half is laid out again from offset 0: shift its addresses back into place.
  const shift = bytesOf(cases.slice(0, mid));
  return [...disassembleBatch(target, cases.slice(0, mid)), ...disassembleBatch(target, cases.slice(mid)).map((x) => shifted(x, shift))];
}
