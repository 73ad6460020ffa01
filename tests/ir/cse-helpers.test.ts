// Common subexpression elimination and the lowered-float helpers: what CSE merges and what it must
// keep apart (effects, different float modes, values that do not dominate), one helper per distinct
// (op, mode) with every lowered op a call of it, the verifier's checks of calls, and a kernel of
// thousands of instructions through the whole recompiler (no recursion or argument-spread limit).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Builder, type FloatMode, IrFunction } from '../../src/ir/ir.js';
import { printFunction } from '../../src/ir/print.js';
import { verifyFunction } from '../../src/ir/verify.js';
import { eliminateCommonSubexpressions } from '../../src/ir/passes/cse.js';
import { lowerFloat } from '../../src/ir/passes/lower-float.js';
import { runIrWave } from '../../src/ir/interp.js';
import { GlobalMemory } from '../../src/interp/memory.js';
import { assembleShaders } from '../harness/kernel.js';
import { recompile } from '../../src/backend/recompile.js';
import { spirvVal } from '../harness/spirv.js';

const RNE: FloatMode = { round: 0, denorm: 3, ieee: true, dx10Clamp: true };
const RTZ: FloatMode = { round: 3, denorm: 3, ieee: true, dx10Clamp: true };
const count = (fn: IrFunction, op: string) => fn.blocks.reduce((n, b) => n + b.insts.filter((i) => i.op === op).length, 0);

test('CSE merges equal pure values across dominating blocks, hoists constants, keeps effects, modes and siblings apart', () => {
  const fn = new IrFunction('k', 32);
  const b0 = fn.addBlock(), b1 = fn.addBlock(), b2 = fn.addBlock(), b3 = fn.addBlock();
  const e = new Builder(fn, b0);
  const p = e.emit('KernargPtr');
  const x = e.emit('LoadUniform32', [p]);
  const y = e.emit('LoadUniform32', [p]); // an effect: never merged with x
  const s0 = e.emit('IAdd32', [x, e.u32(5)]);
  e.emit('BranchCond', [e.emit('IEq32', [x, y])], [1, 2]);
  const t = new Builder(fn, b1);
  const s1 = t.emit('IAdd32', [x, t.u32(5)]); // dominated by s0: merged
  const f1 = t.emit('FAdd32', [t.emit('BitcastU32F32', [s1]), t.emit('BitcastU32F32', [s1])], [], { float: RNE });
  const f2 = t.emit('FAdd32', [t.emit('BitcastU32F32', [s1]), t.emit('BitcastU32F32', [s1])], [], { float: RTZ }); // another mode: kept
  const back = t.emit('BitcastU32F32', [t.emit('BitcastF32U32', [f1])]); // a round trip: f1 itself
  t.emit('StoreGlobal32', [t.u1(true), p, t.emit('BitcastF32U32', [back])]);
  t.emit('StoreGlobal32', [t.u1(true), p, t.emit('BitcastF32U32', [f2])]);
  t.emit('Branch', [], [3]);
  const f = new Builder(fn, b2);
  const m1 = f.emit('IMul32', [x, y]);
  f.emit('StoreGlobal32', [f.u1(true), p, m1]);
  f.emit('Branch', [], [3]);
  const j = new Builder(fn, b3);
  const m2 = j.emit('IMul32', [x, y]); // its twin is in a sibling (b2 does not dominate b3): kept
  j.emit('StoreGlobal32', [j.u1(true), p, m2]);
  j.emit('EndProgram');
  fn.computePreds();
  const before = printFunction(fn);
  const removed = eliminateCommonSubexpressions(fn);
  assert.deepEqual(verifyFunction(fn), []);
  assert.notEqual(printFunction(fn), before);
  assert.equal(count(fn, 'LoadUniform32'), 2);
  assert.equal(count(fn, 'IAdd32'), 1);
  assert.equal(count(fn, 'FAdd32'), 2);
  assert.equal(count(fn, 'IMul32'), 2);
  // Constants: one ConstU32 5 and one ConstU1 true, in the entry block.
  assert.equal(count(fn, 'ConstU32'), 1);
  assert.equal(count(fn, 'ConstU1'), 1);
  assert.ok(b0.insts.some((i) => i.op === 'ConstU1'));
  // The stored value of the round trip is f1's own bits.
  const stores = b1.insts.filter((i) => i.op === 'StoreGlobal32');
  assert.equal(stores[0]?.args[2]?.args[0], f1);
  assert.ok(removed >= 6, `removed ${removed}`);
});

test('lowered float ops: one helper per distinct (op, mode), every op a call; the IR interpreter runs the calls', () => {
  const fn = new IrFunction('k', 32);
  const b = new Builder(fn, fn.addBlock());
  const p = b.emit('KernargPtr');
  const a = b.emit('BitcastU32F32', [b.emit('LoadUniform32', [p])]);
  const c = b.emit('BitcastU32F32', [b.emit('LoadUniform32', [b.emit('IAdd64', [p, b.emit('ConstU64', [], [4n])])])]);
  const outs = [
    b.emit('FAdd32', [a, c], [], { float: RNE }), b.emit('FAdd32', [c, a], [], { float: RNE }),
    b.emit('FAdd32', [a, c], [], { float: RTZ }), b.emit('FMul32', [a, c], [], { float: RNE }),
  ];
  outs.forEach((o, k) => b.emit('StoreGlobal32', [b.u1(true), b.emit('IAdd64', [p, b.emit('ConstU64', [], [BigInt(8 + 4 * k)])]), b.emit('BitcastF32U32', [o])]));
  b.emit('EndProgram');
  fn.computePreds();
  assert.equal(lowerFloat(fn, () => true), 4);
  assert.deepEqual(verifyFunction(fn), []);
  assert.equal(fn.helpers.length, 3);
  assert.equal(count(fn, 'Call'), 4);
  assert.equal(count(fn, 'FAdd32') + count(fn, 'FMul32'), 0);
  assert.match(printFunction(fn), /^helper 0 FAdd32 round=0 /m);
  // 1 + 2^-24 (exactly between two f32s, odd below) and a tiny addend: RNE rounds up, RTZ down.
  const mem = new GlobalMemory();
  const base = mem.map('args', new Uint8Array(64));
  mem.write32(base, 0x3f800001); mem.write32(base + 4, 0x33800000);
  runIrWave(fn, { mem, kernargPtr: base, dispatchPtr: 0, workgroupId: [0, 0, 0], localIds: [[0, 0, 0]], inGrid: [true], maxSteps: 1e6 });
  const got = [0, 1, 2, 3].map((k) => mem.read32(base + 8 + 4 * k));
  // 1.00000012 + 2^-24 = 1 + 2^-23 + 2^-24: a tie between 1+2^-23 (odd) and 1+2^-22 (even).
  assert.deepEqual(got.slice(0, 3), [0x3f800002, 0x3f800002, 0x3f800001]);
  assert.equal(got[3], 0x33800001);
});

test('the verifier checks calls: the helper exists, argument count and types, result type, Return only in helpers', () => {
  const fn = new IrFunction('k', 32);
  const h = new IrFunction('h', 32);
  const hb = new Builder(h, h.addBlock());
  hb.emit('Return', [hb.emit('Param', [], [0], { type: 'u32' })]);
  fn.helpers.push(h);
  const b = new Builder(fn, fn.addBlock());
  const v = b.u32(1);
  b.emit('Call', [v], [0], { type: 'u32' });
  b.emit('Call', [v, v], [0], { type: 'u32' });
  b.emit('Call', [b.u1(true)], [0], { type: 'u32' });
  b.emit('Call', [v], [0], { type: 'u64' });
  b.emit('Call', [v], [7], { type: 'u32' });
  b.emit('Return', [v]);
  fn.computePreds();
  const errs = verifyFunction(fn).join('\n');
  assert.match(errs, /2 arguments for 1 parameters of h/);
  assert.match(errs, /argument 0 is u1, h takes u32/);
  assert.match(errs, /h returns u32, the call is u64/);
  assert.match(errs, /helper 7 does not exist/);
  assert.match(errs, /Return in a kernel function/);
  assert.equal(errs.split('\n').length, 5, errs);
});

test('a kernel of 6,000 instructions in one block recompiles to valid SPIR-V (emulated and guarded f32 as calls)', () => {
  const ops = ['v_add_nc_u32 v4, v3, v4', 'v_mul_f32 v5, v3, v5', 'v_xor_b32 v6, v4, v5', 's_add_u32 s8, s8, 3', 'v_fma_f32 v7, v5, v6, v7', 'v_cmp_gt_u32_e32 vcc_lo, v4, v3', 'v_cndmask_b32_e32 v8, v7, v8, vcc_lo', 'v_add_f32 v9, v8, v9'];
  const body = ['s_load_dwordx4 s[4:7], s[0:1], 0x0', 's_waitcnt lgkmcnt(0)', 'v_lshlrev_b32 v2, 2, v0', 'global_load_dword v3, v2, s[4:5]', 's_waitcnt vmcnt(0)',
    ...Array.from({ length: 6000 }, (_, k) => ops[k % ops.length] as string), 'global_store_dword v2, v9, s[6:7]', 's_endpgm'];
  const s = [...assembleShaders('gfx1030', [{ name: 'big', body: body.join('\n'), directives: ['.amdhsa_user_sgpr_kernarg_segment_ptr 1'] }]).values()][0];
  assert.ok(s);
  const r = recompile(s);
  assert.equal(r.floatOps.length, 2250); // three float ops in every eight
  // On lavapipe mul, add and fma run guarded (their fast helpers and exact fallbacks; the fma's through f64).
  assert.deepEqual([...new Set(r.floatOps.map((f) => `${f.op} ${f.lowering}`))].sort(), ['FAdd32 guarded', 'FFma32 guarded', 'FMul32 guarded']);
  assert.equal(r.ir.helpers.length, 6); // mul, fma, add under the one launch mode, the fast mul, fma and add
  spirvVal(r.spirv);
});
