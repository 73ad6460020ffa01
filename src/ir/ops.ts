// The IR's one op table. Every consumer (printer, verifier, SPIR-V emitter, IR interpreter) is
// typed as covering every key (`Record<Op, ...>`), so an op without a handler fails the type
// check. The IR is per invocation (one invocation = one lane of an RDNA wave): VGPRs are
// invocation values, SGPRs/SCC/EXEC are wave-uniform values every invocation of the wave holds,
// and cross-lane questions (a lane mask as a whole, another lane's value) are explicit ops.
//
// Types: u1 (bool), u32, u64, f16, f32, f64 (floats as their own types; bit casts are explicit).
// `imm` arguments are numbers (or bigints for 64-bit) stored in the instruction, not values.

export type IrType = 'void' | 'u1' | 'u16' | 'u32' | 'u64' | 'f16' | 'f32' | 'f64';

/** Argument kinds: a value of a type, or an immediate. */
export type ArgKind = IrType | 'imm';

export interface OpInfo {
  readonly args: readonly ArgKind[];
  /** Result type; 'void' for ops used for their effect. */
  readonly result: IrType;
  /** Has an effect beyond its result (stores, register writes, barriers, control flow): never removed. */
  readonly effect?: true;
  /** Ends a block. */
  readonly terminator?: true;
  /** Float arithmetic governed by MODE: carries a FloatMode attribute. */
  readonly float?: 'f16' | 'f32' | 'f64';
  /** The result type is the instruction's own (Phi, Undef): `result` is not used. */
  readonly typed?: true;
  /** Any number of value arguments (Phi: one per predecessor). */
  readonly variadic?: true;
  /**
   * Reads its value arguments in other lanes of the wave too (v_readlane, DPP, the permutes): what
   * a lane holds while it is off in EXEC may be seen (IrFunction.crossLane, simplify's selects).
   */
  readonly crossLane?: true;
}

const bin = (t: IrType, float?: 'f16' | 'f32' | 'f64'): OpInfo => (float ? { args: [t, t], result: t, float } : { args: [t, t], result: t });
const cmp = (t: IrType): OpInfo => ({ args: [t, t], result: 'u1' });
const un = (t: IrType, r: IrType = t, float?: 'f16' | 'f32' | 'f64'): OpInfo => (float ? { args: [t], result: r, float } : { args: [t], result: r });

export const OPS = {
  // --- constants (immediate bits) ---
  ConstU1: { args: ['imm'], result: 'u1' },
  ConstU32: { args: ['imm'], result: 'u32' },
  ConstU64: { args: ['imm'], result: 'u64' },
  ConstF16: { args: ['imm'], result: 'f16' },
  ConstF32: { args: ['imm'], result: 'f32' },
  ConstF64: { args: ['imm'], result: 'f64' },

  // --- register state (before SSA construction; the SSA pass turns them into values and phis) ---
  /** SGPR by scalar operand code (s0..s105, vcc_lo 106, vcc_hi 107, m0 124, exec_lo 126, exec_hi 127). */
  GetSgpr: { args: ['imm'], result: 'u32' },
  SetSgpr: { args: ['imm', 'u32'], result: 'void', effect: true },
  GetVgpr: { args: ['imm'], result: 'u32' },
  SetVgpr: { args: ['imm', 'u32'], result: 'void', effect: true },
  GetScc: { args: [], result: 'u1' },
  SetScc: { args: ['u1'], result: 'void', effect: true },
  /** MODE as a value (for dynamic float modes and s_getreg). */
  GetMode: { args: [], result: 'u32' },
  SetMode: { args: ['u32'], result: 'void', effect: true },

  // --- the lane and its wave ---
  /** This invocation's lane index in its wave (0..waveSize-1). */
  LaneId: { args: [], result: 'u32' },
  /** Bit `lane` of a wave-size lane mask given as two dwords (lo, hi; hi is 0 in wave32). */
  LaneBit: { args: ['u32', 'u32', 'u32'], result: 'u1' },
  /**
   * The wave-size lane mask of a per-lane bool, low dword / high dword (RDNA: v_cmp results).
   * Pure, as ReadLane: the IR's control flow is wave-uniform, so every lane of the wave takes part
   * wherever the op stands, and its value depends only on its arguments (an unused one is removed).
   */
  BallotLo: { args: ['u1'], result: 'u32' },
  BallotHi: { args: ['u1'], result: 'u32' },
  /** The value of `v` in lane `lane` of this wave (v_readlane, v_readfirstlane). */
  ReadLane: { args: ['u32', 'u32'], result: 'u32', crossLane: true },
  /** Workgroup id and local invocation id components (imm: 0 x, 1 y, 2 z). */
  WorkgroupId: { args: ['imm'], result: 'u32' },
  LocalId: { args: ['imm'], result: 'u32' },
  /** The wave's index in its workgroup, and the waves of the workgroup (the TG_SIZE system SGPR's fields). */
  WaveInGroup: { args: [], result: 'u32' },
  WavesInGroup: { args: [], result: 'u32' },
  /** This invocation is a work-item of the dispatch (inside the grid; a partial workgroup at the grid's edge has fewer). */
  InGrid: { args: [], result: 'u1' },

  // --- 32-bit integer and bit ops ---
  IAdd32: bin('u32'), ISub32: bin('u32'), IMul32: bin('u32'),
  UMulHi32: bin('u32'), SMulHi32: bin('u32'),
  /** a mod b (unsigned; a when b is 0). */
  UMod32: bin('u32'),
  And32: bin('u32'), Or32: bin('u32'), Xor32: bin('u32'), Not32: un('u32'),
  /** Shifts take the amount modulo 32 (RDNA semantics), the emitter masks it. */
  Shl32: bin('u32'), LShr32: bin('u32'), AShr32: bin('u32'),
  UMin32: bin('u32'), UMax32: bin('u32'), SMin32: bin('u32'), SMax32: bin('u32'),
  /** Carry/borrow out of a + b (+ carry-in) as u1. */
  UAddCarry32: { args: ['u32', 'u32', 'u1'], result: 'u1' },
  USubBorrow32: { args: ['u32', 'u32', 'u1'], result: 'u1' },
  IAdd3_32: { args: ['u32', 'u32', 'u32'], result: 'u32' },
  BitCount32: un('u32'),
  /** Count of leading zero bits (32 for 0). */
  Clz32: un('u32'),
  BitReverse32: un('u32'),
  /** Index of the lowest set bit, all ones (−1) for 0 (RDNA s_ff1). */
  FindLsb32: un('u32'),
  /** Bit field extract: value, offset, width (RDNA: width 0 gives 0). */
  UBfe32: { args: ['u32', 'u32', 'u32'], result: 'u32' },
  SBfe32: { args: ['u32', 'u32', 'u32'], result: 'u32' },
  IEq32: cmp('u32'), INe32: cmp('u32'), ULt32: cmp('u32'), ULe32: cmp('u32'), UGt32: cmp('u32'), UGe32: cmp('u32'),
  SLt32: cmp('u32'), SLe32: cmp('u32'), SGt32: cmp('u32'), SGe32: cmp('u32'),
  Select32: { args: ['u1', 'u32', 'u32'], result: 'u32' },
  SelectU1: { args: ['u1', 'u1', 'u1'], result: 'u1' },
  U1ToU32: un('u1', 'u32'),
  U32ToU1: un('u32', 'u1'),
  NotU1: un('u1'), AndU1: bin('u1'), OrU1: bin('u1'), XorU1: bin('u1'),

  // --- 64-bit integer ops ---
  Pack64: { args: ['u32', 'u32'], result: 'u64' },
  Lo32: un('u64', 'u32'), Hi32: un('u64', 'u32'),
  IAdd64: bin('u64'), ISub64: bin('u64'), IMul64: bin('u64'),
  Shl64: { args: ['u64', 'u32'], result: 'u64' }, LShr64: { args: ['u64', 'u32'], result: 'u64' }, AShr64: { args: ['u64', 'u32'], result: 'u64' },
  IEq64: cmp('u64'), INe64: cmp('u64'), ULt64: cmp('u64'), SLt64: cmp('u64'),
  UMulWide32: { args: ['u32', 'u32'], result: 'u64' },
  UDiv64: bin('u64'), UMod64: bin('u64'),

  // --- floats (each carries the FloatMode it runs under) ---
  BitcastU32F32: un('u32', 'f32'), BitcastF32U32: un('f32', 'u32'),
  BitcastU64F64: un('u64', 'f64'), BitcastF64U64: un('f64', 'u64'),
  BitcastU32F16: un('u32', 'f16'), BitcastF16U32: un('f16', 'u32'),
  FAdd32: bin('f32', 'f32'), FSub32: bin('f32', 'f32'), FMul32: bin('f32', 'f32'),
  FFma32: { args: ['f32', 'f32', 'f32'], result: 'f32', float: 'f32' },
  FMin32: bin('f32', 'f32'), FMax32: bin('f32', 'f32'),
  FFloor32: un('f32', 'f32', 'f32'), FCeil32: un('f32', 'f32', 'f32'), FTrunc32: un('f32', 'f32', 'f32'), FRndne32: un('f32', 'f32', 'f32'),
  /** 1/x, correctly rounded (the float model's v_rcp_f32). */
  FRcp32: un('f32', 'f32', 'f32'),
  /** sqrt(x), correctly rounded (the float model's v_sqrt_f32). */
  FSqrt32: un('f32', 'f32', 'f32'),
  /** v_frexp_mant_f32 (the significand in [0.5, 1) with the sign), v_frexp_exp_i32_f32 (the exponent as an i32), v_fract_f32. */
  FFrexpMant32: un('f32', 'f32', 'f32'), FFrexpExp32: un('f32', 'u32', 'f32'), FFract32: un('f32', 'f32', 'f32'),
  /** 1/sqrt(x), correctly rounded (the float model's v_rsq_f32). */
  FRsq32: un('f32', 'f32', 'f32'),
  /** x · 2^n (n: an i32), rounded by the mode (v_ldexp_f32). */
  FLdexp32: { args: ['f32', 'u32'], result: 'f32', float: 'f32' },
  /**
   * VOP3 output modifiers on an f32 result (src/float/modifiers.ts outputModifiersBits): imm omod
   * (0 none, 1 ×2, 2 ×4, 3 ×0.5; ignored when IEEE), imm clamp (0/1: to [0, 1], NaN → +0 when DX10_CLAMP).
   */
  FOutMod32: { args: ['imm', 'imm', 'f32'], result: 'f32', float: 'f32' },
  /** v_div_scale_f32 (src0 the value to scale, src1 denominator, src2 numerator): the scaled value, and the flag v_div_fmas reads. */
  FDivScale32: { args: ['f32', 'f32', 'f32'], result: 'f32', float: 'f32' },
  FDivScaleFlag32: { args: ['f32', 'f32', 'f32'], result: 'u1', float: 'f32' },
  /** v_div_fmas_f32: fma(a, b, c) scaled by 2^±64 when the lane's VCC bit (the u1) is set. */
  FDivFmas32: { args: ['f32', 'f32', 'f32', 'u1'], result: 'f32', float: 'f32' },
  /** v_div_fixup_f32 (src0 quotient, src1 denominator, src2 numerator): the special cases of the division. */
  FDivFixup32: { args: ['f32', 'f32', 'f32'], result: 'f32', float: 'f32' },
  FAdd64: bin('f64', 'f64'), FSub64: bin('f64', 'f64'), FMul64: bin('f64', 'f64'), FFma64: { args: ['f64', 'f64', 'f64'], result: 'f64', float: 'f64' },
  FAdd16: bin('f16', 'f16'), FMul16: bin('f16', 'f16'), FFma16: { args: ['f16', 'f16', 'f16'], result: 'f16', float: 'f16' },
  /** Compares: imm predicate 0..15 in VOPC order (f, lt, eq, le, gt, lg, ge, o, u, nge, nlg, ngt, nle, neq, nlt, tru). */
  FCmp32: { args: ['imm', 'f32', 'f32'], result: 'u1', float: 'f32' },
  FCmp64: { args: ['imm', 'f64', 'f64'], result: 'u1', float: 'f64' },
  FCmp16: { args: ['imm', 'f16', 'f16'], result: 'u1', float: 'f16' },
  ConvertF32U32: un('u32', 'f32', 'f32'), ConvertF32S32: un('u32', 'f32', 'f32'),
  ConvertU32F32: un('f32', 'u32', 'f32'), ConvertS32F32: un('f32', 'u32', 'f32'),
  ConvertF64F32: un('f32', 'f64', 'f64'), ConvertF32F64: un('f64', 'f32', 'f32'),
  ConvertF16F32: un('f32', 'f16', 'f16'), ConvertF32F16: un('f16', 'f32', 'f32'),

  // --- memory (byte addresses; 64-bit global addresses). VALU memory ops take the lane's EXEC
  // bit first: an inactive lane does not access memory (a load then gives 0). ---
  LoadGlobal32: { args: ['u1', 'u64'], result: 'u32', effect: true },
  StoreGlobal32: { args: ['u1', 'u64', 'u32'], result: 'void', effect: true },
  LoadGlobalU8: { args: ['u1', 'u64'], result: 'u32', effect: true },
  LoadGlobalU16: { args: ['u1', 'u64'], result: 'u32', effect: true },
  StoreGlobal8: { args: ['u1', 'u64', 'u32'], result: 'void', effect: true },
  StoreGlobal16: { args: ['u1', 'u64', 'u32'], result: 'void', effect: true },
  /**
   * Global atomics (active, address, data): the old value (0 in inactive lanes), the new memory
   * value from ATOMIC_RMW[imm] (32- or 64-bit). The lanes of one instruction apply in ascending
   * lane order, as the RDNA interpreter does (the emitter serialises lanes whose addresses collide).
   */
  AtomicRmw32: { args: ['imm', 'u1', 'u64', 'u32'], result: 'u32', effect: true },
  AtomicRmw64: { args: ['imm', 'u1', 'u64', 'u64'], result: 'u64', effect: true },
  /** Compare-and-swap (active, address, data, compare): writes data where memory equals compare; the old value. */
  AtomicCmpSwap32: { args: ['u1', 'u64', 'u32', 'u32'], result: 'u32', effect: true },
  AtomicCmpSwap64: { args: ['u1', 'u64', 'u64', 'u64'], result: 'u64', effect: true },
  /**
   * An atomic whose new value helper imm computes (active, address, data, compare as u64; imm 1 for
   * 64-bit, else 32-bit on the low dwords): new = helper(old, data, compare), u64 parameters and
   * result (a 32-bit value in the low dword); the old value (0 in inactive lanes). Lanes apply in
   * ascending lane order. The float atomics (src/ir/passes/lower-float-atomic.ts makes the helpers).
   */
  AtomicRmwCall: { args: ['imm', 'u1', 'u64', 'u64', 'u64', 'imm'], result: 'u64', effect: true },
  /**
   * A memory address as the device sees it (imms: the code object image's base and size): inside
   * [base, base + size) it moves to where the engine placed the image; the IR interpreter maps the
   * image at its own addresses (identity). Only where the code can address its image (s_getpc_b64).
   */
  CodeAddress: { args: ['u64', 'imm', 'imm'], result: 'u64' },
  /** A wave-uniform dword load (SMEM): the address is the same in every lane. */
  LoadUniform32: { args: ['u64'], result: 'u32', effect: true },
  /** The address of the kernarg segment / dispatch packet the runtime provides. */
  KernargPtr: { args: [], result: 'u64' },
  /** The wave's scratch region (the lanes' private segments interleaved; src/interp/scratch.ts): wave-uniform. */
  ScratchBase: { args: [], result: 'u64' },
  /**
   * A raw shader's dispatch scratch ring (src/interp/scratch.ts): its base (wave k of the dispatch,
   * workgroup-major, owns the k-th region of scratchWaveBytes; ScratchBase is the wave's), and its
   * bytes (every wave's region of this dispatch). Dispatch-uniform.
   */
  ScratchRing: { args: [], result: 'u64' },
  ScratchRingBytes: { args: [], result: 'u64' },
  DispatchPtr: { args: [], result: 'u64' },
  /**
   * A clock read (s_memtime: imm 0, the core clock, SPIR-V scope Subgroup; s_memrealtime: imm 1,
   * the constant-rate real-time clock, scope Device): a u64 that is the same in every lane of the
   * wave (it is an SGPR pair) and never decreases from one read to a later one of the same wave.
   * An effect, so it is neither folded, CSE'd nor moved: two reads are two samples. The values are
   * each engine's own (src/interp/units/smem.ts, src/ir/interp.ts, emit-ops.ts), not hardware's.
   */
  ReadClock: { args: ['imm'], result: 'u64', effect: true },
  /**
   * s_barrier: the wave waits until every wave of its workgroup that has not ended reaches a
   * barrier. Always directly before its block's Branch (the frontend splits the block there): the
   * wave resumes at that branch's target.
   */
  Barrier: { args: [], result: 'void', effect: true },

  // --- LDS: the workgroup's local data share, byte addresses from 0, bounded by the kernel's LDS
  // size (an element outside it reads 0 and is not written; the frontend has already taken out
  // lanes whose address sum passed 2^32). An inactive lane does not access it. ---
  /** imm0 bytes (1, 2 or 4) at address + imm1 (active, address), zero-extended; any alignment. */
  LoadLds: { args: ['u1', 'u32', 'imm', 'imm'], result: 'u32', effect: true },
  /**
   * One DS store instruction (active, address0, address1, data dwords d0..d3; imm bytes, imm
   * addresses): `bytes` (1, 2, 4, 8, 12 or 16) at address0 from the data (bytes < 4: the low
   * bytes of d0), and with two addresses (bytes 4 or 8) d0 (d0, d1) at address0 and d1 (d2, d3)
   * at address1. Lanes apply in ascending order, each lane its whole store, address0 first.
   */
  StoreLds: { args: ['u1', 'u32', 'u32', 'u32', 'u32', 'u32', 'u32', 'imm', 'imm'], result: 'void', effect: true },
  /**
   * A DS read-modify-write (imm: LDS_RMW index; active, address, data0, data1 as u64; imm: the
   * LDS_ATOMIC_* bits, 64-bit or else 32-bit on the low dwords, and src2): the old value (0 in
   * inactive lanes). Lanes apply in ascending order. Each dword outside the LDS reads 0 and is not
   * written. With LDS_ATOMIC_SRC2 (the ds_*_src2_* forms) data0's low dword is an LDS address B
   * and the data is the value there, read in the lane's turn (after the lower lanes' writes) by
   * the same range rules.
   */
  AtomicLds: { args: ['imm', 'u1', 'u32', 'u64', 'u64', 'imm'], result: 'u64', effect: true },
  /**
   * ds_wrxchg2(st64)_rtn_b32 (active, address0, address1, data0, data1): per lane in ascending
   * order, the dword at address0 is exchanged with data0, then the one at address1 with data1;
   * the old dwords as (old0, old1) in a u64 (0 in inactive lanes). AtomicLds's range rules.
   */
  ExchangeLds2: { args: ['u1', 'u32', 'u32', 'u32', 'u32'], result: 'u64', effect: true },
  /**
   * ds_wrxchg2(st64)_rtn_b64 (active, address0, address1, data0, data1 as u64): per lane in
   * ascending order, the 8 bytes at address0 are exchanged with data0, then the 8 at address1 with
   * data1; the old 8 bytes at address0 (0 in inactive lanes). Those at address1 are the value of
   * ExchangeLds2x64Second on this result. AtomicLds's range rules, dword by dword.
   */
  ExchangeLds2x64: { args: ['u1', 'u32', 'u32', 'u64', 'u64'], result: 'u64', effect: true },
  /**
   * The old 8 bytes at address1 of the ExchangeLds2x64 whose result is the argument (in the same
   * block; 0 in inactive lanes). Pure: it reads the exchange's second result, not the LDS.
   */
  ExchangeLds2x64Second: { args: ['u64'], result: 'u64' },
  /** AtomicRmwCall on the LDS (helper imm; active, address, data, compare; imm AtomicLds's LDS_ATOMIC_* bits), with AtomicLds's range and src2 rules. */
  AtomicLdsCall: { args: ['imm', 'u1', 'u32', 'u64', 'u64', 'imm'], result: 'u64', effect: true },
  /**
   * ds_permute_b32 (active, target lane, value): the value of the highest active lane whose
   * target is this lane, or 0 where no active lane targets it. Pure, as ReadLane.
   */
  PermuteLanes: { args: ['u1', 'u32', 'u32'], result: 'u32', crossLane: true },
  /**
   * A run-time-detected gap (imm: an index into FAULT_MESSAGES, src/ir/faults.ts): where the u1 is
   * true in a lane, the run fails with the instruction's pc and the message (the Vulkan kernel
   * records the first such fault in the sink buffer's fault word; the IR interpreter throws).
   */
  Fault: { args: ['u1', 'imm'], result: 'void', effect: true },

  // --- control flow (blocks end with exactly one terminator) ---
  Branch: { args: ['imm'], result: 'void', effect: true, terminator: true },
  /** Branch on a wave-uniform condition: imm true-block, imm false-block. */
  BranchCond: { args: ['u1', 'imm', 'imm'], result: 'void', effect: true, terminator: true },
  EndProgram: { args: [], result: 'void', effect: true, terminator: true },
  /** Stops translation-time verification of an unreachable end (e.g. after a trap). */
  Unreachable: { args: [], result: 'void', effect: true, terminator: true },
  /** A phi: one value argument per predecessor of its block, in the block's predecessor order. */
  Phi: { args: [], result: 'void', typed: true, variadic: true },
  /** A value never written (a register read before any write on some path). */
  Undef: { args: [], result: 'void', typed: true },

  // --- f64 and f16 arithmetic beyond add/mul/fma/compares (always lowered to exact integer code:
  // src/ir/passes/lower-float64.ts, lower-float16.ts). Same meanings as the f32 ops of the same
  // names; f16 integer results and sources are 16-bit values in a u32 (zero- or sign-extended by
  // the frontend). Conversions between widths carry a FloatMode whose denorm field joins the
  // source width's input bit and the destination width's output bit (convertEnvFor). ---
  FMin64: bin('f64', 'f64'), FMax64: bin('f64', 'f64'),
  FFloor64: un('f64', 'f64', 'f64'), FCeil64: un('f64', 'f64', 'f64'), FTrunc64: un('f64', 'f64', 'f64'), FRndne64: un('f64', 'f64', 'f64'),
  FRcp64: un('f64', 'f64', 'f64'), FSqrt64: un('f64', 'f64', 'f64'), FRsq64: un('f64', 'f64', 'f64'),
  FFrexpMant64: un('f64', 'f64', 'f64'), FFrexpExp64: un('f64', 'u32', 'f64'), FFract64: un('f64', 'f64', 'f64'),
  FLdexp64: { args: ['f64', 'u32'], result: 'f64', float: 'f64' },
  FOutMod64: { args: ['imm', 'imm', 'f64'], result: 'f64', float: 'f64' },
  FDivScale64: { args: ['f64', 'f64', 'f64'], result: 'f64', float: 'f64' },
  FDivScaleFlag64: { args: ['f64', 'f64', 'f64'], result: 'u1', float: 'f64' },
  FDivFmas64: { args: ['f64', 'f64', 'f64', 'u1'], result: 'f64', float: 'f64' },
  FDivFixup64: { args: ['f64', 'f64', 'f64'], result: 'f64', float: 'f64' },
  ConvertF64U32: un('u32', 'f64', 'f64'), ConvertF64S32: un('u32', 'f64', 'f64'),
  ConvertU32F64: un('f64', 'u32', 'f64'), ConvertS32F64: un('f64', 'u32', 'f64'),
  FSub16: bin('f16', 'f16'), FMin16: bin('f16', 'f16'), FMax16: bin('f16', 'f16'),
  FFloor16: un('f16', 'f16', 'f16'), FCeil16: un('f16', 'f16', 'f16'), FTrunc16: un('f16', 'f16', 'f16'), FRndne16: un('f16', 'f16', 'f16'),
  FRcp16: un('f16', 'f16', 'f16'), FSqrt16: un('f16', 'f16', 'f16'), FRsq16: un('f16', 'f16', 'f16'),
  FFrexpMant16: un('f16', 'f16', 'f16'), FFrexpExp16: un('f16', 'u32', 'f16'), FFract16: un('f16', 'f16', 'f16'),
  FLdexp16: { args: ['f16', 'u32'], result: 'f16', float: 'f16' },
  FOutMod16: { args: ['imm', 'imm', 'f16'], result: 'f16', float: 'f16' },
  FDivFixup16: { args: ['f16', 'f16', 'f16'], result: 'f16', float: 'f16' },
  ConvertF16U32: un('u32', 'f16', 'f16'), ConvertF16S32: un('u32', 'f16', 'f16'),
  ConvertU32F16: un('f16', 'u32', 'f16'), ConvertS32F16: un('f16', 'u32', 'f16'),
  /** v_fma_mixlo/hi_f16: fma of three f32 values rounded once to f16 (f32 input flush, f16 rounding and output flush). */
  FFmaMixF16: { args: ['f32', 'f32', 'f32'], result: 'f16', float: 'f16' },
  /** v_cvt_rpi_i32_f32: floor(x + 1/2) as an i32, saturating, NaN → 0 (the float model's toIntBits 'rpi'). */
  ConvertRpiS32F32: un('f32', 'u32', 'f32'),
  /** v_cvt_pk_u8_f32's conversion: f32 → u8, round to nearest even, clamped to [0, 255], NaN → 0 (toU8Bits). */
  ConvertU8F32: un('f32', 'u32', 'f32'),
  /** v_cvt_(pk)norm: f32 / f16 → a 16-bit normalized integer pattern; imm 1 snorm (×32767), 0 unorm (×65535) (toNorm16Bits). */
  FNorm16F32: { args: ['imm', 'f32'], result: 'u32', float: 'f32' },
  FNorm16F16: { args: ['imm', 'f16'], result: 'u32', float: 'f16' },
  /**
   * v_exp/v_log/v_sin/v_cos (f32, f16): the float model's algorithms (src/float/transcendental.ts:
   * 2^x, log2 x, sin and cos of 2π x) rounded by the mode; always lowered
   * (lower-float-transcendental.ts).
   */
  FExp32: un('f32', 'f32', 'f32'), FLog32: un('f32', 'f32', 'f32'), FSin32: un('f32', 'f32', 'f32'), FCos32: un('f32', 'f32', 'f32'),
  FExp16: un('f16', 'f16', 'f16'), FLog16: un('f16', 'f16', 'f16'), FSin16: un('f16', 'f16', 'f16'), FCos16: un('f16', 'f16', 'f16'),

  // --- subroutines (the function's helpers: pure, straight-line code shared by many call sites,
  // such as one exactly lowered float op under one mode) ---
  /** Parameter imm of a helper (at the start of its entry block; an effect so that an unused one stays in the signature). */
  Param: { args: ['imm'], result: 'void', typed: true, effect: true },
  /** Calls helper imm (an index into the function's `helpers`) with the value arguments; pure. */
  Call: { args: ['imm'], result: 'void', typed: true, variadic: true },
  /**
   * A guarded float op (src/ir/passes/lower-float-guarded.ts) as one call, per lane and pure:
   * fast = helper imm0 (args), a u64 (the fast bits in its low dword, nonzero in its high one
   * where they hold); the low dword where they hold, else helper imm1's result on the same
   * arguments, which only the lanes that need it run. One instruction per float op, not the five
   * of a call, its test and a conditional call (every later pass and the emitter walk far fewer;
   * the emitter makes one SPIR-V function per (imm0, imm1) of the module: emit.ts emitGuardedFn).
   */
  CallGuarded: { args: ['imm', 'imm'], result: 'void', typed: true, variadic: true },
  /** Ends a helper, returning its one value argument. */
  Return: { args: [], result: 'void', effect: true, terminator: true, variadic: true },
} as const satisfies Record<string, OpInfo>;

export type Op = keyof typeof OPS;

/**
 * ReadClock's immediate: which clock, by index. 'time' is s_memtime's core-clock counter (SPIR-V
 * scope Subgroup: VK_KHR_shader_clock's shaderSubgroupClock), 'realtime' s_memrealtime's
 * constant-rate counter (scope Device: shaderDeviceClock).
 */
export const CLOCKS = ['time', 'realtime'] as const;
export type Clock = (typeof CLOCKS)[number];

/**
 * The read-modify-write atomics (AtomicRmw32/64's immediate is the index), with RDNA's rules:
 * new = add: old + d, sub: old - d (wrapping), smin/umin/smax/umax, and/or/xor, swap: d,
 * inc: old >= d ? 0 : old + 1, dec: old == 0 || old > d ? d : old - 1, csub: old >= d ? old - d : 0
 * (32-bit only).
 */
export const ATOMIC_RMW = ['add', 'sub', 'smin', 'umin', 'smax', 'umax', 'and', 'or', 'xor', 'swap', 'inc', 'dec', 'csub'] as const;
export type AtomicRmw = (typeof ATOMIC_RMW)[number];

/** AtomicLds / AtomicLdsCall's last immediate, bits: 64-bit (else 32-bit), and src2 (the data is the LDS value at data0's low dword). */
export const LDS_ATOMIC_WIDE = 1;
export const LDS_ATOMIC_SRC2 = 2;

/**
 * The DS read-modify-write atomics (AtomicLds's immediate is the index), the RDNA2 ISA's DS
 * opcode rules: new = add, sub, rsub (d - old), inc, dec (as ATOMIC_RMW), min_i/max_i (signed),
 * min_u/max_u, and/or/xor, mskor ((old & ~d0) | d1), cmpst (old == d0 ? d1 : old), wrxchg (d0),
 * wrap (old >= d0 ? old - d0 : old + d1).
 */
export const LDS_RMW = ['add', 'sub', 'rsub', 'inc', 'dec', 'min_i', 'max_i', 'min_u', 'max_u', 'and', 'or', 'xor', 'mskor', 'cmpst', 'wrxchg', 'wrap'] as const;
export type LdsRmw = (typeof LDS_RMW)[number];

/** A DS atomic's new memory value from its old value and data (bits: 32 or 64). */
export function ldsRmw(kind: LdsRmw, o: bigint, d0: bigint, d1: bigint, bits: number): bigint {
  const w = (x: bigint) => BigInt.asUintN(bits, x);
  const s = (x: bigint) => BigInt.asIntN(bits, x);
  switch (kind) {
    case 'add': return w(o + d0);
    case 'sub': return w(o - d0);
    case 'rsub': return w(d0 - o);
    case 'inc': return o >= d0 ? 0n : w(o + 1n);
    case 'dec': return o === 0n || o > d0 ? d0 : w(o - 1n);
    case 'min_i': return s(o) < s(d0) ? o : d0;
    case 'max_i': return s(o) > s(d0) ? o : d0;
    case 'min_u': return o < d0 ? o : d0;
    case 'max_u': return o > d0 ? o : d0;
    case 'and': return o & d0;
    case 'or': return o | d0;
    case 'xor': return o ^ d0;
    case 'mskor': return w((o & ~d0) | d1);
    case 'cmpst': return o === d0 ? d1 : o;
    case 'wrxchg': return d0;
    case 'wrap': return o >= d0 ? w(o - d0) : w(o + d1);
  }
}

/**
 * An op's table entry as instructions carry it (`Inst.info`): every field of OpInfo present, in one
 * order, so all entries share one object shape (the table's literals have eight, and the passes'
 * reads of `effect`, `terminator` or `float` at every instruction went megamorphic over them), and
 * what the passes derive from it once.
 */
export interface OpEntry extends OpInfo {
  /** The op's position in the table (a small number for a pass's tables by op). */
  readonly index: number;
  /** The types of the value arguments, in order (`args` without the immediates). */
  readonly valueArgs: readonly ArgKind[];
  /** How many immediates. */
  readonly immCount: number;
}

/** The op table as a Map: a lookup by a string that varies is a hash probe here, where the 400-key object's keyed load went megamorphic. */
const OP_INFO = new Map<string, OpEntry>(Object.entries(OPS).map(([op, x]: [string, OpInfo], index): [string, OpEntry] => [op, {
  args: x.args, result: x.result, effect: x.effect, terminator: x.terminator, float: x.float, typed: x.typed, variadic: x.variadic, crossLane: x.crossLane,
  index, valueArgs: x.args.filter((a) => a !== 'imm'), immCount: x.args.filter((a) => a === 'imm').length,
}]));
export const opInfo = (op: Op): OpEntry => OP_INFO.get(op) as OpEntry;
