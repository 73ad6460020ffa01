// rdna cache stats|verify|clear [--cache DIR] [--json]: the shader cache's size and entries, a
// full check (SQLite's integrity check, every entry's checksum and key hash; damaged entries are
// removed, exit 1 when any were found), or removing every entry.
import { buildId } from '../cache/key.js';
import { ShaderCache } from '../cache/store.js';
import { oneOf, parseArgs } from './args.js';
import { defaultCacheDir, warnOnce } from './cache-options.js';
import { UsageError } from './errors.js';
import { Output } from './output.js';

export const CACHE_USAGE_LINE = 'usage: rdna cache stats|verify|clear [--cache DIR] [--json]';

const mib = (n: number) => (n < 1024 * 1024 ? `${(n / 1024).toFixed(1)} KiB` : `${(n / (1024 * 1024)).toFixed(1)} MiB`);

export function runCache(argv: readonly string[]): number {
  const args = parseArgs(argv, ['cache'], ['json']);
  const [sub, ...more] = args.positional;
  if (sub === undefined) throw new UsageError(`cache needs a subcommand: stats, verify or clear (${CACHE_USAGE_LINE})`);
  if (more.length) throw new UsageError(`cache ${sub} takes no arguments (got '${more.join(' ')}')`);
  const what = oneOf(sub, ['stats', 'verify', 'clear'] as const, 'the cache subcommand');
  const dirOpt = args.options.get('cache');
  if (dirOpt === '') throw new UsageError('--cache needs a directory');
  const dir = typeof dirOpt === 'string' ? dirOpt : defaultCacheDir();
  const json = args.options.get('json') === true;
  const cache = ShaderCache.open({ dir, warn: warnOnce('cache') });
  const out = new Output();
  let status = 0;
  try {
    if (what === 'stats') {
      const s = cache.stats(buildId());
      if (json) out.line(JSON.stringify(s));
      else {
        out.line(`cache        ${s.path}`);
        out.line(`entries      ${s.entries} (${s.thisBuild} from this build of rdna)`);
        out.line(`entry bytes  ${s.bytes} (${mib(s.bytes)})`);
        out.line(`file bytes   ${s.fileBytes} (${mib(s.fileBytes)})`);
      }
    } else if (what === 'verify') {
      const r = cache.verify();
      const ok = r.damaged === 0 && r.recreated === undefined;
      if (json) out.line(JSON.stringify({ ...r, ok }));
      else if (r.recreated !== undefined) out.line(`cache ${r.path}: damaged (${r.recreated}); recreated it empty`);
      else out.line(`cache ${r.path}: ${r.entries} entr${r.entries === 1 ? 'y' : 'ies'} checked, ${r.damaged === 0 ? 'all sound' : `${r.damaged} damaged (removed)`}`);
      status = ok ? 0 : 1;
    } else {
      const n = cache.clear();
      if (json) out.line(JSON.stringify({ path: cache.path, removed: n }));
      else out.line(`cache ${cache.path}: removed ${n} entr${n === 1 ? 'y' : 'ies'}`);
    }
  } finally {
    cache.close();
  }
  out.flush();
  return status;
}
