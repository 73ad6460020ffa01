// The one ISA table: every gfx10 instruction, assembled from the per-family parts in tables/.
import type { Family, InstrDef, Target } from './types.js';
import { FAMILIES, TARGETS } from './types.js';
import { SOP1_TABLE } from './tables/sop1.js';
import { SOP2_TABLE } from './tables/sop2.js';
import { SOPK_TABLE } from './tables/sopk.js';
import { SOPC_TABLE } from './tables/sopc.js';
import { SOPP_TABLE } from './tables/sopp.js';
import { SMEM_TABLE } from './tables/smem.js';
import { VOP1_TABLE } from './tables/vop1.js';
import { VOP2_TABLE } from './tables/vop2.js';
import { VOPC_TABLE } from './tables/vopc.js';
import { VOP3_TABLE } from './tables/vop3.js';
import { VOP3P_TABLE } from './tables/vop3p.js';
import { VINTRP_TABLE } from './tables/vintrp.js';
import { DS_TABLE } from './tables/ds.js';
import { MUBUF_TABLE } from './tables/mubuf.js';
import { MTBUF_TABLE } from './tables/mtbuf.js';
import { MIMG_TABLE } from './tables/mimg.js';
import { FLAT_TABLE } from './tables/flat.js';
import { EXP_TABLE } from './tables/exp.js';

/** Every instruction definition. FLAT_TABLE holds FLAT, GLOBAL and SCRATCH (family tells which). */
export const ISA_TABLE: readonly InstrDef[] = [
  ...SOP1_TABLE, ...SOP2_TABLE, ...SOPK_TABLE, ...SOPC_TABLE, ...SOPP_TABLE, ...SMEM_TABLE,
  ...VOP1_TABLE, ...VOP2_TABLE, ...VOPC_TABLE, ...VOP3_TABLE, ...VOP3P_TABLE, ...VINTRP_TABLE,
  ...DS_TABLE, ...MUBUF_TABLE, ...MTBUF_TABLE, ...MIMG_TABLE, ...FLAT_TABLE, ...EXP_TABLE,
];

export function hasTarget(def: InstrDef, target: Target): boolean {
  return def.targets === undefined || def.targets.includes(target);
}

type OpcodeIndex = Record<Family, (InstrDef | undefined)[]>;

function buildIndex(target: Target): OpcodeIndex {
  const index = Object.fromEntries(FAMILIES.map((f) => [f, [] as (InstrDef | undefined)[]])) as OpcodeIndex;
  for (const def of ISA_TABLE) {
    if (!hasTarget(def, target)) continue;
    const slot = index[def.family];
    const prev = slot[def.opcode];
    if (prev !== undefined) {
      throw new Error(`ISA table: ${def.family} opcode ${def.opcode} on ${target} is both ${prev.mnemonic} and ${def.mnemonic}`);
    }
    slot[def.opcode] = def;
  }
  return index;
}

const INDEXES = new Map<Target, OpcodeIndex>();
/** The target lookup answered for last and its index: a decoding asks for one target throughout, and this test is cheaper than the Map's. */
let lastTarget: Target | undefined;
let lastIndex: OpcodeIndex | undefined;

function indexOf(target: Target): OpcodeIndex {
  let index = INDEXES.get(target);
  if (index === undefined) {
    index = buildIndex(target);
    INDEXES.set(target, index);
  }
  lastTarget = target;
  lastIndex = index;
  return index;
}

/** The definition of `opcode` in `family` on `target`, or undefined when the target lacks it. */
export function lookup(target: Target, family: Family, opcode: number): InstrDef | undefined {
  const index = target === lastTarget && lastIndex !== undefined ? lastIndex : indexOf(target);
  return index[family][opcode];
}

/**
 * `lookup` for one family: the decoders' calls name their family by a constant, and this
 * function's own target check and table read stay monomorphic, where `lookup`'s read of the
 * family by name is a keyed load that sees every family (a tenth of a small kernel's decoding).
 */
export function familyLookup(family: Family): (target: Target, opcode: number) => InstrDef | undefined {
  let tableTarget: Target | undefined;
  let table: readonly (InstrDef | undefined)[] = [];
  return (target, opcode) => {
    if (target !== tableTarget) {
      table = indexOf(target)[family];
      tableTarget = target;
    }
    return table[opcode];
  };
}

/** All definitions of a family available on a target (for generators and coverage reports). */
export function definitions(target: Target, family: Family): InstrDef[] {
  return ISA_TABLE.filter((d) => d.family === family && hasTarget(d, target));
}

export function isTarget(s: string): s is Target {
  return (TARGETS as readonly string[]).includes(s);
}
