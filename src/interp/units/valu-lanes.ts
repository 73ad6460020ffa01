// VALU instructions that cross lanes or write scalars: v_readfirstlane_b32, v_readlane_b32,
// v_writelane_b32 (these ignore EXEC for the lane they name), v_swap_b32, v_movrel*_b32 (M0-indexed
// VGPRs). RDNA2 ISA reference, VOP1/VOP3 pseudocode.
import type { Handler } from '../context.js';
import { operand } from '../context.js';
import { InterpError } from '../errors.js';
import { readLane, readScalar, writeLane, writeScalar } from '../operands.js';
import { M0 } from '../state.js';

/** VGPR index + M0 for v_movrel*: must stay inside the shader's VGPRs. */
function rel(v: ReturnType<typeof operand>, m0: number, vgprs: number, what: string): ReturnType<typeof operand> {
  if (v.kind !== 'vgpr') throw new InterpError(`${what} names a ${v.kind}, not a VGPR`);
  const index = v.index + m0;
  if (index >= vgprs) throw new InterpError(`${what}: v${v.index} + M0 (${m0}) is beyond the shader's ${vgprs} VGPRs`);
  return { kind: 'vgpr', index, count: 1 };
}

export const VALU_LANES: Record<string, Handler> = {
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
  v_movrels_b32: (i, cx) => {
    const src = rel(operand(i, 'src0'), cx.st.sgpr[M0] ?? 0, cx.st.vgprCount, 'v_movrels_b32');
    for (let l = 0; l < cx.st.waveSize; l++) if (cx.st.active(l)) writeLane(cx.st, operand(i, 'vdst'), l, readLane(cx.st, src, 'b32', l));
  },
  v_movreld_b32: (i, cx) => {
    const dst = rel(operand(i, 'vdst'), cx.st.sgpr[M0] ?? 0, cx.st.vgprCount, 'v_movreld_b32');
    for (let l = 0; l < cx.st.waveSize; l++) if (cx.st.active(l)) writeLane(cx.st, dst, l, readLane(cx.st, operand(i, 'src0'), 'b32', l));
  },
  v_movrelsd_b32: (i, cx) => {
    const m0 = cx.st.sgpr[M0] ?? 0;
    const src = rel(operand(i, 'src0'), m0, cx.st.vgprCount, 'v_movrelsd_b32');
    const dst = rel(operand(i, 'vdst'), m0, cx.st.vgprCount, 'v_movrelsd_b32');
    for (let l = 0; l < cx.st.waveSize; l++) if (cx.st.active(l)) writeLane(cx.st, dst, l, readLane(cx.st, src, 'b32', l));
  },
};
