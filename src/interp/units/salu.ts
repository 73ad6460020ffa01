// Scalar ALU: SOP1, SOP2, SOPK, SOPC. RDNA2 ISA reference, chapter "Scalar ALU Operations" (the
// per-opcode pseudocode): SCC rules (carry/borrow, signed overflow, result != 0, compare).
import type { Instruction } from '../../decode/types.js';
import { branchTarget } from '../../disasm/scalar-fields.js';
import { type ExecContext, type Handler, operand } from '../context.js';
import { InterpError, UnimplementedError } from '../errors.js';
import { readScalar, writeScalar } from '../operands.js';
import { EXEC_LO, M0 } from '../state.js';
import { readHwreg, writeHwreg } from './hwreg-access.js';

const M32 = 0xffffffffn;
const M64 = (1n << 64n) - 1n;

const s32 = (cx: ExecContext, inst: Instruction, name: string) => readScalar(cx.st, operand(inst, name), inst.def.operands.find((o) => o.name === name)?.type ?? 'b32') >>> 0;
const s64 = (cx: ExecContext, inst: Instruction, name: string): bigint => {
  const v = operand(inst, name);
  const t = inst.def.operands.find((o) => o.name === name)?.type ?? 'b64';
  return BigInt(readScalar(cx.st, v, t, 0)) | (BigInt(readScalar(cx.st, v, t, 1)) << 32n);
};
const d32 = (cx: ExecContext, inst: Instruction, v: number) => writeScalar(cx.st, operand(inst, 'sdst'), v >>> 0);
const d64 = (cx: ExecContext, inst: Instruction, v: bigint) => {
  const o = operand(inst, 'sdst');
  writeScalar(cx.st, o, Number(v & M32), 0);
  writeScalar(cx.st, o, Number((v >> 32n) & M32), 1);
};
const scc = (cx: ExecContext, b: boolean) => { cx.st.scc = b ? 1 : 0; };
const i32 = (x: number) => x | 0;
const popcnt32 = (x: number) => { let n = 0; for (let v = x >>> 0; v; v &= v - 1) n++; return n; };
const sext64 = (v: bigint) => (v & (1n << 63n) ? v - (1n << 64n) : v);

/** Binary 32-bit op with SCC = result != 0. */
const logic32 = (f: (a: number, b: number) => number): Handler => (inst, cx) => {
  const r = f(s32(cx, inst, 'ssrc0'), s32(cx, inst, 'ssrc1')) >>> 0;
  d32(cx, inst, r); scc(cx, r !== 0);
};
const logic64 = (f: (a: bigint, b: bigint) => bigint): Handler => (inst, cx) => {
  const r = f(s64(cx, inst, 'ssrc0'), s64(cx, inst, 'ssrc1')) & M64;
  d64(cx, inst, r); scc(cx, r !== 0n);
};
const shift64 = (f: (a: bigint, n: bigint) => bigint): Handler => (inst, cx) => {
  const r = f(s64(cx, inst, 'ssrc0'), BigInt(s32(cx, inst, 'ssrc1') & 63)) & M64;
  d64(cx, inst, r); scc(cx, r !== 0n);
};
const cmp32 = (signed: boolean, f: (a: number, b: number) => boolean): Handler => (inst, cx) => {
  const a = s32(cx, inst, 'ssrc0'), b = s32(cx, inst, 'ssrc1');
  scc(cx, signed ? f(i32(a), i32(b)) : f(a, b));
};
const CMPS: Record<string, (a: number, b: number) => boolean> = {
  eq: (a, b) => a === b, lg: (a, b) => a !== b, gt: (a, b) => a > b, ge: (a, b) => a >= b, lt: (a, b) => a < b, le: (a, b) => a <= b,
};

function bfe(src: bigint, ctl: number, width64: boolean, signed: boolean): bigint {
  const off = BigInt(ctl & (width64 ? 63 : 31));
  const w = BigInt((ctl >>> 16) & 0x7f);
  const bitsN = width64 ? 64n : 32n;
  if (w === 0n) return 0n;
  // The signed forms shift S0 as a signed value (ISA: S0.i >> offset), so a field running past the
  // top bit takes copies of the sign bit before the sign extension from the field width.
  const x = signed ? (src & (1n << (bitsN - 1n)) ? src - (1n << bitsN) : src) : src;
  let r = (x >> off) & ((1n << w) - 1n);
  if (signed && w < bitsN && (r >> (w - 1n)) & 1n) r -= 1n << w;
  return r & (width64 ? M64 : M32);
}

/** EXEC update of the saveexec family: new EXEC from S0 and the old EXEC; D = old (or new, wrexec). */
const saveexec = (wide: boolean, f: (s: bigint, e: bigint) => bigint, writeNew = false): Handler => (inst, cx) => {
  const mask = wide ? M64 : M32;
  const s = wide ? s64(cx, inst, 'ssrc0') : BigInt(s32(cx, inst, 'ssrc0'));
  const old = wide ? BigInt(cx.st.sgpr[EXEC_LO] ?? 0) | (BigInt(cx.st.sgpr[EXEC_LO + 1] ?? 0) << 32n) : BigInt(cx.st.sgpr[EXEC_LO] ?? 0);
  const e = f(s, old) & mask;
  if (wide !== (cx.st.waveSize === 64)) throw new InterpError(`${inst.def.mnemonic} in a wave${cx.st.waveSize} shader`);
  cx.st.sgpr[EXEC_LO] = Number(e & M32);
  if (wide) cx.st.sgpr[EXEC_LO + 1] = Number(e >> 32n);
  const dv = writeNew ? e : old;
  if (wide) d64(cx, inst, dv); else d32(cx, inst, Number(dv));
  scc(cx, e !== 0n);
};

const SAVEEXEC_OPS: Record<string, [(s: bigint, e: bigint) => bigint, boolean]> = {
  and: [(s, e) => s & e, false], or: [(s, e) => s | e, false], xor: [(s, e) => s ^ e, false],
  andn2: [(s, e) => s & ~e, false], orn2: [(s, e) => s | ~e, false], nand: [(s, e) => ~(s & e), false],
  nor: [(s, e) => ~(s | e), false], xnor: [(s, e) => ~(s ^ e), false], andn1: [(s, e) => ~s & e, false],
  orn1: [(s, e) => ~s | e, false],
};

function ff(x: bigint, bitsN: number, want: 0n | 1n): number {
  for (let i = 0; i < bitsN; i++) if (((x >> BigInt(i)) & 1n) === want) return i;
  return -1;
}
function flbitU(x: bigint, bitsN: number): number {
  for (let i = bitsN - 1; i >= 0; i--) if ((x >> BigInt(i)) & 1n) return bitsN - 1 - i;
  return -1;
}
/** s_flbit_i32 / _i64: leading bits equal to the sign bit (-1 for 0 and -1). */
function flbitS(x: bigint, bitsN: number): number {
  const sign = (x >> BigInt(bitsN - 1)) & 1n;
  for (let i = bitsN - 1; i >= 0; i--) if (((x >> BigInt(i)) & 1n) !== sign) return bitsN - 1 - i;
  return -1;
}
const brev = (x: bigint, bitsN: number) => { let r = 0n; for (let i = 0; i < bitsN; i++) if ((x >> BigInt(i)) & 1n) r |= 1n << BigInt(bitsN - 1 - i); return r; };
function wqm(x: bigint, bitsN: number): bigint { let r = 0n; for (let q = 0; q < bitsN; q += 4) if ((x >> BigInt(q)) & 0xfn) r |= 0xfn << BigInt(q); return r; }
function quadmask(x: bigint, bitsN: number): bigint { let r = 0n; for (let q = 0; q < bitsN / 4; q++) if ((x >> BigInt(q * 4)) & 0xfn) r |= 1n << BigInt(q); return r; }

const simm16 = (inst: Instruction) => { const v = operand(inst, 'simm16'); return v.kind === 'imm' ? v.value & 0xffff : 0; };
const simm16s = (inst: Instruction) => (simm16(inst) << 16) >> 16;

/** SGPR code + M0 for s_movrel*: the indexed register must stay in s0..s105. */
function relIndex(inst: Instruction, name: string, cx: ExecContext, count: number): number {
  const v = operand(inst, name);
  if (v.kind !== 'sgpr') throw new UnimplementedError(`${inst.def.mnemonic} on a ${v.kind} operand`);
  const i = v.index + (cx.st.sgpr[M0] ?? 0);
  if (i + count > 106) throw new InterpError(`${inst.def.mnemonic}: s${v.index} + M0 (${cx.st.sgpr[M0]}) is past s105`);
  return i;
}

/** SGPR code + an explicit index (s_movrelsd_2_b32's two M0 fields), kept inside s0..s105. */
function relIndexBy(inst: Instruction, name: string, by: number): number {
  const v = operand(inst, name);
  if (v.kind !== 'sgpr') throw new UnimplementedError(`${inst.def.mnemonic} on a ${v.kind} operand`);
  if (v.index + by >= 106) throw new InterpError(`${inst.def.mnemonic}: s${v.index} + ${by} (from M0) is past s105`);
  return v.index + by;
}

export const SALU: Record<string, Handler> = {
  // --- SOP1 ---
  s_mov_b32: (i, cx) => d32(cx, i, s32(cx, i, 'ssrc0')),
  s_mov_b64: (i, cx) => d64(cx, i, s64(cx, i, 'ssrc0')),
  s_cmov_b32: (i, cx) => { if (cx.st.scc) d32(cx, i, s32(cx, i, 'ssrc0')); },
  s_cmov_b64: (i, cx) => { if (cx.st.scc) d64(cx, i, s64(cx, i, 'ssrc0')); },
  s_not_b32: (i, cx) => { const r = ~s32(cx, i, 'ssrc0') >>> 0; d32(cx, i, r); scc(cx, r !== 0); },
  s_not_b64: (i, cx) => { const r = ~s64(cx, i, 'ssrc0') & M64; d64(cx, i, r); scc(cx, r !== 0n); },
  s_wqm_b32: (i, cx) => { const r = wqm(BigInt(s32(cx, i, 'ssrc0')), 32); d32(cx, i, Number(r)); scc(cx, r !== 0n); },
  s_wqm_b64: (i, cx) => { const r = wqm(s64(cx, i, 'ssrc0'), 64); d64(cx, i, r); scc(cx, r !== 0n); },
  s_brev_b32: (i, cx) => d32(cx, i, Number(brev(BigInt(s32(cx, i, 'ssrc0')), 32))),
  s_brev_b64: (i, cx) => d64(cx, i, brev(s64(cx, i, 'ssrc0'), 64)),
  s_bcnt0_i32_b32: (i, cx) => { const r = 32 - popcnt32(s32(cx, i, 'ssrc0')); d32(cx, i, r); scc(cx, r !== 0); },
  s_bcnt0_i32_b64: (i, cx) => { const v = s64(cx, i, 'ssrc0'); const r = 64 - popcnt32(Number(v & M32)) - popcnt32(Number(v >> 32n)); d32(cx, i, r); scc(cx, r !== 0); },
  s_bcnt1_i32_b32: (i, cx) => { const r = popcnt32(s32(cx, i, 'ssrc0')); d32(cx, i, r); scc(cx, r !== 0); },
  s_bcnt1_i32_b64: (i, cx) => { const v = s64(cx, i, 'ssrc0'); const r = popcnt32(Number(v & M32)) + popcnt32(Number(v >> 32n)); d32(cx, i, r); scc(cx, r !== 0); },
  s_ff0_i32_b32: (i, cx) => d32(cx, i, ff(BigInt(s32(cx, i, 'ssrc0')), 32, 0n)),
  s_ff0_i32_b64: (i, cx) => d32(cx, i, ff(s64(cx, i, 'ssrc0'), 64, 0n)),
  s_ff1_i32_b32: (i, cx) => d32(cx, i, ff(BigInt(s32(cx, i, 'ssrc0')), 32, 1n)),
  s_ff1_i32_b64: (i, cx) => d32(cx, i, ff(s64(cx, i, 'ssrc0'), 64, 1n)),
  s_flbit_i32_b32: (i, cx) => d32(cx, i, flbitU(BigInt(s32(cx, i, 'ssrc0')), 32)),
  s_flbit_i32_b64: (i, cx) => d32(cx, i, flbitU(s64(cx, i, 'ssrc0'), 64)),
  s_flbit_i32: (i, cx) => d32(cx, i, flbitS(BigInt(s32(cx, i, 'ssrc0')), 32)),
  s_flbit_i32_i64: (i, cx) => d32(cx, i, flbitS(s64(cx, i, 'ssrc0'), 64)),
  s_sext_i32_i8: (i, cx) => d32(cx, i, (s32(cx, i, 'ssrc0') << 24) >> 24),
  s_sext_i32_i16: (i, cx) => d32(cx, i, (s32(cx, i, 'ssrc0') << 16) >> 16),
  s_bitset0_b32: (i, cx) => d32(cx, i, s32(cx, i, 'sdst') & ~(1 << (s32(cx, i, 'ssrc0') & 31))),
  s_bitset1_b32: (i, cx) => d32(cx, i, s32(cx, i, 'sdst') | (1 << (s32(cx, i, 'ssrc0') & 31))),
  s_bitset0_b64: (i, cx) => d64(cx, i, s64(cx, i, 'sdst') & ~(1n << BigInt(s32(cx, i, 'ssrc0') & 63)) & M64),
  s_bitset1_b64: (i, cx) => d64(cx, i, s64(cx, i, 'sdst') | (1n << BigInt(s32(cx, i, 'ssrc0') & 63))),
  s_getpc_b64: (i, cx) => d64(cx, i, BigInt(i.pc + 4)),
  s_setpc_b64: (i, cx) => { cx.nextPc = Number(s64(cx, i, 'ssrc0') & ((1n << 48n) - 1n)); },
  s_swappc_b64: (i, cx) => { const t = s64(cx, i, 'ssrc0'); d64(cx, i, BigInt(i.pc + 4)); cx.nextPc = Number(t & ((1n << 48n) - 1n)); },
  s_abs_i32: (i, cx) => { const v = i32(s32(cx, i, 'ssrc0')); const r = (v < 0 ? -v : v) >>> 0; d32(cx, i, r); scc(cx, r !== 0); },
  s_quadmask_b32: (i, cx) => { const r = quadmask(BigInt(s32(cx, i, 'ssrc0')), 32); d32(cx, i, Number(r)); scc(cx, r !== 0n); },
  s_quadmask_b64: (i, cx) => { const r = quadmask(s64(cx, i, 'ssrc0'), 64); d64(cx, i, r); scc(cx, r !== 0n); },
  s_bitreplicate_b64_b32: (i, cx) => { const v = s32(cx, i, 'ssrc0'); let r = 0n; for (let b = 0; b < 32; b++) if ((v >>> b) & 1) r |= 3n << BigInt(2 * b); d64(cx, i, r); },
  s_movrels_b32: (i, cx) => d32(cx, i, cx.st.sgpr[relIndex(i, 'ssrc0', cx, 1)] ?? 0),
  s_movrels_b64: (i, cx) => { const k = relIndex(i, 'ssrc0', cx, 2); d64(cx, i, BigInt(cx.st.sgpr[k] ?? 0) | (BigInt(cx.st.sgpr[k + 1] ?? 0) << 32n)); },
  s_movreld_b32: (i, cx) => { cx.st.sgpr[relIndex(i, 'sdst', cx, 1)] = s32(cx, i, 'ssrc0'); },
  s_movreld_b64: (i, cx) => { const k = relIndex(i, 'sdst', cx, 2); const v = s64(cx, i, 'ssrc0'); cx.st.sgpr[k] = Number(v & M32); cx.st.sgpr[k + 1] = Number(v >> 32n); },
  // gfx1030: SGPR[D + M0[25:16]] = SGPR[S0 + M0[9:0]].
  s_movrelsd_2_b32: (i, cx) => {
    const m0 = cx.st.sgpr[M0] ?? 0;
    const src = relIndexBy(i, 'ssrc0', m0 & 0x3ff), dst = relIndexBy(i, 'sdst', (m0 >>> 16) & 0x3ff);
    cx.st.sgpr[dst] = cx.st.sgpr[src] ?? 0;
  },
  // --- SOP2 ---
  s_add_u32: (i, cx) => { const r = s32(cx, i, 'ssrc0') + s32(cx, i, 'ssrc1'); d32(cx, i, r); scc(cx, r > 0xffffffff); },
  s_sub_u32: (i, cx) => { const a = s32(cx, i, 'ssrc0'), b = s32(cx, i, 'ssrc1'); d32(cx, i, a - b); scc(cx, b > a); },
  s_addc_u32: (i, cx) => { const r = s32(cx, i, 'ssrc0') + s32(cx, i, 'ssrc1') + cx.st.scc; d32(cx, i, r); scc(cx, r > 0xffffffff); },
  s_subb_u32: (i, cx) => { const a = s32(cx, i, 'ssrc0'), b = s32(cx, i, 'ssrc1') + cx.st.scc; d32(cx, i, a - b); scc(cx, b > a); },
  s_add_i32: (i, cx) => { const a = i32(s32(cx, i, 'ssrc0')), b = i32(s32(cx, i, 'ssrc1')); const r = a + b; d32(cx, i, r); scc(cx, r !== (r | 0)); },
  s_sub_i32: (i, cx) => { const a = i32(s32(cx, i, 'ssrc0')), b = i32(s32(cx, i, 'ssrc1')); const r = a - b; d32(cx, i, r); scc(cx, r !== (r | 0)); },
  s_min_i32: (i, cx) => { const a = i32(s32(cx, i, 'ssrc0')), b = i32(s32(cx, i, 'ssrc1')); d32(cx, i, a < b ? a : b); scc(cx, a < b); },
  s_min_u32: (i, cx) => { const a = s32(cx, i, 'ssrc0'), b = s32(cx, i, 'ssrc1'); d32(cx, i, a < b ? a : b); scc(cx, a < b); },
  s_max_i32: (i, cx) => { const a = i32(s32(cx, i, 'ssrc0')), b = i32(s32(cx, i, 'ssrc1')); d32(cx, i, a > b ? a : b); scc(cx, a > b); },
  s_max_u32: (i, cx) => { const a = s32(cx, i, 'ssrc0'), b = s32(cx, i, 'ssrc1'); d32(cx, i, a > b ? a : b); scc(cx, a > b); },
  s_cselect_b32: (i, cx) => d32(cx, i, cx.st.scc ? s32(cx, i, 'ssrc0') : s32(cx, i, 'ssrc1')),
  s_cselect_b64: (i, cx) => d64(cx, i, cx.st.scc ? s64(cx, i, 'ssrc0') : s64(cx, i, 'ssrc1')),
  s_and_b32: logic32((a, b) => a & b), s_or_b32: logic32((a, b) => a | b), s_xor_b32: logic32((a, b) => a ^ b),
  s_andn2_b32: logic32((a, b) => a & ~b), s_orn2_b32: logic32((a, b) => a | ~b), s_nand_b32: logic32((a, b) => ~(a & b)),
  s_nor_b32: logic32((a, b) => ~(a | b)), s_xnor_b32: logic32((a, b) => ~(a ^ b)),
  s_and_b64: logic64((a, b) => a & b), s_or_b64: logic64((a, b) => a | b), s_xor_b64: logic64((a, b) => a ^ b),
  s_andn2_b64: logic64((a, b) => a & ~b), s_orn2_b64: logic64((a, b) => a | ~b), s_nand_b64: logic64((a, b) => ~(a & b)),
  s_nor_b64: logic64((a, b) => ~(a | b)), s_xnor_b64: logic64((a, b) => ~(a ^ b)),
  s_lshl_b32: logic32((a, b) => a << (b & 31)), s_lshr_b32: logic32((a, b) => a >>> (b & 31)), s_ashr_i32: logic32((a, b) => (a | 0) >> (b & 31)),
  s_lshl_b64: shift64((a, n) => a << n), s_lshr_b64: shift64((a, n) => a >> n), s_ashr_i64: shift64((a, n) => sext64(a) >> n),
  s_bfm_b32: (i, cx) => d32(cx, i, (((2 ** (s32(cx, i, 'ssrc0') & 31)) - 1) * 2 ** (s32(cx, i, 'ssrc1') & 31)) % 2 ** 32),
  s_bfm_b64: (i, cx) => d64(cx, i, (((1n << BigInt(s32(cx, i, 'ssrc0') & 63)) - 1n) << BigInt(s32(cx, i, 'ssrc1') & 63)) & M64),
  s_mul_i32: (i, cx) => d32(cx, i, Math.imul(s32(cx, i, 'ssrc0'), s32(cx, i, 'ssrc1'))),
  s_mul_hi_u32: (i, cx) => d32(cx, i, Number((BigInt(s32(cx, i, 'ssrc0')) * BigInt(s32(cx, i, 'ssrc1'))) >> 32n)),
  s_mul_hi_i32: (i, cx) => d32(cx, i, Number(((BigInt(i32(s32(cx, i, 'ssrc0'))) * BigInt(i32(s32(cx, i, 'ssrc1')))) >> 32n) & M32)),
  s_bfe_u32: (i, cx) => { const r = bfe(BigInt(s32(cx, i, 'ssrc0')), s32(cx, i, 'ssrc1'), false, false); d32(cx, i, Number(r)); scc(cx, r !== 0n); },
  s_bfe_i32: (i, cx) => { const r = bfe(BigInt(s32(cx, i, 'ssrc0')), s32(cx, i, 'ssrc1'), false, true); d32(cx, i, Number(r)); scc(cx, r !== 0n); },
  s_bfe_u64: (i, cx) => { const r = bfe(s64(cx, i, 'ssrc0'), s32(cx, i, 'ssrc1'), true, false); d64(cx, i, r); scc(cx, r !== 0n); },
  s_bfe_i64: (i, cx) => { const r = bfe(s64(cx, i, 'ssrc0'), s32(cx, i, 'ssrc1'), true, true); d64(cx, i, r); scc(cx, r !== 0n); },
  s_absdiff_i32: (i, cx) => { const r = Math.abs(i32(s32(cx, i, 'ssrc0')) - i32(s32(cx, i, 'ssrc1'))) >>> 0; d32(cx, i, r); scc(cx, r !== 0); },
  s_lshl1_add_u32: (i, cx) => lshlAdd(i, cx, 1), s_lshl2_add_u32: (i, cx) => lshlAdd(i, cx, 2),
  s_lshl3_add_u32: (i, cx) => lshlAdd(i, cx, 3), s_lshl4_add_u32: (i, cx) => lshlAdd(i, cx, 4),
  s_pack_ll_b32_b16: (i, cx) => d32(cx, i, (s32(cx, i, 'ssrc0') & 0xffff) | (s32(cx, i, 'ssrc1') << 16)),
  s_pack_lh_b32_b16: (i, cx) => d32(cx, i, (s32(cx, i, 'ssrc0') & 0xffff) | (s32(cx, i, 'ssrc1') & 0xffff0000)),
  s_pack_hh_b32_b16: (i, cx) => d32(cx, i, (s32(cx, i, 'ssrc0') >>> 16) | (s32(cx, i, 'ssrc1') & 0xffff0000)),
  // --- SOPC ---
  ...Object.fromEntries(Object.entries(CMPS).flatMap(([c, f]) => [[`s_cmp_${c}_i32`, cmp32(true, f)], [`s_cmp_${c}_u32`, cmp32(false, f)]])),
  s_cmp_eq_u64: (i, cx) => scc(cx, s64(cx, i, 'ssrc0') === s64(cx, i, 'ssrc1')),
  s_cmp_lg_u64: (i, cx) => scc(cx, s64(cx, i, 'ssrc0') !== s64(cx, i, 'ssrc1')),
  s_bitcmp0_b32: (i, cx) => scc(cx, ((s32(cx, i, 'ssrc0') >>> (s32(cx, i, 'ssrc1') & 31)) & 1) === 0),
  s_bitcmp1_b32: (i, cx) => scc(cx, ((s32(cx, i, 'ssrc0') >>> (s32(cx, i, 'ssrc1') & 31)) & 1) === 1),
  s_bitcmp0_b64: (i, cx) => scc(cx, ((s64(cx, i, 'ssrc0') >> BigInt(s32(cx, i, 'ssrc1') & 63)) & 1n) === 0n),
  s_bitcmp1_b64: (i, cx) => scc(cx, ((s64(cx, i, 'ssrc0') >> BigInt(s32(cx, i, 'ssrc1') & 63)) & 1n) === 1n),
  // --- SOPK ---
  s_movk_i32: (i, cx) => d32(cx, i, simm16s(i)),
  s_cmovk_i32: (i, cx) => { if (cx.st.scc) d32(cx, i, simm16s(i)); },
  ...Object.fromEntries(Object.entries(CMPS).flatMap(([c, f]) => [
    [`s_cmpk_${c}_i32`, ((i, cx) => scc(cx, f(i32(s32(cx, i, 'sdst')), simm16s(i)))) as Handler],
    [`s_cmpk_${c}_u32`, ((i, cx) => scc(cx, f(s32(cx, i, 'sdst'), simm16(i)))) as Handler],
  ])),
  s_addk_i32: (i, cx) => { const a = i32(s32(cx, i, 'sdst')); const r = a + simm16s(i); d32(cx, i, r); scc(cx, r !== (r | 0)); },
  s_mulk_i32: (i, cx) => d32(cx, i, Math.imul(s32(cx, i, 'sdst'), simm16s(i))),
  s_getreg_b32: (i, cx) => d32(cx, i, readHwreg(i, cx, simm16(i))),
  s_setreg_b32: (i, cx) => writeHwreg(i, cx, simm16(i), s32(cx, i, 'sdst')),
  s_setreg_imm32_b32: (i, cx) => { const v = operand(i, 'imm32'); writeHwreg(i, cx, simm16(i), v.kind === 'literal' || v.kind === 'imm' ? v.value >>> 0 : 0); },
  s_call_b64: (i, cx) => { d64(cx, i, BigInt(i.pc + 4)); cx.nextPc = branchTarget(i, simm16(i)); },
  s_version: () => undefined,
  s_waitcnt_vscnt: () => undefined, s_waitcnt_vmcnt: () => undefined, s_waitcnt_expcnt: () => undefined, s_waitcnt_lgkmcnt: () => undefined,
};

function lshlAdd(i: Instruction, cx: ExecContext, n: number): void {
  const r = s32(cx, i, 'ssrc0') * 2 ** n + s32(cx, i, 'ssrc1');
  d32(cx, i, r % 2 ** 32);
  scc(cx, r > 0xffffffff);
}

for (const [op, [f, wr]] of Object.entries(SAVEEXEC_OPS)) {
  SALU[`s_${op}_saveexec_b32`] = saveexec(false, f, wr);
  SALU[`s_${op}_saveexec_b64`] = saveexec(true, f, wr);
}
SALU['s_andn1_wrexec_b32'] = saveexec(false, (s, e) => ~s & e, true);
SALU['s_andn1_wrexec_b64'] = saveexec(true, (s, e) => ~s & e, true);
SALU['s_andn2_wrexec_b32'] = saveexec(false, (s, e) => s & ~e, true);
SALU['s_andn2_wrexec_b64'] = saveexec(true, (s, e) => s & ~e, true);
