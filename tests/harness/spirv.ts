// spirv-val (Debian's SPIRV-Tools) as the validity oracle for every module a test emits.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { disassembleSpirv } from '../../src/backend/spirv/disasm.js';

let dir: string | undefined;
let seq = 0;

/** spirv-val's message for the module ('' when valid for the target environment). */
export function spirvValMessage(words: Uint32Array, env = 'vulkan1.3'): string {
  dir ??= mkdtempSync(join(tmpdir(), 'rdna-spv-'));
  const f = join(dir, `m${process.pid}-${seq++}.spv`);
  writeFileSync(f, new Uint8Array(words.buffer, words.byteOffset, words.byteLength));
  const r = spawnSync('spirv-val', ['--target-env', env, f], { encoding: 'utf8' });
  if (r.error) throw r.error;
  return r.status === 0 ? '' : `${r.stdout}${r.stderr}`.trim() || `spirv-val exited ${r.status}`;
}

/** Throws with spirv-val's message unless the module is valid. */
export function spirvVal(words: Uint32Array, name = 'module', env = 'vulkan1.3'): void {
  const m = spirvValMessage(words, env);
  if (m) throw new Error(`${name}: spirv-val --target-env ${env}: ${m}`);
}

/** The module's text with its ids renamed in the order they first appear: equal for modules that differ only in numbering. */
export function canonicalSpirv(words: Uint32Array): string {
  const names = new Map<string, string>();
  return disassembleSpirv(words, { header: false, indent: false }).replace(/%\d+/g, (id) => {
    let n = names.get(id);
    if (n === undefined) { n = `%${names.size + 1}`; names.set(id, n); }
    return n;
  });
}
