import type { Instruction, Operand } from '../decode/types.js';
import type { DataType, Target } from '../isa/types.js';
import { vop3pInfo } from '../decode/vop3p.js';
import { formatOperand, formatVgpr, hex } from './operands.js';

// VOP3P text, as LLVM 19's AMDGPUInstPrinter prints it:
//   MNEMONIC vdst, src0, src1[, src2] [op_sel:[..]] [op_sel_hi:[..]] [neg_lo:[..]] [neg_hi:[..]] [clamp]
// Each modifier list has one element per source of the opcode and is left out when all its
// elements have the default value: 0, except op_sel_hi of a packed opcode (default 1).
// v_fma_mix* print neg_lo/neg_hi as -|src| source modifiers and their op_sel_hi default is 0.

const F16_INLINE_TEXT: ReadonlyMap<number, string> = new Map([
  [0x3800, '0.5'], [0xb800, '-0.5'], [0x3c00, '1.0'], [0xbc00, '-1.0'], [0x4000, '2.0'],
  [0xc000, '-2.0'], [0x4400, '4.0'], [0xc400, '-4.0'], [0x3118, '0.15915494'],
]);

/**
 * A literal of a v2f16 operand: an integer inline value (of the whole dword) prints as that
 * integer, a dword whose high half is 0 and whose low half is an f16 inline value prints as the
 * float, anything else as the hex dword.
 */
function formatV2f16Literal(value: number): string {
  const s = value | 0;
  if (s >= -16 && s <= 64) return String(s);
  if ((value >>> 16) === 0) {
    const f = F16_INLINE_TEXT.get(value & 0xffff);
    if (f !== undefined) return f;
  }
  return hex(value);
}

function formatSource(op: Operand, type: DataType): string {
  const v = op.value;
  if (type === 'v2f16' && v.kind === 'literal') return formatV2f16Literal(v.value);
  // A negated constant without abs prints as neg(c) (LLVM: a '-' before a negative constant
  // would read as part of it); -|c| otherwise.
  if (op.neg && !op.abs && (v.kind === 'inline' || v.kind === 'literal')) {
    return `neg(${formatOperand({ name: op.name, value: v }, type)})`;
  }
  return formatOperand(op, type);
}

function modList(name: string, mask: number, n: number, dflt: number): string {
  const full = (1 << n) - 1;
  if ((mask & full) === (dflt === 0 ? 0 : full)) return '';
  let t = ` ${name}:[`;
  for (let i = 0; i < n; i++) t += (i === 0 ? '' : ',') + ((mask >>> i) & 1);
  return t + ']';
}

export function printVOP3P(inst: Instruction, _target: Target): string {
  const def = inst.def;
  const info = vop3pInfo(def);
  if (info === undefined) throw new Error(`not a VOP3P table entry: ${def.mnemonic}`);
  const parts: string[] = [];
  inst.operands.forEach((op, i) => {
    const odef = def.operands[i];
    if (odef === undefined) throw new Error(`${def.mnemonic}: operand ${i} has no table entry`);
    if (odef.kind === 'vgpr' && op.value.kind === 'vgpr') {
      parts.push(formatVgpr(op.value.index, op.value.count));
      return;
    }
    // LLVM types the v_fma_mix* sources as f16 for constant printing (see tables/vop3p.ts).
    parts.push(formatSource(op, info.mix ? 'f16' : odef.type));
  });
  const m = inst.mods;
  const n = info.nsrc;
  let text = `${def.mnemonic} ${parts.join(', ')}`;
  text += modList('op_sel', m.opsel ?? 0, n, 0);
  text += modList('op_sel_hi', m.opselHi ?? (info.mix ? 0 : 7), n, info.mix ? 0 : 1);
  if (!info.mix) {
    text += modList('neg_lo', m.negLo ?? 0, n, 0);
    text += modList('neg_hi', m.negHi ?? 0, n, 0);
  }
  if (m.clamp) text += ' clamp';
  return text;
}
