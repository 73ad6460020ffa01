// npm run bench:decode [-- --instructions N --runs R --target T]
// Builds an ELF holding N (default 1,000,000) valid gfx10 instructions drawn from every
// generator family, then times whole processes, interleaved: `rdna disasm FILE` (the built
// bin/rdna) against `llvm-objdump-19 -d FILE`, both writing to /dev/null. Prints each run and the
// median ratio rdna/llvm-objdump (< 0.5 is the target).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, openSync, closeSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeAt } from '../src/decode/index.js';
import { isTarget } from '../src/isa/table.js';
import type { Target } from '../src/isa/types.js';
import { ALL_GENERATORS } from '../tests/gen/index.js';
import { Rng } from '../tests/harness/rng.js';
import { wordsToBytes, writeElf } from '../tests/harness/elf-writer.js';
import { OBJDUMP } from '../tests/harness/llvm.js';

const args = process.argv.slice(2);
const opt = (name: string, def: string) => { const i = args.indexOf(`--${name}`); return i >= 0 ? (args[i + 1] ?? def) : def; };
const count = Number(opt('instructions', '1000000'));
const runs = Number(opt('runs', '5'));
const t = opt('target', 'gfx1030');
if (!isTarget(t)) throw new Error(`bad target ${t}`);
const target: Target = t;

function buildProgram(): number[] {
  const rng = new Rng(12345);
  const words: number[] = [];
  let n = 0;
  while (n < count) {
    const g = rng.pick(ALL_GENERATORS);
    const c = Uint32Array.from(g.random(rng, target));
    const d = decodeAt(target, c, 0, c.length, 0);
    if (d.kind !== 'instruction') continue;
    for (let k = 0; k < d.words.length; k++) words.push(d.words[k] ?? 0);
    n++;
  }
  words.push(0xbf810000); // s_endpgm
  return words;
}

const words = buildProgram();
const dir = mkdtempSync(join(tmpdir(), 'rdna-bench-'));
const file = join(dir, `bench.${target}.o`);
writeFileSync(file, writeElf(target, wordsToBytes(words), [{ name: 'bench', offset: 0, size: words.length * 4 }]));
console.log(`${file}: ${count} instructions, ${words.length} dwords`);

const bin = new URL('../bin/rdna', import.meta.url).pathname;
function time(cmd: string, argv: string[]): number {
  const fd = openSync('/dev/null', 'w');
  const t0 = process.hrtime.bigint();
  const r = spawnSync(cmd, argv, { stdio: ['ignore', fd, 'pipe'], maxBuffer: 1 << 26 });
  const dt = Number(process.hrtime.bigint() - t0) / 1e9;
  closeSync(fd);
  if (r.status !== 0) throw new Error(`${cmd} ${argv.join(' ')} failed: ${r.stderr?.toString().split('\n')[0]}`);
  return dt;
}
const rdnaCmd = (): number => time(process.execPath, [bin, 'disasm', file]);
const llvmCmd = (): number => time(OBJDUMP, ['-d', `--mcpu=${target}`, file]);
rdnaCmd(); llvmCmd(); // warm-up
const ratios: number[] = [];
for (let i = 0; i < runs; i++) {
  const first = i % 2 === 0;
  const a = first ? rdnaCmd() : 0;
  const b = llvmCmd();
  const a2 = first ? a : rdnaCmd();
  ratios.push(a2 / b);
  console.log(`run ${i + 1}: rdna ${a2.toFixed(3)} s, ${OBJDUMP} ${b.toFixed(3)} s, ratio ${(a2 / b).toFixed(3)}`);
}
ratios.sort((x, y) => x - y);
const median = ratios[Math.floor(ratios.length / 2)] ?? NaN;
console.log(`median ratio rdna/${OBJDUMP}: ${median.toFixed(3)} (target <= 0.5)`);
