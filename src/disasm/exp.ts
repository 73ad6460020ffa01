import type { Instruction } from '../decode/types.js';
import type { Target } from '../isa/types.js';
import { EXP_TARGET_NAMES } from '../isa/tables/exp.js';
import { formatValue } from './operands.js';

// EXP text, as LLVM 19 prints it: "exp mrt0 v1, off, v3, off done compr vm".
// Source N prints as "off" when en bit N is clear; with compr, sources 0,1 come from vsrc0 and
// 2,3 from vsrc1.

export function printEXP(inst: Instruction, _target: Target): string {
  const m = inst.mods;
  const tgt = m.target ?? 0;
  const en = m.en ?? 0;
  const srcs = inst.operands.slice(1);
  const parts: string[] = [];
  for (let n = 0; n < 4; n++) {
    const o = srcs[m.compr ? n >>> 1 : n];
    parts.push((en >>> n) & 1 && o !== undefined ? formatValue(o.value, 'b32') : 'off');
  }
  let s = `exp ${EXP_TARGET_NAMES[tgt] ?? `invalid_target_${tgt}`} ${parts.join(', ')}`;
  if (m.done) s += ' done';
  if (m.compr) s += ' compr';
  if (m.vm) s += ' vm';
  return s;
}
