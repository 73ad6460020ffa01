// rdna validate FILE [--kernel K] [--sidecar F] [--json]: every finding about each shader's
// reachable code (src/analysis/validate.ts). Exit 0 when no finding is an error, 1 otherwise.
import { buildCfg } from '../analysis/cfg.js';
import type { Diagnostic } from '../analysis/types.js';
import { isOk, validate } from '../analysis/validate.js';
import { parseArgs } from './args.js';
import { UsageError } from './errors.js';
import { Output } from './output.js';
import { readShaderInput, SHADER_OPTIONS, SHADER_USAGE } from './shader-input.js';

export const VALIDATE_USAGE = `usage: rdna validate [--json] ${SHADER_USAGE}`;

const hexWord = (w: number) => (w >>> 0).toString(16).toUpperCase().padStart(8, '0');

/** The readable form: `pc: severity: message [code]`, then the instruction and its words. */
export function diagnosticLines(d: Diagnostic, prefix = ''): string[] {
  const head = `${prefix}0x${d.pc.toString(16)}: ${d.severity}: ${d.message} [${d.code}]`;
  if (!d.instruction && d.words.length === 0) return [head];
  return [head, `${prefix}    ${d.instruction}${d.words.length ? `  // ${d.words.map(hexWord).join(' ')}` : ''}`];
}

const plural = (n: number, w: string) => `${n} ${w}${n === 1 ? '' : 's'}`;

export function runValidate(argv: readonly string[]): number {
  const args = parseArgs(argv, SHADER_OPTIONS, ['json']);
  if (args.positional.length !== 1) throw new UsageError(args.positional.length ? 'validate takes one FILE' : 'validate needs a FILE');
  const input = readShaderInput(args.positional[0] ?? '', args);
  const results = input.shaders.map((s) => ({ name: s.info.name, diagnostics: validate(s, buildCfg(s)) }));
  const ok = results.every((r) => isOk(r.diagnostics));
  const out = new Output();
  if (args.options.get('json') === true) {
    const diagnostics = results.flatMap((r) => r.diagnostics.map((d) => ({
      kernel: r.name, pc: d.pc, instruction: d.instruction, words: d.words, code: d.code, severity: d.severity, message: d.message,
    })));
    out.line(JSON.stringify({ ok, diagnostics }));
  } else {
    const several = results.length > 1;
    for (const r of results) {
      const prefix = several ? `${r.name}: ` : '';
      for (const d of r.diagnostics) for (const l of diagnosticLines(d, prefix)) out.line(l);
      const count = (s: Diagnostic['severity']) => r.diagnostics.filter((d) => d.severity === s).length;
      out.line(`${r.name}: ${isOk(r.diagnostics) ? 'ok' : 'invalid'} (${plural(count('error'), 'error')}, ${plural(count('warning'), 'warning')}, ${plural(count('note'), 'note')})`);
    }
  }
  out.flush();
  return ok ? 0 : 1;
}
