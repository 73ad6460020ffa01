// The SPIR-V module builder. One method per instruction, named as the spec names it (OpIAdd,
// OpDecorate, ...; installed from the grammar table, typed by signatures.ts); each checks its operands
// against the grammar when called and writes the instruction into the stream of its module section.
// `assemble()` concatenates the sections in the logical layout order of the spec (2.4):
//
//   capabilities, extensions, OpExtInstImport, OpMemoryModel, entry points, execution modes,
//   debug (OpString/OpSource*, then OpName/OpMemberName, then OpModuleProcessed), annotations,
//   types + constants + global variables (one stream, in creation order, so dependencies precede
//   uses), functions (each: OpFunction + parameters, first label, its OpVariables, the rest).
//
// Deduplicated: capabilities, extensions, ext-inst imports (the same Id back), identical
// annotations, types (all but OpTypeStruct / OpTypeOpaque, which are distinct per call, as their
// decorations may differ; arrays are deduplicated, so an ArrayStride applies to every use of that
// array type) and constants (OpConstant*, not OpSpecConstant*). Result ids are allocated in call
// order; `allocateId()` gives an id to define later (forward branch targets, OpPhi operands) with
// `emit(op, operands, id)` or `label(id)`.
//
// Relocatable functions: `Module.recordFunction` emits one function into a fresh module and keeps
// its words with every id replaced by a reference (to one of the module-level instructions it
// made: types, constants, imports, decorations, names; to one of its own ids; to the function's
// id; or to an external, an id of the module it goes into that it is given there: a function it
// calls); `emitRelocatable` copies it into another module: its module-level instructions emitted
// there in the recorded order (deduplicated as their methods would be), its own ids a block of
// consecutive fresh ids, its words copied and patched (by assemble, into the module's words).
// The result is the same as emitting the function there by its methods, but for the numbering of
// the ids (the recompiler's helpers, recorded once per process: src/backend/spirv/emit.ts).
//
// Forks: `fork()` makes a module that starts as this one is (its sections, open function, ids,
// dedup and type tables), to go on emitting into; this module's ids are valid in the fork and
// mean the same there, and this module takes no more instructions (a template: the recompiler's
// module prologue, built once per set of options and forked for each kernel, src/backend/spirv/emit.ts).
//
// Release: `release()`, once a module is assembled and done with, gives its own arrays (body
// chunks, the value-type table) back for the next modules to take instead of new ones; the module
// takes nothing more (emitSpirv releases each kernel's).
import { GLSL_STD_450, MAGIC_NUMBER, OPERAND_KINDS, OPS } from './grammar.js';
import {
  BuilderError, describe, encodeOperands, enumerant, enumTable, Id, opInfo,
  type EncodeContext, type NumericType, type OpInfo,
} from './operands.js';
import type { EnumKind, Enumerant, GlslName, Operand, OpMethods, OpName } from './signatures.js';

export type SpirvVersion = '1.0' | '1.1' | '1.2' | '1.3' | '1.4' | '1.5' | '1.6';

export interface ModuleOptions {
  /** The SPIR-V version in the header (default 1.5, Vulkan 1.2). */
  readonly version?: SpirvVersion;
  /** The generator word (default 0: unregistered). */
  readonly generator?: number;
}

/** What the builder knows about a type id. */
export interface TypeInfo {
  readonly op: OpName;
  /** The operand words after the result id. */
  readonly operands: readonly number[];
}

const NO_WORDS = new Uint32Array(0);
const NO_IDS: readonly Id[] = Object.freeze([]);
const NO_TYPES = new Int32Array(0);
const NO_FLAGS = new Uint8Array(0);

/**
 * Arrays that modules done with them gave back (Module.release), for the next modules: a new
 * typed array of a kilobyte or more (outside the JS heap, zeroed) costs about a microsecond, and
 * a fork's first body chunk was about a tenth of a one-instruction kernel's emission (its value
 * types' table, 4 KB, as much again where it defines a value). Body chunks (their old words stay:
 * a chunk's words are written before they are read), shortest first; one value-type table
 * (zeroed); one table of relocated functions' ids (written before read). Bounded (a large
 * kernel's are collected).
 */
const SPARE_CHUNKS: Uint32Array[] = [];
let spareTypes: Int32Array | undefined;
let spareRelocIds: Uint32Array | undefined;
/** One pending-id flag table (Module.pendingFlags; all zero). */
let sparePending: Uint8Array | undefined;
/** At most SPARE_COUNT chunks of SPARE_WORDS words in all, none longer than SPARE_MAX. */
const SPARE_COUNT = 16, SPARE_MAX = 1 << 16, SPARE_WORDS = 1 << 18;
let spareWords = 0;
/** A chunk of at least `n` words: the shortest spare that long, else a new one. */
function takeChunk(n: number): Uint32Array {
  for (let k = 0; k < SPARE_CHUNKS.length; k++) {
    const c = SPARE_CHUNKS[k] as Uint32Array;
    if (c.length < n) continue;
    // Taken out without splice (it makes an array of what it removes).
    for (let j = k + 1; j < SPARE_CHUNKS.length; j++) SPARE_CHUNKS[j - 1] = SPARE_CHUNKS[j] as Uint32Array;
    SPARE_CHUNKS.pop();
    spareWords -= c.length;
    return c;
  }
  return new Uint32Array(n);
}
/** Keeps a chunk nothing uses any more (past the bounds, the shortest go). */
function giveChunk(c: Uint32Array): void {
  if (c.length > SPARE_MAX) return;
  let k = SPARE_CHUNKS.length;
  SPARE_CHUNKS.push(c);
  for (; k > 0 && (SPARE_CHUNKS[k - 1] as Uint32Array).length > c.length; k--) SPARE_CHUNKS[k] = SPARE_CHUNKS[k - 1] as Uint32Array;
  SPARE_CHUNKS[k] = c;
  spareWords += c.length;
  while (SPARE_CHUNKS.length > SPARE_COUNT || spareWords > SPARE_WORDS) spareWords -= (SPARE_CHUNKS.shift() as Uint32Array).length;
}

/**
 * A growing stream of words (a function's body): Uint32Array chunks, each twice the size of the one
 * before, written one after another (a full chunk is never copied or written again). A JS array grown
 * by push to the tens of thousands of words of a large kernel's body cost many times more (its growth
 * copies, and their garbage); one Uint32Array doubled and copied when full cost a large kernel's
 * body its copies (and a fork a copy of its template's words).
 */
class Words {
  /** `owned`: the module's list of the chunks its bodies took (Module.release gives them back). */
  constructor(private readonly owned: Uint32Array[]) {}
  /** The chunks before `buf`, as views of their words (never written again: a fork shares them). */
  private full: Uint32Array[] = [];
  /** A template's: its chunks as its copies start (made at the first copy: it takes no more words). */
  private shared: readonly Uint32Array[] | undefined;
  // Allocated at the first push (allocating one here was measurable).
  private buf: Uint32Array = NO_WORDS;
  /** The size of the next chunk. */
  private next = 256;
  /** Words written in the current chunk (`buf`). */
  length = 0;
  push(w: number): void {
    if (this.length === this.buf.length) this.grow(1);
    this.buf[this.length++] = w;
  }
  /**
   * The current chunk, with room for `n` more words from `length` on (written there, then counted
   * in `length`); read `length` after this call (it may start a new chunk).
   */
  room(n: number): Uint32Array {
    if (this.length + n > this.buf.length) this.grow(n);
    return this.buf;
  }
  private grow(n: number): void {
    if (this.length > 0) this.full.push(this.buf.subarray(0, this.length));
    this.buf = takeChunk(Math.max(this.next, n));
    this.owned.push(this.buf);
    this.next = 2 * this.buf.length;
    this.length = 0;
  }
  /** The current chunk's words from `start` on (a view: valid until the next push). */
  view(start: number): Uint32Array {
    return this.buf.subarray(start, this.length);
  }
  /** Appends the words, chunk by chunk (views: the stream takes no more words afterwards). */
  chunksTo(to: (ArrayLike<number> | Relocated)[]): void {
    for (let k = 0; k < this.full.length; k++) to.push(this.full[k] as Uint32Array);
    if (this.length > 0) to.push(this.buf.subarray(0, this.length));
  }
  /**
   * A stream that starts with these words (a template's, which takes no more words): its chunks
   * shared, its own chunks (listed in `owned`) from the first size on, doubling. Not a first chunk
   * sized for a large body (four times the template's words, thousands): zeroing that was about a
   * tenth of a one-instruction kernel's recompile, and a large body's doublings copy nothing.
   */
  copy(owned: Uint32Array[]): Words {
    const c = new Words(owned);
    if (this.shared === undefined) {
      const shared: (ArrayLike<number> | Relocated)[] = [];
      this.chunksTo(shared);
      this.shared = shared as Uint32Array[];
    }
    // The views made once, not per copy; the list a copy of its own (it pushes its chunks to it).
    c.full = this.shared.slice();
    return c;
  }
}

/**
 * The result type of each value id: the type's id number by value id in a growing Int32Array (0:
 * none; ids start at 1), the type ids themselves by number. Not a JS array of Ids by value id: a
 * large kernel's tens of thousands of ids grew it slowly (as a body did: Words).
 */
class ValueTypes {
  // Allocated at the first set (as Words' buffer), the types' map too.
  private byValue: Int32Array = NO_TYPES;
  private types: Map<number, Id> | undefined;
  private last: Id | undefined;
  private before: Id | undefined;
  /** One past the highest value set (release zeroes the table up to it). */
  private top = 0;
  /** A fork's: the template's table, for the values it has none for (not copied). */
  constructor(private readonly inherited?: ValueTypes) {}
  get(value: number): Id | undefined {
    const t = value < this.byValue.length ? this.byValue[value] as number : 0;
    return t === 0 ? this.inherited?.get(value) : this.types?.get(t);
  }
  set(value: number, type: Id): void {
    if (value >= this.byValue.length) {
      const n = Math.max(value + 1, 2 * this.byValue.length, 1024), spare = spareTypes;
      let grown: Int32Array;
      if (spare !== undefined && spare.length >= n) {
        grown = spare;
        spareTypes = undefined;
      } else grown = new Int32Array(n);
      grown.set(this.byValue);
      this.byValue = grown;
    }
    this.byValue[value] = type.value;
    if (value >= this.top) this.top = value + 1;
    // Runs of values of one or two types are common (u32 and bool alternate): the last two types' lookup is skipped.
    if (type !== this.last && type !== this.before) {
      const types = this.types ??= new Map();
      if (!types.has(type.value)) types.set(type.value, type);
      this.before = this.last;
      this.last = type;
    }
  }
  /** Empties the table, its array zeroed and kept for the next module's (spareTypes) when longer than the one kept. */
  release(): void {
    const b = this.byValue;
    if (b.length > 0 && b.length <= SPARE_MAX && (spareTypes === undefined || spareTypes.length < b.length)) {
      b.fill(0, 0, this.top);
      spareTypes = b;
    }
    this.byValue = NO_TYPES;
    this.types = undefined;
    this.last = undefined;
    this.before = undefined;
    this.top = 0;
  }
}

/** The module's sections before its functions, in layout order: their index in Module.sections. */
const SECTION = {
  capabilities: 0, extensions: 1, imports: 2, entryPoints: 3, executionModes: 4,
  debugSource: 5, debugNames: 6, debugProcessed: 7, annotations: 8, globals: 9,
} as const;
/** A section with no words yet (never written: Module.section makes the module's own array first). */
const NO_SECTION: number[] = Object.freeze([]) as unknown as number[];
/** The memory model goes after this section (it is kept apart: Module.memoryModel). */
const BEFORE_MEMORY_MODEL = SECTION.imports;

/**
 * A template's sections as its forks start them (Module.forkSections): all their words in one
 * array, each section's after the one before (the memory model's between the imports' and the
 * entry points'), copied by a fork's assemble in one piece up to each section the fork added to.
 * Not the sections' arrays themselves: copying those JS arrays into the module's words was about
 * a twentieth of a one-instruction kernel's emission, and its template's words are most of them.
 */
interface ForkSections {
  readonly words: Uint32Array;
  /** Where each section's words end in `words` (by SECTION index; the memory model starts the entry points' part). */
  readonly ends: Int32Array;
  /** Whether `words` hold a memory model. */
  readonly memoryModel: boolean;
}

interface FunctionStreams {
  readonly name: string;
  readonly header: number[];
  firstLabel: number[] | undefined;
  readonly vars: number[];
  readonly body: Words;
}

const DEDUP_TYPES_EXCEPT = new Set(['OpTypeStruct', 'OpTypeOpaque', 'OpTypeForwardPointer']);
const DEDUP_CONSTANTS = new Set(['OpConstantTrue', 'OpConstantFalse', 'OpConstant', 'OpConstantComposite', 'OpConstantNull', 'OpConstantSampler']);
const DEBUG_SOURCE = new Set(['OpString', 'OpSource', 'OpSourceContinued', 'OpSourceExtension']);
const DEBUG_NAMES = new Set(['OpName', 'OpMemberName']);
const MAX_WORDS = 0xffff;
const NO_OPERANDS: readonly unknown[] = [];
/** A float's bit pattern, computed through this (one per process, not one per constant). */
const FLOAT_BITS = new DataView(new ArrayBuffer(8));
const OP_CONSTANT = opInfo('OpConstant') as OpInfo;
const OP_EXT_INST = opInfo('OpExtInst') as OpInfo;
const OP_TRUE = opInfo('OpConstantTrue') as OpInfo, OP_FALSE = opInfo('OpConstantFalse') as OpInfo;
/**
 * The operand kinds of an instruction whose operands are all ids (IdResultType, IdRef, IdScope,
 * ...; one, optional or any number) or enumerants without parameters, around its IdResult
 * (Module.simple): each kind's enum table (undefined: an id; null: the result) and quantifier.
 * Null for an instruction with an operand of any other kind (literals, strings, pairs).
 */
interface SimpleKind { readonly table: EnumTableOf | null | undefined; readonly kind: string; readonly quant: '' | '?' | '*'; readonly resultType: boolean }
type EnumTableOf = NonNullable<ReturnType<typeof enumTable>>;
const SIMPLE_KINDS = new Map<OpInfo, readonly SimpleKind[] | null>();
function simpleKinds(info: OpInfo): readonly SimpleKind[] | null {
  let k = SIMPLE_KINDS.get(info);
  if (k !== undefined) return k;
  const out: SimpleKind[] = [];
  for (const spec of info.operands) {
    const quant = spec.endsWith('?') || spec.endsWith('*') ? spec.slice(-1) as '?' | '*' : '';
    const kind = quant === '' ? spec : spec.slice(0, -1);
    const table = kind === 'IdResult' ? null : ID_KINDS[kind] === 'Id' ? undefined : enumTable(kind);
    // A literal, a string or a pair; or an enumerant list (the encoder's for a `*` of them).
    if (table === undefined && kind !== 'IdResult' && ID_KINDS[kind] !== 'Id') { k = null; break; }
    if (table !== undefined && table !== null && quant === '*') { k = null; break; }
    out.push({ table, kind, quant, resultType: kind === 'IdResultType' });
  }
  if (k !== null) k = out;
  SIMPLE_KINDS.set(info, k);
  return k;
}
/** An OpLabel's opcode word. */
const LABEL_HEAD = (2 << 16 | (opInfo('OpLabel') as OpInfo).opcode) >>> 0;

/** The NumericType of an integer or float type (undefined for any other type, or none). */
function numericOf(info: TypeInfo | undefined): NumericType | undefined {
  if (!info) return undefined;
  const width = info.operands[0];
  if (info.op === 'OpTypeInt' && width !== undefined) return numeric('int', width, info.operands[1] === 1);
  if (info.op === 'OpTypeFloat' && width !== undefined) return numeric('float', width, true);
  return undefined;
}
/** The NumericType of each kind, width and signedness asked for so far, shared (asked for every new constant: one object each was measurable). */
const NUMERIC_TYPES = new Map<number, NumericType>();
function numeric(kind: 'int' | 'float', width: number, signed: boolean): NumericType {
  const key = width * 4 + (kind === 'int' ? 0 : 2) + (signed ? 1 : 0);
  let t = NUMERIC_TYPES.get(key);
  if (t === undefined) { t = { kind, width, signed }; NUMERIC_TYPES.set(key, t); }
  return t;
}
const TWO_32 = 0x100000000n;
const MAX_U64 = 0xffffffffffffffffn, MAX_I64 = 0x7fffffffffffffffn;

/** Which kind of deduplicated instruction `op` is (Module.dedupKind). */
function dedupKindOf(op: string, info: OpInfo): string | undefined {
  switch (op) {
    case 'OpCapability': return 'cap';
    case 'OpExtension': return 'ext';
    case 'OpExtInstImport': return 'import';
    default:
      if ((info.class === 'Annotation' && op !== 'OpDecorationGroup') || (info.class === 'Type-Declaration' && !DEDUP_TYPES_EXCEPT.has(op)) || DEDUP_CONSTANTS.has(op)) return op;
      return undefined;
  }
}

/** An instruction placed while recording: its words (opcode word first), where its ids are, its result's word. */
interface Recorded { readonly op: string; readonly info: OpInfo; readonly inst: readonly number[]; readonly ids: readonly number[]; readonly result: number; readonly inFunction: boolean }

/** A module-level instruction of a relocatable function: operand words with ids as references and the result 0. */
interface RelocatableGlobal {
  readonly op: string;
  readonly info: OpInfo;
  readonly words: readonly number[];
  /** The words that are references. */
  readonly ids: readonly number[];
  /** The result's index in `words` (-1: none). */
  readonly result: number;
  /** The reference of the result type (-1: none). */
  readonly resultType: number;
}

/**
 * One function in relocatable form (`Module.recordFunction`, `Module.emitRelocatable`). A
 * reference r is: r < globals.length, the result of that module-level instruction; then, up to
 * globals.length + locals, the function's own ids (parameters, labels, values) in the order of
 * their ids; globals.length + locals, the function's id; after it, the externals.
 */
export interface RelocatableFunction {
  readonly globals: readonly RelocatableGlobal[];
  readonly locals: number;
  /**
   * How many ids of the module it is copied into the function refers to (other functions it calls:
   * recordFunction's `externals`), given to emitRelocatable; reference globals.length + locals + 1 + j
   * is external j (written in `words` as globals.length + 1 + j).
   */
  readonly externals: number;
  /**
   * The function's words, OpFunction to OpFunctionEnd, ids as references, except that a reference
   * to the function's own ids is written as its number among them (`localIds`) and one to the
   * function as globals.length: a module gives them consecutive ids, so assemble adds the first to
   * those and looks up only the module-level ones, the function's and the externals' (a table of
   * g + 1 + externals ids, not a filled entry per local and a lookup per local reference).
   */
  readonly words: Uint32Array;
  /** The indices in `words` that hold references to module-level results, the function (globals.length) or an external. */
  readonly ids: Uint32Array;
  /** The indices in `words` that hold the number of one of the function's own ids. */
  readonly localIds: Uint32Array;
  /**
   * Each global's number in CANONICAL_GLOBALS (-1: none; emitRelocatable then always defines it;
   * -2: a name, in `names`).
   */
  readonly canon: Int32Array;
  /**
   * The names (OpName, OpMemberName: no result, never deduplicated, placed in their own section
   * where nothing else goes) encoded one after another, opcode words included, ids as references:
   * emitRelocatable appends them in one piece (their section's order is the recorded one) and
   * patches `nameIds`, not one define per name (f32_ops' helpers carry 483 words of them).
   */
  readonly names: Uint32Array;
  /** The indices in `names` that hold references. */
  readonly nameIds: Uint32Array;
}
/** The CANONICAL_GLOBALS number of each of a recorded function's module-level instructions (-1: none). */
function canonicalNumbers(globals: readonly RelocatableGlobal[]): Int32Array {
  const canon = new Int32Array(globals.length).fill(-1);
  for (let k = 0; k < globals.length; k++) {
    const x = globals[k] as RelocatableGlobal;
    if (dedupKindOf(x.op, x.info) === undefined) continue;
    // Each word a number, or a reference as `r` and its instruction's number (never the function's own ids).
    let key = `${x.info.opcode}`, ok = true;
    for (let j = 0; j < x.words.length && ok; j++) {
      const w = x.words[j] as number;
      if (x.ids.includes(j)) {
        const c = w < globals.length ? canon[w] as number : -1;
        if (c < 0) ok = false;
        else key += ` r${c}`;
      } else key += ` ${w}`;
    }
    if (!ok) continue;
    let c = CANONICAL_GLOBALS.get(key);
    if (c === undefined) {
      if (CANONICAL_GLOBALS.size >= CANONICAL_LIMIT) continue;
      c = CANONICAL_GLOBALS.size;
      CANONICAL_GLOBALS.set(key, c);
    }
    canon[k] = c;
  }
  return canon;
}

/** A relocatable function placed in a module: reference r of its words is id `ids[base + r]` there, its own id number l is `first + l`. */
interface Relocated { readonly f: RelocatableFunction; readonly ids: Uint32Array; readonly base: number; readonly first: number }

/** What recordFunction takes outside the function: instructions any module may hold more than once or share. */
const RELOCATABLE_GLOBAL = new Set(['Type-Declaration', 'Constant-Creation', 'Annotation']);

/**
 * The deduplicated module-level instructions of every recorded function, numbered by what they
 * are: the op and its words, a reference to another such instruction written as that one's number
 * (so the same type or constant in two helpers, which refer to it by their own references, has one
 * number). One whose words refer to the function's own ids, or to an instruction that is not
 * deduplicated (an OpTypeStruct is distinct per call), has none. In a module, two instructions of
 * one number have the same words (the numbers they refer to stand for the same ids there), so the
 * second finds the first (Module.emitRelocatable: its id is remembered by number, not looked up
 * again). Process-wide and bounded: numbers and strings only; past the bound, no more numbers.
 */
const CANONICAL_GLOBALS = new Map<string, number>();
const CANONICAL_LIMIT = 1 << 16;

/**
 * An instruction `emitPlain` writes (it goes in a function body): `ids` id operands (the result type
 * among them), then per `tail` nothing (0), more ids (1: `IdRef*`; 5: OpPhi's pairs, an even
 * number), literal integers (2: `LiteralInteger*`), or an enumerant of `enumKind` whose parameters
 * are literal integers (3; 4: optional). Anything else takes the general encoder.
 */
interface PlainPlan {
  readonly ids: number; readonly resultIndex: number; readonly hasType: boolean; readonly tail: 0 | 1 | 2 | 3 | 4 | 5; readonly enumKind: string;
  /** The enumerants of `enumKind` looked up so far, by name (plainEnum). */
  readonly enums: Map<string, PlainEnum | null>;
  /** The enumerant looked up last and its name (an op's instructions mostly take one: 'Aligned', 'None'), before the map. */
  lastName: string | undefined;
  lastEnum: PlainEnum | null;
}
const PLAIN_PLANS = new Map<string, PlainPlan | null>();
const ID_KINDS = OPERAND_KINDS as unknown as Readonly<Record<string, string | readonly string[]>>;
/** Instructions `place` puts anywhere but the open function's body, by op or by class. */
const NOT_PLAIN = new Set(['OpCapability', 'OpExtension', 'OpExtInstImport', 'OpMemoryModel', 'OpEntryPoint', 'OpExecutionMode', 'OpExecutionModeId', 'OpModuleProcessed', 'OpFunction', 'OpFunctionParameter', 'OpFunctionEnd', 'OpLabel', 'OpVariable', 'OpUndef', 'OpLine', 'OpNoLine']);
function plainPlan(op: string, info: OpInfo): PlainPlan | null {
  let p = PLAIN_PLANS.get(op);
  if (p !== undefined) return p;
  p = makePlainPlan(op, info);
  PLAIN_PLANS.set(op, p);
  return p;
}
function makePlainPlan(op: string, info: OpInfo): PlainPlan | null {
  const placed = NOT_PLAIN.has(op) || DEBUG_SOURCE.has(op) || DEBUG_NAMES.has(op) || info.class === 'Annotation' || info.class === 'Type-Declaration' || info.class === 'Constant-Creation';
  if (placed) return null;
  const specs = info.operands;
  let ids = 0, resultIndex = -1, tail: PlainPlan['tail'] = 0, enumKind = '';
  for (let k = 0; k < specs.length; k++) {
    const sp = specs[k] as string;
    const last = k === specs.length - 1;
    if ((ID_KINDS[sp] === 'Id' && sp !== 'IdResult' && sp !== 'IdResultType') || (sp === 'IdResultType' && k === 0)) ids++;
    else if (sp === 'IdResult') resultIndex = ids;
    else if (last && sp === 'IdRef*') tail = 1;
    else if (last && sp === 'PairIdRefIdRef*') tail = 5;
    else if (last && sp === 'LiteralInteger*') tail = 2;
    else if (last && enumTable(sp.replace(/\?$/, '')) !== undefined) { tail = sp.endsWith('?') ? 4 : 3; enumKind = sp.replace(/\?$/, ''); }
    else return null;
  }
  return { ids, resultIndex, hasType: specs[0] === 'IdResultType', tail, enumKind, enums: new Map(), lastName: undefined, lastEnum: null };
}
/** How many IdRefs follow the result type and the result when those are all of the instruction's operands (1 to 3), else 0 (Module.writeValue). */
function valueIds(info: OpInfo): number {
  const o = info.operands;
  if (o.length < 3 || o.length > 5 || o[0] !== 'IdResultType' || o[1] !== 'IdResult') return 0;
  for (let k = 2; k < o.length; k++) if (o[k] !== 'IdRef') return 0;
  return o.length - 2;
}
/** An enumerant's value and how many literal-integer parameters follow it (-1: parameters of other kinds). */
interface PlainEnum { readonly value: number; readonly params: number }
/** Enumerant `name` of the plan's enumKind (kept in the plan: no key string built per instruction). */
function plainEnum(plan: PlainPlan, name: string): PlainEnum | null {
  if (name === plan.lastName) return plan.lastEnum;
  let e = plan.enums.get(name);
  if (e === undefined) {
    const x = enumerant(plan.enumKind, name);
    e = x ? { value: x.value, params: (x.params ?? []).every((q) => q === 'LiteralInteger') ? (x.params ?? []).length : -1 } : null;
    plan.enums.set(name, e);
  }
  plan.lastName = name;
  plan.lastEnum = e;
  return e;
}
/** emitPlain's operand values, for every module (no allocation per instruction; emitPlain calls nothing that uses them). */
const PLAIN_VALUES: number[] = [];
/** emitPlain's answer when the operands need the general encoder (which checks them and names any error). */
const GENERAL = Symbol('general');

/** Appends the words (a loop: spreading into push is slow for the many small instructions). */
function append(to: number[] | Words, words: readonly number[]): void {
  for (let k = 0; k < words.length; k++) to.push(words[k] as number);
}

/** Appends an instruction: its opcode word, then its operand words. */
function appendInst(to: number[] | Words, head: number, words: readonly number[]): void {
  to.push(head);
  append(to, words);
}

/** Version numbers by their text (a regex match and its strings per module, per kernel, before). */
const VERSION_NUMBERS = new Map<string, number>();
function versionNumber(v: string): number {
  let n = VERSION_NUMBERS.get(v);
  if (n === undefined) {
    const m = /^(\d+)\.(\d+)$/.exec(v);
    n = m ? Number(m[1]) * 100 + Number(m[2]) : Number.POSITIVE_INFINITY;
    // Bounded: versions come from callers (a long-running process may see a few, never many).
    if (VERSION_NUMBERS.size < 64) VERSION_NUMBERS.set(v, n);
  }
  return n;
}

/**
 * The op methods' operand arrays by operand count, and emitRelocatable's word arrays by length:
 * the process's, reused by every module (neither call keeps a reference to its array or makes
 * another call that uses one). Per module they were made again for every kernel's fork.
 */
const OPERAND_ARRAYS: Operand[][] = [];
const WORD_ARRAYS: number[][] = [];
/** `pool`'s array of length `n` (arrays of every length up to `n` made at its first use, filled with 0). */
function pooled<T>(pool: T[][], n: number): T[] {
  for (let k = pool.length; k <= n; k++) pool.push(new Array<T>(k).fill(0 as T));
  return pool[n] as T[];
}
/** The op methods' array for `n` operands (its elements 0 between calls). */
const operandArray = (n: number): Operand[] => pooled(OPERAND_ARRAYS, n);
/** emitRelocatable's array of `n` words. */
const wordArray = (n: number): number[] => pooled(WORD_ARRAYS, n);

/** A deduplicated instruction: its kind, its words without the result id, its id. */
interface DedupEntry { readonly kind: string; readonly words: readonly number[]; readonly id: Id | null }

/**
 * A hash of a deduplication key, no string built: the instruction's opcode (each kind is one
 * instruction's, so equal kinds hash alike; hashing the kind's name cost a loop over its
 * characters for every type, constant and decoration) and its words.
 */
function dedupHash(opcode: number, words: readonly number[]): number {
  let h = Math.imul(words.length ^ opcode, 0x01000193);
  for (let k = 0; k < words.length; k++) h = Math.imul(h ^ (words[k] as number), 0x01000193);
  return h | 0;
}

export interface Module extends OpMethods {}

export class Module {
  readonly version: SpirvVersion;
  private readonly generator: number;
  private nextId = 1;
  /**
   * The allocated, undefined ids: a flag per id number (1: pending), and their count. Not a Set:
   * a large kernel's thousands of forward labels were an add, a has and a delete each in a hash
   * set (and its growth's garbage, about half a megabyte per diamonds2000 recompile).
   */
  private pendingFlags: Uint8Array = NO_FLAGS;
  private pendingCount = 0;
  /** What the builder knows of each type id defined here (typeInfoOf: and in the template); made at the first (most forks define none). */
  private types: Map<number, TypeInfo> | undefined;
  /** Result type by value id. */
  private valueTypes = new ValueTypes();
  /**
   * The deduplicated instructions by a hash of their kind and words; equal words compared in each
   * chain; a chain of one entry is that entry itself (no array made for each new type and
   * constant: almost every chain has one). A fork's map holds only the chains it added to
   * (chainOf: else the template's), each a copy of the template's chain with its own entries added.
   */
  private readonly dedup = new Map<number, DedupEntry | DedupEntry[]>();
  /** The words of each section this module placed (by SECTION index; NO_SECTION until its first: most of a fork's stay empty). */
  private readonly sections: number[][] = [NO_SECTION, NO_SECTION, NO_SECTION, NO_SECTION, NO_SECTION, NO_SECTION, NO_SECTION, NO_SECTION, NO_SECTION, NO_SECTION];
  private memoryModel: number[] | undefined;
  /** A fork's: the template's words of each section, before its own. */
  private inherited: ForkSections | undefined;
  /** A template's: its sections' words as its forks start them (made at its first fork). */
  private forkSectionsMade: ForkSections | undefined;
  /** The chunks this module took for its bodies (release gives them back). */
  private readonly chunks: Uint32Array[] = [];
  /**
   * The relocated functions' id tables, one after another (`relocTop` words used): one array per
   * module, not a chunk per function (a kernel with dozens of helpers took more than the spare
   * chunks, and a new typed array each past them). Grown by copying into a larger one: the
   * functions placed before keep the array they were written in (it is never written again).
   */
  private relocIds: Uint32Array = NO_WORDS;
  private relocTop = 0;
  /**
   * The id (null: found, without one) each relocated module-level instruction got here, by its
   * CANONICAL_GLOBALS number: a later one of that number (another helper's same type or constant)
   * takes it without its words patched and looked up again. Made at the first relocated function.
   */
  private relocCanon: (Id | null | undefined)[] | undefined;
  // A template's (forked: it relocates nothing more) holds the ids its forks found in its tables.
  /**
   * The closed functions' streams, in order (concatenated once, by assemble); a relocatable
   * function's words with the ids its references become here (patched as assemble copies them:
   * a patched copy of each was a large kernel's helpers' words allocated and copied once more).
   */
  private readonly functions: (ArrayLike<number> | Relocated)[] = [];
  private current: FunctionStreams | undefined;
  private openLabel: Id | undefined;
  /**
   * The capabilities and extensions declared here, each set made at its first entry; a fork looks
   * in its template's after its own (declared: copying them was part of every kernel's fork).
   */
  private declaredCaps: Set<string> | undefined;
  private declaredExts: Set<string> | undefined;
  private glslSet: Id | undefined;
  /**
   * Scalar constants by type id and value (the common case of `constant`, without building its
   * dedup key): those made or asked for here; a fork looks in its template's too (constantHit).
   */
  private readonly scalarConstants = new Map<number, Map<number | bigint | boolean, Id>>();
  /** The type `constant` was last asked for (one of this module's ids) and its table in scalarConstants. */
  private constType: Id | undefined;
  private constValues: Map<number | bigint | boolean, Id> | undefined;
  /**
   * The 32-bit OpConstants (a type, the result, one literal word) made here, by type id number and
   * literal word: their deduplication (not in `dedup`: a key array, an entry and a hash per
   * constant were most of what a large kernel's constants allocated); a fork looks in its
   * template's too (constant32Hit). Made at the first.
   */
  private constants32: Map<number, Map<number, Id>> | undefined;
  /** The general encoder's view of this module (made at its first use: most forks never need it). */
  private ctxMade: EncodeContext | undefined;
  /** While recordFunction runs: every instruction placed. */
  private recorder: Recorded[] | undefined;
  /** The module this one was forked from (its ids are ids here too). */
  private template: Module | undefined;
  /** Forked or released: no more instructions or ids. */
  private frozen = false;
  /** Released: its arrays are others' now (release). */
  private released = false;

  constructor(options: ModuleOptions = {}) {
    this.version = options.version ?? '1.5';
    const v = versionNumber(this.version);
    if (v === Number.POSITIVE_INFINITY || v > 106) {
      throw new BuilderError('Module', `unknown SPIR-V version ${String(this.version)}`);
    }
    this.generator = options.generator ?? 0;
  }

  private get ctx(): EncodeContext {
    return this.ctxMade ??= {
      idValue: (op, v, what) => {
        if (!(v instanceof Id)) throw new BuilderError(op, `${what} must be an id, got ${describe(v)}`);
        if (!this.owns(v)) throw new BuilderError(op, `${what}: ${v.toString()} belongs to another module`);
        return v.value;
      },
      numericType: (t) => this.numericType(t),
      typeOfValue: (v) => this.valueTypes.get(v.value),
    };
  }

  /** The sections' words as this module's forks start them (this module takes no more). */
  private forkSections(): ForkSections {
    if (this.forkSectionsMade) return this.forkSectionsMade;
    const inh = this.inherited, own = this.sections, mm = this.ownMemoryModel();
    let size = (inh?.words.length ?? 0) + (mm?.length ?? 0);
    for (let k = 0; k < own.length; k++) size += (own[k] as number[]).length;
    const words = new Uint32Array(size), ends = new Int32Array(own.length);
    let at = 0;
    for (let k = 0; k < own.length; k++) {
      if (inh) {
        const from = k === 0 ? 0 : inh.ends[k - 1] as number, to = inh.ends[k] as number;
        words.set(inh.words.subarray(from, to), at);
        at += to - from;
      }
      const o = own[k] as number[];
      words.set(o, at);
      at += o.length;
      ends[k] = at;
      if (k === BEFORE_MEMORY_MODEL && mm) {
        words.set(mm, at);
        at += mm.length;
      }
    }
    this.forkSectionsMade = { words, ends, memoryModel: mm !== undefined || inh?.memoryModel === true };
    return this.forkSectionsMade;
  }

  /** Section `k`'s words, to append to (made at the first). */
  private section(k: number): number[] {
    const s = this.sections[k] as number[];
    if (s !== NO_SECTION) return s;
    const made: number[] = [];
    this.sections[k] = made;
    return made;
  }

  /** The memory model when this module placed it (a fork's template's is in its inherited words). */
  private ownMemoryModel(): number[] | undefined {
    return this.inherited?.memoryModel === true ? undefined : this.memoryModel;
  }

  /** Whether `v` is an id of this module: its own, or one of the module it was forked from. */
  private owns(v: Id): boolean {
    // Most ids are this module's or its template's (the template's types and constants): no call for those.
    const o = v.owner, t = this.template;
    return o === this || (t !== undefined && (o === t || (t.template !== undefined && t.owns(v))));
  }

  /** Throws once the module is forked (a template takes nothing more) or released. */
  private writable(op: string): void {
    if (this.frozen) throw new BuilderError(op, this.released ? 'the module was released: it takes nothing more' : 'the module was forked: it takes no more instructions or ids');
  }

  /**
   * A module that starts as this one is now: the same sections and open function, the same ids
   * allocated (pending ones pending there too), the same deduplicated instructions and type and
   * constant tables. This module's ids are valid in the fork (their meaning is the same); the
   * fork's own are not valid here or in another fork. This module takes no more instructions or
   * ids afterwards (a BuilderError), so the forks' common part stays the same.
   */
  fork(): Module {
    if (this.recorder) throw new BuilderError('fork', 'a module cannot be forked while it records a function');
    if (this.released) throw new BuilderError('fork', 'the module was released');
    this.frozen = true;
    const f = new Module({ version: this.version, generator: this.generator });
    // The type, constant and dedup tables are not copied: the fork looks in this module's after its own.
    f.template = this;
    f.nextId = this.nextId;
    if (this.pendingCount > 0) {
      // The spare table where it is long enough (all zero; a longer one's flags past this one's are
      // 0, as they would be): a copy made by slice (a kilobyte or more, outside the JS heap) was
      // most of what a kernel's fork cost.
      const p = this.pendingFlags, spare = sparePending;
      if (spare !== undefined && spare.length >= p.length) {
        sparePending = undefined;
        spare.set(p);
        f.pendingFlags = spare;
      } else f.pendingFlags = p.slice();
      f.pendingCount = this.pendingCount;
    }
    f.valueTypes = new ValueTypes(this.valueTypes);
    // The sections' words so far are the fork's first words of each (this module's, in one array
    // made at its first fork: it never changes them again). The fork's own sections start empty:
    // copying the template's was most of what a fork cost, and the copies grew again at the
    // fork's first constant or decoration.
    f.inherited = this.forkSections();
    f.memoryModel = this.memoryModel;
    // Closed functions' words are never changed: shared.
    for (let k = 0; k < this.functions.length; k++) f.functions.push(this.functions[k] as ArrayLike<number> | Relocated);
    const fn = this.current;
    if (fn) f.current = { name: fn.name, header: fn.header.slice(), firstLabel: fn.firstLabel, vars: fn.vars.slice(), body: fn.body.copy(f.chunks) };
    f.openLabel = this.openLabel;
    f.glslSet = this.glslSet;
    return f;
  }

  /** A fresh id, to be defined later by `emit(op, operands, id)` or `label(id)`. */
  allocateId(): Id {
    this.writable('allocateId');
    const id = new Id(this.nextId++, this);
    let flags = this.pendingFlags;
    if (id.value >= flags.length) {
      const n = Math.max(id.value + 1, 2 * flags.length, 1024), spare = sparePending;
      let grown: Uint8Array;
      if (spare !== undefined && spare.length >= n) {
        grown = spare;
        sparePending = undefined;
      } else grown = new Uint8Array(n);
      grown.set(flags);
      this.pendingFlags = flags = grown;
    }
    flags[id.value] = 1;
    this.pendingCount++;
    return id;
  }

  /** What the builder recorded for a type id (undefined for a non-type). */
  typeInfo(type: Id): TypeInfo | undefined {
    return this.typeInfoOf(type.value);
  }

  /** The result type of a value id, if it has one. */
  typeOf(value: Id): Id | undefined {
    return this.valueTypes.get(value.value);
  }

  private numericType(t: Id): NumericType | undefined {
    return numericOf(this.typeInfoOf(t.value));
  }

  /**
   * Emits instruction `op` with `operands` (IdResult left out), optionally defining the
   * previously allocated `result`. Returns the result id, or undefined for an instruction without one.
   */
  emit(op: string, operands: readonly unknown[], result?: Id): Id | undefined {
    const info = opInfo(op);
    if (!info) throw new BuilderError(op, 'not an instruction of the grammar table');
    return this.emitWith(op, info, plainPlan(op, info), operands, result);
  }

  /** @internal `emit` with the op's grammar entry and plain plan looked up (the op methods call it). */
  emitWith(op: string, info: OpInfo, fast: PlainPlan | null, operands: readonly unknown[], result: Id | undefined): Id | undefined {
    const fn = this.current;
    if (fast && fn?.firstLabel) {
      const r = this.emitPlain(op, info, fast, operands, fn.body, result);
      if (r !== GENERAL) return r;
    }
    const r = this.simple(op, info, operands, result);
    if (r !== GENERAL) return r;
    const idAt = this.recorder ? [] : undefined;
    const enc = encodeOperands(op, info.operands, operands, this.ctx, idAt);
    if (enc.resultIndex < 0 && result) throw new BuilderError(op, 'has no result id to define');
    if (enc.words.length + 1 > MAX_WORDS) throw new BuilderError(op, `is ${enc.words.length + 1} words, more than ${MAX_WORDS}`);
    return this.define(op, info, operands, enc.words, enc.resultIndex, enc.resultType, result, idAt);
  }

  /**
   * An instruction whose operands are all ids of this module or enumerants without parameters
   * (simpleKinds: types, variables, decorations, a function's frame, OpFunctionEnd, ...): the
   * words encodeOperands makes of them (the result's word 0), defined as the general way defines
   * them, without the encoder (its state, parsed kinds and a check per operand, unoptimised where
   * a module makes few of them). GENERAL for anything else (the encoder then checks the operands
   * and names any error).
   */
  private simple(op: string, info: OpInfo, operands: readonly unknown[], result: Id | undefined): Id | undefined | typeof GENERAL {
    const kinds = simpleKinds(info);
    if (kinds === null) return GENERAL;
    const n = operands.length;
    const words: number[] = [];
    const idAt = this.recorder ? [] as number[] : undefined;
    let a = 0, resultIndex = -1, resultType: Id | undefined;
    for (let k = 0; k < kinds.length; k++) {
      const s = kinds[k] as SimpleKind;
      if (s.table === null) { resultIndex = words.length; words.push(0); continue; }
      do {
        if (a >= n) { if (s.quant !== '') break; return GENERAL; }
        const v = operands[a++];
        if (s.table === undefined) {
          if (!(v instanceof Id) || !this.owns(v)) return GENERAL;
          idAt?.push(words.length);
          words.push(v.value);
          if (s.resultType) resultType = v;
        } else {
          const e = typeof v === 'string' ? enumerant(s.kind, v) : undefined;
          if (e === undefined || (e.params !== undefined && e.params.length > 0)) return GENERAL;
          words.push(s.table.category === 'BitEnum' ? e.value >>> 0 : e.value);
        }
      } while (s.quant === '*');
    }
    if (a < n || (resultIndex < 0 && result) || words.length + 1 > MAX_WORDS) return GENERAL;
    return this.define(op, info, operands, words, resultIndex, resultType, result, idAt);
  }

  /**
   * An encoded instruction (the result's word 0): deduplicated, given its result id, placed.
   * `words` become the key it is deduplicated by (the result's word 0 again once placed), unless
   * the caller `reuses` them (then a copy).
   */
  private define(op: string, info: OpInfo, operands: readonly unknown[], words: number[], resultIndex: number, resultType: Id | undefined, result: Id | undefined, idAt: number[] | undefined, reuses = false): Id | undefined {
    this.writable(op);
    // A 32-bit OpConstant: deduplicated by its type and word (constants32), as defineConstant does.
    if (info === OP_CONSTANT && words.length === 3 && resultIndex === 1) return this.define32(op, words[0] as number, words[2] as number, resultType, result, idAt);
    const kind = this.dedupKind(op, info);
    const hash = kind !== undefined ? dedupHash(info.opcode, words) : 0;
    if (kind !== undefined) {
      const seen = this.dedupFind(hash, kind, words);
      if (seen !== undefined) {
        // An allocated id cannot become a second name of an existing type or constant.
        if (result) throw new BuilderError(op, `is already defined as ${seen?.toString() ?? 'an earlier instruction'}`);
        return seen ?? undefined;
      }
    }
    // The key's words as looked up: the caller's array itself (its result word is 0 again below),
    // not a copy for every new type, constant and decoration.
    const keyWords = kind === undefined ? undefined : reuses ? words.slice() : words;
    let id: Id | undefined;
    if (resultIndex >= 0) {
      if (result) {
        this.claim(op, result);
        id = result;
      } else {
        id = new Id(this.nextId++, this);
      }
      words[resultIndex] = id.value;
      if (resultType) this.valueTypes.set(id.value, resultType);
      if (info.class === 'Type-Declaration') {
        (this.types ??= new Map()).set(id.value, { op: op as OpName, operands: words.slice(resultIndex + 1) });
      }
    }
    if (kind !== undefined && keyWords !== undefined) this.addDedup(hash, { kind, words: keyWords, id: id ?? null });
    // The opcode word and the operand words go into the section apart (no array made of them for
    // every type, constant and decoration).
    const head = ((words.length + 1) << 16 | info.opcode) >>> 0;
    const inFunction = this.place(op, info, operands, head, words);
    if (op === 'OpLabel') this.openLabel = id;
    if (this.recorder && idAt) {
      const inst = [head, ...words];
      const ids = idAt.map((k) => k + 1);
      if (resultIndex >= 0) ids.push(resultIndex + 1);
      this.recorder.push({ op, info, inst, ids, result: resultIndex >= 0 ? resultIndex + 1 : -1, inFunction });
    }
    // Placed (copied): the key's result word as it was looked up.
    if (keyWords === words && resultIndex >= 0) words[resultIndex] = 0;
    return id;
  }

  /** Adds a deduplicated instruction to the chain of its hash (a fork's: a copy of its template's chain first). */
  private addDedup(hash: number, entry: DedupEntry): void {
    const chain = this.dedup.get(hash);
    if (Array.isArray(chain)) chain.push(entry);
    else if (chain !== undefined) this.dedup.set(hash, [chain, entry]);
    else {
      const inherited = this.template?.chainOf(hash);
      this.dedup.set(hash, inherited === undefined ? entry : Array.isArray(inherited) ? [...inherited, entry] : [inherited, entry]);
    }
  }

  /** Marks an allocated, undefined id of this module as defined now. */
  private claim(op: string, result: Id): void {
    if (!this.owns(result) || !this.isPending(result.value)) {
      throw new BuilderError(op, `${result.toString()} is not an allocated, undefined id of this module`);
    }
    this.pendingFlags[result.value] = 0;
    this.pendingCount--;
  }

  /** Whether id number `n` is allocated and not defined yet. */
  private isPending(n: number): boolean {
    return n < this.pendingFlags.length && this.pendingFlags[n] === 1;
  }

  /** The label of the block being written in the open function (the last OpLabel placed; OpPhi parents). */
  get currentLabel(): Id | undefined {
    return this.current ? this.openLabel : undefined;
  }

  /**
   * A function-body instruction of ids and simple literals (arithmetic, logic, conversions,
   * compares, selects, loads, stores, branches, phis, calls: most of what a shader body is),
   * its words written straight into the body. GENERAL (nothing written) when an operand is not
   * what the plan expects: the general encoder then checks them and raises the error.
   */
  private emitPlain(op: string, info: OpInfo, plan: PlainPlan, operands: readonly unknown[], body: Words, result: Id | undefined): Id | undefined | typeof GENERAL {
    this.writable(op);
    const vals = PLAIN_VALUES;
    const n = operands.length;
    if (n < plan.ids || (plan.tail === 0 && n !== plan.ids)) return GENERAL;
    let w = 0;
    for (let a = 0; a < plan.ids; a++) {
      const v = operands[a];
      if (!(v instanceof Id) || !this.owns(v)) return GENERAL;
      vals[w++] = v.value;
    }
    // Words from here on are ids only for tails 1 and 5.
    const idWords = plan.tail === 1 || plan.tail === 5 ? n : plan.ids;
    switch (plan.tail) {
      case 1: case 5:
        if (plan.tail === 5 && (n - plan.ids) % 2 !== 0) return GENERAL;
        for (let a = plan.ids; a < n; a++) {
          const v = operands[a];
          if (!(v instanceof Id) || !this.owns(v)) return GENERAL;
          vals[w++] = v.value;
        }
        break;
      case 2:
        for (let a = plan.ids; a < n; a++) {
          const v = operands[a];
          if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > 0xffffffff) return GENERAL;
          vals[w++] = v;
        }
        break;
      case 3: case 4: {
        if (n === plan.ids) { if (plan.tail === 3) return GENERAL; break; }
        const name = operands[plan.ids];
        const e = typeof name === 'string' ? plainEnum(plan, name) : null;
        if (!e || e.params < 0 || n !== plan.ids + 1 + e.params) return GENERAL;
        vals[w++] = e.value;
        for (let a = plan.ids + 1; a < n; a++) {
          const v = operands[a];
          if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > 0xffffffff) return GENERAL;
          vals[w++] = v;
        }
        break;
      }
    }
    if (result !== undefined) {
      if (plan.resultIndex < 0) return GENERAL;
      this.claim(op, result);
    }
    const size = w + (plan.resultIndex >= 0 ? 2 : 1);
    // Written into the body's buffer directly (a push per word was measurable).
    const buf = body.room(size);
    const start = body.length;
    let at = start;
    buf[at++] = (size << 16 | info.opcode) >>> 0;
    let id: Id | undefined;
    for (let k = 0, a = 0; a < w || k === plan.resultIndex; k++) {
      if (k === plan.resultIndex) {
        id = result ?? new Id(this.nextId++, this);
        buf[at++] = id.value;
      } else buf[at++] = vals[a++] as number;
    }
    body.length = at;
    if (id && plan.hasType) this.valueTypes.set(id.value, operands[0] as Id);
    if (this.recorder) {
      const inst = Array.from(body.view(start));
      const ids: number[] = [];
      for (let k = 1; k < inst.length; k++) {
        const operand = plan.resultIndex >= 0 && k > plan.resultIndex + 1 ? k - 2 : k - 1;
        if (k === plan.resultIndex + 1 || operand < idWords) ids.push(k);
      }
      this.recorder.push({ op, info, inst, ids, result: plan.resultIndex >= 0 ? plan.resultIndex + 1 : -1, inFunction: true });
    }
    return id;
  }

  /**
   * @internal A body instruction of opcode `opcode` whose operands are result type `t`, its result
   * and `n` (1 to 3) IdRefs `a`, `b`, `c`: written into the open block's words, as emitPlain writes
   * it. Undefined (nothing written) where emitPlain would not write it so, or while recording: the
   * op method then takes the general way (emitWith), which checks the operands and raises any error.
   */
  writeValue(opcode: number, n: number, t: unknown, a: unknown, b: unknown, c: unknown): Id | undefined {
    const fn = this.current;
    if (fn === undefined || fn.firstLabel === undefined || this.frozen || this.recorder !== undefined) return undefined;
    if (!(t instanceof Id) || !this.owns(t) || !(a instanceof Id) || !this.owns(a)) return undefined;
    if (n > 1 && (!(b instanceof Id) || !this.owns(b))) return undefined;
    if (n > 2 && (!(c instanceof Id) || !this.owns(c))) return undefined;
    const body = fn.body, size = n + 3;
    const buf = body.room(size);
    const start = body.length;
    const id = new Id(this.nextId++, this);
    buf[start] = (size << 16 | opcode) >>> 0;
    buf[start + 1] = t.value;
    buf[start + 2] = id.value;
    buf[start + 3] = a.value;
    if (n > 1) buf[start + 4] = (b as Id).value;
    if (n > 2) buf[start + 5] = (c as Id).value;
    body.length = start + size;
    this.valueTypes.set(id.value, t);
    return id;
  }

  /**
   * @internal A body instruction of opcode `opcode` whose `n` (0 to 8) operands `a`..`h` are all
   * ids of this module, its result (if any: `resultIndex` 0 or 1) among them at `resultIndex`, the
   * first operand its result type when `hasType`: written into the open block's words as emitPlain
   * writes it. GENERAL (nothing written) where emitPlain would not write it so, or while recording.
   */
  writeIds(opcode: number, resultIndex: number, hasType: boolean, n: number, a: unknown, b: unknown, c: unknown, d: unknown, e: unknown, f: unknown, g: unknown, h: unknown): Id | undefined | typeof GENERAL {
    const fn = this.current;
    if (fn === undefined || fn.firstLabel === undefined || this.frozen || this.recorder !== undefined) return GENERAL;
    if ((n > 0 && !this.ownId(a)) || (n > 1 && !this.ownId(b)) || (n > 2 && !this.ownId(c)) || (n > 3 && !this.ownId(d)) || (n > 4 && !this.ownId(e)) || (n > 5 && !this.ownId(f)) || (n > 6 && !this.ownId(g)) || (n > 7 && !this.ownId(h))) return GENERAL;
    return this.writeBody(fn, opcode, resultIndex, hasType, n, 0, a, b, c, d, e, f, g, h);
  }

  /**
   * Writes a body instruction into `fn`'s open block: its `n` ids `a`..`h` (checked by the caller),
   * its result (if any) made at `resultIndex` (0 or 1) among them, then the first `w` words of
   * PLAIN_VALUES (literals the caller checked); the result's type recorded when `hasType`.
   */
  private writeBody(fn: FunctionStreams, opcode: number, resultIndex: number, hasType: boolean, n: number, w: number, a: unknown, b: unknown, c: unknown, d: unknown, e: unknown, f: unknown, g: unknown, h: unknown): Id | undefined {
    const body = fn.body, size = 1 + n + (resultIndex >= 0 ? 1 : 0) + w;
    const buf = body.room(size);
    let at = body.length;
    buf[at++] = (size << 16 | opcode) >>> 0;
    let id: Id | undefined;
    if (resultIndex === 0) { id = new Id(this.nextId++, this); buf[at++] = id.value; }
    if (n > 0) buf[at++] = (a as Id).value;
    if (resultIndex === 1) { id = new Id(this.nextId++, this); buf[at++] = id.value; }
    if (n > 1) buf[at++] = (b as Id).value;
    if (n > 2) buf[at++] = (c as Id).value;
    if (n > 3) buf[at++] = (d as Id).value;
    if (n > 4) buf[at++] = (e as Id).value;
    if (n > 5) buf[at++] = (f as Id).value;
    if (n > 6) buf[at++] = (g as Id).value;
    if (n > 7) buf[at++] = (h as Id).value;
    const lit = PLAIN_VALUES;
    for (let k = 0; k < w; k++) buf[at++] = lit[k] as number;
    body.length = at;
    if (id !== undefined && hasType) this.valueTypes.set(id.value, a as Id);
    return id;
  }

  /**
   * @internal A body instruction of opcode `opcode` whose plan (`plan`: tail 2, 3 or 4, at most
   * three ids, the result at 0 or 1) takes its `n` (up to 6) operands `a`..`f`: its ids, then
   * literal integers, or an enumerant's name and its literal parameters; written into the open
   * block's words as emitPlain writes it. GENERAL (nothing written) where emitPlain would not
   * write it so, or while recording.
   */
  writeLiterals(opcode: number, plan: PlainPlan, n: number, a: unknown, b: unknown, c: unknown, d: unknown, e: unknown, f: unknown): Id | undefined | typeof GENERAL {
    const fn = this.current;
    if (fn === undefined || fn.firstLabel === undefined || this.frozen || this.recorder !== undefined) return GENERAL;
    const ids = plan.ids;
    if (n < ids || (ids > 0 && !this.ownId(a)) || (ids > 1 && !this.ownId(b)) || (ids > 2 && !this.ownId(c))) return GENERAL;
    // The words after the ids (emitPlain's checks), in the process's scratch list.
    const lit = PLAIN_VALUES;
    let w = 0;
    if (plan.tail === 2) {
      for (let k = ids; k < n; k++) { const v = nth(k, a, b, c, d, e, f); if (!literalWord(v)) return GENERAL; lit[w++] = v; }
    } else if (n > ids) {
      const name = nth(ids, a, b, c, d, e, f);
      const en = typeof name === 'string' ? plainEnum(plan, name) : null;
      if (!en || en.params < 0 || n !== ids + 1 + en.params) return GENERAL;
      lit[w++] = en.value;
      for (let k = ids + 1; k < n; k++) { const v = nth(k, a, b, c, d, e, f); if (!literalWord(v)) return GENERAL; lit[w++] = v; }
    } else if (plan.tail === 3) return GENERAL;
    return this.writeBody(fn, opcode, plan.resultIndex, plan.hasType, ids, w, a, b, c, undefined, undefined, undefined, undefined, undefined);
  }

  private ownId(v: unknown): boolean {
    return v instanceof Id && this.owns(v);
  }

  /** Which kind of deduplicated instruction `op` is (with its words, the key that finds an identical earlier one); undefined: never deduplicated. */
  private dedupKind(op: string, info: OpInfo): string | undefined {
    return dedupKindOf(op, info);
  }

  /** The id (null: an instruction without one) of an earlier instruction of that kind and words, or undefined. */
  private dedupFind(hash: number, kind: string, words: readonly number[]): Id | null | undefined {
    const chain = this.chainOf(hash);
    if (!chain) return undefined;
    const one = Array.isArray(chain) ? undefined : chain, n = one !== undefined ? 1 : (chain as DedupEntry[]).length;
    for (let c = 0; c < n; c++) {
      const e = one ?? (chain as DedupEntry[])[c] as DedupEntry;
      if (e.kind !== kind || e.words.length !== words.length) continue;
      let k = 0;
      while (k < words.length && e.words[k] === words[k]) k++;
      if (k === words.length) return e.id;
    }
    return undefined;
  }

  /** The dedup chain of `hash`: this module's, else its template's. */
  private chainOf(hash: number): DedupEntry | DedupEntry[] | undefined {
    return this.dedup.get(hash) ?? this.template?.chainOf(hash);
  }

  /** Whether capability or extension `name` is declared here or in the template (forked from: frozen, so its sets stay). */
  private declared(what: 'caps' | 'exts', name: string): boolean {
    const own = what === 'caps' ? this.declaredCaps : this.declaredExts;
    return own?.has(name) === true || (this.template?.declared(what, name) ?? false);
  }

  /** What the builder knows of the type numbered `t`: defined here, else in the template. */
  private typeInfoOf(t: number): TypeInfo | undefined {
    return this.types?.get(t) ?? this.template?.typeInfoOf(t);
  }

  /** Puts the instruction (its opcode word `head`, then `words`) into its section; true when that is the open function's words. */
  private place(op: string, info: OpInfo, operands: readonly unknown[], head: number, words: readonly number[]): boolean {
    const fn = this.current;
    switch (op) {
      case 'OpCapability':
        appendInst(this.section(SECTION.capabilities), head, words);
        (this.declaredCaps ??= new Set()).add(String(operands[0]));
        return false;
      case 'OpExtension':
        appendInst(this.section(SECTION.extensions), head, words);
        (this.declaredExts ??= new Set()).add(String(operands[0]));
        return false;
      case 'OpExtInstImport': appendInst(this.section(SECTION.imports), head, words); return false;
      case 'OpMemoryModel':
        if (this.memoryModel) throw new BuilderError(op, 'the module already has a memory model');
        this.memoryModel = [head, ...words];
        return false;
      case 'OpEntryPoint': appendInst(this.section(SECTION.entryPoints), head, words); return false;
      case 'OpExecutionMode':
      case 'OpExecutionModeId': appendInst(this.section(SECTION.executionModes), head, words); return false;
      case 'OpModuleProcessed': appendInst(this.section(SECTION.debugProcessed), head, words); return false;
      case 'OpFunction':
        if (fn) throw new BuilderError(op, `function ${fn.name} is still open (no OpFunctionEnd)`);
        this.current = { name: `%${words[1] ?? '?'}`, header: [head, ...words], firstLabel: undefined, vars: [], body: new Words(this.chunks) };
        return true;
      case 'OpFunctionParameter':
        if (!fn || fn.firstLabel) throw new BuilderError(op, 'must follow OpFunction, before the first label');
        appendInst(fn.header, head, words);
        return true;
      case 'OpFunctionEnd':
        if (!fn) throw new BuilderError(op, 'no function is open');
        // Kept as parts, copied once into the module's words by assemble (copying word by word here was slow).
        this.functions.push(fn.header, fn.firstLabel ?? [], fn.vars);
        fn.body.chunksTo(this.functions);
        this.functions.push([head, ...words]);
        this.current = undefined;
        return true;
      case 'OpLabel':
        if (!fn) throw new BuilderError(op, 'outside a function');
        if (!fn.firstLabel) fn.firstLabel = [head, ...words];
        else appendInst(fn.body, head, words);
        return true;
      case 'OpVariable':
        if (operands[1] === 'Function') {
          if (!fn) throw new BuilderError(op, 'a Function-storage variable outside a function');
          appendInst(fn.vars, head, words);
          return true;
        }
        appendInst(this.section(SECTION.globals), head, words);
        return false;
      case 'OpUndef':
      case 'OpLine':
      case 'OpNoLine':
        appendInst(fn ? fn.body : this.section(SECTION.globals), head, words);
        return fn !== undefined;
    }
    if (DEBUG_SOURCE.has(op)) { appendInst(this.section(SECTION.debugSource), head, words); return false; }
    if (DEBUG_NAMES.has(op)) { appendInst(this.section(SECTION.debugNames), head, words); return false; }
    if (info.class === 'Annotation') { appendInst(this.section(SECTION.annotations), head, words); return false; }
    if (info.class === 'Type-Declaration' || info.class === 'Constant-Creation') { appendInst(this.section(SECTION.globals), head, words); return false; }
    if (!fn) throw new BuilderError(op, 'outside a function');
    if (!fn.firstLabel) throw new BuilderError(op, `before the first OpLabel of function ${fn.name}`);
    appendInst(fn.body, head, words);
    return true;
  }

  /** Defines the allocated `id` as a label (a block start) in the open function. */
  label(id: Id): Id {
    // In a function's body, its two words written here (as emitPlain writes an instruction): a
    // block's label took the general encoder, and an operand array, for every block.
    const fn = this.current;
    if (fn?.firstLabel !== undefined && !this.frozen && this.recorder === undefined && id instanceof Id && this.owns(id) && this.isPending(id.value)) {
      this.pendingFlags[id.value] = 0;
      this.pendingCount--;
      const body = fn.body;
      const buf = body.room(2);
      const at = body.length;
      buf[at] = LABEL_HEAD;
      buf[at + 1] = id.value;
      body.length = at + 2;
      this.openLabel = id;
      return id;
    }
    return this.emit('OpLabel', [], id) as Id;
  }

  /**
   * A scalar constant: `true`/`false` for a bool type; an integer (number or bigint, within the
   * type's signed or unsigned range) for an int type; a finite or infinite JS number for f32 (rounded
   * to nearest even) and f64 (exact). f16 constants, NaNs and exact f32 patterns: `constantBits`.
   */
  constant(type: Id, value: number | bigint | boolean): Id {
    // A Map key takes -0 for +0: the float -0 goes by its words (the encoder's deduplication), never
    // by the value table, which would answer one zero for the other.
    if (value === 0 && Object.is(value, -0)) return this.constantUncached(type, value);
    // The table of the type asked for last (a kernel asks for one or two types' constants in
    // runs), else this module's table of `type` (another module's type: the encoder's error).
    let byValue = this.constValues;
    if (type !== this.constType) {
      if (!this.owns(type)) return this.constantUncached(type, value);
      byValue = this.scalarConstants.get(type.value);
      if (byValue === undefined) { byValue = new Map(); this.scalarConstants.set(type.value, byValue); }
      this.constType = type;
      this.constValues = byValue;
    }
    const own = (byValue as Map<number | bigint | boolean, Id>).get(value);
    if (own !== undefined) return own;
    // The template's (kept here too: a fork's next ask for it is one lookup, not one per template), else a new one.
    const id = this.template?.constantHit(type.value, value) ?? this.constantUncached(type, value);
    (byValue as Map<number | bigint | boolean, Id>).set(value, id);
    return id;
  }

  /** The scalar constant of type number `t` and `value` made by `constant` here or in the template. */
  private constantHit(t: number, value: number | bigint | boolean): Id | undefined {
    return this.scalarConstants.get(t)?.get(value) ?? this.template?.constantHit(t, value);
  }

  private constantUncached(type: Id, value: number | bigint | boolean): Id {
    const info = this.typeInfoOf(type.value);
    if (info?.op === 'OpTypeBool') {
      if (typeof value !== 'boolean') throw new BuilderError('constant', `a bool constant needs true or false, got ${describe(value)}`);
      // This module's type, not recording: the words the encoder makes (the type, the result),
      // defined and deduplicated as define does it, without the encoder and the op's lookups.
      if (!this.recorder && this.owns(type)) return (value ? this.define('OpConstantTrue', OP_TRUE, NO_OPERANDS, [type.value, 0], 1, type, undefined, undefined) : this.define('OpConstantFalse', OP_FALSE, NO_OPERANDS, [type.value, 0], 1, type, undefined, undefined)) as Id;
      return (value ? this.emit('OpConstantTrue', [type]) : this.emit('OpConstantFalse', [type])) as Id;
    }
    // From the type's entry looked up above (not a second lookup through the templates).
    const nt = numericOf(info);
    if (!nt) throw new BuilderError('constant', `${type.toString()} is not a bool, integer or float type`);
    if (nt.kind === 'int') {
      // A 32-bit integer in range whatever the signedness: its word is its value.
      if (nt.width === 32 && typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= (nt.signed ? 0x7fffffff : 0xffffffff)) return this.constant32(type, value);
      if (typeof value === 'boolean') throw new BuilderError('constant', `an integer constant needs a number, got ${value}`);
      const v = typeof value === 'number' && nt.width === 64 && Number.isSafeInteger(value) ? BigInt(value) : value;
      // A 64-bit integer in range whatever the signedness: its words are its low and high dwords.
      if (nt.width === 64 && typeof v === 'bigint' && v >= 0n && v <= (nt.signed ? MAX_I64 : MAX_U64)) return this.constant64(type, Number(v % TWO_32), Number(v / TWO_32));
      return this.emit('OpConstant', [type, v]) as Id;
    }
    if (typeof value !== 'number') throw new BuilderError('constant', `a float constant needs a number (or constantBits), got ${describe(value)}`);
    if (Number.isNaN(value)) throw new BuilderError('constant', 'a NaN constant needs its bit pattern: constantBits');
    const view = FLOAT_BITS;
    if (nt.width === 32) {
      view.setFloat32(0, value, true);
      return this.constant32(type, view.getUint32(0, true));
    }
    if (nt.width === 64) {
      view.setFloat64(0, value, true);
      return this.constant64(type, view.getUint32(0, true), view.getUint32(4, true));
    }
    throw new BuilderError('constant', `an f${nt.width} constant needs its bit pattern: constantBits`);
  }

  /**
   * A 32-bit OpConstant of `type` whose literal is `word` (0..0xffffffff, in range for the type):
   * the words the general encoder makes of them, without it (a small kernel's constants are a fair
   * part of its module). While recording, or for another module's type, the general path (the
   * recorder's id positions; the encoder's error).
   */
  private constant32(type: Id, word: number): Id {
    if (this.recorder || !this.owns(type)) return this.emit('OpConstant', [type, word]) as Id;
    return this.defineConstant32(type, word);
  }

  /** A 64-bit OpConstant of `type` whose literal's dwords are `lo` and `hi`: as constant32, two literal words (low first). */
  private constant64(type: Id, lo: number, hi: number): Id {
    if (this.recorder || !this.owns(type)) return this.emit('OpConstant', [type, BigInt(hi) * TWO_32 + BigInt(lo)]) as Id;
    return this.defineConstant(type, [type.value, 0, lo, hi]);
  }

  /**
   * define's work for an OpConstant of this module's `type` whose words are `words` (the type, 0
   * for the result, the literal's words), not while recording: deduplicated, given its result id,
   * placed in the globals, as define does it, without the questions define asks of any
   * instruction (which kind of deduplication, which section; a small kernel makes a few dozen).
   */
  private defineConstant32(type: Id, word: number): Id {
    this.writable('OpConstant');
    const seen = this.constant32Hit(type.value, word);
    if (seen !== undefined) return seen;
    const id = new Id(this.nextId++, this);
    this.valueTypes.set(id.value, type);
    this.addConstant32(type.value, word, id);
    this.section(SECTION.globals).push((4 << 16 | OP_CONSTANT.opcode) >>> 0, type.value, id.value, word);
    return id;
  }

  /** The 32-bit OpConstant of type number `t` and literal `word` made here or in the template. */
  private constant32Hit(t: number, word: number): Id | undefined {
    return this.constants32?.get(t)?.get(word) ?? this.template?.constant32Hit(t, word);
  }

  private addConstant32(t: number, word: number, id: Id): void {
    const all = this.constants32 ??= new Map();
    let byWord = all.get(t);
    if (byWord === undefined) { byWord = new Map(); all.set(t, byWord); }
    byWord.set(word, id);
  }

  /**
   * define's work for a 32-bit OpConstant of type number `t` and literal `word` (from the general
   * encoder, or a relocated function's): deduplicated in constants32, given its result id, placed.
   */
  private define32(op: string, t: number, word: number, resultType: Id | undefined, result: Id | undefined, idAt: number[] | undefined): Id {
    const seen = this.constant32Hit(t, word);
    if (seen !== undefined) {
      // An allocated id cannot become a second name of an existing constant.
      if (result) throw new BuilderError(op, `is already defined as ${seen.toString()}`);
      return seen;
    }
    let id: Id;
    if (result) {
      this.claim(op, result);
      id = result;
    } else id = new Id(this.nextId++, this);
    if (resultType) this.valueTypes.set(id.value, resultType);
    this.addConstant32(t, word, id);
    const head = (4 << 16 | OP_CONSTANT.opcode) >>> 0;
    this.section(SECTION.globals).push(head, t, id.value, word);
    if (this.recorder && idAt) {
      const ids = idAt.map((k) => k + 1);
      ids.push(2);
      this.recorder.push({ op, info: OP_CONSTANT, inst: [head, t, id.value, word], ids, result: 2, inFunction: false });
    }
    return id;
  }

  private defineConstant(type: Id, words: number[]): Id {
    this.writable('OpConstant');
    const hash = dedupHash(OP_CONSTANT.opcode, words);
    const seen = this.dedupFind(hash, 'OpConstant', words);
    if (seen) return seen;
    const id = new Id(this.nextId++, this);
    this.valueTypes.set(id.value, type);
    this.addDedup(hash, { kind: 'OpConstant', words, id });
    const globals = this.section(SECTION.globals);
    globals.push(((words.length + 1) << 16 | OP_CONSTANT.opcode) >>> 0, type.value, id.value);
    for (let k = 2; k < words.length; k++) globals.push(words[k] as number);
    return id;
  }

  /** A scalar integer or float constant from its exact bit pattern (a bigint for 64-bit types). */
  constantBits(type: Id, bits: number | bigint): Id {
    const nt = this.numericType(type);
    if (!nt) throw new BuilderError('constantBits', `${type.toString()} is not an integer or float type`);
    const size = 1n << BigInt(nt.width);
    const b = typeof bits === 'bigint' ? bits : Number.isSafeInteger(bits) ? BigInt(bits) : -1n;
    if (b < 0n || b >= size) throw new BuilderError('constantBits', `${describe(bits)} is not a ${nt.width}-bit pattern`);
    if (nt.width > 32 && typeof bits !== 'bigint') throw new BuilderError('constantBits', `a ${nt.width}-bit pattern must be a bigint`);
    // Signed integer types take the value the pattern has in two's complement.
    const v = nt.kind === 'int' && nt.signed && b >= size >> 1n ? b - size : b;
    return this.emit('OpConstant', [type, nt.width > 32 ? v : Number(v)]) as Id;
  }

  /** A GLSL.std.450 extended instruction (the import is added once): `glsl450('Fma', f32, a, b, c)`. */
  glsl450(name: GlslName, resultType: Id, ...operands: Id[]): Id {
    const table = GLSL_STD_450 as unknown as Readonly<Record<string, { opcode: number; operands: readonly string[] }>>;
    const info = Object.prototype.hasOwnProperty.call(table, name) ? table[name] : undefined;
    if (!info) throw new BuilderError(`GLSL.std.450 ${String(name)}`, 'not an instruction of GLSL.std.450');
    if (operands.length !== info.operands.length) {
      throw new BuilderError(`GLSL.std.450 ${name}`, `expected ${info.operands.length} operands (${info.operands.join(' ')}), got ${operands.length}`);
    }
    const set = this.glslSet ??= this.emit('OpExtInstImport', ['GLSL.std.450']) as Id;
    // In a block, ids of this module: its words written here, as the encoder makes them (its
    // literal operand kept OpExtInst from emitPlain: the encoder and an operand array per call).
    const fn = this.current;
    let own = fn !== undefined && fn.firstLabel !== undefined && !this.frozen && this.recorder === undefined && this.ownId(resultType);
    for (let k = 0; own && k < operands.length; k++) own = this.ownId(operands[k]);
    if (own && fn !== undefined) {
      const body = fn.body, size = 5 + operands.length;
      const buf = body.room(size);
      let at = body.length;
      const id = new Id(this.nextId++, this);
      buf[at++] = (size << 16 | OP_EXT_INST.opcode) >>> 0;
      buf[at++] = resultType.value;
      buf[at++] = id.value;
      buf[at++] = set.value;
      buf[at++] = info.opcode;
      for (let k = 0; k < operands.length; k++) buf[at++] = (operands[k] as Id).value;
      body.length = at;
      this.valueTypes.set(id.value, resultType);
      return id;
    }
    return this.emit('OpExtInst', [resultType, set, info.opcode, ...operands]) as Id;
  }

  /**
   * Declares what the grammar says enumerant `name` of `kind` needs: its capability (when it names
   * exactly one) and, when the module's version is below the enumerant's, its extension (when it
   * names exactly one). E.g. enable('ExecutionMode', 'DenormPreserve') in a 1.3 module adds
   * OpCapability DenormPreserve and OpExtension "SPV_KHR_float_controls".
   */
  enable<K extends EnumKind>(kind: K, name: Enumerant<K>): void {
    const e = enumerant(kind, name);
    const what = `enable ${kind} ${name}`;
    if (!e) throw new BuilderError(what, `unknown ${kind} ${JSON.stringify(name)}`);
    const caps = e.caps ?? [];
    if (caps.length > 1 && !caps.some((c) => this.declared('caps', c))) {
      throw new BuilderError(what, `needs one of the capabilities ${caps.join(', ')}: declare one with OpCapability`);
    }
    if (caps.length === 1) this.emit('OpCapability', [caps[0]]);
    const exts = e.exts ?? [];
    const needsExt = exts.length > 0 && (e.version === undefined || versionNumber(e.version) > versionNumber(this.version));
    if (needsExt && !exts.some((x) => this.declared('exts', x))) {
      if (exts.length > 1) throw new BuilderError(what, `needs one of the extensions ${exts.join(', ')}: declare one with OpExtension`);
      this.emit('OpExtension', [exts[0]]);
    }
  }

  /**
   * Records one function: `build` emits it (OpFunction with the id it is given, to OpFunctionEnd)
   * into a fresh module, with whatever types, constants, imports, decorations and names it needs;
   * the result copies it into any module (`emitRelocatable`). A BuilderError for what cannot be
   * copied that way: module-level instructions other than those (capabilities, variables, entry
   * points, ...) and Function variables.
   */
  static recordFunction(options: ModuleOptions, build: (m: Module, fn: Id, externals: readonly Id[]) => void, externals = 0): RelocatableFunction {
    const m = new Module(options);
    const recorded: Recorded[] = [];
    m.recorder = recorded;
    const fn = m.allocateId();
    const ext: Id[] = [];
    for (let j = 0; j < externals; j++) ext.push(m.allocateId());
    try { build(m, fn, ext); } finally { m.recorder = undefined; }
    // The externals stay allocated and undefined (they are the other module's).
    let extPending = 0;
    for (let j = 0; j < ext.length; j++) if (m.isPending((ext[j] as Id).value)) extPending++;
    if (m.current || m.pendingCount > extPending || extPending !== externals) throw new BuilderError('recordFunction', 'the function was not finished (no OpFunctionEnd, or allocated ids never defined)');
    // References: module-level results first, then the function's own ids, then the function's
    // id, then the externals.
    const globalRef = new Int32Array(m.nextId).fill(-1), localRef = new Int32Array(m.nextId).fill(-1);
    let globals = 0, locals = 0, words = 0;
    for (const r of recorded) {
      if (!r.inFunction && !RELOCATABLE_GLOBAL.has(r.info.class) && !DEBUG_NAMES.has(r.op) && r.op !== 'OpExtInstImport') {
        throw new BuilderError(r.op, 'is not relocatable (recordFunction takes types, constants, imports, decorations and names)');
      }
      if (r.op === 'OpVariable') throw new BuilderError(r.op, 'a Function variable is not relocatable yet');
      // A module-level instruction's reference is its index among them (with a result or not).
      const id = r.result >= 0 ? r.inst[r.result] as number : 0;
      if (r.inFunction) {
        words += r.inst.length;
        if (r.result >= 0 && id !== fn.value) localRef[id] = 0;
      } else {
        if (r.result >= 0) globalRef[id] = globals;
        globals++;
      }
    }
    // The own ids numbered in the order of their ids (the order the function allocated them), not
    // of their definitions: a label allocated before a value it follows keeps its place, so a
    // copy numbers them as emitting the function there by its methods would (emitGuardedFn).
    for (let id = 0; id < localRef.length; id++) if (localRef[id] === 0) localRef[id] = locals++;
    const ref = (id: number): number => {
      const g = globalRef[id] as number, l = localRef[id] as number;
      if (g >= 0) return g;
      if (l >= 0) return globals + l;
      if (id === fn.value) return globals + locals;
      for (let j = 0; j < ext.length; j++) if (id === (ext[j] as Id).value) return globals + locals + 1 + j;
      throw new BuilderError('recordFunction', `%${id} is not defined by the recorded function`);
    };
    const out: RelocatableGlobal[] = [];
    const fnWords = new Uint32Array(words), fnIds: number[] = [], fnLocals: number[] = [];
    let at = 0;
    for (const r of recorded) {
      if (r.inFunction) {
        fnWords.set(r.inst, at);
        for (const k of r.ids) {
          const x = ref(r.inst[k] as number);
          // The function's id as globals.length, external j as globals.length + 1 + j (x - locals for both).
          if (x >= globals && x < globals + locals) { fnWords[at + k] = x - globals; fnLocals.push(at + k); } else { fnWords[at + k] = x < globals ? x : x - locals; fnIds.push(at + k); }
        }
        at += r.inst.length;
        continue;
      }
      const w = r.inst.slice(1), ids: number[] = [];
      for (const k of r.ids) {
        if (k === r.result) { w[k - 1] = 0; continue; }
        const x = ref(r.inst[k] as number);
        if (x > globals + locals) throw new BuilderError(r.op, 'a module-level instruction of a recorded function cannot refer to an external id');
        w[k - 1] = x;
        ids.push(k - 1);
      }
      const resultType = r.info.operands[0] === 'IdResultType' ? w[0] as number : -1;
      out.push({ op: r.op, info: r.info, words: w, ids, result: r.result - 1, resultType });
    }
    const canon = canonicalNumbers(out);
    const names: number[] = [], nameIds: number[] = [];
    for (let k = 0; k < out.length; k++) {
      const x = out[k] as RelocatableGlobal;
      if (!DEBUG_NAMES.has(x.op) || x.result >= 0 || canon[k] !== -1) continue;
      canon[k] = -2;
      names.push(((x.words.length + 1) << 16 | x.info.opcode) >>> 0);
      for (const j of x.ids) nameIds.push(names.length + j);
      for (const w of x.words) names.push(w);
    }
    return { globals: out, locals, externals, words: fnWords, ids: Uint32Array.from(fnIds), localIds: Uint32Array.from(fnLocals), canon, names: Uint32Array.from(names), nameIds: Uint32Array.from(nameIds) };
  }

  /**
   * Emits a recorded function (`recordFunction`) as the allocated, undefined id `fn`: its
   * module-level instructions here, in the recorded order, each deduplicated as its method would
   * be; its own ids consecutive fresh ids; its words copied with the references patched.
   */
  emitRelocatable(f: RelocatableFunction, fn: Id, externals: readonly Id[] = NO_IDS): void {
    this.writable('emitRelocatable');
    if (this.current) throw new BuilderError('emitRelocatable', `function ${this.current.name} is still open (no OpFunctionEnd)`);
    if (externals.length !== f.externals) throw new BuilderError('emitRelocatable', `the function refers to ${f.externals} external ids, ${externals.length} given`);
    for (let j = 0; j < externals.length; j++) if (!this.ownId(externals[j])) throw new BuilderError('emitRelocatable', `external id ${j} is not an id of this module`);
    this.claim('emitRelocatable', fn);
    const g = f.globals.length, locals = f.locals, ext = externals.length;
    // The function's table in the module's (every entry read written below): its module-level
    // results' ids, then its own id, then the externals (its own ids are `base` on, not in the table).
    const size = g + 1 + ext, at = this.relocTop;
    let num = this.relocIds;
    if (at + size > num.length) {
      const spare = spareRelocIds, need = Math.max(at + size, 2 * num.length, 4096);
      let grown: Uint32Array;
      if (spare !== undefined && spare.length >= need) {
        grown = spare;
        spareRelocIds = undefined;
      } else grown = new Uint32Array(need);
      grown.set(num.subarray(0, at));
      num = grown;
      this.relocIds = grown;
    }
    this.relocTop = at + size;
    const typeIds: (Id | undefined)[] = new Array<Id | undefined>(g);
    const base = this.nextId;
    this.nextId += locals;
    num[at + g] = fn.value;
    for (let j = 0; j < ext; j++) num[at + g + 1 + j] = (externals[j] as Id).value;
    const canonOf = f.canon, known = this.relocCanon ??= [], tmpl = this.template;
    const inherited = tmpl === undefined ? undefined : tmpl.relocCanon ??= [];
    for (let k = 0; k < g; k++) {
      const x = f.globals[k] as RelocatableGlobal;
      const c = canonOf[k] as number;
      // A name: appended with the others below.
      if (c === -2) { num[at + k] = 0; continue; }
      if (c >= 0) {
        const own = known[c], had = own !== undefined ? own : inherited?.[c];
        if (had !== undefined) {
          if (had !== null) { num[at + k] = had.value; typeIds[k] = had; } else num[at + k] = 0;
          continue;
        }
      }
      // The words patched in an array reused for each length: define is told so, and keeps no
      // reference to it (most of them find an identical instruction; it copies those it places).
      const words = wordArray(x.words.length);
      for (let j = 0; j < words.length; j++) words[j] = x.words[j] as number;
      for (let j = 0; j < x.ids.length; j++) {
        const p = x.ids[j] as number, r = words[p] as number;
        words[p] = r < g ? num[at + r] as number : r < g + locals ? base + r - g : fn.value;
      }
      const id = this.define(x.op, x.info, NO_OPERANDS, words, x.result, x.resultType >= 0 ? typeIds[x.resultType] : undefined, undefined, undefined, true);
      if (id) { num[at + k] = id.value; typeIds[k] = id; } else num[at + k] = 0;
      if (c >= 0) {
        known[c] = id ?? null;
        // An id of the template's (or its template's) was found in the template's frozen tables
        // (new ids are this module's), its words all the template's ids and literals: every fork of
        // it finds the same there first (a fork's chains start with the template's), so the
        // template remembers it for them (ids of its own only: it keeps no fork alive).
        if (id && id.owner !== this && inherited !== undefined) inherited[c] = id;
      }
    }
    // The names, after the instructions they may name (every reference's id is known now): as
    // define would place each, in order, in the names' section, which takes nothing else.
    const names = f.names;
    if (names.length > 0) {
      const s = this.section(SECTION.debugNames), start = s.length;
      for (let j = 0; j < names.length; j++) s.push(names[j] as number);
      const nameIds = f.nameIds;
      for (let j = 0; j < nameIds.length; j++) {
        const p = start + (nameIds[j] as number), r = s[p] as number;
        s[p] = r < g ? num[at + r] as number : r < g + locals ? base + r - g : fn.value;
      }
    }
    this.functions.push({ f, ids: num, base: at, first: base });
  }

  /** The module as SPIR-V words: header (magic, version, generator, bound, 0) and the sections in layout order. */
  assemble(): Uint32Array {
    if (this.released) throw new BuilderError('assemble', 'the module was released');
    if (this.current) throw new BuilderError('assemble', `function ${this.current.name} is still open (no OpFunctionEnd)`);
    if (!this.memoryModel) throw new BuilderError('assemble', 'the module has no OpMemoryModel');
    if (this.pendingCount > 0) {
      const ids: string[] = [];
      for (let n = 0; n < this.pendingFlags.length && ids.length < 8; n++) if (this.pendingFlags[n] === 1) ids.push(`%${n}`);
      throw new BuilderError('assemble', `allocated ids never defined: ${ids.join(', ')}${this.pendingCount > 8 ? ', ...' : ''}`);
    }
    const v = versionNumber(this.version);
    // Each section: a fork's inherited words, then its own (the memory model after the imports).
    const own = this.sections, inh = this.inherited, mm = this.ownMemoryModel();
    const inherited = inh?.words ?? NO_WORDS;
    const words = (x: ArrayLike<number> | Relocated): ArrayLike<number> => ((x as Relocated).f !== undefined ? (x as Relocated).f.words : x as ArrayLike<number>);
    let size = 5 + inherited.length + (mm?.length ?? 0);
    // Indexed loops (for…of made iterator results: assemble runs once per module).
    for (let k = 0; k < own.length; k++) size += (own[k] as number[]).length;
    for (let k = 0; k < this.functions.length; k++) size += words(this.functions[k] as ArrayLike<number> | Relocated).length;
    const out = new Uint32Array(size);
    out[0] = MAGIC_NUMBER;
    out[1] = (Math.floor(v / 100) << 16) | ((v % 100) << 8);
    out[2] = this.generator >>> 0;
    out[3] = this.nextId;
    out[4] = 0;
    let at = 5;
    // The inherited words in one piece up to each section with words of this module's (most of a
    // fork's sections have none), then those.
    let from = 0;
    for (let k = 0; k < own.length; k++) {
      const o = own[k] as number[], extra = k === BEFORE_MEMORY_MODEL ? mm : undefined;
      if (o.length === 0 && extra === undefined) continue;
      const to = inh !== undefined ? inh.ends[k] as number : 0;
      if (to > from) {
        out.set(from === 0 && to === inherited.length ? inherited : inherited.subarray(from, to), at);
        at += to - from;
        from = to;
      }
      out.set(o, at);
      at += o.length;
      if (extra !== undefined) {
        out.set(extra, at);
        at += extra.length;
      }
    }
    if (from < inherited.length) {
      out.set(from === 0 ? inherited : inherited.subarray(from), at);
      at += inherited.length - from;
    }
    for (let k = 0; k < this.functions.length; k++) {
      const x = this.functions[k] as ArrayLike<number> | Relocated;
      const w = words(x);
      out.set(w, at);
      if (w !== x) {
        // A relocatable function's references become this module's ids.
        const { f, ids, base, first } = x as Relocated;
        const refs = f.ids, own = f.localIds;
        for (let k = 0; k < refs.length; k++) { const p = at + (refs[k] as number); out[p] = ids[base + (out[p] as number)] as number; }
        for (let k = 0; k < own.length; k++) { const p = at + (own[k] as number); out[p] = (out[p] as number) + first; }
      }
      at += w.length;
    }
    return out;
  }

  /**
   * Done with the module (after assemble): its body chunks and value-type table are given back
   * for the next modules' (SPARE_CHUNKS), and it takes nothing more (instructions, ids, forks,
   * assemble) and answers no more typeOf. A BuilderError for a module that was forked (its
   * forks share its words).
   */
  release(): void {
    if (this.frozen) throw new BuilderError('release', this.released ? 'the module was released already' : 'the module was forked: its forks share its words');
    this.frozen = true;
    this.released = true;
    for (let k = 0; k < this.chunks.length; k++) giveChunk(this.chunks[k] as Uint32Array);
    this.chunks.length = 0;
    const r = this.relocIds;
    if (r.length > 0 && r.length <= SPARE_MAX && (spareRelocIds === undefined || spareRelocIds.length < r.length)) spareRelocIds = r;
    this.relocIds = NO_WORDS;
    this.relocTop = 0;
    this.relocCanon = undefined;
    const p = this.pendingFlags;
    if (p.length > 0 && p.length <= SPARE_MAX && (sparePending === undefined || sparePending.length < p.length)) {
      if (this.pendingCount > 0) p.fill(0);
      sparePending = p;
    }
    this.pendingFlags = NO_FLAGS;
    this.pendingCount = 0;
    this.valueTypes.release();
  }
}

// One method per grammar instruction, each a call of `emit` with its own name (its grammar entry and
// plain plan looked up once, here). Its operands go in the module's reused array of their count,
// not a rest parameter: an array made for every instruction was about 4% of what the bench:compile
// small kernels' recompiles allocated. emitWith keeps no reference to the array and emits nothing else
// while it runs, so one array per count serves every call.
//
// The instructions that are a result type, the result and one to three IdRefs (arithmetic, compares,
// selects, conversions, bitcasts: most of a kernel's body) get a method of that many parameters that
// writes their words itself (Module.writeValue), and takes the general method above for anything else
// (another count of operands, operands that are not this module's ids, outside a block, while
// recording): the same words, without the operand array, the plan's loops or the call chain.
// The other body instructions of ids (branches, phis, calls, stores and loads without a memory
// access operand, ...) called with up to eight operands (OpAtomicCompareExchange's seven), all ids (its ids and no optional tail, or a
// count of ids its `IdRef*` / pairs tail allows): written by Module.writeIds, as emitPlain writes them.
function idsOnlyMethod(opcode: number, plan: PlainPlan | null, general: (this: Module) => Id | undefined): (this: Module, ...operands: unknown[]) => Id | undefined {
  if (plan === null || plan.resultIndex > 1 || plan.tail === 3) return general;
  const fixed = plan.ids, more = plan.tail === 1 || plan.tail === 5, pairs = plan.tail === 5;
  const resultIndex = plan.resultIndex, hasType = plan.hasType;
  return function (this: Module, a: unknown, b: unknown, c: unknown, d: unknown, e: unknown, f: unknown, g: unknown, h: unknown): Id | undefined {
    const n = arguments.length;
    const fits = n <= 8 && (n === fixed || (more && n > fixed && (!pairs || (n - fixed) % 2 === 0)));
    const r = fits ? this.writeIds(opcode, resultIndex, hasType, n, a, b, c, d, e, f, g, h) : GENERAL;
    return r !== GENERAL ? r : general.apply(this, arguments as unknown as []);
  };
}

// The body instructions of up to three ids and then literal integers or an enumerant with literal
// parameters (OpCompositeExtract's index, OpLoad's and OpStore's 'Aligned' 4, OpSelectionMerge's
// and OpLoopMerge's control), called with up to six operands: written by Module.writeLiterals, as
// emitPlain writes them, without the operand array and the general method's calls (a small
// kernel's loads, stores and dword extracts took the general way, several times the cost of a
// value instruction each).
function literalMethod(opcode: number, plan: PlainPlan | null, general: (this: Module) => Id | undefined): ((this: Module, ...operands: unknown[]) => Id | undefined) | undefined {
  if (plan === null || plan.resultIndex > 1 || plan.ids > 3 || (plan.tail !== 2 && plan.tail !== 3 && plan.tail !== 4)) return undefined;
  return function (this: Module, a: unknown, b: unknown, c: unknown, d: unknown, e: unknown, f: unknown): Id | undefined {
    const n = arguments.length;
    const r = n <= 6 ? this.writeLiterals(opcode, plan, n, a, b, c, d, e, f) : GENERAL;
    return r !== GENERAL ? r : general.apply(this, arguments as unknown as []);
  };
}
/** Operand `k` (0 to 5) of a literal method's call. */
function nth(k: number, a: unknown, b: unknown, c: unknown, d: unknown, e: unknown, f: unknown): unknown {
  switch (k) {
    case 0: return a;
    case 1: return b;
    case 2: return c;
    case 3: return d;
    case 4: return e;
    default: return f;
  }
}
/** Whether `v` is a literal integer word (emitPlain's check). */
const literalWord = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 0xffffffff;

for (const name of Object.keys(OPS)) {
  const info = opInfo(name) as OpInfo;
  const plan = plainPlan(name, info);
  const general = function (this: Module): Id | undefined {
    const n = arguments.length;
    const operands = operandArray(n);
    for (let k = 0; k < n; k++) operands[k] = arguments[k] as Operand;
    const r = this.emitWith(name, info, plan, operands, undefined);
    // Cleared: the array outlives the module, and its ids would keep the module alive.
    for (let k = 0; k < n; k++) operands[k] = 0;
    return r;
  };
  const ids = plan ? valueIds(info) : 0;
  const opcode = info.opcode;
  // `arguments` only as its length and passed on by apply: neither makes the arguments object.
  const method = ids === 1
    ? function (this: Module, t: unknown, a: unknown): Id | undefined {
      return (arguments.length === 2 ? this.writeValue(opcode, 1, t, a, undefined, undefined) : undefined) ?? general.apply(this, arguments as unknown as []);
    }
    : ids === 2
      ? function (this: Module, t: unknown, a: unknown, b: unknown): Id | undefined {
        return (arguments.length === 3 ? this.writeValue(opcode, 2, t, a, b, undefined) : undefined) ?? general.apply(this, arguments as unknown as []);
      }
      : ids === 3
        ? function (this: Module, t: unknown, a: unknown, b: unknown, c: unknown): Id | undefined {
          return (arguments.length === 4 ? this.writeValue(opcode, 3, t, a, b, c) : undefined) ?? general.apply(this, arguments as unknown as []);
        }
        : literalMethod(opcode, plan, general) ?? idsOnlyMethod(opcode, plan, general);
  Object.defineProperty(Module.prototype, name, { value: method, writable: false, enumerable: false, configurable: false });
}
