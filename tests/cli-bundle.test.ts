// bin/rdna runs the CLI's bundle (dist/bundle/, scripts/bundle-cli.mjs), the bundle is that of
// today's dist/, and a bundle that tsc left behind (or none) is never what runs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const ROOT = new URL('..', import.meta.url).pathname;
const BIN = join(ROOT, 'bin/rdna');
const SAMPLE = join(ROOT, 'samples/vector_add.gfx1030.o');

test('dist/bundle/ is exactly the bundle of the built dist/ (npm run build wrote it after tsc)', () => {
  const r = spawnSync(process.execPath, [join(ROOT, 'scripts/bundle-cli.mjs'), '--check'], { encoding: 'utf8', timeout: 60_000 });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stderr, '');
});

/**
 * Runs bin/rdna with a module hook that logs the URL of every module Node's ESM loader resolves
 * (the project's files and the packages'), one a line: which entry point ran, what it loaded.
 */
function loadedModules(args: readonly string[]): { status: number | null; stderr: string; urls: string[] } {
  const log = join(mkdtempSync(join(tmpdir(), 'rdna-bundle-log-')), 'modules');
  writeFileSync(log, '');
  const hooks = `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const r = await next(specifier, context);
  if (r.url.startsWith('file:')) appendFileSync(${JSON.stringify(log)}, r.url + '\\n');
  return r;
}`;
  const register = `import { register } from 'node:module'; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hooks)}`)});`;
  const r = spawnSync(process.execPath, ['--import', `data:text/javascript,${encodeURIComponent(register)}`, BIN, ...args], { encoding: 'utf8', timeout: 60_000 });
  return { status: r.status, stderr: r.stderr, urls: readFileSync(log, 'utf8').split('\n').filter((l) => l !== '') };
}

test('bin/rdna runs the bundle: no module of dist/ outside dist/bundle/ is loaded; a command loads only its own packages', () => {
  const dist = pathToFileURL(join(ROOT, 'dist')).href + '/';
  const out = join(mkdtempSync(join(tmpdir(), 'rdna-bundle-')), 'v.spv');
  for (const args of [['disasm', SAMPLE], ['compile', '--json', '--no-cache', '-o', out, SAMPLE]]) {
    const r = loadedModules(args);
    assert.equal(r.status, 0, r.stderr);
    assert.ok(r.urls.includes(`${dist}bundle/main.js`), `${args[0]}: dist/bundle/main.js ran (npm run build writes it; loaded first: ${r.urls.slice(0, 3).join(' ')})`);
    const outside = r.urls.filter((u) => u.startsWith(dist) && !u.startsWith(`${dist}bundle/`));
    assert.deepEqual(outside, [], `${args[0]}: modules of dist/ outside the bundle`);
    // @viz-js/viz (cfg --svg only) takes ~30 ms to load: the bundle keeps it behind cfg's import().
    assert.deepEqual(r.urls.filter((u) => u.includes('/@viz-js/')), [], `${args[0]}: loads @viz-js/viz`);
  }
});

test('bin/rdna runs dist/cli/main.js when the bundle is older than it (tsc alone ran) or missing; neither is one line, exit 1', () => {
  // A copy of bin/rdna over two stand-in entry points that say which one ran.
  const dir = mkdtempSync(join(tmpdir(), 'rdna-bundle-pick-'));
  try {
    mkdirSync(join(dir, 'bin'));
    mkdirSync(join(dir, 'dist/bundle'), { recursive: true });
    mkdirSync(join(dir, 'dist/cli'), { recursive: true });
    copyFileSync(BIN, join(dir, 'bin/rdna'));
    writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
    const bundle = join(dir, 'dist/bundle/main.js');
    const cli = join(dir, 'dist/cli/main.js');
    writeFileSync(bundle, "process.stdout.write('bundle ' + process.argv.slice(2).join(' '));\n");
    writeFileSync(cli, "process.stdout.write('cli ' + process.argv.slice(2).join(' '));\n");
    const run = () => spawnSync(process.execPath, [join(dir, 'bin/rdna'), 'disasm', 'x.o'], { encoding: 'utf8', timeout: 60_000 });
    const at = (file: string, seconds: number) => utimesSync(file, seconds, seconds);

    at(cli, 1_000_000); at(bundle, 1_000_001);
    assert.equal(run().stdout, 'bundle disasm x.o', 'a bundle newer than dist/cli/main.js');
    at(bundle, 1_000_000);
    assert.equal(run().stdout, 'bundle disasm x.o', 'the same time');
    at(bundle, 999_999);
    assert.equal(run().stdout, 'cli disasm x.o', 'tsc rewrote dist/ after the bundle');
    rmSync(bundle);
    assert.equal(run().stdout, 'cli disasm x.o', 'no bundle');
    rmSync(cli);
    const r = run();
    assert.equal(r.status, 1);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /^rdna: cannot start \(.*\); run 'npm ci && npm run build' first\n$/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
