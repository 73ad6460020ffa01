import type { Instruction, Operand } from '../decode/types.js';
import type { Target } from '../isa/types.js';
import { formatValue } from './operands.js';

// FLAT / GLOBAL / SCRATCH text, as LLVM 19's AMDGPUInstPrinter prints it:
//   flat_load_dword v5, v[1:2] offset:N glc slc dlc
//   global_load_dword v5, v1, s[2:3] ...   (v[1:2], off without saddr)
//   scratch_load_dword v5, v1, off | v5, off, s2 ...
// A missing VGPR address (SCRATCH with an SGPR address) and saddr=null print as 'off'.

function text(op: Operand | undefined): string {
  if (op === undefined) return 'off';
  const v = op.value;
  if (v.kind === 'special' && v.reg === 'null') return 'off';
  return formatValue(v, 'b32');
}

export function printFLAT(inst: Instruction, _target: Target): string {
  const fam = inst.def.family;
  const parts: string[] = [];
  let vaddr: Operand | undefined, saddr: Operand | undefined;
  const hasVaddr = inst.def.operands.some((o) => o.name === 'vaddr');
  for (const op of inst.operands) {
    if (op.name === 'vaddr') vaddr = op;
    else if (op.name === 'saddr') saddr = op;
  }
  for (const op of inst.operands) {
    if (op.name === 'vdst') parts.push(text(op));
    else if (op.name === 'vaddr') parts.push(text(op));
    else if (op.name === 'vdata') {
      if (vaddr === undefined && hasVaddr) parts.push('off');
      parts.push(text(op));
    }
  }
  // SCRATCH in SGPR-address mode: vaddr is 'off' (placed before vdata/saddr).
  if (vaddr === undefined && hasVaddr && !inst.operands.some((o) => o.name === 'vdata')) parts.push('off');
  if (fam !== 'FLAT') {
    let t = text(saddr);
    // LLVM's note for a register outside SReg_32_XEXEC_HI (scratch saddr = exec_hi).
    if (fam === 'SCRATCH' && t === 'exec_hi') t += "/*Invalid register, operand has 'SReg_32_XEXEC_HI' register class*/";
    parts.push(t);
  }
  let s = inst.def.mnemonic + ' ' + parts.join(', ');
  const m = inst.mods;
  if (m.offset) s += ` offset:${m.offset}`;
  if (m.glc) s += ' glc';
  if (m.slc) s += ' slc';
  if (m.dlc) s += ' dlc';
  if (m.lds) s += ' lds';
  return s;
}
