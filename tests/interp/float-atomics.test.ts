// The float atomics (DS, GLOBAL, MUBUF, FLAT) and the M0-based DS forms (addtid, append/consume)
// in the interpreter (issue 7). Expected values are worked out here from the RDNA2 ISA rules
// (add MEM + DATA; min/max as v_min/v_max with -0 < +0, a qNaN operand treated as missing and an
// sNaN operand returned quieted (IEEE on); cmpst/fcmpswap a float compare: -0 == +0, a NaN
// equals nothing) under the fixed MODE the float atomics use (src/float/atomic.ts: nearest even,
// denormals kept), while the kernels set MODE to round toward zero with denormals flushed. Lanes
// apply in ascending lane order; every lane of a chain hits one address.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Shader } from '../../src/container/shader.js';
import { dispatch } from '../../src/interp/dispatch.js';
import { GlobalMemory } from '../../src/interp/memory.js';
import { assembleShaders } from '../harness/kernel.js';
import { dsFloatKernel, dsM0Kernel, GLOBAL_FLOAT_DATA, globalFloatKernel, type AtomicKernel, WRXCHG2_BODY, WRXCHG2_REGS, WRXCHG2X64_BODY, WRXCHG2X64_REGS } from './float-atomics-kernels.js';

function run(shader: Shader, lanes: number, bufs: Uint32Array[]): Uint32Array[] {
  const mem = new GlobalMemory();
  const kernarg = new Uint8Array(8 * bufs.length);
  const kv = new DataView(kernarg.buffer);
  const copies = bufs.map((b) => new Uint8Array(b.buffer.slice(0)));
  copies.forEach((b, k) => kv.setBigUint64(8 * k, BigInt(mem.map(`buf${k}`, b)), true));
  dispatch(shader, { grid: [lanes, 1, 1], block: [lanes, 1, 1], kernarg, mem, maxSteps: 100_000 });
  return copies.map((b) => new Uint32Array(b.buffer));
}

function kernel(name: string, k: AtomicKernel, ws: 32 | 64, bufs: number): Shader {
  const directives = ['.amdhsa_user_sgpr_kernarg_segment_ptr 1', `.amdhsa_kernarg_size ${8 * bufs}`, ...(k.ldsBytes ? [`.amdhsa_group_segment_fixed_size ${k.ldsBytes}`] : [])];
  const s = assembleShaders('gfx1030', [{ name, body: k.body, vgprs: 64, wave64: ws === 64, directives }]).get(name);
  assert.ok(s, name);
  return s;
}

/** f32 bits of a number that f32 holds exactly. */
const f32 = (x: number): number => {
  const v = new DataView(new ArrayBuffer(4));
  v.setFloat32(0, x, true);
  assert.equal(v.getFloat32(0, true), x);
  return v.getUint32(0, true);
};
/** f64 bits of x as [lo, hi]. */
const f64 = (x: number): [number, number] => {
  const v = new DataView(new ArrayBuffer(8));
  v.setFloat64(0, x, true);
  return [v.getUint32(0, true), v.getUint32(4, true)];
};

const record = (out: Uint32Array, l: number, n: number) => Array.from(out.subarray(n * l, n * l + n));

for (const ws of [32, 64] as const) {
  test(`DS float atomics (add, min, max, cmpst; f32 and f64; shared chains and edge cases) follow the ISA rules under the fixed float-atomic mode, wave${ws}`, () => {
    const k = dsFloatKernel(ws);
    const [out] = run(kernel(`dsf${ws}`, k, ws, 1), ws, [new Uint32Array(ws * k.regs.length)]);
    assert.ok(out);
    for (let l = 0; l < ws; l++) {
      const want = [
        f32(0.5 + l), // ds_add_rtn_f32 chain at 0: 0.5 + one 1.0 per earlier lane
        ...f64(l === 0 ? 100 : 51 - l), // ds_min_rtn_f64 chain at 8 of 50 - lane
        1, // denormal 2^-149 + 2^-149 returns the old 2^-149 (not flushed)
        0x7fc00000, // min(qNaN, 2.0) returns the qNaN it found
        0x3f800000, // min(1.0, sNaN) returns 1.0
        0, // cmpst_f32: +0 found
        ...f64(-1), // ds_max_rtn_f64(-1.0, 2^-1074) returns -1.0
        ...f64(3), // ds_cmpst_rtn_f64 returns 3.0
        f32(0.5 + ws), // the add chain's end
        ...f64(51 - ws), // the min chain's end
        0x3f800002, // 1.0 + 1.5 * 2^-23 to nearest even (toward zero: 0x3f800001)
        2, // 2^-149 + 2^-149 = 2^-148 (flushed: 0)
        0x40000000, // min(qNaN, 2.0) = 2.0: the qNaN is missing
        0, // max(-0, +0) = +0
        0x80000000, // min(+0, -0) = -0
        0x7fc00001, // min(1.0, sNaN 0x7f800001) = the sNaN quieted
        0x40a00000, // cmpst: +0 == -0 (a float compare), so 5.0 is stored
        0x7fc00000, // cmpst: qNaN == qNaN is false, the NaN stays
        1, 0, // max(-1.0, 2^-1074) = 2^-1074 (kept)
        ...f64(7), // cmpst_f64: 3.0 == 3.0, 7.0 stored
      ];
      assert.deepEqual(record(out, l, k.regs.length), want, `lane ${l}`);
    }
  });

  test(`GLOBAL, MUBUF and FLAT float atomics (fmin, fmax, fcmpswap, their _x2 forms) on one address for every lane follow the ISA rules, wave${ws}`, () => {
    const k = globalFloatKernel(ws);
    const [out, data] = run(kernel(`gf${ws}`, k, ws, 2), ws, [new Uint32Array(ws * k.regs.length), Uint32Array.from(GLOBAL_FLOAT_DATA)]);
    assert.ok(out && data);
    for (let l = 0; l < ws; l++) {
      const want = [
        l === 0 ? f32(100) : f32(11 - l), // fmin chain of 10 - lane from 100.0
        l === 0 ? f32(-100) : f32(10), // fmax chain from -100.0
        l === 0 ? 0x80000000 : f32(1), // fcmpswap: -0 == +0 (cmp), lane 0 stores 1.0; later compares fail
        ...(l === 0 ? [0, 0x7ff80000] : f64(l - 1)), // fmax_x2 from a qNaN: the qNaN is missing
        ...(l === 0 ? [0, 0x80000000] : f64(l)), // fcmpswap_x2 chain: cmp lane == mem, stores lane + 1
        l === 0 ? 5 : 3, // buffer fmin of denormals (kept): min(5, 3) ulps
        l === 0 ? 0x7f800001 : l === 1 ? 0x7fc00001 : f32(-1), // flat fmax from an sNaN: quieted, then the qNaN is missing
      ];
      assert.deepEqual(record(out, l, k.regs.length), want, `lane ${l}`);
    }
    const end = [f32(11 - ws), f32(10), f32(1), 0, ...f64(ws - 1), ...f64(ws), 0, 0, 3, f32(-1), 0, 0, 0, 0];
    assert.deepEqual(Array.from(data), end);
  });

  test(`ds_write/read_addtid_b32 (M0[15:0] base + offset + lane * 4) and ds_append/ds_consume (the dword at M0 + offset, by the active lane count; every lane gets the old value), wave${ws}`, () => {
    const k = dsM0Kernel(ws);
    const [out] = run(kernel(`dsm${ws}`, k, ws, 1), ws, [new Uint32Array(ws * k.regs.length)]);
    assert.ok(out);
    for (let l = 0; l < ws; l++) {
      const want = [
        3 * l + 7, // written by ds_write_addtid at 0x40 + 16 + 4l (M0 0x10040: bits 31:16 unused)
        l < ws - 1 ? 3 * l + 10 : 0, // ds_read_addtid at 0x44 + 16 + 4l: the next lane's value; past the last, LDS zero
        0, // ds_append from 0 (all lanes)
        l === 0 || l === 2 ? ws : 0xdead, // ds_append under EXEC 0b101: the count ws; inactive lanes untouched
        ws + 2, // ds_consume at 4 + 4 (all lanes)
        2, // the counter after: ws + 2 - ws
      ];
      assert.deepEqual(record(out, l, k.regs.length), want, `lane ${l}`);
    }
  });
}

for (const ws of [32, 64] as const) {
  test(`ds_wrxchg2(st64)_rtn_b32: each lane exchanges its first address, then its second, before the next lane (a lane's second address is the next lane's first; st64 lanes share addresses), wave${ws}`, () => {
    const n = WRXCHG2_REGS.length;
    const [out] = run(kernel(`wx${ws}`, { body: WRXCHG2_BODY, regs: WRXCHG2_REGS, ldsBytes: 1024 }, ws, 1), ws, [new Uint32Array(ws * n)]);
    assert.ok(out);
    for (let l = 0; l < ws; l++) {
      const g = l & 7, first = l < 8;
      const want = [
        l === 0 ? 100 : 2000 + l - 1, // old at 4l: the previous lane's data1 already there
        l + 1 < ws ? 100 + l + 1 : 0, // old at 4l + 4: the next lane's initial value (past the last lane: LDS zero)
        // st64 old at 256 + 4g: the previous lane of the group's data0 (in wave64 the last lane's first
        // instruction left its data1 at 4 * 64 = 256)
        first ? (ws === 64 && g === 0 ? 2000 + 63 : 0) : 1000 + l - 8,
        first ? 0 : 2000 + l - 8, // and at 512 + 4g its data1
        1000 + l, // 4l after the instruction: this lane's data0 (written after the previous lane's data1)
        1000 + ws - 8 + g, // 256 + 4g: the group's last lane
        2000 + ws - 8 + g,
      ];
      assert.deepEqual(record(out, l, n), want, `lane ${l}`);
    }
  });
}

for (const ws of [32, 64] as const) {
  test(`ds_wrxchg2(st64)_rtn_b64 (both 64-bit exchanges of a lane before the next lane's) and ds_condxchg32_rtn_b64 (RDNA3's pseudocode: the aligned pair, each dword written with bit 31 clear where its data's bit 31 is set), wave${ws}`, () => {
    const n = WRXCHG2X64_REGS.length;
    const [out] = run(kernel(`wx64_${ws}`, { body: WRXCHG2X64_BODY, regs: WRXCHG2X64_REGS, ldsBytes: 2048 }, ws, 1), ws, [new Uint32Array(ws * n)]);
    assert.ok(out);
    for (let l = 0; l < ws; l++) {
      const g = l & 7, first = l < 8, k = l >> 1, odd = (k & 1) === 1;
      const want = [
        // wrxchg2: old at 8l (the previous lane's data1 already there), old at 8l + 8 (the next lane's initial pair; past the last lane: zero)
        ...(l === 0 ? [100, 200] : [2000 + l - 1, 2100 + l - 1]),
        ...(l + 1 < ws ? [100 + l + 1, 200 + l + 1] : [0, 0]),
        // st64: old at 512 + 8g (the group's previous lane's data0; for the first lanes zero, or in wave64 at 512 the
        // last lane's data1 from the first instruction), old at 1024 + 8g (the previous lane's data1)
        ...(first ? (ws === 64 && g === 0 ? [2063, 2163] : [0, 0]) : [1000 + l - 8, 1100 + l - 8]),
        ...(first ? [0, 0] : [2000 + l - 8, 2100 + l - 8]),
        1000 + l, 1100 + l, // 8l afterwards: this lane's data0
        1000 + ws - 8 + g, 1100 + ws - 8 + g, // 512 + 8g: the group's last lane's data0
        2000 + ws - 8 + g, 2100 + ws - 8 + g, // 1024 + 8g: its data1
        // condxchg32 on pair k = (300 + k, 400 + k): lane 2k (low bit 31 clear) changes the high dword to
        // 0x7fffffff - 2k if k is odd; lane 2k + 1 sees that, then writes its low dword 5000 + l and, if k is
        // odd, its high dword 0x7fffffff - l (bit 31 cleared from 0xffffffff - l)
        300 + k, (l & 1) === 1 && odd ? 0x7fffffff - 2 * k : 400 + k,
        // the pair afterwards
        5000 + 2 * k + 1, odd ? 0x7fffffff - 2 * k - 1 : 400 + k,
      ];
      assert.deepEqual(record(out, l, n), want, `lane ${l}`);
    }
  });
}
