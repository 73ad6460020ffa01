// The `rdna` command line: dispatches to one file per command; one-line errors, no stack traces.
// Each command's module is imported when that command runs: the module graph of every command
// (the Vulkan runtime, the interpreter, the cache, the disassembler) took most of a short
// command's time to load, and a command needs only its own.
import { InputError, UsageError } from './errors.js';

type Command = (argv: readonly string[]) => number | Promise<number>;

/** Each command: what it does (for the help text), its module's run function and usage line. */
const COMMANDS: Record<string, { readonly what: string; readonly load: () => Promise<{ readonly run: Command; readonly usage: string }> }> = {
  disasm: { what: 'disassemble RDNA2 machine code (raw binary or AMDGPU ELF) as LLVM 19 prints it', load: async () => { const m = await import('./disasm.js'); return { run: m.runDisasm, usage: m.DISASM_USAGE }; } },
  inspect: { what: 'what a code object declares about each kernel (float mode, wave size, ABI registers, sizes, arguments)', load: async () => { const m = await import('./inspect.js'); return { run: m.runInspect, usage: m.INSPECT_USAGE }; } },
  cfg: { what: 'the control-flow graph of one shader: blocks, edges, dominators, loops', load: async () => { const m = await import('./cfg.js'); return { run: m.runCfg, usage: m.CFG_USAGE }; } },
  mode: { what: 'MODE (float rounding/denormals, DX10 clamp, IEEE) at every instruction, per block', load: async () => { const m = await import('./mode.js'); return { run: m.runMode, usage: m.MODE_USAGE }; } },
  validate: { what: 'every finding about each shader\'s reachable code (errors, warnings, notes)', load: async () => { const m = await import('./validate.js'); return { run: m.runValidate, usage: m.VALIDATE_USAGE }; } },
  compile: { what: 'recompile a kernel to Vulkan SPIR-V (first slice: see docs/TECHNICAL_DEBT.md)', load: async () => { const m = await import('./compile.js'); return { run: m.runCompile, usage: m.COMPILE_USAGE }; } },
  'compile-all': { what: 'recompile every shader and kernel under the paths, in parallel, through the cache', load: async () => { const m = await import('./compile-all.js'); return { run: m.runCompileAll, usage: m.COMPILE_ALL_USAGE }; } },
  cache: { what: 'the shader cache: sizes, a full check, or removing every entry', load: async () => { const m = await import('./cache.js'); return { run: m.runCache, usage: m.CACHE_USAGE_LINE }; } },
  run: { what: 'run a kernel on the reference interpreter with the arguments of ARGS.json', load: async () => { const m = await import('./run.js'); return { run: m.runRun, usage: m.RUN_USAGE }; } },
  coverage: { what: 'which opcodes of the ISA table the recompiler translates, per target and family', load: async () => { const m = await import('./coverage.js'); return { run: m.runCoverage, usage: m.COVERAGE_USAGE }; } },
};

/** The help text: every command with its usage line (the one place that loads every command). */
async function usageText(): Promise<string> {
  const lines = ['usage: rdna <command> [options]', '', 'commands:'];
  for (const [name, c] of Object.entries(COMMANDS)) {
    const { usage } = await c.load();
    lines.push(`  ${name.padEnd(9)}${name.length > 9 ? "  " : " "}${c.what}`, `            ${usage.replace('usage: ', '')}`);
  }
  lines.push('  help      show this text');
  return lines.join('\n');
}

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
    process.stdout.write(await usageText() + '\n');
    return cmd === undefined ? 2 : 0;
  }
  const c = Object.hasOwn(COMMANDS, cmd) ? COMMANDS[cmd] : undefined;
  if (!c) {
    process.stderr.write(`rdna: unknown command '${cmd}'\n${await usageText()}\n`);
    return 2;
  }
  try {
    return await (await c.load()).run(rest);
  } catch (e) {
    return report(cmd, e);
  }
}

main(process.argv.slice(2)).then((code) => { process.exitCode = code; }, (e: unknown) => { process.exitCode = report('', e); });
