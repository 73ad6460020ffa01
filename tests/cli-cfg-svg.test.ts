// renderSvg (src/cli/cfg-svg.ts): Graphviz (WebAssembly) lays the dot graph out as SVG. Checked
// structurally, with no rasterising: the SVG is well-formed XML-ish markup, with one node group per
// block holding each instruction as its own monospace text line, and one edge group (an arrow)
// per edge, fallthrough edges dashed; the size bound and bad dot are one-line InputErrors.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderSvg, countGraph, MAX_SVG_BLOCKS } from '../src/cli/cfg-svg.js';
import { InputError } from '../src/cli/errors.js';
import { buildCfg } from '../src/analysis/cfg.js';
import { cfgDot } from '../src/analysis/cfg-print.js';
import { printInstruction } from '../src/disasm/index.js';
import { assembleShaders } from './harness/kernel.js';

const unescape = (s: string) => s.replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n)))
  .replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&amp;/g, '&');

/** Tags balance (a small XML well-formedness check); returns the root element's name. */
function checkXml(svg: string): string {
  const body = svg.replace(/<\?xml[^>]*\?>/g, '').replace(/<!DOCTYPE[^>]*>/g, '').replace(/<!--[\s\S]*?-->/g, '');
  const stack: string[] = [];
  let root = '';
  for (const m of body.matchAll(/<(\/?)([A-Za-z][\w:.-]*)((?:\s+[\w:.-]+\s*=\s*"[^"]*")*)\s*(\/?)>/g)) {
    const [, close, name = '', , self] = m;
    if (close) assert.equal(stack.pop(), name, `</${name}> closes the wrong element`);
    else if (!self) { if (stack.length === 0) root ||= name; stack.push(name); }
  }
  assert.deepEqual(stack, [], 'unclosed elements');
  // Nothing that looks like a tag is left unmatched.
  assert.equal(body.replace(/<(\/?)([A-Za-z][\w:.-]*)((?:\s+[\w:.-]+\s*=\s*"[^"]*")*)\s*(\/?)>/g, '').includes('<'), false);
  return root;
}

interface Group { cls: string; title: string; texts: string[]; body: string }
function groups(svg: string): Group[] {
  const out: Group[] = [];
  for (const m of svg.matchAll(/<g id="[^"]*" class="(node|edge)">([\s\S]*?)<\/g>/g)) {
    const body = m[2] ?? '';
    out.push({ cls: m[1] ?? '', title: unescape(/<title>([\s\S]*?)<\/title>/.exec(body)?.[1] ?? ''), texts: [...body.matchAll(/<text[^>]*>([\s\S]*?)<\/text>/g)].map((t) => unescape(t[1] ?? '')), body });
  }
  return out;
}

test('a small graph: one box per block with one text line per instruction, arrows, fallthrough dashed', async () => {
  const dot = [
    'digraph "g" {',
    '  b0 [label="block 0\\ls_cmp_eq_u32 s0, 0\\ls_cbranch_scc1 1\\l"];',
    '  b1 [label="block 1\\lv_mov_b32_e32 v0, 1.0\\l"];',
    '  b2 [label="block 2\\ls_endpgm\\l"];',
    '  b0 -> b2 [label="branch"];',
    '  b0 -> b1 [label="fallthrough", style=dashed];',
    '  b1 -> b2 [label="fallthrough", style=dashed];',
    '}',
  ].join('\n');
  const svg = await renderSvg(dot);
  assert.equal(checkXml(svg), 'svg');
  const gs = groups(svg);
  const nodes = gs.filter((g) => g.cls === 'node');
  assert.deepEqual(nodes.map((n) => n.title), ['b0', 'b1', 'b2']);
  assert.deepEqual(nodes[0]?.texts, ['block 0', 's_cmp_eq_u32 s0, 0', 's_cbranch_scc1 1']);
  assert.deepEqual(nodes[1]?.texts, ['block 1', 'v_mov_b32_e32 v0, 1.0']);
  for (const n of nodes) {
    assert.match(n.body, /<polygon [^>]*stroke="black"/, 'a box');
    for (const t of n.body.matchAll(/<text [^>]*>/g)) assert.match(t[0], /font-family="Courier,monospace"/);
    for (const t of n.body.matchAll(/<text [^>]*>/g)) assert.match(t[0], /text-anchor="start"/);
  }
  const edges = gs.filter((g) => g.cls === 'edge');
  assert.deepEqual(edges.map((e) => e.title).sort(), ['b0->b1', 'b0->b2', 'b1->b2']);
  for (const e of edges) {
    assert.match(e.body, /<path [^>]*d="M/, 'a line');
    assert.match(e.body, /<polygon /, 'an arrow head');
  }
  const dashed = (t: string) => /stroke-dasharray/.test(edges.find((e) => e.title === t)?.body ?? '');
  assert.equal(dashed('b0->b2'), false);
  assert.equal(dashed('b0->b1'), true);
  assert.equal(dashed('b1->b2'), true);
});

test('the CFG printer\'s dot of an assembled program draws every block with its instructions', async () => {
  const s = assembleShaders('gfx1030', [{ name: 'loop', body: [
    's_mov_b32 s0, 4', '.Lloop:', 'v_add_nc_u32_e32 v0, 1, v0', 's_sub_u32 s0, s0, 1', 's_cmp_lg_u32 s0, 0', 's_cbranch_scc1 .Lloop',
    's_cmp_eq_u32 s1, 0', 's_cbranch_scc0 .Lskip', 'v_mov_b32_e32 v1, v0', '.Lskip:', 's_endpgm'].join('\n') }]).get('loop');
  assert.ok(s);
  const cfg = buildCfg(s);
  assert.ok(cfg.blocks.length >= 4);
  const svg = await renderSvg(cfgDot(cfg, { name: 'loop', target: 'gfx1030', waveSize: 32 }));
  assert.equal(checkXml(svg), 'svg');
  const gs = groups(svg);
  const nodes = gs.filter((g) => g.cls === 'node');
  assert.equal(nodes.length, cfg.blocks.length);
  for (const b of cfg.blocks) {
    const n = nodes.find((g) => g.title === `b${b.id}`);
    assert.ok(n, `block ${b.id}`);
    for (const inst of b.instructions) {
      const want = printInstruction(inst, 'gfx1030');
      assert.ok(n.texts.some((t) => t.endsWith(want)), `block ${b.id} shows ${want}: ${n.texts.join(' | ')}`);
    }
  }
  const edgeCount = cfg.blocks.reduce((k, b) => k + b.succs.length, 0);
  assert.equal(gs.filter((g) => g.cls === 'edge').length, edgeCount);
});

test('graphs above the bound and text that is not dot are refused with one-line InputErrors', async () => {
  const big = ['digraph g {', ...Array.from({ length: MAX_SVG_BLOCKS + 1 }, (_, i) => `  b${i};`), '}'].join('\n');
  assert.deepEqual(await countGraph(big), { nodes: MAX_SVG_BLOCKS + 1, edges: 0 });
  await assert.rejects(renderSvg(big), (e: unknown) => e instanceof InputError && /5001 blocks; SVG output is limited to 5000/.test(e.message) && !e.message.includes('\n'));
  await assert.rejects(renderSvg('digraph { a -> }'), (e: unknown) => e instanceof InputError && /cannot read the dot graph: .*syntax error/.test(e.message));
  await assert.rejects(renderSvg('not a graph'), InputError);
  // At the bound itself the graph is counted, not refused (counting only: laying out 5000 boxes is slow).
  const atBound = ['digraph g {', ...Array.from({ length: MAX_SVG_BLOCKS }, (_, i) => `  b${i} -> b${i + 1};`).slice(0, MAX_SVG_BLOCKS - 1), '}'].join('\n');
  assert.deepEqual(await countGraph(atBound), { nodes: MAX_SVG_BLOCKS, edges: MAX_SVG_BLOCKS - 1 });
});
