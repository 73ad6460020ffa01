// npm run bench:compile [-- --runs R]
// Recompile time (decode, CFG, MODE analysis, translation, passes, SPIR-V emission) per shader and
// per 1,000 instructions over the kernels the first slice translates (the assembly slice kernels
// in wave32 and wave64, clang-19 OpenCL collatz), median and p99 over R runs each; and, as a named
// peer on the same input, the time `spirv-opt -O` (SPIRV-Tools) takes on the module we produce.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Shader } from '../src/container/shader.js';
// The built code (dist/, what users run), typed by its sources; `npm run bench:compile` builds first.
const dist = (path: string): Promise<unknown> => import(new URL(`../dist/${path}`, import.meta.url).href);
const { loadShaders } = (await dist('container/shader.js')) as typeof import('../src/container/shader.js');
const { buildCfg } = (await dist('analysis/cfg.js')) as typeof import('../src/analysis/cfg.js');
const { recompile } = (await dist('backend/recompile.js')) as typeof import('../src/backend/recompile.js');
import { assembleShaders } from '../tests/harness/kernel.js';
import { sliceKernels } from '../tests/frontend/kernels.js';
import { buildOpenCl } from '../tests/harness/opencl.js';

const args = process.argv.slice(2);
const runs = Number(args[args.indexOf('--runs') + 1] ?? 50) || 50;
const dir = mkdtempSync(join(tmpdir(), 'rdna-bench-compile-'));

const corpus: Shader[] = [];
for (const w of [false, true]) {
  const m = assembleShaders('gfx1030', sliceKernels(w).map((k) => ({ ...k, vgprs: 32, sgprs: 32, directives: ['.amdhsa_user_sgpr_kernarg_segment_ptr 1', '.amdhsa_system_sgpr_workgroup_id_x 1'] })));
  corpus.push(...m.values());
  const out = buildOpenCl('interp-int.cl', { wave64: w });
  corpus.push(...loadShaders({ bytes: new Uint8Array(readFileSync(out)), name: 'k' }).filter((s) => s.info.name === 'collatz'));
}

const q = (xs: number[], p: number) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? NaN; };
const perShader: number[] = [], perK: number[] = [], peerRatios: number[] = [];
for (const s of corpus) {
  const n = buildCfg(s).blocks.reduce((k, b) => k + b.instructions.length, 0);
  recompile(s); // warm up
  const times: number[] = [];
  for (let r = 0; r < runs; r++) { const t = performance.now(); recompile(s); times.push(performance.now() - t); }
  const med = q(times, 0.5);
  perShader.push(...times);
  perK.push(...times.map((t) => (t * 1000) / n));
  const spv = join(dir, `${s.info.name}-${s.info.waveSize}.spv`);
  const words = recompile(s).spirv;
  writeFileSync(spv, new Uint8Array(words.buffer, words.byteOffset, words.byteLength));
  const t0 = performance.now();
  const o = spawnSync('spirv-opt', ['-O', spv, '-o', `${spv}.opt`], { encoding: 'utf8' });
  const tPeer = performance.now() - t0;
  if (o.status === 0) peerRatios.push(med / tPeer);
  process.stdout.write(`${s.info.name} wave${s.info.waveSize}: ${n} instructions, recompile median ${med.toFixed(2)} ms (${((med * 1000) / n).toFixed(2)} ms per 1,000), ${words.length} SPIR-V words; spirv-opt -O on that module ${tPeer.toFixed(1)} ms\n`);
}
process.stdout.write(`all: per shader median ${q(perShader, 0.5).toFixed(2)} ms, p99 ${q(perShader, 0.99).toFixed(2)} ms; per 1,000 instructions median ${q(perK, 0.5).toFixed(2)} ms, p99 ${q(perK, 0.99).toFixed(2)} ms; recompile / spirv-opt -O median ratio ${q(peerRatios, 0.5).toFixed(3)}\n`);
