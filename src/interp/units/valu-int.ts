// Integer, bit and move semantics of the VALU (VOP1/VOP2/VOP3/VOPC integer forms), as pure
// per-lane functions for the executor (valu.ts). RDNA2 ISA reference, "Vector ALU instructions":
// the per-opcode pseudocode. 32-bit values are uint32 numbers, 64-bit values bigints.
import type { Handler } from '../context.js';
import { type LaneEnv, type Val, type ValuSemantics, valu } from './valu.js';

const u = (v: Val) => Number(v) >>> 0;
const i = (v: Val) => Number(v) | 0;
const b = (v: Val) => (typeof v === 'bigint' ? v : BigInt(u(v)));
const M64 = (1n << 64n) - 1n;
const sx64 = (v: bigint) => (v & (1n << 63n) ? v - (1n << 64n) : v);
const s24 = (v: Val) => (u(v) << 8) >> 8;
const u24 = (v: Val) => u(v) & 0xffffff;
const s16 = (v: Val) => (u(v) << 16) >> 16;
const u16 = (v: Val) => u(v) & 0xffff;
const popcnt = (x: number) => { let n = 0; for (let v = x >>> 0; v; v &= v - 1) n++; return n; };
const bfrev = (x: number) => { let r = 0; for (let k = 0; k < 32; k++) if ((x >>> k) & 1) r |= 1 << (31 - k); return r >>> 0; };
const med3 = <T extends number>(a: T, b2: T, c: T): T => Math.max(Math.min(a, b2), Math.min(Math.max(a, b2), c)) as T;

/** Saturating forms (clamp bit): unsigned results clamp to [0, max], signed to [min, max]. */
function sat(e: LaneEnv, exact: number, lo: number, hi: number): number {
  return e.clamp ? Math.min(hi, Math.max(lo, exact)) : exact;
}

const f1 = (f: (a: Val) => Val): ValuSemantics => ({ f: (s) => f(s[0] ?? 0) });
const f2 = (f: (a: Val, c: Val) => Val): ValuSemantics => ({ f: (s) => f(s[0] ?? 0, s[1] ?? 0) });
const f3 = (f: (a: Val, c: Val, d: Val) => Val): ValuSemantics => ({ f: (s) => f(s[0] ?? 0, s[1] ?? 0, s[2] ?? 0) });

/** Add/sub with carry (VOP2 _co_ci / VOP3b _co): the carry-out goes to the mask destination. */
const carry = (f: (a: number, c: number, cin: number) => number, withIn: boolean): ValuSemantics => ({
  outMods: true,
  f: (s, e) => {
    const r = f(u(s[0] ?? 0), u(s[1] ?? 0), withIn && e.maskIn ? 1 : 0);
    e.maskOut = r < 0 || r > 0xffffffff;
    if (e.clamp) return r < 0 ? 0 : r > 0xffffffff ? 0xffffffff : r;
    return r >>> 0;
  },
});

const cmp = (f: (a: Val, c: Val) => boolean, x: boolean): ValuSemantics => ({ compare: x ? 'cmpx' : 'cmp', f: (s, e) => { e.maskOut = f(s[0] ?? 0, s[1] ?? 0); return 0; } });

type Cmp = [string, (a: number, c: number) => boolean];
const INT_CMPS: Cmp[] = [['f', () => false], ['lt', (a, c) => a < c], ['eq', (a, c) => a === c], ['le', (a, c) => a <= c], ['gt', (a, c) => a > c], ['ne', (a, c) => a !== c], ['ge', (a, c) => a >= c], ['t', () => true]];

const SEM: Record<string, ValuSemantics> = {
  v_nop: { f: () => 0 },
  v_mov_b32: f1((a) => a),
  v_not_b32: f1((a) => ~u(a) >>> 0),
  v_bfrev_b32: f1((a) => bfrev(u(a))),
  v_ffbh_u32: f1((a) => (u(a) === 0 ? 0xffffffff : Math.clz32(u(a)))),
  v_ffbl_b32: f1((a) => (u(a) === 0 ? 0xffffffff : 31 - Math.clz32(u(a) & -u(a)))),
  // The position (from bit 31, which is 0) of the first bit that differs from the sign bit; -1 when none does.
  v_ffbh_i32: f1((a) => { const x = i(a); if (x === 0 || x === -1) return 0xffffffff; return Math.clz32(x < 0 ? ~x : x); }),
  v_cndmask_b32: { f: (s, e) => (e.maskIn ? s[1] ?? 0 : s[0] ?? 0) },
  v_mul_i32_i24: f2((a, c) => Math.imul(s24(a), s24(c)) >>> 0),
  v_mul_hi_i32_i24: f2((a, c) => Number((BigInt(s24(a)) * BigInt(s24(c))) >> 32n) >>> 0),
  v_mul_u32_u24: f2((a, c) => Math.imul(u24(a), u24(c)) >>> 0),
  v_mul_hi_u32_u24: f2((a, c) => Number((BigInt(u24(a)) * BigInt(u24(c))) >> 32n) >>> 0),
  v_min_i32: f2((a, c) => Math.min(i(a), i(c)) >>> 0), v_max_i32: f2((a, c) => Math.max(i(a), i(c)) >>> 0),
  v_min_u32: f2((a, c) => Math.min(u(a), u(c))), v_max_u32: f2((a, c) => Math.max(u(a), u(c))),
  v_lshrrev_b32: f2((a, c) => u(c) >>> (u(a) & 31)),
  v_ashrrev_i32: f2((a, c) => (i(c) >> (u(a) & 31)) >>> 0),
  v_lshlrev_b32: f2((a, c) => (u(c) << (u(a) & 31)) >>> 0),
  v_and_b32: f2((a, c) => (u(a) & u(c)) >>> 0), v_or_b32: f2((a, c) => (u(a) | u(c)) >>> 0),
  v_xor_b32: f2((a, c) => (u(a) ^ u(c)) >>> 0), v_xnor_b32: f2((a, c) => ~(u(a) ^ u(c)) >>> 0),
  v_add_nc_u32: { outMods: true, f: (s, e) => sat(e, u(s[0] ?? 0) + u(s[1] ?? 0), 0, 0xffffffff) >>> 0 },
  v_sub_nc_u32: { outMods: true, f: (s, e) => sat(e, u(s[0] ?? 0) - u(s[1] ?? 0), 0, 0xffffffff) >>> 0 },
  v_subrev_nc_u32: { outMods: true, f: (s, e) => sat(e, u(s[1] ?? 0) - u(s[0] ?? 0), 0, 0xffffffff) >>> 0 },
  v_add_nc_i32: { outMods: true, f: (s, e) => sat(e, i(s[0] ?? 0) + i(s[1] ?? 0), -0x80000000, 0x7fffffff) >>> 0 },
  v_sub_nc_i32: { outMods: true, f: (s, e) => sat(e, i(s[0] ?? 0) - i(s[1] ?? 0), -0x80000000, 0x7fffffff) >>> 0 },
  v_add_co_u32: carry((a, c) => a + c, false),
  v_sub_co_u32: carry((a, c) => a - c, false),
  v_subrev_co_u32: carry((a, c) => c - a, false),
  v_add_co_ci_u32: carry((a, c, k) => a + c + k, true),
  v_sub_co_ci_u32: carry((a, c, k) => a - c - k, true),
  v_subrev_co_ci_u32: carry((a, c, k) => c - a - k, true),
  v_mad_i32_i24: f3((a, c, d) => (Math.imul(s24(a), s24(c)) + i(d)) >>> 0),
  v_mad_u32_u24: f3((a, c, d) => (Math.imul(u24(a), u24(c)) + u(d)) >>> 0),
  v_bfe_u32: f3((a, c, d) => { const off = u(c) & 31, w = u(d) & 31; return w === 0 ? 0 : ((u(a) >>> off) & (w === 32 ? 0xffffffff : (1 << w) - 1)) >>> 0; }),
  // ISA: (S0.i >> offset) & ((1 << width) - 1), sign-extended from the field: S0 shifts as a signed value,
  // so a field that runs past bit 31 takes copies of the sign bit.
  v_bfe_i32: f3((a, c, d) => { const off = u(c) & 31, w = u(d) & 31; if (w === 0) return 0; const x = (i(a) >> off) & ((1 << w) - 1); return ((x << (32 - w)) >> (32 - w)) >>> 0; }),
  v_bfi_b32: f3((a, c, d) => ((u(a) & u(c)) | (~u(a) & u(d))) >>> 0),
  v_alignbit_b32: f3((a, c, d) => Number(((b(a) << 32n | b(c)) >> BigInt(u(d) & 31)) & 0xffffffffn)),
  v_alignbyte_b32: f3((a, c, d) => Number(((b(a) << 32n | b(c)) >> BigInt((u(d) & 3) * 8)) & 0xffffffffn)),
  v_min3_i32: f3((a, c, d) => Math.min(i(a), i(c), i(d)) >>> 0), v_max3_i32: f3((a, c, d) => Math.max(i(a), i(c), i(d)) >>> 0),
  v_min3_u32: f3((a, c, d) => Math.min(u(a), u(c), u(d))), v_max3_u32: f3((a, c, d) => Math.max(u(a), u(c), u(d))),
  v_med3_i32: f3((a, c, d) => med3(i(a), i(c), i(d)) >>> 0), v_med3_u32: f3((a, c, d) => med3(u(a), u(c), u(d))),
  v_mul_lo_u32: f2((a, c) => Math.imul(u(a), u(c)) >>> 0), v_mul_lo_i32: f2((a, c) => Math.imul(u(a), u(c)) >>> 0),
  v_mul_hi_u32: f2((a, c) => Number((b(a) * b(c)) >> 32n)),
  v_mul_hi_i32: f2((a, c) => Number(((BigInt(i(a)) * BigInt(i(c))) >> 32n) & 0xffffffffn)),
  v_mad_u64_u32: { outMods: true, f: (s, e) => { const r = b(s[0] ?? 0) * b(s[1] ?? 0) + b(s[2] ?? 0n); e.maskOut = r > M64; return e.clamp && r > M64 ? M64 : r & M64; } },
  v_mad_i64_i32: { outMods: true, f: (s, e) => { const r = BigInt(i(s[0] ?? 0)) * BigInt(i(s[1] ?? 0)) + sx64(b(s[2] ?? 0n)); const ov = r > (1n << 63n) - 1n || r < -(1n << 63n); e.maskOut = ov; if (e.clamp && ov) return r < 0n ? 1n << 63n : (1n << 63n) - 1n; return r & M64; } },
  v_xor3_b32: f3((a, c, d) => (u(a) ^ u(c) ^ u(d)) >>> 0),
  v_or3_b32: f3((a, c, d) => (u(a) | u(c) | u(d)) >>> 0),
  v_and_or_b32: f3((a, c, d) => ((u(a) & u(c)) | u(d)) >>> 0),
  v_lshl_or_b32: f3((a, c, d) => ((u(a) << (u(c) & 31)) | u(d)) >>> 0),
  v_lshl_add_u32: f3((a, c, d) => ((u(a) << (u(c) & 31)) + u(d)) >>> 0),
  v_add_lshl_u32: f3((a, c, d) => ((u(a) + u(c)) << (u(d) & 31)) >>> 0),
  v_add3_u32: f3((a, c, d) => (u(a) + u(c) + u(d)) >>> 0),
  v_xad_u32: f3((a, c, d) => ((u(a) ^ u(c)) + u(d)) >>> 0),
  v_lshlrev_b64: f2((a, c) => (b(c) << BigInt(u(a) & 63)) & M64),
  v_lshrrev_b64: f2((a, c) => b(c) >> BigInt(u(a) & 63)),
  v_ashrrev_i64: f2((a, c) => (sx64(b(c)) >> BigInt(u(a) & 63)) & M64),
  v_bfm_b32: f2((a, c) => ((((2 ** (u(a) & 31)) - 1) * 2 ** (u(c) & 31)) % 2 ** 32) >>> 0),
  v_bcnt_u32_b32: f2((a, c) => (popcnt(u(a)) + u(c)) >>> 0),
  v_mbcnt_lo_u32_b32: { f: (s, e) => (popcnt(u(s[0] ?? 0) & (e.lane >= 32 ? 0xffffffff : (2 ** e.lane - 1))) + u(s[1] ?? 0)) >>> 0 },
  v_mbcnt_hi_u32_b32: { f: (s, e) => (popcnt(u(s[0] ?? 0) & (e.lane <= 32 ? 0 : (2 ** (e.lane - 32) - 1))) + u(s[1] ?? 0)) >>> 0 },
  v_cvt_pk_u16_u32: f2((a, c) => ((Math.min(u(a), 0xffff)) | (Math.min(u(c), 0xffff) << 16)) >>> 0),
  v_cvt_pk_i16_i32: f2((a, c) => { const cl = (x: number) => Math.max(-0x8000, Math.min(0x7fff, x)) & 0xffff; return (cl(i(a)) | (cl(i(c)) << 16)) >>> 0; }),
  v_perm_b32: f3((a, c, d) => {
    const bytes = [u(c) & 0xff, (u(c) >>> 8) & 0xff, (u(c) >>> 16) & 0xff, u(c) >>> 24, u(a) & 0xff, (u(a) >>> 8) & 0xff, (u(a) >>> 16) & 0xff, u(a) >>> 24];
    let r = 0;
    for (let k = 0; k < 4; k++) {
      const sel = (u(d) >>> (8 * k)) & 0xff;
      let x: number;
      if (sel <= 7) x = bytes[sel] ?? 0;
      else if (sel <= 11) { const src = bytes[(sel - 8) * 2 + 1] ?? 0; x = src & 0x80 ? 0xff : 0; }
      else if (sel === 12) x = 0; else x = 0xff;
      r |= x << (8 * k);
    }
    return r >>> 0;
  }),
  v_mad_u32_u16: f3((a, c, d) => (Math.imul(u16(a), u16(c)) + u(d)) >>> 0),
  v_mad_i32_i16: f3((a, c, d) => (Math.imul(s16(a), s16(c)) + i(d)) >>> 0),
  v_sad_u8: f3((a, c, d) => { let r = u(d); for (let k = 0; k < 32; k += 8) r += Math.abs(((u(a) >>> k) & 0xff) - ((u(c) >>> k) & 0xff)); return r >>> 0; }),
  v_sad_hi_u8: f3((a, c, d) => { let r = 0; for (let k = 0; k < 32; k += 8) r += Math.abs(((u(a) >>> k) & 0xff) - ((u(c) >>> k) & 0xff)); return ((r << 16) + u(d)) >>> 0; }),
  v_sad_u16: f3((a, c, d) => (Math.abs(u16(a) - u16(c)) + Math.abs((u(a) >>> 16) - (u(c) >>> 16)) + u(d)) >>> 0),
  v_sad_u32: f3((a, c, d) => (Math.abs(u(a) - u(c)) + u(d)) >>> 0),
  v_lerp_u8: f3((a, c, d) => { let r = 0; for (let k = 0; k < 32; k += 8) r |= ((((u(a) >>> k) & 0xff) + ((u(c) >>> k) & 0xff) + ((u(d) >>> k) & 1)) >>> 1) << k; return r >>> 0; }),
  // 16-bit integer ops (results land in the low or op_sel half; see valu.ts).
  v_add_nc_u16: { outMods: true, f: (s, e) => sat(e, u16(s[0] ?? 0) + u16(s[1] ?? 0), 0, 0xffff) & 0xffff },
  v_sub_nc_u16: { outMods: true, f: (s, e) => sat(e, u16(s[0] ?? 0) - u16(s[1] ?? 0), 0, 0xffff) & 0xffff },
  v_add_nc_i16: { outMods: true, f: (s, e) => sat(e, s16(s[0] ?? 0) + s16(s[1] ?? 0), -0x8000, 0x7fff) & 0xffff },
  v_sub_nc_i16: { outMods: true, f: (s, e) => sat(e, s16(s[0] ?? 0) - s16(s[1] ?? 0), -0x8000, 0x7fff) & 0xffff },
  v_mul_lo_u16: f2((a, c) => Math.imul(u16(a), u16(c)) & 0xffff),
  v_lshlrev_b16: f2((a, c) => (u16(c) << (u(a) & 15)) & 0xffff),
  v_lshrrev_b16: f2((a, c) => u16(c) >>> (u(a) & 15)),
  v_ashrrev_i16: f2((a, c) => (s16(c) >> (u(a) & 15)) & 0xffff),
  v_max_u16: f2((a, c) => Math.max(u16(a), u16(c))), v_min_u16: f2((a, c) => Math.min(u16(a), u16(c))),
  v_max_i16: f2((a, c) => Math.max(s16(a), s16(c)) & 0xffff), v_min_i16: f2((a, c) => Math.min(s16(a), s16(c)) & 0xffff),
  v_mad_u16: { outMods: true, f: (s, e) => sat(e, u16(s[0] ?? 0) * u16(s[1] ?? 0) + u16(s[2] ?? 0), 0, 0xffff) & 0xffff },
  v_mad_i16: { outMods: true, f: (s, e) => sat(e, s16(s[0] ?? 0) * s16(s[1] ?? 0) + s16(s[2] ?? 0), -0x8000, 0x7fff) & 0xffff },
  v_min3_i16: f3((a, c, d) => Math.min(s16(a), s16(c), s16(d)) & 0xffff), v_max3_i16: f3((a, c, d) => Math.max(s16(a), s16(c), s16(d)) & 0xffff),
  v_min3_u16: f3((a, c, d) => Math.min(u16(a), u16(c), u16(d))), v_max3_u16: f3((a, c, d) => Math.max(u16(a), u16(c), u16(d))),
  v_med3_i16: f3((a, c, d) => med3(s16(a), s16(c), s16(d)) & 0xffff), v_med3_u16: f3((a, c, d) => med3(u16(a), u16(c), u16(d))),
};

// Integer compares: 16-, 32- and 64-bit, signed and unsigned, VOPC and VOPCX.
for (const [name, f] of INT_CMPS) {
  for (const [suffix, conv] of [['i32', i], ['u32', u], ['i16', s16], ['u16', u16]] as const) {
    SEM[`v_cmp_${name}_${suffix}`] = cmp((a, c) => f(conv(a), conv(c)), false);
    SEM[`v_cmpx_${name}_${suffix}`] = cmp((a, c) => f(conv(a), conv(c)), true);
  }
  for (const [suffix, signed] of [['i64', true], ['u64', false]] as const) {
    const g = (a: Val, c: Val) => { const x = signed ? sx64(b(a)) : b(a), y = signed ? sx64(b(c)) : b(c); return f(x < y ? -1 : x > y ? 1 : 0, 0); };
    SEM[`v_cmp_${name}_${suffix}`] = cmp(g, false);
    SEM[`v_cmpx_${name}_${suffix}`] = cmp(g, true);
  }
}

export const VALU_INT: Record<string, Handler> = Object.fromEntries(Object.entries(SEM).map(([k, s]) => [k, valu(s)]));
