// `rdna cache stats|verify|clear` on a real cache filled by `rdna compile-all`: the counts, a full
// check that finds (and removes) a damaged entry or recreates an unreadable file, and clearing it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CACHE_FILE } from '../src/cache/store.js';
import { buildOpenCl } from './harness/opencl.js';
import { testCacheEnv } from './harness/cache-env.js';

const BIN = new URL('../bin/rdna', import.meta.url).pathname;
const rdna = (...args: string[]) => spawnSync(process.execPath, [BIN, ...args], { env: testCacheEnv(), encoding: 'utf8' });

test('rdna cache stats, verify and clear', () => {
  const src = mkdtempSync(join(tmpdir(), 'rdna-cachecmd-src-'));
  copyFileSync(buildOpenCl('interp-int.cl'), join(src, 'int.o'));
  const cache = mkdtempSync(join(tmpdir(), 'rdna-cachecmd-'));
  const db = join(cache, CACHE_FILE);
  assert.equal(rdna('compile-all', src, '--cache', cache).status, 0);

  const stats = rdna('cache', 'stats', '--cache', cache, '--json');
  assert.equal(stats.status, 0, stats.stderr);
  const s = JSON.parse(stats.stdout) as { path: string; entries: number; thisBuild: number; bytes: number; fileBytes: number };
  assert.equal(s.path, db);
  assert.equal(s.entries, 3);
  assert.equal(s.thisBuild, 3);
  assert.ok(s.bytes > 3 * 4096 && s.fileBytes >= s.bytes, JSON.stringify(s));
  const text = rdna('cache', 'stats', '--cache', cache);
  assert.match(text.stdout, new RegExp(`^cache +${db}\nentries +3 \\(3 from this build of rdna\\)\nentry bytes +${s.bytes} \\(`));

  const sound = rdna('cache', 'verify', '--cache', cache);
  assert.equal(sound.status, 0);
  assert.equal(sound.stdout, `cache ${db}: 3 entries checked, all sound\n`);

  // One stored module's bytes flipped: verify finds it, removes it, exits 1; the next verify is clean.
  const b = readFileSync(db);
  const at = b.indexOf(Buffer.from([0x03, 0x02, 0x23, 0x07]));
  assert.ok(at > 0);
  b[at + 20] = (b[at + 20] ?? 0) ^ 0x55;
  writeFileSync(db, b);
  const bad = rdna('cache', 'verify', '--cache', cache, '--json');
  assert.equal(bad.status, 1);
  assert.deepEqual(JSON.parse(bad.stdout), { path: db, entries: 3, damaged: 1, ok: false });
  assert.equal(rdna('cache', 'verify', '--cache', cache).stdout, `cache ${db}: 2 entries checked, all sound\n`);

  // Not SQLite: one warning, recreated empty, exit 1.
  writeFileSync(db, 'garbage'.repeat(100));
  const gone = rdna('cache', 'verify', '--cache', cache);
  assert.equal(gone.status, 1);
  assert.match(gone.stderr, /^rdna cache: warning: cache \S+: it is not an SQLite database; recreated it/);
  assert.equal(gone.stderr.trimEnd().split('\n').length, 1);
  assert.equal(gone.stdout, `cache ${db}: damaged (it is not an SQLite database); recreated it empty\n`);

  assert.equal(rdna('compile-all', src, '--cache', cache).status, 0);
  const clear = rdna('cache', 'clear', '--cache', cache, '--json');
  assert.equal(clear.status, 0);
  assert.deepEqual(JSON.parse(clear.stdout), { path: db, removed: 3 });
  assert.equal((JSON.parse(rdna('cache', 'stats', '--cache', cache, '--json').stdout) as { entries: number }).entries, 0);
  assert.equal(rdna('cache', 'clear', '--cache', cache).stdout, `cache ${db}: removed 0 entries\n`);

  for (const args of [['cache'], ['cache', 'shrink'], ['cache', 'stats', 'extra'], ['cache', 'stats', '--limit', '1']]) {
    const r = rdna(...args);
    assert.equal(r.status, 2, args.join(' '));
    assert.equal(r.stderr.trimEnd().split('\n').length, 1, r.stderr);
  }
});
