// VALU instructions that cross lanes or write scalars: v_readfirstlane_b32, v_readlane_b32,
// v_writelane_b32 (these ignore EXEC for the lane they name), v_swap_b32, v_movrel*_b32 (M0-indexed
// VGPRs), v_permlane16_b32 / v_permlanex16_b32 (a lane select within each row of 16 lanes, or
// from the other row of its pair). RDNA2 ISA reference, VOP1/VOP3 pseudocode.
import type { Handler } from '../context.js';
import { operand } from '../context.js';
import { InterpError, UnimplementedError } from '../errors.js';
import { readLane, readScalar, writeLane, writeScalar } from '../operands.js';
import { M0 } from '../state.js';
import type { Instruction } from '../../decode/types.js';
import type { ExecContext } from '../context.js';

/** VGPR index + M0 for v_movrel*: must stay inside the shader's VGPRs. */
function rel(v: ReturnType<typeof operand>, m0: number, vgprs: number, what: string): ReturnType<typeof operand> {
  if (v.kind !== 'vgpr') throw new InterpError(`${what} names a ${v.kind}, not a VGPR`);
  const index = v.index + m0;
  if (index >= vgprs) throw new InterpError(`${what}: v${v.index} + M0 (${m0}) is beyond the shader's ${vgprs} VGPRs`);
  return { kind: 'vgpr', index, count: 1 };
}

/** The M0-indexed moves run their plain (e32/e64) forms only: their DPP and SDWA forms are refused. */
function plain(h: Handler): Handler {
  return (i, cx) => {
    if (i.variant === 'dpp16' || i.variant === 'dpp8' || i.variant === 'sdwa') throw new UnimplementedError(`the ${i.variant.toUpperCase()} form of ${i.def.mnemonic} is not modelled`);
    h(i, cx);
  };
}

/**
 * The source lane of v_permlane16_b32 (`cross` false) / v_permlanex16_b32 (`cross` true) for lane
 * l: the 4-bit select of l's position i = l & 15 in its row, bits 4i+3:4i of the 64-bit
 * {src2, src1}, within l's own row (permlane16) or the other row of its pair (permlanex16: rows 0
 * and 1 swap, 2 and 3 swap). RDNA2 ISA reference, V_PERMLANE16_B32 / V_PERMLANEX16_B32.
 */
export function permlaneSource(l: number, sel1: number, sel2: number, cross: boolean): number {
  const i = l & 15;
  const sel = ((i < 8 ? sel1 >>> (4 * i) : sel2 >>> (4 * (i - 8))) & 15);
  return ((l & ~15) ^ (cross ? 16 : 0)) + sel;
}

/**
 * v_permlane16_b32 / v_permlanex16_b32: each lane on in EXEC takes src0 from its source lane
 * (permlaneSource); op_sel[0] is FI and op_sel[1] BOUND_CTRL (as LLVM encodes them: the
 * intrinsic's fi and bound_control operands). The ISA's pseudocode names no rule for a source lane
 * that is off in EXEC; the choice (DPP's, whose lane network these instructions use): without FI
 * such a source is invalid, and a lane with an invalid source reads 0 under BOUND_CTRL and is not
 * written (keeps vdst, the "old" value LLVM ties to it) otherwise. Every source is read before any
 * lane is written (vdst may be src0). Neg/abs bits are ignored (LLVM decodes and drops them).
 */
function permlane(cross: boolean): Handler {
  return (i: Instruction, cx: ExecContext) => {
    const st = cx.st;
    const opsel = i.mods.opsel ?? 0, fi = (opsel & 1) !== 0, boundCtrl = (opsel & 2) !== 0;
    const sel1 = readScalar(st, operand(i, 'src1'), 'u32'), sel2 = readScalar(st, operand(i, 'src2'), 'u32');
    const src = operand(i, 'src0'), dst = operand(i, 'vdst');
    const out: [number, number][] = [];
    for (let l = 0; l < st.waveSize; l++) {
      if (!st.active(l)) continue;
      const s = permlaneSource(l, sel1, sel2, cross);
      const valid = fi || st.active(s);
      if (valid) out.push([l, readLane(st, src, 'b32', s)]);
      else if (boundCtrl) out.push([l, 0]);
    }
    for (const [l, v] of out) writeLane(st, dst, l, v);
  };
}

export const VALU_LANES: Record<string, Handler> = {
  v_permlane16_b32: permlane(false),
  v_permlanex16_b32: permlane(true),
  v_readfirstlane_b32: (i, cx) => {
    let lane = 0;
    for (let l = 0; l < cx.st.waveSize; l++) if (cx.st.active(l)) { lane = l; break; }
    writeScalar(cx.st, operand(i, 'sdst'), readLane(cx.st, operand(i, 'src0'), 'b32', lane));
  },
  v_readlane_b32: (i, cx) => {
    const lane = readScalar(cx.st, operand(i, 'src1'), 'u32') & (cx.st.waveSize - 1);
    writeScalar(cx.st, operand(i, 'sdst'), readLane(cx.st, operand(i, 'src0'), 'b32', lane));
  },
  v_writelane_b32: (i, cx) => {
    const lane = readScalar(cx.st, operand(i, 'src1'), 'u32') & (cx.st.waveSize - 1);
    writeLane(cx.st, operand(i, 'vdst'), lane, readScalar(cx.st, operand(i, 'src0'), 'b32'));
  },
  v_swap_b32: (i, cx) => {
    const a = operand(i, 'vdst'), b = operand(i, 'src0');
    for (let l = 0; l < cx.st.waveSize; l++) {
      if (!cx.st.active(l)) continue;
      const x = readLane(cx.st, a, 'b32', l), y = readLane(cx.st, b, 'b32', l);
      writeLane(cx.st, a, l, y); writeLane(cx.st, b, l, x);
    }
  },
  v_movrels_b32: plain((i, cx) => {
    const src = rel(operand(i, 'src0'), cx.st.sgpr[M0] ?? 0, cx.st.vgprCount, 'v_movrels_b32');
    for (let l = 0; l < cx.st.waveSize; l++) if (cx.st.active(l)) writeLane(cx.st, operand(i, 'vdst'), l, readLane(cx.st, src, 'b32', l));
  }),
  v_movreld_b32: plain((i, cx) => {
    const dst = rel(operand(i, 'vdst'), cx.st.sgpr[M0] ?? 0, cx.st.vgprCount, 'v_movreld_b32');
    for (let l = 0; l < cx.st.waveSize; l++) if (cx.st.active(l)) writeLane(cx.st, dst, l, readLane(cx.st, operand(i, 'src0'), 'b32', l));
  }),
  v_movrelsd_b32: plain((i, cx) => {
    const m0 = cx.st.sgpr[M0] ?? 0;
    const src = rel(operand(i, 'src0'), m0, cx.st.vgprCount, 'v_movrelsd_b32');
    const dst = rel(operand(i, 'vdst'), m0, cx.st.vgprCount, 'v_movrelsd_b32');
    for (let l = 0; l < cx.st.waveSize; l++) if (cx.st.active(l)) writeLane(cx.st, dst, l, readLane(cx.st, src, 'b32', l));
  }),
  // RDNA2 ISA reference, V_MOVRELSD_2_B32: addrs = SRC0 + M0[9:0]; addrd = DST + M0[25:16];
  // VGPR[laneId][addrd] = VGPR[laneId][addrs].
  v_movrelsd_2_b32: plain((i, cx) => {
    const m0 = cx.st.sgpr[M0] ?? 0;
    const src = rel(operand(i, 'src0'), m0 & 0x3ff, cx.st.vgprCount, 'v_movrelsd_2_b32');
    const dst = rel(operand(i, 'vdst'), (m0 >>> 16) & 0x3ff, cx.st.vgprCount, 'v_movrelsd_2_b32');
    for (let l = 0; l < cx.st.waveSize; l++) if (cx.st.active(l)) writeLane(cx.st, dst, l, readLane(cx.st, src, 'b32', l));
  }),
  // V_SWAPREL_B32: the same two indexes (src0 + M0[9:0], vdst + M0[25:16]); the two VGPRs swap
  // (tmp = VGPR[addrd]; VGPR[addrd] = VGPR[addrs]; VGPR[addrs] = tmp), in active lanes.
  v_swaprel_b32: (i, cx) => {
    const m0 = cx.st.sgpr[M0] ?? 0;
    const a = rel(operand(i, 'src0'), m0 & 0x3ff, cx.st.vgprCount, 'v_swaprel_b32');
    const d = rel(operand(i, 'vdst'), (m0 >>> 16) & 0x3ff, cx.st.vgprCount, 'v_swaprel_b32');
    for (let l = 0; l < cx.st.waveSize; l++) {
      if (!cx.st.active(l)) continue;
      const x = readLane(cx.st, d, 'b32', l), y = readLane(cx.st, a, 'b32', l);
      writeLane(cx.st, d, l, y); writeLane(cx.st, a, l, x);
    }
  },
  // No effect a kernel can observe (the AMD ISA references' VOP1 texts): v_pipeflush "flush the VALU destination
  // cache" (a hardware cache of results, invisible to the program); v_clrexcp "clear wave's
  // exception state in SIMD" (TRAPSTS.EXCP, readable only through s_getreg of HW_REG_TRAPSTS,
  // which the interpreter refuses; the float model raises no exception flags).
  v_pipeflush: () => undefined,
  v_clrexcp: () => undefined,
  // An illegal-instruction exception (non-maskable), which enters the trap handler as s_trap does;
  // none runs here, so the run stops (the recompiled kernel faults: src/frontend/index.ts).
  v_illegal: () => { throw new InterpError('v_illegal: an illegal instruction (no trap handler)'); },
};
