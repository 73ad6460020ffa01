// One shader of `rdna compile-all`: the main thread looks it up in the cache (a hit is written
// there, serveHit); a miss is recompiled, stored under its key and written (runTask), by a worker
// thread (compile-all-worker.ts) or, with one job, by the main thread.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { buildCfg } from '../analysis/cfg.js';
import type { TargetProfile } from '../backend/profile.js';
import { recompile } from '../backend/recompile.js';
import type { Shader } from '../container/shader.js';
import { type CacheValue, type CompiledShader, compiledOf, isRefusal, type Refusal } from '../cache/entry.js';
import { CachedRefusal, instructionText, refusalOf } from '../cache/compile.js';
import type { CacheKey } from '../cache/key.js';
import type { ShaderCache } from '../cache/store.js';

export interface Task {
  readonly id: number;
  readonly shader: Shader;
  /** Where the SPIR-V goes; none: compiled (and cached) only. */
  readonly out?: string;
  /** The key it missed under (with the cache on): the result is stored under it. */
  readonly key?: CacheKey;
  /** `--work-items`, capped at the kernel's own bound: the largest workgroup the module is compiled for. */
  readonly workItems?: number;
}

export interface Failure {
  /** The error as `rdna compile` prints it (after `error: KERNEL: `): pc, instruction and words when the recompiler names them. */
  readonly message: string;
  readonly pc?: number;
  readonly instruction?: string;
}

export type TaskStatus = 'compiled' | 'cached' | 'failed';

export interface TaskResult {
  readonly id: number;
  readonly status: TaskStatus;
  readonly words?: number;
  readonly error?: Failure;
}

export function failureOf(e: unknown, shader: Shader): Failure {
  if (e instanceof CachedRefusal) return failureFrom(e.refusal);
  const refusal = refusalOf(e, (pc) => { try { return instructionText(shader, buildCfg(shader), pc); } catch { return undefined; } });
  if (refusal) return failureFrom(refusal);
  // A recompiler bug: reported for this shader; the others go on.
  return { message: `internal error: ${(e instanceof Error ? e.message : String(e)).split('\n')[0]} (please report this with the input)` };
}

const failureFrom = (r: Refusal): Failure => ({ message: r.message, ...(r.pc !== undefined ? { pc: r.pc } : {}), ...(r.instruction !== undefined ? { instruction: r.instruction } : {}) });

/** Recompiles a shader the cache did not have, stores it under its key, writes it. */
export function runTask(t: Task, profile: TargetProfile, cache: ShaderCache | undefined): TaskResult {
  let compiled: CompiledShader;
  try {
    compiled = compiledOf(recompile(t.shader, { profile, ...(t.workItems !== undefined ? { workItems: t.workItems } : {}) }));
  } catch (e) {
    const error = failureOf(e, t.shader);
    const refusal = refusalOf(e, () => error.instruction);
    if (t.key && cache && refusal) cache.put(t.key, { refusal });
    return { id: t.id, status: 'failed', error };
  }
  if (t.key && cache) cache.put(t.key, compiled);
  return written(t, compiled.spirv, 'compiled');
}

/** A shader the cache had: written as a recompile would write it, or failed as the recompiler refused it. */
export function serveHit(t: Task, hit: CacheValue): TaskResult {
  if (isRefusal(hit)) return { id: t.id, status: 'failed', error: failureFrom(hit.refusal) };
  return written(t, hit.spirv, 'cached');
}

function written(t: Task, spirv: Uint32Array, status: 'compiled' | 'cached'): TaskResult {
  if (t.out !== undefined) {
    try {
      mkdirSync(dirname(t.out), { recursive: true });
      writeFileSync(t.out, new Uint8Array(spirv.buffer, spirv.byteOffset, spirv.byteLength));
    } catch (e) {
      const code = (e as { code?: string }).code;
      return { id: t.id, status: 'failed', error: { message: `cannot write ${t.out}: ${code ?? (e instanceof Error ? e.message : String(e))}` } };
    }
  }
  return { id: t.id, status, words: spirv.length };
}
