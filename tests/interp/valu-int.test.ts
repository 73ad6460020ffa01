// An independent check of the interpreter's integer VALU (VOP1/VOP2/VOP3/VOPC, 16/32/64-bit,
// carries, cndmask, lane ops, mbcnt, perm, bfe, sad, med3, ...) and of the VALU executor's
// variants (e64 op_sel on 16-bit ops, DPP16 every control with row/bank masks, bound_ctrl and fi,
// DPP8, SDWA selects/sext/dst_sel/dst_unused). Kernels are assembled by llvm-mc-19 (wave32 and
// wave64) and run by the interpreter on random inputs from fast-check (plus edge cases); the
// expected values come from the models below, written from the RDNA2 ISA reference pseudocode
// ("Vector ALU instructions", DPP/SDWA sections) with BigInt arithmetic, never from the
// interpreter. Where the ISA text is ambiguous, the comment at the model says what was picked.
//
// Kernel layout: work-item i loads 12 dwords at in[16 i]: v10..v13 (A, B, C, X), v14..v15,
// v16..v17 (the 'old' destination: v20/v21 are set from them before each case), v18 (bit 0: the
// lane's bit of the carry-in / select mask), v19 (bits 1:0 != 0: the lane is on in EXEC). Each
// case writes v20 (v[20:21] for 64-bit results) and/or a lane mask (moved to v22/v23); results
// go to out[i * stride + slot]. Lanes off in EXEC store nothing (the buffer keeps its fill).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { assemble, dwords, get, readDwords, runKernel } from './harness.js';
import type { Shader } from '../../src/container/shader.js';

const M32 = 0xffffffffn;
const M64 = (1n << 64n) - 1n;
const FILL = 0xcdcdcdcd;

interface Lane {
  readonly a: number; readonly b: number; readonly c: number; readonly x: number;
  readonly a64: bigint; readonly b64: bigint; readonly c64: bigint;
  readonly old: number; readonly old1: number;
  readonly m: boolean; readonly act: boolean; readonly lane: number;
}
/** What a case computes for one active lane: the vdst value (32 or 64 bits) and the lane's mask bit. undefined: not checked (ambiguous). */
type Out = { r?: bigint; m?: boolean } | undefined;
interface Case {
  readonly name: string;
  /** Assembly; D/A/B/C... are substituted, {VCC} {SD} {M} {EXEC} {MOV} by wave size. */
  readonly asm: string;
  /** Copy the saved mask (v18 bit 0 per lane) into VCC first. */
  readonly vcc?: boolean;
  /** 'v': v20; 'v64': v[20:21]; 'none'. */
  readonly res: 'v' | 'v64' | 'none';
  /** Where the lane mask result is: s22 (s[22:23]) or vcc; none. */
  readonly mask?: 'sd' | 'vcc';
  readonly model: (x: Lane, wave: readonly Lane[]) => Out;
}

// --- helpers for the models (two's complement on BigInt) ---
const u32 = (v: number | bigint) => BigInt.asUintN(32, BigInt(v));
const s32 = (v: number | bigint) => BigInt.asIntN(32, BigInt(v));
const u16 = (v: number | bigint) => BigInt.asUintN(16, BigInt(v));
const s16 = (v: number | bigint) => BigInt.asIntN(16, BigInt(v));
const u24 = (v: number | bigint) => BigInt.asUintN(24, BigInt(v));
const s24 = (v: number | bigint) => BigInt.asIntN(24, BigInt(v));
const bit = (v: bigint, n: number | bigint) => (v >> BigInt(n)) & 1n;
const popc = (v: bigint) => { let n = 0n; for (let x = v; x; x >>= 1n) n += x & 1n; return n; };
const minB = (...v: bigint[]) => v.reduce((p, q) => (q < p ? q : p));
const maxB = (...v: bigint[]) => v.reduce((p, q) => (q > p ? q : p));
const med3B = (p: bigint, q: bigint, r: bigint) => [p, q, r].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0))[1] ?? 0n;
const absB = (v: bigint) => (v < 0n ? -v : v);
const clampB = (v: bigint, lo: bigint, hi: bigint) => (v < lo ? lo : v > hi ? hi : v);
/** A 16-bit result lands in the low half; gfx10 keeps the high half of the destination. */
const lo16 = (x: Lane, r: bigint) => (u32(x.old) & 0xffff0000n) | u16(r);
const hi16 = (x: Lane, r: bigint) => (u32(x.old) & 0xffffn) | (u16(r) << 16n);
const half = (v: number, hi: boolean) => (hi ? u32(v) >> 16n : u32(v) & 0xffffn);

const v = (r: bigint): Out => ({ r });

// --- the cases ---
const VOP2_32: [string, (a: bigint, b: bigint) => bigint][] = [
  ['v_mul_i32_i24', (a, b) => s24(a) * s24(b)],
  ['v_mul_hi_i32_i24', (a, b) => (s24(a) * s24(b)) >> 32n],
  ['v_mul_u32_u24', (a, b) => u24(a) * u24(b)],
  ['v_mul_hi_u32_u24', (a, b) => (u24(a) * u24(b)) >> 32n],
  ['v_min_i32', (a, b) => minB(s32(a), s32(b))], ['v_max_i32', (a, b) => maxB(s32(a), s32(b))],
  ['v_min_u32', (a, b) => minB(a, b)], ['v_max_u32', (a, b) => maxB(a, b)],
  ['v_lshrrev_b32', (a, b) => b >> (a & 31n)], ['v_ashrrev_i32', (a, b) => s32(b) >> (a & 31n)],
  ['v_lshlrev_b32', (a, b) => b << (a & 31n)],
  ['v_and_b32', (a, b) => a & b], ['v_or_b32', (a, b) => a | b], ['v_xor_b32', (a, b) => a ^ b], ['v_xnor_b32', (a, b) => ~(a ^ b)],
  ['v_add_nc_u32', (a, b) => a + b], ['v_sub_nc_u32', (a, b) => a - b], ['v_subrev_nc_u32', (a, b) => b - a],
];
// VOP3-only two-source ops.
const VOP3_2: [string, (a: bigint, b: bigint, lane: number) => bigint][] = [
  ['v_add_nc_i32', (a, b) => s32(a) + s32(b)], ['v_sub_nc_i32', (a, b) => s32(a) - s32(b)],
  ['v_mul_lo_u32', (a, b) => a * b],
  ['v_mul_hi_u32', (a, b) => (a * b) >> 32n], ['v_mul_hi_i32', (a, b) => (s32(a) * s32(b)) >> 32n],
  ['v_bfm_b32', (a, b) => ((1n << (a & 31n)) - 1n) << (b & 31n)],
  ['v_bcnt_u32_b32', (a, b) => popc(a) + b],
  // ThreadMask = (1 << lane) - 1; mbcnt_lo counts bits 31:0 of S0 & mask, mbcnt_hi bits 63:32.
  ['v_mbcnt_lo_u32_b32', (a, b, l) => popc(a & ((1n << BigInt(l)) - 1n) & M32) + b],
  ['v_mbcnt_hi_u32_b32', (a, b, l) => popc(a & (((1n << BigInt(l)) - 1n) >> 32n)) + b],
  ['v_cvt_pk_u16_u32', (a, b) => minB(a, 0xffffn) | (minB(b, 0xffffn) << 16n)],
  ['v_cvt_pk_i16_i32', (a, b) => u16(clampB(s32(a), -0x8000n, 0x7fffn)) | (u16(clampB(s32(b), -0x8000n, 0x7fffn)) << 16n)],
];
function bytePermute(data: bigint, sel: bigint): bigint {
  if (sel >= 13n) return 0xffn;
  if (sel === 12n) return 0n;
  if (sel >= 8n) return bit(data, [15, 31, 47, 63][Number(sel - 8n)] ?? 0) ? 0xffn : 0n;
  return (data >> (sel * 8n)) & 0xffn;
}
const bytes = (v: bigint) => [0n, 8n, 16n, 24n].map((k) => (v >> k) & 0xffn);
const VOP3_3: [string, (a: bigint, b: bigint, c: bigint) => bigint | undefined][] = [
  ['v_mad_i32_i24', (a, b, c) => s24(a) * s24(b) + c], ['v_mad_u32_u24', (a, b, c) => u24(a) * u24(b) + c],
  ['v_bfe_u32', (a, b, c) => (a >> (b & 31n)) & ((1n << (c & 31n)) - 1n)],
  // ISA: D.i = (S0.i >> S1[4:0]) & ((1 << S2[4:0]) - 1), sign-extended from the field width (S0 shifted as a signed value).
  ['v_bfe_i32', (a, b, c) => { const w = c & 31n; if (w === 0n) return 0n; return BigInt.asIntN(Number(w), (s32(a) >> (b & 31n)) & ((1n << w) - 1n)); }],
  ['v_bfi_b32', (a, b, c) => (a & b) | (~a & c)],
  ['v_alignbit_b32', (a, b, c) => ((a << 32n) | b) >> (c & 31n)],
  ['v_alignbyte_b32', (a, b, c) => ((a << 32n) | b) >> ((c & 3n) * 8n)],
  ['v_min3_i32', (a, b, c) => minB(s32(a), s32(b), s32(c))], ['v_max3_i32', (a, b, c) => maxB(s32(a), s32(b), s32(c))],
  ['v_min3_u32', (a, b, c) => minB(a, b, c)], ['v_max3_u32', (a, b, c) => maxB(a, b, c)],
  ['v_med3_i32', (a, b, c) => med3B(s32(a), s32(b), s32(c))], ['v_med3_u32', (a, b, c) => med3B(a, b, c)],
  ['v_xor3_b32', (a, b, c) => a ^ b ^ c], ['v_or3_b32', (a, b, c) => a | b | c], ['v_and_or_b32', (a, b, c) => (a & b) | c],
  ['v_lshl_or_b32', (a, b, c) => (a << (b & 31n)) | c], ['v_lshl_add_u32', (a, b, c) => (a << (b & 31n)) + c],
  ['v_add_lshl_u32', (a, b, c) => (a + b) << (c & 31n)], ['v_add3_u32', (a, b, c) => a + b + c], ['v_xad_u32', (a, b, c) => (a ^ b) + c],
  ['v_perm_b32', (a, b, c) => { const d = (a << 32n) | b; let r = 0n; for (let k = 0n; k < 4n; k++) r |= bytePermute(d, (c >> (8n * k)) & 0xffn) << (8n * k); return r; }],
  ['v_mad_u32_u16', (a, b, c) => u16(a) * u16(b) + c], ['v_mad_i32_i16', (a, b, c) => s16(a) * s16(b) + c],
  ['v_sad_u8', (a, b, c) => bytes(a).reduce((s, x, k) => s + absB(x - (bytes(b)[k] ?? 0n)), c)],
  ['v_sad_hi_u8', (a, b, c) => (bytes(a).reduce((s, x, k) => s + absB(x - (bytes(b)[k] ?? 0n)), 0n) << 16n) + c],
  ['v_sad_u16', (a, b, c) => absB(u16(a) - u16(b)) + absB((a >> 16n) - (b >> 16n)) + c],
  ['v_sad_u32', (a, b, c) => absB(a - b) + c],
  ['v_lerp_u8', (a, b, c) => bytes(a).reduce((r, x, k) => r | (((x + (bytes(b)[k] ?? 0n) + bit(c, 8 * k)) >> 1n) << (8n * BigInt(k))), 0n)],
];
const VOP1_32: [string, (a: bigint) => bigint][] = [
  ['v_mov_b32', (a) => a], ['v_not_b32', (a) => ~a],
  ['v_bfrev_b32', (a) => { let r = 0n; for (let k = 0n; k < 32n; k++) r |= bit(a, k) << (31n - k); return r; }],
  // D = -1 if S0 == 0, else the number of zeros above the most significant one.
  ['v_ffbh_u32', (a) => { for (let i = 0n; i < 32n; i++) if (bit(a, 31n - i)) return i; return M32; }],
  ['v_ffbl_b32', (a) => { for (let i = 0n; i < 32n; i++) if (bit(a, i)) return i; return M32; }],
  // D = -1 if all bits equal the sign bit; else the first i >= 1 where bit 31-i differs from bit 31.
  ['v_ffbh_i32', (a) => { for (let i = 1n; i < 32n; i++) if (bit(a, 31n - i) !== bit(a, 31n)) return i; return M32; }],
];
const VOP2_16: [string, (a: bigint, b: bigint) => bigint][] = [
  ['v_mul_lo_u16', (a, b) => a * b], ['v_lshlrev_b16', (a, b) => b << (a & 15n)], ['v_lshrrev_b16', (a, b) => b >> (a & 15n)],
  ['v_ashrrev_i16', (a, b) => s16(b) >> (a & 15n)],
  ['v_max_u16', (a, b) => maxB(a, b)], ['v_min_u16', (a, b) => minB(a, b)],
  ['v_max_i16', (a, b) => maxB(s16(a), s16(b))], ['v_min_i16', (a, b) => minB(s16(a), s16(b))],
  ['v_add_nc_u16', (a, b) => a + b], ['v_sub_nc_u16', (a, b) => a - b],
];
const VOP3_16_2: [string, (a: bigint, b: bigint) => bigint][] = [
  ['v_add_nc_i16', (a, b) => s16(a) + s16(b)], ['v_sub_nc_i16', (a, b) => s16(a) - s16(b)],
];
const VOP3_16_3: [string, (a: bigint, b: bigint, c: bigint) => bigint][] = [
  ['v_mad_u16', (a, b, c) => a * b + c], ['v_mad_i16', (a, b, c) => s16(a) * s16(b) + s16(c)],
  ['v_min3_i16', (a, b, c) => minB(s16(a), s16(b), s16(c))], ['v_max3_i16', (a, b, c) => maxB(s16(a), s16(b), s16(c))],
  ['v_min3_u16', (a, b, c) => minB(a, b, c)], ['v_max3_u16', (a, b, c) => maxB(a, b, c)],
  ['v_med3_i16', (a, b, c) => med3B(s16(a), s16(b), s16(c))], ['v_med3_u16', (a, b, c) => med3B(a, b, c)],
];
const CMPS: [string, (a: bigint, b: bigint) => boolean][] = [
  ['f', () => false], ['lt', (a, b) => a < b], ['eq', (a, b) => a === b], ['le', (a, b) => a <= b],
  ['gt', (a, b) => a > b], ['ne', (a, b) => a !== b], ['ge', (a, b) => a >= b], ['t', () => true],
];

function basicCases(): Case[] {
  const cs: Case[] = [];
  for (const [n, f] of VOP2_32) {
    cs.push({ name: `${n}_e32`, asm: `${n}_e32 v20, v10, v11`, res: 'v', model: (x) => v(u32(f(u32(x.a), u32(x.b)))) });
    cs.push({ name: `${n}_e64`, asm: `${n}_e64 v20, v10, v11`, res: 'v', model: (x) => v(u32(f(u32(x.a), u32(x.b)))) });
    // An SGPR / inline constant / literal as src0 (the same value for every lane).
    cs.push({ name: `${n}_lit`, asm: `${n} v20, 0x12345678, v11`, res: 'v', model: (x) => v(u32(f(0x12345678n, u32(x.b)))) });
    cs.push({ name: `${n}_inl`, asm: `${n} v20, -7, v11`, res: 'v', model: (x) => v(u32(f(u32(-7), u32(x.b)))) });
  }
  for (const [n, f] of VOP3_2) {
    cs.push({ name: n, asm: `${n} v20, v10, v11`, res: 'v', model: (x) => v(u32(f(u32(x.a), u32(x.b), x.lane))) });
  }
  for (const [n, f] of VOP3_3) {
    cs.push({ name: n, asm: `${n} v20, v10, v11, v12`, res: 'v', model: (x) => { const r = f(u32(x.a), u32(x.b), u32(x.c)); return r === undefined ? undefined : v(u32(r)); } });
  }
  for (const [n, f] of VOP1_32) {
    cs.push({ name: `${n}_e32`, asm: `${n}_e32 v20, v10`, res: 'v', model: (x) => v(u32(f(u32(x.a)))) });
    cs.push({ name: `${n}_e64`, asm: `${n}_e64 v20, v10`, res: 'v', model: (x) => v(u32(f(u32(x.a)))) });
  }
  // Saturating (clamp) forms: unsigned to [0, 2^32-1], signed to [-2^31, 2^31-1].
  cs.push({ name: 'v_add_nc_u32_clamp', asm: 'v_add_nc_u32_e64 v20, v10, v11 clamp', res: 'v', model: (x) => v(clampB(u32(x.a) + u32(x.b), 0n, M32)) });
  cs.push({ name: 'v_sub_nc_u32_clamp', asm: 'v_sub_nc_u32_e64 v20, v10, v11 clamp', res: 'v', model: (x) => v(clampB(u32(x.a) - u32(x.b), 0n, M32)) });
  cs.push({ name: 'v_add_nc_i32_clamp', asm: 'v_add_nc_i32 v20, v10, v11 clamp', res: 'v', model: (x) => v(u32(clampB(s32(x.a) + s32(x.b), -(1n << 31n), (1n << 31n) - 1n))) });
  cs.push({ name: 'v_sub_nc_i32_clamp', asm: 'v_sub_nc_i32 v20, v10, v11 clamp', res: 'v', model: (x) => v(u32(clampB(s32(x.a) - s32(x.b), -(1n << 31n), (1n << 31n) - 1n))) });
  // 64-bit shifts: D = S1 shifted by S0[5:0].
  cs.push({ name: 'v_lshlrev_b64', asm: 'v_lshlrev_b64 v[20:21], v10, v[12:13]', res: 'v64', model: (x) => v((x.b64 << (u32(x.a) & 63n)) & M64) });
  cs.push({ name: 'v_lshrrev_b64', asm: 'v_lshrrev_b64 v[20:21], v10, v[12:13]', res: 'v64', model: (x) => v(x.b64 >> (u32(x.a) & 63n)) });
  cs.push({ name: 'v_ashrrev_i64', asm: 'v_ashrrev_i64 v[20:21], v10, v[12:13]', res: 'v64', model: (x) => v(BigInt.asUintN(64, BigInt.asIntN(64, x.b64) >> (u32(x.a) & 63n))) });
  // {carry, D.u64} = S0.u32 * S1.u32 + S2.u64 (a 65-bit result; the mask bit is bit 64).
  cs.push({ name: 'v_mad_u64_u32', asm: 'v_mad_u64_u32 v[20:21], {SD}, v10, v11, v[14:15]', res: 'v64', mask: 'sd',
    model: (x) => { const r = u32(x.a) * u32(x.b) + x.c64; return { r: r & M64, m: bit(r, 64) === 1n }; } });
  // {vcc_out, D.i64} = S0.i32 * S1.i32 + S2.i64: the ISA text does not settle what vcc_out is for
  // the signed form (bit 64 of the 65-bit two's complement sum, or signed overflow), so only the
  // 64-bit result is checked.
  cs.push({ name: 'v_mad_i64_i32', asm: 'v_mad_i64_i32 v[20:21], {SD}, v10, v11, v[14:15]', res: 'v64',
    model: (x) => v(BigInt.asUintN(64, s32(x.a) * s32(x.b) + BigInt.asIntN(64, x.c64))) });
  // Carries: VOP2 (VCC) and VOP3b (any SGPR destination), with and without carry-in.
  const carry = (f: (a: bigint, b: bigint, k: bigint) => bigint) => (x: Lane): Out => { const r = f(u32(x.a), u32(x.b), x.m ? 1n : 0n); return { r: u32(r), m: r < 0n || r > M32 }; };
  const CARRY: [string, (a: bigint, b: bigint, k: bigint) => bigint, boolean][] = [
    ['v_add_co_u32', (a, b) => a + b, false], ['v_sub_co_u32', (a, b) => a - b, false], ['v_subrev_co_u32', (a, b) => b - a, false],
    ['v_add_co_ci_u32', (a, b, k) => a + b + k, true], ['v_sub_co_ci_u32', (a, b, k) => a - b - k, true], ['v_subrev_co_ci_u32', (a, b, k) => b - a - k, true],
  ];
  for (const [n, f, ci] of CARRY) {
    // gfx10 has the carry-out-only forms as VOP3b alone.
    if (ci) cs.push({ name: `${n}_e32`, asm: `${n}_e32 v20, {VCC}, v10, v11, {VCC}`, vcc: true, res: 'v', mask: 'vcc', model: carry(f) });
    cs.push({ name: `${n}_e64`, asm: ci ? `${n}_e64 v20, {SD}, v10, v11, {M}` : `${n}_e64 v20, {SD}, v10, v11`, res: 'v', mask: 'sd', model: carry(f) });
  }
  cs.push({ name: 'v_add_co_u32_clamp', asm: 'v_add_co_u32_e64 v20, {SD}, v10, v11 clamp', res: 'v', mask: 'sd', model: (x) => { const r = u32(x.a) + u32(x.b); return { r: clampB(r, 0n, M32), m: r > M32 }; } });
  cs.push({ name: 'v_sub_co_u32_clamp', asm: 'v_sub_co_u32_e64 v20, {SD}, v10, v11 clamp', res: 'v', mask: 'sd', model: (x) => { const r = u32(x.a) - u32(x.b); return { r: clampB(r, 0n, M32), m: r < 0n }; } });
  cs.push({ name: 'v_cndmask_b32_e32', asm: 'v_cndmask_b32_e32 v20, v10, v11, {VCC}', vcc: true, res: 'v', model: (x) => v(u32(x.m ? x.b : x.a)) });
  cs.push({ name: 'v_cndmask_b32_e64', asm: 'v_cndmask_b32_e64 v20, v10, v11, {M}', res: 'v', model: (x) => v(u32(x.m ? x.b : x.a)) });
  cs.push({ name: 'v_cndmask_b32_e64_const', asm: 'v_cndmask_b32_e64 v20, 5, -1, {M}', res: 'v', model: (x) => v(x.m ? M32 : 5n) });
  // 16-bit ops: e32 (low halves, result to the low half, high half kept) and e64 with op_sel.
  // gfx10 has these only as VOP3 without op_sel: low halves in, the result to the low half.
  for (const [n, f] of VOP2_16) {
    const withOpsel = n === 'v_add_nc_u16' || n === 'v_sub_nc_u16';
    cs.push({ name: n, asm: `${n} v20, v10, v11`, res: 'v', model: (x) => v(lo16(x, f(half(x.a, false), half(x.b, false)))) });
    if (!withOpsel) continue;
    for (const sel of [1, 2, 3, 8, 9, 15]) {
      const s0 = (sel & 1) !== 0, s1 = (sel & 2) !== 0, dh = (sel & 8) !== 0;
      cs.push({ name: `${n}_opsel${sel}`, asm: `${n}_e64 v20, v10, v11 op_sel:[${+s0},${+s1},${+dh}]`, res: 'v', model: (x) => { const r = f(half(x.a, s0), half(x.b, s1)); return v(dh ? hi16(x, r) : lo16(x, r)); } });
    }
  }
  for (const [n, f] of VOP3_16_2) {
    for (const sel of [0, 3, 8, 11]) {
      const s0 = (sel & 1) !== 0, s1 = (sel & 2) !== 0, dh = (sel & 8) !== 0;
      cs.push({ name: `${n}_opsel${sel}`, asm: `${n} v20, v10, v11 op_sel:[${+s0},${+s1},${+dh}]`, res: 'v', model: (x) => { const r = f(half(x.a, s0), half(x.b, s1)); return v(dh ? hi16(x, r) : lo16(x, r)); } });
    }
    cs.push({ name: `${n}_clamp`, asm: `${n} v20, v10, v11 clamp`, res: 'v', model: (x) => v(lo16(x, clampB(f(half(x.a, false), half(x.b, false)), -0x8000n, 0x7fffn))) });
  }
  cs.push({ name: 'v_add_nc_u16_clamp', asm: 'v_add_nc_u16 v20, v10, v11 clamp', res: 'v', model: (x) => v(lo16(x, clampB(half(x.a, false) + half(x.b, false), 0n, 0xffffn))) });
  cs.push({ name: 'v_sub_nc_u16_clamp', asm: 'v_sub_nc_u16 v20, v10, v11 clamp', res: 'v', model: (x) => v(lo16(x, clampB(half(x.a, false) - half(x.b, false), 0n, 0xffffn))) });
  for (const [n, f] of VOP3_16_3) {
    for (const sel of [0, 7, 8, 5]) {
      const s0 = (sel & 1) !== 0, s1 = (sel & 2) !== 0, s2 = (sel & 4) !== 0, dh = (sel & 8) !== 0;
      cs.push({ name: `${n}_opsel${sel}`, asm: `${n} v20, v10, v11, v12 op_sel:[${+s0},${+s1},${+s2},${+dh}]`, res: 'v', model: (x) => { const r = f(half(x.a, s0), half(x.b, s1), half(x.c, s2)); return v(dh ? hi16(x, r) : lo16(x, r)); } });
    }
  }
  cs.push({ name: 'v_mad_u16_clamp', asm: 'v_mad_u16 v20, v10, v11, v12 clamp', res: 'v', model: (x) => v(lo16(x, clampB(half(x.a, false) * half(x.b, false) + half(x.c, false), 0n, 0xffffn))) });
  cs.push({ name: 'v_mad_i16_clamp', asm: 'v_mad_i16 v20, v10, v11, v12 clamp', res: 'v', model: (x) => v(lo16(x, clampB(s16(x.a) * s16(x.b) + s16(x.c), -0x8000n, 0x7fffn))) });
  // 16-bit sources of 32-bit-result ops take op_sel halves too.
  cs.push({ name: 'v_mad_u32_u16_opsel', asm: 'v_mad_u32_u16 v20, v10, v11, v12 op_sel:[1,0,0,0]', res: 'v', model: (x) => v(u32(half(x.a, true) * half(x.b, false) + u32(x.c))) });
  cs.push({ name: 'v_mad_i32_i16_opsel', asm: 'v_mad_i32_i16 v20, v10, v11, v12 op_sel:[0,1,0,0]', res: 'v', model: (x) => v(u32(s16(half(x.a, false)) * s16(half(x.b, true)) + u32(x.c))) });
  return cs;
}

function compareCases(): Case[] {
  const cs: Case[] = [];
  const conv: Record<string, (v: number) => bigint> = { i32: s32, u32, i16: (q) => s16(q), u16: (q) => u16(q) };
  for (const [c, f] of CMPS) {
    for (const t of ['i32', 'u32', 'i16', 'u16']) {
      if ((c === 'f' || c === 't') && t.endsWith('16')) continue; // gfx10 has no v_cmp_f/t_*16
      const k = conv[t] ?? u32;
      cs.push({ name: `v_cmp_${c}_${t}_e32`, asm: `v_cmp_${c}_${t}_e32 {VCC}, v10, v11`, res: 'none', mask: 'vcc', model: (x) => ({ m: f(k(x.a), k(x.b)) }) });
      cs.push({ name: `v_cmp_${c}_${t}_e64`, asm: `v_cmp_${c}_${t}_e64 {SD}, v10, v11`, res: 'none', mask: 'sd', model: (x) => ({ m: f(k(x.a), k(x.b)) }) });
      // cmpx: EXEC = compare & EXEC; read back through s22, then EXEC restored.
      cs.push({ name: `v_cmpx_${c}_${t}`, asm: `{MOV} s26, {EXEC}\nv_cmpx_${c}_${t}_e32 v10, v11\n{MOV} {SD}, {EXEC}\n{MOV} {EXEC}, s26`, res: 'none', mask: 'sd', model: (x) => ({ m: f(k(x.a), k(x.b)) }) });
    }
    for (const t of ['i64', 'u64']) {
      const k = (q: bigint) => (t === 'i64' ? BigInt.asIntN(64, q) : q);
      cs.push({ name: `v_cmp_${c}_${t}_e32`, asm: `v_cmp_${c}_${t}_e32 {VCC}, v[10:11], v[12:13]`, res: 'none', mask: 'vcc', model: (x) => ({ m: f(k(x.a64), k(x.b64)) }) });
      cs.push({ name: `v_cmp_${c}_${t}_e64`, asm: `v_cmp_${c}_${t}_e64 {SD}, v[10:11], v[12:13]`, res: 'none', mask: 'sd', model: (x) => ({ m: f(k(x.a64), k(x.b64)) }) });
      cs.push({ name: `v_cmpx_${c}_${t}`, asm: `{MOV} s26, {EXEC}\nv_cmpx_${c}_${t}_e64 v[10:11], v[12:13]\n{MOV} {SD}, {EXEC}\n{MOV} {EXEC}, s26`, res: 'none', mask: 'sd', model: (x) => ({ m: f(k(x.a64), k(x.b64)) }) });
    }
  }
  // Lane-crossing and scalar-result ops.
  cs.push({ name: 'v_readfirstlane_b32', asm: 'v_readfirstlane_b32 s24, v10\nv_mov_b32 v20, s24', res: 'v', model: (_x, w) => v(u32(w.find((l) => l.act)?.a ?? 0)) });
  for (const lane of [0, 5, 31, 37, 63, 64, 100]) {
    cs.push({ name: `v_readlane_b32_${lane}`, asm: `s_mov_b32 s25, ${lane}\nv_readlane_b32 s24, v10, s25\nv_mov_b32 v20, s24`, res: 'v',
      // The lane select is S1[4:0] in wave32, S1[5:0] in wave64; it ignores EXEC.
      model: (_x, w) => v(u32(w[lane & (w.length - 1)]?.a ?? 0)) });
    cs.push({ name: `v_writelane_b32_${lane}`, asm: `s_mov_b32 s25, ${lane}\nv_writelane_b32 v20, 0x1234abcd, s25`, res: 'v',
      model: (x, w) => v(x.lane === (lane & (w.length - 1)) ? 0x1234abcdn : u32(x.old)) });
  }
  cs.push({ name: 'v_writelane_b32_sgpr', asm: 'v_readfirstlane_b32 s24, v10\nv_writelane_b32 v20, s24, 3', res: 'v',
    model: (x, w) => v(x.lane === 3 ? u32(w.find((l) => l.act)?.a ?? 0) : u32(x.old)) });
  cs.push({ name: 'v_swap_b32', asm: 'v_mov_b32 v24, v10\nv_swap_b32 v20, v24\nv_add_nc_u32 v20, v20, v24', res: 'v', model: (x) => v(u32(x.a + x.old)) });
  // v_movrel*: M0-indexed VGPRs (v10 + 2 = v12).
  cs.push({ name: 'v_movrels_b32', asm: 's_mov_b32 m0, 2\nv_movrels_b32 v20, v10', res: 'v', model: (x) => v(u32(x.c)) });
  cs.push({ name: 'v_movreld_b32', asm: 's_mov_b32 m0, 2\nv_movreld_b32 v18, v11', res: 'v', model: (x) => v(u32(x.b)) });
  cs.push({ name: 'v_movrelsd_b32', asm: 's_mov_b32 m0, 1\nv_movrelsd_b32 v19, v10', res: 'v', model: (x) => v(u32(x.b)) });
  // v_movrelsd_2_b32: source v10 + M0[9:0] (v11), destination v10 + M0[25:16] (v20); M0's other bits unused.
  cs.push({ name: 'v_movrelsd_2_b32', asm: 's_mov_b32 m0, 0xfc0afc01\nv_movrelsd_2_b32 v10, v10', res: 'v', model: (x) => v(u32(x.b)) });
  // v_swaprel_b32: v[11 + M0[25:16]] = v20 and v[10 + M0[9:0]] = v12 swap.
  cs.push({ name: 'v_swaprel_b32', asm: 's_mov_b32 m0, 0x90002\nv_swaprel_b32 v11, v10\nv_add_nc_u32 v20, v20, v12\nv_mov_b32 v12, v20', res: 'v', model: (x) => v(u32(x.c + x.old)) });
  // v_pipeflush and v_clrexcp change nothing a kernel sees.
  cs.push({ name: 'v_pipeflush_clrexcp', asm: 'v_mov_b32 v20, v10\nv_pipeflush\nv_clrexcp\nv_add_nc_u32 v20, v20, v11', res: 'v', model: (x) => v(u32(x.a + x.b)) });
  return cs;
}

// DPP16: the source lane of lane l for a control, or -1 when none (ISA "DPP" section).
type Dpp = { text: string; src: (l: number) => number };
function dppControls(): Dpp[] {
  const out: Dpp[] = [];
  const row = (l: number) => l & ~15, r = (l: number) => l & 15;
  for (const q of [[0, 1, 2, 3], [3, 2, 1, 0], [1, 1, 1, 1], [2, 0, 3, 1], [0, 0, 2, 2]]) out.push({ text: `quad_perm:[${q.join(',')}]`, src: (l) => (l & ~3) + (q[l & 3] ?? 0) });
  for (let n = 1; n <= 15; n++) {
    out.push({ text: `row_shl:${n}`, src: (l) => (r(l) + n < 16 ? l + n : -1) });
    out.push({ text: `row_shr:${n}`, src: (l) => (r(l) - n >= 0 ? l - n : -1) });
    out.push({ text: `row_ror:${n}`, src: (l) => row(l) + ((r(l) - n + 16) % 16) });
  }
  out.push({ text: 'row_mirror', src: (l) => row(l) + 15 - r(l) });
  out.push({ text: 'row_half_mirror', src: (l) => (l & ~7) + 7 - (l & 7) });
  for (let n = 0; n <= 15; n++) {
    out.push({ text: `row_share:${n}`, src: (l) => row(l) + n });
    out.push({ text: `row_xmask:${n}`, src: (l) => row(l) + (r(l) ^ n) });
  }
  return out;
}

function dppCases(): Case[] {
  const cs: Case[] = [];
  const opts: [string, number, number, boolean, boolean][] = [
    // suffix, row_mask, bank_mask, bound_ctrl, fi
    ['', 0xf, 0xf, false, false], ['bc', 0xf, 0xf, true, false], ['fi', 0xf, 0xf, false, true], ['masks', 0x5, 0x6, true, true], ['masks2', 0xa, 0x9, false, false],
  ];
  const ctrls = dppControls();
  ctrls.forEach((d, k) => {
    // Every control with every option set would make a large kernel: rotate the option sets.
    for (const o of [opts[k % opts.length], opts[(k + 2) % opts.length]]) {
      if (!o) continue;
      const [, rm, bm, bc, fi] = o;
      const text = `${d.text} row_mask:0x${rm.toString(16)} bank_mask:0x${bm.toString(16)}${bc ? ' bound_ctrl:1' : ''}${fi ? ' fi:1' : ''}`;
      // Lane l (on in EXEC) is written only if its row and bank are enabled; src0 comes from lane
      // src(l): invalid when out of the row or off in EXEC (unless fi); an invalid source reads 0
      // with bound_ctrl, otherwise the lane is not written.
      const model = (op: (s0: bigint, s1: bigint) => bigint) => (x: Lane, w: readonly Lane[]): Out => {
        const l = x.lane;
        if (((rm >> (l >> 4)) & 1) === 0 || ((bm >> ((l >> 2) & 3)) & 1) === 0) return v(u32(x.old));
        const s = d.src(l);
        const src = s >= 0 && s < w.length ? w[s] : undefined;
        const valid = src !== undefined && (fi || src.act);
        if (!valid && !bc) return v(u32(x.old));
        return v(u32(op(valid && src ? u32(src.a) : 0n, u32(x.b))));
      };
      cs.push({ name: `v_mov_b32_dpp ${text}`, asm: `v_mov_b32_dpp v20, v10 ${text}`, res: 'v', model: model((s0) => s0) });
      cs.push({ name: `v_sub_nc_u32_dpp ${text}`, asm: `v_sub_nc_u32_dpp v20, v10, v11 ${text}`, res: 'v', model: model((s0, s1) => s0 - s1) });
    }
  });
  // DPP on a carry op (VOP2 with VCC) and a shift (src0 = the shift amount).
  cs.push({ name: 'v_add_co_ci_u32_dpp', asm: 'v_add_co_ci_u32_dpp v20, {VCC}, v10, v11, {VCC} row_shr:1 row_mask:0xf bank_mask:0xf bound_ctrl:1 fi:1', vcc: true, res: 'v', mask: 'vcc',
    model: (x, w) => { const s = (x.lane & 15) >= 1 ? w[x.lane - 1] : undefined; const r = (s ? u32(s.a) : 0n) + u32(x.b) + (x.m ? 1n : 0n); return { r: u32(r), m: r > M32 }; } });
  cs.push({ name: 'v_lshlrev_b32_dpp', asm: 'v_lshlrev_b32_dpp v20, v10, v11 row_xmask:5 row_mask:0xf bank_mask:0xf fi:1', res: 'v',
    model: (x, w) => { const s = w[(x.lane & ~15) + ((x.lane & 15) ^ 5)]; return v(u32(u32(x.b) << (u32(s?.a ?? 0) & 31n))); } });
  // DPP8: lane l reads lane (l & ~7) + sel[l & 7] of its group of 8.
  for (const sel of [[7, 6, 5, 4, 3, 2, 1, 0], [1, 0, 3, 2, 5, 4, 7, 6], [0, 0, 0, 0, 7, 7, 7, 7]]) {
    for (const fi of [false, true]) {
      cs.push({ name: `v_xor_b32_dpp8 [${sel}] fi${+fi}`, asm: `v_xor_b32_dpp v20, v10, v11 dpp8:[${sel.join(',')}]${fi ? ' fi:1' : ''}`, res: 'v',
        model: (x, w) => {
          const s = w[(x.lane & ~7) + (sel[x.lane & 7] ?? 0)];
          // Ambiguous in the ISA text: what DPP8 without fi reads from a lane off in EXEC. Not checked.
          if (!s || (!fi && !s.act)) return undefined;
          return v(u32(s.a) ^ u32(x.b));
        } });
    }
  }
  return cs;
}

// SDWA: sel 0..3 bytes, 4..5 words, 6 dword; sext sign-extends the selected source field.
const SELS = ['BYTE_0', 'BYTE_1', 'BYTE_2', 'BYTE_3', 'WORD_0', 'WORD_1', 'DWORD'] as const;
function selectField(v: number, sel: number, sext: boolean): bigint {
  if (sel === 6) return u32(v);
  const width = sel <= 3 ? 8 : 16, shift = sel <= 3 ? sel * 8 : (sel - 4) * 16;
  const f = BigInt.asUintN(width, u32(v) >> BigInt(shift));
  return sext ? u32(BigInt.asIntN(width, f)) : f;
}
function sdwaDest(old: number, r: bigint, sel: number, unused: number): bigint {
  if (sel === 6) return u32(r);
  const width = sel <= 3 ? 8 : 16, shift = sel <= 3 ? sel * 8 : (sel - 4) * 16;
  const field = BigInt.asUintN(width, r) << BigInt(shift);
  const fmask = ((1n << BigInt(width)) - 1n) << BigInt(shift);
  if (unused === 2) return (u32(old) & ~fmask & M32) | field; // UNUSED_PRESERVE
  if (unused === 1) { // UNUSED_SEXT: the field's top bit fills the bits above it; the bits below are 0
    const top = bit(r, width - 1);
    return top ? (field | (M32 & ~((1n << BigInt(shift + width)) - 1n))) : field;
  }
  return field; // UNUSED_PAD
}
function sdwaCases(): Case[] {
  const cs: Case[] = [];
  const UN = ['UNUSED_PAD', 'UNUSED_SEXT', 'UNUSED_PRESERVE'];
  const ops: [string, (a: bigint, b: bigint) => bigint][] = [['v_add_nc_u32', (a, b) => a + b], ['v_max_i32', (a, b) => maxB(s32(a), s32(b))], ['v_ashrrev_i32', (a, b) => s32(b) >> (a & 31n)]];
  let k = 0;
  for (const [n, f] of ops) {
    for (let s0 = 0; s0 < 7; s0++) for (let s1 = 0; s1 < 7; s1 += 2) {
      const dsel = (s0 + s1 + k) % 7, un = (s0 * 3 + s1 + k) % 3, sx0 = (s0 + k) % 2 === 1, sx1 = (s1 + k) % 3 === 0;
      k++;
      const a0 = sx0 ? `sext(v10)` : 'v10', a1 = sx1 ? `sext(v11)` : 'v11';
      cs.push({ name: `${n}_sdwa ${SELS[s0]} ${SELS[s1]} -> ${SELS[dsel]} ${UN[un]}`, asm: `${n}_sdwa v20, ${a0}, ${a1} dst_sel:${SELS[dsel]} dst_unused:${UN[un]} src0_sel:${SELS[s0]} src1_sel:${SELS[s1]}`, res: 'v',
        model: (x) => v(sdwaDest(x.old, u32(f(selectField(x.a, s0, sx0), selectField(x.b, s1, sx1))), dsel, un ?? 0)) });
    }
  }
  for (let s0 = 0; s0 < 7; s0++) {
    cs.push({ name: `v_not_b32_sdwa ${SELS[s0]} sext`, asm: `v_not_b32_sdwa v20, sext(v10) dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE src0_sel:${SELS[s0]}`, res: 'v', model: (x) => v(sdwaDest(x.old, ~selectField(x.a, s0, true) & M32, 5, 2)) });
  }
  // An SGPR as an SDWA source (gfx10) and an SDWA compare into an SGPR mask.
  cs.push({ name: 'v_sub_nc_u32_sdwa sgpr', asm: 'v_readfirstlane_b32 s24, v12\nv_sub_nc_u32_sdwa v20, s24, v11 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:BYTE_2 src1_sel:WORD_1', res: 'v',
    model: (x, w) => v(u32(selectField(w.find((l) => l.act)?.c ?? 0, 2, false) - selectField(x.b, 5, false))) });
  cs.push({ name: 'v_cmp_gt_i32_sdwa', asm: 'v_cmp_gt_i32_sdwa {SD}, sext(v10), v11 src0_sel:BYTE_1 src1_sel:WORD_0', res: 'none', mask: 'sd',
    model: (x) => ({ m: s32(selectField(x.a, 1, true)) > s32(selectField(x.b, 4, false)) }) });
  return cs;
}

// --- kernel generation and checking ---
interface Group { readonly name: string; readonly cases: Case[] }

const wave = (w64: boolean) => ({
  VCC: w64 ? 'vcc' : 'vcc_lo', SD: w64 ? 's[22:23]' : 's22', M: w64 ? 's[30:31]' : 's30', EXEC: w64 ? 'exec' : 'exec_lo', MOV: w64 ? 's_mov_b64' : 's_mov_b32',
});
// v_permlane16_b32 / v_permlanex16_b32 (RDNA2 ISA reference pseudocode): lanesel = {S2, S1}; lane
// i of row r reads VGPR[src0] of lane 16 * r' + lanesel[4i + 3 : 4i], r' = r (permlane16) or
// altrow = {r[1], ~r[0]} (permlanex16); only lanes on in EXEC are written. op_sel[0] = FI,
// op_sel[1] = BOUND_CTRL (LLVM's encoding). For a source lane off in EXEC the ISA text gives no
// rule; the interpreter's choice, modelled here: DPP's (without FI the source is invalid; an
// invalid source reads 0 under BOUND_CTRL, otherwise the lane keeps its old vdst).
function permlaneCases(): Case[] {
  const cs: Case[] = [];
  const sels: [number, number, string][] = [
    [0x76543210, 0xfedcba98, 's'], [0x89abcdef, 0x01234567, 's'], [0, 0, 's'], [0x5f1e29c3, 0x0d7b4a86, 's'], [0xffffffff, 0x33333333, 's'],
    [5, 0xffffffff, 'inline'], [0x1234abcd, 0x9e3779b9, 'literal'],
  ];
  for (const cross of [false, true]) {
    const m = cross ? 'v_permlanex16_b32' : 'v_permlane16_b32';
    sels.forEach(([s1, s2, how], k) => {
      for (const [fi, bc] of [[0, 0], [1, 0], [0, 1], [1, 1]] as const) {
        // The last two select pairs with two op_sel settings only.
        if (k >= 5 && fi !== bc) continue;
        const opsel = fi || bc ? ` op_sel:[${fi},${bc}]` : '';
        const srcs = how === 'inline' ? '5, -1' : how === 'literal' ? `0x${s1.toString(16)}, s31` : 's30, s31';
        const set = how === 'inline' ? '' : `${how === 's' ? `s_mov_b32 s30, 0x${s1.toString(16)}\n` : ''}s_mov_b32 s31, 0x${s2.toString(16)}\n`;
        const lanesel = (BigInt(s2) << 32n) | BigInt(s1);
        const model = (old: boolean) => (x: Lane, w: readonly Lane[]): Out => {
          const r = x.lane >> 4, i = x.lane & 15;
          const row = cross ? (r & 2) | (~r & 1) : r;
          const src = w[16 * row + Number((lanesel >> BigInt(4 * i)) & 15n)];
          assert.ok(src);
          const valid = fi === 1 || src.act;
          if (!valid) return bc ? v(0n) : v(u32(x.old));
          return v(u32(old ? src.old : src.a));
        };
        cs.push({ name: `${m} ${srcs}${opsel}`, asm: `${set}${m} v20, v10, ${srcs}${opsel}`, res: 'v', model: model(false) });
        // vdst = src0: every lane reads its source lane's old value (without FI: an inactive lane's
        // v20 is not set from the old value before the case).
        if (k === 3 && fi === 0) cs.push({ name: `${m} v20, v20 ${srcs}${opsel}`, asm: `${set}${m} v20, v20, ${srcs}${opsel}`, res: 'v', model: model(true) });
      }
    });
  }
  return cs;
}

// The SAD family, v_sat_pk_u8_i16 and v_dot4c_i32_i8 (RDNA2 ISA reference pseudocode):
// v_msad_u8 = S2 + Σ_k (S1.byte k == 0 ? 0 : |S0.byte k − S1.byte k|); v_qsad_pk_u16_u8 /
// v_mqsad_pk_u16_u8: field j (16 bits) = v_sad_u8 / v_msad_u8 of S0[8j+31:8j] (64-bit S0)
// against S1 with S2's field j, truncated to 16 bits; v_mqsad_u32_u8: the same masked SADs into
// 32-bit fields of a 128-bit D with a 128-bit S2; v_sat_pk_u8_i16 = {16'b0, sat8(S0[31:16]),
// sat8(S0[15:0])} (the ISA text's zero high half, the interpreter's choice over gfx10's 16-bit
// preserve); v_dot4c_i32_i8 = Σ S0.i8[k] * S1.i8[k] + D. Besides the models, fixed operands with
// results worked out by hand from that text.
function sadCases(): Case[] {
  const byteB = (x: number | bigint, k: number) => (BigInt(x) >> BigInt(8 * k)) & 0xffn;
  const sad = (a: bigint, b: bigint, masked: boolean) => {
    let r = 0n;
    for (let k = 0; k < 4; k++) if (!masked || byteB(b, k) !== 0n) r += absB(byteB(a, k) - byteB(b, k));
    return r;
  };
  const win = (s0: bigint, j: number) => (s0 >> BigInt(8 * j)) & M32;
  const quad = (s0: bigint, s1: bigint, s2: bigint, masked: boolean) => [0, 1, 2, 3].reduce((r, j) => r | (((sad(win(s0, j), s1, masked) + ((s2 >> BigInt(16 * j)) & 0xffffn)) & 0xffffn) << BigInt(16 * j)), 0n);
  const sat8 = (h: bigint) => clampB(s16(h), 0n, 255n);
  const sb = (x: number | bigint, k: number) => BigInt.asIntN(8, byteB(x, k));
  const cs: Case[] = [
    { name: 'v_msad_u8', asm: 'v_msad_u8 v20, v10, v11, v12', res: 'v', model: (x) => v(u32(sad(u32(x.a), u32(x.b), true) + u32(x.c))) },
    // Zero reference bytes most of the time: B masked to a byte pattern of X.
    { name: 'v_msad_u8 (zero bytes)', asm: 'v_and_b32 v24, v11, v13\nv_msad_u8 v20, v10, v24, v12', res: 'v', model: (x) => v(u32(sad(u32(x.a), u32(x.b) & u32(x.x), true) + u32(x.c))) },
    { name: 'v_qsad_pk_u16_u8', asm: 'v_qsad_pk_u16_u8 v[20:21], v[10:11], v12, v[14:15]', res: 'v64', model: (x) => v(quad(x.a64, u32(x.c), x.c64, false)) },
    { name: 'v_mqsad_pk_u16_u8', asm: 'v_and_b32 v24, v12, v13\nv_mqsad_pk_u16_u8 v[20:21], v[10:11], v24, v[14:15]', res: 'v64', model: (x) => v(quad(x.a64, u32(x.c) & u32(x.x), x.c64, true)) },
    { name: 'v_mqsad_u32_u8 (fields 0, 1)', asm: 'v_mqsad_u32_u8 v[20:23], v[14:15], v12, v[10:13]', res: 'v64',
      model: (x) => v(u32(sad(win(x.c64, 0), u32(x.c), true) + u32(x.a)) | (u32(sad(win(x.c64, 1), u32(x.c), true) + u32(x.b)) << 32n)) },
    { name: 'v_mqsad_u32_u8 (fields 2, 3)', asm: 'v_mqsad_u32_u8 v[20:23], v[14:15], v12, v[10:13]\nv_mov_b32 v20, v22\nv_mov_b32 v21, v23', res: 'v64',
      model: (x) => v(u32(sad(win(x.c64, 2), u32(x.c), true) + u32(x.c)) | (u32(sad(win(x.c64, 3), u32(x.c), true) + u32(x.x)) << 32n)) },
    { name: 'v_sat_pk_u8_i16', asm: 'v_sat_pk_u8_i16 v20, v10', res: 'v', model: (x) => v(sat8(u32(x.a) & 0xffffn) | (sat8(u32(x.a) >> 16n) << 8n)) },
    { name: 'v_sat_pk_u8_i16_e64', asm: 'v_sat_pk_u8_i16_e64 v20, v11', res: 'v', model: (x) => v(sat8(u32(x.b) & 0xffffn) | (sat8(u32(x.b) >> 16n) << 8n)) },
    { name: 'v_sat_pk_u8_i16_sdwa', asm: 'v_sat_pk_u8_i16_sdwa v20, sext(v10) dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE src0_sel:BYTE_1', res: 'v',
      model: (x) => { const w = u32(BigInt.asIntN(8, byteB(x.a, 1))); return v((u32(x.old) & 0xffffn) | (((sat8(w & 0xffffn) | (sat8(w >> 16n) << 8n)) & 0xffffn) << 16n)); } },
    { name: 'v_dot4c_i32_i8', asm: 'v_dot4c_i32_i8 v20, v10, v11', res: 'v', model: (x) => v(u32([0, 1, 2, 3].reduce((r, k) => r + sb(x.a, k) * sb(x.b, k), s32(x.old)))) },
    { name: 'v_dot4c_i32_i8_dpp', asm: 'v_dot4c_i32_i8_dpp v20, v10, v11 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf bound_ctrl:1 fi:1', res: 'v',
      model: (x, w) => { const s = w[x.lane ^ 1]; return v(u32([0, 1, 2, 3].reduce((r, k) => r + sb(s?.a ?? 0, k) * sb(x.b, k), s32(x.old)))); } },
    // By hand: bytes (04,03,ff,10) vs (01,05,80,00): 3 + 2 + 127 + (masked) 0, + 7 = 139.
    { name: 'v_msad_u8 by hand', asm: 's_mov_b32 s30, 0x10ff0304\ns_mov_b32 s31, 0x00800501\nv_msad_u8 v20, s30, s31, 7', res: 'v', model: () => v(139n) },
    // Windows 03020100, 04030201, 05040302, 06050403 vs 04030201: 4, 0, 4, 8; + S2 fields 1, 2, 3, 4.
    { name: 'v_qsad_pk_u16_u8 by hand', asm: 's_mov_b32 s30, 0x03020100\ns_mov_b32 s31, 0x07060504\ns_mov_b32 s32, 0x00020001\ns_mov_b32 s33, 0x00040003\nv_mov_b32 v24, s32\nv_mov_b32 v25, s33\nv_qsad_pk_u16_u8 v[20:21], s[30:31], 0x04030201, v[24:25]', res: 'v64', model: () => v(0x000c000700020005n) },
    // Reference 04030001 (byte 1 masked): 3, 0, 3, 6; + 1, 2, 3, 4.
    { name: 'v_mqsad_pk_u16_u8 by hand', asm: 's_mov_b32 s30, 0x03020100\ns_mov_b32 s31, 0x07060504\ns_mov_b32 s32, 0x00020001\ns_mov_b32 s33, 0x00040003\nv_mov_b32 v24, s32\nv_mov_b32 v25, s33\nv_mqsad_pk_u16_u8 v[20:21], s[30:31], 0x04030001, v[24:25]', res: 'v64', model: () => v(0x000a000600020004n) },
    // sat8(0x0100 = 256) = 255, sat8(0x0080) = 128; the high half is zero.
    { name: 'v_sat_pk_u8_i16 by hand', asm: 'v_sat_pk_u8_i16 v20, 0x01000080', res: 'v', model: () => v(0xff80n) },
    // sat8(0x8001 = −32767) = 0, sat8(0x00ff) = 255.
    { name: 'v_sat_pk_u8_i16 by hand (negative)', asm: 'v_sat_pk_u8_i16 v20, 0x800100ff', res: 'v', model: () => v(0xffn) },
    // (02,01,ff,80) · (04,03,02,7f) = 8 + 3 − 2 − 16256 = −16247; + 5 = −16242 = 0xffffc08e.
    { name: 'v_dot4c_i32_i8 by hand', asm: 'v_mov_b32 v20, 5\nv_mov_b32 v24, 0x7f020304\nv_dot4c_i32_i8 v20, 0x80ff0102, v24', res: 'v', model: () => v(0xffffc08en) },
  ];
  return cs;
}

function subst(s: string, w64: boolean): string {
  const p = wave(w64);
  return s.replace(/\{(VCC|SD|M|EXEC|MOV)\}/g, (_m, k: keyof typeof p) => p[k]).replace(/s26/g, w64 ? 's[26:27]' : 's26');
}
interface Slot { readonly c: Case; readonly res: number; readonly mask: number }
function layout(cases: readonly Case[], w64: boolean): { slots: Slot[]; dwordsPerLane: number; shift: number } {
  let n = 0;
  const slots = cases.map((c) => {
    const res = n; n += c.res === 'v' ? 1 : c.res === 'v64' ? 2 : 0;
    const mask = n; n += c.mask ? (w64 ? 2 : 1) : 0;
    return { c, res, mask };
  });
  let shift = 2;
  while ((1 << shift) < n * 4) shift++;
  if (n * 4 > 2048) throw new Error('too many results for one kernel (global offsets are 12-bit signed)');
  return { slots, dwordsPerLane: 1 << (shift - 2), shift };
}
function kernelBody(cases: readonly Case[], w64: boolean): string {
  const p = wave(w64);
  const { slots, shift } = layout(cases, w64);
  const L: string[] = [
    's_load_dwordx4 s[4:7], s[0:1], 0', 's_waitcnt lgkmcnt(0)',
    'v_lshlrev_b32 v1, 6, v0',
    'global_load_dwordx4 v[10:13], v1, s[4:5]', 'global_load_dwordx4 v[14:17], v1, s[4:5] offset:16', 'global_load_dwordx4 v[18:21], v1, s[4:5] offset:32',
    's_waitcnt vmcnt(0)', `v_lshlrev_b32 v2, ${shift}, v0`,
    'v_and_b32 v3, 1, v18', `v_cmp_ne_u32_e64 ${p.M}, 0, v3`,
    'v_and_b32 v3, 3, v19', `v_cmp_ne_u32_e64 ${p.SD}, 0, v3`, `${p.MOV} ${p.EXEC}, ${p.SD}`,
  ];
  for (const s of slots) {
    L.push('v_mov_b32 v20, v16', 'v_mov_b32 v21, v17');
    if (s.c.vcc) L.push(`${p.MOV} ${p.VCC}, ${p.M}`);
    L.push(subst(s.c.asm, w64));
    if (s.c.res === 'v') L.push(`global_store_dword v2, v20, s[6:7] offset:${4 * s.res}`);
    if (s.c.res === 'v64') L.push(`global_store_dwordx2 v2, v[20:21], s[6:7] offset:${4 * s.res}`);
    if (s.c.mask) {
      const lo = s.c.mask === 'vcc' ? 'vcc_lo' : 's22', hi = s.c.mask === 'vcc' ? 'vcc_hi' : 's23';
      L.push(`v_mov_b32 v22, ${lo}`);
      if (w64) L.push(`v_mov_b32 v23, ${hi}`);
      L.push(w64 ? `global_store_dwordx2 v2, v[22:23], s[6:7] offset:${4 * s.mask}` : `global_store_dword v2, v22, s[6:7] offset:${4 * s.mask}`);
    }
  }
  L.push('s_endpgm');
  return L.join('\n');
}

const LANES = 64;
const EDGE = [0, 1, 2, 0xffffffff, 0x80000000, 0x7fffffff, 0x80000001, 31, 32, 33, 63, 64, 0xffff, 0x8000, 0x7fff, 0x10000, 0xffff0000, 0xff, 0x80, 0x7f, 0x00ff00ff, 0x80808080, 0x01000000, 0xfffffffe];
const arbU32 = fc.oneof(
  { arbitrary: fc.constantFrom(...EDGE), weight: 3 },
  { arbitrary: fc.nat(70), weight: 1 },
  { arbitrary: fc.integer({ min: 0, max: 0xffffffff }), weight: 4 },
);
const arbLane = fc.array(arbU32, { minLength: 12, maxLength: 12 });
const arbInputs = fc.array(arbLane, { minLength: LANES, maxLength: LANES });

function lanesOf(inp: readonly (readonly number[])[], ws: number): Lane[][] {
  const waves: Lane[][] = [];
  inp.forEach((d, i) => {
    const g = (k: number) => (d[k] ?? 0) >>> 0;
    const lane: Lane = {
      a: g(0), b: g(1), c: g(2), x: g(3), a64: BigInt(g(0)) | (BigInt(g(1)) << 32n), b64: BigInt(g(2)) | (BigInt(g(3)) << 32n), c64: BigInt(g(4)) | (BigInt(g(5)) << 32n),
      old: g(6), old1: g(7), m: (g(8) & 1) === 1, act: (g(9) & 3) !== 0, lane: i % ws,
    };
    (waves[Math.floor(i / ws)] ??= []).push(lane);
  });
  return waves;
}

function check(shader: Shader, cases: readonly Case[], w64: boolean, inp: readonly (readonly number[])[]): void {
  const ws = w64 ? 64 : 32;
  const { slots, dwordsPerLane } = layout(cases, w64);
  const inBuf = dwords(inp.flatMap((d) => [...d, 0, 0, 0, 0]));
  const out = dwords(new Array<number>(dwordsPerLane * LANES).fill(FILL));
  runKernel(shader, [inBuf, out], { block: [LANES, 1, 1] });
  const got = readDwords(out);
  const waves = lanesOf(inp, ws);
  waves.forEach((wv, wi) => {
    for (const s of slots) {
      // The expected lane mask: the bits of the wave's active lanes (lanes off in EXEC give 0);
      // unchecked when the model leaves any active lane open.
      let mk: bigint | undefined = 0n;
      const outs = wv.map((y) => (y.act ? s.c.model(y, wv) : undefined));
      if (s.c.mask) wv.forEach((y, k) => { if (!y.act || mk === undefined) return; const o = outs[k]; if (o === undefined || (o.m === undefined)) mk = undefined; else if (o.m) mk |= 1n << BigInt(y.lane); });
      wv.forEach((x, k) => {
        const i = x.lane + ws * wi;
        const at = (q: number) => got[i * dwordsPerLane + q];
        const where = () => `${s.c.name} (wave${ws}, lane ${x.lane}, inputs ${JSON.stringify(inp[i]?.map((q) => '0x' + (q >>> 0).toString(16)))})`;
        if (!x.act) {
          if (s.c.res !== 'none') assert.equal(at(s.res), FILL, `${where()}: a lane off in EXEC stored`);
          return;
        }
        const e = outs[k];
        if (e?.r !== undefined && s.c.res !== 'none') {
          assert.equal(at(s.res), Number(e.r & M32), `${where()}: result`);
          if (s.c.res === 'v64') assert.equal(at(s.res + 1), Number((e.r >> 32n) & M32), `${where()}: result high dword`);
        }
        if (s.c.mask && mk !== undefined) {
          assert.equal(at(s.mask), Number(mk & M32), `${where()}: mask`);
          if (w64) assert.equal(at(s.mask + 1), Number(mk >> 32n), `${where()}: mask high dword`);
        }
      });
    }
  });
}

/** fast-check without shrinking (a dispatch per run), failing with the model's own message. */
function property<T>(arb: fc.Arbitrary<T>, f: (v: T) => void, numRuns: number, seed: number): void {
  const r = fc.check(fc.property(arb, f), { numRuns, seed, endOnFailure: true });
  if (r.failed) {
    const e = r.errorInstance;
    throw new Error(`${e instanceof Error ? e.message : String(e)}\n(fast-check seed ${seed}, run ${r.numRuns} of ${numRuns})`);
  }
}

const GROUPS: Group[] = [
  { name: 'basic', cases: basicCases() },
  { name: 'compare_lanes', cases: compareCases() },
  { name: 'dpp', cases: dppCases() },
  { name: 'sdwa', cases: sdwaCases() },
  { name: 'permlane', cases: permlaneCases() },
  { name: 'sad', cases: sadCases() },
];

// Split groups into kernels of at most ~450 result dwords.
function kernelsOf(g: Group, w64: boolean): { name: string; cases: Case[] }[] {
  const out: { name: string; cases: Case[] }[] = [];
  let cur: Case[] = [], n = 0;
  for (const c of g.cases) {
    const k = (c.res === 'v' ? 1 : c.res === 'v64' ? 2 : 0) + (c.mask ? (w64 ? 2 : 1) : 0);
    if (n + k > 450) { out.push({ name: `${g.name}_${out.length}_w${w64 ? 64 : 32}`, cases: cur }); cur = []; n = 0; }
    cur.push(c); n += k;
  }
  if (cur.length) out.push({ name: `${g.name}_${out.length}_w${w64 ? 64 : 32}`, cases: cur });
  return out;
}

const ALL = [false, true].flatMap((w64) => GROUPS.flatMap((g) => kernelsOf(g, w64).map((k) => ({ ...k, group: g.name, w64 }))));
const SHADERS = assemble('gfx1030', ALL.map((k) => ({ name: k.name, body: kernelBody(k.cases, k.w64), wave64: k.w64, vgprs: 32, sgprs: 40 })));

const RUNS: Record<string, number> = { basic: 80, compare_lanes: 80, dpp: 30, sdwa: 100, permlane: 30, sad: 60 }; // x 64 lanes each

for (const k of ALL) {
  test(`integer VALU ${k.name}: ${k.cases.length} cases against the ISA models`, () => {
    const sh = get(SHADERS, k.name);
    // Edge cases first (every lane a combination of edge values), then random inputs.
    const edge = Array.from({ length: LANES }, (_, i) => Array.from({ length: 12 }, (_, j) => EDGE[(i * 7 + j * 3 + (i >> 3) * j) % EDGE.length] ?? 0).map((q, j) => (j === 9 ? (i % 5 === 4 ? 0 : 1) : q)));
    check(sh, k.cases, k.w64, edge);
    property(arbInputs, (inp) => { check(sh, k.cases, k.w64, inp); }, RUNS[k.group] ?? 100, 0x5eed + k.name.length);
  });
}
