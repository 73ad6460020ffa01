// Operand encoding against the grammar: each instruction's operands are checked kind by kind and
// count by count when it is emitted (a BuilderError naming the op otherwise), and turned into words.
import { ENUMS, OPS, OPERAND_KINDS } from './grammar.js';

/** A wrong use of the builder: the message starts with the op (or helper) it concerns. */
export class BuilderError extends Error {
  constructor(readonly op: string, detail: string) {
    super(`${op}: ${detail}`);
    this.name = 'BuilderError';
  }
}

/** A result id of one module (SPIR-V <id>); `value` is the number in the binary. */
export class Id {
  /** @internal */
  // Not frozen (its fields are readonly): an id is made for every instruction, and freezing each was measurable.
  constructor(readonly value: number, readonly owner: object) {}
  toString(): string {
    return `%${this.value}`;
  }
}

type EnumTable = { readonly category: string; readonly values: Readonly<Record<string, EnumerantInfo>> };
export interface EnumerantInfo {
  readonly value: number;
  readonly caps?: readonly string[];
  readonly exts?: readonly string[];
  readonly version?: string;
  readonly params?: readonly string[];
}
export interface OpInfo {
  readonly opcode: number;
  readonly class: string;
  readonly operands: readonly string[];
  readonly caps?: readonly string[];
  readonly exts?: readonly string[];
  readonly version?: string;
}

const ENUM_TABLES = ENUMS as unknown as Readonly<Record<string, EnumTable>>;
const OP_TABLE = OPS as unknown as Readonly<Record<string, OpInfo>>;
const KINDS = OPERAND_KINDS as unknown as Readonly<Record<string, string | readonly string[]>>;

export function opInfo(name: string): OpInfo | undefined {
  return Object.prototype.hasOwnProperty.call(OP_TABLE, name) ? OP_TABLE[name] : undefined;
}

export function enumTable(kind: string): EnumTable | undefined {
  return Object.prototype.hasOwnProperty.call(ENUM_TABLES, kind) ? ENUM_TABLES[kind] : undefined;
}

export function enumerant(kind: string, name: string): EnumerantInfo | undefined {
  const t = enumTable(kind);
  return t && Object.prototype.hasOwnProperty.call(t.values, name) ? t.values[name] : undefined;
}

/** A LiteralString: UTF-8, nul-terminated, zero-padded to whole words (little-endian in each word). */
export function stringWords(op: string, s: string): number[] {
  const bytes: number[] = [];
  for (let i = 0; i < s.length; i++) {
    let c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = i + 1 < s.length ? s.charCodeAt(i + 1) : 0;
      if (d < 0xdc00 || d > 0xdfff) throw new BuilderError(op, `string ${JSON.stringify(s)} has a lone surrogate`);
      c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
      i++;
    } else if (c >= 0xdc00 && c <= 0xdfff) {
      throw new BuilderError(op, `string ${JSON.stringify(s)} has a lone surrogate`);
    }
    if (c === 0) throw new BuilderError(op, `string ${JSON.stringify(s)} contains a NUL character`);
    if (c < 0x80) bytes.push(c);
    else if (c < 0x800) bytes.push(0xc0 | (c >> 6), 0x80 | (c & 63));
    else if (c < 0x10000) bytes.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
    else bytes.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 63), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
  }
  bytes.push(0);
  while (bytes.length % 4 !== 0) bytes.push(0);
  const words: number[] = [];
  for (let i = 0; i < bytes.length; i += 4) {
    words.push(((bytes[i] ?? 0) | ((bytes[i + 1] ?? 0) << 8) | ((bytes[i + 2] ?? 0) << 16) | ((bytes[i + 3] ?? 0) << 24)) >>> 0);
  }
  return words;
}

/** A scalar numeric type as the builder recorded it (OpTypeInt / OpTypeFloat). */
export interface NumericType { readonly kind: 'int' | 'float'; readonly width: number; readonly signed: boolean }

/**
 * Words of a numeric literal of `type` (OpConstant, OpSpecConstant, OpSwitch cases). Integers: a
 * number or bigint within the type's signed or unsigned range (negative values are written in two's
 * complement); floats: the bit pattern (a number for widths up to 32, a bigint for 64). Literals of
 * types narrower than 32 bits are sign-extended for signed integers and zero-extended otherwise;
 * 64-bit literals are two words, low word first.
 */
export function numberWords(op: string, type: NumericType, value: unknown): number[] {
  const w = type.width;
  // The common case without BigInt: a 32-bit unsigned integer or bit pattern.
  if (w === 32 && typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 0xffffffff && !(type.kind === 'int' && type.signed)) return [value];
  let v: bigint;
  if (typeof value === 'bigint') v = value;
  else if (typeof value === 'number' && Number.isSafeInteger(value)) {
    if (w > 32) throw new BuilderError(op, `a ${w}-bit literal must be a bigint (got the number ${value})`);
    v = BigInt(value);
  } else {
    throw new BuilderError(op, `a ${w}-bit literal must be an integer or bigint, got ${describe(value)}`);
  }
  const size = 1n << BigInt(w);
  const min = type.kind === 'int' ? -(size >> 1n) : 0n;
  if (v < min || v >= size) {
    throw new BuilderError(op, `literal ${v} does not fit a ${w}-bit ${type.kind === 'int' ? 'integer' : 'float bit pattern'}`);
  }
  if (v < 0n) v += size;
  if (w < 32 && type.kind === 'int' && type.signed && (v >> BigInt(w - 1)) & 1n) v |= 0xffffffffn ^ (size - 1n);
  if (w <= 32) return [Number(v & 0xffffffffn)];
  const words: number[] = [];
  for (let i = 0; i < w; i += 32) words.push(Number((v >> BigInt(i)) & 0xffffffffn));
  return words;
}

export function describe(v: unknown): string {
  if (v instanceof Id) return `id ${v.toString()}`;
  if (typeof v === 'string') return `string ${JSON.stringify(v)}`;
  if (typeof v === 'bigint') return `bigint ${v}`;
  if (Array.isArray(v)) return `list [${v.map(describe).join(', ')}]`;
  if (v === undefined) return 'nothing';
  return `${typeof v} ${String(v)}`;
}

/** What the encoder needs from the module. */
export interface EncodeContext {
  /** The number of an id of this module (BuilderError otherwise). */
  idValue(op: string, v: unknown, what: string): number;
  /** The numeric type of a type id (for context-dependent literals), undefined if not int/float. */
  numericType(typeId: Id): NumericType | undefined;
  /** The result type of a value id, if the module knows it. */
  typeOfValue(value: Id): Id | undefined;
}

export interface Encoded {
  /** Operand words; the result id is at `resultIndex` (0 placeholder). */
  readonly words: number[];
  readonly resultIndex: number;
  /** The IdResultType operand, when the instruction has one. */
  readonly resultType: Id | undefined;
}

function expectedList(specs: readonly string[]): string {
  const shown = specs.filter((s) => s !== 'IdResult');
  return shown.length === 0 ? 'none' : shown.join(' ');
}

function minCount(specs: readonly string[]): number {
  let n = 0;
  for (const s of specs) {
    if (s === 'IdResult' || s.endsWith('?') || s.endsWith('*')) continue;
    const k = KINDS[s];
    n += Array.isArray(k) ? k.length : 1;
  }
  return n;
}

/** One operand kind of an instruction's grammar entry, its quantifier split off (parsed once per entry). */
interface Spec { readonly kind: string; readonly quant: '' | '?' | '*' }
const PARSED = new WeakMap<readonly string[], readonly Spec[]>();
function parsed(specs: readonly string[]): readonly Spec[] {
  let p = PARSED.get(specs);
  if (!p) {
    p = specs.map((s) => (s.endsWith('?') || s.endsWith('*') ? { kind: s.slice(0, -1), quant: s.slice(-1) as '?' | '*' } : { kind: s, quant: '' as const }));
    PARSED.set(specs, p);
  }
  return p;
}

/** What one encodeOperands call has done so far. */
interface EncodeState {
  readonly op: string;
  readonly specs: readonly string[];
  readonly args: readonly unknown[];
  readonly ctx: EncodeContext;
  readonly idAt: number[] | undefined;
  readonly words: number[];
  /** The next argument. */
  a: number;
  resultType: Id | undefined;
  withParams: boolean;
}

function countError(st: EncodeState): BuilderError {
  const hasRest = st.specs.some((s) => s.endsWith('?') || s.endsWith('*'));
  const min = minCount(st.specs);
  return new BuilderError(st.op, `expected ${hasRest ? 'at least ' : ''}${min} operand${min === 1 ? '' : 's'} (${expectedList(st.specs)}), got ${st.args.length}`);
}

function literalInt(op: string, kind: string, v: unknown, pos: number): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > 0xffffffff) {
    throw new BuilderError(op, `operand ${pos} (${kind}) must be an integer in 0..0xffffffff, got ${describe(v)}`);
  }
  return v;
}

/** Encodes the next argument as one operand of `kind` (an enumerant's parameters right after it). */
function encodeOne(st: EncodeState, kind: string): void {
  const { op, args, words } = st;
  if (st.a >= args.length) {
    throw st.a === 0 || minCount(st.specs) > args.length ? countError(st) : new BuilderError(op, `operand ${st.a + 1} (${kind}) is missing, got ${args.length} operands`);
  }
  const pos = st.a + 1;
  const v = args[st.a++];
  const cat = KINDS[kind];
  if (Array.isArray(cat)) {
    // A pair: its parts are the next flat operands. OpSwitch literals take the selector's width.
    st.a--;
    for (const base of cat as readonly string[]) {
      if (base === 'LiteralInteger' && op === 'OpSwitch') {
        if (st.a >= args.length) throw new BuilderError(op, `operand ${st.a + 1} (case literal) is missing`);
        const sel = args[0];
        const selType = sel instanceof Id ? st.ctx.typeOfValue(sel) : undefined;
        const nt = selType ? st.ctx.numericType(selType) : undefined;
        for (const w of numberWords(op, nt ?? { kind: 'int', width: 32, signed: false }, args[st.a++])) words.push(w);
      } else encodeOne(st, base);
    }
    return;
  }
  if (cat === 'Id') {
    st.idAt?.push(words.length);
    words.push(st.ctx.idValue(op, v, `operand ${pos} (${kind})`));
    if (kind === 'IdResultType' && v instanceof Id) st.resultType = v;
    return;
  }
  switch (kind) {
    case 'LiteralInteger':
    case 'LiteralExtInstInteger':
      words.push(literalInt(op, kind, v, pos));
      return;
    case 'LiteralString':
      if (typeof v !== 'string') throw new BuilderError(op, `operand ${pos} (${kind}) must be a string, got ${describe(v)}`);
      for (const w of stringWords(op, v)) words.push(w);
      return;
    case 'LiteralContextDependentNumber': {
      const nt = st.resultType ? st.ctx.numericType(st.resultType) : undefined;
      if (!nt) throw new BuilderError(op, `the result type ${st.resultType?.toString() ?? '?'} is not an integer or float type`);
      if (nt.kind === 'float' && typeof v === 'number' && !Number.isInteger(v)) {
        throw new BuilderError(op, `a float literal is its bit pattern (an integer), got ${v}`);
      }
      for (const w of numberWords(op, nt, v)) words.push(w);
      return;
    }
    case 'LiteralSpecConstantOpInteger': {
      const info = typeof v === 'string' ? opInfo(v) : undefined;
      if (!info) throw new BuilderError(op, `operand ${pos} (${kind}) must be an instruction name, got ${describe(v)}`);
      words.push(info.opcode);
      return;
    }
  }
  const table = enumTable(kind);
  if (!table) throw new BuilderError(op, `operand kind ${kind} is not in the grammar table`);
  if (typeof v === 'string') {
    // One enumerant (the common case): its value, then its parameters.
    const e = enumerant(kind, v);
    if (!e) throw new BuilderError(op, `operand ${pos}: unknown ${kind} ${JSON.stringify(v)}`);
    words.push(table.category === 'BitEnum' ? e.value >>> 0 : e.value);
    if (e.params && e.params.length > 0) {
      st.withParams = true;
      for (const p of e.params) encodeOne(st, p);
    }
    return;
  }
  const names: readonly unknown[] = table.category === 'BitEnum' && Array.isArray(v) ? v : [v];
  let mask = 0;
  const params: { value: number; params: readonly string[] }[] = [];
  for (const n of names) {
    const e = typeof n === 'string' ? enumerant(kind, n) : undefined;
    if (!e) throw new BuilderError(op, `operand ${pos}: unknown ${kind} ${typeof n === 'string' ? JSON.stringify(n) : describe(n)}`);
    if (table.category === 'BitEnum') mask = (mask | e.value) >>> 0;
    else mask = e.value;
    if (e.params) params.push({ value: e.value, params: e.params });
  }
  words.push(mask);
  // Parameters follow the enumerant (BitEnum: the set bits' parameters in ascending bit order).
  params.sort((x, y) => x.value - y.value);
  const extra = params.flatMap((p) => p.params);
  if (extra.length > 0) st.withParams = true;
  for (const p of extra) encodeOne(st, p);
}

/**
 * Checks `args` against the instruction's operand kinds (IdResult is not passed: the builder
 * allocates it) and encodes them. Wrong counts, kinds, unknown enumerants and out-of-range literals
 * throw a BuilderError naming the op, the operand position and the kind expected. With `idAt`, the
 * index in the words of every id operand (not the result) is appended to it.
 */
export function encodeOperands(op: string, specs: readonly string[], args: readonly unknown[], ctx: EncodeContext, idAt?: number[]): Encoded {
  const st: EncodeState = { op, specs, args, ctx, idAt, words: [], a: 0, resultType: undefined, withParams: false };
  let resultIndex = -1;
  // Indexed: for…of made an iterator result per operand kind where this runs unoptimised.
  const ps = parsed(specs);
  for (let k = 0; k < ps.length; k++) {
    const s = ps[k] as Spec;
    if (s.kind === 'IdResult') {
      resultIndex = st.words.length;
      st.words.push(0);
      continue;
    }
    if (s.quant === '') encodeOne(st, s.kind);
    else if (s.quant === '?') { if (st.a < args.length) encodeOne(st, s.kind); }
    else while (st.a < args.length) encodeOne(st, s.kind);
  }
  if (st.a < args.length) {
    const hasRest = specs.some((s) => s.endsWith('?') || s.endsWith('*'));
    throw hasRest || st.withParams ? new BuilderError(op, `too many operands: ${args.length} given, ${st.a} used (${expectedList(specs)})`) : countError(st);
  }
  return { words: st.words, resultIndex, resultType: st.resultType };
}
