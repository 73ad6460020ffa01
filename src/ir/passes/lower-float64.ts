// Exact integer lowering of the f64 float ops (the VALU's v_*_f64 and the f32 ↔ f64 and int ↔ f64
// conversions) for every MODE, through the format-generic core (lower-float-wide.ts,
// lower-float-wide-div.ts): u64 bits in and out, 53 × 53-bit products through 32-bit halves. No
// device float op is used, so the bits are RDNA's (src/float) on any Vulkan device; lowerFloat
// (lower-float.ts) makes one helper per (op, mode) and calls it at each site.
import type { Imm, Inst } from '../ir.js';
import type { Op } from '../ops.js';
import type { Mode, X } from './lower-float-core.js';
import { FMT64, add, compare, fma, fract, frexpExp, frexpMant, fromF32, fromInt, integral, ldexp, minMax, mul, outMod, toF32, toInt } from './lower-float-wide.js';
import { divFixup, divFmas, divScale, rcp, rsq, sqrt } from './lower-float-wide-div.js';

/** The f64 ops lowerFloat lowers with lowerF64. */
export const LOWERED_F64: ReadonlySet<Op> = new Set<Op>(['FAdd64', 'FMul64', 'FFma64', 'FCmp64', 'FMin64', 'FMax64', 'FFloor64', 'FCeil64', 'FTrunc64', 'FRndne64',
  'FRcp64', 'FSqrt64', 'FRsq64', 'FFrexpMant64', 'FFrexpExp64', 'FFract64', 'FLdexp64', 'FOutMod64', 'FDivScale64', 'FDivScaleFlag64', 'FDivFmas64', 'FDivFixup64',
  'ConvertF64U32', 'ConvertF64S32', 'ConvertU32F64', 'ConvertS32F64', 'ConvertF64F32', 'ConvertF32F64']);

/** The lowered value of one f64 op (its arguments as bits: u64 for f64, u32 for f32 and integers). */
export function lowerF64(x: X, md: Mode, op: Op, imms: readonly Imm[], a: (k: number) => Inst): Inst {
  const F = FMT64;
  const imm = (k: number) => Number(imms[k] ?? 0);
  switch (op) {
    case 'FAdd64': return add(x, F, md, a(0), a(1));
    case 'FMul64': return mul(x, F, md, a(0), a(1));
    case 'FFma64': return fma(x, F, F, md, a(0), a(1), a(2));
    case 'FCmp64': return compare(x, F, md, imm(0), a(0), a(1));
    case 'FMin64': return minMax(x, F, md, a(0), a(1), false);
    case 'FMax64': return minMax(x, F, md, a(0), a(1), true);
    case 'FFloor64': return integral(x, F, md, a(0), 'floor');
    case 'FCeil64': return integral(x, F, md, a(0), 'ceil');
    case 'FTrunc64': return integral(x, F, md, a(0), 'trunc');
    case 'FRndne64': return integral(x, F, md, a(0), 'rndne');
    case 'FRcp64': return rcp(x, F, md, a(0));
    case 'FSqrt64': return sqrt(x, F, md, a(0));
    case 'FRsq64': return rsq(x, F, md, a(0));
    case 'FFrexpMant64': return frexpMant(x, F, md, a(0));
    case 'FFrexpExp64': return frexpExp(x, F, md, a(0));
    case 'FFract64': return fract(x, F, md, a(0));
    case 'FLdexp64': return ldexp(x, F, md, a(0), a(1));
    case 'FOutMod64': return outMod(x, F, md, a(0), imm(0), imm(1) !== 0);
    case 'FDivScale64': return divScale(x, F, md, a(0), a(1), a(2)).value;
    case 'FDivScaleFlag64': return divScale(x, F, md, a(0), a(1), a(2)).flag;
    case 'FDivFmas64': return divFmas(x, F, md, a(0), a(1), a(2), a(3));
    case 'FDivFixup64': return divFixup(x, F, md, a(0), a(1), a(2));
    case 'ConvertF64U32': return fromInt(x, F, md, a(0), false);
    case 'ConvertF64S32': return fromInt(x, F, md, a(0), true);
    case 'ConvertU32F64': return toInt(x, F, md, a(0), false);
    case 'ConvertS32F64': return toInt(x, F, md, a(0), true);
    case 'ConvertF64F32': return fromF32(x, F, md, a(0));
    case 'ConvertF32F64': return toF32(x, F, md, a(0));
    default: throw new Error(`${op} is not an f64 op`);
  }
}
