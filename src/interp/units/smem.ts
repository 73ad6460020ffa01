// Scalar memory: s_load_* from a 64-bit base, s_buffer_load_* through a V# buffer resource (4
// SGPRs: base address 47:0, stride 61:48, num_records dword 2; an access past num_records reads 0,
// RDNA2 ISA reference "Scalar Memory Operations"), s_memtime / s_memrealtime (see below), and the
// cache controls (nothing to do in a coherent functional model).
//
// The clocks. On hardware s_memtime returns the 64-bit "timestamp" (the shader clock's cycle
// counter; LLVM lowers llvm.readcyclecounter to it on gfx10.1, llvm/test/CodeGen/AMDGPU/
// readcyclecounter.ll) and s_memrealtime the 64-bit "RTC", a constant-rate counter (typically
// 100 MHz, the same across the chip; llvm.readsteadycounter and llvm.amdgcn.s.memrealtime,
// llvm/test/CodeGen/AMDGPU/readsteadycounter.ll, llvm.amdgcn.s.memrealtime.ll). Both are SMEM:
// the SGPR pair is written when the read returns, so code waits with s_waitcnt lgkmcnt(0) before
// using it (those tests check for the lgkmcnt wait between the clock read and the store). What
// compilers rely on is that a later read of the same wave is not smaller (elapsed time as a
// difference) and that the value is the wave's (an SGPR pair). This interpreter has no time, so
// it keeps that contract with instruction counts: s_memtime is the instructions this wave has
// executed before it (WaveState.steps), s_memrealtime those every wave of the dispatch has
// executed before it (ExecContext.clock, like the RTC one counter for the whole dispatch). Both
// grow by at least one between two reads of a wave, never decrease, and are written at once (no
// lgkmcnt to wait for here). The numbers are not hardware's, nor the recompiled kernel's (the
// IR interpreter counts IR instructions, Vulkan reads OpReadClockKHR): only the contract is shared.
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

/** A clock value (below 2^53: a step count) into the SGPR pair sdata, low dword first. */
function clock(i: Instruction, cx: ExecContext, v: number): void {
  const d = operand(i, 'sdata');
  writeScalar(cx.st, d, v % 2 ** 32, 0);
  writeScalar(cx.st, d, Math.floor(v / 2 ** 32), 1);
}

export const SMEM: Record<string, Handler> = {
  s_load_dword: load(1), s_load_dwordx2: load(2), s_load_dwordx4: load(4), s_load_dwordx8: load(8), s_load_dwordx16: load(16),
  s_buffer_load_dword: bufferLoad(1), s_buffer_load_dwordx2: bufferLoad(2), s_buffer_load_dwordx4: bufferLoad(4),
  s_buffer_load_dwordx8: bufferLoad(8), s_buffer_load_dwordx16: bufferLoad(16),
  s_dcache_inv: nothing, s_dcache_wb: nothing, s_gl1_inv: nothing,
  s_memtime: (i, cx) => clock(i, cx, cx.st.steps),
  s_memrealtime: (i, cx) => clock(i, cx, cx.clock?.steps ?? cx.st.steps),
  s_get_waveid_in_workgroup: (i) => { throw new UnimplementedError(`${i.def.mnemonic} is not modelled`); },
};
