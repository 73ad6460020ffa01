import type { InstrDef, Target } from '../isa/types.js';
import { familyLookup } from '../isa/table.js';
import type { DecodeContext, FamilyDecoder, Instruction, Modifiers, Operand } from './types.js';
import { TRUNCATED, DecodedInstruction } from './types.js';
import { vgpr } from './operands.js';

const lookupDS = familyLookup('DS');

// DS encoding (2 dwords). RDNA2 ISA reference, "Microcode Formats", DS:
//   word0: offset0 [7:0], offset1 [15:8], (bit 16 unused, ignored), gds [17], op [25:18],
//          encoding [31:26] = 0b110110
//   word1: addr [7:0], data0 [15:8], data1 [23:16], vdst [31:24]
// The table's operand list (names vdst/addr/data0/data1) says which word1 fields an opcode uses;
// LLVM rejects a word whose unused fields are non-zero, or whose register tuple runs past v255.

const FIELD_SHIFT: Readonly<Record<string, number>> = { addr: 0, data0: 8, data1: 16, vdst: 24 };

const OFFSET_16 = 0;
const OFFSET_PAIR = 1;
const OFFSET_SWIZZLE = 2;
const GDS_ANY = 0;
const GDS_REQUIRED = 1;
const GDS_FORBIDDEN = 2;

interface OperandPlan { readonly name: string; readonly shift: number; readonly count: number }

/** Everything the decoder needs for one opcode, derived once from the table. */
interface Plan {
  readonly def: InstrDef;
  /** Bits of word1 that must be zero (fields the opcode does not use). */
  readonly zeroMask: number;
  readonly ops: readonly OperandPlan[];
  readonly offsetMode: number;
  readonly gds: number;
  /** The offset bytes must be zero. */
  readonly noOffset: boolean;
}

function dwordsOf(type: string, dwords: number | undefined): number {
  if (dwords !== undefined) return dwords;
  switch (type) {
    case 'b64': case 'i64': case 'u64': case 'f64': return 2;
    case 'b96': return 3;
    case 'b128': return 4;
    default: return 1;
  }
}

function makePlan(def: InstrDef): Plan {
  let used = 0;
  const ops: OperandPlan[] = [];
  const flags = def.flags ?? [];
  const data0InAddr = flags.includes('data0InAddr');
  for (const o of def.operands) {
    const shift = data0InAddr && o.name === 'data0' ? 0 : FIELD_SHIFT[o.name];
    if (shift === undefined) throw new Error(`DS table: ${def.mnemonic} has operand ${o.name} with no DS field`);
    used |= 0xff << shift;
    ops.push({ name: o.name, shift, count: dwordsOf(o.type, o.dwords) });
  }
  const offsetMode = flags.includes('swizzle') ? OFFSET_SWIZZLE : flags.includes('offset2') ? OFFSET_PAIR : OFFSET_16;
  const gds = flags.includes('gdsOnly') ? GDS_REQUIRED : flags.includes('noGds') ? GDS_FORBIDDEN : GDS_ANY;
  return { def, zeroMask: ~used >>> 0, ops, offsetMode, gds, noOffset: flags.includes('noOffset') };
}

const PLANS = new Map<Target, (Plan | undefined)[]>();

function plansFor(target: Target): (Plan | undefined)[] {
  let p = PLANS.get(target);
  if (p === undefined) {
    p = [];
    for (let op = 0; op < 256; op++) {
      const def = lookupDS(target, op);
      p.push(def === undefined ? undefined : makePlan(def));
    }
    PLANS.set(target, p);
  }
  return p;
}

export const decodeDS: FamilyDecoder = (ctx: DecodeContext): Instruction | string => {
  if (ctx.index + 1 >= ctx.end) return TRUNCATED;
  const w0 = ctx.words[ctx.index] ?? 0;
  const w1 = ctx.words[ctx.index + 1] ?? 0;
  const plan = plansFor(ctx.target)[(w0 >>> 18) & 0xff];
  if (plan === undefined) return 'DS opcode is not defined on this target';
  if ((w1 & plan.zeroMask) !== 0) return 'DS: a register field the opcode does not use is not zero';
  if (plan.noOffset && (w0 & 0xffff) !== 0) return 'DS: this opcode has no offset';
  const gds = ((w0 >>> 17) & 1) === 1;
  if (plan.gds === GDS_REQUIRED && !gds) return 'DS: this opcode needs gds';
  if (plan.gds === GDS_FORBIDDEN && gds) return 'DS: this opcode does not allow gds';
  const operands: Operand[] = [];
  for (const o of plan.ops) {
    const index = (w1 >>> o.shift) & 0xff;
    if (index + o.count > 256) return 'DS: register tuple runs past v255';
    operands.push({ name: o.name, value: vgpr(index, o.count) });
  }
  let mods: Modifiers;
  if (plan.offsetMode === OFFSET_PAIR) mods = { offset0: w0 & 0xff, offset1: (w0 >>> 8) & 0xff, gds };
  else mods = { offset: w0 & 0xffff, gds };
  return new DecodedInstruction(ctx.pc, [w0, w1], 8, 'DS', undefined, plan.def, operands, mods);
};
