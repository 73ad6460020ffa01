// tsx tools/compare-builds.ts OLD_DIST [NEW_DIST] [--all-profiles]
// Whether two builds of the recompiler (two dist/ trees; NEW_DIST defaults to this repository's
// dist/) make the same output: every kernel of the bench:compile corpus (the assembly slice kernels,
// clang-19 OpenCL collatz, int_mix, histogram, f32_ops, wave32 and wave64, the two generated large
// kernels) and of the bench:cache corpus (the bundled sample, tests/fixtures/code-object/kernels.s
// for gfx1010/gfx1013/gfx1030, every OpenCL C fixture in wave32 and wave64) recompiled by both:
// the SPIR-V words compared word by word, the final IR compared as printed, a refusal compared by
// its message. Exits 1 on any difference. For changes that must not change the output (speed work).
// By default each kernel is recompiled once, for the lavapipe profile with structured control flow;
// --all-profiles recompiles it for every profile of src/backend/profile.ts (their float controls,
// subgroup sizes and features choose other lowerings and emission paths), each structured and as
// the state machine, and counts each of those recompiles.
// OLD_DIST must resolve the repository's packages: put it inside the repository (for example
// `git stash; npm run build; cp -r dist dist-old; git stash pop`; dist-old/ is then a copy to delete).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Shader } from '../src/container/shader.js';
import { assembleKernels } from '../tests/harness/kernel.js';
import { sliceKernels } from '../tests/frontend/kernels.js';
import { buildOpenCl, OPENCL_FIXTURES } from '../tests/harness/opencl.js';
import { PROFILES } from '../src/backend/profile.js';

const ROOT = new URL('..', import.meta.url).pathname;
const allProfiles = process.argv.includes('--all-profiles');
const [oldArg, newArg] = process.argv.slice(2).filter((a) => a !== '--all-profiles');
if (!oldArg) { process.stderr.write('usage: tsx tools/compare-builds.ts OLD_DIST [NEW_DIST] [--all-profiles]\n'); process.exit(2); }

interface Build {
  loadShaders: typeof import('../src/container/shader.js').loadShaders;
  recompile: typeof import('../src/backend/recompile.js').recompile;
  printFunction: typeof import('../src/ir/print.js').printFunction;
}
async function load(dir: string): Promise<Build> {
  const at = (p: string): Promise<unknown> => import(new URL(`file://${resolve(dir)}/${p}`).href);
  return {
    loadShaders: ((await at('container/shader.js')) as typeof import('../src/container/shader.js')).loadShaders,
    recompile: ((await at('backend/recompile.js')) as typeof import('../src/backend/recompile.js')).recompile,
    printFunction: ((await at('ir/print.js')) as typeof import('../src/ir/print.js')).printFunction,
  };
}
const A = await load(oldArg), B = await load(newArg ?? join(ROOT, 'dist'));

// The code objects, as bytes, each with the kernel names to keep (undefined: all).
const objects: { name: string; bytes: Uint8Array; keep?: readonly string[] }[] = [];
const directives = ['.amdhsa_user_sgpr_kernarg_segment_ptr 1', '.amdhsa_system_sgpr_workgroup_id_x 1'];
for (const w of [false, true]) {
  objects.push({ name: `slice-w${w ? 64 : 32}`, bytes: assembleKernels('gfx1030', sliceKernels(w).map((k) => ({ ...k, vgprs: 32, sgprs: 32, directives }))) });
}
// The bench:compile generated kernels (tools/bench-compile.ts).
const straight = ['v_add_nc_u32 v4, v3, v4', 'v_mul_f32 v5, v3, v5', 'v_xor_b32 v6, v4, v5', 's_add_u32 s8, s8, 3', 'v_fma_f32 v7, v5, v6, v7', 'v_cmp_gt_u32_e32 vcc_lo, v4, v3', 'v_cndmask_b32_e32 v8, v7, v8, vcc_lo', 'v_add_f32 v9, v8, v9'];
const head = ['s_load_dwordx4 s[4:7], s[0:1], 0x0', 's_waitcnt lgkmcnt(0)', 'v_lshlrev_b32 v2, 2, v0', 'global_load_dword v3, v2, s[4:5]', 's_waitcnt vmcnt(0)'];
const tail = ['global_store_dword v2, v9, s[6:7]', 's_endpgm'];
objects.push({ name: 'large', bytes: assembleKernels('gfx1030', [
  { name: 'straight4000', body: [...head, ...Array.from({ length: 4000 }, (_, k) => straight[k % straight.length] as string), ...tail].join('\n'), directives: ['.amdhsa_user_sgpr_kernarg_segment_ptr 1'] },
  { name: 'diamonds2000', body: [...head, ...Array.from({ length: 2000 }, (_, k) => [`s_cmp_eq_u32 s2, ${k & 7}`, `s_cbranch_scc1 .Ld${k}`, `v_xad_u32 v9, v9, ${k}, v3`, `.Ld${k}:`]).flat(), ...tail].join('\n'), directives },
]) });
// The bench:cache corpus (tools/bench-cache.ts).
objects.push({ name: 'vector_add.gfx1030.o', bytes: new Uint8Array(readFileSync(join(ROOT, 'samples', 'vector_add.gfx1030.o'))) });
const tmp = mkdtempSync(join(tmpdir(), 'rdna-compare-builds-'));
for (const target of ['gfx1010', 'gfx1013', 'gfx1030']) {
  const o = join(tmp, `kernels.${target}.o`);
  const r = spawnSync('llvm-mc-19', ['-triple=amdgcn-amd-amdhsa', `-mcpu=${target}`, '-filetype=obj', join(ROOT, 'tests', 'fixtures', 'code-object', 'kernels.s'), '-o', o], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`llvm-mc-19: ${r.stderr}`);
  objects.push({ name: `kernels.${target}.o`, bytes: new Uint8Array(readFileSync(o)) });
}
const OPTIONS: Record<string, readonly string[]> = { 'interp-float.cl': ['-cl-fp32-correctly-rounded-divide-sqrt'], 'interp-bytes.cl': ['-cl-std=CL2.0'] };
for (const cl of readdirSync(OPENCL_FIXTURES).filter((f) => f.endsWith('.cl')).sort()) {
  for (const wave64 of [false, true]) objects.push({ name: `${cl}.w${wave64 ? 64 : 32}`, bytes: new Uint8Array(readFileSync(buildOpenCl(cl, { wave64, options: OPTIONS[cl] ?? [] }))) });
  // bench:compile builds these two without the options.
  if (cl === 'interp-float.cl' || cl === 'interp-int.cl') for (const wave64 of [false, true]) objects.push({ name: `${cl}.plain.w${wave64 ? 64 : 32}`, bytes: new Uint8Array(readFileSync(buildOpenCl(cl, { wave64 }))) });
}

type Outcome = { words: Uint32Array; ir: string } | { error: string };
type Options = NonNullable<Parameters<Build['recompile']>[1]>;
const run = (b: Build, s: Shader, options: Options): Outcome => {
  try { const r = b.recompile(s, options); return { words: r.spirv, ir: b.printFunction(r.ir) }; } catch (e) { return { error: e instanceof Error ? e.message : String(e) }; }
};
// The recompiles per kernel: the default, or every profile structured and as the state machine
// (both builds take the same profile records: the profile's type is the same data in both).
const variants: { label: string; options: Options }[] = allProfiles
  ? Object.entries(PROFILES).flatMap(([name, profile]) => [false, true].map((stateMachine) => ({ label: ` [${name}${stateMachine ? ', state machine' : ''}]`, options: { profile, stateMachine } })))
  : [{ label: '', options: {} }];
let same = 0, refused = 0, different = 0;
for (const v of variants) for (const o of objects) {
  const sa = A.loadShaders({ bytes: o.bytes, name: o.name }), sb = B.loadShaders({ bytes: o.bytes, name: o.name });
  sa.forEach((s, k) => {
    const t = sb[k];
    if (!t) { different++; process.stdout.write(`${o.name} ${s.info.name}: not loaded by the new build\n`); return; }
    const a = run(A, s, v.options), b = run(B, t, v.options);
    const where = `${o.name} ${s.info.name} wave${s.info.waveSize}${v.label}`;
    if ('error' in a || 'error' in b) {
      if ('error' in a && 'error' in b && a.error === b.error) refused++;
      else { different++; process.stdout.write(`${where}: ${'error' in a ? `old refuses (${a.error})` : 'old compiles'}, ${'error' in b ? `new refuses (${b.error})` : 'new compiles'}\n`); }
      return;
    }
    const wordsSame = a.words.length === b.words.length && a.words.every((w, i) => w === b.words[i]);
    if (wordsSame && a.ir === b.ir) { same++; return; }
    different++;
    process.stdout.write(`${where}: ${wordsSame ? '' : `SPIR-V differs (${a.words.length} vs ${b.words.length} words) `}${a.ir === b.ir ? '' : 'printed IR differs'}\n`);
  });
}
process.stdout.write(`${same} kernels identical, ${refused} refused alike by both, ${different} different\n`);
process.exit(different ? 1 : 0);
