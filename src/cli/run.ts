// rdna run FILE --args ARGS.json [--engine interp|vulkan] [--kernel K] [--json] [--max-steps N] [--timeout S]
// Runs a kernel (one dispatch) or a sequence of dispatches (ARGS.json's "dispatches") on the
// reference interpreter or, recompiled, on Vulkan, with the arguments ARGS.json gives (one parser
// for both engines: src/interp/args.ts), and prints every buffer after the run: each buffer
// argument of one dispatch, each named buffer of a sequence.

import { encodeBase64 } from '../interp/base64.js';
import { ArgsError, parseArgs, type ArgsPlan, type PlanBuffer } from '../interp/args.js';
import { InterpError } from '../interp/errors.js';
import { runPlan } from '../interp/sequence.js';
import { oneOf, parseArgs as parseCliArgs } from './args.js';
import { InputError, UsageError } from './errors.js';
import { readInput } from './input.js';
import { Output } from './output.js';
import { readShaderInput, SHADER_OPTIONS, SHADER_USAGE } from './shader-input.js';
import { TranslateError } from '../frontend/errors.js';
import { CompileError } from '../backend/spirv/emit.js';
import { compileFor, planLdsBytes, planWorkItems, RuntimeFault, runPlanOnVulkan, type CompiledKernel } from '../runtime/engine.js';
import { VulkanDevice, VulkanError, VulkanUnavailableError } from '../runtime/vulkan.js';

export const RUN_USAGE = `usage: rdna run --args ARGS.json [--engine interp|vulkan] [--device NAME] [--timeout SECONDS] [--json] [--max-steps N] ${SHADER_USAGE}`;
export const DEFAULT_MAX_STEPS = 200_000_000;
const MAX_ARGS_BYTES = 1 << 30;

export async function runRun(argv: readonly string[]): Promise<number> {
  const args = parseCliArgs(argv, ['args', 'engine', 'max-steps', 'device', 'timeout', ...SHADER_OPTIONS], ['json']);
  if (args.positional.length !== 1) throw new UsageError(args.positional.length ? 'run takes one FILE' : 'run needs a FILE');
  const argsFile = args.options.get('args');
  if (typeof argsFile !== 'string') throw new UsageError('run needs --args ARGS.json');
  const engine = oneOf(typeof args.options.get('engine') === 'string' ? (args.options.get('engine') as string) : 'interp', ['interp', 'vulkan'] as const, '--engine');
  const ms = args.options.get('max-steps');
  const maxSteps = typeof ms === 'string' ? Number(ms) : DEFAULT_MAX_STEPS;
  if (!Number.isSafeInteger(maxSteps) || maxSteps < 1) throw new UsageError('--max-steps must be a positive integer');
  if (engine !== 'vulkan' && args.options.has('device')) throw new UsageError('--device is for --engine vulkan');
  if (engine !== 'vulkan' && args.options.has('timeout')) throw new UsageError('--timeout is for --engine vulkan');
  // How long one submission may run on the device (its fence wait), in seconds; the addon's default is 60, its most an hour.
  const to = args.options.get('timeout');
  const timeoutS = typeof to === 'string' ? Number(to) : undefined;
  if (timeoutS !== undefined && !(timeoutS > 0 && timeoutS <= 3600)) throw new UsageError('--timeout must be a number of seconds in (0, 3600]');
  const input = readShaderInput(args.positional[0] ?? '', args);
  const bytes = readInput(argsFile);
  if (bytes.length > MAX_ARGS_BYTES) throw new InputError(`${argsFile}: too large`);
  let doc: unknown;
  try {
    doc = JSON.parse(new TextDecoder().decode(bytes));
  } catch (e) {
    throw new InputError(`${argsFile}: not valid JSON: ${(e instanceof Error ? e.message : String(e)).split('\n')[0]}`);
  }
  const isDoc = typeof doc === 'object' && doc !== null && !Array.isArray(doc);
  let shaders = input.shaders;
  // One dispatch: its kernel, by --kernel or "kernel" (a sequence names a kernel per dispatch).
  if (!(isDoc && 'dispatches' in (doc as object))) {
    const wanted = isDoc && typeof (doc as { kernel?: unknown }).kernel === 'string' ? (doc as { kernel: string }).kernel : undefined;
    if (wanted !== undefined && !args.options.has('kernel')) shaders = shaders.filter((s) => s.info.name === wanted);
    if (shaders.length === 0) throw new InputError(`${input.file}: no kernel named '${wanted}'`);
    if (shaders.length > 1) throw new UsageError(`${input.file} holds ${shaders.length} kernels (${shaders.map((s) => s.info.name).join(', ')}): name one with --kernel or "kernel" in ${argsFile}`);
  }
  let plan: ArgsPlan;
  try {
    plan = parseArgs(doc, shaders);
  } catch (e) {
    if (e instanceof ArgsError || e instanceof InterpError) throw new InputError(`${argsFile}: ${e.message}`);
    throw e;
  }
  const json = args.options.get('json') === true;
  if (engine === 'vulkan') return runVulkan(plan, json, typeof args.options.get('device') === 'string' ? (args.options.get('device') as string) : undefined, timeoutS);
  const tty = process.stderr.isTTY === true;
  let stats;
  const t0 = performance.now();
  try {
    stats = runPlan(plan, {
      maxSteps,
      ...(tty ? { onProgress: (d: number, t: number, what: string) => { if (d % 64 === 0 || d === t) process.stderr.write(`\rrdna run: ${what} ${d}/${t}${d === t ? '\n' : ''}`); } } : {}),
    });
  } catch (e) {
    if (e instanceof InterpError) throw new InputError(plan.sequence ? e.message : `${label(plan)}: ${e.message}`);
    throw e;
  }
  const seconds = (performance.now() - t0) / 1000;
  const { dispatches, ...perDispatch } = stats;
  report(plan, json, { engine: 'interp' },
    plan.sequence ? { dispatches, ...perDispatch, seconds } : { ...perDispatch, seconds },
    `${stats.workgroups} workgroups, ${stats.waves} waves, ${stats.instructions} instructions, ${stats.laneInstructions} lane-instructions, ${seconds.toFixed(3)} s`);
  return 0;
}

/** The kernel's name (one dispatch) or `sequence of N dispatches (k1, k2)`. */
function label(plan: ArgsPlan): string {
  const names = plan.kernels.map((s) => s.info.name);
  return plan.sequence ? `sequence of ${plan.dispatches} dispatch${plan.dispatches === 1 ? '' : 'es'} (${names.join(', ')})` : names[0] ?? '';
}

/** The output: JSON (the buffers as base64) or a summary line and each buffer. */
function report(plan: ArgsPlan, json: boolean, head: Record<string, unknown>, stats: Record<string, unknown>, summary: string): void {
  const out = new Output();
  const id = (b: PlanBuffer) => (plan.sequence ? { name: b.name } : { arg: b.arg, ...(b.name ? { name: b.name } : {}) });
  if (json) {
    out.line(JSON.stringify({
      ...head,
      ...(plan.sequence ? { kernels: plan.kernels.map((s) => s.info.name) } : { kernel: plan.kernels[0]?.info.name }),
      buffers: plan.buffers.filter((b) => !b.table).map((b) => ({ ...id(b), base64: encodeBase64(b.bytes) })),
      stats,
    }));
  } else {
    out.line(`${label(plan)}: ${summary}`);
    for (const b of plan.buffers.filter((x) => !x.table)) out.line(`  ${plan.sequence ? `buffer ${b.name}` : `arg ${b.arg}${b.name ? ` ${b.name}` : ''}`} (${b.type}, ${b.bytes.length} bytes): ${preview(b.type, b.bytes)}`);
  }
  out.flush();
}

async function runVulkan(plan: ArgsPlan, json: boolean, deviceName: string | undefined, timeoutS: number | undefined): Promise<number> {
  let dev: VulkanDevice;
  try {
    dev = VulkanDevice.open(deviceName !== undefined ? { deviceName } : {});
  } catch (e) {
    if (e instanceof VulkanUnavailableError || e instanceof VulkanError) throw new InputError(`Vulkan: ${e.message.split('\n')[0]}`);
    throw e;
  }
  try {
    const compiled: CompiledKernel[] = plan.kernels.map((s) => {
      try {
        return compileFor(s, dev, planLdsBytes(plan, s), planWorkItems(plan, s));
      } catch (e) {
        if (e instanceof TranslateError || e instanceof CompileError || e instanceof VulkanError) throw new InputError(`${s.info.name}: cannot recompile: ${e.message}`);
        throw e;
      }
    });
    const r = await runPlanOnVulkan(plan, compiled, dev, timeoutS !== undefined ? { timeoutMs: timeoutS * 1000 } : {});
    const where = plan.sequence ? ` in ${r.submissions} submission${r.submissions === 1 ? '' : 's'}` : '';
    report(plan, json, { engine: 'vulkan', device: r.device },
      plan.sequence ? { dispatches: r.dispatches, submissions: r.submissions, waves: r.waves, compileMs: r.compileMs, runMs: r.ms } : { waves: r.waves, compileMs: r.compileMs, runMs: r.ms },
      `on ${r.device}${where}, ${r.waves} waves, recompiled in ${r.compileMs.toFixed(1)} ms, ran in ${r.ms.toFixed(1)} ms`);
    return 0;
  } catch (e) {
    if (e instanceof RuntimeFault) throw new InputError(`${label(plan)}: ${e.message}`);
    if (e instanceof VulkanError) throw new InputError(`Vulkan: ${e.message.split('\n')[0]}`);
    throw e;
  } finally {
    dev.close();
  }
}

function preview(type: string, bytes: Uint8Array): string {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const size = ({ f32: 4, f64: 8, f16: 2, u32: 4, i32: 4, u16: 2, i16: 2, u8: 1, i8: 1, u64: 8, i64: 8 } as Record<string, number>)[type] ?? 4;
  const n = Math.min(16, Math.floor(bytes.length / size));
  const xs: string[] = [];
  for (let k = 0; k < n; k++) {
    const o = k * size;
    switch (type) {
      case 'f32': xs.push(String(v.getFloat32(o, true))); break;
      case 'f64': xs.push(String(v.getFloat64(o, true))); break;
      case 'i32': xs.push(String(v.getInt32(o, true))); break;
      case 'u64': xs.push(String(v.getBigUint64(o, true))); break;
      case 'i64': xs.push(String(v.getBigInt64(o, true))); break;
      case 'u16': case 'f16': xs.push(String(v.getUint16(o, true))); break;
      case 'i16': xs.push(String(v.getInt16(o, true))); break;
      case 'u8': xs.push(String(v.getUint8(o))); break;
      case 'i8': xs.push(String(v.getInt8(o))); break;
      default: xs.push(String(v.getUint32(o, true)));
    }
  }
  return `[${xs.join(', ')}${bytes.length / size > n ? ', ...' : ''}]`;
}
