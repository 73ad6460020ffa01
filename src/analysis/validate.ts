// `validate`: every finding about a shader's reachable code, not the first one. The CFG
// (buildCfg) already decodes the program from its entry and reports what it found while
// building (branches out of range or into an instruction, falling off the end, invalid or
// truncated words on a reachable path, unresolved jumps, irreducible loops); validate passes
// those on and adds the checks below, each with a stable code. No Node APIs.
//
// | code                      | severity | what                                                                                   | source |
// | ------------------------- | -------- | -------------------------------------------------------------------------------------- | ------ |
// | instruction-not-on-target | error    | a reachable word that does not decode on the shader's target decodes on another gfx10 target (replaces the CFG's invalid-word finding at that pc) | the ISA table's per-target opcodes (LLVM 19 `-mcpu` behaviour, checked by the differential test) |
// | sgpr-out-of-range         | error    | an operand's SGPRs reach past ShaderInfo.addressableSgprs (64-bit pairs, tuples and wave64 masks by their full width) | RDNA2 ISA guide, SGPR allocation: a wave may name s0..s(n-1); AMDGPUUsage (gfx10: 106 addressable) |
// | vgpr-out-of-range         | error    | an operand's VGPRs reach past ShaderInfo.vgprCount                                      | RDNA2 ISA guide, VGPR allocation (VGPRs outside the allocation are not the wave's); AMDGPUUsage (granulated VGPR count) |
// | misaligned-sgpr-pair      | warning  | a 64-bit (or wider) SGPR/TTMP operand encoded at an odd (or not 4-aligned) register: the hardware and LLVM use the aligned range below it | RDNA2 ISA guide (64-bit SGPR operands must be even-aligned); LLVM 19's disassembler warns "scalar reg isn't aligned" |
// | wave-size-mismatch        | error    | in a wave64 shader, a lane-mask operand (table type 'mask': VOPC/VOP3 sdst, carry, v_cndmask mask) names a 32-bit-only register (vcc_hi, exec_hi, m0, ...) that cannot be the 64-bit mask | table operand type 'mask' (wave-size wide); LLVM 19 with +wavefrontsize64: such masks are SReg_64 |
// | operand-class             | error    | an operand outside its register class, which LLVM 19 decodes but flags (`/*Invalid register...*/`, `/*Invalid immediate*/`) | LLVM 19's AMDGPUInstPrinter register-class notes (the disassembler's text) |
// | lds-not-allocated         | warning  | an instruction that reads or writes LDS (table implicit LDS, not GDS, not a MUBUF op whose lds bit is clear) in a shader that declares no LDS (ldsSize 0, not assumed) | table implicitReads/implicitWrites 'LDS'; ISA guide: LDS accesses beyond the allocation are out of range |
// | scratch-not-allocated     | warning  | a scratch_* instruction in a shader that declares no scratch (scratchSize 0, not assumed) | table family SCRATCH; AMDGPUUsage private_segment_fixed_size |
// | no-endpgm                 | warning  | no reachable block ends in s_endpgm (the program never terminates normally)             | ISA guide: a shader program ends with S_ENDPGM |
// | unreachable-code          | note     | code inside the shader's range that no path from the entry reaches (one note per region) | the CFG |
//
// Not checked (see docs/TECHNICAL_DEBT.md): data hazards / manually inserted wait states,
// register indexing (s_movrel*, v_movrel*, M0) ranges, MIMG register counts beyond LLVM's text,
// reserved operand codes (the decoder already makes such words invalid, reported by the CFG).
import { type Shader, segmentAt } from '../container/shader.js';
import { decodeAt } from '../decode/index.js';
import { bits } from '../decode/operands.js';
import type { Instruction, InvalidWord, Operand, OperandValue } from '../decode/types.js';
import { vop3Layout } from '../decode/vop3.js';
import { printInstruction } from '../disasm/index.js';
import { TARGETS, type Target } from '../isa/types.js';
import type { Cfg, Diagnostic, Severity } from './types.js';

export interface CheckInfo {
  readonly code: string;
  readonly severity: Severity;
  readonly what: string;
}

/** The checks validate adds to the CFG's own findings (the table above, as data). */
export const VALIDATE_CHECKS: readonly CheckInfo[] = [
  { code: 'instruction-not-on-target', severity: 'error', what: 'a reachable word that decodes only on another gfx10 target' },
  { code: 'sgpr-out-of-range', severity: 'error', what: 'SGPR operand beyond the addressable SGPRs' },
  { code: 'vgpr-out-of-range', severity: 'error', what: 'VGPR operand beyond the allocated VGPRs' },
  { code: 'misaligned-sgpr-pair', severity: 'warning', what: '64-bit or wider SGPR/TTMP operand not aligned' },
  { code: 'wave-size-mismatch', severity: 'error', what: 'wave64 lane mask naming a 32-bit-only register' },
  { code: 'operand-class', severity: 'error', what: 'operand outside its register class' },
  { code: 'lds-not-allocated', severity: 'warning', what: 'LDS access without LDS allocation' },
  { code: 'scratch-not-allocated', severity: 'warning', what: 'scratch access without scratch allocation' },
  { code: 'no-endpgm', severity: 'warning', what: 'no reachable s_endpgm' },
  { code: 'unreachable-code', severity: 'note', what: 'code not reachable from the entry' },
];

/** CFG diagnostic codes for an undecodable (not truncated) word, replaced by instruction-not-on-target. */
const CFG_INVALID_CODES: ReadonlySet<string> = new Set(['invalid-instruction', 'invalid-word']);

const SEVERITY_ORDER: Record<Severity, number> = { error: 0, warning: 1, note: 2 };

const hex = (n: number) => '0x' + n.toString(16);

function diag(inst: Instruction, text: string, code: string, severity: Severity, message: string): Diagnostic {
  return { pc: inst.pc, instruction: text, words: [...inst.words], code, severity, message };
}

/** A register range as the hardware sees it. */
interface RegRange { readonly file: 's' | 'v' | 'ttmp'; readonly index: number; readonly count: number }

const rangeText = (r: RegRange) => (r.count === 1 ? `${r.file}${r.index}` : `${r.file}[${r.index}:${r.index + r.count - 1}]`);

/** Names of the operands whose table type is 'mask' (a lane mask: wave-size wide). */
function maskOperands(inst: Instruction, target: Target): Set<string> {
  const names = new Set<string>();
  for (const o of inst.def.operands) if (o.type === 'mask') names.add(o.name);
  if (inst.encoding === 'VOP3') {
    const layout = vop3Layout(target, bits(inst.words[0] ?? 0, 25, 16));
    if (layout) for (const o of layout.operands) if (o.def.type === 'mask') names.add(o.def.name);
  }
  // VOPC SDWA: the sdst field (SDWA word bit 15) holds the compare's mask.
  if (inst.encoding === 'VOPC' && inst.variant === 'sdwa') names.add('sdst');
  return names;
}

/**
 * The raw register code an operand was encoded with, for the fields where the decoder aligns an
 * odd SGPR/TTMP code down (so the decoded index no longer shows it). Undefined elsewhere.
 */
function rawCode(inst: Instruction, name: string, target: Target): number | undefined {
  const w0 = inst.words[0] ?? 0;
  const w1 = inst.words[1] ?? 0;
  switch (inst.encoding) {
    case 'SOP1': case 'SOP2': case 'SOPC': case 'SOPK':
      if (name === 'sdst') return bits(w0, 22, 16);
      if (name === 'ssrc0') return bits(w0, 7, 0);
      if (name === 'ssrc1') return bits(w0, 15, 8);
      return undefined;
    case 'SMEM':
      return name === 'sdata' ? bits(w0, 12, 6) : undefined;
    case 'VOP1': case 'VOP2': case 'VOPC':
      return inst.variant === 'e32' && name === 'src0' ? bits(w0, 8, 0) : undefined;
    case 'VOP3': {
      const layout = vop3Layout(target, bits(w0, 25, 16));
      const k = layout?.operands.findIndex((o) => o.def.name === name) ?? -1;
      const slot = k >= 0 ? layout?.slots[k] : undefined;
      if (!slot) return undefined;
      return ((slot.word === 0 ? w0 : w1) >>> slot.shift) & slot.mask;
    }
    case 'VOP3P':
      if (name === 'src0') return bits(w1, 8, 0);
      if (name === 'src1') return bits(w1, 17, 9);
      if (name === 'src2') return bits(w1, 26, 18);
      return undefined;
    case 'FLAT':
      return name === 'saddr' ? bits(w1, 22, 16) : undefined;
    default:
      return undefined;
  }
}

/** Whether a raw scalar code of a `count`-dword operand names an unaligned SGPR/TTMP range. */
function misalignedCode(code: number, count: number): RegRange | undefined {
  const align = count >= 3 ? 4 : 2;
  if (code <= 105 && code % align !== 0) return { file: 's', index: code, count };
  if (code >= 108 && code <= 123 && (code - 108) % align !== 0) return { file: 'ttmp', index: code - 108, count };
  return undefined;
}

/** The registers an operand value occupies (wave64 lane masks widened to pairs). */
function regRange(v: OperandValue, wave64Mask: boolean): RegRange | undefined {
  switch (v.kind) {
    case 'sgpr': return { file: 's', index: v.index, count: wave64Mask && v.count === 1 ? 2 : v.count };
    case 'ttmp': return { file: 'ttmp', index: v.index, count: wave64Mask && v.count === 1 ? 2 : v.count };
    case 'vgpr': return { file: 'v', index: v.index, count: v.count };
    default: return undefined;
  }
}

/** Special registers a wave64 lane mask may name (the 64-bit register they start, or a constant source). */
const WAVE64_MASK_SPECIALS: ReadonlySet<string> = new Set(['vcc_lo', 'vcc', 'exec_lo', 'exec', 'null', 'src_vccz', 'src_execz', 'src_scc',
  'src_shared_base', 'src_shared_limit', 'src_private_base', 'src_private_limit', 'src_pops_exiting_wave_id']);

function checkOperand(shader: Shader, inst: Instruction, text: string, op: Operand, isMask: boolean, out: Diagnostic[]): void {
  const info = shader.info;
  const target = info.target;
  const wave64Mask = isMask && info.waveSize === 64;
  const v = op.value;
  if (wave64Mask && v.kind === 'special' && v.count === 1 && !WAVE64_MASK_SPECIALS.has(v.reg)) {
    out.push(diag(inst, text, 'wave-size-mismatch', 'error', `${op.name} is a 64-bit lane mask in this wave64 shader, but names ${v.reg}, a 32-bit register that cannot hold it`));
  }
  const r = regRange(v, wave64Mask);
  if (!r) return;
  if (r.file === 's' && r.index + r.count > info.addressableSgprs) {
    out.push(diag(inst, text, 'sgpr-out-of-range', 'error', `${op.name} uses ${rangeText(r)}${wave64Mask ? ' (a wave64 lane mask)' : ''}, beyond the ${info.addressableSgprs} addressable SGPRs (s0..s${info.addressableSgprs - 1})`));
  }
  if (r.file === 'v' && r.index + r.count > info.vgprCount) {
    out.push(diag(inst, text, 'vgpr-out-of-range', 'error', `${op.name} uses ${rangeText(r)}, beyond the ${info.vgprCount} allocated VGPRs (v0..v${info.vgprCount - 1})`));
  }
  if (r.file === 'v' || r.count < 2) return;
  // A wave64 mask decoded as one register keeps its raw index; wider operands were aligned down.
  const bad = wave64Mask && (v.kind === 'sgpr' || v.kind === 'ttmp') && v.count === 1
    ? (r.index % 2 !== 0 ? r : undefined)
    : (() => { const c = rawCode(inst, op.name, target); return c === undefined ? undefined : misalignedCode(c, r.count); })();
  if (bad) {
    const used = { ...bad, index: bad.index - (bad.index % (bad.count >= 3 ? 4 : 2)) };
    out.push(diag(inst, text, 'misaligned-sgpr-pair', 'warning', `${op.name} is encoded as ${bad.file}${bad.index}, which does not start an aligned ${bad.count}-register range: the hardware uses ${rangeText(used)}`));
  }
}

// A MUBUF opcode with an LDS form (the table's implicit LDS write) touches LDS only with its lds bit set.
const LDS_FREE = (inst: Instruction) => inst.mods.gds === true || inst.def.flags?.includes('noLds') === true
  || (inst.def.family === 'MUBUF' && inst.mods.lds !== true);

function checkInstruction(shader: Shader, inst: Instruction, out: Diagnostic[]): void {
  const info = shader.info;
  const text = printInstruction(inst, info.target);
  const masks = maskOperands(inst, info.target);
  for (const op of inst.operands) checkOperand(shader, inst, text, op, masks.has(op.name), out);
  if (/\/\*Invalid (register|immediate)/.test(text)) {
    out.push(diag(inst, text, 'operand-class', 'error', 'an operand is outside its register class (LLVM decodes the word but flags the operand)'));
  }
  const lds = inst.def.implicitReads?.includes('LDS') === true || inst.def.implicitWrites?.includes('LDS') === true;
  if (lds && !LDS_FREE(inst) && info.ldsSize === 0 && !info.assumed.includes('ldsSize')) {
    out.push(diag(inst, text, 'lds-not-allocated', 'warning', `${inst.def.mnemonic} accesses LDS, but the shader declares no LDS (ldsSize 0)`));
  }
  if (inst.def.family === 'SCRATCH' && info.scratchSize === 0 && !info.assumed.includes('scratchSize')) {
    out.push(diag(inst, text, 'scratch-not-allocated', 'warning', `${inst.def.mnemonic} accesses scratch memory, but the shader declares no scratch (scratchSize 0)`));
  }
}

/** Targets other than the shader's on which an invalid word decodes, with the text there. */
function otherTargetDecode(shader: Shader, w: InvalidWord): { targets: Target[]; inst: Instruction } | undefined {
  const seg = segmentAt(shader, w.pc);
  const index = seg ? (w.pc - seg.start) / 4 : -1;
  if (!seg || !Number.isInteger(index) || index < 0 || index >= seg.words.length) return undefined;
  let first: Instruction | undefined;
  const targets: Target[] = [];
  for (const t of TARGETS) {
    if (t === shader.info.target) continue;
    const d = decodeAt(t, seg.words, index, seg.words.length, w.pc);
    if (d.kind === 'instruction') {
      targets.push(t);
      first ??= d;
    }
  }
  return first ? { targets, inst: first } : undefined;
}

function unreachable(shader: Shader, cfg: Cfg, out: Diagnostic[]): void {
  const n = shader.words.length;
  const covered = new Uint8Array(n);
  const mark = (start: number, end: number) => {
    for (let i = Math.max(0, (start - shader.basePc) >> 2); i < Math.min(n, (end - shader.basePc + 3) >> 2); i++) covered[i] = 1;
  };
  for (const b of cfg.blocks) mark(b.start, b.end);
  for (const w of cfg.invalid) mark(w.pc, w.pc + 4);
  for (let i = 0; i < n;) {
    if (covered[i]) { i++; continue; }
    let j = i;
    while (j < n && !covered[j]) j++;
    const pc = shader.basePc + 4 * i;
    const d = decodeAt(shader.info.target, shader.words, i, n, pc);
    const text = d.kind === 'instruction' ? printInstruction(d, shader.info.target) : '.long 0x' + ((d.words[0] >>> 0).toString(16).padStart(8, '0'));
    out.push({ pc, instruction: text, words: [...d.words], code: 'unreachable-code', severity: 'note',
      message: `${4 * (j - i)} bytes of code at ${hex(pc)}..${hex(shader.basePc + 4 * j)} are not reachable from the entry` });
    i = j;
  }
}

/**
 * Every finding about the shader: the CFG's construction diagnostics plus the checks in
 * VALIDATE_CHECKS, sorted by pc (then severity). Never throws on any decoded input.
 */
export function validate(shader: Shader, cfg: Cfg): Diagnostic[] {
  const out: Diagnostic[] = [];
  const replaced = new Set<number>();
  for (const w of cfg.invalid) {
    if (w.truncated) continue;
    const other = otherTargetDecode(shader, w);
    if (!other) continue;
    replaced.add(w.pc);
    const text = printInstruction(other.inst, other.targets[0] ?? shader.info.target);
    out.push({ pc: w.pc, instruction: text, words: [...other.inst.words], code: 'instruction-not-on-target', severity: 'error',
      message: `${other.inst.def.mnemonic} is not an instruction of ${shader.info.target} (it is on ${other.targets.join(', ')})` });
  }
  for (const d of cfg.diagnostics) if (!(replaced.has(d.pc) && CFG_INVALID_CODES.has(d.code))) out.push(d);
  for (const b of cfg.blocks) for (const inst of b.instructions) checkInstruction(shader, inst, out);
  if (!cfg.blocks.some((b) => b.exit === 'endpgm')) {
    const entry = cfg.blocks[cfg.entry]?.instructions[0];
    out.push(entry
      ? diag(entry, printInstruction(entry, shader.info.target), 'no-endpgm', 'warning', 'no path from the entry reaches s_endpgm')
      : { pc: shader.info.entry, instruction: '', words: [], code: 'no-endpgm', severity: 'warning', message: 'no path from the entry reaches s_endpgm' });
  }
  unreachable(shader, cfg, out);
  return out.sort((a, b) => a.pc - b.pc || SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] || (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
}

/** ok = no error-severity diagnostic. */
export function isOk(diagnostics: readonly Diagnostic[]): boolean {
  return !diagnostics.some((d) => d.severity === 'error');
}
