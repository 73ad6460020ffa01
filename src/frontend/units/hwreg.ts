// s_getreg_b32 / s_setreg_b32 / s_setreg_imm32_b32 to IR, on MODE (hwreg 1) and FLAT_SCR_LO/HI: MODE is a
// wave-uniform value (GetMode/SetMode, made SSA like any register), read and written exactly as
// the interpreter does (src/interp/units/hwreg-access.ts): a read returns the field's bits shifted
// down; a write replaces the field's bits that the MODE model tracks (MODE_TRACKED_MASK), the other
// bits keep their value. s_round_mode / s_denorm_mode are in salu.ts. A write governs the next
// instruction: the MODE analysis gives every float instruction its mode from the same writes, and
// where it cannot know it, translation branches on this value (src/frontend/dynamic-mode.ts).
// HW_REG_FLAT_SCR_LO/HI (the scratch base of SCRATCH and FLAT-private accesses, ./private.ts) are
// plain 32-bit values as in the interpreter: two uniform registers (FLAT_SCR_LO_REG/HI_REG, 0 at
// launch), a write replaces the field's bits, a read returns them shifted down.
// Other hardware registers: an error.
import { decodeHwreg, hwregDef, hwregFieldMask, hwregFieldText, HWREG_FLAT_SCR_HI, HWREG_FLAT_SCR_LO, HWREG_MODE, MODE_TRACKED_MASK } from '../../analysis/hwreg.js';
import type { Inst } from '../../ir/ir.js';
import type { TContext, Translator } from '../context.js';
import { FLAT_SCR_HI_REG, FLAT_SCR_LO_REG } from './private.js';
import { listOf } from '../../ir/ir.js';

/** The register a FLAT_SCRATCH hwreg is kept in, where the target models it as a value (as the interpreter does). */
function valueReg(cx: TContext, id: number): number | undefined {
  if (hwregDef(id, cx.shader.info.target)?.model !== 'value') return undefined;
  return id === HWREG_FLAT_SCR_LO ? FLAT_SCR_LO_REG : id === HWREG_FLAT_SCR_HI ? FLAT_SCR_HI_REG : undefined;
}

function modeField(cx: TContext, verb: 'reading' | 'writing') {
  const v = cx.op('simm16').value;
  if (v.kind !== 'imm') return cx.fail(`a ${v.kind} hwreg operand`);
  const f = decodeHwreg(v.value & 0xffff);
  const reg = valueReg(cx, f.id);
  if (f.id !== HWREG_MODE && reg === undefined) {
    const target = cx.shader.info.target;
    return cx.fail(`${verb} ${hwregDef(f.id, target)?.name ?? `hardware register ${f.id}`} (${hwregFieldText(f, target)}) is not translated yet; only HW_REG_MODE and HW_REG_FLAT_SCR_LO/HI are`);
  }
  return { f, mask: hwregFieldMask(f), reg };
}

function writeMode(cx: TContext, value: Inst): void {
  const { f, mask, reg } = modeField(cx, 'writing');
  const b = cx.b;
  if (reg !== undefined) {
    const bits = b.emit('And32', listOf(b.emit('Shl32', listOf(value, cx.u32(f.offset))), cx.u32(mask)));
    b.emit('SetSgpr', listOf(b.emit('Or32', listOf(b.emit('And32', listOf(b.getSgpr(reg), cx.u32(~mask >>> 0))), bits))), listOf(reg));
    return;
  }
  const m = (mask & MODE_TRACKED_MASK) >>> 0;
  if (m === 0) return;
  const bits = b.emit('And32', listOf(b.emit('Shl32', listOf(value, cx.u32(f.offset))), cx.u32(m)));
  b.emit('SetMode', listOf(b.emit('Or32', listOf(b.emit('And32', listOf(b.emit('GetMode'), cx.u32(~m >>> 0))), bits))));
}

export const HWREG_UNIT: Record<string, Translator> = {
  s_getreg_b32: (cx) => {
    const { f, mask, reg } = modeField(cx, 'reading');
    const b = cx.b;
    const v = reg !== undefined ? b.getSgpr(reg) : b.emit('GetMode');
    cx.writeScalar(cx.op('sdst').value, b.emit('LShr32', listOf(b.emit('And32', listOf(v, cx.u32(mask))), cx.u32(f.offset))));
  },
  s_setreg_b32: (cx) => writeMode(cx, cx.scalar(cx.op('sdst').value, 'b32')),
  s_setreg_imm32_b32: (cx) => {
    const v = cx.op('imm32').value;
    writeMode(cx, cx.u32(v.kind === 'literal' || v.kind === 'imm' ? v.value >>> 0 : cx.fail(`a ${v.kind} s_setreg_imm32_b32 value`)));
  },
};
