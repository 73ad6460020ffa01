import type { Instruction } from '../decode/types.js';
import type { Target } from '../isa/types.js';
import { formatValue } from './operands.js';

// VINTRP text, as LLVM 19 prints it: "v_interp_p1_f32_e32 v0, v1, attr2.y";
// v_interp_mov_f32 prints its slot as p10/p20/p0 (other values invalid_param_N).

const SLOT_NAMES = ['p10', 'p20', 'p0'] as const;
const CHAN_NAMES = ['x', 'y', 'z', 'w'] as const;

export function printVINTRP(inst: Instruction, _target: Target): string {
  const parts: string[] = [];
  const defs = inst.def.operands;
  let attr = 0;
  for (let i = 0; i < inst.operands.length; i++) {
    const o = inst.operands[i];
    const d = defs[i];
    if (o === undefined || d === undefined) continue;
    const v = o.value;
    if (o.name === 'attr') { attr = v.kind === 'imm' ? v.value : 0; continue; }
    if (o.name === 'attrchan') { parts.push(`attr${attr}.${CHAN_NAMES[(v.kind === 'imm' ? v.value : 0) & 3] ?? 'x'}`); continue; }
    if (d.kind === 'imm' && v.kind === 'imm') { parts.push(SLOT_NAMES[v.value] ?? `invalid_param_${v.value}`); continue; }
    parts.push(formatValue(v, d.type));
  }
  return `${inst.def.mnemonic}_e32 ${parts.join(', ')}`;
}
