import type { DataType, InstrDef, OperandDef, RegClass, Target } from '../types.js';

// SMEM opcodes of gfx10, checked against LLVM 19. gfx1030 dropped the scalar stores, scratch
// loads/stores, atomics, s_dcache_wb, s_dcache_discard* and s_get_waveid_in_workgroup.
// Operands: sdata [12:6] (7-bit register code), sbase [5:0] (pair index), soffset word1 [31:25]
// (null = none) with the signed 21-bit byte offset word1 [20:0] in mods.offset.
// flags: 'cpol' = glc [16] / dlc [14] are printed; 'load'/'store'/'atomic' say the data flow.

const OLD: readonly Target[] = ['gfx1010', 'gfx1013'];

const DATA_TYPES: Record<number, DataType> = { 1: 'b32', 2: 'b64', 4: 'b128', 8: 'b256', 16: 'b512' };
function dataClass(dw: number): RegClass {
  switch (dw) {
    case 1: return 'SReg_32_XM0_XEXEC';
    case 2: return 'SReg_64_XEXEC';
    case 4: return 'SReg_128';
    case 8: return 'SReg_256';
    default: return 'SReg_512';
  }
}
const SDATA = (dw: number, role: OperandDef['role']): OperandDef =>
  ({ name: 'sdata', role, kind: 'sdst', type: DATA_TYPES[dw] ?? 'b32', regClass: dataClass(dw) });
const SBASE64: OperandDef = { name: 'sbase', role: 'src', kind: 'sbase', type: 'b64', regClass: 'SReg_64' };
const SBASE128: OperandDef = { name: 'sbase', role: 'src', kind: 'sbase', type: 'b128', regClass: 'SReg_128' };
const SOFFSET: OperandDef = { name: 'soffset', role: 'src', kind: 'soffset', type: 'u32', regClass: 'SReg_32' };

function op(mnemonic: string, opcode: number, operands: OperandDef[], flags: string[], targets?: readonly Target[]): InstrDef {
  return targets ? { mnemonic, family: 'SMEM', opcode, targets, operands, flags } : { mnemonic, family: 'SMEM', opcode, operands, flags };
}

const SUFFIX: Record<number, string> = { 1: 'dword', 2: 'dwordx2', 4: 'dwordx4', 8: 'dwordx8', 16: 'dwordx16' };
const mem = (prefix: string, base: number, sizes: number[], buffer: boolean, kind: 'load' | 'store', targets?: readonly Target[]) =>
  sizes.map((dw, i) => op(`${prefix}_${SUFFIX[dw] ?? ''}`, base + i, [SDATA(dw, kind === 'load' ? 'dst' : 'src'), buffer ? SBASE128 : SBASE64, SOFFSET], ['cpol', kind], targets));

/** The scalar atomics' operations (s_atomic_<op>[_x2], s_buffer_atomic_<op>[_x2]). */
export const SCALAR_ATOMICS = ['swap', 'cmpswap', 'add', 'sub', 'smin', 'umin', 'smax', 'umax', 'and', 'or', 'xor', 'inc', 'dec'] as const;
/** Scalar atomics: the data operand holds the source(s) and, with glc, receives the old value. */
const atomics = (prefix: string, base: number, buffer: boolean, x2: boolean) =>
  SCALAR_ATOMICS.map((a, i) => {
    const dw = (x2 ? 2 : 1) * (a === 'cmpswap' ? 2 : 1);
    return op(`${prefix}_${a}${x2 ? '_x2' : ''}`, base + i, [SDATA(dw, 'srcdst'), buffer ? SBASE128 : SBASE64, SOFFSET], ['cpol', 'atomic'], OLD);
  });

export const SMEM_TABLE: readonly InstrDef[] = [
  ...mem('s_load', 0x00, [1, 2, 4, 8, 16], false, 'load'),
  ...mem('s_scratch_load', 0x05, [1, 2, 4], false, 'load', OLD),
  ...mem('s_buffer_load', 0x08, [1, 2, 4, 8, 16], true, 'load'),
  ...mem('s_store', 0x10, [1, 2, 4], false, 'store', OLD),
  ...mem('s_scratch_store', 0x15, [1, 2, 4], false, 'store', OLD),
  ...mem('s_buffer_store', 0x18, [1, 2, 4], true, 'store', OLD),
  op('s_gl1_inv', 0x1f, [], []),
  op('s_dcache_inv', 0x20, [], []),
  op('s_dcache_wb', 0x21, [], [], OLD),
  op('s_memtime', 0x24, [SDATA(2, 'dst')], []),
  op('s_memrealtime', 0x25, [SDATA(2, 'dst')], []),
  op('s_atc_probe', 0x26, [{ name: 'sdata', role: 'src', kind: 'imm', type: 'u8' }, SBASE64, SOFFSET], []),
  op('s_atc_probe_buffer', 0x27, [{ name: 'sdata', role: 'src', kind: 'imm', type: 'u8' }, SBASE128, SOFFSET], []),
  op('s_dcache_discard', 0x28, [SBASE64, SOFFSET], [], OLD),
  op('s_dcache_discard_x2', 0x29, [SBASE64, SOFFSET], [], OLD),
  op('s_get_waveid_in_workgroup', 0x2a, [SDATA(1, 'dst')], [], OLD),
  ...atomics('s_buffer_atomic', 0x40, true, false),
  ...atomics('s_buffer_atomic', 0x60, true, true),
  ...atomics('s_atomic', 0x80, false, false),
  ...atomics('s_atomic', 0xa0, false, true),
];
