// npm run bench:interp [-- --runs R --size N]
// The interpreter's speed on the OpenCL test kernels (tests/fixtures/opencl/interp-*.cl, compiled
// by clang-19 for gfx1030 wave32): lane-instructions per second from `rdna run --json` stats, and
// the whole-process time of `rdna run` against pocl (the CPU OpenCL implementation, a named peer
// running the same source on the same arguments), interleaved, median ratio printed.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Rng } from '../tests/harness/rng.js';
import { buildOpenCl } from '../tests/harness/opencl.js';

const args = process.argv.slice(2);
const opt = (name: string, def: string) => { const i = args.indexOf(`--${name}`); return i >= 0 ? (args[i + 1] ?? def) : def; };
const runs = Number(opt('runs', '5'));
const n = Number(opt('size', '4096'));
const root = new URL('..', import.meta.url).pathname;
const FIX = join(root, 'tests/fixtures/opencl');
const dir = mkdtempSync(join(tmpdir(), 'rdna-bench-interp-'));

const compile = (src: string) => buildOpenCl(src);

const rng = new Rng(99);
const kernels = [
  { src: 'interp-int.cl', kernel: 'collatz', args: [{ buffer: 'u32', data: Array.from({ length: n }, () => 1 + (rng.u32() % 5000)) }, { buffer: 'u32', size: 4 * n }, { buffer: 'u32', size: 4 * n }] },
  { src: 'interp-int.cl', kernel: 'int_mix', args: [{ buffer: 'u32', data: Array.from({ length: n }, () => rng.u32()) }, { buffer: 'i32', data: Array.from({ length: n }, () => rng.u32() | 0) }, { buffer: 'u32', size: 8 * n }, { u32: n }] },
];

const median = (xs: number[]) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)] ?? NaN; };
for (const k of kernels) {
  const obj = compile(k.src);
  const argsFile = join(dir, `${k.kernel}.json`);
  writeFileSync(argsFile, JSON.stringify({ kernel: k.kernel, grid: [n], block: [64], args: k.args }));
  const ratios: number[] = [], rates: number[] = [];
  for (let r = 0; r < runs; r++) {
    let t = performance.now();
    const ours = spawnSync(process.execPath, [join(root, 'bin/rdna'), 'run', obj, '--args', argsFile, '--json'], { encoding: 'utf8', maxBuffer: 1 << 28 });
    const tOurs = performance.now() - t;
    if (ours.status !== 0) { process.stdout.write(`${k.kernel}: rdna run failed: ${ours.stderr.trim()}\n`); break; }
    const stats = (JSON.parse(ours.stdout) as { stats: { laneInstructions: number; instructions: number; seconds: number } }).stats;
    t = performance.now();
    const pocl = spawnSync('/usr/bin/python3', [join(root, 'tests/harness/pocl-run.py'), join(FIX, k.src), argsFile, `-I${FIX}`], { encoding: 'utf8', maxBuffer: 1 << 28 });
    const tPocl = performance.now() - t;
    if (pocl.status !== 0) { process.stdout.write(`${k.kernel}: pocl failed: ${pocl.stderr.trim().split('\n').pop()}\n`); break; }
    ratios.push(tOurs / tPocl);
    rates.push(stats.laneInstructions / stats.seconds);
    process.stdout.write(`${k.kernel} run ${r + 1}: rdna ${(tOurs / 1000).toFixed(2)} s (${stats.instructions} wave instructions, ${stats.laneInstructions} lane-instructions, ${(stats.laneInstructions / stats.seconds / 1e6).toFixed(2)} M lane-instr/s), pocl ${(tPocl / 1000).toFixed(2)} s\n`);
  }
  if (ratios.length) process.stdout.write(`${k.kernel}: median ${(median(rates) / 1e6).toFixed(2)} M lane-instructions/s; rdna run / pocl whole-process time = ${median(ratios).toFixed(2)}\n`);
}
