// Execution errors: where (pc, words, instruction text) and why. A run stops at the first one.
export class InterpError extends Error {
  override readonly name = 'InterpError';
  constructor(message: string, readonly pc?: number, readonly instruction?: string, readonly words?: readonly number[]) {
    super(pc === undefined ? message : `pc 0x${pc.toString(16)}: ${instruction ?? ''}${words ? ` (${words.map((w) => (w >>> 0).toString(16).padStart(8, '0')).join(' ')})` : ''}: ${message}`);
  }
}

/** An instruction the interpreter does not implement: never a silent no-op. */
export class UnimplementedError extends InterpError {}
