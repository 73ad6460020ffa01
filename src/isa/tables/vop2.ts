// VOP2 opcodes of gfx10 (e32 encoding: 0 op[30:25] vdst[24:17] vsrc1[16:9] src0[8:0]), checked
// against LLVM 19. Per target: v_mac_legacy_f32 (gfx1010/gfx1013) is v_fmac_legacy_f32 on gfx1030;
// v_mac_f32, v_madmk_f32, v_madak_f32 are gfx1010/gfx1013 only; v_dot2c_f32_f16 and
// v_dot4c_i32_i8 are gfx1030 only. Flags: 'noVOP3' (no e64 form; LLVM prints no _e32 suffix),
// 'accumulate' (vdst is also read: mac/fmac/dot*c), 'literalK' (a 32-bit K constant dword follows
// the instruction: madmk/madak/fmamk/fmaak; operand 'simm32', kind 'literal').
// wave32: the implicit VCC operands print as vcc_lo.
import type { DataType, InstrDef, OperandDef } from '../types.js';
import { valuOp, V, S0, V1, VCC_OUT } from './valu-e32.js';

const op = valuOp('VOP2');

/** The K constant of v_madmk/madak/fmamk/fmaak: the literal dword after the instruction. */
const K = (type: DataType): OperandDef => ({ name: 'simm32', role: 'src', kind: 'literal', type });
/** VCC read: carry-in of v_add_co_ci etc., the lane mask of v_cndmask_b32. */
const VCC_IN: OperandDef = { name: 'src2', role: 'src', kind: 'vcc', type: 'mask' };

export const VOP2_TABLE: readonly InstrDef[] = [
  // LLVM prints the all-zero dword as v_illegal; any other opcode-0 word is invalid (flag 'zeroFields').
  op('v_illegal', 0, [], { flags: ['noVOP3', 'zeroFields'] }),
  op('v_cndmask_b32', 1, [V('b32'), S0('b32'), V1('b32'), VCC_IN], { modifiers: ['neg', 'abs', 'dpp', 'sdwa'], implicitReads: ['VCC'] }),
  op('v_dot2c_f32_f16', 2, [V('f32', 'srcdst'), S0('v2f16'), V1('v2f16')], { float: 'f32', modifiers: ['dpp'], flags: ['noVOP3', 'accumulate'], targets: ['gfx1030'] }),
  op('v_add_f32', 3, [V('f32'), S0('f32'), V1('f32')], { float: 'f32', modifiers: ['neg', 'abs', 'clamp', 'omod', 'dpp', 'sdwa'] }),
  op('v_sub_f32', 4, [V('f32'), S0('f32'), V1('f32')], { float: 'f32', modifiers: ['neg', 'abs', 'clamp', 'omod', 'dpp', 'sdwa'] }),
  op('v_subrev_f32', 5, [V('f32'), S0('f32'), V1('f32')], { float: 'f32', modifiers: ['neg', 'abs', 'clamp', 'omod', 'dpp', 'sdwa'] }),
  op('v_mac_legacy_f32', 6, [V('f32', 'srcdst'), S0('f32'), V1('f32')], { float: 'f32', modifiers: ['neg', 'abs', 'clamp', 'omod'], flags: ['mode:always-flush-f32', 'accumulate'], targets: ['gfx1010', 'gfx1013'] }),
  op('v_fmac_legacy_f32', 6, [V('f32', 'srcdst'), S0('f32'), V1('f32')], { float: 'f32', modifiers: ['neg', 'abs', 'clamp', 'omod'], flags: ['mode:always-flush-f32', 'accumulate'], targets: ['gfx1030'] }),
  op('v_mul_legacy_f32', 7, [V('f32'), S0('f32'), V1('f32')], { float: 'f32', modifiers: ['neg', 'abs', 'clamp', 'omod', 'dpp', 'sdwa'] , flags: ['mode:always-flush-f32'] }),
  op('v_mul_f32', 8, [V('f32'), S0('f32'), V1('f32')], { float: 'f32', modifiers: ['neg', 'abs', 'clamp', 'omod', 'dpp', 'sdwa'] }),
  op('v_mul_i32_i24', 9, [V('i32'), S0('i24'), V1('i24')], { modifiers: ['clamp', 'dpp', 'sdwa'] }),
  op('v_mul_hi_i32_i24', 10, [V('i32'), S0('i24'), V1('i24')], { modifiers: ['dpp', 'sdwa'] }),
  op('v_mul_u32_u24', 11, [V('u32'), S0('u24'), V1('u24')], { modifiers: ['clamp', 'dpp', 'sdwa'] }),
  op('v_mul_hi_u32_u24', 12, [V('u32'), S0('u24'), V1('u24')], { modifiers: ['dpp', 'sdwa'] }),
  op('v_dot4c_i32_i8', 13, [V('i32', 'srcdst'), S0('b32'), V1('b32')], { modifiers: ['dpp'], flags: ['noVOP3', 'accumulate'], targets: ['gfx1030'] }),
  op('v_min_f32', 15, [V('f32'), S0('f32'), V1('f32')], { float: 'f32', modifiers: ['neg', 'abs', 'clamp', 'omod', 'dpp', 'sdwa'] }),
  op('v_max_f32', 16, [V('f32'), S0('f32'), V1('f32')], { float: 'f32', modifiers: ['neg', 'abs', 'clamp', 'omod', 'dpp', 'sdwa'] }),
  op('v_min_i32', 17, [V('i32'), S0('i32'), V1('i32')], { modifiers: ['dpp', 'sdwa'] }),
  op('v_max_i32', 18, [V('i32'), S0('i32'), V1('i32')], { modifiers: ['dpp', 'sdwa'] }),
  op('v_min_u32', 19, [V('u32'), S0('u32'), V1('u32')], { modifiers: ['dpp', 'sdwa'] }),
  op('v_max_u32', 20, [V('u32'), S0('u32'), V1('u32')], { modifiers: ['dpp', 'sdwa'] }),
  op('v_lshrrev_b32', 22, [V('b32'), S0('u32'), V1('b32')], { modifiers: ['dpp', 'sdwa'] }),
  op('v_ashrrev_i32', 24, [V('i32'), S0('u32'), V1('i32')], { modifiers: ['dpp', 'sdwa'] }),
  op('v_lshlrev_b32', 26, [V('b32'), S0('u32'), V1('b32')], { modifiers: ['dpp', 'sdwa'] }),
  op('v_and_b32', 27, [V('b32'), S0('b32'), V1('b32')], { modifiers: ['dpp', 'sdwa'] }),
  op('v_or_b32', 28, [V('b32'), S0('b32'), V1('b32')], { modifiers: ['dpp', 'sdwa'] }),
  op('v_xor_b32', 29, [V('b32'), S0('b32'), V1('b32')], { modifiers: ['dpp', 'sdwa'] }),
  op('v_xnor_b32', 30, [V('b32'), S0('b32'), V1('b32')], { modifiers: ['dpp', 'sdwa'] }),
  op('v_mac_f32', 31, [V('f32', 'srcdst'), S0('f32'), V1('f32')], { float: 'f32', modifiers: ['neg', 'abs', 'clamp', 'omod', 'dpp'], flags: ['mode:always-flush-f32', 'accumulate'], targets: ['gfx1010', 'gfx1013'] }),
  op('v_madmk_f32', 32, [V('f32'), S0('f32'), K('f32'), V1('f32')], { float: 'f32', flags: ['mode:always-flush-f32', 'noVOP3', 'literalK'], targets: ['gfx1010', 'gfx1013'] }),
  op('v_madak_f32', 33, [V('f32'), S0('f32'), V1('f32'), K('f32')], { float: 'f32', flags: ['mode:always-flush-f32', 'noVOP3', 'literalK'], targets: ['gfx1010', 'gfx1013'] }),
  op('v_add_nc_u32', 37, [V('u32'), S0('u32'), V1('u32')], { modifiers: ['clamp', 'dpp', 'sdwa'] }),
  op('v_sub_nc_u32', 38, [V('u32'), S0('u32'), V1('u32')], { modifiers: ['clamp', 'dpp', 'sdwa'] }),
  op('v_subrev_nc_u32', 39, [V('u32'), S0('u32'), V1('u32')], { modifiers: ['clamp', 'dpp', 'sdwa'] }),
  op('v_add_co_ci_u32', 40, [V('u32'), VCC_OUT, S0('u32'), V1('u32'), VCC_IN], { modifiers: ['clamp', 'dpp', 'sdwa'], implicitReads: ['VCC'], implicitWrites: ['VCC'] }),
  op('v_sub_co_ci_u32', 41, [V('u32'), VCC_OUT, S0('u32'), V1('u32'), VCC_IN], { modifiers: ['clamp', 'dpp', 'sdwa'], implicitReads: ['VCC'], implicitWrites: ['VCC'] }),
  op('v_subrev_co_ci_u32', 42, [V('u32'), VCC_OUT, S0('u32'), V1('u32'), VCC_IN], { modifiers: ['clamp', 'dpp', 'sdwa'], implicitReads: ['VCC'], implicitWrites: ['VCC'] }),
  op('v_fmac_f32', 43, [V('f32', 'srcdst'), S0('f32'), V1('f32')], { float: 'f32', modifiers: ['neg', 'abs', 'clamp', 'omod', 'dpp'], flags: ['accumulate'] }),
  op('v_fmamk_f32', 44, [V('f32'), S0('f32'), K('f32'), V1('f32')], { float: 'f32', flags: ['noVOP3', 'literalK'] }),
  op('v_fmaak_f32', 45, [V('f32'), S0('f32'), V1('f32'), K('f32')], { float: 'f32', flags: ['noVOP3', 'literalK'] }),
  op('v_cvt_pkrtz_f16_f32', 47, [V('v2f16'), S0('f32'), V1('f32')], { float: 'f16', modifiers: ['neg', 'abs', 'clamp', 'omod', 'dpp', 'sdwa'] , flags: ['mode:rtz'] }),
  op('v_add_f16', 50, [V('f16'), S0('f16'), V1('f16')], { float: 'f16', modifiers: ['neg', 'abs', 'clamp', 'omod', 'dpp', 'sdwa'] }),
  op('v_sub_f16', 51, [V('f16'), S0('f16'), V1('f16')], { float: 'f16', modifiers: ['neg', 'abs', 'clamp', 'omod', 'dpp', 'sdwa'] }),
  op('v_subrev_f16', 52, [V('f16'), S0('f16'), V1('f16')], { float: 'f16', modifiers: ['neg', 'abs', 'clamp', 'omod', 'dpp', 'sdwa'] }),
  op('v_mul_f16', 53, [V('f16'), S0('f16'), V1('f16')], { float: 'f16', modifiers: ['neg', 'abs', 'clamp', 'omod', 'dpp', 'sdwa'] }),
  op('v_fmac_f16', 54, [V('f16', 'srcdst'), S0('f16'), V1('f16')], { float: 'f16', modifiers: ['neg', 'abs', 'clamp', 'omod', 'dpp'], flags: ['accumulate'] }),
  op('v_fmamk_f16', 55, [V('f16'), S0('f16'), K('f16'), V1('f16')], { float: 'f16', flags: ['noVOP3', 'literalK'] }),
  op('v_fmaak_f16', 56, [V('f16'), S0('f16'), V1('f16'), K('f16')], { float: 'f16', flags: ['noVOP3', 'literalK'] }),
  op('v_max_f16', 57, [V('f16'), S0('f16'), V1('f16')], { float: 'f16', modifiers: ['neg', 'abs', 'clamp', 'omod', 'dpp', 'sdwa'] }),
  op('v_min_f16', 58, [V('f16'), S0('f16'), V1('f16')], { float: 'f16', modifiers: ['neg', 'abs', 'clamp', 'omod', 'dpp', 'sdwa'] }),
  op('v_ldexp_f16', 59, [V('f16'), S0('f16'), V1('i16')], { float: 'f16', modifiers: ['neg', 'abs', 'clamp', 'omod', 'dpp', 'sdwa'] }),
  op('v_pk_fmac_f16', 60, [V('v2f16', 'srcdst'), S0('v2f16'), V1('v2f16')], { float: 'f16', flags: ['noVOP3', 'accumulate'] }),
];
