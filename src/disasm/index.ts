// Instruction to LLVM 19 text (the part of llvm-objdump-19 -d output before its `//` comment).
import type { Target } from '../isa/types.js';
import type { Decoded, Encoding, Instruction } from '../decode/types.js';
import type { PrintContext } from './context.js';

export type { PrintContext } from './context.js';
import { printSOP1 } from './sop1.js';
import { printSOP2 } from './sop2.js';
import { printSOPK } from './sopk.js';
import { printSOPC } from './sopc.js';
import { printSOPP } from './sopp.js';
import { printSMEM } from './smem.js';
import { printVOP1 } from './vop1.js';
import { printVOP2 } from './vop2.js';
import { printVOPC } from './vopc.js';
import { printVOP3 } from './vop3.js';
import { printVOP3P } from './vop3p.js';
import { printVINTRP } from './vintrp.js';
import { printDS } from './ds.js';
import { printMUBUF } from './mubuf.js';
import { printMTBUF } from './mtbuf.js';
import { printMIMG } from './mimg.js';
import { printFLAT } from './flat.js';
import { printEXP } from './exp.js';
import { printDPP } from './dpp.js';
import { printSDWA } from './sdwa.js';

type Printer = (inst: Instruction, target: Target, ctx?: PrintContext) => string;

const PRINTERS: Record<Encoding, Printer> = {
  SOP1: printSOP1, SOP2: printSOP2, SOPK: printSOPK, SOPC: printSOPC, SOPP: printSOPP,
  SMEM: printSMEM, VOP1: printVOP1, VOP2: printVOP2, VOPC: printVOPC, VOP3: printVOP3,
  VOP3P: printVOP3P, VINTRP: printVINTRP, DS: printDS, MUBUF: printMUBUF, MTBUF: printMTBUF,
  MIMG: printMIMG, FLAT: printFLAT, EXP: printEXP,
};

/** `.long 0x...` as LLVM prints a dword it cannot decode. */
export function formatLong(word: number): string {
  return '.long 0x' + (word >>> 0).toString(16).padStart(8, '0');
}

export function printInstruction(inst: Instruction, target: Target, ctx?: PrintContext): string {
  if (inst.variant === 'dpp16' || inst.variant === 'dpp8') return printDPP(inst, target);
  if (inst.variant === 'sdwa') return printSDWA(inst, target);
  return PRINTERS[inst.encoding](inst, target, ctx);
}

/** LLVM text of any decoded record. */
export function printDecoded(d: Decoded, target: Target, ctx?: PrintContext): string {
  switch (d.kind) {
    case 'instruction': return printInstruction(d, target, ctx);
    case 'invalid': return formatLong(d.words[0]);
    case 'bytes': return '.byte ' + d.bytes.map((b) => '0x' + b.toString(16).padStart(2, '0')).join(', ');
  }
}
