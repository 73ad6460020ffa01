// Code objects (kernel descriptor, ShaderInfo, metadata note) built at test time by llvm-mc-19 from
// tests/fixtures/code-object/kernels.s and from generated sources. Expected values come from the
// directives in those sources and from LLVM: `llvm-objdump-19 --disassemble-symbols=<k>.kd` prints
// a descriptor back as .amdhsa_* directives, and `llvm-readelf-19 --notes` prints the metadata.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ElfError, parseElf } from '../../src/container/elf.js';
import { CodeObjectError } from '../../src/container/kernel-descriptor.js';
import { readShaderInfos, type ShaderInfo } from '../../src/container/shader-info.js';
import type { KernelArg } from '../../src/container/metadata.js';
import type { Target } from '../../src/isa/types.js';
import { Rng } from '../harness/rng.js';
import { objdumpDescriptors } from '../harness/llvm-views.js';

const FIXTURE = new URL('../fixtures/code-object/kernels.s', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'rdna-co-'));
const TARGETS: Target[] = ['gfx1010', 'gfx1013', 'gfx1030'];

function assemble(target: Target, src: string, tag: string): string {
  const s = join(dir, `${tag}.${target}.s`);
  const o = join(dir, `${tag}.${target}.o`);
  writeFileSync(s, src);
  const r = spawnSync('llvm-mc-19', ['-triple=amdgcn-amd-amdhsa', `-mcpu=${target}`, '-filetype=obj', s, '-o', o], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return o;
}

const b = (x: boolean) => (x ? 1 : 0);
/** A code object kernel always has its descriptor. */
function kdOf(s: ShaderInfo) {
  assert.ok(s.descriptor, `${s.name}: no descriptor`);
  return s.descriptor;
}

/** Our parse, in objdump's directive vocabulary. */
function asDirectives(s: ShaderInfo): Map<string, number> {
  const d = kdOf(s);
  const r1 = d.rsrc1, r2 = d.rsrc2, p = d.properties;
  return new Map<string, number>([
    ['group_segment_fixed_size', s.ldsSize], ['private_segment_fixed_size', s.scratchSize], ['kernarg_size', s.kernargSize],
    ['shared_vgpr_count', d.rsrc3.sharedVgprCount],
    ['next_free_vgpr', s.vgprCount], ['next_free_sgpr', (r1.granulatedWavefrontSgprCount + 1) * 8],
    ['reserve_vcc', 0], ['reserve_flat_scratch', 0], ['reserve_xnack_mask', 0],
    ['float_round_mode_32', r1.floatRoundMode32], ['float_round_mode_16_64', r1.floatRoundMode16_64],
    ['float_denorm_mode_32', r1.floatDenormMode32], ['float_denorm_mode_16_64', r1.floatDenormMode16_64],
    ['dx10_clamp', b(s.dx10Clamp)], ['ieee_mode', b(s.ieeeMode)], ['fp16_overflow', b(r1.fp16Overflow)],
    ['workgroup_processor_mode', b(r1.wgpMode)], ['memory_ordered', b(r1.memOrdered)], ['forward_progress', b(r1.fwdProgress)],
    ['system_sgpr_private_segment_wavefront_offset', b(r2.enablePrivateSegment)],
    ['system_sgpr_workgroup_id_x', b(r2.workgroupIdX)], ['system_sgpr_workgroup_id_y', b(r2.workgroupIdY)],
    ['system_sgpr_workgroup_id_z', b(r2.workgroupIdZ)], ['system_sgpr_workgroup_info', b(r2.workgroupInfo)],
    ['system_vgpr_workitem_id', r2.vgprWorkitemId],
    ['exception_fp_ieee_invalid_op', b(r2.exceptionFpIeeeInvalidOp)], ['exception_fp_denorm_src', b(r2.exceptionFpDenormSrc)],
    ['exception_fp_ieee_div_zero', b(r2.exceptionFpIeeeDivZero)], ['exception_fp_ieee_overflow', b(r2.exceptionFpIeeeOverflow)],
    ['exception_fp_ieee_underflow', b(r2.exceptionFpIeeeUnderflow)], ['exception_fp_ieee_inexact', b(r2.exceptionFpIeeeInexact)],
    ['exception_int_div_zero', b(r2.exceptionIntDivZero)],
    ['user_sgpr_private_segment_buffer', b(p.privateSegmentBuffer)], ['user_sgpr_dispatch_ptr', b(p.dispatchPtr)],
    ['user_sgpr_queue_ptr', b(p.queuePtr)], ['user_sgpr_kernarg_segment_ptr', b(p.kernargSegmentPtr)],
    ['user_sgpr_dispatch_id', b(p.dispatchId)], ['user_sgpr_flat_scratch_init', b(p.flatScratchInit)],
    ['user_sgpr_private_segment_size', b(p.privateSegmentSize)], ['wavefront_size32', b(p.wavefrontSize32)],
    ['uses_dynamic_stack', b(p.usesDynamicStack)],
  ]);
}

function checkAgainstObjdump(file: string, infos: ShaderInfo[]) {
  const ref = objdumpDescriptors(file, infos.map((s) => s.name));
  assert.equal(ref.size, infos.length);
  for (const s of infos) {
    const want = ref.get(s.name);
    assert.ok(want, `objdump printed no descriptor for ${s.name}`);
    const got = asDirectives(s);
    for (const [k, v] of want) assert.equal(got.get(k), v, `${s.name}: .amdhsa_${k}`);
  }
}

/** The `.args` lists of `llvm-readelf-19 --notes`, per kernel name, as key → printed value. */
function readelfArgs(file: string): Map<string, Record<string, string>[]> {
  const r = spawnSync('llvm-readelf-19', ['--notes', file], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const out = new Map<string, Record<string, string>[]>();
  const lines = r.stdout.split('\n');
  let i = lines.findIndex((l) => l.startsWith('amdhsa.kernels:'));
  assert.ok(i >= 0, 'readelf printed no amdhsa.kernels');
  let args: Record<string, string>[] = [];
  let inArgs = false;
  const unq = (v: string) => v.trim().replace(/^'(.*)'$/, '$1');
  for (i++; i < lines.length; i++) {
    const l = lines[i] ?? '';
    if (/^\S/.test(l)) break;
    let m = /^  - \.args:\s*$/.exec(l);
    if (m) { args = []; inArgs = true; continue; }
    m = /^      - (\.\w+):\s+(.*)$/.exec(l);
    if (m && inArgs) { args.push({ [m[1] ?? '']: unq(m[2] ?? '') }); continue; }
    m = /^        (\.\w+):\s+(.*)$/.exec(l);
    if (m && inArgs) { const last = args[args.length - 1]; assert.ok(last); last[m[1] ?? ''] = unq(m[2] ?? ''); continue; }
    m = /^    \.name:\s+(\S+)$/.exec(l);
    if (m) out.set(m[1] ?? '', args);
    if (/^    \./.test(l)) inArgs = false;
  }
  return out;
}

function argAsReadelf(a: KernelArg): Record<string, string> {
  const o: Record<string, string> = { '.offset': String(a.offset), '.size': String(a.size), '.value_kind': a.valueKind };
  if (a.name !== undefined) o['.name'] = a.name;
  if (a.typeName !== undefined) o['.type_name'] = a.typeName;
  if (a.addressSpace !== undefined) o['.address_space'] = a.addressSpace;
  if (a.access !== undefined) o['.access'] = a.access;
  if (a.actualAccess !== undefined) o['.actual_access'] = a.actualAccess;
  if (a.isConst !== undefined) o['.is_const'] = String(a.isConst);
  if (a.isRestrict !== undefined) o['.is_restrict'] = String(a.isRestrict);
  if (a.isVolatile !== undefined) o['.is_volatile'] = String(a.isVolatile);
  if (a.pointeeAlign !== undefined) o['.pointee_align'] = String(a.pointeeAlign);
  return o;
}

const fixture = readFileSync(FIXTURE, 'utf8');
const objects = new Map<Target, string>();
for (const t of TARGETS) objects.set(t, assemble(t, fixture, 'kernels'));

for (const target of TARGETS) {
  test(`fixture kernels on ${target}: values from the directives`, () => {
    const file = objects.get(target) ?? '';
    const infos = readShaderInfos(parseElf(new Uint8Array(readFileSync(file))));
    assert.deepEqual(infos.map((s) => s.name), ['k_all', 'k_w64', 'k_min']);
    const [all, w64, min] = infos;
    assert.ok(all && w64 && min);
    for (const s of infos) { assert.equal(s.target, target); assert.equal(s.stage, 'cs'); assert.equal(s.codeSection, '.text'); }
    // k_all
    assert.equal(all.entry, 0);
    assert.deepEqual(all.codeRange, { start: 0, end: 8 }); // v_mov_b32 (4 bytes) + s_endpgm
    assert.equal(all.waveSize, 32);
    // round 32 = 3, round 16/64 = 2, denorm 32 = 1, denorm 16/64 = 0
    assert.equal(all.floatMode, 3 | (2 << 2) | (1 << 4) | (0 << 6));
    assert.equal(all.dx10Clamp, false);
    assert.equal(all.ieeeMode, false);
    assert.equal(kdOf(all).rsrc1.fp16Overflow, true);
    assert.equal(kdOf(all).rsrc1.wgpMode, false);
    assert.equal(kdOf(all).rsrc1.memOrdered, false);
    assert.equal(kdOf(all).rsrc1.fwdProgress, true);
    assert.deepEqual(all.userSgprs, [
      { kind: 'private_segment_buffer', first: 0, count: 4 }, { kind: 'dispatch_ptr', first: 4, count: 2 },
      { kind: 'queue_ptr', first: 6, count: 2 }, { kind: 'kernarg_segment_ptr', first: 8, count: 2 },
      { kind: 'dispatch_id', first: 10, count: 2 }, { kind: 'flat_scratch_init', first: 12, count: 2 },
      { kind: 'private_segment_size', first: 14, count: 1 },
    ]);
    assert.equal(all.userSgprCount, 15);
    assert.deepEqual(all.systemSgprs, [
      { kind: 'workgroup_id_x', first: 15, count: 1 }, { kind: 'workgroup_id_y', first: 16, count: 1 },
      { kind: 'workgroup_id_z', first: 17, count: 1 }, { kind: 'workgroup_info', first: 18, count: 1 },
      { kind: 'private_segment_wave_offset', first: 19, count: 1 },
    ]);
    assert.deepEqual(all.workitemIdVgprs, ['x', 'y', 'z']);
    assert.equal(all.vgprCount, 40); // next_free_vgpr 37, granule 8 in wave32
    assert.equal(all.sgprCount, 128);
    assert.equal(all.ldsSize, 1024);
    assert.equal(all.scratchSize, 64);
    assert.equal(all.kernargSize, 40);
    const r2 = kdOf(all).rsrc2;
    assert.deepEqual([r2.exceptionFpIeeeInvalidOp, r2.exceptionFpDenormSrc, r2.exceptionFpIeeeDivZero, r2.exceptionFpIeeeOverflow,
      r2.exceptionFpIeeeUnderflow, r2.exceptionFpIeeeInexact, r2.exceptionIntDivZero], [true, false, true, false, true, false, true]);
    // k_w64
    assert.equal(w64.entry, 256);
    assert.deepEqual(w64.codeRange, { start: 256, end: 256 + 12 });
    assert.equal(w64.waveSize, 64);
    assert.equal(w64.vgprCount, 16); // next_free_vgpr 13, granule 4 in wave64
    assert.equal(kdOf(w64).rsrc3.sharedVgprCount, 3);
    assert.deepEqual(w64.userSgprs, [{ kind: 'kernarg_segment_ptr', first: 0, count: 2 }]);
    assert.deepEqual(w64.systemSgprs, [{ kind: 'workgroup_id_z', first: 2, count: 1 }]);
    assert.deepEqual(w64.workitemIdVgprs, ['x', 'y']);
    assert.equal(w64.kernargSize, 16);
    // k_min: the assembler's gfx10 defaults
    assert.equal(min.entry, 512);
    assert.equal(min.waveSize, 32); // llvm-mc's default for gfx10 is wave32
    assert.equal(min.floatMode, 3 << 6); // denorm 16/64 = 3 (flush none), everything else 0
    assert.equal(min.dx10Clamp, true);
    assert.equal(min.ieeeMode, true);
    assert.deepEqual(min.userSgprs, []);
    assert.deepEqual(min.systemSgprs, [{ kind: 'workgroup_id_x', first: 0, count: 1 }]);
    assert.deepEqual(min.workitemIdVgprs, ['x']);
    assert.equal(min.vgprCount, 8);
    assert.equal(min.args, undefined);
    // metadata, from the fixture's .amdgpu_metadata block
    assert.deepEqual(all.args, [
      { name: 'out', typeName: 'float*', offset: 0, size: 8, valueKind: 'global_buffer', addressSpace: 'global', access: 'write_only', isRestrict: true },
      { name: 'in', typeName: 'const float*', offset: 8, size: 8, valueKind: 'global_buffer', addressSpace: 'global', isConst: true },
      { name: 'count', typeName: 'int', offset: 16, size: 4, valueKind: 'by_value' },
      { offset: 24, size: 8, valueKind: 'hidden_global_offset_x' },
      { offset: 32, size: 4, valueKind: 'dynamic_shared_pointer', addressSpace: 'local', pointeeAlign: 16 },
    ]);
    assert.deepEqual(w64.args?.map((a) => [a.name, a.addressSpace]), [['p', 'global'], ['q', 'constant']]);
  });

  test(`fixture kernels on ${target}: every descriptor field against llvm-objdump-19, args against llvm-readelf-19`, () => {
    const file = objects.get(target) ?? '';
    const infos = readShaderInfos(parseElf(new Uint8Array(readFileSync(file))));
    checkAgainstObjdump(file, infos);
    const ref = readelfArgs(file);
    for (const s of infos) {
      if (!ref.has(s.name)) { assert.equal(s.args, undefined); continue; }
      assert.deepEqual((s.args ?? []).map(argAsReadelf), ref.get(s.name), s.name);
    }
  });
}

/** All 256 float-mode bytes as kernels, in wave32 and wave64. */
function floatModeSource(): { src: string; want: Map<string, { mode: number; wave: 32 | 64; vgpr: number }> } {
  const text: string[] = ['.text'];
  const kds: string[] = ['.rodata', '.p2align 6'];
  const want = new Map<string, { mode: number; wave: 32 | 64; vgpr: number }>();
  for (let m = 0; m < 256; m++) {
    const name = `fm_${m}`;
    const wave = m % 2 === 0 ? 32 : 64;
    const nextVgpr = (m * 7) % 200;
    text.push(`.globl ${name}`, '.p2align 8', `.type ${name},@function`, `${name}:`, '  s_endpgm', `.size ${name}, 4`);
    kds.push(`.amdhsa_kernel ${name}`,
      `  .amdhsa_float_round_mode_32 ${m & 3}`, `  .amdhsa_float_round_mode_16_64 ${(m >> 2) & 3}`,
      `  .amdhsa_float_denorm_mode_32 ${(m >> 4) & 3}`, `  .amdhsa_float_denorm_mode_16_64 ${(m >> 6) & 3}`,
      `  .amdhsa_wavefront_size32 ${wave === 32 ? 1 : 0}`, `  .amdhsa_next_free_vgpr ${nextVgpr}`, '  .amdhsa_next_free_sgpr 0',
      `  .amdhsa_dx10_clamp ${m & 1}`, `  .amdhsa_ieee_mode ${(m >> 1) & 1}`,
      '.end_amdhsa_kernel');
    const g = wave === 32 ? 8 : 4;
    want.set(name, { mode: m, wave, vgpr: Math.max(g, Math.ceil(nextVgpr / g) * g) });
  }
  return { src: `${text.join('\n')}\n${kds.join('\n')}\n`, want };
}

for (const target of TARGETS) {
  test(`all 256 float-mode bytes on ${target} (wave32 and wave64), against the directives and llvm-objdump-19`, () => {
    const { src, want } = floatModeSource();
    const file = assemble(target, src, 'floatmode');
    const infos = readShaderInfos(parseElf(new Uint8Array(readFileSync(file))));
    assert.equal(infos.length, 256);
    for (const s of infos) {
      const w = want.get(s.name);
      assert.ok(w);
      assert.equal(s.floatMode, w.mode, s.name);
      assert.equal(s.waveSize, w.wave, s.name);
      assert.equal(s.vgprCount, w.vgpr, s.name);
      assert.equal(s.dx10Clamp, (w.mode & 1) === 1);
      assert.equal(s.ieeeMode, ((w.mode >> 1) & 1) === 1);
      assert.deepEqual(s.codeRange, { start: s.entry, end: s.entry + 4 });
    }
    checkAgainstObjdump(file, infos);
  });
}

test('reserved descriptor bits are rejected with a message naming the kernel and field', () => {
  const bytes = new Uint8Array(readFileSync(objects.get('gfx1030') ?? ''));
  const elf = parseElf(bytes);
  const kd = elf.symbols.find((s) => s.name === 'k_all.kd');
  const ro = elf.sections.find((s) => s.name === '.rodata');
  assert.ok(kd && ro);
  const at = ro.offset + kd.value;
  const cases: [number, number, RegExp][] = [
    [48 + 1, 0x04, /kernel k_all: .*COMPUTE_PGM_RSRC1\.PRIORITY/], // bit 10
    [48 + 2, 0x10, /COMPUTE_PGM_RSRC1\.PRIV/], // bit 20
    [48 + 2, 0x40, /COMPUTE_PGM_RSRC1\.DEBUG_MODE/], // bit 22
    [48 + 3, 0x01, /COMPUTE_PGM_RSRC1\.BULKY/],
    [48 + 3, 0x02, /COMPUTE_PGM_RSRC1\.CDBG_USER/],
    [48 + 3, 0x08, /COMPUTE_PGM_RSRC1\.RESERVED0/], // bit 27
    [52 + 1, 0x20, /COMPUTE_PGM_RSRC2\.ENABLE_EXCEPTION_ADDRESS_WATCH/], // bit 13
    [52 + 2, 0x01, /COMPUTE_PGM_RSRC2\.GRANULATED_LDS_SIZE/], // bit 16
    [52 + 3, 0x80, /COMPUTE_PGM_RSRC2\.RESERVED0/],
    [44, 0x10, /COMPUTE_PGM_RSRC3\.RESERVED/],
    [56 + 1, 0x01, /KERNEL_CODE_PROPERTIES\.RESERVED0/], // bit 8
    [56 + 1, 0x10, /KERNEL_CODE_PROPERTIES\.RESERVED1/], // bit 12
    [58, 0x01, /KERNARG_PRELOAD/],
    [13, 0x01, /reserved0/], [30, 0x01, /reserved1/], [62, 0x01, /reserved3/],
  ];
  for (const [off, mask, re] of cases) {
    const m = bytes.slice();
    m[at + off] = (m[at + off] ?? 0) | mask;
    assert.throws(() => readShaderInfos(parseElf(m)), (e: unknown) => e instanceof CodeObjectError && re.test(e.message) && !e.message.includes('\n'), re.source);
  }
});

test('without its relocation, the entry is the descriptor address plus the signed kernel_code_entry_byte_offset', () => {
  const bytes = new Uint8Array(readFileSync(objects.get('gfx1030') ?? ''));
  const elf = parseElf(bytes);
  const ro = elf.sections.find((s) => s.name === '.rodata');
  const rela = elf.sections.find((s) => s.name === '.rela.rodata');
  const kd = elf.symbols.find((s) => s.name === 'k_w64.kd');
  assert.ok(ro && rela && kd);
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const patched = (offset: bigint): Uint8Array => {
    const m = bytes.slice();
    const mv = new DataView(m.buffer);
    // Move k_w64's relocation off its entry field, then write the field itself.
    let moved = 0;
    for (let o = rela.offset; o < rela.offset + rela.size; o += 24) {
      if (dv.getBigUint64(o, true) === BigInt(kd.value) + 16n) { mv.setBigUint64(o, BigInt(kd.value) + 20n, true); moved++; }
    }
    assert.equal(moved, 1);
    mv.setBigInt64(ro.offset + kd.value + 16, offset, true);
    return m;
  };
  const infos = readShaderInfos(parseElf(patched(256n - BigInt(kd.value))));
  assert.equal(infos.find((s) => s.name === 'k_w64')?.entry, 256);
  assert.deepEqual(infos.find((s) => s.name === 'k_w64')?.codeRange, { start: 256, end: 268 });
  const bad: [bigint, RegExp][] = [
    [-(BigInt(kd.value) + 256n), /kernel k_w64: kernel_code_entry_byte_offset .* out of range/],
    [0x100000n, /kernel k_w64: kernel_code_entry_byte_offset: entry 0x100040 does not lie inside an executable section/],
    [256n - BigInt(kd.value) + 4n, /kernel k_w64: .*not 256-byte aligned/],
  ];
  for (const [off, re] of bad) assert.throws(() => readShaderInfos(parseElf(patched(off))), (e: unknown) => e instanceof CodeObjectError && re.test(e.message), re.source);
});

test('metadata notes whose sizes lie, or that are not MessagePack, are rejected', () => {
  const bytes = new Uint8Array(readFileSync(objects.get('gfx1030') ?? ''));
  const note = parseElf(bytes).sections.find((s) => s.type === 7);
  assert.ok(note);
  const cases: [(v: DataView) => void, RegExp][] = [
    [(v) => v.setUint32(note.offset + 4, 0xffffff00, true), /note at offset .* run past the section/],
    [(v) => v.setUint32(note.offset, note.size + 1, true), /run past the section/],
    [(v) => v.setUint8(note.offset + 12 + 8, 0xc1), /does not decode as MessagePack/],
    [(v) => v.setUint8(note.offset + 12 + 8, 0x93), /is not a MessagePack map|does not decode/],
  ];
  for (const [damage, re] of cases) {
    const m = bytes.slice();
    damage(new DataView(m.buffer));
    assert.throws(() => readShaderInfos(parseElf(m)), (e: unknown) => e instanceof CodeObjectError && re.test(e.message) && !e.message.includes('\n'), re.source);
  }
});

test('5000 damaged code objects give only CodeObjectError or ElfError', () => {
  const orig = new Uint8Array(readFileSync(objects.get('gfx1030') ?? ''));
  const rng = new Rng(0xc0de);
  let errors = 0;
  for (let i = 0; i < 5000; i++) {
    let m: Uint8Array;
    const kind = i % 5;
    if (kind === 0) m = orig.slice(0, rng.int(orig.length));
    else {
      m = orig.slice();
      const n = 1 + rng.int(kind === 4 ? 64 : 4);
      for (let j = 0; j < n; j++) {
        // Aim half the damage at the descriptors, notes and headers, where it matters.
        const hot = [0x140, 0x180, 0, rng.int(m.length)];
        const base = hot[rng.int(hot.length)] ?? 0;
        const p = Math.min(m.length - 1, base + rng.int(kind === 3 ? 0x200 : 0x80));
        m[p] = kind === 2 ? (m[p] ?? 0) ^ (1 << rng.int(8)) : rng.int(256);
      }
    }
    try {
      readShaderInfos(parseElf(m));
    } catch (e) {
      if (!(e instanceof CodeObjectError || e instanceof ElfError)) throw new Error(`case ${i}: ${String(e)}`);
      assert.ok(!e.message.includes('\n'), e.message);
      errors++;
    }
  }
  assert.ok(errors > 500, `only ${errors} damaged inputs were rejected`);
});
