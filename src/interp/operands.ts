// Reading and writing operands: scalar codes (SGPRs, TTMPs, VCC, M0, EXEC, constants, literals,
// the src_* values) and VGPRs, by the operand's table type (which picks the inline constant's
// representation: integer, f16, f32 or f64). Sources: RDNA2 ISA reference, "Scalar operands" and
// "Inline constants"; LLVM SIDefines.h / AMDGPUBaseInfo (inline values).
import type { DataType } from '../isa/types.js';
import { inlineConstant } from '../decode/inline.js';

export { inlineConstant };
import type { OperandValue } from '../decode/types.js';
import { InterpError } from './errors.js';
import { apertureBase, PRIVATE_APERTURE_HI, SHARED_APERTURE_HI } from '../isa/apertures.js';
import { EXEC_LO, M0, NULL_REG, VCC_LO, type WaveState } from './state.js';

export { PRIVATE_APERTURE_HI, SHARED_APERTURE_HI };

/**
 * Dword `dword` of a scalar (or uniform) source operand read as `type`. A 32-bit literal of a
 * 64-bit operand is the high dword of an f64 (low dword 0), and is zero-extended for integers
 * (as LLVM's disassembler decodes it).
 */
export function readScalar(st: WaveState, v: OperandValue, type: DataType, dword = 0): number {
  switch (v.kind) {
    case 'sgpr': return st.sgpr[v.index + dword] ?? 0;
    case 'ttmp': return st.sgpr[108 + v.index + dword] ?? 0;
    case 'inline': return inlineConstant(v.code, type, dword);
    case 'literal':
      if (type === 'f64') return dword === 1 ? v.value >>> 0 : 0;
      return dword === 0 ? v.value >>> 0 : 0;
    case 'special':
      switch (v.reg) {
        case 'null': return 0;
        case 'src_vccz': return dword === 0 ? (st.vccZero() ? 1 : 0) : 0;
        case 'src_execz': return dword === 0 ? (st.execZero() ? 1 : 0) : 0;
        case 'src_scc': return dword === 0 ? st.scc : 0;
        case 'src_shared_base': case 'src_private_base': return apertureBase(v.reg, type.endsWith('64') ? 64 : 32, dword);
        case 'src_shared_limit': return dword === 0 ? (SHARED_APERTURE_HI | 0xffff) >>> 0 : 0;
        case 'src_private_limit': return dword === 0 ? (PRIVATE_APERTURE_HI | 0xffff) >>> 0 : 0;
        case 'src_pops_exiting_wave_id': return 0;
        case 'src_lds_direct': throw new InterpError('src_lds_direct is not implemented');
        default: return st.sgpr[v.code + dword] ?? 0;
      }
    case 'vgpr': throw new InterpError('a VGPR where a scalar operand was expected');
    case 'imm': return dword === 0 ? v.value >>> 0 : 0;
    case 'reserved': throw new InterpError(`reserved operand code ${v.code}`);
  }
}

/** Writes dword `dword` of a scalar destination. Writes to null are dropped. */
export function writeScalar(st: WaveState, v: OperandValue, value: number, dword = 0): void {
  switch (v.kind) {
    case 'sgpr': st.sgpr[v.index + dword] = value; return;
    case 'ttmp': st.sgpr[108 + v.index + dword] = value; return;
    case 'special':
      if (v.code === NULL_REG) return;
      if (v.code === VCC_LO || v.code === VCC_LO + 1 || v.code === M0 || v.code === EXEC_LO || v.code === EXEC_LO + 1) { st.sgpr[v.code + dword] = value; return; }
      throw new InterpError(`cannot write ${v.reg}`);
    default: throw new InterpError(`cannot write a ${v.kind} operand`);
  }
}

/** The scalar code a mask operand names (for WaveState.mask / setMask). */
export function maskCode(v: OperandValue): number {
  switch (v.kind) {
    case 'sgpr': return v.index;
    case 'ttmp': return 108 + v.index;
    case 'special': return v.code;
    default: throw new InterpError(`a ${v.kind} operand cannot hold a lane mask`);
  }
}

/** A lane mask source: a register pair/single by wave size, or a constant (sign-extended in wave64). */
export function readMask(st: WaveState, v: OperandValue): bigint {
  if (v.kind === 'inline' || v.kind === 'literal') {
    const lo = BigInt(readScalar(st, v, 'b32', 0));
    if (st.waveSize === 32) return lo;
    const hi = v.kind === 'inline' ? BigInt(inlineConstant(v.code, 'b64', 1)) : 0n;
    return lo | (hi << 32n);
  }
  if (v.kind === 'special' && (v.reg === 'src_vccz' || v.reg === 'src_execz' || v.reg === 'src_scc' || v.reg === 'null')) return BigInt(readScalar(st, v, 'b32'));
  return st.mask(maskCode(v));
}

export function writeMask(st: WaveState, v: OperandValue, m: bigint): void {
  st.setMask(maskCode(v), m);
}

/** Dword `dword` of a VALU source for lane `lane`: VGPRs per lane, anything else uniform. */
export function readLane(st: WaveState, v: OperandValue, type: DataType, lane: number, dword = 0): number {
  if (v.kind === 'vgpr') {
    if (v.index + dword >= st.vgprCount) throw new InterpError(`v${v.index + dword} is beyond the shader's ${st.vgprCount} VGPRs`);
    return st.vgpr[(v.index + dword) * 64 + lane] ?? 0;
  }
  return readScalar(st, v, type, dword);
}

export function writeLane(st: WaveState, v: OperandValue, lane: number, value: number, dword = 0): void {
  if (v.kind !== 'vgpr') throw new InterpError(`a VALU result to a ${v.kind} operand`);
  if (v.index + dword >= st.vgprCount) throw new InterpError(`v${v.index + dword} is beyond the shader's ${st.vgprCount} VGPRs`);
  st.vgpr[(v.index + dword) * 64 + lane] = value;
}
