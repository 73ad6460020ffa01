// Cross-check of the ISA table through LLVM 19's assembler (not its disassembler): for every
// table entry on every target, a decoded instance is printed by rdna, assembled by llvm-mc-19,
// and the encoding LLVM's assembler chooses must decode back to the same instruction definition
// (the same mnemonic and encoding). This checks each opcode number and mnemonic of the table independently
// of the differential test.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { TARGETS, type InstrDef, type Target } from '../src/isa/types.js';
import { ISA_TABLE, hasTarget } from '../src/isa/table.js';
import { decodeAt } from '../src/decode/index.js';
import { printInstruction } from '../src/disasm/index.js';
import type { Instruction } from '../src/decode/types.js';
import { ALL_GENERATORS } from './gen/index.js';
import { LLVM_MC } from './harness/llvm.js';
import { Rng } from './harness/rng.js';

/**
 * Up to PER_DEF decoded instances (distinct texts) per table entry, found among the generators'
 * cases. Several, because the disassembler accepts operand combinations the assembler refuses
 * (constant-bus limits, dmask/vdata agreement): one of them must assemble.
 */
const PER_DEF = 24;
function instances(target: Target): Map<InstrDef, Instruction[]> {
  const found = new Map<InstrDef, Instruction[]>();
  const texts = new Set<string>();
  const consider = (c: readonly number[]) => {
    const words = Uint32Array.from(c);
    const d = decodeAt(target, words, 0, words.length, 0);
    if (d.kind !== 'instruction' || (d.variant !== undefined && d.variant !== 'e32' && d.variant !== 'e64')) return;
    const list = found.get(d.def) ?? [];
    if (list.length >= PER_DEF) return;
    const text = printInstruction(d, target);
    if (text.includes('/*') || texts.has(text)) return; // LLVM's own "invalid operand" notes never assemble
    texts.add(text);
    list.push(d);
    found.set(d.def, list);
  };
  const rng = new Rng(7);
  for (const g of ALL_GENERATORS) for (let i = 0; i < 4000; i++) consider(g.random(rng, target));
  for (const g of ALL_GENERATORS) for (const c of g.systematic(target)) consider(c);
  return found;
}

function assemble(target: Target, texts: readonly string[]): (number[] | string)[] {
  const src = texts.map((t, i) => `L${i}:\n${t}`).join('\n') + '\n';
  const r = spawnSync(LLVM_MC, ['-triple=amdgcn', `-mcpu=${target}`, '-show-encoding'], { input: src, encoding: 'utf8', maxBuffer: 1 << 28 });
  if (r.error) throw r.error;
  const out: (number[] | string)[] = texts.map(() => 'not assembled');
  let cur = -1;
  for (const line of r.stdout.split('\n')) {
    const lm = /^L(\d+):$/.exec(line);
    if (lm) { cur = Number(lm[1]); continue; }
    const em = /; encoding: \[([^\]]*)\]/.exec(line);
    if (em && cur >= 0) {
      const bytes = (em[1] ?? '').split(',').map((b) => parseInt(b, 16));
      const words: number[] = [];
      for (let i = 0; i + 3 < bytes.length; i += 4) words.push(((bytes[i] ?? 0) | ((bytes[i + 1] ?? 0) << 8) | ((bytes[i + 2] ?? 0) << 16) | ((bytes[i + 3] ?? 0) << 24)) >>> 0);
      out[cur] = words;
      cur = -1;
    }
  }
  return out;
}

for (const target of TARGETS) {
  test(`every table entry round-trips through llvm-mc-19 on ${target}`, () => {
    const defs = ISA_TABLE.filter((d) => hasTarget(d, target));
    assert.ok(defs.length > 0, 'the table is empty');
    const inst = instances(target);
    const missing = defs.filter((d) => !inst.has(d)).map((d) => `${d.family} ${d.mnemonic}`);
    assert.deepEqual(missing, [], 'table entries no generator produces');
    const list = [...inst.values()].flat();
    const texts = list.map((i) => printInstruction(i, target));
    const enc = assemble(target, texts);
    const bad: string[] = [];
    const roundTripped = new Set<InstrDef>();
    list.forEach((orig, k) => {
      const e = enc[k];
      const text = texts[k] ?? '';
      if (e === undefined || typeof e === 'string') return; // refused by the assembler: judged per def below
      const words = Uint32Array.from(e);
      const back = decodeAt(target, words, 0, words.length, 0);
      if (back.kind !== 'instruction' || back.def !== orig.def) {
        bad.push(`${text}: llvm-mc encodes it as ${e.map((w) => w.toString(16)).join(' ')}, which rdna decodes as ${back.kind === 'instruction' ? back.def.mnemonic : 'invalid'}`);
      } else {
        // (The text need not come back identical: LLVM's own printer and parser disagree on some
        // constants, e.g. a 16-bit integer literal 0x3f800000 prints as 1.0 but parses as 0x3c00.)
        roundTripped.add(orig.def);
      }
    });
    for (const d of defs) if (!roundTripped.has(d)) bad.push(`${d.family} ${d.mnemonic}: no instance assembles (${(inst.get(d) ?? []).map((i) => printInstruction(i, target)).join(' | ')})`);
    assert.deepEqual(bad, []);
  });
}
