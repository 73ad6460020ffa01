import type { Instruction } from '../decode/types.js';
import type { Target } from '../isa/types.js';
import { formatScalar, signedHex, smallImm } from './scalar-fields.js';

// SMEM text, as LLVM 19 prints it: sdata, sbase, then the address part: the soffset register
// when the offset is 0 (null included), the signed hex offset when soffset is null, else
// "soffset offset:OFF"; then glc / dlc for opcodes with a cache policy ('cpol').
export function printSMEM(inst: Instruction, _target: Target): string {
  const parts: string[] = [];
  const defs = inst.def.operands;
  const offset = inst.mods.offset ?? 0;
  for (let k = 0; k < defs.length; k++) {
    const d = defs[k];
    const op = inst.operands[k];
    if (d === undefined || op === undefined) continue;
    if (d.kind === 'imm') { parts.push(smallImm(op.value.kind === 'imm' ? op.value.value : 0)); continue; }
    if (d.kind === 'soffset') {
      const isNull = op.value.kind === 'special' && op.value.reg === 'null';
      if (offset === 0) parts.push(formatScalar(op, d));
      else if (isNull) parts.push(signedHex(offset));
      else parts.push(`${formatScalar(op, d)} offset:${signedHex(offset)}`);
      continue;
    }
    parts.push(formatScalar(op, d));
  }
  let t = parts.length ? `${inst.def.mnemonic} ${parts.join(', ')}` : inst.def.mnemonic;
  if (inst.def.flags?.includes('cpol')) {
    if (inst.mods.glc) t += ' glc';
    if (inst.mods.dlc) t += ' dlc';
  }
  return t;
}
