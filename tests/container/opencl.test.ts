// Real compiler output: OpenCL C (tests/fixtures/opencl/*.cl) compiled at test time by clang-19 with
// Debian's libclc-19 built-ins for every target, under float options, both wave sizes and code
// object v4 and v5, and linked by ld.lld-19 into shared objects. `rdna inspect --json` must agree
// with llvm-readelf-19's view of the same files (metadata note, symbols) and with what the clang
// options mean (AMDGPUUsage: OpenCL kernels run with DX10_CLAMP and IEEE on; f32 denormals are
// kept unless -cl-denorms-are-zero, which flushes them; f16/f64 denormals are kept).
// (llvm-objdump-19 cannot print these descriptors back: clang-19 sets
// COMPUTE_PGM_RSRC1.GRANULATED_WAVEFRONT_SGPR_COUNT, which objdump rejects on gfx10.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TARGETS, type Target } from '../../src/isa/types.js';
import { readelfFunctions, readelfMetadata } from '../harness/llvm-views.js';

const BIN = new URL('../../bin/rdna', import.meta.url).pathname;
const FIX = new URL('../fixtures/opencl/', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'rdna-ocl-'));

interface Variant { readonly tag: string; readonly source: string; readonly opts: readonly string[]; readonly libclc: boolean; readonly floatMode: number; readonly wave: 32 | 64; readonly version: readonly string[] }
const VARIANTS: readonly Variant[] = [
  { tag: 'default', source: 'kernels.cl', opts: [], libclc: true, floatMode: 0xf0, wave: 32, version: ['1', '2'] },
  { tag: 'daz', source: 'kernels.cl', opts: ['-cl-denorms-are-zero'], libclc: true, floatMode: 0xc0, wave: 32, version: ['1', '2'] },
  { tag: 'w64', source: 'kernels.cl', opts: ['-mwavefrontsize64'], libclc: true, floatMode: 0xf0, wave: 64, version: ['1', '2'] },
  { tag: 'v4', source: 'builtins-only.cl', opts: ['-mcode-object-version=4'], libclc: false, floatMode: 0xf0, wave: 32, version: ['1', '1'] },
  { tag: 'v4daz', source: 'builtins-only.cl', opts: ['-mcode-object-version=4', '-cl-denorms-are-zero', '-mwavefrontsize64'], libclc: false, floatMode: 0xc0, wave: 64, version: ['1', '1'] },
];

function compile(target: Target, v: Variant): string {
  const out = join(dir, `${v.tag}.${target}.o`);
  const lib = `/usr/lib/clc/${target}-amdgcn-mesa-mesa3d.bc`;
  assert.ok(!v.libclc || existsSync(lib), `libclc-19 is not installed (${lib})`);
  const r = spawnSync('clang-19', [
    '-x', 'cl', '-cl-std=CL1.2', '-target', 'amdgcn-amd-amdhsa', `-mcpu=${target}`, '-nogpulib', '-O2', '-Wno-linker-warnings',
    ...(v.libclc ? ['-Xclang', '-mlink-builtin-bitcode', '-Xclang', lib] : []), ...v.opts, '-c', join(FIX, v.source), '-o', out,
  ], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return out;
}

function link(obj: string): string {
  const so = obj.replace(/\.o$/, '.so');
  const r = spawnSync('ld.lld-19', ['-shared', obj, '-o', so], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return so;
}

interface KernelJson {
  name: string; entry: number; codeRange: [number, number]; floatMode: number; dx10Clamp: boolean; ieeeMode: boolean; waveSize: number;
  ldsSize: number; scratchSize: number; kernargSize: number; workgroupSize?: number[]; assumed: string[]; source: string;
  userSgprs: Record<string, string>;
  args: { offset: number; size: number; valueKind: string; typeName?: string; name?: string; addressSpace?: string }[];
}

function inspect(file: string): { target: string; kernels: KernelJson[] } {
  const r = spawnSync(process.execPath, [BIN, 'inspect', '--json', file], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout) as { target: string; kernels: KernelJson[] };
}

function checkAgainstLlvm(file: string, target: Target, v: Variant, linked: boolean) {
  const doc = inspect(file);
  const meta = readelfMetadata(file);
  assert.deepEqual(meta.version, [...v.version], 'code object version');
  assert.equal(doc.target, target);
  assert.deepEqual(doc.kernels.map((k) => k.name).sort(), [...meta.kernels.keys()].sort());
  const funcs = readelfFunctions(file);
  for (const k of doc.kernels) {
    const m = meta.kernels.get(k.name);
    assert.ok(m);
    const key = (n: string) => { const x = m.keys.get(n); assert.ok(x !== undefined, `${k.name}: readelf prints no ${n}`); return Number(x); };
    assert.equal(k.source, 'code-object');
    assert.deepEqual(k.assumed, []);
    assert.equal(k.floatMode, v.floatMode, `${k.name}: float mode`);
    assert.equal(k.dx10Clamp, true);
    assert.equal(k.ieeeMode, true);
    assert.equal(k.waveSize, v.wave);
    assert.equal(k.waveSize, key('.wavefront_size'));
    assert.equal(k.ldsSize, key('.group_segment_fixed_size'));
    assert.equal(k.scratchSize, key('.private_segment_fixed_size'));
    assert.equal(k.kernargSize, key('.kernarg_segment_size'));
    assert.ok('kernarg_segment_ptr' in k.userSgprs, `${k.name}: a kernel with arguments gets the kernarg pointer`);
    const wg = m.lists.get('.reqd_workgroup_size');
    assert.deepEqual(k.workgroupSize, wg?.map(Number));
    assert.equal(k.args.length, m.args.length);
    k.args.forEach((a, i) => {
      const r = m.args[i];
      assert.ok(r);
      assert.equal(a.offset, Number(r.get('.offset')));
      assert.equal(a.size, Number(r.get('.size')));
      assert.equal(a.valueKind, r.get('.value_kind'));
      assert.equal(a.typeName, r.get('.type_name'));
      assert.equal(a.addressSpace, r.get('.address_space'));
    });
    // The entry is the kernel's function symbol (an address in a linked object, an offset in .text otherwise).
    assert.equal(k.entry, funcs.get(k.name), `${k.name}: entry`);
    assert.equal(k.codeRange[0], k.entry);
    if (linked) assert.ok(k.entry > 0);
  }
  if (v.source === 'kernels.cl') {
    const by = new Map(doc.kernels.map((k) => [k.name, k]));
    assert.ok((by.get('reverse_tile')?.ldsSize ?? 0) >= 256 * 4, 'the __local tile is in the group segment');
    assert.ok((by.get('private_table')?.scratchSize ?? 0) >= 40 * 4, 'the private array is in scratch');
    assert.deepEqual(by.get('scale2d')?.workgroupSize, [64, 2, 1]);
  }
  return doc;
}

for (const target of TARGETS) {
  test(`clang-19 OpenCL objects and their ld.lld-19 links on ${target}: inspect agrees with llvm-readelf-19`, () => {
    for (const v of VARIANTS) {
      const obj = compile(target, v);
      const rel = checkAgainstLlvm(obj, target, v, false);
      const so = link(obj);
      const dyn = checkAgainstLlvm(so, target, v, true);
      // Linking moves the code, not what the kernels declare.
      const strip = (d: typeof rel) => d.kernels.map(({ entry: _e, codeRange: _c, ...k }) => k);
      assert.deepEqual(strip(dyn), strip(rel), `${v.tag}: linked object declares the same kernels`);
      // The code range of a linked kernel disassembles exactly as objdump shows that function.
      for (const k of dyn.kernels.slice(0, 2)) {
        const ours = spawnSync(process.execPath, [BIN, 'disasm', '--kernel', k.name, so], { encoding: 'utf8' });
        assert.equal(ours.status, 0, ours.stderr);
        const llvm = spawnSync('llvm-objdump-19', ['-d', `--mcpu=${target}`, `--disassemble-symbols=${k.name}`, ...(v.wave === 64 ? ['--mattr=+wavefrontsize64'] : []), so], { encoding: 'utf8' });
        assert.equal(llvm.status, 0, llvm.stderr);
        const body = (s: string) => s.split('\n').filter((l) => l.startsWith('\t')).map((l) => l.replace(/\s*; Warning:.*$/, ''));
        // objdump runs on to the next symbol (the alignment padding after the function); rdna stops at the function's size.
        const mine = body(ours.stdout);
        const theirs = body(llvm.stdout);
        assert.ok(mine.length > 0 && theirs.slice(mine.length).every((l) => /^\ts_(nop 0|code_end) /.test(l)), `${v.tag} ${k.name}: objdump lists more than padding past the function`);
        if (v.wave === 32) assert.deepEqual(mine, theirs.slice(0, mine.length), `${v.tag} ${k.name}: disasm --kernel`);
        // Wave64: rdna prints wave32 text (TECHNICAL_DEBT); the instruction boundaries and words must still agree.
        else assert.deepEqual(mine.map((l) => l.replace(/^.*\/\/ /, '')), theirs.slice(0, mine.length).map((l) => l.replace(/^.*\/\/ /, '')));
      }
    }
  });
}
