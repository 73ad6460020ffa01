import type { DataType, FloatType, ImplicitReg, InstrDef, Modifier, OperandDef, RegClass, Target } from '../types.js';
import { e64Modifiers } from './vop3-promotion.js';

// Native VOP3 opcodes: the VOP3-only instructions of the 10-bit VOP3 opcode field (the field's
// VOPC 0x000-0x0FF, VOP2 0x100-0x13F and VOP1 0x180-0x1FF ranges are the e64 forms of those
// families' opcodes: see vop3-promotion.ts). Opcodes, targets and every modifier bit's meaning
// were found by sweeping the opcode field and each modifier bit on gfx1010, gfx1013 and gfx1030
// against LLVM 19 (tests/gen/vop3.ts, difftest --gen VOP3).
//
// Operands are in assembly order: destination(s), then the sources in src0, src1, src2 field
// order. A source field the opcode does not have must be 0 (LLVM prints .long otherwise).
// VOP3b opcodes (an 'sdst' operand beside a 'vdst') keep the SGPR carry/flag destination in
// bits 14:8, where VOP3a has abs and op_sel. An 'sdst' operand without a vdst (v_readlane_b32)
// is in the 8-bit vdst field.
//
// Flags (read by src/decode/vop3.ts and src/disasm/vop3.ts):
//  - 'e64:<profile>': what each modifier bit means for this opcode; the syntax is described at
//    parseE64Profile in vop3-promotion.ts (abs/neg per source field, op_sel form, clamp, omod).
//  - 'interp': v_interp_* VOP3 form: the src0 field holds attr (bits 5:0), attr_chan (7:6) and
//    high (8); the interpolated VGPR is in the src1 field and its modifiers are src1's.
//  - 'interpHigh': prints ` high` when bit 8 of the src0 field is set (f16 interpolation); for
//    the others that bit must be 0.
//  - 'interpMov': the src1 field is the v_interp_mov parameter (p10, p20, p0).
//  - 'e64Suffix': LLVM prints the mnemonic with `_e64` (v_interp_*_f32: they also have a VINTRP
//    encoding).

const GFX101X: readonly Target[] = ['gfx1010', 'gfx1013'];
const GFX103X: readonly Target[] = ['gfx1030'];

interface Extra {
  readonly targets?: readonly Target[];
  readonly float?: FloatType;
  readonly flags?: readonly string[];
  readonly reads?: readonly ImplicitReg[];
  readonly writes?: readonly ImplicitReg[];
  /** Register classes of the sources (by source index), where narrower than the field. */
  readonly classes?: readonly (RegClass | undefined)[];
  /** vdst is also read (writelane keeps other lanes, permlane keeps lanes on bound_ctrl). */
  readonly vdstReadToo?: boolean;
}

function srcOp(i: number, type: DataType, cls: RegClass | undefined): OperandDef {
  return { name: `src${i}`, role: 'src', kind: 'src', type, ...(cls !== undefined ? { regClass: cls } : {}) };
}

function build(mnemonic: string, opcode: number, dsts: readonly OperandDef[], srcs: readonly DataType[], profile: string, x: Extra): InstrDef {
  const classes = x.classes ?? [];
  const operands: OperandDef[] = [...dsts, ...srcs.map((t, i) => srcOp(i, t, classes[i]))];
  const mods: readonly Modifier[] = e64Modifiers(profile);
  const def: InstrDef = {
    mnemonic,
    family: 'VOP3',
    opcode,
    operands,
    ...(x.targets !== undefined ? { targets: x.targets } : {}),
    ...(x.reads !== undefined ? { implicitReads: x.reads } : {}),
    ...(x.writes !== undefined ? { implicitWrites: x.writes } : {}),
    ...(x.float !== undefined ? { float: x.float } : {}),
    ...(mods.length > 0 ? { modifiers: mods } : {}),
    flags: [`e64:${profile}`, ...(x.flags ?? [])],
  };
  return def;
}

const vdst = (type: DataType, readToo = false): OperandDef => ({ name: 'vdst', role: readToo ? 'srcdst' : 'dst', kind: 'vgpr', type });
/** VOP3b scalar destination (carry out / div_scale flag): a lane mask SGPR in bits 14:8. */
const sdstMask: OperandDef = { name: 'sdst', role: 'dst', kind: 'sdst', type: 'mask' };

/** vdst + sources. `t` = [dst, src0, src1, src2?]. */
function op(mnemonic: string, opcode: number, t: readonly DataType[], profile: string, x: Extra = {}): InstrDef {
  const [d, ...s] = t;
  return build(mnemonic, opcode, [vdst(d ?? 'b32', x.vdstReadToo ?? false)], s, profile, x);
}

/** VOP3b: vdst, sdst (bits 14:8), sources. */
function opB(mnemonic: string, opcode: number, t: readonly DataType[], profile: string, x: Extra = {}): InstrDef {
  const [d, ...s] = t;
  return build(mnemonic, opcode, [vdst(d ?? 'b32'), sdstMask], s, profile, x);
}

const F32 = (m: string, o: number, n: 2 | 3, x: Extra = {}): InstrDef =>
  op(m, o, n === 3 ? ['f32', 'f32', 'f32', 'f32'] : ['f32', 'f32', 'f32'], n === 3 ? 'ananan-co' : 'anan..-co', { float: 'f32', ...x });
const F64 = (m: string, o: number, n: 2 | 3, x: Extra = {}): InstrDef =>
  op(m, o, n === 3 ? ['f64', 'f64', 'f64', 'f64'] : ['f64', 'f64', 'f64'], n === 3 ? 'ananan-co' : 'anan..-co', { float: 'f64', ...x });
const F16x3 = (m: string, o: number, x: Extra = {}): InstrDef =>
  op(m, o, ['f16', 'f16', 'f16', 'f16'], 'ananan4co', { float: 'f16', ...x });
const INT3 = (m: string, o: number, t: DataType, x: Extra = {}): InstrDef => op(m, o, [t, t, t, t], '......-..', x);
const INT2 = (m: string, o: number, t: DataType, x: Extra = {}): InstrDef => op(m, o, [t, t, t], '......-..', x);
const I16x3 = (m: string, o: number, t: DataType): InstrDef => op(m, o, [t, t, t, t], 'xxxxxx4c.');

/** VOP3 interpolation forms: vdst, then the operands the printer shows (see the 'interp' flag). */
function interp(mnemonic: string, opcode: number, profile: string, dst: DataType, withSrc2: boolean, flags: readonly string[]): InstrDef {
  const mov = flags.includes('interpMov');
  const operands: OperandDef[] = [
    vdst(dst),
    mov
      ? { name: 'src0', role: 'src', kind: 'imm', type: 'none' } // parameter: p10 / p20 / p0
      : { name: 'src0', role: 'src', kind: 'src', type: 'f32', regClass: 'VGPR_32' },
    { name: 'attr', role: 'src', kind: 'imm', type: 'none' },
    ...(withSrc2 ? [{ name: 'src2', role: 'src', kind: 'src', type: 'f32', regClass: 'VGPR_32' } as const] : []),
  ];
  return {
    mnemonic,
    family: 'VOP3',
    opcode,
    operands,
    implicitReads: ['M0', 'MODE', 'EXEC'],
    float: dst === 'f16' ? 'f16' : 'f32',
    modifiers: e64Modifiers(profile),
    flags: [`e64:${profile}`, 'interp', ...flags],
  };
}

export const VOP3_TABLE: readonly InstrDef[] = [
  // 0x140-0x17F: VOP3-only ops of the former VOP3a space.
  op('v_mad_legacy_f32', 0x140, ['f32', 'f32', 'f32', 'f32'], 'ananan-co', { targets: GFX101X, float: 'f32', flags: ['mode:always-flush-f32'] }),
  op('v_fma_legacy_f32', 0x140, ['f32', 'f32', 'f32', 'f32'], 'ananan-co', { targets: GFX103X, float: 'f32', flags: ['mode:always-flush-f32'] }),
  F32('v_mad_f32', 0x141, 3, { targets: GFX101X, flags: ['mode:always-flush-f32'] }),
  op('v_mad_i32_i24', 0x142, ['i32', 'i24', 'i24', 'i32'], '......-c.'),
  op('v_mad_u32_u24', 0x143, ['u32', 'u24', 'u24', 'u32'], '......-c.'),
  F32('v_cubeid_f32', 0x144, 3),
  F32('v_cubesc_f32', 0x145, 3),
  F32('v_cubetc_f32', 0x146, 3),
  F32('v_cubema_f32', 0x147, 3),
  op('v_bfe_u32', 0x148, ['u32', 'u32', 'u32', 'u32'], '......-..'),
  op('v_bfe_i32', 0x149, ['i32', 'i32', 'u32', 'u32'], '......-..'),
  INT3('v_bfi_b32', 0x14a, 'b32'),
  F32('v_fma_f32', 0x14b, 3),
  F64('v_fma_f64', 0x14c, 3),
  INT3('v_lerp_u8', 0x14d, 'u32'),
  op('v_alignbit_b32', 0x14e, ['b32', 'b32', 'b32', 'u32'], '......-..'),
  op('v_alignbyte_b32', 0x14f, ['b32', 'b32', 'b32', 'u32'], '......-..'),
  F32('v_mullit_f32', 0x150, 3),
  F32('v_min3_f32', 0x151, 3),
  INT3('v_min3_i32', 0x152, 'i32'),
  INT3('v_min3_u32', 0x153, 'u32'),
  F32('v_max3_f32', 0x154, 3),
  INT3('v_max3_i32', 0x155, 'i32'),
  INT3('v_max3_u32', 0x156, 'u32'),
  F32('v_med3_f32', 0x157, 3),
  INT3('v_med3_i32', 0x158, 'i32'),
  INT3('v_med3_u32', 0x159, 'u32'),
  op('v_sad_u8', 0x15a, ['u32', 'u32', 'u32', 'u32'], '......-c.'),
  op('v_sad_hi_u8', 0x15b, ['u32', 'u32', 'u32', 'u32'], '......-c.'),
  op('v_sad_u16', 0x15c, ['u32', 'u32', 'u32', 'u32'], '......-c.'),
  op('v_sad_u32', 0x15d, ['u32', 'u32', 'u32', 'u32'], '......-c.'),
  op('v_cvt_pk_u8_f32', 0x15e, ['b32', 'f32', 'u32', 'u32'], 'anxsxs-c.', { float: 'f32' }),
  F32('v_div_fixup_f32', 0x15f, 3),
  F64('v_div_fixup_f64', 0x160, 3),
  F64('v_add_f64', 0x164, 2),
  F64('v_mul_f64', 0x165, 2),
  F64('v_min_f64', 0x166, 2),
  F64('v_max_f64', 0x167, 2),
  op('v_ldexp_f64', 0x168, ['f64', 'f64', 'i32'], 'anxs..-co', { float: 'f64' }),
  INT2('v_mul_lo_u32', 0x169, 'u32'),
  INT2('v_mul_hi_u32', 0x16a, 'u32'),
  INT2('v_mul_lo_i32', 0x16b, 'i32', { targets: GFX101X }),
  INT2('v_mul_hi_i32', 0x16c, 'i32'),
  opB('v_div_scale_f32', 0x16d, ['f32', 'f32', 'f32', 'f32'], '.n.n.nbco', { float: 'f32' }),
  opB('v_div_scale_f64', 0x16e, ['f64', 'f64', 'f64', 'f64'], '.n.n.nbco', { float: 'f64' }),
  F32('v_div_fmas_f32', 0x16f, 3, { reads: ['VCC'] }),
  F64('v_div_fmas_f64', 0x170, 3, { reads: ['VCC'] }),
  op('v_msad_u8', 0x171, ['u32', 'u32', 'u32', 'u32'], '......-c.'),
  op('v_qsad_pk_u16_u8', 0x172, ['b64', 'b64', 'u32', 'b64'], '......-c.'),
  op('v_mqsad_pk_u16_u8', 0x173, ['b64', 'b64', 'u32', 'b64'], '......-c.'),
  op('v_trig_preop_f64', 0x174, ['f64', 'f64', 'u32'], 'anxs..-co', { float: 'f64' }),
  op('v_mqsad_u32_u8', 0x175, ['b128', 'b64', 'u32', 'b128'], '......-c.', { classes: [undefined, undefined, 'VReg_128'] }),
  opB('v_mad_u64_u32', 0x176, ['u64', 'u32', 'u32', 'u64'], '......bc.'),
  opB('v_mad_i64_i32', 0x177, ['i64', 'i32', 'i32', 'i64'], '......bc.'),
  INT3('v_xor3_b32', 0x178, 'b32'),

  // 0x200-0x202: VOP3 forms of the VINTRP instructions.
  interp('v_interp_p1_f32', 0x200, '..an..-co', 'f32', false, ['e64Suffix']),
  interp('v_interp_p2_f32', 0x201, '..an..-co', 'f32', false, ['e64Suffix']),
  interp('v_interp_mov_f32', 0x202, '......-co', 'f32', false, ['e64Suffix', 'interpMov']),

  // 0x2FF-0x37F: VOP3-only ops added in gfx9/gfx10.
  op('v_lshlrev_b64', 0x2ff, ['b64', 'u32', 'b64'], '......-..'),
  op('v_lshrrev_b64', 0x300, ['b64', 'u32', 'b64'], '......-..'),
  op('v_ashrrev_i64', 0x301, ['i64', 'u32', 'i64'], '......-..'),
  op('v_add_nc_u16', 0x303, ['u16', 'u16', 'u16'], 'xxxx..3c.'),
  op('v_sub_nc_u16', 0x304, ['u16', 'u16', 'u16'], 'xxxx..3c.'),
  INT2('v_mul_lo_u16', 0x305, 'u16'),
  op('v_lshrrev_b16', 0x307, ['b16', 'u16', 'b16'], '......-..'),
  op('v_ashrrev_i16', 0x308, ['i16', 'u16', 'i16'], '......-..'),
  INT2('v_max_u16', 0x309, 'u16'),
  INT2('v_max_i16', 0x30a, 'i16'),
  INT2('v_min_u16', 0x30b, 'u16'),
  INT2('v_min_i16', 0x30c, 'i16'),
  op('v_add_nc_i16', 0x30d, ['i16', 'i16', 'i16'], 'xxxx..3c.'),
  op('v_sub_nc_i16', 0x30e, ['i16', 'i16', 'i16'], 'xxxx..3c.'),
  opB('v_add_co_u32', 0x30f, ['u32', 'u32', 'u32'], '......bc.'),
  opB('v_sub_co_u32', 0x310, ['u32', 'u32', 'u32'], '......bc.'),
  op('v_pack_b32_f16', 0x311, ['b32', 'f16', 'f16'], 'anan..3c.', { float: 'f16' }),
  op('v_cvt_pknorm_i16_f16', 0x312, ['b32', 'f16', 'f16'], 'anan..3c.', { float: 'f16' }),
  op('v_cvt_pknorm_u16_f16', 0x313, ['b32', 'f16', 'f16'], 'anan..3c.', { float: 'f16' }),
  op('v_lshlrev_b16', 0x314, ['b16', 'u16', 'b16'], '......-..'),
  opB('v_subrev_co_u32', 0x319, ['u32', 'u32', 'u32'], '......bc.'),
  I16x3('v_mad_u16', 0x340, 'u16'),
  interp('v_interp_p1ll_f16', 0x342, '..an..-co', 'f32', false, ['interpHigh']),
  interp('v_interp_p1lv_f16', 0x343, '..anan-co', 'f32', true, ['interpHigh']),
  INT3('v_perm_b32', 0x344, 'b32'),
  INT3('v_xad_u32', 0x345, 'u32'),
  INT3('v_lshl_add_u32', 0x346, 'u32'),
  INT3('v_add_lshl_u32', 0x347, 'u32'),
  F16x3('v_fma_f16', 0x34b),
  F16x3('v_min3_f16', 0x351),
  I16x3('v_min3_i16', 0x352, 'i16'),
  I16x3('v_min3_u16', 0x353, 'u16'),
  F16x3('v_max3_f16', 0x354),
  I16x3('v_max3_i16', 0x355, 'i16'),
  I16x3('v_max3_u16', 0x356, 'u16'),
  F16x3('v_med3_f16', 0x357),
  I16x3('v_med3_i16', 0x358, 'i16'),
  I16x3('v_med3_u16', 0x359, 'u16'),
  interp('v_interp_p2_f16', 0x35a, '..anan-c.', 'f16', true, ['interpHigh']),
  I16x3('v_mad_i16', 0x35e, 'i16'),
  F16x3('v_div_fixup_f16', 0x35f),
  // v_readlane_b32: the SGPR destination is in the vdst field.
  build('v_readlane_b32', 0x360, [{ name: 'sdst', role: 'dst', kind: 'sdst', type: 'b32', regClass: 'SReg_32' }], ['b32', 'u32'], '......-..',
    { classes: ['VRegOrLds_32', 'SReg_32'] }),
  op('v_writelane_b32', 0x361, ['b32', 'b32', 'u32'], '......-..', { classes: ['SRegOrLds_32', 'SReg_32'], vdstReadToo: true }),
  op('v_ldexp_f32', 0x362, ['f32', 'f32', 'i32'], 'anxs..-co', { float: 'f32' }),
  op('v_bfm_b32', 0x363, ['b32', 'u32', 'u32'], '......-..'),
  op('v_bcnt_u32_b32', 0x364, ['u32', 'b32', 'u32'], '......-..'),
  op('v_mbcnt_lo_u32_b32', 0x365, ['u32', 'b32', 'u32'], '......-..'),
  op('v_mbcnt_hi_u32_b32', 0x366, ['u32', 'b32', 'u32'], '......-..'),
  op('v_cvt_pknorm_i16_f32', 0x368, ['b32', 'f32', 'f32'], 'anan..-c.', { float: 'f32' }),
  op('v_cvt_pknorm_u16_f32', 0x369, ['b32', 'f32', 'f32'], 'anan..-c.', { float: 'f32' }),
  op('v_cvt_pk_u16_u32', 0x36a, ['b32', 'u32', 'u32'], '......-..'),
  op('v_cvt_pk_i16_i32', 0x36b, ['b32', 'i32', 'i32'], '......-..'),
  INT3('v_add3_u32', 0x36d, 'u32'),
  op('v_lshl_or_b32', 0x36f, ['b32', 'b32', 'u32', 'b32'], '......-..'),
  INT3('v_and_or_b32', 0x371, 'b32'),
  INT3('v_or3_b32', 0x372, 'b32'),
  op('v_mad_u32_u16', 0x373, ['u32', 'u16', 'u16', 'u32'], 'xxxxxx4c.'),
  op('v_mad_i32_i16', 0x375, ['i32', 'i16', 'i16', 'i32'], 'xxxxxx4c.'),
  op('v_sub_nc_i32', 0x376, ['i32', 'i32', 'i32'], '......-c.'),
  // op_sel[0] is FI (fetch inactive lanes), op_sel[1] is BOUND_CTRL.
  op('v_permlane16_b32', 0x377, ['b32', 'b32', 'b32', 'b32'], 'xxxxxx2..', { classes: ['VGPR_32', 'SReg_32', 'SReg_32'], vdstReadToo: true }),
  op('v_permlanex16_b32', 0x378, ['b32', 'b32', 'b32', 'b32'], 'xxxxxx2..', { classes: ['VGPR_32', 'SReg_32', 'SReg_32'], vdstReadToo: true }),
  op('v_add_nc_i32', 0x37f, ['i32', 'i32', 'i32'], '......-c.'),
];
