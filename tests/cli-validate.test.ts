// `rdna validate` as a user runs it: code objects assembled by llvm-mc-19 and a raw shader with
// its sidecar; the --json shape, exit codes (0 ok, 1 findings with an error or bad input, 2
// usage), the readable form and several kernels in one file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assembleKernels, assembleShaders } from './harness/kernel.js';

const BIN = new URL('../bin/rdna', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'rdna-validate-'));

function rdna(...args: string[]) {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

interface Json { ok: boolean; diagnostics: { kernel: string; pc: number; instruction: string; words: number[]; code: string; severity: string; message: string }[] }

// good: clean; bad: v8 outside 8 VGPRs (error) and unreachable code (note); warn: a misaligned
// s_mov_b64 (s_mov_b64 s[0:1], 0 = 0xbe800480 with sdst 1; llvm-objdump-19 warns), no error.
const OBJ = join(dir, 'kernels.o');
writeFileSync(OBJ, assembleKernels('gfx1030', [
  { name: 'good', body: 'v_mov_b32 v0, v1\ns_endpgm' },
  { name: 'bad', vgprs: 8, body: 'v_mov_b32 v8, v1\ns_endpgm\ns_nop 0\ns_endpgm' },
  { name: 'warn', body: '.long 0xbe810480\ns_endpgm' },
]));
const ONE = join(dir, 'one.o');
writeFileSync(ONE, assembleKernels('gfx1030', [{ name: 'good', body: 'v_mov_b32 v0, v1\ns_endpgm' }]));

test('validate --json: shape, every kernel, exit 1 when any finding is an error', () => {
  const r = rdna('validate', '--json', OBJ);
  assert.equal(r.code, 1, r.err);
  assert.equal(r.err, '');
  const doc = JSON.parse(r.out) as Json;
  assert.equal(doc.ok, false);
  const bad = doc.diagnostics.filter((d) => d.kernel === 'bad');
  assert.deepEqual(bad.map((d) => [d.code, d.severity]), [['vgpr-out-of-range', 'error'], ['unreachable-code', 'note']]);
  const v = bad[0];
  assert.ok(v);
  assert.deepEqual(Object.keys(v).sort(), ['code', 'instruction', 'kernel', 'message', 'pc', 'severity', 'words']);
  assert.equal(v.instruction, 'v_mov_b32_e32 v8, v1');
  assert.deepEqual(v.words, [0x7e100301]);
  assert.equal(typeof v.pc, 'number');
  assert.deepEqual(doc.diagnostics.filter((d) => d.kernel === 'warn').map((d) => d.code), ['misaligned-sgpr-pair']);
  assert.deepEqual(doc.diagnostics.filter((d) => d.kernel === 'good'), []);
});

test('validate text: one line per finding (`pc: severity: message [code]`), the instruction and words, kernel prefixes', () => {
  const r = rdna('validate', OBJ);
  assert.equal(r.code, 1);
  const lines = r.out.trimEnd().split('\n');
  const i = lines.findIndex((l) => l.includes('[vgpr-out-of-range]'));
  assert.match(lines[i] ?? '', /^bad: 0x[0-9a-f]+: error: .*v8.* \[vgpr-out-of-range\]$/);
  assert.equal(lines[i + 1], 'bad:     v_mov_b32_e32 v8, v1  // 7E100301');
  assert.ok(lines.includes('good: ok (0 errors, 0 warnings, 0 notes)'), r.out);
  assert.ok(lines.includes('bad: invalid (1 error, 0 warnings, 1 note)'), r.out);
  assert.ok(lines.includes('warn: ok (0 errors, 1 warning, 0 notes)'), r.out);
  assert.ok(lines.some((l) => /^warn: 0x[0-9a-f]+: warning: .* \[misaligned-sgpr-pair\]$/.test(l)), r.out);
});

test('validate: --kernel picks one; warnings alone exit 0; a clean single kernel is ok without prefixes', () => {
  const w = rdna('validate', '--kernel', 'warn', '--json', OBJ);
  assert.equal(w.code, 0, w.err);
  const doc = JSON.parse(w.out) as Json;
  assert.equal(doc.ok, true);
  assert.deepEqual(doc.diagnostics.map((d) => d.code), ['misaligned-sgpr-pair']);
  const g = rdna('validate', ONE);
  assert.equal(g.code, 0, g.err);
  assert.equal(g.out, 'good: ok (0 errors, 0 warnings, 0 notes)\n');
  assert.deepEqual(JSON.parse(rdna('validate', '--json', ONE).out), { ok: true, diagnostics: [] });
  const t = rdna('validate', '--kernel', 'bad', OBJ);
  assert.equal(t.code, 1);
  assert.match(t.out, /^0x[0-9a-f]+: error: /);
});

test('validate: a raw shader with its sidecar (the sidecar\'s SGPR count applies)', () => {
  const words = assembleShaders('gfx1030', [{ name: 'k', body: 's_mov_b32 s3, 0\ns_mov_b32 s4, 0\ns_endpgm' }]).get('k')?.words;
  assert.ok(words);
  const bin = join(dir, 'raw.bin');
  writeFileSync(bin, new Uint8Array(Uint32Array.from(words).buffer));
  writeFileSync(join(dir, 'raw.json'), JSON.stringify({ target: 'gfx1030', stage: 'ps', waveSize: 32, sgprs: 4 }));
  const r = rdna('validate', '--json', bin);
  assert.equal(r.code, 1, r.err);
  const doc = JSON.parse(r.out) as Json;
  assert.deepEqual(doc.diagnostics.map((d) => [d.code, d.pc, d.instruction]), [['sgpr-out-of-range', 4, 's_mov_b32 s4, 0']]);
  writeFileSync(join(dir, 'other.json'), JSON.stringify({ target: 'gfx1030', stage: 'ps', waveSize: 32 }));
  const ok = rdna('validate', '--sidecar', join(dir, 'other.json'), bin);
  assert.equal(ok.code, 0, ok.err);
});

test('validate: usage errors exit 2, bad input exits 1, each one line on stderr', () => {
  const none = rdna('validate');
  assert.equal(none.code, 2);
  assert.match(none.err, /^rdna validate: validate needs a FILE\n$/);
  const opt = rdna('validate', '--bogus', OBJ);
  assert.equal(opt.code, 2);
  const k = rdna('validate', '--kernel', 'nope', OBJ);
  assert.equal(k.code, 1);
  assert.match(k.err, /^rdna validate: error: .*no kernel named 'nope'.*\n$/);
  const missing = rdna('validate', join(dir, 'missing.o'));
  assert.equal(missing.code, 1);
  assert.equal(missing.err.split('\n').length, 2);
});
