// s_getreg_b32 / s_setreg_b32 / s_setreg_imm32_b32 on the hardware registers this machine has:
// MODE (the float mode every VALU instruction runs under), and the registers analyses model as
// plain values (FLAT_SCR_LO/HI). Any other register stops the run: its value would be invented.
import type { Instruction } from '../../decode/types.js';
import { decodeHwreg, hwregDef, hwregFieldMask, HWREG_MODE, MODE_TRACKED_MASK } from '../../analysis/hwreg.js';
import type { ExecContext } from '../context.js';
import { UnimplementedError } from '../errors.js';

export function readHwreg(inst: Instruction, cx: ExecContext, simm16: number): number {
  const f = decodeHwreg(simm16);
  const mask = hwregFieldMask(f);
  if (f.id === HWREG_MODE) return ((cx.st.mode & mask) >>> f.offset) >>> 0;
  const def = hwregDef(f.id, cx.target);
  if (def?.model === 'value') return (((cx.hwregs.get(f.id) ?? 0) & mask) >>> f.offset) >>> 0;
  throw new UnimplementedError(`s_getreg of hardware register ${def?.name ?? f.id} is not modelled`);
}

export function writeHwreg(inst: Instruction, cx: ExecContext, simm16: number, value: number): void {
  const f = decodeHwreg(simm16);
  const mask = hwregFieldMask(f);
  const bits = ((value << f.offset) & mask) >>> 0;
  if (f.id === HWREG_MODE) {
    // Only the fields the MODE model knows are writable; the others keep their value.
    const m = (mask & MODE_TRACKED_MASK) >>> 0;
    cx.st.mode = ((cx.st.mode & ~m) | (bits & m)) >>> 0;
    return;
  }
  const def = hwregDef(f.id, cx.target);
  if (def?.model === 'value') { cx.hwregs.set(f.id, (((cx.hwregs.get(f.id) ?? 0) & ~mask) | bits) >>> 0); return; }
  throw new UnimplementedError(`s_setreg of hardware register ${def?.name ?? f.id} is not modelled`);
}
