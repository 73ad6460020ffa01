// Exact integer lowering of the f16 float ops (the VALU's v_*_f16, the halves of the VOP3P packed
// f16 ops, v_fma_mix's f16 rounding, and the f32 ↔ f16 and int ↔ f16 conversions) for every MODE,
// through the format-generic core (lower-float-wide.ts, lower-float-wide-div.ts): f16 values are
// u32 bits (the low half), widened to the core's u64 and narrowed back. No device float op and no
// Float16 capability is used.
import type { Imm, Inst } from '../ir.js';
import type { Op } from '../ops.js';
import type { Mode, X } from './lower-float-core.js';
import { FMT16, FMT32, add, compare, fma, fract, frexpExp, frexpMant, fromF32, fromInt, integral, ldexp, minMax, mul, negateUnlessNaN, outMod, toF32, toInt } from './lower-float-wide.js';
import { divFixup, rcp, rsq, sqrt } from './lower-float-wide-div.js';

/** The f16 ops lowerFloat lowers with lowerF16. */
export const LOWERED_F16: ReadonlySet<Op> = new Set<Op>(['FAdd16', 'FSub16', 'FMul16', 'FFma16', 'FCmp16', 'FMin16', 'FMax16', 'FFloor16', 'FCeil16', 'FTrunc16', 'FRndne16',
  'FRcp16', 'FSqrt16', 'FRsq16', 'FFrexpMant16', 'FFrexpExp16', 'FFract16', 'FLdexp16', 'FOutMod16', 'FDivFixup16',
  'ConvertF16U32', 'ConvertF16S32', 'ConvertU32F16', 'ConvertS32F16', 'ConvertF16F32', 'ConvertF32F16', 'FFmaMixF16']);

/** The lowered value of one f16 op (its arguments as u32 bits: f16 in the low half, f32, integers). */
export function lowerF16(x: X, md: Mode, op: Op, imms: readonly Imm[], a: (k: number) => Inst): Inst {
  const F = FMT16;
  const imm = (k: number) => Number(imms[k] ?? 0);
  const h = (k: number) => x.wide(x.and(a(k), x.c(0xffff)));
  const f32 = (k: number) => x.wide(a(k));
  const n = (v: Inst) => x.op('Lo32', v);
  switch (op) {
    case 'FAdd16': return n(add(x, F, md, h(0), h(1)));
    case 'FSub16': return n(add(x, F, md, h(0), negateUnlessNaN(x, F, h(1))));
    case 'FMul16': return n(mul(x, F, md, h(0), h(1)));
    case 'FFma16': return n(fma(x, F, F, md, h(0), h(1), h(2)));
    case 'FCmp16': return compare(x, F, md, imm(0), h(0), h(1));
    case 'FMin16': return n(minMax(x, F, md, h(0), h(1), false));
    case 'FMax16': return n(minMax(x, F, md, h(0), h(1), true));
    case 'FFloor16': return n(integral(x, F, md, h(0), 'floor'));
    case 'FCeil16': return n(integral(x, F, md, h(0), 'ceil'));
    case 'FTrunc16': return n(integral(x, F, md, h(0), 'trunc'));
    case 'FRndne16': return n(integral(x, F, md, h(0), 'rndne'));
    case 'FRcp16': return n(rcp(x, F, md, h(0)));
    case 'FSqrt16': return n(sqrt(x, F, md, h(0)));
    case 'FRsq16': return n(rsq(x, F, md, h(0)));
    case 'FFrexpMant16': return n(frexpMant(x, F, md, h(0)));
    case 'FFrexpExp16': return frexpExp(x, F, md, h(0));
    case 'FFract16': return n(fract(x, F, md, h(0)));
    case 'FLdexp16': return n(ldexp(x, F, md, h(0), a(1)));
    case 'FOutMod16': return n(outMod(x, F, md, h(0), imm(0), imm(1) !== 0));
    case 'FDivFixup16': return n(divFixup(x, F, md, h(0), h(1), h(2)));
    case 'ConvertF16U32': return n(fromInt(x, F, md, a(0), false));
    case 'ConvertF16S32': return n(fromInt(x, F, md, a(0), true));
    case 'ConvertU32F16': return toInt(x, F, md, h(0), false);
    case 'ConvertS32F16': return toInt(x, F, md, h(0), true);
    case 'ConvertF16F32': return n(fromF32(x, F, md, a(0)));
    case 'ConvertF32F16': return toF32(x, F, md, h(0));
    case 'FFmaMixF16': return n(fma(x, FMT32, F, md, f32(0), f32(1), f32(2)));
    default: throw new Error(`${op} is not an f16 op`);
  }
}
