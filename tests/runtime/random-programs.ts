// Random gfx1030 programs for the randomized differential test (tests/runtime/random.test.ts):
// straight-line code and branching regions built from the one ISA table (src/isa), restricted to
// what the recompiler translates (src/frontend `isTranslated`), as LLVM assembly text that
// llvm-mc-19 assembles. Every opcode fact (family, operands in assembly order, their kinds, types
// and register counts, the e64 form and which neg/abs/clamp/omod/op_sel bits it takes, the SDWA
// form and its source modifiers, the DPP16/DPP8 forms and theirs) is read from the table, its e64
// layouts (src/decode/vop3.ts `vop3Layout`) and its SDWA and DPP facts (valu-variants.ts `sdwaForm`,
// `dppForm`), not listed here.
//
// A batch is one kernel: each workgroup (one wave) runs the program its workgroup id selects.
// The kernel prologue loads the program's initial state from buffer 0 (VGPRs v0..v15 of every
// lane, SGPRs s8..s23, VCC, EXEC, SCC); the common epilogue stores all of it, the final EXEC and
// SCC, and a marker (the epilogue was reached) to buffer 1. Per program k, at k * stride:
//   dwords 0..15 s8..s23, 16..17 VCC, 18..19 EXEC, 20 SCC, 21 marker (1), 22..31 zero;
//   from byte 128: lane l's v0..v15 at 128 + 64 l.
// Branching regions: if/else on SCC/VCCZ/EXECZ (both senses), s_and_saveexec + s_cbranch_execz
// regions, loops counted down in an SGPR the loop body does not write (1 to 4 trips), early exits
// (s_endpgm, or a jump to the epilogue). Every branch is forward except a loop's back edge.
// MODE: half the programs start with s_setreg_imm32_b32 of a random MODE[9:0]; s_setreg_b32,
// s_getreg_b32 (HW_REG_MODE), s_round_mode and s_denorm_mode occur among the instructions.
import { ISA_TABLE, hasTarget } from '../../src/isa/table.js';
import type { DataType, InstrDef, OperandDef } from '../../src/isa/types.js';
import { vop3Layout } from '../../src/decode/vop3.js';
import type { E64Profile } from '../../src/isa/tables/vop3-promotion.js';
import { dppForm, sdwaForm, type DppForm, type SdwaForm } from '../../src/isa/tables/valu-variants.js';
import { isTranslated } from '../../src/frontend/index.js';
import { Rng } from '../harness/rng.js';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadShaders, type Shader } from '../../src/container/shader.js';
import { decodeAt } from '../../src/decode/index.js';
import { recompile, type RecompiledFault } from '../../src/backend/recompile.js';
import { LAVAPIPE_PROFILE } from '../../src/backend/profile.js';
import { TranslateError } from '../../src/frontend/errors.js';
import { UnimplementedError, InterpError } from '../../src/interp/errors.js';
import { kernelSource, type KernelSpec } from '../harness/kernel.js';
import { LLVM_MC } from '../harness/llvm.js';
import { KERNARG_DIRECTIVES } from '../interp/harness.js';
import { interpret } from './cases.js';

/** The program's register window: v0..v15 and s8..s23 (plus VCC, EXEC, SCC). */
export const NV = 16;
export const S0 = 8;
export const NS = 16;
/** Bytes of one program's record in the input and output buffers. */
export const stride = (wave64: boolean): number => 128 + (wave64 ? 64 : 32) * NV * 4;

/**
 * Mnemonics the generator leaves out, each for a reason outside the comparison: program-counter
 * and control transfers (the generator builds its own control flow), waits and no-ops with no
 * state, hardware registers other than MODE (s_getreg/s_setreg are generated for HW_REG_MODE).
 */
const EXCLUDED = new Set([
  's_getpc_b64', 's_setpc_b64', 's_swappc_b64', 's_call_b64', 's_rfe_b64',
  's_waitcnt_vscnt', 's_waitcnt_vmcnt', 's_waitcnt_expcnt', 's_waitcnt_lgkmcnt', 's_version',
  'v_nop', 'v_clrexcp', 'v_pipeflush',
  // M0 is not part of the loaded state.
  's_movreld_b32', 's_movreld_b64', 's_movrels_b32', 's_movrels_b64', 's_movrelsd_2_b32',
  'v_movreld_b32', 'v_movrels_b32', 'v_movrelsd_b32', 'v_movrelsd_2_b32', 'v_swaprel_b32',
]);

/** One way to write an instruction: its e32/SOP/VOP3P operands, or an e64 layout's. */
interface Form {
  readonly def: InstrDef;
  readonly name: string;
  readonly operands: readonly { readonly def: OperandDef; readonly count: number }[];
  readonly vop: 'salu' | 'e32' | 'e64' | 'vop3p' | 'sdwa' | 'dpp';
  readonly profile?: E64Profile;
  readonly sdwa?: SdwaForm;
  readonly dpp?: DppForm;
}

function countOf(o: OperandDef, wave64: boolean): number {
  if (o.dwords !== undefined) return o.dwords;
  switch (o.type) {
    case 'b64': case 'i64': case 'u64': case 'f64': return 2;
    case 'mask': return wave64 ? 2 : 1;
    default: return 1;
  }
}

/** The forms of every translated gfx1030 SOP1/SOP2/SOPK/SOPC/VOP1/VOP2/VOPC/VOP3/VOP3P opcode. */
export function forms(wave64: boolean): Form[] {
  const out: Form[] = [];
  const withCounts = (ops: readonly OperandDef[]) => ops.map((d) => ({ def: d, count: countOf(d, wave64) }));
  for (const def of ISA_TABLE) {
    if (!hasTarget(def, 'gfx1030') || !isTranslated(def.mnemonic) || EXCLUDED.has(def.mnemonic)) continue;
    // The EXEC-writing forms of the other wave size (the recompiler refuses them).
    if (/_(saveexec|wrexec)_b(32|64)$/.test(def.mnemonic) && def.mnemonic.endsWith(wave64 ? '_b32' : '_b64')) continue;
    const flags = def.flags ?? [];
    switch (def.family) {
      case 'SOP1': case 'SOP2': case 'SOPC': case 'SOPK':
        if (def.operands.some((o) => o.kind === 'label')) continue;
        if (def.operands.some((o) => o.kind === 'hwreg') && def.mnemonic !== 's_getreg_b32' && def.mnemonic !== 's_setreg_imm32_b32') continue;
        out.push({ def, name: def.mnemonic, operands: withCounts(def.operands), vop: 'salu' });
        break;
      case 'VOP1': case 'VOP2': case 'VOPC': {
        out.push({ def, name: flags.includes('noVOP3') ? def.mnemonic : `${def.mnemonic}_e32`, operands: withCounts(def.operands), vop: 'e32' });
        // SDWA forms (the recompiler translates SDWA for the 32-bit, f16 and 16-bit integer VALU).
        const sdwa = sdwaForm('gfx1030', def.family, def.opcode);
        if (sdwa) {
          // VOPC SDWA names its compare destination (sdst); VOP2 SDWA carries write VCC only.
          out.push({ def, name: `${def.mnemonic}_sdwa`, operands: withCounts(def.operands).map((o) => (def.family === 'VOPC' && o.def.kind === 'vcc' && o.def.role === 'dst' ? { def: { ...o.def, kind: 'sdst' as const }, count: o.count } : o)), vop: 'sdwa', sdwa });
        }
        // DPP16/DPP8 forms (gfx10 has none of VOPC), with DPP16's neg/abs where the form takes them.
        const dpp = def.family === 'VOPC' ? undefined : dppForm('gfx1030', def.family, def.opcode);
        if (dpp && dpp.src0 !== 'none') out.push({ def, name: `${def.mnemonic}_dpp`, operands: withCounts(def.operands), vop: 'dpp', dpp });
        const op64 = def.family === 'VOPC' ? def.opcode : def.family === 'VOP2' ? 0x100 + def.opcode : 0x180 + def.opcode;
        const l = flags.includes('noVOP3') ? undefined : vop3Layout('gfx1030', op64);
        if (l && l.def === def) out.push({ def, name: `${def.mnemonic}_e64`, operands: l.operands.map((o) => ({ def: o.def, count: o.def.type === 'mask' ? (wave64 ? 2 : 1) : o.count })), vop: 'e64', profile: l.profile });
        break;
      }
      case 'VOP3': {
        const l = vop3Layout('gfx1030', def.opcode);
        if (!l || l.def !== def || l.interp !== 0) continue;
        out.push({ def, name: l.suffix ? `${def.mnemonic}_e64` : def.mnemonic, operands: l.operands.map((o) => ({ def: o.def, count: o.def.type === 'mask' ? (wave64 ? 2 : 1) : o.count })), vop: 'e64', profile: l.profile });
        break;
      }
      case 'VOP3P':
        out.push({ def, name: def.mnemonic, operands: withCounts(def.operands), vop: 'vop3p' });
        break;
      default:
        break;
    }
  }
  return out;
}

const hex = (v: number) => `0x${(v >>> 0).toString(16)}`;
const INT_INLINE = [0, 1, 2, 3, 4, 7, 15, 16, 31, 32, 63, 64, -1, -2, -7, -16];
const FLOAT_INLINE = ['0.5', '-0.5', '1.0', '-1.0', '2.0', '-2.0', '4.0', '-4.0', '0.15915494'];
/** f32 bit patterns a literal is drawn from half of the time: zeros, denormals, extremes, infinities, NaNs. */
const F32_EDGES = [0, 0x80000000, 1, 0x807fffff, 0x00800000, 0x7f7fffff, 0xff7fffff, 0x7f800000, 0xff800000, 0x7fc00000, 0x7fa00000, 0xffc00001, 0x3f800000, 0x3effffff, 0x4b000000, 0xcf000000, 0x4f800000];
const F16_EDGES = [0, 0x8000, 1, 0x83ff, 0x0400, 0x7bff, 0xfbff, 0x7c00, 0xfc00, 0x7e00, 0x7d00, 0x3c00, 0x3800, 0xfe01];

const isFloatType = (t: DataType) => t === 'f16' || t === 'f32' || t === 'f64' || t === 'v2f16';
const is16 = (t: DataType) => t === 'f16' || t === 'i16' || t === 'u16' || t === 'b16';

const MODE_WRITE = /^s_(setreg_b32|setreg_imm32_b32|round_mode|denorm_mode) /;

/** One line of a program: a random instruction (may be dropped if refused) or scaffolding. */
export interface Line {
  readonly text: string;
  readonly random: boolean;
  /** Labels are not instructions. */
  readonly label?: boolean;
}

export interface Program {
  /** The number in its labels (unique in a batch). */
  readonly index: number;
  readonly seed: number;
  readonly lines: Line[];
}

/** The program generator's state: registers a region's body may not write, label numbering. */
class Gen {
  private labels = 0;
  /** SGPRs no instruction may write (loop counters, saved EXEC of an open region). */
  private readonly locked = new Set<number>();
  constructor(readonly rng: Rng, readonly wave64: boolean, readonly pool: readonly Form[], readonly k: number, readonly lines: Line[]) {}

  private label(): string { return `.Lp${this.k}_${this.labels++}`; }
  private emit(text: string, random = false): void { this.lines.push({ text, random }); }
  private place(l: string): void { this.lines.push({ text: `${l}:`, random: false, label: true }); }

  private vgpr(count: number): string {
    const n = this.rng.int(NV - count + 1);
    return count === 1 ? `v${n}` : `v[${n}:${n + count - 1}]`;
  }

  /** A window SGPR (aligned for pairs), or undefined when all candidates are locked. */
  private sgpr(count: number, write: boolean): string | undefined {
    const align = count >= 2 ? 2 : 1;
    for (let tries = 0; tries < 8; tries++) {
      const n = S0 + align * this.rng.int((NS - count) / align + 1);
      let ok = true;
      for (let i = 0; i < count; i++) if (write && this.locked.has(n + i)) ok = false;
      if (ok) return count === 1 ? `s${n}` : `s[${n}:${n + count - 1}]`;
    }
    return undefined;
  }

  /** VCC or EXEC (their halves for one dword in wave64). */
  private special(count: number, write: boolean): string | undefined {
    const r = this.rng.pick(write ? ['vcc', 'vcc', 'vcc', 'exec'] : ['vcc', 'exec']);
    if (count === 2) return this.wave64 ? r : undefined;
    if (count !== 1) return undefined;
    return this.wave64 ? `${r}_${this.rng.pick(['lo', 'hi'])}` : `${r}_lo`;
  }

  private scalarDst(count: number, cls: string | undefined): string | undefined {
    if (this.rng.bool(0.1)) { const s = this.special(count, true); if (s !== undefined && !(cls === 'SReg_1_XEXEC' && s.startsWith('exec'))) return s; }
    return this.sgpr(count, true);
  }

  /** An inline constant (integer, or a float the type reads), or a literal of the operand's width (none for f64: LLVM would take it as the high dword). */
  private constant(t: DataType, count: number, literal: boolean): string {
    if (!literal) return this.rng.bool(isFloatType(t) ? 0.5 : 0.15) ? this.rng.pick(FLOAT_INLINE) : String(this.rng.pick(INT_INLINE));
    if (is16(t)) return hex(this.rng.bool(0.5) ? this.rng.pick(F16_EDGES) : this.rng.bits(16));
    if (t === 'v2f16' || t === 'v2i16' || t === 'v2u16' || t === 'v2b16') return hex(this.rng.bool(0.5) ? (this.rng.pick(F16_EDGES) | (this.rng.pick(F16_EDGES) << 16)) : this.rng.u32());
    if (count === 2 && t === 'f64') return this.rng.pick(FLOAT_INLINE);
    if (t === 'f32' && this.rng.bool(0.5)) return hex(this.rng.pick(F32_EDGES));
    return hex(this.rng.bool(0.3) ? this.rng.u32() >>> this.rng.int(32) : this.rng.u32());
  }

  /** A source operand: register, constant or literal, by kind, type, register class. */
  private source(o: OperandDef, count: number, vector: boolean, mods: { abs: boolean; neg: boolean }): string {
    const cls = o.regClass;
    if (o.kind === 'sdst') return this.sgpr(count, false) ?? 's8';
    if (o.kind === 'vgpr' || cls === 'VGPR_32' || cls === 'VRegOrLds_32') return this.modify(this.vgpr(count), mods);
    if (o.kind === 'vcc') return this.wave64 ? 'vcc' : 'vcc_lo';
    if (o.type === 'mask' || cls === 'SReg_1' || cls === 'SReg_1_XEXEC') {
      if (this.rng.bool(0.3)) return this.wave64 ? 'vcc' : 'vcc_lo';
      return this.sgpr(count, false) ?? 'vcc';
    }
    const scalarOnly = cls === 'SReg_32' || cls === 'SRegOrLds_32' || !vector;
    const r = this.rng.u32() / 4294967296;
    if (!scalarOnly && r < 0.6) return this.modify(this.vgpr(count), mods);
    if (r < 0.78) return this.modify(this.rng.bool(0.1) ? (this.special(count, false) ?? this.sgpr(count, false) ?? 's8') : (this.sgpr(count, false) ?? 's8'), mods);
    return this.constant(o.type, count, r > 0.9);
  }

  private modify(reg: string, m: { abs: boolean; neg: boolean }): string {
    const a = m.abs && this.rng.bool(0.15) ? `|${reg}|` : reg;
    return m.neg && this.rng.bool(0.15) ? `-${a}` : a;
  }

  /** One random instruction of the pool, as assembly text. */
  instruction(): string | undefined {
    if (this.rng.bool(0.02)) return this.rng.bool(0.5) ? `s_round_mode ${hex(this.rng.bits(4))}` : `s_denorm_mode ${hex(this.rng.bits(4))}`;
    const f = this.rng.pick(this.pool);
    const m = f.def.mnemonic;
    if (m === 's_getreg_b32') {
      const d = this.sgpr(1, true);
      const off = this.rng.int(10);
      return d && `s_getreg_b32 ${d}, hwreg(HW_REG_MODE, ${off}, ${1 + this.rng.int(10 - off)})`;
    }
    if (m === 's_setreg_imm32_b32') return `s_setreg_imm32_b32 hwreg(HW_REG_MODE, 0, 10), ${hex(this.rng.bits(10))}`;
    if (m === 's_setreg_b32') {
      const s = this.sgpr(1, false);
      return s && `s_setreg_b32 hwreg(HW_REG_MODE, 0, ${this.rng.pick([4, 8, 10])}), ${s}`;
    }
    const ops: string[] = [];
    const fpSources: number[] = [];
    let src = 0;
    const vector = f.vop !== 'salu';
    for (const { def: o, count } of f.operands) {
      if (o.role === 'dst' || (o.role === 'srcdst' && (o.kind === 'sdst' || o.kind === 'vgpr'))) {
        let d: string | undefined;
        if (o.kind === 'vgpr') d = this.vgpr(count);
        else if (o.kind === 'vcc') d = this.wave64 ? 'vcc' : 'vcc_lo';
        else d = this.scalarDst(count, o.regClass);
        if (d === undefined) return undefined;
        ops.push(d);
        continue;
      }
      const i = src++;
      if (o.kind === 'simm16') { ops.push(hex(this.rng.bits(16))); continue; }
      if (o.kind === 'literal') { ops.push(this.constant(o.type, 1, true)); continue; }
      if (o.kind === 'imm' || o.kind === 'label' || o.kind === 'hwreg') return undefined;
      const p = f.profile;
      if (f.vop === 'sdwa' && f.sdwa) {
        const m = i === 0 ? f.sdwa.src0 : f.sdwa.src1;
        // SDWA takes no literal (llvm-mc refuses one): an inline constant instead.
        let r = this.source(o, count, vector, { abs: m === 'fp', neg: m === 'fp' });
        if (r.startsWith('0x')) r = this.constant(o.type, count, false);
        ops.push(m === 'int' && /^v\d+$/.test(r) && this.rng.bool(0.2) ? `sext(${r})` : r);
        continue;
      }
      if (f.vop === 'dpp' && f.dpp) {
        // src0 (the first source) and vsrc1 are VGPRs; neg/abs ('fp') only in DPP16, added below.
        if (o.kind === 'vcc') { ops.push(this.wave64 ? 'vcc' : 'vcc_lo'); continue; }
        if ((i === 0 ? f.dpp.src0 : f.dpp.src1) === 'fp') fpSources.push(ops.length);
        ops.push(this.vgpr(count));
        continue;
      }
      const mods = f.vop === 'e64' && p ? { abs: p.abs[i] === 'a', neg: p.neg[i] === 'n' } : { abs: false, neg: false };
      ops.push(this.source(o, count, vector, mods));
    }
    if (f.vop === 'dpp') {
      // DPP16 (half of them) with neg/abs on its float sources, or DPP8.
      const is16 = this.rng.bool(0.5);
      if (is16) for (const j of fpSources) ops[j] = this.modify(ops[j] as string, { abs: true, neg: true });
      const text = `${f.name} ${ops.join(', ')}`;
      if (!is16) return `${text} dpp8:[${Array.from({ length: 8 }, () => this.rng.int(8)).join(',')}]${this.rng.bool(0.3) ? ' fi:1' : ''}`;
      const ctrl = this.rng.pick([
        `quad_perm:[${Array.from({ length: 4 }, () => this.rng.int(4)).join(',')}]`, `row_shl:${1 + this.rng.int(15)}`, `row_shr:${1 + this.rng.int(15)}`,
        `row_ror:${1 + this.rng.int(15)}`, 'row_mirror', 'row_half_mirror', `row_share:${this.rng.int(16)}`, `row_xmask:${this.rng.int(16)}`,
      ]);
      const masks = this.rng.bool(0.3) ? ` row_mask:${hex(this.rng.bits(4))} bank_mask:${hex(this.rng.bits(4))}` : ' row_mask:0xf bank_mask:0xf';
      return `${text} ${ctrl}${masks}${this.rng.bool(0.3) ? ' bound_ctrl:0' : ''}${this.rng.bool(0.3) ? ' fi:1' : ''}`;
    }
    let text = `${f.name} ${ops.join(', ')}`;
    const p = f.profile;
    if (f.vop === 'e64' && p) {
      if ((p.opsel === '3' || p.opsel === '4') && this.rng.bool(0.2)) {
        const n = p.opsel === '3' ? 3 : 4;
        const bits = Array.from({ length: n }, () => this.rng.int(2));
        text += ` op_sel:[${bits.join(',')}]`;
      }
      if (p.clamp && this.rng.bool(0.15)) text += ' clamp';
      if (p.omod && this.rng.bool(0.12)) text += ` ${this.rng.pick(['mul:2', 'mul:4', 'div:2'])}`;
    }
    if (f.vop === 'sdwa' && f.sdwa) {
      const sel = () => this.rng.pick(['BYTE_0', 'BYTE_1', 'BYTE_2', 'BYTE_3', 'WORD_0', 'WORD_1', 'DWORD']);
      const nsrc = f.operands.filter((o) => o.def.role === 'src' && o.def.kind !== 'vcc').length;
      if (f.def.family !== 'VOPC') {
        if ((f.def.modifiers ?? []).includes('clamp') && this.rng.bool(0.15)) text += ' clamp';
        if (f.sdwa.omod && this.rng.bool(0.1)) text += ` ${this.rng.pick(['mul:2', 'mul:4', 'div:2'])}`;
        text += ` dst_sel:${sel()} dst_unused:${this.rng.pick(['UNUSED_PAD', 'UNUSED_SEXT', 'UNUSED_PRESERVE'])}`;
      }
      text += ` src0_sel:${sel()}`;
      if (nsrc > 1) text += ` src1_sel:${sel()}`;
    }
    if (f.vop === 'vop3p') {
      const srcs = f.operands.filter((o) => o.def.role === 'src');
      const n = srcs.length;
      const mods = f.def.modifiers ?? [];
      const arr = () => `[${Array.from({ length: n }, () => this.rng.int(2)).join(',')}]`;
      if (mods.includes('op_sel') && this.rng.bool(0.3)) text += ` op_sel:${arr()}`;
      if (mods.includes('op_sel_hi') && this.rng.bool(0.3)) text += ` op_sel_hi:${arr()}`;
      // neg_lo/neg_hi negate float halves: only where the sources are packed floats.
      const floats = srcs.every((o) => isFloatType(o.def.type));
      if (floats && mods.includes('neg_lo') && this.rng.bool(0.2)) text += ` neg_lo:${arr()}`;
      if (floats && mods.includes('neg_hi') && this.rng.bool(0.2)) text += ` neg_hi:${arr()}`;
      if (mods.includes('clamp') && this.rng.bool(0.15)) text += ' clamp';
    }
    return text;
  }

  /**
   * n instructions. Inside a region, a MODE write is mostly drawn again: a MODE that differs
   * between the paths that join is known only at run time, and the recompiler then translates
   * every later float instruction once per possible MODE value (lavapipe's compile time grows
   * with it past the engine's fence limit).
   */
  private straight(n: number, depth: number): void {
    for (let i = 0; i < n; i++) {
      let t = this.instruction();
      if (depth > 0 && t !== undefined && MODE_WRITE.test(t) && this.rng.bool(0.9)) t = this.instruction();
      if (t !== undefined) this.emit(t, true);
    }
  }

  /** Instructions and regions, nested up to depth 2. */
  body(depth: number, budget: number): void {
    while (budget > 0) {
      if (depth >= 2 || this.rng.bool(0.8)) { this.straight(1, depth); budget--; continue; }
      const n = 2 + this.rng.int(Math.min(budget, 6));
      budget -= n;
      switch (this.rng.int(10)) {
        case 0: case 1: case 2: case 3: this.ifElse(depth, n); break;
        case 4: case 5: case 6: this.saveexec(depth, n); break;
        case 7: case 8: this.loop(depth, n); break;
        default: this.earlyExit(); break;
      }
    }
  }

  private condition(): string {
    return this.rng.pick(['s_cbranch_scc0', 's_cbranch_scc1', 's_cbranch_vccz', 's_cbranch_vccnz', 's_cbranch_execz', 's_cbranch_execnz']);
  }

  private ifElse(depth: number, n: number): void {
    const other = this.label(), end = this.label();
    this.emit(`${this.condition()} ${other}`);
    this.body(depth + 1, n);
    if (this.rng.bool(0.5)) {
      this.emit(`s_branch ${end}`);
      this.place(other);
      this.body(depth + 1, 1 + this.rng.int(n));
      this.place(end);
    } else {
      this.place(other);
    }
  }

  private saveexec(depth: number, n: number): void {
    const saved = this.sgpr(this.wave64 ? 2 : 1, true);
    if (saved === undefined) return;
    const regs = this.regsOf(saved);
    const skip = this.label();
    const w = this.wave64 ? 'b64' : 'b32';
    const vcc = this.wave64 ? 'vcc' : 'vcc_lo';
    const exec = this.wave64 ? 'exec' : 'exec_lo';
    // The lanes: a random compare (to VCC) or a mask already in the window.
    const cmp = this.rng.pick(['v_cmp_gt_u32', 'v_cmp_lt_i32', 'v_cmp_eq_u32', 'v_cmp_ne_u32', 'v_cmp_lt_f32', 'v_cmp_class_f32']);
    this.emit(`${cmp}_e32 ${vcc}, ${this.rng.bool(0.5) ? this.vgpr(1) : String(this.rng.pick(INT_INLINE))}, ${this.vgpr(1)}`, true);
    this.emit(`s_${this.rng.pick(['and', 'and', 'andn2', 'or', 'xor'])}_saveexec_${w} ${saved}, ${this.rng.bool(0.8) ? vcc : (this.sgpr(this.wave64 ? 2 : 1, false) ?? vcc)}`, true);
    for (const r of regs) this.locked.add(r);
    this.emit(`s_cbranch_execz ${skip}`);
    this.body(depth + 1, n);
    this.place(skip);
    this.emit(this.rng.bool(0.7) ? `s_or_${w} ${exec}, ${exec}, ${saved}` : `s_mov_${w} ${exec}, ${saved}`, true);
    for (const r of regs) this.locked.delete(r);
  }

  private regsOf(r: string): number[] {
    const m = /^s(\d+)$/.exec(r) ?? /^s\[(\d+):(\d+)\]$/.exec(r);
    if (!m) return [];
    const a = Number(m[1]), b = Number(m[2] ?? m[1]);
    return Array.from({ length: b - a + 1 }, (_, i) => a + i);
  }

  private loop(depth: number, n: number): void {
    const c = this.sgpr(1, true);
    if (c === undefined) return;
    const top = this.label();
    this.emit(`s_mov_b32 ${c}, ${1 + this.rng.int(4)}`);
    const regs = this.regsOf(c);
    for (const r of regs) this.locked.add(r);
    this.place(top);
    this.body(depth + 1, n);
    this.emit(`s_sub_u32 ${c}, ${c}, 1`);
    this.emit(`s_cmp_lg_u32 ${c}, 0`);
    this.emit(`s_cbranch_scc1 ${top}`);
    for (const r of regs) this.locked.delete(r);
  }

  private earlyExit(): void {
    const skip = this.label();
    this.emit(`${this.condition()} ${skip}`);
    this.emit(this.rng.bool(0.5) ? 's_endpgm' : 's_branch .Lepilogue');
    this.place(skip);
  }

  /** A MODE write at the start (random rounding, denormals, DX10_CLAMP, IEEE) half of the time. */
  start(): void {
    if (this.rng.bool(0.5)) this.emit(`s_setreg_imm32_b32 hwreg(HW_REG_MODE, 0, 10), ${hex(this.rng.bits(10))}`, true);
  }
}

/** The VGPR/SGPR/VCC/EXEC/SCC initial state of one program: random dwords biased to edges. */
export function initialState(rng: Rng, wave64: boolean): Uint8Array {
  const b = new Uint8Array(stride(wave64));
  const v = new DataView(b.buffer);
  const value = () => {
    switch (rng.int(8)) {
      case 0: return rng.pick([0, 1, 2, 0xffffffff, 0x80000000, 0x7fffffff, 31, 32, 63, 64]);
      case 1: return rng.pick(F32_EDGES);
      case 2: return (rng.pick(F16_EDGES) | (rng.pick(F16_EDGES) << 16)) >>> 0;
      case 3: return rng.u32() >>> rng.int(32);
      case 4: return ((rng.u32() & 0x807fffff) | ((0x70 + rng.int(32)) << 23)) >>> 0; // f32 near 1
      case 5: return ((rng.u32() & 0x800fffff) | ((0x3f0 + rng.int(32)) << 20)) >>> 0; // f64 high dword near 1
      default: return rng.u32();
    }
  };
  for (let i = 0; i < NS; i++) v.setUint32(4 * i, value(), true);
  const lanes = wave64 ? 64 : 32;
  const mask = () => (rng.bool(0.4) ? 0xffffffff : rng.bool(0.2) ? 0 : rng.u32());
  v.setUint32(64, mask(), true);
  if (wave64) v.setUint32(68, mask(), true);
  // EXEC: all lanes, or a random nonzero set.
  const e0 = rng.bool(0.5) ? 0xffffffff : rng.u32() | 1;
  v.setUint32(72, e0, true);
  if (wave64) v.setUint32(76, rng.bool(0.5) ? 0xffffffff : rng.u32(), true);
  v.setUint32(80, rng.int(2), true);
  for (let l = 0; l < lanes; l++) for (let r = 0; r < NV; r++) v.setUint32(128 + 64 * l + 4 * r, rng.bool(0.3) ? value() : rng.u32() >>> rng.int(20), true);
  return b;
}

/** A random program from its seed. */
export function program(seed: number, index: number, wave64: boolean, pool: readonly Form[]): Program {
  const rng = new Rng(seed);
  const lines: Line[] = [];
  const g = new Gen(rng, wave64, pool, index, lines);
  g.start();
  g.body(0, 12 + rng.int(28));
  return { index, seed, lines };
}

/** The kernel body of a batch: prologue, program selection by workgroup id (workgroup k runs programs[k]), the programs, the epilogue. */
export function batchBody(programs: readonly Program[], wave64: boolean): { body: string; lines: Line[] } {
  const w = wave64 ? 'b64' : 'b32';
  const exec = wave64 ? 'exec' : 'exec_lo', vcc = wave64 ? 'vcc' : 'vcc_lo';
  const pair = (lo: number) => (wave64 ? `s[${lo}:${lo + 1}]` : `s${lo}`);
  const lines: Line[] = [];
  const fixed = (t: string) => lines.push({ text: t, random: false });
  // Bases: s[32:33] input, s[34:35] output of this workgroup's program; v40 = lane * 64.
  fixed('s_load_dwordx4 s[32:35], s[0:1], 0x0');
  fixed(`s_mul_i32 s36, s2, ${stride(wave64)}`);
  fixed('v_lshlrev_b32 v40, 6, v0');
  fixed('s_waitcnt lgkmcnt(0)');
  fixed('s_add_u32 s32, s32, s36');
  fixed('s_addc_u32 s33, s33, 0');
  fixed('s_add_u32 s34, s34, s36');
  fixed('s_addc_u32 s35, s35, 0');
  for (let i = 0; i < NV / 4; i++) fixed(`global_load_dwordx4 v[${4 * i}:${4 * i + 3}], v40, s[32:33] offset:${128 + 16 * i}`);
  fixed('s_load_dwordx16 s[8:23], s[32:33], 0x0');
  fixed('s_load_dwordx8 s[24:31], s[32:33], 0x40');
  fixed('s_waitcnt vmcnt(0) lgkmcnt(0)');
  programs.forEach((_, k) => { fixed(`s_cmp_eq_u32 s2, ${k}`); fixed(`s_cbranch_scc1 .Lprog${k}`); });
  fixed('s_endpgm');
  for (const [k, p] of programs.entries()) {
    lines.push({ text: `.Lprog${k}:`, random: false, label: true });
    // VCC, SCC and EXEC from the record (s[24:25], s28, s[26:27]); nothing after sets SCC.
    fixed(`s_mov_${w} ${vcc}, ${pair(24)}`);
    fixed('s_cmp_lg_u32 s28, 0');
    fixed(`s_mov_${w} ${exec}, ${pair(26)}`);
    lines.push(...p.lines);
    fixed('s_branch .Lepilogue');
  }
  lines.push({ text: '.Lepilogue:', random: false, label: true });
  fixed('s_cselect_b32 s29, 1, 0');
  fixed(`s_mov_${w} ${pair(30)}, ${exec}`);
  fixed(`s_mov_${w} ${exec}, -1`);
  for (let i = 0; i < NV / 4; i++) fixed(`global_store_dwordx4 v40, v[${4 * i}:${4 * i + 3}], s[34:35] offset:${128 + 16 * i}`);
  for (let i = 0; i < NS; i++) fixed(`v_mov_b32 v${41 + i}, s${S0 + i}`);
  fixed('v_mov_b32 v57, vcc_lo');
  fixed(wave64 ? 'v_mov_b32 v58, vcc_hi' : 'v_mov_b32 v58, 0');
  fixed('v_mov_b32 v59, s30');
  fixed(wave64 ? 'v_mov_b32 v60, s31' : 'v_mov_b32 v60, 0');
  fixed('v_mov_b32 v61, s29');
  fixed('v_mov_b32 v62, 1');
  fixed('v_mov_b32 v63, 0');
  fixed('v_mov_b32 v64, 0');
  fixed('v_mov_b32 v65, 0');
  fixed(`s_mov_${w} ${exec}, 1`);
  for (let i = 0; i < 6; i++) fixed(`global_store_dwordx4 v65, v[${41 + 4 * i}:${44 + 4 * i}], s[34:35] offset:${16 * i}`);
  fixed('s_endpgm');
  return { body: lines.map((l) => (l.label ? l.text : `  ${l.text}`)).join('\n'), lines };
}

/** What the first differing byte of an output record is: the register, and the lane for a VGPR. */
export function describeOffset(offset: number, wave64: boolean): { program: number; where: string } {
  const s = stride(wave64);
  const program = Math.floor(offset / s);
  const o = offset % s;
  if (o >= 128) { const l = Math.floor((o - 128) / 64); return { program, where: `lane ${l} v${Math.floor(((o - 128) % 64) / 4)}` }; }
  const d = o >> 2;
  const names: Record<number, string> = { 16: 'vcc_lo', 17: 'vcc_hi', 18: 'exec_lo', 19: 'exec_hi', 20: 'scc', 21: 'the epilogue marker (the wave ended by s_endpgm on one side)' };
  return { program, where: d < NS ? `s${S0 + d}` : names[d] ?? `dword ${d}` };
}

/** How often the generator draws from each family (the table has many more compares than anything else). */
const FAMILY_WEIGHT: Readonly<Record<string, number>> = { SOP1: 8, SOP2: 12, SOPK: 3, SOPC: 4, VOP1: 12, VOP2: 14, VOPC: 9, VOP3: 26, VOP3P: 8 };

/** Lane-crossing, lane-mask and carry instructions: drawn more often than their share of the table. */
const BOOSTED = /^(v_readlane_b32|v_readfirstlane_b32|v_writelane_b32|v_cndmask_b32|s_\w+_saveexec_b(32|64)|s_(mov|and|or|xor|andn2|orn2|not|wqm)_b(32|64)|v_add_co_u32|v_sub_co_u32|v_add_co_ci_u32|v_sub_co_ci_u32|v_mad_u64_u32|v_mad_i64_i32|s_cselect_b(32|64)|s_(add|sub)c_u32|v_cmp_(eq|lt|gt|ne)_(u32|i32|f32|u64|f64))$/;

/** The pool with each family's forms repeated by its weight over its size (at least once each). */
export function weightedPool(all: readonly Form[]): Form[] {
  const by = new Map<string, Form[]>();
  for (const f of all) by.set(f.def.family, [...(by.get(f.def.family) ?? []), f]);
  const total = Math.max(...[...by].map(([fam, fs]) => fs.length / (FAMILY_WEIGHT[fam] ?? 1)));
  const out: Form[] = [];
  for (const [fam, fs] of by) {
    const reps = Math.max(1, Math.round(((FAMILY_WEIGHT[fam] ?? 1) * total) / fs.length));
    for (let i = 0; i < reps; i++) out.push(...fs);
  }
  // The lane and mask instructions the brief names, a few times each family's share.
  const boosted = out.filter((f) => BOOSTED.test(f.def.mnemonic));
  for (let i = 0; i < 3; i++) out.push(...boosted);
  return out;
}

/** The launch MODE of a batch's kernel (each program may change it with s_setreg_imm32_b32). */
export interface Launch {
  readonly floatMode: number;
  readonly ieeeMode: boolean;
  readonly dx10Clamp: boolean;
}

/** Instructions left out of a batch, by who refused them. */
export interface Refusals {
  assembler: number;
  recompiler: number;
  interpreter: number;
  /** The refused lines, with the reason (first 200 characters). */
  readonly lines: string[];
}

export interface Batch {
  readonly programs: readonly Program[];
  readonly wave64: boolean;
  readonly shader: Shader;
  readonly spirv: Uint32Array;
  readonly faults: readonly RecompiledFault[];
  /** What one Vulkan workgroup of the module runs (recompile's `dispatch`). */
  readonly dispatch: 'wave' | 'workgroup';
  readonly input: Uint8Array;
  /** The output buffer before the run (a pattern, so that what no one writes is compared too). */
  readonly output: Uint8Array;
  /** The interpreter's buffers after the run. */
  readonly reference: Uint8Array[];
  /** Random instructions that ran (generated minus refused). */
  readonly instructions: number;
}

let tmp: string | undefined;
let seq = 0;

/** llvm-mc-19 on the batch; the lines it rejects (file line numbers) with its message, or the code object. */
function assembleOnce(spec: KernelSpec, wave64: boolean): { code: Uint8Array } | { errors: Map<number, string> } {
  tmp ??= mkdtempSync(join(tmpdir(), 'rdna-fuzz-'));
  const s = join(tmp, `b${process.pid}-${seq}.s`), o = join(tmp, `b${process.pid}-${seq++}.o`);
  writeFileSync(s, kernelSource([spec]));
  const r = spawnSync(LLVM_MC, ['-triple=amdgcn-amd-amdhsa', '-mcpu=gfx1030', ...(wave64 ? ['-mattr=+wavefrontsize64'] : []), '-filetype=obj', s, '-o', o], { encoding: 'utf8', maxBuffer: 1 << 28 });
  if (r.status === 0) return { code: new Uint8Array(readFileSync(o)) };
  const errors = new Map<number, string>();
  for (const m of (r.stderr ?? '').matchAll(/\.s:(\d+):\d+: error: (.*)/g)) errors.set(Number(m[1]), m[2] ?? '');
  if (errors.size === 0) throw new Error(`llvm-mc failed: ${r.stderr || r.error?.message}`);
  return { errors };
}

/** The pc of each instruction line (labels excluded), by decoding the kernel linearly. */
function pcsOf(shader: Shader, lines: readonly Line[]): Map<number, Line> {
  const out = new Map<number, Line>();
  let index = 0;
  for (const l of lines) {
    if (l.label) continue;
    const d = decodeAt('gfx1030', shader.words, index, shader.words.length, shader.basePc + 4 * index);
    out.set(d.pc, l);
    index += d.size / 4;
  }
  return out;
}

/**
 * Assembles, recompiles and interprets a batch, leaving out each random instruction that llvm-mc
 * rejects, the recompiler refuses (TranslateError) or the interpreter does not implement or model;
 * anything else that fails is thrown. The refusals are counted in `refused`.
 */
export function buildBatch(programs: readonly Program[], wave64: boolean, launch: Launch, inputs: Uint8Array, refused: Refusals): Batch {
  const dropped = new Set<Line>();
  const lanes = wave64 ? 64 : 32;
  for (let round = 0; ; round++) {
    if (round > 40) throw new Error('buildBatch: too many rounds of refusals');
    const kept = programs.map((p) => ({ ...p, lines: p.lines.filter((l) => !dropped.has(l)) }));
    const { body, lines } = batchBody(kept, wave64);
    const spec: KernelSpec = { name: 'fuzz', body, wave64, vgprs: 72, sgprs: 40, ...launch, directives: [...KERNARG_DIRECTIVES, '.amdhsa_system_sgpr_workgroup_id_x 1'] };
    const a = assembleOnce(spec, wave64);
    if ('errors' in a) {
      // Body line j is file line first + j (kernelSource writes the body after the kernel's label).
      const first = kernelSource([spec]).split('\n').indexOf('fuzz:') + 2;
      for (const [n, why] of a.errors) {
        const l = lines[n - first];
        if (!l?.random) throw new Error(`llvm-mc rejects the scaffolding at line ${n}: ${why}\n${l?.text}`);
        dropped.add(l);
        refused.assembler++;
        refused.lines.push(`llvm-mc: ${l.text}: ${why}`.slice(0, 200));
      }
      continue;
    }
    const shader = loadShaders({ bytes: a.code, name: 'fuzz' }).find((x) => x.info.name === 'fuzz');
    if (!shader) throw new Error('no kernel fuzz');
    const at = pcsOf(shader, lines);
    const drop = (pc: number | undefined, e: Error, who: 'recompiler' | 'interpreter'): boolean => {
      const l = pc === undefined ? undefined : at.get(pc);
      if (!l?.random) return false;
      dropped.add(l);
      refused[who]++;
      refused.lines.push(`${who}: ${l.text}: ${e.message}`.slice(0, 200));
      return true;
    };
    let compiled: { spirv: Uint32Array; faults: readonly RecompiledFault[]; dispatch: 'wave' | 'workgroup' };
    try {
      compiled = recompile(shader, { profile: LAVAPIPE_PROFILE });
    } catch (e) {
      if (e instanceof TranslateError && drop(e.pc, e, 'recompiler')) continue;
      throw e;
    }
    const output = new Uint8Array(inputs.length).fill(0xa5);
    let reference: Uint8Array[];
    try {
      reference = interpret({ shader, buffers: [inputs, output], grid: [lanes * programs.length, 1, 1], block: [lanes, 1, 1], scalars: [] });
    } catch (e) {
      const refusal = e instanceof UnimplementedError || (e instanceof InterpError && /not modelled|not implemented/.test(e.message));
      if (refusal && drop((e as InterpError).pc, e as Error, 'interpreter')) continue;
      throw e;
    }
    const instructions = lines.filter((l) => l.random).length;
    return { programs: kept, wave64, shader, spirv: compiled.spirv, faults: compiled.faults, dispatch: compiled.dispatch, input: inputs, output, reference, instructions };
  }
}

/** A program's text as it ran (what a failure prints). */
export function programText(p: Program): string {
  return p.lines.map((l) => (l.label ? l.text : `  ${l.text}`)).join('\n');
}
