// IR → SPIR-V (first slice of issue 6). One Vulkan workgroup runs one RDNA wave: LocalSize is the
// wave size, so everything the wave shares (lane masks, v_readlane) is exchanged through workgroup
// memory with barriers, correct on any subgroup size, and the IR's wave-uniform control flow is
// workgroup-uniform, so those barriers are in uniform control flow. The Vulkan workgroup id gives
// the RDNA workgroup and the wave within it (the dispatcher lays the waves out linearly).
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
// Float ops: native only for the ops of NATIVE_F32 (emit-ops.ts) and only where the entry point's
// float controls, which the profile must offer, express the op's MODE exactly (float-controls.ts:
// one rounding mode, RTE or RTZ, and DenormPreserve or none, shared by the kernel's native ops);
// every float op carries NoContraction. The rest arrive lowered (lowerFloat) as calls of the
// function's helpers, each emitted once as a SPIR-V function of pure integer code (emitHelper). Anything else is a
// CompileError naming the instruction's pc: never silently wrong SPIR-V. Module constants and the
// launch values computed before any IR block (EVERYWHERE, emit-ops.ts) are valid in every block.
import type { TargetProfile } from '../profile.js';
import type { Inst, IrFunction } from '../../ir/ir.js';
import type { IrType, Op } from '../../ir/ops.js';
import { Module } from './module.js';
import type { Id } from './operands.js';
import { CompileError } from './errors.js';
import { emitOp, EVERYWHERE, type KernelState, type Scalars } from './emit-ops.js';
import { planFloatControls } from './float-controls.js';
import { planStructuredFlow } from './structurize.js';
import { emitStructured } from './emit-structured.js';
import { emitStateMachine } from './emit-state-machine.js';
import { signature } from '../../ir/verify.js';

export { CompileError };

/** The sink buffer's layout (bytes), shared with the Vulkan engine: see the header. */
export const SINK = { plain: 0, fault: 128, bytes: 256 } as const;

/** A place where the kernel can fault at run time: its word value in the fault word is index + 1. */
export interface FaultSite { readonly pc: number; readonly kind: number }

/** Push constant block layout (bytes), shared with the Vulkan engine (src/runtime/engine.ts). */
export const PUSH = {
  kernargPtr: 0, dispatchPtr: 8, sinkPtr: 16,
  grid: 24, block: 36, wavesPerGroup: 48, groupsX: 52, groupsY: 56, vkGroupsX: 60,
  size: 64,
} as const;

export interface EmitResult {
  readonly spirv: Uint32Array;
  /** The float ops emitted as native SPIR-V float instructions. */
  readonly floatOps: readonly { pc: number | undefined; op: Op; lowering: 'native' }[];
  /** The kernel's fault sites, by fault word value - 1. */
  readonly faultSites: readonly FaultSite[];
  /** How the CFG was emitted: structured constructs (reducible), or the state machine (irreducible). */
  readonly controlFlow: 'structured' | 'state machine';
}

const BYTE_OPS: ReadonlySet<Op> = new Set(['LoadGlobalU8', 'LoadGlobalU16', 'StoreGlobal8', 'StoreGlobal16']);
const BYTE_STORES: ReadonlySet<Op> = new Set(['StoreGlobal8', 'StoreGlobal16']);
const ATOMICS: ReadonlySet<Op> = new Set(['AtomicRmw32', 'AtomicRmw64', 'AtomicCmpSwap32', 'AtomicCmpSwap64']);
const ATOMICS64: ReadonlySet<Op> = new Set(['AtomicRmw64', 'AtomicCmpSwap64']);

export interface EmitOptions {
  /** Emit the state machine even for a reducible CFG (comparisons, benchmarks). */
  readonly stateMachine?: boolean;
}

export function emitSpirv(fn: IrFunction, profile: TargetProfile, options: EmitOptions = {}): EmitResult {
  const m = new Module({ version: '1.5' });
  const ws = fn.waveSize;
  m.OpCapability('Shader');
  m.OpCapability('Int64');
  m.OpCapability('PhysicalStorageBufferAddresses');
  const floatOps: { pc: number | undefined; op: Op; lowering: 'native' }[] = [];
  // The float ops left after lowering must all be native under one set of entry point modes.
  const fc = planFloatControls(fn, profile);
  let bytes = false, byteStores = false, atomics = false, atomics64 = false;
  for (const b of fn.blocks) for (const i of b.insts) {
    if (ATOMICS.has(i.op)) {
      atomics = true;
      if (ATOMICS64.has(i.op)) atomics64 = true;
      if (ATOMICS64.has(i.op) && !profile.shaderBufferInt64Atomics) throw new CompileError(`${i.op}: 64-bit atomics need shaderBufferInt64Atomics, which the ${profile.name} profile does not offer`, i.pc);
    }
    if (BYTE_OPS.has(i.op)) {
      if (!profile.storageBuffer8BitAccess) throw new CompileError(`${i.op}: byte and short memory access needs 8-bit storage access through device addresses (storageBuffer8BitAccess), which the ${profile.name} profile does not offer`, i.pc);
      bytes = true;
      if (BYTE_STORES.has(i.op)) byteStores = true;
    }
    if (!i.float) continue;
    if (!fc.native.has(i)) throw new CompileError(fc.why(i), i.pc);
    floatOps.push({ pc: i.pc, op: i.op, lowering: 'native' });
  }
  const { rounding, denormPreserve, signedZeroInfNanPreserve } = fc.controls;
  if (rounding) m.enable('ExecutionMode', rounding.mode);
  if (denormPreserve) m.enable('ExecutionMode', 'DenormPreserve');
  if (signedZeroInfNanPreserve) m.enable('ExecutionMode', 'SignedZeroInfNanPreserve');
  if (bytes) m.OpCapability('StorageBuffer8BitAccess');
  if (atomics64) m.OpCapability('Int64Atomics');
  m.OpMemoryModel('PhysicalStorageBuffer64', 'GLSL450');

  // --- types ---
  const tVoid = m.OpTypeVoid();
  const tBool = m.OpTypeBool();
  const tU32 = m.OpTypeInt(32, 0);
  const tU64 = m.OpTypeInt(64, 0);
  const tF32 = m.OpTypeFloat(32);
  const tV3 = m.OpTypeVector(tU32, 3);
  const tV2U32 = m.OpTypeVector(tU32, 2);
  const typeOf = (t: IrType): Id => {
    switch (t) {
      case 'u1': return tBool;
      case 'u32': return tU32;
      case 'u64': return tU64;
      case 'f32': return tF32;
      default: throw new CompileError(`values of type ${t} are not emitted yet`);
    }
  };
  const c32 = (v: number) => m.constant(tU32, v >>> 0);
  const c64 = (v: bigint) => m.constant(tU64, v);
  const cBool = (v: boolean) => m.constant(tBool, v);
  const sc: Scalars = { m, tBool, tU32, tU64, tF32, tV2U32, typeOf, c32, c64, cBool };
  // The helpers' ids, defined after the entry point.
  const helperFns = fn.helpers.map(() => m.allocateId());

  // Push constants.
  const pcStruct = m.OpTypeStruct(tU64, tU64, tU64, tU32, tU32, tU32, tU32, tU32, tU32, tU32, tU32, tU32, tU32);
  m.OpDecorate(pcStruct, 'Block');
  [0, 8, 16, 24, 28, 32, 36, 40, 44, 48, 52, 56, 60].forEach((off, k) => m.OpMemberDecorate(pcStruct, k, 'Offset', off));
  const pcVar = m.OpVariable(m.OpTypePointer('PushConstant', pcStruct), 'PushConstant');
  const pcPtr64 = m.OpTypePointer('PushConstant', tU64);
  const pcPtr32 = m.OpTypePointer('PushConstant', tU32);
  // Builtins.
  const gLocal = m.OpVariable(m.OpTypePointer('Input', tV3), 'Input');
  m.OpDecorate(gLocal, 'BuiltIn', 'LocalInvocationId');
  const gGroup = m.OpVariable(m.OpTypePointer('Input', tV3), 'Input');
  m.OpDecorate(gGroup, 'BuiltIn', 'WorkgroupId');
  // Workgroup memory for the wave's exchanges (one dword per lane).
  const shArr = m.OpTypeArray(tU32, c32(ws));
  const shVar = m.OpVariable(m.OpTypePointer('Workgroup', shArr), 'Workgroup');
  const shPtr = m.OpTypePointer('Workgroup', tU32);
  // Two words for ballots (lanes 0-31, 32-63), built with atomic ORs.
  const balArr = m.OpTypeArray(tU32, c32(2));
  const balVar = m.OpVariable(m.OpTypePointer('Workgroup', balArr), 'Workgroup');
  const psbU32 = m.OpTypePointer('PhysicalStorageBuffer', tU32);
  const tU8 = bytes ? m.OpTypeInt(8, 0) : undefined;
  const psbU8 = tU8 !== undefined ? m.OpTypePointer('PhysicalStorageBuffer', tU8) : undefined;
  const psbU64 = atomics64 ? m.OpTypePointer('PhysicalStorageBuffer', tU64) : undefined;
  // The byte stores' and atomics' address exchange (one u64 per lane).
  const addrArr = byteStores || atomics ? m.OpTypeArray(tU64, c32(ws)) : undefined;
  const addrVar = addrArr !== undefined ? m.OpVariable(m.OpTypePointer('Workgroup', addrArr), 'Workgroup') : undefined;
  // The atomics' data, compare and old value of each lane (as u64s).
  const atomicVars = atomics && addrArr !== undefined
    ? { data: m.OpVariable(m.OpTypePointer('Workgroup', addrArr), 'Workgroup'), cmp: m.OpVariable(m.OpTypePointer('Workgroup', addrArr), 'Workgroup'), old: m.OpVariable(m.OpTypePointer('Workgroup', addrArr), 'Workgroup') }
    : undefined;
  const shPtr64 = addrVar !== undefined ? m.OpTypePointer('Workgroup', tU64) : undefined;
  const fnPtr = (t: Id) => m.OpTypePointer('Function', t);

  const main = m.OpFunction(tVoid, 'None', m.OpTypeFunction(tVoid));
  m.OpEntryPoint('GLCompute', main, 'main', pcVar, gLocal, gGroup, shVar, balVar, ...(addrVar !== undefined ? [addrVar] : []), ...(atomicVars !== undefined ? [atomicVars.data, atomicVars.cmp, atomicVars.old] : []));
  m.OpExecutionMode(main, 'LocalSize', ws, 1, 1);
  if (rounding) for (const w of rounding.widths) m.OpExecutionMode(main, rounding.mode, w);
  for (const w of denormPreserve?.widths ?? []) m.OpExecutionMode(main, 'DenormPreserve', w);
  if (signedZeroInfNanPreserve) m.OpExecutionMode(main, 'SignedZeroInfNanPreserve', 32);
  m.OpName(main, 'main');
  m.OpLabel();

  // --- the launch geometry (in the entry block: it dominates everything) ---
  const pc64 = (off: number) => m.OpLoad(tU64, m.OpAccessChain(pcPtr64, pcVar, c32([0, 8, 16].indexOf(off))));
  const pc32 = (off: number) => m.OpLoad(tU32, m.OpAccessChain(pcPtr32, pcVar, c32(3 + (off - 24) / 4)));
  const kernargPtr = pc64(PUSH.kernargPtr), dispatchPtr = pc64(PUSH.dispatchPtr), sinkPtr = pc64(PUSH.sinkPtr);
  const grid = [0, 1, 2].map((k) => pc32(PUSH.grid + 4 * k));
  const blk = [0, 1, 2].map((k) => pc32(PUSH.block + 4 * k));
  const wavesPerGroup = pc32(PUSH.wavesPerGroup), groupsX = pc32(PUSH.groupsX), groupsY = pc32(PUSH.groupsY), vkGroupsX = pc32(PUSH.vkGroupsX);
  const lid = m.OpLoad(tV3, gLocal), wid = m.OpLoad(tV3, gGroup);
  const lane = m.OpCompositeExtract(tU32, lid, 0);
  const vg = m.OpIAdd(tU32, m.OpCompositeExtract(tU32, wid, 0), m.OpIMul(tU32, m.OpCompositeExtract(tU32, wid, 1), vkGroupsX));
  const hsaLinear = m.OpUDiv(tU32, vg, wavesPerGroup);
  const wave = m.OpUMod(tU32, vg, wavesPerGroup);
  const gx = m.OpUMod(tU32, hsaLinear, groupsX);
  const gyz = m.OpUDiv(tU32, hsaLinear, groupsX);
  const gy = m.OpUMod(tU32, gyz, groupsY), gz = m.OpUDiv(tU32, gyz, groupsY);
  const flat = m.OpIAdd(tU32, m.OpIMul(tU32, wave, c32(ws)), lane);
  const b0 = blk[0] as Id, b1 = blk[1] as Id, b2 = blk[2] as Id;
  const bxy = m.OpIMul(tU32, b0, b1);
  const lx = m.OpUMod(tU32, flat, b0), ly = m.OpUMod(tU32, m.OpUDiv(tU32, flat, b0), b1), lz = m.OpUDiv(tU32, flat, bxy);
  const exists = m.OpULessThan(tBool, flat, m.OpIMul(tU32, bxy, b2));
  const inDim = (g: Id, bk: Id, l: Id, n: Id) => m.OpULessThan(tBool, m.OpIAdd(tU32, m.OpIMul(tU32, g, bk), l), n);
  const inGrid = m.OpLogicalAnd(tBool, exists, m.OpLogicalAnd(tBool, inDim(gx, b0, lx, grid[0] as Id), m.OpLogicalAnd(tBool, inDim(gy, b1, ly, grid[1] as Id), inDim(gz, b2, lz, grid[2] as Id))));
  const groupIds = [gx, gy, gz], localIds = [lx, ly, lz];

  const barrier = () => m.OpControlBarrier(c32(2), c32(2), c32(0x108));
  const faultSites: FaultSite[] = [];
  const kernel: KernelState = {
    waveSize: ws, lane, groupIds, localIds, inGrid, kernargPtr, dispatchPtr, sinkPtr, psbU32, helperFns,
    bytePointer(a) {
      if (psbU8 === undefined) throw new CompileError('internal: a byte access without 8-bit storage');
      return m.OpConvertUToPtr(psbU8, a);
    },
    tU8: tU8 ?? c32(0),
    // Where the condition holds: the fault word goes from 0 to this site's number (first wins).
    fault(cond, kind, pc) {
      faultSites.push({ pc, kind });
      const yes = m.allocateId(), done = m.allocateId();
      m.OpSelectionMerge(done, 'None');
      m.OpBranchConditional(cond, yes, done);
      m.label(yes);
      const word = m.OpConvertUToPtr(psbU32, m.OpIAdd(tU64, sinkPtr, c64(BigInt(SINK.fault))));
      m.OpAtomicCompareExchange(tU32, word, c32(1), c32(0), c32(0), c32(faultSites.length), c32(0));
      m.OpBranch(done);
      m.label(done);
    },
    // The interpreter's order for one store instruction: of several lanes writing a byte, the
    // highest active lane's value stays. Each lane publishes (address, EXEC bit), then looks at
    // every higher lane: byte k is this lane's to write unless a higher active lane's n-byte store
    // covers it ((a + k - a_j) mod 2^64 < n).
    storeWinners(active, a, n) {
      if (addrVar === undefined || shPtr64 === undefined) throw new CompileError('internal: a byte store without the address exchange');
      m.OpStore(m.OpAccessChain(shPtr64, addrVar, lane), a);
      m.OpStore(m.OpAccessChain(shPtr, shVar, lane), m.OpSelect(tU32, active, c32(1), c32(0)));
      barrier();
      const jv = m.OpVariable(fnPtr(tU32), 'Function');
      const cov = Array.from({ length: n }, () => m.OpVariable(fnPtr(tBool), 'Function'));
      m.OpStore(jv, m.OpIAdd(tU32, lane, c32(1)));
      for (const c of cov) m.OpStore(c, cBool(false));
      const hdr = m.allocateId(), body = m.allocateId(), next = m.allocateId(), done = m.allocateId();
      m.OpBranch(hdr);
      m.label(hdr);
      const j = m.OpLoad(tU32, jv);
      const more = m.OpULessThan(tBool, j, c32(ws));
      m.OpLoopMerge(done, next, 'None');
      m.OpBranchConditional(more, body, done);
      m.label(body);
      const aj = m.OpLoad(tU64, m.OpAccessChain(shPtr64, addrVar, j));
      const actj = m.OpINotEqual(tBool, m.OpLoad(tU32, m.OpAccessChain(shPtr, shVar, j)), c32(0));
      cov.forEach((c, k) => {
        const d = m.OpISub(tU64, k === 0 ? a : m.OpIAdd(tU64, a, c64(BigInt(k))), aj);
        m.OpStore(c, m.OpLogicalOr(tBool, m.OpLoad(tBool, c), m.OpLogicalAnd(tBool, actj, m.OpULessThan(tBool, d, c64(BigInt(n))))));
      });
      m.OpBranch(next);
      m.label(next);
      m.OpStore(jv, m.OpIAdd(tU32, j, c32(1)));
      m.OpBranch(hdr);
      m.label(done);
      const mine = cov.map((c) => m.OpLogicalAnd(tBool, active, m.OpLogicalNot(tBool, m.OpLoad(tBool, c))));
      barrier();
      return mine;
    },
    // A ballot: every lane clears the word, ORs in its bit (atomically), and reads the word back;
    // barriers between the steps (all lanes of the workgroup = the wave take part: uniform flow).
    ballot(bit, hi) {
      if (hi && ws === 32) return c32(0);
      const word = m.OpAccessChain(shPtr, balVar, c32(hi ? 1 : 0));
      const scope = c32(2), none = c32(0);
      m.OpAtomicStore(word, scope, none, c32(0));
      barrier();
      const mine = hi ? m.OpUGreaterThanEqual(tBool, lane, c32(32)) : m.OpULessThan(tBool, lane, c32(32));
      const shifted = m.OpShiftLeftLogical(tU32, c32(1), m.OpBitwiseAnd(tU32, lane, c32(31)));
      m.OpAtomicOr(tU32, word, scope, none, m.OpSelect(tU32, m.OpLogicalAnd(tBool, bit, mine), shifted, c32(0)));
      barrier();
      const r = m.OpAtomicLoad(tU32, word, scope, none);
      barrier();
      return r;
    },
    // Through one dword per lane of workgroup memory, between barriers.
    readLane(v, which) {
      m.OpStore(m.OpAccessChain(shPtr, shVar, lane), v);
      barrier();
      const r = m.OpLoad(tU32, m.OpAccessChain(shPtr, shVar, which));
      barrier();
      return r;
    },
    // The interpreter's order for one atomic instruction: lanes in ascending order. Each lane
    // publishes its address, EXEC bit, data and compare; the lowest active lane of each address
    // (its leader) then does the atomics of every active lane on that address, in ascending lane
    // order, and leaves each one's old value in that lane's slot; after a barrier every lane takes
    // its own. Lanes on distinct addresses are their own leaders. The lane loop is DontUnroll:
    // lavapipe unrolled its constant trip count, and 16 atomics took 37 s to compile.
    atomic(active, a, n, data, cmp, body) {
      if (addrVar === undefined || shPtr64 === undefined || atomicVars === undefined) throw new CompileError('internal: an atomic without the lane exchange');
      const ptrType = n === 8 ? psbU64 : psbU32;
      if (ptrType === undefined) throw new CompileError('internal: a 64-bit atomic without its pointer type');
      const t = n === 8 ? tU64 : tU32;
      const wide = (x: Id) => (n === 8 ? x : m.OpUConvert(tU64, x));
      const narrow = (x: Id) => (n === 8 ? x : m.OpUConvert(tU32, x));
      const slot = (v: Id, k: Id) => m.OpAccessChain(shPtr64, v, k);
      m.OpStore(slot(addrVar, lane), a);
      m.OpStore(m.OpAccessChain(shPtr, shVar, lane), m.OpSelect(tU32, active, c32(1), c32(0)));
      m.OpStore(slot(atomicVars.data, lane), wide(data));
      if (cmp !== undefined) m.OpStore(slot(atomicVars.cmp, lane), wide(cmp));
      // With device memory semantics too: an earlier instruction's atomics (by other leaders) come first.
      m.OpControlBarrier(c32(2), c32(2), c32(0x148));
      const pre = m.allocateId(), hdr = m.allocateId(), body0 = m.allocateId(), next = m.allocateId(), done = m.allocateId(), go = m.allocateId(), skip = m.allocateId();
      const jn = m.allocateId(), leadN = m.allocateId();
      m.OpBranch(pre);
      m.label(pre);
      m.OpBranch(hdr);
      m.label(hdr);
      const j = m.OpPhi(tU32, c32(0), pre, jn, next);
      const lead = m.OpPhi(tBool, active, pre, leadN, next);
      const more = m.OpULessThan(tBool, j, c32(ws));
      m.OpLoopMerge(done, next, 'DontUnroll');
      m.OpBranchConditional(more, body0, done);
      m.label(body0);
      const same = m.OpLogicalAnd(tBool, m.OpINotEqual(tBool, m.OpLoad(tU32, m.OpAccessChain(shPtr, shVar, j)), c32(0)), m.OpIEqual(tBool, m.OpLoad(tU64, slot(addrVar, j)), a));
      const below = m.OpULessThan(tBool, j, lane);
      // Below this lane: an active lane on the same address leads instead. From this lane up: the leader's work.
      m.emit('OpLogicalAnd', [tBool, lead, m.OpLogicalNot(tBool, m.OpLogicalAnd(tBool, below, same))], leadN);
      const mine = m.OpLogicalAnd(tBool, m.OpLogicalAnd(tBool, m.OpLogicalNot(tBool, below), leadN), same);
      m.OpSelectionMerge(skip, 'None');
      m.OpBranchConditional(mine, go, skip);
      m.label(go);
      const dj = narrow(m.OpLoad(tU64, slot(atomicVars.data, j)));
      const cj = cmp !== undefined ? narrow(m.OpLoad(tU64, slot(atomicVars.cmp, j))) : undefined;
      m.OpStore(slot(atomicVars.old, j), wide(body(m.OpConvertUToPtr(ptrType, a), dj, cj)));
      m.OpBranch(skip);
      m.label(skip);
      m.OpBranch(next);
      m.label(next);
      m.emit('OpIAdd', [tU32, j, c32(1)], jn);
      m.OpBranch(hdr);
      m.label(done);
      barrier();
      // No barrier after this read: the next exchange writes only this lane's own slots before its
      // first barrier, and the leaders write other lanes' slots only after it.
      return m.OpSelect(t, active, narrow(m.OpLoad(tU64, slot(atomicVars.old, lane))), n === 8 ? c64(0n) : c32(0));
    },
  };
  // The control flow: structured where the CFG is reducible, else the state machine.
  const plan = options.stateMachine ? undefined : planStructuredFlow(fn, EVERYWHERE);
  const controlFlow = !plan || 'irreducible' in plan ? 'state machine' : 'structured';
  if (!plan || 'irreducible' in plan) emitStateMachine(sc, kernel, fn);
  else emitStructured(sc, kernel, fn, plan);
  m.OpFunctionEnd();
  fn.helpers.forEach((h, k) => emitHelper(sc, h, helperFns[k] as Id));
  return { spirv: m.assemble(), floatOps, faultSites, controlFlow };
}

/** A helper as a SPIR-V function: its parameters, then its one block of pure code, returning the value. */
function emitHelper(sc: Scalars, h: IrFunction, id: Id): void {
  const { m } = sc;
  const sig = signature(h);
  if (!sig.ret || h.blocks.length !== 1) throw new CompileError(`helper ${h.name}: only one-block helpers with a result are emitted`);
  const ret = sc.typeOf(sig.ret);
  const params = sig.params.map((t) => sc.typeOf(t));
  m.emit('OpFunction', [ret, 'None', m.OpTypeFunction(ret, ...params)], id);
  m.OpName(id, h.name);
  const paramIds = params.map((t) => m.OpFunctionParameter(t));
  m.OpLabel();
  const vals = new Map<Inst, Id>();
  for (const i of h.blocks[0]?.insts ?? []) {
    const A = (k: number): Id => {
      const a = i.args[k];
      const v = a ? vals.get(a) : undefined;
      if (!v) throw new CompileError(`helper ${h.name}: ${i.op} argument ${k} has no value`, i.pc);
      return v;
    };
    if (i.op === 'Param') vals.set(i, paramIds[Number(i.imms[0])] ?? A(-1));
    else if (i.op === 'Return') m.OpReturnValue(A(0));
    else { const v = emitOp(sc, undefined, i, A); if (v) vals.set(i, v); }
  }
  m.OpFunctionEnd();
}
