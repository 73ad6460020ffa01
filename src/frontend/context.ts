// What a unit translator sees: the IR builder at the current instruction, the shader, and
// operand helpers that read and write RDNA operands as IR values. Scalar registers are
// wave-uniform u32 values by operand code; VGPRs per invocation; a VALU write lands only in
// lanes whose EXEC bit is set (Select against the old value); lane masks are written as the
// ballot of each lane's bit.
import type { Instruction, Operand, OperandValue } from '../decode/types.js';
import { NO_FLAGS, type DataType, type InstrDef } from '../isa/types.js';
import type { Shader } from '../container/shader.js';
import { valuMode, type ModeAnalysis } from '../analysis/mode.js';
import { isDynamic as isDynamicRecord, settleUnread } from './mode-reads.js';
import type { KnownBits } from '../analysis/scalar-constants.js';
import { inlineConstant } from '../decode/inline.js';
import { type Block, Builder, type FloatMode, type Imm, type Inst, IrError, type IrFunction, listOf, mixArg, mixOperands, NO_ARGS, NO_IMMS, Replacements, sameOperation } from '../ir/ir.js';
import { type IrType, type Op, type OpEntry, OPS, opInfo } from '../ir/ops.js';
import { TranslateError } from './errors.js';
import { apertureBase } from '../isa/apertures.js';

export const VCC_LO = 106;
export const EXEC_LO = 126;
export const NULL_REG = 125;

/** A register as a number for the block builder's table: SGPR codes 0..255, VGPRs 256 + n, SCC, MODE. */
const VGPR0 = 256, SCC_REG = 256 + 256, MODE_REG = SCC_REG + 1, REGS = MODE_REG + 1;
/**
 * The immediate list [n] of each number below 512, shared by register accesses, the most common
 * instructions the frontend makes, and by the small u32 constants (immediates are never changed;
 * reads share ir.ts's NO_ARGS).
 */
const REG_IMMS: (readonly Imm[])[] = Array.from({ length: 512 }, (_, n) => [n]);
const regImms = (n: number): readonly Imm[] => (n >= 0 && n < 512 ? REG_IMMS[n] as readonly Imm[] : [n]);

/**
 * A BlockBuilder's per-register tables (see its fields of these names); `gen`: the highest stamp in
 * them. `recipeOf` holds no recipe between blocks (every recipe runs before its block ends), nor do
 * `pending` and `made`; `spare`'s first `spareN` are records an earlier owner gave back, holding no
 * IR (a translation's first recipes made records, and their lists, each time).
 */
interface RegTables {
  readonly regVal: (Inst | undefined)[]; readonly regGen: Uint32Array; readonly lastWrite: (Inst | undefined)[]; readonly writePc: (number | undefined)[]; readonly writeGen: Uint32Array;
  readonly writeOrder: Int32Array; readonly recipeOf: (Recipe | undefined)[]; gen: number;
  readonly pending: (Recipe | undefined)[]; readonly made: (Inst | undefined)[]; readonly spare: (Recipe | undefined)[]; spareN: number;
  /**
   * The block's recent pure values (BlockBuilder.number): slot k holds `values[k]` while
   * `valueKeys[2k]` is the block's generation (as an int32), its hash `valueKeys[2k + 1]`.
   * `valueLog`: the slots an owner set (each once: a slot is logged when it is set while empty),
   * which `release` empties, not all of them (a small kernel sets a few dozen of the 4,096, and
   * emptying the whole table was a fortieth of its translation). `regLog` the same for `regVal`
   * (a slot may be set, emptied and set again: past REGS entries `release` empties them all).
   */
  readonly values: (Inst | undefined)[]; readonly valueKeys: Int32Array; readonly valueLog: Int32Array; readonly regLog: Int32Array;
  /** The u32 constants below CONST_SLOTS by value (BlockBuilder.constGet), `constLog` the slots set (each once, as `valueLog`). */
  readonly smallConsts: (Inst | undefined)[]; readonly constLog: Int32Array;
}
/** The u32 constants kept in a list by value (most a kernel asks for: offsets, shifts, masks of a few bits), not in a Map. */
const CONST_SLOTS = 512;
/**
 * The value table's slots: a value is kept until a later one of the same slot replaces it (a table
 * of fixed size, not one that grows to hold every value: the repeats it finds are near, and a
 * table of every value of a long block was slower to ask than the repeats it saved).
 */
const VALUE_SLOTS = 4096;
const newTables = (): RegTables => ({
  regVal: new Array<Inst | undefined>(REGS).fill(undefined), regGen: new Uint32Array(REGS),
  lastWrite: new Array<Inst | undefined>(REGS).fill(undefined), writePc: new Array<number | undefined>(REGS).fill(undefined), writeGen: new Uint32Array(REGS),
  writeOrder: new Int32Array(REGS), recipeOf: new Array<Recipe | undefined>(REGS).fill(undefined), gen: 0, pending: [], made: [], spare: [], spareN: 0,
  values: new Array<Inst | undefined>(VALUE_SLOTS).fill(undefined), valueKeys: new Int32Array(2 * VALUE_SLOTS), valueLog: new Int32Array(VALUE_SLOTS), regLog: new Int32Array(REGS),
  smallConsts: new Array<Inst | undefined>(CONST_SLOTS).fill(undefined), constLog: new Int32Array(CONST_SLOTS),
});
/**
 * Tables given back by builders that are done (BlockBuilder.release), for the next ones. Core code
 * runs synchronously and a table has one owner at a time (taken out of the pool while owned).
 */
const TABLES: RegTables[] = [];

/**
 * By op table index: the case of BlockBuilder.emit for an op it does more with than place it (0:
 * none), a number, which emit dispatches on (not on the op's name, compared case by case).
 */
const BUILDER_OPS = new Uint8Array(Object.keys(OPS).length);
const B_END = 1, B_GET_SGPR = 2, B_SET_SGPR = 3, B_GET_VGPR = 4, B_SET_VGPR = 5, B_GET_SCC = 6, B_SET_SCC = 7, B_GET_MODE = 8, B_SET_MODE = 9,
  B_CONST_U32 = 10, B_CONST_U1 = 11, B_LANE_ID = 12, B_AS_F32 = 13, B_HALF = 14, B_PACK = 15, B_SELECT = 16;
for (const [op, kind] of [['Branch', B_END], ['BranchCond', B_END], ['EndProgram', B_END], ['GetSgpr', B_GET_SGPR], ['SetSgpr', B_SET_SGPR],
  ['GetVgpr', B_GET_VGPR], ['SetVgpr', B_SET_VGPR], ['GetScc', B_GET_SCC], ['SetScc', B_SET_SCC], ['GetMode', B_GET_MODE], ['SetMode', B_SET_MODE],
  ['ConstU32', B_CONST_U32], ['ConstU1', B_CONST_U1], ['LaneId', B_LANE_ID], ['BitcastU32F32', B_AS_F32], ['Lo32', B_HALF], ['Hi32', B_HALF], ['Pack64', B_PACK], ['Select32', B_SELECT]] as const) {
  BUILDER_OPS[opInfo(op).index] = kind;
}
/**
 * By op table index: whether the builder numbers the op's values (BlockBuilder.number): pure as
 * the CSE pass counts it (no effect, no terminator, not Phi/Undef/Param: the same op, arguments,
 * immediates and float mode give the same value), its type the op's own (not `typed`: Call is
 * left to CSE), and not a register read (GetSgpr and the like: before SSA construction a read's
 * value depends on the writes before it; the builder forwards those itself). The constants, the
 * lane id and f32 views have caches of their own in `emit`.
 */
const NUMBERED = new Uint8Array(Object.keys(OPS).length);
for (const op of Object.keys(OPS) as Op[]) {
  const info = opInfo(op);
  NUMBERED[info.index] = !info.effect && !info.terminator && !info.typed && BUILDER_OPS[info.index] !== B_GET_SGPR && BUILDER_OPS[info.index] !== B_GET_VGPR
    && BUILDER_OPS[info.index] !== B_GET_SCC && BUILDER_OPS[info.index] !== B_GET_MODE ? 1 : 0;
}

/**
 * An op with its table entry and emit's case for it, found once (`opRef`, at a unit's load) for the
 * ops the units emit most: `BlockBuilder.emitRef` places it without `emit`'s look-up of the entry by
 * name (a Map probe at every instruction, a twentieth of translation's own time) and of its case.
 */
export interface OpRef {
  readonly op: Op;
  readonly info: OpEntry;
  /** BUILDER_OPS's case (0: none), and for none whether the op is NUMBERED. */
  readonly kind: number;
  readonly numbered: boolean;
  /** `valueHash`'s start for the op (its table index mixed), for BlockBuilder.value. */
  readonly seed: number;
}
export function opRef(op: Op): OpRef {
  const info = opInfo(op);
  return { op, info, kind: BUILDER_OPS[info.index] as number, numbered: NUMBERED[info.index] === 1, seed: opSeed(info.index) };
}

/** The ops the context's own helpers emit at most instructions (`opRef`). */
const SELECT32 = opRef('Select32'), PACK64 = opRef('Pack64'), LO32 = opRef('Lo32'), HI32 = opRef('Hi32'), LANE_BIT = opRef('LaneBit'), LANE_ID = opRef('LaneId'), OR32 = opRef('Or32'), IEQ32 = opRef('IEq32');
const BALLOT_LO = opRef('BallotLo'), BALLOT_HI = opRef('BallotHi'), UNDEF = opRef('Undef'), AS_F32 = opRef('BitcastU32F32');

/** A number for a value's op (by table index), arguments and immediates: equal values, equal numbers (the float mode is left to `sameOperation`). */
function valueHash(index: number, args: readonly Inst[], imms: readonly Imm[]): number {
  return spreadHash(mixOperands(opSeed(index), args, imms));
}
/** valueHash's start for the op of table index `index`. */
function opSeed(index: number): number { return Math.imul(index + 1, 0x9e3779b1); }
/** valueHash's last step: the mixed bits spread down to the low ones the value table's index takes. */
function spreadHash(h: number): number {
  h ^= h >>> 15; h = Math.imul(h, 0x2c1b3c6d);
  return h ^ (h >>> 12);
}
/** The entries of the ops the builder makes most, for its paths that place them without `emit`. */
const GET_SGPR = opInfo('GetSgpr'), GET_VGPR = opInfo('GetVgpr'), CONST_U32 = opInfo('ConstU32'), CONST_U64 = opInfo('ConstU64');
const SET_SGPR = opInfo('SetSgpr'), SET_VGPR = opInfo('SetVgpr'), SET_SCC = opInfo('SetScc');
const MAX_SAFE_BIG = BigInt(Number.MAX_SAFE_INTEGER);

/** The arguments of a recipe's one op: the first `argc` of `a`, `b`, `c` (a list of its length: an instruction's arguments are never grown). */
function recipeArgs(argc: 1 | 2 | 3, a: Inst | undefined, b: Inst | undefined, c: Inst | undefined): Inst[] {
  return argc === 1 ? listOf(a as Inst) : argc === 2 ? listOf(a as Inst, b as Inst) : listOf(a as Inst, b as Inst, c as Inst);
}

/**
 * A register value not made yet (BlockBuilder.setLazy): `make()`, or where `make` is undefined the
 * one instruction of `op` (its OpRef: no look-up by name when it runs) of the first `argc` of `a`,
 * `b`, `c` (most recipes: data, not a closure per write). Records are reused (BlockBuilder.spare): every field is written at each use.
 */
interface Recipe {
  reg: number;
  make: (() => Inst) | undefined;
  op: OpRef;
  argc: 1 | 2 | 3;
  a: Inst | undefined;
  b: Inst | undefined;
  c: Inst | undefined;
  at: number;
  pc: number | undefined;
  /** The function's id count when it was written: what it may take from the value table was made before (BlockBuilder.number). */
  mark: number;
  ballot: Inst | undefined;
  half: 0 | 1;
  /**
   * When its register's recipes began to be pending (kept when a recipe replaces the register's
   * last): of recipes of one place, the one pending longest runs first.
   */
  seq: number;
  /** Its index in BlockBuilder.pending. */
  ix: number;
}

/**
 * The builder the frontend translates one block with: local value numbering of the register
 * reads and writes (a read after a write or a read of the same register in the block is the value
 * already known, not a new instruction), and of the values every instruction asks for again (each
 * constant, the lane id, this lane's EXEC bit while EXEC is unchanged). What it leaves out is what
 * SSA construction and value numbering would remove later; left in, it made most of the IR the
 * passes walked (11 instructions per RDNA instruction before, docs/TECHNICAL_DEBT.md).
 */
export class BlockBuilder extends Builder {
  /**
   * The value each register holds, by the number above: slot `reg` counts only while
   * `regGen[reg]` is this block's generation (`gen`), so moving the builder to the next block
   * (`reset`) forgets every register without touching the slots. Arrays of REGS slots made once
   * per builder, not a Map per block: translate moves one builder through all the blocks of a
   * kernel, and a branchy kernel's Maps per block were most of what translate allocated.
   */
  private readonly regVal: (Inst | undefined)[];
  private readonly regGen: Uint32Array;
  /** This block's generation (> 0: a slot stamped 0 was never set; above every stamp a table's earlier owners left). */
  private gen: number;
  /**
   * The constants of the block by value, from CONST_SLOTS up (below: `smallConsts`; made at the
   * first). A value made in another block (the builder's earlier blocks: `reset` keeps these) is not this block's: `cached` checks the block an entry was
   * made in, which `super.emit` set and nothing in the frontend changes.
   */
  private consts: Map<number, Inst> | undefined;
  /** The constants below CONST_SLOTS (RegTables.smallConsts), the first `constLogN` of `constLog` the slots this builder set. */
  private readonly smallConsts: (Inst | undefined)[];
  private readonly constLog: Int32Array;
  private constLogN = 0;
  // Made at their first use (most blocks need neither; a kernel of thousands of blocks made them all).
  private consts64: Map<number | bigint, Inst> | undefined;
  private readonly bools: (Inst | undefined)[] = [undefined, undefined];
  /**
   * Each value's f32 view (BitcastU32F32 of it), kept on the values themselves (ir.ts
   * `Replacements`: a field of the instruction under this map's own stamp), not in a Map by
   * instruction: a straight-line kernel's Map grew to an entry per value, and its inserts were a
   * twelfth of translation. No pass runs on the kernel's function while the builder lives (the
   * passes run after translation, each with a map of its own stamp).
   */
  private asF32: Replacements | undefined;
  private laneIdValue: Inst | undefined;
  /**
   * Where the argument-free values (constants, the lane id) go, when set: the function's entry
   * block (translate's), whose terminator is placed already (a record the builders of one function
   * share). They are made once per function there, not once per block: what the CSE pass hoisted
   * there (to the front of the entry, in the order of the blocks) and merged; a kernel of
   * thousands of small blocks made each block's constants and lane id again. `made`: those made so
   * far, in order, which `placeConstants` puts at the front of the block when translation is done
   * (inserted there one by one, each moved the whole launch state one further).
   */
  constPlace: ConstPlace | undefined;
  /**
   * The launch EXEC's lane bit (the entry block's InGrid, of which EXEC is the ballot), set when
   * translate's scan found no instruction that may write EXEC: then every block's EXEC is the
   * launch value, and this lane's bit of it is that one value, not a read of EXEC and a LaneBit
   * per block (before SSA construction a block knows only its own writes; a kernel of thousands
   * of blocks made one pair each, which only SSA construction and simplify took apart). A record
   * the builders of one function share; `written` is set at any write of EXEC the builders see,
   * which makes translate translate the function again without it.
   */
  execShared: { readonly bit: Inst; written: boolean } | undefined;
  /**
   * Set when translate's scan found that every instruction that may write EXEC narrows it (the new
   * EXEC within the old in every lane; their pcs in `pcs`) and none reads another lane: a lane off
   * in EXEC is then never active again and nothing reads what it holds, so a VGPR write under this
   * lane's EXEC bit needs no select (TContext.writeLane). A record the builders of one function
   * share; `violated` is set at any write of EXEC from another pc, which makes translate translate
   * the function again without it (as it does when a lane-crossing op was made after all).
   */
  execNarrow: { readonly pcs: ReadonlySet<number>; violated: boolean } | undefined;
  private execBitValue: Inst | undefined;
  private execBitOf: Inst | undefined;
  private execBitOfHi: Inst | undefined;
  /**
   * Each register's last write in the block, placed only when the block ends (before its
   * terminator): SSA construction keeps only a block's last write of each register (reads after it
   * are forwarded here), so the earlier ones would only be walked and dropped. The first `writeN`
   * of `writeOrder` are the registers in first-write order (each at most once); a register's
   * write is `lastWrite[reg]` while `writeGen[reg]` is `gen` (stamped as `regGen` is). A write through `setSgpr`/`setVgpr` or a
   * recipe's is not made until the block ends (`lastWrite[reg]` undefined: the write of the value
   * the register holds, `regVal[reg]` (only a write changes it once set), at pc `writePc[reg]`), so a write a later one replaces is never made: about a
   * quarter of what straight-line code made before. Only its instruction id differs from making it
   * at the write (it is made after the block's other instructions): what the passes and the
   * emitter produce never depends on id values, only on the order of blocks and instructions.
   */
  private readonly lastWrite: (Inst | undefined)[];
  private readonly writePc: (number | undefined)[];
  private readonly writeGen: Uint32Array;
  /** The tables above, taken from the pool (`TABLES`) and given back by `release`. */
  private readonly tables: RegTables;
  private readonly writeOrder: Int32Array;
  private writeN = 0;
  /**
   * Scalar registers (SCC, SGPRs) whose value is a recipe not yet run (`setLazy`), by the number
   * above: most SALU results' SCC and most carries' lane masks are written again before anything
   * reads them, so a recipe runs only when its register is read in the block or the block ends,
   * and what it makes is placed where the write was (`at` in the block's list, with the writing
   * instruction's pc). A lane mask's recipe is the ballot of a per-lane bool: that bool is this
   * lane's bit of it (`maskBit`), which needs no ballot at all. The first `pendingN` of `pending`
   * list them in no order (removed by moving the last into the gap); `recipeOf` finds a
   * register's (a table by register: a Map shrank and grew its table as recipes came and went, an
   * allocation each time). Lists here are counted, never popped or cut: V8 gives back the room of
   * a list that shrinks, and the next push allocates it again.
   */
  private readonly pending: (Recipe | undefined)[];
  private pendingN = 0;
  private readonly recipeOf: (Recipe | undefined)[];
  /** The instructions a recipe made, while `runRecipe` moves them to their place. */
  private readonly made: (Inst | undefined)[];
  /** Recipe records done with, for the next recipes (the first `spareN`; given back with the tables). */
  private readonly spare: (Recipe | undefined)[];
  private spareN: number;
  /** The last recipe's `seq`. */
  private recipeSeq = 0;
  /** While a recipe runs: it may only make values from values it was given (no register access, no cached value). */
  private inRecipe = false;
  /** The running recipe's `mark`. */
  private recipeMark = 0;
  /** The block's recent pure values by op, arguments, immediates and float mode (`number`), stamped with the block's generation as the register tables are. */
  private readonly values: (Inst | undefined)[];
  private readonly valueKeys: Int32Array;
  /** The first `valueLogN` of `valueLog` are the slots of `values` this builder set (RegTables.valueLog). */
  private readonly valueLog: Int32Array;
  private valueLogN = 0;
  /** The same for `regVal` (RegTables.regLog); past REGS, `release` empties every slot. */
  private readonly regLog: Int32Array;
  private regLogN = 0;

  constructor(fn: IrFunction, block: Block, pc?: number) {
    super(fn, block, pc);
    const t = TABLES.pop() ?? newTables();
    this.tables = t;
    this.regVal = t.regVal; this.regGen = t.regGen; this.lastWrite = t.lastWrite; this.writePc = t.writePc; this.writeGen = t.writeGen; this.writeOrder = t.writeOrder; this.recipeOf = t.recipeOf;
    this.values = t.values; this.valueKeys = t.valueKeys; this.valueLog = t.valueLog; this.regLog = t.regLog;
    this.smallConsts = t.smallConsts; this.constLog = t.constLog;
    this.pending = t.pending; this.made = t.made; this.spare = t.spare; this.spareN = t.spareN;
    // Every stamp in the tables is at most t.gen (their earlier owners' last generation).
    if (t.gen >= 0xfffffffe) { t.regGen.fill(0); t.writeGen.fill(0); t.valueKeys.fill(0); t.gen = 0; }
    this.gen = t.gen + 1;
  }

  /**
   * Gives the builder's tables back to the pool for the next builder (a translate made its own,
   * about 12 KB, each time): the builder must not be used after. Its block must have ended (no
   * write left to place). What the tables hold is left behind as stale stamps, except the values,
   * cleared so that the pool keeps no IR alive.
   */
  release(): void {
    if (this.pendingN !== 0 || this.writeN !== 0) return; // not ended (an error path): the tables are dropped
    const t = this.tables;
    t.gen = this.gen;
    t.spareN = this.spareN;
    const regVal = t.regVal;
    if (this.regLogN > REGS) regVal.fill(undefined);
    else { const log = t.regLog; for (let j = 0; j < this.regLogN; j++) regVal[log[j] as number] = undefined; }
    this.regLogN = 0;
    const smallConsts = t.smallConsts, clog = t.constLog;
    for (let j = 0; j < this.constLogN; j++) smallConsts[clog[j] as number] = undefined;
    this.constLogN = 0;
    const values = t.values, log = t.valueLog;
    for (let j = 0; j < this.valueLogN; j++) values[log[j] as number] = undefined;
    this.valueLogN = 0;
    if (TABLES.length < 4) TABLES.push(t);
  }

  /**
   * Moves the builder to a new, empty block, as a new BlockBuilder there would start: no register,
   * constant or cached value known, nothing pending. The block before must have ended (its
   * terminator placed its writes and ran its recipes).
   */
  reset(block: Block, pc: number | undefined): void {
    if (this.pendingN !== 0 || this.writeN !== 0 || this.inRecipe) throw new IrError('a block builder moved on before its block ended');
    this.block = block;
    this.pc = pc;
    // Past 2^32 - 1 generations a stamp could repeat: start the stamps over.
    if (this.gen === 0xffffffff) { this.regGen.fill(0); this.writeGen.fill(0); this.valueKeys.fill(0); this.gen = 0; }
    this.gen++;
    // The constants and lane id of the block before stay for `cachedConst` to judge.
    this.execBitValue = undefined; this.execBitOf = undefined; this.execBitOfHi = undefined;
  }

  /** A write of EXEC at this.pc: what execShared and execNarrow record of it. */
  private execWritten(): void {
    if (this.execShared !== undefined) this.execShared.written = true;
    const n = this.execNarrow;
    if (n !== undefined && (this.pc === undefined || !n.pcs.has(this.pc))) n.violated = true;
  }

  /** The cached value `c` if it was made in this block (see `consts`). */
  private cached(c: Inst | undefined): Inst | undefined { return c !== undefined && c.block === this.block ? c : undefined; }
  /** `cached` for an argument-free value, which may also be in `constPlace`'s block (the entry: it dominates every block). */
  private cachedConst(c: Inst | undefined): Inst | undefined {
    return c !== undefined && (c.block === this.block || (this.constPlace !== undefined && c.block === this.constPlace.block)) ? c : undefined;
  }

  /** Makes the argument-free value `op` after the values `constPlace` has placed, or where the builder stands if it has none. */
  private constant(op: Op, info: OpEntry, imms: readonly Imm[]): Inst {
    const at = this.constPlace;
    if (at === undefined || this.ended()) return this.place(op, info, NO_ARGS, imms); // which reports a block that ended
    const i = this.fn.makeAt(op, NO_ARGS, imms, undefined, this.pc, undefined, info);
    i.block = at.block;
    at.made.push(i);
    return i;
  }

  /**
   * Whether the block has its terminator (read at the last index only where there is one: a read
   * at index -1 of an empty block, at most blocks' first write, is a property look-up by name).
   */
  private ended(): boolean {
    const insts = this.block.insts, n = insts.length;
    return n !== 0 && (insts[n - 1] as Inst).info.terminator === true;
  }

  private setReg(reg: number, v: Inst | undefined): void {
    const vals = this.regVal;
    if (vals[reg] === undefined) { const n = this.regLogN; if (n < REGS) this.regLog[n] = reg; this.regLogN = n + 1; }
    vals[reg] = v; this.regGen[reg] = this.gen;
  }

  override emit(op: Op, args?: Inst[], imms?: readonly Imm[], opts?: { type?: IrType; float?: FloatMode }): Inst {
    // Most ops are placed as they are: one look-up in the op table, not the cases below one by one.
    const info = opInfo(op);
    const kind = BUILDER_OPS[info.index] as number;
    if (!kind) return NUMBERED[info.index] ? this.number(op, info, args, imms, opts) : this.place(op, info, args, imms, opts);
    return this.emitCase(op, info, kind, args, imms, opts);
  }

  /** `emit` of the op `r` names (its entry and case found when `r` was made). */
  emitRef(r: OpRef, args?: Inst[], imms?: readonly Imm[], opts?: { type?: IrType; float?: FloatMode }): Inst {
    const kind = r.kind;
    if (kind === 0) return r.numbered ? this.number(r.op, r.info, args, imms, opts) : this.place(r.op, r.info, args, imms, opts);
    return this.emitCase(r.op, r.info, kind, args, imms, opts);
  }

  /** `emit` of an op with a case of its own (`kind`: BUILDER_OPS's). */
  private emitCase(op: Op, info: OpEntry, kind: number, args?: Inst[], imms?: readonly Imm[], opts?: { type?: IrType; float?: FloatMode }): Inst {
    let reg = -1, write = false;
    switch (kind) {
      case B_END: this.placeWrites(op !== 'EndProgram'); return this.place(op, info, args, imms, opts);
      case B_GET_SGPR: reg = Number(imms?.[0]); break;
      case B_SET_SGPR: reg = Number(imms?.[0]); write = true; break;
      case B_GET_VGPR: reg = VGPR0 + Number(imms?.[0]); break;
      case B_SET_VGPR: reg = VGPR0 + Number(imms?.[0]); write = true; break;
      case B_GET_SCC: reg = SCC_REG; break;
      case B_SET_SCC: reg = SCC_REG; write = true; break;
      case B_GET_MODE: reg = MODE_REG; break;
      case B_SET_MODE: reg = MODE_REG; write = true; break;
      case B_CONST_U32: {
        if (this.inRecipe) throw new IrError('a register recipe made a constant (pass it in)');
        const v = Number(imms?.[0]);
        const c = this.cachedConst(this.constGet(v));
        if (c) return c;
        const i = this.constant(op, info, imms ?? NO_IMMS);
        this.constSet(v, i);
        return i;
      }
      case B_CONST_U1: {
        const v = Number(imms?.[0]) ? 1 : 0;
        const c = this.cachedConst(this.bools[v]);
        if (this.inRecipe) {
          // The constant if it was made before the recipe's write (or in the entry block), else one at the recipe's place (`number`).
          return c !== undefined && (c.block !== this.block || c.id < this.recipeMark) ? c : this.number(op, info, args, imms, opts);
        }
        return c ?? (this.bools[v] = this.constant(op, info, imms ?? NO_IMMS));
      }
      case B_LANE_ID: {
        if (this.inRecipe) throw new IrError('a register recipe asked for the lane id (pass it in)');
        return this.cachedConst(this.laneIdValue) ?? (this.laneIdValue = this.constant(op, info, NO_IMMS));
      }
      // The dword pairs of 64-bit values (the halves of a pair are its dwords, a pair of a value's
      // halves is the value, a pair of constants is a constant: address offsets, 64-bit sources)
      // and the selects (a select of one value is that value; a select of a select on the same
      // condition skips the inner one's value in the lanes it keeps, a VGPR written twice under
      // one EXEC: what simplify.ts does, here before the repeats it leaves are numbered), and a
      // value's f32 view: BlockBuilder.value's cases, for arguments of the op's count and no
      // immediates or options.
      case B_HALF: case B_PACK: case B_SELECT: case B_AS_F32: {
        const a = args?.[0], n = args?.length ?? 0;
        if (a !== undefined && n === (kind === B_PACK ? 2 : kind === B_SELECT ? 3 : 1) && (imms === undefined || imms.length === 0) && opts?.type === undefined && opts?.float === undefined) {
          return this.value(kind === B_SELECT ? SELECT32 : kind === B_PACK ? PACK64 : kind === B_AS_F32 ? AS_F32 : op === 'Lo32' ? LO32 : HI32, a, args?.[1], args?.[2]);
        }
        return kind === B_SELECT || kind === B_AS_F32 ? this.place(op, info, args, imms, opts) : this.number(op, info, args, imms, opts); // which the verifier reports
      }
      default: return this.place(op, info, args, imms, opts);
    }
    if (!(reg >= 0 && reg < REGS)) return this.place(op, info, args, imms, opts);
    if (this.inRecipe) throw new IrError(`a register recipe accessed a register (${op})`);
    if (write) {
      if (reg === EXEC_LO || reg === EXEC_LO + 1) this.execWritten();
      if (this.pendingN !== 0) this.dropRecipe(reg);
      if (this.ended()) return this.place(op, info, args, imms, opts); // which reports it
      const i = this.fn.makeAt(op, args ?? [], imms ?? [], opts?.type, this.pc, opts?.float, info);
      i.block = this.block;
      this.setWrite(reg, i);
      this.setReg(reg, args?.[0]);
      return i;
    }
    const known = this.known(reg);
    if (known) return known;
    const i = this.place(op, info, args, imms, opts);
    this.setReg(reg, i);
    return i;
  }

  /**
   * A pure value (NUMBERED) the block already made from the same arguments, immediates and float
   * mode, or else made now: local value numbering, of what the CSE pass would remove later (the
   * second s_or_b32 of the same sources, a compare repeated, each v_mov's EXEC select), left in
   * it was walked by every pass before CSE. Inside a recipe only a value made before the recipe's
   * write is taken (`mark`: ids count up as instructions are made), as one made later stands after
   * the recipe's place; a value the recipe makes anew then serves the later asks.
   */
  private number(op: Op, info: OpEntry, args: Inst[] = NO_ARGS, imms: readonly Imm[] = NO_IMMS, opts?: { type?: IrType; float?: FloatMode }): Inst {
    const h = valueHash(info.index, args, imms);
    const k = h & (VALUE_SLOTS - 1), keys = this.valueKeys, gen = this.gen | 0;
    if (keys[2 * k] === gen && keys[2 * k + 1] === h) {
      const x = this.values[k] as Inst;
      if (sameOperation(x, info, args, imms, opts?.float) && (!this.inRecipe || x.id < this.recipeMark)) return x;
    }
    return this.remember(k, h, this.place(op, info, args, imms, opts));
  }

  /** Records value `i` of hash `h` in slot `k` of the block's value table (number, value); returns it. */
  private remember(k: number, h: number, i: Inst): Inst {
    this.valueKeys[2 * k] = this.gen | 0; this.valueKeys[2 * k + 1] = h;
    if (this.values[k] === undefined) this.valueLog[this.valueLogN++] = k;
    this.values[k] = i;
    return i;
  }

  /**
   * `emitRef(r, [a])`, `[a, b]` or `[a, b, c]` (the arguments given) of an op without immediates or
   * float mode, as emit makes it (the cases of Select32, Lo32/Hi32, Pack64 and BitcastU32F32 are these,
   * which emit hands here; `number`'s hash and table), its list of arguments made only for a value the block does not have yet: most values
   * the translators ask for are these, and many the block has already (a VGPR write's EXEC select,
   * a compare repeated, an address's halves), where the list and emit's calls were the cost.
   */
  value(r: OpRef, a: Inst, b?: Inst, c?: Inst): Inst {
    const kind = r.kind;
    if (kind !== 0) {
      if (kind === B_SELECT && b !== undefined && c !== undefined) {
        if (b === c) return b;
        if (c.op === 'Select32' && c.args[0] === a) {
          const z = c.args[2] as Inst;
          if (z === b) return b;
          c = z;
        }
      } else if (kind === B_HALF && b === undefined) {
        if (a.op === 'Pack64') return a.args[r.op === 'Lo32' ? 0 : 1] as Inst;
      } else if (kind === B_AS_F32 && b === undefined) {
        // A value's f32 view, made once per value in the block; the bits of an f32 view are the value.
        if (this.inRecipe) return this.place(r.op, r.info, listOf(a));
        if (a.op === 'BitcastF32U32') return a.args[0] as Inst;
        const views = (this.asF32 ??= new Replacements());
        let v = this.cached(views.get(a));
        if (!v) { v = this.place(r.op, r.info, listOf(a)); views.set(a, v); }
        return v;
      } else if (kind === B_PACK && b !== undefined && c === undefined) {
        if (a.op === 'Lo32' && b.op === 'Hi32' && a.args[0] === b.args[0]) return a.args[0] as Inst;
        if (a.op === 'ConstU32' && b.op === 'ConstU32' && !this.inRecipe) return this.u64(BigInt(a.imms[0] ?? 0) | (BigInt(b.imms[0] ?? 0) << 32n));
      } else return this.emitRef(r, c !== undefined ? listOf(a, b as Inst, c) : b !== undefined ? listOf(a, b) : listOf(a));
    }
    const n = c !== undefined ? 3 : b !== undefined ? 2 : 1;
    // `number` of these arguments (valueHash's steps, mixOperands's for each argument), for a numbered op.
    let h = 0, k = -1;
    if (kind !== 0 || r.numbered) {
      h = mixArg(r.seed, a);
      if (n > 1) h = mixArg(h, b as Inst);
      if (n > 2) h = mixArg(h, c as Inst);
      h = spreadHash(h);
      k = h & (VALUE_SLOTS - 1);
      if (this.valueKeys[2 * k] === (this.gen | 0) && this.valueKeys[2 * k + 1] === h) {
        const x = this.values[k] as Inst, xa = x.args;
        if (x.info === r.info && xa.length === n && xa[0] === a && (n < 2 || xa[1] === b) && (n < 3 || xa[2] === c) && x.imms.length === 0 && x.float === undefined
          && (!this.inRecipe || x.id < this.recipeMark)) return x;
      }
    }
    const i = this.place(r.op, r.info, n === 3 ? listOf(a, b as Inst, c as Inst) : n === 2 ? listOf(a, b as Inst) : listOf(a));
    return k < 0 ? i : this.remember(k, h, i);
  }

  /**
   * GetSgpr / GetVgpr of one register: a read the block already answers (`known`, as emit's reads
   * ask) returns its value without making the arrays `emit` takes (register reads are most of what
   * the translators ask for, and most are answered); otherwise `read` makes it.
   */
  getSgpr(code: number): Inst {
    return code >= 0 && code < VGPR0 ? this.readReg(code, 'GetSgpr', GET_SGPR, code) : this.known(code) ?? this.read(code, 'GetSgpr', GET_SGPR, code);
  }
  /** GetScc the same way: a read the block answers (most: s_addc_u32's carry-in, s_cselect) without emit's look-ups. */
  getScc(): Inst {
    if (!this.inRecipe) {
      if (this.pendingN !== 0 && this.recipeOf[SCC_REG] !== undefined) this.runRecipe(SCC_REG);
      if (this.regGen[SCC_REG] === this.gen) { const v = this.regVal[SCC_REG]; if (v !== undefined) return v; }
    }
    return this.emit('GetScc');
  }
  getVgpr(n: number): Inst {
    return n >= 0 && n < 256 ? this.readReg(VGPR0 + n, 'GetVgpr', GET_VGPR, n) : this.known(VGPR0 + n) ?? this.read(VGPR0 + n, 'GetVgpr', GET_VGPR, n);
  }
  /**
   * `known`, then `read`, of register `reg` of the files (number `n` of its file), written out in
   * one call (the two calls were most of a read).
   */
  private readReg(reg: number, op: 'GetSgpr' | 'GetVgpr', info: OpEntry, n: number): Inst {
    if (this.inRecipe) return this.read(reg, op, info, n); // which reports it
    if (this.pendingN !== 0 && this.recipeOf[reg] !== undefined) this.runRecipe(reg);
    if (this.regGen[reg] === this.gen) { const v = this.regVal[reg]; if (v !== undefined) return v; }
    const i = this.place(op, info, NO_ARGS, regImms(n));
    this.setReg(reg, i);
    return i;
  }
  /**
   * A read of register `reg` (number `n` of its file) the block does not know: made, and known from
   * here on, as `emit` makes it, without emit's look-ups of the op and the register again.
   */
  private read(reg: number, op: 'GetSgpr' | 'GetVgpr', info: OpEntry, n: number): Inst {
    if (!(reg >= 0 && reg < REGS) || this.inRecipe) return this.emit(op, NO_ARGS, regImms(n)); // which decides or reports
    const i = this.place(op, info, NO_ARGS, regImms(n));
    this.setReg(reg, i);
    return i;
  }
  /** The value the block knows register `reg` holds, its pending recipe run first (undefined: none, or emit must decide and report). */
  private known(reg: number): Inst | undefined {
    if (!(reg >= 0 && reg < REGS) || this.inRecipe) return undefined;
    if (this.pendingN !== 0 && this.recipeOf[reg] !== undefined) this.runRecipe(reg);
    return this.regGen[reg] === this.gen ? this.regVal[reg] : undefined;
  }

  /** Records `w` as register `reg`'s last write in the block. */
  private setWrite(reg: number, w: Inst): void {
    if (this.writeGen[reg] !== this.gen) { this.writeGen[reg] = this.gen; this.writeOrder[this.writeN++] = reg; }
    this.lastWrite[reg] = w;
  }

  /** Records the write of `x` to register `reg` at pc `pc`, its instruction made when the block ends. */
  private setWriteLazy(reg: number, pc: number | undefined): void {
    if (this.writeGen[reg] !== this.gen) { this.writeGen[reg] = this.gen; this.writeOrder[this.writeN++] = reg; }
    this.lastWrite[reg] = undefined;
    this.writePc[reg] = pc;
  }

  /**
   * SetSgpr / SetVgpr of one register, as `emit` writes it (the value known to the block's later
   * reads, the write placed when the block ends) without the arrays `emit` takes and without an
   * instruction until the block ends (`lastWrite`).
   */
  setSgpr(code: number, x: Inst): void {
    // Where emit would record the write (otherwise it reports it: inside a recipe, after the terminator).
    if (code >= 0 && code < VGPR0 && !this.inRecipe && !this.ended()) this.setRegLazy(code, x);
    else this.emit('SetSgpr', listOf(x), regImms(code));
  }
  setVgpr(n: number, x: Inst): void {
    if (n >= 0 && n < 256 && !this.inRecipe && !this.ended()) this.setRegLazy(VGPR0 + n, x);
    else this.emit('SetVgpr', listOf(x), regImms(n));
  }
  private setRegLazy(reg: number, x: Inst): void {
    if (reg === EXEC_LO || reg === EXEC_LO + 1) this.execWritten();
    if (this.pendingN !== 0 && this.recipeOf[reg] !== undefined) this.dropRecipe(reg);
    this.setWriteLazy(reg, this.pc);
    this.setReg(reg, x);
  }

  /** The constants, the same way: a constant the block has is returned without `emit`'s arrays. */
  override u32(v: number): Inst {
    if (this.inRecipe) return super.u32(v); // which reports it
    const n = v >>> 0;
    const c = this.cachedConst(n < CONST_SLOTS ? this.smallConsts[n] : this.consts?.get(n));
    if (c !== undefined) return c;
    const i = this.constant('ConstU32', CONST_U32, regImms(n));
    this.constSet(n, i);
    return i;
  }
  /** The u32 constant the builder made under key `v` (its value; emit's key is the immediate as given). */
  private constGet(v: number): Inst | undefined {
    return v >= 0 && v < CONST_SLOTS && (v | 0) === v ? this.smallConsts[v] : this.consts?.get(v);
  }
  private constSet(v: number, i: Inst): void {
    if (v >= 0 && v < CONST_SLOTS && (v | 0) === v) {
      if (this.smallConsts[v] === undefined) this.constLog[this.constLogN++] = v;
      this.smallConsts[v] = i;
    } else (this.consts ??= new Map()).set(v, i);
  }
  override u1(v: boolean): Inst { return (this.inRecipe ? undefined : this.cachedConst(this.bools[v ? 1 : 0])) ?? super.u1(v); }

  /** A u64 constant, made once per block. */
  u64(v: bigint): Inst { return this.u64Keyed(v >= -MAX_SAFE_BIG && v <= MAX_SAFE_BIG ? Number(v) : v, v); }
  /** `u64` of a non-negative safe integer (no BigInt made unless the constant is). */
  u64Of(n: number): Inst { return this.u64Keyed(n, undefined); }
  /**
   * The u64 constant `v` (undefined: BigInt(key)) by `key`, its value as a number where that is a
   * safe integer (a look-up by a number is cheaper than by a BigInt, and both ways find one
   * entry), else the BigInt.
   */
  private u64Keyed(key: number | bigint, v: bigint | undefined): Inst {
    if (this.inRecipe) throw new IrError('a register recipe made a constant (pass it in)');
    const consts = (this.consts64 ??= new Map());
    const c = this.cachedConst(consts.get(key));
    if (c) return c;
    const i = this.constant('ConstU64', CONST_U64, [v ?? BigInt(key)]);
    consts.set(key, i);
    return i;
  }

  /**
   * Writes SCC as `make()`, run only if SCC is read before another write replaces it (in this
   * block, or after it: the block's end runs it). `make` emits pure ops on the values it closes
   * over, made before this call (constants included): its instructions go where this write is.
   */
  setSccLazy(make: () => Inst): void { this.setLazy(SCC_REG, make, UNDEF, 1, undefined, undefined, undefined, undefined, 0); } // no op is made where `make` is given

  /** `setSccLazy` of the one instruction `op` (context.ts `opRef`) of `a` and the `b`, `c` given (as data: no closure per write). */
  setSccOp(op: OpRef, a: Inst, b?: Inst, c?: Inst): void {
    this.setLazy(SCC_REG, undefined, op, c !== undefined ? 3 : b !== undefined ? 2 : 1, a, b, c, undefined, 0);
  }

  /** SGPR `code` written lazily (as `setSccLazy`) with half `half` of the ballot of the per-lane bool `bit`: BallotLo (0) or BallotHi (1). */
  setSgprBallot(code: number, bit: Inst, half: 0 | 1): void {
    this.setLazy(code, undefined, half === 0 ? BALLOT_LO : BALLOT_HI, 1, bit, undefined, undefined, bit, half);
  }

  private setLazy(reg: number, make: (() => Inst) | undefined, op: OpRef, argc: 1 | 2 | 3, a: Inst | undefined, b: Inst | undefined, c: Inst | undefined, ballot: Inst | undefined, half: 0 | 1): void {
    if (this.ended()) {
      // Which reports it (a block that ended has nothing pending).
      const v = make ? make() : this.emitRef(op, recipeArgs(argc, a, b, c));
      this.emit(reg === SCC_REG ? 'SetScc' : 'SetSgpr', listOf(v), reg === SCC_REG ? NO_IMMS : [reg]);
      return;
    }
    if (reg === EXEC_LO || reg === EXEC_LO + 1) this.execWritten();
    let r = this.recipeOf[reg];
    if (r === undefined) {
      if (this.spareN !== 0) { r = this.spare[--this.spareN] as Recipe; this.spare[this.spareN] = undefined; }
      else r = { reg, make, op, argc, a, b, c, at: 0, pc: undefined, mark: 0, ballot, half, seq: 0, ix: 0 };
      r.seq = ++this.recipeSeq;
      r.ix = this.pendingN;
      this.pending[this.pendingN++] = r;
      this.recipeOf[reg] = r;
    }
    r.reg = reg; r.make = make; r.op = op; r.argc = argc; r.a = a; r.b = b; r.c = c;
    r.at = this.block.insts.length; r.pc = this.pc; r.mark = this.fn.idCount; r.ballot = ballot; r.half = half;
  }

  /** The per-lane bool whose ballot half `half` SGPR `code` holds as a recipe not yet run, if it does. */
  pendingBallot(code: number, half: 0 | 1): Inst | undefined {
    if (this.pendingN === 0) return undefined;
    const r = this.recipeOf[code];
    return r && r.half === half ? r.ballot : undefined;
  }

  /** Takes register `reg`'s recipe out of the pending ones (undefined: it has none); the caller gives the record back to `spare`. */
  private takeRecipe(reg: number): Recipe | undefined {
    const r = this.recipeOf[reg];
    if (r === undefined) return undefined;
    this.recipeOf[reg] = undefined;
    const list = this.pending, last = list[--this.pendingN] as Recipe;
    list[this.pendingN] = undefined;
    if (last !== r) { list[r.ix] = last; last.ix = r.ix; }
    return r;
  }

  /** Drops register `reg`'s recipe, if any (a write replaced it). */
  private dropRecipe(reg: number): void {
    const r = this.takeRecipe(reg);
    if (r !== undefined) this.spareRecipe(r);
  }

  /** Gives a recipe record back, holding no IR. */
  private spareRecipe(r: Recipe): void {
    r.make = undefined; r.a = undefined; r.b = undefined; r.c = undefined; r.ballot = undefined;
    this.spare[this.spareN++] = r;
  }

  /** Runs register `reg`'s pending recipe, if any: what it makes goes to the write's place; then the write. */
  private runRecipe(reg: number): void {
    const r = this.takeRecipe(reg);
    if (!r) return;
    const insts = this.block.insts, n = insts.length, pc = this.pc;
    this.pc = r.pc;
    this.inRecipe = true;
    this.recipeMark = r.mark;
    let v: Inst;
    try {
      v = r.make ? r.make() : this.value(r.op, r.a as Inst, r.argc > 1 ? r.b : undefined, r.argc > 2 ? r.c : undefined);
    } finally { this.inRecipe = false; this.pc = pc; }
    const k = insts.length - n, at = r.at, rpc = r.pc;
    this.spareRecipe(r);
    if (k > 0) {
      if (at < n) {
        // What it made moves from the end to its place, the instructions there after it (in place: no lists made).
        const made = this.made;
        for (let j = 0; j < k; j++) made[j] = insts[n + j] as Inst;
        for (let j = n - 1; j >= at; j--) insts[j + k] = insts[j] as Inst;
        for (let j = 0; j < k; j++) { insts[at + j] = made[j] as Inst; made[j] = undefined; }
      }
      // The other recipes' places at or after this one move past what it made (in write order).
      const list = this.pending;
      for (let j = 0; j < this.pendingN; j++) { const o = list[j] as Recipe; if (o.at >= at) o.at += k; }
    }
    this.setWriteLazy(reg, rpc);
    this.setReg(reg, v);
  }

  /**
   * This lane's bit of the mask hi:lo. A mask this block wrote as the ballot of a per-lane bool
   * (a v_cmp result, a carry) is that bool in each lane (src/ir/passes/simplify.ts, which finds
   * the same across blocks): no bit test, no lane id.
   */
  maskLaneBit(lo: Inst, hi: Inst): Inst {
    if (lo.op === 'BallotLo') {
      const x = lo.args[0] as Inst;
      if (this.fn.waveSize === 32 ? hi.op === 'ConstU32' && hi.imms[0] === 0 : hi.op === 'BallotHi' && hi.args[0] === x) return x;
    }
    return this.value(LANE_BIT, lo, hi, this.emitRef(LANE_ID));
  }

  /**
   * Places the registers' last writes (the block ends). Where the block ends the program (`keep`
   * false: EndProgram, no successor) no read comes after them: its writes are dropped, not made (SSA
   * construction drops them and dead-code elimination the values only they used; a single-block
   * kernel's writes were a fifth of its IR). Its recipes still run: their instructions stand where
   * their writes were, as CSE may keep one of them for a later equal value.
   */
  private placeWrites(keep: boolean): void {
    const insts = this.block.insts;
    if (this.ended()) return; // super.emit reports the second terminator
    // The recipes in the order of their writes (a later one's place moves past an earlier one's instructions).
    // Of recipes at one place, the one pending longest first (`seq`).
    const list = this.pending;
    while (this.pendingN !== 0) {
      let first = list[0] as Recipe;
      for (let j = 1; j < this.pendingN; j++) { const r = list[j] as Recipe; if (r.at < first.at || (r.at === first.at && r.seq < first.seq)) first = r; }
      this.runRecipe(first.reg);
    }
    const order = this.writeOrder;
    for (let k = 0; k < this.writeN; k++) {
      const reg = order[k] as number;
      if (!keep) { this.lastWrite[reg] = undefined; this.writeGen[reg] = 0; continue; }
      let w = this.lastWrite[reg];
      if (w === undefined) {
        // A lazy write (setWriteLazy): SetScc, SetSgpr or SetVgpr by the register number (setRegLazy and recipes write no other).
        const v = this.regVal[reg] as Inst, pc = this.writePc[reg];
        w = reg === SCC_REG ? this.fn.makeAt('SetScc', listOf(v), NO_IMMS, undefined, pc, undefined, SET_SCC)
          : reg >= VGPR0 ? this.fn.makeAt('SetVgpr', listOf(v), regImms(reg - VGPR0), undefined, pc, undefined, SET_VGPR)
          : this.fn.makeAt('SetSgpr', listOf(v), regImms(reg), undefined, pc, undefined, SET_SGPR);
        w.block = this.block;
      }
      insts.push(w);
      this.lastWrite[reg] = undefined;
      this.writeGen[reg] = 0;
    }
    this.writeN = 0;
  }

  /** This lane's bit of EXEC, made once while EXEC keeps its values. */
  laneBit(lo: Inst, hi: Inst): Inst {
    if (this.execBitValue && this.execBitOf === lo && this.execBitOfHi === hi) return this.execBitValue;
    const v = this.maskLaneBit(lo, hi);
    this.execBitValue = v; this.execBitOf = lo; this.execBitOfHi = hi;
    return v;
  }
}

/** BlockBuilder.constPlace's record. */
export interface ConstPlace { readonly block: Block; readonly made: Inst[] }

/**
 * Puts the argument-free values the builders made for `at` (BlockBuilder.constPlace) at the front
 * of its block, in the order they were made (in place: the block's instructions moved once).
 */
export function placeConstants(at: ConstPlace): void {
  const made = at.made, m = made.length;
  if (m === 0) return;
  const insts = at.block.insts, n = insts.length;
  for (let j = 0; j < m; j++) insts.push(made[j] as Inst);
  for (let j = n - 1; j >= 0; j--) insts[j + m] = insts[j] as Inst;
  for (let j = 0; j < m; j++) insts[j] = made[j] as Inst;
}

/** An operand's parts as the VALU io reads them (OperandLayout.codes): written (dst, srcdst), read (src, srcdst), a lane mask, 64-bit, 16-bit. */
export const OPD_DST = 1, OPD_SRC = 2, OPD_MASK = 4, OPD_64 = 8, OPD_16 = 16;
/**
 * What the VALU io (units/valu.ts) asks of a definition's operands, by index: found once per
 * definition (translate's plan of it, TContext.layout), not read from the table's operand records
 * at each instruction (a definition's records lie far apart in memory: most of the io's own time).
 */
export interface OperandLayout {
  readonly def: InstrDef;
  readonly codes: Uint8Array;
  readonly types: readonly DataType[];
}
const is64Type = (t: DataType): boolean => t === 'f64' || t === 'b64' || t === 'i64' || t === 'u64';
export function operandLayout(def: InstrDef): OperandLayout {
  const defs = def.operands, codes = new Uint8Array(defs.length), types: DataType[] = [];
  for (let k = 0; k < defs.length; k++) {
    const d = defs[k];
    types.push(d ? d.type : 'b32');
    if (!d) continue;
    let c = 0;
    if (d.role === 'dst' || d.role === 'srcdst') c |= OPD_DST;
    if (d.role === 'src' || d.role === 'srcdst') c |= OPD_SRC;
    if (d.type === 'mask') c |= OPD_MASK;
    if (is64Type(d.type)) c |= OPD_64;
    if (d.type === 'f16' || d.type === 'i16' || d.type === 'u16' || d.type === 'b16') c |= OPD_16;
    codes[k] = c & (OPD_DST | OPD_SRC) ? c : 0;
  }
  return { def, codes, types };
}

export class TContext {
  inst!: Instruction;
  /**
   * The instruction's float mode when translation chose it (one variant of a MODE only known at
   * run time: src/frontend/dynamic-mode.ts), instead of the MODE analysis's record.
   */
  valuOverride: ModeAnalysis['valu'][number] | undefined;
  /** That copy's whole MODE as known bits (conversions between widths read both widths' fields: units/valu-io.ts convertMode). */
  modeOverride: KnownBits | undefined;
  /** Whether the instruction's DPP lanes were applied (units/dpp.ts): a DPP form whose translator did not is refused. */
  dppApplied = false;
  /** Whether the instruction's SDWA selects were applied (the VALU io, units/valu.ts and units/valu-io.ts): an SDWA form whose translator did not is refused. */
  sdwaApplied = false;
  /**
   * The code object's image [base, base + size) when the code can address it (s_getpc_b64): every
   * memory address the shader forms then goes through `memoryAddress`.
   */
  codeImage: { readonly base: number; readonly size: number } | undefined;
  /**
   * The VALU unit's operand record (units/valu.ts `io`): made at the context's first VALU
   * instruction and written over at each next, not made per instruction. The context's, so it
   * holds values of one translation, no longer.
   */
  valuIo: unknown;
  /** The instruction's definition's OperandLayout, where translate has it (the VALU io checks its `def`). */
  layout: OperandLayout | undefined;
  /** The memory unit's list of an instruction's dwords (units/memory.ts gload, gstore), its first slots written over by each: the context's, as `valuIo`. */
  readonly dwords: (Inst | undefined)[] = [];
  /** The shader's wave size (a field, not a getter: the translators ask at most lane-mask accesses). */
  readonly waveSize: 32 | 64;
  constructor(readonly b: BlockBuilder, readonly shader: Shader, readonly mode: ModeAnalysis, readonly text: (i: Instruction) => string, readonly blockOf: (pc: number) => number) {
    this.waveSize = shader.info.waveSize;
  }

  /**
   * A memory address as the device sees it: an address inside the code object's image moves to
   * where the engine placed the image (`CodeAddress`); the IR interpreter maps the image at its
   * own addresses, so there it is the address itself.
   */
  memoryAddress(a: Inst): Inst {
    const im = this.codeImage;
    return im ? this.b.emit('CodeAddress', listOf(a), listOf(im.base, im.size)) : a;
  }

  error(msg: string): TranslateError {
    return new TranslateError(msg, this.inst.pc, this.text(this.inst), this.inst.words);
  }

  fail(msg: string): never {
    throw this.error(msg);
  }

  // Indexed loops, not find/some with a closure: the translators ask for operands by name at
  // every instruction, and each closure was an allocation.
  op(name: string): Operand {
    const ops = this.inst.operands;
    for (let k = 0; k < ops.length; k++) { const o = ops[k] as Operand; if (o.name === name) return o; }
    return this.fail(`no operand ${name}`);
  }
  has(name: string): boolean {
    const ops = this.inst.operands;
    for (let k = 0; k < ops.length; k++) if ((ops[k] as Operand).name === name) return true;
    return false;
  }

  typeOf(name: string): DataType {
    const defs = this.inst.def.operands;
    for (let k = 0; k < defs.length; k++) { const o = defs[k]; if (o && (o.name === name || (name === 'src1' && o.name === 'vsrc1'))) return o.type; }
    return 'b32';
  }

  u32(v: number): Inst { return this.b.u32(v); }
  /** A u64 constant from a non-negative safe integer (an address offset). */
  u64(v: number): Inst {
    if (!Number.isSafeInteger(v) || v < 0) throw new Error(`u64 of ${v} (internal)`);
    return this.b.u64Of(v);
  }

  /** A scalar-code operand (SGPR, TTMP-less, special, constant) as a u32 IR value, dword `k`. */
  scalar(v: OperandValue, type: DataType, k = 0): Inst {
    const b = this.b;
    switch (v.kind) {
      case 'sgpr': return b.getSgpr(v.index + k);
      case 'inline': return b.u32(inlineConstant(v.code, type, k));
      case 'literal': return b.u32(type === 'f64' ? (k === 1 ? v.value : 0) : k === 0 ? v.value : 0);
      case 'imm': return b.u32(k === 0 ? v.value : 0);
      case 'special':
        if (v.reg === 'null') return b.u32(0);
        if (v.reg === 'src_shared_base' || v.reg === 'src_private_base') return b.u32(apertureBase(v.reg, type.endsWith('64') ? 64 : 32, k));
        if (v.reg === 'src_scc') return k === 0 ? b.emit('U1ToU32', listOf(b.getScc())) : b.u32(0);
        if (v.reg === 'src_vccz' || v.reg === 'src_execz') return k === 0 ? b.emit('U1ToU32', listOf(this.maskZero(v.reg === 'src_vccz' ? VCC_LO : EXEC_LO))) : b.u32(0);
        if (v.code === VCC_LO || v.code === VCC_LO + 1 || v.code === 124 || v.code === EXEC_LO || v.code === EXEC_LO + 1) return b.getSgpr(v.code + k);
        return this.fail(`source ${v.reg} is not translated`);
      default: return this.fail(`a ${v.kind} operand where a scalar is read`);
    }
  }

  /** A VALU source for this lane: VGPRs per invocation, anything else uniform. */
  lane(v: OperandValue, type: DataType, k = 0): Inst {
    if (v.kind === 'vgpr') return this.b.getVgpr(v.index + k);
    return this.scalar(v, type, k);
  }

  /** A 64-bit value from two dwords. */
  pack(lo: Inst, hi: Inst): Inst { return this.b.value(PACK64, lo, hi); }

  writeScalar(v: OperandValue, x: Inst, k = 0): void {
    if (v.kind === 'sgpr') { this.b.setSgpr(v.index + k, x); return; }
    if (v.kind === 'special') {
      if (v.code === NULL_REG) return;
      if (v.code === VCC_LO || v.code === VCC_LO + 1 || v.code === 124 || v.code === EXEC_LO || v.code === EXEC_LO + 1) { this.b.setSgpr(v.code + k, x); return; }
    }
    this.fail(`writing ${v.kind === 'special' ? v.reg : v.kind} is not translated`);
  }

  /** This lane's EXEC bit. */
  execBit(): Inst {
    const b = this.b;
    // EXEC as launched, in every block (BlockBuilder.execShared).
    const shared = b.execShared;
    if (shared !== undefined && !shared.written) return shared.bit;
    const hi = this.waveSize === 64 ? b.getSgpr(EXEC_LO + 1) : b.u32(0);
    return b.laneBit(b.getSgpr(EXEC_LO), hi);
  }

  /** This lane's bit of the mask in scalar code `code` (and code + 1 in wave64). */
  maskBit(v: OperandValue): Inst {
    const b = this.b;
    const code = v.kind === 'sgpr' ? v.index : v.kind === 'special' ? v.code : this.fail(`a ${v.kind} lane mask is not translated`);
    // A mask this block wrote as a ballot not made yet: the bool it would be made of.
    const x = b.pendingBallot(code, 0);
    if (x && (this.waveSize === 32 || b.pendingBallot(code + 1, 1) === x)) return x;
    const hi = this.waveSize === 64 ? b.getSgpr(code + 1) : b.u32(0);
    return b.maskLaneBit(b.getSgpr(code), hi);
  }

  /** Whether the wave-size mask at `code` is all zero (a uniform u1). */
  maskZero(code: number): Inst {
    const b = this.b;
    let m = b.getSgpr(code);
    if (this.waveSize === 64) m = b.value(OR32, m, b.getSgpr(code + 1));
    return b.value(IEQ32, m, b.u32(0));
  }

  /**
   * Writes a lane mask: each lane's bit (inactive lanes contribute 0). The ballots are made only if
   * the mask is read as a whole or outlives the block (BlockBuilder.setSgprBallot); a lane's own
   * bit of it (`maskBit`) is `bit` itself.
   */
  writeMask(v: OperandValue, bit: Inst): void {
    const b = this.b;
    const lo = this.scalarReg(v, 0);
    if (lo === undefined) return;
    b.setSgprBallot(lo, bit, 0);
    if (this.waveSize === 64) b.setSgprBallot(lo + 1, bit, 1);
  }

  /**
   * Whether `writeMask` to `v` writes a register (false: null, where nothing reads the mask bit, so
   * a translator need not make it); a destination it refuses, it refuses here.
   */
  writesMask(v: OperandValue): boolean { return this.scalarReg(v, 0) !== undefined; }

  /** The SGPR code `writeScalar` writes dword `k` of `v` to; undefined for null (nothing written). */
  private scalarReg(v: OperandValue, k: number): number | undefined {
    if (v.kind === 'sgpr') return v.index + k;
    if (v.kind === 'special') {
      if (v.code === NULL_REG) return undefined;
      if (v.code === VCC_LO || v.code === VCC_LO + 1 || v.code === 124 || v.code === EXEC_LO || v.code === EXEC_LO + 1) return v.code + k;
    }
    return this.fail(`writing ${v.kind === 'special' ? v.reg : v.kind} is not translated`);
  }

  /**
   * A VGPR write that lands only in active lanes (`active`: this lane's EXEC bit if not given). Under
   * this lane's EXEC bit where EXEC only narrows (BlockBuilder.execNarrow): the value itself.
   */
  writeLane(v: OperandValue, x: Inst, k = 0, active?: Inst): void {
    if (v.kind !== 'vgpr') this.fail(`a VALU result to ${v.kind}`);
    const b = this.b;
    const exec = active === undefined || b.execNarrow !== undefined ? this.execBit() : undefined;
    if (b.execNarrow !== undefined && (active === undefined || active === exec)) { b.setVgpr(v.index + k, x); return; }
    const old = b.getVgpr(v.index + k);
    b.setVgpr(v.index + k, b.value(SELECT32, active ?? (exec as Inst), x, old));
  }

  /** The FloatMode the MODE analysis gives this instruction. */
  floatMode(): FloatMode {
    let r = this.valuOverride ?? valuModeAt(this.mode, this.inst.pc);
    if (!r) this.fail('the MODE analysis has no float mode for this instruction');
    // A field the instruction does not read may be unknown outside a copy: settled (mode-reads.ts).
    const st = this.valuOverride === undefined && isDynamicRecord(r) ? this.mode.before(this.inst.pc) : undefined;
    if (st) r = valuMode(this.inst.pc, r.float, settleUnread(this.inst, st.mode));
    // Instructions that flush f32 denormals whatever MODE says (the table's 'mode:always-flush-f32').
    const flush = r.float === 'f32' && (this.inst.def.flags ?? NO_FLAGS).includes('mode:always-flush-f32');
    return floatModeOf(r.round === 'dynamic' ? 'dynamic' : (r.round as 0 | 1 | 2 | 3), flush ? 0 : r.denorm === 'dynamic' ? 'dynamic' : (r.denorm as 0 | 1 | 2 | 3), r.ieee, r.dx10Clamp, r.f16Ovfl);
  }
}

export type Translator = (cx: TContext) => void;

/**
 * The FloatMode of these fields: one shared record per value (a float mode is never changed after
 * it is made, and is compared by its fields), not a new one per float instruction. By a number
 * made of the fields (below 5 * 5 * 3 * 3 * 3: a list by it, not a Map probed at every float
 * instruction); a field outside the values the type names gets a record of its own. The passes
 * keep answers per record for the process (ByModeAndOp tables in float-controls.ts and
 * lower-float.ts), so every record the translation makes comes from here: a fixed number of them.
 */
const FLOAT_MODES: (FloatMode | undefined)[] = new Array<FloatMode | undefined>(5 * 5 * 3 * 3 * 3).fill(undefined);
const tri = (v: boolean | 'dynamic'): number => (v === 'dynamic' ? 2 : v ? 1 : 0);
const quad = (v: number | 'dynamic'): number => (v === 'dynamic' ? 4 : v === 0 || v === 1 || v === 2 || v === 3 ? v : -1);
export function floatModeOf(round: FloatMode['round'], denorm: FloatMode['denorm'], ieee: boolean | 'dynamic', dx10Clamp: boolean | 'dynamic', f16Ovfl: boolean | 'dynamic'): FloatMode {
  const rk = quad(round), dk = quad(denorm);
  if (rk < 0 || dk < 0) return { round, denorm, ieee, dx10Clamp, f16Ovfl };
  const key = (((rk * 5 + dk) * 3 + tri(ieee)) * 3 + tri(dx10Clamp)) * 3 + tri(f16Ovfl);
  let m = FLOAT_MODES[key];
  if (!m) { m = { round, denorm, ieee, dx10Clamp, f16Ovfl }; FLOAT_MODES[key] = m; }
  return m;
}

/** valuModeAt's last answer (translate asks twice per float instruction: hasDynamicMode, then floatMode). */
let lastValu: readonly ModeAnalysis['valu'][number][] | undefined, lastPc = -1, lastRecord: ModeAnalysis['valu'][number] | undefined;
/**
 * The MODE analysis's record of the VALU instruction at `pc`: a binary search of `mode.valu`, which
 * the analysis sorts by pc (the last record of the pc, as a table by pc kept it), not a Map of it
 * per analysis (each recompile's analysis is new: a Map and its inserts per float instruction).
 */
export function valuModeAt(mode: ModeAnalysis, pc: number): ModeAnalysis['valu'][number] | undefined {
  const valu = mode.valu;
  if (valu === lastValu && pc === lastPc) return lastRecord;
  // The first record past pc; the one before it is pc's if any is.
  let lo = 0, hi = valu.length;
  while (lo < hi) { const m = (lo + hi) >>> 1; if ((valu[m] as ModeAnalysis['valu'][number]).pc <= pc) lo = m + 1; else hi = m; }
  const r = lo > 0 && (valu[lo - 1] as ModeAnalysis['valu'][number]).pc === pc ? valu[lo - 1] : undefined;
  lastValu = valu; lastPc = pc; lastRecord = r;
  return r;
}
