// A strict reader of the Graphviz dot subset that src/analysis/cfg-print.ts writes (tests only).
import assert from 'node:assert/strict';

/** A strict reader of the dot subset cfgDot writes: digraph, attribute statements, nodes, edges. */
export function parseDot(dot: string): { nodes: string[]; edges: string[]; labels: Map<string, string> } {
  const lines = dot.trimEnd().split('\n');
  assert.match(lines[0] ?? '', /^digraph "(?:[^"\\]|\\.)*" \{$/);
  assert.equal(lines[lines.length - 1], '}');
  const nodes: string[] = [];
  const edges: string[] = [];
  const labels = new Map<string, string>();
  const attrs = String.raw`\[(?:[a-z]+=(?:"(?:[^"\\]|\\.)*"|[A-Za-z0-9.]+)(?:, )?)*\];`;
  for (const l of lines.slice(1, -1)) {
    let m: RegExpMatchArray | null;
    if (new RegExp(String.raw`^  (node|edge) ${attrs}$`).test(l)) continue;
    if ((m = l.match(new RegExp(String.raw`^  (b\d+) -> (b\d+) ${attrs}$`)))) { edges.push(`${m[1]}->${m[2]}`); continue; }
    if ((m = l.match(new RegExp(String.raw`^  (b\d+) ${attrs}$`)))) {
      nodes.push(m[1] as string);
      labels.set(m[1] as string, /label="((?:[^"\\]|\\.)*)"/.exec(l)?.[1] ?? '');
      continue;
    }
    assert.fail(`not a dot statement: ${l}`);
  }
  for (const e of edges) for (const n of e.split('->')) assert.ok(nodes.includes(n), `edge to undeclared node ${n}`);
  return { nodes, edges: edges.sort(), labels };
}
