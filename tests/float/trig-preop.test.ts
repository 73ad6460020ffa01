// v_trig_preop_f64 (src/float/special.ts trigPreopF64). The oracle: 2/π's bits computed here from
// Machin's formula (π = 16 atan(1/5) - 4 atan(1/239)) in BigInt fixed point, and the ISA's
// pseudocode (V_TRIG_PREOP_F64, quoted in special.ts) evaluated by hand: the 53 bits from `shift`
// times 2^scale in double arithmetic where the result is normal (exact), a BigInt shift (toward
// zero) where it is subnormal.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fl from '../../src/float/index.js';

/** floor(2/π · 2^bits), from π by Machin's formula with 64 guard bits. */
function twoOverPiBits(bits: number): bigint {
  const g = BigInt(bits + 64);
  const one = 1n << g;
  const atanInv = (k: bigint): bigint => {
    // atan(1/k) = Σ (-1)^n / ((2n+1) k^(2n+1))
    let sum = 0n, term = one / k, n = 0n;
    const k2 = k * k;
    while (term !== 0n) {
      sum += (n % 2n === 0n ? 1n : -1n) * (term / (2n * n + 1n));
      term /= k2;
      n++;
    }
    return sum;
  };
  const pi = 16n * atanInv(5n) - 4n * atanInv(239n);
  return ((2n * one * one) / pi) >> 64n;
}

const BITS = 1184;
const TABLE = twoOverPiBits(BITS);
const segment = (shift: number) => (TABLE >> BigInt(BITS - 53 - shift)) & ((1n << 53n) - 1n);
const f64 = (x: number) => { const v = new DataView(new ArrayBuffer(8)); v.setFloat64(0, x); return v.getBigUint64(0); };
const num = (b: bigint) => { const v = new DataView(new ArrayBuffer(8)); v.setBigUint64(0, b); return v.getFloat64(0); };
/** A double with biased exponent `e` and fraction 0. */
const withExp = (e: number) => BigInt(e) << 52n;

test('the table is 2/π', () => {
  let t = 0n;
  for (const w of fl.TWO_OVER_PI_WORDS) t = (t << 32n) | BigInt(w);
  assert.equal(fl.TWO_OVER_PI_WORDS.length * 32, BITS);
  assert.equal(t.toString(16), TABLE.toString(16));
});

test('x = 1: segments 0..2 are 2/π in 53-bit pieces; their sum is 2/π', () => {
  const one = f64(1);
  for (let k = 0; k < 3; k++) {
    const want = Number(segment(53 * k)) * 2 ** (-53 - 53 * k);
    assert.equal(fl.trigPreopF64(one, k), f64(want), `segment ${k}`);
  }
  // Segment 0 is 2/π toward zero: 0x3fe45f306dc9c882 (2/π to nearest is ...883).
  assert.equal(fl.trigPreopF64(one, 0), 0x3fe45f306dc9c882n);
  const sum = num(fl.trigPreopF64(one, 0)) + num(fl.trigPreopF64(one, 1)) + num(fl.trigPreopF64(one, 2));
  assert.equal(sum, 2 / Math.PI);
});

test('the sign, the fraction and exponents up to 1077 do not move the segment; S1 reads bits 4:0', () => {
  const base = fl.trigPreopF64(f64(1), 1);
  for (const x of [-1, 0, 3.75, 2 ** -1000, 2 ** 54, -(2 ** 54) * 1.5]) assert.equal(fl.trigPreopF64(f64(x), 1), base, String(x));
  assert.equal(fl.trigPreopF64(withExp(1077), 1), base);
  assert.equal(fl.trigPreopF64(f64(1), 33), base);
});

test('exponents above 1077 shift by exponent - 1077; from 1968 the scale gains 128', () => {
  for (const [e, k] of [[1083, 0], [1200, 2], [1967, 1], [1968, 0], [2023, 3], [2046, 2]] as const) {
    const shift = 53 * k + e - 1077;
    const scale = -53 - shift + (e >= 1968 ? 128 : 0);
    const want = Number(segment(shift)) * 2 ** scale;
    assert.ok(want >= 2 ** -1022, 'a normal result');
    assert.equal(fl.trigPreopF64(withExp(e) | 0x12345n, k), f64(want), `exp ${e} segment ${k}`);
  }
});

test('a subnormal result keeps the bits of 2/π down to the 2^-1074 place', () => {
  // exp 1107, segment 19: shift 1007 + 30 = 1037, scale -1090: the result is seg · 2^-1090, a
  // subnormal whose fraction field is seg >> 16.
  const seg = segment(1037);
  assert.equal(fl.trigPreopF64(withExp(1107), 19), seg >> 16n);
  // Every subnormal result (exponent < 1968) ends at the 2^-1074 place of 2/π; the next bit (the
  // 2^-1075 place, table bit 1074) is 0, so toward zero and to nearest give the same result.
  assert.equal((TABLE >> BigInt(BITS - 1 - 1074)) & 1n, 0n);
  assert.equal(f64(Number(seg) * 2 ** -1000 * 2 ** -90), seg >> 16n);
});

test('segments at or past bit 1120 are +0; infinity follows the exponent; NaN is quieted', () => {
  // Segment 21 of x = 1 (shift 1113) is inside the table but below every subnormal: seg >> 92 = 0.
  assert.equal(fl.trigPreopF64(f64(1), 21), segment(1113) >> 92n);
  assert.equal(fl.trigPreopF64(withExp(1083), 21), segment(1119) >> 98n);
  assert.equal(fl.trigPreopF64(withExp(1084), 21), 0n); // shift 1113 + 7 = 1120
  assert.equal(fl.trigPreopF64(f64(1), 31), 0n);
  // Infinity: exponent 2047 (shift 970 + 53k, scale + 128).
  assert.equal(fl.trigPreopF64(f64(Infinity), 0), f64(Number(segment(970)) * 2 ** (-53 - 970 + 128)));
  assert.equal(fl.trigPreopF64(f64(-Infinity), 1), f64(Number(segment(1023)) * 2 ** (-53 - 1023 + 128)));
  assert.equal(fl.trigPreopF64(0x7ff0000000000001n, 0), 0x7ff8000000000001n);
  assert.equal(fl.trigPreopF64(0xfff8000000000123n, 5), 0xfff8000000000123n);
});
