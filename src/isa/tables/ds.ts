import type { DataType, ImplicitReg, InstrDef, OperandDef, Target } from '../types.js';

// DS (LDS/GDS) opcodes of gfx10. Opcode list, operand lists and register sizes from the RDNA2 ISA
// reference and LLVM's DSInstructions.td; every entry was checked against LLVM 19 by sweeping the
// 8-bit opcode field on gfx1010, gfx1013 and gfx1030.
//
// Operands use LLVM's names; the decoder maps each name to its field of the second dword
// (addr [7:0], data0 [15:8], data1 [23:16], vdst [31:24]). A field that the operand list does not
// name must be zero (LLVM rejects the word otherwise). Register tuples that would run past v255
// make the word invalid.
//
// Flags (read by src/decode/ds.ts and src/disasm/ds.ts):
//   'offset2'   two 8-bit offsets, printed offset0:N offset1:M (read2/write2/wrxchg2 forms);
//               without it the two bytes form one 16-bit offset, printed offset:N.
//   'st64'      the two offsets are in units of 64 elements (…2st64 forms); printing is the same.
//   'swizzle'   the 16-bit offset is a swizzle pattern, printed offset:swizzle(...).
//   'gdsOnly'   LLVM accepts the word only with gds=1 (ds_gws_*, ds_ordered_count).
//   'noGds'     LLVM rejects the word with gds=1 (ds_nop, ds_permute_b32, ds_bpermute_b32).
//   'data0InAddr' data0 is encoded in the addr field [7:0] (ds_gws_init/sema_br/barrier: the
//               GWS value operand; LLVM's has_gws_data0).
//   'noOffset'  LLVM rejects the word unless offset0 and offset1 are zero (ds_nop).
//   'rtn'       an atomic that returns the pre-op value; 'atomic' any read-modify-write.
//   'noLds'     does not access LDS memory (swizzle/permute move data between lanes).
//   'src2'      a ds_*_src2_* form (gfx1010/gfx1013): no data operands; LDS[addr] = op(LDS[addr],
//               LDS[addr + stride]), op the rule of the atomic dsSrc2Atomic names, the 16-bit
//               offset the stride's encoding (dsSrc2Stride), not added to the address.
//
// Memory semantics for analyses: implicitReads/implicitWrites list 'LDS' for LDS memory;
// with gds=1 the access goes to GDS instead (base/size from M0), which is a per-word fact
// (Modifiers.gds), not a table fact. M0 is listed where the instruction always reads it.
// EXEC is listed for every opcode but ds_nop (the lanes that take part).

const GFX1010_1013: readonly Target[] = ['gfx1010', 'gfx1013'];

/** Operand-list shape: which of vdst/addr/data0/data1 the instruction has. */
type Form =
  | 'st'    // addr, data0                   (store / atomic without return)
  | 'st2'   // addr, data0, data1
  | 'rtn'   // vdst, addr, data0             (atomic with return)
  | 'rtn2'  // vdst, addr, data0, data1
  | 'ld'    // vdst, addr                    (load)
  | 'addr'  // addr                          (src2 atomics)
  | 'dst'   // vdst                          (append/consume, read_addtid)
  | 'data'  // data0                         (write_addtid; gws with a value)
  | 'none';

interface Spec {
  readonly op: number;
  readonly name: string;
  readonly form: Form;
  /** Type of the data operands (and of vdst unless `dstType`). */
  readonly type: DataType;
  readonly dstType?: DataType;
  /** Register dwords of vdst / data operands when not implied by the type. */
  readonly dstDwords?: number;
  readonly dataDwords?: number;
  readonly flags?: readonly string[];
  readonly targets?: readonly Target[];
  readonly reads?: readonly ImplicitReg[];
  readonly writes?: readonly ImplicitReg[];
  /** Lane-masked by EXEC (default true; false for ds_nop). */
  readonly exec?: boolean;
}

function dwordsOf(t: DataType): number {
  switch (t) {
    case 'b64': case 'i64': case 'u64': case 'f64': return 2;
    case 'b96': return 3;
    case 'b128': return 4;
    default: return 1;
  }
}

function vgprOp(name: string, role: OperandDef['role'], type: DataType, dwords: number | undefined): OperandDef {
  return dwords !== undefined && dwords !== dwordsOf(type)
    ? { name, role, kind: 'vgpr', type, dwords }
    : { name, role, kind: 'vgpr', type };
}

function def(s: Spec): InstrDef {
  const dst = vgprOp('vdst', 'dst', s.dstType ?? s.type, s.dstDwords);
  const addr = vgprOp('addr', 'src', 'u32', undefined);
  const d0 = vgprOp('data0', 'src', s.type, s.dataDwords);
  const d1 = vgprOp('data1', 'src', s.type, s.dataDwords);
  let operands: OperandDef[];
  switch (s.form) {
    case 'st': operands = [addr, d0]; break;
    case 'st2': operands = [addr, d0, d1]; break;
    case 'rtn': operands = [dst, addr, d0]; break;
    case 'rtn2': operands = [dst, addr, d0, d1]; break;
    case 'ld': operands = [dst, addr]; break;
    case 'addr': operands = [addr]; break;
    case 'dst': operands = [dst]; break;
    case 'data': operands = [vgprOp('data0', 'src', s.type, s.dataDwords)]; break;
    case 'none': operands = []; break;
  }
  const out: { -readonly [K in keyof InstrDef]: InstrDef[K] } = { mnemonic: s.name, family: 'DS', opcode: s.op, operands };
  if (s.targets) out.targets = s.targets;
  const reads: readonly ImplicitReg[] = s.exec === false ? (s.reads ?? []) : ['EXEC', ...(s.reads ?? [])];
  if (reads.length) out.implicitReads = reads;
  if (s.writes && s.writes.length) out.implicitWrites = s.writes;
  if (s.flags && s.flags.length) out.flags = s.flags;
  return out;
}

const LDS: readonly ImplicitReg[] = ['LDS'];
const M0_LDS: readonly ImplicitReg[] = ['M0', 'LDS'];

/** Atomic without return (st) and with return (rtn) of one operation. */
function atomic(op: number, name: string, type: DataType, form: 'st' | 'st2' = 'st', targets?: readonly Target[]): Spec {
  const s: Spec = { op, name, form, type, flags: ['atomic'], reads: LDS, writes: LDS };
  return targets ? { ...s, targets } : s;
}
function atomicRtn(op: number, name: string, type: DataType, form: 'rtn' | 'rtn2' = 'rtn', extra: Partial<Spec> = {}): Spec {
  return { op, name, form, type, flags: ['atomic', 'rtn', ...(extra.flags ?? [])], reads: LDS, writes: LDS, ...stripFlags(extra) };
}
function stripFlags(s: Partial<Spec>): Partial<Spec> {
  const { flags: _f, ...rest } = s;
  return rest;
}
function store(op: number, name: string, type: DataType, form: 'st' | 'st2' = 'st', extra: Partial<Spec> = {}): Spec {
  return { op, name, form, type, writes: LDS, ...extra };
}
function load(op: number, name: string, type: DataType, extra: Partial<Spec> = {}): Spec {
  return { op, name, form: 'ld', type, reads: LDS, ...extra };
}
/** ds_*_src2_*: LDS[addr] op= LDS[addr + offset-derived stride]; gfx1010/gfx1013 only. */
function src2(op: number, name: string, type: DataType): Spec {
  return { op, name, form: 'addr', type, flags: ['atomic', 'src2'], targets: GFX1010_1013, reads: LDS, writes: LDS };
}

const SPECS: readonly Spec[] = [
  atomic(0, 'ds_add_u32', 'u32'),
  atomic(1, 'ds_sub_u32', 'u32'),
  atomic(2, 'ds_rsub_u32', 'u32'),
  atomic(3, 'ds_inc_u32', 'u32'),
  atomic(4, 'ds_dec_u32', 'u32'),
  atomic(5, 'ds_min_i32', 'i32'),
  atomic(6, 'ds_max_i32', 'i32'),
  atomic(7, 'ds_min_u32', 'u32'),
  atomic(8, 'ds_max_u32', 'u32'),
  atomic(9, 'ds_and_b32', 'b32'),
  atomic(10, 'ds_or_b32', 'b32'),
  atomic(11, 'ds_xor_b32', 'b32'),
  atomic(12, 'ds_mskor_b32', 'b32', 'st2'),
  store(13, 'ds_write_b32', 'b32'),
  store(14, 'ds_write2_b32', 'b32', 'st2', { flags: ['offset2'] }),
  store(15, 'ds_write2st64_b32', 'b32', 'st2', { flags: ['offset2', 'st64'] }),
  atomic(16, 'ds_cmpst_b32', 'b32', 'st2'),
  atomic(17, 'ds_cmpst_f32', 'f32', 'st2'),
  atomic(18, 'ds_min_f32', 'f32'),
  atomic(19, 'ds_max_f32', 'f32'),
  { op: 20, name: 'ds_nop', form: 'none', type: 'none', flags: ['noGds', 'noOffset'], exec: false },
  atomic(21, 'ds_add_f32', 'f32'),
  { op: 24, name: 'ds_gws_sema_release_all', form: 'none', type: 'none', flags: ['gdsOnly'], reads: ['M0'] },
  { op: 25, name: 'ds_gws_init', form: 'data', type: 'u32', flags: ['gdsOnly', 'data0InAddr'], reads: ['M0'] },
  { op: 26, name: 'ds_gws_sema_v', form: 'none', type: 'none', flags: ['gdsOnly'], reads: ['M0'] },
  { op: 27, name: 'ds_gws_sema_br', form: 'data', type: 'u32', flags: ['gdsOnly', 'data0InAddr'], reads: ['M0'] },
  { op: 28, name: 'ds_gws_sema_p', form: 'none', type: 'none', flags: ['gdsOnly'], reads: ['M0'] },
  { op: 29, name: 'ds_gws_barrier', form: 'data', type: 'u32', flags: ['gdsOnly', 'data0InAddr'], reads: ['M0'] },
  store(30, 'ds_write_b8', 'u8'),
  store(31, 'ds_write_b16', 'b16'),
  atomicRtn(32, 'ds_add_rtn_u32', 'u32'),
  atomicRtn(33, 'ds_sub_rtn_u32', 'u32'),
  atomicRtn(34, 'ds_rsub_rtn_u32', 'u32'),
  atomicRtn(35, 'ds_inc_rtn_u32', 'u32'),
  atomicRtn(36, 'ds_dec_rtn_u32', 'u32'),
  atomicRtn(37, 'ds_min_rtn_i32', 'i32'),
  atomicRtn(38, 'ds_max_rtn_i32', 'i32'),
  atomicRtn(39, 'ds_min_rtn_u32', 'u32'),
  atomicRtn(40, 'ds_max_rtn_u32', 'u32'),
  atomicRtn(41, 'ds_and_rtn_b32', 'b32'),
  atomicRtn(42, 'ds_or_rtn_b32', 'b32'),
  atomicRtn(43, 'ds_xor_rtn_b32', 'b32'),
  atomicRtn(44, 'ds_mskor_rtn_b32', 'b32', 'rtn2'),
  atomicRtn(45, 'ds_wrxchg_rtn_b32', 'b32'),
  atomicRtn(46, 'ds_wrxchg2_rtn_b32', 'b32', 'rtn2', { dstDwords: 2, flags: ['offset2'] }),
  atomicRtn(47, 'ds_wrxchg2st64_rtn_b32', 'b32', 'rtn2', { dstDwords: 2, flags: ['offset2', 'st64'] }),
  atomicRtn(48, 'ds_cmpst_rtn_b32', 'b32', 'rtn2'),
  atomicRtn(49, 'ds_cmpst_rtn_f32', 'f32', 'rtn2'),
  atomicRtn(50, 'ds_min_rtn_f32', 'f32'),
  atomicRtn(51, 'ds_max_rtn_f32', 'f32'),
  atomicRtn(52, 'ds_wrap_rtn_b32', 'u32', 'rtn2'),
  { op: 53, name: 'ds_swizzle_b32', form: 'ld', type: 'b32', flags: ['swizzle', 'noLds'] },
  load(54, 'ds_read_b32', 'b32'),
  load(55, 'ds_read2_b32', 'b32', { dstDwords: 2, flags: ['offset2'] }),
  load(56, 'ds_read2st64_b32', 'b32', { dstDwords: 2, flags: ['offset2', 'st64'] }),
  load(57, 'ds_read_i8', 'i8'),
  load(58, 'ds_read_u8', 'u8'),
  load(59, 'ds_read_i16', 'i16'),
  load(60, 'ds_read_u16', 'u16'),
  { op: 61, name: 'ds_consume', form: 'dst', type: 'u32', flags: ['atomic'], reads: M0_LDS, writes: LDS },
  { op: 62, name: 'ds_append', form: 'dst', type: 'u32', flags: ['atomic'], reads: M0_LDS, writes: LDS },
  { op: 63, name: 'ds_ordered_count', form: 'ld', type: 'u32', flags: ['gdsOnly', 'atomic', 'rtn'], reads: ['M0'] },
  atomic(64, 'ds_add_u64', 'u64'),
  atomic(65, 'ds_sub_u64', 'u64'),
  atomic(66, 'ds_rsub_u64', 'u64'),
  atomic(67, 'ds_inc_u64', 'u64'),
  atomic(68, 'ds_dec_u64', 'u64'),
  atomic(69, 'ds_min_i64', 'i64'),
  atomic(70, 'ds_max_i64', 'i64'),
  atomic(71, 'ds_min_u64', 'u64'),
  atomic(72, 'ds_max_u64', 'u64'),
  atomic(73, 'ds_and_b64', 'b64'),
  atomic(74, 'ds_or_b64', 'b64'),
  atomic(75, 'ds_xor_b64', 'b64'),
  atomic(76, 'ds_mskor_b64', 'b64', 'st2'),
  store(77, 'ds_write_b64', 'b64'),
  store(78, 'ds_write2_b64', 'b64', 'st2', { flags: ['offset2'] }),
  store(79, 'ds_write2st64_b64', 'b64', 'st2', { flags: ['offset2', 'st64'] }),
  atomic(80, 'ds_cmpst_b64', 'b64', 'st2'),
  atomic(81, 'ds_cmpst_f64', 'f64', 'st2'),
  atomic(82, 'ds_min_f64', 'f64'),
  atomic(83, 'ds_max_f64', 'f64'),
  atomicRtn(85, 'ds_add_rtn_f32', 'f32'),
  atomicRtn(96, 'ds_add_rtn_u64', 'u64'),
  atomicRtn(97, 'ds_sub_rtn_u64', 'u64'),
  atomicRtn(98, 'ds_rsub_rtn_u64', 'u64'),
  atomicRtn(99, 'ds_inc_rtn_u64', 'u64'),
  atomicRtn(100, 'ds_dec_rtn_u64', 'u64'),
  atomicRtn(101, 'ds_min_rtn_i64', 'i64'),
  atomicRtn(102, 'ds_max_rtn_i64', 'i64'),
  atomicRtn(103, 'ds_min_rtn_u64', 'u64'),
  atomicRtn(104, 'ds_max_rtn_u64', 'u64'),
  atomicRtn(105, 'ds_and_rtn_b64', 'b64'),
  atomicRtn(106, 'ds_or_rtn_b64', 'b64'),
  atomicRtn(107, 'ds_xor_rtn_b64', 'b64'),
  atomicRtn(108, 'ds_mskor_rtn_b64', 'b64', 'rtn2'),
  atomicRtn(109, 'ds_wrxchg_rtn_b64', 'b64'),
  atomicRtn(110, 'ds_wrxchg2_rtn_b64', 'b64', 'rtn2', { dstDwords: 4, flags: ['offset2'] }),
  atomicRtn(111, 'ds_wrxchg2st64_rtn_b64', 'b64', 'rtn2', { dstDwords: 4, flags: ['offset2', 'st64'] }),
  atomicRtn(112, 'ds_cmpst_rtn_b64', 'b64', 'rtn2'),
  atomicRtn(113, 'ds_cmpst_rtn_f64', 'f64', 'rtn2'),
  atomicRtn(114, 'ds_min_rtn_f64', 'f64'),
  atomicRtn(115, 'ds_max_rtn_f64', 'f64'),
  load(118, 'ds_read_b64', 'b64'),
  load(119, 'ds_read2_b64', 'b64', { dstDwords: 4, flags: ['offset2'] }),
  load(120, 'ds_read2st64_b64', 'b64', { dstDwords: 4, flags: ['offset2', 'st64'] }),
  atomicRtn(126, 'ds_condxchg32_rtn_b64', 'b64'),
  src2(128, 'ds_add_src2_u32', 'u32'),
  src2(129, 'ds_sub_src2_u32', 'u32'),
  src2(130, 'ds_rsub_src2_u32', 'u32'),
  src2(131, 'ds_inc_src2_u32', 'u32'),
  src2(132, 'ds_dec_src2_u32', 'u32'),
  src2(133, 'ds_min_src2_i32', 'i32'),
  src2(134, 'ds_max_src2_i32', 'i32'),
  src2(135, 'ds_min_src2_u32', 'u32'),
  src2(136, 'ds_max_src2_u32', 'u32'),
  src2(137, 'ds_and_src2_b32', 'b32'),
  src2(138, 'ds_or_src2_b32', 'b32'),
  src2(139, 'ds_xor_src2_b32', 'b32'),
  src2(141, 'ds_write_src2_b32', 'b32'),
  src2(146, 'ds_min_src2_f32', 'f32'),
  src2(147, 'ds_max_src2_f32', 'f32'),
  src2(149, 'ds_add_src2_f32', 'f32'),
  store(160, 'ds_write_b8_d16_hi', 'u8'),
  store(161, 'ds_write_b16_d16_hi', 'b16'),
  load(162, 'ds_read_u8_d16', 'u8'),
  load(163, 'ds_read_u8_d16_hi', 'u8'),
  load(164, 'ds_read_i8_d16', 'i8'),
  load(165, 'ds_read_i8_d16_hi', 'i8'),
  load(166, 'ds_read_u16_d16', 'b16'),
  load(167, 'ds_read_u16_d16_hi', 'b16'),
  { op: 176, name: 'ds_write_addtid_b32', form: 'data', type: 'b32', reads: ['M0'], writes: LDS },
  { op: 177, name: 'ds_read_addtid_b32', form: 'dst', type: 'b32', reads: M0_LDS },
  { op: 178, name: 'ds_permute_b32', form: 'rtn', type: 'b32', flags: ['noGds', 'noLds'] },
  { op: 179, name: 'ds_bpermute_b32', form: 'rtn', type: 'b32', flags: ['noGds', 'noLds'] },
  src2(192, 'ds_add_src2_u64', 'u64'),
  src2(193, 'ds_sub_src2_u64', 'u64'),
  src2(194, 'ds_rsub_src2_u64', 'u64'),
  src2(195, 'ds_inc_src2_u64', 'u64'),
  src2(196, 'ds_dec_src2_u64', 'u64'),
  src2(197, 'ds_min_src2_i64', 'i64'),
  src2(198, 'ds_max_src2_i64', 'i64'),
  src2(199, 'ds_min_src2_u64', 'u64'),
  src2(200, 'ds_max_src2_u64', 'u64'),
  src2(201, 'ds_and_src2_b64', 'b64'),
  src2(202, 'ds_or_src2_b64', 'b64'),
  src2(203, 'ds_xor_src2_b64', 'b64'),
  src2(205, 'ds_write_src2_b64', 'b64'),
  src2(210, 'ds_min_src2_f64', 'f64'),
  src2(211, 'ds_max_src2_f64', 'f64'),
  store(222, 'ds_write_b96', 'b96'),
  store(223, 'ds_write_b128', 'b128'),
  load(254, 'ds_read_b96', 'b96'),
  load(255, 'ds_read_b128', 'b128'),
];

export const DS_TABLE: readonly InstrDef[] = SPECS.map(def);

/**
 * The read-modify-write of an integer DS atomic mnemonic (add, sub, rsub, inc, dec, min_i, max_i,
 * min_u, max_u, and, or, xor, mskor, cmpst, wrxchg, wrap: the names of the RDNA2 DS opcode rules),
 * or undefined (float atomics, src2, append and the rest). The interpreter and the recompiler
 * both read it.
 */
export function dsAtomicOp(mnemonic: string): string | undefined {
  const r = /^ds_(add|sub|rsub|inc|dec|min|max|and|or|xor|mskor|cmpst|wrxchg|wrap)(?:_rtn)?_([biu])(32|64)$/.exec(mnemonic);
  if (!r || !r[1] || !r[2]) return undefined;
  return r[1] === 'min' || r[1] === 'max' ? `${r[1]}_${r[2] === 'i' ? 'i' : 'u'}` : r[1];
}

/**
 * The DS atomic whose read-modify-write a ds_*_src2_* form applies, with LDS[B] as its data (the
 * RDNA2 ISA names each src2 opcode after it): ds_X_src2_T is ds_X_T (ds_add_src2_f32 is
 * ds_add_f32, ds_min_src2_i64 is ds_min_i64), and ds_write_src2_T is ds_wrxchg_rtn_T (the new
 * value is the data: LDS[A] = LDS[B]). Its table entry also gives the element's type and width,
 * which the src2 entry itself (no data operand) does not carry. Undefined for any other entry.
 */
export function dsSrc2Atomic(def: InstrDef): InstrDef | undefined {
  if (!(def.flags ?? []).includes('src2')) return undefined;
  const r = /^ds_([a-z]+)_src2_([biuf](?:32|64))$/.exec(def.mnemonic);
  if (!r) return undefined;
  const name = r[1] === 'write' ? `ds_wrxchg_rtn_${r[2]}` : `ds_${r[1]}_${r[2]}`;
  return DS_TABLE.find((d) => d.mnemonic === name);
}

/**
 * The stride, in elements, of a src2 form for the 16-bit offset field and the lane's address A:
 * offset bit 15 (offset1[7]) set: {A[31], A[31:17]} sign-extended from 16 bits (A >> 17,
 * arithmetic); clear: offset[14:0] sign-extended from bit 14 ({offset1[6], offset1[6:0], offset0}).
 * B = A + stride x the element size (4 or 8). RDNA2 ISA, the DS_*_SRC2_* opcode descriptions.
 */
export function dsSrc2Stride(offset: number, a: number): number {
  return (offset & 0x8000) !== 0 ? (a | 0) >> 17 : ((offset & 0x7fff) << 17) >> 17;
}
