// The generated grammar tables turned around for the disassembler: opcode → instruction, enum value
// → the name spirv-dis shows, GLSL.std.450 number → instruction, generator id → tool. Core.
import { ENUMS, GENERATORS, GLSL_STD_450, OPERAND_KINDS, OPS, SHOWN_NAMES } from './grammar.js';
import type { EnumerantInfo, OpInfo } from './operands.js';

export interface OpEntry {
  readonly name: string;
  /** Operand kinds with quantifiers, as in the grammar. */
  readonly operands: readonly string[];
  /** Whether the result id is a type (spirv-dis's spvOpcodeGeneratesType: the OpType* with a result). */
  readonly generatesType: boolean;
}

export interface EnumEntry {
  readonly name: string;
  /** The enumerant's parameter kinds (SPIRV-Tools drops their quantifiers; none in the kept grammar has one). */
  readonly params: readonly string[];
}

export interface EnumKindTable { readonly bits: boolean; readonly values: ReadonlyMap<number, EnumEntry> }

const shown = SHOWN_NAMES as unknown as Readonly<Record<string, Readonly<Record<number, string>>>>;
const shownName = (kind: string, value: number): string | undefined =>
  Object.prototype.hasOwnProperty.call(shown, kind) ? shown[kind]?.[value] : undefined;

function buildOps(): Map<number, OpEntry> {
  const out = new Map<number, OpEntry>();
  for (const [name, info] of Object.entries(OPS as unknown as Readonly<Record<string, OpInfo>>)) {
    // Aliases share an opcode (OpSDot, OpSDotKHR): the first kept one, unless spirv-dis shows another.
    if (out.has(info.opcode)) continue;
    // OpExtInst's trailing IdRef* is the extended instruction's operands, which its own grammar
    // gives (SPIRV-Tools drops it: generate_grammar_tables.py fix_syntax).
    const operands = name === 'OpExtInst' && info.operands.at(-1) === 'IdRef*' ? info.operands.slice(0, -1) : info.operands;
    out.set(info.opcode, {
      name: shownName('Op', info.opcode) ?? name,
      operands,
      // (OpTypeAccelerationStructureKHR and OpTypeRayQueryKHR are of class Reserved.)
      generatesType: name.startsWith('OpType') && info.operands.includes('IdResult'),
    });
  }
  return out;
}

function buildEnums(): Map<string, EnumKindTable> {
  const out = new Map<string, EnumKindTable>();
  type Table = { readonly category: string; readonly values: Readonly<Record<string, EnumerantInfo>> };
  for (const [kind, table] of Object.entries(ENUMS as unknown as Readonly<Record<string, Table>>)) {
    const values = new Map<number, EnumEntry>();
    for (const [name, e] of Object.entries(table.values)) {
      if (values.has(e.value)) continue;
      const params = (e.params ?? []).map((p) => p.replace(/[?*]$/, ''));
      values.set(e.value, { name: shownName(kind, e.value) ?? name, params });
    }
    out.set(kind, { bits: table.category === 'BitEnum', values });
  }
  return out;
}

export const OPS_BY_CODE: ReadonlyMap<number, OpEntry> = buildOps();
export const ENUM_TABLES: ReadonlyMap<string, EnumKindTable> = buildEnums();

/** A composite operand kind's parts (PairLiteralIntegerIdRef → LiteralInteger, IdRef), undefined otherwise. */
export function pairParts(kind: string): readonly [string, string] | undefined {
  const k = (OPERAND_KINDS as unknown as Readonly<Record<string, string | readonly string[]>>)[kind];
  return Array.isArray(k) && k.length === 2 ? [k[0] as string, k[1] as string] : undefined;
}

const GLSL_BY_NUMBER: ReadonlyMap<number, EnumEntry> = new Map(
  Object.entries(GLSL_STD_450 as unknown as Readonly<Record<string, { opcode: number; operands: readonly string[] }>>)
    .map(([name, i]) => [i.opcode, { name, params: i.operands }]),
);

/** A GLSL.std.450 instruction by number: its name and operand kinds. */
export const glslInstruction = (n: number): EnumEntry | undefined => GLSL_BY_NUMBER.get(n);

/** The header's generator line: the registry's tool name, or Unknown(N) (spvGeneratorStr). */
export function generatorName(tool: number): string {
  const names = GENERATORS as unknown as Readonly<Record<number, string>>;
  return Object.prototype.hasOwnProperty.call(names, tool) ? (names[tool] as string) : `Unknown(${tool})`;
}
