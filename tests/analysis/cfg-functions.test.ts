// The CFG of kernels that call functions outside their own symbol range (issue 7): the code is the
// kernel's range plus the STT_FUNC symbols beside it (src/container/shader.ts), a call or jump may
// enter a function at its entry only. Hand-written cases (llvm-mc-19; blocks written by hand from
// the text: SOP1/SOPP/VOP2 4 bytes, +4 for a literal) and clang-19 OpenCL objects linked by
// ld.lld-19, whose function addresses come from llvm-nm-19 (the oracle for where each callee is).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildCfg } from '../../src/analysis/cfg.js';
import { callFlow } from '../../src/analysis/calls.js';
import type { Cfg } from '../../src/analysis/types.js';
import { loadShaders, type Shader } from '../../src/container/shader.js';
import { assembleShaders } from '../harness/kernel.js';
import { buildOpenCl, linkOpenCl } from '../harness/opencl.js';
import { spirvVal } from '../harness/spirv.js';

const hex = (n: number) => '0x' + n.toString(16);
const shape = (cfg: Cfg, base: number) => cfg.blocks.map((b) =>
  `${b.id} ${hex(b.start - base)}-${hex(b.end - base)} [${b.succs.map((e) => `${e.to}:${e.kind}`).join(',')}]${b.exit ? ` exit=${b.exit}` : ''}`);
const codes = (cfg: Cfg, base: number) => cfg.diagnostics.map((d) => `${hex(d.pc - base)} ${d.severity} ${d.code}`);

/** A kernel calling `<name>_f` (at `<name>_f + offset`), which tail-calls `<name>_g` with s_setpc_b64; `<name>_g` returns. */
function callKernel(name: string, offset = 0, entryBranch = false): Shader {
  const body = `
  s_getpc_b64 s[4:5]
.L${name}_pc:
  s_add_u32 s4, s4, ${name}_f-.L${name}_pc+${offset}
  s_addc_u32 s5, s5, 0
  s_swappc_b64 s[30:31], s[4:5]
  ${entryBranch ? `s_cbranch_scc1 ${name}_g` : 's_nop 0'}
  s_endpgm`;
  const f = `
  v_add_nc_u32 v0, 1, v0
  s_getpc_b64 s[6:7]
.L${name}_fpc:
  s_add_u32 s6, s6, ${name}_g-.L${name}_fpc
  s_addc_u32 s7, s7, 0
  s_setpc_b64 s[6:7]`;
  const g = `
  v_add_nc_u32 v0, 2, v0
  s_setpc_b64 s[30:31]`;
  const s = assembleShaders('gfx1030', [{ name, body, functions: [{ name: `${name}_f`, body: f }, { name: `${name}_g`, body: g }, { name: `${name}_unused`, body: 's_setpc_b64 s[30:31]' }] }]).get(name);
  assert.ok(s);
  return s;
}

test('a call of a function beside the kernel, which tail-calls another: blocks of both functions, call and jump edges, returns to the kernel', () => {
  const s = callKernel('fk');
  // kernel 0x0-0x1c: getpc 4, add 8, addc 4, swappc 4, nop 4, endpgm 4; fk_f at 0x1c: v_add 4,
  // getpc 4, add 8, addc 4, setpc 4 (to 0x34); fk_g at 0x34: v_add 4, setpc 4; fk_unused at 0x3c.
  assert.deepEqual(s.functions?.map((f) => `${f.name} ${hex(f.start)}-${hex(f.end)}`), ['fk 0x0-0x1c', 'fk_f 0x1c-0x34', 'fk_g 0x34-0x3c', 'fk_unused 0x3c-0x40']);
  const cfg = buildCfg(s);
  assert.deepEqual(shape(cfg, 0), [
    '0 0x0-0x14 [2:call,1:fallthrough]',
    '1 0x14-0x1c [] exit=endpgm',
    '2 0x1c-0x34 [3:jump]',
    '3 0x34-0x3c [] exit=return',
  ]);
  assert.deepEqual(codes(cfg, 0), []);
  // The tail-called function's return goes back to the kernel's return site.
  assert.deepEqual(callFlow(cfg).returnSites[3], [1]);
});

test('a call into the middle of a function, or a conditional branch to a function entry, is an error naming the function', () => {
  const mid = buildCfg(callKernel('fm', 4));
  assert.deepEqual(codes(mid, 0), ['0x10 error branch-out-of-range']);
  assert.equal(mid.diagnostics[0]?.message, 'call target 0x20 is outside the code range [0x0, 0x1c) and is not the entry of a function symbol (it lies inside fm_f [0x1c, 0x34))');
  const br = buildCfg(callKernel('fb', 0, true));
  assert.deepEqual(codes(br, 0), ['0x14 error branch-out-of-range']);
  assert.match(br.diagnostics[0]?.message ?? '', /^branch target 0x34 is outside the code range \[0x0, 0x1c\)/);
});

/** Function symbols of a linked object by llvm-nm-19: name → address. */
function nm(so: string): Map<string, number> {
  const r = spawnSync('llvm-nm-19', [so], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const out = new Map<string, number>();
  for (const line of r.stdout.split('\n')) {
    const m = /^([0-9a-f]+) [tT] (\S+)$/.exec(line);
    if (m) out.set(m[2] as string, parseInt(m[1] as string, 16));
  }
  return out;
}

test('clang-19 OpenCL kernels calling noinline functions: the callees reached, transitively, are in the CFG, entered by call edges only at their llvm-nm addresses', () => {
  for (const wave64 of [false, true]) {
    const so = linkOpenCl(buildOpenCl('calls.cl', { wave64, options: ['-cl-fp32-correctly-rounded-divide-sqrt'] }));
    const syms = nm(so);
    const shaders = loadShaders({ bytes: new Uint8Array(readFileSync(so)), name: 'calls' });
    const callees: Record<string, string[]> = {
      call_simple: ['mix'], call_loop: ['mix'], call_two: ['fpoly', 'mix'], call_nested: ['mix', 'twice'], call_private: ['scramble'], call_spill: ['keep', 'mix'],
    };
    for (const [kernel, want] of Object.entries(callees)) {
      const s = shaders.find((x) => x.info.name === kernel);
      assert.ok(s, kernel);
      // The kernel's own range is still its symbol's (what disasm and inspect print).
      assert.equal(s.info.codeRange.start, syms.get(kernel));
      const cfg = buildCfg(s);
      assert.deepEqual(cfg.diagnostics.filter((d) => d.severity !== 'note').map((d) => `${hex(d.pc)} ${d.code}`), [], kernel);
      const targets = new Set(cfg.blocks.flatMap((b) => b.succs.filter((e) => e.kind === 'call').map((e) => cfg.blocks[e.to]?.start)));
      const names = [...targets].map((pc) => [...syms].find(([, a]) => a === pc)?.[0] ?? `?${hex(pc ?? -1)}`).sort();
      assert.deepEqual(names, want, `${kernel} wave${wave64 ? 64 : 32}`);
      // Every block lies in the kernel or in one of the functions it calls, transitively.
      const ranges = [kernel, ...want].map((n) => s.functions?.find((f) => f.name === n)).map((f) => [f?.start ?? 0, f?.end ?? 0] as const);
      for (const b of cfg.blocks) assert.ok(ranges.some(([lo, hi]) => b.start >= lo && b.end <= hi), `${kernel}: block ${hex(b.start)} outside its callees`);
      // Every call is resolved: a call edge from each s_swappc_b64.
      for (const b of cfg.blocks) {
        if (b.instructions[b.instructions.length - 1]?.def.mnemonic === 's_swappc_b64') assert.ok(b.succs.some((e) => e.kind === 'call'), `${kernel}: ${hex(b.start)}`);
      }
    }
  }
});

test('every tool on a kernel with nested calls (clang-19, IPRA off): cfg shows the callees\' blocks, validate and mode pass, compile gives valid SPIR-V, disasm still lists the kernel\'s own range', () => {
  const BIN = new URL('../../bin/rdna', import.meta.url).pathname;
  const so = linkOpenCl(buildOpenCl('calls.cl', { options: ['-cl-fp32-correctly-rounded-divide-sqrt', '-mllvm', '-enable-ipra=0'] }));
  const syms = nm(so);
  const rdna = (...args: string[]) => spawnSync(process.execPath, [BIN, ...args, '--kernel', 'call_nested', so], { encoding: 'utf8', maxBuffer: 1 << 26 });
  const cfg = rdna('cfg');
  assert.equal(cfg.status, 0, cfg.stderr);
  const starts = [...cfg.stdout.matchAll(/^block \d+ \[0x([0-9a-f]+), /gm)].map((m) => parseInt(m[1] as string, 16));
  for (const f of ['call_nested', 'twice', 'mix']) assert.ok(starts.includes(syms.get(f) ?? -1), `${f} at ${hex(syms.get(f) ?? -1)}: ${starts.map(hex).join(' ')}`);
  assert.match(cfg.stdout, /0 diagnostics/);
  const v = rdna('validate');
  assert.equal(v.status, 0, v.stdout + v.stderr);
  assert.match(v.stdout, /call_nested: ok \(0 errors, 0 warnings, 0 notes\)/);
  const m = rdna('mode');
  assert.equal(m.status, 0, m.stderr);
  assert.ok(m.stdout.includes(`0x${(syms.get('mix') ?? 0).toString(16)} `), 'mode lists the callee\'s instructions');
  const out = join(mkdtempSync(join(tmpdir(), 'rdna-cfg-fn-')), 'k.spv');
  const c = rdna('compile', '-o', out);
  assert.equal(c.status, 0, c.stderr);
  const spv = readFileSync(out);
  spirvVal(new Uint32Array(spv.buffer, spv.byteOffset, spv.byteLength / 4), 'call_nested');
  // disasm: the kernel's own range only, its first and last instruction at the symbol's bounds.
  const d = rdna('disasm');
  assert.equal(d.status, 0, d.stderr);
  const pcs = [...d.stdout.matchAll(/\/\/ ([0-9A-F]{12}):/g)].map((x) => parseInt(x[1] as string, 16));
  const start = syms.get('call_nested') ?? -1;
  assert.equal(pcs[0], start);
  const next = Math.min(...[...syms.values()].filter((a) => a > start));
  assert.ok(pcs.every((pc) => pc >= start && pc < next), 'no other symbol\'s code in the listing');
  assert.ok(!pcs.includes(syms.get('mix') ?? -1) && !pcs.includes(syms.get('twice') ?? -1));
});
