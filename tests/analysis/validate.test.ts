// validate(): each check firing and not firing, on programs assembled by llvm-mc-19 (raw `.long`
// words where the assembler refuses the form). Expected findings come from LLVM: which target
// encodes an instruction (llvm-mc -show-encoding), which words llvm-objdump-19 decodes with the
// "scalar reg isn't aligned" warning or an "Invalid register" note, and which lane masks it
// rejects in wave64 (`v_cmp_eq_u32_e64 m0, ...` is an error with +wavefrontsize64).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assembleShaders, type KernelSpec } from '../harness/kernel.js';
import { loadShaders, type Shader } from '../../src/container/shader.js';
import { buildCfg } from '../../src/analysis/cfg.js';
import { validate, isOk, VALIDATE_CHECKS } from '../../src/analysis/validate.js';
import type { Diagnostic } from '../../src/analysis/types.js';
import type { Target } from '../../src/isa/types.js';

function shaders(target: Target, specs: KernelSpec[]): Map<string, Shader> {
  return assembleShaders(target, specs);
}

function run(s: Shader | undefined): Diagnostic[] {
  assert.ok(s, 'kernel missing');
  return validate(s, buildCfg(s));
}

const codes = (ds: readonly Diagnostic[]) => ds.map((d) => d.code);
const only = (ds: readonly Diagnostic[], code: string) => ds.filter((d) => d.code === code);

// Encodings from llvm-mc-19 -show-encoding (gfx1030): s_mov_b64 s[0:1], 0 = 0xbe800480;
// v_add_f64 v[0:1], s[0:1], v[2:3] = d5640000 00020400; v_cmp_eq_u32_e64 s[2:3], v0, v1 =
// d4c20002 00020300; v_readlane_b32 s0, v1, s2 = d7600000 00000501;
// v_mac_f32 v0, v1, v2 = 0x3e000501 (gfx1010/gfx1013 only); v_dot2_f32_f16 v0, v1, v2, v3 =
// cc134000 1c0e0501 (gfx1030 only: llvm-objdump-19 prints .long on gfx1010 and gfx1013).
const W32: KernelSpec[] = [
  { name: 'clean', body: 's_mov_b32 s0, 1\nv_mov_b32 v0, v1\ns_mov_b64 s[2:3], s[4:5]\nv_add_f64 v[0:1], s[2:3], v[2:3]\nv_cmp_eq_u32_e64 s2, v0, v1\ns_endpgm' },
  { name: 'mac', body: 'v_mov_b32 v0, 0\n.long 0x3e000501\ns_endpgm' },
  { name: 'garbage', body: '.long 0xfc000000\ns_endpgm' },
  { name: 'vgprs8', body: 'v_mov_b32 v7, v0\nv_mov_b32 v8, v0\nv_add_f64 v[6:7], v[0:1], v[2:3]\nv_add_f64 v[7:8], v[0:1], v[2:3]\ns_endpgm', vgprs: 8 },
  { name: 'misaligned', body: '.long 0xbe810480\n.long 0xbe800401\n.long 0xd5640000, 0x00020401\ns_mov_b64 s[2:3], 0\ns_endpgm' },
  { name: 'mask32', body: '.long 0xd4c20003, 0x00020300\n.long 0xd4c2007c, 0x00020300\ns_endpgm' },
  { name: 'readlane', body: '.long 0xd7600000, 0x00020501\nv_readlane_b32 s0, v1, s2\ns_endpgm' },
  { name: 'lds', body: 'ds_read_b32 v0, v1\nds_swizzle_b32 v0, v1 offset:swizzle(SWAP,1)\nds_read_b32 v0, v1 gds\ns_endpgm' },
  { name: 'ldsok', body: 'ds_read_b32 v0, v1\ns_endpgm', directives: ['.amdhsa_group_segment_fixed_size 1024'] },
  { name: 'scratch', body: 'scratch_load_dword v0, v1, off\ns_endpgm' },
  { name: 'scratchok', body: 'scratch_load_dword v0, v1, off\ns_endpgm', directives: ['.amdhsa_private_segment_fixed_size 16'] },
  { name: 'spin', body: '.Lspin:\ns_branch .Lspin' },
  { name: 'deadcode', body: 's_endpgm\ns_mov_b32 s0, 0\ns_endpgm' },
  { name: 'many', body: 's_branch 0x100\n' },
];
const G30 = shaders('gfx1030', W32);
const G10 = shaders('gfx1010', [{ name: 'dot2', body: '.long 0xcc134000, 0x1c0e0501\ns_endpgm' }, { name: 'mac10', body: '.long 0x3e000501\ns_endpgm' }]);
const G30W64 = shaders('gfx1030', [
  { name: 'mask64', wave64: true, body: 'v_cmp_eq_u32_e64 s[2:3], v0, v1\n.long 0xd4c20003, 0x00020300\n.long 0xd4c2007c, 0x00020300\n.long 0xd4c2006b, 0x00020300\nv_cmp_eq_u32_e64 vcc, v0, v1\nv_cndmask_b32_e64 v0, v1, v2, s[4:5]\n.long 0xd5010000, 0x000e0501\ns_endpgm' },
  { name: 'mask64top', wave64: true, body: '.long 0xd4c20068, 0x00020300\ns_endpgm' },
]);

test('a clean program has no findings', () => {
  const ds = run(G30.get('clean'));
  assert.deepEqual(ds, []);
  assert.equal(isOk(ds), true);
});

test('instruction-not-on-target: a gfx1010-only word in a gfx1030 program and a gfx1030-only word in a gfx1010 one', () => {
  const ds = run(G30.get('mac'));
  const [d] = only(ds, 'instruction-not-on-target');
  assert.ok(d, codes(ds).join());
  assert.equal(d.severity, 'error');
  assert.match(d.message, /v_mac_f32 .*gfx1010, gfx1013/);
  assert.equal(d.instruction, 'v_mac_f32_e32 v0, v1, v2');
  assert.deepEqual(d.words, [0x3e000501]);
  assert.equal(d.pc, (G30.get('mac')?.info.entry ?? 0) + 4);
  // It replaces the CFG's invalid-word finding at that pc.
  assert.deepEqual(ds.filter((x) => x.pc === d.pc).map((x) => x.code), ['instruction-not-on-target']);
  assert.equal(isOk(ds), false);
  const f = only(run(G10.get('dot2')), 'instruction-not-on-target');
  assert.equal(f.length, 1);
  assert.match(f[0]?.message ?? '', /v_dot2_f32_f16 .*\(it is on gfx1030\)/);
  assert.deepEqual(f[0]?.words, [0xcc134000, 0x1c0e0501]);
  assert.equal(f[0]?.instruction, 'v_dot2_f32_f16 v0, v1, v2, v3');
  // Not firing: the same v_mac_f32 word on gfx1010 is an instruction of the target.
  assert.deepEqual(only(run(G10.get('mac10')), 'instruction-not-on-target'), []);
});

test('a word no target decodes stays the CFG\'s invalid-instruction finding', () => {
  const ds = run(G30.get('garbage'));
  assert.deepEqual(only(ds, 'instruction-not-on-target'), []);
  const [d] = only(ds, 'invalid-instruction');
  assert.ok(d);
  assert.equal(d.instruction, '.long 0xfc000000');
});

test('vgpr-out-of-range: 8 VGPRs allocated (next_free_vgpr 8, wave32 granule 8): v8 and v[7:8] are outside, v7 and v[6:7] inside', () => {
  const s = G30.get('vgprs8');
  assert.equal(s?.info.vgprCount, 8);
  const ds = only(run(s), 'vgpr-out-of-range');
  const base = s?.info.entry ?? 0;
  // v_mov_b32 v8 at +4 (e32, 4 bytes); v_add_f64 v[7:8] at +4+4+8.
  assert.deepEqual(ds.map((d) => d.pc - base), [4, 16]);
  assert.match(ds[0]?.message ?? '', /v8, beyond the 8 allocated VGPRs/);
  assert.match(ds[1]?.message ?? '', /v\[7:8\]/);
});

test('sgpr-out-of-range: a raw shader whose sidecar declares 16 SGPRs', () => {
  const asm = G30.get('clean');
  assert.ok(asm);
  const words = shaders('gfx1030', [{ name: 'k', body: 's_mov_b64 s[14:15], 0\ns_mov_b64 s[16:17], 0\ns_mov_b32 s15, 0\ns_mov_b32 s16, 0\ns_load_dwordx4 s[12:15], s[0:1], 0x0\ns_load_dwordx4 s[16:19], s[14:15], 0x0\ns_endpgm' }]).get('k')?.words;
  assert.ok(words);
  const bytes = new Uint8Array(Uint32Array.from(words).buffer);
  const [raw] = loadShaders({ bytes, name: 'raw', sidecar: { text: JSON.stringify({ target: 'gfx1030', stage: 'cs', waveSize: 32, sgprs: 16 }), where: 'raw.json' } });
  assert.ok(raw);
  assert.equal(raw.info.addressableSgprs, 16);
  const ds = only(run(raw), 'sgpr-out-of-range');
  // s_mov_b64 s[16:17] at 4, s_mov_b32 s16 at 12, s_load_dwordx4 s[16:19] at 24 (SMEM is 8 bytes).
  assert.deepEqual(ds.map((d) => d.pc), [4, 12, 24]);
  assert.match(ds[0]?.message ?? '', /s\[16:17\], beyond the 16 addressable SGPRs \(s0\.\.s15\)/);
  assert.ok(ds.every((d) => d.severity === 'error' && d.words.length > 0 && d.instruction.length > 0));
});

test('misaligned-sgpr-pair: exactly the words llvm-objdump-19 warns "scalar reg isn\'t aligned" about', () => {
  const s = G30.get('misaligned');
  const base = s?.info.entry ?? 0;
  const ds = only(run(s), 'misaligned-sgpr-pair');
  // s_mov_b64 sdst=s1 (+0), s_mov_b64 ssrc0=s1 (+4), v_add_f64 src0=s1 (+8); s_mov_b64 s[2:3] (+16) is aligned.
  assert.deepEqual(ds.map((d) => d.pc - base), [0, 4, 8]);
  assert.ok(ds.every((d) => d.severity === 'warning'));
  assert.match(ds[0]?.message ?? '', /encoded as s1.*uses s\[0:1\]/);
  assert.equal(ds[0]?.instruction, 's_mov_b64 s[0:1], 0');
});

test('wave64 lane masks: odd SGPR is misaligned, m0 / vcc_hi are wave-size-mismatch, s[104:105] is fine; wave32 takes any SGPR', () => {
  const s = G30W64.get('mask64');
  assert.equal(s?.info.waveSize, 64);
  const base = s?.info.entry ?? 0;
  const ds = run(s);
  // Layout: +0 v_cmp s[2:3]; +8 sdst=s3; +16 sdst=m0; +24 sdst=vcc_hi; +32 v_cmp vcc (e64); +40 v_cndmask s[4:5]; +48 v_cndmask src2=s3.
  assert.deepEqual(only(ds, 'misaligned-sgpr-pair').map((d) => d.pc - base), [8, 48]);
  assert.deepEqual(only(ds, 'wave-size-mismatch').map((d) => d.pc - base), [16, 24]);
  assert.match(only(ds, 'wave-size-mismatch')[0]?.message ?? '', /m0/);
  assert.deepEqual(only(ds, 'sgpr-out-of-range'), []);
  // s104 (0x68) as a wave64 mask is s[104:105]: inside the 106 SGPRs.
  assert.deepEqual(run(G30W64.get('mask64top')), []);
  // The same words in wave32 name single SGPRs (and m0, which wave32 accepts): no finding.
  const w32 = run(G30.get('mask32'));
  assert.deepEqual(w32, []);
});

test('sgpr-out-of-range: a wave64 mask at s105 needs s[105:106]', () => {
  const [raw] = loadShaders({ bytes: new Uint8Array(Uint32Array.from([0xd4c20069, 0x00020300, 0xbf810000]).buffer), name: 'r',
    sidecar: { text: JSON.stringify({ target: 'gfx1030', stage: 'cs', waveSize: 64 }), where: 'r.json' } });
  const ds = run(raw);
  assert.deepEqual(codes(ds).sort(), ['misaligned-sgpr-pair', 'sgpr-out-of-range']);
  assert.match(only(ds, 'sgpr-out-of-range')[0]?.message ?? '', /s\[105:106\] \(a wave64 lane mask\)/);
});

test('operand-class: a VGPR lane select in v_readlane_b32 (LLVM notes "Invalid register"); an SGPR one is fine', () => {
  const s = G30.get('readlane');
  const ds = run(s);
  assert.deepEqual(ds.map((d) => [d.code, d.pc - (s?.info.entry ?? 0)]), [['operand-class', 0]]);
  assert.match(ds[0]?.instruction ?? '', /Invalid register/);
});

test('lds-not-allocated: LDS reads without LDS; not for ds_swizzle (no LDS), GDS, or with LDS declared', () => {
  const s = G30.get('lds');
  const ds = run(s);
  assert.deepEqual(ds.map((d) => [d.code, d.pc - (s?.info.entry ?? 0)]), [['lds-not-allocated', 0]]);
  assert.deepEqual(run(G30.get('ldsok')), []);
});

test('lds-not-allocated: a MUBUF load without its lds bit (a callee\'s spill reload through s[0:3]) does not touch LDS; with it, it does', () => {
  const s = shaders('gfx1030', [
    { name: 'mubuf', body: 'buffer_load_dword v1, off, s[0:3], 0 offset:4\n  buffer_store_dword v1, off, s[0:3], 0\n  s_endpgm' },
    { name: 'mubuf_lds', body: 'buffer_load_dword off, s[0:3], 0 lds\n  s_endpgm' },
  ]);
  assert.deepEqual(run(s.get('mubuf')), []);
  assert.deepEqual(codes(run(s.get('mubuf_lds'))), ['lds-not-allocated']);
});

test('scratch-not-allocated: scratch_* without private segment; none when declared', () => {
  const ds = run(G30.get('scratch'));
  assert.deepEqual(codes(ds), ['scratch-not-allocated']);
  assert.equal(ds[0]?.severity, 'warning');
  assert.equal(isOk(ds), true);
  assert.deepEqual(run(G30.get('scratchok')), []);
});

test('no-endpgm: an endless loop; unreachable-code: one note per unreachable region', () => {
  const spin = run(G30.get('spin'));
  assert.deepEqual(codes(spin), ['no-endpgm']);
  const s = G30.get('deadcode');
  const dead = run(s);
  assert.deepEqual(dead.map((d) => [d.code, d.severity, d.pc - (s?.info.entry ?? 0)]), [['unreachable-code', 'note', 4]]);
  assert.match(dead[0]?.message ?? '', /^8 bytes of code/);
  assert.equal(dead[0]?.instruction, 's_mov_b32 s0, 0');
});

test('every finding, not the first: CFG findings pass through next to validate\'s own', () => {
  const s = G30.get('many');
  const ds = run(s);
  assert.ok(codes(ds).includes('branch-out-of-range'), codes(ds).join());
  assert.ok(codes(ds).includes('no-endpgm'));
  const raw = shaders('gfx1030', [{ name: 'k', vgprs: 8, body: 'v_mov_b32 v9, v0\n.long 0xbe810480\n.long 0x3e000501\ns_endpgm' }]).get('k');
  const all = codes(run(raw));
  for (const c of ['vgpr-out-of-range', 'misaligned-sgpr-pair', 'instruction-not-on-target', 'no-endpgm', 'unreachable-code']) assert.ok(all.includes(c), `${c} in ${all.join()}`);
  // Sorted by pc.
  const pcs = run(raw).map((d) => d.pc);
  assert.deepEqual(pcs, [...pcs].sort((a, b) => a - b));
});

test('the check table lists every code validate emits, each with a severity', () => {
  const table = new Set(VALIDATE_CHECKS.map((c) => c.code));
  assert.equal(table.size, VALIDATE_CHECKS.length);
  for (const c of ['instruction-not-on-target', 'sgpr-out-of-range', 'vgpr-out-of-range', 'misaligned-sgpr-pair', 'wave-size-mismatch', 'operand-class', 'lds-not-allocated', 'scratch-not-allocated', 'no-endpgm', 'unreachable-code']) assert.ok(table.has(c), c);
});
