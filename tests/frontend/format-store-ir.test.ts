// The recompiler's instance of src/float/format-store.ts (IrPackArith, src/frontend/units/
// buffer-format.ts: integer IR ops only) through the IR interpreter, against
// tests/interp/format-store-ref.ts (the exact-rational model of the rules): every number format
// and width as run-time values (as a MUBUF V# or a T# gives them), f32 and d16 channels, under both
// values of FORMAT_STORE_ROUNDING, so that the recompiler follows the switch as the interpreter
// does (tests/interp/format-store.test.ts checks the interpreter's instance the same way).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Builder, Inst } from '../../src/ir/ir.js';
import { packComponent, STORE_NUMS } from '../../src/float/format-store.js';
import { IrPackArith } from '../../src/frontend/units/buffer-format.js';
import { Rng } from '../harness/rng.js';
import { type Num, PACK_WIDTHS, refPack, type Rounding } from '../interp/format-store-ref.js';
import { halfChannel, intChannel, storeChannel } from '../interp/image-kernels.js';
import { LANES, runBody } from '../ir/lower-wide-harness.js';

/** Lane input: u64 0 = x | num << 32 | w << 40. */
const body = (d16: boolean, rounding: Rounding) => (b: Builder, v: readonly Inst[]): Inst => {
  const r = v[0] as Inst;
  const hi = b.emit('Hi32', [r]);
  const num = b.emit('UBfe32', [hi, b.u32(0), b.u32(8)]), w = b.emit('UBfe32', [hi, b.u32(8), b.u32(8)]);
  return b.emit('Pack64', [packComponent(new IrPackArith(b), num, w, b.emit('Lo32', [r]), d16, rounding), b.u32(0)]);
};

for (const rounding of ['nearest-even', 'd3d'] as const satisfies readonly Rounding[]) {
  for (const d16 of [false, true]) {
    test(`packComponent over IR equals the reference: every number format and width at run time, ${d16 ? 'd16 halves' : 'f32 / integer channels'} (${rounding})`, () => {
      const rng = new Rng(0x1e5 + (d16 ? 1 : 0));
      const rows: { num: Num; w: number; x: number }[] = [];
      for (const [num, widths] of Object.entries(PACK_WIDTHS) as [Num, readonly number[]][]) {
        const int = num === 'UINT' || num === 'SINT';
        for (const w of widths) for (let k = 0; k < 4 * LANES; k++) {
          const x = d16 ? halfChannel(rng, int) | ((rng.u32() & 0xffff) << 16) : int ? intChannel(rng) : storeChannel(rng);
          rows.push({ num, w, x: x >>> 0 });
        }
      }
      for (let at = 0; at < rows.length; at += LANES) {
        const batch = rows.slice(at, at + LANES);
        while (batch.length < LANES) batch.push(rows[0] as (typeof rows)[number]);
        const out = runBody(batch.map((r) => [BigInt(r.x) | (BigInt(STORE_NUMS.indexOf(r.num)) << 32n) | (BigInt(r.w) << 40n)]), body(d16, rounding));
        batch.forEach((r, l) => {
          const want = refPack(r.num, r.w, r.x, d16, rounding);
          assert.equal(Number(out[l] ?? -1n), want, `${r.num} ${r.w} bits from 0x${r.x.toString(16)}${d16 ? ' (d16)' : ''}`);
        });
      }
    });
  }
}
