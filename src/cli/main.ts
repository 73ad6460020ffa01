// The `rdna` command line: dispatches to one file per command; one-line errors, no stack traces.
import { runDisasm, DISASM_USAGE } from './disasm.js';
import { runInspect, INSPECT_USAGE } from './inspect.js';
import { runValidate, VALIDATE_USAGE } from './validate.js';
import { runMode, MODE_USAGE } from './mode.js';
import { runCfg, CFG_USAGE } from './cfg.js';
import { runRun, RUN_USAGE } from './run.js';
import { runCompile, COMPILE_USAGE } from './compile.js';
import { runCoverage, COVERAGE_USAGE } from './coverage.js';
import { runCompileAll, COMPILE_ALL_USAGE } from './compile-all.js';
import { runCache, CACHE_USAGE_LINE } from './cache.js';
import { InputError, UsageError } from './errors.js';

const USAGE = [
  'usage: rdna <command> [options]',
  '',
  'commands:',
  `  disasm    disassemble RDNA2 machine code (raw binary or AMDGPU ELF) as LLVM 19 prints it`,
  `            ${DISASM_USAGE.replace('usage: ', '')}`,
  '  inspect   what a code object declares about each kernel (float mode, wave size, ABI registers, sizes, arguments)',
  `            ${INSPECT_USAGE.replace('usage: ', '')}`,
  '  cfg       the control-flow graph of one shader: blocks, edges, dominators, loops',
  `            ${CFG_USAGE.replace('usage: ', '')}`,
  '  mode      MODE (float rounding/denormals, DX10 clamp, IEEE) at every instruction, per block',
  `            ${MODE_USAGE.replace('usage: ', '')}`,
  '  validate  every finding about each shader\'s reachable code (errors, warnings, notes)',
  `            ${VALIDATE_USAGE.replace('usage: ', '')}`,
  '  compile   recompile a kernel to Vulkan SPIR-V (first slice: see docs/TECHNICAL_DEBT.md)',
  `            ${COMPILE_USAGE.replace('usage: ', '')}`,
  '  compile-all  recompile every shader and kernel under the paths, in parallel, through the cache',
  `            ${COMPILE_ALL_USAGE.replace('usage: ', '')}`,
  '  cache     the shader cache: sizes, a full check, or removing every entry',
  `            ${CACHE_USAGE_LINE.replace('usage: ', '')}`,
  '  run       run a kernel on the reference interpreter with the arguments of ARGS.json',
  `            ${RUN_USAGE.replace('usage: ', '')}`,
  '  coverage  which opcodes of the ISA table the recompiler translates, per target and family',
  `            ${COVERAGE_USAGE.replace('usage: ', '')}`,
  '  help      show this text',
].join('\n');

const COMMANDS: Record<string, (argv: readonly string[]) => number | Promise<number>> = {
  disasm: runDisasm,
  inspect: runInspect,
  validate: runValidate,
  mode: runMode,
  cfg: runCfg,
  run: runRun,
  compile: runCompile,
  'compile-all': runCompileAll,
  cache: runCache,
  coverage: runCoverage,
};

function report(cmd: string, e: unknown): number {
  if (e instanceof UsageError) {
    process.stderr.write(`rdna ${cmd}: ${e.message}\n`);
    return 2;
  }
  if (e instanceof InputError) {
    process.stderr.write(`rdna ${cmd}: error: ${e.message}\n`);
    return 1;
  }
  const msg = e instanceof Error ? e.message : String(e);
  process.stderr.write(`rdna ${cmd}: internal error: ${msg.split('\n')[0]} (please report this with the input)\n`);
  return 1;
}

export async function main(argv: readonly string[]): Promise<number> {
  const [cmd, ...rest] = argv;
  if (cmd === undefined || cmd === 'help' || cmd === '--help' || cmd === '-h') {
    process.stdout.write(USAGE + '\n');
    return cmd === undefined ? 2 : 0;
  }
  const run = COMMANDS[cmd];
  if (!run) {
    process.stderr.write(`rdna: unknown command '${cmd}'\n${USAGE}\n`);
    return 2;
  }
  try {
    return await run(rest);
  } catch (e) {
    return report(cmd, e);
  }
}

main(process.argv.slice(2)).then((code) => { process.exitCode = code; }, (e: unknown) => { process.exitCode = report('', e); });
