// The decoder keeps the operand lists of instructions it has decoded, by their words
// (src/decode/shared-operands.ts), and answers a repeat from them. One pair of words with several
// literals (a VOP3 or MUBUF instruction and its third dword) must come out with each its own
// literal, in any order and repeated, however often the lists were kept and looked up before:
// each instruction's text is checked against LLVM 19's disassembly of the same words.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeAt } from '../src/decode/index.js';
import { printDecoded } from '../src/disasm/index.js';
import { llvmDisassemble } from './harness/llvm.js';

// v_fma_f32 v1, v255, <literal>, v4; v_fma_f64 v[1:2], <literal>, v[3:4], v[4:5]; buffer_load_dword v1, off, s[4:7], <literal>.
const PAIRS = [[0xd54b0001, 0x0411ffff], [0xd54c0001, 0x041206ff], [0xe0300000, 0xff010100]] as const;
const LITERALS = [0x3e22f983, 0x3f800000, 0x12345678, 0x40490fdb, 0x00000041];

test('decoded lists: one pair of words with many literals, in any order, each with its own literal (LLVM 19)', () => {
  const cases: number[][] = [];
  for (const [w0, w1] of PAIRS) for (const lit of LITERALS) cases.push([w0, w1, lit]);
  const want = llvmDisassemble('gfx1030', cases).map((r) => (r === 'crash' ? 'crash' : r[0]?.text));
  // Every case several times, in several orders: first to last, last to first, then interleaved.
  const order = [...cases.keys(), ...[...cases.keys()].reverse(), ...[...cases.keys()].map((k) => (k * 7) % cases.length)];
  // One stream of the instructions in that order, decoded in one walk (as a kernel is), and each alone.
  const stream = Uint32Array.from(order.flatMap((k) => cases[k] as number[]));
  const bad: string[] = [];
  for (let j = 0, at = 0; j < order.length; j++, at += 3) {
    const k = order[j] as number;
    const d = decodeAt('gfx1030', stream, at, stream.length, at * 4);
    const alone = Uint32Array.from(cases[k] as number[]);
    const e = decodeAt('gfx1030', alone, 0, alone.length, 0);
    for (const [what, x] of [['in the stream', d], ['alone', e]] as const) {
      const text = printDecoded(x, 'gfx1030');
      if (text !== want[k] || x.size !== 12) bad.push(`${(cases[k] as number[]).map((w) => w.toString(16)).join(' ')} ${what}: want "${want[k]}", got "${text}" (${x.size} bytes)`);
    }
  }
  assert.deepEqual(bad, []);
  // The cases differ: LLVM prints each literal (five texts per pair).
  assert.equal(new Set(want).size, cases.length);
});
