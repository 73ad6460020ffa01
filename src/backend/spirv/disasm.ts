// A SPIR-V disassembler that prints exactly what SPIRV-Tools' `spirv-dis --raw-id --no-color`
// prints (Debian's spirv-tools 2023.1, the oracle of tests/backend/spirv-disasm.test.ts): the
// header comments, ids as %N right-aligned so that opcodes start at column 15, enumerant names
// (masks as `Volatile|Aligned`, enumerant parameters after the mask), typed literals by the result
// type's or OpSwitch selector's width and signedness, GLSL.std.450 names. It reads the generated
// grammar tables the builder uses (grammar.ts) and parses as SPIRV-Tools' binary parser does
// (source/binary.cpp): the same operand expansion and the same checks, so a module spirv-dis
// rejects is rejected here too, with a one-line SpirvDisasmError naming the word offset.
//
// Where this disassembler knows less than spirv-dis (docs/TECHNICAL_DEBT.md): vendor instructions
// and enumerants and the OpenCL pipe/enqueue instructions (left out of the grammar table), the
// extended instruction sets other than GLSL.std.450 and unknown NonSemantic.* sets, and bytes of
// literal strings that are not UTF-8. Where it accepts more: enumerants a SPIR-V 1.5 environment
// does not offer (spirv-dis's default target rejects Capability UniformDecoration, ImageOperands
// Nontemporal) and any opcode with a result type in OpSpecConstantOp (spirv-dis: the spec's list).
// Core: no Node APIs.
import { GRAMMAR_VERSION, MAGIC_NUMBER } from './grammar.js';
import { typedLiteral, utf8, type NumberKind } from './disasm-literals.js';
import { ENUM_TABLES, generatorName, glslInstruction, OPS_BY_CODE, pairParts } from './disasm-tables.js';

export interface DisasmOptions {
  /** The five header comment lines (default true; spirv-dis --no-header: false). */
  readonly header?: boolean;
  /** Opcodes aligned at column 15 (default true; spirv-dis --no-indent: false). */
  readonly indent?: boolean;
}

/** A module the disassembler cannot read; `word` is the offset of the word at fault. */
export class SpirvDisasmError extends Error {
  constructor(readonly word: number, detail: string) {
    super(`SPIR-V word ${word}: ${detail}`);
    this.name = 'SpirvDisasmError';
  }
}

const OP_EXT_INST_IMPORT = 11;
const OP_EXT_INST = 12;
const OP_TYPE_INT = 21;
const OP_TYPE_FLOAT = 22;
const OP_SWITCH = 251;
const INDENT = 15;

type ExtSet = { readonly kind: 'glsl' } | { readonly kind: 'nonsemantic' } | { readonly kind: 'unsupported'; readonly name: string };

/**
 * How spirv-dis classifies an OpExtInstImport name (SPIRV-Tools source/ext_inst.cpp,
 * spvExtInstImportTypeGet); undefined: not an instruction set it knows, an error.
 */
function extSet(name: string): ExtSet | undefined {
  if (name === 'GLSL.std.450') return { kind: 'glsl' };
  const known = ['OpenCL.std', 'SPV_AMD_shader_explicit_vertex_parameter', 'SPV_AMD_shader_trinary_minmax', 'SPV_AMD_gcn_shader',
    'SPV_AMD_shader_ballot', 'DebugInfo', 'OpenCL.DebugInfo.100', 'NonSemantic.Shader.DebugInfo.100'];
  if (known.includes(name) || name.startsWith('NonSemantic.ClspvReflection.')) return { kind: 'unsupported', name };
  // Instructions of an unknown non-semantic set print as numbers with id operands.
  if (name.startsWith('NonSemantic.')) return { kind: 'nonsemantic' };
  return undefined;
}

const swapBytes = (w: number): number => (((w & 0xff) << 24) | ((w & 0xff00) << 8) | ((w >>> 8) & 0xff00) | (w >>> 24)) >>> 0;
const optional = (spec: string): boolean => spec.endsWith('?') || spec.endsWith('*');

/** What one module's parse has learned so far (SPIRV-Tools' Parser::State). */
interface State {
  /** Result id → its type id (a type → itself, no type → 0). */
  readonly idType: Map<number, number>;
  /** Type id → its numeric kind (undefined kind for non-numeric types). */
  readonly numberTypes: Map<number, NumberKind | undefined>;
  readonly extSets: Map<number, ExtSet>;
}

/**
 * The text of a SPIR-V module, as `spirv-dis --raw-id --no-color` prints it (one line per
 * instruction, each ending in a newline). `words` as Module.assemble() returns them or as read
 * from a .spv file on a little-endian host; a big-endian module (byte-swapped magic) is read too.
 */
export function disassembleSpirv(words: Uint32Array, options: DisasmOptions = {}): string {
  if (words.length < 5) throw new SpirvDisasmError(words.length, `the module has an incomplete header: ${words.length} words, 5 needed`);
  let w = words;
  if (words[0] !== MAGIC_NUMBER) {
    if (words[0] !== swapBytes(MAGIC_NUMBER)) throw new SpirvDisasmError(0, `not SPIR-V: magic number 0x${(words[0] ?? 0).toString(16)}, not 0x07230203`);
    w = words.map(swapBytes);
  }
  const [version, generator, bound, schema] = [w[1] ?? 0, w[2] ?? 0, w[3] ?? 0, w[4] ?? 0];
  // As spirv-dis: version words 1.0 up to the grammar's (0x00010600), high and low bytes zero.
  const latest = (GRAMMAR_VERSION.major << 16) | (GRAMMAR_VERSION.minor << 8);
  if ((version & 0xff0000ff) !== 0 || version < 0x10000 || version > latest) {
    throw new SpirvDisasmError(1, `version word 0x${version.toString(16).padStart(8, '0')} is not SPIR-V 1.0 to ${GRAMMAR_VERSION.major}.${GRAMMAR_VERSION.minor}`);
  }
  const out: string[] = [];
  if (options.header ?? true) {
    out.push('; SPIR-V', `; Version: ${(version >>> 16) & 0xff}.${(version >>> 8) & 0xff}`,
      `; Generator: ${generatorName(generator >>> 16)}; ${generator & 0xffff}`, `; Bound: ${bound}`, `; Schema: ${schema}`);
  }
  const state: State = { idType: new Map(), numberTypes: new Map(), extSets: new Map() };
  const indent = options.indent ?? true;
  for (let at = 5; at < w.length;) {
    const { line, next } = instruction(w, at, state, indent);
    out.push(line);
    at = next;
  }
  return out.length > 0 ? `${out.join('\n')}\n` : '';
}

/** One instruction at word `at`: its line and the offset of the next. */
function instruction(w: Uint32Array, at: number, state: State, indent: boolean): { line: string; next: number } {
  const first = w[at] ?? 0;
  const count = first >>> 16;
  const opcode = first & 0xffff;
  if (count === 0) throw new SpirvDisasmError(at, `instruction word count 0 (opcode ${opcode})`);
  const op = OPS_BY_CODE.get(opcode);
  if (!op) throw new SpirvDisasmError(at, `opcode ${opcode} is not in the grammar table (vendor and OpenCL pipe/enqueue instructions are left out)`);
  const end = at + count;
  if (end > w.length) throw new SpirvDisasmError(at, `${op.name} says it has ${count} words, but the module ends ${w.length - at} words after its start`);
  const where = `${op.name} at word ${at}`;
  // The operand kinds still expected, the next one last (SPIRV-Tools' spv_operand_pattern_t).
  const expected = [...op.operands].reverse();
  const parts: string[] = [];
  let result = 0;
  let resultType = 0;
  let set: ExtSet | undefined;
  let p = at + 1;
  const word = (): number => w[p] ?? 0;
  const nonZeroId = (what: string): number => {
    const v = word();
    if (v === 0) throw new SpirvDisasmError(p, `${where}: ${what} is 0`);
    return v;
  };
  const numberType = (type: number): NumberKind => {
    if (!state.numberTypes.has(type)) throw new SpirvDisasmError(p, `${where}: type %${type} is not a type`);
    const t = state.numberTypes.get(type);
    if (!t) throw new SpirvDisasmError(p, `${where}: type %${type} is not a scalar numeric type`);
    return t;
  };
  const typed = (type: NumberKind): void => {
    // (width + 31) / 32 in SPIRV-Tools' uint32 and then uint16 arithmetic.
    const n = (((type.width + 31) >>> 0) >>> 5) & 0xffff;
    if (p + n > end) throw new SpirvDisasmError(p, `${where}: a ${type.width}-bit literal runs past the instruction's ${count} words`);
    parts.push(typedLiteral(type, w.subarray(p, p + n)));
    p += n;
  };
  while (p < end) {
    if (expected.length === 0) throw new SpirvDisasmError(p, `${where}: ${count} words, but its operands end after ${p - at}`);
    const spec = take(expected);
    const kind = spec.replace(/[?*]$/, '');
    switch (kind) {
      case 'IdResultType':
        resultType = nonZeroId('the result type id');
        parts.push(`%${resultType}`);
        p++;
        continue;
      case 'IdResult':
        result = nonZeroId('the result id');
        if (state.idType.has(result)) throw new SpirvDisasmError(p, `${where}: id %${result} is defined more than once`);
        state.idType.set(result, op.generatesType ? result : resultType);
        p++;
        continue;
      case 'IdRef': {
        const id = nonZeroId('an id');
        if (opcode === OP_EXT_INST && p - at === 3) {
          set = state.extSets.get(id);
          if (!set) throw new SpirvDisasmError(p, `${where}: the instruction set %${id} is not an OpExtInstImport result`);
        }
        parts.push(`%${id}`);
        p++;
        continue;
      }
      case 'IdScope':
      case 'IdMemorySemantics':
        parts.push(`%${nonZeroId(`the ${kind === 'IdScope' ? 'scope' : 'memory semantics'} id`)}`);
        p++;
        continue;
      case 'LiteralInteger':
        // An OpSwitch case literal (the first half of its pairs) takes the selector's type.
        if (opcode === OP_SWITCH) typed(switchType(w, at, state, where));
        else { parts.push(String(word())); p++; }
        continue;
      case 'LiteralContextDependentNumber':
        typed(numberType(resultType));
        continue;
      case 'LiteralString': {
        const { text, words: n } = literalString(w, p, end, where);
        if (opcode === OP_EXT_INST_IMPORT) {
          const s = extSet(text);
          if (!s) throw new SpirvDisasmError(p, `${where}: ${JSON.stringify(text)} is not an extended instruction set spirv-dis knows`);
          state.extSets.set(result, s);
        }
        parts.push(`"${text.replace(/["\\]/g, '\\$&')}"`);
        p += n;
        continue;
      }
      case 'LiteralExtInstInteger': {
        const n = word();
        if (set?.kind === 'nonsemantic') { expected.push('IdRef*'); parts.push(String(n)); p++; continue; }
        if (set?.kind !== 'glsl') throw new SpirvDisasmError(p, `${where}: the extended instruction set ${set?.kind === 'unsupported' ? JSON.stringify(set.name) : '?'} is not supported (only GLSL.std.450)`);
        const inst = glslInstruction(n);
        if (!inst) throw new SpirvDisasmError(p, `${where}: ${n} is not a GLSL.std.450 instruction`);
        expected.push(...[...inst.params].reverse());
        parts.push(inst.name);
        p++;
        continue;
      }
      case 'LiteralSpecConstantOpInteger': {
        const inner = OPS_BY_CODE.get(word());
        if (!inner || inner.operands[0] !== 'IdResultType' || inner.operands[1] !== 'IdResult') {
          throw new SpirvDisasmError(p, `${where}: ${word()} is not an opcode with a result type and result`);
        }
        expected.push(...inner.operands.slice(2).reverse());
        parts.push(inner.name.slice(2));
        p++;
        continue;
      }
    }
    parts.push(enumOperand(kind, word(), expected, p, where));
    p++;
  }
  if (expected.length > 0 && !optional(expected[expected.length - 1] ?? '')) {
    throw new SpirvDisasmError(end, `${where}: ${count} words are too few, ${expected[expected.length - 1] ?? ''} is missing`);
  }
  if (p !== end) throw new SpirvDisasmError(at, `${where}: says it has ${count} words, but its operands take ${p - at}`);
  if (op.generatesType) state.numberTypes.set(result, numberKind(w, at, opcode));
  const operands = parts.map((s) => ` ${s}`).join('');
  if (result === 0) return { line: `${indent ? ' '.repeat(INDENT) : ''}${op.name}${operands}`, next: end };
  const id = String(result);
  return { line: `${indent ? ' '.repeat(Math.max(0, INDENT - 4 - id.length)) : ''}%${id} = ${op.name}${operands}`, next: end };
}

/**
 * The next operand kind to parse, `?` marking it optional. A `*` kind stays expected after an
 * optional instance of it; a pair expands to its optional first part and its second (SPIRV-Tools
 * spvExpandOperandSequenceOnce). PairIdRefIdRef counts as a plain IdRef (SPIRV-Tools maps it to
 * an id: OpPhi takes any number of ids).
 */
function take(expected: string[]): string {
  for (;;) {
    const spec = expected.pop() ?? '';
    const star = spec.endsWith('*');
    const base = star || spec.endsWith('?') ? spec.slice(0, -1) : spec;
    const kind = base === 'PairIdRefIdRef' ? 'IdRef' : base;
    const pair = pairParts(kind);
    if (star) {
      expected.push(spec);
      if (pair) expected.push(pair[1], `${pair[0]}?`);
      else expected.push(`${kind}?`);
      continue;
    }
    if (pair) { expected.push(pair[1]); return spec.endsWith('?') ? `${pair[0]}?` : pair[0]; }
    return spec.endsWith('?') ? `${kind}?` : kind;
  }
}

/** The OpSwitch selector's integer type (Parser::parseOperand's checks). */
function switchType(w: Uint32Array, at: number, state: State, where: string): NumberKind {
  const selector = w[at + 1] ?? 0;
  const type = state.idType.get(selector);
  if (type === undefined || type === 0) throw new SpirvDisasmError(at + 1, `${where}: the selector %${selector} has no type`);
  if (type === selector) throw new SpirvDisasmError(at + 1, `${where}: the selector %${selector} is a type, not a value`);
  const t = state.numberTypes.get(type);
  if (!state.numberTypes.has(type)) throw new SpirvDisasmError(at + 1, `${where}: the selector's type %${type} is not a type`);
  if (!t || t.kind === 'float') throw new SpirvDisasmError(at + 1, `${where}: the selector %${selector} is not a scalar integer`);
  return t;
}

/** The numeric kind a type instruction declares (OpTypeInt: width, signedness; OpTypeFloat: width). */
function numberKind(w: Uint32Array, at: number, opcode: number): NumberKind | undefined {
  const width = w[at + 2] ?? 0;
  if (opcode === OP_TYPE_INT) return { kind: (w[at + 3] ?? 0) !== 0 ? 'signed' : 'unsigned', width };
  if (opcode === OP_TYPE_FLOAT) return { kind: 'float', width };
  return undefined;
}

/** A nul-terminated literal string at word `p` within the instruction (the first byte in each word's lowest octet). */
function literalString(w: Uint32Array, p: number, end: number, where: string): { text: string; words: number } {
  const bytes: number[] = [];
  for (let q = p; q < end; q++) {
    const v = w[q] ?? 0;
    for (let i = 0; i < 4; i++) {
      const b = (v >>> (8 * i)) & 0xff;
      if (b === 0) return { text: utf8(bytes), words: q - p + 1 };
      bytes.push(b);
    }
  }
  throw new SpirvDisasmError(p, `${where}: the literal string has no terminating nul within the instruction`);
}

/** An enum operand's text; the parameters its enumerants take become expected next (a mask's in ascending bit order). */
function enumOperand(kind: string, value: number, expected: string[], p: number, where: string): string {
  const table = ENUM_TABLES.get(kind);
  if (!table) throw new SpirvDisasmError(p, `${where}: operand kind ${kind} is not in the grammar table`);
  const push = (params: readonly string[]): void => { expected.push(...[...params].reverse()); };
  if (!table.bits) {
    const e = table.values.get(value);
    if (!e) throw new SpirvDisasmError(p, `${where}: ${value} is not a ${kind} in the grammar table (vendor enumerants are left out)`);
    push(e.params);
    return e.name;
  }
  const names: string[] = [];
  for (let bit = 31; bit >= 0; bit--) {
    const mask = (1 << bit) >>> 0;
    if ((value & mask) === 0) continue;
    const e = table.values.get(mask);
    if (!e) throw new SpirvDisasmError(p, `${where}: ${kind} ${value} has the bit 0x${mask.toString(16)}, which is not in the grammar table`);
    // From the highest bit down, each bit's parameters go in front: the lowest bit's come first.
    push(e.params);
    names.unshift(e.name);
  }
  if (value === 0) {
    const none = table.values.get(0);
    if (none) { push(none.params); names.push(none.name); }
  }
  return names.join('|');
}
