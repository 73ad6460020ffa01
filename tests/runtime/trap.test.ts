// s_trap (clang-19's __builtin_trap()): no engine runs a trap handler, so a wave that reaches it
// stops the run with its pc and instruction (the interpreter with an error, the recompiled kernel
// with a run-time fault); a wave that branches around it runs on, equal in both engines.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { buildOpenCl } from '../harness/opencl.js';
import { LVP } from './harness.js';

const BIN = new URL('../../bin/rdna', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'rdna-trap-'));

function run(obj: string, data: number[], engine: 'interp' | 'vulkan') {
  const args = join(dir, `args-${engine}-${data.length}-${data.findIndex((v) => v < 0)}.json`);
  writeFileSync(args, JSON.stringify({ kernel: 'trap_if_negative', grid: [data.length, 1, 1], block: [64, 1, 1], args: [{ buffer: 'i32', data }, { i32: 5 }] }));
  return spawnSync(process.execPath, [BIN, 'run', obj, '--args', args, '--engine', engine, '--json'], { encoding: 'utf8', env: { ...process.env, VK_DRIVER_FILES: LVP, RDNA_VULKAN_VALIDATION: '1' } });
}

for (const wave64 of [false, true]) {
  test(`s_trap in an OpenCL kernel (wave${wave64 ? 64 : 32}): no lane traps, both engines give o[i]*3 + 5 + i; one lane traps, both stop with the pc and s_trap`, () => {
    const obj = buildOpenCl('trap.cl', { wave64 });
    const data = Array.from({ length: 256 }, (_, i) => (i * 37) % 101);
    const want = Buffer.from(new Int32Array(data.map((v, i) => v * 3 + 5 + i)).buffer).toString('base64');
    for (const engine of ['interp', 'vulkan'] as const) {
      const r = run(obj, data, engine);
      assert.equal(r.status, 0, `${engine}: ${r.stderr}`);
      const out = JSON.parse(r.stdout) as { buffers: { base64: string }[] };
      assert.equal(out.buffers[0]?.base64, want, engine);
    }
    const bad = data.map((v, i) => (i === 150 ? -1 : v));
    for (const engine of ['interp', 'vulkan'] as const) {
      const r = run(obj, bad, engine);
      assert.equal(r.status, 1, `${engine}: exit status`);
      assert.match(r.stderr, /^rdna run: error: .*pc 0x[0-9a-f]+: s_trap 2.*the program trapped/m, engine);
      assert.equal(r.stderr.trim().split('\n').length, 1, `${engine}: one line`);
    }
  });
}
