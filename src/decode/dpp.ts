// DPP16 and DPP8 forms of VOP1/VOP2/VOPC (src0 field 0xFA, 0xE9, 0xEA). The first dword is the
// VOP1/VOP2/VOPC word (opcode, vdst, vsrc1); the second carries the DPP controls and src0.
// Field layout: RDNA2 ISA reference, "Microcode Formats" (DPP16, DPP8); which opcodes have a DPP
// form and which modifiers it takes: src/isa/tables/valu-variants.ts.
//
// DPP16 second dword:  [7:0] src0 VGPR, [16:8] dpp_ctrl, [17] unused, [18] fi, [19] bound_ctrl,
//   [20] src0_neg, [21] src0_abs, [22] src1_neg, [23] src1_abs, [27:24] bank_mask, [31:28] row_mask.
// DPP8 second dword:   [7:0] src0 VGPR, [31:8] eight 3-bit lane selects (lane 0 lowest);
//   src0 field 0xEA instead of 0xE9 sets fi.
import type { InstrDef, OperandDef } from '../isa/types.js';
import { lookup } from '../isa/table.js';
import { dppForm, variantOf } from '../isa/tables/valu-variants.js';
import type { DppSrcMods } from '../isa/tables/valu-variants.js';
import type { DecodeContext, FamilyDecoder, Instruction, Modifiers, Operand, OperandValue } from './types.js';
import { TRUNCATED, DecodedInstruction } from './types.js';
import { SRC } from './operands.js';
import { decodeVOP1 } from './vop1.js';
import { decodeVOP2 } from './vop2.js';
import { decodeVOPC } from './vopc.js';

/** The base family of a VOP1/VOP2/VOPC first dword (bit 31 is 0). */
export function vopFamily(w0: number): 'VOP1' | 'VOP2' | 'VOPC' {
  const top7 = w0 >>> 25;
  if (top7 === 0x3f) return 'VOP1';
  if (top7 === 0x3e) return 'VOPC';
  return 'VOP2';
}

/** The opcode field of a VOP1/VOP2/VOPC first dword. */
export function vopOpcode(family: 'VOP1' | 'VOP2' | 'VOPC', w0: number): number {
  if (family === 'VOP1') return (w0 >>> 9) & 0xff;
  if (family === 'VOPC') return (w0 >>> 17) & 0xff;
  return (w0 >>> 25) & 0x3f;
}

/** vcc_lo, as the implicit VCC operands of VOP2/VOPC print in wave32. */
export const VCC_LO: OperandValue = { kind: 'special', reg: 'vcc_lo', code: SRC.VCC_LO, count: 1 };

/** Which field of the VOP word an operand of the base def comes from. */
export type VopSlot = 'vdst' | 'src0' | 'src1' | 'vcc' | 'sdst' | 'none';

/**
 * Slot of a base-def operand in a DPP/SDWA form: the 9-bit 'src' operand is src0, a VGPR
 * destination is vdst, a VGPR source is vsrc1, implicit VCC operands are 'vcc' ('sdst' when it is
 * the written VCC of a VOPC compare, which SDWA may redirect to an SGPR).
 */
export function slotOf(def: InstrDef, op: OperandDef): VopSlot {
  switch (op.kind) {
    case 'src': return 'src0';
    case 'vgpr': return op.role === 'src' ? 'src1' : 'vdst';
    case 'vcc': return def.family === 'VOPC' && op.role !== 'src' ? 'sdst' : 'vcc';
    case 'sdst': return 'sdst';
    default: return 'none';
  }
}

type SrcModBits = { readonly neg?: boolean; readonly abs?: boolean; readonly sext?: boolean };
const NEG: SrcModBits = { neg: true }, ABS: SrcModBits = { abs: true }, NEG_ABS: SrcModBits = { neg: true, abs: true };
const SEXT: SrcModBits = { sext: true };

/** The source modifiers that a DPP16 operand's neg/abs bits mean for its modifier class. */
function srcMods(cls: DppSrcMods | undefined, neg: boolean, abs: boolean): SrcModBits | undefined {
  if (cls === 'fp') return neg ? (abs ? NEG_ABS : NEG) : abs ? ABS : undefined;
  if (cls === 'sext') return neg ? SEXT : undefined;
  return undefined;
}

/** The two dwords of a DPP/SDWA word, its base family, opcode and definition. */
export interface VariantWord {
  readonly w0: number;
  readonly w1: number;
  readonly family: 'VOP1' | 'VOP2' | 'VOPC';
  readonly opcode: number;
  readonly def: InstrDef;
}

/** Read the first two dwords and look the opcode up; a string when that fails (as FamilyDecoder). */
export function readVariantWord(ctx: DecodeContext): VariantWord | string {
  const w0 = ctx.words[ctx.index] ?? 0;
  if (ctx.index + 1 >= ctx.end) return TRUNCATED;
  const w1 = ctx.words[ctx.index + 1] ?? 0;
  const family = vopFamily(w0);
  const opcode = vopOpcode(family, w0);
  const def = lookup(ctx.target, family, opcode);
  if (def === undefined) return `${family} opcode ${opcode} does not exist on ${ctx.target}`;
  return { w0, w1, family, opcode, def };
}

const BASE_DECODERS: Record<'VOP1' | 'VOP2' | 'VOPC', FamilyDecoder> = { VOP1: decodeVOP1, VOP2: decodeVOP2, VOPC: decodeVOPC };

/**
 * LLVM tries the DPP/SDWA tables first and, when the word has no such form (or bad modifier
 * bits), decodes the first dword as a plain e32 word: that fails for the DPP/SDWA src0 codes,
 * except for operand-less opcodes (v_nop, v_clrexcp, v_pipeflush), which ignore src0.
 */
export function withE32Fallback(variant: FamilyDecoder): FamilyDecoder {
  return (ctx: DecodeContext): Instruction | string => {
    const r = variant(ctx);
    if (typeof r !== 'string') return r;
    // Also when the control dword is missing (truncated): the e32 word may still decode.
    const e32 = BASE_DECODERS[vopFamily(ctx.words[ctx.index] ?? 0)](ctx);
    return typeof e32 === 'string' ? r : e32;
  };
}

const decodeDPPForm: FamilyDecoder = (ctx: DecodeContext): Instruction | string => {
  const vw = readVariantWord(ctx);
  if (typeof vw === 'string') return vw;
  const { w0, w1, family, opcode, def } = vw;
  const form = dppForm(ctx.target, family, opcode);
  if (form === undefined) return `${def.mnemonic} has no DPP form on ${ctx.target}`;
  const code = w0 & 0x1ff;
  const is16 = code === SRC.DPP16;
  if (variantOf(family, opcode)?.bare === true && ((w0 >>> 17) & 0xff | w1 & (is16 ? 0x00f000ff : 0xff)) !== 0) {
    return `${def.mnemonic}: operand fields of its operand-less DPP form are not 0`;
  }

  let neg0 = false, abs0 = false, neg1 = false, abs1 = false;
  if (is16) {
    neg0 = ((w1 >>> 20) & 1) === 1;
    abs0 = ((w1 >>> 21) & 1) === 1;
    neg1 = ((w1 >>> 22) & 1) === 1;
    abs1 = ((w1 >>> 23) & 1) === 1;
    if ((neg0 || abs0) && form.src0 === 'int') return 'DPP src0 neg/abs on an integer source';
    if ((neg1 || abs1) && (form.src1 === 'int' || form.src1 === undefined)) return form.src1 === undefined ? 'DPP src1 neg/abs without src1' : 'DPP src1 neg/abs on an integer source';
  }
  const m0 = srcMods(form.src0, neg0, abs0);
  const m1 = srcMods(form.src1, neg1, abs1);

  const operands: Operand[] = [];
  for (const op of def.operands) {
    switch (slotOf(def, op)) {
      case 'vdst':
        operands.push({ name: op.name, value: { kind: 'vgpr', index: (w0 >>> 17) & 0xff, count: 1 } });
        break;
      case 'src0': {
        const value: OperandValue = { kind: 'vgpr', index: w1 & 0xff, count: 1 };
        operands.push(m0 === undefined ? { name: op.name, value } : { name: op.name, value, ...m0 });
        break;
      }
      case 'src1': {
        const value: OperandValue = { kind: 'vgpr', index: (w0 >>> 9) & 0xff, count: 1 };
        operands.push(m1 === undefined ? { name: op.name, value } : { name: op.name, value, ...m1 });
        break;
      }
      case 'vcc':
      case 'sdst':
        operands.push({ name: op.name, value: VCC_LO });
        break;
      case 'none':
        return `${def.mnemonic}: operand ${op.name} has no DPP encoding`;
    }
  }

  let mods: Modifiers;
  if (is16) {
    mods = {
      dpp: {
        ctrl: (w1 >>> 8) & 0x1ff,
        rowMask: w1 >>> 28,
        bankMask: (w1 >>> 24) & 0xf,
        boundCtrl: ((w1 >>> 19) & 1) === 1,
        fi: ((w1 >>> 18) & 1) === 1,
      },
    };
  } else {
    const sel: number[] = [];
    for (let i = 0; i < 8; i++) sel.push((w1 >>> (8 + 3 * i)) & 7);
    mods = { dpp8: { sel, fi: code === SRC.DPP8_FI } };
  }
  return new DecodedInstruction(ctx.pc, [w0, w1], 8, family, is16 ? 'dpp16' : 'dpp8', def, operands, mods);
};

export const decodeDPP: FamilyDecoder = withE32Fallback(decodeDPPForm);
