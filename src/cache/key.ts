// The shader cache's key: everything a recompile's output depends on, as canonical JSON, and its
// SHA-256. Node layer (node:crypto, node:fs); the core stays free of Node APIs.
//
// What the key holds (docs/ARCHITECTURE.md, "The shader cache"):
//  - `build`: a hash of the recompiler's own code (every .js file of dist/, or every .ts file of
//    src/ when run from sources), computed once per process: any change to the code, the output
//    format included, changes every key. No hand-kept version number.
//  - `profile`: the whole target profile, every field, keys sorted.
//  - `shader`: every ShaderInfo field except those in EXCLUDED_INFO_FIELDS (the name is kept: the
//    printed IR, `--emit ir`, starts with it). A field added to ShaderInfo later is in the key
//    without anyone remembering to add it.
//  - `code`: the words of every instruction reachable from the entry (the CFG of
//    src/analysis/cfg.ts, which follows calls into the functions beside the kernel: a callee's
//    words are in it), each with its pc, and the reachable invalid words (a truncated
//    instruction's with the rest of its segment): bytes no path reaches do not matter.
//  - `options`: the recompile options (the control-flow form); `endianness`: the byte order the
//    SPIR-V words are stored in.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { endianness } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildCfg } from '../analysis/cfg.js';
import type { Cfg } from '../analysis/types.js';
import type { TargetProfile } from '../backend/profile.js';
import { type Shader, segmentAt } from '../container/shader.js';
import type { ShaderInfo } from '../container/shader-info.js';

/** The layout of the key object itself; bumped only when this file changes what a key holds (the build hash changes then anyway). */
export const KEY_VERSION = 1;

/**
 * ShaderInfo fields left out of the key, and why: `codeSection` is the name of the ELF section
 * the code was read from (provenance only; the code itself, with its pcs, is the `code` part).
 */
export const EXCLUDED_INFO_FIELDS: readonly (keyof ShaderInfo)[] = ['codeSection'];

export interface CacheKey {
  /** The canonical JSON text of the key (stored with the entry and compared on load). */
  readonly json: string;
  /** SHA-256 of `json`, hex: the entry's address. */
  readonly hash: string;
  /** The build hash the key was made with. */
  readonly build: string;
}

export interface KeyOptions {
  /** The build hash (default: buildId()); tests pass another to stand for a changed recompiler. */
  readonly build?: string;
  /** A CFG already built for this shader. */
  readonly cfg?: Cfg;
  readonly stateMachine?: boolean;
  /** RecompileOptions.workItems (absent: the kernel's bound, the key of a compile without it). */
  readonly workItems?: number;
}

/**
 * JSON with object keys sorted at every level and undefined fields left out; bigints as
 * {"bigint": "digits"}, typed arrays as arrays. The same value always gives the same text.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(canonical(value, 0));
}

function canonical(v: unknown, depth: number): unknown {
  if (depth > 64) throw new Error('canonicalJson: value nested too deeply');
  switch (typeof v) {
    case 'string': case 'boolean': return v;
    case 'number':
      if (!Number.isFinite(v)) throw new Error(`canonicalJson: ${v} has no JSON form`);
      return v;
    case 'bigint': return { bigint: v.toString() };
    case 'object': {
      if (v === null) return null;
      if (ArrayBuffer.isView(v)) return Array.from(v as unknown as ArrayLike<number | bigint>, (x) => canonical(x, depth + 1));
      if (Array.isArray(v)) return v.map((x) => (x === undefined ? null : canonical(x, depth + 1)));
      const out: Record<string, unknown> = {};
      for (const k of Object.keys(v).sort()) {
        const x = (v as Record<string, unknown>)[k];
        if (x !== undefined) out[k] = canonical(x, depth + 1);
      }
      return out;
    }
    default: throw new Error(`canonicalJson: a ${typeof v} has no JSON form`);
  }
}

const hex = (w: number) => (w >>> 0).toString(16).padStart(8, '0');

/** The reachable code: `pc:words` for every instruction of the CFG, `pc!words` for reachable invalid words; ascending pc. */
export function reachableCode(shader: Shader, cfg: Cfg): string[] {
  const at = new Map<number, string>();
  for (const b of cfg.blocks) for (const i of b.instructions) at.set(i.pc, `${i.pc.toString(16)}:${i.words.map(hex).join('')}`);
  for (const w of cfg.invalid) {
    // A truncated instruction's decode depends on every word up to the end of its segment (the
    // kernel's range or the function it is in).
    const seg = segmentAt(shader, w.pc);
    const from = seg ? (w.pc - seg.start) / 4 : -1;
    const words = w.truncated && seg && Number.isInteger(from) && from >= 0 ? Array.from(seg.words.subarray(from)) : [...w.words];
    at.set(w.pc, `${w.pc.toString(16)}!${words.map(hex).join('')}`);
  }
  return [...at.entries()].sort((a, b) => a[0] - b[0]).map(([, s]) => s);
}

/** The key of recompiling `shader` for `profile`. */
export function cacheKey(shader: Shader, profile: TargetProfile, o: KeyOptions = {}): CacheKey {
  const build = o.build ?? buildId();
  const info: Record<string, unknown> = { ...shader.info };
  for (const f of EXCLUDED_INFO_FIELDS) delete info[f];
  const json = canonicalJson({
    key: KEY_VERSION,
    build,
    profile,
    shader: info,
    code: reachableCode(shader, o.cfg ?? buildCfg(shader)),
    // A linked object's image: the module moves addresses inside it (its bytes are given at run time).
    ...(shader.image ? { image: { base: shader.image.base, size: shader.image.bytes.length } } : {}),
    options: { stateMachine: o.stateMachine ?? false, ...(o.workItems !== undefined ? { workItems: o.workItems } : {}) },
    // SPIR-V words are stored in the machine's byte order.
    endianness: endianness(),
  });
  return { json, hash: createHash('sha256').update(json).digest('hex'), build };
}

let build: string | undefined;

/**
 * The recompiler's build: SHA-256 over the path and bytes of every file of the code this module
 * was loaded from (dist/*.js for the built CLI, src/*.ts when run from sources), once per process.
 */
export function buildId(): string {
  if (build !== undefined) return build;
  const self = fileURLToPath(import.meta.url);
  const ext = self.endsWith('.ts') ? '.ts' : '.js';
  const root = fileURLToPath(new URL('..', import.meta.url));
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile() && e.name.endsWith(ext) && !e.name.endsWith('.d.ts')) files.push(p);
    }
  };
  walk(root);
  const h = createHash('sha256');
  for (const f of files.map((p) => relative(root, p).split('\\').join('/')).sort()) {
    const bytes = readFileSync(join(root, f));
    h.update(`${f}\0${bytes.length}\0`).update(bytes);
  }
  build = h.digest('hex');
  return build;
}
