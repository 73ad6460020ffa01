// Shared MUBUF/MTBUF text, as LLVM 19's AMDGPUInstPrinter prints it:
//   mnemonic vdata, vaddr|off, srsrc, soffset [format:F] [idxen] [offen] [offset:N] [glc] [slc]
//   [dlc] [lds] [tfe]
// The lds forms have no vdata; the cache invalidates (no operands) print the mnemonic alone.
import type { Instruction, Operand } from '../decode/types.js';
import { formatValue } from './operands.js';
import { GFX10_BUFFER_FORMATS, GFX10_DEFAULT_BUFFER_FORMAT } from '../isa/tables/mtbuf.js';
import { SRC } from '../decode/operands.js';

/** soffset text. LLVM decodes code 254 (lds_direct) but flags it as outside soffset's class. */
function formatSoffset(op: Operand): string {
  const v = op.value;
  const t = formatValue(v, 'u32');
  if (v.kind === 'special' && v.code === SRC.LDS_DIRECT) return `${t}/*Invalid register, operand has 'SReg_32' register class*/`;
  return t;
}

/** format:[BUF_FMT_...] for known formats, format:N for unassigned ones, nothing for the default. */
export function formatBufferFormat(format: number): string {
  if (format === GFX10_DEFAULT_BUFFER_FORMAT) return '';
  const name = GFX10_BUFFER_FORMATS[format];
  return name === undefined ? ` format:${format}` : ` format:[${name}]`;
}

export function printBuffer(inst: Instruction): string {
  const def = inst.def;
  if (def.operands.length === 0) return def.mnemonic;
  const parts: string[] = [];
  for (const od of def.operands) {
    const op = inst.operands.find((o) => o.name === od.name);
    if (od.name === 'vaddr') parts.push(op === undefined ? 'off' : formatValue(op.value, od.type));
    else if (op === undefined) continue; // vdata of an lds form
    else if (od.kind === 'soffset') parts.push(formatSoffset(op));
    else parts.push(formatValue(op.value, od.type));
  }
  const m = inst.mods;
  let text = `${def.mnemonic} ${parts.join(', ')}`;
  if (m.format !== undefined) text += formatBufferFormat(m.format);
  if (m.idxen) text += ' idxen';
  if (m.offen) text += ' offen';
  if (m.offset) text += ` offset:${m.offset}`;
  if (m.glc) text += ' glc';
  if (m.slc) text += ' slc';
  if (m.dlc) text += ' dlc';
  if (m.lds) text += ' lds';
  if (m.tfe) text += ' tfe';
  return text;
}
