// A shader's instructions by pc, decoded on first use (the interpreter follows control flow, so
// only reachable code is decoded).
import { type Shader, holdsRelocation, segmentAt, UNAPPLIED_RELOCATION } from '../container/shader.js';
import type { Instruction } from '../decode/types.js';
import { decodeAt } from '../decode/index.js';
import { printInstruction } from '../disasm/index.js';
import { InterpError } from './errors.js';

export class Program {
  private readonly cache = new Map<number, Instruction>();
  constructor(readonly shader: Shader) {}

  at(pc: number): Instruction {
    const hit = this.cache.get(pc);
    if (hit) return hit;
    const s = this.shader;
    // The kernel's range, or a function beside it (Shader.functions): wherever a call went.
    const seg = segmentAt(s, pc);
    const rel = seg ? pc - seg.start : -1;
    if (!seg || (rel & 3) !== 0) {
      const fns = s.functions && s.functions.length > 0 ? ' or its functions\' code' : '';
      throw new InterpError(`execution left the shader's code [0x${s.basePc.toString(16)}, 0x${(s.basePc + s.words.length * 4).toString(16)})${fns}`, pc, '');
    }
    const d = decodeAt(s.info.target, seg.words, rel >>> 2, seg.words.length, pc);
    if (d.kind !== 'instruction') throw new InterpError(d.reason, pc, '.long 0x' + (d.words[0] >>> 0).toString(16).padStart(8, '0'), d.words);
    // An unlinked object's placeholder would run as if it were the value (a wrong address or call target): the run stops where it is reached.
    if (holdsRelocation(s, pc, d.size)) throw new InterpError(UNAPPLIED_RELOCATION, pc, this.text(d), d.words);
    this.cache.set(pc, d);
    return d;
  }

  text(inst: Instruction): string {
    return printInstruction(inst, this.shader.info.target);
  }
}
