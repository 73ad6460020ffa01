// The float atomics' new value as a helper of the kernel's function (AtomicRmwCall and
// AtomicLdsCall call it): new = f(old, data, compare), three u64 parameters and a u64 result (an
// f32 in the low dword), built from the exact integer lowering of the IR float ops (lowerBody:
// FAdd32, FMin32/64, FMax32/64, FCmp32/64 eq and a select) under the float atomics' fixed mode
// (src/float/atomic.ts floatAtomicEnv), so the helper computes the bits src/float's floatAtomic
// does. One helper per (op, type) per process, shared as lowerFloat's are.
import { floatAtomicEnv, type FloatAtomicOp } from '../../float/atomic.js';
import { Builder, type Inst, IrFunction } from '../ir.js';
import { eliminateCommonSubexpressions } from './cse.js';
import { eliminateDeadCode } from './dce.js';
import { lowerBody, type Mode, X } from './lower-float.js';
import { FLOAT_TO_INT_ROUNDING, TININESS } from '../../float/env.js';

const HELPERS = new Map<string, IrFunction>();

function build(op: FloatAtomicOp, type: 'f32' | 'f64'): IrFunction {
  const h = new IrFunction(`float-atomic.${op}.${type}`, 32);
  const b = new Builder(h, h.addBlock());
  const [old, src, cmp] = [0, 1, 2].map((k) => b.emit('Param', [], [k], { type: 'u64' })) as [Inst, Inst, Inst];
  const e = floatAtomicEnv(type);
  const md: Mode = {
    round: e.round, flushIn: e.flushIn, flushOut: e.flushOut, ieee: e.ieee, dx10Clamp: e.dx10Clamp,
    f16Ovfl: e.f16Ovfl === true, tininess: e.tininess ?? TININESS, floatToInt: e.floatToInt ?? FLOAT_TO_INT_ROUNDING,
  };
  const x = new X(b);
  const w = type === 'f64';
  const bits = (v: Inst) => (w ? v : b.emit('Lo32', [v]));
  const o = bits(old), s = bits(src), c = bits(cmp);
  let r: Inst;
  switch (op) {
    case 'add': r = lowerBody(x, md, w ? 'FAdd64' : 'FAdd32', [], (k) => [o, s][k] as Inst); break;
    case 'min': r = lowerBody(x, md, w ? 'FMin64' : 'FMin32', [], (k) => [o, s][k] as Inst); break;
    case 'max': r = lowerBody(x, md, w ? 'FMax64' : 'FMax32', [], (k) => [o, s][k] as Inst); break;
    case 'cmpswap': {
      // The compare predicate 'eq' (imm 2 of the VOPC predicates).
      const eq = lowerBody(x, md, w ? 'FCmp64' : 'FCmp32', [2], (k) => [o, c][k] as Inst);
      r = w
        ? b.emit('Pack64', [x.sel(eq, b.emit('Lo32', [s]), b.emit('Lo32', [o])), x.sel(eq, b.emit('Hi32', [s]), b.emit('Hi32', [o]))])
        : x.sel(eq, s, o);
      break;
    }
  }
  b.emit('Return', [w ? r : b.emit('Pack64', [r, x.c(0)])]);
  eliminateCommonSubexpressions(h);
  eliminateDeadCode(h);
  return h;
}

/** The index in `fn.helpers` of float atomic (op, type)'s helper, added on first use. */
export function floatAtomicHelper(fn: IrFunction, op: FloatAtomicOp, type: 'f32' | 'f64'): number {
  const key = `${op}.${type}`;
  let h = HELPERS.get(key);
  if (!h) { h = build(op, type); HELPERS.set(key, h); }
  const k = fn.helpers.indexOf(h);
  if (k >= 0) return k;
  fn.helpers.push(h);
  return fn.helpers.length - 1;
}
