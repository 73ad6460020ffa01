import type { Instruction } from '../decode/types.js';
import type { Target } from '../isa/types.js';
import { formatValue } from './operands.js';

// DS text, as LLVM 19's AMDGPUInstPrinter prints it:
//   mnemonic [operands in table order] [offset:N | offset0:N offset1:M | offset:swizzle(...)] [gds]

/** Text of a ds_swizzle_b32 pattern (the offset field), as LLVM 19 prints it. */
export function formatSwizzle(imm: number): string {
  if ((imm & 0xff00) === 0x8000) {
    // QUAD_PERM: four 2-bit lane selects.
    return `swizzle(QUAD_PERM,${imm & 3},${(imm >>> 2) & 3},${(imm >>> 4) & 3},${(imm >>> 6) & 3})`;
  }
  if ((imm & 0x8000) !== 0) return String(imm);
  // BITMASK_PERM: and/or/xor masks on the lane id within 32 lanes.
  const and = imm & 0x1f;
  const or = (imm >>> 5) & 0x1f;
  const xor = (imm >>> 10) & 0x1f;
  if (and === 0x1f && or === 0 && xor !== 0 && (xor & (xor - 1)) === 0) return `swizzle(SWAP,${xor})`;
  if (and === 0x1f && or === 0 && xor > 0 && ((xor + 1) & xor) === 0) return `swizzle(REVERSE,${xor + 1})`;
  const group = 0x1f - and + 1;
  if (group > 1 && (group & (group - 1)) === 0 && or < group && xor === 0) return `swizzle(BROADCAST,${group},${or})`;
  // Per lane-id bit, high to low: 0/1 forced, p kept, i inverted.
  const probe0 = or ^ xor;
  const probe1 = (and | or) ^ xor;
  let s = '';
  for (let m = 0x10; m > 0; m >>>= 1) {
    const p0 = probe0 & m, p1 = probe1 & m;
    s += p0 === p1 ? (p0 === 0 ? '0' : '1') : (p0 === 0 ? 'p' : 'i');
  }
  return `swizzle(BITMASK_PERM,"${s}")`;
}

export function printDS(inst: Instruction, _target: Target): string {
  const def = inst.def;
  let s = def.mnemonic;
  const ops = inst.operands;
  for (let i = 0; i < ops.length; i++) {
    const o = ops[i];
    if (o === undefined) continue;
    s += (i === 0 ? ' ' : ', ') + formatValue(o.value, def.operands[i]?.type ?? 'b32');
  }
  const m = inst.mods;
  if (m.offset0 !== undefined || m.offset1 !== undefined) {
    if (m.offset0) s += ` offset0:${m.offset0}`;
    if (m.offset1) s += ` offset1:${m.offset1}`;
  } else if (m.offset) {
    s += def.flags?.includes('swizzle') ? ` offset:${formatSwizzle(m.offset)}` : ` offset:${m.offset}`;
  }
  if (m.gds) s += ' gds';
  return s;
}
