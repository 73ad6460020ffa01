// node tools/bench-compile-compare.mjs FILE A B
// Summarises alternating runs of tools/bench-compile-replay.mjs --json, as the README's
// bench:compile rows give them: FILE holds one line per process, the run's label (a word: the
// build or the method, say) then its JSON report, e.g. made by
//   for i in 1 2 3 4 5 6 7 8; do for d in dist-old dist; do
//     node tools/bench-compile-replay.mjs --corpus DIR --dist $d --interleaved --json | sed "s|^|$d |" >> FILE; done; done
// and A and B are two of the labels. Prints, per set (corpus, large, interleaved where run):
//  - per label, over its processes: the range and median of the set as a whole (the sum of the
//    kernels' medians per 1,000 of their instructions), of the per-1,000 median and of the
//    per-shader median and p99;
//  - per kernel, its median over the processes for A and B and their ratio, and its fastest
//    process for each;
//  - the set as a whole and its median kernel per 1,000 at each kernel's fastest process.
import { readFileSync } from 'node:fs';

const [file, A, B] = process.argv.slice(2);
if (file === undefined || A === undefined || B === undefined) {
  process.stderr.write('usage: node tools/bench-compile-compare.mjs FILE A B\n');
  process.exit(2);
}
/** @type {Record<string, any[]>} */
const runs = { [A]: [], [B]: [] };
let text;
try { text = readFileSync(file, 'utf8'); } catch (e) {
  process.stderr.write(`bench-compile-compare: cannot read ${file}: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
}
for (const [n, line] of text.split('\n').entries()) {
  if (!line.trim()) continue;
  const k = line.indexOf(' ');
  const label = k < 0 ? line : line.slice(0, k);
  if (!(label in runs)) continue;
  try { runs[label]?.push(JSON.parse(line.slice(k + 1))); } catch {
    process.stderr.write(`bench-compile-compare: ${file}:${n + 1}: not a label and a JSON report\n`);
    process.exit(1);
  }
}
for (const l of [A, B]) if ((runs[l] ?? []).length === 0) {
  process.stderr.write(`bench-compile-compare: no run labelled ${l} in ${file}\n`);
  process.exit(1);
}
const med = (v) => [...v].sort((a, b) => a - b)[v.length >> 1];
const range = (v, d = 2) => `${Math.min(...v).toFixed(d)}-${Math.max(...v).toFixed(d)} (median ${med(v).toFixed(d)})`;
/** Each kernel's instruction count and its medians over the label's processes, by name and wave size. */
const perKernel = (rs, set) => {
  const m = new Map();
  for (const r of rs) for (const k of r[set].kernels) {
    const key = `${k.name}_w${k.waveSize}`;
    const e = m.get(key) ?? { n: k.instructions, t: [] };
    e.t.push(k.medianMs);
    m.set(key, e);
  }
  return m;
};
for (const set of ['corpus', 'large', 'interleaved']) {
  const ra = runs[A] ?? [], rb = runs[B] ?? [];
  if (!ra.every((r) => r[set]) || !rb.every((r) => r[set])) continue;
  console.log(`${set}:`);
  for (const [l, rs] of [[A, ra], [B, rb]]) {
    const whole = rs.map((r) => (r[set].wholeMs * 1000) / r[set].wholeInstructions);
    console.log(`  ${l} (${rs.length} processes): as a whole ${range(whole)} ms per 1,000; median ${range(rs.map((r) => r[set].per1000MedianMs))} per 1,000; per shader ${range(rs.map((r) => r[set].perShaderMedianMs))} ms, p99 ${range(rs.map((r) => r[set].perShaderP99Ms), 1)} ms`);
  }
  const a = perKernel(ra, set), b = perKernel(rb, set);
  let fastA = 0, fastB = 0, count = 0;
  const perA = [], perB = [];
  for (const [key, x] of a) {
    const y = b.get(key);
    if (!y) continue;
    const minA = Math.min(...x.t), minB = Math.min(...y.t);
    console.log(`  ${key.padEnd(18)} ${String(x.n).padStart(5)} instructions: median ${med(x.t).toFixed(3)} / ${med(y.t).toFixed(3)} ms (${(med(y.t) / med(x.t)).toFixed(3)}), fastest ${minA.toFixed(3)} / ${minB.toFixed(3)} (${(minB / minA).toFixed(3)})`);
    fastA += minA; fastB += minB; count += x.n;
    perA.push((minA * 1000) / x.n); perB.push((minB * 1000) / y.n);
  }
  console.log(`  at each kernel's fastest process: as a whole ${((fastA * 1000) / count).toFixed(2)} / ${((fastB * 1000) / count).toFixed(2)} ms per 1,000, median kernel ${med(perA).toFixed(2)} / ${med(perB).toFixed(2)}`);
}
