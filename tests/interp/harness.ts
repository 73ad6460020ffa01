// Running test kernels in the interpreter: kernels assembled by llvm-mc-19 (tests/harness/kernel.ts)
// are dispatched with src/interp/dispatch.ts on buffers the test gives; the kernarg segment is the
// buffers' 64-bit addresses in order (8 bytes each, from offset 0), so a kernel finds buffer k at
// kernarg offset 8 * k through the kernarg pointer the descriptor enables (KERNARG_DIRECTIVES: s[0:1]).
import type { Shader } from '../../src/container/shader.js';
import type { Target } from '../../src/isa/types.js';
import { dispatch, type Dim3, type DispatchStats } from '../../src/interp/dispatch.js';
import { GlobalMemory } from '../../src/interp/memory.js';
import { assembleShaders, type KernelSpec } from '../harness/kernel.js';

/** Enables the kernarg segment pointer (user SGPRs s[0:1]) and declares a 64-byte kernarg segment. */
export const KERNARG_DIRECTIVES = ['.amdhsa_user_sgpr_kernarg_segment_ptr 1', '.amdhsa_kernarg_size 64'] as const;

export interface RunOptions {
  readonly grid?: Dim3;
  readonly block?: Dim3;
  readonly maxSteps?: number;
}

export interface RunResult {
  /** The buffers after the run (the same arrays the caller passed: the kernel wrote into them). */
  readonly buffers: Uint8Array[];
  readonly stats: DispatchStats;
  /** Each buffer's address in the dispatch. */
  readonly addresses: number[];
}

/** Dispatches `shader` over `buffers` (written in place). Defaults: one workgroup of 64 work-items. */
export function runKernel(shader: Shader, buffers: Uint8Array[], o: RunOptions = {}): RunResult {
  const mem = new GlobalMemory();
  const addresses = buffers.map((b, k) => mem.map(`buffer ${k}`, b));
  const kernarg = new Uint8Array(Math.max(64, 8 * buffers.length));
  const kv = new DataView(kernarg.buffer);
  addresses.forEach((a, k) => kv.setBigUint64(8 * k, BigInt(a), true));
  const block = o.block ?? [64, 1, 1];
  const stats = dispatch(shader, { grid: o.grid ?? block, block, kernarg, mem, maxSteps: o.maxSteps ?? 10_000_000 });
  return { buffers, stats, addresses };
}

/** Assembles kernels (wave32 or wave64 as each spec says; two llvm-mc runs at most) with the kernarg directives added. */
export function assemble(target: Target, specs: readonly KernelSpec[]): Map<string, Shader> {
  const withArgs = specs.map((s) => ({ ...s, directives: [...KERNARG_DIRECTIVES, ...(s.directives ?? [])] }));
  const out = new Map<string, Shader>();
  for (const w of [false, true]) {
    const batch = withArgs.filter((s) => (s.wave64 ?? false) === w);
    if (batch.length) for (const [k, v] of assembleShaders(target, batch)) out.set(k, v);
  }
  return out;
}

export function get(shaders: Map<string, Shader>, name: string): Shader {
  const s = shaders.get(name);
  if (!s) throw new Error(`no kernel ${name}`);
  return s;
}

/** A buffer of little-endian dwords. */
export function dwords(values: readonly number[] | number): Uint8Array {
  if (typeof values === 'number') return new Uint8Array(4 * values);
  const b = new Uint8Array(4 * values.length);
  const v = new DataView(b.buffer);
  values.forEach((x, k) => v.setUint32(4 * k, x >>> 0, true));
  return b;
}

export function readDwords(b: Uint8Array): number[] {
  const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const out: number[] = [];
  for (let k = 0; k + 4 <= b.length; k += 4) out.push(v.getUint32(k, true));
  return out;
}
