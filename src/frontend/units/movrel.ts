// The M0-indexed moves to IR: s_movrels/s_movreld_b32/b64 and s_movrelsd_2_b32 (SGPRs), and
// v_movrels/v_movreld/v_movrelsd/v_movrelsd_2_b32 and v_swaprel_b32 (VGPRs). RDNA2 ISA reference
// pseudocode: the register named in the instruction plus an index from M0, all 32 bits of it
// (SGPR[D] = SGPR[S0 + M0], VGPR[D + M0] = VGPR[S0] ...), or for s/v_movrelsd_2 and v_swaprel the
// source plus M0[9:0] and the destination plus M0[25:16].
//
// The register file is SSA values, so an index known only at run time is a chain of selects over
// every register it can name: a read is Select(off == j, reg[base + j], ...), a write gives each
// register it can reach Select(off == j, value, old). The registers it can name end where the
// interpreter's stop (src/interp/units/salu.ts relIndex, valu-lanes.ts rel): s105, or the last of
// the shader's VGPRs (its descriptor's count); an index past them faults at run time
// (FAULT_REG_INDEX: the run fails, as the interpreter's does; what RDNA2 does there is not
// established, RDNA3's ISA reads v0 and drops the write). An M0 known as a constant (set earlier
// in the block, or on every path by src/analysis/scalar-constants.ts) names the register
// directly. DPP and SDWA forms are refused (the
// translators apply neither), and so is clamp/omod on an e64 form.
import type { OperandValue } from '../../decode/types.js';
import type { Shader } from '../../container/shader.js';
import { buildCfg } from '../../analysis/cfg.js';
import { ALL_BITS, analyzeScalarConstants, type ScalarConstants } from '../../analysis/scalar-constants.js';
import type { Inst } from '../../ir/ir.js';
import { FAULT_REG_INDEX } from '../../ir/faults.js';
import type { TContext, Translator } from '../context.js';
import { listOf, NO_ARGS } from '../../ir/ir.js';

const M0 = 124;
/** One past the last SGPR an index may reach (s0..s105, as the interpreter). */
const SGPR_END = 106;

type File = 's' | 'v';

/** The index from M0: all of it, or the 10-bit field at `shift` (0: M0[9:0], 16: M0[25:16]). */
interface Offset { readonly value: Inst; readonly known: number | undefined }

/** Scalar constant propagation over the shader's CFG, once per shader that has an M0-indexed move. */
const SCALARS = new WeakMap<Shader, ScalarConstants>();
function m0Before(cx: TContext): number | undefined {
  let sc = SCALARS.get(cx.shader);
  if (!sc) { sc = analyzeScalarConstants(buildCfg(cx.shader)); SCALARS.set(cx.shader, sc); }
  const k = sc.before(cx.inst.pc)?.get(M0);
  return k && k.known === ALL_BITS ? k.value >>> 0 : undefined;
}

function offset(cx: TContext, shift?: 0 | 16): Offset {
  const b = cx.b;
  const m0 = b.getSgpr(M0);
  // M0 as a constant: set earlier in the block (the block builder's value), or by the data flow.
  const known = m0.op === 'ConstU32' ? Number(m0.imms[0]) >>> 0 : m0Before(cx);
  if (shift === undefined) return { value: m0, known };
  return { value: b.emit('UBfe32', listOf(m0, cx.u32(shift), cx.u32(10))), known: known === undefined ? undefined : (known >>> shift) & 0x3ff };
}

/** A register operand's first index in its file, or a refusal. */
function baseOf(cx: TContext, v: OperandValue, file: File): number {
  if (file === 's' ? v.kind !== 'sgpr' : v.kind !== 'vgpr') cx.fail(`${cx.inst.def.mnemonic}: an M0-indexed ${v.kind} operand is not translated`);
  return (v as { index: number }).index;
}

/** An indexed access: `count` dwords from register base + off, off in 0..max (max < 0: none fits). */
interface Rel { readonly file: File; readonly base: number; readonly count: number; readonly off: Offset; readonly max: number }

function rel(cx: TContext, file: File, base: number, count: number, off: Offset): Rel {
  const end = file === 's' ? SGPR_END : cx.shader.info.vgprCount;
  return { file, base, count, off, max: end - count - base };
}

/** Faults (uniformly) where the index leaves the register file; whether the access can be done. */
function checkRange(cx: TContext, r: Rel): boolean {
  const b = cx.b;
  if (r.off.known !== undefined) {
    if (r.off.known <= r.max) return true;
    b.emit('Fault', listOf(b.u1(true)), listOf(FAULT_REG_INDEX));
    return false;
  }
  if (r.max < 0) { b.emit('Fault', listOf(b.u1(true)), listOf(FAULT_REG_INDEX)); return false; }
  b.emit('Fault', listOf(b.emit('UGt32', listOf(r.off.value, cx.u32(r.max)))), listOf(FAULT_REG_INDEX));
  return true;
}

const get = (cx: TContext, file: File, n: number): Inst => cx.b.emit(file === 's' ? 'GetSgpr' : 'GetVgpr', NO_ARGS, listOf(n));

/** The `count` dwords at base + off. */
function read(cx: TContext, r: Rel): Inst[] {
  const b = cx.b;
  const out: Inst[] = [];
  for (let t = 0; t < r.count; t++) {
    if (r.off.known !== undefined) { out.push(get(cx, r.file, r.base + r.off.known + t)); continue; }
    let acc = get(cx, r.file, r.base + r.max + t);
    for (let j = r.max - 1; j >= 0; j--) acc = b.emit('Select32', listOf(b.emit('IEq32', listOf(r.off.value, cx.u32(j))), get(cx, r.file, r.base + j + t), acc));
    out.push(acc);
  }
  return out;
}

/**
 * The new value of every register the write of `vals` (one per dword) to base + off can reach,
 * over `cur` (each register's value before this write).
 */
function write(cx: TContext, r: Rel, vals: readonly Inst[], cur: (n: number) => Inst): Map<number, Inst> {
  const b = cx.b;
  const out = new Map<number, Inst>();
  if (r.off.known !== undefined) {
    vals.forEach((v, t) => out.set(r.base + (r.off.known as number) + t, v));
    return out;
  }
  for (let n = r.base; n < r.base + r.max + r.count; n++) {
    let acc = cur(n);
    for (let t = r.count - 1; t >= 0; t--) {
      const j = n - r.base - t;
      if (j < 0 || j > r.max) continue;
      acc = b.emit('Select32', listOf(b.emit('IEq32', listOf(r.off.value, cx.u32(j))), vals[t] as Inst, acc));
    }
    out.set(n, acc);
  }
  return out;
}

/** Writes the new register values: SGPRs as they are, VGPRs in the active lanes. */
function commit(cx: TContext, file: File, regs: Map<number, Inst>): void {
  for (const [n, v] of regs) {
    if (file === 's') cx.b.emit('SetSgpr', listOf(v), listOf(n));
    else cx.writeLane({ kind: 'vgpr', index: n, count: 1 }, v);
  }
}

/** A scalar source's dwords. */
const scalarSrc = (cx: TContext, count: number) => Array.from({ length: count }, (_, k) => cx.scalar(cx.op('ssrc0').value, count === 2 ? 'b64' : 'b32', k));

const s_movrels = (count: number): Translator => (cx) => {
  const r = rel(cx, 's', baseOf(cx, cx.op('ssrc0').value, 's'), count, offset(cx));
  if (!checkRange(cx, r)) return;
  read(cx, r).forEach((v, k) => cx.writeScalar(cx.op('sdst').value, v, k));
};

const s_movreld = (count: number): Translator => (cx) => {
  const vals = scalarSrc(cx, count);
  const r = rel(cx, 's', baseOf(cx, cx.op('sdst').value, 's'), count, offset(cx));
  if (!checkRange(cx, r)) return;
  commit(cx, 's', write(cx, r, vals, (n) => get(cx, 's', n)));
};

/** The plain VALU forms only (clamp/omod have no meaning for a move; the interpreter ignores none of them silently). */
function plainValu(cx: TContext): void {
  if (cx.inst.mods.clamp || cx.inst.mods.omod) cx.fail(`${cx.inst.def.mnemonic} with clamp/omod is not translated`);
}

/** v_movrel* with the source and/or destination indexed: the offsets (undefined: that side is direct). */
const v_movrel = (srcShift: 0 | 16 | 'all' | undefined, dstShift: 0 | 16 | 'all' | undefined): Translator => (cx) => {
  plainValu(cx);
  const srcOp = cx.op('src0').value, dstOp = cx.op('vdst').value;
  const off = (s: 0 | 16 | 'all') => offset(cx, s === 'all' ? undefined : s);
  let vals: Inst[];
  if (srcShift === undefined) vals = [cx.lane(srcOp, 'b32')];
  else {
    const r = rel(cx, 'v', baseOf(cx, srcOp, 'v'), 1, off(srcShift));
    if (!checkRange(cx, r)) return;
    vals = read(cx, r);
  }
  if (dstShift === undefined) { cx.writeLane(dstOp, vals[0] as Inst); return; }
  const r = rel(cx, 'v', baseOf(cx, dstOp, 'v'), 1, off(dstShift));
  if (!checkRange(cx, r)) return;
  commit(cx, 'v', write(cx, r, vals, (n) => get(cx, 'v', n)));
};

export const MOVREL: Record<string, Translator> = {
  s_movrels_b32: s_movrels(1),
  s_movrels_b64: s_movrels(2),
  s_movreld_b32: s_movreld(1),
  s_movreld_b64: s_movreld(2),
  // SGPR[D + M0[25:16]] = SGPR[S0 + M0[9:0]] (as the interpreter's relIndexBy).
  s_movrelsd_2_b32: (cx) => {
    const src = rel(cx, 's', baseOf(cx, cx.op('ssrc0').value, 's'), 1, offset(cx, 0));
    const dst = rel(cx, 's', baseOf(cx, cx.op('sdst').value, 's'), 1, offset(cx, 16));
    if (!checkRange(cx, src) || !checkRange(cx, dst)) return;
    commit(cx, 's', write(cx, dst, read(cx, src), (n) => get(cx, 's', n)));
  },
  v_movrels_b32: v_movrel('all', undefined),
  v_movreld_b32: v_movrel(undefined, 'all'),
  v_movrelsd_b32: v_movrel('all', 'all'),
  v_movrelsd_2_b32: v_movrel(0, 16),
  // tmp = VGPR[D + M0[25:16]]; VGPR[D + M0[25:16]] = VGPR[S0 + M0[9:0]]; VGPR[S0 + M0[9:0]] = tmp.
  v_swaprel_b32: (cx) => {
    const s = rel(cx, 'v', baseOf(cx, cx.op('src0').value, 'v'), 1, offset(cx, 0));
    const d = rel(cx, 'v', baseOf(cx, cx.op('vdst').value, 'v'), 1, offset(cx, 16));
    if (!checkRange(cx, s) || !checkRange(cx, d)) return;
    const sv = read(cx, s), dv = read(cx, d);
    const first = write(cx, d, sv, (n) => get(cx, 'v', n));
    const second = write(cx, s, dv, (n) => first.get(n) ?? get(cx, 'v', n));
    for (const [n, v] of second) first.set(n, v);
    commit(cx, 'v', first);
  },
};
