// Differential run against LLVM 19: npm run difftest -- [--gen NAME]... [--target T]...
//   [--count N per generator] [--seed S] [--show K] [--encoding ENC]
// Prints agreement per target and the first K mismatches; exit 1 on any mismatch.
import { TARGETS, type Target } from '../src/isa/types.js';
import { isTarget } from '../src/isa/table.js';
import { ALL_GENERATORS, generatorNamed } from '../tests/gen/index.js';
import type { CaseGenerator } from '../tests/gen/types.js';
import { buildCorpus } from '../tests/harness/corpus.js';
import { diffCases, formatMismatch } from '../tests/harness/diff.js';

const args = process.argv.slice(2);
const gens: CaseGenerator[] = [];
const targets: Target[] = [];
let count = 10000, seed = 1, show = 20;
let encoding: string | undefined;
for (let i = 0; i < args.length; i++) {
  const a = args[i], v = args[i + 1] ?? '';
  if (a === '--gen') { const g = generatorNamed(v); if (!g) { console.error(`no generator ${v}; have ${ALL_GENERATORS.map((x) => x.name).join(', ')}`); process.exit(2); } gens.push(g); i++; }
  else if (a === '--target') { if (!isTarget(v)) { console.error(`bad target ${v}`); process.exit(2); } targets.push(v); i++; }
  else if (a === '--count') { count = Number(v); i++; }
  else if (a === '--seed') { seed = Number(v); i++; }
  else if (a === '--show') { show = Number(v); i++; }
  else if (a === '--encoding') { encoding = v; i++; }
  else { console.error(`unknown argument ${a}`); process.exit(2); }
}
const useGens = gens.length ? gens : [...ALL_GENERATORS];
let bad = 0;
for (const t of targets.length ? targets : [...TARGETS]) {
  const cases = buildCorpus(useGens, t, count, seed);
  const t0 = Date.now();
  const rep = diffCases(t, cases);
  const mm = encoding ? rep.mismatches.filter((m) => m.encoding === encoding) : rep.mismatches;
  bad += mm.length;
  console.log(`${t}: ${rep.cases} cases, ${rep.lines} lines, ${mm.length} mismatches${encoding ? ` in ${encoding}` : ''} (${rep.mismatches.length} total), ${rep.crashes.length} LLVM crashes, ${Date.now() - t0} ms`);
  for (const m of mm.slice(0, show)) console.log(formatMismatch(m));
}
process.exit(bad ? 1 : 0);
