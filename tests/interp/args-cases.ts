// ARGS documents for the kernels of tests/fixtures/opencl/args.cl (issue 10: every kind of kernel
// argument, sequences, 2D/3D grids), shared by tests/interp/args-pocl.test.ts (the interpreter
// against pocl) and tests/runtime/args.test.ts (the Vulkan engine against pocl and the
// interpreter). Inputs come from a seeded Rng; floats are kept normal and moderate so that no
// result is subnormal (the kernel's float mode and pocl's may treat those differently) and the LU
// matrix is diagonally dominant.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import { Rng } from '../harness/rng.js';
import { buildOpenCl, OPENCL_FIXTURES } from '../harness/opencl.js';

export const SOURCE = 'args.cl';
/** Both sides build with these: argument names (args by name) and correctly rounded division (LU). */
export const BUILD = ['-cl-kernel-arg-info', '-cl-fp32-correctly-rounded-divide-sqrt'] as const;
export const compileArgs = (wave64: boolean) => buildOpenCl(SOURCE, { wave64, options: BUILD });

export interface ArgsCase {
  readonly name: string;
  readonly doc: object;
  /** The recompiler translates every kernel the case dispatches (else `--engine vulkan` fails with this pc's instruction). */
  readonly vulkan: true | { readonly untranslated: RegExp };
}

const POCL = new URL('../harness/pocl-run.py', import.meta.url).pathname;

/** pocl's buffers for a document: base64 per buffer argument (one dispatch) or per named buffer (a sequence). */
export function pocl(file: string): { arg?: number; name?: string; base64: string }[] {
  const r = spawnSync('/usr/bin/python3', [POCL, join(OPENCL_FIXTURES, SOURCE), file, `-I${OPENCL_FIXTURES}`, ...BUILD], { encoding: 'utf8', maxBuffer: 1 << 28 });
  assert.equal(r.status, 0, `pocl: ${r.stderr}`);
  return (JSON.parse(r.stdout) as { buffers: { arg?: number; name?: string; base64: string }[] }).buffers;
}

/** The first differing byte of two base64 buffers, for the message. */
export function firstDiff(a: string, b: string): string {
  const x = Buffer.from(a, 'base64'), y = Buffer.from(b, 'base64');
  let i = 0;
  while (i < x.length && x[i] === y[i]) i++;
  const at = i & ~3;
  return `byte ${i} of ${x.length}/${y.length}: rdna ${x.subarray(at, at + 8).toString('hex')} pocl ${y.subarray(at, at + 8).toString('hex')}`;
}

/** f32 bits, normal, magnitude in [2^-4, 2^6), either sign. */
function f32s(r: Rng, n: number): string {
  const b = Buffer.alloc(4 * n);
  for (let k = 0; k < n; k++) b.writeUInt32LE((((r.u32() & 1) << 31) | ((123 + (r.u32() % 10)) << 23) | (r.u32() & 0x7fffff)) >>> 0, 4 * k);
  return b.toString('base64');
}

/** The Params struct of args.cl, packed at OpenCL C's offsets; padding bytes are 0xa5 (the kernel must not read them). */
function params(a: number, scale: number, off: [number, number], c: number, big: bigint, s: number): string {
  const b = Buffer.alloc(40, 0xa5);
  b.writeInt32LE(a, 0);
  b.writeFloatLE(scale, 4);
  b.writeUInt32LE(off[0], 8);
  b.writeUInt32LE(off[1], 12);
  b.writeInt8(c, 16);
  b.writeBigInt64LE(big, 24);
  b.writeInt16LE(s, 32);
  return b.toString('base64');
}

export function argsCases(): ArgsCase[] {
  const r = new Rng(1010);
  const ints = (n: number) => Array.from({ length: n }, () => (r.u32() % 4001) - 2000);
  const n = 24;
  const lu: number[] = [];
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) lu.push(i === j ? 4 * n + (r.u32() % 9) + 1 : ((r.u32() % 41) - 20) / 8);
  return [
    // __local scratch: by name, then as a list with another workgroup size and spare bytes.
    { name: 'local_sum (by name)', vulkan: true, doc: { kernel: 'local_sum', grid: [256], block: [64], args: { in: { buffer: 'i32', data: ints(256) }, out: { buffer: 'i32', size: 48 }, scratch: { local: 256 }, wide: { local: 512 } } } },
    { name: 'local_sum (128 lanes)', vulkan: true, doc: { kernel: 'local_sum', grid: [512], block: [128], args: [{ buffer: 'i32', data: ints(512) }, { buffer: 'i32', size: 48 }, { local: 516 }, { local: 1030 }] } },
    { name: 'struct_arg', vulkan: true, doc: { kernel: 'struct_arg', grid: [96], block: [32], args: [{ buffer: 'f32', size: 384 }, { buffer: 'i32', size: 384 }, { bytes: params(-7, 1.75, [3, 0x10001], -5, -0x123456789abcdefn, -300) }] } },
    { name: 'vec_arg', vulkan: true, doc: { kernel: 'vec_arg', grid: [64], block: [64], args: { out: { buffer: 'f32', size: 16 * 60 }, in: { buffer: 'f32', base64: f32s(r, 4 * 60) }, k: { f32x4: [1.5, -0.25, 3, 0.75] }, m: { i32x4: [-3, 7, 100000, -2] }, c: { f32x3: [0.5, -1, 2.25] }, n: { u32: 60 } } } },
    { name: 'wide_arg', vulkan: true, doc: { kernel: 'wide_arg', grid: [64], block: [32], args: [{ buffer: 'u64', size: 512 }, { u64: '18364758544493064720' }, { u64x2: ['0x0123456789abcdef', 77] }] } },
    {
      name: 'LU sequence', vulkan: true, doc: {
        buffers: { A: { buffer: 'f32', data: lu } },
        dispatches: [{ repeat: n - 1, index: 'k', dispatches: [
          { kernel: 'lu_col', grid: [32], block: [32], args: [{ ref: 'A' }, { u32: n }, { u32: { index: 'k' } }] },
          { kernel: 'lu_sub', grid: [32, 32], block: [16, 4], args: { a: { ref: 'A' }, n: { u32: n }, k: { u32: { index: 'k' } } } },
        ] }],
      },
    },
    {
      name: 'mix sequence', vulkan: true, doc: {
        buffers: { X: { buffer: 'u32', data: Array.from({ length: 64 }, () => r.u32()) }, Y: { buffer: 'u32', size: 256 }, unused: { buffer: 'u8', data: [1, 2, 3] } },
        dispatches: [
          { kernel: 'mix_b', grid: [64], block: [16], args: [{ ref: 'X' }, { ref: 'Y' }, { u32: 5 }] },
          { repeat: 3, dispatches: [{ repeat: 50, index: 'k', start: 1000, step: -7, dispatches: [
            { kernel: 'mix_a', grid: [64], block: [16], args: [{ ref: 'X' }, { ref: 'Y' }, { u32: { index: 'k' } }] },
            { kernel: 'mix_b', grid: [64], block: [16], args: [{ ref: 'Y' }, { ref: 'X' }, { u32: { index: 'k', add: 1 } }] },
          ] }] },
        ],
      },
    },
    { name: 'grid_ids 2D', vulkan: true, doc: { kernel: 'grid_ids', grid: [48, 12], block: [16, 4], args: [{ buffer: 'u32', size: 8 * 48 * 12 }, { u32: 48 }, { u32: 12 }] } },
    { name: 'grid_ids 3D', vulkan: true, doc: { kernel: 'grid_ids', grid: [16, 6, 4], block: [8, 2, 2], args: [{ buffer: 'u32', size: 8 * 16 * 6 * 4 }, { u32: 16 }, { u32: 6 }] } },
    { name: 'stencil3d', vulkan: true, doc: { kernel: 'stencil3d', grid: [16, 8, 6], block: [8, 4, 2], args: [{ buffer: 'f32', base64: f32s(r, 16 * 8 * 6) }, { buffer: 'f32', size: 4 * 16 * 8 * 6 }, { i32x4: [16, 8, 6, 0] }] } },
  ];
}
