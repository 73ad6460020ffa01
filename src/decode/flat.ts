import type { DecodeContext, FamilyDecoder, Instruction, Operand, OperandValue } from './types.js';
import { TRUNCATED, DecodedInstruction } from './types.js';
import type { Family, InstrDef } from '../isa/types.js';
import { familyLookup } from '../isa/table.js';
import { sext, sgpr, ttmp, vgpr } from './operands.js';
import { keepPairLists, pairListsOf } from './shared-operands.js';

// FLAT / GLOBAL / SCRATCH encoding (64 bits). RDNA2 ISA reference, "FLAT" microcode format:
//   dword 0: OFFSET[11:0] DLC[12] LDS[13] SEG[15:14] GLC[16] SLC[17] OP[24:18] (bit 25 unused)
//            ENCODING[31:26]=110111
//   dword 1: ADDR[7:0] DATA[15:8] SADDR[22:16] NV[23] VDST[31:24]
// Validity rules follow LLVM 19 (probed): NV must be 0; FLAT needs SADDR=0x7d (off/null);
// LDS=1 only on GLOBAL/SCRATCH byte..dword loads; register tuples must stay within v0-v255.

const SEG_FAMILY: readonly (Family | undefined)[] = ['FLAT', 'SCRATCH', 'GLOBAL', undefined];
/** The definition lookups by SEG_FAMILY (familyLookup: one family's table read, not lookup's keyed load of the family by name). */
const SEG_LOOKUP = SEG_FAMILY.map((f) => (f === undefined ? undefined : familyLookup(f)));

/** SADDR/SOFFSET code meaning "no SGPR" (the NULL register's code on gfx10). */
export const FLAT_SADDR_OFF = 0x7d;

interface Plan {
  readonly kind: 'load' | 'store' | 'atomic';
  readonly lds: boolean;
  readonly addtid: boolean;
  /** vdst dwords (loads; atomics with GLC). */
  readonly vdstDw: number;
  /** vdata dwords (stores/atomics). */
  readonly vdataDw: number;
}

const PLANS = new Map<InstrDef, Plan>();

function planOf(def: InstrDef): Plan {
  let p = PLANS.get(def);
  if (p === undefined) {
    const flags = def.flags ?? [];
    const kind = flags.includes('atomic') ? 'atomic' : flags.includes('store') ? 'store' : 'load';
    let vdstDw = 0, vdataDw = 0;
    for (const o of def.operands) {
      if (o.name === 'vdst') vdstDw = o.dwords ?? 1;
      else if (o.name === 'vdata') vdataDw = o.dwords ?? 1;
    }
    p = { kind, lds: flags.includes('lds'), addtid: flags.includes('addtid'), vdstDw, vdataDw };
    PLANS.set(def, p);
  }
  return p;
}

const NULL_OFF: OperandValue = { kind: 'special', reg: 'null', code: FLAT_SADDR_OFF, count: 1 };

/** GLOBAL saddr: an SGPR pair (LLVM aligns an odd index down), vcc, exec, a TTMP pair, or off. */
function globalSaddr(code: number): OperandValue | undefined {
  if (code <= 105) return sgpr(code & ~1, 2);
  if (code === 106) return { kind: 'special', reg: 'vcc', code, count: 2 };
  if (code >= 108 && code <= 123) return ttmp((code - 108) & ~1, 2);
  if (code === 126) return { kind: 'special', reg: 'exec', code, count: 2 };
  if (code === FLAT_SADDR_OFF) return NULL_OFF;
  return undefined;
}

/**
 * SCRATCH saddr: one SGPR-class register. Code 0x7f (exec_hi) is outside the operand's register
 * class: LLVM 19 prints it as 'off' on gfx1030 and as exec_hi with an invalid-register note on
 * gfx1010/gfx1013 (but 'off' again for the LDS forms there); we decode it as null on gfx1030 and exec_hi elsewhere to match.
 */
function scratchSaddr(code: number, target: string, lds: boolean): OperandValue {
  if (code === 127 && target !== 'gfx1030' && !lds) return { kind: 'special', reg: 'exec_hi', code, count: 1 };
  if (code <= 105) return sgpr(code, 1);
  if (code >= 108 && code <= 123) return ttmp(code - 108, 1);
  switch (code) {
    case 106: return { kind: 'special', reg: 'vcc_lo', code, count: 1 };
    case 107: return { kind: 'special', reg: 'vcc_hi', code, count: 1 };
    case 124: return { kind: 'special', reg: 'm0', code, count: 1 };
    case 126: return { kind: 'special', reg: 'exec_lo', code, count: 1 };
    default: return { kind: 'special', reg: 'null', code, count: 1 }; // 125, 127
  }
}

function vgprOp(name: string, index: number, count: number): Operand {
  return { name, value: vgpr(index, count) };
}

export const decodeFLAT: FamilyDecoder = (ctx: DecodeContext): Instruction | string => {
  if (ctx.index + 2 > ctx.end) return TRUNCATED;
  const w0 = ctx.words[ctx.index]! >>> 0;
  const w1 = ctx.words[ctx.index + 1]! >>> 0;
  const family = SEG_FAMILY[(w0 >>> 14) & 3];
  const segLookup = SEG_LOOKUP[(w0 >>> 14) & 3];
  if (family === undefined || segLookup === undefined) return 'FLAT segment 3 is reserved';
  const def = segLookup(ctx.target, (w0 >>> 18) & 0x7f);
  if (def === undefined) return `no ${family} opcode ${(w0 >>> 18) & 0x7f} on ${ctx.target}`;
  if ((w1 >>> 23) & 1) return 'FLAT NV bit is set';
  // The two words and the definition give the whole record (validity included) but for a SCRATCH
  // saddr of code 0x7f, which depends on the target (scratchSaddr): those aside, the lists and
  // modifiers of a pair decoded before under the same definition are shared (shared-operands.ts).
  const shared = family !== 'SCRATCH' || ((w1 >>> 16) & 0x7f) !== 127;
  if (shared) {
    const seen = pairListsOf(def, w0, w1);
    if (seen !== undefined) return new DecodedInstruction(ctx.pc, seen.words, 8, 'FLAT', undefined, def, seen.operands, seen.mods);
  }
  const plan = planOf(def);
  const lds = ((w0 >>> 13) & 1) === 1;
  const glc = ((w0 >>> 16) & 1) === 1;
  const addr = w1 & 0xff, data = (w1 >>> 8) & 0xff, saddrCode = (w1 >>> 16) & 0x7f, vdst = w1 >>> 24;
  if (lds && (!plan.lds || family === 'FLAT')) return 'LDS=1 is not valid for this opcode/segment';
  const ops: Operand[] = [];
  // Destination.
  if (plan.kind === 'load' && !lds) {
    if (vdst + plan.vdstDw > 256) return 'vdst register range is out of bounds';
    ops.push(vgprOp('vdst', vdst, plan.vdstDw));
  } else if (plan.kind === 'atomic' && glc) {
    if (vdst + plan.vdstDw > 256) return 'vdst register range is out of bounds';
    ops.push(vgprOp('vdst', vdst, plan.vdstDw));
  }
  // Address and saddr.
  let saddr: OperandValue | undefined;
  if (family === 'FLAT') {
    if (saddrCode !== FLAT_SADDR_OFF) return 'FLAT segment needs SADDR=off';
    if (addr + 2 > 256) return 'vaddr register range is out of bounds';
    ops.push(vgprOp('vaddr', addr, 2));
  } else if (family === 'GLOBAL') {
    saddr = globalSaddr(saddrCode);
    if (saddr === undefined) return `GLOBAL saddr code ${saddrCode} is not an SGPR pair`;
    if (!plan.addtid) {
      const n = saddr === NULL_OFF ? 2 : 1;
      if (addr + n > 256) return 'vaddr register range is out of bounds';
      ops.push(vgprOp('vaddr', addr, n));
    }
  } else {
    saddr = scratchSaddr(saddrCode, ctx.target, lds);
    if (saddrCode === FLAT_SADDR_OFF) ops.push(vgprOp('vaddr', addr, 1));
  }
  if (plan.kind !== 'load') {
    if (data + plan.vdataDw > 256) return 'vdata register range is out of bounds';
    ops.push(vgprOp('vdata', data, plan.vdataDw));
  }
  if (saddr !== undefined) ops.push({ name: 'saddr', value: saddr });
  const off = w0 & 0xfff;
  const mods = {
    offset: family === 'FLAT' ? off : sext(off, 12),
    glc,
    slc: ((w0 >>> 17) & 1) === 1,
    dlc: ((w0 >>> 12) & 1) === 1,
    lds,
  };
  return new DecodedInstruction(ctx.pc, shared ? keepPairLists(def, w0, w1, ops, mods).words : [w0, w1], 8, 'FLAT', undefined, def, ops, mods);
};
