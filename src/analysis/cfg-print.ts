// The CFG as text (for people and tests), Graphviz dot (for pictures) and JSON (for tools): each
// block with its pc range, its instructions in LLVM text, successors and predecessors with the
// edge kinds, its immediate dominator, the loops it belongs to, and how it exits; then the loops
// and the diagnostics. No Node APIs.
import type { Target } from '../isa/types.js';
import type { Instruction } from '../decode/types.js';
import type { BasicBlock, Cfg, Diagnostic, Edge } from './types.js';
import { printInstruction } from '../disasm/index.js';
import { hexPc } from './cfg.js';

/** What the printers say about the program besides the graph. */
export interface CfgHeader {
  readonly name: string;
  readonly target: Target;
  readonly waveSize: 32 | 64;
}

function text(inst: Instruction, target: Target): string {
  try {
    return printInstruction(inst, target);
  } catch {
    return inst.def.mnemonic;
  }
}

/** Loop facts of each block: the headers of the loops holding it, outermost first. */
export function loopChains(cfg: Cfg): number[][] {
  const n = cfg.blocks.length;
  const parent = new Map<number, number>();
  for (const l of cfg.loops) if (l.parent !== undefined) parent.set(l.header, l.parent);
  const innermost = new Array<number>(n).fill(-1);
  for (const l of [...cfg.loops].sort((a, b) => b.blocks.length - a.blocks.length)) {
    for (const b of l.blocks) if (b >= 0 && b < n) innermost[b] = l.header;
  }
  const chainOf = new Map<number, number[]>();
  const chain = (h: number): number[] => {
    const hit = chainOf.get(h);
    if (hit) return hit;
    const up: number[] = [];
    for (let x: number | undefined = h; x !== undefined && up.length <= cfg.loops.length; x = parent.get(x)) up.push(x);
    up.reverse();
    chainOf.set(h, up);
    return up;
  };
  return innermost.map((h) => (h < 0 ? [] : chain(h)));
}

const edgeList = (edges: readonly Edge[], end: 'from' | 'to'): string =>
  edges.length === 0 ? '-' : edges.map((e) => `${e[end]} (${e.kind})`).join(', ');

function loopText(b: BasicBlock, chain: readonly number[]): string {
  const inner = chain[chain.length - 1];
  if (inner === undefined) return 'none';
  const head = inner === b.id ? `header of loop ${inner}` : `in loop ${inner}`;
  const outer = chain.slice(0, -1);
  return `${head}, depth ${chain.length}${outer.length ? ` (inside ${outer.slice().reverse().map((h) => `loop ${h}`).join(', ')})` : ''}`;
}

function diagnosticText(d: Diagnostic): string {
  const where = d.instruction ? `  [${d.instruction}]` : '';
  const words = d.words.length ? `  // ${d.words.map((w) => (w >>> 0).toString(16).padStart(8, '0')).join(' ')}` : '';
  return `${hexPc(d.pc)}: ${d.severity} ${d.code}: ${d.message}${where}${words}`;
}

/**
 * Text form: a header line, then per block
 *   block ID [START, END)[ entry]
 *     preds: ID (kind), ...      idom: ID | -      loop: ...
 *     PC: TEXT
 *     succs: ID (kind), ...      [exit: EXIT]
 * then `loop HEADER: blocks ..., back edges ..., parent ...` lines and the diagnostics.
 */
export function cfgText(cfg: Cfg, h: CfgHeader): string[] {
  const edges = cfg.blocks.reduce((n, b) => n + b.succs.length, 0);
  const out: string[] = [`cfg ${h.name} (${h.target}, wave${h.waveSize}): ${cfg.blocks.length} block${cfg.blocks.length === 1 ? '' : 's'}, ${edges} edge${edges === 1 ? '' : 's'}, ${cfg.loops.length} loop${cfg.loops.length === 1 ? '' : 's'}, ${cfg.diagnostics.length} diagnostic${cfg.diagnostics.length === 1 ? '' : 's'}`];
  const chains = loopChains(cfg);
  for (const b of cfg.blocks) {
    out.push('');
    out.push(`block ${b.id} [${hexPc(b.start)}, ${hexPc(b.end)})${b.id === cfg.entry ? ' entry' : ''}`);
    const idom = cfg.idom[b.id] ?? -1;
    out.push(`  preds: ${edgeList(b.preds, 'from')}`);
    out.push(`  idom: ${idom < 0 ? '-' : idom}`);
    out.push(`  loop: ${loopText(b, chains[b.id] ?? [])}`);
    for (const i of b.instructions) out.push(`  ${hexPc(i.pc)}: ${text(i, h.target)}`);
    out.push(`  succs: ${edgeList(b.succs, 'to')}`);
    if (b.exit !== undefined) out.push(`  exit: ${b.exit}`);
  }
  if (cfg.loops.length) {
    out.push('');
    for (const l of cfg.loops) {
      out.push(`loop ${l.header}: blocks ${l.blocks.join(', ')}; back edges ${l.backEdges.map((e) => `${e.from} -> ${e.to}`).join(', ')}${l.parent !== undefined ? `; parent loop ${l.parent}` : ''}`);
    }
  }
  if (cfg.diagnostics.length) {
    out.push('');
    out.push('diagnostics:');
    for (const d of cfg.diagnostics) out.push('  ' + diagnosticText(d));
  }
  return out;
}

/** JSON form (one object; pcs as numbers, words as unsigned dwords). */
export function cfgJson(cfg: Cfg, h: CfgHeader): unknown {
  const chains = loopChains(cfg);
  return {
    name: h.name,
    target: h.target,
    waveSize: h.waveSize,
    entry: cfg.entry,
    rpo: cfg.rpo,
    blocks: cfg.blocks.map((b) => ({
      id: b.id,
      start: b.start,
      end: b.end,
      instructions: b.instructions.map((i) => ({ pc: i.pc, text: text(i, h.target), words: i.words.map((w) => w >>> 0) })),
      succs: b.succs.map((e) => ({ to: e.to, kind: e.kind })),
      preds: b.preds.map((e) => ({ from: e.from, kind: e.kind })),
      idom: cfg.idom[b.id] ?? -1,
      loops: chains[b.id] ?? [],
      exit: b.exit ?? null,
    })),
    loops: cfg.loops.map((l) => ({
      header: l.header,
      blocks: l.blocks,
      backEdges: l.backEdges.map((e) => ({ from: e.from, to: e.to, kind: e.kind })),
      parent: l.parent ?? null,
    })),
    invalid: cfg.invalid.map((w) => ({ pc: w.pc, words: [w.words[0] >>> 0], reason: w.reason, truncated: w.truncated === true })),
    diagnostics: cfg.diagnostics.map((d) => ({ pc: d.pc, severity: d.severity, code: d.code, message: d.message, instruction: d.instruction, words: d.words.map((w) => w >>> 0) })),
  };
}

/** A dot double-quoted string's contents. */
function dotEscape(s: string): string {
  return s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, ' ');
}

/**
 * Graphviz dot form: one box per block (`b<ID>`), its label the block's header line, idom and loop
 * lines and instructions, left-justified (`\l`); edges `bA -> bB` labelled by kind: taken
 * branches solid, fallthroughs dashed, calls bold, back edges coloured; exits as a last label line.
 */
export function cfgDot(cfg: Cfg, h: CfgHeader): string {
  const chains = loopChains(cfg);
  const back = new Set<string>();
  for (const l of cfg.loops) for (const e of l.backEdges) back.add(`${e.from}>${e.to}`);
  const out: string[] = [`digraph "${dotEscape(`cfg ${h.name}`)}" {`, '  node [shape=box, fontname="Courier"];', '  edge [fontname="Courier"];'];
  for (const b of cfg.blocks) {
    const idom = cfg.idom[b.id] ?? -1;
    const lines = [
      `block ${b.id} [${hexPc(b.start)}, ${hexPc(b.end)})${b.id === cfg.entry ? ' entry' : ''}`,
      `idom: ${idom < 0 ? '-' : idom}   loop: ${loopText(b, chains[b.id] ?? [])}`,
      ...b.instructions.map((i) => `${hexPc(i.pc)}: ${text(i, h.target)}`),
      ...(b.exit !== undefined ? [`exit: ${b.exit}`] : []),
    ];
    const label = lines.map((l) => dotEscape(l) + '\\l').join('');
    out.push(`  b${b.id} [label="${label}"${b.id === cfg.entry ? ', penwidth=2' : ''}];`);
  }
  for (const b of cfg.blocks) {
    for (const e of b.succs) {
      const attrs = [`label="${e.kind}"`];
      if (e.kind === 'fallthrough') attrs.push('style=dashed');
      if (e.kind === 'call') attrs.push('style=bold');
      if (back.has(`${e.from}>${e.to}`)) attrs.push('color=blue');
      out.push(`  b${e.from} -> b${e.to} [${attrs.join(', ')}];`);
    }
  }
  out.push('}');
  return out.join('\n') + '\n';
}
