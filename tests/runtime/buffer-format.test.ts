// Buffer format conversions, the d16 buffer loads and stores (issue 7) and the converting format
// stores on three engines: each
// case of ./cases-buffer-format.ts runs on the RDNA interpreter (the oracle), on the IR
// interpreter (the translation) and recompiled on lavapipe with the validation layer on; each
// module passes spirv-val; every buffer must equal the interpreter's byte for byte. Then the
// refusals: format stores naming fewer components than a 10/11/2-bit format has and d16 forms of
// the 32-bit formats, at translation (MTBUF)
// or as a run-time fault (a MUBUF V# format).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { recompile } from '../../src/backend/recompile.js';
import { LAVAPIPE_PROFILE } from '../../src/backend/profile.js';
import { TranslateError } from '../../src/frontend/errors.js';
import { RuntimeFault } from '../../src/ir/faults.js';
import { VulkanDevice } from '../../src/runtime/vulkan.js';
import { spirvVal } from '../harness/spirv.js';
import { assemble } from '../interp/harness.js';
import { both, LVP, same } from './harness.js';
import { type EngineCase, irRun } from './cases.js';
import { bufferFormatCases } from './cases-buffer-format.js';

test('buffer format loads (every number format, static and run-time formats, 32-bit and d16 results), d16 buffer loads, d16 format stores and converting format stores (static and run-time formats, f32 / integer / d16 channels): the IR interpreter and lavapipe equal the interpreter, wave32 and wave64', async () => {
  assert.ok(LVP, 'lavapipe (mesa-vulkan-drivers) is not installed');
  const dev = VulkanDevice.open({ driverFiles: LVP, validation: true });
  try {
    const validated = new Set<string>();
    for (const c of bufferFormatCases()) {
      if (!validated.has(c.spirvName)) spirvVal(recompile(c.shader, { profile: LAVAPIPE_PROFILE }).spirv, c.spirvName);
      validated.add(c.spirvName);
      const [ref, vk] = await both(dev, c);
      if (c.spirvName.startsWith('format_store')) {
        // The converting stores changed most of the target's bytes (it starts random).
        const before = c.buffers[1] as Uint8Array, after = ref[1] as Uint8Array;
        assert.ok(after.filter((b, k) => b !== before[k]).length > before.length / 3, `${c.name} stored`);
      } else assert.ok(ref[0]?.some((v) => v !== 0), `${c.name} wrote its results`);
      same(`${c.name} (IR interpreter)`, [ref, irRun(c)]);
      same(`${c.name} (Vulkan)`, [ref, vk]);
    }
  } finally {
    dev.close();
  }
});

test('format stores naming fewer of a 10/11/2-bit format\'s components and d16 forms of the 32-bit formats: MTBUF refused by the translation, a MUBUF V# format a run-time fault', () => {
  for (const [asm, why] of [
    ['tbuffer_store_format_xy v[2:3], v1, s[8:11], 0 format:[BUF_FMT_10_11_11_FLOAT] offen', /tbuffer_store_format_xy with BUF_FMT_10_11_11_FLOAT: a format store naming 2 of the format's 3 components, which are not whole bytes, is not translated/],
    ['tbuffer_store_format_d16_x v2, v1, s[8:11], 0 format:[BUF_FMT_32_FLOAT] offen', /tbuffer_store_format_d16_x with BUF_FMT_32_FLOAT: d16 forms of the 32-bit formats are not translated/],
    ['tbuffer_load_format_d16_xy v2, v1, s[8:11], 0 format:[BUF_FMT_32_32_FLOAT] offen', /d16 forms of the 32-bit formats are not translated/],
  ] as const) {
    const k = assemble('gfx1030', [{ name: 'refused', body: `v_mov_b32 v1, 0\n  ${asm}\n  s_endpgm` }]).get('refused');
    assert.ok(k);
    assert.throws(() => recompile(k, { profile: LAVAPIPE_PROFILE }), (e: unknown) => e instanceof TranslateError && e.message.startsWith('pc 0x4: ') && why.test(e.message), asm);
  }
  // MUBUF: V# formats 2_10_10_10_UNORM (a store naming fewer of its 10/2-bit components) and 32_FLOAT (d16): faults in every run.
  for (const [format, asm] of [[50, 'buffer_store_format_xy v[2:3], v1, s[8:11], 0 offen'], [22, 'buffer_load_format_d16_x v2, v1, s[8:11], 0 offen'], [22, 'buffer_store_format_d16_x v2, v1, s[8:11], 0 offen']] as const) {
    const body = `
  s_load_dwordx2 s[8:9], s[0:1], 0x0
  s_waitcnt lgkmcnt(0)
  s_and_b32 s9, s9, 0xffff
  s_mov_b32 s10, 64
  s_mov_b32 s11, 0x${((format << 12) | (3 << 28) | 0xfac).toString(16)}
  v_mov_b32 v1, 0
  v_mov_b32 v2, 0
  ${asm}
  s_endpgm`;
    const k = assemble('gfx1030', [{ name: 'fault', body }]).get('fault');
    assert.ok(k);
    const c: EngineCase = { name: asm, spirvName: 'fault', code: new Uint8Array(), kernel: 'fault', shader: k, buffers: [new Uint8Array(64)], grid: [32, 1, 1], block: [32, 1, 1], scalars: [] };
    assert.throws(() => irRun(c), (e: unknown) => e instanceof RuntimeFault && /a buffer format load\/store with a V# format the interpreter does not implement/.test(e.message), asm);
  }
});
