// A small, strict argument parser: --flag value / --flag=value, positional arguments.
import { UsageError } from './errors.js';

export interface ParsedArgs {
  readonly options: Map<string, string | true>;
  readonly positional: string[];
}

/** `valued` lists options that take a value; `flags` those that do not. */
export function parseArgs(argv: readonly string[], valued: readonly string[], flags: readonly string[] = []): ParsedArgs {
  const options = new Map<string, string | true>();
  const positional: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] ?? '';
    if (a === '--') { positional.push(...argv.slice(i + 1)); break; }
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      const name = eq >= 0 ? a.slice(2, eq) : a.slice(2);
      if (valued.includes(name)) {
        const v = eq >= 0 ? a.slice(eq + 1) : argv[++i];
        if (v === undefined) throw new UsageError(`option --${name} needs a value`);
        options.set(name, v);
      } else if (flags.includes(name) && eq < 0) {
        options.set(name, true);
      } else {
        throw new UsageError(`unknown option ${a}`);
      }
    } else if (a.startsWith('-') && a !== '-') {
      throw new UsageError(`unknown option ${a}`);
    } else {
      positional.push(a);
    }
  }
  return { options, positional };
}

export function oneOf<T extends string>(value: string, allowed: readonly T[], what: string): T {
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new UsageError(`${what} must be one of ${allowed.join(', ')} (got '${value}')`);
}
