// Consistency of the ISA table's parts: the facts kept beside the base VOP1/VOP2/VOPC definitions
// (their e64 profiles, their DPP/SDWA forms) must agree with those definitions.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TARGETS } from '../../src/isa/types.js';
import { ISA_TABLE, definitions, hasTarget, lookup } from '../../src/isa/table.js';
import { e64ProfileOf, parseE64Profile } from '../../src/isa/tables/vop3-promotion.js';
import { VALU_VARIANTS, dppForm, sdwaForm } from '../../src/isa/tables/valu-variants.js';

const OPCODE_BITS: Record<string, number> = {
  SOP1: 8, SOP2: 7, SOPK: 5, SOPC: 7, SOPP: 7, SMEM: 8, VOP1: 8, VOP2: 6, VOPC: 8, VOP3: 10, VOP3P: 7,
  VINTRP: 2, DS: 8, MUBUF: 8, MTBUF: 4, MIMG: 8, FLAT: 7, GLOBAL: 7, SCRATCH: 7, EXP: 0,
};

test('every definition names known targets and an opcode that fits its field', () => {
  for (const d of ISA_TABLE) {
    for (const t of d.targets ?? []) assert.ok((TARGETS as readonly string[]).includes(t), `${d.mnemonic}: ${t}`);
    const bitsOf = OPCODE_BITS[d.family];
    assert.ok(bitsOf !== undefined, d.family);
    assert.ok(Number.isInteger(d.opcode) && d.opcode >= 0 && d.opcode < 2 ** Math.max(bitsOf, 1), `${d.family} ${d.mnemonic} opcode ${d.opcode}`);
    assert.equal(d.mnemonic, d.mnemonic.toLowerCase());
  }
  for (const t of TARGETS) for (const d of ISA_TABLE) if (hasTarget(d, t)) assert.equal(lookup(t, d.family, d.opcode), d);
});

test('every VOP1/VOP2 definition either has an e64 profile or is marked noVOP3', () => {
  for (const t of TARGETS) {
    for (const fam of ['VOP1', 'VOP2', 'VOPC'] as const) {
      for (const d of definitions(t, fam)) {
        const p = e64ProfileOf(d);
        const no = d.flags?.includes('noVOP3') === true;
        assert.ok((p !== undefined) !== no, `${fam} ${d.mnemonic} on ${t}: profile ${p}, noVOP3 ${no}`);
        if (p !== undefined) assert.doesNotThrow(() => parseE64Profile(p));
      }
    }
  }
});

test('DPP/SDWA variant facts name existing base definitions and agree with their modifiers', () => {
  for (const v of VALU_VARIANTS) {
    const owners = TARGETS.map((t) => lookup(t, v.family, v.opcode)).filter((d) => d !== undefined);
    assert.ok(owners.length > 0, `${v.family} ${v.opcode} ${v.mnemonic}: no base definition`);
  }
  for (const t of TARGETS) {
    for (const fam of ['VOP1', 'VOP2', 'VOPC'] as const) {
      for (const d of definitions(t, fam)) {
        const hasDpp = dppForm(t, fam, d.opcode) !== undefined;
        const hasSdwa = sdwaForm(t, fam, d.opcode) !== undefined;
        assert.equal(d.modifiers?.includes('dpp') === true, hasDpp, `${d.mnemonic} on ${t}: dpp`);
        assert.equal(d.modifiers?.includes('sdwa') === true, hasSdwa, `${d.mnemonic} on ${t}: sdwa`);
      }
    }
  }
});
