// rdna compile-all PATH... [-o OUTDIR] [--profile P] [--work-items N] [--cache DIR | --no-cache] [--jobs N] [--json]
// Every shader under the paths (files, and directories recursively), each kernel of each code
// object, recompiled through the shader cache on worker threads; a progress bar on a terminal, then
// a summary (compiled, from cache, failed, each failure as `rdna compile` gives it). One shader's
// failure never stops the others; exit 1 when any failed.
//
// What counts as a shader (README): an AMDGPU code object (ELF, e_machine AMDGPU), every kernel in
// it; a raw shader, a file with its JSON sidecar beside it (x.bin + x.json). Found in a directory,
// other files are skipped and listed (`--json`), as are ELF files of other machines and AMDGPU
// code objects without kernels; named on the command line, such a file is a failure. A sidecar is
// read with its code file. Symbolic links to directories are not followed. `--work-items N`
// compiles each kernel for workgroups of at most N work-items (capped at the kernel's own bound),
// as `rdna compile --work-items` does for one.
import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { basename, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { TargetProfile } from '../backend/profile.js';
import { buildId, cacheKey } from '../cache/key.js';
import type { ShaderCache } from '../cache/store.js';
import { isElf, parseElf } from '../container/elf.js';
import { readShaderInfos } from '../container/shader-info.js';
import type { Shader } from '../container/shader.js';
import { parseArgs } from './args.js';
import { CACHE_FLAGS, CACHE_USAGE, CACHE_VALUED, type CacheChoice, cacheChoice, openCache, warnOnce } from './cache-options.js';
import { profileOf, workItemsOption } from './compile.js';
import { maxWorkItems } from '../backend/recompile.js';
import { runTask, serveHit, type Task, type TaskResult, type TaskStatus } from './compile-all-task.js';
import type { WorkerInit, WorkerMessage } from './compile-all-worker.js';
import { InputError, UsageError } from './errors.js';
import { readInput } from './input.js';
import { Output } from './output.js';
import { readShaderInput, sidecarPathFor } from './shader-input.js';

export const COMPILE_ALL_USAGE = `usage: rdna compile-all [-o OUTDIR] [--profile lavapipe|nvidia|radv|portable|FILE.json] [--work-items N] ${CACHE_USAGE} [--jobs N] [--json] PATH...`;

const WORKER = new URL('./compile-all-worker.js', import.meta.url);
const EM_AMDGPU = 224;

interface Found {
  readonly file: string;
  /** The output directory of its shaders, relative to OUTDIR: the path below its PATH argument (a file argument: its name). */
  readonly rel: string;
  /** Named on the command line (not found in a directory). */
  readonly explicit: boolean;
}

export interface ShaderReport {
  readonly file: string;
  /** null: the file itself could not be read as shaders. */
  readonly kernel: string | null;
  readonly status: TaskStatus;
  readonly output?: string;
  readonly words?: number;
  readonly error?: TaskResult['error'];
}

export interface CompileAllReport {
  readonly profile: string;
  /** --work-items, or null without it (each kernel compiled for its own bound). */
  readonly workItems: number | null;
  /** The cache directory, or null with --no-cache. */
  readonly cache: string | null;
  readonly jobs: number;
  readonly files: number;
  readonly compiled: number;
  readonly cached: number;
  readonly failed: number;
  readonly skipped: readonly { readonly file: string; readonly reason: string }[];
  readonly shaders: readonly ShaderReport[];
}

function find(paths: readonly string[]): Found[] {
  const out: Found[] = [];
  const walk = (dir: string, rel: string) => {
    let entries;
    try { entries = readdirSync(dir, { withFileTypes: true }); } catch (e) {
      throw new InputError(`${dir}: cannot list the directory (${(e as { code?: string }).code ?? String(e)})`);
    }
    for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      const p = join(dir, e.name);
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) walk(p, r);
      else if (e.isFile()) out.push({ file: p, rel: r, explicit: false });
      else if (e.isSymbolicLink()) {
        try { if (statSync(p).isFile()) out.push({ file: p, rel: r, explicit: false }); } catch { /* a dangling link is no shader */ }
      }
    }
  };
  for (const p of paths) {
    let st;
    try { st = statSync(p); } catch (e) {
      const code = (e as { code?: string }).code;
      throw new InputError(`${p}: ${code === 'ENOENT' ? 'no such file or directory' : code ?? String(e)}`);
    }
    if (st.isDirectory()) walk(p, '');
    else out.push({ file: p, rel: basename(p), explicit: true });
  }
  return out;
}

/** A kernel name as a file name: characters other than letters, digits, '.', '_' and '-' become '_'. */
const fileName = (kernel: string) => {
  const s = kernel.replace(/[^A-Za-z0-9._-]/g, '_');
  return s === '' || s === '.' || s === '..' ? '_' : s;
};

const elfMachine = (b: Uint8Array) => (b.length < 20 ? -1 : b[5] === 2 ? ((b[18] ?? 0) << 8) | (b[19] ?? 0) : (b[18] ?? 0) | ((b[19] ?? 0) << 8));

interface Plan {
  readonly tasks: { readonly task: Task; readonly file: string; readonly kernel: string }[];
  readonly failures: ShaderReport[];
  readonly skipped: { file: string; reason: string }[];
  readonly files: number;
}

function plan(found: readonly Found[], outDir: string | undefined): Plan {
  const tasks: Plan['tasks'][number][] = [];
  const failures: ShaderReport[] = [];
  const skipped: { file: string; reason: string }[] = [];
  const outputs = new Map<string, string>();
  const noArgs = { options: new Map<string, string | true>(), positional: [] };
  // Sidecars are read with their code file, not on their own.
  const sidecars = new Set<string>();
  const raw = new Set<string>();
  for (const f of found) {
    if (extname(f.file) === '.json') continue;
    const sc = sidecarPathFor(f.file);
    if (sc) { sidecars.add(sc); raw.add(f.file); }
  }
  let files = 0;
  for (const f of found) {
    const fail = (message: string) => failures.push({ file: f.file, kernel: null, status: 'failed', error: { message } });
    const skip = (reason: string) => (f.explicit ? fail(`not a shader: ${reason}`) : skipped.push({ file: f.file, reason }));
    if (sidecars.has(f.file) && !f.explicit) continue;
    let shaders: readonly Shader[];
    try {
      if (!(f.explicit && extname(f.file) === '.json') && !raw.has(f.file)) {
        const bytes = readInput(f.file);
        if (!isElf(bytes)) { skip('not an AMDGPU code object, and no JSON sidecar beside it'); continue; }
        const m = elfMachine(bytes);
        if (m !== EM_AMDGPU) { skip(`an ELF file for another machine (e_machine ${m}), not an AMDGPU code object`); continue; }
        try {
          if (readShaderInfos(parseElf(bytes)).length === 0) { skip('an AMDGPU code object with no kernels'); continue; }
        } catch { /* damaged: readShaderInput says how */ }
      }
      shaders = readShaderInput(f.file, noArgs).shaders;
    } catch (e) {
      if (e instanceof InputError || e instanceof UsageError) { files++; fail(e.message); continue; }
      throw e;
    }
    files++;
    for (const shader of shaders) {
      const kernel = shader.info.name;
      const out = outDir !== undefined ? join(outDir, f.rel, `${fileName(kernel)}.spv`) : undefined;
      if (out !== undefined) {
        const other = outputs.get(out);
        if (other !== undefined) {
          failures.push({ file: f.file, kernel, status: 'failed', error: { message: `its output ${out} is already the output of ${other}` } });
          continue;
        }
        outputs.set(out, `${f.file} ${kernel}`);
      }
      tasks.push({ task: { id: tasks.length, shader, ...(out !== undefined ? { out } : {}) }, file: f.file, kernel });
    }
  }
  return { tasks, failures, skipped, files };
}

function jobCount(arg: string | true | undefined): number {
  if (arg === undefined) return availableParallelism();
  if (typeof arg !== 'string' || !/^\d+$/.test(arg) || Number(arg) < 1 || Number(arg) > 256) throw new UsageError(`--jobs must be a whole number from 1 to 256 (got '${String(arg)}')`);
  return Number(arg);
}

/** A bar on stderr when it is a terminal: `[#####.....] 12/40`; nothing otherwise. */
class Progress {
  private readonly on = process.stderr.isTTY === true;
  private done = 0;
  constructor(private readonly total: number) {}
  step(): void {
    if (!this.on) return;
    this.done++;
    const width = 30;
    const fill = this.total ? Math.round((width * this.done) / this.total) : width;
    process.stderr.write(`\r[${'#'.repeat(fill)}${'.'.repeat(width - fill)}] ${this.done}/${this.total}`);
  }
  end(): void {
    if (this.on && this.done > 0) process.stderr.write('\r\x1b[K');
  }
}

/**
 * The misses on up to `jobs` worker threads. `next` gives the next shader to recompile (serving
 * the cache's hits on the way), undefined when none is left; a worker starts only when there is a
 * miss for it, so a warm run starts none.
 */
async function runWorkers(next: () => Task | undefined, jobs: number, init: WorkerInit, onWarning: (m: string) => void, onResult: (r: TaskResult) => void): Promise<void> {
  const running: Promise<void>[] = [];
  let exhausted = false;
  const take = () => {
    if (exhausted) return undefined;
    const t = next();
    if (!t) exhausted = true;
    return t;
  };
  const startOne = (first: Task): Promise<void> => new Promise((resolve) => {
    const worker = new Worker(WORKER, { workerData: init });
    let current: Task | undefined;
    const feed = (t: Task | undefined) => {
      current = t;
      if (t) worker.postMessage(t); else worker.postMessage('stop');
    };
    worker.on('message', (m: WorkerMessage) => {
      if ('warning' in m) { onWarning(m.warning); return; }
      current = undefined;
      onResult(m.result);
      feed(take());
    });
    const lost = (why: string) => {
      // A worker that died (out of memory, a crash) fails its shader; the rest go to a new one.
      const dead = current;
      current = undefined;
      if (dead) onResult({ id: dead.id, status: 'failed', error: { message: `internal error: the compile worker ${why}` } });
      const t = take();
      if (t) void startOne(t).then(resolve); else resolve();
    };
    worker.once('error', (e) => { worker.removeAllListeners('exit'); lost(`failed (${e.message.split('\n')[0]})`); });
    worker.once('exit', (code) => { if (code !== 0 || current) lost(`exited with code ${code}`); else resolve(); });
    feed(first);
  });
  for (let k = 0; k < jobs; k++) {
    const t = take();
    if (!t) break;
    running.push(startOne(t));
  }
  await Promise.all(running);
}

export async function runCompileAll(argv: readonly string[]): Promise<number> {
  const args = parseArgs(argv.map((a) => (a === '-o' ? '--output' : a)), ['output', 'profile', 'jobs', 'work-items', ...CACHE_VALUED], ['json', ...CACHE_FLAGS]);
  if (args.positional.length === 0) throw new UsageError('compile-all needs at least one PATH');
  const profile: TargetProfile = profileOf(typeof args.options.get('profile') === 'string' ? (args.options.get('profile') as string) : 'lavapipe');
  const jobsWanted = jobCount(args.options.get('jobs'));
  const workItems = workItemsOption(args.options.get('work-items'));
  const choice: CacheChoice | undefined = cacheChoice(args);
  const outOpt = args.options.get('output');
  const outDir = typeof outOpt === 'string' ? outOpt : undefined;
  if (outDir !== undefined) {
    if (outDir === '' || outDir === '-') throw new UsageError('-o takes a directory');
    if (existsSync(outDir) && !statSync(outDir).isDirectory()) throw new InputError(`${outDir}: -o names a file; compile-all writes a directory`);
    try { mkdirSync(outDir, { recursive: true }); } catch (e) { throw new InputError(`${outDir}: cannot create the output directory (${(e as { code?: string }).code ?? String(e)})`); }
  }
  const p = plan(find(args.positional), outDir);
  const warn = warnOnce('compile-all');
  // The main thread looks every shader up (a damaged file is found, reported once and recreated
  // here) and writes the hits; the misses go to the workers, which store what they compile.
  const cache: ShaderCache | undefined = openCache(choice, warn);
  const useCache = cache?.usable === true ? choice : undefined;
  const build = useCache ? buildId() : undefined;
  const jobs = Math.max(1, Math.min(jobsWanted, p.tasks.length));
  const results = new Map<number, TaskResult>();
  const progress = new Progress(p.tasks.length);
  const record = (r: TaskResult) => { results.set(r.id, r); progress.step(); };
  let cursor = 0;
  const nextMiss = (): Task | undefined => {
    while (cursor < p.tasks.length) {
      const found = p.tasks[cursor++]?.task;
      if (!found) break;
      const task: Task = workItems === undefined ? found : { ...found, workItems: Math.min(workItems, maxWorkItems(found.shader.info)) };
      if (!useCache || !cache) return task;
      let key;
      try {
        key = cacheKey(task.shader, profile, { ...(build !== undefined ? { build } : {}), ...(task.workItems !== undefined ? { workItems: task.workItems } : {}) });
      } catch {
        return task; // the CFG cannot be built: the recompile reports why
      }
      const hit = cache.lookup(key);
      if (!hit) return { ...task, key };
      record(serveHit(task, hit));
    }
    return undefined;
  };
  try {
    if (jobs === 1 || !existsSync(fileURLToPath(WORKER))) {
      for (let t = nextMiss(); t; t = nextMiss()) record(runTask(t, profile, cache));
    } else {
      await runWorkers(nextMiss, jobs, { profile, cache: useCache ?? null }, warn, record);
    }
  } finally {
    cache?.close();
    progress.end();
  }
  const shaders: ShaderReport[] = p.tasks.map(({ task, file, kernel }) => {
    const r = results.get(task.id) ?? { id: task.id, status: 'failed' as const, error: { message: 'internal error: no result' } };
    return {
      file, kernel, status: r.status,
      ...(r.status !== 'failed' && task.out !== undefined ? { output: task.out } : {}),
      ...(r.words !== undefined ? { words: r.words } : {}),
      ...(r.error ? { error: r.error } : {}),
    };
  });
  shaders.push(...p.failures);
  const count = (s: TaskStatus) => shaders.filter((x) => x.status === s).length;
  const report: CompileAllReport = {
    profile: profile.name, workItems: workItems ?? null, cache: choice ? choice.dir : null, jobs, files: p.files,
    compiled: count('compiled'), cached: count('cached'), failed: count('failed'), skipped: p.skipped, shaders,
  };
  const out = new Output();
  if (args.options.get('json') === true) out.line(JSON.stringify(report));
  else for (const line of summary(report)) out.line(line);
  out.flush();
  return report.failed > 0 ? 1 : 0;
}

/** The text summary: counts, then one row per failure (file, kernel, the error with its pc and instruction). */
export function summary(r: CompileAllReport): string[] {
  const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
  const shaders = r.shaders.filter((s) => s.kernel !== null).length;
  const unreadable = r.shaders.length - shaders;
  const failedShaders = r.failed - unreadable;
  const lines = [
    `${plural(shaders, 'shader', 'shaders')} in ${plural(r.files, 'file', 'files')} (profile ${r.profile}${r.workItems !== null ? `, workgroups of at most ${r.workItems} work-items` : ''}, ${r.cache === null ? 'no cache' : `cache ${r.cache}`}, ${plural(r.jobs, 'job', 'jobs')})`,
    `  compiled    ${r.compiled}`,
    `  from cache  ${r.cached}`,
    `  failed      ${r.failed}${unreadable ? ` (${plural(failedShaders, 'shader', 'shaders')}, ${plural(unreadable, 'file', 'files')} that could not be read)` : ''}`,
  ];
  if (r.skipped.length) lines.push(`  skipped     ${r.skipped.length === 1 ? '1 file that is not a shader' : `${r.skipped.length} files that are not shaders`} (listed by --json)`);
  const failed = r.shaders.filter((s) => s.status === 'failed');
  if (failed.length) {
    const rows = failed.map((s) => [s.file, s.kernel ?? '-', s.error?.message ?? '']);
    const w0 = Math.max(4, ...rows.map((x) => x[0]?.length ?? 0));
    const w1 = Math.max(6, ...rows.map((x) => x[1]?.length ?? 0));
    lines.push('', `${'file'.padEnd(w0)}  ${'kernel'.padEnd(w1)}  error`);
    for (const [f, k, m] of rows) lines.push(`${(f ?? '').padEnd(w0)}  ${(k ?? '').padEnd(w1)}  ${m ?? ''}`);
  }
  return lines;
}
