import type { DecodeContext, FamilyDecoder, Instruction } from './types.js';
import { TRUNCATED } from './types.js';
import { bufferOps, decodeBufferCommon } from './mubuf.js';

// MTBUF encoding (2 dwords, plus a literal dword when soffset is 255). Field layout: RDNA2 ISA
// reference, "Microcode Formats"; validity as LLVM 19 applies it (see tables/mtbuf.ts).
//   word 0: [11:0] offset, [12] offen, [13] idxen, [14] glc, [15] dlc, [18:16] op[2:0],
//           [25:19] format (gfx10 unified format), [31:26] 0x3a
//   word 1: as MUBUF, with [21] op[3]
const mtbufOps = bufferOps('MTBUF', 16);

export const decodeMTBUF: FamilyDecoder = (ctx: DecodeContext): Instruction | string => {
  if (ctx.index + 1 >= ctx.end) return TRUNCATED;
  const w0 = ctx.words[ctx.index] ?? 0;
  const w1 = ctx.words[ctx.index + 1] ?? 0;
  const opcode = ((w0 >>> 16) & 7) | (((w1 >>> 21) & 1) << 3);
  const op = mtbufOps(ctx.target)[opcode];
  if (op === undefined) return `MTBUF opcode ${opcode} is not assigned on ${ctx.target}`;
  return decodeBufferCommon(ctx, 'MTBUF', op, w0, w1, false, (w0 >>> 19) & 0x7f);
};
