// A dispatch under the AMDHSA ABI: the kernarg segment (explicit arguments, then the hidden
// arguments of the metadata: block counts, group sizes, remainders, global offsets, grid dims,
// dynamic LDS size), the LDS layout of __local arguments (shared with the Vulkan engine), an
// hsa_kernel_dispatch_packet, and per wave the user SGPRs the descriptor enables, the system
// SGPRs (workgroup ids), the workitem-id VGPRs, EXEC for the wave's lanes, and the launch MODE.
// Workgroups run one after another; the waves of a workgroup run in turn until each ends or
// waits at s_barrier, and a barrier releases when every live wave has reached it.
// Sources: LLVM AMDGPUUsage ("Initial Kernel Execution State", "Code Object V5 Metadata"),
// HSA runtime hsa_kernel_dispatch_packet_t.
import type { Shader } from '../container/shader.js';
import { rawLaunchRefusal, type ShaderInfo, tgSizeValue, unboundedStackReason } from '../container/shader-info.js';
import type { KernelArg } from '../container/metadata.js';
import { launchMode } from '../analysis/hwreg.js';
import type { ExecContext } from './context.js';
import { InterpError } from './errors.js';
import { GlobalMemory } from './memory.js';
import { Program } from './program.js';
import { EXEC_LO, WaveState } from './state.js';
import { ringSlot, ScratchSetup, scratchRingBytes, type ScratchRegion, usesScratchRing, wantsScratch } from './scratch.js';
import { runWave, type StepBudget } from './wave.js';
import { scratchWaveBytes } from '../isa/apertures.js';

export type Dim3 = readonly [number, number, number];

export interface DispatchOptions {
  /** Work-items in total per dimension (OpenCL's global size). */
  readonly grid: Dim3;
  /** Work-group size. */
  readonly block: Dim3;
  /** The explicit kernel arguments, laid out at their metadata offsets. */
  readonly kernarg: Uint8Array;
  readonly mem: GlobalMemory;
  readonly maxSteps: number;
  /** A step budget shared with other dispatches (a sequence); replaces maxSteps when given. */
  readonly budget?: StepBudget;
  /** The group segment: static LDS plus the __local arguments (layoutLds); default the kernel's static LDS. */
  readonly groupSegmentSize?: number;
  /** Called after each workgroup (for progress lines). */
  readonly onWorkgroup?: (done: number, total: number) => void;
  /** A raw shader with scratch: the plan's scratch ring (its address in `mem`, and its bytes; src/interp/scratch.ts). */
  readonly scratchRing?: ScratchRing;
}

/** The scratch ring of a plan (ArgsPlan.scratchRing) as an engine placed it: its address, and its bytes. */
export interface ScratchRing { readonly address: number; readonly bytes: Uint8Array }

export interface DispatchStats {
  readonly workgroups: number;
  readonly waves: number;
  readonly instructions: number;
  readonly laneInstructions: number;
}

const PACKET_SIZE = 64;
/** The LDS one workgroup may have on gfx10 (RDNA2 ISA guide, "Local Data Share": 64 KiB per workgroup). */
export const MAX_LDS = 65536;

/** A __local pointer argument: its kernarg slot (offset, 4 or 8 bytes), the bytes asked for, the metadata's pointee alignment. */
export interface LocalArg {
  readonly offset: number;
  readonly size: number;
  readonly bytes: number;
  readonly align: number;
  /** How messages name the argument. */
  readonly where: string;
}

export interface LdsLayout {
  /** Each __local argument's LDS offset (what its kernarg slot holds). */
  readonly offsets: readonly number[];
  /** The group segment size: static LDS plus the dynamic part. */
  readonly total: number;
}

/**
 * Dynamic LDS as the AMDHSA runtimes lay it out (ROCclr's argument setup: the LDS address starts at
 * the kernel's static group segment, group_segment_fixed_size; each __local argument in order is
 * aligned up to its .pointee_align, gets that offset in its kernarg slot, and adds its size): the
 * total goes into the dispatch packet's group_segment_size and must fit the workgroup's LDS.
 * LLVM emits .pointee_align for every dynamic_shared_pointer (the parameter's alignment or 1);
 * one that lacks it is taken as 1.
 */
export function layoutLds(info: ShaderInfo, locals: readonly LocalArg[]): LdsLayout {
  let at = info.ldsSize;
  const offsets: number[] = [];
  for (const l of locals) {
    if (!Number.isInteger(l.align) || l.align < 1 || (l.align & (l.align - 1)) !== 0) throw new InterpError(`${l.where}: the metadata's pointee alignment ${l.align} is not a power of two`);
    at = Math.ceil(at / l.align) * l.align;
    offsets.push(at);
    at += l.bytes;
  }
  if (at > MAX_LDS) {
    const parts = locals.map((l, k) => `${l.where}: ${l.bytes} at ${offsets[k]}`);
    throw new InterpError(`LDS: ${info.ldsSize} static bytes${parts.length ? ` and the __local arguments (${parts.join('; ')})` : ''} need ${at} bytes, more than the ${MAX_LDS} a workgroup has`);
  }
  return { offsets, total: at };
}

/**
 * The kernarg segment of a dispatch: the explicit arguments' bytes, then the hidden arguments the
 * metadata lists; `groupSegmentSize` (static + dynamic LDS, layoutLds) defaults to the static LDS.
 */
export function kernargSegment(info: ShaderInfo, explicit: Uint8Array, grid: Dim3, block: Dim3, groupSegmentSize = info.ldsSize): Uint8Array {
  const seg = new Uint8Array(Math.max(info.kernargSize, explicit.length, 4));
  seg.set(explicit.subarray(0, seg.length));
  hiddenArgs(info.args ?? [], new DataView(seg.buffer), grid, block, groupSegmentSize - info.ldsSize);
  return seg;
}

/**
 * Fills the hidden arguments the metadata lists (code object v4 and v5 kinds). `dynamicLds` is the
 * group segment beyond the static LDS (ROCclr's PAL path passes ldsAddress - static size: the
 * __local arguments with their alignment padding).
 */
export function hiddenArgs(args: readonly KernelArg[], seg: DataView, grid: Dim3, block: Dim3, dynamicLds = 0): void {
  const dims = grid[2] > 1 ? 3 : grid[1] > 1 ? 2 : 1;
  for (const a of args) {
    const put = (v: number) => {
      if (a.offset + a.size > seg.byteLength) throw new InterpError(`hidden argument ${a.valueKind} at ${a.offset} is past the kernarg segment`);
      if (a.size === 2) seg.setUint16(a.offset, v, true);
      else if (a.size === 4) seg.setUint32(a.offset, v, true);
      else if (a.size === 8) seg.setBigUint64(a.offset, BigInt(v), true);
    };
    const ax = (k: string) => ({ x: 0, y: 1, z: 2 } as const)[k.slice(-1) as 'x' | 'y' | 'z'];
    switch (a.valueKind) {
      case 'hidden_block_count_x': case 'hidden_block_count_y': case 'hidden_block_count_z': {
        const d = ax(a.valueKind); put(Math.ceil(grid[d] / block[d])); break;
      }
      case 'hidden_group_size_x': case 'hidden_group_size_y': case 'hidden_group_size_z': put(block[ax(a.valueKind)]); break;
      case 'hidden_remainder_x': case 'hidden_remainder_y': case 'hidden_remainder_z': { const d = ax(a.valueKind); put(grid[d] % block[d]); break; }
      case 'hidden_global_offset_x': case 'hidden_global_offset_y': case 'hidden_global_offset_z': put(0); break;
      case 'hidden_grid_dims': put(dims); break;
      case 'hidden_dynamic_lds_size': put(dynamicLds); break;
      default:
        // Pointers to runtime services (printf, hostcall, queues, heap) are null: a kernel that
        // dereferences one faults at that address with a clear error.
        if (a.valueKind.startsWith('hidden_')) put(0);
    }
  }
}

export function dispatchPacket(grid: Dim3, block: Dim3, kernargAddr: number, lds: number, scratch: number): Uint8Array {
  const b = new Uint8Array(PACKET_SIZE);
  const v = new DataView(b.buffer);
  const dims = grid[2] > 1 ? 3 : grid[1] > 1 ? 2 : 1;
  v.setUint16(2, dims, true);
  v.setUint16(4, block[0], true); v.setUint16(6, block[1], true); v.setUint16(8, block[2], true);
  v.setUint32(12, grid[0], true); v.setUint32(16, grid[1], true); v.setUint32(20, grid[2], true);
  v.setUint32(24, scratch, true); v.setUint32(28, lds, true);
  v.setBigUint64(40, BigInt(kernargAddr), true);
  return b;
}

/** The memory a kernel's dispatches read besides the buffers: mapped once, rewritten per dispatch. */
interface LaunchRegions {
  readonly kernarg: Uint8Array;
  readonly kernargAddr: number;
  readonly packet: Uint8Array;
  readonly packetAddr: number;
  readonly queueAddr: number;
}

/**
 * One kernel's dispatches on one memory: the decoded program, the kernarg segment / dispatch
 * packet / queue regions and the scratch regions are made once and reused by every dispatch (a
 * sequence runs thousands), each dispatch rewriting the segment and the packet.
 */
export class InterpKernel {
  private readonly prog: Program;
  private launch: LaunchRegions | undefined;
  private readonly scratch = new Map<number, ScratchSetup>();

  constructor(readonly shader: Shader, readonly mem: GlobalMemory) {
    this.prog = new Program(shader);
    // The code object's image at its addresses: its __constant data and tables (s_getpc_b64-relative).
    if (shader.image) mem.mapImage('code object image', shader.image.base, shader.image.bytes);
  }

  private regions(segSize: number): LaunchRegions {
    const l = this.launch;
    if (l && l.kernarg.length === segSize) return l;
    const kernarg = new Uint8Array(segSize), packet = new Uint8Array(PACKET_SIZE);
    const kernargAddr = this.mem.map('kernarg segment', kernarg);
    this.launch = { kernarg, kernargAddr, packet, packetAddr: this.mem.map('dispatch packet', packet), queueAddr: l?.queueAddr ?? this.mem.map('queue', new Uint8Array(256)) };
    return this.launch;
  }

  run(o: Omit<DispatchOptions, 'mem'>): DispatchStats {
    const shader = this.shader, info = shader.info, mem = this.mem;
    const refusal = launchRefusal(info, o.grid, o.block);
    if (refusal) throw new InterpError(refusal);
    const unbounded = unboundedStackReason(info);
    if (unbounded !== undefined) throw new InterpError(unbounded);
    for (let k = 0; k < 3; k++) {
      const g = o.grid[k] ?? 0, b = o.block[k] ?? 0;
      if (!Number.isInteger(g) || g < 1 || !Number.isInteger(b) || b < 1) throw new InterpError(`grid and block sizes must be positive integers (dimension ${'xyz'[k]}: grid ${g}, block ${b})`);
    }
    const lanes = o.block[0] * o.block[1] * o.block[2];
    if (lanes > 1024) throw new InterpError(`a workgroup of ${lanes} work-items is more than 1024`);
    if (info.workgroupSize && info.workgroupSize.some((w, k) => w !== o.block[k])) throw new InterpError(`the kernel requires workgroup size ${info.workgroupSize.join('x')}, the dispatch gives ${o.block.join('x')}`);
    const ldsBytes = o.groupSegmentSize ?? info.ldsSize;
    if (ldsBytes < info.ldsSize) throw new InterpError(`internal: a group segment of ${ldsBytes} bytes is smaller than the kernel's static LDS (${info.ldsSize})`);
    if (ldsBytes > MAX_LDS) throw new InterpError(`the kernel needs ${ldsBytes} bytes of LDS, more than ${MAX_LDS}`);
    const seg = kernargSegment(info, o.kernarg, o.grid, o.block, ldsBytes);
    const userData = new DataView(seg.buffer, seg.byteOffset, seg.byteLength);
    if (!info.descriptor && seg.length < 4 * info.userSgprCount) throw new InterpError(`internal: ${seg.length} bytes of user data for ${info.userSgprCount} user SGPRs`);
    const launch = this.regions(seg.length);
    launch.kernarg.set(seg);
    launch.packet.set(dispatchPacket(o.grid, o.block, launch.kernargAddr, ldsBytes, info.scratchSize));
    const { kernargAddr, packetAddr, queueAddr } = launch;
    const prog = this.prog;
    const budget: StepBudget = o.budget ?? { remaining: o.maxSteps };
    const counts = [0, 1, 2].map((k) => Math.ceil((o.grid[k] ?? 1) / (o.block[k] ?? 1))) as [number, number, number];
    const total = counts[0] * counts[1] * counts[2];
    const ws = info.waveSize;
    const wavesPerGroup = Math.ceil(lanes / ws);
    const mode = launchMode(info);
    // Scratch: one region per wave slot, reused (zeroed) by every workgroup (src/interp/scratch.ts).
    let scratch: ScratchSetup | undefined;
    const ring = usesScratchRing(info) ? ringOf(info, o) : undefined;
    if (!ring && wantsScratch(info)) {
      scratch = this.scratch.get(wavesPerGroup);
      if (!scratch) this.scratch.set(wavesPerGroup, scratch = new ScratchSetup(mem, info.scratchSize, ws, wavesPerGroup));
    }
    let waves = 0, instructions = 0, laneInstructions = 0, done = 0;
    // The dispatch's clock (s_memrealtime, src/interp/units/smem.ts): shared by every wave.
    const clock = { steps: 0 };
    for (let gz = 0; gz < counts[2]; gz++) for (let gy = 0; gy < counts[1]; gy++) for (let gx = 0; gx < counts[0]; gx++) {
      const lds = new DataView(new ArrayBuffer(ldsBytes));
      scratch?.reset();
      const group: ExecContext[] = [];
      // Work-items of a partial workgroup at the grid's edge do not exist.
      const bx = Math.min(o.block[0], o.grid[0] - gx * o.block[0]);
      const by = Math.min(o.block[1], o.grid[1] - gy * o.block[1]);
      const bz = Math.min(o.block[2], o.grid[2] - gz * o.block[2]);
      for (let w = 0; w < wavesPerGroup; w++) {
        const st = new WaveState(ws, info.vgprCount);
        st.pc = info.entry;
        st.mode = mode;
        let exec = 0n;
        for (let l = 0; l < ws; l++) {
          const flat = w * ws + l;
          if (flat >= lanes) break;
          const x = flat % o.block[0], y = Math.floor(flat / o.block[0]) % o.block[1], z = Math.floor(flat / (o.block[0] * o.block[1]));
          if (x >= bx || y >= by || z >= bz) continue;
          exec |= 1n << BigInt(l);
          const ids = [x, y, z];
          info.workitemIdVgprs.forEach((_, k) => { st.vgpr[k * 64 + l] = ids[k] ?? 0; });
        }
        if (exec === 0n) continue;
        st.setMask(EXEC_LO, exec);
        // A raw shader's wave: its slot of the dispatch's ring, zeroed (as the recompiled module zeroes it).
        const scratchRegion = ring?.enter(ringSlot(counts, [gx, gy, gz], wavesPerGroup, w));
        // A raw compute shader's user data: the dwords of its "kernarg" bytes (ARGS.json's "args").
        if (!info.descriptor) for (let k = 0; k < info.userSgprCount; k++) st.sgpr[k] = userData.getUint32(4 * k, true);
        for (const u of info.descriptor ? info.userSgprs : []) {
          const put = (v: number) => { st.sgpr[u.first] = v % 2 ** 32; if (u.count > 1) st.sgpr[u.first + 1] = Math.floor(v / 2 ** 32); };
          switch (u.kind) {
            case 'dispatch_ptr': put(packetAddr); break;
            case 'queue_ptr': put(queueAddr); break;
            case 'kernarg_segment_ptr': put(kernargAddr); break;
            case 'dispatch_id': put(0); break;
            case 'private_segment_size': st.sgpr[u.first] = info.scratchSize; break;
            case 'private_segment_buffer': if (scratch) scratch.vsharp(w).forEach((x, k) => { st.sgpr[u.first + k] = x; }); break;
            // gfx10: the scratch base the kernel adds the wave offset to and writes to FLAT_SCRATCH.
            case 'flat_scratch_init': if (scratch) put(scratch.bases[w] ?? 0); break;
          }
        }
        for (const s of info.systemSgprs) {
          switch (s.kind) {
            case 'workgroup_id_x': st.sgpr[s.first] = gx; break;
            case 'workgroup_id_y': st.sgpr[s.first] = gy; break;
            case 'workgroup_id_z': st.sgpr[s.first] = gz; break;
            case 'workgroup_info': st.sgpr[s.first] = tgSizeValue(info.target, wavesPerGroup, w); break;
            // A kernel's wave slot has its own scratch region, so the wave's offset into it is 0; a
            // raw shader's wave has its slot of the ring.
            case 'private_segment_wave_offset': st.sgpr[s.first] = scratchRegion ? scratchRegion.base - scratchRegion.ringBase : 0; break;
          }
        }
        // Hardware registers such as FLAT_SCRATCH are per wave. FLAT_SCRATCH starts at 0: on gfx10
        // the kernel prologue sets it from flat_scratch_init (AMDGPUUsage, "Flat Scratch").
        group.push({ target: info.target, st, mem, lds, hwregs: new Map<number, number>(), clock, waveInGroup: w, nextPc: undefined, ...(scratchRegion ? { scratchRegion } : {}) });
        waves++;
      }
      // Round-robin to the next barrier; a barrier opens when every wave still running waits at it.
      for (;;) {
        for (const cx of group) if (!cx.st.ended) runWave(prog, cx, budget);
        const live = group.filter((c) => !c.st.ended);
        if (live.length === 0) break;
        if (!live.every((c) => c.st.atBarrier)) throw new InterpError('internal: a wave stopped without ending or waiting at a barrier');
        // Waves that ended no longer take part in the barrier (ISA: s_barrier counts live waves).
      }
      for (const cx of group) { instructions += cx.st.steps; laneInstructions += cx.st.laneOps; }
      done++;
      o.onWorkgroup?.(done, total);
    }
    return { workgroups: done, waves, instructions, laneInstructions };
  }
}

/**
 * A raw shader's dispatch in the plan's scratch ring (src/interp/scratch.ts): `enter(slot)` zeroes
 * the region of the wave in that slot (ringSlot), as the recompiled module does, and gives it.
 */
export function ringOf(info: ShaderInfo, o: Pick<DispatchOptions, 'grid' | 'block' | 'scratchRing'>): { enter(slot: number): ScratchRegion } {
  const r = o.scratchRing;
  if (!r) throw new InterpError(`shader ${info.name} has scratch (scratchSize ${info.scratchSize}): a raw shader's dispatch needs the plan's scratch ring (an ARGS plan: parseArgs, runPlan)`);
  const used = scratchRingBytes(info, o.grid, o.block);
  if (used > r.bytes.length) throw new InterpError(`internal: the scratch ring has ${r.bytes.length} bytes, the dispatch needs ${used}`);
  const waveBytes = scratchWaveBytes(info.scratchSize, info.waveSize);
  return {
    enter(slot) {
      r.bytes.fill(0, slot * waveBytes, (slot + 1) * waveBytes);
      return { base: r.address + slot * waveBytes, bytes: waveBytes, ringBase: r.address, ringBytes: used };
    },
  };
}

/**
 * Why a dispatch of this kernel over this grid cannot run, or undefined: workgroups larger than the
 * kernel's metadata allows (`.max_flat_workgroup_size`: the compiler may rely on it, as it does on
 * the work-item ids' range, and the AMDHSA runtimes refuse such a launch), a raw shader that has no
 * launch here (rawLaunchRefusal), or one dispatched in part of a workgroup. A raw compute shader is
 * dispatched in whole workgroups, as DISPATCH_DIRECT counts them (the grid a multiple of the block):
 * unlike the AMDHSA ABI it has no way to learn of a partial workgroup at the grid's edge.
 */
export function launchRefusal(info: ShaderInfo, grid: Dim3, block: Dim3): string | undefined {
  const items = (block[0] ?? 1) * (block[1] ?? 1) * (block[2] ?? 1);
  // Past 1,024 (RDNA's most) the callers' own check speaks.
  if (info.maxWorkgroupSize !== undefined && items > info.maxWorkgroupSize && items <= 1024) {
    return `kernel ${info.name} allows at most ${info.maxWorkgroupSize} work-items per workgroup (its metadata's .max_flat_workgroup_size); the dispatch's block ${block.join('x')} has ${items}`;
  }
  if (info.descriptor) return undefined;
  const why = rawLaunchRefusal(info);
  if (why) return why;
  const d = [0, 1, 2].find((k) => (grid[k] ?? 1) % (block[k] ?? 1) !== 0);
  if (d !== undefined) return `shader ${info.name} is a raw compute shader, dispatched in whole workgroups: the grid (${grid.join(', ')}) must be a multiple of the block (${block.join(', ')}) in each dimension (${'xyz'[d]} is not)`;
  return undefined;
}

/** One dispatch on `o.mem` (a kernel run once). */
export function dispatch(shader: Shader, o: DispatchOptions): DispatchStats {
  return new InterpKernel(shader, o.mem).run(o);
}
