// Bytes to instructions. Identifies the encoding from the first dword and hands the word to
// that family's decoder. Never throws on any input: an undecodable dword is an InvalidWord.
import type { Target } from '../isa/types.js';
import type { DecodeContext, Encoding, FamilyDecoder, Instruction, InvalidWord } from './types.js';
import { TRUNCATED } from './types.js';
import { decodeSOP1 } from './sop1.js';
import { decodeSOP2 } from './sop2.js';
import { decodeSOPK } from './sopk.js';
import { decodeSOPC } from './sopc.js';
import { decodeSOPP } from './sopp.js';
import { decodeSMEM } from './smem.js';
import { decodeVOP1 } from './vop1.js';
import { decodeVOP2 } from './vop2.js';
import { decodeVOPC } from './vopc.js';
import { decodeVOP3 } from './vop3.js';
import { decodeVOP3P } from './vop3p.js';
import { decodeVINTRP } from './vintrp.js';
import { decodeDS } from './ds.js';
import { decodeMUBUF } from './mubuf.js';
import { decodeMTBUF } from './mtbuf.js';
import { decodeMIMG } from './mimg.js';
import { decodeFLAT } from './flat.js';
import { decodeEXP } from './exp.js';
import { decodeDPP } from './dpp.js';
import { decodeSDWA } from './sdwa.js';
import { SRC } from './operands.js';

const DECODERS: Record<Encoding, FamilyDecoder> = {
  SOP1: decodeSOP1, SOP2: decodeSOP2, SOPK: decodeSOPK, SOPC: decodeSOPC, SOPP: decodeSOPP,
  SMEM: decodeSMEM, VOP1: decodeVOP1, VOP2: decodeVOP2, VOPC: decodeVOPC, VOP3: decodeVOP3,
  VOP3P: decodeVOP3P, VINTRP: decodeVINTRP, DS: decodeDS, MUBUF: decodeMUBUF, MTBUF: decodeMTBUF,
  MIMG: decodeMIMG, FLAT: decodeFLAT, EXP: decodeEXP,
};

/** The encoding a first dword belongs to on gfx10, or undefined for an unused prefix. */
export function encodingOf(w: number): Encoding | undefined {
  if ((w >>> 31) === 0) {
    const top7 = w >>> 25;
    if (top7 === 0x3f) return 'VOP1';
    if (top7 === 0x3e) return 'VOPC';
    return 'VOP2';
  }
  if ((w >>> 30) === 0b10) {
    const top9 = w >>> 23;
    if (top9 === 0x17d) return 'SOP1';
    if (top9 === 0x17e) return 'SOPC';
    if (top9 === 0x17f) return 'SOPP';
    if ((w >>> 28) === 0b1011) return 'SOPK';
    return 'SOP2';
  }
  switch (w >>> 26) {
    case 0x32: return 'VINTRP';
    case 0x33: return (w >>> 24) === 0xcc ? 'VOP3P' : undefined;
    case 0x35: return 'VOP3';
    case 0x36: return 'DS';
    case 0x37: return 'FLAT';
    case 0x38: return 'MUBUF';
    case 0x3a: return 'MTBUF';
    case 0x3c: return 'MIMG';
    case 0x3d: return 'SMEM';
    case 0x3e: return 'EXP';
    default: return undefined;
  }
}

function invalid(ctx: DecodeContext, reason: string): InvalidWord {
  const w = ctx.words[ctx.index] ?? 0;
  return reason === TRUNCATED
    ? { kind: 'invalid', pc: ctx.pc, words: [w], size: 4, reason: 'instruction is truncated: it needs more dwords than the input has', truncated: true }
    : { kind: 'invalid', pc: ctx.pc, words: [w], size: 4, reason };
}

const NO_WORDS = new Uint32Array(0);
/**
 * The context of the decoding under way: one object, filled for each instruction, not one made
 * per instruction (the family decoders read it while they run and keep nothing of it; decoding
 * never starts another decoding).
 */
const CTX: { -readonly [K in keyof DecodeContext]: DecodeContext[K] } = { target: 'gfx1030', words: NO_WORDS, index: 0, end: 0, pc: 0 };

/**
 * The family decoder by the first dword's top 9 bits (w >>> 23), undefined for an unused prefix:
 * encodingOf depends on no lower bit (VOP3P, the narrowest, is the top 8), and a table read is
 * cheaper than its comparisons plus DECODERS' lookup by name (a keyed load of many names).
 */
const DECODER_BY_TOP9: readonly (FamilyDecoder | undefined)[] = Array.from({ length: 512 }, (_, top9) => {
  const enc = encodingOf(top9 << 23);
  return enc === undefined ? undefined : DECODERS[enc];
});

/** Decode the one instruction that starts at dword `index`. */
export function decodeAt(target: Target, words: Uint32Array, index: number, end: number, pc: number): Instruction | InvalidWord {
  const w = words[index] ?? 0;
  let decoder = DECODER_BY_TOP9[w >>> 23];
  if (decoder === undefined) return { kind: 'invalid', pc, words: [w], size: 4, reason: 'no gfx10 encoding has this prefix' };
  const ctx = CTX;
  ctx.target = target; ctx.words = words; ctx.index = index; ctx.end = end; ctx.pc = pc;
  // VOP1, VOP2, VOPC (bit 31 clear): src0 names the DPP and SDWA forms.
  if ((w >>> 31) === 0) {
    const src0 = w & 0x1ff;
    if (src0 === SRC.DPP16 || src0 === SRC.DPP8 || src0 === SRC.DPP8_FI) decoder = decodeDPP;
    else if (src0 === SRC.SDWA) decoder = decodeSDWA;
  }
  let result: Instruction | string;
  try {
    result = decoder(ctx);
  } catch (e) {
    // A decoder bug must not take the caller down; report it as an invalid word with the reason.
    result = `internal decoder error: ${e instanceof Error ? e.message : String(e)}`;
  }
  const d = typeof result === 'string' ? invalid(ctx, result) : result;
  // Not holding on to the code (a view of a whole file's bytes) past the call.
  ctx.words = NO_WORDS;
  return d;
}

const LITTLE_ENDIAN = new Uint8Array(Uint32Array.of(1).buffer)[0] === 1;

/** Little-endian bytes to dwords (trailing bytes that do not fill a dword are left out). */
export function toWords(bytes: Uint8Array): Uint32Array {
  const n = bytes.length >>> 2;
  // A view, not a copy, where the host's byte order and the alignment allow it.
  if (LITTLE_ENDIAN && (bytes.byteOffset & 3) === 0) return new Uint32Array(bytes.buffer, bytes.byteOffset, n);
  const out = new Uint32Array(n);
  const dv = new DataView(bytes.buffer, bytes.byteOffset, n * 4);
  for (let i = 0; i < n; i++) out[i] = dv.getUint32(i * 4, true);
  return out;
}
