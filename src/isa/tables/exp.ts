import type { InstrDef } from '../types.js';

// EXP (export) of gfx10: one instruction, no opcode field (opcode 0 by convention).
// RDNA2 ISA reference "Export"; LLVM's EXPInstructions.td and AMDGPUAsmUtils (target names).
// Checked against LLVM 19.
//
// Operands (assembly order): tgt (6-bit target), vsrc0..vsrc3 (VGPRs; a source whose `en` bit is
// clear prints as "off"; with compr, vsrc0/vsrc1 each hold two packed 16-bit values and print
// as vsrc0, vsrc0, vsrc1, vsrc1 under en bits 0,1,2,3).
// Modifiers: en (4-bit), compr, done, vm.
// Targets (gfx10, LLVM 19): 0-7 mrt0-7, 8 mrtz, 9 null, 12-16 pos0-pos4, 20 prim, 32-63 param0-31;
// every other value prints as invalid_target_N (the word still decodes).

export const EXP_TABLE: readonly InstrDef[] = [
  {
    mnemonic: 'exp', family: 'EXP', opcode: 0,
    operands: [
      { name: 'tgt', role: 'src', kind: 'imm', type: 'u32' },
      { name: 'vsrc0', role: 'src', kind: 'vgpr', type: 'b32' },
      { name: 'vsrc1', role: 'src', kind: 'vgpr', type: 'b32' },
      { name: 'vsrc2', role: 'src', kind: 'vgpr', type: 'b32' },
      { name: 'vsrc3', role: 'src', kind: 'vgpr', type: 'b32' },
    ],
    implicitReads: ['EXEC'],
  },
];

/** Export target names by target id (gfx10). Index = id; undefined = not a valid target. */
export const EXP_TARGET_NAMES: readonly (string | undefined)[] = (() => {
  const names: (string | undefined)[] = new Array<string | undefined>(64).fill(undefined);
  for (let i = 0; i < 8; i++) names[i] = `mrt${i}`;
  names[8] = 'mrtz';
  names[9] = 'null';
  for (let i = 0; i < 5; i++) names[12 + i] = `pos${i}`;
  names[20] = 'prim';
  for (let i = 0; i < 32; i++) names[32 + i] = `param${i}`;
  return names;
})();
