// A construct the recompiler does not translate (yet): where it is and what it is. Never a
// silently wrong translation.
export class TranslateError extends Error {
  override readonly name = 'TranslateError';
  constructor(message: string, readonly pc?: number, readonly instruction?: string, readonly words?: readonly number[]) {
    super(pc === undefined ? message : `pc 0x${pc.toString(16)}: ${instruction ?? ''}${words ? ` (${words.map((w) => (w >>> 0).toString(16).padStart(8, '0')).join(' ')})` : ''}: ${message}`);
  }
}
