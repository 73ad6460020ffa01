// npx tsx tools/compile-kinds.ts [--dist DIR] [--kinds a,b] [--copies N]
// Where recompile's time goes by kind of instruction: for each kind below, a kernel of a fixed
// head (kernarg load, a global load, three moves), N copies (default 40) of the kind's lines and a
// fixed tail (two stores, s_endpgm), recompiled by the build in --dist (default dist/) in a steady
// loop (300 rounds over every kernel first, then the median of 15 batches of 20); printed: each
// kernel's time, its marginal cost per RDNA instruction over the head and tail alone (`base`),
// and its final IR and SPIR-V sizes. A diagnostic for the speed work of issue 6, not a benchmark:
// the steady state only (bench:compile measures the regime an embedder's first shaders see), no
// peer. Compare builds by running it once per build, alternating, and compare the minima.
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Shader } from '../src/container/shader.js';
import { assembleKernels } from '../tests/harness/kernel.js';
const args = process.argv.slice(2);
const opt = (name: string): string | undefined => { const k = args.indexOf(name); return k >= 0 ? args[k + 1] : undefined; };
const distDir = resolve(opt('--dist') ?? 'dist');
// The built code (what users run), typed by its sources.
const dist = (p: string): Promise<unknown> => import(pathToFileURL(join(distDir, p)).href);
const { loadShaders } = (await dist('container/shader.js')) as typeof import('../src/container/shader.js');
const { recompile } = (await dist('backend/recompile.js')) as typeof import('../src/backend/recompile.js');
const d = ['.amdhsa_user_sgpr_kernarg_segment_ptr 1', '.amdhsa_system_sgpr_workgroup_id_x 1'];
const head = ['s_load_dwordx4 s[4:7], s[0:1], 0x0', 'v_lshlrev_b32 v2, 2, v0', 's_waitcnt lgkmcnt(0)', 'global_load_dword v3, v2, s[4:5]', 's_waitcnt vmcnt(0)', 'v_mov_b32 v4, v3', 'v_mov_b32 v5, v3', 'v_mov_b32 v6, v3'];
const tail = ['global_store_dword v2, v3, s[6:7]', 'global_store_dword v2, v4, s[6:7] offset:4', 's_endpgm'];
// Each kind's lines, one copy (`.LX`: a label, made unique per copy); `base` is the head and tail alone.
const kinds: Record<string, string[]> = {
  base: [],
  v_add_nc_u32: ['v_add_nc_u32 v3, v4, v3', 'v_add_nc_u32 v4, v3, v5'],
  v_xor_b32: ['v_xor_b32 v3, v4, v3', 'v_xor_b32 v4, v3, v5'],
  v_add_co: ['v_add_co_u32 v3, vcc_lo, v4, v3', 'v_add_co_ci_u32_e32 v4, vcc_lo, v5, v4, vcc_lo'],
  v_mad_u64_u32: ['v_mad_u64_u32 v[3:4], null, v5, v6, v[3:4]'],
  v_mul_lo_u32: ['v_mul_lo_u32 v3, v4, v3'],
  v_mul_hi_u32: ['v_mul_hi_u32 v3, v4, v3'],
  v_cmp_cndmask: ['v_cmp_gt_u32_e32 vcc_lo, v4, v3', 'v_cndmask_b32_e32 v3, v4, v3, vcc_lo'],
  s_add_u32: ['s_add_u32 s8, s8, s9', 's_addc_u32 s9, s9, s8'],
  s_and_b32: ['s_and_b32 s8, s8, s9'],
  v_mul_f32: ['v_mul_f32 v3, v4, v3'],
  v_add_f32: ['v_add_f32 v3, v4, v3'],
  v_fma_f32: ['v_fma_f32 v3, v4, v5, v3'],
  v_cvt_f32_u32: ['v_cvt_f32_u32 v3, v3'],
  v_rcp_iflag_f32: ['v_rcp_iflag_f32 v3, v3'],
  v_cvt_u32_f32: ['v_cvt_u32_f32 v3, v3'],
  global_load: ['global_load_dword v3, v2, s[4:5]', 's_waitcnt vmcnt(0)'],
  global_store: ['global_store_dword v2, v3, s[6:7]'],
  s_load: ['s_load_dword s8, s[0:1], 0x8', 's_waitcnt lgkmcnt(0)'],
  global_atomic_add: ['global_atomic_add v2, v3, s[6:7]'],
  branch_diamond: ['s_cmp_eq_u32 s2, 3', 's_cbranch_scc1 .LX', 'v_xad_u32 v3, v3, 5, v4', '.LX:'],
  exec_if: ['v_cmp_gt_u32_e32 vcc_lo, v4, v3', 's_and_saveexec_b32 s10, vcc_lo', 's_cbranch_execz .LX', 'v_add_nc_u32 v3, v3, v4', '.LX:', 's_or_b32 exec_lo, exec_lo, s10'],
};
const N = Number(opt('--copies') ?? 40) || 40;
const only = opt('--kinds')?.split(',');
for (const k of Object.keys(kinds)) if (only && k !== 'base' && !only.includes(k)) delete kinds[k];
const specs = Object.entries(kinds).map(([name, body]) => ({
  name, vgprs: 32, sgprs: 32, directives: d,
  body: [...head, ...Array.from({ length: name === 'base' ? 0 : N }, (_, k) => body.map((l) => l.replace(/\.LX/g, `.L${name}${k}`))).flat(), ...tail].join('\n'),
}));
const shaders = loadShaders({ bytes: assembleKernels('gfx1030', specs), name: 'k' });
const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1] as number;
for (let r = 0; r < 300; r++) for (const s of shaders) recompile(s);
const times = new Map<string, number>();
for (const s of shaders) {
  const ts: number[] = [];
  for (let r = 0; r < 15; r++) { const t = performance.now(); for (let j = 0; j < 20; j++) recompile(s); ts.push((performance.now() - t) / 20); }
  times.set(s.info.name, med(ts) * 1000);
}
const base = times.get('base') as number;
for (const [k, body] of Object.entries(kinds)) {
  const x = recompile(shaders.find((s) => s.info.name === k) as Shader);
  const ir = x.ir.blocks.reduce((a, b) => a + b.insts.length, 0);
  const t = times.get(k) as number;
  console.log(`${k.padEnd(18)} ${t.toFixed(0).padStart(6)} µs  per instruction ${k === 'base' ? '' : ((t - base) / (N * body.filter((l) => !l.endsWith(':')).length)).toFixed(2)} µs   IR ${ir}  words ${x.spirv.length}`);
}
