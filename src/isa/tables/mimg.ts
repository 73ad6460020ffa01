import type { DataType, InstrDef, OperandDef, Target } from '../types.js';

// MIMG opcodes of gfx10 (8-bit opcode: bits 24:18 of dword 0 are OP[6:0], bit 0 is OP[7]).
// Opcodes: RDNA2 ISA reference "Image Instructions"; per-target availability and every
// size rule below were checked against LLVM 19 (llvm-objdump-19) on gfx1010/gfx1013/gfx1030.
//
// The register counts of vdata and vaddr are not in the opcode: the decoder derives them from
// DMASK/D16/TFE and DIM/A16 with the per-opcode facts in `flags` (LLVM's MIMGBaseOpcode):
//  'load' | 'store' | 'atomic' | 'sample' | 'gather4' | 'bvh'   class of the opcode
//  'd16'        the opcode has a D16 form (packed 16-bit data); else D16=1 is invalid
//  'cmpswap'    atomic with a compare value (data is 2 or 4 dwords)
//  'mip'        one extra address: mip level / lod / clamp (LodOrClampOrMip)
//  'nocoord'    no coordinate addresses (get_resinfo)
//  'grad'       gradients in the address (sample_d / sample_cd)
//  'g16'        16-bit gradients (the _g16 opcodes)
//  'extra:N'    N leading extra address dwords (offset, bias, z-compare)
//  'bvh64'      image_bvh64_intersect_ray (64-bit node pointer)
// Operands: vdata (dwords from dmask etc.), vaddr (dwords from dim etc. or an NSA list), srsrc
// (8 SGPRs on gfx10 whatever R128 says; 4 for BVH), ssamp (4 SGPRs) for sample/gather4/get_lod.

const ALL: readonly Target[] = ['gfx1010', 'gfx1013', 'gfx1030'];
const GFX10_A: readonly Target[] = ['gfx1013', 'gfx1030'];

function def(
  mnemonic: string, opcode: number, flags: string[], vdataRole: OperandDef['role'], type: DataType,
  sampler: boolean, targets: readonly Target[] = ALL, float?: 'f32',
): InstrDef {
  const bvh = flags.includes('bvh');
  const operands: OperandDef[] = [
    { name: 'vdata', role: vdataRole, kind: 'vgpr', type },
    { name: 'vaddr', role: 'src', kind: 'vgpr', type: 'b32' },
    { name: 'srsrc', role: 'src', kind: 'srsrc', type: bvh ? 'b128' : 'b256', dwords: bvh ? 4 : 8 },
  ];
  if (sampler) operands.push({ name: 'ssamp', role: 'src', kind: 'ssamp', type: 'b128', dwords: 4 });
  return {
    mnemonic, family: 'MIMG', opcode, operands, implicitReads: ['EXEC'], flags,
    ...(targets === ALL ? {} : { targets }),
    ...(float ? { float } : {}),
  };
}

const load = (m: string, op: number, extra: string[] = [], targets: readonly Target[] = ALL) =>
  def(m, op, ['load', ...extra], 'dst', 'b32', false, targets);
const store = (m: string, op: number, extra: string[] = []) => def(m, op, ['store', ...extra], 'src', 'b32', false);
const atomic = (m: string, op: number, type: DataType, extra: string[] = []) =>
  def(m, op, ['atomic', ...extra], 'srcdst', type, false, ALL, type === 'f32' ? 'f32' : undefined);

/** Sample variants: suffix -> address facts (order of extra args: offset, bias, z-compare). */
interface SampleVariant { readonly suffix: string; readonly flags: readonly string[] }
function variant(suffix: string): SampleVariant {
  const parts = suffix.split('_').filter((p) => p !== '');
  let extra = 0;
  const flags: string[] = [];
  for (const p of parts) {
    if (p === 'o' || p === 'b' || p === 'c') extra++;
    else if (p === 'cl' || p === 'l') flags.push('mip');
    else if (p === 'd' || p === 'cd') flags.push('grad');
  }
  if (extra) flags.push(`extra:${extra}`);
  return { suffix, flags };
}

// image_sample* opcodes (gfx10): 0x20 + index.
const SAMPLE_SUFFIXES = [
  '', '_cl', '_d', '_d_cl', '_l', '_b', '_b_cl', '_lz', '_c', '_c_cl', '_c_d', '_c_d_cl', '_c_l', '_c_b', '_c_b_cl', '_c_lz',
  '_o', '_cl_o', '_d_o', '_d_cl_o', '_l_o', '_b_o', '_b_cl_o', '_lz_o', '_c_o', '_c_cl_o', '_c_d_o', '_c_d_cl_o', '_c_l_o', '_c_b_o', '_c_b_cl_o', '_c_lz_o',
];
// image_gather4* opcodes: 0x40 + index (no _d variants).
const GATHER_OPS: readonly [string, number][] = [
  ['', 0x40], ['_cl', 0x41], ['_l', 0x44], ['_b', 0x45], ['_b_cl', 0x46], ['_lz', 0x47],
  ['_c', 0x48], ['_c_cl', 0x49], ['_c_l', 0x4c], ['_c_b', 0x4d], ['_c_b_cl', 0x4e], ['_c_lz', 0x4f],
  ['_o', 0x50], ['_cl_o', 0x51], ['_l_o', 0x54], ['_b_o', 0x55], ['_b_cl_o', 0x56], ['_lz_o', 0x57],
  ['_c_o', 0x58], ['_c_cl_o', 0x59], ['_c_l_o', 0x5c], ['_c_b_o', 0x5d], ['_c_b_cl_o', 0x5e], ['_c_lz_o', 0x5f],
];
const CD_OPS: readonly [string, number][] = [
  ['_cd', 0x68], ['_cd_cl', 0x69], ['_c_cd', 0x6a], ['_c_cd_cl', 0x6b], ['_cd_o', 0x6c], ['_cd_cl_o', 0x6d], ['_c_cd_o', 0x6e], ['_c_cd_cl_o', 0x6f],
];
// 16-bit-gradient forms: opcode of the 32-bit-gradient form + 0x80 (gfx1010 decodes them too).
const G16_SUFFIXES = ['_d', '_d_cl', '_c_d', '_c_d_cl', '_d_o', '_d_cl_o', '_c_d_o', '_c_d_cl_o', '_cd', '_cd_cl', '_c_cd', '_c_cd_cl', '_cd_o', '_cd_cl_o', '_c_cd_o', '_c_cd_cl_o'];

const sample = (m: string, op: number, flags: readonly string[]) => def(m, op, ['sample', 'd16', ...flags], 'dst', 'f32', true);
const gather = (m: string, op: number, flags: readonly string[]) => def(m, op, ['gather4', 'd16', ...flags], 'dst', 'f32', true);

const SAMPLE_OPCODE = new Map<string, number>([
  ...SAMPLE_SUFFIXES.map((s, i) => [s, 0x20 + i] as [string, number]),
  ...CD_OPS,
]);

export const MIMG_TABLE: readonly InstrDef[] = [
  load('image_load', 0x00, ['d16']),
  load('image_load_mip', 0x01, ['d16', 'mip']),
  load('image_load_pck', 0x02),
  load('image_load_pck_sgn', 0x03),
  load('image_load_mip_pck', 0x04, ['mip']),
  load('image_load_mip_pck_sgn', 0x05, ['mip']),
  store('image_store', 0x08, ['d16']),
  store('image_store_mip', 0x09, ['d16', 'mip']),
  store('image_store_pck', 0x0a),
  store('image_store_mip_pck', 0x0b, ['mip']),
  load('image_get_resinfo', 0x0e, ['mip', 'nocoord']),
  atomic('image_atomic_swap', 0x0f, 'b32'),
  atomic('image_atomic_cmpswap', 0x10, 'b32', ['cmpswap']),
  atomic('image_atomic_add', 0x11, 'u32'),
  atomic('image_atomic_sub', 0x12, 'u32'),
  atomic('image_atomic_smin', 0x14, 'i32'),
  atomic('image_atomic_umin', 0x15, 'u32'),
  atomic('image_atomic_smax', 0x16, 'i32'),
  atomic('image_atomic_umax', 0x17, 'u32'),
  atomic('image_atomic_and', 0x18, 'b32'),
  atomic('image_atomic_or', 0x19, 'b32'),
  atomic('image_atomic_xor', 0x1a, 'b32'),
  atomic('image_atomic_inc', 0x1b, 'u32'),
  atomic('image_atomic_dec', 0x1c, 'u32'),
  atomic('image_atomic_fcmpswap', 0x1d, 'f32', ['cmpswap']),
  atomic('image_atomic_fmin', 0x1e, 'f32'),
  atomic('image_atomic_fmax', 0x1f, 'f32'),
  ...[...SAMPLE_OPCODE].map(([s, op]) => sample('image_sample' + s, op, variant(s).flags)),
  ...GATHER_OPS.map(([s, op]) => gather('image_gather4' + s, op, variant(s).flags)),
  def('image_get_lod', 0x60, ['sample'], 'dst', 'f32', true),
  gather('image_gather4h', 0x61, []),
  ...G16_SUFFIXES.map((s) => sample('image_sample' + s + '_g16', (SAMPLE_OPCODE.get(s) ?? 0) + 0x80, [...variant(s).flags, 'g16'])),
  load('image_msaa_load', 0x80, ['d16'], GFX10_A),
  def('image_bvh_intersect_ray', 0xe6, ['bvh'], 'dst', 'b32', false, GFX10_A),
  def('image_bvh64_intersect_ray', 0xe7, ['bvh', 'bvh64'], 'dst', 'b32', false, GFX10_A),
];
