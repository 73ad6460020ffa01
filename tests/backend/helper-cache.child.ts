// The fresh process of tests/backend/helper-cache.test.ts: compiles the named kernels of its corpus
// in the order given and prints the SHA-256 of each module's words, one a line.
import { createHash } from 'node:crypto';
import { recompile } from '../../src/backend/recompile.js';
import { helperCacheShaders } from './helper-cache.kernels.js';

const shaders = helperCacheShaders();
for (const n of process.argv.slice(2)) {
  const s = shaders.find((x) => x.info.name === n);
  if (!s) throw new Error(`no kernel ${n}`);
  const w = recompile(s).spirv;
  process.stdout.write(`${createHash('sha256').update(new Uint8Array(w.buffer, w.byteOffset, w.byteLength)).digest('hex')}\n`);
}
