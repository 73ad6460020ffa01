// The MODE data flow on programs assembled by llvm-mc-19, decoded and put into a CFG by production
// code. Expected values come from the ISA rules, computed here bit by bit: s_getreg_b32 returns
// MODE[offset+size-1:offset] in its low bits (zeros above); s_setreg* writes the low `size` source
// bits into that field; s_round_mode / s_denorm_mode write imm[3:0] into MODE[3:0] / MODE[7:4];
// at launch MODE[7:0] is the float mode byte, bit 8 DX10_CLAMP, bit 9 IEEE, bit 23 FP16_OVFL
// (.amdhsa_fp16_overflow), other bits unknown.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Shader } from '../../src/container/shader.js';
import { loadShaders } from '../../src/container/shader.js';
import { buildCfg } from '../../src/analysis/cfg.js';
import { analyzeMode, type ModeAnalysis, type ModeTransition } from '../../src/analysis/mode.js';
import { formatModeAnalysis } from '../../src/analysis/mode-print.js';
import { assembleShaders, type KernelSpec } from '../harness/kernel.js';

interface Bits { value: number; known: number }

function analyze(s: Shader | undefined): ModeAnalysis {
  assert.ok(s);
  const cfg = buildCfg(s);
  return analyzeMode(s, cfg);
}

function batch(specs: KernelSpec[]): Map<string, ModeAnalysis> {
  const shaders = assembleShaders('gfx1030', specs);
  return new Map(specs.map((k) => [k.name, analyze(shaders.get(k.name))]));
}

/** MODE at launch as known bits: bits 9:0 and 23 declared, the rest unknown. */
const launch = (m: number, dx10 = true, ieee = true, ovfl = false): Bits => ({ value: m + (dx10 ? 256 : 0) + (ieee ? 512 : 0) + (ovfl ? 2 ** 23 : 0), known: 0x3ff + 2 ** 23 });
const bitOf = (x: number, i: number) => Math.floor(x / 2 ** i) % 2;

/** Expected s_getreg_b32 result, bit by bit. */
function expectRead(mode: Bits, offset: number, size: number): Bits {
  let value = 0, known = 0;
  for (let j = 0; j < 32; j++) {
    const i = offset + j;
    if (j >= size || i > 31) { known += 2 ** j; continue; }
    if (bitOf(mode.known, i)) { known += 2 ** j; value += bitOf(mode.value, i) * 2 ** j; }
  }
  return { value, known };
}

/** MODE bits that are reserved on gfx10 (22:21) or name GCN-only features (31:27): never known. */
const NEVER_KNOWN = [21, 22, 27, 28, 29, 30, 31];

/** Expected MODE after writing src (known bits) into [offset, offset+size), bit by bit. */
function expectWrite(mode: Bits, offset: number, size: number, src: Bits): Bits {
  let value = 0, known = 0;
  for (let i = 0; i < 32; i++) {
    const inField = i >= offset && i < offset + size;
    const k = NEVER_KNOWN.includes(i) ? 0 : inField ? bitOf(src.known, i - offset) : bitOf(mode.known, i);
    const v = inField ? bitOf(src.value, i - offset) : bitOf(mode.value, i);
    if (k) { known += 2 ** i; value += v * 2 ** i; }
  }
  return { value, known };
}

const field = (b: Bits, off: number): number | 'dynamic' => (bitOf(b.known, off) && bitOf(b.known, off + 1) ? bitOf(b.value, off) + 2 * bitOf(b.value, off + 1) : 'dynamic');
const flag = (b: Bits, i: number): boolean | 'dynamic' => (bitOf(b.known, i) ? bitOf(b.value, i) === 1 : 'dynamic');

function assertValu(a: ModeAnalysis, idx: number, float: 'f16' | 'f32' | 'f64', mode: Bits, what: string) {
  const v = a.valu[idx];
  assert.ok(v, `${what}: no valu record ${idx}`);
  assert.equal(v.float, float, what);
  const r = float === 'f32' ? 0 : 2, d = float === 'f32' ? 4 : 6;
  assert.deepEqual({ round: v.round, denorm: v.denorm, dx10Clamp: v.dx10Clamp, ieee: v.ieee },
    { round: field(mode, r), denorm: field(mode, d), dx10Clamp: flag(mode, 8), ieee: flag(mode, 9) }, what);
}

function assertRead(a: ModeAnalysis, idx: number, want: Bits, what: string) {
  const g = a.getregs[idx];
  assert.ok(g, `${what}: no getreg record ${idx}`);
  assert.equal(g.knownMask, want.known >>> 0, `${what}: known mask`);
  assert.equal(g.bits.value, want.value >>> 0, `${what}: value`);
  assert.equal(g.value, want.known >>> 0 === 0xffffffff ? want.value >>> 0 : undefined, `${what}: full value`);
}

const fullRead = (mode: Bits): Bits => expectRead(mode, 0, 32);

test('launch MODE: all 256 float modes, wave32 and wave64, every (offset, size) read; DX10_CLAMP and IEEE read back', () => {
  const pairs: [number, number][] = [];
  for (let offset = 0; offset < 32; offset++) for (let size = 1; size <= 32; size++) pairs.push([offset, size]);
  const body = pairs.map(([o, s]) => `s_getreg_b32 s0, hwreg(HW_REG_MODE, ${o}, ${s})`).join('\n') + '\nv_add_f32 v0, v1, v2\nv_add_f16 v0, v1, v2\nv_add_f64 v[0:1], v[2:3], v[4:5]\ns_endpgm';
  for (const wave64 of [false, true]) {
    const specs: KernelSpec[] = [];
    for (let m = 0; m < 256; m++) specs.push({ name: `launch_${wave64 ? 64 : 32}_${m}`, body, floatMode: m, wave64, dx10Clamp: m % 3 !== 0, ieeeMode: m % 5 !== 1 });
    const shaders = assembleShaders('gfx1030', specs);
    for (let m = 0; m < 256; m++) {
      const spec = specs[m];
      assert.ok(spec);
      const s = shaders.get(spec.name);
      assert.equal(s?.info.waveSize, wave64 ? 64 : 32);
      const a = analyze(s);
      const mode = launch(m, m % 3 !== 0, m % 5 !== 1);
      assert.equal(a.getregs.length, pairs.length);
      pairs.forEach(([o, sz], i) => {
        assert.deepEqual([a.getregs[i]?.field.offset, a.getregs[i]?.field.size, a.getregs[i]?.register], [o, sz, 'MODE']);
        assertRead(a, i, expectRead(mode, o, sz), `mode ${m} read ${o},${sz}`);
      });
      assertValu(a, 0, 'f32', mode, `mode ${m} f32`);
      assertValu(a, 1, 'f16', mode, `mode ${m} f16`);
      assertValu(a, 2, 'f64', mode, `mode ${m} f64`);
      assert.deepEqual(a.transitions, []);
      assert.deepEqual(a.diagnostics, []);
    }
  }
});

const INITIAL = [0x00, 0xff, 0xc0, 0x0f, 0xf0, 0x33, 0xcc, 0x5a, 0xa5, 0x01, 0x80, 0x3c, 0xc3, 0x96, 0x69, 0x7e];
const SOURCES = [0, 1, 2, 3, 7, 0xc, 0xf, 0x55, 0xaa, 0xff, 0x100, 0x1ff, 0xfffffff0, 0xffffffff, 0x80000001, 0x12345678, 0xdeadbeef, 0x0f0f0f0e];

test('s_setreg_imm32_b32: every field inside bits 7:0, 18 source values (upper bits set too), 16 initial modes', () => {
  const fields: [number, number][] = [];
  for (let o = 0; o < 8; o++) for (let s = 1; o + s <= 8; s++) fields.push([o, s]);
  const cases = fields.flatMap(([o, s]) => SOURCES.map((v) => [o, s, v] as const));
  const specs = INITIAL.map((m) => ({
    name: `imm_${m}`, floatMode: m,
    body: cases.map(([o, s, v]) => [
      `s_setreg_imm32_b32 hwreg(HW_REG_MODE, ${o}, ${s}), 0x${v.toString(16)}`,
      'v_add_f32 v0, v1, v2', 'v_fma_f64 v[0:1], v[2:3], v[4:5], v[6:7]', 's_getreg_b32 s0, hwreg(HW_REG_MODE)',
      `s_setreg_imm32_b32 hwreg(HW_REG_MODE, 0, 8), 0x${m.toString(16)}`,
    ].join('\n')).join('\n') + '\ns_endpgm',
  }));
  const res = batch(specs);
  for (const m of INITIAL) {
    const a = res.get(`imm_${m}`);
    assert.ok(a);
    const init = launch(m);
    assert.equal(a.transitions.length, 2 * cases.length);
    cases.forEach(([o, s, v], i) => {
      const after = expectWrite(init, o, s, { value: v, known: 0xffffffff });
      const what = `init 0x${m.toString(16)} write ${o},${s} = 0x${v.toString(16)}`;
      const t = a.transitions[2 * i];
      assert.deepEqual([t?.register, t?.field.offset, t?.field.size, t?.before.value, t?.after.value, t?.after.known], ['MODE', o, s, init.value, after.value, after.known], what);
      assertValu(a, 2 * i, 'f32', after, what);
      assertValu(a, 2 * i + 1, 'f64', after, what);
      assertRead(a, i, fullRead(after), what);
    });
  }
});

test('s_round_mode and s_denorm_mode: 0..15 with and without upper immediate bits, 16 initial modes', () => {
  const imms: number[] = [];
  for (let v = 0; v < 16; v++) imms.push(v, v | 0x10, v | 0xfff0, v | 0x8000);
  const ops = ['s_round_mode', 's_denorm_mode'] as const;
  const specs = INITIAL.map((m) => ({
    name: `rd_${m}`, floatMode: m,
    body: ops.flatMap((op) => imms.map((v) => [
      `${op} 0x${v.toString(16)}`, 'v_add_f32 v0, v1, v2', 'v_add_f16 v0, v1, v2', 's_getreg_b32 s0, hwreg(HW_REG_MODE, 0, 8)',
      `s_setreg_imm32_b32 hwreg(HW_REG_MODE, 0, 8), 0x${m.toString(16)}`,
    ].join('\n'))).join('\n') + '\ns_endpgm',
  }));
  const res = batch(specs);
  for (const m of INITIAL) {
    const a = res.get(`rd_${m}`);
    assert.ok(a);
    let i = 0;
    for (const op of ops) {
      for (const v of imms) {
        const low = v % 16; // only the low four bits count
        const after = expectWrite(launch(m), op === 's_round_mode' ? 0 : 4, 4, { value: low, known: 0xf });
        const what = `init 0x${m.toString(16)} ${op} 0x${v.toString(16)}`;
        const t: ModeTransition | undefined = a.transitions[2 * i];
        assert.deepEqual([t?.field.offset, t?.field.size, t?.after.value, t?.after.known], [op === 's_round_mode' ? 0 : 4, 4, after.value, after.known], what);
        assertValu(a, 2 * i, 'f32', after, what);
        assertValu(a, 2 * i + 1, 'f16', after, what);
        assertRead(a, i, expectRead(after, 0, 8), what);
        i++;
      }
    }
  }
});

test('s_setreg_b32 from SGPRs: constants, s_movk, 64-bit moves, partly known, unknown, clobbered, getreg round trip', () => {
  const m = 0xc0;
  const init = launch(m);
  // [body, expected MODE after the last instruction] — each kernel ends with a full read and a f32 VALU.
  const U = 0; // known mask of an unknown SGPR
  const cases: [string, string, Bits][] = [];
  for (const [o, s] of [[0, 2], [2, 2], [4, 4], [0, 8], [8, 2], [3, 3]] as const) {
    for (const v of [0, 3, 0xff, 0x12345678, 0xfffffffd]) {
      cases.push([`k_${o}_${s}_${v}`, `s_mov_b32 s2, 0x${v.toString(16)}\ns_setreg_b32 hwreg(HW_REG_MODE, ${o}, ${s}), s2`, expectWrite(init, o, s, { value: v, known: 0xffffffff })]);
    }
  }
  cases.push(['movk', 's_movk_i32 s2, 0x8003\ns_setreg_b32 hwreg(HW_REG_MODE, 0, 32), s2', expectWrite(init, 0, 32, { value: 0xffff8003, known: 0xffffffff })]);
  cases.push(['mov64', 's_mov_b64 s[2:3], -1\ns_setreg_b32 hwreg(HW_REG_MODE, 0, 4), s3', expectWrite(init, 0, 4, { value: 0xf, known: 0xf })]);
  cases.push(['unknown', 's_setreg_b32 hwreg(HW_REG_MODE, 0, 4), s4', expectWrite(init, 0, 4, { value: 0, known: U })]);
  cases.push(['or_known', 's_or_b32 s3, s4, 3\ns_setreg_b32 hwreg(HW_REG_MODE, 0, 8), s3', expectWrite(init, 0, 8, { value: 3, known: 3 })]);
  cases.push(['and_mask', 's_and_b32 s3, s4, 0x30\ns_setreg_b32 hwreg(HW_REG_MODE, 0, 8), s3', expectWrite(init, 0, 8, { value: 0, known: 0xcf })]);
  cases.push(['lshl', 's_mov_b32 s3, 3\ns_lshl_b32 s3, s3, 2\ns_setreg_b32 hwreg(HW_REG_MODE, 0, 4), s3', expectWrite(init, 0, 4, { value: 0xc, known: 0xf })]);
  cases.push(['bfe', 's_mov_b32 s3, 0xab\ns_bfe_u32 s3, s3, 0x40004\ns_setreg_b32 hwreg(HW_REG_MODE, 0, 4), s3', expectWrite(init, 0, 4, { value: 0xa, known: 0xf })]);
  cases.push(['add', 's_mov_b32 s3, 1\ns_add_u32 s3, s3, 2\ns_setreg_b32 hwreg(HW_REG_MODE, 0, 2), s3', expectWrite(init, 0, 2, { value: 3, known: 3 })]);
  cases.push(['clobber_load', 's_mov_b32 s2, 3\ns_load_dword s2, s[0:1], 0x0\ns_setreg_b32 hwreg(HW_REG_MODE, 0, 2), s2', expectWrite(init, 0, 2, { value: 0, known: U })]);
  cases.push(['clobber_readlane', 's_mov_b32 s2, 3\nv_readfirstlane_b32 s2, v0\ns_setreg_b32 hwreg(HW_REG_MODE, 0, 2), s2', expectWrite(init, 0, 2, { value: 0, known: U })]);
  cases.push(['clobber_movreld', 's_mov_b32 s2, 3\ns_movreld_b32 s5, s6\ns_setreg_b32 hwreg(HW_REG_MODE, 0, 2), s2', expectWrite(init, 0, 2, { value: 0, known: U })]);
  cases.push(['other_reg_kept', 's_mov_b32 s2, 3\ns_mov_b32 s3, s4\ns_setreg_b32 hwreg(HW_REG_MODE, 0, 2), s2', expectWrite(init, 0, 2, { value: 3, known: 3 })]);
  // getreg -> modify -> setreg: the value read from MODE flows through the scalar ALU.
  cases.push(['roundtrip', 's_getreg_b32 s0, hwreg(HW_REG_MODE, 0, 8)\ns_and_b32 s0, s0, 0xf0\ns_or_b32 s0, s0, 3\ns_setreg_b32 hwreg(HW_REG_MODE, 0, 8), s0',
    expectWrite(init, 0, 8, { value: (m & 0xf0) | 3, known: 0xff })]);
  const specs = cases.map(([name, body]) => ({ name, floatMode: m, body: `${body}\ns_getreg_b32 s10, hwreg(HW_REG_MODE)\nv_add_f32 v0, v1, v2\ns_endpgm` }));
  const res = batch(specs);
  for (const [name, , want] of cases) {
    const a = res.get(name);
    assert.ok(a);
    assertRead(a, a.getregs.length - 1, fullRead(want), name);
    assertValu(a, 0, 'f32', want, name);
  }
  // A partly known f32 round field is dynamic; its denorm field stays known.
  const u = res.get('unknown');
  assert.deepEqual([u?.valu[0]?.round, u?.valu[0]?.denorm], ['dynamic', 0]);
});

test('a write on one side of a branch, joined with the unchanged side: the bits both agree on', () => {
  const pairs: [number, number][] = [];
  for (const m of INITIAL) for (const x of [0, 3, 5, 0xa, 0xf]) pairs.push([m, x]);
  const specs = pairs.map(([m, x], i) => ({
    name: `br_${i}`, floatMode: m,
    body: [`s_cmp_eq_u32 s4, 0`, `s_cbranch_scc1 .Ljoin_${i}`, `s_setreg_imm32_b32 hwreg(HW_REG_MODE, 0, 4), ${x}`, `.Ljoin_${i}:`,
      'v_add_f32 v0, v1, v2', 's_getreg_b32 s0, hwreg(HW_REG_MODE)', 's_endpgm'].join('\n'),
  }));
  const res = batch(specs);
  pairs.forEach(([m, x], i) => {
    const a = res.get(`br_${i}`);
    assert.ok(a);
    const init = launch(m);
    const written = expectWrite(init, 0, 4, { value: x, known: 0xffffffff });
    let known = 0;
    for (let b = 0; b < 32; b++) if (bitOf(init.known, b) && bitOf(written.known, b) && bitOf(init.value, b) === bitOf(written.value, b)) known += 2 ** b;
    const joined = { value: init.value % 2 ** 10 & known, known };
    assertRead(a, 0, fullRead(joined), `init ${m} x ${x}`);
    assertValu(a, 0, 'f32', joined, `init ${m} x ${x}`);
  });
});

test('loops that change MODE reach a fixed point', () => {
  const res = batch([
    { name: 'loop_round', floatMode: 0xc0, body: ['s_mov_b32 s2, 4', '.Lloop:', 'v_add_f32 v0, v0, v1', 'v_add_f64 v[0:1], v[0:1], v[2:3]', 's_round_mode 3',
      's_sub_u32 s2, s2, 1', 's_cmp_lg_u32 s2, 0', 's_cbranch_scc1 .Lloop', 'v_add_f32 v0, v0, v1', 'v_add_f64 v[0:1], v[0:1], v[2:3]', 's_endpgm'].join('\n') },
    // MODE[1:0] counts up through s_getreg/s_add/s_setreg: nothing about it is fixed in the loop.
    { name: 'loop_count', floatMode: 0xc0, body: ['.Lc:', 'v_add_f32 v0, v0, v1', 's_getreg_b32 s0, hwreg(HW_REG_MODE, 0, 2)', 's_add_u32 s0, s0, 1',
      's_setreg_b32 hwreg(HW_REG_MODE, 0, 2), s0', 's_cmp_lg_u32 s4, 0', 's_cbranch_scc1 .Lc', 'v_add_f32 v0, v0, v1', 'v_add_f16 v0, v0, v1', 's_endpgm'].join('\n') },
  ]);
  const r = res.get('loop_round');
  assert.ok(r);
  const init = launch(0xc0);
  const after = expectWrite(init, 0, 4, { value: 3, known: 0xf });
  // Header: join of launch (round bits 0000) and the back edge (0011): bits 3:2 known 0, 1:0 unknown.
  const header = { value: 0x3c0, known: 0x3fc + 2 ** 23 };
  assertValu(r, 0, 'f32', header, 'loop f32');
  assertValu(r, 1, 'f64', header, 'loop f64');
  assertValu(r, 2, 'f32', after, 'exit f32');
  assertValu(r, 3, 'f64', after, 'exit f64');
  const c = res.get('loop_count');
  assert.ok(c);
  const dyn = { value: 0x3c0, known: 0x3fc + 2 ** 23 };
  assertValu(c, 0, 'f32', dyn, 'count loop');
  assertValu(c, 1, 'f32', dyn, 'count exit');
  assertValu(c, 2, 'f16', dyn, 'count exit f16');
  assertRead(c, 0, expectRead(dyn, 0, 2), 'count read');
});

test('other hwregs: FLAT_SCR tracked, other writes leave MODE alone with a diagnostic, reads noted, s_setprio ignored', () => {
  const body = [
    's_setreg_imm32_b32 hwreg(HW_REG_FLAT_SCR_LO), 0x1234',
    's_mov_b32 s2, 0x56',
    's_setreg_b32 hwreg(HW_REG_FLAT_SCR_HI, 0, 8), s2',
    's_getreg_b32 s0, hwreg(HW_REG_FLAT_SCR_LO)',
    's_getreg_b32 s1, hwreg(HW_REG_FLAT_SCR_HI, 0, 8)',
    's_setreg_imm32_b32 hwreg(HW_REG_TRAPSTS), 0xffffffff',
    's_setreg_b32 hwreg(HW_REG_STATUS, 0, 4), s2',
    's_setreg_b32 hwreg(4, 0, 4), s2',
    's_setprio 3',
    's_getreg_b32 s3, hwreg(HW_REG_HW_ID1)',
    's_getreg_b32 s4, hwreg(HW_REG_MODE)',
    's_endpgm',
  ].join('\n');
  const a = batch([{ name: 'other', floatMode: 0x3c, body, dx10Clamp: false, ieeeMode: true }]).get('other');
  assert.ok(a);
  assert.deepEqual(a.getregs.map((g) => [g.register, g.value]), [['FLAT_SCR_LO', 0x1234], ['FLAT_SCR_HI', 0x56], ['MODE', undefined]]);
  assertRead(a, 2, fullRead(launch(0x3c, false, true)), 'MODE unchanged');
  assert.deepEqual(a.transitions.map((t) => t.register), ['FLAT_SCR_LO', 'FLAT_SCR_HI']);
  assert.deepEqual(a.diagnostics.map((d) => [d.code, d.severity, d.instruction]), [
    ['hwreg-write-unmodeled', 'warning', 's_setreg_imm32_b32 hwreg(HW_REG_TRAPSTS), -1'],
    ['hwreg-write-unmodeled', 'warning', 's_setreg_b32 hwreg(HW_REG_STATUS, 0, 4), s2'],
    ['hwreg-write-unmodeled', 'warning', 's_setreg_b32 hwreg(4, 0, 4), s2'],
    ['hwreg-read-unmodeled', 'note', 's_getreg_b32 s3, hwreg(HW_REG_HW_ID1)'],
  ]);
  for (const d of a.diagnostics) assert.ok(d.words.length >= 1 && d.pc >= 0);
});

test('setreg of DX10_CLAMP and IEEE reaches the VALU record', () => {
  const specs = [0, 1, 2, 3].map((v) => ({ name: `clamp_${v}`, floatMode: 0xc0, body: `s_setreg_imm32_b32 hwreg(HW_REG_MODE, 8, 2), ${v}\nv_add_f32 v0, v1, v2\ns_endpgm` }));
  const res = batch(specs);
  for (const v of [0, 1, 2, 3]) {
    const a = res.get(`clamp_${v}`);
    assert.ok(a);
    assertValu(a, 0, 'f32', expectWrite(launch(0xc0), 8, 2, { value: v, known: 3 }), `clamp ${v}`);
  }
});

test('a raw shader without floatMode/ieeeMode in its sidecar: the documented defaults, reported as assumed', () => {
  const k = assembleShaders('gfx1030', [{ name: 'raw', body: 'v_add_f32 v0, v1, v2\ns_endpgm' }]).get('raw');
  assert.ok(k);
  const bytes = new Uint8Array(k.words.buffer, k.words.byteOffset, k.words.byteLength);
  const [s] = loadShaders({ bytes, name: 'raw', sidecar: { text: '{"target":"gfx1030","stage":"cs","waveSize":32,"dx10Clamp":false}', where: 'raw.json' } });
  assert.ok(s);
  const cfg = buildCfg(s);
  const a = analyzeMode(s, cfg);
  // Sidecar defaults: float mode 0xc0, IEEE off; DX10_CLAMP declared off.
  assert.deepEqual([...a.assumed].sort(), ['floatMode', 'fp16Overflow', 'ieeeMode']);
  assertValu(a, 0, 'f32', launch(0xc0, false, false), 'raw');
  assert.equal(a.diagnostics[0]?.code, 'mode-launch-assumed');
  const text = formatModeAnalysis(s, cfg, a);
  assert.match(text[1] ?? '', /^ {2}launch MODE: f32 rne\/flush, f16\/f64 rne\/keep, dx10_clamp 0, ieee 0, fp16_ovfl 0 \(0x000000c0 known 0x008003ff\) \[assumed: floatMode, ieeeMode, fp16Overflow\]$/);
});

test('the printed analysis: MODE beside each instruction that changes or depends on it', () => {
  const s = assembleShaders('gfx1030', [{ name: 'print', floatMode: 0xf0, body: 's_round_mode 0x7\nv_add_f32 v0, v1, v2\ns_getreg_b32 s0, hwreg(HW_REG_MODE, 0, 4)\ns_endpgm' }]).get('print');
  assert.ok(s);
  const cfg = buildCfg(s);
  const lines = formatModeAnalysis(s, cfg, analyzeMode(s, cfg));
  // 0xf0 with MODE[3:0] := 7: f32 rtz (3), f16/f64 rtp (1), both denorm keep (3).
  assert.deepEqual(lines.slice(2).map((l) => l.replace(/ +;/, ' ;')), [
    'block 0 [0x0, 0x10) preds - succs - exit endpgm',
    '  in: MODE f32 rne/keep, f16/f64 rne/keep, dx10_clamp 1, ieee 1, fp16_ovfl 0 (0x000003f0 known 0x008003ff)',
    '  0x0  s_round_mode 0x7 ; HW_REG_MODE[3:0] written -> MODE f32 rtz/keep, f16/f64 rtp/keep, dx10_clamp 1, ieee 1, fp16_ovfl 0 (0x000003f7 known 0x008003ff)',
    '  0x4  v_add_f32_e32 v0, v1, v2 ; f32 rtz/keep, dx10_clamp 1, ieee 1',
    '  0x8  s_getreg_b32 s0, hwreg(HW_REG_MODE, 0, 4) ; reads HW_REG_MODE[3:0] = 0x00000007',
    '  0xc  s_endpgm',
  ]);
});

test('FP16_OVFL: launch value from the descriptor (.amdhsa_fp16_overflow), s_setreg of bit 23, an unknown SGPR; only f16 records read it', () => {
  const body = [
    'v_add_f16 v0, v1, v2', // launch value
    'v_add_f32 v0, v1, v2',
    's_setreg_imm32_b32 hwreg(HW_REG_MODE, 23, 1), 1',
    'v_mul_f16 v0, v1, v2', // on
    's_setreg_imm32_b32 hwreg(HW_REG_MODE, 23, 1), 0',
    'v_fma_f16 v0, v1, v2, v3', // off
    's_setreg_b32 hwreg(HW_REG_MODE, 23, 1), s4',
    'v_add_f16 v0, v1, v2', // unknown
    'v_add_f32 v0, v1, v2',
    's_endpgm',
  ].join('\n');
  const res = batch([{ name: 'ovfl_on', body, fp16Overflow: true }, { name: 'ovfl_off', body, fp16Overflow: false }, { name: 'ovfl_default', body }]);
  for (const [name, at] of [['ovfl_on', true], ['ovfl_off', false], ['ovfl_default', false]] as const) {
    const a = res.get(name);
    assert.ok(a);
    assert.equal(a.initial.mode.known >>> 23 & 1, 1, `${name}: bit 23 known at launch`);
    assert.equal(a.initial.mode.value >>> 23 & 1, at ? 1 : 0, `${name}: bit 23 at launch`);
    assert.deepEqual(a.valu.map((v) => [v.float, v.f16Ovfl]), [['f16', at], ['f32', false], ['f16', true], ['f16', false], ['f16', 'dynamic'], ['f32', false]], name);
    assert.deepEqual(a.assumed, [], name);
  }
  const s = assembleShaders('gfx1030', [{ name: 'ovfl_print', body, fp16Overflow: true }]).get('ovfl_print');
  assert.ok(s);
  assert.equal(s.info.fp16Overflow, true);
  const cfg = buildCfg(s);
  const lines = formatModeAnalysis(s, cfg, analyzeMode(s, cfg)).map((l) => l.replace(/ +;/, ' ;'));
  assert.ok(lines.includes('  in: MODE f32 rne/flush, f16/f64 rne/keep, dx10_clamp 1, ieee 1, fp16_ovfl 1 (0x008003c0 known 0x008003ff)'), lines.join('\n'));
  assert.ok(lines.includes('  0x0  v_add_f16_e32 v0, v1, v2 ; f16 rne/keep, dx10_clamp 1, ieee 1, fp16_ovfl 1'), lines.join('\n'));
  assert.ok(lines.some((l) => /v_add_f16_e32 v0, v1, v2 ; f16 rne\/keep, dx10_clamp 1, ieee 1, fp16_ovfl \?$/.test(l)), lines.join('\n'));
});
