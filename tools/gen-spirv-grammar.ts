// Writes src/backend/spirv/grammar.ts from SPIRV-Headers' machine-readable grammar (Debian package
// spirv-headers: /usr/include/spirv/unified1/spirv.core.grammar.json and
// extinst.glsl.std.450.grammar.json, plus the registry's generator ids in /usr/include/spirv/spir-v.xml).
// `npm run gen:spirv`.
// tests/backend/spirv-builder.test.ts regenerates the text in memory and fails when the committed
// file is not current.
//
// What is kept ("the parts used"): every core instruction except vendor ones (names ending in a
// vendor suffix: INTEL, NV, AMDX, ...) and the OpenCL-only pipe and device-side-enqueue classes;
// each enum kind such an instruction (or one of its enumerants' parameters) names, plus Scope and
// MemorySemantics (the values of IdScope / IdMemorySemantics constants), without vendor enumerants;
// the composite operand kinds; all GLSL.std.450 instructions. For the disassembler (disasm.ts, which
// prints what SPIRV-Tools' spirv-dis prints): the generator tool names of the registry, and the
// spellings spirv-dis shows where they are not the first kept one (see shownNames).
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const GRAMMAR_DIR = '/usr/include/spirv/unified1';
export const CORE_GRAMMAR = `${GRAMMAR_DIR}/spirv.core.grammar.json`;
export const GLSL_GRAMMAR = `${GRAMMAR_DIR}/extinst.glsl.std.450.grammar.json`;
export const REGISTRY_XML = '/usr/include/spirv/spir-v.xml';
export const OUTPUT = new URL('../src/backend/spirv/grammar.ts', import.meta.url);

interface JsonOperand { kind: string; quantifier?: '?' | '*'; name?: string }
interface JsonInstruction {
  opname: string; class?: string; opcode: number; operands?: JsonOperand[];
  capabilities?: string[]; extensions?: string[]; version?: string;
}
interface JsonEnumerant {
  enumerant: string; value: number | string; capabilities?: string[]; extensions?: string[];
  parameters?: JsonOperand[]; version?: string; lastVersion?: string;
}
interface JsonOperandKind { category: string; kind: string; enumerants?: JsonEnumerant[]; bases?: string[] }
interface CoreGrammar {
  magic_number: string; major_version: number; minor_version: number; revision: number;
  instructions: JsonInstruction[]; operand_kinds: JsonOperandKind[];
}
interface ExtGrammar { version: number; revision: number; instructions: JsonInstruction[] }

const VENDOR = /(INTEL|NV|NVX|AMD|AMDX|ALTERA|QCOM|ARM|HUAWEI|GOOGLE)$/;
const DROPPED_CLASSES = new Set(['Pipe', 'Device-Side_Enqueue']);
/** Enum kinds kept even though no instruction names them (their values are IdScope / IdMemorySemantics constants). */
const ALWAYS_ENUMS = ['Scope', 'MemorySemantics'];

/** SPIRV-Tools' disassembler picks names in a SPIR-V 1.5 environment (spirv-dis's default target). */
const DISASM_VERSION = 105;

const q = (s: string): string => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
const list = (xs: readonly string[]): string => `[${xs.map(q).join(', ')}]`;
const operandSpec = (o: JsonOperand): string => o.kind + (o.quantifier ?? '');

function attrs(x: { capabilities?: string[]; extensions?: string[]; version?: string }): string {
  let s = '';
  if (x.capabilities && x.capabilities.length > 0) s += `, caps: ${list(x.capabilities)}`;
  if (x.extensions && x.extensions.length > 0) s += `, exts: ${list(x.extensions)}`;
  if (x.version !== undefined) s += `, version: ${q(x.version)}`;
  return s;
}

const enumValue = (e: JsonEnumerant): number => (typeof e.value === 'string' ? Number.parseInt(e.value, 16) : e.value);
function versionNumber(v: string | undefined, absent: number): number {
  if (v === undefined) return absent;
  const m = /^(\d+)\.(\d+)$/.exec(v);
  return m ? Number(m[1]) * 100 + Number(m[2]) : Number.POSITIVE_INFINITY; // 'None': in no core version
}

/**
 * Names spirv-dis (SPIRV-Tools, generate_grammar_tables.py) shows that the first kept spelling
 * would not give: an opcode is shown by the least of all its names (its table is sorted by opcode,
 * then name); an enum value by its first enumerant in grammar order that a SPIR-V 1.5 environment
 * offers (in that core version, or enabled by a capability, or by an extension of any enumerant of
 * the same value). Where that is a left-out vendor alias (RayGenerationNV before RayGenerationKHR),
 * the disassembler needs it here. Values no enumerant of which 1.5 offers keep the first kept name.
 */
function shownNames(core: CoreGrammar, keptOps: readonly JsonInstruction[], usedEnums: ReadonlySet<string>): Map<string, Map<number, string>> {
  const out = new Map<string, Map<number, string>>();
  const note = (kind: string, value: number, name: string): void => {
    let m = out.get(kind);
    if (!m) out.set(kind, (m = new Map()));
    m.set(value, name);
  };
  const firstKeptOp = new Map<number, string>();
  for (const op of keptOps) if (!firstKeptOp.has(op.opcode)) firstKeptOp.set(op.opcode, op.opname);
  const leastOp = new Map<number, string>();
  for (const op of core.instructions) {
    const seen = leastOp.get(op.opcode);
    if (seen === undefined || op.opname < seen) leastOp.set(op.opcode, op.opname);
  }
  for (const [opcode, kept] of firstKeptOp) {
    const shown = leastOp.get(opcode) ?? kept;
    if (shown !== kept) note('Op', opcode, shown);
  }
  for (const k of core.operand_kinds) {
    if (!usedEnums.has(k.kind)) continue;
    const byValue = new Map<number, JsonEnumerant[]>();
    for (const e of k.enumerants ?? []) {
      const v = enumValue(e);
      byValue.set(v, [...(byValue.get(v) ?? []), e]);
    }
    for (const [value, es] of byValue) {
      const kept = es.find((e) => !VENDOR.test(e.enumerant));
      if (!kept) continue;
      const anyExt = es.some((e) => (e.extensions ?? []).length > 0);
      const offered = es.find((e) => (e.capabilities ?? []).length > 0 || anyExt
        || (versionNumber(e.version, 100) <= DISASM_VERSION && DISASM_VERSION <= versionNumber(e.lastVersion, Number.POSITIVE_INFINITY)));
      if (offered && offered.enumerant !== kept.enumerant) note(k.kind, value, offered.enumerant);
    }
  }
  return out;
}

/** The registry's generator tools (the high 16 bits of the header's generator word): id → "vendor tool". */
function generatorNames(registryXml: string): [number, string][] {
  const block = /<ids type="vendor"[^>]*>([\s\S]*?)<\/ids>/.exec(registryXml);
  if (!block) throw new Error('grammar: spir-v.xml has no <ids type="vendor"> block');
  const entities: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
  const attr = (tag: string, name: string): string | undefined => new RegExp(`\\b${name}="([^"]*)"`).exec(tag)?.[1]
    ?.replace(/&(amp|lt|gt|quot|apos);/g, (_, e: string) => entities[e] ?? '');
  const out: [number, string][] = [];
  for (const m of (block[1] ?? '').matchAll(/<id\b[^>]*\/>/g)) {
    const value = attr(m[0], 'value');
    const vendor = attr(m[0], 'vendor');
    if (value === undefined || vendor === undefined) throw new Error(`grammar: spir-v.xml generator entry without value or vendor: ${m[0]}`);
    const tool = attr(m[0], 'tool');
    out.push([Number(value), tool ? `${vendor} ${tool}` : vendor]);
  }
  return out;
}

/** The text of src/backend/spirv/grammar.ts for the parsed grammar files and the registry XML text. */
export function renderSpirvGrammar(coreJson: unknown, glslJson: unknown, registryXml: string): string {
  const core = coreJson as CoreGrammar;
  const glsl = glslJson as ExtGrammar;
  const kinds = new Map(core.operand_kinds.map((k) => [k.kind, k]));
  const ops = core.instructions.filter((i) => !VENDOR.test(i.opname) && !DROPPED_CLASSES.has(i.class ?? ''));

  const usedEnums = new Set<string>();
  const visit = (kind: string): void => {
    const k = kinds.get(kind);
    if (!k) throw new Error(`grammar: unknown operand kind ${kind}`);
    if (k.category === 'Composite') { for (const b of k.bases ?? []) visit(b); return; }
    if (k.category !== 'ValueEnum' && k.category !== 'BitEnum') return;
    if (usedEnums.has(kind)) return;
    usedEnums.add(kind);
    for (const e of k.enumerants ?? []) for (const p of e.parameters ?? []) visit(p.kind);
  };
  for (const op of ops) for (const o of op.operands ?? []) visit(o.kind);
  for (const k of ALWAYS_ENUMS) visit(k);

  const out: string[] = [];
  out.push('// Generated by tools/gen-spirv-grammar.ts (npm run gen:spirv) from SPIRV-Headers\' JSON grammar:');
  out.push(`// spirv.core.grammar.json ${core.major_version}.${core.minor_version} revision ${core.revision},`);
  out.push(`// extinst.glsl.std.450.grammar.json version ${glsl.version} revision ${glsl.revision}, and the generator ids of spir-v.xml. Do not edit.`);
  out.push('// Vendor instructions and enumerants (INTEL, NV, AMDX, ...) and the OpenCL pipe/enqueue classes are left out.');
  out.push('/* eslint-disable */');
  out.push('');
  out.push(`export const GRAMMAR_VERSION = { major: ${core.major_version}, minor: ${core.minor_version}, revision: ${core.revision} } as const;`);
  out.push(`export const MAGIC_NUMBER = ${core.magic_number};`);
  out.push('');
  out.push('/** Operand kinds that are not enums: their category, or the kinds a pair is made of. */');
  out.push('export const OPERAND_KINDS = {');
  for (const k of core.operand_kinds) {
    if (k.category === 'Id' || k.category === 'Literal') out.push(`  ${k.kind}: ${q(k.category)},`);
    else if (k.category === 'Composite') out.push(`  ${k.kind}: ${list(k.bases ?? [])},`);
  }
  out.push('} as const;');
  out.push('');
  out.push('/** Every kept instruction: opcode, class and operand kinds in order (`?` optional, `*` any number). */');
  out.push('export const OPS = {');
  for (const op of ops) {
    const operands = (op.operands ?? []).map(operandSpec);
    out.push(`  ${op.opname}: { opcode: ${op.opcode}, class: ${q(op.class ?? '')}, operands: ${list(operands)}${attrs(op)} },`);
  }
  out.push('} as const;');
  out.push('');
  out.push('/** The enum operand kinds: category and enumerants (value, enabling capabilities, extensions, version, parameters). */');
  out.push('export const ENUMS = {');
  for (const k of core.operand_kinds) {
    if (!usedEnums.has(k.kind)) continue;
    out.push(`  ${k.kind}: { category: ${q(k.category)}, values: {`);
    for (const e of k.enumerants ?? []) {
      if (VENDOR.test(e.enumerant)) continue;
      const value = enumValue(e);
      const params = e.parameters && e.parameters.length > 0 ? `, params: ${list(e.parameters.map(operandSpec))}` : '';
      // Enumerant names may start with a digit (Dim 1D, ImageFormat R32f is fine): always quote.
      out.push(`    ${q(e.enumerant)}: { value: ${value}${attrs(e)}${params} },`);
    }
    out.push('  } },');
  }
  out.push('} as const;');
  out.push('');
  out.push('/** GLSL.std.450 extended instructions: number and operand kinds. */');
  out.push('export const GLSL_STD_450 = {');
  for (const i of glsl.instructions) {
    out.push(`  ${i.opname}: { opcode: ${i.opcode}, operands: ${list((i.operands ?? []).map(operandSpec))}${attrs(i)} },`);
  }
  out.push('} as const;');
  out.push('');
  out.push('/** Generator tools of the SPIR-V registry (spir-v.xml): the header\'s generator word >> 16 → "vendor tool". */');
  out.push('export const GENERATORS = {');
  for (const [id, name] of generatorNames(registryXml)) out.push(`  ${id}: ${q(name)},`);
  out.push('} as const;');
  out.push('');
  out.push('/** Where spirv-dis shows another spelling than the first kept one (a left-out vendor alias first in the grammar): kind (Op: opcodes) → value → name. */');
  out.push('export const SHOWN_NAMES = {');
  for (const [kind, names] of shownNames(core, ops, usedEnums)) {
    out.push(`  ${kind}: { ${[...names].map(([v, n]) => `${v}: ${q(n)}`).join(', ')} },`);
  }
  out.push('} as const;');
  out.push('');
  return out.join('\n');
}

/** Reads the installed grammar files and renders the module text. */
export function renderInstalledGrammar(): string {
  const read = (path: string): unknown => JSON.parse(readFileSync(path, 'utf8')) as unknown;
  return renderSpirvGrammar(read(CORE_GRAMMAR), read(GLSL_GRAMMAR), readFileSync(REGISTRY_XML, 'utf8'));
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(OUTPUT, renderInstalledGrammar());
  process.stdout.write(`wrote ${fileURLToPath(OUTPUT)}\n`);
}
