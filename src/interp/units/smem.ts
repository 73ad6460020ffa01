// Scalar memory: s_load_* from a 64-bit base, s_buffer_load_* through a V# buffer resource (4
// SGPRs: base address 47:0, stride 61:48, num_records dword 2; an access past num_records reads 0,
// RDNA2 ISA reference "Scalar Memory Operations"), s_memtime / s_memrealtime (see below), and the
// cache controls (nothing to do in a coherent functional model).
//
// gfx1010 / gfx1013 only (gfx1030 dropped them; LLVM's FeatureScalarStores / FeatureScalarAtomics):
// s_store_dword* and s_buffer_store_dword* (the dwords of sdata to the address a load of the same
// operands reads, a buffer dword past num_records not written), the scalar atomics s_atomic_* and
// s_buffer_atomic_* (the vector atomics' rules, vmem.ts ATOMIC: data in sdata, cmpswap's compare in
// the dword(s) after it; with glc the old value to sdata's first one or two dwords; a buffer atomic
// past num_records does nothing and returns 0, as MUBUF's), each done once by the wave whatever
// EXEC holds (scalar instructions), and s_get_waveid_in_workgroup (the wave's index in its
// workgroup, the other bits 0; LLVM's llvm.amdgcn.s.get.waveid.in.workgroup). Scalar stores go
// through the scalar cache, which s_dcache_wb writes back and s_dcache_discard drops; memory here is
// coherent (a store is in memory at once), so both are nothing: a program that discards a line it
// stored and then reads it back would see the store here and, on hardware, the older bytes if the
// line had not been evicted in between (docs/TECHNICAL_DEBT.md). s_atc_probe / s_atc_probe_buffer
// (a translation-cache probe) do nothing either. s_scratch_load/store_dword* (gfx1010/gfx1013):
// LLVM's operand reference (AMDGPUAsmGFX10, the SMEM scratch `sbase`): sbase is ignored and
// FLAT_SCRATCH is supplied instead; our reading is that the address, FLAT_SCRATCH + offset + SGPR
// offset, names the wave's scratch bytes linearly (no lane interleaving: the dword at FLAT_SCRATCH
// + 4k is lane k mod waveSize's private dword floor(k / waveSize) as units/vmem.ts lays them out),
// the two low bits ignored as for the other scalar accesses; not measured on hardware.
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
import { address } from '../memory.js';
import { readScalar, writeScalar } from '../operands.js';
import { SCALAR_ATOMICS } from '../../isa/tables/smem.js';
import { ATOMIC, flatScratchBase } from './vmem.js';
import { checkScratch } from '../scratch.js';


/** The SGPR offset (0 for null) as an unsigned 32-bit value. */
function soffset(i: Instruction, cx: ExecContext): number {
  const so = operand(i, 'soffset');
  return so.kind === 'special' && so.reg === 'null' ? 0 : readScalar(cx.st, so, 'u32');
}

/**
 * A scalar access's address from its `base`: base + the signed 21-bit offset + the unsigned SGPR
 * offset, in 64 bits; scalar memory ignores the two low address bits.
 */
function addressFrom(i: Instruction, cx: ExecContext, base: number): number {
  const a = address(base % 2 ** 32, Math.floor(base / 2 ** 32), (i.mods.offset ?? 0) + soffset(i, cx));
  return a - (a % 4);
}

/** s_load / s_store / s_atomic: from sbase's 48-bit address. */
function scalarAddress(i: Instruction, cx: ExecContext): number {
  const sb = operand(i, 'sbase');
  return addressFrom(i, cx, (readScalar(cx.st, sb, 'b64', 1) & 0xffff) * 2 ** 32 + readScalar(cx.st, sb, 'b64', 0));
}

/**
 * s_buffer_*: the V#'s base and num_records, and the byte offset into it (offset + SGPR offset in
 * 32 bits, the two low bits cleared). `fits(bytes)`: whether `bytes` at the offset + k are inside
 * num_records.
 */
function bufferAccess(i: Instruction, cx: ExecContext): { base: number; off: number; fits: (k: number, bytes: number) => boolean } {
  const sb = operand(i, 'sbase');
  const numRecords = readScalar(cx.st, sb, 'b128', 2) >>> 0;
  const off = (((i.mods.offset ?? 0) + soffset(i, cx)) & ~3) >>> 0;
  const base = address(readScalar(cx.st, sb, 'b128', 0), readScalar(cx.st, sb, 'b128', 1) & 0xffff, 0);
  return { base, off, fits: (k, bytes) => off + k + bytes <= numRecords };
}

const load = (dwords: number): Handler => (i, cx) => {
  const a = scalarAddress(i, cx);
  const d = operand(i, 'sdata');
  for (let k = 0; k < dwords; k++) writeScalar(cx.st, d, cx.mem.read32(a + 4 * k), k);
};

const bufferLoad = (dwords: number): Handler => (i, cx) => {
  const { base, off, fits } = bufferAccess(i, cx);
  const d = operand(i, 'sdata');
  for (let k = 0; k < dwords; k++) writeScalar(cx.st, d, fits(4 * k, 4) ? cx.mem.read32(base + off + 4 * k) : 0, k);
};

const store = (dwords: number): Handler => (i, cx) => {
  const a = scalarAddress(i, cx);
  const d = operand(i, 'sdata');
  for (let k = 0; k < dwords; k++) cx.mem.write32(a + 4 * k, readScalar(cx.st, d, 'b32', k));
};

const bufferStore = (dwords: number): Handler => (i, cx) => {
  const { base, off, fits } = bufferAccess(i, cx);
  const d = operand(i, 'sdata');
  for (let k = 0; k < dwords; k++) if (fits(4 * k, 4)) cx.mem.write32(base + off + 4 * k, readScalar(cx.st, d, 'b32', k));
};

/** s_atomic_<name>[_x2] / s_buffer_atomic_<name>[_x2]. */
const atomic = (name: string, wide: boolean, buffer: boolean): Handler => {
  const rule = ATOMIC[name];
  if (!rule) throw new Error(`internal: no atomic rule ${name}`);
  const n = wide ? 2 : 1;
  const bits = wide ? 64n : 32n;
  return (i, cx) => {
    const d = operand(i, 'sdata');
    const dw = (k: number) => BigInt(readScalar(cx.st, d, 'b32', k));
    const val = (k: number) => (wide ? dw(k) | (dw(k + 1) << 32n) : dw(k));
    let a: number | undefined;
    if (buffer) {
      const acc = bufferAccess(i, cx);
      a = acc.fits(0, 4 * n) ? acc.base + acc.off : undefined;
    } else a = scalarAddress(i, cx);
    let old = 0n;
    if (a !== undefined) {
      old = BigInt(cx.mem.read32(a)) | (wide ? BigInt(cx.mem.read32(a + 4)) << 32n : 0n);
      const nv = rule(old, val(0), bits, name === 'cmpswap' ? val(n) : 0n);
      cx.mem.write32(a, Number(nv & 0xffffffffn));
      if (wide) cx.mem.write32(a + 4, Number((nv >> 32n) & 0xffffffffn));
    }
    if (i.mods.glc) for (let k = 0; k < n; k++) writeScalar(cx.st, d, Number((old >> BigInt(32 * k)) & 0xffffffffn), k);
  };
};

/** s_scratch_load/store: from FLAT_SCRATCH (sbase ignored). */
const scalarScratchAddress = (i: Instruction, cx: ExecContext): number => addressFrom(i, cx, flatScratchBase(cx));

const scratchLoad = (dwords: number): Handler => (i, cx) => {
  const a = scalarScratchAddress(i, cx);
  checkScratch(cx.scratchRegion, a, 4 * dwords);
  const d = operand(i, 'sdata');
  for (let k = 0; k < dwords; k++) writeScalar(cx.st, d, cx.mem.read32(a + 4 * k), k);
};

const scratchStore = (dwords: number): Handler => (i, cx) => {
  const a = scalarScratchAddress(i, cx);
  checkScratch(cx.scratchRegion, a, 4 * dwords);
  const d = operand(i, 'sdata');
  for (let k = 0; k < dwords; k++) cx.mem.write32(a + 4 * k, readScalar(cx.st, d, 'b32', k));
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
  s_store_dword: store(1), s_store_dwordx2: store(2), s_store_dwordx4: store(4),
  s_buffer_store_dword: bufferStore(1), s_buffer_store_dwordx2: bufferStore(2), s_buffer_store_dwordx4: bufferStore(4),
  s_scratch_load_dword: scratchLoad(1), s_scratch_load_dwordx2: scratchLoad(2), s_scratch_load_dwordx4: scratchLoad(4),
  s_scratch_store_dword: scratchStore(1), s_scratch_store_dwordx2: scratchStore(2), s_scratch_store_dwordx4: scratchStore(4),
  ...Object.fromEntries(SCALAR_ATOMICS.flatMap((a) => [false, true].flatMap((wide) => [false, true].map((buffer) =>
    [`s_${buffer ? 'buffer_' : ''}atomic_${a}${wide ? '_x2' : ''}`, atomic(a, wide, buffer)])))),
  s_dcache_inv: nothing, s_dcache_wb: nothing, s_gl1_inv: nothing, s_dcache_discard: nothing, s_dcache_discard_x2: nothing,
  s_atc_probe: nothing, s_atc_probe_buffer: nothing,
  s_memtime: (i, cx) => clock(i, cx, cx.st.steps),
  s_memrealtime: (i, cx) => clock(i, cx, cx.clock?.steps ?? cx.st.steps),
  s_get_waveid_in_workgroup: (i, cx) => writeScalar(cx.st, operand(i, 'sdata'), cx.waveInGroup ?? 0),
};
