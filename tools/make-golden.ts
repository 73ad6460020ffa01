// Golden lines from the oracle: npm run make-golden -- NAME TARGET[,TARGET] < words.txt
// Each input line holds one instruction's dwords in hex (e.g. "BE8003FF 12345678"); '#' lines
// are copied as comments. LLVM 19 disassembles each; the line `TARGET<TAB>WORDS<TAB>TEXT` is
// appended to tests/golden/NAME.txt. The expected text is LLVM's, never rdna's.
import { appendFileSync, readFileSync } from 'node:fs';
import { isTarget } from '../src/isa/table.js';
import type { Target } from '../src/isa/types.js';
import { llvmDisassemble } from '../tests/harness/llvm.js';

const [name, targetList] = process.argv.slice(2);
if (!name || !targetList) { console.error('usage: make-golden NAME TARGET[,TARGET...] < words.txt'); process.exit(2); }
const targets = targetList.split(',').filter(isTarget) as Target[];
const input = readFileSync(0, 'utf8').split('\n').map((l) => l.trim()).filter((l) => l.length > 0);
const out: string[] = [];
for (const t of targets) {
  const entries = input.filter((l) => !l.startsWith('#')).map((l) => l.split(/[\s,]+/).map((h) => parseInt(h.replace(/^0x/i, ''), 16) >>> 0));
  const res = llvmDisassemble(t, entries);
  let k = 0;
  for (const l of input) {
    if (l.startsWith('#')) { out.push(l); continue; }
    const r = res[k];
    const ws = entries[k] ?? [];
    k++;
    if (r === 'crash' || r === undefined || r.length === 0) { console.error(`LLVM gives no line for ${l} on ${t}; skipped`); continue; }
    const first = r[0];
    if (!first) continue;
    // A `.long` keeps every input dword: its invalidity may depend on the dwords after it.
    const used = first.text.startsWith('.long') ? ws : ws.slice(0, first.words.length);
    out.push(`${t}\t${used.map((w) => w.toString(16).toUpperCase().padStart(8, '0')).join(' ')}\t${first.text}`);
  }
}
appendFileSync(`tests/golden/${name}.txt`, out.join('\n') + '\n');
console.log(`appended ${out.length} lines to tests/golden/${name}.txt`);
