// A shader ready for analysis: its ShaderInfo and its code as dwords, from either container
// (an AMDGPU code object, one Shader per kernel; or raw code bytes with a JSON sidecar).
import { type ElfFile, SHF_EXECINSTR, isElf, parseElf, sectionBytes } from './elf.js';
import { CodeObjectError } from './kernel-descriptor.js';
import { readShaderInfos, type ShaderInfo } from './shader-info.js';
import { parseSidecar, sidecarShaderInfo } from './sidecar.js';
import { toWords } from '../decode/index.js';

export interface Shader {
  readonly info: ShaderInfo;
  /** The shader's code range [info.codeRange.start, info.codeRange.end) as dwords. */
  readonly words: Uint32Array;
  /** pc of words[0] (= info.codeRange.start). */
  readonly basePc: number;
  /**
   * pcs (ascending) of the code bytes a relocation of a relocatable object (ET_REL) applies to,
   * inside the code range. They are not applied: the words hold the assembler's placeholders
   * (src/analysis/cfg.ts reports every reachable instruction that holds one).
   */
  readonly relocated?: readonly number[];
}

export interface ShaderSource {
  readonly bytes: Uint8Array;
  /** Name for a raw shader (the file name without its extension). */
  readonly name: string;
  /** A raw shader's sidecar text and where it came from (for messages). */
  readonly sidecar?: { readonly text: string; readonly where: string };
}

function kernelShaders(elf: ElfFile): Shader[] {
  return readShaderInfos(elf).map((info) => {
    const rel = elf.type === 1;
    const sec = elf.sections.find((s) => s.name === info.codeSection && (s.flags & SHF_EXECINSTR) !== 0 && s.type !== 8
      && info.entry >= (rel ? 0 : s.addr) && info.entry < (rel ? 0 : s.addr) + s.size);
    if (!sec) throw new CodeObjectError(`kernel ${info.name}: its code section ${info.codeSection} has no contents`);
    const base = rel ? 0 : sec.addr;
    const bytes = sectionBytes(elf, sec).subarray(info.codeRange.start - base, info.codeRange.end - base);
    const relocated = rel ? codeRelocations(elf, sec.index, info.codeRange.start, info.codeRange.end) : [];
    return { info, words: toWords(bytes.slice()), basePc: info.codeRange.start, ...(relocated.length > 0 ? { relocated } : {}) };
  });
}

const SHT_RELA = 4;

/** The offsets in [start, end) of section `shndx` that a SHT_RELA section relocates, ascending. */
function codeRelocations(elf: ElfFile, shndx: number, start: number, end: number): number[] {
  const dv = new DataView(elf.bytes.buffer, elf.bytes.byteOffset, elf.bytes.byteLength);
  const out: number[] = [];
  for (const s of elf.sections) {
    if (s.type !== SHT_RELA || s.entsize !== 24 || s.info !== shndx) continue;
    for (let o = s.offset; o + 24 <= s.offset + s.size && o + 24 <= dv.byteLength; o += 24) {
      const at = Number(dv.getBigUint64(o, true));
      if (at >= start && at < end) out.push(at);
    }
  }
  return out.sort((a, b) => a - b);
}

/**
 * Every shader in the input: each kernel of a code object, or the one raw shader its sidecar
 * describes. Throws ElfError / CodeObjectError (one line, naming what is wrong) on bad input.
 */
export function loadShaders(src: ShaderSource): Shader[] {
  if (isElf(src.bytes)) {
    const shaders = kernelShaders(parseElf(src.bytes));
    if (shaders.length === 0) throw new CodeObjectError('code object has no kernels (no <name>.kd descriptor symbols)');
    return shaders;
  }
  if (!src.sidecar) throw new CodeObjectError('a raw shader needs its JSON sidecar (shader.json beside shader.bin, or --sidecar FILE): without it the target, stage, wave size and float mode are unknown');
  const sc = parseSidecar(src.sidecar.text, src.sidecar.where);
  const info = sidecarShaderInfo(sc, src.name, src.bytes.length, src.sidecar.where);
  const words = toWords(src.bytes.slice(info.codeRange.start, info.codeRange.end));
  return [{ info, words, basePc: info.codeRange.start }];
}
