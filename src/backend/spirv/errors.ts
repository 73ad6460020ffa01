// What emission reports when IR cannot become SPIR-V (yet): the message, with the RDNA pc.
export class CompileError extends Error {
  override readonly name = 'CompileError';
  constructor(message: string, readonly pc?: number) {
    super(pc === undefined ? message : `pc 0x${pc.toString(16)}: ${message}`);
  }
}
