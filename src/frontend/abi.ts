// The launch state in IR, exactly as the interpreter's dispatch sets it (src/interp/dispatch.ts):
// the user SGPRs (an AMDHSA kernel: those its descriptor enables, kernarg segment and dispatch
// packet pointers from the runtime, the rest zero; a raw compute shader: its user data, the dwords
// the runtime's kernarg pointer addresses), the system SGPRs (workgroup ids, TG_SIZE, the scratch
// wave offset), the workitem-id VGPRs, EXEC (the wave's existing lanes: a ballot of "this
// invocation is inside the grid"), SCC 0 and the launch MODE.
import type { Shader } from '../container/shader.js';
import { rawLaunchRefusal, tgSizeIndexShifts } from '../container/shader-info.js';
import { launchMode } from '../analysis/hwreg.js';
import { type Builder, type Imm, type Inst, NO_ARGS, NO_IMMS, listOf } from '../ir/ir.js';
import { type Op, type OpEntry, opInfo } from '../ir/ops.js';
import { TranslateError } from './errors.js';
import { EXEC_LO } from './context.js';
import { privateSegmentVsharp } from '../isa/apertures.js';
import { usesScratchRing } from '../interp/scratch.js';
import { FLAT_SCR_HI_REG, FLAT_SCR_LO_REG } from './units/private.js';

const SET_SGPR = opInfo('SetSgpr'), SET_VGPR = opInfo('SetVgpr'), SET_SCC = opInfo('SetScc'), SET_MODE = opInfo('SetMode'), CONST_U32 = opInfo('ConstU32'), CONST_U1 = opInfo('ConstU1');
const LO32 = opInfo('Lo32'), HI32 = opInfo('Hi32'), KERNARG_PTR = opInfo('KernargPtr'), WORKGROUP_ID = opInfo('WorkgroupId'), LOCAL_ID = opInfo('LocalId'), IN_GRID = opInfo('InGrid'), BALLOT_LO = opInfo('BallotLo'), BALLOT_HI = opInfo('BallotHi');
/**
 * The immediate lists [n] of each n below 256 (axes, VGPR numbers, SGPR codes, small constants),
 * shared by every translation: immediates are never changed, and the launch state wrote a list
 * per register it set, each translation.
 */
const IMMS: readonly (readonly Imm[])[] = Array.from({ length: 256 }, (_, n) => [n]);
const imm = (n: number): readonly Imm[] => (n >= 0 && n < IMMS.length ? IMMS[n] as readonly Imm[] : [n]); // no read past the list's end: V8's slow path

/**
 * `b.emit(op, args, imms)` in a block that has not ended, the op's entry `info` given: the
 * launch state is made at every translation, and its look-ups of each op's entry by name were
 * a tenth of a small kernel's translation.
 */
function put(b: Builder, op: Op, info: OpEntry, args: Inst[], imms: readonly Imm[]): Inst {
  const i = b.fn.makeAt(op, args, imms, undefined, b.pc, undefined, info);
  i.block = b.block;
  b.block.insts.push(i);
  return i;
}
const u32 = (b: Builder, v: number): Inst => put(b, 'ConstU32', CONST_U32, NO_ARGS, imm(v >>> 0));
const set = (b: Builder, code: number, v: Inst): void => { put(b, 'SetSgpr', SET_SGPR, listOf(v), imm(code)); };

/** Emits the launch state; returns the launch EXEC's lane bit (InGrid: EXEC is its ballot). */
export function emitLaunchState(b: Builder, shader: Shader): Inst {
  const info = shader.info;
  if (b.block.insts.length !== 0) throw new Error('the launch state goes into an empty block (internal)');
  if (!info.descriptor) {
    const why = rawLaunchRefusal(info);
    if (why) throw new TranslateError(why);
    // A raw compute shader's user data: s0.. from the dwords the runtime passes (ARGS.json's "args").
    const base = b.emit('KernargPtr');
    for (let k = 0; k < info.userSgprCount; k++) set(b, k, b.emit('LoadUniform32', listOf(b.emit('IAdd64', listOf(base, b.emit('ConstU64', NO_ARGS, listOf(BigInt(4 * k))))))));
  }
  // Indexed loops: this runs once per translation, mostly before V8 optimises it, where each step
  // of a for…of allocates an iterator result.
  const users = info.descriptor ? info.userSgprs : [];
  for (let j = 0; j < users.length; j++) {
    const u = users[j] as (typeof users)[number];
    const ptr = u.kind === 'kernarg_segment_ptr' ? put(b, 'KernargPtr', KERNARG_PTR, NO_ARGS, NO_IMMS) : u.kind === 'dispatch_ptr' ? b.emit('DispatchPtr') : undefined;
    if (ptr) {
      set(b, u.first, put(b, 'Lo32', LO32, listOf(ptr), NO_IMMS));
      set(b, u.first + 1, put(b, 'Hi32', HI32, listOf(ptr), NO_IMMS));
      continue;
    }
    if (u.kind === 'private_segment_size') { set(b, u.first, u32(b, info.scratchSize)); continue; }
    // Scratch: the wave's own region (so the wave offset below is 0), as the interpreter gives it.
    if (u.kind === 'private_segment_buffer') {
      const base = b.emit('ScratchBase'), v = privateSegmentVsharp(info.waveSize);
      set(b, u.first, b.emit('Lo32', listOf(base)));
      set(b, u.first + 1, b.emit('Or32', listOf(b.emit('And32', listOf(b.emit('Hi32', listOf(base)), u32(b, 0xffff))), u32(b, v.w1hi))));
      set(b, u.first + 2, u32(b, v.w2));
      set(b, u.first + 3, u32(b, v.w3));
      continue;
    }
    if (u.kind === 'flat_scratch_init') {
      const base = b.emit('ScratchBase');
      set(b, u.first, b.emit('Lo32', listOf(base)));
      set(b, u.first + 1, b.emit('Hi32', listOf(base)));
      continue;
    }
    for (let k = 0; k < u.count; k++) set(b, u.first + k, u32(b, 0));
  }
  const systems = info.systemSgprs;
  for (let j = 0; j < systems.length; j++) {
    const s = systems[j] as (typeof systems)[number];
    const axis = s.kind === 'workgroup_id_x' ? 0 : s.kind === 'workgroup_id_y' ? 1 : s.kind === 'workgroup_id_z' ? 2 : -1;
    if (axis >= 0) { set(b, s.first, put(b, 'WorkgroupId', WORKGROUP_ID, NO_ARGS, imm(axis))); continue; }
    if (s.kind === 'workgroup_info') {
      let v = b.emit('WavesInGroup');
      for (const sh of tgSizeIndexShifts(info.target)) v = b.emit('Or32', listOf(v, b.emit('Shl32', listOf(b.emit('WaveInGroup'), u32(b, sh)))));
      set(b, s.first, v);
      continue;
    }
    // The scratch wave offset: a kernel's wave has its own region, so its offset into it is 0; a
    // raw shader's wave has its slot of the dispatch's scratch ring (src/interp/scratch.ts).
    set(b, s.first, usesScratchRing(info) ? b.emit('Lo32', listOf(b.emit('ISub64', listOf(b.emit('ScratchBase'), b.emit('ScratchRing'))))) : u32(b, 0));
  }
  const ids = info.workitemIdVgprs;
  for (let k = 0; k < ids.length; k++) put(b, 'SetVgpr', SET_VGPR, listOf(put(b, 'LocalId', LOCAL_ID, NO_ARGS, imm(k))), imm(k));
  const inGrid = put(b, 'InGrid', IN_GRID, NO_ARGS, NO_IMMS);
  set(b, EXEC_LO, put(b, 'BallotLo', BALLOT_LO, listOf(inGrid), NO_IMMS));
  if (info.waveSize === 64) set(b, EXEC_LO + 1, put(b, 'BallotHi', BALLOT_HI, listOf(inGrid), NO_IMMS));
  put(b, 'SetScc', SET_SCC, listOf(put(b, 'ConstU1', CONST_U1, NO_ARGS, imm(0))), NO_IMMS);
  // FLAT_SCRATCH starts at 0, as the interpreter's (the kernel prologue sets it from flat_scratch_init).
  set(b, FLAT_SCR_LO_REG, u32(b, 0));
  set(b, FLAT_SCR_HI_REG, u32(b, 0));
  put(b, 'SetMode', SET_MODE, listOf(u32(b, launchMode(info))), NO_IMMS);
  return inGrid;
}
