// Engine cases for memory and integer breadth (issue 7), part of tests/runtime/cases.ts's suites:
// every integer global/FLAT atomic (32- and 64-bit, returning and not, lanes on distinct addresses,
// all lanes of a wave on one address, four lanes to an address), MUBUF/MTBUF/s_buffer_load through
// V# descriptors at their range-checking edges, 64-bit integer VALU and every integer VOPC compare
// on generated operand sets. Inputs come from seeded Rngs, so they are the same whoever iterates.
import assert from 'node:assert/strict';
import { loadShaders, type Shader } from '../../src/container/shader.js';
import { KERNARG_DIRECTIVES } from '../interp/harness.js';
import { assembleKernels, type KernelSpec } from '../harness/kernel.js';
import { Rng } from '../harness/rng.js';
import type { EngineCase } from './cases.js';

const DIRECTIVES = ['.amdhsa_system_sgpr_workgroup_id_x 1'];

function one(spec: KernelSpec): { code: Uint8Array; shader: Shader } {
  const code = assembleKernels('gfx1030', [{ ...spec, directives: [...KERNARG_DIRECTIVES, ...DIRECTIVES, ...(spec.directives ?? [])] }]);
  const shader = loadShaders({ bytes: code, name: 'test' }).find((s) => s.info.name === spec.name);
  assert.ok(shader);
  return { code, shader };
}

const hex = (v: number) => `0x${(v >>> 0).toString(16)}`;

/** The integer atomics: name without the segment prefix, 64-bit, and whether a no-return form exists. */
const ATOMICS: readonly { readonly op: string; readonly wide: boolean }[] = [
  ...['add', 'sub', 'smin', 'umin', 'smax', 'umax', 'and', 'or', 'xor', 'swap', 'inc', 'dec', 'csub', 'cmpswap'].map((op) => ({ op, wide: false })),
  ...['add', 'sub', 'smin', 'umin', 'smax', 'umax', 'and', 'or', 'xor', 'swap', 'inc', 'dec', 'cmpswap'].map((op) => ({ op, wide: true })),
];
/** A few of them also through FLAT (64-bit VGPR addresses). */
const FLAT_ATOMICS: readonly { readonly op: string; readonly wide: boolean }[] = [{ op: 'inc', wide: true }, { op: 'cmpswap', wide: false }, { op: 'umax', wide: false }, { op: 'sub', wide: true }];

const REGION = 2048;

interface AtomicCase { readonly op: string; readonly wide: boolean; readonly seg: 'global' | 'flat' }

/**
 * Lane i (i = 64 * workgroup + lane id) of wave w, per atomic k (region k * 2048 of each buffer):
 * input buffer 0 at i * 16 holds the lane's data (and compare) dwords; in buffer 1 (memory) the
 * lane's own 8 bytes at i * 8 (returning, vdst v[12:13]), the wave's one word at 1024 + w * 8 for
 * all its lanes (returning, v[14:15]), and four lanes a word at 1536 + w * 32 + (i & 3) * 8 (no
 * return), then an xor returning v19 on the wave's one word; buffer 2 gets v[12:15] and v19 at
 * 4096k + i * 32 (preset to 0x5eedkkrr before, so lanes that return nothing show it). Lanes with
 * (i & 7) == 3 are off in EXEC during the atomics.
 */
function atomicsKernel(wave64: boolean, all: readonly AtomicCase[]): string {
  const m = wave64 ? 's[12:13]' : 's12', sv = wave64 ? 's[14:15]' : 's14', vcc = wave64 ? 'vcc' : 'vcc_lo';
  const saveexec = wave64 ? 's_and_saveexec_b64' : 's_and_saveexec_b32', or = wave64 ? 's_or_b64' : 's_or_b32', exec = wave64 ? 'exec' : 'exec_lo';
  const lines = [
    's_load_dwordx8 s[4:11], s[0:1], 0x0',
    's_waitcnt lgkmcnt(0)',
    'v_lshl_add_u32 v1, s2, 6, v0',
    'v_lshlrev_b32 v2, 4, v1',
    'v_lshlrev_b32 v3, 3, v1',
    'v_lshlrev_b32 v26, 5, v1',
    // v5: 1024 + wave * 8; v4: 1536 + wave * 32 + (i & 3) * 8.
    `v_lshrrev_b32 v6, ${wave64 ? 6 : 5}, v1`,
    'v_lshl_add_u32 v5, v6, 3, 0x400',
    'v_and_b32 v4, 3, v1',
    'v_lshlrev_b32 v4, 3, v4',
    'v_lshl_add_u32 v4, v6, 5, v4',
    'v_add_nc_u32 v4, 0x600, v4',
    'v_and_b32 v6, 7, v1',
    `v_cmp_ne_u32_e64 ${m}, 3, v6`,
  ];
  all.forEach(({ op, wide, seg }, k) => {
    const base = k * REGION;
    const data = op === 'cmpswap' ? (wide ? 'v[8:11]' : 'v[8:9]') : wide ? 'v[8:9]' : 'v8';
    const r0 = wide ? 'v[12:13]' : 'v12', r1 = wide ? 'v[14:15]' : 'v14';
    const name = `${seg}_atomic_${op}${wide ? '_x2' : ''}`;
    lines.push(
      ...[12, 13, 14, 15, 19].map((r) => `v_mov_b32 v${r}, ${hex(0x5eed0000 + (k << 4) + r)}`),
      `v_add_nc_u32 v7, ${hex(base)}, v2`,
      'global_load_dwordx4 v[8:11], v7, s[4:5]',
      's_waitcnt vmcnt(0)',
      `${saveexec} ${sv}, ${m}`,
    );
    const addrs = [`v_add_nc_u32 v16, ${hex(base)}, v3`, `v_add_nc_u32 v17, ${hex(base)}, v5`, `v_add_nc_u32 v18, ${hex(base)}, v4`];
    if (seg === 'global') {
      lines.push(...addrs,
        `${name} ${r0}, v16, ${data}, s[6:7] glc`,
        `${name} ${r1}, v17, ${data}, s[6:7] glc`,
        `${name} v18, ${data}, s[6:7]`,
        // A second instruction on the wave's shared word: all lanes of the first must come before it.
        'global_atomic_xor v19, v17, v8, s[6:7] glc');
    } else {
      // FLAT: 64-bit addresses s[6:7] + offset in v[20:21], v[22:23], v[24:25].
      lines.push(...addrs);
      for (const [lo, off] of [[20, 16], [22, 17], [24, 18]] as const) lines.push(`v_add_co_u32 v${lo}, ${vcc}, s6, v${off}`, `v_mov_b32 v${lo + 1}, s7`, `v_add_co_ci_u32_e32 v${lo + 1}, ${vcc}, 0, v${lo + 1}, ${vcc}`);
      lines.push(`${name} ${r0}, v[20:21], ${data} glc`, `${name} ${r1}, v[22:23], ${data} glc`, `${name} v[24:25], ${data}`, 'flat_atomic_xor v19, v[22:23], v8 glc');
    }
    lines.push('s_waitcnt vmcnt(0) lgkmcnt(0)', `${or} ${exec}, ${exec}, ${sv}`, `v_add_nc_u32 v7, ${hex(2 * base)}, v26`, 'global_store_dwordx4 v7, v[12:15], s[8:9]', 'global_store_dword v7, v19, s[8:9] offset:16');
  });
  lines.push('s_endpgm');
  return lines.map((l) => `  ${l}`).join('\n');
}

/** Inputs that make each atomic's corners happen: sign boundaries, inc/dec wraps, compares that hit. */
function atomicInputs(rng: Rng, all: readonly AtomicCase[], lanes: number, ws: number): { input: Uint8Array; memory: Uint8Array } {
  const input = new Uint8Array(all.length * REGION), memory = new Uint8Array(all.length * REGION);
  const iv = new DataView(input.buffer), mv = new DataView(memory.buffer);
  const edges = [0, 1, 2, 0x7fffffff, 0x80000000, 0x80000001, 0xffffffff, 0xfffffffe];
  all.forEach(({ op, wide }, k) => {
    const base = k * REGION;
    const small = op === 'inc' || op === 'dec' || op === 'csub';
    const value = () => (small ? (rng.bool(0.1) ? rng.pick(edges) : rng.int(9)) : rng.bool(0.3) ? rng.pick(edges) : rng.u32());
    // Memory: every word, both dwords (the high dword of 64-bit inc/dec small too, mostly 0).
    for (let o = 0; o < REGION; o += 4) mv.setUint32(base + o, small && (o & 4) !== 0 && wide ? (rng.bool(0.8) ? 0 : rng.pick(edges)) : value(), true);
    for (let i = 0; i < lanes; i++) {
      const at = base + 16 * i;
      const d = [value(), wide && small ? (rng.bool(0.8) ? 0 : rng.pick(edges)) : value(), value(), value()];
      if (op === 'cmpswap') {
        // The compare (dword 1, or dwords 2..3): often the lane's own word (it succeeds), or the
        // data of the lane four below (a chain of swaps on a shared word).
        const own = base + 8 * i;
        const p = rng.int(3);
        if (wide) {
          if (p === 0) { d[2] = mv.getUint32(own, true); d[3] = mv.getUint32(own + 4, true); }
          if (p === 1 && i >= 4) { d[2] = iv.getUint32(base + 16 * (i - 4), true); d[3] = iv.getUint32(base + 16 * (i - 4) + 4, true); }
        } else {
          if (p === 0) d[1] = mv.getUint32(own, true);
          if (p === 1 && i >= 4) d[1] = iv.getUint32(base + 16 * (i - 4), true);
        }
      }
      d.forEach((x, j) => iv.setUint32(at + 4 * j, x ?? 0, true));
    }
    // A wave's shared word starts at its first lane's compare value in half the waves, so the chains start.
    if (op === 'cmpswap') for (let w = 0; w < lanes / ws; w++) if (rng.bool(0.5)) {
      mv.setUint32(base + 1024 + 8 * w, iv.getUint32(base + 16 * (w * ws) + (wide ? 8 : 4), true), true);
      if (wide) mv.setUint32(base + 1024 + 8 * w + 4, iv.getUint32(base + 16 * (w * ws) + 12, true), true);
    }
  });
  return { input, memory };
}

/**
 * Every integer atomic on global and FLAT memory, wave32 and wave64, a partial last wave; a few
 * atomics per kernel (each atomic is a lane exchange with barriers, and lavapipe's compile time
 * grows faster than linearly with their number).
 */
export function* atomicCases(): Generator<EngineCase> {
  const rng = new Rng(77);
  const all: AtomicCase[] = [...ATOMICS.map((a) => ({ ...a, seg: 'global' as const })), ...FLAT_ATOMICS.map((a) => ({ ...a, seg: 'flat' as const }))];
  for (const wave64 of [false, true]) {
    for (let g = 0; g < all.length; g += 6) {
      const ops = all.slice(g, g + 6);
      const name = `atomics${wave64 ? 64 : 32}_${g / 6}`;
      const { code, shader } = one({ name, body: atomicsKernel(wave64, ops), wave64, vgprs: 32, sgprs: 24 });
      const { input, memory } = atomicInputs(rng, ops, 128, wave64 ? 64 : 32);
      yield { name: `${name} (${ops.map((o) => `${o.seg}_${o.op}${o.wide ? '_x2' : ''}`).join(' ')})`, spirvName: name, code, kernel: name, shader, buffers: [input, memory, new Uint8Array(2 * memory.length)], grid: [120, 1, 1], block: [64, 1, 1], scalars: [], writes: 2 };
    }
  }
}
