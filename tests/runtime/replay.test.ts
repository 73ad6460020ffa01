// tools/vulkan-replay.mjs (the engine suite on a device without LLVM, e.g. a GPU machine) on
// lavapipe: a recorded file of a few engine cases replays equal, serially and with --jobs (one
// process per case); a case whose recorded result was altered is reported as differing, and the
// summary and the report count it, in both modes; with the interpreter's check, such a recording
// is an error (it does not match this build's interpreter); a case past --case-timeout is stopped.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ENGINE_SUITES, interpret } from './cases.js';
import { LVP } from './harness.js';

const TOOL = new URL('../../tools/vulkan-replay.mjs', import.meta.url).pathname;
const b64 = (b: Uint8Array): string => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('base64');

test('vulkan-replay on lavapipe: equal serially and with --jobs 2; an altered recording differs in both', () => {
  const suite = ENGINE_SUITES[0];
  assert.ok(suite);
  const picked = [...suite.cases()].slice(0, 3);
  const cases = picked.map((c) => ({
    suite: suite.title, name: c.name, kernel: c.kernel, code: b64(c.code), grid: c.grid, block: c.block, scalars: c.scalars,
    buffers: c.buffers.map(b64), expected: interpret(c).map(b64), ...(c.writes !== undefined ? { writes: c.writes } : {}),
  }));
  const dir = mkdtempSync(join(tmpdir(), 'rdna-replay-test-'));
  const file = (name: string, cs: typeof cases) => {
    const f = join(dir, name);
    writeFileSync(f, JSON.stringify({ format: 'rdna-vulkan-replay/1', recorded: 'test', commit: 'test', cases: cs }));
    return f;
  };
  const good = file('good.json', cases);
  const altered = cases.map((c, k) => {
    if (k !== 1) return c;
    const out = Buffer.from(c.expected[1] ?? c.expected[0] ?? '', 'base64');
    out[0] = (out[0] ?? 0) ^ 0xff;
    return { ...c, expected: c.expected.map((e, j) => (j === (c.expected.length > 1 ? 1 : 0) ? out.toString('base64') : e)) };
  });
  const bad = file('bad.json', altered);
  for (const jobs of [1, 2]) {
    for (const [f, want] of [[good, { equal: 3, differ: 0, errors: 0 }], [bad, { equal: 2, differ: 1, errors: 0 }]] as const) {
      const report = join(dir, `report-${jobs}-${want.differ}.json`);
      // The altered file without the interpreter's check (which would call the recording stale: an error).
      const r = spawnSync(process.execPath, [TOOL, 'replay', '--cases', f, '--validation', 'on', '--report', report, '--jobs', String(jobs), ...(want.differ ? ['--no-interp'] : [])], { encoding: 'utf8', env: { ...process.env, VK_DRIVER_FILES: LVP } });
      assert.equal(r.status, want.differ ? 1 : 0, `${jobs} jobs: ${r.stdout}${r.stderr}`);
      const rep = JSON.parse(readFileSync(report, 'utf8')) as { summary: { cases: number; equal: number; differ: number; errors: number }; results: { name: string; status: string }[] };
      assert.deepEqual(rep.summary, { cases: 3, ...want }, r.stdout);
      assert.deepEqual(rep.results.map((x) => x.name), picked.map((c) => c.name));
      if (want.differ) assert.equal(rep.results[1]?.status, 'differs');
      assert.match(r.stdout, new RegExp(`replay: 3 cases .*: ${want.equal} equal, ${want.differ} differ, 0 errors`));
    }
    const stale = spawnSync(process.execPath, [TOOL, 'replay', '--cases', bad, '--validation', 'off', '--jobs', String(jobs)], { encoding: 'utf8', env: { ...process.env, VK_DRIVER_FILES: LVP } });
    assert.equal(stale.status, 1);
    assert.match(stale.stdout, /ERROR {2}\S+.*the interpreter of this dist\/ does not leave the recorded buffers/);
    assert.match(stale.stdout, /: 2 equal, 0 differ, 1 errors/);
  }
  // A case whose process outlives --case-timeout is stopped and reported as an error; the others go on.
  const slow = spawnSync(process.execPath, [TOOL, 'replay', '--cases', good, '--validation', 'off', '--jobs', '2', '--case-timeout', '0.01'], { encoding: 'utf8', env: { ...process.env, VK_DRIVER_FILES: LVP } });
  assert.equal(slow.status, 1);
  assert.equal((slow.stdout.match(/stopped after 0\.01 s/g) ?? []).length, 3, slow.stdout);
  assert.match(slow.stdout, /: 0 equal, 0 differ, 3 errors/);
});
