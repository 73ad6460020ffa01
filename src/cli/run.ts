// rdna run FILE --args ARGS.json [--engine interp] [--kernel K] [--json] [--max-steps N]
// Runs a kernel on the reference interpreter with the arguments ARGS.json gives, and prints every
// buffer argument after the run.

import { encodeBase64 } from '../interp/base64.js';
import { ArgsError, prepareDispatch } from '../interp/args.js';
import { dispatch } from '../interp/dispatch.js';
import { InterpError } from '../interp/errors.js';
import { oneOf, parseArgs } from './args.js';
import { InputError, UsageError } from './errors.js';
import { readInput } from './input.js';
import { Output } from './output.js';
import { readShaderInput, SHADER_OPTIONS, SHADER_USAGE } from './shader-input.js';
import type { Shader } from '../container/shader.js';
import type { PreparedDispatch } from '../interp/args.js';
import { TranslateError } from '../frontend/errors.js';
import { CompileError } from '../backend/spirv/emit.js';
import { RuntimeFault, runOnVulkan } from '../runtime/engine.js';
import { VulkanDevice, VulkanError, VulkanUnavailableError } from '../runtime/vulkan.js';

export const RUN_USAGE = `usage: rdna run --args ARGS.json [--engine interp|vulkan] [--device NAME] [--json] [--max-steps N] ${SHADER_USAGE}`;
export const DEFAULT_MAX_STEPS = 200_000_000;
const MAX_ARGS_BYTES = 1 << 30;

export async function runRun(argv: readonly string[]): Promise<number> {
  const args = parseArgs(argv, ['args', 'engine', 'max-steps', 'device', ...SHADER_OPTIONS], ['json']);
  if (args.positional.length !== 1) throw new UsageError(args.positional.length ? 'run takes one FILE' : 'run needs a FILE');
  const argsFile = args.options.get('args');
  if (typeof argsFile !== 'string') throw new UsageError('run needs --args ARGS.json');
  const engine = oneOf(typeof args.options.get('engine') === 'string' ? (args.options.get('engine') as string) : 'interp', ['interp', 'vulkan'] as const, '--engine');
  const ms = args.options.get('max-steps');
  const maxSteps = typeof ms === 'string' ? Number(ms) : DEFAULT_MAX_STEPS;
  if (!Number.isSafeInteger(maxSteps) || maxSteps < 1) throw new UsageError('--max-steps must be a positive integer');
  const input = readShaderInput(args.positional[0] ?? '', args);
  const bytes = readInput(argsFile);
  if (bytes.length > MAX_ARGS_BYTES) throw new InputError(`${argsFile}: too large`);
  let doc: unknown;
  try {
    doc = JSON.parse(new TextDecoder().decode(bytes));
  } catch (e) {
    throw new InputError(`${argsFile}: not valid JSON: ${(e instanceof Error ? e.message : String(e)).split('\n')[0]}`);
  }
  const wanted = typeof doc === 'object' && doc !== null && typeof (doc as { kernel?: unknown }).kernel === 'string' ? (doc as { kernel: string }).kernel : undefined;
  let shaders = input.shaders;
  if (wanted !== undefined && !args.options.has('kernel')) shaders = shaders.filter((s) => s.info.name === wanted);
  if (shaders.length === 0) throw new InputError(`${input.file}: no kernel named '${wanted}'`);
  if (shaders.length > 1) throw new UsageError(`${input.file} holds ${shaders.length} kernels (${shaders.map((s) => s.info.name).join(', ')}): name one with --kernel or "kernel" in ${argsFile}`);
  const shader = shaders[0];
  if (!shader) throw new InputError(`${input.file}: no kernel`);
  let prepared;
  try {
    prepared = prepareDispatch(doc, shader);
  } catch (e) {
    if (e instanceof ArgsError || e instanceof InterpError) throw new InputError(`${argsFile}: ${e.message}`);
    throw e;
  }
  if (engine === 'vulkan') return runVulkan(shader, prepared, args.options.get('json') === true, typeof args.options.get('device') === 'string' ? (args.options.get('device') as string) : undefined);
  if (args.options.has('device')) throw new UsageError('--device is for --engine vulkan');
  const tty = process.stderr.isTTY === true;
  let stats;
  const t0 = performance.now();
  try {
    stats = dispatch(shader, {
      grid: prepared.grid, block: prepared.block, kernarg: prepared.kernarg, mem: prepared.mem, maxSteps,
      ...(tty ? { onWorkgroup: (d: number, t: number) => { if (d % 64 === 0 || d === t) process.stderr.write(`\rrdna run: workgroup ${d}/${t}${d === t ? '\n' : ''}`); } } : {}),
    });
  } catch (e) {
    if (e instanceof InterpError) throw new InputError(`${shader.info.name}: ${e.message}`);
    throw e;
  }
  const seconds = (performance.now() - t0) / 1000;
  const out = new Output();
  if (args.options.get('json') === true) {
    out.line(JSON.stringify({
      engine: 'interp',
      kernel: shader.info.name,
      buffers: prepared.buffers.map((b) => ({ arg: b.arg, ...(b.name ? { name: b.name } : {}), base64: encodeBase64(b.bytes) })),
      stats: { ...stats, seconds },
    }));
  } else {
    out.line(`${shader.info.name}: ${stats.workgroups} workgroups, ${stats.waves} waves, ${stats.instructions} instructions, ${stats.laneInstructions} lane-instructions, ${seconds.toFixed(3)} s`);
    for (const b of prepared.buffers) {
      const view = preview(b.type, b.bytes);
      out.line(`  arg ${b.arg}${b.name ? ` ${b.name}` : ''} (${b.type}, ${b.bytes.length} bytes): ${view}`);
    }
  }
  out.flush();
  return 0;
}

async function runVulkan(shader: Shader, prepared: PreparedDispatch, json: boolean, deviceName: string | undefined): Promise<number> {
  let dev: VulkanDevice;
  try {
    dev = VulkanDevice.open(deviceName !== undefined ? { deviceName } : {});
  } catch (e) {
    if (e instanceof VulkanUnavailableError || e instanceof VulkanError) throw new InputError(`Vulkan: ${e.message.split('\n')[0]}`);
    throw e;
  }
  try {
    const r = await runOnVulkan(shader, prepared, dev);
    const out = new Output();
    if (json) {
      out.line(JSON.stringify({
        engine: 'vulkan', device: r.device, kernel: shader.info.name,
        buffers: prepared.buffers.map((b) => ({ arg: b.arg, ...(b.name ? { name: b.name } : {}), base64: encodeBase64(b.bytes) })),
        stats: { waves: r.waves, compileMs: r.compileMs, runMs: r.ms },
      }));
    } else {
      out.line(`${shader.info.name}: on ${r.device}, ${r.waves} waves, recompiled in ${r.compileMs.toFixed(1)} ms, ran in ${r.ms.toFixed(1)} ms`);
      for (const b of prepared.buffers) out.line(`  arg ${b.arg}${b.name ? ` ${b.name}` : ''} (${b.type}, ${b.bytes.length} bytes): ${preview(b.type, b.bytes)}`);
    }
    out.flush();
    return 0;
  } catch (e) {
    if (e instanceof TranslateError || e instanceof CompileError) throw new InputError(`${shader.info.name}: cannot recompile: ${e.message}`);
    if (e instanceof RuntimeFault) throw new InputError(`${shader.info.name}: ${e.message}`);
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
