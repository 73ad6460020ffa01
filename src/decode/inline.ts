// The values of inline constants (source codes 128-208 and 240-248) as an operand of a given type
// reads them: integers sign-extended (to 64 bits for 64-bit operands, the low half for 16-bit),
// floats in the operand's format (f16, f32, or f64 including 1/(2π)); a float constant read by a
// 64-bit integer operand is the f64 bit pattern. RDNA2 ISA reference "Inline constants"; LLVM
// AMDGPUBaseInfo. Shared by the interpreter and the recompiler's frontend.
import type { DataType } from '../isa/types.js';

const F32_INLINE = [0x3f000000, 0xbf000000, 0x3f800000, 0xbf800000, 0x40000000, 0xc0000000, 0x40800000, 0xc0800000, 0x3e22f983] as const;
const F16_INLINE = [0x3800, 0xb800, 0x3c00, 0xbc00, 0x4000, 0xc000, 0x4400, 0xc400, 0x3118] as const;
/** High dwords of the f64 inline constants (low dwords are 0, except 1/(2*pi)). */
const F64_INLINE_HI = [0x3fe00000, 0xbfe00000, 0x3ff00000, 0xbff00000, 0x40000000, 0xc0000000, 0x40100000, 0xc0100000, 0x3fc45f30] as const;
const F64_INV2PI_LO = 0x6dc9c882;

/** How a table type reads a constant: its float kind and width. */
function constKind(type: DataType): { float: 'f16' | 'f32' | 'f64' | undefined; width64: boolean } {
  switch (type) {
    case 'f16': case 'v2f16': return { float: 'f16', width64: false };
    case 'f64': return { float: 'f64', width64: true };
    case 'b64': case 'i64': case 'u64': return { float: undefined, width64: true };
    case 'i16': case 'u16': case 'b16': case 'v2i16': case 'v2u16': case 'v2b16': return { float: undefined, width64: false };
    default: return { float: 'f32', width64: false };
  }
}

/** Dword `dword` (0 or 1) of an inline constant `code` read as `type`. */
export function inlineConstant(code: number, type: DataType, dword: number): number {
  const k = constKind(type);
  if (code >= 128 && code <= 208) {
    const v = code <= 192 ? code - 128 : 192 - code;
    if (dword === 0) return type === 'f16' || type === 'i16' || type === 'u16' || type === 'b16' ? v & 0xffff : v >>> 0;
    return v < 0 ? 0xffffffff : 0;
  }
  const i = code - 240;
  if (i < 0 || i > 8) throw new RangeError(`operand code ${code} is not an inline constant`);
  if (k.float === 'f64' || (k.float === undefined && k.width64)) {
    if (dword === 1) return F64_INLINE_HI[i] ?? 0;
    return i === 8 ? F64_INV2PI_LO : 0;
  }
  if (dword === 1) return 0;
  return k.float === 'f16' ? F16_INLINE[i] ?? 0 : F32_INLINE[i] ?? 0;
}

