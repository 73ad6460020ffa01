import type { Instruction, Operand, OperandValue } from '../decode/types.js';
import type { DataType, OperandDef, RegClass, Target } from '../isa/types.js';
import { vop3Layout, type E64Operand } from '../decode/vop3.js';
import { formatValue, hex } from './operands.js';

// VOP3 text, as LLVM 19's AMDGPUInstPrinter prints it:
//   mnemonic[_e64] dst, src0, src1[, src2][ high][ op_sel:[..]][ clamp][ mul:2|mul:4|div:2]
// Source modifiers: -x, |x|, -|x|, sext(x); a negated constant without abs prints as neg(c).
// Operands narrower than their field (regClass) get LLVM's diagnostics in the text:
// /*Invalid register, operand has 'CLASS' register class*/ or /*Invalid immediate*/.

const CHANNELS = ['x', 'y', 'z', 'w'] as const;
const INTERP_PARAMS = ['p10', 'p20', 'p0'] as const;
const OMOD_TEXT = ['', ' mul:2', ' mul:4', ' div:2'] as const;

function isImmediate(v: OperandValue): boolean {
  return v.kind === 'inline' || v.kind === 'literal';
}

/** Register-class check: true when LLVM flags the register as outside the operand's class. */
function outsideClass(v: OperandValue, cls: RegClass): boolean {
  const lds = v.kind === 'special' && v.reg === 'src_lds_direct';
  const vgpr = v.kind === 'vgpr';
  const sreg = v.kind === 'sgpr' || v.kind === 'ttmp'
    || (v.kind === 'special' && (v.reg === 'vcc_lo' || v.reg === 'vcc_hi' || v.reg === 'vcc' || v.reg === 'm0'
      || v.reg === 'exec_lo' || v.reg === 'exec_hi' || v.reg === 'exec'));
  const exec = v.kind === 'special' && (v.reg === 'exec_lo' || v.reg === 'exec_hi' || v.reg === 'exec');
  switch (cls) {
    case 'VGPR_32': return sreg || lds;
    case 'VRegOrLds_32': return sreg;
    case 'SReg_32': return vgpr || lds;
    case 'SRegOrLds_32': return vgpr;
    case 'SReg_1': return vgpr || lds;
    case 'SReg_1_XEXEC': return vgpr || lds || exec;
    case 'VReg_128': return sreg || lds;
    default: return false;
  }
}

/** Register-only operands: destinations and the VGPR / lane-mask source classes. */
function immediateInvalid(def: OperandDef): boolean {
  if (def.role !== 'src') return true;
  const c = def.regClass;
  return c === 'VGPR_32' || c === 'VRegOrLds_32' || c === 'SReg_1' || c === 'SReg_1_XEXEC' || c === 'VReg_128';
}

function typeForPrint(def: OperandDef): DataType {
  return def.type === 'mask' || def.type === 'none' ? 'b32' : def.type;
}

/** A 64-bit integer operand reads its 32-bit literal zero-extended: only 0..64 print as values. */
function isInt64(t: DataType): boolean {
  return t === 'i64' || t === 'u64' || t === 'b64';
}

function isInt16(t: DataType): boolean {
  return t === 'i16' || t === 'u16' || t === 'b16';
}

/** f16 bit patterns of the float inline constants 240-248 (a 16-bit integer operand prints them in hex). */
const F16_INLINE = [0x3800, 0xb800, 0x3c00, 0xbc00, 0x4000, 0xc000, 0x4400, 0xc400, 0x3118] as const;
const F32_INLINE: readonly number[] = [0x3f000000, 0xbf000000, 0x3f800000, 0xbf800000, 0x40000000, 0xc0000000, 0x40800000, 0xc0800000, 0x3e22f983];

function formatConstOrReg(v: OperandValue, type: DataType, quirk: string | undefined): string {
  if (quirk === 'constAsF16') return formatValue(v, 'f16');
  if (v.kind === 'literal' && isInt64(type) && (v.value >>> 0) > 64) return hex(v.value);
  if (isInt16(type)) {
    if (v.kind === 'inline' && v.code >= 240) return hex(F16_INLINE[v.code - 240] ?? 0);
    // LLVM reads the whole literal dword: an integer -16..64 or an f32 inline value prints as
    // such, anything else as the hex of its low 16 bits.
    if (v.kind === 'literal') {
      const sv = v.value | 0;
      if (sv >= -16 && sv <= 64) return String(sv);
      const fi = F32_INLINE.indexOf(v.value >>> 0);
      if (fi >= 0) return formatValue({ kind: 'inline', code: 240 + fi }, 'f32');
      return hex(v.value & 0xffff);
    }
  }
  return formatValue(v, type);
}

function formatE64Operand(op: Operand, lo: E64Operand, text?: string): string {
  const def = lo.def;
  const v = op.value;
  let t = text ?? formatConstOrReg(v, typeForPrint(def), lo.quirk);
  if (isImmediate(op.value)) {
    if (immediateInvalid(def)) t += '/*Invalid immediate*/';
  } else if (def.regClass !== undefined && outsideClass(op.value, def.regClass)) {
    t += `/*Invalid register, operand has '${def.regClass}' register class*/`;
  }
  if (op.sext) t = `sext(${t})`;
  if (op.abs) t = `|${t}|`;
  if (op.neg) t = op.abs || !isImmediate(op.value) ? `-${t}` : `neg(${t})`;
  return t;
}

export function printVOP3(inst: Instruction, target: Target): string {
  const w0 = inst.words[0] ?? 0;
  const L = vop3Layout(target, (w0 >>> 16) & 0x3ff);
  if (L === undefined) throw new Error(`VOP3 opcode without layout (${inst.def.mnemonic})`);
  const parts: string[] = [];
  // LLVM reads the literal once, for the first operand that uses it; an f64 operand shifts it
  // into the high dword only when it is that first user. A later f64 user sees the literal
  // zero-extended and prints it as a 64-bit value: 0..64 as a number, anything else as 0x0.
  let firstLitF64: boolean | undefined;
  inst.operands.forEach((op, k) => {
    const lo = L.operands[k];
    if (lo === undefined) return;
    if (lo.field === 'attr') {
      parts.push(`attr${inst.mods.attr ?? 0}.${CHANNELS[inst.mods.attrChan ?? 0] ?? 'x'}`);
    } else if (lo.field === 'param') {
      const v = op.value.kind === 'imm' ? op.value.value : 0;
      parts.push(INTERP_PARAMS[v] ?? `invalid_param_${v}`);
    } else if (op.value.kind === 'literal' && firstLitF64 === false && lo.def.type === 'f64') {
      const v = op.value.value >>> 0;
      parts.push(formatE64Operand(op, lo, v <= 64 ? String(v) : '0x0'));
    } else {
      if (op.value.kind === 'literal' && firstLitF64 === undefined) firstLitF64 = lo.def.type === 'f64';
      parts.push(formatE64Operand(op, lo));
    }
  });
  let text = (L.suffix ? `${inst.def.mnemonic}_e64` : inst.def.mnemonic) + (parts.length > 0 ? ' ' + parts.join(', ') : '');
  if (L.interpHigh && inst.mods.high) text += ' high';
  const opsel = inst.mods.opsel ?? 0;
  if (opsel !== 0) {
    const f = L.profile.opsel;
    const b = (i: number): number => (opsel >>> i) & 1;
    const elems = f === '2' ? [b(0), b(1)] : f === '3' ? [b(0), b(1), b(3)] : [b(0), b(1), b(2), b(3)];
    text += ` op_sel:[${elems.join(',')}]`;
  }
  if (inst.mods.clamp) text += ' clamp';
  text += OMOD_TEXT[inst.mods.omod ?? 0] ?? '';
  return text;
}
