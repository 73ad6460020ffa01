// The ELF reader against llvm-readobj-19 (an oracle we did not write), and fuzzed: any damage
// gives an ElfError, never another exception, and parsing is bounded.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { ElfError, parseElf } from '../../src/container/elf.js';
import { wordsToBytes, writeElf } from '../harness/elf-writer.js';

const SAMPLE = new URL('../../samples/vector_add.gfx1030.o', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'rdna-elf-'));

interface ReadobjSection { Section: { Index: number; Name: { Name: string }; Type: { Value: number }; Flags: { Value: number }; Address: number; Offset: number; Size: number; Link: number; Info: number; EntrySize: number } }
interface ReadobjSymbol { Symbol: { Name: { Name: string }; Value: number; Size: number; Binding: { Value: number }; Type: { Value: number }; Section: { Value: number } } }

function readobj(file: string): { sections: ReadobjSection[]; symbols: ReadobjSymbol[] } {
  const r = spawnSync('llvm-readobj-19', ['--sections', '--symbols', '--elf-output-style=JSON', file], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const j = JSON.parse(r.stdout) as { Sections: ReadobjSection[]; Symbols: ReadobjSymbol[] }[];
  const first = j[0];
  assert.ok(first);
  return { sections: first.Sections, symbols: first.Symbols };
}

function checkAgainstReadobj(file: string) {
  const elf = parseElf(new Uint8Array(readFileSync(file)));
  const ref = readobj(file);
  assert.deepEqual(
    elf.sections.map((s) => [s.index, s.name, s.type, s.flags, s.addr, s.offset, s.size, s.link, s.info, s.entsize]),
    ref.sections.map(({ Section: s }) => [s.Index, s.Name.Name, s.Type.Value, s.Flags.Value, s.Address, s.Offset, s.Size, s.Link, s.Info, s.EntrySize]),
  );
  assert.deepEqual(
    elf.symbols.map((s) => [s.type === 3 ? elf.sections[s.shndx]?.name : s.name, s.value, s.size, s.bind, s.type, s.shndx]),
    ref.symbols.slice(1).map(({ Symbol: s }) => [s.Name.Name, s.Value, s.Size, s.Binding.Value, s.Type.Value, s.Section.Value]),
  );
  return elf;
}
// (llvm-readobj names an STT_SECTION symbol after its section; the reader keeps the raw empty name.)

test('sections and symbols of the sample code object match llvm-readobj-19', () => {
  const elf = checkAgainstReadobj(SAMPLE);
  assert.equal(elf.target, 'gfx1030');
});

test('objects written for each target carry that target', () => {
  for (const t of ['gfx1010', 'gfx1013', 'gfx1030'] as const) {
    const f = join(dir, `${t}.o`);
    writeFileSync(f, writeElf(t, wordsToBytes([0xbf810000, 0xbf810000]), [{ name: 'a', offset: 0, size: 4 }, { name: 'b', offset: 4, size: 4 }]));
    assert.equal(checkAgainstReadobj(f).target, t);
  }
});

test('damaged ELF input gives ElfError only', () => {
  const sample = new Uint8Array(readFileSync(SAMPLE));
  fc.assert(fc.property(
    fc.array(fc.tuple(fc.nat({ max: sample.length - 1 }), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 24 }),
    fc.nat({ max: sample.length }),
    (flips, cut) => {
      const b = sample.slice(0, Math.max(4, cut));
      for (const [pos, v] of flips) if (pos < b.length) b[pos] = v;
      b.set([0x7f, 0x45, 0x4c, 0x46], 0);
      try {
        parseElf(b);
      } catch (e) {
        assert.ok(e instanceof ElfError, `unexpected ${String(e)}`);
        assert.doesNotMatch(e.message, /\n/);
      }
    }), { numRuns: 20000 });
});
