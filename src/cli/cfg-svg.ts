// The CFG as a picture: a Graphviz dot graph (src/analysis/cfg-print.ts) laid out and drawn as SVG
// by Graphviz itself, compiled to WebAssembly (@viz-js/viz: runs offline, no native binary).
// Blocks are boxes in a monospace font (one line per instruction when the label ends its lines
// with `\l`); edges are arrows, styled as the dot text says (taken vs fallthrough).
import { instance, type Viz } from '@viz-js/viz';
import { InputError } from './errors.js';

/** Largest graph we lay out: dot's layout is superlinear, and a bigger picture is unreadable anyway. */
export const MAX_SVG_BLOCKS = 5000;
/** Edges allowed with MAX_SVG_BLOCKS blocks (a block has at most a few successors). */
export const MAX_SVG_EDGES = 4 * MAX_SVG_BLOCKS;
/** Largest dot text we read (characters). */
export const MAX_DOT_CHARS = 32 << 20;

/** Defaults the dot text may override: boxes, Courier (monospace, with metrics Graphviz knows), top to bottom. */
const NODE_DEFAULTS = { shape: 'box', fontname: 'Courier', fontsize: 11 } as const;
const EDGE_DEFAULTS = { fontname: 'Courier', fontsize: 10 } as const;

let vizPromise: Promise<Viz> | undefined;

function viz(): Promise<Viz> {
  vizPromise ??= instance();
  return vizPromise;
}

function errorText(errors: readonly { message: string; level?: string }[]): string {
  return errors.filter((e) => e.level !== 'warning').map((e) => e.message.trim()).join('; ') || 'Graphviz could not read the graph';
}

/**
 * Nodes and edges of a dot graph, counted by Graphviz's own parser (the `nop` engine reads the
 * graph without laying it out). Throws InputError when the text is not a dot graph.
 */
export async function countGraph(dot: string): Promise<{ nodes: number; edges: number }> {
  const v = await viz();
  const r = v.render(dot, { engine: 'nop', format: 'json0' });
  if (r.status !== 'success') throw new InputError(`cannot read the dot graph: ${errorText(r.errors)}`);
  let doc: { objects?: unknown[]; edges?: unknown[]; _subgraph_cnt?: number };
  try {
    doc = JSON.parse(r.output) as typeof doc;
  } catch {
    throw new InputError('cannot read the dot graph: Graphviz gave no graph back');
  }
  const objects = doc.objects?.length ?? 0;
  return { nodes: Math.max(0, objects - (doc._subgraph_cnt ?? 0)), edges: doc.edges?.length ?? 0 };
}

/**
 * Lays out a dot graph and returns it as an SVG document. Refuses (InputError) a graph of more
 * than MAX_SVG_BLOCKS nodes or MAX_SVG_EDGES edges, text over MAX_DOT_CHARS, and text Graphviz
 * cannot read, naming why.
 */
export async function renderSvg(dot: string): Promise<string> {
  if (dot.length > MAX_DOT_CHARS) throw new InputError(`the graph is too large to draw (${dot.length} characters of dot; the limit is ${MAX_DOT_CHARS})`);
  const { nodes, edges } = await countGraph(dot);
  if (nodes > MAX_SVG_BLOCKS) throw new InputError(`the graph has ${nodes} blocks; SVG output is limited to ${MAX_SVG_BLOCKS} (use the dot output instead)`);
  if (edges > MAX_SVG_EDGES) throw new InputError(`the graph has ${edges} edges; SVG output is limited to ${MAX_SVG_EDGES} (use the dot output instead)`);
  const v = await viz();
  const r = v.render(dot, { engine: 'dot', format: 'svg', nodeAttributes: { ...NODE_DEFAULTS }, edgeAttributes: { ...EDGE_DEFAULTS } });
  if (r.status !== 'success') throw new InputError(`cannot draw the graph: ${errorText(r.errors)}`);
  return r.output;
}
