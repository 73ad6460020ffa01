// LLVM's own views of a code object, the oracle for what rdna reads from one:
// llvm-objdump-19 prints each kernel descriptor back as `.amdhsa_*` directives, and
// llvm-readelf-19 prints the metadata note (YAML) and the symbol table.
import { spawnSync } from 'node:child_process';
import assert from 'node:assert/strict';

/**
 * `.amdhsa_<name>` → value for each kernel's descriptor, as llvm-objdump-19 prints it back (its
 * `; NAME value` comment lines too, lower-cased). Strict: any other line inside a descriptor fails.
 */
export function objdumpDescriptors(file: string, kernels: readonly string[]): Map<string, Map<string, number>> {
  const r = spawnSync('llvm-objdump-19', ['-D', `--disassemble-symbols=${kernels.map((n) => `${n}.kd`).join(',')}`, file], { encoding: 'utf8', maxBuffer: 1 << 28 });
  assert.equal(r.status, 0, r.stderr);
  const out = new Map<string, Map<string, number>>();
  let cur: Map<string, number> | undefined;
  for (const line of r.stdout.split('\n')) {
    const t = line.trim();
    const k = /^\.amdhsa_kernel (\S+)$/.exec(t);
    if (k) { cur = new Map(); out.set(k[1] ?? '', cur); continue; }
    if (t === '.end_amdhsa_kernel') { cur = undefined; continue; }
    if (!cur) continue;
    const m = /^(?:\.amdhsa_|; )(\w+) (\d+)$/.exec(t);
    assert.ok(m, `unexpected objdump line: ${t}`);
    cur.set((m[1] ?? '').toLowerCase(), Number(m[2]));
  }
  return out;
}

export interface ReadelfKernel {
  /** Scalar keys of the kernel map (`.kernarg_segment_size` → '288'). */
  readonly keys: Map<string, string>;
  /** List-valued keys (`.reqd_workgroup_size` → ['64', '2', '1']). */
  readonly lists: Map<string, string[]>;
  /** `.args`: each argument's keys. */
  readonly args: Map<string, string>[];
}

const unquote = (v: string) => v.trim().replace(/^'(.*)'$/, '$1');

/** The metadata note as llvm-readelf-19 --notes prints it: amdhsa.version and each kernel by .name. */
export function readelfMetadata(file: string): { version: string[]; kernels: Map<string, ReadelfKernel> } {
  const r = spawnSync('llvm-readelf-19', ['--notes', file], { encoding: 'utf8', maxBuffer: 1 << 28 });
  assert.equal(r.status, 0, r.stderr);
  const kernels = new Map<string, ReadelfKernel>();
  const version: string[] = [];
  let cur: ReadelfKernel | undefined;
  let list: string[] | undefined;
  let inArgs = false;
  let top = '';
  const finish = () => { if (cur) kernels.set(cur.keys.get('.name') ?? '', cur); };
  for (const l of r.stdout.split('\n')) {
    let m = /^(\S[^:]*):/.exec(l);
    if (m) { top = m[1] ?? ''; list = undefined; continue; }
    if (top === 'amdhsa.version') { m = /^  - (\S+)$/.exec(l); if (m) version.push(m[1] ?? ''); continue; }
    if (top !== 'amdhsa.kernels') continue;
    if (/^  - /.test(l)) { finish(); cur = { keys: new Map(), lists: new Map(), args: [] }; }
    if (!cur) continue;
    m = /^(?: {2}- | {4})(\.\w+):\s*(.*)$/.exec(l);
    if (m) {
      inArgs = m[1] === '.args';
      list = undefined;
      if (m[2] === '') { list = []; cur.lists.set(m[1] ?? '', list); } else cur.keys.set(m[1] ?? '', unquote(m[2] ?? ''));
      continue;
    }
    m = /^ {6}- (\.\w+):\s*(.*)$/.exec(l);
    if (m && inArgs) { cur.args.push(new Map([[m[1] ?? '', unquote(m[2] ?? '')]])); continue; }
    m = /^ {8}(\.\w+):\s*(.*)$/.exec(l);
    if (m && inArgs) { cur.args[cur.args.length - 1]?.set(m[1] ?? '', unquote(m[2] ?? '')); continue; }
    m = /^ {6}- (\S+)$/.exec(l);
    if (m && list) list.push(m[1] ?? '');
  }
  finish();
  return { version, kernels };
}

/** FUNC symbols (name → value) as llvm-readelf-19 --symbols prints them. */
export function readelfFunctions(file: string): Map<string, number> {
  const r = spawnSync('llvm-readelf-19', ['--symbols', '--wide', file], { encoding: 'utf8', maxBuffer: 1 << 28 });
  assert.equal(r.status, 0, r.stderr);
  const out = new Map<string, number>();
  for (const l of r.stdout.split('\n')) {
    const f = l.trim().split(/\s+/);
    if (f.length >= 8 && f[3] === 'FUNC') out.set(f[7] ?? '', parseInt(f[1] ?? '', 16));
  }
  return out;
}
