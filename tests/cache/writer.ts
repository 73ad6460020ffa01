// A child process for tests/cache/store.test.ts: writes entries into a real cache as fast as it
// can. `writer.ts DIR many TAG N GO`: prints `ready`, waits for the file GO to exist (so that the
// writers start together), then writes N entries of its own (TAG-k) and N shared by every writer
// (shared-k, the same content from each), each read back; prints `ok FIRST LAST` (the times of its
// first and last write). `writer.ts DIR forever`: 1 MiB entries until killed, printing `begin k`
// before each store and `k` once its transaction has committed. Any warning goes to stderr (the
// test wants none).
import { existsSync } from 'node:fs';
import { ShaderCache } from '../../src/cache/store.js';
import { testEntry, testKey } from './entries.js';

const main = async () => {
  const [dir, mode, tag, count, go] = process.argv.slice(2);
  if (!dir || !mode) return;
  const cache = ShaderCache.open({ dir, warn: (m) => process.stderr.write(`warning: ${m}\n`) });
  if (mode === 'many') {
    const n = Number(count ?? 20);
    process.stdout.write('ready\n');
    while (!existsSync(go ?? '')) await new Promise((r) => setTimeout(r, 5));
    const first = Date.now();
    for (let k = 0; k < n; k++) {
      for (const name of [`${tag}-${k}`, `shared-${k}`]) {
        const key = testKey(name);
        if (!cache.put(key, testEntry(name, 4096 + k))) process.stderr.write(`not stored: ${name}\n`);
        const back = cache.get(key);
        if (!back || back.ir !== testEntry(name, 1).ir) process.stderr.write(`read back wrong: ${name}\n`);
      }
    }
    const last = Date.now();
    cache.close();
    process.stdout.write(`ok ${first} ${last}\n`);
  } else if (mode === 'forever') {
    for (let k = 0; ; k++) {
      process.stdout.write(`begin ${k}\n`);
      cache.put(testKey(`big-${k}`), testEntry(`big-${k}`, 1 << 18));
      process.stdout.write(`${k}\n`);
      await new Promise((r) => setImmediate(r));
    }
  }
};
await main();
