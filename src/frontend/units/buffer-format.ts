// Buffer format conversion in IR, the interpreter's rules (src/interp/units/buffer-format.ts) for
// the formats narrower than 32 bits, computed with integer ops only (no float op, so no MODE):
// a format's layout is a descriptor word (static for MTBUF, where folding removes what the format
// does not use; selected from the run-time V# format for MUBUF), and each component is converted
// for every number format, the right one selected. UNORM/SNORM quotients x / (2^p - 1) are exact
// here: T = floor(x * 2^47 / (2^p - 1)) holds the quotient's first 47 bits, the leading one gives
// the exponent, the next 23 (f32) or 10 (f16, with its subnormal grid of 2^-24) bits the
// mantissa, and the bit after them rounds (the remainder is never 0, so there are no ties).
import type { Builder, Inst } from '../../ir/ir.js';
import type { Op } from '../../ir/ops.js';
import { packComponent, type PackArith, STORE_NUMS } from '../../float/format-store.js';
import { bufferFormatInfo, type BufferFormatInfo, GFX10_BUFFER_FORMATS } from '../../isa/tables/mtbuf.js';
import type { TContext } from '../context.js';
import { IrIntArith } from '../int-arith.js';
import { listOf } from '../../ir/ir.js';

const NUM = STORE_NUMS;

/** What this file's builders use of a translation context (a helper function's builder can stand in: formatCx). */
export interface FormatCx { readonly b: Builder; u32(v: number): Inst; pack(lo: Inst, hi: Inst): Inst }

/** A FormatCx over a bare builder (for code built into a helper function). */
export const formatCx = (b: Builder): FormatCx => ({ b, u32: (v) => b.u32(v), pack: (lo, hi) => b.emit('Pack64', listOf(lo, hi)) });

/** Whether a format has a component narrower than 32 bits (the ones this file converts). */
export const isPackedFormat = (f: BufferFormatInfo): boolean => f.widths.some((w) => w !== 32);

/** Whether d16 stores to a format store its halves as they are (16-bit FLOAT/UINT/SINT components). */
export const d16Storable = (f: BufferFormatInfo): boolean => f.widths.every((w) => w === 16) && (f.num === 'FLOAT' || f.num === 'UINT' || f.num === 'SINT');

/**
 * A packed format's descriptor: widths x..w in bits 4:0, 9:5, 14:10, 19:15 (0: absent), the
 * number format (NUM index) in 22:20, the element's bytes in 26:23, d16Storable in bit 27, every
 * component whole bytes (8 or 16 bits) in bit 28; 0 for any other format value.
 */
export function descriptorOf(k: number): number {
  const f = bufferFormatInfo(k);
  if (!f || !isPackedFormat(f)) return 0;
  let d = 0;
  f.widths.forEach((w, c) => { d |= w << (5 * c); });
  return (d | (NUM.indexOf(f.num) << 20) | (f.bytes << 23) | (d16Storable(f) ? 1 << 27 : 0) | (f.widths.every((w) => w % 8 === 0) ? 1 << 28 : 0)) >>> 0;
}

/** The descriptor of a run-time format value (the V#'s dword 3 bits 18:12): a select per packed format. */
export function descriptorValue(cx: FormatCx, format: Inst): Inst {
  const b = cx.b;
  let d = cx.u32(0);
  for (let k = 0; k < GFX10_BUFFER_FORMATS.length; k++) {
    const v = descriptorOf(k);
    if (v !== 0) d = b.emit('Select32', listOf(b.emit('IEq32', listOf(format, cx.u32(k))), cx.u32(v), d));
  }
  return d;
}

/** A descriptor's fields as IR values. */
export interface Layout {
  readonly desc: Inst;
  readonly widths: readonly Inst[];
  readonly shifts: readonly Inst[];
  readonly num: Inst;
  readonly bytes: Inst;
}

export function layoutOf(cx: FormatCx, desc: Inst): Layout {
  const b = cx.b;
  const f = (sh: number, n: number) => b.emit('UBfe32', listOf(desc, cx.u32(sh), cx.u32(n)));
  const widths = [0, 1, 2, 3].map((c) => f(5 * c, 5));
  const shifts: Inst[] = [cx.u32(0)];
  for (let c = 1; c < 4; c++) shifts.push(b.emit('IAdd32', listOf(shifts[c - 1] as Inst, widths[c - 1] as Inst)));
  return { desc, widths, shifts, num: f(20, 3), bytes: f(23, 4) };
}

/**
 * Component c of an element (its bytes as lo, hi dwords) converted: f32 bits or the integer, or
 * with d16 the 16-bit result in the low half. A component the format lacks: 0, and for w 1 (1.0).
 */
export function convertComponent(cx: FormatCx, L: Layout, c: number, lo: Inst, hi: Inst, d16: boolean): Inst {
  const b = cx.b;
  const e = (op: Parameters<TContext['b']['emit']>[0], ...args: Inst[]) => b.emit(op, args);
  const K = (v: number) => cx.u32(v >>> 0);
  const sel = (c1: Inst, x: Inst, y: Inst) => e('Select32', c1, x, y);
  const w = L.widths[c] as Inst, sh = L.shifts[c] as Inst;
  const word = sel(e('UGe32', sh, K(32)), hi, lo);
  const r = e('UBfe32', word, e('And32', sh, K(31)), w);
  const s = e('SBfe32', r, K(0), w);
  const neg = e('SLt32', s, K(0));
  const abs = sel(neg, e('ISub32', K(0), s), s);
  const is = (n: (typeof NUM)[number]) => e('IEq32', L.num, K(NUM.indexOf(n)));
  const signBit = d16 ? 0x8000 : 0x80000000;
  const one = K(d16 ? 0x3c00 : 0x3f800000);
  const clz = (x: Inst) => e('Clz32', x);
  const top = (x: Inst) => e('ISub32', K(31), clz(x));

  // UNORM / SNORM: x / (2^p - 1), x = r (p = w) or |s| (p = w - 1); at least the divisor: 1.0.
  const snorm = is('SNORM');
  const x = sel(snorm, abs, r);
  const p = sel(snorm, e('ISub32', w, K(1)), w);
  const div = e('ISub32', e('Shl32', K(1), p), K(1));
  // (The divisor is at least 1: the other number formats' widths make it 0 where the result is not used.)
  const T = e('UDiv64', e('Shl64', cx.pack(x, K(0)), K(47)), cx.pack(e('UMax32', div, K(1)), K(0)));
  const tHi = e('Hi32', T), tLo = e('Lo32', T);
  const msb = sel(e('INe32', tHi, K(0)), e('IAdd32', top(tHi), K(32)), top(tLo));
  const P = e('ISub32', K(47), msb);
  const bitsAt = (shift: Inst, mask: number) => e('And32', e('Lo32', e('LShr64', T, shift)), K(mask));
  let q: Inst;
  if (!d16) {
    const mant = bitsAt(e('ISub32', K(24), P), 0x7fffff), round = bitsAt(e('ISub32', K(23), P), 1);
    q = e('IAdd32', e('Or32', e('Shl32', e('ISub32', K(127), P), K(23)), mant), round);
  } else {
    const normal = e('ULe32', P, K(14));
    const start = sel(normal, P, K(14));
    const exp = sel(normal, e('ISub32', K(15), P), K(0));
    const mant = bitsAt(e('ISub32', K(37), start), 0x3ff), round = bitsAt(e('ISub32', K(36), start), 1);
    q = e('IAdd32', e('Or32', e('Shl32', exp, K(10)), mant), round);
  }
  let norm = sel(e('IEq32', x, K(0)), K(0), sel(e('UGe32', x, div), one, q));
  norm = sel(e('AndU1', snorm, neg), e('Or32', norm, K(signBit)), norm);

  // USCALED / SSCALED: the integer r or s as a float (f32: exact; f16: nearest even, 65520 and up infinity).
  const sscaled = is('SSCALED');
  const m = sel(sscaled, abs, r);
  const t = top(m);
  let scaled: Inst;
  if (!d16) {
    scaled = e('Or32', e('Shl32', e('IAdd32', t, K(127)), K(23)), e('And32', e('Shl32', m, e('ISub32', K(23), t)), K(0x7fffff)));
  } else {
    const big = e('UGt32', t, K(10));
    const cut = sel(big, e('ISub32', t, K(10)), K(0));
    const kept = e('LShr32', m, cut);
    const rest = e('And32', m, e('ISub32', e('Shl32', K(1), cut), K(1)));
    const half = sel(big, e('Shl32', K(1), e('ISub32', cut, K(1))), K(0xffffffff));
    const up = e('OrU1', e('UGt32', rest, half), e('AndU1', e('IEq32', rest, half), e('INe32', e('And32', kept, K(1)), K(0))));
    const field = sel(big, e('And32', kept, K(0x3ff)), e('And32', e('Shl32', m, e('ISub32', K(10), t)), K(0x3ff)));
    scaled = e('IAdd32', e('Or32', e('Shl32', e('IAdd32', t, K(15)), K(10)), field), e('U1ToU32', up));
  }
  scaled = sel(e('IEq32', m, K(0)), K(0), scaled);
  scaled = sel(e('AndU1', sscaled, neg), e('Or32', scaled, K(signBit)), scaled);

  // FLOAT: an f16 (w 16) or an unsigned float of 5 exponent and w - 5 mantissa bits.
  const w16 = e('IEq32', w, K(16));
  const mb = sel(w16, K(10), e('ISub32', w, K(5)));
  const fe = e('UBfe32', r, mb, K(5));
  const fm = e('UBfe32', r, K(0), mb);
  const fsign = sel(w16, e('LShr32', r, K(15)), K(0));
  let float: Inst;
  if (d16) float = sel(w16, r, e('Or32', e('Shl32', fe, K(10)), e('Shl32', fm, e('ISub32', K(10), mb))));
  else {
    const wide = e('Shl32', fm, e('ISub32', K(23), mb));
    const normal = e('Or32', e('Shl32', e('IAdd32', fe, K(112)), K(23)), wide);
    const special = e('Or32', K(0x7f800000), wide);
    const st = top(fm);
    const sub = e('Or32', e('Shl32', e('ISub32', e('IAdd32', st, K(113)), mb), K(23)), e('And32', e('Shl32', fm, e('ISub32', K(23), st)), K(0x7fffff)));
    const zeroExp = sel(e('IEq32', fm, K(0)), K(0), sub);
    float = sel(e('IEq32', fe, K(31)), special, sel(e('IEq32', fe, K(0)), zeroExp, normal));
    float = e('Or32', float, e('Shl32', fsign, K(31)));
  }

  const int = sel(is('UINT'), r, s);
  const intResult = d16 ? e('And32', int, K(0xffff)) : int;
  let out = sel(is('FLOAT'), float, intResult);
  out = sel(e('OrU1', is('USCALED'), sscaled), scaled, out);
  out = sel(e('OrU1', is('UNORM'), snorm), norm, out);
  // Absent: 0, w's 1 (1.0 unless UINT/SINT).
  const intFormat = e('OrU1', is('UINT'), is('SINT'));
  const absent = c === 3 ? sel(intFormat, K(1), one) : K(0);
  return sel(e('IEq32', w, K(0)), absent, out);
}

/** The value of dst_sel 1 (one): 1, or 1.0 (f32 or, with d16, f16) for the float number formats. */
export function oneOf(cx: FormatCx, L: Layout, d16: boolean): Inst {
  const b = cx.b;
  const num = L.num;
  const int = b.emit('OrU1', listOf(b.emit('IEq32', listOf(num, cx.u32(NUM.indexOf('UINT')))), b.emit('IEq32', listOf(num, cx.u32(NUM.indexOf('SINT'))))));
  return b.emit('Select32', listOf(int, cx.u32(1), cx.u32(d16 ? 0x3c00 : 0x3f800000)));
}

/** src/float/format-store.ts's arithmetic as IR (u32, u1, u64 values; integer ops only). */
export class IrPackArith extends IrIntArith implements PackArith<Inst, Inst, Inst> {
  or(a: Inst, b: Inst): Inst { return this.e('Or32', a, b); }
  // The IR's shifts take the amount modulo 32 (64), as PackArith's.
  shl(a: Inst, n: Inst): Inst { return this.e('Shl32', a, n); }
  shr(a: Inst, n: Inst): Inst { return this.e('LShr32', a, n); }
  slt(a: Inst, b: Inst): Inst { return this.e('SLt32', a, b); }
  not(a: Inst): Inst { return this.e('NotU1', a); }
  either(a: Inst, b: Inst): Inst { return this.e('OrU1', a, b); }
  clz(a: Inst): Inst { return this.e('Clz32', a); }
  shrW(a: Inst, n: Inst): Inst { return this.e('LShr64', a, n); }
  shlW(a: Inst, n: Inst): Inst { return this.e('Shl64', a, n); }
  neW(a: Inst, b: Inst): Inst { return this.e('INe64', a, b); }
  loW(a: Inst): Inst { return this.e('Lo32', a); }
}

/**
 * Data channel `x` (a dword, or with d16 a half in the low bits) converted into component c of a
 * packed format's layout for a store (src/float/format-store.ts): its bits in the low w bits.
 */
export function storeComponent(cx: FormatCx, L: Layout, c: number, x: Inst, d16: boolean): Inst {
  return packComponent(new IrPackArith(cx.b), L.num, L.widths[c] as Inst, x, d16);
}

/** Whether a descriptor's components are all whole bytes (bit 28). */
export function alignedOf(cx: FormatCx, desc: Inst): Inst {
  return cx.b.emit('INe32', listOf(cx.b.emit('And32', listOf(desc, cx.u32(1 << 28))), cx.u32(0)));
}
