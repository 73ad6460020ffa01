// Memory a dispatch sees: global memory as a set of byte regions at 64-bit addresses (buffers,
// the kernarg segment, the dispatch packet), bounds-checked on every access; LDS per workgroup;
// scratch per lane. An access outside every region stops the run with the address.
import { InterpError } from './errors.js';

export interface Region {
  readonly name: string;
  /** Address of byte 0 (below 2^53). */
  readonly base: number;
  readonly bytes: Uint8Array;
  readonly view: DataView;
}

/** Regions are placed this far apart, so that running off one region never lands in the next. */
const REGION_ALIGN = 2 ** 32;
const FIRST_BASE = 2 ** 32;

export class GlobalMemory {
  private readonly regions: Region[] = [];
  private last: Region | undefined;
  /** A code object's image at its own addresses (below FIRST_BASE, where no mapped region lies). */
  private fixed: Region | undefined;

  /** Adds a region of `bytes` (kept by reference: writes land in it) and returns its address. */
  map(name: string, bytes: Uint8Array): number {
    if (bytes.length >= REGION_ALIGN) throw new InterpError(`${name}: ${bytes.length} bytes is more than one region holds`);
    const base = FIRST_BASE + this.regions.length * REGION_ALIGN;
    const r: Region = { name, base, bytes, view: new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength) };
    this.regions.push(r);
    return base;
  }

  /**
   * Places a code object's image (src/container/shader.ts CodeImage) at its own addresses, once per
   * memory: the code reaches its data at the addresses s_getpc_b64 gives. Its bytes are a copy.
   * False when the memory already holds another image (a second code object's data stays unmapped).
   */
  mapImage(name: string, base: number, bytes: Uint8Array): boolean {
    const f = this.fixed;
    if (f) return f.base === base && f.bytes.length === bytes.length;
    if (base < 0 || base + bytes.length > FIRST_BASE) return false;
    const copy = bytes.slice();
    this.fixed = { name, base, bytes: copy, view: new DataView(copy.buffer) };
    return true;
  }

  /** The region holding [addr, addr + size), or an InterpError naming the address. */
  region(addr: number, size: number, what: string): Region {
    const l = this.last;
    if (l && addr >= l.base && addr + size <= l.base + l.bytes.length) return l;
    const f = this.fixed;
    if (f && addr >= f.base && addr + size <= f.base + f.bytes.length) { this.last = f; return f; }
    const i = Math.floor((addr - FIRST_BASE) / REGION_ALIGN);
    const r = this.regions[i];
    if (!r || addr < r.base || addr + size > r.base + r.bytes.length) {
      const near = r ? ` (${r.name} is ${r.bytes.length} bytes at 0x${r.base.toString(16)})` : '';
      throw new InterpError(`${what} of ${size} bytes at 0x${addr.toString(16)} is outside every buffer${near}`);
    }
    this.last = r;
    return r;
  }

  read32(addr: number): number {
    const r = this.region(addr, 4, 'load');
    return r.view.getUint32(addr - r.base, true);
  }

  write32(addr: number, v: number): void {
    const r = this.region(addr, 4, 'store');
    r.view.setUint32(addr - r.base, v >>> 0, true);
  }

  read(addr: number, size: 1 | 2 | 4): number {
    const r = this.region(addr, size, 'load');
    const o = addr - r.base;
    return size === 4 ? r.view.getUint32(o, true) : size === 2 ? r.view.getUint16(o, true) : r.view.getUint8(o);
  }

  write(addr: number, size: 1 | 2 | 4, v: number): void {
    const r = this.region(addr, size, 'store');
    const o = addr - r.base;
    if (size === 4) r.view.setUint32(o, v >>> 0, true);
    else if (size === 2) r.view.setUint16(o, v & 0xffff, true);
    else r.view.setUint8(o, v & 0xff);
  }
}

/** A 64-bit address from two dwords, checked to be a safe integer. */
export function address(lo: number, hi: number, offset = 0): number {
  const a = (hi >>> 0) * 2 ** 32 + (lo >>> 0) + offset;
  if (!Number.isSafeInteger(a) || a < 0) throw new InterpError(`address 0x${(hi >>> 0).toString(16)}${(lo >>> 0).toString(16).padStart(8, '0')} + ${offset} is outside the address space`);
  return a;
}
