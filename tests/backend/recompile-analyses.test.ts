// recompile's `analyses` option: a caller that has already built the shader's CFG and MODE
// analysis (the shader cache keys on the CFG, `rdna mode` prints the analysis) hands them over
// instead of having recompile build them again. The module must be word for word the one recompile
// builds on its own, the analyses must be the ones used (the result's MODE report is the object
// passed), and recompile must leave them as they were.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assembleShaders } from '../harness/kernel.js';
import { buildCfg } from '../../src/analysis/cfg.js';
import { analyzeMode } from '../../src/analysis/mode.js';
import { recompile } from '../../src/backend/recompile.js';
import { PORTABLE_PROFILE } from '../../src/backend/profile.js';

// A branch, an f32 op under a rounding mode set mid-shader (lowered on the portable profile) and a store.
const BODY = [
  's_load_dwordx2 s[4:5], s[0:1], 0x0',
  's_waitcnt lgkmcnt(0)',
  'v_lshlrev_b32 v1, 2, v0',
  'v_cvt_f32_u32 v2, v0',
  's_cmp_eq_u32 s2, 0',
  's_cbranch_scc1 .Lskip',
  's_round_mode 0x3',
  'v_add_f32 v2, 1.0, v2',
  '.Lskip:',
  'v_mul_f32 v2, v2, v2',
  'global_store_dword v1, v2, s[4:5]',
  's_endpgm',
].join('\n');

test('recompile with the caller\'s CFG and MODE analysis: the same module, those analyses used and left unchanged', () => {
  const shader = [...assembleShaders('gfx1030', [{ name: 'k', body: BODY, directives: ['.amdhsa_user_sgpr_kernarg_segment_ptr 1', '.amdhsa_system_sgpr_workgroup_id_x 1'] }]).values()][0];
  assert.ok(shader);
  const own = recompile(shader, { profile: PORTABLE_PROFILE });
  const cfg = buildCfg(shader);
  const mode = analyzeMode(shader, cfg);
  const before = JSON.stringify({ blocks: cfg.blocks.map((b) => [b.start, b.end, b.instructions.length, b.succs, b.preds, b.exit]), d: cfg.diagnostics, m: mode.blockIn, t: mode.transitions, v: mode.valu });
  assert.ok(own.floatOps.some((o) => o.lowering !== 'native'), 'the kernel has a lowered float op (the MODE analysis matters)');
  for (const analyses of [{ cfg }, { cfg, mode }]) {
    const r = recompile(shader, { profile: PORTABLE_PROFILE, analyses });
    assert.deepEqual([...r.spirv], [...own.spirv]);
    assert.deepEqual(r.floatOps, own.floatOps);
    assert.deepEqual(r.diagnostics, own.diagnostics);
    if (analyses.mode) assert.equal(r.mode, mode, 'the MODE analysis passed is the one used');
  }
  assert.equal(JSON.stringify({ blocks: cfg.blocks.map((b) => [b.start, b.end, b.instructions.length, b.succs, b.preds, b.exit]), d: cfg.diagnostics, m: mode.blockIn, t: mode.transitions, v: mode.valu }), before);
});
