// OpenCL C kernels that call non-inlined functions (tests/fixtures/opencl/calls.cl; issue 7):
// clang-19 for gfx1030, wave32 and wave64, linked by ld.lld-19, with and without interprocedural
// register allocation (-enable-ipra=0 makes the callees save the callee-saved VGPRs v40... to
// scratch through s32, and grows private_segment_fixed_size to hold them), and with the frames
// through the SCRATCH instructions (+enable-flat-scratch) instead of MUBUF. `rdna run` on the
// interpreter and on Vulkan (lavapipe, validation layer on) must both equal pocl byte for byte
// (the oracle: the same source on Debian's pocl CPU device). A kernel descriptor with a dynamic
// call stack is refused by both engines with one line (the interpreter's dispatch, the recompiler);
// a recursive function, whose clang-19 descriptor holds one frame, stops both at the same store.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildOpenCl, linkOpenCl, OPENCL_FIXTURES } from '../harness/opencl.js';
import { assembleShaders } from '../harness/kernel.js';
import { dispatch } from '../../src/interp/dispatch.js';
import { GlobalMemory } from '../../src/interp/memory.js';
import { InterpError } from '../../src/interp/errors.js';
import { recompile } from '../../src/backend/recompile.js';
import { TranslateError } from '../../src/frontend/errors.js';
import { Rng } from '../harness/rng.js';
import { LVP } from './harness.js';

const BIN = new URL('../../bin/rdna', import.meta.url).pathname;
const POCL = new URL('../harness/pocl-run.py', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'rdna-calls-'));
/** fpoly divides: correctly rounded on both sides (pocl's default is, AMDGPU's is not). */
const DIVIDE = ['-cl-fp32-correctly-rounded-divide-sqrt'];
const NO_IPRA = ['-mllvm', '-enable-ipra=0'];
/** clang's switch from MUBUF scratch (buffer_store_dword ... s[0:3], s32) to the SCRATCH instructions (scratch_store_dword ... s32). */
const FLAT_SCRATCH = ['-Xclang', '-target-feature', '-Xclang', '+enable-flat-scratch'];
/** The builds: default; IPRA off (callee-saved spills); IPRA off with the frames through the SCRATCH instructions. */
const BUILDS: readonly { readonly name: string; readonly options: readonly string[] }[] = [
  { name: 'default', options: [] }, { name: 'no IPRA', options: NO_IPRA }, { name: 'no IPRA, flat scratch', options: [...NO_IPRA, ...FLAT_SCRATCH] },
];
const ENV = { ...process.env, VK_DRIVER_FILES: LVP, RDNA_VULKAN_VALIDATION: '1' };

const u32s = (r: Rng, n: number) => Array.from({ length: n }, () => r.u32());
/** f32 bits of magnitude 2^-8..2^8, either sign. */
function f32s(r: Rng, n: number): string {
  const b = Buffer.alloc(4 * n);
  for (let k = 0; k < n; k++) b.writeUInt32LE(((r.u32() & 0x807fffff) | ((0x77 + (r.u32() % 16)) << 23)) >>> 0, 4 * k);
  return b.toString('base64');
}

/** Each kernel's arguments: 64 work-items in two workgroups of 32 (one wave32 each; half a wave64). */
const DOCS: Record<string, (r: Rng) => unknown[]> = {
  call_simple: (r) => [{ buffer: 'u32', data: u32s(r, 64) }, { buffer: 'u32', size: 256 }],
  call_loop: (r) => [{ buffer: 'u32', data: u32s(r, 64) }, { buffer: 'u32', size: 256 }],
  call_two: (r) => [{ buffer: 'u32', data: u32s(r, 64) }, { buffer: 'f32', base64: f32s(r, 64) }, { buffer: 'u32', size: 256 }, { buffer: 'f32', size: 256 }],
  call_nested: (r) => [{ buffer: 'u32', data: u32s(r, 64) }, { buffer: 'u32', size: 256 }],
  call_private: (r) => [{ buffer: 'u32', data: u32s(r, 64) }, { buffer: 'u32', size: 256 }],
  call_spill: (r) => [{ buffer: 'u32', data: u32s(r, 64) }, { buffer: 'u32', size: 256 }],
};

function rdnaRun(obj: string, args: string, engine: 'interp' | 'vulkan'): string[] {
  const r = spawnSync(process.execPath, [BIN, 'run', obj, '--args', args, '--engine', engine, '--json'], { encoding: 'utf8', maxBuffer: 1 << 28, env: ENV });
  assert.equal(r.status, 0, `rdna run ${obj} --args ${args} --engine ${engine}: ${r.stderr}`);
  return (JSON.parse(r.stdout) as { buffers: { base64: string }[] }).buffers.map((b) => b.base64);
}

for (const [kernel, doc] of Object.entries(DOCS)) {
  test(`calls.cl ${kernel}: rdna run on the interpreter and on Vulkan equal pocl, wave32 and wave64, with and without IPRA, MUBUF and SCRATCH frames`, () => {
    const args = join(dir, `${kernel}.json`);
    writeFileSync(args, JSON.stringify({ kernel, grid: [64], block: [32], args: doc(new Rng(kernel.length * 7 + 1)) }));
    const pocl = spawnSync('/usr/bin/python3', [POCL, join(OPENCL_FIXTURES, 'calls.cl'), args, `-I${OPENCL_FIXTURES}`, ...DIVIDE], { encoding: 'utf8', maxBuffer: 1 << 28 });
    assert.equal(pocl.status, 0, `pocl: ${pocl.stderr}`);
    const want = (JSON.parse(pocl.stdout) as { buffers: { base64: string }[] }).buffers.map((b) => b.base64);
    assert.ok(want.some((b) => Buffer.from(b, 'base64').some((x) => x !== 0)), 'pocl wrote nothing');
    for (const wave64 of [false, true]) {
      for (const build of BUILDS) {
        const obj = linkOpenCl(buildOpenCl('calls.cl', { wave64, options: [...DIVIDE, ...build.options] }));
        for (const engine of ['interp', 'vulkan'] as const) {
          assert.deepEqual(rdnaRun(obj, args, engine), want, `${kernel} wave${wave64 ? 64 : 32} ${build.name} (${engine}) differs from pocl`);
        }
      }
    }
  });
}

test('a kernel descriptor with a dynamic call stack (is_dynamic_callstack): both engines refuse it with one line naming the reason', () => {
  const shader = assembleShaders('gfx1030', [{
    name: 'dyn', body: 's_endpgm',
    directives: ['.amdhsa_user_sgpr_private_segment_buffer 1', '.amdhsa_private_segment_fixed_size 16', '.amdhsa_uses_dynamic_stack 1'],
  }]).get('dyn');
  assert.ok(shader?.info.descriptor?.properties.usesDynamicStack);
  const want = /^kernel dyn: its descriptor sets USES_DYNAMIC_STACK \(is_dynamic_callstack: a dynamic call stack\), so its private_segment_fixed_size \(16 bytes a lane\) does not bound the stack[^\n]*$/;
  assert.throws(() => dispatch(shader, { grid: [1, 1, 1], block: [1, 1, 1], kernarg: new Uint8Array(0), mem: new GlobalMemory(), maxSteps: 100 }), (e: unknown) => e instanceof InterpError && want.test(e.message));
  assert.throws(() => recompile(shader), (e: unknown) => e instanceof TranslateError && want.test(e.message));
  // Without the flag the same kernel runs on both.
  const fixed = { ...shader, info: { ...shader.info, descriptor: { ...shader.info.descriptor, properties: { ...shader.info.descriptor.properties, usesDynamicStack: false } } } };
  dispatch(fixed, { grid: [1, 1, 1], block: [1, 1, 1], kernarg: new Uint8Array(0), mem: new GlobalMemory(), maxSteps: 100 });
  recompile(fixed);
});

test('a recursive call (calls-recursive.cl): clang-19\'s fixed 16-byte stack holds one frame; a deeper call stops both engines at the same store with its pc, never writing past the scratch', () => {
  // pocl crashes on recursion, so no oracle: fib(a) = a for a < 2 by the source's definition.
  for (const wave64 of [false, true]) {
    const obj = linkOpenCl(buildOpenCl('calls-recursive.cl', { wave64 }));
    const shallow = join(dir, 'recursive-shallow.json');
    writeFileSync(shallow, JSON.stringify({ kernel: 'call_recursive', grid: [64], block: [32], args: [{ buffer: 'u32', data: Array.from({ length: 64 }, (_, k) => (k * 7) % 2) }] }));
    const want = Buffer.from(Uint32Array.from({ length: 64 }, (_, k) => (k * 7) % 2).buffer).toString('base64');
    for (const engine of ['interp', 'vulkan'] as const) assert.deepEqual(rdnaRun(obj, shallow, engine), [want], `wave${wave64 ? 64 : 32} ${engine}`);
    const deep = join(dir, 'recursive-deep.json');
    writeFileSync(deep, JSON.stringify({ kernel: 'call_recursive', grid: [64], block: [32], args: [{ buffer: 'u32', data: Array.from({ length: 64 }, (_, k) => (k === 37 ? 10 : 1)) }] }));
    const where = ['interp', 'vulkan'].map((engine) => {
      const r = spawnSync(process.execPath, [BIN, 'run', obj, '--args', deep, '--engine', engine, '--json'], { encoding: 'utf8', maxBuffer: 1 << 28, env: ENV });
      assert.equal(r.status, 1, `${engine}: exit ${r.status} ${r.stderr}`);
      const m = /^rdna run: error: call_recursive: (pc 0x[0-9a-f]+: buffer_store_dword [^(:]*)/.exec(r.stderr);
      assert.ok(m, `${engine}: ${r.stderr}`);
      assert.match(r.stderr, engine === 'vulkan' ? /outside the wave's scratch region/ : /outside every buffer \(scratch of wave \d+ is/);
      return m[1]?.trim();
    });
    assert.equal(where[0], where[1]);
  }
});
