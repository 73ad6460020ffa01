// RDNA2 shader → IR: the launch state in its own entry block, then one IR block per CFG block,
// each instruction through its unit's translator, block ends from the CFG (branches on uniform
// conditions, fallthroughs, s_endpgm; calls, jumps and returns through ./calls.ts), then the
// pass pipeline (SSA, folding, DCE, verification).
// An instruction without a translator fails with its pc and text.
import type { BasicBlock, Cfg, Edge, EdgeKind } from '../analysis/types.js';
import type { ModeAnalysis } from '../analysis/mode.js';
import type { Shader } from '../container/shader.js';
import { unboundedStackReason } from '../container/shader-info.js';
import { printInstruction } from '../disasm/index.js';
import { type Block, Builder, type Inst, IrFunction, listOf, NO_ARGS } from '../ir/ir.js';
import { runPasses } from '../ir/passes/index.js';
import { emitLaunchState } from './abi.js';
import { BlockBuilder, type ConstPlace, EXEC_LO, type OperandLayout, operandLayout, placeConstants, TContext, type Translator, VCC_LO } from './context.js';
import { TranslateError } from './errors.js';
import { TRANSFERS, translateTransfer } from './calls.js';
import { callFlow } from '../analysis/calls.js';
import { hasDynamicMode, modeVariants, runEnd } from './dynamic-mode.js';
import type { Instruction, Operand, OperandValue } from '../decode/types.js';
import { BUFFER } from './units/buffer.js';
import { DS } from './units/ds.js';
import { MEMORY } from './units/memory.js';
import { MIMG } from './units/mimg.js';
import { SALU } from './units/salu.js';
import { VALU } from './units/valu.js';
import { HWREG_UNIT } from './units/hwreg.js';
import { VALU_F16 } from './units/valu-f16.js';
import { VALU_F64 } from './units/valu-f64.js';
import { VALU_INT16 } from './units/valu-int16.js';
import { VALU_FLOAT_MISC } from './units/valu-float-misc.js';
import { VALU_LANES } from './units/valu-lanes.js';
import { VALU_DOT } from './units/valu-dot.js';
import { VALU_SAD } from './units/valu-sad.js';
import { MOVREL } from './units/movrel.js';
import { FAULT_CODE_END, FAULT_HALT, FAULT_ILLEGAL, FAULT_KILL, FAULT_TRAP } from '../ir/faults.js';
import { NO_FLAGS, type InstrDef } from '../isa/types.js';

const UNITS: readonly Record<string, Translator>[] = [SALU, VALU, VALU_F64, VALU_F16, VALU_INT16, VALU_FLOAT_MISC, VALU_LANES, VALU_DOT, VALU_SAD, MOVREL, MEMORY, BUFFER, MIMG, DS, HWREG_UNIT];
/** Every unit's translators by mnemonic (a Map: looked up at every instruction by a mnemonic that varies). */
const TRANSLATORS = new Map<string, Translator>();
for (const u of UNITS) for (const [k, t] of Object.entries(u)) {
  if (TRANSLATORS.has(k)) throw new Error(`frontend: two units translate ${k}`);
  TRANSLATORS.set(k, t);
}

/**
 * Instructions with no effect on what a kernel computes. Besides the waits and hints: by the AMD ISA
 * references' SOPP and VOP1 texts (RDNA3's wording where RDNA2's was not at hand), s_wait_idle ("wait for all activity in the wave to
 * complete": ordering only, and the translation keeps no access in flight across an instruction
 * that s_waitcnt does not already give), s_incperflevel / s_decperflevel ("increment / decrement
 * performance counter specified in SIMM16[3:0]": counters the program cannot read),
 * s_ttracedata / s_ttracedata_imm ("send M0 / SIMM16 as user data to the thread trace stream": the
 * tracing hardware, not the program), v_pipeflush ("flush the VALU destination cache": a hardware
 * cache of results) and v_clrexcp ("clear wave's exception state": TRAPSTS.EXCP, readable only
 * through s_getreg of HW_REG_TRAPSTS, which is not translated; no exception flags are modelled).
 * s_wakeup ("wake up all the other waves in its workgroup from an S_SLEEP": s_sleep is nothing in
 * both engines, no wave is ever asleep). The interpreter runs each as nothing too
 * (src/interp/units/flow.ts, valu-lanes.ts). Not here: s_sethalt and s_setkill (nothing with
 * simm16 bit 0 clear, a fault with it set: below), s_code_end (below: a fault).
 */
const NO_EFFECT = new Set(['s_nop', 's_waitcnt', 's_waitcnt_vscnt', 's_waitcnt_vmcnt', 's_waitcnt_lgkmcnt', 's_waitcnt_expcnt', 's_clause', 's_inst_prefetch', 's_sleep', 's_setprio', 's_waitcnt_depctr', 's_icache_inv',
  's_wait_idle', 's_incperflevel', 's_decperflevel', 's_ttracedata', 's_ttracedata_imm', 'v_pipeflush', 'v_clrexcp', 's_wakeup']);

export function translate(shader: Shader, cfg: Cfg, mode: ModeAnalysis): IrFunction {
  const unbounded = unboundedStackReason(shader.info);
  if (unbounded !== undefined) throw new TranslateError(unbounded);
  // Indexed: translate runs once per kernel, mostly unoptimised, where for…of makes an iterator.
  const diagnostics = cfg.diagnostics;
  for (let k = 0; k < diagnostics.length; k++) {
    const d = diagnostics[k] as Cfg['diagnostics'][number];
    if (d.severity === 'error') throw new TranslateError(`${d.message} [${d.code}]`, d.pc, d.instruction, d.words);
  }
  // Where no instruction may write EXEC, each lane's EXEC bit is the launch's (BlockBuilder.execShared).
  // Where every write of EXEC narrows it and no instruction reads another lane, a VGPR write needs
  // no EXEC select (BlockBuilder.execNarrow). The scan is a quick judgement by mnemonic and
  // operands; the builders see every write of EXEC, and one it did not approve (`written`,
  // `violated`), or a lane-crossing op after all (IrFunction.crossLane), has the function
  // translated again the general way.
  const row = planRow(cfg);
  if ((row & ROW_EXEC) === 0 || ((row & ROW_EXEC_OTHER) === 0 && (row & ROW_CROSS) === 0)) {
    const fn = translateBlocks(shader, cfg, mode, (row & ROW_EXEC) === 0 ? 'shared' : 'narrow');
    if (fn !== undefined) return fn;
  }
  return translateBlocks(shader, cfg, mode, 'general') as IrFunction;
}

/**
 * The function of the CFG's blocks, its passes run. `exec`: 'shared', every lane bit of EXEC the
 * launch's (BlockBuilder.execShared), undefined if an instruction wrote EXEC after all; 'narrow',
 * VGPR writes under this lane's EXEC bit without a select (BlockBuilder.execNarrow), undefined if
 * an instruction planRow did not approve wrote EXEC or a lane-crossing op was made.
 */
function translateBlocks(shader: Shader, cfg: Cfg, mode: ModeAnalysis, exec: 'shared' | 'narrow' | 'general'): IrFunction | undefined {
  const target = shader.info.target;
  const text = (i: Parameters<typeof printInstruction>[0]) => printInstruction(i, target);
  const fn = new IrFunction(shader.info.name, shader.info.waveSize);
  const entry = fn.addBlock();
  // Indexed: `map` with a closure, run once per translate, stays unoptimised in a fresh process.
  const cfgBlocks = cfg.blocks;
  const blocks: Block[] = listOf();
  for (let k = 0; k < cfgBlocks.length; k++) blocks.push(fn.addBlock((cfgBlocks[k] as BasicBlock).start));
  const irBlock = (cfgId: number) => (blocks[cfgId] ?? entry).id;
  const eb = new Builder(fn, entry);
  const launchBit = emitLaunchState(eb, shader);
  const execShared = exec === 'shared' ? { bit: launchBit, written: false } : undefined;
  const execNarrow = exec === 'narrow' ? { pcs: NARROWING, violated: false } : undefined;
  eb.emit('Branch', NO_ARGS, listOf(irBlock(cfg.entry)));
  // The code object's image, where the code can reach it: by an s_getpc_b64-relative address.
  const image = shader.image && hasGetpc(cfg) ? { base: shader.image.base, size: shader.image.bytes.length } : undefined;
  const context = (bb: BlockBuilder, blockOf: (pc: number) => number) => {
    const c = new TContext(bb, shader, mode, text, blockOf);
    c.codeImage = image;
    return c;
  };
  const flow = callFlow(cfg);
  // The CFG blocks by start pc, made at the first question (a table of every block per translate,
  // which few translations ask).
  let blockAt: Map<number, number> | undefined;
  const blockOf = (pc: number) => {
    if (blockAt === undefined) { blockAt = new Map<number, number>(); for (const x of cfg.blocks) blockAt.set(x.start, x.id); }
    return irBlock(blockAt.get(pc) ?? -1);
  };
  // One builder and context for all the blocks, each block starting it over (BlockBuilder.reset):
  // a builder's tables and a context per block were most of what translate allocated for branchy
  // code. Made at the first reachable block.
  let b: BlockBuilder | undefined;
  let cx: TContext | undefined;
  const constPlace: ConstPlace = { block: entry, made: listOf() };
  // Indexed: before V8 optimises translate, each step of a for…of allocates an iterator result.
  // The block's first instruction's index in PLAN_ROW (which has every block's, in this order).
  let next = 0;
  for (let bk = 0; bk < cfgBlocks.length; bk++) {
    const cb = cfgBlocks[bk] as BasicBlock;
    const first = next;
    next += cb.instructions.length;
    const ib = blocks[cb.id];
    if (!ib) continue;
    if (!flow.reachable[cb.id]) {
      // No run-time path reaches it: the CFG reaches it only past a call whose callee never
      // returns (src/analysis/calls.ts), so its code is never run.
      new Builder(fn, ib).emit('EndProgram');
      continue;
    }
    if (b === undefined || cx === undefined) { b = new BlockBuilder(fn, ib); b.constPlace = constPlace; b.execShared = execShared; b.execNarrow = execNarrow; cx = context(b, blockOf); }
    else b.reset(ib, undefined);
    let ended = false;
    const insts = cb.instructions;
    for (let j = 0; j < insts.length; j++) {
      const inst = insts[j] as Instruction;
      b.pc = inst.pc;
      cx.inst = inst;
      const plan = PLAN_ROW[first + j] as Plan;
      cx.layout = plan.layout;
      // Most instructions neither end nor leave the block nor stop the wave, and are no float
      // instructions (the only ones a MODE known at run time copies): translateSpecial's questions
      // asked one by one, for them, were a twentieth of a small kernel's translation before V8 optimised it.
      if (plan.plain) {
        if (!plan.float || !hasDynamicMode(mode, inst)) {
          // translateOne's common case here (no call): a translator of a form without DPP or SDWA,
          // whose checks after the translator ask nothing.
          const t = plan.translator, v = inst.variant;
          if (t !== undefined && !plan.noEffect && v !== 'dpp16' && v !== 'dpp8' && v !== 'sdwa') t(cx);
          else translateOne(cx, inst, plan);
          continue;
        }
      }
      // The rest (block ends, stops, barriers, runs under a run-time MODE) in a function of its own:
      // they come about once per block, and kept here they made translateBlocks' bytecode 1.7 times
      // as large (1,778 bytes against 1,020), all of it compiled again at each deoptimisation.
      const r = translateSpecial(fn, b, cx, cfg, cb, irBlock, mode, insts, j, plan, context);
      if (r < 0) { ended = true; break; }
      j = r;
    }
    if (!ended) {
      const fall = succOf(cb, 'fallthrough');
      if (!fall) throw new TranslateError(`block at 0x${cb.start.toString(16)} has no way out (exit ${cb.exit ?? 'none'})`, cb.start);
      b.pc = undefined;
      b.emit('Branch', NO_ARGS, listOf(irBlock(fall.to)));
    }
  }
  b?.release();
  if (execShared !== undefined && execShared.written) return undefined;
  if (execNarrow !== undefined && (execNarrow.violated || fn.crossLane)) return undefined;
  if (execShared !== undefined && !fn.crossLane) fn.fixedExec = execShared.bit;
  placeConstants(constPlace);
  runPasses(fn);
  return fn;
}

/**
 * An instruction of translate's loop that is not `plain` or runs under a MODE known only at run
 * time: -1 if it ended the block, else the index of the last instruction it translated (`j`, or
 * the end of a run of MODE copies).
 */
function translateSpecial(fn: IrFunction, b: BlockBuilder, cx: TContext, cfg: Cfg, cb: BasicBlock, irBlock: (cfgId: number) => number, mode: ModeAnalysis, insts: readonly Instruction[], j: number, plan: Plan,
  context: (bb: BlockBuilder, blockOf: (pc: number) => number) => TContext): number {
  const inst = insts[j] as Instruction;
  const m = inst.def.mnemonic;
  if (plan.end) {
    // s_code_end is the padding after the code: reaching it stops the interpreter with an
    // error (src/interp/units/flow.ts), here a fault (the run fails) before the end.
    if (m === 's_code_end') b.emit('Fault', listOf(b.u1(true)), listOf(FAULT_CODE_END));
    else if (m !== 's_endpgm') throw cx.error(`${m} is not translated`);
    b.emit('EndProgram');
    return -1;
  }
  const stop = plan.stop;
  if (stop !== undefined && (stop.always || simm16Bit0(cx))) {
    // The wave enters the trap handler (s_trap: clang's llvm.trap, an abort; v_illegal: an
    // illegal-instruction exception), halts or is killed: no engine runs a trap handler or a
    // debugger. The interpreter stops with an error (src/interp/units/flow.ts, valu-lanes.ts);
    // here the run fails with a fault, whatever EXEC holds. The CFG gives it no successor.
    b.emit('Fault', listOf(b.u1(true)), listOf(stop.fault));
    b.emit('EndProgram');
    return -1;
  }
  if (stop !== undefined) return j; // s_sethalt 0 / s_setkill 0: the wave runs on.
  if (plan.transfer) {
    translateTransfer(cx, cfg, cb, irBlock);
    return -1;
  }
  if (plan.branch && inst.encoding === 'SOPP') {
    const taken = succOf(cb, 'branch');
    const fall = succOf(cb, 'fallthrough');
    if (m === 's_branch') {
      if (!taken) throw cx.error('branch without a target block');
      b.emit('Branch', NO_ARGS, listOf(irBlock(taken.to)));
    } else {
      const cond = condition(cx, m);
      if (!taken || !fall) throw cx.error('conditional branch without two successors');
      b.emit('BranchCond', listOf(cond), listOf(irBlock(taken.to), irBlock(fall.to)));
    }
    return -1;
  }
  if (plan.barrier) {
    // The wave waits here for its workgroup's other waves: the block ends at the barrier and
    // the wave resumes in the next one (the emitter and the IR interpreter resume it there).
    b.emit('Barrier');
    const next = fn.addBlock(inst.pc);
    b.emit('Branch', NO_ARGS, listOf(next.id));
    b.reset(next, inst.pc);
    return j;
  }
  if (plan.float && hasDynamicMode(mode, inst)) {
    // A run under one run-time MODE value: translated once per value of its unknown bits.
    const k = runEnd(mode, insts, j);
    translateModeCopies(fn, b, cx, mode, insts.slice(j, k + 1), context);
    return k;
  }
  translateOne(cx, inst, plan);
  return j;
}

/** planRow's answer, bits: an instruction may write EXEC; one may write it other than narrowing it; one may read another lane. */
const ROW_EXEC = 1, ROW_EXEC_OTHER = 2, ROW_CROSS = 4;
/** The pcs of the instructions planRow found to narrow EXEC (written over by each translate). */
const NARROWING = new Set<number>();
/** Mnemonics whose translation reads other lanes' values (ReadLane, PermuteLanes); DPP forms too (planRow). A guess the builders check (IrFunction.crossLane). */
const CROSS_LANE = /^(v_readlane|v_readfirstlane|v_permlane|ds_swizzle|ds_permute|ds_bpermute|s_atomic|s_buffer_atomic)/;

/**
 * The plans of the CFG's instructions, every block's in the CFG's order (PLAN_ROW, for
 * translateBlocks: one look-up of each instruction's plan, not one per walk), and (ROW_* bits)
 * whether an instruction may write EXEC: by its definition (`Plan.execWrite`), or an operand that
 * is EXEC (read or written: either counts); whether one of them may do more than narrow it
 * (`narrows`; the pcs of those that narrow it in NARROWING); whether one may read another lane.
 */
function planRow(cfg: Cfg): number {
  const blocks = cfg.blocks, row = PLAN_ROW;
  let n = 0, bits = 0;
  NARROWING.clear();
  for (let k = 0; k < blocks.length; k++) {
    const insts = (blocks[k] as BasicBlock).instructions;
    for (let j = 0; j < insts.length; j++) {
      const inst = insts[j] as Instruction;
      const plan = planOf(inst.def);
      row[n++] = plan;
      if (plan.crossLane || inst.variant === 'dpp16' || inst.variant === 'dpp8') bits |= ROW_CROSS;
      if ((bits & ROW_EXEC_OTHER) !== 0) continue;
      let exec = plan.execWrite;
      if (!exec) {
        const ops = inst.operands;
        for (let o = 0; o < ops.length; o++) {
          const v = (ops[o] as Operand).value;
          if (v.kind === 'special' && (v.code === EXEC_LO || v.code === EXEC_LO + 1)) { exec = true; break; }
        }
      }
      if (!exec) continue;
      bits |= ROW_EXEC;
      const w = execWriteOf(inst);
      if (w === 'narrows') NARROWING.add(inst.pc);
      else if (w === 'other') bits |= ROW_EXEC_OTHER;
    }
  }
  return bits;
}

/**
 * What an instruction that names EXEC (planRow) does to it: 'reads' (EXEC only among its sources),
 * 'narrows' (the new EXEC is within the old in every lane: s_and_saveexec, v_cmpx, s_and of EXEC,
 * s_andn2 from EXEC), or 'other'.
 */
function execWriteOf(inst: Instruction): 'reads' | 'narrows' | 'other' {
  const m = inst.def.mnemonic;
  if (m === 's_and_saveexec_b32' || m === 's_and_saveexec_b64' || m.startsWith('v_cmpx_')) return 'narrows';
  if (planOf(inst.def).execWrite) return 'other';
  const defs = inst.def.operands, ops = inst.operands;
  let written = false;
  for (let o = 0; o < ops.length; o++) {
    const op = ops[o] as Operand, v = op.value;
    if (v.kind !== 'special' || (v.code !== EXEC_LO && v.code !== EXEC_LO + 1)) continue;
    const role = defs.find((d) => d.name === op.name)?.role;
    if (role !== 'src') written = true;
  }
  if (!written) return 'reads';
  // s_and_b32/b64 EXEC, EXEC, x (either source) and s_andn2_b32/b64 EXEC, EXEC, x: sdst the same register as the EXEC source.
  const dst = ops.find((o) => o.name === 'sdst')?.value, s0 = ops.find((o) => o.name === 'ssrc0')?.value, s1 = ops.find((o) => o.name === 'ssrc1')?.value;
  const isDst = (v: OperandValue | undefined) => v !== undefined && dst !== undefined && v.kind === 'special' && dst.kind === 'special' && v.code === dst.code;
  if ((m === 's_and_b32' || m === 's_and_b64') && (isDst(s0) || isDst(s1))) return 'narrows';
  if ((m === 's_andn2_b32' || m === 's_andn2_b64') && isDst(s0)) return 'narrows';
  return 'other';
}
/**
 * planRow's list: the process's, written over by each translate (never cut: V8 gives back the room
 * of a list that shrinks). It holds plans only, the ISA table's (shared by every kernel), no IR.
 */
const PLAN_ROW: Plan[] = [];

/**
 * A run of instructions under a MODE known only at run time (src/frontend/dynamic-mode.ts): a
 * branch on the run's unknown MODE bits to one copy of the run per value of them, each translated
 * under that value, all joining after the run. `b0` (cx's builder) goes on in the join block.
 * Its own function: the copies' closure would otherwise capture the variables of translate's
 * loop, which V8 then allocates for every instruction.
 */
function translateModeCopies(fn: IrFunction, b0: BlockBuilder, cx: TContext, mode: ModeAnalysis, run: readonly Instruction[], context: (bb: BlockBuilder, blockOf: (pc: number) => number) => TContext): void {
  const inst = run[0] as Instruction;
  const b = b0;
  const variants = modeVariants(mode, run);
  if (!variants) throw cx.error('the MODE analysis has no state for this instruction');
  const join = fn.addBlock(inst.pc);
  const key = b.emit('And32', listOf(b.emit('GetMode'), b.u32(variants.unknown)));
  // The copies' builder and context, made at the first copy and moved to each next one (reset):
  // the copy before has ended by then, as `b`'s block has when it moves to the next test.
  let vb: BlockBuilder | undefined;
  let vcx: TContext | undefined;
  variants.candidates.forEach((cand, n) => {
    const copy = fn.addBlock(inst.pc);
    if (n === variants.candidates.length - 1) b.emit('Branch', NO_ARGS, listOf(copy.id));
    else {
      const next = fn.addBlock(inst.pc);
      b.emit('BranchCond', listOf(b.emit('IEq32', listOf(key, b.u32(cand)))), listOf(copy.id, next.id));
      b.reset(next, inst.pc);
    }
    if (vb === undefined || vcx === undefined) { vb = new BlockBuilder(fn, copy); vb.constPlace = b0.constPlace; vb.execShared = b0.execShared; vb.execNarrow = b0.execNarrow; vcx = context(vb, cx.blockOf); }
    else vb.reset(copy, undefined);
    for (const x of run) {
      vb.pc = x.pc;
      vcx.inst = x;
      vcx.valuOverride = variants.valuFor(x, cand);
      vcx.modeOverride = variants.modeFor(cand, x);
      const plan = planOf(x.def);
      vcx.layout = plan.layout;
      translateOne(vcx, x, plan);
    }
    vb.emit('Branch', NO_ARGS, listOf(join.id));
  });
  vb?.release();
  b.reset(join, undefined);
}

/**
 * What translate's loop asks of an instruction's definition, in the order it asks (block end,
 * stop, transfer, branch, barrier; then translateOne: no effect, the translator): found once per
 * definition, not by a string-keyed lookup of the mnemonic in each table at every instruction.
 */
interface Plan {
  readonly end: boolean;
  readonly stop: { readonly fault: number; readonly always: boolean } | undefined;
  readonly transfer: boolean;
  readonly branch: boolean;
  readonly barrier: boolean;
  readonly noEffect: boolean;
  readonly translator: Translator | undefined;
  /**
   * Whether the instruction may write EXEC other than through an operand that names it: the ISA
   * table's implicit EXEC writers (the saveexec/wrexec family, v_cmpx, s_subvector_loop_*), and
   * the M0-relative moves, whose register the table cannot name.
   */
  readonly execWrite: boolean;
  /** Whether its translation reads other lanes' values (CROSS_LANE; DPP forms are found by the instruction's variant). */
  readonly crossLane: boolean;
  /** None of `end`, `stop`, `transfer`, `branch`, `barrier`: translateOne's unless its MODE is known only at run time. */
  readonly plain: boolean;
  /** Whether the definition has a float type (hasDynamicMode is false for every other). */
  readonly float: boolean;
  /** Its operands' layout (TContext.layout, for the VALU io). */
  readonly layout: OperandLayout;
}
/** The plans by definition (the ISA table's objects: a bounded set, shared by every kernel). */
const PLANS = new Map<InstrDef, Plan>();
function planOf(def: InstrDef): Plan {
  let p = PLANS.get(def);
  if (p === undefined) {
    const m = def.mnemonic, flags = def.flags ?? NO_FLAGS;
    const end = flags.includes('end'), stop = STOPS.get(m), transfer = TRANSFERS.has(m), branch = flags.includes('branch'), barrier = m === 's_barrier';
    p = {
      end, stop, transfer, branch, barrier, noEffect: NO_EFFECT.has(m), translator: TRANSLATORS.get(m),
      execWrite: def.implicitWrites?.includes('EXEC') === true || m.startsWith('s_movrel'), crossLane: CROSS_LANE.test(m),
      plain: !end && stop === undefined && !transfer && !branch && !barrier, float: def.float !== undefined, layout: operandLayout(def),
    };
    PLANS.set(def, p);
  }
  return p;
}

/** One instruction that neither ends nor leaves the block, through its unit's translator (`plan`: its definition's). */
function translateOne(cx: TContext, inst: Instruction, plan: Plan): void {
  if (plan.noEffect) return;
  const t = plan.translator;
  if (!t) throw cx.error(`${inst.def.mnemonic} is not translated yet`);
  const variant = inst.variant;
  cx.dppApplied = false;
  cx.sdwaApplied = false;
  t(cx);
  // A translator that does not read its operands through the VALU io (units/dpp.ts) ignores DPP.
  if ((variant === 'dpp16' || variant === 'dpp8') && !cx.dppApplied) throw cx.error(`${variant.toUpperCase()} form of ${inst.def.mnemonic} is not translated yet`);
  // The same for SDWA (the io's selects: units/valu.ts, units/valu-io.ts).
  if (variant === 'sdwa' && !cx.sdwaApplied) throw cx.error(`SDWA form of ${inst.def.mnemonic} is not translated yet`);
}

/** Whether the code has an s_getpc_b64 (indexed loops: `some` made a closure per block). */
function hasGetpc(cfg: Cfg): boolean {
  const blocks = cfg.blocks;
  for (let k = 0; k < blocks.length; k++) {
    const insts = (blocks[k] as BasicBlock).instructions;
    for (let j = 0; j < insts.length; j++) if ((insts[j] as Instruction).def.mnemonic === 's_getpc_b64') return true;
  }
  return false;
}

/** The block's first successor edge of this kind (a loop, not `find` with a closure per block). */
function succOf(cb: BasicBlock, kind: EdgeKind): Edge | undefined {
  const succs = cb.succs;
  for (let k = 0; k < succs.length; k++) { const e = succs[k] as Edge; if (e.kind === kind) return e; }
  return undefined;
}

/** Whether an SOPP instruction's simm16 has bit 0 set. */
function simm16Bit0(cx: TContext): boolean {
  const v = cx.op('simm16').value;
  return v.kind === 'imm' && (v.value & 1) === 1;
}

/** The instructions that stop the wave: always, or (s_sethalt, s_setkill) when simm16 bit 0 is set. */
const STOPS: ReadonlyMap<string, { readonly fault: number; readonly always: boolean }> = new Map([
  ['s_trap', { fault: FAULT_TRAP, always: true }],
  ['v_illegal', { fault: FAULT_ILLEGAL, always: true }],
  ['s_sethalt', { fault: FAULT_HALT, always: false }],
  ['s_setkill', { fault: FAULT_KILL, always: false }],
]);

/** The conditional branches (SOPP), each as its wave-uniform condition. */
const BRANCH_CONDITIONS: Record<string, (cx: TContext) => Inst> = {
  s_cbranch_scc0: (cx) => cx.b.emit('NotU1', listOf(cx.b.getScc())),
  s_cbranch_scc1: (cx) => cx.b.getScc(),
  s_cbranch_vccz: (cx) => cx.maskZero(VCC_LO),
  s_cbranch_vccnz: (cx) => cx.b.emit('NotU1', listOf(cx.maskZero(VCC_LO))),
  s_cbranch_execz: (cx) => cx.maskZero(EXEC_LO),
  s_cbranch_execnz: (cx) => cx.b.emit('NotU1', listOf(cx.maskZero(EXEC_LO))),
  // The debug-mode bits (set by a debugger through the SQ) are clear: no debugger runs here, and
  // the interpreter never takes these either (src/interp/units/flow.ts).
  s_cbranch_cdbgsys: (cx) => cx.b.u1(false),
  s_cbranch_cdbguser: (cx) => cx.b.u1(false),
  s_cbranch_cdbgsys_or_user: (cx) => cx.b.u1(false),
  s_cbranch_cdbgsys_and_user: (cx) => cx.b.u1(false),
};

function condition(cx: TContext, m: string): Inst {
  const c = BRANCH_CONDITIONS[m];
  return c ? c(cx) : cx.fail(`${m} is not translated yet`);
}

/**
 * Whether `translate` has a translation for the mnemonic (the units' translators, the block ends
 * it handles itself, the instructions without an effect): what `rdna coverage` counts. Some forms
 * of a translated mnemonic may still be refused with the instruction (SDWA/op_sel, clamp/omod
 * where the interpreter does not model them, lds=1).
 */
export function isTranslated(mnemonic: string): boolean {
  return TRANSLATORS.has(mnemonic) || NO_EFFECT.has(mnemonic) || mnemonic in BRANCH_CONDITIONS || TRANSFERS.has(mnemonic) || mnemonic === 's_branch' || mnemonic === 's_endpgm' || mnemonic === 's_code_end' || STOPS.has(mnemonic) || mnemonic === 's_barrier';
}
