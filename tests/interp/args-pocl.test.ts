// Issue 10 on the interpreter: the kernels of tests/fixtures/opencl/args.cl (a __local scratch
// reduction with dynamic LDS after static LDS, a struct, float4/int4/float3 and 64-bit values by
// value, arguments by name, an LU step loop and an integer ping-pong loop counted by the sequence's
// index, 2D and 3D grids), compiled by clang-19 for gfx1030 in wave32 and wave64, run by
// `rdna run --engine interp --json` and compared byte for byte with the same documents on pocl
// (tests/harness/pocl-run.py, which packs by-value arguments and runs loops on its own).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { argsCases, compileArgs, firstDiff, pocl } from './args-cases.js';

const BIN = new URL('../../bin/rdna', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'rdna-args-'));

test('args.cl kernels on the interpreter equal pocl, wave32 and wave64 (locals, struct, vectors, 64-bit, sequences, 2D/3D)', () => {
  const objs = [compileArgs(false), compileArgs(true)];
  argsCases().forEach((c, k) => {
    const file = join(dir, `case${k}.json`);
    writeFileSync(file, JSON.stringify(c.doc));
    const want = pocl(file);
    objs.forEach((obj, w) => {
      const r = spawnSync(process.execPath, [BIN, 'run', obj, '--args', file, '--json'], { encoding: 'utf8', maxBuffer: 1 << 28 });
      assert.equal(r.status, 0, `${c.name}: ${r.stderr}`);
      const got = JSON.parse(r.stdout) as { engine: string; buffers: { arg?: number; name?: string; base64: string }[]; stats: { dispatches?: number } };
      assert.equal(got.engine, 'interp');
      assert.deepEqual(got.buffers.map((b) => b.arg ?? b.name), want.map((b) => b.arg ?? b.name), c.name);
      got.buffers.forEach((b, i) => {
        const p = want[i]?.base64 ?? '';
        assert.ok(b.base64 === p, `${c.name} (wave${w ? 64 : 32}): buffer ${b.arg ?? b.name} differs from pocl at ${firstDiff(b.base64, p)}`);
      });
      if ('dispatches' in c.doc) assert.ok((got.stats.dispatches ?? 0) > 1);
    });
  });
});

test('rdna run on a sequence: the text output, and a run-time error naming the dispatch (one line, exit 1)', () => {
  const obj = compileArgs(false);
  const mix = argsCases().find((c) => c.name === 'mix sequence');
  assert.ok(mix);
  const file = join(dir, 'mix.json');
  writeFileSync(file, JSON.stringify(mix.doc));
  const t = spawnSync(process.execPath, [BIN, 'run', obj, '--args', file], { encoding: 'utf8' });
  assert.equal(t.status, 0, t.stderr);
  assert.match(t.stdout, /^sequence of 301 dispatches \(mix_b, mix_a\): \d+ workgroups, \d+ waves, \d+ instructions, \d+ lane-instructions, [\d.]+ s\n  buffer X \(u32, 256 bytes\): \[\d+, /);
  assert.match(t.stdout, /\n  buffer unused \(u8, 3 bytes\): \[1, 2, 3\]\n$/);
  // Y too small: mix_b (dispatch 1) reads past it; in the loop, mix_a writes past it.
  const small = { ...mix.doc, buffers: { ...(mix.doc as { buffers: object }).buffers, Y: { buffer: 'u32', size: 128 } } };
  writeFileSync(file, JSON.stringify(small));
  const e = spawnSync(process.execPath, [BIN, 'run', obj, '--args', file], { encoding: 'utf8' });
  assert.equal(e.status, 1);
  assert.match(e.stderr, /^rdna run: error: dispatch 1 of 301 \(dispatches\[0\]: mix_b\): pc 0x[0-9a-f]+: global_store_dword .*outside every buffer.*\n$/);
  writeFileSync(file, JSON.stringify(mix.doc));
  const steps = spawnSync(process.execPath, [BIN, 'run', obj, '--args', file, '--max-steps', '1000'], { encoding: 'utf8' });
  assert.equal(steps.status, 1);
  assert.match(steps.stderr, /^rdna run: error: dispatch \d+ of 301 .*step budget ran out/);
});
