// Golden tests: per family, instruction words beside the LLVM 19 text they must print as.
// The files are made by tools/make-golden.ts from LLVM's output; this test checks rdna against
// them and, where LLVM 19 is installed (always in CI), re-checks the files against LLVM.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { decodeAt } from '../src/decode/index.js';
import { printDecoded } from '../src/disasm/index.js';
import { isTarget } from '../src/isa/table.js';
import type { Target } from '../src/isa/types.js';
import { llvmDisassemble, OBJDUMP } from './harness/llvm.js';

interface GoldenLine { file: string; line: number; target: Target; words: number[]; text: string }

function loadGolden(): GoldenLine[] {
  const dir = new URL('./golden/', import.meta.url);
  const out: GoldenLine[] = [];
  for (const f of readdirSync(dir).filter((n) => n.endsWith('.txt')).sort()) {
    readFileSync(new URL(f, dir), 'utf8').split('\n').forEach((l, i) => {
      if (l.trim() === '' || l.startsWith('#')) return;
      const [t, w, text] = l.split('\t');
      if (!t || !isTarget(t) || w === undefined || text === undefined) throw new Error(`${f}:${i + 1}: malformed golden line`);
      out.push({ file: f, line: i + 1, target: t, words: w.split(' ').map((h) => parseInt(h, 16) >>> 0), text });
    });
  }
  return out;
}

const golden = loadGolden();

/** A `.long` line holds the dwords after the invalid one too (they decide its invalidity). */
function expectedSize(g: GoldenLine): number {
  return g.text.startsWith('.long') ? 4 : g.words.length * 4;
}
const hasLlvm = spawnSync(OBJDUMP, ['--version']).status === 0;

test('golden files are not empty', () => {
  assert.ok(golden.length > 0);
});

test('rdna prints every golden instruction as LLVM 19 does', () => {
  const bad: string[] = [];
  for (const g of golden) {
    const words = Uint32Array.from(g.words);
    const d = decodeAt(g.target, words, 0, words.length, 0);
    let text: string;
    try { text = printDecoded(d, g.target); } catch (e) { text = `<threw ${String(e)}>`; }
    if (text !== g.text || d.size !== expectedSize(g)) bad.push(`${g.file}:${g.line} ${g.target}: want "${g.text}" (${g.words.length} dw), got "${text}" (${d.size / 4} dw)`);
  }
  assert.deepEqual(bad, []);
});

test('golden files agree with LLVM 19', () => {
  assert.ok(hasLlvm, `${OBJDUMP} is required (scripts/test.sh installs it)`);
  const bad: string[] = [];
  for (const t of new Set(golden.map((g) => g.target))) {
    const lines = golden.filter((g) => g.target === t);
    const res = llvmDisassemble(t, lines.map((g) => g.words));
    lines.forEach((g, i) => {
      const r = res[i];
      const first = r === 'crash' || r === undefined ? undefined : r[0];
      if (!first || first.text !== g.text || first.words.length * 4 !== expectedSize(g)) bad.push(`${g.file}:${g.line}: LLVM says "${first?.text}"`);
    });
  }
  assert.deepEqual(bad, []);
});
