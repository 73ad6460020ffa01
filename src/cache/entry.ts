// What the shader cache keeps of a recompile: everything `rdna compile` and `rdna compile-all`
// write or report (the SPIR-V words, the printed IR for `--emit ir`, diagnostics, float op
// lowerings, fault sites, the control-flow form), or the recompiler's refusal (a TranslateError or
// CompileError: as much a function of the key as a module is), and its encoding in a row with a
// checksum. Node layer (node:crypto).
import { createHash } from 'node:crypto';
import type { Diagnostic } from '../analysis/types.js';
import type { FloatOpLowering, RecompiledFault, RecompileResult } from '../backend/recompile.js';
import { printFunction } from '../ir/print.js';

export interface CompiledShader {
  readonly spirv: Uint32Array;
  /** printFunction of the IR (`rdna compile --emit ir`). */
  readonly ir: string;
  readonly diagnostics: readonly Diagnostic[];
  readonly floatOps: readonly FloatOpLowering[];
  readonly faults: readonly RecompiledFault[];
  readonly controlFlow: RecompileResult['controlFlow'];
  readonly dispatch: RecompileResult['dispatch'];
  readonly laneExchange: RecompileResult['laneExchange'];
  readonly codeImage?: RecompileResult['codeImage'];
}

/** The cached part of a recompile; the IR is printed when first read (a compile without the cache that does not emit IR never prints it). */
export function compiledOf(r: RecompileResult): CompiledShader {
  let ir: string | undefined;
  return {
    spirv: r.spirv, diagnostics: r.diagnostics, floatOps: r.floatOps, faults: r.faults, controlFlow: r.controlFlow, dispatch: r.dispatch, laneExchange: r.laneExchange,
    ...(r.codeImage ? { codeImage: r.codeImage } : {}),
    get ir() { return (ir ??= printFunction(r.ir)); },
  };
}

/** A shader the recompiler refused: the error as it gave it (message with pc and instruction text), to be raised again on a hit. */
export interface Refusal {
  readonly kind: 'TranslateError' | 'CompileError';
  readonly message: string;
  readonly pc?: number;
  readonly instruction?: string;
}

/** What an entry holds. */
export type CacheValue = CompiledShader | { readonly refusal: Refusal };

export const isRefusal = (v: CacheValue): v is { readonly refusal: Refusal } => 'refusal' in v;

/** The stored form: the key text, SPIR-V bytes, the JSON of the reports, the IR text, and a checksum over all of them. */
export interface EntryRow {
  readonly key: string;
  readonly spirv: Buffer;
  readonly result: string;
  readonly ir: string;
  readonly checksum: string;
}

/** SHA-256 over the row's fields, each length-prefixed (no field's bytes can pass for another's). */
export function checksumOf(key: string, spirv: Uint8Array, result: string, ir: string): string {
  const h = createHash('sha256');
  for (const part of [Buffer.from(key, 'utf8'), spirv, Buffer.from(result, 'utf8'), Buffer.from(ir, 'utf8')]) {
    h.update(`${part.length}:`).update(part);
  }
  return h.digest('hex');
}

export function encodeEntry(key: string, c: CacheValue): EntryRow {
  if (isRefusal(c)) {
    const spirv = Buffer.alloc(0);
    const result = JSON.stringify({ refusal: c.refusal });
    return { key, spirv, result, ir: '', checksum: checksumOf(key, spirv, result, '') };
  }
  const spirv = Buffer.from(c.spirv.buffer, c.spirv.byteOffset, c.spirv.byteLength);
  const result = JSON.stringify({ diagnostics: c.diagnostics, floatOps: c.floatOps, faults: c.faults, controlFlow: c.controlFlow, dispatch: c.dispatch, laneExchange: c.laneExchange, ...(c.codeImage ? { codeImage: c.codeImage } : {}) });
  return { key, spirv, result, ir: c.ir, checksum: checksumOf(key, spirv, result, c.ir) };
}

/** Bytes an entry takes (what the size limit counts). */
export function entrySize(r: EntryRow): number {
  return Buffer.byteLength(r.key, 'utf8') + r.spirv.length + Buffer.byteLength(r.result, 'utf8') + Buffer.byteLength(r.ir, 'utf8');
}

/** Why a stored row is not a valid entry for `key`, or undefined when it is. */
export function rowProblem(row: Record<string, unknown>, key: string): string | undefined {
  const { spirv, result, ir, checksum } = row;
  if (typeof row['key'] !== 'string' || !(spirv instanceof Uint8Array) || typeof result !== 'string' || typeof ir !== 'string' || typeof checksum !== 'string') return 'a field has the wrong type';
  if (checksumOf(row['key'], spirv, result, ir) !== checksum) return 'its checksum does not match';
  if (row['key'] !== key) return 'its key is another shader\'s';
  if (spirv.length % 4 !== 0) return 'its SPIR-V is not whole words';
  return undefined;
}

/** The entry of a row that rowProblem accepted. Throws on a result that is not the stored shape. */
export function decodeEntry(row: EntryRow): CacheValue {
  const r = JSON.parse(row.result) as Partial<Omit<CompiledShader, 'spirv' | 'ir'>> & { refusal?: Partial<Refusal> };
  if (r.refusal !== undefined) {
    const f = r.refusal;
    if ((f.kind !== 'TranslateError' && f.kind !== 'CompileError') || typeof f.message !== 'string') throw new Error('the stored refusal is not in the entry format');
    return { refusal: { kind: f.kind, message: f.message, ...(typeof f.pc === 'number' ? { pc: f.pc } : {}), ...(typeof f.instruction === 'string' ? { instruction: f.instruction } : {}) } };
  }
  const words = new Uint32Array(row.spirv.length / 4);
  new Uint8Array(words.buffer).set(row.spirv);
  if (!Array.isArray(r.diagnostics) || !Array.isArray(r.floatOps) || !Array.isArray(r.faults) || (r.controlFlow !== 'structured' && r.controlFlow !== 'state machine') || (r.dispatch !== 'wave' && r.dispatch !== 'workgroup') || !isLaneExchange(r.laneExchange)) {
    throw new Error('the stored reports are not in the entry format');
  }
  const im = r.codeImage;
  if (im !== undefined && (typeof im !== 'object' || im === null || !Number.isSafeInteger(im.base) || !Number.isSafeInteger(im.size))) throw new Error('the stored code image is not in the entry format');
  return { spirv: words, ir: row.ir, diagnostics: r.diagnostics, floatOps: r.floatOps, faults: r.faults, controlFlow: r.controlFlow, dispatch: r.dispatch, laneExchange: r.laneExchange, ...(im ? { codeImage: { base: im.base, size: im.size } } : {}) };
}

/** A stored lane exchange as lane-exchange.ts makes them. */
function isLaneExchange(x: unknown): x is RecompileResult['laneExchange'] {
  if (typeof x !== 'object' || x === null) return false;
  const o = x as Record<string, unknown>;
  if (typeof o['why'] !== 'string') return false;
  if (o['kind'] === 'workgroup-memory') return true;
  return o['kind'] === 'subgroup' && (o['subgroupSize'] === 32 || o['subgroupSize'] === 64) && o['fullSubgroups'] === true
    && (o['requiredSubgroupSize'] === undefined || o['requiredSubgroupSize'] === o['subgroupSize']);
}
