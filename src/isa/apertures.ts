// The FLAT apertures of the machine the interpreter models, as src_shared_base / src_private_base
// report them (high dwords of 64-bit addresses): a FLAT address whose high dword is one of these
// goes to LDS or to the lane's scratch instead of global memory. The interpreter (src/interp) and
// the recompiler's frontend (src/frontend) share them.

/**
 * The private segment buffer V# the runtime gives a wave, but for its base (src/interp/scratch.ts):
 * word 1's high half (swizzle enable, stride 0), num_records 0xffffffff, and word 3 (DST_SEL xyzw,
 * format 32_FLOAT, INDEX_STRIDE = the wave size (2: 32, 3: 64), ADD_TID_ENABLE, OOB_SELECT 3, raw):
 * what LLVM's own gfx10 scratch resource words hold. Private byte `o` of lane `l` is then at
 * base + floor(o / 4) * 4 * waveSize + 4 * l + (o % 4).
 */
export function privateSegmentVsharp(waveSize: 32 | 64): { readonly w1hi: number; readonly w2: number; readonly w3: number } {
  const indexStride = waveSize === 64 ? 3 : 2;
  return { w1hi: (1 << 31) >>> 0, w2: 0xffffffff, w3: (4 | (5 << 3) | (6 << 6) | (7 << 9) | (22 << 12) | (indexStride << 21) | (1 << 23) | (3 << 28)) >>> 0 };
}

/** Bytes of one wave's scratch region: the lanes' private segments interleaved dword by dword (at least a dword a lane). */
export const scratchWaveBytes = (perLane: number, waveSize: number): number => Math.max(4, Math.ceil(perLane / 4) * 4) * waveSize;

/** Aperture bases this machine reports through src_shared_base / src_private_base (high dwords). */
export const SHARED_APERTURE_HI = 0x00010000;
export const PRIVATE_APERTURE_HI = 0x00020000;

/**
 * Dword `dword` of src_shared_base / src_private_base read as an operand of `bits` bits: a 32-bit
 * read gives the aperture's high dword (the RDNA2 guide); a 64-bit read gives the aperture's 64-bit
 * base, high dword = the aperture, low dword 0 (what LLVM's code relies on: `s_mov_b64 s[0:1],
 * src_shared_base`, then s1 as a flat address's high dword).
 */
export function apertureBase(reg: 'src_shared_base' | 'src_private_base', bits: number, dword: number): number {
  const hi = reg === 'src_shared_base' ? SHARED_APERTURE_HI : PRIVATE_APERTURE_HI;
  if (bits === 64) return dword === 1 ? hi : 0;
  return dword === 0 ? hi : 0;
}
