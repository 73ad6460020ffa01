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
    const r = spawnSync(OBJDUMP, ['-d', '--disassemble-zeroes', `--mcpu=${target}`, file], { encoding: 'utf8', maxBuffer: 1 << 30 });
    if (r.error) throw new Error(`cannot run ${OBJDUMP}: ${r.error.message}`);
    return { ok: r.status === 0, stdout: r.stdout, stderr: r.stderr, status: r.status, signal: r.signal };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface CaseLayout { readonly text: Uint8Array; readonly starts: readonly number[]; readonly ends: readonly number[]; readonly elf: Uint8Array }

export function layoutCases(target: Target, cases: readonly (readonly number[])[]): CaseLayout {
  const all: number[] = [];
  const starts: number[] = [];
  const ends: number[] = [];
  for (const c of cases) {
    starts.push(all.length * 4);
    all.push(...c);
    ends.push(all.length * 4);
  }
  const text = wordsToBytes(all);
  const elf = writeElf(target, text, cases.map((_, i) => ({ name: `c${i}`, offset: starts[i] ?? 0, size: (ends[i] ?? 0) - (starts[i] ?? 0) })));
  return { text, starts, ends, elf };
}

/**
 * Disassemble cases with LLVM; LLVM crashes on some byte sequences, so a crashing batch is split
 * until the crashing cases are isolated. Returns per-case lines, or 'crash' for those cases.
 */
export function llvmDisassemble(target: Target, cases: readonly (readonly number[])[]): (LlvmLine[] | 'crash')[] {
  // Batches bound the cost of bisecting a crash; addresses are kept as in one layout of all cases.
  const BATCH = 8192;
  if (cases.length <= BATCH) return disassembleBatch(target, cases);
  const out: (LlvmLine[] | 'crash')[] = [];
  let shift = 0;
  for (let i = 0; i < cases.length; i += BATCH) {
    const part = cases.slice(i, i + BATCH);
    for (const r of disassembleBatch(target, part)) out.push(r === 'crash' ? r : r.map((l) => ({ ...l, offset: l.offset + shift })));
    shift += part.reduce((n, c) => n + c.length * 4, 0);
  }
  return out;
}

function disassembleBatch(target: Target, cases: readonly (readonly number[])[]): (LlvmLine[] | 'crash')[] {
  if (cases.length === 0) return [];
  const lay = layoutCases(target, cases);
  const r = runObjdump(target, lay.elf);
  if (r.ok) {
    const bySym = parseObjdump(r.stdout);
    return cases.map((_, i) => bySym.get(`c${i}`) ?? []);
  }
  if (cases.length === 1) return ['crash'];
  const mid = cases.length >>> 1;
  // The second half is laid out again from offset 0: shift its addresses back into place.
  const shift = cases.slice(0, mid).reduce((n, c) => n + c.length * 4, 0);
  const second = disassembleBatch(target, cases.slice(mid)).map((r) => (r === 'crash' ? r : r.map((l) => ({ ...l, offset: l.offset + shift }))));
  return [...disassembleBatch(target, cases.slice(0, mid)), ...second];
}
