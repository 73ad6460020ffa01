// The AMDHSA kernel descriptor (code object v4/v5): 64 bytes at the `<name>.kd` symbol. Field
// offsets and bit positions are from LLVM's AMDGPUUsage ("Kernel Descriptor" tables), read for
// facts. Every reserved field that must be zero is checked; damage gives a CodeObjectError.
import type { Target } from '../isa/types.js';

/** One error class for damaged or unsupported code objects: a one-line message naming the kernel and field. */
export class CodeObjectError extends Error {
  override readonly name = 'CodeObjectError';
}

export const KERNEL_DESCRIPTOR_SIZE = 64;

export interface Rsrc1 {
  readonly granulatedWorkitemVgprCount: number;
  readonly granulatedWavefrontSgprCount: number;
  readonly priority: number;
  readonly floatRoundMode32: number;
  readonly floatRoundMode16_64: number;
  readonly floatDenormMode32: number;
  readonly floatDenormMode16_64: number;
  readonly priv: boolean;
  readonly dx10Clamp: boolean;
  readonly debugMode: boolean;
  readonly ieeeMode: boolean;
  readonly bulky: boolean;
  readonly cdbgUser: boolean;
  readonly fp16Overflow: boolean;
  readonly wgpMode: boolean;
  readonly memOrdered: boolean;
  readonly fwdProgress: boolean;
  /** Bits 19:12: the MODE register's FP_ROUND (3:0) and FP_DENORM (7:4) fields as the wave starts. */
  readonly floatMode: number;
}

export interface Rsrc2 {
  readonly enablePrivateSegment: boolean;
  readonly userSgprCount: number;
  readonly enableTrapHandler: boolean;
  readonly workgroupIdX: boolean;
  readonly workgroupIdY: boolean;
  readonly workgroupIdZ: boolean;
  readonly workgroupInfo: boolean;
  /** 0: v0 = X; 1: +v1 = Y; 2: +v2 = Z. */
  readonly vgprWorkitemId: number;
  readonly exceptionFpIeeeInvalidOp: boolean;
  readonly exceptionFpDenormSrc: boolean;
  readonly exceptionFpIeeeDivZero: boolean;
  readonly exceptionFpIeeeOverflow: boolean;
  readonly exceptionFpIeeeUnderflow: boolean;
  readonly exceptionFpIeeeInexact: boolean;
  readonly exceptionIntDivZero: boolean;
}

export interface Rsrc3Gfx10 {
  readonly sharedVgprCount: number;
}

export interface KernelCodeProperties {
  readonly privateSegmentBuffer: boolean;
  readonly dispatchPtr: boolean;
  readonly queuePtr: boolean;
  readonly kernargSegmentPtr: boolean;
  readonly dispatchId: boolean;
  readonly flatScratchInit: boolean;
  readonly privateSegmentSize: boolean;
  readonly wavefrontSize32: boolean;
  readonly usesDynamicStack: boolean;
}

export interface KernelDescriptor {
  readonly groupSegmentFixedSize: number;
  readonly privateSegmentFixedSize: number;
  readonly kernargSize: number;
  /** Signed byte offset from the descriptor's own address to the kernel's first instruction. */
  readonly kernelCodeEntryByteOffset: bigint;
  readonly computePgmRsrc3: number;
  readonly computePgmRsrc1: number;
  readonly computePgmRsrc2: number;
  readonly kernelCodeProperties: number;
  readonly kernargPreload: number;
  /** kernarg_preload bits 6:0 (v5, gfx90a/gfx940 only; must be 0 on gfx10). */
  readonly kernargPreloadSpecLength: number;
  /** kernarg_preload bits 15:7. */
  readonly kernargPreloadSpecOffset: number;
  readonly rsrc1: Rsrc1;
  readonly rsrc2: Rsrc2;
  readonly rsrc3: Rsrc3Gfx10;
  readonly properties: KernelCodeProperties;
}

const bits = (v: number, lo: number, hi: number): number => (v >>> lo) & ((1 << (hi - lo + 1)) - 1);
const bit = (v: number, b: number): boolean => ((v >>> b) & 1) === 1;

/**
 * Parses a kernel descriptor from 64 bytes. `kernel` names it in errors. `target` selects the
 * generation's rules (all our targets are gfx10). Throws CodeObjectError only.
 */
export function parseKernelDescriptor(bytes: Uint8Array, kernel: string, target: Target): KernelDescriptor {
  void target;
  if (bytes.length < KERNEL_DESCRIPTOR_SIZE) {
    throw new CodeObjectError(`kernel ${kernel}: kernel descriptor is truncated (${bytes.length} of 64 bytes)`);
  }
  const dv = new DataView(bytes.buffer, bytes.byteOffset, KERNEL_DESCRIPTOR_SIZE);
  const fail = (field: string, detail: string): never => {
    throw new CodeObjectError(`kernel ${kernel}: kernel descriptor ${field} ${detail}`);
  };
  const zeroBytes = (from: number, to: number, field: string) => {
    for (let i = from; i < to; i++) if (bytes[i] !== 0) fail(field, `(bytes ${from}..${to - 1}) is reserved and must be 0`);
  };
  const zeroBits = (v: number, lo: number, hi: number, field: string) => {
    if (bits(v, lo, hi) !== 0) fail(field, `(bits ${hi}:${lo}) is reserved and must be 0 (is ${bits(v, lo, hi)})`);
  };
  zeroBytes(12, 16, 'reserved0');
  zeroBytes(24, 44, 'reserved1');
  zeroBytes(60, 64, 'reserved3');
  const r1 = dv.getUint32(48, true);
  const r2 = dv.getUint32(52, true);
  const r3 = dv.getUint32(44, true);
  const kcp = dv.getUint16(56, true);
  const preload = dv.getUint16(58, true);
  // rsrc1 fields the hardware sets itself or that must be 0 for code objects.
  zeroBits(r1, 10, 11, 'COMPUTE_PGM_RSRC1.PRIORITY');
  zeroBits(r1, 20, 20, 'COMPUTE_PGM_RSRC1.PRIV');
  zeroBits(r1, 22, 22, 'COMPUTE_PGM_RSRC1.DEBUG_MODE');
  zeroBits(r1, 24, 24, 'COMPUTE_PGM_RSRC1.BULKY');
  zeroBits(r1, 25, 25, 'COMPUTE_PGM_RSRC1.CDBG_USER');
  zeroBits(r1, 27, 28, 'COMPUTE_PGM_RSRC1.RESERVED0');
  // rsrc2
  zeroBits(r2, 13, 13, 'COMPUTE_PGM_RSRC2.ENABLE_EXCEPTION_ADDRESS_WATCH');
  zeroBits(r2, 14, 14, 'COMPUTE_PGM_RSRC2.ENABLE_EXCEPTION_MEMORY');
  zeroBits(r2, 15, 23, 'COMPUTE_PGM_RSRC2.GRANULATED_LDS_SIZE');
  zeroBits(r2, 31, 31, 'COMPUTE_PGM_RSRC2.RESERVED0');
  // rsrc3 on gfx10: only SHARED_VGPR_COUNT (3:0); the rest is gfx11+ or reserved.
  zeroBits(r3, 4, 31, 'COMPUTE_PGM_RSRC3.RESERVED');
  zeroBits(kcp, 7, 9, 'KERNEL_CODE_PROPERTIES.RESERVED0');
  zeroBits(kcp, 12, 15, 'KERNEL_CODE_PROPERTIES.RESERVED1');
  zeroBits(preload, 0, 15, 'KERNARG_PRELOAD (not supported before gfx90a)');
  const rsrc1: Rsrc1 = {
    granulatedWorkitemVgprCount: bits(r1, 0, 5),
    granulatedWavefrontSgprCount: bits(r1, 6, 9),
    priority: bits(r1, 10, 11),
    floatRoundMode32: bits(r1, 12, 13),
    floatRoundMode16_64: bits(r1, 14, 15),
    floatDenormMode32: bits(r1, 16, 17),
    floatDenormMode16_64: bits(r1, 18, 19),
    priv: bit(r1, 20),
    dx10Clamp: bit(r1, 21),
    debugMode: bit(r1, 22),
    ieeeMode: bit(r1, 23),
    bulky: bit(r1, 24),
    cdbgUser: bit(r1, 25),
    fp16Overflow: bit(r1, 26),
    wgpMode: bit(r1, 29),
    memOrdered: bit(r1, 30),
    fwdProgress: bit(r1, 31),
    floatMode: bits(r1, 12, 19),
  };
  const rsrc2: Rsrc2 = {
    enablePrivateSegment: bit(r2, 0),
    userSgprCount: bits(r2, 1, 5),
    enableTrapHandler: bit(r2, 6),
    workgroupIdX: bit(r2, 7),
    workgroupIdY: bit(r2, 8),
    workgroupIdZ: bit(r2, 9),
    workgroupInfo: bit(r2, 10),
    vgprWorkitemId: bits(r2, 11, 12),
    exceptionFpIeeeInvalidOp: bit(r2, 24),
    exceptionFpDenormSrc: bit(r2, 25),
    exceptionFpIeeeDivZero: bit(r2, 26),
    exceptionFpIeeeOverflow: bit(r2, 27),
    exceptionFpIeeeUnderflow: bit(r2, 28),
    exceptionFpIeeeInexact: bit(r2, 29),
    exceptionIntDivZero: bit(r2, 30),
  };
  if (rsrc2.vgprWorkitemId === 3) fail('COMPUTE_PGM_RSRC2.ENABLE_VGPR_WORKITEM_ID', 'is 3 (reserved)');
  const properties: KernelCodeProperties = {
    privateSegmentBuffer: bit(kcp, 0),
    dispatchPtr: bit(kcp, 1),
    queuePtr: bit(kcp, 2),
    kernargSegmentPtr: bit(kcp, 3),
    dispatchId: bit(kcp, 4),
    flatScratchInit: bit(kcp, 5),
    privateSegmentSize: bit(kcp, 6),
    wavefrontSize32: bit(kcp, 10),
    usesDynamicStack: bit(kcp, 11),
  };
  return {
    groupSegmentFixedSize: dv.getUint32(0, true),
    privateSegmentFixedSize: dv.getUint32(4, true),
    kernargSize: dv.getUint32(8, true),
    kernelCodeEntryByteOffset: dv.getBigInt64(16, true),
    computePgmRsrc3: r3,
    computePgmRsrc1: r1,
    computePgmRsrc2: r2,
    kernelCodeProperties: kcp,
    kernargPreload: preload,
    kernargPreloadSpecLength: bits(preload, 0, 6),
    kernargPreloadSpecOffset: bits(preload, 7, 15),
    rsrc1,
    rsrc2,
    rsrc3: { sharedVgprCount: bits(r3, 0, 3) },
    properties,
  };
}
