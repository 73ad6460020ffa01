// The FLAT apertures of the machine the interpreter models, as src_shared_base / src_private_base
// report them (high dwords of 64-bit addresses): a FLAT address whose high dword is one of these
// goes to LDS or to the lane's scratch instead of global memory. The interpreter (src/interp) and
// the recompiler's frontend (src/frontend) share them.

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
