// rdna mode FILE [--kernel K] [--sidecar F] [--profile P] [--json]: the MODE register data flow of
// one shader, printed per block beside the instructions that change or depend on MODE, and for each
// float instruction how the recompiler runs it on the profile (default lavapipe): native SPIR-V,
// guarded (the device's nearest-even op and its exact error term where no denormal or overflow can
// occur, integer code on the other lanes), emulated exactly in integer code, or dynamic (its MODE is known only at run time: one copy per
// possible MODE value behind a branch). A shader the recompiler cannot translate still gets its
// analysis, with the reason instead of the lowering.
import { buildCfg } from '../analysis/cfg.js';
import { analyzeMode } from '../analysis/mode.js';
import { type FloatOpLowering, recompile } from '../backend/recompile.js';
import { profileOf } from './compile.js';
import { formatModeAnalysis, modeAnalysisJson } from '../analysis/mode-print.js';
import { parseArgs } from './args.js';
import { UsageError } from './errors.js';
import { Output } from './output.js';
import { onlyShader, readShaderInput, SHADER_OPTIONS, SHADER_USAGE } from './shader-input.js';

export const MODE_USAGE = `usage: rdna mode [--profile lavapipe|nvidia|radv|portable|FILE.json] [--json] ${SHADER_USAGE}`;

export function runMode(argv: readonly string[]): number {
  const args = parseArgs(argv, ['profile', ...SHADER_OPTIONS], ['json']);
  if (args.positional.length !== 1) throw new UsageError(args.positional.length ? 'mode takes one FILE' : 'mode needs a FILE');
  const shader = onlyShader(readShaderInput(args.positional[0] ?? '', args));
  const cfg = buildCfg(shader);
  const a = analyzeMode(shader, cfg);
  const profile = profileOf(typeof args.options.get('profile') === 'string' ? (args.options.get('profile') as string) : 'lavapipe');
  let floatOps: readonly FloatOpLowering[] | undefined, notTranslated: string | undefined;
  try { floatOps = recompile(shader, { profile, analyses: { cfg, mode: a } }).floatOps; } catch (e) { notTranslated = e instanceof Error ? e.message : String(e); }
  const out = new Output();
  if (args.options.get('json') === true) {
    const lowering = floatOps ? { profile: profile.name, floatOps } : { profile: profile.name, error: notTranslated };
    out.line(JSON.stringify({ ...(modeAnalysisJson(shader, cfg, a) as object), lowering, cfgDiagnostics: cfg.diagnostics }));
  } else {
    for (const l of formatModeAnalysis(shader, cfg, a, floatOps && loweringByPc(floatOps, profile.name))) out.line(l);
    if (notTranslated !== undefined) out.line(`lowering on ${profile.name}: not available: ${notTranslated}`);
    for (const d of cfg.diagnostics) out.line(`cfg: 0x${d.pc.toString(16)} ${d.severity} ${d.code}: ${d.message} [${d.instruction}]`);
  }
  out.flush();
  return 0;
}

/** Per pc, the note `rdna mode` prints: how the instruction's float ops run on the profile. */
function loweringByPc(ops: readonly FloatOpLowering[], profile: string): Map<number, string> {
  const by = new Map<number, FloatOpLowering[]>();
  for (const o of ops) if (o.pc !== undefined) { const l = by.get(o.pc); if (l) l.push(o); else by.set(o.pc, [o]); }
  const out = new Map<number, string>();
  for (const [pc, list] of by) {
    const words = list.map((o) => (o.lowering === 'dynamic' ? `dynamic ${o.op} (${o.variants} copies, ${o.emulated} emulated${o.guarded ? `, ${o.guarded} guarded` : ''})` : `${o.lowering} ${o.op}`));
    out.set(pc, `${profile}: ${[...new Set(words)].join(', ')}`);
  }
  return out;
}
