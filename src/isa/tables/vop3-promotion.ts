import type { InstrDef, Modifier } from '../types.js';

// Facts about the VOP3 (e64) forms of VOP1, VOP2 and VOPC opcodes that the base definitions in
// vop1.ts / vop2.ts / vopc.ts do not carry: which opcodes have an e64 form at all, and what each
// modifier bit of the VOP3 encoding means for them. Found by sweeping every VOP3 opcode and every
// modifier bit on gfx1010, gfx1013 and gfx1030 against LLVM 19 (the same for all three targets).
// The e64 operand layout itself is derived from the base definition (src/decode/vop3.ts):
// VOP3 opcode = VOPC opcode, 0x100 + VOP2 opcode, 0x180 + VOP1 opcode.
//
// E64 profile: a 9-character string, one character per fact:
//   [0..5] per source field i = 0, 1, 2: two characters, the ABS bit (word 0 bit 8+i) and the
//          NEG bit (word 1 bit 29+i):
//            ABS: 'a' = |x|;  'x' = the bit is ignored (LLVM decodes it and prints nothing);
//                 '.' = must be 0 (LLVM prints .long otherwise)
//            NEG: 'n' = -x;  's' = sext(x) (integer source modifier);  'x' ignored;  '.' must be 0
//   [6]    op_sel (word 0 bits 14:11):  '-' = ignored;  '2' = bits 11,12 print as op_sel:[a,b]
//          (v_permlane*: FI, BOUND_CTRL), 13-14 ignored;  '3' = bits 11,12,14 print as
//          op_sel:[src0,src1,dst], bit 13 must be 0;  '4' = op_sel:[src0,src1,src2,dst];
//          'b' = VOP3b: bits 14:8 are the SGPR destination (no abs, no op_sel)
//   [7]    'c' = clamp (bit 15) allowed, '.' = must be 0
//   [8]    'o' = omod (word 1 bits 28:27: mul:2, mul:4, div:2) allowed, '.' = must be 0

export type AbsBit = 'a' | 'x' | '.';
export type NegBit = 'n' | 's' | 'x' | '.';
export type OpSelForm = '-' | '2' | '3' | '4' | 'b';

export interface E64Profile {
  readonly abs: readonly [AbsBit, AbsBit, AbsBit];
  readonly neg: readonly [NegBit, NegBit, NegBit];
  readonly opsel: OpSelForm;
  readonly clamp: boolean;
  readonly omod: boolean;
}

const PROFILE_RE_CHARS = { abs: 'ax.', neg: 'nsx.', opsel: '-234b' };

/** Parse an e64 profile string (throws on a malformed one: table data is checked at load). */
export function parseE64Profile(p: string): E64Profile {
  const c = (i: number): string => p.charAt(i);
  const ok = p.length === 9
    && [0, 2, 4].every((i) => PROFILE_RE_CHARS.abs.includes(c(i)))
    && [1, 3, 5].every((i) => PROFILE_RE_CHARS.neg.includes(c(i)))
    && PROFILE_RE_CHARS.opsel.includes(c(6)) && 'c.'.includes(c(7)) && 'o.'.includes(c(8));
  if (!ok) throw new Error(`bad e64 profile '${p}'`);
  return {
    abs: [c(0) as AbsBit, c(2) as AbsBit, c(4) as AbsBit],
    neg: [c(1) as NegBit, c(3) as NegBit, c(5) as NegBit],
    opsel: c(6) as OpSelForm,
    clamp: c(7) === 'c',
    omod: c(8) === 'o',
  };
}

/** The Modifier list an e64 profile allows (for InstrDef.modifiers). */
export function e64Modifiers(p: string): Modifier[] {
  const f = parseE64Profile(p);
  const m: Modifier[] = [];
  if (f.abs.includes('a')) m.push('abs');
  if (f.neg.includes('n')) m.push('neg');
  if (f.neg.includes('s')) m.push('sext');
  if (f.opsel === '2' || f.opsel === '3' || f.opsel === '4') m.push('op_sel');
  if (f.clamp) m.push('clamp');
  if (f.omod) m.push('omod');
  return m;
}

/**
 * VOP1 opcodes with an e64 form, and their profiles. The VOP1 opcodes missing here have none
 * (LLVM 19 prints .long for VOP3 opcode 0x180 + op, whatever the operand fields), among them
 * v_nop, v_readfirstlane_b32, v_swap_b32 and v_swaprel_b32.
 */
export const E64_VOP1: ReadonlyMap<number, string> = new Map<number, string>([
  [0x01, '......-..'], // v_mov_b32
  [0x03, 'an....-co'], // v_cvt_i32_f64
  [0x04, '......-co'], // v_cvt_f64_i32
  [0x05, '......-co'], // v_cvt_f32_i32
  [0x06, '......-co'], // v_cvt_f32_u32
  [0x07, 'an....-co'], // v_cvt_u32_f32
  [0x08, 'an....-co'], // v_cvt_i32_f32
  [0x0a, 'an....-co'], // v_cvt_f16_f32
  [0x0b, 'an....-co'], // v_cvt_f32_f16
  [0x0c, 'an....-c.'], // v_cvt_rpi_i32_f32
  [0x0d, 'an....-c.'], // v_cvt_flr_i32_f32
  [0x0e, '......-co'], // v_cvt_off_f32_i4
  [0x0f, 'an....-co'], // v_cvt_f32_f64
  [0x10, 'an....-co'], // v_cvt_f64_f32
  [0x11, '......-co'], // v_cvt_f32_ubyte0
  [0x12, '......-co'], // v_cvt_f32_ubyte1
  [0x13, '......-co'], // v_cvt_f32_ubyte2
  [0x14, '......-co'], // v_cvt_f32_ubyte3
  [0x15, 'an....-co'], // v_cvt_u32_f64
  [0x16, '......-co'], // v_cvt_f64_u32
  [0x17, 'an....-co'], // v_trunc_f64
  [0x18, 'an....-co'], // v_ceil_f64
  [0x19, 'an....-co'], // v_rndne_f64
  [0x1a, 'an....-co'], // v_floor_f64
  [0x20, 'an....-co'], // v_fract_f32
  [0x21, 'an....-co'], // v_trunc_f32
  [0x22, 'an....-co'], // v_ceil_f32
  [0x23, 'an....-co'], // v_rndne_f32
  [0x24, 'an....-co'], // v_floor_f32
  [0x25, 'an....-co'], // v_exp_f32
  [0x27, 'an....-co'], // v_log_f32
  [0x2a, 'an....-co'], // v_rcp_f32
  [0x2b, 'an....-co'], // v_rcp_iflag_f32
  [0x2e, 'an....-co'], // v_rsq_f32
  [0x2f, 'an....-co'], // v_rcp_f64
  [0x31, 'an....-co'], // v_rsq_f64
  [0x33, 'an....-co'], // v_sqrt_f32
  [0x34, 'an....-co'], // v_sqrt_f64
  [0x35, 'an....-co'], // v_sin_f32
  [0x36, 'an....-co'], // v_cos_f32
  [0x37, '......-..'], // v_not_b32
  [0x38, '......-..'], // v_bfrev_b32
  [0x39, '......-..'], // v_ffbh_u32
  [0x3a, '......-..'], // v_ffbl_b32
  [0x3b, '......-..'], // v_ffbh_i32
  [0x3c, 'an....-co'], // v_frexp_exp_i32_f64
  [0x3d, 'an....-co'], // v_frexp_mant_f64
  [0x3e, 'an....-co'], // v_fract_f64
  [0x3f, 'an....-c.'], // v_frexp_exp_i32_f32
  [0x40, 'an....-co'], // v_frexp_mant_f32
  [0x42, '......-..'], // v_movreld_b32
  [0x43, '......-..'], // v_movrels_b32
  [0x44, '......-..'], // v_movrelsd_b32
  [0x48, '......-..'], // v_movrelsd_2_b32
  [0x50, '......-co'], // v_cvt_f16_u16
  [0x51, '......-co'], // v_cvt_f16_i16
  [0x52, 'an....-co'], // v_cvt_u16_f16
  [0x53, 'an....-co'], // v_cvt_i16_f16
  [0x54, 'an....-co'], // v_rcp_f16
  [0x55, 'an....-co'], // v_sqrt_f16
  [0x56, 'an....-co'], // v_rsq_f16
  [0x57, 'an....-co'], // v_log_f16
  [0x58, 'an....-co'], // v_exp_f16
  [0x59, 'an....-co'], // v_frexp_mant_f16
  [0x5a, 'an....-co'], // v_frexp_exp_i16_f16
  [0x5b, 'an....-co'], // v_floor_f16
  [0x5c, 'an....-co'], // v_ceil_f16
  [0x5d, 'an....-co'], // v_trunc_f16
  [0x5e, 'an....-co'], // v_rndne_f16
  [0x5f, 'an....-co'], // v_fract_f16
  [0x60, 'an....-co'], // v_sin_f16
  [0x61, 'an....-co'], // v_cos_f16
  [0x62, '......-..'], // v_sat_pk_u8_i16
  [0x63, 'an....-co'], // v_cvt_norm_i16_f16
  [0x64, 'an....-co'], // v_cvt_norm_u16_f16
]);

/**
 * VOP2 opcodes with an e64 form, and their profiles. Missing (no e64 form): v_madmk_f32,
 * v_madak_f32, v_fmamk_f32/f16, v_fmaak_f32/f16 (they carry a literal), v_dot2c_f32_f16 and
 * v_dot4c_i32_i8 (gfx1030), v_pk_fmac_f16. v_cndmask_b32 takes float source modifiers, no clamp.
 * v_mac_f32 (0x1f) exists on gfx1010/gfx1013 only; the base table says so.
 */
export const E64_VOP2: ReadonlyMap<number, string> = new Map<number, string>([
  [0x01, 'anan..-..'], // v_cndmask_b32
  [0x03, 'anan..-co'], // v_add_f32
  [0x04, 'anan..-co'], // v_sub_f32
  [0x05, 'anan..-co'], // v_subrev_f32
  [0x06, 'anan..-co'], // v_mac_legacy_f32 / v_fmac_legacy_f32
  [0x07, 'anan..-co'], // v_mul_legacy_f32
  [0x08, 'anan..-co'], // v_mul_f32
  [0x09, '......-c.'], // v_mul_i32_i24
  [0x0a, '......-..'], // v_mul_hi_i32_i24
  [0x0b, '......-c.'], // v_mul_u32_u24
  [0x0c, '......-..'], // v_mul_hi_u32_u24
  [0x0f, 'anan..-co'], // v_min_f32
  [0x10, 'anan..-co'], // v_max_f32
  [0x11, '......-..'], // v_min_i32
  [0x12, '......-..'], // v_max_i32
  [0x13, '......-..'], // v_min_u32
  [0x14, '......-..'], // v_max_u32
  [0x16, '......-..'], // v_lshrrev_b32
  [0x18, '......-..'], // v_ashrrev_i32
  [0x1a, '......-..'], // v_lshlrev_b32
  [0x1b, '......-..'], // v_and_b32
  [0x1c, '......-..'], // v_or_b32
  [0x1d, '......-..'], // v_xor_b32
  [0x1e, '......-..'], // v_xnor_b32
  [0x1f, 'anan..-co'], // v_mac_f32
  [0x25, '......-c.'], // v_add_nc_u32
  [0x26, '......-c.'], // v_sub_nc_u32
  [0x27, '......-c.'], // v_subrev_nc_u32
  [0x28, '......bc.'], // v_add_co_ci_u32
  [0x29, '......bc.'], // v_sub_co_ci_u32
  [0x2a, '......bc.'], // v_subrev_co_ci_u32
  [0x2b, 'anan..-co'], // v_fmac_f32
  [0x2f, 'anan..-co'], // v_cvt_pkrtz_f16_f32
  [0x32, 'anan..-co'], // v_add_f16
  [0x33, 'anan..-co'], // v_sub_f16
  [0x34, 'anan..-co'], // v_subrev_f16
  [0x35, 'anan..-co'], // v_mul_f16
  [0x36, 'anan..-co'], // v_fmac_f16
  [0x39, 'anan..-co'], // v_max_f16
  [0x3a, 'anan..-co'], // v_min_f16
  [0x3b, 'anxs..-co'], // v_ldexp_f16
]);

/**
 * Per-source printing quirks of e64 forms, keyed 'FAMILY:opcode', one entry per source field
 * ('' = none). 'constAsF16': LLVM prints a constant (inline or literal) of this integer source as
 * it prints an f16 operand (literal 0x00003800 as 0.5, 0x0000fff0 as -16), not as a 16-bit
 * integer operand (0x3800, 0xfff0).
 */
export const E64_SRC_QUIRKS: ReadonlyMap<string, readonly string[]> = new Map<string, readonly string[]>([
  ['VOP2:59', ['', 'constAsF16', '']], // v_ldexp_f16: the i16 exponent source
]);

function isFloat(t: string | undefined): boolean {
  return t === 'f16' || t === 'f32' || t === 'f64';
}

/**
 * Profile of the e64 form of a base VOP1/VOP2/VOPC definition, or undefined when the opcode has
 * no e64 form. Every VOPC opcode has one: float compares take abs/neg on both sources and clamp;
 * v_cmp_class_* (float src0, integer mask src1) take abs/neg on src0 only; integer compares none.
 */
export function e64ProfileOf(def: InstrDef): string | undefined {
  switch (def.family) {
    case 'VOP1': return E64_VOP1.get(def.opcode);
    case 'VOP2': return E64_VOP2.get(def.opcode);
    case 'VOPC': {
      const srcs = def.operands.filter((o) => o.role === 'src');
      const f0 = isFloat(srcs[0]?.type), f1 = isFloat(srcs[1]?.type);
      if (f0 && f1) return 'anan..-c.';
      if (f0) return 'an....-..';
      return '......-..';
    }
    default: return undefined;
  }
}
