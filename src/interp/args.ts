// ARGS.json: the dispatch a user asks for. `{"kernel", "grid": [x,y,z], "block": [x,y,z],
// "args": [...]}`, one entry per explicit kernel argument in metadata order:
//   buffers:   {"buffer": T, "data": [numbers]} | {"buffer": T, "base64": "..."} | {"buffer": T, "size": BYTES}
//   by value:  {"f32": 2.5} {"u32": 7} {"i32": -1} {"f64": 0.1} {"u64": "123"} (64-bit values as strings)
// with T one of f32 f64 f16 u32 i32 u16 i16 u8 i8 u64 i64. Every mistake is an ArgsError naming
// the argument; nothing is guessed.
import type { Shader } from '../container/shader.js';
import type { KernelArg } from '../container/metadata.js';
import { decodeBase64 } from './base64.js';
import type { Dim3 } from './dispatch.js';
import { GlobalMemory } from './memory.js';

export class ArgsError extends Error {
  override readonly name = 'ArgsError';
}

export const ELEMENT_TYPES = ['f32', 'f64', 'f16', 'u32', 'i32', 'u16', 'i16', 'u8', 'i8', 'u64', 'i64'] as const;
export type ElementType = (typeof ELEMENT_TYPES)[number];
const ELEMENT_SIZE: Record<ElementType, number> = { f32: 4, f64: 8, f16: 2, u32: 4, i32: 4, u16: 2, i16: 2, u8: 1, i8: 1, u64: 8, i64: 8 };
const MAX_BUFFER = 1 << 30;
const MAX_LANES_TOTAL = 2 ** 31;

export interface BufferArg {
  readonly arg: number;
  readonly name?: string;
  readonly type: ElementType;
  readonly bytes: Uint8Array;
  /** Address in the interpreter's memory. */
  readonly address: number;
  /** Where the kernarg segment holds the buffer's pointer. */
  readonly offset: number;
}

export interface PreparedDispatch {
  readonly kernel?: string;
  readonly grid: Dim3;
  readonly block: Dim3;
  readonly kernarg: Uint8Array;
  readonly mem: GlobalMemory;
  readonly buffers: readonly BufferArg[];
}

/** f16 bits of a number, rounded to nearest even (for buffer data given as numbers). */
export function f16Bits(x: number): number {
  const f = new Float32Array([x]);
  const u = new Uint32Array(f.buffer)[0] ?? 0;
  const sign = (u >>> 16) & 0x8000;
  const exp = (u >>> 23) & 0xff;
  let mant = u & 0x7fffff;
  if (exp === 0xff) return sign | 0x7c00 | (mant ? 0x200 | (mant >>> 13) : 0);
  // Work from the double for exact rounding: x = m * 2^e.
  const a = Math.abs(x);
  if (a === 0) return sign;
  if (a >= 65520) return sign | 0x7c00;
  if (a < 2 ** -14) {
    // Subnormal: units of 2^-24.
    const q = a / 2 ** -24;
    let r = Math.floor(q);
    const frac = q - r;
    if (frac > 0.5 || (frac === 0.5 && (r & 1))) r++;
    return sign | r;
  }
  let e = Math.floor(Math.log2(a));
  if (2 ** e > a) e--;
  if (2 ** (e + 1) <= a) e++;
  const q = a / 2 ** (e - 10);
  let r = Math.floor(q);
  const frac = q - r;
  if (frac > 0.5 || (frac === 0.5 && (r & 1))) r++;
  if (r === 2048) { r = 1024; e++; }
  if (e + 15 >= 31) return sign | 0x7c00;
  mant = r - 1024;
  return sign | ((e + 15) << 10) | mant;
}

function dim3(v: unknown, what: string): Dim3 {
  if (!Array.isArray(v) || v.length < 1 || v.length > 3 || !v.every((x) => Number.isInteger(x) && x >= 1 && x <= 2 ** 31 - 1)) {
    throw new ArgsError(`"${what}" must be a list of 1 to 3 positive integers`);
  }
  return [v[0] as number, (v[1] ?? 1) as number, (v[2] ?? 1) as number];
}

function writeElements(type: ElementType, data: unknown[], where: string): Uint8Array {
  const size = ELEMENT_SIZE[type];
  if (data.length * size > MAX_BUFFER) throw new ArgsError(`${where}: ${data.length} elements is more than ${MAX_BUFFER} bytes`);
  const out = new Uint8Array(data.length * size);
  const v = new DataView(out.buffer);
  data.forEach((x, k) => {
    const bad = () => new ArgsError(`${where}: element ${k} (${JSON.stringify(x)}) is not a ${type}`);
    if (type === 'u64' || type === 'i64') {
      let n: bigint;
      try { n = BigInt(typeof x === 'number' && Number.isSafeInteger(x) ? x : typeof x === 'string' ? x : NaN as unknown as string); } catch { throw bad(); }
      if (type === 'u64' ? n < 0n || n >= 1n << 64n : n < -(1n << 63n) || n >= 1n << 63n) throw bad();
      v.setBigUint64(k * 8, BigInt.asUintN(64, n), true);
      return;
    }
    if (typeof x !== 'number') throw bad();
    switch (type) {
      case 'f32': v.setFloat32(k * 4, x, true); break;
      case 'f64': v.setFloat64(k * 8, x, true); break;
      case 'f16': v.setUint16(k * 2, f16Bits(x), true); break;
      default: {
        const [lo, hi] = { u32: [0, 2 ** 32 - 1], i32: [-(2 ** 31), 2 ** 31 - 1], u16: [0, 65535], i16: [-32768, 32767], u8: [0, 255], i8: [-128, 127] }[type];
        if (!Number.isInteger(x) || x < (lo ?? 0) || x > (hi ?? 0)) throw bad();
        if (size === 4) v.setUint32(k * 4, x >>> 0, true); else if (size === 2) v.setUint16(k * 2, x & 0xffff, true); else v.setUint8(k, x & 0xff);
      }
    }
  });
  return out;
}

function scalarBytes(a: Record<string, unknown>, meta: KernelArg, where: string): Uint8Array {
  const keys = Object.keys(a);
  if (keys.length !== 1) throw new ArgsError(`${where}: a by-value argument is one {"type": value} pair, e.g. {"u32": 7}`);
  const t = keys[0] as string;
  if (!(ELEMENT_TYPES as readonly string[]).includes(t)) throw new ArgsError(`${where}: unknown value type "${t}" (one of ${ELEMENT_TYPES.join(', ')})`);
  const type = t as ElementType;
  if (ELEMENT_SIZE[type] !== meta.size) throw new ArgsError(`${where}: the kernel's argument is ${meta.size} bytes${meta.typeName ? ` (${meta.typeName})` : ''}; a ${type} is ${ELEMENT_SIZE[type]}`);
  return writeElements(type, [a[t]], where);
}

/** Reads an ARGS document against the kernel's metadata: the kernarg bytes and the buffers, mapped into fresh memory. */
export function prepareDispatch(doc: unknown, shader: Shader): PreparedDispatch {
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) throw new ArgsError('the arguments document must be a JSON object');
  const o = doc as Record<string, unknown>;
  for (const k of Object.keys(o)) if (!['kernel', 'grid', 'block', 'args'].includes(k)) throw new ArgsError(`unknown field "${k}" (fields: kernel, grid, block, args)`);
  const grid = dim3(o.grid, 'grid');
  const block = dim3(o.block, 'block');
  if (grid[0] * grid[1] * grid[2] > MAX_LANES_TOTAL) throw new ArgsError('"grid" has more than 2^31 work-items');
  const info = shader.info;
  if (o.kernel !== undefined && o.kernel !== info.name) throw new ArgsError(`"kernel" is "${String(o.kernel)}", but the shader is ${info.name}`);
  const metaArgs = info.args;
  if (!metaArgs) throw new ArgsError(`kernel ${info.name} has no argument metadata (NT_AMDGPU_METADATA): its arguments cannot be laid out`);
  const explicit = metaArgs.filter((a) => !a.valueKind.startsWith('hidden_'));
  const given = o.args ?? [];
  if (!Array.isArray(given)) throw new ArgsError('"args" must be a list');
  if (given.length !== explicit.length) throw new ArgsError(`kernel ${info.name} takes ${explicit.length} argument${explicit.length === 1 ? '' : 's'}${explicit.length ? ` (${explicit.map((a) => a.typeName ?? a.valueKind).join(', ')})` : ''}; "args" has ${given.length}`);
  const kernarg = new Uint8Array(Math.max(info.kernargSize, ...explicit.map((a) => a.offset + a.size), 0));
  const kv = new DataView(kernarg.buffer);
  const mem = new GlobalMemory();
  const buffers: BufferArg[] = [];
  explicit.forEach((meta, k) => {
    const where = `argument ${k}${meta.name ? ` (${meta.name})` : ''}`;
    const a = given[k] as unknown;
    if (typeof a !== 'object' || a === null || Array.isArray(a)) throw new ArgsError(`${where}: must be an object`);
    const ar = a as Record<string, unknown>;
    if (meta.valueKind === 'global_buffer') {
      if (!('buffer' in ar)) throw new ArgsError(`${where}: the kernel takes a global buffer${meta.typeName ? ` (${meta.typeName})` : ''}: give {"buffer": T, "data" | "base64" | "size": ...}`);
      const t = ar.buffer;
      if (typeof t !== 'string' || !(ELEMENT_TYPES as readonly string[]).includes(t)) throw new ArgsError(`${where}: "buffer" must be one of ${ELEMENT_TYPES.join(', ')}`);
      const type = t as ElementType;
      const forms = ['data', 'base64', 'size'].filter((f) => f in ar);
      for (const f of Object.keys(ar)) if (f !== 'buffer' && !['data', 'base64', 'size'].includes(f)) throw new ArgsError(`${where}: unknown field "${f}"`);
      if (forms.length !== 1) throw new ArgsError(`${where}: give exactly one of "data", "base64", "size"`);
      let bytes: Uint8Array;
      if ('data' in ar) {
        if (!Array.isArray(ar.data)) throw new ArgsError(`${where}: "data" must be a list of numbers`);
        bytes = writeElements(type, ar.data, where);
      } else if ('base64' in ar) {
        const b = typeof ar.base64 === 'string' ? decodeBase64(ar.base64) : undefined;
        if (!b) throw new ArgsError(`${where}: "base64" is not base64 text`);
        if (b.length > MAX_BUFFER) throw new ArgsError(`${where}: more than ${MAX_BUFFER} bytes`);
        bytes = b;
      } else {
        const n = ar.size;
        if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || n > MAX_BUFFER) throw new ArgsError(`${where}: "size" must be a byte count from 0 to ${MAX_BUFFER}`);
        bytes = new Uint8Array(n);
      }
      const address = mem.map(where, bytes);
      if (meta.size !== 8) throw new ArgsError(`${where}: a global pointer of ${meta.size} bytes is not supported`);
      kv.setBigUint64(meta.offset, BigInt(address), true);
      buffers.push({ arg: k, ...(meta.name ? { name: meta.name } : {}), type, bytes, address, offset: meta.offset });
    } else if (meta.valueKind === 'by_value') {
      kernarg.set(scalarBytes(ar, meta, where), meta.offset);
    } else {
      throw new ArgsError(`${where}: arguments of kind ${meta.valueKind} are not supported yet`);
    }
  });
  return { ...(typeof o.kernel === 'string' ? { kernel: o.kernel } : {}), grid, block, kernarg, mem, buffers };
}
