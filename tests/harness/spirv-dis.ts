// SPIRV-Tools' spirv-dis (Debian's spirv-tools) as the oracle of the SPIR-V disassembler
// (src/backend/spirv/disasm.ts). The flags: `--raw-id --no-color`, ids as numbers and never colour
// codes (spirv-dis colours only a terminal by default); indentation and the header comments stay
// as spirv-dis prints them by default. Nothing else in its output depends on the machine.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { disassembleSpirv } from '../../src/backend/spirv/disasm.js';

export const SPIRV_DIS_FLAGS = ['--raw-id', '--no-color'] as const;

let dir: string | undefined;
let fileNo = 0;

/** Writes the words to a fresh .spv file (little-endian, as Module.assemble() gives them). */
export function writeSpv(words: Uint32Array): string {
  if (!dir) {
    const d = mkdtempSync(join(tmpdir(), 'rdna-spirv-dis-'));
    process.on('exit', () => rmSync(d, { recursive: true, force: true }));
    dir = d;
  }
  const path = join(dir, `m${fileNo++}.spv`);
  writeFileSync(path, new Uint8Array(words.buffer, words.byteOffset, words.byteLength));
  return path;
}

export interface SpirvDisResult {
  /** spirv-dis accepted the module. */
  readonly ok: boolean;
  /** Its standard output, bytes as printed. */
  readonly stdout: Buffer;
  readonly stderr: string;
}

/** spirv-dis's output for a module file (or words, written to a temporary file). */
export function spirvDis(module: string | Uint32Array): SpirvDisResult {
  const path = typeof module === 'string' ? module : writeSpv(module);
  const r = spawnSync('spirv-dis', [...SPIRV_DIS_FLAGS, path], { maxBuffer: 1 << 28 });
  if (r.error) throw new Error(`spirv-dis did not run (Debian package spirv-tools): ${r.error.message}`);
  return { ok: r.status === 0, stdout: r.stdout, stderr: r.stderr.toString() };
}

/** The first differing line of two texts, for a readable failure. */
export function firstDifference(ours: string, theirs: string): string {
  const a = ours.split('\n');
  const b = theirs.split('\n');
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (a[i] !== b[i]) return `line ${i + 1}:\n  rdna:      ${JSON.stringify(a[i])}\n  spirv-dis: ${JSON.stringify(b[i])}`;
  }
  return 'no line differs';
}

/** Asserts that disassembleSpirv prints the module exactly as spirv-dis does, byte for byte. */
export function assertSameAsSpirvDis(words: Uint32Array, what: string, path?: string): void {
  const dis = spirvDis(path ?? words);
  assert.ok(dis.ok, `${what}: spirv-dis rejects the module: ${dis.stderr}`);
  const ours = disassembleSpirv(words);
  const same = Buffer.from(ours, 'utf8').equals(dis.stdout);
  assert.ok(same, `${what}: the disassembly differs from spirv-dis ${SPIRV_DIS_FLAGS.join(' ')} at ${firstDifference(ours, dis.stdout.toString('utf8'))}`);
}
