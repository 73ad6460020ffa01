// rdna inspect FILE [--json] [--kernel NAME] [--sidecar FILE.json]: what a shader declares about
// itself (each kernel of a code object, or a raw shader's sidecar), defaults marked as assumed.
import type { ShaderInfo } from '../container/shader-info.js';
import { parseArgs } from './args.js';
import { UsageError } from './errors.js';
import { Output } from './output.js';
import { readShaderInput, SHADER_OPTIONS, SHADER_USAGE } from './shader-input.js';

export const INSPECT_USAGE = `usage: rdna inspect [--json] ${SHADER_USAGE}`;

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
    source: k.source,
    assumed: k.assumed,
    entry: k.entry,
    codeRange: [k.codeRange.start, k.codeRange.end],
    floatMode: k.floatMode,
    dx10Clamp: k.dx10Clamp,
    ieeeMode: k.ieeeMode,
    fp16Overflow: k.fp16Overflow,
    waveSize: k.waveSize,
    sgprs: k.sgprCount,
    vgprs: k.vgprCount,
    addressableSgprs: k.addressableSgprs,
    ldsSize: k.ldsSize,
    scratchSize: k.scratchSize,
    kernargSize: k.kernargSize,
    userSgprCount: k.userSgprCount,
    userSgprs: Object.fromEntries(k.userSgprs.map((u) => [u.kind, sgprRange(u.first, u.count)])),
    systemSgprs: Object.fromEntries(k.systemSgprs.map((u) => [u.kind, sgprRange(u.first, u.count)])),
    workitemIdVgprs: k.workitemIdVgprs.map((_, i) => `v${i}`),
    ...(k.workgroupSize ? { workgroupSize: k.workgroupSize } : {}),
    args: k.args ?? [],
  };
}

function kernelText(k: ShaderInfo): string[] {
  const as = (...fields: ShaderInfo['assumed'][number][]) => (fields.some((f) => k.assumed.includes(f)) ? ' (assumed)' : '');
  const lines = [
    `${k.source === 'sidecar' ? 'shader' : 'kernel'} ${k.name} (${k.stage}, wave${k.waveSize})`,
    `  entry 0x${k.entry.toString(16)} in ${k.codeSection}, code [0x${k.codeRange.start.toString(16)}, 0x${k.codeRange.end.toString(16)})`,
    `  float mode 0x${k.floatMode.toString(16).padStart(2, '0')}${as('floatMode')}:`,
    ...describeFloatMode(k.floatMode).map((l) => `    ${l}`),
    `  dx10 clamp ${k.dx10Clamp ? 'on' : 'off'}${as('dx10Clamp')}, ieee mode ${k.ieeeMode ? 'on' : 'off'}${as('ieeeMode')}, fp16 overflow ${k.fp16Overflow ? 'on' : 'off'}${as('fp16Overflow')}`,
    `  registers: ${k.vgprCount} VGPRs${as('vgprs')}, ${k.sgprCount} SGPRs (${k.addressableSgprs} addressable)${as('sgprs')}`,
    `  memory: LDS ${k.ldsSize} bytes${as('ldsSize')}, scratch ${k.scratchSize} bytes per lane${as('scratchSize')}, kernargs ${k.kernargSize} bytes`,
    `  user SGPRs (${k.userSgprCount})${as('userSgprCount')}: ${k.userSgprs.map((u) => `${u.kind} ${sgprRange(u.first, u.count)}`).join(', ') || 'none'}`,
    `  system SGPRs: ${k.systemSgprs.map((u) => `${u.kind} ${sgprRange(u.first, u.count)}`).join(', ') || 'none'}`,
    `  workitem ids: ${k.workitemIdVgprs.map((a, i) => `${a} in v${i}`).join(', ') || 'none'}`,
  ];
  if (k.workgroupSize) lines.push(`  workgroup size ${k.workgroupSize.join(' x ')}`);
  if (k.assumed.length) lines.push(`  assumed: ${k.assumed.join(', ')} (not in the sidecar: the documented defaults, docs/SHADER_INPUTS.md)`);
  if (k.args) {
    lines.push(`  arguments (${k.args.length}):`);
    for (const a of k.args) lines.push(`    +${a.offset} ${a.size} bytes ${a.valueKind}${a.name ? ` ${a.name}` : ''}${a.typeName ? ` (${a.typeName})` : ''}`);
  }
  return lines;
}

export function runInspect(argv: readonly string[]): number {
  const args = parseArgs(argv, SHADER_OPTIONS, ['json']);
  if (args.positional.length !== 1) throw new UsageError(args.positional.length ? 'inspect takes one FILE' : 'inspect needs a FILE');
  const input = readShaderInput(args.positional[0] ?? '', args);
  const kernels = input.shaders.map((s) => s.info);
  const target = kernels[0]?.target ?? '';
  const out = new Output();
  if (args.options.get('json') === true) {
    out.line(JSON.stringify({ target, kernels: kernels.map(kernelJson) }));
  } else {
    const raw = input.sidecar !== undefined;
    out.line(`${input.file}: ${target}, ${raw ? `raw shader described by ${input.sidecar}` : `${kernels.length} kernel${kernels.length === 1 ? '' : 's'}`}`);
    for (const k of kernels) for (const l of kernelText(k)) out.line(l);
  }
  out.flush();
  return 0;
}
