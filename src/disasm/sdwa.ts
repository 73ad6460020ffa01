// SDWA text, as LLVM 19's AMDGPUInstPrinter prints it:
//   VOP1: <mnemonic>_sdwa <ops>[ clamp][ mul:2|mul:4|div:2] dst_sel:S dst_unused:U src0_sel:S
//   VOP2: ... dst_sel:S dst_unused:U src0_sel:S src1_sel:S
//   VOPC: <mnemonic>_sdwa <sdst>, <ops> src0_sel:S src1_sel:S      (sdst: vcc_lo unless sd)
// Sources print as -|x| (neg/abs) or sext(x); scalar sources as SGPR/special/inline constant.
import type { Instruction } from '../decode/types.js';
import type { Target } from '../isa/types.js';
import { variantOf } from '../isa/tables/valu-variants.js';
import { formatVariantOperands } from './dpp.js';

const SEL = ['BYTE_0', 'BYTE_1', 'BYTE_2', 'BYTE_3', 'WORD_0', 'WORD_1', 'DWORD'] as const;
// dst_unused 3 is unassigned; LLVM 19 prints it as UNUSED_PAD.
const UNUSED = ['UNUSED_PAD', 'UNUSED_SEXT', 'UNUSED_PRESERVE', 'UNUSED_PAD'] as const;
const OMOD = ['', ' mul:2', ' mul:4', ' div:2'] as const;

function sel(v: number): string {
  return SEL[v] ?? `<reserved sel ${v}>`;
}

export function printSDWA(inst: Instruction, _target: Target): string {
  const ops = formatVariantOperands(inst, variantOf(inst.def.family, inst.def.opcode)?.sdwa?.src1ConstType);
  // An operand-less form (v_nop) prints as its bare mnemonic, without suffix or selects.
  if (variantOf(inst.def.family, inst.def.opcode)?.bare === true) return inst.def.mnemonic;
  let s = `${inst.def.mnemonic}_sdwa${ops.length > 0 ? ' ' + ops : ''}`;
  if (inst.mods.clamp) s += ' clamp';
  if (inst.mods.omod) s += OMOD[inst.mods.omod & 3] ?? '';
  const w = inst.mods.sdwa;
  if (w === undefined) return s;
  if (w.dstSel !== undefined) s += ` dst_sel:${sel(w.dstSel)} dst_unused:${UNUSED[(w.dstUnused ?? 0) & 3] ?? ''}`;
  s += ` src0_sel:${sel(w.src0Sel)}`;
  if (w.src1Sel !== undefined) s += ` src1_sel:${sel(w.src1Sel)}`;
  return s;
}
