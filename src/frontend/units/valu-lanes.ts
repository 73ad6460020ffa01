// The row permutes v_permlane16_b32 and v_permlanex16_b32 (VOP3) to IR, as the interpreter runs
// them (src/interp/units/valu-lanes.ts permlane): lane l takes src0 from lane sel(l & 15) of its
// own row of 16 (permlane16) or of the other row of its pair (permlanex16: rows 0 and 1, 2 and 3),
// sel(i) = bits 4i+3:4i of the 64-bit {src2, src1} (wave-uniform: SGPRs or constants). op_sel[0]
// is FI, op_sel[1] BOUND_CTRL: without FI a source lane off in EXEC is invalid, and a lane with an
// invalid source reads 0 under BOUND_CTRL and keeps vdst otherwise (the interpreter's choice,
// DPP's rule). The source lane's value comes through ReadLane (every lane of the wave takes part,
// inactive ones included), as the DPP forms' (./dpp.ts); neg/abs bits are ignored (LLVM drops them).
import type { Inst } from '../../ir/ir.js';
import { EXEC_LO, type TContext, type Translator } from '../context.js';
import { listOf } from '../../ir/ir.js';

const permlane = (cross: boolean): Translator => (cx: TContext) => {
  const i = cx.inst, b = cx.b, c = (v: number) => cx.u32(v);
  if (i.mods.clamp || i.mods.omod) cx.fail(`${i.def.mnemonic} with clamp/omod (internal: the encoding has none)`);
  const opsel = i.mods.opsel ?? 0, fi = (opsel & 1) !== 0, boundCtrl = (opsel & 2) !== 0;
  const sel1 = cx.scalar(cx.op('src1').value, 'u32'), sel2 = cx.scalar(cx.op('src2').value, 'u32');
  const l = b.emit('LaneId');
  const pos = b.emit('And32', listOf(l, c(15)));
  // The select word (src1 for positions 0-7, src2 for 8-15) and the nibble's shift 4 * (pos & 7).
  const word = b.emit('Select32', listOf(b.emit('ULt32', listOf(pos, c(8))), sel1, sel2));
  const sel = b.emit('And32', listOf(b.emit('LShr32', listOf(word, b.emit('Shl32', listOf(b.emit('And32', listOf(l, c(7))), c(2))))), c(15)));
  let row = b.emit('And32', listOf(l, c(~15 >>> 0)));
  if (cross) row = b.emit('Xor32', listOf(row, c(16)));
  const lane = b.emit('Or32', listOf(row, sel));
  let x: Inst = b.emit('ReadLane', listOf(cx.lane(cx.op('src0').value, 'b32'), lane));
  let active = cx.execBit();
  if (!fi) {
    const hi = cx.waveSize === 64 ? b.getSgpr(EXEC_LO + 1) : c(0);
    const valid = b.emit('LaneBit', listOf(b.getSgpr(EXEC_LO), hi, lane));
    if (boundCtrl) x = b.emit('Select32', listOf(valid, x, c(0)));
    else active = b.emit('AndU1', listOf(active, valid));
  }
  cx.writeLane(cx.op('vdst').value, x, 0, active);
};

export const VALU_LANES: Record<string, Translator> = {
  v_permlane16_b32: permlane(false),
  v_permlanex16_b32: permlane(true),
};
