// rdna cfg FILE [--kernel K] [--sidecar F] [--format text|dot|svg|json]: the control-flow graph of
// one shader (blocks, edges, dominators, loops, diagnostics). Diagnostics are part of the output,
// not errors: the exit status is 0 whenever the input could be read.
import { buildCfg } from '../analysis/cfg.js';
import { cfgDot, cfgJson, cfgText, type CfgHeader } from '../analysis/cfg-print.js';
import { oneOf, parseArgs } from './args.js';
import { renderSvg } from './cfg-svg.js';
import { UsageError } from './errors.js';
import { Output } from './output.js';
import { onlyShader, readShaderInput, SHADER_OPTIONS, SHADER_USAGE } from './shader-input.js';

export const CFG_FORMATS = ['text', 'dot', 'svg', 'json'] as const;
export const CFG_USAGE = `usage: rdna cfg [--format ${CFG_FORMATS.join('|')}] ${SHADER_USAGE}`;

export async function runCfg(argv: readonly string[]): Promise<number> {
  const args = parseArgs(argv, [...SHADER_OPTIONS, 'format']);
  if (args.positional.length !== 1) throw new UsageError(`${args.positional.length ? 'cfg takes one FILE' : 'cfg needs a FILE'}\n${CFG_USAGE}`);
  const f = args.options.get('format');
  const format = typeof f === 'string' ? oneOf(f, CFG_FORMATS, '--format') : 'text';
  const shader = onlyShader(readShaderInput(args.positional[0] ?? '', args));
  const cfg = buildCfg(shader);
  const h: CfgHeader = { name: shader.info.name, target: shader.info.target, waveSize: shader.info.waveSize };
  const out = new Output();
  switch (format) {
    case 'text': for (const l of cfgText(cfg, h)) out.line(l); break;
    case 'json': out.line(JSON.stringify(cfgJson(cfg, h))); break;
    case 'dot': out.line(cfgDot(cfg, h).trimEnd()); break;
    case 'svg': out.line((await renderSvg(cfgDot(cfg, h))).trimEnd()); break;
  }
  out.flush();
  return 0;
}
