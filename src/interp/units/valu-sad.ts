// The masked and quad SAD ops and v_sat_pk_u8_i16, from the RDNA2 ISA reference pseudocode
// ("Vector ALU instructions"):
//  - v_msad_u8: D = S2 + Σ over bytes k of (S1.byte k == 0 ? 0 : |S0.byte k − S1.byte k|) (the
//    reference S1's zero bytes are masked out).
//  - v_qsad_pk_u16_u8: four SADs (v_sad_u8) of the byte windows S0[31:0], S0[39:8], S0[47:16],
//    S0[55:24] of the 64-bit S0 against S1, each accumulated with the 16-bit field j of the 64-bit
//    S2 and truncated to 16 bits into field j of the 64-bit D.
//  - v_mqsad_pk_u16_u8: the same with v_msad_u8.
//  - v_mqsad_u32_u8: the same four masked SADs, each with the 32-bit field j of the 128-bit S2,
//    into the 32-bit field j of the 128-bit D.
//  - v_sat_pk_u8_i16: D = {16'b0, sat8(S0[31:16]), sat8(S0[15:0])}, each signed 16-bit half
//    clamped to [0, 255]. The table's destination is 16 bits (LLVM: VOP_I16_I32), and gfx10 16-bit
//    results keep the register's high half; the ISA text writes 16 zero bits there: the choice
//    here (commented, listed in docs/TECHNICAL_DEBT.md) is the ISA text's, a 32-bit write (its SDWA
//    form's dst_sel applies to those 32 bits).
// Clamp is not defined for the SAD ops (as for v_sad_*): refused.
import type { Instruction } from '../../decode/types.js';
import type { InstrDef } from '../../isa/types.js';
import type { Handler } from '../context.js';
import { operandOf } from '../context.js';
import { InterpError, UnimplementedError } from '../errors.js';
import { readLane, writeLane } from '../operands.js';
import { execValu, type Val, type ValuSemantics, valu } from './valu.js';

const u = (v: Val | undefined) => Number(v ?? 0) >>> 0;
const byte = (x: number, k: number) => (x >>> (8 * k)) & 0xff;

/** Σ |a.byte k − b.byte k| over the four bytes; with `masked`, bytes where b's byte is 0 count 0. */
export function sadBytes(a: number, b: number, masked: boolean): number {
  let r = 0;
  for (let k = 0; k < 4; k++) if (!masked || byte(b, k) !== 0) r += Math.abs(byte(a, k) - byte(b, k));
  return r;
}

/** The byte window j (0..3) of a 64-bit S0: bits 8j+31 : 8j. */
const window = (s0: bigint, j: number) => Number((s0 >> BigInt(8 * j)) & 0xffffffffn);

/** v_qsad_pk_u16_u8 / v_mqsad_pk_u16_u8 on (S0: b64, S1: u32, S2: b64). */
const quadPk = (masked: boolean): ValuSemantics => ({
  f: (s) => {
    const s0 = BigInt.asUintN(64, BigInt(s[0] ?? 0)), s1 = u(s[1]), s2 = BigInt.asUintN(64, BigInt(s[2] ?? 0));
    let r = 0n;
    for (let j = 0; j < 4; j++) {
      const acc = Number((s2 >> BigInt(16 * j)) & 0xffffn);
      r |= BigInt((sadBytes(window(s0, j), s1, masked) + acc) & 0xffff) << BigInt(16 * j);
    }
    return r;
  },
});

const SAT8 = (h: number) => Math.min(255, Math.max(0, (h << 16) >> 16));

/** An instruction view whose vdst is 32 bits wide (v_sat_pk_u8_i16, see the header). */
const wide = new WeakMap<Instruction, Instruction>();
function wideDst(inst: Instruction): Instruction {
  let w = wide.get(inst);
  if (!w) {
    const def: InstrDef = { ...inst.def, operands: inst.def.operands.map((d) => (d.role === 'dst' ? { ...d, type: 'b32' as const } : d)) };
    w = { ...inst, def };
    wide.set(inst, w);
  }
  return w;
}

export const VALU_SAD: Record<string, Handler> = {
  v_msad_u8: valu({ f: (s) => (sadBytes(u(s[0]), u(s[1]), true) + u(s[2])) >>> 0 }),
  v_qsad_pk_u16_u8: valu(quadPk(false)),
  v_mqsad_pk_u16_u8: valu(quadPk(true)),
  // 128-bit destination and S2: outside the executor (which reads at most 64 bits); every source read before any write.
  v_mqsad_u32_u8: (inst, cx) => {
    if (inst.mods.clamp) throw new UnimplementedError('v_mqsad_u32_u8 with clamp/omod is not modelled');
    const st = cx.st;
    const op = (n: string) => operandOf(inst, n)?.value ?? (() => { throw new InterpError(`v_mqsad_u32_u8 has no operand ${n}`); })();
    const d = op('vdst'), a = op('src0'), b = op('src1'), c = op('src2');
    const out: [number, number[]][] = [];
    for (let l = 0; l < st.waveSize; l++) {
      if (!st.active(l)) continue;
      const s0 = BigInt(readLane(st, a, 'b64', l, 0) >>> 0) | (BigInt(readLane(st, a, 'b64', l, 1) >>> 0) << 32n);
      const s1 = readLane(st, b, 'u32', l) >>> 0;
      out.push([l, [0, 1, 2, 3].map((j) => (sadBytes(window(s0, j), s1, true) + (readLane(st, c, 'b128', l, j) >>> 0)) >>> 0)]);
      st.laneOps++;
    }
    for (const [l, r] of out) r.forEach((x, j) => writeLane(st, d, l, x, j));
  },
  v_sat_pk_u8_i16: (inst, cx) => execValu(wideDst(inst), cx, { f: (s) => (SAT8(u(s[0]) & 0xffff) | (SAT8(u(s[0]) >>> 16) << 8)) >>> 0 }),
};
