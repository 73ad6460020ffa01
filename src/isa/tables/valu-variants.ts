// Which VOP1/VOP2/VOPC opcodes have DPP16/DPP8 and SDWA forms on gfx10, and which source and
// output modifiers those forms accept. Keyed by (family, opcode); the instruction itself (mnemonic,
// operands, types) is the base def in tables/vop1.ts, vop2.ts, vopc.ts.
// Facts from LLVM 19 (llvm-objdump-19 on gfx1010/gfx1013/gfx1030), which rejects a DPP/SDWA word
// whose opcode has no such form or whose modifier bits the form does not accept:
//  - 'fp' source: neg/abs bits allowed (SDWA: sext bit must be 0).
//  - 'int' source: neg/abs bits must be 0 (SDWA: sext allowed).
//  - DPP only: 'sext' source: integer modifiers: the neg bit is sext() (LLVM prints it so), the abs
//    bit is ignored (v_ldexp_f16 src1); 'none': the form has no source modifiers and LLVM ignores
//    the neg/abs bits altogether (v_dot4c_i32_i8).
//  - sdwa.omod: whether the SDWA omod field may be non-zero (VOP1/VOP2; VOPC has sdst there).
// gfx10 has no DPP form of any VOPC opcode and no SDWA form of a 64-bit or VOP2 mac/fma/madak op.
// The DPP-form lists of all three targets are the same except where `targets` says otherwise
// (dot2c/dot4c are gfx1030, v_mac_f32 gfx1010/gfx1013); the SDWA lists are the same everywhere.
import type { DataType, Family, Target } from '../types.js';

export type VariantSrcMods = 'fp' | 'int';
export type DppSrcMods = VariantSrcMods | 'sext' | 'none';

export interface DppForm {
  readonly src0: DppSrcMods;
  readonly src1?: DppSrcMods;
  /** Targets that have the DPP form; absent means all three. */
  readonly targets?: readonly Target[];
}

export interface SdwaForm {
  readonly src0: VariantSrcMods;
  readonly src1?: VariantSrcMods;
  /** VOP1/VOP2: the omod field may be set (float results). */
  readonly omod?: boolean;
  /**
   * Type by which LLVM prints a scalar-source constant of src1, when it differs from the base
   * def's operand type (v_ldexp_f16: the i16 exponent prints inline floats as 0.5, as for i32).
   */
  readonly src1ConstType?: DataType;
}

export interface ValuVariantDef {
  readonly family: 'VOP1' | 'VOP2' | 'VOPC';
  readonly opcode: number;
  /** The base mnemonic (checked against the base def by the tests). */
  readonly mnemonic: string;
  readonly dpp?: DppForm;
  readonly sdwa?: SdwaForm;
  /**
   * The DPP/SDWA forms have no operands (v_nop): vdst and the src0/modifier fields must be 0
   * (SDWA: only dst_sel, dst_unused and the ignored bits 22/30 may be set), and LLVM prints the
   * base mnemonic without the _dpp/_sdwa suffix; DPP16/DPP8 controls print, SDWA selects do not.
   */
  readonly bare?: boolean;
}

export const VALU_VARIANTS: readonly ValuVariantDef[] = [
  { family: 'VOP1', opcode: 0, mnemonic: 'v_nop', bare: true, dpp: { src0: 'none' }, sdwa: { src0: 'int' } },
  { family: 'VOP1', opcode: 1, mnemonic: 'v_mov_b32', dpp: { src0: 'int' }, sdwa: { src0: 'int', omod: false } },
  { family: 'VOP1', opcode: 5, mnemonic: 'v_cvt_f32_i32', dpp: { src0: 'int' }, sdwa: { src0: 'int', omod: true } },
  { family: 'VOP1', opcode: 6, mnemonic: 'v_cvt_f32_u32', dpp: { src0: 'int' }, sdwa: { src0: 'int', omod: true } },
  { family: 'VOP1', opcode: 7, mnemonic: 'v_cvt_u32_f32', dpp: { src0: 'fp' }, sdwa: { src0: 'fp', omod: false } },
  { family: 'VOP1', opcode: 8, mnemonic: 'v_cvt_i32_f32', dpp: { src0: 'fp' }, sdwa: { src0: 'fp', omod: false } },
  { family: 'VOP1', opcode: 10, mnemonic: 'v_cvt_f16_f32', dpp: { src0: 'fp' }, sdwa: { src0: 'fp', omod: true } },
  { family: 'VOP1', opcode: 11, mnemonic: 'v_cvt_f32_f16', dpp: { src0: 'fp' }, sdwa: { src0: 'fp', omod: true } },
  { family: 'VOP1', opcode: 12, mnemonic: 'v_cvt_rpi_i32_f32', dpp: { src0: 'fp' }, sdwa: { src0: 'fp', omod: false } },
  { family: 'VOP1', opcode: 13, mnemonic: 'v_cvt_flr_i32_f32', dpp: { src0: 'fp' }, sdwa: { src0: 'fp', omod: false } },
  { family: 'VOP1', opcode: 14, mnemonic: 'v_cvt_off_f32_i4', dpp: { src0: 'int' }, sdwa: { src0: 'int', omod: true } },
  { family: 'VOP1', opcode: 17, mnemonic: 'v_cvt_f32_ubyte0', dpp: { src0: 'int' }, sdwa: { src0: 'int', omod: true } },
  { family: 'VOP1', opcode: 18, mnemonic: 'v_cvt_f32_ubyte1', dpp: { src0: 'int' }, sdwa: { src0: 'int', omod: true } },
  { family: 'VOP1', opcode: 19, mnemonic: 'v_cvt_f32_ubyte2', dpp: { src0: 'int' }, sdwa: { src0: 'int', omod: true } },
  { family: 'VOP1', opcode: 20, mnemonic: 'v_cvt_f32_ubyte3', dpp: { src0: 'int' }, sdwa: { src0: 'int', omod: true } },
  { family: 'VOP1', opcode: 32, mnemonic: 'v_fract_f32', dpp: { src0: 'fp' }, sdwa: { src0: 'fp', omod: true } },
  { family: 'VOP1', opcode: 33, mnemonic: 'v_trunc_f32', dpp: { src0: 'fp' }, sdwa: { src0: 'fp', omod: true } },
  { family: 'VOP1', opcode: 34, mnemonic: 'v_ceil_f32', dpp: { src0: 'fp' }, sdwa: { src0: 'fp', omod: true } },
  { family: 'VOP1', opcode: 35, mnemonic: 'v_rndne_f32', dpp: { src0: 'fp' }, sdwa: { src0: 'fp', omod: true } },
  { family: 'VOP1', opcode: 36, mnemonic: 'v_floor_f32', dpp: { src0: 'fp' }, sdwa: { src0: 'fp', omod: true } },
  { family: 'VOP1', opcode: 37, mnemonic: 'v_exp_f32', dpp: { src0: 'fp' }, sdwa: { src0: 'fp', omod: true } },
  { family: 'VOP1', opcode: 39, mnemonic: 'v_log_f32', dpp: { src0: 'fp' }, sdwa: { src0: 'fp', omod: true } },
  { family: 'VOP1', opcode: 42, mnemonic: 'v_rcp_f32', dpp: { src0: 'fp' }, sdwa: { src0: 'fp', omod: true } },
  { family: 'VOP1', opcode: 43, mnemonic: 'v_rcp_iflag_f32', dpp: { src0: 'fp' }, sdwa: { src0: 'fp', omod: true } },
  { family: 'VOP1', opcode: 46, mnemonic: 'v_rsq_f32', dpp: { src0: 'fp' }, sdwa: { src0: 'fp', omod: true } },
  { family: 'VOP1', opcode: 51, mnemonic: 'v_sqrt_f32', dpp: { src0: 'fp' }, sdwa: { src0: 'fp', omod: true } },
  { family: 'VOP1', opcode: 53, mnemonic: 'v_sin_f32', dpp: { src0: 'fp' }, sdwa: { src0: 'fp', omod: true } },
  { family: 'VOP1', opcode: 54, mnemonic: 'v_cos_f32', dpp: { src0: 'fp' }, sdwa: { src0: 'fp', omod: true } },
  { family: 'VOP1', opcode: 55, mnemonic: 'v_not_b32', dpp: { src0: 'int' }, sdwa: { src0: 'int', omod: false } },
  { family: 'VOP1', opcode: 56, mnemonic: 'v_bfrev_b32', dpp: { src0: 'int' }, sdwa: { src0: 'int', omod: false } },
  { family: 'VOP1', opcode: 57, mnemonic: 'v_ffbh_u32', dpp: { src0: 'int' }, sdwa: { src0: 'int', omod: false } },
  { family: 'VOP1', opcode: 58, mnemonic: 'v_ffbl_b32', dpp: { src0: 'int' }, sdwa: { src0: 'int', omod: false } },
  { family: 'VOP1', opcode: 59, mnemonic: 'v_ffbh_i32', dpp: { src0: 'int' }, sdwa: { src0: 'int', omod: false } },
  { family: 'VOP1', opcode: 63, mnemonic: 'v_frexp_exp_i32_f32', dpp: { src0: 'fp' }, sdwa: { src0: 'fp', omod: false } },
  { family: 'VOP1', opcode: 64, mnemonic: 'v_frexp_mant_f32', dpp: { src0: 'fp' }, sdwa: { src0: 'fp', omod: true } },
  { family: 'VOP1', opcode: 66, mnemonic: 'v_movreld_b32', dpp: { src0: 'int' }, sdwa: { src0: 'int', omod: false } },
  { family: 'VOP1', opcode: 67, mnemonic: 'v_movrels_b32', dpp: { src0: 'int' }, sdwa: { src0: 'int', omod: false } },
  { family: 'VOP1', opcode: 68, mnemonic: 'v_movrelsd_b32', dpp: { src0: 'int' }, sdwa: { src0: 'int', omod: false } },
  { family: 'VOP1', opcode: 72, mnemonic: 'v_movrelsd_2_b32', dpp: { src0: 'int' }, sdwa: { src0: 'int', omod: false } },
  { family: 'VOP1', opcode: 80, mnemonic: 'v_cvt_f16_u16', dpp: { src0: 'int' }, sdwa: { src0: 'int', omod: true } },
  { family: 'VOP1', opcode: 81, mnemonic: 'v_cvt_f16_i16', dpp: { src0: 'int' }, sdwa: { src0: 'int', omod: true } },
  { family: 'VOP1', opcode: 82, mnemonic: 'v_cvt_u16_f16', dpp: { src0: 'fp' }, sdwa: { src0: 'fp', omod: false } },
  { family: 'VOP1', opcode: 83, mnemonic: 'v_cvt_i16_f16', dpp: { src0: 'fp' }, sdwa: { src0: 'fp', omod: false } },
  { family: 'VOP1', opcode: 84, mnemonic: 'v_rcp_f16', dpp: { src0: 'fp' }, sdwa: { src0: 'fp', omod: true } },
  { family: 'VOP1', opcode: 85, mnemonic: 'v_sqrt_f16', dpp: { src0: 'fp' }, sdwa: { src0: 'fp', omod: true } },
  { family: 'VOP1', opcode: 86, mnemonic: 'v_rsq_f16', dpp: { src0: 'fp' }, sdwa: { src0: 'fp', omod: true } },
  { family: 'VOP1', opcode: 87, mnemonic: 'v_log_f16', dpp: { src0: 'fp' }, sdwa: { src0: 'fp', omod: true } },
  { family: 'VOP1', opcode: 88, mnemonic: 'v_exp_f16', dpp: { src0: 'fp' }, sdwa: { src0: 'fp', omod: true } },
  { family: 'VOP1', opcode: 89, mnemonic: 'v_frexp_mant_f16', dpp: { src0: 'fp' }, sdwa: { src0: 'fp', omod: true } },
  { family: 'VOP1', opcode: 90, mnemonic: 'v_frexp_exp_i16_f16', dpp: { src0: 'fp' }, sdwa: { src0: 'fp', omod: false } },
  { family: 'VOP1', opcode: 91, mnemonic: 'v_floor_f16', dpp: { src0: 'fp' }, sdwa: { src0: 'fp', omod: true } },
  { family: 'VOP1', opcode: 92, mnemonic: 'v_ceil_f16', dpp: { src0: 'fp' }, sdwa: { src0: 'fp', omod: true } },
  { family: 'VOP1', opcode: 93, mnemonic: 'v_trunc_f16', dpp: { src0: 'fp' }, sdwa: { src0: 'fp', omod: true } },
  { family: 'VOP1', opcode: 94, mnemonic: 'v_rndne_f16', dpp: { src0: 'fp' }, sdwa: { src0: 'fp', omod: true } },
  { family: 'VOP1', opcode: 95, mnemonic: 'v_fract_f16', dpp: { src0: 'fp' }, sdwa: { src0: 'fp', omod: true } },
  { family: 'VOP1', opcode: 96, mnemonic: 'v_sin_f16', dpp: { src0: 'fp' }, sdwa: { src0: 'fp', omod: true } },
  { family: 'VOP1', opcode: 97, mnemonic: 'v_cos_f16', dpp: { src0: 'fp' }, sdwa: { src0: 'fp', omod: true } },
  { family: 'VOP1', opcode: 98, mnemonic: 'v_sat_pk_u8_i16', dpp: { src0: 'int' }, sdwa: { src0: 'int', omod: false } },
  { family: 'VOP1', opcode: 99, mnemonic: 'v_cvt_norm_i16_f16', dpp: { src0: 'fp' }, sdwa: { src0: 'fp', omod: false } },
  { family: 'VOP1', opcode: 100, mnemonic: 'v_cvt_norm_u16_f16', dpp: { src0: 'fp' }, sdwa: { src0: 'fp', omod: false } },
  { family: 'VOP2', opcode: 1, mnemonic: 'v_cndmask_b32', dpp: { src0: 'fp', src1: 'fp' }, sdwa: { src0: 'fp', src1: 'fp', omod: false } },
  { family: 'VOP2', opcode: 2, mnemonic: 'v_dot2c_f32_f16', dpp: { src0: 'fp', src1: 'fp', targets: ['gfx1030'] } },
  { family: 'VOP2', opcode: 3, mnemonic: 'v_add_f32', dpp: { src0: 'fp', src1: 'fp' }, sdwa: { src0: 'fp', src1: 'fp', omod: true } },
  { family: 'VOP2', opcode: 4, mnemonic: 'v_sub_f32', dpp: { src0: 'fp', src1: 'fp' }, sdwa: { src0: 'fp', src1: 'fp', omod: true } },
  { family: 'VOP2', opcode: 5, mnemonic: 'v_subrev_f32', dpp: { src0: 'fp', src1: 'fp' }, sdwa: { src0: 'fp', src1: 'fp', omod: true } },
  { family: 'VOP2', opcode: 7, mnemonic: 'v_mul_legacy_f32', dpp: { src0: 'fp', src1: 'fp' }, sdwa: { src0: 'fp', src1: 'fp', omod: true } },
  { family: 'VOP2', opcode: 8, mnemonic: 'v_mul_f32', dpp: { src0: 'fp', src1: 'fp' }, sdwa: { src0: 'fp', src1: 'fp', omod: true } },
  { family: 'VOP2', opcode: 9, mnemonic: 'v_mul_i32_i24', dpp: { src0: 'int', src1: 'int' }, sdwa: { src0: 'int', src1: 'int', omod: false } },
  { family: 'VOP2', opcode: 10, mnemonic: 'v_mul_hi_i32_i24', dpp: { src0: 'int', src1: 'int' }, sdwa: { src0: 'int', src1: 'int', omod: false } },
  { family: 'VOP2', opcode: 11, mnemonic: 'v_mul_u32_u24', dpp: { src0: 'int', src1: 'int' }, sdwa: { src0: 'int', src1: 'int', omod: false } },
  { family: 'VOP2', opcode: 12, mnemonic: 'v_mul_hi_u32_u24', dpp: { src0: 'int', src1: 'int' }, sdwa: { src0: 'int', src1: 'int', omod: false } },
  { family: 'VOP2', opcode: 13, mnemonic: 'v_dot4c_i32_i8', dpp: { src0: 'none', src1: 'none', targets: ['gfx1030'] } },
  { family: 'VOP2', opcode: 15, mnemonic: 'v_min_f32', dpp: { src0: 'fp', src1: 'fp' }, sdwa: { src0: 'fp', src1: 'fp', omod: true } },
  { family: 'VOP2', opcode: 16, mnemonic: 'v_max_f32', dpp: { src0: 'fp', src1: 'fp' }, sdwa: { src0: 'fp', src1: 'fp', omod: true } },
  { family: 'VOP2', opcode: 17, mnemonic: 'v_min_i32', dpp: { src0: 'int', src1: 'int' }, sdwa: { src0: 'int', src1: 'int', omod: false } },
  { family: 'VOP2', opcode: 18, mnemonic: 'v_max_i32', dpp: { src0: 'int', src1: 'int' }, sdwa: { src0: 'int', src1: 'int', omod: false } },
  { family: 'VOP2', opcode: 19, mnemonic: 'v_min_u32', dpp: { src0: 'int', src1: 'int' }, sdwa: { src0: 'int', src1: 'int', omod: false } },
  { family: 'VOP2', opcode: 20, mnemonic: 'v_max_u32', dpp: { src0: 'int', src1: 'int' }, sdwa: { src0: 'int', src1: 'int', omod: false } },
  { family: 'VOP2', opcode: 22, mnemonic: 'v_lshrrev_b32', dpp: { src0: 'int', src1: 'int' }, sdwa: { src0: 'int', src1: 'int', omod: false } },
  { family: 'VOP2', opcode: 24, mnemonic: 'v_ashrrev_i32', dpp: { src0: 'int', src1: 'int' }, sdwa: { src0: 'int', src1: 'int', omod: false } },
  { family: 'VOP2', opcode: 26, mnemonic: 'v_lshlrev_b32', dpp: { src0: 'int', src1: 'int' }, sdwa: { src0: 'int', src1: 'int', omod: false } },
  { family: 'VOP2', opcode: 27, mnemonic: 'v_and_b32', dpp: { src0: 'int', src1: 'int' }, sdwa: { src0: 'int', src1: 'int', omod: false } },
  { family: 'VOP2', opcode: 28, mnemonic: 'v_or_b32', dpp: { src0: 'int', src1: 'int' }, sdwa: { src0: 'int', src1: 'int', omod: false } },
  { family: 'VOP2', opcode: 29, mnemonic: 'v_xor_b32', dpp: { src0: 'int', src1: 'int' }, sdwa: { src0: 'int', src1: 'int', omod: false } },
  { family: 'VOP2', opcode: 30, mnemonic: 'v_xnor_b32', dpp: { src0: 'int', src1: 'int' }, sdwa: { src0: 'int', src1: 'int', omod: false } },
  { family: 'VOP2', opcode: 31, mnemonic: 'v_mac_f32', dpp: { src0: 'fp', src1: 'fp', targets: ['gfx1010', 'gfx1013'] } },
  { family: 'VOP2', opcode: 37, mnemonic: 'v_add_nc_u32', dpp: { src0: 'int', src1: 'int' }, sdwa: { src0: 'int', src1: 'int', omod: false } },
  { family: 'VOP2', opcode: 38, mnemonic: 'v_sub_nc_u32', dpp: { src0: 'int', src1: 'int' }, sdwa: { src0: 'int', src1: 'int', omod: false } },
  { family: 'VOP2', opcode: 39, mnemonic: 'v_subrev_nc_u32', dpp: { src0: 'int', src1: 'int' }, sdwa: { src0: 'int', src1: 'int', omod: false } },
  { family: 'VOP2', opcode: 40, mnemonic: 'v_add_co_ci_u32', dpp: { src0: 'int', src1: 'int' }, sdwa: { src0: 'int', src1: 'int', omod: false } },
  { family: 'VOP2', opcode: 41, mnemonic: 'v_sub_co_ci_u32', dpp: { src0: 'int', src1: 'int' }, sdwa: { src0: 'int', src1: 'int', omod: false } },
  { family: 'VOP2', opcode: 42, mnemonic: 'v_subrev_co_ci_u32', dpp: { src0: 'int', src1: 'int' }, sdwa: { src0: 'int', src1: 'int', omod: false } },
  { family: 'VOP2', opcode: 43, mnemonic: 'v_fmac_f32', dpp: { src0: 'fp', src1: 'fp' } },
  { family: 'VOP2', opcode: 47, mnemonic: 'v_cvt_pkrtz_f16_f32', dpp: { src0: 'fp', src1: 'fp' }, sdwa: { src0: 'fp', src1: 'fp', omod: true } },
  { family: 'VOP2', opcode: 50, mnemonic: 'v_add_f16', dpp: { src0: 'fp', src1: 'fp' }, sdwa: { src0: 'fp', src1: 'fp', omod: true } },
  { family: 'VOP2', opcode: 51, mnemonic: 'v_sub_f16', dpp: { src0: 'fp', src1: 'fp' }, sdwa: { src0: 'fp', src1: 'fp', omod: true } },
  { family: 'VOP2', opcode: 52, mnemonic: 'v_subrev_f16', dpp: { src0: 'fp', src1: 'fp' }, sdwa: { src0: 'fp', src1: 'fp', omod: true } },
  { family: 'VOP2', opcode: 53, mnemonic: 'v_mul_f16', dpp: { src0: 'fp', src1: 'fp' }, sdwa: { src0: 'fp', src1: 'fp', omod: true } },
  { family: 'VOP2', opcode: 54, mnemonic: 'v_fmac_f16', dpp: { src0: 'fp', src1: 'fp' } },
  { family: 'VOP2', opcode: 57, mnemonic: 'v_max_f16', dpp: { src0: 'fp', src1: 'fp' }, sdwa: { src0: 'fp', src1: 'fp', omod: true } },
  { family: 'VOP2', opcode: 58, mnemonic: 'v_min_f16', dpp: { src0: 'fp', src1: 'fp' }, sdwa: { src0: 'fp', src1: 'fp', omod: true } },
  { family: 'VOP2', opcode: 59, mnemonic: 'v_ldexp_f16', dpp: { src0: 'fp', src1: 'sext' }, sdwa: { src0: 'fp', src1: 'int', omod: true, src1ConstType: 'i32' } },
  { family: 'VOPC', opcode: 0, mnemonic: 'v_cmp_f_f32', sdwa: { src0: 'fp', src1: 'fp' } },
  { family: 'VOPC', opcode: 1, mnemonic: 'v_cmp_lt_f32', sdwa: { src0: 'fp', src1: 'fp' } },
  { family: 'VOPC', opcode: 2, mnemonic: 'v_cmp_eq_f32', sdwa: { src0: 'fp', src1: 'fp' } },
  { family: 'VOPC', opcode: 3, mnemonic: 'v_cmp_le_f32', sdwa: { src0: 'fp', src1: 'fp' } },
  { family: 'VOPC', opcode: 4, mnemonic: 'v_cmp_gt_f32', sdwa: { src0: 'fp', src1: 'fp' } },
  { family: 'VOPC', opcode: 5, mnemonic: 'v_cmp_lg_f32', sdwa: { src0: 'fp', src1: 'fp' } },
  { family: 'VOPC', opcode: 6, mnemonic: 'v_cmp_ge_f32', sdwa: { src0: 'fp', src1: 'fp' } },
  { family: 'VOPC', opcode: 7, mnemonic: 'v_cmp_o_f32', sdwa: { src0: 'fp', src1: 'fp' } },
  { family: 'VOPC', opcode: 8, mnemonic: 'v_cmp_u_f32', sdwa: { src0: 'fp', src1: 'fp' } },
  { family: 'VOPC', opcode: 9, mnemonic: 'v_cmp_nge_f32', sdwa: { src0: 'fp', src1: 'fp' } },
  { family: 'VOPC', opcode: 10, mnemonic: 'v_cmp_nlg_f32', sdwa: { src0: 'fp', src1: 'fp' } },
  { family: 'VOPC', opcode: 11, mnemonic: 'v_cmp_ngt_f32', sdwa: { src0: 'fp', src1: 'fp' } },
  { family: 'VOPC', opcode: 12, mnemonic: 'v_cmp_nle_f32', sdwa: { src0: 'fp', src1: 'fp' } },
  { family: 'VOPC', opcode: 13, mnemonic: 'v_cmp_neq_f32', sdwa: { src0: 'fp', src1: 'fp' } },
  { family: 'VOPC', opcode: 14, mnemonic: 'v_cmp_nlt_f32', sdwa: { src0: 'fp', src1: 'fp' } },
  { family: 'VOPC', opcode: 15, mnemonic: 'v_cmp_tru_f32', sdwa: { src0: 'fp', src1: 'fp' } },
  { family: 'VOPC', opcode: 16, mnemonic: 'v_cmpx_f_f32', sdwa: { src0: 'fp', src1: 'fp' } },
  { family: 'VOPC', opcode: 17, mnemonic: 'v_cmpx_lt_f32', sdwa: { src0: 'fp', src1: 'fp' } },
  { family: 'VOPC', opcode: 18, mnemonic: 'v_cmpx_eq_f32', sdwa: { src0: 'fp', src1: 'fp' } },
  { family: 'VOPC', opcode: 19, mnemonic: 'v_cmpx_le_f32', sdwa: { src0: 'fp', src1: 'fp' } },
  { family: 'VOPC', opcode: 20, mnemonic: 'v_cmpx_gt_f32', sdwa: { src0: 'fp', src1: 'fp' } },
  { family: 'VOPC', opcode: 21, mnemonic: 'v_cmpx_lg_f32', sdwa: { src0: 'fp', src1: 'fp' } },
  { family: 'VOPC', opcode: 22, mnemonic: 'v_cmpx_ge_f32', sdwa: { src0: 'fp', src1: 'fp' } },
  { family: 'VOPC', opcode: 23, mnemonic: 'v_cmpx_o_f32', sdwa: { src0: 'fp', src1: 'fp' } },
  { family: 'VOPC', opcode: 24, mnemonic: 'v_cmpx_u_f32', sdwa: { src0: 'fp', src1: 'fp' } },
  { family: 'VOPC', opcode: 25, mnemonic: 'v_cmpx_nge_f32', sdwa: { src0: 'fp', src1: 'fp' } },
  { family: 'VOPC', opcode: 26, mnemonic: 'v_cmpx_nlg_f32', sdwa: { src0: 'fp', src1: 'fp' } },
  { family: 'VOPC', opcode: 27, mnemonic: 'v_cmpx_ngt_f32', sdwa: { src0: 'fp', src1: 'fp' } },
  { family: 'VOPC', opcode: 28, mnemonic: 'v_cmpx_nle_f32', sdwa: { src0: 'fp', src1: 'fp' } },
  { family: 'VOPC', opcode: 29, mnemonic: 'v_cmpx_neq_f32', sdwa: { src0: 'fp', src1: 'fp' } },
  { family: 'VOPC', opcode: 30, mnemonic: 'v_cmpx_nlt_f32', sdwa: { src0: 'fp', src1: 'fp' } },
  { family: 'VOPC', opcode: 31, mnemonic: 'v_cmpx_tru_f32', sdwa: { src0: 'fp', src1: 'fp' } },
  { family: 'VOPC', opcode: 128, mnemonic: 'v_cmp_f_i32', sdwa: { src0: 'int', src1: 'int' } },
  { family: 'VOPC', opcode: 129, mnemonic: 'v_cmp_lt_i32', sdwa: { src0: 'int', src1: 'int' } },
  { family: 'VOPC', opcode: 130, mnemonic: 'v_cmp_eq_i32', sdwa: { src0: 'int', src1: 'int' } },
  { family: 'VOPC', opcode: 131, mnemonic: 'v_cmp_le_i32', sdwa: { src0: 'int', src1: 'int' } },
  { family: 'VOPC', opcode: 132, mnemonic: 'v_cmp_gt_i32', sdwa: { src0: 'int', src1: 'int' } },
  { family: 'VOPC', opcode: 133, mnemonic: 'v_cmp_ne_i32', sdwa: { src0: 'int', src1: 'int' } },
  { family: 'VOPC', opcode: 134, mnemonic: 'v_cmp_ge_i32', sdwa: { src0: 'int', src1: 'int' } },
  { family: 'VOPC', opcode: 135, mnemonic: 'v_cmp_t_i32', sdwa: { src0: 'int', src1: 'int' } },
  { family: 'VOPC', opcode: 136, mnemonic: 'v_cmp_class_f32', sdwa: { src0: 'fp', src1: 'int' } },
  { family: 'VOPC', opcode: 137, mnemonic: 'v_cmp_lt_i16', sdwa: { src0: 'int', src1: 'int' } },
  { family: 'VOPC', opcode: 138, mnemonic: 'v_cmp_eq_i16', sdwa: { src0: 'int', src1: 'int' } },
  { family: 'VOPC', opcode: 139, mnemonic: 'v_cmp_le_i16', sdwa: { src0: 'int', src1: 'int' } },
  { family: 'VOPC', opcode: 140, mnemonic: 'v_cmp_gt_i16', sdwa: { src0: 'int', src1: 'int' } },
  { family: 'VOPC', opcode: 141, mnemonic: 'v_cmp_ne_i16', sdwa: { src0: 'int', src1: 'int' } },
  { family: 'VOPC', opcode: 142, mnemonic: 'v_cmp_ge_i16', sdwa: { src0: 'int', src1: 'int' } },
  { family: 'VOPC', opcode: 143, mnemonic: 'v_cmp_class_f16', sdwa: { src0: 'fp', src1: 'int' } },
  { family: 'VOPC', opcode: 144, mnemonic: 'v_cmpx_f_i32', sdwa: { src0: 'int', src1: 'int' } },
  { family: 'VOPC', opcode: 145, mnemonic: 'v_cmpx_lt_i32', sdwa: { src0: 'int', src1: 'int' } },
  { family: 'VOPC', opcode: 146, mnemonic: 'v_cmpx_eq_i32', sdwa: { src0: 'int', src1: 'int' } },
  { family: 'VOPC', opcode: 147, mnemonic: 'v_cmpx_le_i32', sdwa: { src0: 'int', src1: 'int' } },
  { family: 'VOPC', opcode: 148, mnemonic: 'v_cmpx_gt_i32', sdwa: { src0: 'int', src1: 'int' } },
  { family: 'VOPC', opcode: 149, mnemonic: 'v_cmpx_ne_i32', sdwa: { src0: 'int', src1: 'int' } },
  { family: 'VOPC', opcode: 150, mnemonic: 'v_cmpx_ge_i32', sdwa: { src0: 'int', src1: 'int' } },
  { family: 'VOPC', opcode: 151, mnemonic: 'v_cmpx_t_i32', sdwa: { src0: 'int', src1: 'int' } },
  { family: 'VOPC', opcode: 152, mnemonic: 'v_cmpx_class_f32', sdwa: { src0: 'fp', src1: 'int' } },
  { family: 'VOPC', opcode: 153, mnemonic: 'v_cmpx_lt_i16', sdwa: { src0: 'int', src1: 'int' } },
  { family: 'VOPC', opcode: 154, mnemonic: 'v_cmpx_eq_i16', sdwa: { src0: 'int', src1: 'int' } },
  { family: 'VOPC', opcode: 155, mnemonic: 'v_cmpx_le_i16', sdwa: { src0: 'int', src1: 'int' } },
  { family: 'VOPC', opcode: 156, mnemonic: 'v_cmpx_gt_i16', sdwa: { src0: 'int', src1: 'int' } },
  { family: 'VOPC', opcode: 157, mnemonic: 'v_cmpx_ne_i16', sdwa: { src0: 'int', src1: 'int' } },
  { family: 'VOPC', opcode: 158, mnemonic: 'v_cmpx_ge_i16', sdwa: { src0: 'int', src1: 'int' } },
  { family: 'VOPC', opcode: 159, mnemonic: 'v_cmpx_class_f16', sdwa: { src0: 'fp', src1: 'int' } },
  { family: 'VOPC', opcode: 169, mnemonic: 'v_cmp_lt_u16', sdwa: { src0: 'int', src1: 'int' } },
  { family: 'VOPC', opcode: 170, mnemonic: 'v_cmp_eq_u16', sdwa: { src0: 'int', src1: 'int' } },
  { family: 'VOPC', opcode: 171, mnemonic: 'v_cmp_le_u16', sdwa: { src0: 'int', src1: 'int' } },
  { family: 'VOPC', opcode: 172, mnemonic: 'v_cmp_gt_u16', sdwa: { src0: 'int', src1: 'int' } },
  { family: 'VOPC', opcode: 173, mnemonic: 'v_cmp_ne_u16', sdwa: { src0: 'int', src1: 'int' } },
  { family: 'VOPC', opcode: 174, mnemonic: 'v_cmp_ge_u16', sdwa: { src0: 'int', src1: 'int' } },
  { family: 'VOPC', opcode: 185, mnemonic: 'v_cmpx_lt_u16', sdwa: { src0: 'int', src1: 'int' } },
  { family: 'VOPC', opcode: 186, mnemonic: 'v_cmpx_eq_u16', sdwa: { src0: 'int', src1: 'int' } },
  { family: 'VOPC', opcode: 187, mnemonic: 'v_cmpx_le_u16', sdwa: { src0: 'int', src1: 'int' } },
  { family: 'VOPC', opcode: 188, mnemonic: 'v_cmpx_gt_u16', sdwa: { src0: 'int', src1: 'int' } },
  { family: 'VOPC', opcode: 189, mnemonic: 'v_cmpx_ne_u16', sdwa: { src0: 'int', src1: 'int' } },
  { family: 'VOPC', opcode: 190, mnemonic: 'v_cmpx_ge_u16', sdwa: { src0: 'int', src1: 'int' } },
  { family: 'VOPC', opcode: 192, mnemonic: 'v_cmp_f_u32', sdwa: { src0: 'int', src1: 'int' } },
  { family: 'VOPC', opcode: 193, mnemonic: 'v_cmp_lt_u32', sdwa: { src0: 'int', src1: 'int' } },
  { family: 'VOPC', opcode: 194, mnemonic: 'v_cmp_eq_u32', sdwa: { src0: 'int', src1: 'int' } },
  { family: 'VOPC', opcode: 195, mnemonic: 'v_cmp_le_u32', sdwa: { src0: 'int', src1: 'int' } },
  { family: 'VOPC', opcode: 196, mnemonic: 'v_cmp_gt_u32', sdwa: { src0: 'int', src1: 'int' } },
  { family: 'VOPC', opcode: 197, mnemonic: 'v_cmp_ne_u32', sdwa: { src0: 'int', src1: 'int' } },
  { family: 'VOPC', opcode: 198, mnemonic: 'v_cmp_ge_u32', sdwa: { src0: 'int', src1: 'int' } },
  { family: 'VOPC', opcode: 199, mnemonic: 'v_cmp_t_u32', sdwa: { src0: 'int', src1: 'int' } },
  { family: 'VOPC', opcode: 200, mnemonic: 'v_cmp_f_f16', sdwa: { src0: 'fp', src1: 'fp' } },
  { family: 'VOPC', opcode: 201, mnemonic: 'v_cmp_lt_f16', sdwa: { src0: 'fp', src1: 'fp' } },
  { family: 'VOPC', opcode: 202, mnemonic: 'v_cmp_eq_f16', sdwa: { src0: 'fp', src1: 'fp' } },
  { family: 'VOPC', opcode: 203, mnemonic: 'v_cmp_le_f16', sdwa: { src0: 'fp', src1: 'fp' } },
  { family: 'VOPC', opcode: 204, mnemonic: 'v_cmp_gt_f16', sdwa: { src0: 'fp', src1: 'fp' } },
  { family: 'VOPC', opcode: 205, mnemonic: 'v_cmp_lg_f16', sdwa: { src0: 'fp', src1: 'fp' } },
  { family: 'VOPC', opcode: 206, mnemonic: 'v_cmp_ge_f16', sdwa: { src0: 'fp', src1: 'fp' } },
  { family: 'VOPC', opcode: 207, mnemonic: 'v_cmp_o_f16', sdwa: { src0: 'fp', src1: 'fp' } },
  { family: 'VOPC', opcode: 208, mnemonic: 'v_cmpx_f_u32', sdwa: { src0: 'int', src1: 'int' } },
  { family: 'VOPC', opcode: 209, mnemonic: 'v_cmpx_lt_u32', sdwa: { src0: 'int', src1: 'int' } },
  { family: 'VOPC', opcode: 210, mnemonic: 'v_cmpx_eq_u32', sdwa: { src0: 'int', src1: 'int' } },
  { family: 'VOPC', opcode: 211, mnemonic: 'v_cmpx_le_u32', sdwa: { src0: 'int', src1: 'int' } },
  { family: 'VOPC', opcode: 212, mnemonic: 'v_cmpx_gt_u32', sdwa: { src0: 'int', src1: 'int' } },
  { family: 'VOPC', opcode: 213, mnemonic: 'v_cmpx_ne_u32', sdwa: { src0: 'int', src1: 'int' } },
  { family: 'VOPC', opcode: 214, mnemonic: 'v_cmpx_ge_u32', sdwa: { src0: 'int', src1: 'int' } },
  { family: 'VOPC', opcode: 215, mnemonic: 'v_cmpx_t_u32', sdwa: { src0: 'int', src1: 'int' } },
  { family: 'VOPC', opcode: 216, mnemonic: 'v_cmpx_f_f16', sdwa: { src0: 'fp', src1: 'fp' } },
  { family: 'VOPC', opcode: 217, mnemonic: 'v_cmpx_lt_f16', sdwa: { src0: 'fp', src1: 'fp' } },
  { family: 'VOPC', opcode: 218, mnemonic: 'v_cmpx_eq_f16', sdwa: { src0: 'fp', src1: 'fp' } },
  { family: 'VOPC', opcode: 219, mnemonic: 'v_cmpx_le_f16', sdwa: { src0: 'fp', src1: 'fp' } },
  { family: 'VOPC', opcode: 220, mnemonic: 'v_cmpx_gt_f16', sdwa: { src0: 'fp', src1: 'fp' } },
  { family: 'VOPC', opcode: 221, mnemonic: 'v_cmpx_lg_f16', sdwa: { src0: 'fp', src1: 'fp' } },
  { family: 'VOPC', opcode: 222, mnemonic: 'v_cmpx_ge_f16', sdwa: { src0: 'fp', src1: 'fp' } },
  { family: 'VOPC', opcode: 223, mnemonic: 'v_cmpx_o_f16', sdwa: { src0: 'fp', src1: 'fp' } },
  { family: 'VOPC', opcode: 232, mnemonic: 'v_cmp_u_f16', sdwa: { src0: 'fp', src1: 'fp' } },
  { family: 'VOPC', opcode: 233, mnemonic: 'v_cmp_nge_f16', sdwa: { src0: 'fp', src1: 'fp' } },
  { family: 'VOPC', opcode: 234, mnemonic: 'v_cmp_nlg_f16', sdwa: { src0: 'fp', src1: 'fp' } },
  { family: 'VOPC', opcode: 235, mnemonic: 'v_cmp_ngt_f16', sdwa: { src0: 'fp', src1: 'fp' } },
  { family: 'VOPC', opcode: 236, mnemonic: 'v_cmp_nle_f16', sdwa: { src0: 'fp', src1: 'fp' } },
  { family: 'VOPC', opcode: 237, mnemonic: 'v_cmp_neq_f16', sdwa: { src0: 'fp', src1: 'fp' } },
  { family: 'VOPC', opcode: 238, mnemonic: 'v_cmp_nlt_f16', sdwa: { src0: 'fp', src1: 'fp' } },
  { family: 'VOPC', opcode: 239, mnemonic: 'v_cmp_tru_f16', sdwa: { src0: 'fp', src1: 'fp' } },
  { family: 'VOPC', opcode: 248, mnemonic: 'v_cmpx_u_f16', sdwa: { src0: 'fp', src1: 'fp' } },
  { family: 'VOPC', opcode: 249, mnemonic: 'v_cmpx_nge_f16', sdwa: { src0: 'fp', src1: 'fp' } },
  { family: 'VOPC', opcode: 250, mnemonic: 'v_cmpx_nlg_f16', sdwa: { src0: 'fp', src1: 'fp' } },
  { family: 'VOPC', opcode: 251, mnemonic: 'v_cmpx_ngt_f16', sdwa: { src0: 'fp', src1: 'fp' } },
  { family: 'VOPC', opcode: 252, mnemonic: 'v_cmpx_nle_f16', sdwa: { src0: 'fp', src1: 'fp' } },
  { family: 'VOPC', opcode: 253, mnemonic: 'v_cmpx_neq_f16', sdwa: { src0: 'fp', src1: 'fp' } },
  { family: 'VOPC', opcode: 254, mnemonic: 'v_cmpx_nlt_f16', sdwa: { src0: 'fp', src1: 'fp' } },
  { family: 'VOPC', opcode: 255, mnemonic: 'v_cmpx_tru_f16', sdwa: { src0: 'fp', src1: 'fp' } },
];

type VariantIndex = Record<'VOP1' | 'VOP2' | 'VOPC', (ValuVariantDef | undefined)[]>;

function buildIndex(): VariantIndex {
  const index: VariantIndex = { VOP1: [], VOP2: [], VOPC: [] };
  for (const v of VALU_VARIANTS) {
    if (index[v.family][v.opcode] !== undefined) throw new Error(`valu-variants: ${v.family} opcode ${v.opcode} listed twice`);
    index[v.family][v.opcode] = v;
  }
  return index;
}

const INDEX = buildIndex();

/** The DPP/SDWA facts of a VOP1/VOP2/VOPC opcode, or undefined when it has neither form. */
export function variantOf(family: Family, opcode: number): ValuVariantDef | undefined {
  if (family === 'VOP1' || family === 'VOP2' || family === 'VOPC') return INDEX[family][opcode];
  return undefined;
}

/** The DPP16/DPP8 form of an opcode on a target, or undefined. */
export function dppForm(target: Target, family: Family, opcode: number): DppForm | undefined {
  const f = variantOf(family, opcode)?.dpp;
  if (f === undefined || (f.targets !== undefined && !f.targets.includes(target))) return undefined;
  return f;
}

/** The SDWA form of an opcode (the same on every target), or undefined. */
export function sdwaForm(_target: Target, family: Family, opcode: number): SdwaForm | undefined {
  return variantOf(family, opcode)?.sdwa;
}
