// Scalar memory: s_load_* from a 64-bit base, s_buffer_load_* through a V# buffer resource (4
// SGPRs: base address 47:0, stride 61:48, num_records dword 2; an access past num_records reads 0,
// RDNA2 ISA reference "Scalar Memory Operations"), s_memtime / s_memrealtime (the step counter),
// and the cache controls (nothing to do in a coherent functional model).
import type { Instruction } from '../../decode/types.js';
import { type ExecContext, type Handler, operand } from '../context.js';
import { UnimplementedError } from '../errors.js';
import { address } from '../memory.js';
import { readScalar, writeScalar } from '../operands.js';

function offsetOf(i: Instruction, cx: ExecContext): number {
  const so = operand(i, 'soffset');
  const imm = i.mods.offset ?? 0;
  return imm + (so.kind === 'special' && so.reg === 'null' ? 0 : readScalar(cx.st, so, 'u32'));
}

const load = (dwords: number): Handler => (i, cx) => {
  const sb = operand(i, 'sbase');
  const base = address(readScalar(cx.st, sb, 'b64', 0), readScalar(cx.st, sb, 'b64', 1) & 0xffff, 0);
  // Scalar loads ignore the two low address bits.
  const a = (base + offsetOf(i, cx)) - ((base + offsetOf(i, cx)) % 4);
  const d = operand(i, 'sdata');
  for (let k = 0; k < dwords; k++) writeScalar(cx.st, d, cx.mem.read32(a + 4 * k), k);
};

const bufferLoad = (dwords: number): Handler => (i, cx) => {
  const sb = operand(i, 'sbase');
  const w = [0, 1, 2, 3].map((k) => readScalar(cx.st, sb, 'b128', k));
  const base = address(w[0] ?? 0, (w[1] ?? 0) & 0xffff, 0);
  const numRecords = (w[2] ?? 0) >>> 0;
  const off = offsetOf(i, cx) & ~3;
  const d = operand(i, 'sdata');
  for (let k = 0; k < dwords; k++) {
    const o = off + 4 * k;
    writeScalar(cx.st, d, o + 4 <= numRecords ? cx.mem.read32(base + o) : 0, k);
  }
};

const nothing: Handler = () => undefined;

export const SMEM: Record<string, Handler> = {
  s_load_dword: load(1), s_load_dwordx2: load(2), s_load_dwordx4: load(4), s_load_dwordx8: load(8), s_load_dwordx16: load(16),
  s_buffer_load_dword: bufferLoad(1), s_buffer_load_dwordx2: bufferLoad(2), s_buffer_load_dwordx4: bufferLoad(4),
  s_buffer_load_dwordx8: bufferLoad(8), s_buffer_load_dwordx16: bufferLoad(16),
  s_dcache_inv: nothing, s_dcache_wb: nothing, s_gl1_inv: nothing,
  s_memtime: (i, cx) => { const d = operand(i, 'sdata'); writeScalar(cx.st, d, cx.st.steps >>> 0, 0); writeScalar(cx.st, d, 0, 1); },
  s_memrealtime: (i, cx) => { const d = operand(i, 'sdata'); writeScalar(cx.st, d, cx.st.steps >>> 0, 0); writeScalar(cx.st, d, 0, 1); },
  s_get_waveid_in_workgroup: (i) => { throw new UnimplementedError(`${i.def.mnemonic} is not modelled`); },
};
