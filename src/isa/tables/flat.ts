import type { DataType, Family, InstrDef, OperandDef, Target } from '../types.js';

// FLAT, GLOBAL and SCRATCH opcodes of gfx10 (one FLAT encoding; the SEG field, bits 15:14 of the
// first dword, picks the family: 0 FLAT, 1 SCRATCH, 2 GLOBAL). Opcodes from the RDNA2 ISA
// reference ("FLAT, Scratch and Global Instructions"); which segment/target has which opcode was
// checked against LLVM 19 (llvm-objdump-19) on gfx1010, gfx1013 and gfx1030.
//
// Operand conventions (read by src/decode/flat.ts and src/disasm/flat.ts):
//  - vdst:  loaded data (atomics: the pre-op value, present only when GLC=1 'returns').
//  - vaddr: address VGPRs. FLAT: 64-bit. GLOBAL: 64-bit with saddr=off, else a 32-bit offset.
//           SCRATCH: 32-bit; absent ('off') when an SGPR address is used.
//  - vdata: stored data / atomic operand.
//  - saddr: GLOBAL: SGPR pair base (or 'off'); SCRATCH: one SGPR (or 'off').
// Flags:
//  - 'load' | 'store' | 'atomic': the kind of access.
//  - 'lds':  the opcode has an LDS=1 form on GLOBAL/SCRATCH (data goes to LDS at M0; no vdst).
//  - 'd16':  a 16-bit load into one half of vdst; the other half is preserved (vdst is srcdst).
//  - 'addtid': global_*_dword_addtid: address = saddr + offset + lane id * 4, no vaddr.
// implicitReads always includes EXEC; FLAT/SCRATCH also read the flat-scratch setup (not a
// register we model). LDS-form loads read M0.

const ALL_SEGS: readonly Family[] = ['FLAT', 'SCRATCH', 'GLOBAL'];
const FG: readonly Family[] = ['FLAT', 'GLOBAL'];

interface Spec {
  readonly name: string; // without the segment prefix
  readonly op: number;
  readonly segs: readonly Family[];
  readonly kind: 'load' | 'store' | 'atomic';
  readonly type: DataType;
  /** Data dwords (vdst of loads, vdata of stores/atomics). */
  readonly dwords: number;
  /** Atomic return dwords (cmpswap returns half of its data). */
  readonly ret?: number;
  readonly flags?: readonly string[];
  readonly targets?: readonly Target[];
}

const SPECS: readonly Spec[] = [
  // Loads
  { name: 'load_ubyte', op: 8, segs: ALL_SEGS, kind: 'load', type: 'u8', dwords: 1, flags: ['lds'] },
  { name: 'load_sbyte', op: 9, segs: ALL_SEGS, kind: 'load', type: 'i8', dwords: 1, flags: ['lds'] },
  { name: 'load_ushort', op: 10, segs: ALL_SEGS, kind: 'load', type: 'u16', dwords: 1, flags: ['lds'] },
  { name: 'load_sshort', op: 11, segs: ALL_SEGS, kind: 'load', type: 'i16', dwords: 1, flags: ['lds'] },
  { name: 'load_dword', op: 12, segs: ALL_SEGS, kind: 'load', type: 'b32', dwords: 1, flags: ['lds'] },
  { name: 'load_dwordx2', op: 13, segs: ALL_SEGS, kind: 'load', type: 'b64', dwords: 2 },
  { name: 'load_dwordx4', op: 14, segs: ALL_SEGS, kind: 'load', type: 'b128', dwords: 4 },
  { name: 'load_dwordx3', op: 15, segs: ALL_SEGS, kind: 'load', type: 'b96', dwords: 3 },
  { name: 'load_dword_addtid', op: 22, segs: ['GLOBAL'], kind: 'load', type: 'b32', dwords: 1, flags: ['addtid'], targets: ['gfx1030'] },
  { name: 'store_dword_addtid', op: 23, segs: ['GLOBAL'], kind: 'store', type: 'b32', dwords: 1, flags: ['addtid'], targets: ['gfx1030'] },
  // Stores
  { name: 'store_byte', op: 24, segs: ALL_SEGS, kind: 'store', type: 'u8', dwords: 1 },
  { name: 'store_byte_d16_hi', op: 25, segs: ALL_SEGS, kind: 'store', type: 'u8', dwords: 1 },
  { name: 'store_short', op: 26, segs: ALL_SEGS, kind: 'store', type: 'b16', dwords: 1 },
  { name: 'store_short_d16_hi', op: 27, segs: ALL_SEGS, kind: 'store', type: 'b16', dwords: 1 },
  { name: 'store_dword', op: 28, segs: ALL_SEGS, kind: 'store', type: 'b32', dwords: 1 },
  { name: 'store_dwordx2', op: 29, segs: ALL_SEGS, kind: 'store', type: 'b64', dwords: 2 },
  { name: 'store_dwordx4', op: 30, segs: ALL_SEGS, kind: 'store', type: 'b128', dwords: 4 },
  { name: 'store_dwordx3', op: 31, segs: ALL_SEGS, kind: 'store', type: 'b96', dwords: 3 },
  // 16-bit loads into half a VGPR
  { name: 'load_ubyte_d16', op: 32, segs: ALL_SEGS, kind: 'load', type: 'u8', dwords: 1, flags: ['d16'] },
  { name: 'load_ubyte_d16_hi', op: 33, segs: ALL_SEGS, kind: 'load', type: 'u8', dwords: 1, flags: ['d16'] },
  { name: 'load_sbyte_d16', op: 34, segs: ALL_SEGS, kind: 'load', type: 'i8', dwords: 1, flags: ['d16'] },
  { name: 'load_sbyte_d16_hi', op: 35, segs: ALL_SEGS, kind: 'load', type: 'i8', dwords: 1, flags: ['d16'] },
  { name: 'load_short_d16', op: 36, segs: ALL_SEGS, kind: 'load', type: 'b16', dwords: 1, flags: ['d16'] },
  { name: 'load_short_d16_hi', op: 37, segs: ALL_SEGS, kind: 'load', type: 'b16', dwords: 1, flags: ['d16'] },
  // 32-bit atomics
  { name: 'atomic_swap', op: 48, segs: FG, kind: 'atomic', type: 'b32', dwords: 1 },
  { name: 'atomic_cmpswap', op: 49, segs: FG, kind: 'atomic', type: 'b32', dwords: 2, ret: 1 },
  { name: 'atomic_add', op: 50, segs: FG, kind: 'atomic', type: 'u32', dwords: 1 },
  { name: 'atomic_sub', op: 51, segs: FG, kind: 'atomic', type: 'u32', dwords: 1 },
  { name: 'atomic_csub', op: 52, segs: ['GLOBAL'], kind: 'atomic', type: 'u32', dwords: 1, targets: ['gfx1030'] },
  { name: 'atomic_smin', op: 53, segs: FG, kind: 'atomic', type: 'i32', dwords: 1 },
  { name: 'atomic_umin', op: 54, segs: FG, kind: 'atomic', type: 'u32', dwords: 1 },
  { name: 'atomic_smax', op: 55, segs: FG, kind: 'atomic', type: 'i32', dwords: 1 },
  { name: 'atomic_umax', op: 56, segs: FG, kind: 'atomic', type: 'u32', dwords: 1 },
  { name: 'atomic_and', op: 57, segs: FG, kind: 'atomic', type: 'b32', dwords: 1 },
  { name: 'atomic_or', op: 58, segs: FG, kind: 'atomic', type: 'b32', dwords: 1 },
  { name: 'atomic_xor', op: 59, segs: FG, kind: 'atomic', type: 'b32', dwords: 1 },
  { name: 'atomic_inc', op: 60, segs: FG, kind: 'atomic', type: 'u32', dwords: 1 },
  { name: 'atomic_dec', op: 61, segs: FG, kind: 'atomic', type: 'u32', dwords: 1 },
  { name: 'atomic_fcmpswap', op: 62, segs: FG, kind: 'atomic', type: 'f32', dwords: 2, ret: 1 },
  { name: 'atomic_fmin', op: 63, segs: FG, kind: 'atomic', type: 'f32', dwords: 1 },
  { name: 'atomic_fmax', op: 64, segs: FG, kind: 'atomic', type: 'f32', dwords: 1 },
  // 64-bit atomics
  { name: 'atomic_swap_x2', op: 80, segs: FG, kind: 'atomic', type: 'b64', dwords: 2 },
  { name: 'atomic_cmpswap_x2', op: 81, segs: FG, kind: 'atomic', type: 'b64', dwords: 4, ret: 2 },
  { name: 'atomic_add_x2', op: 82, segs: FG, kind: 'atomic', type: 'u64', dwords: 2 },
  { name: 'atomic_sub_x2', op: 83, segs: FG, kind: 'atomic', type: 'u64', dwords: 2 },
  { name: 'atomic_smin_x2', op: 85, segs: FG, kind: 'atomic', type: 'i64', dwords: 2 },
  { name: 'atomic_umin_x2', op: 86, segs: FG, kind: 'atomic', type: 'u64', dwords: 2 },
  { name: 'atomic_smax_x2', op: 87, segs: FG, kind: 'atomic', type: 'i64', dwords: 2 },
  { name: 'atomic_umax_x2', op: 88, segs: FG, kind: 'atomic', type: 'u64', dwords: 2 },
  { name: 'atomic_and_x2', op: 89, segs: FG, kind: 'atomic', type: 'b64', dwords: 2 },
  { name: 'atomic_or_x2', op: 90, segs: FG, kind: 'atomic', type: 'b64', dwords: 2 },
  { name: 'atomic_xor_x2', op: 91, segs: FG, kind: 'atomic', type: 'b64', dwords: 2 },
  { name: 'atomic_inc_x2', op: 92, segs: FG, kind: 'atomic', type: 'u64', dwords: 2 },
  { name: 'atomic_dec_x2', op: 93, segs: FG, kind: 'atomic', type: 'u64', dwords: 2 },
  { name: 'atomic_fcmpswap_x2', op: 94, segs: FG, kind: 'atomic', type: 'f64', dwords: 4, ret: 2 },
  { name: 'atomic_fmin_x2', op: 95, segs: FG, kind: 'atomic', type: 'f64', dwords: 2 },
  { name: 'atomic_fmax_x2', op: 96, segs: FG, kind: 'atomic', type: 'f64', dwords: 2 },
];

const PREFIX: Record<string, string> = { FLAT: 'flat_', GLOBAL: 'global_', SCRATCH: 'scratch_' };

function makeDef(s: Spec, fam: Family): InstrDef {
  const ops: OperandDef[] = [];
  const addrDw = fam === 'SCRATCH' ? 1 : 2;
  const addtid = s.flags?.includes('addtid') ?? false;
  const d16 = s.flags?.includes('d16') ?? false;
  if (s.kind === 'load') ops.push({ name: 'vdst', role: d16 ? 'srcdst' : 'dst', kind: 'vgpr', type: s.type, dwords: s.dwords });
  if (s.kind === 'atomic') ops.push({ name: 'vdst', role: 'dst', kind: 'vgpr', type: s.type, dwords: s.ret ?? s.dwords, optional: true });
  if (!addtid) ops.push({ name: 'vaddr', role: 'src', kind: 'vgpr', type: addrDw === 2 ? 'u64' : 'u32', dwords: addrDw, optional: fam === 'SCRATCH' });
  if (s.kind !== 'load') ops.push({ name: 'vdata', role: 'src', kind: 'vgpr', type: s.type, dwords: s.dwords });
  if (fam === 'GLOBAL') ops.push({ name: 'saddr', role: 'src', kind: 'saddr', type: 'u64', dwords: 2, optional: true });
  if (fam === 'SCRATCH') ops.push({ name: 'saddr', role: 'src', kind: 'saddr', type: 'u32', dwords: 1, optional: true });
  const flags: string[] = [s.kind, ...(s.flags ?? [])];
  const def: InstrDef = {
    mnemonic: PREFIX[fam] + s.name,
    family: fam,
    opcode: s.op,
    operands: ops,
    implicitReads: s.flags?.includes('lds') ? ['EXEC', 'M0'] : ['EXEC'],
    ...(s.targets ? { targets: s.targets } : {}),
    ...(s.kind === 'atomic' && (s.type === 'f32' || s.type === 'f64') ? { float: s.type } : {}),
    flags,
  };
  return def;
}

export const FLAT_TABLE: readonly InstrDef[] = SPECS.flatMap((s) => s.segs.map((f) => makeDef(s, f)));
