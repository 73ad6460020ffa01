// node tools/bench-compile-replay.mjs --corpus DIR [--dist DIR] [--runs R] [--warmup W] [--interleaved] [--json]
// bench:compile's measurement on a machine with node and a build (dist/) but no LLVM, clang or
// tsx (the device machine, say): the corpus `npx tsx tools/bench-compile.ts --dump DIR` wrote as
// code objects, recompiled by the build in --dist (default dist/) R times per kernel (default 30;
// the large kernels max(3, R/10)) after W warm-up rounds of every kernel once (default 60, as
// tools/bench-compile.ts says why); per kernel the median, per set the
// per-shader and per-1,000-instruction median and p99 and the set as a whole (the sum of the
// kernels' medians per 1,000 of their instructions), as tools/bench-compile.ts prints them; with
// --interleaved also the corpus recompiled round-robin (R rounds of every kernel once). No peer
// (spirv-opt) runs here: compare builds by running this once per build, alternating processes.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const args = process.argv.slice(2);
const opt = (name, dflt) => { const k = args.indexOf(name); return k >= 0 && args[k + 1] !== undefined ? args[k + 1] : dflt; };
const corpusDir = opt('--corpus', undefined);
if (corpusDir === undefined) {
  process.stderr.write('usage: node tools/bench-compile-replay.mjs --corpus DIR [--dist DIR] [--runs R] [--warmup W] [--interleaved] [--json]\n');
  process.exit(2);
}
const dist = resolve(opt('--dist', 'dist'));
const runs = Number(opt('--runs', '30')) || 30;
const imp = (p) => import(pathToFileURL(join(dist, p)).href);
const { loadShaders } = await imp('container/shader.js');
const { buildCfg } = await imp('analysis/cfg.js');
const { recompile } = await imp('backend/recompile.js');

const index = JSON.parse(readFileSync(join(corpusDir, 'index.json'), 'utf8'));
const sets = { corpus: [], large: [] };
for (const e of index) {
  const shaders = loadShaders({ bytes: new Uint8Array(readFileSync(join(corpusDir, e.file))), name: 'k' });
  sets[e.group].push(...shaders.filter((s) => e.names.includes(s.info.name)));
}
const q = (xs, p) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? NaN; };
const warmup = Number(opt('--warmup', '60'));
if (!Number.isInteger(warmup) || warmup < 0) {
  process.stderr.write('--warmup takes a whole number of rounds\n');
  process.exit(2);
}
for (let r = 0; r < warmup; r++) for (const s of [...sets.corpus, ...sets.large]) recompile(s);
const report = { dist, runs, warmup };
// Each set's kernels' times: 'corpus' and 'large' each kernel n times in a row; 'interleaved' the
// corpus in n rounds of every kernel once (an embedder recompiles one shader between others).
const timesOf = (label, set, n) => {
  if (label !== 'interleaved') return set.map((s) => { const times = []; for (let r = 0; r < n; r++) { const t = performance.now(); recompile(s); times.push(performance.now() - t); } return times; });
  const all = set.map(() => []);
  for (let r = 0; r < n; r++) for (let k = 0; k < set.length; k++) { const t = performance.now(); recompile(set[k]); all[k].push(performance.now() - t); }
  return all;
};
const plan = [['corpus', sets.corpus, runs], ['large', sets.large, Math.max(3, Math.ceil(runs / 10))]];
if (args.includes('--interleaved')) plan.push(['interleaved', sets.corpus, runs]);
for (const [label, set, n] of plan) {
  const perShader = [], perK = [], kernels = [];
  let sumMedians = 0, sumCounts = 0;
  const timed = timesOf(label, set, n);
  for (const [k, s] of set.entries()) {
    const count = buildCfg(s).blocks.reduce((c, b) => c + b.instructions.length, 0);
    const times = timed[k];
    const med = q(times, 0.5);
    sumMedians += med; sumCounts += count;
    perShader.push(...times);
    perK.push(...times.map((t) => (t * 1000) / count));
    kernels.push({ name: s.info.name, waveSize: s.info.waveSize, instructions: count, medianMs: med });
    if (!args.includes('--json')) process.stdout.write(`${s.info.name} wave${s.info.waveSize}: ${count} instructions, recompile median ${med.toFixed(2)} ms (${((med * 1000) / count).toFixed(2)} ms per 1,000)\n`);
  }
  const summary = { perShaderMedianMs: q(perShader, 0.5), perShaderP99Ms: q(perShader, 0.99), per1000MedianMs: q(perK, 0.5), per1000P99Ms: q(perK, 0.99), wholeMs: sumMedians, wholeInstructions: sumCounts, kernels };
  report[label] = summary;
  if (!args.includes('--json')) {
    process.stdout.write(`${label === 'corpus' ? `test corpus (${set.length} kernels)` : label === 'large' ? 'generated large kernels' : `test corpus, interleaved (${n} rounds of every kernel once)`}: per shader median ${summary.perShaderMedianMs.toFixed(2)} ms, p99 ${summary.perShaderP99Ms.toFixed(2)} ms; per 1,000 instructions median ${summary.per1000MedianMs.toFixed(2)} ms, p99 ${summary.per1000P99Ms.toFixed(2)} ms; the set as a whole ${sumMedians.toFixed(1)} ms for ${sumCounts} instructions (${((sumMedians * 1000) / sumCounts).toFixed(2)} ms per 1,000)\n`);
  }
}
if (args.includes('--json')) process.stdout.write(`${JSON.stringify(report)}\n`);
