// The pure ops of the IR in SPIR-V: constants, integer and bit arithmetic, compares, selects,
// 64-bit packing, bitcasts and the native float ops. Shared by the kernel's entry point and its
// helper functions (which hold nothing but pure code), so each op is written once.
import type { Inst } from '../../ir/ir.js';
import type { IrType } from '../../ir/ops.js';
import type { Module } from './module.js';
import type { Id } from './operands.js';
import { CompileError } from './errors.js';

/** The module and its scalar types and constants. */
export interface Scalars {
  readonly m: Module;
  readonly tBool: Id; readonly tU32: Id; readonly tU64: Id; readonly tF32: Id;
  readonly typeOf: (t: IrType) => Id;
  readonly c32: (v: number) => Id;
  readonly c64: (v: bigint) => Id;
  readonly cBool: (v: boolean) => Id;
}

/** Emits pure instruction `i` with argument values `A(k)`; a CompileError for an op that is not pure or not emitted yet. */
export function emitPure(sc: Scalars, i: Inst, A: (k: number) => Id): Id {
  const { m, tBool, tU32, tU64, tF32, c32, c64, cBool } = sc;
  const T = (): Id => { if (i.type === 'void') throw new CompileError(`${i.op} has no type`, i.pc); return sc.typeOf(i.type); };
  const imm = (j: number) => i.imms[j] ?? 0;
  const nc = (id: Id) => { m.OpDecorate(id, 'NoContraction'); return id; };
  let r: Id;
  switch (i.op) {
      case 'ConstU1': r = cBool(Number(imm(0)) !== 0); break;
      case 'ConstU32': r = c32(Number(imm(0))); break;
      case 'ConstU64': r = c64(BigInt(imm(0))); break;
      case 'ConstF32': r = m.constantBits(tF32, Number(imm(0)) >>> 0); break;
      case 'Undef': r = i.type === 'u1' ? cBool(false) : i.type === 'u64' ? c64(0n) : i.type === 'f32' ? m.constantBits(tF32, 0) : c32(0); break;
      case 'LaneBit': {
        const l = A(2);
        const word = m.OpSelect(tU32, m.OpULessThan(tBool, l, c32(32)), A(0), A(1));
        r = m.OpINotEqual(tBool, m.OpBitwiseAnd(tU32, m.OpShiftRightLogical(tU32, word, m.OpBitwiseAnd(tU32, l, c32(31))), c32(1)), c32(0));
        break;
      }
      case 'IAdd32': r = m.OpIAdd(T(), A(0), A(1)); break;
      case 'ISub32': r = m.OpISub(T(), A(0), A(1)); break;
      case 'IMul32': r = m.OpIMul(T(), A(0), A(1)); break;
      case 'IAdd3_32': r = m.OpIAdd(T(), m.OpIAdd(T(), A(0), A(1)), A(2)); break;
      case 'UMulHi32': { const st = m.OpTypeStruct(tU32, tU32); r = m.OpCompositeExtract(tU32, m.OpUMulExtended(st, A(0), A(1)), 1); break; }
      case 'SMulHi32': { const st = m.OpTypeStruct(tU32, tU32); r = m.OpCompositeExtract(tU32, m.OpSMulExtended(st, A(0), A(1)), 1); break; }
      case 'And32': r = m.OpBitwiseAnd(T(), A(0), A(1)); break;
      case 'Or32': r = m.OpBitwiseOr(T(), A(0), A(1)); break;
      case 'Xor32': r = m.OpBitwiseXor(T(), A(0), A(1)); break;
      case 'Not32': r = m.OpNot(T(), A(0)); break;
      // RDNA shifts use the amount's low five bits; SPIR-V leaves larger amounts undefined.
      case 'Shl32': r = m.OpShiftLeftLogical(T(), A(0), m.OpBitwiseAnd(tU32, A(1), c32(31))); break;
      case 'LShr32': r = m.OpShiftRightLogical(T(), A(0), m.OpBitwiseAnd(tU32, A(1), c32(31))); break;
      case 'AShr32': r = m.OpShiftRightArithmetic(T(), A(0), m.OpBitwiseAnd(tU32, A(1), c32(31))); break;
      case 'UMin32': r = m.OpSelect(T(), m.OpULessThan(tBool, A(0), A(1)), A(0), A(1)); break;
      case 'UMax32': r = m.OpSelect(T(), m.OpUGreaterThan(tBool, A(0), A(1)), A(0), A(1)); break;
      case 'SMin32': r = m.OpSelect(T(), m.OpSLessThan(tBool, A(0), A(1)), A(0), A(1)); break;
      case 'SMax32': r = m.OpSelect(T(), m.OpSGreaterThan(tBool, A(0), A(1)), A(0), A(1)); break;
      case 'UAddCarry32': case 'USubBorrow32': {
        const st = m.OpTypeStruct(tU32, tU32);
        const add = i.op === 'UAddCarry32';
        const p1 = add ? m.OpIAddCarry(st, A(0), A(1)) : m.OpISubBorrow(st, A(0), A(1));
        const cin = m.OpSelect(tU32, A(2), c32(1), c32(0));
        const p2 = add ? m.OpIAddCarry(st, m.OpCompositeExtract(tU32, p1, 0), cin) : m.OpISubBorrow(st, m.OpCompositeExtract(tU32, p1, 0), cin);
        r = m.OpINotEqual(tBool, m.OpBitwiseOr(tU32, m.OpCompositeExtract(tU32, p1, 1), m.OpCompositeExtract(tU32, p2, 1)), c32(0));
        break;
      }
      case 'BitCount32': r = m.OpBitCount(T(), A(0)); break;
      // FindUMsb gives -1 (all ones) for 0: 31 - (-1) = 32.
      case 'Clz32': r = m.OpISub(tU32, c32(31), m.glsl450('FindUMsb', tU32, A(0))); break;
      case 'FindLsb32': r = m.glsl450('FindILsb', tU32, A(0)); break;
      case 'BitReverse32': r = m.OpBitReverse(tU32, A(0)); break;
      case 'UBfe32': case 'SBfe32': {
        // RDNA: width 0 gives 0; a field running past bit 31 takes the bits up to 31.
        const off = m.OpBitwiseAnd(tU32, A(1), c32(31));
        const room = m.OpISub(tU32, c32(32), off);
        const cnt = m.OpSelect(tU32, m.OpULessThan(tBool, A(2), room), A(2), room);
        r = i.op === 'UBfe32' ? m.OpBitFieldUExtract(T(), A(0), off, cnt) : m.OpBitFieldSExtract(T(), A(0), off, cnt);
        r = m.OpSelect(T(), m.OpIEqual(tBool, A(2), c32(0)), c32(0), r);
        break;
      }
      case 'IEq32': case 'IEq64': r = m.OpIEqual(tBool, A(0), A(1)); break;
      case 'INe32': case 'INe64': r = m.OpINotEqual(tBool, A(0), A(1)); break;
      case 'ULt32': case 'ULt64': r = m.OpULessThan(tBool, A(0), A(1)); break;
      case 'ULe32': r = m.OpULessThanEqual(tBool, A(0), A(1)); break;
      case 'UGt32': r = m.OpUGreaterThan(tBool, A(0), A(1)); break;
      case 'UGe32': r = m.OpUGreaterThanEqual(tBool, A(0), A(1)); break;
      case 'SLt32': case 'SLt64': r = m.OpSLessThan(tBool, A(0), A(1)); break;
      case 'SLe32': r = m.OpSLessThanEqual(tBool, A(0), A(1)); break;
      case 'SGt32': r = m.OpSGreaterThan(tBool, A(0), A(1)); break;
      case 'SGe32': r = m.OpSGreaterThanEqual(tBool, A(0), A(1)); break;
      case 'Select32': case 'SelectU1': r = m.OpSelect(T(), A(0), A(1), A(2)); break;
      case 'U1ToU32': r = m.OpSelect(tU32, A(0), c32(1), c32(0)); break;
      case 'U32ToU1': r = m.OpINotEqual(tBool, A(0), c32(0)); break;
      case 'NotU1': r = m.OpLogicalNot(tBool, A(0)); break;
      case 'AndU1': r = m.OpLogicalAnd(tBool, A(0), A(1)); break;
      case 'OrU1': r = m.OpLogicalOr(tBool, A(0), A(1)); break;
      case 'XorU1': r = m.OpLogicalNotEqual(tBool, A(0), A(1)); break;
      case 'Pack64': r = m.OpBitwiseOr(tU64, m.OpUConvert(tU64, A(0)), m.OpShiftLeftLogical(tU64, m.OpUConvert(tU64, A(1)), c32(32))); break;
      case 'Lo32': r = m.OpUConvert(tU32, A(0)); break;
      case 'Hi32': r = m.OpUConvert(tU32, m.OpShiftRightLogical(tU64, A(0), c32(32))); break;
      case 'IAdd64': r = m.OpIAdd(tU64, A(0), A(1)); break;
      case 'ISub64': r = m.OpISub(tU64, A(0), A(1)); break;
      case 'IMul64': r = m.OpIMul(tU64, A(0), A(1)); break;
      case 'Shl64': r = m.OpShiftLeftLogical(tU64, A(0), m.OpBitwiseAnd(tU32, A(1), c32(63))); break;
      case 'LShr64': r = m.OpShiftRightLogical(tU64, A(0), m.OpBitwiseAnd(tU32, A(1), c32(63))); break;
      case 'AShr64': r = m.OpShiftRightArithmetic(tU64, A(0), m.OpBitwiseAnd(tU32, A(1), c32(63))); break;
      case 'UMulWide32': r = m.OpIMul(tU64, m.OpUConvert(tU64, A(0)), m.OpUConvert(tU64, A(1))); break;
      // Division by zero is undefined in SPIR-V: the IR's lowerings never divide by zero (the
      // divisor is a normalised significand), but the emitter guards anyway (as the interpreter: all ones / the dividend).
      case 'UDiv64': { const z = m.OpIEqual(tBool, A(1), c64(0n)); r = m.OpSelect(tU64, z, c64((1n << 64n) - 1n), m.OpUDiv(tU64, A(0), m.OpSelect(tU64, z, c64(1n), A(1)))); break; }
      case 'UMod64': { const z = m.OpIEqual(tBool, A(1), c64(0n)); r = m.OpSelect(tU64, z, A(0), m.OpUMod(tU64, A(0), m.OpSelect(tU64, z, c64(1n), A(1)))); break; }
      case 'BitcastU32F32': case 'BitcastF32U32': r = m.OpBitcast(T(), A(0)); break;
      case 'FAdd32': r = nc(m.OpFAdd(tF32, A(0), A(1))); break;
      case 'FSub32': r = nc(m.OpFSub(tF32, A(0), A(1))); break;
      case 'FMul32': r = nc(m.OpFMul(tF32, A(0), A(1))); break;
      case 'FCmp32': r = fcmp(m, tBool, Number(imm(0)), A(0), A(1)); break;
      case 'ConvertF32U32': r = nc(m.OpConvertUToF(tF32, A(0))); break;
      case 'ConvertF32S32': r = nc(m.OpConvertSToF(tF32, A(0))); break;
      default: throw new CompileError(`${i.op} is not emitted yet`, i.pc);
  }
  return r;
}

/** VOPC float predicates (imm 0..15): ordered/unordered comparisons, NaN checks. */
function fcmp(m: Module, tBool: Id, pred: number, a: Id, b: Id): Id {
  const nan = () => m.OpLogicalOr(tBool, m.OpIsNan(tBool, a), m.OpIsNan(tBool, b));
  switch (pred & 15) {
    case 0: return m.constant(tBool, false);
    case 1: return m.OpFOrdLessThan(tBool, a, b);
    case 2: return m.OpFOrdEqual(tBool, a, b);
    case 3: return m.OpFOrdLessThanEqual(tBool, a, b);
    case 4: return m.OpFOrdGreaterThan(tBool, a, b);
    case 5: return m.OpFOrdNotEqual(tBool, a, b);
    case 6: return m.OpFOrdGreaterThanEqual(tBool, a, b);
    case 7: return m.OpLogicalNot(tBool, nan());
    case 8: return nan();
    case 9: return m.OpFUnordLessThan(tBool, a, b);
    case 10: return m.OpFUnordEqual(tBool, a, b);
    case 11: return m.OpFUnordLessThanEqual(tBool, a, b);
    case 12: return m.OpFUnordGreaterThan(tBool, a, b);
    case 13: return m.OpFUnordNotEqual(tBool, a, b);
    case 14: return m.OpFUnordGreaterThanEqual(tBool, a, b);
    default: return m.constant(tBool, true);
  }
}
