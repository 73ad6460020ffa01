// Operand plumbing of the f16, f64 and 16-bit integer VALU units (valu-f16.ts, valu-f64.ts,
// valu-int16.ts), as the interpreter's executor (src/interp/units/valu.ts) reads and writes them:
// sources by their table types (64-bit pairs; a 16-bit source is the half op_sel picks, the low
// half of a constant or literal; SDWA's byte/word selects, sign-extended with sext; float neg/abs
// on the format's sign bit after the select), results to the active lanes (a 16-bit result into
// the half op_sel[3] names, the other half kept, as gfx10 writes it; SDWA's dst_sel field with
// dst_unused padding, sign extension or preservation), compare results as lane masks or EXEC, and
// the FloatMode of conversions between widths (input flush by the source width's FP_DENORM field,
// rounding and output flush by the destination's, as convertEnvFor). A DPP16/DPP8 form's src0
// comes from its source lane and its results land in its lanes only (./dpp.ts).
import type { Operand } from '../../decode/types.js';
import { NO_FLAGS, type DataType, type FloatType } from '../../isa/types.js';
import type { FloatMode, Inst } from '../../ir/ir.js';
import { valuMode } from '../../analysis/mode.js';
import { EXEC_LO, floatModeOf, type TContext } from '../context.js';
import { settleUnread } from '../mode-reads.js';
import { dppLanes } from './dpp.js';
import { listOf } from '../../ir/ir.js';

/** VOPC float predicates in opcode order (FCmp's immediate). */
export const FPRED = ['f', 'lt', 'eq', 'le', 'gt', 'lg', 'ge', 'o', 'u', 'nge', 'nlg', 'ngt', 'nle', 'neq', 'nlt', 'tru'] as const;

const is64 = (t: DataType) => t === 'f64' || t === 'b64' || t === 'i64' || t === 'u64';
const is16 = (t: DataType) => t === 'f16' || t === 'i16' || t === 'u16' || t === 'b16';

/** What an instruction does with clamp/omod (as its interpreter semantics): 'float' (the result's output modifiers), 'int-result' (clamp moot, omod refused), 'ignore' (compares), 'refuse'. */
export type OutMods = 'float' | 'int-result' | 'ignore' | 'refuse';

export interface Io {
  /** Sources in table order: u32 (a 16-bit source in the low half, zero-extended), u64 for 64-bit ones. */
  readonly srcs: Inst[];
  /** The same sources by operand name (src0, src1/vsrc1, src2, vdst for an accumulator). */
  readonly named: ReadonlyMap<string, Inst>;
  readonly maskIn: Inst | undefined;
  readonly vdst: { readonly op: Operand; readonly type: DataType } | undefined;
  readonly maskDst: Operand | undefined;
  /** The lanes the results land in: EXEC, narrowed by a DPP form's rules (./dpp.ts). */
  readonly active: Inst;
}

/** The op_sel bit of a 16-bit source (src0, src1, src2; an accumulator read as a source comes last: 2). */
const opselBit = (name: string) => (name === 'src0' ? 0 : name === 'src1' || name === 'vsrc1' ? 1 : 2);

/** SDWA's source select (0..3 a byte, 4..5 a word, 6 the dword), zero- or sign-extended. */
export function sdwaSelect(cx: TContext, v: Inst, sel: number, sext: boolean): Inst {
  if (sel >= 6) return v;
  const width = sel <= 3 ? 8 : 16, off = sel <= 3 ? 8 * sel : 16 * (sel - 4);
  return cx.b.emit(sext ? 'SBfe32' : 'UBfe32', listOf(v, cx.u32(off), cx.u32(width)));
}

/** Reads the sources and finds the destinations; refuses the modifiers the interpreter refuses. */
export function io(cx: TContext, mods: OutMods): Io {
  const i = cx.inst;
  const dpp = dppLanes(cx);
  const sdwa = i.variant === 'sdwa' ? i.mods.sdwa ?? cx.fail('an SDWA form without its selects') : undefined;
  if (sdwa) cx.sdwaApplied = true;
  if ((i.mods.clamp || i.mods.omod) && mods === 'refuse') cx.fail(`${i.def.mnemonic} with clamp/omod is not modelled (the interpreter refuses it too)`);
  if (i.mods.omod && mods === 'int-result') cx.fail(`${i.def.mnemonic}: omod on an integer result is not modelled (the interpreter refuses it too)`);
  const defs = i.def.operands.length === i.operands.length ? i.def.operands : undefined;
  if (!defs) cx.fail('operand layout not understood');
  const b = cx.b, opsel = i.mods.opsel ?? 0;
  const srcs: Inst[] = [];
  const named = new Map<string, Inst>();
  const push = (name: string, v: Inst) => { srcs.push(v); named.set(name, v); };
  let maskIn: Inst | undefined, vdst: Io['vdst'], maskDst: Operand | undefined;
  // Indexed, with `continue`: no closure per instruction.
  const ops = i.operands;
  for (let k = 0; k < ops.length; k++) {
    const op = ops[k] as Operand;
    const d = defs[k];
    if (!d) continue;
    if (d.role === 'dst' || d.role === 'srcdst') {
      if (d.type === 'mask') maskDst = op; else vdst = { op, type: d.type };
    }
    if (d.role !== 'src' && d.role !== 'srcdst') continue;
    if (d.type === 'mask') { maskIn = cx.maskBit(op.value); continue; }
    if (is64(d.type)) {
      if (dpp && op.name === 'src0') cx.fail('a DPP form with a 64-bit src0 (internal)');
      let hi = cx.lane(op.value, d.type, 1);
      if (op.abs) hi = b.emit('And32', listOf(hi, cx.u32(0x7fffffff)));
      if (op.neg) hi = b.emit('Xor32', listOf(hi, cx.u32(0x80000000)));
      push(op.name, cx.pack(cx.lane(op.value, d.type, 0), hi));
      continue;
    }
    let v = cx.lane(op.value, d.type, 0);
    if (dpp && op.name === 'src0') v = dpp.src0(v);
    let sign = 0x80000000;
    if (sdwa) {
      // The select, then (for a 16-bit type) its low half; src1's select names VOP2's vsrc1 too.
      const sel = op.name === 'src0' ? sdwa.src0Sel : op.name === 'src1' || op.name === 'vsrc1' ? sdwa.src1Sel ?? 6 : 6;
      v = sdwaSelect(cx, v, sel, op.sext ?? false);
      if (is16(d.type)) { v = b.emit('And32', listOf(v, cx.u32(0xffff))); sign = 0x8000; }
    } else if (is16(d.type)) {
      const high = ((opsel >>> opselBit(op.name)) & 1) === 1 && op.value.kind !== 'inline' && op.value.kind !== 'literal';
      v = high ? b.emit('LShr32', listOf(v, cx.u32(16))) : b.emit('And32', listOf(v, cx.u32(0xffff)));
      sign = 0x8000;
    }
    if (op.abs) v = b.emit('And32', listOf(v, cx.u32(~sign >>> 0)));
    if (op.neg) v = b.emit('Xor32', listOf(v, cx.u32(sign)));
    push(op.name, v);
  }
  return { srcs, named, maskIn, vdst, maskDst, active: dpp?.active ?? cx.execBit() };
}

export const src = (cx: TContext, o: Io, k: number): Inst => o.srcs[k] ?? cx.fail(`missing source ${k}`);

/** Writes the result (u32, or u64 for a 64-bit destination) to the active lanes; a 16-bit destination gets its half. */
export function result(cx: TContext, o: Io, r: Inst): void {
  const d = o.vdst ?? cx.fail('no destination');
  if (d.op.value.kind !== 'vgpr') cx.fail(`a VALU result to ${d.op.value.kind}`);
  const b = cx.b, active = o.active;
  if (is64(d.type)) {
    cx.writeLane(d.op.value, b.emit('Lo32', listOf(r)), 0, active);
    cx.writeLane(d.op.value, b.emit('Hi32', listOf(r)), 1, active);
    return;
  }
  if (sdwaWrite(cx, d.op, r, active)) return;
  if (is16(d.type)) {
    const old = b.getVgpr(d.op.value.index);
    const hi = ((cx.inst.mods.opsel ?? 0) & 8) !== 0;
    const h = b.emit('And32', listOf(r, cx.u32(0xffff)));
    const merged = hi ? b.emit('Or32', listOf(b.emit('And32', listOf(old, cx.u32(0xffff))), b.emit('Shl32', listOf(h, cx.u32(16))))) : b.emit('Or32', listOf(b.emit('And32', listOf(old, cx.u32(0xffff0000))), h));
    cx.writeLane(d.op.value, merged, 0, active);
    return;
  }
  cx.writeLane(d.op.value, r, 0, active);
}

/**
 * An SDWA form's 32-bit result under its dst_sel (below DWORD): the result's low bits into the
 * field; dst_unused 0 pads with zeros, 1 sign-extends the field's top bit into the bits above it
 * (those below are 0), 2 keeps the register's other bits. False (nothing written) for any other form.
 */
export function sdwaWrite(cx: TContext, dst: Operand, r: Inst, active: Inst): boolean {
  const sdwa = cx.inst.variant === 'sdwa' ? cx.inst.mods.sdwa : undefined;
  if (!sdwa || sdwa.dstSel === undefined || sdwa.dstSel >= 6) return false;
  if (dst.value.kind !== 'vgpr') cx.fail(`an SDWA result to ${dst.value.kind}`);
  const b = cx.b;
  const sel = sdwa.dstSel, width = sel <= 3 ? 8 : 16, shift = sel <= 3 ? 8 * sel : 16 * (sel - 4);
  const field = ((((1 << width) - 1) << shift) >>> 0);
  const x = b.emit('And32', listOf(b.emit('Shl32', listOf(r, cx.u32(shift))), cx.u32(field)));
  let out = x;
  if (sdwa.dstUnused === 2) out = b.emit('Or32', listOf(b.emit('And32', listOf(b.getVgpr(dst.value.index), cx.u32(~field >>> 0))), x));
  else if (sdwa.dstUnused === 1 && shift + width < 32) {
    const top = b.emit('INe32', listOf(b.emit('And32', listOf(r, cx.u32(1 << (width - 1)))), cx.u32(0)));
    out = b.emit('Or32', listOf(x, b.emit('Select32', listOf(top, cx.u32(~((1 << (shift + width)) - 1) >>> 0), cx.u32(0)))));
  }
  cx.writeLane(dst.value, out, 0, active);
  return true;
}

/** A compare's per-lane bit: to the mask destination (VCC or SGPRs), or to EXEC (cmpx); inactive lanes give 0. */
export function writeCompare(cx: TContext, o: Io, bit: Inst): void {
  const b = cx.b;
  const v = b.emit('AndU1', listOf(o.active, bit));
  if ((cx.inst.def.flags ?? NO_FLAGS).includes('cmpx')) {
    b.emit('SetSgpr', listOf(b.emit('BallotLo', listOf(v))), listOf(EXEC_LO));
    if (cx.waveSize === 64) b.emit('SetSgpr', listOf(b.emit('BallotHi', listOf(v))), listOf(EXEC_LO + 1));
  } else if (o.maskDst) cx.writeMask(o.maskDst.value, v);
  else cx.fail('a compare without a destination');
}

/**
 * The FloatMode of a `from` → `to` conversion at this instruction: rounding, IEEE and DX10_CLAMP
 * as for `to`, the denorm field's input bit from `from`'s FP_DENORM and its output bit from `to`'s
 * (the IR's conversions read flushIn and flushOut from those bits); `rtz` forces toward zero
 * (the table's 'mode:rtz', v_cvt_pkrtz_f16_f32).
 */
export function convertMode(cx: TContext, from: FloatType, to: FloatType, rtz = false): FloatMode {
  // In one copy of a run under a run-time MODE (src/frontend/dynamic-mode.ts), that copy's MODE:
  // the copies cover every bit a conversion reads, both widths' included; elsewhere the bits it
  // does not read settled (mode-reads.ts).
  const bits = cx.modeOverride ?? settleUnread(cx.inst, (cx.mode.before(cx.inst.pc) ?? cx.fail('the MODE analysis has no state for this instruction')).mode);
  const s = valuMode(cx.inst.pc, from, bits), d = valuMode(cx.inst.pc, to, bits);
  if (s.denorm === 'dynamic' || d.denorm === 'dynamic' || d.round === 'dynamic' || d.ieee === 'dynamic' || d.dx10Clamp === 'dynamic' || d.f16Ovfl === 'dynamic') {
    return cx.fail('a conversion under a MODE only known at run time outside a copy of its run (internal)');
  }
  // One record per value (floatModeOf), not one per conversion: the passes' per-process tables are keyed by record.
  return floatModeOf(rtz ? 3 : (d.round as 0 | 1 | 2 | 3), ((s.denorm & 1) | (d.denorm & 2)) as 0 | 1 | 2 | 3, d.ieee, d.dx10Clamp, d.f16Ovfl ?? false);
}

/** The result's clamp/omod as the format's FOutMod op under `mode` (the interpreter's om16 / om64 with the result's env). */
export function outMods(cx: TContext, op: 'FOutMod16' | 'FOutMod32' | 'FOutMod64', r: Inst, mode: FloatMode): Inst {
  const m = cx.inst.mods;
  return m.clamp || m.omod ? cx.b.emit(op, listOf(r), listOf(m.omod ?? 0, m.clamp ? 1 : 0), { float: mode }) : r;
}
