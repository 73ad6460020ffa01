// Builds the OpenCL C fixtures (tests/fixtures/opencl) into AMDGPU code objects at test time with
// clang-19 and Debian's libclc-19 (its amdgcn-mesa3d build links into HSA kernels; the fixtures
// bring HSA work-item functions of their own, tests/fixtures/opencl/hsa-workitem.h).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Target } from '../../src/isa/types.js';

export const OPENCL_FIXTURES = new URL('../fixtures/opencl/', import.meta.url).pathname;

let dir: string | undefined;
const built = new Map<string, string>();

export interface OpenClOptions {
  readonly target?: Target;
  readonly wave64?: boolean;
  /** Extra clang options (e.g. -cl-denorms-are-zero). */
  readonly options?: readonly string[];
}

/** The code object of `source` (a file in tests/fixtures/opencl), built once per set of options. */
export function buildOpenCl(source: string, o: OpenClOptions = {}): string {
  const target = o.target ?? 'gfx1030';
  const key = JSON.stringify([source, target, o.wave64 ?? false, o.options ?? []]);
  const hit = built.get(key);
  if (hit) return hit;
  dir ??= mkdtempSync(join(tmpdir(), 'rdna-ocl-'));
  const lib = `/usr/lib/clc/${target}-amdgcn-mesa-mesa3d.bc`;
  if (!existsSync(lib)) throw new Error(`libclc-19 is not installed (${lib})`);
  const out = join(dir, `${source.replace(/\W/g, '_')}-${built.size}.o`);
  const r = spawnSync('clang-19', ['-x', 'cl', '-cl-std=CL1.2', '-target', 'amdgcn-amd-amdhsa', `-mcpu=${target}`, '-nogpulib', '-O2', '-Wno-linker-warnings',
    '-I', OPENCL_FIXTURES, '-Xclang', '-mlink-builtin-bitcode', '-Xclang', lib, ...(o.options ?? []), ...(o.wave64 ? ['-mwavefrontsize64'] : []),
    '-c', join(OPENCL_FIXTURES, source), '-o', out], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`clang-19 failed on ${source}: ${r.stderr}`);
  built.set(key, out);
  return out;
}

const linked = new Map<string, string>();

/** `obj` linked by ld.lld-19 into a shared object (the form a runtime loads: relocations applied), once. */
export function linkOpenCl(obj: string): string {
  const hit = linked.get(obj);
  if (hit) return hit;
  const out = obj.replace(/\.o$/, '') + '.so';
  const r = spawnSync('ld.lld-19', ['-shared', obj, '-o', out], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`ld.lld-19 failed on ${obj}: ${r.stderr}`);
  linked.set(obj, out);
  return out;
}
