// The DPP16 and DPP8 forms of VOP1/VOP2 (gfx10 has no VOPC DPP form), as the interpreter's
// executor applies them (src/interp/units/valu.ts execValu, dpp16Source): src0, and only the
// operand named src0 (an accumulator vdst read as a source is not), comes from another lane of
// the wave. Per lane l: the source lane of the control (quad_perm, row_shl/shr/ror, row_mirror,
// row_half_mirror, row_share, row_xmask; DPP8's select within l's group of 8); the source is
// invalid where the control names no lane (row_shl/shr past the row's edge) or, without fi, where
// the source lane is off in EXEC. A lane is written (its VGPR, its compare or carry bit) where it
// is on in EXEC, its row and bank are on in row_mask/bank_mask (DPP16), and its source is valid
// or bound_ctrl is set (then src0 reads 0, before neg/abs). DPP8 has no bound_ctrl: a lane with
// an invalid source keeps its destination. The source lane's value comes through ReadLane (every
// lane of the wave takes part, inactive ones included).
import type { Inst } from '../../ir/ir.js';
import { EXEC_LO, type TContext } from '../context.js';
import { listOf } from '../../ir/ir.js';

export interface DppLanes {
  /** The lanes the instruction writes: EXEC, row_mask/bank_mask, and a valid source unless bound_ctrl. */
  readonly active: Inst;
  /** src0 for this lane from the register's per-lane value `v` (0 where the source is invalid, under bound_ctrl). */
  readonly src0: (v: Inst) => Inst;
}

/** The source lane of a DPP16 control for lane `l`, and (row_shl/shr) whether it lies in l's row. */
function dpp16Source(cx: TContext, ctrl: number, l: Inst): { lane: Inst; inRow?: Inst } {
  const b = cx.b, c = (v: number) => cx.u32(v);
  const row = b.emit('And32', listOf(l, c(~15 >>> 0))), r = b.emit('And32', listOf(l, c(15)));
  if (ctrl <= 0xff) {
    // quad_perm: lane (l & ~3) + the 2-bit select of l & 3.
    const sel = b.emit('And32', listOf(b.emit('LShr32', listOf(c(ctrl), b.emit('Shl32', listOf(b.emit('And32', listOf(l, c(3))), c(1))))), c(3)));
    return { lane: b.emit('Or32', listOf(b.emit('And32', listOf(l, c(~3 >>> 0))), sel)) };
  }
  const n = ctrl & 0xf;
  switch (ctrl & 0x1f0) {
    case 0x100: { // row_shl: the lane n above, inside the row
      const inRow = b.emit('ULt32', listOf(r, c(16 - n)));
      return { lane: b.emit('Select32', listOf(inRow, b.emit('IAdd32', listOf(l, c(n))), l)), inRow };
    }
    case 0x110: { // row_shr: the lane n below, inside the row
      const inRow = b.emit('UGe32', listOf(r, c(n)));
      return { lane: b.emit('Select32', listOf(inRow, b.emit('ISub32', listOf(l, c(n))), l)), inRow };
    }
    case 0x120: return { lane: b.emit('Or32', listOf(row, b.emit('And32', listOf(b.emit('ISub32', listOf(l, c(n))), c(15))))) }; // row_ror
    case 0x140:
      if (n === 0) return { lane: b.emit('Xor32', listOf(l, c(15))) }; // row_mirror
      if (n === 1) return { lane: b.emit('Xor32', listOf(l, c(7))) }; // row_half_mirror
      break;
    case 0x150: return { lane: b.emit('Or32', listOf(row, c(n))) }; // row_share
    case 0x160: return { lane: b.emit('Xor32', listOf(l, c(n))) }; // row_xmask
    default: break;
  }
  return cx.fail(`dpp_ctrl 0x${ctrl.toString(16)} is not a gfx10 control`);
}

/** Bit `index` of the constant `mask` as a u1. */
const bitOf = (cx: TContext, mask: number, index: Inst) => cx.b.emit('INe32', listOf(cx.b.emit('And32', listOf(cx.b.emit('LShr32', listOf(cx.u32(mask), index)), cx.u32(1))), cx.u32(0)));

/** The instruction's DPP lanes, or undefined for a form without DPP. Read EXEC before the instruction writes it. */
export function dppLanes(cx: TContext): DppLanes | undefined {
  const v = cx.inst.variant;
  // The closures of a DPP form's lanes are made in their own function: here they would make V8
  // allocate this function's variables at every call, for every VALU instruction.
  return v === 'dpp16' || v === 'dpp8' ? dppLanesOf(cx) : undefined;
}

function dppLanesOf(cx: TContext): DppLanes {
  const i = cx.inst;
  cx.dppApplied = true;
  const b = cx.b, c = (v: number) => cx.u32(v);
  const l = b.emit('LaneId');
  const exec = cx.execBit();
  let lane: Inst, inRow: Inst | undefined, fi: boolean, boundCtrl = false, active = exec;
  if (i.variant === 'dpp8') {
    const d = i.mods.dpp8 ?? cx.fail('a DPP8 form without its selects');
    const sels = d.sel.reduce((acc, s, k) => acc | ((s & 7) << (3 * k)), 0);
    const sel = b.emit('And32', listOf(b.emit('LShr32', listOf(c(sels), b.emit('IMul32', listOf(b.emit('And32', listOf(l, c(7))), c(3))))), c(7)));
    lane = b.emit('Or32', listOf(b.emit('And32', listOf(l, c(~7 >>> 0))), sel));
    fi = d.fi;
  } else {
    const d = i.mods.dpp ?? cx.fail('a DPP16 form without its controls');
    ({ lane, inRow } = dpp16Source(cx, d.ctrl, l));
    fi = d.fi;
    boundCtrl = d.boundCtrl;
    // Rows (16 lanes) and banks (lanes 4k..4k+3 of each row) masked off keep their destination.
    const rows = (1 << (cx.waveSize / 16)) - 1;
    if ((d.rowMask & rows) !== rows) active = b.emit('AndU1', listOf(active, bitOf(cx, d.rowMask, b.emit('LShr32', listOf(l, c(4))))));
    if ((d.bankMask & 0xf) !== 0xf) active = b.emit('AndU1', listOf(active, bitOf(cx, d.bankMask, b.emit('And32', listOf(b.emit('LShr32', listOf(l, c(2))), c(3))))));
  }
  // Invalid: no lane (outside the row), or (without fi) a lane off in EXEC.
  let valid = inRow;
  if (!fi) {
    const hi = cx.waveSize === 64 ? b.getSgpr(EXEC_LO + 1) : c(0);
    const on = b.emit('LaneBit', listOf(b.getSgpr(EXEC_LO), hi, lane));
    valid = valid ? b.emit('AndU1', listOf(valid, on)) : on;
  }
  if (valid && !boundCtrl) active = b.emit('AndU1', listOf(active, valid));
  const ok = valid;
  return {
    active,
    // Without bound_ctrl a lane with an invalid source is not written, so its value does not matter.
    src0: (v) => {
      const x = b.emit('ReadLane', listOf(v, lane));
      return ok && boundCtrl ? b.emit('Select32', listOf(ok, x, c(0))) : x;
    },
  };
}
