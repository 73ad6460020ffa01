// OpenCL C kernels (tests/fixtures/opencl/interp-*.cl) compiled at test time by clang-19 for gfx1030,
// wave32 and wave64, run by `rdna run --engine interp --json`, and compared byte for byte with the
// same source run on pocl (Debian's pocl-opencl-icd, the CPU device, through pyopencl): an oracle
// we did not write.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Rng } from '../harness/rng.js';
import { buildOpenCl } from '../harness/opencl.js';
import { atomicsArgs } from '../runtime/cases-breadth.js';

const BIN = new URL('../../bin/rdna', import.meta.url).pathname;
const FIX = new URL('../fixtures/opencl/', import.meta.url).pathname;
const POCL = new URL('../harness/pocl-run.py', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'rdna-pocl-'));

/** Build options a source needs on both sides. */
const OPTIONS: Record<string, readonly string[]> = { 'interp-float.cl': ['-cl-fp32-correctly-rounded-divide-sqrt'] };
const compile = (source: string, wave64: boolean) => buildOpenCl(source, { wave64, options: OPTIONS[source] ?? [] });

interface Case { readonly source: string; readonly kernel: string; readonly args: (rng: Rng) => { grid: number[]; block: number[]; args: unknown[] } }

function runBoth(c: Case, wave64: boolean, seed: number): void {
  const doc = { kernel: c.kernel, ...c.args(new Rng(seed)) };
  const argsFile = join(dir, `${c.kernel}-${seed}.json`);
  writeFileSync(argsFile, JSON.stringify(doc));
  const ours = spawnSync(process.execPath, [BIN, 'run', compile(c.source, wave64), '--args', argsFile, '--json'], { encoding: 'utf8', maxBuffer: 1 << 28 });
  assert.equal(ours.status, 0, `rdna run ${c.kernel}: ${ours.stderr}`);
  const pocl = spawnSync('/usr/bin/python3', [POCL, join(FIX, c.source), argsFile, `-I${FIX}`, ...(OPTIONS[c.source] ?? [])], { encoding: 'utf8', maxBuffer: 1 << 28 });
  assert.equal(pocl.status, 0, `pocl ${c.kernel}: ${pocl.stderr}`);
  const a = JSON.parse(ours.stdout) as { buffers: { arg: number; base64: string }[] };
  const b = JSON.parse(pocl.stdout) as { buffers: { arg: number; base64: string }[] };
  assert.deepEqual(a.buffers.map((x) => x.arg), b.buffers.map((x) => x.arg));
  a.buffers.forEach((x, k) => {
    const y = b.buffers[k];
    if (x.base64 === y?.base64) return;
    const bx = Buffer.from(x.base64, 'base64'), by = Buffer.from(y?.base64 ?? '', 'base64');
    let first = 0;
    while (first < bx.length && bx[first] === by[first]) first++;
    const at = first & ~3;
    assert.fail(`${c.kernel} (wave${wave64 ? 64 : 32}, seed ${seed}): argument ${x.arg} differs from pocl at byte ${first}: rdna ${bx.subarray(at, at + 8).toString('hex')} pocl ${by.subarray(at, at + 8).toString('hex')}`);
  });
}

const u32s = (r: Rng, n: number) => Array.from({ length: n }, () => r.u32());
const i32s = (r: Rng, n: number) => Array.from({ length: n }, () => r.u32() | 0);
/** f32 inputs biased to edges: zeros, denormals, huge, integers, ties, negatives, plain random. */
function f32s(r: Rng, n: number): string {
  const b = Buffer.alloc(4 * n);
  const edges = [0, 0x80000000, 1, 0x807fffff, 0x00800000, 0x7f7fffff, 0xff7fffff, 0x3f800000, 0x3f000000, 0x4b000000, 0x4b000001, 0x3fc00000, 0x7f800000, 0xff800000];
  for (let k = 0; k < n; k++) {
    const p = r.u32() % 8;
    const bits = p === 0 ? edges[r.u32() % edges.length] ?? 0 : p === 1 ? r.u32() & 0x807fffff : p === 2 ? (r.u32() & 0x80ffffff) | 0x4b000000 : ((r.u32() & 0x8fffffff) | 0x30000000);
    b.writeUInt32LE(bits >>> 0, 4 * k);
  }
  return b.toString('base64');
}
function f64s(r: Rng, n: number): string {
  const b = Buffer.alloc(8 * n);
  for (let k = 0; k < n; k++) {
    b.writeUInt32LE(r.u32(), 8 * k);
    b.writeUInt32LE(((r.u32() & 0x801fffff) | (0x3c000000 + ((r.u32() % 0x80) << 20))) >>> 0, 8 * k + 4);
  }
  return b.toString('base64');
}
function f16s(r: Rng, n: number): string {
  const b = Buffer.alloc(2 * n);
  for (let k = 0; k < n; k++) b.writeUInt16LE(r.u32() % 8 === 0 ? r.u32() & 0x83ff : r.u32() & 0xbfff, 2 * k);
  return b.toString('base64');
}

const CASES: readonly Case[] = [
  { source: 'interp-int.cl', kernel: 'int_mix', args: (r) => ({ grid: [256], block: [64], args: [{ buffer: 'u32', data: u32s(r, 256) }, { buffer: 'i32', data: i32s(r, 256) }, { buffer: 'u32', size: 8 * 256 }, { u32: 250 }] }) },
  { source: 'interp-int.cl', kernel: 'collatz', args: (r) => ({ grid: [256], block: [128], args: [{ buffer: 'u32', data: Array.from({ length: 256 }, () => 1 + (r.u32() % 5000)) }, { buffer: 'u32', size: 1024 }, { buffer: 'u32', size: 1024 }] }) },
  { source: 'interp-int.cl', kernel: 'histogram', args: (r) => ({ grid: [320], block: [64], args: [{ buffer: 'u32', data: u32s(r, 320) }, { buffer: 'u32', data: [...new Array<number>(16).fill(0), 0, 0xffffffff, 0, 0, 0] }, { buffer: 'u32', size: 1280 }, { u32: 16 }] }) },
  { source: 'interp-float.cl', kernel: 'f32_ops', args: (r) => ({ grid: [192], block: [64], args: [{ buffer: 'f32', base64: f32s(r, 192) }, { buffer: 'f32', base64: f32s(r, 192) }, { buffer: 'f32', base64: f32s(r, 192) }, { buffer: 'f32', size: 32 * 192 }] }) },
  { source: 'interp-float.cl', kernel: 'f64_ops', args: (r) => ({ grid: [128], block: [64], args: [{ buffer: 'f64', base64: f64s(r, 128) }, { buffer: 'f64', base64: f64s(r, 128) }, { buffer: 'f64', size: 48 * 128 }] }) },
  { source: 'interp-atomics.cl', kernel: 'atomics32', args: (r) => atomicsArgs('atomics32', r) },
  { source: 'interp-atomics.cl', kernel: 'atomics64', args: (r) => atomicsArgs('atomics64', r) },
  { source: 'interp-float.cl', kernel: 'f16_ops', args: (r) => ({ grid: [128], block: [64], args: [{ buffer: 'f16', base64: f16s(r, 128) }, { buffer: 'f16', base64: f16s(r, 128) }, { buffer: 'f16', size: 6 * 128 }, { buffer: 'f32', size: 4 * 128 }] }) },
];

for (const c of CASES) {
  test(`${c.source} ${c.kernel}: rdna run --engine interp equals pocl, wave32 and wave64`, () => {
    for (const wave64 of [false, true]) for (const seed of [1, 2]) runBoth(c, wave64, seed);
  });
}
