// A minimal ELF64 relocatable AMDGPU object writer: one .text section and a local symbol at
// the start of each case, so that llvm-objdump restarts decoding at every case.
import type { Target } from '../../src/isa/types.js';

export const EF_AMDGPU_MACH: Record<Target, number> = { gfx1010: 0x033, gfx1013: 0x042, gfx1030: 0x036 };

/** `type`: STT_NOTYPE (0, the default) or STT_FUNC (2). */
export interface ElfSymbol { readonly name: string; readonly offset: number; readonly size: number; readonly type?: number }

export function writeElf(target: Target, text: Uint8Array, symbols: readonly ElfSymbol[]): Uint8Array {
  const shstr = Buffer.from('\0.text\0.symtab\0.strtab\0.shstrtab\0', 'latin1');
  const nameOff = { text: 1, symtab: 7, strtab: 15, shstrtab: 23 };
  const strParts: string[] = ['\0'];
  const symNameOff: number[] = [];
  let strLen = 1;
  for (const s of symbols) {
    symNameOff.push(strLen);
    strParts.push(s.name + '\0');
    strLen += s.name.length + 1;
  }
  const strtab = Buffer.from(strParts.join(''), 'latin1');
  const symCount = symbols.length + 2; // null + section symbol + cases
  const symtab = Buffer.alloc(symCount * 24);
  // section symbol for .text (index 1)
  symtab.writeUInt8(3, 24 + 4); // STB_LOCAL, STT_SECTION
  symtab.writeUInt16LE(1, 24 + 6);
  symbols.forEach((s, i) => {
    const o = (i + 2) * 24;
    symtab.writeUInt32LE(symNameOff[i] ?? 0, o);
    symtab.writeUInt8(s.type ?? 0, o + 4); // STB_LOCAL, STT_NOTYPE or STT_FUNC
    symtab.writeUInt16LE(1, o + 6);
    symtab.writeBigUInt64LE(BigInt(s.offset), o + 8);
    symtab.writeBigUInt64LE(BigInt(s.size), o + 16);
  });
  const align = (n: number, a: number) => (n + a - 1) & ~(a - 1);
  const textOff = 64;
  const symOff = align(textOff + text.length, 8);
  const strOff = symOff + symtab.length;
  const shstrOff = strOff + strtab.length;
  const shOff = align(shstrOff + shstr.length, 8);
  const total = shOff + 5 * 64;
  const out = Buffer.alloc(total);
  out.set([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 64, 3], 0); // ELFCLASS64, LSB, v1, OSABI AMDGPU_HSA, ABI v5
  out.writeUInt16LE(1, 16); // ET_REL
  out.writeUInt16LE(224, 18); // EM_AMDGPU
  out.writeUInt32LE(1, 20);
  out.writeUInt32LE(EF_AMDGPU_MACH[target], 48);
  out.writeUInt16LE(64, 52);
  out.writeUInt16LE(64, 58);
  out.writeUInt16LE(5, 60);
  out.writeUInt16LE(4, 62);
  out.writeBigUInt64LE(BigInt(shOff), 40);
  out.set(text, textOff);
  out.set(symtab, symOff);
  out.set(strtab, strOff);
  out.set(shstr, shstrOff);
  const sh = (i: number, name: number, type: number, flags: number, off: number, size: number, link: number, info: number, al: number, entsize: number) => {
    const o = shOff + i * 64;
    out.writeUInt32LE(name, o);
    out.writeUInt32LE(type, o + 4);
    out.writeBigUInt64LE(BigInt(flags), o + 8);
    out.writeBigUInt64LE(BigInt(off), o + 24);
    out.writeBigUInt64LE(BigInt(size), o + 32);
    out.writeUInt32LE(link, o + 40);
    out.writeUInt32LE(info, o + 44);
    out.writeBigUInt64LE(BigInt(al), o + 48);
    out.writeBigUInt64LE(BigInt(entsize), o + 56);
  };
  sh(1, nameOff.text, 1, 0x6, textOff, text.length, 0, 0, 4, 0);
  sh(2, nameOff.symtab, 2, 0, symOff, symtab.length, 3, symCount, 8, 24);
  sh(3, nameOff.strtab, 3, 0, strOff, strtab.length, 0, 0, 1, 0);
  sh(4, nameOff.shstrtab, 3, 0, shstrOff, shstr.length, 0, 0, 1, 0);
  return new Uint8Array(out.buffer, out.byteOffset, out.length);
}

export function wordsToBytes(words: readonly number[]): Uint8Array {
  const b = Buffer.alloc(words.length * 4);
  words.forEach((w, i) => b.writeUInt32LE(w >>> 0, i * 4));
  return new Uint8Array(b.buffer, b.byteOffset, b.length);
}
