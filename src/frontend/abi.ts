// The AMDHSA launch state in IR, exactly as the interpreter's dispatch sets it (src/interp/
// dispatch.ts): the user SGPRs the descriptor enables (kernarg segment and dispatch packet
// pointers from the runtime, the rest zero), the system SGPRs (workgroup ids), the workitem-id
// VGPRs, EXEC (the wave's existing lanes: a ballot of "this invocation is inside the grid"),
// SCC 0 and the launch MODE.
import type { Shader } from '../container/shader.js';
import { launchMode } from '../analysis/hwreg.js';
import type { Builder } from '../ir/ir.js';
import { TranslateError } from './errors.js';
import { EXEC_LO } from './context.js';
import { privateSegmentVsharp } from '../isa/apertures.js';
import { FLAT_SCR_HI_REG, FLAT_SCR_LO_REG } from './units/private.js';

export function emitLaunchState(b: Builder, shader: Shader): void {
  const info = shader.info;
  if (!info.descriptor) throw new TranslateError('only AMDHSA kernels have a launch ABI here (raw shaders are not translated yet)');
  const set = (code: number, v: ReturnType<Builder['u32']>) => b.emit('SetSgpr', [v], [code]);
  for (const u of info.userSgprs) {
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
    set(s.first, axis >= 0 ? b.emit('WorkgroupId', [], [axis]) : b.u32(0));
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
}
