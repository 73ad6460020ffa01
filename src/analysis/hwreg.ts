// Hardware registers as s_getreg_b32 / s_setreg_b32 / s_setreg_imm32_b32 name them on gfx10:
// the simm16 hwreg(id, offset, size) field and the MODE register's gfx10 layout. Which ids exist
// per target, their names and access: the ISA's hwreg table (src/isa/hwregs.ts), re-exported here.
// Sources: AMD "RDNA 2" ISA reference guide (hardware registers; MODE register fields),
// LLVM AMDGPU SIDefines.h (Hwreg ids, ModeRegisterMasks) and AMDGPUAsmUtils (names per subtarget).
// No Node APIs.
import type { Target } from '../isa/types.js';
import { hwregDef } from '../isa/hwregs.js';
import { MODE_FP16_OVFL_BIT } from '../float/env.js';

export { MODE_FP16_OVFL_BIT };

export { HWREGS, hwregDef, type HwregDef, type HwregModel } from '../isa/hwregs.js';

/** A decoded hwreg(id, offset, size) operand: id [5:0], offset [10:6], size-1 [15:11]. */
export interface HwregField {
  readonly id: number;
  /** First bit of the field in the register (0..31). */
  readonly offset: number;
  /** Width in bits (1..32). */
  readonly size: number;
}

export function decodeHwreg(simm16: number): HwregField {
  return { id: simm16 & 0x3f, offset: (simm16 >>> 6) & 0x1f, size: ((simm16 >>> 11) & 0x1f) + 1 };
}

/**
 * The register bits a field covers: size bits from offset, cut at bit 31 (a field that runs past
 * bit 31 covers only the bits that exist: a write drops the source bits above, a read returns
 * zeros there).
 */
export function hwregFieldMask(f: HwregField): number {
  const ones = f.size >= 32 ? 0xffffffff : (1 << f.size) - 1;
  return (ones << f.offset) >>> 0;
}

/** Text of a field for messages: HW_REG_MODE[3:0]. */
export function hwregFieldText(f: HwregField, target: Target): string {
  const name = hwregDef(f.id, target)?.name ?? `hwreg ${f.id}`;
  const hi = Math.min(31, f.offset + f.size - 1);
  return `${name}[${hi}:${f.offset}]`;
}

// --- MODE ----------------------------------------------------------------------------------
export const HWREG_MODE = 1;
export const HWREG_FLAT_SCR_LO = 20;
export const HWREG_FLAT_SCR_HI = 21;

export interface ModeFieldDef {
  readonly name: string;
  readonly offset: number;
  readonly width: number;
  /** Where its value comes from at wave launch ('unknown': the ISA guide gives no launch value we read). */
  readonly launch: 'floatMode' | 'dx10Clamp' | 'ieeeMode' | 'fp16Overflow' | 'unknown';
  readonly note: string;
}

/**
 * gfx10 MODE (hwreg 1) fields, low to high. Bits 22:21 are reserved. GPR_IDX_EN, VSKIP and CSP
 * are listed by the ISA guide and SIDefines.h but belong to GCN features gfx10 does not have
 * (s_set_gpr_idx_*, s_setvskip, s_cbranch_fork): their bits are tracked as never known.
 */
export const MODE_FIELDS: readonly ModeFieldDef[] = [
  { name: 'FP_ROUND_32', offset: 0, width: 2, launch: 'floatMode', note: 'f32 rounding: 0 nearest even, 1 +inf, 2 -inf, 3 toward zero' },
  { name: 'FP_ROUND_16_64', offset: 2, width: 2, launch: 'floatMode', note: 'f16/f64 rounding' },
  { name: 'FP_DENORM_32', offset: 4, width: 2, launch: 'floatMode', note: 'f32 denormals: 0 flush in+out, 1 keep in/flush out, 2 flush in/keep out, 3 keep' },
  { name: 'FP_DENORM_16_64', offset: 6, width: 2, launch: 'floatMode', note: 'f16/f64 denormals' },
  { name: 'DX10_CLAMP', offset: 8, width: 1, launch: 'dx10Clamp', note: 'clamp modifier turns NaN into 0' },
  { name: 'IEEE', offset: 9, width: 1, launch: 'ieeeMode', note: 'IEEE 754-2008 NaN handling of min/max, signaling NaN quieting' },
  { name: 'LOD_CLAMPED', offset: 10, width: 1, launch: 'unknown', note: 'sticky: set when a texture LOD was clamped' },
  { name: 'DEBUG', offset: 11, width: 1, launch: 'unknown', note: 'single-step: trap after each instruction' },
  { name: 'EXCP_EN', offset: 12, width: 9, launch: 'unknown', note: 'exception trap enables: invalid, input denormal, div0, overflow, underflow, inexact, int div0, address watch, memory violation' },
  { name: 'FP16_OVFL', offset: 23, width: 1, launch: 'fp16Overflow', note: 'an f16 result overflowing from finite operands is ±max finite in every rounding mode (src/float FP16_OVFL_RULE)' },
  { name: 'POPS_PACKER0', offset: 24, width: 1, launch: 'unknown', note: 'POPS packer 0' },
  { name: 'POPS_PACKER1', offset: 25, width: 1, launch: 'unknown', note: 'POPS packer 1' },
  { name: 'DISABLE_PERF', offset: 26, width: 1, launch: 'unknown', note: 'performance counters off for this wave' },
];

const fieldBits = (f: ModeFieldDef) => (((1 << f.width) - 1) << f.offset) >>> 0;

/** MODE bits a write stores and a read returns as written (the listed fields); other bits are never known. */
export const MODE_TRACKED_MASK: number = MODE_FIELDS.reduce((m, f) => (m | fieldBits(f)) >>> 0, 0);

export const MODE_DX10_CLAMP_BIT = 1 << 8;
export const MODE_IEEE_BIT = 1 << 9;

/** MODE bits whose launch value the shader declares: the float mode byte 7:0, DX10_CLAMP (8), IEEE (9), FP16_OVFL (23). */
export const MODE_LAUNCH_MASK = (0x3ff | MODE_FP16_OVFL_BIT) >>> 0;

/** What the launch MODE is made of (ShaderInfo's fields). */
export interface LaunchModeFields { readonly floatMode: number; readonly dx10Clamp: boolean; readonly ieeeMode: boolean; readonly fp16Overflow: boolean }

/** MODE value at wave launch from the declared float mode byte, DX10_CLAMP, IEEE and FP16_OVFL (known bits: MODE_LAUNCH_MASK). */
export function launchMode(i: LaunchModeFields): number {
  return ((i.floatMode & 0xff) | (i.dx10Clamp ? MODE_DX10_CLAMP_BIT : 0) | (i.ieeeMode ? MODE_IEEE_BIT : 0) | (i.fp16Overflow ? MODE_FP16_OVFL_BIT : 0)) >>> 0;
}

/** modeFieldsFor's answers: the f32 fields' offsets (FP_ROUND_32, FP_DENORM_32) and the f16/f64 ones', one read-only record each (no object per question). */
const F32_FIELDS: { readonly round: number; readonly denorm: number } = Object.freeze({ round: 0, denorm: 4 });
const F16_F64_FIELDS: { readonly round: number; readonly denorm: number } = Object.freeze({ round: 2, denorm: 6 });

/** The MODE fields governing one float type: rounding and denormal fields' bit offsets. */
export function modeFieldsFor(float: 'f16' | 'f32' | 'f64'): { readonly round: number; readonly denorm: number } {
  return float === 'f32' ? F32_FIELDS : F16_F64_FIELDS;
}

/** Rounding mode names (FP_ROUND values). */
export const ROUND_NAMES = ['rne', 'rtp', 'rtn', 'rtz'] as const;
/** Denormal mode names (FP_DENORM values): flush both, keep input only, keep output only, keep both. */
export const DENORM_NAMES = ['flush', 'flush-out', 'flush-in', 'keep'] as const;

/**
 * The MODE writers other than s_setreg: the immediate's low four bits replace one MODE field
 * (the upper immediate bits are ignored). Keyed by mnemonic: the table's implicitWrites MODE says
 * that an instruction writes MODE, this says which bits.
 */
export const MODE_IMMEDIATE_WRITERS: Readonly<Record<string, { readonly offset: number; readonly width: number }>> = {
  s_round_mode: { offset: 0, width: 4 },
  s_denorm_mode: { offset: 4, width: 4 },
};
