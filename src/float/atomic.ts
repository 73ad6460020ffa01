// The float atomics' read-modify-write: ds_add(_rtn)_f32, ds_min/max(_rtn)_f32/_f64,
// ds_cmpst(_rtn)_f32/_f64, and buffer_/global_/flat_atomic_fcmpswap/fmin/fmax(_x2). One switch
// for both engines: the interpreter calls floatAtomic, the recompiler builds the same op from the
// IR float ops under floatAtomicEnv's mode (src/frontend/units/float-atomic.ts).
//
// The RDNA2 ISA gives the rules: add MEM = MEM + DATA; min MEM = DATA < MEM ? DATA : MEM; max
// MEM = DATA > MEM ? DATA : MEM; cmpst / fcmpswap MEM = MEM == CMP ? SRC : MEM (a float compare:
// -0 == +0, a NaN equals nothing). It does not say which MODE settings govern them; LLVM selects
// these instructions for atomicrmw fadd/fmin/fmax (minnum/maxnum semantics) and describes their
// denormal handling per memory and target without settling gfx10's.
//
// Choice (docs/TECHNICAL_DEBT.md): MODE does not govern them. They compute as the VALU op of the
// same name (v_add, v_min, v_max, v_cmp_eq) under the fixed MODE value FLOAT_ATOMIC_MODE: round to
// nearest even, denormals kept on input and output, IEEE on (an sNaN operand of min/max gives
// it quieted, a qNaN is treated as missing), DX10_CLAMP on (unused). The operand order is
// (MEM, DATA): a NaN result of add carries MEM's NaN when both are NaN.
import { type FloatEnv, envFor } from './env.js';
import { addBits } from './arith.js';
import { cmpBits, maxBits, minBits } from './compare.js';
import { F32, F64 } from './format.js';

/** The MODE register value every float atomic computes under, whatever the wave's MODE (the one switch). */
export const FLOAT_ATOMIC_MODE = 0x3f0;

/** The float atomic operations: add, min, max, and cmpswap (DS cmpst, MUBUF/FLAT fcmpswap). */
export const FLOAT_ATOMIC_OPS = ['add', 'min', 'max', 'cmpswap'] as const;
export type FloatAtomicOp = (typeof FLOAT_ATOMIC_OPS)[number];

/** The float environment of a float atomic of `type`. */
export const floatAtomicEnv = (type: 'f32' | 'f64'): FloatEnv => envFor(FLOAT_ATOMIC_MODE, type);

/**
 * The new memory value of float atomic `op` on `type` bits (f32 in the low 32 bits): add old +
 * src, min/max of (old, src), cmpswap old == cmp ? src : old.
 */
export function floatAtomic(op: FloatAtomicOp, type: 'f32' | 'f64', old: bigint, src: bigint, cmp: bigint): bigint {
  const f = type === 'f32' ? F32 : F64;
  const env = floatAtomicEnv(type);
  switch (op) {
    case 'add': return addBits(f, old, src, env);
    case 'min': return minBits(f, old, src, env);
    case 'max': return maxBits(f, old, src, env);
    case 'cmpswap': return cmpBits(f, 'eq', old, cmp, env) ? src : old;
  }
}

/** The float atomic of a mnemonic (DS, MUBUF, GLOBAL or FLAT), or undefined. */
export function floatAtomicOf(mnemonic: string): { op: FloatAtomicOp; type: 'f32' | 'f64' } | undefined {
  const ds = /^ds_(add|min|max|cmpst)(?:_rtn)?_(f32|f64)$/.exec(mnemonic);
  if (ds) return { op: ds[1] === 'cmpst' ? 'cmpswap' : (ds[1] as FloatAtomicOp), type: ds[2] as 'f32' | 'f64' };
  const mem = /^(?:buffer|global|flat)_atomic_f(cmpswap|min|max)(_x2)?$/.exec(mnemonic);
  if (mem) return { op: mem[1] as FloatAtomicOp, type: mem[2] ? 'f64' : 'f32' };
  return undefined;
}
