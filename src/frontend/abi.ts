// The launch state in IR, exactly as the interpreter's dispatch sets it (src/interp/dispatch.ts):
// the user SGPRs (an AMDHSA kernel: those its descriptor enables, kernarg segment and dispatch
// packet pointers from the runtime, the rest zero; a raw compute shader: its user data, the dwords
// the runtime's kernarg pointer addresses), the system SGPRs (workgroup ids, TG_SIZE, the scratch
// wave offset), the workitem-id VGPRs, EXEC (the wave's existing lanes: a ballot of "this
// invocation is inside the grid"), SCC 0 and the launch MODE.
import type { Shader } from '../container/shader.js';
import { rawLaunchRefusal, tgSizeIndexShifts } from '../container/shader-info.js';
import { launchMode } from '../analysis/hwreg.js';
import type { Builder, Inst } from '../ir/ir.js';
import { TranslateError } from './errors.js';
import { EXEC_LO } from './context.js';
import { privateSegmentVsharp } from '../isa/apertures.js';
import { usesScratchRing } from '../interp/scratch.js';
import { FLAT_SCR_HI_REG, FLAT_SCR_LO_REG } from './units/private.js';

/** Emits the launch state; returns the launch EXEC's lane bit (InGrid: EXEC is its ballot). */
export function emitLaunchState(b: Builder, shader: Shader): Inst {
  const info = shader.info;
  const set = (code: number, v: ReturnType<Builder['u32']>) => b.emit('SetSgpr', [v], [code]);
  if (!info.descriptor) {
    const why = rawLaunchRefusal(info);
    if (why) throw new TranslateError(why);
    // A raw compute shader's user data: s0.. from the dwords the runtime passes (ARGS.json's "args").
    const base = b.emit('KernargPtr');
    for (let k = 0; k < info.userSgprCount; k++) set(k, b.emit('LoadUniform32', [b.emit('IAdd64', [base, b.emit('ConstU64', [], [BigInt(4 * k)])])]));
  }
  for (const u of info.descriptor ? info.userSgprs : []) {
    const ptr = u.kind === 'kernarg_segment_ptr' ? b.emit('KernargPtr') : u.kind === 'dispatch_ptr' ? b.emit('DispatchPtr') : undefined;
    if (ptr) {
      set(u.first, b.emit('Lo32', [ptr]));
      set(u.first + 1, b.emit('Hi32', [ptr]));
      continue;
    }
    if (u.kind === 'private_segment_size') { set(u.first, b.u32(info.scratchSize)); continue; }
    // Scratch: the wave's own region (so the wave offset below is 0), as the interpreter gives it.
    if (u.kind === 'private_segment_buffer') {
      const base = b.emit('ScratchBase'), v = privateSegmentVsharp(info.waveSize);
      set(u.first, b.emit('Lo32', [base]));
      set(u.first + 1, b.emit('Or32', [b.emit('And32', [b.emit('Hi32', [base]), b.u32(0xffff)]), b.u32(v.w1hi)]));
      set(u.first + 2, b.u32(v.w2));
      set(u.first + 3, b.u32(v.w3));
      continue;
    }
    if (u.kind === 'flat_scratch_init') {
      const base = b.emit('ScratchBase');
      set(u.first, b.emit('Lo32', [base]));
      set(u.first + 1, b.emit('Hi32', [base]));
      continue;
    }
    for (let k = 0; k < u.count; k++) set(u.first + k, b.u32(0));
  }
  for (const s of info.systemSgprs) {
    const axis = s.kind === 'workgroup_id_x' ? 0 : s.kind === 'workgroup_id_y' ? 1 : s.kind === 'workgroup_id_z' ? 2 : -1;
    if (axis >= 0) { set(s.first, b.emit('WorkgroupId', [], [axis])); continue; }
    if (s.kind === 'workgroup_info') {
      let v = b.emit('WavesInGroup');
      for (const sh of tgSizeIndexShifts(info.target)) v = b.emit('Or32', [v, b.emit('Shl32', [b.emit('WaveInGroup'), b.u32(sh)])]);
      set(s.first, v);
      continue;
    }
    // The scratch wave offset: a kernel's wave has its own region, so its offset into it is 0; a
    // raw shader's wave has its slot of the dispatch's scratch ring (src/interp/scratch.ts).
    set(s.first, usesScratchRing(info) ? b.emit('Lo32', [b.emit('ISub64', [b.emit('ScratchBase'), b.emit('ScratchRing')])]) : b.u32(0));
  }
  info.workitemIdVgprs.forEach((_, k) => b.emit('SetVgpr', [b.emit('LocalId', [], [k])], [k]));
  const inGrid = b.emit('InGrid');
  set(EXEC_LO, b.emit('BallotLo', [inGrid]));
  if (info.waveSize === 64) set(EXEC_LO + 1, b.emit('BallotHi', [inGrid]));
  b.emit('SetScc', [b.u1(false)]);
  // FLAT_SCRATCH starts at 0, as the interpreter's (the kernel prologue sets it from flat_scratch_init).
  set(FLAT_SCR_LO_REG, b.u32(0));
  set(FLAT_SCR_HI_REG, b.u32(0));
  b.emit('SetMode', [b.u32(launchMode(info))]);
  return inGrid;
}
