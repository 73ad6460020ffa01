// IR → SPIR-V (first slice of issue 6). One Vulkan workgroup runs one RDNA wave at a time: LocalSize
// is the wave size, so everything the wave shares (lane masks, v_readlane, DPP sources, ds_swizzle
// and ds_permute, the byte stores' lane order) is exchanged as src/backend/lane-exchange.ts chooses:
// as subgroup operations (OpGroupNonUniformBallot, OpGroupNonUniformShuffle) where the pipeline runs
// the workgroup as one full subgroup of the wave's size (the engine sets its required subgroup size
// and full subgroups), else through workgroup memory with barriers, correct on any subgroup size
// (the atomics' and DS stores' lane order go through workgroup memory either way). The IR's
// wave-uniform control flow is workgroup-uniform, so those barriers and subgroup operations are in
// uniform control flow (the emitter's own lane-dependent branches hold neither: `divergent`). The Vulkan workgroup id
// gives the RDNA workgroup and the wave within it (the dispatcher lays the waves out linearly);
// a kernel with LDS (LDS ops and a non-zero LDS size) or s_barrier is emitted in the workgroup layout instead (`dispatch:
// 'workgroup'`, see where the control flow is emitted below): a Vulkan workgroup per RDNA
// workgroup, its waves in turns through the state machine, the LDS a workgroup array, every DS
// store and atomic done by lane 0 for all lanes in lane order (docs/ARCHITECTURE.md).
//
// Control flow: a reducible CFG (what compilers emit) becomes SPIR-V selection and loop
// constructs, its SSA values used directly and its phis as OpPhi (structurize.ts plans,
// emit-structured.ts emits); an irreducible one becomes the state machine of emit-state-machine.ts
// (one switch in a loop, values in Function variables), which drivers compile slowly but which
// runs correctly. Either way the flow is the IR's, wave-uniform, so the barriers below (ballots,
// v_readlane, byte stores) stay in workgroup-uniform control flow. Memory is reached through
// 64-bit device addresses (PhysicalStorageBuffer64); an inactive lane's load or store goes to a
// per-dispatch sink buffer instead of branching, so the IR's code has no divergent control flow
// (the only divergent constructs are the emitter's own small loops and ifs below, which hold no
// barriers).
//
// The sink buffer (SINK, SINK.bytes long, zeroed by the runtime before the dispatch): bytes 0..63
// take inactive lanes' plain loads and stores (64..127 are unused), and the dword at SINK.fault is
// the fault word: 0, or the number (1-based) of the first fault site whose condition held in some
// lane (a compare-exchange from 0, so the first fault wins; EmitResult.faultSites lists the sites:
// the IR `Fault` op's pc and kind, src/ir/faults.ts). A lane that faults does nothing else the
// translation would have done wrongly (e.g. a FLAT access to the LDS/private aperture accesses no
// memory); the runtime reads the word after the dispatch and fails the run with the site's pc,
// instruction and message. Any run-time-detected gap can become a fault kind.
//
// Byte and short memory (needs the profile's storageBuffer8BitAccess: 8-bit loads and stores
// through device addresses, so lanes storing to different bytes of one dword never clobber each
// other; a short goes as two bytes, so any alignment works as the interpreter models it). Stores of
// several lanes to the same byte in one instruction follow the interpreter's rule, lanes applied in
// ascending order so the highest lane's byte stays: before a byte/short store every lane publishes
// its address and EXEC bit in workgroup memory (a barrier), scans the higher lanes, and writes only
// the bytes no higher active lane of the same instruction writes (the others go to the sink). Dword
// stores do not do this yet (docs/TECHNICAL_DEBT.md).
//
// Atomics (32- and 64-bit; the 64-bit ones need the profile's shaderBufferInt64Atomics) follow the
// interpreter's order too: lanes of one instruction in ascending order. Every lane publishes its
// address, EXEC bit, data and compare in workgroup memory; the lowest active lane of each address
// does the atomics of every active lane on that address in lane order (SPIR-V's atomic where one
// computes RDNA's new value, a compare-exchange loop for inc/dec/csub) and leaves each lane's old
// value in its slot; inactive lanes do nothing. Two barriers per atomic instruction; the lane loop
// is DontUnroll (lavapipe unrolled it and compiled large kernels very slowly).
//
// Clocks (s_memtime, s_memrealtime: the IR's ReadClock) are OpReadClockKHR (SPV_KHR_shader_clock)
// at Subgroup and at Device scope, which need the profile's shaderSubgroupClock / shaderDeviceClock
// (VK_KHR_shader_clock; clockRefusal says why not); lane 0's sample is the wave's value (emit-ops.ts).
//
// Float ops: native only for the ops of NATIVE_F32 (emit-ops.ts) and only where the entry point's
// float controls, which the profile must offer, express the op's MODE exactly (float-controls.ts:
// one rounding mode, RTE or RTZ, and DenormPreserve or none, shared by the kernel's native ops);
// every float op carries NoContraction. The rest arrive lowered (lowerFloat) as calls of the
// function's helpers, each a SPIR-V function of pure integer code (emitHelper), recorded once per
// process and copied into every module that calls it (helperSpirv); a guarded float op (CallGuarded)
// calls a function of its module made per pair of helpers it uses (emitGuardedFn). Anything else is a
// CompileError naming the instruction's pc: never silently wrong SPIR-V. Module constants and the
// launch values computed before any IR block (EVERYWHERE, emit-ops.ts) are valid in every block.
import type { TargetProfile } from '../profile.js';
import type { Block, Inst, IrFunction } from '../../ir/ir.js';
import { CLOCKS, type IrType, LDS_ATOMIC_SRC2, LDS_ATOMIC_WIDE, type LdsRmw, type Op, OPS, opInfo } from '../../ir/ops.js';
import { Module, type RelocatableFunction } from './module.js';
import { Id } from './operands.js';
import { CompileError } from './errors.js';
import { emitOp, EVERYWHERE, type KernelState, type Operands, Scalars } from './emit-ops.js';
import { type EntryFloatControls, type FloatControlsPlan, planFloatControls, planFloatControlsOf, withGuarded } from './float-controls.js';
import { planStructuredFlow } from './structurize.js';
import { emitStructured } from './emit-structured.js';
import { DONE, emitStateMachine, YIELD } from './emit-state-machine.js';
import { signature } from '../../ir/verify.js';
import { FAULT_UNALIGNED_DWORD } from '../../ir/faults.js';
import { scratchWaveBytes } from '../../isa/apertures.js';
import { chooseLaneExchange, type LaneExchange } from '../lane-exchange.js';

export { CompileError };

/** The sink buffer's layout (bytes), shared with the Vulkan engine: see the header. */
export const SINK = { plain: 0, fault: 128, bytes: 256 } as const;

/** A place where the kernel can fault at run time: its word value in the fault word is index + 1. */
export interface FaultSite { readonly pc: number; readonly kind: number }

/** Push constant block layout (bytes), shared with the Vulkan engine (src/runtime/engine.ts). */
export const PUSH = {
  kernargPtr: 0, dispatchPtr: 8, sinkPtr: 16,
  grid: 24, block: 36, wavesPerGroup: 48, groupsX: 52, groupsY: 56, vkGroupsX: 60,
  /** The dispatch's scratch buffer: wave k of the dispatch (workgroup-major) has the k-th region of scratchWaveBytes. */
  scratchPtr: 64,
  /** The code object's image (src/container/shader.ts CodeImage; only modules that address it declare it). */
  imagePtr: 72,
  size: 80,
} as const;

export interface EmitResult {
  readonly spirv: Uint32Array;
  /** The float ops emitted as native SPIR-V float instructions. */
  readonly floatOps: readonly { pc: number | undefined; op: Op; lowering: 'native' }[];
  /** The kernel's fault sites, by fault word value - 1. */
  readonly faultSites: readonly FaultSite[];
  /** How the CFG was emitted: structured constructs (reducible), or the state machine (irreducible). */
  readonly controlFlow: 'structured' | 'state machine';
  /**
   * What one Vulkan workgroup runs: one RDNA wave ('wave': the runtime dispatches a Vulkan
   * workgroup per wave), or a whole RDNA workgroup, its waves one after another ('workgroup':
   * kernels with LDS or s_barrier; one Vulkan workgroup per RDNA workgroup).
   */
  readonly dispatch: 'wave' | 'workgroup';
  /**
   * How the lanes exchange values (src/backend/lane-exchange.ts): subgroup operations (the pipeline
   * must then be created with its required subgroup size and full subgroups), or workgroup memory.
   */
  readonly laneExchange: LaneExchange;
}

const BYTE_OPS: ReadonlySet<Op> = new Set(['LoadGlobalU8', 'LoadGlobalU16', 'StoreGlobal8', 'StoreGlobal16']);
const BYTE_STORES: ReadonlySet<Op> = new Set(['StoreGlobal8', 'StoreGlobal16']);
const ATOMICS: ReadonlySet<Op> = new Set(['AtomicRmw32', 'AtomicRmw64', 'AtomicCmpSwap32', 'AtomicCmpSwap64', 'AtomicRmwCall']);
const ATOMICS64: ReadonlySet<Op> = new Set(['AtomicRmw64', 'AtomicCmpSwap64']);
const LDS_OPS: ReadonlySet<Op> = new Set(['LoadLds', 'StoreLds', 'AtomicLds', 'AtomicLdsCall', 'ExchangeLds2', 'ExchangeLds2x64']);


export interface EmitOptions {
  /** Emit the state machine even for a reducible CFG (comparisons, benchmarks). */
  readonly stateMachine?: boolean;
  /** The kernel's LDS size in bytes (ShaderInfo.ldsSize): accesses at or beyond it read 0 and write nothing. */
  readonly ldsBytes?: number;
  /** Private segment bytes per lane (ShaderInfo.scratchSize): the size of the waves' scratch regions. */
  readonly scratchBytes?: number;
  /** The most work-items a workgroup has (recompile.ts maxWorkItems; default 1,024): the workgroup layout's per-wave arrays have one entry per wave of it. */
  readonly maxWorkItems?: number;
  /** Emit each helper by walking its IR instead of copying its recorded SPIR-V (tests compare the two). */
  readonly walkHelpers?: boolean;
  /** The lane exchange to emit instead of chooseLaneExchange's choice for the profile (tests). */
  readonly laneExchange?: LaneExchange;
}

const MODULE_VERSION = '1.5';

/**
 * Why the profile cannot read ReadClock `i`'s clock (undefined: it can). OpReadClockKHR
 * (SPV_KHR_shader_clock) at Subgroup scope needs VK_KHR_shader_clock's shaderSubgroupClock, at
 * Device scope its shaderDeviceClock (the Vulkan spec's VkPhysicalDeviceShaderClockFeaturesKHR).
 */
export function clockRefusal(i: Inst, profile: TargetProfile): string | undefined {
  const clock = CLOCKS[Number(i.imms[0])];
  if (clock === undefined) return `no clock ${String(i.imms[0])}`;
  const feature = clock === 'time' ? 'shaderSubgroupClock' : 'shaderDeviceClock';
  if (profile[feature] === true) return undefined;
  return `reading the ${clock === 'time' ? 'shader clock (OpReadClockKHR at Subgroup scope)' : 'real-time clock (OpReadClockKHR at Device scope)'} needs VK_KHR_shader_clock's ${feature}, which the ${profile.name} profile does not offer`;
}

/** What the module prologue depends on (all it depends on: its template's key). */
interface PrologueOptions {
  readonly ws: 32 | 64;
  /** The entry point's float controls (with what the guarded helpers need). */
  readonly controls: Required<EntryFloatControls>;
  readonly bytes: boolean;
  readonly byteStores: boolean;
  readonly atomics: boolean;
  readonly atomics64: boolean;
  readonly clocks: boolean;
  readonly viaSubgroup: boolean;
  readonly lds: boolean;
  /** The workgroup layout (LDS or s_barrier). */
  readonly perWorkgroup: boolean;
  readonly permutes: boolean;
  readonly scratch: boolean;
  readonly ringBytes: boolean;
  /** The module addresses the code object's image. */
  readonly image: boolean;
  readonly ldsCap: number;
  /** A wave's scratch region's bytes. */
  readonly waveBytes: number;
  /** How many helper functions (their ids are allocated here). */
  readonly helpers: number;
}

/**
 * The module's start for `o`, the same for every kernel with those options: capabilities, memory
 * model, types, push constants, builtins, the workgroup variables, the entry point (its interface,
 * execution modes, name) and its entry block's launch code (push constants read, the RDNA
 * workgroup and wave, the grid check, scratch zeroing), left open. Emitted once per set of options
 * into a template module (kept in PROLOGUES) that each kernel's module is forked from: this code
 * through the general encoder was about half of a small kernel's emission.
 */
function emitPrologue(o: PrologueOptions) {
  const m = new Module({ version: MODULE_VERSION });
  const { ws, bytes, byteStores, atomics, atomics64, clocks, viaSubgroup, lds, perWorkgroup, permutes, scratch, ringBytes, image, ldsCap, waveBytes } = o;
  const { rounding, denormPreserve, signedZeroInfNanPreserve, float64 } = o.controls;
  m.OpCapability('Shader');
  m.OpCapability('Int64');
  m.OpCapability('PhysicalStorageBufferAddresses');
  if (float64) m.OpCapability('Float64');
  if (rounding) m.enable('ExecutionMode', rounding.mode);
  if (denormPreserve) m.enable('ExecutionMode', 'DenormPreserve');
  if (signedZeroInfNanPreserve) m.enable('ExecutionMode', 'SignedZeroInfNanPreserve');
  if (bytes) m.OpCapability('StorageBuffer8BitAccess');
  if (atomics64) m.OpCapability('Int64Atomics');
  if (clocks) {
    m.OpCapability('ShaderClockKHR');
    m.OpExtension('SPV_KHR_shader_clock');
  }
  if (viaSubgroup) {
    m.OpCapability('GroupNonUniform');
    m.OpCapability('GroupNonUniformBallot');
    m.OpCapability('GroupNonUniformShuffle');
  }
  m.OpMemoryModel('PhysicalStorageBuffer64', 'GLSL450');

  // --- types ---
  const tVoid = m.OpTypeVoid();
  const tBool = m.OpTypeBool();
  const tU32 = m.OpTypeInt(32, 0);
  const tU64 = m.OpTypeInt(64, 0);
  const tF32 = m.OpTypeFloat(32);
  const tV3 = m.OpTypeVector(tU32, 3);
  const tV2U32 = m.OpTypeVector(tU32, 2);
  const sc = new Scalars(m, tBool, tU32, tU64, tF32, tV2U32);
  // The helpers' ids, defined after the entry point.
  const helperFns = Array.from({ length: o.helpers }, () => m.allocateId());

  // Push constants (imagePtr only in a module that addresses the code object's image).
  const pcStruct = m.OpTypeStruct(tU64, tU64, tU64, tU32, tU32, tU32, tU32, tU32, tU32, tU32, tU32, tU32, tU32, tU64, ...(image ? [tU64] : []));
  m.OpDecorate(pcStruct, 'Block');
  [0, 8, 16, 24, 28, 32, 36, 40, 44, 48, 52, 56, 60, 64, ...(image ? [PUSH.imagePtr] : [])].forEach((off, k) => m.OpMemberDecorate(pcStruct, k, 'Offset', off));
  const pcVar = m.OpVariable(m.OpTypePointer('PushConstant', pcStruct), 'PushConstant');
  const pcPtr64 = m.OpTypePointer('PushConstant', tU64);
  const pcPtr32 = m.OpTypePointer('PushConstant', tU32);
  // Builtins.
  const gLocal = m.OpVariable(m.OpTypePointer('Input', tV3), 'Input');
  m.OpDecorate(gLocal, 'BuiltIn', 'LocalInvocationId');
  const gGroup = m.OpVariable(m.OpTypePointer('Input', tV3), 'Input');
  m.OpDecorate(gGroup, 'BuiltIn', 'WorkgroupId');
  // Workgroup memory for the wave's exchanges (one dword per lane).
  const shArr = m.OpTypeArray(tU32, sc.c32(ws));
  const shVar = m.OpVariable(m.OpTypePointer('Workgroup', shArr), 'Workgroup');
  const shPtr = m.OpTypePointer('Workgroup', tU32);
  // Two words for ballots (lanes 0-31, 32-63), built with atomic ORs (not with subgroup ballots).
  const balVar = viaSubgroup ? undefined : m.OpVariable(m.OpTypePointer('Workgroup', m.OpTypeArray(tU32, sc.c32(2))), 'Workgroup');
  const tV4U32 = viaSubgroup ? m.OpTypeVector(tU32, 4) : undefined;
  const psbU32 = m.OpTypePointer('PhysicalStorageBuffer', tU32);
  const tU8 = bytes ? m.OpTypeInt(8, 0) : undefined;
  const psbU8 = tU8 !== undefined ? m.OpTypePointer('PhysicalStorageBuffer', tU8) : undefined;
  const psbU64 = atomics64 ? m.OpTypePointer('PhysicalStorageBuffer', tU64) : undefined;
  // The byte stores' and atomics' address exchange (one u64 per lane).
  const addrArr = (byteStores || atomics) && !viaSubgroup ? m.OpTypeArray(tU64, sc.c32(ws)) : undefined;
  const addrVar = addrArr !== undefined ? m.OpVariable(m.OpTypePointer('Workgroup', addrArr), 'Workgroup') : undefined;
  // The atomics' data, compare and old value of each lane (as u64s).
  const atomicVars = atomics && addrArr !== undefined
    ? { data: m.OpVariable(m.OpTypePointer('Workgroup', addrArr), 'Workgroup'), cmp: m.OpVariable(m.OpTypePointer('Workgroup', addrArr), 'Workgroup'), old: m.OpVariable(m.OpTypePointer('Workgroup', addrArr), 'Workgroup') }
    : undefined;
  const shPtr64 = addrVar !== undefined ? m.OpTypePointer('Workgroup', tU64) : undefined;
  // LDS, and the lane exchange of the DS ops (8 dwords per lane: active, addresses, data, results).
  const ldsVar = lds ? m.OpVariable(m.OpTypePointer('Workgroup', m.OpTypeArray(tU32, sc.c32(Math.ceil(ldsCap / 4) + 2))), 'Workgroup') : undefined;
  const xVar = lds || (permutes && !viaSubgroup) ? m.OpVariable(m.OpTypePointer('Workgroup', m.OpTypeArray(tU32, sc.c32(8 * ws))), 'Workgroup') : undefined;

  const main = m.OpFunction(tVoid, 'None', m.OpTypeFunction(tVoid));
  m.OpEntryPoint('GLCompute', main, 'main', pcVar, gLocal, gGroup, shVar, ...(balVar !== undefined ? [balVar] : []), ...(addrVar !== undefined ? [addrVar] : []), ...(atomicVars !== undefined ? [atomicVars.data, atomicVars.cmp, atomicVars.old] : []),
    ...(ldsVar !== undefined ? [ldsVar] : []), ...(xVar !== undefined ? [xVar] : []));
  m.OpExecutionMode(main, 'LocalSize', ws, 1, 1);
  if (rounding) for (const w of rounding.widths) m.OpExecutionMode(main, rounding.mode, w);
  for (const w of denormPreserve?.widths ?? []) m.OpExecutionMode(main, 'DenormPreserve', w);
  if (signedZeroInfNanPreserve) m.OpExecutionMode(main, 'SignedZeroInfNanPreserve', 32);
  if (float64) m.OpExecutionMode(main, 'SignedZeroInfNanPreserve', 64);
  m.OpName(main, 'main');
  m.OpLabel();

  // --- the launch geometry (in the entry block: it dominates everything) ---
  const pc64 = (off: number) => m.OpLoad(tU64, m.OpAccessChain(pcPtr64, pcVar, sc.c32(off === PUSH.imagePtr ? 14 : off === PUSH.scratchPtr ? 13 : [0, 8, 16].indexOf(off))));
  const pc32 = (off: number) => m.OpLoad(tU32, m.OpAccessChain(pcPtr32, pcVar, sc.c32(3 + (off - 24) / 4)));
  const kernargPtr = pc64(PUSH.kernargPtr), dispatchPtr = pc64(PUSH.dispatchPtr), sinkPtr = pc64(PUSH.sinkPtr);
  const scratchPtr = scratch ? pc64(PUSH.scratchPtr) : sc.c64(0n);
  const imagePtr = image ? pc64(PUSH.imagePtr) : sc.c64(0n);
  const grid = [0, 1, 2].map((k) => pc32(PUSH.grid + 4 * k));
  const blk = [0, 1, 2].map((k) => pc32(PUSH.block + 4 * k));
  const wavesPerGroup = pc32(PUSH.wavesPerGroup), groupsX = pc32(PUSH.groupsX), groupsY = pc32(PUSH.groupsY), vkGroupsX = pc32(PUSH.vkGroupsX);
  // The dispatch's scratch bytes (every wave's region; a raw shader's ring, src/interp/scratch.ts): in u64.
  const toU64 = (x: Id) => m.OpUConvert(tU64, x);
  const scratchRingBytes = ringBytes
    ? [0, 1, 2].reduce((n, k) => m.OpIMul(tU64, n, toU64(m.OpUDiv(tU32, m.OpISub(tU32, m.OpIAdd(tU32, grid[k] as Id, blk[k] as Id), sc.c32(1)), blk[k] as Id))), m.OpIMul(tU64, toU64(wavesPerGroup), sc.c64(BigInt(waveBytes))))
    : sc.c64(0n);
  const lid = m.OpLoad(tV3, gLocal), wid = m.OpLoad(tV3, gGroup);
  const lane = m.OpCompositeExtract(tU32, lid, 0);
  const vg = m.OpIAdd(tU32, m.OpCompositeExtract(tU32, wid, 0), m.OpIMul(tU32, m.OpCompositeExtract(tU32, wid, 1), vkGroupsX));
  // The RDNA workgroup: the Vulkan one (workgroup layout), or the one its wave belongs to.
  const hsaLinear = perWorkgroup ? vg : m.OpUDiv(tU32, vg, wavesPerGroup);
  const gx = m.OpUMod(tU32, hsaLinear, groupsX);
  const gyz = m.OpUDiv(tU32, hsaLinear, groupsX);
  const gy = m.OpUMod(tU32, gyz, groupsY), gz = m.OpUDiv(tU32, gyz, groupsY);
  const b0 = blk[0] as Id, b1 = blk[1] as Id, b2 = blk[2] as Id;
  const bxy = m.OpIMul(tU32, b0, b1);
  // A dispatch of more Vulkan workgroups than one row holds (vkGroupsX) fills its last row only in
  // part: the workgroups past its end have no RDNA workgroup (gz past the grid's) and end here, so
  // that none runs the program (scratch zeroing, lanes the program enables itself). The branch is
  // the same for the whole Vulkan workgroup.
  {
    const exists = m.OpULessThan(tBool, m.OpIMul(tU32, gz, b2), grid[2] as Id);
    const go = m.allocateId(), gone = m.allocateId();
    m.OpSelectionMerge(go, 'None');
    m.OpBranchConditional(exists, go, gone);
    m.label(gone);
    m.OpReturn();
    m.label(go);
  }
  // The wave's items (a wave per Vulkan workgroup; the workgroup layout sets them for each turn).
  const waveInGroup = perWorkgroup ? undefined : m.OpUMod(tU32, vg, wavesPerGroup);
  const launch: Launch = { ws, scratch, waveBytes, lane, gx, gy, gz, grid, b0, b1, b2, bxy, hsaLinear, wavesPerGroup, scratchPtr };
  const items = waveInGroup === undefined ? undefined : waveItems(sc, launch, waveInGroup);
  // Scratch starts zeroed, as the interpreter's (the buffer is reused by a sequence's dispatches):
  // each lane zeroes its own dwords (the interleaved column) of the regions of `count` waves from the workgroup's `first`.
  const zeroScratch = (first: Id, count: Id) => {
    const perLane = waveBytes / (4 * ws);
    const total = m.OpIMul(tU32, count, sc.c32(perLane));
    const start = m.OpIAdd(tU32, m.OpIMul(tU32, hsaLinear, wavesPerGroup), first);
    countedLoop(sc, sc.c32(0), total, 1, (t) => {
      const w = m.OpIAdd(tU32, start, m.OpUDiv(tU32, t, sc.c32(perLane)));
      const at = m.OpIAdd(tU32, m.OpIMul(tU32, m.OpUMod(tU32, t, sc.c32(perLane)), sc.c32(4 * ws)), m.OpIMul(tU32, lane, sc.c32(4)));
      const a = m.OpIAdd(tU64, scratchPtr, m.OpIAdd(tU64, m.OpIMul(tU64, m.OpUConvert(tU64, w), sc.c64(BigInt(waveBytes))), m.OpUConvert(tU64, at)));
      m.OpStore(m.OpConvertUToPtr(psbU32, a), sc.c32(0), 'Aligned', 4);
      return [];
    });
  };
  if (scratch) {
    if (waveInGroup !== undefined) zeroScratch(waveInGroup, sc.c32(1));
    else zeroScratch(sc.c32(0), wavesPerGroup);
  }
  return {
    template: m, tVoid, tBool, tU32, tU64, tF32, tV2U32, helperFns, shVar, shPtr, balVar, tV4U32, psbU32, tU8, psbU8, psbU64, addrVar, atomicVars, shPtr64, ldsVar, xVar,
    kernargPtr, dispatchPtr, sinkPtr, scratchPtr, imagePtr, wavesPerGroup, scratchRingBytes, lane, gx, gy, gz, launch, items,
  };
}
type Prologue = ReturnType<typeof emitPrologue>;
/**
 * The entry point's state for the emitters (KernelState) and the lane exchanges' code: one object
 * per kernel, its values fields and its steps methods (made as an object literal of some fifteen
 * methods and as many closures, they were most of what a small kernel's emission allocated). The
 * wave's values are data fields, set from its items (the workgroup layout sets them at the start
 * of each turn: emitSpirv); before a turn they are NO_TURN, which no module owns (an instruction
 * using it is a BuilderError). Getters for them cost about 1.5 µs a kernel.
 */
class Kernel implements KernelState {
  readonly waveSize: 32 | 64;
  readonly lane: Id;
  readonly groupIds: readonly Id[];
  localIds: readonly Id[];
  inGrid: Id;
  waveInGroup: Id;
  readonly wavesInGroup: Id;
  scratchBase: Id;
  readonly scratchRing: Id;
  readonly scratchRingBytes: Id;
  readonly kernargPtr: Id;
  readonly imagePtr: Id;
  readonly dispatchPtr: Id;
  readonly sinkPtr: Id;
  readonly psbU32: Id;
  readonly helperFns: readonly Id[];
  readonly tU8: Id;
  readonly faultSites: FaultSite[] = [];
  /** The LDS functions (emitted after main). */
  readonly ldsFns: { readonly get: Id; readonly put: Id } | undefined;
  /** The byte-by-byte dword load and store (functions emitted after main, once, when used). */
  bytewiseFns: { load: Id; store: Id } | undefined;
  /** The guarded calls' functions (emitted after main, one per helper pair used: emitGuardedFn), by fast · helpers + exact helper index; made at the first. */
  guardedFns: Map<number, GuardedFn> | undefined;
  // The emitter's own lane-dependent branches and loops (a fault's store, the DS ops' lane 0, the
  // byte stores' scan of the higher lanes, the atomics' leaders) hold no barrier and no subgroup
  // operation: `divergent` counts how deep in them the emission is, and either there is an
  // internal error. Everywhere else the flow is the IR's, wave-uniform (the header).
  private divergent = 0;
  // ExchangeLds2x64's second results (the old values at address1), by its first result's id.
  // Made at the first ExchangeLds2x64 (few kernels have one).
  private exchangeSeconds: Map<Id, Id> | undefined;
  private readonly m: Module;
  private readonly tVoid: Id;
  private readonly tBool: Id;
  private readonly tU32: Id;
  private readonly tU64: Id;
  private readonly tV2U32: Id;
  private readonly shVar: Id;
  private readonly shPtr: Id;
  private readonly balVar: Id | undefined;
  private readonly tV4U32: Id | undefined;
  /** The prologue's 8-bit type (undefined without 8-bit storage; `tU8` is then a placeholder). */
  private readonly u8: Id | undefined;
  private readonly psbU8: Id | undefined;
  private readonly psbU64: Id | undefined;
  private readonly addrVar: Id | undefined;
  private readonly atomicVars: Prologue['atomicVars'];
  private readonly shPtr64: Id | undefined;
  private readonly ldsVar: Id | undefined;
  private readonly xVar: Id | undefined;
  /** The subgroup path (laneExchange 'subgroup'): the workgroup is one full subgroup, invocation i lane i. */
  private readonly subgroupScope: Id;
  /** This lane's first slot of the DS ops' exchange (lane l's k-th dword at 8l + k). */
  private readonly myBase: Id;

  constructor(private readonly sc: Scalars, p: Prologue, private readonly ws: 32 | 64, private readonly profile: TargetProfile, private readonly viaSubgroup: boolean, private readonly lds: boolean) {
    const m = sc.m;
    this.m = m;
    this.tVoid = p.tVoid;
    this.tBool = p.tBool;
    this.tU32 = p.tU32;
    this.tU64 = p.tU64;
    this.tV2U32 = p.tV2U32;
    // The prologue's pointer type for the DS ops' exchange slots too (the same id OpTypePointer
    // would find: types are deduplicated), not looked up again through the general encoder.
    this.shVar = p.shVar;
    this.shPtr = p.shPtr;
    this.balVar = p.balVar;
    this.tV4U32 = p.tV4U32;
    this.u8 = p.tU8;
    this.psbU8 = p.psbU8;
    this.psbU64 = p.psbU64;
    this.addrVar = p.addrVar;
    this.atomicVars = p.atomicVars;
    this.shPtr64 = p.shPtr64;
    this.ldsVar = p.ldsVar;
    this.xVar = p.xVar;
    this.waveSize = ws;
    this.lane = p.lane;
    this.groupIds = [p.gx, p.gy, p.gz];
    this.kernargPtr = p.kernargPtr;
    this.imagePtr = p.imagePtr;
    this.dispatchPtr = p.dispatchPtr;
    this.sinkPtr = p.sinkPtr;
    this.psbU32 = p.psbU32;
    this.helperFns = p.helperFns;
    // The wave's items: the prologue's (a wave per Vulkan workgroup), or none before a turn of the workgroup layout.
    const items = p.items;
    this.localIds = items?.localIds ?? [NO_TURN, NO_TURN, NO_TURN];
    this.inGrid = items?.inGrid ?? NO_TURN;
    this.waveInGroup = items?.wave ?? NO_TURN;
    this.wavesInGroup = p.wavesPerGroup;
    this.scratchBase = items?.scratchBase ?? NO_TURN;
    this.scratchRing = p.scratchPtr;
    this.scratchRingBytes = p.scratchRingBytes;
    // In this order (each may make a constant or an instruction: the ids follow it).
    this.subgroupScope = sc.c32(3);
    this.myBase = p.xVar !== undefined ? m.OpIMul(p.tU32, p.lane, sc.c32(8)) : sc.c32(0);
    this.ldsFns = p.ldsVar !== undefined ? { get: m.allocateId(), put: m.allocateId() } : undefined;
    this.tU8 = p.tU8 ?? sc.c32(0);
  }

  /** The Function-storage pointer type to `t`. */
  fnPtr(t: Id): Id {
    const { m } = this;
    return m.OpTypePointer('Function', t);
  }
  private uniformOnly(what: string): void {
    if (this.divergent > 0) throw new CompileError(`internal: ${what} inside a lane-dependent branch of the emitter, out of uniform control flow`);
  }
  /** A workgroup barrier (in uniform control flow only). */
  barrier(): void {
    const { m, sc } = this;
    this.uniformOnly('a barrier');
    m.OpControlBarrier(sc.c32(2), sc.c32(2), sc.c32(0x108));
  }
  private shuffle(v: Id, from: Id): Id {
    const { m, tU32, subgroupScope } = this;
    this.uniformOnly('a subgroup shuffle');
    return m.OpGroupNonUniformShuffle(tU32, subgroupScope, v, from);
  }
  private xSlot(base: Id, k: number): Id {
    const { m, sc, tU32, shPtr, xVar } = this;
    if (xVar === undefined) throw new CompileError('internal: a DS lane exchange without its slots');
    return m.OpAccessChain(shPtr, xVar, k === 0 ? base : m.OpIAdd(tU32, base, sc.c32(k)));
  }
  private X(base: Id, k: number): Id {
    const { m, tU32 } = this;
    return m.OpLoad(tU32, this.xSlot(base, k));
  }
  private publish(k: number, v: Id): void {
    const { m, myBase } = this;
    m.OpStore(this.xSlot(myBase, k), v);
  }
  private ldsGet(a: Id, off: number, n: number): Id {
    const { m, sc, tU32, ldsFns } = this;
    if (!ldsFns) throw new CompileError('internal: an LDS access without the LDS');
    return m.OpFunctionCall(tU32, ldsFns.get, a, sc.c32(off), sc.c32(n));
  }
  private ldsPut(a: Id, off: number, n: number, v: Id): void {
    const { m, sc, tVoid, ldsFns } = this;
    if (!ldsFns) throw new CompileError('internal: an LDS access without the LDS');
    m.OpFunctionCall(tVoid, ldsFns.put, a, sc.c32(off), sc.c32(n), v);
  }
  private pack(lo: Id, hi: Id): Id {
    const { m, tU64, tV2U32 } = this;
    return m.OpBitcast(tU64, m.OpCompositeConstruct(tV2U32, lo, hi));
  }
  private half(v: Id, k: 0 | 1): Id {
    const { m, tU32, tV2U32 } = this;
    return m.OpCompositeExtract(tU32, m.OpBitcast(tV2U32, v), k);
  }
  // The interpreter's order for one DS instruction: lane 0 does every active lane's part in
  // ascending lane order, between barriers, from the slots the lanes published (the workgroup
  // runs one wave at a time, so the LDS holds no other wave's accesses meanwhile). DontUnroll as
  // for the atomics.
  private serialLanes(body: (base: Id) => void): void {
    const { m, sc, ws, tBool, tU32, lane } = this;
    this.barrier();
    const go = m.allocateId(), skip = m.allocateId();
    const first = m.OpIEqual(tBool, lane, sc.c32(0));
    m.OpSelectionMerge(skip, 'None');
    m.OpBranchConditional(first, go, skip);
    m.label(go);
    this.divergent++;
    countedLoop(sc, sc.c32(0), sc.c32(ws), 1, (j) => {
      const base = m.OpIMul(tU32, j, sc.c32(8));
      const doIt = m.allocateId(), after = m.allocateId();
      const on = m.OpINotEqual(tBool, this.X(base, 0), sc.c32(0));
      m.OpSelectionMerge(after, 'None');
      m.OpBranchConditional(on, doIt, after);
      m.label(doIt);
      body(base);
      m.OpBranch(after);
      m.label(after);
      return [];
    });
    this.divergent--;
    m.OpBranch(skip);
    m.label(skip);
    this.barrier();
  }
  guardedFn(i: Inst): Id {
    const fast = Number(i.imms[0]), exact = Number(i.imms[1]), n = this.helperFns.length;
    if (!(fast >= 0 && fast < n && exact >= 0 && exact < n)) throw new CompileError(`a guarded call of missing helpers ${fast}, ${exact}`, i.pc);
    const key = fast * n + exact;
    const fns = this.guardedFns ??= new Map();
    let f = fns.get(key);
    if (!f) { f = { fast, exact, id: this.m.allocateId() }; fns.set(key, f); }
    return f.id;
  }
  private bytewise(): { load: Id; store: Id } {
    const { m } = this;
    return this.bytewiseFns ??= { load: m.allocateId(), store: m.allocateId() };
  }
  // A dword access's lanes: those at aligned addresses (`whole`), and those that go byte by byte
  // (`split`; undefined without 8-bit storage, where they fault instead).
  private alignment(active: Id, a: Id, pc: number | undefined): { whole: Id; split: Id | undefined } {
    const { m, sc, profile, tBool, tU32, tV2U32, psbU8 } = this;
    // A device measured to do them exactly (the profile's unalignedDwordAccess) takes every dword access as it is.
    if (profile.unalignedDwordAccess) return { whole: active, split: undefined };
    const lo = m.OpCompositeExtract(tU32, m.OpBitcast(tV2U32, a), 0);
    const mis = m.OpINotEqual(tBool, m.OpBitwiseAnd(tU32, lo, sc.c32(3)), sc.c32(0));
    const whole = m.OpLogicalAnd(tBool, active, m.OpLogicalNot(tBool, mis));
    const split = m.OpLogicalAnd(tBool, active, mis);
    if (psbU8 !== undefined) return { whole, split };
    if (pc === undefined) throw new CompileError('a dword access that may be misaligned, without a pc for its fault (internal)');
    this.fault(split, FAULT_UNALIGNED_DWORD, pc);
    return { whole, split: undefined };
  }
  // The atomics' lane order on the subgroup path: as below (each address's lowest active lane does
  // that address's atomics in ascending lane order), the lanes' addresses, data and compares taken
  // by shuffles in a uniform loop over the lanes; in iteration j, lane j's leader alone does lane
  // j's atomic, and lane j takes its old value from it (the leader found by a ballot).
  private subgroupAtomic(active: Id, a: Id, n: 4 | 8, data: Id, cmp: Id | undefined, body: (ptr: Id, data: Id, cmp: Id | undefined) => Id): Id {
    const { m, sc, ws, tBool, tU32, tU64, tV4U32, psbU64, subgroupScope, lane, psbU32 } = this;
    const ptrType = n === 8 ? psbU64 : psbU32;
    if (ptrType === undefined || tV4U32 === undefined) throw new CompileError('internal: a 64-bit atomic without its pointer type');
    const t = n === 8 ? tU64 : tU32;
    const zero = n === 8 ? sc.c64(0n) : sc.c32(0);
    const parts = (v: Id) => (n === 8 ? [this.half(v, 0), this.half(v, 1)] : [v]);
    const from = (p: readonly Id[], j: Id) => (p.length === 2 ? this.pack(this.shuffle(p[0] as Id, j), this.shuffle(p[1] as Id, j)) : this.shuffle(p[0] as Id, j));
    const act = m.OpSelect(tU32, active, sc.c32(1), sc.c32(0));
    const aParts = [this.half(a, 0), this.half(a, 1)], dParts = parts(data), cParts = cmp !== undefined ? parts(cmp) : undefined;
    // With device memory semantics: an earlier instruction's atomics (by other leaders) come first.
    this.uniformOnly('a barrier');
    m.OpControlBarrier(sc.c32(2), sc.c32(2), sc.c32(0x148));
    const [, old] = countedLoop(sc, sc.c32(0), sc.c32(ws), 1, (j, [lead, prev]) => {
      const same = m.OpLogicalAnd(tBool, m.OpINotEqual(tBool, this.shuffle(act, j), sc.c32(0)), m.OpIEqual(tBool, from(aParts, j), a));
      const below = m.OpULessThan(tBool, j, lane);
      // Below this lane: an active lane on the same address leads instead. From this lane up: the leader's work.
      const leadN = m.OpLogicalAnd(tBool, lead as Id, m.OpLogicalNot(tBool, m.OpLogicalAnd(tBool, below, same)));
      const mine = m.OpLogicalAnd(tBool, m.OpLogicalAnd(tBool, m.OpLogicalNot(tBool, below), leadN), same);
      const dj = from(dParts, j), cj = cParts !== undefined ? from(cParts, j) : undefined;
      const here = m.currentLabel, go = m.allocateId(), skip = m.allocateId();
      if (here === undefined) throw new CompileError('internal: an atomic outside a block');
      m.OpSelectionMerge(skip, 'None');
      m.OpBranchConditional(mine, go, skip);
      m.label(go);
      this.divergent++;
      const r = body(m.OpConvertUToPtr(ptrType, a), dj, cj);
      this.divergent--;
      const done = m.currentLabel as Id;
      m.OpBranch(skip);
      m.label(skip);
      const got = m.OpPhi(t, r, done, zero, here);
      this.uniformOnly('a subgroup ballot');
      const leader = m.OpGroupNonUniformBallotFindLSB(tU32, subgroupScope, m.OpGroupNonUniformBallot(tV4U32, subgroupScope, mine));
      // No leader when lane j is off in EXEC (its value is dropped below): any lane will do.
      const src = m.OpSelect(tU32, m.OpULessThan(tBool, leader, sc.c32(ws)), leader, sc.c32(0));
      return [leadN, m.OpSelect(t, m.OpIEqual(tBool, j, lane), from(parts(got), src), prev as Id)];
    }, [{ type: tBool, value: active }, { type: t, value: zero }]);
    return m.OpSelect(t, active, old as Id, zero);
  }
  bytePointer(a: Id): Id {
    const { m, psbU8 } = this;
    if (psbU8 === undefined) throw new CompileError('internal: a byte access without 8-bit storage');
    return m.OpConvertUToPtr(psbU8, a);
  }
  // Where the condition holds: the fault word goes from 0 to this site's number (first wins).
  fault(cond: Id, kind: number, pc: number): void {
    const { m, sc, tU32, tU64, sinkPtr, psbU32 } = this;
    this.faultSites.push({ pc, kind });
    const yes = m.allocateId(), done = m.allocateId();
    m.OpSelectionMerge(done, 'None');
    m.OpBranchConditional(cond, yes, done);
    m.label(yes);
    this.divergent++;
    const word = m.OpConvertUToPtr(psbU32, m.OpIAdd(tU64, sinkPtr, sc.c64(BigInt(SINK.fault))));
    m.OpAtomicCompareExchange(tU32, word, sc.c32(1), sc.c32(0), sc.c32(0), sc.c32(this.faultSites.length), sc.c32(0));
    this.divergent--;
    m.OpBranch(done);
    m.label(done);
  }
  // The interpreter's order for one store instruction: of several lanes writing a byte, the
  // highest active lane's value stays. Each lane publishes (address, EXEC bit), then looks at
  // every higher lane: byte k is this lane's to write unless a higher active lane's n-byte store
  // covers it ((a + k - a_j) mod 2^64 < n).
  storeWinners(active: Id, a: Id, n: number): Id[] {
    const { m, sc, ws, viaSubgroup, tBool, tU32, tU64, shVar, shPtr, addrVar, shPtr64, lane } = this;
    // Subgroups: every lane scans every lane (a uniform loop), counting only those above it.
    if (viaSubgroup) {
      const aLo = this.half(a, 0), aHi = this.half(a, 1), act = m.OpSelect(tU32, active, sc.c32(1), sc.c32(0));
      const covered = countedLoop(sc, sc.c32(0), sc.c32(ws), 1, (j, cov) => {
        const aj = this.pack(this.shuffle(aLo, j), this.shuffle(aHi, j));
        const counts = m.OpLogicalAnd(tBool, m.OpINotEqual(tBool, this.shuffle(act, j), sc.c32(0)), m.OpUGreaterThan(tBool, j, lane));
        return cov.map((c, k) => {
          const d = m.OpISub(tU64, k === 0 ? a : m.OpIAdd(tU64, a, sc.c64(BigInt(k))), aj);
          return m.OpLogicalOr(tBool, c, m.OpLogicalAnd(tBool, counts, m.OpULessThan(tBool, d, sc.c64(BigInt(n)))));
        });
      }, Array.from({ length: n }, () => ({ type: tBool, value: sc.cBool(false) })));
      return covered.map((c) => m.OpLogicalAnd(tBool, active, m.OpLogicalNot(tBool, c)));
    }
    if (addrVar === undefined || shPtr64 === undefined) throw new CompileError('internal: a byte store without the address exchange');
    m.OpStore(m.OpAccessChain(shPtr64, addrVar, lane), a);
    m.OpStore(m.OpAccessChain(shPtr, shVar, lane), m.OpSelect(tU32, active, sc.c32(1), sc.c32(0)));
    this.barrier();
    const jv = m.OpVariable(this.fnPtr(tU32), 'Function');
    const cov = Array.from({ length: n }, () => m.OpVariable(this.fnPtr(tBool), 'Function'));
    m.OpStore(jv, m.OpIAdd(tU32, lane, sc.c32(1)));
    for (const c of cov) m.OpStore(c, sc.cBool(false));
    const hdr = m.allocateId(), body = m.allocateId(), next = m.allocateId(), done = m.allocateId();
    m.OpBranch(hdr);
    m.label(hdr);
    const j = m.OpLoad(tU32, jv);
    const more = m.OpULessThan(tBool, j, sc.c32(ws));
    m.OpLoopMerge(done, next, 'None');
    m.OpBranchConditional(more, body, done);
    m.label(body);
    this.divergent++;
    const aj = m.OpLoad(tU64, m.OpAccessChain(shPtr64, addrVar, j));
    const actj = m.OpINotEqual(tBool, m.OpLoad(tU32, m.OpAccessChain(shPtr, shVar, j)), sc.c32(0));
    cov.forEach((c, k) => {
      const d = m.OpISub(tU64, k === 0 ? a : m.OpIAdd(tU64, a, sc.c64(BigInt(k))), aj);
      m.OpStore(c, m.OpLogicalOr(tBool, m.OpLoad(tBool, c), m.OpLogicalAnd(tBool, actj, m.OpULessThan(tBool, d, sc.c64(BigInt(n))))));
    });
    m.OpBranch(next);
    m.label(next);
    m.OpStore(jv, m.OpIAdd(tU32, j, sc.c32(1)));
    this.divergent--;
    m.OpBranch(hdr);
    m.label(done);
    const mine = cov.map((c) => m.OpLogicalAnd(tBool, active, m.OpLogicalNot(tBool, m.OpLoad(tBool, c))));
    this.barrier();
    return mine;
  }
  // A ballot: every lane clears the word, ORs in its bit (atomically), and reads the word back;
  // barriers between the steps (all lanes of the workgroup = the wave take part: uniform flow).
  ballot(bit: Id, hi: boolean): Id {
    const { m, sc, ws, viaSubgroup, tBool, tU32, shPtr, balVar, tV4U32, subgroupScope, lane } = this;
    if (hi && ws === 32) return sc.c32(0);
    if (viaSubgroup && tV4U32 !== undefined) {
      this.uniformOnly('a subgroup ballot');
      return m.OpCompositeExtract(tU32, m.OpGroupNonUniformBallot(tV4U32, subgroupScope, bit), hi ? 1 : 0);
    }
    if (balVar === undefined) throw new CompileError('internal: a workgroup-memory ballot without its words');
    const word = m.OpAccessChain(shPtr, balVar, sc.c32(hi ? 1 : 0));
    const scope = sc.c32(2), none = sc.c32(0);
    m.OpAtomicStore(word, scope, none, sc.c32(0));
    this.barrier();
    const mine = hi ? m.OpUGreaterThanEqual(tBool, lane, sc.c32(32)) : m.OpULessThan(tBool, lane, sc.c32(32));
    const shifted = m.OpShiftLeftLogical(tU32, sc.c32(1), m.OpBitwiseAnd(tU32, lane, sc.c32(31)));
    m.OpAtomicOr(tU32, word, scope, none, m.OpSelect(tU32, m.OpLogicalAnd(tBool, bit, mine), shifted, sc.c32(0)));
    this.barrier();
    const r = m.OpAtomicLoad(tU32, word, scope, none);
    this.barrier();
    return r;
  }
  // Through one dword per lane of workgroup memory, between barriers.
  readLane(v: Id, which: Id): Id {
    const { m, viaSubgroup, tU32, shVar, shPtr, lane } = this;
    if (viaSubgroup) return this.shuffle(v, which);
    m.OpStore(m.OpAccessChain(shPtr, shVar, lane), v);
    this.barrier();
    const r = m.OpLoad(tU32, m.OpAccessChain(shPtr, shVar, which));
    this.barrier();
    return r;
  }
  // The interpreter's order for one atomic instruction: lanes in ascending order. Each lane
  // publishes its address, EXEC bit, data and compare; the lowest active lane of each address
  // (its leader) then does the atomics of every active lane on that address, in ascending lane
  // order, and leaves each one's old value in that lane's slot; after a barrier every lane takes
  // its own. Lanes on distinct addresses are their own leaders. The lane loop is DontUnroll:
  // lavapipe unrolled its constant trip count, and 16 atomics took 37 s to compile.
  atomic(active: Id, a: Id, n: 4 | 8, data: Id, cmp: Id | undefined, body: (ptr: Id, data: Id, cmp: Id | undefined) => Id): Id {
    const { m, sc, ws, viaSubgroup, tBool, tU32, tU64, shVar, shPtr, psbU64, addrVar, atomicVars, shPtr64, lane, psbU32 } = this;
    if (viaSubgroup) return this.subgroupAtomic(active, a, n, data, cmp, body);
    if (addrVar === undefined || shPtr64 === undefined || atomicVars === undefined) throw new CompileError('internal: an atomic without the lane exchange');
    const ptrType = n === 8 ? psbU64 : psbU32;
    if (ptrType === undefined) throw new CompileError('internal: a 64-bit atomic without its pointer type');
    const t = n === 8 ? tU64 : tU32;
    const wide = (x: Id) => (n === 8 ? x : m.OpUConvert(tU64, x));
    const narrow = (x: Id) => (n === 8 ? x : m.OpUConvert(tU32, x));
    const slot = (v: Id, k: Id) => m.OpAccessChain(shPtr64, v, k);
    m.OpStore(slot(addrVar, lane), a);
    m.OpStore(m.OpAccessChain(shPtr, shVar, lane), m.OpSelect(tU32, active, sc.c32(1), sc.c32(0)));
    m.OpStore(slot(atomicVars.data, lane), wide(data));
    if (cmp !== undefined) m.OpStore(slot(atomicVars.cmp, lane), wide(cmp));
    // With device memory semantics too: an earlier instruction's atomics (by other leaders) come first.
    m.OpControlBarrier(sc.c32(2), sc.c32(2), sc.c32(0x148));
    const pre = m.allocateId(), hdr = m.allocateId(), body0 = m.allocateId(), next = m.allocateId(), done = m.allocateId(), go = m.allocateId(), skip = m.allocateId();
    const jn = m.allocateId(), leadN = m.allocateId();
    m.OpBranch(pre);
    m.label(pre);
    m.OpBranch(hdr);
    m.label(hdr);
    const j = m.OpPhi(tU32, sc.c32(0), pre, jn, next);
    const lead = m.OpPhi(tBool, active, pre, leadN, next);
    const more = m.OpULessThan(tBool, j, sc.c32(ws));
    m.OpLoopMerge(done, next, 'DontUnroll');
    m.OpBranchConditional(more, body0, done);
    m.label(body0);
    const same = m.OpLogicalAnd(tBool, m.OpINotEqual(tBool, m.OpLoad(tU32, m.OpAccessChain(shPtr, shVar, j)), sc.c32(0)), m.OpIEqual(tBool, m.OpLoad(tU64, slot(addrVar, j)), a));
    const below = m.OpULessThan(tBool, j, lane);
    // Below this lane: an active lane on the same address leads instead. From this lane up: the leader's work.
    m.emit('OpLogicalAnd', [tBool, lead, m.OpLogicalNot(tBool, m.OpLogicalAnd(tBool, below, same))], leadN);
    const mine = m.OpLogicalAnd(tBool, m.OpLogicalAnd(tBool, m.OpLogicalNot(tBool, below), leadN), same);
    m.OpSelectionMerge(skip, 'None');
    m.OpBranchConditional(mine, go, skip);
    m.label(go);
    this.divergent++;
    const dj = narrow(m.OpLoad(tU64, slot(atomicVars.data, j)));
    const cj = cmp !== undefined ? narrow(m.OpLoad(tU64, slot(atomicVars.cmp, j))) : undefined;
    m.OpStore(slot(atomicVars.old, j), wide(body(m.OpConvertUToPtr(ptrType, a), dj, cj)));
    this.divergent--;
    m.OpBranch(skip);
    m.label(skip);
    m.OpBranch(next);
    m.label(next);
    m.emit('OpIAdd', [tU32, j, sc.c32(1)], jn);
    m.OpBranch(hdr);
    m.label(done);
    this.barrier();
    // No barrier after this read: the next exchange writes only this lane's own slots before its
    // first barrier, and the leaders write other lanes' slots only after it.
    return m.OpSelect(t, active, narrow(m.OpLoad(tU64, slot(atomicVars.old, lane))), n === 8 ? sc.c64(0n) : sc.c32(0));
  }
  // Branch-free (a selection per access made the 1,600 stores of a large kernel twice the code and
  // lavapipe's first compile of it more than a minute): every lane does both the dword access and
  // the byte-by-byte one, each at its address or at the sink.
  load32(active: Id, a: Id, pc: number | undefined): Id {
    const { m, sc, tU32, tU64, u8: tU8, psbU8, sinkPtr, psbU32 } = this;
    const { whole, split } = this.alignment(active, a, pc);
    const v = m.OpLoad(tU32, m.OpConvertUToPtr(psbU32, m.OpSelect(tU64, whole, a, sinkPtr)), 'Aligned', 4);
    if (split === undefined || psbU8 === undefined || tU8 === undefined) return m.OpSelect(tU32, whole, v, sc.c32(0));
    const bytes = m.OpFunctionCall(tU32, this.bytewise().load, m.OpSelect(tU64, split, a, sinkPtr));
    return m.OpSelect(tU32, whole, v, m.OpSelect(tU32, split, bytes, sc.c32(0)));
  }
  store32(active: Id, a: Id, v: Id, pc: number | undefined): void {
    const { m, tVoid, tU64, u8: tU8, psbU8, sinkPtr, psbU32 } = this;
    const { whole, split } = this.alignment(active, a, pc);
    m.OpStore(m.OpConvertUToPtr(psbU32, m.OpSelect(tU64, whole, a, sinkPtr)), v, 'Aligned', 4);
    if (split === undefined || psbU8 === undefined || tU8 === undefined) return;
    m.OpFunctionCall(tVoid, this.bytewise().store, m.OpSelect(tU64, split, a, sinkPtr), v);
  }
  // Every lane reads in parallel (a DS load writes nothing); an inactive lane asks for an address outside any LDS.
  ldsLoad(active: Id, a: Id, n: number, off: number): Id {
    const { m, sc, lds, tU32 } = this;
    if (!lds) return sc.c32(0);
    return this.ldsGet(m.OpSelect(tU32, active, a, sc.c32(0xffffffff)), off, n);
  }
  ldsStore(active: Id, a0: Id, a1: Id, data: readonly Id[], n: number, two: boolean): void {
    const { m, sc, lds, tU32 } = this;
    if (!lds) return;
    this.publish(0, m.OpSelect(tU32, active, sc.c32(1), sc.c32(0)));
    this.publish(1, a0);
    this.publish(2, a1);
    data.forEach((d, k) => this.publish(3 + k, d));
    this.serialLanes((base) => {
      const A0 = this.X(base, 1);
      if (n < 4) { this.ldsPut(A0, 0, n, this.X(base, 3)); return; }
      const per = n / 4;
      for (let k = 0; k < per; k++) this.ldsPut(A0, 4 * k, 4, this.X(base, 3 + k));
      if (two) {
        const A1 = this.X(base, 2);
        for (let k = 0; k < per; k++) this.ldsPut(A1, 4 * k, 4, this.X(base, 3 + per + k));
      }
    });
  }
  // Slots: 0 active, 1 the address, 2..3 data0 (src2: 2 the address of the data), 4..5 data1,
  // 6..7 the old value lane 0 leaves.
  ldsAtomic(kind: LdsRmw | { readonly helper: Id }, active: Id, a: Id, d0: Id, d1: Id, flags: number): Id {
    const { m, sc, lds, tU32, tU64, myBase } = this;
    if (!lds) return sc.c64(0n);
    const wide = (flags & LDS_ATOMIC_WIDE) !== 0, src2 = (flags & LDS_ATOMIC_SRC2) !== 0;
    this.publish(0, m.OpSelect(tU32, active, sc.c32(1), sc.c32(0)));
    this.publish(1, a);
    this.publish(2, this.half(d0, 0));
    this.publish(3, this.half(d0, 1));
    this.publish(4, this.half(d1, 0));
    this.publish(5, this.half(d1, 1));
    this.serialLanes((base) => {
      const A = this.X(base, 1);
      const lo = this.ldsGet(A, 0, 4), hi = wide ? this.ldsGet(A, 4, 4) : sc.c32(0);
      const t = wide ? tU64 : tU32;
      const old = wide ? this.pack(lo, hi) : lo;
      // src2: the data is the LDS value at B, read in this lane's turn.
      const B = src2 ? this.X(base, 2) : undefined;
      const d0lo = B !== undefined ? this.ldsGet(B, 0, 4) : this.X(base, 2);
      const d0hi = B !== undefined ? (wide ? this.ldsGet(B, 4, 4) : sc.c32(0)) : this.X(base, 3);
      const D0 = wide ? this.pack(d0lo, d0hi) : d0lo;
      const D1 = wide ? this.pack(this.X(base, 4), this.X(base, 5)) : this.X(base, 4);
      const nv = typeof kind === 'string' ? ldsRmwOp(sc, kind, t, old, D0, D1)
        : wide ? m.OpFunctionCall(tU64, kind.helper, old, D0, D1)
        : m.OpUConvert(tU32, m.OpFunctionCall(tU64, kind.helper, m.OpUConvert(tU64, old), this.pack(d0lo, d0hi), this.pack(this.X(base, 4), this.X(base, 5))));
      this.ldsPut(A, 0, 4, wide ? this.half(nv, 0) : nv);
      if (wide) this.ldsPut(A, 4, 4, this.half(nv, 1));
      m.OpStore(this.xSlot(base, 6), lo);
      m.OpStore(this.xSlot(base, 7), hi);
    });
    return m.OpSelect(tU64, active, this.pack(this.X(myBase, 6), this.X(myBase, 7)), sc.c64(0n));
  }
  ldsExchange2(active: Id, a0: Id, a1: Id, d0: Id, d1: Id): Id {
    const { m, sc, tU32, tU64, myBase } = this;
    this.publish(0, m.OpSelect(tU32, active, sc.c32(1), sc.c32(0)));
    this.publish(1, a0);
    this.publish(2, a1);
    this.publish(3, d0);
    this.publish(4, d1);
    this.serialLanes((base) => {
      const A0 = this.X(base, 1), A1 = this.X(base, 2);
      m.OpStore(this.xSlot(base, 6), this.ldsGet(A0, 0, 4));
      this.ldsPut(A0, 0, 4, this.X(base, 3));
      m.OpStore(this.xSlot(base, 7), this.ldsGet(A1, 0, 4));
      this.ldsPut(A1, 0, 4, this.X(base, 4));
    });
    return m.OpSelect(tU64, active, this.pack(this.X(myBase, 6), this.X(myBase, 7)), sc.c64(0n));
  }
  // Slots: 0 active, 1 and 2 the addresses, 3..6 the data dwords, which lane 0 replaces by the old ones.
  ldsExchange2x64(active: Id, a0: Id, a1: Id, d0: Id, d1: Id): Id {
    const { m, sc, tU32, tU64, myBase } = this;
    this.publish(0, m.OpSelect(tU32, active, sc.c32(1), sc.c32(0)));
    this.publish(1, a0);
    this.publish(2, a1);
    this.publish(3, this.half(d0, 0));
    this.publish(4, this.half(d0, 1));
    this.publish(5, this.half(d1, 0));
    this.publish(6, this.half(d1, 1));
    this.serialLanes((base) => {
      const A0 = this.X(base, 1), A1 = this.X(base, 2);
      const D = [this.X(base, 3), this.X(base, 4), this.X(base, 5), this.X(base, 6)];
      const o0 = this.ldsGet(A0, 0, 4), o1 = this.ldsGet(A0, 4, 4);
      this.ldsPut(A0, 0, 4, D[0] as Id);
      this.ldsPut(A0, 4, 4, D[1] as Id);
      const o2 = this.ldsGet(A1, 0, 4), o3 = this.ldsGet(A1, 4, 4);
      this.ldsPut(A1, 0, 4, D[2] as Id);
      this.ldsPut(A1, 4, 4, D[3] as Id);
      [o0, o1, o2, o3].forEach((o, k) => m.OpStore(this.xSlot(base, 3 + k), o));
    });
    const first = m.OpSelect(tU64, active, this.pack(this.X(myBase, 3), this.X(myBase, 4)), sc.c64(0n));
    (this.exchangeSeconds ??= new Map()).set(first, m.OpSelect(tU64, active, this.pack(this.X(myBase, 5), this.X(myBase, 6)), sc.c64(0n)));
    return first;
  }
  ldsExchange2Second(first: Id): Id {
    const r = this.exchangeSeconds?.get(first);
    if (r === undefined) throw new CompileError('internal: ExchangeLds2x64Second without its ExchangeLds2x64 in the same block');
    return r;
  }
  // Every lane scans the lanes in ascending order: the last active one that targets it wins.
  permute(active: Id, target: Id, v: Id): Id {
    const { m, sc, ws, viaSubgroup, tBool, tU32, lane } = this;
    if (viaSubgroup) {
      const act = m.OpSelect(tU32, active, sc.c32(1), sc.c32(0));
      const [r] = countedLoop(sc, sc.c32(0), sc.c32(ws), 1, (j, [last]) => {
        const hit = m.OpLogicalAnd(tBool, m.OpINotEqual(tBool, this.shuffle(act, j), sc.c32(0)), m.OpIEqual(tBool, this.shuffle(target, j), lane));
        return [m.OpSelect(tU32, hit, this.shuffle(v, j), last as Id)];
      }, [{ type: tU32, value: sc.c32(0) }]);
      return r as Id;
    }
    this.publish(0, m.OpSelect(tU32, active, sc.c32(1), sc.c32(0)));
    this.publish(1, target);
    this.publish(2, v);
    this.barrier();
    const [r] = countedLoop(sc, sc.c32(0), sc.c32(ws), 1, (j, [last]) => {
      const base = m.OpIMul(tU32, j, sc.c32(8));
      const hit = m.OpLogicalAnd(tBool, m.OpINotEqual(tBool, this.X(base, 0), sc.c32(0)), m.OpIEqual(tBool, this.X(base, 1), lane));
      return [m.OpSelect(tU32, hit, this.X(base, 2), last as Id)];
    }, [{ type: tU32, value: sc.c32(0) }]);
    this.barrier();
    return r as Id;
  }
}


/**
 * The prologue templates by their options: a tree of four levels, the numbers prologueKey makes of
 * the options (the flags, wave size and float controls packed in one; the LDS size; the wave's
 * scratch bytes; the helpers), the template at the node of the last. Looked up by numbers, no key
 * string built (a piece per option, concatenated, then hashed by the Map, was about a sixth of a
 * one-instruction kernel's emission), and the numbers made by straight-line code: a tree of a level
 * per part, each a closure reading its field by name, ran as eight closure calls and a dozen keyed
 * reads per kernel, unoptimised in bench:compile's regime (the code runs once per kernel). A few
 * sets in practice; bounded for a long-running process: past MAX_PROLOGUES the tree starts over (a
 * template made again is the same).
 */
class KeyNode<V> {
  readonly next = new Map<number, KeyNode<V>>();
  value: V | undefined;
}
let PROLOGUES = new KeyNode<Prologue>();
let prologueCount = 0;
const MAX_PROLOGUES = 64;
function prologue(o: PrologueOptions): Prologue {
  const first = prologueKey(o);
  let node = prologueNode(PROLOGUES, first, o);
  let p = node.value;
  if (!p) {
    if (prologueCount >= MAX_PROLOGUES) {
      PROLOGUES = new KeyNode<Prologue>();
      prologueCount = 0;
      node = prologueNode(PROLOGUES, first, o);
    }
    p = emitPrologue(o);
    node.value = p;
    prologueCount++;
  }
  return p;
}

/** The node of `o` (whose packed number is `first`) under `root`: a level down per number, the nodes not there yet made. */
function prologueNode(root: KeyNode<Prologue>, first: number, o: PrologueOptions): KeyNode<Prologue> {
  return child(child(child(child(root, first), o.ldsCap), o.waveBytes), o.helpers);
}
function child<V>(node: KeyNode<V>, n: number): KeyNode<V> {
  let next = node.next.get(n);
  if (next === undefined) { next = new KeyNode<V>(); node.next.set(n, next); }
  return next;
}

/**
 * The options but ldsCap, waveBytes and helpers as one number, equal for equal options and
 * different for different ones: bit 0 the wave size; bits 1-5 the rounding mode (0 none; odd RTE,
 * even RTZ, the widths above the lowest bit); bits 6-9 DenormPreserve (0 none, else 1 + the
 * widths); bits 10-11 SignedZeroInfNanPreserve and float64; bits 12-23 the flags. KEYED lists what
 * it reads: a field added to the options and not there fails the type check below.
 */
function prologueKey(o: PrologueOptions): number {
  const c = o.controls, r = c.rounding, d = c.denormPreserve;
  return (o.ws === 64 ? 1 : 0)
    | (r === undefined ? 0 : (r.mode === 'RoundingModeRTE' ? 1 : 2) + 2 * widthMask(r.widths)) << 1
    | (d === undefined ? 0 : 1 + widthMask(d.widths)) << 6
    | (c.signedZeroInfNanPreserve ? 1 : 0) << 10 | (c.float64 ? 1 : 0) << 11
    | (o.bytes ? 1 : 0) << 12 | (o.byteStores ? 1 : 0) << 13 | (o.atomics ? 1 : 0) << 14 | (o.atomics64 ? 1 : 0) << 15
    | (o.clocks ? 1 : 0) << 16 | (o.viaSubgroup ? 1 : 0) << 17 | (o.lds ? 1 : 0) << 18 | (o.perWorkgroup ? 1 : 0) << 19
    | (o.permutes ? 1 : 0) << 20 | (o.scratch ? 1 : 0) << 21 | (o.ringBytes ? 1 : 0) << 22 | (o.image ? 1 : 0) << 23;
}
/** Every field of the options and of their float controls, as prologueKey and prologueNode read them. */
type Keyed = 'ws' | 'controls' | 'bytes' | 'byteStores' | 'atomics' | 'atomics64' | 'clocks' | 'viaSubgroup' | 'lds' | 'perWorkgroup' | 'permutes' | 'scratch' | 'ringBytes' | 'image' | 'ldsCap' | 'waveBytes' | 'helpers';
type KeyedControls = 'rounding' | 'denormPreserve' | 'signedZeroInfNanPreserve' | 'float64';
// A compile-time check: a field of the options (or of their controls) not listed above makes this `never`, and the line an error.
const ALL_KEYED: [Exclude<keyof PrologueOptions, Keyed> | Exclude<keyof EntryFloatControls, KeyedControls>] extends [never] ? true : never = true;
void ALL_KEYED;
/** A set of float widths as a bit mask (a mode's widths are a set: distinct, ascending). */
function widthMask(widths: readonly (16 | 32 | 64)[]): number {
  let b = 0;
  for (let k = 0; k < widths.length; k++) b |= widths[k] === 16 ? 1 : widths[k] === 32 ? 2 : 4;
  return b;
}

/** A wave value outside a wave's turn: an id of no module. */
const NO_TURN = new Id(0, Object.freeze({}));

/** The launch values (the prologue's) that a wave's work-items are computed from. */
interface Launch {
  readonly ws: number; readonly scratch: boolean; readonly waveBytes: number;
  readonly lane: Id; readonly gx: Id; readonly gy: Id; readonly gz: Id; readonly grid: readonly Id[];
  readonly b0: Id; readonly b1: Id; readonly b2: Id; readonly bxy: Id; readonly hsaLinear: Id; readonly wavesPerGroup: Id; readonly scratchPtr: Id;
}

/** A wave's work-items: the invocation's local ids and whether it is inside the grid, its scratch region. */
function waveItems(sc: Scalars, l: Launch, wave: Id) {
  const { m, tBool, tU32, tU64 } = sc;
  const { ws, scratch, waveBytes, lane, gx, gy, gz, grid, b0, b1, b2, bxy, hsaLinear, wavesPerGroup, scratchPtr } = l;
  const inDim = (g: Id, bk: Id, l: Id, n: Id) => m.OpULessThan(tBool, m.OpIAdd(tU32, m.OpIMul(tU32, g, bk), l), n);
  const flat = m.OpIAdd(tU32, m.OpIMul(tU32, wave, sc.c32(ws)), lane);
  const lx = m.OpUMod(tU32, flat, b0), ly = m.OpUMod(tU32, m.OpUDiv(tU32, flat, b0), b1), lz = m.OpUDiv(tU32, flat, bxy);
  const exists = m.OpULessThan(tBool, flat, m.OpIMul(tU32, bxy, b2));
  const inGrid = m.OpLogicalAnd(tBool, exists, m.OpLogicalAnd(tBool, inDim(gx, b0, lx, grid[0] as Id), m.OpLogicalAnd(tBool, inDim(gy, b1, ly, grid[1] as Id), inDim(gz, b2, lz, grid[2] as Id))));
  // The wave's scratch region: the dispatch's waves in order, workgroup-major (as the engine sizes it).
  const scratchBase = scratch
    ? m.OpIAdd(tU64, scratchPtr, m.OpIMul(tU64, m.OpUConvert(tU64, m.OpIAdd(tU32, m.OpIMul(tU32, hsaLinear, wavesPerGroup), wave)), sc.c64(BigInt(waveBytes))))
    : sc.c64(0n);
  return { localIds: [lx, ly, lz], inGrid, scratchBase, wave };
}

/**
 * Whether a helper holds device float ops, and f64 ones: asked for every module that calls it, so
 * answered once per helper (helpers are shared by the process and never change once built).
 */
const DEVICE_FLOATS = new WeakMap<IrFunction, { readonly any: boolean; readonly f64: boolean }>();
function deviceFloats(h: IrFunction): { readonly any: boolean; readonly f64: boolean } {
  let r = DEVICE_FLOATS.get(h);
  if (!r) {
    let any = false, f64 = false;
    for (const b of h.blocks) for (const i of b.insts) if (i.float !== undefined) { any = true; if (i.type === 'f64') f64 = true; }
    r = { any, f64 };
    DEVICE_FLOATS.set(h, r);
  }
  return r;
}

/** What the kernel's instructions need of the module (emitSpirv's scan; refusals as CompileErrors). */
interface Uses {
  readonly bytes: boolean; readonly byteStores: boolean; readonly atomics: boolean; readonly atomics64: boolean;
  readonly lds: boolean; readonly barriers: boolean; readonly permutes: boolean; readonly dwords: boolean;
  readonly scratch: boolean; readonly ringBytes: boolean; readonly clocks: boolean; readonly image: boolean;
  /** The entry point's float controls for the float ops left (all of them native under these). */
  readonly fc: FloatControlsPlan;
}
/** Every op the scan looks at (the rest, unless float ops, are skipped by one lookup). */
const SCANNED: ReadonlySet<Op> = new Set<Op>([...LDS_OPS, ...ATOMICS, ...BYTE_OPS, 'Barrier', 'PermuteLanes', 'ScratchBase', 'ScratchRing', 'ScratchRingBytes', 'ReadClock', 'LoadGlobal32', 'StoreGlobal32', 'CodeAddress']);
/** SCANNED by the ops' index in the op table (OpEntry.index): an instruction's is read off its entry, no set probed by its name. */
const SCANNED_BY_INDEX: Uint8Array = (() => {
  const t = new Uint8Array(Object.keys(OPS).length);
  for (const op of SCANNED) t[opInfo(op).index] = 1;
  return t;
})();

/**
 * The scan of emitSpirv: what the module needs, the float controls for its float ops (which must
 * all be native under them), each pushed to `floatOps`. A function of its own (not a loop in
 * emitSpirv, which runs once per kernel and stayed unoptimised there), and most instructions
 * skipped by one lookup. One walk: the float ops are gathered in it and planned after it (a
 * second walk over every instruction for them was a few percent of a large kernel's emission).
 */
function usesOf(fn: IrFunction, profile: TargetProfile, options: EmitOptions, floatOps: { pc: number | undefined; op: Op; lowering: 'native' }[]): Uses {
  let bytes = false, byteStores = false, atomics = false, atomics64 = false;
  let lds = false, barriers = false, permutes = false, dwords = false, scratch = false, ringBytes = false, clocks = false, image = false;
  // The float ops so far, in order (made at the first: most kernels have none).
  let floats: Inst[] | undefined;
  // Indexed loops: for…of makes an iterator result per instruction where unoptimised.
  for (let bk = 0; bk < fn.blocks.length; bk++) for (let k = 0, insts = (fn.blocks[bk] as Block).insts; k < insts.length; k++) {
    const i = insts[k] as Inst;
    if (!i.float && SCANNED_BY_INDEX[i.info.index] !== 1) continue;
    // Without LDS (0 bytes) every LDS access is out of range (reads 0, writes nothing, as the
    // interpreter's): such ops need no LDS and no workgroup layout (kernel.ldsLoad & co. below).
    if (LDS_OPS.has(i.op) && (options.ldsBytes ?? 0) > 0) lds = true;
    else if (i.op === 'Barrier') barriers = true;
    else if (i.op === 'PermuteLanes') permutes = true;
    else if (i.op === 'ScratchBase' || i.op === 'ScratchRing') scratch = true;
    else if (i.op === 'ScratchRingBytes') scratch = ringBytes = true;
    if (ATOMICS.has(i.op)) {
      atomics = true;
      const w64 = ATOMICS64.has(i.op) || (i.op === 'AtomicRmwCall' && Number(i.imms[1]) === 1);
      if (w64) atomics64 = true;
      if (w64 && !profile.shaderBufferInt64Atomics) throw refusal(fn, profile, floats, new CompileError(`${i.op}: 64-bit atomics need shaderBufferInt64Atomics, which the ${profile.name} profile does not offer`, i.pc));
    }
    if (i.op === 'ReadClock') {
      const why = clockRefusal(i, profile);
      if (why) throw refusal(fn, profile, floats, new CompileError(`ReadClock ${CLOCKS[Number(i.imms[0])] ?? String(i.imms[0])}: ${why}`, i.pc));
      clocks = true;
    }
    if (i.op === 'LoadGlobal32' || i.op === 'StoreGlobal32') dwords = true;
    else if (i.op === 'CodeAddress') image = true;
    if (BYTE_OPS.has(i.op)) {
      if (!profile.storageBuffer8BitAccess) throw refusal(fn, profile, floats, new CompileError(`${i.op}: byte and short memory access needs 8-bit storage access through device addresses (storageBuffer8BitAccess), which the ${profile.name} profile does not offer`, i.pc));
      bytes = true;
      if (BYTE_STORES.has(i.op)) byteStores = true;
    }
    if (i.float) (floats ??= []).push(i);
  }
  const fc = planFloatControlsOf(floats ?? [], profile);
  if (floats) for (let k = 0; k < floats.length; k++) {
    const i = floats[k] as Inst;
    if (!fc.native.has(i)) throw new CompileError(fc.why(i), i.pc);
    floatOps.push({ pc: i.pc, op: i.op, lowering: 'native' });
  }
  return { bytes, byteStores, atomics, atomics64, lds, barriers, permutes, dwords, scratch, ringBytes, clocks, image, fc };
}

/**
 * The refusal usesOf throws at an instruction: the refusal of the first float op before it that
 * is not native (the order of one walk that checked each float op where it found it), else `e`.
 */
function refusal(fn: IrFunction, profile: TargetProfile, floats: readonly Inst[] | undefined, e: CompileError): CompileError {
  if (floats === undefined) return e;
  const fc = planFloatControls(fn, profile);
  for (let k = 0; k < floats.length; k++) { const i = floats[k] as Inst; if (!fc.native.has(i)) return new CompileError(fc.why(i), i.pc); }
  return e;
}

export function emitSpirv(fn: IrFunction, profile: TargetProfile, options: EmitOptions = {}): EmitResult {
  const ws = fn.waveSize;
  const floatOps: { pc: number | undefined; op: Op; lowering: 'native' }[] = [];
  // The float ops left after lowering must all be native under one set of entry point modes.
  const u = usesOf(fn, profile, options, floatOps);
  let { bytes } = u;
  const { byteStores, atomics, atomics64, lds, barriers, permutes, dwords, scratch, ringBytes, clocks, image, fc } = u;
  // Helpers with device float ops (guarded add/sub/mul) need nearest even and signed zeros kept;
  // f64 device ops (the guarded fma) the Float64 capability and the same for 64 bits. One indexed
  // loop for both (two some() calls made two closures and walked the helpers twice, unoptimised:
  // this runs once per kernel).
  let guarded = false, guarded64 = false;
  for (let k = 0; k < fn.helpers.length; k++) {
    const d = deviceFloats(fn.helpers[k] as IrFunction);
    if (d.any) guarded = true;
    if (d.f64) guarded64 = true;
  }
  const { rounding, denormPreserve, signedZeroInfNanPreserve, float64 } = guarded ? withGuarded(profile, fc.controls, guarded64) : fc.controls;
  // Dword accesses at misaligned addresses go byte by byte where the profile allows bytes.
  if (dwords && profile.storageBuffer8BitAccess && !profile.unalignedDwordAccess) bytes = true;
  // The lane exchange: subgroup operations where a full subgroup of the wave's size holds the workgroup.
  const laneExchange = options.laneExchange ?? chooseLaneExchange(profile, ws);
  const viaSubgroup = laneExchange.kind === 'subgroup';
  if (viaSubgroup && laneExchange.subgroupSize !== ws) throw new CompileError(`internal: a subgroup lane exchange of ${laneExchange.subgroupSize} lanes for a wave${ws} kernel`);
  // The module starts as the prologue's template for these options made it (types, interface
  // variables, the entry point's header and launch code), forked.
  const perWorkgroup = lds || barriers;
  const ldsCap = options.ldsBytes ?? 0;
  const p = prologue({
    ws, controls: { rounding, denormPreserve, signedZeroInfNanPreserve, float64: float64 ?? false },
    bytes, byteStores, atomics, atomics64, clocks, viaSubgroup, lds, perWorkgroup, permutes, scratch, ringBytes,
    image,
    ldsCap, waveBytes: scratchWaveBytes(options.scratchBytes ?? 0, ws), helpers: fn.helpers.length,
  });
  const m = p.template.fork();
  const { tBool, tU32, tU64, tF32, tV2U32, helperFns, shPtr, tU8, psbU8, ldsVar, wavesPerGroup, lane } = p;
  const sc = new Scalars(m, tBool, tU32, tU64, tF32, tV2U32);
  const kernel = new Kernel(sc, p, ws, profile, viaSubgroup, lds);
  // The control flow: structured where the CFG is reducible, else the state machine; the
  // workgroup layout runs its waves' turns through the state machine.
  let controlFlow: EmitResult['controlFlow'] = 'state machine';
  if (perWorkgroup) {
    // Rounds until every wave has ended; in each, every wave that has not ended (and has a
    // work-item) runs to its end or its next barrier, in order: the RDNA interpreter's schedule.
    // One entry per wave the workgroup can have (drivers refused 32-entry arrays of a large kernel: the H200).
    const maxWaves = Math.max(1, Math.ceil(Math.min(1024, options.maxWorkItems ?? 1024) / ws));
    const tPcs = m.OpTypeArray(tU32, sc.c32(maxWaves));
    const pcs = m.OpVariable(kernel.fnPtr(tPcs), 'Function');
    const left = m.OpVariable(kernel.fnPtr(tBool), 'Function');
    m.OpStore(pcs, m.OpConstantNull(tPcs));
    // The LDS starts zeroed, as the interpreter's does (Vulkan's workgroup memory starts undefined).
    if (ldsVar !== undefined) {
      const dwords = Math.ceil(ldsCap / 4) + 2;
      countedLoop(sc, lane, sc.c32(dwords), ws, (k) => {
        m.OpStore(m.OpAccessChain(shPtr, ldsVar, k), sc.c32(0));
        return [];
      });
      kernel.barrier();
    }
    const rHdr = m.allocateId(), rBody = m.allocateId(), rCont = m.allocateId(), rExit = m.allocateId();
    const wPre = m.allocateId(), wHdr = m.allocateId(), wBody = m.allocateId(), wCont = m.allocateId(), wExit = m.allocateId(), wNext = m.allocateId();
    const go = m.allocateId(), skip = m.allocateId();
    m.OpBranch(rHdr);
    m.label(rHdr);
    m.OpLoopMerge(rExit, rCont, 'None');
    m.OpBranch(rBody);
    m.label(rBody);
    m.OpStore(left, sc.cBool(false));
    m.OpBranch(wPre);
    m.label(wPre);
    m.OpBranch(wHdr);
    m.label(wHdr);
    const w = m.OpPhi(tU32, sc.c32(0), wPre, wNext, wCont);
    const more = m.OpULessThan(tBool, w, wavesPerGroup);
    m.OpLoopMerge(wExit, wCont, 'None');
    m.OpBranchConditional(more, wBody, wExit);
    m.label(wBody);
    // The wave's items for each turn (the prologue's are a wave per Vulkan workgroup's).
    const items = waveItems(sc, p.launch, w);
    kernel.localIds = items.localIds;
    kernel.inGrid = items.inGrid;
    kernel.waveInGroup = items.wave;
    kernel.scratchBase = items.scratchBase;
    const pcOf = () => m.OpAccessChain(kernel.fnPtr(tU32), pcs, w);
    const pc = m.OpLoad(tU32, pcOf());
    const some = m.OpINotEqual(tBool, m.OpBitwiseOr(tU32, kernel.ballot(items.inGrid, false), kernel.ballot(items.inGrid, true)), sc.c32(0));
    const runs = m.OpLogicalAnd(tBool, m.OpINotEqual(tBool, pc, sc.c32(DONE)), some);
    m.OpSelectionMerge(skip, 'None');
    m.OpBranchConditional(runs, go, skip);
    m.label(go);
    const state = emitStateMachine(sc, kernel, fn, { start: pc, ...(barriers ? { wave: { index: w, count: maxWaves } } : {}) });
    const st = m.OpLoad(tU32, state);
    const next = m.OpSelect(tU32, m.OpIEqual(tBool, st, sc.c32(DONE)), sc.c32(DONE), m.OpBitwiseAnd(tU32, st, sc.c32(~YIELD >>> 0)));
    m.OpStore(pcOf(), next);
    m.OpStore(left, m.OpLogicalOr(tBool, m.OpLoad(tBool, left), m.OpINotEqual(tBool, next, sc.c32(DONE))));
    // The next wave sees this one's global memory (the interpreter runs them one after another).
    m.OpControlBarrier(sc.c32(2), sc.c32(2), sc.c32(0x148));
    m.OpBranch(skip);
    m.label(skip);
    m.OpBranch(wCont);
    m.label(wCont);
    m.emit('OpIAdd', [tU32, w, sc.c32(1)], wNext);
    m.OpBranch(wHdr);
    m.label(wExit);
    m.OpBranch(rCont);
    m.label(rCont);
    m.OpBranchConditional(m.OpLoad(tBool, left), rHdr, rExit);
    m.label(rExit);
    m.OpReturn();
  } else {
    const plan = options.stateMachine ? undefined : planStructuredFlow(fn, EVERYWHERE);
    if (!plan || 'irreducible' in plan) emitStateMachine(sc, kernel, fn);
    else { controlFlow = 'structured'; emitStructured(sc, kernel, fn, plan); }
  }
  m.OpFunctionEnd();
  fn.helpers.forEach((h, k) => {
    if (options.walkHelpers) emitHelper(sc, h, helperFns[k] as Id);
    else m.emitRelocatable(helperSpirv(h), helperFns[k] as Id);
  });
  if (kernel.guardedFns) {
    for (const g of kernel.guardedFns.values()) {
      const fastFn = helperFns[g.fast], exactFn = helperFns[g.exact], exact = fn.helpers[g.exact];
      if (fastFn === undefined || exactFn === undefined || !exact) throw new CompileError(`a guarded call of missing helpers ${g.fast}, ${g.exact}`);
      if (options.walkHelpers) emitGuardedFn(sc, exact, fastFn, exactFn, g.id);
      else m.emitRelocatable(guardedSpirv(exact), g.id, [fastFn, exactFn]);
    }
  }
  const { ldsFns, bytewiseFns, faultSites } = kernel;
  if (ldsFns && ldsVar !== undefined) emitLdsFunctions(sc, ldsVar, ldsCap, ldsFns);
  if (bytewiseFns && psbU8 !== undefined && tU8 !== undefined) emitBytewiseFunctions(sc, psbU8, tU8, bytewiseFns);
  const spirv = m.assemble();
  // Nothing uses the module again: its arrays serve the next kernel's (Module.release).
  m.release();
  return { spirv, floatOps, faultSites, controlFlow, dispatch: perWorkgroup ? 'workgroup' : 'wave', laneExchange };
}

/**
 * A loop (DontUnroll: lavapipe unrolls constant trip counts, slowly) of k = start, start + step,
 * ... while k < end, `body` emitted once in it; the `carried` values start as given and take what
 * `body` returns for each (phis), and their last values are returned. Emitted from the open block.
 */
function countedLoop(sc: Scalars, start: Id, end: Id, step: number, body: (k: Id, carried: readonly Id[]) => readonly Id[], carried: readonly { type: Id; value: Id }[] = []): readonly Id[] {
  const { m, tBool, tU32 } = sc;
  const pre = m.allocateId(), hdr = m.allocateId(), bd = m.allocateId(), nx = m.allocateId(), done = m.allocateId(), kn = m.allocateId();
  const next = carried.map(() => m.allocateId());
  m.OpBranch(pre);
  m.label(pre);
  m.OpBranch(hdr);
  m.label(hdr);
  const k = m.OpPhi(tU32, start, pre, kn, nx);
  const vals = carried.map((c, i) => m.OpPhi(c.type, c.value, pre, next[i] as Id, nx));
  const more = m.OpULessThan(tBool, k, end);
  m.OpLoopMerge(done, nx, 'DontUnroll');
  m.OpBranchConditional(more, bd, done);
  m.label(bd);
  const out = body(k, vals);
  m.OpBranch(nx);
  m.label(nx);
  carried.forEach((c, i) => m.emit('OpCopyObject', [c.type, out[i] as Id], next[i] as Id));
  m.emit('OpIAdd', [tU32, k, sc.c32(step)], kn);
  m.OpBranch(hdr);
  m.label(done);
  return vals;
}

/**
 * The LDS accessors (one each per module): get(a, off, n) reads n (1, 2, 4) bytes at a + off, any
 * alignment, 0 when any of them is at or beyond `cap` (the interpreter's rule, per element);
 * put(a, off, n, v) writes the low n bytes of v there, nothing when outside. The LDS is a u32
 * array with two dwords to spare, so the dword after an in-range access always exists.
 */
function emitLdsFunctions(sc: Scalars, ldsVar: Id, cap: number, ids: { get: Id; put: Id }): void {
  const { m, tBool, tU32 } = sc;
  const tVoid = m.OpTypeVoid();
  const ptr = m.OpTypePointer('Workgroup', tU32);
  const word = (i: Id) => m.OpAccessChain(ptr, ldsVar, i);
  const inRange = (a: Id, off: Id, n: Id) => {
    const need = m.OpIAdd(tU32, off, n);
    return m.OpLogicalAnd(tBool, m.OpULessThanEqual(tBool, need, sc.c32(cap)), m.OpULessThanEqual(tBool, a, m.OpISub(tU32, sc.c32(cap), need)));
  };
  m.emit('OpFunction', [tU32, 'None', m.OpTypeFunction(tU32, tU32, tU32, tU32)], ids.get);
  m.OpName(ids.get, 'lds_get');
  {
    const a = m.OpFunctionParameter(tU32), off = m.OpFunctionParameter(tU32), n = m.OpFunctionParameter(tU32);
    m.OpLabel();
    const ok = inRange(a, off, n);
    const ea = m.OpSelect(tU32, ok, m.OpIAdd(tU32, a, off), sc.c32(0));
    const idx = m.OpShiftRightLogical(tU32, ea, sc.c32(2));
    const sh = m.OpShiftLeftLogical(tU32, m.OpBitwiseAnd(tU32, ea, sc.c32(3)), sc.c32(3));
    const lo = m.OpLoad(tU32, word(idx)), hi = m.OpLoad(tU32, word(m.OpIAdd(tU32, idx, sc.c32(1))));
    const joined = m.OpBitwiseOr(tU32, m.OpShiftRightLogical(tU32, lo, sh), m.OpShiftLeftLogical(tU32, hi, m.OpBitwiseAnd(tU32, m.OpISub(tU32, sc.c32(32), sh), sc.c32(31))));
    const v = m.OpSelect(tU32, m.OpIEqual(tBool, sh, sc.c32(0)), lo, joined);
    const mask = m.OpSelect(tU32, m.OpIEqual(tBool, n, sc.c32(4)), sc.c32(0xffffffff), m.OpISub(tU32, m.OpShiftLeftLogical(tU32, sc.c32(1), m.OpBitwiseAnd(tU32, m.OpShiftLeftLogical(tU32, n, sc.c32(3)), sc.c32(31))), sc.c32(1)));
    m.OpReturnValue(m.OpSelect(tU32, ok, m.OpBitwiseAnd(tU32, v, mask), sc.c32(0)));
  }
  m.OpFunctionEnd();
  m.emit('OpFunction', [tVoid, 'None', m.OpTypeFunction(tVoid, tU32, tU32, tU32, tU32)], ids.put);
  m.OpName(ids.put, 'lds_put');
  {
    const a = m.OpFunctionParameter(tU32), off = m.OpFunctionParameter(tU32), n = m.OpFunctionParameter(tU32), v = m.OpFunctionParameter(tU32);
    m.OpLabel();
    const body = m.allocateId(), end = m.allocateId(), whole = m.allocateId(), bytes = m.allocateId(), bodyEnd = m.allocateId();
    const ok = inRange(a, off, n);
    m.OpSelectionMerge(end, 'None');
    m.OpBranchConditional(ok, body, end);
    m.label(body);
    const ea = m.OpIAdd(tU32, a, off);
    const aligned = m.OpIEqual(tBool, m.OpBitwiseAnd(tU32, ea, sc.c32(3)), sc.c32(0));
    const isWhole = m.OpLogicalAnd(tBool, m.OpIEqual(tBool, n, sc.c32(4)), aligned);
    m.OpSelectionMerge(bodyEnd, 'None');
    m.OpBranchConditional(isWhole, whole, bytes);
    m.label(whole);
    m.OpStore(word(m.OpShiftRightLogical(tU32, ea, sc.c32(2))), v);
    m.OpBranch(bodyEnd);
    m.label(bytes);
    for (let k = 0; k < 4; k++) {
      const kb = m.allocateId(), kEnd = m.allocateId();
      const has = m.OpULessThan(tBool, sc.c32(k), n);
      m.OpSelectionMerge(kEnd, 'None');
      m.OpBranchConditional(has, kb, kEnd);
      m.label(kb);
      const e = m.OpIAdd(tU32, ea, sc.c32(k));
      const p = word(m.OpShiftRightLogical(tU32, e, sc.c32(2)));
      const s = m.OpShiftLeftLogical(tU32, m.OpBitwiseAnd(tU32, e, sc.c32(3)), sc.c32(3));
      const byte = m.OpBitwiseAnd(tU32, m.OpShiftRightLogical(tU32, v, sc.c32(8 * k)), sc.c32(0xff));
      const kept = m.OpBitwiseAnd(tU32, m.OpLoad(tU32, p), m.OpNot(tU32, m.OpShiftLeftLogical(tU32, sc.c32(0xff), s)));
      m.OpStore(p, m.OpBitwiseOr(tU32, kept, m.OpShiftLeftLogical(tU32, byte, s)));
      m.OpBranch(kEnd);
      m.label(kEnd);
    }
    m.OpBranch(bodyEnd);
    m.label(bodyEnd);
    m.OpBranch(end);
    m.label(end);
    m.OpReturn();
  }
  m.OpFunctionEnd();
}

/** A dword at a u64 address of any alignment, little-endian, as four byte loads / stores (8-bit storage). */
function emitBytewiseFunctions(sc: Scalars, psbU8: Id, tU8: Id, ids: { load: Id; store: Id }): void {
  const { m, tU32, tU64 } = sc;
  const tVoid = m.OpTypeVoid();
  const at = (a: Id, j: number) => m.OpConvertUToPtr(psbU8, j === 0 ? a : m.OpIAdd(tU64, a, sc.c64(BigInt(j))));
  m.emit('OpFunction', [tU32, 'None', m.OpTypeFunction(tU32, tU64)], ids.load);
  m.OpName(ids.load, 'load_bytes');
  {
    const a = m.OpFunctionParameter(tU64);
    m.OpLabel();
    const byte = (j: number) => m.OpShiftLeftLogical(tU32, m.OpUConvert(tU32, m.OpLoad(tU8, at(a, j), 'Aligned', 1)), sc.c32(8 * j));
    m.OpReturnValue(m.OpBitwiseOr(tU32, m.OpBitwiseOr(tU32, byte(0), byte(1)), m.OpBitwiseOr(tU32, byte(2), byte(3))));
  }
  m.OpFunctionEnd();
  m.emit('OpFunction', [tVoid, 'None', m.OpTypeFunction(tVoid, tU64, tU32)], ids.store);
  m.OpName(ids.store, 'store_bytes');
  {
    const a = m.OpFunctionParameter(tU64), v = m.OpFunctionParameter(tU32);
    m.OpLabel();
    for (let j = 0; j < 4; j++) m.OpStore(at(a, j), m.OpUConvert(tU8, m.OpShiftRightLogical(tU32, v, sc.c32(8 * j))), 'Aligned', 1);
    m.OpReturn();
  }
  m.OpFunctionEnd();
}

/** A DS atomic's new value (the LDS_RMW rules) on `t` (u32 or u64) values. */
function ldsRmwOp(sc: Scalars, kind: LdsRmw, t: Id, o: Id, d0: Id, d1: Id): Id {
  const { m, tBool } = sc;
  const zero = t === sc.tU64 ? sc.c64(0n) : sc.c32(0), one = t === sc.tU64 ? sc.c64(1n) : sc.c32(1);
  switch (kind) {
    case 'add': return m.OpIAdd(t, o, d0);
    case 'sub': return m.OpISub(t, o, d0);
    case 'rsub': return m.OpISub(t, d0, o);
    case 'inc': return m.OpSelect(t, m.OpUGreaterThanEqual(tBool, o, d0), zero, m.OpIAdd(t, o, one));
    case 'dec': return m.OpSelect(t, m.OpLogicalOr(tBool, m.OpIEqual(tBool, o, zero), m.OpUGreaterThan(tBool, o, d0)), d0, m.OpISub(t, o, one));
    case 'min_i': return m.OpSelect(t, m.OpSLessThan(tBool, o, d0), o, d0);
    case 'max_i': return m.OpSelect(t, m.OpSGreaterThan(tBool, o, d0), o, d0);
    case 'min_u': return m.OpSelect(t, m.OpULessThan(tBool, o, d0), o, d0);
    case 'max_u': return m.OpSelect(t, m.OpUGreaterThan(tBool, o, d0), o, d0);
    case 'and': return m.OpBitwiseAnd(t, o, d0);
    case 'or': return m.OpBitwiseOr(t, o, d0);
    case 'xor': return m.OpBitwiseXor(t, o, d0);
    case 'mskor': return m.OpBitwiseOr(t, m.OpBitwiseAnd(t, o, m.OpNot(t, d0)), d1);
    case 'cmpst': return m.OpSelect(t, m.OpIEqual(tBool, o, d0), d1, o);
    case 'wrxchg': return d0;
    case 'wrap': return m.OpSelect(t, m.OpUGreaterThanEqual(tBool, o, d0), m.OpISub(t, o, d0), m.OpIAdd(t, o, d1));
  }
}

/**
 * Each helper's SPIR-V function, recorded once per process (emitHelper into a module of its own)
 * and copied into every module that calls it (Module.emitRelocatable): a copy of words with its
 * ids patched, not a walk of its IR. Every module gets its helpers by the copy, the first too, so
 * a kernel's words do not depend on what the process compiled before. Helpers never change once
 * lowerFloat made them (src/ir/passes/lower-float.ts), so the IR function is the key.
 */
const HELPER_SPIRV = new WeakMap<IrFunction, RelocatableFunction>();
function helperSpirv(h: IrFunction): RelocatableFunction {
  let r = HELPER_SPIRV.get(h);
  if (!r) {
    r = Module.recordFunction({ version: MODULE_VERSION }, (m, id) => {
      const tU32 = m.OpTypeInt(32, 0);
      emitHelper(new Scalars(m, m.OpTypeBool(), tU32, m.OpTypeInt(64, 0), m.OpTypeFloat(32), m.OpTypeVector(tU32, 2)), h, id);
    });
    HELPER_SPIRV.set(h, r);
  }
  return r;
}

/** The function of one pair of a CallGuarded's helpers (Kernel.guardedFn allocated its id). */
interface GuardedFn { readonly fast: number; readonly exact: number; readonly id: Id }

/**
 * The guarded functions' SPIR-V (emitGuardedFn), recorded once per exact helper (its signature is
 * the function's; the two helpers it calls are the externals, the module's ids of the fast and the
 * exact helper) and copied into every module that uses the pair (Module.emitRelocatable), as the
 * helpers are: made per module by their methods, the guarded functions were a tenth of a float
 * kernel's emission in bench:compile's regime. The copy is the function emitting it there gives,
 * ids and all: its own ids are numbered in the order it allocates them, and every type and constant
 * it refers to is in the module before it (the prologue's, and the exact helper's function type).
 */
const GUARDED_SPIRV = new WeakMap<IrFunction, RelocatableFunction>();
function guardedSpirv(exact: IrFunction): RelocatableFunction {
  let r = GUARDED_SPIRV.get(exact);
  if (!r) {
    r = Module.recordFunction({ version: MODULE_VERSION }, (m, id, [fastFn, exactFn]) => {
      const tU32 = m.OpTypeInt(32, 0);
      emitGuardedFn(new Scalars(m, m.OpTypeBool(), tU32, m.OpTypeInt(64, 0), m.OpTypeFloat(32), m.OpTypeVector(tU32, 2)), exact, fastFn as Id, exactFn as Id, id);
    }, 2);
    GUARDED_SPIRV.set(exact, r);
  }
  return r;
}

/**
 * A guarded float op's function `id` (a CallGuarded of helpers `fast` and `exact`, lower-float-guarded.ts,
 * whose functions are `fastFn` and `exactFn`): the fast helper's u64, its low dword where its high
 * one is nonzero, else the exact helper's result, in a selection construct so that only the lanes
 * that need it run the exact helper. One per pair a module uses (recorded once: guardedSpirv; by
 * its methods where the helpers are walked), so each site is one OpFunctionCall; drivers inline it
 * as they do the helpers.
 */
function emitGuardedFn(sc: Scalars, exact: IrFunction, fastFn: Id, exactFn: Id, id: Id): void {
  const { m, tBool, tU32, tU64, tV2U32 } = sc;
  const sig = signature(exact);
  if (!sig.ret) throw new CompileError(`helper ${exact.name}: no result`);
  const ret = sc.typeOf(sig.ret);
  const ps = openFunction(sc, sig.ret, sig.params, id);
  const entry = m.OpLabel();
  const pair = m.OpBitcast(tV2U32, m.OpFunctionCall(tU64, fastFn, ...ps));
  const ok = m.OpINotEqual(tBool, m.OpCompositeExtract(tU32, pair, 1), sc.c32(0));
  const bits = m.OpCompositeExtract(tU32, pair, 0);
  const slow = m.allocateId(), merge = m.allocateId();
  m.OpSelectionMerge(merge, 'None');
  m.OpBranchConditional(ok, merge, slow);
  m.label(slow);
  const v = m.OpFunctionCall(ret, exactFn, ...ps);
  m.OpBranch(merge);
  m.label(merge);
  m.OpReturnValue(m.OpPhi(ret, bits, entry, v, slow));
  m.OpFunctionEnd();
}

/** OpFunction `id` of a helper's signature (result and parameter types) and its OpFunctionParameters: the parameters' ids. */
function openFunction(sc: Scalars, ret: IrType, params: readonly IrType[], id: Id): Id[] {
  const { m } = sc;
  const r = sc.typeOf(ret);
  const ts = params.map((t) => sc.typeOf(t));
  m.emit('OpFunction', [r, 'None', m.OpTypeFunction(r, ...ts)], id);
  return ts.map((t) => m.OpFunctionParameter(t));
}

/** A helper as a SPIR-V function: its parameters, then its one block of pure code, returning the value. */
function emitHelper(sc: Scalars, h: IrFunction, id: Id): void {
  const { m } = sc;
  const sig = signature(h);
  if (!sig.ret || h.blocks.length !== 1) throw new CompileError(`helper ${h.name}: only one-block helpers with a result are emitted`);
  m.OpName(id, h.name);
  const paramIds = openFunction(sc, sig.ret, sig.params, id);
  m.OpLabel();
  const A = new HelperOperands(h);
  for (const i of h.blocks[0]?.insts ?? []) {
    A.at = i;
    if (i.op === 'Param') A.vals.set(i, paramIds[Number(i.imms[0])] ?? A.arg(-1));
    else if (i.op === 'Return') m.OpReturnValue(A.arg(0));
    else { const v = emitOp(sc, undefined, i, A); if (v) A.vals.set(i, v); }
  }
  m.OpFunctionEnd();
}

/** emitOp's argument reader in a helper (Operands): the values of the instruction at hand's (`at`) arguments, defined before it. */
class HelperOperands implements Operands {
  readonly vals = new Map<Inst, Id>();
  at: Inst | undefined;
  constructor(private readonly h: IrFunction) {}
  arg(j: number): Id {
    const i = this.at as Inst, a = i.args[j];
    const v = a ? this.vals.get(a) : undefined;
    if (!v) throw new CompileError(`helper ${this.h.name}: ${i.op} argument ${j} has no value`, i.pc);
    return v;
  }
}
