// The MODE bits each float instruction reads (src/frontend/mode-reads.ts) are all its result
// depends on: every float VALU instruction of the gfx1030 table (an instance of each clamp/omod form
// the generators give) runs in the interpreter, which computes through the float model, on random
// registers (float edge values of every width, subnormals, NaNs, random bits) under a random MODE
// and again under that MODE with a random set of the bits modeReadsOf leaves out flipped; every
// register must come out the same. Grouped by op class, each class checked many times. Then a
// kernel under a run-time MODE: each instruction's copies are those of its own reads, and the
// copies compute what the interpreter does.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ISA_TABLE } from '../../src/isa/table.js';
import type { InstrDef } from '../../src/isa/types.js';
import { decodeAt } from '../../src/decode/index.js';
import type { Instruction } from '../../src/decode/types.js';
import { WaveState, EXEC_LO } from '../../src/interp/state.js';
import { GlobalMemory } from '../../src/interp/memory.js';
import { HANDLERS } from '../../src/interp/units/index.js';
import type { ExecContext } from '../../src/interp/context.js';
import { modeReadsOf, widthOf } from '../../src/frontend/mode-reads.js';
import { FLOAT_TO_INT_ROUNDING, FP16_OVFL_RULE } from '../../src/float/env.js';
import { ALL_GENERATORS } from '../gen/index.js';
import { Rng } from '../harness/rng.js';
import { assemble, dwords, get } from '../interp/harness.js';
import { interpret, prepare } from '../runtime/cases.js';
import { recompile } from '../../src/backend/recompile.js';
import { PORTABLE_PROFILE } from '../../src/backend/profile.js';
import { dispatchIr } from '../../src/ir/dispatch.js';
import { spirvVal } from '../harness/spirv.js';

const VALU = new Set(['VOP1', 'VOP2', 'VOPC', 'VOP3', 'VOP3P']);
const TRIALS = 48;
/** The MODE bits the float model reads: 9:0 and FP16_OVFL (23). */
const FLOAT_MODE_BITS = (0x3ff | (1 << 23)) >>> 0;

/** Up to one decoded instance per (table entry, variant, clamp, omod) among the generators' cases. */
let cached: Instruction[] | undefined;
function instances(): Instruction[] {
  if (cached) return cached;
  const found = new Map<string, Instruction>();
  const consider = (c: readonly number[]) => {
    const words = Uint32Array.from(c);
    const d = decodeAt('gfx1030', words, 0, words.length, 0);
    if (d.kind !== 'instruction' || d.def.float === undefined || !VALU.has(d.def.family)) return;
    const key = `${d.def.mnemonic} ${d.def.family} ${d.variant ?? ''} ${d.mods.clamp ? 'c' : ''} ${d.mods.omod ?? 0}`;
    if (!found.has(key)) found.set(key, d);
  };
  const rng = new Rng(5);
  for (const g of ALL_GENERATORS) for (const c of g.systematic('gfx1030')) consider(c);
  for (const g of ALL_GENERATORS) for (let i = 0; i < 3000; i++) consider(g.random(rng, 'gfx1030'));
  cached = [...found.values()];
  return cached;
}

/** The op class an instruction belongs to (for the report: each class must be exercised). */
function classOf(def: InstrDef): string {
  const src = new Set(def.operands.filter((o) => o.role !== 'dst').map((o) => widthOf(o.type)).filter((w) => w !== undefined));
  const dst = new Set(def.operands.filter((o) => o.role !== 'src').map((o) => widthOf(o.type)).filter((w) => w !== undefined));
  const m = def.mnemonic;
  if (def.family === 'VOPC' || /^v_cmpx?_/.test(m)) return 'compare';
  if (/^v_(pk_)?(min|max|med3)/.test(m)) return 'min/max/med3';
  if (/^v_(floor|ceil|trunc|rndne)_|^v_frexp_mant_/.test(m)) return 'exact result';
  if (src.size === 0) return 'int → float';
  if (dst.size === 0) return 'float → int';
  if ([...src].some((w) => !dst.has(w)) || [...dst].some((w) => !src.has(w))) return 'between widths';
  return 'arithmetic';
}

/** A dword biased to float edges: f32 edges, two f16 edges, an f64 high word near the edges, subnormals, NaNs, random bits. */
function dword(rng: Rng): number {
  const f32 = [0, 0x80000000, 1, 0x807fffff, 0x00800000, 0x3f800000, 0x3f800001, 0xbf000000, 0x7f7fffff, 0x7f800000, 0xff800000, 0x7fc00000, 0x7fa00000, 0x4b800001, 0x33800000, 0x4f000000];
  const f16 = [0, 0x8000, 1, 0x83ff, 0x0400, 0x3c00, 0x3c01, 0x7bff, 0x7c00, 0xfc00, 0x7e00, 0x7d00, 0x1400, 0x5bff];
  const pick = <T>(a: readonly T[]): T => a[rng.u32() % a.length] as T;
  switch (rng.u32() % 6) {
    case 0: return pick(f32) >>> 0;
    case 1: return ((pick(f16) << 16) | pick(f16)) >>> 0;
    case 2: return (rng.u32() & 0x800fffff) >>> 0; // f32 subnormal / f64 high word of a subnormal
    case 3: return ((rng.u32() & 0x80000000) | (0x3ff00000 + ((rng.u32() % 64) << 20)) | (rng.u32() & 0xfffff)) >>> 0; // f64 high word near 1
    case 4: return ((rng.u32() & 0x80000000) | 0x7ff00000 | (rng.u32() & 0xfffff)) >>> 0; // f64 inf/NaN high word
    default: return rng.u32() >>> 0;
  }
}

function run(inst: Instruction, regs: WaveState, mode: number): WaveState | string {
  const st = new WaveState(32, 256);
  st.sgpr.set(regs.sgpr);
  st.vgpr.set(regs.vgpr);
  st.scc = regs.scc;
  st.mode = mode;
  const cx: ExecContext = { target: 'gfx1030', st, mem: new GlobalMemory(), lds: new DataView(new ArrayBuffer(65536)), hwregs: new Map(), nextPc: undefined };
  const h = HANDLERS[inst.def.mnemonic];
  if (!h) return 'no handler';
  try { h(inst, cx); } catch (e) { return e instanceof Error ? e.message : String(e); }
  return st;
}

const same = (a: WaveState, b: WaveState): boolean => a.scc === b.scc && Buffer.from(a.sgpr.buffer).equals(Buffer.from(b.sgpr.buffer)) && Buffer.from(a.vgpr.buffer).equals(Buffer.from(b.vgpr.buffer));

test('every float instruction: flipping the MODE bits modeReadsOf leaves out never changes a register (interpreter, random operands)', () => {
  const rng = new Rng(77);
  const insts = instances();
  const byClass = new Map<string, { instances: number; flips: number }>();
  const mnemonics = new Set<string>();
  let skipped = 0;
  for (const inst of insts) {
    const reads = modeReadsOf(inst);
    const free = FLOAT_MODE_BITS & ~reads;
    const cls = classOf(inst.def);
    const c = byClass.get(cls) ?? { instances: 0, flips: 0 };
    byClass.set(cls, c);
    let ran = false;
    for (let t = 0; t < TRIALS; t++) {
      const regs = new WaveState(32, 256);
      // The VGPRs the instruction names (lanes 0..31), every SGPR.
      for (const o of inst.operands) {
        if (o.value.kind !== 'vgpr') continue;
        for (let r = o.value.index; r < Math.min(256, o.value.index + Math.max(o.value.count, 2)); r++) for (let l = 0; l < 32; l++) regs.vgpr[r * 64 + l] = dword(rng);
      }
      for (let k = 0; k < 128; k++) regs.sgpr[k] = dword(rng);
      regs.sgpr[EXEC_LO] = rng.u32() | 1;
      regs.scc = rng.u32() & 1;
      const m = (rng.u32() & FLOAT_MODE_BITS) >>> 0;
      const flip = rng.u32() & free;
      if (flip === 0 && free !== 0) { t--; continue; }
      const a = run(inst, regs, m);
      if (typeof a === 'string') break;
      const b = run(inst, regs, (m ^ flip) >>> 0);
      assert.ok(typeof b !== 'string', b as string);
      assert.ok(same(a, b), `${inst.def.mnemonic} (${cls}, clamp ${inst.mods.clamp === true}, omod ${inst.mods.omod ?? 0}): MODE 0x${m.toString(16)} and 0x${(m ^ flip).toString(16)} differ, but modeReadsOf says it reads only 0x${reads.toString(16)}`);
      ran = true;
      if (free !== 0) c.flips++;
    }
    if (ran) { c.instances++; mnemonics.add(inst.def.mnemonic); } else skipped++;
  }
  // Every float instruction the interpreter runs was checked; each class many times.
  const floats = new Set(ISA_TABLE.filter((d) => d.float !== undefined && VALU.has(d.family)).map((d) => d.mnemonic));
  assert.ok(mnemonics.size > 0.8 * floats.size, `${mnemonics.size} of ${floats.size} float mnemonics checked (${skipped} instances skipped)`);
  for (const cls of ['compare', 'min/max/med3', 'exact result', 'int → float', 'float → int', 'between widths', 'arithmetic']) {
    const c = byClass.get(cls);
    assert.ok(c && c.instances >= 4 && c.flips >= 150, `${cls}: ${JSON.stringify(c)}`);
  }
  assert.deepEqual([...byClass.keys()].sort(), ['arithmetic', 'between widths', 'compare', 'exact result', 'float → int', 'int → float', 'min/max/med3']);
  console.log(JSON.stringify(Object.fromEntries(byClass)), `${mnemonics.size} of ${floats.size} mnemonics, ${skipped} instances skipped`);
});

test('what the op classes read, in MODE bits', () => {
  const at = (asm: string): number => {
    const inst = instances().find((i) => i.def.mnemonic === asm && !i.mods.clamp && !i.mods.omod);
    assert.ok(inst, asm);
    return modeReadsOf(inst);
  };
  // FP_ROUND f32 = 0x3, f16/f64 = 0xc; FP_DENORM f32 = 0x30 (0x10 inputs, 0x20 outputs), f16/f64 = 0xc0; DX10_CLAMP 0x100; IEEE 0x200.
  assert.equal(at('v_add_f32'), 0x233);
  assert.equal(at('v_cmp_lt_f32'), 0x10);
  assert.equal(at('v_max_f32'), 0x230);
  assert.equal(at('v_floor_f32'), 0x210);
  assert.equal(at('v_cvt_f32_u32'), 0x3);
  // float → int: the input bit; FP_ROUND too under FLOAT_TO_INT_ROUNDING 'mode' (src/float env.ts).
  assert.equal(at('v_cvt_u32_f32'), FLOAT_TO_INT_ROUNDING === 'mode' ? 0x13 : 0x10);
  assert.equal(at('v_cvt_i32_f64'), FLOAT_TO_INT_ROUNDING === 'mode' ? 0x4c : 0x40);
  assert.equal(at('v_cvt_flr_i32_f32'), 0x10);
  assert.equal(at('v_cvt_f16_f32'), FP16_OVFL_RULE === 'clamp' ? 0x80029c : 0x29c);
  assert.equal(at('v_add_f64'), 0x2cc);
  // FP16_OVFL (0x800000): f16 results that round, toward-zero ones excepted (src/float FP16_OVFL_RULE 'clamp').
  const ovfl = FP16_OVFL_RULE === 'clamp' ? 0x800000 : 0;
  assert.equal(at('v_add_f16'), 0x2cc | ovfl);
  for (const m of ['v_mul_f16', 'v_fma_f16', 'v_pk_add_f16', 'v_pk_fma_f16', 'v_fma_mixlo_f16', 'v_fma_mixhi_f16', 'v_cvt_f16_u16', 'v_ldexp_f16', 'v_rcp_f16']) assert.equal(at(m) & 0x800000, ovfl, m);
  for (const m of ['v_max_f16', 'v_floor_f16', 'v_cvt_pkrtz_f16_f32', 'v_add_f32', 'v_fma_mix_f32', 'v_cvt_f32_f16', 'v_cmp_lt_f16', 'v_cvt_u16_f16']) assert.equal(at(m) & 0x800000, 0, m);
});

test('under a MODE known only at run time, each instruction is copied per value of the unknown bits it reads, and computes what the interpreter does', () => {
  // MODE bits 9:0 from a kernarg dword: nothing known.
  const body = ['s_load_dwordx4 s[4:7], s[0:1], 0x0', 's_load_dword s8, s[0:1], 24', 's_waitcnt lgkmcnt(0)', 's_setreg_b32 hwreg(HW_REG_MODE, 0, 10), s8',
    'v_lshlrev_b32 v1, 3, v0', 'global_load_dwordx2 v[2:3], v1, s[4:5]', 's_waitcnt vmcnt(0)', 'v_add_f32 v4, v2, v3', 'v_cmp_lt_f32 vcc_lo, v2, v3', 'v_cndmask_b32 v5, 0, 1, vcc_lo',
    'v_cvt_f32_u32 v6, v2', 'v_max_f32 v7, v2, v3', 'v_lshlrev_b32 v1, 4, v0', 'global_store_dwordx4 v1, v[4:7], s[6:7]', 's_endpgm'].join('\n');
  const s = get(assemble('gfx1030', [{ name: 'dyn', body, floatMode: 0xf0, vgprs: 16, sgprs: 16 }]), 'dyn');
  const r = recompile(s, { profile: PORTABLE_PROFILE });
  spirvVal(r.spirv, 'dyn');
  const copies = Object.fromEntries(r.floatOps.map((f) => [f.op, f.lowering === 'dynamic' ? f.variants : f.lowering]));
  // add: FP_ROUND, FP_DENORM, IEEE (2^5); compare: the denormal input bit; u32 → f32: FP_ROUND; max: FP_DENORM and IEEE.
  assert.deepEqual(copies, { FAdd32: 32, FCmp32: 2, ConvertF32U32: 4, FMax32: 8 });
  // The IR (every copy lowered) equals the interpreter for MODE values that differ in every field.
  const rng = new Rng(12);
  for (const m of [0x000, 0x3ff, 0x2b6, 0x1c9, 0x0f3, 0x330]) {
    const n = 64;
    const inp = dwords(Array.from({ length: 2 * n }, () => dword(rng)));
    const ref = interpret({ shader: s, buffers: [inp, new Uint8Array(16 * n)], grid: [n, 1, 1], block: [n, 1, 1], scalars: [[24, m]] })[1];
    assert.ok(ref?.some((v) => v !== 0));
    const bufs = [inp.slice(), new Uint8Array(16 * n)];
    const p = prepare(s, bufs, [n, 1, 1], [n, 1, 1], [[24, m]]);
    dispatchIr(r.ir, s, { grid: [n, 1, 1], block: [n, 1, 1], kernarg: p.kernarg, mem: p.mem, maxSteps: 10_000_000 });
    assert.deepEqual(bufs[1], ref, `MODE 0x${m.toString(16)}`);
  }
});
