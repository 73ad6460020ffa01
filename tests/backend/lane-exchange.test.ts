// The lane exchange's choice (src/backend/lane-exchange.ts) over profiles, and the subgroup path's
// modules: the engine suite's kernels (tests/runtime/cases.ts) recompiled for an NVIDIA-like
// profile (subgroups of 32, fixed) and an AMD-like one (32..64 under size control) must pass
// spirv-val --target-env vulkan1.3 and use subgroup operations exactly where the choice says.
// The expected choices come from the Vulkan rules the file's header states, by hand: a workgroup
// of wave-size invocations is one full subgroup only when that size can be required or is the
// device's only size, and full subgroups can be required.
import { test } from 'node:test';
import { createHash } from 'node:crypto';
import assert from 'node:assert/strict';
import { chooseLaneExchange } from '../../src/backend/lane-exchange.js';
import { LAVAPIPE_PROFILE, NVIDIA_H200_PROFILE, parseProfile, PORTABLE_PROFILE, RADV_PROFILE, type SubgroupControls, type TargetProfile } from '../../src/backend/profile.js';
import { recompile } from '../../src/backend/recompile.js';
import { disassembleSpirv } from '../../src/backend/spirv/disasm.js';
import { spirvVal } from '../harness/spirv.js';
import { ENGINE_SUITES } from '../runtime/cases.js';

const ALL_OPS = ['basic', 'vote', 'arithmetic', 'ballot', 'shuffle', 'shuffleRelative', 'quad'];
const device = (sg: Partial<SubgroupControls>): TargetProfile => ({
  ...PORTABLE_PROFILE, name: 'dev',
  subgroup: { size: 32, minSize: 32, maxSize: 32, sizeControl: true, fullSubgroups: true, inCompute: true, operations: ALL_OPS, ...sg },
});
const kindOf = (p: TargetProfile, ws: 32 | 64) => {
  const x = chooseLaneExchange(p, ws);
  return x.kind === 'subgroup' ? `subgroup ${x.requiredSubgroupSize ?? 'default'}` : 'workgroup-memory';
};

test('lane exchange: subgroups where a full subgroup of the wave size can be had, else workgroup memory, with the reason', () => {
  // The named profiles.
  assert.deepEqual([32, 64].map((w) => kindOf(LAVAPIPE_PROFILE, w as 32 | 64)), ['workgroup-memory', 'workgroup-memory']);
  assert.match(chooseLaneExchange(LAVAPIPE_PROFILE, 32).why, /^wave32: the subgroup size can be required only in 8\.\.8; a wave's lanes would span several subgroups$/);
  assert.deepEqual([32, 64].map((w) => kindOf(NVIDIA_H200_PROFILE, w as 32 | 64)), ['subgroup 32', 'workgroup-memory']);
  assert.match(chooseLaneExchange(NVIDIA_H200_PROFILE, 64).why, /span several subgroups/);
  assert.deepEqual([32, 64].map((w) => kindOf(RADV_PROFILE, w as 32 | 64)), ['subgroup 32', 'subgroup 64']);
  assert.match(chooseLaneExchange(RADV_PROFILE, 32).why, /^wave32: subgroup size 32 required \(size control over 32\.\.64\) with full subgroups/);
  assert.match(chooseLaneExchange(PORTABLE_PROFILE, 32).why, /promises nothing about subgroups/);
  // A fixed size equal to the wave's, no size control: the default size, full subgroups required.
  assert.equal(kindOf(device({ sizeControl: false }), 32), 'subgroup default');
  assert.equal(kindOf(device({ sizeControl: false, size: 64, minSize: 64, maxSize: 64 }), 64), 'subgroup default');
  // Without full subgroups, not every invocation is sure to be active: workgroup memory.
  assert.equal(kindOf(device({ fullSubgroups: false }), 32), 'workgroup-memory');
  assert.match(chooseLaneExchange(device({ fullSubgroups: false }), 32).why, /computeFullSubgroups/);
  // A wave smaller than the only subgroup size: a partial subgroup.
  assert.equal(kindOf(device({ size: 64, minSize: 64, maxSize: 64 }), 32), 'workgroup-memory');
  assert.match(chooseLaneExchange(device({ size: 64, minSize: 64, maxSize: 64 }), 32).why, /partial subgroup/);
  assert.match(chooseLaneExchange(device({ sizeControl: false, size: 64, minSize: 64, maxSize: 64 }), 32).why, /is 64 and cannot be required.*partial subgroup/);
  // A range that holds the wave size, but no size control in compute: only the default size counts.
  assert.equal(kindOf(device({ sizeControl: false, size: 64, minSize: 32, maxSize: 64 }), 32), 'workgroup-memory');
  assert.equal(kindOf(device({ sizeControl: false, size: 64, minSize: 32, maxSize: 64 }), 64), 'subgroup default');
  assert.equal(kindOf(device({ size: 16, minSize: 4, maxSize: 16 }), 32), 'workgroup-memory');
  // The operations and the stage.
  assert.equal(kindOf(device({ operations: ALL_OPS.filter((o) => o !== 'shuffle') }), 32), 'workgroup-memory');
  assert.match(chooseLaneExchange(device({ operations: ['basic', 'vote'] }), 32).why, /lack the ballot, shuffle operations/);
  assert.match(chooseLaneExchange(device({ inCompute: false }), 32).why, /no subgroup operations in compute/);
});

test('a profile FILE.json: its subgroup object, checked', () => {
  const w = { roundingModeRTE: true, roundingModeRTZ: true, denormPreserve: true, denormFlushToZero: false, signedZeroInfNanPreserve: true };
  const base = { name: 'dev', f16: w, f32: w, f64: w, shaderInt64: true, shaderFloat64: true };
  assert.equal(parseProfile(JSON.stringify(base), 'dev.json').subgroup, undefined);
  const sg = { size: 64, minSize: 32, maxSize: 64, sizeControl: true, fullSubgroups: true, inCompute: true, operations: ['basic', 'ballot', 'shuffle'] };
  const p = parseProfile(JSON.stringify({ ...base, subgroup: sg }), 'dev.json');
  assert.deepEqual(p.subgroup, sg);
  assert.equal(kindOf(p, 32), 'subgroup 32');
  assert.throws(() => parseProfile(JSON.stringify({ ...base, subgroup: { ...sg, size: 48 } }), 'dev.json'), /field 'subgroup.size' must be a power of two/);
  assert.throws(() => parseProfile(JSON.stringify({ ...base, subgroup: { ...sg, minSize: 128, maxSize: 128 } }), 'dev.json'), /minSize <= size <= maxSize/);
  assert.throws(() => parseProfile(JSON.stringify({ ...base, subgroup: { ...sg, wave: 32 } }), 'dev.json'), /'subgroup.wave' is not a subgroup field/);
  assert.throws(() => parseProfile(JSON.stringify({ ...base, subgroup: { ...sg, fullSubgroups: 1 } }), 'dev.json'), /'subgroup.fullSubgroups' must be true or false/);
});

/** The subgroup instructions a module's text uses, and whether it has workgroup ballot words. */
function uses(words: Uint32Array): { subgroupOps: string[]; caps: string[] } {
  const text = disassembleSpirv(words);
  return {
    subgroupOps: [...new Set([...text.matchAll(/OpGroupNonUniform\w+/g)].map((x) => x[0]))].sort(),
    caps: [...text.matchAll(/OpCapability (GroupNonUniform\w*)/g)].map((x) => x[1] as string).sort(),
  };
}

test('the engine suite for NVIDIA-like and AMD-like profiles: subgroup modules valid for Vulkan 1.3; lavapipe\'s without subgroup operations', (t) => {
  const nvidia = NVIDIA_H200_PROFILE, amd = RADV_PROFILE;
  let subgroupModules = 0, ballots = 0, shuffles = 0, atomics = 0;
  // A module is a function of its kernel's code and the profile: cases that share a kernel (other
  // inputs, launches or modes set through the kernarg) are checked once.
  const seen = new Set<string>();
  for (const suite of ENGINE_SUITES) {
    for (const c of suite.cases()) {
      const key = `${c.kernel}:${createHash('sha256').update(c.code).digest('hex')}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const ws = c.shader.info.waveSize;
      for (const profile of [nvidia, amd]) {
        const r = recompile(c.shader, { profile });
        const x = chooseLaneExchange(profile, ws);
        assert.deepEqual(r.laneExchange, x, c.name);
        const u = uses(r.spirv);
        if (x.kind === 'subgroup') {
          subgroupModules++;
          spirvVal(r.spirv, `${c.spirvName} (${profile.name})`, 'vulkan1.3');
          assert.deepEqual(u.caps, ['GroupNonUniform', 'GroupNonUniformBallot', 'GroupNonUniformShuffle'], c.name);
          if (u.subgroupOps.includes('OpGroupNonUniformBallot')) ballots++;
          if (u.subgroupOps.includes('OpGroupNonUniformShuffle')) shuffles++;
          // The atomics' leaders are found by OpGroupNonUniformBallotFindLSB.
          if (u.subgroupOps.includes('OpGroupNonUniformBallotFindLSB')) atomics++;
          assert.ok(u.subgroupOps.every((o) => ['OpGroupNonUniformBallot', 'OpGroupNonUniformShuffle', 'OpGroupNonUniformBallotFindLSB'].includes(o)), `${c.name}: ${u.subgroupOps.join(' ')}`);
        } else assert.deepEqual(u, { subgroupOps: [], caps: [] }, `${c.name} (${profile.name})`);
      }
      const lvp = recompile(c.shader, { profile: LAVAPIPE_PROFILE });
      assert.equal(lvp.laneExchange.kind, 'workgroup-memory');
      assert.deepEqual(uses(lvp.spirv), { subgroupOps: [], caps: [] }, c.name);
    }
  }
  // The suite reaches both exchanges on the subgroup path (lane masks; v_readlane, DPP, ds_swizzle).
  assert.ok(subgroupModules >= 20, `${subgroupModules} subgroup modules`);
  assert.ok(ballots >= 10 && shuffles >= 3 && atomics >= 2, `${ballots} modules with ballots, ${shuffles} with shuffles, ${atomics} with atomics`);
  t.diagnostic(`${subgroupModules} subgroup modules: ${ballots} with ballots, ${shuffles} with shuffles, ${atomics} with atomics`);
});
