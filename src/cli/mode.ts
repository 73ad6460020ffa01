// rdna mode FILE [--kernel K] [--sidecar F] [--json]: the MODE register data flow of one shader,
// printed per block beside the instructions that change or depend on MODE.
import { buildCfg } from '../analysis/cfg.js';
import { analyzeMode } from '../analysis/mode.js';
import { formatModeAnalysis, modeAnalysisJson } from '../analysis/mode-print.js';
import { parseArgs } from './args.js';
import { UsageError } from './errors.js';
import { Output } from './output.js';
import { onlyShader, readShaderInput, SHADER_OPTIONS, SHADER_USAGE } from './shader-input.js';

export const MODE_USAGE = `usage: rdna mode [--json] ${SHADER_USAGE}`;

export function runMode(argv: readonly string[]): number {
  const args = parseArgs(argv, SHADER_OPTIONS, ['json']);
  if (args.positional.length !== 1) throw new UsageError(args.positional.length ? 'mode takes one FILE' : 'mode needs a FILE');
  const shader = onlyShader(readShaderInput(args.positional[0] ?? '', args));
  const cfg = buildCfg(shader);
  const a = analyzeMode(shader, cfg);
  const out = new Output();
  if (args.options.get('json') === true) {
    out.line(JSON.stringify({ ...(modeAnalysisJson(shader, cfg, a) as object), cfgDiagnostics: cfg.diagnostics }));
  } else {
    for (const l of formatModeAnalysis(shader, cfg, a)) out.line(l);
    for (const d of cfg.diagnostics) out.line(`cfg: 0x${d.pc.toString(16)} ${d.severity} ${d.code}: ${d.message} [${d.instruction}]`);
  }
  out.flush();
  return 0;
}
