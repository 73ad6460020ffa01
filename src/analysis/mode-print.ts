// Text and JSON of a MODE analysis, beside the code (STYLE habit 4): per block, every instruction,
// and next to each one that changes MODE (or FLAT_SCR) or depends on it the state it sees or makes.
// A field prints as its name when known (rne/rtp/rtn/rtz; flush/flush-out/flush-in/keep), as bits
// with '?' for unknown bits when partly known, '?' when unknown. No Node APIs.
import type { Shader } from '../container/shader.js';
import type { Instruction } from '../decode/types.js';
import { printInstruction } from '../disasm/index.js';
import type { Cfg } from './types.js';
import { DENORM_NAMES, hwregFieldText, ROUND_NAMES, type HwregField } from './hwreg.js';
import type { KnownBits } from './scalar-constants.js';
import type { GetregRead, ModeAnalysis, ModeTransition, ValuMode } from './mode.js';

const hex8 = (v: number) => '0x' + (v >>> 0).toString(16).padStart(8, '0');
const hexPc = (v: number) => '0x' + v.toString(16);

/** Bits [offset, offset+width) of known bits: `0b?1`-style, '?' when none is known. */
export function formatBits(b: KnownBits, offset: number, width: number): string {
  const m = (1 << width) - 1;
  const k = (b.known >>> offset) & m;
  if (k === 0) return '?';
  let t = '';
  for (let i = width - 1; i >= 0; i--) t += ((k >>> i) & 1) === 0 ? '?' : String((b.value >>> (offset + i)) & 1);
  return '0b' + t;
}

function named(b: KnownBits, offset: number, names: readonly string[]): string {
  return ((b.known >>> offset) & 3) === 3 ? (names[(b.value >>> offset) & 3] ?? '?') : formatBits(b, offset, 2);
}

/** MODE in words: f32 and f16/f64 rounding + denormals, DX10_CLAMP, IEEE, FP16_OVFL, and the raw known bits. */
export function formatMode(b: KnownBits): string {
  return `f32 ${named(b, 0, ROUND_NAMES)}/${named(b, 4, DENORM_NAMES)}, f16/f64 ${named(b, 2, ROUND_NAMES)}/${named(b, 6, DENORM_NAMES)}, `
    + `dx10_clamp ${formatBits(b, 8, 1).replace('0b', '')}, ieee ${formatBits(b, 9, 1).replace('0b', '')}, fp16_ovfl ${formatBits(b, 23, 1).replace('0b', '')} (${formatKnown(b)})`;
}

/** value/known as hex: `0x000003c0 known 0x000003ff`. */
export function formatKnown(b: KnownBits): string {
  return `${hex8(b.value)} known ${hex8(b.known)}`;
}

const fieldText = (f: HwregField, t: Shader['info']['target']) => hwregFieldText(f, t);

function transitionNote(t: ModeTransition, target: Shader['info']['target']): string {
  const after = t.register === 'MODE' ? formatMode(t.after) : formatKnown(t.after);
  return `${fieldText(t.field, target)} written -> ${t.register} ${after}`;
}

function getregNote(g: GetregRead, target: Shader['info']['target']): string {
  return `reads ${fieldText(g.field, target)} = ${g.value !== undefined ? hex8(g.value) : `${formatKnown(g.bits)} (partly unknown)`}`;
}

function valuNote(v: ValuMode): string {
  const r = v.round === 'dynamic' ? 'round dynamic' : ROUND_NAMES[v.round] ?? '?';
  const d = v.denorm === 'dynamic' ? 'denorm dynamic' : DENORM_NAMES[v.denorm] ?? '?';
  const b = (x: boolean | 'dynamic') => (x === 'dynamic' ? '?' : x ? '1' : '0');
  return `${v.float} ${r}/${d}, dx10_clamp ${b(v.dx10Clamp)}, ieee ${b(v.ieee)}${v.float === 'f16' ? `, fp16_ovfl ${b(v.f16Ovfl)}` : ''}`;
}

function instText(inst: Instruction, target: Shader['info']['target']): string {
  try {
    return printInstruction(inst, target);
  } catch {
    return inst.def.mnemonic;
  }
}

/** The analysis as text lines: header, then per block its entry state and instructions with notes. */
/**
 * The text of `rdna mode`. `lowering` (from the CLI, which recompiles): per pc, how the
 * instruction's float ops run on the chosen profile (native, emulated, dynamic), noted beside its mode.
 */
export function formatModeAnalysis(shader: Shader, cfg: Cfg, a: ModeAnalysis, lowering?: ReadonlyMap<number, string>): string[] {
  const target = shader.info.target;
  const out: string[] = [];
  out.push(`${shader.info.source === 'sidecar' ? 'shader' : 'kernel'} ${shader.info.name} (${target}, wave${shader.info.waveSize})`);
  out.push(`  launch MODE: ${formatMode(a.initial.mode)}${a.assumed.length ? ` [assumed: ${a.assumed.join(', ')}]` : ''}`);
  const trans = new Map<number, ModeTransition[]>();
  for (const t of a.transitions) trans.set(t.pc, [...(trans.get(t.pc) ?? []), t]);
  const reads = new Map(a.getregs.map((g) => [g.pc, g]));
  const valus = new Map(a.valu.map((v) => [v.pc, v]));
  const rows: [string, string][] = [];
  for (const b of cfg.blocks) {
    const inS = a.blockIn[b.id];
    const preds = b.preds.map((e) => e.from).join(' ') || '-';
    const succs = b.succs.map((e) => e.to).join(' ') || '-';
    rows.push([`block ${b.id} [${hexPc(b.start)}, ${hexPc(b.end)}) preds ${preds} succs ${succs}${b.exit ? ` exit ${b.exit}` : ''}`, '']);
    rows.push([`  in: ${inS ? `MODE ${formatMode(inS.mode)}` : 'unreachable'}`, '']);
    for (const inst of b.instructions) {
      const notes: string[] = [];
      for (const t of trans.get(inst.pc) ?? []) notes.push(transitionNote(t, target));
      const g = reads.get(inst.pc);
      if (g) notes.push(getregNote(g, target));
      const v = valus.get(inst.pc);
      if (v) notes.push(valuNote(v));
      const low = lowering?.get(inst.pc);
      if (low) notes.push(low);
      rows.push([`  ${hexPc(inst.pc)}  ${instText(inst, target)}`, notes.join('; ')]);
    }
  }
  const width = Math.min(72, Math.max(0, ...rows.filter(([, n]) => n).map(([l]) => l.length)));
  for (const [l, n] of rows) out.push(n ? `${l.padEnd(width)}  ; ${n}` : l);
  if (a.diagnostics.length) {
    out.push('diagnostics:');
    for (const d of a.diagnostics) out.push(`  ${hexPc(d.pc)} ${d.severity} ${d.code}: ${d.message} [${d.instruction}]`);
  }
  return out;
}

const kb = (b: KnownBits) => ({ value: b.value, known: b.known });

/** The analysis for tools (one JSON value). */
export function modeAnalysisJson(shader: Shader, cfg: Cfg, a: ModeAnalysis): unknown {
  const target = shader.info.target;
  return {
    name: shader.info.name,
    target,
    waveSize: shader.info.waveSize,
    launch: { mode: kb(a.initial.mode), assumed: a.assumed },
    blocks: cfg.blocks.map((b) => {
      const s = a.blockIn[b.id];
      return {
        id: b.id, start: b.start, end: b.end,
        preds: b.preds.map((e) => e.from), succs: b.succs.map((e) => e.to),
        in: s ? { mode: kb(s.mode), flatScrLo: kb(s.flatScrLo), flatScrHi: kb(s.flatScrHi) } : null,
      };
    }),
    transitions: a.transitions.map((t) => ({ pc: t.pc, instruction: t.instruction, register: t.register, field: t.field, before: kb(t.before), after: kb(t.after) })),
    getregs: a.getregs.map((g) => ({ pc: g.pc, register: g.register, field: g.field, known: g.knownMask, ...(g.value !== undefined ? { value: g.value } : { bits: g.bits.value }) })),
    valu: a.valu,
    diagnostics: a.diagnostics,
  };
}
