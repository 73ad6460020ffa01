// `rdna compile` as a user runs it: a clang-19 OpenCL kernel to a SPIR-V file that spirv-val
// accepts for Vulkan 1.3, the IR form, --json, and the one-line error naming the pc of an
// instruction the slice does not translate.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildOpenCl } from './harness/opencl.js';
import { assembleKernels } from './harness/kernel.js';
import { testCacheEnv } from './harness/cache-env.js';

const BIN = new URL('../bin/rdna', import.meta.url).pathname;

test('rdna compile: SPIR-V valid for Vulkan 1.3, IR text, --json, errors with the pc', () => {
  const dir = mkdtempSync(join(tmpdir(), 'rdna-compile-'));
  const obj = buildOpenCl('interp-int.cl');
  const rdna = (...a: string[]) => spawnSync(process.execPath, [BIN, ...a], { encoding: 'utf8', env: testCacheEnv() });
  const spv = join(dir, 'c.spv');
  const r = rdna('compile', obj, '--kernel', 'collatz', '-o', spv, '--json');
  assert.equal(r.status, 0, r.stderr);
  const doc = JSON.parse(r.stdout) as { output: string; kernel: string; words: number; diagnostics: unknown[] };
  assert.equal(doc.output, spv);
  assert.equal(doc.kernel, 'collatz');
  assert.equal(readFileSync(spv).length, doc.words * 4);
  assert.equal(readFileSync(spv).readUInt32LE(0), 0x07230203);
  const v = spawnSync('spirv-val', ['--target-env', 'vulkan1.3', spv], { encoding: 'utf8' });
  assert.equal(v.status, 0, v.stdout + v.stderr);
  const ir = rdna('compile', obj, '--kernel', 'collatz', '--emit', 'ir', '-o', '-');
  assert.equal(ir.status, 0, ir.stderr);
  assert.match(ir.stdout, /^function collatz \(wave32\)\nb0:\n/);
  assert.match(ir.stdout, /BallotLo u32/);
  // A kernel beyond the slice (v_mullit_f32): one line naming the pc and instruction.
  const expObj = join(dir, 'exp.o');
  writeFileSync(expObj, assembleKernels('gfx1030', [{ name: 'exp', body: '  v_mov_b32 v1, 0\n  v_mullit_f32 v1, v0, v0, v0\n  s_endpgm' }]));
  const gap = rdna('compile', expObj, '--kernel', 'exp', '-o', join(dir, 'x.spv'));
  assert.equal(gap.status, 1);
  assert.equal(gap.stderr.trim().split('\n').length, 1);
  assert.match(gap.stderr, /exp: pc 0x4: v_mullit_f32 v1, v0, v0, v0 \([0-9a-f ]+\): v_mullit_f32 is not translated yet/);
  // LDS and barriers (tree_reduce) compile.
  const tree = rdna('compile', buildOpenCl('interp-mem.cl'), '--kernel', 'tree_reduce', '-o', join(dir, 'tree.spv'));
  assert.equal(tree.status, 0, tree.stderr);
  // f32_ops (the division sequence, sqrt), f64_ops and f16_ops compile.
  const floatObj = buildOpenCl('interp-float.cl', { options: ['-cl-fp32-correctly-rounded-divide-sqrt'] });
  for (const k of ['f32_ops', 'f64_ops', 'f16_ops']) {
    const r = rdna('compile', floatObj, '--kernel', k, '-o', join(dir, `${k}.spv`), '--json');
    assert.equal(r.status, 0, r.stderr);
    const v = spawnSync('spirv-val', ['--target-env', 'vulkan1.3', join(dir, `${k}.spv`)], { encoding: 'utf8' });
    assert.equal(v.status, 0, v.stdout + v.stderr);
  }
  // Profiles: by name, from a file (checked field by field), or refused.
  for (const p of ['lavapipe', 'nvidia', 'portable']) {
    const c = rdna('compile', obj, '--kernel', 'collatz', '-o', join(dir, `${p}.spv`), '--profile', p, '--json');
    assert.equal(c.status, 0, c.stderr);
    const j = JSON.parse(c.stdout) as { profile: string; laneExchange: { kind: string; why: string; requiredSubgroupSize?: number } };
    assert.equal(j.profile, p);
    // The lane exchange and its reason (collatz is wave32): subgroups of 32 on nvidia; lavapipe's 8 span; portable promises nothing.
    assert.deepEqual([j.laneExchange.kind, j.laneExchange.requiredSubgroupSize], p === 'nvidia' ? ['subgroup', 32] : ['workgroup-memory', undefined]);
    assert.match(j.laneExchange.why, p === 'nvidia' ? /^wave32: subgroup size 32 required/ : p === 'lavapipe' ? /span several subgroups/ : /promises nothing/);
  }
  const w = { roundingModeRTE: true, roundingModeRTZ: false, denormPreserve: true, denormFlushToZero: false, signedZeroInfNanPreserve: true };
  const good = join(dir, 'dev.json');
  writeFileSync(good, JSON.stringify({ name: 'mydev', f16: w, f32: w, f64: w, shaderInt64: true, shaderFloat64: true }));
  const fromFile = rdna('compile', obj, '--kernel', 'collatz', '-o', join(dir, 'f.spv'), '--profile', good, '--json');
  assert.equal(fromFile.status, 0, fromFile.stderr);
  assert.equal((JSON.parse(fromFile.stdout) as { profile: string }).profile, 'mydev');
  const bad = join(dir, 'bad.json');
  writeFileSync(bad, JSON.stringify({ name: 'x', f16: w, f32: { ...w, denormPreserve: 'yes' }, f64: w, shaderInt64: true, shaderFloat64: true }));
  const badRun = rdna('compile', obj, '--kernel', 'collatz', '-o', join(dir, 'b.spv'), '--profile', bad);
  assert.equal(badRun.status, 1);
  assert.match(badRun.stderr, /field 'f32.denormPreserve' must be true or false/);
  assert.equal(rdna('compile', obj, '--kernel', 'collatz', '-o', spv, '--profile', 'mystery').status, 2);
  assert.equal(rdna('compile', obj, '--kernel', 'collatz').status, 2);
  assert.equal(rdna('compile', obj, '-o', spv).status, 2, 'several kernels need --kernel');
});
