// Scalar memory writes of gfx1010 / gfx1013 (the PS5's GPU; gfx1030 dropped them) as engine cases
// (ENGINE_SUITES, so tools/vulkan-replay runs them on a GPU too), each with the buffers the ISA's
// rules give (computed here, not by the engines): s_store_dword*, s_buffer_store_dword*, every
// s_atomic_* and s_buffer_atomic_* (32- and 64-bit, with and without glc), the cache controls
// around them, and s_get_waveid_in_workgroup, assembled by llvm-mc-19 for both targets in wave32
// and wave64. A scalar store writes sdata at base + offset + soffset with the two low address bits
// ignored, whatever EXEC holds; an atomic is done once per wave and with glc returns the old value;
// a buffer access past num_records writes nothing and an atomic there returns 0.
// tests/runtime/scalar-memory.test.ts runs them on three engines.
import type { Target } from '../../src/isa/types.js';
import { loadShaders } from '../../src/container/shader.js';
import { assembleKernels } from '../harness/kernel.js';
import { KERNARG_DIRECTIVES } from '../interp/harness.js';
import { Rng } from '../harness/rng.js';
import type { EngineCase } from './cases.js';

const OPS = ['swap', 'cmpswap', 'add', 'sub', 'smin', 'umin', 'smax', 'umax', 'and', 'or', 'xor', 'inc', 'dec'] as const;
type Op = (typeof OPS)[number];

/** The ISA's atomic rules (RDNA2 ISA, "Scalar Memory Atomics" as the vector ones): the new memory value. */
function applied(op: Op, old: bigint, d: bigint, cmp: bigint, bits: 32 | 64): bigint {
  const m = (1n << BigInt(bits)) - 1n;
  const s = (x: bigint) => BigInt.asIntN(bits, x);
  switch (op) {
    case 'swap': return d;
    case 'cmpswap': return old === cmp ? d : old;
    case 'add': return (old + d) & m;
    case 'sub': return (old - d) & m;
    case 'smin': return s(d) < s(old) ? d : old;
    case 'umin': return d < old ? d : old;
    case 'smax': return s(d) > s(old) ? d : old;
    case 'umax': return d > old ? d : old;
    case 'and': return old & d;
    case 'or': return old | d;
    case 'xor': return old ^ d;
    case 'inc': return old >= d ? 0n : old + 1n;
    case 'dec': return old === 0n || old > d ? d : old - 1n;
  }
}

const GROUPS = 6;
/** Per workgroup: 8 input dwords (buffer 0), 64 dwords of atomic targets (buffer 1), 128 result dwords (buffer 2). */
const IN = 8, SLOTS = 64, OUT = 128;
/** Where the V# of the buffer forms starts in a group's slots (bytes), and its num_records. */
const VBASE = 0xc0, NUM_RECORDS = 0x20;

/**
 * The kernel, for one wave size. s[0:1] kernarg, s2 the workgroup id. Group g: inputs i0..i7 at
 * buffer 0 + 32g into s[12:19]; slots at buffer 1 + 256g; results at buffer 2 + 512g.
 */
function body(wave64: boolean): string {
  const exec = wave64 ? 'exec' : 'exec_lo', mov = wave64 ? 's_mov_b64' : 's_mov_b32', save = wave64 ? 's[40:41]' : 's40';
  const lines: string[] = [
    's_load_dwordx4 s[4:7], s[0:1], 0x0',
    's_load_dwordx2 s[8:9], s[0:1], 0x10',
    's_waitcnt lgkmcnt(0)',
    's_lshl_b32 s10, s2, 9', // results: 512g
    's_lshl_b32 s11, s2, 5', // inputs: 32g
    's_lshl_b32 s3, s2, 8', // slots: 256g
    's_load_dwordx8 s[12:19], s[4:5], s11',
    's_add_u32 s6, s6, s3',
    's_addc_u32 s7, s7, 0',
    's_waitcnt lgkmcnt(0)',
    // Scalar stores with no lane active: they are wave operations.
    `${mov} ${save}, ${exec}`,
    `${mov} ${exec}, 0`,
    's_store_dword s12, s[8:9], s10',
    's_store_dword s13, s[8:9], s10 offset:0x7', // the two low bits ignored: at 4
    's_store_dwordx2 s[14:15], s[8:9], s10 offset:0x8',
    's_store_dwordx4 s[16:19], s[8:9], s10 offset:0x10',
    's_dcache_wb',
    's_waitcnt lgkmcnt(0)',
    // Read back what this wave stored, and store it again elsewhere.
    's_load_dwordx2 s[20:21], s[8:9], s10 offset:0x4',
    's_waitcnt lgkmcnt(0)',
    's_store_dwordx2 s[20:21], s[8:9], s10 offset:0x20',
    's_atc_probe 0, s[8:9], 0x0',
  ];
  // 32-bit atomics at slot k (4k), 64-bit ones at 0x40 + 8k; data from the inputs. cmpswap's
  // compare is the slot's value read first, xor 1 in odd groups (so it matches in even ones).
  lines.push('s_load_dword s22, s[6:7], 0x4', 's_load_dwordx2 s[24:25], s[6:7], 0x48', 's_waitcnt lgkmcnt(0)', 's_and_b32 s23, s2, 1', 's_xor_b32 s22, s22, s23', 's_xor_b32 s24, s24, s23');
  OPS.forEach((op, k) => {
    const d = 12 + (k % 8);
    if (op === 'cmpswap') lines.push(`s_mov_b32 s26, s${d}`, 's_mov_b32 s27, s22', `s_atomic_cmpswap s[26:27], s[6:7], ${4 * k} glc`);
    else lines.push(`s_mov_b32 s26, s${d}`, `s_atomic_${op} s26, s[6:7], ${4 * k}${k === 4 ? '' : ' glc'}`);
    lines.push('s_waitcnt lgkmcnt(0)', `s_store_dword s26, s[8:9], s10 offset:${0x40 + 4 * k}`);
    const p = 12 + 2 * (k % 4);
    if (op === 'cmpswap') lines.push(`s_mov_b64 s[28:29], s[${p}:${p + 1}]`, 's_mov_b64 s[30:31], s[24:25]', `s_atomic_cmpswap_x2 s[28:31], s[6:7], ${0x40 + 8 * k} glc`);
    else lines.push(`s_mov_b64 s[28:29], s[${p}:${p + 1}]`, `s_atomic_${op}_x2 s[28:29], s[6:7], ${0x40 + 8 * k}${k === 7 ? '' : ' glc'}`);
    lines.push('s_waitcnt lgkmcnt(0)', `s_store_dwordx2 s[28:29], s[8:9], s10 offset:${0x80 + 8 * k}`);
  });
  // The buffer forms through a V# over slots VBASE.. of num_records NUM_RECORDS (stride 0).
  lines.push(
    `s_add_u32 s32, s6, ${VBASE}`, 's_addc_u32 s33, s7, 0', 's_and_b32 s33, s33, 0xffff', `s_mov_b32 s34, ${NUM_RECORDS}`, 's_mov_b32 s35, 0',
    's_buffer_store_dwordx4 s[12:15], s[32:35], 0x18', // dwords at 0x18, 0x1c in range; 0x20, 0x24 not
    's_mov_b32 s36, 0x14',
    's_buffer_store_dword s17, s[32:35], s36 offset:0x1', // 0x15 -> 0x14
    's_mov_b32 s26, s18', 's_buffer_atomic_add s26, s[32:35], 0x4 glc',
    's_mov_b32 s27, s19', 's_buffer_atomic_umax s27, s[32:35], 0x1c glc',
    's_mov_b64 s[28:29], s[12:13]', 's_buffer_atomic_swap_x2 s[28:29], s[32:35], 0x1c glc', // 0x1c + 8 > num_records: nothing, returns 0
    's_mov_b64 s[30:31], s[14:15]', 's_buffer_atomic_xor_x2 s[30:31], s[32:35], 0x8 glc',
    's_mov_b32 s37, s16', 's_buffer_atomic_sub s37, s[32:35], 0x20 glc', // out of range: 0
    's_waitcnt lgkmcnt(0)',
    's_store_dwordx2 s[26:27], s[8:9], s10 offset:0x100',
    's_store_dwordx2 s[28:29], s[8:9], s10 offset:0x108',
    's_store_dwordx2 s[30:31], s[8:9], s10 offset:0x110',
    's_store_dword s37, s[8:9], s10 offset:0x118',
    's_dcache_discard s[8:9], 0x0',
    `${mov} ${exec}, ${save}`,
    's_endpgm',
  );
  return lines.join('\n');
}

const WAVEID = `
  s_load_dwordx2 s[4:5], s[0:1], 0x0
  s_get_waveid_in_workgroup s6
  s_waitcnt lgkmcnt(0)
  v_lshl_add_u32 v1, s2, 8, v0
  v_lshlrev_b32 v1, 2, v1
  v_mov_b32 v2, s6
  global_store_dword v1, v2, s[4:5]
  s_endpgm
`;

const u32 = (b: Uint8Array, k: number) => new DataView(b.buffer, b.byteOffset).getUint32(4 * k, true);

/** The expected buffers after the kernel, from the ISA's rules. */
function expected(input: Uint8Array, slots0: Uint8Array): [Uint8Array, Uint8Array, Uint8Array] {
  const slots = slots0.slice(), out = new Uint8Array(4 * OUT * GROUPS);
  const sv = new DataView(slots.buffer), ov = new DataView(out.buffer);
  const set32 = (v: DataView, byte: number, x: bigint | number) => v.setUint32(byte, Number(BigInt(x) & 0xffffffffn), true);
  const set64 = (v: DataView, byte: number, x: bigint) => { set32(v, byte, x); set32(v, byte + 4, x >> 32n); };
  for (let g = 0; g < GROUPS; g++) {
    const i = (k: number) => BigInt(u32(input, IN * g + k));
    const i64 = (k: number) => i(k) | (i(k + 1) << 32n);
    const o = 4 * OUT * g, s = 4 * SLOTS * g;
    [0, 1, 2, 3, 4, 5, 6, 7].forEach((k) => set32(ov, o + 4 * k, i(k)));
    set64(ov, o + 0x20, i64(1));
    const odd = BigInt(g & 1);
    OPS.forEach((op, k) => {
      const old = BigInt(sv.getUint32(s + 4 * k, true));
      const d = i(k % 8);
      const cmp = BigInt(sv.getUint32(s + 4, true)) ^ odd;
      set32(sv, s + 4 * k, applied(op, old, d, cmp, 32));
      set32(ov, o + 0x40 + 4 * k, k === 4 ? d : old);
      const old64 = BigInt(sv.getUint32(s + 0x40 + 8 * k, true)) | (BigInt(sv.getUint32(s + 0x44 + 8 * k, true)) << 32n);
      const d64 = i64(2 * (k % 4));
      const cmp64 = (BigInt(sv.getUint32(s + 0x48, true)) ^ odd) | (BigInt(sv.getUint32(s + 0x4c, true)) << 32n);
      set64(sv, s + 0x40 + 8 * k, applied(op, old64, d64, cmp64, 64));
      set64(ov, o + 0x80 + 8 * k, k === 7 ? d64 : old64);
    });
    const v = s + VBASE;
    set32(sv, v + 0x18, i(0));
    set32(sv, v + 0x1c, i(1));
    set32(sv, v + 0x14, i(5));
    const add = BigInt(sv.getUint32(v + 4, true));
    set32(sv, v + 4, add + i(6));
    const umax = BigInt(sv.getUint32(v + 0x1c, true));
    set32(sv, v + 0x1c, applied('umax', umax, i(7), 0n, 32));
    const x = BigInt(sv.getUint32(v + 8, true)) | (BigInt(sv.getUint32(v + 12, true)) << 32n);
    set64(sv, v + 8, x ^ i64(2));
    set32(ov, o + 0x100, add);
    set32(ov, o + 0x104, umax);
    set64(ov, o + 0x108, 0n);
    set64(ov, o + 0x110, x);
    set32(ov, o + 0x118, 0n);
  }
  return [input, slots, out];
}

/** A case and the buffers the ISA's rules leave. */
export type SmemCase = EngineCase & { readonly want: readonly Uint8Array[] };

const SMEM_TARGETS: readonly Target[] = ['gfx1013', 'gfx1010'];

export function* smemCases(): Generator<SmemCase> {
  const rng = new Rng(0x5c0e);
  for (const target of SMEM_TARGETS) {
    for (const wave64 of [false, true]) {
      const w = wave64 ? 64 : 32;
      const directives = [...KERNARG_DIRECTIVES, '.amdhsa_system_sgpr_workgroup_id_x 1'];
      const code = assembleKernels(target, [
        { name: `smem_w${w}`, body: body(wave64), wave64, sgprs: 48, directives },
        { name: `waveid_w${w}`, body: WAVEID, wave64, directives },
      ]);
      const shaders = new Map(loadShaders({ bytes: code, name: 'smem' }).map((s) => [s.info.name, s]));
      const smem = shaders.get(`smem_w${w}`), waveid = shaders.get(`waveid_w${w}`);
      if (!smem || !waveid) throw new Error('smemCases: a kernel is missing');
      // Inputs: random, with edge values the signed/unsigned rules and inc/dec turn on.
      const edges = [0, 1, 0x7fffffff, 0x80000000, 0xffffffff];
      const input = new Uint8Array(4 * IN * GROUPS).map(() => rng.u32() & 0xff);
      const slots = new Uint8Array(4 * SLOTS * GROUPS).map(() => rng.u32() & 0xff);
      const iv = new DataView(input.buffer), sv = new DataView(slots.buffer);
      for (let k = 0; k < IN * GROUPS; k += 3) iv.setUint32(4 * k, edges[rng.u32() % edges.length] ?? 0, true);
      for (let k = 0; k < SLOTS * GROUPS; k += 4) sv.setUint32(4 * k, edges[rng.u32() % edges.length] ?? 0, true);
      const name = `scalar stores and atomics ${target} wave${w}`;
      yield { name, spirvName: `smem_${target}_w${w}`, code, kernel: smem.info.name, shader: smem, buffers: [input, slots, new Uint8Array(4 * OUT * GROUPS)], grid: [GROUPS * w, 1, 1], block: [w, 1, 1], scalars: [], want: expected(input, slots) };
      const n = 512;
      const want = new Uint8Array(4 * n);
      for (let i = 0; i < n; i++) new DataView(want.buffer).setUint32(4 * i, Math.floor((i % 256) / w), true);
      yield { name: `s_get_waveid_in_workgroup ${target} wave${w}`, spirvName: `waveid_${target}_w${w}`, code, kernel: waveid.info.name, shader: waveid, buffers: [new Uint8Array(4 * n).fill(0xee)], grid: [n, 1, 1], block: [256, 1, 1], scalars: [], want: [want] };
    }
  }
}
