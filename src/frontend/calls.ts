// Calls, jumps and returns (s_call_b64, s_swappc_b64, s_setpc_b64) as IR control flow, where the
// CFG resolved them (src/analysis/cfg.ts) and calls.ts gives their run-time successors:
//  - s_call_b64 / s_swappc_b64 with a 'call' edge: the return address, the next instruction's pc,
//    into the destination pair (as src/interp/units/salu.ts does: pc + 4; both are 4-byte
//    instructions here), then a branch to the callee. The source pair of s_swappc_b64 is not
//    read: its value is the constant the CFG resolved the edge from.
//  - s_setpc_b64 with a 'jump' edge: a branch there.
//  - s_setpc_b64 of a return-address pair (exit 'return'): a multi-way branch on the pair's
//    run-time value over the return sites calls.ts finds for this return (a chain of uniform
//    two-way branches, one per site, in pc order), and a run-time fault (FAULT_RETURN_ADDRESS,
//    src/ir/faults.ts) where the value is none of them. The value is compared as the interpreter
//    jumps: its low 48 bits (the low dword and bits 0..15 of the high dword) against the site's pc.
// Because the calls and returns are ordinary edges of the one IR function (every register is the
// wave's, as on the hardware: no frames), the structurizer sees a call graph as more branches and
// loops; a subroutine called from several sites makes the return a branch out of a loop or
// a join, and a graph that comes out irreducible goes to the state machine like any other.
// Anything else (an s_swappc_b64 or s_setpc_b64 target the CFG could not resolve) is a
// TranslateError with the pc and the instruction.
import type { BasicBlock, Cfg } from '../analysis/types.js';
import { callFlow, isReturn } from '../analysis/calls.js';
import { FAULT_RETURN_ADDRESS } from '../ir/faults.js';
import { Builder, type Inst, listOf, NO_ARGS } from '../ir/ir.js';
import type { TContext } from './context.js';

/** The mnemonics this file translates; each ends its block. */
export const TRANSFERS: ReadonlySet<string> = new Set(['s_call_b64', 's_swappc_b64', 's_setpc_b64']);

const lo32 = (x: number) => x % 2 ** 32;
const hi32 = (x: number) => Math.floor(x / 2 ** 32);

/** Ends the IR block of `cb` at its last instruction, `cx.inst` (one of TRANSFERS). */
export function translateTransfer(cx: TContext, cfg: Cfg, cb: BasicBlock, irBlock: (cfgId: number) => number): void {
  const inst = cx.inst;
  const m = inst.def.mnemonic;
  const b = cx.b;
  if (m === 's_call_b64' || m === 's_swappc_b64') {
    const callee = cb.succs.find((e) => e.kind === 'call');
    if (!callee) cx.fail('the call target is not a constant known in this block (s_getpc_b64, moves, s_add/s_sub of constants), so the callee is not translated');
    if (inst.size !== 4) cx.fail(`a ${inst.size}-byte ${m} is not translated`);
    const ret = inst.pc + 4;
    const dst = cx.op('sdst').value;
    cx.writeScalar(dst, cx.u32(lo32(ret)), 0);
    cx.writeScalar(dst, cx.u32(hi32(ret)), 1);
    b.emit('Branch', NO_ARGS, listOf(irBlock(callee.to)));
    return;
  }
  const jump = cb.succs.find((e) => e.kind === 'jump');
  if (jump) {
    b.emit('Branch', NO_ARGS, listOf(irBlock(jump.to)));
    return;
  }
  if (!isReturn(cb)) cx.fail('the jump target is neither a constant known in this block nor a return address');
  const sites = callFlow(cfg).returnSites[cb.id] ?? [];
  const src = cx.op('ssrc0').value;
  const lo = cx.scalar(src, 'b32', 0);
  const hi = b.emit('And32', listOf(cx.scalar(src, 'b32', 1), cx.u32(0xffff)));
  const conds: Inst[] = sites.map((site) => {
    const pc = cfg.blocks[site]?.start ?? cx.fail(`return site block ${site} is not in the CFG`);
    return b.emit('AndU1', listOf(b.emit('IEq32', listOf(lo, cx.u32(lo32(pc)))), b.emit('IEq32', listOf(hi, cx.u32(hi32(pc))))));
  });
  const fn = b.fn;
  // Plain builders: these blocks only branch or fault (no register access, so nothing for a BlockBuilder's tables).
  const fault = new Builder(fn, fn.addBlock(inst.pc), inst.pc);
  fault.emit('Fault', listOf(fault.u1(true)), listOf(FAULT_RETURN_ADDRESS));
  fault.emit('EndProgram');
  let at: Builder = b;
  sites.forEach((site, k) => {
    const next = k === sites.length - 1 ? fault : new Builder(fn, fn.addBlock(inst.pc), inst.pc);
    at.emit('BranchCond', listOf(conds[k] as Inst), listOf(irBlock(site), next.block.id));
    at = next;
  });
  if (sites.length === 0) b.emit('Branch', NO_ARGS, listOf(fault.block.id));
}
