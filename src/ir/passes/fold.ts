// Constant folding: an op whose arguments are all constants becomes a constant. Float ops fold
// only when their FloatMode is fully known, through the exact float model (src/float), so a
// folded value is the value the hardware computes under that mode.
import { type Block, type Inst, type IrFunction, newStamp, NO_ARGS, Replacements, substituteArgs, substituteNoting } from '../ir.js';
import type { FloatMode } from '../ir.js';
import { type Op, OPS } from '../ops.js';
import { addF32, addF64, fmaF32, fmaF64, mulF32, mulF64, type FloatEnv } from '../../float/index.js';
import { f16OvflClamps as F16_OVFL_CLAMPS } from '../../float/env.js';

const u = (v: number | bigint) => Number(v) >>> 0;
const M64 = (1n << 64n) - 1n;

function envOf(m: FloatMode | undefined): FloatEnv | undefined {
  if (!m || m.round === 'dynamic' || m.denorm === 'dynamic' || m.ieee === 'dynamic' || m.dx10Clamp === 'dynamic' || m.f16Ovfl === 'dynamic') return undefined;
  return { round: m.round, flushIn: (m.denorm & 1) === 0, flushOut: (m.denorm & 2) === 0, ieee: m.ieee, dx10Clamp: m.dx10Clamp, f16Ovfl: F16_OVFL_CLAMPS(m.f16Ovfl === true), ...(m.tininess ? { tininess: m.tininess } : {}), ...(m.floatToInt ? { floatToInt: m.floatToInt } : {}) };
}

type Folder = (a: readonly (number | bigint)[], env: FloatEnv | undefined) => number | bigint | undefined;

const I32: Partial<Record<Op, (x: number, y: number) => number>> = {
  IAdd32: (x, y) => x + y, ISub32: (x, y) => x - y, IMul32: (x, y) => Math.imul(x, y),
  And32: (x, y) => x & y, Or32: (x, y) => x | y, Xor32: (x, y) => x ^ y,
  Shl32: (x, y) => x << (y & 31), LShr32: (x, y) => x >>> (y & 31), AShr32: (x, y) => (x | 0) >> (y & 31),
  UMin32: (x, y) => Math.min(x, y), UMax32: (x, y) => Math.max(x, y),
  SMin32: (x, y) => Math.min(x | 0, y | 0), SMax32: (x, y) => Math.max(x | 0, y | 0),
};

const CMP32: Partial<Record<Op, (x: number, y: number) => boolean>> = {
  IEq32: (x, y) => x === y, INe32: (x, y) => x !== y, ULt32: (x, y) => x < y, ULe32: (x, y) => x <= y,
  UGt32: (x, y) => x > y, UGe32: (x, y) => x >= y, SLt32: (x, y) => (x | 0) < (y | 0), SLe32: (x, y) => (x | 0) <= (y | 0),
  SGt32: (x, y) => (x | 0) > (y | 0), SGe32: (x, y) => (x | 0) >= (y | 0),
};

// The values by index, not destructured: a folder runs a few times per kernel, unoptimised, where
// destructuring a list walks it through an iterator object.
const FOLDERS: Partial<Record<Op, Folder>> = {
  Not32: (a) => ~u(a[0] ?? 0) >>> 0,
  Select32: (a) => (u(a[0] ?? 0) ? u(a[1] ?? 0) : u(a[2] ?? 0)),
  Pack64: (a) => BigInt(u(a[0] ?? 0)) | (BigInt(u(a[1] ?? 0)) << 32n),
  Lo32: (a) => Number(BigInt(a[0] ?? 0) & 0xffffffffn),
  Hi32: (a) => Number((BigInt(a[0] ?? 0) >> 32n) & 0xffffffffn),
  IAdd64: (a) => (BigInt(a[0] ?? 0) + BigInt(a[1] ?? 0)) & M64,
  BitcastU32F32: (a) => a[0], BitcastF32U32: (a) => a[0], BitcastU64F64: (a) => a[0], BitcastF64U64: (a) => a[0],
  FAdd32: (a, e) => (e ? addF32(u(a[0] ?? 0), u(a[1] ?? 0), e) : undefined),
  FMul32: (a, e) => (e ? mulF32(u(a[0] ?? 0), u(a[1] ?? 0), e) : undefined),
  FFma32: (a, e) => (e ? fmaF32(u(a[0] ?? 0), u(a[1] ?? 0), u(a[2] ?? 0), e) : undefined),
  FAdd64: (a, e) => (e ? addF64(BigInt(a[0] ?? 0), BigInt(a[1] ?? 0), e) : undefined),
  FMul64: (a, e) => (e ? mulF64(BigInt(a[0] ?? 0), BigInt(a[1] ?? 0), e) : undefined),
  FFma64: (a, e) => (e ? fmaF64(BigInt(a[0] ?? 0), BigInt(a[1] ?? 0), BigInt(a[2] ?? 0), e) : undefined),
};
for (const [op, f] of Object.entries(I32)) FOLDERS[op as Op] = (a) => f(u(a[0] ?? 0), u(a[1] ?? 0)) >>> 0;
for (const [op, f] of Object.entries(CMP32)) FOLDERS[op as Op] = (a) => (f(u(a[0] ?? 0), u(a[1] ?? 0)) ? 1 : 0);
/** FOLDERS as a Map: asked at every instruction, mostly for ops it lacks (a keyed load of the object went megamorphic and walked to its prototype for those). */
const FOLDER_OF = new Map<string, Folder>(Object.entries(FOLDERS) as [string, Folder][]);

const CONST_OF: Record<string, Op> = { u1: 'ConstU1', u32: 'ConstU32', u64: 'ConstU64', f16: 'ConstF16', f32: 'ConstF32', f64: 'ConstF64' };

/** By op (its table index): whether it is a constant (asked at every argument: one load, not a string test). */
const IS_CONST: readonly boolean[] = Object.keys(OPS).map((op) => op.startsWith('Const'));
const isConst = (i: Inst): boolean => IS_CONST[i.info.index] === true;

/** Folds in place (instructions become constants, keeping their id); returns how many were folded. */
export function foldConstants(fn: IrFunction): number {
  let n = 0;
  // Folded instructions → their constants; uses are rewritten as the walk reaches them (blocks are
  // in an order where definitions precede uses within a block; phis and later blocks are fixed at the end).
  const repl = new Replacements(fn.idCount);
  const blocks = fn.blocks;
  // The instructions kept an argument of which may still change when the walk passes them (see
  // substituteNoting): the only ones the final rewrite needs to visit (a folded one leaves its block).
  const seen = newStamp();
  const late: Inst[] = [];
  // Indexed loops, not for…of: before V8 optimises this code, each step of a for…of allocates an
  // iterator result.
  for (let bk = 0; bk < blocks.length; bk++) {
    const b = blocks[bk] as Block, insts = b.insts;
    for (let k = 0; k < insts.length; k++) {
      const i = insts[k] as Inst;
      const args = i.args;
      let again = false, all = true;
      if (repl.size === 0) {
        // Nothing folded yet (all the way, most often, in recompile's second fold): no argument
        // to substitute, only whether one is still to come (substituteNoting's answer), in the
        // walk over the arguments that asks whether they are constants.
        for (let a = 0; a < args.length; a++) {
          const x = args[a] as Inst;
          if (x.stamp !== seen) again = true;
          if (all && !isConst(x)) { all = false; if (again) break; }
        }
        i.stamp = seen;
        if (args.length === 0) continue;
      } else {
        again = substituteNoting(i, repl, seen);
        i.stamp = seen;
        if (args.length === 0) continue;
        // Constant arguments first (an indexed loop): most instructions have some other argument,
        // and then need no look at the folders.
        for (let a = 0; a < args.length && all; a++) all = isConst(args[a] as Inst);
      }
      const f = all ? FOLDER_OF.get(i.op) : undefined;
      if (!f) { if (again) late.push(i); continue; }
      // The constants' values in a list made at its size (a loop, not `map`: no closure per fold).
      const vals = new Array<number | bigint>(args.length);
      for (let a = 0; a < args.length; a++) vals[a] = (args[a] as Inst).imms[0] ?? 0;
      const r = f(vals, envOf(i.float));
      const cop = CONST_OF[i.type];
      if (r === undefined || !cop) { if (again) late.push(i); continue; }
      // No options object and no argument list of its own (constants share the empty one).
      const c = fn.makeAt(cop, NO_ARGS, [typeof r === 'bigint' ? r : r >>> 0], undefined, i.pc, undefined);
      c.block = b;
      c.stamp = seen;
      insts[k] = c;
      repl.set(i, c);
      n++;
    }
  }
  if (repl.size) for (let k = 0; k < late.length; k++) substituteArgs(late[k] as Inst, repl);
  return n;
}
