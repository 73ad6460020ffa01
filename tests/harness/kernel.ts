// Assembles test programs into real code objects with llvm-mc-19 (the encoding oracle): a body of
// gfx10 assembly becomes one kernel with a `.amdhsa_kernel` descriptor whose float mode, wave size
// and register counts the test chooses. Many kernels assemble in one llvm-mc run.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LLVM_MC } from './llvm.js';
import type { Target } from '../../src/isa/types.js';
import { loadShaders, type Shader } from '../../src/container/shader.js';

export interface KernelSpec {
  readonly name: string;
  /** Assembly of the kernel body (labels allowed; names should be unique across one batch). */
  readonly body: string;
  /** MODE bits 7:0 at launch (FLOAT_ROUND_MODE_32 1:0, _16_64 3:2, FLOAT_DENORM_MODE_32 5:4, _16_64 7:6). Default 0xc0. */
  readonly floatMode?: number;
  readonly dx10Clamp?: boolean;
  readonly ieeeMode?: boolean;
  /** `.amdhsa_fp16_overflow` (MODE.FP16_OVFL at launch); left out: the directive is not written (LLVM's default 0). */
  readonly fp16Overflow?: boolean;
  readonly wave64?: boolean;
  /** .amdhsa_next_free_vgpr (default 32) and _sgpr (default 32). */
  readonly vgprs?: number;
  readonly sgprs?: number;
  /** Extra `.amdhsa_*` directive lines. */
  readonly directives?: readonly string[];
  /** Functions placed after the kernel, each an STT_FUNC symbol of its own with its size (as clang links non-inlined functions). */
  readonly functions?: readonly { readonly name: string; readonly body: string }[];
}

let dir: string | undefined;
let seq = 0;

export function kernelSource(specs: readonly KernelSpec[]): string {
  const out: string[] = ['.text'];
  for (const k of specs) {
    out.push('.globl ' + k.name, '.p2align 8', `.type ${k.name},@function`, `${k.name}:`, k.body, `.L${k.name}_end:`, `.size ${k.name}, .L${k.name}_end-${k.name}`);
    for (const f of k.functions ?? []) out.push('.p2align 2', `.type ${f.name},@function`, `${f.name}:`, f.body, `.L${f.name}_end:`, `.size ${f.name}, .L${f.name}_end-${f.name}`);
  }
  out.push('.rodata');
  for (const k of specs) {
    const m = k.floatMode ?? 0xc0;
    out.push('.p2align 6', `.amdhsa_kernel ${k.name}`,
      `  .amdhsa_next_free_vgpr ${k.vgprs ?? 32}`, `  .amdhsa_next_free_sgpr ${k.sgprs ?? 32}`,
      `  .amdhsa_wavefront_size32 ${k.wave64 ? 0 : 1}`,
      `  .amdhsa_float_round_mode_32 ${m & 3}`, `  .amdhsa_float_round_mode_16_64 ${(m >> 2) & 3}`,
      `  .amdhsa_float_denorm_mode_32 ${(m >> 4) & 3}`, `  .amdhsa_float_denorm_mode_16_64 ${(m >> 6) & 3}`,
      `  .amdhsa_dx10_clamp ${k.dx10Clamp === false ? 0 : 1}`, `  .amdhsa_ieee_mode ${k.ieeeMode === false ? 0 : 1}`,
      ...(k.fp16Overflow !== undefined ? [`  .amdhsa_fp16_overflow ${k.fp16Overflow ? 1 : 0}`] : []),
      ...(k.directives ?? []).map((d) => `  ${d}`),
      '.end_amdhsa_kernel');
  }
  return out.join('\n') + '\n';
}

/** Assembles the kernels (all wave32 or all wave64) into one code object (ELF bytes); throws with llvm-mc's message on error. */
export function assembleKernels(target: Target, specs: readonly KernelSpec[]): Uint8Array {
  dir ??= mkdtempSync(join(tmpdir(), 'rdna-kernel-'));
  const tag = `k${process.pid}-${seq++}`;
  const s = join(dir, `${tag}.s`);
  const o = join(dir, `${tag}.o`);
  writeFileSync(s, kernelSource(specs));
  // The assembler's wave size decides how lane masks are spelled (vcc vs vcc_lo): one per batch.
  const w64 = specs.filter((k) => k.wave64).length;
  if (w64 !== 0 && w64 !== specs.length) throw new Error('assembleKernels: a batch is all wave32 or all wave64');
  const r = spawnSync(LLVM_MC, ['-triple=amdgcn-amd-amdhsa', `-mcpu=${target}`, ...(w64 ? ['-mattr=+wavefrontsize64'] : []), '-filetype=obj', s, '-o', o], { encoding: 'utf8', maxBuffer: 1 << 28 });
  if (r.status !== 0) throw new Error(`llvm-mc failed: ${(r.stderr || r.error?.message || '').slice(0, 2000)}`);
  return new Uint8Array(readFileSync(o));
}

/** Assembles the kernels and loads them through production code (loadShaders), by name. */
export function assembleShaders(target: Target, specs: readonly KernelSpec[]): Map<string, Shader> {
  const shaders = loadShaders({ bytes: assembleKernels(target, specs), name: 'test' });
  return new Map(shaders.map((s) => [s.info.name, s]));
}
