// Recompiling through the cache: the key (key.ts), a lookup, and on a miss the recompile whose
// result is stored. What `rdna compile` and each `rdna compile-all` worker call. Node layer.
import { buildCfg } from '../analysis/cfg.js';
import type { TargetProfile } from '../backend/profile.js';
import { recompile } from '../backend/recompile.js';
import type { Shader } from '../container/shader.js';
import { type CompiledShader, compiledOf } from './entry.js';
import { cacheKey } from './key.js';
import type { ShaderCache } from './store.js';

/** hit: served from the cache; miss: recompiled (and stored); off: no cache in use. */
export type CacheStatus = 'hit' | 'miss' | 'off';

export interface CachedCompile {
  readonly compiled: CompiledShader;
  readonly cache: CacheStatus;
}

/** Throws what recompile throws (TranslateError, CompileError) for what the recompiler does not cover; such failures are not cached. */
export function compileCached(shader: Shader, profile: TargetProfile, cache: ShaderCache | undefined, build?: string): CachedCompile {
  if (!cache?.usable) return { compiled: compiledOf(recompile(shader, { profile })), cache: 'off' };
  const key = cacheKey(shader, profile, { cfg: buildCfg(shader), ...(build !== undefined ? { build } : {}) });
  const hit = cache.get(key);
  if (hit) return { compiled: hit, cache: 'hit' };
  const compiled = compiledOf(recompile(shader, { profile }));
  cache.put(key, compiled);
  return { compiled, cache: 'miss' };
}
