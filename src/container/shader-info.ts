// ShaderInfo: what a recompiler or emulator needs to start a kernel of an AMDGPU code object:
// entry point, wave size, initial MODE, the SGPRs and VGPRs the hardware preloads, register
// budgets, memory sizes, and (from the metadata note) the kernel arguments.
import type { Target } from '../isa/types.js';
import { type ElfFile, type ElfSymbol, SHF_EXECINSTR, sectionBytes } from './elf.js';
import { CodeObjectError, type KernelDescriptor, KERNEL_DESCRIPTOR_SIZE, parseKernelDescriptor } from './kernel-descriptor.js';
import { type KernelArg, readMetadata } from './metadata.js';

export type UserSgprKind =
  | 'private_segment_buffer' | 'dispatch_ptr' | 'queue_ptr' | 'kernarg_segment_ptr'
  | 'dispatch_id' | 'flat_scratch_init' | 'private_segment_size';
export type SystemSgprKind =
  | 'workgroup_id_x' | 'workgroup_id_y' | 'workgroup_id_z' | 'workgroup_info' | 'private_segment_wave_offset';

export interface SgprInput<K extends string> {
  readonly kind: K;
  /** First SGPR number (s<first>). */
  readonly first: number;
  /** Number of SGPRs. */
  readonly count: number;
}

/**
 * Where the wave's index in its workgroup sits in the TG_SIZE system SGPR (COMPUTE_PGM_RSRC2.TG_SIZE_EN;
 * AMDHSA's workgroup_info). TG_SIZE holds the workgroup's waves in bits 5:0 and the wave's index in
 * bits 11:6 (the ordered-append wave id, which is the index while the dispatch initiator's
 * ORDERED_APPEND_ENBL is off, as every dispatch here) and, on gfx10.3 (gfx1030), in bits 24:20 too;
 * the other bits read 0. Source: Mesa's ac_nir lowering of load_num_subgroups (bits 5:0) and
 * load_subgroup_id (bits 11:6 on gfx10, 24:20 on gfx10.3). Both engines build it from here.
 */
export function tgSizeIndexShifts(target: Target): readonly number[] {
  return target === 'gfx1030' ? [6, 20] : [6];
}

/** The TG_SIZE SGPR of wave `wave` of a workgroup of `waves` waves (tgSizeIndexShifts). */
export function tgSizeValue(target: Target, waves: number, wave: number): number {
  let v = waves & 0x3f;
  for (const s of tgSizeIndexShifts(target)) v |= (wave & 0x3f) << s;
  return v >>> 0;
}

/** The user-data registers a compute dispatch has (COMPUTE_USER_DATA_0..15). */
export const COMPUTE_USER_DATA = 16;

/**
 * Why a raw shader (sidecar) cannot be launched by either engine, or undefined: only compute
 * shaders run (a graphics stage needs the fixed-function pipeline around it); a compute shader
 * loads at most 16 user-data SGPRs. (One with scratch gets the plan's scratch ring:
 * src/interp/scratch.ts.)
 */
export function rawLaunchRefusal(info: ShaderInfo): string | undefined {
  if (info.stage !== 'cs') return `shader ${info.name} is a raw ${info.stage} shader: only compute shaders (stage cs) are dispatched here (a graphics stage needs the fixed-function pipeline around it)`;
  if (info.userSgprCount > COMPUTE_USER_DATA) return `shader ${info.name}: a compute shader has ${COMPUTE_USER_DATA} user-data SGPRs (COMPUTE_USER_DATA_0..15), its sidecar asks for ${info.userSgprCount}`;
  return undefined;
}

/** Hardware shader stages (the sidecar's spelling): compute, pixel, vertex, geometry, hull, export, local. */
export const STAGES = ['cs', 'ps', 'vs', 'gs', 'hs', 'es', 'ls'] as const;
export type Stage = (typeof STAGES)[number];

/** ShaderInfo fields a raw shader's sidecar may leave out; they then take the documented default. */
export type AssumableField = 'floatMode' | 'dx10Clamp' | 'ieeeMode' | 'fp16Overflow' | 'tgidEnable' | 'tgSizeEnable' | 'scratchEnable' | 'tidigCompCnt' | 'userSgprCount' | 'sgprs' | 'vgprs' | 'ldsSize' | 'scratchSize';

export interface ShaderInfo {
  readonly target: Target;
  readonly stage: Stage;
  readonly name: string;
  /** Where the facts came from: an AMDGPU code object's kernel descriptor, or a raw shader's JSON sidecar. */
  readonly source: 'code-object' | 'sidecar';
  /** Fields not declared by the input: they hold the documented default (never silently: inspect lists them). */
  readonly assumed: readonly AssumableField[];
  /** Address of the kernel descriptor (`<name>.kd`); code objects only. */
  readonly descriptorAddress?: number;
  /** Address of the first instruction (ET_REL: an offset in `codeSection`). */
  readonly entry: number;
  readonly codeSection: string;
  /** [start, end) of the kernel's code: the function symbol's size when present, else to the section's end. */
  readonly codeRange: { readonly start: number; readonly end: number };
  readonly waveSize: 32 | 64;
  /** MODE bits 7:0 at wave start: FP_ROUND (round 32 in 1:0, round 16/64 in 3:2), FP_DENORM (denorm 32 in 5:4, 16/64 in 7:6). */
  readonly floatMode: number;
  readonly dx10Clamp: boolean;
  readonly ieeeMode: boolean;
  /** MODE.FP16_OVFL (bit 23) at wave start: COMPUTE_PGM_RSRC1 bit 26 (`.amdhsa_fp16_overflow`), or the sidecar's. */
  readonly fp16Overflow: boolean;
  /** Enabled user SGPRs in ABI order, from s0 (a sidecar's user-data layout: its own names). */
  readonly userSgprs: readonly SgprInput<string>[];
  /** USER_SGPR_COUNT from rsrc2 (may exceed the enabled inputs' total). */
  readonly userSgprCount: number;
  /** System SGPRs, after the user SGPRs, in ABI order. */
  readonly systemSgprs: readonly SgprInput<SystemSgprKind>[];
  /** Workitem-id VGPRs: v0 = X, v1 = Y, v2 = Z (not packed on gfx10). */
  readonly workitemIdVgprs: readonly ('x' | 'y' | 'z')[];
  /** VGPRs allocated: (granulated + 1) × 8 in wave32, × 4 in wave64. */
  readonly vgprCount: number;
  /** gfx10: SGPR allocation is fixed (AMDGPUUsage: "128 SGPRs always allocated"). */
  readonly sgprCount: number;
  /** SGPRs the shader may name: s0..s(addressableSgprs-1) (106 on gfx10, or a sidecar's `sgprs`). */
  readonly addressableSgprs: number;
  readonly ldsSize: number;
  readonly scratchSize: number;
  readonly kernargSize: number;
  /** Workgroup size when declared (a sidecar's workgroupSize, a kernel's .reqd_workgroup_size). */
  readonly workgroupSize?: readonly [number, number, number];
  /** The most work-items a workgroup may have, when the kernel's metadata says (`.max_flat_workgroup_size`). */
  readonly maxWorkgroupSize?: number;
  readonly descriptor?: KernelDescriptor;
  /** Kernel arguments from the metadata note; undefined when the object has none for this kernel. */
  readonly args?: readonly KernelArg[];
}

/**
 * Why the kernel's private segment size cannot be used as its scratch size, or undefined: a
 * kernel descriptor with USES_DYNAMIC_STACK (is_dynamic_callstack; clang's `.uses_dynamic_stack`,
 * for calls it cannot bound: through pointers, dynamic stack objects; clang-19 does not set it for
 * the recursion of tests/fixtures/opencl/calls-recursive.cl) says that private_segment_fixed_size
 * does not bound the call stack.
 * Both engines size each lane's scratch from ShaderInfo.scratchSize and stop or fault past it,
 * so such a kernel is refused by both (src/interp/dispatch.ts, src/frontend/index.ts) rather
 * than run with a guessed size.
 */
export function unboundedStackReason(info: ShaderInfo): string | undefined {
  if (info.descriptor?.properties.usesDynamicStack !== true) return undefined;
  return `kernel ${info.name}: its descriptor sets USES_DYNAMIC_STACK (is_dynamic_callstack: a dynamic call stack), so its private_segment_fixed_size (${info.scratchSize} bytes a lane) does not bound the stack, and neither engine runs a kernel whose scratch size is unknown`;
}

const STT_OBJECT = 1;
const STT_FUNC = 2;
const ET_REL = 1;
const SHT_RELA = 4;
const R_AMDGPU_REL64 = 5;

const USER_SGPRS: readonly [UserSgprKind, number, keyof KernelDescriptor['properties']][] = [
  ['private_segment_buffer', 4, 'privateSegmentBuffer'],
  ['dispatch_ptr', 2, 'dispatchPtr'],
  ['queue_ptr', 2, 'queuePtr'],
  ['kernarg_segment_ptr', 2, 'kernargSegmentPtr'],
  ['dispatch_id', 2, 'dispatchId'],
  ['flat_scratch_init', 2, 'flatScratchInit'],
  ['private_segment_size', 1, 'privateSegmentSize'],
];

interface EntryReloc { readonly type: number; readonly symIdx: number; readonly addend: bigint; readonly link: number }

/** Relocations of a relocatable object, keyed by `<target section>:<offset>` (read once: bounded work for many kernels). */
function indexRelocations(elf: ElfFile): Map<string, EntryReloc> {
  const dv = new DataView(elf.bytes.buffer, elf.bytes.byteOffset, elf.bytes.byteLength);
  const out = new Map<string, EntryReloc>();
  for (const s of elf.sections) {
    if (s.type !== SHT_RELA || s.entsize !== 24) continue;
    const info = s.info; // the section the relocations apply to
    for (let o = s.offset; o + 24 <= s.offset + s.size; o += 24) {
      const rinfo = dv.getBigUint64(o + 8, true);
      out.set(`${info}:${dv.getBigUint64(o, true)}`, { type: Number(rinfo & 0xffffffffn), symIdx: Number(rinfo >> 32n), addend: dv.getBigInt64(o + 16, true), link: s.link });
    }
  }
  return out;
}

/** In a relocatable object the entry offset is an R_AMDGPU_REL64 relocation at kd+16 (S + A - P); the entry is S + A - 16. */
function relocatedEntry(elf: ElfFile, relocs: Map<string, EntryReloc>, kd: ElfSymbol, name: string): { entry: number; shndx: number } | undefined {
  const r = relocs.get(`${kd.shndx}:${BigInt(kd.value) + 16n}`);
  if (!r) return undefined;
  if (r.type !== R_AMDGPU_REL64) throw new CodeObjectError(`kernel ${name}: kernel_code_entry_byte_offset has relocation type ${r.type}, want R_AMDGPU_REL64`);
  const symtabs = elf.sections.filter((s) => s.type === 2);
  if (symtabs.length !== 1 || symtabs[0]?.index !== r.link) throw new CodeObjectError(`kernel ${name}: kernel_code_entry_byte_offset relocation's symbol table ${r.link} is not the object's symbol table`);
  const sym = elf.symbols[r.symIdx - 1];
  if (!sym) throw new CodeObjectError(`kernel ${name}: kernel_code_entry_byte_offset relocation names symbol ${r.symIdx}, which does not exist`);
  const entry = BigInt(sym.value) + r.addend - 16n;
  if (entry < 0n || entry > BigInt(Number.MAX_SAFE_INTEGER)) throw new CodeObjectError(`kernel ${name}: kernel_code_entry_byte_offset: relocated entry ${entry} is out of range`);
  return { entry: Number(entry), shndx: sym.shndx };
}

/** Reads every kernel (every `<name>.kd` STT_OBJECT symbol) of a code object. Throws CodeObjectError on damage. */
export function readShaderInfos(elf: ElfFile): ShaderInfo[] {
  const target = elf.target;
  if (!target) throw new CodeObjectError(`code object target ${elf.mach} is not supported (want gfx1010, gfx1013 or gfx1030)`);
  let meta: ReturnType<typeof readMetadata>;
  try {
    meta = readMetadata(elf);
  } catch (e) {
    if (e instanceof CodeObjectError) throw e;
    throw new CodeObjectError(`AMDGPU metadata note cannot be read: ${e instanceof Error ? e.message : String(e)}`);
  }
  const out: ShaderInfo[] = [];
  const relocs = elf.type === ET_REL ? indexRelocations(elf) : new Map<string, EntryReloc>();
  const funcs = new Map<string, ElfSymbol[]>();
  for (const s of elf.symbols) if (s.type === STT_FUNC) funcs.set(s.name, [...(funcs.get(s.name) ?? []), s].slice(0, 8));
  const kds = elf.symbols.filter((s) => s.type === STT_OBJECT && s.name.endsWith('.kd') && s.name.length > 3);
  for (const kd of kds) {
    const name = kd.name.slice(0, -3);
    const sec = elf.sections[kd.shndx];
    if (!sec || sec.type === 8 || sec.type === 0) throw new CodeObjectError(`kernel ${name}: descriptor symbol ${kd.name} is not in a section with contents`);
    const rel = elf.type === ET_REL;
    const base = rel ? 0 : sec.addr;
    if (kd.value < base || kd.value + KERNEL_DESCRIPTOR_SIZE > base + sec.size) {
      throw new CodeObjectError(`kernel ${name}: descriptor at 0x${kd.value.toString(16)} does not lie inside section ${sec.name || sec.index}`);
    }
    if (kd.size !== 0 && kd.size !== KERNEL_DESCRIPTOR_SIZE) throw new CodeObjectError(`kernel ${name}: descriptor symbol size is ${kd.size}, want 64`);
    const off = kd.value - base;
    const d = parseKernelDescriptor(sectionBytes(elf, sec).subarray(off, off + KERNEL_DESCRIPTOR_SIZE), name, target);
    let entry: number;
    let codeShndx: number | undefined;
    const r = rel ? relocatedEntry(elf, relocs, kd, name) : undefined;
    if (r) {
      entry = r.entry;
      codeShndx = r.shndx;
    } else {
      const e = BigInt(kd.value) + d.kernelCodeEntryByteOffset;
      if (e < 0n || e > BigInt(Number.MAX_SAFE_INTEGER)) throw new CodeObjectError(`kernel ${name}: kernel_code_entry_byte_offset ${d.kernelCodeEntryByteOffset} puts the entry out of range`);
      entry = Number(e);
    }
    const code = codeShndx !== undefined
      ? elf.sections[codeShndx]
      : elf.sections.find((s) => (s.flags & SHF_EXECINSTR) !== 0 && entry >= (rel ? 0 : s.addr) && entry < (rel ? 0 : s.addr) + s.size);
    const codeBase = rel ? 0 : code?.addr ?? 0;
    if (!code || (code.flags & SHF_EXECINSTR) === 0 || entry < codeBase || entry >= codeBase + code.size) {
      throw new CodeObjectError(`kernel ${name}: kernel_code_entry_byte_offset: entry 0x${entry.toString(16)} does not lie inside an executable section`);
    }
    if (entry % 256 !== 0) throw new CodeObjectError(`kernel ${name}: kernel_code_entry_byte_offset: entry 0x${entry.toString(16)} is not 256-byte aligned`);
    const fn = funcs.get(name)?.find((s) => s.value === entry && s.shndx === code.index);
    const end = fn && fn.size > 0 ? Math.min(entry + fn.size, codeBase + code.size) : codeBase + code.size;
    const p = d.properties;
    const waveSize = p.wavefrontSize32 ? 32 : 64;
    const userSgprs: SgprInput<UserSgprKind>[] = [];
    let next = 0;
    for (const [kind, count, key] of USER_SGPRS) {
      if (!p[key]) continue;
      userSgprs.push({ kind, first: next, count });
      next += count;
    }
    if (next > d.rsrc2.userSgprCount) {
      throw new CodeObjectError(`kernel ${name}: COMPUTE_PGM_RSRC2.USER_SGPR_COUNT is ${d.rsrc2.userSgprCount}, but the enabled user SGPRs need ${next}`);
    }
    next = d.rsrc2.userSgprCount;
    const systemSgprs: SgprInput<SystemSgprKind>[] = [];
    const sys: [SystemSgprKind, boolean][] = [
      ['workgroup_id_x', d.rsrc2.workgroupIdX], ['workgroup_id_y', d.rsrc2.workgroupIdY], ['workgroup_id_z', d.rsrc2.workgroupIdZ],
      ['workgroup_info', d.rsrc2.workgroupInfo], ['private_segment_wave_offset', d.rsrc2.enablePrivateSegment],
    ];
    for (const [kind, on] of sys) if (on) systemSgprs.push({ kind, first: next++, count: 1 });
    const workitemIdVgprs = (['x', 'y', 'z'] as const).slice(0, d.rsrc2.vgprWorkitemId + 1);
    const km = meta?.kernels.find((k) => k.symbol === kd.name) ?? meta?.kernels.find((k) => k.name === name);
    const wg = km?.reqdWorkgroupSize;
    const info: ShaderInfo = {
      target, stage: 'cs', name, source: 'code-object', assumed: [],
      descriptorAddress: kd.value,
      entry,
      codeSection: code.name,
      codeRange: { start: entry, end },
      waveSize,
      floatMode: d.rsrc1.floatMode,
      dx10Clamp: d.rsrc1.dx10Clamp,
      fp16Overflow: d.rsrc1.fp16Overflow,
      ieeeMode: d.rsrc1.ieeeMode,
      userSgprs,
      userSgprCount: d.rsrc2.userSgprCount,
      systemSgprs,
      workitemIdVgprs,
      vgprCount: (d.rsrc1.granulatedWorkitemVgprCount + 1) * (waveSize === 32 ? 8 : 4),
      sgprCount: 128,
      addressableSgprs: 106,
      ldsSize: d.groupSegmentFixedSize,
      scratchSize: d.privateSegmentFixedSize,
      kernargSize: d.kernargSize,
      descriptor: d,
      ...(wg ? { workgroupSize: wg } : {}),
      ...(km?.maxFlatWorkgroupSize !== undefined ? { maxWorkgroupSize: km.maxFlatWorkgroupSize } : {}),
      ...(km ? { args: km.args } : {}),
    };
    out.push(info);
  }
  return out;
}
