// The shader inputs every shader-taking command accepts: an AMDGPU code object (one shader per
// kernel, `--kernel NAME` picks one) or a raw code file with its JSON sidecar (`shader.bin` beside
// `shader.json`, or `--sidecar FILE`; naming the .json finds the .bin beside it).
import { existsSync, readFileSync } from 'node:fs';
import { basename, extname } from 'node:path';
import { ElfError, isElf } from '../container/elf.js';
import { CodeObjectError } from '../container/kernel-descriptor.js';
import { loadShaders, type Shader } from '../container/shader.js';
import { MAX_SIDECAR_BYTES } from '../container/sidecar.js';
import type { ParsedArgs } from './args.js';
import { InputError, UsageError } from './errors.js';
import { readInput } from './input.js';

/** Options of shader-taking commands (for parseArgs). */
export const SHADER_OPTIONS = ['kernel', 'sidecar'] as const;
export const SHADER_USAGE = '[--kernel NAME] [--sidecar FILE.json] FILE';

const stripExt = (p: string) => (extname(p) ? p.slice(0, -extname(p).length) : p);

/** The sidecar found beside a raw code file (`x.bin` → `x.json`, else `x.bin.json`), if any. */
export function sidecarPathFor(file: string): string | undefined {
  for (const c of [`${stripExt(file)}.json`, `${file}.json`]) if (c !== file && existsSync(c)) return c;
  return undefined;
}

function readSidecar(path: string): string {
  const b = readInput(path);
  if (b.length > MAX_SIDECAR_BYTES) throw new InputError(`${path}: sidecar is too large (${b.length} bytes; the limit is ${MAX_SIDECAR_BYTES})`);
  return new TextDecoder('utf-8', { fatal: false }).decode(b);
}

export interface ShaderInput {
  /** The code file that was read. */
  readonly file: string;
  /** The sidecar that was read, for raw shaders. */
  readonly sidecar?: string;
  readonly shaders: readonly Shader[];
}

/** Reads the shader(s) FILE names, applying --kernel and --sidecar. One-line InputError on bad input. */
export function readShaderInput(file: string, args: ParsedArgs): ShaderInput {
  let code = file;
  let sidecarPath = typeof args.options.get('sidecar') === 'string' ? (args.options.get('sidecar') as string) : undefined;
  if (!sidecarPath && extname(file) === '.json') {
    // `rdna inspect shader.json`: the code is the .bin beside it.
    sidecarPath = file;
    code = `${stripExt(file)}.bin`;
    if (!existsSync(code)) throw new InputError(`${file}: a sidecar names its code file by its own name: ${code} does not exist`);
  }
  const bytes = readInput(code);
  let sidecar: { text: string; where: string } | undefined;
  if (!isElf(bytes)) {
    sidecarPath ??= sidecarPathFor(code);
    if (sidecarPath) sidecar = { text: readSidecar(sidecarPath), where: sidecarPath };
  } else if (sidecarPath) {
    throw new UsageError(`--sidecar is for raw shaders; ${code} is a code object, which declares its own kernels`);
  }
  let shaders: Shader[];
  try {
    shaders = loadShaders({ bytes, name: basename(stripExt(code)), ...(sidecar ? { sidecar } : {}) });
  } catch (e) {
    if (e instanceof ElfError || e instanceof CodeObjectError) {
      // Sidecar messages already start with the sidecar's path.
      throw new InputError(sidecar && e.message.startsWith(sidecar.where) ? e.message : `${code}: ${e.message}`);
    }
    throw e;
  }
  const want = args.options.get('kernel');
  if (typeof want === 'string') {
    const picked = shaders.filter((s) => s.info.name === want);
    if (picked.length === 0) throw new InputError(`${code}: no kernel named '${want}' (it has ${shaders.map((s) => s.info.name).join(', ')})`);
    shaders = picked;
  }
  return { file: code, ...(sidecar ? { sidecar: sidecar.where } : {}), shaders };
}

/** The one shader a command that works on a single program needs. */
export function onlyShader(input: ShaderInput): Shader {
  const [first, ...more] = input.shaders;
  if (!first) throw new InputError(`${input.file}: no shader`);
  if (more.length) throw new UsageError(`${input.file} holds ${input.shaders.length} kernels (${input.shaders.map((s) => s.info.name).join(', ')}): pick one with --kernel NAME`);
  return first;
}
