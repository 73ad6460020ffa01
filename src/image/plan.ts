// What a MIMG storage instruction (image_load/_mip, image_store/_mip, their _pck forms, the 32-bit
// image atomics; image_get_resinfo apart, imageResinfoPlan) reads and writes, decided from its
// words alone, for both engines: the image class its DIM addresses, where each coordinate lies
// (address VGPRs, NSA lists, A16 halves), the data VGPRs it really uses (from DMASK/D16, not the
// register count LLVM prints), and the forms not modelled.
import type { Instruction } from '../decode/types.js';
import { CLASS_COORDS, DIM_CLASS, type ImageClass } from './linear.js';
import { NO_FLAGS } from '../isa/types.js';

export type ImageOpKind = 'load' | 'store' | 'atomic';

/** Where one coordinate is: a VGPR, and with A16 which half (0 low, 1 high). */
export interface CoordSlot {
  readonly vgpr: number;
  readonly half?: 0 | 1;
}

export interface ImageOpPlan {
  readonly kind: ImageOpKind;
  readonly cls: ImageClass;
  /** x, y, z (3D z or an array's slice) and a _mip form's mip, where each is. */
  readonly coords: { readonly x: CoordSlot; readonly y?: CoordSlot; readonly z?: CoordSlot; readonly mip?: CoordSlot };
  /** The first data VGPR and how many the instruction reads or writes. */
  readonly vdata: number;
  readonly dataDwords: number;
  readonly dmask: number;
  readonly d16: boolean;
  /** Only dwords 0..3 of the T# are read (R128); the others count as 0. */
  readonly r128: boolean;
  /** The T#'s first SGPR (8, or 4 under r128, consecutive). */
  readonly srsrc: number;
  /** Atomics: the operation (the mnemonic after `image_atomic_`), and whether it returns (GLC). */
  readonly atomic?: string;
  /** Atomics: a 64-bit one (DMASK 0x3, cmpswap 0xf: on a 32_32_UINT/SINT texel). */
  readonly wide?: boolean;
  readonly returns: boolean;
  /** The _pck forms (no format conversion): 'zero' (image_load_pck, image_load_mip_pck, the stores), 'sign' (the _pck_sgn loads). */
  readonly pck?: 'zero' | 'sign';
}

const popcount = (m: number): number => ((m & 1) + ((m >> 1) & 1) + ((m >> 2) & 1) + ((m >> 3) & 1));

/** The plan, or why the form is not modelled (a sentence for the engines' errors). */
export function imageOpPlan(inst: Instruction): ImageOpPlan | string {
  const m = inst.def.mnemonic;
  const f = inst.def.flags ?? NO_FLAGS;
  const kind: ImageOpKind | undefined = f.includes('load') ? 'load' : f.includes('store') ? 'store' : f.includes('atomic') ? 'atomic' : undefined;
  if (!kind || f.includes('nocoord')) return `${m} is not modelled (only image_load/_mip, image_store/_mip, their _pck forms and the image atomics are; image_get_resinfo has its own plan)`;
  const pck = /_pck/.test(m) ? (/_sgn$/.test(m) ? 'sign' as const : 'zero' as const) : undefined;
  const mods = inst.mods;
  const dim = mods.dim ?? 0;
  const cls = DIM_CLASS[dim];
  if (!cls) return `${m} with an MSAA dim (${dim}) is not modelled`;
  if (mods.tfe || mods.lwe) return `${m} with tfe or lwe is not modelled`;
  const dmask = mods.dmask ?? 0;
  const d16 = mods.d16 === true;
  let dataDwords: number;
  let atomic: string | undefined;
  let wide = false;
  if (kind === 'atomic') {
    atomic = m.slice('image_atomic_'.length);
    // DMASK says the width, as LLVM's MIMG_Atomic variants encode it: 0x1 a 32-bit atomic, 0x3 a
    // 64-bit one; cmpswap (data and compare) 0x3 and 0xf. The float atomics only in 32 bits here.
    const pair = atomic === 'cmpswap' || atomic === 'fcmpswap';
    const float = atomic.startsWith('f');
    const want = pair ? 3 : 1, wideMask = pair ? 0xf : 3;
    if (dmask === wideMask && !float) wide = true;
    else if (dmask !== want) return `${m} with dmask 0x${dmask.toString(16)} is not modelled (dmask 0x${want.toString(16)}${float ? '' : `, or 0x${wideMask.toString(16)} for 64 bits`})`;
    if (d16) return `${m} with d16 is not modelled`;
    dataDwords = popcount(dmask);
  } else {
    if (dmask === 0) return `${m} with dmask 0 is not modelled`;
    const n = popcount(dmask);
    dataDwords = d16 ? (n + 1) >>> 1 : n;
  }
  const mip = f.includes('mip');
  const names = CLASS_COORDS[cls];
  const count = names.length + (mip ? 1 : 0);
  // The address VGPRs: one operand with a count (consecutive), or an NSA list of single VGPRs.
  const addrOps = inst.operands.filter((o) => o.name === 'vaddr');
  const regs: number[] = [];
  for (const o of addrOps) {
    if (o.value.kind !== 'vgpr') return `${m}: an address that is not a VGPR`;
    const c = inst.mods.nsa ? 1 : Math.max(o.value.count ?? 1, 0);
    for (let i = 0; i < c; i++) regs.push(o.value.index + i);
  }
  const a16 = mods.a16 === true;
  const words = a16 ? (count + 1) >>> 1 : count;
  // The hardware reads the address dwords DIM/A16 imply from vaddr on; LLVM may print fewer.
  if (!inst.mods.nsa) {
    const first = regs[0];
    if (first === undefined) return `${m}: no address VGPR`;
    regs.length = 0;
    for (let i = 0; i < words; i++) regs.push(first + i);
  } else if (regs.length < words) {
    return `${m}: its NSA list has ${regs.length} addresses, its dim needs ${words}`;
  }
  if (regs.slice(0, words).some((r) => r > 255)) return `${m}: its address VGPRs pass v255 (its dim and a16 need ${words} from v${regs[0] ?? 0})`;
  const slot = (j: number): CoordSlot => {
    const vgpr = regs[a16 ? j >>> 1 : j] as number;
    return a16 ? { vgpr, half: (j & 1) as 0 | 1 } : { vgpr };
  };
  const coords: { x: CoordSlot; y?: CoordSlot; z?: CoordSlot; mip?: CoordSlot } = { x: slot(0) };
  names.forEach((n, j) => {
    if (n === 'y') coords.y = slot(j);
    else if (n === 'z' || n === 's') coords.z = slot(j);
  });
  if (mip) coords.mip = slot(names.length);
  const vdataOp = inst.operands.find((o) => o.name === 'vdata');
  const srsrcOp = inst.operands.find((o) => o.name === 'srsrc');
  if (vdataOp?.value.kind !== 'vgpr') return `${m}: no vdata VGPR`;
  if (srsrcOp?.value.kind !== 'sgpr') return `${m}: a T# that is not in SGPRs is not modelled`;
  if (vdataOp.value.index + dataDwords > 256) return `${m}: its data VGPRs pass v255`;
  return {
    kind, cls, coords, vdata: vdataOp.value.index, dataDwords, dmask, d16, r128: mods.r128 === true,
    srsrc: srsrcOp.value.index, ...(atomic ? { atomic } : {}), ...(wide ? { wide } : {}), returns: kind === 'atomic' && mods.glc === true, ...(pck ? { pck } : {}),
  };
}

/** image_get_resinfo: no coordinates, the level (counted from BASE_LEVEL) in its one address dword. */
export interface ResinfoPlan {
  readonly kind: 'resinfo';
  readonly cls: ImageClass;
  /** Where the level is (A16: the low half of the address VGPR). */
  readonly mip: CoordSlot;
  /** The first result VGPR and how many (one per dmask channel, ascending). */
  readonly vdata: number;
  readonly dataDwords: number;
  readonly dmask: number;
  readonly r128: boolean;
  readonly srsrc: number;
}

/**
 * The channels image_get_resinfo gives per class (x width, y height or a 1D array's layers, z
 * depth or the layers, w the view's level count); a channel missing here is refused (what the
 * hardware returns there is not established: see src/interp/units/mimg.ts).
 */
export const RESINFO_CHANNELS: Readonly<Record<ImageClass, number>> = { '1d': 0x9, '2d': 0xb, '3d': 0xf, cube: 0xf, '1dArray': 0xb, '2dArray': 0xf };

/** The plan of an image_get_resinfo, or why the form is not modelled. */
export function imageResinfoPlan(inst: Instruction): ResinfoPlan | string {
  const m = inst.def.mnemonic;
  if (!(inst.def.flags ?? NO_FLAGS).includes('nocoord')) return `${m} is not image_get_resinfo`;
  const mods = inst.mods;
  const dim = mods.dim ?? 0;
  const cls = DIM_CLASS[dim];
  if (!cls) return `${m} with an MSAA dim (${dim}) is not modelled`;
  if (mods.tfe || mods.lwe) return `${m} with tfe or lwe is not modelled`;
  if (mods.d16) return `${m} with d16 is not modelled`;
  const dmask = mods.dmask ?? 0;
  if (dmask === 0) return `${m} with dmask 0 is not modelled`;
  const unknown = dmask & ~(RESINFO_CHANNELS[cls] ?? 0);
  if (unknown) {
    const names = [0, 1, 2, 3].filter((k) => (unknown >> k) & 1).map((k) => 'xyzw'[k]).join(', ');
    return `${m} with dmask 0x${dmask.toString(16)} on a ${cls} resource is not modelled (what it returns in channel ${names} is not established)`;
  }
  const addr = inst.operands.find((o) => o.name === 'vaddr');
  if (addr?.value.kind !== 'vgpr') return `${m}: an address that is not a VGPR`;
  const vgpr = addr.value.index;
  const vdataOp = inst.operands.find((o) => o.name === 'vdata');
  const srsrcOp = inst.operands.find((o) => o.name === 'srsrc');
  if (vdataOp?.value.kind !== 'vgpr') return `${m}: no vdata VGPR`;
  if (srsrcOp?.value.kind !== 'sgpr') return `${m}: a T# that is not in SGPRs is not modelled`;
  const dataDwords = popcount(dmask);
  if (vdataOp.value.index + dataDwords > 256) return `${m}: its data VGPRs pass v255`;
  return {
    kind: 'resinfo', cls, mip: mods.a16 ? { vgpr, half: 0 } : { vgpr }, vdata: vdataOp.value.index, dataDwords, dmask,
    r128: mods.r128 === true, srsrc: srsrcOp.value.index,
  };
}
