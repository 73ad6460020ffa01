#!/usr/bin/env node
// Replays the Vulkan engine's differential suite, recorded by `tsx tools/vulkan-replay.ts record`,
// on a Vulkan device: plain JavaScript over the built dist/ and the N-API addon, so that it runs
// where there is node and a driver but no LLVM, clang or tsx.
//
//   node tools/vulkan-replay.mjs replay --cases FILE [--dist DIR] [--addon FILE] [--driver ICD.json]
//        [--device NAME] [--validation on|off|try] [--no-interp] [--report FILE] [--jobs N [--case-timeout S]]
//
// With --jobs N (N > 1) every case runs in a process of its own (this script on a one-case file),
// N at a time, each stopped after --case-timeout seconds (default 600): a GPU machine's many cores
// compile the pipelines in parallel, and a case the driver hangs on or crashes with is reported
// as an error without stopping the others. The lines come as cases finish; the summary and the
// report are the same as a serial run's (the device's validation messages per case, summed).
//
// Opens the device (VulkanDevice.open; the ICD from --driver or VK_DRIVER_FILES, else the loader's
// search; the Khronos validation layer on with `on`, off with `off`, and with `try` (the default)
// on where it loads, e.g. through VK_ADD_LAYER_PATH), then for each case: loads the kernel from
// its code object, recompiles it for the device's own profile (to count the float ops lowered
// natively and emulated), runs it through runOnVulkan on copies of the recorded inputs (the kernarg
// as the engine test lays it out: scalars, then buffer k's address at 8k) and compares every
// buffer byte for byte with the interpreter's recorded result. Unless --no-interp, the interpreter
// of this dist/ runs the case too and must leave the recorded buffers (a check that the recording
// and the build agree). The lane exchange is the device's too (src/backend/lane-exchange.ts): on a
// device whose subgroup size can be the wave's with full subgroups (an NVIDIA GPU's 32 for the
// wave32 cases) the cases run the subgroup path, with the pipeline's required subgroup size set by
// the engine; each line says which. Prints one line per case, a summary, and the device's profile (float
// controls per width, subgroup sizes, features) as one JSON line; --report FILE also writes all of
// it, with the first 64 differing dwords and the whole device buffer (base64) of each buffer that
// differs, as JSON. Exit 0 when every case is equal.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const FORMAT = 'rdna-vulkan-replay/1';
const USAGE = 'usage: node tools/vulkan-replay.mjs replay --cases FILE [--dist DIR] [--addon FILE] [--driver ICD.json] [--device NAME] [--validation on|off|try] [--no-interp] [--report FILE] [--jobs N [--case-timeout S]]';

function parseArgs(argv) {
  const o = { dist: fileURLToPath(new URL('../dist', import.meta.url)), validation: 'try', interp: true, jobs: '1', caseTimeout: '600' };
  const valued = { '--cases': 'cases', '--dist': 'dist', '--addon': 'addon', '--driver': 'driver', '--device': 'device', '--validation': 'validation', '--report': 'report', '--jobs': 'jobs', '--case-timeout': 'caseTimeout' };
  for (let k = 0; k < argv.length; k++) {
    const a = argv[k];
    if (a === '--no-interp') o.interp = false;
    else if (a in valued && argv[k + 1] !== undefined) o[valued[a]] = argv[++k];
    else throw new Error(`bad argument ${a}\n${USAGE}`);
  }
  if (!o.cases) throw new Error(`--cases FILE is required\n${USAGE}`);
  if (!['on', 'off', 'try'].includes(o.validation)) throw new Error(`--validation is on, off or try\n${USAGE}`);
  o.jobs = Number(o.jobs);
  o.caseTimeout = Number(o.caseTimeout);
  if (!Number.isInteger(o.jobs) || o.jobs < 1 || o.jobs > 256) throw new Error(`--jobs is an integer from 1 to 256\n${USAGE}`);
  if (!(o.caseTimeout > 0)) throw new Error(`--case-timeout is a positive number of seconds\n${USAGE}`);
  return o;
}

const bytes = (s) => new Uint8Array(Buffer.from(s, 'base64'));
const hex4 = (b, i) => Buffer.from(b.subarray(i, i + 4)).toString('hex');

/** NVIDIA packs driverVersion as 10.8.8.6 bits (580.159.04: the third field two digits); others as VK_MAKE_API_VERSION. */
function driverVersionText(p) {
  const v = p.driverVersion >>> 0;
  if (p.vendorId === 0x10de) return `${v >>> 22}.${(v >>> 14) & 0xff}.${String((v >>> 6) & 0xff).padStart(2, '0')}`;
  return `${v >>> 22}.${(v >>> 12) & 0x3ff}.${v & 0xfff}`;
}

/** Differences between the interpreter's buffers and the device's: per buffer, the count of differing bytes and up to 64 differing dwords. */
function compare(expected, got) {
  const diffs = [];
  expected.forEach((e, k) => {
    const g = got[k];
    let count = 0;
    let first = -1;
    const dwords = [];
    for (let i = 0; i < e.length; i++) {
      if (e[i] === g[i]) continue;
      count++;
      if (first < 0) first = i;
      const at = i & ~3;
      if (dwords.length < 64 && dwords[dwords.length - 1]?.byte !== at) dwords.push({ byte: at, dword: at / 4, interpreter: hex4(e, at), vulkan: hex4(g, at) });
    }
    if (count) diffs.push({ buffer: k, bytes: count, first, dwords, vulkan: Buffer.from(g).toString('base64') });
  });
  return diffs;
}

async function replay(o) {
  const dist = pathToFileURL(resolve(o.dist)).href + '/';
  const { VulkanDevice, formatValidationMessages } = await import(dist + 'runtime/vulkan.js');
  const { runOnVulkan, targetProfile } = await import(dist + 'runtime/engine.js');
  const { loadShaders } = await import(dist + 'container/shader.js');
  const { GlobalMemory } = await import(dist + 'interp/memory.js');
  const { dispatch } = await import(dist + 'interp/dispatch.js');
  const { recompile } = await import(dist + 'backend/recompile.js');

  const doc = JSON.parse(readFileSync(o.cases, 'utf8'));
  if (doc.format !== FORMAT) throw new Error(`${o.cases}: not a ${FORMAT} file (format ${JSON.stringify(doc.format)})`);

  const openWith = (validation) => {
    const opts = { validation };
    if (o.driver ?? process.env['VK_DRIVER_FILES']) opts.driverFiles = o.driver ?? process.env['VK_DRIVER_FILES'];
    if (o.device) opts.deviceName = o.device;
    if (o.addon) opts.addonPath = resolve(o.addon);
    return VulkanDevice.open(opts);
  };
  let dev;
  let validationNote = '';
  if (o.validation === 'try') {
    try {
      dev = openWith(true);
    } catch (e) {
      validationNote = ` (the layer did not load: ${(e instanceof Error ? e.message : String(e)).split('\n')[0]})`;
      dev = openWith(false);
    }
  } else dev = openWith(o.validation === 'on');
  const p = dev.profile;
  const profile = targetProfile(p);
  const device = `${p.deviceName} (${p.driverName} ${driverVersionText(p)}, ${p.driverInfo}, Vulkan ${p.apiVersion})`;
  process.stdout.write(`device: ${device}, subgroup ${p.subgroup.size} (${p.subgroup.minSize}-${p.subgroup.maxSize}); validation ${dev.validation ? 'on' : 'off'}${validationNote}\n`);

  const results = [];
  let messages = [];
  let closeError = '';
  try {
    for (const c of doc.cases) {
      const r = { suite: c.suite, name: c.name, status: 'equal' };
      try {
        const code = bytes(c.code);
        const shader = loadShaders({ bytes: code, name: 'k' }).find((s) => s.info.name === c.kernel);
        if (!shader) throw new Error(`no kernel ${c.kernel} in the recorded code object`);
        const expected = c.expected.map(bytes);
        const prep = (bufs) => {
          const mem = new GlobalMemory();
          const kernarg = new Uint8Array(Math.max(64, shader.info.kernargSize));
          const kv = new DataView(kernarg.buffer);
          for (const [off, v] of c.scalars) kv.setUint32(off, v, true);
          const bs = bufs.map((b, k) => { const address = mem.map(`buffer ${k}`, b); kv.setBigUint64(8 * k, BigInt(address), true); return { arg: k, type: 'u32', bytes: b, address, offset: 8 * k }; });
          return { grid: c.grid, block: c.block, kernarg, mem, buffers: bs };
        };
        if (o.interp) {
          const ref = c.buffers.map(bytes);
          const pr = prep(ref);
          dispatch(shader, { grid: c.grid, block: c.block, kernarg: pr.kernarg, mem: pr.mem, maxSteps: 50_000_000 });
          if (compare(expected, ref).length) throw new Error('the interpreter of this dist/ does not leave the recorded buffers: record the cases again with this build');
        }
        const rc = recompile(shader, { profile });
        const ops = rc.floatOps;
        // The lane exchange the device's profile chose (src/backend/lane-exchange.ts): runOnVulkan compiles the same.
        r.laneExchange = rc.laneExchange;
        r.floatOps = { native: ops.filter((f) => f.lowering === 'native').length, emulated: ops.filter((f) => f.lowering === 'emulated').length, dynamic: ops.filter((f) => f.lowering === 'dynamic').length };
        r.nativeOps = [...new Set(ops.filter((f) => f.lowering === 'native').map((f) => f.op))];
        const vk = c.buffers.map(bytes);
        const run = await runOnVulkan(shader, prep(vk), dev);
        r.waves = run.waves;
        r.ms = Math.round(run.ms * 100) / 100;
        const diffs = compare(expected, vk);
        if (diffs.length) {
          r.status = 'differs';
          r.diffs = diffs;
        } else if (c.writes !== undefined && !vk[c.writes].some((v) => v !== 0)) {
          r.status = 'error';
          r.error = `buffer ${c.writes} is all zeros: the kernel wrote no results`;
        }
      } catch (e) {
        r.status = 'error';
        r.error = e instanceof Error ? e.message : String(e);
      }
      results.push(r);
      const lx = r.laneExchange ? `, lanes ${r.laneExchange.kind === 'subgroup' ? `subgroup ${r.laneExchange.subgroupSize}` : 'workgroup memory'}` : '';
      const fo = lx + (r.floatOps ? `, float ops native/emulated/dynamic ${r.floatOps.native}/${r.floatOps.emulated}/${r.floatOps.dynamic}${r.nativeOps.length ? ` (native: ${r.nativeOps.join(' ')})` : ''}` : '');
      if (r.status === 'equal') process.stdout.write(`ok     ${c.name} (${r.waves} waves, ${r.ms} ms${fo})\n`);
      else if (r.status === 'differs') {
        const lines = r.diffs.map((d) => `  buffer ${d.buffer}: ${d.bytes} bytes differ, first at byte ${d.first}; ${d.dwords.slice(0, 8).map((w) => `dword at byte ${w.byte}: interpreter ${w.interpreter}, Vulkan ${w.vulkan}`).join('; ')}`);
        process.stdout.write(`DIFFER ${c.name}${fo}\n${lines.join('\n')}\n`);
      } else process.stdout.write(`ERROR  ${c.name}: ${r.error.split('\n').join('\n  ')}\n`);
    }
  } finally {
    messages = dev.validationMessages();
    try {
      dev.close();
    } catch (e) {
      closeError = e instanceof Error ? e.message : String(e);
    }
  }
  const count = (s) => results.filter((r) => r.status === s).length;
  const warnings = messages.filter((m) => m.severity !== 'error');
  const viaSubgroup = results.filter((r) => r.laneExchange?.kind === 'subgroup');
  const subgroupNote = `lane exchange through subgroups in ${viaSubgroup.length} (${viaSubgroup.filter((r) => r.status === 'equal').length} equal)`;
  process.stdout.write(`replay: ${results.length} cases (recorded ${doc.recorded} at ${doc.commit}) on ${device}: ${count('equal')} equal, ${count('differs')} differ, ${count('error')} errors; ${subgroupNote}; validation ${dev.validation ? `on, ${messages.length} messages` : 'off'}\n`);
  for (const line of formatValidationMessages(warnings, 5)) process.stdout.write(`  validation: ${line}\n`);
  if (closeError) process.stdout.write(`close: ${closeError.split('\n').join('\n  ')}\n`);
  const { extensions, ...shown } = p;
  process.stdout.write(`profile: ${JSON.stringify({ ...shown, driverVersionText: driverVersionText(p), extensionCount: extensions.length })}\n`);
  if (o.report) {
    writeFileSync(o.report, JSON.stringify({ device, driverVersion: driverVersionText(p), validation: dev.validation, validationNote, recorded: doc.recorded, commit: doc.commit, summary: { cases: results.length, equal: count('equal'), differ: count('differs'), errors: count('error') }, closeError, results, validationMessages: messages, profile: p }, null, 1) + '\n');
  }
  return results.every((r) => r.status === 'equal') && !closeError ? 0 : 1;
}

/**
 * --jobs: each case in a child process running this script on a one-case file, o.jobs at a time;
 * a child that does not finish in o.caseTimeout seconds is killed and its case is an error.
 */
async function replayInJobs(o) {
  const doc = JSON.parse(readFileSync(o.cases, 'utf8'));
  if (doc.format !== FORMAT) throw new Error(`${o.cases}: not a ${FORMAT} file (format ${JSON.stringify(doc.format)})`);
  const dir = mkdtempSync(join(tmpdir(), 'rdna-replay-'));
  const self = fileURLToPath(import.meta.url);
  const forward = ['--dist', o.dist, '--validation', o.validation, ...(o.addon ? ['--addon', o.addon] : []), ...(o.driver ? ['--driver', o.driver] : []), ...(o.device ? ['--device', o.device] : []), ...(o.interp ? [] : ['--no-interp'])];
  const results = new Array(doc.cases.length);
  const messages = [];
  let device = '', profile, header = false, next = 0;
  const runOne = (k) => new Promise((done) => {
    const c = doc.cases[k];
    const cases = join(dir, `${k}.json`), report = join(dir, `${k}.report.json`);
    writeFileSync(cases, JSON.stringify({ ...doc, cases: [c] }));
    const child = spawn(process.execPath, [self, 'replay', '--cases', cases, '--report', report, ...forward], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    let timedOut = false;
    const timer = setTimeout(() => { timedOut = true; child.kill('SIGKILL'); }, o.caseTimeout * 1000);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      let r;
      if (existsSync(report)) {
        const rep = JSON.parse(readFileSync(report, 'utf8'));
        r = rep.results[0];
        messages.push(...rep.validationMessages);
        device ||= rep.device;
        profile ??= rep.profile;
        if (!header) { header = true; process.stdout.write(`device: ${rep.device}; validation ${rep.validation ? 'on' : 'off'}${rep.validationNote}; ${o.jobs} jobs\n`); }
      }
      if (!r) {
        const why = timedOut ? `stopped after ${o.caseTimeout} s` : `the replay process ended with ${signal ?? `exit status ${code}`}`;
        r = { suite: c.suite, name: c.name, status: 'error', error: `${why}: ${out.trim().split('\n').slice(-3).join(' | ')}` };
      }
      results[k] = r;
      const line = out.split('\n').find((l) => /^(ok|DIFFER|ERROR) /.test(l));
      process.stdout.write(`${line ?? `ERROR  ${c.name}: ${r.error}`}\n`);
      done();
    });
  });
  const worker = async () => { while (next < doc.cases.length) await runOne(next++); };
  await Promise.all(Array.from({ length: Math.min(o.jobs, doc.cases.length) }, worker));
  const count = (s) => results.filter((r) => r.status === s).length;
  process.stdout.write(`replay: ${results.length} cases (recorded ${doc.recorded} at ${doc.commit}) on ${device || 'no device'}: ${count('equal')} equal, ${count('differs')} differ, ${count('error')} errors; ${o.jobs} jobs; validation messages ${messages.length}\n`);
  if (o.report) {
    writeFileSync(o.report, JSON.stringify({ device, validation: o.validation, recorded: doc.recorded, commit: doc.commit, jobs: o.jobs, summary: { cases: results.length, equal: count('equal'), differ: count('differs'), errors: count('error') }, results, validationMessages: messages, profile }, null, 1) + '\n');
  }
  return results.every((r) => r.status === 'equal') ? 0 : 1;
}

const [mode, ...rest] = process.argv.slice(2);
try {
  if (mode !== 'replay') throw new Error(USAGE);
  const o = parseArgs(rest);
  process.exitCode = o.jobs > 1 ? await replayInJobs(o) : await replay(o);
} catch (e) {
  process.stderr.write(`vulkan-replay: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exitCode = 2;
}
