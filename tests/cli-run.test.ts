// `rdna run` as a user runs it: a clang-19 OpenCL kernel with an ARGS.json, the --json and text
// outputs, and every kind of bad input as one line and exit 1 (usage mistakes exit 2).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildOpenCl } from './harness/opencl.js';

const BIN = new URL('../bin/rdna', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'rdna-run-'));
const obj = buildOpenCl('interp-int.cl');

function rdna(...args: string[]) {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', timeout: 120_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}
function argsFile(name: string, doc: unknown): string {
  const f = join(dir, `${name}.json`);
  writeFileSync(f, typeof doc === 'string' ? doc : JSON.stringify(doc));
  return f;
}
const seeds = [27, 1, 2, 3, 6, 7, 9, 97];
const good = { kernel: 'collatz', grid: [8], block: [8], args: [{ buffer: 'u32', data: seeds }, { buffer: 'u32', size: 32 }, { buffer: 'u32', size: 32 }] };

/** Collatz steps (the kernel's loop, capped at 1000), written here from the kernel's source. */
function steps(v0: number): number { let v = v0, s = 0; while (v > 1 && s < 1000) { v = v & 1 ? 3 * v + 1 : v / 2; s++; } return s; }

test('rdna run --json: every buffer argument after the run, and stats', () => {
  const r = rdna('run', obj, '--args', argsFile('good', good), '--json');
  assert.equal(r.code, 0, r.err);
  const doc = JSON.parse(r.out) as { engine: string; kernel: string; buffers: { arg: number; base64: string }[]; stats: { workgroups: number; waves: number; instructions: number } };
  assert.equal(doc.engine, 'interp');
  assert.equal(doc.kernel, 'collatz');
  assert.deepEqual(doc.buffers.map((b) => b.arg), [0, 1, 2]);
  const out = Buffer.from(doc.buffers[1]?.base64 ?? '', 'base64');
  assert.deepEqual(seeds.map((_, k) => out.readUInt32LE(4 * k)), seeds.map(steps));
  assert.equal(doc.stats.workgroups, 1);
  assert.ok(doc.stats.instructions > 0);
  // The readable form: a summary line and each buffer.
  const t = rdna('run', obj, '--args', argsFile('good', good));
  assert.equal(t.code, 0, t.err);
  assert.match(t.out, /^collatz: 1 workgroups, 1 waves, \d+ instructions/);
  assert.match(t.out, new RegExp(`arg 1 \\(u32, 32 bytes\\): \\[${seeds.map(steps).join(', ')}\\]`));
});

test('rdna run: bad arguments, bad files and run-time faults are one line and exit 1; usage mistakes exit 2', () => {
  const cases: [unknown, RegExp][] = [
    [{ ...good, args: good.args.slice(0, 2) }, /takes 3 arguments .*"args" has 2/],
    [{ ...good, args: [good.args[0], { u32: 4 }, good.args[2]] }, /argument 1: the kernel takes a global buffer/],
    [{ ...good, args: [{ buffer: 'u33', data: [] }, good.args[1], good.args[2]] }, /"buffer" must be one of/],
    [{ ...good, args: [{ buffer: 'u32', base64: '***' }, good.args[1], good.args[2]] }, /"base64" is not base64/],
    [{ ...good, args: [{ buffer: 'u32', data: [1, -1] }, good.args[1], good.args[2]] }, /element 1 \(-1\) is not a u32/],
    [{ ...good, grid: [0] }, /"grid" must be a list of 1 to 3 positive integers/],
    [{ ...good, block: [2048] }, /more than 1024/],
    [{ ...good, kernel: 'nope' }, /no kernel named 'nope'/],
    [{ ...good, extra: 1 }, /unknown field "extra"/],
    ['{"grid": [', /not valid JSON/],
    // Buffers too small for what the kernel touches: the store faults with its pc and instruction.
    [{ ...good, args: [good.args[0], { buffer: 'u32', size: 4 }, good.args[2]] }, /pc 0x[0-9a-f]+: global_store_dword .*outside every buffer/],
  ];
  cases.forEach(([doc, re], k) => {
    const r = rdna('run', obj, '--args', argsFile(`bad${k}`, doc));
    assert.equal(r.code, 1, `case ${k}: ${r.err}`);
    assert.equal(r.err.trim().split('\n').length, 1, r.err);
    assert.match(r.err, re, `case ${k}`);
    assert.doesNotMatch(r.err, /internal error|\n\s+at /);
  });
  const budget = rdna('run', obj, '--args', argsFile('good', good), '--max-steps', '50');
  assert.equal(budget.code, 1);
  assert.match(budget.err, /step budget ran out/);
  assert.equal(rdna('run', obj).code, 2);
  assert.equal(rdna('run', obj, '--args', argsFile('good', good), '--engine', 'gpu').code, 2);
  assert.equal(rdna('run', obj, '--args', argsFile('good', good), '--max-steps', 'x').code, 2);
  assert.equal(rdna('run', join(dir, 'missing.o'), '--args', argsFile('good', good)).code, 1);
});
