// Recompiling through the cache: the key (key.ts), a lookup, and on a miss the recompile whose
// result is stored. What `rdna compile` and each `rdna compile-all` worker call. Node layer.
import { buildCfg } from '../analysis/cfg.js';
import type { Cfg } from '../analysis/types.js';
import { printInstruction } from '../disasm/index.js';
import type { TargetProfile } from '../backend/profile.js';
import { recompile } from '../backend/recompile.js';
import { CompileError } from '../backend/spirv/errors.js';
import type { Shader } from '../container/shader.js';
import { TranslateError } from '../frontend/errors.js';
import { type CompiledShader, compiledOf, isRefusal, type Refusal } from './entry.js';
import { cacheKey } from './key.js';
import type { ShaderCache } from './store.js';

/** hit: served from the cache; miss: recompiled (and stored); off: no cache in use. */
export type CacheStatus = 'hit' | 'miss' | 'off';

export interface CachedCompile {
  readonly compiled: CompiledShader;
  readonly cache: CacheStatus;
}

/** A refusal served from the cache: the recompiler's error again, the same message, pc and instruction. */
export class CachedRefusal extends Error {
  override readonly name = 'CachedRefusal';
  readonly pc: number | undefined;
  readonly instruction: string | undefined;
  constructor(readonly refusal: Refusal) {
    super(refusal.message);
    this.pc = refusal.pc;
    this.instruction = refusal.instruction;
  }
}

/** The refusal to store for what recompile threw, or undefined when it is not a refusal (a bug is never cached). */
export function refusalOf(e: unknown, instructionAt: (pc: number) => string | undefined): Refusal | undefined {
  if (e instanceof TranslateError) return { kind: 'TranslateError', message: e.message, ...(e.pc !== undefined ? { pc: e.pc } : {}), ...(e.instruction !== undefined ? { instruction: e.instruction } : {}) };
  if (e instanceof CompileError) {
    const instruction = e.pc !== undefined ? instructionAt(e.pc) : undefined;
    return { kind: 'CompileError', message: e.message, ...(e.pc !== undefined ? { pc: e.pc } : {}), ...(instruction !== undefined ? { instruction } : {}) };
  }
  return undefined;
}

/**
 * Throws what recompile throws (TranslateError, CompileError) for what the recompiler does not
 * cover; a refusal is stored too, and a stored one is thrown again as a CachedRefusal.
 */
export function compileCached(shader: Shader, profile: TargetProfile, cache: ShaderCache | undefined, build?: string, workItems?: number): CachedCompile {
  const options = { profile, ...(workItems !== undefined ? { workItems } : {}) };
  if (!cache?.usable) return { compiled: compiledOf(recompile(shader, options)), cache: 'off' };
  const cfg = buildCfg(shader);
  const key = cacheKey(shader, profile, { cfg, ...(build !== undefined ? { build } : {}), ...(workItems !== undefined ? { workItems } : {}) });
  const hit = cache.lookup(key);
  if (hit) {
    if (isRefusal(hit)) throw new CachedRefusal(hit.refusal);
    return { compiled: hit, cache: 'hit' };
  }
  let compiled: CompiledShader;
  try {
    compiled = compiledOf(recompile(shader, { ...options, analyses: { cfg } }));
  } catch (e) {
    const refusal = refusalOf(e, (pc) => instructionText(shader, cfg, pc));
    if (refusal) cache.put(key, { refusal });
    throw e;
  }
  cache.put(key, compiled);
  return { compiled, cache: 'miss' };
}

/** The text of the instruction at `pc` (a CompileError names only the pc). */
export function instructionText(shader: Shader, cfg: Cfg, pc: number): string | undefined {
  for (const b of cfg.blocks) for (const i of b.instructions) if (i.pc === pc) return printInstruction(i, shader.info.target);
  return undefined;
}
