// An ARGS plan (args.ts) on the interpreter: the plan's buffers mapped once into one memory, then
// every dispatch in order, each kernel with its own decoded program and launch regions (dispatch.ts
// InterpKernel), the step budget shared by the whole run. What the buffers hold afterwards is the
// run's result; the first error stops the run, named by the dispatch it happened in.
import type { Shader } from '../container/shader.js';
import { describeStep, planSteps, putAddress, type ArgsPlan, type PlanBuffer } from './args.js';
import { InterpKernel, type DispatchStats } from './dispatch.js';
import { InterpError } from './errors.js';
import { GlobalMemory } from './memory.js';
import type { StepBudget } from './wave.js';

export interface PlanStats extends DispatchStats {
  readonly dispatches: number;
}

export interface PlanRunOptions {
  /** Wave instructions for the whole run. */
  readonly maxSteps: number;
  /** Called after each workgroup of a one-dispatch plan, after each dispatch of a sequence (progress lines). */
  readonly onProgress?: (done: number, total: number, what: 'workgroup' | 'dispatch') => void;
}

/** Runs the plan; its buffers' bytes are updated in place. Errors of a sequence name the dispatch. */
export function runPlan(plan: ArgsPlan, o: PlanRunOptions): PlanStats {
  const mem = new GlobalMemory();
  const addresses = plan.buffers.map((b) => mem.map(b.label, b.bytes));
  const ring = plan.scratchRing;
  const scratchRing = ring === undefined ? undefined : { address: addresses[ring] ?? 0, bytes: (plan.buffers[ring] as PlanBuffer).bytes };
  const kernels = new Map<Shader, InterpKernel>();
  const budget: StepBudget = { remaining: o.maxSteps };
  let workgroups = 0, waves = 0, instructions = 0, laneInstructions = 0, dispatches = 0;
  const onWorkgroup = !plan.sequence && o.onProgress ? (d: number, t: number) => o.onProgress?.(d, t, 'workgroup') : undefined;
  for (const step of planSteps(plan)) {
    const t = step.template;
    let k = kernels.get(t.shader);
    if (!k) kernels.set(t.shader, k = new InterpKernel(t.shader, mem));
    const kernarg = step.kernarg.slice();
    const kv = new DataView(kernarg.buffer);
    // Addresses into the kernarg bytes, and into the user-data tables (their own buffers).
    for (const s of t.bufferSlots) {
      const into = s.into === undefined ? undefined : (plan.buffers[s.into] as PlanBuffer).bytes;
      putAddress(into ? new DataView(into.buffer, into.byteOffset, into.byteLength) : kv, s, addresses[s.buffer] ?? 0);
    }
    let stats: DispatchStats;
    try {
      stats = k.run({ grid: t.grid, block: t.block, kernarg, groupSegmentSize: t.groupSegmentSize, maxSteps: o.maxSteps, budget, ...(onWorkgroup ? { onWorkgroup } : {}), ...(scratchRing ? { scratchRing } : {}) });
    } catch (e) {
      if (plan.sequence && e instanceof InterpError) throw new InterpError(`${describeStep(plan, step)}: ${e.message}`);
      throw e;
    }
    workgroups += stats.workgroups; waves += stats.waves; instructions += stats.instructions; laneInstructions += stats.laneInstructions;
    dispatches++;
    if (plan.sequence) o.onProgress?.(dispatches, plan.dispatches, 'dispatch');
  }
  return { dispatches, workgroups, waves, instructions, laneInstructions };
}
