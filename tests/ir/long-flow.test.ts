// Very long control flow. SSA construction: 20,000 diamonds in a row, each adding to a
// register on one side, and a register written at the start and read only at the very end (the
// lookup walks every block back). Braun et al.'s recursive lookup would need a call per block;
// the pass must finish with an explicit stack, give one phi per merge for the changing register
// and none for the unchanged one, and compute the right value (run by the IR interpreter). The
// structured emission of 4,500 diamonds runs from a work stack too.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Builder, IrFunction } from '../../src/ir/ir.js';
import { constructSsa } from '../../src/ir/passes/ssa.js';
import { verifyFunction } from '../../src/ir/verify.js';
import { printFunction } from '../../src/ir/print.js';
import { runIrWave } from '../../src/ir/interp.js';
import { GlobalMemory } from '../../src/interp/memory.js';
import { assembleShaders } from '../harness/kernel.js';
import { recompile } from '../../src/backend/recompile.js';
import { spirvVal } from '../harness/spirv.js';

/**
 * `n` diamonds after the entry (block 0, which branches to block 1): head k = 1 + 3k, then-side
 * 2 + 3k, merge 3 + 3k, the next head the merge's successor; odd k take the side, v1 += k there.
 */
function addDiamonds(fn: IrFunction, n: number): void {
  for (let k = 0; k < n; k++) {
    const head = fn.addBlock(), side = fn.addBlock(), merge = fn.addBlock();
    const h = new Builder(fn, head);
    h.emit('BranchCond', [h.emit('IEq32', [h.emit('And32', [h.u32(k), h.u32(1)]), h.u32(1)])], [side.id, merge.id]);
    const s = new Builder(fn, side);
    s.emit('SetVgpr', [s.emit('IAdd32', [s.emit('GetVgpr', [], [1]), s.u32(k)])], [1]);
    s.emit('Branch', [], [merge.id]);
    new Builder(fn, merge).emit('Branch', [], [merge.id + 1]);
  }
}

test('SSA: 20,000 diamonds in a row (no recursion per block), one phi per merge, the right value', () => {
  const N = 20_000;
  const fn = new IrFunction('deep', 32);
  const e = new Builder(fn, fn.addBlock());
  e.emit('SetVgpr', [e.u32(0)], [1]);
  const p = e.emit('KernargPtr');
  e.emit('SetSgpr', [e.emit('Lo32', [p])], [6]);
  e.emit('SetSgpr', [e.emit('Hi32', [p])], [7]);
  e.emit('SetSgpr', [e.u32(0)], [2]);
  e.emit('Branch', [], [1]);
  addDiamonds(fn, N);
  const end = new Builder(fn, fn.addBlock());
  const addr = end.emit('Pack64', [end.emit('GetSgpr', [], [6]), end.emit('GetSgpr', [], [7])]);
  end.emit('StoreGlobal32', [end.u1(true), addr, end.emit('GetVgpr', [], [1])]);
  end.emit('EndProgram');
  constructSsa(fn);
  assert.deepEqual(verifyFunction(fn), []);
  const phis = fn.blocks.reduce((n, b) => n + b.insts.filter((i) => i.op === 'Phi').length, 0);
  assert.equal(phis, N); // v1 at every merge; s6/s7 pass through unchanged (no phi)
  const mem = new GlobalMemory();
  const base = mem.map('out', new Uint8Array(4));
  runIrWave(fn, { mem, kernargPtr: base, dispatchPtr: 0, workgroupId: [0, 0, 0], localIds: [[0, 0, 0]], inGrid: [true], maxSteps: 1e7 });
  // The sum of the odd k below N.
  let want = 0;
  for (let k = 1; k < N; k += 2) want = (want + k) >>> 0;
  assert.equal(mem.read32(base), want);
});

/** Diamonds, then a loop of ten trips (phis on a cycle), then a store of v1 + v2: two copies built alike. */
function diamondsAndLoop(n: number): IrFunction {
  const fn = new IrFunction('mixed', 32);
  const e = new Builder(fn, fn.addBlock());
  e.emit('SetVgpr', [e.u32(0)], [1]);
  e.emit('SetVgpr', [e.u32(0)], [2]);
  const p = e.emit('KernargPtr');
  e.emit('SetSgpr', [e.emit('Lo32', [p])], [6]);
  e.emit('SetSgpr', [e.emit('Hi32', [p])], [7]);
  e.emit('SetSgpr', [e.u32(0)], [3]);
  e.emit('Branch', [], [1]);
  addDiamonds(fn, n);
  const head = fn.addBlock(), body = fn.addBlock(), exit = fn.addBlock();
  const h = new Builder(fn, head);
  h.emit('BranchCond', [h.emit('ULt32', [h.emit('GetSgpr', [], [3]), h.u32(10)])], [body.id, exit.id]);
  const b = new Builder(fn, body);
  const i = b.emit('GetSgpr', [], [3]);
  b.emit('SetVgpr', [b.emit('IAdd32', [b.emit('GetVgpr', [], [2]), i])], [2]);
  b.emit('SetSgpr', [b.emit('IAdd32', [i, b.u32(1)])], [3]);
  b.emit('Branch', [], [head.id]);
  const x = new Builder(fn, exit);
  const addr = x.emit('Pack64', [x.emit('GetSgpr', [], [6]), x.emit('GetSgpr', [], [7])]);
  x.emit('StoreGlobal32', [x.u1(true), addr, x.emit('IAdd32', [x.emit('GetVgpr', [], [1]), x.emit('GetVgpr', [], [2])])]);
  x.emit('EndProgram');
  return fn;
}

test('SSA: the hashed tables (for functions too large for dense rows) give the dense rows\' function, instruction for instruction', () => {
  const dense = diamondsAndLoop(300), hashed = diamondsAndLoop(300);
  constructSsa(dense);
  constructSsa(hashed, 0);
  assert.deepEqual(verifyFunction(hashed), []);
  assert.equal(printFunction(hashed), printFunction(dense));
  // And it computes the value: the odd k below 300, plus 0 + 1 + ... + 9.
  const mem = new GlobalMemory();
  const base = mem.map('out', new Uint8Array(4));
  runIrWave(hashed, { mem, kernargPtr: base, dispatchPtr: 0, workgroupId: [0, 0, 0], localIds: [[0, 0, 0]], inGrid: [true], maxSteps: 1e6 });
  let want = 45;
  for (let k = 1; k < 300; k += 2) want += k;
  assert.equal(mem.read32(base), want);
});

test('a kernel of 4,500 diamonds (about 9,000 IR blocks) recompiles to valid structured SPIR-V (no recursion per block)', () => {
  const body = ['s_load_dwordx4 s[4:7], s[0:1], 0x0', 's_waitcnt lgkmcnt(0)', 'v_mov_b32 v1, 0'];
  for (let k = 0; k < 4500; k++) body.push(`s_cmp_eq_u32 s2, ${k & 7}`, `s_cbranch_scc1 .Lc${k}`, `v_xad_u32 v1, v1, ${k}, v0`, `.Lc${k}:`);
  body.push('v_lshlrev_b32 v2, 2, v0', 'global_store_dword v2, v1, s[6:7]', 's_endpgm');
  const s = [...assembleShaders('gfx1030', [{ name: 'chain', body: body.join('\n'), directives: ['.amdhsa_user_sgpr_kernarg_segment_ptr 1', '.amdhsa_system_sgpr_workgroup_id_x 1'] }]).values()][0];
  assert.ok(s);
  const r = recompile(s);
  assert.ok(r.ir.blocks.length > 9000, `${r.ir.blocks.length} blocks`);
  assert.equal(r.controlFlow, 'structured');
  spirvVal(r.spirv, 'chain');
});
