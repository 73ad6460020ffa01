import type { InstrDef, OperandDef, Target } from '../isa/types.js';
import { lookup } from '../isa/table.js';
import { E64_SRC_QUIRKS, e64ProfileOf, parseE64Profile, type E64Profile } from '../isa/tables/vop3-promotion.js';
import type { DecodeContext, FamilyDecoder, Instruction, Modifiers, Operand, OperandValue } from './types.js';
import { NO_MODS, TRUNCATED, DecodedInstruction } from './types.js';
import { SRC, decodeScalarCode, decodeValuSrc } from './operands.js';
import { keepPairLists, pairListsOf } from './shared-operands.js';

// VOP3 encoding (two dwords, plus one literal dword when a source field is 255):
//   word 0: [7:0] vdst, [10:8] abs (per source), [14:11] op_sel (src0, src1, src2, dst),
//           [15] clamp, [25:16] opcode, [31:26] 0b110101
//           VOP3b: [14:8] sdst (SGPR carry / flag destination) instead of abs and op_sel
//   word 1: [8:0] src0, [17:9] src1, [26:18] src2, [28:27] omod, [31:29] neg (per source)
// The opcode field holds VOPC (0x000-0x0FF), VOP2 (0x100 + op), VOP1 (0x180 + op) e64 forms and
// the native VOP3 opcodes. What each modifier bit means is a per-opcode fact (the e64 profile,
// src/isa/tables/vop3-promotion.ts); the operand layout of a promoted opcode is derived from its
// base definition: vdst stays in the vdst field, an implicit VCC destination becomes an explicit
// SGPR (in the vdst field for VOPC, in bits 14:8 when there is also a VGPR destination), sources
// take src0, src1, src2 in order (an implicit VCC source becomes an SGPR in src2).

/** Where an e64 operand lives. */
export type E64Field = 'vdst' | 'sdst8' | 'sdst7' | 'src0' | 'src1' | 'src2' | 'attr' | 'param';

export interface E64Operand {
  /** The operand as the e64 form has it (kind 'src' for every source field). */
  readonly def: OperandDef;
  readonly field: E64Field;
  /** Register dwords. */
  readonly count: number;
  /** Source field index (0-2) of a source operand, else -1. */
  readonly srcIndex: number;
  /** Printing quirk of this source (E64_SRC_QUIRKS), if any. */
  readonly quirk?: string;
}

/** Hot-path form of an E64Operand: which word, shift and mask hold its field. */
interface FieldSlot {
  readonly op: E64Operand;
  readonly word: 0 | 1;
  readonly shift: number;
  readonly mask: number;
  /** 0 VGPR destination, 1 scalar destination, 2 source, 3 attr, 4 parameter. */
  readonly how: 0 | 1 | 2 | 3 | 4;
  /** The field may hold the literal code 255. */
  readonly canLiteral: boolean;
}

export interface E64Layout {
  readonly def: InstrDef;
  /** The e64 form of a VOP1/VOP2/VOPC opcode. */
  readonly promoted: boolean;
  /** LLVM prints the mnemonic with `_e64`. */
  readonly suffix: boolean;
  readonly profile: E64Profile;
  readonly operands: readonly E64Operand[];
  /** Word 0 / word 1 bits that must be 0. */
  readonly zero0: number;
  readonly zero1: number;
  /** Bits of the 4-bit op_sel field the opcode has (0 when op_sel is ignored or absent). */
  readonly opselMask: number;
  /** 0: not an interpolation op; 1: v_interp_* (attr in src0 field); 2: v_interp_mov_f32. */
  readonly interp: 0 | 1 | 2;
  readonly interpHigh: boolean;
  /** Decoding steps, one per operand (internal). */
  readonly slots: readonly FieldSlot[];
}

function slotOf(o: E64Operand): FieldSlot {
  switch (o.field) {
    case 'vdst': return o.def.kind === 'vgpr'
      ? { op: o, word: 0, shift: 0, mask: 0xff, how: 0, canLiteral: false }
      : { op: o, word: 0, shift: 0, mask: 0xff, how: 1, canLiteral: true };
    case 'sdst8': return { op: o, word: 0, shift: 0, mask: 0xff, how: 1, canLiteral: true };
    case 'sdst7': return { op: o, word: 0, shift: 8, mask: 0x7f, how: 1, canLiteral: false };
    case 'src0': return { op: o, word: 1, shift: 0, mask: 0x1ff, how: 2, canLiteral: true };
    case 'src1': return { op: o, word: 1, shift: 9, mask: 0x1ff, how: 2, canLiteral: true };
    case 'src2': return { op: o, word: 1, shift: 18, mask: 0x1ff, how: 2, canLiteral: true };
    case 'attr': return { op: o, word: 1, shift: 0, mask: 0x1ff, how: 3, canLiteral: false };
    case 'param': return { op: o, word: 1, shift: 9, mask: 0x1ff, how: 4, canLiteral: false };
  }
}

function dwordsOf(o: OperandDef): number {
  if (o.dwords !== undefined) return o.dwords;
  switch (o.type) {
    case 'b64': case 'i64': case 'u64': case 'f64': return 2;
    case 'b96': return 3;
    case 'b128': return 4;
    case 'b256': return 8;
    case 'b512': return 16;
    default: return 1; // 'mask' is one SGPR in wave32, the only wave size objdump decodes gfx10 in
  }
}

const SRC_FIELDS = ['src0', 'src1', 'src2'] as const;

/** e64 operands of a native VOP3 definition: its operands as written in the table. */
function nativeOperands(def: InstrDef, interp: 0 | 1 | 2): E64Operand[] | undefined {
  const hasVdst = def.operands.some((o) => o.kind === 'vgpr' && o.role !== 'src');
  const out: E64Operand[] = [];
  let s = 0;
  for (const o of def.operands) {
    if (o.role !== 'src') {
      if (o.kind === 'vgpr') out.push({ def: o, field: 'vdst', count: dwordsOf(o), srcIndex: -1 });
      else if (o.kind === 'sdst') out.push({ def: o, field: hasVdst ? 'sdst7' : 'sdst8', count: 1, srcIndex: -1 });
      else return undefined;
      continue;
    }
    if (interp !== 0) {
      if (o.name === 'attr') { out.push({ def: o, field: 'attr', count: 1, srcIndex: 0 }); continue; }
      if (o.name === 'src0') {
        out.push({ def: o, field: interp === 2 ? 'param' : 'src1', count: 1, srcIndex: 1 });
        continue;
      }
      out.push({ def: o, field: 'src2', count: dwordsOf(o), srcIndex: 2 });
      continue;
    }
    const f = SRC_FIELDS[s];
    if (f === undefined) return undefined;
    out.push({ def: o, field: f, count: dwordsOf(o), srcIndex: s });
    s++;
  }
  return out;
}

/** e64 operands of a VOP1/VOP2/VOPC base definition (see the file comment). */
function promotedOperands(def: InstrDef): E64Operand[] | undefined {
  const hasVdst = def.operands.some((o) => o.kind === 'vgpr' && o.role !== 'src');
  const out: E64Operand[] = [];
  let s = 0;
  for (const o of def.operands) {
    if (o.role !== 'src') {
      if (o.kind === 'vgpr') {
        out.push({ def: o, field: 'vdst', count: dwordsOf(o), srcIndex: -1 });
      } else if (o.kind === 'vcc' || o.kind === 'sdst') {
        const d: OperandDef = hasVdst
          ? { name: 'sdst', role: 'dst', kind: 'sdst', type: 'mask' }
          : { name: 'sdst', role: 'dst', kind: 'sdst', type: 'mask', regClass: 'SReg_1' };
        out.push({ def: d, field: hasVdst ? 'sdst7' : 'sdst8', count: 1, srcIndex: -1 });
      } else {
        return undefined;
      }
      continue;
    }
    const f = SRC_FIELDS[s];
    if (f === undefined) return undefined;
    let d: OperandDef;
    if (o.kind === 'vcc') d = { name: 'src2', role: 'src', kind: 'src', type: 'mask', regClass: 'SReg_1_XEXEC' };
    else if (o.kind === 'src' || o.kind === 'vgpr' || o.kind === 'ssrc') d = { ...o, name: f, kind: 'src' };
    else return undefined; // literal / immediate operands: no e64 form
    out.push({ def: d, field: f, count: dwordsOf(o), srcIndex: s });
    s++;
  }
  return out;
}

function buildLayout(target: Target, opcode: number): E64Layout | undefined {
  let def: InstrDef | undefined;
  let promoted = true;
  if (opcode < 0x100) def = lookup(target, 'VOPC', opcode);
  else if (opcode < 0x140) def = lookup(target, 'VOP2', opcode - 0x100);
  else if (opcode >= 0x180 && opcode < 0x200) def = lookup(target, 'VOP1', opcode - 0x180);
  else { def = lookup(target, 'VOP3', opcode); promoted = false; }
  if (def === undefined) return undefined;
  let profileText: string | undefined;
  const flags = def.flags ?? [];
  if (promoted) profileText = e64ProfileOf(def);
  else profileText = flags.find((f) => f.startsWith('e64:'))?.slice(4);
  if (profileText === undefined) return undefined;
  const profile = parseE64Profile(profileText);
  const interp: 0 | 1 | 2 = flags.includes('interpMov') ? 2 : flags.includes('interp') ? 1 : 0;
  const interpHigh = flags.includes('interpHigh');
  const base = promoted ? promotedOperands(def) : nativeOperands(def, interp);
  if (base === undefined) return undefined;
  const quirks = E64_SRC_QUIRKS.get(`${def.family}:${def.opcode}`);
  const operands = quirks === undefined ? base : base.map((o) => {
    const q = o.srcIndex >= 0 ? quirks[o.srcIndex] : undefined;
    return q ? { ...o, quirk: q } : o;
  });

  let zero0 = 0;
  let zero1 = 0;
  let opselMask = 0;
  if (profile.opsel !== 'b') {
    for (let i = 0; i < 3; i++) if (profile.abs[i] === '.') zero0 |= 1 << (8 + i);
    if (profile.opsel === '3') { zero0 |= 1 << 13; opselMask = 0b1011; }
    else if (profile.opsel === '4') opselMask = 0b1111;
    else if (profile.opsel === '2') opselMask = 0b0011;
  }
  if (!profile.clamp) zero0 |= 1 << 15;
  if (!profile.omod) zero1 |= 3 << 27;
  for (let i = 0; i < 3; i++) if (profile.neg[i] === '.') zero1 |= 1 << (29 + i);
  const used = new Set(operands.map((o) => o.field));
  if (!used.has('src0') && !used.has('attr')) zero1 |= 0x1ff;
  if (!used.has('src1') && !used.has('param')) zero1 |= 0x1ff << 9;
  if (!used.has('src2')) zero1 |= 0x1ff << 18;
  if (interp !== 0 && !interpHigh) zero1 |= 1 << 8;

  return {
    def, promoted, suffix: promoted || flags.includes('e64Suffix'), profile, operands,
    zero0: zero0 >>> 0, zero1: zero1 >>> 0, opselMask, interp, interpHigh, slots: operands.map(slotOf),
  };
}

const LAYOUTS = new Map<Target, (E64Layout | null | undefined)[]>();
/** The target asked for last and its layouts: a decoding asks for one target throughout, and this test is cheaper than the Map's lookup per instruction. */
let layoutsTarget: Target | undefined;
let lastLayouts: (E64Layout | null | undefined)[] | undefined;

/** The e64 layout of a VOP3 opcode on a target, or undefined when LLVM decodes none there. */
export function vop3Layout(target: Target, opcode: number): E64Layout | undefined {
  let arr = target === layoutsTarget ? lastLayouts : LAYOUTS.get(target);
  if (arr === undefined) {
    arr = new Array<E64Layout | null | undefined>(1024);
    LAYOUTS.set(target, arr);
  }
  layoutsTarget = target;
  lastLayouts = arr;
  let l = arr[opcode];
  if (l === undefined) {
    l = buildLayout(target, opcode) ?? null;
    arr[opcode] = l;
  }
  return l ?? undefined;
}

export const decodeVOP3: FamilyDecoder = (ctx: DecodeContext): Instruction | string => {
  const i = ctx.index;
  if (i + 1 >= ctx.end) return TRUNCATED;
  const w0 = ctx.words[i] ?? 0;
  const w1 = ctx.words[i + 1] ?? 0;
  const L = vop3Layout(ctx.target, (w0 >>> 16) & 0x3ff);
  if (L === undefined) return 'no VOP3 opcode with this value on this target';
  // The lists of a pair decoded before under this layout first, with its literal if it has one:
  // it passed the field checks below (the two words decide them and whether a literal follows),
  // and nothing more of the layout is read (a recompile's other work has mostly evicted it from
  // the cache).
  const seen = pairListsOf(L, w0, w1, i + 2 < ctx.end ? ctx.words[i + 2] : undefined);
  if (seen !== undefined) return new DecodedInstruction(ctx.pc, seen.words, seen.words.length * 4, 'VOP3', 'e64', L.def, seen.operands, seen.mods);
  if ((w0 & L.zero0) !== 0 || (w1 & L.zero1) !== 0) return 'a VOP3 field this opcode does not have is not 0';

  // One literal dword serves every source field (or sdst in the vdst field) coded 255.
  const slots = L.slots;
  let size = 2;
  for (let k = 0; k < slots.length; k++) {
    const sl = slots[k]!;
    if (sl.canLiteral && (((sl.word === 0 ? w0 : w1) >>> sl.shift) & sl.mask) === SRC.LITERAL) { size = 3; break; }
  }
  if (size === 3 && i + 2 >= ctx.end) return TRUNCATED;
  const lit = size === 3 ? (ctx.words[i + 2] ?? 0) >>> 0 : 0;

  const p = L.profile;
  const negBits = w1 >>> 29;
  const absBits = p.opsel === 'b' ? 0 : (w0 >>> 8) & 7;
  const operands: Operand[] = new Array<Operand>(slots.length);
  let attr = -1, attrChan = 0, high = false;
  for (let k = 0; k < slots.length; k++) {
    const sl = slots[k]!;
    const o = sl.op;
    const code = ((sl.word === 0 ? w0 : w1) >>> sl.shift) & sl.mask;
    let value: OperandValue;
    switch (sl.how) {
      case 0: value = decodeValuSrc(code + SRC.VGPR_MIN, o.count); break;
      case 1: value = decodeScalarCode(code, 1); break;
      case 2: value = decodeValuSrc(code, o.count); break;
      case 3:
        attr = code & 0x3f; attrChan = (code >>> 6) & 3; high = (code & 0x100) !== 0;
        value = { kind: 'imm', value: attr };
        break;
      default: value = { kind: 'imm', value: code };
    }
    if (value.kind === 'reserved') return `reserved operand code ${code} in ${o.def.name}`;
    if (value.kind === 'literal') value = { kind: 'literal', value: lit };
    const si = o.srcIndex;
    if (sl.how === 2) {
      const a = p.abs[si] === 'a' && ((absBits >>> si) & 1) === 1;
      const nb = ((negBits >>> si) & 1) === 1;
      const ng = nb && p.neg[si] === 'n';
      const sx = nb && p.neg[si] === 's';
      if (a || ng || sx) {
        const m: { name: string; value: OperandValue; abs?: boolean; neg?: boolean; sext?: boolean } = { name: o.def.name, value };
        if (a) m.abs = true;
        if (ng) m.neg = true;
        if (sx) m.sext = true;
        operands[k] = m;
        continue;
      }
    }
    operands[k] = { name: o.def.name, value };
  }

  const clamp = p.clamp && (w0 & 0x8000) !== 0;
  const omod = p.omod ? (w1 >>> 27) & 3 : 0;
  const opsel = (w0 >>> 11) & L.opselMask;
  let mods: Modifiers = NO_MODS;
  if (clamp || omod !== 0 || opsel !== 0 || attr >= 0) {
    const m: { clamp?: boolean; omod?: number; opsel?: number; attr?: number; attrChan?: number; high?: boolean } = {};
    if (clamp) m.clamp = true;
    if (omod !== 0) m.omod = omod;
    if (opsel !== 0) m.opsel = opsel;
    if (attr >= 0) {
      m.attr = attr;
      m.attrChan = attrChan;
      if (high) m.high = true;
    }
    mods = m;
  }
  const words = keepPairLists(L, w0, w1, operands, mods, size === 3 ? lit : undefined).words;
  return new DecodedInstruction(ctx.pc, words, size * 4, 'VOP3', 'e64', L.def, operands, mods);
};
