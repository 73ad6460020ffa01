// rdna coverage [--target T] [--json]: which opcodes of the ISA table the recompiler's frontend
// translates, per target (every target without --target) and per encoding family, read from the
// frontend's own registry (isTranslated), with the ones it does not translate by name.
import { isTranslated } from '../frontend/index.js';
import { ISA_TABLE, hasTarget } from '../isa/table.js';
import { FAMILIES, TARGETS, type Family, type Target } from '../isa/types.js';
import { oneOf, parseArgs } from './args.js';
import { UsageError } from './errors.js';
import { Output } from './output.js';

export const COVERAGE_USAGE = `usage: rdna coverage [--target ${TARGETS.join('|')}] [--json]`;

export interface FamilyCoverage { readonly family: Family; readonly translated: number; readonly total: number; readonly missing: readonly string[] }
export interface TargetCoverage { readonly target: Target; readonly translated: number; readonly total: number; readonly families: readonly FamilyCoverage[] }

/** The coverage of one target: every table opcode it has, by family (families it has none of are left out). */
export function coverage(target: Target): TargetCoverage {
  const families: FamilyCoverage[] = [];
  for (const family of FAMILIES) {
    const defs = ISA_TABLE.filter((d) => d.family === family && hasTarget(d, target));
    if (defs.length === 0) continue;
    const missing = defs.filter((d) => !isTranslated(d.mnemonic)).map((d) => d.mnemonic);
    families.push({ family, translated: defs.length - missing.length, total: defs.length, missing });
  }
  const sum = (k: 'translated' | 'total') => families.reduce((n, f) => n + f[k], 0);
  return { target, translated: sum('translated'), total: sum('total'), families };
}

export function runCoverage(argv: readonly string[]): number {
  const args = parseArgs(argv, ['target'], ['json']);
  if (args.positional.length !== 0) throw new UsageError('coverage takes no FILE');
  const t = args.options.get('target');
  const targets: readonly Target[] = typeof t === 'string' ? [oneOf(t, TARGETS, '--target')] : TARGETS;
  const report = targets.map(coverage);
  const out = new Output();
  if (args.options.get('json') === true) out.line(JSON.stringify({ targets: report }));
  else {
    for (const r of report) {
      out.line(`${r.target}: ${r.translated} of ${r.total} table opcodes translate`);
      for (const f of r.families) out.line(`  ${f.family.padEnd(8)} ${String(f.translated).padStart(4)} / ${String(f.total).padEnd(4)}${f.missing.length ? `  not translated: ${f.missing.join(' ')}` : ''}`);
    }
    out.line('(a translated opcode may still refuse some forms with the instruction: DPP/SDWA/op_sel, clamp/omod the interpreter does not model, lds=1)');
  }
  out.flush();
  return 0;
}
