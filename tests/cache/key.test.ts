// The shader cache key (src/cache/key.ts) against a real SQLite cache: the same shader hits; each
// field the output depends on, changed alone, misses; what the key leaves out (the code section's
// name, unreachable bytes) does not. Shaders are real code objects assembled by llvm-mc-19.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LAVAPIPE_PROFILE, NVIDIA_H200_PROFILE, PORTABLE_PROFILE, type TargetProfile } from '../../src/backend/profile.js';
import { maxWorkItems, recompile } from '../../src/backend/recompile.js';
import type { Shader } from '../../src/container/shader.js';
import type { ShaderInfo } from '../../src/container/shader-info.js';
import { CachedRefusal, compileCached } from '../../src/cache/compile.js';
import { TranslateError } from '../../src/frontend/errors.js';
import { buildId, cacheKey, canonicalJson, EXCLUDED_INFO_FIELDS } from '../../src/cache/key.js';
import { ShaderCache } from '../../src/cache/store.js';
import { assembleShaders } from '../harness/kernel.js';

const BODY = `
  s_load_dwordx2 s[2:3], s[0:1], 0x0
  s_waitcnt lgkmcnt(0)
  v_lshlrev_b32 v1, 2, v0
  global_load_dword v2, v1, s[2:3]
  s_waitcnt vmcnt(0)
  v_add_f32 v2, 0.5, v2
  v_mul_f32 v2, v2, v2
  global_store_dword v1, v2, s[2:3]
  s_endpgm
  s_nop 0`;
const DIRECTIVES = ['.amdhsa_user_sgpr_kernarg_segment_ptr 1'];

const shaders = assembleShaders('gfx1030', [
  { name: 'k', body: BODY, directives: DIRECTIVES },
  { name: 'k_ftz', body: BODY, directives: DIRECTIVES, floatMode: 0xf0 },
]);
const base = shaders.get('k') as Shader;
const withInfo = (s: Shader, change: Partial<ShaderInfo>): Shader => ({ ...s, info: { ...s.info, ...change } });
const withWord = (s: Shader, index: number, word: number): Shader => {
  const words = s.words.slice();
  words[index] = word;
  return { ...s, words };
};

function freshCache(limit?: number): ShaderCache {
  const warnings: string[] = [];
  const c = ShaderCache.open({ dir: mkdtempSync(join(tmpdir(), 'rdna-cache-key-')), ...(limit ? { limit } : {}), warn: (m) => warnings.push(m) });
  assert.ok(c.usable, warnings.join('\n'));
  return c;
}

test('cache: a miss stores, the same shader then hits with the same result', () => {
  const cache = freshCache();
  const miss = compileCached(base, LAVAPIPE_PROFILE, cache);
  assert.equal(miss.cache, 'miss');
  const hit = compileCached(base, LAVAPIPE_PROFILE, cache);
  assert.equal(hit.cache, 'hit');
  const fresh = recompile(base, { profile: LAVAPIPE_PROFILE });
  assert.deepEqual(Array.from(hit.compiled.spirv), Array.from(fresh.spirv));
  assert.equal(hit.compiled.ir, miss.compiled.ir);
  assert.equal(JSON.stringify(hit.compiled.diagnostics), JSON.stringify(fresh.diagnostics));
  assert.equal(JSON.stringify(hit.compiled.floatOps), JSON.stringify(fresh.floatOps));
  assert.equal(JSON.stringify(hit.compiled.faults), JSON.stringify(fresh.faults));
  assert.equal(hit.compiled.controlFlow, fresh.controlFlow);
  assert.equal(compileCached(base, LAVAPIPE_PROFILE, undefined).cache, 'off');
  // workItems is part of the key: another value misses, then hits; the default's entry stays.
  const n = Math.min(64, maxWorkItems(base.info));
  assert.equal(compileCached(base, LAVAPIPE_PROFILE, cache, undefined, n).cache, 'miss');
  assert.equal(compileCached(base, LAVAPIPE_PROFILE, cache, undefined, n).cache, 'hit');
  assert.equal(compileCached(base, LAVAPIPE_PROFILE, cache).cache, 'hit');
  assert.notEqual(cacheKey(base, LAVAPIPE_PROFILE, { workItems: n }).hash, cacheKey(base, LAVAPIPE_PROFILE).hash);
  cache.close();
});

// One case per field the key must cover: the variant differs from `base` in that alone.
const otherProfile = (p: TargetProfile, f: (q: TargetProfile) => TargetProfile) => f(p);
const firstFloatWord = (() => {
  // The word of v_add_f32's literal-free encoding: flip its vdst to v3 (a different instruction of the same length).
  const i = base.words.findIndex((w, k) => k > 4 && (w >>> 25) === 0x03);
  assert.ok(i > 0, 'v_add_f32 word found');
  return i;
})();
const variants: [string, () => { shader: Shader; profile: TargetProfile; build?: string }][] = [
  ['float mode byte', () => ({ shader: withInfo(base, { floatMode: 0xf0 }), profile: LAVAPIPE_PROFILE })],
  ['dx10 clamp', () => ({ shader: withInfo(base, { dx10Clamp: !base.info.dx10Clamp }), profile: LAVAPIPE_PROFILE })],
  ['ieee mode', () => ({ shader: withInfo(base, { ieeeMode: !base.info.ieeeMode }), profile: LAVAPIPE_PROFILE })],
  ['fp16 overflow', () => ({ shader: withInfo(base, { fp16Overflow: !base.info.fp16Overflow }), profile: LAVAPIPE_PROFILE })],
  ['wave size', () => ({ shader: withInfo(base, { waveSize: 64 }), profile: LAVAPIPE_PROFILE })],
  ['stage', () => ({ shader: withInfo(base, { stage: 'ps' }), profile: LAVAPIPE_PROFILE })],
  ['user SGPR layout', () => ({ shader: withInfo(base, { userSgprs: [{ kind: 'dispatch_ptr', first: 0, count: 2 }] }), profile: LAVAPIPE_PROFILE })],
  ['target', () => ({ shader: withInfo(base, { target: 'gfx1010' }), profile: LAVAPIPE_PROFILE })],
  ['profile (another named one)', () => ({ shader: base, profile: NVIDIA_H200_PROFILE })],
  ['profile (one float control)', () => ({ shader: base, profile: otherProfile(LAVAPIPE_PROFILE, (p) => ({ ...p, f32: { ...p.f32, denormPreserve: true } })) })],
  ['profile (same controls, another name)', () => ({ shader: base, profile: { ...PORTABLE_PROFILE, name: 'portable2' } })],
  ['code bytes', () => ({ shader: withWord(base, firstFloatWord, ((base.words[firstFloatWord] ?? 0) & ~(0xff << 17)) | (3 << 17)), profile: LAVAPIPE_PROFILE })],
  ['build version', () => ({ shader: base, profile: LAVAPIPE_PROFILE, build: `${buildId()}-other` })],
];

for (const [field, make] of variants) {
  test(`cache: changing the ${field} misses`, () => {
    const cache = freshCache();
    assert.equal(compileCached(base, LAVAPIPE_PROFILE, cache).cache, 'miss');
    const v = make();
    const key = cacheKey(v.shader, v.profile, v.build !== undefined ? { build: v.build } : {});
    assert.notEqual(key.hash, cacheKey(base, LAVAPIPE_PROFILE).hash);
    assert.equal(cache.get(key), undefined, `${field}: a different shader must not hit`);
    assert.equal(compileCached(base, LAVAPIPE_PROFILE, cache).cache, 'hit', 'the original still hits');
    cache.close();
  });
}

test('cache: two code objects that differ only in the initial float mode never share an entry', () => {
  const ftz = shaders.get('k_ftz') as Shader;
  assert.equal(ftz.info.floatMode, 0xf0);
  assert.deepEqual(Array.from(ftz.words), Array.from(base.words), 'the same code');
  const onlyMode = withInfo(base, { floatMode: 0xf0 });
  assert.equal(cacheKey(onlyMode, LAVAPIPE_PROFILE).json.replace('"floatMode":240', '"floatMode":192'), cacheKey(base, LAVAPIPE_PROFILE).json, 'the float mode is the only difference');
  const cache = freshCache();
  assert.equal(compileCached(base, LAVAPIPE_PROFILE, cache).cache, 'miss');
  for (const s of [ftz, onlyMode]) {
    const r = compileCached(s, LAVAPIPE_PROFILE, cache);
    assert.equal(r.cache, 'miss');
    assert.deepEqual(Array.from(r.compiled.spirv), Array.from(recompile(s, { profile: LAVAPIPE_PROFILE }).spirv));
    assert.notDeepEqual(Array.from(r.compiled.spirv), Array.from(compileCached(base, LAVAPIPE_PROFILE, cache).compiled.spirv));
  }
  cache.close();
});

test('cache key: what it leaves out (the code section name, unreachable bytes) still hits', () => {
  assert.deepEqual(EXCLUDED_INFO_FIELDS, ['codeSection']);
  const cache = freshCache();
  assert.equal(compileCached(base, LAVAPIPE_PROFILE, cache).cache, 'miss');
  assert.equal(compileCached(withInfo(base, { codeSection: '.text.other' }), LAVAPIPE_PROFILE, cache).cache, 'hit');
  // The s_nop after s_endpgm is not reachable: changing it changes nothing the recompiler reads.
  const last = base.words.length - 1;
  assert.equal(compileCached(withWord(base, last, 0xbf800005), LAVAPIPE_PROFILE, cache).cache, 'hit');
  // The name is kept: `--emit ir` prints it.
  assert.equal(compileCached(withInfo(base, { name: 'renamed' }), LAVAPIPE_PROFILE, cache).cache, 'miss');
  cache.close();
});

test('canonicalJson: sorted keys at every level, undefined left out, bigints tagged', () => {
  assert.equal(canonicalJson({ b: 1, a: { d: [1, undefined, { z: 1, y: 2n }], c: undefined } }), '{"a":{"d":[1,null,{"y":{"bigint":"2"},"z":1}]},"b":1}');
  assert.equal(canonicalJson(new Uint32Array([1, 2])), '[1,2]');
  assert.throws(() => canonicalJson({ f: () => 1 }), /function has no JSON form/);
  assert.throws(() => canonicalJson(NaN), /no JSON form/);
  assert.match(buildId(), /^[0-9a-f]{64}$/);
  assert.equal(buildId(), buildId());
});

test('cache: a refusal is stored and raised again with the same message, pc and instruction', () => {
  const refused = assembleShaders('gfx1030', [{ name: 'exp', body: '  v_mov_b32 v1, 0\n  v_mullit_f32 v1, v0, v0, v0\n  s_endpgm', directives: DIRECTIVES }]).get('exp') as Shader;
  const cache = freshCache();
  let first: unknown;
  assert.throws(() => compileCached(refused, LAVAPIPE_PROFILE, cache), (e: unknown) => { first = e; return e instanceof TranslateError; });
  const stored = cache.lookup(cacheKey(refused, LAVAPIPE_PROFILE));
  assert.ok(stored && 'refusal' in stored, 'the refusal is an entry');
  assert.equal(cache.get(cacheKey(refused, LAVAPIPE_PROFILE)), undefined, 'get() gives compiled shaders only');
  assert.throws(() => compileCached(refused, LAVAPIPE_PROFILE, cache), (e: unknown) => {
    assert.ok(e instanceof CachedRefusal);
    assert.ok(first instanceof TranslateError);
    assert.equal(e.message, first.message);
    assert.match(e.message, /^pc 0x4: v_mullit_f32 v1, v0, v0, v0 \([0-9a-f ]+\): v_mullit_f32 is not translated yet$/);
    assert.equal(e.pc, 4);
    assert.equal(e.instruction, 'v_mullit_f32 v1, v0, v0, v0');
    return true;
  });
  // A different build retries it.
  assert.throws(() => compileCached(refused, LAVAPIPE_PROFILE, cache, 'another-build'), TranslateError);
  cache.close();
});

test('cache key: the words of a function the kernel calls (beside its own range) are in the key; an uncalled function\'s are not', () => {
  const body = `
  s_load_dwordx2 s[2:3], s[0:1], 0x0
  s_getpc_b64 s[4:5]
.Lkc_pc:
  s_add_u32 s4, s4, kc_fn-.Lkc_pc
  s_addc_u32 s5, s5, 0
  s_swappc_b64 s[30:31], s[4:5]
  s_waitcnt lgkmcnt(0)
  global_store_dword v1, v2, s[2:3]
  s_endpgm`;
  const s = assembleShaders('gfx1030', [{
    name: 'kc', body, directives: DIRECTIVES,
    functions: [{ name: 'kc_fn', body: 'v_lshlrev_b32 v1, 2, v0\n  v_add_nc_u32 v2, 3, v0\n  s_setpc_b64 s[30:31]' }, { name: 'kc_unused', body: 'v_mov_b32 v2, 0\n  s_setpc_b64 s[30:31]' }],
  }]).get('kc') as Shader;
  const fn = (name: string) => s.functions?.find((f) => f.name === name);
  assert.ok(fn('kc_fn') && fn('kc_unused'));
  /** `s` with word `index` of function `name` replaced (the functions are shared, so copied). */
  const withFnWord = (name: string, index: number, word: number): Shader => ({
    ...s, functions: (s.functions ?? []).map((f) => {
      if (f.name !== name) return f;
      const words = f.words.slice();
      words[index] = word;
      return { ...f, words };
    }),
  });
  const key = cacheKey(s, LAVAPIPE_PROFILE).hash;
  // v_add_nc_u32 v2, 3, v0 → v_add_nc_u32 v2, 4, v0 (inline constant 3 → 4) in the callee: another key, and other SPIR-V.
  const changed = withFnWord('kc_fn', 1, 0x4a040084);
  assert.notEqual(cacheKey(changed, LAVAPIPE_PROFILE).hash, key);
  assert.notDeepEqual(Array.from(recompile(changed).spirv), Array.from(recompile(s).spirv));
  // The function no call reaches: the same key.
  assert.equal(cacheKey(withFnWord('kc_unused', 0, 0x7e040281), LAVAPIPE_PROFILE).hash, key);
});
