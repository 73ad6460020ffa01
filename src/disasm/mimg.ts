import type { Instruction, Operand } from '../decode/types.js';
import type { Target } from '../isa/types.js';
import { formatValue, hex } from './operands.js';

// MIMG text, as LLVM 19's AMDGPUInstPrinter prints it:
//   image_sample v[5:8], v[1:2], s[4:11], s[8:11] dmask:0xf dim:SQ_RSRC_IMG_2D unorm glc slc dlc r128 a16 tfe lwe d16
//   image_sample  v5, [v1, v2], ...   (NSA forms of sampler opcodes have two spaces in LLVM 19)
//   image_bvh_intersect_ray v[5:8], v[1:11], s[4:7] a16

export const MIMG_DIM_NAMES: readonly string[] = ['1D', '2D', '3D', 'CUBE', '1D_ARRAY', '2D_ARRAY', '2D_MSAA', '2D_MSAA_ARRAY'];

const reg = (op: Operand) => formatValue(op.value, 'b32');

export function printMIMG(inst: Instruction, _target: Target): string {
  const m = inst.mods;
  const bvh = inst.def.flags?.includes('bvh') ?? false;
  let vdata = '', srsrc = '', ssamp: string | undefined;
  const addrs: string[] = [];
  for (const op of inst.operands) {
    if (op.name === 'vdata') vdata = reg(op);
    else if (op.name === 'vaddr') addrs.push(reg(op));
    else if (op.name === 'srsrc') srsrc = reg(op);
    else if (op.name === 'ssamp') ssamp = reg(op);
  }
  const sep = m.nsa && ssamp !== undefined ? '  ' : ' ';
  let s = inst.def.mnemonic + sep + vdata + ', ' + (m.nsa ? '[' + addrs.join(', ') + ']' : addrs[0] ?? '') + ', ' + srsrc;
  if (ssamp !== undefined) s += ', ' + ssamp;
  if (bvh) return m.a16 ? s + ' a16' : s;
  if (m.dmask) s += ' dmask:' + hex(m.dmask);
  s += ' dim:SQ_RSRC_IMG_' + (MIMG_DIM_NAMES[m.dim ?? 0] ?? '1D');
  if (m.unorm) s += ' unorm';
  if (m.glc) s += ' glc';
  if (m.slc) s += ' slc';
  if (m.dlc) s += ' dlc';
  if (m.r128) s += ' r128';
  if (m.a16) s += ' a16';
  if (m.tfe) s += ' tfe';
  if (m.lwe) s += ' lwe';
  if (m.d16) s += ' d16';
  return s;
}
