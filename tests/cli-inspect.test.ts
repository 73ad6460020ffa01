// `rdna inspect` as a user runs it: code objects assembled at test time from the committed
// fixture, every kernel's JSON checked against llvm-objdump-19's view of its kernel descriptor.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TARGETS } from '../src/isa/types.js';

const BIN = new URL('../bin/rdna', import.meta.url).pathname;
const FIXTURE = new URL('./fixtures/code-object/kernels.s', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'rdna-inspect-'));

function rdna(...args: string[]) {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/** `.amdhsa_*` values as llvm-objdump-19 prints a kernel descriptor back. */
function descriptorDirectives(file: string, kernel: string): Map<string, number> {
  const r = spawnSync('llvm-objdump-19', ['-D', `--disassemble-symbols=${kernel}.kd`, file], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const m = new Map<string, number>();
  for (const line of r.stdout.split('\n')) {
    const x = /^\s*\.amdhsa_(\w+)\s+(\d+)\s*$/.exec(line);
    if (x) m.set(x[1] ?? '', Number(x[2]));
  }
  assert.ok(m.size > 10, `no descriptor directives for ${kernel}`);
  return m;
}

interface KernelJson { name: string; floatMode: number; dx10Clamp: boolean; ieeeMode: boolean; fp16Overflow: boolean; waveSize: number; ldsSize: number; scratchSize: number; kernargSize: number; userSgprs: Record<string, string> }

for (const target of TARGETS) {
  test(`inspect --json agrees with llvm-objdump-19's kernel descriptors on ${target}`, () => {
    const obj = join(dir, `kernels.${target}.o`);
    const asm = spawnSync('llvm-mc-19', ['-triple=amdgcn-amd-amdhsa', `-mcpu=${target}`, '-filetype=obj', FIXTURE, '-o', obj], { encoding: 'utf8' });
    assert.equal(asm.status, 0, asm.stderr);
    const r = rdna('inspect', '--json', obj);
    assert.equal(r.code, 0, r.err);
    const doc = JSON.parse(r.out) as { target: string; kernels: KernelJson[] };
    assert.equal(doc.target, target);
    assert.ok(doc.kernels.length >= 2);
    for (const k of doc.kernels) {
      const d = descriptorDirectives(obj, k.name);
      const get = (n: string) => { const v = d.get(n); assert.ok(v !== undefined, `${k.name}: objdump prints no .amdhsa_${n}`); return v; };
      assert.equal(k.floatMode, get('float_round_mode_32') | (get('float_round_mode_16_64') << 2) | (get('float_denorm_mode_32') << 4) | (get('float_denorm_mode_16_64') << 6), k.name);
      assert.equal(k.dx10Clamp, get('dx10_clamp') === 1);
      assert.equal(k.ieeeMode, get('ieee_mode') === 1);
      assert.equal(k.fp16Overflow, get('fp16_overflow') === 1);
      assert.equal(k.waveSize, get('wavefront_size32') === 1 ? 32 : 64);
      assert.equal(k.ldsSize, get('group_segment_fixed_size'));
      assert.equal(k.scratchSize, get('private_segment_fixed_size'));
      assert.equal(k.kernargSize, get('kernarg_size'));
      assert.equal('kernarg_segment_ptr' in k.userSgprs, get('user_sgpr_kernarg_segment_ptr') === 1);
      assert.equal('dispatch_ptr' in k.userSgprs, get('user_sgpr_dispatch_ptr') === 1);
    }
    // --kernel picks one; the readable form spells the float mode out.
    const one = rdna('inspect', '--kernel', doc.kernels[0]?.name ?? '', obj);
    assert.equal(one.code, 0, one.err);
    assert.match(one.out, /f32 rounding: round /);
    assert.match(one.out, /f16\/f64 denormals: /);
    assert.equal((one.out.match(/^kernel /gm) ?? []).length, 1);
  });
}

test('inspect: bad input exits 1 with one line, usage errors exit 2', () => {
  const obj = join(dir, 'kernels.gfx1030.o');
  const good = readFileSync(obj);
  const cases: Buffer[] = [good.subarray(0, 100), Buffer.from('not an elf'), Buffer.concat([good.subarray(0, good.length - 40)])];
  for (let i = 0; i < 24; i++) {
    const b = Buffer.from(good);
    for (let k = 0; k < 6; k++) b[(i * 7919 + k * 104729) % b.length] = (i * 31 + k * 17) & 0xff;
    b.set([0x7f, 0x45, 0x4c, 0x46], 0);
    cases.push(b);
  }
  cases.forEach((b, i) => {
    const f = join(dir, `bad${i}.o`);
    writeFileSync(f, b);
    const r = rdna('inspect', '--json', f);
    assert.ok(r.code === 0 || r.code === 1, `exit ${r.code}: ${r.err}`);
    if (r.code === 1) assert.equal(r.err.trim().split('\n').length, 1, r.err);
    assert.doesNotMatch(r.err, /internal error|\n\s+at /);
  });
  assert.equal(rdna('inspect').code, 2);
  assert.equal(rdna('inspect', '--bogus', obj).code, 2);
  assert.equal(rdna('inspect', '--kernel', 'no_such_kernel', obj).code, 1);
});

test('inspect on a raw shader: the sidecar beside it, the .json named instead, --sidecar, assumed defaults', () => {
  const raw = join(dir, 'raw');
  spawnSync('mkdir', ['-p', raw]);
  const code = Buffer.from([0x00, 0x00, 0x81, 0xbf]);
  writeFileSync(join(raw, 'shader.bin'), code);
  writeFileSync(join(raw, 'shader.json'), JSON.stringify({ target: 'gfx1013', stage: 'ps', waveSize: 64, userSgprs: [{ name: 'srt', sgpr: 0, count: 2 }] }));
  for (const args of [[join(raw, 'shader.bin')], [join(raw, 'shader.json')]]) {
    const r = rdna('inspect', '--json', ...args);
    assert.equal(r.code, 0, r.err);
    const doc = JSON.parse(r.out) as { target: string; kernels: { name: string; stage: string; floatMode: number; waveSize: number; assumed: string[]; userSgprs: Record<string, string> }[] };
    assert.equal(doc.target, 'gfx1013');
    const [k] = doc.kernels;
    assert.ok(k);
    assert.equal(k.name, 'shader');
    assert.equal(k.stage, 'ps');
    assert.equal(k.waveSize, 64);
    assert.equal(k.floatMode, 0xc0);
    assert.ok(k.assumed.includes('floatMode'));
    assert.deepEqual(k.userSgprs, { srt: 's[0:1]' });
  }
  const text = rdna('inspect', join(raw, 'shader.bin'));
  assert.equal(text.code, 0, text.err);
  assert.match(text.out, /float mode 0xc0 \(assumed\):/);
  assert.match(text.out, /^  assumed: floatMode, /m);
  // --sidecar names another sidecar; a declared float mode is not assumed.
  writeFileSync(join(raw, 'other.json'), JSON.stringify({ target: 'gfx1030', stage: 'cs', waveSize: 32, floatMode: 0x0f, dx10Clamp: false, ieeeMode: true, fp16Overflow: true, workgroupSize: [64, 1, 1] }));
  const o = rdna('inspect', '--sidecar', join(raw, 'other.json'), join(raw, 'shader.bin'));
  assert.equal(o.code, 0, o.err);
  assert.match(o.out, /float mode 0x0f:\n    f32 rounding: round toward zero\n    f16\/f64 rounding: round toward zero\n    f32 denormals: flush input and output denormals/);
  assert.match(o.out, /dx10 clamp off, ieee mode on, fp16 overflow on\n/);
  assert.match(text.out, /, fp16 overflow off \(assumed\)\n/);
  assert.match(o.out, /workgroup size 64 x 1 x 1/);
  // Errors: one line, exit 1; --sidecar on a code object is a usage error.
  writeFileSync(join(raw, 'bad.bin'), code);
  writeFileSync(join(raw, 'bad.json'), JSON.stringify({ target: 'gfx1030', stage: 'cs', waveSize: 32, floatMode: 999 }));
  const bad = rdna('inspect', join(raw, 'bad.bin'));
  assert.equal(bad.code, 1);
  assert.equal(bad.err.trim().split('\n').length, 1);
  assert.match(bad.err, /bad\.json: field 'floatMode' must be an integer from 0 to 255 \(got 999\)/);
  writeFileSync(join(raw, 'lonely.bin'), code);
  const lonely = rdna('inspect', join(raw, 'lonely.bin'));
  assert.equal(lonely.code, 1);
  assert.match(lonely.err, /lonely\.bin: a raw shader needs its JSON sidecar/);
  assert.equal(rdna('inspect', '--sidecar', join(raw, 'other.json'), join(dir, 'kernels.gfx1030.o')).code, 2);
  // disasm takes the target from the sidecar.
  const d = rdna('disasm', join(raw, 'shader.bin'));
  assert.equal(d.code, 0, d.err);
  assert.match(d.out, /s_endpgm/);
});
