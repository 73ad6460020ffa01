// The CFG (src/analysis/cfg.ts, dominators.ts, loops.ts, cfg-print.ts) on programs assembled by
// llvm-mc-19. Expected blocks, edges, dominators and loops are written by hand from the program
// text (instruction sizes: SOP/SOPP/VOP2 e32 4 bytes, +4 for a literal, VOP3 8 bytes); pcs below
// are relative to the kernel's first instruction. The property test builds a random graph first,
// emits it as assembly, and checks the CFG block for block against the graph it built.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { assembleShaders, type KernelSpec } from '../harness/kernel.js';
import { buildCfg } from '../../src/analysis/cfg.js';
import { cfgDot, cfgJson, cfgText } from '../../src/analysis/cfg-print.js';
import { computeDominators, dominatorsOf, reversePostorder, reversePostorderOf } from '../../src/analysis/dominators.js';
import type { Cfg } from '../../src/analysis/types.js';
import type { Shader } from '../../src/container/shader.js';
import type { Target } from '../../src/isa/types.js';
import { parseDot } from '../harness/dot.js';

const hex = (n: number) => '0x' + n.toString(16);

/** One line per block: `ID START-END succ:kind,... idom=D exit=E` (pcs relative to the kernel start). */
function shape(cfg: Cfg, base: number): string[] {
  return cfg.blocks.map((b) => {
    const s = b.succs.map((e) => `${e.to}:${e.kind}`).join(',');
    const idom = cfg.idom[b.id] ?? -1;
    return `${b.id} ${hex(b.start - base)}-${hex(b.end - base)} [${s}] idom=${idom < 0 ? '-' : idom}${b.exit ? ` exit=${b.exit}` : ''}`;
  });
}

const loopsOf = (cfg: Cfg) => cfg.loops.map((l) => `${l.header}:{${l.blocks.join(',')}} back=${l.backEdges.map((e) => `${e.from}>${e.to}`).join(',')}${l.parent !== undefined ? ` parent=${l.parent}` : ''}`);
const codes = (cfg: Cfg, base: number) => cfg.diagnostics.map((d) => `${hex(d.pc - base)} ${d.severity} ${d.code}`);

function checkInvariants(cfg: Cfg): void {
  // preds mirror succs; every block id is in range; rpo is a permutation of all blocks.
  const n = cfg.blocks.length;
  for (const b of cfg.blocks) {
    for (const e of b.succs) {
      assert.equal(e.from, b.id);
      assert.ok(e.to >= 0 && e.to < n);
      assert.ok(cfg.blocks[e.to]?.preds.includes(e), `pred of ${e.to} missing`);
    }
    for (const e of b.preds) assert.ok(cfg.blocks[e.from]?.succs.includes(e));
    const ft = b.succs.findIndex((e) => e.kind === 'fallthrough');
    if (ft >= 0) assert.equal(ft, b.succs.length - 1, 'fallthrough is the last successor');
  }
  assert.deepEqual([...cfg.rpo].sort((a, b) => a - b), cfg.blocks.map((b) => b.id));
  assert.equal(cfg.rpo[0], 0);
  assert.equal(cfg.entry, 0);
}

// --- hand-written programs ------------------------------------------------------------------

interface Case {
  readonly name: string;
  readonly body: string;
  readonly blocks: readonly string[];
  readonly loops?: readonly string[];
  readonly diags?: readonly string[];
}

const CASES: readonly Case[] = [
  { name: 'straight', body: 's_mov_b32 s0, 0\ns_endpgm', blocks: ['0 0x0-0x8 [] idom=- exit=endpgm'] },
  {
    name: 'diamond',
    body: `s_cmp_eq_u32 s0, 0
      s_cbranch_scc1 .Ldia_else
      s_mov_b32 s1, 1
      s_branch .Ldia_end
    .Ldia_else:
      s_mov_b32 s1, 2
    .Ldia_end:
      s_endpgm`,
    blocks: ['0 0x0-0x8 [2:branch,1:fallthrough] idom=-', '1 0x8-0x10 [3:branch] idom=0', '2 0x10-0x14 [3:fallthrough] idom=0', '3 0x14-0x18 [] idom=0 exit=endpgm'],
  },
  {
    name: 'nested_loops',
    body: `s_mov_b32 s0, 0
    .Lnl_outer:
      s_mov_b32 s1, 0
    .Lnl_inner:
      s_add_u32 s1, s1, 1
      s_cmp_lt_u32 s1, 4
      s_cbranch_scc1 .Lnl_inner
      s_add_u32 s0, s0, 1
      s_cmp_lt_u32 s0, 4
      s_cbranch_scc1 .Lnl_outer
      s_endpgm`,
    blocks: ['0 0x0-0x4 [1:fallthrough] idom=-', '1 0x4-0x8 [2:fallthrough] idom=0', '2 0x8-0x14 [2:branch,3:fallthrough] idom=1',
      '3 0x14-0x20 [1:branch,4:fallthrough] idom=2', '4 0x20-0x24 [] idom=3 exit=endpgm'],
    loops: ['1:{1,2,3} back=3>1', '2:{2} back=2>2 parent=1'],
  },
  {
    // Every conditional branch kind, each to the end block; the last one's fallthrough is the end too.
    name: 'all_cbranch',
    body: ['scc0', 'scc1', 'vccz', 'vccnz', 'execz', 'execnz', 'cdbgsys', 'cdbguser', 'cdbgsys_or_user', 'cdbgsys_and_user']
      .map((c) => `s_cbranch_${c} .Lcb_end`).join('\n') + '\n.Lcb_end:\ns_endpgm',
    blocks: [
      ...Array.from({ length: 10 }, (_, i) => `${i} ${hex(4 * i)}-${hex(4 * i + 4)} [10:branch,${i + 1}:fallthrough] idom=${i === 0 ? '-' : i - 1}`),
      '10 0x28-0x2c [] idom=0 exit=endpgm',
    ],
  },
  {
    name: 'end_variants',
    body: `s_cbranch_scc0 .Lev_a
      s_endpgm_saved
    .Lev_a:
      s_cbranch_scc0 .Lev_b
      s_endpgm_ordered_ps_done
    .Lev_b:
      s_code_end`,
    blocks: ['0 0x0-0x4 [2:branch,1:fallthrough] idom=-', '1 0x4-0x8 [] idom=0 exit=endpgm', '2 0x8-0xc [4:branch,3:fallthrough] idom=0',
      '3 0xc-0x10 [] idom=2 exit=endpgm', '4 0x10-0x14 [] idom=2 exit=endpgm'],
  },
  {
    // s_getpc_b64 gives the next instruction's pc (4); the label difference is a literal (8 bytes).
    name: 'getpc_add',
    body: `s_getpc_b64 s[0:1]
    .Lga_pc:
      s_add_u32 s0, s0, .Lga_t-.Lga_pc
      s_addc_u32 s1, s1, 0
      s_setpc_b64 s[0:1]
      s_endpgm
    .Lga_t:
      s_endpgm`,
    blocks: ['0 0x0-0x14 [1:jump] idom=-', '1 0x18-0x1c [] idom=0 exit=endpgm'],
  },
  {
    // Backwards: s_sub_u32 / s_subb_u32 (a borrow when the low word underflows is not exercised here),
    // through s_mov_b64 and s_movk_i32.
    name: 'getpc_sub',
    body: `s_branch .Lgs_start
    .Lgs_t:
      s_endpgm
    .Lgs_start:
      s_getpc_b64 s[2:3]
      s_mov_b64 s[4:5], s[2:3]
      s_movk_i32 s6, 0x8
      s_sub_u32 s4, s4, s6
      s_subb_u32 s5, s5, 0
      s_setpc_b64 s[4:5]`,
    // s_getpc_b64 at 0x8 gives 0xc; 0xc - 0x8 = 0x4, the s_endpgm.
    blocks: ['0 0x0-0x4 [2:branch] idom=-', '1 0x4-0x8 [] idom=2 exit=endpgm', '2 0x8-0x20 [1:jump] idom=0'],
  },
  {
    // The constants are block-local: the s_getpc_b64 value does not reach the next block.
    name: 'getpc_other_block',
    body: `s_getpc_b64 s[0:1]
      s_cbranch_scc0 .Lgo_j
    .Lgo_j:
      s_add_u32 s0, s0, 16
      s_setpc_b64 s[0:1]`,
    blocks: ['0 0x0-0x8 [1:branch,1:fallthrough] idom=-', '1 0x8-0x10 [] idom=0 exit=unresolved-jump'],
    diags: ['0xc error unresolved-jump'],
  },
  {
    name: 'setpc_loaded',
    body: `s_load_dwordx2 s[0:1], s[4:5], 0
      s_waitcnt lgkmcnt(0)
      s_setpc_b64 s[0:1]`,
    blocks: ['0 0x0-0x10 [] idom=- exit=unresolved-jump'],
    diags: ['0xc error unresolved-jump'],
  },
  {
    name: 'setpc_clobbered',
    body: `s_getpc_b64 s[0:1]
      s_add_u32 s0, s0, s7
      s_addc_u32 s1, s1, 0
      s_setpc_b64 s[0:1]`,
    blocks: ['0 0x0-0x10 [] idom=- exit=unresolved-jump'],
    diags: ['0xc error unresolved-jump'],
  },
  {
    name: 'swappc_call',
    body: `s_getpc_b64 s[4:5]
    .Lsw_pc:
      s_add_u32 s4, s4, .Lsw_fn-.Lsw_pc
      s_addc_u32 s5, s5, 0
      s_swappc_b64 s[30:31], s[4:5]
      s_endpgm
    .Lsw_fn:
      s_mov_b32 s0, 1
      s_setpc_b64 s[30:31]`,
    blocks: ['0 0x0-0x14 [2:call,1:fallthrough] idom=-', '1 0x14-0x18 [] idom=0 exit=endpgm', '2 0x18-0x20 [] idom=0 exit=return'],
  },
  {
    name: 's_call',
    body: `s_call_b64 s[30:31], .Lsc_fn
      s_endpgm
    .Lsc_fn:
      s_setpc_b64 s[30:31]`,
    blocks: ['0 0x0-0x4 [2:call,1:fallthrough] idom=-', '1 0x4-0x8 [] idom=0 exit=endpgm', '2 0x8-0xc [] idom=0 exit=return'],
  },
  {
    name: 'swappc_unknown',
    body: `s_swappc_b64 s[30:31], s[8:9]
      s_endpgm`,
    blocks: ['0 0x0-0x4 [1:fallthrough] idom=- exit=unresolved-jump', '1 0x4-0x8 [] idom=0 exit=endpgm'],
    diags: ['0x0 warning unresolved-jump'],
  },
  {
    // s_cbranch_scc1 +0x7fff dwords, s_cbranch_scc0 -3 dwords (to -0x4), s_branch +0x7fff: all outside the kernel's code.
    name: 'out_of_range',
    body: `.long 0xbf857fff
      .long 0xbf84fffd
      .long 0xbf827fff`,
    blocks: ['0 0x0-0x4 [1:fallthrough] idom=-', '1 0x4-0x8 [2:fallthrough] idom=0', '2 0x8-0xc [] idom=1 exit=unresolved-jump'],
    diags: ['0x0 error branch-out-of-range', '0x4 error branch-out-of-range', '0x8 error branch-out-of-range'],
  },
  {
    // s_cbranch_scc1 +1 dword → 0x8, the literal of the s_mov_b32 at 0x4.
    name: 'into_instruction',
    body: `.long 0xbf850001
      s_mov_b32 s0, 0x12345678
      s_endpgm`,
    blocks: ['0 0x0-0x4 [1:fallthrough] idom=-', '1 0x4-0x10 [] idom=0 exit=endpgm'],
    diags: ['0x0 error branch-into-instruction'],
  },
  { name: 'falls_off', body: 's_mov_b32 s0, 0\ns_nop 0', blocks: ['0 0x0-0x8 [] idom=- exit=falls-off-end'], diags: ['0x4 error falls-off-end'] },
  {
    name: 'cond_falls_off',
    body: `s_branch .Lcf_b
    .Lcf_a:
      s_endpgm
    .Lcf_b:
      s_cbranch_scc0 .Lcf_a`,
    blocks: ['0 0x0-0x4 [2:branch] idom=-', '1 0x4-0x8 [] idom=2 exit=endpgm', '2 0x8-0xc [1:branch] idom=0 exit=falls-off-end'],
    diags: ['0x8 error falls-off-end'],
  },
  { name: 'trap', body: 's_nop 0\ns_trap 2\ns_endpgm', blocks: ['0 0x0-0x8 [] idom=- exit=trap'] },
  { name: 'halt', body: 's_sethalt 0\ns_sethalt 1\ns_endpgm', blocks: ['0 0x0-0x8 [] idom=- exit=halt'] },
  {
    name: 'invalid_word',
    body: 's_nop 0\n.long 0xffffffff\ns_endpgm',
    blocks: ['0 0x0-0x4 [] idom=- exit=invalid'],
    diags: ['0x4 error invalid-instruction'],
  },
  {
    // The last dword is s_mov_b32 s0, <literal> without its literal.
    name: 'truncated_word',
    body: 's_nop 0\n.long 0xbe8003ff',
    blocks: ['0 0x0-0x4 [] idom=- exit=invalid'],
    diags: ['0x4 error truncated-instruction'],
  },
  {
    // Two ways into the cycle {1, 2}: neither block dominates the other.
    name: 'irreducible',
    body: `s_cbranch_scc0 .Lir_b
    .Lir_a:
      s_nop 0
      s_branch .Lir_b
    .Lir_b:
      s_nop 0
      s_cbranch_scc1 .Lir_a
      s_endpgm`,
    blocks: ['0 0x0-0x4 [2:branch,1:fallthrough] idom=-', '1 0x4-0xc [2:branch] idom=0', '2 0xc-0x14 [1:branch,3:fallthrough] idom=0', '3 0x14-0x18 [] idom=2 exit=endpgm'],
    diags: ['0x8 warning irreducible-loop'],
  },
];

function runCases(target: Target, cases: readonly Case[], wave64 = false): void {
  const shaders = assembleShaders(target, cases.map((c): KernelSpec => ({ name: `${c.name}${wave64 ? '_w64' : ''}`, body: c.body, wave64 })));
  for (const c of cases) {
    const s = shaders.get(`${c.name}${wave64 ? '_w64' : ''}`) as Shader;
    const cfg = buildCfg(s);
    const base = s.info.entry;
    assert.deepEqual(shape(cfg, base), c.blocks, `${target} ${c.name}: blocks`);
    assert.deepEqual(loopsOf(cfg), c.loops ?? [], `${target} ${c.name}: loops`);
    assert.deepEqual(codes(cfg, base), c.diags ?? [], `${target} ${c.name}: diagnostics`);
    checkInvariants(cfg);
  }
}

test('hand-written programs, gfx1030 wave32', () => runCases('gfx1030', CASES));
test('hand-written programs, gfx1010 and gfx1013', () => {
  runCases('gfx1010', CASES.filter((c) => !c.name.startsWith('end_')));
  runCases('gfx1013', CASES.filter((c) => c.name === 'nested_loops' || c.name === 'swappc_call'));
});

test('wave64 programs (exec masks, vcc pairs)', () => {
  const cases: Case[] = [
    {
      name: 'w64_if',
      body: `v_cmp_gt_u32 vcc, 4, v0
        s_and_saveexec_b64 s[0:1], vcc
        s_cbranch_execz .Lw_skip
        v_mov_b32 v1, 1
      .Lw_skip:
        s_or_b64 exec, exec, s[0:1]
        s_endpgm`,
      blocks: ['0 0x0-0xc [2:branch,1:fallthrough] idom=-', '1 0xc-0x10 [2:fallthrough] idom=0', '2 0x10-0x18 [] idom=0 exit=endpgm'],
    },
    {
      name: 'w64_loop',
      body: `s_mov_b32 s2, 0
      .Lw_loop:
        v_add_nc_u32 v0, 1, v0
        v_cmp_lt_u32 vcc, v0, 16
        s_add_u32 s2, s2, 1
        s_cbranch_vccnz .Lw_loop
        s_endpgm`,
      // v_cmp_lt_u32 with a VGPR first source and inline second: e32 is src0 VGPR... VOPC e32 needs
      // src1 a VGPR, so this is VOP3 (8 bytes).
      blocks: ['0 0x0-0x4 [1:fallthrough] idom=-', '1 0x4-0x18 [1:branch,2:fallthrough] idom=0', '2 0x18-0x1c [] idom=1 exit=endpgm'],
      loops: ['1:{1} back=1>1'],
    },
  ];
  runCases('gfx1030', cases, true);
  const s = assembleShaders('gfx1030', [{ name: 'w64_info', body: 's_endpgm', wave64: true }]).get('w64_info') as Shader;
  assert.equal(s.info.waveSize, 64);
  assert.match(cfgText(buildCfg(s), { name: 'w64_info', target: 'gfx1030', waveSize: 64 })[0] ?? '', /wave64/);
});

test('diagnostics carry pc, words and the instruction text', () => {
  const s = assembleShaders('gfx1030', [{ name: 'dg', body: 's_nop 0\ns_setpc_b64 s[2:3]' }]).get('dg') as Shader;
  const cfg = buildCfg(s);
  const d = cfg.diagnostics[0];
  assert.ok(d);
  assert.equal(d.pc, s.info.entry + 4);
  assert.equal(d.instruction, 's_setpc_b64 s[2:3]');
  // s_setpc_b64 s[2:3]: SOP1 0xbe80_20_02 (sdst 0, op 0x20, ssrc0 2).
  assert.deepEqual(d.words, [0xbe802002]);
  assert.equal(cfg.invalid.length, 0);
  const inv = assembleShaders('gfx1030', [{ name: 'iv', body: '.long 0xffffffff' }]).get('iv') as Shader;
  const ci = buildCfg(inv);
  assert.deepEqual(ci.invalid.map((w) => [w.pc - inv.info.entry, w.words[0]]), [[0, 0xffffffff]]);
  assert.equal(ci.diagnostics[0]?.instruction, '.long 0xffffffff');
  // An empty entry block ending in the invalid word.
  assert.deepEqual(shape(ci, inv.info.entry), ['0 0x0-0x0 [] idom=- exit=invalid']);
});

// --- printers ---------------------------------------------------------------------------------

test('text, json and dot forms name blocks, edges, idoms and loops', () => {
  const c = CASES.find((x) => x.name === 'nested_loops') as Case;
  const s = assembleShaders('gfx1030', [{ name: 'pr', body: c.body }]).get('pr') as Shader;
  const cfg = buildCfg(s);
  const h = { name: 'pr', target: 'gfx1030' as const, waveSize: 32 as const };
  const b = s.info.entry;
  const t = cfgText(cfg, h);
  assert.equal(t[0], 'cfg pr (gfx1030, wave32): 5 blocks, 6 edges, 2 loops, 0 diagnostics');
  const i2 = t.indexOf(`block 2 [${hex(b + 8)}, ${hex(b + 0x14)})`);
  assert.ok(i2 > 0, t.join('\n'));
  assert.deepEqual(t.slice(i2 + 1, i2 + 8), [
    '  preds: 1 (fallthrough), 2 (branch)', '  idom: 1', '  loop: header of loop 2, depth 2 (inside loop 1)',
    `  ${hex(b + 8)}: s_add_u32 s1, s1, 1`, `  ${hex(b + 12)}: s_cmp_lt_u32 s1, 4`, `  ${hex(b + 16)}: s_cbranch_scc1 65533`,
    '  succs: 2 (branch), 3 (fallthrough)',
  ]);
  assert.ok(t.includes('loop 1: blocks 1, 2, 3; back edges 3 -> 1'));
  assert.ok(t.includes('loop 2: blocks 2; back edges 2 -> 2; parent loop 1'));

  const j = JSON.parse(JSON.stringify(cfgJson(cfg, h))) as { blocks: { id: number; idom: number; loops: number[]; succs: { to: number; kind: string }[]; instructions: { text: string }[] }[]; loops: { header: number; parent: number | null }[] };
  assert.deepEqual(j.blocks.map((x) => x.idom), [-1, 0, 1, 2, 3]);
  assert.deepEqual(j.blocks.map((x) => x.loops), [[], [1], [1, 2], [1], []]);
  assert.deepEqual(j.blocks[3]?.succs, [{ to: 1, kind: 'branch' }, { to: 4, kind: 'fallthrough' }]);
  assert.equal(j.blocks[0]?.instructions[0]?.text, 's_mov_b32 s0, 0');
  assert.deepEqual(j.loops.map((l) => [l.header, l.parent]), [[1, null], [2, 1]]);

  const g = parseDot(cfgDot(cfg, h));
  assert.deepEqual(g.nodes, ['b0', 'b1', 'b2', 'b3', 'b4']);
  assert.deepEqual(g.edges, ['b0->b1', 'b1->b2', 'b2->b2', 'b2->b3', 'b3->b1', 'b3->b4']);
  assert.match(g.labels.get('b2') ?? '', /s_add_u32 s1, s1, 1\\l/);
});


// --- dominators on their own --------------------------------------------------------------------

test('dominators: Cooper-Harvey-Kennedy equals the set definition on random graphs', () => {
  fc.assert(fc.property(fc.integer({ min: 1, max: 24 }).chain((n) => fc.tuple(fc.constant(n), fc.array(fc.tuple(fc.nat(n - 1), fc.nat(n - 1)), { maxLength: 3 * n }))), ([n, es]) => {
    const succs: { from: number; to: number }[][] = Array.from({ length: n }, () => []);
    const preds: { from: number; to: number }[][] = Array.from({ length: n }, () => []);
    for (const [a, b] of es) { const e = { from: a, to: b }; succs[a]?.push(e); preds[b]?.push(e); }
    const rpo = reversePostorder(n, (i) => succs[i] ?? []);
    const idom = computeDominators(n, rpo, (i) => preds[i] ?? []);
    const expect = setIdoms(n, succs.map((s) => s.map((e) => e.to)));
    assert.deepEqual(idom, expect);
    // The same graph as two adjacency arrays (CSE's form), with a -1 and an n per node (no edges) mixed in.
    const adj = (lists: { from: number; to: number }[][], end: 'to' | 'from') => {
      const first: number[] = [], list: number[] = [];
      lists.forEach((l, v) => { first.push(list.length); list.push(v % 2 ? -1 : n, ...l.map((e) => e[end])); });
      first.push(list.length);
      return { first, list };
    };
    const rpo2 = reversePostorderOf(n, adj(succs, 'to'));
    assert.deepEqual(rpo2, rpo);
    assert.deepEqual(dominatorsOf(n, rpo2, adj(preds, 'from')), expect);
  }), { numRuns: 300, seed: 11 });
});

/** Dominator sets by the definition (Dom(n) = {n} ∪ ⋂ Dom(p)), then idom = the closest strict dominator. */
function setIdoms(n: number, succ: readonly (readonly number[])[]): number[] {
  const reach = new Set<number>([0]);
  const work = [0];
  while (work.length) for (const t of succ[work.pop() as number] ?? []) if (!reach.has(t)) { reach.add(t); work.push(t); }
  const all = [...reach];
  const dom = new Map<number, Set<number>>(all.map((v) => [v, v === 0 ? new Set([0]) : new Set(all)]));
  const preds = new Map<number, number[]>(all.map((v) => [v, []]));
  for (const u of all) for (const v of succ[u] ?? []) preds.get(v)?.push(u);
  for (let changed = true; changed;) {
    changed = false;
    for (const v of all) {
      if (v === 0) continue;
      let acc: Set<number> | undefined;
      for (const p of preds.get(v) ?? []) {
        const d = dom.get(p) as Set<number>;
        acc = acc === undefined ? new Set(d) : new Set([...acc].filter((x) => d.has(x)));
      }
      const next = new Set([...(acc ?? []), v]);
      if (next.size !== dom.get(v)?.size) { dom.set(v, next); changed = true; }
    }
  }
  const out = new Array<number>(n).fill(-1);
  for (const v of all) {
    if (v === 0) continue;
    const strict = [...(dom.get(v) as Set<number>)].filter((x) => x !== v);
    // The idom is the strict dominator that all other strict dominators dominate (the largest set).
    out[v] = strict.reduce((best, x) => ((dom.get(x)?.size ?? 0) > (dom.get(best)?.size ?? 0) ? x : best), strict[0] as number);
  }
  return out;
}

// --- property test: random programs whose graph is known ------------------------------------------

type Term = { k: 'end' } | { k: 'trap' } | { k: 'br'; to: number } | { k: 'cbr'; to: number; cond: string } | { k: 'call'; to: number };
interface GenBlock { readonly body: readonly number[]; readonly term: Term }

/** Body instructions by size: [text, bytes]. */
const BODY: readonly (readonly [string, number])[] = [
  ['s_nop 0', 4], ['s_mov_b32 s0, 0x12345678', 8], ['v_add_f32 v0, v1, v2', 4], ['v_add_f32_e64 v0, v1, v2', 8], ['s_add_u32 s1, s1, 1', 4],
];
const CONDS = ['scc0', 'scc1', 'vccz', 'vccnz', 'execz', 'execnz', 'cdbgsys', 'cdbguser'];

const genProgram = fc.integer({ min: 1, max: 14 }).chain((n) => fc.array(fc.record({
  body: fc.array(fc.nat(BODY.length - 1), { maxLength: 3 }),
  t: fc.nat(9), to: fc.nat(n - 1), cond: fc.nat(CONDS.length - 1),
}), { minLength: n, maxLength: n }).map((raw): GenBlock[] => raw.map((r, i): GenBlock => {
  const last = i === n - 1;
  // The last block never falls through (its successor would be past the end).
  let term: Term;
  if (r.t <= 1) term = { k: 'end' };
  else if (r.t === 2) term = { k: 'trap' };
  else if (r.t <= 5 || last) term = r.t === 3 && !last ? { k: 'call', to: r.to } : { k: 'br', to: r.to };
  else term = { k: 'cbr', to: r.to, cond: CONDS[r.cond] as string };
  return { body: r.body, term };
})));

function emit(name: string, prog: readonly GenBlock[]): string {
  return prog.map((b, i) => {
    const lines = [`.L${name}_${i}:`, ...b.body.map((x) => BODY[x]?.[0] as string)];
    const t = b.term;
    switch (t.k) {
      case 'end': lines.push('s_endpgm'); break;
      case 'trap': lines.push('s_trap 1'); break;
      case 'br': lines.push(`s_branch .L${name}_${t.to}`); break;
      case 'cbr': lines.push(`s_cbranch_${t.cond} .L${name}_${t.to}`); break;
      case 'call': lines.push(`s_call_b64 s[30:31], .L${name}_${t.to}`); break;
    }
    return lines.join('\n');
  }).join('\n');
}

/** The expected graph: reachable generator blocks in pc order, their edges, idoms by the set definition. */
function expected(prog: readonly GenBlock[]): { shape: string[]; reducible: boolean; loops: string[] } {
  const starts: number[] = [];
  let pc = 0;
  for (const b of prog) { starts.push(pc); pc += b.body.reduce((s, x) => s + (BODY[x]?.[1] ?? 0), 0) + 4; }
  const succ = prog.map((b, i): { to: number; kind: string }[] => {
    const t = b.term;
    switch (t.k) {
      case 'end': case 'trap': return [];
      case 'br': return [{ to: t.to, kind: 'branch' }];
      case 'cbr': return [{ to: t.to, kind: 'branch' }, { to: i + 1, kind: 'fallthrough' }];
      case 'call': return [{ to: t.to, kind: 'call' }, { to: i + 1, kind: 'fallthrough' }];
    }
  });
  const reach = new Set<number>([0]);
  const work = [0];
  while (work.length) for (const e of succ[work.pop() as number] ?? []) if (!reach.has(e.to)) { reach.add(e.to); work.push(e.to); }
  const order = [...reach].sort((a, b) => a - b);
  const id = new Map(order.map((g, k) => [g, k]));
  const gsucc = order.map((g) => (succ[g] ?? []).map((e) => ({ to: id.get(e.to) as number, kind: e.kind })));
  const idom = setIdoms(order.length, gsucc.map((s) => s.map((e) => e.to)));
  const shapeLines = order.map((g, k) => {
    const b = prog[g] as GenBlock;
    const end = (starts[g] as number) + b.body.reduce((s, x) => s + (BODY[x]?.[1] ?? 0), 0) + 4;
    const exit = b.term.k === 'end' ? ' exit=endpgm' : b.term.k === 'trap' ? ' exit=trap' : '';
    const d = idom[k] ?? -1;
    return `${k} ${hex(starts[g] as number)}-${hex(end)} [${(gsucc[k] ?? []).map((e) => `${e.to}:${e.kind}`).join(',')}] idom=${d < 0 ? '-' : d}${exit}`;
  });
  // Dominance by the idom chain; back edges go to a dominator; reducible iff the rest is acyclic.
  const doms = (a: number, b: number) => { for (let x = b; x >= 0; x = idom[x] ?? -1) if (x === a) return true; return false; };
  const forward: number[][] = gsucc.map((s, u) => s.filter((e) => !doms(e.to, u)).map((e) => e.to));
  const indeg = new Array<number>(order.length).fill(0);
  for (const s of forward) for (const v of s) indeg[v] = (indeg[v] ?? 0) + 1;
  const q = indeg.flatMap((d, v) => (d === 0 ? [v] : []));
  let seen = 0;
  while (q.length) { const u = q.pop() as number; seen++; for (const v of forward[u] ?? []) if (--(indeg[v] as number) === 0) q.push(v); }
  // Natural loops: per header, the header plus every block that reaches a latch without it.
  const loops: string[] = [];
  const predsOf = (v: number) => gsucc.flatMap((s, u) => s.filter((e) => e.to === v).map(() => u));
  for (let h = 0; h < order.length; h++) {
    const latches = gsucc.flatMap((s, u) => s.filter((e) => e.to === h && doms(h, u)).map(() => u));
    if (!latches.length) continue;
    const body = new Set<number>([h]);
    const w = latches.filter((u) => u !== h);
    for (const u of w) body.add(u);
    while (w.length) for (const p of predsOf(w.pop() as number)) if (!body.has(p)) { body.add(p); w.push(p); }
    loops.push(`${h}:{${[...body].sort((a, b) => a - b).join(',')}}`);
  }
  return { shape: shapeLines, reducible: seen === order.length, loops };
}

test('property: random programs give the graph they were built from', () => {
  const programs = fc.sample(genProgram, { numRuns: 150, seed: 20261201 });
  const shaders = assembleShaders('gfx1030', programs.map((p, i) => ({ name: `rp${i}`, body: emit(`rp${i}`, p) })));
  programs.forEach((p, i) => {
    const s = shaders.get(`rp${i}`) as Shader;
    const cfg = buildCfg(s);
    const want = expected(p);
    const ctx = `program rp${i}:\n${emit(`rp${i}`, p)}`;
    assert.deepEqual(shape(cfg, s.info.entry), want.shape, ctx);
    assert.deepEqual(cfg.loops.map((l) => `${l.header}:{${l.blocks.join(',')}}`), want.loops, ctx);
    assert.equal(cfg.diagnostics.some((d) => d.code === 'irreducible-loop'), !want.reducible, ctx);
    assert.ok(cfg.diagnostics.every((d) => d.code === 'irreducible-loop'), ctx);
    checkInvariants(cfg);
    // Every printer accepts it.
    const h = { name: `rp${i}`, target: 'gfx1030' as const, waveSize: 32 as const };
    assert.equal(parseDot(cfgDot(cfg, h)).nodes.length, cfg.blocks.length);
    assert.ok(cfgText(cfg, h).length > cfg.blocks.length);
  });
});

test('bounded: arbitrary words never throw and stay within the code range', () => {
  fc.assert(fc.property(fc.uint32Array({ minLength: 1, maxLength: 64 }), fc.nat(63), (words, e) => {
    const entry = 4 * (e % words.length);
    const shader = { info: { target: 'gfx1030', entry, name: 'fuzz', waveSize: 32 }, words, basePc: 0 } as unknown as Shader;
    const cfg = buildCfg(shader);
    checkInvariants(cfg);
    for (const b of cfg.blocks) {
      assert.ok(b.start >= 0 && b.end <= 4 * words.length && b.start <= b.end);
    }
    for (let k = 1; k < cfg.blocks.length; k++) {
      const a = cfg.blocks[k - 1] as Cfg['blocks'][number];
      const b = cfg.blocks[k] as Cfg['blocks'][number];
      if (k > 1) assert.ok(a.start < b.start, 'blocks after the entry are in pc order');
    }
  }), { numRuns: 2000, seed: 5 });
});
