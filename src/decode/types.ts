// Decoded instructions: structure only, no text (src/disasm prints them).
import type { InstrDef, Target } from '../isa/types.js';

/** Encoding an instruction was found in (the first-word family), DPP/SDWA as VALU variants. */
export type Encoding =
  | 'SOP1' | 'SOP2' | 'SOPK' | 'SOPC' | 'SOPP' | 'SMEM'
  | 'VOP1' | 'VOP2' | 'VOPC' | 'VOP3' | 'VOP3P' | 'VINTRP'
  | 'DS' | 'MUBUF' | 'MTBUF' | 'MIMG' | 'FLAT' | 'EXP';

/** Named special scalar registers / source codes (LLVM spelling). */
export type SpecialReg =
  | 'vcc_lo' | 'vcc_hi' | 'vcc' | 'm0' | 'null' | 'exec_lo' | 'exec_hi' | 'exec'
  | 'src_vccz' | 'src_execz' | 'src_scc' | 'src_lds_direct'
  | 'src_shared_base' | 'src_shared_limit' | 'src_private_base' | 'src_private_limit'
  | 'src_pops_exiting_wave_id';

export type OperandValue =
  | { readonly kind: 'sgpr'; readonly index: number; readonly count: number }
  | { readonly kind: 'ttmp'; readonly index: number; readonly count: number }
  | { readonly kind: 'vgpr'; readonly index: number; readonly count: number }
  | { readonly kind: 'special'; readonly reg: SpecialReg; readonly code: number; readonly count: number }
  /** Inline constant: `code` is the source encoding (128-208 integers, 240-248 floats). */
  | { readonly kind: 'inline'; readonly code: number }
  /** The 32-bit literal dword that follows the instruction (source code 255). */
  | { readonly kind: 'literal'; readonly value: number }
  /** An immediate field (simm16, offsets, counts, ...). */
  | { readonly kind: 'imm'; readonly value: number }
  /** An encoding of a register/source field that names nothing (reserved code). */
  | { readonly kind: 'reserved'; readonly code: number };

export interface Operand {
  /** Operand name as in the table's OperandDef (src0, vdst, ...). */
  readonly name: string;
  readonly value: OperandValue;
  readonly neg?: boolean;
  readonly abs?: boolean;
  /** SDWA sign-extension of an integer source. */
  readonly sext?: boolean;
}

export interface DppControl {
  /** 9-bit dpp_ctrl (DPP16). */
  readonly ctrl: number;
  readonly rowMask: number;
  readonly bankMask: number;
  readonly boundCtrl: boolean;
  readonly fi: boolean;
}

export interface SdwaSelects {
  readonly dstSel?: number;
  readonly dstUnused?: number;
  readonly src0Sel: number;
  readonly src1Sel?: number;
}

/**
 * Modifiers and fields beyond the operands. Every field is optional; each family fills
 * what its encoding has. The printer reads them; so will the analyses and translator.
 */
export interface Modifiers {
  // VALU
  readonly clamp?: boolean;
  readonly omod?: number;
  readonly opsel?: number;
  readonly opselHi?: number;
  readonly negLo?: number;
  readonly negHi?: number;
  readonly dpp?: DppControl;
  /** DPP8: eight 3-bit lane selects. */
  readonly dpp8?: { readonly sel: readonly number[]; readonly fi: boolean };
  readonly sdwa?: SdwaSelects;
  // Memory
  readonly offset?: number;
  readonly offset0?: number;
  readonly offset1?: number;
  readonly gds?: boolean;
  readonly glc?: boolean;
  readonly slc?: boolean;
  readonly dlc?: boolean;
  readonly idxen?: boolean;
  readonly offen?: boolean;
  readonly lds?: boolean;
  readonly tfe?: boolean;
  /** MIMG LWE (LOD warning enable). */
  readonly lwe?: boolean;
  readonly format?: number;
  readonly dmask?: number;
  readonly dim?: number;
  readonly unorm?: boolean;
  readonly r128?: boolean;
  readonly a16?: boolean;
  readonly d16?: boolean;
  readonly nsa?: boolean;
  // EXP / VINTRP
  readonly target?: number;
  readonly en?: number;
  readonly compr?: boolean;
  readonly done?: boolean;
  readonly vm?: boolean;
  readonly attr?: number;
  readonly attrChan?: number;
  readonly high?: boolean;
}

export type ValuVariant = 'e32' | 'e64' | 'dpp16' | 'dpp8' | 'sdwa';

export interface Instruction {
  readonly kind: 'instruction';
  /** Byte offset (raw file) or address (ELF) of the first word. */
  readonly pc: number;
  /** The instruction's dwords, literal and extra address words included. */
  readonly words: readonly number[];
  /** Length in bytes (4 * words.length). */
  readonly size: number;
  readonly encoding: Encoding;
  /** VOP1/VOP2/VOPC/VOP3/VOP3P: which form; absent for non-VALU. */
  readonly variant?: ValuVariant;
  readonly def: InstrDef;
  readonly operands: readonly Operand[];
  readonly mods: Modifiers;
}

/**
 * The decoders' Instruction records, made by a constructor rather than an object literal: V8
 * tracks a literal's allocation site and, where its objects outlive young-generation collections
 * (a large kernel's records live through its whole recompile), allocates that site's objects in
 * the old generation from then on (pretenuring), which made a small kernel's records, garbage
 * after its recompile, old objects (cfg.ts's blocks and edges say what that cost). A
 * constructor's objects have no allocation site. The properties are those of the literals it
 * replaced, in their order (`variant` only where there is one).
 */
export class DecodedInstruction implements Instruction {
  declare readonly kind: 'instruction';
  declare readonly pc: number;
  declare readonly words: readonly number[];
  declare readonly size: number;
  declare readonly encoding: Encoding;
  declare readonly variant?: ValuVariant;
  declare readonly def: InstrDef;
  declare readonly operands: readonly Operand[];
  declare readonly mods: Modifiers;
  constructor(pc: number, words: readonly number[], size: number, encoding: Encoding, variant: ValuVariant | undefined, def: InstrDef, operands: readonly Operand[], mods: Modifiers) {
    const self = this as { -readonly [K in keyof Instruction]: Instruction[K] };
    self.kind = 'instruction';
    self.pc = pc;
    self.words = words;
    self.size = size;
    self.encoding = encoding;
    if (variant !== undefined) self.variant = variant;
    self.def = def;
    self.operands = operands;
    self.mods = mods;
  }
}

/** A dword that does not decode on this target: LLVM prints `.long 0x...`. 4 bytes. */
export interface InvalidWord {
  readonly kind: 'invalid';
  readonly pc: number;
  readonly words: readonly [number];
  readonly size: 4;
  /** Why, for diagnostics (not printed in LLVM-compatible text). */
  readonly reason: string;
  /** The first word starts an instruction that needs more dwords than the input has. */
  readonly truncated?: boolean;
}

/** Trailing bytes that do not form a dword. */
export interface TrailingBytes {
  readonly kind: 'bytes';
  readonly pc: number;
  readonly bytes: readonly number[];
  readonly size: number;
}

export type Decoded = Instruction | InvalidWord | TrailingBytes;

export interface DecodeContext {
  readonly target: Target;
  /** The whole code as dwords. */
  readonly words: Uint32Array;
  /** Index of the first word of the instruction being decoded. */
  readonly index: number;
  /** Number of valid dwords in `words` (the decoder must not read at or past it). */
  readonly end: number;
  /** pc of the first word. */
  readonly pc: number;
}

/**
 * A family decoder: returns the Instruction, or a string saying why the word is invalid
 * (it then becomes an InvalidWord), or 'truncated' when it needs dwords past ctx.end.
 */
export type FamilyDecoder = (ctx: DecodeContext) => Instruction | string;

export const TRUNCATED = 'truncated';

/** The modifiers of an instruction that has none: one object for all of them (records are read-only). */
export const NO_MODS: Modifiers = {};
