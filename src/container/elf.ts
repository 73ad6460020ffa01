// A bounds-checked reader for ELF64 little-endian AMDGPU code objects: header, sections and
// symbols, enough to find the code and its target. Any malformed field gives an ElfError with a
// one-line message; nothing here reads outside the buffer or loops without bound.
import type { Target } from '../isa/types.js';

export class ElfError extends Error {
  override readonly name = 'ElfError';
}

export const EM_AMDGPU = 224;
export const SHT_SYMTAB = 2;
export const SHF_EXECINSTR = 0x4;

/** EF_AMDGPU_MACH values (llvm/BinaryFormat/ELF.h) for the gfx10 family and the ones we support. */
const MACH_NAMES: ReadonlyMap<number, string> = new Map([
  [0x033, 'gfx1010'], [0x034, 'gfx1011'], [0x035, 'gfx1012'], [0x042, 'gfx1013'],
  [0x036, 'gfx1030'], [0x037, 'gfx1031'], [0x038, 'gfx1032'], [0x039, 'gfx1033'],
  [0x03e, 'gfx1034'], [0x03d, 'gfx1035'], [0x045, 'gfx1036'],
  [0x041, 'gfx1100'], [0x046, 'gfx1101'], [0x047, 'gfx1102'],
]);
const SUPPORTED: ReadonlyMap<number, Target> = new Map<number, Target>([[0x033, 'gfx1010'], [0x042, 'gfx1013'], [0x036, 'gfx1030']]);

export interface ElfSection {
  readonly index: number;
  readonly name: string;
  readonly type: number;
  readonly flags: number;
  readonly addr: number;
  readonly offset: number;
  readonly size: number;
  readonly link: number;
  /** sh_info (for a relocation section: the section its relocations apply to). */
  readonly info: number;
  readonly entsize: number;
}

export interface ElfSymbol {
  readonly name: string;
  readonly value: number;
  readonly size: number;
  /** STT_* */
  readonly type: number;
  /** STB_* */
  readonly bind: number;
  readonly shndx: number;
}

export interface ElfFile {
  readonly bytes: Uint8Array;
  readonly type: number;
  readonly machine: number;
  readonly flags: number;
  /** gfx name from e_flags (may be a target we do not support). */
  readonly mach: string;
  /** Our target, when e_flags names one we support. */
  readonly target: Target | undefined;
  readonly sections: readonly ElfSection[];
  readonly symbols: readonly ElfSymbol[];
}

export function isElf(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x7f && bytes[1] === 0x45 && bytes[2] === 0x4c && bytes[3] === 0x46;
}

function u64(dv: DataView, off: number, what: string): number {
  const v = dv.getBigUint64(off, true);
  if (v > BigInt(Number.MAX_SAFE_INTEGER)) throw new ElfError(`ELF ${what} is out of range (${v})`);
  return Number(v);
}

function cstring(bytes: Uint8Array, start: number, limit: number): string {
  let end = start;
  while (end < limit && bytes[end] !== 0) end++;
  let s = '';
  for (let i = start; i < end; i++) s += String.fromCharCode(bytes[i] ?? 0);
  return s;
}

export function parseElf(bytes: Uint8Array): ElfFile {
  if (!isElf(bytes)) throw new ElfError('not an ELF file');
  if (bytes.length < 64) throw new ElfError(`ELF header is truncated (${bytes.length} bytes)`);
  if (bytes[4] !== 2) throw new ElfError('only ELF64 code objects are supported (EI_CLASS is not ELFCLASS64)');
  if (bytes[5] !== 1) throw new ElfError('only little-endian ELF is supported');
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const type = dv.getUint16(16, true);
  const machine = dv.getUint16(18, true);
  if (machine !== EM_AMDGPU) throw new ElfError(`not an AMDGPU code object (e_machine ${machine}, want ${EM_AMDGPU})`);
  const flags = dv.getUint32(48, true);
  const shoff = u64(dv, 40, 'e_shoff');
  const shentsize = dv.getUint16(58, true);
  const shnum = dv.getUint16(60, true);
  const shstrndx = dv.getUint16(62, true);
  if (shnum > 0 && shentsize < 64) throw new ElfError(`bad e_shentsize ${shentsize}`);
  if (shnum > 0 && shoff + shnum * shentsize > bytes.length) throw new ElfError('section header table lies outside the file');
  const raw: Omit<ElfSection, 'name'>[] = [];
  const nameOffs: number[] = [];
  for (let i = 0; i < shnum; i++) {
    const o = shoff + i * shentsize;
    nameOffs.push(dv.getUint32(o, true));
    const sec = {
      index: i,
      type: dv.getUint32(o + 4, true),
      flags: u64(dv, o + 8, 'sh_flags'),
      addr: u64(dv, o + 16, 'sh_addr'),
      offset: u64(dv, o + 24, 'sh_offset'),
      size: u64(dv, o + 32, 'sh_size'),
      link: dv.getUint32(o + 40, true),
      info: dv.getUint32(o + 44, true),
      entsize: u64(dv, o + 56, 'sh_entsize'),
    };
    const NOBITS = 8;
    if (sec.type !== NOBITS && sec.type !== 0 && sec.offset + sec.size > bytes.length) {
      throw new ElfError(`section ${i} (offset ${sec.offset}, size ${sec.size}) lies outside the file (${bytes.length} bytes)`);
    }
    raw.push(sec);
  }
  const shstr = raw[shstrndx];
  const sections: ElfSection[] = raw.map((s, i) => {
    const no = nameOffs[i] ?? 0;
    const name = shstr && shstr.type === 3 && no < shstr.size ? cstring(bytes, shstr.offset + no, shstr.offset + shstr.size) : '';
    return { ...s, name };
  });
  const symbols: ElfSymbol[] = [];
  for (const s of sections) {
    if (s.type !== SHT_SYMTAB) continue;
    if (s.entsize !== 24) throw new ElfError(`symbol table ${s.name || s.index} has entry size ${s.entsize}, want 24`);
    const str = sections[s.link];
    for (let o = s.offset + 24; o + 24 <= s.offset + s.size; o += 24) {
      const nameOff = dv.getUint32(o, true);
      const info = dv.getUint8(o + 4);
      const shndx = dv.getUint16(o + 6, true);
      const name = str && str.type === 3 && nameOff < str.size ? cstring(bytes, str.offset + nameOff, str.offset + str.size) : '';
      symbols.push({ name, value: u64(dv, o + 8, 'st_value'), size: u64(dv, o + 16, 'st_size'), type: info & 0xf, bind: info >> 4, shndx });
    }
  }
  const machNum = flags & 0xff;
  const mach = MACH_NAMES.get(machNum) ?? `unknown machine 0x${machNum.toString(16)}`;
  return { bytes, type, machine, flags, mach, target: SUPPORTED.get(machNum), sections, symbols };
}

export function sectionBytes(elf: ElfFile, s: ElfSection): Uint8Array {
  return elf.bytes.subarray(s.offset, s.offset + s.size);
}
