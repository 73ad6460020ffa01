// The DS src2 forms of gfx1010 / gfx1013 (gfx1030 dropped them): ds_add/sub/rsub/inc/dec/min/max/
// and/or/xor/write_src2_b32/u32/i32, ds_min/max/add_src2_f32 and the 64-bit forms, assembled by
// llvm-mc-19 for both targets in wave32 and wave64 and run on the RDNA interpreter, the IR
// interpreter and recompiled on lavapipe (validation layer on, every module through spirv-val).
// The kernel fills its workgroup's LDS from a buffer, runs every src2 opcode four times (a positive
// and a negative stride from the offset field, the extreme offset-field strides, and offset bit 15
// with the stride in the address's high bits) under partial EXEC, with lanes whose A and B collide
// (the same A, one lane's A another's B, in both orders), misaligned and out-of-range addresses, then
// copies the LDS out. The expected LDS is computed here (`model`) from the rules as the ISA states
// them, not by the engines:
//   per active lane in ascending lane order, A = the lane's addr VGPR (the offset is not added),
//   stride = offset[15] ? sign-extend16({A[31], A[31:17]}) : sign-extend16({offset[14], offset[14:0]}),
//   B = A + 4 x stride (8 x stride for the 64-bit forms), DS[A] = op(DS[A], DS[B]), nothing returned;
// with the LDS rules both engines follow for every DS access: each dword outside the LDS reads 0 and
// is not written, addresses are not masked (an A whose high bits carry a stride lies outside the
// LDS) and B outside [0, 2^32) is outside the LDS. The float forms get ordinary normal numbers
// only (add exact in doubles then rounded once to f32, min/max plain); a second run with NaNs,
// signed zeros, infinities and subnormals in the float regions compares the engines with each
// other there (the integer regions still with the model).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { recompile } from '../../src/backend/recompile.js';
import { LAVAPIPE_PROFILE } from '../../src/backend/profile.js';
import { VulkanDevice } from '../../src/runtime/vulkan.js';
import { ISA_TABLE, hasTarget } from '../../src/isa/table.js';
import type { Target } from '../../src/isa/types.js';
import { spirvVal } from '../harness/spirv.js';
import { Rng } from '../harness/rng.js';
import { assemble, get, runKernel } from '../interp/harness.js';
import { both, LVP } from './harness.js';
import { irRun } from './cases.js';

/** Every src2 opcode, as the RDNA2 ISA lists them for gfx1010/gfx1013. */
const OPS = [
  'ds_add_src2_u32', 'ds_sub_src2_u32', 'ds_rsub_src2_u32', 'ds_inc_src2_u32', 'ds_dec_src2_u32',
  'ds_min_src2_i32', 'ds_max_src2_i32', 'ds_min_src2_u32', 'ds_max_src2_u32',
  'ds_and_src2_b32', 'ds_or_src2_b32', 'ds_xor_src2_b32', 'ds_write_src2_b32',
  'ds_min_src2_f32', 'ds_max_src2_f32', 'ds_add_src2_f32',
  'ds_add_src2_u64', 'ds_sub_src2_u64', 'ds_rsub_src2_u64', 'ds_inc_src2_u64', 'ds_dec_src2_u64',
  'ds_min_src2_i64', 'ds_max_src2_i64', 'ds_min_src2_u64', 'ds_max_src2_u64',
  'ds_and_src2_b64', 'ds_or_src2_b64', 'ds_xor_src2_b64', 'ds_write_src2_b64',
  'ds_min_src2_f64', 'ds_max_src2_f64',
] as const;

interface OpInfo { readonly rule: string; readonly kind: 'b' | 'i' | 'u' | 'f'; readonly wide: boolean }
function info(mnemonic: string): OpInfo {
  const r = /^ds_([a-z]+)_src2_([biuf])(32|64)$/.exec(mnemonic);
  if (!r) throw new Error(`not a src2 mnemonic: ${mnemonic}`);
  return { rule: r[1] as string, kind: r[2] as OpInfo['kind'], wide: r[3] === '64' };
}

/** LDS bytes per workgroup, and its regions: integer ops write only INT (and outside the LDS), the float ops only their own. */
const LDS = 2304;
const INT: readonly (readonly [number, number])[] = [[0, 1024], [2048, LDS]];
const F32: readonly [number, number] = [1024, 1536];
const F64: readonly [number, number] = [1536, 2048];
const GROUPS = 2;
/** The stride kinds each opcode runs with. */
const KINDS = ['pos', 'neg', 'far', 'hi'] as const;
/**
 * Opcodes per kernel: lavapipe's compile time grows faster than the kernel (each DS atomic is a
 * serialized loop between barriers), so the opcodes are spread over small kernels.
 */
const OPS_PER_KERNEL = 2;

interface Step { readonly op: string; readonly offset: number; readonly addrs: readonly number[]; readonly exec: bigint }

// ---- the model: the ISA's rules ----

const f32 = new Float32Array(1), f32u = new Uint32Array(f32.buffer);
const f64 = new Float64Array(1), f64u = new BigUint64Array(f64.buffer);
const toF = (x: bigint, wide: boolean): number => {
  if (wide) { f64u[0] = x; return f64[0] as number; }
  f32u[0] = Number(x); return f32[0] as number;
};
const fromF = (v: number, wide: boolean): bigint => {
  if (wide) { f64[0] = v; return f64u[0] as bigint; }
  f32[0] = v; return BigInt(f32u[0] as number);
};

/** The new DS[A] of src2 op `o` from old = DS[A] and src = DS[B]. */
function apply(o: OpInfo, old: bigint, src: bigint): bigint {
  const bits = o.wide ? 64 : 32;
  const m = (1n << BigInt(bits)) - 1n;
  const s = (x: bigint) => BigInt.asIntN(bits, x);
  if (o.kind === 'f') {
    const a = toF(old, o.wide), b = toF(src, o.wide);
    // Ordinary normal numbers (and +0 read outside the LDS): the sum is exact in a double, then rounded once.
    switch (o.rule) {
      case 'add': return fromF(o.wide ? a + b : Math.fround(a + b), o.wide);
      case 'min': return fromF(Math.min(a, b), o.wide);
      case 'max': return fromF(Math.max(a, b), o.wide);
    }
    throw new Error(`no float rule ${o.rule}`);
  }
  switch (o.rule) {
    case 'add': return (old + src) & m;
    case 'sub': return (old - src) & m;
    case 'rsub': return (src - old) & m;
    case 'inc': return old >= src ? 0n : (old + 1n) & m;
    case 'dec': return old === 0n || old > src ? src : old - 1n;
    case 'min': return (o.kind === 'i' ? s(old) < s(src) : old < src) ? old : src;
    case 'max': return (o.kind === 'i' ? s(old) > s(src) : old > src) ? old : src;
    case 'and': return old & src;
    case 'or': return old | src;
    case 'xor': return old ^ src;
    case 'write': return src;
  }
  throw new Error(`no rule ${o.rule}`);
}

/** The stride in elements: offset[15] ? {A[31], A[31:17]} : {offset[14], offset[14:0]}, each sign-extended from 16 bits. */
function stride(offset: number, a: number): number {
  const field = (offset & 0x8000) !== 0 ? ((a >>> 31) << 15) | ((a >>> 17) & 0x7fff) : ((offset >>> 14) & 1) << 15 | (offset & 0x7fff);
  return field >= 0x8000 ? field - 0x10000 : field;
}

/** Runs the steps on one workgroup's LDS image, in place. */
function model(lds: Uint8Array, steps: readonly Step[]): void {
  const v = new DataView(lds.buffer, lds.byteOffset, lds.byteLength);
  const inside = (a: number) => a >= 0 && a + 4 <= lds.byteLength;
  const get = (a: number) => (inside(a) ? BigInt(v.getUint32(a, true)) : 0n);
  const put = (a: number, x: bigint) => { if (inside(a)) v.setUint32(a, Number(x & 0xffffffffn), true); };
  for (const st of steps) {
    const o = info(st.op);
    const size = o.wide ? 8 : 4;
    st.addrs.forEach((a, lane) => {
      if (((st.exec >> BigInt(lane)) & 1n) === 0n) return;
      let b = a + size * stride(st.offset, a);
      if (b < 0 || b >= 2 ** 32) b = Infinity;
      const read = (x: number) => (o.wide ? get(x) | (get(x + 4) << 32n) : get(x));
      const nv = apply(o, read(a), read(b));
      put(a, nv);
      if (o.wide) put(a + 4, nv >> 32n);
    });
  }
}

// ---- the steps ----

/** Whether op `o`'s element at `a` may be written: inside its region (float ops), or not in a float region (integer ops). */
function allowed(o: OpInfo, a: number): boolean {
  const size = o.wide ? 8 : 4;
  if (o.kind === 'f') {
    const [lo, hi] = o.wide ? F64 : F32;
    return a >= lo && a + size <= hi;
  }
  return a >= LDS || INT.some(([lo, hi]) => a >= lo && a + size <= hi) || (a + size > LDS && a < LDS && a >= 2048);
}

/** Float ops read only their own region or outside the LDS (+0). */
function readable(o: OpInfo, b: number): boolean {
  if (o.kind !== 'f') return true;
  const size = o.wide ? 8 : 4;
  const [lo, hi] = o.wide ? F64 : F32;
  return b < 0 || b >= LDS || (b >= lo && b + size <= hi);
}

type Shape = Omit<Step, 'addrs'>;

/** The steps' opcodes, offsets and EXEC masks (in the kernel's code, so the same in every workgroup). */
function makeShapes(rng: Rng, ws: number, ops: readonly string[]): Shape[] {
  const shapes: Shape[] = [];
  for (const op of ops) {
    for (const kind of KINDS) {
      let offset: number;
      switch (kind) {
        case 'pos': offset = 1 + rng.int(12); break;
        case 'neg': offset = 0x8000 - 1 - rng.int(12); break; // offset[14] set: -1 .. -12
        case 'far': offset = rng.pick([0x3fff, 0x4000, 0x7fff]); break; // +16383, -16384, -1
        case 'hi': offset = 0x8000 | rng.bits(15); break;
      }
      // Partial EXEC, the first and last lanes on; now and then every lane.
      let exec = 0n;
      for (let l = 0; l < ws; l++) if (rng.bool(0.75) || l === 0 || l === ws - 1) exec |= 1n << BigInt(l);
      if (rng.int(8) === 0) exec = (1n << BigInt(ws)) - 1n;
      shapes.push({ op, offset, exec });
    }
  }
  return shapes;
}

/** A workgroup's lane addresses for one step: random ones in the op's region, and lanes that collide with the lane below. */
function makeAddrs(rng: Rng, shape: Shape, ws: number): number[] {
  const o = info(shape.op);
  const size = o.wide ? 8 : 4;
  const hi = (shape.offset & 0x8000) !== 0;
  const s = hi ? 0 : stride(shape.offset, 0);
  const randomA = (): number => {
    const [lo, top] = o.kind === 'f' ? (o.wide ? F64 : F32) : rng.pick(INT);
    return lo + size * rng.int((top - lo) / size);
  };
  const addrs: number[] = [];
  for (let l = 0; l < ws; l++) {
    const prev = addrs[l - 1];
    const r = rng.int(12);
    let a: number;
    if (hi && r >= 8) {
      // The stride in the high bits: A at or beyond 2^17 (positive stride) or with bit 31 set (negative).
      addrs.push((((r === 8 ? rng.bits(14) + 1 : 0x4000 | rng.bits(14)) << 17) | (randomA() & 0x1ffff)) >>> 0);
      continue;
    }
    if (prev !== undefined && r === 4) a = prev; // the same A as the lane below
    else if (prev !== undefined && r === 5) a = prev + size * s; // this A is the lower lane's B
    else if (prev !== undefined && r === 6) a = prev - size * s; // this B is the lower lane's A
    else if (o.kind !== 'f' && r === 7) a = randomA() + 1 + rng.int(size - 1); // misaligned
    else if (o.kind !== 'f' && r === 8) a = rng.pick([LDS - 4, LDS, LDS + 4 * rng.int(64), 0xfffffffc]); // partly or wholly outside
    else a = randomA();
    // An A the op may write; a float op's B inside its region or outside the LDS, never in another region.
    for (let k = 0; k < 100 && !(allowed(o, a) && readable(o, a + size * s)); k++) a = randomA();
    if (!(allowed(o, a) && readable(o, a + size * s))) throw new Error(`${shape.op}: no A for stride ${s}`);
    addrs.push(a >>> 0);
  }
  return addrs;
}

// ---- the kernel ----

/**
 * s[0:1] kernarg (buffer 0 the LDS images, 1 the steps' addresses, 2 the output), s2 the
 * workgroup id. One wave per workgroup: fill the LDS, run the steps, copy the LDS out.
 */
function body(steps: readonly Shape[], wave64: boolean): string {
  const ws = wave64 ? 64 : 32;
  const setExec = (x: bigint) => [`s_mov_b32 exec_lo, 0x${(x & 0xffffffffn).toString(16)}`, ...(wave64 ? [`s_mov_b32 exec_hi, 0x${(x >> 32n).toString(16)}`] : [])];
  const lines = [
    's_load_dwordx4 s[4:7], s[0:1], 0x0',
    's_load_dwordx2 s[8:9], s[0:1], 0x10',
    's_waitcnt lgkmcnt(0)',
    `s_mul_i32 s10, s2, ${LDS}`,
    's_add_u32 s4, s4, s10', 's_addc_u32 s5, s5, 0',
    's_add_u32 s8, s8, s10', 's_addc_u32 s9, s9, 0',
    `s_mul_i32 s11, s2, ${4 * ws * steps.length}`,
    's_add_u32 s6, s6, s11', 's_addc_u32 s7, s7, 0',
    'v_lshlrev_b32 v1, 2, v0',
  ];
  for (let j = 0; j < LDS / (4 * ws); j++) lines.push(`v_add_nc_u32 v3, ${4 * ws * j}, v1`, 'global_load_dword v4, v3, s[4:5]', 's_waitcnt vmcnt(0)', 'ds_write_b32 v3, v4');
  lines.push('s_waitcnt lgkmcnt(0)');
  for (const st of steps) {
    lines.push('global_load_dword v2, v1, s[6:7]', `s_add_u32 s6, s6, ${4 * ws}`, 's_addc_u32 s7, s7, 0', 's_waitcnt vmcnt(0)',
      ...setExec(st.exec), `${st.op} v2 offset:${st.offset}`, 's_waitcnt lgkmcnt(0)', ...setExec((1n << BigInt(ws)) - 1n));
  }
  for (let j = 0; j < LDS / (4 * ws); j++) lines.push(`v_add_nc_u32 v3, ${4 * ws * j}, v1`, 'ds_read_b32 v4, v3', 's_waitcnt lgkmcnt(0)', 'global_store_dword v3, v4, s[8:9]');
  lines.push('s_endpgm');
  return lines.join('\n');
}

// ---- inputs ----

/** A random ordinary normal float of magnitude in [0.5, 128): bits. */
function normal(rng: Rng, wide: boolean): bigint {
  const sign = BigInt(rng.int(2));
  const exp = BigInt(rng.int(8) - 1);
  if (wide) return (sign << 63n) | ((1023n + exp) << 52n) | (BigInt(rng.bits(20)) << 32n) | BigInt(rng.u32());
  return (sign << 31n) | ((127n + exp) << 23n) | BigInt(rng.bits(23));
}

const SPECIAL32 = [0x7fc00000, 0xffc00001, 0x7f800001, 0x7fa00000, 0x00000000, 0x80000000, 0x7f800000, 0xff800000, 0x00000001, 0x807fffff, 0x00400000, 0x3f800000, 0xbf800000] as const;
const SPECIAL64 = [0x7ff8000000000000n, 0xfff8000000000001n, 0x7ff0000000000001n, 0x7ff4000000000000n, 0n, 0x8000000000000000n, 0x7ff0000000000000n, 0xfff0000000000000n, 1n, 0x800fffffffffffffn, 0x0008000000000000n, 0x3ff0000000000000n, 0xbff0000000000000n] as const;

/** The workgroups' LDS images: random integer regions, float regions of normal numbers (or, `special`, NaNs, zeros, infinities, subnormals among them). */
function images(rng: Rng, special: boolean): Uint8Array {
  const out = new Uint8Array(LDS * GROUPS);
  const v = new DataView(out.buffer);
  for (let g = 0; g < GROUPS; g++) {
    const at = g * LDS;
    for (const [lo, hi] of INT) for (let a = lo; a < hi; a += 4) v.setUint32(at + a, rng.pick([0, 1, 2, 0x7fffffff, 0x80000000, 0xffffffff, rng.u32(), rng.u32(), rng.int(64)]), true);
    for (let a = F32[0]; a < F32[1]; a += 4) v.setUint32(at + a, special && rng.bool(0.4) ? rng.pick(SPECIAL32) : Number(normal(rng, false)), true);
    for (let a = F64[0]; a < F64[1]; a += 8) v.setBigUint64(at + a, special && rng.bool(0.4) ? rng.pick(SPECIAL64) : normal(rng, true), true);
  }
  return out;
}

function addressBuffer(perGroup: readonly (readonly Step[])[], ws: number): Uint8Array {
  const n = perGroup[0]?.length ?? 0;
  const out = new Uint8Array(4 * ws * n * GROUPS);
  const v = new DataView(out.buffer);
  perGroup.forEach((steps, g) => steps.forEach((st, k) => st.addrs.forEach((a, l) => v.setUint32(4 * ((g * n + k) * ws + l), a, true))));
  return out;
}

/** The first differing dword of `got` against `want` in the byte ranges `only` (all when absent), or undefined. */
function firstDiff(want: Uint8Array, got: Uint8Array, only?: readonly (readonly [number, number])[]): string | undefined {
  for (let g = 0; g < GROUPS; g++) {
    for (let a = 0; a < LDS; a += 4) {
      if (only && !only.some(([lo, hi]) => a >= lo && a < hi)) continue;
      const k = g * LDS + a;
      if ([0, 1, 2, 3].some((j) => want[k + j] !== got[k + j])) {
        const hex = (b: Uint8Array) => Buffer.from(b.subarray(k, k + 4)).toString('hex');
        return `group ${g} LDS byte 0x${a.toString(16)}: want ${hex(want)}, got ${hex(got)}`;
      }
    }
  }
  return undefined;
}

const TARGETS: readonly Target[] = ['gfx1013', 'gfx1010'];

test('the test lists every src2 opcode of the ISA table, on gfx1010 and gfx1013 only', () => {
  for (const t of ['gfx1010', 'gfx1013', 'gfx1030'] as const) {
    const names = ISA_TABLE.filter((d) => hasTarget(d, t) && /_src2_/.test(d.mnemonic)).map((d) => d.mnemonic).sort();
    assert.deepEqual(names, t === 'gfx1030' ? [] : [...OPS].sort(), t);
  }
});

test('the gds=1 src2 forms stay refused by both engines', () => {
  for (const target of TARGETS) {
    const shader = get(assemble(target, [{ name: 'src2_gds', body: 'v_mov_b32 v1, 0\nds_add_src2_u32 v1 offset:4 gds\ns_endpgm', directives: [`.amdhsa_group_segment_fixed_size ${LDS}`] }]), 'src2_gds');
    assert.throws(() => runKernel(shader, [], { block: [32, 1, 1] }), /ds_add_src2_u32 with gds \(global data share\) is not implemented/);
    assert.throws(() => recompile(shader, { profile: LAVAPIPE_PROFILE }), /ds_add_src2_u32 with gds \(global data share\) is not translated/);
  }
});

test('the model: the strides of both encodings (offset field, offset bit 15 with the address high bits)', () => {
  assert.equal(stride(1, 0), 1);
  assert.equal(stride(0x3fff, 0), 16383);
  assert.equal(stride(0x4000, 0), -16384);
  assert.equal(stride(0x7fff, 0), -1);
  assert.equal(stride(0x8000 | 5, 0x100), 0);
  assert.equal(stride(0x8000, 3 << 17), 3);
  assert.equal(stride(0x8000, 0xfffe0000), -1);
  assert.equal(stride(0x8000, 0x80000000), -16384);
  // A three-lane chain on 32-bit adds, stride +1: lane 0 reads DS[4] before lane 1 adds DS[8] into it.
  const lds = new Uint8Array(16);
  const v = new DataView(lds.buffer);
  [1, 10, 100, 1000].forEach((x, k) => v.setUint32(4 * k, x, true));
  model(lds, [{ op: 'ds_add_src2_u32', offset: 1, addrs: [0, 4, 8, 12], exec: 0b1111n }]);
  assert.deepEqual([0, 1, 2, 3].map((k) => v.getUint32(4 * k, true)), [11, 110, 1100, 1000]);
  // Reverse order of the same chain (stride -1): each lane sees the lower lane's write.
  [1, 10, 100, 1000].forEach((x, k) => v.setUint32(4 * k, x, true));
  model(lds, [{ op: 'ds_add_src2_u32', offset: 0x7fff, addrs: [4, 8, 12, 0], exec: 0b1111n }]);
  assert.deepEqual([0, 1, 2, 3].map((k) => v.getUint32(4 * k, true)), [1, 11, 111, 1111]);
});

/** The opcodes in kernels of OPS_PER_KERNEL. */
function chunks(ops: readonly string[]): string[][] {
  const out: string[][] = [];
  for (let k = 0; k < ops.length; k += OPS_PER_KERNEL) out.push(ops.slice(k, k + OPS_PER_KERNEL));
  return out;
}

for (const special of [false, true]) {
  test(special
    ? 'DS src2 float forms: NaNs, signed zeros, infinities and subnormals in the float regions, the three engines equal (integer regions equal to the ISA rules)'
    : 'DS src2 forms (every opcode, both stride encodings, partial EXEC, colliding lanes, out-of-range addresses) on gfx1013 and gfx1010, wave32 and wave64, equal to the ISA rules on three engines', async () => {
    assert.ok(LVP, 'lavapipe (mesa-vulkan-drivers) is not installed');
    const dev = VulkanDevice.open({ driverFiles: LVP, validation: true });
    const rng = new Rng(special ? 0x5e2c : 0x5c2);
    // The special values matter to the float opcodes only.
    const ops = special ? OPS.filter((op) => info(op).kind === 'f') : OPS;
    try {
      for (const target of TARGETS) {
        for (const wave64 of [false, true]) {
          const ws = wave64 ? 64 : 32;
          // Each kernel's opcodes, offsets and EXEC masks are in its code, each workgroup's addresses in a buffer.
          const kernels = chunks(ops).map((group, k) => {
            const shapes = makeShapes(rng, ws, group);
            const name = `src2_${target}_w${ws}${special ? '_special' : ''}_${k}`;
            return { name, shapes, spec: { name, body: body(shapes, wave64), wave64, vgprs: 8, sgprs: 16, directives: ['.amdhsa_system_sgpr_workgroup_id_x 1', `.amdhsa_group_segment_fixed_size ${LDS}`] } };
          });
          const shaders = assemble(target, kernels.map((k) => k.spec));
          for (const { name, shapes } of kernels) {
            const shader = get(shaders, name);
            assert.equal(shader.info.ldsSize, LDS);
            spirvVal(recompile(shader, { profile: LAVAPIPE_PROFILE }).spirv, name);
            const perGroup = Array.from({ length: GROUPS }, () => shapes.map((sh) => ({ ...sh, addrs: makeAddrs(rng, sh, ws) })));
            const init = images(rng, special);
            const want = init.slice();
            perGroup.forEach((steps, g) => model(want.subarray(g * LDS, (g + 1) * LDS), steps));
            const run = { shader, buffers: [init, addressBuffer(perGroup, ws), new Uint8Array(LDS * GROUPS)], grid: [GROUPS * ws, 1, 1] as const, block: [ws, 1, 1] as const };
            const [ref, vk] = await both(dev, run);
            const ir = irRun({ ...run, scalars: [] });
            const outs: [string, Uint8Array][] = [['interpreter', ref[2] as Uint8Array], ['IR interpreter', ir[2] as Uint8Array], ['Vulkan', vk[2] as Uint8Array]];
            for (const [engine, got] of outs) {
              const d = firstDiff(want, got, special ? INT : undefined);
              assert.equal(d, undefined, `${name} (${shapes.map((x) => x.op).join(', ')}) ${engine}: ${d ?? ''}`);
              if (special) {
                const e = firstDiff(ref[2] as Uint8Array, got);
                assert.equal(e, undefined, `${name} ${engine} against the interpreter: ${e ?? ''}`);
              }
            }
            // Not vacuous: the steps changed the LDS.
            assert.ok(firstDiff(init, want) !== undefined, `${name}: the model changed nothing`);
          }
        }
      }
    } finally {
      dev.close();
    }
  });
}
