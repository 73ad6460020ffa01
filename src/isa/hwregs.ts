// The gfx10 hardware registers (s_getreg_b32 / s_setreg_b32 hwreg ids): LLVM 19's names per
// target (the disassembler prints them, the analyses read the rest), whether the ISA lets a
// shader read and write each, and how the analyses treat it.
// Sources: LLVM AMDGPU SIDefines.h (Hwreg ids) and AMDGPUAsmUtils (names per subtarget), AMD
// "RDNA 2" ISA reference guide (hardware registers). No Node APIs.
import type { Target } from './types.js';

/** How the analyses treat a hardware register. */
export type HwregModel =
  /** The MODE data flow tracks it bit by bit (mode.ts). */
  | 'mode'
  /** Its value is tracked as known bits (FLAT_SCR_LO/HI: what compiled HSA kernels set up for scratch). */
  | 'value'
  /** Not modeled: reads give 'hwreg-read-unmodeled', writes 'hwreg-write-unmodeled'. */
  | 'none';

export interface HwregDef {
  readonly id: number;
  /** LLVM's symbolic name (HW_REG_*). */
  readonly name: string;
  /** Targets on which LLVM names the id (absent: all gfx10 targets). */
  readonly targets?: readonly Target[];
  /** s_getreg_b32 may read it. */
  readonly readable: boolean;
  /** The ISA lets a shader write it with s_setreg (TBA/TMA: in the trap handler only, privileged). */
  readonly writable: boolean;
  readonly model: HwregModel;
  readonly note: string;
}

/** Every gfx10 hardware register id LLVM 19 names, in id order. */
export const HWREGS: readonly HwregDef[] = [
  { id: 1, name: 'HW_REG_MODE', readable: true, writable: true, model: 'mode', note: 'float round/denorm modes, DX10 clamp, IEEE, exception enables' },
  { id: 2, name: 'HW_REG_STATUS', readable: true, writable: false, model: 'none', note: 'wave status (SCC, VCCZ, EXECZ, priority, halt, ...): read-only' },
  { id: 3, name: 'HW_REG_TRAPSTS', readable: true, writable: true, model: 'none', note: 'trap status: exception flags (sticky), savectx' },
  { id: 5, name: 'HW_REG_GPR_ALLOC', readable: true, writable: false, model: 'none', note: 'VGPR/SGPR allocation base and size: read-only' },
  { id: 6, name: 'HW_REG_LDS_ALLOC', readable: true, writable: false, model: 'none', note: 'LDS allocation base and size: read-only' },
  { id: 7, name: 'HW_REG_IB_STS', readable: true, writable: true, model: 'none', note: 'instruction buffer counters (vm/exp/lgkm/vs counts, replay state)' },
  { id: 15, name: 'HW_REG_SH_MEM_BASES', readable: true, writable: false, model: 'none', note: 'shared/private aperture bases: read-only' },
  { id: 16, name: 'HW_REG_TBA_LO', readable: true, writable: true, model: 'none', note: 'trap base address, low (trap handler only)' },
  { id: 17, name: 'HW_REG_TBA_HI', readable: true, writable: true, model: 'none', note: 'trap base address, high (trap handler only)' },
  { id: 18, name: 'HW_REG_TMA_LO', readable: true, writable: true, model: 'none', note: 'trap memory address, low (trap handler only)' },
  { id: 19, name: 'HW_REG_TMA_HI', readable: true, writable: true, model: 'none', note: 'trap memory address, high (trap handler only)' },
  { id: 20, name: 'HW_REG_FLAT_SCR_LO', readable: true, writable: true, model: 'value', note: 'flat scratch base, low dword' },
  { id: 21, name: 'HW_REG_FLAT_SCR_HI', readable: true, writable: true, model: 'value', note: 'flat scratch base, high dword' },
  { id: 22, name: 'HW_REG_XNACK_MASK', targets: ['gfx1010', 'gfx1013'], readable: true, writable: true, model: 'none', note: 'XNACK lane mask' },
  { id: 23, name: 'HW_REG_HW_ID1', readable: true, writable: false, model: 'none', note: 'wave/SIMD/WGP/SA/SE ids: read-only' },
  { id: 24, name: 'HW_REG_HW_ID2', readable: true, writable: false, model: 'none', note: 'queue/pipe/ME/state/workgroup/VM ids: read-only' },
  { id: 25, name: 'HW_REG_POPS_PACKER', readable: true, writable: true, model: 'none', note: 'POPS packer state' },
  { id: 29, name: 'HW_REG_SHADER_CYCLES', targets: ['gfx1030'], readable: true, writable: false, model: 'none', note: '20-bit shader clock counter: read-only' },
];

const BY_ID: readonly (HwregDef | undefined)[] = (() => {
  const a: (HwregDef | undefined)[] = new Array<HwregDef | undefined>(64).fill(undefined);
  for (const d of HWREGS) a[d.id] = d;
  return a;
})();

/** The hardware register an id names on a target, or undefined (an id LLVM prints as a number). */
export function hwregDef(id: number, target: Target): HwregDef | undefined {
  const d = BY_ID[id & 0x3f];
  if (d === undefined || (d.targets !== undefined && !d.targets.includes(target))) return undefined;
  return d;
}
