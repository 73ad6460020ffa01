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
import { GLSL_STD_450, MAGIC_NUMBER, OPS } from './grammar.js';
import {
  BuilderError, describe, encodeOperands, enumerant, Id, opInfo,
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

interface FunctionStreams {
  readonly name: string;
  readonly header: number[];
  firstLabel: number[] | undefined;
  readonly vars: number[];
  readonly body: number[];
}

const DEDUP_TYPES_EXCEPT = new Set(['OpTypeStruct', 'OpTypeOpaque', 'OpTypeForwardPointer']);
const DEDUP_CONSTANTS = new Set(['OpConstantTrue', 'OpConstantFalse', 'OpConstant', 'OpConstantComposite', 'OpConstantNull', 'OpConstantSampler']);
const DEBUG_SOURCE = new Set(['OpString', 'OpSource', 'OpSourceContinued', 'OpSourceExtension']);
const DEBUG_NAMES = new Set(['OpName', 'OpMemberName']);
const MAX_WORDS = 0xffff;

function versionNumber(v: string): number {
  const m = /^(\d+)\.(\d+)$/.exec(v);
  return m ? Number(m[1]) * 100 + Number(m[2]) : Number.POSITIVE_INFINITY;
}

export interface Module extends OpMethods {}

export class Module {
  readonly version: SpirvVersion;
  private readonly generator: number;
  private nextId = 1;
  private readonly defined = new Set<number>();
  private readonly pending = new Set<number>();
  private readonly types = new Map<number, TypeInfo>();
  private readonly valueTypes = new Map<number, Id>();
  private readonly dedup = new Map<string, Id | null>();
  private readonly capabilities: number[] = [];
  private readonly extensions: number[] = [];
  private readonly imports: number[] = [];
  private memoryModel: number[] | undefined;
  private readonly entryPoints: number[] = [];
  private readonly executionModes: number[] = [];
  private readonly debugSource: number[] = [];
  private readonly debugNames: number[] = [];
  private readonly debugProcessed: number[] = [];
  private readonly annotations: number[] = [];
  private readonly globals: number[] = [];
  private readonly functions: number[] = [];
  private current: FunctionStreams | undefined;
  private readonly declared = { caps: new Set<string>(), exts: new Set<string>() };
  private glslSet: Id | undefined;
  private readonly ctx: EncodeContext;

  constructor(options: ModuleOptions = {}) {
    this.version = options.version ?? '1.5';
    if (versionNumber(this.version) === Number.POSITIVE_INFINITY || versionNumber(this.version) > 106) {
      throw new BuilderError('Module', `unknown SPIR-V version ${String(this.version)}`);
    }
    this.generator = options.generator ?? 0;
    this.ctx = {
      idValue: (op, v, what) => {
        if (!(v instanceof Id)) throw new BuilderError(op, `${what} must be an id, got ${describe(v)}`);
        if (v.owner !== this) throw new BuilderError(op, `${what}: ${v.toString()} belongs to another module`);
        return v.value;
      },
      numericType: (t) => this.numericType(t),
      typeOfValue: (v) => this.valueTypes.get(v.value),
    };
  }

  /** A fresh id, to be defined later by `emit(op, operands, id)` or `label(id)`. */
  allocateId(): Id {
    const id = new Id(this.nextId++, this);
    this.pending.add(id.value);
    return id;
  }

  /** What the builder recorded for a type id (undefined for a non-type). */
  typeInfo(type: Id): TypeInfo | undefined {
    return this.types.get(type.value);
  }

  /** The result type of a value id, if it has one. */
  typeOf(value: Id): Id | undefined {
    return this.valueTypes.get(value.value);
  }

  private numericType(t: Id): NumericType | undefined {
    const info = this.types.get(t.value);
    if (!info) return undefined;
    const [width, signed] = info.operands;
    if (info.op === 'OpTypeInt' && width !== undefined) return { kind: 'int', width, signed: signed === 1 };
    if (info.op === 'OpTypeFloat' && width !== undefined) return { kind: 'float', width, signed: true };
    return undefined;
  }

  /**
   * Emits instruction `op` with `operands` (IdResult left out), optionally defining the
   * previously allocated `result`. Returns the result id, or undefined for an instruction without one.
   */
  emit(op: string, operands: readonly unknown[], result?: Id): Id | undefined {
    const info = opInfo(op);
    if (!info) throw new BuilderError(op, 'not an instruction of the grammar table');
    const enc = encodeOperands(op, info.operands, operands, this.ctx);
    if (enc.resultIndex < 0 && result) throw new BuilderError(op, 'has no result id to define');
    if (enc.words.length + 1 > MAX_WORDS) throw new BuilderError(op, `is ${enc.words.length + 1} words, more than ${MAX_WORDS}`);
    const key = this.dedupKey(op, info, enc.words);
    if (key !== undefined) {
      const seen = this.dedup.get(key);
      if (seen !== undefined) {
        // An allocated id cannot become a second name of an existing type or constant.
        if (result) throw new BuilderError(op, `is already defined as ${seen?.toString() ?? 'an earlier instruction'}`);
        return seen ?? undefined;
      }
    }
    let id: Id | undefined;
    if (enc.resultIndex >= 0) {
      if (result) {
        if (result.owner !== this || !this.pending.has(result.value)) {
          throw new BuilderError(op, `${result.toString()} is not an allocated, undefined id of this module`);
        }
        this.pending.delete(result.value);
        id = result;
      } else {
        id = new Id(this.nextId++, this);
      }
      this.defined.add(id.value);
      enc.words[enc.resultIndex] = id.value;
      if (enc.resultType) this.valueTypes.set(id.value, enc.resultType);
      if (info.class === 'Type-Declaration') {
        this.types.set(id.value, { op: op as OpName, operands: enc.words.slice(enc.resultIndex + 1) });
      }
    }
    if (key !== undefined) this.dedup.set(key, id ?? null);
    const inst = [((enc.words.length + 1) << 16 | info.opcode) >>> 0, ...enc.words];
    this.place(op, info, operands, inst);
    return id;
  }

  private dedupKey(op: string, info: OpInfo, words: readonly number[]): string | undefined {
    const body = (): string => words.join(',');
    switch (op) {
      case 'OpCapability': return `cap:${body()}`;
      case 'OpExtension': return `ext:${body()}`;
      case 'OpExtInstImport': return `import:${body()}`;
    }
    if (info.class === 'Annotation' && op !== 'OpDecorationGroup') return `${op}:${body()}`;
    if (info.class === 'Type-Declaration' && !DEDUP_TYPES_EXCEPT.has(op)) return `${op}:${body()}`;
    if (DEDUP_CONSTANTS.has(op)) return `${op}:${body()}`;
    return undefined;
  }

  private place(op: string, info: OpInfo, operands: readonly unknown[], inst: readonly number[]): void {
    const fn = this.current;
    switch (op) {
      case 'OpCapability':
        this.capabilities.push(...inst);
        this.declared.caps.add(String(operands[0]));
        return;
      case 'OpExtension':
        this.extensions.push(...inst);
        this.declared.exts.add(String(operands[0]));
        return;
      case 'OpExtInstImport': this.imports.push(...inst); return;
      case 'OpMemoryModel':
        if (this.memoryModel) throw new BuilderError(op, 'the module already has a memory model');
        this.memoryModel = [...inst];
        return;
      case 'OpEntryPoint': this.entryPoints.push(...inst); return;
      case 'OpExecutionMode':
      case 'OpExecutionModeId': this.executionModes.push(...inst); return;
      case 'OpModuleProcessed': this.debugProcessed.push(...inst); return;
      case 'OpFunction':
        if (fn) throw new BuilderError(op, `function ${fn.name} is still open (no OpFunctionEnd)`);
        this.current = { name: `%${inst[2] ?? '?'}`, header: [...inst], firstLabel: undefined, vars: [], body: [] };
        return;
      case 'OpFunctionParameter':
        if (!fn || fn.firstLabel) throw new BuilderError(op, 'must follow OpFunction, before the first label');
        fn.header.push(...inst);
        return;
      case 'OpFunctionEnd':
        if (!fn) throw new BuilderError(op, 'no function is open');
        // A loop, not a spread: a function body can hold more words than a call's arguments.
        for (const part of [fn.header, fn.firstLabel ?? [], fn.vars, fn.body, inst]) for (const w of part) this.functions.push(w);
        this.current = undefined;
        return;
      case 'OpLabel':
        if (!fn) throw new BuilderError(op, 'outside a function');
        if (!fn.firstLabel) fn.firstLabel = [...inst];
        else fn.body.push(...inst);
        return;
      case 'OpVariable':
        if (operands[1] === 'Function') {
          if (!fn) throw new BuilderError(op, 'a Function-storage variable outside a function');
          fn.vars.push(...inst);
        } else {
          this.globals.push(...inst);
        }
        return;
      case 'OpUndef':
      case 'OpLine':
      case 'OpNoLine':
        (fn ? fn.body : this.globals).push(...inst);
        return;
    }
    if (DEBUG_SOURCE.has(op)) { this.debugSource.push(...inst); return; }
    if (DEBUG_NAMES.has(op)) { this.debugNames.push(...inst); return; }
    if (info.class === 'Annotation') { this.annotations.push(...inst); return; }
    if (info.class === 'Type-Declaration' || info.class === 'Constant-Creation') { this.globals.push(...inst); return; }
    if (!fn) throw new BuilderError(op, 'outside a function');
    if (!fn.firstLabel) throw new BuilderError(op, `before the first OpLabel of function ${fn.name}`);
    fn.body.push(...inst);
  }

  /** Defines the allocated `id` as a label (a block start) in the open function. */
  label(id: Id): Id {
    return this.emit('OpLabel', [], id) as Id;
  }

  /**
   * A scalar constant: `true`/`false` for a bool type; an integer (number or bigint, within the
   * type's signed or unsigned range) for an int type; a finite or infinite JS number for f32 (rounded
   * to nearest even) and f64 (exact). f16 constants, NaNs and exact f32 patterns: `constantBits`.
   */
  constant(type: Id, value: number | bigint | boolean): Id {
    const info = this.types.get(type.value);
    if (info?.op === 'OpTypeBool') {
      if (typeof value !== 'boolean') throw new BuilderError('constant', `a bool constant needs true or false, got ${describe(value)}`);
      return (value ? this.emit('OpConstantTrue', [type]) : this.emit('OpConstantFalse', [type])) as Id;
    }
    const nt = this.numericType(type);
    if (!nt) throw new BuilderError('constant', `${type.toString()} is not a bool, integer or float type`);
    if (nt.kind === 'int') {
      if (typeof value === 'boolean') throw new BuilderError('constant', `an integer constant needs a number, got ${value}`);
      const v = typeof value === 'number' && nt.width === 64 && Number.isSafeInteger(value) ? BigInt(value) : value;
      return this.emit('OpConstant', [type, v]) as Id;
    }
    if (typeof value !== 'number') throw new BuilderError('constant', `a float constant needs a number (or constantBits), got ${describe(value)}`);
    if (Number.isNaN(value)) throw new BuilderError('constant', 'a NaN constant needs its bit pattern: constantBits');
    const view = new DataView(new ArrayBuffer(8));
    if (nt.width === 32) {
      view.setFloat32(0, value, true);
      return this.emit('OpConstant', [type, view.getUint32(0, true)]) as Id;
    }
    if (nt.width === 64) {
      view.setFloat64(0, value, true);
      return this.emit('OpConstant', [type, view.getBigUint64(0, true)]) as Id;
    }
    throw new BuilderError('constant', `an f${nt.width} constant needs its bit pattern: constantBits`);
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
    this.glslSet ??= this.emit('OpExtInstImport', ['GLSL.std.450']) as Id;
    return this.emit('OpExtInst', [resultType, this.glslSet, info.opcode, ...operands]) as Id;
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
    if (caps.length > 1 && !caps.some((c) => this.declared.caps.has(c))) {
      throw new BuilderError(what, `needs one of the capabilities ${caps.join(', ')}: declare one with OpCapability`);
    }
    if (caps.length === 1) this.emit('OpCapability', [caps[0]]);
    const exts = e.exts ?? [];
    const needsExt = exts.length > 0 && (e.version === undefined || versionNumber(e.version) > versionNumber(this.version));
    if (needsExt && !exts.some((x) => this.declared.exts.has(x))) {
      if (exts.length > 1) throw new BuilderError(what, `needs one of the extensions ${exts.join(', ')}: declare one with OpExtension`);
      this.emit('OpExtension', [exts[0]]);
    }
  }

  /** The module as SPIR-V words: header (magic, version, generator, bound, 0) and the sections in layout order. */
  assemble(): Uint32Array {
    if (this.current) throw new BuilderError('assemble', `function ${this.current.name} is still open (no OpFunctionEnd)`);
    if (!this.memoryModel) throw new BuilderError('assemble', 'the module has no OpMemoryModel');
    if (this.pending.size > 0) {
      const ids = [...this.pending].slice(0, 8).map((n) => `%${n}`).join(', ');
      throw new BuilderError('assemble', `allocated ids never defined: ${ids}${this.pending.size > 8 ? ', ...' : ''}`);
    }
    const v = versionNumber(this.version);
    const header = [MAGIC_NUMBER, (Math.floor(v / 100) << 16) | ((v % 100) << 8), this.generator >>> 0, this.nextId, 0];
    const sections = [
      header, this.capabilities, this.extensions, this.imports, this.memoryModel, this.entryPoints,
      this.executionModes, this.debugSource, this.debugNames, this.debugProcessed, this.annotations,
      this.globals, this.functions,
    ];
    const out = new Uint32Array(sections.reduce((n, s) => n + s.length, 0));
    let at = 0;
    for (const s of sections) { out.set(s, at); at += s.length; }
    return out;
  }
}

// One method per grammar instruction, each a call of `emit` with its own name.
for (const name of Object.keys(OPS)) {
  Object.defineProperty(Module.prototype, name, {
    value: function (this: Module, ...operands: Operand[]) { return this.emit(name, operands); },
    writable: false, enumerable: false, configurable: false,
  });
}
