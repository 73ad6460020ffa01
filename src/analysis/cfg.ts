// The control-flow graph of one shader: basic blocks discovered recursively from the entry point
// (never a linear sweep), edges from the scalar branch instructions, dominators and natural loops.
// No Node APIs (the core runs in a browser). Every worklist is explicit: nothing recurses on the
// JS stack, and at most MAX_DECODED instructions are decoded.
//
// Control flow by instruction (facts from the ISA table where it has them):
//  - flag 'end' (s_endpgm*, s_code_end): exit 'endpgm'.
//  - flag 'branch' + a 'label' operand: s_branch is unconditional; every other one (s_cbranch_*,
//    the cdbg forms, s_subvector_loop_*) has a taken edge and a fallthrough edge; s_call_b64
//    (flag 'call') has a 'call' edge and a fallthrough edge (the return) and writes pc + 4 to sdst.
//    Target = pc + 4 + 4 * sext(simm16).
//  - s_getpc_b64 writes pc + 4 (the next instruction's pc) to its SGPR pair.
//  - s_setpc_b64 / s_swappc_b64 (flag 'indirect'): the target is resolved by block-local constant
//    tracking (s_getpc_b64, s_mov_b32, s_movk_i32, s_mov_b64, s_add_u32/s_addc_u32,
//    s_sub_u32/s_subb_u32), and an s_swappc_b64 target also by the same tracking across blocks
//    (buildCfg); resolved: a 'jump' edge (s_setpc) or a 'call' edge plus a fallthrough
//    (s_swappc). s_setpc_b64 of a pair some s_swappc_b64/s_call_b64 of the program writes its
//    return address into, whether or not its own block writes it (a callee that calls restores
//    its return address before returning): exit 'return'. Otherwise 'unresolved-jump' (error for
//    s_setpc_b64: the graph is incomplete; warning for s_swappc_b64, whose return is still
//    modelled by the fallthrough edge).
//  - s_rfe_b64 (return from the trap handler): exit 'return'.
//  - s_trap and v_illegal (an illegal-instruction exception, which enters the trap handler as
//    s_trap does): exit 'trap'. s_sethalt / s_setkill with simm16 bit 0 set (the wave halts / is
//    killed): exit 'halt'.
//  - An instruction of a relocatable object whose bytes a relocation applies to (Shader.relocated;
//    the loader does not apply them): an 'unapplied-relocation' error, and what it writes is not
//    tracked (a call through s_getpc_b64 + a REL32 literal would otherwise resolve to the
//    placeholder's target).
//
// `exit` is set whenever a path leaves the program at the end of the block, also when the block
// has other successors (a conditional branch whose fallthrough runs past the end of the code:
// 'falls-off-end'; an unresolved s_swappc_b64: 'unresolved-jump'). A branch whose target is not
// in the code, or not on an instruction boundary, is a diagnostic and not an edge; an
// unconditional one then ends its block with exit 'unresolved-jump'.
//
// The code is the kernel's range plus the function symbols beside it (Shader.functions,
// src/container/shader.ts): a branch, jump or call may go anywhere in the segment it is in (the
// kernel's range, or its function's), and a call or jump into another segment only at a
// function's entry (a call of a non-inlined function, or a tail call's s_setpc_b64). So the graph
// holds the kernel and, transitively, every function its resolved calls reach; a fallthrough past
// the end of a function's range is 'falls-off-end' there.
import type { InstrDef, Target } from '../isa/types.js';
import type { Instruction, InvalidWord, OperandValue } from '../decode/types.js';
import { type CodeSegment, type Shader, functionAt, holdsRelocation, kernelSegment, segmentAt, UNAPPLIED_RELOCATION } from '../container/shader.js';
import type { BasicBlock, Cfg, Diagnostic, Edge, EdgeKind, Loop, Severity } from './types.js';
import { decodeAt } from '../decode/index.js';
import { ISA_TABLE } from '../isa/table.js';
import { printInstruction, formatLong } from '../disasm/index.js';
import { orderAndDominators, sortAscending } from './dominators.js';
import { callFlow } from './calls.js';
import { findLoops } from './loops.js';

/** Decoding stops (with a diagnostic 'instruction-limit') after this many instructions. */
export const MAX_DECODED = 1_000_000;
/** Discovery is repeated while block boundaries or overlaps change; at most this many times. */
const MAX_ROUNDS = 32;

export type BlockExit = NonNullable<BasicBlock['exit']>;

type Decoded = Instruction | InvalidWord;

/** What an instruction does to control flow when it is not a plain fallthrough. */
interface Flow {
  succs: Succ[];
  exit?: BlockExit;
  /** Made at the first diagnostic (most flows have none). */
  diags?: Diagnostic[];
}

interface Succ { readonly to: number; readonly kind: EdgeKind }

/** Adds a diagnostic to a flow. */
function flowDiag(f: Flow, d: Diagnostic): void {
  (f.diags ??= []).push(d);
}

/** The successors `a` and `b` that are edges, as a list made at its length (a pushed list's first store reserves 17 elements). */
function succList(a: Succ | undefined, b: Succ | undefined): Succ[] {
  return a === undefined ? (b === undefined ? [] : [b]) : b === undefined ? [a] : [a, b];
}

/** The flows of the instructions that only leave the program (nothing adds to them: they have no successors). */
/** A flow's successors until classify has them (never added to). */
const NO_SUCCS: Succ[] = [];
const END_FLOW: Flow = { succs: [], exit: 'endpgm' };
const TRAP_FLOW: Flow = { succs: [], exit: 'trap' };
const HALT_FLOW: Flow = { succs: [], exit: 'halt' };
const RFE_FLOW: Flow = { succs: [], exit: 'return' };

/** The text of a decoded record, for diagnostics. */
export function decodedText(d: Decoded, target: Target): string {
  if (d.kind === 'invalid') return formatLong(d.words[0]);
  try {
    return printInstruction(d, target);
  } catch {
    return d.def.mnemonic;
  }
}

function diag(d: Decoded | undefined, pc: number, target: Target, code: string, severity: Severity, message: string): Diagnostic {
  return {
    pc,
    instruction: d === undefined ? '' : decodedText(d, target),
    words: d === undefined ? [] : [...d.words],
    code, severity, message,
  };
}

/**
 * The block of `cfg` whose range of pcs holds `pc`, if any (an instruction of it starts there,
 * or `pc` lies inside one: instructionIn tells). The blocks are disjoint ranges of pcs, those
 * after the entry block in start order (so in end order too: buildOnce): a binary search, no
 * table of every instruction by pc.
 */
export function blockOfPc(cfg: Cfg, pc: number): BasicBlock | undefined {
  const bs = cfg.blocks;
  const b = bs[0];
  if (b === undefined || (pc >= b.start && pc < b.end)) return b;
  let lo = 1, hi = bs.length;
  while (lo < hi) { const m = (lo + hi) >>> 1; if ((bs[m] as BasicBlock).end <= pc) lo = m + 1; else hi = m; }
  const x = bs[lo];
  return x !== undefined && pc >= x.start ? x : undefined;
}

/** The instruction of block `b` that starts at `pc`, if any (its instructions are in pc order: a binary search). */
export function instructionIn(b: BasicBlock, pc: number): Instruction | undefined {
  const is = b.instructions;
  let lo = 0, hi = is.length;
  while (lo < hi) { const m = (lo + hi) >>> 1; if ((is[m] as Instruction).pc < pc) lo = m + 1; else hi = m; }
  const x = is[lo];
  return x !== undefined && x.pc === pc ? x : undefined;
}

/** The instruction of `cfg` that starts at `pc`, if any (two binary searches: blockOfPc, instructionIn). */
export function instructionAt(cfg: Cfg, pc: number): Instruction | undefined {
  const b = blockOfPc(cfg, pc);
  return b === undefined ? undefined : instructionIn(b, pc);
}

export function hexPc(pc: number): string {
  return '0x' + pc.toString(16);
}

// --- block-local scalar constants ---------------------------------------------------------------

/** Register key: SGPR n → n, TTMP n → 1000 + n. */
function regKey(v: OperandValue, k: number): number | undefined {
  if (v.kind === 'sgpr') return v.index + k;
  if (v.kind === 'ttmp') return 1000 + v.index + k;
  return undefined;
}

function regCount(v: OperandValue): number {
  return v.kind === 'sgpr' || v.kind === 'ttmp' || v.kind === 'vgpr' || v.kind === 'special' ? v.count : 0;
}

/**
 * What classify and clobber read of a definition, derived from the table once per definition:
 * the InstrDef records come in many shapes, so reading their fields for every instruction is
 * slow (megamorphic), and flags.includes walks a list.
 */
interface DefFacts {
  /** Flag 'end': s_endpgm*, s_code_end. */
  readonly end: boolean;
  /** Flag 'branch': every instruction that may transfer control. */
  readonly branch: boolean;
  /** Writes SCC. */
  readonly writesScc: boolean;
  /** An M0-indexed scalar destination (s_movreld_*, s_movrelsd_2_b32): may write any SGPR. */
  readonly m0IndexedDst: boolean;
  /** Never ends a block (classify's answer is undefined without reading more of the definition). */
  readonly plain: boolean;
  /** Has a 'label' operand (a pc-relative branch or s_call_b64). */
  readonly label: boolean;
  /** Flag 'call'. */
  readonly call: boolean;
  /** Flag 'indirect' (s_setpc_b64, s_swappc_b64). */
  readonly indirect: boolean;
}

/** The mnemonics classify ends a block at besides the 'end' and 'branch' flags (s_sethalt/s_setkill by their operand). */
const STOPS: ReadonlySet<string> = new Set(['s_trap', 'v_illegal', 's_sethalt', 's_setkill', 's_rfe_b64']);

const FACTS = new WeakMap<InstrDef, DefFacts>();


/** The last definition factsOf answered for, and its facts: code repeats definitions back to back, and this test is cheaper than the WeakMap's. */
let lastDef: InstrDef | undefined;
let lastFacts: DefFacts | undefined;

function factsOf(def: InstrDef): DefFacts {
  if (def === lastDef && lastFacts !== undefined) return lastFacts;
  let f = FACTS.get(def);
  if (f === undefined) {
    const flags = def.flags ?? [];
    const end = flags.includes('end'), branch = flags.includes('branch');
    f = {
      end,
      branch,
      writesScc: def.implicitWrites?.includes('SCC') === true,
      m0IndexedDst: def.implicitReads?.includes('M0') === true && def.operands.some((d) => d.role !== 'src' && d.kind === 'sdst'),
      plain: !end && !branch && !STOPS.has(def.mnemonic),
      label: def.operands.some((o) => o.kind === 'label'),
      call: flags.includes('call'),
      indirect: flags.includes('indirect'),
    };
    FACTS.set(def, f);
  }
  lastDef = def;
  lastFacts = f;
  return f;
}

/**
 * The encodings an instruction that is not plain can be decoded in, from the ISA table (a
 * VOP1/VOP2/VOPC definition also in VOP3, its e64 form; GLOBAL and SCRATCH in FLAT): an
 * instruction of any other encoding (most vector and memory code) is plain without its
 * definition's facts looked up (a table lookup by the definition: most of classify's time).
 */
const MAY_END: ReadonlySet<string> = (() => {
  const out = new Set<string>();
  for (const def of ISA_TABLE) {
    const flags = def.flags ?? [];
    if (!flags.includes('end') && !flags.includes('branch') && !STOPS.has(def.mnemonic)) continue;
    const f = def.family;
    if (f === 'VOP1' || f === 'VOP2' || f === 'VOPC') out.add('VOP3');
    out.add(f === 'GLOBAL' || f === 'SCRATCH' ? 'FLAT' : f);
  }
  return out;
})();

/**
 * The table's definitions that may end a block (those factsOf finds not `plain`: the 'end' and
 * 'branch' flags, STOPS): every decoded instruction's definition is one of the table's (the
 * decoders look them up by opcode there), so classify answers undefined for any other on one
 * lookup by the definition, without the encoding's test and the facts' lookup. A set of these
 * few (about 30) rather than of the table's many plain ones (about 1,200): a small table, which
 * stays in the cache where a recompile's other work has evicted most of the large one.
 */
const ENDING_DEFS: ReadonlySet<InstrDef> = new Set(ISA_TABLE.filter((def) => {
  const flags = def.flags ?? [];
  return flags.includes('end') || flags.includes('branch') || STOPS.has(def.mnemonic);
}));

/** Known 32-bit values of scalar registers since the start of the block; SCC when known. */
class Consts {
  private readonly regs = new Map<number, number>();
  scc: number | undefined;

  reset(): void {
    if (this.regs.size !== 0) this.regs.clear();
    this.scc = undefined;
  }

  get(v: OperandValue, k: number): number | undefined {
    switch (v.kind) {
      case 'inline':
        // Integer inline constants only (128..208 → 0..64, -1..-16); floats are not addresses.
        if (v.code >= 128 && v.code <= 208) {
          const n = v.code <= 192 ? v.code - 128 : 192 - v.code;
          return k === 0 ? n >>> 0 : (n < 0 ? 0xffffffff : 0);
        }
        return undefined;
      case 'literal': return k === 0 ? v.value >>> 0 : undefined;
      default: {
        const key = regKey(v, k);
        return key === undefined ? undefined : this.regs.get(key);
      }
    }
  }

  set(v: OperandValue, k: number, value: number | undefined): void {
    const key = regKey(v, k);
    if (key === undefined) return;
    if (value === undefined) this.regs.delete(key);
    else this.regs.set(key, value >>> 0);
  }

  /** The known values (register key → value), for the data flow across blocks. */
  known(): Map<number, number> {
    return new Map(this.regs);
  }

  /** Starts a block with the values known on entry (none written in it yet; SCC unknown). */
  seed(m: ReadonlyMap<number, number>): void {
    this.reset();
    for (const [k, v] of m) this.regs.set(k, v);
  }

  /** Forget everything an instruction writes (its dst operands, SCC if it writes SCC). */
  clobber(inst: Instruction): void {
    const defs = inst.def.operands;
    const facts = factsOf(inst.def);
    if (facts.m0IndexedDst) this.regs.clear();
    for (let i = 0; i < inst.operands.length; i++) {
      const op = inst.operands[i];
      const def = defs[i];
      if (op === undefined || def === undefined || def.role === 'src') continue;
      const n = regCount(op.value);
      for (let k = 0; k < n; k++) this.set(op.value, k, undefined);
    }
    if (facts.writesScc) this.scc = undefined;
  }
}

function operand(inst: Instruction, name: string): OperandValue | undefined {
  for (const op of inst.operands) if (op.name === name) return op.value;
  return undefined;
}

function simm16(inst: Instruction): number {
  const v = operand(inst, 'simm16');
  return v !== undefined && v.kind === 'imm' ? v.value & 0xffff : 0;
}

/** The 64-bit value of a register pair / constant, or undefined. */
function get64(c: Consts, v: OperandValue): number | undefined {
  const lo = c.get(v, 0);
  const hi = c.get(v, 1);
  return lo === undefined || hi === undefined ? undefined : hi * 0x1_0000_0000 + lo;
}

function set64(c: Consts, v: OperandValue, value: number | undefined): void {
  c.set(v, 0, value === undefined ? undefined : value % 0x1_0000_0000);
  c.set(v, 1, value === undefined ? undefined : Math.floor(value / 0x1_0000_0000));
}

/** Update the constants for one instruction that does not end its block. */
function track(c: Consts, inst: Instruction): void {
  const m = inst.def.mnemonic;
  // The destination only for the instructions evaluated (most are not).
  switch (m) {
    case 's_getpc_b64': {
      const d = operand(inst, 'sdst');
      if (d) set64(c, d, inst.pc + 4);
      return;
    }
    case 's_mov_b32': {
      const d = operand(inst, 'sdst');
      const s = operand(inst, 'ssrc0');
      if (d && s) c.set(d, 0, c.get(s, 0));
      return;
    }
    case 's_movk_i32': {
      const d = operand(inst, 'sdst');
      if (d) c.set(d, 0, ((simm16(inst) << 16) >> 16) >>> 0);
      return;
    }
    case 's_mov_b64': {
      const d = operand(inst, 'sdst');
      const s = operand(inst, 'ssrc0');
      // A literal in a 64-bit operand is not tracked (its extension is not modelled).
      if (d && s) set64(c, d, s.kind === 'literal' ? undefined : get64(c, s));
      return;
    }
    case 's_add_u32': case 's_addc_u32': case 's_sub_u32': case 's_subb_u32': {
      const d = operand(inst, 'sdst');
      const a = operand(inst, 'ssrc0');
      const b = operand(inst, 'ssrc1');
      const x = a && c.get(a, 0);
      const y = b && c.get(b, 0);
      const carryIn = m === 's_addc_u32' || m === 's_subb_u32' ? c.scc : 0;
      if (!d || x === undefined || y === undefined || carryIn === undefined) {
        c.clobber(inst);
        return;
      }
      const add = m === 's_add_u32' || m === 's_addc_u32';
      const r = add ? x + y + carryIn : x - y - carryIn;
      c.set(d, 0, r >>> 0);
      c.scc = add ? (r > 0xffffffff ? 1 : 0) : (r < 0 ? 1 : 0);
      return;
    }
    default:
      c.clobber(inst);
  }
}

// --- discovery ----------------------------------------------------------------------------------

/**
 * Records by pc (never undefined): those at the dword boundaries of the kernel's range in an
 * array by dword index (a plain array on the JS heap: a typed array of the range's size is an
 * allocation outside it, costlier than the whole discovery of a small kernel), not a Map entry
 * per instruction; any other pc (the functions' code) in a Map.
 */
class PcTable<T> {
  private readonly start: number;
  private readonly end: number;
  /** Made at the first pc in the range (the table of pcs inside other instructions mostly holds none). */
  private slots: (T | undefined)[] | undefined;
  /** Made at the first pc outside the range (most tables hold none). */
  private others: Map<number, T> | undefined;
  constructor(range: CodeSegment) {
    this.start = range.start;
    this.end = range.end;
  }
  /** The slot of `pc` in the range (-1 outside it or off a dword boundary): the same in every table of one range. */
  slot(pc: number): number {
    // pc - start is in [0, end - start) there: & 3 is its % 4.
    return pc >= this.start && pc < this.end && ((pc - this.start) & 3) === 0 ? (pc - this.start) >>> 2 : -1;
  }
  /**
   * The slots of the range (made here if not yet), by dword index from its start: a walk through
   * the range reads and writes them directly (no call per pc).
   */
  dense(): (T | undefined)[] {
    return (this.slots ??= new Array<T | undefined>((this.end - this.start) >>> 2));
  }
  /** Whether nothing was ever set (neither list made). */
  isEmpty(): boolean {
    return this.slots === undefined && this.others === undefined;
  }
  get(pc: number): T | undefined {
    const k = this.slot(pc);
    return k < 0 ? this.others?.get(pc) : this.slots?.[k];
  }
  has(pc: number): boolean {
    return this.get(pc) !== undefined;
  }
  set(pc: number, v: T): void {
    const k = this.slot(pc);
    if (k < 0) (this.others ??= new Map()).set(pc, v);
    else (this.slots ??= new Array<T | undefined>((this.end - this.start) >>> 2))[k] = v;
  }
}

interface Round {
  /** Every reachable instruction start → the index of its record in `seq`. */
  readonly pos: PcTable<number>;
  /**
   * The records of the round's walks, walk after walk: a walk's records are in pc order, each at
   * the previous one's pc + size, and only a walk's last record can end a block by itself (a
   * control-flow instruction, an invalid word, one that falls off the end). buildOnce cuts the
   * blocks out of these runs, not out of a second walk of the code.
   */
  readonly seq: Decoded[];
  /** Per walk, in order: the index in `seq` past its last record (a walk that decoded nothing has none). */
  readonly walkEnds: number[];
  /** Per walk: the flow of its last record; undefined where the walk stopped at a start decoded before (or at the instruction limit). */
  readonly walkFlows: (Flow | undefined)[];
  /**
   * Leaders found: entry, edge targets, instructions after a control-flow instruction; -1 each
   * (buildOnce numbers the blocks in this table: a leader's value is then its block's id, -1 for
   * one never decoded).
   */
  readonly leaders: PcTable<number>;
  /** The pcs of `leaders`, each once, in the order found (a list, not a walk of the table's every slot). */
  readonly leaderPcs: number[];
  /**
   * The pcs inside the instructions of `seq` longer than a dword (their dwords after the
   * first): the only pcs another start can overlap at.
   */
  readonly inner: readonly number[];
  readonly diags: Diagnostic[];
}

class Discovery {
  readonly target: Target;
  /** The kernel's own range (most pcs are in it: one object, not one per question). */
  readonly kernel: CodeSegment;
  /**
   * Every record decoded so far: the first round's `seq` and `pos` (which hold every record that
   * round decodes), to which the later rounds add theirs; no table of its own.
   */
  private cacheSeq: Decoded[] | undefined;
  private cachePos: PcTable<number> | undefined;
  /** The round under way: its records and table, its hints and leaders (constsBefore's walk and marks). */
  private roundSeq: Decoded[] = [];
  private roundHint: PcTable<true> | undefined;
  private roundLeaders: PcTable<number> | undefined;
  decodedCount = 0;
  limitHit = false;
  /** Register pairs (key of the low dword) that s_swappc_b64 / s_call_b64 write return addresses to. */
  private returnPairs: Set<number> | undefined;
  /** How many pairs returnPairs holds (the set is made at the first: most code calls nothing). */
  get returnPairCount(): number {
    return this.returnPairs === undefined ? 0 : this.returnPairs.size;
  }
  /** An s_setpc/s_swappc was classified in the last round (its result depends on block boundaries). */
  indirectSeen = false;
  /** An s_swappc_b64 was classified in some round: without one no call target is left to the data flow across blocks. */
  swappcSeen = false;
  /** The constants of constsBefore (one object for every question, made at the first: most code has no s_setpc/s_swappc). */
  private consts: Consts | undefined;

  /** pcs of code bytes with a relocation that was not applied (Shader.relocated). */
  private readonly relocated: readonly number[];

  /**
   * s_swappc_b64 targets found by the data flow across blocks (callTargetsAcrossBlocks): pc →
   * target, for calls whose target is not a constant known in their own block.
   */
  constructor(readonly shader: Shader, readonly resolvedCalls: ReadonlyMap<number, number> = NO_CALLS) {
    this.target = shader.info.target;
    this.relocated = shader.relocated ?? [];
    this.kernel = kernelSegment(shader);
  }

  /** Whether a relocation that was not applied falls inside the instruction. */
  holdsRelocation(inst: Instruction): boolean {
    return this.relocated.length !== 0 && holdsRelocation(this.shader, inst.pc, inst.size);
  }

  /** The segment of the code (the kernel's range or a function) holding `pc`. */
  segment(pc: number): CodeSegment | undefined {
    const k = this.kernel;
    return pc >= k.start && pc < k.end ? k : segmentAt(this.shader, pc);
  }

  /** The end of the segment holding `pc` (the instruction's own). */
  endOf(pc: number): number {
    return this.segment(pc)?.end ?? this.shader.basePc + 4 * this.shader.words.length;
  }

  /**
   * The record at `pc` of segment `words` (from pc `start`), decoded at most once: from the cache
   * if an earlier round decoded it; undefined past the instruction limit.
   */
  private decode(pc: number, words: Uint32Array, start: number): Decoded | undefined {
    const cp = this.cachePos;
    const hit = cp === undefined ? undefined : cp.get(pc);
    if (hit !== undefined) return (this.cacheSeq as Decoded[])[hit];
    if (this.decodedCount >= MAX_DECODED) {
      this.limitHit = true;
      return undefined;
    }
    this.decodedCount++;
    const d = decodeAt(this.target, words, (pc - start) >>> 2, words.length, pc);
    if (cp !== undefined) {
      const cs = this.cacheSeq as Decoded[];
      cp.set(pc, cs.length);
      cs.push(d);
    }
    return d;
  }

  /**
   * The edge to `to`, or a diagnostic when `to` is outside the code or misaligned. A target is in
   * the code when it lies in the instruction's own segment (the kernel's range or the function
   * it is in), or, for a call or a jump (s_setpc_b64: a tail call), is the entry of a function.
   */
  private edgeTo(f: Flow, inst: Instruction, to: number, kind: EdgeKind, what: string): Succ | undefined {
    const own = this.segment(inst.pc);
    const there = this.segment(to);
    const crossing = own !== undefined && there !== undefined && there.start !== own.start;
    if (!own || !there || (crossing && (kind === 'branch' || functionAt(this.shader, to) === undefined))) {
      const range = own?.name === undefined
        ? `the code range [${hexPc(this.shader.basePc)}, ${hexPc(this.shader.basePc + 4 * this.shader.words.length)})`
        : `the code of function ${own.name} [${hexPc(own.start)}, ${hexPc(own.end)})`;
      const inside = there?.name !== undefined ? ` and is not the entry of a function symbol (it lies inside ${there.name} [${hexPc(there.start)}, ${hexPc(there.end)}))`
        : there !== undefined ? ' (it lies inside the kernel\'s own code, which is not a function entry)' : '';
      flowDiag(f, diag(inst, inst.pc, this.target, 'branch-out-of-range', 'error',
        `${what} target ${hexPc(to)} is outside ${range}${inside}`));
      return undefined;
    }
    if ((to - there.start) % 4 !== 0) {
      flowDiag(f, diag(inst, inst.pc, this.target, 'branch-into-instruction', 'error',
        `${what} target ${hexPc(to)} is not dword-aligned, so not on an instruction boundary`));
      return undefined;
    }
    return { to, kind };
  }

  /** The fallthrough to the next instruction, or none and 'falls-off-end'. */
  private fallthrough(f: Flow, inst: Instruction): Succ | undefined {
    const next = inst.pc + inst.size;
    const end = this.endOf(inst.pc);
    if (next < end) return { to: next, kind: 'fallthrough' };
    f.exit = 'falls-off-end';
    flowDiag(f, diag(inst, inst.pc, this.target, 'falls-off-end', 'error',
      `execution continues past the end of the code at ${hexPc(end)}`));
    return undefined;
  }

  /**
   * The constants known just before `inst`: those its block's instructions write (track) from
   * where they were last reset on the same walk: its start (the record at `begin` in the round's
   * `seq`; the walk's records follow it there), then each leader or hint it passes, `inst`
   * itself included. They are worked out only here, for an
   * s_setpc/s_swappc, not kept up to date along every walk: most code has no such instruction,
   * and tracking every instruction was a tenth of the discovery (as was finding the last reset
   * along every walk: the walk adds no leader before it ends, so the marks are the same here).
   */
  private constsBefore(inst: Instruction, begin: number): Consts {
    const c = (this.consts ??= new Consts());
    c.reset();
    const seq = this.roundSeq, hint = this.roundHint, leaders = this.roundLeaders;
    const marked = (pc: number): boolean => (hint !== undefined && hint.has(pc)) || (leaders !== undefined && leaders.has(pc));
    const first = (seq[begin] as Decoded).pc;
    for (let x = begin; ; x++) {
      const d = seq[x] as Instruction;
      if (d.pc >= inst.pc) break;
      if (d.pc !== first && marked(d.pc)) c.reset();
      // A relocated word is the assembler's placeholder, not the value that would run.
      if (this.holdsRelocation(d)) c.clobber(d);
      else track(c, d);
    }
    if (inst.pc !== first && marked(inst.pc)) c.reset();
    return c;
  }

  /**
   * Control flow of one instruction whose definition is in ENDING_DEFS (the walk asks that
   * first); undefined for a plain instruction. `begin`: the index in the round's `seq` of the
   * first record of the walk that reached it (constsBefore).
   */
  classify(inst: Instruction, begin: number): Flow | undefined {
    const def = inst.def;
    if (!MAY_END.has(inst.encoding)) return undefined;
    const facts = factsOf(def);
    if (facts.plain) return undefined;
    const m = def.mnemonic;
    if (facts.end) return END_FLOW;
    if (m === 's_trap' || m === 'v_illegal') return TRAP_FLOW;
    if ((m === 's_sethalt' || m === 's_setkill') && (simm16(inst) & 1) === 1) return HALT_FLOW;
    if (m === 's_rfe_b64') return RFE_FLOW;
    if (!facts.branch) return undefined;
    // The successors are worked out first and the flow's list made at its length.
    const f: Flow = { succs: NO_SUCCS };
    if (facts.label) {
      const to = inst.pc + 4 + 4 * ((simm16(inst) << 16) >> 16);
      if (facts.call) {
        // s_call_b64: sdst = return address (pc + 4), then jump.
        const d = operand(inst, 'sdst');
        if (d) this.noteReturnPair(d);
        const t = this.edgeTo(f, inst, to, 'call', 'call');
        f.succs = succList(t, this.fallthrough(f, inst));
      } else if (m === 's_branch') {
        const t = this.edgeTo(f, inst, to, 'branch', 'branch');
        if (t === undefined) f.exit = 'unresolved-jump';
        f.succs = succList(t, undefined);
      } else {
        const t = this.edgeTo(f, inst, to, 'branch', 'branch');
        f.succs = succList(t, this.fallthrough(f, inst));
      }
      return f;
    }
    if (facts.indirect) {
      this.indirectSeen = true;
      const src = operand(inst, 'ssrc0');
      const to = src === undefined ? undefined : get64(this.constsBefore(inst, begin), src);
      const call = facts.call;
      if (call) {
        this.swappcSeen = true;
        const d = operand(inst, 'sdst');
        if (d) this.noteReturnPair(d);
      }
      let t: Succ | undefined;
      if (to !== undefined) {
        t = this.edgeTo(f, inst, to, call ? 'call' : 'jump', call ? 'call' : 'jump');
        if (t === undefined && !call) f.exit = 'unresolved-jump';
      } else if (call && to === undefined && this.resolvedCalls.has(inst.pc)) {
        t = this.edgeTo(f, inst, this.resolvedCalls.get(inst.pc) as number, 'call', 'call');
      } else if (!call && src !== undefined && this.isReturnPair(src)) {
        // A pair some call writes its return address into, written or not in this block (a
        // callee that calls restores it first, e.g. with v_readlane_b32 from its spill slot).
        f.exit = 'return';
      } else {
        f.exit = 'unresolved-jump';
        flowDiag(f, diag(inst, inst.pc, this.target, 'unresolved-jump', call ? 'warning' : 'error',
          call ? 'call target is not a constant known in this block (the callee is not in the graph; the return is modelled as a fallthrough)'
            : 'jump target is not a constant known in this block: the graph is incomplete here'));
      }
      f.succs = succList(t, call ? this.fallthrough(f, inst) : undefined);
      return f;
    }
    // A 'branch' instruction the CFG does not model: say so rather than guess.
    f.exit = 'unresolved-jump';
    flowDiag(f, diag(inst, inst.pc, this.target, 'unsupported-branch', 'error', `control flow of ${m} is not modelled`));
    f.succs = [];
    return f;
  }

  private noteReturnPair(d: OperandValue): void {
    const key = regKey(d, 0);
    if (key !== undefined) (this.returnPairs ??= new Set()).add(key);
  }

  private isReturnPair(v: OperandValue): boolean {
    const key = regKey(v, 0);
    return key !== undefined && this.returnPairs !== undefined && this.returnPairs.has(key);
  }

  /**
   * One discovery pass. `hint`: pcs known to start blocks (constants reset there); `banned`:
   * pcs inside another reachable instruction (flow into them is diagnosed, not followed).
   */
  round(hint: PcTable<true>, banned: PcTable<true>): Round {
    const shader = this.shader;
    const entry = shader.info.entry;
    const kernel = this.kernel;
    const pos = new PcTable<number>(kernel);
    const seq: Decoded[] = [];
    const walkEnds: number[] = [];
    const walkFlows: (Flow | undefined)[] = [];
    const leaders = new PcTable<number>(kernel);
    leaders.set(entry, -1);
    const leaderPcs = [entry];
    const inner: number[] = [];
    const diags: Diagnostic[] = [];
    const work: number[] = [];
    this.indirectSeen = false;
    this.roundSeq = seq;
    this.roundHint = hint;
    this.roundLeaders = leaders;
    const target = this.target;
    const enqueue = (f: Flow, inst: Instruction): void => {
      for (let i = 0; i < f.succs.length; i++) {
        const s = f.succs[i];
        if (s === undefined) continue;
        if (banned.has(s.to)) {
          flowDiag(f, diag(inst, inst.pc, target, 'branch-into-instruction', 'error',
            `${s.kind} target ${hexPc(s.to)} is inside another instruction of the program, not on an instruction boundary`));
          f.succs.splice(i--, 1);
          if (s.kind === 'fallthrough' || f.succs.length === 0) f.exit ??= s.kind === 'fallthrough' ? 'invalid' : 'unresolved-jump';
          continue;
        }
        if (!leaders.has(s.to)) { leaders.set(s.to, -1); leaderPcs.push(s.to); }
        work.push(s.to);
      }
    };
    const out: Round = { pos, seq, walkEnds, walkFlows, leaders, leaderPcs, inner, diags };
    if (this.segment(entry) === undefined) {
      diags.push(diag(undefined, entry, target, 'branch-out-of-range', 'error', `entry ${hexPc(entry)} is outside the code range`));
      return out;
    }
    // Read once per round, not per instruction: most rounds ban nothing, most code has no
    // relocation, and the kernel's range has its slots (`dense`).
    const anyBanned = !banned.isEmpty();
    const relocs = this.relocated.length !== 0;
    const slots = pos.dense();
    work.push(entry);
    while (work.length > 0) {
      const first = work.pop() as number;
      if (pos.has(first)) continue;
      // A walk in the kernel's range stays in it (its end is a 'falls-off-end') and goes from an
      // instruction to the next: its segment is the walk's, and the slot of each pc the one after
      // the last (k; -1 outside the range, where the segment is asked for at each pc).
      let seg = this.segment(first);
      let words = seg?.words ?? shader.words, segStart = seg?.start ?? shader.basePc;
      let end = seg?.end ?? shader.basePc + 4 * shader.words.length;
      let k = seg === kernel ? pos.slot(first) : -1;
      const begin = seq.length;
      let flow: Flow | undefined;
      let pc = first;
      for (;;) {
        const d = this.decode(pc, words, segStart);
        if (d === undefined) break; // limit reached: reported once below
        if (k >= 0) slots[k] = seq.length;
        else pos.set(pc, seq.length);
        seq.push(d);
        if (d.kind === 'invalid') {
          flow = {
            succs: [], exit: 'invalid',
            diags: [diag(d, pc, target, d.truncated ? 'truncated-instruction' : 'invalid-instruction', 'error',
              `reachable word does not decode: ${d.reason}`)],
          };
          break;
        }
        const size = d.size;
        if (size > 4) for (let p = pc + 4; p < pc + size; p += 4) inner.push(p);
        if (relocs && this.holdsRelocation(d)) diags.push(diag(d, pc, target, 'unapplied-relocation', 'error', UNAPPLIED_RELOCATION));
        const f = ENDING_DEFS.has(d.def) ? this.classify(d, begin) : undefined;
        if (f !== undefined) {
          enqueue(f, d);
          flow = f;
          break;
        }
        const next = pc + size;
        if (next >= end) {
          flow = {
            succs: [], exit: 'falls-off-end',
            diags: [diag(d, pc, target, 'falls-off-end', 'error', `execution continues past the end of the code at ${hexPc(end)}`)],
          };
          break;
        }
        if (anyBanned && banned.has(next)) {
          flow = { succs: [{ to: next, kind: 'fallthrough' }] };
          enqueue(flow, d);
          break;
        }
        pc = next;
        // The walk stops where an earlier one went on from (it has the rest).
        if (k >= 0) {
          k += size >>> 2;
          if (slots[k] !== undefined) break;
        } else {
          if (pos.has(pc)) break;
          seg = this.segment(pc);
          words = seg?.words ?? shader.words;
          segStart = seg?.start ?? shader.basePc;
          end = seg?.end ?? shader.basePc + 4 * shader.words.length;
        }
      }
      if (seq.length > begin) {
        walkEnds.push(seq.length);
        walkFlows.push(flow);
      }
    }
    if (this.limitHit) {
      diags.push(diag(undefined, entry, target, 'instruction-limit', 'error',
        `stopped after decoding ${MAX_DECODED} instructions: the graph is incomplete`));
    }
    // The first round's records are the cache of the later ones (decode).
    if (this.cachePos === undefined) {
      this.cachePos = pos;
      this.cacheSeq = seq;
    }
    return out;
  }
}

/**
 * Starts that lie strictly inside another reachable instruction, ascending, each once. `inner`:
 * the pcs inside the reachable instructions longer than a dword, the only ones another start can
 * lie at (looked up, not every slot of the range walked, nor the records read again).
 */
function overlaps(starts: PcTable<number>, inner: readonly number[]): number[] {
  const out: number[] = [];
  for (let k = 0; k < inner.length; k++) { const pc = inner[k] as number; if (starts.has(pc)) out.push(pc); }
  if (out.length < 2) return out;
  out.sort((a, b) => a - b);
  let n = 1;
  for (let k = 1; k < out.length; k++) if (out[k] !== out[n - 1]) out[n++] = out[k] as number;
  out.length = n;
  return out;
}

// --- the graph ----------------------------------------------------------------------------------

// The graph's blocks and edges are made by constructors, not object literals: V8 tracks a
// literal's allocation site and, where most of its objects outlive a few young-generation
// collections (a large kernel's graph lives through its whole recompile), allocates that site's
// objects in the old generation from then on (pretenuring). A small kernel's blocks and edges,
// garbage at the end of its recompile, were then old objects holding young ones (their lists):
// each scavenge kept those alive and copied them (tens of ms a scavenge, most of buildCfg's time
// in the benchmark after its warm-up). A constructor's objects have no allocation site.

/** A block as buildOnce makes it (its preds placed once every block is made). */
class MutableBlock implements BasicBlock {
  /** Set only where the block has an exit (no own property otherwise, as the literal it replaced). */
  declare exit?: BlockExit;
  constructor(
    readonly id: number,
    readonly start: number,
    readonly end: number,
    readonly instructions: Instruction[],
    public succs: Edge[],
    public preds: Edge[],
  ) {}
}

class CfgEdge implements Edge {
  constructor(readonly from: number, readonly to: number, readonly kind: EdgeKind) {}
}

/** A block's preds until they are placed (buildOnce): every block gets its own list then. */
const NO_PREDS: Edge[] = [];

/** The edges from block `from` to the successors of its flow that are blocks (`blockAt`: -1 or nothing for none; one not decoded, past the instruction limit, is none). */
function edgesTo(from: number, targets: Flow['succs'], blockAt: PcTable<number>): Edge[] {
  let count = 0;
  for (let k = 0; k < targets.length; k++) if ((blockAt.get((targets[k] as Flow['succs'][number]).to) ?? -1) >= 0) count++;
  if (count === 0) return [];
  const out = new Array<Edge>(count);
  for (let k = 0, j = 0; k < targets.length; k++) {
    const s = targets[k] as Flow['succs'][number];
    const to = blockAt.get(s.to) ?? -1;
    if (to >= 0) out[j++] = new CfgEdge(from, to, s.kind);
  }
  return out;
}

/** The most graphs built for one shader while the data flow across blocks resolves more calls. */
const MAX_CALL_PASSES = 16;
/** No call resolved across blocks (the first graph's). */
const NO_CALLS: ReadonlyMap<number, number> = new Map();

/**
 * The control-flow graph of `shader` from its entry point. Never throws on any code: what cannot
 * be followed is a Diagnostic (pc, words, instruction text) in `cfg.diagnostics`.
 *
 * An s_swappc_b64 whose target is not a constant known in its own block (clang computes a
 * callee's address once and calls it again after the first call returns, or before a loop) is
 * resolved by a data flow across blocks (callTargetsAcrossBlocks) over the graph built so far,
 * and the graph is built again with those targets. That data flow lets a call it has not resolved
 * yet keep every register (the callee is not in the graph yet: optimistic, so that a call in a
 * loop can resolve itself), so each resolution is checked again on every later graph, where the
 * callee is in it, and dropped for good when the target differs there. After MAX_CALL_PASSES
 * graphs, the resolutions the last graph does not confirm are dropped. Jumps (s_setpc_b64) stay
 * block-local.
 */
export function buildCfg(shader: Shader): Cfg {
  const first = new Discovery(shader, NO_CALLS);
  const cfg = buildOnce(first);
  // Most code has no s_swappc_b64: then nothing is left to resolve, and no block to look at (nor
  // the tables of the passes below made).
  if (!first.swappcSeen) return cfg;
  return buildWithCalls(shader, first, cfg);
}

/** buildCfg's passes from the first graph (`disc`, `first`), which has an s_swappc_b64. */
function buildWithCalls(shader: Shader, disc: Discovery, first: Cfg): Cfg {
  const resolved = new Map<number, number>();
  const rejected = new Set<number>();
  let cfg = first;
  for (let pass = 1; ; pass++) {
    if (pass > 1) {
      disc = new Discovery(shader, resolved);
      cfg = buildOnce(disc);
      if (!disc.swappcSeen && resolved.size === 0) return cfg;
    }
    const targets = callTargetsAcrossBlocks(cfg, disc);
    let changed = false;
    for (const [pc, to] of resolved) {
      if (targets.get(pc) === to) continue;
      resolved.delete(pc);
      rejected.add(pc);
      changed = true;
    }
    if (pass >= MAX_CALL_PASSES) {
      return changed ? buildOnce(new Discovery(shader, resolved)) : cfg;
    }
    const inBlock = new Set<number>();
    for (const b of cfg.blocks) if (b.succs.some((e) => e.kind === 'call')) inBlock.add(b.instructions[b.instructions.length - 1]?.pc ?? -1);
    for (const [pc, to] of targets) {
      if (resolved.has(pc) || rejected.has(pc) || inBlock.has(pc)) continue; // inBlock: resolved in its own block
      resolved.set(pc, to);
      changed = true;
    }
    if (!changed) return cfg;
  }
}

/**
 * The targets of the s_swappc_b64 instructions of `cfg` that the scalar constants reaching them
 * along every run-time path give (calls.ts: a call's state goes through its callee, a return's
 * to its return sites), with the block-local tracker's transfer (track); a call without a callee
 * in the graph keeps every register but its return-address pair. pc → target.
 */
function callTargetsAcrossBlocks(cfg: Cfg, disc: Discovery): Map<number, number> {
  const out = new Map<number, number>();
  const calls = cfg.blocks.filter((b) => b.instructions[b.instructions.length - 1]?.def.mnemonic === 's_swappc_b64');
  if (calls.length === 0) return out;
  const flow = callFlow(cfg);
  const n = cfg.blocks.length;
  const input: (Map<number, number> | undefined)[] = new Array<Map<number, number> | undefined>(n).fill(undefined);
  const c = new Consts();
  const run = (b: BasicBlock, upTo: number): Consts => {
    c.seed(input[b.id] ?? new Map());
    for (let i = 0; i < upTo; i++) {
      const inst = b.instructions[i] as Instruction;
      if (disc.holdsRelocation(inst)) c.clobber(inst);
      else track(c, inst);
    }
    return c;
  };
  input[cfg.entry] = new Map();
  const work = [cfg.entry];
  const queued = new Array<number>(n).fill(0);
  queued[cfg.entry] = 1;
  let steps = 0;
  while (work.length > 0 && steps++ < 64 * n + 1024) {
    const id = work.pop() as number;
    queued[id] = 0;
    const b = cfg.blocks[id];
    if (!b) continue;
    const known = run(b, b.instructions.length).known();
    for (const t of flow.succs[id] ?? []) {
      const cur = input[t];
      let changed = false;
      if (cur === undefined) { input[t] = new Map(known); changed = true; } else {
        for (const [k, v] of cur) if (known.get(k) !== v) { cur.delete(k); changed = true; }
      }
      if (changed && queued[t] !== 1) { queued[t] = 1; work.push(t); }
    }
  }
  if (work.length > 0) return out; // not converged: no targets
  for (const b of calls) {
    if (input[b.id] === undefined) continue;
    const last = b.instructions[b.instructions.length - 1] as Instruction;
    const src = operand(last, 'ssrc0');
    const to = src === undefined ? undefined : get64(run(b, b.instructions.length - 1), src);
    if (to !== undefined) out.set(last.pc, to);
  }
  return out;
}

function buildOnce(disc: Discovery): Cfg {
  const shader = disc.shader;
  const target = disc.target;
  const entry = shader.info.entry;
  // The hints besides the entry (every round's leaders hold the entry: the marks are the same).
  const hint = new PcTable<true>(disc.kernel);
  const banned = new PcTable<true>(disc.kernel);
  let pairs = disc.returnPairCount;
  let r = disc.round(hint, banned);
  const extra: Diagnostic[] = [];
  for (let i = 1; ; i++) {
    // Another pass when a block boundary, an overlap or a return-address pair was found late.
    let changed = disc.returnPairCount !== pairs;
    pairs = disc.returnPairCount;
    const os = overlaps(r.pos, r.inner);
    for (let k = 0; k < os.length; k++) { const o = os[k] as number; if (!banned.has(o)) { banned.set(o, true); changed = true; } }
    // New block boundaries matter only to the constants an s_setpc/s_swappc was resolved with;
    // the hints only to a later round (none without an indirect jump, a new pair or overlap:
    // then they are not kept, and the table is never made).
    if (changed || disc.indirectSeen) {
      const ls = r.leaderPcs;
      for (let k = 0; k < ls.length; k++) { const l = ls[k] as number; if (l !== entry && !hint.has(l)) { hint.set(l, true); if (disc.indirectSeen) changed = true; } }
    }
    if (!changed) break;
    if (i >= MAX_ROUNDS) {
      extra.push(diag(undefined, entry, target, 'cfg-not-converged', 'error',
        `block boundaries still changed after ${MAX_ROUNDS} discovery passes: the graph may be incomplete`));
      break;
    }
    r = disc.round(hint, banned);
  }

  // Blocks: the entry first, then by start pc; each runs to its first control-flow instruction or
  // to the next leader.
  // The last round's leader list and table are its own: sorted in place, and the table numbered.
  // `sorted`: the leaders decoded, ascending, the entry among them (at entryAt; -1 where it was not
  // decoded, outside the code: its block is an empty one).
  const pos = r.pos, seq = r.seq, walkEnds = r.walkEnds, walkFlows = r.walkFlows;
  const leaders = sortAscending(r.leaderPcs);
  const sorted: number[] = [];
  let entryAt = -1;
  for (let k = 0; k < leaders.length; k++) {
    const pc = leaders[k] as number;
    if (!pos.has(pc)) continue;
    if (pc === entry) entryAt = sorted.length;
    sorted.push(pc);
  }
  const n = entryAt < 0 ? sorted.length + 1 : sorted.length;
  const ordered = new Array<number>(n);
  ordered[0] = entry;
  for (let k = 0, j = 1; k < sorted.length; k++) if (k !== entryAt) ordered[j++] = sorted[k] as number;
  const blockAt = r.leaders;
  for (let k = 0; k < n; k++) blockAt.set(ordered[k] as number, k);
  const blocks = new Array<MutableBlock>(n);
  const invalid: InvalidWord[] = [];
  // The last round's own list (nothing else holds it).
  const diagnostics: Diagnostic[] = r.diags;
  for (let k = 0; k < extra.length; k++) diagnostics.push(extra[k] as Diagnostic);
  // Each block's lists are made at their length, not grown by push (a pushed list's first store
  // reserves 17 elements: most of what a branchy graph allocated). The edges into a block are
  // counted as the blocks are made and placed once every block is, in the order the blocks make
  // them (by source block, then the source's successors in its flow's order).
  const predCount = new Array<number>(n).fill(0);
  // A block is cut out of the runs of `seq` (a walk's records), not found by a walk of the code:
  // from its start's record to the next leader's (the next in `sorted` that is a record of the
  // same run; one inside a record of it is no boundary) or to the run's end, where the walk's
  // flow ends it or, if the walk stopped at a start decoded before that is no leader (only where
  // starts overlap), the block goes on in that start's run.
  let w = 0;
  // Whether every edge goes to a block of a greater id: then the ids are a topological order, the
  // graph has no cycle, so no loop and no irreducible edge (findLoops looks only at the edges a
  // depth-first walk retreats along, and an acyclic graph has none).
  let forward = true;
  for (let bk = 0; bk < n; bk++) {
    const start = ordered[bk] as number;
    let exit: BlockExit | undefined;
    let succs: Edge[] = [];
    let end = start;
    let list: Instruction[] | undefined;
    let i = pos.get(start) ?? -1;
    // The entry, never decoded (outside the code): an empty block.
    if (i < 0) exit = 'invalid';
    // The next leader after the block's records so far: sorted[t].
    let t = (bk === 0 ? entryAt : entryAt < 0 || bk - 1 < entryAt ? bk - 1 : bk) + 1;
    let next = t < sorted.length ? sorted[t] as number : Infinity;
    while (i >= 0) {
      // The walk holding record i (mostly the one after the last block's).
      if (!((walkEnds[w] as number) > i && (w === 0 || (walkEnds[w - 1] as number) <= i))) {
        let lo = 0, hi = walkEnds.length - 1;
        while (lo < hi) { const m = (lo + hi) >>> 1; if ((walkEnds[m] as number) <= i) lo = m + 1; else hi = m; }
        w = lo;
      }
      const e = walkEnds[w] as number;
      const last = seq[e - 1] as Decoded;
      const runEnd = last.pc + last.size;
      let j = e;
      while (next < runEnd) {
        const x = pos.get(next) as number;
        if (x > i && x < e) { j = x; break; }
        next = ++t < sorted.length ? sorted[t] as number : Infinity;
      }
      // Records i..j-1 are the block's (j: a leader's, or the run's end, where an invalid word is not).
      const cut = j === e && last.kind === 'invalid' ? e - 1 : j;
      if (cut > i) {
        if (list === undefined) list = (i === 0 && cut === seq.length ? seq : seq.slice(i, cut)) as Instruction[];
        else for (let x = i; x < cut; x++) list.push(seq[x] as Instruction);
      }
      if (j < e) {
        end = next;
        succs = [new CfgEdge(bk, blockAt.get(next) as number, 'fallthrough')];
        break;
      }
      const f = walkFlows[w];
      if (last.kind === 'invalid') {
        end = last.pc;
        invalid.push(last);
        exit = 'invalid';
        if (f !== undefined && f.diags !== undefined) diagnostics.push(...f.diags);
        break;
      }
      end = runEnd;
      if (f !== undefined) {
        if (f.diags !== undefined) diagnostics.push(...f.diags);
        if (f.exit !== undefined) exit = f.exit;
        succs = edgesTo(bk, f.succs, blockAt);
        break;
      }
      const nb = blockAt.get(runEnd) ?? -1;
      if (nb >= 0) {
        succs = [new CfgEdge(bk, nb, 'fallthrough')];
        break;
      }
      i = pos.get(runEnd) ?? -1;
      // Past the instruction limit: the rest was never decoded.
      if (i < 0) exit ??= 'invalid';
      // The block goes on in another run: its list is its own from here (not `seq` itself).
      else if (list === seq) list = seq.slice() as Instruction[];
    }
    const b = new MutableBlock(bk, start, end, list ?? [], succs, NO_PREDS);
    if (exit !== undefined) b.exit = exit;
    blocks[bk] = b;
    for (let k = 0; k < succs.length; k++) {
      const t = (succs[k] as Edge).to;
      predCount[t] = (predCount[t] as number) + 1;
      if (t <= bk) forward = false;
    }
  }
  for (let bk = 0; bk < n; bk++) {
    (blocks[bk] as MutableBlock).preds = predCount[bk] === 0 ? [] : new Array<Edge>(predCount[bk] as number);
    predCount[bk] = 0;
  }
  for (let bk = 0; bk < n; bk++) {
    const ss = (blocks[bk] as MutableBlock).succs;
    for (let k = 0; k < ss.length; k++) {
      const e = ss[k] as Edge;
      const at = predCount[e.to] as number;
      (blocks[e.to] as MutableBlock).preds[at] = e;
      predCount[e.to] = at + 1;
    }
  }
  // Taken branch / jump / call first, then the fallthrough (a single edge is in order already). Two
  // edges (a conditional branch, a call) are swapped in place: Array.prototype.sort copies its
  // array for every call, the largest allocation here on branchy code.
  for (let k = 0; k < blocks.length; k++) {
    const ss = (blocks[k] as MutableBlock).succs;
    if (ss.length === 2) {
      const x = ss[0] as Edge, y = ss[1] as Edge;
      if (x.kind === 'fallthrough' && y.kind !== 'fallthrough') { ss[0] = y; ss[1] = x; }
    } else if (ss.length > 2) ss.sort((x, y) => (x.kind === 'fallthrough' ? 1 : 0) - (y.kind === 'fallthrough' ? 1 : 0));
  }

  // An acyclic graph's order and dominators are worked out when first asked for (a recompile
  // asks only where a kernel reads or writes MODE); a cyclic one's now, for its loops.
  let dom: Ordered | undefined;
  let loops: Loop[] = [];
  if (!forward) {
    dom = orderAndDominators(blocks);
    const found = findLoops(blocks, dom.rpo, dom.idom, dom.order);
    loops = found.loops;
    for (const d of found.diagnostics) {
      const b = blocks[d.block];
      const last = b?.instructions[b.instructions.length - 1];
      diagnostics.push(diag(last, last?.pc ?? b?.start ?? entry, target, d.code, d.severity, d.message));
    }
  }
  // Sorted where there is an order to make (Array's sort allocates its work copy even for a list
  // of none or one: most graphs have no diagnostic and no invalid word).
  if (diagnostics.length > 1) diagnostics.sort((a, b) => a.pc - b.pc);
  if (invalid.length > 1) invalid.sort((a, b) => a.pc - b.pc);
  return new Graph(blocks, loops, invalid, diagnostics, dom);
}

type Ordered = ReturnType<typeof orderAndDominators>;

/**
 * The Cfg buildOnce makes: `rpo` and `idom` are orderAndDominators' answer, given at construction
 * or worked out at the first read of either (then kept: every reader gets the same lists).
 */
class Graph implements Cfg {
  readonly entry = 0;
  constructor(
    readonly blocks: readonly BasicBlock[],
    readonly loops: readonly Loop[],
    readonly invalid: readonly InvalidWord[],
    readonly diagnostics: readonly Diagnostic[],
    private ordered: Ordered | undefined,
  ) {}
  get rpo(): readonly number[] {
    return (this.ordered ??= orderAndDominators(this.blocks)).rpo;
  }
  get idom(): readonly number[] {
    return (this.ordered ??= orderAndDominators(this.blocks)).idom;
  }
}
