// The Vulkan engine of `rdna run`: recompile the kernel for the device's profile, lay out the same
// AMDHSA dispatch memory the interpreter uses (kernarg segment with hidden arguments, dispatch
// packet), hand every buffer to Vulkan with its device address patched where the kernel expects a
// pointer, run one Vulkan workgroup per RDNA wave, and copy the buffers back; a fault the kernel
// recorded in the sink buffer's fault word (a run-time-detected gap, src/ir/faults.ts) becomes a
// RuntimeFault naming the pc, the instruction and the gap.
import type { Shader } from '../container/shader.js';
import type { PreparedDispatch } from '../interp/args.js';
import { dispatchPacket, hiddenArgs } from '../interp/dispatch.js';
import type { TargetProfile } from '../backend/profile.js';
import { PUSH, SINK } from '../backend/spirv/emit.js';
import { RuntimeFault } from '../ir/faults.js';

export { RuntimeFault };
import { recompile, type RecompiledFault } from '../backend/recompile.js';
import type { DeviceProfile } from './device.js';
import type { AddressPatch, VulkanDevice } from './vulkan.js';

/** The recompiler's view of a device. */
export function targetProfile(p: DeviceProfile): TargetProfile {
  const w = (k: 'f16' | 'f32' | 'f64') => {
    const c = p.floatControls[k];
    return { roundingModeRTE: c.roundingModeRTE, roundingModeRTZ: c.roundingModeRTZ, denormPreserve: c.denormPreserve, denormFlushToZero: c.denormFlushToZero, signedZeroInfNanPreserve: c.signedZeroInfNanPreserve };
  };
  return { name: p.deviceName, f16: w('f16'), f32: w('f32'), f64: w('f64'), shaderInt64: p.features.shaderInt64, shaderFloat64: p.features.shaderFloat64,
    storageBuffer8BitAccess: p.features.storageBuffer8BitAccess, storageBuffer16BitAccess: p.features.storageBuffer16BitAccess };
}

export interface VulkanRunResult {
  readonly device: string;
  readonly waves: number;
  readonly ms: number;
  readonly compileMs: number;
  /** Of `ms`: the driver's shader module and pipeline creation (0 when the pipeline was cached). */
  readonly pipelineMs: number;
}

/** Runs the prepared dispatch on the device; the prepared buffers are updated in place. */
export async function runOnVulkan(shader: Shader, prep: PreparedDispatch, dev: VulkanDevice): Promise<VulkanRunResult> {
  const t0 = performance.now();
  const { spirv, faults } = recompile(shader, { profile: targetProfile(dev.profile) });
  return runModuleOnVulkan(shader.info, spirv, faults, prep, dev, performance.now() - t0);
}

/** Runs a module the recompiler emitted (its fault sites as `recompile` returns them) for the kernel `info` describes. */
export async function runModuleOnVulkan(info: Shader['info'], spirv: Uint32Array, faults: readonly RecompiledFault[], prep: PreparedDispatch, dev: VulkanDevice, compileMs = 0): Promise<VulkanRunResult> {
  const seg = new Uint8Array(Math.max(info.kernargSize, prep.kernarg.length, 4));
  seg.set(prep.kernarg.subarray(0, seg.length));
  hiddenArgs(info.args ?? [], new DataView(seg.buffer), prep.grid, prep.block);
  const packet = dispatchPacket(prep.grid, prep.block, 0, info.ldsSize, info.scratchSize);
  const sink = new Uint8Array(SINK.bytes);
  // Buffers: 0 kernarg segment, 1 dispatch packet, 2 sink, then the kernel's buffers.
  const buffers: Uint8Array[] = [seg, packet, sink, ...prep.buffers.map((b) => b.bytes)];
  const patches: AddressPatch[] = [
    { buffer: 0, into: 'push', offset: PUSH.kernargPtr },
    { buffer: 1, into: 'push', offset: PUSH.dispatchPtr },
    { buffer: 2, into: 'push', offset: PUSH.sinkPtr },
    { buffer: 0, into: 1, offset: 40 }, // hsa_kernel_dispatch_packet.kernarg_address
    ...prep.buffers.map((b, k) => ({ buffer: 3 + k, into: 0, offset: b.offset })),
  ];
  const ws = info.waveSize;
  const lanes = prep.block[0] * prep.block[1] * prep.block[2];
  const wavesPerGroup = Math.ceil(lanes / ws);
  const counts = [0, 1, 2].map((k) => Math.ceil((prep.grid[k] ?? 1) / (prep.block[k] ?? 1)));
  const waves = (counts[0] ?? 1) * (counts[1] ?? 1) * (counts[2] ?? 1) * wavesPerGroup;
  const vkX = Math.min(waves, 65535), vkY = Math.ceil(waves / vkX);
  const push = new DataView(new ArrayBuffer(PUSH.size));
  prep.grid.forEach((g, k) => push.setUint32(PUSH.grid + 4 * k, g, true));
  prep.block.forEach((b, k) => push.setUint32(PUSH.block + 4 * k, b, true));
  push.setUint32(PUSH.wavesPerGroup, wavesPerGroup, true);
  push.setUint32(PUSH.groupsX, counts[0] ?? 1, true);
  push.setUint32(PUSH.groupsY, counts[1] ?? 1, true);
  push.setUint32(PUSH.vkGroupsX, vkX, true);
  const r = await dev.run(spirv, 'main', buffers, push.buffer, [vkX, vkY, 1], { addressPatches: patches, deviceAddressBuffers: true });
  // The fault word (emit.ts): the first run-time-detected gap of the dispatch, if any. The buffers
  // were still copied back, but what the kernel left in them is not a result.
  const fw = new DataView(sink.buffer, sink.byteOffset, sink.byteLength).getUint32(SINK.fault, true);
  if (fw !== 0) {
    const f = faults[fw - 1];
    throw f ? new RuntimeFault(f.pc, f.instruction, f.message) : new RuntimeFault(0, '', `fault word ${fw} names no fault site (internal)`);
  }
  return { device: dev.profile.deviceName, waves, ms: r.ms, compileMs, pipelineMs: r.pipelineMs };
}
