// rdna inspect FILE [--json] [--kernel NAME]: what a code object declares about each kernel.
import { ElfError, isElf, parseElf } from '../container/elf.js';
import { CodeObjectError } from '../container/kernel-descriptor.js';
import { readShaderInfos, type ShaderInfo } from '../container/shader-info.js';
import { parseArgs } from './args.js';
import { InputError, UsageError } from './errors.js';
import { readInput } from './input.js';
import { Output } from './output.js';

export const INSPECT_USAGE = 'usage: rdna inspect [--json] [--kernel NAME] FILE';

const ROUND = ['round to nearest even', 'round toward +infinity', 'round toward -infinity', 'round toward zero'] as const;
/** FP_DENORM values (AMDGPUUsage FLOAT_DENORM_MODE_*): 0 flush src+dst, 1 flush dst, 2 flush src, 3 none. */
const DENORM = ['flush input and output denormals', 'keep input denormals, flush output denormals', 'flush input denormals, keep output denormals', 'keep denormals'] as const;

/** The float mode byte in words: MODE bits 7:0 (FP_ROUND 3:0, FP_DENORM 7:4). */
export function describeFloatMode(mode: number): string[] {
  return [
    `f32 rounding: ${ROUND[mode & 3] ?? ''}`,
    `f16/f64 rounding: ${ROUND[(mode >> 2) & 3] ?? ''}`,
    `f32 denormals: ${DENORM[(mode >> 4) & 3] ?? ''}`,
    `f16/f64 denormals: ${DENORM[(mode >> 6) & 3] ?? ''}`,
  ];
}

const sgprRange = (first: number, count: number) => (count === 1 ? `s${first}` : `s[${first}:${first + count - 1}]`);

function kernelJson(k: ShaderInfo) {
  return {
    name: k.name,
    stage: k.stage,
    entry: k.entry,
    codeRange: [k.codeRange.start, k.codeRange.end],
    floatMode: k.floatMode,
    dx10Clamp: k.dx10Clamp,
    ieeeMode: k.ieeeMode,
    waveSize: k.waveSize,
    sgprs: k.sgprCount,
    vgprs: k.vgprCount,
    ldsSize: k.ldsSize,
    scratchSize: k.scratchSize,
    kernargSize: k.kernargSize,
    userSgprCount: k.userSgprCount,
    userSgprs: Object.fromEntries(k.userSgprs.map((u) => [u.kind, sgprRange(u.first, u.count)])),
    systemSgprs: Object.fromEntries(k.systemSgprs.map((u) => [u.kind, sgprRange(u.first, u.count)])),
    workitemIdVgprs: k.workitemIdVgprs.map((_, i) => `v${i}`),
    args: k.args ?? [],
  };
}

function kernelText(k: ShaderInfo): string[] {
  const lines = [
    `kernel ${k.name} (${k.stage}, wave${k.waveSize})`,
    `  entry 0x${k.entry.toString(16)} in ${k.codeSection}, code [0x${k.codeRange.start.toString(16)}, 0x${k.codeRange.end.toString(16)})`,
    `  float mode 0x${k.floatMode.toString(16).padStart(2, '0')}:`,
    ...describeFloatMode(k.floatMode).map((l) => `    ${l}`),
    `  dx10 clamp ${k.dx10Clamp ? 'on' : 'off'}, ieee mode ${k.ieeeMode ? 'on' : 'off'}`,
    `  registers: ${k.vgprCount} VGPRs, ${k.sgprCount} SGPRs (${k.addressableSgprs} addressable)`,
    `  memory: LDS ${k.ldsSize} bytes, scratch ${k.scratchSize} bytes per lane, kernargs ${k.kernargSize} bytes`,
    `  user SGPRs (${k.userSgprCount}): ${k.userSgprs.map((u) => `${u.kind} ${sgprRange(u.first, u.count)}`).join(', ') || 'none'}`,
    `  system SGPRs: ${k.systemSgprs.map((u) => `${u.kind} ${sgprRange(u.first, u.count)}`).join(', ') || 'none'}`,
    `  workitem ids: ${k.workitemIdVgprs.map((a, i) => `${a} in v${i}`).join(', ')}`,
  ];
  if (k.args) {
    lines.push(`  arguments (${k.args.length}):`);
    for (const a of k.args) lines.push(`    +${a.offset} ${a.size} bytes ${a.valueKind}${a.name ? ` ${a.name}` : ''}${a.typeName ? ` (${a.typeName})` : ''}`);
  }
  return lines;
}

export function runInspect(argv: readonly string[]): number {
  const args = parseArgs(argv, ['kernel'], ['json']);
  if (args.positional.length !== 1) throw new UsageError(args.positional.length ? 'inspect takes one FILE' : 'inspect needs a FILE');
  const file = args.positional[0] ?? '';
  const bytes = readInput(file);
  if (!isElf(bytes)) throw new InputError(`${file}: not an AMDGPU code object (raw shaders with a JSON sidecar are not supported yet)`);
  let kernels: ShaderInfo[];
  let target: string;
  try {
    const elf = parseElf(bytes);
    kernels = readShaderInfos(elf);
    target = elf.target ?? elf.mach;
  } catch (e) {
    if (e instanceof ElfError || e instanceof CodeObjectError) throw new InputError(`${file}: ${e.message}`);
    throw e;
  }
  const want = args.options.get('kernel');
  if (typeof want === 'string') {
    kernels = kernels.filter((k) => k.name === want);
    if (kernels.length === 0) throw new InputError(`${file}: no kernel named '${want}'`);
  }
  const out = new Output();
  if (args.options.get('json') === true) {
    out.line(JSON.stringify({ target, kernels: kernels.map(kernelJson) }));
  } else {
    out.line(`${file}: ${target}, ${kernels.length} kernel${kernels.length === 1 ? '' : 's'}`);
    for (const k of kernels) for (const l of kernelText(k)) out.line(l);
  }
  out.flush();
  return 0;
}
