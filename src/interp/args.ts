// ARGS.json: the dispatches a user asks for, read against the kernels' metadata. One parser for
// both engines (`rdna run --engine interp` and `--engine vulkan`): it yields the buffers and, per
// dispatch, the explicit kernarg bytes (values, __local offsets), the kernarg slots that take a
// buffer's address (each engine has its own addresses) and the group segment size. Two forms:
//
//   one dispatch: {"kernel"?, "grid": [x,y,z], "block": [x,y,z], "args": ARGS}
//   a sequence:   {"buffers": {"NAME": BUFFER, ...}, "dispatches": [ITEM, ...]}
//     ITEM = {"kernel"?, "grid", "block", "args": ARGS} | {"repeat": N, "index"?: "k", "start"?: S, "step"?: D, "dispatches": [ITEM, ...]}
//
// ARGS is a list in metadata order, or an object keyed by the metadata's argument names (code
// built with -cl-kernel-arg-info). One entry per explicit argument, by the metadata's kind:
//   global_buffer:          BUFFER = {"buffer": T, "data": [numbers]} | {"buffer": T, "base64": "..."} | {"buffer": T, "size": BYTES}
//                           (one dispatch), {"ref": "NAME"} (a sequence: a buffer of "buffers")
//   by_value:               {"u32": 7} {"f32": 2.5} {"u64": "123"} (64-bit values as strings or safe integers),
//                           {"f32x4": [a, b, c, d]} (T x 2|3|4|8|16; a 3-vector takes the size of a 4-vector, as OpenCL lays it out),
//                           {"bytes": "<base64>"} (any size: structs), {"u32": {"index": "k", "add"?: A}} (a loop's counter + A)
//   dynamic_shared_pointer: {"local": BYTES} (a __local pointer: the LDS is laid out by dispatch.ts's layoutLds)
// with T one of f32 f64 f16 u32 i32 u16 i16 u8 i8 u64 i64. A loop runs its items N times with
// the counter at S, S + D, ... (S = 0, D = 1 by default); a sequence's output is every named
// buffer after the last dispatch. Every mistake is an ArgsError naming the place and the argument;
// nothing is guessed.
import type { Shader } from '../container/shader.js';
import type { KernelArg } from '../container/metadata.js';
import { decodeBase64 } from './base64.js';
import { launchRefusal, layoutLds, type Dim3, type LocalArg, type ScratchRing } from './dispatch.js';
import { MAX_SCRATCH_RING, scratchRingBytes, usesScratchRing } from './scratch.js';
import { privateSegmentVsharp } from '../isa/apertures.js';
import type { ShaderInfo } from '../container/shader-info.js';
import { InterpError } from './errors.js';
import { GlobalMemory } from './memory.js';

export class ArgsError extends Error {
  override readonly name = 'ArgsError';
}

export const ELEMENT_TYPES = ['f32', 'f64', 'f16', 'u32', 'i32', 'u16', 'i16', 'u8', 'i8', 'u64', 'i64'] as const;
export type ElementType = (typeof ELEMENT_TYPES)[number];
export const ELEMENT_SIZE: Readonly<Record<ElementType, number>> = { f32: 4, f64: 8, f16: 2, u32: 4, i32: 4, u16: 2, i16: 2, u8: 1, i8: 1, u64: 8, i64: 8 };
const INTEGER_TYPES: readonly ElementType[] = ['u32', 'i32', 'u16', 'i16', 'u8', 'i8', 'u64', 'i64'];
const VECTOR_LENGTHS = [2, 3, 4, 8, 16] as const;
const MAX_BUFFER = 1 << 30;
const MAX_LANES_TOTAL = 2 ** 31;
/** The most dispatches one document may ask for (loops multiplied out). */
export const MAX_DISPATCHES = 1 << 24;

/** A buffer of the document: an inline buffer argument (one dispatch) or an entry of "buffers" (a sequence). */
export interface PlanBuffer {
  /** How messages name it: `argument 0 (a)` or `buffer "A"`. */
  readonly label: string;
  readonly type: ElementType;
  /** Its bytes: the initial contents, and what the engine leaves there after the run. */
  readonly bytes: Uint8Array;
  /** One dispatch: the argument's position. */
  readonly arg?: number;
  /** One dispatch: the metadata's argument name; a sequence: the key in "buffers". */
  readonly name?: string;
  /** A user-data table (raw shaders): the engines' own bytes and addresses, not a result. */
  readonly table?: boolean;
}

/**
 * How an address is written into a slot besides the plain 8 bytes: 'bits48', the low 48 bits of the
 * 8 (a buffer resource's base address; its dword 1 keeps bits 63:48, the stride and swizzle);
 * 'tsharp', an image resource's base address: bits 39:8 as the dword at the offset, bits 47:40 as
 * the next byte (the T#'s BASE_ADDRESS, BASE_ADDRESS_HI), the address 256-byte aligned.
 */
export type AddressLayout = 'bits48' | 'tsharp';

/** A kernarg slot holding the address of plan buffer `buffer` (8 bytes, or as `layout` says). */
export interface BufferSlot {
  readonly offset: number;
  readonly buffer: number;
  readonly layout?: AddressLayout;
  /** The slot is in plan buffer `into` (a user-data table), not in the kernarg bytes. */
  readonly into?: number;
}

/** Writes a buffer's address into its slot (BufferSlot: 8 bytes, or as its layout says). */
export function putAddress(v: DataView, s: { readonly offset: number; readonly layout?: AddressLayout }, address: number): void {
  if (!s.layout) { v.setBigUint64(s.offset, BigInt(address), true); return; }
  if (!Number.isSafeInteger(address) || address < 0 || address >= 2 ** 48) throw new InterpError(`a resource's base address is 48 bits; 0x${address.toString(16)} is not`);
  if (s.layout === 'tsharp') {
    if (address % 256 !== 0) throw new InterpError(`an image resource's base address is 256-byte aligned; 0x${address.toString(16)} is not`);
    v.setUint32(s.offset, (address / 256) % 2 ** 32, true);
    v.setUint8(s.offset + 4, Math.floor(address / 2 ** 40) & 0xff);
    return;
  }
  v.setUint32(s.offset, address % 2 ** 32, true);
  v.setUint16(s.offset + 4, Math.floor(address / 2 ** 32), true);
}

/** A kernarg slot holding a loop counter (of loop `depth`, outermost 0) plus `add`. */
export interface IndexSlot { readonly offset: number; readonly type: ElementType; readonly depth: number; readonly add: number }

/** One dispatch as the document writes it: fixed bytes, plus the slots a run fills. */
export interface DispatchTemplate {
  readonly shader: Shader;
  readonly grid: Dim3;
  readonly block: Dim3;
  /** The explicit arguments' bytes: values and __local offsets in place, address and index slots zero. */
  readonly kernarg: Uint8Array;
  readonly bufferSlots: readonly BufferSlot[];
  readonly indexSlots: readonly IndexSlot[];
  /** Static LDS plus the __local arguments (the dispatch packet's group_segment_size). */
  readonly groupSegmentSize: number;
  /** Where it is in the document (`dispatches[1].dispatches[0]`), for messages. */
  readonly where: string;
}

export type PlanItem =
  | { readonly dispatch: DispatchTemplate }
  | { readonly repeat: number; readonly start: number; readonly step: number; readonly index?: string; readonly items: readonly PlanItem[] };

export interface ArgsPlan {
  /** The document was a sequence ("dispatches"); else one dispatch with inline buffers. */
  readonly sequence: boolean;
  readonly buffers: readonly PlanBuffer[];
  readonly items: readonly PlanItem[];
  /** Dispatches in all, loops multiplied out. */
  readonly dispatches: number;
  /** The kernels the document dispatches, each once, in order of first use. */
  readonly kernels: readonly Shader[];
  /**
   * The buffer that is the plan's scratch ring (a table buffer: not a result), where a raw shader
   * with scratch is dispatched: sized for the plan's largest such dispatch (src/interp/scratch.ts).
   */
  readonly scratchRing?: number;
}

/** One dispatch to run: its template and the kernarg bytes with the loop counters in place. */
export interface PlanStep {
  readonly template: DispatchTemplate;
  readonly kernarg: Uint8Array;
  /** 0-based position in the whole run. */
  readonly ordinal: number;
  /** The enclosing loops' counters, outermost first, with their names (for messages). */
  readonly counters: readonly { readonly name?: string; readonly value: number }[];
}

/** `dispatch 7 of 62 (lu_sub, k = 3)`: where a run-time error happened. */
export function describeStep(plan: ArgsPlan, s: PlanStep): string {
  const named = s.counters.filter((c) => c.name !== undefined).map((c) => `${c.name} = ${c.value}`);
  return `dispatch ${s.ordinal + 1} of ${plan.dispatches} (${s.template.where}: ${[s.template.shader.info.name, ...named].join(', ')})`;
}

/** The plan's dispatches in order, loops expanded lazily. The kernarg of a step without index slots is the template's own (do not write into it). */
export function* planSteps(plan: ArgsPlan): Generator<PlanStep> {
  let ordinal = 0;
  const counters: { name?: string; value: number }[] = [];
  function* walk(items: readonly PlanItem[]): Generator<PlanStep> {
    for (const it of items) {
      if ('dispatch' in it) {
        const t = it.dispatch;
        let kernarg = t.kernarg;
        if (t.indexSlots.length) {
          kernarg = t.kernarg.slice();
          const v = new DataView(kernarg.buffer);
          for (const s of t.indexSlots) writeInteger(v, s.offset, s.type, BigInt((counters[s.depth]?.value ?? 0) + s.add));
        }
        yield { template: t, kernarg, ordinal: ordinal++, counters: counters.map((c) => ({ ...c })) };
        continue;
      }
      counters.push({ ...(it.index !== undefined ? { name: it.index } : {}), value: it.start });
      const c = counters[counters.length - 1] as { value: number };
      for (let k = 0; k < it.repeat; k++) {
        c.value = it.start + k * it.step;
        yield* walk(it.items);
      }
      counters.pop();
    }
  }
  yield* walk(plan.items);
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

const INT_RANGE: Readonly<Record<string, readonly [bigint, bigint]>> = {
  u8: [0n, 255n], i8: [-128n, 127n], u16: [0n, 65535n], i16: [-32768n, 32767n], u32: [0n, 2n ** 32n - 1n], i32: [-(2n ** 31n), 2n ** 31n - 1n],
  u64: [0n, 2n ** 64n - 1n], i64: [-(2n ** 63n), 2n ** 63n - 1n],
};

function inRange(type: ElementType, n: bigint): boolean {
  const r = INT_RANGE[type];
  return r !== undefined && n >= r[0] && n <= r[1];
}

function writeInteger(v: DataView, offset: number, type: ElementType, n: bigint): void {
  const size = ELEMENT_SIZE[type];
  const u = BigInt.asUintN(size * 8, n);
  if (size === 8) v.setBigUint64(offset, u, true);
  else if (size === 4) v.setUint32(offset, Number(u), true);
  else if (size === 2) v.setUint16(offset, Number(u), true);
  else v.setUint8(offset, Number(u));
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
    if (type === 'f32' || type === 'f64' || type === 'f16') {
      if (typeof x !== 'number') throw bad();
      if (type === 'f32') v.setFloat32(k * 4, x, true);
      else if (type === 'f64') v.setFloat64(k * 8, x, true);
      else v.setUint16(k * 2, f16Bits(x), true);
      return;
    }
    let n: bigint;
    if (typeof x === 'number' && Number.isSafeInteger(x)) n = BigInt(x);
    else if (size === 8 && typeof x === 'string') {
      try { n = BigInt(x); } catch { throw bad(); }
    } else throw bad();
    if (!inRange(type, n)) throw bad();
    writeInteger(v, k * size, type, n);
  });
  return out;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const plural = (n: number, w: string) => `${n} ${w}${n === 1 ? '' : 's'}`;
const typeNote = (meta: KernelArg) => (meta.typeName ? ` (${meta.typeName})` : '');

/** A buffer's initial bytes from {"buffer": T, "data" | "base64" | "size": ...}. */
function bufferInit(ar: Record<string, unknown>, where: string): { type: ElementType; bytes: Uint8Array } {
  const t = ar.buffer;
  if (typeof t !== 'string' || !(ELEMENT_TYPES as readonly string[]).includes(t)) throw new ArgsError(`${where}: "buffer" must be one of ${ELEMENT_TYPES.join(', ')}`);
  const type = t as ElementType;
  for (const f of Object.keys(ar)) if (f !== 'buffer' && !['data', 'base64', 'size'].includes(f)) throw new ArgsError(`${where}: unknown field "${f}"`);
  const forms = ['data', 'base64', 'size'].filter((f) => f in ar);
  if (forms.length !== 1) throw new ArgsError(`${where}: give exactly one of "data", "base64", "size"`);
  if ('data' in ar) {
    if (!Array.isArray(ar.data)) throw new ArgsError(`${where}: "data" must be a list of numbers`);
    return { type, bytes: writeElements(type, ar.data, where) };
  }
  if ('base64' in ar) {
    const b = typeof ar.base64 === 'string' ? decodeBase64(ar.base64) : undefined;
    if (!b) throw new ArgsError(`${where}: "base64" is not base64 text`);
    if (b.length > MAX_BUFFER) throw new ArgsError(`${where}: more than ${MAX_BUFFER} bytes`);
    return { type, bytes: b };
  }
  const n = ar.size;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || n > MAX_BUFFER) throw new ArgsError(`${where}: "size" must be a byte count from 0 to ${MAX_BUFFER}`);
  return { type, bytes: new Uint8Array(n) };
}

/** What a by-value argument entry gives: fixed bytes, or a loop counter. */
type Value = { readonly bytes: Uint8Array } | { readonly index: { readonly type: ElementType; readonly depth: number; readonly add: number } };

/** Loop counters in scope, outermost first, with the range each takes (for the range checks). */
interface Scope { readonly name: string | undefined; readonly min: number; readonly max: number }

/** A value entry's key: an element type T, or a vector TxN (N one of VECTOR_LENGTHS). */
function valueKey(key: string, where: string): { type: ElementType; n: number; vector: boolean } {
  const vec = /^([a-z]\d+)x(\d+)$/.exec(key);
  if (vec) {
    const t = vec[1] as string, n = Number(vec[2]);
    if (!(ELEMENT_TYPES as readonly string[]).includes(t) || !(VECTOR_LENGTHS as readonly number[]).includes(n)) throw new ArgsError(`${where}: unknown value type "${key}" (vectors are TxN with T one of ${ELEMENT_TYPES.join(', ')} and N one of ${VECTOR_LENGTHS.join(', ')})`);
    return { type: t as ElementType, n, vector: true };
  }
  if (!(ELEMENT_TYPES as readonly string[]).includes(key)) throw new ArgsError(`${where}: unknown value type "${key}" (one of ${ELEMENT_TYPES.join(', ')}, a vector such as f32x4, or "bytes")`);
  return { type: key as ElementType, n: 1, vector: false };
}

function byValue(ar: Record<string, unknown>, meta: KernelArg, where: string, scope: readonly Scope[]): Value {
  const keys = Object.keys(ar);
  const takes = `the kernel's argument is ${meta.size} bytes${typeNote(meta)}`;
  if ('buffer' in ar || 'ref' in ar) throw new ArgsError(`${where}: the kernel takes a ${meta.size}-byte value${typeNote(meta)}, not a buffer`);
  if ('local' in ar) throw new ArgsError(`${where}: the kernel takes a ${meta.size}-byte value${typeNote(meta)}, not a __local pointer`);
  if (keys.length !== 1) throw new ArgsError(`${where}: a by-value argument is one {"type": value} pair, e.g. {"u32": 7}, {"f32x4": [1, 2, 3, 4]} or {"bytes": "<base64>"}`);
  const key = keys[0] as string;
  const val = ar[key];
  if (key === 'bytes') {
    const b = typeof val === 'string' ? decodeBase64(val) : undefined;
    if (!b) throw new ArgsError(`${where}: "bytes" is not base64 text`);
    if (b.length !== meta.size) throw new ArgsError(`${where}: ${takes}; "bytes" has ${b.length}`);
    return { bytes: b };
  }
  const { type, n, vector } = valueKey(key, where);
  if (vector) {
    const size = ELEMENT_SIZE[type] * (n === 3 ? 4 : n);
    if (size !== meta.size) throw new ArgsError(`${where}: ${takes}; a ${key} is ${size}`);
    if (!Array.isArray(val) || val.length !== n) throw new ArgsError(`${where}: "${key}" must be a list of ${n} ${type} values`);
    const out = new Uint8Array(size);
    out.set(writeElements(type, val, where));
    return { bytes: out };
  }
  if (ELEMENT_SIZE[type] !== meta.size) throw new ArgsError(`${where}: ${takes}; a ${type} is ${ELEMENT_SIZE[type]}`);
  if (isObject(val)) {
    for (const f of Object.keys(val)) if (f !== 'index' && f !== 'add') throw new ArgsError(`${where}: unknown field "${f}" (a counter is {"index": NAME, "add"?: INTEGER})`);
    if (!INTEGER_TYPES.includes(type)) throw new ArgsError(`${where}: a loop counter is an integer type, not ${type}`);
    const depth = scope.findIndex((s) => s.name !== undefined && s.name === val.index);
    const names = scope.flatMap((s) => (s.name !== undefined ? [`"${s.name}"`] : []));
    if (typeof val.index !== 'string' || depth < 0) throw new ArgsError(`${where}: "index" must name an enclosing loop's counter (${names.length ? names.join(', ') : 'there is no loop with an "index" around this dispatch'})`);
    const add = val.add ?? 0;
    if (typeof add !== 'number' || !Number.isSafeInteger(add)) throw new ArgsError(`${where}: "add" must be an integer`);
    const s = scope[depth] as Scope;
    for (const x of [s.min + add, s.max + add]) {
      if (!Number.isSafeInteger(x) || !inRange(type, BigInt(x))) throw new ArgsError(`${where}: counter "${s.name}" + ${add} reaches ${x}, which is not a ${type}`);
    }
    return { index: { type, depth, add } };
  }
  return { bytes: writeElements(type, [val], where) };
}

interface Context {
  readonly shaders: readonly Shader[];
  readonly sequence: boolean;
  readonly buffers: PlanBuffer[];
  /** A sequence's buffers by name. */
  readonly named: ReadonlyMap<string, number>;
  readonly kernels: Shader[];
  /** The scratch ring's buffer and the bytes its largest dispatch needs (raw shaders with scratch). */
  ring?: { readonly index: number; bytes: number };
}

/** The plan's scratch ring buffer (made at first use; sized when the whole document is read). */
function ringBuffer(cx: Context): { readonly index: number; bytes: number } {
  if (!cx.ring) {
    cx.ring = { index: cx.buffers.length, bytes: 0 };
    cx.buffers.push({ label: 'the scratch ring', type: 'u32', bytes: new Uint8Array(0), table: true });
  }
  return cx.ring;
}

function pickShader(cx: Context, o: Record<string, unknown>, where: string): Shader {
  const names = cx.shaders.map((s) => s.info.name);
  if (o.kernel === undefined) {
    if (cx.shaders.length === 1) return cx.shaders[0] as Shader;
    throw new ArgsError(`${where}: name the kernel ("kernel": one of ${names.join(', ')})`);
  }
  if (typeof o.kernel !== 'string') throw new ArgsError(`${where}: "kernel" must be a string`);
  const s = cx.shaders.find((k) => k.info.name === o.kernel);
  if (!s) {
    if (!cx.sequence && cx.shaders.length === 1) throw new ArgsError(`"kernel" is "${o.kernel}", but the shader is ${names[0]}`);
    throw new ArgsError(`${where}: no kernel named '${o.kernel}' (${names.join(', ')})`);
  }
  return s;
}

/**
 * The plan buffer an entry names: {"ref": NAME} of "buffers" in a sequence, an inline
 * {"buffer": T, ...} in one dispatch (then a new plan buffer for argument / user-data slot `k`).
 */
function bufferOf(cx: Context, a: Record<string, unknown>, where: string, takes: string, k: number, name: string | undefined): number {
  if (cx.sequence) {
    if (!('ref' in a)) throw new ArgsError(`${where}: the kernel takes ${takes}: in a sequence give {"ref": NAME} of "buffers"`);
    if (Object.keys(a).length !== 1) throw new ArgsError(`${where}: a buffer reference is {"ref": NAME} alone`);
    const hit = typeof a.ref === 'string' ? cx.named.get(a.ref) : undefined;
    if (hit === undefined) throw new ArgsError(`${where}: "ref" must name one of "buffers" (${[...cx.named.keys()].map((n) => `"${n}"`).join(', ') || 'none'})`);
    return hit;
  }
  if ('ref' in a) throw new ArgsError(`${where}: {"ref": NAME} names a buffer of "buffers", which only a sequence ("dispatches") has`);
  if (!('buffer' in a)) throw new ArgsError(`${where}: the kernel takes ${takes}: give {"buffer": T, "data" | "base64" | "size": ...}`);
  const init = bufferInit(a, where);
  cx.buffers.push({ label: `argument ${k}${name ? ` (${name})` : ''}`, ...init, arg: k, ...(name ? { name } : {}) });
  return cx.buffers.length - 1;
}

/**
 * The dword 3 of a `resource` entry's V# when "words" is left out: a raw buffer (DST_SEL x, y, z,
 * w; FORMAT 32_FLOAT (22); RESOURCE_LEVEL 1, as gfx10 asks; OOB_SELECT 3, in range below
 * NUM_RECORDS bytes), what Mesa's RADV writes for a storage buffer on gfx10.
 */
export const RAW_BUFFER_WORD3 = (4 | (5 << 3) | (6 << 6) | (7 << 9) | (22 << 12) | (1 << 24) | (3 << 28)) >>> 0;

/** A user-data item's bytes and the buffer addresses to write into them (offsets from its start). */
interface UserDataItem { readonly bytes: Uint8Array; readonly slots: readonly BufferSlot[]; readonly what: string }

/** A resource descriptor item of user data: its key, the dword counts it takes, its base address's layout. */
interface DescriptorKind {
  readonly key: 'resource' | 'image';
  readonly lengths: readonly number[];
  readonly layout: AddressLayout;
  readonly what: string;
  /** How the entry is spelt and what "words" must be, for messages. */
  readonly form: string;
  readonly wordsAre: string;
  /** Its words when "words" is left out (the buffer's size), or undefined where they are required. */
  readonly fallback?: (size: number) => number[];
}

const RESOURCE: DescriptorKind = {
  key: 'resource', lengths: [4], layout: 'bits48', what: 'a buffer resource (V#)', form: 'a resource is {"resource": BUFFER, "words"?: [w0, w1, w2, w3]}',
  wordsAre: 'the V#\'s four dwords', fallback: (size) => [0, 0, size, RAW_BUFFER_WORD3],
};
const IMAGE: DescriptorKind = {
  key: 'image', lengths: [8, 4], layout: 'tsharp', what: 'an image resource (T#)', form: 'an image is {"image": BUFFER, "words": [w0, ..., w7]}',
  wordsAre: 'the T#\'s eight dwords (four for a 128-bit T#)',
};

/** A descriptor over a buffer: the captured words (or the kind's fallback) with its base address written from the buffer's. */
function descriptorItem(cx: Context, a: Record<string, unknown>, where: string, k: number, name: string, d: DescriptorKind): UserDataItem {
  for (const f of Object.keys(a)) if (f !== d.key && f !== 'words') throw new ArgsError(`${where}: unknown field "${f}" (${d.form})`);
  const r = a[d.key];
  if (!isObject(r)) throw new ArgsError(`${where}: "${d.key}" must be a buffer: {"buffer": T, ...}, or {"ref": NAME} in a sequence`);
  const buffer = bufferOf(cx, r, `${where}: "${d.key}"`, 'a buffer', k, name);
  const w = a.words;
  const given = Array.isArray(w) && d.lengths.includes(w.length) && w.every((x) => typeof x === 'number' && Number.isInteger(x) && x >= 0 && x <= 0xffffffff);
  if (!given && (w !== undefined || !d.fallback)) throw new ArgsError(`${where}: "words" must be ${d.wordsAre}, integers from 0 to 0xffffffff`);
  const words = given ? (w as number[]) : (d.fallback as (size: number) => number[])((cx.buffers[buffer] as PlanBuffer).bytes.length);
  const bytes = new Uint8Array(4 * words.length);
  const v = new DataView(bytes.buffer);
  words.forEach((x, j) => v.setUint32(4 * j, x, true));
  return { bytes, slots: [{ offset: 0, buffer, layout: d.layout }], what: d.what };
}

/** The fields that make a user-data item (or a table entry) refer to a buffer rather than hold a value. */
const REFERS = ['buffer', 'ref', 'resource', 'image', 'table', 'scratch'] as const;

/**
 * {"scratch": "vsharp"}: the private segment buffer V# of the plan's scratch ring (4 dwords: the
 * ring's base, swizzled with the wave size as index stride, ADD_TID, num_records 0xffffffff, as
 * LLVM's scratch resource; src/isa/apertures.ts), which the wave's private segment wave offset
 * SGPR indexes; {"scratch": "base"}: the ring's 64-bit address (2 dwords), which the shader adds
 * the wave offset to for FLAT_SCRATCH. Only in a raw shader with scratch.
 */
function scratchItem(cx: Context, info: ShaderInfo, a: Record<string, unknown>, where: string): UserDataItem {
  const form = '{"scratch": "vsharp"} (the scratch ring\'s V#, 4 SGPRs) or {"scratch": "base"} (its address, 2 SGPRs)';
  if (Object.keys(a).length !== 1 || (a.scratch !== 'vsharp' && a.scratch !== 'base')) throw new ArgsError(`${where}: a scratch item is ${form}`);
  if (info.scratchSize === 0) throw new ArgsError(`${where}: shader ${info.name} has no scratch (its sidecar's scratchSize is 0), so there is no scratch ring to point at`);
  const buffer = ringBuffer(cx).index;
  if (a.scratch === 'base') return { bytes: new Uint8Array(8), slots: [{ offset: 0, buffer }], what: 'the scratch ring\'s address' };
  const v = privateSegmentVsharp(info.waveSize);
  const bytes = new Uint8Array(16), dv = new DataView(bytes.buffer);
  dv.setUint32(4, v.w1hi, true);
  dv.setUint32(8, v.w2, true);
  dv.setUint32(12, v.w3, true);
  return { bytes, slots: [{ offset: 0, buffer, layout: 'bits48' }], what: 'the scratch ring\'s V#' };
}

/** Tables nest at most this deep (a table of tables of ...). */
const MAX_TABLE_DEPTH = 8;

/**
 * A user-data item that refers to buffers: a buffer (its 8-byte address), a resource (a 16-byte
 * V#), an image (a 32- or 16-byte T#), the scratch ring (its V# or address: scratchItem) or a table
 * (the 8-byte address of a table buffer the item's entries fill: values of any size,
 * dword-aligned, and these items, in order).
 */
function userDataItem(cx: Context, info: ShaderInfo, a: Record<string, unknown>, where: string, k: number, name: string, depth = 0): UserDataItem {
  if ('scratch' in a) return scratchItem(cx, info, a, where);
  if ('buffer' in a || 'ref' in a) return { bytes: new Uint8Array(8), slots: [{ offset: 0, buffer: bufferOf(cx, a, where, 'a buffer address', k, name) }], what: 'a buffer\'s address' };
  if ('resource' in a) return descriptorItem(cx, a, where, k, name, RESOURCE);
  if ('image' in a) return descriptorItem(cx, a, where, k, name, IMAGE);
  if (!('table' in a) || Object.keys(a).length !== 1) throw new ArgsError(`${where}: a user-data item is a value, a buffer, {"resource": BUFFER, "words"?}, {"image": BUFFER, "words"}, {"scratch": "vsharp" | "base"} or {"table": [ITEM, ...]}`);
  if (depth >= MAX_TABLE_DEPTH) throw new ArgsError(`${where}: tables nest at most ${MAX_TABLE_DEPTH} deep`);
  const list = a.table;
  if (!Array.isArray(list) || list.length === 0 || list.length > 4096) throw new ArgsError(`${where}: "table" must be a list of 1 to 4096 items`);
  const parts: Uint8Array[] = [];
  const slots: BufferSlot[] = [];
  let at = 0;
  list.forEach((x, j) => {
    const here = `${where}: table[${j}]`;
    if (!isObject(x)) throw new ArgsError(`${here}: must be an object`);
    let bytes: Uint8Array;
    if (REFERS.some((f) => f in x)) {
      const item = userDataItem(cx, info, x, here, k, `${name}.table[${j}]`, depth + 1);
      // The item's own slots are at its place in this table; a nested table's, in that table.
      for (const b of item.slots) slots.push(b.into === undefined ? { ...b, offset: at + b.offset } : b);
      bytes = item.bytes;
    } else bytes = tableValue(x, here);
    parts.push(bytes);
    at += Math.ceil(bytes.length / 4) * 4;
  });
  const table = new Uint8Array(at);
  let o = 0;
  for (const p of parts) { table.set(p, o); o += Math.ceil(p.length / 4) * 4; }
  const index = cx.buffers.length;
  cx.buffers.push({ label: `the table of ${name}`, type: 'u32', bytes: table, table: true });
  return { bytes: new Uint8Array(8), slots: [{ offset: 0, buffer: index }, ...slots.map((b) => ({ ...b, into: b.into ?? index }))], what: 'a table\'s address' };
}

/** A value entry of a table: {"T": v}, {"TxN": [...]} or {"bytes": "<base64>"}, its own size. */
function tableValue(x: Record<string, unknown>, where: string): Uint8Array {
  const keys = Object.keys(x);
  if (keys.length !== 1) throw new ArgsError(`${where}: a table value is one {"type": value} pair, e.g. {"u32": 7} or {"u32x4": [...]}`);
  const key = keys[0] as string;
  const val = x[key];
  if (key === 'bytes') {
    const b = typeof val === 'string' ? decodeBase64(val) : undefined;
    if (!b) throw new ArgsError(`${where}: "bytes" is not base64 text`);
    return b;
  }
  const { type, n, vector } = valueKey(key, where);
  const items = vector ? val : [val];
  if (!Array.isArray(items) || items.length !== n) throw new ArgsError(`${where}: "${key}" must be a list of ${n} ${type} values`);
  if (items.some((v) => isObject(v))) throw new ArgsError(`${where}: a table holds fixed values (loop counters go into user-data slots)`);
  return writeElements(type, items, where);
}

/**
 * A raw compute shader's user data (its sidecar's "userSgprs" slots) from "args": a list in SGPR
 * order or an object keyed by slot name, one entry per slot:
 *   a value of the slot's size ({"u32": 7} for one SGPR, {"u64": "..."} or {"u32x2": [...]} for
 *   two, {"u32x4": [...]} or {"bytes": ...} for four, loop counters as for by-value arguments);
 *   a buffer (two SGPRs): its 64-bit address;
 *   {"resource": BUFFER, "words"?: [w0, w1, w2, w3]} (four SGPRs): a buffer resource (V#) of the
 *   buffer: "words" as captured, with the base address (bits 47:0) replaced by the buffer's;
 *   without "words" a raw buffer over all of it (NUM_RECORDS its size, stride 0, RAW_BUFFER_WORD3);
 *   {"image": BUFFER, "words": [w0, ..., w7]} (eight SGPRs, four for a 128-bit T#): an image
 *   resource (T#) over the buffer: the words as captured, BASE_ADDRESS / BASE_ADDRESS_HI replaced;
 *   {"table": [ITEM, ...]} (two SGPRs): the address of a table buffer holding the items in order,
 *   each dword-aligned: values of their own size, buffer addresses, V#s and tables' addresses.
 * SGPRs inside userSgprCount that no slot covers are 0.
 */
function parseUserData(cx: Context, info: Shader['info'], given: unknown, prefix: string, scope: readonly Scope[]): { kernarg: Uint8Array; bufferSlots: BufferSlot[]; indexSlots: IndexSlot[] } {
  const slots = [...info.userSgprs].sort((a, b) => a.first - b.first);
  const range = (u: { first: number; count: number }) => `s${u.first}${u.count > 1 ? `..s${u.first + u.count - 1}` : ''}`;
  const listing = slots.length ? ` (${slots.map((u) => `${u.kind}: ${range(u)}`).join(', ')})` : '';
  let entries: unknown[];
  if (Array.isArray(given)) {
    if (given.length !== slots.length) throw new ArgsError(`${prefix}shader ${info.name} has ${plural(slots.length, 'user-data slot')}${listing}; "args" has ${given.length}`);
    entries = given;
  } else if (isObject(given)) {
    for (const k of Object.keys(given)) if (!slots.some((u) => u.kind === k)) throw new ArgsError(`${prefix}"args" names "${k}", which is not a user-data slot of shader ${info.name}'s sidecar${listing}`);
    entries = slots.map((u) => {
      if (!(u.kind in given)) throw new ArgsError(`${prefix}user-data slot ${u.kind} is missing from "args"`);
      return given[u.kind];
    });
  } else throw new ArgsError(`${prefix}"args" must be a list in user-data order, or an object keyed by the sidecar's slot names`);
  const kernarg = new Uint8Array(4 * info.userSgprCount);
  const bufferSlots: BufferSlot[] = [];
  const indexSlots: IndexSlot[] = [];
  slots.forEach((u, k) => {
    const where = `${prefix}user-data slot ${u.kind} (${range(u)})`;
    const a = entries[k];
    const offset = 4 * u.first;
    if (!isObject(a)) throw new ArgsError(`${where}: must be an object`);
    const put = (x: UserDataItem) => {
      if (x.bytes.length !== 4 * u.count) throw new ArgsError(`${where}: ${x.what} takes ${plural(x.bytes.length / 4, 'SGPR')}, the slot has ${u.count}`);
      kernarg.set(x.bytes, offset);
      // Slots in the user data itself are at the slot's offset; those in tables at the table's own.
      for (const b of x.slots) bufferSlots.push(b.into === undefined ? { ...b, offset: offset + b.offset } : b);
    };
    if (REFERS.some((f) => f in a)) { put(userDataItem(cx, info, a, where, k, u.kind)); return; }
    const v = byValue(a, { offset, size: 4 * u.count, valueKind: 'by_value', typeName: `user data, ${plural(u.count, 'SGPR')}` }, where, scope);
    if ('bytes' in v) kernarg.set(v.bytes, offset);
    else indexSlots.push({ offset, ...v.index });
  });
  return { kernarg, bufferSlots, indexSlots };
}

/** One dispatch's fields against its kernel's metadata. */
function parseDispatch(cx: Context, o: Record<string, unknown>, at: string, scope: readonly Scope[]): DispatchTemplate {
  const prefix = at ? `${at}: ` : '';
  const fields = ['kernel', 'grid', 'block', 'args'];
  for (const k of Object.keys(o)) {
    if (fields.includes(k)) continue;
    if (!cx.sequence) throw new ArgsError(`unknown field "${k}" (fields: kernel, grid, block, args; a sequence has buffers, dispatches)`);
    throw new ArgsError(`${prefix}unknown field "${k}" (a dispatch has ${fields.join(', ')}; a loop is {"repeat": N, "index"?: NAME, "start"?, "step"?, "dispatches": [...]})`);
  }
  let grid: Dim3, block: Dim3;
  try {
    grid = dim3(o.grid, 'grid');
    block = dim3(o.block, 'block');
  } catch (e) {
    throw e instanceof ArgsError ? new ArgsError(prefix + e.message) : e;
  }
  if (grid[0] * grid[1] * grid[2] > MAX_LANES_TOTAL) throw new ArgsError(`${prefix}"grid" has more than 2^31 work-items`);
  const shader = pickShader(cx, o, at || 'the document');
  const info = shader.info;
  const why = launchRefusal(info, grid, block);
  if (why) throw new ArgsError(prefix + why);
  if (!info.descriptor) {
    if (usesScratchRing(info)) {
      const need = scratchRingBytes(info, grid, block);
      if (need > MAX_SCRATCH_RING) throw new ArgsError(`${prefix}shader ${info.name}'s dispatch needs a scratch ring of ${need} bytes (${info.scratchSize} bytes a lane, every wave of the grid); the engines allocate at most ${MAX_SCRATCH_RING}`);
      const r = ringBuffer(cx);
      r.bytes = Math.max(r.bytes, need);
    }
    const ud = parseUserData(cx, info, o.args ?? [], prefix, scope);
    if (!cx.kernels.includes(shader)) cx.kernels.push(shader);
    return { shader, grid, block, ...ud, groupSegmentSize: info.ldsSize, where: at || 'the dispatch' };
  }
  const metaArgs = info.args;
  if (!metaArgs) throw new ArgsError(`${prefix}kernel ${info.name} has no argument metadata (NT_AMDGPU_METADATA): its arguments cannot be laid out`);
  const explicit = metaArgs.filter((a) => !a.valueKind.startsWith('hidden_'));
  const listing = explicit.length ? ` (${explicit.map((a) => a.name ?? a.typeName ?? a.valueKind).join(', ')})` : '';
  const given = o.args ?? [];
  let entries: unknown[];
  if (Array.isArray(given)) {
    if (given.length !== explicit.length) throw new ArgsError(`${prefix}kernel ${info.name} takes ${plural(explicit.length, 'argument')}${listing}; "args" has ${given.length}`);
    entries = given;
  } else if (isObject(given)) {
    const unnamed = explicit.findIndex((a) => a.name === undefined);
    if (unnamed >= 0) throw new ArgsError(`${prefix}kernel ${info.name}'s metadata has no name for argument ${unnamed} (build with -cl-kernel-arg-info): give "args" as a list`);
    for (const k of Object.keys(given)) if (!explicit.some((a) => a.name === k)) throw new ArgsError(`${prefix}"args" names "${k}", which kernel ${info.name} has no argument of${listing}`);
    entries = explicit.map((a, k) => {
      if (!((a.name as string) in given)) throw new ArgsError(`${prefix}argument ${k} (${a.name}) is missing from "args"`);
      return given[a.name as string];
    });
  } else throw new ArgsError(`${prefix}"args" must be a list, or an object keyed by argument name`);

  const kernarg = new Uint8Array(Math.max(0, ...explicit.map((a) => a.offset + a.size)));
  const bufferSlots: BufferSlot[] = [];
  const indexSlots: IndexSlot[] = [];
  const locals: LocalArg[] = [];
  explicit.forEach((meta, k) => {
    const argName = `argument ${k}${meta.name ? ` (${meta.name})` : ''}`;
    const where = prefix + argName;
    const a = entries[k];
    if (!isObject(a)) throw new ArgsError(`${where}: must be an object`);
    if (meta.valueKind === 'global_buffer') {
      if (meta.size !== 8) throw new ArgsError(`${where}: a global pointer of ${meta.size} bytes is not supported`);
      bufferSlots.push({ offset: meta.offset, buffer: bufferOf(cx, a, where, `a global buffer${typeNote(meta)}`, k, meta.name) });
    } else if (meta.valueKind === 'by_value') {
      const v = byValue(a, meta, where, scope);
      if ('bytes' in v) kernarg.set(v.bytes, meta.offset);
      else indexSlots.push({ offset: meta.offset, ...v.index });
    } else if (meta.valueKind === 'dynamic_shared_pointer') {
      if (!('local' in a) || Object.keys(a).length !== 1) throw new ArgsError(`${where}: the kernel takes a __local pointer${typeNote(meta)}: give {"local": BYTES}`);
      const n = a.local;
      if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > MAX_BUFFER) throw new ArgsError(`${where}: "local" must be a byte count of at least 1`);
      if (meta.size !== 4 && meta.size !== 8) throw new ArgsError(`${where}: a __local pointer of ${meta.size} bytes is not supported`);
      locals.push({ offset: meta.offset, size: meta.size, bytes: n, align: meta.pointeeAlign ?? 1, where: argName });
    } else {
      throw new ArgsError(`${where}: arguments of kind ${meta.valueKind} are not supported yet`);
    }
  });
  let lds;
  try {
    lds = layoutLds(info, locals);
  } catch (e) {
    throw e instanceof InterpError ? new ArgsError(prefix + e.message) : e;
  }
  const kv = new DataView(kernarg.buffer);
  locals.forEach((l, k) => writeInteger(kv, l.offset, l.size === 8 ? 'u64' : 'u32', BigInt(lds.offsets[k] ?? 0)));
  if (!cx.kernels.includes(shader)) cx.kernels.push(shader);
  return { shader, grid, block, kernarg, bufferSlots, indexSlots, groupSegmentSize: lds.total, where: at || 'the dispatch' };
}

/** A sequence's items; returns how many dispatches they make (per run of the enclosing loops). */
function parseItems(cx: Context, list: unknown, at: string, scope: readonly Scope[]): { items: PlanItem[]; count: number } {
  if (!Array.isArray(list)) throw new ArgsError(`${at}: must be a list of dispatches and loops`);
  const items: PlanItem[] = [];
  let count = 0;
  list.forEach((x, k) => {
    const here = `${at}[${k}]`;
    if (!isObject(x)) throw new ArgsError(`${here}: must be an object (a dispatch or a loop)`);
    if (!('repeat' in x) && !('dispatches' in x)) {
      items.push({ dispatch: parseDispatch(cx, x, here, scope) });
      count += 1;
      return;
    }
    for (const f of Object.keys(x)) if (!['repeat', 'index', 'start', 'step', 'dispatches'].includes(f)) throw new ArgsError(`${here}: unknown field "${f}" (a loop has repeat, index, start, step, dispatches)`);
    const { repeat, index } = x;
    const start = x.start ?? 0, step = x.step ?? 1;
    if (typeof repeat !== 'number' || !Number.isInteger(repeat) || repeat < 0 || repeat > MAX_DISPATCHES) throw new ArgsError(`${here}: "repeat" must be a count from 0 to ${MAX_DISPATCHES}`);
    if (index !== undefined && (typeof index !== 'string' || index === '')) throw new ArgsError(`${here}: "index" must be a name`);
    if (index !== undefined && scope.some((s) => s.name === index)) throw new ArgsError(`${here}: "index" "${index}" is already the counter of an enclosing loop`);
    if (typeof start !== 'number' || !Number.isSafeInteger(start) || typeof step !== 'number' || !Number.isSafeInteger(step)) throw new ArgsError(`${here}: "start" and "step" must be integers`);
    const last = start + Math.max(0, repeat - 1) * step;
    if (!Number.isSafeInteger(last)) throw new ArgsError(`${here}: the counter leaves the safe integers (2^53)`);
    if (!('dispatches' in x)) throw new ArgsError(`${here}: a loop needs "dispatches"`);
    const inner = parseItems(cx, x.dispatches, `${here}.dispatches`, [...scope, { name: index as string | undefined, min: Math.min(start, last), max: Math.max(start, last) }]);
    items.push({ repeat, start, step, ...(index !== undefined ? { index: index as string } : {}), items: inner.items });
    count += repeat * inner.count;
    if (count > MAX_DISPATCHES) throw new ArgsError(`${here}: the document asks for more than ${MAX_DISPATCHES} dispatches`);
  });
  return { items, count };
}

/**
 * Reads an ARGS document against the kernels it may dispatch. One dispatch: `shaders` holds the
 * kernel chosen for it (the CLI picks it by --kernel or "kernel"); a sequence: every kernel of the file.
 */
export function parseArgs(doc: unknown, shaders: readonly Shader[]): ArgsPlan {
  if (!isObject(doc)) throw new ArgsError('the arguments document must be a JSON object');
  if (shaders.length === 0) throw new ArgsError('no kernel to dispatch');
  const sequence = 'dispatches' in doc;
  const buffers: PlanBuffer[] = [];
  const named = new Map<string, number>();
  if (sequence) {
    for (const k of Object.keys(doc)) if (k !== 'buffers' && k !== 'dispatches') throw new ArgsError(`unknown field "${k}" (a sequence has buffers, dispatches; one dispatch has kernel, grid, block, args)`);
    const b = doc.buffers ?? {};
    if (!isObject(b)) throw new ArgsError('"buffers" must be an object: {"NAME": {"buffer": T, "data" | "base64" | "size": ...}, ...}');
    for (const [name, spec] of Object.entries(b)) {
      const label = `buffer "${name}"`;
      if (!isObject(spec)) throw new ArgsError(`${label}: must be an object {"buffer": T, "data" | "base64" | "size": ...}`);
      named.set(name, buffers.length);
      buffers.push({ label, ...bufferInit(spec, label), name });
    }
  }
  const cx: Context = { shaders, sequence, buffers, named, kernels: [] };
  // The scratch ring, once every dispatch is read: as large as its largest dispatch needs.
  const ring = () => {
    const r = cx.ring;
    if (!r) return {};
    buffers[r.index] = { ...(buffers[r.index] as PlanBuffer), bytes: new Uint8Array(Math.max(4, r.bytes)) };
    return { scratchRing: r.index };
  };
  if (!sequence) {
    const t = parseDispatch(cx, doc, '', []);
    return { sequence, buffers, items: [{ dispatch: t }], dispatches: 1, kernels: cx.kernels, ...ring() };
  }
  const { items, count } = parseItems(cx, doc.dispatches, 'dispatches', []);
  return { sequence, buffers, items, dispatches: count, kernels: cx.kernels, ...ring() };
}

// --- one dispatch on the interpreter's memory (the tests' and tools' entry point) ---

export interface BufferArg {
  readonly arg: number;
  readonly name?: string;
  readonly type: ElementType;
  readonly bytes: Uint8Array;
  /** Address in the interpreter's memory. */
  readonly address: number;
  /** Where the kernarg segment holds the buffer's pointer. */
  readonly offset: number;
  /** The pointer is a resource's base address (BufferSlot). */
  readonly layout?: AddressLayout;
}

export interface PreparedDispatch {
  readonly kernel?: string;
  readonly grid: Dim3;
  readonly block: Dim3;
  /** The explicit arguments, buffer addresses (in `mem`) included. */
  readonly kernarg: Uint8Array;
  readonly mem: GlobalMemory;
  readonly buffers: readonly BufferArg[];
  /** Static LDS plus the __local arguments; the kernel's static LDS when left out. */
  readonly groupSegmentSize?: number;
  /** A raw shader with scratch: the plan's scratch ring, mapped in `mem`, and where the user data holds its address (not among `buffers`). */
  readonly scratchRing?: ScratchRing & { readonly slots: readonly { readonly offset: number; readonly layout?: AddressLayout }[] };
}

/** Reads a one-dispatch ARGS document against the kernel's metadata: the kernarg bytes and the buffers, mapped into fresh memory. */
export function prepareDispatch(doc: unknown, shader: Shader): PreparedDispatch {
  const plan = parseArgs(doc, [shader]);
  const first = plan.items[0];
  if (plan.sequence || plan.items.length !== 1 || !first || !('dispatch' in first)) throw new ArgsError('a sequence ("dispatches") has no single dispatch to prepare');
  const t = first.dispatch;
  const mem = new GlobalMemory();
  const kernarg = t.kernarg.slice();
  const kv = new DataView(kernarg.buffer);
  if (t.bufferSlots.some((s) => s.into !== undefined)) throw new ArgsError('a dispatch with user-data tables runs through parseArgs and a plan (runPlan, runPlanOnVulkan), not prepareDispatch');
  const ringIndex = plan.scratchRing;
  const ringBytes = ringIndex === undefined ? undefined : (plan.buffers[ringIndex] as PlanBuffer).bytes;
  const ring = ringBytes && { address: mem.map('the scratch ring', ringBytes), bytes: ringBytes };
  const buffers = t.bufferSlots.filter((s) => s.buffer !== ringIndex).map((s) => {
    const b = plan.buffers[s.buffer] as PlanBuffer;
    const address = mem.map(b.label, b.bytes);
    putAddress(kv, s, address);
    return { arg: b.arg ?? 0, ...(b.name !== undefined ? { name: b.name } : {}), type: b.type, bytes: b.bytes, address, offset: s.offset, ...(s.layout ? { layout: s.layout } : {}) };
  });
  const ringSlots = t.bufferSlots.filter((s) => s.buffer === ringIndex).map((s) => ({ offset: s.offset, ...(s.layout ? { layout: s.layout } : {}) }));
  if (ring) for (const s of ringSlots) putAddress(kv, s, ring.address);
  return { ...(isObject(doc) && typeof doc.kernel === 'string' ? { kernel: doc.kernel } : {}), grid: t.grid, block: t.block, kernarg, mem, buffers, groupSegmentSize: t.groupSegmentSize, ...(ring ? { scratchRing: { ...ring, slots: ringSlots } } : {}) };
}
