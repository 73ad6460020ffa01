// The lowering of v_exp/v_log/v_sin/v_cos (FExp32 ... FCos16): the float model's own algorithms
// (src/float/transcendental.ts: exp2Core, log2Core, sinCore, cosCore, written once over
// F64Arith) instantiated with IR builders, so the recompiled bits are the interpreter's by
// construction. Each op becomes two calls (lowerFloat, lower-float.ts):
// - the core (one helper per op, input flush and form; no other MODE field): the source bits
//   after the input flush, converted exactly to an f64 in integer code, through the algorithm,
//   with the special inputs' results (SPECIALS) as f64 values: an f64's bits (u64). Its f64 steps
//   come in two forms. 'device': OpFAdd/OpFSub/OpFMul on f64 values with the device-op mode
//   DEVICE_RTE (NoContraction, under the entry point's RoundingModeRTE and SignedZeroInfNanPreserve
//   for 64 bits), where the profile allows f64 device ops with nearest even (guardedF64Available
//   in src/backend/spirv/float-controls.ts, the condition of the guarded f32 fma); the algorithms
//   never make an f64 subnormal, infinity or NaN (the model's header), so the device's f64
//   denormal mode never shows, and Vulkan requires these ops correctly rounded under RTE. 'exact':
//   the same steps as exact integer code (lower-float-lean64.ts: an f64 add, sub and mul to
//   nearest even for just that domain, operands and results normal or zero, about a quarter of
//   lower-float-wide.ts's general ones), on every other profile (portable, nvidia: f64DeviceOps
//   false). Compares, selects and the bit steps (2^n, the table picks, exponent and significand)
//   are integer code in both forms.
// - the rounding (one helper per op and mode): a NaN source propagates (quieted when IEEE), else the
//   f64 is rounded to the result format by the mode's direction with its output flush (tininess
//   after rounding) and overflow, the model's roundNumber (a NaN from the core is the format's
//   canonical NaN, an infinity stays one).
import { FLOAT_TO_INT_ROUNDING, TININESS } from '../../float/env.js';
import { Builder, type FloatMode, type Inst, IrFunction } from '../ir.js';
import type { Op } from '../ops.js';
import { CORES, SPECIALS, type F64Arith, type F64Const, type F64Table, type Special, type TranscendentalFn } from '../../float/transcendental.js';
import { type Mode, X } from './lower-float-core.js';
import { FMT16, FMT32, FMT64, type Fmt, fromInt, infBits, qnanBits, quiet, roundPack, signMask, unpack } from './lower-float-wide.js';
import { leanAdd64, leanMul64, leanSub64 } from './lower-float-lean64.js';
import { eliminateCommonSubexpressions } from './cse.js';
import { eliminateDeadCode } from './dce.js';

/** The transcendental ops: their function and format. */
export const TRANSCENDENTAL: Readonly<Partial<Record<Op, { readonly fn: TranscendentalFn; readonly fmt: Fmt }>>> = {
  FExp32: { fn: 'exp', fmt: FMT32 }, FLog32: { fn: 'log', fmt: FMT32 }, FSin32: { fn: 'sin', fmt: FMT32 }, FCos32: { fn: 'cos', fmt: FMT32 },
  FExp16: { fn: 'exp', fmt: FMT16 }, FLog16: { fn: 'log', fmt: FMT16 }, FSin16: { fn: 'sin', fmt: FMT16 }, FCos16: { fn: 'cos', fmt: FMT16 },
};
export const LOWERED_TRANSCENDENTAL: ReadonlySet<Op> = new Set(Object.keys(TRANSCENDENTAL) as Op[]);

/** How the core's f64 add/sub/mul run: device ops under nearest even, or exact integer code. */
export type CoreForm = 'device' | 'exact';

/** The f64 steps' mode: nearest even, denormals kept (none occurs), IEEE. */
const F64_RNE: Mode = { round: 0, flushIn: false, flushOut: false, ieee: true, dx10Clamp: true, f16Ovfl: false, tininess: TININESS, floatToInt: FLOAT_TO_INT_ROUNDING };
/** The device ops' float mode (as the guarded helpers': lower-float-guarded.ts). */
const DEVICE_RTE: FloatMode = { round: 0, denorm: 3, ieee: true, dx10Clamp: true };
const SIGN64 = 1n << 63n;

/** F64Arith over IR: V the f64's bits (u64), B a u1, I a u32. */
class IrArith implements F64Arith<Inst, Inst, Inst> {
  constructor(readonly x: X, readonly form: CoreForm, readonly device: FloatMode) {}
  private dev(op: 'FAdd64' | 'FSub64' | 'FMul64', a: Inst, b: Inst): Inst {
    const x = this.x, f = (v: Inst) => x.op('BitcastU64F64', v);
    return x.op('BitcastF64U64', x.b.emit(op, [f(a), f(b)], [], { float: this.device }));
  }
  c(k: F64Const): Inst { return this.x.c64(k.bits); }
  add(a: Inst, b: Inst): Inst { return this.form === 'device' ? this.dev('FAdd64', a, b) : leanAdd64(this.x, a, b); }
  sub(a: Inst, b: Inst): Inst { return this.form === 'device' ? this.dev('FSub64', a, b) : leanSub64(this.x, a, b); }
  mul(a: Inst, b: Inst): Inst { return this.form === 'device' ? this.dev('FMul64', a, b) : leanMul64(this.x, a, b); }
  neg(a: Inst): Inst { const x = this.x; return x.op('Pack64', x.op('Lo32', a), x.op('Xor32', x.op('Hi32', a), x.c(0x80000000))); }
  /** An order key of a non-NaN value, −0 and +0 equal. */
  private key(a: Inst): Inst {
    const x = this.x;
    const mag = x.and64(a, x.c64(SIGN64 - 1n));
    const negative = x.ne(x.shr(x.op('Hi32', a), x.c(31)), x.c(0));
    return x.sel64(negative, x.sub64(x.c64(SIGN64), mag), x.add64(x.c64(SIGN64), mag));
  }
  lt(a: Inst, b: Inst): Inst { return this.x.ult64(this.key(a), this.key(b)); }
  eq(a: Inst, b: Inst): Inst { return this.x.op('IEq64', this.key(a), this.key(b)); }
  sel(c: Inst, a: Inst, b: Inst): Inst { return this.x.sel64(c, a, b); }
  or(a: Inst, b: Inst): Inst { return this.x.or1(a, b); }
  lowInt(v: Inst): Inst { return this.x.op('Lo32', v); }
  iand(i: Inst, m: number): Inst { return this.x.and(i, this.x.c(m)); }
  ieq(i: Inst, k: number): Inst { return this.x.eq(i, this.x.c(k)); }
  pow2(i: Inst): Inst { const x = this.x; return x.op('Pack64', x.c(0), x.shl(x.add(i, x.c(1023)), x.c(20))); }
  pick(i: Inst, t: F64Table): Inst {
    const x = this.x;
    let r = x.c64(t.bits[0] as bigint);
    for (let j = 1; j < t.bits.length; j++) r = x.sel64(x.eq(i, x.c(j)), x.c64(t.bits[j] as bigint), r);
    return r;
  }
  exponent(v: Inst): Inst { const x = this.x; return x.sub(x.and(x.shr(x.op('Hi32', v), x.c(20)), x.c(0x7ff)), x.c(1023)); }
  significand(v: Inst): Inst { const x = this.x; return x.op('Pack64', x.op('Lo32', v), x.or(x.and(x.op('Hi32', v), x.c(0xfffff)), x.c(0x3ff00000))); }
  itof(i: Inst): Inst { return fromInt(this.x, FMT64, F64_RNE, i, true); }
}

const SPECIAL64: Record<Special, bigint> = { nan: qnanBits(FMT64), '+inf': infBits(FMT64), '-inf': SIGN64 | infBits(FMT64), '+0': 0n };

function infoOf(op: Op): { readonly fn: TranscendentalFn; readonly fmt: Fmt } {
  const t = TRANSCENDENTAL[op];
  if (!t) throw new Error(`${op} is not a transcendental op (internal)`);
  return t;
}

/** The source's bits (u32: an f16 in the low half) widened to the core's u64. */
const source = (x: X, F: Fmt, a: Inst) => x.wide(F === FMT16 ? x.and(a, x.c(0xffff)) : a);

/**
 * The core: the f64 value (bits) of op's function on source bits `a` after the input flush, the
 * special inputs' results included (a NaN source gives anything: the rounding step propagates it).
 * `device`: the device ops' mode (tests give a flushing one too: no f64 denormal ever occurs).
 */
export function transcendentalCore(x: X, op: Op, flushIn: boolean, form: CoreForm, a: Inst, device: FloatMode = DEVICE_RTE): Inst {
  const { fn, fmt } = infoOf(op);
  const U = unpack(x, fmt, { ...F64_RNE, flushIn }, source(x, fmt, a));
  // The finite value as an f64, exactly: the significand normalised to bit 61 (Sig61), rounded (exactly) as FMT64.
  const pos = x.sub(x.c(63), x.clz64(U.mant));
  const m = x.shl64(U.mant, x.and(x.sub(x.c(61), pos), x.c(63)));
  const v = roundPack(x, FMT64, F64_RNE, U.sign, x.add(pos, x.sub(U.effExp, x.c(fmt.bias + fmt.mant - 1023))), m);
  const rules = SPECIALS[fn];
  // The algorithm's input: the value, or a harmless one where a rule gives the result.
  const settled = x.or1(x.or1(U.inf, U.nan), rules.zero || rules.negative ? x.or1(U.zero, U.sign) : x.t(false));
  const input = x.sel64(settled, x.c64(fn === 'log' ? 0x3ff0000000000000n : 0n), v);
  let r = CORES[fn](new IrArith(x, form, device), input);
  if (rules.negative) r = x.sel64(x.and1(U.sign, x.not1(U.zero)), x.c64(SPECIAL64[rules.negative]), r);
  if (rules.zero) r = x.sel64(U.zero, x.c64(SPECIAL64[rules.zero]), r);
  return x.sel64(U.inf, x.sel64(U.sign, x.c64(SPECIAL64[rules.negInf]), x.c64(SPECIAL64[rules.posInf])), r);
}

/** The result bits (u32) of op under md from its raw source bits `a` and the core's f64 `y` (bits). */
export function transcendentalRound(x: X, md: Mode, op: Op, a: Inst, y: Inst): Inst {
  const { fmt } = infoOf(op);
  const S = unpack(x, fmt, md, source(x, fmt, a));
  const Y = unpack(x, FMT64, F64_RNE, y);
  const pos = x.sub(x.c(63), x.clz64(Y.mant));
  const m = x.shl64(Y.mant, x.and(x.sub(x.c(61), pos), x.c(63)));
  // y = m · 2^(pos − 61 + effExp − 1075) = m · 2^(e − bias − 61).
  let r = roundPack(x, fmt, md, Y.sign, x.add(pos, x.sub(Y.effExp, x.c(1075 - fmt.bias))), m);
  r = x.sel64(Y.inf, x.or64(x.sel64(Y.sign, x.c64(signMask(fmt)), x.c64(0n)), x.c64(infBits(fmt))), r);
  r = x.sel64(Y.nan, x.c64(qnanBits(fmt)), r);
  r = x.sel64(S.nan, quiet(x, fmt, md, source(x, fmt, a)), r);
  return x.op('Lo32', r);
}

/** op under md as one straight body (the exact core inlined): lowerBody's form. */
export function lowerTranscendental(x: X, md: Mode, op: Op, a: Inst): Inst {
  return transcendentalRound(x, md, op, a, transcendentalCore(x, op, md.flushIn, 'exact', a));
}

/** The core helpers, built once per process (key: op, input flush, form). */
const CORE_HELPERS = new Map<string, IrFunction>();
export function transcendentalCoreHelper(op: Op, flushIn: boolean, form: CoreForm): IrFunction {
  const key = `transcendental core ${op} flushIn=${String(flushIn)} ${form}`;
  let h = CORE_HELPERS.get(key);
  if (h) return h;
  h = new IrFunction(key, 32);
  const b = new Builder(h, h.addBlock());
  const a = b.emit('Param', [], [0], { type: 'u32' });
  b.emit('Return', [transcendentalCore(new X(b), op, flushIn, form, a)]);
  eliminateCommonSubexpressions(h);
  eliminateDeadCode(h);
  CORE_HELPERS.set(key, h);
  return h;
}

/** The rounding helpers (source bits, core bits → result bits), built once per process per op and mode. */
const ROUND_HELPERS = new Map<string, IrFunction>();
export function transcendentalRoundHelper(op: Op, md: Mode): IrFunction {
  const key = `transcendental round ${op} ${Object.entries(md).map(([f, v]) => `${f}=${String(v)}`).join(' ')}`;
  let h = ROUND_HELPERS.get(key);
  if (h) return h;
  h = new IrFunction(key, 32);
  const b = new Builder(h, h.addBlock());
  const a = b.emit('Param', [], [0], { type: 'u32' });
  const y = b.emit('Param', [], [1], { type: 'u64' });
  b.emit('Return', [transcendentalRound(new X(b), md, op, a, y)]);
  eliminateCommonSubexpressions(h);
  eliminateDeadCode(h);
  ROUND_HELPERS.set(key, h);
  return h;
}
