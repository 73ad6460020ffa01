// rdna disasm [--mcpu T] [--format text|jsonl] FILE
import type { Target } from '../isa/types.js';
import { TARGETS } from '../isa/types.js';
import { toWords } from '../decode/index.js';
import type { Label } from '../disasm/listing.js';
import { trailingText, type ListingFormat } from './listing-format.js';
import { listSection } from './parallel.js';
import { ElfError, isElf, parseElf, sectionBytes, SHF_EXECINSTR } from '../container/elf.js';
import { parseArgs, oneOf } from './args.js';
import { InputError, UsageError } from './errors.js';
import { readInput } from './input.js';
import { Output } from './output.js';
import { onlyShader, readShaderInput, SHADER_OPTIONS, sidecarPathFor } from './shader-input.js';

export const DISASM_USAGE = 'usage: rdna disasm [--mcpu gfx1030|gfx1013|gfx1010] [--format text|jsonl] [--kernel NAME] [--sidecar FILE.json] FILE';

function codeWords(bytes: Uint8Array): Uint32Array {
  return toWords(bytes);
}

async function listBytes(target: Target, bytes: Uint8Array, basePc: number, labels: readonly Label[], untyped: readonly (readonly [number, string])[], format: ListingFormat, out: Output): Promise<void> {
  const words = codeWords(bytes);
  await listSection({ target, words, basePc, labels, untyped, format }, out);
  const rest = bytes.length & 3;
  if (rest) out.line(trailingText(basePc + words.length * 4, Array.from(bytes.subarray(bytes.length - rest)), format));
}

export async function runDisasm(argv: readonly string[]): Promise<number> {
  const args = parseArgs(argv, ['mcpu', 'format', ...SHADER_OPTIONS]);
  if (args.positional.length !== 1) throw new UsageError(args.positional.length ? 'disasm takes one FILE' : 'disasm needs a FILE');
  const file = args.positional[0] ?? '';
  const mcpuOpt = args.options.get('mcpu');
  const mcpu = typeof mcpuOpt === 'string' ? oneOf(mcpuOpt, TARGETS, '--mcpu') : undefined;
  const formatOpt = args.options.get('format');
  const format = typeof formatOpt === 'string' ? oneOf(formatOpt, ['text', 'jsonl'] as const, '--format') : 'text';
  if (args.options.has('kernel')) {
    // One kernel's code range, as `llvm-objdump -d --disassemble-symbols=NAME` lists it.
    const sh = onlyShader(readShaderInput(file, args));
    const out = new Output();
    if (format === 'text') { out.line(''); out.line(`${file}:\tfile format elf64-amdgpu`); out.line(''); out.line(`Disassembly of section ${sh.info.codeSection}:`); }
    await listSection({ target: mcpu ?? sh.info.target, words: sh.words, basePc: sh.basePc, labels: [{ name: sh.info.name, pc: sh.basePc }], untyped: [], format }, out);
    out.flush();
    return 0;
  }
  const bytes = readInput(file);
  const out = new Output();
  if (isElf(bytes)) {
    let elf;
    try {
      elf = parseElf(bytes);
    } catch (e) {
      if (e instanceof ElfError) throw new InputError(`${file}: ${e.message}`);
      throw e;
    }
    const target = mcpu ?? elf.target;
    if (target === undefined) throw new InputError(`${file}: code object is for ${elf.mach}; rdna supports ${TARGETS.join(', ')} (use --mcpu to force one)`);
    const code = elf.sections.filter((s) => (s.flags & SHF_EXECINSTR) !== 0 && s.type !== 8);
    if (format === 'text') { out.line(''); out.line(`${file}:\tfile format elf64-amdgpu`); }
    for (const s of code) {
      const inSection = elf.symbols.filter((y) => y.shndx === s.index && y.type !== 3 && y.type !== 4 && y.name !== '');
      const labels = inSection.map((y) => ({ name: y.name, pc: y.value })).sort((a, b) => a.pc - b.pc);
      if (labels[0]?.pc !== s.addr) labels.unshift({ name: s.name, pc: s.addr });
      // objdump's symbolizer names branch targets after untyped (STT_NOTYPE) symbols only.
      const untyped = new Map<number, string>();
      for (const y of inSection) if (y.type === 0 && !untyped.has(y.value)) untyped.set(y.value, y.name);
      if (format === 'text') { out.line(''); out.line(`Disassembly of section ${s.name}:`); }
      await listBytes(target, sectionBytes(elf, s), s.addr, labels, [...untyped], format, out);
    }
  } else {
    // A raw file: the target is --mcpu, else its sidecar's (when it has one), else gfx1030.
    const hasSidecar = args.options.has('sidecar') || sidecarPathFor(file) !== undefined;
    const target = mcpu ?? (hasSidecar ? onlyShader(readShaderInput(file, args)).info.target : 'gfx1030');
    await listBytes(target, bytes, 0, [], [], format, out);
  }
  out.flush();
  return 0;
}
