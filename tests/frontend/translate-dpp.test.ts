// The DPP16 and DPP8 forms of every VOP1/VOP2 opcode the frontend translates (valu-variants.ts
// `dppForm`, gfx1030): each translates (the unit reads its operands through the DPP-aware operand
// readers, src/frontend/units/dpp.ts), or is refused for a reason its e32 form shares; none is
// silently translated as e32 (the translator would not have applied the DPP lanes: refused).
// What the translation computes is checked on three engines by tests/runtime/cases-dpp.ts.
import { test } from 'node:test';
import { MOVREL } from '../../src/frontend/units/movrel.js';
import assert from 'node:assert/strict';
import type { Shader } from '../../src/container/shader.js';
import { buildCfg } from '../../src/analysis/cfg.js';
import { analyzeMode } from '../../src/analysis/mode.js';
import { isTranslated, translate } from '../../src/frontend/index.js';
import { TranslateError } from '../../src/frontend/errors.js';
import { decodeAt } from '../../src/decode/index.js';
import { VALU_VARIANTS, dppForm } from '../../src/isa/tables/valu-variants.js';
import { assemble } from '../interp/harness.js';

const vopWord = (fam: string, op: number, src0: number) =>
  (fam === 'VOP1' ? 0x7e000000 | (5 << 17) | (op << 9) | src0 : (op << 25) | (5 << 17) | (6 << 9) | src0) >>> 0;

/** The translation's error for one instruction (then s_endpgm), or '' when it translates. */
function translateError(words: readonly number[]): string {
  const base = assemble('gfx1030', [{ name: 'base', body: 's_endpgm' }]).get('base');
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

test('every translated VOP1/VOP2 opcode with a DPP form translates its DPP16 and DPP8 forms as its e32 form does', () => {
  let n = 0;
  for (const v of VALU_VARIANTS) {
    if (v.family === 'VOPC' || dppForm('gfx1030', v.family, v.opcode) === undefined || v.bare) continue;
    const e32 = vopWord(v.family, v.opcode, 256 + 7);
    const d = decodeAt('gfx1030', Uint32Array.from([e32]), 0, 1, 0);
    if (d.kind !== 'instruction' || !isTranslated(d.def.mnemonic)) continue;
    // The M0-indexed moves refuse their DPP forms (src/frontend/units/movrel.ts; the interpreter refuses them too).
    if (d.def.mnemonic in MOVREL) { assert.match(translateError([(e32 & ~0x1ff) | 0xfa, 7 | (0x111 << 8) | (0xff << 24)]), /DPP16 form of .* is not translated yet/, d.def.mnemonic); continue; }
    const plain = translateError([e32]);
    for (const [src, w1] of [[0xfa, 7 | (0x111 << 8) | (0xff << 24)], [0xe9, 7 | (0x39 << 8)]] as const) {
      const words = [(e32 & ~0x1ff) | src, w1 >>> 0];
      const dd = decodeAt('gfx1030', Uint32Array.from(words), 0, 2, 0);
      assert.equal(dd.kind, 'instruction', `${v.mnemonic}: ${JSON.stringify(dd)}`);
      const why = translateError(words);
      assert.doesNotMatch(why, /DPP/, `${v.mnemonic}: ${why}`);
      // Refused only as the e32 form is (e.g. a mnemonic refused for its operands).
      if (why !== '') assert.notEqual(plain, '', `${v.mnemonic}: the DPP form is refused (${why}), the e32 form translates`);
      n++;
    }
  }
  assert.ok(n > 80, `${n} DPP forms checked`);
});
