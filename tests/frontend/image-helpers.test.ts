// The image instructions' helpers (src/frontend/units/mimg.ts): the per-T# and per-format work (the
// texel offset with its mip chain sums, the format tables' select chains, the component conversions)
// is one helper per (kind, class, gfx103, d16) shared by every instruction and kernel. The results
// are checked by the engine suites (tests/runtime/image*.test.ts, which run each module on the IR
// interpreter and lavapipe); here: the kernels call them, a module holds only the helpers its calls
// name, the copied helpers give the module a walk of their IR gives, and both pass spirv-val.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { recompile } from '../../src/backend/recompile.js';
import { LAVAPIPE_PROFILE } from '../../src/backend/profile.js';
import { emitSpirv } from '../../src/backend/spirv/emit.js';
import { imageVkCases } from '../runtime/image-vk-cases.js';
import type { EngineCase } from '../runtime/cases.js';
import { canonicalSpirv, spirvVal } from '../harness/spirv.js';

function kernels(): Map<string, EngineCase> {
  const m = new Map<string, EngineCase>();
  for (const c of imageVkCases()) if (!m.has(c.spirvName ?? c.name)) m.set(c.spirvName ?? c.name, c);
  return m;
}

test('image kernels call the image helpers; a module holds only the ones it calls; copied = walked; spirv-val', () => {
  const ks = kernels();
  const want: Record<string, readonly string[]> = {
    image_load_2d32: ['image.format-word', 'image.offset.2d.gfx103', 'image.descriptor', 'image.convert', 'image.convert.w'],
    image_load_3d64: ['image.format-word', 'image.offset.3d.gfx103', 'image.descriptor', 'image.convert', 'image.convert.w'],
    // Its d16 loads and the others.
    image_load_d16_a1632: ['image.format-word', 'image.offset.2d.gfx103', 'image.descriptor', 'image.convert', 'image.convert.w', 'image.convert.d16', 'image.convert.w.d16'],
    image_store_2dArray32: ['image.format-word', 'image.offset.2dArray.gfx103', 'image.descriptor', 'image.store-component'],
    image_store_2d_d1632: ['image.format-word', 'image.offset.2d.gfx103', 'image.descriptor', 'image.store-component.d16'],
    // The atomics read no format word or descriptor.
    image_atomic_int32: ['image.offset.2d.gfx103'],
  };
  for (const [name, helpers] of Object.entries(want)) {
    const c = ks.get(name) ?? assert.fail(name);
    const r = recompile(c.shader, { profile: LAVAPIPE_PROFILE });
    const image = r.ir.helpers.map((h) => h.name).filter((n) => n.startsWith('image.'));
    assert.deepEqual([...image].sort(), [...helpers].sort(), name);
    // Every helper the module holds is called.
    const called = new Set<number>();
    for (const b of r.ir.blocks) for (const i of b.insts) {
      if (i.op === 'Call' || i.op === 'CallGuarded' || i.op === 'AtomicRmwCall' || i.op === 'AtomicLdsCall') called.add(Number(i.imms[0]));
      if (i.op === 'CallGuarded') called.add(Number(i.imms[1]));
    }
    r.ir.helpers.forEach((h, k) => assert.ok(called.has(k), `${name}: ${h.name} is not called`));
    const walked = emitSpirv(r.ir, LAVAPIPE_PROFILE, { walkHelpers: true }).spirv;
    assert.equal(canonicalSpirv(r.spirv), canonicalSpirv(walked), name);
    spirvVal(r.spirv, name);
    spirvVal(walked, `${name} (walked)`);
  }
});
