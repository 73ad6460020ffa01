// Engine cases for memory and integer breadth (issue 7), part of tests/runtime/cases.ts's suites:
// every integer global/FLAT atomic (32- and 64-bit, returning and not, lanes on distinct addresses,
// all lanes of a wave on one address, four lanes to an address), MUBUF/MTBUF/s_buffer_load through
// V# descriptors at their range-checking edges, 64-bit integer VALU and every integer VOPC compare
// on generated operand sets. Inputs come from seeded Rngs, so they are the same whoever iterates.
import assert from 'node:assert/strict';
import { loadShaders, type Shader } from '../../src/container/shader.js';
import { KERNARG_DIRECTIVES } from '../interp/harness.js';
import { assembleKernels, type KernelSpec } from '../harness/kernel.js';
import { Rng } from '../harness/rng.js';
import { GFX10_BUFFER_FORMATS } from '../../src/isa/tables/mtbuf.js';
import type { EngineCase } from './cases.js';

const DIRECTIVES = ['.amdhsa_system_sgpr_workgroup_id_x 1'];

function one(spec: KernelSpec): { code: Uint8Array; shader: Shader } {
  const code = assembleKernels('gfx1030', [{ ...spec, directives: [...KERNARG_DIRECTIVES, ...DIRECTIVES, ...(spec.directives ?? [])] }]);
  const shader = loadShaders({ bytes: code, name: 'test' }).find((s) => s.info.name === spec.name);
  assert.ok(shader);
  return { code, shader };
}

const hex = (v: number) => `0x${(v >>> 0).toString(16)}`;

/** The integer atomics: name without the segment prefix, 64-bit, and whether a no-return form exists. */
const ATOMICS: readonly { readonly op: string; readonly wide: boolean }[] = [
  ...['add', 'sub', 'smin', 'umin', 'smax', 'umax', 'and', 'or', 'xor', 'swap', 'inc', 'dec', 'csub', 'cmpswap'].map((op) => ({ op, wide: false })),
  ...['add', 'sub', 'smin', 'umin', 'smax', 'umax', 'and', 'or', 'xor', 'swap', 'inc', 'dec', 'cmpswap'].map((op) => ({ op, wide: true })),
];
/** A few of them also through FLAT (64-bit VGPR addresses). */
const FLAT_ATOMICS: readonly { readonly op: string; readonly wide: boolean }[] = [{ op: 'inc', wide: true }, { op: 'cmpswap', wide: false }, { op: 'umax', wide: false }, { op: 'sub', wide: true }];

const REGION = 2048;

interface AtomicCase { readonly op: string; readonly wide: boolean; readonly seg: 'global' | 'flat' }

/**
 * Lane i (i = 64 * workgroup + lane id) of wave w, per atomic k (region k * 2048 of each buffer):
 * input buffer 0 at i * 16 holds the lane's data (and compare) dwords; in buffer 1 (memory) the
 * lane's own 8 bytes at i * 8 (returning, vdst v[12:13]), the wave's one word at 1024 + w * 8 for
 * all its lanes (returning, v[14:15]), and four lanes a word at 1536 + w * 32 + (i & 3) * 8 (no
 * return), then an xor returning v19 on the wave's one word; buffer 2 gets v[12:15] and v19 at
 * 4096k + i * 32 (preset to 0x5eedkkrr before, so lanes that return nothing show it). Lanes with
 * (i & 7) == 3 are off in EXEC during the atomics.
 */
function atomicsKernel(wave64: boolean, all: readonly AtomicCase[]): string {
  const m = wave64 ? 's[12:13]' : 's12', sv = wave64 ? 's[14:15]' : 's14', vcc = wave64 ? 'vcc' : 'vcc_lo';
  const saveexec = wave64 ? 's_and_saveexec_b64' : 's_and_saveexec_b32', or = wave64 ? 's_or_b64' : 's_or_b32', exec = wave64 ? 'exec' : 'exec_lo';
  const lines = [
    's_load_dwordx8 s[4:11], s[0:1], 0x0',
    's_waitcnt lgkmcnt(0)',
    'v_lshl_add_u32 v1, s2, 6, v0',
    'v_lshlrev_b32 v2, 4, v1',
    'v_lshlrev_b32 v3, 3, v1',
    'v_lshlrev_b32 v26, 5, v1',
    // v5: 1024 + wave * 8; v4: 1536 + wave * 32 + (i & 3) * 8.
    `v_lshrrev_b32 v6, ${wave64 ? 6 : 5}, v1`,
    'v_lshl_add_u32 v5, v6, 3, 0x400',
    'v_and_b32 v4, 3, v1',
    'v_lshlrev_b32 v4, 3, v4',
    'v_lshl_add_u32 v4, v6, 5, v4',
    'v_add_nc_u32 v4, 0x600, v4',
    'v_and_b32 v6, 7, v1',
    `v_cmp_ne_u32_e64 ${m}, 3, v6`,
  ];
  all.forEach(({ op, wide, seg }, k) => {
    const base = k * REGION;
    const data = op === 'cmpswap' ? (wide ? 'v[8:11]' : 'v[8:9]') : wide ? 'v[8:9]' : 'v8';
    const r0 = wide ? 'v[12:13]' : 'v12', r1 = wide ? 'v[14:15]' : 'v14';
    const name = `${seg}_atomic_${op}${wide ? '_x2' : ''}`;
    lines.push(
      ...[12, 13, 14, 15, 19].map((r) => `v_mov_b32 v${r}, ${hex(0x5eed0000 + (k << 4) + r)}`),
      `v_add_nc_u32 v7, ${hex(base)}, v2`,
      'global_load_dwordx4 v[8:11], v7, s[4:5]',
      's_waitcnt vmcnt(0)',
      `${saveexec} ${sv}, ${m}`,
    );
    const addrs = [`v_add_nc_u32 v16, ${hex(base)}, v3`, `v_add_nc_u32 v17, ${hex(base)}, v5`, `v_add_nc_u32 v18, ${hex(base)}, v4`];
    if (seg === 'global') {
      lines.push(...addrs,
        `${name} ${r0}, v16, ${data}, s[6:7] glc`,
        `${name} ${r1}, v17, ${data}, s[6:7] glc`,
        `${name} v18, ${data}, s[6:7]`,
        // A second instruction on the wave's shared word: all lanes of the first must come before it.
        'global_atomic_xor v19, v17, v8, s[6:7] glc');
    } else {
      // FLAT: 64-bit addresses s[6:7] + offset in v[20:21], v[22:23], v[24:25].
      lines.push(...addrs);
      for (const [lo, off] of [[20, 16], [22, 17], [24, 18]] as const) lines.push(`v_add_co_u32 v${lo}, ${vcc}, s6, v${off}`, `v_mov_b32 v${lo + 1}, s7`, `v_add_co_ci_u32_e32 v${lo + 1}, ${vcc}, 0, v${lo + 1}, ${vcc}`);
      lines.push(`${name} ${r0}, v[20:21], ${data} glc`, `${name} ${r1}, v[22:23], ${data} glc`, `${name} v[24:25], ${data}`, 'flat_atomic_xor v19, v[22:23], v8 glc');
    }
    lines.push('s_waitcnt vmcnt(0) lgkmcnt(0)', `${or} ${exec}, ${exec}, ${sv}`, `v_add_nc_u32 v7, ${hex(2 * base)}, v26`, 'global_store_dwordx4 v7, v[12:15], s[8:9]', 'global_store_dword v7, v19, s[8:9] offset:16');
  });
  lines.push('s_endpgm');
  return lines.map((l) => `  ${l}`).join('\n');
}

/** Inputs that make each atomic's corners happen: sign boundaries, inc/dec wraps, compares that hit. */
function atomicInputs(rng: Rng, all: readonly AtomicCase[], lanes: number, ws: number): { input: Uint8Array; memory: Uint8Array } {
  const input = new Uint8Array(all.length * REGION), memory = new Uint8Array(all.length * REGION);
  const iv = new DataView(input.buffer), mv = new DataView(memory.buffer);
  const edges = [0, 1, 2, 0x7fffffff, 0x80000000, 0x80000001, 0xffffffff, 0xfffffffe];
  all.forEach(({ op, wide }, k) => {
    const base = k * REGION;
    const small = op === 'inc' || op === 'dec' || op === 'csub';
    const value = () => (small ? (rng.bool(0.1) ? rng.pick(edges) : rng.int(9)) : rng.bool(0.3) ? rng.pick(edges) : rng.u32());
    // Memory: every word, both dwords (the high dword of 64-bit inc/dec small too, mostly 0).
    for (let o = 0; o < REGION; o += 4) mv.setUint32(base + o, small && (o & 4) !== 0 && wide ? (rng.bool(0.8) ? 0 : rng.pick(edges)) : value(), true);
    for (let i = 0; i < lanes; i++) {
      const at = base + 16 * i;
      const d = [value(), wide && small ? (rng.bool(0.8) ? 0 : rng.pick(edges)) : value(), value(), value()];
      if (op === 'cmpswap') {
        // The compare (dword 1, or dwords 2..3): often the lane's own word (it succeeds), or the
        // data of the lane four below (a chain of swaps on a shared word).
        const own = base + 8 * i;
        const p = rng.int(3);
        if (wide) {
          if (p === 0) { d[2] = mv.getUint32(own, true); d[3] = mv.getUint32(own + 4, true); }
          if (p === 1 && i >= 4) { d[2] = iv.getUint32(base + 16 * (i - 4), true); d[3] = iv.getUint32(base + 16 * (i - 4) + 4, true); }
        } else {
          if (p === 0) d[1] = mv.getUint32(own, true);
          if (p === 1 && i >= 4) d[1] = iv.getUint32(base + 16 * (i - 4), true);
        }
      }
      d.forEach((x, j) => iv.setUint32(at + 4 * j, x ?? 0, true));
    }
    // A wave's shared word starts at its first lane's compare value in half the waves, so the chains start.
    if (op === 'cmpswap') for (let w = 0; w < lanes / ws; w++) if (rng.bool(0.5)) {
      mv.setUint32(base + 1024 + 8 * w, iv.getUint32(base + 16 * (w * ws) + (wide ? 8 : 4), true), true);
      if (wide) mv.setUint32(base + 1024 + 8 * w + 4, iv.getUint32(base + 16 * (w * ws) + 12, true), true);
    }
  });
  return { input, memory };
}

/**
 * Every integer atomic on global and FLAT memory, wave32 and wave64, a partial last wave; a few
 * atomics per kernel (each atomic is a lane exchange with barriers, and lavapipe's compile time
 * grows faster than linearly with their number).
 */
export function* atomicCases(): Generator<EngineCase> {
  const rng = new Rng(77);
  const all: AtomicCase[] = [...ATOMICS.map((a) => ({ ...a, seg: 'global' as const })), ...FLAT_ATOMICS.map((a) => ({ ...a, seg: 'flat' as const }))];
  for (const wave64 of [false, true]) {
    for (let g = 0; g < all.length; g += 6) {
      const ops = all.slice(g, g + 6);
      const name = `atomics${wave64 ? 64 : 32}_${g / 6}`;
      const { code, shader } = one({ name, body: atomicsKernel(wave64, ops), wave64, vgprs: 32, sgprs: 24 });
      const { input, memory } = atomicInputs(rng, ops, 128, wave64 ? 64 : 32);
      yield { name: `${name} (${ops.map((o) => `${o.seg}_${o.op}${o.wide ? '_x2' : ''}`).join(' ')})`, spirvName: name, code, kernel: name, shader, buffers: [input, memory, new Uint8Array(2 * memory.length)], grid: [120, 1, 1], block: [64, 1, 1], scalars: [], writes: 2 };
    }
  }
}

/**
 * Buffer resources. Kernarg: buffers 0 (resource memory), 1 (per-lane results), 2 (store target)
 * at 0, 8, 16, then u32s: 24 the V#'s dword 1 bits 31:16 (stride, swizzle enable), 28 num_records,
 * 32 dword 3 (dst_sel, format, index stride, add_tid, oob_select), 36 soffset, 40 a byte offset
 * added to every lane's offset. V# A (s[16:19]) covers buffer 0 with the case's fields; V# B
 * (s[20:23]) buffer 2 with stride 32 and the case's other fields. Lane i: index i, dword offset
 * (i & 7) * 4 + off, byte offset (i & 7) * 4 + min((i >> 3) & 3, 2) + off (never crossing a
 * swizzle element with a short); lanes with (i & 7) == 5 are off. Loads of every kind (v20..v50,
 * presets first, so untouched registers show) and s_buffer_load go to buffer 1 at i * 256. Atomics
 * and stores are wave 0's only (waves run concurrently on a GPU and would race on shared words):
 * the atomics act on buffer 0 at soffset + 4096 (no load reads there); each store instruction writes
 * buffer 2 at its own soffset k * 4096, so no two instructions' bytes meet, and the multi-dword
 * stores stay inside their lane's record (lanes whose multi-dword stores overlap are resolved
 * dword by dword: docs/TECHNICAL_DEBT.md).
 */
function bufferKernel(wave64: boolean, swizzled: boolean): string {
  const m = wave64 ? 's[30:31]' : 's30', sv = wave64 ? 's[32:33]' : 's32';
  const saveexec = wave64 ? 's_and_saveexec_b64' : 's_and_saveexec_b32', or = wave64 ? 's_or_b64' : 's_or_b32', exec = wave64 ? 'exec' : 'exec_lo';
  const stores = [
    'buffer_store_dword v1, v[10:11], s[20:23], s26 idxen offen offset:20',
    'buffer_store_dwordx2 v[20:21], v[16:17], s[20:23], s26 idxen offen',
    'buffer_store_dwordx3 v[23:25], v10, s[20:23], s26 idxen offset:4',
    'buffer_store_dwordx4 v[26:29], v[18:19], s[20:23], s26 idxen offen',
    'buffer_store_byte v1, v[13:14], s[20:23], s26 idxen offen',
    'buffer_store_byte_d16_hi v26, v14, s[20:23], s26 offen offset:3',
    `buffer_store_short v27, v[13:14], s[20:23], s26 idxen offen offset:${swizzled ? 0 : 1}`,
    'buffer_store_short_d16_hi v28, v14, s[20:23], s26 offen',
    'buffer_store_format_xy v[20:21], v[16:17], s[20:23], s26 idxen offen',
    'tbuffer_store_format_xyz v[23:25], v[18:19], s[20:23], s26 format:[BUF_FMT_32_32_32_UINT] idxen offen',
    // Colliding lanes (index (i & 3) + 4 * (i >> 5)): bytes resolve to the highest lane.
    'buffer_store_byte v1, v9, s[20:23], s26 idxen',
  ];
  const lines = [
    's_load_dwordx8 s[4:11], s[0:1], 0x0',
    's_load_dwordx2 s[12:13], s[0:1], 0x20',
    's_load_dword s14, s[0:1], 0x28',
    's_waitcnt lgkmcnt(0)',
    's_mov_b32 s16, s4', 's_and_b32 s17, s5, 0xffff', 's_or_b32 s17, s17, s10', 's_mov_b32 s18, s11', 's_mov_b32 s19, s12',
    's_mov_b32 s20, s8', 's_and_b32 s21, s9, 0xffff', 's_and_b32 s24, s10, 0x80000000', 's_or_b32 s21, s21, s24', 's_or_b32 s21, s21, 0x200000', 's_mov_b32 s22, s11', 's_mov_b32 s23, s12',
    's_mov_b32 s3, s13',
    's_add_u32 s25, s13, 0x1000',
    'v_lshl_add_u32 v1, s2, 6, v0',
    'v_mov_b32 v10, v1',
    'v_and_b32 v11, 7, v1', 'v_lshlrev_b32 v11, 2, v11', 'v_add_nc_u32 v11, s14, v11',
    'v_bfe_u32 v12, v1, 3, 2', 'v_min_u32 v12, 2, v12', 'v_add_nc_u32 v12, v11, v12',
    'v_mov_b32 v13, v10', 'v_mov_b32 v14, v12',
    'v_and_b32 v15, 3, v1',
    'v_lshrrev_b32 v9, 5, v1', 'v_lshl_or_b32 v9, v9, 2, v15',
    // Multi-dword stores stay inside their lane's 32-byte record: (index, (i & 3) * 4 + off) and (index, (i & 3) * 4).
    'v_mov_b32 v16, v10', 'v_lshlrev_b32 v17, 2, v15', 'v_add_nc_u32 v17, s14, v17', 'v_mov_b32 v18, v10', 'v_lshlrev_b32 v19, 2, v15',
    'v_lshlrev_b32 v2, 8, v1',
    ...Array.from({ length: 37 }, (_, r) => `v_mov_b32 v${20 + r}, ${hex(0xa5000000 + (r << 16) + 0x1234)}`),
    'v_and_b32 v3, 7, v1',
    `v_cmp_ne_u32_e64 ${m}, 5, v3`,
    `${saveexec} ${sv}, ${m}`,
    'buffer_load_dword v20, v[10:11], s[16:19], s3 idxen offen',
    'buffer_load_dwordx2 v[21:22], v11, s[16:19], s3 offen offset:8',
    'buffer_load_dwordx3 v[23:25], v10, s[16:19], 0 idxen offset:4',
    'buffer_load_dwordx4 v[26:29], v[10:11], s[16:19], s3 idxen offen offset:4',
    'buffer_load_dword v30, off, s[16:19], s13 offset:12',
    'buffer_load_ubyte v31, v[13:14], s[16:19], s3 idxen offen',
    'buffer_load_sbyte v32, v14, s[16:19], s3 offen offset:2',
    'buffer_load_ushort v33, v[13:14], s[16:19], s3 idxen offen',
    'buffer_load_sshort v34, v14, s[16:19], s3 offen',
    'buffer_load_short_d16_hi v35, v[13:14], s[16:19], s3 idxen offen',
    'buffer_load_ubyte_d16 v36, v14, s[16:19], s3 offen',
    'buffer_load_sbyte_d16_hi v37, v[13:14], s[16:19], s3 idxen offen offset:1',
    'buffer_load_dword v[38:39], v[10:11], s[16:19], s3 idxen offen tfe',
    'buffer_load_format_xyzw v[40:43], v[10:11], s[16:19], s3 idxen offen',
    'tbuffer_load_format_xy v[44:45], v[10:11], s[16:19], s3 format:[BUF_FMT_32_32_FLOAT] idxen offen',
    'buffer_load_format_xy v[46:48], v10, s[16:19], s3 idxen tfe',
    's_buffer_load_dwordx4 s[36:39], s[16:19], s14',
    's_buffer_load_dword s40, s[16:19], 0x3c',
    's_waitcnt vmcnt(0) lgkmcnt(0)',
    'v_mov_b32 v49, s36', 'v_mov_b32 v50, s39', 'v_mov_b32 v51, s40',
    `v_cmp_gt_u32_e64 ${wave64 ? 's[34:35]' : 's34'}, ${wave64 ? 64 : 32}, v1`,
    `s_and_b${wave64 ? 64 : 32} ${exec}, ${exec}, ${wave64 ? 's[34:35]' : 's34'}`,
    'v_mov_b32 v52, v1',
    'buffer_atomic_add v52, v[10:11], s[16:19], s25 idxen offen glc',
    'v_mov_b32 v53, v20', 'v_mov_b32 v54, v1',
    'buffer_atomic_cmpswap v[53:54], v[10:11], s[16:19], s25 idxen offen offset:4 glc',
    'buffer_atomic_umax v1, v15, s[16:19], s25 idxen',
    'v_mov_b32 v55, v1',
    'buffer_atomic_swap v55, v15, s[16:19], s25 idxen glc',
    ...(swizzled ? [] : ['v_mov_b32 v56, 3', 'v_mov_b32 v57, 0', 'buffer_atomic_inc_x2 v[56:57], v[10:11], s[16:19], s25 idxen offen offset:32 glc']),
    's_waitcnt vmcnt(0)',
    `${or} ${exec}, ${exec}, ${sv}`,
    `${saveexec} ${sv}, ${m}`,
    `s_and_b${wave64 ? 64 : 32} ${exec}, ${exec}, ${wave64 ? 's[34:35]' : 's34'}`,
    ...stores.flatMap((st, k) => [`s_mov_b32 s26, ${hex(k * 0x1000)}`, st]),
    `${or} ${exec}, ${exec}, ${sv}`,
    's_waitcnt vmcnt(0)',
    ...Array.from({ length: 10 }, (_, q) => `global_store_dwordx4 v2, v[${20 + 4 * q}:${23 + 4 * q}], s[6:7] offset:${16 * q}`),
    's_endpgm',
  ];
  return lines.map((l) => `  ${l}`).join('\n');
}

/** A V# configuration: dword 1's high half, num_records, dword 3, soffset, the lanes' extra offset. */
interface BufferConfig { readonly what: string; readonly w1hi: number; readonly nr: number; readonly w3: number; readonly soffset: number; readonly off: number }

const SEL_XYZW = 4 | (5 << 3) | (6 << 6) | (7 << 9);
const fmt = (name: string) => { const k = GFX10_BUFFER_FORMATS.indexOf(`BUF_FMT_${name}`); assert.ok(k > 0, name); return k << 12; };
const w3 = (o: { sel?: number; format: string; is?: number; tid?: boolean; oob: number }) => ((o.sel ?? SEL_XYZW) | fmt(o.format) | ((o.is ?? 0) << 21) | (o.tid ? 1 << 23 : 0) | (o.oob << 28)) >>> 0;

/** The cases: each oob_select at the last in-range dword and the first out, strides including 0, swizzling, add_tid, null V#. */
const BUFFER_CONFIGS: readonly (BufferConfig & { readonly swizzled: boolean })[] = [
  { what: 'raw (oob 3), stride 16, num_records 202 bytes (a partial dword at the end)', w1hi: 16 << 16, nr: 202, w3: w3({ format: '32_32_32_32_UINT', oob: 3 }), soffset: 8, off: 0, swizzled: false },
  { what: 'raw, stride 0 (every index the same record), 20 bytes', w1hi: 0, nr: 20, w3: w3({ format: '32_32_FLOAT', oob: 3 }), soffset: 0, off: 4, swizzled: false },
  { what: 'structured (oob 0), stride 24, 40 records: offsets past the stride', w1hi: 24 << 16, nr: 40, w3: w3({ format: '32_32_32_FLOAT', oob: 0, sel: 1 | (4 << 3) | (7 << 6) | (5 << 9) }), soffset: 4, off: 0, swizzled: false },
  { what: 'index only (oob 1), stride 12, 30 records', w1hi: 12 << 16, nr: 30, w3: w3({ format: '32_SINT', oob: 1, sel: 7 | (6 << 3) | (4 << 6) | (0 << 9) }), soffset: 0, off: 8, swizzled: false },
  { what: 'unchecked (oob 2), stride 8, num_records 5', w1hi: 8 << 16, nr: 5, w3: w3({ format: '32_32_32_32_FLOAT', oob: 2 }), soffset: 16, off: 0, swizzled: false },
  { what: 'a null V# (oob 2, num_records 0): everything out of range', w1hi: 8 << 16, nr: 0, w3: w3({ format: '32_UINT', oob: 2 }), soffset: 0, off: 0, swizzled: false },
  { what: 'add_tid_enable, raw, stride 4', w1hi: 4 << 16, nr: 300, w3: w3({ format: '32_32_UINT', oob: 3, tid: true }), soffset: 0, off: 0, swizzled: false },
  { what: 'swizzled, index stride 8, raw, stride 16', w1hi: (16 << 16) | 0x80000000, nr: 700, w3: w3({ format: '32_32_32_32_UINT', oob: 3, is: 0 }), soffset: 0, off: 0, swizzled: true },
  { what: 'swizzled, index stride 16, structured, stride 32, 50 records', w1hi: (32 << 16) | 0x80000000, nr: 50, w3: w3({ format: '32_32_FLOAT', oob: 0, is: 1 }), soffset: 4, off: 4, swizzled: true },
  { what: 'swizzled, index stride 64, index only, stride 20', w1hi: (20 << 16) | 0x80000000, nr: 45, w3: w3({ format: '32_UINT', oob: 1, is: 3 }), soffset: 0, off: 0, swizzled: true },
];

/** MUBUF/MTBUF loads, stores and atomics and s_buffer_load under each V# configuration, wave32 and wave64. */
export function* bufferCases(): Generator<EngineCase> {
  const rng = new Rng(88);
  for (const wave64 of [false, true]) {
    for (const swizzled of [false, true]) {
      const name = `buffers${wave64 ? 64 : 32}${swizzled ? '_swz' : ''}`;
      const { code, shader } = one({ name, body: bufferKernel(wave64, swizzled), wave64, vgprs: 64, sgprs: 48 });
      for (const c of BUFFER_CONFIGS.filter((x) => x.swizzled === swizzled)) {
        const resource = Uint8Array.from({ length: 12288 }, () => rng.u32() & 0xff);
        yield {
          name: `${name}: ${c.what}`, spirvName: name, code, kernel: name, shader,
          buffers: [resource, new Uint8Array(64 * 256), new Uint8Array(11 * 4096 + 2048)], grid: [64, 1, 1], block: [64, 1, 1],
          scalars: [[24, c.w1hi >>> 0], [28, c.nr], [32, c.w3], [36, c.soffset], [40, c.off]], writes: 1,
        };
      }
    }
  }
}
