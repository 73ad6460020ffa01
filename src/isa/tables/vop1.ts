// VOP1 opcodes of gfx10 (the 32-bit "e32" encoding: 0111111 vdst[24:17] op[16:9] src0[8:0]),
// checked against LLVM 19 on gfx1010, gfx1013 and gfx1030 (the same opcode set on all three).
// Operands in e32 assembly order. `modifiers` lists what any form of the opcode accepts: neg/abs/
// clamp/omod in its VOP3 (e64) form, 'dpp' (DPP16/DPP8) and 'sdwa' forms; flag 'noVOP3': no e64
// form, and LLVM prints the e32 mnemonic without the _e32 suffix. Operand-less opcodes (v_nop,
// v_pipeflush, v_clrexcp) ignore the src0/vdst fields and print no suffix either.
// Flag 'swap': v_swap_b32/v_swaprel_b32 exchange vdst and src0 (both VGPRs; src0 must be a VGPR).
import type { DataType, FloatType, ImplicitReg, InstrDef, Modifier, OperandDef, RegClass, Target } from '../types.js';

interface Opts {
  readonly float?: FloatType;
  readonly modifiers?: readonly Modifier[];
  readonly flags?: readonly string[];
  readonly implicitReads?: readonly ImplicitReg[];
  readonly implicitWrites?: readonly ImplicitReg[];
  readonly targets?: readonly Target[];
}

function op(mnemonic: string, opcode: number, operands: readonly OperandDef[], o: Opts = {}): InstrDef {
  return { mnemonic, family: 'VOP1', opcode, operands, ...o };
}

const V = (type: DataType, role: OperandDef['role'] = 'dst'): OperandDef => ({ name: 'vdst', role, kind: 'vgpr', type });
const S0 = (type: DataType, regClass?: RegClass, role: OperandDef['role'] = 'src'): OperandDef =>
  regClass === undefined ? { name: 'src0', role, kind: 'src', type } : { name: 'src0', role, kind: 'src', type, regClass };
/** v_readfirstlane_b32: an SGPR destination in the vdst field. */
const SD = (type: DataType): OperandDef => ({ name: 'sdst', role: 'dst', kind: 'sdst', type, regClass: 'SReg_32' });

export const VOP1_TABLE: readonly InstrDef[] = [
  op('v_nop', 0, [], { flags: ['noVOP3'] }),
  op('v_mov_b32', 1, [V('b32'), S0('b32')], { modifiers: ['dpp', 'sdwa'] }),
  op('v_readfirstlane_b32', 2, [SD('b32'), S0('b32', 'VRegOrLds_32')], { flags: ['noVOP3'] }),
  op('v_cvt_i32_f64', 3, [V('i32'), S0('f64')], { float: 'f64', modifiers: ['neg', 'abs', 'clamp', 'omod'] }),
  op('v_cvt_f64_i32', 4, [V('f64'), S0('i32')], { float: 'f64', modifiers: ['clamp', 'omod'] }),
  op('v_cvt_f32_i32', 5, [V('f32'), S0('i32')], { float: 'f32', modifiers: ['clamp', 'omod', 'dpp', 'sdwa'] }),
  op('v_cvt_f32_u32', 6, [V('f32'), S0('u32')], { float: 'f32', modifiers: ['clamp', 'omod', 'dpp', 'sdwa'] }),
  op('v_cvt_u32_f32', 7, [V('u32'), S0('f32')], { float: 'f32', modifiers: ['neg', 'abs', 'clamp', 'omod', 'dpp', 'sdwa'] }),
  op('v_cvt_i32_f32', 8, [V('i32'), S0('f32')], { float: 'f32', modifiers: ['neg', 'abs', 'clamp', 'omod', 'dpp', 'sdwa'] }),
  op('v_cvt_f16_f32', 10, [V('f16'), S0('f32')], { float: 'f16', modifiers: ['neg', 'abs', 'clamp', 'omod', 'dpp', 'sdwa'] }),
  op('v_cvt_f32_f16', 11, [V('f32'), S0('f16')], { float: 'f32', modifiers: ['neg', 'abs', 'clamp', 'omod', 'dpp', 'sdwa'] }),
  op('v_cvt_rpi_i32_f32', 12, [V('i32'), S0('f32')], { float: 'f32', modifiers: ['neg', 'abs', 'clamp', 'dpp', 'sdwa'] }),
  op('v_cvt_flr_i32_f32', 13, [V('i32'), S0('f32')], { float: 'f32', modifiers: ['neg', 'abs', 'clamp', 'dpp', 'sdwa'] }),
  op('v_cvt_off_f32_i4', 14, [V('f32'), S0('i32')], { float: 'f32', modifiers: ['clamp', 'omod', 'dpp', 'sdwa'] }),
  op('v_cvt_f32_f64', 15, [V('f32'), S0('f64')], { float: 'f32', modifiers: ['neg', 'abs', 'clamp', 'omod'] }),
  op('v_cvt_f64_f32', 16, [V('f64'), S0('f32')], { float: 'f64', modifiers: ['neg', 'abs', 'clamp', 'omod'] }),
  op('v_cvt_f32_ubyte0', 17, [V('f32'), S0('u32')], { float: 'f32', modifiers: ['clamp', 'omod', 'dpp', 'sdwa'] }),
  op('v_cvt_f32_ubyte1', 18, [V('f32'), S0('u32')], { float: 'f32', modifiers: ['clamp', 'omod', 'dpp', 'sdwa'] }),
  op('v_cvt_f32_ubyte2', 19, [V('f32'), S0('u32')], { float: 'f32', modifiers: ['clamp', 'omod', 'dpp', 'sdwa'] }),
  op('v_cvt_f32_ubyte3', 20, [V('f32'), S0('u32')], { float: 'f32', modifiers: ['clamp', 'omod', 'dpp', 'sdwa'] }),
  op('v_cvt_u32_f64', 21, [V('u32'), S0('f64')], { float: 'f64', modifiers: ['neg', 'abs', 'clamp', 'omod'] }),
  op('v_cvt_f64_u32', 22, [V('f64'), S0('u32')], { float: 'f64', modifiers: ['clamp', 'omod'] }),
  op('v_trunc_f64', 23, [V('f64'), S0('f64')], { float: 'f64', modifiers: ['neg', 'abs', 'clamp', 'omod'] }),
  op('v_ceil_f64', 24, [V('f64'), S0('f64')], { float: 'f64', modifiers: ['neg', 'abs', 'clamp', 'omod'] }),
  op('v_rndne_f64', 25, [V('f64'), S0('f64')], { float: 'f64', modifiers: ['neg', 'abs', 'clamp', 'omod'] }),
  op('v_floor_f64', 26, [V('f64'), S0('f64')], { float: 'f64', modifiers: ['neg', 'abs', 'clamp', 'omod'] }),
  op('v_pipeflush', 27, [], { flags: ['noVOP3'] }),
  op('v_fract_f32', 32, [V('f32'), S0('f32')], { float: 'f32', modifiers: ['neg', 'abs', 'clamp', 'omod', 'dpp', 'sdwa'] }),
  op('v_trunc_f32', 33, [V('f32'), S0('f32')], { float: 'f32', modifiers: ['neg', 'abs', 'clamp', 'omod', 'dpp', 'sdwa'] }),
  op('v_ceil_f32', 34, [V('f32'), S0('f32')], { float: 'f32', modifiers: ['neg', 'abs', 'clamp', 'omod', 'dpp', 'sdwa'] }),
  op('v_rndne_f32', 35, [V('f32'), S0('f32')], { float: 'f32', modifiers: ['neg', 'abs', 'clamp', 'omod', 'dpp', 'sdwa'] }),
  op('v_floor_f32', 36, [V('f32'), S0('f32')], { float: 'f32', modifiers: ['neg', 'abs', 'clamp', 'omod', 'dpp', 'sdwa'] }),
  op('v_exp_f32', 37, [V('f32'), S0('f32')], { float: 'f32', modifiers: ['neg', 'abs', 'clamp', 'omod', 'dpp', 'sdwa'] }),
  op('v_log_f32', 39, [V('f32'), S0('f32')], { float: 'f32', modifiers: ['neg', 'abs', 'clamp', 'omod', 'dpp', 'sdwa'] }),
  op('v_rcp_f32', 42, [V('f32'), S0('f32')], { float: 'f32', modifiers: ['neg', 'abs', 'clamp', 'omod', 'dpp', 'sdwa'] }),
  op('v_rcp_iflag_f32', 43, [V('f32'), S0('f32')], { float: 'f32', modifiers: ['neg', 'abs', 'clamp', 'omod', 'dpp', 'sdwa'] }),
  op('v_rsq_f32', 46, [V('f32'), S0('f32')], { float: 'f32', modifiers: ['neg', 'abs', 'clamp', 'omod', 'dpp', 'sdwa'] }),
  op('v_rcp_f64', 47, [V('f64'), S0('f64')], { float: 'f64', modifiers: ['neg', 'abs', 'clamp', 'omod'] }),
  op('v_rsq_f64', 49, [V('f64'), S0('f64')], { float: 'f64', modifiers: ['neg', 'abs', 'clamp', 'omod'] }),
  op('v_sqrt_f32', 51, [V('f32'), S0('f32')], { float: 'f32', modifiers: ['neg', 'abs', 'clamp', 'omod', 'dpp', 'sdwa'] }),
  op('v_sqrt_f64', 52, [V('f64'), S0('f64')], { float: 'f64', modifiers: ['neg', 'abs', 'clamp', 'omod'] }),
  op('v_sin_f32', 53, [V('f32'), S0('f32')], { float: 'f32', modifiers: ['neg', 'abs', 'clamp', 'omod', 'dpp', 'sdwa'] }),
  op('v_cos_f32', 54, [V('f32'), S0('f32')], { float: 'f32', modifiers: ['neg', 'abs', 'clamp', 'omod', 'dpp', 'sdwa'] }),
  op('v_not_b32', 55, [V('b32'), S0('b32')], { modifiers: ['dpp', 'sdwa'] }),
  op('v_bfrev_b32', 56, [V('b32'), S0('b32')], { modifiers: ['dpp', 'sdwa'] }),
  op('v_ffbh_u32', 57, [V('u32'), S0('u32')], { modifiers: ['dpp', 'sdwa'] }),
  op('v_ffbl_b32', 58, [V('u32'), S0('b32')], { modifiers: ['dpp', 'sdwa'] }),
  op('v_ffbh_i32', 59, [V('i32'), S0('i32')], { modifiers: ['dpp', 'sdwa'] }),
  op('v_frexp_exp_i32_f64', 60, [V('i32'), S0('f64')], { float: 'f64', modifiers: ['neg', 'abs', 'clamp', 'omod'] }),
  op('v_frexp_mant_f64', 61, [V('f64'), S0('f64')], { float: 'f64', modifiers: ['neg', 'abs', 'clamp', 'omod'] }),
  op('v_fract_f64', 62, [V('f64'), S0('f64')], { float: 'f64', modifiers: ['neg', 'abs', 'clamp', 'omod'] }),
  op('v_frexp_exp_i32_f32', 63, [V('i32'), S0('f32')], { float: 'f32', modifiers: ['neg', 'abs', 'clamp', 'dpp', 'sdwa'] }),
  op('v_frexp_mant_f32', 64, [V('f32'), S0('f32')], { float: 'f32', modifiers: ['neg', 'abs', 'clamp', 'omod', 'dpp', 'sdwa'] }),
  op('v_clrexcp', 65, [], { flags: ['noVOP3'], implicitWrites: ['TRAPSTS'] }),
  op('v_movreld_b32', 66, [V('b32'), S0('b32')], { modifiers: ['dpp', 'sdwa'], implicitReads: ['M0'] }),
  op('v_movrels_b32', 67, [V('b32'), S0('b32', 'VGPR_32')], { modifiers: ['dpp', 'sdwa'], implicitReads: ['M0'] }),
  op('v_movrelsd_b32', 68, [V('b32'), S0('b32', 'VGPR_32')], { modifiers: ['dpp', 'sdwa'], implicitReads: ['M0'] }),
  op('v_movrelsd_2_b32', 72, [V('b32'), S0('b32', 'VGPR_32')], { modifiers: ['dpp', 'sdwa'], implicitReads: ['M0'] }),
  op('v_cvt_f16_u16', 80, [V('f16'), S0('u16')], { float: 'f16', modifiers: ['clamp', 'omod', 'dpp', 'sdwa'] }),
  op('v_cvt_f16_i16', 81, [V('f16'), S0('i16')], { float: 'f16', modifiers: ['clamp', 'omod', 'dpp', 'sdwa'] }),
  op('v_cvt_u16_f16', 82, [V('u16'), S0('f16')], { float: 'f16', modifiers: ['neg', 'abs', 'clamp', 'omod', 'dpp', 'sdwa'] }),
  op('v_cvt_i16_f16', 83, [V('i16'), S0('f16')], { float: 'f16', modifiers: ['neg', 'abs', 'clamp', 'omod', 'dpp', 'sdwa'] }),
  op('v_rcp_f16', 84, [V('f16'), S0('f16')], { float: 'f16', modifiers: ['neg', 'abs', 'clamp', 'omod', 'dpp', 'sdwa'] }),
  op('v_sqrt_f16', 85, [V('f16'), S0('f16')], { float: 'f16', modifiers: ['neg', 'abs', 'clamp', 'omod', 'dpp', 'sdwa'] }),
  op('v_rsq_f16', 86, [V('f16'), S0('f16')], { float: 'f16', modifiers: ['neg', 'abs', 'clamp', 'omod', 'dpp', 'sdwa'] }),
  op('v_log_f16', 87, [V('f16'), S0('f16')], { float: 'f16', modifiers: ['neg', 'abs', 'clamp', 'omod', 'dpp', 'sdwa'] }),
  op('v_exp_f16', 88, [V('f16'), S0('f16')], { float: 'f16', modifiers: ['neg', 'abs', 'clamp', 'omod', 'dpp', 'sdwa'] }),
  op('v_frexp_mant_f16', 89, [V('f16'), S0('f16')], { float: 'f16', modifiers: ['neg', 'abs', 'clamp', 'omod', 'dpp', 'sdwa'] }),
  op('v_frexp_exp_i16_f16', 90, [V('i16'), S0('f16')], { float: 'f16', modifiers: ['neg', 'abs', 'clamp', 'omod', 'dpp', 'sdwa'] }),
  op('v_floor_f16', 91, [V('f16'), S0('f16')], { float: 'f16', modifiers: ['neg', 'abs', 'clamp', 'omod', 'dpp', 'sdwa'] }),
  op('v_ceil_f16', 92, [V('f16'), S0('f16')], { float: 'f16', modifiers: ['neg', 'abs', 'clamp', 'omod', 'dpp', 'sdwa'] }),
  op('v_trunc_f16', 93, [V('f16'), S0('f16')], { float: 'f16', modifiers: ['neg', 'abs', 'clamp', 'omod', 'dpp', 'sdwa'] }),
  op('v_rndne_f16', 94, [V('f16'), S0('f16')], { float: 'f16', modifiers: ['neg', 'abs', 'clamp', 'omod', 'dpp', 'sdwa'] }),
  op('v_fract_f16', 95, [V('f16'), S0('f16')], { float: 'f16', modifiers: ['neg', 'abs', 'clamp', 'omod', 'dpp', 'sdwa'] }),
  op('v_sin_f16', 96, [V('f16'), S0('f16')], { float: 'f16', modifiers: ['neg', 'abs', 'clamp', 'omod', 'dpp', 'sdwa'] }),
  op('v_cos_f16', 97, [V('f16'), S0('f16')], { float: 'f16', modifiers: ['neg', 'abs', 'clamp', 'omod', 'dpp', 'sdwa'] }),
  op('v_sat_pk_u8_i16', 98, [V('u16'), S0('b32')], { modifiers: ['dpp', 'sdwa'] }),
  op('v_cvt_norm_i16_f16', 99, [V('i16'), S0('f16')], { float: 'f16', modifiers: ['neg', 'abs', 'clamp', 'omod', 'dpp', 'sdwa'] }),
  op('v_cvt_norm_u16_f16', 100, [V('u16'), S0('f16')], { float: 'f16', modifiers: ['neg', 'abs', 'clamp', 'omod', 'dpp', 'sdwa'] }),
  op('v_swap_b32', 101, [V('b32', 'srcdst'), S0('b32', 'VGPR_32', 'srcdst')], { flags: ['noVOP3', 'swap'] }),
  op('v_swaprel_b32', 104, [V('b32', 'srcdst'), S0('b32', 'VGPR_32', 'srcdst')], { flags: ['noVOP3', 'swap'], implicitReads: ['M0'] }),
];
