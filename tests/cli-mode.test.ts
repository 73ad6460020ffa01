// `rdna mode` as a user runs it, on a code object assembled by llvm-mc-19 at test time. Until the
// command is registered in src/cli/main.ts this runs runMode through the same error policy
// (UsageError: exit 2, InputError: exit 1) in a child process.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assembleKernels } from './harness/kernel.js';

const MODE_TS = new URL('../src/cli/mode.ts', import.meta.url).href;
const ERRORS_TS = new URL('../src/cli/errors.ts', import.meta.url).href;
const dir = mkdtempSync(join(tmpdir(), 'rdna-mode-'));

const RUNNER = `
import { runMode } from '${MODE_TS}';
import { InputError, UsageError } from '${ERRORS_TS}';
try { process.exitCode = runMode(process.argv.slice(1)); }
catch (e) {
  if (e instanceof UsageError) { process.stderr.write('rdna mode: ' + e.message + '\\n'); process.exitCode = 2; }
  else if (e instanceof InputError) { process.stderr.write('rdna mode: error: ' + e.message + '\\n'); process.exitCode = 1; }
  else throw e;
}`;

function rdnaMode(...args: string[]) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', RUNNER, '--', ...args], { encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

const obj = join(dir, 'mode.o');
writeFileSync(obj, assembleKernels('gfx1030', [
  { name: 'setmode', floatMode: 0xc0, body: ['s_cmp_eq_u32 s4, 0', 's_cbranch_scc1 .Lj', 's_denorm_mode 0xf', '.Lj:', 'v_add_f32 v0, v1, v2',
    's_getreg_b32 s0, hwreg(HW_REG_MODE, 4, 4)', 's_setreg_imm32_b32 hwreg(HW_REG_MODE, 0, 2), 1', 'v_add_f32 v0, v1, v2', 's_endpgm'].join('\n') },
  { name: 'other', floatMode: 0xf0, body: 'v_add_f64 v[0:1], v[2:3], v[4:5]\ns_endpgm' },
]));

test('rdna mode: text per block with MODE beside the instructions; --json; --kernel; errors', () => {
  const t = rdnaMode('--kernel', 'setmode', obj);
  assert.equal(t.code, 0, t.err);
  const lines = t.out.split('\n').map((l) => l.replace(/ +;/, ' ;'));
  assert.equal(lines[0], 'kernel setmode (gfx1030, wave32)');
  // 0xc0: f32 denormals flushed (0), f16/f64 kept (3); s_denorm_mode 0xf on one path only: the
  // join knows MODE[7:6] = 11 (both paths) and nothing of [5:4] (00 vs 11).
  assert.ok(lines.includes('  0x8  s_denorm_mode 15 ; HW_REG_MODE[7:4] written -> MODE f32 rne/keep, f16/f64 rne/keep, dx10_clamp 1, ieee 1, fp16_ovfl 0 (0x000003f0 known 0x008003ff)'), t.out);
  assert.ok(lines.includes('  0xc  v_add_f32_e32 v0, v1, v2 ; f32 rne/denorm dynamic, dx10_clamp 1, ieee 1'), t.out);
  assert.ok(lines.includes('  0x10  s_getreg_b32 s0, hwreg(HW_REG_MODE, 4, 4) ; reads HW_REG_MODE[7:4] = 0x0000000c known 0xfffffffc (partly unknown)'), t.out);
  assert.ok(lines.includes('  0x1c  v_add_f32_e32 v0, v1, v2 ; f32 rtp/denorm dynamic, dx10_clamp 1, ieee 1'), t.out);

  const j = rdnaMode('--json', '--kernel', 'other', obj);
  assert.equal(j.code, 0, j.err);
  const doc = JSON.parse(j.out) as { name: string; launch: { mode: { value: number; known: number }; assumed: string[] }; valu: { float: string; round: number; denorm: number }[] };
  assert.equal(doc.name, 'other');
  assert.deepEqual(doc.launch, { mode: { value: 0x3f0, known: 0x8003ff }, assumed: [] });
  assert.deepEqual(doc.valu.map((v) => [v.float, v.round, v.denorm]), [['f64', 0, 3]]);

  const two = rdnaMode(obj);
  assert.equal(two.code, 2);
  assert.match(two.err, /pick one with --kernel NAME/);
  assert.equal(rdnaMode('--kernel', 'nope', obj).code, 1);
  assert.equal(rdnaMode(join(dir, 'missing.o')).code, 1);
  assert.equal(rdnaMode('--bogus', obj).code, 2);
  assert.equal(rdnaMode().code, 2);
});

test('rdna mode: how each float instruction runs on the profile (native, guarded, emulated, dynamic); --profile; a kernel that does not translate keeps its analysis', () => {
  const o = join(dir, 'lowering.o');
  writeFileSync(o, assembleKernels('gfx1030', [
    // FP_DENORM f32 after the join is 0 (launch 0xc0) or 3 (s_denorm_mode 0xf): two bits unknown, four copies.
    { name: 'joined', floatMode: 0xc0, body: ['s_cmp_eq_u32 s4, 0', 's_cbranch_scc1 .Lj', 's_denorm_mode 0xf', '.Lj:', 'v_add_f32 v0, v1, v2', 'v_mul_f32 v3, v1, v2', 'global_store_dword v[4:5], v0, off', 'global_store_dword v[4:5], v3, off offset:4', 's_endpgm'].join('\n') },
    { name: 'mullit', floatMode: 0xf0, body: 'v_mullit_f32 v1, v0, v0, v0\nglobal_store_dword v[2:3], v1, off\ns_endpgm' },
    { name: 'sine', floatMode: 0xf0, body: 'v_sin_f32 v1, v0\nv_exp_f16 v2, v0\nglobal_store_dword v[2:3], v1, off\nglobal_store_short v[2:3], v2, off offset:4\ns_endpgm' },
  ]));
  const t = rdnaMode('--kernel', 'joined', o);
  assert.equal(t.code, 0, t.err);
  assert.match(t.out, /v_add_f32_e32 v0, v1, v2 +; f32 rne\/denorm dynamic.*; lavapipe: dynamic FAdd32 \(4 copies, 0 emulated, 4 guarded\)/);
  assert.match(t.out, /v_mul_f32_e32 v3, v1, v2 .*; lavapipe: dynamic FMul32 \(4 copies, 0 emulated, 4 guarded\)/);
  const j = JSON.parse(rdnaMode('--kernel', 'joined', '--json', '--profile', 'nvidia', o).out) as { lowering: { profile: string; floatOps: { pc: number; op: string; lowering: string; variants?: number }[] } };
  assert.equal(j.lowering.profile, 'nvidia');
  assert.deepEqual(j.lowering.floatOps.map((f) => [f.pc, f.op, f.lowering, f.variants]), [[0xc, 'FAdd32', 'dynamic', 4], [0x10, 'FMul32', 'dynamic', 4]]);
  const s = rdnaMode('--kernel', 'mullit', o);
  assert.equal(s.code, 0, s.err);
  assert.match(s.out, /v_mullit_f32 v1, v0, v0, v0 +; f32 rne\/keep, dx10_clamp 1, ieee 1\n/);
  assert.match(s.out, /^lowering on lavapipe: not available: pc 0x100: v_mullit_f32 v1, v0, v0, v0 .*not translated yet$/m);
  assert.equal(rdnaMode('--profile', 'nosuch', '--kernel', 'mullit', o).code, 2);
  // The transcendentals: the model's own algorithm, emulated on every profile (device f64 steps on lavapipe, integer code on nvidia).
  const sine = rdnaMode('--kernel', 'sine', o);
  assert.equal(sine.code, 0, sine.err);
  assert.match(sine.out, /v_sin_f32_e32 v1, v0 +; f32 rne\/keep, dx10_clamp 1, ieee 1.*; lavapipe: emulated FSin32\n/);
  assert.match(sine.out, /v_exp_f16_e32 v2, v0 +; .*; lavapipe: emulated FExp16\n/);
  const sj = JSON.parse(rdnaMode('--kernel', 'sine', '--json', '--profile', 'nvidia', o).out) as { lowering: { floatOps: { op: string; lowering: string }[] } };
  assert.deepEqual(sj.lowering.floatOps.map((f) => [f.op, f.lowering]), [['FSin32', 'emulated'], ['FExp16', 'emulated']]);
});

test('rdna mode: native under the entry point\'s float controls per profile (radv RTZ with denormals kept; nvidia and lavapipe the add guarded)', () => {
  const o = join(dir, 'native.o');
  writeFileSync(o, assembleKernels('gfx1030', [
    { name: 'rtz', floatMode: 0xf3, body: ['v_add_f32 v0, v1, v2', 'v_cvt_f32_u32 v3, v1', 'global_store_dword v[4:5], v0, off', 'global_store_dword v[4:5], v3, off offset:4', 's_endpgm'].join('\n') },
  ]));
  const ops = (p: string) => (JSON.parse(rdnaMode('--kernel', 'rtz', '--json', '--profile', p, o).out) as { lowering: { floatOps: { op: string; lowering: string }[] } }).lowering.floatOps.map((f) => `${f.op} ${f.lowering}`);
  assert.deepEqual(ops('radv'), ['FAdd32 native', 'ConvertF32U32 native']);
  // RTZ for the conversion would leave the add emulated: nearest even at the entry point, the add guarded.
  assert.deepEqual(ops('nvidia'), ['FAdd32 guarded', 'ConvertF32U32 emulated']);
  assert.deepEqual(ops('lavapipe'), ['FAdd32 guarded', 'ConvertF32U32 emulated']);
  assert.deepEqual(ops('portable'), ['FAdd32 emulated', 'ConvertF32U32 emulated']);
  assert.match(rdnaMode('--kernel', 'rtz', '--profile', 'radv', o).out, /v_add_f32_e32 v0, v1, v2 .*; radv: native FAdd32/);
});
