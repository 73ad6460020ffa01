// SDWA form of VOP1/VOP2/VOPC (src0 field 0xF9). The first dword is the VOP1/VOP2/VOPC word
// (opcode, vdst, vsrc1); the second carries src0 and the sub-dword selects.
// Field layout: RDNA2 ISA reference, "Microcode Formats" (SDWA, SDWAB); which opcodes have an SDWA
// form and which modifiers it takes: src/isa/tables/valu-variants.ts.
//
// Second dword: [7:0] src0, [10:8] dst_sel, [12:11] dst_unused, [13] clamp, [15:14] omod,
//   [18:16] src0_sel, [19] src0_sext, [20] src0_neg, [21] src0_abs, [23] s0 (src0 is a scalar
//   source code, not a VGPR), [26:24] src1_sel, [27] src1_sext, [28] src1_neg, [29] src1_abs,
//   [31] s1 (vsrc1 of the first dword is a scalar source code). Bits 22 and 30 are ignored.
// VOPC (SDWAB): [14:8] sdst, [15] sd (write sdst instead of VCC); no dst_sel/dst_unused/clamp/omod.
// VOP1 has no src1: bits 24-29 and 31 must be 0. v_cmpx (no VCC result) must have sd = 0.
// Select value 7 is reserved (LLVM 19 crashes on it); we report such words as invalid.
import type { DecodeContext, FamilyDecoder, Instruction, Modifiers, Operand, OperandValue } from './types.js';
import { sdwaForm, variantOf } from '../isa/tables/valu-variants.js';
import { decodeScalarCode } from './operands.js';
import { VCC_LO, readVariantWord, slotOf, withE32Fallback } from './dpp.js';
import { DecodedInstruction } from './types.js';

/** Bits an operand-less SDWA form (v_nop) may have set: dst_sel, dst_unused, bits 22 and 30. */
const SDWA_BARE_FREE = 0x40401f00;

/** SDWA select values (BYTE_0..WORD_1, DWORD); 7 is reserved. */
export const SDWA_SEL_DWORD = 6;

/** A scalar source code as an SDWA source: SGPR/TTMP/special/inline; no literal. */
function sdwaScalar(code: number): OperandValue | undefined {
  const v = decodeScalarCode(code, 1);
  return v.kind === 'literal' || v.kind === 'reserved' ? undefined : v;
}

const decodeSDWAForm: FamilyDecoder = (ctx: DecodeContext): Instruction | string => {
  const vw = readVariantWord(ctx);
  if (typeof vw === 'string') return vw;
  const { w0, w1, family, opcode, def } = vw;
  const form = sdwaForm(ctx.target, family, opcode);
  if (form === undefined) return `${def.mnemonic} has no SDWA form`;
  if (variantOf(family, opcode)?.bare === true) {
    if ((((w0 >>> 17) & 0xff) | (w1 & ~SDWA_BARE_FREE)) !== 0) return `${def.mnemonic}: operand fields of its operand-less SDWA form are not 0`;
    // Any dst_sel (7 too) and dst_unused: LLVM prints none of them for an operand-less form.
    return new DecodedInstruction(ctx.pc, [w0, w1], 8, family, 'sdwa', def, [], { sdwa: { dstSel: (w1 >>> 8) & 7, dstUnused: (w1 >>> 11) & 3, src0Sel: 0 } });
  }
  const isVOPC = family === 'VOPC';
  const hasSrc1 = family !== 'VOP1';

  const src0Sel = (w1 >>> 16) & 7;
  const sext0 = ((w1 >>> 19) & 1) === 1;
  const neg0 = ((w1 >>> 20) & 1) === 1;
  const abs0 = ((w1 >>> 21) & 1) === 1;
  const s0 = ((w1 >>> 23) & 1) === 1;
  const src1Sel = (w1 >>> 24) & 7;
  const sext1 = ((w1 >>> 27) & 1) === 1;
  const neg1 = ((w1 >>> 28) & 1) === 1;
  const abs1 = ((w1 >>> 29) & 1) === 1;
  const s1 = (w1 >>> 31) === 1;

  if (src0Sel === 7) return 'SDWA src0_sel 7 is reserved';
  if ((neg0 || abs0) && form.src0 !== 'fp') return 'SDWA src0 neg/abs on an integer source';
  if (sext0 && form.src0 !== 'int') return 'SDWA src0 sext on a float source';
  if (hasSrc1) {
    if (src1Sel === 7) return 'SDWA src1_sel 7 is reserved';
    if ((neg1 || abs1) && form.src1 !== 'fp') return 'SDWA src1 neg/abs on an integer source';
    if (sext1 && form.src1 !== 'int') return 'SDWA src1 sext on a float source';
  } else if ((w1 & 0xbf000000) !== 0) {
    return 'SDWA src1 fields set in a VOP1 word';
  }

  let dstSel: number | undefined, dstUnused: number | undefined, clamp = false, omod = 0;
  let sdst: OperandValue = VCC_LO;
  let sd = false;
  if (isVOPC) {
    sd = ((w1 >>> 15) & 1) === 1;
    if (sd) {
      const v = sdwaScalar((w1 >>> 8) & 0x7f);
      if (v === undefined) return 'SDWA sdst code names nothing';
      sdst = v;
    }
  } else {
    dstSel = (w1 >>> 8) & 7;
    if (dstSel === 7) return 'SDWA dst_sel 7 is reserved';
    dstUnused = (w1 >>> 11) & 3;
    clamp = ((w1 >>> 13) & 1) === 1;
    omod = (w1 >>> 14) & 3;
    if (omod !== 0 && form.omod !== true) return 'SDWA omod on an instruction without output modifiers';
  }

  let src0: OperandValue;
  if (s0) {
    const v = sdwaScalar(w1 & 0xff);
    if (v === undefined) return 'SDWA src0 scalar code is not an SDWA source';
    src0 = v;
  } else {
    src0 = { kind: 'vgpr', index: w1 & 0xff, count: 1 };
  }
  let src1: OperandValue | undefined;
  if (hasSrc1) {
    const f = (w0 >>> 9) & 0xff;
    if (s1) {
      src1 = sdwaScalar(f);
      if (src1 === undefined) return 'SDWA src1 scalar code is not an SDWA source';
    } else {
      src1 = { kind: 'vgpr', index: f, count: 1 };
    }
  }

  let sawSdst = false;
  const operands: Operand[] = [];
  for (const op of def.operands) {
    switch (slotOf(def, op)) {
      case 'vdst':
        operands.push({ name: op.name, value: { kind: 'vgpr', index: (w0 >>> 17) & 0xff, count: 1 } });
        break;
      case 'src0':
        operands.push(neg0 || abs0 || sext0 ? { name: op.name, value: src0, neg: neg0, abs: abs0, sext: sext0 } : { name: op.name, value: src0 });
        break;
      case 'src1':
        if (src1 === undefined) return `${def.mnemonic}: src1 in a VOP1 word`;
        operands.push(neg1 || abs1 || sext1 ? { name: op.name, value: src1, neg: neg1, abs: abs1, sext: sext1 } : { name: op.name, value: src1 });
        break;
      case 'sdst':
        sawSdst = true;
        operands.push({ name: op.name, value: sdst });
        break;
      case 'vcc':
        operands.push({ name: op.name, value: VCC_LO });
        break;
      case 'none':
        return `${def.mnemonic}: operand ${op.name} has no SDWA encoding`;
    }
  }
  if (sd && !sawSdst) return 'SDWA sd set on a compare without a scalar result (v_cmpx)';

  const mods: Modifiers = {
    sdwa: hasSrc1
      ? (isVOPC ? { src0Sel, src1Sel } : { dstSel, dstUnused, src0Sel, src1Sel })
      : { dstSel, dstUnused, src0Sel },
    ...(clamp ? { clamp } : {}),
    ...(omod !== 0 ? { omod } : {}),
  };
  return new DecodedInstruction(ctx.pc, [w0, w1], 8, family, 'sdwa', def, operands, mods);
};

export const decodeSDWA: FamilyDecoder = withE32Fallback(decodeSDWAForm);
