// Shared operand-field decoding: the scalar/vector source code space of gfx10.
// RDNA2 ISA reference, "Scalar/Vector operand encodings"; LLVM SIDefines.h (AMDGPU::EncValues).
import type { OperandValue, SpecialReg } from './types.js';

/** 9-bit source code values (EncValues in SIDefines.h). */
export const SRC = {
  SGPR_MAX: 105,
  VCC_LO: 106,
  VCC_HI: 107,
  TTMP_MIN: 108,
  TTMP_MAX: 123,
  M0: 124,
  NULL: 125,
  EXEC_LO: 126,
  EXEC_HI: 127,
  INLINE_INT_MIN: 128, // 0
  INLINE_INT_POS_MAX: 192, // 64
  INLINE_INT_MAX: 208, // -16
  SHARED_BASE: 235,
  SHARED_LIMIT: 236,
  PRIVATE_BASE: 237,
  PRIVATE_LIMIT: 238,
  POPS_EXITING_WAVE_ID: 239,
  INLINE_FLOAT_MIN: 240,
  INLINE_FLOAT_MAX: 248,
  DPP8: 233,
  DPP8_FI: 234,
  SDWA: 249,
  DPP16: 250,
  VCCZ: 251,
  EXECZ: 252,
  SCC: 253,
  LDS_DIRECT: 254,
  LITERAL: 255,
  VGPR_MIN: 256,
} as const;

const SPECIAL_BY_CODE: ReadonlyMap<number, SpecialReg> = new Map<number, SpecialReg>([
  [SRC.VCC_LO, 'vcc_lo'],
  [SRC.VCC_HI, 'vcc_hi'],
  [SRC.M0, 'm0'],
  [SRC.NULL, 'null'],
  [SRC.EXEC_LO, 'exec_lo'],
  [SRC.EXEC_HI, 'exec_hi'],
  [SRC.SHARED_BASE, 'src_shared_base'],
  [SRC.SHARED_LIMIT, 'src_shared_limit'],
  [SRC.PRIVATE_BASE, 'src_private_base'],
  [SRC.PRIVATE_LIMIT, 'src_private_limit'],
  [SRC.POPS_EXITING_WAVE_ID, 'src_pops_exiting_wave_id'],
  [SRC.VCCZ, 'src_vccz'],
  [SRC.EXECZ, 'src_execz'],
  [SRC.SCC, 'src_scc'],
  [SRC.LDS_DIRECT, 'src_lds_direct'],
]);

// Register and constant operand values are immutable and few: each (code or first register,
// count) is made once and shared by every operand that names it, so a decoded kernel holds one
// object per distinct value rather than one per operand (decoding allocates what the CFG keeps).
// Counts from 0 to SHARED_COUNTS - 1 are shared; the rare larger ones are made each time.
const SHARED_COUNTS = 32;

/** The memo slot of (n, count) for 0 <= n < limit, or -1 (not shared). */
function slot(n: number, limit: number, count: number): number {
  return n >= 0 && n < limit && count >= 0 && count < SHARED_COUNTS ? n * SHARED_COUNTS + count : -1;
}

// Made at their full length (a fast holey array: one first filled far past its end is a dictionary).
const SGPR_VALUES = new Array<OperandValue>((SRC.SGPR_MAX + 1) * SHARED_COUNTS);
const TTMP_VALUES = new Array<OperandValue>((SRC.TTMP_MAX - SRC.TTMP_MIN + 1) * SHARED_COUNTS);
const VGPR_VALUES = new Array<OperandValue>(256 * SHARED_COUNTS);
/** By (source code, count): decodeScalarCode's values other than register ranges and the literal placeholder. */
const CODE_VALUES = new Array<OperandValue>(256 * SHARED_COUNTS);

/** The SGPR range s[index : index + count - 1] (a shared value). */
export function sgpr(index: number, count: number): OperandValue {
  const k = slot(index, SRC.SGPR_MAX + 1, count);
  return k < 0 ? { kind: 'sgpr', index, count } : (SGPR_VALUES[k] ??= { kind: 'sgpr', index, count });
}

/** The TTMP range ttmp[index : index + count - 1] (a shared value). */
export function ttmp(index: number, count: number): OperandValue {
  const k = slot(index, SRC.TTMP_MAX - SRC.TTMP_MIN + 1, count);
  return k < 0 ? { kind: 'ttmp', index, count } : (TTMP_VALUES[k] ??= { kind: 'ttmp', index, count });
}

export function isInlineConstant(code: number): boolean {
  return (code >= SRC.INLINE_INT_MIN && code <= SRC.INLINE_INT_MAX) || (code >= SRC.INLINE_FLOAT_MIN && code <= SRC.INLINE_FLOAT_MAX);
}

/** Integer value of an integer inline constant code (128..208). */
export function inlineIntValue(code: number): number {
  return code <= SRC.INLINE_INT_POS_MAX ? code - SRC.INLINE_INT_MIN : SRC.INLINE_INT_POS_MAX - code;
}

/**
 * Decode a scalar register/source code (0-255) for an operand of `count` dwords.
 * Literal (255) is returned as { kind: 'literal', value: NaN } for the caller to fill in, since
 * only the family decoder knows where its literal dword lies; callers use `literalValue`.
 * Pair registers: 106 (vcc) and 126 (exec) name the 64-bit register when count is 2.
 */
export function decodeScalarCode(code: number, count: number): OperandValue {
  if (code <= SRC.SGPR_MAX) return sgpr(code, count);
  if (code >= SRC.TTMP_MIN && code <= SRC.TTMP_MAX) return ttmp(code - SRC.TTMP_MIN, count);
  if (code === SRC.LITERAL) return { kind: 'literal', value: Number.NaN };
  const k = slot(code, 256, count);
  return k < 0 ? otherScalarCode(code, count) : (CODE_VALUES[k] ??= otherScalarCode(code, count));
}

/** decodeScalarCode of a code that is no register range and no literal. */
function otherScalarCode(code: number, count: number): OperandValue {
  if (isInlineConstant(code)) return { kind: 'inline', code };
  if (count >= 2 && code === SRC.VCC_LO) return { kind: 'special', reg: 'vcc', code, count };
  if (count >= 2 && code === SRC.EXEC_LO) return { kind: 'special', reg: 'exec', code, count };
  const reg = SPECIAL_BY_CODE.get(code);
  if (reg !== undefined) return { kind: 'special', reg, code, count };
  return { kind: 'reserved', code };
}

/** Decode a 9-bit VALU source code. */
export function decodeSrc9(code: number, count: number): OperandValue {
  if (code >= SRC.VGPR_MIN) return vgpr(code - SRC.VGPR_MIN, count);
  return decodeScalarCode(code, count);
}

/** The VGPR range v[index : index + count - 1] (a shared value). */
export function vgpr(index: number, count: number): OperandValue {
  const k = slot(index, 256, count);
  return k < 0 ? { kind: 'vgpr', index, count } : (VGPR_VALUES[k] ??= { kind: 'vgpr', index, count });
}

/** Bits hi..lo (inclusive) of a 32-bit word. */
export function bits(word: number, hi: number, lo: number): number {
  return hi === 31 && lo === 0 ? word >>> 0 : (word >>> lo) & ((1 << (hi - lo + 1)) - 1);
}

export function bit(word: number, n: number): boolean {
  return ((word >>> n) & 1) === 1;
}

/** Sign-extend the low `width` bits of v. */
export function sext(v: number, width: number): number {
  const shift = 32 - width;
  return (v << shift) >> shift;
}

/**
 * Decode a 9-bit VALU source (or VGPR destination, code 256 + n) of `count` dwords as LLVM 19
 * does for VALU operands wider than a dword: an SGPR or TTMP range is aligned down to its size
 * (s1 in a 64-bit operand is s[0:1], s5 in a 128-bit one s[4:7]); code 106 is `vcc` and 126
 * `exec` whatever the size; a range past s105 / ttmp15 / v255, vcc_hi, m0, exec_hi and
 * src_lds_direct give 'reserved' (LLVM prints .long). Single dwords decode as decodeSrc9.
 */
export function decodeValuSrc(code: number, count: number): OperandValue {
  if (count <= 1) return decodeSrc9(code, count);
  if (code >= SRC.VGPR_MIN) {
    const index = code - SRC.VGPR_MIN;
    return index + count > 256 ? { kind: 'reserved', code } : vgpr(index, count);
  }
  const align = count >= 4 ? 4 : count;
  if (code <= SRC.SGPR_MAX) {
    const index = code - (code % align);
    return index + count > SRC.SGPR_MAX + 1 ? { kind: 'reserved', code } : sgpr(index, count);
  }
  if (code >= SRC.TTMP_MIN && code <= SRC.TTMP_MAX) {
    const t = code - SRC.TTMP_MIN;
    const index = t - (t % align);
    return index + count > 16 ? { kind: 'reserved', code } : ttmp(index, count);
  }
  if (code === SRC.VCC_HI || code === SRC.M0 || code === SRC.EXEC_HI || code === SRC.LDS_DIRECT) return { kind: 'reserved', code };
  return decodeScalarCode(code, count);
}
