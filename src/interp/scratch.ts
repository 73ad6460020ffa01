// Scratch (the private segment): per-lane private memory of ShaderInfo.scratchSize bytes, laid out
// the way the hardware interleaves it (AMDGPUUsage "Private Segment"/"Flat Scratch": the wave's
// scratch is accessed "in an interleaved manner", so that lanes reading the same private address
// touch adjacent dwords). The layout is the swizzled buffer layout with a 4-byte element and an
// index stride of the wave size: private byte `o` of lane `l` lives at
//   waveBase + floor(o / 4) * 4 * waveSize + 4 * l + (o % 4).
// Three paths reach it and all use this one layout: MUBUF through the private segment buffer V#
// (swizzle enable, ADD_TID_ENABLE, index stride = wave size: units/buffer.ts computes the same
// address from the V# by the generic buffer rules), SCRATCH instructions and FLAT accesses in the
// private aperture (units/vmem.ts: address relative to FLAT_SCRATCH, which kernels set with
// s_setreg from the flat_scratch_init SGPRs).
//
// Each wave slot of a workgroup gets its own GlobalMemory region of exactly
// align4(scratchSize) * waveSize bytes, so a lane that runs past the wave's scratch stops the run
// with the address instead of reading a neighbour wave's data. Regions are mapped once per dispatch
// and zeroed before each workgroup (private memory starts undefined on hardware; zero makes runs
// deterministic). The private segment wave offset is therefore 0 and the V# / flat_scratch_init
// base is the wave's own region.
import { InterpError } from './errors.js';
import { FAULT_SCRATCH_RANGE, faultMessage } from '../ir/faults.js';
import type { ShaderInfo } from '../container/shader-info.js';
import type { Dim3 } from './dispatch.js';
import { privateSegmentVsharp, scratchWaveBytes } from '../isa/apertures.js';
import type { GlobalMemory } from './memory.js';

/** Whether a dispatch of the kernel gets scratch regions: it has a private segment, or asks for the SGPRs that reach one. */
export function wantsScratch(info: ShaderInfo): boolean {
  return info.scratchSize > 0 || info.userSgprs.some((u) => u.kind === 'private_segment_buffer' || u.kind === 'flat_scratch_init');
}

/**
 * Raw compute shaders (a sidecar, no kernel descriptor) with scratch use a scratch ring, as the
 * hardware does: one buffer for the whole dispatch, wave k of the dispatch (workgroups in x, y, z
 * order, x fastest; the waves of a workgroup in order) owning bytes [k * W, (k + 1) * W) of it (W =
 * scratchWaveBytes), and the wave's private segment wave offset SGPR (COMPUTE_PGM_RSRC2.SCRATCH_EN)
 * holding k * W. The shader reaches the ring through what its user data holds: ARGS.json's
 * `{"scratch": "vsharp"}` (the ring's private segment buffer V#) or `{"scratch": "base"}` (its
 * 64-bit address, for FLAT_SCRATCH). Which wave gets which slot is the engines' choice (the
 * hardware's is its own), the same in all three engines.
 */
export const usesScratchRing = (info: ShaderInfo): boolean => !info.descriptor && info.scratchSize > 0;

/** The most bytes a dispatch's scratch ring may have (every engine's limit). */
export const MAX_SCRATCH_RING = 1 << 30;

/** The waves of a dispatch of the shader, and its scratch ring's bytes (every wave's region). */
export function scratchRingBytes(info: ShaderInfo, grid: Dim3, block: Dim3): number {
  const groups = [0, 1, 2].reduce((n, k) => n * Math.ceil((grid[k] ?? 1) / (block[k] ?? 1)), 1);
  return groups * Math.ceil((block[0] * block[1] * block[2]) / info.waveSize) * scratchWaveBytes(info.scratchSize, info.waveSize);
}

/** The ring slot of wave `w` of workgroup `g` in a dispatch of `counts` workgroups (x fastest, then y, z). */
export const ringSlot = (counts: readonly number[], g: readonly [number, number, number], wavesPerGroup: number, w: number): number =>
  ((g[2] * (counts[1] ?? 1) + g[1]) * (counts[0] ?? 1) + g[0]) * wavesPerGroup + w;

/** A wave's scratch region in its dispatch's ring (raw shaders; byte addresses). */
export interface ScratchRegion {
  readonly base: number;
  readonly bytes: number;
  readonly ringBase: number;
  readonly ringBytes: number;
}

/** Stops the run where `n` bytes at `addr` leave the wave's region (a raw shader's ring; else nothing to check). */
export function checkScratch(r: ScratchRegion | undefined, addr: number, n: number): void {
  if (r && (addr < r.base || addr + n > r.base + r.bytes)) {
    throw new InterpError(`${faultMessage(FAULT_SCRATCH_RANGE)}: ${n} bytes at 0x${addr.toString(16)}, the wave's region is 0x${r.base.toString(16)}..0x${(r.base + r.bytes - 1).toString(16)}`);
  }
}

/** Whether a buffer resource's base lies in the dispatch's scratch ring (its accesses must then stay in the wave's region). */
export const inScratchRing = (r: ScratchRegion | undefined, base: number): boolean => r !== undefined && base >= r.ringBase && base < r.ringBase + r.ringBytes;

/** The byte address of private byte `offset` of lane `lane` in a wave's swizzled scratch. */
export function scratchAddress(waveBase: number, waveSize: number, lane: number, offset: number): number {
  return waveBase + Math.floor(offset / 4) * 4 * waveSize + 4 * lane + (offset & 3);
}

/** Sum of 32-bit unsigned private offsets, wrapped as the hardware's 32-bit adder does. */
export function privateOffset(...parts: readonly number[]): number {
  let s = 0;
  for (const p of parts) s = (s + p) >>> 0;
  return s;
}

/** Largest private segment a dispatch may ask for, per lane (the gfx10 limit is far smaller). */
const MAX_SCRATCH_PER_LANE = 1 << 20;

export class ScratchSetup {
  /** Region base per wave slot of a workgroup. */
  readonly bases: readonly number[];
  private readonly regions: Uint8Array[];

  constructor(mem: GlobalMemory, readonly perLane: number, readonly waveSize: 32 | 64, wavesPerGroup: number) {
    if (perLane > MAX_SCRATCH_PER_LANE) throw new InterpError(`the kernel needs ${perLane} bytes of scratch per lane, more than ${MAX_SCRATCH_PER_LANE}`);
    const waveBytes = scratchWaveBytes(perLane, waveSize);
    this.regions = [];
    const bases: number[] = [];
    for (let w = 0; w < wavesPerGroup; w++) {
      const r = new Uint8Array(waveBytes);
      this.regions.push(r);
      bases.push(mem.map(`scratch of wave ${w}`, r));
    }
    this.bases = bases;
  }

  /** Zeroes every wave's scratch (before each workgroup). */
  reset(): void {
    for (const r of this.regions) r.fill(0);
  }

  /**
   * The private segment buffer V# for wave slot `w` (4 dwords): base = the wave's region,
   * stride 0, swizzle enable; num_records 0xffffffff; DST_SEL xyzw, format 32_FLOAT,
   * INDEX_STRIDE = wave size (2: 32, 3: 64), ADD_TID_ENABLE, OOB_SELECT 3 (raw). Bounds are
   * the region's: the V# range check never fires. (The fields a kernel relies on are base,
   * swizzle, add_tid and index stride; the others are what LLVM's own gfx10 scratch resource
   * words hold.)
   */
  vsharp(w: number): [number, number, number, number] {
    const base = this.bases[w];
    if (base === undefined) throw new InterpError(`internal: no scratch for wave slot ${w}`);
    const lo = base % 2 ** 32, hi = Math.floor(base / 2 ** 32);
    const v = privateSegmentVsharp(this.waveSize);
    return [lo, ((hi & 0xffff) | v.w1hi) >>> 0, v.w2, v.w3];
  }
}
