// Synthetic cache entries for the store tests and their child processes (writer.ts): every field
// derived from a name, so a reader can check what it gets back.
import { createHash } from 'node:crypto';
import type { CacheKey } from '../../src/cache/key.js';
import type { CompiledShader } from '../../src/cache/entry.js';

export function testKey(name: string, build = 'test-build'): CacheKey {
  const json = JSON.stringify({ test: name, build });
  return { json, hash: createHash('sha256').update(json).digest('hex'), build };
}

/** A synthetic entry whose every field is derived from `name` (spirvWords words). */
export function testEntry(name: string, spirvWords: number): CompiledShader {
  const seed = createHash('sha256').update(name).digest().readUInt32LE(0);
  const spirv = new Uint32Array(spirvWords);
  for (let i = 0; i < spirv.length; i++) spirv[i] = (Math.imul(seed ^ i, 0x9e3779b1) + i) >>> 0;
  return {
    spirv,
    ir: `function ${name} (wave32)\nb0:\n  Return\n`,
    diagnostics: [{ pc: 0, instruction: 's_endpgm', words: [0xbf810000], code: 'test', severity: 'note', message: name }],
    floatOps: [{ pc: 4, op: 'FAdd32', lowering: 'native' }],
    faults: [],
    controlFlow: 'structured',
    dispatch: 'wave',
    laneExchange: { kind: 'workgroup-memory', why: name },
  };
}
