// The MODE register data flow: at every program point MODE (hwreg 1) as known bits, from the
// shader's launch MODE (its float mode byte in 7:0, DX10_CLAMP in 8, IEEE in 9, FP16_OVFL in 23;
// every other field unknown: no launch value is declared for it) through every MODE writer:
//  - s_setreg_imm32_b32 hwreg(MODE, offset, size), imm: bits [offset, offset+size) := imm[size-1:0]
//    (source bits above the field width are dropped; a field running past bit 31 is cut there);
//  - s_setreg_b32 hwreg(MODE, ...), sN: the same from an SGPR, known where scalar constant
//    propagation (scalar-constants.ts, run in the same data flow) knows the SGPR's bits;
//  - s_round_mode imm: MODE[3:0] := imm[3:0]; s_denorm_mode imm: MODE[7:4] := imm[3:0];
//  - any other instruction the table says writes MODE: every bit unknown, diagnostic
//    'mode-write-unmodeled'.
// s_setreg to another hwreg does not change MODE. FLAT_SCR_LO/HI (hwreg 20/21) are tracked the
// same way (unknown at launch). Other hwreg writes: 'hwreg-write-unmodeled'; other reads:
// 'hwreg-read-unmodeled'. A write governs the next instruction on (the next VALU instruction
// runs under it). Join: the bits all predecessors agree on; loops run to a fixed point.
// No Node APIs.
import type { Instruction } from '../decode/types.js';
import type { FloatType } from '../isa/types.js';
import type { Shader } from '../container/shader.js';
import type { AssumableField } from '../container/shader-info.js';
import type { BasicBlock, Cfg, Diagnostic, Severity } from './types.js';
import { printInstruction } from '../disasm/index.js';
import { callFlow } from './calls.js';
import { blockOfPc, instructionIn } from './cfg.js';
import {
  decodeHwreg, hwregDef, hwregFieldMask, hwregFieldText, launchMode, modeFieldsFor, HWREG_FLAT_SCR_HI, HWREG_FLAT_SCR_LO,
  HWREG_MODE, MODE_IMMEDIATE_WRITERS, MODE_LAUNCH_MASK, MODE_TRACKED_MASK, type HwregField,
} from './hwreg.js';
import {
  ALL_BITS, joinBits, knownBits, readSource, ScalarState, solveForward, stepScalar, UNKNOWN_BITS, type KnownBits,
} from './scalar-constants.js';

/** The modeled hardware registers at one program point. */
export interface ModeState {
  readonly mode: KnownBits;
  readonly flatScrLo: KnownBits;
  readonly flatScrHi: KnownBits;
}

export type ModeRegister = 'MODE' | 'FLAT_SCR_LO' | 'FLAT_SCR_HI';

export interface GetregRead {
  readonly pc: number;
  readonly register: ModeRegister;
  readonly field: HwregField;
  /** What the destination SGPR receives: bits at and above `size` are known zeros. */
  readonly bits: KnownBits;
  /** The value read, when every bit is known. */
  readonly value?: number;
  readonly knownMask: number;
}

export interface ValuMode {
  readonly pc: number;
  readonly float: FloatType;
  /** FP_ROUND field for the float type (0 nearest even, 1 +inf, 2 -inf, 3 toward zero), or 'dynamic'. */
  readonly round: number | 'dynamic';
  /** FP_DENORM field for the float type (0 flush, 1 keep input/flush output, 2 flush input/keep output, 3 keep). */
  readonly denorm: number | 'dynamic';
  readonly dx10Clamp: boolean | 'dynamic';
  readonly ieee: boolean | 'dynamic';
  /** MODE.FP16_OVFL (bit 23) for an f16 instruction; false for f32/f64 ones (it clamps only f16 results). */
  readonly f16Ovfl: boolean | 'dynamic';
}

export interface ModeTransition {
  readonly pc: number;
  readonly instruction: string;
  readonly register: ModeRegister;
  /** The field written (s_round_mode / s_denorm_mode: MODE[3:0] / MODE[7:4]; unmodeled writers: all 32 bits). */
  readonly field: HwregField;
  readonly before: KnownBits;
  readonly after: KnownBits;
}

export interface ModeAnalysis {
  /** Launch state and the ShaderInfo fields in it that were defaulted, not declared. */
  readonly initial: ModeState;
  readonly assumed: readonly AssumableField[];
  /** State at the entry of each block (undefined: unreachable). */
  readonly blockIn: readonly (ModeState | undefined)[];
  /** State just before the instruction at pc (undefined: no reachable instruction there). */
  before(pc: number): ModeState | undefined;
  /** State just after it. */
  after(pc: number): ModeState | undefined;
  readonly getregs: readonly GetregRead[];
  /** Each VALU float instruction's MODE, sorted by pc (records of one pc in the order made: byPc's stable sort); the frontend's valuModeAt searches it. */
  readonly valu: readonly ValuMode[];
  readonly transitions: readonly ModeTransition[];
  readonly diagnostics: readonly Diagnostic[];
}

/** The launch MODE state of a shader. */
export function initialModeState(shader: Shader): ModeState {
  const i = shader.info;
  return {
    mode: knownBits(launchMode(i), MODE_LAUNCH_MASK),
    flatScrLo: UNKNOWN_BITS,
    flatScrHi: UNKNOWN_BITS,
  };
}

// --- transfer ------------------------------------------------------------------------------

interface FullState {
  regs: ScalarState;
  mode: KnownBits;
  flatScrLo: KnownBits;
  flatScrHi: KnownBits;
}

const REGISTER_OF: Readonly<Record<number, ModeRegister>> = { [HWREG_MODE]: 'MODE', [HWREG_FLAT_SCR_LO]: 'FLAT_SCR_LO', [HWREG_FLAT_SCR_HI]: 'FLAT_SCR_HI' };
const SLOT: Readonly<Record<ModeRegister, 'mode' | 'flatScrLo' | 'flatScrHi'>> = { MODE: 'mode', FLAT_SCR_LO: 'flatScrLo', FLAT_SCR_HI: 'flatScrHi' };
/** Bits of each modeled register that hold what was written. */
const TRACKED: Readonly<Record<ModeRegister, number>> = { MODE: MODE_TRACKED_MASK, FLAT_SCR_LO: ALL_BITS, FLAT_SCR_HI: ALL_BITS };

/** Known bits after writing `src` (its low `size` bits) into a field of `old`. */
export function writeField(old: KnownBits, f: HwregField, src: KnownBits, tracked = ALL_BITS): KnownBits {
  const mask = hwregFieldMask(f);
  const value = ((old.value & ~mask) | ((src.value << f.offset) & mask)) >>> 0;
  const known = ((old.known & ~mask) | ((src.known << f.offset) & mask)) & tracked;
  return knownBits(value, known);
}

/** What s_getreg_b32 of a field returns: the field shifted down, zeros above it. */
export function readField(reg: KnownBits, f: HwregField): KnownBits {
  const m = f.size >= 32 ? ALL_BITS : ((1 << f.size) - 1) >>> 0;
  const known = (((reg.known >>> f.offset) | ~(ALL_BITS >>> f.offset)) & m | ~m) >>> 0;
  return knownBits((reg.value >>> f.offset) & m, known);
}

function hwregOperand(inst: Instruction): HwregField | undefined {
  const ds = inst.def.operands;
  let k = 0;
  while (k < ds.length && ds[k]?.kind !== 'hwreg') k++;
  const v = k === ds.length ? undefined : inst.operands[k]?.value;
  return v?.kind === 'imm' ? decodeHwreg(v.value) : undefined;
}

/** The value an s_setreg* writes (before it is cut to the field). */
function setregSource(s: FullState, inst: Instruction): KnownBits {
  for (let k = 0; k < inst.def.operands.length; k++) {
    const d = inst.def.operands[k];
    const v = inst.operands[k]?.value;
    if (d === undefined || v === undefined || d.role !== 'src' || d.kind === 'hwreg') continue;
    return readSource(s.regs, v, false);
  }
  return UNKNOWN_BITS;
}

function immediate(inst: Instruction): number {
  for (const op of inst.operands) if (op.value.kind === 'imm') return op.value.value;
  return 0;
}

/** What an instruction writes to a modeled register, if anything: register, field, new bits. */
interface Write { readonly register: ModeRegister; readonly field: HwregField; readonly after: KnownBits }

/** Why an instruction is not modeled, for diagnostics (collected once, after the fixed point). */
interface Unmodeled { readonly code: string; readonly severity: Severity; readonly message: string }

function classify(s: FullState, inst: Instruction, target: Shader['info']['target']): { write?: Write; unmodeled?: Unmodeled } {
  const def = inst.def;
  const writesMode = def.implicitWrites?.includes('MODE') === true;
  // Most instructions neither read nor write MODE: answered before the operand walk.
  if (!writesMode && def.implicitReads?.includes('MODE') !== true) return NOTHING;
  const hw = hwregOperand(inst);
  if (hw !== undefined && writesMode) {
    const reg = REGISTER_OF[hw.id];
    if (reg === undefined || hwregDef(hw.id, target) === undefined) {
      const d = hwregDef(hw.id, target);
      const why = d === undefined ? 'a hardware register id LLVM does not name on this target' : d.writable ? 'not modeled' : 'read-only per the ISA guide';
      return { unmodeled: { code: 'hwreg-write-unmodeled', severity: 'warning', message: `write to ${hwregFieldText(hw, target)} (${why}): its value is not tracked; MODE is unchanged` } };
    }
    const slot = SLOT[reg];
    return { write: { register: reg, field: hw, after: writeField(s[slot], hw, setregSource(s, inst), TRACKED[reg]) } };
  }
  if (writesMode) {
    const w = MODE_IMMEDIATE_WRITERS[def.mnemonic];
    const field: HwregField = w ? { id: HWREG_MODE, offset: w.offset, size: w.width } : { id: HWREG_MODE, offset: 0, size: 32 };
    if (w) return { write: { register: 'MODE', field, after: writeField(s.mode, field, { value: immediate(inst) & 0xf, known: 0xf }, MODE_TRACKED_MASK) } };
    return {
      write: { register: 'MODE', field, after: UNKNOWN_BITS },
      unmodeled: { code: 'mode-write-unmodeled', severity: 'warning', message: `${def.mnemonic} writes MODE in a way the analysis does not model: every MODE bit is unknown after it` },
    };
  }
  if (hw !== undefined && def.implicitReads?.includes('MODE') === true) {
    const reg = REGISTER_OF[hw.id];
    if (reg === undefined || hwregDef(hw.id, target) === undefined) {
      return { unmodeled: { code: 'hwreg-read-unmodeled', severity: 'note', message: `read of ${hwregFieldText(hw, target)}: not modeled, the result is unknown` } };
    }
  }
  return NOTHING;
}
/** classify's answer for an instruction that writes no modeled register (most: one object for all). */
const NOTHING: { write?: Write; unmodeled?: Unmodeled } = Object.freeze({});

function getregBits(s: FullState, inst: Instruction): KnownBits | undefined {
  const hw = hwregOperand(inst);
  const reg = hw === undefined ? undefined : REGISTER_OF[hw.id];
  if (hw === undefined || reg === undefined) return undefined;
  return readField(s[SLOT[reg]], hw);
}

/**
 * Whether the instruction writes a hardware register from its source operand (s_setreg*): the
 * only reader of the scalar registers' known bits (setregSource).
 */
function readsScalars(inst: Instruction): boolean {
  return inst.def.implicitWrites?.includes('MODE') === true && hwregOperand(inst) !== undefined;
}

/**
 * Applies one instruction whose classify answer (taken in the same state) is `c`. `scalars`:
 * whether to track the scalar registers (false when no instruction reads them: readsScalars).
 */
function apply(s: FullState, inst: Instruction, c: ReturnType<typeof classify>, scalars: boolean): void {
  // The hook only where it is asked for (s_getreg_b32): no closure per instruction.
  if (scalars) stepScalar(s.regs, inst, inst.def.mnemonic === 's_getreg_b32' ? { getreg: (i) => getregBits(s, i) } : undefined);
  if (c.write) s[SLOT[c.write.register]] = c.write.after;
}

const sameKb = (a: KnownBits, b: KnownBits) => a.known === b.known && a.value === b.value;

/**
 * Sorts records by pc (stable). The replay makes them in block order, which is pc order unless
 * the entry block is not the first in the code: sorted already, they are left as they are (a sort
 * copies its array and calls the comparison for every element even then).
 */
function byPc(a: { readonly pc: number }[]): void {
  for (let k = 1; k < a.length; k++) {
    if ((a[k - 1] as { readonly pc: number }).pc > (a[k] as { readonly pc: number }).pc) { a.sort((x, y) => x.pc - y.pc); return; }
  }
}

/**
 * The definitions known to neither read nor write MODE (a definition's facts never change), each
 * with its float type (null: none): one map lookup per instruction answers both questions of the
 * plain walk, cheaper than reading the table's records (of many shapes) and searching their
 * register lists. Bounded by the ISA table.
 */
const PLAIN = new Map<Instruction['def'], FloatType | null>();

/** The scalar registers of every state when nothing reads them (analyzeMode's `scalars`): never written, so one for all analyses. */
const UNTRACKED = new ScalarState();

// --- analysis ------------------------------------------------------------------------------

const snapshot = (s: FullState): ModeState => ({ mode: s.mode, flatScrLo: s.flatScrLo, flatScrHi: s.flatScrHi });

function field2(bits: KnownBits, offset: number): number | 'dynamic' {
  return ((bits.known >>> offset) & 3) === 3 ? (bits.value >>> offset) & 3 : 'dynamic';
}
function bit(bits: KnownBits, n: number): boolean | 'dynamic' {
  return ((bits.known >>> n) & 1) === 1 ? ((bits.value >>> n) & 1) === 1 : 'dynamic';
}

/** The float mode a VALU instruction of `float` type runs under. */
export function valuMode(pc: number, float: FloatType, mode: KnownBits): ValuMode {
  const f = modeFieldsFor(float);
  return new ValuRecord(pc, float, field2(mode, f.round), field2(mode, f.denorm), bit(mode, 8), bit(mode, 9), float === 'f16' ? bit(mode, 23) : false);
}

/**
 * A ValuMode record, made by a constructor rather than an object literal: V8 pretenures a
 * literal's allocation site whose objects outlive young-generation collections (a large kernel's
 * records, through its whole recompile), and a small kernel's records were then made old (as
 * cfg.ts's blocks and edges were). The properties of the literal it replaced, in its order.
 */
class ValuRecord implements ValuMode {
  constructor(
    readonly pc: number,
    readonly float: FloatType,
    readonly round: number | 'dynamic',
    readonly denorm: number | 'dynamic',
    readonly dx10Clamp: boolean | 'dynamic',
    readonly ieee: boolean | 'dynamic',
    readonly f16Ovfl: boolean | 'dynamic',
  ) {}
}

function text(inst: Instruction, target: Shader['info']['target']): string {
  try {
    return printInstruction(inst, target);
  } catch {
    return inst.def.mnemonic;
  }
}

const MODE_FIELDS_ASSUMED: readonly AssumableField[] = ['floatMode', 'dx10Clamp', 'ieeeMode', 'fp16Overflow'];

/** The MODE data flow of a shader over its CFG (buildCfg). Never throws on any code. */
export function analyzeMode(shader: Shader, cfg: Cfg): ModeAnalysis {
  const initial = initialModeState(shader);
  // Most kernels have no instruction that reads or writes MODE (s_setreg*, s_getreg_b32,
  // s_round_mode, s_denorm_mode, v_interp_*): their analysis is one walk (plainAnalysis).
  return plainAnalysis(shader, cfg, initial) ?? modalAnalysis(shader, cfg, initial);
}

/** The launch-state fields that a diagnostic says were defaulted, and that diagnostic (or none). */
function assumedFields(shader: Shader, cfg: Cfg, target: Shader['info']['target'], diagnostics: Diagnostic[]): readonly AssumableField[] {
  // An indexed loop, not filter with a closure: this runs once per analysis, mostly unoptimised,
  // and most shaders declare every field (nothing assumed).
  const all = shader.info.assumed;
  const assumed: AssumableField[] = [];
  for (let k = 0; k < all.length; k++) { const f = all[k] as AssumableField; if (MODE_FIELDS_ASSUMED.includes(f)) assumed.push(f); }
  if (assumed.length) {
    const first = cfg.blocks[cfg.entry]?.instructions[0];
    diagnostics.push({
      pc: first?.pc ?? shader.info.entry, instruction: first ? text(first, target) : '', words: first ? [...first.words] : [],
      code: 'mode-launch-assumed', severity: 'note',
      message: `launch MODE uses the documented default for ${assumed.join(', ')} (not declared by the input)`,
    });
  }
  return assumed;
}

/**
 * The reachable blocks' offsets in the reachable instructions sorted by pc (`offset`, by block
 * id) and their count. The blocks are disjoint ranges of pcs, so the reachable ones sorted by
 * start give the instructions sorted. Block ids are in start order but for the entry block,
 * which is almost always first in the code too: then the reachable blocks are taken in id order,
 * without a sorted list of them.
 */
function reachableOffsets(cfg: Cfg, reached: (id: number) => boolean, offset: number[]): number {
  let count = 0, inOrder = true;
  for (let k = 0, last = -Infinity; k < cfg.blocks.length && inOrder; k++) {
    const b = cfg.blocks[k] as BasicBlock;
    if (!reached(b.id)) continue;
    inOrder = b.start > last;
    last = b.start;
    offset[b.id] = count;
    count += b.instructions.length;
  }
  if (!inOrder) {
    count = 0;
    const reachable = cfg.blocks.filter((b) => reached(b.id)).sort((x, y) => x.start - y.start);
    for (let k = 0; k < reachable.length; k++) { const b = reachable[k] as BasicBlock; offset[b.id] = count; count += b.instructions.length; }
  }
  return count;
}

/**
 * analyzeMode of a kernel without an instruction that reads or writes MODE, or undefined at the
 * first such instruction (modalAnalysis then). Every transfer is the identity: the data flow's
 * answer is the launch state in every block control reaches (calls.ts), before and after every
 * instruction; so one walk over the instructions both checks that none is modal and records the
 * reachable ones' VALU modes (a walk to find the modal instructions, a data flow, then a replay
 * were three). Where an instruction starts the graph's blocks tell (cfg.ts blockOfPc): no table of
 * the reachable instructions' pcs is made, nor their offsets by block.
 */
function plainAnalysis(shader: Shader, cfg: Cfg, initial: ModeState): ModeAnalysis | undefined {
  const target = shader.info.target;
  const blocks = cfg.blocks;
  const reachable = callFlow(cfg).reachable;
  const valu: ValuMode[] = [];
  // The launch state's VALU mode fields by float type, made at the first instruction of the type.
  let f16: ValuMode | undefined, f32: ValuMode | undefined, f64: ValuMode | undefined;
  // The previous instruction's definition, when it neither reads nor writes MODE, and its float
  // type: code repeats definitions back to back.
  let plain: Instruction['def'] | undefined;
  let float: FloatType | null = null;
  for (let bk = 0; bk < blocks.length; bk++) {
    const b = blocks[bk] as BasicBlock;
    const is = b.instructions;
    // An unreachable block is only checked (a modal instruction there is analysed as before).
    const live = reachable[b.id] === true;
    for (let k = 0; k < is.length; k++) {
      const inst = is[k] as Instruction;
      const def = inst.def;
      if (def !== plain) {
        let f = PLAIN.get(def);
        if (f === undefined) {
          if (def.implicitWrites?.includes('MODE') === true || def.implicitReads?.includes('MODE') === true) return undefined;
          f = def.float ?? null;
          PLAIN.set(def, f);
        }
        plain = def;
        float = f;
      }
      if (!live || float === null) continue;
      // valuMode's record for this pc: its fields copied from the type's first, in its order.
      const t = float === 'f32' ? (f32 ??= valuMode(0, float, initial.mode)) : float === 'f16' ? (f16 ??= valuMode(0, float, initial.mode)) : (f64 ??= valuMode(0, float, initial.mode));
      valu.push(new ValuRecord(inst.pc, float, t.round, t.denorm, t.dx10Clamp, t.ieee, t.f16Ovfl));
    }
  }
  const diagnostics: Diagnostic[] = [];
  const assumed = assumedFields(shader, cfg, target, diagnostics);
  byPc(valu);
  // Nothing changes the launch state: one snapshot of it before and after every reachable instruction and at every reachable block's entry.
  const launch: ModeState = { mode: initial.mode, flatScrLo: initial.flatScrLo, flatScrHi: initial.flatScrHi };
  const blockIn = new Array<ModeState | undefined>(blocks.length);
  for (let k = 0; k < blockIn.length; k++) blockIn[k] = reachable[k] === true ? launch : undefined;
  /** The launch state where a reachable instruction starts at `pc`. */
  const at = (pc: number): ModeState | undefined => {
    const b = blockOfPc(cfg, pc);
    return b !== undefined && reachable[b.id] === true && instructionIn(b, pc) !== undefined ? launch : undefined;
  };
  return { initial, assumed, blockIn, before: at, after: at, getregs: [], valu, transitions: [], diagnostics };
}

/** analyzeMode of a kernel with an instruction that reads or writes MODE. */
function modalAnalysis(shader: Shader, cfg: Cfg, initial: ModeState): ModeAnalysis {
  const target = shader.info.target;
  // The scalar registers' bits matter only to an s_setreg* (most kernels have none): without one
  // they stay unknown, and nothing the analysis returns changes. Every state then shares the
  // start's registers, which nothing writes: no copy per block.
  let scalars = false;
  for (let bk = 0; bk < cfg.blocks.length && !scalars; bk++) {
    const is = (cfg.blocks[bk] as BasicBlock).instructions;
    for (let k = 0; k < is.length; k++) {
      const inst = is[k] as Instruction;
      if (!PLAIN.has(inst.def) && readsScalars(inst)) { scalars = true; break; }
    }
  }
  const regsOf = (s: FullState): ScalarState => (scalars ? s.regs.clone() : s.regs);
  const start: FullState = { regs: scalars ? new ScalarState() : UNTRACKED, ...initial };
  const blockInFull = solveForward<FullState>(cfg, start, {
    clone: (s) => ({ regs: regsOf(s), mode: s.mode, flatScrLo: s.flatScrLo, flatScrHi: s.flatScrHi }),
    joinInto: (into, from) => {
      // The three registers written out: a list of their names here was an array and an
      // iterator per join.
      let changed = scalars && into.regs.joinFrom(from.regs);
      const m = joinBits(into.mode, from.mode);
      if (!sameKb(m, into.mode)) { into.mode = m; changed = true; }
      const lo = joinBits(into.flatScrLo, from.flatScrLo);
      if (!sameKb(lo, into.flatScrLo)) { into.flatScrLo = lo; changed = true; }
      const hi = joinBits(into.flatScrHi, from.flatScrHi);
      if (!sameKb(hi, into.flatScrHi)) { into.flatScrHi = hi; changed = true; }
      return changed;
    },
    step: (s, inst) => apply(s, inst, classify(s, inst, target), scalars),
  });

  // One replay of every reachable block records the per-instruction results: the states before
  // and after each instruction, by its position in the reachable instructions sorted by pc
  // (plain arrays of indices into the distinct states: no Map entry per instruction, and no typed
  // array, which past 64 bytes is an allocation outside the JS heap).
  const offset = new Array<number>(cfg.blocks.length).fill(0);
  const count = reachableOffsets(cfg, (id) => blockInFull[id] !== undefined, offset);
  const pcs = new Array<number>(count).fill(0);
  const beforeAt = new Array<number>(count).fill(0), afterAt = new Array<number>(count).fill(0);
  const states: ModeState[] = [];
  const getregs: GetregRead[] = [];
  const valu: ValuMode[] = [];
  const transitions: ModeTransition[] = [];
  const diagnostics: Diagnostic[] = [];
  const assumed = assumedFields(shader, cfg, target, diagnostics);
  // The block being replayed: its state and last snapshot, outside the loop (closures over
  // variables of the loop's body were a context per block).
  let s: FullState = start;
  // Consecutive instructions share one (read-only) snapshot while no register of it changes.
  let last: ModeState | undefined;
  const snap = (): ModeState => (last && last.mode === s.mode && last.flatScrLo === s.flatScrLo && last.flatScrHi === s.flatScrHi ? last : (last = snapshot(s)));
  // The index of the last snapshot in `states`.
  const index = (): number => {
    const x = snap();
    if (states[states.length - 1] !== x) states.push(x);
    return states.length - 1;
  };
  for (let bk = 0; bk < cfg.blocks.length; bk++) {
    const b = cfg.blocks[bk] as BasicBlock;
    const inS = blockInFull[b.id];
    if (inS === undefined) continue;
    last = undefined;
    let at = offset[b.id] as number;
    s = { regs: regsOf(inS), mode: inS.mode, flatScrLo: inS.flatScrLo, flatScrHi: inS.flatScrHi };
    for (let k = 0; k < b.instructions.length; k++) {
      const inst = b.instructions[k] as Instruction;
      const before = snap();
      pcs[at] = inst.pc;
      beforeAt[at] = index();
      const c = classify(s, inst, target);
      if (c.unmodeled) diagnostics.push({ pc: inst.pc, instruction: text(inst, target), words: [...inst.words], ...c.unmodeled });
      if (c.write) transitions.push({ pc: inst.pc, instruction: text(inst, target), register: c.write.register, field: c.write.field, before: before[SLOT[c.write.register]], after: c.write.after });
      const g = inst.def.implicitReads?.includes('MODE') === true ? getregBits(s, inst) : undefined;
      const hw = g === undefined ? undefined : hwregOperand(inst);
      if (g !== undefined && hw !== undefined && inst.def.operands.some((d) => d.role === 'dst')) {
        const reg = REGISTER_OF[hw.id] ?? 'MODE';
        getregs.push({ pc: inst.pc, register: reg, field: hw, bits: g, knownMask: g.known, ...(g.known === ALL_BITS ? { value: g.value } : {}) });
      }
      if (inst.def.float !== undefined) valu.push(valuMode(inst.pc, inst.def.float, s.mode));
      apply(s, inst, c, scalars);
      afterAt[at++] = index();
    }
  }
  /** The position of the reachable instruction at `pc` (-1: none). */
  const find = (pc: number): number => {
    let lo = 0, hi = count;
    while (lo < hi) { const m = (lo + hi) >>> 1; if ((pcs[m] as number) < pc) lo = m + 1; else hi = m; }
    return lo < count && pcs[lo] === pc ? lo : -1;
  };
  byPc(getregs); byPc(valu); byPc(transitions);
  diagnostics.sort((x, y) => x.pc - y.pc);
  return {
    initial,
    assumed,
    blockIn: blockInFull.map((s) => (s === undefined ? undefined : snapshot(s))),
    before: (pc) => { const k = find(pc); return k < 0 ? undefined : states[beforeAt[k] as number]; },
    after: (pc) => { const k = find(pc); return k < 0 ? undefined : states[afterAt[k] as number]; },
    getregs, valu, transitions, diagnostics,
  };
}
