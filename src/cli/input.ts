// Reading input files with a bounded size and one-line errors.
import { readFileSync, statSync } from 'node:fs';
import { InputError } from './errors.js';

export const MAX_INPUT_BYTES = 1 << 30;

export function readInput(path: string): Uint8Array {
  let size: number;
  try {
    const st = statSync(path);
    if (st.isDirectory()) throw new InputError(`${path}: is a directory`);
    size = st.size;
  } catch (e) {
    if (e instanceof InputError) throw e;
    throw new InputError(`${path}: ${describeFsError(e)}`);
  }
  if (size > MAX_INPUT_BYTES) throw new InputError(`${path}: file is too large (${size} bytes; the limit is ${MAX_INPUT_BYTES})`);
  try {
    const b = readFileSync(path);
    return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
  } catch (e) {
    throw new InputError(`${path}: ${describeFsError(e)}`);
  }
}

function describeFsError(e: unknown): string {
  const code = (e as { code?: string }).code;
  switch (code) {
    case 'ENOENT': return 'no such file';
    case 'EACCES': return 'permission denied';
    case 'EISDIR': return 'is a directory';
    default: return e instanceof Error ? e.message : String(e);
  }
}
