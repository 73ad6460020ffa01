// Cross-check of the ISA table through LLVM 19's assembler (not its disassembler): for every
// table entry on every target, a decoded instance is printed by rdna, assembled by llvm-mc-19,
// and the encoding LLVM's assembler chooses must decode back to the same instruction definition
// and print identically. This checks each opcode number and mnemonic of the table independently
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

/** One decoded instance per table entry, found among the generators' cases. */
function instances(target: Target): Map<InstrDef, Instruction> {
  const found = new Map<InstrDef, Instruction>();
  const consider = (c: readonly number[]) => {
    const words = Uint32Array.from(c);
    const d = decodeAt(target, words, 0, words.length, 0);
    if (d.kind === 'instruction' && !found.has(d.def) && (d.variant === undefined || d.variant === 'e32' || d.variant === 'e64')) found.set(d.def, d);
  };
  for (const g of ALL_GENERATORS) for (const c of g.systematic(target)) consider(c);
  const rng = new Rng(7);
  for (const g of ALL_GENERATORS) for (let i = 0; i < 3000; i++) consider(g.random(rng, target));
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
    const list = [...inst.values()];
    const texts = list.map((i) => printInstruction(i, target));
    const enc = assemble(target, texts);
    const bad: string[] = [];
    list.forEach((orig, k) => {
      const e = enc[k];
      const text = texts[k] ?? '';
      if (e === undefined || typeof e === 'string') { bad.push(`${text}: ${e ?? 'no result'}`); return; }
      const words = Uint32Array.from(e);
      const back = decodeAt(target, words, 0, words.length, 0);
      if (back.kind !== 'instruction' || back.def !== orig.def) {
        bad.push(`${text}: llvm-mc encodes it as ${e.map((w) => w.toString(16)).join(' ')}, which rdna decodes as ${back.kind === 'instruction' ? back.def.mnemonic : 'invalid'}`);
      } else if (printInstruction(back, target) !== text) {
        bad.push(`${text}: reassembled prints as ${printInstruction(back, target)}`);
      }
    });
    assert.deepEqual(bad, []);
  });
}
