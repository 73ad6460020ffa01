// The recompiler's library entry point: decode, CFG, MODE analysis, translation to IR, passes,
// SPIR-V emission, in that order. Core (no Node APIs).
import type { Shader } from '../container/shader.js';
import type { ShaderInfo } from '../container/shader-info.js';
import { buildCfg, instructionAt } from '../analysis/cfg.js';
import { analyzeMode, type ModeAnalysis } from '../analysis/mode.js';
import type { Cfg, Diagnostic } from '../analysis/types.js';
import { translate } from '../frontend/index.js';
import { copiedPcs } from '../frontend/dynamic-mode.js';
import { FLOAT_BITS } from '../frontend/mode-reads.js';
import { type Block, ByModeAndOp, type Inst, type IrFunction } from '../ir/ir.js';
import { LAVAPIPE_PROFILE, type TargetProfile } from './profile.js';
import { clockRefusal, CompileError, emitSpirv } from './spirv/emit.js';
import type { LaneExchange } from './lane-exchange.js';
import { guardedAvailable, guardedF64Available, planFloatControlsOf } from './spirv/float-controls.js';
import { isLowered, lowerFloat } from '../ir/passes/lower-float.js';
import { GUARDED_F32, GUARDED_VIA_F64 } from '../ir/passes/lower-float-guarded.js';
import { eliminateDeadCode } from '../ir/passes/dce.js';
import { eliminateCommonSubexpressions, hoistArgumentFree } from '../ir/passes/cse.js';
import { foldConstants } from '../ir/passes/fold.js';
import type { Op } from '../ir/ops.js';
import { faultMessage } from '../ir/faults.js';
import { printInstruction } from '../disasm/index.js';

export interface RecompileOptions {
  readonly profile?: TargetProfile;
  /** Emit the control flow as the state machine even where the CFG is reducible (comparisons, benchmarks). */
  readonly stateMachine?: boolean;
  /** The LDS the dispatches have (static plus the __local arguments' dynamic part; default the kernel's static size): accesses at or beyond it read 0 and write nothing. */
  readonly ldsBytes?: number;
  /**
   * The most work-items a workgroup of the dispatches has (default maxWorkItems: the kernel's
   * required or maximum workgroup size). The workgroup layout (LDS, s_barrier) keeps a slot per
   * wave of it for every value a wave carries across a barrier; a module compiled for fewer holds
   * fewer (drivers refuse modules whose per-invocation arrays grow too large: the H100's
   * refused 32-slot ones). At most the kernel's own bound; the runtime refuses a dispatch with more.
   */
  readonly workItems?: number;
  /**
   * The CFG (buildCfg) and MODE analysis (analyzeMode over that CFG) the caller already has for
   * this very shader, used instead of building them again (the shader cache keys on the CFG;
   * `rdna mode` prints the analysis). They are read only, never changed.
   */
  readonly analyses?: { readonly cfg: Cfg; readonly mode?: ModeAnalysis };
}

export interface RecompileResult {
  readonly spirv: Uint32Array;
  readonly ir: IrFunction;
  readonly diagnostics: readonly Diagnostic[];
  readonly mode: ModeAnalysis;
  /**
   * Each float op and how it runs on the profile: native SPIR-V, 'guarded' (the device's
   * nearest-even op with an exact error term where operands and result are far from denormals and
   * overflow, the exact integer code for the other lanes: src/ir/passes/lower-float-guarded.ts),
   * emulated exactly in integer code, or 'dynamic': its MODE is only known at run time, so it was
   * translated once per possible MODE value (`variants` copies behind a branch on MODE, `emulated`
   * of them emulated and `guarded` guarded; one record per op of the instruction,
   * src/frontend/dynamic-mode.ts).
   */
  readonly floatOps: readonly FloatOpLowering[];
  /** The run-time fault sites (fault word value - 1): pc, instruction text and message (src/ir/faults.ts). */
  readonly faults: readonly RecompiledFault[];
  /** How the kernel's control flow was emitted: structured (a reducible CFG) or as the state machine. */
  readonly controlFlow: 'structured' | 'state machine';
  /** What one Vulkan workgroup of the module runs: one RDNA wave, or a whole RDNA workgroup (LDS, s_barrier; emit.ts). */
  readonly dispatch: 'wave' | 'workgroup';
  /** How the lanes exchange values (subgroup operations or workgroup memory) and why (src/backend/lane-exchange.ts). */
  readonly laneExchange: LaneExchange;
  /** The most work-items a workgroup of a dispatch of this module may have (RecompileOptions.workItems). */
  readonly workItems: number;
  /**
   * The code object's image the module addresses (PUSH.imagePtr: a buffer of these bytes, shader.image,
   * at the device address the host gives), when the code forms addresses into it (s_getpc_b64).
   */
  readonly codeImage?: { readonly base: number; readonly size: number };
}

export type FloatOpLowering =
  | { readonly pc: number | undefined; readonly op: Op; readonly lowering: 'native' | 'guarded' | 'emulated' }
  | { readonly pc: number; readonly op: Op; readonly lowering: 'dynamic'; readonly variants: number; readonly emulated: number; readonly guarded?: number };

export interface RecompiledFault { readonly pc: number; readonly instruction: string; readonly message: string }

/** The most work-items a workgroup of the kernel can have: its required size, its metadata's maximum, else RDNA's 1,024. */
export function maxWorkItems(info: ShaderInfo): number {
  if (info.workgroupSize) return info.workgroupSize[0] * info.workgroupSize[1] * info.workgroupSize[2];
  return Math.min(1024, info.maxWorkgroupSize ?? 1024);
}

/** Throws TranslateError / CompileError (with the pc) for what the slice does not cover. */
export function recompile(shader: Shader, options: RecompileOptions = {}): RecompileResult {
  const bound = maxWorkItems(shader.info);
  const workItems = options.workItems ?? bound;
  if (!Number.isInteger(workItems) || workItems < 1 || workItems > bound) {
    throw new CompileError(`workgroups of ${workItems} work-items: the kernel allows 1 to ${bound} (its required or maximum workgroup size)`);
  }
  const cfg = options.analyses?.cfg ?? buildCfg(shader);
  const mode = options.analyses?.mode ?? analyzeMode(shader, cfg);
  const ir = translate(shader, cfg, mode);
  const profile = options.profile ?? LAVAPIPE_PROFILE;
  // One pass over the instructions (indexed loops: recompile runs once per kernel, mostly
  // unoptimised, where for…of makes an iterator result per instruction): a clock read (s_memtime,
  // s_memrealtime) the profile has no clock for is refused in one line with the instruction
  // (emit.ts clockRefusal names the feature); whether there are float ops, and code addresses.
  // The float ops, in block and instruction order (made at the first: most kernels have none).
  let floats: Inst[] | undefined, codeAddresses = false;
  for (let bk = 0; bk < ir.blocks.length; bk++) for (let k = 0, insts = (ir.blocks[bk] as Block).insts; k < insts.length; k++) {
    const i = insts[k] as Inst;
    if (i.float) (floats ??= []).push(i);
    if (i.op === 'CodeAddress') codeAddresses = true;
    else if (i.op === 'ReadClock') {
      const why = clockRefusal(i, profile);
      if (why) throw clockError(i.pc, why);
    }
  }
  // Outside the loop: a closure in it capturing `i` made V8 allocate `i` anew for every instruction.
  function clockError(pc: number | undefined, why: string): CompileError {
    const x = pc === undefined ? undefined : instructionAt(cfg, pc);
    return new CompileError(`${x ? printInstruction(x, shader.info.target) : 'ReadClock'}: ${why}`, pc);
  }
  // Float ops the device cannot express in their MODE become exact integer code (most kernels
  // have no float op: none of that work, and none of its sets and maps, for them).
  const floatOps: FloatOpLowering[] = [];
  const outcome = { settled: true, hoist: false };
  const lowered = floats ? lowerFloatOps(ir, floats, cfg, mode, profile, floatOps, outcome) : 0;
  if (lowered > 0 && outcome.settled) {
    // A lowering that left fold and CSE nothing to do (lowerFloat's outcome: the usual case, ops of
    // one mode on registers' bits) leaves only dead code: the operands' casts to float, the
    // results' casts back; and the constants of float constants' bits made outside the entry
    // block, which CSE's first step moves there (hoist). A second fold and CSE over the whole
    // function would find nothing more.
    if (outcome.hoist) hoistArgumentFree(ir);
    eliminateDeadCode(ir);
  } else {
    // The call sites' bit casts of constants fold; then the repeats merge. With nothing lowered or
    // folded the IR is what the frontend's passes left (CSE, then DCE, which only removes): a second
    // CSE and DCE would find nothing, so they are skipped.
    const folded = foldConstants(ir);
    if (lowered > 0 || folded > 0) {
      // The predecessors translate's SSA construction computed: no pass since (CSE, DCE, the
      // lowering, fold) changes a terminator or adds a block.
      eliminateCommonSubexpressions(ir, true);
      eliminateDeadCode(ir);
    }
  }
  const { spirv, faultSites, controlFlow, dispatch, laneExchange } = emitSpirv(ir, profile, { stateMachine: options.stateMachine ?? false, ldsBytes: options.ldsBytes ?? shader.info.ldsSize, scratchBytes: shader.info.scratchSize, maxWorkItems: workItems });
  // The fault sites with their instructions' text (most kernels have none), each instruction
  // found by its pc (instructionAt: no table of every instruction by pc for a few sites).
  const faults = new Array<RecompiledFault>(faultSites.length);
  for (let k = 0; k < faultSites.length; k++) {
    const f = faultSites[k] as (typeof faultSites)[number];
    const x = instructionAt(cfg, f.pc);
    faults[k] = { pc: f.pc, instruction: x ? printInstruction(x, shader.info.target) : '', message: faultMessage(f.kind) };
  }
  // The passes make no code address, but may remove one: looked for again where there was one.
  const image = shader.image && codeAddresses && ir.blocks.some((b) => b.insts.some((i) => i.op === 'CodeAddress')) ? { base: shader.image.base, size: shader.image.bytes.length } : undefined;
  // No spreads (an iterator per array, an object copy): this runs once per kernel, mostly unoptimised.
  const result: { -readonly [K in keyof RecompileResult]: RecompileResult[K] } = { spirv, ir, diagnostics: cfg.diagnostics.concat(mode.diagnostics), mode, floatOps, faults, controlFlow, dispatch, laneExchange, workItems };
  if (image) result.codeImage = image;
  return result;
}


/** What lowerFloatOps makes of a float op: native; guarded; emulated; not native, yet no op lowerFloat lowers (reported native). */
const KIND_NATIVE = 0, KIND_GUARDED = 1, KIND_EMULATED = 2, KIND_UNLOWERED = 3;

/**
 * The float ops' lowering: each op's record pushed to `floatOps` (sorted by pc), those the
 * profile cannot run natively lowered (lowerFloat); how many were lowered. `floats`: the
 * function's float ops (`i.float` set) in block and instruction order (recompile's walk found them).
 * `outcome`: lowerFloat's (whether only dead code is left to remove).
 */
function lowerFloatOps(ir: IrFunction, floats: readonly Inst[], cfg: Cfg, mode: ModeAnalysis, profile: TargetProfile, floatOps: FloatOpLowering[], outcome: { settled: boolean; hoist: boolean }): number {
  // The instructions translated once per run-time MODE value (a run's copies), found at the first float op with a pc.
  let copied: Set<number> | undefined;
  // The copies of one instruction under a run-time MODE: by pc, then op (made at the first: most kernels have none).
  let dynamic: Map<number, Map<Op, { variants: number; emulated: number; guarded?: number }>> | undefined;
  // One rounding and one denormal mode for the whole entry point: the ops under another are lowered.
  const { native, controls } = planFloatControlsOf(floats, profile);
  // The add/sub/mul that are not native run guarded where the device offers nearest even (lower-float-guarded.ts).
  const canGuard = guardedAvailable(profile, controls);
  // ... and the fmas through f64 where the device offers f64 nearest even too.
  const canGuard64 = guardedF64Available(profile, controls);
  // An op is lowered where it is not native, and guarded where it is lowered and has a guarded
  // form the device can run (guardedOp). lowerFloat asks once per op and FloatMode record (its
  // sites), as the loop below does, no table by instruction id (a typed array the size of the
  // function, made per kernel, cost more than the probes of a few dozen ops).
  const guardedOp = (op: Op): boolean => (canGuard && GUARDED_F32.has(op)) || (canGuard64 && GUARDED_VIA_F64.has(op));
  // Without a MODE write in the reachable code (no transition) every instruction runs under the
  // launch MODE: where that knows every float bit, no instruction is copied (dynamicAt's answer at
  // every pc, found once here, not by a lookup and a search per float op).
  const copies = mode.transitions.length > 0 || (FLOAT_BITS & ~mode.initial.mode.known) !== 0;
  // What each op becomes is decided by its op and FloatMode record alone (the plan's classOf reads
  // nothing else of an op): found once per pair, not by a probe of `native` and of the op sets at
  // every op of a float-heavy kernel.
  const kinds = new ByModeAndOp<number>();
  const kindOf = (i: Inst): number => (native.has(i) ? KIND_NATIVE : guardedOp(i.op) ? KIND_GUARDED : isLowered(i.op) ? KIND_EMULATED : KIND_UNLOWERED);
  let toLower = 0, sorted = true, lastPc = -1;
  for (let k = 0; k < floats.length; k++) {
    const i = floats[k] as Inst;
    const kind = kinds.get(i, kindOf);
    const lower = kind !== KIND_NATIVE, guard = kind === KIND_GUARDED, emulated = kind === KIND_EMULATED;
    if (lower) toLower++;
    const lowering = guard ? 'guarded' : emulated ? 'emulated' : 'native';
    const x = copies && i.pc !== undefined ? dynamicAt(i.pc) : undefined;
    if (x) {
      const r = x.get(i.op) ?? { variants: 0, emulated: 0 };
      r.variants++;
      if (emulated && !guard) r.emulated++;
      if (guard) r.guarded = (r.guarded ?? 0) + 1;
      x.set(i.op, r);
    } else {
      floatOps.push({ pc: i.pc, op: i.op, lowering });
      const at = i.pc ?? -1;
      if (at < lastPc) sorted = false;
      lastPc = at;
    }
  }
  if (dynamic) {
    sorted = false;
    for (const [pc, ops] of dynamic) for (const [op, r] of ops) floatOps.push({ pc, op, lowering: 'dynamic', ...r });
  }
  // Sorted by pc (a stable sort: records of one pc keep their order). The ops come in block order,
  // mostly already by pc: then the sort, whose comparator ran per pair, would change nothing.
  if (!sorted) floatOps.sort((a, b) => (a.pc ?? -1) - (b.pc ?? -1));
  function dynamicAt(pc: number): Map<Op, { variants: number; emulated: number; guarded?: number }> | undefined {
    const hit = dynamic?.get(pc);
    if (hit) return hit;
    // Every instruction copiedPcs names has a float MODE bit unknown before it (a run's
    // instructions all read the same unknown bits, src/frontend/dynamic-mode.ts runEnd): where the
    // analysis knows them all (most kernels, every instruction) the pc is not copied, and the walk
    // of every instruction that finds the copies is not made.
    const st = mode.before(pc);
    if (st === undefined || (FLOAT_BITS & ~st.mode.known) === 0) return undefined;
    copied ??= copiedPcs(mode, cfg.blocks);
    if (!copied.has(pc)) return undefined;
    const m = new Map<Op, { variants: number; emulated: number; guarded?: number }>();
    (dynamic ??= new Map()).set(pc, m);
    return m;
  }
  // The transcendentals' f64 steps as device ops under the same condition as the guarded fma (lower-float-transcendental.ts).
  return toLower === 0 ? 0 : lowerFloat(ir, (i) => !native.has(i), (i) => guardedOp(i.op), { transcendental: canGuard64 ? 'device' : 'exact', outcome });
}
