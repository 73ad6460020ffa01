// DPP16/DPP8 text, as LLVM 19's AMDGPUInstPrinter prints it:
//   <mnemonic>_dpp <operands> <dpp_ctrl> row_mask:0xR bank_mask:0xB[ bound_ctrl:1][ fi:1]
//   <mnemonic>_dpp <operands> dpp8:[a,b,c,d,e,f,g,h][ fi:1]
// Operands print in the base def's order (implicit VCC as vcc_lo, wave32).
import type { Instruction } from '../decode/types.js';
import type { DataType, Target } from '../isa/types.js';
import { variantOf } from '../isa/tables/valu-variants.js';
import { formatOperand, formatValue, hex } from './operands.js';

/** Operand list of a DPP/SDWA instruction in the base def's order. */
export function formatVariantOperands(inst: Instruction, src1ConstType?: DataType): string {
  const defs = inst.def.operands;
  const parts: string[] = [];
  for (let i = 0; i < inst.operands.length; i++) {
    const op = inst.operands[i];
    if (op === undefined) continue;
    // The decoders emit one operand per base-def operand, in the def's order.
    const def = defs[i];
    const type = src1ConstType !== undefined && def?.name === 'vsrc1' ? src1ConstType : def?.type ?? 'b32';
    // LLVM writes a negated constant without abs as neg(c), not -c (SDWA scalar sources).
    if (op.neg && !op.abs && (op.value.kind === 'inline' || op.value.kind === 'literal')) parts.push(`neg(${formatValue(op.value, type)})`);
    else parts.push(formatOperand(op, type));
  }
  return parts.join(', ');
}

/**
 * Text of a 9-bit DPP16 dpp_ctrl. gfx10 encodings that LLVM knows but gfx10 lacks (wave_*,
 * row_bcast) and unassigned values print as LLVM's comments, not as invalid words.
 */
export function formatDppCtrl(ctrl: number): string {
  if (ctrl <= 0xff) return `quad_perm:[${ctrl & 3},${(ctrl >>> 2) & 3},${(ctrl >>> 4) & 3},${(ctrl >>> 6) & 3}]`;
  const lo = ctrl & 0xf;
  switch (ctrl & 0x1f0) {
    case 0x100: if (lo !== 0) return `row_shl:${lo}`; break;
    case 0x110: if (lo !== 0) return `row_shr:${lo}`; break;
    case 0x120: if (lo !== 0) return `row_ror:${lo}`; break;
    case 0x130:
      if (lo === 0x0) return '/* wave_shl is not supported starting from GFX10 */';
      if (lo === 0x4) return '/* wave_rol is not supported starting from GFX10 */';
      if (lo === 0x8) return '/* wave_shr is not supported starting from GFX10 */';
      if (lo === 0xc) return '/* wave_ror is not supported starting from GFX10 */';
      break;
    case 0x140:
      if (lo === 0) return 'row_mirror';
      if (lo === 1) return 'row_half_mirror';
      if (lo === 2 || lo === 3) return '/* row_bcast is not supported starting from GFX10 */';
      break;
    case 0x150: return `row_share:${lo}`;
    case 0x160: return `row_xmask:${lo}`;
    default: break;
  }
  return '/* Invalid dpp_ctrl value */';
}

export function printDPP(inst: Instruction, _target: Target): string {
  const ops = formatVariantOperands(inst);
  const bare = variantOf(inst.def.family, inst.def.opcode)?.bare === true;
  let s = `${inst.def.mnemonic}${bare ? '' : '_dpp'}${ops.length > 0 ? ' ' + ops : ''}`;
  const d8 = inst.mods.dpp8;
  if (inst.variant === 'dpp8' && d8 !== undefined) {
    s += ` dpp8:[${d8.sel.join(',')}]`;
    if (d8.fi) s += ' fi:1';
    return s;
  }
  const d = inst.mods.dpp;
  if (d === undefined) return s;
  s += ` ${formatDppCtrl(d.ctrl)} row_mask:${hex(d.rowMask)} bank_mask:${hex(d.bankMask)}`;
  if (d.boundCtrl) s += ' bound_ctrl:1';
  if (d.fi) s += ' fi:1';
  return s;
}
