import type { DataType, FloatType, InstrDef, Modifier, OperandDef, Target } from '../types.js';

// VOP3P opcodes (packed 16-bit math, mixed-precision FMA, dot products): the 7-bit OP field of
// the VOP3P encoding. Opcodes and target availability checked against LLVM 19 by sweeping the
// opcode field on gfx1010, gfx1013 and gfx1030 (tests/gen/vop3p.ts, difftest --gen VOP3P).
//
// Operand order is assembly order: vdst, src0, src1[, src2]. Two-source opcodes have no src2
// operand: their src2 field, op_sel[2], neg_lo[2] and neg_hi[2] must be 0 (LLVM prints .long
// otherwise; op_sel_hi[2] is ignored).
//
// Flags (read by src/decode/vop3p.ts and src/disasm/vop3p.ts):
//  - 'fmaMix': v_fma_mix*: each source is f32 (op_sel_hi[i] = 0) or the f16 half of its register
//    picked by op_sel[i] (op_sel_hi[i] = 1); the neg_lo bits are per-source neg and the neg_hi
//    bits are per-source abs (printed -|x|); op_sel_hi defaults to [0,0,0] (printed when any bit
//    is set). LLVM prints a literal or constant of these sources by its f16 reading (the low 16
//    bits of the literal dword) even though hardware reads the whole dword for an f32 source.
//  - 'dstLo16' / 'dstHi16': the f16 result goes to the low / high half of vdst, the other half
//    is kept (vdst is read as well as written).
// All other VOP3P opcodes are packed: op_sel[i] / op_sel_hi[i] pick the half of source i that
// feeds the low / high lane, neg_lo / neg_hi negate a source's low / high lane input, and
// op_sel_hi defaults to all ones (printed only when it differs over the opcode's sources).

const DOT_TARGETS: readonly Target[] = ['gfx1030'];
const PACKED_MODS: readonly Modifier[] = ['op_sel', 'op_sel_hi', 'neg_lo', 'neg_hi', 'clamp'];
const MIX_MODS: readonly Modifier[] = ['neg', 'abs', 'op_sel', 'op_sel_hi', 'clamp'];

const dst = (type: DataType, role: 'dst' | 'srcdst' = 'dst'): OperandDef => ({ name: 'vdst', role, kind: 'vgpr', type });
const src = (i: number, type: DataType): OperandDef => ({ name: `src${i}`, role: 'src', kind: 'src', type });

interface Extra {
  readonly targets?: readonly Target[];
  readonly float?: FloatType;
  readonly flags?: readonly string[];
  readonly modifiers?: readonly Modifier[];
}

function op(mnemonic: string, opcode: number, d: OperandDef, srcTypes: readonly DataType[], extra: Extra = {}): InstrDef {
  const def: InstrDef = {
    mnemonic,
    family: 'VOP3P',
    opcode,
    operands: [d, ...srcTypes.map((t, i) => src(i, t))],
    modifiers: extra.modifiers ?? PACKED_MODS,
    ...(extra.targets !== undefined ? { targets: extra.targets } : {}),
    ...(extra.float !== undefined ? { float: extra.float } : {}),
    ...(extra.flags !== undefined ? { flags: extra.flags } : {}),
  };
  return def;
}

const I = 'v2i16', U = 'v2u16', B = 'v2b16', H = 'v2f16';

export const VOP3P_TABLE: readonly InstrDef[] = [
  op('v_pk_mad_i16', 0x00, dst(I), [I, I, I]),
  op('v_pk_mul_lo_u16', 0x01, dst(U), [U, U]),
  op('v_pk_add_i16', 0x02, dst(I), [I, I]),
  op('v_pk_sub_i16', 0x03, dst(I), [I, I]),
  // Shifts: src0 holds the shift amounts (low 4 bits of each lane), src1 the data.
  op('v_pk_lshlrev_b16', 0x04, dst(B), [U, B]),
  op('v_pk_lshrrev_b16', 0x05, dst(U), [U, U]),
  op('v_pk_ashrrev_i16', 0x06, dst(I), [U, I]),
  op('v_pk_max_i16', 0x07, dst(I), [I, I]),
  op('v_pk_min_i16', 0x08, dst(I), [I, I]),
  op('v_pk_mad_u16', 0x09, dst(U), [U, U, U]),
  op('v_pk_add_u16', 0x0a, dst(U), [U, U]),
  op('v_pk_sub_u16', 0x0b, dst(U), [U, U]),
  op('v_pk_max_u16', 0x0c, dst(U), [U, U]),
  op('v_pk_min_u16', 0x0d, dst(U), [U, U]),
  op('v_pk_fma_f16', 0x0e, dst(H), [H, H, H], { float: 'f16' }),
  op('v_pk_add_f16', 0x0f, dst(H), [H, H], { float: 'f16' }),
  op('v_pk_mul_f16', 0x10, dst(H), [H, H], { float: 'f16' }),
  op('v_pk_min_f16', 0x11, dst(H), [H, H], { float: 'f16' }),
  op('v_pk_max_f16', 0x12, dst(H), [H, H], { float: 'f16' }),
  // Dot products (gfx1011/gfx1012/gfx1030 only; LLVM 19 has none on gfx1010 or gfx1013).
  op('v_dot2_f32_f16', 0x13, dst('f32'), [H, H, 'f32'], { targets: DOT_TARGETS, float: 'f32' }),
  op('v_dot2_i32_i16', 0x14, dst('i32'), [I, I, 'i32'], { targets: DOT_TARGETS }),
  op('v_dot2_u32_u16', 0x15, dst('u32'), [U, U, 'u32'], { targets: DOT_TARGETS }),
  op('v_dot4_i32_i8', 0x16, dst('i32'), ['v4i8', 'v4i8', 'i32'], { targets: DOT_TARGETS }),
  op('v_dot4_u32_u8', 0x17, dst('u32'), ['v4u8', 'v4u8', 'u32'], { targets: DOT_TARGETS }),
  op('v_dot8_i32_i4', 0x18, dst('i32'), ['v8i4', 'v8i4', 'i32'], { targets: DOT_TARGETS }),
  op('v_dot8_u32_u4', 0x19, dst('u32'), ['v8u4', 'v8u4', 'u32'], { targets: DOT_TARGETS }),
  // Mixed-precision FMA: f32 arithmetic on f32 or f16 sources.
  op('v_fma_mix_f32', 0x20, dst('f32'), ['f32', 'f32', 'f32'], { float: 'f32', flags: ['fmaMix'], modifiers: MIX_MODS }),
  op('v_fma_mixlo_f16', 0x21, dst('f16', 'srcdst'), ['f32', 'f32', 'f32'], { float: 'f32', flags: ['fmaMix', 'dstLo16'], modifiers: MIX_MODS }),
  op('v_fma_mixhi_f16', 0x22, dst('f16', 'srcdst'), ['f32', 'f32', 'f32'], { float: 'f32', flags: ['fmaMix', 'dstHi16'], modifiers: MIX_MODS }),
];
