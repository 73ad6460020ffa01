// Forward constant propagation of scalar registers over the CFG, as known bits per register
// (a value and a mask of the bits that are known), so that `s_or_b32 s0, s1, 3` makes bits 1:0
// known even when s1 is not. The MODE analysis (mode.ts) runs the same transfer function inside
// its own data flow, so that a value read from MODE with s_getreg_b32 flows on to s_setreg_b32.
//
// Evaluated (32-bit unless noted): s_mov_b32/b64, s_movk_i32, s_cmov_b32/b64, s_cmovk_i32,
// s_cselect_b32/b64 (SCC is not tracked: the join of both choices), s_not_b32/b64,
// s_and/or/xor/andn2/orn2/nand/nor/xnor_b32/b64, s_lshl_b32, s_lshr_b32, s_ashr_i32,
// s_add_u32/i32, s_sub_u32/i32, s_addk_i32 (low bits known where both inputs' low bits are),
// s_mul_i32, s_mulk_i32, s_bfe_u32, s_bfm_b32, s_brev_b32. Sources: SGPRs, TTMPs, VCC, M0, EXEC,
// null (0), inline constants (64-bit: sign-extended integers, f64 bit patterns), literals (64-bit
// operands: the high dword is not assumed).
// Everything else that writes a scalar register makes it unknown; the registers written come from
// the table: operands with role dst/srcdst that decode to scalar registers, implicitWrites VCC /
// EXEC / M0, and an M0-indexed SOP1 destination (s_movreld_*, s_movrelsd_2: implicitReads M0 with
// a scalar destination) makes every scalar register unknown.
// No Node APIs.
import type { Instruction, Operand, OperandValue } from '../decode/types.js';
import type { OperandDef } from '../isa/types.js';
import type { Cfg } from './types.js';
import { callFlow } from './calls.js';

// --- known bits ----------------------------------------------------------------------------

/** A 32-bit value of which the bits in `known` are known; value bits outside `known` are 0. */
export interface KnownBits {
  readonly value: number;
  readonly known: number;
}

export const ALL_BITS = 0xffffffff;
export const UNKNOWN_BITS: KnownBits = { value: 0, known: 0 };

export function knownConst(v: number): KnownBits {
  return { value: v >>> 0, known: ALL_BITS };
}

export function knownBits(value: number, known: number): KnownBits {
  return { value: (value & known) >>> 0, known: known >>> 0 };
}

export function isConst(k: KnownBits): boolean {
  return k.known === ALL_BITS;
}

/** The bits both agree on. */
export function joinBits(a: KnownBits, b: KnownBits): KnownBits {
  const known = (a.known & b.known & ~(a.value ^ b.value)) >>> 0;
  return { value: (a.value & known) >>> 0, known };
}

// --- register file -------------------------------------------------------------------------

/** Scalar register codes tracked: the 8-bit source codes 0..127 (s0..s105, vcc_lo/hi, ttmp0..15, m0, null, exec_lo/hi). */
export const SCALAR_CODES = 128;
export const CODE_VCC_LO = 106;
export const CODE_TTMP0 = 108;
export const CODE_M0 = 124;
export const CODE_NULL = 125;
export const CODE_EXEC_LO = 126;

/** Known bits of every scalar register code at one program point (mutable: transfer functions update in place). */
export class ScalarState {
  /**
   * The value bits of code i at [i], its known bits at [SCALAR_CODES + i], as uint32 numbers: one
   * plain array, so a clone is one copy on the JS heap (a typed array this size lives outside it,
   * and allocating one costs far more than copying it; the data flows clone per block visit).
   */
  private readonly bits: number[];
  constructor(bits?: number[]) {
    this.bits = bits ?? new Array<number>(2 * SCALAR_CODES).fill(0);
  }
  clone(): ScalarState {
    return new ScalarState(this.bits.slice());
  }
  get(code: number): KnownBits {
    if (code === CODE_NULL) return knownConst(0);
    const inRange = code >= 0 && code < SCALAR_CODES;
    return { value: inRange ? (this.bits[code] as number) : 0, known: inRange ? (this.bits[SCALAR_CODES + code] as number) : 0 };
  }
  set(code: number, k: KnownBits): void {
    if (code < 0 || code >= SCALAR_CODES || code === CODE_NULL) return;
    this.bits[SCALAR_CODES + code] = k.known >>> 0;
    this.bits[code] = (k.value & k.known) >>> 0;
  }
  clobberAll(): void {
    this.bits.fill(0);
  }
  /** this := join(this, other); whether anything changed. */
  joinFrom(other: ScalarState): boolean {
    const a = this.bits, b = other.bits;
    let changed = false;
    for (let i = 0; i < SCALAR_CODES; i++) {
      const known = a[SCALAR_CODES + i] as number;
      const k = (known & (b[SCALAR_CODES + i] as number) & ~((a[i] as number) ^ (b[i] as number))) >>> 0;
      if (k !== known) {
        changed = true;
        a[SCALAR_CODES + i] = k;
        a[i] = ((a[i] as number) & k) >>> 0;
      }
    }
    return changed;
  }
  equals(other: ScalarState): boolean {
    for (let i = 0; i < 2 * SCALAR_CODES; i++) if (this.bits[i] !== other.bits[i]) return false;
    return true;
  }
}

/** First scalar code of a register operand value, or undefined (not a tracked register). */
export function scalarCode(v: OperandValue): number | undefined {
  switch (v.kind) {
    case 'sgpr': return v.index;
    case 'ttmp': return CODE_TTMP0 + v.index;
    case 'special': return v.code < SCALAR_CODES ? v.code : undefined;
    default: return undefined;
  }
}

// --- constants -----------------------------------------------------------------------------

const F32_INLINE: readonly number[] = [0x3f000000, 0xbf000000, 0x3f800000, 0xbf800000, 0x40000000, 0xc0000000, 0x40800000, 0xc0800000, 0x3e22f983];
/** f64 inline constants' [low, high] dwords. */
const F64_INLINE: readonly (readonly [number, number])[] = [
  [0, 0x3fe00000], [0, 0xbfe00000], [0, 0x3ff00000], [0, 0xbff00000], [0, 0x40000000], [0, 0xc0000000], [0, 0x40100000], [0, 0xc0100000],
  [0x6dc9c882, 0x3fc45f30],
];

/** Value of an inline constant code as a 32-bit (half 0) or 64-bit (halves 0, 1) operand. */
function inlineValue(code: number, wide: boolean, half: number): KnownBits {
  if (code >= 128 && code <= 208) {
    const n = code <= 192 ? code - 128 : 192 - code;
    return knownConst(half === 0 ? n : n < 0 ? ALL_BITS : 0);
  }
  if (code >= 240 && code <= 248) {
    if (!wide) return knownConst(F32_INLINE[code - 240] ?? 0);
    const p = F64_INLINE[code - 240];
    return p ? knownConst(p[half] ?? 0) : UNKNOWN_BITS;
  }
  return UNKNOWN_BITS;
}

/** Known bits of dword `half` of a source operand (wide: a 64-bit operand). */
export function readSource(s: ScalarState, v: OperandValue, wide: boolean, half = 0): KnownBits {
  switch (v.kind) {
    case 'inline': return inlineValue(v.code, wide, half);
    case 'literal': return half === 0 ? knownConst(v.value) : UNKNOWN_BITS;
    case 'imm': return knownConst(v.value);
    case 'special':
      if (v.reg === 'null') return knownConst(0);
      if (v.code >= SCALAR_CODES) return UNKNOWN_BITS; // src_* constants, SCC, VCCZ, ...
      return s.get(v.code + half);
    case 'sgpr': case 'ttmp': {
      const c = scalarCode(v);
      return c === undefined ? UNKNOWN_BITS : s.get(c + half);
    }
    default: return UNKNOWN_BITS;
  }
}

// --- evaluation ----------------------------------------------------------------------------

const not = (a: KnownBits): KnownBits => ({ value: (~a.value & a.known) >>> 0, known: a.known });
function and(a: KnownBits, b: KnownBits): KnownBits {
  // A bit is known where both are known, or either is a known 0.
  const zero = ((a.known & ~a.value) | (b.known & ~b.value)) >>> 0;
  const known = ((a.known & b.known) | zero) >>> 0;
  return knownBits(a.value & b.value, known);
}
const or = (a: KnownBits, b: KnownBits): KnownBits => not(and(not(a), not(b)));
const xor = (a: KnownBits, b: KnownBits): KnownBits => knownBits(a.value ^ b.value, a.known & b.known);

/** Bits from 0 up to (not including) the lowest bit either input does not know. */
function lowKnown(a: KnownBits, b: KnownBits): number {
  const both = (a.known & b.known) >>> 0;
  if (both === ALL_BITS) return ALL_BITS;
  const t = 31 - Math.clz32((~both & (both + 1)) >>> 0); // index of the lowest unknown bit
  return t === 0 ? 0 : ((1 << t) - 1) >>> 0;
}
const add = (a: KnownBits, b: KnownBits): KnownBits => knownBits(a.value + b.value, lowKnown(a, b));
const sub = (a: KnownBits, b: KnownBits): KnownBits => knownBits(a.value - b.value, lowKnown(a, b));
const mul = (a: KnownBits, b: KnownBits): KnownBits => knownBits(Math.imul(a.value, b.value), lowKnown(a, b));

function shift(a: KnownBits, b: KnownBits, kind: 'lshl' | 'lshr' | 'ashr'): KnownBits {
  if ((b.known & 0x1f) !== 0x1f) return UNKNOWN_BITS;
  const n = b.value & 0x1f;
  switch (kind) {
    case 'lshl': return knownBits(a.value << n, ((a.known << n) | ((1 << n) - 1)) >>> 0);
    case 'lshr': return knownBits(a.value >>> n, ((a.known >>> n) | ~(ALL_BITS >>> n)) >>> 0);
    default: return knownBits(a.value >> n, a.known >> n); // a known sign bit is known in every shifted-in bit
  }
}

function bfe(a: KnownBits, b: KnownBits): KnownBits {
  // S1[4:0] offset, S1[22:16] width; D = (S0 >> offset) & ((1 << width) - 1).
  if ((b.known & 0x7f001f) !== 0x7f001f) return UNKNOWN_BITS;
  const off = b.value & 0x1f;
  const width = (b.value >>> 16) & 0x7f;
  const m = width >= 32 ? ALL_BITS : ((1 << width) - 1) >>> 0;
  return knownBits((a.value >>> off) & m, (((a.known >>> off) | ~(ALL_BITS >>> off)) & m | ~m) >>> 0);
}

function bfm(a: KnownBits, b: KnownBits): KnownBits {
  if ((a.known & 0x1f) !== 0x1f || (b.known & 0x1f) !== 0x1f) return UNKNOWN_BITS;
  return knownConst((((1 << (a.value & 0x1f)) - 1) << (b.value & 0x1f)) >>> 0);
}

function brev(a: KnownBits): KnownBits {
  let v = 0, k = 0;
  for (let i = 0; i < 32; i++) {
    v |= ((a.value >>> i) & 1) << (31 - i);
    k |= ((a.known >>> i) & 1) << (31 - i);
  }
  return knownBits(v, k);
}

type Binary = (a: KnownBits, b: KnownBits) => KnownBits;
const BITWISE: Readonly<Record<string, Binary>> = {
  and,
  or,
  xor,
  andn2: (a, b) => and(a, not(b)),
  orn2: (a, b) => or(a, not(b)),
  nand: (a, b) => not(and(a, b)),
  nor: (a, b) => not(or(a, b)),
  xnor: (a, b) => not(xor(a, b)),
};
const BINARY32: Readonly<Record<string, Binary>> = {
  s_add_u32: add, s_add_i32: add, s_sub_u32: sub, s_sub_i32: sub, s_mul_i32: mul,
  s_lshl_b32: (a, b) => shift(a, b, 'lshl'), s_lshr_b32: (a, b) => shift(a, b, 'lshr'), s_ashr_i32: (a, b) => shift(a, b, 'ashr'),
  s_bfe_u32: bfe, s_bfm_b32: bfm,
  s_cselect_b32: joinBits,
  ...Object.fromEntries(Object.entries(BITWISE).map(([n, f]) => [`s_${n}_b32`, f])),
};
const BINARY64: Readonly<Record<string, Binary>> = {
  s_cselect_b64: joinBits,
  ...Object.fromEntries(Object.entries(BITWISE).map(([n, f]) => [`s_${n}_b64`, f])),
};

const sext16 = (v: number) => ((v << 16) >> 16) >>> 0;

/** Hooks for the MODE analysis: what s_getreg_b32 reads (undefined: unknown). */
export interface ScalarHooks {
  getreg?(inst: Instruction): KnownBits | undefined;
}

const isWriteRole = (d: OperandDef | undefined) => d !== undefined && (d.role === 'dst' || d.role === 'srcdst');

/** The written scalar destination's value, when it is a tracked register (scalarCode). */
function dest(inst: Instruction): OperandValue | undefined {
  for (let k = 0; k < inst.operands.length; k++) {
    const d = inst.def.operands[k];
    const op = inst.operands[k];
    if (!isWriteRole(d) || op === undefined || d?.kind !== 'sdst') continue;
    return scalarCode(op.value) === undefined ? undefined : op.value;
  }
  return undefined;
}

/**
 * Known bits of dword `half` of the instruction's source operand `i` (counting source operands
 * only), as readSource; unknown where there is no such source. Looked up for each read: a list of
 * the sources and a closure over it were made for every instruction with a scalar destination.
 */
function src(s: ScalarState, inst: Instruction, i: number, wide: boolean, half = 0): KnownBits {
  for (let k = 0, n = 0; k < inst.operands.length; k++) {
    const d = inst.def.operands[k];
    const op = inst.operands[k];
    if (d === undefined || op === undefined || d.role !== 'src') continue;
    if (n++ === i) return readSource(s, op.value, wide, half);
  }
  return UNKNOWN_BITS;
}

/** Makes every scalar register the instruction writes unknown (table facts only). */
export function clobberWrites(s: ScalarState, inst: Instruction): void {
  const def = inst.def;
  for (let k = 0; k < inst.operands.length; k++) {
    const d = def.operands[k];
    const op = inst.operands[k];
    if (!isWriteRole(d) || op === undefined) continue;
    const v = op.value;
    if (v.kind !== 'sgpr' && v.kind !== 'ttmp' && v.kind !== 'special') continue;
    const c = scalarCode(v);
    if (c === undefined) continue;
    for (let i = 0; i < v.count; i++) s.set(c + i, UNKNOWN_BITS);
  }
  const w = def.implicitWrites;
  if (w !== undefined) {
    if (w.includes('VCC')) { s.set(CODE_VCC_LO, UNKNOWN_BITS); s.set(CODE_VCC_LO + 1, UNKNOWN_BITS); }
    if (w.includes('EXEC')) { s.set(CODE_EXEC_LO, UNKNOWN_BITS); s.set(CODE_EXEC_LO + 1, UNKNOWN_BITS); }
    if (w.includes('M0')) s.set(CODE_M0, UNKNOWN_BITS);
  }
  // An M0-indexed scalar destination can be any register.
  if (def.family === 'SOP1' && def.implicitReads?.includes('M0') && def.operands.some((d) => isWriteRole(d) && d.kind === 'sdst')) s.clobberAll();
}

/** Applies one instruction to the scalar state (in place). */
export function stepScalar(s: ScalarState, inst: Instruction, hooks?: ScalarHooks): void {
  const m = inst.def.mnemonic;
  const dst = dest(inst);
  const code = dst === undefined ? 0 : scalarCode(dst) as number;
  const count = dst === undefined ? 0 : dst.kind === 'sgpr' || dst.kind === 'ttmp' || dst.kind === 'special' ? dst.count : 1;
  let lo: KnownBits | undefined;
  let hi: KnownBits | undefined;
  // The sources only for an instruction with a scalar destination (most are not).
  if (dst !== undefined) {
    const f32 = BINARY32[m];
    const f64 = BINARY64[m];
    if (f32 !== undefined && count === 1) lo = f32(src(s, inst, 0, false), src(s, inst, 1, false));
    else if (f64 !== undefined && count === 2) { lo = f64(src(s, inst, 0, true, 0), src(s, inst, 1, true, 0)); hi = f64(src(s, inst, 0, true, 1), src(s, inst, 1, true, 1)); }
    else switch (m) {
      case 's_mov_b32': lo = src(s, inst, 0, false); break;
      case 's_mov_b64': lo = src(s, inst, 0, true, 0); hi = src(s, inst, 0, true, 1); break;
      case 's_not_b32': lo = not(src(s, inst, 0, false)); break;
      case 's_not_b64': lo = not(src(s, inst, 0, true, 0)); hi = not(src(s, inst, 0, true, 1)); break;
      case 's_brev_b32': lo = brev(src(s, inst, 0, false)); break;
      case 's_movk_i32': lo = knownConst(sext16(src(s, inst, 0, false).value)); break;
      case 's_cmovk_i32': lo = joinBits(s.get(code), knownConst(sext16(src(s, inst, 0, false).value))); break;
      case 's_cmov_b32': lo = joinBits(s.get(code), src(s, inst, 0, false)); break;
      case 's_cmov_b64': lo = joinBits(s.get(code), src(s, inst, 0, true, 0)); hi = joinBits(s.get(code + 1), src(s, inst, 0, true, 1)); break;
      case 's_addk_i32': lo = add(s.get(code), knownConst(sext16(src(s, inst, 0, false).value))); break;
      case 's_mulk_i32': lo = mul(s.get(code), knownConst(sext16(src(s, inst, 0, false).value))); break;
      case 's_getreg_b32': lo = hooks?.getreg?.(inst) ?? UNKNOWN_BITS; break;
      default: break;
    }
  }
  clobberWrites(s, inst);
  if (dst !== undefined && lo !== undefined && (hi !== undefined ? count === 2 : count === 1)) {
    s.set(code, lo);
    if (hi !== undefined) s.set(code + 1, hi);
  }
}

// --- the data flow -------------------------------------------------------------------------

/** A forward data-flow problem over a Cfg with a join that only loses facts (so it terminates). */
export interface ForwardProblem<S> {
  clone(s: S): S;
  /** into := join(into, from); whether `into` changed. */
  joinInto(into: S, from: S): boolean;
  /** Applies one instruction in place. */
  step(s: S, inst: Instruction): void;
}

/**
 * Block entry states of a forward problem (undefined: unreachable). Blocks are visited in
 * reverse postorder from a worklist; a block is revisited only when its entry state loses a fact,
 * so the number of visits is bounded by the blocks times the lattice height. States flow along
 * the run-time successors of calls.ts (a call's state to its callee only, a return's to its return
 * sites), not along the CFG's call fallthroughs.
 */
export function solveForward<S>(cfg: Cfg, initial: S, p: ForwardProblem<S>): (S | undefined)[] {
  const n = cfg.blocks.length;
  const input: (S | undefined)[] = new Array<S | undefined>(n).fill(undefined);
  if (n === 0) return input;
  const order = new Array<number>(n).fill(n);
  for (let i = 0; i < cfg.rpo.length; i++) order[cfg.rpo[i] as number] = i;
  input[cfg.entry] = p.clone(initial);
  const queued = new Array<number>(n).fill(0);
  const flow = callFlow(cfg);
  // A worklist ordered by RPO position: a sorted set would do; a scan over a small bitmap is enough.
  let pending = 1;
  queued[cfg.entry] = 1;
  // Reverse postorder, then the blocks it does not reach (built by loops: spreads of iterators
  // cost an iterator result per block).
  const byOrder: number[] = cfg.rpo.slice();
  for (let b = 0; b < n; b++) if (order[b] === n) byOrder.push(b);
  while (pending > 0) {
    for (let q = 0; q < byOrder.length; q++) {
      const b = byOrder[q] as number;
      if (queued[b] !== 1) continue;
      queued[b] = 0;
      pending--;
      const inS = input[b];
      const block = cfg.blocks[b];
      if (inS === undefined || block === undefined) continue;
      const s = p.clone(inS);
      // Indexed: run once per kernel, mostly unoptimised, where for…of makes an iterator result per instruction.
      for (let k = 0; k < block.instructions.length; k++) p.step(s, block.instructions[k] as Instruction);
      // Around calls the run-time successors (calls.ts): a call goes to its callee, a return to its return sites.
      const succs = flow.succs[b] ?? [];
      for (let k = 0; k < succs.length; k++) {
        const t = succs[k] as number;
        const cur = input[t];
        let changed: boolean;
        // The last successor reached for the first time takes `s` itself (no later use): one clone fewer.
        if (cur === undefined) { input[t] = k === succs.length - 1 ? s : p.clone(s); changed = true; } else changed = p.joinInto(cur, s);
        if (changed && queued[t] !== 1) { queued[t] = 1; pending++; }
      }
    }
  }
  return input;
}

export interface ScalarConstants {
  /** Scalar state at the entry of each block (undefined: unreachable). */
  readonly blockIn: readonly (ScalarState | undefined)[];
  /** Scalar state just before the instruction at pc (undefined: no reachable instruction there). */
  before(pc: number): ScalarState | undefined;
}

/** Locates instructions by pc: block id and index. */
export function indexInstructions(cfg: Cfg): Map<number, { block: number; index: number }> {
  const at = new Map<number, { block: number; index: number }>();
  for (const b of cfg.blocks) b.instructions.forEach((inst, index) => { if (!at.has(inst.pc)) at.set(inst.pc, { block: b.id, index }); });
  return at;
}

/** Scalar constant propagation alone (s_getreg_b32 results unknown). Launch SGPR values are unknown. */
export function analyzeScalarConstants(cfg: Cfg, hooks?: ScalarHooks): ScalarConstants {
  const problem: ForwardProblem<ScalarState> = {
    clone: (s) => s.clone(),
    joinInto: (into, from) => into.joinFrom(from),
    step: (s, inst) => stepScalar(s, inst, hooks),
  };
  const blockIn = solveForward(cfg, new ScalarState(), problem);
  const at = indexInstructions(cfg);
  return {
    blockIn,
    before(pc) {
      const where = at.get(pc);
      if (!where) return undefined;
      const start = blockIn[where.block];
      const block = cfg.blocks[where.block];
      if (!start || !block) return undefined;
      const s = start.clone();
      for (let i = 0; i < where.index; i++) {
        const inst = block.instructions[i];
        if (inst) stepScalar(s, inst, hooks);
      }
      return s;
    },
  };
}
