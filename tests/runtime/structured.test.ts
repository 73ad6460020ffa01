// The structurizer (src/backend/spirv/structurize.ts, emit-structured.ts) on IR kernels built
// directly (tests/harness/ir-cfg.ts): random CFGs (fast-check, seeded) and named shapes (diamonds,
// if/else chains, nested loops with several breaks and continues, loops with several exits, early
// ends, values defined in a loop and used after it), each emitted, valid for spirv-val --target-env
// vulkan1.3, and run by the IR interpreter and by Vulkan on lavapipe (validation layer on): every
// record every lane writes equal. Reducible CFGs must come out structured (OpLoopMerge /
// OpSelectionMerge, no OpSwitch, no Function variables: SSA values and OpPhi), irreducible ones as
// the state machine; which is which is decided by T1/T2 reduction, not by the structurizer.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { emitSpirv } from '../../src/backend/spirv/emit.js';
import { SWITCH_CHUNK } from '../../src/backend/spirv/emit-state-machine.js';
import { LAVAPIPE_PROFILE } from '../../src/backend/profile.js';
import { dispatchIr } from '../../src/ir/dispatch.js';
import type { IrFunction } from '../../src/ir/ir.js';
import type { Shader } from '../../src/container/shader.js';
import type { Dim3 } from '../../src/interp/dispatch.js';
import { runModuleOnVulkan } from '../../src/runtime/engine.js';
import { VulkanDevice } from '../../src/runtime/vulkan.js';
import { spirvVal } from '../harness/spirv.js';
import { Rng } from '../harness/rng.js';
import { assemble, dwords } from '../interp/harness.js';
import { buildCfgKernel, cfgEdges, type CfgSpec, randomCfg, reducibleByT1T2, slots, type Term } from '../harness/ir-cfg.js';
import { prepare } from './cases.js';
import { LVP, same } from './harness.js';

const FUEL = 24;

/** A kernel descriptor for the IR kernels (kernarg pointer; buffer k's address at kernarg + 8k), by wave size. */
const shells = new Map<32 | 64, Shader>();
function shell(ws: 32 | 64): Shader {
  let s = shells.get(ws);
  if (!s) {
    s = assemble('gfx1030', [{ name: `shell${ws}`, body: 's_endpgm', wave64: ws === 64, directives: ['.amdhsa_system_sgpr_workgroup_id_x 1'] }]).get(`shell${ws}`);
    assert.ok(s);
    shells.set(ws, s);
  }
  return s;
}

/** Opcodes and storage classes the module holds: [OpSwitch count, Function OpVariable count, OpLoopMerge count, OpPhi count]. */
function census(words: Uint32Array): { switches: number; functionVars: number; loops: number; phis: number } {
  const r = { switches: 0, functionVars: 0, loops: 0, phis: 0 };
  for (let at = 5; at < words.length;) {
    const w = words[at] as number;
    const op = w & 0xffff, len = w >>> 16;
    if (op === 251) r.switches++;
    if (op === 59 && words[at + 3] === 7) r.functionVars++;
    if (op === 246) r.loops++;
    if (op === 245) r.phis++;
    at += Math.max(len, 1);
  }
  return r;
}

interface Emitted { readonly fn: IrFunction; readonly spirv: Uint32Array; readonly ws: 32 | 64 }

/** Builds and emits `spec`: valid for spirv-val, structured exactly when T1/T2 reduce its CFG (and then without switches or Function variables). */
function emitChecked(name: string, spec: CfgSpec, ws: 32 | 64): Emitted {
  const fn = buildCfgKernel(name, spec, ws, FUEL);
  const { spirv, controlFlow } = emitSpirv(fn, LAVAPIPE_PROFILE);
  spirvVal(spirv, name);
  const reducible = reducibleByT1T2(cfgEdges(spec));
  assert.equal(controlFlow, reducible ? 'structured' : 'state machine', `${name}: ${JSON.stringify(spec)}`);
  const c = census(spirv);
  if (reducible) assert.deepEqual([c.switches, c.functionVars], [0, 0], `${name}: structured without switches or Function variables`);
  return { fn, spirv, ws };
}

/** The IR interpreter's and Vulkan's buffers for one run: two workgroups, the second partial. */
async function runBoth(dev: VulkanDevice, e: Emitted, spec: CfgSpec, rng: Rng): Promise<[Uint8Array[], Uint8Array[]]> {
  const shader = shell(e.ws);
  const grid: Dim3 = [2 * e.ws - 5, 1, 1], block: Dim3 = [e.ws, 1, 1];
  const inputs = [new Uint8Array(4 * 2 * e.ws * slots(spec, FUEL)), dwords([rng.u32(), rng.u32()])];
  const ref = inputs.map((b) => b.slice()), vk = inputs.map((b) => b.slice());
  const p = prepare(shader, ref, grid, block);
  dispatchIr(e.fn, shader, { grid, block, kernarg: p.kernarg, mem: p.mem, maxSteps: 10_000_000 });
  await runModuleOnVulkan(shader, { spirv: e.spirv, faults: [], dispatch: 'wave' }, prepare(shader, vk, grid, block), dev);
  assert.ok(ref[0]?.some((x) => x !== 0), 'the kernel wrote records');
  return [ref, vk];
}

const end: Term = { kind: 'end' };
const br = (to: number): Term => ({ kind: 'br', to });
const cond = (a: number, b: number, test = 3): Term => ({ kind: 'cond', to: [a, b], test });
const shape = (...terms: Term[]): CfgSpec => terms.map((term, k) => ({ op: k, term }));

/** Named shapes (blocks 1..n; the entry branches to 1). */
const SHAPES: Record<string, CfgSpec> = {
  diamonds: shape(cond(2, 3), br(3), cond(4, 5, 17), br(5), cond(7, 6, 5), br(7), end),
  'if/else-if chain': shape(cond(2, 3), br(8), cond(4, 5, 18), br(8), cond(6, 7, 2), br(8), br(8), end),
  'nested if/else': shape(cond(2, 5), cond(3, 4, 19), br(4), br(8), cond(6, 7, 4), br(7), br(8), end),
  'nested loops, several breaks and continues': shape(
    br(2), cond(3, 9), br(4), cond(5, 8, 20), cond(4, 6, 1), cond(2, 7, 22), cond(10, 4, 6), cond(2, 9, 7), br(10), end),
  'loop with exits to three blocks': shape(br(2), cond(3, 6), cond(7, 4, 21), cond(2, 5, 1), cond(8, 2, 16), br(9), br(9), br(9), end),
  'do-while, values used after it': shape(br(2), cond(3, 4), br(5), br(5), cond(2, 6, 17), cond(7, 8), br(8), end),
  'early ends': shape(cond(2, 3), end, cond(4, 5, 18), end, cond(6, 7), br(7), end),
  'loop with an early end inside': shape(br(2), cond(3, 5), cond(4, 6, 19), br(2), end, end),
  'self loop': shape(br(2), cond(2, 3, 1), end),
  'continue from a nested if': shape(br(2), cond(3, 7), cond(4, 5, 17), cond(2, 6, 2), br(6), br(2), end),
  'irreducible: two entries into a cycle': shape(cond(2, 3), br(3), cond(2, 4, 18), end),
};

test('named CFG shapes: structured (or, irreducible, the state machine), valid, and equal to the IR interpreter on lavapipe, wave32 and wave64', async () => {
  assert.ok(LVP, 'lavapipe (mesa-vulkan-drivers) is not installed');
  const dev = VulkanDevice.open({ driverFiles: LVP, validation: true });
  const rng = new Rng(7);
  try {
    for (const ws of [32, 64] as const) {
      for (const [name, spec] of Object.entries(SHAPES)) {
        const e = emitChecked(`${name} wave${ws}`, spec, ws);
        same(`${name} wave${ws}`, await runBoth(dev, e, spec, rng));
      }
    }
  } finally {
    dev.close();
  }
});

test('random reducible CFGs (fast-check, seeded): structured, valid, and equal to the IR interpreter on lavapipe', async () => {
  const dev = VulkanDevice.open({ driverFiles: LVP, validation: true });
  try {
    await fc.assert(fc.asyncProperty(fc.integer({ min: 2, max: 24 }), fc.integer(), fc.boolean(), async (n, seed, w64) => {
      const rng = new Rng(seed);
      const spec = randomCfg(rng, n, true);
      const name = `reducible n=${n} seed=${seed}`;
      const e = emitChecked(name, spec, w64 ? 64 : 32);
      same(name, await runBoth(dev, e, spec, rng));
    }), { seed: 0x5eed, numRuns: 60 });
  } finally {
    dev.close();
  }
});

test('random CFGs with backward edges anywhere (fast-check, seeded): the state machine exactly for the irreducible ones, equal to the IR interpreter on lavapipe', async () => {
  const dev = VulkanDevice.open({ driverFiles: LVP, validation: true });
  let irreducible = 0;
  try {
    await fc.assert(fc.asyncProperty(fc.integer({ min: 3, max: 16 }), fc.integer(), fc.boolean(), async (n, seed, w64) => {
      const rng = new Rng(seed);
      const spec = randomCfg(rng, n, false);
      if (!reducibleByT1T2(cfgEdges(spec))) irreducible++;
      const name = `any n=${n} seed=${seed}`;
      const e = emitChecked(name, spec, w64 ? 64 : 32);
      same(name, await runBoth(dev, e, spec, rng));
    }), { seed: 0x1eed, numRuns: 30 });
  } finally {
    dev.close();
  }
  assert.ok(irreducible >= 5, `${irreducible} irreducible CFGs drawn`);
});

test('more random reducible CFGs, larger (fast-check, seeded): structured and valid for spirv-val', () => {
  fc.assert(fc.property(fc.integer({ min: 2, max: 60 }), fc.integer(), (n, seed) => {
    emitChecked(`reducible n=${n} seed=${seed}`, randomCfg(new Rng(seed), n, true), 32);
  }), { seed: 0xcf6, numRuns: 200 });
});

test('an irreducible kernel of more blocks than one OpSwitch holds: the state machine, its switch nested by chunks, valid for spirv-val', () => {
  // Two ways into the cycle 2 ↔ 3, then a chain of diamonds.
  const terms: Term[] = [cond(2, 3), br(3), cond(2, 4, 18)];
  for (let k = 4; terms.length < SWITCH_CHUNK + 100; k += 2) terms.push(cond(k + 1, k + 2, k & 31), br(k + 2));
  terms.push(end);
  const fn = buildCfgKernel('big irreducible', shape(...terms), 32, FUEL);
  assert.ok(fn.blocks.length > SWITCH_CHUNK);
  const { spirv, controlFlow } = emitSpirv(fn, LAVAPIPE_PROFILE);
  assert.equal(controlFlow, 'state machine');
  assert.ok(census(spirv).switches > 1);
  spirvVal(spirv, 'big irreducible');
});
