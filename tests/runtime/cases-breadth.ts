// Engine cases for memory and integer breadth (issue 7), part of tests/runtime/cases.ts's suites:
// every integer global/FLAT atomic (32- and 64-bit, returning and not, lanes on distinct addresses,
// all lanes of a wave on one address, four lanes to an address), MUBUF/MTBUF/s_buffer_load through
// V# descriptors at their range-checking edges, 64-bit integer VALU and every integer VOPC compare
// on generated operand sets. Inputs come from seeded Rngs, so they are the same whoever iterates.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { loadShaders, type Shader } from '../../src/container/shader.js';
import { KERNARG_DIRECTIVES } from '../interp/harness.js';
import { assembleKernels, type KernelSpec } from '../harness/kernel.js';
import { buildOpenCl } from '../harness/opencl.js';
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

/**
 * 64-bit MUBUF atomics (add, inc, cmpswap, umax; returning) through a raw V# of stride 16 over
 * buffer 0, at 8-byte aligned addresses (index lane & 15, offset (lane & 1) * 8: lanes collide, so
 * the returns show the lane order), one wave (a GPU would run several waves' atomics concurrently).
 * A misaligned one is a run-time fault on Vulkan (breadth.test.ts).
 */
export function* buffer64Cases(): Generator<EngineCase> {
  const rng = new Rng(64);
  for (const wave64 of [false, true]) {
    const name = `buffer_atomics64_${wave64 ? 64 : 32}`;
    const body = `
  s_load_dwordx4 s[4:7], s[0:1], 0x0
  s_waitcnt lgkmcnt(0)
  s_mov_b32 s8, s4
  s_and_b32 s9, s5, 0xffff
  s_or_b32 s9, s9, 0x100000
  s_mov_b32 s10, 0x400
  s_mov_b32 s11, ${hex(3 << 28)}
  v_and_b32 v5, 15, v0
  v_and_b32 v6, 1, v0
  v_lshlrev_b32 v6, 3, v6
  v_mov_b32 v2, v0
  v_mov_b32 v3, 0x1234
  buffer_atomic_add_x2 v[2:3], v[5:6], s[8:11], 0 idxen offen glc
  v_mov_b32 v7, 5
  v_mov_b32 v8, 0
  buffer_atomic_inc_x2 v[7:8], v[5:6], s[8:11], 0 idxen offen offset:256 glc
  v_mov_b32 v9, v0
  v_mov_b32 v10, 0
  v_mov_b32 v11, 0
  v_mov_b32 v12, 0
  buffer_atomic_cmpswap_x2 v[9:12], v[5:6], s[8:11], 0 idxen offen offset:512 glc
  v_mul_u32_u24 v13, 0x10001, v0
  v_mov_b32 v14, v0
  buffer_atomic_umax_x2 v[13:14], v[5:6], s[8:11], 0 idxen offen offset:768 glc
  s_waitcnt vmcnt(0)
  v_lshlrev_b32 v1, 6, v0
  global_store_dwordx4 v1, v[2:5], s[6:7]
  global_store_dwordx4 v1, v[7:10], s[6:7] offset:16
  global_store_dwordx2 v1, v[13:14], s[6:7] offset:32
  s_endpgm`;
    const { code, shader } = one({ name, body, wave64, vgprs: 16, sgprs: 16 });
    const ws = wave64 ? 64 : 32;
    const memory = Uint8Array.from({ length: 1024 }, (_, i) => ((i >> 8) === 1 ? (i & 7) === 0 ? rng.int(8) : 0 : (i >> 8) === 2 && rng.bool(0.5) ? 0 : rng.u32() & 0xff));
    yield { name, spirvName: name, code, kernel: name, shader, buffers: [memory, new Uint8Array(64 * ws)], grid: [ws, 1, 1], block: [ws, 1, 1], scalars: [], writes: 1 };
  }
}

/** 32-bit operand values at the signed/unsigned boundaries. */
const EDGES32 = [0, 1, 2, 0x7ffffffe, 0x7fffffff, 0x80000000, 0x80000001, 0xfffffffe, 0xffffffff, 0x0000ffff, 0x00010000, 0x00007fff, 0xffff8000];
/** 64-bit values as [lo, hi]: the boundaries, and pairs whose high dwords agree and low dwords decide. */
const EDGES64: readonly (readonly [number, number])[] = [[0, 0], [1, 0], [0xffffffff, 0xffffffff], [0xfffffffe, 0xffffffff], [0xffffffff, 0x7fffffff], [0, 0x80000000], [1, 0x80000000],
  [0, 1], [0xffffffff, 0], [0x80000000, 0], [0x80000000, 0xffffffff], [0x7fffffff, 0xffffffff], [0, 0x7fffffff]];

/**
 * Operand pairs for lane i at input + 16i: a = dwords 0..1, b = dwords 2..3. A mix of boundary
 * values, b equal to a, b = a ± 1 in either dword, and random bits, so every predicate gets both
 * answers and every signed/unsigned disagreement appears.
 */
function operandPairs(rng: Rng, lanes: number): Uint8Array {
  const out = new Uint8Array(16 * lanes), v = new DataView(out.buffer);
  const one = (): [number, number] => {
    const p = rng.int(4);
    if (p === 0) return [...rng.pick(EDGES64)];
    if (p === 1) return [rng.pick(EDGES32), rng.pick(EDGES32)];
    return [rng.u32(), rng.bool(0.3) ? rng.pick([0, 0xffffffff]) : rng.u32()];
  };
  for (let i = 0; i < lanes; i++) {
    const a = one();
    const q = rng.int(5);
    const b: [number, number] = q === 0 ? [...a] : q === 1 ? [(a[0] + (rng.bool() ? 1 : -1)) >>> 0, a[1]] : q === 2 ? [a[0], (a[1] + (rng.bool() ? 1 : -1)) >>> 0] : one();
    [a[0], a[1], b[0], b[1]].forEach((x, k) => v.setUint32(16 * i + 4 * k, x >>> 0, true));
  }
  return out;
}

const INT_PREDICATES = ['f', 'lt', 'eq', 'le', 'gt', 'ne', 'ge', 't'] as const;

/**
 * Every integer compare of 32 and 64 bits (v_cmp: e32 into VCC and e64 into an SGPR mask, with a
 * constant or SGPR operand too; v_cmpx: EXEC), v_cmp_class_f64, on operands a = v[3:4], b =
 * v[5:6]: lane i stores, at out + 64i, one bit per compare (e32 forms, e64 forms, cmpx forms) and
 * the masks read back through s_mov into a VGPR (the whole wave's mask in every lane).
 */
function compareKernel(wave64: boolean): string {
  const vcc = wave64 ? 'vcc' : 'vcc_lo', exec = wave64 ? 'exec' : 'exec_lo', sm = wave64 ? 's[20:21]' : 's20', sv = wave64 ? 's[22:23]' : 's22';
  const mov = wave64 ? 's_mov_b64' : 's_mov_b32';
  const lines = [
    's_load_dwordx4 s[4:7], s[0:1], 0x0',
    's_waitcnt lgkmcnt(0)',
    'v_lshl_add_u32 v1, s2, 6, v0',
    'v_lshlrev_b32 v2, 4, v1',
    'global_load_dwordx4 v[3:6], v2, s[4:5]',
    's_waitcnt vmcnt(0)',
    'v_readfirstlane_b32 s8, v3', 'v_readfirstlane_b32 s9, v4',
    ...[10, 11, 12, 13, 14, 15, 16].map((r) => `v_mov_b32 v${r}, 0`),
  ];
  // acc v10: e32 32-bit (i32, u32: 16 bits), v11: e32 64-bit; v12: e64 forms with a constant/SGPR
  // operand; v13, v14: cmpx forms (32-bit, 64-bit); v15: class; v16: XOR of the masks' dwords.
  const accBit = (acc: number, bit: number, mask: string) => [`v_cndmask_b32_e64 v17, 0, 1, ${mask}`, `v_lshl_or_b32 v${acc}, v17, ${bit}, v${acc}`];
  const halves = (mask: string): string[] => {
    if (!wave64) return [mask];
    const pair = /^s\[(\d+):(\d+)\]$/.exec(mask);
    return pair ? [`s${pair[1]}`, `s${pair[2]}`] : [`${mask}_lo`, `${mask}_hi`];
  };
  const foldMask = (mask: string) => [...halves(mask).map((h) => `v_xor_b32 v16, ${h}, v16`), 'v_alignbit_b32 v16, v16, v16, 7'];
  let bit = 0;
  for (const t of ['i32', 'u32']) for (const p of INT_PREDICATES) { lines.push(`v_cmp_${p}_${t} ${vcc}, v3, v5`, ...accBit(10, bit, vcc), ...foldMask(vcc)); bit++; }
  bit = 0;
  for (const t of ['i64', 'u64']) for (const p of INT_PREDICATES) { lines.push(`v_cmp_${p}_${t} ${vcc}, v[3:4], v[5:6]`, ...accBit(11, bit, vcc), ...foldMask(vcc)); bit++; }
  bit = 0;
  // e64 forms: an inline constant, a literal (32-bit) or the SGPR pair s[8:9] (the first lane's a) as one operand.
  for (const [t, other] of [['i32', '-1'], ['u32', '0x80000000'], ['i64', 's[8:9]'], ['u64', '-2'], ['i32', 's8'], ['u32', '64']] as const) {
    for (const p of ['lt', 'le', 'gt', 'ge']) {
      const a = t.endsWith('64') ? 'v[3:4]' : 'v3';
      lines.push(`v_cmp_${p}_${t}_e64 ${sm}, ${bit % 2 ? a : other}, ${bit % 2 ? other : a}`, ...accBit(12, bit, sm), ...foldMask(sm));
      bit++;
    }
  }
  for (const [acc, ts] of [[13, ['i32', 'u32']], [14, ['i64', 'u64']]] as const) {
    bit = 0;
    for (const t of ts) for (const p of INT_PREDICATES) {
      const [a, b] = t.endsWith('64') ? ['v[3:4]', 'v[5:6]'] : ['v3', 'v5'];
      lines.push(`${mov} ${sv}, ${exec}`, 'v_mov_b32 v17, 0', `v_cmpx_${p}_${t} ${a}, ${b}`, 'v_mov_b32 v17, 1', ...foldMask(exec), `${mov} ${exec}, ${sv}`, `v_lshl_or_b32 v${acc}, v17, ${bit}, v${acc}`);
      bit++;
    }
  }
  // Class of a as an f64, against class masks from b's low dword and constants.
  bit = 0;
  for (const mask of ['v5', '0x3ff', '0x21', '0x90', '0x204', 's9']) { lines.push(`v_cmp_class_f64 ${vcc}, v[3:4], ${mask}`, ...accBit(15, bit, vcc)); bit++; }
  lines.push(`v_cmp_class_f64_e64 ${sm}, -|v[3:4]|, v6`, ...accBit(15, bit, sm)); bit++;
  lines.push(`${mov} ${sv}, ${exec}`, 'v_mov_b32 v17, 0', 'v_cmpx_class_f64 v[3:4], v6', 'v_mov_b32 v17, 1', `${mov} ${exec}, ${sv}`, `v_lshl_or_b32 v15, v17, ${bit}, v15`);
  lines.push('v_lshlrev_b32 v2, 5, v1', 'global_store_dwordx4 v2, v[10:13], s[6:7]', 'global_store_dwordx3 v2, v[14:16], s[6:7] offset:16', 's_endpgm');
  return lines.map((l) => `  ${l}`).join('\n');
}

/** Every integer VOPC compare and v_cmp_class_f64 on generated operand pairs, wave32 and wave64, a partial last wave. */
export function* compareCases(): Generator<EngineCase> {
  const rng = new Rng(99);
  for (const wave64 of [false, true]) {
    const name = `compares${wave64 ? 64 : 32}`;
    const { code, shader } = one({ name, body: compareKernel(wave64), wave64, vgprs: 24, sgprs: 32 });
    const input = operandPairs(rng, 256);
    // Class operands: a as special f64 values in some lanes (NaNs, infinities, zeros, subnormals).
    const v = new DataView(input.buffer);
    const specials: readonly (readonly [number, number])[] = [[0, 0x7ff00000], [0, 0xfff00000], [1, 0x7ff00000], [0, 0x7ff80000], [0, 0x80000000], [1, 0], [0, 0x000fffff], [0, 0x00100000], [0xffffffff, 0xffefffff]];
    for (let i = 0; i < 256; i += 3) { const sp = rng.pick(specials); v.setUint32(16 * i, sp[0], true); v.setUint32(16 * i + 4, sp[1], true); }
    yield { name, spirvName: name, code, kernel: name, shader, buffers: [input, new Uint8Array(32 * 256)], grid: [250, 1, 1], block: [64, 1, 1], scalars: [], writes: 1 };
  }
}

/**
 * The integer VALU ops of 32 and 64 bits the translation covers beyond the first slice, on
 * a = v3, b = v4, c = v5, d = v6 (lane i's four dwords at input + 16i; 64-bit operands v[3:4],
 * v[5:6]), each result to its own register, stored at out + 256i; the carry/overflow masks of the
 * 64-bit multiply-adds and the add/sub carry chains folded into v91, stored last.
 */
function intKernel(wave64: boolean): string {
  const vcc = wave64 ? 'vcc' : 'vcc_lo', m = (k: number) => (wave64 ? `s[${k}:${k + 1}]` : `s${k}`);
  const ops = [
    'v_ffbl_b32 v{r}, v3', 'v_ffbh_i32 v{r}, v3', 'v_ffbh_i32 v{r}, v4', 'v_ffbh_u32 v{r}, v5', 'v_xnor_b32 v{r}, v3, v4',
    'v_bfi_b32 v{r}, v3, v4, v5', 'v_bfm_b32 v{r}, v3, v4', 'v_bfm_b32 v{r}, 31, v5', 'v_alignbyte_b32 v{r}, v3, v4, v5', 'v_alignbit_b32 v{r}, v3, v4, v6',
    'v_min3_i32 v{r}, v3, v4, v5', 'v_max3_i32 v{r}, v3, v4, v5', 'v_min3_u32 v{r}, v3, v4, v5', 'v_max3_u32 v{r}, v3, v4, -1',
    'v_med3_i32 v{r}, v3, v4, v5', 'v_med3_u32 v{r}, v3, v4, v5', 'v_med3_i32 v{r}, v5, 0x80000000, v3', 'v_med3_u32 v{r}, 7, v4, v6',
    'v_sad_u8 v{r}, v3, v4, v5', 'v_sad_hi_u8 v{r}, v3, v4, v5', 'v_sad_u16 v{r}, v3, v4, v5', 'v_sad_u32 v{r}, v3, v4, v5',
    'v_lerp_u8 v{r}, v3, v4, v5', 'v_perm_b32 v{r}, v3, v4, v6', 'v_perm_b32 v{r}, v4, v3, 0x0c0d0a08', 'v_perm_b32 v{r}, v3, v5, 0x09020b07',
    'v_cvt_pk_u16_u32 v{r}, v3, v4', 'v_cvt_pk_i16_i32 v{r}, v3, v5',
    'v_mul_hi_i32 v{r}, v3, v4', 'v_mul_hi_u32 v{r}, v3, v4', 'v_mul_lo_u32 v{r}, v3, v5',
  ];
  const lines = [
    's_load_dwordx4 s[4:7], s[0:1], 0x0',
    's_waitcnt lgkmcnt(0)',
    'v_lshl_add_u32 v1, s2, 6, v0',
    'v_lshlrev_b32 v2, 4, v1',
    'global_load_dwordx4 v[3:6], v2, s[4:5]',
    's_waitcnt vmcnt(0)',
    'v_mov_b32 v91, 0',
  ];
  let r = 7;
  for (const op of ops) lines.push(op.replace('{r}', String(r++)));
  const fold = (mask: string) => [`v_cndmask_b32_e64 v90, 0, 1, ${mask}`, 'v_lshl_or_b32 v91, v91, 1, v90'];
  // 64-bit shifts (amount from b, and constants), multiply-adds with their masks, with and without clamp.
  lines.push(
    `v_lshlrev_b64 v[${r}:${r + 1}], v4, v[5:6]`, `v_lshrrev_b64 v[${r + 2}:${r + 3}], v3, v[5:6]`, `v_ashrrev_i64 v[${r + 4}:${r + 5}], v6, v[3:4]`, `v_ashrrev_i64 v[${r + 6}:${r + 7}], 63, v[5:6]`,
    `v_mad_u64_u32 v[${r + 8}:${r + 9}], ${m(10)}, v3, v4, v[5:6]`, ...fold(m(10)),
    `v_mad_i64_i32 v[${r + 10}:${r + 11}], ${m(12)}, v3, v4, v[5:6]`, ...fold(m(12)),
    `v_mad_i64_i32 v[${r + 12}:${r + 13}], ${m(14)}, v5, v6, v[3:4] clamp`, ...fold(m(14)),
    `v_mad_i64_i32 v[${r + 14}:${r + 15}], null, -1, v3, v[5:6]`,
    `v_mad_u64_u32 v[${r + 16}:${r + 17}], ${m(16)}, v5, v6, v[3:4] clamp`, ...fold(m(16)),
    // A 64-bit add and subtract as carry chains (a + b and a - b on v[3:4], v[5:6]) and subrev.
    `v_add_co_u32 v${r + 18}, ${vcc}, v3, v5`, `v_add_co_ci_u32_e32 v${r + 19}, ${vcc}, v4, v6, ${vcc}`, ...fold(vcc),
    `v_sub_co_u32 v${r + 20}, ${m(18)}, v3, v5`, `v_sub_co_ci_u32_e64 v${r + 21}, ${m(18)}, v4, v6, ${m(18)}`, ...fold(m(18)),
    `v_subrev_co_u32 v${r + 22}, ${vcc}, v3, v5`, `v_subrev_co_ci_u32_e32 v${r + 23}, ${vcc}, v4, v6, ${vcc}`, ...fold(vcc),
    // v_swap_b32 with some lanes off.
    `v_mov_b32 v${r + 24}, v3`, `v_mov_b32 v${r + 25}, v4`,
    `v_cmp_gt_u32_e32 ${vcc}, v5, v6`,
    `s_and_saveexec_b${wave64 ? 64 : 32} ${m(20)}, ${vcc}`,
    `v_swap_b32 v${r + 24}, v${r + 25}`,
    `s_or_b${wave64 ? 64 : 32} ${wave64 ? 'exec' : 'exec_lo'}, ${wave64 ? 'exec' : 'exec_lo'}, ${m(20)}`,
  );
  r += 26;
  // Results v7..v(r - 1), then the folded masks (v91) at the end of the lane's record.
  lines.push('v_lshlrev_b32 v2, 8, v1', `v_mov_b32 v${r}, v91`);
  for (let k = 7; k <= r; k += 4) {
    const n = Math.min(4, r + 1 - k);
    lines.push(`global_store_${n === 1 ? 'dword' : `dwordx${n}`} v2, ${n === 1 ? `v${k}` : `v[${k}:${k + n - 1}]`}, s[6:7] offset:${4 * (k - 7)}`);
  }
  lines.push('s_endpgm');
  if (r > 89) throw new Error(`intKernel: ${r} registers`);
  return lines.map((l) => `  ${l}`).join('\n');
}

/** The integer VALU breadth kernel on boundary-heavy operands, wave32 and wave64. */
export function* intCases(): Generator<EngineCase> {
  const rng = new Rng(111);
  for (const wave64 of [false, true]) {
    const name = `intvalu${wave64 ? 64 : 32}`;
    const { code, shader } = one({ name, body: intKernel(wave64), wave64, vgprs: 96, sgprs: 32 });
    const input = operandPairs(rng, 256);
    // v_perm selectors: bytes 0..15 in some lanes' d (dword 3).
    const v = new DataView(input.buffer);
    for (let i = 0; i < 256; i += 2) v.setUint32(16 * i + 12, (rng.int(16) | (rng.int(16) << 8) | (rng.int(16) << 16) | (rng.int(16) << 24)) >>> 0, true);
    yield { name, spirvName: name, code, kernel: name, shader, buffers: [input, new Uint8Array(256 * 256)], grid: [250, 1, 1], block: [64, 1, 1], scalars: [], writes: 1 };
  }
}

/**
 * global_load/store_dword_addtid: saddr + offset + lane id * 4 (the wave's own 256 bytes: saddr
 * moved by workgroup id * 256, one wave per workgroup), with some lanes off.
 */
export function* addtidCases(): Generator<EngineCase> {
  const rng = new Rng(123);
  for (const wave64 of [false, true]) {
    const name = `addtid${wave64 ? 64 : 32}`;
    const vcc = wave64 ? 'vcc' : 'vcc_lo', b = wave64 ? 'b64' : 'b32', exec = wave64 ? 'exec' : 'exec_lo', sv = wave64 ? 's[12:13]' : 's12';
    const body = `
  s_load_dwordx4 s[4:7], s[0:1], 0x0
  s_waitcnt lgkmcnt(0)
  s_lshl_b32 s8, s2, 8
  s_add_u32 s4, s4, s8
  s_addc_u32 s5, s5, 0
  s_add_u32 s6, s6, s8
  s_addc_u32 s7, s7, 0
  v_mov_b32 v1, 0x5eed
  v_and_b32 v2, 5, v0
  v_cmp_ne_u32_e32 ${vcc}, 4, v2
  s_and_saveexec_${b} ${sv}, ${vcc}
  global_load_dword_addtid v1, s[4:5] offset:16
  s_waitcnt vmcnt(0)
  v_add_nc_u32 v1, v1, v0
  global_store_dword_addtid v1, s[6:7] offset:8
  s_or_${b} ${exec}, ${exec}, ${sv}
  s_endpgm`;
    const { code, shader } = one({ name, body, wave64, vgprs: 8, sgprs: 16 });
    const ws = wave64 ? 64 : 32;
    yield { name, spirvName: name, code, kernel: name, shader, buffers: [Uint8Array.from({ length: 4096 + 64 }, () => rng.u32() & 0xff), new Uint8Array(4096 + 64)], grid: [8 * ws, 1, 1], block: [ws, 1, 1], scalars: [], writes: 1 };
  }
}

/**
 * ARGS.json documents (rdna run, and tests/harness/pocl-run.py) for interp-atomics.cl: n items
 * in a grid of 320 (the rest return early), shared words at their identities or random, each
 * item's own words set so that its compare-and-swap succeeds for some items and fails for others.
 */
export function atomicsArgs(kernel: 'atomics32' | 'atomics64', rng: Rng, n = 300): { kernel: string; grid: number[]; block: number[]; args: unknown[] } {
  const wide = kernel === 'atomics64';
  const big = (): bigint => (wide ? (BigInt(rng.u32()) << 32n) | BigInt(rng.u32()) : BigInt(rng.u32()));
  const data = Array.from({ length: n }, () => (rng.bool(0.2) ? BigInt(rng.pick([0, 1, 0xffffffff, 0x80000000])) * (wide && rng.bool() ? 0x100000001n : 1n) : big()));
  const all = wide ? (1n << 64n) - 1n : 0xffffffffn, sign = wide ? 1n << 63n : 0x80000000n;
  const shared = [big(), big(), all, 0n, sign - 1n, sign, all, 0n, big(), 3n, 4n, 0n, 0n, 0n, 0n, 0n];
  const own = data.flatMap((d) => {
    const small = BigInt(rng.int(10));
    return [big(), rng.bool() ? d : (d & 1n ? small : big()), small];
  });
  // 64-bit values as strings (ARGS.json), 32-bit ones as numbers.
  const val = (v: bigint): string | number => (wide ? v.toString() : Number(v));
  const words = [...shared, ...own].map(val);
  const t = wide ? 'u64' : 'u32';
  return {
    kernel, grid: [320], block: [64],
    args: [{ buffer: t, data: data.map(val) }, { buffer: t, data: words }, { buffer: t, size: (wide ? 8 : 4) * 4 * n }, { buffer: 'u32', size: 4 * n }, { u32: n }],
  };
}

/** interp-atomics.cl's kernels (clang-19) as engine cases: the same ARGS documents, laid out as prepare() does (buffers at 8k, n after them). */
export function* openclAtomicCases(): Generator<EngineCase> {
  const rng = new Rng(131);
  for (const wave64 of [false, true]) {
    const code = new Uint8Array(readFileSync(buildOpenCl('interp-atomics.cl', { wave64 })));
    for (const kernel of ['atomics32', 'atomics64'] as const) {
      const doc = atomicsArgs(kernel, rng);
      const shader = loadShaders({ bytes: code, name: 'k' }).find((s) => s.info.name === kernel);
      assert.ok(shader);
      const buffers = doc.args.slice(0, 4).map((a) => {
        const x = a as { buffer: string; data?: (number | string)[]; size?: number };
        const w = x.buffer === 'u64' ? 8 : 4;
        const b = new Uint8Array(x.size ?? w * (x.data?.length ?? 0)), v = new DataView(b.buffer);
        x.data?.forEach((d, k) => (w === 8 ? v.setBigUint64(8 * k, BigInt(d), true) : v.setUint32(4 * k, Number(d), true)));
        return b;
      });
      const n = (doc.args[4] as { u32: number }).u32;
      const name = `${kernel} wave${wave64 ? 64 : 32} (OpenCL)`;
      yield { name, spirvName: `${kernel}_${wave64 ? 64 : 32}`, code, kernel, shader, buffers, grid: [320, 1, 1], block: [64, 1, 1], scalars: [[32, n]], writes: 2 };
    }
  }
}

/**
 * v_writelane_b32 (the lane S1 mod the wave size takes S0, whatever EXEC says) and v_readlane_b32
 * with constant, out-of-range and run-time lane selects, under an EXEC with lanes off; each lane
 * stores its four results at out + 16i. Lane selects from v_readfirstlane of the input differ by wave.
 */
export function* laneCases(): Generator<EngineCase> {
  const rng = new Rng(141);
  for (const wave64 of [false, true]) {
    const name = `lanes${wave64 ? 64 : 32}`;
    const vcc = wave64 ? 'vcc' : 'vcc_lo', b = wave64 ? 'b64' : 'b32', exec = wave64 ? 'exec' : 'exec_lo', sv = wave64 ? 's[20:21]' : 's20';
    const body = `
  s_load_dwordx4 s[4:7], s[0:1], 0x0
  s_waitcnt lgkmcnt(0)
  v_lshl_add_u32 v1, s2, ${wave64 ? 6 : 5}, v0
  v_lshlrev_b32 v2, 2, v1
  global_load_dword v3, v2, s[4:5]
  s_waitcnt vmcnt(0)
  v_readfirstlane_b32 s8, v3
  s_lshr_b32 s9, s8, 8
  s_and_b32 s9, s9, 0x7f
  v_mov_b32 v4, v3
  v_xor_b32 v5, 0x55aa55aa, v3
  v_and_b32 v6, 3, v3
  v_cmp_ne_u32_e32 ${vcc}, 1, v6
  s_and_saveexec_${b} ${sv}, ${vcc}
  v_writelane_b32 v4, s8, 0
  v_writelane_b32 v4, 0x12345678, 5
  v_writelane_b32 v4, s9, ${wave64 ? 63 : 31}
  v_writelane_b32 v4, -7, 37
  v_writelane_b32 v5, s8, s9
  s_mov_b32 m0, 3
  v_writelane_b32 v5, s9, m0
  v_readlane_b32 s10, v3, s9
  v_readlane_b32 s11, v4, 37
  s_or_${b} ${exec}, ${exec}, ${sv}
  v_mov_b32 v6, s10
  v_mov_b32 v7, s11
  v_lshlrev_b32 v2, 4, v1
  global_store_dwordx4 v2, v[4:7], s[6:7]
  s_endpgm`;
    const { code, shader } = one({ name, body, wave64, vgprs: 8, sgprs: 24 });
    const n = 300;
    const input = Uint8Array.from({ length: 4 * n }, () => rng.u32() & 0xff);
    yield { name, spirvName: name, code, kernel: name, shader, buffers: [input, new Uint8Array(16 * n)], grid: [n - 10, 1, 1], block: [64, 1, 1], scalars: [], writes: 1 };
  }
}
