// rdna compile FILE [--kernel K] -o OUT [--emit spirv|spirv-asm|ir] [--profile lavapipe] [--work-items N] [--json] [--cache DIR | --no-cache]
// Recompiles one kernel to a Vulkan SPIR-V compute module (or its text as spirv-dis prints it, or its IR),
// through the shader cache (src/cache): a hit writes the same bytes a recompile would.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { parseProfile, PROFILES, type TargetProfile } from '../backend/profile.js';
import { disassembleSpirv } from '../backend/spirv/disasm.js';
import { maxWorkItems } from '../backend/recompile.js';
import { CompileError } from '../backend/spirv/emit.js';
import { TranslateError } from '../frontend/errors.js';
import { CachedRefusal, compileCached } from '../cache/compile.js';
import { oneOf, parseArgs } from './args.js';
import { CACHE_FLAGS, CACHE_USAGE, CACHE_VALUED, cacheChoice, openCache, warnOnce } from './cache-options.js';
import { InputError, UsageError } from './errors.js';
import { Output } from './output.js';
import { onlyShader, readShaderInput, SHADER_OPTIONS, SHADER_USAGE } from './shader-input.js';

export const COMPILE_USAGE = `usage: rdna compile -o OUT [--emit spirv|spirv-asm|ir] [--profile lavapipe|nvidia|radv|portable|FILE.json] [--work-items N] [--json] ${CACHE_USAGE} ${SHADER_USAGE}`;

/** A --profile argument: a named profile or a profile FILE.json. */
export function profileOf(arg: string): TargetProfile {
  const named = PROFILES[arg];
  if (named) return named;
  if (!arg.endsWith('.json') || !existsSync(arg)) throw new UsageError(`--profile must be one of ${Object.keys(PROFILES).join(', ')} or a profile FILE.json (got '${arg}')`);
  try { return parseProfile(readFileSync(arg, 'utf8'), arg); } catch (e) { throw new InputError(e instanceof Error ? e.message : String(e)); }
}

/** `--work-items N`: a positive integer, or undefined when the option is left out. */
export function workItemsOption(v: string | boolean | undefined): number | undefined {
  const n = typeof v === 'string' ? Number(v) : undefined;
  if (n !== undefined && (!Number.isSafeInteger(n) || n < 1)) throw new UsageError('--work-items must be a positive integer');
  return n;
}

export function runCompile(argv: readonly string[]): number {
  // -o is the one short option (as compilers spell it); --output is the same.
  const args = parseArgs(argv.map((a) => (a === '-o' ? '--output' : a)), ['output', 'emit', 'profile', 'work-items', ...CACHE_VALUED, ...SHADER_OPTIONS], ['json', ...CACHE_FLAGS]);
  if (args.positional.length !== 1) throw new UsageError(args.positional.length ? 'compile takes one FILE' : 'compile needs a FILE');
  const emit = oneOf(typeof args.options.get('emit') === 'string' ? (args.options.get('emit') as string) : 'spirv', ['spirv', 'spirv-asm', 'ir'] as const, '--emit');
  const profile = profileOf(typeof args.options.get('profile') === 'string' ? (args.options.get('profile') as string) : 'lavapipe');
  const outPath = args.options.get('output');
  if (typeof outPath !== 'string') throw new UsageError('compile needs -o OUT (use -o - for standard output with --emit spirv-asm or ir)');
  const workItems = workItemsOption(args.options.get('work-items'));
  const choice = cacheChoice(args);
  const shader = onlyShader(readShaderInput(args.positional[0] ?? '', args));
  const cache = openCache(choice, warnOnce('compile'));
  let r, status;
  try {
    ({ compiled: r, cache: status } = compileCached(shader, profile, cache, undefined, workItems));
  } catch (e) {
    if (e instanceof TranslateError || e instanceof CompileError || e instanceof CachedRefusal) throw new InputError(`${shader.info.name}: ${e.message}`);
    throw e;
  } finally {
    cache?.close();
  }
  const out = new Output();
  if (emit === 'ir') {
    const text = r.ir;
    if (outPath === '-') out.line(text.trimEnd()); else writeFileSync(outPath, text);
  } else if (emit === 'spirv-asm') {
    // spirv-dis's text (src/backend/spirv/disasm.ts); UTF-8, as literal strings may hold any character.
    const text = disassembleSpirv(r.spirv);
    if (outPath === '-') out.bytes(Buffer.from(text, 'utf8')); else writeFileSync(outPath, text);
  } else {
    if (outPath === '-') throw new UsageError('SPIR-V is binary: give -o FILE.spv');
    writeFileSync(outPath, new Uint8Array(r.spirv.buffer, r.spirv.byteOffset, r.spirv.byteLength));
  }
  if (args.options.get('json') === true) {
    // What a host needs to run the module (docs/MODULE_ABI.md): how it is dispatched, the largest
    // workgroup it takes, the lane exchange's pipeline options, and the fault word's sites.
    out.line(JSON.stringify({
      output: outPath, kernel: shader.info.name, emit, profile: profile.name, words: r.spirv.length, diagnostics: r.diagnostics, floatOps: r.floatOps,
      dispatch: r.dispatch, workItems: workItems ?? maxWorkItems(shader.info), waveSize: shader.info.waveSize, laneExchange: r.laneExchange, controlFlow: r.controlFlow, faults: r.faults, ...(r.codeImage ? { codeImage: r.codeImage } : {}), cache: status,
    }));
  }
  out.flush();
  return 0;
}
