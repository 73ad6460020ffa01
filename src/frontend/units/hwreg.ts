// s_getreg_b32 / s_setreg_b32 / s_setreg_imm32_b32 to IR, on MODE (hwreg 1) only: MODE is a
// wave-uniform value (GetMode/SetMode, made SSA like any register), read and written exactly as
// the interpreter does (src/interp/units/hwreg-access.ts): a read returns the field's bits shifted
// down; a write replaces the field's bits that the MODE model tracks (MODE_TRACKED_MASK), the other
// bits keep their value. s_round_mode / s_denorm_mode are in salu.ts. A write governs the next
// instruction: the MODE analysis gives every float instruction its mode from the same writes, and
// where it cannot know it, translation branches on this value (src/frontend/dynamic-mode.ts).
// Other hardware registers (FLAT_SCRATCH belongs to scratch, not translated yet): an error.
import { decodeHwreg, hwregDef, hwregFieldMask, hwregFieldText, HWREG_MODE, MODE_TRACKED_MASK } from '../../analysis/hwreg.js';
import type { Inst } from '../../ir/ir.js';
import type { TContext, Translator } from '../context.js';

function modeField(cx: TContext, verb: 'reading' | 'writing') {
  const v = cx.op('simm16').value;
  if (v.kind !== 'imm') return cx.fail(`a ${v.kind} hwreg operand`);
  const f = decodeHwreg(v.value & 0xffff);
  if (f.id !== HWREG_MODE) {
    const target = cx.shader.info.target;
    return cx.fail(`${verb} ${hwregDef(f.id, target)?.name ?? `hardware register ${f.id}`} (${hwregFieldText(f, target)}) is not translated yet; only HW_REG_MODE is`);
  }
  return { f, mask: hwregFieldMask(f) };
}

function writeMode(cx: TContext, value: Inst): void {
  const { f, mask } = modeField(cx, 'writing');
  const b = cx.b;
  const m = (mask & MODE_TRACKED_MASK) >>> 0;
  if (m === 0) return;
  const bits = b.emit('And32', [b.emit('Shl32', [value, cx.u32(f.offset)]), cx.u32(m)]);
  b.emit('SetMode', [b.emit('Or32', [b.emit('And32', [b.emit('GetMode'), cx.u32(~m >>> 0)]), bits])]);
}

export const HWREG_UNIT: Record<string, Translator> = {
  s_getreg_b32: (cx) => {
    const { f, mask } = modeField(cx, 'reading');
    const b = cx.b;
    cx.writeScalar(cx.op('sdst').value, b.emit('LShr32', [b.emit('And32', [b.emit('GetMode'), cx.u32(mask)]), cx.u32(f.offset)]));
  },
  s_setreg_b32: (cx) => writeMode(cx, cx.scalar(cx.op('sdst').value, 'b32')),
  s_setreg_imm32_b32: (cx) => {
    const v = cx.op('imm32').value;
    writeMode(cx, cx.u32(v.kind === 'literal' || v.kind === 'imm' ? v.value >>> 0 : cx.fail(`a ${v.kind} s_setreg_imm32_b32 value`)));
  },
};
