// The cache options of `rdna compile` and `rdna compile-all`: --cache DIR, --no-cache,
// --cache-limit SIZE; the default directory ($XDG_CACHE_HOME/rdna-recompiler, else
// ~/.cache/rdna-recompiler); warnings as one line on stderr, once per process.
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { DEFAULT_CACHE_LIMIT, ShaderCache } from '../cache/store.js';
import type { ParsedArgs } from './args.js';
import { UsageError } from './errors.js';

export const CACHE_VALUED = ['cache', 'cache-limit'] as const;
export const CACHE_FLAGS = ['no-cache'] as const;
export const CACHE_USAGE = '[--cache DIR | --no-cache] [--cache-limit SIZE]';

/** $XDG_CACHE_HOME/rdna-recompiler (an absolute XDG_CACHE_HOME only, as the XDG spec says), else ~/.cache/rdna-recompiler. */
export function defaultCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const xdg = env['XDG_CACHE_HOME'];
  if (xdg && isAbsolute(xdg)) return join(xdg, 'rdna-recompiler');
  return join(env['HOME'] || homedir(), '.cache', 'rdna-recompiler');
}

const UNITS: Readonly<Record<string, number>> = { '': 1, b: 1, k: 1024, kb: 1024, kib: 1024, m: 1024 ** 2, mb: 1024 ** 2, mib: 1024 ** 2, g: 1024 ** 3, gb: 1024 ** 3, gib: 1024 ** 3 };

/** A size: bytes, or with K/M/G (KiB, MiB, GiB; powers of 1024), e.g. 256M, 1.5GiB, 65536. */
export function parseSize(text: string, what = '--cache-limit'): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([a-zA-Z]*)\s*$/.exec(text);
  const unit = m ? UNITS[(m[2] ?? '').toLowerCase()] : undefined;
  if (!m || unit === undefined) throw new UsageError(`${what} must be a size such as 256M, 1G or 65536 (got '${text}')`);
  const n = Math.floor(Number(m[1]) * unit);
  if (!Number.isSafeInteger(n) || n < 1) throw new UsageError(`${what} must be at least 1 byte (got '${text}')`);
  return n;
}

export interface CacheChoice {
  readonly dir: string;
  readonly limit: number;
}

/** The cache the options ask for; undefined for --no-cache. */
export function cacheChoice(args: ParsedArgs): CacheChoice | undefined {
  const dir = args.options.get('cache');
  const limit = args.options.get('cache-limit');
  if (args.options.get('no-cache') === true) {
    if (dir !== undefined || limit !== undefined) throw new UsageError('--no-cache cannot be combined with --cache or --cache-limit');
    return undefined;
  }
  if (dir === '') throw new UsageError('--cache needs a directory');
  return {
    dir: typeof dir === 'string' ? dir : defaultCacheDir(),
    limit: typeof limit === 'string' ? parseSize(limit) : DEFAULT_CACHE_LIMIT,
  };
}

/** A warning callback that prints `rdna CMD: warning: ...` once per process. */
export function warnOnce(cmd: string): (message: string) => void {
  let done = false;
  return (message) => {
    if (done) return;
    done = true;
    process.stderr.write(`rdna ${cmd}: warning: ${message}\n`);
  };
}

export function openCache(choice: CacheChoice | undefined, warn: (message: string) => void): ShaderCache | undefined {
  return choice ? ShaderCache.open({ dir: choice.dir, limit: choice.limit, warn }) : undefined;
}
