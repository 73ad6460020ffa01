// `rdna compile-all` as a user runs it, on a directory of good and bad files: every kernel of
// every code object (clang-19 OpenCL builds and the bundled sample), failures with file, kernel,
// pc and instruction that never stop the others, files that are not shaders skipped, the summary
// table and the --json report, outputs equal to `rdna compile`'s, a warm run entirely from the
// cache, two runs at once on one cache, the progress bar only on a terminal, --work-items as
// `rdna compile --work-items` for each kernel (capped at the kernel's bound) and in the cache key.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CompileAllReport } from '../src/cli/compile-all.js';
import { buildOpenCl } from './harness/opencl.js';
import { assembleKernels } from './harness/kernel.js';
import { testCacheEnv } from './harness/cache-env.js';
import { ldsCases } from './runtime/cases-lds.js';
import { maxWorkItems } from '../src/backend/recompile.js';

const ROOT = new URL('..', import.meta.url).pathname;
const BIN = join(ROOT, 'bin/rdna');
const tmp = (tag: string) => mkdtempSync(join(tmpdir(), `rdna-call-${tag}-`));

interface Run { status: number | null; stdout: string; stderr: string }
const rdna = (...args: string[]): Run => {
  const r = spawnSync(process.execPath, [BIN, ...args], { env: testCacheEnv(), encoding: 'utf8', maxBuffer: 1 << 28 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
};
const report = (r: Run) => JSON.parse(r.stdout) as CompileAllReport;

/** The corpus: good code objects in nested directories, a kernel set the recompiler partly refuses, damaged and foreign files. */
function corpus(): string {
  const d = tmp('corpus');
  mkdirSync(join(d, 'good', 'deeper'), { recursive: true });
  mkdirSync(join(d, 'raw'));
  copyFileSync(buildOpenCl('interp-int.cl'), join(d, 'good', 'int.o'));
  copyFileSync(join(ROOT, 'samples', 'vector_add.gfx1030.o'), join(d, 'good', 'deeper', 'vector_add.o'));
  // Kernels the recompiler refuses (instructions it does not translate yet).
  const gaps = [['mullit', 'v_mullit_f32 v1, v0, v0, v0'], ['interp_mov', 'v_interp_mov_f32 v1, p10, attr0.x'], ['interp_p1', 'v_interp_p1_f32 v1, v0, attr0.x']];
  const mem = Buffer.from(assembleKernels('gfx1030', gaps.map(([f, asm]) => ({ name: `gap_${f as string}`, body: `  v_mov_b32 v1, 0\n  ${asm as string}\n  s_endpgm` }))));
  writeFileSync(join(d, 'mem.o'), mem);
  writeFileSync(join(d, 'damaged.o'), mem.subarray(0, 100));
  // An ELF file of another machine (x86-64), and plain text: not shaders.
  const x86 = Buffer.from(mem);
  x86.writeUInt16LE(62, 18);
  writeFileSync(join(d, 'host.o'), x86);
  writeFileSync(join(d, 'notes.txt'), 'not a shader\n');
  // A raw pixel shader with its sidecar (the recompiler refuses graphics stages), and one whose sidecar is not JSON.
  copyFileSync(join(ROOT, 'samples', 'vector_add.gfx1030.bin'), join(d, 'raw', 'dump.bin'));
  writeFileSync(join(d, 'raw', 'dump.json'), JSON.stringify({ target: 'gfx1030', stage: 'ps', waveSize: 32 }));
  copyFileSync(join(ROOT, 'samples', 'vector_add.gfx1030.bin'), join(d, 'raw', 'broken.bin'));
  writeFileSync(join(d, 'raw', 'broken.json'), '{ "target": ');
  return d;
}

const GOOD: [string, string][] = [['good/deeper/vector_add.o', 'vector_add'], ['good/int.o', 'collatz'], ['good/int.o', 'histogram'], ['good/int.o', 'int_mix']];

test('rdna compile-all: good and bad files, failures that say where, skipped files, outputs as rdna compile writes them, then all from the cache', () => {
  const d = corpus();
  const cache = tmp('cache');
  const out = tmp('out');
  const cold = rdna('compile-all', d, '-o', out, '--cache', cache, '--json');
  assert.equal(cold.status, 1, 'some shaders failed');
  assert.equal(cold.stderr, '', 'no progress bar off a terminal, no warnings');
  const r = report(cold);
  assert.equal(r.profile, 'lavapipe');
  assert.equal(r.cache, cache);
  const by = new Map(r.shaders.map((s) => [`${s.file.slice(d.length + 1)} ${s.kernel ?? '-'}`, s]));
  for (const [f, k] of GOOD) {
    const s = by.get(`${f} ${k}`);
    assert.equal(s?.status, 'compiled', `${f} ${k}: ${JSON.stringify(s)}`);
    assert.equal(s.output, join(out, f, `${k}.spv`));
    // The same bytes `rdna compile` writes.
    const one = join(out, 'one.spv');
    const c = rdna('compile', join(d, f), '--kernel', k, '-o', one, '--no-cache');
    assert.equal(c.status, 0, c.stderr);
    assert.ok(readFileSync(one).equals(readFileSync(s.output)), `${f} ${k}`);
    assert.equal(s.words, readFileSync(one).length / 4);
  }
  // mem.o's kernels use instructions not translated yet: each refusal names the pc and instruction, and the rest go on.
  const mem = r.shaders.filter((s) => s.file.endsWith('mem.o') && !s.file.endsWith('damaged.o'));
  assert.equal(mem.length, 3);
  assert.ok(mem.every((s) => s.status === 'failed'));
  const ds = mem.filter((s) => s.error?.pc !== undefined);
  assert.equal(ds.length, 3);
  for (const s of ds) {
    assert.match(s.error?.instruction ?? '', /^v_(mullit_f32|interp_mov_f32_e32|interp_p1_f32_e32) /);
    assert.match(s.error?.message ?? '', new RegExp(`^pc 0x${(s.error?.pc ?? 0).toString(16)}: v_\\w+ .* is not translated yet$`));
    assert.equal(existsSync(join(out, 'mem.o', `${s.kernel}.spv`)), false);
  }
  assert.match(by.get('damaged.o -')?.error?.message ?? '', /damaged\.o: section header table lies outside the file/);
  assert.match(by.get('raw/dump.bin dump')?.error?.message ?? '', /is a raw ps shader: only compute shaders \(stage cs\) are dispatched here/);
  assert.match(by.get('raw/broken.bin -')?.error?.message ?? '', /broken\.json/);
  assert.deepEqual(r.skipped.map((s) => s.file.slice(d.length + 1)).sort(), ['host.o', 'notes.txt']);
  assert.match(r.skipped.find((s) => s.file.endsWith('host.o'))?.reason ?? '', /another machine \(e_machine 62\)/);
  assert.equal(r.compiled, GOOD.length);
  assert.equal(r.cached, 0);
  assert.equal(r.failed, r.shaders.length - GOOD.length);
  assert.equal(r.files, 6, 'int.o, vector_add.o, mem.o, damaged.o, dump.bin, broken.bin');

  // Warm: every shader that compiled comes from the cache, the outputs byte for byte the same.
  const before = GOOD.map(([f, k]) => readFileSync(join(out, f ?? '', `${k}.spv`)));
  const warm = rdna('compile-all', d, '-o', out, '--cache', cache, '--json');
  assert.equal(warm.status, 1);
  const w = report(warm);
  assert.equal(w.cached, GOOD.length);
  assert.equal(w.compiled, 0);
  assert.deepEqual(w.shaders.map((s) => [s.file, s.kernel, s.status === 'cached' ? 'compiled' : s.status, s.words, s.error]), r.shaders.map((s) => [s.file, s.kernel, s.status, s.words, s.error]));
  GOOD.forEach(([f, k], i) => assert.ok(readFileSync(join(out, f ?? '', `${k}.spv`)).equals(before[i] ?? Buffer.alloc(0))));

  // One job gives the same report; --no-cache compiles everything.
  const serial = report(rdna('compile-all', d, '--cache', cache, '--json', '--jobs', '1'));
  assert.equal(serial.jobs, 1);
  assert.deepEqual(serial.shaders.map((s) => [s.file, s.kernel, s.status, s.words]), w.shaders.map((s) => [s.file, s.kernel, s.status, s.words]));
  const none = report(rdna('compile-all', d, '--no-cache', '--json'));
  assert.equal(none.cache, null);
  assert.equal(none.compiled, GOOD.length);
  assert.equal(none.cached, 0);
});

test('rdna compile-all: the summary table', () => {
  const d = corpus();
  const r = rdna('compile-all', d, '--no-cache', '--jobs', '2');
  assert.equal(r.status, 1);
  const lines = r.stdout.split('\n');
  assert.match(lines[0] ?? '', /^\d+ shaders in 6 files \(profile lavapipe, no cache, 2 jobs\)$/);
  assert.equal(lines[1], `  compiled    ${GOOD.length}`);
  assert.equal(lines[2], '  from cache  0');
  assert.match(lines[3] ?? '', /^ {2}failed {6}\d+ \(\d+ shaders, 2 files that could not be read\)$/);
  assert.equal(lines[4], '  skipped     2 files that are not shaders (listed by --json)');
  assert.equal(lines[5], '');
  assert.match(lines[6] ?? '', /^file +kernel +error$/);
  const gap = lines.find((l) => / gap_mullit /.test(l)) ?? '';
  assert.match(gap, /mem\.o +gap_mullit +pc 0x4: v_mullit_f32 v1, v0, v0, v0 \([0-9a-f ]+\): v_mullit_f32 is not translated yet$/);
  assert.match(lines.find((l) => l.includes('damaged.o')) ?? '', /damaged\.o +- +\S+damaged\.o: section header table lies outside the file/);
});

test('rdna compile-all: bad input is one line and exit 1 (2 for usage), never a stack trace', () => {
  const d = corpus();
  const cases: [string[], number, RegExp][] = [
    [['compile-all', join(d, 'nothing-here')], 1, /^rdna compile-all: error: \S+nothing-here: no such file or directory$/],
    [['compile-all'], 2, /needs at least one PATH/],
    [['compile-all', d, '--jobs', '0'], 2, /--jobs must be a whole number/],
    [['compile-all', d, '--jobs', 'many'], 2, /--jobs must be a whole number/],
    [['compile-all', d, '-o', join(d, 'notes.txt')], 1, /-o names a file/],
    [['compile-all', d, '--profile', 'mystery'], 2, /--profile must be one of/],
    [['compile-all', d, '--no-cache', '--cache', d], 2, /--no-cache cannot be combined/],
    [['compile-all', d, '--work-items', '0'], 2, /--work-items must be a positive integer/],
  ];
  for (const [args, status, msg] of cases) {
    const r = rdna(...args);
    assert.equal(r.status, status, `${args.join(' ')}: ${r.stderr}`);
    assert.equal(r.stderr.trimEnd().split('\n').length, 1, r.stderr);
    assert.match(r.stderr.trimEnd(), msg);
    assert.doesNotMatch(r.stderr, /\n\s+at |internal error/);
  }
  // A file named on the command line that is not a shader is a failure, not a skip.
  const named = rdna('compile-all', join(d, 'notes.txt'), join(d, 'good', 'int.o'), '--no-cache', '--json');
  assert.equal(named.status, 1);
  const r = report(named);
  assert.equal(r.compiled, 3);
  assert.deepEqual(r.skipped, []);
  assert.match(r.shaders.find((s) => s.file.endsWith('notes.txt'))?.error?.message ?? '', /^not a shader: not an AMDGPU code object/);
  // Only good files: exit 0.
  assert.equal(rdna('compile-all', join(d, 'good'), '--no-cache').status, 0);
});

test('rdna compile-all: two runs at once on one cache both succeed, then a third is all hits', async () => {
  const d = join(corpus(), 'good');
  const cache = tmp('together');
  const runs = await Promise.all([0, 1].map(() => new Promise<Run>((resolve) => {
    const k = spawn(process.execPath, [BIN, 'compile-all', d, '--cache', cache, '--json'], { env: testCacheEnv() });
    let stdout = '', stderr = '';
    k.stdout.on('data', (b: Buffer) => { stdout += b.toString(); });
    k.stderr.on('data', (b: Buffer) => { stderr += b.toString(); });
    k.on('close', (status) => resolve({ status, stdout, stderr }));
  })));
  for (const r of runs) {
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stderr, '');
    assert.equal(report(r).failed, 0);
  }
  const third = report(rdna('compile-all', d, '--cache', cache, '--json'));
  assert.equal(third.cached, GOOD.length);
  const v = rdna('cache', 'verify', '--cache', cache, '--json');
  assert.equal(v.status, 0, v.stdout + v.stderr);
  assert.deepEqual(JSON.parse(v.stdout), { path: join(cache, 'cache-v1.sqlite'), entries: GOOD.length, damaged: 0, ok: true });
});

test('rdna compile-all: a progress bar on stderr when it is a terminal', () => {
  const d = join(corpus(), 'good');
  // script(1) gives the command a pseudo-terminal; its output is what the terminal showed.
  const r = spawnSync('script', ['-qec', `${process.execPath} ${BIN} compile-all ${d} --no-cache --jobs 1`, '/dev/null'], { env: testCacheEnv(), encoding: 'utf8' });
  assert.equal(r.status, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /\r\[#{30}\] 4\/4/);
  assert.match(r.stdout, /\r\x1b\[K/, 'the bar is cleared before the summary');
  assert.match(r.stdout, /4 shaders in 2 files/);
});

test('rdna help lists compile-all and cache with their usage', () => {
  const r = rdna('help');
  assert.equal(r.status, 0);
  assert.match(r.stdout, /\n {2}compile-all .*\n +rdna compile-all \[-o OUTDIR\] .*\[--cache DIR \| --no-cache\] \[--cache-limit SIZE\] \[--jobs N\] \[--json\] PATH\.\.\.\n/);
  assert.match(r.stdout, /\n {2}cache .*\n +rdna cache stats\|verify\|clear \[--cache DIR\] \[--json\]\n/);
  assert.match(r.stdout, /rdna compile -o OUT .*\[--cache DIR \| --no-cache\] \[--cache-limit SIZE\]/);
});

test('rdna compile-all --work-items: each kernel compiled as rdna compile --work-items compiles it (capped at its own bound), and the count is part of the cache key', () => {
  // A kernel with LDS and barriers: its module depends on the workgroup size it is compiled for.
  const c = [...ldsCases()].find((x) => x.shader.info.waveSize === 32);
  assert.ok(c);
  const bound = maxWorkItems(c.shader.info);
  const d = tmp('wi');
  mkdirSync(join(d, 'in'));
  writeFileSync(join(d, 'in', 'lds.o'), c.code);
  const cache = tmp('wi-cache');
  const single = (items?: number) => {
    const o = join(d, `single-${items ?? 'none'}.spv`);
    const r = rdna('compile', join(d, 'in', 'lds.o'), '--kernel', c.kernel, '-o', o, '--no-cache', ...(items !== undefined ? ['--work-items', String(items)] : []));
    assert.equal(r.status, 0, r.stderr);
    return readFileSync(o);
  };
  const all = (items: number | undefined, tag: string) => {
    const out = join(d, tag);
    const r = rdna('compile-all', join(d, 'in'), '-o', out, '--cache', cache, '--json', ...(items !== undefined ? ['--work-items', String(items)] : []));
    assert.equal(r.status, 0, r.stderr);
    const rep = report(r);
    assert.equal(rep.workItems, items ?? null);
    const mine = rep.shaders.find((s) => s.kernel === c.kernel);
    assert.ok(mine?.output, JSON.stringify(rep.shaders));
    return { rep, spv: readFileSync(mine.output) };
  };
  const small = all(32, 'out32');
  assert.deepEqual(small.spv, single(32));
  assert.notDeepEqual(small.spv, single(), 'the work-item count changes this kernel\'s module');
  // Another count is another cache key: compiled, not served from the entries of 32.
  const whole = all(bound, 'outbound');
  assert.ok(whole.rep.shaders.every((s) => s.status === 'compiled'), JSON.stringify(whole.rep.shaders.map((s) => s.status)));
  assert.deepEqual(whole.spv, single());
  // More than a kernel allows compiles it for its own bound (the entries just stored), where rdna compile refuses.
  const over = all(bound * 4, 'outover');
  assert.deepEqual(over.spv, single());
  assert.equal(over.rep.shaders.find((s) => s.kernel === c.kernel)?.status, 'cached');
  assert.equal(rdna('compile', join(d, 'in', 'lds.o'), '--kernel', c.kernel, '-o', join(d, 'x.spv'), '--no-cache', '--work-items', String(bound * 4)).status, 1);
  // The same count again: all from the cache.
  const again = all(32, 'out32b');
  assert.ok(again.rep.shaders.every((s) => s.status === 'cached'));
  assert.deepEqual(again.spv, small.spv);
});
