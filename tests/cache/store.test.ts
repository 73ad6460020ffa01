// The SQLite store (src/cache/store.ts) on real files: least-recently-used eviction, damaged and
// foreign entries, several processes writing at once, and a writer killed (SIGKILL) in the middle
// of its writes. Child processes run tests/cache/writer.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { encodeEntry, entrySize } from '../../src/cache/entry.js';
import { CACHE_FILE, ShaderCache } from '../../src/cache/store.js';
import { testEntry, testKey } from './entries.js';

const Database = createRequire(import.meta.url)('better-sqlite3') as new (path: string) => BetterSqlite3.Database;
const WRITER = new URL('./writer.ts', import.meta.url).pathname;
const tmp = (tag: string) => mkdtempSync(join(tmpdir(), `rdna-cache-${tag}-`));

function open(dir: string, limit?: number): { cache: ShaderCache; warnings: string[] } {
  const warnings: string[] = [];
  const cache = ShaderCache.open({ dir, ...(limit !== undefined ? { limit } : {}), warn: (m) => warnings.push(m) });
  return { cache, warnings };
}

test('cache store: past the limit the least recently used entries go first', () => {
  const size = entrySize(encodeEntry(testKey('a').json, testEntry('a', 1000)));
  // Room for three entries, not four.
  const { cache, warnings } = open(tmp('lru'), Math.floor(size * 3.5));
  const put = (n: string) => assert.ok(cache.put(testKey(n), testEntry(n, 1000)), n);
  const has = (n: string) => cache.get(testKey(n)) !== undefined;
  put('a'); put('b'); put('c');
  assert.ok(has('a'), 'a is read: now the most recently used');
  put('d');
  assert.deepEqual(['a', 'b', 'c', 'd'].map(has), [true, false, true, true], 'b, the least recently used, went');
  // The reads just made used a, c, d in that order; reading a again leaves c the least recent.
  assert.ok(has('a'));
  put('e');
  assert.deepEqual(['a', 'c', 'd', 'e'].map(has), [true, false, true, true]);
  // Now a (read first above) is the least recently used.
  put('f');
  assert.deepEqual(['a', 'd', 'e', 'f'].map(has), [false, true, true, true]);
  // An entry larger than the whole limit is not stored, and evicts nothing.
  assert.equal(cache.put(testKey('huge'), testEntry('huge', 4000)), false);
  assert.deepEqual(['d', 'e', 'f', 'huge'].map(has), [true, true, true, false]);
  const s = cache.stats('test-build');
  assert.equal(s.entries, 3);
  assert.ok(s.bytes <= Math.floor(size * 3.5));
  assert.equal(s.thisBuild, 3);
  assert.deepEqual(warnings, []);
  cache.close();
});

test('cache store: a damaged entry is removed with one warning; another key at its hash is a plain miss', () => {
  const dir = tmp('entry');
  const { cache, warnings } = open(dir);
  for (const n of ['x', 'y']) assert.ok(cache.put(testKey(n), testEntry(n, 64)));
  cache.close();
  // Damage the stored SPIR-V of x, and store y's row under z's hash (a foreign entry), with SQLite itself.
  const db = new Database(join(dir, CACHE_FILE));
  db.prepare("UPDATE entries SET spirv = CAST(zeroblob(256) AS BLOB) WHERE hash = ?").run(testKey('x').hash);
  db.prepare('UPDATE entries SET hash = ? WHERE hash = ?').run(testKey('z').hash, testKey('y').hash);
  db.close();
  const again = open(dir);
  assert.equal(again.cache.get(testKey('x')), undefined);
  assert.equal(again.warnings.length, 1);
  assert.match(again.warnings[0] ?? '', /an entry is damaged \(its checksum does not match\); removed it/);
  assert.equal(again.cache.get(testKey('z')), undefined, 'the key stored with the entry is compared');
  assert.equal(again.warnings.length, 1, 'a foreign key is a miss, not damage');
  assert.equal(again.cache.stats('test-build').entries, 1, 'x was removed');
  assert.ok(again.cache.put(testKey('x'), testEntry('x', 64)));
  assert.deepEqual(Array.from(again.cache.get(testKey('x'))?.spirv ?? []), Array.from(testEntry('x', 64).spirv));
  again.cache.close();
  assert.deepEqual(warnings, []);
});

test('cache store: several processes writing at once lose nothing and damage nothing', async () => {
  const dir = tmp('procs');
  // Create the database first so that the writers race on entries, then also on a fresh file.
  for (const fresh of [false, true]) {
    const d = fresh ? tmp('procs-fresh') : dir;
    if (!fresh) open(d).cache.close();
    const go = join(d, 'go');
    const kids = ['p1', 'p2', 'p3'].map((tag) => spawn(process.execPath, ['--import', 'tsx', WRITER, d, 'many', tag, '25', go], { stdio: ['ignore', 'pipe', 'pipe'] }));
    let ready = 0;
    const results = await Promise.all(kids.map((k) => new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
      let out = '', err = '';
      k.stdout.on('data', (b: Buffer) => {
        out += b.toString();
        if (out.startsWith('ready\n')) {
          out = out.slice('ready\n'.length);
          if (++ready === kids.length) writeFileSync(go, '');
        }
      });
      k.stderr.on('data', (b: Buffer) => { err += b.toString(); });
      k.on('close', (code) => resolve({ code, out, err }));
    })));
    const spans: [number, number][] = [];
    for (const r of results) {
      assert.equal(r.code, 0, r.err);
      const m = /^ok (\d+) (\d+)\n$/.exec(r.out);
      assert.ok(m, r.out);
      spans.push([Number(m[1]), Number(m[2])]);
      assert.equal(r.err, '', 'no warnings, nothing lost');
    }
    // They did write at the same time: every writer started before every other one ended.
    for (const [a0] of spans) for (const [, b1] of spans) assert.ok(a0 <= b1, `writers ran one after another: ${JSON.stringify(spans)}`);
    const { cache, warnings } = open(d);
    const v = cache.verify();
    assert.deepEqual(v, { path: join(d, CACHE_FILE), entries: 25 * 4, damaged: 0 });
    for (const name of ['p1-0', 'p2-24', 'p3-12', 'shared-7']) assert.equal(cache.get(testKey(name))?.ir, testEntry(name, 1).ir, name);
    assert.deepEqual(warnings, []);
    cache.close();
  }
});

test('cache store: a writer killed (SIGKILL) in the middle of its writes leaves a cache that works', async () => {
  const dir = tmp('kill');
  const kid = spawn(process.execPath, ['--import', 'tsx', WRITER, dir, 'forever'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  kid.stderr.on('data', (b: Buffer) => { err += b.toString(); });
  const committed = await new Promise<number[]>((resolve) => {
    kid.stdout.on('data', (b: Buffer) => {
      out += b.toString();
      const lines = out.split('\n');
      // Killed while it stores a 1 MiB entry: it said `begin k` and not yet `k`.
      if (lines.includes('begin 4')) {
        kid.kill('SIGKILL');
        resolve(lines.filter((l) => /^\d+$/.test(l)).map(Number));
      }
    });
  });
  await new Promise((r) => kid.on('close', r));
  assert.equal(kid.signalCode, 'SIGKILL');
  assert.equal(err, '');
  const { cache, warnings } = open(dir);
  assert.ok(cache.usable);
  const v = cache.verify();
  assert.equal(v.damaged, 0);
  assert.equal(v.recreated, undefined);
  assert.ok(v.entries >= committed.length, `${v.entries} entries, ${committed.length} committed`);
  for (const k of committed) {
    const e = cache.get(testKey(`big-${k}`));
    assert.ok(e, `big-${k} was committed`);
    assert.deepEqual(e.spirv.subarray(0, 64), testEntry(`big-${k}`, 1 << 18).spirv.subarray(0, 64));
  }
  assert.ok(cache.put(testKey('after'), testEntry('after', 100)));
  assert.ok(cache.get(testKey('after')));
  assert.deepEqual(warnings, []);
  cache.close();
  // SQLite agrees: the file passes its own integrity check.
  const db = new Database(join(dir, CACHE_FILE));
  assert.equal(db.pragma('integrity_check', { simple: true }), 'ok');
  db.close();
});

test('cache store: a directory that cannot be created means no cache and one warning, not an error', () => {
  const file = join(tmp('nodir'), 'plain-file');
  writeFileSync(file, 'x\n');
  const { cache, warnings } = open(join(file, 'sub'));
  assert.equal(cache.usable, false);
  assert.equal(cache.get(testKey('a')), undefined);
  assert.equal(cache.put(testKey('a'), testEntry('a', 4)), false);
  assert.equal(warnings.length, 1);
  assert.match(warnings[0] ?? '', /cannot use the cache directory .*; compiling without the cache/);
  cache.close();
});
