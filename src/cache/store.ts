// The shader cache store: one SQLite database (better-sqlite3) in the cache directory, WAL mode,
// safe with several processes compiling at once (a busy timeout; every write one transaction).
// A damaged, truncated or foreign file is never trusted: each entry carries a checksum and its full
// key; a database SQLite cannot read, or one that is not this schema, is deleted and recreated
// (one warning through `warn`), and the shader is recompiled. Least-recently-used entries are
// evicted past the size limit. Nothing here throws to the caller: a cache that cannot be used
// answers every lookup with a miss. Node layer.
import { closeSync, existsSync, fstatSync, mkdirSync, openSync, readSync, statSync, unlinkSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import type { CacheKey } from './key.js';
import { type CacheValue, type CompiledShader, decodeEntry, encodeEntry, entrySize, type EntryRow, isRefusal, rowProblem } from './entry.js';

/** The database layout; part of the file name, so rdna versions with another layout keep their own file. */
export const SCHEMA_VERSION = 1;
export const CACHE_FILE = `cache-v${SCHEMA_VERSION}.sqlite`;
/** PRAGMA application_id of an rdna shader cache ('RDNC'). */
export const APPLICATION_ID = 0x52444e43;
export const DEFAULT_CACHE_LIMIT = 256 * 1024 * 1024;
/** How long a process waits for another's write lock before giving up on one lookup or store. */
const BUSY_TIMEOUT_MS = 10_000;

const COLUMNS = ['hash', 'key', 'build', 'spirv', 'result', 'ir', 'checksum', 'size', 'used'] as const;
const SCHEMA = `
CREATE TABLE entries (
  hash TEXT PRIMARY KEY NOT NULL,
  key TEXT NOT NULL,
  build TEXT NOT NULL,
  spirv BLOB NOT NULL,
  result TEXT NOT NULL,
  ir TEXT NOT NULL,
  checksum TEXT NOT NULL,
  size INTEGER NOT NULL,
  used INTEGER NOT NULL
);
CREATE INDEX entries_used ON entries(used);
PRAGMA application_id = ${APPLICATION_ID};
PRAGMA user_version = ${SCHEMA_VERSION};
`;

export interface ShaderCacheOptions {
  readonly dir: string;
  /** Bytes the entries may take (default 256 MiB); the least recently used go first. */
  readonly limit?: number;
  /** One line, no newline: the cache was damaged and recreated, or cannot be used. */
  readonly warn?: (message: string) => void;
}

export interface CacheStats {
  readonly path: string;
  readonly entries: number;
  /** Bytes of the entries (what the limit counts). */
  readonly bytes: number;
  /** Entries made by this build of rdna (the others can no longer hit; they age out). */
  readonly thisBuild: number;
  /** The database file and its WAL on disk. */
  readonly fileBytes: number;
}

export interface VerifyReport {
  readonly path: string;
  /** Entries checked. */
  readonly entries: number;
  /** Entries whose checksum, key hash or fields were wrong; removed. */
  readonly damaged: number;
  /** When the database itself was unreadable, foreign or failed SQLite's integrity check: why (it was recreated). */
  readonly recreated?: string;
}

type Db = BetterSqlite3.Database;
type Sqlite = new (path: string, options?: BetterSqlite3.Options) => Db;

interface Statements {
  readonly get: BetterSqlite3.Statement<[string]>;
  readonly touch: BetterSqlite3.Statement<[string]>;
  readonly remove: BetterSqlite3.Statement<[string]>;
  readonly put: BetterSqlite3.Statement<[Record<string, unknown>]>;
  readonly total: BetterSqlite3.Statement<[]>;
  readonly oldest: BetterSqlite3.Statement<[string]>;
}

/** SQLite says the file is damaged, not SQLite, or not this layout: recreate it. */
class Damaged extends Error {}

const errCode = (e: unknown): string => (typeof (e as { code?: unknown })?.code === 'string' ? (e as { code: string }).code : '');
const message = (e: unknown): string => (e instanceof Error ? e.message : String(e)).split('\n')[0] ?? '';
/** Errors that say nothing about the file's contents: waiting for another process, a full or read-only disk. */
const transient = (e: unknown) => /^SQLITE_(BUSY|LOCKED)/.test(errCode(e));
const unwritable = (e: unknown) => /^SQLITE_(FULL|READONLY|PERM|CANTOPEN|AUTH)/.test(errCode(e));

let sqlite: Sqlite | undefined;
function loadSqlite(): Sqlite {
  sqlite ??= createRequire(import.meta.url)('better-sqlite3') as Sqlite;
  return sqlite;
}

function removeFile(p: string): void {
  try { unlinkSync(p); } catch (e) { if (errCode(e) !== 'ENOENT') throw e; }
}

/**
 * Damage SQLite would only find when it reads the missing pages: a file that does not start with
 * SQLite's header, or is shorter than its header says. Checked only while no process has the
 * database open (no -wal or -shm file): then the header's page count is the file's size.
 */
function fileProblem(path: string): string | undefined {
  let fd: number;
  try { fd = openSync(path, 'r'); } catch { return undefined; }
  try {
    const size = fstatSync(fd).size;
    if (size === 0) return undefined;
    const h = new Uint8Array(100);
    const n = readSync(fd, h, 0, 100, 0);
    if (n < 100 || Buffer.from(h.subarray(0, 16)).toString('latin1') !== 'SQLite format 3\0') return 'it is not an SQLite database';
    const dv = new DataView(h.buffer);
    const raw = dv.getUint16(16);
    const pageSize = raw === 1 ? 65536 : raw;
    const pages = dv.getUint32(28);
    const valid = dv.getUint32(24) === dv.getUint32(92);
    if (existsSync(`${path}-wal`) || existsSync(`${path}-shm`)) return undefined;
    if (pageSize < 512 || (pageSize & (pageSize - 1)) !== 0) return 'its header is damaged';
    if (size % pageSize !== 0 || (valid && pages > 0 && size < pages * pageSize)) return `it is truncated (${size} bytes, its header says ${valid ? pages * pageSize : 'whole pages'})`;
    return undefined;
  } finally {
    closeSync(fd);
  }
}

export class ShaderCache {
  readonly path: string;
  readonly limit: number;
  private db: Db | undefined;
  private st: Statements | undefined;
  private readonly warnFn: (message: string) => void;
  private warned = false;
  /** Why the database was recreated when opened (verify reports it). */
  private recreated: string | undefined;

  private constructor(readonly dir: string, o: ShaderCacheOptions) {
    this.path = join(dir, CACHE_FILE);
    this.limit = o.limit ?? DEFAULT_CACHE_LIMIT;
    this.warnFn = o.warn ?? (() => {});
  }

  /** Opens (creating when missing) the cache in `o.dir`. Never throws: a cache that cannot be used warns once and misses. */
  static open(o: ShaderCacheOptions): ShaderCache {
    const c = new ShaderCache(o.dir, o);
    c.start();
    return c;
  }

  /** False when the cache could not be opened (every lookup misses, nothing is stored). */
  get usable(): boolean {
    return this.db !== undefined;
  }

  private warn(text: string): void {
    if (this.warned) return;
    this.warned = true;
    this.warnFn(text);
  }

  private start(): void {
    try {
      mkdirSync(this.dir, { recursive: true });
      const s = statSync(this.dir);
      if (!s.isDirectory()) throw new Error('not a directory');
    } catch (e) {
      this.warn(`cannot use the cache directory ${this.dir} (${message(e)}); compiling without the cache`);
      return;
    }
    let Database: Sqlite;
    try { Database = loadSqlite(); } catch (e) {
      this.warn(`SQLite (better-sqlite3) cannot be loaded (${message(e)}); compiling without the cache`);
      return;
    }
    const problem = fileProblem(this.path);
    if (problem) { this.reset(problem, Database); return; }
    try {
      this.connect(Database);
    } catch (e) {
      if (unwritable(e) || transient(e)) { this.off(e); return; }
      this.reset(e instanceof Damaged ? e.message : `SQLite cannot read it: ${message(e)}`, Database);
    }
  }

  private connect(Database: Sqlite): void {
    const db = new Database(this.path, { timeout: BUSY_TIMEOUT_MS });
    try {
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
      const ours = () => db.pragma('application_id', { simple: true }) === APPLICATION_ID && db.pragma('user_version', { simple: true }) === SCHEMA_VERSION;
      if (!ours()) {
        // A new file: create the layout, once, whichever process gets there first.
        db.transaction(() => {
          if (ours()) return;
          const app = db.pragma('application_id', { simple: true }) as number;
          const objects = (db.prepare('SELECT count(*) AS n FROM sqlite_master').get() as { n: number }).n;
          if (app !== 0 || objects !== 0) throw new Damaged(`it is not an rdna shader cache of schema ${SCHEMA_VERSION} (application id 0x${app.toString(16)}, schema ${String(db.pragma('user_version', { simple: true }))}, ${objects} objects)`);
          db.exec(SCHEMA);
        }).immediate();
      }
      const cols = (db.prepare('SELECT name FROM pragma_table_info(\'entries\') ORDER BY cid').all() as { name: string }[]).map((r) => r.name);
      if (cols.join() !== COLUMNS.join()) throw new Damaged(`its entries table is not this schema (columns ${cols.join(', ') || 'none'})`);
      this.st = {
        get: db.prepare('SELECT key, spirv, result, ir, checksum FROM entries WHERE hash = ?'),
        touch: db.prepare('UPDATE entries SET used = (SELECT COALESCE(MAX(used), 0) + 1 FROM entries) WHERE hash = ?'),
        remove: db.prepare('DELETE FROM entries WHERE hash = ?'),
        put: db.prepare('INSERT OR REPLACE INTO entries (hash, key, build, spirv, result, ir, checksum, size, used) VALUES (@hash, @key, @build, @spirv, @result, @ir, @checksum, @size, (SELECT COALESCE(MAX(used), 0) + 1 FROM entries))'),
        total: db.prepare('SELECT COALESCE(SUM(size), 0) AS n FROM entries'),
        oldest: db.prepare('SELECT hash, size FROM entries WHERE hash != ? ORDER BY used ASC LIMIT 64'),
      };
      this.db = db;
    } catch (e) {
      try { db.close(); } catch { /* already unusable */ }
      throw e;
    }
  }

  /** The database is damaged or foreign: one warning, delete it, start an empty one. */
  private reset(why: string, Database: Sqlite = loadSqlite()): void {
    this.warn(`cache ${this.path}: ${why}; recreated it (shaders are recompiled)`);
    this.recreated = why;
    this.closeDb();
    try {
      for (const suffix of ['', '-wal', '-shm', '-journal']) removeFile(this.path + suffix);
      this.connect(Database);
    } catch (e) {
      this.off(e);
    }
  }

  /** Stop using the cache for the rest of this process. */
  private off(e: unknown): void {
    this.warn(`cache ${this.path} cannot be used (${message(e)}); compiling without the cache`);
    this.closeDb();
  }

  private closeDb(): void {
    const db = this.db;
    this.db = undefined;
    this.st = undefined;
    try { db?.close(); } catch { /* nothing left to save */ }
  }

  /** An error from SQLite during a lookup or store: wait-and-skip, stop, or recreate. */
  private failed(e: unknown): void {
    if (transient(e)) this.warn(`cache ${this.path} is busy (another process held it for ${BUSY_TIMEOUT_MS / 1000} s); this shader is not cached`);
    else if (unwritable(e)) this.off(e);
    else this.reset(`SQLite reports ${message(e)}`);
  }

  /** The compiled shader stored for `key`; undefined for a miss or a stored refusal. */
  get(key: CacheKey): CompiledShader | undefined {
    const v = this.lookup(key);
    return v && !isRefusal(v) ? v : undefined;
  }

  /** The entry for `key`, or undefined (a miss: none, a damaged one (removed), another key at its hash, or an unusable cache). */
  lookup(key: CacheKey): CacheValue | undefined {
    const st = this.st;
    if (!st) return undefined;
    try {
      const row = st.get.get(key.hash) as Record<string, unknown> | undefined;
      if (!row) return undefined;
      const problem = rowProblem(row, key.json);
      if (problem === 'its key is another shader\'s') return undefined;
      let entry: CacheValue | undefined;
      if (!problem) {
        try { entry = decodeEntry(row as unknown as EntryRow); } catch { entry = undefined; }
      }
      if (!entry) {
        this.warn(`cache ${this.path}: an entry is damaged (${problem ?? 'its reports cannot be read'}); removed it (the shader is recompiled)`);
        st.remove.run(key.hash);
        return undefined;
      }
      st.touch.run(key.hash);
      return entry;
    } catch (e) {
      this.failed(e);
      return undefined;
    }
  }

  /** Stores the entry for `key` (replacing any at its hash), then evicts the least recently used past the limit. False when not stored. */
  put(key: CacheKey, c: CacheValue): boolean {
    const row = encodeEntry(key.json, c);
    const size = entrySize(row);
    if (size > this.limit) return false;
    for (let attempt = 0; attempt < 2; attempt++) {
      const db = this.db;
      const st = this.st;
      if (!db || !st) return false;
      try {
        db.transaction(() => {
          st.put.run({ hash: key.hash, build: key.build, size, ...row });
          let total = (st.total.get() as { n: number }).n;
          while (total > this.limit) {
            const victims = st.oldest.all(key.hash) as { hash: string; size: number }[];
            if (victims.length === 0) break;
            for (const v of victims) {
              st.remove.run(v.hash);
              total -= v.size;
              if (total <= this.limit) break;
            }
          }
        }).immediate();
        return true;
      } catch (e) {
        // A store into a recreated database is tried once more.
        const before = this.db;
        this.failed(e);
        if (transient(e) || this.db === before) return false;
      }
    }
    return false;
  }

  /** Counts and sizes; `build` is this rdna's build hash (key.ts buildId). */
  stats(build: string): CacheStats {
    const fileBytes = ['', '-wal'].reduce((n, s) => n + (existsSync(this.path + s) ? statSync(this.path + s).size : 0), 0);
    const none = { path: this.path, entries: 0, bytes: 0, thisBuild: 0, fileBytes };
    const db = this.db;
    if (!db) return none;
    try {
      const r = db.prepare('SELECT count(*) AS n, COALESCE(SUM(size), 0) AS bytes, COALESCE(SUM(build = ?), 0) AS mine FROM entries').get(build) as { n: number; bytes: number; mine: number };
      return { path: this.path, entries: r.n, bytes: r.bytes, thisBuild: r.mine, fileBytes };
    } catch (e) {
      this.failed(e);
      return none;
    }
  }

  /** SQLite's integrity check, then every entry's checksum and key hash; damaged entries are removed. */
  verify(): VerifyReport {
    if (this.recreated !== undefined) return { path: this.path, entries: 0, damaged: 0, recreated: this.recreated };
    const db = this.db;
    if (!db) return { path: this.path, entries: 0, damaged: 0, recreated: 'the cache cannot be used' };
    try {
      const check = (db.prepare('PRAGMA integrity_check').all() as { integrity_check: string }[]).map((r) => r.integrity_check);
      if (check.join() !== 'ok') {
        this.reset(`SQLite's integrity check: ${check[0] ?? 'no answer'}`);
        return { path: this.path, entries: 0, damaged: 0, recreated: this.recreated ?? 'integrity check failed' };
      }
      const bad: string[] = [];
      let entries = 0;
      for (const row of db.prepare('SELECT hash, key, spirv, result, ir, checksum FROM entries').iterate() as IterableIterator<Record<string, unknown>>) {
        entries++;
        const key = typeof row['key'] === 'string' ? row['key'] : '';
        const hashOk = typeof row['hash'] === 'string' && createHash('sha256').update(key).digest('hex') === row['hash'];
        let ok = hashOk && rowProblem(row, key) === undefined;
        if (ok) { try { decodeEntry(row as unknown as EntryRow); } catch { ok = false; } }
        if (!ok) bad.push(String(row['hash']));
      }
      const remove = this.st?.remove;
      if (remove) db.transaction(() => { for (const h of bad) remove.run(h); }).immediate();
      return { path: this.path, entries, damaged: bad.length };
    } catch (e) {
      if (transient(e) || unwritable(e)) throw new Error(`cache ${this.path}: ${message(e)}`);
      this.reset(`SQLite reports ${message(e)}`);
      return { path: this.path, entries: 0, damaged: 0, recreated: this.recreated ?? message(e) };
    }
  }

  /** Removes every entry and returns the space to the file system. The number removed. */
  clear(): number {
    const db = this.db;
    if (!db) return 0;
    try {
      const n = db.prepare('DELETE FROM entries').run().changes;
      db.exec('VACUUM');
      return n;
    } catch (e) {
      if (transient(e) || unwritable(e)) throw new Error(`cache ${this.path}: ${message(e)}`);
      this.reset(`SQLite reports ${message(e)}`);
      return 0;
    }
  }

  close(): void {
    this.closeDb();
  }
}
