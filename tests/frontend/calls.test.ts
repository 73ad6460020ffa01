// The printed IR of calls and a return (src/frontend/calls.ts), checked by hand against the RDNA2
// semantics (reviewed, not generated and accepted): each s_call_b64 writes the next instruction's
// pc into s[30:31] and branches to the callee; the callee's s_setpc_b64 compares the pair's value
// (low dword, and the high dword's bits 15:0) with each return site's pc in pc order and faults
// (kind 8, FAULT_RETURN_ADDRESS) at its own pc when none matches.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assembleShaders } from '../harness/kernel.js';
import { buildCfg } from '../../src/analysis/cfg.js';
import { analyzeMode } from '../../src/analysis/mode.js';
import { translate } from '../../src/frontend/index.js';
import { printFunction } from '../../src/ir/print.js';
import { FAULT_RETURN_ADDRESS } from '../../src/ir/faults.js';

test('golden IR: two s_call_b64 sites of one subroutine, its return a branch over both sites and a fault', () => {
  const s = [...assembleShaders('gfx1030', [{ name: 'calls', body: `
  s_call_b64 s[30:31], .Lf
  s_call_b64 s[30:31], .Lf
  s_endpgm
.Lf:
  s_add_u32 s2, s2, 1
  s_setpc_b64 s[30:31]`, directives: ['.amdhsa_user_sgpr_kernarg_segment_ptr 1'] }]).values()][0];
  assert.ok(s);
  assert.equal(s.info.entry, 0);
  assert.equal(FAULT_RETURN_ADDRESS, 8);
  const cfg = buildCfg(s);
  assert.equal(printFunction(translate(s, cfg, analyzeMode(s, cfg))), [
    'function calls (wave32)',
    'b0:',
    // The high dword's check folded to true (%0, below); the constants each call writes, made once in the entry.
    '  %0 = ConstU1 u1 1 ; 0x10',
    '  %1 = ConstU32 u32 4 ; 0x0',
    '  %2 = ConstU32 u32 8 ; 0x4',
    '  Branch b1',
    // 0x0: s_call_b64 (s[30:31] = 4, 0: their last writes are dropped, the phi below reads them).
    'b1: ; preds b0',
    '  Branch b4 ; 0x0',
    // 0x4: the second call (s[30:31] = 8, 0).
    'b2: ; preds b4',
    '  Branch b4 ; 0x4',
    // 0x8: s_endpgm, the second call's return site.
    'b3: ; preds b6',
    '  EndProgram ; 0x8',
    // 0xc: the callee (its s_add_u32 is dead: s2 is never read); 0x10: its return. s31 is the one
    // constant 0 on both paths (no phi), so its check, (0 & 0xffff) == 0, is the constant true:
    // the return goes to 0x4 where s30 is 4, to 0x8 where it is 8, else faults.
    'b4: ; preds b1 b2',
    '  %3 = Phi u32 %1, %2',
    '  %4 = IEq32 u1 %3, %1 ; 0x10',
    '  %5 = AndU1 u1 %4, %0 ; 0x10',
    '  %6 = IEq32 u1 %3, %2 ; 0x10',
    '  %7 = AndU1 u1 %6, %0 ; 0x10',
    '  BranchCond %5, b2, b6 ; 0x10',
    'b5: ; preds b6',
    '  Fault %0, 8 ; 0x10',
    '  EndProgram ; 0x10',
    'b6: ; preds b4',
    '  BranchCond %7, b3, b5 ; 0x10',
    '',
  ].join('\n'));
});
