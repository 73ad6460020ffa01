// The rdna CLI as a user runs it (the built bin/rdna): exit codes, one-line errors, formats.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { llvmDisassemble } from './harness/llvm.js';

const BIN = new URL('../bin/rdna', import.meta.url).pathname;
const SAMPLE = new URL('../samples/vector_add.gfx1030.o', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'rdna-cli-'));

function rdna(...args: string[]) {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/** objdump may append its decoder's warnings (`; Warning: ...`) after the words; rdna does not. */
function dropAnnotations(line: string): string {
  return line.replace(/ ; Warning:.*$/, '');
}

function oneLineError(err: string) {
  assert.equal(err.trim().split('\n').length, 1, `want one line, got: ${err}`);
  assert.doesNotMatch(err, /\n\s+at /);
}

test('disasm of the bundled sample matches llvm-objdump-19 line by line', () => {
  const r = rdna('disasm', SAMPLE);
  assert.equal(r.code, 0, r.err);
  const lines = r.out.split('\n').filter((l) => l.startsWith('\t'));
  assert.ok(lines.length > 5);
  const ref = spawnSync('llvm-objdump-19', ['-d', SAMPLE], { encoding: 'utf8' });
  assert.equal(r.out, ref.stdout, 'the whole listing, headers, labels and branch notes included');
  const refLines = ref.stdout.split('\n').filter((l) => l.startsWith('\t')).map(dropAnnotations);
  assert.deepEqual(lines, refLines);
});

test('jsonl records carry offset, text and words', () => {
  const f = join(dir, 'raw.bin');
  writeFileSync(f, Buffer.from([0x00, 0x00, 0x81, 0xbf, 0xff, 0xff, 0xff, 0xff]));
  const r = rdna('disasm', '--format', 'jsonl', f);
  assert.equal(r.code, 0, r.err);
  const recs = r.out.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
  assert.deepEqual(recs[0], { offset: 0, text: 's_endpgm', words: [0xbf810000] });
  assert.deepEqual(recs[1], { offset: 4, invalid: true, words: [0xffffffff] });
});

test('usage errors exit 2 with one line', () => {
  for (const args of [['disasm'], ['disasm', '--mcpu', 'gfx900', 'x'], ['disasm', '--format', 'xml', 'x'], ['disasm', '--nope', 'x'], ['frobnicate']]) {
    const r = rdna(...args);
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.err}`);
    if (args[0] === 'disasm') oneLineError(r.err);
  }
});

test('help lists every command with its usage; an inherited property name is no command', () => {
  const h = rdna('help');
  assert.equal(h.code, 0, h.err);
  for (const cmd of ['disasm', 'inspect', 'cfg', 'mode', 'validate', 'compile', 'compile-all', 'cache', 'run', 'coverage']) {
    assert.match(h.out, new RegExp(`^  ${cmd} +\\S`, 'm'), `${cmd} is listed`);
    assert.match(h.out, new RegExp(`^ {12}rdna ${cmd} `, 'm'), `${cmd}'s usage line is there`);
  }
  for (const name of ['toString', 'constructor', '__proto__']) {
    const r = rdna(name);
    assert.equal(r.code, 2, `${name}: ${r.err}`);
    assert.match(r.err, new RegExp(`^rdna: unknown command '${name}'`));
  }
});

test('unreadable input exits 1 with one line', () => {
  const cases: [string, Buffer][] = [
    ['elf-short', Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1])],
    ['elf-32', Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 1, 1]), Buffer.alloc(80)])],
  ];
  for (const [name, bytes] of cases) {
    const f = join(dir, name);
    writeFileSync(f, bytes);
    const r = rdna('disasm', f);
    assert.equal(r.code, 1, name);
    oneLineError(r.err);
  }
  for (const f of [join(dir, 'missing'), dir]) {
    const r = rdna('disasm', f);
    assert.equal(r.code, 1);
    oneLineError(r.err);
  }
});

test('any bytes: raw files and damaged ELF files never crash the CLI', () => {
  const sample = new Uint8Array(readFileSync(SAMPLE));
  let n = 0;
  fc.assert(fc.property(fc.uint8Array({ maxLength: 4096 }), fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 16 }), fc.boolean(), (raw, flips, asElf) => {
    let bytes: Uint8Array;
    if (asElf) {
      bytes = sample.slice(0, Math.max(64, sample.length - (raw.length % 64)));
      for (const [pos, v] of flips) bytes[pos % bytes.length] = v;
    } else bytes = raw;
    const f = join(dir, `fuzz${n++}`);
    writeFileSync(f, bytes);
    const r = rdna('disasm', f);
    assert.ok(r.code === 0 || r.code === 1, `exit ${r.code}: ${r.err}`);
    if (r.code === 1) oneLineError(r.err);
    assert.doesNotMatch(r.err, /internal error/);
  }), { numRuns: 60 });
});

test('raw input: text equals LLVM for a short program', () => {
  const words = [0xbe8003ff, 0x12345678, 0xbf810000];
  const f = join(dir, 'prog.bin');
  writeFileSync(f, Buffer.from(Uint32Array.from(words).buffer));
  const r = rdna('disasm', '--mcpu', 'gfx1030', f);
  assert.equal(r.code, 0, r.err);
  const ours = r.out.split('\n').filter((l) => l.startsWith('\t')).map((l) => l.slice(1, l.indexOf('//')).trimEnd());
  const ref = llvmDisassemble('gfx1030', [words]);
  const lines = ref[0];
  assert.ok(lines !== 'crash' && lines !== undefined);
  assert.deepEqual(ours, lines.map((l) => l.text));
});

test('multi-symbol ELF: whole text listing equals llvm-objdump-19, labels and symbolized branches included', async () => {
  const { readdirSync } = await import('node:fs');
  const { layoutCases } = await import('./harness/llvm.js');
  // Golden words (known not to crash LLVM) on gfx1013, branches to case labels, zero runs, and a
  // cut-short instruction at the end; the labels are untyped, so objdump names branch targets.
  const goldenDir = new URL('./golden/', import.meta.url);
  const cases: number[][] = [];
  for (const f of readdirSync(goldenDir).filter((n) => n.endsWith('.txt')).sort()) {
    for (const l of readFileSync(new URL(f, goldenDir), 'utf8').split('\n')) {
      const [t, w] = l.split('\t');
      if (t === 'gfx1013' && w) cases.push(w.split(' ').map((h) => parseInt(h, 16) >>> 0));
    }
  }
  assert.ok(cases.length > 100);
  const n = cases.length;
  for (let i = 0; i < 8; i++) {
    const to = (i * 37) % n;
    // s_branch / s_cbranch_scc0 to the start of case `to` from the start of case n + i
    const from = cases.reduce((a, c) => a + c.length, 0) + i;
    const simm = (to === 0 ? 0 : cases.slice(0, to).reduce((a, c) => a + c.length, 0)) - from - 1;
    cases.push([((i % 2 ? 0xbf840000 : 0xbf820000) | (simm & 0xffff)) >>> 0]);
  }
  cases.push([0, 0, 0, 0xbf810000], [0xbf810000, 0xbe8003ff]);
  const f = join(dir, 'multi.o');
  writeFileSync(f, layoutCases('gfx1013', cases, true).elf);
  const r = rdna('disasm', f);
  assert.equal(r.code, 0, r.err);
  const ref = spawnSync('llvm-objdump-19', ['-d', f], { encoding: 'utf8', maxBuffer: 1 << 28 });
  assert.equal(ref.status, 0, ref.stderr);
  const norm = (s: string) => s.split('\n').filter((l) => l.startsWith('\t') || /^[0-9a-f]{16} </.test(l)).map(dropAnnotations);
  const ours = norm(r.out);
  assert.ok(ours.some((l) => /s_branch c\d+/.test(l)), 'some branch is symbolized');
  assert.deepEqual(ours, norm(ref.stdout));
});

test('a listing made on several threads is byte-identical to the serial one', async () => {
  const { ALL_GENERATORS } = await import('./gen/index.js');
  const { Rng } = await import('./harness/rng.js');
  const { layoutCases } = await import('./harness/llvm.js');
  const rng = new Rng(5);
  const cases: number[][] = [];
  for (let i = 0; i < 3000; i++) {
    const g = rng.pick(ALL_GENERATORS);
    cases.push(g.random(rng, 'gfx1030'));
    if (i % 500 === 7) cases.push([0, 0, 0, 0]); // zero runs
  }
  for (const untyped of [false, true]) {
    const f = join(dir, `par${untyped ? 'u' : 'f'}.o`);
    writeFileSync(f, layoutCases('gfx1030', cases, untyped).elf);
    const raw = join(dir, 'par.bin');
    writeFileSync(raw, layoutCases('gfx1030', cases).text);
    for (const file of [f, raw]) {
      for (const format of ['text', 'jsonl']) {
        const run = (env: Record<string, string>) => spawnSync(process.execPath, [BIN, 'disasm', '--format', format, file], { encoding: 'latin1', maxBuffer: 1 << 28, env: { ...process.env, ...env } });
        const serial = run({ RDNA_THREADS: '1' });
        assert.equal(serial.status, 0, serial.stderr);
        for (const sync of ['256', '1']) {
          const par = run({ RDNA_THREADS: '3', RDNA_PARALLEL_MIN_WORDS: '256', RDNA_PARALLEL_SYNC: sync });
          assert.equal(par.status, 0, par.stderr);
          assert.ok(par.stdout === serial.stdout, `${file} ${format} sync=${sync}: parallel output differs`);
        }
      }
    }
  }
});
