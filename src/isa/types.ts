// The vocabulary of the one ISA table. Every per-opcode fact lives in src/isa/tables/*.ts as data
// of these types; decoder, printer and (later) analyses and the translator read it from there.
// Sources: AMD "RDNA 2" Instruction Set Architecture reference guide; LLVM AMDGPU target
// (SIInstrInfo.td, VOP*Instructions.td, SOPInstructions.td, SIDefines.h, AMDGPUBaseInfo.cpp).

export const TARGETS = ['gfx1010', 'gfx1013', 'gfx1030'] as const;
export type Target = (typeof TARGETS)[number];

/** Base encoding family of an opcode (the family whose opcode space it lives in). */
export const FAMILIES = [
  'SOP1', 'SOP2', 'SOPK', 'SOPC', 'SOPP', 'SMEM',
  'VOP1', 'VOP2', 'VOPC', 'VOP3', 'VOP3P', 'VINTRP',
  'DS', 'MUBUF', 'MTBUF', 'MIMG', 'FLAT', 'GLOBAL', 'SCRATCH', 'EXP',
] as const;
export type Family = (typeof FAMILIES)[number];

/** Value type of an operand as the ISA reads or writes it. */
export type DataType =
  | 'b16' | 'b32' | 'b64' | 'b96' | 'b128' | 'b256' | 'b512'
  | 'i16' | 'u16' | 'i32' | 'u32' | 'i64' | 'u64' | 'i8' | 'u8' | 'i24' | 'u24'
  | 'f16' | 'f32' | 'f64'
  | 'v2f16' | 'v2i16' | 'v2u16' | 'v2b16'
  | 'v4i8' | 'v4u8' | 'v8i4' | 'v8u4' // packed 8-/4-bit lanes of a dword (v_dot4_*, v_dot8_* sources)
  | 'mask' // a wave lane mask (32 or 64 bits by wave size): VCC/SGPR-pair results of compares
  | 'none';

/** Float type of an instruction's arithmetic: which MODE rounding/denorm fields govern it. */
export type FloatType = 'f16' | 'f32' | 'f64';

/**
 * How an operand is encoded. The decoder reads the field; the printer formats it by kind + type.
 *  - sdst:    7-bit scalar destination (SGPR, VCC, TTMP, M0, NULL, EXEC)
 *  - ssrc:    8-bit scalar source (SGPR/TTMP/special/inline constant/literal 255)
 *  - src:     9-bit VALU source (ssrc codes + VGPR at 256-511)
 *  - vgpr:    8-bit VGPR field (vdst, vsrc1, vaddr, vdata, ...)
 *  - sbase/srsrc/ssamp/soffset/saddr: scalar register fields of memory encodings
 *  - simm16/imm: immediate fields, printed by the family printer
 */
export type OperandKind =
  | 'sdst' | 'ssrc' | 'src' | 'vgpr' | 'vcc'
  | 'sbase' | 'srsrc' | 'ssamp' | 'soffset' | 'saddr'
  | 'simm16' | 'imm' | 'label' | 'hwreg' | 'sendmsg' | 'waitcnt' | 'literal';

export interface OperandDef {
  /** LLVM operand name (sdst, ssrc0, src0, vdst, vaddr, vdata, ...). */
  readonly name: string;
  readonly role: 'dst' | 'src' | 'srcdst';
  readonly kind: OperandKind;
  readonly type: DataType;
  /** Register count in dwords, when it differs from what `type` implies. */
  readonly dwords?: number;
  /** Optional operand (printed only when present or non-default). */
  readonly optional?: boolean;
  /**
   * Register class of a register operand when narrower than its field allows (LLVM's class
   * name): e.g. a VOP3 `src` field that must name an SGPR (v_readlane_b32 lane select:
   * 'SReg_32') or a VGPR ('VGPR_32'). LLVM still decodes other codes and flags them in text.
   */
  readonly regClass?: RegClass;
}

/**
 * Register classes (LLVM names) of operands narrower than their field:
 *  VGPR_32: VGPR only; VRegOrLds_32: VGPR or lds_direct; SReg_32: scalar register or constant;
 *  SRegOrLds_32: SReg_32 or lds_direct; SReg_1: a lane mask SGPR (wave32: one SGPR);
 *  SReg_1_XEXEC: SReg_1 except exec.
 */
export type RegClass = 'VGPR_32' | 'VRegOrLds_32' | 'SReg_32' | 'SRegOrLds_32' | 'SReg_1' | 'SReg_1_XEXEC' | 'VReg_128'
  // Scalar classes of SOP/SMEM operands (XM0/XEXEC: without m0 / exec).
  | 'SReg_32_XM0_XEXEC' | 'SReg_32_XM0' | 'SReg_64' | 'SReg_64_XEXEC' | 'SReg_128' | 'SReg_256' | 'SReg_512';

export type ImplicitReg = 'VCC' | 'SCC' | 'EXEC' | 'M0' | 'MODE' | 'STATUS' | 'TRAPSTS' | 'VCCZ' | 'EXECZ' | 'LDS';

/** Source/output modifiers an encoding may carry for this opcode. */
export type Modifier =
  | 'neg' | 'abs' | 'clamp' | 'omod' | 'op_sel' | 'op_sel_hi' | 'neg_lo' | 'neg_hi'
  | 'dpp' | 'sdwa' | 'sext';

export interface InstrDef {
  readonly mnemonic: string;
  readonly family: Family;
  /** Opcode in the family's opcode field. The same on every target that has the instruction. */
  readonly opcode: number;
  /** Targets that have it; absent means all of TARGETS. */
  readonly targets?: readonly Target[];
  readonly operands: readonly OperandDef[];
  readonly implicitReads?: readonly ImplicitReg[];
  readonly implicitWrites?: readonly ImplicitReg[];
  /** Float type of the arithmetic, when MODE rounding/denormals apply. */
  readonly float?: FloatType;
  readonly modifiers?: readonly Modifier[];
  /** Free-form, family-specific facts (e.g. memory data dwords, 'noVOP3', 'vop3Only'). */
  readonly flags?: readonly string[];
}

/**
 * What `def.flags ?? NO_FLAGS` reads for a definition without flags (a third of the table): one
 * shared empty list, where `?? []` made an array at every instruction the hot paths looked at.
 */
export const NO_FLAGS: readonly string[] = Object.freeze([]);
