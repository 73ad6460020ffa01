// One shader of `rdna compile-all`: recompiled through the cache, its SPIR-V written, the outcome
// reported. Run by the worker threads (compile-all-worker.ts) and, with one job, by the main thread.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { buildCfg } from '../analysis/cfg.js';
import type { TargetProfile } from '../backend/profile.js';
import { CompileError } from '../backend/spirv/errors.js';
import type { Shader } from '../container/shader.js';
import { printInstruction } from '../disasm/index.js';
import { TranslateError } from '../frontend/errors.js';
import { compileCached } from '../cache/compile.js';
import type { ShaderCache } from '../cache/store.js';

export interface Task {
  readonly id: number;
  readonly shader: Shader;
  /** Where the SPIR-V goes; none: compiled (and cached) only. */
  readonly out?: string;
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

/** The instruction text at `pc` (a CompileError names only the pc). */
function instructionAt(shader: Shader, pc: number): string | undefined {
  try {
    for (const b of buildCfg(shader).blocks) for (const i of b.instructions) if (i.pc === pc) return printInstruction(i, shader.info.target);
  } catch { /* the message has the pc */ }
  return undefined;
}

export function failureOf(e: unknown, shader: Shader): Failure {
  if (e instanceof TranslateError) return { message: e.message, ...(e.pc !== undefined ? { pc: e.pc } : {}), ...(e.instruction !== undefined ? { instruction: e.instruction } : {}) };
  if (e instanceof CompileError) {
    const instruction = e.pc !== undefined ? instructionAt(shader, e.pc) : undefined;
    return { message: e.message, ...(e.pc !== undefined ? { pc: e.pc } : {}), ...(instruction !== undefined ? { instruction } : {}) };
  }
  // A recompiler bug: reported for this shader; the others go on.
  return { message: `internal error: ${(e instanceof Error ? e.message : String(e)).split('\n')[0]} (please report this with the input)` };
}

export function runTask(t: Task, profile: TargetProfile, cache: ShaderCache | undefined, build: string | undefined): TaskResult {
  let r;
  try {
    r = compileCached(t.shader, profile, cache, build);
  } catch (e) {
    return { id: t.id, status: 'failed', error: failureOf(e, t.shader) };
  }
  const spirv = r.compiled.spirv;
  if (t.out !== undefined) {
    try {
      mkdirSync(dirname(t.out), { recursive: true });
      writeFileSync(t.out, new Uint8Array(spirv.buffer, spirv.byteOffset, spirv.byteLength));
    } catch (e) {
      const code = (e as { code?: string }).code;
      return { id: t.id, status: 'failed', error: { message: `cannot write ${t.out}: ${code ?? (e instanceof Error ? e.message : String(e))}` } };
    }
  }
  return { id: t.id, status: r.cache === 'hit' ? 'cached' : 'compiled', words: spirv.length };
}
