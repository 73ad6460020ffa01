// Scalar-encoding text, as LLVM 19's AMDGPUInstPrinter prints it on gfx10: scalar operands
// (width-driven constants, register-class comments) and the symbolic simm16 forms
// hwreg(...), sendmsg(...), s_waitcnt counters, depctr_*(...), UC_VERSION_*.
import type { PrintContext } from './context.js';
import type { InstrDef, OperandDef, RegClass, Target } from '../isa/types.js';
import type { Instruction, Operand, OperandValue } from '../decode/types.js';
import { scalarDwords } from '../decode/scalar-fields.js';
import { hwregDef } from '../isa/hwregs.js';
import { formatInline, formatLiteral, formatValue, hex } from './operands.js';

/** Whether a decoded register belongs to an LLVM scalar register class. */
export function inScalarClass(v: OperandValue, rc: RegClass): boolean {
  if (v.kind !== 'special') return true;
  const r = v.reg;
  switch (rc) {
    case 'SReg_32': return r !== 'src_lds_direct';
    case 'SReg_32_XM0': return r !== 'm0' && r !== 'src_lds_direct';
    case 'SReg_32_XM0_XEXEC': return r !== 'm0' && r !== 'exec_lo' && r !== 'exec_hi' && r !== 'src_lds_direct';
    case 'SReg_64_XEXEC': return r !== 'exec';
    case 'SReg_128': case 'SReg_256': case 'SReg_512': return r !== 'vcc' && r !== 'exec';
    default: return true;
  }
}

/** A 64-bit integer operand's 32-bit literal (zero-extended by LLVM): 0..64 decimal, else hex. */
function literal64(value: number): string {
  const v = value >>> 0;
  return v <= 64 ? String(v) : hex(v);
}

/**
 * Text of a scalar register/constant operand, sized by the table operand. `noImm`: the operand
 * is a register-only class (instruction flag 'ssrc:noimm'); LLVM flags a constant there.
 */
export function formatScalar(op: Operand, def: OperandDef, noImm = false): string {
  const v = op.value;
  // A register-only operand's constant prints as a 32-bit one, whatever the operand width.
  const dw = noImm ? 1 : scalarDwords(def);
  let t: string;
  switch (v.kind) {
    case 'inline': t = formatInline(v.code, dw === 2 ? 'b64' : 'b32'); break;
    case 'literal': t = dw === 2 ? literal64(v.value) : formatLiteral(v.value, 'b32'); break;
    default: t = formatValue(v, def.type); break;
  }
  if (noImm && (v.kind === 'inline' || v.kind === 'literal')) t += '/*Invalid immediate*/';
  if (def.regClass !== undefined && !inScalarClass(v, def.regClass)) {
    t += `/*Invalid register, operand has '${def.regClass}' register class*/`;
  }
  return t;
}

/** Up to 64 decimal, else 0x-hex (LLVM prints such immediates like inline constants). */
export function smallImm(v: number): string {
  return v <= 64 ? String(v) : hex(v);
}

export function signedHex(v: number): string {
  return v < 0 ? '-0x' + (-v).toString(16) : '0x' + v.toString(16);
}

// --- hwreg ---------------------------------------------------------------------------------
/** Symbolic name of a hardware register id on a target (undefined: LLVM prints the number). */
export function hwregName(id: number, target: Target): string | undefined {
  return hwregDef(id, target)?.name;
}

/** hwreg(id, offset, size): id [5:0], offset [10:6], size-1 [15:11]; hwreg(id) for 0, 32. */
export function formatHwreg(v: number, target: Target): string {
  const id = v & 0x3f;
  const offset = (v >>> 6) & 0x1f;
  const size = ((v >>> 11) & 0x1f) + 1;
  const name = hwregName(id, target) ?? String(id);
  return offset === 0 && size === 32 ? `hwreg(${name})` : `hwreg(${name}, ${offset}, ${size})`;
}

// --- sendmsg -------------------------------------------------------------------------------
const MSG_NAMES: readonly (string | undefined)[] = [
  undefined, 'MSG_INTERRUPT', 'MSG_GS', 'MSG_GS_DONE', 'MSG_SAVEWAVE', 'MSG_STALL_WAVE_GEN',
  'MSG_HALT_WAVES', 'MSG_ORDERED_PS_DONE', 'MSG_EARLY_PRIM_DEALLOC', 'MSG_GS_ALLOC_REQ',
  'MSG_GET_DOORBELL', 'MSG_GET_DDID', undefined, undefined, undefined, 'MSG_SYSMSG',
];
const GS_OPS = ['GS_OP_NOP', 'GS_OP_CUT', 'GS_OP_EMIT', 'GS_OP_EMIT_CUT'] as const;
const SYSMSG_OPS: readonly (string | undefined)[] = [undefined, 'SYSMSG_OP_ECC_ERR_INTERRUPT', 'SYSMSG_OP_REG_RD', undefined, 'SYSMSG_OP_TTRACE_PC'];
const MSG_GS = 2, MSG_GS_DONE = 3, MSG_SYSMSG = 15;

/**
 * sendmsg(MSG[, OP[, stream]]): msg id [3:0], op [6:4], stream [9:8] (other bits are ignored
 * by the symbolic form). An invalid combination prints as sendmsg(id, op, stream) when the
 * fields re-encode to the value, else as the decimal value.
 */
export function formatSendmsg(v: number): string {
  const id = v & 0xf, opId = (v >>> 4) & 7, stream = (v >>> 8) & 3;
  const name = MSG_NAMES[id];
  if (name !== undefined) {
    if (id === MSG_GS || id === MSG_GS_DONE) {
      const opName = GS_OPS[opId];
      if (opName !== undefined && (opId !== 0 || id === MSG_GS_DONE)) {
        if (opId === 0) { if (stream === 0) return `sendmsg(${name}, ${opName})`; }
        else return `sendmsg(${name}, ${opName}, ${stream})`;
      }
    } else if (id === MSG_SYSMSG) {
      const opName = SYSMSG_OPS[opId];
      if (opName !== undefined && stream === 0) return `sendmsg(${name}, ${opName})`;
    } else if (opId === 0 && stream === 0) {
      return `sendmsg(${name})`;
    }
  }
  if ((v & ~0x37f) === 0) return `sendmsg(${id}, ${opId}, ${stream})`;
  return String(v);
}

// --- s_waitcnt -----------------------------------------------------------------------------
/** gfx10 s_waitcnt: vmcnt [3:0]+[15:14], expcnt [6:4], lgkmcnt [13:8]; counters at their
 * maximum are left out, unless all are. */
export function formatWaitcnt(v: number): string {
  const vm = (v & 0xf) | ((v >>> 10) & 0x30);
  const exp = (v >>> 4) & 7;
  const lgkm = (v >>> 8) & 0x3f;
  const parts: string[] = [];
  if (vm !== 63) parts.push(`vmcnt(${vm})`);
  if (exp !== 7) parts.push(`expcnt(${exp})`);
  if (lgkm !== 63) parts.push(`lgkmcnt(${lgkm})`);
  return parts.length ? parts.join(' ') : `vmcnt(${vm}) expcnt(${exp}) lgkmcnt(${lgkm})`;
}

// --- s_waitcnt_depctr ----------------------------------------------------------------------
interface DepField { readonly name: string; readonly shift: number; readonly width: number; readonly gfx1030Only?: boolean }
const DEPCTR_FIELDS: readonly DepField[] = [
  { name: 'depctr_hold_cnt', shift: 7, width: 1, gfx1030Only: true },
  { name: 'depctr_sa_sdst', shift: 0, width: 1 },
  { name: 'depctr_va_vdst', shift: 12, width: 4 },
  { name: 'depctr_va_sdst', shift: 9, width: 3 },
  { name: 'depctr_va_ssrc', shift: 8, width: 1 },
  { name: 'depctr_va_vcc', shift: 1, width: 1 },
  { name: 'depctr_vm_vsrc', shift: 2, width: 3 },
];

/** depctr_*(n) for the fields not at their default (all ones); all when none differs; hex when
 * the value sets bits outside the target's fields. */
export function formatDepctr(v: number, target: Target): string {
  const fields = DEPCTR_FIELDS.filter((f) => !f.gfx1030Only || target === 'gfx1030');
  let mask = 0;
  for (const f of fields) mask |= ((1 << f.width) - 1) << f.shift;
  if ((v & ~mask & 0xffff) !== 0) return hex(v);
  const all: string[] = [];
  const changed: string[] = [];
  for (const f of fields) {
    const max = (1 << f.width) - 1;
    const x = (v >>> f.shift) & max;
    const t = `${f.name}(${x})`;
    all.push(t);
    if (x !== max) changed.push(t);
  }
  return (changed.length ? changed : all).join(' ');
}

// --- s_version -----------------------------------------------------------------------------
const UC_VERSIONS: Record<number, string> = { 0: 'UC_VERSION_GFX7', 4: 'UC_VERSION_GFX10', 6: 'UC_VERSION_GFX11', 9: 'UC_VERSION_GFX12' };
const UC_FLAGS: readonly [number, string][] = [[0x2000, 'UC_VERSION_W64_BIT'], [0x4000, 'UC_VERSION_W32_BIT'], [0x8000, 'UC_VERSION_MDP_BIT']];

/** s_version: version [7:0] (decimal when unnamed) | W64 0x2000 | W32 0x4000 | MDP 0x8000;
 * a value with any of bits 12:8 set prints as a plain immediate. */
export function formatVersion(v: number): string {
  if ((v & 0x1f00) !== 0) return smallImm(v);
  const low = v & 0xff;
  const base = UC_VERSIONS[low];
  let t = base ?? String(low);
  let n = 0;
  for (const [bit, name] of UC_FLAGS) {
    if ((v & bit) === 0) continue;
    t = (n > 0 ? `(${t})` : t) + '|' + name;
    n++;
  }
  return t;
}

// --- simm16 by table facts -----------------------------------------------------------------
export function formatSimm16(v: number, def: InstrDef, op: OperandDef, target: Target): string {
  switch (op.kind) {
    case 'hwreg': return formatHwreg(v, target);
    case 'sendmsg': return formatSendmsg(v);
    case 'waitcnt': return formatWaitcnt(v);
    case 'label': return String(v);
    default: break;
  }
  const f = def.flags;
  if (f !== undefined) {
    if (f.includes('imm:hex')) return hex(v);
    if (f.includes('imm:small')) return smallImm(v);
    if (f.includes('imm:depctr')) return formatDepctr(v, target);
    if (f.includes('imm:version')) return formatVersion(v);
  }
  return String(v);
}

/** Branch target of a label operand: the dword after the instruction plus simm16 dwords. */
export function branchTarget(inst: Instruction, simm16: number): number {
  return inst.pc + 4 + 4 * ((simm16 << 16) >> 16);
}

/** Text of one SOP operand. */
export function formatSopOperand(inst: Instruction, k: number, target: Target, ctx?: PrintContext): string | undefined {
  const op = inst.operands[k];
  const def = inst.def.operands[k];
  if (op === undefined || def === undefined) return undefined;
  switch (def.kind) {
    case 'sdst': case 'sbase': case 'soffset': return formatScalar(op, def);
    case 'ssrc': return formatScalar(op, def, inst.def.flags?.includes('ssrc:noimm') === true);
    case 'literal': return formatValue(op.value, def.type);
    default: {
      const v = op.value.kind === 'imm' ? op.value.value : 0;
      if (def.kind === 'label' && ctx?.symbolAt !== undefined) {
        const name = ctx.symbolAt(branchTarget(inst, v));
        if (name !== undefined) return name;
      }
      if (def.optional && v === 0) return undefined;
      return formatSimm16(v, inst.def, def, target);
    }
  }
}

/** mnemonic operand, operand, ... for SOP1/SOP2/SOPC/SOPK/SOPP. */
export function printSop(inst: Instruction, target: Target, ctx?: PrintContext): string {
  const parts: string[] = [];
  for (let k = 0; k < inst.operands.length; k++) {
    const t = formatSopOperand(inst, k, target, ctx);
    if (t !== undefined) parts.push(t);
  }
  return parts.length ? `${inst.def.mnemonic} ${parts.join(', ')}` : inst.def.mnemonic;
}
