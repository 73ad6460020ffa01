// The randomized differential test (issue 7): random gfx1030 programs generated from the ISA table
// (./random-programs.ts: straight-line SALU/VALU code of every translated SOP1/SOP2/SOPK/SOPC,
// VOP1/VOP2/VOPC/VOP3/VOP3P opcode with e64 neg/abs/clamp/omod/op_sel, VOP3P modifiers, inline
// constants, literals; if/else regions on SCC/VCCZ/EXECZ, s_and_saveexec + s_cbranch_execz regions,
// counted loops, early exits; a random launch MODE and MODE writes) assembled by llvm-mc-19, run on
// the reference interpreter and, recompiled, on lavapipe (validation layer on) in wave32 and
// wave64; every register the program can write (v0..v15 of every lane, s8..s23, VCC, EXEC, SCC)
// must be equal byte for byte. fast-check draws the batches (8 programs a kernel, one wave each);
// a failure prints fast-check's seed and path, the program and the first differing register.
// RDNA_FUZZ_SEED, RDNA_FUZZ_RUNS (batches per wave size) and RDNA_FUZZ_PATH replay or lengthen it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { VulkanDevice } from '../../src/runtime/vulkan.js';
import { runModuleOnVulkan } from '../../src/runtime/engine.js';
import { Rng } from '../harness/rng.js';
import { spirvVal } from '../harness/spirv.js';
import { LVP } from './harness.js';
import { prepare } from './cases.js';
import { buildBatch, describeOffset, forms, initialState, program, programText, stride, weightedPool, type Program, type Refusals } from './random-programs.js';

const SEED = Number(process.env['RDNA_FUZZ_SEED'] ?? 20261202);
const RUNS = Number(process.env['RDNA_FUZZ_RUNS'] ?? 3);
const PATH = process.env['RDNA_FUZZ_PATH'];
/** Only one wave size (32 or 64), for a replay. */
const WAVE = process.env['RDNA_FUZZ_WAVE'];
const BATCH = 8;
/**
 * A batch whose SPIR-V is larger than this runs as two halves; a single program larger than
 * MAX_WORDS is left out (and counted as refused): lavapipe compiles a module when it is first
 * dispatched, inside the engine's 60 s fence limit, and takes more than a minute for 300,000 words
 * on a loaded 2-core machine (programs whose MODE is known only at run time are the large ones).
 */
const SPLIT_WORDS = 100_000;
const MAX_WORDS = 160_000;
/** At most this share of the generated instructions may be refused (else the test would thin out unseen). */
const MAX_REFUSED = 0.08;

const dword = (b: Uint8Array, i: number) => Buffer.from(b.subarray(i & ~3, (i & ~3) + 4)).toString('hex');

test(`random programs (${RUNS} batches of ${BATCH} per wave size, seed ${SEED}): the interpreter and the recompiled kernel on lavapipe leave every register equal, wave32 and wave64`, async () => {
  assert.ok(LVP, 'lavapipe (mesa-vulkan-drivers) is not installed');
  const dev = VulkanDevice.open({ driverFiles: LVP, validation: true });
  const refused: Refusals & { tooLarge: number } = { assembler: 0, recompiler: 0, interpreter: 0, tooLarge: 0, lines: [] };
  let ran = 0, programs = 0, finished = 0;
  try {
    for (const wave64 of [false, true].filter((w) => WAVE === undefined || WAVE === (w ? '64' : '32'))) {
      const pool = weightedPool(forms(wave64));
      const lanes = wave64 ? 64 : 32;
      const batch = fc.record({
        seeds: fc.array(fc.nat(), { minLength: BATCH, maxLength: BATCH }),
        state: fc.nat(),
        floatMode: fc.nat(255),
        ieeeMode: fc.boolean(),
        dx10Clamp: fc.boolean(),
      });
      const r = await fc.check(fc.asyncProperty(batch, async ({ seeds, state, ...launch }) => {
        const rng = new Rng(state);
        const input = new Uint8Array(BATCH * stride(wave64));
        for (let k = 0; k < BATCH; k++) input.set(initialState(rng, wave64), k * stride(wave64));
        /** Builds, runs and compares a batch; one whose module is too large for lavapipe to compile in time runs as two halves. */
        const run = async (ps: readonly Program[], inputs: Uint8Array): Promise<void> => {
          const b = buildBatch(ps, wave64, launch, inputs, refused);
          if (b.spirv.length > SPLIT_WORDS && ps.length > 1) {
            const h = ps.length >> 1, st = stride(wave64);
            await run(b.programs.slice(0, h), inputs.slice(0, h * st));
            await run(b.programs.slice(h), inputs.slice(h * st));
            return;
          }
          if (b.spirv.length > MAX_WORDS) {
            refused.tooLarge += b.instructions;
            refused.lines.push(`too large: program seed ${ps[0]?.seed}: ${b.spirv.length} SPIR-V words`);
            return;
          }
          spirvVal(b.spirv, `random batch wave${lanes}`);
          const vk = [b.input.slice(), b.output.slice()];
          await runModuleOnVulkan(b.shader, b, prepare(b.shader, vk, [lanes * ps.length, 1, 1], [lanes, 1, 1]), dev);
          b.reference.forEach((ref, n) => {
            const x = vk[n] as Uint8Array;
            const i = ref.findIndex((v, j) => v !== x[j]);
            if (i < 0) return;
            const at = describeOffset(i, wave64);
            const p = b.programs[at.program];
            assert.fail(`wave${lanes}, launch ${JSON.stringify(launch)}: buffer ${n} differs at byte ${i}` +
              (n === 1 && p ? `, program ${p.index} of the batch (seed ${p.seed}), ${at.where}: interpreter ${dword(ref, i)}, Vulkan ${dword(x, i)}\n${programText(p)}` : `: interpreter ${dword(ref, i)}, Vulkan ${dword(x, i)}`));
          });
          ran += b.instructions;
          programs += ps.length;
          const out = new DataView((b.reference[1] as Uint8Array).buffer);
          for (let k = 0; k < ps.length; k++) if (out.getUint32(k * stride(wave64) + 84, true) === 1) finished++;
        };
        await run(seeds.map((s, k) => program(s, k, wave64, pool)), input);
      }), { seed: SEED + (wave64 ? 1 : 0), numRuns: RUNS, endOnFailure: true, ...(PATH !== undefined ? { path: PATH } : {}) });
      if (r.failed) {
        const why = r.errorInstance instanceof Error ? r.errorInstance.message : String(r.errorInstance);
        assert.fail(`fast-check seed ${r.seed}, path ${r.counterexamplePath} (replay: RDNA_FUZZ_SEED=${SEED} RDNA_FUZZ_WAVE=${lanes} RDNA_FUZZ_PATH=${r.counterexamplePath}), batch ${JSON.stringify(r.counterexample)}:\n${why}`);
      }
    }
  } finally {
    dev.close();
  }
  const total = refused.assembler + refused.recompiler + refused.interpreter + refused.tooLarge;
  const generated = ran + total;
  console.log(`random programs: ${programs} programs, ${ran} instructions ran (${finished} programs reached the epilogue); refused: llvm-mc ${refused.assembler}, recompiler ${refused.recompiler}, interpreter ${refused.interpreter}; in programs too large to compile in time: ${refused.tooLarge}`);
  assert.ok(total <= MAX_REFUSED * generated, `${total} of ${generated} generated instructions were refused (more than ${MAX_REFUSED * 100}%):\n${refused.lines.slice(0, 40).join('\n')}`);
  assert.ok(finished >= programs / 3, `only ${finished} of ${programs} programs reached the epilogue`);
  assert.ok(ran >= RUNS * 2 * BATCH * 10, `only ${ran} instructions ran`);
});
