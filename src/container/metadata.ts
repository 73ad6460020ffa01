// The NT_AMDGPU_METADATA note (code object v3+): a MessagePack map in a note owned by "AMDGPU",
// type 32, in an SHT_NOTE section. Bounded: note sizes are checked against the section, the
// decoder input is capped, and anything malformed gives a CodeObjectError.
import { decode } from '@msgpack/msgpack';
import type { ElfFile } from './elf.js';
import { CodeObjectError } from './kernel-descriptor.js';

export const SHT_NOTE = 7;
export const NT_AMDGPU_METADATA = 32;
/** Largest metadata blob we decode. */
export const MAX_METADATA_BYTES = 4 * 1024 * 1024;

export interface KernelArg {
  readonly name?: string;
  readonly typeName?: string;
  readonly offset: number;
  readonly size: number;
  readonly valueKind: string;
  readonly addressSpace?: string;
  readonly access?: string;
  readonly actualAccess?: string;
  readonly isConst?: boolean;
  readonly isRestrict?: boolean;
  readonly isVolatile?: boolean;
  readonly pointeeAlign?: number;
}

export interface KernelMetadata {
  readonly name: string;
  readonly symbol: string;
  readonly args: readonly KernelArg[];
  readonly kernargSegmentSize?: number;
  readonly kernargSegmentAlign?: number;
  readonly wavefrontSize?: number;
  readonly sgprCount?: number;
  readonly vgprCount?: number;
  readonly maxFlatWorkgroupSize?: number;
  /** `.reqd_workgroup_size` (OpenCL reqd_work_group_size): three positive integers. */
  readonly reqdWorkgroupSize?: readonly [number, number, number];
  /** The whole decoded map, for fields not modelled here. */
  readonly raw: Readonly<Record<string, unknown>>;
}

export interface CodeObjectMetadata {
  readonly version?: readonly number[];
  readonly kernels: readonly KernelMetadata[];
}

export interface ElfNote { readonly owner: string; readonly type: number; readonly desc: Uint8Array; readonly section: string }

/** Every note in the SHT_NOTE sections; a note whose sizes run past its section is an error. */
export function readNotes(elf: ElfFile): ElfNote[] {
  const out: ElfNote[] = [];
  const dv = new DataView(elf.bytes.buffer, elf.bytes.byteOffset, elf.bytes.byteLength);
  for (const s of elf.sections) {
    if (s.type !== SHT_NOTE) continue;
    const end = s.offset + s.size;
    let o = s.offset;
    while (o + 12 <= end) {
      const namesz = dv.getUint32(o, true);
      const descsz = dv.getUint32(o + 4, true);
      const type = dv.getUint32(o + 8, true);
      const nameOff = o + 12;
      const descOff = nameOff + namesz + ((4 - (namesz % 4)) % 4);
      const next = descOff + descsz + ((4 - (descsz % 4)) % 4);
      if (namesz > s.size || descsz > s.size || descOff + descsz > end) {
        throw new CodeObjectError(`note at offset ${o} in ${s.name || `section ${s.index}`}: name size ${namesz} / descriptor size ${descsz} run past the section`);
      }
      let owner = '';
      for (let i = 0; i < namesz; i++) {
        const c = elf.bytes[nameOff + i] ?? 0;
        if (c === 0) break;
        owner += String.fromCharCode(c);
      }
      out.push({ owner, type, desc: elf.bytes.subarray(descOff, descOff + descsz), section: s.name });
      o = next;
    }
  }
  return out;
}

const isMap = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Uint8Array);

function num(m: Record<string, unknown>, key: string, where: string, required: true): number;
function num(m: Record<string, unknown>, key: string, where: string, required: false): number | undefined;
function num(m: Record<string, unknown>, key: string, where: string, required: boolean): number | undefined {
  const v = m[key];
  if (v === undefined && !required) return undefined;
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) throw new CodeObjectError(`${where}: metadata field ${key} is ${v === undefined ? 'missing' : 'not a non-negative integer'}`);
  return v;
}
function str(m: Record<string, unknown>, key: string, where: string, required: true): string;
function str(m: Record<string, unknown>, key: string, where: string, required: false): string | undefined;
function str(m: Record<string, unknown>, key: string, where: string, required: boolean): string | undefined {
  const v = m[key];
  if (v === undefined && !required) return undefined;
  if (typeof v !== 'string') throw new CodeObjectError(`${where}: metadata field ${key} is ${v === undefined ? 'missing' : 'not a string'}`);
  return v;
}
function flag(m: Record<string, unknown>, key: string, where: string): boolean | undefined {
  const v = m[key];
  if (v === undefined) return undefined;
  if (typeof v !== 'boolean') throw new CodeObjectError(`${where}: metadata field ${key} is not a boolean`);
  return v;
}

function parseArg(v: unknown, where: string): KernelArg {
  if (!isMap(v)) throw new CodeObjectError(`${where}: metadata argument is not a map`);
  const arg: { -readonly [K in keyof KernelArg]: KernelArg[K] } = {
    offset: num(v, '.offset', where, true),
    size: num(v, '.size', where, true),
    valueKind: str(v, '.value_kind', where, true),
  };
  const name = str(v, '.name', where, false); if (name !== undefined) arg.name = name;
  const typeName = str(v, '.type_name', where, false); if (typeName !== undefined) arg.typeName = typeName;
  const as = str(v, '.address_space', where, false); if (as !== undefined) arg.addressSpace = as;
  const access = str(v, '.access', where, false); if (access !== undefined) arg.access = access;
  const actual = str(v, '.actual_access', where, false); if (actual !== undefined) arg.actualAccess = actual;
  const c = flag(v, '.is_const', where); if (c !== undefined) arg.isConst = c;
  const r = flag(v, '.is_restrict', where); if (r !== undefined) arg.isRestrict = r;
  const vol = flag(v, '.is_volatile', where); if (vol !== undefined) arg.isVolatile = vol;
  const pa = num(v, '.pointee_align', where, false); if (pa !== undefined) arg.pointeeAlign = pa;
  return arg;
}

/** Decodes one NT_AMDGPU_METADATA descriptor. */
export function decodeMetadata(desc: Uint8Array): CodeObjectMetadata {
  if (desc.length > MAX_METADATA_BYTES) throw new CodeObjectError(`AMDGPU metadata note is too large (${desc.length} bytes, limit ${MAX_METADATA_BYTES})`);
  let root: unknown;
  try {
    root = decode(desc, { maxStrLength: desc.length, maxBinLength: desc.length, maxArrayLength: desc.length, maxMapLength: desc.length, maxExtLength: desc.length });
  } catch (e) {
    const msg = e instanceof Error ? e.message : String(e);
    throw new CodeObjectError(`AMDGPU metadata note does not decode as MessagePack: ${msg.split('\n')[0] ?? ''}`);
  }
  if (!isMap(root)) throw new CodeObjectError('AMDGPU metadata note is not a MessagePack map');
  const versionRaw = root['amdhsa.version'];
  let version: number[] | undefined;
  if (versionRaw !== undefined) {
    if (!Array.isArray(versionRaw) || !versionRaw.every((x) => typeof x === 'number')) throw new CodeObjectError('AMDGPU metadata amdhsa.version is not a list of integers');
    version = versionRaw as number[];
  }
  const ks = root['amdhsa.kernels'] ?? [];
  if (!Array.isArray(ks)) throw new CodeObjectError('AMDGPU metadata amdhsa.kernels is not a list');
  const kernels: KernelMetadata[] = ks.map((k: unknown, i: number) => {
    if (!isMap(k)) throw new CodeObjectError(`AMDGPU metadata kernel ${i} is not a map`);
    const name = str(k, '.name', `metadata kernel ${i}`, true);
    const where = `kernel ${name}`;
    const argsRaw = k['.args'] ?? [];
    if (!Array.isArray(argsRaw)) throw new CodeObjectError(`${where}: metadata field .args is not a list`);
    const km: { -readonly [K in keyof KernelMetadata]: KernelMetadata[K] } = {
      name,
      symbol: str(k, '.symbol', where, true),
      args: argsRaw.map((a: unknown) => parseArg(a, where)),
      raw: k,
    };
    const opt = (key: string, set: (n: number) => void) => { const n = num(k, key, where, false); if (n !== undefined) set(n); };
    opt('.kernarg_segment_size', (n) => { km.kernargSegmentSize = n; });
    opt('.kernarg_segment_align', (n) => { km.kernargSegmentAlign = n; });
    opt('.wavefront_size', (n) => { km.wavefrontSize = n; });
    opt('.sgpr_count', (n) => { km.sgprCount = n; });
    opt('.vgpr_count', (n) => { km.vgprCount = n; });
    opt('.max_flat_workgroup_size', (n) => { km.maxFlatWorkgroupSize = n; });
    const wg = k['.reqd_workgroup_size'];
    if (wg !== undefined) {
      if (!Array.isArray(wg) || wg.length !== 3 || !wg.every((x) => typeof x === 'number' && Number.isInteger(x) && x >= 1 && x <= 1024)) {
        throw new CodeObjectError(`${where}: metadata field .reqd_workgroup_size is not three integers from 1 to 1024`);
      }
      km.reqdWorkgroupSize = [wg[0] as number, wg[1] as number, wg[2] as number];
    }
    return km;
  });
  return version === undefined ? { kernels } : { version, kernels };
}

/** The code object's AMDGPU metadata, or undefined when it has no NT_AMDGPU_METADATA note. */
export function readMetadata(elf: ElfFile): CodeObjectMetadata | undefined {
  const notes = readNotes(elf).filter((n) => n.owner === 'AMDGPU' && n.type === NT_AMDGPU_METADATA);
  if (notes.length > 1) throw new CodeObjectError(`code object has ${notes.length} AMDGPU metadata notes, want at most 1`);
  const n = notes[0];
  return n ? decodeMetadata(n.desc) : undefined;
}
