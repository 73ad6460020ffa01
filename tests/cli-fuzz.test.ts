// Bad input of every kind to every command that parses it: mutated and truncated code objects to
// validate, cfg, mode, compile and run; arbitrary JSON as ARGS.json. Each either works or fails
// with one line and exit 1 (2 for usage), never a stack trace, an internal error or a hang.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { loadShaders } from '../src/container/shader.js';
import { ArgsError, prepareDispatch } from '../src/interp/args.js';
import { buildOpenCl } from './harness/opencl.js';
import { Rng } from './harness/rng.js';
import { testCacheEnv } from './harness/cache-env.js';

const BIN = new URL('../bin/rdna', import.meta.url).pathname;

test('mutated and truncated code objects: validate, cfg, mode, compile and run fail cleanly or work', () => {
  const dir = mkdtempSync(join(tmpdir(), 'rdna-fuzz-'));
  const good = readFileSync(buildOpenCl('interp-int.cl'));
  const args = join(dir, 'args.json');
  writeFileSync(args, JSON.stringify({ kernel: 'collatz', grid: [32], block: [32], args: [{ buffer: 'u32', data: Array.from({ length: 32 }, (_, k) => k + 1) }, { buffer: 'u32', size: 128 }, { buffer: 'u32', size: 128 }] }));
  const rng = new Rng(2026);
  const cases: Buffer[] = [good.subarray(0, 64), good.subarray(0, good.length >> 1)];
  for (let i = 0; i < 6; i++) {
    const b = Buffer.from(good);
    for (let k = 0; k < 4; k++) b[rng.u32() % b.length] = rng.u32() & 0xff;
    cases.push(b);
  }
  const commands: string[][] = [['validate'], ['cfg', '--kernel', 'collatz'], ['mode', '--kernel', 'collatz'], ['compile', '--kernel', 'collatz', '-o', join(dir, 'out.spv')], ['run', '--args', args, '--max-steps', '200000']];
  cases.forEach((b, i) => {
    const f = join(dir, `bad${i}.o`);
    writeFileSync(f, b);
    for (const c of commands) {
      const r = spawnSync(process.execPath, [BIN, ...c, f], { encoding: 'utf8', timeout: 60_000, env: testCacheEnv() });
      assert.notEqual(r.signal, 'SIGTERM', `${c[0]} on case ${i} did not finish`);
      assert.ok(r.status === 0 || r.status === 1 || r.status === 2, `${c[0]} case ${i}: exit ${r.status}: ${r.stderr}`);
      if (r.status !== 0) assert.equal(r.stderr.trim().split('\n').length, 1, `${c[0]} case ${i}: ${r.stderr}`);
      assert.doesNotMatch(r.stderr, /internal error|\n\s+at /, `${c[0]} case ${i}`);
    }
  });
});

test('arbitrary JSON as ARGS.json: an ArgsError or a dispatch, nothing else', () => {
  const shader = loadShaders({ bytes: new Uint8Array(readFileSync(buildOpenCl('interp-int.cl'))), name: 'k' }).find((s) => s.info.name === 'collatz');
  assert.ok(shader);
  const arg = fc.oneof(fc.record({ buffer: fc.constantFrom('u32', 'f32', 'u64', 'x'), data: fc.array(fc.oneof(fc.integer(), fc.double(), fc.string()), { maxLength: 4 }) }),
    fc.record({ buffer: fc.constantFrom('u32', 'i8'), size: fc.oneof(fc.integer({ min: -5, max: 64 }), fc.double()) }),
    fc.record({ buffer: fc.constant('u32'), base64: fc.string({ maxLength: 12 }) }),
    fc.dictionary(fc.constantFrom('u32', 'f32', 'u64', 'i64', 'zz'), fc.oneof(fc.integer(), fc.string(), fc.double())), fc.anything());
  const doc = fc.oneof(fc.record({ kernel: fc.constantFrom('collatz', 'other'), grid: fc.array(fc.integer({ min: -2, max: 70 }), { maxLength: 4 }), block: fc.array(fc.integer({ min: -2, max: 70 }), { maxLength: 4 }), args: fc.array(arg, { maxLength: 4 }) }, { requiredKeys: [] }), fc.anything());
  fc.assert(fc.property(doc, (d) => {
    try { prepareDispatch(d, shader); } catch (e) { assert.ok(e instanceof ArgsError, `${(e as Error).name}: ${(e as Error).message}`); assert.ok(!(e as Error).message.includes('\n')); }
  }), { numRuns: 2000, seed: 11 });
});
