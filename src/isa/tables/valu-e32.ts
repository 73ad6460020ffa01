// Shared vocabulary of the VOP1, VOP2 and VOPC table parts: one definition helper and the
// operands of the 32-bit encodings, in e32 assembly order (see the conventions in vop1.ts).
import type { DataType, Family, FloatType, ImplicitReg, InstrDef, Modifier, OperandDef, RegClass, Target } from '../types.js';

export interface ValuOpts {
  readonly float?: FloatType;
  readonly modifiers?: readonly Modifier[];
  readonly flags?: readonly string[];
  readonly implicitReads?: readonly ImplicitReg[];
  readonly implicitWrites?: readonly ImplicitReg[];
  readonly targets?: readonly Target[];
}

/** A definition maker for one family: op(mnemonic, opcode, operands, options). */
export function valuOp(family: Extract<Family, 'VOP1' | 'VOP2' | 'VOPC'>) {
  return (mnemonic: string, opcode: number, operands: readonly OperandDef[], o: ValuOpts = {}): InstrDef => ({ mnemonic, family, opcode, operands, ...o });
}

/** vdst: the 8-bit VGPR destination field. */
export const V = (type: DataType, role: OperandDef['role'] = 'dst'): OperandDef => ({ name: 'vdst', role, kind: 'vgpr', type });
/** src0: the 9-bit source field. */
export const S0 = (type: DataType, regClass?: RegClass, role: OperandDef['role'] = 'src'): OperandDef =>
  regClass === undefined ? { name: 'src0', role, kind: 'src', type } : { name: 'src0', role, kind: 'src', type, regClass };
/** vsrc1: the 8-bit VGPR source field (VOP2, VOPC). */
export const V1 = (type: DataType): OperandDef => ({ name: 'vsrc1', role: 'src', kind: 'vgpr', type });
/** An implicit VCC written (VOP2 carry-out, VOPC result; wave32: vcc_lo). */
export const VCC_OUT: OperandDef = { name: 'sdst', role: 'dst', kind: 'vcc', type: 'mask' };
