// The Vulkan engine of `rdna run`: recompile each kernel once for the device's profile, lay out the
// same AMDHSA dispatch memory the interpreter uses (src/interp/dispatch.ts: the kernarg segment with
// the hidden arguments, the dispatch packet with the group segment size, the __local offsets the
// shared ARGS parser placed), hand every buffer to Vulkan with its device address patched where the
// kernel expects a pointer, run one Vulkan workgroup per RDNA wave (or per RDNA workgroup, for a
// module in the workgroup layout: LDS, s_barrier; emit.ts) with the pipeline options its lane
// exchange needs (a module of subgroup operations: its required subgroup size and full subgroups,
// `pipelineOptions`), and copy the buffers back; a
// fault the kernel recorded in its sink buffer's fault word (a run-time-detected gap,
// src/ir/faults.ts) becomes a RuntimeFault naming the pc, the instruction and the gap.
//
// A sequence (an ARGS plan of many dispatches) runs as few submissions as it can: each holds up to
// STEPS_PER_SUBMISSION dispatches in one command buffer (VulkanDevice.runSteps: a memory barrier
// between dispatches), over the plan's buffers, which stay on the device for the whole submission
// and are copied back after it. Every dispatch of a submission has its own kernarg segment and
// dispatch packet, side by side in one arena buffer; every kernel its own sink buffer (fault sites
// are numbered per module), and every kernel with scratch a scratch buffer (each wave of a dispatch
// its region, src/interp/scratch.ts's layout; sized for the submission's largest dispatch of it).
// Buffers: 0 the arena, 1..K the kernels' sinks, then the scratch buffers, the code object images
// (modules that address one), then the plan's buffers.
import type { CodeImage, Shader } from '../container/shader.js';
import { describeStep, planSteps, type ArgsPlan, type BufferSlot, type PlanItem, type PreparedDispatch } from '../interp/args.js';
import { dispatchPacket, kernargSegment, launchRefusal, type Dim3 } from '../interp/dispatch.js';
import { usesScratchRing, wantsScratch } from '../interp/scratch.js';
import { scratchWaveBytes } from '../isa/apertures.js';
import type { TargetProfile } from '../backend/profile.js';
import type { LaneExchange } from '../backend/lane-exchange.js';
import { PUSH, SINK } from '../backend/spirv/emit.js';
import { RuntimeFault } from '../ir/faults.js';
import { maxWorkItems, recompile, type RecompiledFault } from '../backend/recompile.js';
import type { DeviceProfile } from './device.js';
import { RUN_LIMITS, STEP_LIMITS, VulkanError, type AddressPatch, type VulkanDevice } from './vulkan.js';

export { RuntimeFault };

/** The recompiler's view of a device. */
export function targetProfile(p: DeviceProfile): TargetProfile {
  const w = (k: 'f16' | 'f32' | 'f64') => {
    const c = p.floatControls[k];
    return { roundingModeRTE: c.roundingModeRTE, roundingModeRTZ: c.roundingModeRTZ, denormPreserve: c.denormPreserve, denormFlushToZero: c.denormFlushToZero, signedZeroInfNanPreserve: c.signedZeroInfNanPreserve };
  };
  return { name: p.deviceName, denormBehaviorIndependence: p.floatControls.denormBehaviorIndependence, roundingModeIndependence: p.floatControls.roundingModeIndependence, f16: w('f16'), f32: w('f32'), f64: w('f64'), shaderInt64: p.features.shaderInt64, shaderFloat64: p.features.shaderFloat64,
    storageBuffer8BitAccess: p.features.storageBuffer8BitAccess, storageBuffer16BitAccess: p.features.storageBuffer16BitAccess, shaderBufferInt64Atomics: p.features.shaderBufferInt64Atomics,
    // VK_KHR_shader_clock's features as the addon enabled them (s_memtime, s_memrealtime).
    shaderSubgroupClock: p.features.shaderSubgroupClock, shaderDeviceClock: p.features.shaderDeviceClock,
    // Measured on lavapipe only (VK_DRIVER_ID_MESA_LLVMPIPE: x86 loads and stores); every other driver gets the byte path.
    unalignedDwordAccess: p.driverId === DRIVER_ID_MESA_LLVMPIPE,
    // Measured on the H200 (VK_DRIVER_ID_NVIDIA_PROPRIETARY): f64 device ops broke other code of the module (TargetProfile.f64DeviceOps).
    ...(p.driverId === DRIVER_ID_NVIDIA_PROPRIETARY ? { f64DeviceOps: false } : {}),
    // What the lane exchange's choice reads (src/backend/lane-exchange.ts): sizes, whether a size
    // and full subgroups can be required (the features as enabled), the operations in compute.
    subgroup: { size: p.subgroup.size, minSize: p.subgroup.minSize, maxSize: p.subgroup.maxSize, sizeControl: p.features.subgroupSizeControl && p.subgroup.requiredSizeInCompute,
      fullSubgroups: p.features.computeFullSubgroups, inCompute: p.subgroup.supportedInCompute, operations: p.subgroup.supportedOperations } };
}

/** VkDriverId of lavapipe (VK_DRIVER_ID_MESA_LLVMPIPE). */
const DRIVER_ID_MESA_LLVMPIPE = 13;
/** VkDriverId of NVIDIA's driver (VK_DRIVER_ID_NVIDIA_PROPRIETARY). */
const DRIVER_ID_NVIDIA_PROPRIETARY = 4;

/** A kernel recompiled for a device. */
export interface CompiledKernel {
  readonly shader: Shader;
  readonly spirv: Uint32Array;
  readonly faults: readonly RecompiledFault[];
  readonly compileMs: number;
  /** What one Vulkan workgroup runs: a wave, or a whole RDNA workgroup (emit.ts). */
  readonly dispatch: 'wave' | 'workgroup';
  /** The LDS size it was compiled for (its accesses' bound): every dispatch of it must have this much. */
  readonly ldsBytes: number;
  /** How its lanes exchange values: a subgroup module needs its pipeline's required subgroup size and full subgroups (pipelineOptions). */
  readonly laneExchange: LaneExchange;
  /** The most work-items a workgroup of its dispatches may have (what it was compiled for: RecompileOptions.workItems). */
  readonly workItems: number;
  /** The module addresses the code object's image (RecompileResult.codeImage): the run gives it a buffer of shader.image. */
  readonly codeImage?: boolean;
}

/**
 * Recompiles the kernel for the device's profile (TranslateError / CompileError with the pc for
 * what the recompiler does not cover), for dispatches with `ldsBytes` of LDS (static plus
 * dynamic; default: the kernel's static LDS) and workgroups of at most `workItems` work-items
 * (default: the kernel's required or maximum workgroup size).
 */
export function compileFor(shader: Shader, dev: VulkanDevice, ldsBytes = shader.info.ldsSize, workItems?: number): CompiledKernel {
  const t0 = performance.now();
  const r = recompile(shader, { profile: targetProfile(dev.profile), ldsBytes, ...(workItems !== undefined ? { workItems } : {}) });
  return { shader, spirv: r.spirv, faults: r.faults, dispatch: r.dispatch, ldsBytes, laneExchange: r.laneExchange, workItems: r.workItems, ...(r.codeImage ? { codeImage: true } : {}), compileMs: performance.now() - t0 };
}

/**
 * The pipeline options of one runSteps call, which every pipeline of the call shares: those of
 * its subgroup modules (a required subgroup size of the wave's, full subgroups), which must agree;
 * a workgroup-memory module runs under them too where its LocalSize (its wave size) is a multiple
 * of that size (correct on any subgroup size). A VulkanError where they cannot share one set.
 */
export function pipelineOptions(kernels: readonly CompiledKernel[], dev: VulkanDevice): { requiredSubgroupSize?: number; fullSubgroups?: boolean } {
  const sub = kernels.filter((k) => k.laneExchange.kind === 'subgroup');
  const first = sub[0]?.laneExchange;
  if (first === undefined || first.kind !== 'subgroup') return {};
  for (const k of sub) {
    const x = k.laneExchange;
    if (x.kind === 'subgroup' && x.requiredSubgroupSize !== first.requiredSubgroupSize) {
      throw new VulkanError('ERR_OUT_OF_RANGE', `${k.shader.info.name} and ${sub[0]?.shader.info.name}: their subgroup lane exchanges need different subgroup sizes (${x.subgroupSize}, ${first.subgroupSize}), and one submission's pipelines share one required size`);
    }
  }
  // The size the pipelines get: the required one, else the device's (the subgroup path's size then).
  const size = first.requiredSubgroupSize ?? dev.profile.subgroup.size;
  for (const k of kernels) {
    if (k.laneExchange.kind === 'workgroup-memory' && k.shader.info.waveSize % size !== 0) {
      throw new VulkanError('ERR_OUT_OF_RANGE', `${k.shader.info.name} (wave${k.shader.info.waveSize}, workgroup memory) cannot run with full subgroups of ${size} beside ${sub[0]?.shader.info.name} in one submission`);
    }
  }
  return { ...(first.requiredSubgroupSize !== undefined ? { requiredSubgroupSize: first.requiredSubgroupSize } : {}), fullSubgroups: true };
}

/** The LDS size (the packet's group_segment_size) of the plan's dispatches of `shader`; a VulkanError when they differ. */
export function planLdsBytes(plan: ArgsPlan, shader: Shader): number {
  const sizes = new Set<number>();
  const walk = (items: readonly PlanItem[]): void => {
    for (const it of items) {
      if ('dispatch' in it) { if (it.dispatch.shader === shader) sizes.add(it.dispatch.groupSegmentSize); } else walk(it.items);
    }
  };
  walk(plan.items);
  if (sizes.size > 1) throw new VulkanError('ERR_OUT_OF_RANGE', `${shader.info.name}: its dispatches have different LDS sizes (${[...sizes].join(', ')} bytes, with their __local arguments); the Vulkan engine compiles a kernel for one LDS size`);
  return [...sizes][0] ?? shader.info.ldsSize;
}

/** The most work-items a workgroup of the plan's dispatches of `shader` has (what compileFor compiles for; the kernel's bound when it has none). */
export function planWorkItems(plan: ArgsPlan, shader: Shader): number {
  let most = 0;
  const walk = (items: readonly PlanItem[]): void => {
    for (const it of items) {
      if ('dispatch' in it) { if (it.dispatch.shader === shader) most = Math.max(most, it.dispatch.block[0] * it.dispatch.block[1] * it.dispatch.block[2]); } else walk(it.items);
    }
  };
  walk(plan.items);
  return most > 0 ? Math.min(most, maxWorkItems(shader.info)) : maxWorkItems(shader.info);
}

export interface VulkanRunResult {
  readonly device: string;
  readonly waves: number;
  /** Wall time of the submissions (pipelines, uploads, dispatches, copies back). */
  readonly ms: number;
  readonly compileMs: number;
  readonly dispatches: number;
  readonly submissions: number;
  /** Of `ms`: the driver's shader module and pipeline creation (0 when the pipelines were cached). */
  readonly pipelineMs: number;
}

/** Dispatches per submission (each has its own kernarg segment and push block; see the header). */
export const STEPS_PER_SUBMISSION = 4096;
/** The kernarg arena of one submission stays under this (more dispatches go into the next one). */
const MAX_ARENA = 16 << 20;
const PACKET = 64;
/** The most scratch one dispatch may have (all its waves' regions). */
const MAX_SCRATCH = 1 << 30;
/** Each dispatch's kernarg segment and packet start at this alignment in the arena (AMDHSA asks 16 and 64). */
const ARENA_ALIGN = 64;

const align = (n: number) => Math.ceil(n / ARENA_ALIGN) * ARENA_ALIGN;

/** One dispatch for the device: its kernel, geometry, explicit kernarg bytes and pointer slots. */
interface VkStep {
  readonly kernel: number;
  readonly grid: Dim3;
  readonly block: Dim3;
  readonly kernarg: Uint8Array;
  readonly bufferSlots: readonly BufferSlot[];
  readonly groupSegmentSize: number;
  /** For fault messages. */
  readonly describe: () => string;
}

function wavesOf(shader: Shader, grid: Dim3, block: Dim3): { waves: number; wavesPerGroup: number; counts: number[] } {
  const lanes = block[0] * block[1] * block[2];
  const wavesPerGroup = Math.ceil(lanes / shader.info.waveSize);
  const counts = [0, 1, 2].map((k) => Math.ceil((grid[k] ?? 1) / (block[k] ?? 1)));
  return { waves: (counts[0] ?? 1) * (counts[1] ?? 1) * (counts[2] ?? 1) * wavesPerGroup, wavesPerGroup, counts };
}

/** Runs the steps (any number) over `buffers` (updated in place), in submissions of at most `perSubmission` dispatches. */
async function runSteps(kernels: readonly CompiledKernel[], buffers: readonly Uint8Array[], steps: Iterable<VkStep>, dev: VulkanDevice, perSubmission: number, ring: number | undefined, timeoutMs?: number): Promise<{ waves: number; ms: number; pipelineMs: number; dispatches: number; submissions: number }> {
  const K = kernels.length;
  // The scratch buffers' indices (kernels with a private segment), after the sinks.
  const scratchOf = new Map<number, number>();
  // A raw shader's dispatches use the plan's scratch ring (`ring`, one of `buffers`) instead.
  kernels.forEach((k, i) => { if (wantsScratch(k.shader.info) && !usesScratchRing(k.shader.info)) scratchOf.set(i, 1 + K + scratchOf.size); });
  // The code object images the modules address, after the scratch buffers: one buffer per image
  // (the kernels of one code object share it, as one loaded object), a copy that the run's
  // dispatches write through (.data), as the interpreter's memory maps it once.
  const imageBuffers = new Map<CodeImage, number>();
  const imageOf = new Map<number, number>();
  kernels.forEach((k, i) => {
    const im = k.shader.image;
    if (!k.codeImage || !im) return;
    let b = imageBuffers.get(im);
    if (b === undefined) imageBuffers.set(im, b = 1 + K + scratchOf.size + imageBuffers.size);
    imageOf.set(i, b);
  });
  const images = [...imageBuffers.keys()].map((im) => im.bytes.slice());
  const first = 1 + K + scratchOf.size + images.length;
  if (first + buffers.length > RUN_LIMITS.maxBuffers) {
    throw new VulkanError('ERR_OUT_OF_RANGE', `the run needs ${first + buffers.length} Vulkan buffers (${buffers.length} of the document, ${K} kernels' sink buffers, ${scratchOf.size} scratch buffers, ${images.length} code object images, 1 for the kernarg segments); the engine binds at most ${RUN_LIMITS.maxBuffers}`);
  }
  if (K > STEP_LIMITS.maxKernels) throw new VulkanError('ERR_OUT_OF_RANGE', `the run dispatches ${K} kernels; one submission takes at most ${STEP_LIMITS.maxKernels}`);
  const limit = Math.max(1, Math.min(perSubmission, STEP_LIMITS.maxSteps));
  const sinks = kernels.map(() => new Uint8Array(SINK.bytes));
  // Subgroup modules' pipelines: their required subgroup size and full subgroups (lane-exchange.ts).
  const subgroupOptions = pipelineOptions(kernels, dev);
  let waves = 0, ms = 0, pipelineMs = 0, dispatches = 0, submissions = 0;
  let chunk: { step: VkStep; seg: Uint8Array; at: number }[] = [];
  let arenaBytes = 0;

  const flush = async () => {
    if (chunk.length === 0) return;
    const n = chunk.length;
    const arena = new Uint8Array(Math.max(arenaBytes, 4));
    const kernelOf = new Uint32Array(n), groups = new Uint32Array(3 * n);
    const push = new Uint8Array(n * PUSH.size);
    const pv = new DataView(push.buffer);
    const patches: AddressPatch[] = [];
    const used = new Set<number>();
    // Each kernel's scratch buffer: its largest dispatch of the chunk (the kernel zeroes its regions).
    const scratchBytes = new Map<number, number>([...scratchOf.keys()].map((k) => [k, 0]));
    chunk.forEach(({ step, seg, at }, s) => {
      const k = kernels[step.kernel] as CompiledKernel;
      used.add(step.kernel);
      const pkt = at + align(seg.length);
      arena.set(seg, at);
      arena.set(dispatchPacket(step.grid, step.block, 0, step.groupSegmentSize, k.shader.info.scratchSize), pkt);
      const { waves: w, wavesPerGroup, counts } = wavesOf(k.shader, step.grid, step.block);
      waves += w;
      if (step.groupSegmentSize !== k.ldsBytes) {
        throw new VulkanError('ERR_OUT_OF_RANGE', `${k.shader.info.name}: the dispatch has ${step.groupSegmentSize} bytes of LDS, but the kernel was compiled for ${k.ldsBytes} (internal: compile it for the dispatch's size)`);
      }
      const items = step.block[0] * step.block[1] * step.block[2];
      if (k.dispatch === 'workgroup' && items > maxWorkItems(k.shader.info)) {
        throw new VulkanError('ERR_OUT_OF_RANGE', `${k.shader.info.name}: the dispatch's workgroups have ${items} work-items; the kernel allows at most ${maxWorkItems(k.shader.info)} (its required or maximum workgroup size)`);
      }
      if (k.dispatch === 'workgroup' && items > k.workItems) {
        throw new VulkanError('ERR_OUT_OF_RANGE', `${k.shader.info.name}: the dispatch's workgroups have ${items} work-items, but the kernel was compiled for at most ${k.workItems} (internal: compile it for the dispatch's size)`);
      }
      // A Vulkan workgroup per wave, or per RDNA workgroup (its waves in turn: emit.ts).
      const vk = k.dispatch === 'workgroup' ? w / wavesPerGroup : w;
      const vkX = Math.min(vk, RUN_LIMITS.maxGroupsPerDim), vkY = Math.ceil(vk / vkX);
      kernelOf[s] = step.kernel;
      groups.set([vkX, vkY, 1], 3 * s);
      const o = s * PUSH.size;
      step.grid.forEach((g, d) => pv.setUint32(o + PUSH.grid + 4 * d, g, true));
      step.block.forEach((b, d) => pv.setUint32(o + PUSH.block + 4 * d, b, true));
      pv.setUint32(o + PUSH.wavesPerGroup, wavesPerGroup, true);
      pv.setUint32(o + PUSH.groupsX, counts[0] ?? 1, true);
      pv.setUint32(o + PUSH.groupsY, counts[1] ?? 1, true);
      pv.setUint32(o + PUSH.vkGroupsX, vkX, true);
      patches.push(
        { buffer: 0, into: 'push', step: s, offset: PUSH.kernargPtr, add: at },
        { buffer: 0, into: 'push', step: s, offset: PUSH.dispatchPtr, add: pkt },
        { buffer: 1 + step.kernel, into: 'push', step: s, offset: PUSH.sinkPtr },
        { buffer: 0, into: 0, offset: pkt + 40, add: at }, // hsa_kernel_dispatch_packet.kernarg_address
        ...step.bufferSlots.map((b) => ({ buffer: first + b.buffer, ...(b.into === undefined ? { into: 0, offset: at + b.offset } : { into: first + b.into, offset: b.offset }), ...(b.layout ? { layout: b.layout } : {}) })),
      );
      const ib = imageOf.get(step.kernel);
      if (ib !== undefined) patches.push({ buffer: ib, into: 'push', step: s, offset: PUSH.imagePtr });
      if (usesScratchRing(k.shader.info)) {
        if (ring === undefined) throw new VulkanError('ERR_OUT_OF_RANGE', `internal: ${k.shader.info.name} has scratch, the run has no scratch ring`);
        patches.push({ buffer: first + ring, into: 'push', step: s, offset: PUSH.scratchPtr });
      }
      const sb = scratchOf.get(step.kernel);
      if (sb !== undefined) {
        const need = w * scratchWaveBytes(k.shader.info.scratchSize, k.shader.info.waveSize);
        if (need > MAX_SCRATCH) throw new VulkanError('ERR_OUT_OF_RANGE', `${k.shader.info.name}: the dispatch's scratch (${w} waves of ${scratchWaveBytes(k.shader.info.scratchSize, k.shader.info.waveSize)} bytes) is more than the engine allocates (${MAX_SCRATCH} bytes)`);
        scratchBytes.set(step.kernel, Math.max(scratchBytes.get(step.kernel) ?? 0, need));
        patches.push({ buffer: sb, into: 'push', step: s, offset: PUSH.scratchPtr });
      }
    });
    for (const sk of sinks) sk.fill(0);
    const r = await dev.runSteps(kernels.map((k) => ({ spirv: k.spirv, entry: 'main' })), [arena, ...sinks, ...[...scratchBytes.values()].map((n) => new Uint8Array(Math.max(4, n))), ...images, ...buffers], { kernel: kernelOf, groups, push }, { addressPatches: patches, deviceAddressBuffers: true, ...subgroupOptions, ...(timeoutMs !== undefined ? { timeoutMs } : {}) });
    ms += r.ms;
    pipelineMs += r.pipelineMs;
    submissions++;
    // The fault words (emit.ts): each kernel's first run-time-detected gap in this submission. The
    // buffers were still copied back, but what the kernels left in them is not a result.
    for (const k of used) {
      const sk = sinks[k] as Uint8Array;
      const fw = new DataView(sk.buffer, sk.byteOffset, sk.byteLength).getUint32(SINK.fault, true);
      if (fw === 0) continue;
      const f = (kernels[k] as CompiledKernel).faults[fw - 1];
      const inKernel = chunk.filter((c) => c.step.kernel === k);
      const [a, b] = [inKernel[0]?.step.describe(), inKernel[inKernel.length - 1]?.step.describe()];
      const where = dispatches === 0 && n === 1 ? '' : inKernel.length === 1 ? ` (${a})` : ` (in one of the ${inKernel.length} dispatches of ${(kernels[k] as CompiledKernel).shader.info.name} from ${a} to ${b})`;
      throw f ? new RuntimeFault(f.pc, f.instruction, f.message + where) : new RuntimeFault(0, '', `fault word ${fw} names no fault site (internal)`);
    }
    dispatches += n;
    chunk = [];
    arenaBytes = 0;
  };

  for (const step of steps) {
    const k = kernels[step.kernel] as CompiledKernel;
    const refusal = launchRefusal(k.shader.info, step.grid, step.block);
    if (refusal) throw new VulkanError('ERR_OUT_OF_RANGE', refusal);
    const seg = kernargSegment(k.shader.info, step.kernarg, step.grid, step.block, step.groupSegmentSize);
    const size = align(seg.length) + align(PACKET);
    if (chunk.length >= limit || (chunk.length > 0 && arenaBytes + size > MAX_ARENA)) await flush();
    chunk.push({ step, seg, at: arenaBytes });
    arenaBytes += size;
  }
  await flush();
  return { waves, ms, pipelineMs, dispatches, submissions };
}

export interface PlanVulkanOptions {
  /** Dispatches per submission (default STEPS_PER_SUBMISSION); the plan's buffers round-trip through the host between submissions. */
  readonly perSubmission?: number;
  /** How long one submission may run (its fence wait), in ms; default the device's (60 s), at most an hour. */
  readonly timeoutMs?: number;
}

/**
 * Runs an ARGS plan on the device with its kernels already compiled (compileFor, one per plan
 * kernel, in plan.kernels order); the plan's buffers are updated in place.
 */
export async function runPlanOnVulkan(plan: ArgsPlan, compiled: readonly CompiledKernel[], dev: VulkanDevice, o: PlanVulkanOptions = {}): Promise<VulkanRunResult> {
  const index = new Map(compiled.map((c, k) => [c.shader, k]));
  for (const s of plan.kernels) if (!index.has(s)) throw new Error(`internal: kernel ${s.info.name} was not compiled`);
  function* steps(): Generator<VkStep> {
    for (const st of planSteps(plan)) {
      const t = st.template;
      yield { kernel: index.get(t.shader) ?? 0, grid: t.grid, block: t.block, kernarg: st.kernarg, bufferSlots: t.bufferSlots, groupSegmentSize: t.groupSegmentSize, describe: () => describeStep(plan, st) };
    }
  }
  const r = await runSteps(compiled, plan.buffers.map((b) => b.bytes), steps(), dev, o.perSubmission ?? STEPS_PER_SUBMISSION, plan.scratchRing, o.timeoutMs);
  return { device: dev.profile.deviceName, compileMs: compiled.reduce((a, c) => a + c.compileMs, 0), ...r };
}

/** Runs one prepared dispatch (prepareDispatch, or a test's own layout) on the device; the prepared buffers are updated in place. */
export async function runOnVulkan(shader: Shader, prep: PreparedDispatch, dev: VulkanDevice): Promise<VulkanRunResult> {
  return runCompiledOnVulkan(compileFor(shader, dev, prep.groupSegmentSize ?? shader.info.ldsSize, workItemsOf(shader, prep.block)), prep, dev);
}

/** A dispatch's work-items per workgroup, as compileFor takes them (left to the kernel's bound when over it: the run refuses that dispatch). */
const workItemsOf = (shader: Shader, block: Dim3): number | undefined => {
  const n = block[0] * block[1] * block[2];
  return n >= 1 && n <= maxWorkItems(shader.info) ? n : undefined;
};

/** What runModuleOnVulkan needs of a module (as `recompile` returns it). */
export interface EmittedModule { readonly spirv: Uint32Array; readonly faults: readonly RecompiledFault[]; readonly dispatch: 'wave' | 'workgroup'; readonly ldsBytes?: number; /** Default: workgroup memory (no pipeline options). */ readonly laneExchange?: LaneExchange; /** Default: the kernel's bound (maxWorkItems). */ readonly workItems?: number }

/** Runs a module the recompiler emitted for `shader` (its fault sites and layout as `recompile` returns them), as runOnVulkan runs its own. */
export async function runModuleOnVulkan(shader: Shader, mod: EmittedModule, prep: PreparedDispatch, dev: VulkanDevice, compileMs = 0): Promise<VulkanRunResult> {
  return runCompiledOnVulkan({ shader, spirv: mod.spirv, faults: mod.faults, dispatch: mod.dispatch, ldsBytes: mod.ldsBytes ?? shader.info.ldsSize, workItems: mod.workItems ?? maxWorkItems(shader.info), laneExchange: mod.laneExchange ?? { kind: 'workgroup-memory', why: 'a module given to runModuleOnVulkan without its lane exchange' }, compileMs }, prep, dev);
}

async function runCompiledOnVulkan(c: CompiledKernel, prep: PreparedDispatch, dev: VulkanDevice): Promise<VulkanRunResult> {
  const shader = c.shader;
  // The scratch ring (a raw shader with scratch) after the prepared buffers, its slots pointing at it.
  const ring = prep.scratchRing, ringIndex = prep.buffers.length;
  const step: VkStep = {
    kernel: 0, grid: prep.grid, block: prep.block, kernarg: prep.kernarg,
    bufferSlots: [
      ...prep.buffers.map((b, k) => ({ offset: b.offset, buffer: k, ...(b.layout ? { layout: b.layout } : {}) })),
      ...(ring?.slots ?? []).map((s) => ({ ...s, buffer: ringIndex })),
    ],
    groupSegmentSize: prep.groupSegmentSize ?? shader.info.ldsSize,
    describe: () => shader.info.name,
  };
  const r = await runSteps([c], [...prep.buffers.map((b) => b.bytes), ...(ring ? [ring.bytes] : [])], [step], dev, 1, ring ? ringIndex : undefined);
  return { device: dev.profile.deviceName, compileMs: c.compileMs, ...r };
}
