// A shader ready for analysis: its ShaderInfo and its code as dwords, from either container
// (an AMDGPU code object, one Shader per kernel; or raw code bytes with a JSON sidecar).
//
// A kernel's code is its own function symbol range (ShaderInfo.codeRange: `words`, what disasm and
// inspect print) plus the functions it may call: every STT_FUNC symbol of a nonzero size in the
// kernel's code section (`functions`: the non-inlined functions clang links beside a kernel; the
// kernel's own symbol and the other kernels' are among them, and the kernel's range wins where
// they overlap). Which of them a kernel reaches is the CFG's business (src/analysis/cfg.ts: a
// call or jump may enter a function only at its entry); the list and the words are read once per
// object and shared by its kernels.
import { type ElfFile, type ElfSection, SHF_EXECINSTR, isElf, parseElf, sectionBytes } from './elf.js';
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
   * inside the code section (the kernel's range and its functions). They are not applied: the
   * words hold the assembler's placeholders (src/analysis/cfg.ts reports every reachable
   * instruction that holds one).
   */
  readonly relocated?: readonly number[];
  /**
   * The functions of the kernel's code section that a call or jump may enter at their entry (code
   * objects only; ascending start, disjoint from each other; shared by the object's kernels).
   */
  readonly functions?: readonly CodeFunction[];
  /**
   * A linked code object's memory image (CodeImage): what the loader places in memory, which the
   * code reaches by s_getpc_b64-relative addresses (clang's __constant data, libclc's tables).
   */
  readonly image?: CodeImage;
}

/**
 * The allocated sections of a linked code object (SHF_ALLOC: code, .rodata, .data, .bss as zeros)
 * at their addresses: bytes[k] is the byte at address base + k. Shared by the object's kernels;
 * each engine maps its own copy (a kernel may write .data).
 */
export interface CodeImage {
  readonly base: number;
  readonly bytes: Uint8Array;
}

/** The largest image we map (a code object's allocated span); a larger one is left unmapped (its data reads fault). */
export const MAX_CODE_IMAGE = 64 << 20;
const SHF_ALLOC = 0x2;
const SHT_NOBITS = 8;

/** The image of a linked (ET_DYN / ET_EXEC) code object; none for a relocatable one (its sections have no addresses). */
function codeImage(elf: ElfFile): CodeImage | undefined {
  if (elf.type === 1) return undefined;
  const alloc = elf.sections.filter((s) => (s.flags & SHF_ALLOC) !== 0 && s.size > 0);
  if (alloc.length === 0) return undefined;
  const base = Math.min(...alloc.map((s) => s.addr));
  const end = Math.max(...alloc.map((s) => s.addr + s.size));
  if (end - base > MAX_CODE_IMAGE) return undefined;
  const bytes = new Uint8Array(end - base);
  for (const s of alloc) if (s.type !== SHT_NOBITS) bytes.set(sectionBytes(elf, s).subarray(0, s.size), s.addr - base);
  return { base, bytes };
}

/** A function symbol's code: [start, end) as dwords (words[0] at start). */
export interface CodeFunction {
  readonly name: string;
  readonly start: number;
  readonly end: number;
  readonly words: Uint32Array;
}

/** A contiguous piece of a shader's code: the kernel's range or one of its functions. */
export interface CodeSegment {
  /** The function's name; undefined for the kernel's own range. */
  readonly name: string | undefined;
  readonly start: number;
  readonly end: number;
  readonly words: Uint32Array;
}

/** The kernel's own range as a segment. */
export function kernelSegment(shader: Shader): CodeSegment {
  return { name: undefined, start: shader.basePc, end: shader.basePc + 4 * shader.words.length, words: shader.words };
}

/** The segment holding `pc`: the kernel's range, else the function whose range holds it; undefined when none does. */
export function segmentAt(shader: Shader, pc: number): CodeSegment | undefined {
  if (pc >= shader.basePc && pc < shader.basePc + 4 * shader.words.length) return kernelSegment(shader);
  const fs = shader.functions;
  if (!fs || fs.length === 0) return undefined;
  let lo = 0, hi = fs.length;
  while (lo < hi) { const m = (lo + hi) >>> 1; if ((fs[m] as CodeFunction).end <= pc) lo = m + 1; else hi = m; }
  const f = fs[lo];
  return f !== undefined && pc >= f.start && pc < f.end ? f : undefined;
}

/** What a reached instruction holding an unapplied relocation (`holdsRelocation`) is told, by the CFG and the interpreter alike. */
export const UNAPPLIED_RELOCATION = 'a relocation of this relocatable object applies to this instruction and is not applied (its words hold the placeholder): link the object (ld.lld) first';

/** Whether a relocation that was not applied (Shader.relocated) falls inside the `size` bytes at `pc`. */
export function holdsRelocation(shader: Shader, pc: number, size: number): boolean {
  const r = shader.relocated;
  if (r === undefined || r.length === 0) return false;
  let lo = 0, hi = r.length;
  while (lo < hi) { const m = (lo + hi) >>> 1; if ((r[m] as number) < pc) lo = m + 1; else hi = m; }
  const at = r[lo];
  return at !== undefined && at < pc + size;
}

/** The function whose entry is `pc`, if any (not the kernel's own entry: its range wins). */
export function functionAt(shader: Shader, pc: number): CodeFunction | undefined {
  const s = segmentAt(shader, pc);
  return s !== undefined && s.name !== undefined && s.start === pc ? { ...s, name: s.name } : undefined;
}

export interface ShaderSource {
  readonly bytes: Uint8Array;
  /** Name for a raw shader (the file name without its extension). */
  readonly name: string;
  /** A raw shader's sidecar text and where it came from (for messages). */
  readonly sidecar?: { readonly text: string; readonly where: string };
}

const STT_FUNC = 2;

/** Every STT_FUNC symbol of a nonzero size inside section `sec`, as code; ascending start, overlapping ones left out. */
function sectionFunctions(elf: ElfFile, sec: ElfSection, base: number): CodeFunction[] {
  const bytes = sectionBytes(elf, sec);
  const syms = elf.symbols
    .filter((s) => s.type === STT_FUNC && s.shndx === sec.index && s.size > 0 && s.value >= base && s.value + s.size <= base + sec.size && (s.value - base) % 4 === 0)
    .sort((a, b) => a.value - b.value || b.size - a.size);
  const out: CodeFunction[] = [];
  for (const s of syms) {
    const last = out[out.length - 1];
    // Aliases and nested symbols: the first (largest) one at a start is kept, overlaps are dropped.
    if (last && s.value < last.end) continue;
    const end = s.value + s.size - (s.size % 4);
    if (end <= s.value) continue;
    out.push({ name: s.name, start: s.value, end, words: toWords(bytes.slice(s.value - base, end - base)) });
  }
  return out;
}

function kernelShaders(elf: ElfFile): Shader[] {
  const perSection = new Map<number, CodeFunction[]>();
  const image = codeImage(elf);
  const sectionRelocs = new Map<number, number[]>();
  return readShaderInfos(elf).map((info) => {
    const rel = elf.type === 1;
    const sec = elf.sections.find((s) => s.name === info.codeSection && (s.flags & SHF_EXECINSTR) !== 0 && s.type !== 8
      && info.entry >= (rel ? 0 : s.addr) && info.entry < (rel ? 0 : s.addr) + s.size);
    if (!sec) throw new CodeObjectError(`kernel ${info.name}: its code section ${info.codeSection} has no contents`);
    const base = rel ? 0 : sec.addr;
    const bytes = sectionBytes(elf, sec).subarray(info.codeRange.start - base, info.codeRange.end - base);
    let all = perSection.get(sec.index);
    if (!all) perSection.set(sec.index, all = sectionFunctions(elf, sec, base));
    const { start } = info.codeRange;
    let relocated = rel ? sectionRelocs.get(sec.index) : undefined;
    if (rel && !relocated) sectionRelocs.set(sec.index, relocated = codeRelocations(elf, sec.index, 0, Number.MAX_SAFE_INTEGER));
    return {
      info, words: toWords(bytes.slice()), basePc: start,
      ...(relocated && relocated.length > 0 ? { relocated } : {}),
      ...(all.length > 0 ? { functions: all } : {}),
      ...(image ? { image } : {}),
    };
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
