// The environment for tests that spawn `rdna compile` / `rdna compile-all`: XDG_CACHE_HOME in a
// temporary directory of this test process, so no test reads or writes the user's shader cache.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

let dir: string | undefined;

/** process.env with XDG_CACHE_HOME pointing at this process's own temporary directory. */
export function testCacheEnv(): NodeJS.ProcessEnv {
  dir ??= mkdtempSync(join(tmpdir(), 'rdna-xdg-cache-'));
  return { ...process.env, XDG_CACHE_HOME: dir };
}
