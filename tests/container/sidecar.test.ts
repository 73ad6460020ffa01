// Raw shaders and their JSON sidecars: the published schema is current; the validator agrees with
// an independent JSON Schema validator (Ajv) on generated sidecars and names the bad field; left-out
// fields take the documented defaults and are reported as assumed; every float mode byte reaches
// ShaderInfo intact; bad input is one CodeObjectError, never another exception.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { parseSidecar, sidecarJsonSchema, SIDECAR_DEFAULTS, SIDECAR_FIELDS } from '../../src/container/sidecar.js';
import { loadShaders } from '../../src/container/shader.js';
import { CodeObjectError } from '../../src/container/kernel-descriptor.js';

const SCHEMA_FILE = new URL('../../docs/shader-sidecar.schema.json', import.meta.url);
const CODE = new Uint8Array([0x00, 0x00, 0x81, 0xbf, 0x00, 0x00, 0x80, 0xbf]); // s_endpgm; s_nop 0
const load = (json: unknown) => loadShaders({ bytes: CODE, name: 'shader', sidecar: { text: JSON.stringify(json), where: 'shader.json' } });
const errorOf = (f: () => unknown): string => {
  try { f(); } catch (e) { assert.ok(e instanceof CodeObjectError, `not a CodeObjectError: ${String(e)}`); return e.message; }
  assert.fail('no error');
};

test('docs/shader-sidecar.schema.json is the schema the field table gives (npm run make-schema)', () => {
  assert.deepEqual(JSON.parse(readFileSync(SCHEMA_FILE, 'utf8')), sidecarJsonSchema());
});

test('a minimal sidecar: every left-out field takes its documented default and is listed as assumed', () => {
  const [s] = load({ target: 'gfx1013', stage: 'ps', waveSize: 64 });
  assert.ok(s);
  const i = s.info;
  assert.equal(i.source, 'sidecar');
  assert.equal(i.floatMode, 0xc0);
  assert.equal(i.dx10Clamp, true);
  assert.equal(i.ieeeMode, false);
  assert.equal(i.fp16Overflow, false);
  assert.equal(i.addressableSgprs, 106);
  assert.equal(i.vgprCount, 256);
  assert.deepEqual([...i.assumed].sort(), ['dx10Clamp', 'floatMode', 'fp16Overflow', 'ieeeMode', 'ldsSize', 'scratchSize', 'sgprs', 'userSgprCount', 'vgprs']);
  assert.equal(i.entry, 0);
  assert.deepEqual(i.codeRange, { start: 0, end: 8 });
  assert.equal(s.words.length, 2);
  // SIDECAR_DEFAULTS is what the docs state.
  assert.deepEqual(SIDECAR_DEFAULTS, { floatMode: 0xc0, dx10Clamp: true, ieeeMode: false, fp16Overflow: false, tgidEnable: [true, false, false], tgSizeEnable: false, scratchEnable: false, tidigCompCnt: 0, sgprs: 106, vgprs: 256, ldsSize: 0, scratchSize: 0 });
});

test('every float mode byte, both wave sizes, every stage, both clamp/ieee values reach ShaderInfo as declared', () => {
  const stages = ['cs', 'ps', 'vs', 'gs', 'hs', 'es', 'ls'] as const;
  for (let m = 0; m < 256; m++) {
    for (const waveSize of [32, 64] as const) {
      const stage = stages[m % stages.length] ?? 'cs';
      const dx10Clamp = (m & 1) === 0, ieeeMode = (m & 2) !== 0, fp16Overflow = (m & 4) !== 0;
      const [s] = load({ target: 'gfx1030', stage, waveSize, floatMode: m, dx10Clamp, ieeeMode, fp16Overflow });
      assert.ok(s);
      assert.equal(s.info.floatMode, m);
      assert.equal(s.info.waveSize, waveSize);
      assert.equal(s.info.stage, stage);
      assert.equal(s.info.dx10Clamp, dx10Clamp);
      assert.equal(s.info.ieeeMode, ieeeMode);
      assert.equal(s.info.fp16Overflow, fp16Overflow);
      assert.ok(!s.info.assumed.includes('floatMode') && !s.info.assumed.includes('fp16Overflow'));
    }
  }
});

test('a full sidecar: user-data layout, workgroup size, sizes, entry', () => {
  const [s] = load({
    target: 'gfx1013', stage: 'cs', waveSize: 32, floatMode: 0x3f, dx10Clamp: false, ieeeMode: true, fp16Overflow: true, userSgprCount: 12,
    userSgprs: [{ name: 'srt', sgpr: 0, count: 2 }, { name: 'tsharp', sgpr: 4, count: 8 }], sgprs: 40, vgprs: 64,
    workgroupSize: [8, 8, 4], ldsSize: 4096, scratchSize: 256, entry: 4, tgidEnable: [false, false, true], tgSizeEnable: true, scratchEnable: true, tidigCompCnt: 1,
  });
  assert.ok(s);
  assert.deepEqual(s.info.assumed, []);
  assert.equal(s.info.fp16Overflow, true);
  assert.deepEqual(s.info.userSgprs, [{ kind: 'srt', first: 0, count: 2 }, { kind: 'tsharp', first: 4, count: 8 }]);
  assert.equal(s.info.userSgprCount, 12);
  assert.deepEqual(s.info.systemSgprs, [{ kind: 'workgroup_id_z', first: 12, count: 1 }, { kind: 'workgroup_info', first: 13, count: 1 }, { kind: 'private_segment_wave_offset', first: 14, count: 1 }]);
  assert.deepEqual(s.info.workitemIdVgprs, ['x', 'y']);
  assert.deepEqual(s.info.workgroupSize, [8, 8, 4]);
  assert.equal(s.basePc, 4);
  assert.equal(s.words.length, 1);
  assert.equal(s.words[0], 0xbf800000);
});

test('each bad sidecar is rejected naming the field', () => {
  const base = { target: 'gfx1030', stage: 'cs', waveSize: 32 };
  const cases: [unknown, RegExp][] = [
    [{ ...base, floatMode: 256 }, /field 'floatMode' must be an integer from 0 to 255 \(got 256\)/],
    [{ ...base, floatMode: 1.5 }, /'floatMode'/],
    [{ ...base, floatMode: '0xc0' }, /'floatMode'.*got "0xc0"/],
    [{ ...base, waveSize: 16 }, /'waveSize' must be one of 32, 64/],
    [{ ...base, target: 'gfx1100' }, /'target' must be one of gfx1010, gfx1013, gfx1030/],
    [{ ...base, stage: 'ms' }, /'stage'/],
    [{ target: 'gfx1030', stage: 'cs' }, /field 'waveSize' is missing/],
    [{ ...base, dx10clamp: true }, /field 'dx10clamp' is not a sidecar field/],
    [{ ...base, ieeeMode: 1 }, /'ieeeMode' must be true or false/],
    [{ ...base, fp16Overflow: 'yes' }, /'fp16Overflow' must be true or false/],
    [{ ...base, workgroupSize: [64, 64, 1] }, /'workgroupSize' must have at most 1024 lanes/],
    [{ ...base, stage: 'ps', workgroupSize: [64, 1, 1] }, /'workgroupSize' is for compute shaders/],
    [{ ...base, workgroupSize: [64, 1] }, /'workgroupSize' must be three integers/],
    [{ ...base, userSgprs: [{ name: 'a', sgpr: 0, count: 4 }, { name: 'b', sgpr: 2, count: 2 }] }, /slots 'a' and 'b' overlap/],
    [{ ...base, userSgprCount: 2, userSgprs: [{ name: 'a', sgpr: 0, count: 4 }] }, /slot 'a' .* runs past userSgprCount 2/],
    [{ ...base, userSgprs: [{ name: 'a', sgpr: 0 }] }, /'userSgprs\[0\]\.count'/],
    [{ ...base, userSgprs: [{ name: 'a', sgpr: 0, count: 1, size: 4 }] }, /'userSgprs\[0\]\.size' is not a field/],
    [{ ...base, userSgprs: [{ name: '', sgpr: 0, count: 1 }] }, /'userSgprs\[0\]\.name'/],
    [{ ...base, userSgprCount: 33 }, /'userSgprCount'/],
    [{ ...base, userSgprCount: 20, sgprs: 16 }, /'sgprs' must cover the 20 user SGPRs/],
    [{ ...base, userSgprCount: 16, sgprs: 16 }, /'sgprs' must cover the 16 user SGPRs and the 1 system SGPRs after them/],
    [{ ...base, stage: 'vs', tidigCompCnt: 1 }, /'tidigCompCnt' is for compute shaders/],
    [{ ...base, tidigCompCnt: 3 }, /'tidigCompCnt' must be an integer from 0 to 2/],
    [{ ...base, tgidEnable: [true, false] }, /'tgidEnable' must be three booleans/],
    [{ ...base, entry: 2 }, /'entry' .*multiple of 4/],
    [{ ...base, entry: 8 }, /'entry' is 8, but the code has 8 bytes/],
    [{ ...base, ldsSize: 65537 }, /'ldsSize'/],
    [[base], /must be a JSON object/],
  ];
  for (const [json, re] of cases) assert.match(errorOf(() => load(json)), re, JSON.stringify(json));
  assert.match(errorOf(() => loadShaders({ bytes: CODE, name: 's', sidecar: { text: '{"target": ', where: 'x.json' } })), /^x\.json: not valid JSON: /);
  assert.match(errorOf(() => loadShaders({ bytes: CODE, name: 's' })), /needs its JSON sidecar/);
});

// Ajv (an independent JSON Schema implementation) on the published schema must agree with
// parseSidecar on every generated sidecar: where Ajv rejects, we reject naming one of the fields
// Ajv names; where Ajv accepts, we accept unless a cross-field rule (the schema's description)
// is broken, which the test then checks itself.
test('the validator agrees with Ajv on the published schema (property)', () => {
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  const validate = ajv.compile(sidecarJsonSchema());
  // Integers at and around every bound of the schema, and some anywhere.
  const edge = fc.constantFrom(-1, 0, 1, 2, 3, 4, 15, 16, 17, 31, 32, 33, 64, 105, 106, 107, 255, 256, 257, 1024, 1025, 65536, 65537, 0x7ffffffc, 0x7fffffff, 0x80000000);
  const anyValue = fc.oneof(edge, edge, fc.integer({ min: -5, max: 70000 }), fc.double(), fc.boolean(), fc.string({ maxLength: 6 }), fc.constant(null),
    fc.constantFrom('gfx1030', 'gfx1013', 'cs', 'ps', 32, 64, 255, 0xc0), fc.array(fc.oneof(edge, fc.integer({ min: 0, max: 1100 })), { maxLength: 4 }),
    fc.array(fc.record({ name: fc.constantFrom('a', 'b', ''), sgpr: fc.integer({ min: -1, max: 33 }), count: fc.integer({ min: 0, max: 17 }) }), { maxLength: 3 }));
  // Mostly valid sidecars (valid values per field, hand-picked), then one field set to anything:
  // so that a single wrong field is not hidden behind another.
  const valid: Record<string, fc.Arbitrary<unknown>> = {
    floatMode: fc.integer({ min: 0, max: 255 }), dx10Clamp: fc.boolean(), ieeeMode: fc.boolean(), fp16Overflow: fc.boolean(),
    userSgprCount: fc.integer({ min: 8, max: 32 }), userSgprs: fc.constant([{ name: 'a', sgpr: 0, count: 4 }, { name: 'b', sgpr: 4, count: 2 }]),
    sgprs: fc.integer({ min: 32, max: 106 }), vgprs: fc.integer({ min: 1, max: 256 }), workgroupSize: fc.constant([8, 8, 1]),
    ldsSize: fc.integer({ min: 0, max: 65536 }), scratchSize: fc.integer({ min: 0, max: 1 << 20 }), entry: fc.constant(0), $schema: fc.string(),
    tgidEnable: fc.tuple(fc.boolean(), fc.boolean(), fc.boolean()), tgSizeEnable: fc.boolean(), scratchEnable: fc.boolean(), tidigCompCnt: fc.integer({ min: 0, max: 2 }),
  };
  const names = [...SIDECAR_FIELDS.map((f) => f.name), 'bogus'];
  const sidecar = fc.record({ target: fc.constantFrom('gfx1030', 'gfx1013', 'gfx1010'), stage: fc.constantFrom('cs', 'ps', 'vs'), waveSize: fc.constantFrom(32, 64) })
    .chain((base) => fc.subarray(Object.keys(valid)).chain((keys) => fc.tuple(...keys.map((k) => valid[k] ?? fc.constant(0))).map((vals) => {
      const o: Record<string, unknown> = { ...base };
      keys.forEach((k, i) => { o[k] = vals[i]; });
      return o;
    })))
    .chain((o) => fc.option(fc.tuple(fc.constantFrom(...names), anyValue), { freq: 3 }).map((m) => {
      const c = { ...o };
      if (m) c[m[0]] = m[1];
      return c;
    }));
  fc.assert(fc.property(sidecar, (o) => {
    const text = JSON.stringify(o);
    const ajvOk = validate(o);
    let ours: string | undefined;
    try { parseSidecar(text, 's.json'); } catch (e) { assert.ok(e instanceof CodeObjectError); ours = e.message; }
    if (!ajvOk) {
      assert.ok(ours !== undefined, `Ajv rejects ${text} (${ajv.errorsText(validate.errors)}), we accept`);
      const fields = new Set((validate.errors ?? []).map((e) => (e.instancePath.split('/')[1] ?? (e.params as { missingProperty?: string; additionalProperty?: string }).missingProperty ?? (e.params as { additionalProperty?: string }).additionalProperty ?? '')));
      const named = /field '([^'.[]+)/.exec(ours)?.[1];
      assert.ok(named !== undefined && fields.has(named), `we name ${named}, Ajv names ${[...fields].join(', ')} for ${text}`);
    } else if (ours !== undefined) {
      // A cross-field rule: check the claim independently.
      const slots = (o['userSgprs'] as { sgpr: number; count: number }[] | undefined) ?? [];
      const wg = o['workgroupSize'] as number[] | undefined;
      const end = Math.max(0, ...slots.map((s) => s.sgpr + s.count));
      const count = (o['userSgprCount'] as number | undefined) ?? end;
      const overlap = slots.some((a, i) => slots.some((b, j) => i < j && a.sgpr < b.sgpr + b.count && b.sgpr < a.sgpr + a.count));
      // A compute shader's system SGPRs follow its user SGPRs: enabled workgroup ids (x by
      // default), TG_SIZE, the scratch wave offset; the launch fields are for stage cs only.
      const cs = o['stage'] === 'cs';
      const launchFields = ['tgidEnable', 'tgSizeEnable', 'scratchEnable', 'tidigCompCnt'].filter((k) => o[k] !== undefined);
      const system = cs ? ((o['tgidEnable'] as boolean[] | undefined) ?? [true, false, false]).filter(Boolean).length + (o['tgSizeEnable'] === true ? 1 : 0) + (o['scratchEnable'] === true ? 1 : 0) : 0;
      const broken = overlap || end > count || count > 32 || (wg !== undefined && (!cs || (wg[0] ?? 0) * (wg[1] ?? 0) * (wg[2] ?? 0) > 1024))
        || (!cs && launchFields.length > 0) || (o['sgprs'] !== undefined && count + system > (o['sgprs'] as number));
      assert.ok(broken, `Ajv accepts ${text}, we reject: ${ours}`);
    }
  }), { numRuns: 3000, seed: 20261201 });
});

test('fuzz: any bytes as a sidecar give one CodeObjectError line or a shader', () => {
  const good = JSON.stringify({ target: 'gfx1030', stage: 'cs', waveSize: 32, floatMode: 3, userSgprs: [{ name: 'a', sgpr: 0, count: 2 }] });
  fc.assert(fc.property(fc.integer({ min: 0, max: good.length }), fc.string({ maxLength: 8 }), fc.integer({ min: 0, max: good.length }), (at, ins, cut) => {
    const text = (good.slice(0, at) + ins + good.slice(at)).slice(0, cut + ins.length);
    try { loadShaders({ bytes: CODE, name: 's', sidecar: { text, where: 's.json' } }); } catch (e) {
      assert.ok(e instanceof CodeObjectError, String(e));
      assert.ok(!e.message.includes('\n'), e.message);
    }
  }), { numRuns: 3000, seed: 7 });
});

test('the documented float defaults are what llvm-mc-19 gives a kernel without float directives', async () => {
  const { spawnSync } = await import('node:child_process');
  const { mkdtempSync, writeFileSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const d = mkdtempSync(join(tmpdir(), 'rdna-defaults-'));
  writeFileSync(join(d, 'k.s'), '.text\n.p2align 8\n.type k,@function\nk:\n  s_endpgm\n.rodata\n.p2align 6\n.amdhsa_kernel k\n  .amdhsa_next_free_vgpr 1\n  .amdhsa_next_free_sgpr 1\n.end_amdhsa_kernel\n');
  const r = spawnSync('llvm-mc-19', ['-triple=amdgcn-amd-amdhsa', '-mcpu=gfx1013', '-filetype=obj', join(d, 'k.s'), '-o', join(d, 'k.o')], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const [k] = loadShaders({ bytes: new Uint8Array(readFileSync(join(d, 'k.o'))), name: 'k' });
  assert.ok(k);
  assert.equal(k.info.floatMode, SIDECAR_DEFAULTS.floatMode);
  assert.equal(k.info.dx10Clamp, SIDECAR_DEFAULTS.dx10Clamp);
  // HSA kernels default to IEEE mode on; non-kernel shaders (what sidecars describe) to off.
  assert.equal(k.info.ieeeMode, true);
});
