// The interpreter's memory units: DS (LDS, swizzle, permute), MUBUF/MTBUF through a V#, and
// scratch (MUBUF through the private segment buffer, SCRATCH and FLAT through FLAT_SCRATCH).
// OpenCL C kernels compiled by clang-19 (wave32 and wave64) are compared with pocl byte for byte;
// small llvm-mc kernels check the address and range rules, with expected values worked out here
// from the ISA rules (RDNA2 ISA reference: DS offsets, swizzle/permute lane selection, V# fields,
// buffer addressing and range checking; AMDGPUUsage: the interleaved private segment).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadShaders, type Shader } from '../../src/container/shader.js';
import { prepareDispatch } from '../../src/interp/args.js';
import { decodeBase64, encodeBase64 } from '../../src/interp/base64.js';
import { dispatch } from '../../src/interp/dispatch.js';
import { InterpError, UnimplementedError } from '../../src/interp/errors.js';
import { GlobalMemory } from '../../src/interp/memory.js';
import { scratchAddress, ScratchSetup } from '../../src/interp/scratch.js';
import { bufferAddress, parseVsharp } from '../../src/interp/units/buffer.js';
import { swizzleSource } from '../../src/interp/units/ds.js';
import { assembleShaders, type KernelSpec } from '../harness/kernel.js';
import { ints, MEM_CASES, PRIVATE_TABLE_DOC } from './mem-cases.js';

const FIX = join(import.meta.dirname, '..', 'fixtures', 'opencl');
const tmp = mkdtempSync(join(tmpdir(), 'rdna-interp-mem-'));

function compile(source: string, wave: 32 | 64): Shader[] {
  const out = join(tmp, `${source}.${wave}.o`);
  const r = spawnSync('clang-19', ['-x', 'cl', '-cl-std=CL1.2', '-target', 'amdgcn-amd-amdhsa', '-mcpu=gfx1030', '-nogpulib', '-O2', '-Wno-linker-warnings',
    '-I', FIX, '-Xclang', '-mlink-builtin-bitcode', '-Xclang', '/usr/lib/clc/gfx1030-amdgcn-mesa-mesa3d.bc', ...(wave === 64 ? ['-mwavefrontsize64'] : []),
    '-c', join(FIX, source), '-o', out], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return loadShaders({ bytes: new Uint8Array(readFileSync(out)), name: source });
}

/** pocl's buffers for one ARGS document (base64 per buffer argument). */
function pocl(source: string, doc: object): string[] {
  const a = join(tmp, `args-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(a, JSON.stringify(doc));
  const r = spawnSync('/usr/bin/python3', [join(import.meta.dirname, '..', 'harness', 'pocl-run.py'), source, a], { encoding: 'utf8', maxBuffer: 1 << 26 });
  assert.equal(r.status, 0, r.stderr);
  return (JSON.parse(r.stdout) as { buffers: { base64: string }[] }).buffers.map((b) => b.base64);
}

function interp(shader: Shader, doc: object): string[] {
  const p = prepareDispatch(doc, shader);
  dispatch(shader, { grid: p.grid, block: p.block, kernarg: p.kernarg, mem: p.mem, maxSteps: 50_000_000 });
  return p.buffers.map((b) => encodeBase64(b.bytes));
}


test('OpenCL memory kernels (LDS, __local atomics, scratch, struct copy, lane crossing) match pocl, wave32 and wave64', () => {
  const waves = ([32, 64] as const).map((w) => new Map(compile('interp-mem.cl', w).map((s) => [s.info.name, s])));
  for (const c of MEM_CASES) {
    const doc = { kernel: c.kernel, ...c.doc };
    const want = pocl(join(FIX, 'interp-mem.cl'), doc);
    waves.forEach((m, i) => {
      const s = m.get(c.kernel);
      assert.ok(s, c.kernel);
      assert.deepEqual(interp(s, doc), want, `${c.kernel} wave${i ? 64 : 32}`);
    });
  }
});

test("kernels.cl private_table (MUBUF scratch through the private segment buffer) matches pocl, wave32 and wave64", () => {
  // pocl compiles the same source without the AMDHSA work-item header (its own built-ins).
  const src = join(tmp, 'kernels-pocl.cl');
  writeFileSync(src, readFileSync(join(FIX, 'kernels.cl'), 'utf8').replace('#include "hsa-workitem.h"', ''));
  const doc = PRIVATE_TABLE_DOC;
  const want = pocl(src, doc);
  for (const w of [32, 64] as const) {
    const s = compile('kernels.cl', w).find((k) => k.info.name === 'private_table');
    assert.ok(s && s.info.scratchSize > 0, 'private_table uses scratch');
    assert.deepEqual(interp(s, doc), want, `wave${w}`);
  }
});

// ---- assembly kernels ----

/** Runs a one-workgroup assembly kernel whose kernarg holds pointers to `bufs`; returns them as dwords. */
function run(shader: Shader, lanes: number, bufs: Uint32Array[]): Uint32Array[] {
  const mem = new GlobalMemory();
  const kernarg = new Uint8Array(8 * Math.max(1, bufs.length));
  const kv = new DataView(kernarg.buffer);
  const copies = bufs.map((b) => new Uint8Array(b.buffer.slice(0)));
  copies.forEach((b, k) => kv.setBigUint64(8 * k, BigInt(mem.map(`buf${k}`, b)), true));
  dispatch(shader, { grid: [lanes, 1, 1], block: [lanes, 1, 1], kernarg, mem, maxSteps: 100_000 });
  return copies.map((b) => new Uint32Array(b.buffer));
}

const KERNARG = (n: number, extra: readonly string[] = []) => ['.amdhsa_user_sgpr_kernarg_segment_ptr 1', `.amdhsa_kernarg_size ${8 * n}`, ...extra];
/** out[lane * n + k] = v[regs[k]] through the first kernarg pointer (s[0:1] after s_load). */
function stores(regs: readonly number[], ptr = 's[0:1]'): string {
  const n = regs.length;
  return [`v_mul_u32_u24 v60, ${4 * n}, v0`, ...regs.map((r, k) => `global_store_dword v60, v${r}, ${ptr} offset:${4 * k}`), 's_endpgm'].join('\n');
}

const LDS_BODY = `
  s_load_dwordx2 s[0:1], s[0:1], 0x0
  v_lshlrev_b32 v1, 2, v0
  v_add_nc_u32 v2, 100, v0
  v_add_nc_u32 v3, 200, v0
  ds_write2_b32 v1, v2, v3 offset0:0 offset1:32
  ds_write2st64_b32 v1, v2, v3 offset0:1 offset1:2
  v_lshlrev_b32 v13, 3, v0
  ds_write_b64 v13, v[2:3] offset:1024
  v_mul_u32_u24 v28, 0x10001, v0
  v_add_nc_u32 v28, 0x80, v28
  ds_write_b32 v1, v28 offset:1536
  v_mov_b32 v23, 0x7f8
  ds_write_b32 v23, v2 offset:4
  ds_write_b32 v23, v3 offset:8
  s_waitcnt lgkmcnt(0)
  ds_read2_b32 v[4:5], v1 offset0:32 offset1:64
  ds_read2st64_b32 v[6:7], v1 offset0:2 offset1:0
  ds_read2_b64 v[14:17], v13 offset0:128 offset1:0
  ds_read2st64_b64 v[18:21], v13 offset0:2 offset1:0
  ds_read_b32 v22, v1 offset:65000
  ds_read_b64 v[24:25], v23 offset:4
  v_mov_b32 v27, 0x1234
  ds_read_u16_d16_hi v27, v1 offset:1538
  v_mov_b32 v29, 0x55550000
  ds_read_i8_d16 v29, v1 offset:1536
  ds_read_u8 v26, v1 offset:1536
  ds_read_i16 v30, v1 offset:1536
  s_waitcnt lgkmcnt(0)
${stores([4, 5, 6, 7, 14, 15, 16, 17, 18, 19, 20, 21, 22, 24, 25, 26, 27, 29, 30])}`;

test('DS read2/write2 and st64 offsets, 64-bit pairs, out-of-range reads 0 and writes dropped, sub-dword and d16 loads', () => {
  const k = assembleShaders('gfx1030', [{ name: 'ds2', body: LDS_BODY, vgprs: 64, directives: KERNARG(1, ['.amdhsa_group_segment_fixed_size 2048']) }]).get('ds2');
  assert.ok(k);
  const N = 19;
  const [out] = run(k, 32, [new Uint32Array(32 * N)]);
  assert.ok(out);
  // LDS from the ISA rules: write2 puts data0 at addr + offset0 * 4 and data1 at addr + offset1 * 4
  // (st64: units of 64 elements, 256 bytes); write_b64 at 1024 + 8l; 0x7fc holds the highest
  // lane's value; the store at 0x800 is past the 2048-byte LDS and is dropped.
  const lds = new Uint32Array(512);
  for (let l = 0; l < 32; l++) {
    lds[l] = l + 100; lds[l + 32] = l + 200; lds[64 + l] = l + 100; lds[128 + l] = l + 200;
    lds[256 + 2 * l] = l + 100; lds[257 + 2 * l] = l + 200; lds[384 + l] = l * 0x10001 + 0x80;
  }
  lds[511] = 31 + 100;
  const d = (byte: number) => lds[byte / 4] ?? 0;
  for (let l = 0; l < 32; l++) {
    const want = [
      d(4 * l + 128), d(4 * l + 256), d(4 * l + 512), d(4 * l),
      d(8 * l + 1024), d(8 * l + 1028), d(8 * l), d(8 * l + 4),
      d(8 * l + 1024), d(8 * l + 1028), d(8 * l), d(8 * l + 4),
      0, // 4l + 65000 is past the LDS
      131, 0, // the pair's second dword (0x800) is out of range
      l + 0x80, // ds_read_u8: the low byte of l * 0x10001 + 0x80
      ((l << 16) | 0x1234) >>> 0, // d16_hi: bytes 2..3 into the high half, the low half kept
      (0x5555ff00 | (l + 0x80)) >>> 0, // i8_d16: the byte sign-extended to 16 bits, the high half kept
      l + 0x80, // ds_read_i16: 0x00xx is positive
    ];
    assert.deepEqual(Array.from(out.subarray(N * l, N * l + N)), want, `lane ${l}`);
  }
});

const ATOMIC_BODY = `
  s_load_dwordx2 s[0:1], s[0:1], 0x0
  v_lshlrev_b32 v1, 3, v0
  v_add_nc_u32 v2, 5, v0
  ds_write_b32 v1, v2
  v_mov_b32 v3, 3
  v_mov_b32 v4, 100
  v_mov_b32 v5, 92
  v_mov_b32 v6, 50
  v_mov_b32 v7, 0xff
  v_lshlrev_b32 v8, 4, v0
  v_and_b32 v9, 1, v0
  v_or_b32 v9, v8, v9
  v_add_nc_u32 v16, 0xabc0, v0
  v_mov_b32 v18, 0x100
  v_mov_b32 v19, 7
  ds_add_rtn_u32 v10, v1, v3
  ds_rsub_rtn_u32 v11, v1, v4
  ds_inc_rtn_u32 v12, v1, v5
  ds_dec_rtn_u32 v13, v1, v6
  ds_mskor_rtn_b32 v14, v1, v7, v8
  ds_cmpst_rtn_b32 v15, v1, v9, v16
  ds_wrap_rtn_b32 v17, v1, v18, v19
  ds_read_b32 v28, v1
  v_lshlrev_b32 v23, 31, v0
  ds_write_b64 v1, v[0:1] offset:256
  ds_write_b32 v1, v23 offset:260
  v_mov_b32 v22, 5
  v_mov_b32 v23, 0
  ds_max_rtn_i64 v[20:21], v1, v[22:23] offset:256
  ds_read_b64 v[24:25], v1 offset:256
  v_lshlrev_b32 v30, 4, v0
  ds_write2_b32 v30, v4, v5 offset0:129 offset1:131
  ds_wrxchg2_rtn_b32 v[26:27], v30, v2, v3 offset0:129 offset1:131
  ds_read2_b32 v[31:32], v30 offset0:129 offset1:131
  s_waitcnt lgkmcnt(0)
${stores([10, 11, 12, 13, 14, 15, 17, 28, 20, 21, 24, 25, 26, 27, 31, 32])}`;

test('DS integer atomics with return (add, rsub, inc, dec, mskor, cmpst, wrap, max_i64, wrxchg2) follow the ISA rules', () => {
  const k = assembleShaders('gfx1030', [{ name: 'dsat', body: ATOMIC_BODY, vgprs: 64, directives: KERNARG(1, ['.amdhsa_group_segment_fixed_size 1024']) }]).get('dsat');
  assert.ok(k);
  const N = 16;
  const [out] = run(k, 32, [new Uint32Array(32 * N)]);
  assert.ok(out);
  for (let l = 0; l < 32; l++) {
    const got: number[] = [];
    let m = l + 5;
    const step = (f: (o: number) => number) => { got.push(m); m = f(m) >>> 0; };
    step((o) => o + 3); // add
    step((o) => 100 - o); // rsub: data - mem
    step((o) => (o >= 92 ? 0 : o + 1)); // inc
    step((o) => (o === 0 || o > 50 ? 50 : o - 1)); // dec
    step((o) => (o & ~0xff) | (l << 4)); // mskor: (mem & ~data0) | data1
    const cmp = (l << 4) | (l & 1);
    step((o) => (o === cmp ? 0xabc0 + l : o)); // cmpst: compare with data0, store data1
    step((o) => (o >= 0x100 ? o - 0x100 : o + 7)); // wrap
    got.push(m);
    // 64-bit slot: (l, l odd ? 0x80000000 : 0) as signed against 5.
    const old = BigInt(l) | (BigInt((l << 31) >>> 0) << 32n);
    const nv = BigInt.asIntN(64, old) > 5n ? old : 5n;
    got.push(Number(old & 0xffffffffn), Number(old >> 32n), Number(nv & 0xffffffffn), Number(nv >> 32n));
    got.push(100, 92, l + 5, 3); // wrxchg2 returns both old values, then holds data0 and data1
    assert.deepEqual(Array.from(out.subarray(N * l, N * l + N)), got, `lane ${l}`);
  }
});

test('ds_swizzle_b32 lane selection (bit-mask and quad-permute modes) follows the offset fields', () => {
  for (const off of [0x801b, 0x80e4, 0x8055, 0x041f, 0x001f, 0x03e0, 0x7c1f, 0x0010, 0x2aaf]) assert.equal(swizzleSource(off, 5) !== undefined, true);
  // Quad permute: lane l reads (l & ~3) + offset[2*(l&3)+1 : 2*(l&3)].
  assert.equal(swizzleSource(0x801b, 0), 3);
  assert.equal(swizzleSource(0x801b, 6), 5);
  // Bit mask: ((l & and) | or) ^ xor within 32 lanes.
  assert.equal(swizzleSource(0x041f, 6), 7);
  assert.equal(swizzleSource(0x0010 | (3 << 5), 37), 32 + ((37 & 0x10) | 3));
  assert.equal(swizzleSource(0xc000, 0), undefined);
  assert.equal(swizzleSource(0xe001, 0), undefined);
});

function laneKernels(wave64: boolean): KernelSpec[] {
  const ws = wave64 ? 64 : 32;
  const execHalf = wave64 ? 's_mov_b64 exec, 0x55555555\n  s_mov_b32 exec_hi, 0x0f0f0f0f' : 's_mov_b32 exec_lo, 0x55555555';
  const execAll = wave64 ? 's_mov_b64 exec, -1' : 's_mov_b32 exec_lo, -1';
  const body = `
  s_load_dwordx2 s[0:1], s[0:1], 0x0
  v_mul_u32_u24 v2, 3, v0
  v_add_nc_u32 v2, 7, v2
  ds_swizzle_b32 v3, v2 offset:0x801b
  ds_swizzle_b32 v4, v2 offset:0x041f
  ds_swizzle_b32 v5, v2 offset:0x${(0x1c | (1 << 5) | (2 << 10)).toString(16)}
  v_mul_u32_u24 v1, 5, v0
  v_add_nc_u32 v1, 3, v1
  v_and_b32 v1, ${ws - 1}, v1
  v_lshlrev_b32 v1, 2, v1
  ds_bpermute_b32 v6, v1, v2
  ds_bpermute_b32 v7, v1, v2 offset:4
  ds_permute_b32 v8, v1, v2
  v_mov_b32 v9, 0xdead
  v_mov_b32 v10, 0xdead
  v_mov_b32 v11, 0xdead
  ${execHalf}
  ds_bpermute_b32 v9, v1, v2
  ds_permute_b32 v10, v1, v2
  ds_swizzle_b32 v11, v2 offset:0x041f
  ${execAll}
  s_waitcnt lgkmcnt(0)
${stores([3, 4, 5, 6, 7, 8, 9, 10, 11])}`;
  return [{ name: `lanes${ws}`, body, vgprs: 64, wave64, directives: KERNARG(1) }];
}

test('ds_swizzle_b32, ds_bpermute_b32 and ds_permute_b32: lanes by the ISA rules, EXEC applied to reads and writes (wave32, wave64)', () => {
  for (const wave64 of [false, true]) {
    const ws = wave64 ? 64 : 32;
    const k = assembleShaders('gfx1030', laneKernels(wave64)).get(`lanes${ws}`);
    assert.ok(k);
    const [out] = run(k, ws, [new Uint32Array(ws * 9)]);
    assert.ok(out);
    const v2 = (l: number) => 3 * l + 7;
    const active = (l: number) => (l < 32 ? (0x55555555 >>> l) & 1 : (0x0f0f0f0f >>> (l - 32)) & 1) === 1;
    const target = (l: number) => (5 * l + 3) & (ws - 1);
    const fwd = new Array<number>(ws).fill(0), fwdHalf = new Array<number>(ws).fill(0);
    for (let l = 0; l < ws; l++) { fwd[target(l)] = v2(l); if (active(l)) fwdHalf[target(l)] = v2(l); }
    for (let l = 0; l < ws; l++) {
      const q = (l & ~3) | (3 - (l & 3));
      const bm = (l & ~31) | ((((l & 0x1c) | 1) ^ 2) & 31);
      const want = [
        v2(q), v2(l ^ 1), v2(bm), v2(target(l)), v2((target(l) + 1) & (ws - 1)), fwd[l],
        active(l) ? (active(target(l)) ? v2(target(l)) : 0) : 0xdead,
        active(l) ? fwdHalf[l] : 0xdead,
        active(l) ? (active(l ^ 1) ? v2(l ^ 1) : 0) : 0xdead,
      ];
      assert.deepEqual(Array.from(out.subarray(9 * l, 9 * l + 9)), want, `wave${ws} lane ${l}`);
    }
  }
});

// V# dword3 for the tests: DST_SEL xyzw, format 32_UINT (20), oob_select in bits 29:28.
const DW3 = (oob: number) => ((4 | (5 << 3) | (6 << 6) | (7 << 9) | (20 << 12) | (oob << 28)) >>> 0);

const BUF_BODY = `
  s_load_dwordx4 s[0:3], s[0:1], 0x0
  s_waitcnt lgkmcnt(0)
  s_mov_b32 s4, s2
  s_and_b32 s5, s3, 0xffff
  s_mov_b32 s6, 40
  s_mov_b32 s7, 0x${DW3(3).toString(16)}
  s_mov_b32 s8, s2
  s_or_b32 s9, s5, 0x${(12 << 16).toString(16)}
  s_mov_b32 s10, 5
  s_mov_b32 s11, 0x${DW3(0).toString(16)}
  s_mov_b32 s12, 8
  v_lshlrev_b32 v1, 2, v0
  buffer_load_dword v3, v1, s[4:7], 0 offen
  buffer_load_dword v4, v1, s[4:7], s12 offen
  buffer_load_dword v5, v1, s[4:7], 0 offen offset:4
  buffer_load_dwordx2 v[6:7], v1, s[4:7], 0 offen
  buffer_load_dword v8, v0, s[8:11], 0 idxen offset:4
  buffer_load_dword v9, v0, s[8:11], 0 idxen offset:12
  v_mov_b32 v20, v0
  v_mov_b32 v21, 8
  buffer_load_dword v10, v[20:21], s[8:11], 0 idxen offen
  buffer_load_ushort v11, v1, s[4:7], 0 offen offset:2
  buffer_load_sbyte v12, v1, s[4:7], 0 offen offset:3
  tbuffer_load_format_xy v[13:14], v0, s[8:11], 0 format:[BUF_FMT_32_32_UINT] idxen
  buffer_load_format_xyzw v[15:18], v0, s[8:11], 0 idxen
  s_waitcnt vmcnt(0)
  v_add_nc_u32 v2, 1000, v0
  buffer_store_dword v2, v1, s[4:7], 0 offen offset:160
  v_mov_b32 v22, 1
  buffer_atomic_add v22, v1, s[4:7], 0 offen offset:4 glc
  s_waitcnt vmcnt(0)
  global_load_dword_addtid v23, s[2:3] offset:128
  s_waitcnt vmcnt(0)
${stores([3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 22, 23])}`;

test('MUBUF/MTBUF through a V#: raw and structured range checks (out of range reads 0, stores dropped), soffset, formats, atomics; global addtid', () => {
  const k = assembleShaders('gfx1030', [{ name: 'buf', body: BUF_BODY, vgprs: 64, directives: KERNARG(2) }]).get('buf');
  assert.ok(k);
  const data = Uint32Array.from({ length: 64 }, (_, i) => (i * 0x01030507 + 0x80) >>> 0);
  const N = 18;
  const [out, after] = run(k, 32, [new Uint32Array(32 * N), data]);
  assert.ok(out && after);
  const dw = (byte: number) => data[byte / 4] ?? 0;
  // Raw (oob_select 3): a component at offset o of size n is in range iff o + n <= num_records (40);
  // soffset is not range-checked. Structured (oob_select 0, stride 12, 5 records): index < 5 and
  // offset + size <= 12.
  const raw = (o: number, n = 4, soff = 0) => (o + n <= 40 ? dw(o + soff) : 0);
  const st = (i: number, o: number) => (i < 5 && o + 4 <= 12 ? dw(12 * i + o) : 0);
  for (let l = 0; l < 32; l++) {
    const o = 4 * l;
    const half = (x: number, b: number) => (x >>> (8 * b)) & 0xffff;
    const sb = (x: number) => ((x >>> 24) << 24) >> 24;
    const fmt = (c: number) => st(l, 4 * c); // 32_UINT in the V#: one component; y, z = 0, w = 1
    const want = [
      raw(o), raw(o, 4, 8), raw(o + 4), raw(o), raw(o + 4),
      st(l, 4), st(l, 12), st(l, 8),
      o + 4 <= 40 ? half(dw(o), 2) : 0, o + 4 <= 40 ? sb(dw(o)) >>> 0 : 0,
      st(l, 0), st(l, 4),
      fmt(0), 0, 0, l < 5 ? 1 : 0,
      o + 8 <= 40 ? dw(o + 4) : 0,
      dw(128 + 4 * l), // global_load_dword_addtid: saddr + offset + lane * 4
    ];
    assert.deepEqual(Array.from(out.subarray(N * l, N * l + N)), want, `lane ${l}`);
  }
  // Stores at offset 160 + 4l are all past num_records 40: dropped. Atomics added 1 to dwords 1..9.
  for (let i = 0; i < 64; i++) assert.equal(after[i], i >= 1 && i <= 9 ? (data[i]! + 1) >>> 0 : data[i], `data[${i}]`);
});

test('the private segment buffer V# and FLAT_SCRATCH address the same interleaved scratch', () => {
  for (const ws of [32, 64] as const) {
    const setup = new ScratchSetup(new GlobalMemory(), 52, ws, 2);
    for (let w = 0; w < 2; w++) {
      const v = parseVsharp(setup.vsharp(w));
      assert.equal(v.swizzle, true);
      assert.equal(v.addTid, true);
      assert.equal(v.indexStride, ws);
      for (let lane = 0; lane < ws; lane += 7) for (let off = 0; off < 52; off += 3) {
        // MUBUF with add_tid: index = lane; the address of the swizzled buffer rule.
        const a = bufferAddress(v, 0, lane, off);
        assert.equal(a, scratchAddress(setup.bases[w]!, ws, lane, off));
        assert.equal(a, setup.bases[w]! + Math.floor(off / 4) * 4 * ws + 4 * lane + (off % 4));
      }
    }
  }
});

const SCRATCH_DIRECTIVES = [
  '.amdhsa_user_sgpr_private_segment_buffer 1', '.amdhsa_user_sgpr_kernarg_segment_ptr 1', '.amdhsa_user_sgpr_flat_scratch_init 1',
  '.amdhsa_system_sgpr_private_segment_wavefront_offset 1', '.amdhsa_private_segment_fixed_size 64', '.amdhsa_kernarg_size 8',
];
// User SGPRs: s[0:3] private segment buffer, s[4:5] kernarg, s[6:7] flat scratch init; system:
// s8 workgroup id x, s9 private segment wave offset.
const SCRATCH_BODY = `
  s_add_u32 s0, s0, s9
  s_addc_u32 s1, s1, 0
  s_add_u32 s6, s6, s9
  s_addc_u32 s7, s7, 0
  s_setreg_b32 hwreg(HW_REG_FLAT_SCR_LO), s6
  s_setreg_b32 hwreg(HW_REG_FLAT_SCR_HI), s7
  s_load_dwordx2 s[4:5], s[4:5], 0x0
  s_mov_b32 s10, 0
  s_mov_b32 s11, 16
  v_add_nc_u32 v2, 100, v0
  v_add_nc_u32 v3, 200, v0
  v_mov_b32 v1, 8
  buffer_store_dword v2, v1, s[0:3], 0 offen offset:4
  v_mov_b32 v31, 0x44332211
  scratch_store_dword off, v31, s11
  buffer_store_dwordx2 v[2:3], off, s[0:3], 0 offset:17
  v_mov_b32 v30, 0x31
  scratch_store_byte off, v30, s10 offset:40
  s_waitcnt_vscnt null, 0x0
  scratch_load_dword v4, v1, off offset:4
  scratch_load_dword v5, off, s10 offset:20
  scratch_load_dword v6, off, s11
  v_mov_b32 v20, 12
  v_mov_b32 v21, src_private_base
  flat_load_dword v7, v[20:21]
  buffer_load_ubyte v8, off, s[0:3], 0 offset:40
  scratch_load_dwordx2 v[9:10], off, s10 offset:17
  s_waitcnt vmcnt(0) lgkmcnt(0)
${stores([4, 5, 6, 7, 8, 9, 10], 's[4:5]')}`;

test('scratch: MUBUF through the private segment buffer, SCRATCH and FLAT-private through FLAT_SCRATCH see the same bytes (wave32, wave64)', () => {
  for (const wave64 of [false, true]) {
    const ws = wave64 ? 64 : 32;
    const k = assembleShaders('gfx1030', [{ name: `scr${ws}`, body: SCRATCH_BODY, vgprs: 64, wave64, directives: SCRATCH_DIRECTIVES }]).get(`scr${ws}`);
    assert.ok(k);
    const [out] = run(k, ws, [new Uint32Array(ws * 7)]);
    assert.ok(out);
    for (let l = 0; l < ws; l++) {
      // Private bytes of lane l, in store order: [12..16) = l+100; [16..20) = 0x44332211, then
      // [17..25) = (l+100, l+200) unaligned (split into bytes by the interleave); byte 40 = 0x31.
      const p = new Uint8Array(64);
      const pv = new DataView(p.buffer);
      pv.setUint32(12, l + 100, true);
      pv.setUint32(16, 0x44332211, true);
      pv.setUint32(17, l + 100, true);
      pv.setUint32(21, l + 200, true);
      p[40] = 0x31;
      const want = [pv.getUint32(12, true), pv.getUint32(20, true), pv.getUint32(16, true), pv.getUint32(12, true), 0x31, pv.getUint32(17, true), pv.getUint32(21, true)];
      assert.deepEqual(Array.from(out.subarray(7 * l, 7 * l + 7)), want, `wave${ws} lane ${l}`);
    }
  }
});

test('a scratch access past the wave\'s private segment stops the run with the pc; GDS (also ds_condxchg32_rtn_b64 gds) is unimplemented', () => {
  const specs: KernelSpec[] = [
    { name: 'past', vgprs: 16, directives: SCRATCH_DIRECTIVES, body: `
  s_add_u32 s6, s6, s9
  s_addc_u32 s7, s7, 0
  s_setreg_b32 hwreg(HW_REG_FLAT_SCR_LO), s6
  s_setreg_b32 hwreg(HW_REG_FLAT_SCR_HI), s7
  v_mov_b32 v1, 0x1000
  scratch_load_dword v2, v1, off
  s_endpgm` },
    { name: 'gds', vgprs: 16, directives: KERNARG(1, ['.amdhsa_group_segment_fixed_size 64']), body: 'v_mov_b32 v1, 0\n  ds_write_b32 v1, v0 gds\n  s_endpgm' },
    { name: 'condx', vgprs: 16, directives: KERNARG(1, ['.amdhsa_group_segment_fixed_size 64']), body: 'v_mov_b32 v1, 0\n  ds_condxchg32_rtn_b64 v[2:3], v1, v[4:5] gds\n  s_endpgm' },
  ];
  const m = assembleShaders('gfx1030', specs);
  const k = (n: string) => { const s = m.get(n); assert.ok(s); return s; };
  assert.throws(() => run(k('past'), 32, []), (e: unknown) => e instanceof InterpError && /scratch_load_dword/.test(e.message) && /outside every buffer/.test(e.message));
  assert.throws(() => run(k('gds'), 32, []), (e: unknown) => e instanceof UnimplementedError && /gds/.test(e.message));
  assert.throws(() => run(k('condx'), 32, []), (e: unknown) => e instanceof UnimplementedError && /ds_condxchg32_rtn_b64 with gds/.test(e.message));
});

test('base64 helpers round-trip (used to compare with pocl)', () => {
  const b = Uint8Array.from({ length: 37 }, (_, i) => (i * 91) & 0xff);
  assert.deepEqual(decodeBase64(encodeBase64(b)), b);
});
