// `rdna cfg` end to end: the built bin/rdna (scripts/test.sh builds dist/ first) on code objects
// assembled by llvm-mc-19, every --format; dot is checked by parsing its structure (no Graphviz
// binary here), svg by its root element and one <g class="node"> per block.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assembleKernels } from './harness/kernel.js';
import { parseDot } from './harness/dot.js';

const BIN = new URL('../bin/rdna', import.meta.url).pathname;

function rdna(...args: string[]) {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', timeout: 120_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const dir = mkdtempSync(join(tmpdir(), 'rdna-cli-cfg-'));
const LOOP = `s_mov_b32 s0, 0
.Lc_loop:
  s_add_u32 s0, s0, 1
  s_cmp_lt_u32 s0, 8
  s_cbranch_scc1 .Lc_loop
  s_endpgm`;
const obj = join(dir, 'two.o');
writeFileSync(obj, assembleKernels('gfx1030', [{ name: 'loop', body: LOOP }, { name: 'bad', body: 's_nop 0\ns_setpc_b64 s[2:3]' }]));

test('rdna cfg: text', () => {
  const r = rdna('cfg', '--kernel', 'loop', obj);
  assert.equal(r.status, 0, r.stderr);
  const lines = r.stdout.trimEnd().split('\n');
  assert.equal(lines[0], 'cfg loop (gfx1030, wave32): 3 blocks, 3 edges, 1 loop, 0 diagnostics');
  // The kernel starts at 0 in the ET_REL object; block 1 is the loop [0x4, 0x10).
  const i = lines.indexOf('block 1 [0x4, 0x10)');
  assert.deepEqual(lines.slice(i, i + 8), [
    'block 1 [0x4, 0x10)', '  preds: 0 (fallthrough), 1 (branch)', '  idom: 0', '  loop: header of loop 1, depth 1',
    '  0x4: s_add_u32 s0, s0, 1', '  0x8: s_cmp_lt_u32 s0, 8', '  0xc: s_cbranch_scc1 65533', '  succs: 1 (branch), 2 (fallthrough)',
  ]);
  assert.ok(lines.includes('loop 1: blocks 1; back edges 1 -> 1'));
});

test('rdna cfg: json and diagnostics', () => {
  const r = rdna('cfg', '--format', 'json', '--kernel', 'loop', obj);
  assert.equal(r.status, 0, r.stderr);
  const j = JSON.parse(r.stdout) as { name: string; blocks: { start: number; end: number; idom: number; succs: unknown[] }[]; loops: { header: number }[] };
  assert.equal(j.name, 'loop');
  assert.deepEqual(j.blocks.map((b) => [b.start, b.end, b.idom]), [[0, 4, -1], [4, 16, 0], [16, 20, 1]]);
  assert.deepEqual(j.loops.map((l) => l.header), [1]);
  const b = rdna('cfg', '--format=json', '--kernel', 'bad', obj);
  assert.equal(b.status, 0, b.stderr);
  const jb = JSON.parse(b.stdout) as { blocks: { exit: string | null }[]; diagnostics: { pc: number; code: string; severity: string; instruction: string; words: number[] }[] };
  assert.equal(jb.blocks[0]?.exit, 'unresolved-jump');
  const d = jb.diagnostics[0];
  assert.equal(d?.code, 'unresolved-jump');
  assert.equal(d?.severity, 'error');
  assert.equal(d?.instruction, 's_setpc_b64 s[2:3]');
  assert.deepEqual(d?.words, [0xbe802002]);
  // The second kernel is at 0x100 (.p2align 8); its s_setpc_b64 is the second instruction.
  assert.equal(d?.pc, 0x104);
});

test('rdna cfg: dot', () => {
  const r = rdna('cfg', '--format', 'dot', '--kernel', 'loop', obj);
  assert.equal(r.status, 0, r.stderr);
  const g = parseDot(r.stdout);
  assert.deepEqual(g.nodes, ['b0', 'b1', 'b2']);
  assert.deepEqual(g.edges, ['b0->b1', 'b1->b1', 'b1->b2']);
  assert.match(g.labels.get('b1') ?? '', /^block 1 \[0x4, 0x10\)\\lidom: 0 {3}loop: header of loop 1, depth 1\\l0x4: s_add_u32 s0, s0, 1\\l/);
});

test('rdna cfg: svg', () => {
  const r = rdna('cfg', '--format', 'svg', '--kernel', 'loop', obj);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /<svg[\s>]/);
  assert.equal((r.stdout.match(/<g id="node\d+" class="node">/g) ?? []).length, 3);
  assert.ok(r.stdout.trimEnd().endsWith('</svg>'));
});

test('rdna cfg: usage and input errors', () => {
  const many = rdna('cfg', obj);
  assert.equal(many.status, 2);
  assert.match(many.stderr, /^rdna cfg: .*pick one with --kernel NAME\n$/);
  const fmt = rdna('cfg', '--format', 'png', '--kernel', 'loop', obj);
  assert.equal(fmt.status, 2);
  assert.match(fmt.stderr, /--format must be one of text, dot, svg, json/);
  assert.equal(rdna('cfg').status, 2);
  const missing = rdna('cfg', join(dir, 'nope.o'));
  assert.equal(missing.status, 1);
  assert.equal(missing.stderr.split('\n').filter(Boolean).length, 1);
  const nok = rdna('cfg', '--kernel', 'zzz', obj);
  assert.equal(nok.status, 1);
  assert.match(nok.stderr, /no kernel named 'zzz'/);
});

