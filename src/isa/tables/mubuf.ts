import type { DataType, FloatType, InstrDef, OperandDef, Target } from '../types.js';

// MUBUF opcodes (untyped buffer access through a V# resource descriptor). Opcode field: word 0
// bits [24:18] plus bit 25 as opcode bit 7 on gfx10. Sources: RDNA2 ISA reference ("MUBUF"),
// LLVM BUFInstructions.td; every opcode, target and field rule checked against LLVM 19.
//
// Operands in assembly order: vdata, vaddr, srsrc, soffset. The decoder reads them from here:
//  - vdata's type is the element type in memory (u8/i8/u16/i16 loads zero/sign-extend it into
//    the 32-bit VGPR; d16 forms write 16 bits), `dwords` is the register count without tfe; with tfe LLVM adds one dword (the
//    texture-fail status), for loads and stores alike.
//  - vaddr is optional: absent with neither offen nor idxen ("off"), one VGPR with one of them,
//    a VGPR pair (index, offset) with both.
// Flags (read by src/decode/mubuf.ts; facts LLVM 19 enforces):
//  - 'load' / 'store' / 'atomic': the kind of access.
//  - 'lds': the lds bit is accepted: the data goes to LDS at M0 instead of vdata; the form then
//    has no vdata operand and rejects tfe. Without this flag the lds bit makes the word invalid.
//  - 'noDlc': dlc must be 0 (atomics). 'noTfe': tfe must be 0 (atomics, cache invalidates).
//  - 'noOperands': the cache invalidates: no operands; offen/idxen/glc/dlc/lds/tfe must be 0,
//    every other field is ignored.
//  - 'd16': 16-bit data in the low (or, for *_d16_hi, high) half of each VGPR.
//  - 'returnsWithGlc': atomics return the memory's previous value in vdata when glc is set
//    (cmpswap: in the first half of vdata).

const EXEC_ONLY = ['EXEC'] as const;

function vdata(role: 'dst' | 'src' | 'srcdst', type: DataType, dwords: number): OperandDef {
  return { name: 'vdata', role, kind: 'vgpr', type, dwords };
}

const ADDR: readonly OperandDef[] = [
  { name: 'vaddr', role: 'src', kind: 'vgpr', type: 'u32', optional: true },
  { name: 'srsrc', role: 'src', kind: 'srsrc', type: 'b128' },
  { name: 'soffset', role: 'src', kind: 'soffset', type: 'u32' },
];

interface Extra { readonly targets?: readonly Target[]; readonly flags?: readonly string[]; readonly float?: FloatType }

function load(mnemonic: string, opcode: number, type: DataType, dwords: number, extra: Extra = {}): InstrDef {
  const flags = ['load', ...(extra.flags ?? [])];
  const lds = flags.includes('lds');
  return {
    mnemonic, family: 'MUBUF', opcode, operands: [vdata('dst', type, dwords), ...ADDR],
    implicitReads: lds ? ['EXEC', 'M0'] : EXEC_ONLY,
    ...(lds ? { implicitWrites: ['LDS'] as const } : {}),
    flags,
    ...(extra.targets ? { targets: extra.targets } : {}),
  };
}

function store(mnemonic: string, opcode: number, type: DataType, dwords: number, extra: Extra = {}): InstrDef {
  return {
    mnemonic, family: 'MUBUF', opcode, operands: [vdata('src', type, dwords), ...ADDR],
    implicitReads: EXEC_ONLY, flags: ['store', ...(extra.flags ?? [])],
    ...(extra.targets ? { targets: extra.targets } : {}),
  };
}

function atomic(mnemonic: string, opcode: number, type: DataType, dwords: number, extra: Extra = {}): InstrDef {
  return {
    mnemonic, family: 'MUBUF', opcode, operands: [vdata('srcdst', type, dwords), ...ADDR],
    implicitReads: EXEC_ONLY, flags: ['atomic', 'returnsWithGlc', 'noDlc', 'noTfe', ...(extra.flags ?? [])],
    ...(extra.float ? { float: extra.float } : {}),
    ...(extra.targets ? { targets: extra.targets } : {}),
  };
}

function invalidate(mnemonic: string, opcode: number): InstrDef {
  return { mnemonic, family: 'MUBUF', opcode, operands: [], flags: ['noOperands', 'noTfe'] };
}

const LDS = { flags: ['lds'] } as const;
const D16 = { flags: ['d16'] } as const;

export const MUBUF_TABLE: readonly InstrDef[] = [
  load('buffer_load_format_x', 0, 'b32', 1, LDS),
  load('buffer_load_format_xy', 1, 'b32', 2),
  load('buffer_load_format_xyz', 2, 'b32', 3),
  load('buffer_load_format_xyzw', 3, 'b32', 4),
  store('buffer_store_format_x', 4, 'b32', 1),
  store('buffer_store_format_xy', 5, 'b32', 2),
  store('buffer_store_format_xyz', 6, 'b32', 3),
  store('buffer_store_format_xyzw', 7, 'b32', 4),
  load('buffer_load_ubyte', 8, 'u8', 1, LDS),
  load('buffer_load_sbyte', 9, 'i8', 1, LDS),
  load('buffer_load_ushort', 10, 'u16', 1, LDS),
  load('buffer_load_sshort', 11, 'i16', 1, LDS),
  load('buffer_load_dword', 12, 'b32', 1, LDS),
  load('buffer_load_dwordx2', 13, 'b64', 2),
  load('buffer_load_dwordx4', 14, 'b128', 4),
  load('buffer_load_dwordx3', 15, 'b96', 3),
  store('buffer_store_byte', 24, 'u8', 1),
  store('buffer_store_byte_d16_hi', 25, 'u8', 1, D16),
  store('buffer_store_short', 26, 'u16', 1),
  store('buffer_store_short_d16_hi', 27, 'b16', 1, D16),
  store('buffer_store_dword', 28, 'b32', 1),
  store('buffer_store_dwordx2', 29, 'b64', 2),
  store('buffer_store_dwordx4', 30, 'b128', 4),
  store('buffer_store_dwordx3', 31, 'b96', 3),
  load('buffer_load_ubyte_d16', 32, 'u8', 1, D16),
  load('buffer_load_ubyte_d16_hi', 33, 'u8', 1, D16),
  load('buffer_load_sbyte_d16', 34, 'i8', 1, D16),
  load('buffer_load_sbyte_d16_hi', 35, 'i8', 1, D16),
  load('buffer_load_short_d16', 36, 'b16', 1, D16),
  load('buffer_load_short_d16_hi', 37, 'b16', 1, D16),
  load('buffer_load_format_d16_hi_x', 38, 'b16', 1, D16),
  store('buffer_store_format_d16_hi_x', 39, 'b16', 1, D16),
  atomic('buffer_atomic_swap', 48, 'b32', 1),
  atomic('buffer_atomic_cmpswap', 49, 'b32', 2),
  atomic('buffer_atomic_add', 50, 'u32', 1),
  atomic('buffer_atomic_sub', 51, 'u32', 1),
  atomic('buffer_atomic_csub', 52, 'u32', 1, { targets: ['gfx1030'] }),
  atomic('buffer_atomic_smin', 53, 'i32', 1),
  atomic('buffer_atomic_umin', 54, 'u32', 1),
  atomic('buffer_atomic_smax', 55, 'i32', 1),
  atomic('buffer_atomic_umax', 56, 'u32', 1),
  atomic('buffer_atomic_and', 57, 'b32', 1),
  atomic('buffer_atomic_or', 58, 'b32', 1),
  atomic('buffer_atomic_xor', 59, 'b32', 1),
  atomic('buffer_atomic_inc', 60, 'u32', 1),
  atomic('buffer_atomic_dec', 61, 'u32', 1),
  atomic('buffer_atomic_fcmpswap', 62, 'f32', 2, { float: 'f32' }),
  atomic('buffer_atomic_fmin', 63, 'f32', 1, { float: 'f32' }),
  atomic('buffer_atomic_fmax', 64, 'f32', 1, { float: 'f32' }),
  atomic('buffer_atomic_swap_x2', 80, 'b64', 2),
  atomic('buffer_atomic_cmpswap_x2', 81, 'b64', 4),
  atomic('buffer_atomic_add_x2', 82, 'u64', 2),
  atomic('buffer_atomic_sub_x2', 83, 'u64', 2),
  atomic('buffer_atomic_smin_x2', 85, 'i64', 2),
  atomic('buffer_atomic_umin_x2', 86, 'u64', 2),
  atomic('buffer_atomic_smax_x2', 87, 'i64', 2),
  atomic('buffer_atomic_umax_x2', 88, 'u64', 2),
  atomic('buffer_atomic_and_x2', 89, 'b64', 2),
  atomic('buffer_atomic_or_x2', 90, 'b64', 2),
  atomic('buffer_atomic_xor_x2', 91, 'b64', 2),
  atomic('buffer_atomic_inc_x2', 92, 'u64', 2),
  atomic('buffer_atomic_dec_x2', 93, 'u64', 2),
  atomic('buffer_atomic_fcmpswap_x2', 94, 'f64', 4, { float: 'f64' }),
  atomic('buffer_atomic_fmin_x2', 95, 'f64', 2, { float: 'f64' }),
  atomic('buffer_atomic_fmax_x2', 96, 'f64', 2, { float: 'f64' }),
  invalidate('buffer_gl0_inv', 113),
  invalidate('buffer_gl1_inv', 114),
  load('buffer_load_format_d16_x', 128, 'b16', 1, D16),
  load('buffer_load_format_d16_xy', 129, 'v2b16', 1, D16),
  load('buffer_load_format_d16_xyz', 130, 'b16', 2, D16),
  load('buffer_load_format_d16_xyzw', 131, 'b16', 2, D16),
  store('buffer_store_format_d16_x', 132, 'b16', 1, D16),
  store('buffer_store_format_d16_xy', 133, 'v2b16', 1, D16),
  store('buffer_store_format_d16_xyz', 134, 'b16', 2, D16),
  store('buffer_store_format_d16_xyzw', 135, 'b16', 2, D16),
];
