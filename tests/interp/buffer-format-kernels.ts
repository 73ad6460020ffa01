// Buffer format conversion kernels (issue 7), shared by the interpreter's test
// (tests/interp/buffer-format.test.ts: expected values from the conversion rules, worked out by
// ./buffer-format-ref.ts) and the engine suite (tests/runtime/cases-buffer-format.ts: the
// recompiled kernel on lavapipe against the interpreter). Kernarg: 0 the results (lane l at
// l * 4 * RESULT_REGS.length), 8 the data (lane l's element at 8 l), 16 the store target
// (lane l at 16 l), then u32s at 24 the V#'s dword 3 (dst_sel, format, oob_select) and at 28 a
// second V#'s dword 3 for the d16 stores. Both V#s are raw (stride 0, num_records from 32).

/** Each load: its text (vdata register v[first..]) and how many VGPRs it writes. */
export interface FormatLoad { readonly asm: string; readonly first: number; readonly regs: number; readonly format: string | 'vsharp'; readonly comps: number; readonly d16: boolean; readonly hi?: boolean }

const TB = (first: number, regs: number, fmt: string, suffix: string, d16: boolean): FormatLoad => {
  const comps = suffix.length;
  const reg = regs === 1 ? `v${first}` : `v[${first}:${first + regs - 1}]`;
  return { asm: `tbuffer_load_format_${d16 ? 'd16_' : ''}${suffix} ${reg}, v1, s[8:11], 0 format:[BUF_FMT_${fmt}] offen`, first, regs, format: fmt, comps, d16 };
};

/** The loads (static formats through MTBUF, the V#'s format through MUBUF). */
export const FORMAT_LOADS: readonly FormatLoad[] = [
  TB(2, 4, '8_8_8_8_UNORM', 'xyzw', false),
  TB(6, 4, '8_8_8_8_SNORM', 'xyzw', false),
  TB(10, 4, '16_16_16_16_UNORM', 'xyzw', false),
  TB(14, 4, '16_16_16_16_SSCALED', 'xyzw', false),
  TB(18, 4, '2_10_10_10_SNORM', 'xyzw', false),
  TB(22, 4, '10_11_11_FLOAT', 'xyzw', false),
  TB(26, 4, '16_16_FLOAT', 'xyzw', false),
  TB(30, 4, '8_8_SINT', 'xyzw', false),
  TB(34, 3, '10_10_10_2_UINT', 'xyz', false),
  TB(37, 2, '8_8_8_8_UNORM', 'xyzw', true),
  TB(39, 2, '16_16_16_16_UNORM', 'xyzw', true),
  TB(41, 1, '16_16_USCALED', 'xy', true),
  TB(42, 1, '11_11_10_FLOAT', 'x', true),
  TB(43, 2, '16_16_16_16_SINT', 'xyz', true),
  TB(45, 1, '8_8_SNORM', 'xy', true),
  { asm: 'buffer_load_format_xyzw v[46:49], v1, s[8:11], 0 offen', first: 46, regs: 4, format: 'vsharp', comps: 4, d16: false },
  { asm: 'buffer_load_format_d16_hi_x v50, v1, s[8:11], 0 offen', first: 50, regs: 1, format: 'vsharp', comps: 1, d16: true, hi: true },
  { asm: 'buffer_load_format_d16_xyz v[51:52], v1, s[8:11], 0 offen', first: 51, regs: 2, format: 'vsharp', comps: 3, d16: true },
];

/** The non-format d16 loads on the same data (lane l's element at 8 l): the halves they keep. */
export const D16_LOADS = [
  'buffer_load_ubyte_d16_hi v54, v1, s[8:11], 0 offen offset:1',
  'buffer_load_sbyte_d16 v55, v1, s[8:11], 0 offen offset:2',
  'buffer_load_short_d16 v56, v1, s[8:11], 0 offen offset:3',
  'buffer_load_sbyte_d16_hi v57, v1, s[8:11], 0 offen offset:6',
  'buffer_load_ubyte_d16 v58, v1, s[8:11], 0 offen offset:7',
  'buffer_load_short_d16_hi v59, v1, s[8:11], 0 offen offset:5',
] as const;

export const RESULT_REGS: readonly number[] = [...Array.from({ length: 53 - 2 }, (_, k) => 2 + k), 54, 55, 56, 57, 58, 59];

/** The d16 stores: the V# at s[12:15] (dword 3 from kernarg 28) over the store target, lane l at 16 l. */
export const FORMAT_STORES = [
  'tbuffer_store_format_d16_xyzw v[39:40], v53, s[12:15], 0 format:[BUF_FMT_16_16_16_16_FLOAT] offen',
  'buffer_store_format_d16_hi_x v41, v53, s[12:15], 0 offen offset:8',
  'buffer_store_format_d16_xy v43, v53, s[12:15], 0 offen offset:10',
] as const;

export function formatKernel(wave64: boolean): string {
  const presets = RESULT_REGS.map((r) => `v_mov_b32 v${r}, ${`0x${(0xa5a50000 + r).toString(16)}`}`);
  return `
  s_load_dwordx8 s[16:23], s[0:1], 0x0
  s_waitcnt lgkmcnt(0)
  s_mov_b32 s8, s18
  s_and_b32 s9, s19, 0xffff
  s_mov_b32 s10, 0x${(8 * 64).toString(16)}
  s_mov_b32 s11, s22
  s_mov_b32 s12, s20
  s_and_b32 s13, s21, 0xffff
  s_mov_b32 s14, 0x${(16 * 64).toString(16)}
  s_mov_b32 s15, s23
  v_lshlrev_b32 v1, 3, v0
  v_lshlrev_b32 v53, 4, v0
  ${presets.join('\n  ')}
  ${FORMAT_LOADS.map((l) => l.asm).join('\n  ')}
  ${D16_LOADS.join('\n  ')}
  s_waitcnt vmcnt(0)
  ${FORMAT_STORES.join('\n  ')}
  v_mul_u32_u24 v61, ${4 * RESULT_REGS.length}, v0
  ${RESULT_REGS.map((r, k) => `global_store_dword v61, v${r}, s[16:17] offset:${4 * k}`).join('\n  ')}
  s_endpgm`;
}

/** dword 3 of a raw V# (oob_select 3) with dst_sel x, y, z, w and format `k`. */
export const rawDword3 = (format: number, sel = 4 | (5 << 3) | (6 << 6) | (7 << 9)): number => (sel | (format << 12) | (3 << 28)) >>> 0;

/** The data: lane l's 8 bytes at 8 l; the first lanes hold edge patterns, the rest seeded bytes. */
export function formatData(lanes: number, next: () => number): Uint8Array {
  const out = new Uint8Array(8 * lanes);
  const edges = [
    [0, 0, 0, 0, 0, 0, 0, 0], [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff],
    [0x80, 0x80, 0x00, 0x80, 0x01, 0x80, 0xff, 0x7f], [0x7f, 0x7f, 0x01, 0x00, 0xfe, 0xff, 0x00, 0x7c],
    [0x01, 0x00, 0x02, 0x00, 0x00, 0x04, 0xff, 0x03], [0x01, 0x08, 0x00, 0x7e, 0x00, 0xfc, 0x01, 0x7c],
  ];
  for (let l = 0; l < lanes; l++) for (let b = 0; b < 8; b++) out[8 * l + b] = edges[l]?.[b] ?? next() & 0xff;
  return out;
}

// ---- Converting format stores (src/float/format-store.ts) ----
// Kernarg: 0 the data (lane l: STORE_DATA_DWORDS dwords at 4 * STORE_DATA_DWORDS * l), 8 the
// store target (lane l: STORE_LANE_BYTES bytes at STORE_LANE_BYTES * l), 16 a u32: the MUBUF V#'s
// dword 3 (its format). Data in v[2:21]; both V#s raw (stride 0) over the target with num_records
// STORE_LANE_BYTES * lanes - STORE_CUT: the last lane's stores past byte STORE_LANE_BYTES - STORE_CUT
// are dropped, 16_16_16_16_USCALED's in part (each component range-checked on its own).

export const STORE_DATA_DWORDS = 20;
export const STORE_LANE_BYTES = 96;
export const STORE_CUT = 76;

/** A converting store: its text, format (or the MUBUF V#'s), components named, first data VGPR, d16, byte offset. */
export interface FormatStore { readonly asm: string; readonly format: string | 'vsharp'; readonly n: number; readonly first: number; readonly d16: boolean; readonly offset: number }

const TS = (format: string, suffix: string, first: number, offset: number, d16 = false): FormatStore => {
  const n = suffix.length, regs = d16 ? (n + 1) >> 1 : n;
  const reg = regs === 1 ? `v${first}` : `v[${first}:${first + regs - 1}]`;
  return { asm: `tbuffer_store_format_${d16 ? 'd16_' : ''}${suffix} ${reg}, v1, s[8:11], 0 format:[BUF_FMT_${format}] offen offset:${offset}`, format, n, first, d16, offset };
};

export const CONVERTING_STORES: readonly FormatStore[] = [
  TS('8_8_8_8_UNORM', 'xyzw', 2, 0),
  TS('16_16_SNORM', 'xy', 6, 4),
  TS('10_11_11_FLOAT', 'xyz', 8, 8),
  TS('2_10_10_10_SNORM', 'xyzw', 2, 12),
  TS('16_16_16_16_USCALED', 'xyzw', 11, 16),
  TS('8_SSCALED', 'x', 15, 24),
  TS('8_8_UINT', 'xy', 16, 26),
  TS('16_16_SINT', 'xy', 16, 28),
  TS('16_FLOAT', 'x', 6, 32),
  TS('11_11_10_FLOAT', 'xyz', 11, 36),
  TS('10_10_10_2_UNORM', 'xyzw', 6, 40),
  TS('8_8_8_8_SNORM', 'x', 3, 44),
  TS('16_16_16_16_UNORM', 'xy', 4, 48),
  TS('8_8_8_8_UNORM', 'xyzw', 18, 56, true),
  TS('8_8_SINT', 'xy', 20, 60, true),
  TS('11_11_10_FLOAT', 'xyz', 20, 64, true),
  { asm: 'buffer_store_format_xyzw v[2:5], v1, s[12:15], 0 offen offset:72', format: 'vsharp', n: 4, first: 2, d16: false, offset: 72 },
  { asm: 'buffer_store_format_d16_xyzw v[18:19], v1, s[12:15], 0 offen offset:80', format: 'vsharp', n: 4, first: 18, d16: true, offset: 80 },
];

/** The MUBUF V# formats the store kernel runs under (narrower than 32 bits: its d16 store refuses the 32-bit ones). */
export const STORE_VSHARP_FORMATS: readonly string[] = ['8_8_8_8_SNORM', '10_11_11_FLOAT', '16_16_16_16_FLOAT', '2_10_10_10_USCALED', '8_UNORM', '16_16_UINT', '11_11_10_SNORM', '16_SINT', '8_8_SSCALED', '10_10_10_2_SINT'];

export function storeKernel(wave64: boolean): string {
  const ws = wave64 ? 64 : 32;
  const loads = Array.from({ length: STORE_DATA_DWORDS / 4 }, (_, k) => `global_load_dwordx4 v[${2 + 4 * k}:${5 + 4 * k}], v22, s[16:17] offset:${16 * k}`);
  return `
  s_load_dwordx4 s[16:19], s[0:1], 0x0
  s_load_dword s20, s[0:1], 0x10
  s_waitcnt lgkmcnt(0)
  s_mov_b32 s8, s18
  s_and_b32 s9, s19, 0xffff
  s_mov_b32 s10, 0x${(STORE_LANE_BYTES * ws - STORE_CUT).toString(16)}
  s_mov_b32 s11, 0x${rawDword3(1).toString(16)}
  s_mov_b32 s12, s18
  s_and_b32 s13, s19, 0xffff
  s_mov_b32 s14, s10
  s_mov_b32 s15, s20
  v_mul_u32_u24 v1, ${STORE_LANE_BYTES}, v0
  v_mul_u32_u24 v22, ${4 * STORE_DATA_DWORDS}, v0
  ${loads.join('\n  ')}
  s_waitcnt vmcnt(0)
  ${CONVERTING_STORES.map((s) => s.asm).join('\n  ')}
  s_endpgm`;
}

/** The store data: per lane, dwords 0..11 f32 channels, 12..15 integers, 16..19 pairs of halves (f16 or any bits). */
export function storeData(lanes: number, ch: { f32: () => number; int: () => number; half: () => number }): Uint8Array {
  const out = new Uint8Array(4 * STORE_DATA_DWORDS * lanes);
  const v = new DataView(out.buffer);
  for (let l = 0; l < lanes; l++) {
    for (let d = 0; d < STORE_DATA_DWORDS; d++) {
      const x = d < 12 ? ch.f32() : d < 16 ? ch.int() : (ch.half() | (ch.half() << 16)) >>> 0;
      v.setUint32(4 * (STORE_DATA_DWORDS * l + d), x >>> 0, true);
    }
  }
  return out;
}
