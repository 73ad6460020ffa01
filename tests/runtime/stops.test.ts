// The instructions that stop a wave or would need a debugger (src/frontend/index.ts STOPS and
// BRANCH_CONDITIONS, src/interp/units/flow.ts, valu-lanes.ts), on both engines: v_illegal (an
// illegal-instruction exception into the trap handler), s_sethalt 1 and s_setkill 1 stop the run
// with the pc and the instruction; s_sethalt 0, s_setkill 0 and s_wakeup change nothing, and the
// s_cbranch_cdbg* branches are never taken (no debugger sets the debug bits).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assemble } from '../interp/harness.js';
import { dispatch } from '../../src/interp/dispatch.js';
import { runOnVulkan } from '../../src/runtime/engine.js';
import { VulkanDevice } from '../../src/runtime/vulkan.js';
import { RuntimeFault } from '../../src/ir/faults.js';
import { LVP } from './harness.js';
import { prepare } from './cases.js';

const body = `
  s_load_dwordx2 s[4:5], s[0:1], 0x0
  s_load_dword s6, s[0:1], 0x8
  s_waitcnt lgkmcnt(0)
  v_lshlrev_b32 v1, 2, v0
  s_wakeup
  s_sethalt 0
  s_setkill 0
  s_cbranch_cdbgsys .Lwrong
  s_cbranch_cdbguser .Lwrong
  s_cbranch_cdbgsys_or_user .Lwrong
  s_cbranch_cdbgsys_and_user .Lwrong
  v_add_nc_u32 v2, 7, v0
  global_store_dword v1, v2, s[4:5]
  s_waitcnt_vscnt null, 0x0
  s_cmp_eq_u32 s6, 1
  s_cbranch_scc1 .Lhalt
  s_cmp_eq_u32 s6, 2
  s_cbranch_scc1 .Lkill
  s_cmp_eq_u32 s6, 3
  s_cbranch_scc1 .Lillegal
  s_endpgm
.Lwrong:
  v_mov_b32 v2, 0xdead
  global_store_dword v1, v2, s[4:5]
  s_endpgm
.Lhalt:
  s_sethalt 1
.Lkill:
  s_setkill 1
.Lillegal:
  v_illegal`;

const STOPPED: readonly [number, RegExp, RegExp][] = [
  [1, /s_sethalt 1.*the wave halted itself/, /s_sethalt 1: the wave halted itself \(s_sethalt 1; no debugger resumes it here\)/],
  [2, /s_setkill 1.*s_setkill 1 \(the wave kills itself\) is not modelled/, /s_setkill 1: the wave killed itself \(s_setkill 1\), which is not modelled/],
  [3, /v_illegal.*v_illegal: an illegal instruction \(no trap handler\)/, /v_illegal: an illegal instruction \(v_illegal raises an exception that enters the trap handler/],
];

for (const wave64 of [false, true]) {
  test(`s_wakeup, s_sethalt 0, s_setkill 0 and the cdbg branches change nothing; s_sethalt 1, s_setkill 1 and v_illegal stop the run with the pc (wave${wave64 ? 64 : 32})`, async () => {
    const shader = assemble('gfx1030', [{ name: 'stops', body, vgprs: 8, sgprs: 16, wave64 }]).get('stops');
    assert.ok(shader);
    const n = 64;
    const want = new Uint8Array(new Uint32Array(Array.from({ length: n }, (_, i) => i + 7)).buffer);
    const dev = VulkanDevice.open({ driverFiles: LVP, validation: true });
    try {
      for (const sel of [0, 1, 2, 3]) {
        const interp = [new Uint8Array(4 * n)], vk = [new Uint8Array(4 * n)];
        const p = prepare(shader, interp, [n, 1, 1], [n, 1, 1], [[8, sel]]);
        const run = () => dispatch(shader, { grid: [n, 1, 1], block: [n, 1, 1], kernarg: p.kernarg, mem: p.mem, maxSteps: 1_000_000 });
        const vkRun = runOnVulkan(shader, prepare(shader, vk, [n, 1, 1], [n, 1, 1], [[8, sel]]), dev);
        const stop = STOPPED.find(([s]) => s === sel);
        if (!stop) {
          run();
          await vkRun;
          assert.deepEqual(interp[0], want, 'interpreter');
          assert.deepEqual(vk[0], want, 'vulkan');
          continue;
        }
        assert.throws(run, (e: unknown) => e instanceof Error && /^pc 0x[0-9a-f]+: /.test(e.message) && stop[1].test(e.message), `interpreter, selector ${sel}`);
        await assert.rejects(vkRun, (e: unknown) => e instanceof RuntimeFault && stop[2].test(e.message) && e.pc > 0, `vulkan, selector ${sel}`);
      }
    } finally {
      dev.close();
    }
  });
}
