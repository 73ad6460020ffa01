// The Vulkan engine's differential suite (tests/runtime/engine.test.ts) on a machine that has a
// Vulkan driver but no LLVM, clang or tsx (a GPU machine, say), in two halves:
//
//   npx tsx tools/vulkan-replay.ts record [--out FILE] [--commit TEXT]   (llvm-mc-19, clang-19, libclc-19)
//     builds every case of the suite (tests/runtime/cases.ts: code object, kernel, input buffers,
//     grid, block, by-value scalars), runs the RDNA interpreter on it, and writes the cases with
//     the interpreter's buffers as JSON (default .devrun/cases.json), with the commit (git's HEAD
//     unless --commit says otherwise, e.g. for a copy of the tree without .git).
//   node tools/vulkan-replay.mjs replay --cases FILE [...]   (there: node and the built dist/ only)
//     runs each case through runOnVulkan on the device (recompiled for the device's own profile)
//     and compares every buffer byte for byte; see that file for its options. `tsx
//     tools/vulkan-replay.ts replay ...` forwards to it.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ENGINE_SUITES, interpret } from '../tests/runtime/cases.js';

/** The format replay reads (tools/vulkan-replay.mjs checks it). */
export const FORMAT = 'rdna-vulkan-replay/1';

const b64 = (b: Uint8Array): string => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('base64');

function record(out: string, commit: string | undefined): void {
  const git = spawnSync('git', ['rev-parse', 'HEAD'], { encoding: 'utf8', cwd: fileURLToPath(new URL('..', import.meta.url)) });
  const dirty = spawnSync('git', ['status', '--porcelain', '--untracked-files=no'], { encoding: 'utf8', cwd: fileURLToPath(new URL('..', import.meta.url)) });
  const cases = [];
  for (const suite of ENGINE_SUITES) {
    for (const c of suite.cases()) {
      const t0 = performance.now();
      const expected = interpret(c);
      cases.push({
        suite: suite.title, name: c.name, kernel: c.kernel, code: b64(c.code), grid: c.grid, block: c.block, scalars: c.scalars,
        buffers: c.buffers.map(b64), expected: expected.map(b64), ...(c.writes !== undefined ? { writes: c.writes } : {}),
      });
      process.stdout.write(`recorded ${c.name} (interpreter ${(performance.now() - t0).toFixed(0)} ms)\n`);
    }
  }
  const doc = {
    format: FORMAT,
    recorded: new Date().toISOString(),
    commit: commit ?? (git.status === 0 ? git.stdout.trim() + (dirty.stdout.trim() ? ' (with uncommitted changes)' : '') : 'unknown'),
    cases,
  };
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, JSON.stringify(doc) + '\n');
  process.stdout.write(`${cases.length} cases written to ${out}\n`);
}

const [mode, ...rest] = process.argv.slice(2);
if (mode === 'record') {
  const opts = new Map<string, string>();
  for (let k = 0; k < rest.length; k += 2) {
    const [key, value] = [rest[k] ?? '', rest[k + 1]];
    if ((key !== '--out' && key !== '--commit') || value === undefined) {
      process.stderr.write('usage: tsx tools/vulkan-replay.ts record [--out FILE] [--commit TEXT]\n');
      process.exit(2);
    }
    opts.set(key, value);
  }
  record(resolve(opts.get('--out') ?? '.devrun/cases.json'), opts.get('--commit'));
} else if (mode === 'replay') {
  const r = spawnSync(process.execPath, [fileURLToPath(new URL('./vulkan-replay.mjs', import.meta.url)), 'replay', ...rest], { stdio: 'inherit' });
  process.exit(r.status ?? 1);
} else {
  process.stderr.write('usage: tsx tools/vulkan-replay.ts record [--out FILE] [--commit TEXT] | replay --cases FILE [options of tools/vulkan-replay.mjs]\n');
  process.exit(2);
}
