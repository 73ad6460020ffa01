// Run-time-detected gaps: conditions the translation cannot rule out statically and does not
// implement (yet), checked per lane by the IR's `Fault` op. A fault never accesses memory or
// computes a guess: the run fails with the instruction's pc and one of these messages. On Vulkan
// the first fault of a dispatch is recorded in the sink buffer's fault word (src/backend/spirv/emit.ts)
// and the runtime turns it into a RuntimeFault (src/runtime/engine.ts).

/** The messages, by the `Fault` op's immediate. Append only (the index is the kind). */
export const FAULT_MESSAGES = [
  'a FLAT float atomic (fcmpswap/fmin/fmax) to the LDS/private aperture is not supported yet',
  'a swizzled buffer access whose bytes cross a 4-byte swizzle element, or a 64-bit atomic on a swizzled buffer, is not supported yet',
  'a buffer format load/store with a V# format the interpreter does not implement for it (an invalid format, a d16 form of a 32-bit format, a store naming fewer components than a 10/11/2-bit format has), or a reserved DST_SEL, is not supported (the interpreter refuses it too)',
  'an atomic at an address not aligned to its size (4 or 8 bytes) is not supported (Vulkan atomics need natural alignment)',
  'a dword load or store at an address that is not 4-byte aligned needs 8-bit storage access (storageBuffer8BitAccess), which the profile does not offer',
  'a scratch access (SCRATCH, FLAT in the private aperture, or a buffer access through the private segment buffer) outside the wave\'s scratch region',
  'an M0-indexed register (s_movrel*, v_movrel*, v_swaprel_b32) outside s0..s105 or the shader\'s VGPRs (the interpreter stops there too)',
  'execution reached s_code_end (the padding after the code)',
  's_setpc_b64 returns to an address that is not the return site of a call (s_call_b64/s_swappc_b64) whose callee reaches this return (the recompiled return goes only to those)',
  'the program trapped (s_trap; no trap handler runs here)',
  'an image instruction on a T# it does not implement (a tiled SW_MODE, a TYPE other than its DIM\'s, a format it does not load, store or atomically update, a reserved DST_SEL, or a store whose dmask leaves out a component of the format)',
  'an illegal instruction (v_illegal raises an exception that enters the trap handler; no trap handler runs here)',
  'the wave halted itself (s_sethalt 1; no debugger resumes it here)',
  'the wave killed itself (s_setkill 1), which is not modelled (the interpreter stops there too)',
  'an image sample or gather4 the translation does not implement: an S# other than point sampling (gather4: point or bilinear, TRUNC_COORD 0) (src/image/sample.ts sampleRefusals), a T# or format image_load refuses, a lane whose texel is not established (a wrap or mirror coordinate of magnitude 2^24 or more, an LOD that is NaN or within 1/256 of a half level), or a border colour it does not model (BORDER_COLOR_TYPE 3, an integer format, a DST_SEL other than the identity)',
] as const;

/** A FLAT float atomic's lanes in the LDS or private aperture (other FLAT accesses there are translated). */
export const FAULT_FLAT_APERTURE = 0;
export const FAULT_BUFFER_SWIZZLE = 1;
export const FAULT_BUFFER_FORMAT = 2;
export const FAULT_ATOMIC_ALIGN = 3;
export const FAULT_UNALIGNED_DWORD = 4;
export const FAULT_SCRATCH_RANGE = 5;
export const FAULT_REG_INDEX = 6;
export const FAULT_CODE_END = 7;
/** A subroutine return whose pair holds none of its return sites (src/frontend/calls.ts). */
export const FAULT_RETURN_ADDRESS = 8;
/** s_trap reached: the wave would enter the trap handler (a kernel's `__builtin_trap()`, an abort); no engine runs one. */
export const FAULT_TRAP = 9;
/** An image instruction's T# outside what src/image models (the interpreter stops there too). */
export const FAULT_IMAGE = 10;
/** v_illegal reached: an illegal-instruction exception, which enters the trap handler; no engine runs one. */
export const FAULT_ILLEGAL = 11;
/** s_sethalt 1 reached: the wave halts until a debugger resumes it; none does here. */
export const FAULT_HALT = 12;
/** s_setkill 1 reached: the wave is killed; what becomes of its outstanding work is not modelled. */
export const FAULT_KILL = 13;
/** An image sample on an S#, T# or coordinate outside what src/image/sample.ts models (the interpreter stops there too). */
export const FAULT_SAMPLE = 14;

/** A fault as a run reports it: `pc 0x..: <instruction>: <message>`. */
export class RuntimeFault extends Error {
  override readonly name = 'RuntimeFault';
  constructor(readonly pc: number, readonly instruction: string, readonly reason: string) {
    super(`pc 0x${pc.toString(16)}: ${instruction ? `${instruction}: ` : ''}${reason}`);
  }
}

export function faultMessage(kind: number): string {
  return FAULT_MESSAGES[kind] ?? `fault ${kind} (unknown kind)`;
}
