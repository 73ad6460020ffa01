// The entry point's float-controls execution modes (src/backend/spirv/float-controls.ts): for every
// profile and every f32 rounding × denormal setting of the launch MODE byte, which f32 ops run
// natively, which execution modes are declared and for which widths, each module valid for
// spirv-val; one mode per entry point when a kernel mixes modes; and that the float model (which
// the IR interpreter runs for the native ops) means what the declared modes mean: IEEE arithmetic
// in that direction with denormals kept, checked against the independent rational oracle.
// Not run on hardware here: lavapipe ignores RoundingModeRTZ (and does not advertise it), so the
// RTZ modules were not executed; they are for a device that advertises RTZ (the NVIDIA profile).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LAVAPIPE_PROFILE, NVIDIA_H200_PROFILE, parseProfile, PORTABLE_PROFILE, PROFILES, RADV_PROFILE, type TargetProfile, type WidthControls } from '../../src/backend/profile.js';
import { recompile } from '../../src/backend/recompile.js';
import { disassembleSpirv } from '../../src/backend/spirv/disasm.js';
import { assembleShaders } from '../harness/kernel.js';
import { spirvVal } from '../harness/spirv.js';
import type { Shader } from '../../src/container/shader.js';
import { dispatchIr } from '../../src/ir/dispatch.js';
import { prepare } from '../runtime/cases.js';
import { Rng } from '../harness/rng.js';
import * as F from '../../src/float/index.js';
import { oAdd, oMul, oSub, roundExact, q, S32, type OEnv } from '../harness/rational.js';

const KERNARG = ['.amdhsa_user_sgpr_kernarg_segment_ptr 1'];

/** Per lane: a, b from buffer 0 (8 bytes); add, sub, mul, a < b, f32(u32 a), f32(i32 b), fma to buffer 1 (28 bytes). */
const BODY = `
  s_load_dwordx4 s[4:7], s[0:1], 0x0
  s_waitcnt lgkmcnt(0)
  v_lshlrev_b32 v1, 3, v0
  global_load_dwordx2 v[2:3], v1, s[4:5]
  v_mul_u32_u24 v1, 28, v0
  s_waitcnt vmcnt(0)
  v_add_f32 v4, v2, v3
  v_sub_f32 v5, v2, v3
  v_mul_f32 v6, v2, v3
  v_cmp_lt_f32 vcc_lo, v2, v3
  v_cndmask_b32 v7, 0, 1, vcc_lo
  v_cvt_f32_u32 v8, v2
  v_cvt_f32_i32 v9, v3
  v_fma_f32 v10, v2, v3, v4
  global_store_dwordx4 v1, v[4:7], s[6:7]
  global_store_dwordx3 v1, v[8:10], s[6:7] offset:16
  s_endpgm`;

const MODES = Array.from({ length: 16 }, (_, k) => ((k >> 2) << 4) | (k & 3) | 0xc0);
let shaders: Map<number, Shader> | undefined;
function kernels(): Map<number, Shader> {
  shaders ??= new Map([...assembleShaders('gfx1030', MODES.map((m) => ({ name: `fc_${m.toString(16)}`, body: BODY, floatMode: m, vgprs: 16, sgprs: 16, directives: KERNARG }))).values()]
    .map((s) => [s.info.floatMode, s]));
  return shaders;
}

const all = (w: Partial<WidthControls>): WidthControls => ({ roundingModeRTE: false, roundingModeRTZ: false, denormPreserve: false, denormFlushToZero: false, signedZeroInfNanPreserve: false, ...w });
const full = all({ roundingModeRTE: true, roundingModeRTZ: true, denormPreserve: true, denormFlushToZero: true, signedZeroInfNanPreserve: true });
/** Beside the named profiles: independence NONE with every width offered, NONE with f32 alone, RTZ without RTE, and no SignedZeroInfNanPreserve. */
const EXTRA: TargetProfile[] = [
  { ...RADV_PROFILE, name: 'none-all', denormBehaviorIndependence: 'NONE', roundingModeIndependence: 'NONE', f64: full },
  { ...RADV_PROFILE, name: 'none-f32', denormBehaviorIndependence: 'NONE', roundingModeIndependence: 'NONE', f16: all({}), f64: all({}) },
  { ...RADV_PROFILE, name: 'rtz-only', f32: all({ roundingModeRTZ: true, denormPreserve: true, signedZeroInfNanPreserve: true }) },
  { ...RADV_PROFILE, name: 'no-szin', f32: { ...full, signedZeroInfNanPreserve: false } },
];

/** The expected lowering and modes, from the rules written out again (Vulkan float controls vs RDNA MODE). */
function expected(p: TargetProfile, mode: number): { native: string[]; guarded: string[]; modes: string[] } {
  const round = mode & 3, denorm = (mode >> 4) & 3;
  const widths = (ind: string) => (ind === 'NONE' ? [16, 32, 64] : [32]);
  const w = (n: number) => (n === 16 ? p.f16 : n === 32 ? p.f32 : p.f64);
  const rName = round === 0 ? 'RoundingModeRTE' : round === 3 ? 'RoundingModeRTZ' : undefined;
  const rOk = rName !== undefined && widths(p.roundingModeIndependence).every((n) => w(n)[rName === 'RoundingModeRTE' ? 'roundingModeRTE' : 'roundingModeRTZ']);
  const dOk = widths(p.denormBehaviorIndependence).every((n) => w(n).denormPreserve);
  const szin = p.f32.signedZeroInfNanPreserve;
  const native: string[] = [];
  // add/sub/mul: directed rounding Vulkan can express, denormals kept both ways, zero signs/inf/NaN kept.
  const addNative = rOk && dOk && szin && denorm === 3;
  if (addNative) native.push('FAdd32', 'FSub32', 'FMul32');
  // compare: denormal inputs kept; rounding does not matter.
  if (dOk && szin && (denorm & 1) === 1) native.push('FCmp32');
  // Otherwise add/sub/mul run guarded (the device's RTE result where exact) when RTE and zero
  // signs are offered, which needs the entry point not to round toward zero.
  const rteOk = widths(p.roundingModeIndependence).every((n) => w(n).roundingModeRTE);
  const canGuard = !addNative && rteOk && szin;
  // integer to f32: only the rounding matters (no subnormal, -0, inf or NaN result); an RTZ entry
  // point for two conversions does not pay for three add/sub/mul emulated instead of guarded.
  if (rOk && (rName === 'RoundingModeRTE' || !canGuard)) native.push('ConvertF32U32', 'ConvertF32S32');
  const guarded = canGuard ? ['FAdd32', 'FMul32', 'FSub32'] : [];
  // The fma (never native: no Vulkan op is fused) runs guarded through f64 where the entry point is
  // not RTZ and the profile offers f64 arithmetic with RTE (for 64 bits, and 16 too unless every
  // width is independent) and SignedZeroInfNanPreserve for 64 bits.
  const entryRtz = rName === 'RoundingModeRTZ' && native.some((o) => o !== 'FCmp32');
  const f64Widths = p.roundingModeIndependence === 'ALL' ? [32, 64] : [16, 32, 64];
  const fmaGuarded = rteOk && szin && !entryRtz && p.shaderFloat64 && p.f64DeviceOps !== false && p.f64.signedZeroInfNanPreserve && f64Widths.every((n) => w(n).roundingModeRTE);
  if (fmaGuarded) guarded.push('FFma32');
  guarded.sort();
  const modes = new Set<string>();
  if (native.some((o) => o !== 'FCmp32')) for (const n of widths(p.roundingModeIndependence)) modes.add(`${rName} ${n}`);
  if (guarded.length) for (const n of widths(p.roundingModeIndependence)) modes.add(`RoundingModeRTE ${n}`);
  if (fmaGuarded) for (const n of f64Widths) modes.add(`RoundingModeRTE ${n}`);
  if (native.some((o) => o.startsWith('F'))) for (const n of widths(p.denormBehaviorIndependence)) modes.add(`DenormPreserve ${n}`);
  if (native.some((o) => o.startsWith('F')) || guarded.length) modes.add('SignedZeroInfNanPreserve 32');
  if (fmaGuarded) modes.add('SignedZeroInfNanPreserve 64');
  return { native: native.sort(), guarded, modes: [...modes].sort() };
}

const modesOf = (words: Uint32Array): string[] => [...disassembleSpirv(words).matchAll(/OpExecutionMode %\d+ (\w+ \d+)\n/g)].map((x) => x[1] ?? '').filter((x) => !x.startsWith('LocalSize')).sort();

test('every profile × the 4 f32 rounding × 4 denormal settings: the native ops, the execution modes and their widths, valid SPIR-V', () => {
  const profiles = [...Object.values(PROFILES), ...EXTRA];
  assert.deepEqual(Object.keys(PROFILES).sort(), ['lavapipe', 'nvidia', 'portable', 'radv']);
  let natives = 0;
  for (const p of profiles) for (const [mode, s] of kernels()) {
    const what = `${p.name}, MODE 0x${mode.toString(16)}`;
    const r = recompile(s, { profile: p });
    spirvVal(r.spirv, what);
    const e = expected(p, mode);
    const native = r.floatOps.filter((f) => f.lowering === 'native').map((f) => f.op).sort();
    assert.deepEqual(native, e.native, what);
    assert.deepEqual(r.floatOps.filter((f) => f.lowering === 'guarded').map((f) => f.op).sort(), e.guarded, what);
    // Everything else is emulated, fma never native.
    assert.equal(r.floatOps.length, 7, what);
    assert.ok(r.floatOps.every((f) => f.lowering === 'native' || f.lowering === 'emulated' || f.lowering === 'guarded'), what);
    assert.equal(r.floatOps.find((f) => f.op === 'FFma32')?.lowering, e.guarded.includes('FFma32') ? 'guarded' : 'emulated', what);
    // f64 values exactly when the fma runs guarded through them.
    assert.equal(/OpCapability Float64/.test(disassembleSpirv(r.spirv)), e.guarded.includes('FFma32'), what);
    assert.deepEqual(modesOf(r.spirv), e.modes, what);
    // Never a flush-to-zero mode (no RDNA setting is Vulkan's DenormFlushToZero).
    assert.doesNotMatch(disassembleSpirv(r.spirv), /DenormFlushToZero/, what);
    natives += native.length;
  }
  assert.ok(natives > 60, String(natives));
  // The named profiles in words.
  const nat = (p: TargetProfile, mode: number) => recompile(kernels().get(mode) as Shader, { profile: p }).floatOps.filter((f) => f.lowering === 'native').map((f) => f.op).sort();
  assert.deepEqual(nat(LAVAPIPE_PROFILE, 0xc0), ['ConvertF32S32', 'ConvertF32U32']);
  assert.deepEqual(nat(LAVAPIPE_PROFILE, 0xf3), []);
  assert.deepEqual(nat(NVIDIA_H200_PROFILE, 0xf3), []); // add/sub/mul guarded under RTE instead
  assert.deepEqual(nat(NVIDIA_H200_PROFILE, 0xf0), ['ConvertF32S32', 'ConvertF32U32']);
  assert.deepEqual(nat(RADV_PROFILE, 0xf3), ['ConvertF32S32', 'ConvertF32U32', 'FAdd32', 'FCmp32', 'FMul32', 'FSub32']);
  assert.deepEqual(nat(RADV_PROFILE, 0xd1), ['FCmp32']);
  assert.deepEqual(nat(PORTABLE_PROFILE, 0xf0), []);
});

test('a kernel under two rounding modes: one entry point mode, the group that costs least native, the other guarded', () => {
  // Three ops under RTZ, two under RNE (s_round_mode in the middle), denormals kept.
  const body = ['s_load_dwordx2 s[4:5], s[0:1], 0x0', 'v_lshlrev_b32 v6, 4, v0', 'v_add_f32 v1, v0, v0', 'v_mul_f32 v2, v1, v1', 's_round_mode 0x3', 'v_add_f32 v3, v2, v1',
    'v_sub_f32 v4, v3, v1', 'v_mul_f32 v5, v4, v3', 's_waitcnt lgkmcnt(0)', 'global_store_dwordx4 v6, v[2:5], s[4:5]', 's_endpgm'].join('\n');
  const s = [...assembleShaders('gfx1030', [{ name: 'two', body, floatMode: 0xf0, directives: KERNARG }]).values()][0] as Shader;
  const r = recompile(s, { profile: RADV_PROFILE });
  spirvVal(r.spirv, 'two');
  // Under RTZ the RNE pair could not run guarded: native RTE for the pair and the RTZ group guarded costs less.
  assert.deepEqual(r.floatOps.map((f) => `${f.op} ${f.lowering}`), ['FAdd32 native', 'FMul32 native', 'FAdd32 guarded', 'FSub32 guarded', 'FMul32 guarded']);
  assert.deepEqual(modesOf(r.spirv), ['DenormPreserve 32', 'RoundingModeRTE 32', 'SignedZeroInfNanPreserve 32']);
  // Without RTE the RTZ group is native and the pair emulated.
  const rtz: TargetProfile = { ...RADV_PROFILE, name: 'rtz', f32: { ...RADV_PROFILE.f32, roundingModeRTE: false } };
  const r3 = recompile(s, { profile: rtz });
  spirvVal(r3.spirv, 'two rtz');
  assert.deepEqual(r3.floatOps.map((f) => `${f.op} ${f.lowering}`), ['FAdd32 emulated', 'FMul32 emulated', 'FAdd32 native', 'FSub32 native', 'FMul32 native']);
  assert.deepEqual(modesOf(r3.spirv), ['DenormPreserve 32', 'RoundingModeRTZ 32', 'SignedZeroInfNanPreserve 32']);
  // Where RTZ is not offered, the RNE group is native instead.
  const rte: TargetProfile = { ...RADV_PROFILE, name: 'rte', f32: { ...RADV_PROFILE.f32, roundingModeRTZ: false } };
  const r2 = recompile(s, { profile: rte });
  // ... and the RTZ group runs guarded (RTE results with their exact error terms).
  assert.deepEqual(r2.floatOps.map((f) => f.lowering), ['native', 'native', 'guarded', 'guarded', 'guarded']);
  assert.deepEqual(modesOf(r2.spirv), ['DenormPreserve 32', 'RoundingModeRTE 32', 'SignedZeroInfNanPreserve 32']);
});

/** The IR interpreter's buffer 1 for `lanes` operand pairs, running the recompiled IR (native ops as they are). */
function irResults(s: Shader, p: TargetProfile, pairs: readonly (readonly [number, number])[]): Uint32Array {
  const inp = new Uint8Array(8 * pairs.length), out = new Uint8Array(28 * pairs.length);
  const dv = new DataView(inp.buffer);
  pairs.forEach(([a, b], k) => { dv.setUint32(8 * k, a, true); dv.setUint32(8 * k + 4, b, true); });
  const bufs = [inp, out];
  const n = pairs.length;
  const pd = prepare(s, bufs, [n, 1, 1], [n, 1, 1]);
  dispatchIr(recompile(s, { profile: p }).ir, s, { grid: [n, 1, 1], block: [n, 1, 1], kernarg: pd.kernarg, mem: pd.mem, maxSteps: 10_000_000 });
  return new Uint32Array(out.buffer);
}

/** Operands at the edges the modes differ on: ties, subnormals, overflow, signed zeros, NaN, inf, and random bits. */
function operands(rng: Rng, n: number): [number, number][] {
  const edges = [0, 0x80000000, 1, 0x80000001, 0x007fffff, 0x00800000, 0x3f800000, 0x3f800001, 0x33800000, 0x33800001, 0x7f7fffff, 0xff7fffff, 0x7f800000, 0xff800000, 0x7fc00000, 0x4b800001, 0x4f800000, 0xcf000000];
  const pick = (): number => { const k = rng.u32() % 4; return k === 0 ? edges[rng.u32() % edges.length] ?? 0 : k === 1 ? rng.u32() & 0x80ffffff : k === 2 ? (rng.u32() & 0x807fffff) | 0x00800000 : rng.u32(); };
  return Array.from({ length: n }, () => [pick() >>> 0, pick() >>> 0]);
}

test('the native ops in the IR interpreter (the float model) compute what the execution modes mean: IEEE in RTE or RTZ with denormals kept (rational oracle)', () => {
  const rng = new Rng(8);
  const ieee = (round: 0 | 3): OEnv => ({ round, flushIn: false, flushOut: false, ieee: true });
  const isNaN32 = (x: number) => (x & 0x7f800000) === 0x7f800000 && (x & 0x7fffff) !== 0;
  // The H200 and RADV without RTE: their RTZ conversions native (with RTE, add/sub/mul not native run guarded and the conversions are emulated).
  const nvRtz: TargetProfile = { ...NVIDIA_H200_PROFILE, name: 'nvidia-rtz', f32: { ...NVIDIA_H200_PROFILE.f32, roundingModeRTE: false } };
  const radvRtz: TargetProfile = { ...RADV_PROFILE, name: 'radv-rtz', f32: { ...RADV_PROFILE.f32, roundingModeRTE: false } };
  for (const [mode, p] of [[0xf3, RADV_PROFILE], [0xf0, RADV_PROFILE], [0xf3, nvRtz], [0xc3, nvRtz], [0xd3, radvRtz]] as const) {
    const s = kernels().get(mode) as Shader;
    const r = recompile(s, { profile: p });
    const native = new Set(r.floatOps.filter((f) => f.lowering === 'native').map((f) => f.op));
    assert.ok(native.has('ConvertF32U32'));
    const pairs = operands(rng, 640);
    const out = irResults(s, p, pairs);
    const round = (mode & 3) as 0 | 3;
    pairs.forEach(([a, b], k) => {
      const o = (j: number) => out[7 * k + j] ?? -1;
      const what = `${p.name} MODE 0x${mode.toString(16)} a=0x${a.toString(16)} b=0x${b.toString(16)}`;
      // What the declared modes mean for the native ops: IEEE-754 arithmetic in the entry point's
      // direction, denormals kept (NaN results compared as NaN: SPIR-V fixes no payload).
      const arith: [string, number, number][] = [['FAdd32', o(0), Number(oAdd(S32, BigInt(a), BigInt(b), ieee(round)))], ['FSub32', o(1), Number(oSub(S32, BigInt(a), BigInt(b), ieee(round)))], ['FMul32', o(2), Number(oMul(S32, BigInt(a), BigInt(b), ieee(round)))]];
      for (const [op, got, want] of arith) if (native.has(op as never)) assert.ok(got === want || (isNaN32(got) && isNaN32(want)), `${what} ${op}: 0x${got.toString(16)} vs 0x${want.toString(16)}`);
      if (native.has('FCmp32')) assert.equal(o(3), isNaN32(a) || isNaN32(b) ? 0 : Number(F.f32ToNumber(a) < F.f32ToNumber(b)), `${what} cmp`);
      const cvt = (v: bigint) => (v === 0n ? 0 : Number(roundExact(S32, v < 0n ? 1 : 0, { kind: 'q', q: q(v < 0n ? -v : v) }, ieee(round))));
      assert.equal(o(4), cvt(BigInt(a)), `${what} u32→f32`);
      assert.equal(o(5), cvt(BigInt(b | 0)), `${what} i32→f32`);
    });
  }
});

test('the conversions ignore FP_DENORM and the compare ignores FP_ROUND in the float model; flush settings are not DenormFlushToZero', () => {
  const rng = new Rng(9);
  for (let k = 0; k < 20000; k++) {
    const a = rng.u32() >>> 0, b = rng.u32() >>> 0;
    for (const round of [0, 3] as const) {
      const ref = F.envFor(round | 0x30, 'f32');
      for (let d = 0; d < 3; d++) {
        const e = F.envFor(round | (d << 4), 'f32');
        assert.equal(F.cvtF32U32(a, e), F.cvtF32U32(a, ref));
        assert.equal(F.cvtF32I32(a | 0, e), F.cvtF32I32(a | 0, ref));
      }
    }
    for (let p = 0; p < 16; p++) for (let r = 0; r < 4; r++) {
      assert.equal(F.cmpF32(p, a, b, F.envFor(r | 0x10, 'f32')), F.cmpF32(p, a, b, F.envFor(0x30, 'f32')));
    }
  }
  // Why flush settings stay emulated: RDNA flushes denormal operands always, Vulkan's
  // DenormFlushToZero only may; 2^-127 + 2^-127 is +0 on RDNA under FP_DENORM 0, and the normal
  // 2^-126 is a valid DenormFlushToZero result (operands kept, result not denormal).
  const half = 0x00400000;
  assert.equal(F.addF32(half, half, F.envFor(0x00, 'f32')), 0);
  assert.equal(F.addF32(half, half, F.envFor(0x30, 'f32')), 0x00800000);
  // A flushed negative keeps its sign on RDNA; Vulkan leaves the sign of a flushed zero open.
  assert.equal(F.mulF32(0x80400000, 0x3f000000, F.envFor(0x00, 'f32')), 0x80000000);
});

test('a profile FILE.json: the independence fields (NONE when left out), checked', () => {
  const w = { roundingModeRTE: true, roundingModeRTZ: true, denormPreserve: true, denormFlushToZero: false, signedZeroInfNanPreserve: true };
  const base = { name: 'dev', f16: w, f32: w, f64: w, shaderInt64: true, shaderFloat64: true };
  const p = parseProfile(JSON.stringify(base), 'dev.json');
  assert.equal(p.denormBehaviorIndependence, 'NONE');
  assert.equal(p.roundingModeIndependence, 'NONE');
  const q2 = parseProfile(JSON.stringify({ ...base, denormBehaviorIndependence: 'ALL', roundingModeIndependence: '32_BIT_ONLY' }), 'dev.json');
  assert.deepEqual([q2.denormBehaviorIndependence, q2.roundingModeIndependence], ['ALL', '32_BIT_ONLY']);
  assert.throws(() => parseProfile(JSON.stringify({ ...base, roundingModeIndependence: 'SOME' }), 'dev.json'), /field 'roundingModeIndependence' must be one of 32_BIT_ONLY, ALL, NONE/);
  // Under NONE with every width offered: the modes for 16, 32 and 64 bits (SignedZeroInfNanPreserve
  // for 64 bits too: the fma runs guarded through f64), valid SPIR-V.
  const r = recompile(kernels().get(0xf0) as Shader, { profile: p });
  spirvVal(r.spirv, 'none');
  assert.deepEqual(modesOf(r.spirv), ['DenormPreserve 16', 'DenormPreserve 32', 'DenormPreserve 64', 'RoundingModeRTE 16', 'RoundingModeRTE 32', 'RoundingModeRTE 64', 'SignedZeroInfNanPreserve 32', 'SignedZeroInfNanPreserve 64']);
  // Without f64 arithmetic the fma is integer code and no 64-bit mode but the independence's is declared.
  const noF64 = recompile(kernels().get(0xf0) as Shader, { profile: { ...p, shaderFloat64: false } });
  assert.equal(noF64.floatOps.find((f) => f.op === 'FFma32')?.lowering, 'emulated');
  assert.ok(!modesOf(noF64.spirv).includes('SignedZeroInfNanPreserve 64'));
});

test('f64DeviceOps false (measured on the H200): the fma stays integer code and the module has no f64', () => {
  const s = kernels().get(0xf0) as Shader;
  const on = recompile(s, { profile: { ...NVIDIA_H200_PROFILE, name: 'nvidia-f64', f64DeviceOps: true } });
  assert.equal(on.floatOps.find((f) => f.op === 'FFma32')?.lowering, 'guarded');
  const off = recompile(s, { profile: NVIDIA_H200_PROFILE });
  assert.equal(NVIDIA_H200_PROFILE.f64DeviceOps, false);
  assert.equal(off.floatOps.find((f) => f.op === 'FFma32')?.lowering, 'emulated');
  assert.doesNotMatch(disassembleSpirv(off.spirv), /Float64|OpTypeFloat 64/);
  spirvVal(off.spirv, 'nvidia');
  // A profile file says it the same way.
  const w = { roundingModeRTE: true, roundingModeRTZ: false, denormPreserve: false, denormFlushToZero: false, signedZeroInfNanPreserve: true };
  const base = { name: 'dev', f16: w, f32: w, f64: w, shaderInt64: true, shaderFloat64: true, denormBehaviorIndependence: 'ALL', roundingModeIndependence: 'ALL' };
  assert.equal(parseProfile(JSON.stringify({ ...base, f64DeviceOps: false }), 'dev.json').f64DeviceOps, false);
  assert.equal(parseProfile(JSON.stringify(base), 'dev.json').f64DeviceOps, undefined);
  assert.throws(() => parseProfile(JSON.stringify({ ...base, f64DeviceOps: 'no' }), 'dev.json'), /field 'f64DeviceOps' must be true or false/);
});
