import type { InstrDef, OperandDef } from '../types.js';

// VINTRP opcodes of gfx10 (2-bit op field; opcode 3 is undefined). RDNA2 ISA reference
// "Parameter Interpolation"; LLVM's VINTRPInstructions / VOPInstructions. Checked against LLVM 19.
//
// Operands (assembly order): vdst, then vsrc (the barycentric coordinate VGPR, or for
// v_interp_mov_f32 the parameter slot: 0 p10, 1 p20, 2 p0), then attr (attribute 0..63) and
// attrchan (0..3 = x,y,z,w), printed together as attrN.c.
// Flags: 'interpSlot' the vsrc field is a slot (p10/p20/p0), not a VGPR.
// LLVM prints these with an _e32 suffix (the VINTRP encoding is its 32-bit form); the printer adds it.
// Attribute data comes from LDS (the parameter cache); M0 holds the attribute base/offset.

const ATTR: OperandDef = { name: 'attr', role: 'src', kind: 'imm', type: 'u32' };
const CHAN: OperandDef = { name: 'attrchan', role: 'src', kind: 'imm', type: 'u32' };

export const VINTRP_TABLE: readonly InstrDef[] = [
  {
    // D = P10 * I + P0 (P0/P10 from the attribute data)
    mnemonic: 'v_interp_p1_f32', family: 'VINTRP', opcode: 0,
    operands: [
      { name: 'vdst', role: 'dst', kind: 'vgpr', type: 'f32' },
      { name: 'vsrc', role: 'src', kind: 'vgpr', type: 'f32' },
      ATTR, CHAN,
    ],
    implicitReads: ['M0', 'LDS', 'EXEC', 'MODE'], float: 'f32',
  },
  {
    // D = P20 * J + D (accumulates into vdst)
    mnemonic: 'v_interp_p2_f32', family: 'VINTRP', opcode: 1,
    operands: [
      { name: 'vdst', role: 'srcdst', kind: 'vgpr', type: 'f32' },
      { name: 'vsrc', role: 'src', kind: 'vgpr', type: 'f32' },
      ATTR, CHAN,
    ],
    implicitReads: ['M0', 'LDS', 'EXEC', 'MODE'], float: 'f32',
  },
  {
    // D = P10, P20 or P0 of the attribute, by slot
    mnemonic: 'v_interp_mov_f32', family: 'VINTRP', opcode: 2,
    operands: [
      { name: 'vdst', role: 'dst', kind: 'vgpr', type: 'f32' },
      { name: 'vsrc', role: 'src', kind: 'imm', type: 'u32' },
      ATTR, CHAN,
    ],
    implicitReads: ['M0', 'LDS', 'EXEC'], flags: ['interpSlot'],
  },
];
