// The run-time flow around calls (src/analysis/calls.ts) on programs assembled by llvm-mc-19:
// which return sites each return may go to, that a resolved call goes only to its callee, what a
// never-returning callee leaves unreachable, and that the MODE data flow reaches a return site
// from the callee's return, not from the call. Expected block ids and sites are read by hand off
// the program text (blocks by start pc: the entry first).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildCfg } from '../../src/analysis/cfg.js';
import { callFlow } from '../../src/analysis/calls.js';
import { analyzeMode } from '../../src/analysis/mode.js';
import type { Cfg } from '../../src/analysis/types.js';
import type { Shader } from '../../src/container/shader.js';
import { assembleShaders } from '../harness/kernel.js';

function shaderOf(name: string, body: string): Shader {
  const s = assembleShaders('gfx1030', [{ name, body }]).get(name);
  assert.ok(s);
  return s;
}

/** `id@pc` per block (pc relative to the entry), to name blocks in the expectations. */
const at = (cfg: Cfg, s: Shader) => cfg.blocks.map((b) => `${b.id}@${(b.start - s.info.entry).toString(16)}`);

test('a subroutine called from two sites returns to either; a nested callee only to its own site; calls go only to their callee', () => {
  const s = shaderOf('sites', `
  s_call_b64 s[30:31], .Lf
  s_call_b64 s[30:31], .Lf
  s_call_b64 s[30:31], .Lg
  s_endpgm
.Lf:
  s_nop 0
  s_setpc_b64 s[30:31]
.Lg:
  s_call_b64 s[28:29], .Lh
  s_setpc_b64 s[30:31]
.Lh:
  s_setpc_b64 s[28:29]`);
  const cfg = buildCfg(s);
  // 0@0 call f; 1@4 call f; 2@8 call g; 3@c endpgm; 4@10 f (return); 5@18 g: call h; 6@1c g's return; 7@20 h (return).
  assert.deepEqual(at(cfg, s), ['0@0', '1@4', '2@8', '3@c', '4@10', '5@18', '6@1c', '7@20']);
  const f = callFlow(cfg);
  assert.deepEqual(f.returnSites, [undefined, undefined, undefined, undefined, [1, 2], undefined, [3], [6]]);
  assert.deepEqual(f.succs, [[4], [4], [5], [], [1, 2], [7], [3], [6]]);
  assert.ok(f.reachable.every(Boolean));
});

test('a callee that never returns leaves its return site unreachable; an unresolved s_swappc_b64 keeps its fallthrough; s_rfe_b64 has no sites', () => {
  const s = shaderOf('noreturn', `
  s_load_dwordx2 s[8:9], s[0:1], 0x0
  s_swappc_b64 s[30:31], s[8:9]
  s_call_b64 s[30:31], .Lend
  s_getpc_b64 s[16:17]
  s_rfe_b64 s[30:31]
.Lend:
  s_endpgm`);
  const cfg = buildCfg(s);
  // 0@0 load + swappc (unresolved); 1@c call .Lend; 2@10 getpc + rfe (exit 'return'); 3@18 .Lend.
  assert.deepEqual(at(cfg, s), ['0@0', '1@c', '2@10', '3@18']);
  const f = callFlow(cfg);
  assert.deepEqual(f.succs, [[1], [3], [], []]);
  assert.deepEqual(f.returnSites, [undefined, undefined, undefined, undefined]);
  assert.deepEqual(f.reachable, [true, true, false, true]);
});

test('the MODE data flow reaches a return site from the callee\'s return (the callee\'s s_round_mode holds there), not from the call', () => {
  const s = shaderOf('mode', `
  s_call_b64 s[30:31], .Lrz
  v_add_f32 v0, v0, v1
  s_endpgm
.Lrz:
  s_round_mode 0x3
  s_setpc_b64 s[30:31]`);
  const cfg = buildCfg(s);
  const m = analyzeMode(s, cfg);
  const add = cfg.blocks[1]?.instructions[0];
  assert.equal(add?.def.mnemonic, 'v_add_f32');
  const st = m.before(add.pc);
  assert.ok(st);
  // FP_ROUND (MODE bits 3:0) as s_round_mode 3 left it: f32 round toward zero (3) in bits 1:0, 0 in 3:2.
  assert.equal(st.mode.known & 0xf, 0xf);
  assert.equal(st.mode.value & 0xf, 3);
});
