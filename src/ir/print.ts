// The stable text form of IR functions (what golden tests compare): blocks in order, one
// instruction a line, `%id = Op type args imms [mode] ; pc`, ids renumbered densely in print
// order so that unrelated changes do not churn the text.
import type { FloatMode, Inst, IrFunction } from './ir.js';
import { CLOCKS, opInfo, type Op } from './ops.js';

const fmtImm = (op: Op, v: number | bigint, k: number): string => {
  if (op === 'Branch' || (op === 'BranchCond' && k >= 0)) return `b${v}`;
  if (typeof v === 'bigint') return `0x${v.toString(16)}`;
  if (op === 'ReadClock') return CLOCKS[Number(v)] ?? String(v);
  return op.startsWith('Const') && v > 9 ? `0x${v.toString(16)}` : String(v);
};

const fmtMode = (m: FloatMode): string =>
  `[round=${m.round} denorm=${m.denorm} ieee=${m.ieee === 'dynamic' ? 'dynamic' : m.ieee ? 1 : 0} dx10=${m.dx10Clamp === 'dynamic' ? 'dynamic' : m.dx10Clamp ? 1 : 0}${m.f16Ovfl ? ` f16ovfl=${m.f16Ovfl === 'dynamic' ? 'dynamic' : 1}` : ''}${m.tininess ? ` tininess=${m.tininess}` : ''}${m.floatToInt ? ` toint=${m.floatToInt}` : ''}]`;

/** The function, then its helpers (`helper k name`), each numbered on its own. */
export function printFunction(fn: IrFunction): string {
  return [fn, ...fn.helpers].map((f, k) => printOne(f, k === 0 ? `function ${f.name} (wave${f.waveSize})` : `helper ${k - 1} ${f.name}`)).join('');
}

function printOne(fn: IrFunction, title: string): string {
  const names = new Map<Inst, string>();
  let n = 0;
  for (const b of fn.blocks) for (const i of b.insts) if (i.type !== 'void') names.set(i, `%${n++}`);
  const lines = [title];
  for (const b of fn.blocks) {
    lines.push(`b${b.id}:${b.preds.length ? ` ; preds ${b.preds.map((p) => `b${p.id}`).join(' ')}` : ''}`);
    for (const i of b.insts) {
      const lhs = i.type === 'void' ? '' : `${names.get(i) ?? '%?'} = `;
      const args = i.args.map((a) => names.get(a) ?? `%?${a.id}`);
      const imms = i.imms.map((v, k) => fmtImm(i.op, v, k));
      const ops = [...(i.op === 'BranchCond' ? [args[0] ?? ''] : args), ...imms].filter((x) => x !== '');
      const ty = i.type === 'void' ? '' : ` ${i.type}`;
      const mode = i.float && opInfo(i.op).float ? ` ${fmtMode(i.float)}` : '';
      const pc = i.pc !== undefined ? ` ; 0x${i.pc.toString(16)}` : '';
      lines.push(`  ${lhs}${i.op}${ty}${ops.length ? ' ' + ops.join(', ') : ''}${mode}${pc}`);
    }
  }
  return lines.join('\n') + '\n';
}
