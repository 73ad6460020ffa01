// The SDWA forms of every VOP1/VOP2/VOPC opcode the frontend translates (valu-variants.ts
// `sdwaForm`, gfx1030): each translates (the VALU io applies the selects: src/frontend/units/
// valu.ts for the 32-bit ops, valu-io.ts for the 16-bit ones), or is refused for a reason its e32
// form shares; none is silently translated as e32 (the translator would not have applied the
// selects: refused). What the translation computes is checked against the interpreter by
// tests/frontend/translate-vint.test.ts and on Vulkan by tests/runtime/cases-vint.ts.
import { test } from 'node:test';
import { MOVREL } from '../../src/frontend/units/movrel.js';
import assert from 'node:assert/strict';
import type { Shader } from '../../src/container/shader.js';
import { buildCfg } from '../../src/analysis/cfg.js';
import { analyzeMode } from '../../src/analysis/mode.js';
import { isTranslated, translate } from '../../src/frontend/index.js';
import { TranslateError } from '../../src/frontend/errors.js';
import { decodeAt } from '../../src/decode/index.js';
import { VALU_VARIANTS, sdwaForm } from '../../src/isa/tables/valu-variants.js';
import { assemble } from '../interp/harness.js';

/** The e32 word of an opcode: vdst v5 (VOPC: none), vsrc1 v6, src0 the given code. */
const vopWord = (fam: string, op: number, src0: number) =>
  (fam === 'VOP1' ? 0x7e000000 | (5 << 17) | (op << 9) | src0
    : fam === 'VOPC' ? 0x7c000000 | (op << 17) | (6 << 9) | src0
      : (op << 25) | (5 << 17) | (6 << 9) | src0) >>> 0;

/** The translation's error for the instruction (then s_endpgm), or '' when it translates. */
let base: Shader | undefined;
function translateError(words: readonly number[]): string {
  base ??= assemble('gfx1030', [{ name: 'base', body: 's_endpgm' }]).get('base');
  assert.ok(base);
  const w = Uint32Array.from([...words, 0xbf810000]);
  const shader: Shader = { info: { ...base.info, codeRange: { start: 0, end: 4 * w.length }, entry: 0 }, words: w, basePc: 0 };
  try {
    const cfg = buildCfg(shader);
    translate(shader, cfg, analyzeMode(shader, cfg));
    return '';
  } catch (e) {
    assert.ok(e instanceof TranslateError, String(e));
    return e.message;
  }
}

test('every translated VOP1/VOP2/VOPC opcode with an SDWA form translates its SDWA forms as its e32 form does', () => {
  let n = 0;
  for (const v of VALU_VARIANTS) {
    if (sdwaForm('gfx1030', v.family, v.opcode) === undefined || v.bare) continue;
    const e32 = vopWord(v.family, v.opcode, 256 + 7);
    const d = decodeAt('gfx1030', Uint32Array.from([e32]), 0, 1, 0);
    if (d.kind !== 'instruction' || !isTranslated(d.def.mnemonic)) continue;
    // The M0-indexed moves refuse their SDWA forms (src/frontend/units/movrel.ts; the interpreter refuses them too).
    if (d.def.mnemonic in MOVREL) { assert.match(translateError([(e32 & ~0x1ff) | 0xf9, 0x00060607]), /SDWA form of .* is not translated yet/, d.def.mnemonic); continue; }
    const plain = translateError([e32]);
    const src1 = v.family === 'VOP1' ? 0 : 1;
    // src0 v7; selects: every-dword, and byte/word ones (VOPC: sd = 1 with sdst s[10:11] for a v_cmp).
    const cmpx = v.mnemonic.startsWith('v_cmpx');
    const w1s = v.family === 'VOPC'
      ? [7 | (6 << 16) | (src1 * 6 << 24), 7 | (1 << 16) | (5 << 24) | (cmpx ? 0 : (1 << 15) | (10 << 8))]
      : [7 | (6 << 8) | (6 << 16) | (src1 * 6 << 24), 7 | (4 << 8) | (2 << 11) | (1 << 16) | (src1 * 5 << 24), 7 | (1 << 8) | (1 << 11) | (5 << 16) | (src1 * 2 << 24)];
    for (const w1 of w1s) {
      const words = [(e32 & ~0x1ff) | 0xf9, w1 >>> 0];
      const dd = decodeAt('gfx1030', Uint32Array.from(words), 0, 2, 0);
      assert.equal(dd.kind, 'instruction', `${v.mnemonic}: ${JSON.stringify(dd)}`);
      const why = translateError(words);
      assert.doesNotMatch(why, /SDWA/, `${v.mnemonic}: ${why}`);
      // Refused only as the e32 form is (e.g. a mnemonic refused for its operands).
      if (why !== '') assert.notEqual(plain, '', `${v.mnemonic}: the SDWA form is refused (${why}), the e32 form translates`);
      n++;
    }
  }
  console.log(`${n} SDWA forms checked`);
  assert.ok(n > 150, `${n} SDWA forms checked`);
});
