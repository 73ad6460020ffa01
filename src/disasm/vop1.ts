// VOP1 text (and the shared e32 printing of VOP1, VOP2 and VOPC), as LLVM 19 prints it:
//   mnemonic[_e32] operands
// The _e32 suffix is printed when the opcode also has an e64 (VOP3) form and has operands; opcodes
// flagged 'noVOP3' (v_readfirstlane_b32, v_swap_b32, v_madmk_f32, v_pk_fmac_f16, ...) and the
// operand-less ones (v_nop, v_pipeflush, v_clrexcp) print the bare mnemonic.
// Constants print by operand type (src/disasm/operands.ts); the K constant of madmk/madak/fmamk/
// fmaak always prints as the hex dword; VCC operands print as vcc_lo (wave32).
import type { Instruction } from '../decode/types.js';
import type { OperandDef, Target } from '../isa/types.js';
import { classDiagnostic, formatValue, hex } from './operands.js';

function operandText(inst: Instruction, i: number, od: OperandDef): string {
  const op = inst.operands[i];
  if (op === undefined) return '';
  const v = op.value;
  switch (od.kind) {
    case 'literal':
      return v.kind === 'literal' ? hex(v.value) : formatValue(v, od.type);
    case 'sdst':
      return formatValue(v, od.type) + classDiagnostic(v, 'SReg_32');
    case 'src': {
      const t = formatValue(v, od.type);
      const cls = od.regClass;
      return cls === 'VGPR_32' || cls === 'VRegOrLds_32' ? t + classDiagnostic(v, cls) : t;
    }
    default:
      return formatValue(v, od.type);
  }
}

/** e32 text of a VOP1/VOP2/VOPC instruction. */
export function printE32(inst: Instruction): string {
  const def = inst.def;
  const ops = def.operands;
  if (ops.length === 0) return def.mnemonic;
  const bare = def.flags !== undefined && def.flags.includes('noVOP3');
  let s = bare ? def.mnemonic : def.mnemonic + '_e32';
  for (let i = 0; i < ops.length; i++) {
    const od = ops[i];
    if (od === undefined) continue;
    s += (i === 0 ? ' ' : ', ') + operandText(inst, i, od);
  }
  return s;
}

export function printVOP1(inst: Instruction, _target: Target): string {
  return printE32(inst);
}
