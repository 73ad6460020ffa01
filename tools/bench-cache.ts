// npm run bench:cache [-- --runs R] [--jobs N]
// Whole-process times of `rdna compile-all` (the built CLI, bin/rdna) over the test corpus: the
// bundled sample, tests/fixtures/code-object/kernels.s assembled for gfx1010, gfx1013 and gfx1030,
// and every OpenCL C fixture built by clang-19 in wave32 and wave64. Three ways, R runs each
// (median and minimum): without the cache (--no-cache), cold (an empty cache directory each run)
// and warm (the cache the cold run filled); then the warm/cold ratio. Also one `rdna compile` of
// the largest kernel, cold and warm.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildOpenCl, OPENCL_FIXTURES } from '../tests/harness/opencl.js';
import type { CompileAllReport } from '../src/cli/compile-all.js';

const ROOT = new URL('..', import.meta.url).pathname;
const BIN = join(ROOT, 'bin', 'rdna');
const args = process.argv.slice(2);
const opt = (name: string, dflt: number) => { const i = args.indexOf(name); return i >= 0 ? Number(args[i + 1]) || dflt : dflt; };
const runs = opt('--runs', 5);
const jobs = opt('--jobs', availableParallelism());

const dir = mkdtempSync(join(tmpdir(), 'rdna-bench-cache-'));
const corpus = join(dir, 'corpus');
mkdirSync(corpus);
copyFileSync(join(ROOT, 'samples', 'vector_add.gfx1030.o'), join(corpus, 'vector_add.gfx1030.o'));
for (const target of ['gfx1010', 'gfx1013', 'gfx1030']) {
  const o = join(corpus, `kernels.${target}.o`);
  const r = spawnSync('llvm-mc-19', ['-triple=amdgcn-amd-amdhsa', `-mcpu=${target}`, '-filetype=obj', join(ROOT, 'tests', 'fixtures', 'code-object', 'kernels.s'), '-o', o], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`llvm-mc-19: ${r.stderr}`);
}
const OPTIONS: Record<string, readonly string[]> = { 'interp-float.cl': ['-cl-fp32-correctly-rounded-divide-sqrt'], 'interp-bytes.cl': ['-cl-std=CL2.0'] };
for (const cl of readdirSync(OPENCL_FIXTURES).filter((f) => f.endsWith('.cl')).sort()) {
  for (const wave64 of [false, true]) copyFileSync(buildOpenCl(cl, { wave64, options: OPTIONS[cl] ?? [] }), join(corpus, `${cl.slice(0, -3)}.w${wave64 ? 64 : 32}.o`));
}

const ms = (t0: number) => performance.now() - t0;
function compileAll(extra: readonly string[]): { ms: number; report: CompileAllReport } {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [BIN, 'compile-all', corpus, '--json', '--jobs', String(jobs), '-o', join(dir, 'out'), ...extra], { encoding: 'utf8', maxBuffer: 1 << 28 });
  const t = ms(t0);
  if (r.status !== 0 && r.status !== 1) throw new Error(`compile-all: exit ${r.status}: ${r.stderr}`);
  if (r.stderr) throw new Error(`compile-all: ${r.stderr}`);
  return { ms: t, report: JSON.parse(r.stdout) as CompileAllReport };
}

const none: number[] = [], cold: number[] = [], warm: number[] = [];
let last: CompileAllReport | undefined;
for (let k = 0; k < runs; k++) {
  none.push(compileAll(['--no-cache']).ms);
  const cache = join(dir, `cache-${k}`);
  const c = compileAll(['--cache', cache]);
  cold.push(c.ms);
  const w = compileAll(['--cache', cache]);
  warm.push(w.ms);
  if (w.report.compiled !== 0) throw new Error(`warm run compiled ${w.report.compiled} shaders`);
  last = c.report;
  rmSync(cache, { recursive: true, force: true });
}

// One large kernel through `rdna compile`: the f64 ops (the largest module of the corpus).
const big = buildOpenCl('interp-float.cl', { options: OPTIONS['interp-float.cl'] ?? [] });
const one = (cache: string) => {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [BIN, 'compile', big, '--kernel', 'f64_ops', '-o', join(dir, 'f64.spv'), '--cache', cache], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`compile: ${r.stderr}`);
  return ms(t0);
};
const oneCold: number[] = [], oneWarm: number[] = [];
for (let k = 0; k < runs; k++) {
  const cache = join(dir, `one-${k}`);
  oneCold.push(one(cache));
  oneWarm.push(one(cache));
}

const med = (xs: readonly number[]) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)] ?? NaN; };
const min = (xs: readonly number[]) => Math.min(...xs);
const r = last as CompileAllReport;
const rows: [string, number[]][] = [['compile-all, no cache', none], ['compile-all, cold cache', cold], ['compile-all, warm cache', warm], ['compile f64_ops, cold', oneCold], ['compile f64_ops, warm', oneWarm]];
const lines = [
  `corpus: ${r.files} code objects, ${r.shaders.length} kernels (${r.compiled} recompiled, ${r.failed} refused by the recompiler); ${jobs} jobs, ${runs} runs each, whole-process wall time`,
  '',
  '| run | median ms | min ms |',
  '| --- | ---: | ---: |',
  ...rows.map(([name, xs]) => `| ${name} | ${med(xs).toFixed(0)} | ${min(xs).toFixed(0)} |`),
  '',
  `warm/cold: compile-all ${(med(warm) / med(cold)).toFixed(2)} (${(med(cold) / med(warm)).toFixed(1)}x faster), compile f64_ops ${(med(oneWarm) / med(oneCold)).toFixed(2)}`,
];
writeFileSync(join(dir, 'result.md'), lines.join('\n') + '\n');
process.stdout.write(lines.join('\n') + '\n');
rmSync(dir, { recursive: true, force: true });
