// rdna disasm [--mcpu T] [--format text|jsonl] FILE
import type { Target } from '../isa/types.js';
import { TARGETS } from '../isa/types.js';
import { toWords } from '../decode/index.js';
import { formatLong, printDecoded, type PrintContext } from '../disasm/index.js';
import { walkListing, type Label, type ListingEntry } from '../disasm/listing.js';
import { ElfError, isElf, parseElf, sectionBytes, SHF_EXECINSTR } from '../container/elf.js';
import { parseArgs, oneOf } from './args.js';
import { InputError, UsageError } from './errors.js';
import { readInput } from './input.js';
import { Output } from './output.js';

export const DISASM_USAGE = 'usage: rdna disasm [--mcpu gfx1030|gfx1013|gfx1010] [--format text|jsonl] FILE';

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).toUpperCase().padStart(2, '0'));
function hex8(w: number): string {
  return (HEX[(w >>> 24) & 0xff] ?? '') + (HEX[(w >>> 16) & 0xff] ?? '') + (HEX[(w >>> 8) & 0xff] ?? '') + (HEX[w & 0xff] ?? '');
}
function addr12(pc: number): string {
  const hi = Math.floor(pc / 0x100000000) & 0xffff;
  return (HEX[hi >>> 8] ?? '') + (HEX[hi & 0xff] ?? '') + hex8(pc >>> 0);
}
const PAD = ' '.repeat(64);

type Decoded = Extract<ListingEntry, { decoded: unknown }>;
interface Sink { readonly skipZeroes: boolean; label(name: string, pc: number): void; entry(e: Decoded, target: Target, ctx: PrintContext): void; zeroes(): void; section(name: string): void; trailing(pc: number, bytes: readonly number[]): void }

function textSink(out: Output): Sink {
  return {
    skipZeroes: true,
    zeroes() { out.line('\t\t...'); },
    section(name) { out.line(''); out.line(`Disassembly of section ${name}:`); },
    label(name, pc) { out.line(''); out.line(`${pc.toString(16).padStart(16, '0')} <${name}>:`); },
    entry(e, target, ctx) {
      const d = e.decoded;
      const text = d.kind === 'invalid' ? formatLong(d.words[0]) : printDecoded(d, target, ctx);
      let ws = '';
      for (let k = 0; k < d.words.length; k++) ws += (k ? ' ' : '') + hex8(d.words[k] ?? 0);
      out.line('\t' + (text.length < 59 ? text + PAD.slice(0, 59 - text.length) : text) + '// ' + addr12(d.pc) + ': ' + ws);
    },
    trailing(pc, bytes) { out.line(`\t.byte ${bytes.map((b) => '0x' + (HEX[b] ?? '').toLowerCase()).join(', ')}`.padEnd(60) + '// ' + addr12(pc)); },
  };
}

function jsonlSink(out: Output): Sink {
  return {
    skipZeroes: false,
    zeroes() {},
    section() {},
    label() {},
    entry(e, target, ctx) {
      const d = e.decoded;
      const words = '[' + d.words.join(',') + ']';
      if (d.kind === 'invalid') out.line(`{"offset":${d.pc},"invalid":true,"words":${words}}`);
      else out.line(`{"offset":${d.pc},"text":${JSON.stringify(printDecoded(d, target, ctx))},"words":${words}}`);
    },
    trailing(pc, bytes) { out.line(`{"offset":${pc},"invalid":true,"bytes":[${bytes.join(',')}]}`); },
  };
}

function disasmRange(target: Target, bytes: Uint8Array, basePc: number, labels: readonly Label[], ctx: PrintContext, sink: Sink): void {
  const words = toWords(bytes);
  walkListing(target, words, basePc, labels, (e) => {
    if ('zeroes' in e) {
      if (e.label !== undefined) sink.label(e.label, e.zeroes.pc);
      sink.zeroes();
      return;
    }
    if (e.label !== undefined) sink.label(e.label, e.decoded.pc);
    sink.entry(e, target, ctx);
  }, { skipZeroes: sink.skipZeroes });
  const rest = bytes.length & 3;
  if (rest) sink.trailing(basePc + words.length * 4, Array.from(bytes.subarray(bytes.length - rest)));
}

export function runDisasm(argv: readonly string[]): number {
  const args = parseArgs(argv, ['mcpu', 'format']);
  if (args.positional.length !== 1) throw new UsageError(args.positional.length ? 'disasm takes one FILE' : 'disasm needs a FILE');
  const file = args.positional[0] ?? '';
  const mcpuOpt = args.options.get('mcpu');
  const mcpu = typeof mcpuOpt === 'string' ? oneOf(mcpuOpt, TARGETS, '--mcpu') : undefined;
  const formatOpt = args.options.get('format');
  const format = typeof formatOpt === 'string' ? oneOf(formatOpt, ['text', 'jsonl'] as const, '--format') : 'text';
  const bytes = readInput(file);
  const out = new Output();
  const sink = format === 'text' ? textSink(out) : jsonlSink(out);
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
      // objdump's symbolizer names branch targets after untyped (STT_NOTYPE) symbols only.
      const untyped = new Map<number, string>();
      for (const y of inSection) if (y.type === 0 && !untyped.has(y.value)) untyped.set(y.value, y.name);
      const ctx: PrintContext = { symbolAt: (pc) => untyped.get(pc) };
      if (labels[0]?.pc !== s.addr) labels.unshift({ name: s.name, pc: s.addr });
      sink.section(s.name);
      disasmRange(target, sectionBytes(elf, s), s.addr, labels, ctx, sink);
    }
  } else {
    disasmRange(mcpu ?? 'gfx1030', bytes, 0, [], {}, sink);
  }
  out.flush();
  return 0;
}
