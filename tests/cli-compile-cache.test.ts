// `rdna compile` through the shader cache, as a user runs it: a hit writes the same bytes as a
// miss for every --emit; --json says hit, miss or off; a damaged cache file (truncated, bytes
// flipped, another schema, not SQLite at all) costs a recompile and one warning line, never a wrong
// output or a failed command; the build hash comes from the built files themselves.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { APPLICATION_ID, CACHE_FILE, SCHEMA_VERSION } from '../src/cache/store.js';
import { buildOpenCl } from './harness/opencl.js';
import { assembleKernels } from './harness/kernel.js';
import { testCacheEnv } from './harness/cache-env.js';

const Database = createRequire(import.meta.url)('better-sqlite3') as new (path: string) => BetterSqlite3.Database;
const ROOT = new URL('..', import.meta.url).pathname;
const BIN = join(ROOT, 'bin/rdna');
const obj = buildOpenCl('interp-int.cl');

interface Run { status: number | null; stdout: Buffer; stderr: string }
function rdna(args: readonly string[], main = BIN): Run {
  const r = spawnSync(process.execPath, [main, ...args], { env: testCacheEnv(), maxBuffer: 1 << 28 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr.toString() };
}
const tmp = (tag: string) => mkdtempSync(join(tmpdir(), `rdna-ccache-${tag}-`));
const json = (r: Run) => JSON.parse(r.stdout.toString()) as Record<string, unknown>;
const withoutCache = (d: Record<string, unknown>) => { const { cache: _, output: __, ...rest } = d; return rest; };

test('rdna compile: a cache hit writes the same bytes as a miss and as no cache, for every --emit', () => {
  const dir = tmp('emit-out');
  for (const emit of ['spirv', 'spirv-asm', 'ir']) {
    const cache = tmp(`emit-${emit}`);
    const outs = ['off', 'miss', 'hit'].map((want) => {
      const out = join(dir, `${emit}-${want}`);
      const r = rdna(['compile', obj, '--kernel', 'collatz', '--emit', emit, '-o', out, '--json', ...(want === 'off' ? ['--no-cache'] : ['--cache', cache])]);
      assert.equal(r.status, 0, r.stderr);
      assert.equal(r.stderr, '');
      const doc = json(r);
      assert.equal(doc['cache'], want, `${emit}: ${want}`);
      return { bytes: readFileSync(out), doc: withoutCache(doc) };
    });
    assert.ok(outs[0] && outs[1] && outs[2]);
    assert.ok(outs[0].bytes.length > 0);
    assert.ok(outs[1].bytes.equals(outs[0].bytes), `${emit}: miss = no cache`);
    assert.ok(outs[2].bytes.equals(outs[0].bytes), `${emit}: hit = no cache`);
    assert.deepEqual(outs[2].doc, outs[0].doc, `${emit}: the --json report`);
    if (emit !== 'spirv') {
      // Standard output too.
      const a = rdna(['compile', obj, '--kernel', 'collatz', '--emit', emit, '-o', '-', '--no-cache']);
      const b = rdna(['compile', obj, '--kernel', 'collatz', '--emit', emit, '-o', '-', '--cache', cache]);
      assert.equal(b.status, 0, b.stderr);
      assert.ok(b.stdout.equals(a.stdout), `${emit} to standard output`);
    }
    assert.ok(existsSync(join(cache, CACHE_FILE)));
  }
});

test('rdna compile: the default cache is $XDG_CACHE_HOME/rdna-recompiler; --cache-limit and usage errors', () => {
  const xdg = tmp('xdg');
  const env = { ...testCacheEnv(), XDG_CACHE_HOME: xdg };
  const run = (...a: string[]) => spawnSync(process.execPath, [BIN, 'compile', obj, '--kernel', 'collatz', '-o', join(xdg, 'o.spv'), '--json', ...a], { env, encoding: 'utf8' });
  assert.equal(JSON.parse(run().stdout).cache, 'miss');
  assert.ok(existsSync(join(xdg, 'rdna-recompiler', CACHE_FILE)));
  assert.equal(JSON.parse(run().stdout).cache, 'hit');
  // Without XDG_CACHE_HOME: ~/.cache/rdna-recompiler.
  const home = tmp('home');
  const { XDG_CACHE_HOME: _, ...noXdg } = { ...env, HOME: home };
  const h = spawnSync(process.execPath, [BIN, 'compile', obj, '--kernel', 'collatz', '-o', join(home, 'o.spv')], { env: noXdg, encoding: 'utf8' });
  assert.equal(h.status, 0, h.stderr);
  assert.ok(existsSync(join(home, '.cache', 'rdna-recompiler', CACHE_FILE)));
  // A limit smaller than the entry: compiled, not stored.
  const small = tmp('small');
  for (let i = 0; i < 2; i++) assert.equal(JSON.parse(run('--cache', small, '--cache-limit', '1K').stdout).cache, 'miss');
  assert.equal(JSON.parse(run('--cache', small, '--cache-limit', '64MiB').stdout).cache, 'miss');
  assert.equal(JSON.parse(run('--cache', small).stdout).cache, 'hit');
  for (const bad of [['--cache-limit', 'lots'], ['--cache-limit', '0'], ['--no-cache', '--cache', small]]) {
    const r = run(...bad);
    assert.equal(r.status, 2, bad.join(' '));
    assert.equal(r.stderr.trim().split('\n').length, 1);
  }
});

/** A cache holding collatz and int_mix, its WAL folded in (every process closed it). */
function filledCache(tag: string): string {
  const dir = tmp(tag);
  for (const k of ['collatz', 'int_mix']) {
    const r = rdna(['compile', obj, '--kernel', k, '-o', join(dir, `${k}.spv`), '--cache', dir]);
    assert.equal(r.status, 0, r.stderr);
  }
  assert.ok(!existsSync(join(dir, `${CACHE_FILE}-wal`)), 'the WAL is checkpointed when the last process closes');
  return dir;
}

const flip = (file: string, offsets: readonly number[]) => {
  const b = readFileSync(file);
  for (const o of offsets) b[o] = (b[o] ?? 0) ^ 0xff;
  writeFileSync(file, b);
};

const damages: [string, (db: string) => void, RegExp][] = [
  ['truncated to half', (db) => truncateSync(db, Math.floor(statSync(db).size / 2)), /it is truncated/],
  ['bytes flipped inside the stored SPIR-V', (db) => {
    // Every stored module starts with the SPIR-V magic number: flip bytes a little after each.
    const b = readFileSync(db);
    const at: number[] = [];
    for (let o = b.indexOf(Buffer.from([0x03, 0x02, 0x23, 0x07])); o >= 0; o = b.indexOf(Buffer.from([0x03, 0x02, 0x23, 0x07]), o + 4)) at.push(o + 20);
    assert.ok(at.length >= 2, 'both modules found');
    flip(db, at);
  }, /an entry is damaged \(its checksum does not match\)/],
  ['bytes flipped in the table\'s b-tree pages', (db) => {
    // The page-type byte of every page after the schema page: SQLite finds them malformed.
    const pages = statSync(db).size / 4096;
    flip(db, Array.from({ length: pages - 1 }, (_, k) => 4096 * (k + 1)));
  }, /SQLite reports database disk image is malformed/],
  ['another program\'s SQLite database', (db) => {
    rmSync(db);
    const d = new Database(db);
    d.exec('CREATE TABLE entries (hash TEXT, data BLOB); INSERT INTO entries VALUES (\'x\', x\'00\')');
    d.close();
  }, /it is not an rdna shader cache of schema/],
  ['an rdna cache of another schema (our ids, other columns)', (db) => {
    rmSync(db);
    const d = new Database(db);
    d.exec(`CREATE TABLE entries (hash TEXT PRIMARY KEY, spirv BLOB); PRAGMA application_id = ${APPLICATION_ID}; PRAGMA user_version = ${SCHEMA_VERSION}`);
    d.close();
  }, /its entries table is not this schema/],
  ['not SQLite at all', (db) => writeFileSync(db, 'this is not a database\n'.repeat(500)), /it is not an SQLite database/],
];

for (const [what, damage, why] of damages) {
  test(`rdna compile: a cache file ${what} costs a recompile and one warning line`, () => {
    const ref = rdna(['compile', obj, '--kernel', 'collatz', '-o', '-', '--emit', 'spirv-asm', '--no-cache']);
    assert.equal(ref.status, 0, ref.stderr);
    const dir = filledCache(what.replace(/\W+/g, '-'));
    damage(join(dir, CACHE_FILE));
    const out = join(dir, 'after.spvasm');
    const r = rdna(['compile', obj, '--kernel', 'collatz', '-o', out, '--emit', 'spirv-asm', '--json', '--cache', dir]);
    assert.equal(r.status, 0, r.stderr);
    const lines = r.stderr.trimEnd().split('\n');
    assert.equal(lines.length, 1, r.stderr);
    assert.match(lines[0] ?? '', /^rdna compile: warning: cache \S+cache-v1\.sqlite: .*; (recreated|removed) it/);
    assert.match(lines[0] ?? '', why);
    assert.equal(json(r)['cache'], 'miss');
    assert.ok(readFileSync(out).equals(ref.stdout), 'the output is the recompiled one');
    // The cache works again: the next run hits, silently, with the same bytes.
    const again = rdna(['compile', obj, '--kernel', 'collatz', '-o', out, '--emit', 'spirv-asm', '--json', '--cache', dir]);
    assert.equal(again.stderr, '');
    assert.equal(json(again)['cache'], 'hit');
    assert.ok(readFileSync(out).equals(ref.stdout));
  });
}

test('rdna compile: a refused kernel fails the same way from the cache', () => {
  const cache = tmp('refused');
  const mem = join(cache, 'exp.o');
  writeFileSync(mem, assembleKernels('gfx1030', [{ name: 'gap', body: '  v_mov_b32 v1, 0\n  v_mullit_f32 v1, v0, v0, v0\n  s_endpgm' }]));
  const run = () => rdna(['compile', mem, '--kernel', 'gap', '-o', join(cache, 'x.spv'), '--cache', cache]);
  const cold = run();
  assert.equal(cold.status, 1);
  assert.match(cold.stderr, /^rdna compile: error: gap: pc 0x4: v_mullit_f32 v1, v0, v0, v0 .* is not translated yet\n$/);
  const stats = rdna(['cache', 'stats', '--cache', cache, '--json']);
  assert.equal((JSON.parse(stats.stdout.toString()) as { entries: number }).entries, 1, 'the refusal is stored');
  const warm = run();
  assert.equal(warm.status, 1);
  assert.equal(warm.stderr, cold.stderr);
  assert.equal(existsSync(join(cache, 'x.spv')), false);
});

test('rdna compile: a cache directory that cannot be made is one warning and "cache": "off"', () => {
  const file = join(tmp('nodir'), 'f');
  writeFileSync(file, 'x');
  const r = rdna(['compile', obj, '--kernel', 'collatz', '-o', join(tmp('nodir-out'), 'o.spv'), '--json', '--cache', join(file, 'sub')]);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stderr.trimEnd().split('\n').length, 1);
  assert.match(r.stderr, /^rdna compile: warning: cannot use the cache directory .*; compiling without the cache\n$/);
  assert.equal(json(r)['cache'], 'off');
});

test('rdna compile: the build hash is the built code\'s (the CLI\'s bundle included): the same files hit, one changed byte misses', () => {
  // Copies of dist/ inside the repository (so that node_modules resolves), run directly.
  const base = join(ROOT, 'tmp', `dist-copies-${process.pid}`);
  mkdirSync(base, { recursive: true });
  try {
    const same = join(base, 'same');
    const changed = join(base, 'changed');
    cpSync(join(ROOT, 'dist'), same, { recursive: true });
    cpSync(join(ROOT, 'dist'), changed, { recursive: true });
    appendFileSync(join(changed, 'backend', 'profile.js'), '\n// another build\n');
    const cache = tmp('build');
    const run = (main: string) => rdna(['compile', obj, '--kernel', 'collatz', '-o', join(cache, 'o.spv'), '--json', '--cache', cache], join(main, 'cli', 'main.js'));
    assert.equal(json(rdna(['compile', obj, '--kernel', 'collatz', '-o', join(cache, 'o.spv'), '--json', '--cache', cache]))['cache'], 'miss');
    assert.equal(json(run(same))['cache'], 'hit', 'the same built files, in another place');
    assert.equal(json(run(changed))['cache'], 'miss', 'a changed file of the build');
    assert.equal(json(run(changed))['cache'], 'hit');
    // bin/rdna runs the CLI's bundle (dist/bundle/): its files are part of the build hash too.
    const bundled = (main: string) => rdna(['compile', obj, '--kernel', 'collatz', '-o', join(cache, 'o.spv'), '--json', '--cache', cache], join(main, 'bundle', 'main.js'));
    assert.equal(json(bundled(same))['cache'], 'hit', 'the bundle of the same build');
    appendFileSync(join(same, 'bundle', 'main.js'), '\n// another bundle\n');
    assert.equal(json(bundled(same))['cache'], 'miss', 'a changed file of the bundle');
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
});
