import type { DecodeContext, FamilyDecoder, Instruction, Operand, OperandValue } from './types.js';
import { TRUNCATED, DecodedInstruction } from './types.js';
import type { InstrDef } from '../isa/types.js';
import { familyLookup } from '../isa/table.js';

const lookupMIMG = familyLookup('MIMG');

// MIMG encoding (gfx10). RDNA2 ISA reference, "MIMG" microcode format:
//   dword 0: OP[7][0] NSA[2:1] DIM[5:3] DLC[7] DMASK[11:8] UNORM[12] GLC[13] R128[15] TFE[16]
//            LWE[17] OP[6:0][24:18] SLC[25] ENCODING[31:26]=111100   (bits 6 and 14 unused)
//   dword 1: VADDR[7:0] VDATA[15:8] SRSRC[20:16] (SGPR index / 4) SSAMP[25:21] (index / 4)
//            A16[30] D16[31]                                          (bits 29:26 unused)
//   NSA:     NSA extra dwords, one byte per further address VGPR.
// Register counts follow LLVM 19's disassembler (AMDGPUDisassembler::convertMIMGInst), which
// is what llvm-objdump prints: it first decodes a fixed variant per opcode (vdata 1 dword, or 4
// for gather4, 2 for cmpswap; vaddr 1 dword, or for NSA a fixed count per NSA length), then
// resizes vdata to popcount(dmask) (halved for d16, +1 for tfe) and vaddr to the size DIM/A16
// imply - but only when such a variant exists and the wider tuples stay within v0-v255;
// otherwise it prints the fixed variant unchanged. We reproduce that, so the printed registers
// are LLVM's; an emulator should recompute the real sizes from the fields in `mods`.

/** Coordinates and gradients per DIM (SQ_RSRC_IMG_1D .. 2D_MSAA_ARRAY). */
export const MIMG_DIM_COORDS: readonly number[] = [1, 2, 3, 3, 2, 3, 3, 4];
export const MIMG_DIM_GRADIENTS: readonly number[] = [2, 4, 6, 4, 2, 4, 4, 4];

export interface MimgPlan {
  readonly kind: 'load' | 'store' | 'atomic' | 'sample' | 'gather4' | 'bvh';
  readonly sampler: boolean;
  readonly d16: boolean;
  readonly extra: number;
  readonly grad: boolean;
  readonly g16: boolean;
  readonly coords: boolean;
  readonly mip: boolean;
  readonly bvh64: boolean;
  /**
   * Indexed by the data dwords dmask/d16/tfe imply: the vdata registers of that variant, or 0
   * when LLVM has none. (LLVM 19 prints a 4-dword non-cmpswap image atomic with a 5-VGPR tuple.)
   */
  readonly dataRegs: readonly number[];
  /** vdata dwords of the variant LLVM decodes first. */
  readonly decData: number;
  /** Bit n set: a non-NSA variant with n address dwords exists. */
  readonly addrSizes: number;
  /** Bit n set: an NSA variant with n addresses exists. */
  readonly nsaSizes: number;
  /** Address dwords of the non-NSA variant LLVM decodes first (the smallest that exists). */
  readonly decAddr: number;
  /** Addresses of the variant LLVM decodes for NSA=1,2,3 (0: none, the word is invalid). */
  readonly nsaDecoded: readonly number[];
}

const RANGES: readonly (readonly [number, number])[] = [[1, 1], [2, 2], [3, 3], [3, 4], [5, 5], [6, 6], [7, 7], [5, 8], [9, 9], [10, 10], [11, 11], [12, 12], [13, 16]];

function makePlan(def: InstrDef): MimgPlan {
  const f = def.flags ?? [];
  const has = (x: string) => f.includes(x);
  const kind = (['load', 'store', 'atomic', 'sample', 'gather4', 'bvh'] as const).find((k) => has(k)) ?? 'load';
  const extraFlag = f.find((x) => x.startsWith('extra:'));
  const extra = extraFlag ? Number(extraFlag.slice(6)) : 0;
  const grad = has('grad'), g16 = has('g16'), mip = has('mip');
  const sampler = def.operands.some((o) => o.name === 'ssamp');
  let dataRegs: readonly number[], decData: number, addrSizes = 0, nsaSizes = 0;
  const nsaDecoded = [0, 0, 0, 0];
  if (kind === 'sample' || kind === 'gather4') {
    dataRegs = kind === 'gather4' ? [0, 0, 2, 0, 4, 5] : [0, 1, 2, 3, 4, 5];
    decData = kind === 'gather4' ? 4 : 1;
    // Every address size some DIM/A16 combination gives (LLVM's AllNumAddrWords).
    const lo = grad ? 2 : 1;
    const hi = grad ? (g16 ? 7 : 9) + (mip ? 1 : 0) : 3 + (mip ? 1 : 0);
    const all: number[] = [];
    for (let n = lo; n <= hi; n++) all.push(n + extra);
    for (const [a, b] of RANGES) if (all.some((n) => n >= a && n <= b)) addrSizes |= 1 << b;
    for (const n of all) if (n >= 2 && n <= 12) nsaSizes |= 1 << n;
    const groups: readonly (readonly [number, number])[] = [[2, 5], [6, 9], [10, 12]];
    groups.forEach(([a, b], i) => {
      for (let n = b; n >= a; n--) if (nsaSizes & (1 << n)) { nsaDecoded[i + 1] = n; break; }
    });
  } else if (kind === 'bvh') {
    dataRegs = [0, 0, 0, 0, 4, 0];
    decData = 4;
  } else {
    const cmpswap = has('cmpswap');
    dataRegs = kind === 'atomic' ? (cmpswap ? [0, 0, 2, 0, 4, 0] : [0, 1, 2, 0, 5, 0]) : [0, 1, 2, 3, 4, 5];
    decData = kind === 'atomic' && cmpswap ? 2 : 1;
    addrSizes = 0b11110;
    nsaSizes = 0b11100;
    nsaDecoded[1] = 4;
  }
  return {
    kind, sampler, d16: has('d16'), extra, grad, g16, coords: !has('nocoord'), mip, bvh64: has('bvh64'),
    dataRegs, decData, addrSizes, nsaSizes, nsaDecoded, decAddr: addrSizes === 0 ? 1 : 31 - Math.clz32(addrSizes & -addrSizes),
  };
}

const PLANS = new Map<InstrDef, MimgPlan>();
export function mimgPlan(def: InstrDef): MimgPlan {
  let p = PLANS.get(def);
  if (p === undefined) {
    p = makePlan(def);
    PLANS.set(def, p);
  }
  return p;
}

/** Address dwords LLVM's getAddrSizeMIMGOp gives. */
export function mimgAddrSize(p: MimgPlan, dim: number, a16: boolean): number {
  const comps = (p.coords ? MIMG_DIM_COORDS[dim] ?? 1 : 0) + (p.mip ? 1 : 0);
  let words = p.extra + (a16 ? (comps + 1) >>> 1 : comps);
  if (p.grad) {
    const g = MIMG_DIM_GRADIENTS[dim] ?? 2;
    // LLVM 19 packs gradients only for the _g16 opcodes: with A16 the gradients stay 32-bit
    // on all three targets (its hasG16 is true for every gfx10 target it decodes).
    words += p.g16 ? ((g >>> 1) + 1) & ~1 : g;
  }
  return words;
}

/** A scalar tuple starting at code `base` (SGPR 0-105 or TTMP 108-123), or undefined. */
function scalarTuple(base: number, count: number): OperandValue | undefined {
  if (base + count - 1 <= 105) return { kind: 'sgpr', index: base, count };
  if (base >= 108 && base - 108 + count <= 16) return { kind: 'ttmp', index: base - 108, count };
  return undefined;
}

const popcount4 = (m: number) => (m & 1) + ((m >>> 1) & 1) + ((m >>> 2) & 1) + ((m >>> 3) & 1);

export const decodeMIMG: FamilyDecoder = (ctx: DecodeContext): Instruction | string => {
  if (ctx.index + 2 > ctx.end) return TRUNCATED;
  const w0 = ctx.words[ctx.index]! >>> 0;
  const w1 = ctx.words[ctx.index + 1]! >>> 0;
  const opcode = ((w0 >>> 18) & 0x7f) | ((w0 & 1) << 7);
  const def = lookupMIMG(ctx.target, opcode);
  if (def === undefined) return `no MIMG opcode ${opcode} on ${ctx.target}`;
  const p = mimgPlan(def);
  const nsa = (w0 >>> 1) & 3;
  const dim = (w0 >>> 3) & 7;
  const dlc = ((w0 >>> 7) & 1) === 1;
  const dmask = (w0 >>> 8) & 0xf;
  const unorm = ((w0 >>> 12) & 1) === 1;
  const glc = ((w0 >>> 13) & 1) === 1;
  const r128 = ((w0 >>> 15) & 1) === 1;
  const tfe = ((w0 >>> 16) & 1) === 1;
  const lwe = ((w0 >>> 17) & 1) === 1;
  const slc = ((w0 >>> 25) & 1) === 1;
  const vaddr0 = w1 & 0xff;
  const vdata = (w1 >>> 8) & 0xff;
  const srsrcField = (w1 >>> 16) & 0x1f;
  const ssampField = (w1 >>> 21) & 0x1f;
  const a16 = ((w1 >>> 30) & 1) === 1;
  const d16 = (w1 >>> 31) === 1;
  if (!p.sampler && ssampField !== 0) return 'SSAMP must be 0 for an opcode without a sampler';
  if (d16 && !p.d16) return 'D16=1 is not valid for this opcode';

  // The variant LLVM decodes first.
  let addrCount: number;
  if (p.kind === 'bvh') {
    if (dmask !== 0xf || !unorm || !r128 || glc || slc || dlc || tfe || lwe || dim !== 0) return 'BVH needs dmask 0xf, unorm, r128 and no other modifiers';
    addrCount = p.bvh64 ? (a16 ? 9 : 12) : (a16 ? 8 : 11);
    if (nsa !== 0 && nsa !== (addrCount <= 9 ? 2 : 3)) return 'BVH NSA length does not match its address count';
  } else if (nsa !== 0) {
    addrCount = p.nsaDecoded[nsa] ?? 0;
    if (addrCount === 0) return `no NSA form with ${nsa} extra dwords`;
  } else {
    addrCount = p.decAddr;
  }
  const size = 2 + nsa;
  if (ctx.index + size > ctx.end) return TRUNCATED;
  const addrs: number[] = [vaddr0];
  if (nsa !== 0) {
    for (let i = 1; i < addrCount; i++) {
      const w = ctx.words[ctx.index + 2 + ((i - 1) >>> 2)]! >>> 0;
      addrs.push((w >>> (((i - 1) & 3) * 8)) & 0xff);
    }
  } else if (vaddr0 + addrCount > 256) {
    return 'vaddr register range is out of bounds';
  }
  let dataCount = p.decData;
  if (vdata + dataCount > 256) return 'vdata register range is out of bounds';
  const srsrcCount = p.kind === 'bvh' ? 4 : 8;
  const srsrc = scalarTuple(srsrcField * 4, srsrcCount);
  if (srsrc === undefined) return 'srsrc is not an SGPR/TTMP tuple';
  let ssamp: OperandValue | undefined;
  if (p.sampler) {
    ssamp = scalarTuple(ssampField * 4, 4);
    if (ssamp === undefined) return 'ssamp is not an SGPR/TTMP tuple';
  }

  // LLVM's resizing of vdata / vaddr.
  let nonNsaAddr = nsa === 0 ? addrCount : 1;
  if (p.kind !== 'bvh') {
    const addrSize = mimgAddrSize(p, dim, a16);
    const fits = nsa === 0 || addrSize <= addrCount;
    let dst = p.kind === 'gather4' ? 4 : Math.max(popcount4(dmask), 1);
    if (d16) dst = (dst + 1) >>> 1;
    if (tfe) dst += 1;
    if (fits && !(dst === dataCount && addrSize === addrCount)) {
      const regs = p.dataRegs[dst] ?? 0;
      const a = nsa === 0 && addrSize > 12 ? 16 : addrSize;
      const exists = regs !== 0 && (((nsa === 0 ? p.addrSizes : p.nsaSizes) >>> a) & 1) === 1;
      if (exists && (dst === dataCount || vdata + regs <= 256) && (nsa !== 0 || a === addrCount || vaddr0 + a <= 256)) {
        dataCount = regs;
        if (nsa === 0) nonNsaAddr = a;
        else addrs.length = addrSize;
      }
    }
  }

  const ops: Operand[] = [{ name: 'vdata', value: { kind: 'vgpr', index: vdata, count: dataCount } }];
  if (nsa === 0) ops.push({ name: 'vaddr', value: { kind: 'vgpr', index: vaddr0, count: nonNsaAddr } });
  else for (const r of addrs) ops.push({ name: 'vaddr', value: { kind: 'vgpr', index: r, count: 1 } });
  ops.push({ name: 'srsrc', value: srsrc });
  if (ssamp !== undefined) ops.push({ name: 'ssamp', value: ssamp });
  const words: number[] = [];
  for (let i = 0; i < size; i++) words.push(ctx.words[ctx.index + i]! >>> 0);
  return new DecodedInstruction(ctx.pc, words, size * 4, 'MIMG', undefined, def, ops, { dmask, dim, unorm, glc, slc, dlc, r128, a16, tfe, lwe, d16, nsa: nsa !== 0 });
};
