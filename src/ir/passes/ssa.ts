// SSA construction (Braun, Buchwald, Hack, Leißa, Mallon, Zwinkau: "Simple and Efficient
// Construction of Static Single Assignment Form", CC 2013): register reads and writes
// (GetSgpr/SetSgpr, GetVgpr/SetVgpr, GetScc/SetScc, GetMode/SetMode) become values and phis,
// and trivial phis are removed. All predecessors are known before the pass runs (every block is
// "sealed"): first each block's own writes are collected (its value of each register at its end),
// then each read that no earlier write in its block answers is looked up at the block's entry,
// creating phis at merges on demand.
import type { Block, Inst, IrFunction } from '../ir.js';
import { IrError } from '../ir.js';
import type { IrType } from '../ops.js';

type Reg = string;

function regOf(i: Inst): { reg: Reg; type: IrType; write: boolean } | undefined {
  switch (i.op) {
    case 'GetSgpr': return { reg: `s${i.imms[0]}`, type: 'u32', write: false };
    case 'SetSgpr': return { reg: `s${i.imms[0]}`, type: 'u32', write: true };
    case 'GetVgpr': return { reg: `v${i.imms[0]}`, type: 'u32', write: false };
    case 'SetVgpr': return { reg: `v${i.imms[0]}`, type: 'u32', write: true };
    case 'GetScc': return { reg: 'scc', type: 'u1', write: false };
    case 'SetScc': return { reg: 'scc', type: 'u1', write: true };
    case 'GetMode': return { reg: 'mode', type: 'u32', write: false };
    case 'SetMode': return { reg: 'mode', type: 'u32', write: true };
    default: return undefined;
  }
}

export function constructSsa(fn: IrFunction): void {
  fn.computePreds();
  const entry = fn.blocks[0];
  if (!entry) return;
  const endDefs = new Map<Block, Map<Reg, Inst>>();
  const entryDefs = new Map<Block, Map<Reg, Inst>>();
  /** Reads answered by an earlier value (a write's argument, a phi, an undef). */
  const replaced = new Map<Inst, Inst>();
  /** Reads to look up at their block's entry. */
  const pending = new Map<Inst, { reg: Reg; type: IrType; block: Block }>();
  const newPhis: Inst[] = [];
  const undefs = new Map<string, Inst>();

  // Phase 1: each block's own writes and reads.
  for (const b of fn.blocks) {
    const local = new Map<Reg, Inst>();
    for (const i of b.insts) {
      const r = regOf(i);
      if (!r) continue;
      if (r.write) {
        const v = i.args[0];
        if (!v) throw new IrError(`${i.op} without a value`);
        local.set(r.reg, v);
      } else {
        const cur = local.get(r.reg);
        if (cur) replaced.set(i, cur);
        else pending.set(i, { reg: r.reg, type: r.type, block: b });
      }
    }
    endDefs.set(b, local);
  }

  /** The value an instruction stands for (a read becomes what it reads). */
  function valueOf(v0: Inst): Inst {
    let v = v0;
    for (;;) {
      const r = replaced.get(v);
      if (r) { v = r; continue; }
      const p = pending.get(v);
      if (p) {
        pending.delete(v);
        replaced.set(v, readAtEntry(p.reg, p.type, p.block));
        continue;
      }
      return v;
    }
  }

  function undef(type: IrType): Inst {
    let u = undefs.get(type);
    if (!u) { u = fn.make('Undef', [], [], { type }); u.block = entry; undefs.set(type, u); }
    return u;
  }

  function readAtEnd(reg: Reg, type: IrType, b: Block): Inst {
    const d = endDefs.get(b)?.get(reg);
    return d ? valueOf(d) : readAtEntry(reg, type, b);
  }

  function setEntry(b: Block, reg: Reg, v: Inst): void {
    let m = entryDefs.get(b);
    if (!m) { m = new Map(); entryDefs.set(b, m); }
    m.set(reg, v);
  }

  function readAtEntry(reg: Reg, type: IrType, b: Block): Inst {
    const known = entryDefs.get(b)?.get(reg);
    if (known) return valueOf(known);
    let v: Inst;
    if (b.preds.length === 0) v = undef(type);
    else if (b.preds.length === 1) v = readAtEnd(reg, type, b.preds[0] as Block);
    else {
      const phi = fn.make('Phi', [], [], { type });
      phi.block = b;
      newPhis.push(phi);
      setEntry(b, reg, phi);
      phi.args = b.preds.map((p) => readAtEnd(reg, type, p));
      v = tryRemoveTrivialPhi(phi);
    }
    setEntry(b, reg, v);
    return v;
  }

  const removedPhis = new Set<Inst>();
  function tryRemoveTrivialPhi(phi: Inst): Inst {
    let same: Inst | undefined;
    for (const a0 of phi.args) {
      const a = valueOf(a0);
      if (a === same || a === phi) continue;
      if (same !== undefined) return phi;
      same = a;
    }
    const to = same ?? undef(phi.type);
    replaced.set(phi, to);
    removedPhis.add(phi);
    for (const p of newPhis) if (p !== phi && !removedPhis.has(p) && p.args.includes(phi)) tryRemoveTrivialPhi(p);
    return to;
  }

  // Phase 2: answer every read, then rebuild the blocks without register reads and writes.
  for (const r of [...pending.keys()]) valueOf(r);
  for (const b of fn.blocks) {
    const phis = newPhis.filter((p) => p.block === b && !removedPhis.has(p));
    const rest = b.insts.filter((i) => !regOf(i));
    b.setInsts(b === entry ? [...undefs.values(), ...phis, ...rest] : [...phis, ...rest]);
    for (const i of b.insts) i.args = i.args.map(valueOf);
  }
}
