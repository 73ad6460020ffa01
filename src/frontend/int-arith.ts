// The u32/u1 integer arithmetic over IR that the frontend's arithmetic interfaces share (the image
// layout's ImageArith in units/mimg.ts, the format stores' PackArith in units/buffer-format.ts):
// each instance adds what its interface needs beyond these, with its own shift rules.
import type { Builder, Inst } from '../ir/ir.js';
import type { Op } from '../ir/ops.js';

export class IrIntArith {
  constructor(readonly b: Builder) {}
  protected e(op: Op, ...args: Inst[]): Inst { return this.b.emit(op, args); }
  k(n: number): Inst { return this.b.u32(n >>> 0); }
  add(a: Inst, b: Inst): Inst { return this.e('IAdd32', a, b); }
  sub(a: Inst, b: Inst): Inst { return this.e('ISub32', a, b); }
  and(a: Inst, b: Inst): Inst { return this.e('And32', a, b); }
  eq(a: Inst, b: Inst): Inst { return this.e('IEq32', a, b); }
  ult(a: Inst, b: Inst): Inst { return this.e('ULt32', a, b); }
  sel(c: Inst, a: Inst, b: Inst): Inst { return this.e('Select32', c, a, b); }
  both(a: Inst, b: Inst): Inst { return this.e('AndU1', a, b); }
  /** a · b, both u32, as a u64. */
  mulWide(a: Inst, b: Inst): Inst { return this.e('UMulWide32', a, b); }
}
