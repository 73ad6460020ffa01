// Every instruction the interpreter executes, by mnemonic, from one file per unit. An instruction
// missing here stops the run with UnimplementedError (pc + text), never a silent no-op.
import type { Handler } from '../context.js';
import { BUFFER } from './buffer.js';
import { DS } from './ds.js';
import { FLOW } from './flow.js';
import { MIMG } from './mimg.js';
import { SALU } from './salu.js';
import { SMEM } from './smem.js';
import { VALU_FLOAT } from './valu-float.js';
import { VALU_INT } from './valu-int.js';
import { VALU_LANES } from './valu-lanes.js';
import { VALU_PACKED } from './valu-packed.js';
import { VALU_SAD } from './valu-sad.js';
import { VMEM } from './vmem.js';

const UNITS: readonly Record<string, Handler>[] = [SALU, FLOW, SMEM, VALU_INT, VALU_FLOAT, VALU_PACKED, VALU_SAD, VALU_LANES, VMEM, DS, BUFFER, MIMG];

export const HANDLERS: Record<string, Handler> = {};
for (const u of UNITS) {
  for (const [k, h] of Object.entries(u)) {
    if (k in HANDLERS) throw new Error(`interpreter: two units implement ${k}`);
    HANDLERS[k] = h;
  }
}
