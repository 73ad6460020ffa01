// Every IR op in SPIR-V, in one switch that the type checker holds to be exhaustive over the op
// table (a new op without a case here fails the build): constants, integer and bit arithmetic,
// compares, selects, 64-bit packing, bitcasts and the native float ops (shared by the kernel's
// entry point and its helper functions), the kernel-only ops (launch ids, lane exchanges,
// memory, calls) through the entry point's state, and for the rest the reason they are not
// emitted (ops the passes remove, ops always lowered first, ops not emitted yet).
import type { Inst } from '../../ir/ir.js';
import { ATOMIC_RMW, type AtomicRmw, CLOCKS, type IrType, LDS_RMW, type LdsRmw, type Op, OPS, opInfo as irOpInfo } from '../../ir/ops.js';
import type { Module } from './module.js';
import { type Id, opInfo as spirvOpInfo } from './operands.js';
import { CompileError } from './errors.js';
import type { OpName } from './signatures.js';

/**
 * The float ops this switch emits as native SPIR-V float instructions (under the entry point's
 * float controls where they express the op's MODE: float-controls.ts): their IEEE results are
 * RDNA's. Every other float op must be lowered to exact integer code before emission.
 */
export const NATIVE_F32: ReadonlySet<Op> = new Set<Op>(['FAdd32', 'FSub32', 'FMul32', 'FCmp32', 'ConvertF32U32', 'ConvertF32S32']);

/**
 * Ops whose SPIR-V value is defined where every block sees it (module constants; the launch values
 * the entry point computes before any IR block): used in any block as they are.
 */
export const EVERYWHERE: ReadonlySet<Op> = new Set<Op>(['ConstU1', 'ConstU32', 'ConstU64', 'ConstF32', 'Undef', 'LaneId', 'WorkgroupId', 'LocalId', 'WaveInGroup', 'WavesInGroup', 'InGrid', 'KernargPtr', 'DispatchPtr', 'ScratchRing', 'ScratchRingBytes', 'ScratchBase']);

/**
 * The ops emitted as one SPIR-V instruction of a result type and 1 to 3 IdRefs, their value
 * arguments in order (`m.OpX(type, A.arg(0), A.arg(1), ...)`): the SPIR-V instruction, the result type
 * (SIMPLE_TYPED: the instruction's own, T(sc, i); else that fixed scalar type) and the count of
 * arguments. emitOp emits them from this table (simpleOp), and the block emitter writes the same
 * words itself (emit-structured.ts: Module.writeValue with the arguments' values), without
 * emitOp's switch, its argument reader's calls and the op method's: about half of a small
 * kernel's instructions (Select32 alone a fifth).
 */
export const SIMPLE_TYPED = 1, SIMPLE_BOOL = 2, SIMPLE_U32 = 3, SIMPLE_U64 = 4;
const SIMPLE: readonly (readonly [Op, OpName, number, number])[] = [
  ['Select32', 'OpSelect', SIMPLE_TYPED, 3], ['SelectU1', 'OpSelect', SIMPLE_TYPED, 3],
  ['IAdd32', 'OpIAdd', SIMPLE_TYPED, 2], ['Xor32', 'OpBitwiseXor', SIMPLE_TYPED, 2], ['IAdd64', 'OpIAdd', SIMPLE_U64, 2],
  ['INe32', 'OpINotEqual', SIMPLE_BOOL, 2], ['INe64', 'OpINotEqual', SIMPLE_BOOL, 2],
  ['Or32', 'OpBitwiseOr', SIMPLE_TYPED, 2], ['And32', 'OpBitwiseAnd', SIMPLE_TYPED, 2],
  ['ISub32', 'OpISub', SIMPLE_TYPED, 2], ['IMul32', 'OpIMul', SIMPLE_TYPED, 2], ['Not32', 'OpNot', SIMPLE_TYPED, 1],
  ['BitCount32', 'OpBitCount', SIMPLE_TYPED, 1], ['BitReverse32', 'OpBitReverse', SIMPLE_U32, 1],
  ['IEq32', 'OpIEqual', SIMPLE_BOOL, 2], ['IEq64', 'OpIEqual', SIMPLE_BOOL, 2],
  ['ULt32', 'OpULessThan', SIMPLE_BOOL, 2], ['ULt64', 'OpULessThan', SIMPLE_BOOL, 2],
  ['ULe32', 'OpULessThanEqual', SIMPLE_BOOL, 2], ['UGt32', 'OpUGreaterThan', SIMPLE_BOOL, 2], ['UGe32', 'OpUGreaterThanEqual', SIMPLE_BOOL, 2],
  ['SLt32', 'OpSLessThan', SIMPLE_BOOL, 2], ['SLt64', 'OpSLessThan', SIMPLE_BOOL, 2],
  ['SLe32', 'OpSLessThanEqual', SIMPLE_BOOL, 2], ['SGt32', 'OpSGreaterThan', SIMPLE_BOOL, 2], ['SGe32', 'OpSGreaterThanEqual', SIMPLE_BOOL, 2],
  ['NotU1', 'OpLogicalNot', SIMPLE_BOOL, 1], ['AndU1', 'OpLogicalAnd', SIMPLE_BOOL, 2], ['OrU1', 'OpLogicalOr', SIMPLE_BOOL, 2], ['XorU1', 'OpLogicalNotEqual', SIMPLE_BOOL, 2],
  ['ISub64', 'OpISub', SIMPLE_U64, 2], ['IMul64', 'OpIMul', SIMPLE_U64, 2],
];
/** By IR op index (OpEntry.index): the SPIR-V opcode of a SIMPLE op (0: not one), its result type's kind, its argument count, its op method's name. */
export const SIMPLE_OPCODE = new Uint16Array(Object.keys(OPS).length);
export const SIMPLE_TYPE = new Uint8Array(Object.keys(OPS).length);
export const SIMPLE_ARGS = new Uint8Array(Object.keys(OPS).length);
export const SIMPLE_NAME: (OpName | undefined)[] = new Array<OpName | undefined>(Object.keys(OPS).length).fill(undefined);
for (const [op, name, type, n] of SIMPLE) {
  const x = irOpInfo(op).index;
  SIMPLE_OPCODE[x] = (spirvOpInfo(name) as { opcode: number }).opcode;
  SIMPLE_TYPE[x] = type;
  SIMPLE_ARGS[x] = n;
  SIMPLE_NAME[x] = name;
}

/**
 * The module and its scalar types and constants. A class: its constant makers are one function
 * each for the process. Made per module as closures, they were the call targets V8's optimised
 * emitOp embedded (weakly) where only a helper recording's walk had called them, and when that
 * recording's module was collected V8 threw the code away ("weak objects") mid-benchmark.
 */
export class Scalars {
  constructor(
    readonly m: Module,
    readonly tBool: Id, readonly tU32: Id, readonly tU64: Id, readonly tF32: Id,
    /** uvec2: a u64's two dwords (Pack64, Lo32, Hi32). */
    readonly tV2U32: Id,
  ) {}

  typeOf(t: IrType): Id {
    switch (t) {
      case 'u1': return this.tBool;
      case 'u32': return this.tU32;
      case 'u64': return this.tU64;
      case 'f32': return this.tF32;
      // Only the device helpers' f64 values (lower-float-guarded.ts, lower-float-transcendental.ts): the module then declares Float64.
      case 'f64': return this.m.OpTypeFloat(64);
      default: throw new CompileError(`values of type ${t} are not emitted yet`);
    }
  }
  c32(v: number): Id { return this.m.constant(this.tU32, v >>> 0); }
  c64(v: bigint): Id { return this.m.constant(this.tU64, v); }
  cBool(v: boolean): Id { return this.m.constant(this.tBool, v); }
}

/**
 * An instruction's argument values as emitOp reads them, each where it needs it (a value may be
 * made at its first use). A method, not a closure per walk: V8's optimised emitOp embeds a call
 * target it saw alone, weakly, and a helper recording's closure, dead once the recording was,
 * threw that code away ("weak objects") in the middle of the kernels compiled next.
 */
export interface Operands { arg(j: number): Id }
/** The operands of an op that has none (EVERYWHERE's constants and launch values). */
export const NO_OPERANDS: Operands = { arg: (j: number): never => { throw new CompileError(`internal: argument ${j} of an op without arguments`); } };

/** What only the kernel's entry point has (helpers are pure code and have none of it). */
export interface KernelState {
  readonly waveSize: 32 | 64;
  readonly lane: Id;
  readonly groupIds: readonly Id[];
  readonly localIds: readonly Id[];
  readonly inGrid: Id;
  /** The wave's index in its RDNA workgroup, and the workgroup's waves (u32). */
  readonly waveInGroup: Id;
  readonly wavesInGroup: Id;
  /** The wave's scratch region (kernels with scratch). */
  readonly scratchBase: Id;
  /** The dispatch's scratch buffer (PUSH.scratchPtr: a raw shader's ring) and its bytes, u64 (src/interp/scratch.ts). */
  readonly scratchRing: Id;
  readonly scratchRingBytes: Id;
  readonly kernargPtr: Id;
  /** The device address of the code object's image (PUSH.imagePtr; kernels with CodeAddress). */
  readonly imagePtr: Id;
  readonly dispatchPtr: Id;
  readonly sinkPtr: Id;
  readonly psbU32: Id;
  readonly helperFns: readonly Id[];
  /** The function of a CallGuarded's helper pair (its immediates), made once per module and pair (emit.ts). */
  guardedFn(i: Inst): Id;
  /** The 8-bit integer type and a PhysicalStorageBuffer pointer to a byte at a u64 address (profiles with 8-bit storage). */
  readonly tU8: Id;
  bytePointer(a: Id): Id;
  /** Per byte k < n of this lane's n-byte store at `a`: whether the lane writes it (active, and no higher active lane of the instruction writes that byte). */
  storeWinners(active: Id, a: Id, n: number): Id[];
  /** Records fault `kind` at `pc` in the fault word where `cond` holds (first fault of the dispatch wins). */
  fault(cond: Id, kind: number, pc: number): void;
  /** The wave-size lane mask word (low or high dword) of a per-lane bool. */
  ballot(bit: Id, hi: boolean): Id;
  /** The value of `v` in lane `which` of the wave. */
  readLane(v: Id, which: Id): Id;
  /**
   * An atomic of every lane where `active` holds on the `bytes` (4 or 8) bytes at `a` with `data`
   * (and `cmp`): `body` emits one on a PhysicalStorageBuffer pointer to them with some lane's
   * data and returns the old value. Lanes on the same address run one after another in ascending
   * lane order (as the RDNA interpreter applies them); the old value, or 0 in inactive lanes.
   */
  atomic(active: Id, a: Id, bytes: 4 | 8, data: Id, cmp: Id | undefined, body: (ptr: Id, data: Id, cmp: Id | undefined) => Id): Id;
  /**
   * A dword load / store of the lanes where `active` holds at `a`, any alignment: 4-byte aligned
   * through a dword pointer, else byte by byte (8-bit storage), or where the profile has none a
   * fault at `pc` (a misaligned dword pointer is undefined in Vulkan: the H200 moved such stores).
   */
  load32(active: Id, a: Id, pc: number | undefined): Id;
  store32(active: Id, a: Id, v: Id, pc: number | undefined): void;
  /** LDS (kernels in the workgroup layout): `n` bytes at `a` + `off` (0 outside the LDS or in an inactive lane). */
  ldsLoad(active: Id, a: Id, n: number, off: number): Id;
  /** One DS store instruction (the StoreLds op): the lanes in ascending order. */
  ldsStore(active: Id, a0: Id, a1: Id, data: readonly Id[], n: number, two: boolean): void;
  /**
   * One DS read-modify-write instruction (u64 data; `flags`: AtomicLds's LDS_ATOMIC_* bits, 64-bit
   * and src2, where d0's low dword is the address of the data), an LDS_RMW rule or a helper's (u64
   * old, d0, d1 → u64 new): the old value as a u64.
   */
  ldsAtomic(kind: LdsRmw | { readonly helper: Id }, active: Id, a: Id, d0: Id, d1: Id, flags: number): Id;
  /** ds_wrxchg2(st64)_rtn_b32 (the ExchangeLds2 op): the lanes in ascending order; (old0, old1) as a u64. */
  ldsExchange2(active: Id, a0: Id, a1: Id, d0: Id, d1: Id): Id;
  /** ds_wrxchg2(st64)_rtn_b64 (ExchangeLds2x64; u64 data): the old value at a0; the one at a1 is `ldsExchange2Second` of it. */
  ldsExchange2x64(active: Id, a0: Id, a1: Id, d0: Id, d1: Id): Id;
  /** The old value at a1 of the ExchangeLds2x64 whose result is `first` (ExchangeLds2x64Second). */
  ldsExchange2Second(first: Id): Id;
  /** ds_permute_b32: the value of the highest active lane whose target is this lane, else 0. */
  permute(active: Id, target: Id, v: Id): Id;
}

/**
 * Emits instruction `i` with argument values `A.arg(k)`: its value, or undefined for an op used for its
 * effect or handled by the block walk (branches, phis, parameters, returns). `k` is the entry
 * point's state (undefined in a helper). A CompileError for what cannot be emitted.
 */
// emitOp's small helpers (functions, not closures made at every instruction).
/** The instruction's SPIR-V result type. */
function T(sc: Scalars, i: Inst): Id {
  if (i.type === 'void') throw new CompileError(`${i.op} has no type`, i.pc);
  return sc.typeOf(i.type);
}
const imm = (i: Inst, j: number) => i.imms[j] ?? 0;
/** NoContraction on a float op's result. */
function nc(m: Module, id: Id): Id {
  m.OpDecorate(id, 'NoContraction');
  return id;
}
const fail = (i: Inst, why: string): never => { throw new CompileError(why, i.pc); };
const K = (k: KernelState | undefined, i: Inst): KernelState => k ?? fail(i, `${i.op} outside the kernel's entry point`);
/** The SPIR-V function of the helper an instruction's first immediate names. */
const helperOf = (k: KernelState | undefined, i: Inst): Id => K(k, i).helperFns[Number(imm(i, 0))] ?? fail(i, `${i.op}: a missing helper ${String(imm(i, 0))}`);
/** A dword pointer to `a` where `active`, else to the sink. */
const addr = (sc: Scalars, k: KernelState | undefined, i: Inst, active: Id, a: Id) => sc.m.OpConvertUToPtr(K(k, i).psbU32, sc.m.OpSelect(sc.tU64, active, a, K(k, i).sinkPtr));

/** A SIMPLE op: its instruction of the table's result type, then the arguments' values in order, by its op method. */
function simpleOp(sc: Scalars, i: Inst, A: Operands): Id {
  const x = i.info.index, kind = SIMPLE_TYPE[x], n = SIMPLE_ARGS[x];
  const name = SIMPLE_NAME[x] ?? fail(i, `${i.op} is not in the SIMPLE table (internal)`);
  const t = kind === SIMPLE_TYPED ? T(sc, i) : kind === SIMPLE_BOOL ? sc.tBool : kind === SIMPLE_U32 ? sc.tU32 : sc.tU64;
  const m = sc.m, method = m[name as 'OpIAdd'] as (this: Module, ...ids: Id[]) => Id;
  return n === 1 ? method.call(m, t, A.arg(0)) : n === 2 ? method.call(m, t, A.arg(0), A.arg(1)) : method.call(m, t, A.arg(0), A.arg(1), A.arg(2));
}

export function emitOp(sc: Scalars, k: KernelState | undefined, i: Inst, A: Operands): Id | undefined {
  const { m, tBool, tU32, tU64, tF32 } = sc;
  let r: Id | undefined;
  switch (i.op) {
    // The ops the block walk (emit-structured.ts) brings here, the commonest in small kernels first:
    // V8 runs this switch as a chain of comparisons, one per case label, each a call in the
    // unoptimised code that runs much of a small kernel's emission, and an op near its end
    // (LoadUniform32, Call: over 100 labels) paid for every one before it.
    case 'ConstU32': r = sc.c32(Number(imm(i, 0))); break;
    // A u64 and its dwords through an OpBitcast to or from a uvec2 (x = low dword). Not OpUConvert
    // and 64-bit shifts by 32: the NVIDIA H200 (driver 580.159.04) ran those wrong, in
    // `v_mad_u64_u32 ... clamp` after the v_rcp_f32 helper (its 64-bit OpUDiv/OpUMod): the high
    // dword of the sum came out as another live value of the lane (12 of the engine suite's 60
    // cases). With these bitcasts the same kernels are exact there (60/60, 2026-12-02). Inlining
    // the helpers, FunctionControl Inline/DontInline and leaving out NoContraction did not help;
    // replacing the 64-bit division by shift-and-subtract code did too, at a third more words.
    case 'Pack64': r = m.OpBitcast(tU64, m.OpCompositeConstruct(sc.tV2U32, A.arg(0), A.arg(1))); break;
    case 'Lo32': r = m.OpCompositeExtract(tU32, m.OpBitcast(sc.tV2U32, A.arg(0)), 0); break;
    case 'Hi32': r = m.OpCompositeExtract(tU32, m.OpBitcast(sc.tV2U32, A.arg(0)), 1); break;
    // SMEM addresses are dword aligned (the frontend clears their low bits).
    case 'LoadUniform32': r = m.OpLoad(tU32, addr(sc, k, i, sc.cBool(true), A.arg(0)), 'Aligned', 4); break;
    case 'ConstU64': r = sc.c64(BigInt(imm(i, 0))); break;
    case 'StoreGlobal32': K(k, i).store32(A.arg(0), A.arg(1), A.arg(2), i.pc); break;
    case 'U1ToU32': r = m.OpSelect(tU32, A.arg(0), sc.c32(1), sc.c32(0)); break;
    case 'UAddCarry32': case 'USubBorrow32': {
      const st = m.OpTypeStruct(tU32, tU32);
      const add = i.op === 'UAddCarry32';
      const p1 = add ? m.OpIAddCarry(st, A.arg(0), A.arg(1)) : m.OpISubBorrow(st, A.arg(0), A.arg(1));
      const cin = m.OpSelect(tU32, A.arg(2), sc.c32(1), sc.c32(0));
      const p2 = add ? m.OpIAddCarry(st, m.OpCompositeExtract(tU32, p1, 0), cin) : m.OpISubBorrow(st, m.OpCompositeExtract(tU32, p1, 0), cin);
      r = m.OpINotEqual(tBool, m.OpBitwiseOr(tU32, m.OpCompositeExtract(tU32, p1, 1), m.OpCompositeExtract(tU32, p2, 1)), sc.c32(0));
      break;
    }
    case 'BallotLo': r = K(k, i).ballot(A.arg(0), false); break;
    case 'LaneBit': {
      const l = A.arg(2);
      const word = m.OpSelect(tU32, m.OpULessThan(tBool, l, sc.c32(32)), A.arg(0), A.arg(1));
      r = m.OpINotEqual(tBool, m.OpBitwiseAnd(tU32, m.OpShiftRightLogical(tU32, word, m.OpBitwiseAnd(tU32, l, sc.c32(31))), sc.c32(1)), sc.c32(0));
      break;
    }
    case 'LoadGlobal32': r = K(k, i).load32(A.arg(0), A.arg(1), i.pc); break;
    case 'Call': r = call(sc, k, i, A); break;
    case 'CallGuarded': r = callOf(sc, K(k, i).guardedFn(i), i, A); break;
    // RDNA shifts use the amount's low five bits; SPIR-V leaves larger amounts undefined.
    case 'Shl32': r = m.OpShiftLeftLogical(T(sc, i), A.arg(0), m.OpBitwiseAnd(tU32, A.arg(1), sc.c32(31))); break;
    case 'Shl64': r = m.OpShiftLeftLogical(tU64, A.arg(0), m.OpBitwiseAnd(tU32, A.arg(1), sc.c32(63))); break;
    case 'BallotHi': r = K(k, i).ballot(A.arg(0), true); break;
    case 'KernargPtr': r = K(k, i).kernargPtr; break;
    case 'WorkgroupId': r = K(k, i).groupIds[Number(imm(i, 0))] as Id; break;
    case 'LocalId': r = K(k, i).localIds[Number(imm(i, 0))] as Id; break;
    case 'InGrid': r = K(k, i).inGrid; break;
    case 'Undef': r = i.type === 'u1' ? sc.cBool(false) : i.type === 'u64' ? sc.c64(0n) : i.type === 'f32' ? m.constantBits(tF32, 0) : sc.c32(0); break;
    case 'FindLsb32': r = m.glsl450('FindILsb', tU32, A.arg(0)); break;
    case 'UMulHi32': { const st = m.OpTypeStruct(tU32, tU32); r = m.OpCompositeExtract(tU32, m.OpUMulExtended(st, A.arg(0), A.arg(1)), 1); break; }
    case 'LShr32': r = m.OpShiftRightLogical(T(sc, i), A.arg(0), m.OpBitwiseAnd(tU32, A.arg(1), sc.c32(31))); break;
    case 'AShr32': r = m.OpShiftRightArithmetic(T(sc, i), A.arg(0), m.OpBitwiseAnd(tU32, A.arg(1), sc.c32(31))); break;
    case 'UMulWide32': r = m.OpIMul(tU64, m.OpUConvert(tU64, A.arg(0)), m.OpUConvert(tU64, A.arg(1))); break;
    case 'Fault': {
      if (i.pc === undefined) return fail(i, 'a Fault without a pc (internal)');
      K(k, i).fault(A.arg(0), Number(imm(i, 0)), i.pc);
      return undefined;
    }
    case 'ConstU1': r = sc.cBool(Number(imm(i, 0)) !== 0); break;
    case 'ReadLane': r = K(k, i).readLane(A.arg(0), m.OpUMod(tU32, A.arg(1), sc.c32(K(k, i).waveSize))); break;
    case 'LaneId': r = K(k, i).lane; break;
    case 'IAdd3_32': r = m.OpIAdd(T(sc, i), m.OpIAdd(T(sc, i), A.arg(0), A.arg(1)), A.arg(2)); break;
    case 'DispatchPtr': r = K(k, i).dispatchPtr; break;
    case 'BitcastU32F32': case 'BitcastF32U32': case 'BitcastU64F64': case 'BitcastF64U64': r = m.OpBitcast(T(sc, i), A.arg(0)); break;
    case 'UMax32': r = m.OpSelect(T(sc, i), m.OpUGreaterThan(tBool, A.arg(0), A.arg(1)), A.arg(0), A.arg(1)); break;
    case 'AtomicRmw32': case 'AtomicRmw64': case 'AtomicCmpSwap32': case 'AtomicCmpSwap64': r = globalAtomic(sc, k, i, A); break;
    case 'SMulHi32': { const st = m.OpTypeStruct(tU32, tU32); r = m.OpCompositeExtract(tU32, m.OpSMulExtended(st, A.arg(0), A.arg(1)), 1); break; }
    case 'ConvertF32U32': r = nc(m, m.OpConvertUToF(tF32, A.arg(0))); break;
    case 'UMin32': r = m.OpSelect(T(sc, i), m.OpULessThan(tBool, A.arg(0), A.arg(1)), A.arg(0), A.arg(1)); break;
    case 'LShr64': r = m.OpShiftRightLogical(tU64, A.arg(0), m.OpBitwiseAnd(tU32, A.arg(1), sc.c32(63))); break;
    case 'AShr64': r = m.OpShiftRightArithmetic(tU64, A.arg(0), m.OpBitwiseAnd(tU32, A.arg(1), sc.c32(63))); break;
    case 'SMax32': r = m.OpSelect(T(sc, i), m.OpSGreaterThan(tBool, A.arg(0), A.arg(1)), A.arg(0), A.arg(1)); break;
    case 'SMin32': r = m.OpSelect(T(sc, i), m.OpSLessThan(tBool, A.arg(0), A.arg(1)), A.arg(0), A.arg(1)); break;
    case 'ConvertF32S32': r = nc(m, m.OpConvertSToF(tF32, A.arg(0))); break;
    // FindUMsb gives -1 (all ones) for 0: 31 - (-1) = 32.
    case 'Clz32': r = m.OpISub(tU32, sc.c32(31), m.glsl450('FindUMsb', tU32, A.arg(0))); break;
    // The SIMPLE ops: their instruction, result type and arguments from the table. The block walk
    // writes them from the same table without this switch: only the helpers' and the state
    // machine's walks bring them here.
    case 'Select32': case 'SelectU1': case 'IAdd32': case 'Xor32': case 'IAdd64': case 'INe32': case 'INe64': case 'Or32': case 'And32':
    case 'ISub32': case 'IMul32': case 'Not32': case 'BitCount32': case 'BitReverse32': case 'IEq32': case 'IEq64': case 'ULt32': case 'ULt64':
    case 'ULe32': case 'UGt32': case 'UGe32': case 'SLt32': case 'SLt64': case 'SLe32': case 'SGt32': case 'SGe32':
    case 'NotU1': case 'AndU1': case 'OrU1': case 'XorU1': case 'ISub64': case 'IMul64':
      r = simpleOp(sc, i, A);
      break;
    // The rest.
    case 'ConstF32': r = m.constantBits(tF32, Number(imm(i, 0)) >>> 0); break;
    case 'UBfe32': case 'SBfe32': {
      // RDNA: width 0 gives 0; a field running past bit 31 takes the bits up to 31.
      const off = m.OpBitwiseAnd(tU32, A.arg(1), sc.c32(31));
      const room = m.OpISub(tU32, sc.c32(32), off);
      const cnt = m.OpSelect(tU32, m.OpULessThan(tBool, A.arg(2), room), A.arg(2), room);
      r = i.op === 'UBfe32' ? m.OpBitFieldUExtract(T(sc, i), A.arg(0), off, cnt) : m.OpBitFieldSExtract(T(sc, i), A.arg(0), off, cnt);
      r = m.OpSelect(T(sc, i), m.OpIEqual(tBool, A.arg(2), sc.c32(0)), sc.c32(0), r);
      break;
    }
    case 'U32ToU1': r = m.OpINotEqual(tBool, A.arg(0), sc.c32(0)); break;
    case 'CodeAddress': {
      // Inside the code object's image: the same offset in the image buffer the runtime placed (PUSH.imagePtr).
      const off = m.OpISub(tU64, A.arg(0), sc.c64(BigInt(imm(i, 0))));
      r = m.OpSelect(tU64, m.OpULessThan(sc.tBool, off, sc.c64(BigInt(imm(i, 1)))), m.OpIAdd(tU64, K(k, i).imagePtr, off), A.arg(0));
      break;
    }
    // Division by zero is undefined in SPIR-V: the IR's lowerings never divide by zero (the
    // divisor is a normalised significand), but the emitter guards anyway (as the interpreter: all ones / the dividend).
    case 'UMod32': { const z = m.OpIEqual(tBool, A.arg(1), sc.c32(0)); r = m.OpSelect(tU32, z, A.arg(0), m.OpUMod(tU32, A.arg(0), m.OpSelect(tU32, z, sc.c32(1), A.arg(1)))); break; }
    case 'UDiv64': { const z = m.OpIEqual(tBool, A.arg(1), sc.c64(0n)); r = m.OpSelect(tU64, z, sc.c64((1n << 64n) - 1n), m.OpUDiv(tU64, A.arg(0), m.OpSelect(tU64, z, sc.c64(1n), A.arg(1)))); break; }
    case 'UMod64': { const z = m.OpIEqual(tBool, A.arg(1), sc.c64(0n)); r = m.OpSelect(tU64, z, A.arg(0), m.OpUMod(tU64, A.arg(0), m.OpSelect(tU64, z, sc.c64(1n), A.arg(1)))); break; }
    case 'FAdd32': r = nc(m, m.OpFAdd(tF32, A.arg(0), A.arg(1))); break;
    case 'FSub32': r = nc(m, m.OpFSub(tF32, A.arg(0), A.arg(1))); break;
    case 'FMul32': r = nc(m, m.OpFMul(tF32, A.arg(0), A.arg(1))); break;
    // f64 device ops: only the guarded helpers' (lower-float-guarded.ts: an f32 fma through f64)
    // and the transcendental cores' (lower-float-transcendental.ts, its 'device' form),
    // under the entry's RoundingModeRTE for 64 bits; every RDNA f64 op is lowered to integer code.
    case 'FAdd64': r = nc(m, m.OpFAdd(sc.typeOf('f64'), A.arg(0), A.arg(1))); break;
    case 'FSub64': r = nc(m, m.OpFSub(sc.typeOf('f64'), A.arg(0), A.arg(1))); break;
    case 'FMul64': r = nc(m, m.OpFMul(sc.typeOf('f64'), A.arg(0), A.arg(1))); break;
    case 'ConvertF64F32': r = nc(m, m.OpFConvert(sc.typeOf('f64'), A.arg(0))); break;
    case 'FCmp32': r = fcmp(m, tBool, Number(imm(i, 0)), A.arg(0), A.arg(1)); break;
    case 'WaveInGroup': r = K(k, i).waveInGroup; break;
    case 'WavesInGroup': r = K(k, i).wavesInGroup; break;
    case 'ScratchBase': r = K(k, i).scratchBase; break;
    case 'ScratchRing': r = K(k, i).scratchRing; break;
    case 'ScratchRingBytes': r = K(k, i).scratchRingBytes; break;
    case 'AtomicRmwCall': r = globalAtomicCall(sc, k, i, A); break;
    // Bytes through 8-bit pointers (a short as two bytes: any alignment); inactive lanes read the sink.
    case 'LoadGlobalU8': case 'LoadGlobalU16': r = loadBytes(sc, K(k, i), i, A); break;
    case 'StoreGlobal8': case 'StoreGlobal16': storeBytes(sc, K(k, i), i, A); break;
    // Removed by the passes before emission.
    case 'GetSgpr': case 'SetSgpr': case 'GetVgpr': case 'SetVgpr': case 'GetScc': case 'SetScc': case 'GetMode': case 'SetMode':
    return fail(i, `${i.op}: a register access left after SSA construction (internal)`);
    // The block walk handles these.
    case 'Branch': case 'BranchCond': case 'EndProgram': case 'Return': case 'Phi': case 'Param':
    return undefined;
    case 'Unreachable': return fail(i, 'unreachable code is not emitted yet');
    // Always lowered to integer code first (lowerFloat): their RDNA rounding, NaN and signed-zero rules are not SPIR-V's.
    case 'FFma32': case 'FMin32': case 'FMax32': case 'FFloor32': case 'FCeil32': case 'FTrunc32': case 'FRndne32': case 'FRcp32':
    case 'FSqrt32': case 'FRsq32': case 'FLdexp32': case 'FFrexpMant32': case 'FFrexpExp32': case 'FFract32': case 'FOutMod32':
    case 'FDivScale32': case 'FDivScaleFlag32': case 'FDivFmas32': case 'FDivFixup32': case 'ConvertU32F32': case 'ConvertS32F32':
    return fail(i, `${i.op} is emitted only after its exact lowering (internal: it reached emission)`);
    // The f64 and f16 float ops: always lowered first (lower-float64.ts, lower-float16.ts), on every
    // profile. No measured device promises f64 DenormPreserve; the H200 promises f16 RTE with
    // DenormPreserve, but native f16 would need the Float16 capability and covers only add, sub and
    // mul under RNE with denormals kept (NaN quieting, min/max and fused results are not RDNA's):
    // not done (docs/TECHNICAL_DEBT.md).
    case 'FFma64': case 'FCmp64': case 'FMin64': case 'FMax64': case 'FFloor64': case 'FCeil64': case 'FTrunc64': case 'FRndne64':
    case 'FRcp64': case 'FSqrt64': case 'FRsq64': case 'FFrexpMant64': case 'FFrexpExp64': case 'FFract64': case 'FLdexp64': case 'FOutMod64':
    case 'FDivScale64': case 'FDivScaleFlag64': case 'FDivFmas64': case 'FDivFixup64': case 'ConvertF64U32': case 'ConvertF64S32': case 'ConvertU32F64': case 'ConvertS32F64':
    case 'ConvertF32F64': case 'ConvertF16F32': case 'ConvertF32F16':
    case 'FAdd16': case 'FSub16': case 'FMul16': case 'FFma16': case 'FCmp16': case 'FMin16': case 'FMax16': case 'FFloor16': case 'FCeil16': case 'FTrunc16': case 'FRndne16':
    case 'FRcp16': case 'FSqrt16': case 'FRsq16': case 'FFrexpMant16': case 'FFrexpExp16': case 'FFract16': case 'FLdexp16': case 'FOutMod16': case 'FDivFixup16':
    case 'ConvertF16U32': case 'ConvertF16S32': case 'ConvertU32F16': case 'ConvertS32F16': case 'FFmaMixF16':
    // The other conversions of lower-float-misc.ts: always lowered too.
    case 'ConvertRpiS32F32': case 'ConvertU8F32': case 'FNorm16F32': case 'FNorm16F16':
    // The transcendentals: always lowered (lower-float-transcendental.ts: the float model's algorithms).
    case 'FExp32': case 'FLog32': case 'FSin32': case 'FCos32': case 'FExp16': case 'FLog16': case 'FSin16': case 'FCos16':
    return fail(i, `${i.op} is emitted only after its exact lowering (internal: it reached emission)`);
    // Not emitted: f16 and f64 typed values (every op on them is lowered, and the bit casts around
    // the lowered calls cancel), barriers (docs/TECHNICAL_DEBT.md).
    case 'ConstF16': case 'ConstF64': case 'BitcastU32F16': case 'BitcastF16U32':
    return fail(i, `${i.op} is not emitted yet`);
    // The state machine ends the wave's turn at the end of the barrier's block (emit-state-machine.ts).
    case 'Barrier': return undefined;
    case 'LoadLds': r = K(k, i).ldsLoad(A.arg(0), A.arg(1), Number(imm(i, 0)), Number(imm(i, 1))); break;
    case 'StoreLds': K(k, i).ldsStore(A.arg(0), A.arg(1), A.arg(2), [A.arg(3), A.arg(4), A.arg(5), A.arg(6)], Number(imm(i, 0)), Number(imm(i, 1)) === 2); break;
    case 'AtomicLds': {
      const kind = LDS_RMW[Number(imm(i, 0))];
      if (!kind) return fail(i, `AtomicLds: no operation ${String(imm(i, 0))}`);
      r = K(k, i).ldsAtomic(kind, A.arg(0), A.arg(1), A.arg(2), A.arg(3), Number(imm(i, 1)));
      break;
    }
    case 'ExchangeLds2': r = K(k, i).ldsExchange2(A.arg(0), A.arg(1), A.arg(2), A.arg(3), A.arg(4)); break;
    case 'ExchangeLds2x64': r = K(k, i).ldsExchange2x64(A.arg(0), A.arg(1), A.arg(2), A.arg(3), A.arg(4)); break;
    case 'ExchangeLds2x64Second': r = K(k, i).ldsExchange2Second(A.arg(0)); break;
    case 'AtomicLdsCall': r = K(k, i).ldsAtomic({ helper: helperOf(k, i) }, A.arg(0), A.arg(1), A.arg(2), A.arg(3), Number(imm(i, 1))); break;
    case 'PermuteLanes': r = K(k, i).permute(A.arg(0), A.arg(1), A.arg(2)); break;
    // OpReadClockKHR (SPV_KHR_shader_clock; emit.ts declares ShaderClockKHR and checks the
    // profile's feature): s_memtime's clock at Subgroup scope (GLSL's clockARB), s_memrealtime's at
    // Device scope (clockRealtimeEXT). Every invocation samples its own clock, and a wave may span
    // several subgroups (lane-exchange.ts), so lane 0's sample is every lane's value: the SGPR pair
    // is one value per wave, and a later read of the wave is lane 0's later sample, which the
    // extension's monotonically incrementing counter keeps from being smaller. Measured on
    // lavapipe (Mesa 22.3.6): both scopes read one nanosecond clock, of which only the low 32 bits
    // arrive (the high dword is 0), so there it wraps every 2^32 ns (4.3 s) and a read across the
    // wrap is smaller: the driver's gap, not one this translation can close.
    case 'ReadClock': {
      const clock = CLOCKS[Number(imm(i, 0))];
      if (!clock) return fail(i, `ReadClock: no clock ${String(imm(i, 0))}`);
      const kk = K(k, i);
      // Scope ids: Device 1, Subgroup 3.
      const words = m.OpBitcast(sc.tV2U32, m.OpReadClockKHR(tU64, sc.c32(clock === 'time' ? 3 : 1)));
      const lo = kk.readLane(m.OpCompositeExtract(tU32, words, 0), sc.c32(0));
      const hi = kk.readLane(m.OpCompositeExtract(tU32, words, 1), sc.c32(0));
      r = m.OpBitcast(tU64, m.OpCompositeConstruct(sc.tV2U32, lo, hi));
      break;
    }
    default: {
    const missing: never = i.op;
    return fail(i, `${String(missing)} has no emitter`);
    }
  }
  return r;
}

// The ops below whose code makes closures, each in a function of its own: a closure in emitOp
// that captured its parameters or locals made every call of it allocate a context for them (an
// allocation per IR instruction, whatever its op).

function globalAtomic(sc: Scalars, k: KernelState | undefined, i: Inst, A: Operands): Id {
  // Device scope, relaxed (RDNA's global atomics without glc/slc ordering). The kernel state
  // runs the lanes on one address one after another, in ascending lane order.
  const wide = i.op.endsWith('64');
  const t = wide ? sc.tU64 : sc.tU32;
  const kind = i.op.startsWith('AtomicRmw') ? ATOMIC_RMW[Number(imm(i, 0))] : 'cmpswap';
  if (!kind) return fail(i, `${i.op}: no atomic ${String(imm(i, 0))}`);
  return K(k, i).atomic(A.arg(0), A.arg(1), wide ? 8 : 4, A.arg(2), kind === 'cmpswap' ? A.arg(3) : undefined, (ptr, d, c) => atomicOp(sc, kind, t, ptr, d, c));
}

function globalAtomicCall(sc: Scalars, k: KernelState | undefined, i: Inst, A: Operands): Id {
  const { m, tU32, tU64 } = sc;
  // As AtomicCmpSwap's lanes; each leader's atomic a compare-exchange loop of the helper's new value.
  const h = helperOf(k, i);
  const wide = Number(imm(i, 1)) === 1;
  const t = wide ? tU64 : tU32;
  const narrow = (x: Id) => (wide ? x : m.OpUConvert(tU32, x));
  const w = (x: Id) => (wide ? x : m.OpUConvert(tU64, x));
  const old = K(k, i).atomic(A.arg(0), A.arg(1), wide ? 8 : 4, narrow(A.arg(2)), narrow(A.arg(3)), (ptr, d, c) =>
    compareExchangeLoop(sc, t, ptr, (o) => narrow(m.OpFunctionCall(tU64, h, w(o), w(d), w(c ?? d)))));
  return w(old);
}

/** LoadGlobalU8/U16: bytes through 8-bit pointers (a short as two bytes: any alignment); inactive lanes read the sink. */
function loadBytes(sc: Scalars, kk: KernelState, i: Inst, A: Operands): Id {
  const { m, tU32, tU64 } = sc;
  const at = (j: number) => (j === 0 ? A.arg(1) : m.OpIAdd(tU64, A.arg(1), sc.c64(BigInt(j))));
  const byte = (j: number) => m.OpUConvert(tU32, m.OpLoad(kk.tU8, kk.bytePointer(m.OpSelect(tU64, A.arg(0), at(j), m.OpIAdd(tU64, kk.sinkPtr, sc.c64(BigInt(j))))), 'Aligned', 1));
  const v = i.op === 'LoadGlobalU8' ? byte(0) : m.OpBitwiseOr(tU32, byte(0), m.OpShiftLeftLogical(tU32, byte(1), sc.c32(8)));
  return m.OpSelect(tU32, A.arg(0), v, sc.c32(0));
}

/** StoreGlobal8/16: each byte this lane writes (storeWinners) through an 8-bit pointer. */
function storeBytes(sc: Scalars, kk: KernelState, i: Inst, A: Operands): void {
  const { m, tU32, tU64 } = sc;
  const n = i.op === 'StoreGlobal8' ? 1 : 2;
  const mine = kk.storeWinners(A.arg(0), A.arg(1), n);
  mine.forEach((w, j) => {
    const to = m.OpSelect(tU64, w, j === 0 ? A.arg(1) : m.OpIAdd(tU64, A.arg(1), sc.c64(BigInt(j))), m.OpIAdd(tU64, kk.sinkPtr, sc.c64(BigInt(j))));
    const v = j === 0 ? A.arg(2) : m.OpShiftRightLogical(tU32, A.arg(2), sc.c32(8 * j));
    m.OpStore(kk.bytePointer(to), m.OpUConvert(kk.tU8, v), 'Aligned', 1);
  });
}

function call(sc: Scalars, k: KernelState | undefined, i: Inst, A: Operands): Id {
  const h = K(k, i).helperFns[Number(imm(i, 0))];
  if (!h) throw new CompileError(`call of a missing helper ${String(imm(i, 0))}`, i.pc);
  return callOf(sc, h, i, A);
}

/** A call of function `h` with the instruction's arguments, of its type. */
function callOf(sc: Scalars, h: Id, i: Inst, A: Operands): Id {
  const m = sc.m, t = T(sc, i);
  // The arguments passed as they are for up to four (no array of them made: a helper call per float op).
  switch (i.args.length) {
    case 0: return m.OpFunctionCall(t, h);
    case 1: return m.OpFunctionCall(t, h, A.arg(0));
    case 2: return m.OpFunctionCall(t, h, A.arg(0), A.arg(1));
    case 3: return m.OpFunctionCall(t, h, A.arg(0), A.arg(1), A.arg(2));
    case 4: return m.OpFunctionCall(t, h, A.arg(0), A.arg(1), A.arg(2), A.arg(3));
    default: return m.OpFunctionCall(t, h, ...i.args.map((_, j) => A.arg(j)));
  }
}

/**
 * One atomic on `ptr` (a PhysicalStorageBuffer pointer to a `t`): the old value. SPIR-V's atomics
 * where one computes RDNA's new value; inc, dec and csub (RDNA's wrapping and clamping rules, not
 * SPIR-V's OpAtomicIIncrement) as a compare-exchange loop.
 */
function atomicOp(sc: Scalars, kind: AtomicRmw | 'cmpswap', t: Id, ptr: Id, d: Id, cmpv: Id | undefined): Id {
  const { m, tBool } = sc;
  const scope = sc.c32(1), sem = sc.c32(0);
  switch (kind) {
    case 'add': return m.OpAtomicIAdd(t, ptr, scope, sem, d);
    case 'sub': return m.OpAtomicISub(t, ptr, scope, sem, d);
    case 'smin': return m.OpAtomicSMin(t, ptr, scope, sem, d);
    case 'umin': return m.OpAtomicUMin(t, ptr, scope, sem, d);
    case 'smax': return m.OpAtomicSMax(t, ptr, scope, sem, d);
    case 'umax': return m.OpAtomicUMax(t, ptr, scope, sem, d);
    case 'and': return m.OpAtomicAnd(t, ptr, scope, sem, d);
    case 'or': return m.OpAtomicOr(t, ptr, scope, sem, d);
    case 'xor': return m.OpAtomicXor(t, ptr, scope, sem, d);
    case 'swap': return m.OpAtomicExchange(t, ptr, scope, sem, d);
    case 'cmpswap': return m.OpAtomicCompareExchange(t, ptr, scope, sem, sem, d, cmpv ?? d);
    case 'inc': case 'dec': case 'csub': {
      const zero = t === sc.tU64 ? sc.c64(0n) : sc.c32(0), one = t === sc.tU64 ? sc.c64(1n) : sc.c32(1);
      const next = (o: Id): Id => {
        if (kind === 'inc') return m.OpSelect(t, m.OpUGreaterThanEqual(tBool, o, d), zero, m.OpIAdd(t, o, one));
        if (kind === 'dec') return m.OpSelect(t, m.OpLogicalOr(tBool, m.OpIEqual(tBool, o, zero), m.OpUGreaterThan(tBool, o, d)), d, m.OpISub(t, o, one));
        return m.OpSelect(t, m.OpUGreaterThanEqual(tBool, o, d), m.OpISub(t, o, d), zero);
      };
      return compareExchangeLoop(sc, t, ptr, next);
    }
  }
}

/**
 * The old value of a read-modify-write whose new value `next(old)` computes, on `ptr` (to a `t`)
 * as a compare-exchange loop: expected = load; loop { got = cmpxchg(next(expected), expected);
 * until got == expected; expected = got } (its state in a phi: no Function variable).
 */
export function compareExchangeLoop(sc: Scalars, t: Id, ptr: Id, next: (old: Id) => Id): Id {
  const { m, tBool } = sc;
  const scope = sc.c32(1), sem = sc.c32(0);
  const e0 = m.OpAtomicLoad(t, ptr, scope, sem);
  const pre = m.allocateId(), hdr = m.allocateId(), body = m.allocateId(), cont = m.allocateId(), done = m.allocateId(), got = m.allocateId();
  m.OpBranch(pre);
  m.label(pre);
  m.OpBranch(hdr);
  m.label(hdr);
  const e = m.OpPhi(t, e0, pre, got, cont);
  m.OpLoopMerge(done, cont, 'None');
  m.OpBranch(body);
  m.label(body);
  m.emit('OpAtomicCompareExchange', [t, ptr, scope, sem, sem, next(e), e], got);
  m.OpBranch(cont);
  m.label(cont);
  m.OpBranchConditional(m.OpINotEqual(tBool, got, e), hdr, done);
  m.label(done);
  return got;
}

/** VOPC float predicates (imm 0..15): ordered/unordered comparisons, NaN checks. */
function fcmp(m: Module, tBool: Id, pred: number, a: Id, b: Id): Id {
  switch (pred & 15) {
    case 0: return m.constant(tBool, false);
    case 1: return m.OpFOrdLessThan(tBool, a, b);
    case 2: return m.OpFOrdEqual(tBool, a, b);
    case 3: return m.OpFOrdLessThanEqual(tBool, a, b);
    case 4: return m.OpFOrdGreaterThan(tBool, a, b);
    case 5: return m.OpFOrdNotEqual(tBool, a, b);
    case 6: return m.OpFOrdGreaterThanEqual(tBool, a, b);
    case 7: return m.OpLogicalNot(tBool, eitherNan(m, tBool, a, b));
    case 8: return eitherNan(m, tBool, a, b);
    case 9: return m.OpFUnordLessThan(tBool, a, b);
    case 10: return m.OpFUnordEqual(tBool, a, b);
    case 11: return m.OpFUnordLessThanEqual(tBool, a, b);
    case 12: return m.OpFUnordGreaterThan(tBool, a, b);
    case 13: return m.OpFUnordNotEqual(tBool, a, b);
    case 14: return m.OpFUnordGreaterThanEqual(tBool, a, b);
    default: return m.constant(tBool, true);
  }
}

/** Whether `a` or `b` is a NaN. */
function eitherNan(m: Module, tBool: Id, a: Id, b: Id): Id {
  return m.OpLogicalOr(tBool, m.OpIsNan(tBool, a), m.OpIsNan(tBool, b));
}
