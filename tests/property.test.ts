// Property tests: the decoder is total over any dwords, lengths are consistent, every decoded
// instruction prints, and a cut-short instruction is reported as truncated.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { TARGETS } from '../src/isa/types.js';
import { decodeAt, encodingOf } from '../src/decode/index.js';
import { printDecoded } from '../src/disasm/index.js';

const dwords = fc.array(fc.integer({ min: 0, max: 0xffffffff }), { minLength: 1, maxLength: 8 });
// Words with a known-family prefix are far likelier to decode than uniform ones.
const PREFIXES = [0x00000000, 0x7e000000, 0x7c000000, 0x80000000, 0xb0000000, 0xbe800000, 0xbf000000, 0xbf800000, 0xc8000000, 0xcc000000, 0xd4000000, 0xd8000000, 0xdc000000, 0xe0000000, 0xe8000000, 0xf0000000, 0xf4000000, 0xf8000000];
const prefixed = fc.tuple(fc.constantFrom(...PREFIXES), dwords).map(([p, ws]) => {
  const first = ws[0] ?? 0;
  const mask = p === 0 ? 0x7fffffff : p >= 0xc0000000 ? 0x03ffffff : p === 0x80000000 ? 0x3fffffff : 0x00ffffff;
  return [((p | (first & mask)) >>> 0), ...ws.slice(1)];
});

for (const target of TARGETS) {
  test(`decode is total and consistent on ${target}`, () => {
    fc.assert(fc.property(fc.oneof(dwords, prefixed), (ws) => {
      const words = Uint32Array.from(ws);
      const d = decodeAt(target, words, 0, words.length, 0);
      assert.ok(d.size >= 4 && d.size % 4 === 0 && d.size <= words.length * 4, `size ${d.size}`);
      assert.equal(d.words.length * 4, d.size);
      for (let i = 0; i < d.words.length; i++) assert.equal(d.words[i], words[i]);
      if (d.kind === 'invalid') assert.ok(!d.reason.startsWith('internal decoder error'), d.reason);
      const text = printDecoded(d, target);
      assert.ok(text.length > 0);
      assert.equal(printDecoded(decodeAt(target, words, 0, words.length, 0), target), text, 'decode+print is deterministic');
      if (d.kind === 'instruction') {
        assert.equal(d.encoding, encodingOf(words[0] ?? 0));
        // Every shorter input cuts the instruction short.
        for (let k = 1; k < d.words.length; k++) {
          const cut = decodeAt(target, words.subarray(0, k), 0, k, 0);
          assert.ok(cut.kind === 'invalid' && cut.truncated === true, `prefix of ${k} dwords should be truncated`);
        }
      }
    }), { numRuns: 20000 });
  });
}

// A word's record can depend on the dwords after it: a DPP v_nop (src0 = 0xFA) whose second dword
// is missing decodes as the one-dword v_nop, as LLVM 19 prints it too. A cache of records by the
// word alone (tried once: f603970) made every later DPP v_nop print as a plain v_nop.
test('a word decodes by the dwords after it every time, whatever was decoded before', () => {
  for (const target of TARGETS) {
    const alone = Uint32Array.of(0x7e0000fa), withDpp = Uint32Array.of(0x7e0000fa, 0xf0000000);
    for (let round = 0; round < 2; round++) {
      const a = decodeAt(target, alone, 0, 1, 0), b = decodeAt(target, withDpp, 0, 2, 0);
      assert.equal(a.size, 4);
      assert.equal(printDecoded(a, target), 'v_nop');
      assert.equal(b.size, 8);
      assert.equal(printDecoded(b, target), 'v_nop quad_perm:[0,0,0,0] row_mask:0xf bank_mask:0x0');
    }
  }
});
