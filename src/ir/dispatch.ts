// Runs a translated kernel (IR) over a dispatch with the same ABI layout as the RDNA interpreter
// (src/interp/dispatch.ts: the kernarg segment with hidden arguments, the dispatch packet) and
// the same placement of work-items in waves, so the two can be compared byte for byte.
import type { Shader } from '../container/shader.js';
import { dispatchPacket, kernargSegment, launchRefusal, ringOf, type DispatchOptions } from '../interp/dispatch.js';
import { IrError, type IrFunction } from './ir.js';
import { type IrWave, startIrWave } from './interp.js';
import { ringSlot, ScratchSetup, usesScratchRing, wantsScratch } from '../interp/scratch.js';

export function dispatchIr(fn: IrFunction, shader: Shader, o: DispatchOptions): { waves: number; steps: number } {
  const info = shader.info;
  const refusal = launchRefusal(info, o.grid, o.block);
  if (refusal) throw new IrError(refusal);
  const mem = o.mem;
  if (shader.image) mem.mapImage('code object image', shader.image.base, shader.image.bytes);
  const lds = o.groupSegmentSize ?? info.ldsSize;
  const kernargPtr = mem.map('kernarg segment', kernargSegment(info, o.kernarg, o.grid, o.block, lds));
  const dispatchPtr = mem.map('dispatch packet', dispatchPacket(o.grid, o.block, kernargPtr, lds, info.scratchSize));
  const lanes = o.block[0] * o.block[1] * o.block[2];
  const ws = fn.waveSize;
  const counts = [0, 1, 2].map((k) => Math.ceil((o.grid[k] ?? 1) / (o.block[k] ?? 1)));
  let waves = 0, steps = 0;
  let budget = o.maxSteps;
  // The dispatch's clock (ReadClock 'realtime', src/ir/interp.ts): shared by every wave.
  const clock = { steps: 0 };
  // Scratch as the interpreter lays it out: a region per wave slot, zeroed before each workgroup.
  // A raw shader's: wave k of the dispatch has the k-th region of the plan's ring, zeroed when it starts.
  const ring = usesScratchRing(info) ? ringOf(info, o) : undefined;
  const scratch = !ring && wantsScratch(info) ? new ScratchSetup(mem, info.scratchSize, ws, Math.ceil(lanes / ws)) : undefined;
  for (let gz = 0; gz < (counts[2] ?? 1); gz++) for (let gy = 0; gy < (counts[1] ?? 1); gy++) for (let gx = 0; gx < (counts[0] ?? 1); gx++) {
    const bx = Math.min(o.block[0], o.grid[0] - gx * o.block[0]);
    const by = Math.min(o.block[1], o.grid[1] - gy * o.block[1]);
    const bz = Math.min(o.block[2], o.grid[2] - gz * o.block[2]);
    // The workgroup's waves in turn, each to its end or its next barrier (the RDNA interpreter's order).
    const ldsBytes = new DataView(new ArrayBuffer(lds));
    scratch?.reset();
    const group: IrWave[] = [];
    for (let w = 0; w * ws < lanes; w++) {
      const localIds: ([number, number, number] | undefined)[] = [];
      const inGrid: boolean[] = [];
      for (let l = 0; l < ws; l++) {
        const flat = w * ws + l;
        if (flat >= lanes) { localIds.push(undefined); inGrid.push(false); continue; }
        const x = flat % o.block[0], y = Math.floor(flat / o.block[0]) % o.block[1], z = Math.floor(flat / (o.block[0] * o.block[1]));
        localIds.push([x, y, z]);
        inGrid.push(x < bx && y < by && z < bz);
      }
      if (!inGrid.some(Boolean)) continue;
      const region = ring?.enter(ringSlot(counts, [gx, gy, gz], Math.ceil(lanes / ws), w));
      const scratchInputs = region ? { scratchBase: region.base, scratchRing: { base: region.ringBase, bytes: region.ringBytes } } : scratch ? { scratchBase: scratch.bases[w] ?? 0 } : {};
      group.push(startIrWave(fn, { mem, kernargPtr, dispatchPtr, workgroupId: [gx, gy, gz], localIds, inGrid, waveInGroup: w, wavesInGroup: Math.ceil(lanes / ws), maxSteps: budget, lds: ldsBytes, clock, ...scratchInputs }));
      waves++;
    }
    let live = group;
    while (live.length > 0) {
      live = live.filter((wave) => !wave.resume());
    }
    for (const wave of group) {
      budget -= wave.steps();
      steps += wave.steps();
    }
    if (budget <= 0) throw new IrError('the step budget ran out');
  }
  return { waves, steps };
}
