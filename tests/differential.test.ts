// Differential test against LLVM 19: every generator's systematic cases plus seeded random ones,
// at least 100,000 instruction lines per target; text and length must be identical.
// A larger run: npm run difftest -- --count 200000 --seed N
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TARGETS } from '../src/isa/types.js';
import { ALL_GENERATORS } from './gen/index.js';
import { buildCorpus } from './harness/corpus.js';
import { diffCases, formatMismatch } from './harness/diff.js';

const MIN_LINES = 100_000;
const SEED = Number(process.env['RDNA_DIFF_SEED'] ?? 20261201);

test('every encoding family has a generator', () => {
  const names = new Set(ALL_GENERATORS.map((g) => g.name));
  const want = ['SOP1', 'SOP2', 'SOPK', 'SOPC', 'SOPP', 'SMEM', 'VOP1', 'VOP2', 'VOPC', 'VOP3', 'VOP3P', 'DPP16', 'DPP8', 'SDWA', 'VINTRP', 'DS', 'MUBUF', 'MTBUF', 'MIMG', 'FLAT', 'GLOBAL', 'SCRATCH', 'EXP'];
  assert.deepEqual(want.filter((n) => !names.has(n)), []);
});

for (const target of TARGETS) {
  test(`rdna disassembles like LLVM 19 on ${target}`, () => {
    const perGen = Math.ceil(MIN_LINES / Math.max(1, ALL_GENERATORS.length));
    const cases = buildCorpus(ALL_GENERATORS, target, perGen, SEED);
    const rep = diffCases(target, cases);
    console.log(`${target}: ${rep.cases} cases, ${rep.lines} instruction lines compared, ${rep.mismatches.length} mismatches; LLVM crashed on ${rep.crashes.length} cases (left out)`);
    assert.ok(rep.lines >= MIN_LINES, `only ${rep.lines} instruction lines compared`);
    assert.equal(rep.mismatches.length, 0, rep.mismatches.slice(0, 20).map(formatMismatch).join('\n'));
  });
}
