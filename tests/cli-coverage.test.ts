// rdna coverage: the report against the ISA table (every entry of each target counted once, by
// family) and against what translation actually does: for every table entry with a decodable
// instance (found among the instruction-word generators' cases, as tests/assembler.test.ts finds
// them), a one-instruction kernel is translated; an opcode the report calls untranslated must fail
// with `<mnemonic> is not translated yet`, and one it calls translated must not.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { TARGETS, type InstrDef, type Target } from '../src/isa/types.js';
import { ISA_TABLE, hasTarget } from '../src/isa/table.js';
import { decodeAt } from '../src/decode/index.js';
import type { Instruction } from '../src/decode/types.js';
import type { Shader } from '../src/container/shader.js';
import { buildCfg } from '../src/analysis/cfg.js';
import { analyzeMode } from '../src/analysis/mode.js';
import { translate } from '../src/frontend/index.js';
import { TranslateError } from '../src/frontend/errors.js';
import { ALL_GENERATORS } from './gen/index.js';
import { Rng } from './harness/rng.js';
import { assemble } from './interp/harness.js';

const BIN = new URL('../bin/rdna', import.meta.url).pathname;

interface Report { targets: { target: string; translated: number; total: number; families: { family: string; translated: number; total: number; missing: string[] }[] }[] }

function run(args: string[]): { status: number | null; stdout: string; stderr: string } {
  return spawnSync(process.execPath, [BIN, 'coverage', ...args], { encoding: 'utf8' });
}

test('rdna coverage --json: every table entry of each target counted once, by family; translated + missing = total', () => {
  const r = run(['--json']);
  assert.equal(r.status, 0, r.stderr);
  const rep = JSON.parse(r.stdout) as Report;
  assert.deepEqual(rep.targets.map((t) => t.target), [...TARGETS]);
  for (const t of rep.targets) {
    const defs = ISA_TABLE.filter((d) => hasTarget(d, t.target as Target));
    assert.equal(t.total, defs.length, t.target);
    assert.equal(t.translated, t.families.reduce((n, f) => n + f.translated, 0));
    for (const f of t.families) {
      const fam = defs.filter((d) => d.family === f.family);
      assert.equal(f.total, fam.length, `${t.target} ${f.family}`);
      assert.equal(f.translated + f.missing.length, f.total);
      for (const m of f.missing) assert.ok(fam.some((d) => d.mnemonic === m), m);
    }
    assert.ok(t.translated > 500, `${t.target}: ${t.translated}`);
  }
  const one = run(['--target', 'gfx1013']);
  assert.equal(one.status, 0);
  assert.match(one.stdout, /^gfx1013: \d+ of \d+ table opcodes translate\n/);
  assert.equal(run(['--target', 'gfx9']).status, 2);
  assert.equal(run(['file.o']).status, 2);
});

/** One decoded e32/e64 instance per table entry of the target, among the generators' cases. */
function instances(target: Target): Map<InstrDef, Instruction> {
  const found = new Map<InstrDef, Instruction>();
  const consider = (c: readonly number[]) => {
    const words = Uint32Array.from(c);
    const d = decodeAt(target, words, 0, words.length, 0);
    if (d.kind !== 'instruction' || found.has(d.def) || (d.variant !== undefined && d.variant !== 'e32' && d.variant !== 'e64')) return;
    found.set(d.def, d);
  };
  const rng = new Rng(3);
  for (const g of ALL_GENERATORS) for (const c of g.systematic(target)) consider(c);
  for (const g of ALL_GENERATORS) for (let i = 0; i < 2000; i++) consider(g.random(rng, target));
  return found;
}

test('what rdna coverage reports is what translation does, for every table entry with an instance, on every target', () => {
  const base = assemble('gfx1030', [{ name: 'base', body: 's_endpgm' }]).get('base');
  assert.ok(base);
  for (const target of TARGETS) {
    const rep = JSON.parse(run(['--json', '--target', target]).stdout) as Report;
    const missing = new Set(rep.targets[0]?.families.flatMap((f) => f.missing));
    let checked = 0;
    for (const [def, inst] of instances(target)) {
      // Control flow ends blocks before any translator sees it (branches, calls, s_setpc, traps, ends).
      if (def.family === 'SOPP' || (def.flags ?? []).includes('branch') || /^s_(setpc|swappc|call|rfe)/.test(def.mnemonic)) continue;
      const words = Uint32Array.from([...inst.words, 0xbf810000]);
      const shader: Shader = { info: { ...base.info, target, codeRange: { start: 0, end: 4 * words.length }, entry: 0 }, words, basePc: 0 };
      let why = '';
      try {
        const cfg = buildCfg(shader);
        translate(shader, cfg, analyzeMode(shader, cfg));
      } catch (e) {
        assert.ok(e instanceof TranslateError, `${target} ${def.mnemonic}: ${String(e)}`);
        why = e.message;
      }
      const said = /: (\S+) is not translated yet$/.exec(why)?.[1];
      if (missing.has(def.mnemonic)) assert.equal(said, def.mnemonic, `${target} ${def.mnemonic} is reported untranslated, but: ${why || 'it translated'}`);
      else assert.notEqual(said, def.mnemonic, `${target} ${def.mnemonic} is reported translated, but: ${why}`);
      checked++;
    }
    assert.ok(checked > 1000, `${target}: ${checked} entries checked`);
  }
});
