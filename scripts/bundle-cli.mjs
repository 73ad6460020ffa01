// The CLI's bundle (`npm run build`, after tsc): esbuild joins the built CLI (dist/cli/*.js, tsc's
// own output, not the sources again) into a few files under dist/bundle/, which bin/rdna runs.
// Node's ESM loader resolving, reading and compiling the ~240 modules of dist/ one by one took
// most of a short command's time; the library (dist/**/*.js) stays as tsc wrote it.
// - Split at each dynamic import(): a command still loads only its own code (src/cli/main.ts), and
//   a package only that code imports (@viz-js/viz: cfg --svg) is not loaded by the others.
// - Packages stay outside (better-sqlite3 and its native addon, @msgpack/msgpack, @viz-js/viz):
//   Node resolves them from node_modules as before.
// - dist/bundle/ is as deep as dist/cli/, so what the code finds relative to import.meta.url is
//   found from the bundle too: the workers ('./disasm-worker.js', './compile-all-worker.js': entry
//   points here, checked below), the Vulkan addon ('../../build/Release/'), and the cache's build
//   id ('..': every dist/**/*.js, this bundle included, src/cache/key.ts).
// `node scripts/bundle-cli.mjs --check` writes nothing: it bundles dist/ again in memory and exits 1
// if dist/bundle/ is not exactly that (tsc ran after the bundle; tests/cli-bundle.test.ts).
import { build } from 'esbuild';
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const outdir = 'dist/bundle';
const check = process.argv.includes('--check');

/** @type {import('esbuild').BuildOptions} */
const options = {
  absWorkingDir: root,
  entryPoints: ['dist/cli/main.js', 'dist/cli/disasm-worker.js', 'dist/cli/compile-all-worker.js'],
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  logLevel: 'warning',
  write: false,
};

const fail = (msg) => {
  process.stderr.write(`bundle-cli: ${msg}\n`);
  process.exit(1);
};

let result;
try {
  result = await build(options);
} catch (e) {
  fail(`esbuild failed (${(e instanceof Error ? e.message : String(e)).split('\n')[0]}); run 'npm run build'`);
}
const files = new Map(result.outputFiles.map((f) => [relative(join(root, outdir), f.path).split('\\').join('/'), f.contents]));

// Every file a bundle starts by URL beside itself (a Worker) must be one of its outputs.
for (const [name, bytes] of files) {
  for (const m of Buffer.from(bytes).toString('utf8').matchAll(/new URL\("\.\/([^"]+)", import\.meta\.url\)/g)) {
    if (!files.has(m[1])) fail(`${name} starts ./${m[1]}, which is not an entry point of the bundle (add it to scripts/bundle-cli.mjs)`);
  }
}

const dir = join(root, outdir);
if (check) {
  let have;
  try { have = readdirSync(dir).sort(); } catch { fail(`${outdir}/ is missing; run 'npm run build'`); }
  const want = [...files.keys()].sort();
  if (have.join('\n') !== want.join('\n')) fail(`${outdir}/ does not hold the bundle of dist/ (its files differ); run 'npm run build'`);
  for (const [name, bytes] of files) {
    if (!Buffer.from(bytes).equals(readFileSync(join(dir, name)))) fail(`${outdir}/${name} is not the bundle of dist/ (stale); run 'npm run build'`);
  }
} else {
  // Chunk names carry a hash of their contents: clear the old ones first.
  rmSync(dir, { recursive: true, force: true });
  for (const [name, bytes] of files) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), bytes);
  }
}
