// The VALU executor: one loop over the wave's lanes for every VOP1/VOP2/VOPC/VOP3/VOP3P form and
// its DPP16/DPP8/SDWA variants. It reads sources by the table's operand types (inline constants
// and literals in the type's representation, 16-bit halves by op_sel or SDWA select, DPP lane
// permutations, float neg/abs), hands the per-lane values to the instruction's semantics (a pure
// function in one of the valu-*.ts tables), and writes the result (SDWA dst_sel/dst_unused, op_sel
// high half, VGPR pairs, lane-mask bits of carries and compares). Lanes off in EXEC are neither
// read nor written. RDNA2 ISA reference: "Vector ALU Operations", DPP and SDWA sections.
import type { Instruction, Operand } from '../../decode/types.js';
import type { DataType, OperandDef } from '../../isa/types.js';
import { type ExecContext, type Handler } from '../context.js';
import { InterpError, UnimplementedError } from '../errors.js';
import { readLane, readMask, readScalar, writeLane, writeMask } from '../operands.js';
import { EXEC_LO } from '../state.js';

export type Val = number | bigint;

/** What a lane's semantics sees besides its source values. */
export interface LaneEnv {
  /** MODE in force for this instruction. */
  readonly mode: number;
  lane: number;
  /** The lane's bit of a mask source (carry-in, v_cndmask select). */
  readonly maskIn: boolean;
  /** Output modifiers of the encoding (0 / false when absent). */
  readonly clamp: boolean;
  readonly omod: number;
  /** Set by the semantics: the lane's bit of the mask destination (carry-out, compare result). */
  maskOut: boolean;
}

export interface ValuSemantics {
  readonly f: (s: readonly Val[], e: LaneEnv) => Val;
  /** The semantics applies clamp/omod itself (float ops, saturating integer ops); otherwise they must be 0. */
  readonly outMods?: boolean;
  /** VOPC compare: the result is the mask bit (maskOut); there is no vdst. 'x' forms also write EXEC. */
  readonly compare?: 'cmp' | 'cmpx';
}

const is64 = (t: DataType) => t === 'f64' || t === 'b64' || t === 'i64' || t === 'u64';
const is16 = (t: DataType) => t === 'f16' || t === 'i16' || t === 'u16' || t === 'b16';

/** The table definitions of the decoded operands (by position, which the decoder keeps; by name otherwise). */
function defsOf(inst: Instruction): (OperandDef | undefined)[] {
  const defs = inst.def.operands;
  if (defs.length === inst.operands.length) return [...defs];
  return inst.operands.map((o) => defs.find((d) => d.name === o.name || (o.name === 'src1' && d.name === 'vsrc1')));
}

interface Plan {
  readonly srcs: { readonly op: Operand; readonly type: DataType; readonly index: number }[];
  readonly maskSrc?: Operand;
  readonly vdst?: { readonly op: Operand; readonly type: DataType };
  readonly maskDst?: Operand;
}

const plans = new WeakMap<Instruction, Plan>();

function planOf(inst: Instruction): Plan {
  let p = plans.get(inst);
  if (p) return p;
  const defs = defsOf(inst);
  const srcs: Plan['srcs'][number][] = [];
  let maskSrc: Operand | undefined, vdst: Plan['vdst'], maskDst: Operand | undefined;
  inst.operands.forEach((op, k) => {
    const d = defs[k];
    const type = d?.type ?? 'b32';
    if (d?.role === 'dst' || d?.role === 'srcdst') {
      if (type === 'mask') maskDst = op; else vdst = { op, type };
    }
    if (d === undefined || d.role === 'src' || d.role === 'srcdst') {
      if (type === 'mask') maskSrc = op;
      else srcs.push({ op, type, index: srcs.length });
    }
  });
  p = { srcs, ...(maskSrc ? { maskSrc } : {}), ...(vdst ? { vdst } : {}), ...(maskDst ? { maskDst } : {}) };
  plans.set(inst, p);
  return p;
}

/** DPP16 source lane for lane l, or -1 when the control names no lane (out of the row). */
export function dpp16Source(ctrl: number, l: number): number {
  const row = l & ~15, r = l & 15;
  if (ctrl <= 0xff) return (l & ~3) + ((ctrl >>> (2 * (l & 3))) & 3);
  const n = ctrl & 0xf;
  switch (ctrl & 0x1f0) {
    case 0x100: return r + n < 16 ? l + n : -1; // row_shl: read from the lane n above
    case 0x110: return r - n >= 0 ? l - n : -1; // row_shr: read from the lane n below
    case 0x120: return row + ((r - n + 16) & 15); // row_ror
    case 0x140:
      if (n === 0) return row + 15 - r; // row_mirror
      if (n === 1) return (l & ~7) + 7 - (l & 7); // row_half_mirror
      break;
    case 0x150: return row + n; // row_share
    case 0x160: return row + (r ^ n); // row_xmask
    default: break;
  }
  throw new InterpError(`dpp_ctrl 0x${ctrl.toString(16)} is not a gfx10 control`);
}

function selectBits(v: number, sel: number, sext: boolean): number {
  if (sel >= 6) return v >>> 0;
  const width = sel <= 3 ? 8 : 16;
  const shift = sel <= 3 ? sel * 8 : (sel - 4) * 16;
  const x = (v >>> shift) & ((1 << width) - 1);
  return sext ? ((x << (32 - width)) >> (32 - width)) >>> 0 : x;
}

/**
 * neg/abs on the sign bit of a source (bit 15, 31 or 63 by the operand's width). The encodings
 * allow them only on operands that take float modifiers (float types, and the b32 sources of
 * v_cndmask_b32, whose e64 form takes them), so they are applied whatever the table type.
 */
function floatMods(v: Val, type: DataType, neg: boolean, abs: boolean): Val {
  if (!neg && !abs) return v;
  if (typeof v === 'bigint') {
    let x = v;
    if (abs) x &= ~(1n << 63n);
    if (neg) x ^= 1n << 63n;
    return x;
  }
  const sign = is16(type) ? 0x8000 : 0x80000000;
  let x = v;
  if (abs) x &= ~sign;
  if (neg) x ^= sign;
  return x >>> 0;
}


/** Executes one VALU instruction with `sem` on every active lane. */
export function execValu(inst: Instruction, cx: ExecContext, sem: ValuSemantics): void {
  const st = cx.st;
  const p = planOf(inst);
  const m = inst.mods;
  const clamp = m.clamp ?? false, omod = m.omod ?? 0;
  if ((clamp || omod) && !sem.outMods) throw new UnimplementedError(`${inst.def.mnemonic} with clamp/omod is not modelled`);
  const opsel = m.opsel ?? 0;
  const sdwa = m.sdwa, dpp = m.dpp, dpp8 = m.dpp8;
  const ws = st.waveSize;
  // Lane masks as two dwords (no BigInt per lane: this loop is the interpreter's hot path).
  const execLo = st.sgpr[EXEC_LO] ?? 0, execHi = ws === 64 ? st.sgpr[EXEC_LO + 1] ?? 0 : 0;
  const mIn = p.maskSrc ? readMask(st, p.maskSrc.value) : 0n;
  const maskInLo = Number(mIn & 0xffffffffn), maskInHi = Number((mIn >> 32n) & 0xffffffffn);
  let outLo = 0, outHi = 0;
  const values: Val[] = new Array<Val>(p.srcs.length);
  const env: LaneEnv = { mode: st.mode, lane: 0, maskIn: false, clamp, omod, maskOut: false };
  const execBit = (l: number) => ((l < 32 ? execLo >>> l : execHi >>> (l - 32)) & 1) === 1;
  // DPP reads src0 in other lanes: every lane's sources are read before any lane's result is
  // written (vdst may be src0: v_mov_b32_dpp v1, v1 row_shr:1 reads the lanes' old values).
  const deferred: { l: number; r: Val }[] | undefined = dpp || dpp8 ? [] : undefined;
  for (let l = 0; l < ws; l++) {
    if (!execBit(l)) continue;
    // DPP: src0 comes from another lane; a lane with no valid source is written 0 (bound_ctrl) or not at all.
    let src0Lane = l;
    if (dpp8) src0Lane = (l & ~7) + (dpp8.sel[l & 7] ?? 0);
    else if (dpp) {
      if (((dpp.rowMask >>> (l >>> 4)) & 1) === 0 || ((dpp.bankMask >>> ((l >>> 2) & 3)) & 1) === 0) continue;
      src0Lane = dpp16Source(dpp.ctrl, l);
    }
    const fi = dpp8?.fi ?? dpp?.fi ?? false;
    const src0Invalid = src0Lane < 0 || src0Lane >= ws || (!fi && !execBit(src0Lane));
    if ((dpp || dpp8) && src0Invalid && !dpp?.boundCtrl) continue;
    for (const s of p.srcs) {
      // DPP permutes and SDWA selects src0 (and src1) by name: an accumulator (vdst read as a
      // source) is not src0 even when it comes first.
      const isSrc0 = s.op.name === 'src0';
      const lane = isSrc0 ? src0Lane : l;
      let v: Val;
      if (isSrc0 && (dpp || dpp8) && src0Invalid) v = is64(s.type) ? 0n : 0;
      else if (is64(s.type)) v = BigInt(readLane(st, s.op.value, s.type, lane, 0)) | (BigInt(readLane(st, s.op.value, s.type, lane, 1)) << 32n);
      else {
        let w = readLane(st, s.op.value, s.type, lane, 0);
        if (sdwa) {
          const sel = isSrc0 ? sdwa.src0Sel : s.op.name === 'src1' || s.op.name === 'vsrc1' ? sdwa.src1Sel ?? 6 : 6;
          w = selectBits(w, sel, s.op.sext ?? false);
        } else if (is16(s.type)) {
          const bit = s.op.name === 'src0' ? 0 : s.op.name === 'src1' || s.op.name === 'vsrc1' ? 1 : s.op.name === 'src2' ? 2 : s.index;
          w = ((opsel >>> bit) & 1) && s.op.value.kind !== 'inline' && s.op.value.kind !== 'literal' ? w >>> 16 : w & 0xffff;
        }
        v = w;
      }
      values[s.index] = s.op.neg || s.op.abs ? floatMods(v, s.type, s.op.neg ?? false, s.op.abs ?? false) : v;
    }
    env.lane = l;
    (env as { maskIn: boolean }).maskIn = ((l < 32 ? maskInLo >>> l : maskInHi >>> (l - 32)) & 1) === 1;
    env.maskOut = false;
    const r = sem.f(values, env);
    st.laneOps++;
    if (env.maskOut) { if (l < 32) outLo |= 1 << l; else outHi |= 1 << (l - 32); }
    if (sem.compare || !p.vdst) continue;
    if (deferred) deferred.push({ l, r });
    else writeResult(cx, inst, p.vdst, l, r, opsel);
  }
  if (deferred && p.vdst) for (const { l, r } of deferred) writeResult(cx, inst, p.vdst, l, r, opsel);
  const maskOut = BigInt(outLo >>> 0) | (BigInt(outHi >>> 0) << 32n);
  if (p.maskDst) writeMask(st, p.maskDst.value, maskOut);
  if (sem.compare === 'cmpx') st.setMask(EXEC_LO, maskOut);
}

function writeResult(cx: ExecContext, inst: Instruction, d: NonNullable<Plan['vdst']>, l: number, r: Val, opsel: number): void {
  const st = cx.st;
  if (d.op.value.kind !== 'vgpr') {
    // VOP3 forms with a scalar destination (v_readlane and friends are separate handlers).
    throw new InterpError(`${inst.def.mnemonic}: VALU result to ${d.op.value.kind}`);
  }
  if (typeof r === 'bigint') {
    writeLane(st, d.op.value, l, Number(r & 0xffffffffn), 0);
    writeLane(st, d.op.value, l, Number((r >> 32n) & 0xffffffffn), 1);
    return;
  }
  const sdwa = inst.mods.sdwa;
  if (sdwa && sdwa.dstSel !== undefined && sdwa.dstSel < 6) {
    const sel = sdwa.dstSel;
    const width = sel <= 3 ? 8 : 16;
    const shift = sel <= 3 ? sel * 8 : (sel - 4) * 16;
    const fieldMask = (((1 << width) - 1) << shift) >>> 0;
    const old = readLane(st, d.op.value, 'b32', l, 0);
    const x = ((r << shift) & fieldMask) >>> 0;
    let out: number;
    switch (sdwa.dstUnused ?? 0) {
      case 2: out = ((old & ~fieldMask) | x) >>> 0; break; // UNUSED_PRESERVE
      case 1: { // UNUSED_SEXT: sign-extend the field into the bits above it (bits below are 0)
        const top = (r >>> (width - 1)) & 1;
        out = top ? (x | (shift + width >= 32 ? 0 : (~((1 << (shift + width)) - 1) >>> 0))) >>> 0 : x;
        break;
      }
      default: out = x; // UNUSED_PAD
    }
    writeLane(st, d.op.value, l, out, 0);
    return;
  }
  if (is16(d.type)) {
    // gfx10: a 16-bit result goes to the half op_sel[3] names; the other half is kept (LLVM's
    // GCNSubtarget::zeroesHigh16BitsOfDest: "On gfx10, all 16-bit instructions preserve the high bits").
    const old = readLane(st, d.op.value, 'b32', l, 0);
    writeLane(st, d.op.value, l, (opsel & 8) ? ((old & 0xffff) | ((r & 0xffff) << 16)) >>> 0 : ((old & 0xffff0000) | (r & 0xffff)) >>> 0, 0);
    return;
  }
  writeLane(st, d.op.value, l, r >>> 0, 0);
}

/** A handler running `sem` through the executor. */
export const valu = (sem: ValuSemantics): Handler => (inst, cx) => execValu(inst, cx, sem);

/** Reads a uniform scalar source of a lane-crossing op (v_readlane's lane select, ...). */
export function uniform(inst: Instruction, cx: ExecContext, name: string): number {
  const o = inst.operands.find((x) => x.name === name);
  if (!o) throw new InterpError(`${inst.def.mnemonic} has no operand ${name}`);
  return readScalar(cx.st, o.value, 'u32');
}
